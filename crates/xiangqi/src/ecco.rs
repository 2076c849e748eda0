//! ECCO opening classification: the code (`A00`–`E99`) and the name, in
//! Chinese and English, of the opening a game's first moves belong to.

use crate::{Move, Position};

/// A classified opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The ECCO code, `A00` to `E99`.
    pub code: &'static str,
    /// The name in Chinese (simplified).
    pub chinese: &'static str,
    /// The name in English.
    pub english: &'static str,
}

/// The opening of a game that starts at `start` and plays `moves`, or `None`
/// when the game does not start from the initial position or no line matches.
pub fn classify(start: &Position, moves: &[Move]) -> Option<Opening> {
    let _ = (start, moves);
    None
}
