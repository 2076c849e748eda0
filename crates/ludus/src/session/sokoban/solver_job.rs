//! The Sokoban solver off the caller's thread: a time limit read from the
//! clock here (the pure crate never reads one), a cancel flag, and progress
//! that the UI can poll without blocking.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use sokoban::solver::{self, Control, Options, Outcome, Progress, Stats};
use sokoban::{Game, Level};

use crate::words::thousands;

/// One finished solve: the outcome, the effort and the wall time it took.
#[derive(Clone, Debug)]
pub struct Report {
    pub outcome: Outcome,
    pub stats: Stats,
    pub elapsed: Duration,
    /// Whether the time limit (not a cancel) stopped it.
    pub timed_out: bool,
}

/// How far a running solve has got, as every front end shows it: the
/// terminal's status line, the page's message, `solve --progress`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Figures {
    /// Nodes expanded.
    pub nodes: u64,
    /// Positions stored.
    pub stored: u64,
    /// Pushes (or moves) to the node being expanded.
    pub depth: u32,
    /// Its lower bound on the pushes still needed.
    pub lower_bound: u32,
    pub elapsed: Duration,
}

impl Figures {
    /// The figures of the solver's latest report, `elapsed` after it started.
    pub fn of(progress: &Progress, elapsed: Duration) -> Figures {
        Figures {
            nodes: progress.expanded,
            stored: progress.stored,
            depth: progress.depth,
            lower_bound: progress.lower_bound,
            elapsed,
        }
    }

    /// `3.2 s · 1,234,567 nodes · 801,224 positions · depth 38 + 12`: the
    /// depth of the node being expanded and its bound on the pushes still
    /// needed (their sum is the search's f).
    pub fn text(&self) -> String {
        format!(
            "{:.1} s · {} nodes · {} positions · depth {} + {}",
            self.elapsed.as_secs_f64(),
            thousands(self.nodes),
            thousands(self.stored),
            self.depth,
            self.lower_bound
        )
    }
}

/// The machine's cores (1 when it cannot tell).
pub fn cores() -> usize {
    thread::available_parallelism().map_or(1, |n| n.get())
}

/// Fast-mode options for one player waiting on one level (hints, solve and
/// show, the editor's check): the search gets every core.
pub fn for_one_player() -> Options {
    Options {
        threads: cores(),
        ..Options::default()
    }
}

/// Solves on the calling thread, stopping at `limit` or when `cancel` is set.
pub fn solve_blocking(
    level: &Level,
    options: &Options,
    limit: Option<Duration>,
    cancel: &AtomicBool,
) -> Report {
    solve_reporting(level, options, limit, cancel, |_| {})
}

/// As [`solve_blocking`], calling `on_figures` as the search goes (every few
/// thousand nodes; the callback decides how often it shows them).
pub fn solve_watched(
    level: &Level,
    options: &Options,
    limit: Option<Duration>,
    cancel: &AtomicBool,
    mut on_figures: impl FnMut(&Figures),
) -> Report {
    let start = Instant::now();
    solve_reporting(level, options, limit, cancel, |p| {
        on_figures(&Figures::of(p, start.elapsed()));
    })
}

fn solve_reporting(
    level: &Level,
    options: &Options,
    limit: Option<Duration>,
    cancel: &AtomicBool,
    mut on_progress: impl FnMut(&Progress),
) -> Report {
    let start = Instant::now();
    let deadline = limit.map(|l| start + l);
    let timed_out = AtomicBool::new(false);
    let mut control = Control::new()
        .cancel_flag(cancel)
        .on_progress(4096, |p| on_progress(p))
        .should_stop(|| {
            let late = deadline.is_some_and(|d| Instant::now() >= d);
            if late {
                timed_out.store(true, Ordering::Relaxed);
            }
            late
        });
    let (outcome, stats) = solver::solve_with_stats(level, options, &mut control);
    drop(control);
    Report {
        outcome,
        stats,
        elapsed: start.elapsed(),
        timed_out: timed_out.load(Ordering::Relaxed),
    }
}

/// A solve running on its own thread.
pub struct SolveJob {
    cancel: Arc<AtomicBool>,
    expanded: Arc<AtomicU64>,
    depth: Arc<Mutex<Option<Progress>>>,
    started: Instant,
    result: Receiver<Report>,
}

impl SolveJob {
    /// Starts solving the position reached in `game`.
    pub fn from_game(game: &Game, options: Options, limit: Option<Duration>) -> SolveJob {
        SolveJob::start(game.position_as_level(), options, limit)
    }

    pub fn start(level: Level, options: Options, limit: Option<Duration>) -> SolveJob {
        let cancel = Arc::new(AtomicBool::new(false));
        let expanded = Arc::new(AtomicU64::new(0));
        let depth = Arc::new(Mutex::new(None));
        let (send, result) = mpsc::channel();
        let (c, e, d) = (
            Arc::clone(&cancel),
            Arc::clone(&expanded),
            Arc::clone(&depth),
        );
        thread::spawn(move || {
            let report = solve_reporting(&level, &options, limit, &c, |p| {
                e.store(p.expanded, Ordering::Relaxed);
                if let Ok(mut slot) = d.lock() {
                    *slot = Some(*p);
                }
            });
            // The receiver may be gone (the screen closed): nothing to do then.
            let _ = send.send(report);
        });
        SolveJob {
            cancel,
            expanded,
            depth,
            started: Instant::now(),
            result,
        }
    }

    /// The report once the solve has ended; `None` while it runs.
    pub fn poll(&self) -> Option<Report> {
        match self.result.try_recv() {
            Ok(report) => Some(report),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Report {
                outcome: Outcome::Internal("the solver thread stopped without an answer".into()),
                stats: Stats::default(),
                elapsed: self.started.elapsed(),
                timed_out: false,
            }),
        }
    }

    /// Nodes expanded so far and the latest progress.
    pub fn progress(&self) -> (u64, Option<Progress>) {
        let latest = self.depth.lock().ok().and_then(|p| *p);
        (self.expanded.load(Ordering::Relaxed), latest)
    }

    /// The figures to show now (the latest report, the time so far).
    pub fn figures(&self) -> Figures {
        let (nodes, latest) = self.progress();
        Figures {
            nodes,
            ..Figures::of(&latest.unwrap_or_default(), self.elapsed())
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

impl Drop for SolveJob {
    fn drop(&mut self) {
        self.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_read_as_words_with_grouped_counts() {
        let figures = Figures {
            nodes: 1_234_567,
            stored: 801_224,
            depth: 38,
            lower_bound: 12,
            elapsed: Duration::from_millis(3_240),
        };
        assert_eq!(
            figures.text(),
            "3.2 s · 1,234,567 nodes · 801,224 positions · depth 38 + 12"
        );
    }
}
