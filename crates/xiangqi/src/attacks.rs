//! Precomputed move and attack tables, built at compile time.
//!
//! Tables are indexed by square index (`rank * 9 + file`). Fixed-size arrays with a
//! length keep the hot loops free of allocation.

// Ray directions in RAYS: 0 north (towards Black), 1 south, 2 east (towards file i), 3 west.

const fn sq(file: i32, rank: i32) -> Option<u8> {
    if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
        Some((rank * 9 + file) as u8)
    } else {
        None
    }
}

/// Whether a square lies in either palace.
pub(crate) const fn in_palace(file: i32, rank: i32) -> bool {
    file >= 3 && file <= 5 && (rank <= 2 || rank >= 7) && rank >= 0 && rank <= 9
}

/// Squares along each ray, nearest first.
#[derive(Clone, Copy)]
pub(crate) struct Ray {
    pub(crate) squares: [u8; 9],
    pub(crate) len: u8,
}

/// A list of up to 8 (target, blocking square) pairs.
#[derive(Clone, Copy)]
pub(crate) struct Steps {
    pub(crate) to: [u8; 8],
    pub(crate) block: [u8; 8],
    pub(crate) len: u8,
}

const EMPTY_STEPS: Steps = Steps {
    to: [0; 8],
    block: [0; 8],
    len: 0,
};

const fn push(mut s: Steps, to: u8, block: u8) -> Steps {
    s.to[s.len as usize] = to;
    s.block[s.len as usize] = block;
    s.len += 1;
    s
}

const DIRS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

