//! The Tetris WebSocket: one `tetris::Recorder` per game on the server (the
//! engine the terminal UI drives), kept in [`Sessions`] so a reload
//! reconnects. The page owns the clock: it sends key presses and releases
//! and periodic ticks stamped with its game time, which the server clamps
//! (never backwards, at most [`MAX_STEP_MS`] ahead per message) before it
//! advances the engine; every reply is the state to draw. High scores and
//! replays go through `store::tetris`, the terminal's files (see
//! `docs/web-protocol.md`).

use std::sync::{Arc, Mutex};

use ::tetris::scoring::ClearReport;
use ::tetris::{
    Action, ActivePiece, Edge, Game, GameOver, InputEvent, Mode, Playback, Recorder, Replay, Status,
};
use axum::extract::ws::{Message, WebSocket};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::App;
use super::protocol::{self, ErrorCode, Refusal, with_seq};
use super::sessions::lock;
use super::socket::{Replies, refuse};
use crate::session::tetris::{HintTracker, MODES, mode_title, random_seed};
use crate::store::settings::{self, TetrisKeys};
use crate::store::tetris::{self as store, ScoreEntry};

/// The most game time one message may add: a page claiming more (a stalled
/// tab, a bad clock, a hostile client) gets this much, so one message is
/// always a bounded amount of work.
pub const MAX_STEP_MS: u64 = 1_000;
/// Rows sent in `board`: the 20 visible ones and the 2 above where pieces spawn.
pub const BOARD_ROWS: i8 = 22;
/// Replays listed at most (newest first).
const MAX_LISTED: usize = 200;

/// A request from the Tetris page.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// A new game of `mode` (`marathon`, `marathon-endless`, `sprint`, `ultra`, `zen`);
    /// `same_seed` deals the pieces of the previous game again.
    New {
        #[serde(default)]
        seq: Option<u64>,
        mode: String,
        #[serde(default)]
        same_seed: bool,
        /// A chosen seed: the pieces of that game (tests use it).
        #[serde(default)]
        seed: Option<u64>,
    },
    /// Reconnect to the game of an earlier connection (after a reload).
    Resume {
        #[serde(default)]
        seq: Option<u64>,
        session: String,
    },
    /// A key went down (`press`) or up (`release`) at game time `t`.
    Input {
        #[serde(default)]
        seq: Option<u64>,
        action: Action,
        edge: Edge,
        t: u64,
    },
    /// Let time run to `t`: gravity, auto-repeat, lock delay.
    Tick {
        #[serde(default)]
        seq: Option<u64>,
        t: u64,
    },
    /// Pause (every held key is let go at `t`) or go on.
    Pause {
        #[serde(default)]
        seq: Option<u64>,
        paused: bool,
        t: u64,
    },
    /// Show the bot's placement for each piece (or stop); a game played with
    /// hints is marked so in the high scores, as in the terminal.
    Hint {
        #[serde(default)]
        seq: Option<u64>,
        on: bool,
    },
    /// End a Zen game (it never ends by itself), like the terminal's `q`.
    End {
        #[serde(default)]
        seq: Option<u64>,
    },
    Scores {
        #[serde(default)]
        seq: Option<u64>,
    },
    Replays {
        #[serde(default)]
        seq: Option<u64>,
    },
    /// Save the finished game's replay in `tetris/replays/`.
    SaveReplay {
        #[serde(default)]
        seq: Option<u64>,
    },
    /// Watch a saved replay (a file name from `replays`).
    Watch {
        #[serde(default)]
        seq: Option<u64>,
        name: String,
    },
    /// Show the replay being watched at its time `t` (earlier times replay from the start).
    WatchTo {
        #[serde(default)]
        seq: Option<u64>,
        t: u64,
    },
    Ping {
        #[serde(default)]
        seq: Option<u64>,
    },
}

