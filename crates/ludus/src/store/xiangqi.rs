//! Saved Xiangqi games: one PGN file each in `xiangqi/games/`, written
//! atomically; and imported collections (a PGN file of one or many games, or
//! an XQF record) copied into `xiangqi/collections/`.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use xiangqi::pgn::{PgnError, PgnGame, parse_all};
use xiangqi::xqf::{self, XqfError};

use super::DataDir;
use super::atomic::{write_atomic, write_new};

/// A PGN file in the games folder, read or not.
#[derive(Debug)]
pub struct SavedGame {
    pub path: PathBuf,
    /// The file name, for lists.
    pub name: String,
    /// The record, or why it could not be read.
    pub record: Result<PgnGame, String>,
    modified: SystemTime,
}

impl SavedGame {
    /// A listed game made in a test, as if read from `name` in the current folder.
    #[cfg(test)]
    pub(crate) fn for_test(name: &str, record: Result<PgnGame, String>) -> SavedGame {
        SavedGame {
            path: PathBuf::from(name),
            name: name.to_string(),
            record,
            modified: UNIX_EPOCH,
        }
    }
}

/// Writes `pgn` to `path` if given (saving the same game again), else to a new
/// `game-YYYYMMDD-HHMMSS.pgn` in the games folder. Returns where it went.
pub fn save_game(data: &DataDir, path: Option<&Path>, pgn: &str) -> Result<PathBuf> {
    match path {
        Some(path) => {
            write_atomic(path, pgn.as_bytes())
                .with_context(|| format!("cannot save the game to {}", path.display()))?;
            Ok(path.to_path_buf())
        }
        None => write_new(
            &data.xiangqi_games(),
            &name_stem(SystemTime::now()),
            "pgn",
            pgn.as_bytes(),
        )
        .context("cannot save the game"),
    }
}

/// A new game's file name from the time (UTC), without its extension;
/// [`write_new`] numbers it if taken.
fn name_stem(now: SystemTime) -> String {
    let secs = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (y, mo, d) = civil_from_days((secs / 86_400) as i64);
    let t = secs % 86_400;
    format!(
        "game-{y:04}{mo:02}{d:02}-{:02}{:02}{:02}",
        t / 3600,
        t / 60 % 60,
        t % 60
    )
}

/// Today's date (UTC) as PGN writes it: `YYYY.MM.DD`.
pub fn pgn_date(now: SystemTime) -> String {
    let secs = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian
/// (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The saved games, newest first. A missing folder is an empty list; files
/// that do not parse are listed with their error.
pub fn list_games(data: &DataDir) -> Vec<SavedGame> {
    let Ok(entries) = std::fs::read_dir(data.xiangqi_games()) else {
        return Vec::new();
    };
    let mut games: Vec<SavedGame> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("pgn")))
        .map(|path| {
            let modified = std::fs::metadata(&path)
                .and_then(|m| m.modified())
                .unwrap_or(UNIX_EPOCH);
            let record = super::limits::read_text(&path, super::limits::MAX_RECORD_BYTES)
                .map_err(|e| e.to_string())
                .and_then(|t| PgnGame::parse(&t).map_err(|e| e.to_string()));
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            SavedGame {
                path,
                name,
                record,
                modified,
            }
        })
        .collect();
    games.sort_by(|a, b| b.modified.cmp(&a.modified).then(b.name.cmp(&a.name)));
    games
}

/// Largest collection file imported or read (PGN or XQF): the biggest
/// published PGN databases are a few megabytes.
pub const MAX_COLLECTION_BYTES: u64 = 16 << 20;
/// Most games in one collection file, counted from its tag sections before
/// it is parsed.
pub const MAX_COLLECTION_GAMES: usize = 20_000;
/// Longest file-name stem an imported collection keeps.
pub const MAX_COLLECTION_NAME_CHARS: usize = 60;

/// `xiangqi/collections/`: imported record files, kept as they were given.
pub fn collections_dir(data: &DataDir) -> PathBuf {
    data.root().join("xiangqi").join("collections")
}

/// The two kinds of record files a collection can be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CollectionFormat {
    /// PGN text, one or many games.
    Pgn,
    /// An XQF record: one game (its main line).
    Xqf,
}

impl CollectionFormat {
    /// The file extension it is kept under.
    pub fn extension(self) -> &'static str {
        match self {
            CollectionFormat::Pgn => "pgn",
            CollectionFormat::Xqf => "xqf",
        }
    }
}

