//! The Tetris Bot Protocol (TBP, `tetris-bot-protocol/tbp-spec`, with its `randomizer`
//! extension): JSON messages, one per line, between a front end and a bot. This module
//! is pure: the message types, their bounded parsing, conversion between TBP piece
//! locations and Ludus's pieces, the position a bot tracks ([`TbpPosition`]) and the bot
//! side of the conversation ([`TbpServer`], Ludus's bot answering a front end).
//!
//! **Coordinates.** TBP's board is 40 rows of 10 cells, row 0 at the bottom (as Ludus's
//! matrix). A location is the piece's centre as SRS true rotation defines it: for J L S T
//! Z the centre of their 3×3 box; for O the bottom-left mino in north, top-left in east,
//! top-right in south, bottom-right in west; for I the middle-left mino in north,
//! middle-top in east, middle-right in south, middle-bottom in west. Orientations north,
//! east, south, west are Ludus's spawn, right, reverse, left.

use std::collections::VecDeque;
use std::fmt;

use serde::{Deserialize, Serialize};
use tetris::bot::{BitBoard, Bot, Context};
use tetris::matrix::{HEIGHT, WIDTH};
use tetris::scoring::TSpin;
use tetris::{ActivePiece, Block, Game, Matrix, PieceKind, Rotation};

/// The longest line either side may send (a full board is about 3 KB).
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// The most pieces a `start` queue may hold.
pub const MAX_QUEUE: usize = 64;
/// The most moves a `suggestion` may list.
pub const MAX_MOVES: usize = 256;
/// Rows in a TBP board.
pub const BOARD_ROWS: usize = HEIGHT as usize;

/// A piece's rotation state, TBP's way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Orientation {
    North,
    East,
    South,
    West,
}

impl Orientation {
    fn rotation(self) -> Rotation {
        match self {
            Orientation::North => Rotation::Spawn,
            Orientation::East => Rotation::Right,
            Orientation::South => Rotation::Reverse,
            Orientation::West => Rotation::Left,
        }
    }

    fn of(rotation: Rotation) -> Orientation {
        match rotation {
            Rotation::Spawn => Orientation::North,
            Rotation::Right => Orientation::East,
            Rotation::Reverse => Orientation::South,
            Rotation::Left => Orientation::West,
        }
    }
}

/// Whether the move is a spin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spin {
    None,
    Mini,
    Full,
}

/// Where a piece goes: its kind, orientation and centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceLocation {
    #[serde(rename = "type")]
    pub kind: PieceKind,
    pub orientation: Orientation,
    pub x: i32,
    pub y: i32,
}

/// A move: a location and whether it is reached by a spin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TbpMove {
    pub location: PieceLocation,
    pub spin: Spin,
}

/// One board row, left to right: `None` empty, else a piece letter or `G` for garbage.
pub type BoardRow = [Option<char>; WIDTH as usize];

/// The `rules` message (with the randomizer extension).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub randomizer: Option<String>,
}

/// The randomizer's state at the end of a `start` queue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Randomizer {
    SevenBag {
        bag_state: Vec<PieceKind>,
    },
    #[serde(other)]
    Unknown,
}

/// The `start` message: the position to calculate from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Start {
    pub hold: Option<PieceKind>,
    pub queue: Vec<PieceKind>,
    pub combo: u32,
    pub back_to_back: bool,
    pub board: Vec<BoardRow>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub randomizer: Option<Randomizer>,
}

/// Messages from the front end to the bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum FrontendMessage {
    Rules(Rules),
    Start(Start),
    Suggest,
    Play {
        #[serde(rename = "move")]
        mv: TbpMove,
    },
    NewPiece {
        piece: PieceKind,
    },
    Stop,
    Quit,
    /// A type this version does not know (the spec says: ignore it).
    #[serde(other)]
    Unknown,
}

/// Messages from the bot to the front end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum BotMessage {
    Info {
        name: String,
        version: String,
        author: String,
        features: Vec<String>,
    },
    Ready,
    Suggestion {
        moves: Vec<TbpMove>,
    },
    Error {
        reason: String,
    },
    /// A type this version does not know (ignored).
    #[serde(other)]
    Unknown,
}

