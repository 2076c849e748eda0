//! Static evaluation from the side to move's point of view, in centipawns
//! (soldier 100, chariot 950; a soldier before the river counts only 60).
//!
//! Terms: material with piece-square tables for both sides; mobility of
//! chariots, horses and cannons; chariots on open files; cannons worth more and
//! horses less while many pieces remain; king safety (attackers near the palace
//! weighed against missing advisors and elephants, the "empty-head cannon",
//! horse and cannon attacking together, horses reaching into the enemy
//! palace, and on the general's file and rank: a piece pinned by an enemy
//! chariot, an enemy piece ready to uncover its chariot's check, an enemy
//! cannon behind two pieces, an enemy cannon facing the general along its
//! rank; a horse on its own palace centre); soldiers
//! (value grows across the river, central and connected soldiers); a small
//! tempo bonus; and endgame scaling for known draws (no attacking material, a
//! lone chariot against full defenders or a single horse or cannon against
//! them, a single soldier against two advisors, chariot against chariot).
//!
//! The weights of these terms are [`PARAMS`]; [`evaluate_with`] takes others
//! (for tuning tools).

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
/// The palace centre per colour, e1 and e8 (square indices: rank * 9 + file).
const PALACE_CENTRE: [usize; 2] = [9 + 4, 8 * 9 + 4];
/// The enemy palace per colour (the squares its general can stand on).
static ENEMY_PALACE: [u128; 2] = [region(3, 5, 7, 9), region(3, 5, 0, 2)];

/// Weights of the evaluation terms, by index into [`Params`]. The tuning tool
/// (`examples/tune.rs`) varies them; the engine uses [`PARAMS`].
pub mod param {
    pub const CHARIOT_MOB: usize = 0;
    pub const CHARIOT_NEAR: usize = 1;
    pub const CHARIOT_OPEN: usize = 2;
    pub const HORSE_MOB: usize = 3;
    pub const HORSE_STUCK: usize = 4;
    pub const HORSE_NEAR: usize = 5;
    pub const CANNON_MOB: usize = 6;
    pub const CANNON_NEAR: usize = 7;
    pub const CONNECTED: usize = 8;
    pub const SOLDIER_NEAR: usize = 9;
    pub const DANGER_BASE: usize = 10;
    pub const MISSING_ADVISOR: usize = 11;
    pub const MISSING_ELEPHANT: usize = 12;
    pub const ATTACK_CAP: usize = 13;
    pub const HORSE_CANNON: usize = 14;
    pub const HOLLOW: usize = 15;
    pub const CANNON_PHASE: usize = 16;
    pub const HORSE_PHASE: usize = 17;
    pub const IDLE_DEFENDER: usize = 18;
    pub const TEMPO: usize = 19;
    pub const PIN_CHARIOT: usize = 20;
    pub const DISCOVERED: usize = 21;
    pub const PIN_CANNON: usize = 22;
    pub const HEART_HORSE: usize = 23;
    pub const HOLLOW_RANK: usize = 24;
    pub const HOLLOW_CHARIOT: usize = 25;
    pub const ACROSS_MISSING: usize = 26;
    pub const DISPLACED: usize = 27;
    pub const IN_PALACE: usize = 28;
    pub const M_CHARIOT: usize = 29;
    pub const M_HORSE: usize = 30;
    pub const M_CANNON: usize = 31;
    pub const M_ADVISOR: usize = 32;
    pub const M_ELEPHANT: usize = 33;
    pub const M_SOLDIER_CROSSED: usize = 34;
    pub const M_SOLDIER_HOME: usize = 35;
    pub const HORSE_PALACE: usize = 36;
    pub const COUNT: usize = 37;
    /// Names, for the tuning tool.
    pub const NAMES: [&str; COUNT] = [
        "chariot_mob",
        "chariot_near",
        "chariot_open",
        "horse_mob",
        "horse_stuck",
        "horse_near",
        "cannon_mob",
        "cannon_near",
        "connected",
        "soldier_near",
        "danger_base",
        "missing_advisor",
        "missing_elephant",
        "attack_cap",
        "horse_cannon",
        "hollow",
        "cannon_phase",
        "horse_phase",
        "idle_defender",
        "tempo",
        "pin_chariot",
        "discovered",
        "pin_cannon",
        "heart_horse",
        "hollow_rank",
        "hollow_chariot",
        "across_missing",
        "displaced",
        "in_palace",
        "m_chariot",
        "m_horse",
        "m_cannon",
        "m_advisor",
        "m_elephant",
        "m_soldier_crossed",
        "m_soldier_home",
        "horse_palace",
    ];
}

/// Evaluation weights (see [`param`]).
pub type Params = [i32; param::COUNT];

