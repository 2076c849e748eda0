//! UCI as Pikafish speaks it: squares `a0`–`i9` (rank 0 on Red's side), times in
//! milliseconds, `setoption name … value …`, `score cp|mate`, `bestmove (none)`.

use xiangqi::engine::{
    Limits, MAX_MULTI_PV, MAX_SKILL, MAX_THREADS, Score, SearchInfo, SearchResult,
};
use xiangqi::{Game, MAX_PERFT_DEPTH};

use super::{Go, number, parse_moves};

/// The answer to `uci`; `max_hash_mb` is the largest `Hash` accepted.
pub fn hello(max_hash_mb: usize) -> Vec<String> {
    vec![
        format!("id name Ludus {}", env!("CARGO_PKG_VERSION")),
        "id author the Ludus authors".to_string(),
        format!("option name Hash type spin default 16 min 1 max {max_hash_mb}"),
        format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
        "option name Ponder type check default false".to_string(),
        format!("option name Skill Level type spin default {MAX_SKILL} min 0 max {MAX_SKILL}"),
        format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTI_PV}"),
        "option name OwnBook type check default true".to_string(),
        "option name UseTablebases type check default true".to_string(),
        "option name Clear Hash type button".to_string(),
        "uciok".to_string(),
    ]
}

/// `go …` after the word `go`. `game` is the position searched (for
/// `searchmoves` and for whose clock counts).
pub fn parse_go(args: &[&str], game: &Game) -> Result<Go, String> {
    let mut go = Go::default();
    let mut limits = Limits::default();
    let (mut wtime, mut btime, mut winc, mut binc) = (None, None, 0, 0);
    let mut bounded = false;
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let value = args.get(i + 1).copied();
        let mut take = || -> Result<u64, String> {
            i += 1;
            number(key, value)
        };
        match key {
            "wtime" => wtime = Some(take()?),
            "btime" => btime = Some(take()?),
            "winc" => winc = take()?,
            "binc" => binc = take()?,
            "movestogo" => limits.moves_to_go = Some(take()?.min(u32::MAX as u64) as u32),
            "depth" => limits.depth = Some(take()?.min(u32::MAX as u64) as u32),
            "mate" => {
                let plies = take()?.saturating_mul(2).saturating_add(1);
                limits.depth = Some(plies.min(u32::MAX as u64) as u32)
            }
            "nodes" => limits.nodes = Some(take()?),
            "movetime" => limits.movetime = Some(take()?),
            "perft" => {
                let depth = take()?;
                if depth > u64::from(MAX_PERFT_DEPTH) {
                    return Err(format!(
                        "perft depth is at most {MAX_PERFT_DEPTH}, not {depth}"
                    ));
                }
                go.perft = Some(depth as u32);
            }
            "infinite" => limits.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                let end = args[i + 1..]
                    .iter()
                    .position(|t| is_go_keyword(t))
                    .map_or(args.len(), |p| i + 1 + p);
                limits.search_moves = parse_moves(&args[i + 1..end], game.position())?;
                i = end - 1;
            }
            other => return Err(format!("unknown go parameter {other:?}")),
        }
        bounded |= !matches!(key, "ponder" | "searchmoves" | "movestogo");
        i += 1;
    }
    let red = game.position().turn() == xiangqi::Color::Red;
    limits.time = if red { wtime } else { btime };
    limits.increment = if red { winc } else { binc };
    if !bounded {
        // A bare `go` searches until `stop`, as in chess engines.
        limits.infinite = true;
    }
    go.limits = limits;
    Ok(go)
}

fn is_go_keyword(t: &str) -> bool {
    matches!(
        t,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "depth"
            | "mate"
            | "nodes"
            | "movetime"
            | "perft"
            | "infinite"
            | "ponder"
    )
}

/// `setoption name <name…> [value <value…>]` after the word `setoption`.
pub fn parse_setoption(args: &[&str]) -> Result<(String, String), String> {
    if args.first() != Some(&"name") {
        return Err("expected `setoption name <name> value <value>`".to_string());
    }
    let rest = &args[1..];
    let split = rest.iter().position(|t| *t == "value");
    let (name, value) = match split {
        Some(p) => (&rest[..p], &rest[p + 1..]),
        None => (rest, &[][..]),
    };
    if name.is_empty() {
        return Err("setoption without an option name".to_string());
    }
    Ok((name.join(" "), value.join(" ")))
}

