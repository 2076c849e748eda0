//! Crash consistency of the saved data: several processes write progress,
//! snapshots, high scores, replays and saved games at once and are killed with
//! SIGKILL at random moments, many times. Afterwards every file parses, no
//! write that a writer had acknowledged is missing, and the start-up sweep
//! leaves no temp file behind.
//!
//! Slow (hundreds of processes): `#[ignore]`, run by `.ci/run` in release.
//! The writers are this test binary again, running [`crash_writer`].
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use ludus::store::tetris::{self as scores, ScoreEntry, TABLE_SIZE};
use ludus::store::{self, DataDir, History, Snapshot, progress, snapshots};
use tetris::{Action, InputEvent, Mode, Recorder, Settings};
use xiangqi::pgn::PgnGame;

/// Set in a writer's environment: its id.
const WRITER_ENV: &str = "LUDUS_CRASH_WRITER";

const ROUNDS: u64 = 100;
const WRITERS_PER_ROUND: u64 = 3;

/// One writer: each iteration writes every kind of record, then acknowledges
/// it on stdout. Does nothing unless started by [`kills_at_random_moments_lose_nothing`].
#[test]
#[ignore = "a writer process of crash_consistency; does nothing on its own"]
fn crash_writer() {
    let Ok(id) = std::env::var(WRITER_ENV) else {
        return;
    };
    let data = DataDir::at(std::env::var("LUDUS_DATA_DIR").unwrap());
    let mut recorder = Recorder::new(Mode::Sprint, Settings::default(), 4);
    recorder.update(500, &InputEvent::tap(400, Action::HardDrop));
    let replay = recorder.replay();
    let mut out = std::io::stdout().lock();
    for i in 0..1_000_000u64 {
        let key = format!("w{id}-{i}");
        let place = progress::Place {
            key: &key,
            title: "crash",
            collection: "crash",
        };
        progress::record_solution(&data, &place, "R", 1, 1, i).unwrap();
        snapshots::save(
            &data,
            &Snapshot {
                level_key: format!("w{id}"),
                level_title: "crash".into(),
                level_xsb: "####\n#@$.#\n####\n".into(),
                history: History::default(),
                saved_at: i,
            },
        )
        .unwrap();
        let entry = ScoreEntry {
            score: score_of(&id, i),
            date: i,
            ..ScoreEntry::default()
        };
        scores::record(&data, Mode::Marathon { endless: true }, entry).unwrap();
        let replay_path = scores::save_replay(&data, &replay, 1_795_969_800).unwrap();
        let pgn = format!("[Event \"{key}\"]\n\n*\n");
        let game_path = store::xiangqi::save_game(&data, None, &pgn).unwrap();
        writeln!(
            out,
            "ack {i} {} {}",
            replay_path.display(),
            game_path.display()
        )
        .unwrap();
        out.flush().unwrap();
    }
}

fn score_of(id: &str, i: u64) -> u64 {
    id.parse::<u64>().unwrap() * 1_000_000 + i
}

/// What one writer acknowledged.
#[derive(Default)]
struct Acked {
    last: Option<u64>,
    replays: Vec<String>,
    games: Vec<String>,
}

