//! A match runner: two UCI/UCCI engines as child processes play a series of
//! games from opening lines (built-in ones, then lines of the opening book),
//! each line once with each colour. The rules
//! crate adjudicates (mate, stalemate, repetition with perpetual check/chase,
//! the move limit, bare material) and a ply cap ends endless games as draws; an
//! illegal move, a crash or a flag fall loses. UCCI engines (an engine that
//! quits or stays silent on `uci` is spoken to in UCCI) are told the moves the
//! repetition rules forbid (`banmoves`), and their `nobestmove` after 100
//! quiet plies is taken as a draw claim. Every game is appended to a PGN
//! file as soon as it ends; the summary gives the score and the Elo difference
//! with a 95% error bar.

use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use xiangqi::pgn::{MoveFormat, PgnGame};
use xiangqi::{Color, Game, Move, Outcome};

use super::Dialect;
use crate::external_engine::{EngineProcess, ExternalSpec};

/// How long each engine may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    Depth(u32),
    Nodes(u64),
    MoveTime(u64),
    /// A clock: base and increment in milliseconds.
    Clock {
        base_ms: u64,
        inc_ms: u64,
    },
}

impl TimeControl {
    /// `depth=N`, `nodes=N`, `movetime=MS` or `SECONDS+INC` (e.g. `60+0.5`).
    pub fn parse(s: &str) -> Result<TimeControl, String> {
        let bad =
            || format!("bad time control {s:?}: use depth=N, nodes=N, movetime=MS or SECONDS+INC");
        if let Some((key, value)) = s.split_once('=') {
            let n: u64 = value.trim().parse().map_err(|_| bad())?;
            return match key.trim() {
                "depth" => Ok(TimeControl::Depth(n.clamp(1, 100) as u32)),
                "nodes" => Ok(TimeControl::Nodes(n.max(1))),
                "movetime" => Ok(TimeControl::MoveTime(n.max(1))),
                _ => Err(bad()),
            };
        }
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        let secs = |t: &str| -> Result<u64, String> {
            let x: f64 = t.trim().parse().map_err(|_| bad())?;
            if x.is_finite() && x >= 0.0 {
                Ok((x * 1000.0) as u64)
            } else {
                Err(bad())
            }
        };
        let base_ms = secs(base)?;
        if base_ms == 0 {
            return Err(bad());
        }
        Ok(TimeControl::Clock {
            base_ms,
            inc_ms: secs(inc)?,
        })
    }

    /// Longest silence before the engine is given up on (at most a day, so
    /// that adding it to the clock cannot overflow).
    fn patience(self, clock_ms: u64) -> Duration {
        let ms = match self {
            TimeControl::Depth(_) | TimeControl::Nodes(_) => 120_000,
            TimeControl::MoveTime(ms) => ms.saturating_add(5_000),
            TimeControl::Clock { .. } => clock_ms.saturating_add(1_000),
        };
        Duration::from_millis(ms.min(86_400_000))
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Depth(d) => write!(f, "depth={d}"),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::MoveTime(ms) => write!(f, "movetime={ms}"),
            TimeControl::Clock { base_ms, inc_ms } => {
                write!(
                    f,
                    "{}+{}",
                    *base_ms as f64 / 1000.0,
                    *inc_ms as f64 / 1000.0
                )
            }
        }
    }
}