impl Request {
    pub fn seq(&self) -> Option<u64> {
        match self {
            Request::New { seq, .. }
            | Request::Resume { seq, .. }
            | Request::Input { seq, .. }
            | Request::Tick { seq, .. }
            | Request::Pause { seq, .. }
            | Request::Hint { seq, .. }
            | Request::End { seq }
            | Request::Scores { seq }
            | Request::Replays { seq }
            | Request::SaveReplay { seq }
            | Request::Watch { seq, .. }
            | Request::WatchTo { seq, .. }
            | Request::Ping { seq } => *seq,
        }
    }
}

/// Reads one text message into a Tetris request, or says why not.
pub fn parse(text: &str) -> Result<Request, Refusal> {
    protocol::parse_as(text)
}

/// A page's time for the game now at `game_ms`, clamped: never backwards, at
/// most [`MAX_STEP_MS`] ahead.
pub fn clamp_time(game_ms: u64, t: u64) -> u64 {
    t.clamp(game_ms, game_ms.saturating_add(MAX_STEP_MS))
}

/// One game being played in a browser.
pub struct TetrisGame {
    recorder: Recorder,
    paused: bool,
    /// Actions whose key is down, let go when the game pauses.
    held: Vec<Action>,
    /// Zen ended by the player.
    ended: bool,
    /// The high score is being written (so two tabs never record it twice).
    recording: bool,
    /// The `over` message, once the end is recorded (sent again on resume).
    over: Option<Value>,
    /// The replay's file name once saved.
    saved: Option<String>,
    setup: Setup,
    /// Hints are shown; `hint_used` once they have been in this game.
    hint: bool,
    hint_used: bool,
    hints: HintTracker,
}

impl TetrisGame {
    fn new(mode: Mode, seed: u64, setup: Setup) -> TetrisGame {
        TetrisGame {
            recorder: Recorder::new(mode, setup.handling, seed),
            paused: false,
            held: Vec::new(),
            ended: false,
            recording: false,
            over: None,
            saved: None,
            setup,
            hint: false,
            hint_used: false,
            hints: HintTracker::default(),
        }
    }

    fn set_hint(&mut self, on: bool) {
        if self.finished() {
            return;
        }
        self.hint = on;
        self.hint_used |= on;
    }

    /// The bot's placement for the piece in play, when hints are on.
    fn hint_view(&mut self) -> Option<HintView> {
        if !self.hint || self.finished() {
            return None;
        }
        let hint = self.hints.update(self.recorder.game())?;
        Some(HintView {
            cells: hint.piece.as_ref().map(cells),
            hold: hint.hold_first,
        })
    }

    fn game(&self) -> &Game {
        self.recorder.game()
    }

    fn finished(&self) -> bool {
        !self.game().is_playing() || self.ended
    }

    /// Applies a key edge at the page's time `t` (clamped).
    fn input(&mut self, action: Action, edge: Edge, t: u64) {
        if self.paused || self.finished() {
            return;
        }
        let t = clamp_time(self.game().time_ms(), t);
        match edge {
            Edge::Press if !self.held.contains(&action) => self.held.push(action),
            Edge::Release => self.held.retain(|&a| a != action),
            Edge::Press => {}
        }
        self.recorder.handle(InputEvent {
            time_ms: t,
            action,
            edge,
        });
        self.recorder.advance_to(t);
    }

    fn tick(&mut self, t: u64) {
        if self.paused || self.finished() {
            return;
        }
        let t = clamp_time(self.game().time_ms(), t);
        self.recorder.advance_to(t);
    }

    /// Pauses at `t` (letting go of every held key, so no auto-shift runs on
    /// after the pause) or goes on.
    fn pause(&mut self, paused: bool, t: u64) {
        if paused && !self.paused && !self.finished() {
            let t = clamp_time(self.game().time_ms(), t);
            for action in std::mem::take(&mut self.held) {
                self.recorder.handle(InputEvent::release(t, action));
            }
            self.recorder.advance_to(t);
        }
        self.paused = paused && !self.finished();
    }
}

