//! The engine core: search, evaluation, transposition table, move ordering, time
//! allocation and the opening book. Pure like the rest of the crate: the caller
//! supplies the clock (an elapsed-milliseconds function) and the cancel flag.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use xiangqi::{Game, Position};
//! use xiangqi::engine::{Engine, Limits, Score};
//! let game = Game::from_position(Position::from_fen("4k4/R8/9/9/9/9/9/9/9/3K4R w").unwrap());
//! let mut engine = Engine::new(1);
//! let stop = AtomicBool::new(false);
//! let r = engine.search(&game, &Limits::depth(3), &stop, &|| 0, &mut |_info| {});
//! assert_eq!(r.best.unwrap().to_string(), "i0i9");
//! assert_eq!(r.score, Score::Mate(1));
//! ```

mod book;
mod evaluate;
mod ordering;
pub(crate) mod pst;
mod search;
mod see;
mod time;
mod tt;

pub use book::{Book, BookError};
pub use evaluate::{PARAMS, Params, evaluate, evaluate_with, param};
pub use pst::{VALUES, value};
pub use search::{
    Engine, MATE, MATE_BOUND, MAX_MULTI_PV, MAX_SKILL, MAX_THREADS, Score, SearchInfo, SearchResult,
};
pub use see::see;
pub use time::{Limits, TimeBudget};
pub use tt::{Bound, HashError, Hit, MAX_HASH_MB, TranspositionTable};
