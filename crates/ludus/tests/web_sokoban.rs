//! The Sokoban socket's session end to end: the level clock across a
//! reload, "solve and show" stopped part way, the goal-assignment hint.
#![allow(clippy::unwrap_used)]

mod web_common;

use std::time::Duration;

use serde_json::json;
use web_common::{FIXTURE_COLLECTION, Server};

#[tokio::test]
async fn the_level_clock_stops_while_the_page_is_away_and_goes_on_after_a_reload() {
    let server = Server::start();
    let mut client = server.socket().await;
    let opened = client
        .ask(
            json!({"type": "open", "collection": FIXTURE_COLLECTION, "level": 3}),
            "state",
        )
        .await;
    assert_eq!(opened["elapsed_ms"], 0);
    assert_eq!(opened["clock_running"], false);
    let session = opened["session"].as_str().unwrap().to_string();
    let moved = client
        .ask(json!({"type": "move", "dir": "up"}), "state")
        .await;
    assert_eq!(moved["clock_running"], true, "{moved}");
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let later = client.ask(json!({"type": "undo"}), "state").await;
    // Back at the start: the clock stops, keeping the time spent.
    assert_eq!(later["clock_running"], false, "{later}");
    let spent = later["elapsed_ms"].as_u64().unwrap();
    assert!(spent >= 1200, "{later}");
    client.ask(json!({"type": "redo"}), "state").await;

    // The page goes away for a while: that time is not counted.
    client.ws.close(None).await.unwrap();
    drop(client);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut again = server.socket().await;
    let resumed = again
        .ask(json!({"type": "resume", "session": session}), "state")
        .await;
    let elapsed = resumed["elapsed_ms"].as_u64().unwrap();
    assert!(
        (spent..spent + 1000).contains(&elapsed),
        "counted {spent} ms before, {elapsed} ms after the reload"
    );
    assert_eq!(resumed["clock_running"], true, "{resumed}");
}

#[tokio::test]
async fn stopping_solve_and_show_takes_the_solvers_moves_back() {
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
    let steps = shown["steps"].as_array().unwrap().clone();
    assert!(steps.len() > 2, "{shown}");
    for dir in &steps[..2] {
        client
            .ask(
                json!({"type": "move", "dir": dir, "by_solver": true}),
                "state",
            )
            .await;
    }
    let stopped = client.ask(json!({"type": "cancel"}), "state").await;
    assert_eq!(stopped["moves"], 0, "{stopped}");
    assert_eq!(stopped["can_redo"], true, "{stopped}");
    let notice = client.until("notice").await;
    assert_eq!(notice["message"], "Stopped: back where you were.");
    // A player's own move after that is not taken back by another stop.
    client
        .ask(json!({"type": "move", "dir": steps[0]}), "state")
        .await;
    let kept = client.ask(json!({"type": "cancel"}), "state").await;
    assert_eq!(kept["moves"], 1, "{kept}");
}

/// The goal-assignment hint: asked for, it comes with every state after
/// each move until asked for again.
#[tokio::test]
async fn the_goal_hint_comes_with_each_state_while_shown() {
    let server = Server::start();
    let mut client = server.socket().await;
    // Two Lanes: each box along its own lane to the goal at its end.
    let opened = client
        .ask(
            json!({"type": "open", "collection": FIXTURE_COLLECTION, "level": 2}),
            "state",
        )
        .await;
    assert!(opened.get("goals").is_none(), "{opened}");
    let shown = client.ask(json!({"type": "goals"}), "state").await;
    let goals = &shown["goals"];
    assert_eq!(
        goals["pairs"],
        json!([
            {"box": 9, "goal": 12, "pushes": 3},
            {"box": 16, "goal": 19, "pushes": 3},
        ]),
        "{shown}"
    );
    assert_eq!(goals["pushes"], 6);
    assert!(goals["message"].as_str().unwrap().contains("6 pushes"));
    client
        .ask(json!({"type": "move", "dir": "down"}), "state")
        .await;
    let pushed = client
        .ask(json!({"type": "move", "dir": "right"}), "state")
        .await;
    assert_eq!(pushed["goals"]["pairs"][1]["box"], 17, "{pushed}");
    assert_eq!(pushed["goals"]["pushes"], 5, "{pushed}");
    let hidden = client.ask(json!({"type": "goals"}), "state").await;
    assert!(hidden.get("goals").is_none(), "{hidden}");
}

