//! The games database over the Xiangqi WebSocket: a PGN collection sent as
//! text and an XQF record sent as base64 are kept where the terminal reads
//! them; the index is searched by player, result, date and opening, paged,
//! and an entry opens as a game; bad files and queries are refused with why.
#![allow(clippy::unwrap_used)]

mod web_common;

use base64::Engine as _;
use serde_json::{Value, json};
use tokio_tungstenite::connect_async_with_config;
use web_common::{Client, Server};

const CLUB: &str = "\
[Event \"Club Cup\"]\n[Date \"2021.04.03\"]\n[Red \"Hu Ronghua\"]\n[Black \"Yang Guanlin\"]\n\n\
1. h2e2 h9g7 2. h0g2 1-0\n\n\
[Event \"Club Cup\"]\n[Date \"2022.05.06\"]\n[Red \"Wang Tianyi\"]\n[Black \"Hu Ronghua\"]\n\n\
1. c3c4 1/2-1/2\n\n\
[Event \"Friendly\"]\n[Red \"Zhao Xinxin\"]\n[Black \"Wang Tianyi\"]\n\n1. b2e2 *\n";

async fn socket(server: &Server) -> Client {
    let url = format!("ws://{}/ws/xiangqi", server.addr);
    let (ws, _) = connect_async_with_config(url, None, true).await.unwrap();
    Client { ws }
}

fn reds(reply: &Value) -> Vec<&str> {
    reply["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["red"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn collections_are_kept_searched_and_opened() {
    let server = Server::start();
    let mut client = socket(&server).await;
    let empty = client.ask(json!({"type": "database"}), "database").await;
    assert_eq!(
        (empty["total"].as_u64(), empty["matched"].as_u64()),
        (Some(0), Some(0))
    );

    let kept = client
        .ask(
            json!({"type": "add_collection", "name": "club.pgn", "text": CLUB, "seq": 4}),
            "collection",
        )
        .await;
    assert_eq!(kept["seq"], 4);
    assert_eq!(
        (kept["name"].as_str(), kept["games"].as_u64()),
        (Some("club.pgn"), Some(3))
    );
    let xqf = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../xiangqi/tests/data/xqf-1.0-spec-example.xqf"),
    )
    .unwrap();
    let data = base64::engine::general_purpose::STANDARD.encode(&xqf);
    let kept = client
        .ask(
            json!({"type": "add_collection", "name": "spec.xqf", "data": data}),
            "collection",
        )
        .await;
    assert_eq!(
        (kept["format"].as_str(), kept["games"].as_u64()),
        (Some("xqf"), Some(1))
    );
    let folder = server.data.path().join("xiangqi/collections");
    assert_eq!(std::fs::read(folder.join("spec.xqf")).unwrap(), xqf);

    // Newest first, undated last; every field of an entry.
    let all = client.ask(json!({"type": "database"}), "database").await;
    assert_eq!(all["total"], 4);
    assert_eq!(
        reds(&all),
        ["Wang Tianyi", "Hu Ronghua", "柳大华", "Zhao Xinxin"]
    );
    let first = &all["entries"][1];
    assert_eq!(first["key"], "collection/club.pgn/0");
    assert_eq!(first["source"], "club.pgn #1");
    assert_eq!(first["black"], "Yang Guanlin");
    assert_eq!(first["event"], "Club Cup");
    assert_eq!(first["date"], "2021.04.03");
    assert_eq!(first["result"], "1-0");
    assert_eq!(
        (first["plies"].as_u64(), first["moves"].as_u64()),
        (Some(3), Some(2))
    );
    assert!(first["opening"].is_null() || first["opening"]["code"].is_string());

    // By player, by result, by date; paged.
    let hu = client
        .ask(
            json!({"type": "database", "search": "hu RONGHUA"}),
            "database",
        )
        .await;
    assert_eq!(reds(&hu), ["Wang Tianyi", "Hu Ronghua"]);
    let draws = client
        .ask(
            json!({"type": "database", "search": "hu", "result": "draw"}),
            "database",
        )
        .await;
    assert_eq!(reds(&draws), ["Wang Tianyi"]);
    let old = client
        .ask(
            json!({"type": "database", "search": "date:..2000"}),
            "database",
        )
        .await;
    assert_eq!(reds(&old), ["柳大华"]);
    let page = client
        .ask(
            json!({"type": "database", "sort": "oldest", "offset": 1, "limit": 2}),
            "database",
        )
        .await;
    assert_eq!(page["matched"], 4);
    assert_eq!(reds(&page), ["Hu Ronghua", "Wang Tianyi"]);

    // An entry opens as a game at its end, its result kept.
    let opened = client
        .ask(
            json!({"type": "open_entry", "key": "collection/club.pgn/0"}),
            "state",
        )
        .await;
    assert_eq!(opened["moves"].as_array().unwrap().len(), 3);
    assert_eq!(opened["moves"][0]["chinese"], "炮二平五");
    let xqf_game = client
        .ask(
            json!({"type": "open_entry", "key": "collection/spec.xqf/0"}),
            "state",
        )
        .await;
    assert_eq!(xqf_game["moves"].as_array().unwrap().len(), 16);
    let gone = client
        .ask(
            json!({"type": "open_entry", "key": "collection/../x/0"}),
            "error",
        )
        .await;
    assert_eq!(gone["code"], "not_found");
}

#[tokio::test]
async fn bad_files_and_queries_are_refused_with_why() {
    let server = Server::start();
    let mut client = socket(&server).await;
    let bad = client
        .ask(
            json!({"type": "add_collection", "name": "bad.pgn", "text": "1. h2e2 {open"}),
            "error",
        )
        .await;
    assert_eq!(bad["code"], "bad_record");
    assert!(
        bad["message"]
            .as_str()
            .unwrap()
            .starts_with("bad.pgn: PGN line 1"),
        "{bad}"
    );
    let not_xqf = client
        .ask(
            json!({"type": "add_collection", "name": "x.xqf", "data": "aGVsbG8="}),
            "error",
        )
        .await;
    assert!(
        not_xqf["message"]
            .as_str()
            .unwrap()
            .contains("not an XQF file"),
        "{not_xqf}"
    );
    let not_base64 = client
        .ask(
            json!({"type": "add_collection", "name": "x.xqf", "data": "%%%"}),
            "error",
        )
        .await;
    assert!(
        not_base64["message"]
            .as_str()
            .unwrap()
            .contains("not base64")
    );
    let both = client
        .ask(json!({"type": "add_collection", "name": "x.pgn"}), "error")
        .await;
    assert!(
        both["message"]
            .as_str()
            .unwrap()
            .contains("as text or as data")
    );
    assert!(
        !server
            .data
            .path()
            .join("xiangqi/collections/bad.pgn")
            .exists()
    );

    let date = client
        .ask(json!({"type": "database", "search": "date:soon"}), "error")
        .await;
    assert_eq!(date["code"], "bad_request");
    assert!(date["message"].as_str().unwrap().contains("date:soon"));
    let result = client
        .ask(json!({"type": "database", "result": "won"}), "error")
        .await;
    assert!(
        result["message"]
            .as_str()
            .unwrap()
            .contains("unknown result filter")
    );

    // A file in the folder that no longer reads is reported by name.
    let folder = server.data.path().join("xiangqi/collections");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("broken.pgn"), "1. a0a9 *").unwrap();
    let listed = client.ask(json!({"type": "database"}), "database").await;
    assert_eq!(listed["problems"][0]["file"], "broken.pgn");
    assert!(
        listed["problems"][0]["message"]
            .as_str()
            .unwrap()
            .contains("PGN line 1")
    );
}
