//! Tetris high scores and replays in the data directory.

#![allow(clippy::unwrap_used)]

use ludus::store::DataDir;
use ludus::store::tetris::{self as store, ScoreEntry, TABLE_SIZE};
use tetris::{Action, GameOver, InputEvent, Mode, Recorder, Settings, Status, Summary};

const MARATHON: Mode = Mode::Marathon { endless: false };

fn entry(date: u64, score: u64, time_ms: u64) -> ScoreEntry {
    ScoreEntry {
        date,
        score,
        lines: (score / 100) as u32,
        level: 1,
        pieces: 10,
        time_ms,
        pieces_per_second: 1.0,
        assisted: false,
        ..ScoreEntry::default()
    }
}

#[test]
fn tables_are_ordered_per_mode() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = DataDir::at(tmp.path());
    let ranks: Vec<Option<usize>> = [(1, 500), (2, 900), (3, 100), (4, 900)]
        .into_iter()
        .map(|(date, score)| {
            store::record(&dir, MARATHON, entry(date, score, 60_000))
                .unwrap()
                .rank
        })
        .collect();
    // A tie goes after the earlier game.
    assert_eq!(ranks, [Some(0), Some(0), Some(2), Some(1)]);
    // Sprint ranks by time, fastest first, whatever the score.
    for (date, time) in [(5, 90_000), (6, 70_000), (7, 80_000)] {
        store::record(&dir, Mode::Sprint, entry(date, 10_000 - time / 10, time)).unwrap();
    }
    let (scores, warning) = store::load(&dir);
    assert_eq!(warning, None);
    let marathon: Vec<(u64, u64)> = scores
        .table(MARATHON)
        .iter()
        .map(|e| (e.date, e.score))
        .collect();
    assert_eq!(marathon, [(2, 900), (4, 900), (1, 500), (3, 100)]);
    let sprint: Vec<u64> = scores
        .table(Mode::Sprint)
        .iter()
        .map(|e| e.time_ms)
        .collect();
    assert_eq!(sprint, [70_000, 80_000, 90_000]);
    assert!(scores.table(Mode::Ultra).is_empty());
    assert!(scores.table(Mode::Marathon { endless: true }).is_empty());
    let text = std::fs::read_to_string(dir.tetris_scores()).unwrap();
    assert!(text.starts_with("{\n  \"version\": 1,"), "{text}");
}

#[test]
fn tables_keep_the_best_twenty() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = DataDir::at(tmp.path());
    for i in 0..TABLE_SIZE as u64 {
        store::record(&dir, Mode::Ultra, entry(i, 1000 + i, 120_000)).unwrap();
    }
    let low = store::record(&dir, Mode::Ultra, entry(99, 5, 120_000)).unwrap();
    assert_eq!(low.rank, None);
    assert_eq!(low.table.len(), TABLE_SIZE);
    let high = store::record(&dir, Mode::Ultra, entry(100, 5_000, 120_000)).unwrap();
    assert_eq!(high.rank, Some(0));
    assert_eq!(high.table.len(), TABLE_SIZE);
    assert_eq!(high.table.last().unwrap().score, 1001);
}

#[test]
fn only_finished_sprints_qualify() {
    let summary = |mode, status, pieces| Summary {
        mode,
        score: 0,
        lines: 0,
        level: 1,
        pieces,
        time_ms: 1000,
        pieces_per_second: 1.0,
        status,
        finesse: tetris::FinesseCount::default(),
        splits: tetris::Splits::default(),
    };
    let done = Status::Over(GameOver::GoalReached);
    let topped = Status::Over(GameOver::BlockOut);
    assert!(store::qualifies(&summary(Mode::Sprint, done, 100)));
    assert!(!store::qualifies(&summary(Mode::Sprint, topped, 100)));
    assert!(store::qualifies(&summary(MARATHON, topped, 3)));
    assert!(!store::qualifies(&summary(MARATHON, topped, 0)));
}

#[test]
fn concurrent_writers_lose_no_entries() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = DataDir::at(tmp.path());
    std::thread::scope(|s| {
        for t in 0..4u64 {
            let dir = &dir;
            s.spawn(move || {
                for i in 0..5u64 {
                    let mode = if i % 2 == 0 { MARATHON } else { Mode::Zen };
                    store::record(dir, mode, entry(t * 100 + i, t * 10 + i, 1000)).unwrap();
                }
            });
        }
    });
    let (scores, warning) = store::load(&dir);
    assert_eq!(warning, None);
    assert_eq!(scores.table(MARATHON).len(), 12);
    assert_eq!(scores.table(Mode::Zen).len(), 8);
}

