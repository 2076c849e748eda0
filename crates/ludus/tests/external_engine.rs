//! An external UCI/UCCI engine behind the worker interface: Ludus's own
//! binary as a well-behaved engine, small shell scripts as broken ones.

use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use ludus::engine_worker::{Event, Job, SearchJob, Setting};
use ludus::external_engine::{EngineWorker, ExternalEngine, ExternalSpec, INFO_BURST};
use ludus::protocol::Dialect;
use xiangqi::engine::Limits;
use xiangqi::{Game, Move, Position};

fn ludus(shell: &str) -> String {
    format!("'{}' xiangqi {shell}", env!("CARGO_BIN_EXE_ludus"))
}

fn spawn(spec: &ExternalSpec) -> (ExternalEngine, mpsc::Receiver<Event>) {
    let (tx, rx) = mpsc::channel();
    let engine = ExternalEngine::spawn(spec, move |e| {
        let _ = tx.send(e);
    })
    .expect("the engine starts");
    (engine, rx)
}

fn search(id: u64, game: &Game, limits: Limits, hold: bool) -> Job {
    Job::Search(Box::new(SearchJob {
        id,
        game: game.clone(),
        limits,
        hold,
        started: Instant::now(),
    }))
}

/// Events up to and including the first answer (`Done` or `Failed`).
fn until_answer(rx: &mpsc::Receiver<Event>, within: Duration) -> Vec<Event> {
    let deadline = Instant::now() + within;
    let mut events = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(e) => {
                let answer = matches!(e, Event::Done { .. } | Event::Failed { .. });
                events.push(e);
                if answer {
                    return events;
                }
            }
            Err(e) => panic!("no answer within {within:?} ({e}): {events:?}"),
        }
    }
}

fn failure(events: &[Event]) -> (u64, String) {
    match events.last() {
        Some(Event::Failed { id, message }) => (*id, message.clone()),
        other => panic!("expected a failure, got {other:?}"),
    }
}

fn best_move(events: &[Event]) -> Option<Move> {
    match events.last() {
        Some(Event::Done { result, .. }) => result.best,
        other => panic!("expected an answer, got {other:?}"),
    }
}

fn depth_four_search(spec: &ExternalSpec, dialect: Dialect) {
    let (engine, rx) = spawn(spec);
    assert_eq!(engine.dialect(), dialect);
    assert!(engine.name().starts_with("Ludus"), "{}", engine.name());
    let mut game = Game::new();
    game.play_text("h2e2").expect("a legal opening");
    engine.send(Job::Configure(Setting::OwnBook(false)));
    engine.send(search(7, &game, Limits::depth(4), false));
    assert!(engine.is_busy());
    let events = until_answer(&rx, Duration::from_secs(60));
    let infos: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Info { id: 7, info } => Some(info),
            _ => None,
        })
        .collect();
    assert!(!infos.is_empty(), "{events:?}");
    assert_eq!(infos.last().map(|i| i.depth), Some(4), "{infos:?}");
    assert!(infos.iter().all(|i| !i.pv.is_empty()), "{infos:?}");
    let best = best_move(&events).expect("a move");
    assert!(game.position().is_legal(best));
    match events.last() {
        Some(Event::Done { id, result, .. }) => {
            assert_eq!(*id, 7);
            assert_eq!(result.depth, 4);
            assert_eq!(result.pv.first(), Some(&best));
        }
        other => panic!("{other:?}"),
    }
    assert!(engine.wait_idle(Duration::from_secs(5)));
    assert!(!engine.is_busy());
}

#[test]
fn ludus_over_uci_searches_to_depth_four() {
    depth_four_search(&ExternalSpec::new(ludus("uci")), Dialect::Uci);
}

#[test]
fn ludus_over_ucci_searches_to_depth_four() {
    let spec = ExternalSpec {
        dialect: Some(Dialect::Ucci),
        ..ExternalSpec::new(ludus("ucci"))
    };
    depth_four_search(&spec, Dialect::Ucci);
}

