//! `ludus sokoban solve` and `ludus sokoban bench`: the solver over files,
//! levels in parallel (rayon), with a progress bar on a terminal.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Result, bail};
use clap::{Args, ValueEnum};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use sokoban::Level;
use sokoban::solver::{self, Outcome};

use crate::session::sokoban::library::{LEVEL_EXTENSIONS, LevelSet};
use crate::session::sokoban::solver_job::{Figures, Report, solve_watched};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// Any solution, quickly.
    #[default]
    Fast,
    /// Fewest pushes, proven optimal; then the fewest moves among those
    /// (proven unless a limit stops the second search first).
    Pushes,
    /// Fewest moves, proven optimal (small levels).
    Moves,
}

impl From<Mode> for solver::Mode {
    fn from(mode: Mode) -> solver::Mode {
        match mode {
            Mode::Fast => solver::Mode::Fast,
            Mode::Pushes => solver::Mode::Pushes,
            Mode::Moves => solver::Mode::Moves,
        }
    }
}

/// Options shared by `solve` and `bench`.
#[derive(Debug, Args)]
pub struct SolverOptions {
    #[arg(long, value_enum, default_value_t = Mode::Fast)]
    pub mode: Mode,
    /// Seconds allowed per level.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub time_limit: f64,
    /// Memory for the solver's positions, per level being solved.
    #[arg(long, value_name = "MB", default_value_t = 1024)]
    pub memory: usize,
    /// Levels solved at the same time (default: one per core). Cores left
    /// over go to each level's search (fast mode), so one level alone gets
    /// them all.
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Show each running level's search on standard error as it goes:
    /// elapsed time, nodes expanded, positions stored, depth and bound (a
    /// live line per level on a terminal, a line every few seconds otherwise).
    #[arg(long)]
    pub progress: bool,
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Only this level (1-based).
    #[arg(long, value_name = "N", conflicts_with = "all")]
    pub level: Option<usize>,
    /// Every level of the file (the default when --level is not given).
    #[arg(long)]
    pub all: bool,
    #[command(flatten)]
    pub options: SolverOptions,
    /// Print one JSON document instead of text lines.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Level files, or folders of them.
    #[arg(required = true, value_name = "DIR_OR_FILE")]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub options: SolverOptions,
    /// Also print a row for every level (file, level, solved, pushes, moves,
    /// time, nodes), ready to set beside another solver's results.
    #[arg(long)]
    pub levels: bool,
    /// Write every level's row to this CSV file too (the same columns, plus
    /// the title and why a level was not solved).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
}

/// The result for one level, as printed.
#[derive(Debug, Serialize)]
struct LevelResult {
    level: usize,
    title: Option<String>,
    status: &'static str,
    moves: Option<u32>,
    pushes: Option<u32>,
    optimal: bool,
    /// The other measure is also the fewest among the optimal solutions
    /// (moves among push-optimal ones, pushes among move-optimal ones).
    secondary_optimal: bool,
    /// What is proven, in words, for the printed line.
    #[serde(skip)]
    proven: String,
    seconds: f64,
    nodes: u64,
    lurd: Option<String>,
    /// Why it was not solved, for statuses other than `solved`; for a
    /// push-optimal solution whose moves were not minimised, what stopped
    /// the fewest-moves pass.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

impl LevelResult {
    fn new(number: usize, level: &Level, report: &Report, mode: solver::Mode) -> LevelResult {
        let mut result = LevelResult {
            level: number,
            title: level.meta.title.clone(),
            status: "unsolved",
            moves: None,
            pushes: None,
            optimal: false,
            secondary_optimal: false,
            proven: "no".into(),
            seconds: report.elapsed.as_secs_f64(),
            nodes: report.stats.expanded,
            lurd: None,
            reason: None,
        };
        match &report.outcome {
            Outcome::Solved(s) => {
                result.status = "solved";
                result.moves = Some(s.moves);
                result.pushes = Some(s.pushes);
                result.optimal = s.optimal;
                result.secondary_optimal = s.secondary_optimal;
                result.proven = match (mode, s.optimal, s.secondary_optimal) {
                    (_, false, _) => "no".into(),
                    (solver::Mode::Pushes, true, true) => "yes (pushes, then moves)".into(),
                    (solver::Mode::Pushes, true, false) => {
                        // The command sets no node limit and cancels only on time.
                        let stop = if report.timed_out { "time" } else { "memory" };
                        let reason = format!("moves not minimised: {stop} limit");
                        result.reason = Some(reason.clone());
                        format!("yes (pushes; {reason})")
                    }
                    (solver::Mode::Moves, true, true) => "yes (moves, then pushes)".into(),
                    (_, true, _) => "yes".into(),
                };
                result.lurd = Some(s.lurd.clone());
            }
            Outcome::Unsolvable => {
                result.status = "unsolvable";
                result.reason = Some("proven unsolvable".into());
            }
            Outcome::Cancelled if report.timed_out => result.reason = Some("time limit".into()),
            Outcome::Cancelled => result.reason = Some("cancelled".into()),
            Outcome::OutOfMemory => result.reason = Some("memory limit".into()),
            Outcome::LimitReached => result.reason = Some("node limit".into()),
            Outcome::Unsupported => result.reason = Some("too large for the solver".into()),
            Outcome::Internal(e) => {
                result.status = "error";
                result.reason = Some(format!("solver bug: {e}"));
            }
        }
        result
    }

