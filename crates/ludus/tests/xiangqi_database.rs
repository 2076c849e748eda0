//! The Xiangqi games database from the command line and in the terminal:
//! `ludus xiangqi import` keeps PGN collections and XQF records, refuses
//! what it cannot read with the file's name and why; the database screen
//! lists, searches, filters, imports and opens games (on a `TestBackend`).

#![allow(clippy::unwrap_used)]

mod cli_common;

use std::path::{Path, PathBuf};

use cli_common::{ludus, stdout};
use insta::assert_snapshot;
use ludus::store::DataDir;
use ludus::tui::xiangqi::games::Games;
use ludus::tui::{App, Start};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Three games of a club, one of them undated.
const CLUB: &str = "\
[Event \"Club Cup\"]\n[Date \"2021.04.03\"]\n[Red \"Hu Ronghua\"]\n[Black \"Yang Guanlin\"]\n[Result \"1-0\"]\n\n\
1. h2e2 h9g7 2. h0g2 1-0\n\n\
[Event \"Club Cup\"]\n[Date \"2022.05.06\"]\n[Red \"Wang Tianyi\"]\n[Black \"Hu Ronghua\"]\n[Result \"1/2-1/2\"]\n\n\
1. c3c4 1/2-1/2\n\n\
[Event \"Friendly\"]\n[Red \"Zhao Xinxin\"]\n[Black \"Wang Tianyi\"]\n\n1. b2e2 *\n";

fn spec_xqf() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../xiangqi/tests/data/xqf-1.0-spec-example.xqf")
}

/// A data dir with the club's games and the XQF record imported, a saved
/// game, and a collection that no longer reads.
fn stocked() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let data = DataDir::at(dir.path());
    let club = dir.path().join("club.pgn");
    std::fs::write(&club, CLUB).unwrap();
    ludus::store::xiangqi::import_file(&data, &club).unwrap();
    ludus::store::xiangqi::import_file(&data, &spec_xqf()).unwrap();
    let saved = "[Date \"2024.01.02\"]\n[Red \"You\"]\n[Black \"Friend\"]\n\n1. h2e2 *\n";
    let saved_as = data.xiangqi_games().join("friendly.pgn");
    ludus::store::xiangqi::save_game(&data, Some(&saved_as), saved).unwrap();
    let broken = ludus::store::xiangqi::collections_dir(&data).join("broken.pgn");
    std::fs::write(broken, "1. a0a9 *").unwrap();
    dir
}

