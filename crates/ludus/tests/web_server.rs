//! `ludus serve` end to end: a real server on a loopback port, HTTP routes
//! and the Sokoban WebSocket protocol, including everything a hostile or
//! broken client might send.
#![allow(clippy::unwrap_used)]

mod web_common;

use serde_json::json;
use web_common::{FIXTURE_COLLECTION, Server, dirs, fixture, header};

#[tokio::test]
async fn pages_and_assets_with_their_types() {
    let server = Server::start();
    for (path, kind) in [
        ("/", "text/html"),
        ("/sokoban", "text/html"),
        ("/sokoban.html", "text/html"),
        ("/css/ludus.css", "text/css"),
        ("/js/sokoban.js", "javascript"),
        ("/js/sprites.js", "javascript"),
        ("/favicon.svg", "image/svg+xml"),
        ("/fonts/xiangqi-pieces.woff2", "font/woff2"),
        ("/fonts/xiangqi-text.woff2", "font/woff2"),
        ("/fonts/OFL.txt", "text/plain"),
        ("/api/sokoban/collections", "application/json"),
        ("/api/summary", "application/json"),
    ] {
        let (status, headers, body) = server.get(path).await;
        assert_eq!(status, 200, "{path}");
        let content_type = header(&headers, "content-type").unwrap_or_default();
        assert!(content_type.contains(kind), "{path}: {content_type}");
        assert!(!body.is_empty(), "{path}");
    }
    let (_, _, body) = server.get("/api/sokoban/collections").await;
    let list: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert!(list["collections"][0]["levels"].as_u64().unwrap() > 0);
    assert_eq!(
        list["collections"][FIXTURE_COLLECTION]["levels"],
        fixture().len()
    );
    let (status, _, body) = server
        .get(&format!("/api/sokoban/collections/{FIXTURE_COLLECTION}"))
        .await;
    assert_eq!(status, 200);
    let one: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let levels = one["levels"].as_array().unwrap();
    assert_eq!(levels.len(), fixture().len());
    assert_eq!(levels[0]["solved"], false);
    assert!(levels[0]["xsb"].as_str().unwrap().contains('@'));
    assert_eq!(levels[0]["name"], levels[0]["title"]);
    // Microban's untitled levels are named by their size, as in the terminal's
    // browser ("11x9, 6 boxes"), their titles kept for the records.
    let microban = list["collections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"].as_str().unwrap().starts_with("Microban"))
        .unwrap()["index"]
        .clone();
    let (_, _, body) = server
        .get(&format!("/api/sokoban/collections/{microban}"))
        .await;
    let built_in: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let first = &built_in["levels"][0];
    let name = first["name"].as_str().unwrap();
    assert!(first["title"].as_str().unwrap().ends_with(" #1"), "{first}");
    assert!(name.contains('x') && name.ends_with("boxes"), "{name}");
}

#[tokio::test]
async fn unknown_and_escaping_paths_are_404() {
    let server = Server::start();
    for path in [
        "/nothing-here",
        "/js/nothing.js",
        "/../Cargo.toml",
        "/css/../../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/%2E%2E%2FCargo.toml",
        "/css/..%2f..%2fsrc%2flib.rs",
        "/..%5c..%5cCargo.toml",
        "/etc/passwd",
        "//etc/passwd",
    ] {
        let (status, _, body) = server.get(path).await;
        assert_eq!(status, 404, "{path}");
        assert!(
            !String::from_utf8_lossy(&body).contains("[package]"),
            "{path}"
        );
    }
}

