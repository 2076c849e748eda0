//! UCCI 3.0 as ElephantEye speaks it: `ucci`/`ucciok`, `setoption <name> <value>`,
//! `go [draw] time T [movestogo N | increment I]` with times in seconds (or
//! milliseconds after `setoption usemillisec true`), `banmoves`, `probe`,
//! `bestmove X [ponder Y] [draw]` or `nobestmove`, `bye`.

use xiangqi::Game;
use xiangqi::engine::{Limits, MAX_MULTI_PV, MAX_THREADS, Score, SearchInfo, SearchResult};

use super::{Go, number};

/// The answer to `ucci`; `max_hash_mb` is the largest `hashsize` accepted.
pub fn hello(max_hash_mb: usize) -> Vec<String> {
    vec![
        format!("id name Ludus {}", env!("CARGO_PKG_VERSION")),
        "id copyright the Ludus authors, MIT OR Apache-2.0".to_string(),
        "id author the Ludus authors".to_string(),
        "id user Ludus".to_string(),
        "option usemillisec type check default false".to_string(),
        format!("option hashsize type spin min 1 max {max_hash_mb} default 16"),
        format!("option threads type spin min 1 max {MAX_THREADS} default 1"),
        "option ponder type check default false".to_string(),
        "option usebook type check default true".to_string(),
        // A Ludus extension: the endgame tables of the data dir, if generated.
        "option usetablebases type check default true".to_string(),
        "option newgame type button".to_string(),
        // Not in UCCI 3.0 (nor ElephantEye): a Ludus extension, as UCI's MultiPV.
        format!("option multipv type spin min 1 max {MAX_MULTI_PV} default 1"),
        "ucciok".to_string(),
    ]
}

/// `go …` after the word `go`; `millis` says whether times are in milliseconds.
pub fn parse_go(args: &[&str], millis: bool) -> Result<Go, String> {
    let mut go = Go::default();
    let mut limits = Limits::default();
    let mut bounded = false;
    let scale = |v: &str, key: &str| -> Result<u64, String> {
        let x: f64 = v
            .parse()
            .map_err(|_| format!("{key} needs a number, not {v:?}"))?;
        if !x.is_finite() || x < 0.0 {
            return Err(format!("{key} needs a number, not {v:?}"));
        }
        Ok(if millis {
            x as u64
        } else {
            (x * 1000.0) as u64
        })
    };
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let value = args.get(i + 1).copied();
        let need = || value.ok_or_else(|| format!("{key} needs a value"));
        match key {
            "ponder" => go.ponder = true,
            "draw" => go.draw_offer = true,
            "infinite" => {
                limits.infinite = true;
                bounded = true;
            }
            "depth" | "nodes" | "movestogo" | "time" | "increment" | "opptime" | "oppmovestogo"
            | "oppincrement" => {
                i += 1;
                match key {
                    "depth" => limits.depth = Some(number(key, value)?.min(u32::MAX as u64) as u32),
                    "nodes" => limits.nodes = Some(number(key, value)?),
                    "movestogo" => {
                        limits.moves_to_go = Some(number(key, value)?.min(u32::MAX as u64) as u32)
                    }
                    "time" => limits.time = Some(scale(need()?, key)?),
                    "increment" => limits.increment = scale(need()?, key)?,
                    // The opponent's clock does not change how long we think.
                    _ => {
                        scale(need()?, key)?;
                    }
                }
                bounded |= matches!(key, "depth" | "nodes" | "time");
            }
            other => return Err(format!("unknown go parameter {other:?}")),
        }
        i += 1;
    }
    if !bounded {
        limits.infinite = true;
    }
    go.limits = limits;
    Ok(go)
}

/// `setoption <name> [<value>]` after the word `setoption`; the UCI form
/// (`name … value …`) is accepted too, as some GUIs send it.
pub fn parse_setoption(args: &[&str]) -> Result<(String, String), String> {
    if args.first() == Some(&"name") {
        return super::uci::parse_setoption(args);
    }
    match args {
        [] => Err("setoption without an option name".to_string()),
        [name, value @ ..] => Ok((name.to_string(), value.join(" "))),
    }
}

/// UCCI scores are plain numbers; mates are reported as ±(10000 − plies), as
/// ElephantEye does.
fn score(s: Score) -> i32 {
    match s {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => 10_000 - (2 * n - 1),
        Score::Mate(n) => -10_000 + 2 * n.abs(),
    }
}

/// `info time … nodes …` and `info depth … score … pv …`. With several
/// lines asked for (`multi_pv` > 1) each says which it is, `info depth …
/// multipv N score …` (a Ludus extension), and only line 1 is preceded by
/// the time and nodes; one line speaks plain UCCI.
pub fn info_lines(info: &SearchInfo, multi_pv: usize) -> Vec<String> {
    let mut line = format!("info depth {}", info.depth);
    if multi_pv > 1 {
        line.push_str(&format!(" multipv {}", info.multipv));
    }
    line.push_str(&format!(" score {}", score(info.score)));
    if !info.pv.is_empty() {
        let pv: Vec<String> = info.pv.iter().map(|m| m.to_uci()).collect();
        line.push_str(" pv ");
        line.push_str(&pv.join(" "));
    }
    // The lines of one depth share the time and nodes: said once, before line 1.
    if info.multipv > 1 {
        return vec![line];
    }
    vec![
        format!("info time {} nodes {}", info.elapsed_ms, info.nodes),
        line,
    ]
}

/// Whether to accept a draw offer given the engine's own score.
pub fn accepts_draw(result: &SearchResult) -> bool {
    crate::engine_worker::score_value(result.score) <= -100
}

