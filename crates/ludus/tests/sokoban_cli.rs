//! The `ludus` command line, run as a user would.

#![allow(clippy::unwrap_used)]

mod cli_common;
use cli_common::{ludus, stdout};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

#[test]
fn validate_reports_each_level_and_a_summary() {
    let dir = tempfile::tempdir().unwrap();
    let file = data("mixed.txt");
    let out = ludus(&["sokoban", "validate", file.to_str().unwrap()], dir.path());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(lines[0].ends_with(":5: level 1 (Corridor): ok"), "{text}");
    assert!(
        lines[1].ends_with(":11:4: level 2: error: illegal character 'x' in a board"),
        "{text}"
    );
    assert!(
        lines[2].ends_with(":16:7: level 3 (Pocket): warning: some floor can never be reached"),
        "{text}"
    );
    assert_eq!(lines.last(), Some(&"3 levels: 1 ok, 1 warning, 1 error"));
}

#[test]
fn validate_exits_zero_without_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = ludus(
        &["sokoban", "validate", data("solved.sok").to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).ends_with("2 levels: 2 ok, 0 warnings, 0 errors\n"));
}

#[test]
fn validate_reports_missing_files_without_panicking() {
    let dir = tempfile::tempdir().unwrap();
    let out = ludus(
        &["sokoban", "validate", "/nonexistent/levels.sok"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("cannot read /nonexistent/levels.sok"));
}

#[test]
fn verify_replays_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let file = data("mixed.txt");
    let file = file.to_str().unwrap();
    let out = ludus(
        &[
            "sokoban",
            "verify",
            file,
            "--level",
            "1",
            "--solution",
            "rRR",
        ],
        dir.path(),
    );
    assert_eq!(stdout(&out), "solved: yes, moves 3, pushes 2\n");
    assert!(out.status.success());

    let out = ludus(
        &[
            "sokoban",
            "verify",
            file,
            "--level",
            "1",
            "--solution",
            "rR",
        ],
        dir.path(),
    );
    assert_eq!(stdout(&out), "solved: no, moves 2, pushes 1\n");
    assert_eq!(out.status.code(), Some(1));

    let out = ludus(
        &[
            "sokoban",
            "verify",
            file,
            "--level",
            "1",
            "--solution",
            "rrrr",
        ],
        dir.path(),
    );
    assert_eq!(
        stdout(&out),
        "solved: no, step 4: the box cannot move that way\n"
    );

    let out = ludus(
        &["sokoban", "verify", file, "--level", "9", "--solution", "r"],
        dir.path(),
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("there is no level 9"));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn verify_reads_solutions_from_a_sok_file() {
    let dir = tempfile::tempdir().unwrap();
    let sok = data("solved.sok");
    let out = ludus(
        &[
            "sokoban",
            "verify",
            data("mixed.txt").to_str().unwrap(),
            "--solutions",
            sok.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(stdout(&out), "solved: yes, moves 3, pushes 2\n");
    let out = ludus(
        &["sokoban", "verify", sok.to_str().unwrap(), "--level", "2"],
        dir.path(),
    );
    assert_eq!(stdout(&out), "solved: yes, moves 7, pushes 2\n");
}

#[test]
fn convert_round_trips_through_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let source = data("solved.sok");
    for format in ["xsb", "sok", "rle", "json"] {
        let target = dir.path().join(format!("out.{format}"));
        let out = ludus(
            &[
                "sokoban",
                "convert",
                source.to_str().unwrap(),
                "--to",
                format,
                "--output",
                target.to_str().unwrap(),
            ],
            dir.path(),
        );
        assert!(
            out.status.success(),
            "{format}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let out = ludus(
            &["sokoban", "validate", target.to_str().unwrap()],
            dir.path(),
        );
        assert!(
            stdout(&out).ends_with("2 levels: 2 ok, 0 warnings, 0 errors\n"),
            "{format}: {}",
            stdout(&out)
        );
        let written = std::fs::read_to_string(&target).unwrap();
        assert!(written.contains("Corridor"), "{format} keeps titles");
    }
}

#[test]
fn help_lists_the_subcommands() {
    let dir = tempfile::tempdir().unwrap();
    let out = ludus(&["sokoban", "--help"], dir.path());
    let text = stdout(&out);
    for command in ["validate", "verify", "convert", "solutions", "rate"] {
        assert!(text.contains(command), "{text}");
    }
}

#[test]
fn generate_is_deterministic_and_every_level_is_solved_by_its_solution() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "sokoban",
        "generate",
        "--count",
        "3",
        "--seed",
        "5",
        "--size",
        "8x7",
        "--boxes",
        "2",
        "--min-pushes",
        "6",
    ];
    let first = ludus(&args, dir.path());
    let second = ludus(&args, dir.path());
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert_eq!(stdout(&first), stdout(&second), "same seed, same levels");
    let file = dir.path().join("generated.sok");
    std::fs::write(&file, stdout(&first)).unwrap();
    let validated = ludus(&["sokoban", "validate", file.to_str().unwrap()], dir.path());
    assert!(
        stdout(&validated).ends_with("3 levels: 3 ok, 0 warnings, 0 errors\n"),
        "{}",
        stdout(&validated)
    );
    for level in ["1", "2", "3"] {
        let verified = ludus(
            &[
                "sokoban",
                "verify",
                file.to_str().unwrap(),
                "--level",
                level,
            ],
            dir.path(),
        );
        assert!(
            stdout(&verified).starts_with("solved: yes"),
            "level {level}: {}",
            stdout(&verified)
        );
    }
    assert!(stdout(&first).contains("Comment: optimal pushes"));
    // Each band is the rating formula's over the stated figures.
    let collection = sokoban::parse_collection(&stdout(&first));
    for (i, level) in collection.valid_levels() {
        let comment = level.meta.comments.join(" ");
        let figures: Vec<&str> = comment.split(", ").collect();
        let number = |part: &str, prefix: &str, suffix: &str| -> u64 {
            part.trim()
                .strip_prefix(prefix)
                .and_then(|p| p.strip_suffix(suffix))
                .and_then(|p| p.parse().ok())
                .unwrap_or_else(|| panic!("level {}: {comment:?}", i + 1))
        };
        let effort = sokoban::rating::Effort {
            proven_pushes: Some(number(figures[0], "optimal pushes ", "") as u32),
            nodes: number(figures[2], "search effort ", " nodes"),
            boxes: level.boxes().len(),
        };
        assert_eq!(
            figures[3].trim(),
            sokoban::rating::Difficulty::rate(&effort).name(),
            "level {}: {comment:?}",
            i + 1
        );
    }
    let other = ludus(
        &[
            "sokoban", "generate", "--count", "1", "--seed", "6", "--size", "8x7", "--boxes", "2",
        ],
        dir.path(),
    );
    assert_ne!(
        stdout(&other).lines().nth(3),
        stdout(&first).lines().nth(3),
        "another seed, another level"
    );
}

