//! `ludus sokoban …`: play, and work with levels and solutions.

mod collections;
mod generate;
mod levels;
mod packs;
mod rate;
mod solve;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, Subcommand, ValueEnum};

use crate::session::sokoban::library::export_solutions;
pub use levels::{convert, validate, verify_command};

use crate::session::sokoban::library::LevelSet;
use crate::store::DataDir;
use crate::tui::{self, Start};

#[derive(Debug, Args)]
#[command(
    args_conflicts_with_subcommands = true,
    after_help = collections::CREDITS_HINT,
    after_long_help = collections::builtin_credits()
)]
pub struct SokobanArgs {
    #[command(subcommand)]
    pub command: Option<SokobanCommand>,

    /// Level files to play (.sok, .xsb, .txt, .json), listed first in the
    /// level browser above the built-in collections.
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
    /// Solve levels with the solver: one line per level, then `solved X/Y`.
    Solve(solve::SolveArgs),
    /// Solve whole collections and print a table of solved counts and times.
    Bench(solve::BenchArgs),
    /// Rate every level of collection files: the par (fewest pushes, proven by
    /// the push-optimal solver within --nodes, or the best a fast solve found)
    /// and the difficulty, written as `<file>.par.json` beside each file.
    Rate(rate::RateArgs),
    /// Generate new levels, each proven solvable and rated, as .sok with solutions.
    Generate(generate::GenerateArgs),
    /// List every collection (built in, your levels folder, map packs) with its author and solved count.
    Collections(collections::CollectionsArgs),
    /// Map packs: install, list, remove, export (.zip with levels, pack.json, skin/).
    #[command(subcommand)]
    Pack(packs::PackCommand),
    /// Export your best solutions as a .sok file, each level with its solutions under it.
    Solutions {
        /// The collection (default: the built-in Ludus Original library).
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

pub fn run(data: DataDir, args: SokobanArgs) -> Result<ExitCode> {
    match args.command {
        None => tui::run(
            data,
            Start::Sokoban {
                files: args.files,
                level: args.level,
            },
        ),
        Some(SokobanCommand::Validate { files }) => validate(&files, &mut std::io::stdout()),
        Some(SokobanCommand::Verify {
            file,
            level,
            solution,
            solutions,
        }) => verify_command(
            &file,
            level,
            solution.as_deref(),
            solutions.as_deref(),
            &mut std::io::stdout(),
        ),
        Some(SokobanCommand::Convert { file, to, output }) => {
            let set = LevelSet::load(&file)?;
            levels::report_broken_levels(&file, &set, &mut std::io::stderr())?;
            let converted = set.collection.valid_levels().count();
            if converted == 0 {
                anyhow::bail!("{}: no level could be read", file.display());
            }
            levels::write_output(output.as_deref(), &convert(&set, to))?;
            if converted < set.collection.levels.len() {
                return Ok(ExitCode::FAILURE);
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(SokobanCommand::Solutions { file, output }) => {
            let set = match file {
                Some(path) => LevelSet::load(&path)?,
                None => LevelSet::builtin(),
            };
            let (text, warning) = export_solutions(&data, &set);
            if let Some(warning) = warning {
                eprintln!("ludus: warning: {warning}");
            }
            levels::write_output(output.as_deref(), &text)
        }
        Some(SokobanCommand::Collections(args)) => {
            collections::run(&data, &args, &mut std::io::stdout())
        }
        Some(SokobanCommand::Pack(command)) => packs::run(&data, command, &mut std::io::stdout()),
        Some(SokobanCommand::Solve(args)) => solve::solve(&args, &mut std::io::stdout()),
        Some(SokobanCommand::Bench(args)) => solve::bench(&args, &mut std::io::stdout()),
        Some(SokobanCommand::Rate(args)) => rate::run(&args, &mut std::io::stdout()),
        Some(SokobanCommand::Generate(args)) => generate::run(&args, &mut std::io::stdout()),
    }
}
