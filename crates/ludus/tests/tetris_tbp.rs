//! The Tetris Bot Protocol both ways, as processes: `ludus tetris tbp` driven line by
//! line over stdin/stdout, `ludus tetris versus` against `ludus tetris tbp` as a TBP
//! bot, and scripted fake bots that misbehave (each a clear loss for its side).

#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use ludus::protocol::tbp::{
    BotMessage, FrontendMessage, Rules, Start, TbpPosition, cells_at, parse_bot, to_line,
};
use tetris::{Matrix, PieceKind};

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
