//! Tetris in the terminal, driven as a player would: key events (with press, repeat and
//! release kinds) and ticks at chosen instants, drawn on a `TestBackend`, saved data in a
//! temporary directory.

#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::time::{Duration, Instant};

use insta::assert_snapshot;
use ludus::store::DataDir;
use ludus::store::tetris::{self as store, ScoreEntry};
use ludus::tui::tetris::game::GameScreen;
use ludus::tui::tetris::menu::Menu;
use ludus::tui::tetris::scores::Scores;
use ludus::tui::tetris::settings::TetrisSettingsScreen;
use ludus::tui::{App, Ctx, Screen, Start};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use tetris::{Action as GameAction, InputEvent, Mode, Recorder, Settings};

const MARATHON: Mode = Mode::Marathon { endless: false };

fn app(dir: &Path, open: impl FnOnce(&mut Ctx) -> Box<dyn Screen> + 'static) -> App {
    App::new(DataDir::at(dir), Start::Screen(Box::new(open))).unwrap()
}

fn screen(app: &App) -> String {
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
    terminal.draw(|frame| app.draw(frame)).unwrap();
    terminal.backend().to_string()
}

fn draw(screen: &dyn Screen, ctx: &Ctx) -> String {
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
    terminal
        .draw(|frame| screen.draw(frame, frame.area(), ctx))
        .unwrap();
    terminal.backend().to_string()
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn kind(code: KeyCode, kind: KeyEventKind) -> KeyEvent {
    KeyEvent::new_with_kind(code, KeyModifiers::NONE, kind)
}

fn ms(start: Instant, ms: u64) -> Instant {
    start + Duration::from_millis(ms)
}

/// A player's game screen with its context, outside the app (to look at the game).
fn player(dir: &Path, mode: Mode, seed: u64) -> (GameScreen, Ctx) {
    let mut ctx = Ctx::new(DataDir::at(dir));
    let screen = GameScreen::player(mode, seed, &mut ctx);
    (screen, ctx)
}

fn x_of(screen: &GameScreen) -> i8 {
    screen.game().active().unwrap().x
}

fn write_scores(dir: &Path) {
    let entry = |date, score, lines, time_ms| ScoreEntry {
        date,
        score,
        lines,
        level: 1 + lines / 10,
        pieces: 100,
        time_ms,
        pieces_per_second: 100.0 / (time_ms as f64 / 1000.0),
        assisted: false,
        ..ScoreEntry::default()
    };
    let data = DataDir::at(dir);
    for e in [
        entry(1_790_000_000, 52_000, 61, 300_000),
        entry(1_790_100_000, 1_200, 4, 60_000),
        entry(1_790_200_000, 20, 0, 9_000),
    ] {
        store::record(&data, MARATHON, e).unwrap();
    }
    store::record(&data, Mode::Sprint, entry(1_790_300_000, 4_000, 40, 95_300)).unwrap();
}

#[test]
fn launcher_lists_tetris_and_opens_its_menu() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = App::new(DataDir::at(dir.path()), Start::Launcher).unwrap();
    assert!(screen(&app).contains("2 Tetris"), "{}", screen(&app));
    app.on_key(key(KeyCode::Char('2')));
    assert!(screen(&app).contains("Sprint 40 lines"));
}

#[test]
fn menu() {
    let dir = tempfile::tempdir().unwrap();
    write_scores(dir.path());
    let app = app(dir.path(), |ctx| Box::new(Menu::new(ctx, Some(7))));
    assert_snapshot!("tetris_menu", screen(&app));
}

#[test]
fn game_screen_at_a_fixed_seed_and_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(dir.path(), |ctx| {
        Box::new(GameScreen::player(MARATHON, 7, ctx))
    });
    let t0 = Instant::now();
    app.tick(t0);
    // Two pieces dropped (one moved right, one held first), then 1.5 s of gravity.
    app.on_key(key(KeyCode::Right));
    app.tick(ms(t0, 100));
    app.on_key(key(KeyCode::Char(' ')));
    app.tick(ms(t0, 200));
    app.on_key(key(KeyCode::Char('c')));
    app.tick(ms(t0, 300));
    app.on_key(key(KeyCode::Char(' ')));
    app.tick(ms(t0, 400));
    app.tick(ms(t0, 1_900));
    let shown = screen(&app);
    assert!(shown.contains("Pieces          2"), "{shown}");
    assert_snapshot!("tetris_game", shown);

    app.on_key(key(KeyCode::Char('p')));
    app.tick(ms(t0, 5_000));
    let paused = screen(&app);
    assert!(
        paused.contains("Time       0:01.9"),
        "the clock stops: {paused}"
    );
    assert_snapshot!("tetris_paused", paused);
    app.on_key(key(KeyCode::Esc));
    app.tick(ms(t0, 5_100));
    assert!(screen(&app).contains("Time       0:02.0"));
}

