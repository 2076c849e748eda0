//! The command line: `ludus` and one subcommand per game; each game's own
//! arguments live beside its commands in `commands/`.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// Classic games — Sokoban, Tetris, Xiangqi — in the terminal.
///
/// With no command, opens the game launcher.
#[derive(Debug, Parser)]
#[command(name = "ludus", version, about, long_about = None)]
pub struct Cli {
    /// Where saved data lives (default: the user's data directory).
    #[arg(long, global = true, env = "LUDUS_DATA_DIR", value_name = "DIR")]
    pub data_dir: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play Sokoban, or work with Sokoban levels and solutions.
    Sokoban(crate::commands::sokoban::SokobanArgs),
    /// Play Tetris, or run the engine headless (sim script, bot, replay).
    Tetris(crate::commands::tetris::TetrisArgs),
    /// Play Xiangqi (Chinese chess), or run the engine: UCI/UCCI, perft, matches.
    Xiangqi(crate::commands::xiangqi::XiangqiArgs),
    /// Serve the games as web pages (prints the URL to open).
    Serve(crate::web::ServeArgs),
}