/// Why a record file could not be imported or read; one message each.
#[derive(Debug)]
pub enum ImportError {
    /// The file could not be opened or read (the system's reason).
    Read(String),
    /// Larger than [`MAX_COLLECTION_BYTES`].
    TooLarge { bytes: u64 },
    /// More than [`MAX_COLLECTION_GAMES`] games (as counted before parsing).
    TooManyGames { games: usize },
    /// Neither XQF nor UTF-8 text; the byte offset of the first bad byte.
    NotText { offset: usize },
    /// The PGN text has no game.
    NoGame,
    /// The PGN text is malformed (line and column inside).
    Pgn(PgnError),
    /// The XQF record is malformed (byte offset inside).
    Xqf(XqfError),
    /// The copy could not be written into the data dir.
    Write(String),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::Read(why) => write!(f, "cannot read it: {why}"),
            ImportError::TooLarge { bytes } => write!(
                f,
                "{bytes} bytes is larger than the limit of {} MiB",
                MAX_COLLECTION_BYTES >> 20
            ),
            ImportError::TooManyGames { games } => write!(
                f,
                "{games} games is more than the limit of {MAX_COLLECTION_GAMES}"
            ),
            ImportError::NotText { offset } => {
                write!(f, "byte offset {offset}: not UTF-8 text (PGN) nor XQF")
            }
            ImportError::NoGame => write!(f, "no game found"),
            ImportError::Pgn(e) => write!(f, "{e}"),
            ImportError::Xqf(e) => write!(f, "{e}"),
            ImportError::Write(why) => write!(f, "cannot keep a copy: {why}"),
        }
    }
}

impl std::error::Error for ImportError {}

/// A record file read into games.
#[derive(Debug)]
pub struct Records {
    pub format: CollectionFormat,
    pub games: Vec<PgnGame>,
}

/// Reads the games of a record file named `name` (the name only tells XQF
/// by its `.xqf` extension; an `XQ` signature does too). Size and game count
/// are checked before parsing.
///
/// # Errors
/// The bytes are too many, hold too many games, or are not a readable PGN or
/// XQF record.
pub fn read_records(name: &str, bytes: &[u8]) -> Result<Records, ImportError> {
    if bytes.len() as u64 > MAX_COLLECTION_BYTES {
        return Err(ImportError::TooLarge {
            bytes: bytes.len() as u64,
        });
    }
    let xqf_name = Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xqf"));
    if bytes.starts_with(b"XQ") || xqf_name {
        let record = xqf::read(bytes).map_err(ImportError::Xqf)?;
        return Ok(Records {
            format: CollectionFormat::Xqf,
            games: vec![record.game],
        });
    }
    let text = std::str::from_utf8(bytes).map_err(|e| ImportError::NotText {
        offset: e.valid_up_to(),
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let games = count_pgn_games(text);
    if games > MAX_COLLECTION_GAMES {
        return Err(ImportError::TooManyGames { games });
    }
    if games == 0 {
        return Err(ImportError::NoGame);
    }
    let games = parse_all(text).map_err(ImportError::Pgn)?;
    if games.is_empty() {
        return Err(ImportError::NoGame);
    }
    Ok(Records {
        format: CollectionFormat::Pgn,
        games,
    })
}

/// Games in a PGN text as the parser splits them, without parsing: a game
/// starts at the first text and at each tag line that follows move text.
/// A `[` starting a line inside a comment may count one too many.
fn count_pgn_games(text: &str) -> usize {
    let mut games = 0;
    let mut in_moves = true;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let tag = line.starts_with('[');
        if in_moves && (tag || games == 0) {
            games += 1;
        }
        in_moves = !tag;
    }
    games
}

/// An imported collection, once kept.
#[derive(Debug)]
pub struct Imported {
    pub path: PathBuf,
    /// The name it is kept under in the collections folder.
    pub name: String,
    pub format: CollectionFormat,
    pub games: usize,
}

/// Keeps a copy of the record file `name` (its bytes given) in the
/// collections folder, under its own name (numbered if taken), after reading
/// it whole: a file that does not read is not kept.
///
/// # Errors
/// As [`read_records`], or the copy cannot be written.
pub fn import_collection(
    data: &DataDir,
    name: &str,
    bytes: &[u8],
) -> Result<Imported, ImportError> {
    let records = read_records(name, bytes)?;
    let stem = collection_stem(name);
    let path = write_new(
        &collections_dir(data),
        &stem,
        records.format.extension(),
        bytes,
    )
    .map_err(|e| ImportError::Write(format!("{e:#}")))?;
    Ok(Imported {
        name: file_name(&path),
        path,
        format: records.format,
        games: records.games.len(),
    })
}

/// [`import_collection`] of the file at `path`, read within the size limit.
///
/// # Errors
/// The file cannot be read, or as [`import_collection`].
pub fn import_file(data: &DataDir, path: &Path) -> Result<Imported, ImportError> {
    let bytes = read_collection_bytes(path)?;
    import_collection(data, &file_name(path), &bytes)
}

fn read_collection_bytes(path: &Path) -> Result<Vec<u8>, ImportError> {
    super::limits::read_file(path, MAX_COLLECTION_BYTES).map_err(|e| {
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_file() && meta.len() > MAX_COLLECTION_BYTES => {
                ImportError::TooLarge { bytes: meta.len() }
            }
            _ => ImportError::Read(e.to_string()),
        }
    })
}

