//! Tetris versus rooms on the WebSocket of `ludus serve`, end to end: two clients create
//! and join a room and play (each one's keys reach only their own matrix, both get the
//! pushed states), a third watches and is refused a move, a player reloads with their
//! token and keeps the seat, a player leaves and the other wins, and the limits hold.
#![allow(clippy::unwrap_used)]

mod web_common;

use serde_json::{Value, json};
use tokio_tungstenite::connect_async_with_config;
use web_common::{Client, Server};

async fn tetris_socket(server: &Server) -> Client {
    let url = format!("ws://{}/ws/tetris", server.addr);
    let (ws, _) = connect_async_with_config(url, None, true).await.unwrap();
    Client { ws }
}

/// Reads pushed room states until one satisfies `wanted`.
async fn state_where(client: &mut Client, wanted: impl Fn(&Value) -> bool) -> Value {
    loop {
        let state = client.until("room_state").await;
        if wanted(&state) {
            return state;
        }
    }
}

fn pieces(state: &Value, side: usize) -> u64 {
    state["sides"][side]["stats"]["pieces"].as_u64().unwrap()
}

async fn hard_drop(client: &mut Client) {
    for edge in ["press", "release"] {
        let ack = client
            .ask(
                json!({"type": "input", "action": "hard_drop", "edge": edge, "t": 0, "seq": 9}),
                "room_input",
            )
            .await;
        assert_eq!(ack["seq"], 9);
    }
}

