//! MultiPV: each completed iteration reports k lines with distinct first
//! moves, legal, best first; line 1 is the answer; fewer lines when there are
//! fewer moves; the book is skipped; stops and weak skill levels still answer.
#![allow(clippy::unwrap_used)]

use std::sync::atomic::AtomicBool;
use xiangqi::engine::{Engine, Limits, MAX_MULTI_PV, Score, SearchInfo, SearchResult};
use xiangqi::{Game, Move, Position};

/// Middlegames with one clearly best move, and short mates.
const CLEAR_BEST: &[(&str, &str)] = &[
    (
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
        "e7d7",
    ),
    (
        "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
        "a7d7",
    ),
    ("3k5/9/9/9/9/9/9/9/9/R3K3R w", "a0d0"),
    ("4k4/9/9/9/9/9/9/9/9/R2K4R w", ""),
];

/// Positions with many moves, for the shape of the report.
const BUSY: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "r3kabr1/4a4/1cn1b1n2/p1p1p3p/6p2/2P6/P3P1PcP/1CN1C1N2/3R5/2BAKABR1 w - - 14 8",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
];

/// A score as one comparable number (mates beyond every centipawn score).
fn value(s: Score) -> i32 {
    match s {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => 100_000 - n,
        Score::Mate(n) => -100_000 - n,
    }
}

/// A search of `fen` with `lines` lines to `depth`, book off: the result and
/// every report.
fn analyse(fen: &str, lines: usize, depth: u32) -> (Game, SearchResult, Vec<SearchInfo>) {
    let game = Game::from_position(Position::from_fen(fen).unwrap());
    let mut engine = Engine::new(4);
    engine.set_own_book(false);
    engine.set_multi_pv(lines);
    let mut infos = Vec::new();
    let stop = AtomicBool::new(false);
    let r = engine.search(&game, &Limits::depth(depth), &stop, &|| 0, &mut |i| {
        infos.push(i.clone())
    });
    (game, r, infos)
}

/// The reports grouped by depth, checked to be numbered 1..=n within each.
fn by_depth(infos: &[SearchInfo]) -> Vec<Vec<SearchInfo>> {
    let mut groups: Vec<Vec<SearchInfo>> = Vec::new();
    for info in infos {
        match groups.last_mut() {
            Some(g) if g[0].depth == info.depth => g.push(info.clone()),
            _ => groups.push(vec![info.clone()]),
        }
    }
    for g in &groups {
        let numbers: Vec<u32> = g.iter().map(|i| i.multipv).collect();
        let expected: Vec<u32> = (1..=g.len() as u32).collect();
        assert_eq!(numbers, expected, "depth {}", g[0].depth);
    }
    groups
}

/// Plays a line from the game's position: every move must be legal.
fn assert_legal(game: &Game, pv: &[Move]) {
    let mut p = game.position().clone();
    for &m in pv {
        assert!(p.legal_moves().contains(m), "{m} in {pv:?}");
        p.make_move(m);
    }
}

#[test]
fn lines_are_distinct_legal_and_best_first() {
    for fen in BUSY {
        let (game, r, infos) = analyse(fen, 3, 5);
        let groups = by_depth(&infos);
        assert_eq!(groups.len(), 5, "{fen}");
        for g in &groups {
            assert_eq!(g.len(), 3, "{fen} depth {}", g[0].depth);
            let firsts: Vec<Move> = g.iter().map(|i| i.pv[0]).collect();
            assert!(
                firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
                "{fen}: {firsts:?}"
            );
            for info in g {
                assert_legal(&game, &info.pv);
                assert_eq!(info.depth, g[0].depth);
                assert_eq!(info.nodes, g[0].nodes);
            }
            assert!(
                g.windows(2).all(|w| value(w[0].score) >= value(w[1].score)),
                "{fen}: {g:?}"
            );
        }
        // The answer is line 1 of the last iteration.
        let last = &groups[groups.len() - 1][0];
        assert_eq!(r.best, Some(last.pv[0]), "{fen}");
        assert_eq!(r.score, last.score, "{fen}");
        assert_eq!(r.pv, last.pv, "{fen}");
        assert_eq!(r.depth, 5);
    }
}

#[test]
fn line_one_is_the_single_line_answer() {
    for &(fen, expected) in CLEAR_BEST {
        let (_, single, one) = analyse(fen, 1, 6);
        assert!(one.iter().all(|i| i.multipv == 1), "{fen}");
        if !expected.is_empty() {
            assert_eq!(single.best.unwrap().to_string(), expected, "{fen}");
        }
        for lines in [2, 3, 5] {
            let (_, multi, infos) = analyse(fen, lines, 6);
            assert_eq!(multi.best, single.best, "{fen} with {lines} lines");
            let groups = by_depth(&infos);
            assert_eq!(groups.last().unwrap()[0].pv[0], single.best.unwrap());
        }
    }
}

