//! Sokoban in the terminal: the collection browser and the play screen.

pub mod board;
pub mod browser;
pub mod editor;
pub mod play;
