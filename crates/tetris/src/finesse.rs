//! Finesse: the fewest key presses that put a piece where it locked, and the count of a
//! game's faults (more presses than that).
//!
//! Finesse is defined, as the community's tables define it, on an **empty board at the
//! surface**: the piece starts at spawn, moves and turns above an empty matrix, and is hard
//! dropped. The presses counted are taps left or right, a held sideways key (DAS to the
//! wall, one press however long it is held), clockwise and counter-clockwise turns and —
//! when allowed — the 180° turn. **The hard drop is not counted** (the community counts the
//! moves before the drop), so a piece dropped where it spawns needs 0 presses.
//!
//! Placements with the same cells are the same placement: an S turned right at column 4
//! and turned left at column 5 fill the same cells, and the cheaper of the two counts.
//! The minimums come from a breadth-first search over press sequences with the real SRS
//! kicks, computed once per piece and cached (pure: the same answer on every call).
//!
//! ```
//! use tetris::finesse::{min_presses, Placement};
//! use tetris::{PieceKind, Rotation};
//! // An O dropped against the left wall: one held press.
//! let wall = Placement { kind: PieceKind::O, rotation: Rotation::Spawn, x: 0 };
//! assert_eq!(min_presses(wall, false), Some(1));
//! ```

use std::collections::VecDeque;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::matrix::Matrix;
use crate::piece::{ActivePiece, PieceKind, Rotation};
use crate::srs::{self, Turn};

/// One press that moves or turns the piece before its drop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Press {
    Left,
    Right,
    /// The left key held until the piece reaches the wall (DAS): one press.
    DasLeft,
    /// The right key held until the wall.
    DasRight,
    RotateCw,
    RotateCcw,
    Rotate180,
}

impl Press {
    const ALL: [Press; 7] = [
        Press::Left,
        Press::Right,
        Press::DasLeft,
        Press::DasRight,
        Press::RotateCw,
        Press::RotateCcw,
        Press::Rotate180,
    ];
}

/// Where a piece goes: its kind, rotation and the column of its box's left edge (as
/// [`ActivePiece::x`]); it is hard dropped from there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    pub kind: PieceKind,
    pub rotation: Rotation,
    pub x: i8,
}

impl Placement {
    /// The placement of a piece in play or just locked.
    pub fn of(piece: &ActivePiece) -> Placement {
        Placement {
            kind: piece.kind,
            rotation: piece.rotation,
            x: piece.x,
        }
    }
}

/// The cells a placement fills once hard dropped on an empty matrix, sorted: equal
/// footprints are the same placement.
type Footprint = [(i8, i8); 4];

/// Every footprint of one piece reachable from spawn, with its fewest presses.
type Table = Vec<(Footprint, u8)>;

/// The fewest presses (hard drop not counted) that hard drop the piece at `placement`
/// from spawn on an empty matrix, with the 180° turn allowed or not; `None` for a
/// placement that does not fit the matrix.
pub fn min_presses(placement: Placement, allow_180: bool) -> Option<u8> {
    let footprint = footprint(&ActivePiece {
        kind: placement.kind,
        rotation: placement.rotation,
        x: placement.x,
        y: spawn_piece(placement.kind).y,
    })?;
    table(placement.kind, allow_180)
        .iter()
        .find(|(f, _)| *f == footprint)
        .map(|&(_, presses)| presses)
}

/// The cached tables: `[without 180, with 180][piece]`.
fn table(kind: PieceKind, allow_180: bool) -> &'static Table {
    static TABLES: OnceLock<[[Table; 7]; 2]> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        [false, true].map(|with_180| PieceKind::ALL.map(|kind| search(kind, with_180)))
    });
    &tables[usize::from(allow_180)][kind.index()]
}

/// The piece where the game puts it: spawn, then the Guideline's one-row drop.
fn spawn_piece(kind: PieceKind) -> ActivePiece {
    ActivePiece::spawn(kind).shifted(0, -1)
}

