//! Search limits and how much time to spend. The engine never reads a clock: the
//! caller passes an elapsed-milliseconds function.

use crate::moves::Move;

/// What bounds a search. Unset fields do not limit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Exact time for this move, in milliseconds.
    pub movetime: Option<u64>,
    /// Remaining clock time of the side to move, in milliseconds.
    pub time: Option<u64>,
    /// Increment per move, in milliseconds.
    pub increment: u64,
    /// Moves until the next time control (None = sudden death).
    pub moves_to_go: Option<u32>,
    /// Search until stopped (ignores time).
    pub infinite: bool,
    /// Only these root moves are considered (UCI `searchmoves`); empty = all.
    pub search_moves: Vec<Move>,
    /// Root moves that must not be played (UCCI `banmoves`).
    pub ban_moves: Vec<Move>,
}

impl Limits {
    /// Depth-limited search.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Fixed time per move.
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime: Some(ms),
            ..Limits::default()
        }
    }

    /// Node-limited search.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }
}

/// Time budget derived from [`Limits`]: no new iteration after `soft`
/// milliseconds, abort at `hard`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    pub soft: Option<u64>,
    pub hard: Option<u64>,
}

impl TimeBudget {
    /// Allocates time for one move.
    ///
    /// ```
    /// use xiangqi::engine::{Limits, TimeBudget};
    /// let b = TimeBudget::new(&Limits { time: Some(60_000), increment: 1000, ..Limits::default() });
    /// assert!(b.soft.unwrap() < b.hard.unwrap() && b.hard.unwrap() < 60_000);
    /// assert_eq!(TimeBudget::new(&Limits::movetime(500)).hard, Some(500));
    /// ```
    pub fn new(limits: &Limits) -> TimeBudget {
        if limits.infinite {
            return TimeBudget {
                soft: None,
                hard: None,
            };
        }
        if let Some(mt) = limits.movetime {
            return TimeBudget {
                // An unfinished last iteration still counts (its best root
                // move so far is used), so a fixed move time is used in full:
                // stopping early only throws away time the rules give us.
                soft: Some(mt),
                hard: Some(mt),
            };
        }
        match limits.time {
            Some(t) => {
                // Keep a safety margin for communication lag.
                let left = t.saturating_sub(50).max(1);
                let mtg = limits.moves_to_go.unwrap_or(30).clamp(1, 50) as u64;
                let target = (left / mtg + limits.increment * 3 / 4).min(left / 2).max(1);
                let soft = (target / 2).max(1);
                let hard = (target * 4).min(left * 2 / 3).max(soft);
                TimeBudget {
                    soft: Some(soft),
                    hard: Some(hard),
                }
            }
            None => TimeBudget {
                soft: None,
                hard: None,
            },
        }
    }
}
