//! Reads the reference collections in `../shared/data` (not part of a
//! user's clone): run with `LUDUS_SHARED_DATA=../shared/data cargo test -- --ignored`.

#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

fn shared(rel: &str) -> Option<PathBuf> {
    let root = std::env::var_os("LUDUS_SHARED_DATA")?;
    Some(PathBuf::from(root).join(rel))
}

fn levels_in(rel: &str) -> (usize, Vec<String>) {
    let Some(path) = shared(rel) else {
        panic!("set LUDUS_SHARED_DATA to the shared data folder");
    };
    let bytes = std::fs::read(&path).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    let collection = sokoban::parse_collection(&text);
    let mut problems = Vec::new();
    for (i, level) in collection.levels.iter().enumerate() {
        match level {
            Ok(level) => {
                let report = sokoban::validate(level);
                if !report.is_ok() {
                    problems.push(format!("level {}: {:?}", i + 1, report.findings));
                }
            }
            Err(e) => problems.push(format!("level {}: {e}", i + 1)),
        }
    }
    (collection.levels.len(), problems)
}

#[test]
#[ignore = "needs ../shared/data"]
fn every_microban_level_reads_and_validates() {
    for (file, expected) in [
        ("microban-1.txt", 155),
        ("microban-2.txt", 135),
        ("microban-3.txt", 101),
        ("microban-4.txt", 102),
        ("microban-5.txt", 26),
    ] {
        let (count, problems) = levels_in(&format!("sokoban/microban/{file}"));
        assert_eq!(count, expected, "{file}");
        assert!(problems.is_empty(), "{file}: {problems:?}");
    }
}

#[test]
#[ignore = "needs ../shared/data"]
fn other_collections_read_and_validate() {
    for file in [
        "sokoban/xsokoban/original-and-extra.xsb",
        "sokoban/holland/bagatelle.txt",
        "sokoban/haywood/sokevo.txt",
        "sokoban/grigoriev/grigr2001.txt",
        "sokoban/sasquatch/sasquatch-1.txt",
        "sokoban/boxoban/hard/000.txt",
    ] {
        let (count, problems) = levels_in(file);
        assert!(count > 0, "{file}");
        assert!(problems.is_empty(), "{file}: {problems:?}");
    }
}