#[test]
fn game_over_records_the_score_and_shows_the_table() {
    let dir = tempfile::tempdir().unwrap();
    write_scores(dir.path());
    let mut app = app(dir.path(), |ctx| {
        Box::new(GameScreen::player(MARATHON, 7, ctx))
    });
    let t0 = Instant::now();
    app.tick(t0);
    let mut t = 0;
    while !screen(&app).contains("Game over") {
        assert!(t < 10_000, "never topped out: {}", screen(&app));
        app.on_key(kind(KeyCode::Char(' '), KeyEventKind::Press));
        app.on_key(kind(KeyCode::Char(' '), KeyEventKind::Release));
        t += 50;
        app.tick(ms(t0, t));
    }
    let shown = screen(&app);
    assert_snapshot!("tetris_game_over", shown);
    let (scores, _) = store::load(&DataDir::at(dir.path()));
    let table = scores.table(MARATHON);
    assert_eq!(table.len(), 4);
    let scores: Vec<u64> = table.iter().map(|e| e.score).collect();
    assert!(scores.is_sorted_by(|a, b| a >= b), "{scores:?}");
    assert_eq!(scores[0], 52_000);
    // Sprint's table is its own.
    assert_eq!(
        store::load(&DataDir::at(dir.path()))
            .0
            .table(Mode::Sprint)
            .len(),
        1
    );

    // Save the replay, then watch it: it ends as the game did.
    app.on_key(key(KeyCode::Char('s')));
    assert!(screen(&app).contains("replay saved: marathon-"));
    app.on_key(key(KeyCode::Char('s')));
    let files = store::list_replays(&DataDir::at(dir.path()));
    assert_eq!(files.len(), 1);
    let replay = store::read_replay(&files[0].path).unwrap();
    assert!(replay.result.topped_out);
    let mut ctx = Ctx::new(DataDir::at(dir.path()));
    let mut watch = GameScreen::watch(replay.clone(), &mut ctx);
    let w0 = Instant::now();
    watch.tick(w0, &mut ctx);
    watch.on_key(key(KeyCode::Char('+')), &mut ctx); // 2×
    watch.tick(ms(w0, replay.end_ms / 2 + 10), &mut ctx);
    assert!(draw(&watch, &ctx).contains("Replay finished"));
    assert_eq!(watch.game().score(), replay.result.score);
    assert!(watch.game().topped_out());

    // `w` watches the game at once; leaving the replay comes back to the summary.
    app.on_key(key(KeyCode::Char('w')));
    app.tick(ms(t0, t + 50));
    assert!(screen(&app).contains("replay  1×"), "{}", screen(&app));
    app.on_key(key(KeyCode::Char('q')));
    assert!(screen(&app).contains("Game over"));

    // Enter starts a new game of the same mode.
    app.on_key(key(KeyCode::Enter));
    app.tick(ms(t0, t + 100));
    let fresh = screen(&app);
    assert!(fresh.contains("Pieces          0"), "{fresh}");
    assert!(fresh.contains("Lines       0/150"), "{fresh}");
}

#[test]
fn high_scores_screen() {
    let dir = tempfile::tempdir().unwrap();
    write_scores(dir.path());
    let mut app = app(dir.path(), |ctx| Box::new(Scores::new(ctx)));
    assert_snapshot!("tetris_high_scores", screen(&app));
    app.on_key(key(KeyCode::Right));
    app.on_key(key(KeyCode::Right));
    let sprint = screen(&app);
    assert!(sprint.contains("1:35.3"), "{sprint}");
    assert!(sprint.contains("2026-09-25"), "{sprint}");
}

#[test]
fn settings_screen_rebinds_keys_without_conflicts_and_saves() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(dir.path(), |_| Box::new(TetrisSettingsScreen::new()));
    assert_snapshot!("tetris_settings", screen(&app));
    // DAS one step down, ARR to 0.
    app.on_key(key(KeyCode::Left));
    app.on_key(key(KeyCode::Down));
    for _ in 0..10 {
        app.on_key(key(KeyCode::Left));
    }
    // Finesse training on.
    for _ in 0..4 {
        app.on_key(key(KeyCode::Down));
    }
    app.on_key(key(KeyCode::Right));
    assert!(screen(&app).contains("Finesse training (retry a fault)"));
    // Rebind "move left" to `j`, then give `j` to hold: left loses it.
    for _ in 0..2 {
        app.on_key(key(KeyCode::Down));
    }
    app.on_key(key(KeyCode::Enter));
    assert!(screen(&app).contains("press a key"));
    app.on_key(key(KeyCode::Char('j')));
    assert!(screen(&app).contains("j now does move left."));
    for _ in 0..7 {
        app.on_key(key(KeyCode::Down));
    }
    app.on_key(key(KeyCode::Char('+')));
    app.on_key(key(KeyCode::Char('j')));
    let shown = screen(&app);
    assert!(
        shown.contains("j now does hold; it no longer does move left."),
        "{shown}"
    );
    // Esc and ? cannot be taken.
    app.on_key(key(KeyCode::Enter));
    app.on_key(key(KeyCode::Char('?')));
    assert!(screen(&app).contains("cannot be bound"));
    app.on_key(key(KeyCode::Esc));
    let saved = std::fs::read_to_string(dir.path().join("settings.json")).unwrap();
    let settings: serde_json::Value = serde_json::from_str(&saved).unwrap();
    let tetris = &settings["tetris"];
    assert_eq!(tetris["handling"]["das_ms"], 150);
    assert_eq!(tetris["handling"]["arr_ms"], 0);
    assert_eq!(tetris["handling"]["finesse_training"], true);
    assert_eq!(tetris["handling"]["finesse_180"], true);
    assert_eq!(tetris["keys"]["left"], serde_json::json!([]));
    assert_eq!(
        tetris["keys"]["hold"],
        serde_json::json!(["c", "shift", "j"])
    );
}

