//! The JSON messages of the game WebSocket (see `docs/web-protocol.md`):
//! requests from the page, replies from the server, and the validation that
//! turns any text into either a request or an error reply.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Largest message the server reads; longer ones get a `too_large` error.
pub const MAX_MESSAGE: usize = 64 * 1024;

/// A direction in a request or reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dir {
    Left,
    Up,
    Right,
    Down,
}

impl From<Dir> for sokoban::Direction {
    fn from(d: Dir) -> sokoban::Direction {
        match d {
            Dir::Left => sokoban::Direction::Left,
            Dir::Up => sokoban::Direction::Up,
            Dir::Right => sokoban::Direction::Right,
            Dir::Down => sokoban::Direction::Down,
        }
    }
}

impl From<sokoban::Direction> for Dir {
    fn from(d: sokoban::Direction) -> Dir {
        match d {
            sokoban::Direction::Left => Dir::Left,
            sokoban::Direction::Up => Dir::Up,
            sokoban::Direction::Right => Dir::Right,
            sokoban::Direction::Down => Dir::Down,
        }
    }
}

/// Export formats of the editor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Sok,
    Json,
    Xsb,
    Rle,
}

/// A request from the page.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// Play level `level` of collection `collection` (indices into `/api/sokoban/collections`).
    Open {
        #[serde(default)]
        seq: Option<u64>,
        collection: usize,
        level: usize,
    },
    /// Reconnect to the game of an earlier connection (after a page reload).
    Resume {
        #[serde(default)]
        seq: Option<u64>,
        session: String,
    },
    /// Play levels sent as text (a file the player picked, or the editor's play-test).
    Upload {
        #[serde(default)]
        seq: Option<u64>,
        text: String,
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        level: Option<usize>,
        /// A level from the editor, play-tested: solving it records nothing.
        #[serde(default)]
        play_test: bool,
    },
    Move {
        #[serde(default)]
        seq: Option<u64>,
        dir: Dir,
        /// The page plays the solver's solution (solve and show): a solve
        /// through such moves is not recorded as the player's.
        #[serde(default)]
        by_solver: bool,
    },
    /// Ask for the walk to a cell (the page then plays the steps).
    Walk {
        #[serde(default)]
        seq: Option<u64>,
        to: usize,
    },
    /// Ask for the pushes that bring the box at `from` to `to`.
    Push {
        #[serde(default)]
        seq: Option<u64>,
        from: usize,
        to: usize,
    },
    Undo {
        #[serde(default)]
        seq: Option<u64>,
    },
    Redo {
        #[serde(default)]
        seq: Option<u64>,
    },
    Restart {
        #[serde(default)]
        seq: Option<u64>,
    },
    Next {
        #[serde(default)]
        seq: Option<u64>,
        /// Go to the next level not yet solved (as after a solve) instead of the next one.
        #[serde(default)]
        unsolved: bool,
    },
    Prev {
        #[serde(default)]
        seq: Option<u64>,
    },
    Goto {
        #[serde(default)]
        seq: Option<u64>,
        level: usize,
    },
    Hint {
        #[serde(default)]
        seq: Option<u64>,
    },
    Solve {
        #[serde(default)]
        seq: Option<u64>,
    },
    Cancel {
        #[serde(default)]
        seq: Option<u64>,
    },
    /// Undo back to the last position the solver can still solve.
    Rewind {
        #[serde(default)]
        seq: Option<u64>,
    },
    Replay {
        #[serde(default)]
        seq: Option<u64>,
        #[serde(default)]
        by_pushes: bool,
    },
    SaveSnapshot {
        #[serde(default)]
        seq: Option<u64>,
    },
    LoadSnapshot {
        #[serde(default)]
        seq: Option<u64>,
    },
    /// Editor: parse and validate a level.
    Validate {
        #[serde(default)]
        seq: Option<u64>,
        text: String,
    },
    /// Editor: ask the solver whether the level can be solved.
    Check {
        #[serde(default)]
        seq: Option<u64>,
        text: String,
    },
    /// Editor import: the levels in a text (XSB, SOK, RLE or the JSON library form).
    Parse {
        #[serde(default)]
        seq: Option<u64>,
        text: String,
        #[serde(default)]
        name: Option<String>,
    },
    /// Editor export: the level in a file format, for download.
    Export {
        #[serde(default)]
        seq: Option<u64>,
        text: String,
        format: Format,
        #[serde(default)]
        title: Option<String>,
    },
    /// Editor: save the level in the levels folder of the data dir, as a
    /// new `<name>.sok` (`<name>-2.sok`… when taken), or over `saved_as`,
    /// the file an earlier save of the same level made.
    SaveLevel {
        #[serde(default)]
        seq: Option<u64>,
        name: String,
        text: String,
        #[serde(default)]
        title: Option<String>,
        #[serde(default)]
        saved_as: Option<String>,
    },
    Ping {
        #[serde(default)]
        seq: Option<u64>,
    },
}

