//! The terminal front end: a stack of screens over one ratatui terminal.
//!
//! The event loop lives in [`run`]; everything it draws and every key it
//! handles goes through [`App`], which tests drive with a `TestBackend`.

mod app;
mod launcher;
mod settings;
pub mod sokoban;
mod widgets;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Result;
use ratatui::crossterm::event::{self, Event, KeyEventKind};

pub use app::{Action, App, Ctx};

use crate::store::DataDir;

/// Which screen to open first.
#[derive(Clone, Debug)]
pub enum Start {
    Launcher,
    /// The Sokoban collection browser with these files (none: built in), or
    /// straight into `level` (1-based) of the first collection.
    Sokoban {
        files: Vec<PathBuf>,
        level: Option<usize>,
    },
}

/// How often the loop wakes without input, for animations and the clock.
const TICK: Duration = Duration::from_millis(30);

/// Runs the terminal UI until the player quits. The terminal is restored on
/// exit and on panic (ratatui installs the hook).
pub fn run(data: DataDir, start: Start) -> Result<ExitCode> {
    let mut app = App::new(data, start)?;
    let mut terminal = ratatui::init();
    let result = (|| -> Result<()> {
        while !app.should_quit() {
            terminal.draw(|frame| app.draw(frame))?;
            if event::poll(TICK)? {
                match event::read()? {
                    Event::Key(key) if key.kind == KeyEventKind::Press => app.on_key(key),
                    _ => {} // resize and others: the next draw adapts
                }
            }
            app.tick(Instant::now());
        }
        Ok(())
    })();
    ratatui::restore();
    result.map(|()| ExitCode::SUCCESS)
}
