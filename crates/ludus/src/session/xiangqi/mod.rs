//! One Xiangqi game's flow, the same for the terminal and the browser: the
//! game and its opponent, clocks, take-backs, hints, resignation and draw
//! offers, the engine's evaluations, the result and when it is final, and the
//! saved record (which brings back the opponent, the strength and the clocks).
//!
//! The session never runs the engine itself: it says what to search, or to
//! stop, as [`EngineOrder`]s that the front end carries out, and it takes the
//! engine's answers through [`XiangqiSession::search_info`] and
//! [`XiangqiSession::search_done`]. Time is passed in, never read here.

pub mod analysis;
pub mod database;
pub mod flow;
pub mod tablebase;
pub mod watch;

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use xiangqi::engine::{Limits, Score, SearchInfo, SearchResult};
use xiangqi::pgn::PgnGame;
use xiangqi::{Color, Game, Move, Outcome, Position};

use crate::store::DataDir;
pub use crate::store::xiangqi::{SavedGame, list_games as saved_games};
pub use analysis::{ANALYSIS_LINES, Analysis, LineView};
use flow::{Clocks, LEVELS, Purpose, side_name};
pub use watch::Seat;

/// Engines without clocks move at most this often, so a game between them
/// can be followed (clocks pace them by themselves).
pub const WATCH_PACE: Duration = Duration::from_millis(700);

/// An engine's move waiting for its time to be shown.
#[derive(Clone, Debug)]
struct Held {
    best: Move,
    book: bool,
    score: Score,
    text: String,
    due: Instant,
}

/// Longest player name kept from a record (names are shown on one line).
pub const MAX_NAME_CHARS: usize = 80;
/// Longest result text kept from a record (`1/2-1/2` is seven).
pub const MAX_RESULT_CHARS: usize = 16;

/// Who plays against whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The human plays `human`; Ludus plays the other side at `level`
    /// (an index into [`LEVELS`]).
    Engine { human: Color, level: usize },
    /// Two players on one screen.
    Humans,
    /// Two engines play each other (their seats: [`XiangqiSession::seat`]).
    Engines,
}

impl Opponent {
    /// The engine's side and level, if it plays.
    pub fn engine(self) -> Option<(Color, usize)> {
        match self {
            Opponent::Engine { human, level } => Some((!human, level)),
            Opponent::Humans | Opponent::Engines => None,
        }
    }
}

/// A finished game: the ending in words and the PGN result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Over {
    pub text: String,
    pub result: &'static str,
}

/// A search the engine is running for this game.
#[derive(Clone, Debug)]
pub struct Thinking {
    pub id: u64,
    pub purpose: Purpose,
    /// The position searched (the line is written from it).
    pub root: Position,
    /// The latest completed iteration.
    pub info: Option<SearchInfo>,
}

/// What the front end's engine worker must do next.
#[derive(Clone, Debug)]
pub enum EngineOrder {
    /// Start this search (stopping any other of this game first).
    Search(Box<SearchOrder>),
    /// Stop the running search; its answer is no longer wanted.
    Cancel,
    /// Stop the running search and deliver what it found (the engine's move now).
    Hurry,
}

/// One search to run.
#[derive(Clone, Debug)]
pub struct SearchOrder {
    pub id: u64,
    pub purpose: Purpose,
    pub game: Game,
    pub skill: u8,
    /// Lines to report (UCI `MultiPV`): more than one only for analysis.
    pub lines: usize,
    pub limits: Limits,
    /// In a game between engines, the side whose seat searches (each seat
    /// has its own worker); `None`: the game's one engine.
    pub seat: Option<(Color, Seat)>,
}

impl SearchOrder {
    /// Sends the search to `worker`, with the skill it is to play at and the
    /// lines it is to report.
    pub fn send_to(self, worker: &dyn crate::external_engine::EngineWorker) {
        use crate::engine_worker::{Job, SearchJob, Setting};
        worker.send(Job::Configure(Setting::Skill(self.skill)));
        worker.send(Job::Configure(Setting::MultiPv(self.lines)));
        worker.send(Job::Search(Box::new(SearchJob {
            id: self.id,
            game: self.game,
            limits: self.limits,
            hold: false,
            started: Instant::now(),
        })));
    }
}

/// What a finished search changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A hint for the human: the move in Chinese notation and the score in words.
    Hint {
        best: Move,
        text: String,
        score: String,
        book: bool,
    },
    /// Ludus played `text`.
    Moved { best: Move, text: String },
}

/// How a draw offer went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawAnswer {
    Accepted,
    /// Ludus thinks it is not worse.
    Declined,
    /// Two players: the other side must answer ([`XiangqiSession::answer_draw`]).
    Offered(Color),
}

/// Why a command was refused, one message each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The game has ended (its ending in words).
    Over(String),
    /// It is Ludus's move.
    EngineToMove,
    /// Ludus is already searching.
    Thinking,
    /// The move cannot be read or is not legal (why).
    Illegal(String),
    NothingToUndo,
    /// No draw was offered.
    NoOffer,
    /// Analysis would help the player against Ludus.
    AnalysisAgainstLudus,
    /// The board shows an earlier position of the game.
    LookingBack,
    /// Engines are playing this game.
    Watching,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Over(text) => {
                write!(f, "the game is over ({text}): undo or start a new one")
            }
            Refusal::EngineToMove => write!(f, "Ludus is to move; wait for it"),
            Refusal::Thinking => write!(f, "Ludus is already thinking"),
            Refusal::Illegal(why) => write!(f, "{why}"),
            Refusal::NothingToUndo => write!(f, "nothing to undo"),
            Refusal::NoOffer => write!(f, "no draw was offered"),
            Refusal::AnalysisAgainstLudus => write!(
                f,
                "Ludus is your opponent: analysis opens when the game is over"
            ),
            Refusal::Watching => write!(
                f,
                "the engines are playing: pause them to step through or take back moves"
            ),
            Refusal::LookingBack => write!(
                f,
                "you are looking at an earlier position: go to the last move to play"
            ),
        }
    }
}

impl std::error::Error for Refusal {}