#[test]
fn stop_ends_an_infinite_search_with_a_move() {
    let (engine, rx) = spawn(&ExternalSpec::new(ludus("uci")));
    let worker: &dyn EngineWorker = &engine;
    worker.send(search(1, &Game::new(), Limits::default(), true));
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        !rx.try_iter().any(|e| matches!(e, Event::Done { .. })),
        "held until stopped"
    );
    let stopped = Instant::now();
    worker.stop();
    let events = until_answer(&rx, Duration::from_secs(10));
    assert!(best_move(&events).is_some());
    assert!(stopped.elapsed() < Duration::from_secs(5));
    // A search queued behind a stop answers too, and the next one runs on.
    worker.send(search(2, &Game::new(), Limits::default(), true));
    worker.stop();
    worker.send(search(3, &Game::new(), Limits::depth(2), false));
    let events = until_answer(&rx, Duration::from_secs(10));
    assert!(matches!(events.last(), Some(Event::Done { id: 2, .. })));
    let events = until_answer(&rx, Duration::from_secs(30));
    assert!(matches!(events.last(), Some(Event::Done { id: 3, .. })));
    // A stop reaches the searches sent before it, not those sent after.
    worker.send(search(4, &Game::new(), Limits::default(), true));
    worker.send(search(5, &Game::new(), Limits::default(), true));
    worker.stop();
    worker.send(search(6, &Game::new(), Limits::default(), true));
    for id in [4, 5] {
        let events = until_answer(&rx, Duration::from_secs(10));
        assert!(
            matches!(events.last(), Some(Event::Done { id: done, .. }) if *done == id),
            "{events:?}"
        );
    }
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        !rx.try_iter().any(|e| matches!(e, Event::Done { .. })),
        "search 6 runs until its own stop"
    );
    worker.stop();
    let events = until_answer(&rx, Duration::from_secs(10));
    assert!(matches!(events.last(), Some(Event::Done { id: 6, .. })));
    worker.shutdown();
}

#[test]
fn settings_become_the_options_the_engine_advertised() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let hello = "id name Fake\\noption name Hash type spin default 16 min 1 max 32\\n\
                 option name MultiPV type spin default 1 min 1 max 5\\n\
                 option name Skill Level type spin default 20 min -20 max 20\\nuciok";
    let command = fake(dir.path(), "uci", hello, "echo bestmove h2e2", &log);
    let (engine, rx) = spawn(&ExternalSpec::new(command));
    for setting in [
        Setting::Hash(64),
        Setting::Hash(8),
        Setting::MultiPv(9),
        Setting::Skill(3),
        Setting::Skill(3),
        Setting::OwnBook(false),
        Setting::NewGame,
    ] {
        engine.send(Job::Configure(setting));
    }
    engine.send(search(1, &Game::new(), Limits::movetime(50), false));
    engine.send(Job::Perft {
        position: Box::new(Position::startpos()),
        depth: 3,
    });
    let events = until_answer(&rx, Duration::from_secs(10));
    assert!(
        matches!(
            events.first(),
            Some(Event::HashUnavailable {
                requested_mb: 64,
                kept_mb: 16
            })
        ),
        "{events:?}"
    );
    assert_eq!(best_move(&events), Move::parse_iccs("h2e2").ok());
    assert!(matches!(
        rx.recv_timeout(Duration::from_secs(5)),
        Ok(Event::PerftStopped { .. })
    ));
    assert!(engine.wait_idle(Duration::from_secs(5)));
    let sent = std::fs::read_to_string(&log).unwrap();
    let sent: Vec<&str> = sent.lines().collect();
    let from_settings: Vec<&str> = sent
        .iter()
        .copied()
        .skip_while(|l| *l != "isready")
        .skip(1)
        .collect();
    assert_eq!(
        from_settings[..5],
        [
            "setoption name Hash value 8",
            "setoption name MultiPV value 5",
            "setoption name Skill Level value 3",
            "ucinewgame",
            "isready",
        ],
        "{sent:?}"
    );
    assert!(from_settings[5].starts_with("position fen "), "{sent:?}");
    assert_eq!(from_settings[6], "go movetime 50");
}