/// What a game is played with, read from the settings when it starts.
#[derive(Clone, Debug)]
struct Setup {
    handling: ::tetris::Settings,
    ghost: bool,
    keys: TetrisKeys,
}

impl Setup {
    fn load(app: &App) -> Setup {
        let (settings, _) = settings::load(&app.data);
        Setup {
            handling: settings.tetris.handling,
            ghost: settings.tetris.ghost,
            keys: settings.tetris.keys,
        }
    }
}

/// A saved replay being watched, and its file name.
struct Watch {
    name: String,
    playback: Playback,
}

/// What the connection shows.
enum Current {
    None,
    Play {
        session: String,
        game: Arc<Mutex<TetrisGame>>,
    },
    Watch(Box<Watch>),
}

/// One connection: what it shows, and what it last sent (replies carry only what changed).
struct Conn {
    current: Current,
    /// The stack's stamp (pieces locked, Zen wipes) of the last `board` sent.
    board_sent: Option<(u64, u32)>,
    /// What the previous reply showed, to tell the page what just happened.
    seen: Option<Probe>,
}

/// The figures compared between replies to find events for sounds and banners.
#[derive(Clone, Copy, PartialEq)]
struct Probe {
    pieces: u64,
    zen_clears: u32,
    lines: u32,
    level: u32,
    hold: Option<::tetris::PieceKind>,
    active: Option<ActivePiece>,
    clear: Option<ClearReport>,
    playing: bool,
}

impl Probe {
    fn of(game: &Game) -> Probe {
        Probe {
            pieces: game.pieces(),
            zen_clears: game.zen_clears(),
            lines: game.lines(),
            level: game.level(),
            hold: game.hold_piece(),
            active: game.active().copied(),
            clear: game.last_clear().copied(),
            playing: game.is_playing(),
        }
    }

    /// What happened between `self` and `now`, as event names.
    fn events(&self, now: &Probe) -> (Vec<&'static str>, Option<ClearReport>) {
        let mut events = Vec::new();
        let mut clear = None;
        if now.pieces > self.pieces {
            events.push("lock");
            if let Some(report) = now.clear
                && (now.lines > self.lines || Some(report) != self.clear)
                && (report.lines > 0 || report.t_spin != ::tetris::scoring::TSpin::None)
            {
                events.push("clear");
                clear = Some(report);
            }
        } else if now.hold != self.hold {
            events.push("hold");
        } else if let (Some(a), Some(b)) = (self.active, now.active)
            && a.kind == b.kind
        {
            if a.rotation != b.rotation {
                events.push("rotate");
            } else if a.x != b.x {
                events.push("move");
            }
        }
        if now.level > self.level {
            events.push("level");
        }
        if now.zen_clears > self.zen_clears {
            events.push("wipe");
        }
        if self.playing && !now.playing {
            events.push("over");
        }
        (events, clear)
    }
}

/// The `state` reply (see `docs/web-protocol.md`).
#[derive(Serialize)]
struct StateView<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    session: Option<&'a str>,
    /// Game time in ms (the replay's time when watching).
    t: u64,
    playing: bool,
    paused: bool,
    /// Why the game ended: `block_out`, `lock_out`, `goal_reached`, `ended`.
    over: Option<&'static str>,
    /// Locked cells, top row (22) first, 10 letters a row (`.` empty); only when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    board: Option<String>,
    active: Option<PieceView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ghost: Option<[[i8; 2]; 4]>,
    /// The bot's placement, while hints are on.
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<HintView>,
    hold: Option<char>,
    can_hold: bool,
    next: String,
    score: u64,
    lines: u32,
    level: u32,
    pieces: u64,
    b2b: bool,
    combo: Option<u32>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    events: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    clear: Option<ClearView>,
    /// What the game is (mode, goal, handling, keys, replay): with a new game, a resume, a watch.
    #[serde(skip_serializing_if = "Option::is_none")]
    setup: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seq: Option<u64>,
}