/// A collection's file-name stem: the imported file's, letters, digits and
/// `-_.` kept, other characters `-`, at most [`MAX_COLLECTION_NAME_CHARS`].
fn collection_stem(name: &str) -> String {
    let stem = Path::new(name)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let clean: String = stem
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '-'
            }
        })
        .take(MAX_COLLECTION_NAME_CHARS)
        .collect();
    let clean = clean.trim_matches(|c| c == '.' || c == '-');
    if clean.is_empty() {
        "collection".to_string()
    } else {
        clean.to_string()
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// What the games and collections folders hold, file by file (path, size,
/// time modified): while it stays the same, so do the games read from them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FolderStamp(Vec<(PathBuf, u64, Option<SystemTime>)>);

/// The [`FolderStamp`] of the saved games and the collections now.
pub fn database_stamp(data: &DataDir) -> FolderStamp {
    let mut files = Vec::new();
    for dir in [data.xiangqi_games(), collections_dir(data)] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let meta = entry.metadata().ok();
            files.push((
                entry.path(),
                meta.as_ref().map_or(0, std::fs::Metadata::len),
                meta.and_then(|m| m.modified().ok()),
            ));
        }
    }
    files.sort();
    FolderStamp(files)
}

/// A file in the collections folder, read or not.
#[derive(Debug)]
pub struct Collection {
    pub path: PathBuf,
    /// The file name, for lists.
    pub name: String,
    /// Its games, or why it could not be read.
    pub games: Result<Vec<PgnGame>, String>,
}

