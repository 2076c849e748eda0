//! The built-in Ludus Original library: every level parses, validates, has a
//! title and one stored push-optimal solution that solves it; the `.sok` and
//! JSON forms agree; the difficulty bands climb along the file. Every
//! built-in collection validates and carries its ratings; in release, every
//! proven par is proven again.

use sokoban::format::json::parse_library;
use sokoban::rating::{Difficulty, Effort, Ratings};
use sokoban::solver::{self, Control, Mode, Options, Outcome};
use sokoban::{Level, levels, parse_collection, validate, verify};

const BANDS: [&str; 4] = ["Tutorial", "Easy", "Medium", "Hard"];

/// A level's rating from its `Comment: optimal pushes P, moves M, <band>`.
struct Rating {
    pushes: u32,
    moves: u32,
    band: usize,
}

fn rating(n: usize, level: &Level) -> Rating {
    let comment = level
        .meta
        .comments
        .iter()
        .find_map(|c| c.trim().strip_prefix("optimal pushes "))
        .unwrap_or_else(|| panic!("level {n}: no `Comment: optimal pushes …`"));
    let parts: Vec<&str> = comment.split(", ").collect();
    assert_eq!(parts.len(), 3, "level {n}: comment {comment:?}");
    let pushes = parts[0]
        .parse()
        .unwrap_or_else(|_| panic!("level {n}: {comment:?}"));
    let moves = parts[1]
        .strip_prefix("moves ")
        .and_then(|m| m.parse().ok())
        .unwrap_or_else(|| panic!("level {n}: {comment:?}"));
    let band = BANDS
        .iter()
        .position(|b| *b == parts[2])
        .unwrap_or_else(|| panic!("level {n}: unknown band in {comment:?}"));
    Rating {
        pushes,
        moves,
        band,
    }
}

fn library() -> Vec<Level> {
    let collection = parse_collection(levels::ORIGINAL);
    assert_eq!(collection.title.as_deref(), Some(levels::ORIGINAL_NAME));
    collection
        .levels
        .into_iter()
        .enumerate()
        .map(|(i, level)| level.unwrap_or_else(|e| panic!("level {}: {e}", i + 1)))
        .collect()
}

#[test]
fn builtin_levels_validate_and_their_solutions_replay() {
    let levels = library();
    assert!(levels.len() >= 60, "only {} levels", levels.len());
    for (i, level) in levels.iter().enumerate() {
        let n = i + 1;
        let report = validate(level);
        assert!(
            report.findings.is_empty(),
            "level {n}: {:?}",
            report.findings
        );
        assert!(
            level.meta.title.as_deref().is_some_and(|t| !t.is_empty()),
            "level {n} has no title"
        );
        assert_eq!(
            level.meta.solutions.len(),
            1,
            "level {n} needs one stored solution"
        );
        let rating = rating(n, level);
        match verify(level, &level.meta.solutions[0]) {
            Ok(v) if v.solved => {
                assert_eq!(v.pushes, rating.pushes, "level {n}: pushes");
                assert_eq!(v.moves, rating.moves, "level {n}: moves");
            }
            other => panic!("level {n}: {other:?}"),
        }
    }
}

#[test]
fn builtin_levels_are_distinct() {
    let levels = library();
    let mut keys: Vec<String> = levels.iter().map(Level::key).collect();
    let count = keys.len();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), count);
}

#[test]
fn difficulty_bands_never_go_down() {
    let levels = library();
    let bands: Vec<usize> = levels
        .iter()
        .enumerate()
        .map(|(i, level)| rating(i + 1, level).band)
        .collect();
    for (i, pair) in bands.windows(2).enumerate() {
        assert!(
            pair[0] <= pair[1],
            "level {} is {} after {}",
            i + 2,
            BANDS[pair[1]],
            BANDS[pair[0]]
        );
    }
    assert_eq!(
        bands.first(),
        Some(&0),
        "the library starts with a tutorial"
    );
    assert_eq!(bands.last(), Some(&3), "the library ends hard");
}

