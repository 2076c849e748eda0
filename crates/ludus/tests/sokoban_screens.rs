//! The terminal screens, drawn on a `TestBackend` and driven by key events
//! as a player would, with saved data in a temporary directory.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use insta::assert_snapshot;
use ludus::store::DataDir;
use ludus::tui::{App, Start};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn screen(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| app.draw(frame)).unwrap();
    terminal.backend().to_string()
}

fn press(app: &mut App, keys: &str) {
    for c in keys.chars() {
        app.on_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    }
}

fn press_code(app: &mut App, code: KeyCode) {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

/// The play screen on level `level` of the test collection.
fn playing(dir: &Path, level: usize) -> App {
    let start = Start::Sokoban {
        files: vec![data("solved.sok")],
        level: Some(level),
    };
    App::new(DataDir::at(dir), start).unwrap()
}

#[test]
fn launcher() {
    let dir = tempfile::tempdir().unwrap();
    let app = App::new(DataDir::at(dir.path()), Start::Launcher).unwrap();
    assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn terminal_too_small() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = App::new(DataDir::at(dir.path()), Start::Launcher).unwrap();
    assert_snapshot!(screen(&app, 30, 8));
    press(&mut app, "q");
    assert!(app.should_quit());
}

#[test]
fn play_screen_and_help() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = playing(dir.path(), 2);
    assert_snapshot!("play_screen", screen(&app, 80, 24));
    press(&mut app, "?");
    assert_snapshot!("help_overlay", screen(&app, 80, 24));
    press(&mut app, "x");
    assert!(
        !screen(&app, 80, 24).contains("Sokoban keys"),
        "any key closes the help"
    );
}

#[test]
fn solving_shows_the_summary_and_records_progress() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = playing(dir.path(), 2);
    press(&mut app, "wwdswds"); // uurDurD with WASD
    assert_snapshot!("solved_dialog", screen(&app, 80, 24));
    let progress = std::fs::read_to_string(dir.path().join("sokoban/progress.json")).unwrap();
    assert!(progress.contains("\"lurd\": \"uurDurD\""), "{progress}");

    // Back in the browser the level is marked solved with its best.
    press(&mut app, "q");
    let browser = screen(&app, 100, 24);
    assert!(browser.contains("2 ✓ Square"), "{browser}");
    assert!(browser.contains("7/2"), "{browser}");
    assert!(
        browser
            .lines()
            .any(|l| l.contains("▶ Two rooms") && l.contains(" 1/2 ")),
        "{browser}"
    );
}

#[test]
fn progress_follows_the_level_not_its_position() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = playing(dir.path(), 2);
    press(&mut app, "wwdswds");
    // The same levels in another order, in another file.
    let text = std::fs::read_to_string(data("solved.sok")).unwrap();
    let (head, tail) = text.split_at(text.find("; 2").unwrap());
    let reordered = dir.path().join("reordered.sok");
    std::fs::write(
        &reordered,
        format!("{tail}\n{}", head.replace("Title: Two rooms", "")),
    )
    .unwrap();
    let start = Start::Sokoban {
        files: vec![reordered],
        level: None,
    };
    let app = App::new(DataDir::at(dir.path()), start).unwrap();
    let browser = screen(&app, 100, 24);
    assert!(browser.contains("1 ✓ Square"), "{browser}");
    assert!(browser.contains("2 · Corridor"), "{browser}");
}

#[test]
fn deadlock_warning_and_undo() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = playing(dir.path(), 2);
    press(&mut app, "dw"); // push the left box against the top wall: it can never come down
    assert_snapshot!("deadlock_warning", screen(&app, 80, 24));
    press(&mut app, "u");
    assert!(!screen(&app, 80, 24).contains("Deadlock"));
}

/// `g` labels each box and its goal alike, follows the moves, marks a box
/// that can reach no goal with `!`, and hides again.
#[test]
fn goal_hint_labels_boxes_and_their_goals() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = playing(dir.path(), 2);
    press(&mut app, "g");
    assert_snapshot!("goal_hint", screen(&app, 80, 24));
    press(&mut app, "dw"); // the left box against the top wall: no goal for it
    let stuck = screen(&app, 80, 24);
    assert!(stuck.contains('!'), "{stuck}");
    assert_snapshot!("goal_hint_unmatched", stuck);
    // Two columns a cell: the letters still there.
    let mut small = playing(dir.path(), 2);
    press(&mut small, "g");
    assert_snapshot!("goal_hint_small", screen(&small, 40, 12));
    press(&mut app, "ug");
    let hidden = screen(&app, 80, 24);
    assert!(
        !hidden.contains("Goals:") && !hidden.contains('!'),
        "{hidden}"
    );
}

