//! The Xiangqi WebSocket: one `xiangqi::Game` per game on the server, kept
//! in [`Sessions`] so a reload reconnects; every request validated, every
//! reply JSON (see `docs/web-protocol.md`). Strengths, notations, endings,
//! take-backs, draw offers and the saved record come from
//! [`crate::session::xiangqi::flow`], shared with the terminal UI; saved games go to
//! the same folder through [`crate::store::xiangqi`].

use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::socket::{GameConnection, Replies, refuse};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::{OwnedSemaphorePermit, mpsc};
use xiangqi::engine::SearchInfo;
use xiangqi::pgn::{MoveFormat, PgnGame};
use xiangqi::{Color, FenError, Game, Position};

use super::App;
use super::protocol::{self, ErrorCode, Refusal, with_seq};
use super::sessions::{GameKey, game_key, lock};
use crate::engine_seats::EngineSeats;
use crate::engine_worker::Event;
use crate::session::xiangqi::MAX_NAME_CHARS;
use crate::session::xiangqi::database::{
    Database, DatabaseCache, Query, ResultFilter, Sort, Source,
};
use crate::session::xiangqi::flow::{self as flow, CLOCKS, Characters, LEVELS, Notation, Purpose};
use crate::session::xiangqi::watch;
use crate::session::xiangqi::{
    Answer, DrawAnswer, EngineOrder, Opponent, Refusal as Refused, SearchOrder, Seat,
    XiangqiSession, saved_games,
};
use crate::store::settings;
use crate::store::xiangqi::import_collection;

/// A side in a request or reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Red,
    Black,
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::Red => Color::Red,
            Side::Black => Color::Black,
        }
    }
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::Red => Side::Red,
            Color::Black => Side::Black,
        }
    }
}

/// Who plays: the engine against a human, two humans on one screen, or
/// two engines while the page watches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Engine,
    Humans,
    Engines,
}

/// Formats of `import` and `export`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RecordFormat {
    Pgn,
    Fen,
}

/// Move notations in requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NotationName {
    Chinese,
    Wxf,
    Iccs,
}

impl From<NotationName> for Notation {
    fn from(n: NotationName) -> Notation {
        match n {
            NotationName::Chinese => Notation::Chinese,
            NotationName::Wxf => Notation::Wxf,
            NotationName::Iccs => Notation::Iccs,
        }
    }
}

/// Character sets in requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CharactersName {
    Traditional,
    Simplified,
}

impl From<CharactersName> for Characters {
    fn from(c: CharactersName) -> Characters {
        match c {
            CharactersName::Traditional => Characters::Traditional,
            CharactersName::Simplified => Characters::Simplified,
        }
    }
}

/// A request from the page.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// A new game: against the engine (the human's side and a strength) or
    /// two players; from the start or from a FEN (the position editor).
    New {
        #[serde(default)]
        seq: Option<u64>,
        mode: Mode,
        #[serde(default)]
        human: Option<Side>,
        #[serde(default)]
        level: Option<usize>,
        /// A clock choice (index into the `clocks` of `options`; 0 = none).
        #[serde(default)]
        clock: Option<usize>,
        #[serde(default)]
        fen: Option<String>,
        /// Engines playing each other: Red's and Black's choices (indexes
        /// into the `seats` of `options`).
        #[serde(default)]
        red: Option<usize>,
        #[serde(default)]
        black: Option<usize>,
    },
    /// Engines play on from the position shown of the current game (a new
    /// game between the `seats` chosen).
    Watch {
        #[serde(default)]
        seq: Option<u64>,
        ply: usize,
        red: usize,
        black: usize,
    },
    /// Pauses a game between engines, or lets it go on.
    WatchPause {
        #[serde(default)]
        seq: Option<u64>,
        paused: bool,
    },
    /// A paused game between engines: one move, then paused again.
    WatchStep {
        #[serde(default)]
        seq: Option<u64>,
    },
    /// Analysis on or off: the engine's best lines for the position shown.
    Analysis {
        #[serde(default)]
        seq: Option<u64>,
        on: bool,
    },
    /// Stops the analysis's search keeping its lines, or goes on.
    AnalysisPause {
        #[serde(default)]
        seq: Option<u64>,
        paused: bool,
    },
    /// The page shows the position after `ply` plies (the analysis follows).
    Show {
        #[serde(default)]
        seq: Option<u64>,
        ply: usize,
    },
    Resume {
        #[serde(default)]
        seq: Option<u64>,
        session: String,
    },
    /// A move in any notation the crate reads (the page sends ICCS `h2e2`).
    Move {
        #[serde(default)]
        seq: Option<u64>,
        #[serde(rename = "move")]
        text: String,
    },
    Undo {
        #[serde(default)]
        seq: Option<u64>,
    },
    Hint {
        #[serde(default)]
        seq: Option<u64>,
    },
    /// Ends the search now: the engine plays the best move found so far; a hint is dropped.
    Stop {
        #[serde(default)]
        seq: Option<u64>,
    },
    Resign {
        #[serde(default)]
        seq: Option<u64>,
    },
    /// Against the engine, an offer it judges; two players agreed on the page.
    Draw {
        #[serde(default)]
        seq: Option<u64>,
    },
    /// A game from PGN or a position from FEN (`format` absent: guessed).
    Import {
        #[serde(default)]
        seq: Option<u64>,
        text: String,
        #[serde(default)]
        format: Option<RecordFormat>,
        #[serde(default)]
        mode: Option<Mode>,
        #[serde(default)]
        human: Option<Side>,
        #[serde(default)]
        level: Option<usize>,
    },
    Export {
        #[serde(default)]
        seq: Option<u64>,
        format: RecordFormat,
        #[serde(default)]
        notation: Option<NotationName>,
    },
    /// Saves the game as PGN in `xiangqi/games/` (the terminal's `S`).
    Save {
        #[serde(default)]
        seq: Option<u64>,
    },
    /// The saved games.
    Games {
        #[serde(default)]
        seq: Option<u64>,
    },
    /// Opens a saved game by its file name (one of `games`).
    Open {
        #[serde(default)]
        seq: Option<u64>,
        name: String,
    },
    /// The games database (saved games and imported collections), searched:
    /// `search` as typed (words, `date:`, `eco:`), `result` a filter name
    /// (`any`, `1-0`, `0-1`, `draw`, `unfinished`), `sort` (`newest`,
    /// `oldest`, `red`, `opening`); at most `limit` entries from `offset`.
    Database {
        #[serde(default)]
        seq: Option<u64>,
        #[serde(default)]
        search: String,
        #[serde(default)]
        result: Option<String>,
        #[serde(default)]
        sort: Option<String>,
        #[serde(default)]
        offset: usize,
        #[serde(default)]
        limit: Option<usize>,
    },
    /// Opens a database entry by its `key` (one of `database`).
    OpenEntry {
        #[serde(default)]
        seq: Option<u64>,
        key: String,
    },
    /// Keeps a record file in the database's collections: PGN `text`, or
    /// the file's bytes in base64 (`data`, for XQF); `name` is its file name.
    AddCollection {
        #[serde(default)]
        seq: Option<u64>,
        name: String,
        #[serde(default)]
        text: Option<String>,
        #[serde(default)]
        data: Option<String>,
    },
    /// The position editor: is this FEN a legal position?
    Validate {
        #[serde(default)]
        seq: Option<u64>,
        fen: String,
    },
    /// The strengths and the remembered choices, for the new-game dialog.
    Options {
        #[serde(default)]
        seq: Option<u64>,
    },
    /// Remembers the move-list notation in the settings (shared with the terminal).
    Notation {
        #[serde(default)]
        seq: Option<u64>,
        notation: NotationName,
    },
    /// Remembers traditional or simplified characters (board and moves alike).
    Characters {
        #[serde(default)]
        seq: Option<u64>,
        characters: CharactersName,
    },
    /// Remembers whether the page slides the pieces when a move is played.
    Animate {
        #[serde(default)]
        seq: Option<u64>,
        animate: bool,
    },
    /// The page's clock of the side to move reached zero: the server checks
    /// and ends the game on time if so (any request checks too).
    Clock {
        #[serde(default)]
        seq: Option<u64>,
    },
    Ping {
        #[serde(default)]
        seq: Option<u64>,
    },
}

