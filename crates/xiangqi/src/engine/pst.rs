//! Material and piece-square values: the part of the evaluation that depends
//! only on where each piece stands. [`crate::Position`] keeps its sum per colour
//! up to date on every move, so the evaluation never rescans the board for it.

use crate::piece::Role;

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
    let roles = Role::ALL;
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
pub(crate) static PST: [[i32; 90]; 16] = build_psts();