/// One engine of the match.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// Command line, split like a shell would (quotes group words).
    pub command: String,
    pub dialect: Dialect,
    pub tc: TimeControl,
    /// Options set after the handshake.
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// The process to start: [`Dialect::Uci`] means UCI, or UCCI for an
    /// engine that does not answer `uci`.
    fn process(&self) -> ExternalSpec {
        ExternalSpec {
            command: self.command.clone(),
            dialect: match self.dialect {
                Dialect::Uci => None,
                Dialect::Ucci => Some(Dialect::Ucci),
            },
            options: self.options.clone(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: [EngineSpec; 2],
    pub games: usize,
    /// Plies after which a game is adjudicated a draw.
    pub max_plies: usize,
    pub pgn: PathBuf,
}

/// Opening lines (ICCS) the games start from; each is played with both colours.
pub const OPENINGS: &[(&str, &str)] = &[
    ("Central cannon vs screen horses", "h2e2 h9g7 h0g2 b9c7"),
    ("Central cannon vs same-direction cannon", "h2e2 h7e7"),
    ("Pawn opening", "c3c4 g6g5"),
    ("Horse opening", "h0g2 h9g7"),
    ("Elephant opening vs central cannon", "c0e2 h7e7"),
    ("Palcorner cannon", "h2f2 h9g7"),
    ("Central cannon vs three-step tiger", "h2e2 b9c7 h0g2 b7a7"),
    ("Crossing cannon", "b2f2 h7e7"),
];

/// Plies of the opening lines taken from the book.
const BOOK_LINE_PLIES: usize = 4;

/// The openings in playing order: the named lines above, then distinct lines
/// of the built-in book (up to four plies, heaviest moves first), so that long
/// matches do not replay the same games.
pub fn openings() -> Vec<(String, Vec<Move>)> {
    let mut out: Vec<(String, Vec<Move>)> = OPENINGS
        .iter()
        .map(|(name, line)| {
            let mut game = Game::new();
            let moves = line
                .split_whitespace()
                .map_while(|t| game.play_text(t).ok())
                .collect();
            (name.to_string(), moves)
        })
        .collect();
    let book = xiangqi::engine::Book::builtin();
    let mut lines = Vec::new();
    book_lines(&book, &mut Game::new(), &mut Vec::new(), &mut lines);
    for line in lines {
        if !out.iter().any(|(_, known)| *known == line) {
            let text: Vec<String> = line.iter().map(|m| m.to_uci()).collect();
            out.push((format!("Book line {}", text.join(" ")), line));
        }
    }
    out
}

/// Depth-first walk of the book to [`BOOK_LINE_PLIES`] (or where the book
/// ends, after two plies at least), at most four moves per position and 200 lines.
fn book_lines(
    book: &xiangqi::engine::Book,
    game: &mut Game,
    line: &mut Vec<Move>,
    out: &mut Vec<Vec<Move>>,
) {
    if out.len() >= 200 {
        return;
    }
    if line.len() == BOOK_LINE_PLIES {
        out.push(line.clone());
        return;
    }
    let moves = book.probe(game.position());
    if moves.is_empty() && line.len() >= 2 {
        // The book ends here: the line so far is an opening too.
        out.push(line.clone());
    }
    for (m, _) in moves.into_iter().take(4) {
        if game.play(m).is_ok() {
            line.push(m);
            book_lines(book, game, line, out);
            line.pop();
            game.undo();
        }
    }
}

/// The result so far, from the first engine's point of view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub names: [String; 2],
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

impl Summary {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Score fraction of the first engine.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / (self.games().max(1) as f64)
    }

    /// Elo difference (first minus second) and the half-width of its 95%
    /// confidence interval, from the per-game score variance (as cutechess
    /// reports it). Infinite when one side scored everything.
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games().max(1) as f64;
        let p = self.score();
        let var = (self.wins as f64 * (1.0 - p).powi(2)
            + self.draws as f64 * (0.5 - p).powi(2)
            + self.losses as f64 * p.powi(2))
            / n;
        let margin = 1.96 * (var / n).sqrt();
        let elo = |p: f64| {
            if p <= 0.0 {
                f64::NEG_INFINITY
            } else if p >= 1.0 {
                f64::INFINITY
            } else {
                -400.0 * (1.0 / p - 1.0).log10()
            }
        };
        // Adding zero turns -0.0 into 0.0 for printing.
        let diff = elo(p) + 0.0;
        let spread = (elo(p + margin) - elo(p - margin)) / 2.0;
        (diff, spread)
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (diff, spread) = self.elo();
        writeln!(
            f,
            "Score of {} vs {}: {} - {} - {} [{:.3}] {} games",
            self.names[0],
            self.names[1],
            self.wins,
            self.losses,
            self.draws,
            self.score(),
            self.games()
        )?;
        if diff.is_finite() && spread.is_finite() {
            write!(f, "Elo difference: {diff:+.1} +/- {spread:.1}")
        } else if diff.is_finite() {
            write!(f, "Elo difference: {diff:+.1} +/- inf")
        } else {
            write!(f, "Elo difference: {diff} (one side scored every point)")
        }
    }
}

