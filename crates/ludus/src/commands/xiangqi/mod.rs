//! `ludus xiangqi …`: play, speak UCI/UCCI, count perft, run engine matches,
//! convert records between PGN and XQF, import records into the database,
//! generate and probe endgame tablebases.

pub mod convert;
pub mod import;
pub mod tablebase;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use xiangqi::{Game, Position, perft_divide};

use crate::protocol::r#match::{self, MatchConfig, TimeControl};
use crate::protocol::{self, Dialect};
use crate::store::DataDir;
use crate::tui::{self, Start};

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct XiangqiArgs {
    #[command(subcommand)]
    pub command: Option<XiangqiCommand>,

    /// A game record to open and step through: PGN or XQF.
    #[arg(value_name = "GAME")]
    pub file: Option<PathBuf>,

    /// Open this position (FEN) for two players on this terminal.
    #[arg(long, value_name = "FEN", conflicts_with = "file")]
    pub fen: Option<String>,

    /// Configure a UCI or UCCI engine by its command line (repeatable): the
    /// set-up then offers it when engines play each other, here and in the
    /// browser. It is kept in the settings.
    #[arg(long, value_name = "COMMAND")]
    pub engine: Vec<String>,
}

#[derive(Debug, Subcommand)]
pub enum XiangqiCommand {
    /// Speak UCI on standard input and output (as Pikafish does); a first
    /// line `ucci` switches to UCCI.
    Uci,
    /// Speak UCCI 3.0 on standard input and output (as ElephantEye does).
    Ucci,
    /// Count the leaf nodes of the legal move tree.
    Perft {
        /// Plies to count.
        #[arg(value_name = "DEPTH")]
        depth: u32,
        /// The position (default: the start position).
        #[arg(long, value_name = "FEN", default_value = "startpos")]
        fen: String,
        /// Also print the count under each first move.
        #[arg(long)]
        divide: bool,
    },
    /// Play engines (UCI or UCCI, run as child processes) against each other.
    Match(Box<MatchArgs>),
    /// Convert a game record between PGN and XQF (XQF variations are left
    /// out: the main line is converted).
    Convert(convert::ConvertArgs),
    /// Import record files (PGN with one or many games, or XQF) into the
    /// games database (xiangqi/collections/ in the data dir).
    Import(import::ImportArgs),
    /// Endgame tablebases: generate them into xiangqi/tablebases/ in the
    /// data dir, or probe a position.
    Tablebase(tablebase::TablebaseArgs),
}

#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The first engine's command line (e.g. "ludus xiangqi uci").
    #[arg(long, value_name = "CMD")]
    pub engine1: String,
    /// The second engine's command line.
    #[arg(long, value_name = "CMD")]
    pub engine2: String,
    /// Protocol of the first engine: uci or ucci.
    #[arg(long, value_name = "uci|ucci", default_value = "uci")]
    pub proto1: String,
    /// Protocol of the second engine: uci or ucci.
    #[arg(long, value_name = "uci|ucci", default_value = "uci")]
    pub proto2: String,
    /// Number of games (colours alternate; each opening is played with both colours).
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Time control: `depth=N`, `nodes=N`, `movetime=MS`, or `SECONDS+INC` (clock).
    #[arg(long, default_value = "movetime=100")]
    pub tc: String,
    /// A different time control for the second engine (default: --tc).
    #[arg(long)]
    pub tc2: Option<String>,
    /// UCI options for the first engine, `Name=value` (repeatable).
    #[arg(long = "option1", value_name = "NAME=VALUE")]
    pub options1: Vec<String>,
    /// UCI options for the second engine, `Name=value` (repeatable).
    #[arg(long = "option2", value_name = "NAME=VALUE")]
    pub options2: Vec<String>,
    /// Adjudicate a draw after this many plies.
    #[arg(long, default_value_t = 300)]
    pub max_plies: usize,
    /// Where to write the PGN of all games (default: xiangqi/matches/ in the data dir).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
}

pub fn run(data: DataDir, args: XiangqiArgs) -> Result<ExitCode> {
    match args.command {
        None => {
            super::configure_programs(&data, &args.engine, "engine", "--engine", |s| {
                &mut s.xiangqi.engines
            })?;
            open_ui(data, args.file, args.fen)
        }
        Some(XiangqiCommand::Uci) => session(Dialect::Uci),
        Some(XiangqiCommand::Ucci) => session(Dialect::Ucci),
        Some(XiangqiCommand::Perft { depth, fen, divide }) => {
            perft_command(&fen, depth, divide, &mut std::io::stdout())
        }
        Some(XiangqiCommand::Match(m)) => match_command(&data, *m),
        Some(XiangqiCommand::Convert(c)) => convert::run(c),
        Some(XiangqiCommand::Import(i)) => import::run(&data, &i),
        Some(XiangqiCommand::Tablebase(t)) => tablebase::run(&data, t),
    }
}

fn session(dialect: Dialect) -> Result<ExitCode> {
    let stdin = std::io::stdin();
    protocol::run_session(stdin.lock(), std::io::stdout(), dialect)
        .context("engine session ended")?;
    Ok(ExitCode::SUCCESS)
}

