//! The Xiangqi screens on a `TestBackend`, driven by key events as a player
//! would, with saved data in a temporary directory.

#![allow(clippy::unwrap_used)]

use std::time::Instant;

use insta::assert_snapshot;
use ludus::store::DataDir;
use ludus::tui::xiangqi::play::{Opponent, Play};
use ludus::tui::{App, Start};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use xiangqi::engine::{Score, SearchInfo};
use xiangqi::{Color, Game, Move, Position};

fn screen(app: &App) -> String {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|frame| app.draw(frame)).unwrap();
    terminal.backend().to_string()
}

fn press(app: &mut App, keys: &str) {
    for c in keys.chars() {
        app.on_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    }
}

fn code(app: &mut App, code: KeyCode, times: usize) {
    for _ in 0..times {
        app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
    }
}

/// Types a move on the move line.
fn type_move(app: &mut App, text: &str) {
    press(app, ":");
    press(app, text);
    code(app, KeyCode::Enter, 1);
}

fn two_players(dir: &std::path::Path, game: Game) -> App {
    let start = Start::Screen(Box::new(move |ctx| {
        ludus::tui::xiangqi::two_players(ctx, game)
    }));
    App::new(DataDir::at(dir), start).unwrap()
}

#[test]
fn board_at_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let app = two_players(dir.path(), Game::new());
    let text = screen(&app);
    assert_snapshot!("board_start", text);
    // Double-width pieces and the lines between them keep the files aligned.
    assert!(
        text.contains("車──馬──象──士──將──士──象──馬──車"),
        "{text}"
    );
    assert!(
        text.contains("俥──傌──相──仕──帥──仕──相──傌──俥"),
        "{text}"
    );
    assert!(text.contains("楚 河"));
}

#[test]
fn cursor_picks_a_piece_shows_its_targets_and_moves_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = two_players(dir.path(), Game::new());
    // The cursor starts on Red's general (e0); walk to the cannon on h2.
    code(&mut app, KeyCode::Right, 3);
    code(&mut app, KeyCode::Up, 2);
    code(&mut app, KeyCode::Enter, 1);
    let text = screen(&app);
    assert_snapshot!("cannon_picked_up", text);
    assert!(text.contains("Cursor h2 炮 · picked up h2"), "{text}");
    assert!(text.contains("•"), "targets are marked");
    // Over to e2 and put it down: 炮二平五.
    code(&mut app, KeyCode::Left, 3);
    code(&mut app, KeyCode::Enter, 1);
    let text = screen(&app);
    assert!(text.contains("last move 炮二平五"), "{text}");
    assert!(text.contains("Black to move"), "{text}");
    assert!(text.contains("1. 炮二平五"), "{text}");
    // A black piece can be picked up now, a red one cannot.
    code(&mut app, KeyCode::Enter, 1); // the cursor is on the red cannon
    assert!(screen(&app).contains("It is Black's move"));
}

#[test]
fn typed_moves_in_any_notation_and_the_move_list() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = two_players(dir.path(), Game::new());
    type_move(&mut app, "h2e2");
    type_move(&mut app, "H8+7");
    type_move(&mut app, "马二进三");
    type_move(&mut app, "c6c5");
    let text = screen(&app);
    assert_snapshot!("move_list_chinese", text);
    assert!(text.contains("1. 炮二平五"), "{text}");
    assert!(text.contains("2. 傌二進三"), "{text}");
    press(&mut app, "n");
    let text = screen(&app);
    assert!(text.contains("Moves (WXF; n switches)"), "{text}");
    assert!(text.contains("1. C2.5"), "{text}");
    press(&mut app, "n");
    assert!(screen(&app).contains("1. H2-E2"));
    // The choice is remembered.
    assert_eq!(app.ctx().settings.xiangqi.notation, "iccs");
    // An impossible move is refused with a reason.
    type_move(&mut app, "h2h9");
    assert!(screen(&app).contains("no legal move matches \"h2h9\""));
    // Undo in two-player mode takes back one move.
    press(&mut app, "u");
    assert!(screen(&app).contains("Took back 1 move"));
    assert!(screen(&app).contains("Black to move"));
}

