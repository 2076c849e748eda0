//! Load: 200 WebSocket Sokoban games (and 200 Tetris games) at once against one `ludus serve`,
//! every game playing moves concurrently; no error and no lost reply is
//! allowed, and the latency of each move (send to its reply) is reported.
//!
//! Slow and timing-dependent, so ignored by default; run it in release:
//! `cargo test --release -p ludus --test web_load -- --ignored --nocapture`
//! (`LUDUS_LOAD_GAMES` and `LUDUS_LOAD_MOVES` change the size;
//! `LUDUS_LOAD_PACE_MS`, default 20, is the time between one game's moves:
//! 50 moves a second per game, faster than key repeat; 0 sends each move as
//! soon as the last reply is in, which measures throughput, not latency;
//! `LUDUS_LOAD_MAX_P99_MS` turns the reported p99 into a check).
#![allow(clippy::unwrap_used)]

mod web_common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::sync::Barrier;
use web_common::Server;

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Every game's reply latencies, sorted, and the time from the first game's
/// start to the last game's end.
struct Measured {
    sorted: Vec<Duration>,
    wall: Duration,
}

impl Measured {
    /// Gathers each game's latencies and when it began and ended.
    fn gather(games: impl IntoIterator<Item = (Vec<Duration>, Instant, Instant)>) -> Measured {
        let mut sorted = Vec::new();
        let (mut first, mut last) = (None::<Instant>, None::<Instant>);
        for (latencies, began, ended) in games {
            sorted.extend(latencies);
            first = Some(first.map_or(began, |f| f.min(began)));
            last = Some(last.map_or(ended, |l| l.max(ended)));
        }
        sorted.sort_unstable();
        Measured {
            sorted,
            wall: last.unwrap() - first.unwrap(),
        }
    }

    fn at(&self, q: f64) -> Duration {
        self.sorted[((self.sorted.len() - 1) as f64 * q).round() as usize]
    }

    fn per_second(&self) -> f64 {
        self.sorted.len() as f64 / self.wall.as_secs_f64()
    }

    /// `median … ms, p99 … ms, max … ms`.
    fn latencies(&self) -> String {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        format!(
            "median {:.3} ms, p99 {:.3} ms, max {:.3} ms",
            ms(self.at(0.5)),
            ms(self.at(0.99)),
            ms(self.at(1.0))
        )
    }