/// The weights the engine plays with: fitted by `examples/tune.rs --labels`
/// to ElephantEye's scores of 43,015 quiet positions (BENCHMARKS.md), the
/// material corrections included (advisors, elephants and crossed soldiers
/// are worth a little less than their base values).
pub const PARAMS: Params = [
    8, 5, 67, 13, -24, 4, 2, 0, 19, 6, // mobility, attack, soldiers
    4, 3, 1, 13, 3, 47, -8, 3, -45, 8, // king safety, phase, tempo
    4, 86, 76, 142, 42, 60, 28, 35, -1, // lines through the general
    15, 0, 13, -47, -32, -42, -2, // material corrections
    -3, // horse attacks on the enemy palace
];

/// The squares of each ray of [`RAYS`] as a bit set.
static RAY_BITS: [[u128; 4]; 90] = ray_bits();

const fn ray_bits() -> [[u128; 4]; 90] {
    // North, south, east, west, as in RAYS.
    const STEPS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    let mut t = [[0u128; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = STEPS[d];
            let (mut f, mut r) = ((s % 9) as i32 + df, (s / 9) as i32 + dr);
            while f >= 0 && f < 9 && r >= 0 && r < 10 {
                t[s][d] |= 1u128 << (r * 9 + f);
                f += df;
                r += dr;
            }
            d += 1;
        }
        s += 1;
    }
    t
}

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
    /// Chariots (two each), horses and cannons across the river.
    across: i32,
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
    evaluate_with(pos, &PARAMS)
}