#[tokio::test]
async fn play_undo_solve_records_progress_and_reload_resumes() {
    let server = Server::start();
    let mut client = server.socket().await;
    let level = &fixture()[2]; // "Two Lanes": RRRllldRRR
    let state = client
        .ask(
            json!({"type": "open", "collection": FIXTURE_COLLECTION, "level": 2, "seq": 1}),
            "state",
        )
        .await;
    assert_eq!(state["seq"], 1);
    assert_eq!(state["moves"], 0);
    assert_eq!(state["player"], level.player());
    let session = state["session"].as_str().unwrap().to_string();

    // A move, its undo and its redo.
    let solution = level.meta.solutions[0].clone();
    let steps = dirs(&solution);
    let moved = client
        .ask(json!({"type": "move", "dir": steps[0], "seq": 2}), "state")
        .await;
    assert_eq!(
        (moved["seq"].as_u64(), moved["moves"].as_u64()),
        (Some(2), Some(1))
    );
    let undone = client.ask(json!({"type": "undo"}), "state").await;
    assert_eq!(undone["moves"], 0);
    assert_eq!(undone["can_redo"], true);
    let redone = client.ask(json!({"type": "redo"}), "state").await;
    assert_eq!(redone["moves"], 1);

    // Play the rest of the stored solution.
    let mut last = redone;
    for dir in &steps[1..] {
        last = client
            .ask(json!({"type": "move", "dir": dir}), "state")
            .await;
    }
    assert_eq!(last["solved"], true, "{last}");
    let solved = client.until("solved").await;
    assert_eq!(solved["first_solve"], true);
    assert_eq!(solved["next"], 3);

    // Written to the data dir, where the terminal UI reads it.
    let progress =
        std::fs::read_to_string(server.data.path().join("sokoban/progress.json")).unwrap();
    assert!(progress.contains(&level.key()), "{progress}");
    let (_, _, body) = server
        .get(&format!("/api/sokoban/collections/{FIXTURE_COLLECTION}"))
        .await;
    let list: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(list["levels"][2]["solved"], true);

    // A reload: a new connection resumes the same game.
    drop(client);
    let mut again = server.socket().await;
    let resumed = again
        .ask(json!({"type": "resume", "session": session}), "state")
        .await;
    assert_eq!(resumed["session"], session.as_str());
    assert_eq!(resumed["moves"], last["moves"]);
    assert_eq!(resumed["solved"], true);
    let replay = again.ask(json!({"type": "replay"}), "replay").await;
    assert_eq!(replay["lurd"], solution.as_str());

    // The next level keeps the session.
    let next = again
        .ask(json!({"type": "next", "unsolved": true}), "state")
        .await;
    assert_eq!(
        (next["level"].as_u64(), next["session"].as_str()),
        (Some(3), Some(session.as_str()))
    );
    let gone = again
        .ask(json!({"type": "resume", "session": "0123"}), "error")
        .await;
    assert_eq!(gone["code"], "not_found");
}

#[tokio::test]
async fn mouse_paths_and_blocked_moves() {
    let server = Server::start();
    let mut client = server.socket().await;
    let state = client
        .ask(
            json!({"type": "open", "collection": FIXTURE_COLLECTION, "level": 0}),
            "state",
        )
        .await;
    let level = &fixture()[0];
    let width = state["width"].as_u64().unwrap() as usize;
    let goal = level.map().goals().next().unwrap();
    let the_box = level.boxes()[0];
    let path = client
        .ask(json!({"type": "push", "from": the_box, "to": goal}), "path")
        .await;
    let steps = path["steps"].as_array().unwrap().clone();
    assert!(!steps.is_empty());
    let mut last = state.clone();
    for dir in steps {
        last = client
            .ask(json!({"type": "move", "dir": dir}), "state")
            .await;
    }
    assert_eq!(last["solved"], true);
    // A wall: the state comes back with the reason, unchanged.
    client.ask(json!({"type": "undo"}), "state").await;
    let wall = (0..level.map().len())
        .find(|&c| level.map().cell(c) == sokoban::Cell::Wall)
        .unwrap();
    let refused = client
        .ask(json!({"type": "walk", "to": wall}), "error")
        .await;
    assert_eq!(refused["code"], "blocked");
    let far = client
        .ask(json!({"type": "walk", "to": width * 1000}), "error")
        .await;
    assert_eq!(far["code"], "blocked");
}