/// One Xiangqi game and everything about it that a front end must not decide.
#[derive(Debug)]
pub struct XiangqiSession {
    game: Game,
    opponent: Opponent,
    /// Player names (Red, Black) for the record.
    names: [String; 2],
    title: Option<String>,
    over: Option<Over>,
    /// The result of a loaded record that the rules alone do not give.
    recorded: Option<String>,
    saved_as: Option<PathBuf>,
    /// The engine's evaluation (Red's view) of the position after n plies.
    evals: Vec<Option<i32>>,
    /// Whether move n + 1 came from Ludus's opening book (no search, no score).
    book: Vec<bool>,
    /// The engine's last score of its own moves (its view), for draw offers.
    engine_score: Option<Score>,
    clocks: Option<Clocks>,
    thinking: Option<Thinking>,
    next_id: u64,
    /// Two players: the side that offered a draw, waiting for an answer.
    draw_offer: Option<Color>,
    /// The board shows the position after this many plies, not the last one.
    view: Option<usize>,
    /// The engine's lines for the position shown, while analysis is on.
    analysis: Option<Analysis>,
    /// Who plays each side (Red, Black) of a game between engines.
    seats: Option<[Seat; 2]>,
    /// A game between engines is paused: nobody searches, the clocks stop.
    watch_paused: bool,
    /// Paused again after the next move (stepping a game between engines).
    step_once: bool,
    /// When the last move between engines was shown, to pace the next.
    last_watched_move: Option<Instant>,
    /// An engine's move held back until its time comes (see [`WATCH_PACE`]).
    held: Option<Held>,
    /// The last hint, until the position changes.
    hint: Option<Move>,
    orders: Vec<EngineOrder>,
    /// Changed since it was opened or last saved.
    unsaved: bool,
    /// Endgame tables, for the verdict beside the evaluation.
    tablebases: Option<std::sync::Arc<xiangqi::tablebase::Tablebases>>,
}

impl XiangqiSession {
    /// A game from `game`'s position; Ludus starts thinking (see
    /// [`XiangqiSession::take_orders`]) if it is its move.
    pub fn new(game: Game, opponent: Opponent, clocks: Option<Clocks>) -> XiangqiSession {
        let opponent = match opponent {
            Opponent::Engine { human, level } => Opponent::Engine {
                human,
                level: level.min(LEVELS.len() - 1),
            },
            other => other,
        };
        let mut session = XiangqiSession {
            game,
            opponent,
            names: flow::player_names(match opponent {
                Opponent::Engine { human, level } => Some((human, level)),
                Opponent::Humans | Opponent::Engines => None,
            }),
            title: None,
            over: None,
            recorded: None,
            saved_as: None,
            evals: Vec::new(),
            book: Vec::new(),
            engine_score: None,
            clocks,
            thinking: None,
            next_id: 0,
            draw_offer: None,
            view: None,
            analysis: None,
            seats: None,
            watch_paused: false,
            step_once: false,
            last_watched_move: None,
            held: None,
            hint: None,
            orders: Vec::new(),
            unsaved: false,
            tablebases: tablebase::shared(),
        };
        session.after_change();
        session
    }

    /// Two engines play on from `game`'s position: `seats` are Red's and
    /// Black's. The side to move starts thinking at once (see
    /// [`XiangqiSession::take_orders`]), unless `paused`.
    pub fn watch(
        game: Game,
        seats: [Seat; 2],
        clocks: Option<Clocks>,
        paused: bool,
    ) -> XiangqiSession {
        let mut session = XiangqiSession::new(game, Opponent::Humans, clocks);
        session.names = [seats[0].name(), seats[1].name()];
        session.opponent = Opponent::Engines;
        session.seats = Some(seats);
        session.watch_paused = paused;
        session.after_change();
        session
    }

    /// A saved game (see [`saved_games`]) continued where it was left.
    ///
    /// # Errors
    /// The file could not be read as a record: the message names it and says why.
    pub fn from_saved(saved: &SavedGame) -> Result<XiangqiSession, String> {
        match &saved.record {
            Ok(record) => Ok(XiangqiSession::from_record(
                record,
                saved.name.clone(),
                Some(saved.path.clone()),
            )),
            Err(e) => Err(format!("{} cannot be read: {e}", saved.name)),
        }
    }

    /// A game from a record, to continue or step through. A game saved
    /// against Ludus continues against Ludus, at the same strength and side,
    /// with the clocks as they were saved; `saved_as` is where a save goes.
    pub fn from_record(pgn: &PgnGame, title: String, saved_as: Option<PathBuf>) -> XiangqiSession {
        let names = [pgn.tag("Red"), pgn.tag("Black")].map(|n| n.map(capped_name));
        let opponent = opponent_from_names(&names);
        let clocks = clocks_from_record(pgn);
        let mut session = XiangqiSession::new(pgn.to_game(), opponent, clocks);
        for (kept, name) in session.names.iter_mut().zip(names) {
            if let Some(name) = name {
                *kept = name;
            }
        }
        if pgn.result != "*" && session.over.is_none() {
            session.recorded = Some(pgn.result.chars().take(MAX_RESULT_CHARS).collect());
            // A finished record is not played on by Ludus.
            session.cancel_search();
        }
        session.title = Some(title);
        session.saved_as = saved_as;
        session
    }

    /// A game from a record read as an import (no file behind it).
    pub fn imported(pgn: &PgnGame, opponent: Opponent) -> XiangqiSession {
        let title = pgn
            .tag("Event")
            .map_or("Imported game".to_string(), capped_name);
        let mut session = XiangqiSession::from_record(pgn, title, None);
        if session.opponent != opponent {
            // The importer chose the opponent: that choice wins over the names.
            let names = session.names.clone();
            let mut fresh = XiangqiSession::new(session.game.clone(), opponent, None);
            if opponent == Opponent::Humans {
                fresh.names = names;
            }
            fresh.recorded = session.recorded.take();
            fresh.title = session.title.take();
            if fresh.recorded.is_some() {
                fresh.cancel_search();
            }
            session = fresh;
        }
        session
    }

    /// Uses these endgame tables (or none) for [`XiangqiSession::tablebase`].
    pub fn set_tablebases(
        &mut self,
        tables: Option<std::sync::Arc<xiangqi::tablebase::Tablebases>>,
    ) {
        self.tablebases = tables;
    }

    /// What the endgame tables say about the position shown: "Tablebase:
    /// Red wins in 7", "Tablebase: draw"; `None` if no table covers it.
    pub fn tablebase(&self) -> Option<String> {
        tablebase::label(self.tablebases.as_deref()?, &self.shown().0)
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn position(&self) -> &Position {
        self.game.position()
    }

    pub fn opponent(&self) -> Opponent {
        self.opponent
    }

    pub fn names(&self) -> &[String; 2] {
        &self.names
    }

    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    pub fn set_title(&mut self, title: String) {
        self.title = Some(title);
    }

    pub fn over(&self) -> Option<&Over> {
        self.over.as_ref()
    }

    pub fn recorded(&self) -> Option<&str> {
        self.recorded.as_deref()
    }

    pub fn saved_as(&self) -> Option<&Path> {
        self.saved_as.as_deref()
    }

    pub fn evals(&self) -> &[Option<i32>] {
        &self.evals
    }

    /// Whether move `index` (0-based) came from the opening book.
    pub fn from_book(&self, index: usize) -> bool {
        self.book.get(index).copied().unwrap_or(false)
    }

    pub fn clocks(&self) -> Option<&Clocks> {
        self.clocks.as_ref()
    }

    pub fn thinking(&self) -> Option<&Thinking> {
        self.thinking.as_ref()
    }

    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }

    pub fn hint(&self) -> Option<Move> {
        self.hint
    }

