// The checks each fuzz target runs on one input; `crates/ludus/tests/fuzz_corpus.rs`
// includes this file too, so the committed corpora run on stable with the
// same assertions. A check panics (the fuzzer's crash) when a property fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use ludus::store::{DataDir, json_file};
use sokoban::Level;
use xiangqi::pgn::{MoveFormat, PgnGame};
use xiangqi::{Game, Position};

/// Longest game time (ms) a Tetris script or replay may reach: the game's
/// own limit, past which scripts and replays are refused (long holds and
/// idle time cost constant time).
pub const MAX_GAME_MS: u64 = tetris::MAX_GAME_TIME_MS;

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// What a board is, without the title and comments around it.
fn board(level: &Level) -> (usize, usize, String, usize, Vec<usize>) {
    (
        level.width(),
        level.height(),
        level.to_xsb(),
        level.player(),
        level.boxes().to_vec(),
    )
}

/// Whether a level is open so that XSB cannot print it: run-length and JSON
/// boards take a row whose first cell is not a wall (`7#|@#-$-.#|7#`,
/// `7#|#@-$#-|.7#`), but plain XSB reads a line as a board row only when its
/// first character other than floor is `#`. Such a level is not closed, so
/// `validate` refuses it; empty rows (`7#||…`) are refused by the parser.
fn known_unprintable(level: &Level) -> bool {
    level
        .to_xsb()
        .lines()
        .any(|row| !row.trim_start().starts_with('#'))
}

/// A level printed as XSB parses back to the same board.
fn check_xsb_round_trip(level: &Level) {
    if known_unprintable(level) {
        return;
    }
    let again = Level::from_xsb(&level.to_xsb())
        .unwrap_or_else(|e| panic!("to_xsb does not re-parse ({e}):\n{}", level.to_xsb()));
    assert_eq!(
        board(&again),
        board(level),
        "to_xsb re-parses to another board"
    );
    assert_eq!(again.map(), level.map());
}

/// Collection text (XSB, SOK, RLE boards): every level that parses prints
/// with `to_xsb` and as run-length text, and both re-parse to the same board.
pub fn sokoban_collection(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let collection = sokoban::parse_collection(text);
    let levels: Vec<Level> = collection
        .valid_levels()
        .map(|(_, l)| l.clone())
        .filter(|l| !known_unprintable(l))
        .collect();
    for level in &levels {
        check_xsb_round_trip(level);
    }
    let rle = sokoban::format::sok::write_rle(&levels);
    let again = sokoban::parse_collection(&rle);
    let boards: Vec<_> = again.valid_levels().map(|(_, l)| board(l)).collect();
    let expected: Vec<_> = levels.iter().map(board).collect();
    assert_eq!(
        boards, expected,
        "write_rle re-parses to other boards:\n{rle}"
    );
}

/// LURD text: what parses writes back as LURD that parses to the same steps.
pub fn sokoban_lurd(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let Ok(steps) = sokoban::lurd::parse(text) else {
        return;
    };
    let written = sokoban::lurd::write(steps.iter().copied());
    assert!(written.chars().all(|c| "lurdLURD".contains(c)));
    let again = sokoban::lurd::parse(&written).expect("written LURD re-parses");
    assert_eq!(again, steps);
}

/// The JSON level library: the levels that parse write back as a library
/// that parses to the same boards and names.
pub fn sokoban_json(data: &[u8]) {
    use sokoban::format::json::{parse_library, write_library};
    let Some(text) = text(data) else { return };
    let Ok(library) = parse_library(text) else {
        return;
    };
    let levels: Vec<Level> = library
        .valid_levels()
        .map(|(_, l)| l.clone())
        .filter(|l| !known_unprintable(l))
        .collect();
    for level in &levels {
        check_xsb_round_trip(level);
    }
    let written = write_library(library.title.as_deref(), &levels);
    let again = parse_library(&written).expect("a written library re-parses");
    let got: Vec<_> = again
        .valid_levels()
        .map(|(_, l)| (board(l), l.meta.title.clone()))
        .collect();
    let expected: Vec<_> = levels
        .iter()
        .map(|l| (board(l), l.meta.title.clone()))
        .collect();
    assert_eq!(got, expected, "write_library re-parses to other levels");
    assert_eq!(again.title, library.title);
}

