//! Where saved data lives, and safe paths inside it.

use std::ffi::OsStr;
use std::fmt;
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result};

/// The root of all saved data. Nothing is created until the first write (every writer
/// creates its parent directories), except [`DataDir::ensure_sokoban_levels`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataDir {
    root: PathBuf,
}

impl DataDir {
    /// Resolves the data directory: `explicit` (from `--data-dir`) wins over `env` (the value
    /// of `LUDUS_DATA_DIR`, which clap reads), which wins over the platform's data directory
    /// (`directories::ProjectDirs::from("", "", "ludus")`, e.g. `~/.local/share/ludus`).
    /// Empty values count as absent. Relative paths are made absolute against the current
    /// directory, so a later `chdir` does not move the data.
    pub fn resolve(explicit: Option<&Path>, env: Option<&OsStr>) -> Result<DataDir> {
        let chosen = explicit
            .map(Path::as_os_str)
            .filter(|p| !p.is_empty())
            .or(env.filter(|p| !p.is_empty()))
            .map(PathBuf::from);
        let root = match chosen {
            Some(path) => std::path::absolute(&path)
                .with_context(|| format!("invalid data directory {}", path.display()))?,
            None => directories::ProjectDirs::from("", "", "ludus")
                .context(
                    "no home directory to keep saved data in: \
                     pass --data-dir or set LUDUS_DATA_DIR",
                )?
                .data_dir()
                .to_path_buf(),
        };
        Ok(DataDir { root })
    }

    /// A data directory at exactly `root` (tests, tools).
    pub fn at(root: impl Into<PathBuf>) -> DataDir {
        DataDir { root: root.into() }
    }

    /// The root directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `settings.json`.
    pub fn settings(&self) -> PathBuf {
        self.root.join("settings.json")
    }

    /// `sokoban/progress.json`.
    pub fn sokoban_progress(&self) -> PathBuf {
        self.root.join("sokoban").join("progress.json")
    }

    /// `sokoban/snapshots/`: one `<level key>.json` per saved snapshot.
    pub fn sokoban_snapshots(&self) -> PathBuf {
        self.root.join("sokoban").join("snapshots")
    }

    /// `sokoban/levels/`: the user's own level files. May not exist.
    pub fn sokoban_levels(&self) -> PathBuf {
        self.root.join("sokoban").join("levels")
    }

    /// `sokoban/levels/`, created (with the data directory) if missing, so the user can be
    /// pointed at it.
    pub fn ensure_sokoban_levels(&self) -> Result<PathBuf> {
        let dir = self.sokoban_levels();
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        Ok(dir)
    }

    /// `tetris/scores.json`: the high-score tables.
    pub fn tetris_scores(&self) -> PathBuf {
        self.root.join("tetris").join("scores.json")
    }

    /// `tetris/replays/`: saved replays, one JSON file each.
    pub fn tetris_replays(&self) -> PathBuf {
        self.root.join("tetris").join("replays")
    }

    /// `tetris/versus/`: saved versus replays, one JSON file each.
    pub fn tetris_versus_replays(&self) -> PathBuf {
        self.root.join("tetris").join("versus")
    }

    /// `xiangqi/games/`: saved games, one PGN file each.
    pub fn xiangqi_games(&self) -> PathBuf {
        self.root.join("xiangqi").join("games")
    }

    /// `xiangqi/tablebases/`: endgame tables, one `<SIGNATURE>.xtb` file each.
    pub fn xiangqi_tablebases(&self) -> PathBuf {
        self.root.join("xiangqi").join("tablebases")
    }

    /// `rel` inside the data directory. Refuses anything that could point outside it:
    /// absolute paths, drive or root prefixes, and `..` components (`.` components are
    /// dropped). An empty path is refused too. Symbolic links inside the data directory
    /// are not inspected: whoever can create them there already owns the data.
    pub fn path(&self, rel: impl AsRef<Path>) -> Result<PathBuf, PathError> {
        let rel = rel.as_ref();
        let mut out = self.root.clone();
        let mut any = false;
        for component in rel.components() {
            match component {
                Component::Normal(part) => {
                    out.push(part);
                    any = true;
                }
                Component::CurDir => {}
                Component::ParentDir => return Err(PathError::new(rel, "contains `..`")),
                Component::RootDir | Component::Prefix(_) => {
                    return Err(PathError::new(rel, "is absolute"));
                }
            }
        }
        if any {
            Ok(out)
        } else {
            Err(PathError::new(rel, "is empty"))
        }
    }
}

