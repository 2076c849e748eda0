//! The four directions a player can walk or push in, and their LURD letters.

use serde::{Deserialize, Serialize};

/// A direction on the board. Rows grow downwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Direction {
    Left,
    Up,
    Right,
    Down,
}

impl Direction {
    /// All four, in LURD order.
    pub const ALL: [Direction; 4] = [
        Direction::Left,
        Direction::Up,
        Direction::Right,
        Direction::Down,
    ];

    /// Column and row offsets of one step.
    pub fn delta(self) -> (isize, isize) {
        match self {
            Direction::Left => (-1, 0),
            Direction::Up => (0, -1),
            Direction::Right => (1, 0),
            Direction::Down => (0, 1),
        }
    }

    pub fn opposite(self) -> Direction {
        match self {
            Direction::Left => Direction::Right,
            Direction::Up => Direction::Down,
            Direction::Right => Direction::Left,
            Direction::Down => Direction::Up,
        }
    }

    /// The LURD letter: lower case for a move, upper case for a push.
    pub fn lurd(self, push: bool) -> char {
        let c = match self {
            Direction::Left => 'l',
            Direction::Up => 'u',
            Direction::Right => 'r',
            Direction::Down => 'd',
        };
        if push { c.to_ascii_uppercase() } else { c }
    }

    /// Reads a LURD letter; the case says whether it was written as a push.
    pub fn from_lurd(c: char) -> Option<(Direction, bool)> {
        let dir = match c.to_ascii_lowercase() {
            'l' => Direction::Left,
            'u' => Direction::Up,
            'r' => Direction::Right,
            'd' => Direction::Down,
            _ => return None,
        };
        Some((dir, c.is_ascii_uppercase()))
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}