#[test]
fn checkmate_ends_the_game_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let pos = Position::from_fen("4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1").unwrap();
    let mut app = two_players(dir.path(), Game::from_position(pos));
    type_move(&mut app, "i0i9");
    let text = screen(&app);
    assert_snapshot!("checkmate", text);
    assert!(text.contains("Checkmate: Red wins"), "{text}");
    assert!(text.contains("result 1-0"), "{text}");
    // Any key closes the box; the result stays in the status line.
    code(&mut app, KeyCode::Esc, 1);
    let text = screen(&app);
    assert!(!text.contains("Game over"));
    assert!(text.contains("Checkmate: Red wins"));
}

#[test]
fn check_is_announced() {
    let dir = tempfile::tempdir().unwrap();
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1").unwrap();
    let mut app = two_players(dir.path(), Game::from_position(pos));
    type_move(&mut app, "i0i9");
    let text = screen(&app);
    assert!(text.contains("Check! Black must answer it."), "{text}");
}

#[test]
fn thinking_line_against_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let mut game = Game::new();
    game.play_text("h2e2").unwrap();
    let info = SearchInfo {
        multipv: 1,
        depth: 7,
        seldepth: 12,
        score: Score::Cp(-35),
        nodes: 123_456,
        elapsed_ms: 250,
        pv: ["h9g7", "h0g2", "i9h9"]
            .iter()
            .map(|m| Move::parse_iccs(m).unwrap())
            .collect(),
    };
    let start = Start::Screen(Box::new(move |ctx| {
        // The human plays Red, so Ludus (Black) is to move and thinking.
        let mut play = Play::new(
            game,
            Opponent::Engine {
                human: Color::Red,
                level: 4,
            },
            None,
            ctx,
        );
        assert!(play.is_thinking());
        play.show_thinking(info);
        Box::new(play)
    }));
    let app = App::new(DataDir::at(dir.path()), start).unwrap();
    let text = screen(&app);
    assert_snapshot!("thinking", text);
    assert!(
        text.contains("Ludus: depth 7 · Red +0.35 · 493 kN/s"),
        "{text}"
    );
    assert!(text.contains("馬8進7 傌二進三 車9平8"), "{text}");
}

#[test]
fn the_engine_answers_a_move_without_freezing_the_screen() {
    let dir = tempfile::tempdir().unwrap();
    let start = Start::Screen(Box::new(|ctx| {
        Box::new(Play::new(
            Game::new(),
            Opponent::Engine {
                human: Color::Red,
                level: 4,
            },
            None,
            ctx,
        )) as Box<dyn ludus::tui::Screen>
    }));
    let mut app = App::new(DataDir::at(dir.path()), start).unwrap();
    type_move(&mut app, "h2e2");
    let started = Instant::now();
    // The key returned at once; the answer arrives through ticks.
    while !screen(&app).contains("Red to move (you)") {
        assert!(started.elapsed().as_secs() < 30, "no answer");
        app.tick(Instant::now());
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(screen(&app).contains("Ludus plays "));
    // Undo against the engine takes back both moves.
    press(&mut app, "u");
    let text = screen(&app);
    assert!(text.contains("Took back 2 moves"), "{text}");
    assert!(text.contains("Red to move (you)"), "{text}");
    // Ludus takes no draw in an even position; resigning asks first.
    press(&mut app, "d");
    assert!(screen(&app).contains("Ludus declines the draw"));
    press(&mut app, "r");
    assert!(screen(&app).contains("Resign? Press r again"));
    press(&mut app, "r");
    let text = screen(&app);
    assert!(text.contains("Red resigns: Black wins"), "{text}");
    assert!(text.contains("result 0-1"), "{text}");
}

#[test]
fn playing_black_flips_the_board_and_ludus_opens() {
    let dir = tempfile::tempdir().unwrap();
    let start = Start::Screen(Box::new(|ctx| {
        Box::new(Play::new(
            Game::new(),
            Opponent::Engine {
                human: Color::Black,
                level: 0,
            },
            None,
            ctx,
        )) as Box<dyn ludus::tui::Screen>
    }));
    let mut app = App::new(DataDir::at(dir.path()), start).unwrap();
    let started = Instant::now();
    while !screen(&app).contains("Black to move (you)") {
        assert!(started.elapsed().as_secs() < 30, "Ludus did not open");
        app.tick(Instant::now());
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let text = screen(&app);
    // Red's files are numbered from Red's right: 一 is now on the left, at the top.
    assert!(
        text.lines().next().unwrap().contains("一  二  三"),
        "{text}"
    );
    // Rank 0, Red's back rank, is the first row of the board.
    assert!(text.lines().nth(1).unwrap().starts_with("\"0 "), "{text}");
    assert!(text.contains("1. "), "{text}");
}

#[test]
fn save_and_load_a_game_as_pgn() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = two_players(dir.path(), Game::new());
    for m in ["h2e2", "h9g7", "h0g2", "i9h9"] {
        type_move(&mut app, m);
    }
    press(&mut app, "S");
    assert!(screen(&app).contains("Saved as game-"));
    let data = DataDir::at(dir.path());
    let files: Vec<_> = std::fs::read_dir(data.xiangqi_games())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1);
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(text.contains("[Game \"Chinese Chess\"]"), "{text}");
    assert!(
        text.contains("1. 炮二平五 马8进7 2. 马二进三 车9平8 *"),
        "{text}"
    );
    let record = xiangqi::pgn::PgnGame::parse(&text).unwrap();
    let moves: Vec<String> = record.moves.iter().map(|m| m.mv.to_uci()).collect();
    assert_eq!(moves, ["h2e2", "h9g7", "h0g2", "i9h9"]);

    // Open it again from the saved-games list in a fresh session.
    let mut app = two_players(dir.path(), Game::new());
    press(&mut app, "L");
    let list = screen(&app);
    assert!(list.contains("Xiangqi games database"), "{list}");
    assert!(list.contains("1 of 1 game"), "{list}");
    let row = list.lines().find(|l| l.contains("game-")).unwrap();
    assert!(
        row.contains("Red") && row.contains("Black") && row.contains('*'),
        "{list}"
    );
    code(&mut app, KeyCode::Enter, 1);
    let text = screen(&app);
    assert!(text.contains("2. 傌二進三"), "{text}");
    assert!(text.contains("Red to move"), "{text}");
    // Continue and save again: the same file is rewritten.
    type_move(&mut app, "b0c2");
    press(&mut app, "S");
    assert_eq!(std::fs::read_dir(data.xiangqi_games()).unwrap().count(), 1);
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(text.contains("3. 马八进七"), "{text}");
}

