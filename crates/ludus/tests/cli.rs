//! The `ludus` command line, run as a user would.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn ludus(args: &[&str], data_dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(args)
        .env("LUDUS_DATA_DIR", data_dir)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
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
    assert_eq!(lines.last(), Some(&"3 levels: 1 ok, 1 warnings, 1 errors"));
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
    for command in ["validate", "verify", "convert", "solutions"] {
        assert!(text.contains(command), "{text}");
    }
}
