//! Solves Microban I from the shared reference data (not part of
//! the repository). Slow in debug; run in release:
//! `LUDUS_SHARED_DATA=$(realpath ../shared/data) cargo test --release -p sokoban --test solver_collections -- --ignored`

#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use sokoban::solver::{self, Control, Options, Outcome};

#[test]
#[ignore = "needs LUDUS_SHARED_DATA (the shared data folder); run in release"]
fn fast_mode_solves_microban_one() {
    let root = std::env::var_os("LUDUS_SHARED_DATA").expect("set LUDUS_SHARED_DATA");
    let path = PathBuf::from(root).join("sokoban/microban/microban-1.txt");
    let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
    let collection = sokoban::parse_collection(&text);
    let mut unsolved = Vec::new();
    for (i, level) in collection.valid_levels() {
        // A generous per-level limit (the benchmark target is 1 s) so that a
        // loaded CI machine does not fail the run.
        let cancel = AtomicBool::new(false);
        let start = Instant::now();
        let mut control = Control::new()
            .cancel_flag(&cancel)
            .on_progress(256, |_| {})
            .should_stop(|| start.elapsed() > Duration::from_secs(20));
        let outcome = solver::solve(level, &Options::default(), &mut control);
        cancel.store(true, Ordering::Relaxed);
        match outcome {
            Outcome::Solved(s) => assert!(sokoban::verify(level, &s.lurd).unwrap().solved),
            other => unsolved.push(format!("level {}: {other:?}", i + 1)),
        }
    }
    assert_eq!(collection.levels.len(), 155);
    // All 155 (level 153, a goal column packed from the far end, since
    // fixed goal boxes count as walls and the packing-order search).
    assert!(unsolved.is_empty(), "{unsolved:?}");
}