/// Writes a fake engine: it answers the handshake with `hello` (in `echo -e`
/// style), `readyok` to `isready`, runs `on_go` for every `go`, logs every
/// line it reads to `log`, and quits on `quit`.
fn fake(dir: &Path, greeting: &str, hello: &str, on_go: &str, log: &Path) -> String {
    let script = format!(
        "while IFS= read -r l; do\n\
           printf '%s\\n' \"$l\" >> '{log}'\n\
           case \"$l\" in\n\
             {greeting}) printf '{hello}\\n';;\n\
             isready) echo readyok;;\n\
             go*) {on_go};;\n\
             quit) exit 0;;\n\
           esac\n\
         done\n",
        log = log.display(),
    );
    let path = dir.join(format!(
        "engine-{}.sh",
        std::process::id() ^ rand_tag(on_go)
    ));
    std::fs::write(&path, script).expect("the script is written");
    format!("sh '{}'", path.display())
}

/// A file-name tag per script text (tests share no directory, but be safe).
fn rand_tag(text: &str) -> u32 {
    text.bytes()
        .fold(17u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)))
}

fn broken(on_go: &str) -> (tempfile::TempDir, ExternalEngine, mpsc::Receiver<Event>) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let log = dir.path().join("log");
    let command = fake(dir.path(), "uci", "id name Broken\\nuciok", on_go, &log);
    let (engine, rx) = spawn(&ExternalSpec::new(command));
    (dir, engine, rx)
}

#[test]
fn an_early_answer_to_an_infinite_search_waits_for_the_stop() {
    let (_dir, engine, rx) = broken("echo 'info depth 1 score cp 7 pv h2e2'; echo bestmove h2e2");
    engine.send(search(1, &Game::new(), Limits::default(), true));
    std::thread::sleep(Duration::from_millis(300));
    let early: Vec<Event> = rx.try_iter().collect();
    assert!(
        !early.iter().any(|e| matches!(e, Event::Done { .. })),
        "{early:?}"
    );
    engine.stop();
    let events = until_answer(&rx, Duration::from_secs(5));
    assert_eq!(best_move(&events), Move::parse_iccs("h2e2").ok());
}

#[test]
fn an_illegal_best_move_fails_the_search() {
    let (_dir, engine, rx) = broken("echo 'info depth 1 score cp 3 pv a0a1'; echo bestmove a0a5");
    engine.send(search(4, &Game::new(), Limits::depth(1), false));
    let events = until_answer(&rx, Duration::from_secs(10));
    let (id, message) = failure(&events);
    assert_eq!(id, 4);
    assert!(message.contains("illegal move \"a0a5\""), "{message}");
    // The engine is ended: later searches fail at once, saying why.
    engine.send(search(5, &Game::new(), Limits::depth(1), false));
    let (id, message) = failure(&until_answer(&rx, Duration::from_secs(5)));
    assert_eq!(id, 5);
    assert!(message.contains("illegal move"), "{message}");
}

#[test]
fn garbage_then_an_unreadable_answer_fails_the_search() {
    let (_dir, engine, rx) = broken(
        "echo 'info depth x score cp'; echo 'info score mate'; echo '\u{1}\u{2}\u{3}'; \
         echo 'info depth 2 score cp 1 pv zz99 h2e2'; echo bestmove",
    );
    engine.send(search(1, &Game::new(), Limits::depth(1), false));
    let events = until_answer(&rx, Duration::from_secs(10));
    // The one readable report has an empty line: its first move is junk.
    let infos: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Info { info, .. } => Some(info),
            _ => None,
        })
        .collect();
    assert_eq!(infos.len(), 1, "{events:?}");
    assert!(infos[0].pv.is_empty());
    let (_, message) = failure(&events);
    assert!(message.contains("unreadable answer"), "{message}");
}

#[test]
fn an_engine_that_exits_fails_the_search() {
    let (_dir, engine, rx) = broken("exit 3");
    engine.send(search(9, &Game::new(), Limits::depth(1), false));
    let (id, message) = failure(&until_answer(&rx, Duration::from_secs(10)));
    assert_eq!(id, 9);
    assert!(message.contains("exited"), "{message}");
    assert!(engine.wait_idle(Duration::from_secs(5)));
}

