//! Where Sokoban levels come from: the built-in collections, files named on
//! the command line, the user's levels folder and the installed map packs;
//! and what the level browsers and `ludus sokoban collections` say of each
//! ([`Summary`]).

use std::path::{Path, PathBuf};

use sokoban::levels::Builtin;
use sokoban::{Collection, Level, ParseError, format};

use super::{Progress, level_title};

use crate::store::{DataDir, write_atomic};

/// Extensions of level files found in the user's levels folder: a `.zip` is
/// a map pack played where it lies (installed, it also brings its skin).
pub const LEVEL_EXTENSIONS: [&str; 5] = ["sok", "xsb", "txt", "json", "zip"];

/// A collection and where it came from.
#[derive(Clone, Debug)]
pub struct LevelSet {
    pub name: String,
    pub source: Source,
    pub collection: Collection,
    /// The author's credit and terms, shown with the collection as they ask.
    pub credit: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A collection built into Ludus ([`sokoban::levels::BUILTIN`]), by its id.
    Builtin {
        id: &'static str,
    },
    File(PathBuf),
    /// Levels sent from a page (a file of the player's, not saved here).
    Upload,
    /// A level being made in the editor, play-tested: nothing is recorded.
    PlayTest,
    /// An installed map pack (`packs/<folder>/` in the levels folder).
    Pack {
        folder: String,
    },
}

impl LevelSet {
    /// The built-in Ludus Original library.
    pub fn builtin() -> LevelSet {
        // `BUILTIN` is a constant whose first entry is the Ludus Original library.
        LevelSet::of_builtin(&sokoban::levels::BUILTIN[0])
    }

    /// A collection built into Ludus, with its par and difficulty ratings.
    pub fn of_builtin(builtin: &Builtin) -> LevelSet {
        LevelSet {
            name: builtin.title.to_string(),
            source: Source::Builtin { id: builtin.id },
            collection: builtin.collection(),
            credit: Some(builtin.credit.to_string()),
        }
    }

    /// Every collection built into Ludus, the Ludus Original library first,
    /// then the classic collections grouped by author. They are parsed (and
    /// their ratings applied) once per process: a registry reload, as the
    /// page's level browser asks for it, copies them.
    pub fn all_builtin() -> Vec<LevelSet> {
        static BUILT_IN: std::sync::OnceLock<Vec<LevelSet>> = std::sync::OnceLock::new();
        BUILT_IN
            .get_or_init(|| {
                sokoban::levels::BUILTIN
                    .iter()
                    .map(LevelSet::of_builtin)
                    .collect()
            })
            .clone()
    }

    /// Reads a level file; JSON by extension, a `.zip` as a map pack (with
    /// every check of an install), everything else as XSB/SOK text.
    pub fn load(path: &Path) -> anyhow::Result<LevelSet> {
        if is_zip(path) {
            let pack = super::pack::read_path(path)?;
            return Ok(LevelSet {
                name: pack.name,
                source: Source::File(path.to_path_buf()),
                collection: pack.collection,
                credit: pack.meta.licence,
            });
        }
        let bytes =
            crate::store::limits::read_file(path, crate::store::limits::MAX_LEVEL_FILE_BYTES)
                .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
        // Old collections are often Latin-1; keep going with replacement characters.
        let text = String::from_utf8_lossy(&bytes);
        let collection =
            parse_text(&text, path).map_err(|e| anyhow::anyhow!("{}:{e}", path.display()))?;
        let stem = path.file_stem().map_or_else(
            || path.display().to_string(),
            |s| s.to_string_lossy().into_owned(),
        );
        Ok(LevelSet {
            name: collection.title.clone().unwrap_or(stem),
            source: Source::File(path.to_path_buf()),
            collection,
            credit: None,
        })
    }

    /// A one-level set, for play-testing a level from the editor.
    pub fn single(name: &str, level: sokoban::Level) -> LevelSet {
        let collection = Collection {
            title: Some(name.to_string()),
            levels: vec![Ok(level)],
            ..Collection::default()
        };
        LevelSet {
            name: name.to_string(),
            source: Source::PlayTest,
            collection,
            credit: None,
        }
    }

    pub fn len(&self) -> usize {
        self.collection.levels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.collection.levels.is_empty()
    }

