//! Gravity, soft drop, DAS/ARR and lock delay, timed by injected game time.
#![allow(clippy::unwrap_used)]

use tetris::game::gravity_us;
use tetris::{Action, Game, InputEvent, Matrix, Mode, PieceKind, Settings, SoftDrop};

fn game_with(kind: PieceKind, settings: Settings, board: &[&str]) -> Game {
    let matrix = Matrix::from_text_rows(board).unwrap();
    Game::with_setup(
        Mode::Marathon { endless: true },
        settings,
        3,
        matrix,
        &[kind],
    )
}

fn tap(game: &mut Game, time: u64, action: Action) {
    for event in InputEvent::tap(time, action) {
        game.handle(event);
    }
}

fn y(game: &Game) -> i8 {
    game.active().unwrap().y
}

fn x(game: &Game) -> i8 {
    game.active().unwrap().x
}

#[test]
fn gravity_formula_by_level_up_to_20g() {
    assert_eq!(gravity_us(1), 1_000_000);
    assert_eq!(gravity_us(2), 793_000);
    assert_eq!(gravity_us(10), 64_152);
    assert_eq!(gravity_us(15), 7_059);
    // Level 19 would be faster than 20G (0.82 ms per row): capped at 20 rows per frame.
    assert_eq!(gravity_us(19), 833);
    assert_eq!(gravity_us(500), 833);
}

#[test]
fn level_one_gravity_is_one_row_per_second() {
    let mut game = game_with(PieceKind::T, Settings::default(), &[".........."]);
    // Spawned in rows 21–22, then the Guideline's immediate one-row drop.
    assert_eq!(y(&game), 18);
    assert_eq!(game.next_event_ms(), Some(1000));
    game.advance_to(999);
    assert_eq!(y(&game), 18);
    game.advance_to(1000);
    assert_eq!(y(&game), 17);
    game.advance_to(5500);
    assert_eq!(y(&game), 13);
    assert_eq!(game.score(), 0);
}

#[test]
fn soft_drop_is_twenty_times_gravity_and_scores_per_row() {
    let mut game = game_with(PieceKind::T, Settings::default(), &[".........."]);
    game.handle(InputEvent::press(0, Action::SoftDrop));
    assert_eq!(y(&game), 17, "one row straight away");
    game.advance_to(100);
    assert_eq!(y(&game), 15, "then every 50 ms");
    game.handle(InputEvent::release(120, Action::SoftDrop));
    game.advance_to(1119);
    assert_eq!(y(&game), 15);
    game.advance_to(1120);
    assert_eq!(y(&game), 14, "gravity resumes after release");
    assert_eq!(game.score(), 3);
}

#[test]
fn das_then_arr_and_arr_zero() {
    let mut game = game_with(PieceKind::T, Settings::default(), &[".........."]);
    assert_eq!(x(&game), 3);
    game.handle(InputEvent::press(0, Action::Left));
    assert_eq!(x(&game), 2);
    game.advance_to(166);
    assert_eq!(x(&game), 2);
    game.advance_to(167);
    assert_eq!(x(&game), 1);
    game.advance_to(199);
    assert_eq!(x(&game), 1);
    game.advance_to(200);
    assert_eq!(x(&game), 0);
    game.advance_to(400);
    assert_eq!(x(&game), 0, "the wall stops it");
    // Pressing right while left is held takes over; releasing right hands back to left.
    game.handle(InputEvent::press(400, Action::Right));
    assert_eq!(x(&game), 1);
    game.handle(InputEvent::release(450, Action::Right));
    game.advance_to(616);
    assert_eq!(x(&game), 1);
    game.advance_to(617);
    assert_eq!(x(&game), 0);

    let settings = Settings {
        arr_ms: 0,
        ..Settings::default()
    };
    let mut game = game_with(PieceKind::T, settings, &[".........."]);
    game.handle(InputEvent::press(0, Action::Right));
    assert_eq!(x(&game), 4);
    game.advance_to(167);
    assert_eq!(x(&game), 7, "ARR 0 goes straight to the wall");
    // A rotation next to the wall is followed by another shift to the wall.
    tap(&mut game, 200, Action::RotateCcw);
    let cells = game.active().unwrap().cells();
    assert_eq!(cells.iter().map(|c| c.0).max(), Some(9));
}

