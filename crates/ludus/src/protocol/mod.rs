//! The engine shells over `crates/xiangqi`: UCI ([`uci`]) and UCCI ([`ucci`])
//! sessions on any reader and writer, the engine worker thread they share with
//! the terminal UI ([`engine`]), and a match runner for engines as child
//! processes ([`r#match`]).
//!
//! A session reads commands line by line and never waits for the worker: `go`
//! hands the job to the worker, whose events are written to the same output as
//! they come, so `stop`, `isready` and `quit` are answered while it thinks.
//! A `go` while a search or perft runs stops it (a search still answers with
//! `bestmove`) and then runs. `isready` is answered at once, unless a setting
//! such as a new hash table is still being applied: then `readyok` follows
//! when it is. `quit` stops everything and ends promptly in every state.

pub mod r#match;
pub mod tbp;
pub mod ucci;
pub mod uci;

use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use xiangqi::engine::{Limits, MAX_HASH_MB, MAX_MULTI_PV, MAX_SKILL, MAX_THREADS};
use xiangqi::{Game, Move, Position};

use crate::engine_worker::{EngineThread, Event, Job, SearchJob, Setting};

/// Which protocol a session speaks (it can switch on `uci` / `ucci`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    Ucci,
}

/// A parsed `go`.
#[derive(Clone, Debug, Default)]
pub struct Go {
    pub limits: Limits,
    /// `go perft N`: count moves instead of searching.
    pub perft: Option<u32>,
    /// UCCI `go draw`: the opponent offers a draw.
    pub draw_offer: bool,
    /// `go ponder`: think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
}

/// Reads the number after `key`.
pub(crate) fn number(key: &str, value: Option<&str>) -> Result<u64, String> {
    let v = value.ok_or_else(|| format!("{key} needs a value"))?;
    v.parse()
        .map_err(|_| format!("{key} needs a whole number, not {v:?}"))
}

/// Reads legal moves of `pos` in coordinate notation.
pub(crate) fn parse_moves(tokens: &[&str], pos: &Position) -> Result<Vec<Move>, String> {
    tokens
        .iter()
        .map(|t| pos.parse_iccs(t).map_err(|e| e.to_string()))
        .collect()
}

/// `[startpos | fen <fen…>] [moves <m…>]`. On an illegal move the game stops
/// before it and the error says so.
pub fn parse_position(args: &[&str]) -> (Option<Game>, Option<String>) {
    let moves_at = args.iter().position(|t| *t == "moves");
    let (setup, moves) = match moves_at {
        Some(p) => (&args[..p], &args[p + 1..]),
        None => (args, &[][..]),
    };
    let start = match setup {
        ["startpos"] => Position::startpos(),
        ["fen", fen @ ..] if !fen.is_empty() => match Position::from_fen(&fen.join(" ")) {
            Ok(p) => p,
            Err(e) => return (None, Some(format!("bad FEN: {e}"))),
        },
        _ => {
            return (
                None,
                Some("expected `position startpos|fen <fen> [moves …]`".to_string()),
            );
        }
    };
    let mut game = Game::from_position(start);
    for t in moves {
        let played = game
            .position()
            .parse_iccs(t)
            .ok()
            .and_then(|m| game.play(m).ok());
        if played.is_none() {
            return (
                Some(game),
                Some(format!("illegal move {t:?}: ignored from here")),
            );
        }
    }
    (Some(game), None)
}

/// Perft split by first move as chess engines print it: `h2e2: 1234` lines, a
/// blank line, `Nodes searched: N`.
pub fn perft_lines(divide: &[(Move, u64)], total: u64) -> Vec<String> {
    let mut lines: Vec<String> = divide
        .iter()
        .map(|(m, n)| format!("{}: {n}", m.to_uci()))
        .collect();
    lines.push(String::new());
    lines.push(format!("Nodes searched: {total}"));
    lines
}

/// Settings of a session that are not protocol options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionOptions {
    /// The largest `Hash` (UCI) or `hashsize` (UCCI) accepted, in megabytes,
    /// and advertised as the option's maximum; larger values are refused
    /// before any memory is asked for. Default [`MAX_HASH_MB`].
    pub max_hash_mb: usize,
}

impl Default for SessionOptions {
    fn default() -> Self {
        SessionOptions {
            max_hash_mb: MAX_HASH_MB,
        }
    }
}

/// The output and what the worker needs to format its events.
struct Shared<W> {
    out: W,
    dialect: Dialect,
    /// Searches that answer a draw offer (UCCI `go draw`), by id; an id leaves
    /// when its search answers.
    draw_offers: Vec<u64>,
    /// A search whose `bestmove` is not sent: the ponder search that a
    /// `ponderhit` replaced.
    silenced: Option<u64>,
    /// Lines the searches report (`MultiPV`): UCCI numbers its lines only
    /// when there are several. Options are set between searches, so this is
    /// the running search's count.
    multi_pv: usize,
}