/// The imported collections by name. A missing folder is an empty list;
/// a file that does not read is listed with its reason.
pub fn list_collections(data: &DataDir) -> Vec<Collection> {
    let Ok(entries) = std::fs::read_dir(collections_dir(data)) else {
        return Vec::new();
    };
    let mut list: Vec<Collection> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let hidden = p
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'));
            let kind = p
                .extension()
                .is_some_and(|x| x.eq_ignore_ascii_case("pgn") || x.eq_ignore_ascii_case("xqf"));
            kind && !hidden
        })
        .map(|path| {
            let name = file_name(&path);
            let games = read_collection_bytes(&path)
                .and_then(|bytes| read_records(&name, &bytes))
                .map(|r| r.games)
                .map_err(|e| e.to_string());
            Collection { path, name, games }
        })
        .collect();
    list.sort_by(|a, b| a.name.cmp(&b.name));
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use xiangqi::Game;
    use xiangqi::pgn::MoveFormat;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        let t = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(pgn_date(t), "2023.11.14");
        assert_eq!(name_stem(t), "game-20231114-221320");
    }

    #[test]
    fn saves_at_the_same_moment_each_keep_their_game() {
        let tmp = tempfile::tempdir().unwrap();
        let data = DataDir::at(tmp.path());
        // 80 simultaneous saves once left 12 files: the name was checked, then renamed over.
        let paths: Vec<PathBuf> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..80)
                .map(|i| {
                    let data = &data;
                    scope.spawn(move || save_game(data, None, &format!("[Event \"{i}\"]\n*\n")))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap().unwrap())
                .collect()
        });
        let mut unique = paths.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 80);
        let files = std::fs::read_dir(data.xiangqi_games()).unwrap().count();
        assert_eq!(files, 80);
    }

    #[test]
    fn save_and_list() {
        let tmp = tempfile::tempdir().unwrap();
        let data = DataDir::at(tmp.path());
        assert!(list_games(&data).is_empty());
        let mut game = Game::new();
        game.play_text("h2e2").unwrap();
        let text = PgnGame::from_game(&game, &[]).to_pgn(MoveFormat::Chinese);
        let path = save_game(&data, None, &text).unwrap();
        assert!(path.starts_with(data.xiangqi_games()));
        let again = save_game(&data, Some(&path), &text).unwrap();
        assert_eq!(again, path);
        std::fs::write(data.xiangqi_games().join("broken.pgn"), "1. a0a9 *").unwrap();
        let list = list_games(&data);
        assert_eq!(list.len(), 2);
        let good = list.iter().find(|g| g.path == path).unwrap();
        assert_eq!(good.record.as_ref().unwrap().moves.len(), 1);
        assert!(list.iter().any(|g| g.record.is_err()));
    }

    const THREE: &str = "[Event \"A\"]\n[Red \"Hu\"]\n\n1. h2e2 h9g7 1-0\n\n\
                         [Event \"B\"]\n\n1. b2e2 0-1\n\n[Event \"C\"]\n\n1. c3c4 *\n";

    #[test]
    fn games_are_counted_before_parsing_as_the_parser_splits_them() {
        assert_eq!(count_pgn_games(THREE), 3);
        assert_eq!(parse_all(THREE).unwrap().len(), 3);
        assert_eq!(count_pgn_games("1. h2e2 *"), 1);
        assert_eq!(count_pgn_games("  \n\n"), 0);
        let many = "[Event \"x\"]\n1. h2e2 *\n".repeat(MAX_COLLECTION_GAMES + 1);
        assert!(matches!(
            read_records("big.pgn", many.as_bytes()),
            Err(ImportError::TooManyGames { games }) if games == MAX_COLLECTION_GAMES + 1
        ));
    }

    #[test]
    fn a_collection_is_kept_under_its_name_and_listed_with_its_games() {
        let tmp = tempfile::tempdir().unwrap();
        let data = DataDir::at(tmp.path());
        assert!(list_collections(&data).is_empty());
        let first =
            import_collection(&data, "/far/away/Club games!.pgn", THREE.as_bytes()).unwrap();
        assert_eq!(first.name, "Club-games.pgn");
        assert_eq!(first.games, 3);
        let again = import_collection(&data, "Club games!.pgn", THREE.as_bytes()).unwrap();
        assert_eq!(again.name, "Club-games-2.pgn");
        let xqf_bytes = xqf::write(&parse_all(THREE).unwrap()[0]);
        let x = import_collection(&data, "one.bin", &xqf_bytes).unwrap();
        assert_eq!(
            (x.name.as_str(), x.format),
            ("one.xqf", CollectionFormat::Xqf)
        );
        // A broken file in the folder is listed with why.
        std::fs::write(collections_dir(&data).join("bad.pgn"), "1. a0a9 *").unwrap();
        let list = list_collections(&data);
        let names: Vec<&str> = list.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            ["Club-games-2.pgn", "Club-games.pgn", "bad.pgn", "one.xqf"]
        );
        assert_eq!(list[1].games.as_ref().unwrap().len(), 3);
        assert!(list[2].games.as_ref().unwrap_err().contains("line 1"));
        assert_eq!(list[3].games.as_ref().unwrap()[0].tag("Red"), Some("Hu"));
    }

    #[test]
    fn the_stamp_changes_with_the_files() {
        let tmp = tempfile::tempdir().unwrap();
        let data = DataDir::at(tmp.path());
        let empty = database_stamp(&data);
        assert_eq!(empty, FolderStamp::default());
        import_collection(&data, "a.pgn", THREE.as_bytes()).unwrap();
        let one = database_stamp(&data);
        assert_ne!(one, empty);
        assert_eq!(database_stamp(&data), one);
        save_game(&data, None, "[Event \"x\"]\n*\n").unwrap();
        assert_ne!(database_stamp(&data), one);
    }

    #[test]
    fn unreadable_records_are_refused_with_why_and_not_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let data = DataDir::at(tmp.path());
        let cases: [(&str, &[u8], &str); 4] = [
            ("a.pgn", b"1. h2e2 {open *", "never closed"),
            ("b.pgn", b"\xff\xfe", "byte offset 0: not UTF-8"),
            ("c.xqf", b"not xqf", "not an XQF file"),
            ("d.pgn", b"   ", "no game found"),
        ];
        for (name, bytes, why) in cases {
            let e = import_collection(&data, name, bytes)
                .unwrap_err()
                .to_string();
            assert!(e.contains(why), "{name}: {e}");
        }
        let missing = import_file(&data, &tmp.path().join("nope.pgn")).unwrap_err();
        assert!(matches!(missing, ImportError::Read(_)), "{missing}");
        assert!(list_collections(&data).is_empty());
    }
}
