//! Engine: finds short mates, respects limits, never returns an illegal move.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use std::cell::Cell;
use std::sync::atomic::AtomicBool;
use xiangqi::engine::{
    Book, Engine, Limits, MAX_THREADS, PARAMS, Score, SearchInfo, evaluate, evaluate_with, param,
};
use xiangqi::{Game, Move, Position};

/// Whether the side to move can force the opponent out of legal moves
/// (mate or stalemate) within `n` of its own moves. Plain minimax.
fn forced_win_within(pos: &Position, n: u32) -> bool {
    if n == 0 {
        return false;
    }
    pos.legal_moves().iter().any(|&m| {
        let mut p = pos.clone();
        p.make_move(m);
        let replies = p.legal_moves();
        replies.is_empty()
            || (n > 1
                && replies.iter().all(|&r| {
                    let mut q = p.clone();
                    q.make_move(r);
                    forced_win_within(&q, n - 1)
                }))
    })
}

fn search(fen: &str, depth: u32) -> (Position, xiangqi::engine::SearchResult) {
    let pos = Position::from_fen(fen).unwrap();
    let mut engine = Engine::new(4);
    engine.set_own_book(false);
    let r = engine.search_position(&pos, &Limits::depth(depth));
    (pos, r)
}

/// Plays the principal variation and checks that it ends with the loser out of moves.
fn pv_mates(pos: &Position, pv: &[Move], moves: usize) {
    let mut p = pos.clone();
    assert!(pv.len() >= 2 * moves - 1, "pv too short: {pv:?}");
    for &m in &pv[..2 * moves - 1] {
        p.play(m).unwrap();
    }
    assert!(
        p.legal_moves().is_empty(),
        "pv {pv:?} does not end the game"
    );
}

#[test]
fn mate_in_one() {
    let (pos, r) = search("3k5/9/9/9/9/9/9/9/9/R3K3R w", 4);
    assert_eq!(r.score, Score::Mate(1));
    pv_mates(&pos, &r.pv, 1);
}

#[test]
fn stalemate_counts_as_a_win() {
    // Rook to a8 leaves the black general without a move: that loses for Black.
    let (pos, r) = search("5k3/9/9/9/9/9/9/9/9/R3K4 w", 4);
    assert_eq!(r.score, Score::Mate(1));
    assert_eq!(r.best.unwrap().to_string(), "a0a8");
    pv_mates(&pos, &r.pv, 1);
}

#[test]
fn mate_in_two() {
    let fen = "4k4/9/9/9/9/9/9/9/9/R2K4R w";
    let (pos, r) = search(fen, 6);
    assert!(!forced_win_within(&pos, 1));
    assert!(forced_win_within(&pos, 2));
    assert_eq!(r.score, Score::Mate(2));
    pv_mates(&pos, &r.pv, 2);
}

#[test]
fn mate_in_three() {
    let fen = "3k5/4a4/9/9/9/9/9/9/4C4/R3K4 w";
    let (pos, r) = search(fen, 8);
    assert!(!forced_win_within(&pos, 2));
    assert_eq!(r.score, Score::Mate(3));
    pv_mates(&pos, &r.pv, 3);
}

#[test]
fn helper_threads_find_the_same_mates() {
    let fen = "3k5/4a4/9/9/9/9/9/9/4C4/R3K4 w";
    let pos = Position::from_fen(fen).unwrap();
    for threads in [2, 3] {
        let mut engine = Engine::new(4);
        engine.set_own_book(false);
        engine.set_threads(threads);
        assert_eq!(engine.threads(), threads);
        let r = engine.search_position(&pos, &Limits::depth(8));
        assert_eq!(r.score, Score::Mate(3), "{threads} threads");
        pv_mates(&pos, &r.pv, 3);
    }
}

#[test]
fn helper_threads_count_in_node_limits_and_stop() {
    let game = Game::new();
    let mut engine = Engine::new(4);
    engine.set_own_book(false);
    engine.set_threads(2);
    let stop = AtomicBool::new(false);
    let mut reported = 0;
    let r = engine.search(&game, &Limits::nodes(200_000), &stop, &|| 0, &mut |i| {
        reported = i.nodes
    });
    assert!(game.legal_moves().contains(r.best.unwrap()));
    // Each thread adds its count every 1024 nodes and stops once the total
    // is over: the limit is kept to that.
    assert!(r.nodes <= 200_000 + 2 * 2 * 1024, "{}", r.nodes);
    assert!(
        r.nodes >= reported && reported > 0,
        "{} {reported}",
        r.nodes
    );
    // A search stopped before it starts still answers, helpers and all.
    let stop = AtomicBool::new(true);
    let r = engine.search(&game, &Limits::depth(30), &stop, &|| 0, &mut |_| {});
    assert!(game.legal_moves().contains(r.best.unwrap()));
    engine.set_threads(0);
    assert_eq!(engine.threads(), 1);
    engine.set_threads(usize::MAX);
    assert_eq!(engine.threads(), MAX_THREADS);
}

