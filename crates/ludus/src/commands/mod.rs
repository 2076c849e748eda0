//! Command-line subcommands that print and exit (the games' non-interactive side).

pub mod sokoban;
pub mod tetris;
pub mod xiangqi;

use anyhow::{Context, Result};

use crate::store::DataDir;
use crate::store::settings::Settings;

/// Adds `commands` to the list of configured programs that `list` picks out of the
/// settings (Xiangqi engines, Tetris bots) and saves the settings; `what` names the kind
/// and the option in errors.
///
/// # Errors
/// A command is refused (see [`crate::session::programs::add_program`]) or the settings
/// cannot be saved.
pub fn configure_programs(
    data: &DataDir,
    commands: &[String],
    what: &str,
    option: &str,
    list: fn(&mut Settings) -> &mut Vec<String>,
) -> Result<()> {
    if commands.is_empty() {
        return Ok(());
    }
    let (mut settings, warning) = crate::store::settings::load(data);
    if let Some(w) = warning {
        eprintln!("{w}");
    }
    for command in commands {
        crate::session::programs::add_program(list(&mut settings), command, what)
            .map_err(|e| anyhow::anyhow!("{option} {command:?}: {e}"))?;
    }
    crate::store::settings::save(data, &settings).context("cannot save the settings")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configured_programs_are_saved_once_and_bad_ones_named() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let data = DataDir::at(dir.path());
        let bots = vec![String::from("cold-clear-2"), String::from(" cold-clear-2 ")];
        configure_programs(&data, &bots, "bot", "--tbp-bot", |s| &mut s.tetris.bots)
            .unwrap_or_else(|e| panic!("{e}"));
        let (settings, warning) = crate::store::settings::load(&data);
        assert_eq!(warning, None);
        assert_eq!(settings.tetris.bots, vec![String::from("cold-clear-2")]);
        assert!(settings.xiangqi.engines.is_empty());
        let refused = configure_programs(&data, &[String::new()], "bot", "--tbp-bot", |s| {
            &mut s.tetris.bots
        })
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
        assert_eq!(refused, "--tbp-bot \"\": the bot's command line is empty");
    }
}