#[test]
fn stepping_through_a_loaded_record() {
    let dir = tempfile::tempdir().unwrap();
    let text = "[Game \"Chinese Chess\"]\n[Red \"Hu\"]\n[Black \"Xu\"]\n[Result \"1-0\"]\n\n\
                1. h2e2 h9g7 2. h0g2 i9h9 1-0\n";
    let pgn = xiangqi::pgn::PgnGame::parse(text).unwrap();
    let start = Start::Screen(Box::new(move |ctx| {
        ludus::tui::xiangqi::review(ctx, pgn, "famous.pgn".to_string())
    }));
    let mut app = App::new(DataDir::at(dir.path()), start).unwrap();
    let text = screen(&app);
    assert!(text.contains("famous.pgn: Hu vs Xu"), "{text}");
    assert!(
        text.contains("At the start (of 2 moves): Red to move"),
        "{text}"
    );
    press(&mut app, "]]");
    let text = screen(&app);
    assert!(
        text.contains("After Black's move 1 of 2: Red to move"),
        "{text}"
    );
    assert!(text.contains("last move 馬8進7"), "{text}");
    // No moves while looking at the past.
    type_move(&mut app, "h0g2");
    assert!(screen(&app).contains("earlier position"));
    code(&mut app, KeyCode::End, 1);
    let text = screen(&app);
    assert!(text.contains("Red to move"), "{text}");
    assert!(text.contains("recorded result 1-0"), "{text}");
}

#[test]
fn a_finished_record_shows_its_past_positions_as_past() {
    let dir = tempfile::tempdir().unwrap();
    let text = "[FEN \"4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1\"]\n\n1. i0i9 1-0\n";
    let pgn = xiangqi::pgn::PgnGame::parse(text).unwrap();
    let start = Start::Screen(Box::new(move |ctx| {
        ludus::tui::xiangqi::review(ctx, pgn, "mate.pgn".to_string())
    }));
    let mut app = App::new(DataDir::at(dir.path()), start).unwrap();
    let text = screen(&app);
    assert!(
        text.contains("At the start (of 1 move): Red to move"),
        "{text}"
    );
    assert!(!text.contains("Checkmate"), "{text}");
    code(&mut app, KeyCode::End, 1);
    assert!(screen(&app).contains("Checkmate: Red wins"));
}

#[test]
fn a_small_terminal_gets_a_message_instead_of_a_clipped_board() {
    let dir = tempfile::tempdir().unwrap();
    let app = two_players(dir.path(), Game::new());
    let mut terminal = Terminal::new(TestBackend::new(60, 20)).unwrap();
    terminal.draw(|frame| app.draw(frame)).unwrap();
    let text = terminal.backend().to_string();
    assert!(text.contains("The board needs 68x23"), "{text}");
}

