//! Versus against the bot on the Tetris WebSocket of `ludus serve`, end to end: a real
//! server plays the same game as a local [`VersusSession`] given the same seed, keys and
//! times; the unlimited bot places pieces, garbage is exchanged, the person tops out by
//! hard-dropping, and the replay is saved where the terminal reads versus replays.
#![allow(clippy::unwrap_used)]

mod web_common;

use ludus::session::tetris::versus::{BotLevel, VersusSession};
use serde_json::{Value, json};
use tetris::versus::Player;
use tetris::{Action, Edge, Settings};
use tokio_tungstenite::connect_async_with_config;
use web_common::{Client, Server};

async fn tetris_socket(server: &Server) -> Client {
    let url = format!("ws://{}/ws/tetris", server.addr);
    let (ws, _) = connect_async_with_config(url, None, true).await.unwrap();
    Client { ws }
}

/// The locked cells of one side of a local session as the protocol's `board` text.
fn board_of(session: &VersusSession, player: Player) -> String {
    let game = session.game(player);
    let mut text = String::new();
    for y in (0..22).rev() {
        for x in 0..10 {
            text.push(game.matrix().cell(x, y).map_or('.', |b| b.letter()));
        }
    }
    text
}

async fn hard_drop(client: &mut Client, local: &mut VersusSession, t: u64) -> Value {
    for edge in ["press", "release"] {
        client
            .send(json!({"type": "input", "action": "hard_drop", "edge": edge, "t": t}))
            .await;
    }
    local.input(Player::One, Action::HardDrop, Edge::Press, t);
    local.input(Player::One, Action::HardDrop, Edge::Release, t);
    client.until("versus").await;
    client.until("versus").await
}

#[tokio::test]
async fn versus_against_the_unlimited_bot_to_the_end() {
    let server = Server::start();
    let mut client = tetris_socket(&server).await;

    let refused = client
        .ask(
            json!({"type": "versus", "level": "godlike", "seq": 1}),
            "error",
        )
        .await;
    assert_eq!(refused["code"], "bad_request");
    assert!(refused["message"].as_str().unwrap().contains("expert"));
    let refused = client.ask(json!({"type": "tick", "t": 5}), "error").await;
    assert_eq!(refused["code"], "no_game");

    let seed = 2024;
    let start = client
        .ask(
            json!({"type": "versus", "level": "unlimited", "seed": seed, "seq": 2}),
            "versus",
        )
        .await;
    assert_eq!(start["seq"], 2);
    assert_eq!(start["setup"]["level"], "unlimited");
    assert_eq!(start["setup"]["keys"]["hard_drop"], json!(["space"]));
    assert_eq!(start["playing"], true);
    assert_eq!(start["outcome"], Value::Null);
    assert_eq!(start["sides"][0]["who"], "you");
    assert_eq!(start["sides"][1]["who"], "bot");
    assert_eq!(start["sides"][1]["stats"]["pieces"], 0);
    let mut local = VersusSession::against_bot(BotLevel::Unlimited, Settings::default(), seed);
    assert_eq!(start["sides"][0]["board"], board_of(&local, Player::One));
    assert_eq!(
        start["sides"][0]["next"].as_str().unwrap().len(),
        local.game(Player::One).next_queue().len()
    );

    // Solo-only requests are refused while versus is played.
    let refused = client
        .ask(json!({"type": "hint", "on": true}), "error")
        .await;
    assert_eq!(refused["code"], "bad_request");
    let refused = client.ask(json!({"type": "save_replay"}), "error").await;
    assert!(refused["message"].as_str().unwrap().contains("still"));

    // A tick lets the bot play: a piece every 10 ms, as the local session does.
    let state = client
        .ask(json!({"type": "tick", "t": 300}), "versus")
        .await;
    local.update(300, &[]);
    assert_eq!(state["t"], 300);
    let bot_pieces = state["sides"][1]["stats"]["pieces"].as_u64().unwrap();
    assert!(bot_pieces >= 20, "the bot placed {bot_pieces} pieces");
    assert_eq!(bot_pieces, local.game(Player::Two).pieces());
    assert_eq!(state["sides"][1]["board"], board_of(&local, Player::Two));
    assert!(state["sides"][1]["active"]["cells"].is_array());

    // A page claiming a far time gets at most a second.
    let state = client
        .ask(json!({"type": "tick", "t": 999_999}), "versus")
        .await;
    local.update(1_300, &[]);
    assert_eq!(state["t"], 1_300);

    // Paused, time stands still; going on starts from there.
    let state = client
        .ask(
            json!({"type": "pause", "paused": true, "t": 1_300}),
            "versus",
        )
        .await;
    assert_eq!(state["paused"], true);
    local.pause(1_300);
    let state = client
        .ask(json!({"type": "tick", "t": 2_000}), "versus")
        .await;
    assert_eq!(state["t"], 1_300);
    let state = client
        .ask(
            json!({"type": "pause", "paused": false, "t": 1_300}),
            "versus",
        )
        .await;
    assert_eq!(state["paused"], false);
    local.resume();

    // The person hard-drops every 20 ms into the middle and tops out; on the way the
    // bot's attack reaches them as garbage.
    let mut t = 1_300;
    let mut last = state;
    let mut saw_garbage = false;
    while last["playing"] == true {
        t += 20;
        assert!(t < 60_000, "no end in a minute of game time");
        last = hard_drop(&mut client, &mut local, t).await;
        let meter = &last["sides"][0]["meter"];
        saw_garbage |= meter["ready"].as_u64().unwrap() + meter["pending"].as_u64().unwrap() > 0
            || last["sides"][0]["stats"]["received"].as_u64().unwrap() > 0;
    }
    assert_eq!(last["outcome"], "loss");
    assert_eq!(
        local.outcome(),
        Some(tetris::versus::Outcome::Winner(Player::Two))
    );
    assert_eq!(last["sides"][0]["board"], board_of(&local, Player::One));
    assert_eq!(last["sides"][1]["board"], board_of(&local, Player::Two));
    assert_eq!(
        last["sides"][0]["stats"]["pieces"].as_u64(),
        Some(local.game(Player::One).pieces())
    );
    let bot = &last["sides"][1]["stats"];
    assert_eq!(
        bot["attack"].as_u64(),
        Some(u64::from(local.stats(Player::Two).core.garbage.attack))
    );
    assert!(bot["pps"].as_f64().unwrap() > 10.0);
    // The seed is chosen so that the bot attacks before the person tops out.
    assert!(bot["sent"].as_u64().unwrap() > 0, "the bot sent nothing");
    assert!(
        saw_garbage,
        "the bot attacked but no garbage reached the person"
    );
    assert_eq!(
        last["sides"][0]["stats"]["received"], bot["sent"],
        "every line the bot sent reached the person"
    );

    // Keys after the end change nothing.
    let after = hard_drop(&mut client, &mut local, t + 20).await;
    assert_eq!(after["sides"][0]["board"], last["sides"][0]["board"]);
    assert_eq!(after["t"], last["t"]);

    // The replay goes where the terminal keeps versus replays, once.
    let saved = client
        .ask(json!({"type": "save_replay", "seq": 9}), "replay_saved")
        .await;
    assert_eq!(saved["seq"], 9);
    let name = saved["name"].as_str().unwrap().to_string();
    let path = server.data.path().join("tetris").join("versus").join(&name);
    let replay = ludus::session::tetris::versus::read_versus_replay(&path).unwrap();
    assert_eq!(replay.seed, seed);
    let again = client
        .ask(json!({"type": "save_replay"}), "replay_saved")
        .await;
    assert_eq!(again["name"], name.as_str());
    let state = client.ask(json!({"type": "tick", "t": t}), "versus").await;
    assert_eq!(state["replay"], name.as_str());

    // A solo game replaces the versus game on the same socket.
    let solo = client
        .ask(json!({"type": "new", "mode": "sprint", "seed": 1}), "state")
        .await;
    assert_eq!(solo["setup"]["mode"], "sprint");
}

