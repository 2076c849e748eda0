//! What the session asks of the solver and what it makes of the answers.
//! The session never runs the solver: it says what to solve, or to stop,
//! as [`SolverOrder`]s the front end carries out (on a thread of its
//! choosing), and takes the outcome back with the order's id.

use std::time::Duration;

use sokoban::{Direction, Level};

/// How long a hint or a solve-and-show may think.
pub const THINK_LIMIT: Duration = Duration::from_secs(10);

/// What a solver run is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The next push, for the player to take.
    Hint,
    /// The whole solution, played by the solver ("solve and show").
    Show,
    /// The last position that can still be solved, looked for backwards.
    Rewind,
}

impl Purpose {
    /// The name the web protocol gives it.
    pub fn name(self) -> &'static str {
        match self {
            Purpose::Hint => "hint",
            Purpose::Show => "show",
            Purpose::Rewind => "rewind",
        }
    }

    /// What the screen says while the solver works.
    pub fn doing(self) -> &'static str {
        match self {
            Purpose::Hint => "Looking for a hint",
            Purpose::Show => "Solving",
            Purpose::Rewind => "Looking for the last solvable position",
        }
    }
}

/// The run the session waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thinking {
    pub id: u64,
    pub purpose: Purpose,
    /// For a rewind: how many steps back from the game the position solved is.
    pub(super) undos: usize,
}

/// One position to solve.
#[derive(Clone, Debug)]
pub struct SolveOrder {
    /// Hand the outcome back with this id ([`super::play::SokobanSession::solver_done`]).
    pub id: u64,
    pub purpose: Purpose,
    /// The position, as a level of its own.
    pub level: Level,
    /// Stop after this long.
    pub limit: Duration,
}

/// What the front end's solver must do next.
#[derive(Clone, Debug)]
pub enum SolverOrder {
    /// Solve this (stopping any other run of this game first).
    Solve(Box<SolveOrder>),
    /// Stop the running solve: its answer is no longer wanted.
    Cancel,
}

/// What a finished solve changed, for the front end to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverAnswer {
    /// Steps to play: a hint's push (the player's own steps) or the whole
    /// solution (`by_solver`: the solver's, taken back by
    /// [`super::play::SokobanSession::stop`]).
    Play {
        purpose: Purpose,
        steps: Vec<Direction>,
        by_solver: bool,
        /// The solution's counts (the whole solution's, for a hint too).
        moves: u32,
        pushes: u32,
        text: String,
    },
    /// The position cannot be solved any more: a rewind can go back.
    Unsolvable { purpose: Purpose },
    /// Back at the last solvable position: `undone` steps undone (redo works).
    Rewound { undone: usize, text: String },
    /// Nothing to play: why, in a line.
    Notice(String),
}

/// What the front end says when a run stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// Nothing was running.
    Nothing,
    /// The solver stopped before answering.
    Solver,
    /// A solve-and-show stopped; the solver's `undone` moves were taken back.
    Show { undone: usize },
}

impl Stopped {
    /// The line to show, if any.
    pub fn text(self) -> Option<&'static str> {
        match self {
            Stopped::Nothing => None,
            Stopped::Solver => Some("Solver stopped."),
            Stopped::Show { .. } => Some("Stopped: back where you were."),
        }
    }
}

/// "1 step" or "n steps".
pub(super) fn steps_text(count: usize) -> String {
    crate::words::counted(count, "step")
}