#[test]
fn setup_screen_starts_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let start = Start::Screen(Box::new(ludus::tui::xiangqi::setup));
    let mut app = App::new(DataDir::at(dir.path()), start).unwrap();
    let text = screen(&app);
    assert_snapshot!("setup", text);
    // Two players, then start.
    code(&mut app, KeyCode::Up, 4);
    code(&mut app, KeyCode::Right, 1);
    code(&mut app, KeyCode::Down, 4);
    code(&mut app, KeyCode::Enter, 1);
    let text = screen(&app);
    assert!(text.contains("Red vs Black"), "{text}");
    assert!(!app.ctx().settings.xiangqi.vs_engine);
}

#[test]
fn enter_on_a_value_row_starts_and_two_players_have_no_side_or_strength() {
    let dir = tempfile::tempdir().unwrap();
    let start = Start::Screen(Box::new(ludus::tui::xiangqi::setup));
    let mut app = App::new(DataDir::at(dir.path()), start).unwrap();
    // Up twice from "Start": the Strength row. Enter starts, as the footer says.
    code(&mut app, KeyCode::Up, 2);
    let before = app.ctx().settings.xiangqi.level;
    code(&mut app, KeyCode::Enter, 1);
    let text = screen(&app);
    assert!(text.contains("vs Ludus"), "{text}");
    assert_eq!(app.ctx().settings.xiangqi.level, before);

    let dir = tempfile::tempdir().unwrap();
    let start = Start::Screen(Box::new(ludus::tui::xiangqi::setup));
    let mut app = App::new(DataDir::at(dir.path()), start).unwrap();
    code(&mut app, KeyCode::Up, 4);
    code(&mut app, KeyCode::Right, 1);
    let text = screen(&app);
    assert!(text.contains("two players"), "{text}");
    assert!(!text.contains("You play"), "{text}");
    assert!(!text.contains("Strength"), "{text}");
}

#[test]
fn leaving_a_game_with_unsaved_moves_asks_first() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = two_players(dir.path(), Game::new());
    type_move(&mut app, "h2e2");
    // A wrong typed move, then the natural Esc: the game stays.
    type_move(&mut app, "zz");
    assert!(screen(&app).contains("zz"), "{}", screen(&app));
    code(&mut app, KeyCode::Esc, 1);
    code(&mut app, KeyCode::Esc, 1);
    let text = screen(&app);
    assert!(text.contains("Leave this game?"), "{text}");
    press(&mut app, "x"); // any other key stays
    let text = screen(&app);
    assert!(text.contains("Still playing"), "{text}");
    assert!(text.contains("炮二平五"), "{text}");
    // S saves it first, then leaves.
    press(&mut app, "q");
    press(&mut app, "S");
    assert_eq!(
        std::fs::read_dir(dir.path().join("xiangqi/games"))
            .unwrap()
            .count(),
        1
    );
    assert!(app.should_quit() || !screen(&app).contains("炮二平五"));
}

#[test]
fn a_confirmed_resignation_clears_the_question() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = two_players(dir.path(), Game::new());
    press(&mut app, "r");
    assert!(screen(&app).contains("Press r again"));
    press(&mut app, "r");
    code(&mut app, KeyCode::Esc, 1); // closes the game-over box
    let text = screen(&app);
    assert!(text.contains("Red resigns: Black wins"), "{text}");
    assert!(!text.contains("Press r again"), "{text}");
}

#[test]
fn a_game_opened_from_a_game_takes_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = two_players(dir.path(), Game::new());
    type_move(&mut app, "h2e2");
    press(&mut app, "S"); // saved: nothing to lose
    press(&mut app, "L");
    assert!(screen(&app).contains("Xiangqi games database"));
    code(&mut app, KeyCode::Enter, 1);
    // N, then q from the set-up screen: back where the first game came from,
    // not to the first game.
    press(&mut app, "N");
    assert!(screen(&app).contains("Start the game"), "{}", screen(&app));
    press(&mut app, "q");
    let text = screen(&app);
    assert!(!text.contains("楚 河"), "{text}");
}