#[test]
fn lock_delay_is_half_a_second_and_moves_reset_it() {
    let settings = Settings {
        soft_drop: SoftDrop::Instant,
        ..Settings::default()
    };
    let mut game = game_with(PieceKind::T, settings, &[".........."]);
    tap(&mut game, 0, Action::SoftDrop);
    assert_eq!(game.score(), 19, "instant soft drop scores its rows");
    assert_eq!(game.lock_deadline_ms(), Some(500));
    game.advance_to(499);
    assert_eq!(game.pieces(), 0);
    game.advance_to(500);
    assert_eq!(game.pieces(), 1);

    let mut game = game_with(PieceKind::T, settings, &[".........."]);
    tap(&mut game, 0, Action::SoftDrop);
    tap(&mut game, 400, Action::Left);
    assert_eq!(game.lock_resets(), 1);
    game.advance_to(899);
    assert_eq!(game.pieces(), 0);
    game.advance_to(900);
    assert_eq!(game.pieces(), 1);
}

#[test]
fn fifteen_resets_then_the_piece_locks_on_contact() {
    let settings = Settings {
        soft_drop: SoftDrop::Instant,
        ..Settings::default()
    };
    let mut game = game_with(PieceKind::T, settings, &[".........."]);
    tap(&mut game, 0, Action::SoftDrop);
    for i in 1..=15u64 {
        let action = if i % 2 == 1 {
            Action::Left
        } else {
            Action::Right
        };
        tap(&mut game, i * 100, action);
        assert_eq!(game.pieces(), 0, "move {i}");
    }
    assert_eq!(game.lock_resets(), 15);
    assert_eq!(game.lock_deadline_ms(), Some(2000));
    tap(&mut game, 1600, Action::Left);
    assert_eq!(game.pieces(), 1, "the sixteenth move locks at once");
}

#[test]
fn reaching_a_new_lowest_row_restores_the_resets() {
    let settings = Settings {
        soft_drop: SoftDrop::Instant,
        ..Settings::default()
    };
    // An O on a ledge of columns 0–4; moving it right off the ledge lets it fall lower.
    let mut game = game_with(PieceKind::O, settings, &["XXXXX....."]);
    tap(&mut game, 0, Action::SoftDrop);
    assert_eq!(y(&game), 1);
    for i in 1..=10u64 {
        let action = if i % 2 == 1 {
            Action::Left
        } else {
            Action::Right
        };
        tap(&mut game, i * 10, action);
    }
    assert_eq!(game.lock_resets(), 10);
    tap(&mut game, 200, Action::Right);
    assert_eq!(
        game.lock_resets(),
        11,
        "stepping off the ledge used a reset"
    );
    assert_eq!(game.lock_deadline_ms(), None, "in the air: no lock delay");
    tap(&mut game, 210, Action::SoftDrop);
    assert_eq!(game.pieces(), 0);
    assert_eq!(y(&game), 0);
    assert_eq!(
        game.lock_resets(),
        0,
        "a new lowest row gives the resets back"
    );
}

#[test]
fn zen_has_no_gravity() {
    let matrix = Matrix::new();
    let mut game = Game::with_setup(Mode::Zen, Settings::default(), 1, matrix, &[PieceKind::T]);
    game.advance_to(600_000);
    assert_eq!(y(&game), 18);
    // Soft drop still works, at 20× level-1 gravity.
    game.handle(InputEvent::press(600_000, Action::SoftDrop));
    game.advance_to(600_100);
    assert_eq!(y(&game), 15);
}

#[test]
fn auto_repeat_moves_also_use_lock_resets() {
    let settings = Settings {
        soft_drop: SoftDrop::Instant,
        ..Settings::default()
    };
    let mut game = game_with(PieceKind::T, settings, &[".........."]);
    tap(&mut game, 0, Action::SoftDrop);
    game.handle(InputEvent::press(100, Action::Left));
    assert_eq!(game.lock_resets(), 1);
    game.advance_to(267);
    assert_eq!(game.lock_resets(), 2, "the DAS repeat moved the piece");
    assert_eq!(game.lock_deadline_ms(), Some(767));
    game.advance_to(400);
    assert_eq!(x(&game), 0);
    assert_eq!(
        game.lock_resets(),
        3,
        "repeats against the wall do not count"
    );
    game.handle(InputEvent::release(400, Action::Left));
    game.advance_to(799);
    assert_eq!(game.pieces(), 0);
    game.advance_to(800);
    assert_eq!(game.pieces(), 1);
}