    /// The side Ludus plays, if it plays.
    pub fn engine_color(&self) -> Option<Color> {
        self.opponent.engine().map(|(c, _)| c)
    }

    pub fn engine_to_move(&self) -> bool {
        self.opponent == Opponent::Engines
            || self.engine_color() == Some(self.game.position().turn())
    }

    /// Who plays `side` in a game between engines.
    pub fn seat(&self, side: Color) -> Option<&Seat> {
        self.seats.as_ref().map(|s| &s[side.index()])
    }

    /// Whether a game between engines is paused.
    pub fn watch_paused(&self) -> bool {
        self.watch_paused
    }

    /// Pauses a game between engines (the search stops, the clocks stop)
    /// or lets it go on.
    pub fn pause_watch(&mut self, paused: bool, now: Instant) {
        if self.opponent != Opponent::Engines || self.watch_paused == paused {
            return;
        }
        self.step_once = false;
        if paused {
            self.tick(now);
            self.watch_paused = true;
            self.cancel_search();
            self.stop_clocks();
        } else {
            self.watch_paused = false;
            self.show(usize::MAX);
            self.tick(now);
            self.after_change();
        }
    }

    /// A paused game between engines: the side to move plays one move, and
    /// the game is paused again.
    pub fn step_watch(&mut self, now: Instant) {
        if self.opponent != Opponent::Engines || !self.watch_paused || self.over.is_some() {
            return;
        }
        self.pause_watch(false, now);
        self.step_once = true;
    }

    /// The engine of search `id` failed (it crashed, went silent, or
    /// answered nonsense). In a game between engines its side loses; else
    /// the search is dropped. Returns what to tell the player.
    pub fn search_failed(&mut self, id: u64, message: &str) -> Option<String> {
        self.thinking.take_if(|t| t.id == id)?;
        if self.opponent == Opponent::Engines && self.over.is_none() {
            let side = self.game.position().turn();
            let name = self.names[side.index()].clone();
            self.finish(
                format!("{name} failed ({message}): {} wins", side_name(!side)),
                Outcome::Win(!side),
            );
            return self.over.as_ref().map(|o| o.text.clone());
        }
        Some(format!("The engine failed: {message}"))
    }

    /// The result a record gets: the ending, else the loaded record's, else `*`.
    pub fn result_for_record(&self) -> &str {
        self.over
            .as_ref()
            .map(|o| o.result)
            .or(self.recorded.as_deref())
            .unwrap_or("*")
    }

    /// Whether leaving now would lose moves: some were played or taken back
    /// since the game was opened or last saved.
    pub fn has_unsaved_moves(&self) -> bool {
        self.unsaved && !self.game.plies().is_empty()
    }

    /// What the engine worker must do, in order, since the last call.
    pub fn take_orders(&mut self) -> Vec<EngineOrder> {
        std::mem::take(&mut self.orders)
    }

    /// A move by the human (or either player of two), in any notation the
    /// crate reads.
    ///
    /// # Errors
    /// The game is over, it is Ludus's move, or the move is not legal.
    pub fn play_text(&mut self, text: &str, now: Instant) -> Result<Move, Refusal> {
        self.tick(now);
        self.may_move()?;
        let m = self
            .game
            .position()
            .parse_move(text.trim())
            .map_err(|e| Refusal::Illegal(e.to_string()))?;
        self.play(m, now)?;
        Ok(m)
    }

    /// A move by the human (or either player of two).
    ///
    /// # Errors
    /// The game is over, it is Ludus's move, or the move is not legal.
    pub fn play(&mut self, m: Move, now: Instant) -> Result<(), Refusal> {
        self.tick(now);
        self.may_move()?;
        if !self.game.position().is_legal(m) {
            return Err(Refusal::Illegal(format!(
                "{} is not a legal move here",
                m.to_iccs()
            )));
        }
        // A hint nobody waits for any more.
        self.cancel_search();
        self.make_move(m, false);
        Ok(())
    }

    /// Whether the human (or either of two players) may move now.
    fn may_move(&self) -> Result<(), Refusal> {
        if let Some(o) = &self.over {
            return Err(Refusal::Over(o.text.clone()));
        }
        if self.opponent == Opponent::Engines {
            return Err(Refusal::Watching);
        }
        if self.view.is_some() {
            return Err(Refusal::LookingBack);
        }
        if self.engine_to_move() && self.analysis.is_none() {
            return Err(Refusal::EngineToMove);
        }
        Ok(())
    }

    /// The board shows the position after this many plies; `None`: the last.
    pub fn view(&self) -> Option<usize> {
        self.view
    }

    /// Plies played up to the position shown.
    pub fn shown_plies(&self) -> usize {
        self.view.unwrap_or(self.game.plies().len())
    }

    /// The position shown and the move that led to it.
    pub fn shown(&self) -> (Position, Option<Move>) {
        match self.view {
            None => (self.game.position().clone(), self.game.last_move()),
            Some(n) => {
                let mut pos = self.game.start_position().clone();
                let mut last = None;
                for m in self.game.moves().take(n) {
                    pos.make_move(m);
                    last = Some(m);
                }
                (pos, last)
            }
        }
    }

    /// The game up to the position shown (its history decides repetitions).
    pub fn shown_game(&self) -> Game {
        let mut game = self.game.clone();
        for _ in self.shown_plies()..self.game.plies().len() {
            game.undo();
        }
        game
    }

    /// Shows the position after `plies` plies (the last one when `plies` is
    /// the game's length or more). Looking back stops the clocks; the
    /// analysis follows the position shown.
    pub fn show(&mut self, plies: usize) {
        let view = (plies < self.game.plies().len()).then_some(plies);
        if view == self.view {
            return;
        }
        self.view = view;
        if view.is_some() {
            self.stop_clocks();
        }
        self.analyse();
    }

    /// One ply forward or back through the game.
    pub fn step(&mut self, forward: bool) {
        let at = self.shown_plies();
        self.show(if forward {
            at + 1
        } else {
            at.saturating_sub(1)
        });
    }

    /// The engine's lines for the position shown, while analysis is on.
    pub fn analysis(&self) -> Option<&Analysis> {
        self.analysis.as_ref()
    }

    /// The analysis lines written for a screen (none when analysis is off).
    pub fn analysis_lines(
        &self,
        notation: flow::Notation,
        chars: flow::Characters,
        max_moves: usize,
    ) -> Vec<LineView> {
        self.analysis
            .as_ref()
            .map_or_else(Vec::new, |a| a.views(notation, chars, max_moves))
    }