#[test]
fn the_search_ends_when_every_line_is_a_found_mate() {
    // Both chariots mate in one; other moves mate later or not at all.
    let fen = "3k5/9/9/9/9/9/9/9/9/R3K3R w";
    let (_, r, infos) = analyse(fen, 2, 6);
    assert_eq!(r.score, Score::Mate(1));
    let groups = by_depth(&infos);
    let last = groups.last().unwrap();
    assert!(last.iter().all(|i| i.score == Score::Mate(1)), "{last:?}");
    assert!(groups.len() < 6, "{groups:?}");
    // With a black chariot left, most of ten lines are no mate: the search
    // goes on to the full depth.
    let (_, r, infos) = analyse("4k4/R8/9/9/9/9/9/9/r8/3K4R w", MAX_MULTI_PV, 6);
    assert_eq!(r.score, Score::Mate(1));
    let groups = by_depth(&infos);
    assert_eq!(groups.len(), 6);
    let last = groups.last().unwrap();
    assert_eq!(last[0].score, Score::Mate(1));
    assert!(matches!(last[9].score, Score::Cp(_)), "{last:?}");
}

#[test]
fn fewer_lines_than_asked_when_fewer_moves() {
    // The black general has only two moves.
    let fen = "4k4/9/9/9/9/9/9/9/9/3K5 b";
    let game = Game::from_position(Position::from_fen(fen).unwrap());
    let legal = game.legal_moves();
    let (_, r, infos) = analyse(fen, MAX_MULTI_PV, 4);
    for g in by_depth(&infos) {
        assert_eq!(g.len(), legal.len(), "{g:?}");
    }
    assert!(legal.contains(r.best.unwrap()));
    // `searchmoves` narrows the lines too.
    let game = Game::new();
    let mut engine = Engine::new(1);
    engine.set_multi_pv(4);
    let only: Vec<Move> = ["h2e2", "b0c2"]
        .iter()
        .map(|m| Move::parse_iccs(m).unwrap())
        .collect();
    let limits = Limits {
        depth: Some(3),
        search_moves: only.clone(),
        ..Limits::default()
    };
    let mut infos = Vec::new();
    let stop = AtomicBool::new(false);
    engine.search(&game, &limits, &stop, &|| 0, &mut |i| infos.push(i.clone()));
    for g in by_depth(&infos) {
        assert_eq!(g.len(), 2);
        assert!(g.iter().all(|i| only.contains(&i.pv[0])), "{g:?}");
    }
}

#[test]
fn the_count_is_clamped() {
    let mut engine = Engine::new(1);
    assert_eq!(engine.multi_pv(), 1);
    engine.set_multi_pv(0);
    assert_eq!(engine.multi_pv(), 1);
    engine.set_multi_pv(usize::MAX);
    assert_eq!(engine.multi_pv(), MAX_MULTI_PV);
    engine.set_multi_pv(3);
    assert_eq!(engine.multi_pv(), 3);
}

#[test]
fn several_lines_skip_the_book() {
    let game = Game::new();
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(1);
    let r = engine.search(&game, &Limits::depth(2), &stop, &|| 0, &mut |_| {});
    assert!(r.from_book, "the built-in book knows the start");
    engine.set_multi_pv(2);
    let mut infos = Vec::new();
    let r = engine.search(&game, &Limits::depth(2), &stop, &|| 0, &mut |i| {
        infos.push(i.clone())
    });
    assert!(!r.from_book);
    assert_eq!(infos.len(), 4, "{infos:?}");
}

#[test]
fn a_stopped_search_still_answers_legally() {
    for fen in BUSY {
        let game = Game::from_position(Position::from_fen(fen).unwrap());
        for nodes in [1, 50, 3000, 20_000] {
            let mut engine = Engine::new(1);
            engine.set_own_book(false);
            engine.set_multi_pv(3);
            let mut infos = Vec::new();
            let stop = AtomicBool::new(false);
            let r = engine.search(&game, &Limits::nodes(nodes), &stop, &|| 0, &mut |i| {
                infos.push(i.clone())
            });
            assert!(game.legal_moves().contains(r.best.unwrap()), "{fen}");
            assert_legal(&game, &r.pv);
            for g in by_depth(&infos) {
                // Only completed iterations are reported, except a cut-short first one.
                assert!(g.len() == 3 || g[0].depth == 1, "{g:?}");
            }
        }
        // Stopped before it starts.
        let mut engine = Engine::new(1);
        engine.set_multi_pv(3);
        let stop = AtomicBool::new(true);
        let r = engine.search(&game, &Limits::depth(20), &stop, &|| 0, &mut |_| {});
        assert!(game.legal_moves().contains(r.best.unwrap()), "{fen}");
    }
}

#[test]
fn weak_skill_levels_report_lines_too() {
    let game = Game::new();
    let stop = AtomicBool::new(false);
    for level in [0u8, 6, 19] {
        let mut engine = Engine::new(1);
        engine.set_own_book(false);
        engine.set_skill_level(level);
        engine.set_multi_pv(3);
        let mut infos = Vec::new();
        let r = engine.search(&game, &Limits::depth(6), &stop, &|| 0, &mut |i| {
            infos.push(i.clone())
        });
        assert!(r.depth <= 1 + level as u32 / 2, "level {level}");
        assert!(game.legal_moves().contains(r.best.unwrap()));
        let groups = by_depth(&infos);
        assert_eq!(groups.len() as u32, r.depth, "level {level}");
        for g in &groups {
            assert_eq!(g.len(), 3);
            for info in g {
                assert_legal(&game, &info.pv);
            }
        }
    }
}

#[test]
fn one_line_reports_one_line_per_iteration() {
    let (_, r, infos) = analyse(BUSY[1], 1, 5);
    assert_eq!(infos.len(), 5);
    assert!(infos.iter().all(|i| i.multipv == 1));
    assert_eq!(infos.last().unwrap().pv, r.pv);
}
