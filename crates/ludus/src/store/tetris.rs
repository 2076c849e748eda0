//! Tetris high scores (`tetris/scores.json`, one table per mode) and saved replays
//! (`tetris/replays/*.json`, in the `tetris` crate's own versioned replay format).

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use tetris::versus::{Outcome, Player, VersusReplay};
use tetris::{GameOver, Mode, Replay, Status, Summary};

use super::data_dir::DataDir;
use super::json_file::{self, Document, Warning};

/// Entries kept per mode.
pub const TABLE_SIZE: usize = 20;

/// One finished game in a high-score table.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ScoreEntry {
    /// When the game ended (unix seconds).
    pub date: u64,
    pub score: u64,
    pub lines: u32,
    pub level: u32,
    pub pieces: u64,
    /// Game time (pauses excluded).
    pub time_ms: u64,
    pub pieces_per_second: f64,
    /// The player asked the bot for hints during the game.
    pub assisted: bool,
    /// Key presses per piece (`None` in files from before they were counted).
    pub keys_per_piece: Option<f64>,
    /// Pieces placed with more presses than the finesse minimum (`None` in older files).
    pub finesse_faults: Option<u64>,
    /// Percentage of judged pieces placed without a fault (`None` in older files).
    pub finesse_rate: Option<f64>,
    /// Sprint's split times in game milliseconds at 10, 20, 30, 40 lines (empty in the
    /// other modes and in older files).
    pub splits_ms: Vec<u64>,
}

impl ScoreEntry {
    pub fn of(summary: &Summary, date: u64, assisted: bool) -> ScoreEntry {
        ScoreEntry {
            date,
            score: summary.score,
            lines: summary.lines,
            level: summary.level,
            pieces: summary.pieces,
            time_ms: summary.time_ms,
            pieces_per_second: summary.pieces_per_second,
            assisted,
            keys_per_piece: Some(if summary.pieces > 0 {
                summary.finesse.keys as f64 / summary.pieces as f64
            } else {
                0.0
            }),
            finesse_faults: Some(summary.finesse.faults),
            finesse_rate: Some(summary.finesse.rate()),
            splits_ms: summary.splits.reached().map(|(_, ms)| ms).collect(),
        }
    }
}

/// All tables, keyed by [`Mode::name`]. The file also carries `"version"`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HighScores {
    pub modes: BTreeMap<String, Vec<ScoreEntry>>,
}

impl Document for HighScores {
    const VERSION: u32 = 1;
}

impl HighScores {
    /// The table of a mode, best first.
    pub fn table(&self, mode: Mode) -> &[ScoreEntry] {
        self.modes.get(mode.name()).map_or(&[], Vec::as_slice)
    }
}

/// Whether a finished game goes into the tables: Sprint counts only when its 40 lines were
/// cleared (its ranking is by time); the other modes count however they ended.
pub fn qualifies(summary: &Summary) -> bool {
    match summary.mode {
        Mode::Sprint => summary.status == Status::Over(GameOver::GoalReached),
        _ => summary.pieces > 0,
    }
}

/// Ranking order: Sprint by time (fastest first); the other modes by score, then lines,
/// then the shorter time. Ties keep the earlier game first.
pub fn compare(mode: Mode, a: &ScoreEntry, b: &ScoreEntry) -> Ordering {
    let primary = match mode {
        Mode::Sprint => a.time_ms.cmp(&b.time_ms),
        _ => b
            .score
            .cmp(&a.score)
            .then(b.lines.cmp(&a.lines))
            .then(a.time_ms.cmp(&b.time_ms)),
    };
    primary.then(a.date.cmp(&b.date))
}

/// Loads the tables (empty if missing; an unusable file is moved aside and reported).
pub fn load(dir: &DataDir) -> (HighScores, Option<Warning>) {
    json_file::load(&dir.tetris_scores())
}

/// What recording a game gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    /// Position in the mode's table (0 = best), `None` if it did not make the table.
    pub rank: Option<usize>,
    /// The mode's table after the insertion.
    pub table: Vec<ScoreEntry>,
    pub warning: Option<Warning>,
}

/// Adds a game to its mode's table under the file's lock, so games finishing at the same
/// time in several processes all get in.
pub fn record(dir: &DataDir, mode: Mode, entry: ScoreEntry) -> Result<Recorded> {
    let ((rank, table), warning) =
        json_file::update(&dir.tetris_scores(), |scores: &mut HighScores| {
            let table = scores.modes.entry(mode.name().to_owned()).or_default();
            // Sort first: a hand-edited file may be out of order.
            table.sort_by(|a, b| compare(mode, a, b));
            let at = table.partition_point(|e| compare(mode, e, &entry) != Ordering::Greater);
            table.insert(at, entry);
            table.truncate(TABLE_SIZE);
            ((at < TABLE_SIZE).then_some(at), table.clone())
        })?;
    Ok(Recorded {
        rank,
        table,
        warning,
    })
}