#[test]
fn json_library_matches_the_sok() {
    let levels = library();
    let json = parse_library(levels::ORIGINAL_JSON).expect("the JSON library parses");
    assert_eq!(json.title.as_deref(), Some(levels::ORIGINAL_NAME));
    assert_eq!(json.levels.len(), levels.len());
    let value: serde_json::Value = serde_json::from_str(levels::ORIGINAL_JSON).unwrap();
    assert_eq!(value["total_levels"], levels.len());
    for (i, (sok, json)) in levels.iter().zip(json.levels).enumerate() {
        let n = i + 1;
        let json = json.unwrap_or_else(|e| panic!("JSON level {n}: {e}"));
        assert_eq!(json.to_xsb(), sok.to_xsb(), "level {n}: board");
        assert_eq!(json.meta.title, sok.meta.title, "level {n}: title");
        assert_eq!(
            json.meta.solutions, sok.meta.solutions,
            "level {n}: solution"
        );
        let entry = &value["levels"][i];
        let rating = rating(n, sok);
        assert_eq!(entry["id"], n, "level {n}: id");
        assert_eq!(entry["min_pushes"], rating.pushes, "level {n}: min_pushes");
        assert_eq!(entry["min_moves"], rating.moves, "level {n}: min_moves");
        assert_eq!(entry["difficulty"], BANDS[rating.band], "level {n}: band");
    }
}

/// Re-proves every level's optimal push count with the push-optimal solver.
/// Slow: run in release (`cargo test --release -- --ignored`). Where the
/// solver's second pass also proves the fewest moves among push-optimal
/// solutions, the stored solution must have exactly that many moves.
#[test]
#[ignore]
fn stored_push_counts_are_proven_optimal() {
    let options = Options {
        mode: Mode::Pushes,
        node_limit: Some(3_000_000),
        memory_mb: 512,
        ..Options::default()
    };
    let mut moves_proven = 0;
    for (i, level) in library().iter().enumerate() {
        let n = i + 1;
        let rating = rating(n, level);
        match solver::solve(level, &options, &mut Control::new()) {
            Outcome::Solved(s) => {
                assert!(s.optimal, "level {n}: not proven optimal");
                assert_eq!(s.pushes, rating.pushes, "level {n}: optimal pushes");
                if s.secondary_optimal {
                    assert_eq!(s.moves, rating.moves, "level {n}: fewest moves");
                    moves_proven += 1;
                }
            }
            other => panic!("level {n}: {other:?}"),
        }
    }
    // Within this budget the second pass finishes on 64 levels (the slowest
    // proofs, see levels/README.md, need more time and memory); fewer means
    // the solver got weaker.
    assert!(
        moves_proven >= 64,
        "fewest moves proven within the budget on only {moves_proven} levels"
    );
}

/// Every built-in collection: each level parses and validates with no error,
/// its rating file reads and fits its levels, and the collections hold the
/// level counts their authors published.
#[test]
fn every_builtin_collection_validates() {
    let mut total = 0;
    for builtin in levels::BUILTIN {
        let collection = builtin.collection();
        assert!(
            collection.warnings.is_empty(),
            "{}: {:?}",
            builtin.title,
            collection.warnings
        );
        assert!(
            !collection.levels.is_empty(),
            "{}: no levels",
            builtin.title
        );
        for (i, level) in collection.levels.iter().enumerate() {
            let level = level
                .as_ref()
                .unwrap_or_else(|e| panic!("{} level {}: {e}", builtin.title, i + 1));
            let report = validate(level);
            assert!(
                report.errors().next().is_none(),
                "{} level {}: {:?}",
                builtin.title,
                i + 1,
                report.findings
            );
        }
        assert!(!builtin.credit.is_empty() && !builtin.author.is_empty());
        total += collection.levels.len();
    }
    let count = |prefix: &str| -> usize {
        levels::BUILTIN
            .iter()
            .filter(|b| b.id.starts_with(prefix))
            .map(|b| b.collection().levels.len())
            .sum()
    };
    assert_eq!(count("microban-"), 519);
    assert_eq!(count("sasquatch-"), 558);
    assert!(total >= 1_800, "{total} levels");
    assert_eq!(
        levels::builtin("microban i").map(|b| b.id),
        Some("microban-1")
    );
}

/// The rating file of a built-in collection, read.
fn ratings_of(builtin: &levels::Builtin) -> Ratings {
    Ratings::parse(builtin.ratings)
        .unwrap_or_else(|e| panic!("{}: rating file: {e}", builtin.title))
}

