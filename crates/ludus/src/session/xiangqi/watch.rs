//! Engines playing each other on screen: who sits at each side ([`Seat`]:
//! Ludus at a strength, or a UCI/UCCI engine the user configured by its
//! command line), their names in the record, and the choices a set-up
//! offers. The session runs the game (see
//! [`XiangqiSession::watch`](super::XiangqiSession::watch)); the front end
//! starts one worker per seat and passes the answers back.

use super::flow::{self, LEVELS, Level};

use crate::session::programs::{MAX_PROGRAMS, program_name};

/// Milliseconds per move of a configured engine when there are no clocks.
pub const EXTERNAL_MOVETIME_MS: u64 = 1000;

/// Who plays one side of a game between engines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// Ludus at a strength (an index into [`LEVELS`]).
    Ludus { level: usize },
    /// An engine run as a child process, by its command line.
    External { command: String },
}

impl Seat {
    /// The seat a set-up choice stands for: the strengths of Ludus first,
    /// then the configured engines (an index past both: the strongest Ludus).
    pub fn from_choice(choice: usize, engines: &[String]) -> Seat {
        if choice < LEVELS.len() {
            return Seat::Ludus { level: choice };
        }
        match engines.get(choice - LEVELS.len()) {
            Some(command) => Seat::External {
                command: command.clone(),
            },
            None => Seat::Ludus {
                level: LEVELS.len() - 1,
            },
        }
    }

    /// The player's name in the record and on screen.
    pub fn name(&self) -> String {
        match self {
            Seat::Ludus { level } => format!("Ludus ({})", flow::level(*level).name),
            Seat::External { command } => engine_name(command),
        }
    }

    /// The strength Ludus plays at in this seat; a configured engine gets a
    /// time per move (or its clock).
    pub fn level(&self) -> Level {
        match self {
            Seat::Ludus { level } => *flow::level(*level),
            Seat::External { .. } => Level {
                name: "its own strength",
                skill: xiangqi::engine::MAX_SKILL,
                budget: flow::Budget::Time(EXTERNAL_MOVETIME_MS),
            },
        }
    }
}

/// The name of the choice `choice` (see [`Seat::from_choice`]).
pub fn choice_name(choice: usize, engines: &[String]) -> String {
    Seat::from_choice(choice, engines).name()
}

/// How many seat choices there are: the strengths of Ludus and the engines.
pub fn choices(engines: &[String]) -> usize {
    LEVELS.len() + engines.len().min(MAX_PROGRAMS)
}

/// A short name for an engine's command line (see [`program_name`]).
pub fn engine_name(command: &str) -> String {
    program_name(command, "engine")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_are_ludus_strengths_then_configured_engines() {
        let engines = vec!["/usr/games/fairy-stockfish".to_string()];
        assert_eq!(choices(&engines), LEVELS.len() + 1);
        assert_eq!(Seat::from_choice(0, &engines), Seat::Ludus { level: 0 });
        assert_eq!(
            Seat::from_choice(LEVELS.len(), &engines),
            Seat::External {
                command: engines[0].clone()
            }
        );
        assert_eq!(choice_name(LEVELS.len(), &engines), "fairy-stockfish");
        assert_eq!(
            choice_name(0, &engines),
            "Ludus (Beginner (skill 1, 0.2 s))"
        );
        // A removed engine's stored choice falls back to the strongest Ludus.
        assert_eq!(
            Seat::from_choice(LEVELS.len() + 3, &engines),
            Seat::Ludus {
                level: LEVELS.len() - 1
            }
        );
    }
}