/// Where the bot would put the piece in play: its cells (`null` when nothing
/// fits), and whether to hold first.
#[derive(Serialize)]
struct HintView {
    cells: Option<[[i8; 2]; 4]>,
    hold: bool,
}

#[derive(Serialize)]
struct PieceView {
    kind: char,
    /// Rotation state: 0 spawn, 1 clockwise, 2, 3.
    rot: usize,
    cells: [[i8; 2]; 4],
}

#[derive(Serialize)]
struct ClearView {
    lines: u32,
    t_spin: &'static str,
    b2b: bool,
    combo: u32,
    perfect: bool,
    points: u64,
}

impl From<ClearReport> for ClearView {
    fn from(r: ClearReport) -> ClearView {
        ClearView {
            lines: r.lines,
            t_spin: match r.t_spin {
                ::tetris::scoring::TSpin::None => "none",
                ::tetris::scoring::TSpin::Mini => "mini",
                ::tetris::scoring::TSpin::Full => "full",
            },
            b2b: r.back_to_back,
            combo: r.combo,
            perfect: r.perfect_clear,
            points: r.points,
        }
    }
}

fn cells(piece: &ActivePiece) -> [[i8; 2]; 4] {
    piece.cells().map(|(x, y)| [x, y])
}

fn board_text(game: &Game) -> String {
    let matrix = game.matrix();
    let mut text = String::with_capacity(BOARD_ROWS as usize * 10);
    for y in (0..BOARD_ROWS).rev() {
        for x in 0..::tetris::matrix::WIDTH {
            text.push(matrix.cell(x, y).map_or('.', |b| b.letter()));
        }
    }
    text
}

fn over_reason(game: &Game, ended: bool) -> Option<&'static str> {
    match game.status() {
        Status::Over(GameOver::BlockOut) => Some("block_out"),
        Status::Over(GameOver::LockOut) => Some("lock_out"),
        Status::Over(GameOver::GoalReached) => Some("goal_reached"),
        Status::Playing if ended => Some("ended"),
        Status::Playing => None,
    }
}

/// What the game is, sent with the first state of a game or a replay.
fn setup_value(mode: Mode, setup: Option<&Setup>, replay: Option<(&str, &Replay)>) -> Value {
    json!({
        "mode": mode.name(),
        "title": mode_title(mode),
        "goal": mode.line_goal(),
        "time_limit": mode.time_limit_ms(),
        "ghost": setup.is_none_or(|s| s.ghost),
        "das": setup.map(|s| s.handling.das_ms),
        "arr": setup.map(|s| s.handling.arr_ms),
        "keys": setup.map(|s| &s.keys),
        "replay": replay.map(|(name, r)| json!({
            "name": name, "end_ms": r.end_ms, "score": r.result.score, "lines": r.result.lines,
        })),
    })
}

