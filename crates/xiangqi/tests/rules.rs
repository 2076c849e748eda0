//! Game-ending rules: mate, stalemate, repetition judgements, move limit, material.
#![allow(clippy::unwrap_used)]

use xiangqi::{Color, EndReason, Game, Move, Outcome, Position, Square};

fn mv(s: &str) -> Move {
    Move::new(
        Square::parse(&s[..2]).unwrap(),
        Square::parse(&s[2..]).unwrap(),
    )
}

fn game(fen: &str, moves: &[&str]) -> Game {
    let mut g = Game::from_position(Position::from_fen(fen).unwrap());
    for m in moves {
        g.play(mv(m))
            .unwrap_or_else(|e| panic!("{e} in {}", g.position().to_fen()));
    }
    g
}

#[test]
fn checkmate_and_stalemate_lose() {
    // Two chariots mate the black general on the back rank (d8 and f8 covered).
    let g = game("4k4/9/9/9/9/9/9/9/9/R2K4R w", &["a0a9"]);
    assert!(g.result().is_none(), "general can still step to e8");
    let g = game("4k4/R8/9/9/9/9/9/9/9/3K4R w", &["i0i9"]);
    let r = g.result().unwrap();
    assert_eq!(r.outcome, Outcome::Win(Color::Red));
    assert_eq!(r.reason, EndReason::Checkmate);
    assert!(g.position().is_checkmate());
    // Stalemate: black has no move and is not in check, so black loses.
    let g = game("3k5/4R4/3P5/9/9/9/9/9/9/4K4 b", &[]);
    let r = g.result().unwrap();
    assert_eq!(r.outcome, Outcome::Win(Color::Red));
    assert_eq!(r.reason, EndReason::Stalemate);
}

#[test]
fn perpetual_check_loses() {
    let g = game(
        "5k3/9/9/9/9/9/9/9/R8/3K5 w",
        &[
            "a1f1", "f9e9", "f1e1", "e9f9", "e1f1", "f9e9", "f1e1", "e9f9", "e1f1",
        ],
    );
    assert_eq!(g.repetition_count(), 3);
    let r = g.result().unwrap();
    assert_eq!(r.reason, EndReason::PerpetualCheck);
    assert_eq!(r.outcome, Outcome::Win(Color::Black));
}

#[test]
fn two_fold_is_not_yet_judged() {
    let g = game(
        "5k3/9/9/9/9/9/9/9/R8/3K5 w",
        &["a1f1", "f9e9", "f1e1", "e9f9", "e1f1"],
    );
    assert_eq!(g.repetition_count(), 2);
    assert!(g.result().is_none());
}

#[test]
fn perpetual_chase_of_unprotected_piece_loses() {
    // Red's chariot follows Black's cannon along ranks 5 and 6.
    let g = game(
        "3k5/9/9/9/c8/9/9/7R1/9/4K4 w",
        &[
            "h2h5", "a5a6", "h5h6", "a6a5", "h6h5", "a5a6", "h5h6", "a6a5", "h6h5",
        ],
    );
    let r = g.result().unwrap();
    assert_eq!(r.reason, EndReason::PerpetualChase);
    assert_eq!(r.outcome, Outcome::Win(Color::Black));
}

#[test]
fn chasing_a_protected_piece_is_allowed() {
    // Same shuffle, but a black chariot on a9 protects the cannon on the a-file.
    let g = game(
        "r2k5/9/9/9/c8/9/9/7R1/9/4K4 w",
        &[
            "h2h5", "a5a6", "h5h6", "a6a5", "h6h5", "a5a6", "h5h6", "a6a5", "h6h5",
        ],
    );
    let r = g.result().unwrap();
    assert_eq!(r.reason, EndReason::Repetition);
    assert_eq!(r.outcome, Outcome::Draw);
}

const HORSE_SHUFFLE: [&str; 9] = [
    "b5d6", "c8c7", "d6b5", "c7c8", "b5d6", "c8c7", "d6b5", "c7c8", "b5d6",
];

#[test]
fn horse_chasing_protected_chariot_loses() {
    // The black chariot on c8/c7 is protected by its partner on c9, but a horse
    // chasing a chariot loses anyway.
    let g = game("2r2k3/2r6/9/9/1N7/9/9/9/9/4K4 w", &HORSE_SHUFFLE);
    let r = g.result().unwrap();
    assert_eq!(r.reason, EndReason::PerpetualChase);
    assert_eq!(r.outcome, Outcome::Win(Color::Black));
}

#[test]
fn horse_chasing_protected_cannon_is_allowed() {
    let g = game("2r2k3/2c6/9/9/1N7/9/9/9/9/4K4 w", &HORSE_SHUFFLE);
    let r = g.result().unwrap();
    assert_eq!(r.reason, EndReason::Repetition);
    assert_eq!(r.outcome, Outcome::Draw);
}

#[test]
fn unadvanced_soldier_is_not_chased() {
    // The chariot shuttles attacking a soldier that has not crossed the river.
    let g = game(
        "3k5/9/9/p8/9/9/9/7R1/9/5K3 w",
        &[
            "h2h6", "d9e9", "h6h5", "e9d9", "h5h6", "d9e9", "h6h5", "e9d9", "h5h6",
        ],
    );
    let r = g.result().unwrap();
    assert_eq!(r.reason, EndReason::Repetition);
    assert_eq!(r.outcome, Outcome::Draw);
}

#[test]
fn idle_shuffling_is_a_draw() {
    let g = game(
        "1n1k5/9/9/9/9/9/9/9/9/1N2K4 w",
        &[
            "b0c2", "b9c7", "c2b0", "c7b9", "b0c2", "b9c7", "c2b0", "c7b9",
        ],
    );
    let r = g.result().unwrap();
    assert_eq!(r.outcome, Outcome::Draw);
    assert_eq!(r.reason, EndReason::Repetition);
}

