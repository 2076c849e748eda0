//! `ludus serve`: the games in the browser. An axum server on tokio serves
//! the embedded pages ([`assets`]) and one WebSocket per game
//! ([`sokoban`], messages in [`protocol`]); games live on the server in
//! [`sessions`] and use the same data dir and store as the terminal UI.

pub mod assets;
pub mod protocol;
pub mod sessions;
pub mod socket;
pub mod sokoban;
pub mod tetris;
pub mod xiangqi;

use std::net::{IpAddr, SocketAddr};
use std::process::ExitCode;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use anyhow::Context;
use axum::Router;
use axum::extract::{Request, State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::get;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use serde_json::{Value, json};

use crate::session::sokoban::library::{LevelSet, registry};
use crate::session::sokoban::load_progress;
use crate::store::{DataDir, Warning};
use sessions::{Owners, Sessions};

/// How long a client may take to send a request's line and headers; a
/// connection still sending them then is closed (slow or half-sent requests
/// would otherwise hold it open for ever).
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a game socket may stay silent: after half of it the server sends
/// a WebSocket ping (browsers answer it by themselves), and a socket that has
/// sent nothing, not even that pong, by the end is closed (pages reconnect).
pub const SOCKET_IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// Most connections served at once; more are closed as they are accepted.
pub const MAX_CONNECTIONS: usize = 512;
/// Estimated bytes that one kept Sokoban game may hold (an uploaded level
/// set and the level being played): a larger upload is refused.
pub const SESSION_BYTES: usize = 8 << 20;
/// Estimated bytes that all kept Sokoban games may hold together: the longest
/// idle are dropped first to make room for a new one.
pub const TOTAL_SESSION_BYTES: usize = 256 << 20;

/// The server's limits; tests shorten them through hidden `serve` options.
#[derive(Debug, Clone)]
pub struct Limits {
    /// See [`HEADER_READ_TIMEOUT`].
    pub header_read: Duration,
    /// See [`SOCKET_IDLE_TIMEOUT`].
    pub socket_idle: Duration,
    /// See [`SESSION_BYTES`].
    pub session_bytes: usize,
    /// See [`TOTAL_SESSION_BYTES`].
    pub total_session_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_read: HEADER_READ_TIMEOUT,
            socket_idle: SOCKET_IDLE_TIMEOUT,
            session_bytes: SESSION_BYTES,
            total_session_bytes: TOTAL_SESSION_BYTES,
        }
    }
}

/// Arguments of `ludus serve`.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on. Anything but loopback lets other machines play (and write your data).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// Port to listen on; 0 picks a free one (the URL printed says which).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Open the page in the system browser.
    #[arg(long)]
    pub open: bool,
    /// Milliseconds a request's headers may take to arrive (tests shorten it).
    #[arg(long, hide = true, default_value_t = HEADER_READ_TIMEOUT.as_millis() as u64)]
    pub header_timeout_ms: u64,
    /// Milliseconds a game socket may stay silent (tests shorten it).
    #[arg(long, hide = true, default_value_t = SOCKET_IDLE_TIMEOUT.as_millis() as u64)]
    pub idle_timeout_ms: u64,
    /// Estimated bytes one kept Sokoban game may hold (tests lower it).
    #[arg(long, hide = true, default_value_t = SESSION_BYTES)]
    pub session_bytes: usize,
    /// Estimated bytes all kept Sokoban games may hold (tests lower it).
    #[arg(long, hide = true, default_value_t = TOTAL_SESSION_BYTES)]
    pub total_session_bytes: usize,
}

impl ServeArgs {
    fn limits(&self) -> Limits {
        Limits {
            header_read: Duration::from_millis(self.header_timeout_ms.max(1)),
            socket_idle: Duration::from_millis(self.idle_timeout_ms.max(2)),
            session_bytes: self.session_bytes.min(self.total_session_bytes),
            total_session_bytes: self.total_session_bytes,
        }
    }
}

/// What every request handler shares.
pub struct App {
    pub data: DataDir,
    /// The collection registry, reloaded when the level browser asks.
    sets: RwLock<Vec<Arc<LevelSet>>>,
    pub sokoban: Sessions<sokoban::SokobanGame>,
    pub xiangqi: Sessions<xiangqi::XiangqiGame>,
    pub tetris: Sessions<crate::session::tetris::TetrisSession>,
    /// Tetris versus rooms for two people (and spectators).
    pub rooms: tetris::room::Rooms,
    /// Which connection plays each kept game (a second tab takes it over).
    pub owners: Owners,
    /// One permit per core: solver runs beyond that are refused, not queued.
    pub solver_slots: Arc<tokio::sync::Semaphore>,
    /// The address given to `--host`: a name for this server besides loopback.
    pub listen: IpAddr,
    pub limits: Limits,
}

impl App {
    /// The server's state for the data dir `data`, listening on `listen`.
    pub fn new(data: DataDir, listen: IpAddr, limits: Limits) -> App {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let app = App {
            data,
            sets: RwLock::new(Vec::new()),
            sokoban: Sessions::with_budget(limits.total_session_bytes),
            xiangqi: Sessions::default(),
            tetris: Sessions::default(),
            rooms: tetris::room::Rooms::default(),
            owners: Owners::default(),
            solver_slots: Arc::new(tokio::sync::Semaphore::new(cores)),
            listen,
            limits,
        };
        app.reload_sets();
        app
    }