#[test]
fn saved_keys_and_handling_apply_in_the_game() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("settings.json"),
        r#"{"version": 1, "tetris": {"handling": {"das_ms": 100, "arr_ms": 0},
            "keys": {"left": ["j"], "right": ["l"]}}}"#,
    )
    .unwrap();
    let (mut screen, mut ctx) = player(dir.path(), MARATHON, 7);
    let t0 = Instant::now();
    screen.tick(t0, &mut ctx);
    let x = x_of(&screen);
    screen.on_key(key(KeyCode::Left), &mut ctx); // no longer bound
    screen.tick(ms(t0, 10), &mut ctx);
    assert_eq!(x_of(&screen), x);
    screen.on_key(kind(KeyCode::Char('j'), KeyEventKind::Press), &mut ctx);
    screen.tick(ms(t0, 20), &mut ctx);
    assert_eq!(x_of(&screen), x - 1);
    // ARR 0: once DAS (100 ms) charges the piece goes straight to the wall.
    screen.on_key(kind(KeyCode::Char('j'), KeyEventKind::Repeat), &mut ctx);
    screen.tick(ms(t0, 119), &mut ctx);
    assert_eq!(x_of(&screen), x - 1);
    screen.tick(ms(t0, 120), &mut ctx);
    let cells = screen.game().active().unwrap().cells();
    assert_eq!(cells.iter().map(|c| c.0).min(), Some(0));
    let shown = draw(&screen, &ctx);
    assert!(shown.contains("? keys  jl move"), "{shown}");
}

#[test]
fn with_key_releases_das_and_arr_are_timed_by_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let (mut screen, mut ctx) = player(dir.path(), Mode::Zen, 3);
    let t0 = Instant::now();
    screen.tick(t0, &mut ctx);
    // The release of the Enter that opened the game: the terminal reports releases.
    screen.on_key(kind(KeyCode::Enter, KeyEventKind::Release), &mut ctx);
    let x = x_of(&screen);
    screen.on_key(kind(KeyCode::Right, KeyEventKind::Press), &mut ctx);
    screen.tick(ms(t0, 1_000), &mut ctx);
    // Default handling: DAS 167 ms, ARR 33 ms, from the press at 1000 ms.
    assert_eq!(x_of(&screen), x + 1);
    screen.tick(ms(t0, 1_166), &mut ctx);
    assert_eq!(x_of(&screen), x + 1);
    screen.tick(ms(t0, 1_167), &mut ctx);
    assert_eq!(x_of(&screen), x + 2);
    screen.on_key(kind(KeyCode::Right, KeyEventKind::Repeat), &mut ctx);
    screen.tick(ms(t0, 1_200), &mut ctx);
    assert_eq!(x_of(&screen), x + 3);
    screen.on_key(kind(KeyCode::Right, KeyEventKind::Release), &mut ctx);
    screen.tick(ms(t0, 1_210), &mut ctx);
    screen.tick(ms(t0, 2_000), &mut ctx);
    assert_eq!(x_of(&screen), x + 3, "released: no more shifts");
    assert!(screen.has_key_releases());
    // The replay holds the real press and release times.
    let replay = screen.replay().unwrap();
    assert_eq!(
        replay.inputs,
        [
            InputEvent::press(1_000, GameAction::Right),
            InputEvent::release(1_210, GameAction::Right)
        ]
    );
}

