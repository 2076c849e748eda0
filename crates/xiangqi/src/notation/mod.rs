//! Move notations: ICCS/UCI coordinates, WXF and Chinese.
//!
//! WXF and Chinese describe a move the same way (piece, file or front/rear,
//! direction, number), so both are rendered from one description. Parsing
//! normalises the text and compares it with the description of every legal
//! move, so whatever is printed parses back to the same move.

pub mod chinese;
pub mod iccs;
pub mod wxf;

use crate::moves::Move;
use crate::piece::{Color, Role};
use crate::position::Position;
use crate::square::Square;
use std::fmt;

/// Why a move text could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NotationError {
    /// The text is not in the expected shape.
    Syntax(String),
    /// Well formed, but no legal move in the position matches.
    NoSuchMove(String),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Syntax(s) => write!(f, "cannot read move {s:?}"),
            NotationError::NoSuchMove(s) => write!(f, "no legal move matches {s:?}"),
        }
    }
}

impl std::error::Error for NotationError {}

/// Which piece moves, as notations name it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Origin {
    /// The only piece of its kind on this file (number from the mover's right).
    File(u8),
    /// Front or rear of two on a file, or front/middle/rear of three soldiers.
    Front,
    /// The middle of three soldiers on a file (the file number is kept for WXF).
    Middle(u8),
    Rear,
    /// Soldiers when several files hold more than one, or four or more share a
    /// file: position from the front (1-based), how many, and the file.
    Index {
        index: u8,
        count: u8,
        file: u8,
    },
}

/// Direction of a move from the mover's side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Op {
    Advance,
    Retreat,
    Traverse,
}

/// A move as WXF and Chinese notation describe it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Descriptor {
    pub(crate) color: Color,
    pub(crate) role: Role,
    pub(crate) origin: Origin,
    pub(crate) op: Op,
    /// Destination file number, or the number of ranks moved.
    pub(crate) arg: u8,
}

/// File number counted from the mover's right (1..9).
pub(crate) fn file_number(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// How far forward `sq` is for `color` (higher = closer to the enemy).
fn advance(color: Color, sq: Square) -> u8 {
    match color {
        Color::Red => sq.rank(),
        Color::Black => 9 - sq.rank(),
    }
}

impl Position {
    /// Squares of the mover's pieces of the same kind on a file, front first.
    fn same_on_file(&self, color: Color, role: Role, file: u8) -> Vec<Square> {
        let mut v: Vec<Square> = (0..10)
            .filter_map(|r| Square::new(file, r))
            .filter(|&s| {
                self.piece_at(s)
                    .is_some_and(|p| p.color == color && p.role == role)
            })
            .collect();
        v.sort_by_key(|&s| std::cmp::Reverse(advance(color, s)));
        v
    }

    /// Describes a move; `None` if no piece stands on its origin.
    pub(crate) fn describe(&self, m: Move) -> Option<Descriptor> {
        let piece = self.piece_at(m.from)?;
        let (color, role) = (piece.color, piece.role);
        let (from, to) = (m.from, m.to);
        let op = if from.rank() == to.rank() {
            Op::Traverse
        } else if advance(color, to) > advance(color, from) {
            Op::Advance
        } else {
            Op::Retreat
        };
        let arg = match (op, role) {
            (Op::Traverse, _) | (_, Role::Advisor | Role::Elephant | Role::Horse) => {
                file_number(color, to.file())
            }
            _ => from.rank().abs_diff(to.rank()),
        };
        let same = self.same_on_file(color, role, from.file());
        let pos_in = same.iter().position(|&s| s == from).unwrap_or(0) as u8;
        let n = same.len() as u8;
        let file = file_number(color, from.file());
        let origin = if n <= 1 || matches!(role, Role::Advisor | Role::Elephant) {
            Origin::File(file)
        } else if role == Role::Soldier {
            let tandem_files = (0..9)
                .filter(|&f| self.same_on_file(color, role, f).len() >= 2)
                .count();
            match (tandem_files, n, pos_in) {
                (1, 2, 0) | (1, 3, 0) => Origin::Front,
                (1, 2, _) | (1, 3, 2) => Origin::Rear,
                (1, 3, _) => Origin::Middle(file),
                _ => Origin::Index {
                    index: pos_in + 1,
                    count: n,
                    file,
                },
            }
        } else if pos_in == 0 {
            Origin::Front
        } else {
            Origin::Rear
        };
        Some(Descriptor {
            color,
            role,
            origin,
            op,
            arg,
        })
    }

    /// The legal move whose rendering, normalised, equals `normalised`.
    pub(crate) fn find_move(
        &self,
        input: &str,
        normalised: &str,
        render: impl Fn(&Position, Move) -> Option<String>,
        normalise: impl Fn(&str) -> Option<String>,
    ) -> Result<Move, NotationError> {
        for &m in self.legal_moves().iter() {
            if let Some(text) = render(self, m)
                && normalise(&text).as_deref() == Some(normalised)
            {
                return Ok(m);
            }
        }
        Err(NotationError::NoSuchMove(input.to_string()))
    }

    /// Reads a move in any supported notation: ICCS/UCI, WXF or Chinese.
    ///
    /// ```
    /// use xiangqi::Position;
    /// let pos = Position::startpos();
    /// let a = pos.parse_move("h2e2").unwrap();
    /// assert_eq!(pos.parse_move("C2.5").unwrap(), a);
    /// assert_eq!(pos.parse_move("炮二平五").unwrap(), a);
    /// assert_eq!(pos.parse_move("H2-E2").unwrap(), a);
    /// ```
    pub fn parse_move(&self, s: &str) -> Result<Move, NotationError> {
        let t = s.trim();
        if let Ok(m) = self.parse_iccs(t) {
            return Ok(m);
        }
        if t.is_ascii() {
            self.parse_wxf(t)
        } else {
            self.parse_chinese(t)
        }
    }
}
