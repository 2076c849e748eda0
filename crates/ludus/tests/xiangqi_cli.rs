//! `ludus xiangqi …` run as a user (or a GUI) would: perft, a scripted UCI
//! session through standard input, and a short engine match.

#![allow(clippy::unwrap_used)]

mod cli_common;
use cli_common::{ludus, stdout};
use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn perft_prints_the_count() {
    let dir = tempfile::tempdir().unwrap();
    let out = ludus(&["xiangqi", "perft", "3"], dir.path());
    assert!(out.status.success());
    assert_eq!(stdout(&out), "79666\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains("perft 3: 79666 nodes"));
}

#[test]
fn perft_divide_from_a_fen() {
    let dir = tempfile::tempdir().unwrap();
    // The start position after h2e2: Black to move.
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    let out = ludus(
        &["xiangqi", "perft", "--fen", fen, "2", "--divide"],
        dir.path(),
    );
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let (moves, tail) = lines.split_at(lines.len() - 2);
    assert_eq!(moves.len(), 45);
    assert!(
        moves.iter().all(|l| l.len() >= 7 && &l[4..6] == ": "),
        "{text}"
    );
    let sum: u64 = moves.iter().map(|l| l[6..].parse::<u64>().unwrap()).sum();
    assert_eq!(tail, ["", &format!("Nodes searched: {sum}")]);
}

#[test]
fn perft_rejects_a_bad_fen() {
    let dir = tempfile::tempdir().unwrap();
    let out = ludus(
        &["xiangqi", "perft", "--fen", "rnbakabnr/9 w", "2"],
        dir.path(),
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad FEN"), "{err}");
    assert!(!err.contains("panicked"));
}

#[test]
fn uci_session_through_stdin() {
    // The end of input lets the last (bounded) search finish, then the engine exits.
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["xiangqi", "uci"])
        .env("LUDUS_DATA_DIR", dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let script = "uci\nisready\nnonsense\nposition startpos moves b2e2 b9c7\n\
                  go depth 3\nposition fen 4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1\n\
                  go depth 2\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("uciok\nreadyok\n"), "{text}");
    assert!(
        text.contains("info string unknown command: nonsense"),
        "{text}"
    );
    let best: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    assert_eq!(best.len(), 2, "{text}");
    assert_eq!(best[1], "i0i9");
}

#[test]
fn a_short_match_of_ludus_against_itself() {
    let dir = tempfile::tempdir().unwrap();
    let engine = format!("'{}' xiangqi uci", env!("CARGO_BIN_EXE_ludus"));
    let pgn = dir.path().join("match.pgn");
    let out = ludus(
        &[
            "xiangqi",
            "match",
            "--engine1",
            &engine,
            "--engine2",
            &engine,
            "--proto2",
            "ucci",
            "--games",
            "2",
            "--tc",
            "depth=1",
            "--max-plies",
            "40",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
        dir.path(),
    );
    let text = stdout(&out);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Game 1/2: "), "{text}");
    assert!(text.contains("Game 2/2: "), "{text}");
    let score = text.lines().find(|l| l.starts_with("Score of ")).unwrap();
    assert!(score.ends_with("2 games"), "{score}");
    assert!(text.contains("Elo difference: "), "{text}");
    let record = std::fs::read_to_string(&pgn).unwrap();
    let games = xiangqi::pgn::parse_all(&record).unwrap();
    assert_eq!(games.len(), 2);
    // Colours alternate and both games start from the same opening line.
    assert_eq!(games[0].tag("Red"), games[1].tag("Black"));
    assert_eq!(games[0].moves[..4], games[1].moves[..4]);
    for g in &games {
        assert!(g.tag("Termination").is_some());
        // The line the match started from, and the game's ECCO opening.
        assert!(g.tag("StartLine").is_some_and(|l| !l.is_empty()));
        assert!(g.tag("ECCO").is_some_and(|c| c.len() == 3), "{:?}", g.tags);
        assert_ne!(g.result, "*");
    }
}

#[test]
fn bad_game_files_and_fens_are_refused_without_panicking() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.pgn");
    let out = ludus(&["xiangqi", missing.to_str().unwrap()], dir.path());
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot read"), "{err}");
    let bad = dir.path().join("bad.pgn");
    std::fs::write(&bad, "1. h2e2 h2e2 *\n").unwrap();
    let out = ludus(&["xiangqi", bad.to_str().unwrap()], dir.path());
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.pgn"), "{err}");
    let out = ludus(&["xiangqi", "--fen", "9/9 w"], dir.path());
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad FEN"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn perft_past_its_depth_limit_is_refused_not_a_stack_overflow() {
    let dir = tempfile::tempdir().unwrap();
    let out = ludus(&["xiangqi", "perft", "100000"], dir.path());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("past the limit of 32"), "{err}");
}

const CONVERT_PGN: &str = "[Event \"Club final\"]\n[Red \"许银川\"]\n[Black \"吕钦\"]\n\
    [Result \"1-0\"]\n\n{opening} 1. h2e2 {central cannon} h9g7 2. h0g2 1-0\n";

#[test]
fn convert_pgn_to_xqf_and_back() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("game.pgn");
    std::fs::write(&pgn, CONVERT_PGN).unwrap();
    let xqf = dir.path().join("game.xqf");
    let out = ludus(
        &[
            "xiangqi",
            "convert",
            pgn.to_str().unwrap(),
            "--to",
            "xqf",
            "--output",
            xqf.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&xqf).unwrap();
    assert_eq!(&bytes[..3], b"XQ\x0a");

    // Back to PGN on standard output, in ICCS, from a name without .xqf
    // (the signature tells).
    let renamed = dir.path().join("game.bin");
    std::fs::copy(&xqf, &renamed).unwrap();
    let out = ludus(
        &[
            "xiangqi",
            "convert",
            renamed.to_str().unwrap(),
            "--to",
            "pgn",
            "--notation",
            "iccs",
        ],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    let back = xiangqi::pgn::PgnGame::parse(&text).unwrap();
    let orig = xiangqi::pgn::PgnGame::parse(CONVERT_PGN).unwrap();
    assert_eq!(back.moves, orig.moves);
    assert_eq!(back.intro, orig.intro);
    for tag in ["Event", "Red", "Black", "Result"] {
        assert_eq!(back.tag(tag), orig.tag(tag), "{tag}");
    }
    assert!(text.contains("1. H2-E2 {central cannon} H9-G7"), "{text}");

    // XQF to standard output when it is not a terminal (a pipe here).
    let out = ludus(
        &["xiangqi", "convert", pgn.to_str().unwrap(), "--to", "xqf"],
        dir.path(),
    );
    assert!(out.status.success());
    assert_eq!(out.stdout, bytes);
}

#[test]
fn convert_writes_the_ecco_opening() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("game.pgn");
    // A stale opening from another tool is replaced.
    let stale = CONVERT_PGN.replace("[Result", "[ECCO \"A00\"]\n[Variation \"x\"]\n[Result");
    std::fs::write(&pgn, stale).unwrap();
    let out = ludus(
        &["xiangqi", "convert", pgn.to_str().unwrap(), "--to", "pgn"],
        dir.path(),
    );
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("[ECCO \"B05\"]"), "{text}");
    assert!(text.contains("[Opening \"中炮对进左马\"]"), "{text}");
    assert!(!text.contains("Variation"), "{text}");

    // XQF has no opening field: the title carries it, and it reads back.
    let xqf = dir.path().join("game.xqf");
    let args = ["xiangqi", "convert", pgn.to_str().unwrap(), "--to", "xqf"];
    let out = ludus(
        &[&args[..], &["--output", xqf.to_str().unwrap()]].concat(),
        dir.path(),
    );
    assert!(out.status.success());
    let out = ludus(
        &["xiangqi", "convert", xqf.to_str().unwrap(), "--to", "pgn"],
        dir.path(),
    );
    let back = xiangqi::pgn::PgnGame::parse(&stdout(&out)).unwrap();
    assert_eq!(back.tag("Title"), Some("B05 中炮对进左马"));
    assert_eq!(back.tag("ECCO"), Some("B05"));

    // A record from a set-up position gets no opening.
    let setup = dir.path().join("setup.pgn");
    std::fs::write(
        &setup,
        "[FEN \"3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1\"]\n\n1. a0a1 *\n",
    )
    .unwrap();
    let out = ludus(
        &["xiangqi", "convert", setup.to_str().unwrap(), "--to", "pgn"],
        dir.path(),
    );
    assert!(out.status.success());
    assert!(!stdout(&out).contains("ECCO"));
}

