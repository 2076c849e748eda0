//! XQF, the binary game records of XQStudio (象棋演播室) and many Chinese
//! programs: import of every version, including the encrypted ones (1.1 and
//! later), and export of the main line as version 1.0.
//!
//! The layout, as the XQF 1.0 specification and ElephantEye's XQF tools
//! describe it:
//!
//! - a 1024-byte header (only the first 512 bytes are used): `XQ` and the
//!   version (10 = 1.0, 11 and later are encrypted) and keys (offsets 0..16);
//!   the squares of the 32 pieces (16..48: Red's R N B A K A B N R C C P P P P P,
//!   then Black's, one byte `file * 10 + rank` each, 90 or more when off the
//!   board); who moves and the result (50, 51); the kind of record (64: 0 or 1
//!   a whole game or opening from the start, 2 or more a middle or end game);
//!   Pascal strings (a length byte, then GBK text) for the title (80), event
//!   (208), date (272), place (288), Red (304), Black (320), annotator (464)
//!   and author (480);
//! - from offset 1024 the move tree in pre-order: a 4-byte record (from + 24,
//!   to + 32, flags, reserved) and its comment. The first record stands for the
//!   start position (its comment comes before the first move); after a record
//!   come its reply's subtree (flag "has a next move"), then its alternative's
//!   (flag "has a variation"). Version 1.0 flags are `0xf0` and `0x0f` and every
//!   record carries a 4-byte little-endian comment length; later versions use
//!   `0x80`, `0x40` and `0x20` ("has a comment", the only records with a
//!   length).
//!
//! Encryption (1.1 and later) is derived from header bytes 3 and 8..16: offsets
//! added to the piece squares (1.2 and later also rotate the 32 entries), to the
//! move squares and to comment lengths, and a 32-byte key stream subtracted
//! from every byte of the move tree.
//!
//! [`PgnGame`] has no variations, so import keeps the main line (every
//! variation is still replayed against the rules) and says in the opening
//! comment how many variations were left out ([`XqfGame::variations`]).

use crate::fen::FenError;
use crate::moves::Move;
use crate::pgn::{PgnGame, PgnMove};
use crate::piece::{Color, Piece, Role};
use crate::position::{Position, START_FEN};
use crate::square::Square;
use std::fmt;

/// Size of the header; the move tree starts here.
pub const HEADER_BYTES: usize = 1024;
/// Most records (moves of the main line and of all variations) read from one file.
pub const MAX_XQF_NODES: usize = 20_000;
/// Longest comment read, in bytes.
pub const MAX_XQF_COMMENT_BYTES: usize = 64 * 1024;

/// Piece roles of the 16 slots of each side in the header.
const SLOT_ROLES: [Role; 16] = [
    Role::Chariot,
    Role::Horse,
    Role::Elephant,
    Role::Advisor,
    Role::General,
    Role::Advisor,
    Role::Elephant,
    Role::Horse,
    Role::Chariot,
    Role::Cannon,
    Role::Cannon,
    Role::Soldier,
    Role::Soldier,
    Role::Soldier,
    Role::Soldier,
    Role::Soldier,
];

const PIECES_AT: usize = 16;
const WHO_PLAYS_AT: usize = 50;
const RESULT_AT: usize = 51;
const SETUP_AT: usize = 64;

/// A Pascal string field of the header: where it is, how many bytes it holds
/// (length byte included) and the PGN tag it becomes.
struct TextField {
    offset: usize,
    size: usize,
    tag: &'static str,
}

const TEXT_FIELDS: [TextField; 8] = [
    TextField {
        offset: 208,
        size: 64,
        tag: "Event",
    },
    TextField {
        offset: 288,
        size: 16,
        tag: "Site",
    },
    TextField {
        offset: 272,
        size: 16,
        tag: "Date",
    },
    TextField {
        offset: 304,
        size: 16,
        tag: "Red",
    },
    TextField {
        offset: 320,
        size: 16,
        tag: "Black",
    },
    TextField {
        offset: 80,
        size: 64,
        tag: "Title",
    },
    TextField {
        offset: 464,
        size: 16,
        tag: "Annotator",
    },
    TextField {
        offset: 480,
        size: 16,
        tag: "Author",
    },
];