#[test]
fn sees_being_mated() {
    // Black to move in the mate-in-two position after Red's first move.
    let (_, r) = search("4k4/R8/9/9/9/9/9/9/9/3K4R b", 6);
    assert_eq!(r.score, Score::Mate(-1));
}

#[test]
fn stop_flag_and_node_limit() {
    let game = Game::new();
    let mut engine = Engine::new(1);
    engine.set_own_book(false);
    let stop = AtomicBool::new(true);
    let r = engine.search(&game, &Limits::depth(30), &stop, &|| 0, &mut |_| {});
    assert!(game.legal_moves().contains(r.best.unwrap()));
    let stop = AtomicBool::new(false);
    let r = engine.search(&game, &Limits::nodes(5000), &stop, &|| 0, &mut |_| {});
    assert!(r.nodes <= 5001, "{}", r.nodes);
    assert!(game.legal_moves().contains(r.best.unwrap()));
}

#[test]
fn movetime_uses_the_injected_clock() {
    let game = Game::new();
    let mut engine = Engine::new(1);
    engine.set_own_book(false);
    let stop = AtomicBool::new(false);
    // A fake clock that advances one millisecond per call.
    let t = Cell::new(0u64);
    let clock = || {
        t.set(t.get() + 1);
        t.get()
    };
    let mut infos: Vec<SearchInfo> = Vec::new();
    let r = engine.search(&game, &Limits::movetime(50), &stop, &clock, &mut |i| {
        infos.push(i.clone())
    });
    assert!(r.best.is_some());
    assert!(!infos.is_empty());
    assert!(infos.windows(2).all(|w| w[0].depth < w[1].depth));
}

#[test]
fn book_moves_and_switch() {
    // The shipped book must parse completely (builtin() falls back to empty).
    assert!(Book::parse(include_str!("../src/engine/book.txt")).is_ok());
    assert!(Book::parse(include_str!("../src/engine/book_seed.txt")).is_ok());
    let book = Book::builtin();
    assert!(book.len() > 50);
    let start = Position::startpos();
    assert!(!book.probe(&start).is_empty());
    let mut engine = Engine::new(1);
    let game = Game::new();
    let stop = AtomicBool::new(false);
    let r = engine.search(&game, &Limits::depth(2), &stop, &|| 0, &mut |_| {});
    assert!(r.from_book);
    assert!(game.legal_moves().contains(r.best.unwrap()));
    engine.set_own_book(false);
    let r = engine.search(&game, &Limits::depth(2), &stop, &|| 0, &mut |_| {});
    assert!(!r.from_book);
    assert!(Book::parse("h2e2 zz").is_err());
    assert_eq!(Book::parse("x: h2e2").unwrap_err().line, 1);
}

