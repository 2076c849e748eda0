//! The Xiangqi WebSocket of `ludus serve` end to end: a real server on a
//! loopback port; legal and illegal moves, the engine's reply with its
//! thinking, FEN/PGN import errors, saving where the terminal reads, broken
//! messages, and a reload that resumes the game.
#![allow(clippy::unwrap_used)]

mod web_common;

use futures_util::SinkExt;
use serde_json::{Value, json};
use tokio_tungstenite::connect_async_with_config;
use tokio_tungstenite::tungstenite::Message;
use web_common::{Client, Server};

async fn socket(server: &Server) -> Client {
    let url = format!("ws://{}/ws/xiangqi", server.addr);
    let (ws, _) = connect_async_with_config(url, None, true).await.unwrap();
    Client { ws }
}

/// A game against the fastest strength, the human playing `human`.
async fn engine_game(client: &mut Client, human: &str) -> Value {
    client
        .ask(
            json!({"type": "new", "mode": "engine", "human": human, "level": 0, "seq": 1}),
            "state",
        )
        .await
}

#[tokio::test]
async fn a_move_gets_the_engines_reply_with_its_thinking() {
    let server = Server::start();
    let mut client = socket(&server).await;
    let state = engine_game(&mut client, "red").await;
    assert_eq!(state["seq"], 1);
    assert_eq!(state["turn"], "red");
    assert_eq!(state["human"], "red");
    assert_eq!(state["legal"].as_array().unwrap().len(), 44);
    assert!(state["thinking"].is_null());

    let moved = client
        .ask(json!({"type": "move", "move": "h2e2", "seq": 2}), "state")
        .await;
    assert_eq!(moved["seq"], 2);
    assert_eq!(moved["moves"][0]["chinese"], "炮二平五");
    assert_eq!(moved["moves"][0]["wxf"], "C2.5");
    assert_eq!(moved["moves"][0]["iccs"], "H2-E2");
    assert_eq!(moved["thinking"], "move");
    // Until the engine answers, moves are refused.
    client
        .send(json!({"type": "move", "move": "h9g7", "seq": 3}))
        .await;
    // The engine's move arrives as a state without seq; its thinking before it.
    let mut replies = Vec::new();
    let mut answer = None;
    let refused = |r: &Value| r["type"] == "error" && r["code"] == "illegal" && r["seq"] == 3;
    while answer.is_none() || !replies.iter().any(refused) {
        let r = client.recv().await;
        if r["type"] == "state" && r["moves"].as_array().unwrap().len() == 2 {
            answer = Some(r);
        } else {
            replies.push(r);
        }
    }
    let reply = answer.unwrap();
    assert_eq!(reply["turn"], "red");
    assert!(reply["thinking"].is_null());
    let engine_move = reply["moves"][1]["uci"].as_str().unwrap();
    assert_eq!(reply["moves"][1]["fen"], reply["fen"]);
    assert!(engine_move.len() == 4, "{engine_move}");
    // The thinking lines (when not a book move) say depth, score and a PV in Chinese.
    for t in replies
        .iter()
        .filter(|r| r["type"] == "thinking" && r["depth"].is_number())
    {
        assert!(t["score_text"].is_string());
        assert!(t["pv"][0].as_str().unwrap().chars().count() == 4, "{t}");
    }
    // A book move says so: no search, so no score for its position; the
    // player's own move is never a book move.
    assert_eq!(reply["moves"][0]["book"], false);
    let book = reply["moves"][1]["book"].as_bool().unwrap();
    assert_eq!(book, reply["evals"][1].is_null(), "{reply}");
    let searched = replies
        .iter()
        .any(|r| r["type"] == "thinking" && r["ply"] == 1 && r["depth"].is_number());
    if book {
        assert!(!searched, "a book move after a search: {replies:?}");
    }

    // Undo takes back both moves.
    let undone = client.ask(json!({"type": "undo"}), "state").await;
    assert_eq!(undone["moves"].as_array().unwrap().len(), 0);
    assert_eq!(undone["turn"], "red");
}