/// What went wrong in an XQF file, and at which byte offset.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum XqfError {
    /// The file does not start with `XQ`.
    NotXqf,
    /// The file ends inside the header or a record that starts at `offset`.
    Truncated { offset: usize },
    /// Two pieces of the header stand on one square.
    SharedSquare { offset: usize },
    /// The pieces of the header do not make a valid position.
    BadPosition { offset: usize, error: FenError },
    /// A move record names a square off the board.
    BadSquare { offset: usize },
    /// A comment length is negative or above [`MAX_XQF_COMMENT_BYTES`].
    BadCommentLength { offset: usize },
    /// A move that is not legal where it is played (`ply` counts from 1).
    IllegalMove { offset: usize, ply: usize, mv: Move },
    /// More than [`MAX_XQF_NODES`] records.
    TooManyMoves { offset: usize },
}

impl XqfError {
    /// The byte offset the error is about.
    pub fn offset(&self) -> usize {
        match self {
            XqfError::NotXqf => 0,
            XqfError::Truncated { offset }
            | XqfError::SharedSquare { offset }
            | XqfError::BadPosition { offset, .. }
            | XqfError::BadSquare { offset }
            | XqfError::BadCommentLength { offset }
            | XqfError::IllegalMove { offset, .. }
            | XqfError::TooManyMoves { offset } => *offset,
        }
    }
}

impl fmt::Display for XqfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "XQF offset {}: ", self.offset())?;
        match self {
            XqfError::NotXqf => write!(f, "not an XQF file (no \"XQ\" signature)"),
            XqfError::Truncated { .. } => write!(f, "the file ends inside a record"),
            XqfError::SharedSquare { .. } => write!(f, "two pieces stand on one square"),
            XqfError::BadPosition { error, .. } => write!(f, "bad start position: {error}"),
            XqfError::BadSquare { .. } => write!(f, "a move names a square off the board"),
            XqfError::BadCommentLength { .. } => write!(
                f,
                "comment length is negative or above {MAX_XQF_COMMENT_BYTES} bytes"
            ),
            XqfError::IllegalMove { ply, mv, .. } => write!(f, "ply {ply}: illegal move {mv}"),
            XqfError::TooManyMoves { .. } => {
                write!(f, "more than {MAX_XQF_NODES} moves and variations")
            }
        }
    }
}

impl std::error::Error for XqfError {}

/// An imported XQF record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct XqfGame {
    /// The main line, its comments and the header's tags.
    pub game: PgnGame,
    /// The format version (10 = 1.0; 11 and later are encrypted).
    pub version: u8,
    /// Variations (alternatives to a move) left out of `game`.
    pub variations: usize,
}

/// The keys of an encrypted file (all zero for version 1.0).
#[derive(Clone, Copy, Default)]
struct Keys {
    piece: u8,
    from: u8,
    to: u8,
    comment: i64,
    stream: [u8; 32],
    /// Version 1.2 and later rotate the piece table.
    rotate: bool,
    /// Version 1.1 and later flag layout.
    new_flags: bool,
}

const STREAM_MASK: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

fn key_offset(key: u8, factor: u8) -> u8 {
    let k = u32::from(key);
    ((k * k * 54 + 221) * u32::from(factor)) as u8
}

impl Keys {
    fn from_header(h: &[u8]) -> Keys {
        let version = h[2];
        if version < 11 {
            return Keys::default();
        }
        let piece = key_offset(h[13], h[13]);
        let from = key_offset(h[14], piece);
        let to = key_offset(h[15], from);
        let comment = (i64::from(h[12]) * 256 + i64::from(h[13])) % 32000 + 767;
        let mask = h[3];
        let args: [u8; 4] = std::array::from_fn(|i| h[8 + i] | (h[12 + i] & mask));
        let stream = std::array::from_fn(|i| args[i % 4] & STREAM_MASK[i]);
        Keys {
            piece,
            from,
            to,
            comment,
            stream,
            rotate: version >= 12,
            new_flags: true,
        }
    }
}

/// The move tree's bytes, decrypted as they are read.
struct Body<'a> {
    data: &'a [u8],
    keys: Keys,
}