fn open_ui(data: DataDir, file: Option<PathBuf>, fen: Option<String>) -> Result<ExitCode> {
    let start = match (file, fen) {
        (Some(path), _) => {
            let pgn = convert::load_record(&path)?.game;
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            Start::Screen(Box::new(move |ctx| tui::xiangqi::review(ctx, pgn, name)))
        }
        (None, Some(fen)) => {
            let pos = parse_fen(&fen)?;
            Start::Screen(Box::new(move |ctx| {
                tui::xiangqi::two_players(ctx, Game::from_position(pos))
            }))
        }
        (None, None) => Start::Screen(Box::new(tui::xiangqi::setup)),
    };
    tui::run(data, start)
}

fn parse_fen(fen: &str) -> Result<Position> {
    if fen == "startpos" {
        return Ok(Position::startpos());
    }
    Position::from_fen(fen).with_context(|| format!("bad FEN {fen:?}"))
}

/// `perft`: the total on standard output (with `--divide`, one `move: count`
/// line per first move in ICCS order, a blank line and `Nodes searched: N`);
/// the time on standard error.
pub fn perft_command(
    fen: &str,
    depth: u32,
    divide: bool,
    out: &mut impl Write,
) -> Result<ExitCode> {
    if depth > xiangqi::MAX_PERFT_DEPTH {
        anyhow::bail!(
            "perft depth {depth} is past the limit of {}",
            xiangqi::MAX_PERFT_DEPTH
        );
    }
    let mut pos = parse_fen(fen)?;
    let started = Instant::now();
    let mut split = perft_divide(&mut pos, depth);
    let total: u64 = if depth == 0 {
        1
    } else {
        split.iter().map(|(_, n)| n).sum()
    };
    let seconds = started.elapsed().as_secs_f64();
    if divide {
        split.sort_by_key(|(m, _)| m.to_uci());
        for line in protocol::perft_lines(&split, total) {
            writeln!(out, "{line}")?;
        }
    } else {
        writeln!(out, "{total}")?;
    }
    eprintln!(
        "perft {depth}: {total} nodes in {seconds:.3} s ({:.1} M nodes/s)",
        total as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(ExitCode::SUCCESS)
}

/// A new, empty file in `dir` for the PGN of a match started at `stamp`
/// (seconds since 1970): `match-STAMP.pgn`, or `match-STAMP-N.pgn` if
/// matches started in the same second already took that name. The file is
/// created here, so two matches never share one.
fn new_match_file(dir: &std::path::Path, stamp: u64) -> Result<PathBuf> {
    crate::store::atomic::write_new(dir, &format!("match-{stamp}"), "pgn", b"")
}

fn match_command(data: &DataDir, args: MatchArgs) -> Result<ExitCode> {
    let dialect = |s: &str| match s {
        "uci" => Ok(Dialect::Uci),
        "ucci" => Ok(Dialect::Ucci),
        other => bail!("unknown protocol {other:?}: use uci or ucci"),
    };
    let tc1 = TimeControl::parse(&args.tc).map_err(anyhow::Error::msg)?;
    let tc2 = match &args.tc2 {
        Some(t) => TimeControl::parse(t).map_err(anyhow::Error::msg)?,
        None => tc1,
    };
    let options = |list: &[String]| -> Result<Vec<(String, String)>> {
        list.iter()
            .map(|o| {
                o.split_once('=')
                    .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
                    .with_context(|| format!("option {o:?} is not NAME=VALUE"))
            })
            .collect()
    };
    let pgn = match args.pgn {
        Some(p) => p,
        None => {
            let stamp = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            new_match_file(&data.root().join("xiangqi").join("matches"), stamp)?
        }
    };
    let config = MatchConfig {
        engines: [
            r#match::EngineSpec {
                command: args.engine1,
                dialect: dialect(&args.proto1)?,
                tc: tc1,
                options: options(&args.options1)?,
            },
            r#match::EngineSpec {
                command: args.engine2,
                dialect: dialect(&args.proto2)?,
                tc: tc2,
                options: options(&args.options2)?,
            },
        ],
        games: args.games,
        max_plies: args.max_plies,
        pgn,
    };
    let mut stdout = std::io::stdout();
    let summary = r#match::run(&config, &mut stdout)?;
    writeln!(stdout, "{summary}")?;
    writeln!(stdout, "PGN: {}", config.pgn.display())?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn matches_started_in_the_same_second_get_files_of_their_own() {
        let dir = tempfile::tempdir().unwrap();
        let matches = dir.path().join("xiangqi").join("matches");
        let first = new_match_file(&matches, 1_796_642_524).unwrap();
        let second = new_match_file(&matches, 1_796_642_524).unwrap();
        assert_ne!(first, second);
        assert!(first.ends_with("match-1796642524.pgn"));
        assert!(second.ends_with("match-1796642524-2.pgn"));
        assert!(first.exists() && second.exists());
    }
}