/// A relative path that [`DataDir::path`] refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathError {
    /// The path as given.
    pub path: PathBuf,
    /// Why it was refused.
    pub reason: &'static str,
}

impl PathError {
    fn new(path: &Path, reason: &'static str) -> PathError {
        PathError {
            path: path.to_path_buf(),
            reason,
        }
    }
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "path {:?} {}: it must stay inside the data directory",
            self.path, self.reason
        )
    }
}

impl std::error::Error for PathError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_beats_env_beats_platform_default() {
        let explicit = Path::new("/tmp/explicit");
        let env = OsStr::new("/tmp/from-env");
        let dir = DataDir::resolve(Some(explicit), Some(env)).unwrap();
        assert_eq!(dir.root(), explicit);
        let dir = DataDir::resolve(None, Some(env)).unwrap();
        assert_eq!(dir.root(), Path::new("/tmp/from-env"));
        // Empty values are treated as absent.
        let dir = DataDir::resolve(Some(Path::new("")), Some(env)).unwrap();
        assert_eq!(dir.root(), Path::new("/tmp/from-env"));
        if let Some(project) = directories::ProjectDirs::from("", "", "ludus") {
            let dir = DataDir::resolve(None, None).unwrap();
            assert_eq!(dir.root(), project.data_dir());
            let dir = DataDir::resolve(None, Some(OsStr::new(""))).unwrap();
            assert_eq!(dir.root(), project.data_dir());
        }
    }

    #[test]
    fn relative_paths_are_made_absolute() {
        let dir = DataDir::resolve(Some(Path::new("rel/data")), None).unwrap();
        assert!(dir.root().is_absolute());
        assert!(dir.root().ends_with("rel/data"));
        assert_eq!(
            dir.root(),
            std::env::current_dir().unwrap().join("rel/data")
        );
    }

    #[test]
    fn well_known_paths() {
        let dir = DataDir::at("/d");
        assert_eq!(dir.settings(), Path::new("/d/settings.json"));
        assert_eq!(
            dir.sokoban_progress(),
            Path::new("/d/sokoban/progress.json")
        );
        assert_eq!(dir.sokoban_snapshots(), Path::new("/d/sokoban/snapshots"));
        assert_eq!(dir.sokoban_levels(), Path::new("/d/sokoban/levels"));
    }

    #[test]
    fn nothing_is_created_until_asked() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("data");
        let dir = DataDir::resolve(Some(&root), None).unwrap();
        let _ = dir.sokoban_progress();
        assert!(!root.exists());
        let levels = dir.ensure_sokoban_levels().unwrap();
        assert!(levels.is_dir());
        assert_eq!(levels, root.join("sokoban/levels"));
    }

    #[test]
    fn path_stays_inside() {
        let dir = DataDir::at("/d");
        assert_eq!(
            dir.path("sokoban/levels/mine.sok").unwrap(),
            Path::new("/d/sokoban/levels/mine.sok")
        );
        assert_eq!(dir.path("./a/./b").unwrap(), Path::new("/d/a/b"));
        for bad in [
            "../x",
            "a/../../x",
            "a/..",
            "..",
            "/etc/passwd",
            "",
            ".",
            "./",
        ] {
            let err = dir.path(bad).unwrap_err();
            assert_eq!(err.path, Path::new(bad), "{bad}");
            assert!(err.to_string().contains("inside the data directory"));
        }
        // Even a `..` that would come back inside is refused: no clever normalisation.
        assert_eq!(dir.path("a/../b").unwrap_err().reason, "contains `..`");
        assert_eq!(dir.path("/abs").unwrap_err().reason, "is absolute");
    }

    #[cfg(windows)]
    #[test]
    fn windows_prefixes_are_refused() {
        let dir = DataDir::at(r"C:\d");
        for bad in [r"C:\x", r"C:x", r"\x", r"\\server\share\x", r"a\..\..\x"] {
            assert!(dir.path(bad).is_err(), "{bad}");
        }
    }
}