#[tokio::test]
async fn two_players_a_spectator_a_reload_and_a_leave() {
    let server = Server::start();
    let mut a = tetris_socket(&server).await;
    let created = a
        .ask(
            json!({"type": "room_create", "name": "Ana", "seed": 5, "seq": 1}),
            "room",
        )
        .await;
    assert_eq!(created["seq"], 1);
    assert_eq!(created["role"], "player");
    assert_eq!(created["seat"], 1);
    let room = created["room"].as_str().unwrap().to_owned();
    assert_eq!(room.len(), 32);
    assert_eq!(created["link"], format!("/tetris.html?room={room}"));
    let token_a = created["token"].as_str().unwrap().to_owned();
    assert_eq!(token_a.len(), 32);
    assert_eq!(created["keys"]["hard_drop"], json!(["space"]));
    let waiting = a.until("room_state").await;
    assert_eq!(waiting["phase"], "waiting");
    assert_eq!(waiting["seats"][0]["name"], "Ana");
    assert_eq!(waiting["seats"][1], Value::Null);

    // Keys before the game are taken (and dropped); a rematch is refused.
    let refused = a.ask(json!({"type": "room_rematch"}), "error").await;
    assert_eq!(refused["code"], "bad_request");
    let refused = a.ask(json!({"type": "tick", "t": 5}), "error").await;
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("server's clock")
    );

    let mut b = tetris_socket(&server).await;
    let joined = b
        .ask(json!({"type": "room_join", "room": room, "seq": 2}), "room")
        .await;
    assert_eq!(joined["seat"], 2);
    let token_b = joined["token"].as_str().unwrap().to_owned();
    assert_ne!(token_b, token_a);
    let counting = state_where(&mut a, |s| s["phase"] == "countdown").await;
    assert_eq!(counting["seats"][1]["name"], "Player 2");
    assert!(counting["countdown_ms"].as_u64().unwrap() <= 3_000);
    state_where(&mut b, |s| s["phase"] == "countdown").await;

    // A third page watches; its moves are refused, and so are a forged token's.
    let mut c = tetris_socket(&server).await;
    let watching = c
        .ask(
            json!({"type": "room_join", "room": room, "token": "0123456789abcdef0123456789abcdef"}),
            "room",
        )
        .await;
    assert_eq!(watching["role"], "spectator");
    assert_eq!(watching["token"], Value::Null);
    let refused = c
        .ask(
            json!({"type": "input", "action": "hard_drop", "edge": "press", "t": 0}),
            "error",
        )
        .await;
    assert_eq!(refused["code"], "not_seated");
    let refused = c.ask(json!({"type": "room_rematch"}), "error").await;
    assert_eq!(refused["code"], "not_seated");
    let refused = c
        .ask(json!({"type": "room_name", "name": "Mallory"}), "error")
        .await;
    assert_eq!(refused["code"], "not_seated");
    state_where(&mut a, |s| s["spectators"] == 1).await;

    // The game starts after the countdown; each player's keys reach their own matrix.
    state_where(&mut a, |s| s["phase"] == "playing").await;
    hard_drop(&mut a).await;
    let seen = state_where(&mut b, |s| pieces(s, 0) == 1).await;
    assert_eq!(pieces(&seen, 1), 0);
    assert_ne!(seen["sides"][0]["board"], seen["sides"][1]["board"]);
    hard_drop(&mut b).await;
    hard_drop(&mut b).await;
    let seen = state_where(&mut a, |s| pieces(s, 1) == 2).await;
    assert_eq!(pieces(&seen, 0), 1);
    let watched = state_where(&mut c, |s| pieces(s, 1) == 2).await;
    assert_eq!(watched["sides"][0]["label"], "Ana");

    // B reloads: the game waits for it, and its token gives it its seat back.
    drop(b);
    let paused = state_where(&mut a, |s| s["paused"] == true).await;
    assert_eq!(paused["seats"][1]["connected"], false);
    assert!(paused["seats"][1]["grace_left_ms"].as_u64().unwrap() <= 10_000);
    let time_paused = paused["t"].as_u64().unwrap();
    let mut b = tetris_socket(&server).await;
    let back = b
        .ask(
            json!({"type": "room_join", "room": room, "token": token_b}),
            "room",
        )
        .await;
    assert_eq!(back["seat"], 2);
    assert_eq!(back["token"], token_b.as_str());
    let going = state_where(&mut a, |s| s["paused"] == false).await;
    assert_eq!(going["seats"][1]["connected"], true);
    assert!(going["t"].as_u64().unwrap() >= time_paused);
    let again = state_where(&mut b, |_| true).await;
    assert_eq!(pieces(&again, 1), 2, "the reloaded page sees its own stack");

    // A leaves: B wins, and the spectator sees it too.
    let left = a
        .ask(json!({"type": "room_leave", "seq": 3}), "room_left")
        .await;
    assert_eq!(left["seq"], 3);
    let over = state_where(&mut b, |s| s["phase"] == "finished").await;
    assert_eq!(over["winner"], 2);
    assert_eq!(over["reason"], "left the room");
    assert_eq!(over["seats"][0], Value::Null);
    state_where(&mut c, |s| s["winner"] == 2).await;
    // A's old token no longer plays.
    let refused = a
        .ask(
            json!({"type": "input", "action": "left", "edge": "press", "t": 0}),
            "error",
        )
        .await;
    assert_eq!(refused["code"], "no_game");
}