#[tokio::test]
async fn illegal_moves_and_malformed_messages_are_answered_and_the_socket_lives() {
    let server = Server::start();
    let mut client = socket(&server).await;
    let refused = client
        .ask(json!({"type": "move", "move": "h2e2", "seq": 5}), "error")
        .await;
    assert_eq!(
        (refused["code"].as_str(), refused["seq"].as_u64()),
        (Some("no_game"), Some(5))
    );
    client
        .ask(json!({"type": "new", "mode": "humans"}), "state")
        .await;
    for (request, code) in [
        (json!({"type": "move", "move": "h2e3"}), "illegal"), // not a legal move
        (json!({"type": "move", "move": "e3e5"}), "illegal"), // a soldier steps one point
        (json!({"type": "move"}), "bad_request"),
        (json!({"type": "move", "move": 7}), "bad_request"),
        (json!({"type": "new", "mode": "solo"}), "bad_request"),
        (json!({"type": "castle"}), "unknown_type"),
        (json!({"type": "undo"}), "not_found"),
    ] {
        let reply = client.ask(request.clone(), "error").await;
        assert_eq!(reply["code"], code, "{request} → {reply}");
    }
    client.send_text("{not json").await;
    assert_eq!(client.until("error").await["code"], "bad_json");
    client
        .send_text(format!(
            "{{\"type\":\"ping\",\"pad\":\"{}\"}}",
            "x".repeat(70_000)
        ))
        .await;
    assert_eq!(client.until("error").await["code"], "too_large");
    client
        .ws
        .send(Message::binary(vec![1, 2, 3]))
        .await
        .unwrap();
    assert_eq!(client.until("error").await["code"], "binary");
    // Still usable: Chinese and WXF moves are read too.
    let state = client
        .ask(json!({"type": "move", "move": "炮二平五"}), "state")
        .await;
    assert_eq!(state["moves"][0]["uci"], "h2e2");
    let state = client
        .ask(json!({"type": "move", "move": "H8+7"}), "state")
        .await;
    assert_eq!(state["moves"][1]["chinese"], "馬8進7");
    // Simplified characters, when the player asks for them.
    let switched = client
        .ask(
            json!({"type": "characters", "characters": "simplified"}),
            "options",
        )
        .await;
    assert_eq!(switched["characters"], "simplified");
    let state = client.until("state").await;
    assert_eq!(state["moves"][1]["chinese"], "马8进7");
    assert_eq!(
        client.ask(json!({"type": "ping"}), "pong").await["type"],
        "pong"
    );
}