    /// A short label for where the set came from.
    pub fn origin(&self) -> String {
        match &self.source {
            Source::Builtin { .. } => "built in".to_string(),
            Source::File(p) => p.display().to_string(),
            Source::Upload => "uploaded".to_string(),
            Source::PlayTest => "play-test".to_string(),
            Source::Pack { folder } => format!("pack {folder}"),
        }
    }

    /// The shelf the browsers group the set under: a built-in collection's
    /// author, "Map packs", or "Your levels" (files named or in the levels
    /// folder, uploads).
    pub fn group(&self) -> String {
        match &self.source {
            Source::Builtin { .. } => self
                .collection
                .author
                .clone()
                .unwrap_or_else(|| "Ludus".into()),
            Source::Pack { .. } => "Map packs".into(),
            Source::File(path) if is_zip(path) => "Map packs".into(),
            Source::PlayTest => "Play-test".into(),
            Source::File(_) | Source::Upload => "Your levels".into(),
        }
    }
}

/// What the level browsers and `ludus sokoban collections` show of a set
/// beside its levels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub name: String,
    pub author: Option<String>,
    /// See [`LevelSet::group`].
    pub group: String,
    /// See [`LevelSet::origin`].
    pub origin: String,
    pub credit: Option<String>,
    /// Levels that can be played (broken ones are not counted).
    pub levels: usize,
    pub solved: usize,
    /// The first playable level not solved yet (0-based), where to jump.
    pub first_unsolved: Option<usize>,
    /// Levels (0-based) changed since they were solved: a record exists for
    /// the same collection and title under another key, so it no longer
    /// applies.
    pub updated: Vec<usize>,
}

impl Summary {
    /// Sums up `set` against the player's progress.
    pub fn of(set: &LevelSet, progress: &Progress) -> Summary {
        let places = progress.places(&set.name);
        let mut solved = 0;
        let mut levels = 0;
        let mut first_unsolved = None;
        let mut updated = Vec::new();
        for (i, level) in set.collection.valid_levels() {
            levels += 1;
            let key = level.key();
            if progress.is_solved(&key) {
                solved += 1;
                continue;
            }
            first_unsolved.get_or_insert(i);
            let title = level_title(set, i, level);
            if progress.get(&key).is_none() && places.contains(title.as_str()) {
                updated.push(i);
            }
        }
        Summary {
            name: set.name.clone(),
            author: set.collection.author.clone(),
            group: set.group(),
            origin: set.origin(),
            credit: set.credit.clone(),
            levels,
            solved,
            first_unsolved,
            updated,
        }
    }
}

/// Those of `sets` in the same group together, the groups in the order they
/// first come (command-line files and the levels folder are both the
/// player's).
pub fn grouped(sets: Vec<LevelSet>) -> Vec<LevelSet> {
    let mut groups: Vec<String> = Vec::new();
    let mut keyed: Vec<(usize, LevelSet)> = sets
        .into_iter()
        .map(|set| {
            let group = set.group();
            let order = groups.iter().position(|g| *g == group).unwrap_or_else(|| {
                groups.push(group);
                groups.len() - 1
            });
            (order, set)
        })
        .collect();
    keyed.sort_by_key(|(order, _)| *order);
    keyed.into_iter().map(|(_, set)| set).collect()
}

/// What the browsers say of a level changed since it was solved.
pub const LEVEL_UPDATED: &str =
    "This level was updated since you solved it: your old record no longer applies.";

/// Whether `path` names a `.zip` (a map pack).
fn is_zip(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zip"))
}

/// Parses level text as JSON library or XSB/SOK depending on the file name.
pub fn parse_text(text: &str, path: &Path) -> Result<Collection, ParseError> {
    let is_json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    if is_json {
        format::json::parse_library(text)
    } else {
        Ok(sokoban::parse_collection(text))
    }
}

/// How many broken levels [`why_nothing_to_play`] names.
const BROKEN_LEVELS_NAMED: usize = 3;

/// Why a collection holds no level to play: each broken level by its
/// number, with the line and what is wrong ("level 2, line 9: the level has
/// no player"), the first few of them; or that no level was found at all.
pub fn why_nothing_to_play(collection: &Collection) -> String {
    let broken: Vec<String> = collection
        .levels
        .iter()
        .enumerate()
        .filter_map(|(i, level)| Some(format!("level {}, {}", i + 1, level.as_ref().err()?)))
        .collect();
    if broken.is_empty() {
        return "no level found: a level is rows of walls #, floor, boxes $, goals . and one player @"
            .to_string();
    }
    let more = broken.len().saturating_sub(BROKEN_LEVELS_NAMED);
    let mut text = broken[..broken.len() - more].join("; ");
    if more > 0 {
        let levels = crate::words::plural(more, "level");
        text.push_str(&format!("; and {more} more broken {levels}"));
    }
    text
}