/// A position from FEN prints back to the same FEN and position, and each
/// legal move made and unmade gives the position back.
fn check_fen(fen: &str) -> Option<Position> {
    let pos = Position::from_fen(fen).ok()?;
    let printed = pos.to_fen();
    let again = Position::from_fen(&printed)
        .unwrap_or_else(|e| panic!("to_fen {printed:?} does not re-parse: {e}"));
    assert_eq!(again, pos, "FEN {printed:?} re-parses to another position");
    assert_eq!(again.to_fen(), printed);
    let mut scratch = pos.clone();
    for &m in pos.legal_moves().iter() {
        let undo = scratch.make_move(m);
        assert_eq!(scratch.key(), scratch.compute_key(), "key after {m:?}");
        scratch.unmake_move(m, undo);
        assert_eq!(scratch, pos, "make/unmake of {m:?} changed the position");
    }
    Some(pos)
}

/// A move in any notation that parses is legal, and its ICCS, UCI, WXF and
/// Chinese renderings parse back to it.
fn check_move_text(pos: &Position, text: &str) -> Option<xiangqi::Move> {
    let m = pos.parse_move(text).ok()?;
    assert!(
        pos.legal_moves().iter().any(|&l| l == m),
        "{text:?} parsed to an illegal move {m:?}"
    );
    for printed in [m.to_iccs(), m.to_uci(), pos.to_wxf(m), pos.to_chinese(m)] {
        let again = pos
            .parse_move(&printed)
            .unwrap_or_else(|e| panic!("{printed:?} (from {text:?}) does not re-parse: {e}"));
        assert_eq!(again, m, "{printed:?} re-parses to another move");
    }
    Some(m)
}

/// Xiangqi text: the bytes as a collection file; each line as FEN and as
/// a database search; the whole text as PGN (written back in
/// each move format, it re-parses to the same start, moves and result); and
/// the first line as a FEN (else the start position) followed by moves in
/// any notation, played in turn.
pub fn xiangqi_text(data: &[u8]) {
    // As a collection file: counted, then parsed, or refused with why.
    if let Ok(records) = ludus::store::xiangqi::read_records("fuzz.pgn", data) {
        assert!(!records.games.is_empty());
    }
    let Some(text) = text(data) else { return };
    for line in text.lines().take(64) {
        check_fen(line.trim());
        // As a games-database search.
        let _ = ludus::session::xiangqi::database::Query::parse(line);
    }
    if let Ok(games) = xiangqi::pgn::parse_all(text) {
        for game in games.iter().take(8) {
            for format in [MoveFormat::Iccs, MoveFormat::Wxf, MoveFormat::Chinese] {
                let written = game.to_pgn(format);
                let again = PgnGame::parse(&written)
                    .unwrap_or_else(|e| panic!("written PGN does not re-parse ({e}):\n{written}"));
                assert_eq!(again.start, game.start, "start of\n{written}");
                let moves = |g: &PgnGame| g.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
                assert_eq!(moves(&again), moves(game), "moves of\n{written}");
                assert_eq!(again.result, game.result, "result of\n{written}");
            }
        }
    }
    let mut lines = text.lines();
    let mut pos = lines
        .next()
        .and_then(|l| Position::from_fen(l.trim()).ok())
        .unwrap_or_else(Position::startpos);
    for line in lines.take(256) {
        if let Some(m) = check_move_text(&pos, line) {
            pos.make_move(m);
        }
    }
}

/// XQF bytes: reading never panics, and a record read writes back as XQF 1.0
/// and as PGN that both read back to the same start, moves and result.
pub fn xiangqi_xqf(data: &[u8]) {
    let Ok(rec) = xiangqi::xqf::read(data) else {
        return;
    };
    let written = xiangqi::xqf::write(&rec.game);
    let again = xiangqi::xqf::read(&written)
        .unwrap_or_else(|e| panic!("written XQF does not re-read ({e})"));
    let moves = |g: &PgnGame| g.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
    assert_eq!(again.game.start, rec.game.start, "start");
    assert_eq!(moves(&again.game), moves(&rec.game), "moves");
    assert_eq!(again.game.result, rec.game.result, "result");
    let pgn = rec.game.to_pgn(MoveFormat::Iccs);
    let back = PgnGame::parse(&pgn)
        .unwrap_or_else(|e| panic!("PGN of an XQF does not parse ({e}):\n{pgn}"));
    assert_eq!(moves(&back), moves(&rec.game), "moves of\n{pgn}");
}

