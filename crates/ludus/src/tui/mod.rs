//! The terminal front end: a stack of screens over one ratatui terminal.
//!
//! The event loop lives in [`run`]; everything it draws and every key it
//! handles goes through [`App`], which tests drive with a `TestBackend`.

mod app;
mod clipboard;
mod launcher;
mod settings;
pub mod sokoban;
pub mod tetris;
mod widgets;
pub mod xiangqi;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use ratatui::crossterm::event::{self, Event};

pub use app::{Action, App, Ctx, Screen};

use crate::store::DataDir;

/// Which screen to open first.
pub enum Start {
    Launcher,
    /// The Sokoban collection browser with these files (none: built in), or
    /// straight into `level` (1-based) of the first collection.
    Sokoban {
        files: Vec<PathBuf>,
        level: Option<usize>,
    },
    /// A screen a game's command builds, opened above the launcher (so that
    /// leaving it shows the launcher).
    Screen(OpenScreen),
}

/// Builds a game's first screen once the saved data is loaded.
pub type OpenScreen = Box<dyn FnOnce(&mut Ctx) -> Box<dyn Screen>>;

/// How often the loop wakes without input, for animations and the clock.
const TICK: Duration = Duration::from_millis(30);

/// Runs the terminal UI until the player quits. The terminal is restored on
/// exit and on panic (ratatui installs the hook).
///
/// # Errors
/// Standard input or output is not a terminal (a script, a pipe), or the
/// terminal cannot be set up; the saved data cannot be read.
pub fn run(data: DataDir, start: Start) -> Result<ExitCode> {
    use std::io::IsTerminal;
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        anyhow::bail!(
            "the game screens need a terminal, and standard input or output is not one \
             (see `ludus --help` for the commands that work in scripts)"
        );
    }
    let mut app = App::new(data, start)?;
    let mut terminal = ratatui::try_init().context("cannot set up the terminal")?;
    let enhanced = enable_key_releases();
    // Focus reports let games pause when the terminal loses focus.
    let _ = ratatui::crossterm::execute!(
        std::io::stdout(),
        ratatui::crossterm::event::EnableFocusChange
    );
    let result = (|| -> Result<()> {
        while !app.should_quit() {
            terminal.draw(|frame| app.draw(frame))?;
            if event::poll(TICK)? {
                match event::read()? {
                    Event::Key(key) => app.on_key(key),
                    Event::FocusLost => app.on_focus(false),
                    Event::FocusGained => app.on_focus(true),
                    _ => {} // resizes need nothing: the next draw adapts
                }
            }
            app.tick(Instant::now());
        }
        Ok(())
    })();
    if enhanced {
        disable_key_releases();
    }
    let _ = ratatui::crossterm::execute!(
        std::io::stdout(),
        ratatui::crossterm::event::DisableFocusChange
    );
    ratatui::restore();
    result.map(|()| ExitCode::SUCCESS)
}

/// Asks the terminal for key release events (the kitty keyboard protocol),
/// where it supports them, so that games can time held keys. Undone on exit
/// and on panic.
fn enable_key_releases() -> bool {
    use ratatui::crossterm::event::{KeyboardEnhancementFlags, PushKeyboardEnhancementFlags};
    use ratatui::crossterm::{execute, terminal};
    if !terminal::supports_keyboard_enhancement().unwrap_or(false) {
        return false;
    }
    let flags = KeyboardEnhancementFlags::DISAMBIGUATE_ESCAPE_CODES
        | KeyboardEnhancementFlags::REPORT_EVENT_TYPES;
    if execute!(std::io::stdout(), PushKeyboardEnhancementFlags(flags)).is_err() {
        return false;
    }
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        disable_key_releases();
        previous(info);
    }));
    true
}

fn disable_key_releases() {
    use ratatui::crossterm::event::PopKeyboardEnhancementFlags;
    let _ = ratatui::crossterm::execute!(std::io::stdout(), PopKeyboardEnhancementFlags);
}
