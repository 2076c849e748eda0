//! xiangqi: pure rules of Chinese chess (no IO, no clock, no global RNG).
//!
//! ```
//! use xiangqi::{Position, Move, Square};
//! let mut pos = Position::startpos();
//! let m = Move::new(Square::parse("h2").unwrap(), Square::parse("e2").unwrap());
//! pos.play(m).unwrap();
//! assert_eq!(pos.to_fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
//! ```

mod attacks;
pub mod engine;
mod fen;
mod game;
mod movegen;
mod moves;
pub mod notation;
mod perft;
pub mod pgn;
mod piece;
mod position;
mod rules;
mod square;
mod zobrist;

pub use fen::FenError;
pub use game::{COUNTED_CHECKS, Game, MOVE_LIMIT_PLIES, Ply, REPETITIONS};
pub use moves::{MAX_MOVES, Move, MoveList};
pub use notation::NotationError;
pub use perft::{perft, perft_divide};
pub use piece::{Color, Piece, Role};
pub use position::{Position, START_FEN, Undo};
pub use rules::{EndReason, GameResult, Outcome};
pub use square::{NUM_SQUARES, Square};

use std::fmt;

/// A move that is not legal in the position it was played in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct IllegalMove(pub Move);

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}", self.0)
    }
}

impl std::error::Error for IllegalMove {}
