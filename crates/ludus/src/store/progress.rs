//! Sokoban progress (`sokoban/progress.json`): per level, when it was first solved and the
//! best solutions by moves and by pushes, keyed by the level's key (a hash of the
//! normalised level from the `sokoban` crate; opaque here), so reordering a collection keeps
//! progress and an edited level starts afresh.

use std::collections::BTreeMap;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::data_dir::DataDir;
use super::json_file::{self, Document, Warning};

/// All Sokoban progress.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Progress {
    /// Level key → progress on that level.
    pub levels: BTreeMap<String, LevelProgress>,
}

/// Progress on one level.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LevelProgress {
    /// The level's title when last solved (for listings and `.sok` export).
    pub title: String,
    /// The collection it was last solved in: with the title, where the level
    /// was, so a changed level at the same place is noticed (empty in files
    /// written before it was kept).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub collection: String,
    /// When the level was first solved (unix seconds); `None`: never.
    pub solved: Option<u64>,
    /// The best solution by moves (ties: fewer pushes).
    pub best_by_moves: Option<Solution>,
    /// The best solution by pushes (ties: fewer moves).
    pub best_by_pushes: Option<Solution>,
}

/// A solution in LURD (lowercase: move, uppercase: push) with its counts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Solution {
    pub lurd: String,
    pub moves: u32,
    pub pushes: u32,
}

/// What a newly recorded solution achieved. On a first solve all three are true.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NewBest {
    /// The level had not been solved before.
    pub first_solve: bool,
    /// The solution became the best by moves.
    pub moves_record: bool,
    /// The solution became the best by pushes.
    pub pushes_record: bool,
}

impl NewBest {
    /// Whether anything was improved (worth a "new best!" line).
    pub fn any(self) -> bool {
        self.first_solve || self.moves_record || self.pushes_record
    }
}

impl Document for Progress {
    const VERSION: u32 = 1;
}

impl Progress {
    /// Progress on the level with this key, if any.
    pub fn get(&self, key: &str) -> Option<&LevelProgress> {
        self.levels.get(key)
    }

    /// The titles of the levels solved in `collection`.
    pub fn places(&self, collection: &str) -> std::collections::HashSet<&str> {
        self.levels
            .values()
            .filter(|l| l.collection == collection)
            .map(|l| l.title.as_str())
            .collect()
    }

    /// Whether the level with this key has been solved.
    pub fn is_solved(&self, key: &str) -> bool {
        self.get(key).is_some_and(|l| l.solved.is_some())
    }

    /// Records a solution of level `key`, keeping it as the best by moves if it has fewer
    /// moves (ties: fewer pushes) and as the best by pushes if it has fewer pushes (ties:
    /// fewer moves). An equally good solution does not replace the stored one. The title
    /// is refreshed; `now_unix` becomes the first-solved time if there was none.
    pub fn record_solution(
        &mut self,
        key: &str,
        title: &str,
        lurd: &str,
        moves: u32,
        pushes: u32,
        now_unix: u64,
    ) -> NewBest {
        let level = self.levels.entry(key.to_owned()).or_default();
        level.title = title.to_owned();
        let first_solve = level.solved.is_none();
        if first_solve {
            level.solved = Some(now_unix);
        }
        let solution = Solution {
            lurd: lurd.to_owned(),
            moves,
            pushes,
        };
        let moves_record = level
            .best_by_moves
            .as_ref()
            .is_none_or(|best| (moves, pushes) < (best.moves, best.pushes));
        let pushes_record = level
            .best_by_pushes
            .as_ref()
            .is_none_or(|best| (pushes, moves) < (best.pushes, best.moves));
        if moves_record {
            level.best_by_moves = Some(solution.clone());
        }
        if pushes_record {
            level.best_by_pushes = Some(solution);
        }
        NewBest {
            first_solve,
            moves_record,
            pushes_record,
        }
    }
}

/// Loads `sokoban/progress.json` (default if missing; moved aside and reported if unusable).
pub fn load(dir: &DataDir) -> (Progress, Option<Warning>) {
    json_file::load(&dir.sokoban_progress())
}

/// Where a solved level is: its key, its title and its collection's name.
#[derive(Clone, Copy, Debug)]
pub struct Place<'a> {
    pub key: &'a str,
    pub title: &'a str,
    pub collection: &'a str,
}