/// Why a message was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON, or not a JSON object.
    BadJson,
    /// Longer than [`MAX_MESSAGE`].
    TooLarge,
    /// Binary frames are not part of the protocol.
    Binary,
    /// A `type` the server does not know.
    UnknownType,
    /// A known type with missing, extra or ill-typed fields.
    BadRequest,
    /// The request needs a game and none is open.
    NoGame,
    /// A collection, level or session that does not exist.
    NotFound,
    /// Level text that does not parse or validate.
    BadLevel,
    /// A file name that would leave the data dir, or a file that could not be written.
    BadPath,
    /// The solver is busy with other games; try again.
    Busy,
    /// The move or path is not possible from here.
    Blocked,
    /// Something on the server's side failed (the message says what).
    Internal,
    /// Xiangqi: a move that is not legal here, or not the player's to make.
    Illegal,
    /// Xiangqi: a FEN or PGN text that does not parse (the message says where).
    BadRecord,
}

/// A refused message: what to send back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub code: ErrorCode,
    pub message: String,
    pub seq: Option<u64>,
}

impl Refusal {
    pub fn new(code: ErrorCode, message: impl Into<String>, seq: Option<u64>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
            seq,
        }
    }

    /// The `error` message as JSON text.
    pub fn to_json(&self) -> String {
        let reply = serde_json::json!({
            "type": "error",
            "code": self.code,
            "message": self.message,
            "seq": self.seq,
        });
        reply.to_string()
    }
}

/// Reads one text message into a request, or says why not.
pub fn parse(text: &str) -> Result<Request, Refusal> {
    parse_as(text)
}

/// Reads one text message into a request of any game's protocol, with the
/// same checks and error codes; the deserializer says which types exist.
pub fn parse_as<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, Refusal> {
    if text.len() > MAX_MESSAGE {
        return Err(Refusal::new(
            ErrorCode::TooLarge,
            format!(
                "message of {} bytes is larger than {MAX_MESSAGE}",
                text.len()
            ),
            None,
        ));
    }
    // The common case first: a well-formed request parses in one pass.
    if let Ok(request) = serde_json::from_str::<T>(text) {
        return Ok(request);
    }
    let value: Value = serde_json::from_str(text)
        .map_err(|e| Refusal::new(ErrorCode::BadJson, format!("not JSON: {e}"), None))?;
    let Value::Object(object) = &value else {
        return Err(Refusal::new(
            ErrorCode::BadJson,
            "a message must be a JSON object",
            None,
        ));
    };
    // The sequence number comes back with the error, even for a bad request.
    let seq = object.get("seq").and_then(Value::as_u64);
    let kind = match object.get("type") {
        Some(Value::String(kind)) => kind.clone(),
        _ => {
            return Err(Refusal::new(
                ErrorCode::BadRequest,
                "a message needs a \"type\" string",
                seq,
            ));
        }
    };
    // Whether the type exists, asked of the deserializer with the tag alone:
    // then an "unknown variant" can only be the tag's.
    let tag_only = serde_json::json!({ "type": kind });
    let unknown = serde_json::from_value::<T>(tag_only)
        .err()
        .is_some_and(|e| e.to_string().starts_with("unknown variant"));
    if unknown {
        let shown: String = kind.chars().take(40).collect();
        return Err(Refusal::new(
            ErrorCode::UnknownType,
            format!("unknown message type {shown:?}"),
            seq,
        ));
    }
    serde_json::from_value(value)
        .map_err(|e| Refusal::new(ErrorCode::BadRequest, format!("bad {kind}: {e}"), seq))
}

