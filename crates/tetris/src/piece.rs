//! The seven tetrominoes: shapes in every rotation state, colours and spawn positions.
//!
//! Coordinates: `x` grows to the right (0..10), `y` grows upwards (0 is the bottom row).
//! A piece is placed by the bottom-left corner of its bounding box (3×3 for J L S T Z,
//! 4×4 for I, 2×2 for O), so a rotation state is a pure rotation inside that box, as SRS
//! defines it.

use serde::{Deserialize, Serialize};

/// One of the seven tetrominoes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum PieceKind {
    I,
    O,
    T,
    S,
    Z,
    J,
    L,
}

/// The Guideline colour of a piece, for front ends to map onto their palette.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    Cyan,
    Yellow,
    Purple,
    Green,
    Red,
    Blue,
    Orange,
}

/// Rotation state: spawn, one turn clockwise, half turn, one turn counter-clockwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Rotation {
    Spawn,
    Right,
    Reverse,
    Left,
}

impl Rotation {
    pub const ALL: [Rotation; 4] = [
        Rotation::Spawn,
        Rotation::Right,
        Rotation::Reverse,
        Rotation::Left,
    ];

    /// 0 for spawn, then 1, 2, 3 going clockwise.
    pub fn index(self) -> usize {
        match self {
            Rotation::Spawn => 0,
            Rotation::Right => 1,
            Rotation::Reverse => 2,
            Rotation::Left => 3,
        }
    }

    pub fn from_index(index: usize) -> Rotation {
        Rotation::ALL[index % 4]
    }

    pub fn cw(self) -> Rotation {
        Rotation::from_index(self.index() + 1)
    }

    pub fn ccw(self) -> Rotation {
        Rotation::from_index(self.index() + 3)
    }

    pub fn half_turn(self) -> Rotation {
        Rotation::from_index(self.index() + 2)
    }
}

impl PieceKind {
    pub const ALL: [PieceKind; 7] = [
        PieceKind::I,
        PieceKind::O,
        PieceKind::T,
        PieceKind::S,
        PieceKind::Z,
        PieceKind::J,
        PieceKind::L,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn letter(self) -> char {
        match self {
            PieceKind::I => 'I',
            PieceKind::O => 'O',
            PieceKind::T => 'T',
            PieceKind::S => 'S',
            PieceKind::Z => 'Z',
            PieceKind::J => 'J',
            PieceKind::L => 'L',
        }
    }

    /// The piece for a letter, either case.
    pub fn from_letter(letter: char) -> Option<PieceKind> {
        PieceKind::ALL
            .into_iter()
            .find(|kind| kind.letter() == letter.to_ascii_uppercase())
    }

    pub fn colour(self) -> Colour {
        match self {
            PieceKind::I => Colour::Cyan,
            PieceKind::O => Colour::Yellow,
            PieceKind::T => Colour::Purple,
            PieceKind::S => Colour::Green,
            PieceKind::Z => Colour::Red,
            PieceKind::J => Colour::Blue,
            PieceKind::L => Colour::Orange,
        }
    }

    /// Side of the bounding box.
    pub fn box_size(self) -> i8 {
        match self {
            PieceKind::I => 4,
            PieceKind::O => 2,
            _ => 3,
        }
    }

    /// The four cells relative to the box's bottom-left corner.
    pub fn cells(self, rotation: Rotation) -> [(i8, i8); 4] {
        CELLS[self.index()][rotation.index()]
    }

    /// Where the piece appears: Guideline rows 21–22 (y = 20, 21), I and O centred,
    /// the 3-wide pieces rounded to the left.
    pub fn spawn_position(self) -> (i8, i8) {
        match self {
            PieceKind::I => (3, 18),
            PieceKind::O => (4, 20),
            _ => (3, 19),
        }
    }
}

#[cfg(test)]
/// Spawn-state pictures, top row first, one string per row of the bounding box.
fn spawn_picture(kind: PieceKind) -> &'static [&'static str] {
    match kind {
        PieceKind::I => &["....", "####", "....", "...."],
        PieceKind::O => &["##", "##"],
        PieceKind::T => &[".#.", "###", "..."],
        PieceKind::S => &[".##", "##.", "..."],
        PieceKind::Z => &["##.", ".##", "..."],
        PieceKind::J => &["#..", "###", "..."],
        PieceKind::L => &["..#", "###", "..."],
    }
}