#[tokio::test]
async fn bad_messages_get_errors_and_the_connection_stays_usable() {
    let server = Server::start();
    let mut client = server.socket().await;
    let cases: Vec<(String, &str)> = vec![
        ("{".into(), "bad_json"),
        ("not json at all".into(), "bad_json"),
        ("[1,2,3]".into(), "bad_json"),
        ("42".into(), "bad_json"),
        (r#"{"dir":"up"}"#.into(), "bad_request"),
        (r#"{"type":7}"#.into(), "bad_request"),
        (r#"{"type":"teleport"}"#.into(), "unknown_type"),
        (r#"{"type":"move","dir":"sideways"}"#.into(), "bad_request"),
        (r#"{"type":"move"}"#.into(), "bad_request"),
        (
            r#"{"type":"move","dir":"up","extra":1}"#.into(),
            "bad_request",
        ),
        (
            r#"{"type":"open","collection":-1,"level":0}"#.into(),
            "bad_request",
        ),
        (
            r#"{"type":"open","collection":99,"level":0}"#.into(),
            "not_found",
        ),
        (
            r#"{"type":"open","collection":0,"level":999999}"#.into(),
            "not_found",
        ),
        (r#"{"type":"undo"}"#.into(), "no_game"),
        (
            format!(r#"{{"type":"upload","text":"{}"}}"#, "#".repeat(70 * 1024)),
            "too_large",
        ),
        (" ".repeat(200 * 1024), "too_large"),
        (r#"{"type":"upload","text":"hello"}"#.into(), "bad_level"),
        (
            r#"{"type":"validate","text":"\u0000\u0001"}"#.into(),
            "validation",
        ),
    ];
    for (text, code) in cases {
        client.send_text(text.clone()).await;
        let reply = client.recv().await;
        let shown: String = text.chars().take(60).collect();
        if code == "validation" {
            assert_eq!(reply["type"], "validation", "{shown}");
            assert_eq!(reply["ok"], false);
        } else {
            assert_eq!(reply["type"], "error", "{shown}: {reply}");
            assert_eq!(reply["code"], code, "{shown}: {reply}");
        }
    }
    // Run-length bombs and huge boards are refused by the parser, not expanded.
    for text in ["99999999999#", "9999(9999(9999#))", "300#|300#"] {
        let reply = client
            .ask(json!({"type": "parse", "text": text}), "parsed")
            .await;
        assert!(reply["levels"][0]["error"].is_string(), "{text}: {reply}");
    }
    // A binary frame.
    use futures_util::SinkExt;
    client
        .ws
        .send(tokio_tungstenite::tungstenite::Message::binary(vec![
            1u8, 2, 3,
        ]))
        .await
        .unwrap();
    assert_eq!(client.recv().await["code"], "binary");
    // Still usable.
    let pong = client.ask(json!({"type": "ping", "seq": 77}), "pong").await;
    assert_eq!(pong["seq"], 77);
    let state = client
        .ask(
            json!({"type": "open", "collection": 0, "level": 0}),
            "state",
        )
        .await;
    assert_eq!(state["moves"], 0);
}

#[tokio::test]
async fn no_request_reaches_outside_the_data_dir() {
    let server = Server::start();
    let outside = server.data.path().parent().unwrap().to_path_buf();
    let mut client = server.socket().await;
    let level = "#####\n#@$.#\n#####\n";
    for name in [
        "../../escape",
        "..",
        "/tmp/escape",
        "a/b",
        "..\\..\\escape",
        "%2e%2e%2fescape",
        "",
        "x".repeat(200).as_str(),
    ] {
        let reply = client
            .ask(
                json!({"type": "save_level", "name": name, "text": level}),
                "error",
            )
            .await;
        assert_eq!(reply["code"], "bad_path", "{name}");
    }
    assert!(!outside.join("escape.sok").exists());
    assert!(!std::path::Path::new("/tmp/escape.sok").exists());
    // An upload's name only chooses the format; it is never opened.
    let reply = client
        .ask(
            json!({"type": "upload", "name": "../../../../etc/passwd", "text": "no level"}),
            "error",
        )
        .await;
    assert_eq!(reply["code"], "bad_level");
    // A good name lands in the levels folder and shows in the registry.
    let saved = client
        .ask(
            json!({"type": "save_level", "name": "tiny", "text": level, "title": "Tiny"}),
            "saved",
        )
        .await;
    assert_eq!(saved["path"], "sokoban/levels/tiny.sok");
    assert!(server.data.path().join("sokoban/levels/tiny.sok").exists());
    let (_, _, body) = server.get("/api/sokoban/collections").await;
    let list: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let names: Vec<&str> = list["collections"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(names.len(), sokoban::levels::BUILTIN.len() + 2, "{names:?}");
    assert!(names.contains(&"Tiny"), "{names:?}");
}

#[tokio::test]
async fn editor_requests() {
    let server = Server::start();
    let mut client = server.socket().await;
    let ok = client
        .ask(
            json!({"type": "validate", "text": "#####\n#@$.#\n#####"}),
            "validation",
        )
        .await;
    assert_eq!(ok["ok"], true);
    let open = client
        .ask(
            json!({"type": "validate", "text": "#####\n#@$. \n#####"}),
            "validation",
        )
        .await;
    assert_eq!(open["ok"], false);
    assert!(open["findings"][0]["x"].is_u64());
    let checked = client
        .ask(
            json!({"type": "check", "text": "######\n#@$ .#\n######"}),
            "checked",
        )
        .await;
    assert_eq!(checked["outcome"], "solvable");
    let parsed = client
        .ask(json!({"type": "parse", "text": "4#|#@$.#|4#"}), "parsed")
        .await;
    assert_eq!(parsed["levels"][0]["xsb"], "####\n#@$.#\n####\n");
    for (format, ext) in [
        ("sok", "sok"),
        ("json", "json"),
        ("xsb", "xsb"),
        ("rle", "txt"),
    ] {
        let exported = client
            .ask(
                json!({"type": "export", "text": "#####\n#@$.#\n#####", "format": format, "title": "My Level"}),
                "exported",
            )
            .await;
        assert_eq!(exported["filename"], format!("my-level.{ext}"));
        assert!(!exported["text"].as_str().unwrap().is_empty());
    }
    // Play-test: an upload becomes a game.
    let state = client
        .ask(
            json!({"type": "upload", "text": "#####\n#@$.#\n#####", "name": "t.sok"}),
            "state",
        )
        .await;
    assert_eq!(state["collection"], serde_json::Value::Null);
    let moved = client
        .ask(json!({"type": "move", "dir": "right"}), "state")
        .await;
    assert_eq!(moved["solved"], true);
}

#[tokio::test]
async fn a_long_solve_reports_its_figures_and_stops_when_cancelled() {
    let server = Server::start();
    let (_, _, body) = server.get("/api/sokoban/collections").await;
    let list: serde_json::Value = serde_json::from_slice(&body).unwrap();
    // Sasquatch XII's first level keeps the solver busy for far longer than a second.
    let hard = list["collections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "Sasquatch XII")
        .unwrap()["index"]
        .clone();
    let mut client = server.socket().await;
    client
        .ask(
            json!({"type": "open", "collection": hard, "level": 0}),
            "state",
        )
        .await;
    let thinking = client.ask(json!({"type": "solve"}), "thinking").await;
    assert_eq!(thinking["doing"], "Solving");
    let progress = client.until("solver_progress").await;
    assert!(progress["nodes"].as_u64().unwrap() > 0, "{progress}");
    assert!(progress["stored"].as_u64().is_some(), "{progress}");
    let text = progress["text"].as_str().unwrap();
    assert!(
        text.contains(" nodes · ") && text.contains(" positions · depth "),
        "{text}"
    );
    let state = client.ask(json!({"type": "cancel"}), "state").await;
    assert_eq!(state["thinking"], false);
}

#[tokio::test]
async fn hint_comes_from_the_solver() {
    let server = Server::start();
    let mut client = server.socket().await;
    client
        .ask(
            json!({"type": "open", "collection": FIXTURE_COLLECTION, "level": 3}),
            "state",
        )
        .await;
    let thinking = client
        .ask(json!({"type": "hint", "seq": 5}), "thinking")
        .await;
    assert_eq!(thinking["seq"], 5);
    let hint = client.until("solution").await;
    assert_eq!(hint["purpose"], "hint");
    // The words come from the server, counting the pushes left after the hint's.
    let pushes = hint["pushes"].as_u64().unwrap();
    assert!(
        hint["text"].as_str().unwrap().starts_with("Hint:"),
        "{hint}"
    );
    if pushes > 1 {
        assert!(
            hint["text"]
                .as_str()
                .unwrap()
                .contains(&format!("{} more", pushes - 1)),
            "{hint}"
        );
    }
    assert!(!hint["steps"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn a_solve_through_the_solvers_moves_is_not_recorded() {
    let server = Server::start();
    let mut client = server.socket().await;
    client
        .ask(
            json!({"type": "open", "collection": FIXTURE_COLLECTION, "level": 3}),
            "state",
        )
        .await;
    client.ask(json!({"type": "solve"}), "thinking").await;
    let shown = client.until("solution").await;
    assert_eq!(shown["purpose"], "show");
    let steps = shown["steps"].as_array().unwrap().clone();
    let mut last = json!(null);
    for dir in &steps {
        last = client
            .ask(
                json!({"type": "move", "dir": dir, "by_solver": true}),
                "state",
            )
            .await;
    }
    assert_eq!(last["solved"], true, "{last}");
    let solved = client.until("solved").await;
    assert_eq!(
        (&solved["assisted"], &solved["first_solve"]),
        (&json!(true), &json!(false))
    );
    let (_, _, body) = server
        .get(&format!("/api/sokoban/collections/{FIXTURE_COLLECTION}"))
        .await;
    let list: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(list["levels"][3]["solved"], false);

    // The same moves made by the player count.
    client.ask(json!({"type": "restart"}), "state").await;
    for dir in &steps {
        client
            .ask(json!({"type": "move", "dir": dir}), "state")
            .await;
    }
    let solved = client.until("solved").await;
    assert_eq!(
        (&solved["assisted"], &solved["first_solve"]),
        (&json!(false), &json!(true))
    );
}

#[tokio::test]
async fn deadlock_warning_then_back_to_the_last_solvable_position() {
    let server = Server::start();
    let mut client = server.socket().await;
    client
        .ask(
            json!({"type": "open", "collection": FIXTURE_COLLECTION, "level": 3}),
            "state",
        )
        .await;
    // "Crossing": pushing the left box against the wall kills it.
    let dead = client
        .ask(json!({"type": "move", "dir": "left"}), "state")
        .await;
    assert_eq!(dead["pushes"], 1);
    assert!(dead["deadlock"]["message"].is_string(), "{dead}");
    client.ask(json!({"type": "solve"}), "thinking").await;
    let verdict = client.until("unsolvable").await;
    assert_eq!(verdict["purpose"], "show");
    client.ask(json!({"type": "rewind"}), "thinking").await;
    let back = client.until("state").await;
    assert_eq!(back["moves"], 0);
    assert_eq!(back["can_redo"], true);
    assert!(back["deadlock"].is_null());
    let notice = client.until("notice").await;
    assert!(
        notice["message"]
            .as_str()
            .unwrap()
            .contains("1 step undone")
    );
}

#[tokio::test]
async fn websockets_from_other_sites_are_refused() {
    let server = Server::start();
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{}/ws/sokoban", server.addr)
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("origin", "http://evil.example".parse().unwrap());
    assert!(tokio_tungstenite::connect_async(request).await.is_err());
    let mut request = format!("ws://{}/ws/sokoban", server.addr)
        .into_client_request()
        .unwrap();
    let own = format!("http://{}", server.addr);
    request.headers_mut().insert("origin", own.parse().unwrap());
    assert!(tokio_tungstenite::connect_async(request).await.is_ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn solves_at_the_same_moment_all_count() {
    let server = std::sync::Arc::new(Server::start());
    let levels = fixture();
    let mut tasks = Vec::new();
    // The three test levels that carry a solution.
    for (n, level) in levels.iter().enumerate().take(3) {
        let server = std::sync::Arc::clone(&server);
        let lurd = level.meta.solutions[0].clone();
        tasks.push(tokio::spawn(async move {
            let mut client = server.socket().await;
            client
                .ask(
                    json!({"type": "open", "collection": FIXTURE_COLLECTION, "level": n}),
                    "state",
                )
                .await;
            for dir in dirs(&lurd) {
                client
                    .ask(json!({"type": "move", "dir": dir}), "state")
                    .await;
            }
            client.until("solved").await
        }));
    }
    for task in tasks {
        assert_eq!(task.await.unwrap()["first_solve"], true);
    }
    // Each solve was a locked read-modify-write: none lost the others'.
    let text = std::fs::read_to_string(server.data.path().join("sokoban/progress.json")).unwrap();
    let progress: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(progress["levels"].as_object().unwrap().len(), 3, "{text}");
}

#[tokio::test]
async fn hostile_run_length_levels_are_refused_and_the_server_lives() {
    let server = Server::start();
    let mut client = server.socket().await;
    let deep = format!("#{}#{}", "(".repeat(15_000), ")".repeat(15_000));
    let wide = "1048576#\n".repeat(1000);
    for text in [deep.as_str(), "#99999999999999999999()", wide.as_str()] {
        let answer = tokio::time::timeout(
            std::time::Duration::from_secs(20),
            client.ask(json!({"type": "validate", "text": text}), "validation"),
        )
        .await
        .expect("validate answers in time");
        assert_eq!(answer["ok"], false, "{answer}");
    }
    // The same connection, and the server, still answer.
    let ok = client
        .ask(
            json!({"type": "validate", "text": "#####\n#@$.#\n#####"}),
            "validation",
        )
        .await;
    assert_eq!(ok["ok"], true);
    let (status, _, _) = server.get("/").await;
    assert_eq!(status, 200);
}

/// A raw request for `path` naming `host`, with `extra` header lines.
fn request(path: &str, host: &str, extra: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Connection: close\r\n\r\n")
}

/// A WebSocket handshake's headers (after the Host line).
const UPGRADE: &str = "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";

fn status(response: &str) -> &str {
    response.split(' ').nth(1).unwrap_or("")
}

#[tokio::test]
async fn other_host_names_are_refused_on_every_route() {
    let server = Server::start();
    let port = server.port();
    let within = std::time::Duration::from_secs(10);
    // DNS rebinding: another site's name resolving to 127.0.0.1.
    let evil = format!("evil.example:{port}");
    let evil_origin = format!("Origin: http://evil.example:{port}\r\n");
    for path in ["/", "/sokoban", "/api/summary", "/api/sokoban/collections"] {
        let answer = server.raw(&request(path, &evil, ""), within).await.unwrap();
        assert_eq!(status(&answer), "403", "{path}: {answer}");
        assert!(!answer.contains("sokoban\""), "{answer}");
    }
    for socket in ["/ws/sokoban", "/ws/xiangqi", "/ws/tetris"] {
        let handshake =
            format!("GET {socket} HTTP/1.1\r\nHost: {evil}\r\n{evil_origin}{UPGRADE}\r\n");
        let answer = server.raw(&handshake, within).await.unwrap();
        assert_eq!(status(&answer), "403", "{socket}: {answer}");
    }
    // No Host at all (HTTP/1.0) is not ours either.
    let answer = server
        .raw("GET /api/summary HTTP/1.0\r\n\r\n", within)
        .await
        .unwrap();
    assert_eq!(status(&answer), "403", "{answer}");
    // Loopback names, with or without a port, are.
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("LocalHost:{port}"),
        format!("127.0.0.2:{port}"),
        format!("[::1]:{port}"),
        "localhost".to_string(),
    ] {
        let answer = server
            .raw(&request("/api/summary", &host, ""), within)
            .await
            .unwrap();
        assert_eq!(status(&answer), "200", "{host}: {answer}");
    }
    // Our own name with another site's Origin: refused on plain routes too.
    let own = format!("127.0.0.1:{port}");
    let answer = server
        .raw(&request("/api/summary", &own, &evil_origin), within)
        .await
        .unwrap();
    assert_eq!(status(&answer), "403", "{answer}");
    let same = format!("Origin: http://{own}\r\n");
    let answer = server
        .raw(&request("/api/summary", &own, &same), within)
        .await
        .unwrap();
    assert_eq!(status(&answer), "200", "{answer}");
    let handshake = format!("GET /ws/sokoban HTTP/1.1\r\nHost: {own}\r\n{same}{UPGRADE}\r\n");
    let answer = server
        .raw(&handshake, std::time::Duration::from_millis(500))
        .await;
    // Accepted: the upgraded socket stays open (no answer to read to the end).
    assert!(answer.is_none(), "{answer:?}");
}

#[tokio::test]
async fn half_sent_requests_are_closed_after_the_header_timeout() {
    let server = Server::start_with(&["--header-timeout-ms", "300"]);
    let within = std::time::Duration::from_secs(5);
    for half in ["GET / HT", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n", ""] {
        let started = std::time::Instant::now();
        let answer = server.raw(half, within).await;
        assert!(answer.is_some(), "{half:?} was held open");
        let took = started.elapsed();
        assert!(
            took >= std::time::Duration::from_millis(250),
            "{half:?}: {took:?}"
        );
    }
    // Whole requests are still served.
    let (status, _, _) = server.get("/").await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn silent_websockets_are_closed_and_answering_ones_kept() {
    use futures_util::StreamExt;
    let server = Server::start_with(&["--idle-timeout-ms", "400"]);
    let mut silent = server.socket().await;
    let mut live = server.socket().await;
    // The live client reads (and so answers the server's pings) for 1.2 s.
    let until = tokio::time::Instant::now() + std::time::Duration::from_millis(1200);
    let mut pinged = false;
    while let Ok(message) = tokio::time::timeout_at(until, live.ws.next()).await {
        let message = message.expect("the live socket stays open").unwrap();
        pinged |= message.is_ping();
    }
    assert!(pinged, "the server pings a quiet socket");
    let pong = live.ask(json!({"type": "ping"}), "pong").await;
    assert_eq!(pong["type"], "pong");
    // The silent one has been closed: after the ping, the end.
    let mut ended = false;
    while let Ok(Some(message)) =
        tokio::time::timeout(std::time::Duration::from_secs(5), silent.ws.next()).await
    {
        match message {
            Ok(m) if m.is_ping() => {}
            _ => {
                ended = true;
                break;
            }
        }
    }
    assert!(ended || silent.ws.next().await.is_none());
}

/// A level file of one small level, then `big` open 256 x 256 rooms (36
/// bytes each as run-length rows, 64 K cells each once read).
fn upload_text(big: usize) -> String {
    let mut text = String::from("#####\n#@$.#\n#####\n");
    for _ in 0..big {
        text.push_str("\n256#|#@$.251-#|253(#254-#|)256#\n");
    }
    text
}

#[tokio::test]
async fn uploads_past_the_memory_bound_drop_the_oldest() {
    let mib = 1 << 20;
    let (session, total) = (3 * mib, 7 * mib);
    let server = Server::start_with(&[
        "--session-bytes",
        &session.to_string(),
        "--total-session-bytes",
        &total.to_string(),
    ]);
    let mut client = server.socket().await;
    // Eight big rooms: about 0.5 MiB of cells, and 2 MiB for playing the largest.
    let text = upload_text(8);
    let mut sessions = Vec::new();
    for _ in 0..5 {
        let state = client
            .ask(json!({"type": "upload", "text": text}), "state")
            .await;
        assert_eq!(state["count"], 9);
        sessions.push(state["session"].as_str().unwrap().to_string());
    }
    // Two of about 2.5 MiB fit in 7 MiB: the three oldest are gone.
    let mut again = server.socket().await;
    let mut kept = Vec::new();
    for id in &sessions {
        again.send(json!({"type": "resume", "session": id})).await;
        let reply = again.recv().await;
        kept.push(reply["type"] == "state");
    }
    assert_eq!(kept, [false, false, false, true, true]);
    // More than one game may hold is refused, naming the limit.
    let refused = client
        .ask(json!({"type": "upload", "text": upload_text(64)}), "error")
        .await;
    assert_eq!(refused["code"], "too_large", "{refused}");
    let message = refused["message"].as_str().unwrap();
    assert!(message.contains("at most 3072 KiB"), "{message}");
}

const CORRUPT: &str = "{ this is not JSON";

#[test]
fn sokoban_solutions_reports_a_corrupt_progress_file() {
    let data = tempfile::tempdir().unwrap();
    let progress = data.path().join("sokoban/progress.json");
    std::fs::create_dir_all(progress.parent().unwrap()).unwrap();
    std::fs::write(&progress, CORRUPT).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_ludus"))
        .arg("--data-dir")
        .arg(data.path())
        .args(["sokoban", "solutions"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("progress.json"), "{stderr}");
    assert!(stderr.contains("moved aside to"), "{stderr}");
    assert!(!progress.exists());
}

#[tokio::test]
async fn a_corrupt_progress_file_is_reported_to_the_page_and_on_stderr() {
    let server = Server::start();
    let progress = server.data.path().join("sokoban/progress.json");
    std::fs::write(&progress, CORRUPT).unwrap();
    let mut client = server.socket().await;
    let open = json!({"type": "open", "collection": FIXTURE_COLLECTION, "level": 0});
    client.ask(open.clone(), "state").await;
    let notice = client.recv().await;
    assert_eq!(notice["type"], "notice", "{notice}");
    let message = notice["message"].as_str().unwrap();
    assert!(
        message.contains("progress.json") && message.contains("moved aside to"),
        "{message}"
    );
    let stderr = server.stderr();
    assert!(
        stderr.contains("warning") && stderr.contains("progress.json"),
        "{stderr}"
    );
    // Said once: the file is gone from its place.
    client.ask(open, "state").await;
    let pong = client.ask(json!({"type": "ping"}), "pong").await;
    assert_eq!(pong["type"], "pong");
    // The home page's summary and the level list say it too.
    std::fs::write(&progress, CORRUPT).unwrap();
    let (_, _, body) = server.get("/api/summary").await;
    let summary: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert!(
        summary["warnings"][0]
            .as_str()
            .unwrap()
            .contains("progress.json"),
        "{summary}"
    );
    std::fs::write(&progress, CORRUPT).unwrap();
    let (_, _, body) = server.get("/api/sokoban/collections").await;
    let list: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let problems = list["problems"].to_string();
    assert!(problems.contains("progress.json"), "{problems}");
}

#[tokio::test]
async fn a_play_test_from_the_editor_records_nothing() {
    let server = Server::start();
    let mut client = server.socket().await;
    let state = client
        .ask(
            json!({"type": "upload", "text": "#####\n#@$.#\n#####", "name": "mine.sok",
                   "play_test": true}),
            "state",
        )
        .await;
    assert_eq!(state["moves"], 0);
    let last = client
        .ask(json!({"type": "move", "dir": "right"}), "state")
        .await;
    assert_eq!(last["solved"], true, "{last}");
    let solved = client.until("solved").await;
    assert_eq!(solved["play_test"], true);
    assert_eq!(solved["first_solve"], false);
    assert_eq!(solved["all_solved"], false);
    assert!(!server.data.path().join("sokoban/progress.json").exists());
}

#[tokio::test]
async fn a_trailing_slash_finds_the_page_and_a_404_leads_home() {
    let server = Server::start();
    let (status, _, body) = server.get("/sokoban/").await;
    assert_eq!(status, 200);
    assert!(String::from_utf8_lossy(&body).contains("<html"));
    let (status, headers, body) = server.get("/no-such-page").await;
    assert_eq!(status, 404);
    assert!(
        header(&headers, "content-type")
            .unwrap_or_default()
            .contains("text/html")
    );
    assert!(String::from_utf8_lossy(&body).contains("<a href=\"/\">Back to the games</a>"));
}

#[tokio::test]
async fn a_duplicated_tab_takes_the_game_over_and_the_first_is_told() {
    let server = Server::start();
    let mut first = server.socket().await;
    let state = first
        .ask(
            json!({"type": "open", "collection": FIXTURE_COLLECTION, "level": 2}),
            "state",
        )
        .await;
    let session = state["session"].as_str().unwrap().to_string();
    let steps = dirs(&fixture()[2].meta.solutions[0]);
    first
        .ask(json!({"type": "move", "dir": steps[0]}), "state")
        .await;

    // A duplicated tab resumes the same id while the first stays open.
    let mut second = server.socket().await;
    let resumed = second
        .ask(json!({"type": "resume", "session": session}), "state")
        .await;
    assert_eq!(resumed["moves"], 1);
    let told = first.until("taken_over").await;
    assert!(told["message"].as_str().unwrap().contains("another tab"));
    // The first plays no more; the second's game is untouched by its tries.
    let refused = first
        .ask(json!({"type": "move", "dir": steps[1]}), "error")
        .await;
    assert_eq!(refused["code"], "no_game");
    let moved = second
        .ask(json!({"type": "move", "dir": steps[1]}), "state")
        .await;
    assert_eq!(moved["moves"], 2);

    // The first takes it back the same way, and the second is told.
    let back = first
        .ask(json!({"type": "resume", "session": session}), "state")
        .await;
    assert_eq!(back["moves"], 2);
    second.until("taken_over").await;
}

#[tokio::test]
async fn saving_a_level_never_replaces_another_but_replaces_its_own_file() {
    let server = Server::start();
    let mut client = server.socket().await;
    let level = "#####\n#@$.#\n#####";
    let save = |saved_as: Option<&str>| {
        let mut request =
            json!({"type": "save_level", "name": "tiny", "text": level, "title": "Tiny"});
        if let Some(file) = saved_as {
            request["saved_as"] = json!(file);
        }
        request
    };
    let first = client.ask(save(None), "saved").await;
    assert_eq!(first["name"], "tiny.sok");
    // Another level with the same title gets a file of its own.
    let second = client.ask(save(None), "saved").await;
    assert_ne!(second["name"], "tiny.sok");
    let levels = server.data.path().join("sokoban/levels");
    assert_eq!(std::fs::read_dir(&levels).unwrap().count(), 3); // the fixture too
    // Saving the first again replaces its own file, nothing else.
    let again = client.ask(save(Some("tiny.sok")), "saved").await;
    assert_eq!(again["name"], "tiny.sok");
    assert_eq!(std::fs::read_dir(&levels).unwrap().count(), 3);
    let refused = client.ask(save(Some("../x.sok")), "error").await;
    assert_eq!(refused["code"], "bad_path");
}
