//! Every shipped level parses, validates, and its stored solution solves it.

use sokoban::{levels, parse_collection, validate, verify};

#[test]
fn builtin_levels_validate_and_their_solutions_replay() {
    let collection = parse_collection(levels::STARTER);
    assert!(!collection.levels.is_empty());
    for (i, level) in collection.levels.iter().enumerate() {
        let level = match level {
            Ok(level) => level,
            Err(e) => panic!("level {}: {e}", i + 1),
        };
        let report = validate(level);
        assert!(
            report.findings.is_empty(),
            "level {}: {:?}",
            i + 1,
            report.findings
        );
        assert!(level.meta.title.is_some(), "level {} has no title", i + 1);
        assert_eq!(
            level.meta.solutions.len(),
            1,
            "level {} needs one stored solution",
            i + 1
        );
        let verdict = verify(level, &level.meta.solutions[0]);
        assert!(
            matches!(verdict, Ok(v) if v.solved),
            "level {}: {verdict:?}",
            i + 1
        );
    }
}

#[test]
fn builtin_levels_are_distinct() {
    let collection = parse_collection(levels::STARTER);
    let mut keys: Vec<String> = collection.valid_levels().map(|(_, l)| l.key()).collect();
    let count = keys.len();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), count);
}
