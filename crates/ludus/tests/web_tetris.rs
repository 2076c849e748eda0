//! The Tetris WebSocket of `ludus serve` end to end: a real server on a
//! loopback port, games played through the protocol next to a local copy of
//! the same engine (same seed, same inputs at the same times), bad messages,
//! reloads, and the high scores and replays written to the data dir where
//! the terminal UI reads them.
#![allow(clippy::unwrap_used)]

mod web_common;

use futures_util::SinkExt;
use serde_json::{Value, json};
use tetris::bot::{Bot, BotMove};
use tetris::{Action, Edge, Game, InputEvent, Mode, Settings};
use tokio_tungstenite::connect_async_with_config;
use tokio_tungstenite::tungstenite::Message;
use web_common::{Client, Server};

async fn tetris_socket(server: &Server) -> Client {
    let url = format!("ws://{}/ws/tetris", server.addr);
    let (ws, _) = connect_async_with_config(url, None, true).await.unwrap();
    Client { ws }
}

fn action_name(action: Action) -> &'static str {
    action.name()
}

/// The locked cells of a local game as the protocol's `board` text.
fn board_of(game: &Game) -> String {
    let mut text = String::new();
    for y in (0..22).rev() {
        for x in 0..10 {
            text.push(game.matrix().cell(x, y).map_or('.', |b| b.letter()));
        }
    }
    text
}

/// Sends one key edge to the server and applies it to the local game; returns the state.
async fn key(client: &mut Client, local: &mut Game, action: Action, edge: Edge, t: u64) -> Value {
    let edge_name = if edge == Edge::Press {
        "press"
    } else {
        "release"
    };
    let state = client
        .ask(
            json!({"type": "input", "action": action_name(action), "edge": edge_name, "t": t}),
            "state",
        )
        .await;
    local.handle(InputEvent {
        time_ms: t,
        action,
        edge,
    });
    local.advance_to(t);
    state
}

/// Plays the bot's choice for the current piece at time `t` on both games.
/// Returns the last state and the board text last sent.
async fn play_piece(
    client: &mut Client,
    local: &mut Game,
    bot: &mut Bot,
    t: u64,
    board: &mut String,
) -> Value {
    let plan = bot.suggest(local).unwrap();
    let mut last = Value::Null;
    for step in plan.moves {
        let action = step.action();
        // A soft drop in a plan means "down to the floor": tap until resting.
        let taps = if step == BotMove::SoftDrop { 40 } else { 1 };
        for _ in 0..taps {
            if step == BotMove::SoftDrop && local.active().copied() == local.ghost() {
                break;
            }
            let pressed = key(client, local, action, Edge::Press, t).await;
            let released = key(client, local, action, Edge::Release, t).await;
            // The events of both replies (a hard drop locks on the press).
            let mut events = pressed["events"].as_array().cloned().unwrap_or_default();
            events.extend(released["events"].as_array().cloned().unwrap_or_default());
            for state in [&pressed, &released] {
                if let Some(b) = state["board"].as_str() {
                    *board = b.to_string();
                }
            }
            last = released;
            last["events"] = Value::from(events);
            if pressed.get("clear").is_some() {
                last["clear"] = pressed["clear"].clone();
            }
        }
    }
    last
}

