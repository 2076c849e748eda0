//! Static evaluation from the side to move's point of view, in centipawns
//! (soldier 100, chariot 950; a soldier before the river counts only 60).
//!
//! Terms: material with piece-square tables for both sides; mobility of
//! chariots, horses and cannons; chariots on open files; cannons worth more and
//! horses less while many pieces remain; king safety (attackers near the palace
//! weighed against missing advisors and elephants, the "empty-head cannon",
//! horse and cannon attacking together); soldiers (value grows across the
//! river, central and connected soldiers); a small tempo bonus; and endgame
//! scaling for known draws (no attacking material, a lone chariot against full
//! defenders or a single horse or cannon against them, a single soldier against
//! two advisors, chariot against chariot).

use crate::attacks::{HORSE_MOVES, RAYS};
use crate::piece::{Color, Piece, Role};
use crate::position::{Position, set_bits};

/// Squares per colour (as a bit set) across the river from its own side.
static CROSSED: [u128; 2] = [region(0, 8, 5, 9), region(0, 8, 0, 4)];
/// Squares per colour across the river on the files c..g, near the enemy palace.
static NEAR_PALACE: [u128; 2] = [region(2, 6, 5, 9), region(2, 6, 0, 4)];
/// Where a soldier of each colour weighs on the enemy palace: near it, not yet
/// on the last rank.
static SOLDIER_ATTACK: [u128; 2] = [region(2, 6, 5, 8), region(2, 6, 1, 4)];
/// The squares of file i.
static LAST_FILE: u128 = region(8, 8, 0, 9);

/// The bit set of the squares in a rectangle of files and ranks (inclusive).
const fn region(file_lo: usize, file_hi: usize, rank_lo: usize, rank_hi: usize) -> u128 {
    let mut set = 0;
    let mut s = 0;
    while s < 90 {
        let (f, r) = (s % 9, s / 9);
        if f >= file_lo && f <= file_hi && r >= rank_lo && r <= rank_hi {
            set |= 1u128 << s;
        }
        s += 1;
    }
    set
}

#[derive(Default, Clone, Copy)]
struct Side {
    score: i32,
    chariots: i32,
    horses: i32,
    cannons: i32,
    soldiers: i32,
    advisors: i32,
    elephants: i32,
    /// Weighted attackers in the enemy half near the palace files.
    attack: i32,
    /// Horses and cannons near the enemy palace (they combine well in attack).
    horses_near: i32,
    cannons_near: i32,
}

impl Side {
    fn attackers(&self) -> i32 {
        self.chariots + self.horses + self.cannons + self.soldiers
    }
}