const fn build_rays() -> [[Ray; 4]; 90] {
    let mut t = [[Ray {
        squares: [0; 9],
        len: 0,
    }; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRS[d];
            let (mut x, mut y) = (f + df, r + dr);
            while let Some(q) = sq(x, y) {
                let len = t[s][d].len as usize;
                t[s][d].squares[len] = q;
                t[s][d].len += 1;
                x += df;
                y += dr;
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// Horse moves from a square: target and leg.
const fn build_horse_moves() -> [Steps; 90] {
    let mut t = [EMPTY_STEPS; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRS[d];
            if let Some(leg) = sq(f + df, r + dr) {
                // The two targets beyond an orthogonal leg.
                let (sf, sr) = (dr, df); // perpendicular
                if let Some(to) = sq(f + 2 * df + sf, r + 2 * dr + sr) {
                    t[s] = push(t[s], to, leg);
                }
                if let Some(to) = sq(f + 2 * df - sf, r + 2 * dr - sr) {
                    t[s] = push(t[s], to, leg);
                }
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// Squares from which a horse attacks a square, with the leg that must be empty.
/// The leg is always the diagonal neighbour of the attacked square.
const fn build_horse_attackers() -> [Steps; 90] {
    let mut t = [EMPTY_STEPS; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIAG[d];
            if let Some(leg) = sq(f + df, r + dr) {
                if let Some(from) = sq(f + 2 * df, r + dr) {
                    t[s] = push(t[s], from, leg);
                }
                if let Some(from) = sq(f + df, r + 2 * dr) {
                    t[s] = push(t[s], from, leg);
                }
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// Elephant moves: two diagonal steps, not across the river; block = the eye.
const fn build_elephant_moves() -> [Steps; 90] {
    let mut t = [EMPTY_STEPS; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIAG[d];
            if let Some(to) = sq(f + 2 * df, r + 2 * dr) {
                let same_half = (r <= 4) == (r + 2 * dr <= 4);
                if same_half && let Some(eye) = sq(f + df, r + dr) {
                    t[s] = push(t[s], to, eye);
                }
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// Advisor moves: one diagonal step inside the palace.
const fn build_advisor_moves() -> [Steps; 90] {
    let mut t = [EMPTY_STEPS; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        if in_palace(f, r) {
            let mut d = 0;
            while d < 4 {
                let (df, dr) = DIAG[d];
                if in_palace(f + df, r + dr)
                    && (r <= 2) == (r + dr <= 2)
                    && let Some(to) = sq(f + df, r + dr)
                {
                    t[s] = push(t[s], to, to);
                }
                d += 1;
            }
        }
        s += 1;
    }
    t
}

/// General moves: one orthogonal step inside the palace.
const fn build_general_moves() -> [Steps; 90] {
    let mut t = [EMPTY_STEPS; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        if in_palace(f, r) {
            let mut d = 0;
            while d < 4 {
                let (df, dr) = DIRS[d];
                if in_palace(f + df, r + dr)
                    && (r <= 2) == (r + dr <= 2)
                    && let Some(to) = sq(f + df, r + dr)
                {
                    t[s] = push(t[s], to, to);
                }
                d += 1;
            }
        }
        s += 1;
    }
    t
}

/// Soldier moves per colour: forward, and sideways once across the river.
const fn build_soldier_moves() -> [[Steps; 90]; 2] {
    let mut t = [[EMPTY_STEPS; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let fwd = if c == 0 { 1 } else { -1 };
        let mut s = 0;
        while s < 90 {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            if let Some(to) = sq(f, r + fwd) {
                t[c][s] = push(t[c][s], to, to);
            }
            let crossed = if c == 0 { r >= 5 } else { r <= 4 };
            if crossed {
                if let Some(to) = sq(f - 1, r) {
                    t[c][s] = push(t[c][s], to, to);
                }
                if let Some(to) = sq(f + 1, r) {
                    t[c][s] = push(t[c][s], to, to);
                }
            }
            s += 1;
        }
        c += 1;
    }
    t
}

pub(crate) static RAYS: [[Ray; 4]; 90] = build_rays();
pub(crate) static HORSE_MOVES: [Steps; 90] = build_horse_moves();
pub(crate) static HORSE_ATTACKERS: [Steps; 90] = build_horse_attackers();
pub(crate) static ELEPHANT_MOVES: [Steps; 90] = build_elephant_moves();
pub(crate) static ADVISOR_MOVES: [Steps; 90] = build_advisor_moves();
pub(crate) static GENERAL_MOVES: [Steps; 90] = build_general_moves();
pub(crate) static SOLDIER_MOVES: [[Steps; 90]; 2] = build_soldier_moves();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_sizes() {
        // Horse in the middle of the board has 8 moves, in a corner 2.
        assert_eq!(HORSE_MOVES[4 * 9 + 4].len, 8);
        assert_eq!(HORSE_MOVES[0].len, 2);
        // Elephant on c0 reaches a2 and e2 only.
        assert_eq!(ELEPHANT_MOVES[2].len, 2);
        // Elephant on e2 is not allowed to reach across the river (rank 4 is the last).
        assert_eq!(ELEPHANT_MOVES[2 * 9 + 4].len, 4);
        assert_eq!(ELEPHANT_MOVES[4 * 9 + 2].len, 2);
        // Advisor in the palace centre: 4 moves; on d0: 1.
        assert_eq!(ADVISOR_MOVES[9 + 4].len, 4);
        assert_eq!(ADVISOR_MOVES[3].len, 1);
        assert_eq!(GENERAL_MOVES[9 + 4].len, 4);
        assert_eq!(GENERAL_MOVES[3].len, 2);
        assert_eq!(RAYS[0][0].len, 9);
        assert_eq!(RAYS[0][1].len, 0);
        // Red soldier before the river: 1 move; after: 3.
        assert_eq!(SOLDIER_MOVES[0][3 * 9].len, 1);
        assert_eq!(SOLDIER_MOVES[0][5 * 9 + 4].len, 3);
        assert_eq!(SOLDIER_MOVES[1][4 * 9 + 4].len, 3);
        assert_eq!(SOLDIER_MOVES[1][5 * 9 + 4].len, 1);
    }
}