impl Request {
    fn seq(&self) -> Option<u64> {
        match self {
            Request::New { seq, .. }
            | Request::Resume { seq, .. }
            | Request::Move { seq, .. }
            | Request::Undo { seq }
            | Request::Hint { seq }
            | Request::Stop { seq }
            | Request::Resign { seq }
            | Request::Draw { seq }
            | Request::Import { seq, .. }
            | Request::Export { seq, .. }
            | Request::Save { seq }
            | Request::Games { seq }
            | Request::Open { seq, .. }
            | Request::Database { seq, .. }
            | Request::OpenEntry { seq, .. }
            | Request::AddCollection { seq, .. }
            | Request::Validate { seq, .. }
            | Request::Options { seq }
            | Request::Notation { seq, .. }
            | Request::Characters { seq, .. }
            | Request::Animate { seq, .. }
            | Request::Clock { seq }
            | Request::Watch { seq, .. }
            | Request::WatchPause { seq, .. }
            | Request::WatchStep { seq }
            | Request::Analysis { seq, .. }
            | Request::AnalysisPause { seq, .. }
            | Request::Show { seq, .. }
            | Request::Ping { seq } => *seq,
        }
    }
}

/// One game being played in a browser: its [`XiangqiSession`], the id a
/// reload finds it by, the page its engine's answers go to, and the engine
/// worker while a search runs.
pub struct XiangqiGame {
    id: String,
    session: XiangqiSession,
    /// The connection showing the game, where the engine's answers go.
    page: Option<mpsc::UnboundedSender<String>>,
    /// The engine worker, the same as the terminal's and the engine shells'
    /// ([`EngineThread`]); it lives while a search is wanted, holding one of
    /// the server's engine slots (one per core).
    engine: Option<Engine>,
    /// The request a hint answers.
    hint_seq: Option<u64>,
    /// The characters the moves are written in (the player's setting).
    characters: Characters,
}

/// A game's engine workers and the slot they hold (engines playing each
/// other search in turn, so one slot serves both seats).
struct Engine {
    seats: EngineSeats,
    _slot: OwnedSemaphorePermit,
}

impl XiangqiGame {
    fn new(session: XiangqiSession) -> XiangqiGame {
        XiangqiGame {
            id: String::new(),
            session,
            page: None,
            engine: None,
            hint_seq: None,
            characters: Characters::Traditional,
        }
    }

    /// Nobody looks at the game any more: the clocks stop and the engine
    /// worker goes (returned, to be dropped outside the game's lock: its
    /// drop waits for the worker, whose events take the lock).
    fn leave(&mut self) -> Option<Engine> {
        self.session.pause();
        self.session.take_orders();
        self.page = None;
        let engine = self.engine.take();
        if let Some(e) = &engine {
            e.seats.stop();
        }
        engine
    }

    /// The analysis as the page shows it (also sent alone as it deepens).
    fn analysis_view(&self, a: &crate::session::xiangqi::Analysis) -> AnalysisView {
        const MOVES: usize = 12;
        let chinese = a.views(Notation::Chinese, self.characters, MOVES);
        let wxf = a.views(Notation::Wxf, self.characters, MOVES);
        let iccs = a.views(Notation::Iccs, self.characters, MOVES);
        let lines = chinese
            .into_iter()
            .zip(wxf)
            .zip(iccs)
            .map(|((c, w), i)| AnalysisLine {
                rank: c.rank,
                depth: c.depth,
                score: c.score,
                value: c.value,
                chinese: c.moves,
                wxf: w.moves,
                iccs: i.moves,
                uci: c.coordinates,
            })
            .collect();
        AnalysisView {
            kind: "analysis",
            ply: a.ply(),
            paused: a.paused(),
            finished: a.finished(),
            depth: a.depth(),
            nps: a.nodes_per_second(),
            lines,
        }
    }