/// Breadth-first search from spawn over press sequences; a footprint's first visit is its
/// fewest presses. At most 4 rotations × 10 columns × a few heights of kicks: tiny.
fn search(kind: PieceKind, allow_180: bool) -> Table {
    let empty = Matrix::new();
    let start = spawn_piece(kind);
    let mut seen = vec![start];
    let mut queue = VecDeque::from([(start, 0u8)]);
    let mut table: Table = Vec::new();
    while let Some((piece, presses)) = queue.pop_front() {
        if let Some(print) = footprint(&piece)
            && !table.iter().any(|(f, _)| *f == print)
        {
            table.push((print, presses));
        }
        for press in Press::ALL {
            if press == Press::Rotate180 && !allow_180 {
                continue;
            }
            let Some(next) = apply(&empty, piece, press) else {
                continue;
            };
            if !seen.contains(&next) {
                seen.push(next);
                queue.push_back((next, presses.saturating_add(1)));
            }
        }
    }
    table
}

/// The piece after one press on `matrix`, `None` when it cannot move.
fn apply(matrix: &Matrix, piece: ActivePiece, press: Press) -> Option<ActivePiece> {
    let slide = |dx: i8, to_wall: bool| {
        let mut moved = piece.shifted(dx, 0);
        if !matrix.fits(&moved) {
            return None;
        }
        while to_wall && matrix.fits(&moved.shifted(dx, 0)) {
            moved = moved.shifted(dx, 0);
        }
        Some(moved)
    };
    let turn = |turn: Turn| {
        let rotation = turn.apply(piece.rotation);
        srs::kicks(piece.kind, piece.rotation, turn)
            .iter()
            .map(|&(dx, dy)| ActivePiece {
                rotation,
                x: piece.x + dx,
                y: piece.y + dy,
                ..piece
            })
            .find(|candidate| matrix.fits(candidate))
    };
    match press {
        Press::Left => slide(-1, false),
        Press::Right => slide(1, false),
        Press::DasLeft => slide(-1, true),
        Press::DasRight => slide(1, true),
        Press::RotateCw => turn(Turn::Clockwise),
        Press::RotateCcw => turn(Turn::CounterClockwise),
        Press::Rotate180 => turn(Turn::Half),
    }
}

/// The sorted cells of `piece` hard dropped on an empty matrix; `None` when it does not fit.
fn footprint(piece: &ActivePiece) -> Option<Footprint> {
    let empty = Matrix::new();
    if !empty.fits(piece) {
        return None;
    }
    let bottom = piece.cells().iter().map(|c| c.1).min().unwrap_or(0);
    let mut cells = piece.shifted(0, -bottom).cells();
    cells.sort_unstable();
    Some(cells)
}

/// A game's finesse so far: the presses of the piece in play, and the judged pieces.
///
/// A piece is judged when it locks (or, in finesse training, when it would): its move
/// and turn presses against [`min_presses`] for where it landed. A piece that was soft
/// dropped is not judged (tucks and spins need more than the surface minimum), nor one
/// that was swapped by hold (its count restarts with the piece that comes in).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct FinesseCount {
    /// Move and turn presses of the piece in play.
    pub piece_presses: u32,
    /// The piece in play was soft dropped, so it will not be judged.
    pub piece_soft_dropped: bool,
    /// Pieces judged.
    pub judged: u64,
    /// Judged pieces that took more presses than the minimum.
    pub faults: u64,
    /// Every key press of the game (moves, turns, drops, hold): for keys per piece.
    pub keys: u64,
    /// The last judged piece was a fault (for a flash on screen).
    pub last_fault: bool,
}

impl FinesseCount {
    /// Percentage of judged pieces without a fault (100 before any).
    pub fn rate(&self) -> f64 {
        if self.judged == 0 {
            100.0
        } else {
            (self.judged - self.faults) as f64 * 100.0 / self.judged as f64
        }
    }

    /// Judges the piece locking at `placement`; true when it is a fault. Starts the count
    /// of the next piece.
    pub fn judge(&mut self, placement: Placement, allow_180: bool) -> bool {
        let fault = !self.piece_soft_dropped
            && min_presses(placement, allow_180)
                .is_some_and(|min| self.piece_presses > u32::from(min));
        if !self.piece_soft_dropped {
            self.judged += 1;
            self.faults += u64::from(fault);
            self.last_fault = fault;
        }
        self.new_piece();
        fault
    }