/// Why a TBP line or move was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TbpError {
    /// The line is longer than [`MAX_LINE_BYTES`].
    LineTooLong(usize),
    /// The line is not a TBP message (serde's message says where).
    BadJson(String),
    /// A board without [`BOARD_ROWS`] rows.
    BoardRows(usize),
    /// A board cell that is neither a piece letter nor `G` (row, column).
    BadCell {
        row: usize,
        column: usize,
        cell: char,
    },
    /// A queue longer than [`MAX_QUEUE`].
    QueueTooLong(usize),
    /// A suggestion with more than [`MAX_MOVES`] moves.
    TooManyMoves(usize),
    /// A location outside the board or overlapping blocks.
    Blocked(PieceLocation),
    /// A piece that is neither the current piece nor the one hold gives.
    NotPlayable(PieceKind),
    /// `suggest` or `play` with no piece in the queue.
    EmptyQueue,
}

impl fmt::Display for TbpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbpError::LineTooLong(n) => {
                write!(f, "line of {n} bytes is over the limit of {MAX_LINE_BYTES}")
            }
            TbpError::BadJson(why) => write!(f, "not a TBP message: {why}"),
            TbpError::BoardRows(n) => write!(f, "board has {n} rows, TBP boards have {BOARD_ROWS}"),
            TbpError::BadCell { row, column, cell } => {
                write!(
                    f,
                    "board row {row} column {column}: {cell:?} is not a piece or G"
                )
            }
            TbpError::QueueTooLong(n) => write!(f, "queue of {n} pieces is over {MAX_QUEUE}"),
            TbpError::TooManyMoves(n) => write!(f, "suggestion of {n} moves is over {MAX_MOVES}"),
            TbpError::Blocked(at) => write!(
                f,
                "{:?} {:?} at x {} y {} is off the board or overlaps blocks",
                at.kind, at.orientation, at.x, at.y
            ),
            TbpError::NotPlayable(kind) => {
                write!(f, "{kind:?} is neither the current piece nor the held one")
            }
            TbpError::EmptyQueue => f.write_str("the queue is empty"),
        }
    }
}

impl std::error::Error for TbpError {}

fn parse<T: for<'de> Deserialize<'de>>(line: &str) -> Result<T, TbpError> {
    if line.len() > MAX_LINE_BYTES {
        return Err(TbpError::LineTooLong(line.len()));
    }
    serde_json::from_str(line.trim()).map_err(|e| TbpError::BadJson(e.to_string()))
}

/// Parses a front end's line, checking the board and queue of a `start`.
///
/// # Errors
/// The line is too long, not JSON of a known shape, or its board or queue is out of bounds.
pub fn parse_frontend(line: &str) -> Result<FrontendMessage, TbpError> {
    let message: FrontendMessage = parse(line)?;
    if let FrontendMessage::Start(start) = &message {
        if start.queue.len() > MAX_QUEUE {
            return Err(TbpError::QueueTooLong(start.queue.len()));
        }
        matrix_of(&start.board)?;
    }
    Ok(message)
}

/// Parses a bot's line.
///
/// # Errors
/// The line is too long, not JSON of a known shape, or lists too many moves.
pub fn parse_bot(line: &str) -> Result<BotMessage, TbpError> {
    let message: BotMessage = parse(line)?;
    if let BotMessage::Suggestion { moves } = &message
        && moves.len() > MAX_MOVES
    {
        return Err(TbpError::TooManyMoves(moves.len()));
    }
    Ok(message)
}

/// A message as one line of JSON (without the line break).
pub fn to_line<T: Serialize>(message: &T) -> String {
    serde_json::to_string(message).unwrap_or_else(|_| String::from("{}"))
}

/// Where the TBP centre sits in the piece's bounding box, per rotation state.
fn centre_in_box(kind: PieceKind, rotation: Rotation) -> (i32, i32) {
    match (kind, rotation) {
        (PieceKind::O, Rotation::Spawn) => (0, 0),
        (PieceKind::O, Rotation::Right) => (0, 1),
        (PieceKind::O, Rotation::Reverse) => (1, 1),
        (PieceKind::O, Rotation::Left) => (1, 0),
        (PieceKind::I, Rotation::Spawn) => (1, 2),
        (PieceKind::I, Rotation::Right) => (2, 2),
        (PieceKind::I, Rotation::Reverse) => (2, 1),
        (PieceKind::I, Rotation::Left) => (1, 1),
        _ => (1, 1),
    }
}

