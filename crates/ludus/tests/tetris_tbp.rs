//! The Tetris Bot Protocol both ways, as processes: `ludus tetris tbp` driven line by
//! line over stdin/stdout, `ludus tetris versus` against `ludus tetris tbp` as a TBP
//! bot, and scripted fake bots that misbehave (each a clear loss for its side).

#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use ludus::protocol::tbp::{
    BotMessage, FrontendMessage, Rules, Start, TbpPosition, cells_at, parse_bot, to_line,
};
use ludus::session::tetris::versus::{Pace, Side, VersusSession};
use tetris::versus::{Outcome, Player};
use tetris::{Matrix, PieceKind, Settings};

fn empty_start(queue: &[PieceKind]) -> Start {
    TbpPosition {
        matrix: Matrix::new(),
        hold: None,
        queue: queue.iter().copied().collect(),
        combo: 0,
        back_to_back: false,
    }
    .to_start(None)
}

#[test]
fn ludus_serves_its_bot_over_stdin_and_stdout() {
    let data = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["tetris", "tbp"])
        .env("LUDUS_DATA_DIR", data.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut receive = || {
        let mut line = String::new();
        output.read_line(&mut line).unwrap();
        parse_bot(&line).unwrap()
    };
    let send = |input: &mut std::process::ChildStdin, message: &FrontendMessage| {
        writeln!(input, "{}", to_line(message)).unwrap();
        input.flush().unwrap();
    };
    assert!(matches!(receive(), BotMessage::Info { name, .. } if name == "Ludus"));
    send(
        &mut input,
        &FrontendMessage::Rules(Rules {
            randomizer: Some(String::from("seven_bag")),
        }),
    );
    assert_eq!(receive(), BotMessage::Ready);
    let queue = [
        PieceKind::T,
        PieceKind::I,
        PieceKind::O,
        PieceKind::S,
        PieceKind::Z,
    ];
    let mut position = TbpPosition::from_start(&empty_start(&queue)).unwrap();
    send(&mut input, &FrontendMessage::Start(empty_start(&queue)));
    let more = [PieceKind::J, PieceKind::L, PieceKind::T, PieceKind::I];
    for &next in &more {
        send(&mut input, &FrontendMessage::Suggest);
        let BotMessage::Suggestion { moves } = receive() else {
            panic!("a suggestion");
        };
        let chosen = moves[0];
        assert!(cells_at(&chosen.location).is_some());
        // Legal: the piece is in play or given by hold, and it fits.
        position.play(&chosen).unwrap();
        send(&mut input, &FrontendMessage::Play { mv: chosen });
        send(&mut input, &FrontendMessage::NewPiece { piece: next });
        position.queue.push_back(next);
    }
    assert!(!position.matrix.is_empty());
    // A bad line gets an error message and the bot goes on.
    writeln!(input, "{{\"type\":\"start\",\"board\":[]").unwrap();
    input.flush().unwrap();
    assert!(matches!(receive(), BotMessage::Error { .. }));
    send(&mut input, &FrontendMessage::Suggest);
    assert!(matches!(receive(), BotMessage::Suggestion { moves } if !moves.is_empty()));
    send(&mut input, &FrontendMessage::Stop);
    send(&mut input, &FrontendMessage::Quit);
    assert!(child.wait().unwrap().success());
}

fn versus(bot_command: &str, data: &Path) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args([
            "tetris",
            "versus",
            "--games",
            "2",
            "--seed",
            "5",
            "--pps",
            "3",
            "--pieces",
            "150",
            "--bot-command",
            bot_command,
        ])
        .env("LUDUS_DATA_DIR", data)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn versus_against_ludus_over_tbp_finishes() {
    let data = tempfile::tempdir().unwrap();
    let command = format!("'{}' tetris tbp", env!("CARGO_BIN_EXE_ludus"));
    let out = versus(&command, data.path());
    assert!(out.contains("game 2 seed 6"), "{out}");
    assert!(!out.contains("loses:"), "no forfeit: {out}");
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("wins "), "{out}");
    // The TBP side really played: it locked pieces in the first game.
    let first = out.lines().next().unwrap();
    assert!(!first.contains("pieces 0 / 0"), "{first}");
}