    /// Analysis on: the engine searches the position shown without moving,
    /// until stopped, reporting [`ANALYSIS_LINES`] lines; while it is on,
    /// Ludus plays no moves of its own and the player moves either side.
    ///
    /// # Errors
    /// Ludus is the player's opponent in a game still going on.
    pub fn start_analysis(&mut self) -> Result<(), Refusal> {
        if self.opponent == Opponent::Engines && self.over.is_none() {
            return Err(Refusal::Watching);
        }
        if self.opponent != Opponent::Humans && self.over.is_none() && self.recorded.is_none() {
            return Err(Refusal::AnalysisAgainstLudus);
        }
        if self.analysis.is_none() {
            self.cancel_search();
            let (root, _) = self.shown();
            self.analysis = Some(Analysis::new(self.shown_plies(), root));
            self.analyse();
        }
        Ok(())
    }

    /// Analysis off: the search stops and the lines go.
    pub fn stop_analysis(&mut self) {
        if self.analysis.take().is_some() {
            self.cancel_search();
            self.after_change();
        }
    }

    /// Stops the analysis's search, keeping its lines (`paused`), or goes on.
    pub fn pause_analysis(&mut self, paused: bool) {
        let Some(a) = &mut self.analysis else { return };
        if a.paused == paused {
            return;
        }
        a.paused = paused;
        if paused {
            self.cancel_search();
        } else {
            self.analyse();
        }
    }

    /// (Re)starts the analysis's search on the position shown, unless it is
    /// paused or already searching that position.
    fn analyse(&mut self) {
        let ply = self.shown_plies();
        if self.analysis.as_ref().is_none_or(|a| a.paused) {
            return;
        }
        let (root, _) = self.shown();
        let searching = self
            .thinking
            .as_ref()
            .is_some_and(|t| t.purpose == Purpose::Analysis);
        let Some(a) = &mut self.analysis else { return };
        if a.ply != ply || a.root != root {
            *a = Analysis::new(ply, root);
        } else if searching {
            return;
        } else {
            a.restarted();
        }
        self.cancel_search();
        if self.over.is_some()
            && self.view.is_none()
            && self.game.position().legal_moves().is_empty()
        {
            return; // mate or stalemate on the board: nothing to search
        }
        self.search(Purpose::Analysis);
    }

    /// Takes back the last move, and against Ludus its reply too, so the human
    /// is to move again; the clocks show what they showed then. Returns how
    /// many plies went.
    ///
    /// # Errors
    /// No move has been played.
    pub fn undo(&mut self) -> Result<usize, Refusal> {
        if self.game.plies().is_empty() {
            return Err(Refusal::NothingToUndo);
        }
        if self.opponent == Opponent::Engines && !self.watch_paused && self.over.is_none() {
            return Err(Refusal::Watching);
        }
        self.cancel_search();
        self.over = None;
        self.recorded = None;
        // Taking back returns to the game from any earlier position shown.
        self.view = None;
        // While analysing, the player moves both sides: one ply goes.
        let engine = self.engine_color().filter(|_| self.analysis.is_none());
        let removed = flow::take_back(&mut self.game, engine);
        self.unsaved = true;
        if let Some(c) = &mut self.clocks {
            c.take_back(removed);
        }
        self.after_change();
        Ok(removed)
    }

    /// Asks Ludus for a hint at full strength.
    ///
    /// # Errors
    /// The game is over, or Ludus is thinking already.
    pub fn ask_hint(&mut self) -> Result<(), Refusal> {
        if let Some(o) = &self.over {
            return Err(Refusal::Over(o.text.clone()));
        }
        if self.engine_to_move() || self.thinking.is_some() {
            return Err(Refusal::Thinking);
        }
        self.search(Purpose::Hint);
        Ok(())
    }

    /// Ludus plays the best move it has found so far; a hint search is dropped.
    pub fn hurry(&mut self) {
        match &self.thinking {
            Some(t) if t.purpose == Purpose::Move => self.orders.push(EngineOrder::Hurry),
            Some(_) => self.cancel_search(),
            None => {}
        }
    }

    /// The human resigns (against Ludus), or the side to move (two players).
    ///
    /// # Errors
    /// The game is over already.
    pub fn resign(&mut self) -> Result<(), Refusal> {
        if let Some(o) = &self.over {
            return Err(Refusal::Over(o.text.clone()));
        }
        let loser = match self.opponent {
            Opponent::Engine { human, .. } => human,
            Opponent::Humans => self.game.position().turn(),
            Opponent::Engines => return Err(Refusal::Watching),
        };
        self.finish(
            format!("{} resigns: {} wins", side_name(loser), side_name(!loser)),
            Outcome::Win(!loser),
        );
        Ok(())
    }

    /// A draw offer by the side to move: Ludus accepts only when it thinks it
    /// is worse; a second player must answer.
    ///
    /// # Errors
    /// The game is over already.
    pub fn offer_draw(&mut self) -> Result<DrawAnswer, Refusal> {
        if let Some(o) = &self.over {
            return Err(Refusal::Over(o.text.clone()));
        }
        match self.opponent {
            Opponent::Engine { .. } if flow::engine_accepts_draw(self.engine_score) => {
                self.finish("Draw agreed: Ludus accepts".to_string(), Outcome::Draw);
                Ok(DrawAnswer::Accepted)
            }
            Opponent::Engine { .. } => Ok(DrawAnswer::Declined),
            Opponent::Humans => {
                let side = self.game.position().turn();
                self.draw_offer = Some(side);
                Ok(DrawAnswer::Offered(side))
            }
            Opponent::Engines => Err(Refusal::Watching),
        }
    }

    /// The other player answers a draw offer.
    ///
    /// # Errors
    /// No draw was offered.
    pub fn answer_draw(&mut self, accept: bool) -> Result<(), Refusal> {
        if self.draw_offer.take().is_none() {
            return Err(Refusal::NoOffer);
        }
        if accept {
            self.finish("Draw agreed".to_string(), Outcome::Draw);
        }
        Ok(())
    }

    /// Time passes: charges the side to move's clock up to `now`. Returns
    /// whether its flag just fell (the game is then over).
    pub fn tick(&mut self, now: Instant) -> bool {
        if self.view.is_some() || self.watch_paused {
            // Looking back through the moves, or a paused game between
            // engines, stops the clocks.
            self.stop_clocks();
            return false;
        }
        let turn = self.game.position().turn();
        let live = self.over.is_none();
        let Some(c) = &mut self.clocks else {
            return false;
        };
        if !live {
            c.stop();
            return false;
        }
        if !c.run(turn, now) {
            return false;
        }
        self.finish(flow::out_of_time(turn), Outcome::Win(!turn));
        true
    }

    /// Nobody is looking (the page closed, the player steps through the
    /// game): the clocks stop and a search is dropped. [`XiangqiSession::resume`]
    /// goes on.
    pub fn pause(&mut self) {
        self.cancel_search();
        if let Some(c) = &mut self.clocks {
            c.stop();
        }
    }

    /// The clocks stop until the next [`XiangqiSession::tick`] (the player
    /// looks back through the moves); the engine goes on.
    pub fn stop_clocks(&mut self) {
        if let Some(c) = &mut self.clocks {
            c.stop();
        }
    }