#[tokio::test]
async fn a_bad_upload_names_the_level_and_the_line() {
    let server = Server::start();
    let mut client = server.socket().await;
    // Two levels, neither playable: each is named with its line.
    let two = "; first\n#####\n#.$ #\n#####\n\n; second\n#####\n#.$ #\n#####\n";
    let refused = client
        .ask(
            json!({"type": "upload", "text": two, "name": "two.sok"}),
            "error",
        )
        .await;
    assert_eq!(
        refused["message"],
        "level 1, line 2: the level has no player; level 2, line 7: the level has no player"
    );
    // Junk says what a level is.
    let refused = client
        .ask(
            json!({"type": "upload", "text": "this is not a level\n", "name": "junk.txt"}),
            "error",
        )
        .await;
    let message = refused["message"].as_str().unwrap();
    assert!(
        message.starts_with("no level found: a level is"),
        "{message}"
    );
}

/// A map pack `.zip` of `files`.
fn pack_zip(files: &[(&str, &[u8])]) -> Vec<u8> {
    use std::io::Write;
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in files {
        w.start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        w.write_all(bytes).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// POSTs a pack to the server: the status and the JSON answer.
async fn post_pack(server: &Server, name: &str, body: &[u8]) -> (u16, serde_json::Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(&server.addr).await.unwrap();
    let head = format!(
        "POST /api/sokoban/packs?name={name} HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        server.addr,
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status = text.split(' ').nth(1).unwrap().parse().unwrap();
    let json = text.split_once("\r\n\r\n").unwrap().1;
    (
        status,
        serde_json::from_str(json).unwrap_or(serde_json::Value::Null),
    )
}

#[tokio::test]
async fn an_uploaded_pack_is_installed_and_played_with_its_skin() {
    let server = Server::start();
    let mut wall = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    wall.extend(8u32.to_be_bytes());
    wall.extend(8u32.to_be_bytes());
    wall.extend([8, 6, 0, 0, 0, 0, 0, 0, 0]);
    let zip = pack_zip(&[
        ("pack.json", br#"{"name":"Skinned"}"#),
        ("one.sok", b"#####\n#@$.#\n#####\n"),
        ("skin/wall.png", &wall),
    ]);
    let (status, answer) = post_pack(&server, "skinned.zip", &zip).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["name"], "Skinned");
    let collection = answer["collection"].as_u64().unwrap();
    let (status, _, bytes) = server.get("/sokoban/packs/skinned/skin/wall.png").await;
    assert_eq!((status, bytes), (200, wall));
    let (status, _, _) = server
        .get("/sokoban/packs/skinned/skin/..%2Fpack.json")
        .await;
    assert_eq!(status, 404);
    let mut client = server.socket().await;
    let state = client
        .ask(
            json!({ "type": "open", "collection": collection, "level": 0 }),
            "state",
        )
        .await;
    assert_eq!(
        state["skin"],
        json!({ "url": "/sokoban/packs/skinned/skin/", "tiles": ["wall"] })
    );
    assert_eq!(state["set"], "Skinned");
}

#[tokio::test]
async fn a_refused_pack_upload_names_the_entry_and_installs_nothing() {
    let server = Server::start();
    let level: &[u8] = b"#####\n#@$.#\n#####\n";
    let zip = pack_zip(&[("one.sok", level), ("../evil.sok", level)]);
    let (status, answer) = post_pack(&server, "evil.zip", &zip).await;
    assert_eq!(status, 400);
    assert_eq!(
        answer["error"],
        "../evil.sok: the path climbs out of the pack (..)"
    );
    let packs = server.data.path().join("sokoban/levels/packs");
    assert!(!packs.exists() || std::fs::read_dir(&packs).unwrap().next().is_none());
}

/// A levels-folder library whose levels carry a par and a difficulty.
const RATED: &str = r########"{
  "version": 1, "title": "Rated", "total_levels": 2,
  "levels": [
    { "id": 1, "name": "Start", "width": 5, "height": 3,
      "data": "#####\n#@$.#\n#####", "min_pushes": 1, "difficulty": "Easy" },
    { "id": 2, "name": "Next", "width": 6, "height": 3,
      "data": "######\n#@$ .#\n######", "min_pushes": 2, "min_pushes_proven": false }
  ]
}"########;

async fn get_json(server: &Server, path: &str) -> (u16, serde_json::Value) {
    let (status, _, body) = server.get(path).await;
    let value = serde_json::from_slice(&body)
        .unwrap_or_else(|e| panic!("{path}: {e}: {}", String::from_utf8_lossy(&body)));
    (status, value)
}

#[tokio::test]
async fn the_collection_list_is_a_summary_without_levels() {
    let server = Server::start();
    let (status, list) = get_json(&server, "/api/sokoban/collections").await;
    assert_eq!(status, 200);
    let collections = list["collections"].as_array().unwrap();
    assert_eq!(collections.len(), sokoban::levels::BUILTIN.len() + 1);
    let first = &collections[0];
    assert_eq!(first["index"], 0);
    assert_eq!(first["name"], sokoban::levels::ORIGINAL_NAME);
    assert_eq!(first["group"], "Ludus");
    assert_eq!(first["origin"], "built in");
    assert!(first["credit"].as_str().is_some_and(|c| !c.is_empty()));
    assert_eq!(
        (&first["solved"], &first["updated"]),
        (&json!(0), &json!(0))
    );
    assert_eq!(first["first_unsolved"], 0);
    // Grouped by author: each group's collections side by side.
    let groups: Vec<&str> = collections
        .iter()
        .map(|c| c["group"].as_str().unwrap())
        .collect();
    let mut shelves = groups.clone();
    shelves.dedup();
    let mut unique = shelves.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(shelves.len(), unique.len(), "{shelves:?}");
    assert!(shelves.contains(&"David W. Skinner"), "{shelves:?}");
    let mine = &collections[FIXTURE_COLLECTION];
    assert_eq!(
        (&mine["group"], &mine["origin"]),
        (&json!("Your levels"), &json!("your levels"))
    );
    // No boards: the list stays light with ~1,800 levels.
    assert!(!list.to_string().contains("xsb"));
    let total: u64 = collections
        .iter()
        .map(|c| c["levels"].as_u64().unwrap())
        .sum();
    assert!(total > 1000, "{total} levels");
}

#[tokio::test]
async fn one_collection_has_its_levels_with_par_difficulty_and_updated_marks() {
    let server = Server::start();
    let levels = server.data.path().join("sokoban/levels");
    std::fs::write(levels.join("rated.json"), RATED).unwrap();
    let (_, list) = get_json(&server, "/api/sokoban/collections").await;
    let rated = list["collections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "Rated")
        .unwrap_or_else(|| panic!("{list}"))["index"]
        .as_u64()
        .unwrap();
    let path = format!("/api/sokoban/collections/{rated}");
    let (status, one) = get_json(&server, &path).await;
    assert_eq!(status, 200);
    assert_eq!(one["collection"]["name"], "Rated");
    assert_eq!(one["collection"]["levels"], 2);
    let first = &one["levels"][0];
    assert_eq!(first["title"], "Start");
    assert_eq!(first["name"], "Start");
    assert!(first["xsb"].as_str().unwrap().contains('@'));
    assert_eq!(first["par"], json!({"pushes": 1, "proven": true}));
    assert!(first["difficulty"].as_str().is_some(), "{first}");
    assert_eq!(
        one["levels"][1]["par"],
        json!({"pushes": 2, "proven": false})
    );
    assert_eq!(one["levels"][1]["difficulty"], json!(null));
    assert_eq!(first["updated"], false);

    // Solving the first level: the dialog compares with its par.
    let mut client = server.socket().await;
    let open = json!({"type": "open", "collection": rated, "level": 1});
    let state = client.ask(open, "state").await;
    assert_eq!(state["par"], json!({"pushes": 2, "proven": false}));
    assert_eq!(state["difficulty"], json!(null));
    let open = json!({"type": "open", "collection": rated, "level": 0});
    let state = client.ask(open, "state").await;
    assert_eq!(state["par"], json!({"pushes": 1, "proven": true}));
    assert!(state["difficulty"].is_string(), "{state}");
    client.send(json!({"type": "move", "dir": "right"})).await;
    let solved = client.until("solved").await;
    assert_eq!(solved["against_par"], "par 1 push, you 1, par!", "{solved}");
    let (_, one) = get_json(&server, &path).await;
    assert_eq!(one["levels"][0]["solved"], true);
    assert_eq!(
        (
            &one["collection"]["solved"],
            &one["collection"]["first_unsolved"]
        ),
        (&json!(1), &json!(1))
    );

    // The level changes at the same place: its old record no longer applies.
    let changed = RATED.replace(r"#####\n#@$.#\n#####", r"######\n#@$ .#\n######");
    let changed = changed.replace(r#""width": 5, "height": 3"#, r#""width": 6, "height": 3"#);
    std::fs::write(levels.join("rated.json"), changed).unwrap();
    let (_, list) = get_json(&server, "/api/sokoban/collections").await;
    assert_eq!(list["collections"][rated as usize]["updated"], 1, "{list}");
    let (_, one) = get_json(&server, &path).await;
    assert_eq!(one["levels"][0]["updated"], true, "{one}");
    assert_eq!(one["levels"][0]["solved"], false);
    assert_eq!(one["collection"]["first_unsolved"], 0);
    assert!(one["level_updated"].as_str().unwrap().contains("updated"));
}

#[tokio::test]
async fn a_collection_that_is_not_there_is_a_clear_404() {
    let server = Server::start();
    let count = sokoban::levels::BUILTIN.len() + 1;
    for bad in [
        count.to_string(),
        "99999999999999999999999".into(),
        "x".into(),
        "-1".into(),
    ] {
        let (status, answer) = get_json(&server, &format!("/api/sokoban/collections/{bad}")).await;
        assert_eq!(status, 404, "{bad}: {answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.starts_with("no collection"), "{error}");
        assert!(error.contains(&count.to_string()), "{error}");
    }
}
