//! The connection loop that the Sokoban and Xiangqi sockets share: read a
//! message, answer it (inline when it is quick, on the blocking pool when it
//! may touch files or set up a search), and pass on what background work
//! (solver, engine) sends meanwhile. A message never ends the connection:
//! whatever it holds, an answer goes back.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::WebSocketUpgrade;
use axum::extract::ws::{Message, WebSocket};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::App;
use super::protocol::{ErrorCode, Refusal};
use super::sessions::{GameKey, Owners};

/// What a request handler sends back: reply texts, in order.
pub type Replies = Vec<String>;

/// One error reply.
pub fn refuse(code: ErrorCode, message: impl Into<String>, seq: Option<u64>) -> Replies {
    vec![Refusal::new(code, message, seq).to_json()]
}

/// Whether a WebSocket request comes from one of our own pages: browsers
/// send `Origin`, and a page of another site must not play (or write files)
/// through a server on the player's loopback.
pub fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true; // not a browser: tools and tests
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin = origin.to_str().ok().and_then(|o| o.split_once("://"));
    matches!((origin, host), (Some((_, o)), Some(h)) if o == h)
}

/// Upgrades a request from one of our pages to a game socket served by
/// `connection`; other sites' pages are refused.
pub fn upgrade<F, Fut>(
    app: Arc<App>,
    headers: &HeaderMap,
    upgrade: WebSocketUpgrade,
    connection: F,
) -> Response
where
    F: FnOnce(WebSocket, Arc<App>) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    if !same_origin(headers) {
        return (StatusCode::FORBIDDEN, "cross-origin WebSocket refused\n").into_response();
    }
    // Frames up to 1 MiB are read so that the protocol can answer "too large"
    // (64 KiB) itself and keep the connection; larger ones end it.
    upgrade
        .max_message_size(1 << 20)
        .max_frame_size(1 << 20)
        .on_upgrade(move |socket| connection(socket, app))
}

/// How one game's protocol answers requests on a connection whose state
/// (the game it plays) is `Self`.
pub trait GameConnection: Clone + Default + Send + 'static {
    type Request: Send + 'static;

    /// Reads one text message, or says why it is not a request.
    fn parse(text: &str) -> Result<Self::Request, Refusal>;
    /// Whether the request is answered inline: no files, no search set-up.
    fn quick(request: &Self::Request) -> bool;
    fn seq(request: &Self::Request) -> Option<u64>;
    /// Answers one request; background work sends later replies to `sender`.
    fn handle(
        &mut self,
        app: &Arc<App>,
        request: Self::Request,
        sender: &mpsc::UnboundedSender<String>,
    ) -> Replies;
    /// The page went away: the game stays for a reload, its thinking stops.
    fn closed(&self);
    /// The kept game this connection plays, if any (see [`Owners`]).
    fn game(&self) -> Option<GameKey>;
}

/// The message a connection gets when another page opened its game.
pub const TAKEN_OVER: &str =
    r#"{"type":"taken_over","message":"This game is now open in another tab or window."}"#;

/// When a silent socket is pinged and then closed (see
/// [`super::SOCKET_IDLE_TIMEOUT`]): anything the page sends, pongs included,
/// starts the wait again.
pub struct Silence {
    idle: Duration,
    heard: Instant,
    pinged: bool,
}

impl Silence {
    pub fn new(idle: Duration) -> Silence {
        Silence {
            idle,
            heard: Instant::now(),
            pinged: false,
        }
    }

    /// The page sent something.
    pub fn heard(&mut self) {
        self.heard = Instant::now();
        self.pinged = false;
    }

    /// When to act: ping after half the idle time, give up at its end.
    pub fn deadline(&self) -> Instant {
        self.heard
            + if self.pinged {
                self.idle
            } else {
                self.idle / 2
            }
    }