    /// The whole visible state, sent after every change.
    fn state(&self, seq: Option<u64>) -> String {
        let s = &self.session;
        let game = s.game();
        let mut pos = game.start_position().clone();
        let mut moves = Vec::with_capacity(game.plies().len());
        for (i, m) in game.moves().enumerate() {
            let uci = m.to_string();
            let iccs = m.to_iccs();
            let wxf = pos.to_wxf(m);
            let chinese = self.characters.chinese(&pos, m);
            pos.make_move(m);
            moves.push(MoveView {
                uci,
                iccs,
                wxf,
                chinese,
                fen: pos.to_fen(),
                book: s.from_book(i),
                after: flow::position_after(game.start_position(), i + 1, game.plies().len()),
            });
        }
        let position = game.position();
        let over = s.over().is_some();
        let engine = s.opponent().engine();
        let view = StateView {
            kind: "state",
            session: &self.id,
            mode: match s.opponent() {
                Opponent::Engine { .. } => "engine",
                Opponent::Humans => "humans",
                Opponent::Engines => "engines",
            },
            watch_paused: s.opponent() == Opponent::Engines && s.watch_paused(),
            view: s.view(),
            analysis: s.analysis().map(|a| self.analysis_view(a)),
            human: engine.map(|(c, _)| Side::from(!c)),
            level: engine.map(|(_, l)| l),
            level_name: engine.map(|(_, l)| flow::level(l).name),
            names: s.names(),
            title: s.title(),
            start_fen: game.start_position().to_fen(),
            fen: position.to_fen(),
            turn: Side::from(position.turn()),
            check: position.in_check(),
            legal: if over {
                Vec::new()
            } else {
                position
                    .legal_moves()
                    .iter()
                    .map(|m| m.to_string())
                    .collect()
            },
            opening: s.opening().map(|o| OpeningView {
                code: o.code,
                chinese: flow::opening_heading(&o, Notation::Chinese, self.characters),
                wxf: flow::opening_heading(&o, Notation::Wxf, self.characters),
                iccs: flow::opening_heading(&o, Notation::Iccs, self.characters),
            }),
            moves,
            evals: s.evals(),
            tablebase: s.tablebase(),
            over: s.over().map(|o| OverView {
                text: &o.text,
                result: o.result,
            }),
            recorded: s.recorded(),
            thinking: s.thinking().map(|t| t.purpose),
            saved_as: s
                .saved_as()
                .and_then(|p| p.file_name())
                .map(|n| n.to_string_lossy().into_owned()),
            clocks: s.clocks().map(|c| ClocksView {
                left_ms: [Color::Red, Color::Black].map(|side| c.left(side).as_millis() as u64),
                increment_ms: c.increment().as_millis() as u64,
                running: c.running() && !over,
            }),
            seq,
        };
        serde_json::to_string(&view).unwrap_or_else(|e| {
            Refusal::new(ErrorCode::Internal, format!("state: {e}"), seq).to_json()
        })
    }
}

/// The `state` reply (see `docs/web-protocol.md`).
#[derive(Serialize)]
struct StateView<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    session: &'a str,
    mode: &'static str,
    /// Engines playing each other are paused.
    watch_paused: bool,
    /// The position the server's session shows (the analysis follows it).
    view: Option<usize>,
    analysis: Option<AnalysisView>,
    human: Option<Side>,
    level: Option<usize>,
    level_name: Option<&'static str>,
    names: &'a [String; 2],
    title: Option<&'a str>,
    start_fen: String,
    fen: String,
    turn: Side,
    check: bool,
    legal: Vec<String>,
    /// The ECCO opening so far, headed as the move list shows it per notation.
    opening: Option<OpeningView>,
    moves: Vec<MoveView>,
    evals: &'a [Option<i32>],
    /// What the endgame tables say about the position shown ("Tablebase:
    /// Red wins in 7"), if one covers it.
    tablebase: Option<String>,
    over: Option<OverView<'a>>,
    recorded: Option<&'a str>,
    thinking: Option<Purpose>,
    saved_as: Option<String>,
    clocks: Option<ClocksView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seq: Option<u64>,
}

/// The analysis: the position it is of, its state and its lines, each in
/// every notation the page offers.
#[derive(Serialize)]
struct AnalysisView {
    #[serde(rename = "type")]
    kind: &'static str,
    ply: usize,
    paused: bool,
    finished: bool,
    depth: u32,
    nps: u64,
    lines: Vec<AnalysisLine>,
}

#[derive(Serialize)]
struct AnalysisLine {
    rank: u32,
    depth: u32,
    score: String,
    value: i32,
    chinese: Vec<String>,
    wxf: Vec<String>,
    iccs: Vec<String>,
    uci: Vec<String>,
}

/// Time left (Red, Black) as charged when the state was made; the side to
/// move's clock goes on running from then while `running`.
#[derive(Serialize)]
struct ClocksView {
    left_ms: [u64; 2],
    increment_ms: u64,
    running: bool,
}

/// The move list's opening heading in each notation: `B05 中炮對進左馬`
/// (Chinese, in the player's characters) or `B05 Central Cannon vs. …`.
#[derive(Serialize)]
struct OpeningView {
    code: &'static str,
    chinese: String,
    wxf: String,
    iccs: String,
}

#[derive(Serialize)]
struct MoveView {
    /// Coordinates as the board and `move` use them: `h2e2`.
    uci: String,
    /// ICCS as written in records: `H2-E2`.
    iccs: String,
    wxf: String,
    chinese: String,
    /// The position after the move.
    fen: String,
    /// Ludus played it from its opening book (no search, so no score).
    book: bool,
    /// The position after it in words: "after Black's move 2 of 5".
    after: String,
}

#[derive(Serialize)]
struct OverView<'a> {
    text: &'a str,
    result: &'static str,
}

/// The game a connection plays.
pub type Current = Option<Arc<Mutex<XiangqiGame>>>;

impl GameConnection for Current {
    type Request = Request;

    fn parse(text: &str) -> Result<Request, Refusal> {
        protocol::parse_as::<Request>(text)
    }

    /// Everything else reads or writes files or sets up the engine.
    fn quick(request: &Request) -> bool {
        matches!(
            request,
            Request::Move { .. }
                | Request::Undo { .. }
                | Request::Stop { .. }
                | Request::Validate { .. }
                | Request::Ping { .. }
        )
    }

    fn seq(request: &Request) -> Option<u64> {
        request.seq()
    }

    fn handle(
        &mut self,
        app: &Arc<App>,
        request: Request,
        sender: &mpsc::UnboundedSender<String>,
    ) -> Replies {
        handle(app, self, request, sender)
    }

    /// The game stays for a reload (which restarts the engine if it is its move).
    /// The clocks stop until a page shows the game again.
    fn game(&self) -> Option<GameKey> {
        self.as_ref().map(game_key)
    }

    fn closed(&self) {
        if let Some(game) = self {
            let engine = lock(game).leave();
            drop(engine);
        }
    }
}

