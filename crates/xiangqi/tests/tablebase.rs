//! Endgame tablebases: index, generation against an independent search to
#![allow(clippy::unwrap_used)]
//! mate, known endgame theory, determinism and the file image.

use std::collections::HashMap;
use xiangqi::Position;
use xiangqi::tablebase::{Material, Report, Table, TableError, Tablebases, Verdict, generate};

/// Generates `names` and what they convert into, smallest first.
fn tables(names: &[&str]) -> Tablebases {
    let targets: Vec<Material> = names.iter().map(|n| Material::parse(n).unwrap()).collect();
    let mut tb = Tablebases::new();
    for m in Material::with_dependencies(&targets) {
        let t = generate(m, &tb, &mut |_| true).unwrap();
        tb.insert(t);
    }
    tb
}

fn probe(tb: &Tablebases, fen: &str) -> Verdict {
    tb.probe(&Position::from_fen(fen).unwrap()).unwrap()
}

const MATE: i32 = 1000;

/// Plain depth-limited minimax over the move generator: `MATE - d` if the side
/// to move mates within `depth` plies (in exactly `d` with best play),
/// `-(MATE - d)` if it is mated within `depth`, else 0. Nothing shared with
/// the generator but the move generator and the rules.
fn minimax(pos: &mut Position, depth: u32, memo: &mut HashMap<(u64, u32), i32>) -> i32 {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return -MATE;
    }
    if pos.has_insufficient_material() {
        return 0;
    }
    if depth == 0 {
        return 0;
    }
    if let Some(&v) = memo.get(&(pos.key(), depth)) {
        return v;
    }
    let mut best = -MATE - 1;
    for &m in moves.iter() {
        let undo = pos.make_move(m);
        let mut v = -minimax(pos, depth - 1, memo);
        pos.unmake_move(m, undo);
        if v > 0 {
            v -= 1;
        } else if v < 0 {
            v += 1;
        }
        best = best.max(v);
    }
    memo.insert((pos.key(), depth), best);
    best
}

/// What [`minimax`] to `depth` must say about a position of this verdict.
fn expected(v: Verdict, depth: u32) -> i32 {
    match v {
        Verdict::Win(d) if d <= depth => MATE - d as i32,
        Verdict::Loss(d) if d <= depth => -(MATE - d as i32),
        _ => 0,
    }
}

/// Positions of a table sampled every `step` indices that are legal (the
/// table's own decoding, checked again through FEN).
fn sample(tb: &Tablebases, name: &str, step: usize) -> Vec<(Position, Verdict)> {
    let m = Material::parse(name).unwrap();
    let table = tb.get(&m).unwrap();
    let mut out = Vec::new();
    for (i, _) in table.values().iter().enumerate().step_by(step) {
        if let Some(pos) = table.position(i as u64)
            && let Ok(pos) = Position::from_fen(&pos.to_fen())
            && let Some(v) = tb.probe(&pos)
        {
            out.push((pos, v));
        }
    }
    out
}

fn verify(tb: &Tablebases, name: &str, step: usize, depth: u32) {
    let mut memo = HashMap::new();
    let samples = sample(tb, name, step);
    assert!(samples.len() > 20, "{name}: only {} samples", samples.len());
    for (pos, v) in samples {
        let mut p = pos.clone();
        let got = minimax(&mut p, depth, &mut memo);
        assert_eq!(
            got,
            expected(v, depth),
            "{name} {} table says {v:?}",
            pos.to_fen()
        );
        // The mirror image and the colour-swapped position agree.
        assert_eq!(
            tb.probe(&pos.mirror()),
            Some(v),
            "mirror of {}",
            pos.to_fen()
        );
    }
}

#[test]
fn small_endings_agree_with_a_plain_search_to_mate() {
    let tb = tables(&["KR-K", "KH-K", "KC-KA", "KP-K"]);
    verify(&tb, "KR-K", 37, 5);
    verify(&tb, "KH-K", 97, 5);
    verify(&tb, "KC-KA", 211, 4);
    verify(&tb, "KP-K", 23, 5);
}