/// The same position with colours swapped (board turned around, other side to move).
fn colour_flip(fen: &str) -> String {
    let mut parts = fen.split_whitespace();
    let board: Vec<String> = parts
        .next()
        .unwrap()
        .split('/')
        .rev()
        .map(|r| {
            r.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let turn = if parts.next() == Some("b") { "w" } else { "b" };
    format!("{} {turn}", board.join("/"))
}

#[test]
fn evaluation_is_colour_symmetric() {
    for fen in [
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    ] {
        let p = Position::from_fen(fen).unwrap();
        let q = Position::from_fen(&colour_flip(fen)).unwrap();
        assert_eq!(evaluate(&p), evaluate(&q), "{fen}");
        assert_eq!(p.legal_moves().len(), q.legal_moves().len());
    }
}

#[test]
fn evaluation_is_symmetric() {
    for fen in [
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    ] {
        let p = Position::from_fen(fen).unwrap();
        assert_eq!(evaluate(&p), evaluate(&p.mirror()));
    }
}

#[test]
fn avoids_losing_by_perpetual_check() {
    // Red could keep checking forever from f1/e1, which loses under the rules,
    // and has a winning alternative; the engine must not keep repeating checks.
    let mut game = Game::from_position(Position::from_fen("5k3/9/9/9/9/9/9/9/R8/3K5 w").unwrap());
    for m in ["a1f1", "f9e9", "f1e1", "e9f9"] {
        game.play(Move::parse_iccs(m).unwrap()).unwrap();
    }
    let mut engine = Engine::new(1);
    engine.set_own_book(false);
    let stop = AtomicBool::new(false);
    let r = engine.search(&game, &Limits::depth(6), &stop, &|| 0, &mut |_| {});
    assert_ne!(r.best.unwrap().to_string(), "e1f1");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn never_an_illegal_move(choices in prop::collection::vec(any::<u16>(), 0..60), depth in 1u32..4) {
        let mut game = Game::new();
        for c in choices {
            let moves = game.legal_moves();
            if moves.is_empty() { break; }
            game.play(moves[c as usize % moves.len()]).unwrap();
        }
        let mut engine = Engine::new(1);
        engine.set_own_book(false);
        let stop = AtomicBool::new(false);
        let r = engine.search(&game, &Limits::depth(depth), &stop, &|| 0, &mut |_| {});
        let legal = game.legal_moves();
        match r.best {
            Some(m) => prop_assert!(legal.contains(m)),
            None => prop_assert!(legal.is_empty()),
        }
        // The principal variation is a legal sequence.
        let mut p = game.position().clone();
        for m in r.pv {
            prop_assert!(p.play(m).is_ok());
        }
    }
}

#[test]
fn avoids_losing_by_perpetual_chase() {
    // Red is behind and would welcome a draw, but repeating by chasing the
    // unprotected cannon again (h6h5) loses under the rules.
    let fen = "n1bk2b2/4a4/9/9/c8/9/9/7R1/9/4K4 w";
    let mut game = Game::from_position(Position::from_fen(fen).unwrap());
    for m in ["h2h5", "a5a6", "h5h6", "a6a5"] {
        game.play(Move::parse_iccs(m).unwrap()).unwrap();
    }
    let mut engine = Engine::new(1);
    engine.set_own_book(false);
    let stop = AtomicBool::new(false);
    let r = engine.search(&game, &Limits::depth(5), &stop, &|| 0, &mut |_| {});
    assert_ne!(r.best.unwrap().to_string(), "h6h5");
}

#[test]
fn skill_levels_limit_depth_and_stay_legal() {
    let game = Game::new();
    let stop = AtomicBool::new(false);
    for level in [0u8, 5, 10, 19] {
        let mut engine = Engine::new(1);
        engine.set_own_book(false);
        engine.set_skill_level(level);
        assert_eq!(engine.skill_level(), level);
        let r = engine.search(&game, &Limits::depth(4), &stop, &|| 0, &mut |_| {});
        assert!(
            r.depth <= 1 + level as u32 / 2,
            "level {level} depth {}",
            r.depth
        );
        assert!(game.legal_moves().contains(r.best.unwrap()));
    }
    // Weak play still takes a free mate in one.
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K3R w").unwrap();
    let mut engine = Engine::new(1);
    engine.set_skill_level(0);
    let r = engine.search_position(&pos, &Limits::depth(5));
    assert_eq!(r.score, Score::Mate(1));
}

#[test]
fn book_lines_extend_by_analysis() {
    let mut engine = Engine::new(1);
    let text = "# seed\n2: h2e2 h9g7 # central cannon\n";
    let out = Book::extend_lines(text, &mut engine, &Limits::depth(2), 2).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "# seed");
    assert!(lines[1].starts_with("2: h2e2 h9g7 "), "{out}");
    assert!(lines[1].ends_with(" # central cannon"), "{out}");
    assert_eq!(lines[1].split_whitespace().count(), 1 + 4 + 3);
    let book = Book::parse(&out).unwrap();
    assert!(!book.probe(&Position::startpos()).is_empty());
    assert!(Book::extend_lines("h2e3", &mut engine, &Limits::depth(1), 1).is_err());
}

#[test]
fn banned_and_restricted_root_moves() {
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K3R w").unwrap();
    let game = Game::from_position(pos.clone());
    let mut engine = Engine::new(1);
    let stop = AtomicBool::new(false);
    let mate = Move::parse_iccs("a0d0").unwrap();
    let limits = Limits {
        depth: Some(3),
        ban_moves: vec![mate],
        ..Limits::default()
    };
    let r = engine.search(&game, &limits, &stop, &|| 0, &mut |_| {});
    assert_ne!(r.best, Some(mate));
    assert!(pos.legal_moves().contains(r.best.unwrap()));
    let only = Move::parse_iccs("i0i1").unwrap();
    let limits = Limits {
        depth: Some(3),
        search_moves: vec![only],
        ..Limits::default()
    };
    let r = engine.search(&game, &limits, &stop, &|| 0, &mut |_| {});
    assert_eq!(r.best, Some(only));
    assert!(engine.hashfull() <= 1000);
    // Everything banned: nothing to play, and no claim of being mated.
    let limits = Limits {
        depth: Some(2),
        ban_moves: pos.legal_moves().to_vec(),
        ..Limits::default()
    };
    let r = engine.search(&game, &limits, &stop, &|| 0, &mut |_| {});
    assert_eq!(r.best, None);
    assert_eq!(r.score, Score::Cp(0));
}

#[test]
fn types_can_move_to_worker_threads() {
    fn send<T: Send>() {}
    fn sync<T: Sync>() {}
    send::<Engine>();
    send::<Game>();
    sync::<Game>();
    send::<Limits>();
    send::<xiangqi::engine::SearchInfo>();
}

#[test]
fn search_knows_the_move_limit() {
    // Red is a chariot up, but 119 plies have passed without a capture: any
    // quiet move draws, so the engine must capture the horse to keep winning.
    let fen = "3k5/9/9/9/9/9/n8/9/R8/4K4 w - - 119 80";
    let (_, r) = search(fen, 3);
    assert_eq!(r.best.unwrap().to_string(), "a1a3");
    let (_, r) = search("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 119 80", 3);
    assert_eq!(r.score, Score::Cp(0));
}

#[test]
fn forced_move_on_the_clock_is_instant() {
    // Red is in check from the chariot on e7 and has a single legal reply.
    let pos = Position::from_fen("3k5/9/4r4/9/9/9/9/9/9/4K4 w").unwrap();
    assert_eq!(pos.legal_moves().len(), 1);
    let game = Game::from_position(pos);
    let mut engine = Engine::new(1);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        time: Some(60_000),
        ..Limits::default()
    };
    let r = engine.search(&game, &limits, &stop, &|| 0, &mut |_| {});
    assert_eq!(r.depth, 1);
    assert_eq!(r.best.unwrap().to_string(), "e0f0");
}

