//! tetris: Guideline Tetris rules as a pure, deterministic engine (no IO, no clock, no
//! global RNG).
//!
//! Time is injected (`now_ms`), input arrives as timestamped key presses and releases, and the
//! seeded generator lives inside the serialisable state, so a game is reproduced exactly from
//! its seed, mode, settings and inputs.
//!
//! # For front ends
//!
//! - Start: [`Game::new`]`(mode, settings, seed)`; record for a replay with
//!   [`Recorder::new`] instead (same calls, plus [`Recorder::replay`]).
//! - Feed input: [`Game::handle`]`(InputEvent::press(now_ms, Action::Left))` on key down,
//!   `InputEvent::release` on key up (DAS/ARR and soft drop are timed from these), and
//!   [`Game::advance_to`]`(now_ms)` every frame. [`Game::update`] does both.
//! - Draw: [`Game::matrix`] (`cell(x, y)` → [`Block`], y = 0 at the bottom, rows 0..20
//!   visible), [`Game::active`], [`Game::ghost`], [`Game::hold_piece`], [`Game::can_hold`],
//!   [`Game::next_queue`], [`Game::score`], [`Game::level`], [`Game::lines`],
//!   [`Game::time_ms`], [`Game::last_clear`] (T-spin / back-to-back / combo banners),
//!   [`Game::lock_deadline_ms`], [`Game::status`].
//! - End: [`Status::Over`] with [`GameOver`]; [`Game::summary`] for the high-score table.
//! - Replays: [`Replay::to_json`], [`Replay::from_json`] (refuses other versions and
//!   damaged data), [`Replay::playback`] to watch at any speed, [`Replay::play`] to verify.
//! - Versus: [`versus::Versus::new`]`(settings, seed)` (or [`versus::VersusRecorder`]);
//!   [`versus::Versus::handle`]`(player, input)` and [`versus::Versus::advance_to`] as for one
//!   game; draw each [`versus::Versus::game`] with its [`versus::Versus::meter`]; the end is
//!   [`versus::Versus::outcome`], the figures [`versus::Versus::stats`]; replays are
//!   [`versus::VersusReplay`]. The rules are in [`attack`] and [`garbage`].
//! - Headless: [`script::simulate`]`(seed, text)` → [`Snapshot`] JSON (`ludus tetris sim`);
//!   [`bot::Bot`] for hints ([`bot::Bot::suggest`]) and demos ([`bot::Bot::play_piece`]).
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

pub mod attack;
pub mod bag;
pub mod bot;
pub mod finesse;
pub mod game;
pub mod garbage;
pub mod matrix;
pub mod mode;
pub mod piece;
pub mod replay;

pub mod scoring;
pub mod script;
pub mod settings;
pub mod snapshot;
pub mod srs;
pub mod versus;

pub use finesse::FinesseCount;
pub use game::{
    Action, Edge, Game, GameOver, InputEvent, MAX_GAME_TIME_MS, Splits, Status, Summary,
};
pub use matrix::{Block, Matrix};
pub use mode::Mode;
pub use piece::{ActivePiece, Colour, PieceKind, Rotation};
pub use replay::{MAX_RECORDED_INPUTS, Playback, Recorder, Replay, ReplayError};

pub use script::{Script, ScriptError};
pub use settings::{Settings, SettingsError, SoftDrop};
pub use snapshot::Snapshot;
