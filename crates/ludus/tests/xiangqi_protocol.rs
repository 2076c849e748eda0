//! UCI and UCCI sessions on in-memory readers and writers: scripted input,
//! garbage lines, `stop` during `go infinite`, `go perft`, a `go` while
//! searching, hash sizes that cannot be had. Sessions that could hang run on
//! their own thread and are waited for with a timeout.

#![allow(clippy::unwrap_used)]

use std::io::{BufReader, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ludus::protocol::{Dialect, SessionOptions, run_session, run_session_with};
use xiangqi::{Game, Move, Position};

/// An output the test can read while the session writes to it.
#[derive(Clone, Default)]
struct SharedBuf(Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl SharedBuf {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

/// Runs a whole script (the session ends at the end of input).
fn session(script: &str, dialect: Dialect) -> Vec<String> {
    let out = SharedBuf::default();
    run_session(script.as_bytes(), out.clone(), dialect).unwrap();
    out.text().lines().map(str::to_string).collect()
}

fn bestmove(lines: &[String]) -> &str {
    lines
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap()
}

#[test]
fn uci_handshake_options_and_ready() {
    let lines = session("uci\nisready\n", Dialect::Uci);
    assert_eq!(
        lines[0],
        format!("id name Ludus {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(lines[1].starts_with("id author "));
    for option in ["Hash", "Threads", "Skill Level", "OwnBook"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type "))),
            "{option}: {lines:?}"
        );
    }
    let uciok = lines.iter().position(|l| l == "uciok").unwrap();
    assert_eq!(lines[uciok + 1], "readyok");
    assert_eq!(lines.len(), uciok + 2);
}

#[test]
fn uci_search_reports_info_and_a_legal_bestmove() {
    let script = "uci\nsetoption name OwnBook value false\nucinewgame\n\
                  position startpos moves h2e2 h9g7\ngo depth 4\n";
    let lines = session(script, Dialect::Uci);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 4, "{lines:?}");
    for (i, l) in infos.iter().enumerate() {
        let words: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(words[2], (i + 1).to_string());
        for key in ["seldepth", "score", "nodes", "nps", "time", "pv"] {
            assert!(words.contains(&key), "{key} in {l}");
        }
        assert!(
            l.contains(" score cp ") || l.contains(" score mate "),
            "{l}"
        );
    }
    let mut game = Game::new();
    game.play_text("h2e2").unwrap();
    game.play_text("h9g7").unwrap();
    let best = bestmove(&lines).split_whitespace().next().unwrap();
    assert!(game.legal_moves().contains(Move::parse_iccs(best).unwrap()));
}

#[test]
fn uci_finds_mate_in_one_and_reports_it() {
    let script = "position fen 4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1\ngo depth 3\n";
    let lines = session(script, Dialect::Uci);
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
    assert_eq!(bestmove(&lines), "i0i9");
}

#[test]
fn garbage_gets_an_info_string_and_the_engine_keeps_running() {
    let script = "hello engine\n\
                  position startpos moves h2e2 zz99 h9g7\n\
                  position fen not/a/fen w\n\
                  go depth banana\n\
                  go sideways 3\n\
                  setoption name Hash value lots\n\
                  setoption name Colour value red\n\
                  setoption Hash 3\n\
                  banmoves a0a9\n\
                  \u{1b}[A\n\
                  isready\n\
                  go depth 1\n";
    let lines = session(script, Dialect::Uci);
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string "))
        .collect();
    assert!(
        errors[0].contains("unknown command: hello engine"),
        "{errors:?}"
    );
    assert!(errors[1].contains("illegal move \"zz99\""), "{errors:?}");
    assert!(errors[2].contains("bad FEN"), "{errors:?}");
    assert!(
        errors[3].contains("depth needs a whole number"),
        "{errors:?}"
    );
    assert!(
        errors[4].contains("unknown go parameter \"sideways\""),
        "{errors:?}"
    );
    assert!(errors[5].contains("whole number"), "{errors:?}");
    assert!(
        errors[6].contains("unknown option \"Colour\""),
        "{errors:?}"
    );
    assert!(errors[7].contains("setoption name"), "{errors:?}");
    assert!(errors[8].contains("a0a9"), "{errors:?}");
    assert!(errors[9].contains("unknown command"), "{errors:?}");
    assert!(lines.contains(&"readyok".to_string()));
    // The position kept the legal prefix (h2e2): Black answers.
    let best = Move::parse_iccs(bestmove(&lines).split_whitespace().next().unwrap()).unwrap();
    let mut pos = Position::startpos();
    pos.play(Move::parse_iccs("h2e2").unwrap()).unwrap();
    assert!(pos.is_legal(best), "{best}");
}

#[test]
fn bytes_that_are_not_utf8_are_reported_and_skipped() {
    let out = SharedBuf::default();
    run_session(
        &b"\xff\xfe garbage\nisready\n"[..],
        out.clone(),
        Dialect::Uci,
    )
    .unwrap();
    let lines: Vec<String> = out.text().lines().map(str::to_string).collect();
    assert_eq!(
        lines,
        ["info string input is not UTF-8: line ignored", "readyok"]
    );
}

#[test]
fn go_perft_prints_the_divide_and_the_total() {
    let lines = session("position startpos\ngo perft 3\n", Dialect::Uci);
    let moves: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
        .collect();
    assert_eq!(moves.len(), 44);
    let sum: u64 = moves
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 79666);
    assert!(lines.contains(&"Nodes searched: 79666".to_string()));
    let names: Vec<&str> = moves.iter().map(|l| l.split(':').next().unwrap()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "in ICCS order");
}

/// Writes lines into a running session with pauses, as a GUI would.
fn live_session(dialect: Dialect) -> (std::io::PipeWriter, SharedBuf, std::thread::JoinHandle<()>) {
    let (reader, writer) = std::io::pipe().unwrap();
    let out = SharedBuf::default();
    let sink = out.clone();
    let handle = std::thread::spawn(move || {
        run_session(BufReader::new(reader), sink, dialect).unwrap();
    });
    (writer, out, handle)
}

fn wait_for(out: &SharedBuf, needle: &str, timeout: Duration) -> Option<Duration> {
    let started = Instant::now();
    while started.elapsed() < timeout {
        if out.text().contains(needle) {
            return Some(started.elapsed());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    None
}

#[test]
fn stop_ends_an_infinite_search_promptly() {
    let (mut input, out, handle) = live_session(Dialect::Uci);
    writeln!(input, "setoption name OwnBook value false").unwrap();
    writeln!(input, "position startpos").unwrap();
    writeln!(input, "go infinite").unwrap();
    assert!(wait_for(&out, "info depth 3", Duration::from_secs(20)).is_some());
    std::thread::sleep(Duration::from_millis(300));
    assert!(!out.text().contains("bestmove"), "no answer before stop");
    // The reading loop is not blocked by the search.
    writeln!(input, "isready").unwrap();
    assert!(wait_for(&out, "readyok", Duration::from_secs(2)).is_some());
    writeln!(input, "stop").unwrap();
    let took = wait_for(&out, "bestmove", Duration::from_secs(5)).unwrap();
    assert!(took < Duration::from_secs(1), "stop took {took:?}");
    writeln!(input, "quit").unwrap();
    handle.join().unwrap();
    let text = out.text();
    let best = text
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap();
    let m = Move::parse_iccs(best.split_whitespace().next().unwrap()).unwrap();
    assert!(Position::startpos().is_legal(m));
}

#[test]
fn ucci_session() {
    let script = "ucci\n\
                  setoption usemillisec true\n\
                  setoption usebook false\n\
                  setoption hashsize 8\n\
                  position startpos moves h2e2\n\
                  probe startpos\n\
                  banmoves h9g7 b9c7\n\
                  go depth 3\n";
    let lines = session(script, Dialect::Ucci);
    let ucciok = lines.iter().position(|l| l == "ucciok").unwrap();
    assert!(
        lines[..ucciok]
            .iter()
            .any(|l| l.starts_with("option usemillisec "))
    );
    assert!(
        lines[..ucciok]
            .iter()
            .any(|l| l.starts_with("option usebook "))
    );
    let info: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(info.len(), 3, "{lines:?}");
    // UCCI scores are plain numbers.
    assert!(
        info[0]
            .split_whitespace()
            .nth(4)
            .unwrap()
            .parse::<i32>()
            .is_ok(),
        "{}",
        info[0]
    );
    assert!(lines.iter().any(|l| l.starts_with("info time ")));
    let best = bestmove(&lines).split_whitespace().next().unwrap();
    assert!(
        best != "h9g7" && best != "b9c7",
        "banned move played: {best}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("pophash bestmove ")),
        "{lines:?}"
    );
    // `bye` stops a search at once and says goodbye.
    let lines = session("ucci\nposition startpos\ngo infinite\nbye\n", Dialect::Ucci);
    assert!(
        lines.iter().any(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "bye");
}

#[test]
fn ucci_as_the_first_line_of_a_uci_session_and_no_move() {
    // Black is checkmated: no legal move.
    let script = "ucci\nposition fen 4k3R/R8/9/9/9/9/9/9/9/3K5 b - - 0 1\ngo depth 2\n";
    let lines = session(script, Dialect::Uci);
    assert!(lines.contains(&"ucciok".to_string()));
    assert!(!lines.contains(&"uciok".to_string()));
    assert_eq!(lines.last().unwrap(), "nobestmove");
    let lines = session(
        "position fen 4k3R/R8/9/9/9/9/9/9/9/3K5 b\ngo depth 2\n",
        Dialect::Uci,
    );
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
}

#[test]
fn ucci_draw_offers_are_answered_by_the_score() {
    // Black has a lone general against two chariots: it accepts a draw.
    let lost =
        "setoption usebook false\nposition fen 3k5/9/9/9/9/9/9/9/R7R/4K4 b\ngo draw depth 2\n";
    let lines = session(lost, Dialect::Ucci);
    assert!(bestmove(&lines).ends_with(" draw"), "{lines:?}");
    let won =
        "setoption usebook false\nposition fen 3k5/9/9/9/9/9/9/9/R7R/4K4 w\ngo draw depth 2\n";
    let lines = session(won, Dialect::Ucci);
    assert!(!bestmove(&lines).ends_with(" draw"), "{lines:?}");
}

#[test]
fn pondering_holds_the_answer_until_ponderhit_or_stop() {
    let (mut input, out, handle) = live_session(Dialect::Uci);
    writeln!(input, "uci").unwrap();
    assert!(
        wait_for(
            &out,
            "option name Ponder type check",
            Duration::from_secs(5)
        )
        .is_some()
    );
    writeln!(input, "setoption name OwnBook value false").unwrap();
    // Ludus played h2e2 and expects h9g7: it thinks on the opponent's time.
    writeln!(input, "position startpos moves h2e2 h9g7").unwrap();
    writeln!(input, "go ponder movetime 50").unwrap();
    assert!(wait_for(&out, "info depth 3", Duration::from_secs(20)).is_some());
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        !out.text().contains("bestmove"),
        "no answer while pondering"
    );
    // The expected move came: the real search answers, exactly once.
    writeln!(input, "ponderhit").unwrap();
    assert!(wait_for(&out, "bestmove", Duration::from_secs(20)).is_some());
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(out.text().matches("bestmove").count(), 1);
    // Another move came: `stop` ends the ponder search with its answer.
    writeln!(input, "position startpos moves h2e2 b9c7").unwrap();
    writeln!(input, "go ponder movetime 50").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(out.text().matches("bestmove").count(), 1);
    writeln!(input, "stop").unwrap();
    writeln!(input, "isready").unwrap();
    assert!(wait_for(&out, "readyok", Duration::from_secs(20)).is_some());
    // A stray ponderhit is reported, not obeyed.
    writeln!(input, "ponderhit").unwrap();
    writeln!(input, "quit").unwrap();
    handle.join().unwrap();
    let text = out.text();
    let answers: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    assert_eq!(answers.len(), 2, "{text}");
    let mut after = Game::new();
    for m in ["h2e2", "h9g7"] {
        after.play(Move::parse_iccs(m).unwrap()).unwrap();
    }
    let first = Move::parse_iccs(answers[0].split_whitespace().next().unwrap()).unwrap();
    assert!(after.position().is_legal(first), "{}", answers[0]);
    assert!(text.contains("ponderhit without a running go ponder"));
}

/// Joins a session thread, failing (not hanging) if it has not ended in time.
fn join_within(handle: std::thread::JoinHandle<()>, timeout: Duration) {
    let started = Instant::now();
    while !handle.is_finished() {
        assert!(
            started.elapsed() < timeout,
            "the session did not end in {timeout:?}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    handle.join().unwrap();
}

fn count_within(out: &SharedBuf, needle: &str, n: usize, timeout: Duration) -> bool {
    let started = Instant::now();
    while started.elapsed() < timeout {
        if out.text().matches(needle).count() >= n {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}

#[test]
fn go_sent_as_soon_as_a_stopped_infinite_search_answers_runs() {
    let (mut input, out, handle) = live_session(Dialect::Uci);
    writeln!(input, "setoption name OwnBook value false").unwrap();
    writeln!(input, "position startpos").unwrap();
    writeln!(input, "go infinite").unwrap();
    assert!(wait_for(&out, "info depth 2", Duration::from_secs(20)).is_some());
    // In one write: the `go` reaches the session while the worker is still
    // finishing the stopped search.
    write!(input, "stop\ngo depth 2\n").unwrap();
    assert!(
        count_within(&out, "bestmove", 2, Duration::from_secs(10)),
        "{}",
        out.text()
    );
    writeln!(input, "quit").unwrap();
    join_within(handle, Duration::from_secs(5));
    let text = out.text();
    assert!(!text.contains("still searching"), "{text}");
    for best in text.lines().filter_map(|l| l.strip_prefix("bestmove ")) {
        let m = Move::parse_iccs(best.split_whitespace().next().unwrap()).unwrap();
        assert!(Position::startpos().is_legal(m), "{best}");
    }
}

#[test]
fn go_during_a_bounded_search_answers_it_and_keeps_reading() {
    let (mut input, out, handle) = live_session(Dialect::Uci);
    writeln!(input, "setoption name OwnBook value false").unwrap();
    writeln!(input, "position startpos").unwrap();
    writeln!(input, "go movetime 60000").unwrap();
    assert!(wait_for(&out, "info depth 2", Duration::from_secs(20)).is_some());
    writeln!(input, "go depth 1").unwrap();
    writeln!(input, "isready").unwrap();
    assert!(
        wait_for(&out, "readyok", Duration::from_secs(2)).is_some(),
        "isready unread: {}",
        out.text()
    );
    // The running search answered, then the new one did.
    assert!(
        count_within(&out, "bestmove", 2, Duration::from_secs(5)),
        "{}",
        out.text()
    );
    // A third search, still bounded by a minute, and `quit` ends it at once.
    writeln!(input, "go movetime 60000").unwrap();
    writeln!(input, "quit").unwrap();
    join_within(handle, Duration::from_secs(3));
}

#[test]
fn perft_stops_on_stop_and_quit_ends_it() {
    let (mut input, out, handle) = live_session(Dialect::Uci);
    // Depth 9 takes hours.
    writeln!(input, "go perft 9").unwrap();
    std::thread::sleep(Duration::from_millis(50));
    writeln!(input, "stop").unwrap();
    assert!(
        wait_for(&out, "info string perft stopped", Duration::from_secs(2)).is_some(),
        "{}",
        out.text()
    );
    assert!(!out.text().contains("Nodes searched"));
    // The engine works on, and `quit` ends a running perft.
    writeln!(input, "go perft 2").unwrap();
    assert!(wait_for(&out, "Nodes searched: 1920", Duration::from_secs(5)).is_some());
    writeln!(input, "go perft 9").unwrap();
    writeln!(input, "quit").unwrap();
    join_within(handle, Duration::from_secs(3));
}

#[test]
fn a_perft_deeper_than_the_limit_is_refused() {
    // Unbounded, it would recurse until the worker's stack overflowed.
    let lines = session_within(
        "go perft 100000
isready
",
        Dialect::Uci,
        SessionOptions::default(),
    );
    assert_eq!(
        lines,
        [
            "info string perft depth is at most 32, not 100000",
            "readyok"
        ]
    );
}

/// Runs a script on its own thread, failing (not hanging) if it does not end.
fn session_within(script: &'static str, dialect: Dialect, options: SessionOptions) -> Vec<String> {
    let out = SharedBuf::default();
    let sink = out.clone();
    let handle = std::thread::spawn(move || {
        run_session_with(script.as_bytes(), sink, dialect, options).unwrap();
    });
    join_within(handle, Duration::from_secs(20));
    out.text().lines().map(str::to_string).collect()
}

#[test]
fn a_hash_size_over_the_limit_is_refused_before_allocating() {
    let script = "uci
setoption name Hash value 999999999
isready
                  setoption name OwnBook value false
go depth 1
";
    let lines = session_within(script, Dialect::Uci, SessionOptions::default());
    let refused = lines
        .iter()
        .position(|l| l.starts_with("info string option Hash takes 1 to 32768 MB, not 999999999"))
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!(lines[refused + 1..].contains(&"readyok".to_string()));
    assert!(
        lines.iter().any(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
    let lines = session_within(
        "setoption hashsize 0
isready
",
        Dialect::Ucci,
        SessionOptions::default(),
    );
    assert!(
        lines[0].starts_with("info string option hashsize takes 1 to 32768 MB, not 0"),
        "{lines:?}"
    );
    assert_eq!(lines[1], "readyok");
}

#[test]
fn threads_search_together_and_out_of_range_counts_are_refused() {
    let script = "uci
setoption name Threads value 2
setoption name OwnBook value false
position startpos moves h2e2 h9g7
go depth 6
setoption name Threads value 0
setoption name Threads value 65
";
    let lines = session_within(script, Dialect::Uci, SessionOptions::default());
    assert!(
        lines.iter().any(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
    for bad in [0, 65] {
        let refused = format!(
            "info string option Threads takes 1 to 64, not {bad}: the thread count stays as it is"
        );
        assert!(lines.contains(&refused), "{lines:?}");
    }
    let lines = session_within(
        "ucci
setoption threads 2
setoption usebook false
position startpos
go depth 5
",
        Dialect::Ucci,
        SessionOptions::default(),
    );
    assert!(
        lines.contains(&"option threads type spin min 1 max 64 default 1".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
}

#[test]
fn a_hash_table_that_cannot_be_had_keeps_the_old_one_and_ready_waits() {
    // No ceiling: 2^40 MB passes the session and the allocator refuses it.
    let options = SessionOptions {
        max_hash_mb: usize::MAX,
    };
    let script = "uci
setoption name Hash value 1099511627776
isready
                  setoption name OwnBook value false
go depth 2
";
    let lines = session_within(script, Dialect::Uci, options);
    assert!(
        lines.contains(&format!(
            "option name Hash type spin default 16 min 1 max {}",
            usize::MAX
        )),
        "{lines:?}"
    );
    let failed = lines
        .iter()
        .position(|l| {
            l == "info string cannot allocate a 1099511627776 MB hash table: keeping the 16 MB one"
        })
        .unwrap_or_else(|| panic!("{lines:?}"));
    // `readyok` only once the resize has been tried.
    let ready = lines.iter().position(|l| l == "readyok").unwrap();
    assert!(failed < ready, "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
    // UCCI's `hashsize`, and a size whose byte count overflows.
    let script = "setoption hashsize 18446744073709551615
isready
setoption hashsize 2
isready
";
    let lines = session_within(script, Dialect::Ucci, options);
    assert_eq!(
        lines,
        [
            "info string cannot allocate a 18446744073709551615 MB hash table: keeping the 16 MB one",
            "readyok",
            "readyok"
        ]
    );
}

/// The `info depth` lines of a session as (depth, multipv, first pv move),
/// `multipv` taken as 1 where the line does not say.
fn numbered_lines(lines: &[String]) -> Vec<(u32, u32, String)> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let after = |key: &str| {
                words
                    .iter()
                    .position(|w| *w == key)
                    .and_then(|i| words.get(i + 1))
                    .map(|w| w.to_string())
            };
            (
                after("depth").unwrap().parse().unwrap(),
                after("multipv").map_or(1, |n| n.parse().unwrap()),
                after("pv").unwrap_or_else(|| panic!("no pv in {l}")),
            )
        })
        .collect()
}

/// Each depth 1..=`depth` reports lines 1..=`count` in order, with distinct
/// first moves, and `bestmove` is line 1 of the last depth.
fn assert_lines(lines: &[String], depth: u32, count: u32) {
    let numbered = numbered_lines(lines);
    let expected: Vec<(u32, u32)> = (1..=depth)
        .flat_map(|d| (1..=count).map(move |k| (d, k)))
        .collect();
    let got: Vec<(u32, u32)> = numbered.iter().map(|(d, k, _)| (*d, *k)).collect();
    assert_eq!(got, expected, "{lines:?}");
    for group in numbered.chunks(count as usize) {
        let mut firsts: Vec<&String> = group.iter().map(|(_, _, m)| m).collect();
        firsts.sort();
        firsts.dedup();
        assert_eq!(firsts.len(), count as usize, "{group:?}");
    }
    let best = bestmove(lines).split_whitespace().next().unwrap();
    assert_eq!(
        best,
        numbered[numbered.len() - count as usize].2,
        "{lines:?}"
    );
}

#[test]
fn uci_multipv_reports_every_line_at_every_depth() {
    let script = "uci\nsetoption name OwnBook value false\nsetoption name MultiPV value 3\n\
                  position startpos moves h2e2 h9g7\ngo depth 6\n";
    let lines = session(script, Dialect::Uci);
    assert!(
        lines.contains(&"option name MultiPV type spin default 1 min 1 max 10".to_string()),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    assert_lines(&lines, 6, 3);
    // One line (the default) still says `multipv 1`, as Stockfish does.
    let script = "setoption name OwnBook value false\nposition startpos\ngo depth 2\n";
    let lines = session(script, Dialect::Uci);
    assert!(
        lines
            .iter()
            .filter(|l| l.starts_with("info depth "))
            .all(|l| l.contains(" multipv 1 score ")),
        "{lines:?}"
    );
}

#[test]
fn uci_multipv_values_are_clamped_or_refused() {
    let script = "setoption name OwnBook value false\n\
                  setoption name MultiPV value 0\n\
                  setoption name MultiPV value 99\n\
                  setoption name MultiPV value lots\n\
                  position fen 4k4/9/9/9/9/9/9/9/9/3K5 b\n\
                  go depth 2\n";
    let lines = session(script, Dialect::Uci);
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string "))
        .collect();
    assert_eq!(
        errors,
        [
            "info string option MultiPV takes 1 to 10, not 0: using 1",
            "info string option MultiPV takes 1 to 10, not 99: using 10",
            "info string option MultiPV takes a whole number, not \"lots\"",
        ],
        "{lines:?}"
    );
    // 10 lines asked for, and the lone general has two moves: two lines.
    assert_lines(&lines, 2, 2);
    // The name in any case, as UCI allows.
    let script = "setoption name OwnBook value false\nsetoption name multipv value 2\n\
                  position startpos\ngo depth 3\n";
    assert_lines(&session(script, Dialect::Uci), 3, 2);
}

#[test]
fn ucci_multipv_is_an_extension_numbered_when_several() {
    let script = "ucci\nsetoption usebook false\nsetoption multipv 3\n\
                  position startpos moves h2e2 h9g7\ngo depth 6\n";
    let lines = session(script, Dialect::Ucci);
    let ucciok = lines.iter().position(|l| l == "ucciok").unwrap();
    assert!(
        lines[..ucciok].contains(&"option multipv type spin min 1 max 10 default 1".to_string()),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    assert_lines(&lines, 6, 3);
    assert!(
        lines
            .iter()
            .filter(|l| l.starts_with("info depth "))
            .all(|l| l.contains(" multipv ")),
        "{lines:?}"
    );
    // Time and nodes once per depth, before line 1.
    let times = lines.iter().filter(|l| l.starts_with("info time ")).count();
    assert_eq!(times, 6, "{lines:?}");
    // One line speaks plain UCCI: no `multipv`.
    let lines = session(
        "setoption usebook false\nposition startpos\ngo depth 2\n",
        Dialect::Ucci,
    );
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .collect();
    assert_eq!(infos.len(), 2, "{lines:?}");
    assert!(infos.iter().all(|l| !l.contains("multipv")), "{lines:?}");
}
