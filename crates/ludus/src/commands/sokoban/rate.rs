//! `ludus sokoban rate`: the par and difficulty of every level of a
//! collection, written as its rating file (`<file>.par.json`, see
//! [`sokoban::rating`]). Run offline over the built-in collections; their
//! rating files are committed beside them.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use clap::Args;
use rayon::prelude::*;
use sokoban::Level;
use sokoban::rating::{Difficulty, Effort, LevelRating, RATINGS_VERSION, Ratings};
use sokoban::solver::{self, Control, Mode, Outcome};

use crate::session::sokoban::library::LevelSet;

/// The proof's node limit when `--nodes` is not given.
pub const DEFAULT_NODES: u64 = 2_000_000;

/// The solver's memory per level when `--memory` is not given.
pub const DEFAULT_MEMORY_MB: usize = 1024;

#[derive(Debug, Args)]
pub struct RateArgs {
    /// Level files to rate; each gets `<file>.par.json` beside it.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Nodes the push-optimal proof may expand per level; a level not
    /// proven within them gets a fast solve's pushes as "best found".
    #[arg(long, value_name = "N", default_value_t = DEFAULT_NODES)]
    pub nodes: u64,
    /// Nodes the fast solve for "best found" may expand (default: --nodes).
    #[arg(long, value_name = "N")]
    pub fast_nodes: Option<u64>,
    /// Memory for the solver's positions, per level being rated.
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_MEMORY_MB)]
    pub memory: usize,
    /// Levels rated at the same time (each on one core; the figures do not
    /// depend on it).
    #[arg(long, value_name = "J", default_value_t = 1)]
    pub jobs: usize,
    /// Write the rating file here instead (one FILE only).
    #[arg(long, short, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Keep the rating file's entries and only look again for a "best
    /// found" par where the proof failed: a fast solve within
    /// --fast-nodes, kept when it pushes less. Levels the file lacks (or
    /// whose key changed) are rated in full, with --nodes.
    #[arg(long)]
    pub best_found_only: bool,
}

/// The budget of one rating run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub nodes: u64,
    pub fast_nodes: u64,
    pub memory_mb: usize,
}

impl Budget {
    /// The options of the push-optimal proof: pushes only (the fewest-moves
    /// pass is skipped), one thread, the node limit.
    pub fn proof(&self) -> solver::Options {
        solver::Options {
            mode: Mode::Pushes,
            node_limit: Some(self.nodes),
            memory_mb: self.memory_mb.max(1),
            threads: 1,
            fewest_moves: false,
        }
    }

    fn fast(&self) -> solver::Options {
        solver::Options {
            mode: Mode::Fast,
            node_limit: Some(self.fast_nodes),
            memory_mb: self.memory_mb.max(1),
            threads: 1,
            ..solver::Options::default()
        }
    }

    /// What the rating file says made it.
    pub fn rated_by(&self) -> String {
        format!(
            "ludus {} sokoban rate: pushes mode (pushes only), {} nodes, {} MB; \
             fast mode ({} nodes) for best found",
            env!("CARGO_PKG_VERSION"),
            self.nodes,
            self.memory_mb,
            self.fast_nodes
        )
    }
}

/// Rates one level: the proof, then (when it did not prove) a fast solve.
/// Also returns the time it took and the words for the progress line.
pub fn rate_level(number: usize, level: &Level, budget: &Budget) -> (LevelRating, Duration) {
    let started = Instant::now();
    let (outcome, stats) = solver::solve_with_stats(level, &budget.proof(), &mut Control::new());
    let proven = match outcome {
        Outcome::Solved(s) if s.optimal => Some(s.pushes),
        _ => None,
    };
    let found = match proven {
        Some(pushes) => Some(pushes),
        None => match solver::solve(level, &budget.fast(), &mut Control::new()) {
            Outcome::Solved(s) => Some(s.pushes),
            _ => None,
        },
    };
    // The fewest-moves pass is skipped, so this is the proof alone.
    let nodes = stats.proof_expanded();
    let effort = Effort {
        proven_pushes: proven,
        nodes,
        boxes: level.boxes().len(),
    };
    let rating = LevelRating {
        level: number,
        key: level.key(),
        pushes: found,
        proven: proven.is_some(),
        nodes,
        difficulty: Difficulty::rate(&effort),
    };
    (rating, started.elapsed())
}

/// A fresh fast solve for an unproven level's `old` entry: the fewer pushes
/// of the two, the proof's figures unchanged.
fn best_found_again(old: &LevelRating, level: &Level, budget: &Budget) -> (LevelRating, Duration) {
    let started = Instant::now();
    let found = match solver::solve(level, &budget.fast(), &mut Control::new()) {
        Outcome::Solved(s) => Some(s.pushes),
        _ => None,
    };
    let pushes = match (old.pushes, found) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    (
        LevelRating {
            pushes,
            ..old.clone()
        },
        started.elapsed(),
    )
}