#[test]
fn near_mates_agree_with_a_plain_search_to_mate() {
    // Positions with short mates are the ones a shallow search can check.
    let tb = tables(&["KR-K", "KP-K"]);
    let mut memo = HashMap::new();
    for name in ["KR-K", "KP-K"] {
        let mut checked = 0;
        for (pos, v) in sample(&tb, name, 3) {
            if v.plies().is_some_and(|d| d <= 5) {
                let mut p = pos.clone();
                assert_eq!(
                    minimax(&mut p, 5, &mut memo),
                    expected(v, 5),
                    "{}",
                    pos.to_fen()
                );
                checked += 1;
            }
            if checked >= 300 {
                break;
            }
        }
        assert!(checked > 50, "{name}: {checked}");
    }
}

#[test]
fn known_endgame_theory() {
    let tb = tables(&["KR-K", "KH-K", "KC-K", "KP-K", "KR-KA", "KH-KAA"]);
    let stats = |n: &str| tb.get(&Material::parse(n).unwrap()).unwrap().stats();
    // A chariot wins against a bare general from every position where
    // Black to move cannot take it at once.
    let r = probe(&tb, "4k4/9/9/9/9/9/9/9/9/R2K5 w");
    assert!(matches!(r, Verdict::Win(_)), "{r:?}");
    assert!(stats("KR-K").wins > stats("KR-K").draws * 10);
    // A cannon alone has no screen: it cannot mate, so it never wins.
    assert_eq!(stats("KC-K").wins, 0);
    // A horse against two advisors mostly draws.
    let h = stats("KH-KAA");
    assert!(h.draws > h.wins, "{h:?}");
    // A soldier against a bare general wins while it can still reach the
    // palace... (here on its seventh rank, the general helping).
    let p = probe(&tb, "3k5/9/4P4/9/9/9/9/9/9/4K4 w");
    assert!(matches!(p, Verdict::Win(_)), "{p:?}");
    // Even a soldier that has not crossed the river gets there and wins.
    let home = probe(&tb, "4k4/9/9/9/9/9/P8/9/9/3K5 w");
    assert!(matches!(home, Verdict::Win(d) if d > 9), "{home:?}");
    // ...but a soldier that has reached the last rank (the "old soldier")
    // against a general on its back rank cannot mate.
    let old = probe(&tb, "P2k5/9/9/9/9/9/9/9/9/5K3 w");
    assert_eq!(old, Verdict::Draw);
    // Black as the stronger side is probed with colours swapped.
    let black = probe(&tb, "4k3r/9/9/9/9/9/9/9/9/3K5 b");
    assert!(matches!(black, Verdict::Win(_)), "{black:?}");
    // Mated now: a loss in 0.
    assert_eq!(probe(&tb, "3k5/9/9/9/3R5/9/9/9/9/4K4 b"), Verdict::Loss(0));
    assert_eq!(
        Report::new(
            probe(&tb, "3k5/9/9/9/3R5/9/9/9/9/4K4 b"),
            xiangqi::Color::Black
        )
        .to_string(),
        "Red has won"
    );
}

#[test]
fn quickest_win_and_longest_defence() {
    let tb = tables(&["KR-K"]);
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
    let (v, moves) = tb.best_moves(&pos).unwrap();
    let Verdict::Win(d) = v else { panic!("{v:?}") };
    assert!(!moves.is_empty());
    for m in moves {
        let mut p = pos.clone();
        p.make_move(m);
        assert_eq!(tb.probe(&p), Some(Verdict::Loss(d - 1)));
    }
    let ranked = tb.rank_moves(&pos).unwrap();
    assert_eq!(ranked[0].1, v);
    assert_eq!(
        Report::new(v, xiangqi::Color::Red).to_string(),
        format!("Red wins in {}", d.div_ceil(2))
    );
}

#[test]
fn index_is_a_bijection_over_canonical_legal_positions() {
    for name in ["KR-K", "KP-KA", "KHC-K", "KR-KAE"] {
        let m = Material::parse(name).unwrap();
        let tb = tables(&[name]);
        let table = tb.get(&m).unwrap();
        let mut used = 0;
        for i in 0..table.len() as u64 {
            if let Some(pos) = table.position(i) {
                let canon = table.index(&pos).unwrap();
                // Both a position and its mirror image land on one index.
                assert_eq!(table.index(&pos.mirror()), Some(canon), "{name} {i}");
                if canon == i && !pos.is_check(!pos.turn()) {
                    used += 1;
                    assert!(table.values()[i as usize] != 255, "{name} {i} unused");
                } else {
                    assert_eq!(table.values()[i as usize], 255, "{name} {i} used");
                }
            }
        }
        assert!(used > table.len() / 3, "{name}: {used} of {}", table.len());
    }
}

