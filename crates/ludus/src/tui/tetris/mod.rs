//! Tetris in the terminal: the menu, the game screen (play, watch a replay, the bot's
//! demo), versus the bot, settings, high scores and the replay list.

pub mod board;
pub mod game;
pub mod keys;
pub mod menu;
pub mod replays;
pub mod scores;
pub mod settings;
pub mod versus;

pub use crate::words::thousands;
