//! The level editor's save and play-test flow, the same in the terminal and
//! the browser: a level is saved or play-tested only without errors; its
//! first save takes a free file name (another level may have the same
//! title), later saves replace the file that first save made; a play-test
//! is a set of its own, and nothing it does is recorded.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use sokoban::solver::Outcome;
use sokoban::{Level, ParseError};

use super::library::{LevelSet, SaveTo, save_edited_level};
use crate::store::DataDir;

/// The name a play-test's set goes by.
pub const PLAY_TEST_NAME: &str = "Play-test";

/// How long the solvability check may think.
pub const CHECK_LIMIT: Duration = Duration::from_secs(30);

/// What the solvability check found, in a line.
pub fn check_text(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Solved(s) => format!(
            "Solvable: {}, {}{}.",
            crate::words::counted(s.pushes as usize, "push"),
            crate::words::counted(s.moves as usize, "move"),
            if s.optimal { ", optimal" } else { "" },
        ),
        Outcome::Unsolvable => "Not solvable: the solver proved it.".into(),
        Outcome::Internal(e) => format!("The solver failed: {e}"),
        _ => format!(
            "Undecided: the solver found no solution within {} s.",
            CHECK_LIMIT.as_secs()
        ),
    }
}

/// Why an edited level cannot be saved or played yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotReady {
    /// The text is not a level (what is wrong and where).
    Unreadable(String),
    /// The level has errors (see `sokoban::validate`).
    HasErrors,
}

impl std::fmt::Display for NotReady {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotReady::Unreadable(why) => f.write_str(why),
            NotReady::HasErrors => f.write_str("fix the errors first"),
        }
    }
}

/// The edited level, if it can be saved or played: it parsed and has no errors.
///
/// # Errors
/// [`NotReady`] says why not.
pub fn ready(parsed: Result<Level, ParseError>) -> Result<Level, NotReady> {
    let level = parsed.map_err(|e| NotReady::Unreadable(e.to_string()))?;
    if sokoban::validate(&level).is_ok() {
        Ok(level)
    } else {
        Err(NotReady::HasErrors)
    }
}

/// The longest file name (without `.sok`) a page may propose.
pub const MAX_NAME: usize = 64;

/// A name a level file may have: letters, digits, `-`, `_`, at most `most`.
pub fn plain_name(name: &str, most: usize) -> bool {
    !name.is_empty()
        && name.len() <= most
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// A file name that is not one of the levels folder's `.sok` files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotALevelFile;

impl std::fmt::Display for NotALevelFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not a level file of yours")
    }
}

/// The file an earlier save made, from its name (`mine-2.sok`): only a
/// plain `.sok` name in the levels folder; `None` when it is gone since
/// (the next save makes a new file).
///
/// # Errors
/// [`NotALevelFile`] for any other name.
pub fn saved_before(data: &DataDir, file_name: &str) -> Result<Option<PathBuf>, NotALevelFile> {
    let stem = file_name
        .strip_suffix(".sok")
        .filter(|s| plain_name(s, MAX_NAME + 6))
        .ok_or(NotALevelFile)?;
    let relative = Path::new("sokoban")
        .join("levels")
        .join(format!("{stem}.sok"));
    let path = data.path(&relative).map_err(|_| NotALevelFile)?;
    Ok(path.is_file().then_some(path))
}

/// A play-test of `level`: a set of one that records nothing (see
/// [`super::record_solve`]).
pub fn play_test(level: Level) -> Arc<LevelSet> {
    Arc::new(LevelSet::single(PLAY_TEST_NAME, level))
}

/// Saves `level` titled `title` in the levels folder: the first time as a
/// new file named from `stem` (never over another level), then over
/// `saved_before`, the file that first save made. Returns the file's path,
/// to pass back as `saved_before` next time.
///
/// # Errors
/// The levels folder or the file could not be written.
pub fn save(
    data: &DataDir,
    level: &Level,
    title: &str,
    stem: &str,
    saved_before: Option<&Path>,
) -> anyhow::Result<PathBuf> {
    let to = match saved_before {
        Some(path) => SaveTo::Own(path),
        None => SaveTo::NewFile { stem },
    };
    save_edited_level(data, level, title, to)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_level_without_errors_is_ready() {
        assert!(matches!(
            ready(Level::from_xsb("#####\n# $.#\n#####")),
            Err(NotReady::Unreadable(_))
        ));
        assert_eq!(
            ready(Level::from_xsb("#####\n#@$. \n#####")),
            Err(NotReady::HasErrors)
        );
        assert!(ready(Level::from_xsb("#####\n#@$.#\n#####")).is_ok());
    }

    #[test]
    fn the_first_save_takes_a_free_name_and_later_ones_replace_it() {
        let tmp = tempfile::tempdir().expect("a temp dir");
        let data = DataDir::at(tmp.path());
        let level = Level::from_xsb("#####\n#@$.#\n#####").expect("a level");
        let first = save(&data, &level, "Mine", "mine", None).expect("saves");
        let other = save(&data, &level, "Mine", "mine", None).expect("saves");
        assert_ne!(first, other);
        let again = save(&data, &level, "Mine 2", "mine", Some(&first)).expect("saves");
        assert_eq!(again, first);
        let text = std::fs::read_to_string(&first).expect("reads");
        assert!(text.contains("Mine 2"), "{text}");
    }

    #[test]
    fn only_a_plain_sok_name_is_a_file_saved_before() {
        let tmp = tempfile::tempdir().expect("a temp dir");
        let data = DataDir::at(tmp.path());
        assert_eq!(saved_before(&data, "../x.sok"), Err(NotALevelFile));
        assert_eq!(saved_before(&data, "mine.txt"), Err(NotALevelFile));
        assert_eq!(saved_before(&data, "mine.sok"), Ok(None));
        let level = Level::from_xsb("#####\n#@$.#\n#####").expect("a level");
        let path = save(&data, &level, "Mine", "mine", None).expect("saves");
        assert_eq!(saved_before(&data, "mine.sok"), Ok(Some(path)));
    }

    #[test]
    fn a_play_test_is_a_play_test() {
        let level = Level::from_xsb("#####\n#@$.#\n#####").expect("a level");
        assert_eq!(
            play_test(level).source,
            super::super::library::Source::PlayTest
        );
    }
}