#[test]
fn generation_is_deterministic_and_round_trips_through_bytes() {
    let a = tables(&["KH-KA"]);
    let b = tables(&["KH-KA"]);
    let m = Material::parse("KH-KA").unwrap();
    let (ta, tb) = (a.get(&m).unwrap(), b.get(&m).unwrap());
    assert_eq!(ta.values(), tb.values());
    let bytes = ta.to_bytes();
    let back = Table::from_bytes(&bytes).unwrap();
    assert_eq!(back.values(), ta.values());
    assert_eq!(back.material(), m);
    // Every kind of damage is caught.
    let mut bad = bytes.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    assert_eq!(Table::from_bytes(&bad).unwrap_err(), TableError::Checksum);
    assert_eq!(
        Table::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err(),
        TableError::Truncated
    );
    assert_eq!(
        Table::from_bytes(b"nonsense").unwrap_err(),
        TableError::BadMagic
    );
    assert_eq!(Table::from_bytes(&[]).unwrap_err(), TableError::Truncated);
    let mut v2 = bytes.clone();
    v2[8] = 2;
    assert_eq!(Table::from_bytes(&v2).unwrap_err(), TableError::Version(2));
}

#[test]
fn material_names() {
    let m = Material::parse("krh-kaaee").unwrap();
    assert_eq!(m.to_string(), "KRH-KAAEE");
    assert_eq!(m.pieces(), 8);
    assert_eq!(
        Material::parse("KA-KR").unwrap().canonical().to_string(),
        "KR-KA"
    );
    assert!(Material::parse("KR").is_err());
    assert!(Material::parse("RK-K").is_err());
    assert!(Material::parse("KX-K").is_err());
    assert!(Material::parse("KAAA-K").is_err());
    assert!(Material::parse(&"K".repeat(100)).is_err());
    let deps: Vec<String> = Material::parse("KRP-KA")
        .unwrap()
        .dependencies()
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(deps, ["KP-KA", "KR-KA", "KRP-K"]);
    let standard = Material::standard(4);
    assert!(standard.iter().any(|m| m.to_string() == "KRH-K"));
    assert!(standard.iter().any(|m| m.to_string() == "KR-KA"));
    assert!(standard.iter().any(|m| m.to_string() == "KR-KAAEE"));
    assert!(!standard.iter().any(|m| m.to_string() == "KRH-KA"));
}

#[test]
fn generation_needs_its_smaller_tables_first() {
    let m = Material::parse("KR-KA").unwrap();
    let err = generate(m, &Tablebases::new(), &mut |_| true).unwrap_err();
    assert_eq!(err.to_string(), "tablebase KR-K must be generated first");
    let cancelled = generate(
        Material::parse("KR-K").unwrap(),
        &Tablebases::new(),
        &mut |_| false,
    );
    assert!(cancelled.is_err());
}