#[tokio::test]
async fn fen_and_pgn_imports_report_where_they_fail() {
    let server = Server::start();
    let mut client = socket(&server).await;
    let bad_fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w";
    let reply = client
        .ask(json!({"type": "import", "text": bad_fen}), "error")
        .await;
    assert_eq!(reply["code"], "bad_record");
    assert!(
        reply["message"]
            .as_str()
            .unwrap()
            .starts_with("FEN line 1, column 59:"),
        "{reply}"
    );
    let bad_pgn = "[Event \"x\"]\n\n1. h2e2 h9g7\n2. h0g2 zz9 *\n";
    let reply = client
        .ask(json!({"type": "import", "text": bad_pgn}), "error")
        .await;
    assert_eq!(reply["code"], "bad_record");
    assert!(
        reply["message"]
            .as_str()
            .unwrap()
            .starts_with("PGN line 4, column"),
        "{reply}"
    );
    let reply = client
        .ask(
            json!({"type": "new", "mode": "humans", "fen": "4k4/9/9/9/9/9/9/9/9/4K4 w"}),
            "error",
        )
        .await;
    assert_eq!(reply["code"], "bad_record");
    // The editor's validation.
    let v = client
        .ask(
            json!({"type": "validate", "fen": "3k5/9/9/9/9/9/9/9/4R4/4K4 b"}),
            "validation",
        )
        .await;
    assert_eq!(v["ok"], true);
    let v = client
        .ask(
            json!({"type": "validate", "fen": "9/9/9/9/9/9/9/9/9/4K4 w"}),
            "validation",
        )
        .await;
    assert_eq!(v["ok"], false);
    assert!(v["message"].as_str().unwrap().contains("general"), "{v}");
    // A position error names no line and column, and is shown on the board.
    assert!(!v["message"].as_str().unwrap().contains("line 1"), "{v}");
    assert_eq!(v["readable"], true);
    let facing = client
        .ask(
            json!({"type": "validate", "fen": "4k4/9/9/9/9/9/9/9/9/4K4 b"}),
            "validation",
        )
        .await;
    assert_eq!(facing["ok"], false);
    assert_eq!(facing["squares"], json!(["e0"]), "{facing}");
    // Text that is no board keeps its line and column and is not readable.
    let junk = client
        .ask(
            json!({"type": "validate", "fen": "hello world"}),
            "validation",
        )
        .await;
    assert_eq!(junk["readable"], false);
    assert!(
        junk["message"].as_str().unwrap().starts_with("FEN line 1"),
        "{junk}"
    );

    // A good PGN opens at its end; export gives it back.
    let pgn = "[Red \"Ann\"]\n[Black \"Bo\"]\n\n1. 炮二平五 马8进7 2. 马二进三 *\n";
    let state = client
        .ask(json!({"type": "import", "text": pgn}), "state")
        .await;
    assert_eq!(state["mode"], "humans");
    assert_eq!(state["names"], json!(["Ann", "Bo"]));
    assert_eq!(state["moves"].as_array().unwrap().len(), 3);
    let out = client
        .ask(
            json!({"type": "export", "format": "pgn", "notation": "iccs"}),
            "exported",
        )
        .await;
    assert!(out["text"].as_str().unwrap().contains("H2-E2"), "{out}");
    let fen = client
        .ask(json!({"type": "export", "format": "fen"}), "exported")
        .await;
    assert_eq!(fen["text"], state["fen"]);
}

#[tokio::test]
async fn saved_games_are_where_the_terminal_reads_them_and_reload_resumes() {
    let server = Server::start();
    let mut client = socket(&server).await;
    client
        .ask(json!({"type": "new", "mode": "humans"}), "state")
        .await;
    client
        .ask(json!({"type": "move", "move": "h2e2"}), "state")
        .await;
    let state = client
        .ask(json!({"type": "move", "move": "h9g7"}), "state")
        .await;
    let session = state["session"].as_str().unwrap().to_string();
    let saved = client.ask(json!({"type": "save"}), "saved").await;
    let name = saved["name"].as_str().unwrap().to_string();
    let text =
        std::fs::read_to_string(server.data.path().join("xiangqi/games").join(&name)).unwrap();
    assert!(text.contains("1. 炮二平五 马8进7"), "{text}");

    // Resign, and the home page counts the game.
    let over = client.ask(json!({"type": "resign"}), "state").await;
    assert_eq!(over["over"]["result"], "0-1");
    let (_, _, body) = server.get("/api/summary").await;
    let summary: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(summary["xiangqi"]["saved"], 1);

    // A reload: a new connection resumes the same game.
    drop(client);
    let mut again = socket(&server).await;
    let resumed = again
        .ask(json!({"type": "resume", "session": session}), "state")
        .await;
    assert_eq!(resumed["moves"].as_array().unwrap().len(), 2);
    assert_eq!(resumed["over"]["result"], "0-1");
    let gone = again
        .ask(json!({"type": "resume", "session": "nope"}), "error")
        .await;
    assert_eq!(gone["code"], "not_found");

    // The saved game is listed and opens.
    let games = again.ask(json!({"type": "games"}), "games").await;
    assert_eq!(games["games"][0]["name"], name.as_str());
    // Two plies are one move, as the move list numbers them.
    assert_eq!(games["games"][0]["moves"], 1);
    assert_eq!(resumed["moves"][1]["after"], "after Black's move 1 of 1");
    let opened = again
        .ask(json!({"type": "open", "name": name}), "state")
        .await;
    assert_eq!(opened["moves"].as_array().unwrap().len(), 2);
    let refused = again
        .ask(json!({"type": "open", "name": "../settings.json"}), "error")
        .await;
    assert_eq!(refused["code"], "not_found");
}

