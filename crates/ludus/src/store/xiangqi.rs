//! Saved Xiangqi games: one PGN file each in `xiangqi/games/`, written atomically.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use xiangqi::pgn::PgnGame;

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
}
