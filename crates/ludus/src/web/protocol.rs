//! What the three game WebSockets share (see `docs/web-protocol.md`): the
//! message size limit, the error replies, and the validation that turns any
//! text into either a request of a game's protocol or an error reply. Each
//! game's request type is beside its socket (`web::sokoban`, …).

use serde::Serialize;
use serde_json::Value;

/// Largest message the server reads; longer ones get a `too_large` error.
pub const MAX_MESSAGE: usize = 64 * 1024;

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
    /// Tetris rooms: a move from a connection that holds no seat (a spectator, or a
    /// token that is not the room's).
    NotSeated,
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

/// Adds `"seq"` to a reply object, when the request had one.
pub fn with_seq(mut reply: Value, seq: Option<u64>) -> String {
    if let (Some(seq), Value::Object(map)) = (seq, &mut reply) {
        map.insert("seq".into(), Value::from(seq));
    }
    reply.to_string()
}