/// The level files in the user's levels folder, sorted by name.
pub fn user_level_files(data: &DataDir) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(data.sokoban_levels()) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_file()
                && p.extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| LEVEL_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
        })
        .collect();
    files.sort();
    files
}

/// Every collection to offer: files named on the command line, the built-in
/// collections (the Ludus Original library first, then by author), then the
/// user's folder and the installed map packs. Files that cannot be read are
/// reported, not fatal.
pub fn registry(data: &DataDir, files: &[PathBuf]) -> (Vec<LevelSet>, Vec<String>) {
    let mut sets = Vec::new();
    let mut problems = Vec::new();
    let mut load = |path: &PathBuf, sets: &mut Vec<LevelSet>| match LevelSet::load(path) {
        Ok(set) => sets.push(set),
        Err(e) => problems.push(format!("{e:#}")),
    };
    files.iter().for_each(|p| load(p, &mut sets));
    sets.extend(LevelSet::all_builtin());
    user_level_files(data)
        .iter()
        .for_each(|p| load(p, &mut sets));
    let (packs, pack_problems) = super::pack::level_sets(data);
    sets.extend(packs);
    problems.extend(pack_problems);
    (sets, problems)
}

/// A file-name-safe form of a title.
pub fn slug(title: &str) -> String {
    let slug: String = title
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect::<String>()
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    if slug.is_empty() {
        "level".into()
    } else {
        slug
    }
}