/// A Ludus piece as a TBP location.
pub fn location_of(piece: &ActivePiece) -> PieceLocation {
    let (cx, cy) = centre_in_box(piece.kind, piece.rotation);
    PieceLocation {
        kind: piece.kind,
        orientation: Orientation::of(piece.rotation),
        x: i32::from(piece.x) + cx,
        y: i32::from(piece.y) + cy,
    }
}

/// A TBP location as a Ludus piece; `None` when it is far outside the board.
pub fn piece_at(location: &PieceLocation) -> Option<ActivePiece> {
    let rotation = location.orientation.rotation();
    let (cx, cy) = centre_in_box(location.kind, rotation);
    Some(ActivePiece {
        kind: location.kind,
        rotation,
        x: i8::try_from(location.x - cx).ok()?,
        y: i8::try_from(location.y - cy).ok()?,
    })
}

/// The cells a location covers, when they are all inside the 10×40 board.
pub fn cells_at(location: &PieceLocation) -> Option<[(i8, i8); 4]> {
    let cells = piece_at(location)?.cells();
    cells
        .iter()
        .all(|&(x, y)| (0..WIDTH).contains(&x) && (0..HEIGHT).contains(&y))
        .then_some(cells)
}

/// The matrix as a TBP board.
pub fn board_of(matrix: &Matrix) -> Vec<BoardRow> {
    (0..HEIGHT)
        .map(|y| {
            let mut row = [None; WIDTH as usize];
            for (x, cell) in (0..WIDTH).zip(row.iter_mut()) {
                *cell = matrix.cell(x, y).map(|block| match block {
                    Block::Piece(kind) => kind.letter(),
                    Block::Garbage => 'G',
                });
            }
            row
        })
        .collect()
}

/// A TBP board as a matrix.
///
/// # Errors
/// Not [`BOARD_ROWS`] rows, or a cell that is not a piece letter or `G`.
pub fn matrix_of(board: &[BoardRow]) -> Result<Matrix, TbpError> {
    if board.len() != BOARD_ROWS {
        return Err(TbpError::BoardRows(board.len()));
    }
    let mut matrix = Matrix::new();
    for ((row, cells), y) in board.iter().enumerate().zip(0..HEIGHT) {
        for ((column, cell), x) in cells.iter().enumerate().zip(0..WIDTH) {
            let block = match cell {
                None => None,
                Some('G') => Some(Block::Garbage),
                Some(letter) => Some(
                    PieceKind::from_letter(*letter)
                        .filter(|_| letter.is_ascii_uppercase())
                        .map(Block::Piece)
                        .ok_or(TbpError::BadCell {
                            row,
                            column,
                            cell: *letter,
                        })?,
                ),
            };
            matrix.set(x, y, block);
        }
    }
    Ok(matrix)
}

/// The position a TBP bot calculates from: what `start` gives, moved on by `play` and
/// `new_piece`. The queue's first piece is the one in play.
#[derive(Clone, Debug, PartialEq)]
pub struct TbpPosition {
    pub matrix: Matrix,
    pub hold: Option<PieceKind>,
    pub queue: VecDeque<PieceKind>,
    pub combo: u32,
    pub back_to_back: bool,
}

impl TbpPosition {
    /// The position a `start` describes.
    ///
    /// # Errors
    /// The board or queue is out of bounds.
    pub fn from_start(start: &Start) -> Result<TbpPosition, TbpError> {
        if start.queue.len() > MAX_QUEUE {
            return Err(TbpError::QueueTooLong(start.queue.len()));
        }
        Ok(TbpPosition {
            matrix: matrix_of(&start.board)?,
            hold: start.hold,
            queue: start.queue.iter().copied().collect(),
            combo: start.combo,
            back_to_back: start.back_to_back,
        })
    }

    /// A game's position: its piece in play, then its visible next queue.
    pub fn of_game(game: &Game) -> TbpPosition {
        TbpPosition {
            matrix: game.matrix().clone(),
            hold: game.hold_piece(),
            queue: game
                .active()
                .map(|piece| piece.kind)
                .into_iter()
                .chain(game.next_queue())
                .collect(),
            combo: game.combo().unwrap_or(0),
            back_to_back: game.back_to_back(),
        }
    }