    fn line(&self) -> String {
        let name = match &self.title {
            Some(t) => format!("level {} ({t})", self.level),
            None => format!("level {}", self.level),
        };
        match (self.moves, self.pushes, &self.lurd) {
            (Some(m), Some(p), Some(lurd)) => format!(
                "{name}: solved moves {m} pushes {p} optimal {} time {:.2}s nodes {} {lurd}",
                self.proven, self.seconds, self.nodes
            ),
            _ => format!(
                "{name}: {} ({}) time {:.2}s nodes {}",
                self.status,
                self.reason.as_deref().unwrap_or(""),
                self.seconds,
                self.nodes
            ),
        }
    }
}

fn thread_pool(jobs: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = jobs {
        if n == 0 {
            bail!("--jobs must be at least 1");
        }
        builder = builder.num_threads(n);
    }
    Ok(builder.build()?)
}

/// Threads for each level: the cores that levels solved side by side leave
/// over (one level on two cores gets both).
fn threads_per_level(jobs: usize, levels: usize) -> usize {
    let cores = crate::session::sokoban::solver_job::cores();
    let side_by_side = jobs.min(levels).max(1);
    (cores / side_by_side).max(1)
}

pub(super) fn progress_bar(len: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} levels, {elapsed} ({msg})")
    {
        bar.set_style(style);
    }
    bar
}

/// The `--progress` view: a live line per running level under the levels bar
/// on a terminal; otherwise a plain line on standard error every few seconds.
struct LevelLines {
    multi: Option<MultiProgress>,
}

/// How often a level's line changes: live on a terminal, plain otherwise.
const LIVE_EVERY: Duration = Duration::from_millis(200);
const PLAIN_EVERY: Duration = Duration::from_secs(5);

impl LevelLines {
    fn new(bar: &ProgressBar) -> LevelLines {
        let multi = (!bar.is_hidden()).then(|| {
            let multi = MultiProgress::new();
            multi.add(bar.clone());
            multi
        });
        LevelLines { multi }
    }

    fn level(&self, number: usize) -> LevelLine {
        let spinner = self.multi.as_ref().map(|multi| {
            let spinner = multi.add(ProgressBar::new_spinner());
            if let Ok(style) = ProgressStyle::with_template("{spinner} level {prefix}: {msg}") {
                spinner.set_style(style);
            }
            spinner.set_prefix(number.to_string());
            spinner
        });
        LevelLine {
            number,
            spinner,
            shown: std::time::Instant::now(),
        }
    }
}

/// One running level's line.
struct LevelLine {
    number: usize,
    spinner: Option<ProgressBar>,
    shown: std::time::Instant,
}

impl LevelLine {
    fn show(&mut self, figures: &Figures) {
        let every = if self.spinner.is_some() {
            LIVE_EVERY
        } else {
            PLAIN_EVERY
        };
        if self.shown.elapsed() < every {
            return;
        }
        self.shown = std::time::Instant::now();
        match &self.spinner {
            Some(spinner) => spinner.set_message(figures.text()),
            // Best effort: a closed stderr does not stop the solve.
            None => {
                let _ = writeln!(
                    std::io::stderr(),
                    "level {}: {}",
                    self.number,
                    figures.text()
                );
            }
        }
    }

