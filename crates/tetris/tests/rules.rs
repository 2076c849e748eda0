//! Hold, queue, line clears, scoring through the game, top out and mode goals.
#![allow(clippy::unwrap_used)]

use tetris::scoring::TSpin;
use tetris::{
    Action, Game, GameOver, InputEvent, Matrix, Mode, PieceKind, Settings, SoftDrop, Status,
};

fn tap(game: &mut Game, time: u64, action: Action) {
    for event in InputEvent::tap(time, action) {
        game.handle(event);
    }
}

fn setup(mode: Mode, board: &[&str], pieces: &str) -> Game {
    let matrix = Matrix::from_text_rows(board).unwrap();
    let queue: Vec<PieceKind> = pieces
        .chars()
        .map(|c| PieceKind::from_letter(c).unwrap())
        .collect();
    let settings = Settings {
        soft_drop: SoftDrop::Instant,
        ..Settings::default()
    };
    Game::with_setup(mode, settings, 9, matrix, &queue)
}

/// Drops an I vertically into column 9.
fn i_into_right_well(game: &mut Game, time: u64) {
    assert_eq!(game.active().unwrap().kind, PieceKind::I);
    tap(game, time, Action::RotateCw);
    for _ in 0..4 {
        tap(game, time, Action::Right);
    }
    tap(game, time, Action::HardDrop);
}

const WELL4: [&str; 4] = ["XXXXXXXXX."; 4];

#[test]
fn hold_swaps_once_per_piece() {
    let mut game = setup(Mode::Zen, &[".........."], "TIOSZJL");
    assert_eq!(
        game.next_queue(),
        vec![
            PieceKind::I,
            PieceKind::O,
            PieceKind::S,
            PieceKind::Z,
            PieceKind::J
        ]
    );
    tap(&mut game, 0, Action::Hold);
    assert_eq!(game.hold_piece(), Some(PieceKind::T));
    assert_eq!(game.active().unwrap().kind, PieceKind::I);
    assert!(!game.can_hold());
    tap(&mut game, 0, Action::Hold);
    assert_eq!(
        game.active().unwrap().kind,
        PieceKind::I,
        "second hold is ignored"
    );
    tap(&mut game, 0, Action::HardDrop);
    assert_eq!(game.active().unwrap().kind, PieceKind::O);
    tap(&mut game, 0, Action::Hold);
    assert_eq!(game.hold_piece(), Some(PieceKind::O));
    assert_eq!(game.active().unwrap().kind, PieceKind::T);
    // The queue refills from the bag and the preview length is configurable.
    assert_eq!(game.next_queue().len(), 5);
    let short = Game::new(
        Mode::Zen,
        Settings {
            preview: 0,
            ..Settings::default()
        },
        1,
    );
    assert!(short.next_queue().is_empty());
}

#[test]
fn ghost_shows_the_landing_place() {
    let game = setup(Mode::Zen, &["XXXX..XXXX"], "O");
    let ghost = game.ghost().unwrap();
    assert_eq!(ghost.cells().iter().map(|c| c.1).min(), Some(0));
}

#[test]
fn tetris_perfect_clear_and_back_to_back() {
    let mut board = WELL4.to_vec();
    board.extend(WELL4);
    let mut game = setup(Mode::Marathon { endless: false }, &board, "II");
    i_into_right_well(&mut game, 0);
    let first = *game.last_clear().unwrap();
    assert_eq!(
        (first.lines, first.back_to_back, first.perfect_clear),
        (4, false, false)
    );
    assert_eq!(first.points, 800);
    i_into_right_well(&mut game, 0);
    let second = *game.last_clear().unwrap();
    assert!(second.back_to_back && second.perfect_clear);
    assert_eq!(second.combo, 1);
    // 800 × 1.5, combo 50 × 1, back-to-back tetris perfect clear 3200.
    assert_eq!(second.points, 1200 + 50 + 3200);
    assert_eq!(game.lines(), 8);
    assert!(game.matrix().is_empty());
    // Hard drops: 17 rows each time, 2 points each.
    assert_eq!(game.score(), 800 + 4450 + 2 * (17 + 17));
}

#[test]
fn levels_rise_every_ten_lines_and_multiply_points() {
    let game = setup(Mode::Marathon { endless: false }, &WELL4, "I");
    let mut value = serde_json::to_value(&game).unwrap();
    value["lines"] = 9.into();
    let mut game: Game = serde_json::from_value(value).unwrap();
    assert_eq!(game.level(), 1);
    i_into_right_well(&mut game, 0);
    assert_eq!(game.lines(), 13);
    assert_eq!(game.level(), 2);
    // Points use the level before the clear (a perfect clear here, too).
    assert_eq!(game.last_clear().unwrap().points, 800 + 2000);
}

#[test]
fn plain_drop_into_a_t_slot_is_no_t_spin_and_combos_count() {
    // A T dropped straight (no rotation) clears one line: no T-spin.
    let mut game = setup(Mode::Zen, &["XXX...XXXX", "XXXX.XXXXX"], "TT");
    tap(&mut game, 0, Action::Rotate180);
    tap(&mut game, 0, Action::HardDrop);
    let clear = *game.last_clear().unwrap();
    assert_eq!(
        clear.t_spin,
        TSpin::None,
        "hard drop after the rotation moved it: no spin"
    );
    assert_eq!(clear.lines, 2);
}

