//! The repetition suite: every case of `data/repetition.txt` played through
//! [`Game`], which must judge it on the last move and nowhere before, with the
//! verdict the file gives; the search's judge ([`judge_repetition`]) must
//! agree on the final cycle. The file also records an independent judge's
//! verdict (Pikafish's rule judge); `docs/REPETITION.md` explains each case
//! where the two differ.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use xiangqi::{Color, EndReason, Game, GameResult, Move, Outcome, Position, judge_repetition};

const DATA: &str = include_str!("data/repetition.txt");

/// One line of the data file.
struct Case<'a> {
    line: usize,
    name: &'a str,
    fen: &'a str,
    moves: Vec<&'a str>,
    ludus: &'a str,
    judge: &'a str,
}

fn cases() -> Vec<Case<'static>> {
    DATA.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let f: Vec<&str> = l.split(" | ").collect();
            assert_eq!(f.len(), 6, "line {}: six fields separated by ' | '", i + 1);
            Case {
                line: i + 1,
                name: f[0],
                fen: f[1],
                moves: f[2].split_whitespace().collect(),
                ludus: f[3],
                judge: f[4],
            }
        })
        .collect()
}

/// A verdict as the data file writes it: `red perpetual-check`, `draw repetition`.
fn verdict(r: GameResult) -> String {
    let who = match r.outcome {
        Outcome::Win(Color::Red) => "red",
        Outcome::Win(Color::Black) => "black",
        Outcome::Draw => "draw",
    };
    let why = match r.reason {
        EndReason::PerpetualCheck => "perpetual-check",
        EndReason::PerpetualChase => "perpetual-chase",
        EndReason::Repetition => "repetition",
        other => panic!("not a repetition verdict: {other:?}"),
    };
    format!("{who} {why}")
}

/// Plays a case; the verdict Ludus gives on its last move.
fn judge_case(c: &Case) -> Result<String, String> {
    let pos = Position::from_fen(c.fen).map_err(|e| format!("bad FEN: {e}"))?;
    let mut game = Game::from_position(pos);
    for (i, text) in c.moves.iter().enumerate() {
        if let Some(r) = game.result() {
            return Err(format!("game over before ply {}: {r}", i + 1));
        }
        game.play_text(text)
            .map_err(|e| format!("ply {}: {text}: {e}", i + 1))?;
    }
    let r = game
        .result()
        .ok_or_else(|| format!("no verdict after {} plies", c.moves.len()))?;
    if game.repetition_count() < 3 {
        return Err("ended without a threefold repetition".into());
    }
    // The search judges the cycle from the earliest occurrence of the final
    // position with the same rules: it must say the same.
    let plies: Vec<Move> = game.moves().collect();
    let key = game.position().key();
    let mut start = game.start_position().clone();
    let mut from = 0;
    while start.key() != key {
        start.make_move(plies[from]);
        from += 1;
    }
    let searched = judge_repetition(&start, &plies[from..]);
    if searched != r {
        return Err(format!("game says {r}, the search's judge {searched}"));
    }
    Ok(verdict(r))
}

#[test]
fn suite_has_enough_cases_of_every_kind() {
    let cases = cases();
    assert!(cases.len() >= 50, "{} cases", cases.len());
    for kind in [
        "check-", "chases-", "offers-", "idle", "relay", "game7-", "soldier",
    ] {
        assert!(
            cases.iter().any(|c| c.name.contains(kind)),
            "no case named *{kind}*"
        );
    }
    let mut names: Vec<&str> = cases.iter().map(|c| c.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), cases.len(), "case names are unique");
}

#[test]
fn every_case_gets_the_expected_verdict() {
    let mut failures = Vec::new();
    for c in cases() {
        match judge_case(&c) {
            Ok(v) if v == c.ludus => {}
            Ok(v) => failures.push(format!(
                "line {} {}: expected {}, got {v} (judge: {})",
                c.line, c.name, c.ludus, c.judge
            )),
            Err(e) => failures.push(format!("line {} {}: {e}", c.line, c.name)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn differences_from_the_independent_judge_are_documented() {
    let doc = include_str!("../../../docs/REPETITION.md");
    for c in cases() {
        if c.ludus != c.judge {
            assert!(
                doc.contains(&format!("`{}`", c.name)),
                "{} differs from the judge ({} vs {}) but docs/REPETITION.md does not name it",
                c.name,
                c.ludus,
                c.judge
            );
        }
    }
}