#[tokio::test]
async fn the_engine_moves_first_when_the_human_plays_black_and_hints_come() {
    let server = Server::start();
    let mut client = socket(&server).await;
    let state = engine_game(&mut client, "black").await;
    assert_eq!(state["thinking"], "move");
    let reply = loop {
        let r = client.recv().await;
        if r["type"] == "state" {
            break r;
        }
    };
    assert_eq!(reply["moves"].as_array().unwrap().len(), 1);
    assert_eq!(reply["turn"], "black");
    let thinking = client
        .ask(json!({"type": "hint", "seq": 9}), "thinking")
        .await;
    assert_eq!(thinking["seq"], 9);
    let hint = client.until("hint").await;
    assert!(hint["book"].is_boolean(), "{hint}");
    let m = hint["move"].as_str().unwrap();
    assert!(
        reply["legal"].as_array().unwrap().iter().any(|l| l == m),
        "{hint}"
    );
}

#[tokio::test]
async fn clocks_run_for_the_side_to_move_and_add_the_increment() {
    let server = Server::start();
    let mut client = socket(&server).await;
    // Clock choice 1 is "1 min + 1 s"; it is remembered for the next game.
    let state = client
        .ask(
            json!({"type": "new", "mode": "humans", "clock": 1}),
            "state",
        )
        .await;
    assert_eq!(state["clocks"]["left_ms"], json!([60_000, 60_000]));
    assert_eq!(state["clocks"]["increment_ms"], 1000);
    assert_eq!(state["clocks"]["running"], true);
    let options = client.ask(json!({"type": "options"}), "options").await;
    assert_eq!(options["clock"], 1);
    assert_eq!(options["clocks"][0], "off");
    // Red moves: Red's time is charged and gets the increment; Black's runs now.
    let moved = client
        .ask(json!({"type": "move", "move": "h2e2"}), "state")
        .await;
    let red = moved["clocks"]["left_ms"][0].as_u64().unwrap();
    assert!((59_000..=61_000).contains(&red), "{moved}");
    assert!(red > 60_000 - 1000, "the increment was added: {red}");
    assert_eq!(moved["clocks"]["left_ms"][1], 60_000);
    // Asking about the clocks changes nothing while time is left.
    let checked = client.ask(json!({"type": "clock"}), "state").await;
    assert!(checked["over"].is_null());
    assert_eq!(checked["turn"], "black");
    // A game without clocks has none.
    let plain = client
        .ask(
            json!({"type": "new", "mode": "humans", "clock": 0}),
            "state",
        )
        .await;
    assert!(plain["clocks"].is_null());
}

#[tokio::test]
async fn a_duplicated_tab_takes_the_game_over_and_the_first_is_told() {
    let server = Server::start();
    let mut first = socket(&server).await;
    first
        .ask(json!({"type": "new", "mode": "humans"}), "state")
        .await;
    let state = first
        .ask(json!({"type": "move", "move": "h2e2"}), "state")
        .await;
    let session = state["session"].as_str().unwrap().to_string();

    let mut second = socket(&server).await;
    second
        .ask(json!({"type": "resume", "session": session}), "state")
        .await;
    first.until("taken_over").await;
    // Its move is refused, not played on a board it no longer sees.
    let refused = first
        .ask(json!({"type": "move", "move": "h9g7"}), "error")
        .await;
    assert_eq!(refused["code"], "no_game");
    let moved = second
        .ask(json!({"type": "move", "move": "h9g7"}), "state")
        .await;
    assert_eq!(moved["moves"].as_array().unwrap().len(), 2);
}

