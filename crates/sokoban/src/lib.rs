//! Sokoban rules and formats, with no IO, no clock and no randomness.
//!
//! - [`Level`] and [`Map`]: a parsed level and its static cells.
//! - [`Game`]: playing a level, with unlimited undo/redo.
//! - [`format`]: XSB, SOK collections, RLE and the JSON library form.
//! - [`lurd`]: solutions; [`verify`] replays one.
//! - [`validate`], [`path`]: checks and path finding.
//! - [`rating`]: par and difficulty; [`levels`]: the built-in collections.
//! - [`solver`]: the solver, and the deadlock detector that also warns players.

mod direction;
mod error;
pub mod format;
mod game;
pub mod generate;
mod level;
pub mod levels;
pub mod lurd;
mod map;
pub mod path;
pub mod rating;
mod region;
pub mod rle;
pub mod solver;
mod validate;

pub use direction::Direction;
pub use error::{ParseError, ParseErrorKind};
pub use format::sok::{Collection, parse_collection};
pub use game::{Blocked, Game, ReplayError, Step, Verdict, verify};
pub use level::{Level, Metadata};
pub use map::{Cell, Map};
pub use validate::{Finding, Problem, Report, validate};