    /// Someone is looking again: the clocks run, and Ludus thinks if it is
    /// its move.
    pub fn resume(&mut self, now: Instant) {
        self.tick(now);
        self.after_change();
    }

    /// A completed iteration of search `id`.
    pub fn search_info(&mut self, id: u64, info: SearchInfo) {
        let Some(t) = self.thinking.as_mut().filter(|t| t.id == id) else {
            return;
        };
        if t.purpose == Purpose::Analysis
            && let Some(a) = &mut self.analysis
        {
            if info.multipv <= 1 {
                let value = flow::red_value(info.score, a.root.turn());
                let ply = a.ply;
                t.info = Some(info.clone());
                a.report(info);
                self.set_eval(ply, value);
            } else {
                a.report(info);
            }
            return;
        }
        if info.multipv <= 1 {
            t.info = Some(info);
        }
    }

    /// Search `id` ended: Ludus plays its move, or the hint is ready. Answers
    /// of searches no longer wanted (cancelled, undone) change nothing.
    pub fn search_done(&mut self, id: u64, result: SearchResult, now: Instant) -> Option<Answer> {
        let thinking = self.thinking.take_if(|t| t.id == id)?;
        let root = thinking.root;
        if thinking.purpose == Purpose::Analysis {
            if let Some(a) = &mut self.analysis {
                a.finished = true;
                if result.depth > 0 {
                    let (ply, value) = (a.ply, flow::red_value(result.score, root.turn()));
                    self.set_eval(ply, value);
                }
            }
            return None;
        }
        let ply = self.game.plies().len();
        let book = result.from_book && result.depth == 0;
        if !book {
            self.set_eval(ply, flow::red_value(result.score, root.turn()));
        }
        let Some(best) = result.best else {
            self.no_move_given(thinking.purpose);
            return None;
        };
        let text = root.to_chinese(best);
        match thinking.purpose {
            Purpose::Analysis => None,
            Purpose::Hint => {
                self.hint = Some(best);
                Some(Answer::Hint {
                    best,
                    text,
                    score: flow::score_text(result.score, root.turn()),
                    book,
                })
            }
            Purpose::Move => {
                if self.tick(now) || self.over.is_some() || !self.engine_to_move() {
                    return None;
                }
                if !self.game.position().is_legal(best) {
                    return None;
                }
                let held = Held {
                    best,
                    book,
                    score: result.score,
                    text,
                    due: self.last_watched_move.map_or(now, |t| t + WATCH_PACE),
                };
                if self.opponent == Opponent::Engines && self.clocks.is_none() && held.due > now {
                    self.held = Some(held);
                    return None;
                }
                self.play_engine_move(held, now)
            }
        }
    }

    /// An engine of a game between engines answered without a move (UCCI's
    /// `nobestmove`): a draw claim after 100 quiet plies, else it loses.
    fn no_move_given(&mut self, purpose: Purpose) {
        if self.opponent != Opponent::Engines || purpose != Purpose::Move || self.over.is_some() {
            return;
        }
        let side = self.game.position().turn();
        let name = self.names[side.index()].clone();
        if crate::protocol::r#match::draw_claim_holds(&self.game) {
            self.finish(
                format!("{name} claims a draw after 100 plies without a capture"),
                Outcome::Draw,
            );
        } else {
            self.finish(
                format!("{name} gave no move: {} wins", side_name(!side)),
                Outcome::Win(!side),
            );
        }
    }

    /// When an engine's move held back for pacing is due, if one is.
    pub fn held_until(&self) -> Option<Instant> {
        self.held.as_ref().map(|h| h.due)
    }

    /// Plays an engine's move held back for pacing once its time has come
    /// (front ends call this as time passes, as [`XiangqiSession::tick`]).
    pub fn play_held(&mut self, now: Instant) -> Option<Answer> {
        if self.held.as_ref().is_none_or(|h| h.due > now) {
            return None;
        }
        let held = self.held.take()?;
        if self.over.is_some() || !self.game.position().is_legal(held.best) {
            return None;
        }
        self.play_engine_move(held, now)
    }

    fn play_engine_move(&mut self, held: Held, now: Instant) -> Option<Answer> {
        self.engine_score = Some(held.score);
        if self.opponent == Opponent::Engines {
            self.last_watched_move = Some(now);
        }
        self.make_move(held.best, held.book);
        Some(Answer::Moved {
            best: held.best,
            text: held.text,
        })
    }

    /// Saves the record: a new file in the games folder the first time, the
    /// same file after. Returns the file's name.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn save(&mut self, data: &DataDir) -> anyhow::Result<String> {
        let text = self.record_text();
        let path = crate::store::xiangqi::save_game(data, self.saved_as.as_deref(), &text)?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        self.saved_as = Some(path);
        self.unsaved = false;
        Ok(name)
    }

    /// The ECCO opening of the game so far, for the move list's heading
    /// (computed on each call: a few microseconds).
    pub fn opening(&self) -> Option<xiangqi::ecco::Opening> {
        flow::opening(&self.game)
    }

    /// The PGN record: players, result, the clocks (so a saved game goes on
    /// with them), the ECCO opening and the moves in Chinese notation.
    pub fn record_text(&self) -> String {
        let mut tags: Vec<(&str, String)> = Vec::new();
        if let Some(c) = &self.clocks {
            tags.push((
                "TimeControl",
                format!("{}+{}", c.base().as_secs(), c.increment().as_secs()),
            ));
            for (tag, color) in [("RedClock", Color::Red), ("BlackClock", Color::Black)] {
                tags.push((tag, format!("{:.1}", c.left(color).as_secs_f64())));
            }
        }
        let tags: Vec<(&str, &str)> = tags.iter().map(|(k, v)| (*k, v.as_str())).collect();
        flow::record_text(&self.game, &self.names, self.result_for_record(), &tags)
    }

    fn set_eval(&mut self, ply: usize, value: i32) {
        if self.evals.len() <= ply {
            self.evals.resize(ply + 1, None);
        }
        self.evals[ply] = Some(value);
    }

    fn make_move(&mut self, m: Move, from_book: bool) {
        let mover = self.game.position().turn();
        let ply = self.game.plies().len();
        if self.game.play(m).is_err() {
            return; // checked legal by every caller
        }
        if let Some(c) = &mut self.clocks {
            c.moved(mover);
        }
        self.book.resize(ply, false);
        self.book.push(from_book);
        self.unsaved = true;
        if std::mem::take(&mut self.step_once) {
            self.watch_paused = true;
            self.stop_clocks();
        }
        self.after_change();
    }

    /// After a move or an undo: judge the position; Ludus thinks if it is its move.
    fn after_change(&mut self) {
        if self.view.is_some_and(|v| v >= self.game.plies().len()) {
            self.view = None;
        }
        self.evals.truncate(self.game.plies().len() + 1);
        self.book.truncate(self.game.plies().len());
        self.hint = None;
        self.draw_offer = None;
        if self.over.is_none()
            && let Some(r) = self.game.result()
        {
            self.over = Some(Over {
                text: flow::describe(&r),
                result: r.pgn(),
            });
            if let Some(c) = &mut self.clocks {
                c.stop();
            }
        }
        if self.analysis.is_some() {
            self.analyse();
        } else if self.over.is_none()
            && self.recorded.is_none()
            && self.engine_to_move()
            && self.thinking.is_none()
            && !self.watch_paused
        {
            self.search(Purpose::Move);
        }
    }

    fn search(&mut self, purpose: Purpose) {
        let seat = self
            .seats
            .as_ref()
            .map(|s| {
                (
                    self.game.position().turn(),
                    s[self.game.position().turn().index()].clone(),
                )
            })
            .filter(|_| purpose == Purpose::Move);
        let seat_level = seat.as_ref().map(|(_, s)| s.level());
        let level = match &seat_level {
            Some(l) => l,
            None => flow::level(self.opponent.engine().map_or(usize::MAX, |(_, l)| l)),
        };
        let game = if purpose == Purpose::Analysis {
            self.shown_game()
        } else {
            self.game.clone()
        };
        let turn = game.position().turn();
        let (skill, limits) = flow::search_limits(purpose, level, self.clocks.as_ref(), turn);
        self.next_id += 1;
        let id = self.next_id;
        self.thinking = Some(Thinking {
            id,
            purpose,
            root: game.position().clone(),
            info: None,
        });
        let lines = if purpose == Purpose::Analysis {
            ANALYSIS_LINES
        } else {
            1
        };
        self.orders.push(EngineOrder::Search(Box::new(SearchOrder {
            id,
            purpose,
            game,
            skill,
            lines,
            limits,
            seat,
        })));
    }

    /// Drops the running search: its answer will change nothing.
    pub fn cancel_search(&mut self) {
        self.held = None;
        if self.thinking.take().is_some() {
            self.orders.push(EngineOrder::Cancel);
        }
    }

    fn finish(&mut self, text: String, outcome: Outcome) {
        self.cancel_search();
        if let Some(c) = &mut self.clocks {
            c.stop();
        }
        self.draw_offer = None;
        self.unsaved = true;
        self.over = Some(Over {
            text,
            result: flow::result_text(outcome),
        });
    }
}