/// Sends `value` and returns the reply carrying its `seq` (engine messages
/// arriving meanwhile are skipped).
async fn reply(client: &mut Client, value: Value) -> Value {
    let seq = value["seq"].clone();
    client.send(value).await;
    loop {
        let r = client.recv().await;
        if r["seq"] == seq {
            return r;
        }
    }
}

#[tokio::test]
async fn analysis_sends_lines_for_the_position_shown_and_follows_it() {
    let server = Server::start();
    let mut client = socket(&server).await;
    reply(
        &mut client,
        json!({"type": "new", "mode": "humans", "seq": 1}),
    )
    .await;
    reply(
        &mut client,
        json!({"type": "move", "move": "h2e2", "seq": 2}),
    )
    .await;
    let state = reply(
        &mut client,
        json!({"type": "analysis", "on": true, "seq": 3}),
    )
    .await;
    assert_eq!(state["analysis"]["ply"], 1);
    assert_eq!(state["thinking"], "analysis");
    // Lines arrive as `analysis` messages, deepening.
    let mut seen = client.recv().await;
    while seen["type"] != "analysis" || seen["lines"].as_array().unwrap().is_empty() {
        seen = client.recv().await;
    }
    assert_eq!(seen["ply"], 1);
    let first = &seen["lines"][0];
    assert_eq!(first["rank"], 1);
    assert!(first["score"].is_string());
    assert_eq!(
        first["uci"].as_array().unwrap().len(),
        first["chinese"].as_array().unwrap().len()
    );
    // Stepping back: the analysis is of the start position now.
    let state = reply(&mut client, json!({"type": "show", "ply": 0, "seq": 4})).await;
    assert_eq!(state["view"], 0);
    assert_eq!(state["analysis"]["ply"], 0);
    // Moves wait while the page looks back.
    let refused = reply(
        &mut client,
        json!({"type": "move", "move": "h9g7", "seq": 5}),
    )
    .await;
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("earlier position"),
        "{refused}"
    );
    // Paused, then off.
    let state = reply(
        &mut client,
        json!({"type": "analysis_pause", "paused": true, "seq": 6}),
    )
    .await;
    assert_eq!(state["analysis"]["paused"], true);
    assert!(state["thinking"].is_null());
    let state = reply(
        &mut client,
        json!({"type": "analysis", "on": false, "seq": 7}),
    )
    .await;
    assert!(state["analysis"].is_null());
}

#[tokio::test]
async fn engines_play_each_other_and_can_be_paused_and_stepped() {
    let server = Server::start();
    let mut client = socket(&server).await;
    let options = reply(&mut client, json!({"type": "options", "seq": 1})).await;
    assert_eq!(options["seats"][0], "Ludus (Beginner (skill 1, 0.2 s))");
    // The two fastest strengths.
    let state = reply(
        &mut client,
        json!({"type": "new", "mode": "engines", "red": 0, "black": 1, "seq": 2}),
    )
    .await;
    assert_eq!(state["mode"], "engines");
    assert_eq!(state["names"][1], "Ludus (Novice (skill 5, 0.3 s))");
    assert!(state["legal"].as_array().is_some());
    // Moves come by themselves, paced.
    let mut plies = 0;
    while plies < 3 {
        let r = client.recv().await;
        if r["type"] == "state" {
            plies = r["moves"].as_array().unwrap().len();
        }
    }
    let refused = reply(
        &mut client,
        json!({"type": "move", "move": "a0a1", "seq": 3}),
    )
    .await;
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("engines are playing"),
        "{refused}"
    );
    let paused = reply(
        &mut client,
        json!({"type": "watch_pause", "paused": true, "seq": 4}),
    )
    .await;
    assert_eq!(paused["watch_paused"], true);
    let at = paused["moves"].as_array().unwrap().len();
    // One step: one more move, then paused again.
    reply(&mut client, json!({"type": "watch_step", "seq": 5})).await;
    loop {
        let r = client.recv().await;
        if r["type"] == "state" && r["moves"].as_array().unwrap().len() == at + 1 {
            assert_eq!(r["watch_paused"], true);
            break;
        }
    }
    // Saved like any game, with the engines' names.
    let saved = client.ask(json!({"type": "save", "seq": 6}), "saved").await;
    assert!(saved["name"].as_str().unwrap().ends_with(".pgn"));
}