    /// The `start` message for this position; `randomizer` is the bag at the queue's end.
    pub fn to_start(&self, randomizer: Option<Randomizer>) -> Start {
        Start {
            hold: self.hold,
            queue: self.queue.iter().copied().collect(),
            combo: self.combo,
            back_to_back: self.back_to_back,
            board: board_of(&self.matrix),
            randomizer,
        }
    }

    /// Whether another position has the same occupied cells, hold and queue (what a bot
    /// plays from; colours and combo aside).
    pub fn same_play(&self, other: &TbpPosition) -> bool {
        self.hold == other.hold
            && self.queue == other.queue
            && self.matrix.bit_rows() == other.matrix.bit_rows()
    }

    /// Plays a move: locks the piece (holding first when it is the piece hold gives)
    /// and clears full rows. The move is not checked for reachability, only for room.
    ///
    /// # Errors
    /// The queue is empty, the piece is not playable, or it does not fit.
    pub fn play(&mut self, mv: &TbpMove) -> Result<(), TbpError> {
        let location = mv.location;
        let current = *self.queue.front().ok_or(TbpError::EmptyQueue)?;
        let holds = location.kind != current;
        if holds {
            let gives = self.hold.or_else(|| self.queue.get(1).copied());
            if gives != Some(location.kind) {
                return Err(TbpError::NotPlayable(location.kind));
            }
        }
        let piece = piece_at(&location)
            .filter(|piece| cells_at(&location).is_some() && self.matrix.fits(piece))
            .ok_or(TbpError::Blocked(location))?;
        if holds {
            if self.hold.is_none() {
                self.queue.pop_front();
            }
            self.hold = Some(current);
        }
        self.queue.pop_front();
        self.matrix.lock(&piece);
        let lines = self.matrix.clear_full_rows();
        if lines > 0 {
            self.combo += 1;
            self.back_to_back = lines == 4 || mv.spin != Spin::None;
        } else {
            self.combo = 0;
        }
        Ok(())
    }
}

/// The 7-bag's contents after the last piece of a game's TBP queue, for `start`'s
/// randomizer. `None` when the queue is too short to tell.
pub fn seven_bag_after(game: &Game) -> Option<Randomizer> {
    let position = TbpPosition::of_game(game);
    // Every piece dealt so far is locked, held, in play or in the queue.
    let dealt = game.pieces() + u64::from(position.hold.is_some()) + position.queue.len() as u64;
    let in_bag = (dealt % 7) as usize;
    let tail = position.queue.len().checked_sub(in_bag)?;
    let drawn: Vec<PieceKind> = position.queue.iter().skip(tail).copied().collect();
    let bag_state = PieceKind::ALL
        .into_iter()
        .filter(|kind| !drawn.contains(kind))
        .collect();
    Some(Randomizer::SevenBag { bag_state })
}

/// A plan's spin, TBP's way.
pub fn spin_of(t_spin: TSpin) -> Spin {
    match t_spin {
        TSpin::None => Spin::None,
        TSpin::Mini => Spin::Mini,
        TSpin::Full => Spin::Full,
    }
}

/// What [`TbpServer::handle`] answers: messages to send, and whether to quit.
#[derive(Debug, Default, PartialEq)]
pub struct Reply {
    pub messages: Vec<BotMessage>,
    pub quit: bool,
}

impl Reply {
    fn send(message: BotMessage) -> Reply {
        Reply {
            messages: vec![message],
            quit: false,
        }
    }
}

/// Ludus's bot as a TBP bot: the conversation after `info` (see [`TbpServer::info`]).
/// Bad lines and misplaced messages get an `error` message; the conversation goes on.
pub struct TbpServer {
    bot: Bot,
    rules_seen: bool,
    position: Option<TbpPosition>,
}

impl Default for TbpServer {
    fn default() -> Self {
        TbpServer::new()
    }
}

impl TbpServer {
    pub fn new() -> TbpServer {
        TbpServer {
            bot: Bot::new(),
            rules_seen: false,
            position: None,
        }
    }

    /// The `info` message a bot sends as it starts.
    pub fn info() -> BotMessage {
        BotMessage::Info {
            name: String::from("Ludus"),
            version: String::from(env!("CARGO_PKG_VERSION")),
            author: String::from("Ludus"),
            features: Vec::new(),
        }
    }

    /// The position being calculated from, if any.
    pub fn position(&self) -> Option<&TbpPosition> {
        self.position.as_ref()
    }