/// Records a solution in `sokoban/progress.json` under the file's lock (see
/// [`Progress::record_solution`]), safe against other processes doing the
/// same, with the collection it was solved in.
pub fn record_solution(
    dir: &DataDir,
    place: &Place<'_>,
    lurd: &str,
    moves: u32,
    pushes: u32,
    now_unix: u64,
) -> Result<(NewBest, Option<Warning>)> {
    json_file::update(&dir.sokoban_progress(), |p: &mut Progress| {
        let new_best = p.record_solution(place.key, place.title, lurd, moves, pushes, now_unix);
        if let Some(level) = p.levels.get_mut(place.key) {
            level.collection = place.collection.to_owned();
        }
        new_best
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn place<'a>(key: &'a str, title: &'a str) -> Place<'a> {
        Place {
            key,
            title,
            collection: "Set",
        }
    }

    fn sol(lurd: &str, moves: u32, pushes: u32) -> Option<Solution> {
        Some(Solution {
            lurd: lurd.into(),
            moves,
            pushes,
        })
    }

    #[test]
    fn first_solve_sets_everything() {
        let mut p = Progress::default();
        assert!(!p.is_solved("k"));
        let nb = p.record_solution("k", "Level 1", "rrUL", 4, 2, 1000);
        assert_eq!(
            nb,
            NewBest {
                first_solve: true,
                moves_record: true,
                pushes_record: true
            }
        );
        assert!(nb.any());
        let level = p.get("k").unwrap();
        assert_eq!(level.title, "Level 1");
        assert_eq!(level.solved, Some(1000));
        assert_eq!(level.best_by_moves, sol("rrUL", 4, 2));
        assert_eq!(level.best_by_pushes, sol("rrUL", 4, 2));
        assert!(p.is_solved("k"));
        assert_eq!(p.get("other"), None);
    }

    #[test]
    fn best_by_moves_and_by_pushes_rules() {
        let mut p = Progress::default();
        p.record_solution("k", "L", "a", 20, 5, 100);

        // Worse in both: nothing changes, the first-solve time stays.
        let nb = p.record_solution("k", "L", "b", 21, 6, 200);
        assert_eq!(nb, NewBest::default());
        assert!(!nb.any());
        assert_eq!(p.get("k").unwrap().solved, Some(100));

        // Exactly as good: the stored solution stays.
        let nb = p.record_solution("k", "L", "same", 20, 5, 300);
        assert_eq!(nb, NewBest::default());
        assert_eq!(p.get("k").unwrap().best_by_moves, sol("a", 20, 5));

        // Fewer moves, more pushes: a moves record only.
        let nb = p.record_solution("k", "L", "c", 18, 7, 400);
        assert_eq!(
            nb,
            NewBest {
                moves_record: true,
                ..NewBest::default()
            }
        );
        assert_eq!(p.get("k").unwrap().best_by_moves, sol("c", 18, 7));
        assert_eq!(p.get("k").unwrap().best_by_pushes, sol("a", 20, 5));

        // Same moves, fewer pushes: ties on moves go to fewer pushes; also a pushes record?
        // No: 6 pushes > 5.
        let nb = p.record_solution("k", "L", "d", 18, 6, 500);
        assert_eq!(
            nb,
            NewBest {
                moves_record: true,
                ..NewBest::default()
            }
        );
        assert_eq!(p.get("k").unwrap().best_by_moves, sol("d", 18, 6));

        // Same pushes, fewer moves than the pushes-best: ties on pushes go to fewer moves.
        let nb = p.record_solution("k", "L", "e", 19, 5, 600);
        assert_eq!(
            nb,
            NewBest {
                pushes_record: true,
                ..NewBest::default()
            }
        );
        assert_eq!(p.get("k").unwrap().best_by_pushes, sol("e", 19, 5));
        assert_eq!(p.get("k").unwrap().best_by_moves, sol("d", 18, 6));

        // Fewer pushes but many more moves: a pushes record only.
        let nb = p.record_solution("k", "L", "f", 40, 4, 700);
        assert_eq!(
            nb,
            NewBest {
                pushes_record: true,
                ..NewBest::default()
            }
        );

        // Better in both.
        let nb = p.record_solution("k", "Renamed", "g", 10, 3, 800);
        assert_eq!(
            nb,
            NewBest {
                first_solve: false,
                moves_record: true,
                pushes_record: true
            }
        );
        let level = p.get("k").unwrap();
        assert_eq!(level.title, "Renamed");
        assert_eq!(level.solved, Some(100));
        assert_eq!(level.best_by_moves, sol("g", 10, 3));
        assert_eq!(level.best_by_pushes, sol("g", 10, 3));
    }

    #[test]
    fn levels_are_independent() {
        let mut p = Progress::default();
        p.record_solution("a", "A", "r", 1, 0, 1);
        let nb = p.record_solution("b", "B", "rr", 2, 0, 2);
        assert!(nb.first_solve);
        assert_eq!(p.levels.len(), 2);
    }

    #[test]
    fn stored_on_disk_keyed_by_hash() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::at(tmp.path().join("data"));
        assert_eq!(load(&dir), (Progress::default(), None));
        let (nb, w) = record_solution(&dir, &place("00ff", "One"), "rRuL", 4, 2, 50).unwrap();
        assert!(nb.first_solve);
        assert_eq!(w, None);
        let (nb, _) = record_solution(&dir, &place("00ff", "One"), "RuL", 3, 1, 60).unwrap();
        assert!(nb.moves_record && nb.pushes_record && !nb.first_solve);
        let (p, w) = load(&dir);
        assert_eq!(w, None);
        assert_eq!(p.get("00ff").unwrap().best_by_moves, sol("RuL", 3, 1));
        assert_eq!(p.get("00ff").unwrap().solved, Some(50));
        let text = fs::read_to_string(dir.sokoban_progress()).unwrap();
        assert!(text.contains("\"version\": 1"));
        assert!(text.contains("\"00ff\""));
    }

    #[test]
    fn older_file_with_missing_fields_loads() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::at(tmp.path());
        fs::create_dir_all(tmp.path().join("sokoban")).unwrap();
        fs::write(
            dir.sokoban_progress(),
            r#"{"version": 1, "levels": {"k": {"title": "T", "solved": 5, "note": "extra"}}}"#,
        )
        .unwrap();
        let (p, w) = load(&dir);
        assert_eq!(w, None);
        let level = p.get("k").unwrap();
        assert_eq!(level.solved, Some(5));
        assert_eq!(level.best_by_moves, None);
    }

    #[test]
    fn two_threads_recording_lose_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::at(tmp.path());
        std::thread::scope(|s| {
            for t in 0..2 {
                let dir = &dir;
                s.spawn(move || {
                    for i in 0..50u32 {
                        let key = format!("{t:x}{i:02x}");
                        let (nb, w) =
                            record_solution(dir, &place(&key, "L"), "rR", 2, 1, u64::from(i))
                                .unwrap();
                        assert!(nb.first_solve);
                        assert_eq!(w, None);
                    }
                });
            }
        });
        let (p, w) = load(&dir);
        assert_eq!(w, None);
        assert_eq!(p.levels.len(), 100);
        for t in 0..2 {
            for i in 0..50u32 {
                assert!(p.is_solved(&format!("{t:x}{i:02x}")));
            }
        }
    }

    /// Child side of [`two_processes_recording_lose_nothing`]: does nothing unless started
    /// by it with `LUDUS_STORE_TEST_CHILD` set to a data directory.
    #[test]
    fn child_process_writer() {
        let Some(root) = std::env::var_os("LUDUS_STORE_TEST_CHILD") else {
            return;
        };
        let tag = std::env::var("LUDUS_STORE_TEST_TAG").unwrap();
        let dir = DataDir::at(root);
        for i in 0..50u32 {
            let key = format!("{tag}-{i}");
            let (nb, w) = record_solution(&dir, &place(&key, "L"), "r", 1, 0, 1).unwrap();
            assert!(nb.first_solve);
            assert_eq!(w, None);
        }
    }

    #[test]
    fn two_processes_recording_lose_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let exe = std::env::current_exe().unwrap();
        let children: Vec<_> = ["p", "q"]
            .iter()
            .map(|tag| {
                std::process::Command::new(&exe)
                    .args([
                        "store::progress::tests::child_process_writer",
                        "--exact",
                        "--test-threads=1",
                        "--quiet",
                    ])
                    .env("LUDUS_STORE_TEST_CHILD", tmp.path())
                    .env("LUDUS_STORE_TEST_TAG", tag)
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "{}\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            // The child really ran the writer (libtest prints "1 passed").
            assert!(
                String::from_utf8_lossy(&out.stdout).contains("1 passed"),
                "{}",
                String::from_utf8_lossy(&out.stdout)
            );
        }
        let (p, w) = load(&DataDir::at(tmp.path()));
        assert_eq!(w, None);
        assert_eq!(p.levels.len(), 100);
    }
}