#[tokio::test]
async fn the_animation_switch_is_remembered_and_unset_until_chosen() {
    let server = Server::start();
    let mut client = socket(&server).await;
    // Unset: the page follows the browser's reduced-motion preference.
    let options = client.ask(json!({"type": "options"}), "options").await;
    assert!(options["animate"].is_null(), "{options}");
    let options = client
        .ask(
            json!({"type": "animate", "animate": false, "seq": 3}),
            "options",
        )
        .await;
    assert_eq!(
        (options["animate"].as_bool(), options["seq"].as_u64()),
        (Some(false), Some(3))
    );
    let refused = client
        .ask(json!({"type": "animate", "animate": "yes"}), "error")
        .await;
    assert_eq!(refused["code"], "bad_request");
    // Another page (a reload) is told the choice; it is in settings.json.
    let mut other = socket(&server).await;
    let options = other.ask(json!({"type": "options"}), "options").await;
    assert_eq!(options["animate"], false);
    let file = std::fs::read_to_string(server.data.path().join("settings.json")).unwrap();
    let settings: Value = serde_json::from_str(&file).unwrap();
    assert_eq!(settings["xiangqi"]["animate"], false);
    other
        .ask(json!({"type": "animate", "animate": true}), "options")
        .await;
    let options = client.ask(json!({"type": "options"}), "options").await;
    assert_eq!(options["animate"], true);
}

#[tokio::test]
async fn the_state_carries_the_ecco_opening_per_notation() {
    let server = Server::start();
    let mut client = socket(&server).await;
    let state = client
        .ask(json!({"type": "new", "mode": "humans", "seq": 1}), "state")
        .await;
    assert!(state["opening"].is_null());
    client
        .ask(json!({"type": "move", "move": "h2e2", "seq": 2}), "state")
        .await;
    let state = client
        .ask(json!({"type": "move", "move": "h9g7", "seq": 3}), "state")
        .await;
    let opening = &state["opening"];
    assert_eq!(opening["code"], "B05");
    assert_eq!(opening["chinese"], "B05 中炮對進左馬");
    assert_eq!(opening["wxf"], "B05 Central Cannon vs. Left Horse");
    assert_eq!(opening["iccs"], opening["wxf"]);
}

#[tokio::test]
async fn a_tablebase_ending_shows_its_verdict_in_the_state_and_the_editor() {
    let server = Server::start();
    // Tables generated before the page first asks (they are read on first use).
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["xiangqi", "tablebase", "generate", "--only", "KR-K"])
        .env("LUDUS_DATA_DIR", server.data.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let mut client = socket(&server).await;
    let fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w";
    let v = client
        .ask(json!({"type": "validate", "fen": fen}), "validation")
        .await;
    assert_eq!(v["ok"], true);
    assert_eq!(v["tablebase"], "Tablebase: Red wins in 2", "{v}");
    let state = client
        .ask(
            json!({"type": "new", "mode": "humans", "fen": fen, "seq": 1}),
            "state",
        )
        .await;
    assert_eq!(state["tablebase"], "Tablebase: Red wins in 2", "{state}");
    // Not covered: null.
    let start = client
        .ask(
            json!({"type": "validate", "fen": xiangqi::START_FEN}),
            "validation",
        )
        .await;
    assert!(start["tablebase"].is_null(), "{start}");
}