    /// Answers one line from the front end.
    pub fn handle(&mut self, line: &str) -> Reply {
        if line.trim().is_empty() {
            return Reply::default();
        }
        match parse_frontend(line) {
            Ok(message) => self.answer(message),
            Err(error) => Reply::send(BotMessage::Error {
                reason: error.to_string(),
            }),
        }
    }

    fn answer(&mut self, message: FrontendMessage) -> Reply {
        let error = |reason: &str| {
            Reply::send(BotMessage::Error {
                reason: reason.to_owned(),
            })
        };
        match message {
            FrontendMessage::Rules(_) => {
                self.rules_seen = true;
                Reply::send(BotMessage::Ready)
            }
            FrontendMessage::Start(_) | FrontendMessage::Suggest | FrontendMessage::Play { .. }
                if !self.rules_seen =>
            {
                error("rules must come first")
            }
            FrontendMessage::Start(start) => match TbpPosition::from_start(&start) {
                Ok(position) => {
                    self.position = Some(position);
                    Reply::default()
                }
                Err(e) => error(&e.to_string()),
            },
            FrontendMessage::Suggest => match &self.position {
                None => error("suggest before start"),
                Some(position) => Reply::send(self.suggestion(&position.clone())),
            },
            FrontendMessage::Play { mv } => match self.position.as_mut() {
                None => error("play before start"),
                Some(position) => match position.play(&mv) {
                    Ok(()) => Reply::default(),
                    Err(e) => error(&e.to_string()),
                },
            },
            FrontendMessage::NewPiece { piece } => {
                match self.position.as_mut() {
                    Some(position) if position.queue.len() < MAX_QUEUE => {
                        position.queue.push_back(piece);
                    }
                    Some(_) => return error(&TbpError::QueueTooLong(MAX_QUEUE + 1).to_string()),
                    None => {}
                }
                Reply::default()
            }
            FrontendMessage::Stop => {
                self.position = None;
                Reply::default()
            }
            FrontendMessage::Quit => Reply {
                messages: Vec::new(),
                quit: true,
            },
            FrontendMessage::Unknown => Reply::default(),
        }
    }

