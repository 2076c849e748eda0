//! Tetris versus rooms on the Tetris socket: `room_create` opens a [`Room`] (the session
//! that runs the game) and seats the asking page, `room_join` seats a second page or
//! lets it watch, and while a connection is in a room its `input` requests go to its
//! seat. Each room has a task that runs the room's clock and pushes its `room_state` to
//! every page in it when it changed. The clock ticks every [`MIN_PUSH_GAP`] (about 30
//! times a second) while a game runs and every [`PUSH_EVERY`] otherwise; a change wakes
//! it sooner, but never more often than [`MIN_PUSH_GAP`]. The task drops the room as soon
//! as nobody is in it (a seat's grace over) or once it has been over for [`ROOM_IDLE`].
//! Requests and messages are in `docs/web-protocol.md`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ::tetris::versus::{Outcome, Player};
use ::tetris::{Action, Edge};
use serde::Serialize;
use serde_json::json;
use tokio::sync::{Notify, mpsc};

use super::versus::{SideView, side_view};
use crate::session::tetris::random_seed;
use crate::session::tetris::room::{Finish, Joined, MAX_TOKEN_LEN, Phase, Room, RoomError};
use crate::store::settings::{self, TetrisSettings};
use crate::web::App;
use crate::web::protocol::{ErrorCode, Refusal, with_seq};
use crate::web::sessions::{RandomIds, lock};
use crate::web::socket::{Replies, refuse};

/// Most rooms open at once on a server.
pub const MAX_ROOMS: usize = 32;
/// A room id's length: 32 hex digits (128 random bits).
pub const ROOM_ID_LEN: usize = 32;
/// How often a running game ticks, and the least time between two pushes.
pub const MIN_PUSH_GAP: Duration = Duration::from_millis(33);
/// How often a room whose game does not run (waiting, paused, over) ticks.
pub const PUSH_EVERY: Duration = Duration::from_millis(250);
/// A room whose game is over is dropped after this long (an empty one at once).
pub const ROOM_IDLE: Duration = Duration::from_secs(5 * 60);

/// The rooms of a server.
pub struct Rooms {
    rooms: Mutex<HashMap<String, Arc<RoomEntry>>>,
    ids: RandomIds,
    subscribers: AtomicU64,
}

impl Default for Rooms {
    fn default() -> Self {
        Rooms {
            rooms: Mutex::new(HashMap::new()),
            ids: RandomIds::default(),
            subscribers: AtomicU64::new(0),
        }
    }
}

impl Rooms {
    /// Rooms open now.
    pub fn len(&self) -> usize {
        lock(&self.rooms).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn get(&self, id: &str) -> Option<Arc<RoomEntry>> {
        lock(&self.rooms).get(id).cloned()
    }

    fn remove(&self, id: &str) {
        lock(&self.rooms).remove(id);
    }
}

/// One open room: the session, its clock, the pages to push to.
pub struct RoomEntry {
    id: String,
    room: Mutex<Room>,
    started: Instant,
    /// Whether the ghost piece is drawn (the server's setting).
    ghost: bool,
    pages: Mutex<Vec<Page>>,
    /// Something changed: push soon.
    changed: Notify,
    /// The room's task dropped it: nobody may join any more.
    closed: AtomicBool,
}

/// A page to push a room's state to.
struct Page {
    id: u64,
    sender: mpsc::UnboundedSender<String>,
}

impl RoomEntry {
    /// The room's clock: milliseconds since it was opened.
    fn now_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn subscribe(&self, id: u64, sender: &mpsc::UnboundedSender<String>) {
        lock(&self.pages).push(Page {
            id,
            sender: sender.clone(),
        });
    }

    fn unsubscribe(&self, id: u64) {
        lock(&self.pages).retain(|page| page.id != id);
    }
}

/// What a connection is in a room.
#[derive(Clone)]
enum Role {
    Seat {
        player: Player,
        token: String,
        connection: u64,
    },
    Spectator,
}

/// A connection's place in a room.
#[derive(Clone)]
pub struct Member {
    entry: Arc<RoomEntry>,
    role: Role,
    /// This connection among the room's pages.
    page: u64,
}

impl Member {
    /// The page went away (closed, or turned to another game): a seat waits for a
    /// reload through its grace, a spectator's place is freed.
    pub fn detach(&self) {
        self.entry.unsubscribe(self.page);
        let now = self.entry.now_ms();
        {
            let mut room = lock(&self.entry.room);
            match &self.role {
                Role::Seat {
                    player, connection, ..
                } => room.disconnect(*player, *connection, now),
                Role::Spectator => room.spectator_left(),
            }
        }
        self.entry.changed.notify_one();
    }
}

/// A room request from the page.
pub enum RoomRequest<'a> {
    Create {
        name: Option<&'a str>,
        seed: Option<u64>,
    },
    Join {
        room: &'a str,
        token: Option<&'a str>,
        name: Option<&'a str>,
    },
    Leave,
    Rematch,
    Rename {
        name: &'a str,
    },
    Input {
        action: Action,
        edge: Edge,
    },
}