#[test]
fn solve_prints_a_line_per_level_and_a_summary() {
    let dir = tempfile::tempdir().unwrap();
    let out = ludus(
        &[
            "sokoban",
            "solve",
            data("solved.sok").to_str().unwrap(),
            "--time-limit",
            "5",
        ],
        dir.path(),
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("level 1 (Corridor): solved moves 3 pushes 2"),
        "{text}"
    );
    assert!(lines[1].starts_with("level 2 (Square): solved"), "{text}");
    assert_eq!(lines.last(), Some(&"solved 2/2"));
    let file = data("solved.sok");
    let pushes_mode = [
        "sokoban",
        "solve",
        file.to_str().unwrap(),
        "--level",
        "2",
        "--mode",
        "pushes",
    ];
    let json = ludus(&[&pushes_mode[..], &["--json"]].concat(), dir.path());
    let doc: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(doc["solved"], 1);
    assert_eq!(doc["levels"][0]["pushes"], 2);
    assert_eq!(doc["levels"][0]["optimal"], true);
    // Among the 2-push solutions, the fewest moves (uurDurD), proven.
    assert_eq!(doc["levels"][0]["moves"], 7);
    assert_eq!(doc["levels"][0]["secondary_optimal"], true);
    assert_eq!(doc["levels"][0]["lurd"].as_str().map(str::len), Some(7));
    let text = ludus(&pushes_mode, dir.path());
    assert!(
        stdout(&text).contains("yes (pushes, then moves)"),
        "{}",
        stdout(&text)
    );
    // With 1 MB the proof fits but the fewest-moves pass has no room: the
    // push-optimal solution comes back, and the line says what stopped.
    let text = ludus(&[&pushes_mode[..], &["--memory", "1"]].concat(), dir.path());
    assert!(
        stdout(&text).contains("pushes 2 optimal yes (pushes; moves not minimised: memory limit)"),
        "{}",
        stdout(&text)
    );
}

