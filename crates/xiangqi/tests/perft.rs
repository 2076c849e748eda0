//! Perft counts against the reference data in `tests/data/perft.txt`.
#![allow(clippy::unwrap_used)]

use xiangqi::{Position, perft, perft_divide};

struct Case {
    id: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/perft.txt");
    let mut out: Vec<Case> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(id) = line.strip_prefix("id ") {
            out.push(Case {
                id: id.to_string(),
                fen: String::new(),
                counts: Vec::new(),
            });
        } else if let Some(fen) = line.strip_prefix("fen ") {
            out.last_mut().unwrap().fen = fen.to_string();
        } else if let Some(p) = line.strip_prefix("perft ") {
            let mut it = p.split_whitespace();
            let d = it.next().unwrap().parse().unwrap();
            let n = it.next().unwrap().parse().unwrap();
            out.last_mut().unwrap().counts.push((d, n));
        }
    }
    assert!(out.len() >= 10, "perft data should hold many positions");
    out
}

fn check(max_nodes: u64, min_nodes: u64) {
    for case in cases() {
        let mut pos = Position::from_fen(&case.fen).unwrap();
        for &(depth, expected) in &case.counts {
            if expected > max_nodes || expected < min_nodes {
                continue;
            }
            let got = perft(&mut pos, depth);
            assert_eq!(got, expected, "{} depth {depth}", case.id);
        }
        assert_eq!(
            pos.to_fen(),
            Position::from_fen(&case.fen).unwrap().to_fen()
        );
    }
}

#[test]
fn perft_small_depths() {
    check(2_000_000, 0);
}

/// Every count in the data file (about 700 million nodes; release mode).
#[test]
#[ignore]
fn perft_all_depths() {
    check(u64::MAX, 2_000_001);
}

#[test]
fn divide_sums_to_perft() {
    let mut pos = Position::startpos();
    let parts = perft_divide(&mut pos, 3);
    assert_eq!(parts.len(), 44);
    assert_eq!(parts.iter().map(|p| p.1).sum::<u64>(), 79666);
}

/// `in_check_after` (a table lookup for most moves) agrees with `in_check`
/// after every legal move, three plies deep from each reference position.
#[test]
fn in_check_after_agrees_with_in_check() {
    fn walk(pos: &mut Position, depth: u32) {
        for &m in pos.legal_moves().iter() {
            let undo = pos.make_move(m);
            assert_eq!(pos.in_check_after(m), pos.in_check(), "{m} in {pos:?}");
            if depth > 1 {
                walk(pos, depth - 1);
            }
            pos.unmake_move(m, undo);
        }
    }
    for case in cases() {
        let mut pos = Position::from_fen(&case.fen).unwrap();
        walk(&mut pos, 3);
    }
}