#[test]
fn c_switches_the_board_and_the_moves_to_simplified_characters_and_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = two_players(dir.path(), Game::new());
    type_move(&mut app, "h2e2");
    type_move(&mut app, "h9g7");
    let text = screen(&app);
    assert!(text.contains("車──馬──象"), "{text}");
    assert!(text.contains("馬8進7"), "{text}");
    press(&mut app, "c");
    let text = screen(&app);
    assert!(
        text.contains("车──马──象") || text.contains("车──┬"),
        "{text}"
    );
    assert!(text.contains("马8进7"), "{text}");
    assert!(!text.contains('馬'), "{text}");
    assert_eq!(app.ctx().settings.xiangqi.characters, "simplified");
    press(&mut app, "c");
    assert!(screen(&app).contains("馬8進7"));
}

#[test]
fn at_80_columns_the_heading_keeps_the_strength_whole() {
    let dir = tempfile::tempdir().unwrap();
    let start = Start::Screen(Box::new(|ctx| {
        Box::new(Play::new(
            Game::new(),
            Opponent::Engine {
                human: Color::Red,
                level: 8,
            },
            None,
            ctx,
        )) as Box<dyn ludus::tui::Screen>
    }));
    let app = App::new(DataDir::at(dir.path()), start).unwrap();
    let text = screen(&app);
    let name = ludus::session::xiangqi::flow::LEVELS[8].name;
    assert!(text.contains("You (Red) vs Ludus,"), "{text}");
    assert!(text.contains(name), "{name} is cut: {text}");
}

fn screen_sized(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| app.draw(frame)).unwrap();
    terminal.backend().to_string()
}

fn analysis_line(multipv: u32, depth: u32, cp: i32, pos: &Position, pv: &[&str]) -> SearchInfo {
    let mut p = pos.clone();
    SearchInfo {
        multipv,
        depth,
        seldepth: depth + 4,
        score: Score::Cp(cp),
        nodes: 800_000,
        elapsed_ms: 1000,
        pv: pv
            .iter()
            .map(|t| {
                let m = p.parse_move(t).unwrap();
                p.make_move(m);
                m
            })
            .collect(),
    }
}

#[test]
fn analysis_shows_three_lines_and_the_evaluation_graph() {
    let dir = tempfile::tempdir().unwrap();
    let mut game = Game::new();
    for m in ["h2e2", "h9g7", "h0g2", "i9h9"] {
        game.play_text(m).unwrap();
    }
    let root = game.position().clone();
    let lines = vec![
        analysis_line(1, 12, 45, &root, &["i0h0", "b9c7", "b0c2", "g6g5"]),
        analysis_line(2, 12, 30, &root, &["c3c4", "c6c5", "b0c2"]),
        analysis_line(3, 11, -10, &root, &["b2c2", "b9c7"]),
    ];
    let start = Start::Screen(Box::new(move |ctx| {
        let mut play = ludus::tui::xiangqi::play::Play::new(game, Opponent::Humans, None, ctx);
        play.analyse_with(lines);
        Box::new(play)
    }));
    let mut app = App::new(DataDir::at(dir.path()), start).unwrap();
    let text = screen(&app);
    assert_snapshot!("analysis", text);
    assert!(text.contains("Analysis · depth 12 · 800 kN/s"), "{text}");
    assert!(text.contains("1. Red +0.45 d12"), "{text}");
    assert!(text.contains("3. Black +0.10 d11"), "{text}");
    // Taller: the evaluation graph under the moves, at the position shown.
    let text = screen_sized(&app, 100, 40);
    assert_snapshot!("analysis_with_graph", text);
    assert!(
        text.contains("Evaluation (g hides) · here: Red +0.45"),
        "{text}"
    );
    // g hides the graph; p pauses the analysis and keeps its lines.
    press(&mut app, "gp");
    let text = screen_sized(&app, 100, 40);
    assert!(!text.contains("Evaluation (g hides)"), "{text}");
    assert!(text.contains("paused (p resumes)"), "{text}");
    assert!(text.contains("1. Red +0.45 d12"), "{text}");
}

#[test]
fn analysis_is_refused_while_ludus_is_the_opponent() {
    let dir = tempfile::tempdir().unwrap();
    let start = Start::Screen(Box::new(move |ctx| {
        Box::new(ludus::tui::xiangqi::play::Play::new(
            Game::new(),
            Opponent::Engine {
                human: Color::Red,
                level: 0,
            },
            None,
            ctx,
        ))
    }));
    let mut app = App::new(DataDir::at(dir.path()), start).unwrap();
    press(&mut app, "a");
    let text = screen_sized(&app, 120, 24);
    assert!(
        text.contains("Ludus is your opponent: analysis opens when the game is over"),
        "{text}"
    );
}