fn capped_name(name: &str) -> String {
    name.chars().take(MAX_NAME_CHARS).collect()
}

/// Against Ludus if one side is "You" and the other "Ludus (strength)", as
/// [`flow::player_names`] writes them.
fn opponent_from_names(names: &[Option<String>; 2]) -> Opponent {
    let level_of = |name: &Option<String>| {
        let inner = name
            .as_deref()?
            .strip_prefix("Ludus (")?
            .strip_suffix(')')?;
        LEVELS.iter().position(|l| l.name == inner)
    };
    let is_you = |name: &Option<String>| name.as_deref() == Some("You");
    match (is_you(&names[0]), is_you(&names[1])) {
        (true, false) => level_of(&names[1]).map_or(Opponent::Humans, |level| Opponent::Engine {
            human: Color::Red,
            level,
        }),
        (false, true) => level_of(&names[0]).map_or(Opponent::Humans, |level| Opponent::Engine {
            human: Color::Black,
            level,
        }),
        _ => Opponent::Humans,
    }
}

/// The clocks a record was saved with: `TimeControl` (`base+increment` in
/// seconds) and the time each side had left (`RedClock`, `BlackClock`).
fn clocks_from_record(pgn: &PgnGame) -> Option<Clocks> {
    let (base, increment) = pgn.tag("TimeControl")?.split_once('+')?;
    let seconds = |s: &str| {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && (0.0..=86_400.0).contains(v))
            .map(Duration::from_secs_f64)
    };
    let (base, increment) = (seconds(base)?, seconds(increment)?);
    if base.is_zero() {
        return None;
    }
    let left = [pgn.tag("RedClock"), pgn.tag("BlackClock")].map(|t| t.and_then(seconds));
    Some(Clocks::resumed(
        base,
        increment,
        [left[0].unwrap_or(base), left[1].unwrap_or(base)],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::engine::Score;

    fn result(best: &str, game: &Game) -> SearchResult {
        SearchResult {
            best: game.position().parse_move(best).ok(),
            ponder: None,
            score: Score::Cp(10),
            depth: 3,
            nodes: 100,
            pv: Vec::new(),
            from_book: false,
        }
    }

    fn search_id(orders: &[EngineOrder]) -> Option<u64> {
        orders.iter().rev().find_map(|o| match o {
            EngineOrder::Search(s) => Some(s.id),
            _ => None,
        })
    }

    fn search_order(orders: &[EngineOrder]) -> Option<&SearchOrder> {
        orders.iter().rev().find_map(|o| match o {
            EngineOrder::Search(s) => Some(s.as_ref()),
            _ => None,
        })
    }

    fn line(multipv: u32, depth: u32, cp: i32, pos: &Position, pv: &[&str]) -> SearchInfo {
        let mut p = pos.clone();
        let pv = pv
            .iter()
            .map(|t| {
                let m = p.parse_move(t).unwrap();
                p.make_move(m);
                m
            })
            .collect();
        SearchInfo {
            multipv,
            depth,
            seldepth: depth,
            score: Score::Cp(cp),
            nodes: 5000,
            elapsed_ms: 10,
            pv,
        }
    }

    #[test]
    fn analysis_searches_the_position_shown_for_three_lines_without_moving() {
        let now = Instant::now();
        let mut s = XiangqiSession::new(Game::new(), Opponent::Humans, None);
        for m in ["h2e2", "h9g7", "h0g2"] {
            s.play_text(m, now).unwrap();
        }
        s.start_analysis().unwrap();
        let orders = s.take_orders();
        let order = search_order(&orders).unwrap();
        assert_eq!(order.purpose, Purpose::Analysis);
        assert_eq!(order.lines, ANALYSIS_LINES);
        assert!(order.limits.infinite);
        assert_eq!(order.game.plies().len(), 3);
        let id = order.id;
        // Three lines of one depth; the best one scores the position.
        let root = s.position().clone();
        s.search_info(id, line(1, 6, -20, &root, &["i9h9", "i0h0"]));
        s.search_info(id, line(2, 6, -35, &root, &["c6c5"]));
        s.search_info(id, line(3, 6, -50, &root, &["b9c7"]));
        let views = s.analysis_lines(flow::Notation::Iccs, flow::Characters::Simplified, 8);
        assert_eq!(views.len(), 3);
        assert_eq!(views[0].moves, ["I9-H9", "I0-H0"]);
        assert_eq!(
            views[0].score, "Red +0.20",
            "Black to move, -0.20 for Black"
        );
        assert_eq!(s.evals().get(3).copied().flatten(), Some(20));
        // Stepping back: the search follows, with the game's history before it.
        s.step(false);
        let orders = s.take_orders();
        assert!(matches!(orders[0], EngineOrder::Cancel));
        let order = search_order(&orders).unwrap();
        assert_eq!(order.game.plies().len(), 2);
        assert_eq!(s.analysis().unwrap().ply(), 2);
        assert!(s.analysis().unwrap().lines().is_empty());
        // A late report of the old search changes nothing.
        s.search_info(id, line(1, 7, 0, &root, &["i9h9"]));
        assert!(s.analysis().unwrap().lines().is_empty());
        // No move while looking back; the end of the game, then a move: the
        // search follows again.
        assert_eq!(s.play_text("i9h9", now), Err(Refusal::LookingBack));
        s.show(usize::MAX);
        s.take_orders();
        s.play_text("i9h9", now).unwrap();
        let orders = s.take_orders();
        assert_eq!(search_order(&orders).unwrap().game.plies().len(), 4);
        // Paused: the search stops and the lines stay; resumed: it goes on.
        let id = s.thinking().unwrap().id;
        let root = s.position().clone();
        s.search_info(id, line(1, 3, 10, &root, &["i0h0"]));
        s.pause_analysis(true);
        assert!(matches!(s.take_orders()[..], [EngineOrder::Cancel]));
        assert_eq!(s.analysis().unwrap().lines().len(), 1);
        s.pause_analysis(false);
        assert!(search_order(&s.take_orders()).is_some());
        // Off: the search stops and no lines are left.
        s.stop_analysis();
        assert!(matches!(s.take_orders()[..], [EngineOrder::Cancel]));
        assert!(
            s.analysis_lines(flow::Notation::Iccs, flow::Characters::Simplified, 8)
                .is_empty()
        );
    }

    #[test]
    fn analysis_waits_for_the_end_of_a_game_against_ludus_and_then_ludus_stays_still() {
        let now = Instant::now();
        let opponent = Opponent::Engine {
            human: Color::Red,
            level: 0,
        };
        let mut s = XiangqiSession::new(Game::new(), opponent, None);
        assert_eq!(s.start_analysis(), Err(Refusal::AnalysisAgainstLudus));
        s.play_text("h2e2", now).unwrap();
        s.take_orders();
        s.resign().unwrap();
        s.take_orders();
        s.start_analysis().unwrap();
        assert_eq!(
            search_order(&s.take_orders()).unwrap().purpose,
            Purpose::Analysis
        );
        // Undo under analysis takes one ply, and Ludus (Black, now to move)
        // does not move: the analysis searches instead.
        assert_eq!(s.undo(), Ok(1));
        let orders = s.take_orders();
        assert_eq!(search_order(&orders).unwrap().purpose, Purpose::Analysis);
        s.play_text("h2e2", now).unwrap();
        s.play_text("h9g7", now).unwrap();
        assert_eq!(s.game().plies().len(), 2);
    }

    #[test]
    fn engines_take_turns_each_at_its_own_seat_and_can_be_paused_and_stepped() {
        let now = Instant::now();
        let seats = [
            Seat::Ludus { level: 0 },
            Seat::External {
                command: "/usr/games/fairy-stockfish".to_string(),
            },
        ];
        let mut s = XiangqiSession::watch(Game::new(), seats.clone(), None, false);
        assert_eq!(s.names()[0], "Ludus (Beginner (skill 1, 0.2 s))");
        assert_eq!(s.names()[1], "fairy-stockfish");
        let orders = s.take_orders();
        let order = search_order(&orders).unwrap();
        assert_eq!(order.seat, Some((Color::Red, seats[0].clone())));
        assert_eq!(order.skill, LEVELS[0].skill);
        let answer = s.search_done(order.id, result("h2e2", s.game()), now);
        assert!(matches!(answer, Some(Answer::Moved { .. })));
        let orders = s.take_orders();
        let order = search_order(&orders).unwrap();
        assert_eq!(order.seat, Some((Color::Black, seats[1].clone())));
        assert_eq!(order.skill, xiangqi::engine::MAX_SKILL);
        // Nobody else moves, takes back, resigns or offers a draw.
        assert_eq!(s.play_text("h9g7", now), Err(Refusal::Watching));
        assert_eq!(s.undo(), Err(Refusal::Watching));
        assert_eq!(s.resign(), Err(Refusal::Watching));
        assert_eq!(s.offer_draw(), Err(Refusal::Watching));
        // Paused: the search stops and its late answer changes nothing.
        s.pause_watch(true, now);
        assert!(matches!(s.take_orders()[..], [EngineOrder::Cancel]));
        assert_eq!(s.search_done(order.id, result("h9g7", s.game()), now), None);
        assert_eq!(s.game().plies().len(), 1);
        // Paused, a move can be taken back (one ply) without a new search.
        assert_eq!(s.undo(), Ok(1));
        assert!(search_order(&s.take_orders()).is_none());
        // One step: Red plays one move, then the game is paused again. A
        // move found sooner than the pace allows waits for its time.
        s.step_watch(now);
        let id = search_order(&s.take_orders()).unwrap().id;
        let soon = now + WATCH_PACE / 2;
        assert_eq!(s.search_done(id, result("h2e2", s.game()), soon), None);
        assert_eq!(s.game().plies().len(), 0);
        assert_eq!(s.play_held(soon), None);
        let later = now + WATCH_PACE;
        assert!(matches!(s.play_held(later), Some(Answer::Moved { .. })));
        assert!(s.watch_paused());
        assert_eq!(s.game().plies().len(), 1);
        assert!(search_order(&s.take_orders()).is_none());
        // Going on: Black's seat searches; it fails, and Black loses.
        s.pause_watch(false, now);
        let id = search_order(&s.take_orders()).unwrap().id;
        let told = s.search_failed(id, "it exited").unwrap();
        assert_eq!(told, "fairy-stockfish failed (it exited): Red wins");
        assert_eq!(s.over().map(|o| o.result), Some("1-0"));
        assert!(s.record_text().contains("[Black \"fairy-stockfish\"]"));
    }

    #[test]
    fn an_engine_that_gives_no_move_loses_unless_its_draw_claim_holds() {
        let now = Instant::now();
        let seats = [Seat::Ludus { level: 0 }, Seat::Ludus { level: 1 }];
        let mut s = XiangqiSession::watch(Game::new(), seats.clone(), None, false);
        let id = search_order(&s.take_orders()).unwrap().id;
        let mut none = result("h2e2", s.game());
        none.best = None;
        assert_eq!(s.search_done(id, none.clone(), now), None);
        let over = s.over().map(|o| (o.text.as_str(), o.result));
        assert_eq!(
            over,
            Some((
                "Ludus (Beginner (skill 1, 0.2 s)) gave no move: Black wins",
                "0-1"
            ))
        );
        // 100 quiet plies: the claim holds.
        let quiet = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 100 80").unwrap();
        let mut s = XiangqiSession::watch(Game::from_position(quiet), seats, None, false);
        let id = search_order(&s.take_orders()).unwrap().id;
        assert_eq!(s.search_done(id, none, now), None);
        assert_eq!(s.over().map(|o| o.result), Some("1/2-1/2"));
    }

    #[test]
    fn a_paused_game_between_engines_starts_no_search() {
        let seats = [Seat::Ludus { level: 6 }, Seat::Ludus { level: 7 }];
        let mut s = XiangqiSession::watch(Game::new(), seats, None, true);
        assert!(s.take_orders().is_empty());
        assert!(s.watch_paused());
    }

    #[test]
    fn ludus_replies_to_each_move_and_undo_takes_both_back() {
        let now = Instant::now();
        let opponent = Opponent::Engine {
            human: Color::Red,
            level: 0,
        };
        let mut s = XiangqiSession::new(Game::new(), opponent, None);
        assert!(s.take_orders().is_empty(), "Red (the human) moves first");
        s.play_text("h2e2", now).unwrap();
        let id = search_id(&s.take_orders()).unwrap();
        assert_eq!(s.play_text("h0g2", now), Err(Refusal::EngineToMove));
        let answer = s.search_done(id, result("h9g7", s.game()), now);
        assert!(matches!(answer, Some(Answer::Moved { .. })));
        assert_eq!(s.game().plies().len(), 2);
        assert_eq!(s.undo(), Ok(2));
        assert_eq!(s.game().plies().len(), 0);
        assert_eq!(s.undo(), Err(Refusal::NothingToUndo));
    }

    #[test]
    fn an_answer_no_longer_wanted_changes_nothing() {
        let now = Instant::now();
        let mut s = XiangqiSession::new(Game::new(), Opponent::Humans, None);
        s.ask_hint().unwrap();
        let id = search_id(&s.take_orders()).unwrap();
        s.play_text("h2e2", now).unwrap();
        assert!(matches!(s.take_orders()[..], [EngineOrder::Cancel]));
        let before = s.game().plies().len();
        assert_eq!(s.search_done(id, result("h9g7", s.game()), now), None);
        assert_eq!(s.game().plies().len(), before);
        assert_eq!(s.hint(), None);
    }

    #[test]
    fn resigning_ends_the_game_once() {
        let mut s = XiangqiSession::new(
            Game::new(),
            Opponent::Engine {
                human: Color::Black,
                level: 2,
            },
            None,
        );
        assert!(matches!(s.take_orders()[..], [EngineOrder::Search(_)]));
        s.resign().unwrap();
        assert_eq!(s.over().map(|o| o.result), Some("1-0"));
        assert!(matches!(s.take_orders()[..], [EngineOrder::Cancel]));
        assert!(matches!(s.resign(), Err(Refusal::Over(_))));
    }

    #[test]
    fn a_saved_game_against_ludus_continues_against_ludus_with_its_clocks() {
        let now = Instant::now();
        let opponent = Opponent::Engine {
            human: Color::Black,
            level: 3,
        };
        let clocks = Clocks::new(Duration::from_secs(300), Duration::from_secs(5));
        let mut s = XiangqiSession::new(Game::new(), opponent, Some(clocks));
        let id = search_id(&s.take_orders()).unwrap();
        s.tick(now);
        s.search_done(id, result("h2e2", s.game()), now + Duration::from_secs(20))
            .unwrap();
        s.play_text("h9g7", now + Duration::from_secs(30)).unwrap();
        let record = PgnGame::parse(&s.record_text()).unwrap();
        let again = XiangqiSession::from_record(&record, "saved".into(), None);
        assert_eq!(again.opponent(), opponent);
        assert_eq!(again.names(), s.names());
        let c = again.clocks().unwrap();
        assert_eq!(c.increment(), Duration::from_secs(5));
        assert_eq!(c.left(Color::Red), Duration::from_secs(285));
        assert_eq!(c.left(Color::Black), Duration::from_secs(295));
        // Red (Ludus) is to move: it thinks at once.
        assert!(again.thinking().is_some());
    }

    #[test]
    fn a_record_with_a_result_keeps_it_until_undone_and_caps_names() {
        let long = "x".repeat(500);
        let text = format!("[Red \"{long}\"]\n[Result \"0-1\"]\n\n1. h2e2 h9g7 0-1\n");
        let record = PgnGame::parse(&text).unwrap();
        let mut s = XiangqiSession::from_record(&record, "r".into(), None);
        assert_eq!(s.names()[0].chars().count(), MAX_NAME_CHARS);
        assert_eq!(s.result_for_record(), "0-1");
        s.undo().unwrap();
        assert_eq!(s.result_for_record(), "*");
    }

    #[test]
    fn the_opening_follows_the_moves_and_is_saved_in_the_record() {
        let now = Instant::now();
        let mut s = XiangqiSession::new(Game::new(), Opponent::Humans, None);
        assert_eq!(s.opening(), None);
        assert!(!s.record_text().contains("[ECCO"));
        s.play_text("炮二平五", now).unwrap();
        assert_eq!(s.opening().map(|o| o.code), Some("B00"));
        s.play_text("马8进7", now).unwrap();
        let opening = s.opening().unwrap();
        assert_eq!((opening.code, opening.chinese), ("B05", "中炮对进左马"));
        let record = PgnGame::parse(&s.record_text()).unwrap();
        assert_eq!(record.tag("ECCO"), Some("B05"));
        assert_eq!(record.tag("Opening"), Some("中炮对进左马"));
        assert_eq!(record.tag("Variation"), None);
        s.undo().unwrap();
        assert_eq!(s.opening().map(|o| o.code), Some("B00"));
    }

    #[test]
    fn a_game_from_a_set_up_position_has_no_opening() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
        let mut s = XiangqiSession::new(Game::from_position(pos), Opponent::Humans, None);
        s.play_text("a0a1", Instant::now()).unwrap();
        assert_eq!(s.opening(), None);
        assert!(!s.record_text().contains("ECCO"));
    }

    #[test]
    fn two_players_agree_a_draw_by_offer_and_answer() {
        let mut s = XiangqiSession::new(Game::new(), Opponent::Humans, None);
        assert_eq!(s.answer_draw(true), Err(Refusal::NoOffer));
        assert_eq!(s.offer_draw(), Ok(DrawAnswer::Offered(Color::Red)));
        s.answer_draw(true).unwrap();
        assert_eq!(s.over().map(|o| o.result), Some("1/2-1/2"));
    }

    #[test]
    fn the_flag_falls_for_the_side_to_move() {
        let now = Instant::now();
        let clocks = Clocks::new(Duration::from_secs(60), Duration::ZERO);
        let mut s = XiangqiSession::new(Game::new(), Opponent::Humans, Some(clocks));
        assert!(!s.tick(now));
        assert!(s.tick(now + Duration::from_secs(61)));
        assert_eq!(s.over().map(|o| o.result), Some("0-1"));
    }
}