#[test]
fn known_draws_are_scored_near_zero() {
    for fen in [
        // Lone chariot against full defenders.
        "2bak4/4a4/4b4/9/9/9/9/9/9/3K1R3 w",
        // A single horse against full defenders.
        "2bak4/4a4/4b4/9/9/9/9/9/4N4/4K4 w",
        // A single soldier against two advisors.
        "3k1a3/4a4/9/9/4P4/9/9/9/9/5K3 w",
        // Chariot against chariot.
        "4k4/9/9/9/r8/9/9/9/9/3K1R3 w",
    ] {
        let v = evaluate(&Position::from_fen(fen).unwrap());
        assert!(v.abs() < 150, "{fen}: {v}");
    }
    // A chariot against a bare general, or a horse against one advisor, can win.
    let v = evaluate(&Position::from_fen("3k5/9/9/9/9/9/9/9/9/4KR3 w").unwrap());
    assert!(v > 500, "{v}");
    let v = evaluate(&Position::from_fen("3k5/4a4/9/9/9/9/9/9/4N4/4K4 w").unwrap());
    assert!(v > 200, "{v}");
}

#[test]
fn lines_through_the_general_are_weighed() {
    // (position, Red to move; the weight that applies to it, against Black
    // unless said otherwise).
    for (fen, weight, against_red) in [
        // An enemy cannon behind Black's advisor and elephant: both pinned.
        ("4k4/4a4/4b4/9/9/9/9/4C4/9/4K4 w", param::PIN_CANNON, false),
        // Black's advisor pinned by Red's chariot.
        ("4k4/4a4/9/9/9/9/9/4R4/9/3K5 w", param::PIN_CHARIOT, false),
        // Red's horse in front of Red's chariot on Black's file: a discovered check.
        ("4k4/9/9/9/9/9/9/4N4/9/3KR4 w", param::DISCOVERED, false),
        // Red's cannon facing Black's general along the back rank.
        ("4k3C/9/9/9/9/9/9/9/9/3K5 w", param::HOLLOW_RANK, false),
        // Red's horse on its palace centre square.
        ("3k5/9/9/9/9/9/9/9/4N4/4K4 w", param::HEART_HORSE, true),
        // Red's horse reaching into Black's palace (d7 from b6).
        ("5k3/9/9/1N7/9/9/9/9/9/3K5 w", param::HORSE_PALACE, false),
    ] {
        let pos = Position::from_fen(fen).unwrap();
        // The term alone decides the difference between a weight of 50 and
        // none, whatever weight the engine plays with (tuning may set it
        // to anything, even a negative value).
        let (mut with, mut without) = (PARAMS, PARAMS);
        with[weight] = 50;
        without[weight] = 0;
        let diff = evaluate_with(&pos, &with) - evaluate_with(&pos, &without);
        let expected = if against_red { -50 } else { 50 };
        assert_eq!(diff, expected, "{fen}");
        assert_eq!(evaluate(&pos), evaluate_with(&pos, &PARAMS), "{fen}");
    }
}

