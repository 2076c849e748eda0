//! Command-line subcommands that print and exit (the games' non-interactive side).

pub mod sokoban;
pub mod tetris;
pub mod xiangqi;
