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
use crate::position::Position;
use crate::square::Square;

/// Material values by role (general counted as 0).
pub const VALUES: [i32; 8] = [0, 0, 130, 130, 420, 950, 460, 100];

/// Value of a role for ordering and pruning.
pub fn value(role: Role) -> i32 {
    VALUES[role as usize]
}

/// Piece-square bonus for a piece of `role` on a square given in its owner's
/// frame (file 0..9, rank 0 = own back rank).
const fn pst(role: Role, file: i32, rank: i32) -> i32 {
    let cd = if file > 4 { file - 4 } else { 4 - file };
    match role {
        Role::Soldier => {
            if rank <= 4 {
                // Before the river a soldier is worth little more than a tempo.
                if rank == 4 { -30 } else { -40 }
            } else {
                let adv = match rank {
                    5 => 70,
                    6 => 100,
                    7 => 120,
                    8 => 110,
                    _ => 30,
                };
                let central = if rank >= 6 && rank <= 8 && cd <= 2 {
                    (3 - cd) * 12
                } else {
                    0
                };
                adv + central
            }
        }
        Role::Horse => {
            let fwd = match rank {
                0 => -20,
                1 => -5,
                2 => 0,
                3 => 5,
                4 => 10,
                5 => 20,
                6 => 25,
                7 => 30,
                8 => 15,
                _ => 0,
            };
            let edge = if file == 0 || file == 8 { -20 } else { 0 };
            fwd + (4 - cd) * 4 + edge
        }
        Role::Chariot => {
            let fwd = match rank {
                5 | 6 => 10,
                7 | 8 => 20,
                9 => 5,
                _ => 0,
            };
            fwd + if cd <= 1 { 6 } else { 0 }
        }
        Role::Cannon => {
            let home = if rank <= 2 && file == 4 { 20 } else { 0 };
            let fwd = match rank {
                0..=2 => 0,
                3..=5 => 5,
                6 | 7 => 10,
                _ => -5,
            };
            home + fwd + (4 - cd) * 2
        }
        Role::General => {
            let r = match rank {
                0 => 0,
                1 => -15,
                _ => -35,
            };
            r - if cd != 0 { 5 } else { 0 }
        }
        Role::Advisor => {
            if file == 4 && rank == 1 {
                10
            } else {
                0
            }
        }
        Role::Elephant => {
            if file == 4 && rank == 2 {
                10
            } else {
                0
            }
        }
    }
}

const fn build_psts() -> [[i32; 90]; 16] {
    let roles = [
        Role::General,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Chariot,
        Role::Cannon,
        Role::Soldier,
    ];
    let mut t = [[0; 90]; 16];
    let mut i = 0;
    while i < 7 {
        let role = roles[i];
        let mut s = 0;
        while s < 90 {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            let v = VALUES[role as usize];
            t[role as usize][s] = v + pst(role, f, r);
            t[role as usize | 8][s] = v + pst(role, f, 9 - r);
            s += 1;
        }
        i += 1;
    }
    t
}

/// Material plus square bonus per piece code and square.
static PST: [[i32; 90]; 16] = build_psts();

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
    let mut occupied = pos.occupied[0] | pos.occupied[1];
    while occupied != 0 {
        let s = occupied.trailing_zeros() as usize;
        occupied &= occupied - 1;
        let code = b[s];
        let c = ((code >> 3) & 1) as usize;
        let side = &mut sides[c];
        side.score += PST[(code & 15) as usize][s];
        let rank = (s / 9) as i32;
        let file = (s % 9) as i32;
        let own_rank = if c == 0 { rank } else { 9 - rank };
        let near_palace = own_rank >= 5 && (2..=6).contains(&file);
        match Role::from_u8(code & 7) {
            Some(Role::Chariot) => {
                side.chariots += 1;
                let mut mob = 0;
                for ray in &RAYS[s] {
                    for &t in &ray.squares[..ray.len as usize] {
                        mob += 1;
                        if b[t as usize] != 0 {
                            break;
                        }
                    }
                }
                side.score += mob * 3;
                if near_palace {
                    side.attack += 4;
                }
                // Open file ahead: no own soldier in front of the chariot.
                let fwd = &RAYS[s][c];
                let own_soldier = code & 8 | Role::Soldier as u8;
                if !fwd.squares[..fwd.len as usize]
                    .iter()
                    .any(|&t| b[t as usize] == own_soldier)
                {
                    side.score += 15;
                }
            }
            Some(Role::Horse) => {
                side.horses += 1;
                let st = &HORSE_MOVES[s];
                let mut mob = 0;
                for j in 0..st.len as usize {
                    let t = b[st.to[j] as usize];
                    if b[st.block[j] as usize] == 0 && (t == 0 || (t >> 3) & 1 != c as u8) {
                        mob += 1;
                    }
                }
                side.score += mob * 6 - if mob <= 1 { 20 } else { 0 };
                if near_palace {
                    side.attack += 3;
                    side.horses_near += 1;
                }
            }
            Some(Role::Cannon) => {
                side.cannons += 1;
                let mut mob = 0;
                for ray in &RAYS[s] {
                    for &t in &ray.squares[..ray.len as usize] {
                        if b[t as usize] != 0 {
                            break;
                        }
                        mob += 1;
                    }
                }
                side.score += mob * 2;
                if near_palace {
                    side.attack += 3;
                    side.cannons_near += 1;
                }
            }
            Some(Role::Soldier) => {
                side.soldiers += 1;
                if own_rank >= 5 {
                    // Connected soldiers side by side across the river.
                    if file < 8 && b[s + 1] == code {
                        side.score += 15;
                    }
                    if near_palace && own_rank <= 8 {
                        side.attack += 2;
                    }
                }
            }
            Some(Role::Advisor) => side.advisors += 1,
            Some(Role::Elephant) => side.elephants += 1,
            _ => {}
        }
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
    pos.squares_of(color).any(|s: Square| {
        pos.piece_at(s)
            .is_some_and(|p| matches!(p.role, Role::Chariot | Role::Horse | Role::Cannon))
    })
}