#[test]
fn without_key_releases_terminal_repeats_count_as_holding() {
    let dir = tempfile::tempdir().unwrap();
    let (mut screen, mut ctx) = player(dir.path(), Mode::Zen, 3);
    let t0 = Instant::now();
    screen.tick(t0, &mut ctx);
    let x = x_of(&screen) - 3;
    // A tap moves one cell; no repeats follow, so DAS never charges.
    screen.on_key(key(KeyCode::Left), &mut ctx);
    screen.tick(ms(t0, 10), &mut ctx);
    screen.tick(ms(t0, 400), &mut ctx);
    assert_eq!(x_of(&screen), x + 2);
    // Two taps sent at once (tmux, a paste) are two moves, not a repeat.
    screen.on_key(key(KeyCode::Left), &mut ctx);
    screen.on_key(key(KeyCode::Left), &mut ctx);
    screen.tick(ms(t0, 410), &mut ctx);
    assert_eq!(x_of(&screen), x);
    // A held key: the terminal's first press, its repeat delay, then repeats every 30 ms.
    let (mut screen, mut ctx) = player(dir.path(), Mode::Zen, 3);
    screen.tick(t0, &mut ctx);
    let start = x_of(&screen);
    screen.on_key(key(KeyCode::Right), &mut ctx);
    screen.tick(ms(t0, 100), &mut ctx);
    assert_eq!(x_of(&screen), start + 1);
    let mut t = 600;
    let mut seen = Vec::new();
    while t <= 1_200 {
        screen.on_key(key(KeyCode::Right), &mut ctx);
        screen.tick(ms(t0, t), &mut ctx);
        seen.push(x_of(&screen));
        t += 30;
    }
    // At 600 a new press (the hold had timed out), DAS charges 167 ms later, then ARR
    // moves it to the wall; after the repeats stop the key is let go.
    assert_eq!(seen[0], start + 2, "{seen:?}");
    assert_eq!(seen[5], start + 2, "{seen:?}");
    let right = screen.game().active().unwrap().cells().map(|c| c.0);
    assert_eq!(right.iter().max(), Some(&9), "at the wall: {seen:?}");
    screen.tick(ms(t0, 3_000), &mut ctx);
    assert!(!screen.has_key_releases());
    let replay = screen.replay().unwrap();
    assert_eq!(replay.inputs.last().unwrap().edge, tetris::Edge::Release);
}

#[test]
fn losing_focus_pauses_and_hides_the_matrix() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(dir.path(), |ctx| {
        Box::new(GameScreen::player(MARATHON, 7, ctx))
    });
    let t0 = Instant::now();
    app.tick(t0);
    app.on_key(kind(KeyCode::Left, KeyEventKind::Press));
    app.tick(ms(t0, 50));
    app.on_focus(false);
    app.tick(ms(t0, 4_000));
    let shown = screen(&app);
    assert!(shown.contains("Paused"), "{shown}");
    assert!(shown.contains("Time       0:00.0"), "{shown}");
    assert!(
        !shown.contains('█'),
        "no piece is shown while paused: {shown}"
    );
}

#[test]
fn help_lists_every_key() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(dir.path(), |ctx| {
        Box::new(GameScreen::player(MARATHON, 7, ctx))
    });
    app.tick(Instant::now());
    app.on_key(key(KeyCode::Char('?')));
    let shown = screen(&app);
    for text in [
        "← ",
        "move left",
        "Space",
        "hard drop",
        "↑ x",
        "rotate clockwise",
        "rotate 180°",
        "c Shift",
        "hold",
        "p",
        "hint (the bot's placement)",
        "quit to the menu",
        "Esc",
        "Key releases: not seen",
    ] {
        assert!(shown.contains(text), "{text}: {shown}");
    }
    app.on_key(key(KeyCode::Char('x')));
    assert!(
        screen(&app).contains("Paused"),
        "help closes onto the pause"
    );
}

#[test]
fn hint_draws_the_bots_placement_and_marks_the_score() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(dir.path(), |ctx| {
        Box::new(GameScreen::player(Mode::Ultra, 7, ctx))
    });
    let t0 = Instant::now();
    app.tick(t0);
    assert!(!screen(&app).contains("[]"));
    app.on_key(key(KeyCode::Char('h')));
    app.tick(ms(t0, 10));
    let shown = screen(&app);
    assert_eq!(
        shown.matches("[]").count(),
        4 + 1,
        "outline and legend: {shown}"
    );
    // Left to gravity, the pieces pile up before Ultra's two minutes are over; the entry
    // remembers the hint (` h` in the table).
    app.tick(ms(t0, 120_000));
    let shown = screen(&app);
    assert!(shown.contains("Game over"), "{shown}");
    assert!(shown.contains("1:55.0   0.10 h"), "{shown}");
    let (scores, _) = store::load(&DataDir::at(dir.path()));
    assert!(scores.table(Mode::Ultra)[0].assisted);
}

#[test]
fn zen_ends_with_its_summary_on_quit() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(dir.path(), |ctx| {
        Box::new(GameScreen::player(Mode::Zen, 7, ctx))
    });
    let t0 = Instant::now();
    app.tick(t0);
    app.on_key(key(KeyCode::Char(' ')));
    app.tick(ms(t0, 100));
    app.on_key(key(KeyCode::Char('q')));
    app.tick(ms(t0, 200));
    assert!(screen(&app).contains("Game ended"));
    assert_eq!(
        store::load(&DataDir::at(dir.path()))
            .0
            .table(Mode::Zen)
            .len(),
        1
    );
}

#[test]
fn the_demo_bot_plays() {
    let dir = tempfile::tempdir().unwrap();
    let mut ctx = Ctx::new(DataDir::at(dir.path()));
    let mut demo = GameScreen::demo(5, &mut ctx);
    let t0 = Instant::now();
    for i in 0..200 {
        demo.tick(ms(t0, i * 30), &mut ctx);
    }
    assert!(demo.game().pieces() >= 20, "{}", demo.game().pieces());
    assert!(demo.game().is_playing());
    let shown = draw(&demo, &ctx);
    assert!(shown.contains("demo"), "{shown}");
    assert!(demo.replay().is_none());
}