/// Splits a command line into words; single or double quotes group words.
pub fn split_command(s: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in s.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                any = true;
            }
            None if c.is_whitespace() => {
                if any || !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            None => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// A move as an engine writes it: `h2e2`, or `h3e3` with ranks counted from one.
pub fn engine_move_text(m: Move, one_based: bool) -> String {
    if !one_based {
        return m.to_uci();
    }
    let sq = |s: xiangqi::Square| format!("{}{}", (b'a' + s.file()) as char, s.rank() + 1);
    format!("{}{}", sq(m.from), sq(m.to))
}

/// Reads a move an engine wrote (see [`engine_move_text`]).
pub fn parse_engine_move(text: &str, one_based: bool) -> Option<Move> {
    if !one_based {
        return Move::parse_iccs(text).ok();
    }
    // Letter, then one or two digits, twice.
    let bytes = text.as_bytes();
    let mut squares = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let file = bytes[i].checked_sub(b'a')?;
        let digits = bytes[i + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let rank: u8 = text.get(i + 1..i + 1 + digits)?.parse().ok()?;
        squares.push(xiangqi::Square::new(file, rank.checked_sub(1)?)?);
        i += 1 + digits;
    }
    match squares[..] {
        [from, to] if from != to => Some(Move::new(from, to)),
        _ => None,
    }
}

/// Asks `engine` for a move; `clocks` are (own, opponent) milliseconds left.
fn best_move(
    engine: &mut EngineProcess,
    tc: TimeControl,
    game: &Game,
    clocks: [u64; 2],
) -> Result<Option<String>> {
    let position = engine.position_line(game);
    engine.send(&position)?;
    if engine.dialect == Dialect::Ucci {
        // UCCI leaves the repetition rules to the GUI: it names the moves
        // that would lose by perpetual check or chase.
        let banned = banned_moves(game);
        if !banned.is_empty() {
            let text = engine.moves_text(&banned);
            engine.send(&format!("banmoves {text}"))?;
        }
    }
    let red = game.position().turn() == Color::Red;
    let go = match (tc, engine.dialect) {
        (TimeControl::Depth(d), _) => format!("go depth {d}"),
        (TimeControl::Nodes(n), _) => format!("go nodes {n}"),
        (TimeControl::MoveTime(ms), Dialect::Uci) => format!("go movetime {ms}"),
        (TimeControl::MoveTime(ms), Dialect::Ucci) => format!("go time {ms} movestogo 1"),
        (TimeControl::Clock { inc_ms, .. }, Dialect::Uci) => {
            let (w, b) = if red {
                (clocks[0], clocks[1])
            } else {
                (clocks[1], clocks[0])
            };
            format!("go wtime {w} btime {b} winc {inc_ms} binc {inc_ms}")
        }
        (TimeControl::Clock { inc_ms, .. }, Dialect::Ucci) => format!(
            "go time {} increment {inc_ms} opptime {} oppincrement {inc_ms}",
            clocks[0], clocks[1]
        ),
    };
    engine.send(&go)?;
    let deadline = Instant::now() + tc.patience(clocks[0]);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = engine.recv(left)?;
        let mut words = line.split_whitespace();
        match words.next() {
            Some("bestmove") => return Ok(words.next().map(str::to_string)),
            Some("nobestmove") => return Ok(None),
            _ => {}
        }
    }
}