#[test]
fn a_corrupt_score_file_is_moved_aside_and_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = DataDir::at(tmp.path());
    let path = dir.tetris_scores();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let garbage = "{\"version\": 1, \"modes\": {\"sprint\": [{\"score\": \"lots\"}]}}";
    std::fs::write(&path, garbage).unwrap();
    let recorded = store::record(&dir, Mode::Sprint, entry(1, 10, 50_000)).unwrap();
    let warning = recorded.warning.unwrap();
    assert!(warning.to_string().contains("scores.json"), "{warning}");
    let aside = warning.moved_to.unwrap();
    assert_eq!(std::fs::read_to_string(aside).unwrap(), garbage);
    assert_eq!(recorded.rank, Some(0));
    let (scores, warning) = store::load(&dir);
    assert_eq!(warning, None);
    assert_eq!(scores.table(Mode::Sprint).len(), 1);
}

#[test]
fn replays_are_saved_listed_and_checked() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = DataDir::at(tmp.path());
    assert!(store::list_replays(&dir).is_empty());
    let mut recorder = Recorder::new(Mode::Sprint, Settings::default(), 4);
    recorder.update(500, &InputEvent::tap(400, Action::HardDrop));
    let replay = recorder.replay();
    let first = store::save_replay(&dir, &replay, 1_795_969_800).unwrap();
    let second = store::save_replay(&dir, &replay, 1_795_969_800).unwrap();
    let name = |p: &std::path::Path| p.file_name().unwrap().to_str().unwrap().to_owned();
    assert_eq!(
        name(&first),
        format!("sprint-20261129-163000-{}.json", replay.result.score)
    );
    assert_eq!(
        name(&second),
        format!("sprint-20261129-163000-{}-2.json", replay.result.score)
    );
    assert_eq!(store::read_replay(&first).unwrap(), replay);
    std::fs::write(dir.tetris_replays().join("broken.json"), "{").unwrap();
    let files = store::list_replays(&dir);
    assert_eq!(files.len(), 3);
    let broken = files
        .iter()
        .find(|f| name(&f.path) == "broken.json")
        .unwrap();
    assert!(broken.replay.as_ref().unwrap_err().contains("damaged"));
    assert!(store::read_replay(&broken.path).is_err());
}

#[test]
fn replays_saved_at_the_same_moment_are_all_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = DataDir::at(tmp.path());
    let mut recorder = Recorder::new(Mode::Sprint, Settings::default(), 4);
    recorder.update(500, &InputEvent::tap(400, Action::HardDrop));
    let replay = recorder.replay();
    let paths: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..40)
            .map(|_| scope.spawn(|| store::save_replay(&dir, &replay, 1_795_969_800).unwrap()))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut unique = paths.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 40);
    assert_eq!(store::list_replays(&dir).len(), 40);
}

#[test]
fn old_score_files_load_and_new_entries_keep_finesse_and_splits() {
    let tmp = tempfile::tempdir().unwrap();
    let data = DataDir::at(tmp.path());
    std::fs::create_dir_all(data.tetris_scores().parent().unwrap()).unwrap();
    // A table written before keys per piece, finesse and splits were saved.
    let old = r#"{"version":1,"modes":{"sprint":[{"date":5,"score":10,"lines":40,
        "level":1,"pieces":100,"time_ms":60000,"pieces_per_second":1.6,"assisted":false}]}}"#;
    std::fs::write(data.tetris_scores(), old).unwrap();
    let (scores, warning) = store::load(&data);
    assert!(warning.is_none(), "{warning:?}");
    let entry = &scores.table(Mode::Sprint)[0];
    assert_eq!((entry.keys_per_piece, entry.finesse_faults), (None, None));
    assert!(entry.splits_ms.is_empty());

    // A finished Sprint keeps its figures.
    let mut recorder = Recorder::new(Mode::Sprint, Settings::default(), 3);
    for t in [10, 20] {
        recorder.update(t, &InputEvent::tap(t, Action::Right));
        recorder.update(t, &InputEvent::tap(t, Action::Left));
        recorder.update(t, &InputEvent::tap(t, Action::HardDrop));
    }
    let entry = ScoreEntry::of(&recorder.game().summary(), 6, false);
    assert_eq!(entry.keys_per_piece, Some(3.0));
    assert_eq!(entry.finesse_faults, Some(2));
    assert_eq!(entry.finesse_rate, Some(0.0));
    let written = store::record(&data, Mode::Sprint, entry.clone()).unwrap();
    assert!(written.table.contains(&entry));
    let mut summary = recorder.game().summary();
    summary.splits = tetris::Splits {
        at_ms: [Some(9_000), Some(19_000), None, None],
    };
    assert_eq!(
        ScoreEntry::of(&summary, 7, false).splits_ms,
        [9_000, 19_000]
    );
}