impl Conn {
    /// The state of what the connection shows, as JSON text; `full` adds the setup and board.
    fn state(&mut self, seq: Option<u64>, full: bool) -> String {
        if full {
            self.board_sent = None;
            self.seen = None;
        }
        let mut guard;
        let (game, session, paused, ended, ghost, setup, hint) = match &self.current {
            Current::None => {
                return Refusal::new(ErrorCode::NoGame, "start a game first", seq).to_json();
            }
            Current::Play { session, game } => {
                guard = lock(game);
                let hint = guard.hint_view();
                let setup =
                    full.then(|| setup_value(guard.game().mode(), Some(&guard.setup), None));
                (
                    guard.game(),
                    Some(session.as_str()),
                    guard.paused,
                    guard.ended,
                    guard.setup.ghost,
                    setup,
                    hint,
                )
            }
            Current::Watch(watch) => {
                let replay = watch.playback.replay();
                let setup =
                    full.then(|| setup_value(replay.mode, None, Some((&watch.name, replay))));
                // A replay that stops before the game ends shows as ended.
                let finished = watch.playback.is_finished();
                (
                    watch.playback.game(),
                    None,
                    false,
                    finished,
                    true,
                    setup,
                    None,
                )
            }
        };
        let probe = Probe::of(game);
        let (events, clear) = match &self.seen {
            Some(seen) => seen.events(&probe),
            None => (Vec::new(), None),
        };
        let stamp = (game.pieces(), game.zen_clears());
        let board = (self.board_sent != Some(stamp)).then(|| board_text(game));
        let view = StateView {
            kind: "state",
            session,
            t: game.time_ms(),
            playing: game.is_playing() && !ended,
            paused,
            over: over_reason(game, ended),
            board,
            active: game.active().map(|p| PieceView {
                kind: p.kind.letter(),
                rot: p.rotation.index(),
                cells: cells(p),
            }),
            ghost: ghost.then(|| game.ghost().map(|g| cells(&g))).flatten(),
            hint,
            hold: game.hold_piece().map(|k| k.letter()),
            can_hold: game.can_hold(),
            next: game.next_queue().iter().map(|k| k.letter()).collect(),
            score: game.score(),
            lines: game.lines(),
            level: game.level(),
            pieces: game.pieces(),
            b2b: game.back_to_back(),
            combo: game.combo(),
            events,
            clear: clear.map(ClearView::from),
            setup,
            seq,
        };
        let text = serde_json::to_string(&view).unwrap_or_else(|e| {
            Refusal::new(ErrorCode::Internal, format!("state: {e}"), seq).to_json()
        });
        self.board_sent = Some(stamp);
        self.seen = Some(probe);
        text
    }
}

/// Serves one WebSocket until the page goes away. A message never ends the
/// connection: whatever it holds, an answer goes back.
pub async fn connection(mut socket: WebSocket, app: Arc<App>) {
    let mut conn = Conn {
        current: Current::None,
        board_sent: None,
        seen: None,
    };
    let mut silence = super::socket::Silence::new(app.limits.socket_idle);
    while let Some(message) = super::socket::next_message(&mut socket, &mut silence).await {
        let replies = match message {
            Ok(Message::Text(text)) => match parse(text.as_str()) {
                Ok(request) => dispatch(&app, &mut conn, request).await,
                Err(refusal) => vec![refusal.to_json()],
            },
            Ok(Message::Binary(_)) => refuse(ErrorCode::Binary, "send JSON text messages", None),
            // Pings are answered by axum; pongs need nothing.
            Ok(Message::Ping(_) | Message::Pong(_)) => Vec::new(),
            Ok(Message::Close(_)) | Err(_) => break,
        };
        for reply in replies {
            if socket.send(Message::Text(reply.into())).await.is_err() {
                return;
            }
        }
    }
}