#[test]
fn undo_redo_restart_through_keys() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = playing(dir.path(), 1);
    press(&mut app, "dd");
    assert!(screen(&app, 80, 24).contains("moves 2  pushes 1"));
    press(&mut app, "u");
    assert!(screen(&app, 80, 24).contains("moves 1  pushes 0"));
    press(&mut app, "y");
    assert!(screen(&app, 80, 24).contains("moves 2  pushes 1"));
    press(&mut app, "r");
    assert!(screen(&app, 80, 24).contains("moves 0  pushes 0"));
    press(&mut app, "u");
    assert!(
        screen(&app, 80, 24).contains("moves 2  pushes 1"),
        "restart is undoable"
    );
}

#[test]
fn space_restarts_the_level_and_undo_brings_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = playing(dir.path(), 1);
    press(&mut app, "dd");
    press(&mut app, " ");
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("moves 0  pushes 0"), "{shown}");
    assert!(
        shown.contains("Restarted (u undoes the restart)."),
        "{shown}"
    );
    press(&mut app, "u");
    assert!(screen(&app, 80, 24).contains("moves 2  pushes 1"));
}

#[test]
fn snapshots_save_and_load_through_keys() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = playing(dir.path(), 2);
    press(&mut app, "ww");
    press(&mut app, "S");
    assert!(screen(&app, 80, 24).contains("Snapshot saved at move 2."));
    press(&mut app, "r");
    press(&mut app, "L");
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("Snapshot loaded: move 2"), "{shown}");
    assert!(shown.contains("moves 2  pushes 0"), "{shown}");
    // In a fresh session the snapshot is still there, and undo still works.
    let mut app = playing(dir.path(), 2);
    press(&mut app, "L");
    press(&mut app, "u");
    assert!(screen(&app, 80, 24).contains("moves 1  pushes 0"));
}

#[test]
fn cursor_mode_pushes_a_box_along_the_best_path() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = playing(dir.path(), 1);
    // Cursor starts on the player (1,1); the box is at (3,1), the goal at (5,1).
    press(&mut app, "c");
    press(&mut app, "dd");
    press_code(&mut app, KeyCode::Enter); // pick the box
    press(&mut app, "dd");
    press_code(&mut app, KeyCode::Enter); // push it to the goal
    press(&mut app, "x"); // any key finishes the animation
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("Solved!"), "{shown}");
    assert!(shown.contains("Moves 3   pushes 2"), "{shown}");
}

#[test]
fn a_corrupt_progress_file_is_moved_aside_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("sokoban")).unwrap();
    std::fs::write(dir.path().join("sokoban/progress.json"), "{ not json").unwrap();
    let mut app = playing(dir.path(), 1);
    let shown = screen(&app, 100, 24);
    assert!(shown.contains("progress.json"), "{shown}");
    let names: Vec<String> = std::fs::read_dir(dir.path().join("sokoban"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names
            .iter()
            .any(|n| n.starts_with("progress.json.corrupt-")),
        "{names:?}"
    );
    // The game goes on, and solving writes a fresh progress file.
    press(&mut app, "x"); // dismiss the notice
    press(&mut app, "ddd");
    let progress = std::fs::read_to_string(dir.path().join("sokoban/progress.json")).unwrap();
    assert!(progress.contains("rRR"), "{progress}");
}

