//! The command line: `ludus`, `ludus sokoban …`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

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
    Sokoban(SokobanArgs),
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct SokobanArgs {
    #[command(subcommand)]
    pub command: Option<SokobanCommand>,

    /// Level files to play (.sok, .xsb, .txt, .json); default: the built-in collection.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Start at this level (1-based) of the first collection.
    #[arg(long, value_name = "N")]
    pub level: Option<usize>,
}

#[derive(Debug, Subcommand)]
pub enum SokobanCommand {
    /// Parse and validate every level; exit code 1 if any has an error.
    Validate {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// Replay a solution and say whether it solves the level; exit 0 only if solved.
    Verify {
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Level number (1-based); default 1.
        #[arg(long, value_name = "N")]
        level: Option<usize>,
        /// The solution in LURD.
        #[arg(long, value_name = "LURD", conflicts_with = "solutions")]
        solution: Option<String>,
        /// A .sok file with `Solution:` lines under its levels.
        #[arg(long, value_name = "FILE.sok")]
        solutions: Option<PathBuf>,
    },
    /// Convert a level file to another format.
    Convert {
        #[arg(value_name = "FILE")]
        file: PathBuf,
        #[arg(long, value_enum)]
        to: Format,
        /// Write here instead of standard output.
        #[arg(long, short, value_name = "OUT")]
        output: Option<PathBuf>,
    },
    /// Export your best solutions as a .sok file, each level with its solutions under it.
    Solutions {
        /// The collection (default: the built-in one).
        #[arg(value_name = "FILE")]
        file: Option<PathBuf>,
        #[arg(long, short, value_name = "OUT")]
        output: Option<PathBuf>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Xsb,
    Sok,
    Rle,
    Json,
}