/// Every level of every built-in collection has its entry in the rating
/// file, made for that very level (no stale entry: the key fits), with the
/// difficulty the formula gives its figures; the rating run's node limit is
/// stored. The Ludus Original library's pars agree with the optimum its
/// comments state.
#[test]
fn every_builtin_level_is_rated() {
    for builtin in levels::BUILTIN {
        let ratings = ratings_of(builtin);
        let collection = builtin.collection();
        assert!(
            !collection.warnings.iter().any(|w| w.contains("ratings")),
            "{}: {:?}",
            builtin.title,
            collection.warnings
        );
        assert!(
            ratings.node_limit.is_some(),
            "{}: no node limit",
            builtin.title
        );
        assert_eq!(
            ratings.levels.len(),
            collection.levels.len(),
            "{}: levels rated",
            builtin.title
        );
        for (i, (rating, level)) in ratings.levels.iter().zip(&collection.levels).enumerate() {
            let n = i + 1;
            let level = level.as_ref().unwrap();
            assert_eq!(rating.level, n, "{} level {n}", builtin.title);
            assert!(
                !rating.proven || rating.pushes.is_some(),
                "{} level {n}: proven without pushes",
                builtin.title
            );
            let effort = Effort {
                proven_pushes: rating.pushes.filter(|_| rating.proven),
                nodes: rating.nodes,
                boxes: level.boxes().len(),
            };
            assert_eq!(
                rating.difficulty,
                Difficulty::rate(&effort),
                "{} level {n}",
                builtin.title
            );
            assert_eq!(
                level.meta.difficulty.as_deref(),
                Some(rating.difficulty.name()),
                "{} level {n}",
                builtin.title
            );
        }
    }
    let original = levels::builtin("original").unwrap();
    assert_eq!(original.file, levels::ORIGINAL.as_bytes());
    for (i, (entry, level)) in ratings_of(original)
        .levels
        .iter()
        .zip(library())
        .enumerate()
    {
        let n = i + 1;
        let optimum = rating(n, &level).pushes;
        let pushes = entry.pushes.unwrap_or_else(|| panic!("level {n}: no par"));
        if entry.proven {
            assert_eq!(pushes, optimum, "Ludus Original level {n}: proven par");
        } else {
            assert!(
                pushes >= optimum,
                "Ludus Original level {n}: below the optimum"
            );
        }
    }
}

/// Every par a rating file says is proven is proven again: the push-optimal
/// solver (pushes only, as the rating run) within the stored node limit and
/// memory, no more, finds the same fewest pushes. Slow: run in release
/// (`cargo test --release -- --ignored`); the levels are shared among the
/// cores.
#[test]
#[ignore]
fn proven_pars_are_proven_again_within_their_node_limit() {
    let mut jobs = Vec::new();
    for builtin in levels::BUILTIN {
        let ratings = ratings_of(builtin);
        let options = Options {
            mode: Mode::Pushes,
            node_limit: ratings.node_limit,
            memory_mb: ratings.memory_mb.unwrap_or(1024),
            threads: 1,
            fewest_moves: false,
        };
        assert!(
            options.node_limit.is_some(),
            "{}: no node limit",
            builtin.title
        );
        let collection = builtin.collection();
        for rating in ratings.levels.iter().filter(|r| r.proven) {
            let level = collection.levels[rating.level - 1]
                .as_ref()
                .unwrap()
                .clone();
            jobs.push((
                rating.nodes,
                (
                    builtin.title,
                    rating.level,
                    rating.pushes,
                    level,
                    options.clone(),
                ),
            ));
        }
    }
    assert!(!jobs.is_empty(), "no proven par");
    // The longest proofs first, so the cores finish together.
    jobs.sort_by_key(|&(nodes, _)| std::cmp::Reverse(nodes));
    let jobs: Vec<_> = jobs.into_iter().map(|(_, job)| job).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let failures: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut failures = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((title, n, pushes, level, options)) = jobs.get(i) else {
                            break;
                        };
                        match solver::solve(level, options, &mut Control::new()) {
                            Outcome::Solved(s) if s.optimal && Some(s.pushes) == *pushes => {}
                            other => failures.push(format!(
                                "{title} level {n}: stored {pushes:?}, now {other:?}"
                            )),
                        }
                    }
                    failures
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    assert!(failures.is_empty(), "{failures:#?}");
}