#[test]
fn replay_of_the_best_solution_plays_pauses_and_steps() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let mut app = playing(dir.path(), 2);
    // Not solved yet: v does not give the level's stored solution away.
    press(&mut app, "v");
    let shown = screen(&app, 80, 24);
    assert!(
        shown.contains("No solution of yours to replay yet"),
        "{shown}"
    );
    assert!(!shown.contains("Replaying"), "{shown}");
    press(&mut app, "wwdswds");
    press_code(&mut app, KeyCode::Esc); // close the solved dialog
    press(&mut app, "v");
    let start = Instant::now();
    for i in 0..3 {
        app.tick(start + Duration::from_secs(i));
    }
    let shown = screen(&app, 80, 24);
    assert!(
        shown.contains("Replaying your best by moves: step 3/7"),
        "{shown}"
    );
    press(&mut app, " "); // pause
    app.tick(start + Duration::from_secs(10));
    assert!(screen(&app, 80, 24).contains("step 3/7"));
    press_code(&mut app, KeyCode::Right);
    assert!(screen(&app, 80, 24).contains("step 4/7"));
    press_code(&mut app, KeyCode::Left);
    press_code(&mut app, KeyCode::Left);
    let shown = screen(&app, 80, 24);
    assert!(
        shown.contains("step 2/7, 240 ms a step (paused)"),
        "{shown}"
    );
    assert!(
        shown.contains("moves 2  pushes 0"),
        "the replay's own counters: {shown}"
    );
    press_code(&mut app, KeyCode::Esc);
    assert!(
        screen(&app, 80, 24).contains("moves 7  pushes 2"),
        "back to the solved game"
    );
}

/// Ticks the app until `done` holds for the screen, or fails after 20 s.
fn tick_until(app: &mut App, done: impl Fn(&str) -> bool) -> String {
    use std::time::{Duration, Instant};
    let start = Instant::now();
    let mut now = start;
    loop {
        now += Duration::from_millis(200);
        app.tick(now);
        let shown = screen(app, 80, 24);
        if done(&shown) {
            return shown;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "gave up waiting: {shown}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn hint_makes_the_next_push() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = playing(dir.path(), 2);
    press(&mut app, "H");
    let shown = tick_until(&mut app, |s| s.contains("pushes 1"));
    assert!(
        shown.contains("Hint: the next push; 1 more push after it."),
        "{shown}"
    );
    assert!(!shown.contains("Deadlock"), "{shown}");
}

#[test]
fn solve_and_show_plays_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = playing(dir.path(), 2);
    press(&mut app, "A");
    let shown = tick_until(&mut app, |s| s.contains("Solved by the solver"));
    assert!(shown.contains("pushes 2"), "{shown}");
    assert_snapshot!("solved_by_the_solver", shown);
    // The solver's solve is not the player's: nothing is recorded.
    let progress = std::fs::read_to_string(dir.path().join("sokoban/progress.json"));
    assert!(
        progress.as_ref().is_err() || !progress.as_ref().unwrap().contains("\"lurd\""),
        "{progress:?}"
    );

    // Played again by hand, it counts.
    press(&mut app, "r");
    press(&mut app, "wwdswds");
    assert!(screen(&app, 80, 24).contains("First solve of this level!"));
    let progress = std::fs::read_to_string(dir.path().join("sokoban/progress.json")).unwrap();
    assert!(progress.contains("\"lurd\": \"uurDurD\""), "{progress}");
}

#[test]
fn an_unsolvable_position_rewinds_to_the_last_solvable_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = playing(dir.path(), 2);
    press(&mut app, "dw"); // the left box against the top wall
    press(&mut app, "H");
    let shown = tick_until(&mut app, |s| s.contains("cannot be solved any more"));
    assert!(shown.contains("Enter"), "{shown}");
    press_code(&mut app, KeyCode::Enter);
    let shown = tick_until(&mut app, |s| {
        s.contains("Back to the last solvable position")
    });
    assert!(shown.contains("1 step undone"), "{shown}");
    assert!(shown.contains("moves 1  pushes 0"), "{shown}");
}

#[test]
fn esc_during_solve_and_show_stops_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = playing(dir.path(), 2);
    press(&mut app, "A");
    // The solution starts playing; Esc stops it part way.
    let shown = tick_until(&mut app, |s| s.contains("The solver's solution"));
    assert!(!shown.contains("Solved"), "{shown}");
    press_code(&mut app, KeyCode::Esc);
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("Stopped: back where you were."), "{shown}");
    assert!(!shown.contains("Solved by the solver"), "{shown}");
    // The solver's moves went with it.
    assert!(shown.contains("moves 0  pushes 0"), "{shown}");
}

#[test]
fn esc_stops_the_solver() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = playing(dir.path(), 2);
    press(&mut app, "A");
    press_code(&mut app, KeyCode::Esc);
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("Solver stopped."), "{shown}");
    assert!(shown.contains("moves 0  pushes 0"), "{shown}");
}