#[test]
fn convert_errors_name_the_file_and_the_place() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("game.pgn");
    std::fs::write(&pgn, CONVERT_PGN).unwrap();
    let xqf = dir.path().join("game.xqf");
    let out = ludus(
        &[
            "xiangqi",
            "convert",
            pgn.to_str().unwrap(),
            "--to",
            "xqf",
            "-o",
            xqf.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert!(out.status.success());
    // Cut inside the last move's record.
    let mut bytes = std::fs::read(&xqf).unwrap();
    bytes.truncate(bytes.len() - 6);
    let cut = dir.path().join("cut.xqf");
    std::fs::write(&cut, &bytes).unwrap();
    let out = ludus(
        &["xiangqi", "convert", cut.to_str().unwrap(), "--to", "pgn"],
        dir.path(),
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cut.xqf"), "{err}");
    assert!(err.contains("XQF offset "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // A PGN with an illegal move: the line is named.
    let bad = dir.path().join("bad.pgn");
    std::fs::write(&bad, "[Result \"*\"]\n\n1. h2e2 h9g7\n2. h2h9 *\n").unwrap();
    let never = dir.path().join("never.xqf");
    let out = ludus(
        &[
            "xiangqi",
            "convert",
            bad.to_str().unwrap(),
            "--to",
            "xqf",
            "-o",
            never.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert!(!never.exists());
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.pgn") && err.contains("line 4"), "{err}");
    // A name ending .xqf that is not XQF.
    let fake = dir.path().join("fake.xqf");
    std::fs::write(&fake, "hello").unwrap();
    let out = ludus(
        &["xiangqi", "convert", fake.to_str().unwrap(), "--to", "pgn"],
        dir.path(),
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("fake.xqf") && err.contains("offset 0"),
        "{err}"
    );
}

#[test]
fn convert_refuses_binary_xqf_to_a_terminal() {
    // `script` (util-linux) gives the command a terminal; skipped without it.
    if Command::new("script").arg("--version").output().is_err() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("game.pgn");
    std::fs::write(&pgn, CONVERT_PGN).unwrap();
    let command = format!(
        "'{}' xiangqi convert '{}' --to xqf; echo status=$?",
        env!("CARGO_BIN_EXE_ludus"),
        pgn.display()
    );
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("LUDUS_DATA_DIR", dir.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    if !text.contains("status=") {
        return; // no terminal to be had here
    }
    assert!(text.contains("use --output FILE"), "{text}");
    assert!(text.contains("status=1"), "{text}");
    assert!(!text.contains("XQ\n"), "{text}");
}

#[test]
fn tablebases_are_generated_reused_probed_and_used_by_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let out = ludus(
        &["xiangqi", "tablebase", "generate", "--only", "KR-KA"],
        dir.path(),
    );
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(text.contains("KR-K: 9720 positions in"), "{text}");
    assert!(text.contains("KR-KA: 48600 positions in"), "{text}");
    let tables = dir.path().join("xiangqi").join("tablebases");
    assert!(tables.join("KR-KA.xtb").is_file());
    // A second run reuses the files.
    let again = stdout(&ludus(
        &["xiangqi", "tablebase", "generate", "--only", "KR-KA"],
        dir.path(),
    ));
    assert!(again.contains("KR-K: reused\nKR-KA: reused\n"), "{again}");
    // Probing: the verdict and the best moves; Black as the stronger side.
    let out = ludus(
        &[
            "xiangqi",
            "tablebase",
            "probe",
            "4k4/9/9/9/9/9/9/9/9/R2K5 w",
        ],
        dir.path(),
    );
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.starts_with("KR-K\nRed wins in 2 (3 plies)\nbest: "),
        "{text}"
    );
    let out = ludus(
        &[
            "xiangqi",
            "tablebase",
            "probe",
            "3k4r/9/9/9/9/9/9/9/9/4K4 w",
        ],
        dir.path(),
    );
    assert!(stdout(&out).contains("Black wins in "), "{}", stdout(&out));
    // Not covered: said, and a failure.
    let out = ludus(&["xiangqi", "tablebase", "probe", "startpos"], dir.path());
    assert!(!out.status.success());
    let out = ludus(
        &[
            "xiangqi",
            "tablebase",
            "probe",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        ],
        dir.path(),
    );
    assert!(!out.status.success());
    assert!(stdout(&out).starts_with("no tablebase covers"), "{out:?}");
    // Bad signatures and sizes are refused with the reason.
    let out = ludus(
        &["xiangqi", "tablebase", "generate", "--only", "KX-K"],
        dir.path(),
    );
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("\"KX-K\""),
        "{out:?}"
    );
    let out = ludus(
        &["xiangqi", "tablebase", "generate", "--max-pieces", "12"],
        dir.path(),
    );
    assert!(!out.status.success());
    let out = ludus(
        &["xiangqi", "tablebase", "generate", "--only", "KAA-K"],
        dir.path(),
    );
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("always a draw"),
        "{out:?}"
    );

    // The engine shells: UCI says the verdict and plays the quickest mate;
    // UCCI answers `probe` from the tables.
    let session = |args: &[&str], script: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
            .args(args)
            .env("LUDUS_DATA_DIR", dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(script.as_bytes())
            .unwrap();
        stdout(&child.wait_with_output().unwrap())
    };
    let text = session(
        &["xiangqi", "uci"],
        "uci\nposition fen 4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1\ngo depth 5\n",
    );
    assert!(text.contains("info string tablebase win in 2\n"), "{text}");
    assert!(text.contains("score mate 2"), "{text}");
    assert!(text.contains("option name UseTablebases type check default true"));
    // Switched off: no verdict, a search.
    let text = session(
        &["xiangqi", "uci"],
        "uci\nsetoption name UseTablebases value false\n\
         position fen 4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1\ngo depth 5\n",
    );
    assert!(!text.contains("tablebase"), "{text}");
    assert!(text.contains("info depth 2 "), "{text}");
    let text = session(
        &["xiangqi", "ucci"],
        "ucci\nprobe fen 4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1\n",
    );
    assert!(text.contains("info string tablebase win in 2\n"), "{text}");
    assert!(text.contains("pophash bestmove "), "{text}");

    // A damaged file is moved aside, reported, and made again.
    let path = tables.join("KR-K.xtb");
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n - 1] ^= 0x55;
    std::fs::write(&path, bytes).unwrap();
    let out = ludus(
        &["xiangqi", "tablebase", "generate", "--only", "KR-K"],
        dir.path(),
    );
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("checksum does not match"), "{err}");
    assert!(err.contains("moved aside"), "{err}");
    assert!(stdout(&out).contains("KR-K: 9720 positions in"));
}