/// Evaluates the position for the side to move.
///
/// ```
/// use xiangqi::Position;
/// use xiangqi::engine::evaluate;
/// // The start position is symmetric: whoever moves gets the same score.
/// let red = Position::startpos();
/// let black = Position::from_fen(&red.to_fen().replace(" w ", " b ")).unwrap();
/// assert_eq!(evaluate(&red), evaluate(&black));
/// ```
pub fn evaluate(pos: &Position) -> i32 {
    let mut sides = [Side::default(); 2];
    let b = &pos.board;
    for (c, side) in sides.iter_mut().enumerate() {
        let bit = (c as u8) << 3;
        let pieces = |role: Role| pos.pieces[(role as u8 | bit) as usize];
        let near_palace = |s: usize| NEAR_PALACE[c] >> s & 1 != 0;
        // Material and square bonuses are kept up to date by the position.
        side.score = pos.psq[c];
        let own_soldier = bit | Role::Soldier as u8;
        for s in set_bits(pieces(Role::Chariot)) {
            side.chariots += 1;
            // Squares it reaches: the empty ones and the first piece each way.
            let (file, rank) = (pos.file_line(s), pos.rank_line(s));
            let mob = file.empty() + file.blocked() + rank.empty() + rank.blocked();
            side.score += mob * 3;
            if near_palace(s) {
                side.attack += 4;
            }
            // Open file ahead: no own soldier in front of the chariot.
            let fwd = &RAYS[s][c];
            if !fwd.squares[..fwd.len as usize]
                .iter()
                .any(|&t| b[t as usize] == own_soldier)
            {
                side.score += 15;
            }
        }
        for s in set_bits(pieces(Role::Horse)) {
            side.horses += 1;
            let st = &HORSE_MOVES[s];
            let mut mob = 0;
            for j in 0..st.len as usize {
                let t = b[st.to[j] as usize];
                if b[st.block[j] as usize] == 0 && (t == 0 || t & 8 != bit) {
                    mob += 1;
                }
            }
            side.score += mob * 6 - if mob <= 1 { 20 } else { 0 };
            if near_palace(s) {
                side.attack += 3;
                side.horses_near += 1;
            }
        }
        for s in set_bits(pieces(Role::Cannon)) {
            side.cannons += 1;
            // Empty squares it can move to.
            let mob = pos.file_line(s).empty() + pos.rank_line(s).empty();
            side.score += mob * 2;
            if near_palace(s) {
                side.attack += 3;
                side.cannons_near += 1;
            }
        }
        let soldiers = pieces(Role::Soldier);
        side.soldiers = soldiers.count_ones() as i32;
        // Connected soldiers side by side across the river (the right-hand
        // neighbour of a soldier off the last file is one square up).
        let connected = soldiers & (soldiers >> 1) & CROSSED[c] & !LAST_FILE;
        side.score += connected.count_ones() as i32 * 15;
        side.attack += (soldiers & SOLDIER_ATTACK[c]).count_ones() as i32 * 2;
        side.advisors = pieces(Role::Advisor).count_ones() as i32;
        side.elephants = pieces(Role::Elephant).count_ones() as i32;
    }
    for c in 0..2 {
        let color = if c == 0 { Color::Red } else { Color::Black };
        let them = sides[1 - c];
        // King safety: attackers near our palace weigh more when defenders are gone.
        let missing = (2 - sides[c].advisors) * 2 + (2 - sides[c].elephants);
        let danger = them.attack * (4 + missing) * (them.attack.min(12)) / 8;
        sides[c].score -= danger;
        // Horse and cannon attacking together.
        if sides[c].horses_near > 0 && sides[c].cannons_near > 0 {
            sides[c].score += 25;
        }
        // Empty-head cannon: our cannon on the enemy general's file with nothing between.
        let g = pos.general(!color);
        for ray in &RAYS[g.index()][..2] {
            for &t in &ray.squares[..ray.len as usize] {
                let p = b[t as usize];
                if p == 0 {
                    continue;
                }
                if p == Piece::new(color, Role::Cannon).code() {
                    sides[c].score += 60;
                }
                break;
            }
        }
    }
    // Cannons need screens and lose value as pieces come off; horses gain.
    let phase: i32 = sides
        .iter()
        .map(|s| s.chariots * 2 + s.horses + s.cannons)
        .sum();
    for c in 0..2 {
        let them = sides[1 - c];
        let side = &mut sides[c];
        side.score += side.cannons * (phase - 8) * 4 - side.horses * (phase - 8) * 3;
        // Defenders matter less once the opponent cannot attack any more.
        if them.attackers() == 0 {
            side.score -= (side.advisors + side.elephants) * 60;
        }
    }
    let (red, black) = (sides[0], sides[1]);
    let mut score = red.score - black.score;
    // Endgame knowledge: the stronger side must be able to mate.
    let (strong, weak) = if score > 0 {
        (red, black)
    } else {
        (black, red)
    };
    let full_defence = weak.advisors == 2 && weak.elephants == 2;
    if strong.attackers() == 0 {
        score /= 16;
    } else {
        let lone_chariot = strong.chariots == 1
            && strong.horses + strong.cannons + strong.soldiers == 0
            && full_defence
            && weak.attackers() == 0;
        // A single horse or cannon cannot break advisors and elephants together.
        let lone_minor = strong.chariots == 0
            && strong.horses + strong.cannons == 1
            && strong.soldiers == 0
            && full_defence;
        // A single soldier cannot break two advisors.
        let lone_soldier = strong.chariots + strong.horses + strong.cannons == 0
            && strong.soldiers == 1
            && weak.advisors == 2;
        // Chariot against chariot with nothing else to attack with.
        let chariots_only = strong.chariots == 1
            && weak.chariots == 1
            && strong.horses + strong.cannons + strong.soldiers == 0;
        if lone_chariot || lone_minor || lone_soldier || chariots_only {
            score /= 8;
        }
    }
    // A small bonus for having the move.
    const TEMPO: i32 = 10;
    if pos.turn() == Color::Red {
        score + TEMPO
    } else {
        -score + TEMPO
    }
}

/// Whether the side to move has pieces other than general, advisors and
/// elephants (null-move pruning is unsafe in pure defence endings).
pub(crate) fn has_attackers(pos: &Position, color: Color) -> bool {
    [Role::Chariot, Role::Horse, Role::Cannon]
        .iter()
        .any(|&role| pos.pieces[Piece::new(color, role).code() as usize] != 0)
}