#[test]
fn a_silent_engine_times_out() {
    let (_dir, engine, rx) = broken(":");
    let started = Instant::now();
    engine.send(search(2, &Game::new(), Limits::movetime(100), false));
    let (id, message) = failure(&until_answer(&rx, Duration::from_secs(20)));
    assert_eq!(id, 2);
    assert!(message.contains("timed out"), "{message}");
    assert!(started.elapsed() >= Duration::from_secs(5));
}

#[test]
fn floods_and_endless_lines_are_bounded() {
    // A 1 MB line, then 20 000 reports, then the answer.
    let (_dir, engine, rx) = broken(
        "head -c 1000000 /dev/zero | tr '\\0' x; echo; \
         i=0; while [ $i -lt 20000 ]; do echo \"info depth 1 score cp $i pv h2e2\"; i=$((i+1)); done; \
         echo bestmove h2e2",
    );
    engine.send(search(1, &Game::new(), Limits::depth(1), false));
    let events = until_answer(&rx, Duration::from_secs(120));
    assert_eq!(best_move(&events), Move::parse_iccs("h2e2").ok());
    let infos: Vec<i32> = events
        .iter()
        .filter_map(|e| match e {
            Event::Info { info, .. } => Some(xiangqi_cp(info.score)),
            _ => None,
        })
        .collect();
    assert!(infos.len() < 20_000, "{}", infos.len());
    assert!(infos.len() >= INFO_BURST as usize);
    // The latest report is never lost.
    assert_eq!(infos.last(), Some(&19_999));
    match events.last() {
        Some(Event::Done { result, .. }) => assert_eq!(xiangqi_cp(result.score), 19_999),
        other => panic!("{other:?}"),
    }
}

fn xiangqi_cp(score: xiangqi::engine::Score) -> i32 {
    match score {
        xiangqi::engine::Score::Cp(v) => v,
        xiangqi::engine::Score::Mate(_) => panic!("a mate"),
    }
}

#[test]
fn ucci_engines_are_told_the_banned_moves() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let command = fake(
        dir.path(),
        "ucci",
        "id name Fake UCCI\\nucciok",
        "echo bestmove e1e2",
        &log,
    );
    let spec = ExternalSpec {
        dialect: Some(Dialect::Ucci),
        ..ExternalSpec::new(command)
    };
    let (engine, rx) = spawn(&spec);
    // Red's chariot has checked from f1 and e1 in turn: e1f1 now repeats a
    // position a third time, and perpetual check loses.
    let start = Position::from_fen("5k3/9/9/9/9/9/9/9/R8/3K5 w - - 0 1").unwrap();
    let mut game = Game::from_position(start);
    for t in [
        "a1f1", "f9e9", "f1e1", "e9f9", "e1f1", "f9e9", "f1e1", "e9f9",
    ] {
        game.play_text(t).unwrap();
    }
    engine.send(search(1, &game, Limits::movetime(1000), false));
    let events = until_answer(&rx, Duration::from_secs(10));
    assert_eq!(best_move(&events), Move::parse_iccs("e1e2").ok());
    let sent = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = sent.lines().collect();
    let go = lines.iter().position(|l| l.starts_with("go ")).unwrap();
    assert_eq!(lines[go - 1], "banmoves e1f1", "{sent}");
    assert_eq!(lines[go], "go time 1000 movestogo 1");
    assert!(lines.contains(&"setoption usemillisec true"), "{sent}");
    // Without a repetition there is nothing to ban.
    engine.send(search(2, &Game::new(), Limits::depth(3), false));
    let _ = until_answer(&rx, Duration::from_secs(10));
    let sent = std::fs::read_to_string(&log).unwrap();
    assert_eq!(sent.matches("banmoves").count(), 1, "{sent}");
}

