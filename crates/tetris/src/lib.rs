//! tetris: Guideline Tetris rules as a pure, deterministic engine (no IO, no clock, no
//! global RNG).
//!
//! Time is injected (`now_ms`), input arrives as timestamped key presses and releases, and the
//! seeded generator lives inside the serialisable state, so a game is reproduced exactly from
//! its seed, mode, settings and inputs.
//!
//! ```
//! use tetris::{Action, Game, InputEvent, Mode, Settings};
//! let mut game = Game::new(Mode::Marathon { endless: false }, Settings::default(), 7);
//! // Hold right for half a second, then hard drop.
//! game.handle(InputEvent::press(0, Action::Right));
//! game.handle(InputEvent::release(500, Action::Right));
//! game.update(510, &InputEvent::tap(510, Action::HardDrop));
//! assert_eq!(game.pieces(), 1);
//! let snapshot = tetris::Snapshot::of(&game);
//! assert!(snapshot.board.len() >= 20);
//! ```

pub mod bag;
pub mod bot;

pub mod game;
pub mod matrix;
pub mod mode;
pub mod piece;
pub mod replay;

pub mod scoring;
pub mod script;
pub mod settings;
pub mod snapshot;
pub mod srs;

pub use game::{Action, Edge, Game, GameOver, InputEvent, Status, Summary};
pub use matrix::{Block, Matrix};
pub use mode::Mode;
pub use piece::{ActivePiece, Colour, PieceKind, Rotation};
pub use replay::{Playback, Recorder, Replay, ReplayError};

pub use script::{Script, ScriptError};
pub use settings::{Settings, SettingsError, SoftDrop};
pub use snapshot::Snapshot;