#[test]
fn the_demo_bot_plays_the_same_whatever_the_players_handling() {
    let dir = tempfile::tempdir().unwrap();
    let mut ctx = Ctx::new(DataDir::at(dir.path()));
    ctx.settings.tetris.handling.das_ms = 0;
    ctx.settings.tetris.handling.arr_ms = 0;
    let mut demo = GameScreen::demo(5, &mut ctx);
    let mut standard_ctx = Ctx::new(DataDir::at(dir.path()));
    let mut standard = GameScreen::demo(5, &mut standard_ctx);
    let t0 = Instant::now();
    for i in 0..400 {
        demo.tick(ms(t0, i * 30), &mut ctx);
        standard.tick(ms(t0, i * 30), &mut standard_ctx);
    }
    assert!(demo.game().is_playing(), "topped out with DAS 0");
    assert_eq!(demo.game().pieces(), standard.game().pieces());
    assert_eq!(demo.game().score(), standard.game().score());
}

#[test]
fn watching_a_replay_reaches_the_recorded_result() {
    let dir = tempfile::tempdir().unwrap();
    let mut recorder = Recorder::new(Mode::Sprint, Settings::default(), 9);
    for i in 0..12 {
        let t = 300 * i + 100;
        let action = if i % 2 == 0 {
            GameAction::Left
        } else {
            GameAction::Right
        };
        recorder.update(t, &InputEvent::tap(t, action));
        recorder.update(t + 50, &InputEvent::tap(t + 50, GameAction::HardDrop));
    }
    let replay = recorder.replay();
    let mut ctx = Ctx::new(DataDir::at(dir.path()));
    let mut watch = GameScreen::watch(replay.clone(), &mut ctx);
    let t0 = Instant::now();
    watch.tick(t0, &mut ctx);
    watch.on_key(key(KeyCode::Char(' ')), &mut ctx); // pause
    watch.tick(ms(t0, 2_000), &mut ctx);
    assert_eq!(watch.game().pieces(), 0);
    watch.on_key(key(KeyCode::Char(' ')), &mut ctx);
    watch.tick(ms(t0, 2_000 + 1_000), &mut ctx);
    assert_eq!(watch.game().pieces(), 3, "1 s of replay at 1×");
    watch.on_key(key(KeyCode::Right), &mut ctx); // +5 s
    watch.tick(ms(t0, 3_000), &mut ctx);
    assert_eq!(watch.game(), recorder.game());
    assert!(draw(&watch, &ctx).contains("Replay finished"));
    watch.on_key(key(KeyCode::Left), &mut ctx); // back to 0 s
    watch.tick(ms(t0, 3_000), &mut ctx);
    assert_eq!(watch.game().pieces(), 0);
}

#[test]
fn a_mode_given_on_the_command_line_opens_over_the_menu() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(dir.path(), |ctx| {
        Box::new(Menu::starting(ctx, Some(7), Mode::Sprint))
    });
    let t0 = Instant::now();
    app.tick(t0);
    app.tick(ms(t0, 30));
    assert!(
        screen(&app).contains("Lines        0/40"),
        "{}",
        screen(&app)
    );
    app.on_key(key(KeyCode::Char('q')));
    let menu = screen(&app);
    assert!(menu.contains("▶  3 Sprint 40 lines"), "{menu}");
}

#[test]
fn upper_case_letters_act_as_their_lower_case_keys() {
    let dir = tempfile::tempdir().unwrap();
    let (mut screen, mut ctx) = player(dir.path(), Mode::Zen, 4);
    let t0 = Instant::now();
    screen.tick(t0, &mut ctx);
    let before = screen.game().active().unwrap().rotation;
    screen.on_key(key(KeyCode::Char('X')), &mut ctx);
    screen.tick(ms(t0, 10), &mut ctx);
    assert_ne!(screen.game().active().unwrap().rotation, before);
    screen.on_key(key(KeyCode::Char('C')), &mut ctx);
    screen.tick(ms(t0, 200), &mut ctx);
    assert!(screen.game().hold_piece().is_some());
}

#[test]
fn a_small_terminal_gets_a_message_not_a_broken_board() {
    let dir = tempfile::tempdir().unwrap();
    let (screen, ctx) = player(dir.path(), MARATHON, 7);
    let mut terminal = Terminal::new(TestBackend::new(60, 18)).unwrap();
    terminal
        .draw(|frame| screen.draw(frame, frame.area(), &ctx))
        .unwrap();
    let shown = terminal.backend().to_string();
    assert!(shown.contains("Tetris needs a larger terminal"), "{shown}");
    // 53x21 is enough (without the key hints line).
    let mut terminal = Terminal::new(TestBackend::new(53, 21)).unwrap();
    terminal
        .draw(|frame| screen.draw(frame, frame.area(), &ctx))
        .unwrap();
    let fits = terminal.backend().to_string();
    assert!(
        fits.contains("HOLD") && fits.contains("NEXT") && fits.contains("└"),
        "{fits}"
    );
    assert!(
        shown.contains("at least 53x21 (this one is 60x18)"),
        "{shown}"
    );
}