#[tokio::test]
async fn bad_room_ids_and_a_room_full_of_spectators_are_refused() {
    let server = Server::start();
    let mut a = tetris_socket(&server).await;
    for (room, code) in [
        ("short", "bad_request"),
        ("../../etc/passwd", "bad_request"),
        ("0123456789abcdef0123456789abcdeg", "bad_request"),
        ("0123456789abcdef0123456789abcdef", "not_found"),
    ] {
        let refused = a
            .ask(json!({"type": "room_join", "room": room}), "error")
            .await;
        assert_eq!(refused["code"], code, "{room}");
    }
    let refused = a.ask(json!({"type": "room_leave"}), "error").await;
    assert_eq!(refused["code"], "no_game");

    let created = a.ask(json!({"type": "room_create"}), "room").await;
    let room = created["room"].as_str().unwrap().to_owned();
    let long = "f".repeat(65);
    let refused = a
        .ask(
            json!({"type": "room_join", "room": room, "token": long}),
            "error",
        )
        .await;
    assert_eq!(refused["code"], "bad_request");
    assert!(refused["message"].as_str().unwrap().contains("token"));

    let mut b = tetris_socket(&server).await;
    b.ask(json!({"type": "room_join", "room": room}), "room")
        .await;
    let mut watchers = Vec::new();
    for _ in 0..16 {
        let mut w = tetris_socket(&server).await;
        let joined = w
            .ask(json!({"type": "room_join", "room": room}), "room")
            .await;
        assert_eq!(joined["role"], "spectator");
        watchers.push(w);
    }
    let mut late = tetris_socket(&server).await;
    let refused = late
        .ask(json!({"type": "room_join", "room": room}), "error")
        .await;
    assert_eq!(refused["code"], "busy");
    assert!(refused["message"].as_str().unwrap().contains("full"));
    // A spectator who goes frees a place (once the server saw the socket close).
    drop(watchers.pop());
    let mut role = Value::Null;
    for _ in 0..100 {
        late.send(json!({"type": "room_join", "room": room})).await;
        let reply = loop {
            let reply = late.recv().await;
            if reply["type"] != "room_state" {
                break reply;
            }
        };
        if reply["type"] == "room" {
            role = reply["role"].clone();
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(role, "spectator");
}

#[tokio::test]
async fn a_room_left_by_everyone_is_gone() {
    let server = Server::start();
    let mut a = tetris_socket(&server).await;
    let created = a.ask(json!({"type": "room_create"}), "room").await;
    let room = created["room"].as_str().unwrap().to_owned();
    a.ask(json!({"type": "room_leave"}), "room_left").await;
    let mut b = tetris_socket(&server).await;
    let mut code = Value::Null;
    for _ in 0..100 {
        b.send(json!({"type": "room_join", "room": room})).await;
        let reply = loop {
            let reply = b.recv().await;
            if reply["type"] != "room_state" {
                break reply;
            }
        };
        if reply["type"] == "error" {
            code = reply["code"].clone();
            break;
        }
        b.ask(json!({"type": "room_leave"}), "room_left").await;
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(code, "not_found");
}

#[tokio::test]
async fn a_top_out_ends_the_game_and_a_rematch_needs_both() {
    let server = Server::start();
    let mut a = tetris_socket(&server).await;
    let created = a
        .ask(json!({"type": "room_create", "seed": 9}), "room")
        .await;
    let room = created["room"].as_str().unwrap().to_owned();
    let mut b = tetris_socket(&server).await;
    b.ask(json!({"type": "room_join", "room": room}), "room")
        .await;
    // B names itself; A sees the name.
    let renamed = b
        .ask(
            json!({"type": "room_name", "name": "  Bea\u{7} ", "seq": 8}),
            "room_renamed",
        )
        .await;
    assert_eq!(renamed["seq"], 8);
    state_where(&mut a, |s| s["seats"][1]["name"] == "Bea").await;
    state_where(&mut a, |s| s["phase"] == "playing").await;
    // A hard-drops until it tops out; B wins.
    let mut over = Value::Null;
    for _ in 0..200 {
        hard_drop(&mut a).await;
        let state = a.until("room_state").await;
        if state["phase"] == "finished" {
            over = state;
            break;
        }
    }
    if over.is_null() {
        over = state_where(&mut a, |s| s["phase"] == "finished").await;
    }
    assert_eq!(over["winner"], 2);
    assert_eq!(over["reason"], "topped out");
    assert_eq!(over["games"], 1);
    // A rematch starts only when both asked.
    a.ask(json!({"type": "room_rematch", "seq": 4}), "room_rematch")
        .await;
    let asked = state_where(&mut b, |s| s["seats"][0]["rematch"] == true).await;
    assert_eq!(asked["phase"], "finished");
    b.ask(json!({"type": "room_rematch"}), "room_rematch").await;
    let again = state_where(&mut a, |s| s["phase"] == "countdown").await;
    assert_eq!(pieces(&again, 0), 0, "a fresh game");
    assert_eq!(again["winner"], Value::Null);
    let playing = state_where(&mut b, |s| s["phase"] == "playing").await;
    assert_eq!(playing["games"], 2);
}