    /// Reports a data file that had to be moved aside: a line on the
    /// server's stderr, and the text for the page to show (once: the file is
    /// gone from its place afterwards).
    pub fn report(&self, warning: Option<Warning>) -> Option<String> {
        let text = warning?.to_string();
        eprintln!("ludus: warning: {text}");
        Some(text)
    }

    /// Rereads the registry (the built-in set and the levels folder); returns
    /// the files that could not be read.
    pub fn reload_sets(&self) -> Vec<String> {
        let (sets, problems) = registry(&self.data, &[]);
        let sets = sets.into_iter().map(Arc::new).collect();
        match self.sets.write() {
            Ok(mut guard) => *guard = sets,
            Err(poisoned) => *poisoned.into_inner() = sets,
        }
        problems
    }

    pub fn sets(&self) -> Vec<Arc<LevelSet>> {
        match self.sets.read() {
            Ok(guard) => guard.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    pub fn set(&self, index: usize) -> Option<Arc<LevelSet>> {
        self.sets().get(index).cloned()
    }
}

/// The routes: pages and assets, the level list, the progress summary, the game socket.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/ws/sokoban", get(sokoban_socket))
        .route("/ws/xiangqi", get(xiangqi_socket))
        .route("/ws/tetris", get(tetris_socket))
        .route("/api/sokoban/collections", get(collections))
        .route("/api/sokoban/collections/{index}", get(collection))
        .route("/api/summary", get(summary))
        .route(
            "/api/sokoban/packs",
            axum::routing::post(install_pack).layer(axum::extract::DefaultBodyLimit::max(
                crate::session::sokoban::pack::MAX_PACK_ZIP_BYTES as usize,
            )),
        )
        .route("/sokoban/packs/{folder}/skin/{file}", get(skin_image))
        .fallback(assets::serve)
        .layer(middleware::from_fn_with_state(Arc::clone(&app), guard))
        .with_state(app)
}

/// Whether `host` (a `Host` header: a name or address, maybe with a port)
/// names this server: loopback names, or the address it was told to listen
/// on (any address when it listens on all). A page of another site whose
/// name was made to resolve to 127.0.0.1 (DNS rebinding) sends its own name.
fn known_host(host: &str, listen: IpAddr) -> bool {
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split_once(']').map_or(rest, |(inside, _)| inside),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    if name.eq_ignore_ascii_case("localhost") {
        return true;
    }
    match name.parse::<IpAddr>() {
        Ok(ip) => ip.is_loopback() || ip == listen || listen.is_unspecified(),
        Err(_) => false,
    }
}

/// Every route: requests naming another host are refused, and so are
/// requests sent by another site's page (an `Origin` that is not this host).
async fn guard(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok());
    if !host.is_some_and(|h| known_host(h, app.listen)) {
        return forbidden("this server answers only to its own address (loopback, or --host)\n");
    }
    if !socket::same_origin(request.headers()) {
        return forbidden("cross-origin request refused\n");
    }
    next.run(request).await
}

/// A 403 that also ends the connection: nothing more is served on it.
fn forbidden(text: &'static str) -> Response {
    let headers = [(header::CONNECTION, "close")];
    (StatusCode::FORBIDDEN, headers, text).into_response()
}

async fn sokoban_socket(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    socket::upgrade(app, &headers, upgrade, socket::serve::<sokoban::Current>)
}

async fn tetris_socket(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    socket::upgrade(app, &headers, upgrade, socket::serve::<tetris::Conn>)
}

async fn xiangqi_socket(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    socket::upgrade(app, &headers, upgrade, socket::serve::<xiangqi::Current>)
}

