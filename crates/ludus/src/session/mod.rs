//! One session per game: the flow that both front ends drive (modes,
//! opponents, clocks, history, results, what is saved). The terminal UI and
//! the web server turn input into a session's commands and draw its state;
//! they decide nothing about the game themselves.

pub mod programs;
pub mod sokoban;
pub mod tetris;
pub mod xiangqi;