#[tokio::test]
async fn the_server_plays_the_same_game_as_the_engine() {
    let server = Server::start();
    let mut client = tetris_socket(&server).await;
    let seed = 4242;
    let state = client
        .ask(
            json!({"type": "new", "mode": "marathon", "seed": seed, "seq": 1}),
            "state",
        )
        .await;
    assert_eq!(state["seq"], 1);
    assert_eq!(state["setup"]["mode"], "marathon");
    assert_eq!(state["setup"]["goal"], 150);
    assert_eq!(state["setup"]["das"], 167);
    assert_eq!(state["setup"]["keys"]["hard_drop"], json!(["space"]));
    assert_eq!(state["playing"], true);
    let mut local = Game::new(Mode::Marathon { endless: false }, Settings::default(), seed);
    let mut board = state["board"].as_str().unwrap().to_string();
    assert_eq!(board, board_of(&local));
    let kind = local.active().unwrap().kind.letter().to_string();
    assert_eq!(state["active"]["kind"], kind.as_str());
    let next: String = local.next_queue().iter().map(|k| k.letter()).collect();
    assert_eq!(state["next"], next.as_str());

    // A tick without a lock sends no board; a lock sends it and says "lock".
    let ticked = client
        .ask(json!({"type": "tick", "t": 50, "seq": 2}), "state")
        .await;
    local.advance_to(50);
    assert!(ticked.get("board").is_none(), "{ticked}");
    assert_eq!(ticked["t"], 50);

    // The bot plays both games until a line is cleared; they never differ.
    let mut bot = Bot::new();
    let mut t = 100;
    let mut cleared = None;
    for _ in 0..60 {
        let last = play_piece(&mut client, &mut local, &mut bot, t, &mut board).await;
        assert_eq!(last["pieces"], local.pieces());
        assert_eq!(last["score"], local.score());
        assert_eq!(last["lines"], local.lines());
        assert_eq!(board, board_of(&local), "{last}");
        // The live statistics are the engine's, counted the same way.
        let stats = ludus::session::tetris::Stats::of(&local);
        assert_eq!(last["stats"]["faults"], stats.faults, "{last}");
        assert_eq!(last["stats"]["kpp"], stats.keys_per_piece, "{last}");
        assert_eq!(last["stats"]["finesse"], stats.finesse_rate, "{last}");
        let events: Vec<&str> = last["events"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        assert!(events.contains(&"lock"), "{last}");
        if local.lines() > 0 {
            assert!(events.contains(&"clear"), "{last}");
            assert!(last["clear"]["lines"].as_u64().unwrap() >= 1, "{last}");
            cleared = Some(local.lines());
            break;
        }
        t += 100;
        let ticked = client.ask(json!({"type": "tick", "t": t}), "state").await;
        local.advance_to(t);
        assert_eq!(ticked["active"]["cells"], active_cells(&local));
    }
    assert!(cleared.is_some(), "no line cleared in 60 pieces");
}

fn active_cells(game: &Game) -> Value {
    let cells: Vec<[i8; 2]> = game
        .active()
        .unwrap()
        .cells()
        .iter()
        .map(|&(x, y)| [x, y])
        .collect();
    json!(cells)
}

#[tokio::test]
async fn time_never_runs_backwards_nor_jumps() {
    let server = Server::start();
    let mut client = tetris_socket(&server).await;
    client
        .ask(json!({"type": "new", "mode": "zen", "seed": 1}), "state")
        .await;
    let s = client.ask(json!({"type": "tick", "t": 400}), "state").await;
    assert_eq!(s["t"], 400);
    let s = client.ask(json!({"type": "tick", "t": 100}), "state").await;
    assert_eq!(s["t"], 400, "time went backwards");
    let s = client
        .ask(json!({"type": "tick", "t": u64::MAX}), "state")
        .await;
    assert_eq!(
        s["t"],
        400 + ludus::web::tetris::MAX_STEP_MS,
        "an absurd jump"
    );
    // An input stamped in the past counts as now.
    let s = client
        .ask(
            json!({"type": "input", "action": "left", "edge": "press", "t": 0}),
            "state",
        )
        .await;
    assert_eq!(s["t"], 1400);
    assert_eq!(s["events"], json!(["move"]));
}

#[tokio::test]
async fn bad_messages_get_errors_and_the_connection_stays() {
    let server = Server::start();
    let mut client = tetris_socket(&server).await;
    // Before a game.
    let e = client
        .ask(json!({"type": "tick", "t": 5, "seq": 1}), "error")
        .await;
    assert_eq!(
        (e["code"].as_str(), e["seq"].as_u64()),
        (Some("no_game"), Some(1))
    );
    for (text, code) in [
        ("{not json", "bad_json"),
        ("[1,2,3]", "bad_json"),
        (r#"{"t": 5}"#, "bad_request"),
        (r#"{"type": "move", "dir": "up"}"#, "unknown_type"),
        (r#"{"type": "tick", "t": -5}"#, "bad_request"),
        (r#"{"type": "tick", "t": "soon"}"#, "bad_request"),
        (r#"{"type": "tick", "t": 5, "extra": 1}"#, "bad_request"),
        (
            r#"{"type": "input", "action": "fly", "edge": "press", "t": 1}"#,
            "bad_request",
        ),
        (
            r#"{"type": "input", "action": "left", "edge": "sideways", "t": 1}"#,
            "bad_request",
        ),
        (r#"{"type": "new", "mode": "tournament"}"#, "bad_request"),
        (r#"{"type": "resume", "session": "nope"}"#, "not_found"),
        (
            r#"{"type": "watch", "name": "../../etc/passwd"}"#,
            "bad_path",
        ),
        (r#"{"type": "watch", "name": "nothing.json"}"#, "not_found"),
        (r#"{"type": "save_replay"}"#, "no_game"),
    ] {
        client.send_text(text).await;
        let reply = client.recv().await;
        assert_eq!(reply["type"], "error", "{text}: {reply}");
        assert_eq!(reply["code"], code, "{text}: {reply}");
    }
    let big = format!(
        r#"{{"type":"tick","t":1,"pad":"{}"}}"#,
        "x".repeat(70 * 1024)
    );
    client.send_text(big).await;
    assert_eq!(client.recv().await["code"], "too_large");
    client
        .ws
        .send(Message::Binary(vec![1, 2, 3].into()))
        .await
        .unwrap();
    assert_eq!(client.recv().await["code"], "binary");
    // Still usable: play.
    assert_eq!(
        client.ask(json!({"type": "ping"}), "pong").await["type"],
        "pong"
    );
    let s = client
        .ask(json!({"type": "new", "mode": "sprint"}), "state")
        .await;
    assert_eq!(s["playing"], true);
    let e = client.ask(json!({"type": "end", "seq": 9}), "error").await;
    assert_eq!(
        (e["code"].as_str(), e["seq"].as_u64()),
        (Some("bad_request"), Some(9))
    );
    let e = client.ask(json!({"type": "save_replay"}), "error").await;
    assert_eq!(e["code"], "bad_request", "{e}");
}

#[tokio::test]
async fn a_reload_resumes_the_game_paused() {
    let server = Server::start();
    let mut client = tetris_socket(&server).await;
    let s = client
        .ask(json!({"type": "new", "mode": "ultra", "seed": 9}), "state")
        .await;
    let session = s["session"].as_str().unwrap().to_string();
    client
        .ask(
            json!({"type": "input", "action": "right", "edge": "press", "t": 100}),
            "state",
        )
        .await;
    let before = client.ask(json!({"type": "tick", "t": 600}), "state").await;
    assert_eq!(before["setup"], Value::Null);
    drop(client);

    let mut again = tetris_socket(&server).await;
    let resumed = again
        .ask(json!({"type": "resume", "session": session}), "state")
        .await;
    assert_eq!(resumed["session"], session.as_str());
    assert_eq!(resumed["paused"], true);
    assert_eq!(resumed["t"], 600);
    assert_eq!(resumed["active"], before["active"]);
    assert_eq!(resumed["setup"]["mode"], "ultra");
    assert!(resumed["board"].is_string());
    // Paused: time stands still; the held key was let go, so no auto-shift after going on.
    let s = again.ask(json!({"type": "tick", "t": 900}), "state").await;
    assert_eq!(s["t"], 600);
    let s = again
        .ask(json!({"type": "pause", "paused": false, "t": 600}), "state")
        .await;
    assert_eq!(s["paused"], false);
    let s = again.ask(json!({"type": "tick", "t": 1500}), "state").await;
    assert_eq!(s["active"]["cells"][0][0], before["active"]["cells"][0][0]);
}

#[tokio::test]
async fn a_finished_game_goes_into_the_terminals_tables_and_replays() {
    let server = Server::start();
    let mut client = tetris_socket(&server).await;
    client
        .ask(
            json!({"type": "new", "mode": "marathon", "seed": 77}),
            "state",
        )
        .await;
    // Hard drops at the spawn column top out within a few dozen pieces.
    let mut t = 0;
    let over = loop {
        t += 20;
        let (state, over) = drop_and_read(&mut client, t).await;
        if let Some(over) = over {
            assert!(
                state["over"] == "block_out" || state["over"] == "lock_out",
                "{state}"
            );
            break over;
        }
        assert!(t < 20 * 200, "no top out");
    };
    assert_eq!(over["mode"], "marathon");
    assert_eq!(over["rank"], 0);
    assert_eq!(over["qualifies"], true);
    let score = over["score"].as_u64().unwrap();
    assert!(score > 0);
    assert_eq!(over["table"][0]["score"], score);

    // The terminal's file, read with the terminal's own store code.
    let data = ludus::store::DataDir::at(server.data.path().to_path_buf());
    let (scores, warning) = ludus::store::tetris::load(&data);
    assert!(warning.is_none());
    let table = scores.table(Mode::Marathon { endless: false });
    assert_eq!(table.len(), 1);
    assert_eq!(table[0].score, score);
    let (_, _, body) = server.get("/api/summary").await;
    let summary: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(summary["tetris"]["best"][0]["score"], score);

    // Inputs after the end change nothing.
    let s = client
        .ask(
            json!({"type": "input", "action": "left", "edge": "press", "t": t + 50}),
            "state",
        )
        .await;
    assert_eq!(s["playing"], false);

    // The replay: saved into tetris/replays/, listed, watched to the same end.
    let saved = client
        .ask(json!({"type": "save_replay", "seq": 5}), "replay_saved")
        .await;
    assert_eq!(saved["seq"], 5);
    let name = saved["name"].as_str().unwrap().to_string();
    assert!(
        name.starts_with("marathon-") && name.ends_with(".json"),
        "{name}"
    );
    let path = server.data.path().join("tetris/replays").join(&name);
    let replay = ludus::store::tetris::read_replay(&path).unwrap();
    assert_eq!(replay.result.score, score);
    let again = client
        .ask(json!({"type": "save_replay"}), "replay_saved")
        .await;
    assert_eq!(again["name"], name.as_str(), "saved twice");
    let list = client.ask(json!({"type": "replays"}), "replays").await;
    assert_eq!(list["replays"][0]["name"], name.as_str());
    assert_eq!(list["replays"][0]["score"], score);
    let watched = client
        .ask(json!({"type": "watch", "name": name}), "state")
        .await;
    assert_eq!(watched["setup"]["replay"]["name"], name.as_str());
    assert_eq!(watched["pieces"], 0);
    let end = watched["setup"]["replay"]["end_ms"].as_u64().unwrap();
    let at_end = client
        .ask(json!({"type": "watch_to", "t": end}), "state")
        .await;
    assert_eq!(at_end["score"], score);
    assert_eq!(at_end["playing"], false);
    // Back to the start.
    let start = client
        .ask(json!({"type": "watch_to", "t": 0}), "state")
        .await;
    assert_eq!(start["pieces"], 0);
    // Playing inputs while watching are refused.
    let e = client.ask(json!({"type": "tick", "t": 5}), "error").await;
    assert_eq!(e["code"], "no_game");

    // The high-score list of every mode.
    let scores = client.ask(json!({"type": "scores"}), "scores").await;
    assert_eq!(scores["modes"]["marathon"][0]["score"], score);
}

#[tokio::test]
async fn zen_ends_when_the_player_says_so() {
    let server = Server::start();
    let mut client = tetris_socket(&server).await;
    client
        .ask(json!({"type": "new", "mode": "zen", "seed": 3}), "state")
        .await;
    client
        .ask(
            json!({"type": "input", "action": "hard_drop", "edge": "press", "t": 10}),
            "state",
        )
        .await;
    let s = client.ask(json!({"type": "end"}), "state").await;
    assert_eq!(
        (s["playing"].as_bool(), s["over"].as_str()),
        (Some(false), Some("ended"))
    );
    let over = client.until("over").await;
    assert_eq!(over["reason"], "ended");
    assert_eq!(over["rank"], 0);
    let text = std::fs::read_to_string(server.data.path().join("tetris/scores.json")).unwrap();
    assert!(text.contains("\"zen\""), "{text}");
}

#[tokio::test]
async fn hints_show_the_bots_placement_and_mark_the_score() {
    let server = Server::start();
    let mut client = tetris_socket(&server).await;
    let seed = 99;
    let state = client
        .ask(
            json!({"type": "new", "mode": "marathon", "seed": seed}),
            "state",
        )
        .await;
    assert!(state.get("hint").is_none(), "hints start off: {state}");
    let mut local = Game::new(Mode::Marathon { endless: false }, Settings::default(), seed);
    let mut bot = Bot::new();
    let mut board = String::new();
    let on = client
        .ask(json!({"type": "hint", "on": true}), "state")
        .await;
    // The hint is the bot's plan for the same game, piece after piece.
    let mut t = 100;
    let mut hint = on["hint"].clone();
    for _ in 0..5 {
        let plan = bot.suggest(&local).unwrap();
        let cells: Vec<[i8; 2]> = plan.target.cells().iter().map(|&(x, y)| [x, y]).collect();
        assert_eq!(hint["cells"], json!(cells), "{hint}");
        assert_eq!(hint["hold"], plan.hold);
        let last = play_piece(&mut client, &mut local, &mut bot, t, &mut board).await;
        assert_eq!(last["pieces"], local.pieces());
        hint = last["hint"].clone();
        t += 100;
    }
    // Off again: no hint in the state, but the game stays marked.
    let off = client
        .ask(json!({"type": "hint", "on": false}), "state")
        .await;
    assert!(off.get("hint").is_none(), "{off}");
    // Top out with hard drops; the table entry says "with hints".
    let over = loop {
        t += 20;
        let (_, finished) = drop_and_read(&mut client, t).await;
        if let Some(over) = finished {
            break over;
        }
        assert!(t < 100 * 200, "no top out");
    };
    assert_eq!(over["table"][0]["assisted"], true, "{over}");
    let data = ludus::store::DataDir::at(server.data.path().to_path_buf());
    let (scores, _) = ludus::store::tetris::load(&data);
    assert!(scores.table(Mode::Marathon { endless: false })[0].assisted);
    // After the end, hints cannot be switched on.
    let after = client
        .ask(json!({"type": "hint", "on": true}), "state")
        .await;
    assert!(after.get("hint").is_none(), "{after}");
}

/// Hard-drops once at `t` (a press and a release: two states come back, and
/// an `over` after the state that ended the game). Returns the state that
/// ended the game, or else the last one, and the `over` message.
async fn drop_and_read(client: &mut Client, t: u64) -> (Value, Option<Value>) {
    client
        .send(json!({"type": "input", "action": "hard_drop", "edge": "press", "t": t}))
        .await;
    client
        .send(json!({"type": "input", "action": "hard_drop", "edge": "release", "t": t}))
        .await;
    let (mut states, mut last, mut ended, mut over) = (0, Value::Null, false, None);
    while states < 2 || ended && over.is_none() {
        let reply = client.recv().await;
        match reply["type"].as_str() {
            Some("state") => {
                states += 1;
                if !ended {
                    ended = reply["playing"] == false;
                    last = reply;
                }
            }
            Some("over") => over = Some(reply),
            _ => panic!("unexpected {reply}"),
        }
    }
    (last, over)
}

#[tokio::test]
async fn a_duplicated_tab_takes_the_game_over_instead_of_pausing_it_unseen() {
    let server = Server::start();
    let mut first = tetris_socket(&server).await;
    let s = first
        .ask(json!({"type": "new", "mode": "zen", "seed": 4}), "state")
        .await;
    let session = s["session"].as_str().unwrap().to_string();
    first.ask(json!({"type": "tick", "t": 300}), "state").await;

    let mut second = tetris_socket(&server).await;
    let resumed = second
        .ask(json!({"type": "resume", "session": session}), "state")
        .await;
    assert_eq!(resumed["paused"], true);
    first.until("taken_over").await;
    // The first tab's ticks and pauses no longer reach the game.
    let refused = first
        .ask(json!({"type": "pause", "paused": true, "t": 400}), "error")
        .await;
    assert_eq!(refused["code"], "no_game");
    let s = second
        .ask(json!({"type": "pause", "paused": false, "t": 300}), "state")
        .await;
    assert_eq!(s["paused"], false);
    let s = second.ask(json!({"type": "tick", "t": 900}), "state").await;
    assert_eq!(
        (s["paused"].as_bool(), s["t"].as_u64()),
        (Some(false), Some(900))
    );
}
