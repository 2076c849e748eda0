//! The level generator: deterministic per seed, every level proven
//! solvable with a replayable push-optimal solution.

#![allow(clippy::unwrap_used)]

use sokoban::generate::{GenerateOptions, generate, generate_many};
use sokoban::solver::Control;

fn small() -> GenerateOptions {
    GenerateOptions {
        width: 8,
        height: 7,
        boxes: 2,
        min_pushes: 4,
        node_limit: 20_000,
        ..GenerateOptions::default()
    }
}

#[test]
fn same_seed_same_level() {
    let a = generate(7, &small(), &mut Control::new()).unwrap();
    let b = generate(7, &small(), &mut Control::new()).unwrap();
    assert_eq!(a.level.to_xsb(), b.level.to_xsb());
    assert_eq!(a.solution, b.solution);
    assert_eq!(a.effort, b.effort);
}

#[test]
fn generated_levels_are_solvable_and_rated() {
    let levels = generate_many(100, 4, &small(), &mut Control::new()).unwrap();
    assert_eq!(levels.len(), 4);
    for g in &levels {
        assert!(sokoban::validate(&g.level).is_ok(), "{}", g.level.to_xsb());
        let verdict = sokoban::verify(&g.level, &g.solution.lurd).unwrap();
        assert!(verdict.solved);
        assert!(g.solution.optimal);
        assert!(g.solution.pushes >= 4);
        assert_eq!(g.level.boxes().len(), 2);
    }
    let distinct: std::collections::HashSet<String> =
        levels.iter().map(|g| g.level.to_xsb()).collect();
    assert_eq!(distinct.len(), 4);
}