fn handle(
    app: &Arc<App>,
    current: &mut Current,
    request: Request,
    sender: &mpsc::UnboundedSender<String>,
) -> Replies {
    let seq = request.seq();
    // Requests that need no game.
    match request {
        Request::Ping { .. } => return vec![with_seq(json!({ "type": "pong" }), seq)],
        Request::Options { .. } => return vec![with_seq(options(app), seq)],
        Request::Notation { notation, .. } => {
            let name = Notation::from(notation).setting();
            if let Err(e) = settings::update(&app.data, |s| s.xiangqi.notation = name.to_string()) {
                return refuse(ErrorCode::Internal, format!("{e:#}"), seq);
            }
            return vec![with_seq(options(app), seq)];
        }
        Request::Characters { characters, .. } => {
            let chars = Characters::from(characters);
            let name = chars.setting();
            if let Err(e) = settings::update(&app.data, |s| s.xiangqi.characters = name.to_string())
            {
                return refuse(ErrorCode::Internal, format!("{e:#}"), seq);
            }
            let mut replies = vec![with_seq(options(app), seq)];
            if let Some(shared) = current.as_ref() {
                let mut g = lock(shared);
                g.characters = chars;
                replies.push(g.state(None));
            }
            return replies;
        }
        Request::Animate { animate, .. } => {
            if let Err(e) = settings::update(&app.data, |s| s.xiangqi.animate = Some(animate)) {
                return refuse(ErrorCode::Internal, format!("{e:#}"), seq);
            }
            return vec![with_seq(options(app), seq)];
        }
        Request::Validate { fen, .. } => {
            let reply = match Position::from_fen(fen.trim()) {
                Ok(pos) => json!({
                    "type": "validation", "ok": true, "fen": pos.to_fen(),
                    "message": "A legal position.",
                    "mate": pos.is_checkmate() || pos.is_stalemate(),
                    // What the endgame tables say, shown at once in the editor.
                    "tablebase": crate::session::xiangqi::tablebase::shared_label(&pos),
                }),
                Err(e) => json!({
                    "type": "validation", "ok": false, "message": fen_message(&fen, &e),
                    "squares": fen_squares(fen.trim(), &e),
                    // The text is a board, only not a legal position: the
                    // editor shows it; else the text stays as typed.
                    "readable": matches!(
                        e,
                        FenError::GeneralCount { .. }
                            | FenError::BadSquare { .. }
                            | FenError::TooMany { .. }
                            | FenError::OpponentInCheck
                    ),
                }),
            };
            return vec![with_seq(reply, seq)];
        }
        Request::Games { .. } => return vec![with_seq(games(app), seq)],
        Request::Database {
            search,
            result,
            sort,
            offset,
            limit,
            ..
        } => {
            let page = DatabasePage {
                search,
                result,
                sort,
                offset,
                limit,
            };
            return match database(app, &page) {
                Ok(reply) => vec![with_seq(reply, seq)],
                Err(message) => refuse(ErrorCode::BadRequest, message, seq),
            };
        }
        Request::AddCollection {
            name, text, data, ..
        } => {
            return match add_collection(app, &name, text, data) {
                Ok(reply) => vec![with_seq(reply, seq)],
                Err(message) => refuse(ErrorCode::BadRecord, message, seq),
            };
        }
        Request::New {
            mode,
            human,
            level,
            clock,
            fen,
            red,
            black,
            ..
        } => {
            let game = match fen {
                Some(fen) => match Position::from_fen(fen.trim()) {
                    Ok(pos) => Game::from_position(pos),
                    Err(e) => return refuse(ErrorCode::BadRecord, fen_message(&fen, &e), seq),
                },
                None => Game::new(),
            };
            let engine = opponent(mode, human, level);
            if let Some((engine_side, level)) = engine.engine() {
                // Remembered for the next game, as the terminal's set-up screen does.
                let _ = settings::update(&app.data, |s| {
                    s.xiangqi.vs_engine = true;
                    s.xiangqi.human_red = engine_side == Color::Black;
                    s.xiangqi.level = level;
                });
            }
            let clocks = clock.and_then(|index| {
                let index = index.min(CLOCKS.len() - 1);
                let _ = settings::update(&app.data, |s| s.xiangqi.clock = index);
                flow::clocks(index)
            });
            let session = if mode == Mode::Engines {
                let choices = [red.unwrap_or(6), black.unwrap_or(7)];
                XiangqiSession::watch(game, seats(app, choices), clocks, false)
            } else {
                XiangqiSession::new(game, engine, clocks)
            };
            return start(app, current, XiangqiGame::new(session), seq, sender);
        }
        Request::Resume { session, .. } => {
            return match app.xiangqi.get(&session) {
                Some(shared) => {
                    *current = Some(Arc::clone(&shared));
                    let mut g = lock(&shared);
                    g.characters = characters(app);
                    // A reload ended the connection and its search: start again.
                    g.session.resume(Instant::now());
                    let thinking = run_orders(app, &shared, &mut g, None, sender);
                    let mut replies = vec![g.state(seq)];
                    replies.extend(thinking);
                    replies
                }
                None => refuse(
                    ErrorCode::NotFound,
                    "that game is gone; start a new one",
                    seq,
                ),
            };
        }
        Request::Import {
            text,
            format,
            mode,
            human,
            level,
            ..
        } => {
            let engine = opponent(mode.unwrap_or(Mode::Humans), human, level);
            let g = match import(&text, format, engine) {
                Ok(g) => g,
                Err(message) => return refuse(ErrorCode::BadRecord, message, seq),
            };
            return start(app, current, g, seq, sender);
        }
        Request::Open { name, .. } => {
            // Only names of listed files are opened; the name itself never becomes a path.
            let list = saved_games(&app.data);
            let Some(found) = list.into_iter().find(|s| s.name == name) else {
                return refuse(ErrorCode::NotFound, "no saved game of that name", seq);
            };
            let session = match XiangqiSession::from_saved(&found) {
                Ok(session) => session,
                Err(e) => return refuse(ErrorCode::BadRecord, e, seq),
            };
            return start(app, current, XiangqiGame::new(session), seq, sender);
        }
        Request::OpenEntry { key, .. } => {
            // Keys are looked up among the entries; a key never becomes a path.
            let db = cached_database(app);
            let Some(entry) = db.find(&key) else {
                return refuse(
                    ErrorCode::NotFound,
                    "no game of that key in the database",
                    seq,
                );
            };
            let session = entry.session();
            return start(app, current, XiangqiGame::new(session), seq, sender);
        }
        _ => {}
    }
    let Some(shared) = current.clone() else {
        return refuse(ErrorCode::NoGame, "start a game first", seq);
    };
    if let Request::Watch {
        ply, red, black, ..
    } = request
    {
        let game = {
            let mut g = lock(&shared);
            g.session.show(ply);
            let game = g.session.shown_game();
            let title = format!(
                "Engines from the position {}",
                flow::position_after(
                    g.session.game().start_position(),
                    game.plies().len(),
                    g.session.game().plies().len()
                )
            );
            (game, title)
        };
        let mut session = XiangqiSession::watch(game.0, seats(app, [red, black]), None, false);
        session.set_title(game.1);
        return start(app, current, XiangqiGame::new(session), seq, sender);
    }
    let mut g = lock(&shared);
    app.xiangqi.touch(&g.id);
    let now = Instant::now();
    g.session.tick(now);
    let mut extra: Vec<String> = Vec::new();
    match request {
        Request::Move { text, .. } => {
            if let Err(e) = g.session.play_text(&text, now) {
                g.session.take_orders();
                return refuse(ErrorCode::Illegal, e.to_string(), seq);
            }
        }
        Request::Undo { .. } => {
            if let Err(e) = g.session.undo() {
                return refuse(ErrorCode::NotFound, e.to_string(), seq);
            }
        }
        Request::Hint { .. } => {
            return match g.session.ask_hint() {
                Ok(()) => run_orders(app, &shared, &mut g, seq, sender),
                Err(e @ Refused::Over(_)) => refuse(ErrorCode::Illegal, e.to_string(), seq),
                Err(e) => refuse(ErrorCode::Busy, e.to_string(), seq),
            };
        }
        Request::Stop { .. } => g.session.hurry(),
        Request::Resign { .. } => {
            if let Err(e) = g.session.resign() {
                return refuse(ErrorCode::Illegal, e.to_string(), seq);
            }
        }
        Request::Draw { .. } => match g.session.offer_draw() {
            Err(e) => return refuse(ErrorCode::Illegal, e.to_string(), seq),
            Ok(DrawAnswer::Declined) => {
                return vec![with_seq(
                    json!({ "type": "notice", "message": "Ludus declines the draw." }),
                    seq,
                )];
            }
            Ok(DrawAnswer::Accepted) => {}
            // Two players agreed on the page before the request was sent.
            Ok(DrawAnswer::Offered(_)) => {
                let _ = g.session.answer_draw(true);
            }
        },
        Request::Export {
            format, notation, ..
        } => return vec![with_seq(export(&g, format, notation), seq)],
        Request::Clock { .. } => {} // checked above
        Request::WatchPause { paused, .. } => g.session.pause_watch(paused, now),
        Request::WatchStep { .. } => g.session.step_watch(now),
        Request::Analysis { on: true, .. } => {
            if let Err(e) = g.session.start_analysis() {
                return refuse(ErrorCode::Illegal, e.to_string(), seq);
            }
        }
        Request::Analysis { on: false, .. } => g.session.stop_analysis(),
        Request::AnalysisPause { paused, .. } => g.session.pause_analysis(paused),
        Request::Show { ply, .. } => g.session.show(ply),
        Request::Save { .. } => match g.session.save(&app.data) {
            Ok(name) => {
                extra.push(
                    json!({ "type": "saved", "name": name, "folder": "xiangqi/games" }).to_string(),
                );
            }
            Err(e) => return refuse(ErrorCode::Internal, format!("{e:#}"), seq),
        },
        // Handled above.
        Request::Ping { .. }
        | Request::Options { .. }
        | Request::Notation { .. }
        | Request::Characters { .. }
        | Request::Animate { .. }
        | Request::Validate { .. }
        | Request::Games { .. }
        | Request::New { .. }
        | Request::Resume { .. }
        | Request::Import { .. }
        | Request::Watch { .. }
        | Request::Open { .. }
        | Request::Database { .. }
        | Request::OpenEntry { .. }
        | Request::AddCollection { .. } => {}
    }
    let thinking = run_orders(app, &shared, &mut g, None, sender);
    let mut replies = vec![g.state(seq)];
    replies.extend(thinking);
    replies.extend(extra);
    replies
}

