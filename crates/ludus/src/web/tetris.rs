//! The Tetris WebSocket: the page's keys and ticks turned into commands of
//! a [`TetrisSession`] (kept in [`super::sessions::Sessions`] so a reload
//! reconnects), served by the shared connection loop. The page owns the
//! clock: it stamps its requests with its game time, which the server clamps
//! (never backwards, at most [`MAX_STEP_MS`] ahead per message); every reply
//! is the state to draw (see `docs/web-protocol.md`).

use std::sync::{Arc, Mutex};

use ::tetris::scoring::ClearReport;
use ::tetris::{Action, ActivePiece, Edge, Game, Mode, Playback, Replay};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::App;
use super::protocol::{self, ErrorCode, Refusal, with_seq};
use super::sessions::{GameKey, game_key, lock};
use super::socket::{GameConnection, Replies, refuse};
use crate::session::tetris::{
    End, GameResult, MODES, OpenReplayError, Stats, TetrisSession, file_name, format_date,
    high_scores, mode_title, now_secs, open_replay, random_seed, saved_replays,
};
use crate::store::settings::{self, TetrisSettings};

pub mod room;
mod versus;
use room::{Member, RoomRequest};
use versus::VersusGame;

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
    /// A versus game against an opponent (an index into `versus_options`' list; 0,
    /// Ludus's bot, when left out) at `level`'s pace (`easy`, `medium`, `hard`, `expert`,
    /// `unlimited`); `seed` deals chosen pieces (tests use it).
    Versus {
        #[serde(default)]
        seq: Option<u64>,
        level: String,
        #[serde(default)]
        opponent: Option<usize>,
        /// Ludus's bot's look-ahead: `classic` or 0 to 6 pieces (the level's own when
        /// left out; unlimited looks no further than the piece in play).
        #[serde(default)]
        lookahead: Option<String>,
        #[serde(default)]
        seed: Option<u64>,
    },
    /// The opponents and levels a versus game can have.
    VersusOptions {
        #[serde(default)]
        seq: Option<u64>,
    },
    /// Open a versus room for two people and take its first seat; `name` is shown to
    /// the other player (at most 20 characters kept); `seed` deals chosen pieces (tests).
    RoomCreate {
        #[serde(default)]
        seq: Option<u64>,
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        seed: Option<u64>,
    },
    /// Enter room `room`: the seat `token` holds (a reload), else a free seat, else watch.
    RoomJoin {
        #[serde(default)]
        seq: Option<u64>,
        room: String,
        #[serde(default)]
        token: Option<String>,
        #[serde(default)]
        name: Option<String>,
    },
    /// Leave the room for good (during a game the other player wins).
    RoomLeave {
        #[serde(default)]
        seq: Option<u64>,
    },
    /// Ask for another game in the room (it starts when both players asked).
    RoomRematch {
        #[serde(default)]
        seq: Option<u64>,
    },
    /// The seated player's name from now on (at most 20 characters kept).
    RoomName {
        #[serde(default)]
        seq: Option<u64>,
        name: String,
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
            Request::Versus { seq, .. }
            | Request::VersusOptions { seq }
            | Request::RoomCreate { seq, .. }
            | Request::RoomJoin { seq, .. }
            | Request::RoomLeave { seq }
            | Request::RoomRematch { seq }
            | Request::RoomName { seq, .. } => *seq,
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

/// A saved replay being watched, and its file name.
struct Watch {
    name: String,
    playback: Playback,
}

/// What the connection shows.
#[derive(Clone, Default)]
enum Current {
    #[default]
    None,
    Play {
        session: String,
        game: Arc<Mutex<TetrisSession>>,
    },
    Watch(Arc<Mutex<Watch>>),
    /// A versus game against the bot (not kept for a reload).
    Versus(Arc<Mutex<VersusGame>>),
    /// A place in a versus room (a seat or a spectator's).
    Room(Member),
}

/// One connection: what it shows, and what it last sent (replies carry only what changed).
#[derive(Clone, Default)]
pub struct Conn {
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
    /// Live statistics: PPS, keys per piece, finesse, Sprint splits.
    stats: StatsView,
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

/// The session's [`Stats`] as the page draws them.
#[derive(Debug, PartialEq, Serialize)]
struct StatsView {
    pps: f64,
    /// Key presses per piece.
    kpp: f64,
    faults: u64,
    /// Percentage of judged pieces placed without a finesse fault.
    finesse: f64,
    /// The last judged piece was a fault (the page flashes it).
    fault: bool,
    /// Pieces finesse training sent back to spawn.
    retries: u64,
    /// Attack per minute, versus games only.
    #[serde(skip_serializing_if = "Option::is_none")]
    apm: Option<f64>,
    /// Sprint's split times in game ms (10, 20, 30, 40 lines), as reached.
    splits: Vec<u64>,
}

impl From<Stats> for StatsView {
    fn from(stats: Stats) -> StatsView {
        StatsView {
            pps: stats.pieces_per_second,
            kpp: stats.keys_per_piece,
            faults: stats.faults,
            finesse: stats.finesse_rate,
            fault: stats.last_fault,
            retries: stats.retries,
            apm: stats.attack_per_minute,
            splits: stats.splits.reached().map(|(_, ms)| ms).collect(),
        }
    }
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

/// What the game is, sent with the first state of a game or a replay.
fn setup_value(
    mode: Mode,
    settings: Option<&TetrisSettings>,
    replay: Option<(&str, &Replay)>,
) -> Value {
    json!({
        "mode": mode.name(),
        "title": mode_title(mode),
        "goal": mode.line_goal(),
        "time_limit": mode.time_limit_ms(),
        "ghost": settings.is_none_or(|s| s.ghost),
        "das": settings.map(|s| s.handling.das_ms),
        "arr": settings.map(|s| s.handling.arr_ms),
        "keys": settings.map(|s| &s.keys),
        "replay": replay.map(|(name, r)| json!({
            "name": name, "end_ms": r.end_ms, "score": r.result.score, "lines": r.result.lines,
        })),
    })
}

/// The `over` message: the finished game and its place in the high scores.
fn over_message(result: &GameResult, replay: Option<&str>) -> String {
    let summary = &result.summary;
    let (rank, table, error) = match &result.recorded {
        Ok(r) => (
            r.rank,
            r.table.clone(),
            r.warning.as_ref().map(|w| w.to_string()),
        ),
        Err(e) => (None, Vec::new(), Some(e.clone())),
    };
    json!({
        "type": "over",
        "mode": summary.mode.name(),
        "title": mode_title(summary.mode),
        "reason": result.end.name(),
        "score": summary.score,
        "lines": summary.lines,
        "level": summary.level,
        "pieces": summary.pieces,
        "time_ms": summary.time_ms,
        "pps": summary.pieces_per_second,
        "stats": StatsView::from(result.stats),
        "qualifies": result.qualifies,
        "rank": rank,
        "table": table,
        "error": error,
        "replay": replay,
    })
    .to_string()
}

impl Conn {
    /// The state of what the connection shows, as JSON text; `full` adds the setup and board.
    fn state(&mut self, seq: Option<u64>, full: bool) -> String {
        if full {
            self.board_sent = None;
            self.seen = None;
        }
        match &self.current {
            Current::None => Refusal::new(ErrorCode::NoGame, "start a game first", seq).to_json(),
            Current::Play { session, game } => {
                let game = Arc::clone(game);
                let session = session.clone();
                let mut g = lock(&game);
                let hint = g.hint().map(|hint| HintView {
                    cells: hint.piece.as_ref().map(cells),
                    hold: hint.hold_first,
                });
                let setup = full.then(|| setup_value(g.game().mode(), Some(g.settings()), None));
                let shown = Shown {
                    session: Some(&session),
                    paused: g.is_paused(),
                    over: g.end().map(|e| e.name()),
                    ghost: g.settings().ghost,
                    hint,
                    setup,
                };
                self.view(g.game(), shown, seq)
            }
            Current::Watch(watch) => {
                let watch = Arc::clone(watch);
                let w = lock(&watch);
                let replay = w.playback.replay();
                // A replay that stops before the game ends shows as ended.
                let over =
                    End::of(w.playback.game().status(), w.playback.is_finished()).map(End::name);
                let shown = Shown {
                    session: None,
                    paused: false,
                    over,
                    ghost: true,
                    hint: None,
                    setup: full.then(|| setup_value(replay.mode, None, Some((&w.name, replay)))),
                };
                self.view(w.playback.game(), shown, seq)
            }
            Current::Versus(game) => versus::state(&lock(game), seq, full),
            Current::Room(_) => {
                Refusal::new(ErrorCode::BadRequest, "a room pushes its own state", seq).to_json()
            }
        }
    }

    /// The `state` reply for `game` as `shown`, with the events since the last one.
    fn view(&mut self, game: &Game, shown: Shown<'_>, seq: Option<u64>) -> String {
        let probe = Probe::of(game);
        let (events, clear) = match &self.seen {
            Some(seen) => seen.events(&probe),
            None => (Vec::new(), None),
        };
        let stamp = (game.pieces(), game.zen_clears());
        let board = (self.board_sent != Some(stamp)).then(|| board_text(game));
        let view = StateView {
            kind: "state",
            session: shown.session,
            t: game.time_ms(),
            playing: shown.over.is_none(),
            paused: shown.paused,
            over: shown.over,
            board,
            active: game.active().map(|p| PieceView {
                kind: p.kind.letter(),
                rot: p.rotation.index(),
                cells: cells(p),
            }),
            ghost: shown
                .ghost
                .then(|| game.ghost().map(|g| cells(&g)))
                .flatten(),
            hint: shown.hint,
            hold: game.hold_piece().map(|k| k.letter()),
            can_hold: game.can_hold(),
            next: game.next_queue().iter().map(|k| k.letter()).collect(),
            score: game.score(),
            lines: game.lines(),
            level: game.level(),
            pieces: game.pieces(),
            b2b: game.back_to_back(),
            combo: game.combo(),
            stats: Stats::of(game).into(),
            events,
            clear: clear.map(ClearView::from),
            setup: shown.setup,
            seq,
        };
        let text = serde_json::to_string(&view).unwrap_or_else(|e| {
            Refusal::new(ErrorCode::Internal, format!("state: {e}"), seq).to_json()
        });
        self.board_sent = Some(stamp);
        self.seen = Some(probe);
        text
    }

    /// Changes the game played on this connection, then answers with its state.
    fn play(&mut self, seq: Option<u64>, change: impl FnOnce(&mut TetrisSession)) -> Replies {
        match &self.current {
            Current::Play { game, .. } => {
                change(&mut lock(game));
                vec![self.state(seq, false)]
            }
            Current::Watch(_) => refuse(ErrorCode::NoGame, "a replay is being watched", seq),
            Current::Versus(_) => refuse(ErrorCode::NoGame, "a versus game is being played", seq),
            Current::Room(_) => refuse(ErrorCode::BadRequest, ROOM_CLOCK, seq),
            Current::None => refuse(ErrorCode::NoGame, "start a game first", seq),
        }
    }
}

/// What a state shows besides the game itself.
struct Shown<'a> {
    session: Option<&'a str>,
    paused: bool,
    over: Option<&'static str>,
    ghost: bool,
    hint: Option<HintView>,
    setup: Option<Value>,
}

impl GameConnection for Conn {
    type Request = Request;

    fn parse(text: &str) -> Result<Request, Refusal> {
        parse(text)
    }

    /// Playing runs inline; whatever reads or writes files goes to the blocking pool.
    fn quick(request: &Request) -> bool {
        matches!(
            request,
            Request::Input { .. }
                | Request::Tick { .. }
                | Request::Pause { .. }
                | Request::Hint { .. }
                | Request::End { .. }
                | Request::WatchTo { .. }
                | Request::Resume { .. }
                | Request::Ping { .. }
                | Request::RoomLeave { .. }
                | Request::RoomRematch { .. }
                | Request::RoomName { .. }
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
        let replies = handle(app, self, request, sender);
        if let Current::Play { session, game } = &self.current {
            app.tetris.touch(session);
            record_end(app, game, sender);
        }
        replies
    }

    /// The page went away: the game waits, paused, for a reload.
    fn closed(&self) {
        match &self.current {
            Current::Play { game, .. } => {
                let mut g = lock(game);
                let now = g.game().time_ms();
                g.pause(now);
            }
            Current::Versus(game) => lock(game).pause_now(),
            Current::Room(member) => member.detach(),
            Current::None | Current::Watch(_) => {}
        }
    }

    fn game(&self) -> Option<GameKey> {
        match &self.current {
            Current::Play { game, .. } => Some(game_key(game)),
            _ => None,
        }
    }
}

/// A game that has just ended is written to the high scores off the
/// connection's thread (a locked, synced write); its `over` message follows
/// the state that showed the end.
fn record_end(
    app: &Arc<App>,
    game: &Arc<Mutex<TetrisSession>>,
    sender: &mpsc::UnboundedSender<String>,
) {
    let Some(end) = lock(game).end_to_record() else {
        return;
    };
    let (app, game, sender) = (Arc::clone(app), Arc::clone(game), sender.clone());
    std::thread::spawn(move || {
        let result = end.record(&app.data, now_secs());
        let over = over_message(&result, None);
        lock(&game).set_result(result);
        let _ = sender.send(over);
    });
}

/// What a room refuses of the solo requests.
const ROOM_CLOCK: &str =
    "a room runs on the server's clock: only keys (input), room_leave and room_rematch";

/// Answers a request that concerns rooms, or one made while in a room; `None` for the
/// others (a connection in a room that starts another game leaves its place first).
fn handle_room(
    app: &Arc<App>,
    conn: &mut Conn,
    request: &Request,
    sender: &mpsc::UnboundedSender<String>,
) -> Option<Replies> {
    let seq = request.seq();
    let in_room = matches!(conn.current, Current::Room(_));
    let room_request = match request {
        Request::RoomCreate { name, seed, .. } => RoomRequest::Create {
            name: name.as_deref(),
            seed: *seed,
        },
        Request::RoomJoin {
            room, token, name, ..
        } => RoomRequest::Join {
            room,
            token: token.as_deref(),
            name: name.as_deref(),
        },
        Request::RoomLeave { .. } => RoomRequest::Leave,
        Request::RoomRematch { .. } => RoomRequest::Rematch,
        Request::RoomName { name, .. } => RoomRequest::Rename { name },
        Request::Input { action, edge, .. } if in_room => RoomRequest::Input {
            action: *action,
            edge: *edge,
        },
        Request::Tick { .. }
        | Request::Pause { .. }
        | Request::Hint { .. }
        | Request::End { .. }
        | Request::SaveReplay { .. }
        | Request::WatchTo { .. }
            if in_room =>
        {
            return Some(refuse(ErrorCode::BadRequest, ROOM_CLOCK, seq));
        }
        Request::New { .. }
        | Request::Resume { .. }
        | Request::Watch { .. }
        | Request::Versus { .. } => {
            if let Current::Room(member) = std::mem::take(&mut conn.current) {
                member.detach();
            }
            return None;
        }
        _ => return None,
    };
    let mut member = match std::mem::take(&mut conn.current) {
        Current::Room(member) => Some(member),
        other => {
            conn.current = other;
            None
        }
    };
    let was_outside = member.is_none();
    let replies = room::handle(app, &mut member, room_request, sender, seq);
    match member {
        Some(member) => conn.current = Current::Room(member),
        // Left the room: nothing shown. A refused create or join keeps the old game.
        None if !was_outside => conn.current = Current::None,
        None => {}
    }
    Some(replies)
}

/// Answers one request.
fn handle(
    app: &Arc<App>,
    conn: &mut Conn,
    request: Request,
    sender: &mpsc::UnboundedSender<String>,
) -> Replies {
    let seq = request.seq();
    if let Some(replies) = handle_room(app, conn, &request, sender) {
        return replies;
    }
    if let Current::Versus(game) = &conn.current
        && let Some(replies) = versus::handle(app, game, &request)
    {
        return replies;
    }
    match request {
        Request::Versus {
            level,
            opponent,
            lookahead,
            seed,
            ..
        } => {
            let level = match versus::level(&level, seq) {
                Ok(level) => level,
                Err(refused) => return refused,
            };
            let lookahead = match versus::lookahead(lookahead.as_deref(), seq) {
                Ok(lookahead) => lookahead,
                Err(refused) => return refused,
            };
            let (settings, _) = settings::load(&app.data);
            let opponent = match versus::opponent(opponent, &settings.tetris, seq) {
                Ok(opponent) => opponent,
                Err(refused) => return refused,
            };
            let seed = seed.unwrap_or_else(random_seed);
            let game = VersusGame::new(&opponent, level, lookahead, seed, &settings.tetris);
            conn.current = Current::Versus(Arc::new(Mutex::new(game)));
            vec![conn.state(seq, true)]
        }
        Request::Ping { .. } => vec![with_seq(json!({"type": "pong"}), seq)],
        Request::VersusOptions { .. } => {
            let (settings, _) = settings::load(&app.data);
            vec![versus::options(&settings.tetris, seq)]
        }
        Request::RoomCreate { .. }
        | Request::RoomJoin { .. }
        | Request::RoomLeave { .. }
        | Request::RoomRematch { .. }
        | Request::RoomName { .. } => refuse(
            ErrorCode::Internal,
            "room requests are answered by rooms",
            seq,
        ),
        Request::Input {
            action, edge, t, ..
        } => conn.play(seq, |g| {
            let t = clamp_time(g.game().time_ms(), t);
            g.input(action, edge, t);
        }),
        Request::Tick { t, .. } => conn.play(seq, |g| {
            let t = clamp_time(g.game().time_ms(), t);
            g.update(t, &[]);
        }),
        Request::Pause { paused, t, .. } => conn.play(seq, |g| {
            if paused {
                let t = clamp_time(g.game().time_ms(), t);
                g.pause(t);
            } else {
                g.resume();
            }
        }),
        Request::Hint { on, .. } => conn.play(seq, |g| g.set_hint(on)),
        Request::End { .. } => {
            let mut refused = None;
            let replies = conn.play(seq, |g| refused = g.end_zen().err());
            match refused {
                Some(why) => refuse(ErrorCode::BadRequest, why.to_string(), seq),
                None => replies,
            }
        }
        Request::WatchTo { t, .. } => match &conn.current {
            Current::Watch(watch) => {
                lock(watch).playback.advance_to(t);
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
            let (settings, _) = settings::load(&app.data);
            let fresh = TetrisSession::new(mode, seed, &settings.tetris);
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
                let over = {
                    // A reload is a focus loss: the game waits, paused.
                    let mut g = lock(&game);
                    let now = g.game().time_ms();
                    g.pause(now);
                    g.result().map(|r| over_message(r, g.saved_replay()))
                };
                conn.current = Current::Play { session, game };
                let mut replies = vec![conn.state(seq, true)];
                replies.extend(over);
                replies
            }
            None => refuse(ErrorCode::NotFound, "no such session (it expired)", seq),
        },
        Request::Scores { .. } => {
            let (scores, warning) = high_scores(&app.data);
            vec![with_seq(
                json!({"type": "scores", "modes": scores.modes, "warning": warning.map(|w| w.to_string())}),
                seq,
            )]
        }
        Request::Replays { .. } => vec![replay_list(app, seq)],
        Request::SaveReplay { .. } => {
            let Current::Play { game, .. } = &conn.current else {
                return refuse(ErrorCode::NoGame, "no game is being played", seq);
            };
            let mut g = lock(game);
            if g.result().is_none() {
                return refuse(ErrorCode::BadRequest, "the game is still running", seq);
            }
            match g.save_replay(&app.data, now_secs()) {
                Ok(name) => vec![with_seq(json!({"type": "replay_saved", "name": name}), seq)],
                Err(message) => refuse(ErrorCode::BadPath, message, seq),
            }
        }
        Request::Watch { name, .. } => {
            if name.is_empty() || name.len() > 255 || name.contains(['/', '\\', '\0']) {
                return refuse(
                    ErrorCode::BadPath,
                    "a replay is named by its file name",
                    seq,
                );
            }
            match open_replay(&app.data, &name) {
                Ok(replay) => {
                    let mut playback = Playback::new(replay);
                    playback.advance_to(0);
                    conn.current = Current::Watch(Arc::new(Mutex::new(Watch { name, playback })));
                    vec![conn.state(seq, true)]
                }
                Err(OpenReplayError::NotFound) => {
                    refuse(ErrorCode::NotFound, "no such replay", seq)
                }
                Err(e) => refuse(ErrorCode::BadRequest, e.to_string(), seq),
            }
        }
    }
}

/// The `replays` reply: the saved replays, newest first.
fn replay_list(app: &App, seq: Option<u64>) -> String {
    let files = saved_replays(&app.data);
    let list: Vec<Value> = files
        .iter()
        .take(MAX_LISTED)
        .map(|f| {
            let name = file_name(&f.path);
            match &f.replay {
                Ok(r) => json!({
                    "name": name,
                    "mode": r.mode.name(),
                    "title": mode_title(r.mode),
                    "score": r.result.score,
                    "lines": r.result.lines,
                    "pieces": r.result.pieces,
                    "time_ms": r.end_ms,
                    "date": format_date(f.modified),
                }),
                Err(e) => json!({"name": name, "error": e, "date": format_date(f.modified)}),
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
        let mut game = TetrisSession::new(Mode::Sprint, 7, &TetrisSettings::default());
        let before = Probe::of(game.game());
        game.input(Action::HardDrop, Edge::Press, 10);
        game.input(Action::HardDrop, Edge::Release, 20);
        let (events, _) = before.events(&Probe::of(game.game()));
        assert_eq!(events, vec!["lock"]);
        assert_eq!(game.game().pieces(), 1);
    }

    #[test]
    fn the_state_carries_the_live_stats() {
        let mut session = TetrisSession::new(Mode::Sprint, 7, &TetrisSettings::default());
        // Right then left: back at spawn in two presses, a fault.
        for action in [Action::Right, Action::Left, Action::HardDrop] {
            session.input(action, Edge::Press, 1_000);
            session.input(action, Edge::Release, 1_000);
        }
        let view = StatsView::from(session.stats());
        let json = serde_json::to_value(&view).unwrap_or_default();
        assert_eq!(json["faults"], 1);
        assert_eq!(json["finesse"], 0.0);
        assert_eq!(json["kpp"], 3.0);
        assert_eq!(json["pps"], 1.0);
        assert_eq!(json["fault"], true);
        assert_eq!(json["splits"], serde_json::json!([]));
        assert!(
            json.get("apm").is_none(),
            "no attack outside versus: {json}"
        );
    }
}
