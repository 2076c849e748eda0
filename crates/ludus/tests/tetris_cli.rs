//! `ludus tetris …` run as a user would: sim, bot, replay.

#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn ludus(args: &[&str], data_dir: &Path) -> Output {
    ludus_with_stdin(args, data_dir, "")
}

fn ludus_with_stdin(args: &[&str], data_dir: &Path, stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(args)
        .env("LUDUS_DATA_DIR", data_dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A T-spin double that only fits with an SRS kick (test 3 of L→2): the rotation in place
/// is blocked by the block at column 4.
const TSD: &str = "\
sdf instant
queue TI
board XX..X.....
board X...XXXXXX
board XX.XXXXXXX
0 rotate_ccw
left
soft_drop
rotate_ccw
hard_drop
";

#[test]
fn sim_prints_the_final_state_of_a_t_spin_double() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("tsd.txt");
    std::fs::write(&script, TSD).unwrap();
    let out = ludus(
        &[
            "tetris",
            "sim",
            "--seed",
            "1",
            "--script",
            script.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["lines"], 2);
    assert_eq!(json["score"], 17 + 1200);
    assert_eq!(json["level"], 1);
    assert_eq!(json["pieces"], 1);
    assert_eq!(json["topped_out"], false);
    assert_eq!(json["hold"], serde_json::Value::Null);
    assert_eq!(json["last_clear"]["t_spin"], "Full");
    assert_eq!(json["last_clear"]["lines"], 2);
    assert_eq!(json["last_clear"]["points"], 1200);
    let board: Vec<&str> = json["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert_eq!(board.len(), 20);
    // The two cleared rows are gone; the I from the queue is in play at the top.
    assert_eq!(board[19], "XX..X.....");
    assert!(
        board[..18]
            .iter()
            .all(|r| r.chars().all(|c| c == '.' || c == 'i'))
    );
    assert_eq!(json["active"]["kind"], "I");

    // The same script from standard input gives the same JSON.
    let piped = ludus_with_stdin(
        &["tetris", "sim", "--seed", "1", "--script", "-"],
        dir.path(),
        TSD,
    );
    assert_eq!(stdout(&piped), stdout(&out));
}

#[test]
fn sim_reports_script_errors_with_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let out = ludus_with_stdin(
        &["tetris", "sim", "--script", "-"],
        dir.path(),
        "0 left\n100 fly\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "");
    let err = stderr(&out);
    assert!(err.contains("2:5: unknown action `fly`"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bot_prints_one_line_per_game_and_the_averages() {
    let dir = tempfile::tempdir().unwrap();
    let out = ludus(
        &[
            "tetris", "bot", "--games", "2", "--seed", "5", "--pieces", "300",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    for (i, line) in lines[..2].iter().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        // game N seed S: lines L score X pieces P topped_out no placements/s R
        assert_eq!(words[0], "game");
        assert_eq!(words[1], (i + 1).to_string());
        assert_eq!(words[3], format!("{}:", 5 + i));
        assert_eq!(words[4], "lines");
        let cleared: u32 = words[5].parse().unwrap();
        assert!(
            cleared >= 100,
            "300 pieces clear at least 100 lines: {line}"
        );
        assert_eq!(words[6], "score");
        assert!(words[7].parse::<u64>().unwrap() > 0);
        assert_eq!(&words[8..10], ["pieces", "300"]);
        assert_eq!(&words[10..12], ["topped_out", "no"]);
        assert_eq!(words[12], "placements/s");
        assert!(words[13].parse::<f64>().unwrap() > 0.0, "{line}");
    }
    assert!(
        lines[2].starts_with("average over 2 games: lines "),
        "{}",
        lines[2]
    );
    assert!(lines[2].contains(" pieces 300.0 topped_out 0 placements/s "));

    // The same seeds give the same games.
    let again = ludus(
        &[
            "tetris", "bot", "--games", "1", "--seed", "6", "--pieces", "300",
        ],
        dir.path(),
    );
    let first = stdout(&again);
    let game = first.lines().next().unwrap();
    let strip = |l: &str| {
        l.split(" placements/s")
            .next()
            .unwrap()
            .replace("game 1", "")
    };
    assert_eq!(strip(game), strip(lines[1]).replace("game 2", ""));
}

#[test]
fn a_damaged_or_foreign_replay_is_refused_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("{ \"version\": 1, \"seed\": ", "the replay file is damaged"),
        (
            r#"{"version": 2, "seed": 1}"#,
            "the replay is format version 2, this version of Ludus plays version 1",
        ),
        (r#"{"seed": 1}"#, "not a Ludus Tetris replay"),
    ];
    for (text, expected) in cases {
        let file = dir.path().join("bad.json");
        std::fs::write(&file, text).unwrap();
        let out = ludus(&["tetris", "replay", file.to_str().unwrap()], dir.path());
        assert_eq!(out.status.code(), Some(1), "{text}");
        let err = stderr(&out);
        assert!(err.starts_with("ludus: cannot play the replay "), "{err}");
        assert!(err.contains("bad.json"), "{err}");
        assert!(err.contains(expected), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // Edited inputs no longer reproduce the recorded result.
    let mut recorder = tetris::Recorder::new(tetris::Mode::Sprint, tetris::Settings::default(), 2);
    recorder.update(200, &tetris::InputEvent::tap(100, tetris::Action::HardDrop));
    let mut replay = recorder.replay();
    replay.result.score += 1;
    let file = dir.path().join("edited.json");
    std::fs::write(&file, replay.to_json()).unwrap();
    let out = ludus(&["tetris", "replay", file.to_str().unwrap()], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("do not reproduce its recorded result"));
    // A missing file too.
    let out = ludus(&["tetris", "replay", "/nonexistent/r.json"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("cannot read the replay /nonexistent/r.json"));
}

#[test]
fn versus_prints_one_line_per_game_then_the_wins() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "tetris",
        "versus",
        "--games",
        "3",
        "--seed",
        "4",
        "--bot1",
        "expert",
        "--bot2",
        "hard",
        "--pieces",
        "400",
        "--bot1-lookahead",
        "1",
        "--bot2-lookahead",
        "classic",
    ];
    let out = ludus(&args, dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    let (mut wins, mut draws) = ([0u32; 2], 0u32);
    for (i, line) in lines[..3].iter().enumerate() {
        // game N seed S: bot 1 wins, pieces P / Q, APP x / y
        let prefix = format!("game {} seed {}: ", i + 1, 4 + i);
        let rest = line
            .strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("{line}"));
        let (result, figures) = rest.split_once(", pieces ").unwrap();
        match result {
            "bot 1 wins" => wins[0] += 1,
            "bot 2 wins" => wins[1] += 1,
            "draw (piece limit)" | "draw (both topped out)" => draws += 1,
            other => panic!("{other}"),
        }
        let words: Vec<&str> = figures.split_whitespace().collect();
        // P / Q, APP x / y
        let pieces: u64 = words[0].parse().unwrap();
        let theirs: u64 = words[2].trim_end_matches(',').parse().unwrap();
        assert!(pieces <= 400 && theirs <= 400 && pieces > 0, "{line}");
        assert_eq!(words[3], "APP");
        assert!(words[4].parse::<f64>().unwrap() >= 0.0);
        assert!(words[6].parse::<f64>().unwrap() >= 0.0);
    }
    assert_eq!(lines[3], format!("draws {draws}"));
    let last = format!("wins {}-{}, APP ", wins[0], wins[1]);
    assert!(lines[4].starts_with(&last), "{}", lines[4]);
    // The same seed gives the same games.
    assert_eq!(stdout(&ludus(&args, dir.path())), text);

    let out = ludus(&["tetris", "versus", "--bot2", "godlike"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown bot level"),
        "{}",
        stderr(&out)
    );
    let out = ludus(&["tetris", "versus", "--pps", "0"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let out = ludus(&["tetris", "versus", "--bot1-lookahead", "9"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown look-ahead \"9\": use classic or a number from 0 to 6"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn help_lists_the_tetris_commands() {
    let dir = tempfile::tempdir().unwrap();
    let out = ludus(&["tetris", "--help"], dir.path());
    let text = stdout(&out);
    for word in ["sim", "bot", "versus", "replay", "--mode", "--seed"] {
        assert!(text.contains(word), "{word}: {text}");
    }
}

#[test]
fn times_past_the_limit_are_refused_at_once_and_long_holds_run_fast() {
    let dir = tempfile::tempdir().unwrap();
    let script = "mode zen\n0 press left\n18446744073709551615 wait\n";
    let out = ludus_with_stdin(&["tetris", "sim", "--script", "-"], dir.path(), script);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("3:1: time 18446744073709551615 is past the limit of 86400000 ms"),
        "{err}"
    );
    // A left key held (ARR 1 ms) and soft drop held for the whole 24 hours allowed.
    let script = "mode zen\narr 1\nsdf 1000\n0 press left\n0 press soft_drop\n86400000 wait\n";
    let out = ludus_with_stdin(&["tetris", "sim", "--script", "-"], dir.path(), script);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("\"time_ms\": 86400000"),
        "{}",
        stdout(&out)
    );

    // A replay is refused before the screen opens, naming the input.
    let mut recorder = tetris::Recorder::new(tetris::Mode::Zen, tetris::Settings::default(), 3);
    recorder.handle(tetris::InputEvent::press(0, tetris::Action::Right));
    let mut replay = recorder.replay();
    replay.end_ms = u64::MAX;
    replay
        .inputs
        .push(tetris::InputEvent::release(u64::MAX, tetris::Action::Right));
    let file = dir.path().join("late.json");
    std::fs::write(&file, replay.to_json()).unwrap();
    let out = ludus(&["tetris", "replay", file.to_str().unwrap()], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.starts_with("ludus: cannot play the replay "), "{err}");
    assert!(
        err.contains("input 1 is at 18446744073709551615 ms, past the limit of 86400000 ms"),
        "{err}"
    );
}