/// Saves a replay as `tetris/replays/<mode>-<date>-<time>-<score>.json` (never over an
/// existing file) and returns its path.
pub fn save_replay(dir: &DataDir, replay: &Replay, date: u64) -> Result<PathBuf> {
    let folder = dir.tetris_replays();
    let (y, mo, d, h, mi, s) = civil(date);
    let base = format!(
        "{}-{y:04}{mo:02}{d:02}-{h:02}{mi:02}{s:02}-{}",
        replay.mode.name(),
        replay.result.score
    );
    super::atomic::write_new(&folder, &base, "json", replay.to_json().as_bytes())
        .context("cannot save the replay")
}

/// Reads and checks a replay file: a damaged file, another format version, or inputs that
/// no longer give the recorded result are refused with a message naming the file.
pub fn read_replay(path: &Path) -> Result<Replay> {
    let text = super::limits::read_text(path, super::limits::MAX_REPLAY_BYTES)
        .with_context(|| format!("cannot read the replay {}", path.display()))?;
    let replay = Replay::from_json(&text)
        .with_context(|| format!("cannot play the replay {}", path.display()))?;
    replay
        .play()
        .with_context(|| format!("cannot play the replay {}", path.display()))?;
    Ok(replay)
}

/// Saves a versus replay as `tetris/versus/versus-<date>-<time>-<winner>.json` (never
/// over an existing file; a folder apart from the solo replays, whose list reads only
/// solo replays) and returns its path.
pub fn save_versus_replay(dir: &DataDir, replay: &VersusReplay, date: u64) -> Result<PathBuf> {
    let folder = dir.tetris_versus_replays();
    let (y, mo, d, h, mi, s) = civil(date);
    let winner = match replay.result.outcome {
        Some(Outcome::Winner(Player::One)) => "p1",
        Some(Outcome::Winner(Player::Two)) => "p2",
        Some(Outcome::Draw) => "draw",
        None => "unfinished",
    };
    let base = format!("versus-{y:04}{mo:02}{d:02}-{h:02}{mi:02}{s:02}-{winner}");
    // Compact: a long bot game holds hundreds of thousands of inputs.
    let json = serde_json::to_string(replay).context("cannot write the versus replay")?;
    super::atomic::write_new(&folder, &base, "json", json.as_bytes())
        .context("cannot save the versus replay")
}

/// Reads a versus replay file and checks it plays back to its recorded result.
pub fn read_versus_replay(path: &Path) -> Result<VersusReplay> {
    let text = super::limits::read_text(path, super::limits::MAX_VERSUS_REPLAY_BYTES)
        .with_context(|| format!("cannot read the versus replay {}", path.display()))?;
    let replay = VersusReplay::from_json(&text)
        .with_context(|| format!("cannot play the versus replay {}", path.display()))?;
    replay
        .play()
        .with_context(|| format!("cannot play the versus replay {}", path.display()))?;
    Ok(replay)
}

/// One file of the replays folder, as the replay list shows it.
#[derive(Clone, Debug)]
pub struct ReplayFile {
    pub path: PathBuf,
    /// The replay, or why it cannot be watched (only the format is checked here).
    pub replay: Result<Replay, String>,
    /// Modification time (unix seconds), for sorting and display.
    pub modified: u64,
}

/// The saved replays, newest first. A missing folder is an empty list.
pub fn list_replays(dir: &DataDir) -> Vec<ReplayFile> {
    let Ok(entries) = std::fs::read_dir(dir.tetris_replays()) else {
        return Vec::new();
    };
    let mut files: Vec<ReplayFile> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|path| {
            let modified = std::fs::metadata(&path)
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_secs());
            let replay = super::limits::read_text(&path, super::limits::MAX_REPLAY_BYTES)
                .map_err(|e| e.to_string())
                .and_then(|text| Replay::from_json(&text).map_err(|e| e.to_string()));
            ReplayFile {
                path,
                replay,
                modified,
            }
        })
        .collect();
    files.sort_by(|a, b| b.modified.cmp(&a.modified).then(a.path.cmp(&b.path)));
    files
}

/// Now, in unix seconds.
pub fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `YYYY-MM-DD HH:MM` (UTC) for tables.
pub fn format_date(secs: u64) -> String {
    let (y, mo, d, h, mi, _) = civil(secs);
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}")
}

/// Unix seconds to UTC (year, month, day, hour, minute, second): Howard Hinnant's
/// days-to-civil algorithm, to avoid a date crate for two formats.
fn civil(secs: u64) -> (i64, u32, u32, u32, u32, u32) {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        year,
        month,
        day,
        (rem / 3600) as u32,
        (rem / 60 % 60) as u32,
        (rem % 60) as u32,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(format_date(0), "1970-01-01 00:00");
        assert_eq!(civil(951_782_400), (2000, 2, 29, 0, 0, 0));
        assert_eq!(format_date(1_795_969_800), "2026-11-29 16:30");
    }
}
