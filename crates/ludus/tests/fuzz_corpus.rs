//! The fuzz targets' seed corpora (`fuzz/corpus/TARGET/`) and kept crash
//! inputs (`fuzz/regressions/TARGET/`) run through the same checks as the
//! fuzz targets (`fuzz/src/checks.rs`, included here), on stable.

#![allow(clippy::unwrap_used)]

#[path = "../../../fuzz/src/checks.rs"]
mod checks;

use std::path::Path;

/// Feeds every file of the target's corpus and regressions to `check`;
/// a target must have seeds.
fn run(target: &str, check: fn(&[u8])) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut seeds = 0;
    for folder in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(folder).join(target)) else {
            continue;
        };
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            let data = std::fs::read(&path).unwrap();
            eprintln!("{}", path.display());
            check(&data);
            seeds += 1;
        }
    }
    assert!(seeds > 0, "no seeds for {target}");
}

#[test]
fn sokoban_collection() {
    run("sokoban_collection", checks::sokoban_collection);
}

#[test]
fn sokoban_lurd() {
    run("sokoban_lurd", checks::sokoban_lurd);
}

#[test]
fn sokoban_json() {
    run("sokoban_json", checks::sokoban_json);
}

#[test]
fn xiangqi_text() {
    run("xiangqi_text", checks::xiangqi_text);
}

#[test]
fn xiangqi_xqf() {
    run("xiangqi_xqf", checks::xiangqi_xqf);
}

#[test]
fn protocol() {
    run("protocol", checks::protocol);
}

#[test]
fn tetris() {
    run("tetris", checks::tetris);
}

#[test]
fn web() {
    run("web", checks::web);
}

#[test]
fn store() {
    run("store", checks::store);
}
