//! Engines playing each other on screen: who sits at each side ([`Seat`]:
//! Ludus at a strength, or a UCI/UCCI engine the user configured by its
//! command line), their names in the record, and the choices a set-up
//! offers. The session runs the game (see
//! [`XiangqiSession::watch`](super::XiangqiSession::watch)); the front end
//! starts one worker per seat and passes the answers back.

use super::flow::{self, LEVELS, Level};

/// Longest command line kept for a configured engine.
pub const MAX_COMMAND_CHARS: usize = 1000;
/// Most engines a user can configure.
pub const MAX_ENGINES: usize = 16;
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
    LEVELS.len() + engines.len().min(MAX_ENGINES)
}

/// A short name for an engine's command line: its program's file name
/// without the extension (`/usr/games/fairy-stockfish` → `fairy-stockfish`),
/// with the arguments after it when the program is Ludus itself.
pub fn engine_name(command: &str) -> String {
    // Split as the engine is started: quotes group words.
    let words = crate::protocol::r#match::split_command(command);
    let mut words = words.iter().map(String::as_str);
    let program = words.next().unwrap_or("engine");
    let file = program.rsplit(['/', '\\']).next().unwrap_or(program);
    let stem = file.strip_suffix(".exe").unwrap_or(file);
    let name = if stem == "ludus" {
        let rest: Vec<&str> = words.collect();
        format!("ludus {}", rest.join(" ")).trim().to_string()
    } else {
        stem.to_string()
    };
    name.chars().take(super::MAX_NAME_CHARS).collect()
}

/// Adds `command` to the configured engines (trimmed, once, at most
/// [`MAX_ENGINES`]); returns its index.
///
/// # Errors
/// The command is empty or longer than [`MAX_COMMAND_CHARS`], or the list is full.
pub fn add_engine(engines: &mut Vec<String>, command: &str) -> Result<usize, String> {
    let command = command.trim();
    if command.is_empty() {
        return Err("the engine's command line is empty".to_string());
    }
    if command.chars().count() > MAX_COMMAND_CHARS {
        return Err(format!(
            "the engine's command line is longer than {MAX_COMMAND_CHARS} characters"
        ));
    }
    if let Some(i) = engines.iter().position(|e| e == command) {
        return Ok(i);
    }
    if engines.len() >= MAX_ENGINES {
        return Err(format!(
            "{MAX_ENGINES} engines are configured already; remove one from the settings file"
        ));
    }
    engines.push(command.to_string());
    Ok(engines.len() - 1)
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

    #[test]
    fn engine_names_come_from_the_program() {
        assert_eq!(engine_name("/opt/eleeye/ELEEYE.EXE"), "ELEEYE.EXE");
        assert_eq!(engine_name("C:\\eng\\pikafish.exe --x"), "pikafish");
        assert_eq!(engine_name("ludus xiangqi ucci"), "ludus xiangqi ucci");
        assert_eq!(engine_name("'/a b/ludus' xiangqi uci"), "ludus xiangqi uci");
        assert_eq!(engine_name("  "), "engine");
    }

    #[test]
    fn engines_are_added_once_and_bounded() {
        let mut engines = Vec::new();
        assert_eq!(add_engine(&mut engines, " eleeye "), Ok(0));
        assert_eq!(add_engine(&mut engines, "eleeye"), Ok(0));
        assert!(add_engine(&mut engines, "   ").is_err());
        assert!(add_engine(&mut engines, &"x".repeat(MAX_COMMAND_CHARS + 1)).is_err());
        for i in 1..MAX_ENGINES {
            add_engine(&mut engines, &format!("engine{i}")).unwrap();
        }
        assert!(add_engine(&mut engines, "one more").is_err());
    }
}