/// Handles one request. Playing (inputs, ticks) runs inline; anything that
/// reads or writes files runs on the blocking pool, so it never stalls other
/// connections' games.
async fn dispatch(app: &Arc<App>, conn: &mut Conn, request: Request) -> Replies {
    let seq = request.seq();
    let mut replies = match request {
        Request::Ping { .. } => vec![with_seq(json!({"type": "pong"}), seq)],
        Request::Input {
            action, edge, t, ..
        } => play(conn, seq, |game| game.input(action, edge, t)),
        Request::Tick { t, .. } => play(conn, seq, |game| game.tick(t)),
        Request::Pause { paused, t, .. } => play(conn, seq, |game| game.pause(paused, t)),
        Request::Hint { on, .. } => play(conn, seq, |game| game.set_hint(on)),
        Request::End { .. } => match &conn.current {
            Current::Play { game, .. } => {
                let zen = lock(game).game().mode() == Mode::Zen;
                if zen {
                    play(conn, seq, |game| game.ended = true)
                } else {
                    refuse(
                        ErrorCode::BadRequest,
                        "only Zen is ended by the player; the other modes end by themselves",
                        seq,
                    )
                }
            }
            _ => refuse(ErrorCode::NoGame, "no game is being played", seq),
        },
        Request::WatchTo { t, .. } => match &mut conn.current {
            Current::Watch(watch) => {
                watch.playback.advance_to(t);
                vec![conn.state(seq, false)]
            }
            _ => refuse(ErrorCode::NoGame, "no replay is being watched", seq),
        },
        Request::New {
            mode,
            same_seed,
            seed: chosen,
            ..
        } => {
            let Some(mode) = MODES.into_iter().find(|m| m.name() == mode) else {
                let shown: String = mode.chars().take(40).collect();
                return refuse(
                    ErrorCode::BadRequest,
                    format!(
                        "unknown mode {shown:?}: marathon, marathon-endless, sprint, ultra or zen"
                    ),
                    seq,
                );
            };
            let previous = match &conn.current {
                Current::Play { game, .. } if same_seed => Some(lock(game).game().seed()),
                _ => None,
            };
            let seed = chosen.or(previous).unwrap_or_else(random_seed);
            let app2 = Arc::clone(app);
            let setup = match tokio::task::spawn_blocking(move || Setup::load(&app2)).await {
                Ok(setup) => setup,
                Err(e) => return refuse(ErrorCode::Internal, format!("settings: {e}"), seq),
            };
            let fresh = TetrisGame::new(mode, seed, setup);
            // A new game replaces the old one in the same session, so a
            // reload finds the game now played.
            match &conn.current {
                Current::Play { game, .. } => *lock(game) = fresh,
                _ => {
                    let game = Arc::new(Mutex::new(fresh));
                    let session = app.tetris.insert(Arc::clone(&game));
                    conn.current = Current::Play { session, game };
                }
            }
            vec![conn.state(seq, true)]
        }
        Request::Resume { session, .. } => match app.tetris.get(&session) {
            Some(game) => {
                {
                    // A reload is a focus loss: the game waits, paused.
                    let mut g = lock(&game);
                    let now = g.game().time_ms();
                    g.pause(true, now);
                }
                let over = lock(&game).over.clone();
                conn.current = Current::Play { session, game };
                let mut replies = vec![conn.state(seq, true)];
                replies.extend(over.map(|o| o.to_string()));
                replies
            }
            None => refuse(ErrorCode::NotFound, "no such session (it expired)", seq),
        },
        Request::Scores { .. } => {
            let app2 = Arc::clone(app);
            blocking(seq, move || {
                let (scores, warning) = store::load(&app2.data);
                with_seq(
                    json!({"type": "scores", "modes": scores.modes, "warning": warning.map(|w| w.to_string())}),
                    seq,
                )
            })
            .await
        }
        Request::Replays { .. } => {
            let app2 = Arc::clone(app);
            blocking(seq, move || replay_list(&app2, seq)).await
        }
        Request::SaveReplay { .. } => save_replay(app, conn, seq).await,
        Request::Watch { name, .. } => {
            if name.is_empty() || name.len() > 255 || name.contains(['/', '\\', '\0']) {
                return refuse(
                    ErrorCode::BadPath,
                    "a replay is named by its file name",
                    seq,
                );
            }
            let app2 = Arc::clone(app);
            let wanted = name.clone();
            let found = tokio::task::spawn_blocking(move || {
                let file = store::list_replays(&app2.data).into_iter().find(|f| {
                    f.path
                        .file_name()
                        .is_some_and(|n| n.to_string_lossy() == wanted)
                });
                file.map(|f| store::read_replay(&f.path).map_err(|e| format!("{e:#}")))
            })
            .await;
            match found {
                Ok(Some(Ok(replay))) => {
                    let mut playback = Playback::new(replay);
                    playback.advance_to(0);
                    conn.current = Current::Watch(Box::new(Watch { name, playback }));
                    vec![conn.state(seq, true)]
                }
                Ok(Some(Err(message))) => refuse(ErrorCode::BadRequest, message, seq),
                Ok(None) => refuse(ErrorCode::NotFound, "no such replay", seq),
                Err(e) => refuse(ErrorCode::Internal, format!("replay: {e}"), seq),
            }
        }
    };
    // The game just ended: record it (a locked write of the terminal's table).
    if let Some(over) = finish(app, conn).await {
        replies.push(over.to_string());
    }
    if let Current::Play { session, .. } = &conn.current {
        app.tetris.touch(session);
    }
    replies
}