fn database(dir: &Path) -> App {
    let start = Start::Screen(Box::new(|ctx| Box::new(Games::new(ctx))));
    App::new(DataDir::at(dir), start).unwrap()
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

fn code(app: &mut App, code: KeyCode) {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

#[test]
fn import_keeps_collections_and_names_what_it_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let club = dir.path().join("club.pgn");
    std::fs::write(&club, CLUB).unwrap();
    let bad = dir.path().join("bad.pgn");
    std::fs::write(&bad, "[Event \"x\"]\n1. h2e2 {never closed\n").unwrap();
    let xqf = spec_xqf();
    let out = ludus(
        &[
            "xiangqi",
            "import",
            club.to_str().unwrap(),
            bad.to_str().unwrap(),
            xqf.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert!(!out.status.success(), "one file failed");
    let text = stdout(&out);
    assert!(
        text.contains("club.pgn: 3 games as xiangqi/collections/club.pgn"),
        "{text}"
    );
    assert!(
        text.contains("1 game as xiangqi/collections/xqf-1.0-spec-example.xqf"),
        "{text}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.pgn: PGN line 2, column 9"), "{err}");
    assert!(err.contains("1 of 3 files not imported"), "{err}");
    let kept = dir.path().join("xiangqi/collections");
    assert_eq!(
        std::fs::read_to_string(kept.join("club.pgn")).unwrap(),
        CLUB
    );
    assert_eq!(
        std::fs::read(kept.join("xqf-1.0-spec-example.xqf")).unwrap(),
        std::fs::read(&xqf).unwrap()
    );
    assert!(!kept.join("bad.pgn").exists());
    // The same name again is numbered, never replaced.
    let again = ludus(&["xiangqi", "import", club.to_str().unwrap()], dir.path());
    assert!(again.status.success());
    assert!(stdout(&again).contains("xiangqi/collections/club-2.pgn"));
    let help = ludus(&["xiangqi", "import", "--help"], dir.path());
    assert!(stdout(&help).contains("PGN with one or many games, or XQF"));
}

#[test]
fn the_database_lists_every_game_newest_first() {
    let dir = stocked();
    let app = database(dir.path());
    let text = screen(&app, 80, 24);
    assert_snapshot!("database_80x24", text);
    assert!(text.contains("5 of 5 games"), "{text}");
    assert!(
        text.contains("broken.pgn cannot be read: PGN line 1"),
        "{text}"
    );
    // Newest first: the saved game of 2024, then 2022, 2021, 1997, undated.
    let order: Vec<usize> = ["You", "Wang Tianyi", "Hu Ronghua", "柳大华", "Zhao Xinxin"]
        .iter()
        .map(|name| text.find(name).unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
    let wide = screen(&app, 132, 30);
    assert_snapshot!("database_132x30", wide);
    assert!(wide.contains("club.pgn #2"), "{wide}");
}

#[test]
fn search_and_result_filter_narrow_the_list() {
    let dir = stocked();
    let mut app = database(dir.path());
    press(&mut app, "/hu ronghua");
    code(&mut app, KeyCode::Enter);
    let text = screen(&app, 80, 24);
    assert!(text.contains("2 of 5 games"), "{text}");
    press(&mut app, "r");
    let text = screen(&app, 80, 24);
    assert_snapshot!("database_search_red_wins", text);
    assert!(text.contains("1 of 5 games"), "{text}");
    assert!(text.contains("Result 1-0"), "{text}");
    assert!(!text.contains("Wang Tianyi"), "{text}");
    // A half-typed date says why and keeps the last list that read (the
    // word "date").
    press(&mut app, "R/");
    code(&mut app, KeyCode::Esc);
    press(&mut app, "/date:19x");
    let text = screen(&app, 80, 24);
    assert!(text.contains("date:19x is not a year"), "{text}");
    assert!(text.contains("0 of 5 games"), "{text}");
    code(&mut app, KeyCode::Backspace);
    press(&mut app, "97");
    let text = screen(&app, 80, 24);
    assert!(text.contains("1 of 5 games"), "{text}");
    assert!(text.contains("柳大华"), "{text}");
}

#[test]
fn a_path_typed_after_i_is_imported_or_refused_with_why() {
    let dir = tempfile::tempdir().unwrap();
    let club = dir.path().join("club.pgn");
    std::fs::write(&club, CLUB).unwrap();
    let mut app = database(dir.path());
    assert!(screen(&app, 80, 24).contains("No games yet"));
    press(&mut app, "i");
    press(&mut app, dir.path().join("missing.pgn").to_str().unwrap());
    code(&mut app, KeyCode::Enter);
    let text = screen(&app, 100, 24);
    assert!(text.contains("missing.pgn: cannot read it"), "{text}");
    press(&mut app, "i");
    press(&mut app, club.to_str().unwrap());
    let prompt = screen(&app, 100, 24);
    assert!(prompt.contains("Import file (PGN or XQF):"), "{prompt}");
    code(&mut app, KeyCode::Enter);
    let text = screen(&app, 100, 24);
    assert!(text.contains("as club.pgn: 3 games"), "{text}");
    assert!(text.contains("3 of 3 games"), "{text}");
}

#[test]
fn enter_opens_the_chosen_game_to_step_through() {
    let dir = stocked();
    let mut app = database(dir.path());
    press(&mut app, "/柳大华");
    code(&mut app, KeyCode::Enter);
    code(&mut app, KeyCode::Enter);
    let text = screen(&app, 100, 30);
    assert!(text.contains("柳大华"), "{text}");
    assert!(!text.contains("games database"), "{text}");
    // Stepping back works as in any loaded record.
    code(&mut app, KeyCode::Left);
    let back = screen(&app, 100, 30);
    assert_ne!(back, text);
}