/// Game 10 of the 500 ms match against Fairy-Stockfish 11.1 (Ludus Black):
/// Red's king shuffles f1/f2 while Black's chariot checks from c1/c2.
const PERPETUAL_GAME: &str = "c0e2 h7e7 b0c2 h9g7 h2g2 g6g5 g2g5 b7c7 g5g6 c7c3 b2b8 c3g3 \
    a0b0 i9h9 h0g2 c6c5 i0i1 f9e8 i1f1 h9h6 g6g4 h6h2 g0i2 g3a3 g4g9 a3i3 b0b4 i3g3 b4g4 \
    h2g2 g4g7 g2e2 f0e1 e2c2 g9i9 e8f7 g7g9 e9e8 g9g8 e8e9 f1f7 e7b7 e0f0 b7b0 f0f1 g3f3 \
    f7f3 b0b1 e1f0 c2c1 f1f2 c1c2 f2f1 c2c1 f1f2 c1c2 f2f1";

fn game_after(moves: &str, plies: usize) -> Game {
    let mut game = Game::new();
    for m in moves.split_whitespace().take(plies) {
        game.play_text(m).unwrap();
    }
    game
}

fn search_game(game: &Game, depth: u32) -> xiangqi::engine::SearchResult {
    let mut engine = Engine::new(4);
    engine.set_own_book(false);
    let stop = AtomicBool::new(false);
    engine.search(game, &Limits::depth(depth), &stop, &|| 0, &mut |_| {})
}

/// Regression: losing by perpetual check was scored `±(20000 - ply)`, above
/// any mate, so a lost side chose the repeating check `c1c2` (reported as
/// `cp -19999`) and lost by the rules at once. A rule loss is a loss: it is
/// scored like a mate at that ply, and the engine resists longest.
#[test]
fn perpetual_check_is_not_preferred_to_a_longer_defence() {
    let game = game_after(PERPETUAL_GAME, 55);
    assert!(game.result().is_none());
    let r = search_game(&game, 8);
    let best = r.best.unwrap();
    assert_ne!(best.to_string(), "c1c2", "chose the perpetual check");
    // Black is mated in two anyway, and the score says so (not cp ±19999).
    assert!(matches!(r.score, Score::Mate(n) if n < 0), "{:?}", r.score);
    // The move played does not end the game by repetition.
    let mut g = game.clone();
    g.play(best).unwrap();
    assert!(g.result().is_none());
}

/// The side being checked perpetually wins by the rules, and says so as a mate.
#[test]
fn perpetual_check_by_the_opponent_reports_a_win() {
    let game = game_after(PERPETUAL_GAME, 56);
    let r = search_game(&game, 6);
    assert!(matches!(r.score, Score::Mate(n) if n > 0), "{:?}", r.score);
}

/// With a perpetual check available and a playable alternative, the engine
/// does not repeat: Red's chariot has checked from a9 and a8 while the black
/// general stepped f9-f8-f9; `a8a9` would repeat the position after the first
/// check, which loses for the checker, while Red is not lost otherwise.
#[test]
fn perpetual_check_avoided_when_not_lost() {
    let pos = Position::from_fen("5k3/9/R8/9/9/2n1c4/9/9/9/3K5 w - - 0 1").unwrap();
    let mut game = Game::from_position(pos);
    for m in ["a7a9", "f9f8", "a9a8", "f8f9"] {
        game.play_text(m).unwrap();
    }
    for depth in 1..=8 {
        let r = search_game(&game, depth);
        assert_ne!(r.best.unwrap().to_string(), "a8a9", "depth {depth}");
        assert!(
            matches!(r.score, Score::Cp(_)),
            "depth {depth}: {:?}",
            r.score
        );
    }
}