#[test]
fn the_replay_list_refuses_damaged_files_and_plays_good_ones() {
    let dir = tempfile::tempdir().unwrap();
    let data = DataDir::at(dir.path());
    let mut recorder = Recorder::new(Mode::Ultra, Settings::default(), 5);
    recorder.update(400, &InputEvent::tap(300, GameAction::HardDrop));
    store::save_replay(&data, &recorder.replay(), 1_795_969_800).unwrap();
    std::fs::write(
        data.tetris_replays().join("zz-other.json"),
        r#"{"version": 7}"#,
    )
    .unwrap();
    let mut app = app(dir.path(), |ctx| {
        Box::new(ludus::tui::tetris::replays::Replays::new(ctx))
    });
    let list = screen(&app);
    assert!(list.contains("Ultra 2 minutes"), "{list}");
    assert!(
        list.contains("zz-other.json: the replay is format version 7"),
        "{list}"
    );
    // The damaged one is refused with its reason; the good one opens.
    let damaged_first = list.find("zz-other").unwrap() < list.find("Ultra 2").unwrap();
    if !damaged_first {
        app.on_key(key(KeyCode::Down));
    }
    app.on_key(key(KeyCode::Enter));
    let refused = screen(&app);
    assert!(
        refused.contains("! cannot play the replay") && refused.contains("version 7"),
        "{refused}"
    );
    app.on_key(key(KeyCode::Down));
    app.on_key(key(KeyCode::Enter));
    let t0 = Instant::now();
    app.tick(t0);
    app.tick(ms(t0, 500));
    let watching = screen(&app);
    assert!(watching.contains("Replay finished"), "{watching}");
    assert!(watching.contains("Pieces 1"), "{watching}");
}

#[test]
fn a_release_with_ctrl_held_still_lets_go() {
    let dir = tempfile::tempdir().unwrap();
    let (mut screen, mut ctx) = player(dir.path(), Mode::Zen, 3);
    let t0 = Instant::now();
    screen.tick(t0, &mut ctx);
    screen.on_key(kind(KeyCode::Left, KeyEventKind::Press), &mut ctx);
    screen.tick(ms(t0, 10), &mut ctx);
    let ctrl = KeyEvent::new_with_kind(KeyCode::Left, KeyModifiers::CONTROL, KeyEventKind::Release);
    screen.on_key(ctrl, &mut ctx);
    screen.tick(ms(t0, 20), &mut ctx);
    let x = x_of(&screen);
    screen.tick(ms(t0, 1_000), &mut ctx);
    assert_eq!(x_of(&screen), x, "no auto-shift after the release");
    // A Ctrl chord itself does nothing.
    let chord = KeyEvent::new_with_kind(KeyCode::Right, KeyModifiers::CONTROL, KeyEventKind::Press);
    screen.on_key(chord, &mut ctx);
    screen.tick(ms(t0, 1_010), &mut ctx);
    assert_eq!(x_of(&screen), x);
}

#[test]
fn the_game_pauses_while_the_terminal_is_too_small_to_show_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(dir.path(), |ctx| {
        Box::new(GameScreen::player(MARATHON, 7, ctx))
    });
    let t0 = Instant::now();
    app.tick(t0);
    app.tick(ms(t0, 1_000));
    assert!(screen(&app).contains("Time       0:01.0"));
    // Shrunk below the game's size (the app itself still fits): no clock, no gravity.
    let draw_at = |app: &App, w, h| {
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        terminal.draw(|frame| app.draw(frame)).unwrap();
        terminal.backend().to_string()
    };
    assert!(draw_at(&app, 60, 18).contains("Tetris needs a larger terminal"));
    app.tick(ms(t0, 1_100));
    app.tick(ms(t0, 30_000));
    let back = screen(&app);
    assert!(back.contains("Paused"), "{back}");
    assert!(back.contains("Time       0:01.0"), "{back}");
    // Too small even for the app's own message: the same.
    app.on_key(key(KeyCode::Esc));
    app.tick(ms(t0, 30_100));
    draw_at(&app, 20, 6);
    app.tick(ms(t0, 30_200));
    app.tick(ms(t0, 60_000));
    assert!(
        screen(&app).contains("Time       0:01.1"),
        "{}",
        screen(&app)
    );
}

#[test]
fn at_80_by_24_the_footer_keeps_the_way_to_the_menu() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(dir.path(), |ctx| {
        Box::new(GameScreen::player(MARATHON, 7, ctx))
    });
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|frame| app.draw(frame)).unwrap();
    let shown = terminal.backend().to_string();
    let footer = shown.lines().last().unwrap_or_default().to_owned();
    assert!(footer.contains("q menu"), "{footer}");
    assert!(footer.contains("? keys"), "{footer}");
    assert!(!footer.contains('…'), "{footer}");
}