#[test]
fn shutdown_ends_a_stubborn_engine_promptly() {
    // Ignores `stop` and `quit`; only a kill ends it.
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("stubborn.sh");
    std::fs::write(
        &script,
        "while IFS= read -r l; do case \"$l\" in uci) printf 'uciok\\n';; \
         isready) echo readyok;; esac; done; sleep 60",
    )
    .unwrap();
    let (engine, rx) = spawn(&ExternalSpec::new(format!("sh '{}'", script.display())));
    engine.send(search(1, &Game::new(), Limits::default(), true));
    engine.send(search(2, &Game::new(), Limits::depth(1), false));
    let started = Instant::now();
    drop(engine);
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    let events: Vec<Event> = rx.try_iter().collect();
    assert!(
        matches!(
            events[..],
            [Event::Failed { id: 1, .. }, Event::Failed { id: 2, .. }]
        ),
        "{events:?}"
    );
}

#[test]
fn a_missing_engine_is_an_error() {
    let Err(error) = ExternalEngine::spawn(&ExternalSpec::new("/nonexistent/engine"), |_| {})
    else {
        panic!("no such engine");
    };
    assert!(
        format!("{error:#}").contains("cannot start engine"),
        "{error:#}"
    );
    let Err(error) = ExternalEngine::spawn(&ExternalSpec::new("  "), |_| {}) else {
        panic!("no command");
    };
    assert!(format!("{error:#}").contains("empty engine command"));
}

#[test]
fn an_engine_that_never_finishes_its_handshake_is_an_error() {
    let started = Instant::now();
    let Err(error) = ExternalEngine::spawn(&ExternalSpec::new("yes 'id name Chatty'"), |_| {})
    else {
        panic!("no handshake");
    };
    assert!(
        format!("{error:#}").contains("more than 10000 lines before uciok"),
        "{error:#}"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
#[ignore = "needs /usr/games/fairy-stockfish"]
fn fairy_stockfish_plays_xiangqi() {
    let path = "/usr/games/fairy-stockfish";
    assert!(Path::new(path).exists(), "{path} is not installed");
    let (engine, rx) = spawn(&ExternalSpec::new(path));
    assert!(
        engine.name().starts_with("Fairy-Stockfish"),
        "{}",
        engine.name()
    );
    engine.send(Job::Configure(Setting::MultiPv(2)));
    let mut game = Game::new();
    game.play_text("h2e2").unwrap();
    engine.send(search(1, &game, Limits::depth(8), false));
    let events = until_answer(&rx, Duration::from_secs(60));
    assert!(events.iter().any(
        |e| matches!(e, Event::Info { info, .. } if info.multipv == 2 && !info.pv.is_empty())
    ));
    let best = best_move(&events).expect("a move");
    assert!(game.position().is_legal(best));
    engine.send(search(2, &game, Limits::default(), true));
    std::thread::sleep(Duration::from_millis(200));
    engine.stop();
    let events = until_answer(&rx, Duration::from_secs(10));
    assert!(best_move(&events).is_some_and(|m| game.position().is_legal(m)));
}

#[test]
#[ignore = "needs /usr/games/fairy-stockfish"]
fn fairy_stockfish_and_ludus_play_a_game_on_the_worker_interface() {
    let (fairy, fairy_events) = spawn(&ExternalSpec::new("/usr/games/fairy-stockfish"));
    let (ludus, ludus_events) = spawn(&ExternalSpec::new(ludus("uci")));
    let players: [(&dyn EngineWorker, &mpsc::Receiver<Event>); 2] =
        [(&fairy, &fairy_events), (&ludus, &ludus_events)];
    let mut game = Game::new();
    for ply in 0..30u64 {
        if game.result().is_some() {
            break;
        }
        let (worker, events) = players[(ply % 2) as usize];
        let limits = Limits {
            time: Some(60_000),
            increment: 0,
            ..Limits::movetime(50)
        };
        worker.send(search(ply, &game, limits, false));
        let answer = until_answer(events, Duration::from_secs(30));
        let best = best_move(&answer).expect("a move while the game goes on");
        game.play(best).expect("a legal move");
    }
    assert!(game.plies().len() >= 10, "{}", game.plies().len());
}