    /// Forgets the presses of the piece in play (a new piece, a hold, a retry).
    pub fn new_piece(&mut self) {
        self.piece_presses = 0;
        self.piece_soft_dropped = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PieceKind::{I, J, L, O, S, T, Z};
    use Rotation::{Left, Reverse, Right, Spawn};

    fn presses(kind: PieceKind, rotation: Rotation, x: i8) -> u8 {
        min_presses(Placement { kind, rotation, x }, false)
            .unwrap_or_else(|| panic!("{kind:?} {rotation:?} at {x} fits"))
    }

    /// The column of a placement's leftmost cell, for readable expectations.
    fn left_column(kind: PieceKind, rotation: Rotation) -> i8 {
        kind.cells(rotation).iter().map(|c| c.0).min().unwrap_or(0)
    }

    /// Presses for a placement given by its leftmost column (0..).
    fn at_column(kind: PieceKind, rotation: Rotation, column: i8) -> u8 {
        presses(kind, rotation, column - left_column(kind, rotation))
    }

    #[test]
    fn o_piece_matches_the_community_table() {
        // Columns 0..=8 of the O's left half.
        let expected = [1, 2, 2, 1, 0, 1, 2, 2, 1];
        let found: Vec<u8> = (0..9).map(|c| at_column(O, Spawn, c)).collect();
        assert_eq!(found, expected);
    }

    #[test]
    fn flat_t_j_l_match_the_community_table() {
        // Spawn orientation, leftmost column 0..=7.
        let expected = [1, 2, 1, 0, 1, 2, 2, 1];
        for kind in [T, J, L] {
            let found: Vec<u8> = (0..8).map(|c| at_column(kind, Spawn, c)).collect();
            assert_eq!(found, expected, "{kind:?}");
        }
    }

    #[test]
    fn i_piece_flat_and_upright() {
        let flat: Vec<u8> = (0..7).map(|c| at_column(I, Spawn, c)).collect();
        assert_eq!(flat, [1, 2, 1, 0, 1, 2, 1]);
        // Upright at the walls: a turn and a held press.
        assert_eq!(at_column(I, Right, 0), 2);
        assert_eq!(at_column(I, Right, 9), 2);
        // Upright where a turn puts it: one press.
        assert_eq!(at_column(I, Right, 5), 1);
        assert_eq!(at_column(I, Left, 4), 1);
        // Both upright states fill the same cells at the same column.
        for column in 0..10 {
            assert_eq!(at_column(I, Right, column), at_column(I, Left, column));
        }
    }

    #[test]
    fn s_and_z_upright_states_are_one_placement() {
        for kind in [S, Z] {
            for column in 0..9 {
                assert_eq!(
                    at_column(kind, Right, column),
                    at_column(kind, Left, column),
                    "{kind:?} column {column}"
                );
            }
            // Against the left wall: turn and hold left; flat spawn at the centre: none.
            assert_eq!(at_column(kind, Left, 0), 2, "{kind:?}");
            assert_eq!(at_column(kind, Spawn, 3), 0, "{kind:?}");
            assert_eq!(at_column(kind, Reverse, 3), 0, "{kind:?} flat either way");
        }
    }

    #[test]
    fn half_turns_cost_two_without_180_and_one_with_it() {
        let upside_down = Placement {
            kind: T,
            rotation: Reverse,
            x: 3,
        };
        assert_eq!(min_presses(upside_down, false), Some(2));
        assert_eq!(min_presses(upside_down, true), Some(1));
        // T pointing left against the right wall: CCW (or CW and 180…) then held right.
        assert_eq!(at_column(T, Left, 8), 2);
    }

    #[test]
    fn no_placement_needs_more_than_four_presses_and_off_matrix_ones_are_none() {
        for kind in PieceKind::ALL {
            for rotation in Rotation::ALL {
                for x in -3..12 {
                    let placement = Placement { kind, rotation, x };
                    if let Some(n) = min_presses(placement, false) {
                        assert!(n <= 4, "{placement:?} {n}");
                    }
                }
            }
        }
        assert_eq!(
            min_presses(
                Placement {
                    kind: O,
                    rotation: Spawn,
                    x: 9
                },
                false
            ),
            None
        );
    }

    #[test]
    fn judging_counts_faults_and_skips_soft_drops() {
        let mut count = FinesseCount::default();
        let wall = Placement {
            kind: O,
            rotation: Spawn,
            x: 0,
        };
        count.piece_presses = 4; // four taps instead of one held press
        assert!(count.judge(wall, false));
        count.piece_presses = 1;
        assert!(!count.judge(wall, false));
        count.piece_presses = 9;
        count.piece_soft_dropped = true;
        assert!(!count.judge(wall, false));
        assert_eq!((count.judged, count.faults), (2, 1));
        assert_eq!(count.rate(), 50.0);
        assert_eq!(count.piece_presses, 0);
    }
}
