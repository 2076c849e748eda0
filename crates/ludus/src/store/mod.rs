//! Saved data: the data directory, atomic JSON files, progress, snapshots, settings.
//!
//! Layers, bottom up:
//! - [`atomic`]: [`write_atomic`] (temp file, fsync, rename, fsync the directory).
//! - [`json_file`]: versioned JSON documents (`{ "version": N, ... }`) with recovery from
//!   corrupt files ([`Warning`]) and locked read-modify-write ([`update`]).
//! - [`DataDir`]: where the files live, and safe relative paths inside it.
//! - [`progress`], [`snapshots`], [`settings`]: the documents themselves.

pub mod atomic;
pub mod data_dir;
pub mod json_file;
pub mod limits;
pub mod progress;
pub mod settings;
pub mod snapshots;
pub mod tablebases;
pub mod tetris;
pub mod xiangqi;

pub use atomic::write_atomic;
pub use data_dir::{DataDir, PathError};
pub use json_file::{Document, Warning, load, load_opt, save, update};
pub use progress::{LevelProgress, NewBest, Progress, Solution};
pub use settings::Settings;
pub use snapshots::{History, Snapshot};