    fn finish(self) {
        if let Some(spinner) = self.spinner {
            spinner.finish_and_clear();
        }
    }
}

/// Solves `levels` (number, level) with the options; results in input order.
fn solve_all(levels: &[(usize, &Level)], options: &SolverOptions) -> Result<Vec<LevelResult>> {
    if !options.time_limit.is_finite() || options.time_limit <= 0.0 {
        bail!("--time-limit must be a positive number of seconds");
    }
    let limit = Duration::from_secs_f64(options.time_limit);
    let pool = thread_pool(options.jobs)?;
    let solver_options = solver::Options {
        mode: options.mode.into(),
        memory_mb: options.memory.max(1),
        threads: threads_per_level(pool.current_num_threads(), levels.len()),
        ..Default::default()
    };
    let bar = progress_bar(levels.len());
    let lines = options.progress.then(|| LevelLines::new(&bar));
    let solved = std::sync::atomic::AtomicUsize::new(0);
    let cancel = AtomicBool::new(false);
    let results = pool.install(|| {
        levels
            .par_iter()
            .map(|&(number, level)| {
                let report = match &lines {
                    Some(lines) => {
                        let mut line = lines.level(number);
                        let report = solve_watched(
                            level,
                            &solver_options,
                            Some(limit),
                            &cancel,
                            |figures| line.show(figures),
                        );
                        line.finish();
                        report
                    }
                    None => solve_watched(level, &solver_options, Some(limit), &cancel, |_| {}),
                };
                let result = LevelResult::new(number, level, &report, solver_options.mode);
                if result.status == "solved" {
                    solved.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                bar.inc(1);
                bar.set_message(format!(
                    "{} solved",
                    solved.load(std::sync::atomic::Ordering::Relaxed)
                ));
                result
            })
            .collect()
    });
    bar.finish_and_clear();
    Ok(results)
}

pub fn solve(args: &SolveArgs, out: &mut impl Write) -> Result<ExitCode> {
    let set = LevelSet::load(&args.file)?;
    let chosen: Vec<(usize, &Level)> = match args.level {
        Some(n) => match n.checked_sub(1).and_then(|i| set.collection.levels.get(i)) {
            Some(Ok(level)) => vec![(n, level)],
            Some(Err(e)) => bail!("{}:{e}", args.file.display()),
            None => bail!(
                "{} has {}; there is no level {n}",
                args.file.display(),
                crate::words::counted(set.len(), "level")
            ),
        },
        None => {
            super::levels::report_broken_levels(&args.file, &set, &mut std::io::stderr())?;
            set.collection
                .valid_levels()
                .map(|(i, l)| (i + 1, l))
                .collect()
        }
    };
    if chosen.is_empty() {
        bail!("{}: no level could be read", args.file.display());
    }
    let results = solve_all(&chosen, &args.options)?;
    let solved = results.iter().filter(|r| r.status == "solved").count();
    if args.json {
        let doc = serde_json::json!({ "file": args.file, "levels": results, "solved": solved, "total": results.len() });
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
    } else {
        for result in &results {
            writeln!(out, "{}", result.line())?;
        }
        writeln!(out, "solved {solved}/{}", results.len())?;
    }
    // Unsolved within the limit is a normal outcome; only a solver bug fails.
    let bug = results.iter().any(|r| r.status == "error");
    Ok(if bug {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Level files named directly, and those inside named folders (sorted).
fn level_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(path)?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| is_level_file(p))
                .collect();
            inside.sort();
            files.extend(inside);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

fn is_level_file(path: &Path) -> bool {
    path.is_file()
        && path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| LEVEL_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

pub fn bench(args: &BenchArgs, out: &mut impl Write) -> Result<ExitCode> {
    let files = level_files(&args.paths)?;
    if files.is_empty() {
        bail!("no level files found");
    }
    writeln!(
        out,
        "mode {:?}, time limit {} s per level, jobs {}",
        args.options.mode,
        args.options.time_limit,
        args.options.jobs.unwrap_or_else(rayon::current_num_threads)
    )?;
    writeln!(
        out,
        "{:<40} {:>7} {:>7} {:>10} {:>10}",
        "collection", "levels", "solved", "median s", "total s"
    )?;
    let mut rows: Vec<(String, LevelResult)> = Vec::new();
    let (mut all_levels, mut all_solved, mut all_total) = (0, 0, 0.0);
    for file in files {
        let set = match LevelSet::load(&file) {
            Ok(set) => set,
            Err(e) => {
                writeln!(out, "{e:#}")?;
                continue;
            }
        };
        let levels: Vec<(usize, &Level)> = set
            .collection
            .valid_levels()
            .map(|(i, l)| (i + 1, l))
            .collect();
        if levels.is_empty() {
            continue;
        }
        let results = solve_all(&levels, &args.options)?;
        let solved = results.iter().filter(|r| r.status == "solved").count();
        let mut times: Vec<f64> = results.iter().map(|r| r.seconds).collect();
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        let total: f64 = times.iter().sum();
        let name = file.file_name().map_or_else(
            || file.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        writeln!(
            out,
            "{name:<40} {:>7} {solved:>7} {median:>10.3} {total:>10.1}",
            results.len()
        )?;
        for r in results.iter().filter(|r| r.status != "solved") {
            writeln!(out, "    {}", r.line())?;
        }
        (all_levels, all_solved, all_total) = (
            all_levels + results.len(),
            all_solved + solved,
            all_total + total,
        );
        rows.extend(results.into_iter().map(|r| (name.clone(), r)));
    }
    writeln!(
        out,
        "{:<40} {all_levels:>7} {all_solved:>7} {:>10} {all_total:>10.1}",
        "all", ""
    )?;
    if args.levels {
        writeln!(out)?;
        write_level_table(&rows, out)?;
    }
    if let Some(path) = &args.csv {
        let mut text = String::new();
        write_csv(&rows, &mut text);
        crate::store::write_atomic(path, text.as_bytes())
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Every level's row: file, level, solved, pushes, moves, time, nodes.
fn write_level_table(rows: &[(String, LevelResult)], out: &mut impl Write) -> Result<()> {
    writeln!(
        out,
        "{:<32} {:>6} {:>6} {:>7} {:>7} {:>9} {:>12}",
        "file", "level", "solved", "pushes", "moves", "time s", "nodes"
    )?;
    let count = |n: Option<u32>| n.map_or_else(|| "-".to_string(), |n| n.to_string());
    for (file, r) in rows {
        let file: String = file.chars().take(32).collect();
        writeln!(
            out,
            "{file:<32} {:>6} {:>6} {:>7} {:>7} {:>9.2} {:>12}",
            r.level,
            if r.status == "solved" { "yes" } else { "no" },
            count(r.pushes),
            count(r.moves),
            r.seconds,
            r.nodes
        )?;
    }
    Ok(())
}

/// The rows as CSV (RFC 4180: fields with commas, quotes or line breaks quoted).
fn write_csv(rows: &[(String, LevelResult)], text: &mut String) {
    text.push_str("file,level,title,solved,pushes,moves,seconds,nodes,reason\n");
    let field = |s: &str| {
        if s.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    let count = |n: Option<u32>| n.map_or_else(String::new, |n| n.to_string());
    for (file, r) in rows {
        let cells = [
            field(file),
            r.level.to_string(),
            field(r.title.as_deref().unwrap_or_default()),
            (r.status == "solved").to_string(),
            count(r.pushes),
            count(r.moves),
            format!("{:.3}", r.seconds),
            r.nodes.to_string(),
            field(r.reason.as_deref().unwrap_or_default()),
        ];
        text.push_str(&cells.join(","));
        text.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(title: Option<&str>, reason: Option<&str>) -> LevelResult {
        LevelResult {
            level: 7,
            title: title.map(str::to_string),
            status: "unsolved",
            moves: None,
            pushes: None,
            optimal: false,
            secondary_optimal: false,
            proven: String::from("no"),
            seconds: 30.0,
            nodes: 12,
            lurd: None,
            reason: reason.map(str::to_string),
        }
    }

    #[test]
    fn csv_quotes_fields_with_commas_quotes_and_line_breaks() {
        let rows = vec![(
            String::from("a,b.sok"),
            result(Some("The \"Big\" one"), Some("time limit")),
        )];
        let mut text = String::new();
        write_csv(&rows, &mut text);
        assert_eq!(
            text.lines().nth(1),
            Some("\"a,b.sok\",7,\"The \"\"Big\"\" one\",false,,,30.000,12,time limit")
        );
    }
}