/// Legal moves after which the side to move loses under the repetition rules
/// (perpetual check or chase), for UCCI `banmoves`.
pub fn banned_moves(game: &Game) -> Vec<Move> {
    let mover = game.position().turn();
    let mut trial = game.clone();
    let mut banned = Vec::new();
    for &m in &game.position().legal_moves() {
        if trial.play(m).is_ok() {
            if trial
                .result()
                .is_some_and(|r| r.outcome == Outcome::Win(!mover))
            {
                banned.push(m);
            }
            trial.undo();
        }
    }
    banned
}

/// How one game ended.
struct Ending {
    /// Winner by engine index (0 or 1), or None for a draw.
    winner: Option<usize>,
    reason: String,
}

/// Plays the match, printing a line per game to `log`; returns the summary.
pub fn run(config: &MatchConfig, log: &mut impl Write) -> Result<Summary> {
    let mut engines = [
        EngineProcess::start(&config.engines[0].process())?,
        EngineProcess::start(&config.engines[1].process())?,
    ];
    let mut summary = Summary {
        names: [engines[0].name.clone(), engines[1].name.clone()],
        ..Summary::default()
    };
    if summary.names[0] == summary.names[1] {
        summary.names[0].push_str(" (1)");
        summary.names[1].push_str(" (2)");
    }
    let mut pgn_text = String::new();
    let openings = openings();
    for round in 0..config.games {
        let (opening_name, line) = &openings[(round / 2) % openings.len()];
        // Engine index playing Red this game.
        let red = round % 2;
        let mut game = Game::new();
        for &m in line {
            if game.play(m).is_err() {
                break;
            }
        }
        for e in engines.iter_mut() {
            e.new_game()?;
        }
        let ending = play_game(&mut engines, &mut game, red, config);
        let result = match ending.winner {
            Some(w) if w == red => "1-0",
            Some(_) => "0-1",
            None => "1/2-1/2",
        };
        match ending.winner {
            Some(0) => summary.wins += 1,
            Some(_) => summary.losses += 1,
            None => summary.draws += 1,
        }
        let red_name = summary.names[red].clone();
        let black_name = summary.names[1 - red].clone();
        let round_text = (round + 1).to_string();
        let tc = format!(
            "{} / {}",
            config.engines[red].tc,
            config.engines[1 - red].tc
        );
        let mut record = PgnGame::from_game(
            &game,
            &[
                ("Event", "Ludus engine match"),
                ("Round", &round_text),
                ("Red", &red_name),
                ("Black", &black_name),
                ("Result", result),
                // The match's own name of the line it started from; the
                // ECCO opening is tagged from the moves below.
                ("StartLine", opening_name),
                ("TimeControl", &tc),
                ("Termination", &ending.reason),
            ],
        );
        record.result = result.to_string();
        crate::session::xiangqi::flow::tag_opening(&mut record);
        pgn_text.push_str(&record.to_pgn(MoveFormat::Iccs));
        pgn_text.push('\n');
        crate::store::write_atomic(&config.pgn, pgn_text.as_bytes())
            .with_context(|| format!("cannot write {}", config.pgn.display()))?;
        writeln!(
            log,
            "Game {}/{}: {red_name} (red) vs {black_name} (black): {result} ({}), {} plies; score {} - {} - {}",
            round + 1,
            config.games,
            ending.reason,
            game.plies().len(),
            summary.wins,
            summary.losses,
            summary.draws
        )?;
    }
    Ok(summary)
}

/// Plies without capture after which an engine that answers `nobestmove`
/// (UCCI engines such as ElephantEye do so under their 50-move rule) is
/// granted a draw instead of losing.
pub const CLAIM_PLIES: u32 = 100;

/// Whether a `nobestmove` answer counts as a valid draw claim.
pub fn draw_claim_holds(game: &Game) -> bool {
    game.position().halfmoves() >= CLAIM_PLIES
}