/// The seats of a game between engines from the page's choices (indexes
/// into the `seats` of `options`: the page names no command of its own),
/// remembered for the next game as the terminal's set-up does.
fn seats(app: &App, choices: [usize; 2]) -> [Seat; 2] {
    let (settings, _) = settings::load(&app.data);
    let engines = &settings.xiangqi.engines;
    let n = watch::choices(engines);
    let choices = choices.map(|c| c.min(n - 1));
    let _ = settings::update(&app.data, |s| s.xiangqi.watch_seats = choices);
    choices.map(|c| Seat::from_choice(c, engines))
}

/// The opponent of a new game (the human plays Red unless told).
fn opponent(mode: Mode, human: Option<Side>, level: Option<usize>) -> Opponent {
    match mode {
        Mode::Humans | Mode::Engines => Opponent::Humans,
        Mode::Engine => Opponent::Engine {
            human: Color::from(human.unwrap_or(Side::Red)),
            level: level.unwrap_or(0).min(LEVELS.len() - 1),
        },
    }
}

/// Keeps a new game under a new session and makes it the connection's game.
fn start(
    app: &Arc<App>,
    current: &mut Current,
    mut g: XiangqiGame,
    seq: Option<u64>,
    sender: &mpsc::UnboundedSender<String>,
) -> Replies {
    if let Some(old) = current.take() {
        let engine = lock(&old).leave();
        drop(engine);
    }
    g.session.tick(Instant::now());
    g.characters = characters(app);
    let placeholder = XiangqiSession::new(Game::new(), Opponent::Humans, None);
    let shared = Arc::new(Mutex::new(XiangqiGame::new(placeholder)));
    g.id = app.xiangqi.insert(Arc::clone(&shared));
    let mut guard = lock(&shared);
    *guard = g;
    let thinking = run_orders(app, &shared, &mut guard, None, sender);
    let mut replies = vec![guard.state(seq)];
    replies.extend(thinking);
    drop(guard);
    *current = Some(shared);
    replies
}

/// The characters the player chose (traditional unless told).
fn characters(app: &App) -> Characters {
    let (settings, _) = settings::load(&app.data);
    Characters::from_setting(&settings.xiangqi.characters)
}

/// The strengths, the remembered choices and the notation.
fn options(app: &App) -> Value {
    let (settings, _) = settings::load(&app.data);
    let x = &settings.xiangqi;
    let levels: Vec<&str> = LEVELS.iter().map(|l| l.name).collect();
    let clocks: Vec<&str> = CLOCKS.iter().map(|c| c.0).collect();
    let seats: Vec<String> = (0..watch::choices(&x.engines))
        .map(|i| watch::choice_name(i, &x.engines))
        .collect();
    let last_seat = seats.len() - 1;
    json!({
        "type": "options",
        "levels": levels,
        "clocks": clocks,
        "clock": x.clock.min(CLOCKS.len() - 1),
        "vs_engine": x.vs_engine,
        "human": if x.human_red { "red" } else { "black" },
        "level": x.level.min(LEVELS.len() - 1),
        "notation": Notation::from_setting(&x.notation).setting(),
        "characters": Characters::from_setting(&x.characters).setting(),
        "seats": seats,
        "watch_seats": x.watch_seats.map(|c| c.min(last_seat)),
        "animate": x.animate,
    })
}

