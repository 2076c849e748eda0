//! xiangqi: the rules of Chinese chess, its notations and game records, and an
//! engine core. Pure: no IO, no clock, no threads, no global RNG.
//!
//! - [`Position`]: board, side to move, counters, Zobrist key; FEN in and out
//!   ([`Position::from_fen`], [`Position::to_fen`]); legal moves
//!   ([`Position::legal_moves`]), [`Position::make_move`] / [`Position::unmake_move`],
//!   checked [`Position::play`]; check, mate and stalemate queries.
//! - [`Game`]: a position plus its history, with [`Game::play`], [`Game::undo`] and
//!   [`Game::result`] (checkmate, stalemate loses, perpetual check and chase under
//!   the Asian rules, the 60-move rule, insufficient material).
//! - [`notation`]: ICCS/UCI (`h2e2`, `H2-E2`), WXF (`C2.5`) and Chinese (`炮二平五`),
//!   printed and parsed ([`Position::parse_move`] reads any of them).
//! - [`pgn`]: import and export of game records; [`xqf`]: XQF records (binary,
//!   every version including the encrypted ones) in, the main line out.
//! - [`ecco`]: the ECCO opening code and name of a game.
//! - [`perft()`], [`perft_divide`] and the stoppable [`perft_divide_until`] for
//!   move-generator testing.
//! - [`engine`]: iterative-deepening search with the caller's clock and cancel flag.
//! - [`tablebase`]: endgame tables by retrograde analysis, and their probing.
//!
//! ```
//! use xiangqi::{Game, Position};
//! let mut game = Game::new();
//! for text in ["h2e2", "马8进7", "H2+3"] {
//!     game.play_text(text).unwrap();
//! }
//! assert_eq!(game.last_move().unwrap().to_string(), "h0g2");
//! assert!(game.play_text("h2e3").is_err());
//! assert_eq!(
//!     game.position().to_fen(),
//!     "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2"
//! );
//! assert!(game.result().is_none());
//! ```

mod attacks;
pub mod ecco;
pub mod engine;
mod fen;
mod game;
mod lines;
mod movegen;
mod moves;
pub mod notation;
mod perft;
pub mod pgn;
mod piece;
mod position;
mod rules;
mod square;
pub mod tablebase;
pub mod xqf;
mod zobrist;

pub use fen::FenError;
pub use game::{COUNTED_CHECKS, Game, MOVE_LIMIT_PLIES, Ply, REPETITIONS};
pub use moves::{MAX_MOVES, Move, MoveList};
pub use notation::NotationError;
pub use perft::{MAX_PERFT_DEPTH, perft, perft_divide, perft_divide_until};
pub use piece::{Color, Piece, Role};
pub use position::{Position, START_FEN, Undo};
pub use rules::{EndReason, GameResult, Outcome, judge_repetition};
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