/// An output the harness reads after the session.
#[derive(Clone, Default)]
struct SharedBuf(Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Keeps a fuzzed command line cheap: every search becomes `go depth 1`
/// (keeping `ponder` and `draw`), `perft` stays at depth 2 or less, and hash
/// sizes become 1 MB. Lines that are not UTF-8 go through unchanged.
fn tame(line: &[u8]) -> Vec<u8> {
    let Ok(text) = std::str::from_utf8(line) else {
        return line.to_vec();
    };
    let tokens: Vec<&str> = text.split_whitespace().collect();
    match tokens.first() {
        Some(&"go") => {
            let args = &tokens[1..];
            let mut out = vec!["go"];
            if let Some(i) = args.iter().position(|&t| t == "perft") {
                let depth = args.get(i + 1).and_then(|d| d.parse::<u32>().ok());
                out.extend(["perft", if depth == Some(1) { "1" } else { "2" }]);
            } else {
                out.extend(args.iter().filter(|t| matches!(**t, "ponder" | "draw")));
                out.extend(["depth", "1"]);
            }
            out.join(" ").into_bytes()
        }
        Some(&"setoption") if text.to_ascii_lowercase().contains("hash") => tokens
            .iter()
            .map(|t| {
                if t.bytes().all(|b| b.is_ascii_digit()) {
                    "1"
                } else {
                    t
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
            .into_bytes(),
        _ => line.to_vec(),
    }
}

/// UCI (first byte even) or UCCI command lines through a whole session: no
/// panic or error, every `isready` before `quit` is answered `readyok`, and
/// `multipv N` in info lines stays within 1..=`MAX_MULTI_PV`.
/// `go` arguments are parsed as given, then run tamed (see [`tame`]).
pub fn protocol(data: &[u8]) {
    use ludus::protocol::{Dialect, run_session, ucci, uci};
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let dialect = if first % 2 == 0 {
        Dialect::Uci
    } else {
        Dialect::Ucci
    };
    let mut script = Vec::new();
    let mut isready = 0;
    for line in rest.split(|&b| b == b'\n').take(64) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if let Ok(text) = std::str::from_utf8(line) {
            let tokens: Vec<&str> = text.split_whitespace().collect();
            match tokens.first() {
                Some(&"go") => {
                    let _ = uci::parse_go(&tokens[1..], &Game::new());
                    let _ = ucci::parse_go(&tokens[1..], first & 2 == 0);
                }
                Some(&"isready") => isready += 1,
                Some(&("quit" | "bye")) => {
                    script.extend_from_slice(line);
                    script.push(b'\n');
                    break;
                }
                _ => {}
            }
        }
        script.extend(tame(line));
        script.push(b'\n');
    }
    let out = SharedBuf::default();
    run_session(&script[..], out.clone(), dialect).expect("a session on memory ends well");
    let output = out.0.lock().unwrap_or_else(PoisonError::into_inner).clone();
    let output = String::from_utf8_lossy(&output);
    let readyok = output.lines().filter(|l| *l == "readyok").count();
    // However many lines were asked for, each is numbered within the limit.
    for line in output.lines().filter(|l| l.starts_with("info depth ")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let Some(i) = words.iter().position(|w| *w == "multipv") {
            let n = words.get(i + 1).and_then(|n| n.parse::<usize>().ok());
            assert!(
                n.is_some_and(|n| (1..=xiangqi::engine::MAX_MULTI_PV).contains(&n)),
                "bad line number in {line:?}"
            );
        }
    }
    assert_eq!(
        readyok, isready,
        "isready answered {readyok} of {isready} times"
    );
}

/// Whether every time in a Tetris input list, and the end, is at most [`MAX_GAME_MS`].
fn short_enough(inputs: &[tetris::InputEvent], end_ms: u64) -> bool {
    end_ms <= MAX_GAME_MS && inputs.iter().all(|i| i.time_ms <= MAX_GAME_MS)
}

/// A parsed replay (times bounded) either diverges or plays, and one that
/// plays writes back as JSON that reads back equal and plays again.
fn check_replay(text: &str) -> Option<tetris::Replay> {
    let replay = tetris::Replay::from_json(text).ok()?;
    if !short_enough(&replay.inputs, replay.end_ms) {
        return None;
    }
    replay.play().ok()?;
    let json = replay.to_json();
    let again = tetris::Replay::from_json(&json).expect("a written replay reads back");
    assert_eq!(again, replay);
    again.play().expect("a replay that played plays again");
    Some(replay)
}

/// The Tetris sim script and replay file. The input is tried as a replay;
/// and as a script (times bounded): it runs, and when it sets up no board or
/// queue, its inputs recorded give a replay that replays to the same game.
pub fn tetris(data: &[u8]) {
    let Some(text) = text(data) else { return };
    check_replay(text);
    let Ok(script) = tetris::Script::parse(text) else {
        return;
    };
    if !short_enough(&script.inputs, script.end_ms) {
        return;
    }
    let seed = data.len() as u64;
    script.run(seed);
    let _ = tetris::script::simulate(seed, text);
    if script.board.is_empty() && script.queue.is_empty() {
        let mode = script.mode.unwrap_or_default();
        let mut recorder = tetris::Recorder::new(mode, script.settings, seed);
        recorder.update(script.end_ms, &script.inputs);
        let replay = recorder.replay();
        let played = replay.play().expect("a recorded script replays");
        assert_eq!(&played, recorder.game());
        check_replay(&replay.to_json()).expect("a recorded replay round-trips");
    }
}

/// Whether a web request is answered here without a server: requests that
/// start a solver or an engine search (on the server's thread pools) are only
/// parsed.
fn sokoban_local(request: &ludus::web::sokoban::Request) -> bool {
    use ludus::web::sokoban::Request;
    !matches!(request, Request::Hint { .. } | Request::Solve { .. })
}

fn xiangqi_local(request: &ludus::web::xiangqi::Request) -> bool {
    use ludus::web::xiangqi::{Mode, Request};
    match request {
        Request::New { mode, .. } => *mode == Mode::Humans,
        Request::Import { mode, .. } => *mode == Some(Mode::Humans),
        // These start engine searches, which need the server's runtime.
        Request::Hint { .. }
        | Request::Resume { .. }
        | Request::Open { .. }
        | Request::Analysis { .. }
        | Request::AnalysisPause { .. }
        | Request::Show { .. }
        | Request::Watch { .. }
        | Request::WatchPause { .. }
        | Request::WatchStep { .. }
        | Request::OpenEntry { .. } => false,
        _ => true,
    }
}

/// Every reply is a JSON object with a `type`.
fn check_replies(replies: &[String]) {
    for reply in replies {
        let value: serde_json::Value =
            serde_json::from_str(reply).unwrap_or_else(|e| panic!("reply {reply:?}: {e}"));
        assert!(value.get("type").is_some_and(|t| t.is_string()), "{reply}");
    }
}

/// The web request types of the three games: each line is read by all three
/// parsers (a refusal is itself a JSON reply); the requests that need no
/// thread pool (every Tetris request) are handled in order on one connection of an app
/// over a temporary data directory, and every reply is a typed JSON object.
pub fn web(data: &[u8]) {
    use ludus::web::socket::GameConnection;
    use ludus::web::{App, sokoban, tetris as web_tetris, xiangqi};
    let Some(text) = text(data) else { return };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let app = Arc::new(App::new(
        DataDir::at(dir.path()),
        std::net::Ipv4Addr::LOCALHOST.into(),
        ludus::web::Limits::default(),
    ));
    let (sender, _results) = tokio::sync::mpsc::unbounded_channel::<String>();
    let mut soko = sokoban::Current::default();
    let mut xq = xiangqi::Current::default();
    let mut tet = web_tetris::Conn::default();
    for line in text.lines().take(32) {
        match sokoban::parse(line) {
            Ok(request) if sokoban_local(&request) => {
                check_replies(&soko.handle(&app, request, &sender));
            }
            Ok(_) => {}
            Err(refusal) => check_replies(&[refusal.to_json()]),
        }
        match <xiangqi::Current as GameConnection>::parse(line) {
            Ok(request) if xiangqi_local(&request) => {
                check_replies(&xq.handle(&app, request, &sender));
            }
            Ok(_) => {}
            Err(refusal) => check_replies(&[refusal.to_json()]),
        }
        match <web_tetris::Conn as GameConnection>::parse(line) {
            Ok(request) => check_replies(&tet.handle(&app, request, &sender)),
            Err(refusal) => check_replies(&[refusal.to_json()]),
        }
    }
    soko.closed();
    xq.closed();
    tet.closed();
}

/// Saves what loaded and loads it again: it must come back equal.
fn check_resave<T>(path: &Path, doc: &T)
where
    T: json_file::Document + PartialEq + std::fmt::Debug,
{
    let warning = json_file::save(path, doc).expect("a loaded document saves");
    assert!(warning.is_none(), "{warning:?}");
    let (again, warning) = json_file::load_opt::<T>(path);
    assert!(warning.is_none(), "a saved document reloads: {warning:?}");
    assert_eq!(again.as_ref(), Some(doc));
}

/// Every store file: the first byte picks the file (progress, settings, a
/// snapshot, high scores, a replay, a saved game), the rest is its content,
/// in a temporary data directory. Loading never panics; what loads saves and
/// loads again equal.
pub fn store(data: &[u8]) {
    use ludus::store::{progress, settings, snapshots, tetris as scores, xiangqi as games};
    let Some((&kind, content)) = data.split_first() else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let data_dir = DataDir::at(dir.path());
    let put = |path: &Path| {
        std::fs::create_dir_all(path.parent().expect("a file in a folder")).unwrap();
        std::fs::write(path, content).unwrap();
    };
    match kind % 6 {
        0 => {
            let path = data_dir.sokoban_progress();
            put(&path);
            let (doc, warning) = progress::load(&data_dir);
            if warning.is_none() {
                check_resave(&path, &doc);
            }
        }
        1 => {
            let path = data_dir.settings();
            put(&path);
            let (doc, warning) = settings::load(&data_dir);
            if warning.is_none() {
                check_resave(&path, &doc);
            }
        }
        2 => {
            let key = "0123456789abcdef";
            let path = snapshots::path(&data_dir, key).expect("a snapshot path");
            put(&path);
            let _ = snapshots::list(&data_dir);
            if let Ok((Some(snapshot), None)) = snapshots::load(&data_dir, key) {
                if let Ok(level) = Level::from_xsb(&snapshot.level_xsb) {
                    let _ = ludus::session::sokoban::restore_snapshot(&level, &snapshot);
                }
                check_resave(&path, &snapshot);
            }
        }
        3 => {
            let path = data_dir.tetris_scores();
            put(&path);
            let (doc, warning) = scores::load(&data_dir);
            if warning.is_none() {
                check_resave(&path, &doc);
            }
        }
        4 => {
            let path = data_dir.tetris_replays().join("fuzzed.json");
            put(&path);
            let _ = scores::list_replays(&data_dir);
            let Some(text) = self::text(content) else {
                return;
            };
            // Only replays of bounded time are played (see MAX_GAME_MS).
            if let Some(replay) = check_replay(text) {
                scores::read_replay(&path).expect("a replay that plays is read");
                let saved = scores::save_replay(&data_dir, &replay, 0).expect("a replay saves");
                let again = scores::read_replay(&saved).expect("a saved replay reads");
                assert_eq!(again, replay);
            }
        }
        _ => {
            let path = data_dir.xiangqi_games().join("fuzzed.pgn");
            put(&path);
            let listed = games::list_games(&data_dir);
            let Some(record) = listed.into_iter().find_map(|g| g.record.ok()) else {
                return;
            };
            let pgn = record.to_pgn(MoveFormat::Iccs);
            let saved = games::save_game(&data_dir, None, &pgn).expect("a game saves");
            let text = std::fs::read_to_string(&saved).unwrap();
            let again = PgnGame::parse(&text).expect("a saved game re-parses");
            assert_eq!(again.start, record.start);
            let moves = |g: &PgnGame| g.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
            assert_eq!(moves(&again), moves(&record));
        }
    }
}
