//! Cross-checks the fast move generator against a slow, obviously-correct one
//! written straight from the rules, in random positions.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use xiangqi::{Color, Position, Role, Square};

type Board = [[Option<(Color, Role)>; 9]; 10];

fn board_of(pos: &Position) -> Board {
    let mut b = [[None; 9]; 10];
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            b[sq.rank() as usize][sq.file() as usize] = Some((p.color, p.role));
        }
    }
    b
}

fn in_palace(c: Color, f: i32, r: i32) -> bool {
    (3..=5).contains(&f)
        && match c {
            Color::Red => (0..=2).contains(&r),
            Color::Black => (7..=9).contains(&r),
        }
}

fn on_board(f: i32, r: i32) -> bool {
    (0..9).contains(&f) && (0..10).contains(&r)
}

fn at(b: &Board, f: i32, r: i32) -> Option<(Color, Role)> {
    b[r as usize][f as usize]
}

/// All moves by the rules of movement, ignoring general safety.
fn pseudo(b: &Board, us: Color) -> Vec<((i32, i32), (i32, i32))> {
    let mut out = Vec::new();
    for r in 0..10 {
        for f in 0..9 {
            let Some((c, role)) = at(b, f, r) else {
                continue;
            };
            if c != us {
                continue;
            }
            let mut targets: Vec<(i32, i32)> = Vec::new();
            let fwd = if us == Color::Red { 1 } else { -1 };
            match role {
                Role::General => {
                    for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                        if in_palace(us, f + df, r + dr) {
                            targets.push((f + df, r + dr));
                        }
                    }
                }
                Role::Advisor => {
                    for (df, dr) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                        if in_palace(us, f + df, r + dr) {
                            targets.push((f + df, r + dr));
                        }
                    }
                }
                Role::Elephant => {
                    for (df, dr) in [(2, 2), (-2, 2), (2, -2), (-2, -2)] {
                        let (tf, tr) = (f + df, r + dr);
                        let own_side = if us == Color::Red { tr <= 4 } else { tr >= 5 };
                        if on_board(tf, tr) && own_side && at(b, f + df / 2, r + dr / 2).is_none() {
                            targets.push((tf, tr));
                        }
                    }
                }
                Role::Horse => {
                    for (df, dr) in [
                        (1, 2),
                        (-1, 2),
                        (1, -2),
                        (-1, -2),
                        (2, 1),
                        (2, -1),
                        (-2, 1),
                        (-2, -1),
                    ] {
                        let leg = if i32::abs(dr) == 2 {
                            (f, r + dr / 2)
                        } else {
                            (f + df / 2, r)
                        };
                        if on_board(f + df, r + dr) && at(b, leg.0, leg.1).is_none() {
                            targets.push((f + df, r + dr));
                        }
                    }
                }
                Role::Chariot | Role::Cannon => {
                    for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                        let (mut x, mut y) = (f + df, r + dr);
                        let mut screens = 0;
                        while on_board(x, y) {
                            match (at(b, x, y), role, screens) {
                                (None, _, 0) => targets.push((x, y)),
                                (None, _, _) => {}
                                (Some(_), Role::Chariot, _) => {
                                    targets.push((x, y));
                                    break;
                                }
                                (Some(_), _, 0) => screens = 1,
                                (Some(_), _, _) => {
                                    targets.push((x, y));
                                    break;
                                }
                            }
                            x += df;
                            y += dr;
                        }
                    }
                }
                Role::Soldier => {
                    targets.push((f, r + fwd));
                    let crossed = if us == Color::Red { r >= 5 } else { r <= 4 };
                    if crossed {
                        targets.push((f + 1, r));
                        targets.push((f - 1, r));
                    }
                }
            }
            for (tf, tr) in targets {
                if on_board(tf, tr) && at(b, tf, tr).is_none_or(|(c, _)| c != us) {
                    out.push(((f, r), (tf, tr)));
                }
            }
        }
    }
    out
}

fn general_exposed(b: &Board, us: Color) -> bool {
    let find = |c: Color| {
        (0..10)
            .flat_map(|r| (0..9).map(move |f| (f, r)))
            .find(|&(f, r)| at(b, f, r) == Some((c, Role::General)))
    };
    let (Some(g), Some(e)) = (find(us), find(!us)) else {
        return true;
    };
    // Flying general: same file, nothing between.
    if g.0 == e.0 {
        let (lo, hi) = (g.1.min(e.1), g.1.max(e.1));
        if (lo + 1..hi).all(|r| at(b, g.0, r).is_none()) {
            return true;
        }
    }
    pseudo(b, !us).iter().any(|&(_, t)| t == g)
}

fn reference_legal(pos: &Position) -> Vec<String> {
    let b = board_of(pos);
    let us = pos.turn();
    let mut out: Vec<String> = pseudo(&b, us)
        .into_iter()
        .filter(|&((f, r), (tf, tr))| {
            let mut after = b;
            after[tr as usize][tf as usize] = after[r as usize][f as usize];
            after[r as usize][f as usize] = None;
            !general_exposed(&after, us)
        })
        .map(|((f, r), (tf, tr))| {
            format!(
                "{}{}",
                Square::new(f as u8, r as u8).unwrap(),
                Square::new(tf as u8, tr as u8).unwrap()
            )
        })
        .collect();
    out.sort();
    out
}

fn fast_legal(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

#[test]
fn agrees_on_the_perft_positions() {
    for line in include_str!("data/perft.txt").lines() {
        if let Some(fen) = line.strip_prefix("fen ") {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(fast_legal(&pos), reference_legal(&pos), "{fen}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn agrees_in_random_positions(start in 0usize..4, choices in prop::collection::vec(any::<u16>(), 0..150)) {
        let fens = [
            xiangqi::START_FEN,
            "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
            "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        ];
        let mut pos = Position::from_fen(fens[start]).unwrap();
        for c in choices {
            prop_assert_eq!(fast_legal(&pos), reference_legal(&pos), "{}", pos.to_fen());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[c as usize % moves.len()]).unwrap();
        }
    }
}