#[test]
fn block_out_when_the_spawn_is_blocked() {
    let mut column: Vec<&str> = vec!["....X....."; 19];
    column.push("XXXX.XXXXX");
    // Column 4 holds 18 blocks plus the floor row; the first T lands on top of it and pokes
    // into row 21, so the second T cannot spawn.
    let mut game = setup(Mode::Marathon { endless: false }, &column[1..], "TT");
    tap(&mut game, 0, Action::HardDrop);
    assert_eq!(game.status(), Status::Over(GameOver::BlockOut));
    assert!(game.topped_out());
    assert!(game.active().is_none());
    // Inputs after the end change nothing.
    tap(&mut game, 10, Action::HardDrop);
    assert_eq!(game.pieces(), 1);
}

#[test]
fn lock_out_when_a_piece_locks_above_the_field() {
    let mut game = setup(
        Mode::Marathon { endless: false },
        &[".........."],
        "OOOOOOOOOOO",
    );
    for _ in 0..10 {
        tap(&mut game, 0, Action::HardDrop);
        assert!(game.is_playing());
    }
    // Ten Os fill columns 4–5 up to row 20; the eleventh locks in rows 21–22.
    tap(&mut game, 0, Action::HardDrop);
    assert_eq!(game.status(), Status::Over(GameOver::LockOut));
}

#[test]
fn zen_clears_the_matrix_instead_of_topping_out() {
    let mut game = setup(Mode::Zen, &[".........."], "OOOOOOOOOOOO");
    for _ in 0..11 {
        tap(&mut game, 0, Action::HardDrop);
    }
    assert!(game.is_playing());
    assert_eq!(game.zen_clears(), 1);
}

#[test]
fn sprint_ends_at_forty_lines_and_ultra_after_two_minutes() {
    let game = setup(Mode::Sprint, &WELL4, "I");
    let mut value = serde_json::to_value(&game).unwrap();
    value["lines"] = 38.into();
    let mut game: Game = serde_json::from_value(value).unwrap();
    i_into_right_well(&mut game, 0);
    assert_eq!(game.status(), Status::Over(GameOver::GoalReached));
    assert!(!game.topped_out());
    assert_eq!(game.level(), 1, "Sprint stays at level 1");
    game.advance_to(90_000);
    assert_eq!(game.time_ms(), 0, "the clock stops at the goal");

    let mut game = Game::new(
        Mode::Ultra,
        Settings {
            soft_drop: SoftDrop::Instant,
            ..Settings::default()
        },
        5,
    );
    let mut t = 0;
    while game.is_playing() && t < 119_000 {
        tap(&mut game, t, Action::HardDrop);
        t += 5_000;
    }
    game.advance_to(119_999);
    assert!(game.is_playing() || game.topped_out());
    if game.is_playing() {
        game.advance_to(200_000);
        assert_eq!(game.status(), Status::Over(GameOver::GoalReached));
        assert_eq!(game.time_ms(), 120_000);
    }

    let game = setup(Mode::Marathon { endless: false }, &WELL4, "I");
    let mut value = serde_json::to_value(&game).unwrap();
    value["lines"] = 148.into();
    let mut game: Game = serde_json::from_value(value).unwrap();
    i_into_right_well(&mut game, 0);
    assert_eq!(game.status(), Status::Over(GameOver::GoalReached));
    let endless = setup(Mode::Marathon { endless: true }, &WELL4, "I");
    let mut value = serde_json::to_value(&endless).unwrap();
    value["lines"] = 148.into();
    let mut endless: Game = serde_json::from_value(value).unwrap();
    i_into_right_well(&mut endless, 0);
    assert!(endless.is_playing());
}

#[test]
fn whole_state_serde_round_trip_mid_game() {
    let mut game = Game::new(Mode::Marathon { endless: true }, Settings::default(), 77);
    let mut t = 0;
    for i in 0..40u64 {
        t += 137;
        let action = [
            Action::Left,
            Action::RotateCw,
            Action::Right,
            Action::HardDrop,
            Action::Hold,
        ][(i % 5) as usize];
        game.handle(InputEvent::press(t, action));
        game.handle(InputEvent::release(t + 60, action));
    }
    // Mid-piece, mid-DAS: left is held.
    game.handle(InputEvent::press(t + 100, Action::Left));
    game.advance_to(t + 200);
    let json = serde_json::to_string(&game).unwrap();
    let mut copy: Game = serde_json::from_str(&json).unwrap();
    assert_eq!(copy, game);
    for i in 0..60u64 {
        let time = t + 300 + i * 250;
        for g in [&mut game, &mut copy] {
            tap(
                g,
                time,
                [Action::HardDrop, Action::Right, Action::RotateCcw][(i % 3) as usize],
            );
        }
    }
    game.advance_to(t + 20_000);
    copy.advance_to(t + 20_000);
    assert_eq!(copy, game);
}

#[test]
fn consecutive_clears_build_a_combo() {
    let board = [
        "X.........",
        "XXXXXXXX..",
        "XXXXXXXX..",
        "XXXXXXXX..",
        "XXXXXXXX..",
    ];
    let mut game = setup(Mode::Marathon { endless: false }, &board, "OO");
    for _ in 0..2 {
        for _ in 0..4 {
            tap(&mut game, 0, Action::Right);
        }
        tap(&mut game, 0, Action::HardDrop);
    }
    let clear = *game.last_clear().unwrap();
    assert_eq!(
        (clear.lines, clear.combo, clear.perfect_clear),
        (2, 1, false)
    );
    assert_eq!(clear.points, 300 + 50);
    // Two doubles, the second with combo 1, and two 19-row hard drops.
    assert_eq!(game.score(), 300 + 350 + 2 * 2 * 19);
    assert_eq!(game.combo(), Some(1));
}