#[test]
fn quitting_a_game_under_way_asks_first() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(dir.path(), |ctx| {
        Box::new(Menu::starting(ctx, Some(7), Mode::Sprint))
    });
    let t0 = Instant::now();
    app.tick(t0);
    app.on_key(key(KeyCode::Char(' ')));
    app.tick(ms(t0, 100));
    // `q` in a game under way pauses and asks; `n` keeps the game, paused.
    app.on_key(key(KeyCode::Char('q')));
    app.tick(ms(t0, 200));
    let asked = screen(&app);
    assert!(asked.contains("Leave game?"), "{asked}");
    assert_snapshot!("tetris_leave_asks", asked);
    app.on_key(key(KeyCode::Char('n')));
    app.tick(ms(t0, 300));
    let kept = screen(&app);
    assert!(
        kept.contains("Paused") && kept.contains("Pieces          1"),
        "{kept}"
    );
    // Asked again from the pause, `y` leaves for the menu, recording nothing.
    app.on_key(key(KeyCode::Char('q')));
    app.on_key(key(KeyCode::Char('y')));
    let menu = screen(&app);
    assert!(menu.contains("▶  3 Sprint 40 lines"), "{menu}");
    assert!(
        store::load(&DataDir::at(dir.path()))
            .0
            .table(Mode::Sprint)
            .is_empty()
    );
}

#[test]
fn zen_says_so_when_it_clears_a_topped_out_matrix() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(dir.path(), |ctx| {
        Box::new(GameScreen::player(Mode::Zen, 5, ctx))
    });
    let t0 = Instant::now();
    app.tick(t0);
    let mut t = 0;
    let mut told = false;
    while t < 20_000 && !told {
        t += 50;
        app.on_key(kind(KeyCode::Char(' '), KeyEventKind::Press));
        app.tick(ms(t0, t));
        t += 50;
        app.on_key(kind(KeyCode::Char(' '), KeyEventKind::Release));
        app.tick(ms(t0, t));
        told = screen(&app).contains("MATRIX CLEARED");
    }
    assert!(told, "{}", screen(&app));
    assert!(screen(&app).contains("ZEN: TOPPED OUT"));
}

fn draw_sized(screen: &dyn Screen, ctx: &Ctx, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| screen.draw(frame, frame.area(), ctx))
        .unwrap();
    terminal.backend().to_string()
}

#[test]
fn versus_draws_two_boards_meters_and_stats() {
    use ludus::session::tetris::versus::BotLevel;
    use ludus::tui::tetris::versus::{VersusScreen, VersusSetup};
    use tetris::versus::Player;
    let dir = tempfile::tempdir().unwrap();
    let mut ctx = Ctx::new(DataDir::at(dir.path()));
    let mut screen = VersusScreen::new(VersusSetup::ludus(BotLevel::Expert), 7, &mut ctx);
    let start = Instant::now();
    screen.tick(start, &mut ctx);
    let mut t = 0;
    for _ in 0..6 {
        t += 700;
        screen.on_key(kind(KeyCode::Char(' '), KeyEventKind::Press), &mut ctx);
        screen.tick(ms(start, t), &mut ctx);
        screen.on_key(kind(KeyCode::Char(' '), KeyEventKind::Release), &mut ctx);
        screen.tick(ms(start, t + 10), &mut ctx);
    }
    // The player waits while the bot attacks: the lines queue on the player's meter.
    t += 4_000;
    screen.tick(ms(start, t), &mut ctx);
    assert_eq!(screen.session().game(Player::One).pieces(), 6);
    assert!(screen.session().game(Player::Two).pieces() >= 24);
    assert!(screen.session().versus().meter(Player::One).total() > 0);
    assert_snapshot!("versus_playing", draw(&screen, &ctx));

    // Too narrow for two boards: a message instead.
    assert_snapshot!("versus_too_narrow", draw_sized(&screen, &ctx, 60, 30));

    // Paused: the boards are hidden and the bot waits too.
    screen.on_key(key(KeyCode::Esc), &mut ctx);
    let bot_pieces = screen.session().game(Player::Two).pieces();
    screen.tick(ms(start, t + 10_000), &mut ctx);
    assert!(screen.session().is_paused());
    assert_eq!(screen.session().game(Player::Two).pieces(), bot_pieces);
    assert_snapshot!("versus_paused", draw(&screen, &ctx));
    screen.on_key(key(KeyCode::Esc), &mut ctx);
    assert!(!screen.session().is_paused());
}