impl<W: Write> Shared<W> {
    fn line(&mut self, text: &str) {
        // A closed output (the GUI went away) is not an error worth dying for:
        // `quit` or the end of input follows.
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
    }

    fn event(&mut self, event: Event) {
        match (event, self.dialect) {
            (Event::Info { info, .. }, Dialect::Uci) => self.line(&uci::info_line(&info)),
            (Event::Info { info, .. }, Dialect::Ucci) => {
                for l in ucci::info_lines(&info, self.multi_pv) {
                    self.line(&l);
                }
            }
            (Event::Done { id, result, .. }, dialect) => {
                let draw_offered = self.draw_offers.contains(&id);
                self.draw_offers.retain(|&d| d != id);
                if self.silenced == Some(id) {
                    self.silenced = None;
                    return;
                }
                if result.from_book {
                    self.line("info string book move");
                }
                let line = match dialect {
                    Dialect::Uci => uci::bestmove_line(&result),
                    Dialect::Ucci => ucci::bestmove_line(&result, draw_offered),
                };
                self.line(&line);
            }
            (Event::PerftStopped { elapsed_ms }, _) => {
                self.line(&format!("info string perft stopped after {elapsed_ms} ms"));
            }
            (
                Event::HashUnavailable {
                    requested_mb,
                    kept_mb,
                },
                _,
            ) => self.line(&format!(
                "info string cannot allocate a {requested_mb} MB hash table: \
                 keeping the {kept_mb} MB one"
            )),
            (Event::Ready, _) => self.line("readyok"),
            (Event::Failed { message, .. }, _) => self.line(&format!("info string {message}")),
            (
                Event::Perft {
                    divide,
                    total,
                    elapsed_ms,
                },
                _,
            ) => {
                let mut divide = divide;
                divide.sort_by_key(|(m, _)| m.to_uci());
                for l in perft_lines(&divide, total) {
                    self.line(&l);
                }
                let nps = total * 1000 / elapsed_ms.max(1);
                self.line(&format!("info string perft {elapsed_ms} ms, {nps} nps"));
            }
        }
    }
}

/// One protocol session: the position, engine settings and the worker.
struct Session<W: Write + Send + 'static> {
    shared: Arc<Mutex<Shared<W>>>,
    engine: EngineThread,
    game: Game,
    banned: Vec<Move>,
    millis: bool,
    infinite: bool,
    /// While pondering: the limits the real search gets on `ponderhit`.
    pondering: Option<Limits>,
    next_id: u64,
    options: SessionOptions,
    /// Endgame tables in use (`UseTablebases`), when generated.
    tablebases: bool,
}

enum Flow {
    Continue,
    Quit,
}

/// Runs a session until `quit`/`bye` or the end of input. At the end of input
/// a bounded search is allowed to finish (so piped scripts get their answer);
/// an infinite one is stopped.
///
/// # Errors
///
/// An error reading the input (other than a line that is not UTF-8, which is
/// reported and skipped).
pub fn run_session<R: BufRead, W: Write + Send + 'static>(
    input: R,
    output: W,
    dialect: Dialect,
) -> io::Result<()> {
    run_session_with(input, output, dialect, SessionOptions::default())
}

/// [`run_session`] with other [`SessionOptions`].
///
/// # Errors
///
/// As [`run_session`].
pub fn run_session_with<R: BufRead, W: Write + Send + 'static>(
    input: R,
    output: W,
    dialect: Dialect,
    options: SessionOptions,
) -> io::Result<()> {
    let shared = Arc::new(Mutex::new(Shared {
        out: output,
        dialect,
        draw_offers: Vec::new(),
        silenced: None,
        multi_pv: 1,
    }));
    let sink = Arc::clone(&shared);
    let engine = EngineThread::spawn(move |event| {
        sink.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .event(event)
    });
    let mut session = Session {
        shared,
        engine,
        game: Game::new(),
        banned: Vec::new(),
        millis: false,
        infinite: false,
        pondering: None,
        next_id: 0,
        options,
        tablebases: true,
    };
    for line in input.lines() {
        let line = match line {
            Ok(l) => l,
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                session.say("info string input is not UTF-8: line ignored");
                continue;
            }
            Err(e) => return Err(e),
        };
        if let Flow::Quit = session.handle(&line) {
            session.engine.shutdown();
            session.engine.wait_idle();
            return Ok(());
        }
    }
    if session.infinite {
        session.engine.stop();
    }
    session.engine.wait_idle();
    Ok(())
}

