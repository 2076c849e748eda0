//! Shared by the web tests: a real `ludus serve --port 0` on loopback with
//! a temporary data dir (its URL read from stdout) holding the test levels
//! (`levels.sok`, also used by the browser tests), a bare HTTP GET, and a
//! WebSocket client that sends JSON and reads JSON replies.
#![allow(clippy::unwrap_used, dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async_with_config};

pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`
    pub addr: String,
    pub data: tempfile::TempDir,
    /// What the server wrote on stderr.
    log: tempfile::NamedTempFile,
}

impl Server {
    pub fn start() -> Server {
        Server::start_with(&[])
    }

    /// A server with more `serve` options (the hidden limits, for example).
    pub fn start_with(options: &[&str]) -> Server {
        let data = tempfile::tempdir().unwrap();
        let levels = data.path().join("sokoban").join("levels");
        std::fs::create_dir_all(&levels).unwrap();
        std::fs::write(levels.join("web-test.sok"), FIXTURE).unwrap();
        let log = tempfile::NamedTempFile::new().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
            .arg("--data-dir")
            .arg(data.path())
            .args(["serve", "--port", "0"])
            .args(options)
            .stdout(Stdio::piped())
            .stderr(log.reopen().unwrap())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"));
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        Server {
            child,
            addr,
            data,
            log,
        }
    }

    /// The server's stderr so far.
    pub fn stderr(&self) -> String {
        std::fs::read_to_string(self.log.path()).unwrap()
    }

    /// The port the server listens on.
    pub fn port(&self) -> &str {
        self.addr.rsplit_once(':').unwrap().1
    }

    /// Sends `request` as it is and reads until the server closes (at most
    /// `within`): the response text, or `None` if the connection stayed open.
    pub async fn raw(&self, request: &str, within: Duration) -> Option<String> {
        let mut stream = TcpStream::connect(&self.addr).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut raw = Vec::new();
        match tokio::time::timeout(within, stream.read_to_end(&mut raw)).await {
            Ok(_) => Some(String::from_utf8_lossy(&raw).into_owned()),
            Err(_) => None,
        }
    }

    /// GET `path` as raw bytes on the wire: status, headers (lower-case names), body.
    pub async fn get(&self, path: &str) -> (u16, Vec<(String, String)>, Vec<u8>) {
        let mut stream = TcpStream::connect(&self.addr).await.unwrap();
        let request = format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.addr
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).await.unwrap();
        let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let head = String::from_utf8_lossy(&raw[..split]).to_string();
        let mut lines = head.lines();
        let status = lines
            .next()
            .unwrap()
            .split(' ')
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        (status, headers, raw[split + 4..].to_vec())
    }

    pub async fn socket(&self) -> Client {
        let url = format!("ws://{}/ws/sokoban", self.addr);
        let (ws, _) = connect_async_with_config(url, None, true).await.unwrap();
        Client { ws }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

pub struct Client {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    pub async fn send_text(&mut self, text: impl Into<String>) {
        self.ws.send(Message::text(text.into())).await.unwrap();
    }

    pub async fn send(&mut self, value: Value) {
        self.send_text(value.to_string()).await;
    }

    /// The next JSON text message (within 20 s).
    pub async fn recv(&mut self) -> Value {
        loop {
            let message = tokio::time::timeout(Duration::from_secs(20), self.ws.next())
                .await
                .expect("a reply in time")
                .expect("the connection open")
                .unwrap();
            if let Message::Text(text) = message {
                return serde_json::from_str(text.as_str()).unwrap();
            }
        }
    }

    /// Sends and reads replies until one of type `kind` (returning it).
    pub async fn ask(&mut self, value: Value, kind: &str) -> Value {
        self.send(value).await;
        self.until(kind).await
    }

    pub async fn until(&mut self, kind: &str) -> Value {
        loop {
            let reply = self.recv().await;
            if reply["type"] == kind {
                return reply;
            }
        }
    }
}

/// The test levels, put in every test server's levels folder: known boards
/// and solutions, whatever the built-in collection holds.
pub const FIXTURE: &str = include_str!("levels.sok");

/// Where the test levels are in the registry: after the built-in collections.
pub const FIXTURE_COLLECTION: usize = sokoban::levels::BUILTIN.len();

/// The test levels with their stored solutions.
pub fn fixture() -> Vec<sokoban::Level> {
    sokoban::parse_collection(FIXTURE)
        .levels
        .into_iter()
        .map(Result::unwrap)
        .collect()
}

/// LURD text as the protocol's direction names.
pub fn dirs(lurd: &str) -> Vec<&'static str> {
    lurd.chars()
        .filter_map(|c| match c.to_ascii_lowercase() {
            'l' => Some("left"),
            'u' => Some("up"),
            'r' => Some("right"),
            'd' => Some("down"),
            _ => None,
        })
        .collect()
}
