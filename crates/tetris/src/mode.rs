//! Game modes and the goal that ends each of them.

use serde::{Deserialize, Serialize};

/// What the player is trying to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Mode {
    /// Levels rise every 10 lines; ends after 150 lines (level 15) unless endless.
    Marathon { endless: bool },
    /// Clear 40 lines as fast as possible.
    Sprint,
    /// Score as much as possible in two minutes.
    Ultra,
    /// No gravity, never ends; a top out clears the matrix instead of ending the game.
    Zen,
}

impl Default for Mode {
    fn default() -> Self {
        Mode::Marathon { endless: false }
    }
}

impl Mode {
    /// Lines that complete the mode.
    pub fn line_goal(self) -> Option<u32> {
        match self {
            Mode::Marathon { endless: false } => Some(150),
            Mode::Sprint => Some(40),
            _ => None,
        }
    }

    /// Play time after which the mode ends.
    pub fn time_limit_ms(self) -> Option<u64> {
        match self {
            Mode::Ultra => Some(120_000),
            _ => None,
        }
    }

    /// Whether pieces fall by themselves.
    pub fn has_gravity(self) -> bool {
        self != Mode::Zen
    }

    /// Whether the level rises with lines (Sprint and Ultra stay at level 1, as in the Guideline).
    pub fn levels_up(self) -> bool {
        matches!(self, Mode::Marathon { .. } | Mode::Zen)
    }

    /// Whether a block out or lock out ends the game.
    pub fn can_top_out(self) -> bool {
        self != Mode::Zen
    }

    /// A short name for file names and high-score tables.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Marathon { endless: false } => "marathon",
            Mode::Marathon { endless: true } => "marathon-endless",
            Mode::Sprint => "sprint",
            Mode::Ultra => "ultra",
            Mode::Zen => "zen",
        }
    }
}