impl<W: Write + Send + 'static> Session<W> {
    fn shared(&self) -> std::sync::MutexGuard<'_, Shared<W>> {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn say(&self, text: &str) {
        self.shared().line(text);
    }

    fn error(&self, text: &str) {
        self.say(&format!("info string {text}"));
    }

    fn dialect(&self) -> Dialect {
        self.shared().dialect
    }

    fn handle(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = tokens.split_first() else {
            return Flow::Continue;
        };
        match command {
            "uci" | "ucci" => {
                let dialect = if command == "uci" {
                    Dialect::Uci
                } else {
                    Dialect::Ucci
                };
                let mut shared = self.shared();
                shared.dialect = dialect;
                let max_hash_mb = self.options.max_hash_mb;
                let lines = match dialect {
                    Dialect::Uci => uci::hello(max_hash_mb),
                    Dialect::Ucci => ucci::hello(max_hash_mb),
                };
                for l in lines {
                    shared.line(&l);
                }
            }
            "isready" => {
                // Otherwise the worker says `readyok` once the settings are applied.
                if self.engine.ready() {
                    self.say("readyok");
                }
            }
            "ucinewgame" => self.new_game(),
            "position" => {
                let (game, err) = parse_position(args);
                if let Some(g) = game {
                    self.game = g;
                    self.banned.clear();
                }
                if let Some(e) = err {
                    self.error(&e);
                }
            }
            "banmoves" => match parse_moves(args, self.game.position()) {
                Ok(moves) => self.banned = moves,
                Err(e) => self.error(&e),
            },
            "go" => self.go(args),
            "stop" => {
                // A ponder search stopped answers with its best move, as UCI asks.
                self.pondering = None;
                self.infinite = false;
                self.engine.stop();
            }
            "ponderhit" => self.ponder_hit(args),
            "setoption" => {
                let parsed = match self.dialect() {
                    Dialect::Uci => uci::parse_setoption(args),
                    Dialect::Ucci => ucci::parse_setoption(args),
                };
                match parsed {
                    Ok((name, value)) => self.set_option(&name, &value),
                    Err(e) => self.error(&e),
                }
            }
            "probe" => {
                let (game, err) = if args.is_empty() {
                    (Some(self.game.clone()), None)
                } else {
                    parse_position(args)
                };
                if let Some(e) = err {
                    self.error(&e);
                }
                if let Some(g) = game {
                    let tables =
                        crate::session::xiangqi::tablebase::shared().filter(|_| self.tablebases);
                    for line in ucci::probe_lines(&g, tables.as_deref()) {
                        self.say(&line);
                    }
                }
            }
            "d" => {
                let text = format!(
                    "{}\nFen: {}",
                    self.game.position(),
                    self.game.position().to_fen()
                );
                for l in text.lines() {
                    self.say(l);
                }
            }
            "debug" => {}
            "quit" => return Flow::Quit,
            "bye" => {
                self.engine.shutdown();
                self.engine.wait_idle();
                self.say("bye");
                return Flow::Quit;
            }
            _ => self.error(&format!("unknown command: {}", line.trim())),
        }
        Flow::Continue
    }

    fn new_game(&mut self) {
        self.engine.send(Job::Configure(Setting::NewGame));
        self.game = Game::new();
        self.banned.clear();
    }

    fn go(&mut self, args: &[&str]) {
        let parsed = match self.dialect() {
            Dialect::Uci => uci::parse_go(args, &self.game),
            Dialect::Ucci => ucci::parse_go(args, self.millis),
        };
        let go = match parsed {
            Ok(go) => go,
            Err(e) => return self.error(&e),
        };
        // What runs stops and answers first; the worker then takes this job.
        // Waiting for it here would leave `stop`, `isready` and `quit` unread.
        self.engine.stop();
        self.pondering = None;
        if let Some(depth) = go.perft {
            self.infinite = false;
            self.engine.send(Job::Perft {
                position: Box::new(self.game.position().clone()),
                depth,
            });
            return;
        }
        let mut limits = go.limits;
        limits.ban_moves.extend(self.banned.iter().copied());
        if let Some(tables) = crate::session::xiangqi::tablebase::shared()
            && self.tablebases
            && let Some(text) =
                crate::session::xiangqi::tablebase::info_string(&tables, self.game.position())
        {
            self.say(&format!("info string {text}"));
        }
        if go.ponder {
            // Think without a clock (and hold the answer) until the opponent
            // plays the expected move (`ponderhit`) or another (`stop`).
            self.pondering = Some(limits.clone());
            limits.infinite = true;
        }
        self.search(limits, go.draw_offer);
    }

    /// Sends a search; `draw_offer` says whether its answer judges a draw offer.
    fn search(&mut self, limits: Limits, draw_offer: bool) {
        self.infinite = limits.infinite;
        let hold = self.infinite;
        self.next_id += 1;
        if draw_offer {
            let id = self.next_id;
            self.shared().draw_offers.push(id);
        }
        self.engine.send(Job::Search(Box::new(SearchJob {
            id: self.next_id,
            game: self.game.clone(),
            limits,
            hold,
            started: Instant::now(),
        })));
    }

    /// The opponent played the move we pondered on: the ponder search ends
    /// without an answer, and a search of the same position with the real
    /// limits starts, its clock running from now. The hash table keeps what
    /// the ponder search learned, so the new search reaches its depth at once.
    fn ponder_hit(&mut self, args: &[&str]) {
        let Some(limits) = self.pondering.take() else {
            return self.error("ponderhit without a running go ponder: ignored");
        };
        let draw_offer = {
            let mut shared = self.shared();
            shared.silenced = Some(self.next_id);
            // UCCI `ponderhit draw`, or a draw offered with `go ponder draw`.
            args.first() == Some(&"draw") || shared.draw_offers.contains(&self.next_id)
        };
        // The worker finishes the ponder search before it starts this one.
        self.engine.stop();
        self.search(limits, draw_offer);
    }

    fn set_option(&mut self, name: &str, value: &str) {
        let flag = |v: &str| match v.to_ascii_lowercase().as_str() {
            "true" | "on" | "1" => Ok(true),
            "false" | "off" | "0" => Ok(false),
            _ => Err(format!("option {name} takes true or false, not {v:?}")),
        };
        let amount = |v: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("option {name} takes a whole number, not {v:?}"))
        };
        let result = match name.to_ascii_lowercase().as_str() {
            "hash" | "hashsize" => amount(value).and_then(|mb| {
                let max = self.options.max_hash_mb;
                match usize::try_from(mb) {
                    Ok(mb) if (1..=max).contains(&mb) => {
                        self.engine.send(Job::Configure(Setting::Hash(mb)));
                        Ok(())
                    }
                    _ => Err(format!(
                        "option {name} takes 1 to {max} MB, not {mb}: the hash table stays as it is"
                    )),
                }
            }),
            "threads" => amount(value).and_then(|n| match usize::try_from(n) {
                Ok(threads) if (1..=MAX_THREADS).contains(&threads) => {
                    self.engine.send(Job::Configure(Setting::Threads(threads)));
                    Ok(())
                }
                _ => Err(format!(
                    "option {name} takes 1 to {MAX_THREADS}, not {n}: the thread count stays as it is"
                )),
            }),
            "multipv" => amount(value).map(|n| {
                let lines = usize::try_from(n)
                    .unwrap_or(usize::MAX)
                    .clamp(1, MAX_MULTI_PV);
                if u64::try_from(lines) != Ok(n) {
                    self.error(&format!(
                        "option {name} takes 1 to {MAX_MULTI_PV}, not {n}: using {lines}"
                    ));
                }
                self.shared().multi_pv = lines;
                self.engine.send(Job::Configure(Setting::MultiPv(lines)));
            }),
            "skill level" => amount(value).map(|n| {
                let level = n.min(MAX_SKILL as u64) as u8;
                self.engine.send(Job::Configure(Setting::Skill(level)));
            }),
            "ownbook" | "usebook" => flag(value).map(|on| {
                self.engine.send(Job::Configure(Setting::OwnBook(on)));
            }),
            "usetablebases" => flag(value).map(|on| {
                self.tablebases = on;
                self.engine.send(Job::Configure(Setting::Tablebases(on)));
            }),
            "usemillisec" => flag(value).map(|on| self.millis = on),
            "clear hash" | "newgame" => {
                self.new_game();
                Ok(())
            }
            // Options GUIs send that change nothing here.
            "ponder" | "batch" | "debug" | "idle" | "promotion" | "knowledge" | "pruning"
            | "randomness" | "style" | "uci_chess960" => Ok(()),
            _ => Err(format!("unknown option {name:?}")),
        };
        if let Err(e) = result {
            self.error(&e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions() {
        let (g, e) = parse_position(&["startpos", "moves", "h2e2", "h9g7"]);
        assert_eq!(e, None);
        assert_eq!(g.unwrap().plies().len(), 2);
        let (g, e) = parse_position(&["startpos", "moves", "h2e2", "h2e2", "h9g7"]);
        assert_eq!(g.unwrap().plies().len(), 1);
        assert!(e.unwrap().contains("illegal move \"h2e2\""));
        let (g, e) = parse_position(&["fen", "3k5/9/9/9/9/9/9/9/9/4K4", "w", "-", "-", "0", "1"]);
        assert_eq!(e, None);
        assert_eq!(
            g.unwrap().position().count(xiangqi::Piece::new(
                xiangqi::Color::Red,
                xiangqi::Role::General
            )),
            1
        );
        let (g, e) = parse_position(&["fen", "rubbish"]);
        assert!(g.is_none());
        assert!(e.unwrap().starts_with("bad FEN"));
        let (g, e) = parse_position(&[]);
        assert!(g.is_none() && e.is_some());
    }
}
