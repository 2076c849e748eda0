//! Saved Sokoban games (`sokoban/snapshots/<level key>.json`): the level's board and the
//! move history, so loading gives back a game whose undo (and redo) still work.

use std::fs;
use std::io;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use super::data_dir::DataDir;
use super::json_file::{self, Document, Warning};

/// One saved game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The level's key (also the file name).
    pub level_key: String,
    pub level_title: String,
    /// The level as XSB text, so the snapshot can be restored even if its collection is gone.
    pub level_xsb: String,
    pub history: History,
    /// When it was saved (unix seconds).
    pub saved_at: u64,
}

/// A move history: every move made, including those undone but still redoable.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct History {
    /// The moves in LURD (lowercase: move, uppercase: push).
    pub lurd: String,
    /// How many of them are applied (in characters of `lurd`); the rest can be redone.
    pub position: usize,
    /// Which moves (0-based, into `lurd`) the solver made in "solve and show":
    /// a solve through them is not the player's own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub by_solver: Vec<usize>,
}

impl Document for Snapshot {
    const VERSION: u32 = 1;

    fn check(&self) -> Result<(), String> {
        let len = self.history.lurd.chars().count();
        if self.history.position > len {
            return Err(format!(
                "history position {} is past the end of its {len} moves",
                self.history.position
            ));
        }
        if let Some(&i) = self.history.by_solver.iter().find(|&&i| i >= len) {
            return Err(format!(
                "solver move {i} is past the end of its {len} moves"
            ));
        }
        Ok(())
    }
}

/// The file of the snapshot for `key`. Keys become file names, so they must be 1 to 128
/// ASCII letters, digits, `-` or `_` (a hex hash always is).
pub fn path(dir: &DataDir, key: &str) -> Result<PathBuf> {
    let valid = !key.is_empty()
        && key.len() <= 128
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !valid {
        bail!("level key {key:?} cannot be used as a file name");
    }
    Ok(dir.sokoban_snapshots().join(format!("{key}.json")))
}

/// Saves `snapshot` (replacing any earlier one for the same level), atomically. An unusable
/// file there is moved aside and reported.
pub fn save(dir: &DataDir, snapshot: &Snapshot) -> Result<Option<Warning>> {
    json_file::save(&path(dir, &snapshot.level_key)?, snapshot)
}

/// The snapshot for `key`: `None` if there is none; if its file is unusable it is moved
/// aside and reported, and `None` comes back. Errs only for a key that is no file name.
pub fn load(dir: &DataDir, key: &str) -> Result<(Option<Snapshot>, Option<Warning>)> {
    Ok(json_file::load_opt(&path(dir, key)?))
}

/// Deletes the snapshot for `key`; `false` if there was none.
pub fn remove(dir: &DataDir, key: &str) -> Result<bool> {
    let path = path(dir, key)?;
    let _lock = json_file::lock(&path)?;
    match fs::remove_file(&path) {
        Ok(()) => Ok(true),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(err) => Err(err).with_context(|| format!("cannot delete {}", path.display())),
    }
}

