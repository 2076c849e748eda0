//! Finesse counted by the game, finesse training and Sprint splits.

use tetris::matrix::Matrix;
use tetris::{Action, Game, InputEvent, Mode, PieceKind, Recorder, Settings};

fn game_with(first: &[PieceKind], settings: Settings) -> Game {
    Game::with_setup(Mode::Zen, settings, 1, Matrix::new(), first)
}

/// Taps `actions` at `t`, then hard drops.
fn place(game: &mut Game, t: u64, actions: &[Action]) {
    for &action in actions {
        game.update(t, &InputEvent::tap(t, action));
    }
    game.update(t, &InputEvent::tap(t, Action::HardDrop));
}

#[test]
fn taps_where_a_held_press_would_do_are_a_fault() {
    let mut game = game_with(&[PieceKind::O, PieceKind::O], Settings::default());
    // O to the left wall with four taps: one held press was enough.
    place(&mut game, 10, &[Action::Left; 4]);
    assert_eq!(game.pieces(), 1);
    assert_eq!((game.finesse().judged, game.finesse().faults), (1, 1));
    assert!(game.finesse().last_fault);
    // The second O held left until the wall: one press, no fault.
    game.handle(InputEvent::press(20, Action::Left));
    game.handle(InputEvent::release(1_000, Action::Left));
    game.update(1_000, &InputEvent::tap(1_000, Action::HardDrop));
    assert_eq!(game.pieces(), 2);
    assert_eq!((game.finesse().judged, game.finesse().faults), (2, 1));
    assert_eq!(game.finesse().rate(), 50.0);
    // Keys: 4 taps + drop, hold + drop.
    assert_eq!(game.finesse().keys, 7);
}

#[test]
fn soft_dropped_and_held_pieces_are_judged_fairly() {
    let mut game = game_with(
        &[PieceKind::T, PieceKind::I, PieceKind::O],
        Settings::default(),
    );
    // Turned twice and back: a fault, unless soft drop made it a tuck.
    place(
        &mut game,
        10,
        &[Action::SoftDrop, Action::RotateCw, Action::RotateCcw],
    );
    assert_eq!(game.finesse().judged, 0);
    // Presses before a hold are forgotten: the I comes in fresh.
    game.update(20, &InputEvent::tap(20, Action::Left));
    game.update(20, &InputEvent::tap(20, Action::Hold));
    place(&mut game, 30, &[]);
    assert_eq!((game.finesse().judged, game.finesse().faults), (1, 0));
}

#[test]
fn training_sends_a_faulted_piece_back_to_spawn_and_replays_replay() {
    let settings = Settings {
        finesse_training: true,
        ..Settings::default()
    };
    let mut recorder = Recorder::new(Mode::Sprint, settings, 4);
    let kind = recorder.game().active().map(|p| p.kind);
    let spawn = recorder.game().active().copied();
    // Right then left: back where it was, two presses for a 0-press placement.
    for action in [Action::Right, Action::Left, Action::HardDrop] {
        recorder.update(10, &InputEvent::tap(10, action));
    }
    let game = recorder.game();
    assert_eq!(game.pieces(), 0, "not locked");
    assert!(game.matrix().is_empty());
    assert_eq!(game.active().map(|p| p.kind), kind);
    assert_eq!(game.active().copied(), spawn);
    assert_eq!((game.finesse().faults, game.finesse_retries()), (1, 1));
    assert_eq!(game.score(), 0, "no drop points for a retried piece");
    // Done right, it locks.
    recorder.update(20, &InputEvent::tap(20, Action::HardDrop));
    assert_eq!(recorder.game().pieces(), 1);
    let replayed = recorder.replay().play().expect("replays");
    assert_eq!(replayed.finesse(), recorder.game().finesse());
    assert_eq!(replayed.finesse_retries(), 1);
}

#[test]
fn training_off_locks_faults_as_usual() {
    let mut game = game_with(&[PieceKind::T], Settings::default());
    place(&mut game, 10, &[Action::Right, Action::Left]);
    assert_eq!(game.pieces(), 1);
    assert_eq!(game.finesse().faults, 1);
    assert_eq!(game.finesse_retries(), 0);
}

/// A matrix whose bottom `rows` rows are full but for column 0.
fn well(rows: usize) -> Matrix {
    let mut text = vec!["..........".to_owned(); 20 - rows];
    text.extend(std::iter::repeat_n(".GGGGGGGGG".to_owned(), rows));
    Matrix::from_text_rows(&text).expect("a valid matrix")
}

#[test]
fn sprint_notes_a_split_every_ten_lines() {
    let pieces = [PieceKind::I; 12];
    let mut game = Game::with_setup(Mode::Sprint, Settings::default(), 2, well(12), &pieces);
    let mut t = 0;
    // Each upright I in column 0 clears four rows: 12 lines after three.
    for _ in 0..3 {
        t += 1_000;
        game.handle(InputEvent::press(t, Action::RotateCcw));
        game.handle(InputEvent::release(t, Action::RotateCcw));
        game.handle(InputEvent::press(t, Action::Left));
        game.handle(InputEvent::release(t + 500, Action::Left));
        game.update(t + 500, &InputEvent::tap(t + 500, Action::HardDrop));
    }
    assert_eq!(game.lines(), 12);
    let reached: Vec<(u32, u64)> = game.splits().reached().collect();
    assert_eq!(reached, [(10, 3_500)]);
    assert_eq!(game.summary().splits, *game.splits());
    // Other modes keep none.
    let mut marathon = Game::with_setup(
        Mode::Marathon { endless: true },
        Settings::default(),
        2,
        well(12),
        &pieces,
    );
    for _ in 0..3 {
        t += 1_000;
        marathon.update(t, &InputEvent::tap(t, Action::RotateCcw));
        marathon.handle(InputEvent::press(t, Action::Left));
        marathon.handle(InputEvent::release(t + 500, Action::Left));
        marathon.update(t + 500, &InputEvent::tap(t + 500, Action::HardDrop));
    }
    assert_eq!(marathon.lines(), 12);
    assert_eq!(marathon.splits().reached().count(), 0);
}

#[test]
fn old_summaries_load_without_finesse_or_splits() {
    let old = r#"{"mode":"Sprint","score":1,"lines":2,"level":1,"pieces":3,"time_ms":4,
        "pieces_per_second":0.5,"status":"playing"}"#;
    let summary: tetris::Summary = serde_json::from_str(old).expect("an old summary loads");
    assert_eq!(summary.finesse.judged, 0);
    assert_eq!(summary.splits.reached().count(), 0);
}