#[test]
fn setup_offers_engines_playing_each_other_with_configured_engines() {
    let dir = tempfile::tempdir().unwrap();
    // An engine configured as `ludus xiangqi --engine CMD` leaves it.
    let data = DataDir::at(dir.path());
    let (mut settings, _) = ludus::store::settings::load(&data);
    settings.xiangqi.engines = vec!["/usr/games/fairy-stockfish".to_string()];
    ludus::store::settings::save(&data, &settings).unwrap();
    let start = Start::Screen(Box::new(ludus::tui::xiangqi::setup));
    let mut app = App::new(DataDir::at(dir.path()), start).unwrap();
    // Up to the opponent row; Right twice: against Ludus → two players → engines.
    code(&mut app, KeyCode::Up, 4);
    code(&mut app, KeyCode::Right, 2);
    let text = screen(&app);
    assert_snapshot!("setup_engines", text);
    assert!(text.contains("engines play each other"), "{text}");
    assert!(
        text.contains("Red        ◀ Ludus (Expert (1 s per move)) ▶"),
        "{text}"
    );
    assert!(
        text.contains("Black      ◀ Ludus (Master (3 s per move)) ▶"),
        "{text}"
    );
    // Black's row: Left from Master goes back to Expert; Right twice past
    // the last strength reaches the configured engine.
    code(&mut app, KeyCode::Down, 2);
    code(&mut app, KeyCode::Right, 2);
    let text = screen(&app);
    assert!(text.contains("Black      ◀ fairy-stockfish ▶"), "{text}");
}

#[test]
fn a_paused_game_between_engines_steps_back_and_says_who_plays() {
    use ludus::session::xiangqi::{Seat, XiangqiSession};
    let dir = tempfile::tempdir().unwrap();
    let mut game = Game::new();
    for m in ["h2e2", "h9g7"] {
        game.play_text(m).unwrap();
    }
    let start = Start::Screen(Box::new(move |ctx| {
        let seats = [Seat::Ludus { level: 6 }, Seat::Ludus { level: 7 }];
        let session = XiangqiSession::watch(game, seats, None, true);
        Box::new(ludus::tui::xiangqi::play::Play::with_session(session, ctx))
    }));
    let mut app = App::new(DataDir::at(dir.path()), start).unwrap();
    let text = screen_sized(&app, 120, 30);
    assert_snapshot!("watch_paused", text);
    assert!(
        text.contains("Ludus (Expert (1 s per move)) vs Ludus (Master (3 s per move))"),
        "{text}"
    );
    assert!(
        text.contains("Red to move  paused: p goes on, ] plays one move"),
        "{text}"
    );
    // Moves cannot be made by hand.
    type_move(&mut app, "h0g2");
    let text = screen_sized(&app, 120, 30);
    assert!(text.contains("The engines are playing"), "{text}");
    // [ steps back through the game while paused.
    press(&mut app, "[");
    let text = screen_sized(&app, 120, 30);
    assert!(text.contains("After Red's move 1 of 1"), "{text}");
}

#[test]
fn a_tablebase_ending_shows_its_verdict() {
    use ludus::session::xiangqi::XiangqiSession;
    use std::sync::Arc;
    use xiangqi::tablebase::{Material, Tablebases, generate};
    let mut tables = Tablebases::new();
    let kr_k = generate(Material::parse("KR-K").unwrap(), &tables, &mut |_| true).unwrap();
    tables.insert(kr_k);
    let tables = Arc::new(tables);
    let dir = tempfile::tempdir().unwrap();
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
    let expected = format!(
        "Tablebase: Red wins in {}",
        tables.probe(&pos).unwrap().plies().unwrap().div_ceil(2)
    );
    let shared = tables.clone();
    let start = Start::Screen(Box::new(move |ctx| {
        let mut session = XiangqiSession::new(Game::from_position(pos), Opponent::Humans, None);
        session.set_tablebases(Some(shared));
        Box::new(ludus::tui::xiangqi::play::Play::with_session(session, ctx))
    }));
    let mut app = App::new(DataDir::at(dir.path()), start).unwrap();
    let text = screen(&app);
    assert_snapshot!("tablebase_verdict", text);
    assert!(text.contains(&expected), "{text}");
    // After a move the verdict is Black's side of the same story.
    type_move(&mut app, "a0a9");
    let text = screen(&app);
    assert!(text.contains("Tablebase: Red "), "{text}");
}