/// `bestmove X [ponder Y] [draw]`, or `nobestmove`.
pub fn bestmove_line(result: &SearchResult, draw_offered: bool) -> String {
    let Some(best) = result.best else {
        return "nobestmove".to_string();
    };
    let mut line = format!("bestmove {}", best.to_uci());
    if let Some(p) = result.ponder {
        line.push_str(&format!(" ponder {}", p.to_uci()));
    }
    if draw_offered && accepts_draw(result) {
        line.push_str(" draw");
    }
    line
}

/// The answer to `probe`: the book's move for the position, if any.
pub fn probe_line(game: &Game) -> String {
    let book = xiangqi::engine::Book::builtin();
    match book.probe(game.position()).first() {
        Some((m, _)) => format!("pophash bestmove {}", m.to_uci()),
        None => "pophash".to_string(),
    }
}

/// The answer to `probe` with endgame tables: for a covered position,
/// `info string tablebase win in N` and `pophash bestmove X lowerbound V
/// depth 255 upperbound V depth 255` (V the exact score, mates as
/// [`info_lines`] scores them); otherwise [`probe_line`].
pub fn probe_lines(game: &Game, tables: Option<&xiangqi::tablebase::Tablebases>) -> Vec<String> {
    use xiangqi::tablebase::Verdict;
    let pos = game.position();
    let Some((tables, (v, moves))) = tables.and_then(|t| Some((t, t.best_moves(pos)?))) else {
        return vec![probe_line(game)];
    };
    let verdict = crate::session::xiangqi::tablebase::info_string(tables, pos);
    let value = match v {
        Verdict::Win(d) => 10_000 - d as i32,
        Verdict::Loss(d) => -10_000 + d as i32,
        Verdict::Draw => 0,
    };
    let mut answer = "pophash".to_string();
    if let Some(m) = moves.first() {
        answer.push_str(&format!(" bestmove {}", m.to_uci()));
    }
    answer.push_str(&format!(
        " lowerbound {value} depth 255 upperbound {value} depth 255"
    ));
    let mut lines: Vec<String> = verdict
        .map(|t| format!("info string {t}"))
        .into_iter()
        .collect();
    lines.push(answer);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_seconds_unless_millis() {
        let go = parse_go(&["time", "60", "increment", "2"], false).unwrap();
        assert_eq!(go.limits.time, Some(60_000));
        assert_eq!(go.limits.increment, 2_000);
        let go = parse_go(&["time", "60", "increment", "2"], true).unwrap();
        assert_eq!(go.limits.time, Some(60));
        let go = parse_go(&["draw", "depth", "3"], false).unwrap();
        assert!(go.draw_offer);
        assert_eq!(go.limits.depth, Some(3));
        assert!(parse_go(&[], false).unwrap().limits.infinite);
        assert!(parse_go(&["time", "-3"], false).is_err());
        assert!(parse_go(&["time"], false).is_err());
        assert!(parse_go(&["wtime", "3"], false).is_err());
    }

    #[test]
    fn setoption_forms() {
        assert_eq!(
            parse_setoption(&["hashsize", "32"]).unwrap(),
            ("hashsize".to_string(), "32".to_string())
        );
        assert_eq!(
            parse_setoption(&["name", "usebook", "value", "false"]).unwrap(),
            ("usebook".to_string(), "false".to_string())
        );
        assert!(parse_setoption(&[]).is_err());
    }

    #[test]
    fn probe_reports_the_tablebase_verdict() {
        use xiangqi::tablebase::{Material, Tablebases, generate};
        let mut tb = Tablebases::new();
        tb.insert(generate(Material::parse("KR-K").unwrap(), &tb, &mut |_| true).unwrap());
        let game =
            Game::from_position(xiangqi::Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w").unwrap());
        let lines = probe_lines(&game, Some(&tb));
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[0].starts_with("info string tablebase win in "),
            "{lines:?}"
        );
        assert!(lines[1].starts_with("pophash bestmove "), "{lines:?}");
        assert!(lines[1].ends_with("depth 255"), "{lines:?}");
        // Not covered: the book's answer as before.
        assert_eq!(
            probe_lines(&Game::new(), Some(&tb)),
            vec![probe_line(&Game::new())]
        );
        assert_eq!(probe_lines(&game, None), vec!["pophash".to_string()]);
    }

    #[test]
    fn mate_scores() {
        assert_eq!(score(Score::Mate(1)), 9999);
        assert_eq!(score(Score::Mate(-1)), -9998);
        assert_eq!(score(Score::Cp(-35)), -35);
    }

    #[test]
    fn several_lines_are_numbered() {
        let info = SearchInfo {
            multipv: 1,
            depth: 3,
            seldepth: 5,
            score: Score::Cp(12),
            nodes: 700,
            elapsed_ms: 4,
            pv: vec![xiangqi::Move::parse_iccs("h2e2").unwrap()],
        };
        assert_eq!(
            info_lines(&info, 1),
            ["info time 4 nodes 700", "info depth 3 score 12 pv h2e2"]
        );
        assert_eq!(
            info_lines(&info, 3),
            [
                "info time 4 nodes 700",
                "info depth 3 multipv 1 score 12 pv h2e2"
            ]
        );
        let second = SearchInfo { multipv: 2, ..info };
        assert_eq!(
            info_lines(&second, 3),
            ["info depth 3 multipv 2 score 12 pv h2e2"]
        );
        assert!(hello(16).contains(&"option multipv type spin min 1 max 10 default 1".to_string()));
    }
}
