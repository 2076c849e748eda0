//! Xiangqi in the terminal: the set-up screen, the saved-games list and the
//! play screen (which also steps through loaded game records).

pub mod board;
pub mod games;
pub mod play;
pub mod setup;

use std::time::Duration;

use xiangqi::engine::{Limits, MAX_SKILL};
use xiangqi::pgn::PgnGame;
use xiangqi::{Game, Move, Position};

use super::app::{Ctx, Screen};
use play::{Opponent, Play};

/// A strength the engine plays at: a skill level and a budget per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub name: &'static str,
    pub skill: u8,
    pub budget: Budget,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Milliseconds per move.
    Time(u64),
    /// Plies.
    Depth(u32),
}

/// The strengths on offer, weakest first: by skill level, by depth, by time.
pub const LEVELS: [Level; 9] = [
    Level {
        name: "Beginner (skill 1, 0.2 s)",
        skill: 1,
        budget: Budget::Time(200),
    },
    Level {
        name: "Novice (skill 5, 0.3 s)",
        skill: 5,
        budget: Budget::Time(300),
    },
    Level {
        name: "Casual (skill 10, 0.5 s)",
        skill: 10,
        budget: Budget::Time(500),
    },
    Level {
        name: "Club (skill 15, 1 s)",
        skill: 15,
        budget: Budget::Time(1000),
    },
    Level {
        name: "Depth 4",
        skill: MAX_SKILL,
        budget: Budget::Depth(4),
    },
    Level {
        name: "Depth 6",
        skill: MAX_SKILL,
        budget: Budget::Depth(6),
    },
    Level {
        name: "Expert (1 s per move)",
        skill: MAX_SKILL,
        budget: Budget::Time(1000),
    },
    Level {
        name: "Master (3 s per move)",
        skill: MAX_SKILL,
        budget: Budget::Time(3000),
    },
    Level {
        name: "Grandmaster (10 s per move)",
        skill: MAX_SKILL,
        budget: Budget::Time(10_000),
    },
];

impl Level {
    /// Search limits, taking the engine's clock into account when there is one.
    pub fn limits(&self, clock: Option<(Duration, Duration)>) -> Limits {
        let mut limits = match self.budget {
            Budget::Time(ms) => Limits::movetime(ms),
            Budget::Depth(d) => Limits::depth(d),
        };
        if let Some((left, inc)) = clock {
            let left = left.as_millis() as u64;
            let inc = inc.as_millis() as u64;
            limits.time = Some(left);
            limits.increment = inc;
            if let Some(ms) = limits.movetime {
                // Never spend more of the clock than a measured share of it.
                limits.movetime = Some(ms.min(left / 20 + inc / 2).max(1));
            }
        }
        limits
    }
}

/// The level at a stored index (clamped: the settings file may be old or edited).
pub fn level(index: usize) -> &'static Level {
    &LEVELS[index.min(LEVELS.len() - 1)]
}

/// Clock choices: name, base, increment. The first is "no clocks".
pub const CLOCKS: [(&str, u64, u64); 5] = [
    ("off", 0, 0),
    ("1 min + 1 s", 60, 1),
    ("5 min + 3 s", 300, 3),
    ("10 min + 5 s", 600, 5),
    ("15 min + 10 s", 900, 10),
];

/// Base time and increment of a stored clock choice, or None for no clocks.
pub fn clock(index: usize) -> Option<(Duration, Duration)> {
    let (_, base, inc) = CLOCKS.get(index).copied().unwrap_or(CLOCKS[0]);
    (base > 0).then(|| (Duration::from_secs(base), Duration::from_secs(inc)))
}

/// How moves are written in the move list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    Chinese,
    Wxf,
    Iccs,
}

impl Notation {
    pub fn from_setting(s: &str) -> Notation {
        match s {
            "wxf" => Notation::Wxf,
            "iccs" => Notation::Iccs,
            _ => Notation::Chinese,
        }
    }

    pub fn setting(self) -> &'static str {
        match self {
            Notation::Chinese => "chinese",
            Notation::Wxf => "wxf",
            Notation::Iccs => "iccs",
        }
    }

    pub fn next(self) -> Notation {
        match self {
            Notation::Chinese => Notation::Wxf,
            Notation::Wxf => Notation::Iccs,
            Notation::Iccs => Notation::Chinese,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Notation::Chinese => "Chinese",
            Notation::Wxf => "WXF",
            Notation::Iccs => "ICCS",
        }
    }

    /// A legal move of `pos` in this notation.
    pub fn write(self, pos: &Position, m: Move) -> String {
        match self {
            Notation::Chinese => pos.to_chinese(m),
            Notation::Wxf => pos.to_wxf(m),
            Notation::Iccs => m.to_iccs(),
        }
    }
}

/// The set-up screen (new game against the engine or two players, saved games).
pub fn setup(ctx: &mut Ctx) -> Box<dyn Screen> {
    Box::new(setup::Setup::new(ctx))
}

/// Two players from a position (`ludus xiangqi --fen`).
pub fn two_players(ctx: &mut Ctx, game: Game) -> Box<dyn Screen> {
    Box::new(Play::new(game, Opponent::Humans, None, ctx))
}

/// A game record opened to step through from its first move
/// (`ludus xiangqi game.pgn`); play can continue from its end.
pub fn review(ctx: &mut Ctx, pgn: PgnGame, name: String) -> Box<dyn Screen> {
    let mut play = Play::new(pgn.to_game(), Opponent::Humans, None, ctx);
    play.load_record(&pgn, name, None);
    play.view_ply(0);
    Box::new(play)
}