#[test]
fn the_editor_draws_checks_saves_and_play_tests_a_level() {
    let dir = tempfile::tempdir().unwrap();
    let start = Start::Sokoban {
        files: vec![data("solved.sok")],
        level: None,
    };
    let mut app = App::new(DataDir::at(dir.path()), start).unwrap();
    press(&mut app, "N");
    press_code(&mut app, KeyCode::Down);
    press_code(&mut app, KeyCode::Right);
    press(&mut app, "6"); // player
    press_code(&mut app, KeyCode::Right);
    press_code(&mut app, KeyCode::Right);
    press(&mut app, "4"); // box
    press_code(&mut app, KeyCode::Right);
    press_code(&mut app, KeyCode::Right);
    press(&mut app, "3"); // goal
    assert_snapshot!("editor", screen(&app, 100, 24));
    // At 80 columns the keys take two rows; none is cut off.
    let narrow = screen(&app, 80, 24);
    assert!(
        narrow.contains("[]{} size") && narrow.contains("q back"),
        "{narrow}"
    );

    press(&mut app, "c");
    let shown = tick_until(&mut app, |s| s.contains("Solvable"));
    assert!(shown.contains("Solvable: 2 pushes, 3 moves"), "{shown}");

    press(&mut app, "S");
    let saved = dir.path().join("sokoban/levels/new-level.sok");
    let text = std::fs::read_to_string(&saved).unwrap();
    let level = sokoban::Level::from_xsb(&text).unwrap();
    assert_eq!(level.boxes().len(), 1);
    assert!(screen(&app, 100, 24).contains("Saved to"));

    press(&mut app, "p"); // play-test: the play screen on this level
    press(&mut app, "ddd");
    let shown = screen(&app, 100, 24);
    assert!(
        shown.contains("A play-test: your progress is not recorded."),
        "{shown}"
    );
    assert!(!shown.contains("You have solved every level"), "{shown}");
    let progress = std::fs::read_to_string(dir.path().join("sokoban/progress.json"));
    assert!(
        progress.as_ref().is_err() || !progress.as_ref().unwrap().contains("\"lurd\""),
        "{progress:?}"
    );
    press(&mut app, "q");
    press(&mut app, "q");
    let browser = screen(&app, 100, 24);
    assert!(
        browser.contains("New level"),
        "the saved level is in the browser: {browser}"
    );
}

#[test]
fn the_editor_shows_errors_on_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let start = Start::Sokoban {
        files: vec![data("solved.sok")],
        level: None,
    };
    let mut app = App::new(DataDir::at(dir.path()), start).unwrap();
    press(&mut app, "N");
    let shown = screen(&app, 100, 24);
    assert!(shown.contains("the level has no player"), "{shown}");
    press_code(&mut app, KeyCode::Down);
    press_code(&mut app, KeyCode::Right);
    press(&mut app, "64"); // a player, then a box on the same cell replaces it
    press_code(&mut app, KeyCode::Right);
    press(&mut app, "6");
    press_code(&mut app, KeyCode::Right);
    press(&mut app, "3");
    press_code(&mut app, KeyCode::Up);
    press_code(&mut app, KeyCode::Up);
    press(&mut app, "0"); // a hole in the top wall
    let shown = screen(&app, 100, 24);
    assert!(shown.contains("error: the player's region is"), "{shown}");
    press(&mut app, "S");
    assert!(screen(&app, 100, 24).contains("Fix the errors before saving."));
    assert!(!dir.path().join("sokoban/levels").exists());
}

#[test]
fn best_solutions_export_as_sok_under_each_level() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = playing(dir.path(), 2);
    press(&mut app, "wwdswds");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["sokoban", "solutions", data("solved.sok").to_str().unwrap()])
        .env("LUDUS_DATA_DIR", dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let collection = sokoban::parse_collection(&text);
    let levels: Vec<_> = collection
        .levels
        .iter()
        .map(|l| l.as_ref().unwrap())
        .collect();
    assert_eq!(levels.len(), 2);
    assert!(
        levels[0].meta.solutions.is_empty(),
        "level 1 was not solved: {text}"
    );
    assert_eq!(levels[1].meta.solutions, ["uurDurD"], "{text}");
}

