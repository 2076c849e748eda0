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

use anyhow::Context;
use axum::Router;
use axum::extract::{State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::get;
use axum::serve::ListenerExt;
use serde_json::{Value, json};

use crate::sokoban_library::{LevelSet, registry};
use crate::store::{DataDir, progress};
use sessions::Sessions;

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
}

/// What every request handler shares.
pub struct App {
    pub data: DataDir,
    /// The collection registry, reloaded when the level browser asks.
    sets: RwLock<Vec<Arc<LevelSet>>>,
    pub sokoban: Sessions<sokoban::SokobanGame>,
    pub xiangqi: Sessions<xiangqi::XiangqiGame>,
    pub tetris: Sessions<tetris::TetrisGame>,
    /// One permit per core: solver runs beyond that are refused, not queued.
    pub solver_slots: Arc<tokio::sync::Semaphore>,
}

impl App {
    pub fn new(data: DataDir) -> App {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let app = App {
            data,
            sets: RwLock::new(Vec::new()),
            sokoban: Sessions::default(),
            xiangqi: Sessions::default(),
            tetris: Sessions::default(),
            solver_slots: Arc::new(tokio::sync::Semaphore::new(cores)),
        };
        app.reload_sets();
        app
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
        .route("/api/summary", get(summary))
        .fallback(assets::serve)
        .with_state(app)
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
    socket::upgrade(app, &headers, upgrade, tetris::connection)
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

/// The player's progress in each game, for the home page.
fn progress_summary(app: &App) -> Value {
    let (progress, _) = progress::load(&app.data);
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
    let (scores, _) = crate::store::tetris::load(&app.data);
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
    let app = Arc::new(tokio::task::spawn_blocking(move || App::new(data)).await?);
    let address = SocketAddr::new(args.host, args.port);
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .with_context(|| format!("cannot listen on {address}"))?;
    let bound = listener.local_addr()?;
    // Replies are small and come one per request: send them at once (no Nagle delay).
    let listener = listener.tap_io(|stream| {
        let _ = stream.set_nodelay(true);
    });
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
        served = axum::serve(listener, router(app)) => served.context("the server stopped")?,
        _ = tokio::signal::ctrl_c() => eprintln!("ludus: stopped"),
    }
    Ok(())
}