/// Every shape in every rotation as a literal table; a test checks it against the spawn
/// pictures rotated inside the bounding box.
const CELLS: [[[(i8, i8); 4]; 4]; 7] = [
    // I
    [
        [(0, 2), (1, 2), (2, 2), (3, 2)],
        [(2, 0), (2, 1), (2, 2), (2, 3)],
        [(0, 1), (1, 1), (2, 1), (3, 1)],
        [(1, 0), (1, 1), (1, 2), (1, 3)],
    ],
    // O
    [
        [(0, 0), (1, 0), (0, 1), (1, 1)],
        [(0, 0), (1, 0), (0, 1), (1, 1)],
        [(0, 0), (1, 0), (0, 1), (1, 1)],
        [(0, 0), (1, 0), (0, 1), (1, 1)],
    ],
    // T
    [
        [(0, 1), (1, 1), (2, 1), (1, 2)],
        [(1, 0), (1, 1), (1, 2), (2, 1)],
        [(0, 1), (1, 1), (2, 1), (1, 0)],
        [(1, 0), (1, 1), (1, 2), (0, 1)],
    ],
    // S
    [
        [(0, 1), (1, 1), (1, 2), (2, 2)],
        [(1, 2), (1, 1), (2, 1), (2, 0)],
        [(0, 0), (1, 0), (1, 1), (2, 1)],
        [(0, 2), (0, 1), (1, 1), (1, 0)],
    ],
    // Z
    [
        [(0, 2), (1, 2), (1, 1), (2, 1)],
        [(2, 2), (2, 1), (1, 1), (1, 0)],
        [(0, 1), (1, 1), (1, 0), (2, 0)],
        [(1, 2), (1, 1), (0, 1), (0, 0)],
    ],
    // J
    [
        [(0, 2), (0, 1), (1, 1), (2, 1)],
        [(1, 0), (1, 1), (1, 2), (2, 2)],
        [(0, 1), (1, 1), (2, 1), (2, 0)],
        [(0, 0), (1, 0), (1, 1), (1, 2)],
    ],
    // L
    [
        [(2, 2), (0, 1), (1, 1), (2, 1)],
        [(1, 0), (1, 1), (1, 2), (2, 0)],
        [(0, 1), (1, 1), (2, 1), (0, 0)],
        [(0, 2), (1, 0), (1, 1), (1, 2)],
    ],
];

/// A piece in play: its kind, rotation state and the position of its box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ActivePiece {
    pub kind: PieceKind,
    pub rotation: Rotation,
    pub x: i8,
    pub y: i8,
}

impl ActivePiece {
    /// A new piece at its spawn position (before the Guideline's one-row drop).
    pub fn spawn(kind: PieceKind) -> ActivePiece {
        let (x, y) = kind.spawn_position();
        ActivePiece {
            kind,
            rotation: Rotation::Spawn,
            x,
            y,
        }
    }

    /// The four occupied cells in matrix coordinates.
    pub fn cells(&self) -> [(i8, i8); 4] {
        self.kind
            .cells(self.rotation)
            .map(|(dx, dy)| (self.x + dx, self.y + dy))
    }

    pub fn shifted(&self, dx: i8, dy: i8) -> ActivePiece {
        ActivePiece {
            x: self.x + dx,
            y: self.y + dy,
            ..*self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn picture_cells(kind: PieceKind) -> BTreeSet<(i8, i8)> {
        let rows = spawn_picture(kind);
        let size = rows.len() as i8;
        let mut cells = BTreeSet::new();
        for (row, text) in rows.iter().enumerate() {
            for (col, ch) in text.chars().enumerate() {
                if ch == '#' {
                    cells.insert((col as i8, size - 1 - row as i8));
                }
            }
        }
        cells
    }

    /// Rotating clockwise inside an n×n box maps (x, y) to (y, n-1-x) with y up.
    fn rotate_cw(cells: &BTreeSet<(i8, i8)>, size: i8) -> BTreeSet<(i8, i8)> {
        cells.iter().map(|&(x, y)| (y, size - 1 - x)).collect()
    }

    #[test]
    fn table_matches_pictures_rotated_in_the_box() {
        for kind in PieceKind::ALL {
            let mut expected = picture_cells(kind);
            for rotation in Rotation::ALL {
                let table: BTreeSet<_> = kind.cells(rotation).into_iter().collect();
                assert_eq!(table, expected, "{kind:?} {rotation:?}");
                expected = rotate_cw(&expected, kind.box_size());
            }
        }
    }

    #[test]
    fn spawn_occupies_rows_21_and_22_centred() {
        for kind in PieceKind::ALL {
            let cells = ActivePiece::spawn(kind).cells();
            let ys: BTreeSet<_> = cells.iter().map(|c| c.1).collect();
            let xs: BTreeSet<_> = cells.iter().map(|c| c.0).collect();
            if kind == PieceKind::I {
                assert_eq!(ys, [20].into());
                assert_eq!(xs, [3, 4, 5, 6].into());
            } else {
                assert_eq!(ys, [20, 21].into(), "{kind:?}");
                let expected: BTreeSet<i8> = if kind == PieceKind::O {
                    [4, 5].into()
                } else {
                    [3, 4, 5].into()
                };
                assert_eq!(xs, expected, "{kind:?}");
            }
        }
    }

    #[test]
    fn letters_round_trip() {
        for kind in PieceKind::ALL {
            assert_eq!(PieceKind::from_letter(kind.letter()), Some(kind));
        }
        assert_eq!(PieceKind::from_letter('x'), None);
    }
}