#[test]
fn the_level_list_scrolls_only_when_the_selection_leaves_it() {
    let dir = tempfile::tempdir().unwrap();
    let start = Start::Sokoban {
        files: Vec::new(),
        level: None,
    };
    let mut app = App::new(DataDir::at(dir.path()), start).unwrap();
    let row_of = |shown: &str, number: &str| {
        shown
            .lines()
            .position(|l| l.contains(&format!("│ {number} ")))
            .unwrap_or_else(|| panic!("level {number} not shown: {shown}"))
    };
    for _ in 0..40 {
        press_code(&mut app, KeyCode::Down);
        screen(&app, 80, 24);
    }
    let before = screen(&app, 80, 24);
    press_code(&mut app, KeyCode::Up);
    let after = screen(&app, 80, 24);
    assert_eq!(row_of(&before, "41"), row_of(&after, "41"), "{after}");
    // At 80 columns the footer keeps its way back.
    assert!(
        after
            .lines()
            .last()
            .unwrap_or_default()
            .contains("Esc back"),
        "{after}"
    );
}

#[test]
fn saving_a_new_level_never_replaces_another_and_edits_clear_saved() {
    let dir = tempfile::tempdir().unwrap();
    let draw_and_save = |app: &mut App| {
        press(app, "N");
        press_code(app, KeyCode::Down);
        press_code(app, KeyCode::Right);
        press(app, "6");
        press_code(app, KeyCode::Right);
        press_code(app, KeyCode::Right);
        press(app, "4");
        press_code(app, KeyCode::Right);
        press_code(app, KeyCode::Right);
        press(app, "3");
        press(app, "S");
    };
    let start = || Start::Sokoban {
        files: vec![data("solved.sok")],
        level: None,
    };
    let mut app = App::new(DataDir::at(dir.path()), start()).unwrap();
    draw_and_save(&mut app);
    assert!(screen(&app, 100, 24).contains("Saved to"));
    // Any edit after the save: the line no longer says it is saved.
    press_code(&mut app, KeyCode::Left);
    press(&mut app, "1");
    assert!(!screen(&app, 100, 24).contains("Saved to"));
    // A second new level with the same title gets a file of its own.
    let mut other = App::new(DataDir::at(dir.path()), start()).unwrap();
    draw_and_save(&mut other);
    let files = std::fs::read_dir(dir.path().join("sokoban/levels"))
        .unwrap()
        .count();
    assert_eq!(files, 2);
}

fn mouse(app: &mut App, kind: MouseEventKind, (column, row): (u16, u16)) {
    app.on_mouse(MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    });
}

fn left_click(app: &mut App, at: (u16, u16)) {
    mouse(app, MouseEventKind::Down(MouseButton::Left), at);
}

fn right_click(app: &mut App) {
    mouse(app, MouseEventKind::Down(MouseButton::Right), (0, 0));
}

/// The terminal column and row where `needle` is first drawn.
fn where_drawn(shown: &str, needle: &str) -> (u16, u16) {
    shown
        .lines()
        .enumerate()
        .find_map(|(row, line)| {
            let byte = line.find(needle)?;
            // Minus one: the backend's lines start with a quote.
            let column = line[..byte].chars().count() - 1;
            Some((column as u16, row as u16))
        })
        .unwrap_or_else(|| panic!("{needle:?} is not drawn: {shown}"))
}

/// Ticks through an animation, a second a step.
fn animate(app: &mut App) {
    let start = std::time::Instant::now();
    for i in 0..20 {
        app.tick(start + std::time::Duration::from_secs(i));
    }
}

#[test]
fn the_mouse_pushes_a_picked_box_to_a_clicked_cell_and_right_click_undoes() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = playing(dir.path(), 1);
    // "#@ $ .#" at 4x2 a cell: the box's top row, then the goal two cells on.
    let shown = screen(&app, 80, 24);
    let (x, y) = where_drawn(&shown, "┌──┐");
    left_click(&mut app, (x + 1, y + 1)); // the box's bottom row is the box too
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("Box picked"), "{shown}");
    left_click(&mut app, (x + 8, y));
    animate(&mut app);
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("Solved!"), "{shown}");
    assert!(shown.contains("Moves 3   pushes 2"), "{shown}");
    right_click(&mut app);
    let shown = screen(&app, 80, 24);
    assert!(!shown.contains("Solved!"), "{shown}");
    assert!(shown.contains("moves 2  pushes 1"), "{shown}");
}

