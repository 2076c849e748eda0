//! FEN input and output.
//!
//! Red is upper case (`K A B N R C P`, also `E` elephant and `H` horse), the side to
//! move is `w`/`r` (Red) or `b` (Black). The castling and en-passant fields some
//! tools write (`- -`) are accepted and ignored; counters are optional.

use crate::piece::{Color, Piece, Role};
use crate::position::Position;
use crate::square::Square;
use std::fmt;

/// What is wrong with a FEN string.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FenError {
    /// The board field is missing.
    Empty,
    /// The board does not have 10 ranks.
    RankCount(usize),
    /// A rank (counted 1..10 from the top, as written) does not have 9 files.
    RankLength { rank: usize, files: usize },
    /// A character that is neither a piece letter nor a digit 1..9.
    UnknownChar { rank: usize, ch: char },
    /// The side to move is not `w`, `r` or `b`.
    BadTurn(String),
    /// A move counter is not a number.
    BadCounter(String),
    /// A field after the two move counters (or a third counter).
    TrailingField(String),
    /// A colour has no general, or more than one.
    GeneralCount { color: Color, count: usize },
    /// A piece stands where it can never be (general or advisor outside the palace,
    /// elephant off its points, soldier behind its start).
    BadSquare { piece: Piece, square: Square },
    /// More pieces of a kind than a side starts with.
    TooMany { piece: Piece, count: usize },
    /// The side that just moved is in check (or the generals face each other).
    OpponentInCheck,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "FEN is empty"),
            FenError::RankCount(n) => write!(f, "FEN board has {n} ranks, expected 10"),
            FenError::RankLength { rank, files } => {
                write!(f, "FEN rank {rank} has {files} files, expected 9")
            }
            FenError::UnknownChar { rank, ch } => {
                write!(f, "FEN rank {rank} has unknown character {ch:?}")
            }
            FenError::BadTurn(s) => write!(f, "FEN side to move {s:?} is not w, r or b"),
            FenError::BadCounter(s) => write!(f, "FEN move counter {s:?} is not a number"),
            FenError::TrailingField(s) => {
                write!(
                    f,
                    "FEN has {s:?} after its move counters, where it should end"
                )
            }
            FenError::GeneralCount { color, count } => {
                write!(f, "FEN has {count} {color} generals, expected 1")
            }
            FenError::BadSquare { piece, square } => {
                write!(f, "FEN piece {piece} cannot stand on {square}")
            }
            FenError::TooMany { piece, count } => write!(f, "FEN has {count} pieces {piece}"),
            FenError::OpponentInCheck => write!(f, "FEN side not to move is in check"),
        }
    }
}

impl std::error::Error for FenError {}

/// Whether a piece may ever stand on a square.
pub(crate) fn allowed_square(piece: Piece, sq: Square) -> bool {
    // Work in the piece owner's frame: rank 0 is its own back rank.
    let (f, r) = match piece.color {
        Color::Red => (sq.file(), sq.rank()),
        Color::Black => (sq.file(), 9 - sq.rank()),
    };
    match piece.role {
        Role::General => (3..=5).contains(&f) && r <= 2,
        Role::Advisor => matches!((f, r), (3, 0) | (5, 0) | (4, 1) | (3, 2) | (5, 2)),
        Role::Elephant => matches!(
            (f, r),
            (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
        ),
        Role::Soldier => r >= 3,
        _ => true,
    }
}

fn max_count(role: Role) -> usize {
    match role {
        Role::General => 1,
        Role::Soldier => 5,
        _ => 2,
    }
}

impl Position {
    /// Parses a FEN string and validates the position.
    ///
    /// ```
    /// use xiangqi::{Position, FenError};
    /// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w").unwrap_err();
    /// assert_eq!(pos, FenError::OpponentInCheck);
    /// let err = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w").unwrap_err();
    /// assert_eq!(err.to_string(), "FEN rank 10 has 10 files, expected 9");
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::RankCount(ranks.len()));
        }
        let mut pos = Position::empty();
        let mut generals = [0usize; 2];
        for (i, text) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0usize;
            for ch in text.chars() {
                if let Some(d) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                } else if let Some(piece) = Piece::from_char(ch) {
                    if let Some(sq) = Square::new(file as u8, rank) {
                        if piece.role == Role::General {
                            generals[piece.color.index()] += 1;
                        }
                        pos.set(sq, Some(piece));
                    }
                    file += 1;
                } else {
                    return Err(FenError::UnknownChar { rank: i + 1, ch });
                }
            }
            if file != 9 {
                return Err(FenError::RankLength {
                    rank: i + 1,
                    files: file,
                });
            }
        }
        for color in [Color::Red, Color::Black] {
            let count = generals[color.index()];
            if count != 1 {
                return Err(FenError::GeneralCount { color, count });
            }
        }
        for sq in Square::all() {
            if let Some(piece) = pos.piece_at(sq)
                && !allowed_square(piece, sq)
            {
                return Err(FenError::BadSquare { piece, square: sq });
            }
        }
        for color in [Color::Red, Color::Black] {
            for role in Role::ALL {
                let piece = Piece::new(color, role);
                let count = pos.count(piece);
                if count > max_count(role) {
                    return Err(FenError::TooMany { piece, count });
                }
            }
        }
        let turn = match fields.next() {
            None | Some("w") | Some("r") | Some("W") | Some("R") => Color::Red,
            Some("b") | Some("B") => Color::Black,
            Some(other) => return Err(FenError::BadTurn(other.to_string())),
        };
        pos.set_turn(turn);
        // Skip the two chess-style fields if present ("- -"); counters follow.
        let rest: Vec<&str> = fields.collect();
        let counters: Vec<&str> = rest.iter().copied().filter(|s| *s != "-").collect();
        // At most "- - halfmoves fullmoves": anything more is not part of a FEN.
        if let Some(extra) = counters.get(2).or(rest.get(4)) {
            return Err(FenError::TrailingField((*extra).to_string()));
        }
        let parse = |s: &str| {
            s.parse::<u32>()
                .map_err(|_| FenError::BadCounter(s.to_string()))
        };
        if let Some(h) = counters.first() {
            pos.halfmoves = parse(h)?;
        }
        if let Some(n) = counters.get(1) {
            pos.fullmoves = parse(n)?.max(1);
        }
        if pos.is_check(!turn) {
            return Err(FenError::OpponentInCheck);
        }
        Ok(pos)
    }

    /// Writes the position as FEN (`w`/`b`, with `- -` and both counters).
    ///
    /// ```
    /// use xiangqi::{Position, START_FEN};
    /// assert_eq!(Position::startpos().to_fen(), START_FEN);
    /// ```
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                match Square::new(file, rank).and_then(|sq| self.piece_at(sq)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let turn = match self.turn {
            Color::Red => 'w',
            Color::Black => 'b',
        };
        format!("{s} {turn} - - {} {}", self.halfmoves, self.fullmoves)
    }
}