/// Runs `ludus` and fails the test if it has not ended within `seconds`.
fn ludus_within(args: &[&str], data_dir: &Path, seconds: u64) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(args)
        .env("LUDUS_DATA_DIR", data_dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed().as_secs() >= seconds {
            child.kill().unwrap();
            panic!("ludus {args:?} still running after {seconds} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn hostile_run_length_files_are_errors_not_crashes_or_hangs() {
    let dir = tempfile::tempdir().unwrap();
    let deep = format!("#{}#{}\n", "(".repeat(60_000), ")".repeat(60_000));
    let cases = [
        ("deep.sok", deep, "nested more than 32 deep"),
        (
            "empty-group.sok",
            "#99999999999999999999()\n".to_string(),
            "the level has no player",
        ),
        (
            "wide.sok",
            "1048576#\n".repeat(1000),
            "expands to more than 65792 characters",
        ),
    ];
    for (name, text, expected) in cases {
        let file = dir.path().join(name);
        std::fs::write(&file, text).unwrap();
        for command in ["validate", "convert"] {
            let mut args = vec!["sokoban", command, file.to_str().unwrap()];
            if command == "convert" {
                args.extend(["--to", "xsb"]);
            }
            let out = ludus_within(&args, dir.path(), 20);
            let all = format!("{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
            assert_ne!(out.status.code(), Some(0), "{name} {command}: {all}");
            assert!(!all.contains("panicked"), "{name} {command}: {all}");
            if command == "validate" {
                assert!(all.contains(expected), "{name} {command}: {all}");
            }
        }
    }
    let nested = format!("{}r{}", "2(".repeat(40_000), ")".repeat(40_000));
    let level = data("solved.sok");
    let out = ludus_within(
        &[
            "sokoban",
            "verify",
            level.to_str().unwrap(),
            "--level",
            "1",
            "--solution",
            &nested,
        ],
        dir.path(),
        20,
    );
    let all = format!("{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
    assert_ne!(out.status.code(), Some(0), "{all}");
    assert!(all.contains("nested more than 32 deep"), "{all}");
}

#[test]
fn screens_without_a_terminal_end_with_one_line_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    for args in [
        vec!["xiangqi", "--fen", start],
        vec!["sokoban"],
        vec!["tetris"],
        vec![],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_ludus"))
            .args(&args)
            .env("LUDUS_DATA_DIR", dir.path())
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("need a terminal"), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        // Nothing was drawn: no escape sequence reached the output.
        assert!(!out.stdout.contains(&0x1b), "{args:?}");
    }
}

#[test]
fn a_closed_output_pipe_is_one_line_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("script.txt");
    std::fs::write(&script, "0 hard_drop\n").unwrap();
    // A pipe whose reading end is closed before ludus starts, as `| head -0`.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["tetris", "sim", "--seed", "1", "--script"])
        .arg(&script)
        .env("LUDUS_DATA_DIR", dir.path())
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains("output was closed"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn convert_keeps_authors_and_comments_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("noted.sok");
    std::fs::write(
        &file,
        "; 1\n#####\n#@$.#\n#####\nTitle: Noted\nAuthor: Ada\nComment: the first one\n",
    )
    .unwrap();
    for format in ["xsb", "sok", "rle", "json"] {
        let out_file = dir.path().join(format!("out.{format}"));
        let out = ludus(
            &[
                "sokoban",
                "convert",
                file.to_str().unwrap(),
                "--to",
                format,
                "--output",
                out_file.to_str().unwrap(),
            ],
            dir.path(),
        );
        assert_eq!(out.status.code(), Some(0), "{format}");
        let text = std::fs::read_to_string(&out_file).unwrap();
        let set = if format == "json" {
            sokoban::format::json::parse_library(&text).unwrap()
        } else {
            sokoban::parse_collection(&text)
        };
        let level = set.levels[0].as_ref().unwrap();
        assert_eq!(
            level.meta.author.as_deref(),
            Some("Ada"),
            "{format}: {text}"
        );
        assert_eq!(level.meta.comments, ["the first one"], "{format}: {text}");
    }
}

#[test]
fn unreadable_solutions_and_empty_files_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let level = data("solved.sok");
    let out = ludus(
        &[
            "sokoban",
            "verify",
            level.to_str().unwrap(),
            "--level",
            "1",
            "--solution",
            "xyz",
        ],
        dir.path(),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(err.contains("the solution cannot be read"), "{err}");
    assert!(!stdout(&out).contains("solved: no"));

    let empty = dir.path().join("empty.sok");
    std::fs::write(&empty, "; nothing here\n").unwrap();
    for command in [vec!["solve"], vec!["convert", "--to", "xsb"]] {
        let mut args = vec!["sokoban", command[0], empty.to_str().unwrap()];
        args.extend(&command[1..]);
        let out = ludus(&args, dir.path());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{command:?}");
        assert!(err.contains("no level could be read"), "{command:?}: {err}");
    }
}

#[test]
fn endless_and_oversized_files_are_refused_at_their_limit() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec!["sokoban", "validate", "/dev/zero"],
        vec!["tetris", "sim", "--seed", "1", "--script", "/dev/zero"],
        vec!["xiangqi", "/dev/zero"],
    ] {
        let out = ludus_within(&args, dir.path(), 30);
        let all = format!("{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
        assert_ne!(out.status.code(), Some(0), "{args:?}: {all}");
        assert!(all.contains("larger than the limit"), "{args:?}: {all}");
    }
    let big = dir.path().join("big.sok");
    std::fs::write(&big, vec![b'#'; (16 << 20) + 1]).unwrap();
    let out = ludus_within(
        &["sokoban", "validate", big.to_str().unwrap()],
        dir.path(),
        30,
    );
    assert!(
        stdout(&out).contains("larger than the limit of 16 MiB"),
        "{}",
        stdout(&out)
    );
}

/// A folder map pack: one level, a name and a skin tile (a PNG header).
fn folder_pack(root: &Path, wall: &[u8]) -> PathBuf {
    let dir = root.join("mine");
    std::fs::create_dir_all(dir.join("skin")).unwrap();
    std::fs::write(dir.join("one.sok"), "#####\n#@$.#\n#####\n").unwrap();
    std::fs::write(dir.join("pack.json"), r#"{"name":"Mine","author":"Ann"}"#).unwrap();
    std::fs::write(dir.join("skin/wall.png"), wall).unwrap();
    dir
}

fn png_header(side: u32) -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    bytes.extend(side.to_be_bytes());
    bytes.extend(side.to_be_bytes());
    bytes.extend([8, 6, 0, 0, 0, 0, 0, 0, 0]);
    bytes
}

#[test]
fn packs_are_exported_installed_listed_and_removed() {
    let dir = tempfile::tempdir().unwrap();
    let data_dir = dir.path().join("data");
    let folder = folder_pack(dir.path(), &png_header(8));
    let zip = dir.path().join("mine.zip");
    let out = ludus(
        &[
            "sokoban",
            "pack",
            "export",
            folder.to_str().unwrap(),
            "--output",
            zip.to_str().unwrap(),
        ],
        &data_dir,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = ludus(
        &["sokoban", "pack", "install", zip.to_str().unwrap()],
        &data_dir,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout(&out).starts_with("installed Mine (1 level, with a skin)"),
        "{}",
        stdout(&out)
    );
    assert!(
        data_dir
            .join("sokoban/levels/packs/mine/skin/wall.png")
            .is_file()
    );
    let out = ludus(&["sokoban", "pack", "list"], &data_dir);
    assert_eq!(stdout(&out), "Mine\tby Ann\t1 level\tskin: yes\n");
    let out = ludus(&["sokoban", "pack", "remove", "Mine"], &data_dir);
    assert_eq!(stdout(&out), "removed Mine\n");
    let out = ludus(&["sokoban", "pack", "list"], &data_dir);
    assert_eq!(stdout(&out), "no packs installed\n");
}

#[test]
fn a_refused_pack_names_the_entry_and_installs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let data_dir = dir.path().join("data");
    let folder = folder_pack(dir.path(), b"not a png at all, just some text here");
    let out = ludus(
        &["sokoban", "pack", "install", folder.to_str().unwrap()],
        &data_dir,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("skin/wall.png: not a PNG image"), "{err}");
    assert!(!data_dir.join("sokoban/levels/packs/mine").exists());
}

/// Records a solve of `level` in the data dir's progress, as a game would.
fn solve_in_progress(data_dir: &Path, level: &sokoban::Level, collection: &str) {
    let place = ludus::store::progress::Place {
        key: &level.key(),
        title: "1",
        collection,
    };
    let dir = ludus::store::DataDir::at(data_dir);
    ludus::store::progress::record_solution(&dir, &place, "R", 1, 1, 5).unwrap();
}

#[test]
fn collections_lists_the_built_in_ones_by_author_with_solved_counts() {
    let dir = tempfile::tempdir().unwrap();
    let out = ludus(&["sokoban", "collections"], dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(
        text.starts_with("Ludus\n  Ludus Original  0/69  solved  built in\nDavid W. Skinner\n"),
        "{text}"
    );
    assert!(
        text.contains("\n  Microban I      0/155 solved  built in\n"),
        "{text}"
    );
    assert!(text.contains("\nDavid Holland\n"), "{text}");
    assert!(text.ends_with(" 0 solved\n"), "{text}");

    // A solve counts in every collection holding that level.
    let microban = sokoban::levels::BUILTIN[1].collection();
    let sasquatch = sokoban::levels::builtin("sasquatch-1")
        .unwrap()
        .collection();
    solve_in_progress(
        dir.path(),
        microban.levels[0].as_ref().unwrap(),
        "Microban I",
    );
    solve_in_progress(
        dir.path(),
        sasquatch.levels[0].as_ref().unwrap(),
        "Sasquatch I",
    );
    let text = stdout(&ludus(&["sokoban", "collections"], dir.path()));
    assert!(
        text.contains("\n  Microban I      1/155 solved  built in\n"),
        "{text}"
    );
    assert!(
        text.contains("\n  Sasquatch I     1/50  solved  built in\n"),
        "{text}"
    );
}

#[test]
fn collections_json_has_packs_and_the_levels_folder_too() {
    let dir = tempfile::tempdir().unwrap();
    let data_dir = dir.path().join("data");
    let folder = folder_pack(dir.path(), &png_header(8));
    let out = ludus(
        &["sokoban", "pack", "install", folder.to_str().unwrap()],
        &data_dir,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let levels = data_dir.join("sokoban/levels");
    std::fs::write(levels.join("mine.sok"), "#######\n#@ $ .#\n#######\n").unwrap();
    let microban = sokoban::levels::BUILTIN[1].collection();
    solve_in_progress(
        &data_dir,
        microban.levels[0].as_ref().unwrap(),
        "Microban I",
    );

    let out = ludus(&["sokoban", "collections", "--json"], &data_dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<serde_json::Value> = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(rows.len(), sokoban::levels::BUILTIN.len() + 2);
    let named = |name: &str| {
        rows.iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| panic!("no {name} in {rows:?}"))
    };
    let m = named("Microban I");
    assert_eq!(m["author"], "David W. Skinner");
    assert_eq!(m["group"], "David W. Skinner");
    assert_eq!(m["origin"], "built in");
    assert_eq!(
        (m["levels"].as_u64(), m["solved"].as_u64()),
        (Some(155), Some(1))
    );
    assert_eq!(m["first_unsolved"], 2, "1-based");
    assert_eq!(m["updated"], serde_json::json!([]));
    assert!(m["credit"].as_str().unwrap().contains("properly credited"));
    let pack = named("Mine");
    assert_eq!(
        (&pack["group"], &pack["author"], &pack["levels"]),
        (
            &serde_json::json!("Map packs"),
            &serde_json::json!("Ann"),
            &serde_json::json!(1)
        )
    );
    let mine = named("mine");
    assert_eq!(mine["group"], "Your levels");
    assert_eq!(mine["solved"], 0);
    assert!(
        mine["origin"].as_str().unwrap().ends_with("mine.sok"),
        "{mine}"
    );

    // The table lists them too, under their groups.
    let text = stdout(&ludus(&["sokoban", "collections"], &data_dir));
    assert!(text.contains("\nMap packs\n  Mine "), "{text}");
    assert!(text.contains("  by Ann"), "{text}");
    assert!(text.contains("\nYour levels\n  mine "), "{text}");
}

#[test]
fn sokoban_help_credits_the_built_in_collections() {
    let dir = tempfile::tempdir().unwrap();
    let text = stdout(&ludus(&["sokoban", "--help"], dir.path()));
    assert!(
        text.contains("David W. Skinner: Microban I, Microban II"),
        "{text}"
    );
    assert!(
        text.contains("may be freely distributed provided they"),
        "{text}"
    );
    assert!(text.contains("LICENSES.md"), "{text}");
    assert!(!text.contains("the built-in collection;"), "{text}");
    let short = stdout(&ludus(&["sokoban", "-h"], dir.path()));
    assert!(short.contains("ludus sokoban --help"), "{short}");
}

/// Two small levels: one push with one box, eight pushes with four boxes.
const TWO_LEVELS: &str = "; Rated\n\n#####\n#@$.#\n#####\n\n\
########\n#@ $ . #\n#  $ . #\n#  $ . #\n#  $ . #\n########\n";

#[test]
fn rate_writes_the_rating_file_beside_the_collection() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two.sok");
    std::fs::write(&file, TWO_LEVELS).unwrap();
    let out = ludus(
        &["sokoban", "rate", file.to_str().unwrap(), "--jobs", "2"],
        dir.path(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("level 1/2: proven 1 push,"), "{stderr}");
    assert!(stderr.contains("level 2/2: proven 8 pushes,"), "{stderr}");
    assert!(
        stdout(&out).contains("2 levels rated: 2 proven, 0 best found, 0 unsolved"),
        "{}",
        stdout(&out)
    );
    let text = std::fs::read_to_string(dir.path().join("two.sok.par.json")).unwrap();
    let ratings = sokoban::rating::Ratings::parse(&text).unwrap();
    assert_eq!(ratings.node_limit, Some(2_000_000));
    assert!(ratings.rated_by.contains("pushes mode"), "{text}");
    let figures: Vec<_> = ratings
        .levels
        .iter()
        .map(|r| (r.level, r.pushes, r.proven, r.difficulty.name()))
        .collect();
    // Four boxes are too many for a tutorial, however few the pushes.
    assert_eq!(
        figures,
        [(1, Some(1), true, "Tutorial"), (2, Some(8), true, "Easy")]
    );
    // The file fits the collection it was made for.
    let mut collection = sokoban::parse_collection(TWO_LEVELS);
    assert!(ratings.apply(&mut collection).is_empty());
    // The same figures whatever the number of jobs.
    let again = dir.path().join("again.json");
    let out = ludus(
        &[
            "sokoban",
            "rate",
            file.to_str().unwrap(),
            "--output",
            again.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(again).unwrap(), text);
}

#[test]
fn rate_gives_a_best_found_par_when_the_proof_runs_out_of_nodes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two.sok");
    std::fs::write(&file, TWO_LEVELS).unwrap();
    let out = ludus(
        &[
            "sokoban",
            "rate",
            file.to_str().unwrap(),
            "--nodes",
            "1",
            "--fast-nodes",
            "100000",
        ],
        dir.path(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    let text = std::fs::read_to_string(dir.path().join("two.sok.par.json")).unwrap();
    let ratings = sokoban::rating::Ratings::parse(&text).unwrap();
    assert_eq!(ratings.node_limit, Some(1));
    let level = &ratings.levels[1];
    assert!(!level.proven, "{text}");
    assert!(level.pushes.is_some_and(|p| p >= 8), "{text}");
    assert_eq!(level.difficulty.name(), "Expert");
    assert!(stderr.contains("level 2/2: best found"), "{stderr}");
    // Bad arguments are refused before any work.
    let two = ludus(
        &[
            "sokoban",
            "rate",
            file.to_str().unwrap(),
            file.to_str().unwrap(),
            "--output",
            "x.json",
        ],
        dir.path(),
    );
    assert_eq!(two.status.code(), Some(1));
    let missing = ludus(&["sokoban", "rate", "/nonexistent/levels.sok"], dir.path());
    assert_eq!(missing.status.code(), Some(1));
}

#[test]
fn rate_best_found_only_keeps_proofs_and_looks_again_where_they_failed() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two.sok");
    std::fs::write(&file, TWO_LEVELS).unwrap();
    let path = file.to_str().unwrap();
    let rate = |extra: &[&str]| {
        let mut args = vec!["sokoban", "rate", path];
        args.extend_from_slice(extra);
        let out = ludus(&args, dir.path());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(dir.path().join("two.sok.par.json")).unwrap();
        sokoban::rating::Ratings::parse(&text).unwrap()
    };
    let first = rate(&["--nodes", "1", "--fast-nodes", "1"]);
    assert!(!first.levels[1].proven);
    assert_eq!(first.levels[1].pushes, None, "{first:?}");
    let again = rate(&[
        "--best-found-only",
        "--nodes",
        "1",
        "--fast-nodes",
        "100000",
    ]);
    assert_eq!(again.levels[0], first.levels[0]);
    let second = &again.levels[1];
    assert!(
        !second.proven && second.pushes.is_some_and(|p| p >= 8),
        "{again:?}"
    );
    assert_eq!(
        (second.nodes, second.difficulty),
        (first.levels[1].nodes, first.levels[1].difficulty)
    );
    assert_eq!(again.node_limit, Some(1));
    assert!(
        again.rated_by.contains("best found again"),
        "{}",
        again.rated_by
    );
    // Without a rating file there is nothing to keep.
    std::fs::remove_file(dir.path().join("two.sok.par.json")).unwrap();
    let out = ludus(&["sokoban", "rate", path, "--best-found-only"], dir.path());
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn bench_prints_every_level_and_writes_csv() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("results.csv");
    let out = ludus(
        &[
            "sokoban",
            "bench",
            data("solved.sok").to_str().unwrap(),
            "--time-limit",
            "5",
            "--levels",
            "--progress",
            "--csv",
            csv.to_str().unwrap(),
        ],
        dir.path(),
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("file "))
        .collect();
    assert_eq!(table.len(), 3, "{text}");
    let first: Vec<&str> = table[1].split_whitespace().collect();
    assert_eq!(first[..5], ["solved.sok", "1", "yes", "2", "3"], "{text}");
    let written = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = written.lines().collect();
    assert_eq!(
        rows[0],
        "file,level,title,solved,pushes,moves,seconds,nodes,reason"
    );
    assert!(
        rows[1].starts_with("solved.sok,1,Corridor,true,2,3,"),
        "{written}"
    );
    assert!(
        rows[2].starts_with("solved.sok,2,Square,true,"),
        "{written}"
    );
    assert_eq!(rows.len(), 3);
}