/// Every saved snapshot, newest first, with warnings for files that were unusable (and
/// moved aside). Files whose name is not a valid `<key>.json` are skipped.
pub fn list(dir: &DataDir) -> Result<(Vec<Snapshot>, Vec<Warning>)> {
    let folder = dir.sokoban_snapshots();
    let entries = match fs::read_dir(&folder) {
        Ok(entries) => entries,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok((Vec::new(), Vec::new())),
        Err(err) => return Err(err).with_context(|| format!("cannot list {}", folder.display())),
    };
    let mut snapshots = Vec::new();
    let mut warnings = Vec::new();
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot list {}", folder.display()))?;
        let name = entry.file_name();
        let Some(key) = name.to_str().and_then(|n| n.strip_suffix(".json")) else {
            continue;
        };
        let Ok(path) = path(dir, key) else {
            continue;
        };
        let (snapshot, warning) = json_file::load_opt::<Snapshot>(&path);
        snapshots.extend(snapshot);
        warnings.extend(warning);
    }
    snapshots.sort_by(|a, b| {
        b.saved_at
            .cmp(&a.saved_at)
            .then_with(|| a.level_key.cmp(&b.level_key))
    });
    Ok((snapshots, warnings))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot(key: &str, saved_at: u64) -> Snapshot {
        Snapshot {
            level_key: key.into(),
            level_title: format!("Level {key}"),
            level_xsb: "#####\n#@$.#\n#####\n".into(),
            history: History {
                lurd: "rRlLrR".into(),
                position: 4,
                by_solver: Vec::new(),
            },
            saved_at,
        }
    }

    #[test]
    fn round_trip() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::at(tmp.path().join("data"));
        assert_eq!(load(&dir, "ab12").unwrap(), (None, None));
        let snap = snapshot("ab12", 1_700_000_000);
        assert_eq!(save(&dir, &snap).unwrap(), None);
        assert!(
            tmp.path()
                .join("data/sokoban/snapshots/ab12.json")
                .is_file()
        );
        assert_eq!(load(&dir, "ab12").unwrap(), (Some(snap.clone()), None));
        // Saving again replaces.
        let mut newer = snap.clone();
        newer.history.position = 6;
        newer.saved_at += 10;
        assert_eq!(save(&dir, &newer).unwrap(), None);
        assert_eq!(load(&dir, "ab12").unwrap().0, Some(newer));
        assert!(remove(&dir, "ab12").unwrap());
        assert!(!remove(&dir, "ab12").unwrap());
        assert_eq!(load(&dir, "ab12").unwrap(), (None, None));
    }

    #[test]
    fn file_format() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::at(tmp.path());
        save(&dir, &snapshot("k", 5)).unwrap();
        let value: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(path(&dir, "k").unwrap()).unwrap()).unwrap();
        assert_eq!(
            value,
            serde_json::json!({
                "version": 1,
                "level_key": "k",
                "level_title": "Level k",
                "level_xsb": "#####\n#@$.#\n#####\n",
                "history": { "lurd": "rRlLrR", "position": 4 },
                "saved_at": 5
            })
        );
    }

    #[test]
    fn keys_must_be_file_names() {
        let dir = DataDir::at("/d");
        for bad in ["", "../x", "a/b", "a.b", "x y", &"f".repeat(129)] {
            assert!(path(&dir, bad).is_err(), "{bad}");
            assert!(load(&dir, bad).is_err(), "{bad}");
        }
        assert!(path(&dir, "0123abcdef_-X").is_ok());
    }

    #[test]
    fn corrupt_snapshot_is_moved_aside() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::at(tmp.path());
        save(&dir, &snapshot("k", 5)).unwrap();
        let file = path(&dir, "k").unwrap();
        fs::write(&file, "{\"version\": 1, \"level_key\": \"k\"}").unwrap();
        let (snap, warning) = load(&dir, "k").unwrap();
        assert_eq!(snap, None);
        let warning = warning.unwrap();
        assert!(warning.problem.contains("missing field"), "{warning}");
        assert!(warning.to_string().contains("k.json"), "{warning}");
        assert!(!file.exists());

        // A position past the end of the history is corrupt too.
        let mut bad = snapshot("k", 5);
        bad.history.position = 7;
        fs::write(&file, json_file::to_bytes(&bad).unwrap()).unwrap();
        let (snap, warning) = load(&dir, "k").unwrap();
        assert_eq!(snap, None);
        assert!(warning.unwrap().problem.contains("past the end"));
    }

    #[test]
    fn list_newest_first_skipping_and_reporting() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::at(tmp.path());
        assert_eq!(list(&dir).unwrap(), (Vec::new(), Vec::new()));
        save(&dir, &snapshot("old", 100)).unwrap();
        save(&dir, &snapshot("new", 300)).unwrap();
        save(&dir, &snapshot("mid", 200)).unwrap();
        let folder = dir.sokoban_snapshots();
        fs::write(folder.join("broken.json"), "{").unwrap();
        fs::write(folder.join("notes.txt"), "hi").unwrap();
        fs::write(folder.join(".new.json.tmp-1-1"), "{").unwrap();
        let (snaps, warnings) = list(&dir).unwrap();
        let keys: Vec<&str> = snaps.iter().map(|s| s.level_key.as_str()).collect();
        assert_eq!(keys, ["new", "mid", "old"]);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].file.ends_with("broken.json"));
        // The corrupt file went aside and is not listed again.
        let (snaps, warnings) = list(&dir).unwrap();
        assert_eq!(snaps.len(), 3);
        assert!(warnings.is_empty());
    }
}