/// Answers a room request; `member` is the connection's place in a room (changed by
/// creating, joining and leaving).
pub fn handle(
    app: &Arc<App>,
    member: &mut Option<Member>,
    request: RoomRequest<'_>,
    sender: &mpsc::UnboundedSender<String>,
    seq: Option<u64>,
) -> Replies {
    match request {
        RoomRequest::Create { name, seed } => {
            if let Some(old) = member.take() {
                old.detach();
            }
            create(app, member, name, seed, sender, seq)
        }
        RoomRequest::Join { room, token, name } => {
            if room.len() != ROOM_ID_LEN || !room.bytes().all(|b| b.is_ascii_hexdigit()) {
                return refuse(
                    ErrorCode::BadRequest,
                    format!("a room id is {ROOM_ID_LEN} hex digits (the end of the room's link)"),
                    seq,
                );
            }
            if token.is_some_and(|t| t.len() > MAX_TOKEN_LEN) {
                return refuse(
                    ErrorCode::BadRequest,
                    format!("a seat token is at most {MAX_TOKEN_LEN} characters"),
                    seq,
                );
            }
            let Some(entry) = app.rooms.get(room) else {
                return refuse(
                    ErrorCode::NotFound,
                    "no such room: it ended, or the link is not complete",
                    seq,
                );
            };
            // Joining the room this connection is in again (a retry) keeps one place.
            if let Some(old) = member.take() {
                old.detach();
            }
            join(app, member, entry, token, name, sender, seq)
        }
        RoomRequest::Leave => {
            let Some(old) = member.take() else {
                return refuse(ErrorCode::NoGame, "not in a room", seq);
            };
            old.entry.unsubscribe(old.page);
            match &old.role {
                Role::Seat { token, .. } => {
                    let now = old.entry.now_ms();
                    let _ = lock(&old.entry.room).leave(token, now);
                }
                Role::Spectator => lock(&old.entry.room).spectator_left(),
            }
            old.entry.changed.notify_one();
            vec![with_seq(json!({"type": "room_left"}), seq)]
        }
        RoomRequest::Rematch => {
            let Some(m) = member.as_ref() else {
                return refuse(ErrorCode::NoGame, "not in a room", seq);
            };
            let Role::Seat { token, .. } = &m.role else {
                return refused(RoomError::NotSeated, seq);
            };
            let now = m.entry.now_ms();
            let asked = lock(&m.entry.room).rematch(token, now);
            m.entry.changed.notify_one();
            match asked {
                Ok(()) => vec![with_seq(json!({"type": "room_rematch"}), seq)],
                Err(e) => refused(e, seq),
            }
        }
        RoomRequest::Rename { name } => {
            let Some(m) = member.as_ref() else {
                return refuse(ErrorCode::NoGame, "not in a room", seq);
            };
            let Role::Seat { token, .. } = &m.role else {
                return refused(RoomError::NotSeated, seq);
            };
            let renamed = lock(&m.entry.room).rename(token, name);
            m.entry.changed.notify_one();
            match renamed {
                Ok(_) => vec![with_seq(json!({"type": "room_renamed"}), seq)],
                Err(e) => refused(e, seq),
            }
        }
        RoomRequest::Input { action, edge } => {
            let Some(m) = member.as_ref() else {
                return refuse(ErrorCode::NoGame, "not in a room", seq);
            };
            let Role::Seat { token, .. } = &m.role else {
                return refused(RoomError::NotSeated, seq);
            };
            // The room's clock stamps the key: the page's time is not trusted.
            let now = m.entry.now_ms();
            let played = lock(&m.entry.room).input(token, action, edge, now);
            m.entry.changed.notify_one();
            match played {
                Ok(_) => match seq {
                    Some(_) => vec![with_seq(json!({"type": "room_input"}), seq)],
                    None => Vec::new(),
                },
                Err(e) => refused(e, seq),
            }
        }
    }
}

/// A room's refusal as an error reply.
fn refused(error: RoomError, seq: Option<u64>) -> Replies {
    let code = match error {
        RoomError::NotSeated => ErrorCode::NotSeated,
        RoomError::Full => ErrorCode::Busy,
        RoomError::NoRematch => ErrorCode::BadRequest,
    };
    refuse(code, error.to_string(), seq)
}

