//! Move generation: rule cases per piece and invariants over random positions.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use xiangqi::{Color, FenError, Position, Role, Square};

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

/// Legal destinations of the piece on `from`, sorted.
fn targets(fen: &str, from: &str) -> Vec<String> {
    let pos = Position::from_fen(fen).unwrap();
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.from == sq(from))
        .map(|m| m.to.to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn general_stays_in_palace() {
    assert_eq!(targets("5k3/9/9/9/9/9/9/9/9/3K5 w", "d0"), ["d1", "e0"]);
}

#[test]
fn flying_general_forbidden() {
    // Red general on d0 may not step to e0 facing the black general on the open e-file.
    assert_eq!(targets("4k4/9/9/9/9/9/9/9/9/3K5 w", "d0"), ["d1"]);
    // A piece between the generals is pinned to the file.
    assert!(targets("4k4/9/9/9/9/9/9/9/4N4/4K4 w", "e1").is_empty());
    let t = targets("4k4/4a4/9/9/9/9/9/9/4R4/4K4 w", "e1");
    assert_eq!(t.len(), 15);
}

#[test]
fn advisor_diagonal_in_palace() {
    assert_eq!(
        targets("4k4/9/9/9/9/9/9/9/4A4/3K5 w", "e1"),
        ["d2", "f0", "f2"]
    );
}

#[test]
fn elephant_eye_and_river() {
    // Elephant on e2 with its eye d3 blocked; c4 unreachable, and it never crosses.
    assert_eq!(
        targets("4k4/9/9/9/9/9/3P5/4B4/9/3K5 w", "e2"),
        ["c0", "g0", "g4"]
    );
    assert_eq!(targets("4k4/9/9/9/9/2B6/9/9/9/3K5 w", "c4"), ["a2", "e2"]);
}

#[test]
fn horse_leg() {
    // Horse on e4, leg e5 blocked: no moves to d6/f6.
    let t = targets("3k5/9/9/9/4p4/4N4/9/9/9/5K3 w", "e4");
    assert_eq!(t, ["c3", "c5", "d2", "f2", "g3", "g5"]);
}

#[test]
fn chariot_slides_and_captures() {
    let t = targets("3k5/9/9/9/9/4p4/9/9/9/R3K4 w", "a0");
    assert_eq!(t.len(), 9 + 3);
}

#[test]
fn cannon_needs_one_screen() {
    // Cannon on e0? No: cannon b2 with screen b5 and target b7.
    let t = targets("3k5/9/1n7/9/1P7/9/9/1C7/9/4K4 w", "b2");
    assert!(t.contains(&"b7".to_string()));
    assert!(!t.contains(&"b5".to_string()));
    assert!(t.contains(&"b4".to_string()) && t.contains(&"b3".to_string()));
}

#[test]
fn soldier_before_and_after_river() {
    assert_eq!(targets("5k3/9/9/9/9/9/4P4/9/9/3K5 w", "e3"), ["e4"]);
    assert_eq!(
        targets("5k3/9/9/9/4P4/9/9/9/9/3K5 w", "e5"),
        ["d5", "e6", "f5"]
    );
    assert_eq!(
        targets("5k3/9/9/9/9/4p4/9/9/9/3K5 b", "e4"),
        ["d4", "e3", "f4"]
    );
}

#[test]
fn check_evasions() {
    // Red in check from a chariot on e9? Black chariot e7 gives check along the e-file.
    let pos = Position::from_fen("3k5/9/4r4/9/9/9/9/9/9/4K4 w").unwrap();
    assert!(pos.in_check());
    let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    // e1 stays on the checked file and d0 faces the black general: only f0.
    assert_eq!(moves, ["e0f0"]);
    // Cannon check answered by a block, capture of the screen being impossible, or stepping aside.
    let pos = Position::from_fen("3k5/9/9/4c4/9/9/4P4/9/9/3AK4 w").unwrap();
    assert!(pos.in_check());
    for m in pos.legal_moves().iter() {
        let mut p = pos.clone();
        p.play(*m).unwrap();
        assert!(!p.is_check(Color::Red));
    }
}

#[test]
fn stalemate_has_no_moves() {
    // Black general on d9 hemmed in: no legal move.
    let pos = Position::from_fen("3k5/4R4/3P5/9/9/9/9/9/9/4K4 b").unwrap();
    assert!(!pos.in_check());
    assert!(pos.legal_moves().is_empty());
}

#[test]
fn fen_errors() {
    use FenError::*;
    let e = |f: &str| Position::from_fen(f).unwrap_err();
    assert_eq!(e(""), Empty);
    assert_eq!(e("9/9 w"), RankCount(2));
    assert!(matches!(
        e("4k4/9/9/9/9/9/9/9/9/4K3 w"),
        RankLength { rank: 10, files: 8 }
    ));
    assert!(matches!(
        e("4k4/9/9/9/9/9/9/9/9/4K3x w"),
        UnknownChar { rank: 10, ch: 'x' }
    ));
    assert!(matches!(
        e("4k4/9/9/9/9/9/9/9/9/3KK4 w"),
        GeneralCount {
            color: Color::Red,
            count: 2
        }
    ));
    assert!(matches!(
        e("4k4/9/9/9/9/9/9/9/9/9 w"),
        GeneralCount {
            color: Color::Red,
            count: 0
        }
    ));
    assert!(matches!(e("3k5/9/9/9/9/9/9/9/K8/9 w"), BadSquare { .. }));
    assert!(matches!(e("3k5/9/9/9/9/9/9/9/9/3KA4 w"), BadSquare { .. }));
    assert!(matches!(e("3k5/9/9/9/9/9/9/9/9/3K5 x"), BadTurn(_)));
    assert_eq!(
        e("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 extra"),
        TrailingField("extra".into())
    );
    assert_eq!(
        e("3k5/9/9/9/9/9/9/9/9/4K4 w 0 1 2"),
        TrailingField("2".into())
    );
    assert!(Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").is_ok());
    assert!(Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 b 0 1").is_ok());
    assert!(matches!(
        e("3k5/9/9/9/9/9/9/9/9/3K5 w - - x 1"),
        BadCounter(_)
    ));
    assert_eq!(e("4k4/9/9/9/9/9/9/9/9/4K4 w"), OpponentInCheck);
    assert!(matches!(e("3k5/9/9/9/9/9/9/9/9/RRR1K4 w"), TooMany { .. }));
    // Accepted variants: E/H letters and `r` for Red.
    let p = Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r")
        .unwrap();
    assert_eq!(p, Position::startpos());
    assert_eq!(p.piece_at(sq("b0")).unwrap().role, Role::Horse);
}

/// A position reached by playing `choices` (each picks a legal move by index).
fn random_position(start: usize, choices: &[u16]) -> Position {
    let fens = [
        xiangqi::START_FEN,
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    ];
    let mut pos = Position::from_fen(fens[start % fens.len()]).unwrap();
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play(moves[c as usize % moves.len()]).unwrap();
    }
    pos
}

proptest! {
    #[test]
    fn make_unmake_restores(start in 0usize..4, choices in prop::collection::vec(any::<u16>(), 0..60)) {
        let mut pos = random_position(start, &choices);
        let before = pos.clone();
        for &m in pos.clone().legal_moves().iter() {
            let undo = pos.make_move(m);
            prop_assert_eq!(pos.key(), pos.compute_key());
            prop_assert!(!pos.is_check(!pos.turn()), "move {} leaves own general attacked", m);
            pos.unmake_move(m, undo);
            prop_assert_eq!(&pos, &before);
            prop_assert_eq!(pos.key(), before.key());
        }
    }

    #[test]
    fn legal_is_pseudo_minus_self_check(start in 0usize..4, choices in prop::collection::vec(any::<u16>(), 0..60)) {
        let pos = random_position(start, &choices);
        let legal = pos.legal_moves();
        for &m in pos.pseudo_legal_moves().iter() {
            let mut p = pos.clone();
            p.make_move(m);
            let safe = !p.is_check(pos.turn());
            prop_assert_eq!(safe, legal.contains(m), "move {}", m);
            prop_assert_eq!(pos.pseudo_legal_is_legal(m, pos.in_check()), safe, "move {}", m);
            prop_assert_eq!(pos.is_legal(m), safe);
            prop_assert_eq!(pos.gives_check(m), p.in_check());
        }
    }

    #[test]
    fn is_attacked_agrees_with_attackers(start in 0usize..4, choices in prop::collection::vec(any::<u16>(), 0..60)) {
        let pos = random_position(start, &choices);
        for sq in Square::all() {
            for by in [Color::Red, Color::Black] {
                let own = pos.piece_at(sq).is_some_and(|p| p.color == by);
                if !own {
                    prop_assert_eq!(pos.is_attacked(sq, by), !pos.attackers(sq, by).is_empty(), "{} by {}", sq, by);
                }
            }
        }
    }

    #[test]
    fn fen_round_trip(start in 0usize..4, choices in prop::collection::vec(any::<u16>(), 0..80)) {
        let pos = random_position(start, &choices);
        let again = Position::from_fen(&pos.to_fen()).unwrap();
        // Equality covers what moves keep up to date incrementally: the key,
        // the piece sets and the piece-square sums.
        prop_assert_eq!(&again, &pos);
        prop_assert_eq!(again.key(), pos.key());
    }

    #[test]
    fn mirror_preserves_move_count(start in 0usize..4, choices in prop::collection::vec(any::<u16>(), 0..40)) {
        let pos = random_position(start, &choices);
        prop_assert_eq!(pos.mirror().legal_moves().len(), pos.legal_moves().len());
    }
}

#[test]
fn attackers_of_a_square() {
    // e5 is attacked by the chariot a5 along the rank, the horse c4 (leg d4 empty)
    // and the cannon e2 over the soldier on e3; the soldier itself reaches only e4.
    let pos = Position::from_fen("3k5/9/9/9/R8/2N6/4P4/4C4/9/5K3 w").unwrap();
    let mut a: Vec<String> = pos
        .attackers(sq("e5"), Color::Red)
        .iter()
        .map(|s| s.to_string())
        .collect();
    a.sort();
    assert_eq!(a, ["a5", "c4", "e2"]);
    assert!(pos.attackers(sq("e5"), Color::Black).is_empty());
}

#[test]
fn moves_from_one_square() {
    let pos = Position::startpos();
    let from = sq("h2");
    let moves = pos.legal_moves_from(from);
    assert_eq!(moves.len(), 12);
    assert!(moves.iter().all(|m| m.from == from));
    assert!(pos.legal_moves_from(sq("e5")).is_empty());
}