    /// The deadline passed: pings the page once (true: wait on), or says
    /// that the socket is to be closed (false).
    pub async fn lapsed(&mut self, socket: &mut WebSocket) -> bool {
        if self.pinged {
            return false;
        }
        self.pinged = true;
        socket.send(Message::Ping(Default::default())).await.is_ok()
    }
}

/// The next message from the page, or `None` once it went away or stayed
/// silent too long.
pub async fn next_message(
    socket: &mut WebSocket,
    silence: &mut Silence,
) -> Option<Result<Message, axum::Error>> {
    loop {
        tokio::select! {
            message = socket.recv() => {
                silence.heard();
                return message;
            }
            () = tokio::time::sleep_until(silence.deadline()) => {
                if !silence.lapsed(socket).await {
                    return None;
                }
            }
        }
    }
}

/// Serves one WebSocket until the page goes away.
pub async fn serve<C: GameConnection>(mut socket: WebSocket, app: Arc<App>) {
    let (sender, mut results) = mpsc::unbounded_channel::<String>();
    let mut current = C::default();
    let mut silence = Silence::new(app.limits.socket_idle);
    let mut player = Player::new(&app.owners);
    loop {
        let replies = tokio::select! {
            message = next_message(&mut socket, &mut silence) => match message {
                Some(Ok(Message::Text(text))) => match C::parse(text.as_str()) {
                    Ok(request) => {
                        let (replies, now) = dispatch(&app, current, request, &sender).await;
                        current = now;
                        player.plays(current.game());
                        replies
                    }
                    Err(refusal) => vec![refusal.to_json()],
                },
                Some(Ok(Message::Binary(_))) => {
                    refuse(ErrorCode::Binary, "send JSON text messages", None)
                }
                // Pings are answered by axum; pongs need nothing.
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => Vec::new(),
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
            },
            Some(text) = results.recv() => vec![text],
            Some(()) = player.taken.recv() => {
                // Another page plays the game now: let go of it without
                // stopping what that page started.
                current = C::default();
                player.plays(None);
                vec![TAKEN_OVER.to_string()]
            }
        };
        for reply in replies {
            if socket.send(Message::Text(reply.into())).await.is_err() {
                player.plays(None);
                current.closed();
                return;
            }
        }
    }
    player.plays(None);
    current.closed();
}

/// One connection's claim on the game it plays.
struct Player<'a> {
    owners: &'a Owners,
    connection: u64,
    game: Option<GameKey>,
    notice: mpsc::UnboundedSender<()>,
    taken: mpsc::UnboundedReceiver<()>,
}

impl<'a> Player<'a> {
    fn new(owners: &'a Owners) -> Player<'a> {
        let (notice, taken) = mpsc::unbounded_channel();
        Player {
            owners,
            connection: owners.connection(),
            game: None,
            notice,
            taken,
        }
    }

    /// The connection now plays `game` (a new game, a resume, or none).
    fn plays(&mut self, game: Option<GameKey>) {
        if game == self.game {
            return;
        }
        if let Some(old) = self.game {
            self.owners.release(old, self.connection);
        }
        if let Some(new) = game {
            self.owners.claim(new, self.connection, self.notice.clone());
        }
        self.game = game;
    }
}

/// Handles one request: quick ones inline, the others on the blocking pool
/// so that they never stall other connections' moves.
async fn dispatch<C: GameConnection>(
    app: &Arc<App>,
    mut current: C,
    request: C::Request,
    sender: &mpsc::UnboundedSender<String>,
) -> (Replies, C) {
    if C::quick(&request) {
        let replies = current.handle(app, request, sender);
        return (replies, current);
    }
    let (app2, sender2) = (Arc::clone(app), sender.clone());
    let fallback = current.clone();
    let seq = C::seq(&request);
    let job = tokio::task::spawn_blocking(move || {
        let replies = current.handle(&app2, request, &sender2);
        (replies, current)
    });
    match job.await {
        Ok(done) => done,
        Err(e) => (
            refuse(ErrorCode::Internal, format!("request failed: {e}"), seq),
            fallback,
        ),
    }
}