#[test]
fn garbage_under_a_tbp_bot_sends_a_new_start() {
    let data = tempfile::tempdir().unwrap();
    let log = data.path().join("to-bot.log");
    let command = format!(
        "tee -a '{}' | '{}' tetris tbp",
        log.display(),
        env!("CARGO_BIN_EXE_ludus")
    );
    let out = versus(&command, data.path());
    assert!(out.contains("APP"), "{out}");
    let sent = std::fs::read_to_string(&log).unwrap();
    let starts = sent
        .lines()
        .filter(|line| line.contains(r#""type":"start""#))
        .count();
    // One start per game, and more when bot 1's attack changed the board.
    assert!(starts > 2, "{starts} starts for 2 games:\n{out}");
    assert!(sent.contains(r#""G""#), "a start shows the garbage");
}

/// A fake bot: a shell script answering `info` and `ready`, then `body` for the rest.
fn fake_bot(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\n\
         echo '{{\"type\":\"info\",\"name\":\"fake\",\"version\":\"1\",\"author\":\"t\",\"features\":[]}}'\n\
         read rules\n\
         echo '{{\"type\":\"ready\"}}'\n\
         {body}\n"
    );
    std::fs::write(&path, script).unwrap();
    format!("sh '{}'", path.display())
}

fn loss_line(out: &str) -> &str {
    out.lines()
        .find(|line| line.contains("bot 2 loses:"))
        .unwrap_or_else(|| panic!("no loss for bot 2 in {out}"))
}

#[test]
fn misbehaving_tbp_bots_lose_with_a_clear_reason() {
    let dir = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    // Answers each suggest with a line that is not JSON.
    let garbage = fake_bot(
        dir.path(),
        "garbage.sh",
        "while read line; do case \"$line\" in *suggest*) echo 'hello there';; esac; done",
    );
    let out = versus(&garbage, data.path());
    assert!(loss_line(&out).contains("bad line"), "{out}");
    assert!(out.contains("bot 1 wins"), "{out}");
    // Suggests an O in mid-air: no inputs reach it.
    let illegal = fake_bot(
        dir.path(),
        "illegal.sh",
        "while read line; do case \"$line\" in *suggest*) echo '{\"type\":\"suggestion\",\"moves\":[{\"location\":{\"type\":\"O\",\"orientation\":\"north\",\"x\":4,\"y\":10},\"spin\":\"none\"}]}';; esac; done",
    );
    let out = versus(&illegal, data.path());
    assert!(loss_line(&out).contains("can be played"), "{out}");
    // Exits after the handshake.
    let quitter = fake_bot(dir.path(), "quitter.sh", "exit 0");
    let out = versus(&quitter, data.path());
    assert!(loss_line(&out).contains("exited"), "{out}");
    // Not a bot at all.
    let out = versus("true", data.path());
    assert!(loss_line(&out).contains("exited"), "{out}");
}

/// A live session (as the terminal and the page drive it) against the TBP bot `command`:
/// the TBP side is asked at once and played when it answers.
fn live_session(command: &str, think_ms: u64) -> VersusSession {
    VersusSession::new(
        [
            Side::Person,
            Side::Tbp {
                command: command.to_owned(),
                pace: Pace::per_second(100.0),
                think_ms,
                live: true,
            },
        ],
        Settings::default(),
        5,
    )
}

/// Updates `session` with real time for at most `limit` until `done` holds.
fn play_until(session: &mut VersusSession, limit: Duration, done: impl Fn(&VersusSession) -> bool) {
    let start = Instant::now();
    while !done(session) && start.elapsed() < limit {
        thread::sleep(Duration::from_millis(20));
        let now = start.elapsed().as_millis() as u64;
        session.update(now.max(session.time_ms()), &[]);
    }
}

#[test]
fn a_live_tbp_side_never_holds_up_the_front_end() {
    // A slow start (half a second before the bot even runs) and 300 ms of thought per
    // piece: the session's calls return at once, and the bot plays as its answers come.
    let started = Instant::now();
    let bin = env!("CARGO_BIN_EXE_ludus");
    let command = format!("sh -c \"sleep 0.5; exec '{bin}' tetris tbp\"");
    let mut session = live_session(&command, 300);
    session.update(1_000, &[]);
    assert!(
        started.elapsed() < Duration::from_millis(400),
        "launching and asking took {:?}",
        started.elapsed()
    );
    assert_eq!(
        session.game(Player::Two).pieces(),
        0,
        "the bot has not answered yet"
    );
    assert!(!session.is_finished());
    play_until(&mut session, Duration::from_secs(20), |s| {
        s.game(Player::Two).pieces() >= 3
    });
    assert!(
        session.game(Player::Two).pieces() >= 3,
        "the bot played as it answered: {} pieces, {:?}, {:?}",
        session.game(Player::Two).pieces(),
        session.forfeit(Player::Two),
        session.tbp_bot_name(Player::Two)
    );
    assert_eq!(session.forfeit(Player::Two), None);
    assert_eq!(
        session
            .tbp_bot_name(Player::Two)
            .map(|n| n.starts_with("Ludus")),
        Some(true)
    );
    // Each update returns without waiting for the bot's 300 ms.
    let before = Instant::now();
    let now = session.time_ms() + 5;
    session.update(now, &[]);
    assert!(
        before.elapsed() < Duration::from_millis(150),
        "{:?}",
        before.elapsed()
    );
}

#[test]
fn a_live_tbp_side_that_cannot_start_forfeits_when_it_says_so() {
    let mut session = live_session("false", 0);
    play_until(
        &mut session,
        Duration::from_secs(10),
        VersusSession::is_finished,
    );
    assert_eq!(session.outcome(), Some(Outcome::Winner(Player::One)));
    let why = session.forfeit(Player::Two).unwrap();
    assert!(why.contains("TBP bot"), "{why}");
}

#[test]
fn the_bot_served_over_tbp_is_the_versus_search() {
    // Ludus's bot looking one piece ahead against `ludus tetris tbp`: the served bot
    // searches the whole preview and hold, and wins every game (the one-piece
    // evaluator it served before lost them all).
    let data = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_ludus");
    let output = Command::new(bin)
        .args([
            "tetris",
            "versus",
            "--games",
            "2",
            "--seed",
            "1",
            "--pps",
            "2",
            "--bot1-lookahead",
            "1",
            "--bot2-command",
            &format!("'{bin}' tetris tbp"),
        ])
        .env("LUDUS_DATA_DIR", data.path())
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{text}");
    assert!(text.lines().any(|l| l == "draws 0"), "{text}");
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("wins 0-2"), "{text}");
}