fn create(
    app: &Arc<App>,
    member: &mut Option<Member>,
    name: Option<&str>,
    seed: Option<u64>,
    sender: &mpsc::UnboundedSender<String>,
    seq: Option<u64>,
) -> Replies {
    // The room's task needs the server's runtime (a harness calling handlers has none).
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return refuse(
            ErrorCode::Internal,
            "rooms run only inside `ludus serve`",
            seq,
        );
    };
    let (settings, _) = settings::load(&app.data);
    let entry = {
        let mut rooms = lock(&app.rooms.rooms);
        if rooms.len() >= MAX_ROOMS {
            return refuse(
                ErrorCode::Busy,
                format!("the server has {MAX_ROOMS} rooms open, the most it keeps: try later"),
                seq,
            );
        }
        let id = app.rooms.ids.next();
        let entry = Arc::new(RoomEntry {
            id: id.clone(),
            room: Mutex::new(Room::new(
                seed.unwrap_or_else(random_seed),
                settings.tetris.handling,
            )),
            started: Instant::now(),
            ghost: settings.tetris.ghost,
            pages: Mutex::new(Vec::new()),
            changed: Notify::new(),
            closed: AtomicBool::new(false),
        });
        rooms.insert(id, Arc::clone(&entry));
        entry
    };
    let replies = join_with(
        app,
        member,
        Arc::clone(&entry),
        None,
        name,
        &settings.tetris,
        sender,
        seq,
    );
    // After the first join: the task drops a room with nobody in it.
    runtime.spawn(run(Arc::clone(app), entry));
    replies
}

fn join(
    app: &Arc<App>,
    member: &mut Option<Member>,
    entry: Arc<RoomEntry>,
    token: Option<&str>,
    name: Option<&str>,
    sender: &mpsc::UnboundedSender<String>,
    seq: Option<u64>,
) -> Replies {
    let (settings, _) = settings::load(&app.data);
    join_with(
        app,
        member,
        entry,
        token,
        name,
        &settings.tetris,
        sender,
        seq,
    )
}

#[allow(clippy::too_many_arguments)]
fn join_with(
    app: &Arc<App>,
    member: &mut Option<Member>,
    entry: Arc<RoomEntry>,
    token: Option<&str>,
    name: Option<&str>,
    settings: &TetrisSettings,
    sender: &mpsc::UnboundedSender<String>,
    seq: Option<u64>,
) -> Replies {
    let now = entry.now_ms();
    let joined = {
        let mut room = lock(&entry.room);
        if entry.closed.load(Ordering::Relaxed) {
            return refuse(ErrorCode::NotFound, "no such room: it has just closed", seq);
        }
        room.join(token, app.rooms.ids.next(), name, now)
    };
    let joined = match joined {
        Ok(joined) => joined,
        Err(e) => return refused(e, seq),
    };
    let page = app.rooms.subscribers.fetch_add(1, Ordering::Relaxed);
    entry.subscribe(page, sender);
    let (role, reply) = match joined {
        Joined::Player {
            seat,
            token,
            connection,
        } => {
            let reply = json!({
                "type": "room",
                "room": entry.id,
                "role": "player",
                "seat": seat.index() + 1,
                "token": token,
                "link": link(&entry.id),
                "keys": &settings.keys,
                "das": settings.handling.das_ms,
                "arr": settings.handling.arr_ms,
            });
            let role = Role::Seat {
                player: seat,
                token,
                connection,
            };
            (role, reply)
        }
        Joined::Spectator => (
            Role::Spectator,
            json!({
                "type": "room",
                "room": entry.id,
                "role": "spectator",
                "seat": null,
                "token": null,
                "link": link(&entry.id),
            }),
        ),
    };
    let state = state(&entry);
    *member = Some(Member {
        entry: Arc::clone(&entry),
        role,
        page,
    });
    entry.changed.notify_one();
    vec![with_seq(reply, seq), state]
}

/// The page that opens a room.
fn link(id: &str) -> String {
    format!("/tetris.html?room={id}")
}

/// The room's task: runs its clock (every [`MIN_PUSH_GAP`] while a game runs, every
/// [`PUSH_EVERY`] else, sooner after a change), pushes its state when it changed (never
/// twice within [`MIN_PUSH_GAP`]), and drops the room once empty, or after [`ROOM_IDLE`]
/// over.
async fn run(app: Arc<App>, entry: Arc<RoomEntry>) {
    let mut last = String::new();
    let mut idle_since: Option<Instant> = None;
    loop {
        let pushed = Instant::now();
        let now = entry.now_ms();
        let (close, running) = {
            let mut room = lock(&entry.room);
            room.tick(now);
            let view = room.view(now);
            let running =
                matches!(view.phase, Phase::Playing | Phase::Countdown { .. }) && !view.paused;
            if room.phase() == Phase::Finished {
                idle_since.get_or_insert(pushed);
            } else {
                idle_since = None;
            }
            let close =
                room.is_empty() || idle_since.is_some_and(|since| since.elapsed() >= ROOM_IDLE);
            // Under the room's lock: a join that found the room before it left the list
            // sees it closed.
            if close {
                entry.closed.store(true, Ordering::Relaxed);
            }
            (close, running)
        };
        let text = state(&entry);
        if text != last {
            lock(&entry.pages).retain(|page| page.sender.send(text.clone()).is_ok());
            last = text;
        }
        if close {
            app.rooms.remove(&entry.id);
            let closed = json!({"type": "room_closed", "room": entry.id}).to_string();
            for page in lock(&entry.pages).drain(..) {
                let _ = page.sender.send(closed.clone());
            }
            return;
        }
        tokio::select! {
            () = entry.changed.notified() => {}
            () = tokio::time::sleep(if running { MIN_PUSH_GAP } else { PUSH_EVERY }) => {}
        }
        let gap = pushed.elapsed();
        if gap < MIN_PUSH_GAP {
            tokio::time::sleep(MIN_PUSH_GAP - gap).await;
        }
    }
}