    /// Latency depends on the machine and what else runs on it, so it is
    /// reported, and checked only when asked (`LUDUS_LOAD_MAX_P99_MS`).
    fn check_p99(&self) {
        if let Some(limit) = std::env::var("LUDUS_LOAD_MAX_P99_MS")
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
        {
            let p99 = self.at(0.99);
            assert!(
                p99 <= Duration::from_millis(limit),
                "p99 {p99:?} is over {limit} ms"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "load test: run in release with --ignored"]
async fn two_hundred_games_at_once() {
    let games = env_or("LUDUS_LOAD_GAMES", 200);
    let moves = env_or("LUDUS_LOAD_MOVES", 200);
    let pace = Duration::from_millis(env_or("LUDUS_LOAD_PACE_MS", 20) as u64);
    let server = Arc::new(Server::start());
    let barrier = Arc::new(Barrier::new(games));
    let builtin = ludus::session::sokoban::library::LevelSet::builtin();
    let playable: Arc<Vec<usize>> = Arc::new(
        builtin
            .collection
            .valid_levels()
            .filter(|(_, l)| l.boxes().iter().filter(|&&b| !l.map().is_goal(b)).count() >= 2)
            .map(|(i, _)| i)
            .collect(),
    );
    assert!(!playable.is_empty());
    let mut tasks = Vec::new();
    for g in 0..games {
        let (server, barrier) = (Arc::clone(&server), Arc::clone(&barrier));
        let playable = Arc::clone(&playable);
        tasks.push(tokio::spawn(async move {
            let mut client = server.socket().await;
            // A level of the built-in collection where no single move solves
            // (two boxes or more off goals), so a move followed by its undo
            // never writes progress.
            let level = playable[g % playable.len()];
            let opened = client
                .ask(
                    json!({"type": "open", "collection": 0, "level": level}),
                    "state",
                )
                .await;
            assert_eq!(opened["level"], level);
            barrier.wait().await;
            // Players do not press keys in step: spread the games' first
            // moves over one pace interval instead of sending 200 at once.
            tokio::time::sleep(pace * g as u32 / games as u32).await;
            let dirs = ["left", "up", "right", "down"];
            let mut latencies = Vec::with_capacity(moves);
            let began = Instant::now();
            for i in 0..moves {
                let seq = i as u64;
                let request = if i % 2 == 0 {
                    json!({"type": "move", "dir": dirs[(i / 2 + g) % 4], "seq": seq})
                } else {
                    json!({"type": "undo", "seq": seq})
                };
                let start = Instant::now();
                client.send(request).await;
                let reply = client.recv().await;
                latencies.push(start.elapsed());
                assert_eq!(reply["type"], "state", "game {g} move {i}: {reply}");
                assert_eq!(reply["seq"], seq, "game {g}: replies out of order");
                tokio::time::sleep_until((start + pace).into()).await;
            }
            (latencies, began, Instant::now())
        }));
    }
    let mut runs = Vec::new();
    for task in tasks {
        runs.push(task.await.unwrap());
    }
    let measured = Measured::gather(runs);
    println!(
        "{games} games x {moves} moves ({} ms apart) = {} replies, none lost; latency per move: {}; {:.0} moves/s",
        pace.as_millis(),
        measured.sorted.len(),
        measured.latencies(),
        measured.per_second()
    );
    assert_eq!(measured.sorted.len(), games * moves);
    measured.check_p99();
}

/// Load: 200 Tetris games at once, each sending a tick every frame (16 ms)
/// with key presses and releases among them, as the page does; the latency
/// of each message (send to its `state`) is reported. A game that tops out
/// starts again. `LUDUS_LOAD_GAMES`, `LUDUS_LOAD_TETRIS_STEPS` (default 300,
/// about 5 s of play) and `LUDUS_LOAD_TETRIS_PACE_MS` (default 16) change
/// the size; `LUDUS_LOAD_MAX_P99_MS` turns the p99 into a check.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "load test: run in release with --ignored"]
async fn two_hundred_tetris_games_at_once() {
    let games = env_or("LUDUS_LOAD_GAMES", 200);
    let steps = env_or("LUDUS_LOAD_TETRIS_STEPS", 300);
    let pace = Duration::from_millis(env_or("LUDUS_LOAD_TETRIS_PACE_MS", 16) as u64);
    let server = Arc::new(Server::start());
    let barrier = Arc::new(Barrier::new(games));
    let mut tasks = Vec::new();
    for g in 0..games {
        let (server, barrier) = (Arc::clone(&server), Arc::clone(&barrier));
        tasks.push(tokio::spawn(async move {
            let url = format!("ws://{}/ws/tetris", server.addr);
            let (ws, _) = tokio_tungstenite::connect_async_with_config(url, None, true)
                .await
                .unwrap();
            let mut client = web_common::Client { ws };
            let new = json!({"type": "new", "mode": "marathon", "seed": g});
            assert_eq!(client.ask(new.clone(), "state").await["playing"], true);
            barrier.wait().await;
            tokio::time::sleep(pace * g as u32 / games as u32).await;
            let actions = ["left", "right", "rotate_cw", "left", "rotate_ccw", "hard_drop"];
            let (mut latencies, mut bytes) = (Vec::with_capacity(steps), 0usize);
            let (began, mut game_start) = (Instant::now(), Instant::now());
            let mut restarts = 0;
            for i in 0..steps {
                let seq = i as u64;
                let t = game_start.elapsed().as_millis() as u64;
                // Every fourth frame a key goes down, the next frame it comes up.
                let action = actions[(i / 4 + g) % actions.len()];
                let request = match i % 4 {
                    0 => json!({"type": "input", "action": action, "edge": "press", "t": t, "seq": seq}),
                    1 => json!({"type": "input", "action": actions[((i - 1) / 4 + g) % actions.len()], "edge": "release", "t": t, "seq": seq}),
                    _ => json!({"type": "tick", "t": t, "seq": seq}),
                };
                let start = Instant::now();
                client.send(request).await;
                let reply = loop {
                    let reply = client.recv().await;
                    if reply["type"] != "over" {
                        break reply;
                    }
                };
                latencies.push(start.elapsed());
                bytes += reply.to_string().len();
                assert_eq!(reply["type"], "state", "game {g} step {i}: {reply}");
                assert_eq!(reply["seq"], seq, "game {g}: replies out of order");
                if reply["playing"] == false {
                    // Topped out (its high score written): play again.
                    client.ask(new.clone(), "state").await;
                    game_start = Instant::now();
                    restarts += 1;
                }
                tokio::time::sleep_until((start + pace).into()).await;
            }
            (latencies, bytes, restarts, began, Instant::now())
        }));
    }
    let (mut bytes, mut restarts, mut runs) = (0, 0, Vec::new());
    for task in tasks {
        let (latencies, b, r, began, ended) = task.await.unwrap();
        bytes += b;
        restarts += r;
        runs.push((latencies, began, ended));
    }
    let measured = Measured::gather(runs);
    let replies = measured.sorted.len();
    println!(
        "{games} Tetris games x {steps} messages ({} ms apart: ticks, key presses and releases) = {replies} replies, none lost, {restarts} games topped out and restarted; latency per message: {}; {:.0} messages/s; {:.0} bytes per reply on average",
        pace.as_millis(),
        measured.latencies(),
        measured.per_second(),
        bytes as f64 / replies as f64
    );
    assert_eq!(replies, games * steps);
    measured.check_p99();
}