/// The home page's line: saved games and the record against Ludus (games
/// saved with "You" as a player and a result).
pub fn summary(data: &crate::store::DataDir) -> Value {
    let list = saved_games(data);
    let (mut won, mut lost, mut drawn) = (0, 0, 0);
    for record in list.iter().filter_map(|s| s.record.as_ref().ok()) {
        let you = |tag| record.tag(tag) == Some("You");
        match (record.result.as_str(), you("Red"), you("Black")) {
            ("1-0", true, false) | ("0-1", false, true) => won += 1,
            ("1-0", false, true) | ("0-1", true, false) => lost += 1,
            ("1/2-1/2", true, false) | ("1/2-1/2", false, true) => drawn += 1,
            _ => {}
        }
    }
    json!({
        "page": true,
        "saved": list.len(),
        "won": won,
        "lost": lost,
        "drawn": drawn,
    })
}

/// The saved games, newest first.
fn games(app: &App) -> Value {
    let list: Vec<Value> = saved_games(&app.data)
        .iter()
        .map(|s| match &s.record {
            Ok(r) => json!({
                "name": s.name,
                "red": r.tag("Red"),
                "black": r.tag("Black"),
                "date": r.tag("Date"),
                "result": r.result,
                "moves": flow::full_moves(&r.start, r.moves.len()),
            }),
            Err(e) => json!({ "name": s.name, "error": e }),
        })
        .collect();
    json!({ "type": "games", "games": list })
}

/// Most database entries in one reply (the page asks for more by `offset`).
pub const MAX_DATABASE_PAGE: usize = 200;
/// Entries in a reply when the request gives no `limit`.
pub const DEFAULT_DATABASE_PAGE: usize = 100;

/// What a `database` request asks for.
struct DatabasePage {
    search: String,
    result: Option<String>,
    sort: Option<String>,
    offset: usize,
    limit: Option<usize>,
}

/// The games database, read again only when its files change (the page
/// searches as one types).
static DATABASE: Mutex<Option<DatabaseCache>> = Mutex::new(None);

fn cached_database(app: &App) -> Arc<Database> {
    let mut cache = DATABASE.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .get_or_insert_with(DatabaseCache::default)
        .get(&app.data)
}

/// One page of the searched database, with the files that could not be read.
fn database(app: &App, page: &DatabasePage) -> Result<Value, String> {
    let mut query = Query::parse(&page.search).map_err(|e| e.to_string())?;
    let result = page.result.as_deref().unwrap_or("any");
    query.result = ResultFilter::from_name(result).ok_or_else(|| {
        format!("unknown result filter {result:?}: use any, 1-0, 0-1, draw or unfinished")
    })?;
    let sort_name = page.sort.as_deref().unwrap_or("newest");
    let sort = Sort::from_name(sort_name)
        .ok_or_else(|| format!("unknown sort {sort_name:?}: use newest, oldest, red or opening"))?;
    let db = cached_database(app);
    let found = db.search(&query, sort);
    let limit = page
        .limit
        .unwrap_or(DEFAULT_DATABASE_PAGE)
        .min(MAX_DATABASE_PAGE);
    let entries: Vec<Value> = found
        .iter()
        .skip(page.offset)
        .take(limit)
        .map(|e| {
            json!({
                "key": e.key(),
                "source": e.source_label(),
                "saved": matches!(e.source, Source::Saved { .. }),
                "red": e.red,
                "black": e.black,
                "event": e.event,
                "date": e.date_text(),
                "result": e.result.text(),
                "plies": e.plies,
                "moves": flow::full_moves(&e.record().start, e.plies),
                "opening": e.opening.map(|o| json!({
                    "code": o.code, "chinese": o.chinese, "english": o.english,
                })),
            })
        })
        .collect();
    let problems: Vec<Value> = db
        .problems()
        .iter()
        .map(|p| json!({ "file": p.file, "message": p.message }))
        .collect();
    Ok(json!({
        "type": "database",
        "search": page.search,
        "result": query.result.name(),
        "sort": sort.name(),
        "total": db.entries().len(),
        "matched": found.len(),
        "offset": page.offset,
        "entries": entries,
        "problems": problems,
    }))
}

/// Keeps a record file sent by the page in the collections.
fn add_collection(
    app: &App,
    name: &str,
    text: Option<String>,
    data: Option<String>,
) -> Result<Value, String> {
    use base64::Engine as _;
    let shown = name.chars().take(MAX_NAME_CHARS).collect::<String>();
    let bytes = match (text, data) {
        (Some(text), None) => text.into_bytes(),
        (None, Some(data)) => base64::engine::general_purpose::STANDARD
            .decode(data.trim())
            .map_err(|e| format!("{shown}: the file's data is not base64: {e}"))?,
        _ => {
            return Err(format!(
                "{shown}: send the file as text or as data, one of them"
            ));
        }
    };
    let imported =
        import_collection(&app.data, name, &bytes).map_err(|e| format!("{shown}: {e}"))?;
    Ok(json!({
        "type": "collection",
        "name": imported.name,
        "format": imported.format.extension(),
        "games": imported.games,
    }))
}

/// A game from imported text: a FEN (one line with `/`, no tags) or PGN.
fn import(
    text: &str,
    format: Option<RecordFormat>,
    engine: Opponent,
) -> Result<XiangqiGame, String> {
    let trimmed = text.trim();
    let format = format.unwrap_or_else(|| {
        let one_line = trimmed.lines().count() == 1;
        if one_line && trimmed.contains('/') && !trimmed.starts_with('[') {
            RecordFormat::Fen
        } else {
            RecordFormat::Pgn
        }
    });
    match format {
        RecordFormat::Fen => {
            let pos = Position::from_fen(trimmed).map_err(|e| fen_message(text, &e))?;
            let mut session = XiangqiSession::new(Game::from_position(pos), engine, None);
            session.set_title("Imported position".to_string());
            Ok(XiangqiGame::new(session))
        }
        RecordFormat::Pgn => {
            let pgn = PgnGame::parse(text).map_err(|e| e.to_string())?;
            Ok(XiangqiGame::new(XiangqiSession::imported(&pgn, engine)))
        }
    }
}

/// A FEN error with the line and column it points at in `text`.
fn fen_message(text: &str, e: &FenError) -> String {
    // The FEN is the first non-blank line; columns count characters.
    let (line_no, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| !l.trim().is_empty())
        .unwrap_or((0, ""));
    let lead = line.chars().take_while(|c| c.is_whitespace()).count();
    let body: Vec<char> = line.trim().chars().collect();
    // Where rank `rank` (1-based, as written) starts in the line.
    let rank_start = |rank: usize| {
        let mut seen = 1;
        for (i, &c) in body.iter().enumerate() {
            if seen == rank {
                return i;
            }
            if c == '/' {
                seen += 1;
            }
        }
        body.len()
    };
    let offset = match e {
        // Errors of the position as a whole point at no place in the text.
        FenError::GeneralCount { .. }
        | FenError::BadSquare { .. }
        | FenError::TooMany { .. }
        | FenError::OpponentInCheck => return format!("Not a legal position: {e}"),
        FenError::RankLength { rank, .. } => rank_start(*rank),
        FenError::UnknownChar { rank, ch } => {
            let start = rank_start(*rank);
            body[start..]
                .iter()
                .position(|c| c == ch)
                .map_or(start, |i| start + i)
        }
        FenError::BadTurn(field) | FenError::BadCounter(field) | FenError::TrailingField(field) => {
            let joined: String = body.iter().collect();
            let board_end = joined.find(char::is_whitespace).unwrap_or(joined.len());
            joined[board_end..]
                .find(field.as_str())
                .map_or(0, |j| joined[..board_end + j].chars().count())
        }
        _ => 0,
    };
    format!(
        "FEN line {}, column {}: {e}",
        line_no + 1,
        lead + offset + 1
    )
}