impl Body<'_> {
    /// `n` decrypted bytes at `offset`, or `Truncated` naming `record`.
    fn bytes<const N: usize>(&self, offset: usize, record: usize) -> Result<[u8; N], XqfError> {
        let raw = offset
            .checked_add(N)
            .and_then(|end| self.data.get(offset..end))
            .ok_or(XqfError::Truncated { offset: record })?;
        Ok(std::array::from_fn(|i| self.decrypt(offset + i, raw[i])))
    }

    fn decrypt(&self, offset: usize, byte: u8) -> u8 {
        byte.wrapping_sub(self.keys.stream[(offset - HEADER_BYTES) % 32])
    }

    fn text(&self, offset: usize, len: usize, record: usize) -> Result<String, XqfError> {
        let raw = offset
            .checked_add(len)
            .and_then(|end| self.data.get(offset..end))
            .ok_or(XqfError::Truncated { offset: record })?;
        let plain: Vec<u8> = raw
            .iter()
            .enumerate()
            .map(|(i, &b)| self.decrypt(offset + i, b))
            .collect();
        Ok(decode_text(&plain))
    }
}

/// One record of the move tree.
struct Record {
    from: u8,
    to: u8,
    has_next: bool,
    has_variation: bool,
    comment: Option<String>,
    /// Offset of the record after this one.
    end: usize,
}

fn read_record(body: &Body<'_>, offset: usize) -> Result<Record, XqfError> {
    let [from, to, flags, _] = body.bytes::<4>(offset, offset)?;
    let keys = body.keys;
    let (has_next, has_variation, has_length) = if keys.new_flags {
        (flags & 0x80 != 0, flags & 0x40 != 0, flags & 0x20 != 0)
    } else {
        (flags & 0xf0 != 0, flags & 0x0f != 0, true)
    };
    let mut end = offset + 4;
    let mut comment = None;
    if has_length {
        let len = i64::from(i32::from_le_bytes(body.bytes::<4>(end, offset)?)) - keys.comment;
        let len = usize::try_from(len)
            .ok()
            .filter(|&l| l <= MAX_XQF_COMMENT_BYTES)
            .ok_or(XqfError::BadCommentLength { offset: end })?;
        end += 4;
        if len > 0 {
            let text = body.text(end, len, offset)?;
            end += len;
            if !text.trim().is_empty() {
                comment = Some(text);
            }
        }
    }
    Ok(Record {
        from: from.wrapping_sub(24).wrapping_sub(keys.from),
        to: to.wrapping_sub(32).wrapping_sub(keys.to),
        has_next,
        has_variation,
        comment,
        end,
    })
}

/// Header and record text: UTF-8 when it is, else GBK (the format's own).
fn decode_text(bytes: &[u8]) -> String {
    let bytes = bytes.split(|&b| b == 0).next().unwrap_or_default();
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => encoding_rs::GBK.decode(bytes).0.into_owned(),
    }
}

/// An XQF square byte (`file * 10 + rank`), if on the board.
fn square(value: u8) -> Option<Square> {
    if value < 90 {
        Square::new(value / 10, value % 10)
    } else {
        None
    }
}

fn square_byte(sq: Square) -> u8 {
    sq.file() * 10 + sq.rank()
}

/// Where the next record of the tree is played from.
struct Branch {
    position: Position,
    ply: usize,
    main: bool,
}