/// Changes the game played on this connection, then answers with its state.
fn play(conn: &mut Conn, seq: Option<u64>, change: impl FnOnce(&mut TetrisGame)) -> Replies {
    match &conn.current {
        Current::Play { game, .. } => {
            change(&mut lock(game));
            vec![conn.state(seq, false)]
        }
        Current::Watch(_) => refuse(ErrorCode::NoGame, "a replay is being watched", seq),
        Current::None => refuse(ErrorCode::NoGame, "start a game first", seq),
    }
}

/// Runs file work on the blocking pool; one reply.
async fn blocking(seq: Option<u64>, work: impl FnOnce() -> String + Send + 'static) -> Replies {
    match tokio::task::spawn_blocking(work).await {
        Ok(reply) => vec![reply],
        Err(e) => refuse(ErrorCode::Internal, format!("request failed: {e}"), seq),
    }
}

/// Records a game that has just ended (once) and returns the `over` message.
async fn finish(app: &Arc<App>, conn: &Conn) -> Option<Value> {
    let Current::Play { game, .. } = &conn.current else {
        return None;
    };
    let (summary, ended, hint_used) = {
        let mut g = lock(game);
        if !g.finished() || g.recording || g.over.is_some() {
            return None;
        }
        g.recording = true;
        (g.game().summary(), g.ended, g.hint_used)
    };
    let reason = match summary.status {
        Status::Over(GameOver::BlockOut) => "block_out",
        Status::Over(GameOver::LockOut) => "lock_out",
        Status::Over(GameOver::GoalReached) => "goal_reached",
        Status::Playing if ended => "ended",
        Status::Playing => "playing",
    };
    let qualifies = store::qualifies(&summary);
    let app2 = Arc::clone(app);
    let recorded = tokio::task::spawn_blocking(move || {
        if qualifies {
            let entry = ScoreEntry::of(&summary, store::now_secs(), hint_used);
            Some(store::record(&app2.data, summary.mode, entry).map_err(|e| format!("{e:#}")))
        } else {
            let (scores, _) = store::load(&app2.data);
            Some(Ok(store::Recorded {
                rank: None,
                table: scores.table(summary.mode).to_vec(),
                warning: None,
            }))
        }
    })
    .await
    .ok()
    .flatten();
    let (rank, table, error) = match recorded {
        Some(Ok(r)) => (r.rank, r.table, r.warning.map(|w| w.to_string())),
        Some(Err(e)) => (
            None,
            Vec::new(),
            Some(format!("could not save the high score: {e}")),
        ),
        None => (
            None,
            Vec::new(),
            Some("could not save the high score".to_owned()),
        ),
    };
    let over = json!({
        "type": "over",
        "mode": summary.mode.name(),
        "title": mode_title(summary.mode),
        "reason": reason,
        "score": summary.score,
        "lines": summary.lines,
        "level": summary.level,
        "pieces": summary.pieces,
        "time_ms": summary.time_ms,
        "pps": summary.pieces_per_second,
        "qualifies": qualifies,
        "rank": rank,
        "table": table,
        "error": error,
        "replay": null,
    });
    let mut g = lock(game);
    g.recording = false;
    g.over = Some(over.clone());
    Some(over)
}

