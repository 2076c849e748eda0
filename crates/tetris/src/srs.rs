//! Super Rotation System: the kick tests tried, in order, when a piece rotates.
//!
//! Offsets are `(dx, dy)` with `y` up, as in the Tetris Guideline tables. J L S T Z share one
//! table, I has its own and O never kicks. 180° rotation is not part of the Guideline; Ludus
//! uses the widely played TETR.IO "SRS+" 180° table for every piece but O (six tests):
//!
//! | from → to | tests |
//! |---|---|
//! | 0 → 2 | (0,0) (0,1) (1,1) (−1,1) (1,0) (−1,0) |
//! | 2 → 0 | (0,0) (0,−1) (−1,−1) (1,−1) (−1,0) (1,0) |
//! | R → L | (0,0) (1,0) (1,2) (1,1) (0,2) (0,1) |
//! | L → R | (0,0) (−1,0) (−1,2) (−1,1) (0,2) (0,1) |

use crate::piece::{PieceKind, Rotation};

/// Which way a rotation turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Turn {
    Clockwise,
    CounterClockwise,
    Half,
}

impl Turn {
    pub fn apply(self, rotation: Rotation) -> Rotation {
        match self {
            Turn::Clockwise => rotation.cw(),
            Turn::CounterClockwise => rotation.ccw(),
            Turn::Half => rotation.half_turn(),
        }
    }
}

type Kicks = [(i8, i8); 5];

/// J L S T Z, clockwise from each state: 0→R, R→2, 2→L, L→0.
const JLSTZ_CW: [Kicks; 4] = [
    [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)],
    [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
    [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],
    [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],
];

/// J L S T Z, counter-clockwise from each state: 0→L, R→0, 2→R, L→2.
const JLSTZ_CCW: [Kicks; 4] = [
    [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],
    [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
    [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)],
    [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],
];

/// I, clockwise from each state: 0→R, R→2, 2→L, L→0.
const I_CW: [Kicks; 4] = [
    [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)],
    [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)],
    [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)],
    [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)],
];

/// I, counter-clockwise from each state: 0→L, R→0, 2→R, L→2.
const I_CCW: [Kicks; 4] = [
    [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)],
    [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)],
    [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)],
    [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)],
];

/// 180° tests from each state: 0→2, R→L, 2→0, L→R.
const HALF: [[(i8, i8); 6]; 4] = [
    [(0, 0), (0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0)],
    [(0, 0), (1, 0), (1, 2), (1, 1), (0, 2), (0, 1)],
    [(0, 0), (0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0)],
    [(0, 0), (-1, 0), (-1, 2), (-1, 1), (0, 2), (0, 1)],
];

const NO_KICK: [(i8, i8); 1] = [(0, 0)];

/// The offsets to try, in order, when `kind` turns from `from`.
pub fn kicks(kind: PieceKind, from: Rotation, turn: Turn) -> &'static [(i8, i8)] {
    let state = from.index();
    match (kind, turn) {
        (PieceKind::O, _) => &NO_KICK,
        (_, Turn::Half) => &HALF[state],
        (PieceKind::I, Turn::Clockwise) => &I_CW[state],
        (PieceKind::I, Turn::CounterClockwise) => &I_CCW[state],
        (_, Turn::Clockwise) => &JLSTZ_CW[state],
        (_, Turn::CounterClockwise) => &JLSTZ_CCW[state],
    }
}

/// Index of the fifth SRS test (the one that upgrades a T-spin mini to a full T-spin).
pub const FIFTH_TEST: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;

    /// Second source: the SRS "offset" formulation. A kick from state a to b is
    /// offset[a] − offset[b], test by test. For I, the pure rotation is about a different
    /// centre, so its kicks are the offset differences relative to the first one.
    const JLSTZ_OFFSETS: [[(i8, i8); 5]; 4] = [
        [(0, 0); 5],
        [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
        [(0, 0); 5],
        [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],
    ];
    const I_OFFSETS: [[(i8, i8); 5]; 4] = [
        [(0, 0), (-1, 0), (2, 0), (-1, 0), (2, 0)],
        [(-1, 0), (0, 0), (0, 0), (0, 1), (0, -2)],
        [(-1, 1), (1, 1), (-2, 1), (1, 0), (-2, 0)],
        [(0, 1), (0, 1), (0, 1), (0, -1), (0, 2)],
    ];

    fn from_offsets(offsets: &[[(i8, i8); 5]; 4], a: usize, b: usize) -> Vec<(i8, i8)> {
        let raw: Vec<(i8, i8)> = (0..5)
            .map(|t| {
                (
                    offsets[a][t].0 - offsets[b][t].0,
                    offsets[a][t].1 - offsets[b][t].1,
                )
            })
            .collect();
        raw.iter()
            .map(|&(x, y)| (x - raw[0].0, y - raw[0].1))
            .collect()
    }

    #[test]
    fn tables_agree_with_the_offset_formulation() {
        for (kind, offsets) in [(PieceKind::T, &JLSTZ_OFFSETS), (PieceKind::I, &I_OFFSETS)] {
            for from in Rotation::ALL {
                for turn in [Turn::Clockwise, Turn::CounterClockwise] {
                    let to = turn.apply(from);
                    assert_eq!(
                        kicks(kind, from, turn).to_vec(),
                        from_offsets(offsets, from.index(), to.index()),
                        "{kind:?} {from:?} {turn:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn o_never_kicks_and_first_test_is_in_place() {
        for from in Rotation::ALL {
            for turn in [Turn::Clockwise, Turn::CounterClockwise, Turn::Half] {
                assert_eq!(kicks(PieceKind::O, from, turn), &[(0, 0)]);
                for kind in PieceKind::ALL {
                    assert_eq!(kicks(kind, from, turn)[0], (0, 0));
                }
            }
        }
    }
}
