//! Saved data: the data directory, atomic JSON files, progress, snapshots, settings.