async fn save_replay(app: &Arc<App>, conn: &Conn, seq: Option<u64>) -> Replies {
    let Current::Play { game, .. } = &conn.current else {
        return refuse(ErrorCode::NoGame, "no game is being played", seq);
    };
    let replay = {
        let g = lock(game);
        if g.over.is_none() {
            return refuse(ErrorCode::BadRequest, "the game is still running", seq);
        }
        if let Some(name) = &g.saved {
            // Saved once is enough: the same file again.
            return vec![with_seq(json!({"type": "replay_saved", "name": name}), seq)];
        }
        g.recorder.replay()
    };
    let app2 = Arc::clone(app);
    let saved = tokio::task::spawn_blocking(move || {
        store::save_replay(&app2.data, &replay, store::now_secs()).map_err(|e| format!("{e:#}"))
    })
    .await;
    match saved {
        Ok(Ok(path)) => {
            let name = path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            let mut g = lock(game);
            g.saved = Some(name.clone());
            if let Some(Value::Object(over)) = &mut g.over {
                over.insert("replay".into(), Value::from(name.clone()));
            }
            vec![with_seq(json!({"type": "replay_saved", "name": name}), seq)]
        }
        Ok(Err(message)) => refuse(ErrorCode::BadPath, message, seq),
        Err(e) => refuse(ErrorCode::Internal, format!("replay: {e}"), seq),
    }
}

/// The `replays` reply: the saved replays, newest first.
fn replay_list(app: &App, seq: Option<u64>) -> String {
    let files = store::list_replays(&app.data);
    let list: Vec<Value> = files
        .iter()
        .take(MAX_LISTED)
        .map(|f| {
            let name = f
                .path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            match &f.replay {
                Ok(r) => json!({
                    "name": name,
                    "mode": r.mode.name(),
                    "title": mode_title(r.mode),
                    "score": r.result.score,
                    "lines": r.result.lines,
                    "pieces": r.result.pieces,
                    "time_ms": r.end_ms,
                    "date": store::format_date(f.modified),
                }),
                Err(e) => json!({"name": name, "error": e, "date": store::format_date(f.modified)}),
            }
        })
        .collect();
    with_seq(
        json!({"type": "replays", "replays": list, "total": files.len()}),
        seq,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_refusals() {
        assert_eq!(
            parse(r#"{"type":"input","action":"rotate_cw","edge":"press","t":5,"seq":1}"#),
            Ok(Request::Input {
                seq: Some(1),
                action: Action::RotateCw,
                edge: Edge::Press,
                t: 5
            })
        );
        let code = |text: &str| parse(text).err().map(|r| r.code);
        assert_eq!(
            code(r#"{"type":"tick","t":-1}"#),
            Some(ErrorCode::BadRequest)
        );
        assert_eq!(
            code(r#"{"type":"tick","t":1.5}"#),
            Some(ErrorCode::BadRequest)
        );
        assert_eq!(
            code(r#"{"type":"input","action":"fly","edge":"press","t":1}"#),
            Some(ErrorCode::BadRequest)
        );
        assert_eq!(
            code(r#"{"type":"move","dir":"up"}"#),
            Some(ErrorCode::UnknownType)
        );
        assert_eq!(code("[]"), Some(ErrorCode::BadJson));
    }

    #[test]
    fn time_never_goes_back_nor_jumps() {
        assert_eq!(clamp_time(500, 100), 500);
        assert_eq!(clamp_time(500, 700), 700);
        assert_eq!(clamp_time(500, u64::MAX), 500 + MAX_STEP_MS);
    }

    #[test]
    fn a_hard_drop_locks_and_reports_it() {
        let setup = Setup {
            handling: ::tetris::Settings::default(),
            ghost: true,
            keys: TetrisKeys::default(),
        };
        let mut game = TetrisGame::new(Mode::Sprint, 7, setup);
        let before = Probe::of(game.game());
        game.input(Action::HardDrop, Edge::Press, 10);
        game.input(Action::HardDrop, Edge::Release, 20);
        let (events, _) = before.events(&Probe::of(game.game()));
        assert_eq!(events, vec!["lock"]);
        assert_eq!(game.game().pieces(), 1);
        // Paused: time and keys stop.
        game.pause(true, 30);
        game.tick(5_000);
        assert_eq!(game.game().time_ms(), 30);
    }
}