/// The `room_state` message (see `docs/web-protocol.md`).
#[derive(Serialize)]
struct RoomStateView<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    room: &'a str,
    /// `waiting`, `countdown`, `playing`, `finished`.
    phase: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    countdown_ms: Option<u64>,
    /// The game waits for a player who went away.
    paused: bool,
    seats: [Option<SeatJson>; 2],
    spectators: usize,
    games: u32,
    /// The winning seat (1 or 2), once over; `null` for a draw or no winner.
    winner: Option<usize>,
    /// How it ended: `topped out`, `left the room`, `stopped`, `draw`.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    /// Game time in ms.
    t: u64,
    sides: [SideView; 2],
}

#[derive(Serialize)]
struct SeatJson {
    name: String,
    connected: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    grace_left_ms: Option<u64>,
    rematch: bool,
}

/// The room's state as JSON text.
fn state(entry: &RoomEntry) -> String {
    let now = entry.now_ms();
    let room = lock(&entry.room);
    let view = room.view(now);
    let names = view
        .seats
        .each_ref()
        .map(|s| s.as_ref().map(|s| s.name.clone()));
    let session = view.session;
    let sides = Player::BOTH.map(|p| {
        let label = names[p.index()]
            .clone()
            .unwrap_or_else(|| format!("Player {} (free seat)", p.index() + 1));
        let who = match p {
            Player::One => "player1",
            Player::Two => "player2",
        };
        side_view(session, p, who, label, entry.ghost)
    });
    let outcome = view.finish.and_then(Finish::outcome);
    let text = RoomStateView {
        kind: "room_state",
        room: &entry.id,
        phase: match view.phase {
            Phase::Waiting => "waiting",
            Phase::Countdown { .. } => "countdown",
            Phase::Playing => "playing",
            Phase::Finished => "finished",
        },
        countdown_ms: view.countdown_ms,
        paused: view.paused,
        seats: view.seats.map(|s| {
            s.map(|s| SeatJson {
                name: s.name,
                connected: s.connected,
                grace_left_ms: s.grace_left_ms,
                rematch: s.rematch,
            })
        }),
        spectators: view.spectators,
        games: view.games,
        winner: match outcome {
            Some(Outcome::Winner(p)) => Some(p.index() + 1),
            _ => None,
        },
        reason: view.finish.map(|f| match f.outcome() {
            Some(Outcome::Draw) => "draw",
            _ => f.reason(),
        }),
        t: session.time_ms(),
        sides,
    };
    serde_json::to_string(&text).unwrap_or_else(|e| {
        Refusal::new(ErrorCode::Internal, format!("room state: {e}"), None).to_json()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::DataDir;

    #[test]
    fn ids_are_long_hex_and_never_repeat() {
        let ids = RandomIds::default();
        let a = ids.next();
        let b = ids.next();
        assert_eq!(a.len(), ROOM_ID_LEN);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert!(b.len() <= MAX_TOKEN_LEN);
        assert_ne!(a, b);
        // Another server's ids are another sequence.
        assert_ne!(RandomIds::default().next(), a);
    }

    #[test]
    fn outside_a_runtime_a_room_is_refused_not_a_panic() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let app = Arc::new(App::new(
            DataDir::at(dir.path()),
            std::net::Ipv4Addr::LOCALHOST.into(),
            crate::web::Limits::default(),
        ));
        let (sender, _results) = mpsc::unbounded_channel();
        let mut member = None;
        let create = RoomRequest::Create {
            name: None,
            seed: None,
        };
        let replies = handle(&app, &mut member, create, &sender, Some(1));
        assert!(replies[0].contains("internal"), "{replies:?}");
        assert!(member.is_none());
        assert!(app.rooms.is_empty());
        let input = RoomRequest::Input {
            action: Action::Left,
            edge: Edge::Press,
        };
        let replies = handle(&app, &mut member, input, &sender, None);
        assert!(replies[0].contains("no_game"), "{replies:?}");
    }
}