/// Reads an XQF record.
///
/// # Errors
///
/// [`XqfError`] naming the byte offset: no `XQ` signature, a file that ends
/// inside a record, a start position that is not valid, a square off the board,
/// a comment length out of bounds, an illegal move (in the main line or a
/// variation), or more than [`MAX_XQF_NODES`] records.
///
/// ```
/// use xiangqi::pgn::PgnGame;
/// use xiangqi::xqf;
/// let pgn = PgnGame::parse("[Red \"Hu\"]\n\n1. h2e2 {central cannon} h9g7 1-0\n").unwrap();
/// let bytes = xqf::write(&pgn);
/// let back = xqf::read(&bytes).unwrap();
/// assert_eq!(back.game.moves, pgn.moves);
/// assert_eq!(back.game.tag("Red"), Some("Hu"));
/// assert_eq!(back.game.result, "1-0");
/// assert!(xqf::read(&bytes[..1030]).is_err());
/// ```
pub fn read(data: &[u8]) -> Result<XqfGame, XqfError> {
    if !data.starts_with(b"XQ") {
        return Err(XqfError::NotXqf);
    }
    let header = data
        .get(..HEADER_BYTES)
        .ok_or(XqfError::Truncated { offset: 0 })?;
    let version = header[2];
    let keys = Keys::from_header(header);
    let body = Body { data, keys };

    let result = match header[RESULT_AT] {
        1 => "1-0",
        2 => "0-1",
        3 => "1/2-1/2",
        _ => "*",
    }
    .to_string();
    let mut game = PgnGame::default();
    for field in &TEXT_FIELDS {
        let len = usize::from(header[field.offset]).min(field.size - 1);
        let text = decode_text(&header[field.offset + 1..field.offset + 1 + len]);
        let text = text.trim();
        if !text.is_empty() {
            game.set_tag(field.tag, text);
        }
        if field.tag == "Black" {
            // The PGN order: Event, Site, Date, Red, Black, Result.
            game.set_tag("Result", &result);
        }
    }
    game.result = result;

    let root = read_record(&body, HEADER_BYTES)?;
    game.intro = root.comment;

    // The side to move: the first move's piece, else the header's byte.
    // Whole games and openings (kind 0 and 1) start from the standard
    // position whatever the piece table says, as other readers do.
    let board = if header[SETUP_AT] < 2 {
        let start = Position::startpos();
        std::array::from_fn(|i| Square::from_index(i).and_then(|sq| start.piece_at(sq)))
    } else {
        board_from_header(header, keys)?
    };
    let first_mover = if root.has_next {
        let first = read_record(&body, root.end)?;
        square(first.from)
            .and_then(|sq| board[sq.index()])
            .map(|p| p.color)
    } else {
        None
    };
    let turn = first_mover.unwrap_or(if header[WHO_PLAYS_AT] == 1 {
        Color::Black
    } else {
        Color::Red
    });
    let start = position_from_board(&board, turn)?;
    game.start = start.clone();

    let mut variations = 0usize;
    let mut nodes = 0usize;
    let mut pending: Vec<Branch> = Vec::new();
    let mut next = root.has_next.then_some(Branch {
        position: start,
        ply: 1,
        main: true,
    });
    let mut offset = root.end;
    while let Some(branch) = next {
        nodes += 1;
        if nodes > MAX_XQF_NODES {
            return Err(XqfError::TooManyMoves { offset });
        }
        let record = read_record(&body, offset)?;
        let (Some(from), Some(to)) = (square(record.from), square(record.to)) else {
            return Err(XqfError::BadSquare { offset });
        };
        let mv = Move::new(from, to);
        let mut after = branch.position.clone();
        if after.play(mv).is_err() {
            return Err(XqfError::IllegalMove {
                offset,
                ply: branch.ply,
                mv,
            });
        }
        if branch.main {
            game.moves.push(PgnMove {
                mv,
                comment: record.comment,
            });
        }
        if record.has_variation {
            variations += 1;
            pending.push(Branch {
                position: branch.position,
                ply: branch.ply,
                main: false,
            });
        }
        next = if record.has_next {
            Some(Branch {
                position: after,
                ply: branch.ply + 1,
                main: branch.main,
            })
        } else {
            pending.pop()
        };
        offset = record.end;
    }
    if variations > 0 {
        let note = format!(
            "XQF record with {variations} variation{}: only the main line is kept.",
            if variations == 1 { "" } else { "s" }
        );
        game.intro = Some(match game.intro.take() {
            Some(intro) => format!("{intro}\n{note}"),
            None => note,
        });
    }
    Ok(XqfGame {
        game,
        version,
        variations,
    })
}

fn board_from_header(header: &[u8], keys: Keys) -> Result<[Option<Piece>; 90], XqfError> {
    let mut slots = [0u8; 32];
    for (i, &b) in header[PIECES_AT..PIECES_AT + 32].iter().enumerate() {
        let plain = b.wrapping_sub(keys.piece);
        let slot = if keys.rotate {
            (usize::from(keys.piece) + 1 + i) % 32
        } else {
            i
        };
        slots[slot] = plain;
    }
    let mut board = [None; 90];
    for (slot, &value) in slots.iter().enumerate() {
        let Some(sq) = square(value) else { continue };
        let color = if slot < 16 { Color::Red } else { Color::Black };
        let piece = Piece::new(color, SLOT_ROLES[slot % 16]);
        let cell = &mut board[sq.index()];
        if cell.is_some() {
            return Err(XqfError::SharedSquare {
                offset: PIECES_AT + slot,
            });
        }
        *cell = Some(piece);
    }
    Ok(board)
}

