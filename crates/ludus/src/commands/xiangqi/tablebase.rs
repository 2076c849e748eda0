//! `ludus xiangqi tablebase generate|probe`: endgame tables in the data dir.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use xiangqi::Position;
use xiangqi::tablebase::{Material, Phase, Report, Tablebases, Verdict};

use crate::store::DataDir;
use crate::store::tablebases::{Step, generate_set, lazy_dir};

/// Default `--max-pieces`: endings with two attacking pieces and one
/// defender (94 MB, about a minute and a half on one core, see BENCHMARKS.md).
pub const DEFAULT_MAX_PIECES: u32 = 5;
/// Largest `--max-pieces` accepted (eight: two attackers against a full set of
/// defenders, some 400 million positions per attacking pair).
pub const MAX_PIECES_LIMIT: u32 = 8;

#[derive(Debug, Args)]
pub struct TablebaseArgs {
    #[command(subcommand)]
    pub command: TablebaseCommand,
}

#[derive(Debug, Subcommand)]
pub enum TablebaseCommand {
    /// Generate the endgame tables into xiangqi/tablebases/ in the data dir
    /// (files already there are checked and reused): one attacking piece
    /// against any defenders, and two against defenders up to --max-pieces.
    Generate {
        /// Most pieces on the board (generals included) for endings with two
        /// attacking pieces.
        #[arg(long, default_value_t = DEFAULT_MAX_PIECES)]
        max_pieces: u32,
        /// Only these signatures (and those they convert into), like KR-KAA.
        #[arg(long, value_name = "SIGNATURE", num_args = 1..)]
        only: Vec<String>,
    },
    /// Print what the tables say about a position: the verdict and the best
    /// move.
    Probe {
        /// The position (FEN).
        #[arg(value_name = "FEN")]
        fen: String,
    },
}

pub fn run(data: &DataDir, args: TablebaseArgs) -> Result<ExitCode> {
    let dir = data.xiangqi_tablebases();
    let mut out = std::io::stdout();
    match args.command {
        TablebaseCommand::Generate { max_pieces, only } => {
            let set = chosen_set(max_pieces, &only)?;
            generate_command(&dir, &set, &mut out)
        }
        TablebaseCommand::Probe { fen } => {
            let pos = Position::from_fen(&fen).with_context(|| format!("bad FEN {fen:?}"))?;
            // Only the tables this position and its moves need are read.
            probe_command(&lazy_dir(&dir), &pos, &mut out)
        }
    }
}

/// The signatures to generate, dependencies first.
///
/// # Errors
///
/// `--max-pieces` out of 3..=[`MAX_PIECES_LIMIT`], or a bad signature.
pub fn chosen_set(max_pieces: u32, only: &[String]) -> Result<Vec<Material>> {
    if !(3..=MAX_PIECES_LIMIT).contains(&max_pieces) {
        bail!("--max-pieces {max_pieces} is outside 3..={MAX_PIECES_LIMIT}");
    }
    if only.is_empty() {
        return Ok(Material::standard(max_pieces));
    }
    let targets = only
        .iter()
        .map(|s| Material::parse(s).with_context(|| format!("bad signature {s:?}")))
        .collect::<Result<Vec<_>>>()?;
    for t in &targets {
        if !t.has_attackers(xiangqi::Color::Red) && !t.has_attackers(xiangqi::Color::Black) {
            bail!("{t} has no piece that can mate: it is always a draw, no table is needed");
        }
        if t.pieces() > MAX_PIECES_LIMIT + 1 {
            bail!("{t} has more than {} pieces", MAX_PIECES_LIMIT + 1);
        }
    }
    Ok(Material::with_dependencies(&targets))
}

fn bar() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(1);
    if let Ok(style) = ProgressStyle::with_template("{msg:>16} {bar:40} {percent:>3}% {elapsed}") {
        bar.set_style(style);
    }
    bar
}

fn generate_command(
    dir: &std::path::Path,
    set: &[Material],
    out: &mut impl Write,
) -> Result<ExitCode> {
    writeln!(out, "{} tables into {}", set.len(), dir.display())?;
    let bar = bar();
    let started = std::time::Instant::now();
    let mut lines = Vec::new();
    let summary = generate_set(
        dir,
        set,
        &mut |p| {
            let phase = match p.phase {
                Phase::Scan => "scan",
                Phase::Solve => "solve",
            };
            bar.set_message(format!("{} {phase}", p.material));
            bar.set_length(p.total.max(1));
            bar.set_position(p.done);
            true
        },
        &mut |step, warnings| {
            for w in warnings {
                bar.suspend(|| eprintln!("ludus: tablebase {w}"));
            }
            let line = match step {
                Step::Reused(m) => format!("{m}: reused"),
                Step::Generated {
                    material,
                    positions,
                    ms,
                } => format!(
                    "{material}: {positions} positions in {:.1} s",
                    *ms as f64 / 1000.0
                ),
            };
            bar.suspend(|| lines.push(line));
        },
    )?;
    bar.finish_and_clear();
    for line in &lines {
        writeln!(out, "{line}")?;
    }
    writeln!(
        out,
        "{} tables, {:.1} MB, in {:.1} s",
        summary.tables,
        summary.positions as f64 / 1e6,
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Prints the signature, the verdict ("Red wins in 7 (13 plies)", "draw")
/// and the best moves, or says that no table covers the position.
///
/// # Errors
///
/// Writing fails.
pub fn probe_command(
    tables: &Tablebases,
    pos: &Position,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let material = Material::of(pos).canonical();
    let Some((verdict, moves)) = tables.best_moves(pos) else {
        writeln!(
            out,
            "no tablebase covers {material}: generate it with `ludus xiangqi tablebase generate --only {material}`"
        )?;
        return Ok(ExitCode::FAILURE);
    };
    writeln!(out, "{material}")?;
    let report = Report::new(verdict, pos.turn());
    match verdict {
        Verdict::Draw => writeln!(out, "{report}")?,
        _ => writeln!(out, "{report} ({} plies)", report.plies)?,
    }
    if !moves.is_empty() {
        let list: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        let what = match verdict {
            Verdict::Win(_) => "quickest mates",
            Verdict::Loss(_) => "longest defences",
            Verdict::Draw => "drawing moves",
        };
        writeln!(out, "best: {} ({what})", list.join(" "))?;
    }
    Ok(ExitCode::SUCCESS)
}