#[test]
fn versus_ends_with_a_result_and_saves_its_replay() {
    use ludus::session::tetris::versus::{BotLevel, read_versus_replay};
    use ludus::tui::tetris::versus::{VersusScreen, VersusSetup};
    use tetris::versus::{Outcome, Player};
    let dir = tempfile::tempdir().unwrap();
    let mut ctx = Ctx::new(DataDir::at(dir.path()));
    let mut screen = VersusScreen::new(VersusSetup::ludus(BotLevel::Easy), 5, &mut ctx);
    let start = Instant::now();
    screen.tick(start, &mut ctx);
    let mut t = 0;
    // The player hard-drops every piece in the middle until the stack tops out.
    while !screen.session().is_finished() {
        t += 100;
        screen.on_key(kind(KeyCode::Char(' '), KeyEventKind::Press), &mut ctx);
        screen.tick(ms(start, t), &mut ctx);
        screen.on_key(kind(KeyCode::Char(' '), KeyEventKind::Release), &mut ctx);
        screen.tick(ms(start, t + 10), &mut ctx);
        assert!(t < 60_000, "the player never topped out");
    }
    assert_eq!(
        screen.session().outcome(),
        Some(Outcome::Winner(Player::Two))
    );
    screen.on_key(key(KeyCode::Char('s')), &mut ctx);
    let name = screen.session().saved_replay().unwrap().to_owned();
    assert_snapshot!(
        "versus_result",
        draw(&screen, &ctx).replace(name.as_str(), &format!("{:<1$}", "<file>", name.len()))
    );
    let data = DataDir::at(dir.path());
    let replay = read_versus_replay(&data.tetris_versus_replays().join(&name)).unwrap();
    assert_eq!(&replay.play().unwrap(), screen.session().versus());
}

#[test]
fn versus_offers_a_configured_tbp_bot_and_plays_it_live() {
    use ludus::tui::tetris::versus::VersusMenu;
    let dir = tempfile::tempdir().unwrap();
    let data = DataDir::at(dir.path());
    let (mut settings, _) = ludus::store::settings::load(&data);
    let bin = env!("CARGO_BIN_EXE_ludus");
    settings.tetris.bots = vec![format!("'{bin}' tetris tbp")];
    ludus::store::settings::save(&data, &settings).unwrap();
    let mut app = app(dir.path(), |_| Box::new(VersusMenu::new(Some(3))));
    assert_snapshot!("versus_setup", screen(&app));
    app.on_key(key(KeyCode::Right));
    let shown = screen(&app);
    assert!(shown.contains("Opponent: ◀ ludus tetris tbp ▶"), "{shown}");
    app.on_key(key(KeyCode::Char('-')));
    app.on_key(key(KeyCode::Char('-')));
    let shown = screen(&app);
    assert!(shown.contains("Look-ahead: − 1 next piece +"), "{shown}");
    // Expert (3 PPS), the fourth speed.
    app.on_key(key(KeyCode::Char('4')));
    let t0 = Instant::now();
    app.tick(t0);
    let mut t = 0;
    // The bot thinks on its own thread: each tick returns at once, and its pieces come.
    while t < 3_000 {
        t += 100;
        std::thread::sleep(Duration::from_millis(100));
        let before = Instant::now();
        app.tick(ms(t0, t));
        assert!(before.elapsed() < Duration::from_millis(150));
        assert!(t < 20_000, "the TBP bot never played");
    }
    let shown = screen(&app);
    assert!(
        shown.contains("ludus tetris tbp · Expert (3 PPS)"),
        "{shown}"
    );
    // The bot's piece count, under "Pieces" beside its board (the last column).
    let lines: Vec<&str> = shown.lines().collect();
    let row = lines.iter().position(|l| l.contains("Pieces")).unwrap() + 1;
    let count = lines[row]
        .rsplit('│')
        .next()
        .unwrap()
        .trim_matches([' ', '"']);
    let pieces: u64 = count.parse().unwrap();
    assert!(pieces >= 3, "{shown}");
}

/// A Sprint played by the bot until `lines`, recorded: a piece every 400 ms.
fn bot_sprint(seed: u64, lines: u32) -> tetris::Replay {
    use tetris::bot::{Bot, BotMove};
    let mut recorder = Recorder::new(Mode::Sprint, Settings::default(), seed);
    let mut bot = Bot::new();
    let mut t = 0;
    while recorder.game().lines() < lines && recorder.game().is_playing() {
        assert!(t < 200_000, "the bot clears lines");
        t += 400;
        let plan = bot.suggest(recorder.game()).unwrap();
        for step in plan.moves {
            let repeats = if step == BotMove::SoftDrop { 40 } else { 1 };
            for _ in 0..repeats {
                let game = recorder.game();
                if step == BotMove::SoftDrop && game.active().copied() == game.ghost() {
                    break;
                }
                recorder.update(t, &InputEvent::tap(t, step.action()));
            }
        }
    }
    recorder.replay()
}

#[test]
fn sprint_shows_finesse_and_split_times() {
    let dir = tempfile::tempdir().unwrap();
    let replay = bot_sprint(5, 20);
    let mut ctx = Ctx::new(DataDir::at(dir.path()));
    let mut watch = GameScreen::watch(replay.clone(), &mut ctx);
    let w0 = Instant::now();
    watch.tick(w0, &mut ctx);
    watch.tick(ms(w0, replay.end_ms - 1), &mut ctx);
    let live = draw(&watch, &ctx);
    assert!(live.contains("SPLITS"), "{live}");
    assert!(live.contains("Faults"), "{live}");
    assert_eq!(watch.game().splits().reached().count(), 1);
    assert_snapshot!("tetris_sprint_live", live);
    watch.tick(ms(w0, replay.end_ms + 1), &mut ctx);
    let over = draw(&watch, &ctx);
    assert!(over.contains("Splits  10 "), "{over}");
    assert_snapshot!("tetris_sprint_over", over);
}