/// The standard set up to `TB_MAX_PIECES` pieces (default 4), timed
/// (release: `TB_MAX_PIECES=5 cargo test --release -p xiangqi --test
/// tablebase standard_set -- --ignored --nocapture`).
#[test]
#[ignore]
fn standard_set_generates() {
    let max: u32 = std::env::var("TB_MAX_PIECES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4);
    let mut tb = Tablebases::new();
    let all = std::time::Instant::now();
    for m in Material::standard(max) {
        let t0 = std::time::Instant::now();
        let t = generate(m, &tb, &mut |_| true).unwrap();
        let s = t.stats();
        println!(
            "{m:>10} {:>10} positions {:>7.2}s  wins {} draws {} losses {} longest {}",
            t.len(),
            t0.elapsed().as_secs_f64(),
            s.wins,
            s.draws,
            s.losses,
            s.longest
        );
        tb.insert(t);
    }
    println!("{} tables in {:.1}s", tb.len(), all.elapsed().as_secs_f64());
}

/// Whole-depth check: every sampled position of endings with long mates
/// searched to beyond the longest mate (release, about a minute).
#[test]
#[ignore]
fn long_mates_agree_with_a_full_depth_search() {
    let tb = tables(&["KH-KE", "KH-KAA", "KP-KA"]);
    for name in ["KH-KE", "KH-KAA", "KP-KA"] {
        let longest = tb
            .get(&Material::parse(name).unwrap())
            .unwrap()
            .stats()
            .longest;
        let depth = longest + 2;
        let mut memo = HashMap::new();
        let samples = sample(&tb, name, 101);
        for (pos, v) in &samples {
            let mut p = pos.clone();
            assert_eq!(
                minimax(&mut p, depth, &mut memo),
                expected(*v, depth),
                "{name} {} table says {v:?}",
                pos.to_fen()
            );
        }
        println!("{name}: {} positions agree at depth {depth}", samples.len());
    }
}

mod engine {
    use super::*;
    use std::sync::Arc;
    use xiangqi::engine::{Engine, Limits, Score};

    fn engine_with(tb: Tablebases) -> Engine {
        let mut e = Engine::new(1);
        e.set_own_book(false);
        e.set_tablebases(Some(Arc::new(tb)));
        e
    }

    #[test]
    fn plays_the_quickest_mate_and_the_longest_defence_from_the_table() {
        let tb = tables(&["KR-K"]);
        let mut e = engine_with(tb.clone());
        let fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w";
        let pos = Position::from_fen(fen).unwrap();
        let Some((Verdict::Win(d), best)) = tb.best_moves(&pos) else {
            panic!()
        };
        let r = e.search_position(&pos, &Limits::depth(20));
        assert!(best.contains(&r.best.unwrap()), "{:?}", r.best);
        assert_eq!(r.score, Score::Mate(d.div_ceil(2) as i32));
        assert_eq!(r.pv.len() as u32, d, "{:?}", r.pv);
        // Black, lost, delays mate as long as it can.
        let mut after = pos.clone();
        after.make_move(r.best.unwrap());
        let Some((Verdict::Loss(l), longest)) = tb.best_moves(&after) else {
            panic!()
        };
        let r = e.search_position(&after, &Limits::depth(20));
        assert!(longest.contains(&r.best.unwrap()));
        assert_eq!(r.score, Score::Mate(-((l / 2) as i32)));
    }

    #[test]
    fn weaker_levels_do_not_use_the_tables() {
        let tb = tables(&["KR-K"]);
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
        let mut e = engine_with(tb);
        // Played from the table: no node searched.
        assert_eq!(e.search_position(&pos, &Limits::depth(3)).nodes, 0);
        e.set_skill_level(5);
        assert!(e.search_position(&pos, &Limits::depth(3)).nodes > 0);
    }

    #[test]
    fn probes_inside_the_search_after_a_capture() {
        // Red takes the horse and is left in KR-K: not covered at the root
        // (KR-KH has no table), a known mate after the capture.
        let tb = tables(&["KR-K"]);
        let fen = "3k5/9/9/9/9/3n4R/9/9/9/5K3 w";
        let pos = Position::from_fen(fen).unwrap();
        assert!(tb.probe(&pos).is_none());
        let mut with = engine_with(tb);
        let r = with.search_position(&pos, &Limits::depth(2));
        assert_eq!(r.best.unwrap().to_string(), "i4d4");
        assert!(matches!(r.score, Score::Mate(n) if n > 0), "{:?}", r.score);
        let mut without = Engine::new(1);
        without.set_own_book(false);
        let r = without.search_position(&pos, &Limits::depth(2));
        assert!(matches!(r.score, Score::Cp(_)), "{:?}", r.score);
    }

    #[test]
    fn a_drawn_root_keeps_to_drawing_moves() {
        // KH-KAA: most positions draw; the engine must not play into a loss.
        let tb = tables(&["KH-KAA"]);
        let fen = "3aka3/9/9/9/4N4/9/9/9/9/3K5 b";
        let pos = Position::from_fen(fen).unwrap();
        let ranked = tb.rank_moves(&pos).unwrap();
        assert_eq!(tb.probe(&pos), Some(Verdict::Draw));
        let mut e = engine_with(tb);
        let r = e.search_position(&pos, &Limits::depth(4));
        let m = r.best.unwrap();
        assert!(ranked.contains(&(m, Verdict::Draw)), "{m}");
    }
}

mod history {
    use super::*;
    use std::sync::Arc;
    use xiangqi::Game;
    use xiangqi::engine::{Engine, Limits, Score};

    #[test]
    fn the_repetition_rules_come_before_the_table() {
        // Red checks on every move of a cycle (chariot a8-a9-a8, Black's
        // general e9-e8-e9). At the cycle's last position Black, lost by the
        // table, repeats the start a third time and wins by the rules.
        let tb = tables(&["KR-K"]);
        let start = Position::from_fen("4k4/R8/9/9/9/9/9/9/9/3K5 w").unwrap();
        let mut game = Game::from_position(start);
        for m in ["a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8"] {
            game.play_text(m).unwrap();
        }
        assert!(game.result().is_none());
        assert!(matches!(tb.probe(game.position()), Some(Verdict::Loss(_))));
        let mut e = Engine::new(1);
        e.set_own_book(false);
        e.set_tablebases(Some(Arc::new(tb)));
        let stop = std::sync::atomic::AtomicBool::new(false);
        let r = e.search(&game, &Limits::depth(6), &stop, &|| 0, &mut |_| {});
        assert_eq!(r.best.unwrap().to_string(), "e8e9");
        assert_eq!(r.score, Score::Mate(1));
        game.play_text("e8e9").unwrap();
        assert_eq!(
            game.result().unwrap().outcome,
            xiangqi::Outcome::Win(xiangqi::Color::Black)
        );
    }
}

mod robustness {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Any bytes are refused with a reason or read; never a panic.
        #[test]
        fn any_bytes_are_a_table_or_an_error(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = Table::from_bytes(&bytes);
        }

        /// A real header with damage anywhere is refused.
        #[test]
        fn a_damaged_file_is_refused(at in 0usize..200, flip in 1u8..=255) {
            let tb = tables(&["KP-K"]);
            let bytes = tb.get(&Material::parse("KP-K").unwrap()).unwrap().to_bytes();
            let mut bad = bytes.clone();
            let i = at % bytes.len();
            bad[i] ^= flip;
            prop_assert!(Table::from_bytes(&bad).is_err(), "byte {} changed", i);
        }

        /// Any text is a signature or an error; a signature prints back to itself.
        #[test]
        fn any_text_is_a_signature_or_an_error(text in "[KRHCPAE-]{0,12}|\\PC{0,20}") {
            if let Ok(m) = Material::parse(&text) {
                prop_assert_eq!(Material::parse(&m.to_string()).unwrap(), m);
            }
        }
    }
}