/// The progress line of one rated level.
fn progress_line(rating: &LevelRating, total: usize, took: Duration) -> String {
    let pushes = |p: u32| crate::words::counted(p as usize, "push");
    let par = match (rating.pushes, rating.proven) {
        (Some(p), true) => format!("proven {}", pushes(p)),
        (Some(p), false) => format!("best found {}", pushes(p)),
        (None, _) => "not solved".to_string(),
    };
    format!(
        "level {}/{total}: {par}, {} nodes, {}, {:.1} s",
        rating.level,
        rating.nodes,
        rating.difficulty,
        took.as_secs_f64()
    )
}

/// Rates every readable level of `set` (broken levels get no entry), in
/// order whatever the number of jobs. With `kept`, the entries of that
/// rating file that still fit their level are kept: proven ones as they
/// are, unproven ones with a fresh fast solve (`--best-found-only`). The file's node limit becomes the larger of the
/// two runs' (a level proven within fewer nodes is proven within more).
///
/// # Errors
/// The thread pool could not be built.
pub fn rate_set(
    file: &Path,
    set: &LevelSet,
    budget: &Budget,
    kept: Option<&Ratings>,
    jobs: usize,
    progress: &mut (impl Write + Send),
) -> Result<Ratings> {
    let levels: Vec<(usize, &Level)> = set
        .collection
        .valid_levels()
        .map(|(i, l)| (i + 1, l))
        .collect();
    let total = set.collection.levels.len();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()?;
    let progress = std::sync::Mutex::new(progress);
    let name = file.display().to_string();
    let rated: Vec<LevelRating> = pool.install(|| {
        levels
            .par_iter()
            .map(|&(number, level)| {
                let old = kept.and_then(|k| {
                    k.levels
                        .iter()
                        .find(|r| r.level == number && r.key == level.key())
                });
                let (rating, took) = match old {
                    Some(old) if old.proven => (old.clone(), Duration::ZERO),
                    Some(old) => best_found_again(old, level, budget),
                    None => rate_level(number, level, budget),
                };
                if let Ok(mut out) = progress.lock() {
                    // Progress is best effort: a closed stderr does not stop the run.
                    let _ = writeln!(out, "{name}: {}", progress_line(&rating, total, took));
                }
                rating
            })
            .collect()
    });
    let node_limit = kept
        .and_then(|k| k.node_limit)
        .map_or(budget.nodes, |old| old.max(budget.nodes));
    let memory_mb = kept
        .and_then(|k| k.memory_mb)
        .map_or(budget.memory_mb, |old| old.max(budget.memory_mb));
    let rated_by = match kept {
        Some(k) => format!(
            "{}; then best found again: fast mode ({} nodes)",
            k.rated_by, budget.fast_nodes
        ),
        None => budget.rated_by(),
    };
    Ok(Ratings {
        version: RATINGS_VERSION,
        rated_by,
        node_limit: Some(node_limit),
        memory_mb: Some(memory_mb),
        levels: rated,
    })
}

/// Where the rating file of `file` goes: `<file>.par.json` beside it.
pub fn ratings_path(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".par.json");
    PathBuf::from(name)
}

/// `ludus sokoban rate`.
///
/// # Errors
/// A bad argument, a file that cannot be read or has no readable level, or
/// a rating file that cannot be written.
pub fn run(args: &RateArgs, out: &mut impl Write) -> Result<ExitCode> {
    if args.jobs == 0 {
        bail!("--jobs must be at least 1");
    }
    if args.nodes == 0 {
        bail!("--nodes must be at least 1");
    }
    if args.output.is_some() && args.files.len() != 1 {
        bail!("--output takes one FILE only");
    }
    let budget = Budget {
        nodes: args.nodes,
        fast_nodes: args.fast_nodes.unwrap_or(args.nodes).max(1),
        memory_mb: args.memory.max(1),
    };
    let mut stderr = std::io::stderr();
    for file in &args.files {
        let set = LevelSet::load(file)?;
        super::levels::report_broken_levels(file, &set, &mut stderr)?;
        if set.collection.valid_levels().next().is_none() {
            bail!("{}: no level could be read", file.display());
        }
        let started = Instant::now();
        let path = args.output.clone().unwrap_or_else(|| ratings_path(file));
        let kept = if args.best_found_only {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
            Some(Ratings::parse(&text).map_err(|e| anyhow::anyhow!("{}:{e}", path.display()))?)
        } else {
            None
        };
        let ratings = rate_set(file, &set, &budget, kept.as_ref(), args.jobs, &mut stderr)?;
        super::levels::write_output(Some(&path), &ratings.to_json())?;
        let proven = ratings.levels.iter().filter(|r| r.proven).count();
        let found = ratings
            .levels
            .iter()
            .filter(|r| !r.proven && r.pushes.is_some())
            .count();
        let none = ratings.levels.len() - proven - found;
        writeln!(
            out,
            "{}: {} rated: {proven} proven, {found} best found, {none} unsolved, {:.1} s",
            path.display(),
            crate::words::counted(ratings.levels.len(), "level"),
            started.elapsed().as_secs_f64()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