#[test]
fn move_limit() {
    let g = game("1n1k5/9/9/9/9/9/9/9/9/1N2K4 w - - 119 70", &["b0c2"]);
    let r = g.result().unwrap();
    assert_eq!(r.reason, EndReason::MoveLimit);
    let g = game("1n1k5/9/9/9/9/9/9/9/9/1N2K4 w - - 118 70", &["b0c2"]);
    assert!(g.result().is_none());
}

#[test]
fn checks_beyond_ten_do_not_count() {
    // Red checks on every move while Black's general shuffles; Red's checks
    // beyond ten are not counted. (Repetition would end it first, so only the
    // counter is checked.)
    let mut moves = vec!["a1f1", "f9e9"];
    for _ in 0..6 {
        moves.extend(["f1e1", "e9f9", "e1f1", "f9e9"]);
    }
    let g = game("5k3/9/9/9/9/9/9/9/R8/3K5 w - - 0 1", &moves[..24]);
    let checks = g.plies().iter().filter(|p| p.check).count() as u32;
    assert!(checks > 10);
    assert_eq!(g.move_limit_plies(), 24 - (checks - 10));
}

#[test]
fn insufficient_material() {
    let g = game("3k5/4a4/9/9/9/9/9/4B4/4A4/4K4 w", &[]);
    assert_eq!(g.result().unwrap().reason, EndReason::InsufficientMaterial);
    assert!(game("3k5/9/9/9/9/9/9/9/9/4K3R w", &[]).result().is_none());
}

#[test]
fn undo_restores_everything() {
    let mut g = Game::new();
    for m in ["h2e2", "h9g7", "h0g2", "i9h9"] {
        g.play(mv(m)).unwrap();
    }
    for _ in 0..4 {
        g.undo();
    }
    assert_eq!(g.position(), &Position::startpos());
    assert!(g.undo().is_none());
    assert!(g.play(mv("a0a5")).is_err());
}

#[test]
fn soldiers_may_chase() {
    // A red soldier across the river follows an unprotected black cannon: a
    // soldier's attacks never count as chases, so the repetition is a draw.
    let g = game(
        "3k5/9/3c5/4P4/9/9/9/9/9/5K3 w",
        &[
            "e6d6", "d7e7", "d6e6", "e7d7", "e6d6", "d7e7", "d6e6", "e7d7", "e6d6",
        ],
    );
    let r = g.result().unwrap();
    assert_eq!(r.reason, EndReason::Repetition);
    assert_eq!(r.outcome, Outcome::Draw);
    assert!(g.plies().iter().all(|p| p.chased == 0));
}

#[test]
fn chase_details() {
    // The chariot's move to h5 attacks the unprotected cannon on a5: a chase.
    let pos = Position::from_fen("3k5/9/9/9/c8/9/9/7R1/9/4K4 w").unwrap();
    assert_eq!(pos.chased_after(mv("h2h5")), [Square::parse("a5").unwrap()]);
    // A move that attacks nothing new chases nothing.
    assert!(pos.chased_after(mv("h2h3")).is_empty());
    // An exchange offer (chariot facing chariot) is not a chase.
    let pos = Position::from_fen("3k5/9/9/9/r8/9/9/7R1/9/4K4 w").unwrap();
    assert!(pos.chased_after(mv("h2h5")).is_empty());
    // A capture is never a chase.
    let pos = Position::from_fen("3k5/9/9/9/c6R1/9/9/9/9/4K4 w").unwrap();
    assert!(pos.chased_after(mv("h5a5")).is_empty());
}

#[test]
fn a_second_attacker_on_a_threatened_piece_chases_nothing() {
    // The chariot on a1 already threatens the unprotected cannon on a5; the
    // other chariot joining it on rank 5 creates no new threat ("from chase to
    // chase" is idle). Alone, the same move is a chase.
    let pos = Position::from_fen("3k5/9/9/9/c8/9/9/7R1/R8/4K4 w").unwrap();
    assert!(pos.chased_after(mv("h2h5")).is_empty());
    let pos = Position::from_fen("3k5/9/9/9/c8/9/9/7R1/9/4K4 w").unwrap();
    assert_eq!(pos.chased_after(mv("h2h5")), [Square::parse("a5").unwrap()]);
}

#[test]
fn taking_away_a_protection_is_a_chase() {
    // The chariot on a1 attacks the cannon on a5, which the chariot on i5
    // protects along rank 5; the horse stepping into rank 5 cuts the protection,
    // so the cannon is newly threatened: a chase (AXF rules, appendix example).
    let pos = Position::from_fen("3k5/9/9/9/c7r/9/4N4/9/R8/4K4 w").unwrap();
    assert_eq!(pos.chased_after(mv("e3d5")), [Square::parse("a5").unwrap()]);
    // Stepping elsewhere leaves the protection and chases nothing.
    assert!(pos.chased_after(mv("e3c2")).is_empty());
}

#[test]
fn an_elephant_attacking_a_protected_horse_chases() {
    // The horse on e2 is protected by the chariot on e9, but an elephant
    // taking it and being taken back still wins material: a threat.
    let pos = Position::from_fen("4rk3/9/9/9/9/9/9/B3n4/9/4K4 w").unwrap();
    assert_eq!(pos.chased_after(mv("a2c4")), [Square::parse("e2").unwrap()]);
    // A chariot attacking the same protected horse does not chase it.
    let pos = Position::from_fen("4rk3/9/9/9/9/9/R8/4n4/9/4K4 w").unwrap();
    assert!(pos.chased_after(mv("a3a2")).is_empty());
}