    fn suggestion(&mut self, position: &TbpPosition) -> BotMessage {
        let Some(&current) = position.queue.front() else {
            return BotMessage::Error {
                reason: TbpError::EmptyQueue.to_string(),
            };
        };
        let board = BitBoard::from_matrix(&position.matrix);
        let rest: Vec<PieceKind> = position.queue.iter().skip(1).copied().collect();
        // The versus search: TBP's combo counts clears in a row, Ludus's the ones after
        // the first (a first clear is combo 0), and nothing says what garbage is coming.
        let context = Context {
            incoming: 0,
            back_to_back: position.back_to_back,
            combo: position.combo.checked_sub(1),
        };
        let plan = self
            .bot
            .plan_new_piece_versus(&board, current, position.hold, &rest, &context);
        BotMessage::Suggestion {
            moves: plan
                .map(|plan| TbpMove {
                    location: location_of(&plan.target),
                    spin: spin_of(plan.t_spin),
                })
                .into_iter()
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetris::{Mode, Settings};

    fn empty_board() -> Vec<BoardRow> {
        vec![[None; 10]; BOARD_ROWS]
    }

    fn start(queue: &[PieceKind]) -> Start {
        Start {
            hold: None,
            queue: queue.to_vec(),
            combo: 0,
            back_to_back: false,
            board: empty_board(),
            randomizer: Some(Randomizer::SevenBag {
                bag_state: vec![PieceKind::L],
            }),
        }
    }

    fn a_move() -> TbpMove {
        TbpMove {
            location: PieceLocation {
                kind: PieceKind::T,
                orientation: Orientation::South,
                x: 4,
                y: 1,
            },
            spin: Spin::Full,
        }
    }

    #[test]
    fn every_frontend_message_round_trips() {
        let messages = [
            FrontendMessage::Rules(Rules {
                randomizer: Some(String::from("seven_bag")),
            }),
            FrontendMessage::Rules(Rules::default()),
            FrontendMessage::Start(start(&[PieceKind::T, PieceKind::I])),
            FrontendMessage::Suggest,
            FrontendMessage::Play { mv: a_move() },
            FrontendMessage::NewPiece {
                piece: PieceKind::Z,
            },
            FrontendMessage::Stop,
            FrontendMessage::Quit,
        ];
        for message in messages {
            let line = to_line(&message);
            assert_eq!(parse_frontend(&line), Ok(message), "{line}");
        }
        assert_eq!(
            to_line(&FrontendMessage::Play { mv: a_move() }),
            r#"{"type":"play","move":{"location":{"type":"T","orientation":"south","x":4,"y":1},"spin":"full"}}"#
        );
    }

    #[test]
    fn every_bot_message_round_trips() {
        let messages = [
            TbpServer::info(),
            BotMessage::Ready,
            BotMessage::Suggestion {
                moves: vec![a_move(), a_move()],
            },
            BotMessage::Error {
                reason: String::from("unsupported_rules"),
            },
        ];
        for message in messages {
            let line = to_line(&message);
            assert_eq!(parse_bot(&line), Ok(message), "{line}");
        }
    }

    #[test]
    fn unknown_types_and_attributes_are_ignored() {
        assert_eq!(
            parse_frontend(r#"{"type":"hello","x":1}"#),
            Ok(FrontendMessage::Unknown)
        );
        assert_eq!(
            parse_bot(r#"{"type":"suggestion","moves":[],"move_info":{"nodes":3}}"#),
            Ok(BotMessage::Suggestion { moves: Vec::new() })
        );
    }

    #[test]
    fn bad_lines_are_refused_with_the_reason() {
        let long = format!(
            "{{\"type\":\"rules\",\"pad\":\"{}\"}}",
            "x".repeat(MAX_LINE_BYTES)
        );
        assert!(matches!(
            parse_frontend(&long),
            Err(TbpError::LineTooLong(_))
        ));
        assert!(matches!(parse_frontend("nope"), Err(TbpError::BadJson(_))));
        let mut short = start(&[PieceKind::T]);
        short.board.pop();
        let line = to_line(&FrontendMessage::Start(short));
        assert_eq!(parse_frontend(&line), Err(TbpError::BoardRows(39)));
        let mut odd = start(&[PieceKind::T]);
        odd.board[2][3] = Some('q');
        let line = to_line(&FrontendMessage::Start(odd));
        let error = parse_frontend(&line).unwrap_err();
        assert_eq!(
            error.to_string(),
            "board row 2 column 3: 'q' is not a piece or G"
        );
        let queue = start(&[PieceKind::T; MAX_QUEUE + 1]);
        let line = to_line(&FrontendMessage::Start(queue));
        assert!(matches!(
            parse_frontend(&line),
            Err(TbpError::QueueTooLong(_))
        ));
        let many = BotMessage::Suggestion {
            moves: vec![a_move(); MAX_MOVES + 1],
        };
        assert!(matches!(
            parse_bot(&to_line(&many)),
            Err(TbpError::TooManyMoves(_))
        ));
    }

    #[test]
    fn locations_follow_the_spec_centres() {
        // O north: the bottom-left mino; I north: the middle-left mino.
        let o = PieceLocation {
            kind: PieceKind::O,
            orientation: Orientation::North,
            x: 4,
            y: 0,
        };
        let mut cells = cells_at(&o).unwrap();
        cells.sort_unstable();
        assert_eq!(cells, [(4, 0), (4, 1), (5, 0), (5, 1)]);
        let i_east = PieceLocation {
            kind: PieceKind::I,
            orientation: Orientation::East,
            x: 0,
            y: 2,
        };
        let mut cells = cells_at(&i_east).unwrap();
        cells.sort_unstable();
        assert_eq!(cells, [(0, 0), (0, 1), (0, 2), (0, 3)], "middle-top is y 2");
        let t_north = PieceLocation {
            kind: PieceKind::T,
            orientation: Orientation::North,
            x: 1,
            y: 0,
        };
        let mut cells = cells_at(&t_north).unwrap();
        cells.sort_unstable();
        assert_eq!(cells, [(0, 0), (1, 0), (1, 1), (2, 0)]);
        // Every piece and rotation goes there and back.
        for kind in PieceKind::ALL {
            for rotation in Rotation::ALL {
                let piece = ActivePiece {
                    kind,
                    rotation,
                    x: 3,
                    y: 5,
                };
                assert_eq!(piece_at(&location_of(&piece)), Some(piece));
            }
        }
        let off = PieceLocation { x: -1, ..o };
        assert_eq!(cells_at(&off), None);
        let far = PieceLocation { x: 100_000, ..o };
        assert_eq!(piece_at(&far), None);
    }

    #[test]
    fn boards_convert_both_ways() {
        let mut matrix = Matrix::new();
        matrix.set(0, 0, Some(Block::Garbage));
        matrix.set(9, 39, Some(Block::Piece(PieceKind::S)));
        let board = board_of(&matrix);
        assert_eq!(board.len(), 40);
        assert_eq!(board[0][0], Some('G'));
        assert_eq!(board[39][9], Some('S'));
        assert_eq!(matrix_of(&board), Ok(matrix));
    }

    #[test]
    fn play_holds_locks_and_clears() {
        let mut position =
            TbpPosition::from_start(&start(&[PieceKind::T, PieceKind::I, PieceKind::O])).unwrap();
        for x in 4..10 {
            position.matrix.set(x, 0, Some(Block::Garbage));
        }
        // The I is not in play: playing it holds the T (hold was empty: the queue moves two).
        let i = TbpMove {
            location: PieceLocation {
                kind: PieceKind::I,
                orientation: Orientation::North,
                x: 1,
                y: 0,
            },
            spin: Spin::None,
        };
        position.play(&i).unwrap();
        assert_eq!(position.hold, Some(PieceKind::T));
        assert_eq!(position.queue, [PieceKind::O]);
        assert!(position.matrix.is_empty(), "the row cleared");
        assert_eq!(position.combo, 1);
        // Z is neither in play nor held.
        let z = TbpMove {
            location: PieceLocation {
                kind: PieceKind::Z,
                ..i.location
            },
            spin: Spin::None,
        };
        assert_eq!(position.play(&z), Err(TbpError::NotPlayable(PieceKind::Z)));
        let below = TbpMove {
            location: PieceLocation {
                kind: PieceKind::O,
                y: -1,
                ..i.location
            },
            spin: Spin::None,
        };
        assert!(matches!(position.play(&below), Err(TbpError::Blocked(_))));
    }

    #[test]
    fn the_bag_after_the_queue_is_what_is_left_to_deal() {
        let game = Game::new(Mode::Marathon { endless: true }, Settings::default(), 9);
        // One in play and five next: six of the first bag are out, one is left.
        let Some(Randomizer::SevenBag { bag_state }) = seven_bag_after(&game) else {
            panic!("a bag");
        };
        assert_eq!(bag_state.len(), 1);
        let position = TbpPosition::of_game(&game);
        assert!(!position.queue.contains(&bag_state[0]));
    }

    #[test]
    fn the_server_answers_in_order_and_reports_bad_lines() {
        let mut server = TbpServer::new();
        let suggest = to_line(&FrontendMessage::Suggest);
        assert!(matches!(
            server.handle(&suggest).messages[..],
            [BotMessage::Error { .. }]
        ));
        let rules = to_line(&FrontendMessage::Rules(Rules::default()));
        assert_eq!(server.handle(&rules).messages, [BotMessage::Ready]);
        assert!(matches!(
            server.handle(&suggest).messages[..],
            [BotMessage::Error { .. }]
        ));
        let begin = to_line(&FrontendMessage::Start(start(&[
            PieceKind::T,
            PieceKind::O,
        ])));
        assert_eq!(server.handle(&begin), Reply::default());
        let reply = server.handle(&suggest);
        let [BotMessage::Suggestion { moves }] = &reply.messages[..] else {
            panic!("{reply:?}");
        };
        let chosen = moves[0];
        let play = to_line(&FrontendMessage::Play { mv: chosen });
        assert_eq!(server.handle(&play), Reply::default());
        let position = server.position().unwrap();
        // One piece played; holding the T for the O uses both.
        let left = usize::from(position.hold.is_none());
        assert_eq!(position.queue.len(), left);
        assert!(!position.matrix.is_empty());
        let piece = to_line(&FrontendMessage::NewPiece {
            piece: PieceKind::I,
        });
        server.handle(&piece);
        assert_eq!(server.position().unwrap().queue.len(), left + 1);
        assert!(matches!(
            server.handle("{").messages[..],
            [BotMessage::Error { .. }]
        ));
        assert!(server.handle(&to_line(&FrontendMessage::Quit)).quit);
    }
}