/// [`evaluate`] with the given weights.
#[inline(always)]
pub fn evaluate_with(pos: &Position, w: &Params) -> i32 {
    use param::*;
    let mut sides = [Side::default(); 2];
    let b = &pos.board;
    for (c, side) in sides.iter_mut().enumerate() {
        let bit = (c as u8) << 3;
        let pieces = |role: Role| pos.pieces[(role as u8 | bit) as usize];
        let near_palace = |s: usize| NEAR_PALACE[c] >> s & 1 != 0;
        let in_palace = |s: usize| ENEMY_PALACE[c] >> s & 1 != 0;
        let crossed = |s: usize| CROSSED[c] >> s & 1 != 0;
        // Material and square bonuses are kept up to date by the position.
        side.score = pos.psq[c];
        let own_soldier = bit | Role::Soldier as u8;
        for s in set_bits(pieces(Role::Chariot)) {
            side.chariots += 1;
            // Squares it reaches: the empty ones and the first piece each way.
            let (file, rank) = (pos.file_line(s), pos.rank_line(s));
            let mob = file.empty() + file.blocked() + rank.empty() + rank.blocked();
            side.score += mob * w[CHARIOT_MOB];
            if near_palace(s) {
                side.attack += w[CHARIOT_NEAR];
            }
            if in_palace(s) {
                side.attack += w[IN_PALACE];
            }
            if crossed(s) {
                side.across += 2;
            }
            // Open file ahead: no own soldier in front of the chariot.
            let fwd = &RAYS[s][c];
            if !fwd.squares[..fwd.len as usize]
                .iter()
                .any(|&t| b[t as usize] == own_soldier)
            {
                side.score += w[CHARIOT_OPEN];
            }
        }
        for s in set_bits(pieces(Role::Horse)) {
            side.horses += 1;
            let st = &HORSE_MOVES[s];
            let mut mob = 0;
            // Squares it reaches, and those of them in the enemy palace.
            let mut palace = 0;
            for j in 0..st.len as usize {
                let to = st.to[j] as usize;
                let t = b[to];
                if b[st.block[j] as usize] == 0 {
                    if t == 0 || t & 8 != bit {
                        mob += 1;
                    }
                    if in_palace(to) {
                        palace += 1;
                    }
                }
            }
            side.score += mob * w[HORSE_MOB] - if mob <= 1 { w[HORSE_STUCK] } else { 0 };
            side.score += palace * w[HORSE_PALACE];
            if near_palace(s) {
                side.attack += w[HORSE_NEAR];
                side.horses_near += 1;
            }
            if in_palace(s) {
                side.attack += w[IN_PALACE];
            }
            if crossed(s) {
                side.across += 1;
            }
        }
        for s in set_bits(pieces(Role::Cannon)) {
            side.cannons += 1;
            // Empty squares it can move to.
            let mob = pos.file_line(s).empty() + pos.rank_line(s).empty();
            side.score += mob * w[CANNON_MOB];
            if near_palace(s) {
                side.attack += w[CANNON_NEAR];
                side.cannons_near += 1;
            }
            if in_palace(s) {
                side.attack += w[IN_PALACE];
            }
            if crossed(s) {
                side.across += 1;
            }
        }
        let soldiers = pieces(Role::Soldier);
        side.soldiers = soldiers.count_ones() as i32;
        // Connected soldiers side by side across the river (the right-hand
        // neighbour of a soldier off the last file is one square up).
        let connected = soldiers & (soldiers >> 1) & CROSSED[c] & !LAST_FILE;
        side.score += connected.count_ones() as i32 * w[CONNECTED];
        side.attack += (soldiers & SOLDIER_ATTACK[c]).count_ones() as i32 * w[SOLDIER_NEAR];
        side.advisors = pieces(Role::Advisor).count_ones() as i32;
        side.elephants = pieces(Role::Elephant).count_ones() as i32;
        // Corrections to the material values (zero in play; for tuning).
        let crossed_soldiers = (soldiers & CROSSED[c]).count_ones() as i32;
        side.score += side.chariots * w[M_CHARIOT]
            + side.horses * w[M_HORSE]
            + side.cannons * w[M_CANNON]
            + side.advisors * w[M_ADVISOR]
            + side.elephants * w[M_ELEPHANT]
            + crossed_soldiers * w[M_SOLDIER_CROSSED]
            + (side.soldiers - crossed_soldiers) * w[M_SOLDIER_HOME];
    }
    for c in 0..2 {
        let color = if c == 0 { Color::Red } else { Color::Black };
        let them = sides[1 - c];
        // King safety: attackers near our palace weigh more when defenders are gone.
        let missing = (2 - sides[c].advisors) * w[MISSING_ADVISOR]
            + (2 - sides[c].elephants) * w[MISSING_ELEPHANT];
        let danger =
            them.attack * (w[DANGER_BASE] + missing) * (them.attack.min(w[ATTACK_CAP])) / 8;
        sides[c].score -= danger;
        sides[c].score -= w[ACROSS_MISSING] * them.across * missing / 4;
        let grank = pos.general(color).rank() as i32;
        let displaced = if c == 0 { grank } else { 9 - grank };
        sides[c].score -= w[DISPLACED] * them.chariots * displaced;
        // Horse and cannon attacking together.
        if sides[c].horses_near > 0 && sides[c].cannons_near > 0 {
            sides[c].score += w[HORSE_CANNON];
        }
        // Lines through our general: pieces pinned against it and discovered
        // checks the enemy has ready.
        let enemy = ((1 - c) as u8) << 3;
        let own = (c as u8) << 3;
        let gs = pos.general(color).index();
        // Every term needs an enemy chariot or cannon on the ray.
        let line_pieces = pos.pieces[(enemy | Role::Chariot as u8) as usize]
            | pos.pieces[(enemy | Role::Cannon as u8) as usize];
        for (dir, ray) in RAYS[gs].iter().enumerate() {
            if line_pieces & RAY_BITS[gs][dir] == 0 {
                continue;
            }
            let mut found = [0u8; 3];
            let mut k = 0;
            for &t in &ray.squares[..ray.len as usize] {
                let p = b[t as usize];
                if p != 0 {
                    found[k] = p;
                    k += 1;
                    if k == 3 {
                        break;
                    }
                }
            }
            let [p1, p2, p3] = found;
            let e_chariot = enemy | Role::Chariot as u8;
            let e_cannon = enemy | Role::Cannon as u8;
            if p1 != 0 && p2 == e_chariot {
                if p1 & 8 == own {
                    sides[c].score -= w[PIN_CHARIOT];
                } else {
                    sides[c].score -= w[DISCOVERED];
                }
            }
            if dir >= 2 && p1 == e_cannon {
                sides[c].score -= w[HOLLOW_RANK];
            }
            if p3 == e_cannon {
                sides[c].score -= w[PIN_CANNON];
            }
        }
        // A horse in the palace centre blocks its own general.
        if b[PALACE_CENTRE[c]] == own | Role::Horse as u8 {
            sides[c].score -= w[HEART_HORSE];
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
                    sides[c].score += w[HOLLOW] + w[HOLLOW_CHARIOT] * sides[c].chariots;
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
        side.score += side.cannons * (phase - 8) * w[CANNON_PHASE]
            - side.horses * (phase - 8) * w[HORSE_PHASE];
        // Defenders matter less once the opponent cannot attack any more.
        if them.attackers() == 0 {
            side.score -= (side.advisors + side.elephants) * w[IDLE_DEFENDER];
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
    if pos.turn() == Color::Red {
        score + w[TEMPO]
    } else {
        -score + w[TEMPO]
    }
}

/// Whether the side to move has pieces other than general, advisors and
/// elephants (null-move pruning is unsafe in pure defence endings).
pub(crate) fn has_attackers(pos: &Position, color: Color) -> bool {
    [Role::Chariot, Role::Horse, Role::Cannon]
        .iter()
        .any(|&role| pos.pieces[Piece::new(color, role).code() as usize] != 0)
}