#[test]
fn the_mouse_walks_to_a_clicked_cell_and_not_into_walls() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = playing(dir.path(), 2);
    // The Square, 6x5 at 4x2: the player faces down on (1,3).
    let shown = screen(&app, 80, 24);
    let (x, y) = where_drawn(&shown, " ▼▼ ");
    left_click(&mut app, (x, y - 4)); // two cells up: (1,1)
    animate(&mut app);
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("moves 2  pushes 0"), "{shown}");
    left_click(&mut app, (x - 4, y)); // the wall left of where it stood
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("The player cannot walk there."), "{shown}");
    assert!(shown.contains("moves 2  pushes 0"), "{shown}");
    // Off the board: nothing happens.
    left_click(&mut app, (0, 1));
    assert!(screen(&app, 80, 24).contains("moves 2  pushes 0"));
    right_click(&mut app);
    assert!(screen(&app, 80, 24).contains("moves 1  pushes 0"));
}

#[test]
fn a_click_in_cursor_mode_moves_the_cursor_and_acts() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = playing(dir.path(), 1);
    let shown = screen(&app, 80, 24);
    let (x, y) = where_drawn(&shown, "┌──┐");
    press(&mut app, "c");
    left_click(&mut app, (x, y)); // the cursor goes to the box and picks it
    press_code(&mut app, KeyCode::Right);
    press_code(&mut app, KeyCode::Right);
    press_code(&mut app, KeyCode::Enter); // its target, two cells on
    animate(&mut app);
    assert!(screen(&app, 80, 24).contains("Solved!"));
}

#[test]
fn the_wheel_scrolls_the_level_list() {
    let dir = tempfile::tempdir().unwrap();
    let start = Start::Sokoban {
        files: vec![data("solved.sok")],
        level: None,
    };
    let mut app = App::new(DataDir::at(dir.path()), start).unwrap();
    assert!(screen(&app, 100, 24).contains("7x3, 1 box"));
    mouse(&mut app, MouseEventKind::ScrollDown, (50, 10));
    assert!(screen(&app, 100, 24).contains("6x5, 2 boxes"));
    mouse(&mut app, MouseEventKind::ScrollUp, (50, 10));
    assert!(screen(&app, 100, 24).contains("7x3, 1 box"));
}

#[test]
fn the_mouse_setting_switches_clicks_off() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = App::new(DataDir::at(dir.path()), Start::Launcher).unwrap();
    assert!(app.wants_mouse(), "on by default");
    press(&mut app, "4"); // Settings
    press_code(&mut app, KeyCode::Down);
    press_code(&mut app, KeyCode::Down);
    press_code(&mut app, KeyCode::Right);
    assert!(screen(&app, 80, 24).contains("Terminal: mouse"));
    assert!(!app.wants_mouse());
    press_code(&mut app, KeyCode::Esc); // saved
    let saved = std::fs::read_to_string(dir.path().join("settings.json")).unwrap();
    assert!(saved.contains("\"mouse\": false"), "{saved}");

    // A game started with it off ignores clicks.
    let mut app = playing(dir.path(), 2);
    assert!(!app.wants_mouse());
    let shown = screen(&app, 80, 24);
    let (x, y) = where_drawn(&shown, " ▼▼ ");
    left_click(&mut app, (x, y - 4));
    animate(&mut app);
    assert!(screen(&app, 80, 24).contains("moves 0  pushes 0"));
}

/// Settings with the ASCII look chosen.
fn ascii_look(dir: &Path) {
    std::fs::write(
        dir.join("settings.json"),
        r#"{"version": 1, "terminal": {"look": "ascii"}}"#,
    )
    .unwrap();
}

#[test]
fn the_ascii_look_draws_the_board_and_the_browser_in_ascii() {
    let dir = tempfile::tempdir().unwrap();
    ascii_look(dir.path());
    let mut app = playing(dir.path(), 2);
    let shown = screen(&app, 80, 24);
    assert!(shown.is_ascii(), "{shown}");
    assert_snapshot!("ascii_play_screen", shown);
    press(&mut app, "q");
    let shown = screen(&app, 100, 24);
    assert!(shown.is_ascii(), "{shown}");
    assert_snapshot!("ascii_browser", shown);
    // Two columns a cell in a small terminal; the player faces the way he went.
    let mut app = playing(dir.path(), 2);
    press(&mut app, "dw");
    let shown = screen(&app, 40, 12);
    assert!(
        shown.is_ascii() && shown.contains("##  @^[]  ##"),
        "{shown}"
    );
}

#[test]
fn the_automatic_look_is_ascii_where_the_locale_is_not_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = playing(dir.path(), 2);
    assert!(
        !screen(&app, 80, 24).is_ascii(),
        "Unicode in a UTF-8 locale"
    );
    app.set_locale_utf8(false);
    assert!(screen(&app, 80, 24).is_ascii(), "ASCII in the C locale");
}

