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

use crate::store::{self, DataDir};

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
    app.set_locale_utf8(store::settings::locale_is_utf8(|name| {
        std::env::var(name).ok()
    }));
    let mut terminal = ratatui::try_init().context("cannot set up the terminal")?;
    let enhanced = enable_key_releases();
    let mut mouse = MouseCapture::default();
    release_mouse_on_panic();
    // Focus reports let games pause when the terminal loses focus.
    let _ = ratatui::crossterm::execute!(
        std::io::stdout(),
        ratatui::crossterm::event::EnableFocusChange
    );
    let result = (|| -> Result<()> {
        while !app.should_quit() {
            // The setting may have changed on the settings screen.
            let _ = mouse.set(&mut std::io::stdout(), app.wants_mouse());
            terminal.draw(|frame| app.draw(frame))?;
            if event::poll(TICK)? {
                match event::read()? {
                    Event::Key(key) => app.on_key(key),
                    Event::Mouse(event) => app.on_mouse(event),
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
    let _ = mouse.set(&mut std::io::stdout(), false);
    let _ = ratatui::crossterm::execute!(
        std::io::stdout(),
        ratatui::crossterm::event::DisableFocusChange
    );
    ratatui::restore();
    result.map(|()| ExitCode::SUCCESS)
}

/// The terminal's mouse capture, kept in step with the setting: on, the
/// terminal reports clicks and the wheel; off, it keeps its own selection.
#[derive(Debug, Default)]
struct MouseCapture {
    on: bool,
}

impl MouseCapture {
    /// Turns capture on or off on `out` if it is not so already.
    fn set(&mut self, out: &mut impl std::io::Write, on: bool) -> std::io::Result<()> {
        use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
        if on == self.on {
            return Ok(());
        }
        if on {
            ratatui::crossterm::execute!(out, EnableMouseCapture)?;
        } else {
            ratatui::crossterm::execute!(out, DisableMouseCapture)?;
        }
        self.on = on;
        Ok(())
    }
}

/// A panic leaves the terminal without mouse capture too (ratatui's hook
/// restores the rest); releasing it when it was not on does no harm.
fn release_mouse_on_panic() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = ratatui::crossterm::execute!(
            std::io::stdout(),
            ratatui::crossterm::event::DisableMouseCapture
        );
        previous(info);
    }));
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

#[cfg(test)]
mod tests {
    use super::MouseCapture;

    #[test]
    fn mouse_capture_follows_the_setting() {
        let mut capture = MouseCapture::default();
        let mut out = Vec::new();
        capture.set(&mut out, true).unwrap();
        let on = String::from_utf8_lossy(&out).into_owned();
        assert!(on.contains("\x1b[?1000h"), "{on:?}");
        out.clear();
        capture.set(&mut out, true).unwrap();
        assert!(out.is_empty(), "already on: nothing written");
        capture.set(&mut out, false).unwrap();
        let off = String::from_utf8_lossy(&out).into_owned();
        assert!(off.contains("\x1b[?1000l"), "{off:?}");
        out.clear();
        capture.set(&mut out, false).unwrap();
        assert!(out.is_empty(), "already off: nothing written");
    }
}