#[test]
#[ignore = "slow: hundreds of writer processes killed; run in release by .ci/run"]
fn kills_at_random_moments_lose_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let data = DataDir::at(tmp.path());
    let exe = std::env::current_exe().unwrap();
    let mut rng = 0x9E37_79B9_7F4A_7C15u64 ^ u64::from(std::process::id());
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut acked: BTreeMap<String, Acked> = BTreeMap::new();
    for round in 0..ROUNDS {
        let mut children: Vec<(String, std::process::Child)> = (0..WRITERS_PER_ROUND)
            .map(|w| {
                let id = (round * WRITERS_PER_ROUND + w + 1).to_string();
                let child = Command::new(&exe)
                    .args([
                        "crash_writer",
                        "--exact",
                        "--ignored",
                        "--nocapture",
                        "--test-threads=1",
                    ])
                    .env(WRITER_ENV, &id)
                    .env("LUDUS_DATA_DIR", tmp.path())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::null())
                    .spawn()
                    .unwrap();
                (id, child)
            })
            .collect();
        for (id, child) in &mut children {
            std::thread::sleep(Duration::from_millis(5 + next() % 60));
            child.kill().unwrap(); // SIGKILL on unix
            child.wait().unwrap();
            let acks = acked.entry(id.clone()).or_default();
            let reader = BufReader::new(child.stdout.take().unwrap());
            for line in reader.lines().map_while(Result::ok) {
                // libtest may have printed `test crash_writer ... ` on the same line.
                let Some((_, ack)) = line.split_once("ack ") else {
                    continue;
                };
                let mut words = ack.split(' ');
                let (Some(i), Some(replay), Some(game)) =
                    (words.next(), words.next(), words.next())
                else {
                    continue; // cut off mid-line by the kill
                };
                acks.last = Some(i.parse().unwrap());
                acks.replays.push(replay.to_owned());
                acks.games.push(game.to_owned());
            }
        }
    }
    let total: u64 = acked.values().filter_map(|a| a.last.map(|l| l + 1)).sum();
    assert!(total > 0, "no writer got to acknowledge anything");
    eprintln!(
        "{} writers killed, {total} acknowledged iterations",
        acked.len()
    );

    // Every JSON document parses without being moved aside.
    let (progress, warning) = progress::load(&data);
    assert_eq!(warning.map(|w| w.to_string()), None);
    let (table, warning) = scores::load(&data);
    assert_eq!(warning.map(|w| w.to_string()), None);
    let table = table.table(Mode::Marathon { endless: true });
    assert!(table.len() <= TABLE_SIZE);
    let lowest_kept = if table.len() == TABLE_SIZE {
        table.last().map_or(0, |e| e.score)
    } else {
        0
    };
    for (id, acks) in &acked {
        let Some(last) = acks.last else { continue };
        for i in 0..=last {
            let key = format!("w{id}-{i}");
            assert!(progress.is_solved(&key), "acknowledged solve {key} lost");
            let score = score_of(id, i);
            if score > lowest_kept {
                assert!(
                    table.iter().any(|e| e.score == score),
                    "acknowledged score {score} lost"
                );
            }
        }
        let (snapshot, warning) = snapshots::load(&data, &format!("w{id}")).unwrap();
        assert_eq!(warning.map(|w| w.to_string()), None);
        let saved_at = snapshot.unwrap().saved_at;
        assert!(
            saved_at >= last,
            "snapshot of w{id} older than acknowledged"
        );
        for path in &acks.replays {
            scores::read_replay(Path::new(path)).unwrap();
        }
        // Each acknowledged game is still the game that was saved there.
        for (i, path) in acks.games.iter().enumerate() {
            let text = std::fs::read_to_string(path).unwrap();
            let game = PgnGame::parse(&text).unwrap();
            assert_eq!(
                game.tag("Event"),
                Some(format!("w{id}-{i}").as_str()),
                "{path}"
            );
        }
    }
    // Every saved game and replay file on disk parses, acknowledged or not.
    for dir in [data.tetris_replays(), data.xiangqi_games()] {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue; // temps: swept below
            }
            let text = std::fs::read_to_string(&path).unwrap();
            if dir == data.tetris_replays() {
                scores::read_replay(&path).unwrap();
            } else {
                PgnGame::parse(&text).unwrap();
            }
        }
    }
    // The start-up sweep removes what the killed writers left.
    ludus::store::atomic::sweep_stale_temps(tmp.path(), 3);
    let mut left = Vec::new();
    for dir in [
        tmp.path().to_path_buf(),
        tmp.path().join("sokoban"),
        data.sokoban_snapshots(),
        tmp.path().join("tetris"),
        data.tetris_replays(),
        data.xiangqi_games(),
    ] {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if name.contains(".tmp-") {
                left.push(dir.join(name));
            }
        }
    }
    assert!(left.is_empty(), "temp files left: {left:?}");
}
