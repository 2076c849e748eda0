//! Programs the user configured by their command lines to play against Ludus or each
//! other: Xiangqi engines (UCI/UCCI) and Tetris bots (TBP). Both lists live in the
//! settings; a set-up offers them by index, so the browser never sends a command line.

/// Longest command line kept for a configured program.
pub const MAX_COMMAND_CHARS: usize = 1000;
/// Most programs of one kind a user can configure.
pub const MAX_PROGRAMS: usize = 16;
/// Longest short name shown for a program.
const MAX_NAME_CHARS: usize = 80;

/// Adds `command` to `programs` (trimmed, once, at most [`MAX_PROGRAMS`]); returns its
/// index. `what` names the kind in errors ("engine", "bot").
///
/// # Errors
/// The command is empty or longer than [`MAX_COMMAND_CHARS`], or the list is full.
pub fn add_program(programs: &mut Vec<String>, command: &str, what: &str) -> Result<usize, String> {
    let command = command.trim();
    if command.is_empty() {
        return Err(format!("the {what}'s command line is empty"));
    }
    if command.chars().count() > MAX_COMMAND_CHARS {
        return Err(format!(
            "the {what}'s command line is longer than {MAX_COMMAND_CHARS} characters"
        ));
    }
    if let Some(i) = programs.iter().position(|p| p == command) {
        return Ok(i);
    }
    if programs.len() >= MAX_PROGRAMS {
        return Err(format!(
            "{MAX_PROGRAMS} {what}s are configured already; remove one from the settings file"
        ));
    }
    programs.push(command.to_string());
    Ok(programs.len() - 1)
}

/// A short name for a command line: its program's file name without the extension
/// (`/usr/games/fairy-stockfish` → `fairy-stockfish`), with the arguments after it when
/// the program is Ludus itself; `fallback` when the line has no program.
pub fn program_name(command: &str, fallback: &str) -> String {
    // Split as engines are started: quotes group words.
    let words = crate::protocol::r#match::split_command(command);
    let mut words = words.iter().map(String::as_str);
    let program = words.next().unwrap_or(fallback);
    let file = program.rsplit(['/', '\\']).next().unwrap_or(program);
    let stem = file.strip_suffix(".exe").unwrap_or(file);
    let name = if stem == "ludus" {
        let rest: Vec<&str> = words.collect();
        format!("ludus {}", rest.join(" ")).trim().to_string()
    } else {
        stem.to_string()
    };
    name.chars().take(MAX_NAME_CHARS).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_program() {
        assert_eq!(
            program_name("/opt/eleeye/ELEEYE.EXE", "engine"),
            "ELEEYE.EXE"
        );
        assert_eq!(
            program_name("C:\\eng\\pikafish.exe --x", "engine"),
            "pikafish"
        );
        assert_eq!(
            program_name("ludus xiangqi ucci", "engine"),
            "ludus xiangqi ucci"
        );
        assert_eq!(
            program_name("'/a b/ludus' xiangqi uci", "engine"),
            "ludus xiangqi uci"
        );
        assert_eq!(program_name("  ", "bot"), "bot");
        assert_eq!(
            program_name("/tmp/cc2/target/release/cold-clear-2", "bot"),
            "cold-clear-2"
        );
    }

    #[test]
    fn programs_are_added_once_and_bounded() {
        let mut programs = Vec::new();
        assert_eq!(add_program(&mut programs, " eleeye ", "engine"), Ok(0));
        assert_eq!(add_program(&mut programs, "eleeye", "engine"), Ok(0));
        assert_eq!(
            add_program(&mut programs, "   ", "bot"),
            Err("the bot's command line is empty".to_string())
        );
        assert!(add_program(&mut programs, &"x".repeat(MAX_COMMAND_CHARS + 1), "bot").is_err());
        for i in 1..MAX_PROGRAMS {
            add_program(&mut programs, &format!("engine{i}"), "engine").unwrap();
        }
        assert!(add_program(&mut programs, "one more", "engine").is_err());
    }
}