/// Plays one game to its end; engine `red` plays Red.
fn play_game(
    engines: &mut [EngineProcess; 2],
    game: &mut Game,
    red: usize,
    config: &MatchConfig,
) -> Ending {
    let mut clocks = [0u64; 2];
    for (i, clock) in clocks.iter_mut().enumerate() {
        if let TimeControl::Clock { base_ms, .. } = config.engines[i].tc {
            *clock = base_ms;
        }
    }
    loop {
        if let Some(r) = game.result() {
            let winner = match r.outcome {
                Outcome::Win(Color::Red) => Some(red),
                Outcome::Win(Color::Black) => Some(1 - red),
                Outcome::Draw => None,
            };
            return Ending {
                winner,
                reason: r.to_string(),
            };
        }
        if game.plies().len() >= config.max_plies {
            return Ending {
                winner: None,
                reason: format!("draw adjudicated after {} plies", config.max_plies),
            };
        }
        let side = if game.position().turn() == Color::Red {
            red
        } else {
            1 - red
        };
        let started = Instant::now();
        let tc = config.engines[side].tc;
        let answer = best_move(
            &mut engines[side],
            tc,
            game,
            [clocks[side], clocks[1 - side]],
        );
        let spent = started.elapsed().as_millis() as u64;
        let loses = |reason: String| Ending {
            winner: Some(1 - side),
            reason,
        };
        let name = engines[side].name.clone();
        let text = match answer {
            Ok(Some(t)) => t,
            Ok(None) if draw_claim_holds(game) => {
                return Ending {
                    winner: None,
                    reason: format!("{name} claimed a draw: no capture in {CLAIM_PLIES} plies"),
                };
            }
            Ok(None) => return loses(format!("{name} had no move")),
            Err(e) => return loses(format!("{e:#}")),
        };
        if let TimeControl::Clock { inc_ms, .. } = config.engines[side].tc {
            if spent > clocks[side] {
                return loses(format!("{name} lost on time"));
            }
            clocks[side] = clocks[side] - spent + inc_ms;
        }
        let one_based = engines[side].one_based;
        let played = parse_engine_move(&text, one_based).filter(|m| game.play(*m).is_ok());
        if played.is_none() {
            return loses(format!("{name} played the illegal move {text:?}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(TimeControl::parse("depth=3"), Ok(TimeControl::Depth(3)));
        assert_eq!(
            TimeControl::parse("nodes=5000"),
            Ok(TimeControl::Nodes(5000))
        );
        assert_eq!(
            TimeControl::parse("movetime=100"),
            Ok(TimeControl::MoveTime(100))
        );
        assert_eq!(
            TimeControl::parse("60+0.5"),
            Ok(TimeControl::Clock {
                base_ms: 60_000,
                inc_ms: 500
            })
        );
        assert_eq!(
            TimeControl::parse("10"),
            Ok(TimeControl::Clock {
                base_ms: 10_000,
                inc_ms: 0
            })
        );
        let huge = TimeControl::parse(&format!("movetime={}", u64::MAX)).unwrap();
        assert_eq!(huge.patience(0), Duration::from_secs(86_400));
        for bad in ["", "depth=x", "speed=3", "0+1", "-1+0", "a+b"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn an_engine_that_only_speaks_ucci_is_spoken_to_in_ucci() {
        // Like ElephantEye: any first line but `ucci` ends the engine.
        let script = "read l; [ \"$l\" = ucci ] || exit 0; echo id name Fake UCCI; echo ucciok; \
            while read l; do case \"$l\" in isready) echo readyok;; quit) exit 0;; esac; done";
        let spec = EngineSpec {
            command: format!("sh -c '{script}'"),
            dialect: Dialect::Uci,
            tc: TimeControl::Depth(1),
            options: Vec::new(),
        };
        let engine = EngineProcess::start(&spec.process()).expect("the UCCI handshake succeeds");
        assert_eq!(engine.dialect, Dialect::Ucci);
        assert_eq!(engine.name, "Fake UCCI");
        let missing = EngineSpec {
            command: "/nonexistent/engine".to_string(),
            ..spec
        };
        let error = EngineProcess::start(&missing.process())
            .err()
            .expect("no such engine");
        assert!(
            format!("{error:#}").contains("cannot start engine"),
            "{error:#}"
        );
    }

    #[test]
    fn moves_that_lose_by_perpetual_check_are_banned() {
        // Red's chariot checks from f1 and e1 while the black general steps
        // between f9 and e9: e1f1 now would repeat a position a third time.
        let start = xiangqi::Position::from_fen("5k3/9/9/9/9/9/9/9/R8/3K5 w - - 0 1").unwrap();
        let mut game = Game::from_position(start);
        for t in [
            "a1f1", "f9e9", "f1e1", "e9f9", "e1f1", "f9e9", "f1e1", "e9f9",
        ] {
            assert!(game.play_text(t).is_ok(), "{t}");
            assert!(game.result().is_none(), "{t}");
        }
        let e1f1 = Move::parse_iccs("e1f1").unwrap();
        assert_eq!(banned_moves(&game), vec![e1f1]);
        assert!(banned_moves(&Game::new()).is_empty());
    }

    #[test]
    fn a_draw_claim_needs_a_hundred_quiet_plies() {
        let quiet = |n: u32| {
            xiangqi::Position::from_fen(&format!("5k3/9/9/9/9/9/9/9/R8/3K5 w - - {n} 1")).unwrap()
        };
        assert!(!draw_claim_holds(&Game::new()));
        assert!(!draw_claim_holds(&Game::from_position(quiet(99))));
        assert!(draw_claim_holds(&Game::from_position(quiet(100))));
    }

    #[test]
    fn openings_are_legal() {
        for (name, line) in OPENINGS {
            let mut game = Game::new();
            for t in line.split_whitespace() {
                assert!(game.play_text(t).is_ok(), "{name}: {t}");
            }
        }
    }

    #[test]
    fn fairy_stockfish_coordinates() {
        let m = Move::parse_iccs("a9a7").unwrap();
        assert_eq!(engine_move_text(m, true), "a10a8");
        assert_eq!(engine_move_text(m, false), "a9a7");
        assert_eq!(parse_engine_move("a10a8", true), Some(m));
        assert_eq!(
            parse_engine_move("h3e3", true),
            Move::parse_iccs("h2e2").ok()
        );
        for bad in ["a0a1", "a11a1", "a1", "a1a1", "z1a1", "a1a2a3", ""] {
            assert_eq!(parse_engine_move(bad, true), None, "{bad}");
        }
    }

    #[test]
    fn book_openings_follow_the_named_ones_and_are_distinct() {
        let all = openings();
        assert_eq!(all[0].0, OPENINGS[0].0);
        assert!(all.len() > OPENINGS.len() * 2, "{}", all.len());
        for (i, (name, line)) in all.iter().enumerate() {
            let mut game = Game::new();
            assert!(line.iter().all(|m| game.play(*m).is_ok()), "{name}");
            assert!(!all[..i].iter().any(|(_, l)| l == line), "{name} twice");
        }
    }

    #[test]
    fn command_splitting() {
        assert_eq!(
            split_command("ludus xiangqi uci"),
            ["ludus", "xiangqi", "uci"]
        );
        assert_eq!(
            split_command("'/opt/my engine/ee' -x \"a b\" ''"),
            ["/opt/my engine/ee", "-x", "a b", ""]
        );
        assert!(split_command("   ").is_empty());
    }

    #[test]
    fn elo_and_error_bars() {
        let even = Summary {
            wins: 10,
            losses: 10,
            draws: 0,
            ..Summary::default()
        };
        let (d, s) = even.elo();
        assert!(d.abs() < 1e-9);
        assert!(s > 100.0 && s < 200.0, "{s}");
        let better = Summary {
            wins: 75,
            losses: 25,
            draws: 0,
            ..Summary::default()
        };
        let (d, s) = better.elo();
        assert!((d - 190.8).abs() < 0.1, "{d}");
        assert!(s > 50.0 && s < 100.0, "{s}");
        let all = Summary {
            wins: 2,
            ..Summary::default()
        };
        assert!(all.elo().0.is_infinite());
        assert!(all.to_string().contains("one side scored every point"));
    }
}