/// Where the editor saves a level.
#[derive(Clone, Copy, Debug)]
pub enum SaveTo<'a> {
    /// A new file in the levels folder named from `stem` (`stem-2.sok`…
    /// when taken): a save never replaces another level.
    NewFile { stem: &'a str },
    /// The file an earlier save of the same level made, replaced.
    Own(&'a Path),
}

/// Saves an edited level as a `.sok` file titled `title` and returns its path.
///
/// # Errors
/// The levels folder or the file could not be written.
pub fn save_edited_level(
    data: &DataDir,
    level: &Level,
    title: &str,
    to: SaveTo<'_>,
) -> anyhow::Result<PathBuf> {
    let text = format::sok::write_sok(Some(title), std::slice::from_ref(level));
    match to {
        SaveTo::Own(path) => write_atomic(path, text.as_bytes()).map(|()| path.to_path_buf()),
        SaveTo::NewFile { stem } => {
            let dir = data.ensure_sokoban_levels()?;
            crate::store::atomic::write_new(&dir, stem, "sok", text.as_bytes())
        }
    }
}

/// The collection as .sok with the player's best solutions (by moves, then by
/// pushes when different) under each solved level, and the warning if the
/// progress file could not be read (it was moved aside) for the caller to report.
pub fn export_solutions(data: &DataDir, set: &LevelSet) -> (String, Option<crate::store::Warning>) {
    let (progress, warning) = crate::store::progress::load(data);
    let levels: Vec<Level> = set
        .collection
        .valid_levels()
        .map(|(_, level)| {
            let mut level = level.clone();
            level.meta.solutions.clear();
            if let Some(p) = progress.get(&level.key()) {
                for best in [&p.best_by_moves, &p.best_by_pushes].into_iter().flatten() {
                    if !level.meta.solutions.contains(&best.lurd) {
                        level.meta.solutions.push(best.lurd.clone());
                    }
                }
            }
            level
        })
        .collect();
    let text = format::sok::write_sok(set.collection.title.as_deref(), &levels);
    (text, warning)
}

/// Writes [`export_solutions`] of `set` to `sokoban/exports/<set>-solutions.sok`
/// in the data dir and returns where, with the progress file's warning.
///
/// # Errors
/// The file could not be written.
pub fn write_solutions_export(
    data: &DataDir,
    set: &LevelSet,
) -> (anyhow::Result<PathBuf>, Option<crate::store::Warning>) {
    let (text, warning) = export_solutions(data, set);
    let name: String = set
        .name
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect();
    let written = data
        .path(format!("sokoban/exports/{name}-solutions.sok"))
        .map_err(anyhow::Error::from)
        .and_then(|path| write_atomic(&path, text.as_bytes()).map(|()| path));
    (written, warning)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "; One\n#####\n#@$.#\n#####\n\n; Two\n######\n#@$ .#\n######\n";

    fn set_of(text: &str) -> LevelSet {
        let mut collection = sokoban::parse_collection(text);
        collection.title = Some("Mine".into());
        LevelSet {
            name: "Mine".into(),
            source: Source::Upload,
            collection,
            credit: None,
        }
    }

    #[test]
    fn the_registry_offers_every_builtin_collection_grouped_by_author() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let (sets, problems) = registry(&DataDir::at(dir.path()), &[]);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(sets.len(), sokoban::levels::BUILTIN.len());
        assert_eq!(sets[0].name, sokoban::levels::ORIGINAL_NAME);
        let groups: Vec<String> = sets.iter().map(LevelSet::group).collect();
        let mut shelves = groups.clone();
        shelves.dedup();
        assert_eq!(
            shelves,
            [
                "Ludus",
                "David W. Skinner",
                "Lee J Haywood",
                "Evgeny Grigoriev",
                "David Holland"
            ]
        );
        assert!(sets.iter().all(|s| s.credit.is_some()));
    }

    #[test]
    fn grouping_keeps_the_first_order_and_puts_a_group_together() {
        let mut mine = set_of(TWO);
        mine.source = Source::File(PathBuf::from("mine.sok"));
        let mut later = set_of(TWO);
        later.source = Source::File(PathBuf::from("later.sok"));
        later.name = "Later".into();
        let sets = vec![
            mine,
            LevelSet::builtin(),
            later,
            LevelSet::of_builtin(&sokoban::levels::BUILTIN[1]),
        ];
        let names: Vec<String> = grouped(sets).into_iter().map(|s| s.name).collect();
        assert_eq!(names, ["Mine", "Later", "Ludus Original", "Microban I"]);
    }

    #[test]
    fn a_summary_counts_solved_levels_and_finds_the_first_unsolved() {
        let set = set_of(TWO);
        let mut progress = Progress::default();
        let first = set.collection.levels[0]
            .as_ref()
            .unwrap_or_else(|e| panic!("{e}"));
        progress.record_solution(&first.key(), "One", "R", 1, 1, 5);
        let summary = Summary::of(&set, &progress);
        assert_eq!(
            (summary.levels, summary.solved, summary.first_unsolved),
            (2, 1, Some(1))
        );
        assert!(summary.updated.is_empty());
        assert_eq!(summary.group, "Your levels");
    }

    #[test]
    fn a_level_changed_since_it_was_solved_is_said_to_be_updated() {
        let old = set_of(TWO);
        let mut progress = Progress::default();
        for (i, level) in old.collection.valid_levels() {
            let title = level_title(&old, i, level);
            progress.record_solution(&level.key(), &title, "R", 1, 1, 5);
            if let Some(record) = progress.levels.get_mut(&level.key()) {
                record.collection = "Mine".into();
            }
        }
        // The second level gains a wall: same collection and title, new key.
        let new = set_of(&TWO.replace("#@$ .#", "#@$#.#"));
        let summary = Summary::of(&new, &progress);
        assert_eq!((summary.solved, summary.updated.clone()), (1, vec![1]));
        // In another collection, the same title is not the same place.
        let mut elsewhere = set_of(&TWO.replace("#@$ .#", "#@$#.#"));
        elsewhere.name = "Other".into();
        assert!(Summary::of(&elsewhere, &progress).updated.is_empty());
    }

    #[test]
    fn nothing_to_play_names_each_broken_level_and_its_line() {
        let two = "; one\n#####\n#.$ #\n#####\n\n; two\n#####\n#.$ #\n#####\n";
        let why = why_nothing_to_play(&sokoban::parse_collection(two));
        assert_eq!(
            why,
            "level 1, line 2: the level has no player; level 2, line 7: the level has no player"
        );
        let junk = sokoban::parse_collection("not a level\n");
        assert!(why_nothing_to_play(&junk).starts_with("no level found"));
        let many = "#.$ #\n\n".repeat(5);
        let why = why_nothing_to_play(&sokoban::parse_collection(&many));
        assert!(why.ends_with("; and 2 more broken levels"), "{why}");
    }
}