impl Request {
    /// The sequence number the page attached, echoed in the reply.
    pub fn seq(&self) -> Option<u64> {
        match self {
            Request::Open { seq, .. }
            | Request::Resume { seq, .. }
            | Request::Upload { seq, .. }
            | Request::Move { seq, .. }
            | Request::Walk { seq, .. }
            | Request::Push { seq, .. }
            | Request::Undo { seq }
            | Request::Redo { seq }
            | Request::Restart { seq }
            | Request::Next { seq, .. }
            | Request::Prev { seq }
            | Request::Goto { seq, .. }
            | Request::Hint { seq }
            | Request::Solve { seq }
            | Request::Cancel { seq }
            | Request::Rewind { seq }
            | Request::Replay { seq, .. }
            | Request::SaveSnapshot { seq }
            | Request::LoadSnapshot { seq }
            | Request::Validate { seq, .. }
            | Request::Check { seq, .. }
            | Request::Parse { seq, .. }
            | Request::Export { seq, .. }
            | Request::SaveLevel { seq, .. }
            | Request::Ping { seq } => *seq,
        }
    }
}

/// Adds `"seq"` to a reply object, when the request had one.
pub fn with_seq(mut reply: Value, seq: Option<u64>) -> String {
    if let (Some(seq), Value::Object(map)) = (seq, &mut reply) {
        map.insert("seq".into(), Value::from(seq));
    }
    reply.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(text: &str) -> Option<ErrorCode> {
        parse(text).err().map(|r| r.code)
    }

    #[test]
    fn good_requests() {
        assert_eq!(
            parse(r#"{"type":"move","dir":"up","seq":3}"#),
            Ok(Request::Move {
                seq: Some(3),
                dir: Dir::Up,
                by_solver: false,
            })
        );
        assert_eq!(
            parse(r#"{"type":"move","dir":"up","by_solver":true}"#),
            Ok(Request::Move {
                seq: None,
                dir: Dir::Up,
                by_solver: true,
            })
        );
        assert_eq!(parse(r#"{"type":"undo"}"#), Ok(Request::Undo { seq: None }));
    }

    #[test]
    fn bad_requests() {
        assert_eq!(code("{"), Some(ErrorCode::BadJson));
        assert_eq!(code("[1,2]"), Some(ErrorCode::BadJson));
        assert_eq!(code(r#"{"dir":"up"}"#), Some(ErrorCode::BadRequest));
        assert_eq!(code(r#"{"type":"fly"}"#), Some(ErrorCode::UnknownType));
        assert_eq!(
            code(r#"{"type":"move","dir":"sideways"}"#),
            Some(ErrorCode::BadRequest)
        );
        assert_eq!(
            code(r#"{"type":"move","dir":"up","x":1}"#),
            Some(ErrorCode::BadRequest)
        );
        assert_eq!(
            code(&" ".repeat(MAX_MESSAGE + 1)),
            Some(ErrorCode::TooLarge)
        );
        let refused = parse(r#"{"type":"walk","seq":9}"#).err();
        assert_eq!(refused.map(|r| r.seq), Some(Some(9)));
    }
}