#[test]
fn the_look_is_chosen_on_the_settings_screen() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = App::new(DataDir::at(dir.path()), Start::Launcher).unwrap();
    press(&mut app, "4"); // Settings
    for _ in 0..3 {
        press_code(&mut app, KeyCode::Down);
    }
    assert!(screen(&app, 80, 24).contains("automatic (Unicode)"));
    press_code(&mut app, KeyCode::Right);
    assert!(!screen(&app, 80, 24).is_ascii(), "Unicode");
    press_code(&mut app, KeyCode::Right);
    let shown = screen(&app, 80, 24);
    assert!(shown.is_ascii() && shown.contains("< ASCII >"), "{shown}");
    press_code(&mut app, KeyCode::Esc);
    let saved = std::fs::read_to_string(dir.path().join("settings.json")).unwrap();
    assert!(saved.contains("\"look\": \"ascii\""), "{saved}");
}

/// Records a solve of `level` in the progress file, as a game would.
fn solved_in_progress(dir: &Path, level: &sokoban::Level, title: &str, collection: &str) {
    let place = ludus::store::progress::Place {
        key: &level.key(),
        title,
        collection,
    };
    ludus::store::progress::record_solution(&DataDir::at(dir), &place, "R", 1, 1, 5).unwrap();
}

/// The browser with no files named: the built-in collections.
fn builtin_browser(dir: &Path) -> App {
    let start = Start::Sokoban {
        files: Vec::new(),
        level: None,
    };
    App::new(DataDir::at(dir), start).unwrap()
}

#[test]
fn the_browser_groups_collections_by_author_with_solved_counts_and_credit() {
    let dir = tempfile::tempdir().unwrap();
    let microban = sokoban::levels::BUILTIN[1].collection();
    let first = microban.levels[0].as_ref().unwrap();
    solved_in_progress(dir.path(), first, "1", "Microban I");
    let mut app = builtin_browser(dir.path());
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("1/155"), "{shown}");
    // Group headers are not chosen: the next collection is Microban I.
    press_code(&mut app, KeyCode::Right);
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("▶ Microban I"), "{shown}");
    assert!(shown.contains("David W. Skinner:"), "the credit: {shown}");
    assert!(shown.contains("  1 ✓"), "{shown}");
    assert_snapshot!("browser_grouped", shown);
    // The header row stays out of the way going back too.
    press_code(&mut app, KeyCode::Left);
    assert!(screen(&app, 80, 24).contains("▶ Ludus Original"));
}

#[test]
fn the_filter_finds_titles_and_shows_unsolved_or_solved_levels() {
    let dir = tempfile::tempdir().unwrap();
    let start = Start::Sokoban {
        files: vec![data("rated.json")],
        level: None,
    };
    let mut app = App::new(DataDir::at(dir.path()), start).unwrap();
    press(&mut app, "/HALL");
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("find: HALL_"), "{shown}");
    assert!(
        shown.contains("Short hall") && shown.contains("Long hall"),
        "{shown}"
    );
    assert!(!shown.contains("Plain room"), "{shown}");
    assert_snapshot!("browser_filtered", shown);
    // Keys go to the filter until Enter; then they work again.
    press_code(&mut app, KeyCode::Enter);
    press(&mut app, "j");
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("find: HALL "), "{shown}");
    assert!(shown.contains("7x3, 1 box"), "the second hall: {shown}");
    // Esc clears the filter before it leaves.
    press_code(&mut app, KeyCode::Esc);
    let shown = screen(&app, 80, 24);
    assert!(
        shown.contains("Plain room") && !shown.contains("find:"),
        "{shown}"
    );
    assert!(!app.should_quit());

    // f: unsolved levels only, then solved ones.
    let rated =
        sokoban::format::json::parse_library(&std::fs::read_to_string(data("rated.json")).unwrap())
            .unwrap();
    let short = rated.levels[0].as_ref().unwrap();
    solved_in_progress(dir.path(), short, "Short hall", "Rated");
    let start = Start::Sokoban {
        files: vec![data("rated.json")],
        level: None,
    };
    let mut app = App::new(DataDir::at(dir.path()), start).unwrap();
    press(&mut app, "f");
    let shown = screen(&app, 100, 24);
    assert!(shown.contains("showing: unsolved"), "{shown}");
    assert!(
        !shown.contains("Short hall") && shown.contains("Long hall"),
        "{shown}"
    );
    press(&mut app, "f");
    let shown = screen(&app, 100, 24);
    assert!(
        shown.contains("Short hall") && !shown.contains("Long hall"),
        "{shown}"
    );
    // Only collections with a solved level are left (the same level is
    // in Ludus Original and Microban I: progress follows the level).
    assert!(!shown.contains("Sasquatch"), "{shown}");
    press(&mut app, "f");
    assert!(screen(&app, 100, 24).contains("Long hall"));
}