/// What the tables add to play: won positions with long mates played out by
/// the engine without tables (50,000 nodes a move, the game's rules in force)
/// against the tables' longest defence; how many it mates within 120 plies
/// and how many plies it takes against the tables' distance (release: `cargo
/// test --release -p xiangqi --test tablebase without_tables -- --ignored
/// --nocapture`).
#[test]
#[ignore]
fn won_endings_played_without_tables() {
    use xiangqi::engine::{Engine, Limits};
    use xiangqi::{Color, Game, Outcome};
    for (name, min_plies) in [("KH-KA", 15), ("KR-KAEE", 9), ("KHP-K", 9), ("KCP-KA", 15)] {
        let tb = tables(&[name]);
        let table = tb.get(&Material::parse(name).unwrap()).unwrap();
        let mut positions = Vec::new();
        for i in (0..table.len()).step_by(101) {
            if let Some(pos) = table.position(i as u64)
                && pos.turn() == Color::Red
                && let Ok(pos) = Position::from_fen(&pos.to_fen())
                && matches!(tb.probe(&pos), Some(Verdict::Win(d)) if d >= min_plies)
            {
                positions.push(pos);
            }
            if positions.len() == 20 {
                break;
            }
        }
        let (mut mated, mut plies, mut optimal) = (0, 0, 0);
        for pos in &positions {
            let mut e = Engine::new(16);
            e.set_own_book(false);
            let mut game = Game::from_position(pos.clone());
            let stop = std::sync::atomic::AtomicBool::new(false);
            let limits = Limits {
                nodes: Some(50_000),
                ..Limits::default()
            };
            while game.result().is_none() && game.plies().len() < 120 {
                let m = if game.position().turn() == Color::Red {
                    e.search(&game, &limits, &stop, &|| 0, &mut |_| {})
                        .best
                        .unwrap()
                } else {
                    tb.best_moves(game.position()).unwrap().1[0]
                };
                game.play(m).unwrap();
            }
            if game
                .result()
                .is_some_and(|r| r.outcome == Outcome::Win(Color::Red))
            {
                mated += 1;
                plies += game.plies().len();
                optimal += tb.probe(pos).unwrap().plies().unwrap() as usize;
            }
        }
        println!(
            "{name} (mate in {min_plies}+ plies): {} won positions played without tables: mated {mated} in {plies} plies (tables: {optimal})",
            positions.len()
        );
    }
}