#[tokio::test]
async fn versus_against_a_configured_tbp_bot_named_by_index() {
    let server = Server::start();
    let data = ludus::store::DataDir::at(server.data.path());
    let (mut settings, _) = ludus::store::settings::load(&data);
    let bin = env!("CARGO_BIN_EXE_ludus");
    settings.tetris.bots = vec![format!("'{bin}' tetris tbp")];
    ludus::store::settings::save(&data, &settings).unwrap();
    let mut client = tetris_socket(&server).await;

    let options = client
        .ask(
            json!({"type": "versus_options", "seq": 1}),
            "versus_options",
        )
        .await;
    assert_eq!(
        options["opponents"],
        json!(["Ludus's bot", "ludus tetris tbp"])
    );
    assert_eq!(options["levels"][4]["name"], "unlimited");
    let refused = client
        .ask(
            json!({"type": "versus", "level": "hard", "opponent": 2, "seq": 2}),
            "error",
        )
        .await;
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("no opponent 2")
    );

    let start = client
        .ask(
            json!({"type": "versus", "level": "expert", "opponent": 1, "seed": 3, "seq": 3}),
            "versus",
        )
        .await;
    assert_eq!(start["setup"]["opponent"], "ludus tetris tbp");
    assert_eq!(
        start["sides"][1]["label"],
        "ludus tetris tbp · Expert (3 PPS)"
    );
    // The page's ticks are answered at once while the bot thinks on its own thread; its
    // pieces come as it answers (three a second).
    let begun = std::time::Instant::now();
    let mut t = 0;
    let mut state = start;
    while state["sides"][1]["stats"]["pieces"].as_u64() < Some(3) {
        assert!(begun.elapsed().as_secs() < 20, "the TBP bot never played");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        t += 50;
        let asked = std::time::Instant::now();
        state = client.ask(json!({"type": "tick", "t": t}), "versus").await;
        assert!(
            asked.elapsed().as_millis() < 500,
            "a tick waited for the bot"
        );
    }
    assert_eq!(state["playing"], true);
    assert!(state["sides"][1].get("forfeit").is_none());
}