/// The squares a FEN error is about, for the editor to mark: a piece where
/// it may not stand, or the general of the side not to move, left in check
/// (facing generals too).
fn fen_squares(fen: &str, e: &FenError) -> Vec<String> {
    match e {
        FenError::BadSquare { square, .. } => vec![square.to_string()],
        FenError::OpponentInCheck => {
            let mut fields = fen.split_whitespace();
            let board = fields.next().unwrap_or_default();
            let general = if fields.next().is_some_and(|t| t.eq_ignore_ascii_case("b")) {
                'K'
            } else {
                'k'
            };
            // The board field was read already: ranks 9 down to 0, files a to i.
            for (row, rank) in board.split('/').enumerate() {
                let mut file = 0u8;
                for c in rank.chars() {
                    match c.to_digit(10) {
                        Some(n) => file = file.saturating_add(n as u8),
                        None if c == general => {
                            return vec![format!("{}{}", char::from(b'a' + file), 9 - row)];
                        }
                        None => file = file.saturating_add(1),
                    }
                }
            }
            Vec::new()
        }
        _ => Vec::new(),
    }
}

fn export(g: &XiangqiGame, format: RecordFormat, notation: Option<NotationName>) -> Value {
    let s = &g.session;
    let stem = s
        .saved_as()
        .and_then(|p| p.file_stem())
        .map_or("xiangqi".to_string(), |s| s.to_string_lossy().into_owned());
    match format {
        RecordFormat::Fen => json!({
            "type": "exported", "format": "fen",
            "filename": format!("{stem}.fen"), "text": s.position().to_fen(),
        }),
        RecordFormat::Pgn => {
            let chinese = s.record_text();
            let text = match notation.map(Notation::from) {
                None | Some(Notation::Chinese) => chinese,
                Some(n) => {
                    // Re-read and write again in the asked notation.
                    let format = match n {
                        Notation::Wxf => MoveFormat::Wxf,
                        _ => MoveFormat::Iccs,
                    };
                    PgnGame::parse(&chinese).map_or(chinese, |p| p.to_pgn(format))
                }
            };
            json!({
                "type": "exported", "format": "pgn",
                "filename": format!("{stem}.pgn"), "text": text,
            })
        }
    }
}

/// Carries out what the session asked of the engine: a search for Ludus's
/// move waits for a free engine slot (the game needs it); a hint is refused
/// when every slot is busy. Thinking is streamed as `thinking` messages; the
/// answer comes as a `state` (Ludus's move) or a `hint` (see [`on_event`]).
fn run_orders(
    app: &Arc<App>,
    shared: &Arc<Mutex<XiangqiGame>>,
    g: &mut XiangqiGame,
    seq: Option<u64>,
    sender: &mpsc::UnboundedSender<String>,
) -> Replies {
    g.page = Some(sender.clone());
    let mut replies = Vec::new();
    for order in g.session.take_orders() {
        match order {
            // The search ends; the session drops a cancelled one's answer.
            EngineOrder::Cancel | EngineOrder::Hurry => {
                if let Some(e) = &g.engine {
                    e.seats.stop();
                }
            }
            EngineOrder::Search(order) => {
                let slot = if g.engine.is_some() {
                    None // the game's worker holds a slot already
                } else {
                    match order.purpose {
                        Purpose::Hint | Purpose::Analysis => {
                            match Arc::clone(&app.solver_slots).try_acquire_owned() {
                                Ok(slot) => Some(slot),
                                Err(_) => {
                                    g.session.cancel_search();
                                    g.session.stop_analysis();
                                    g.session.take_orders();
                                    return refuse(
                                        ErrorCode::Busy,
                                        "the engine is busy; try again soon",
                                        seq,
                                    );
                                }
                            }
                        }
                        Purpose::Move => None,
                    }
                };
                if order.purpose == Purpose::Hint {
                    g.hint_seq = seq;
                }
                replies.push(with_seq(
                    json!({
                        "type": "thinking", "purpose": order.purpose,
                        "ply": order.game.plies().len(),
                    }),
                    seq,
                ));
                if g.engine.is_some() || slot.is_some() {
                    start_search(app, shared, g, *order, slot);
                    continue;
                }
                // Ludus's own move waits for a slot, off the connection's task.
                let (app, shared) = (Arc::clone(app), Arc::clone(shared));
                tokio::spawn(async move {
                    let Ok(slot) = Arc::clone(&app.solver_slots).acquire_owned().await else {
                        return; // the semaphore is never closed
                    };
                    let mut g = lock(&shared);
                    let wanted = g.session.thinking().is_some_and(|t| t.id == order.id);
                    if wanted {
                        start_search(&app, &shared, &mut g, *order, Some(slot));
                    }
                });
            }
        }
    }
    replies
}

/// Sends a search to the game's worker, starting the worker (with `slot`)
/// if it has none; its events come back through [`on_event`].
fn start_search(
    app: &Arc<App>,
    shared: &Arc<Mutex<XiangqiGame>>,
    g: &mut XiangqiGame,
    order: SearchOrder,
    slot: Option<OwnedSemaphorePermit>,
) {
    if g.engine.is_none() {
        let Some(slot) = slot else { return };
        let (events, mut received) = mpsc::unbounded_channel();
        let seats = EngineSeats::new(move |event| {
            let _ = events.send(event);
        });
        // Events are handled off the worker thread, so that dropping the
        // worker (which waits for it) never happens on it.
        let (app, game) = (Arc::clone(app), Arc::downgrade(shared));
        tokio::spawn(async move {
            while let Some(event) = received.recv().await {
                let Some(shared) = game.upgrade() else { break };
                on_event(&app, &shared, event);
            }
        });
        g.engine = Some(Engine { seats, _slot: slot });
    }
    if let Some(e) = &mut g.engine {
        e.seats.carry_out(EngineOrder::Search(Box::new(order)));
    }
}