/// `info depth … seldepth … multipv … score … nodes … nps … time … pv …`;
/// `multipv` is always there, as Stockfish and Pikafish print it.
pub fn info_line(info: &SearchInfo) -> String {
    let score = match info.score {
        Score::Cp(v) => format!("cp {v}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let nps = info.nodes * 1000 / info.elapsed_ms.max(1);
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {score} nodes {} nps {nps} time {}",
        info.depth, info.seldepth, info.multipv, info.nodes, info.elapsed_ms
    );
    if !info.pv.is_empty() {
        let pv: Vec<String> = info.pv.iter().map(|m| m.to_uci()).collect();
        line.push_str(" pv ");
        line.push_str(&pv.join(" "));
    }
    line
}

/// `bestmove X [ponder Y]`, or `bestmove (none)` without a legal move.
pub fn bestmove_line(result: &SearchResult) -> String {
    match (result.best, result.ponder) {
        (Some(b), Some(p)) => format!("bestmove {} ponder {}", b.to_uci(), p.to_uci()),
        (Some(b), None) => format!("bestmove {}", b.to_uci()),
        (None, _) => "bestmove (none)".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_takes_the_clock_of_the_side_to_move() {
        let mut game = Game::new();
        let go = parse_go(&["wtime", "60000", "btime", "30000", "winc", "500"], &game).unwrap();
        assert_eq!(go.limits.time, Some(60000));
        assert_eq!(go.limits.increment, 500);
        game.play_text("h2e2").unwrap();
        let go = parse_go(&["wtime", "60000", "btime", "30000", "winc", "500"], &game).unwrap();
        assert_eq!(go.limits.time, Some(30000));
        assert_eq!(go.limits.increment, 0);
        assert!(!go.limits.infinite);
    }

    #[test]
    fn go_variants_and_errors() {
        let game = Game::new();
        assert!(parse_go(&[], &game).unwrap().limits.infinite);
        assert_eq!(parse_go(&["perft", "3"], &game).unwrap().perft, Some(3));
        assert_eq!(parse_go(&["perft", "32"], &game).unwrap().perft, Some(32));
        assert_eq!(
            parse_go(&["perft", "33"], &game).unwrap_err(),
            "perft depth is at most 32, not 33"
        );
        assert_eq!(
            parse_go(&["depth", "4"], &game).unwrap().limits.depth,
            Some(4)
        );
        assert!(parse_go(&["depth"], &game).is_err());
        let huge = u64::MAX.to_string();
        assert_eq!(
            parse_go(&["mate", &huge], &game).unwrap().limits.depth,
            Some(u32::MAX)
        );
        assert!(parse_go(&["depth", "x"], &game).is_err());
        assert!(parse_go(&["sideways"], &game).is_err());
        let go = parse_go(&["searchmoves", "h2e2", "b2e2", "depth", "2"], &game).unwrap();
        assert_eq!(go.limits.search_moves.len(), 2);
        assert_eq!(go.limits.depth, Some(2));
        assert!(parse_go(&["searchmoves", "a0a9"], &game).is_err());
    }

    #[test]
    fn setoption_names_may_have_spaces() {
        assert_eq!(
            parse_setoption(&["name", "Skill", "Level", "value", "3"]).unwrap(),
            ("Skill Level".to_string(), "3".to_string())
        );
        assert_eq!(
            parse_setoption(&["name", "Clear", "Hash"]).unwrap(),
            ("Clear Hash".to_string(), String::new())
        );
        assert!(parse_setoption(&["Hash", "3"]).is_err());
    }

    #[test]
    fn info_lines_say_which_line_they_are() {
        let info = SearchInfo {
            multipv: 2,
            depth: 7,
            seldepth: 12,
            score: Score::Mate(-3),
            nodes: 5000,
            elapsed_ms: 10,
            pv: vec![xiangqi::Move::parse_iccs("h2e2").unwrap()],
        };
        assert_eq!(
            info_line(&info),
            "info depth 7 seldepth 12 multipv 2 score mate -3 nodes 5000 nps 500000 time 10 pv h2e2"
        );
        assert!(
            hello(16).contains(&"option name MultiPV type spin default 1 min 1 max 10".to_string())
        );
    }
}