#[test]
fn u_jumps_to_the_first_unsolved_level_then_the_next_collection() {
    let dir = tempfile::tempdir().unwrap();
    let rated =
        sokoban::format::json::parse_library(&std::fs::read_to_string(data("rated.json")).unwrap())
            .unwrap();
    let short = rated.levels[0].as_ref().unwrap();
    solved_in_progress(dir.path(), short, "Short hall", "Rated");
    let start = Start::Sokoban {
        files: vec![data("rated.json")],
        level: None,
    };
    let mut app = App::new(DataDir::at(dir.path()), start).unwrap();
    assert!(screen(&app, 100, 24).contains("5x3, 1 box"));
    press(&mut app, "u");
    let shown = screen(&app, 100, 24);
    assert!(shown.contains("7x3, 1 box"), "Long hall: {shown}");
    press(&mut app, "u");
    let shown = screen(&app, 100, 24);
    assert!(shown.contains("▶ Ludus Original"), "{shown}");
}

#[test]
fn level_rows_show_par_and_difficulty_and_an_updated_level_says_so() {
    let dir = tempfile::tempdir().unwrap();
    // A record for "Plain room" of this collection under another key: the
    // level changed since it was solved.
    let place = ludus::store::progress::Place {
        key: "00000000000000ff",
        title: "Plain room",
        collection: "Rated",
    };
    ludus::store::progress::record_solution(&DataDir::at(dir.path()), &place, "R", 1, 1, 5)
        .unwrap();
    let start = Start::Sokoban {
        files: vec![data("rated.json")],
        level: None,
    };
    let mut app = App::new(DataDir::at(dir.path()), start).unwrap();
    let shown = screen(&app, 100, 24);
    assert!(shown.contains("par 1 · Tutorial"), "{shown}");
    assert!(shown.contains("par 3? · Expert"), "best found: {shown}");
    assert!(shown.contains("3 ! Plain room"), "{shown}");
    assert!(shown.contains("!0/3"), "{shown}");
    assert!(shown.contains("par 1 push · Tutorial"), "preview: {shown}");
    press(&mut app, "j");
    let shown = screen(&app, 100, 24);
    assert!(
        shown.contains("par 3 pushes (best found) ·"),
        "preview: {shown}"
    );
    press(&mut app, "j");
    let shown = screen(&app, 100, 24);
    assert!(shown.contains("This level was updated"), "{shown}");
    assert_snapshot!("browser_rated_and_updated", shown);
    // At 80 columns a row takes a shorter rating where the long one would
    // leave its title no room.
    let narrow = screen(&app, 80, 24);
    assert!(narrow.contains("Short hall       1 Tutorial"), "{narrow}");
}

#[test]
fn the_solved_dialog_compares_with_the_par() {
    let dir = tempfile::tempdir().unwrap();
    let start = Start::Sokoban {
        files: vec![data("rated.json")],
        level: Some(1),
    };
    let mut app = App::new(DataDir::at(dir.path()), start).unwrap();
    press(&mut app, "d");
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("par 1 push, you 1, par!"), "{shown}");
    assert_snapshot!("solved_dialog_with_par", shown);
}

/// At 80x24 the preview keeps the whole board of a tall level and cuts the
/// credit under it instead, with `…`.
#[test]
fn the_preview_keeps_the_board_whole_and_cuts_the_credit() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = builtin_browser(dir.path());
    press(&mut app, "/sasquatch iii");
    press_code(&mut app, KeyCode::Enter);
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("8x12, 6 boxes"), "{shown}");
    let board_rows = shown
        .lines()
        .filter(|l| l.chars().skip(60).any(|c| c == '▓'))
        .count();
    assert_eq!(board_rows, 12, "{shown}");
    assert!(
        shown.contains("David W. Skinner:") && shown.contains('…'),
        "{shown}"
    );
}