fn position_from_board(board: &[Option<Piece>; 90], turn: Color) -> Result<Position, XqfError> {
    let mut fen = String::new();
    for rank in (0..10u8).rev() {
        let mut empty = 0;
        for file in 0..9u8 {
            match Square::new(file, rank).and_then(|sq| board[sq.index()]) {
                Some(p) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(p.char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if turn == Color::Red { " w" } else { " b" });
    Position::from_fen(&fen).map_err(|error| XqfError::BadPosition {
        offset: PIECES_AT,
        error,
    })
}

/// Writes the main line of a record as XQF 1.0 (unencrypted): header tags
/// Title, Event, Date, Site, Red, Black, Annotator and Author as GBK, each cut
/// to its field (63 or 15 bytes); the result, the start position, the opening
/// comment and every move's comment.
pub fn write(game: &PgnGame) -> Vec<u8> {
    let mut out = vec![0u8; HEADER_BYTES];
    out[..3].copy_from_slice(b"XQ\x0a");
    // Piece slots: the start position's pieces, each in a slot of its kind.
    let mut slots = [0xffu8; 32];
    for sq in Square::all() {
        let Some(piece) = game.start.piece_at(sq) else {
            continue;
        };
        let base = if piece.color == Color::Red { 0 } else { 16 };
        if let Some(slot) = (0..16)
            .map(|i| base + i)
            .find(|&s| SLOT_ROLES[s % 16] == piece.role && slots[s] == 0xff)
        {
            slots[slot] = square_byte(sq);
        }
    }
    out[PIECES_AT..PIECES_AT + 32].copy_from_slice(&slots);
    out[WHO_PLAYS_AT] = u8::from(game.start.turn() == Color::Black);
    out[RESULT_AT] = match game.result.as_str() {
        "1-0" => 1,
        "0-1" => 2,
        "1/2-1/2" => 3,
        _ => 0,
    };
    out[SETUP_AT] = if game.start.to_fen() == START_FEN {
        0
    } else {
        2
    };
    for field in &TEXT_FIELDS {
        if let Some(value) = game.tag(field.tag) {
            let bytes = encode_cut(value, field.size - 1);
            out[field.offset] = bytes.len() as u8;
            out[field.offset + 1..field.offset + 1 + bytes.len()].copy_from_slice(&bytes);
        }
    }
    let count = game.moves.len();
    // The root record (the start position), then the moves.
    push_record(
        &mut out,
        0,
        0,
        count > 0,
        game.intro.as_deref().unwrap_or_default(),
        true,
    );
    for (i, m) in game.moves.iter().enumerate() {
        push_record(
            &mut out,
            square_byte(m.mv.from),
            square_byte(m.mv.to),
            i + 1 < count,
            m.comment.as_deref().unwrap_or_default(),
            false,
        );
    }
    out
}

/// One record; the root's reserved byte is `0xff`, as the 1.0 specification
/// writes it.
fn push_record(out: &mut Vec<u8>, from: u8, to: u8, has_next: bool, comment: &str, root: bool) {
    let comment = encode_cut(comment, MAX_XQF_COMMENT_BYTES);
    let reserved = if root { 0xff } else { 0 };
    out.extend_from_slice(&[
        from + 24,
        to + 32,
        if has_next { 0xf0 } else { 0 },
        reserved,
    ]);
    out.extend_from_slice(&(comment.len() as i32).to_le_bytes());
    out.extend_from_slice(&comment);
}

/// GBK bytes of `text`, cut at a character boundary to at most `max` bytes.
fn encode_cut(text: &str, max: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 4];
    for c in text.chars() {
        let (bytes, _, _) = encoding_rs::GBK.encode(c.encode_utf8(&mut buf));
        if out.len() + bytes.len() > max {
            break;
        }
        out.extend_from_slice(&bytes);
    }
    out
}
