//! The `ludus` application: everything that touches the outside world
//! (terminal, files, clock, network) lives here and calls the pure game crates.

pub mod cli;
pub mod commands;
pub mod engine_seats;
pub mod engine_worker;
pub mod external_engine;
pub mod protocol;
pub mod session;
pub mod store;
pub mod tbp_bot;
pub mod tui;
pub mod web;
pub mod words;