/// An event of a game's engine worker: progress goes to the page; an answer
/// goes to the session, and what it changed to the page. The worker and
/// its slot go once no search is wanted.
fn on_event(app: &Arc<App>, shared: &Arc<Mutex<XiangqiGame>>, event: Event) {
    let mut g = lock(shared);
    let Some(page) = g.page.clone() else { return };
    match event {
        Event::Info { id, info } => {
            let Some(t) = g.session.thinking().filter(|t| t.id == id) else {
                return;
            };
            if t.purpose == Purpose::Analysis {
                g.session.search_info(id, info);
                if let Some(a) = g.session.analysis() {
                    let view = g.analysis_view(a);
                    if let Ok(text) = serde_json::to_string(&view) {
                        let _ = page.send(text);
                    }
                }
            } else {
                let ply = g.session.game().plies().len();
                let _ = page.send(thinking_info(t.purpose, &t.root, ply, &info, g.characters));
                g.session.search_info(id, info);
            }
        }
        Event::Done { id, result, .. } => {
            let was_thinking = g.session.thinking().is_some_and(|t| t.id == id);
            match g.session.search_done(id, result, Instant::now()) {
                Some(Answer::Hint {
                    best,
                    text,
                    score,
                    book,
                }) => {
                    let hint = json!({
                        "type": "hint", "move": best.to_string(), "iccs": best.to_iccs(),
                        "text": text, "score": score, "book": book,
                    });
                    let _ = page.send(with_seq(hint, g.hint_seq.take()));
                }
                // Ludus moved, or its flag fell while it thought.
                Some(Answer::Moved { .. }) | None if was_thinking => {
                    let more = run_orders(app, shared, &mut g, None, &page);
                    let _ = page.send(g.state(None));
                    for reply in more {
                        let _ = page.send(reply);
                    }
                }
                _ => {}
            }
            if let Some(due) = g.session.held_until() {
                play_when_due(app, shared, due);
            }
            if g.session.thinking().is_none() && !watching(&g.session) {
                let engine = g.engine.take();
                drop(g);
                drop(engine);
            }
        }
        // No answer: the search is dropped and the page says why.
        // Between engines the failing one loses; else the search is dropped.
        Event::Failed { id, message } => {
            let Some(text) = g.session.search_failed(id, &message) else {
                return;
            };
            let more = run_orders(app, shared, &mut g, None, &page);
            let _ = page.send(g.state(None));
            for reply in more {
                let _ = page.send(reply);
            }
            let _ = page.send(json!({ "type": "notice", "message": text }).to_string());
            if g.session.thinking().is_none() && !watching(&g.session) {
                let engine = g.engine.take();
                drop(g);
                drop(engine);
            }
        }
        _ => {}
    }
}

/// Whether engines are playing each other and going on (their workers stay).
fn watching(s: &XiangqiSession) -> bool {
    s.opponent() == Opponent::Engines && !s.watch_paused() && s.over().is_none()
}

/// An engine's move held back for pacing is played when due, and the page
/// told.
fn play_when_due(app: &Arc<App>, shared: &Arc<Mutex<XiangqiGame>>, due: Instant) {
    let (app, game) = (Arc::clone(app), Arc::downgrade(shared));
    tokio::spawn(async move {
        tokio::time::sleep_until(tokio::time::Instant::from_std(due)).await;
        let Some(shared) = game.upgrade() else { return };
        let mut g = lock(&shared);
        let Some(page) = g.page.clone() else { return };
        if g.session.play_held(Instant::now()).is_some() {
            let more = run_orders(&app, &shared, &mut g, None, &page);
            let _ = page.send(g.state(None));
            for reply in more {
                let _ = page.send(reply);
            }
        }
    });
}

/// A `thinking` message with the search's progress.
fn thinking_info(
    purpose: Purpose,
    root: &Position,
    ply: usize,
    info: &SearchInfo,
    chars: Characters,
) -> String {
    let pv: Vec<String> = info.pv.iter().take(12).map(|m| m.to_string()).collect();
    json!({
        "type": "thinking",
        "purpose": purpose,
        "ply": ply,
        "depth": info.depth,
        "seldepth": info.seldepth,
        "score": flow::red_value(info.score, root.turn()),
        "score_text": flow::score_text(info.score, root.turn()),
        "pv": flow::chinese_words(root, &info.pv, 12, chars),
        "pv_iccs": pv,
        "nodes": info.nodes,
        "nps": info.nodes * 1000 / info.elapsed_ms.max(1),
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_game_ends_when_the_side_to_moves_time_is_up() {
        let session = XiangqiSession::new(Game::new(), Opponent::Humans, flow::clocks(1)); // 1 min + 1 s
        let mut g = XiangqiGame::new(session);
        let t0 = Instant::now();
        assert!(!g.session.tick(t0));
        assert!(!g.session.tick(t0 + Duration::from_secs(59)));
        assert!(g.session.over().is_none());
        assert!(g.session.tick(t0 + Duration::from_secs(61)));
        let over = g.session.over().map(|o| (o.text.as_str(), o.result));
        assert_eq!(over, Some(("Red ran out of time: Black wins", "0-1")));
        // Over: the clocks stand still and it is not told twice.
        assert!(!g.session.tick(t0 + Duration::from_secs(90)));
        let state: Value = serde_json::from_str(&g.state(None)).unwrap_or_default();
        assert_eq!(state["clocks"]["running"], false);
        assert_eq!(state["clocks"]["left_ms"], json!([0, 60_000]));
    }

    #[test]
    fn requests_parse_or_are_refused() {
        let r: Result<Request, _> = protocol::parse_as(r#"{"type":"move","move":"h2e2","seq":4}"#);
        assert_eq!(
            r,
            Ok(Request::Move {
                seq: Some(4),
                text: "h2e2".into()
            })
        );
        let code = |t: &str| protocol::parse_as::<Request>(t).err().map(|r| r.code);
        assert_eq!(code(r#"{"type":"fly"}"#), Some(ErrorCode::UnknownType));
        assert_eq!(code(r#"{"type":"move"}"#), Some(ErrorCode::BadRequest));
        assert_eq!(
            code(r#"{"type":"new","mode":"solo"}"#),
            Some(ErrorCode::BadRequest)
        );
    }

    #[test]
    fn fen_errors_point_at_their_column() {
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w";
        let e = Position::from_fen(fen).unwrap_err();
        assert_eq!(fen_message(fen, &e), format!("FEN line 1, column 59: {e}"));
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x";
        let e = Position::from_fen(fen).unwrap_err();
        assert!(fen_message(fen, &e).starts_with("FEN line 1, column 61:"));
        let e = Position::from_fen("\n  9/9 w").unwrap_err();
        assert!(fen_message("\n  9/9 w", &e).starts_with("FEN line 2, column 3:"));
    }
}