async fn collections(State(app): State<Arc<App>>) -> Response {
    let answer = tokio::task::spawn_blocking(move || sokoban::collections(&app)).await;
    match answer {
        Ok(value) => Json(value).into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

/// One collection's levels (`/api/sokoban/collections/<index>`, an index of
/// the last list), or 404 `{ "error" }` saying there is no such collection.
async fn collection(
    State(app): State<Arc<App>>,
    axum::extract::Path(index): axum::extract::Path<String>,
) -> Response {
    let count = app.sets().len();
    let Some(index) = index.parse::<usize>().ok().filter(|&i| i < count) else {
        let error = format!(
            "no collection {}: the list has {count}, numbered from 0",
            index.chars().take(20).collect::<String>()
        );
        return (StatusCode::NOT_FOUND, Json(json!({ "error": error }))).into_response();
    };
    match tokio::task::spawn_blocking(move || sokoban::collection(&app, index)).await {
        Ok(Some(value)) => Json(value).into_response(),
        Ok(None) => (
            StatusCode::NOT_FOUND,
            Json(json!({ "error": format!("no collection {index}: the list changed, reload it") })),
        )
            .into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

/// Installs a map pack sent by the page (the `.zip`'s bytes; its file name
/// in `?name=`): `{ "name", "collection" }`, or 400 `{ "error" }` naming the entry.
async fn install_pack(
    State(app): State<Arc<App>>,
    query: axum::extract::Query<PackQuery>,
    body: axum::body::Bytes,
) -> Response {
    let name = query.0.name.unwrap_or_default();
    let answer =
        tokio::task::spawn_blocking(move || sokoban::install_pack(&app, &body, &name)).await;
    match answer {
        Ok(Ok(value)) => Json(value).into_response(),
        Ok(Err(error)) => {
            (StatusCode::BAD_REQUEST, Json(json!({ "error": error }))).into_response()
        }
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

#[derive(serde::Deserialize)]
struct PackQuery {
    name: Option<String>,
}

/// A skin tile of an installed pack (`/sokoban/packs/<folder>/skin/<tile>.png`).
async fn skin_image(
    State(app): State<Arc<App>>,
    axum::extract::Path((folder, file)): axum::extract::Path<(String, String)>,
) -> Response {
    match sokoban::skin_image(&app, &folder, &file) {
        Some(bytes) => ([(header::CONTENT_TYPE, "image/png")], bytes).into_response(),
        None => (StatusCode::NOT_FOUND, "no such skin tile\n").into_response(),
    }
}

/// The player's progress in each game, for the home page.
fn progress_summary(app: &App) -> Value {
    let (progress, warning) = load_progress(&app.data);
    let mut warnings: Vec<String> = app.report(warning).into_iter().collect();
    let sets = app.sets();
    let total: usize = sets
        .iter()
        .map(|s| s.collection.valid_levels().count())
        .sum();
    let solved: usize = sets
        .iter()
        .flat_map(|s| s.collection.valid_levels())
        .filter(|(_, l)| progress.is_solved(&l.key()))
        .count();
    let (scores, warning) = crate::session::tetris::high_scores(&app.data);
    warnings.extend(app.report(warning));
    let best: Vec<Value> = scores
        .modes
        .iter()
        .filter_map(|(mode, table)| {
            table
                .first()
                .map(|e| json!({ "mode": mode, "score": e.score, "lines": e.lines }))
        })
        .collect();
    json!({
        "sokoban": { "solved": solved, "levels": total, "collections": sets.len() },
        "tetris": { "best": best, "page": true },
        "xiangqi": xiangqi::summary(&app.data),
        "warnings": warnings,
    })
}

async fn summary(State(app): State<Arc<App>>) -> Response {
    match tokio::task::spawn_blocking(move || progress_summary(&app)).await {
        Ok(value) => Json(value).into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

/// Opens `url` in the system browser if one is found; never fails.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    let spawned = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if spawned.is_err() {
        eprintln!("ludus: no browser found ({opener}); open {url} yourself");
    }
}

/// `ludus serve`: binds, prints the URL (the first line of stdout, which
/// tests read), serves until Ctrl-C.
pub fn run(data: DataDir, args: ServeArgs) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(serve(data, args))?;
    Ok(ExitCode::SUCCESS)
}

async fn serve(data: DataDir, args: ServeArgs) -> anyhow::Result<()> {
    let (listen, limits) = (args.host, args.limits());
    let app = Arc::new(tokio::task::spawn_blocking(move || App::new(data, listen, limits)).await?);
    // The ECCO tables are read once, here rather than on a first move.
    tokio::task::spawn_blocking(::xiangqi::ecco::check_data);
    let address = SocketAddr::new(args.host, args.port);
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .with_context(|| format!("cannot listen on {address}"))?;
    let bound = listener.local_addr()?;
    let url = format!("http://{bound}/");
    println!("Ludus is served at {url}");
    if !args.host.is_loopback() {
        eprintln!(
            "ludus: warning: listening on {}, not loopback: anyone who can reach this machine can play and change your saved data",
            args.host
        );
    }
    eprintln!(
        "data: {}   (Ctrl-C stops the server)",
        app.data.root().display()
    );
    if args.open {
        open_browser(&url);
    }
    // Open WebSockets would hold a graceful shutdown forever: Ctrl-C ends at once.
    tokio::select! {
        () = accept_loop(listener, app) => {}
        _ = tokio::signal::ctrl_c() => eprintln!("ludus: stopped"),
    }
    Ok(())
}

/// Serves each accepted connection on its own task, HTTP/1.1 with upgrades
/// (WebSockets), with a deadline on reading each request's headers and at
/// most [`MAX_CONNECTIONS`] at once.
async fn accept_loop(listener: tokio::net::TcpListener, app: Arc<App>) {
    let header_read = app.limits.header_read;
    let service = TowerToHyperService::new(router(app));
    let slots = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors and the like: wait rather than spin.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let Ok(permit) = Arc::clone(&slots).try_acquire_owned() else {
            continue; // dropping the stream closes it
        };
        // Replies are small and come one per request: send them at once (no Nagle delay).
        let _ = stream.set_nodelay(true);
        let service = service.clone();
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_read)
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades();
            // A peer that goes away or breaks the protocol ends only its connection.
            let _ = connection.await;
            drop(permit);
        });
    }
}
