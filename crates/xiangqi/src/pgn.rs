//! PGN for xiangqi: tags (`Game "Chinese Chess"`, `Red`, `Black`, `Result`,
//! `FEN`, `Format`), move numbers, comments, results; import and export.
//!
//! Moves may be written in ICCS/UCI, WXF or Chinese notation (the `Format` tag
//! chooses the export form; import accepts any). Variations in parentheses,
//! NAGs and the dots that hold a move's place (`1. ... h9g7`, vschess's
//! `....`, `…………`) are skipped on import.

use crate::game::Game;
use crate::moves::Move;
use crate::position::{Position, START_FEN};
use std::fmt;

/// Notation used for the moves of an exported game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum MoveFormat {
    /// `H2-E2`.
    #[default]
    Iccs,
    /// `C2.5`.
    Wxf,
    /// `炮二平五`.
    Chinese,
}

impl MoveFormat {
    /// The value of the `Format` tag.
    pub fn tag(self) -> &'static str {
        match self {
            MoveFormat::Iccs => "ICCS",
            MoveFormat::Wxf => "WXF",
            MoveFormat::Chinese => "Chinese",
        }
    }

    /// Reads a `Format` tag value (case-insensitive).
    pub fn from_tag(s: &str) -> Option<MoveFormat> {
        match s.to_ascii_lowercase().as_str() {
            "iccs" | "uci" => Some(MoveFormat::Iccs),
            "wxf" => Some(MoveFormat::Wxf),
            "chinese" => Some(MoveFormat::Chinese),
            _ => None,
        }
    }
}

/// What went wrong, and where (1-based line and column, in characters).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PgnError {
    pub line: usize,
    pub column: usize,
    pub kind: PgnErrorKind,
}

/// The kinds of PGN errors.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PgnErrorKind {
    /// A `[` tag that is not `[Name "value"]`.
    BadTag,
    /// A `{` comment or `(` variation without its closing bracket.
    Unterminated(char),
    /// The `FEN` tag does not hold a valid position.
    BadFen(crate::FenError),
    /// A move that is not legal in the game at that point.
    IllegalMove(String),
    /// No game in the text.
    NoGame,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PGN line {}, column {}: ", self.line, self.column)?;
        match &self.kind {
            PgnErrorKind::BadTag => write!(f, "malformed tag, expected [Name \"value\"]"),
            PgnErrorKind::Unterminated(c) => write!(f, "{c:?} is never closed"),
            PgnErrorKind::BadFen(e) => write!(f, "{e}"),
            PgnErrorKind::IllegalMove(m) => write!(f, "illegal or unreadable move {m:?}"),
            PgnErrorKind::NoGame => write!(f, "no game found"),
        }
    }
}

impl std::error::Error for PgnError {}

/// One move of a recorded game, with the comment that follows it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PgnMove {
    pub mv: Move,
    pub comment: Option<String>,
}

/// A recorded game.
///
/// ```
/// use xiangqi::pgn::{PgnGame, MoveFormat};
/// let text = "[Game \"Chinese Chess\"]\n[Result \"*\"]\n\n1. h2e2 {central cannon} h9g7 *\n";
/// let game = PgnGame::parse(text).unwrap();
/// assert_eq!(game.moves.len(), 2);
/// assert_eq!(game.moves[0].comment.as_deref(), Some("central cannon"));
/// let chinese = game.to_pgn(MoveFormat::Chinese);
/// assert!(chinese.contains("1. 炮二平五 {central cannon} 马8进7 *"));
/// assert_eq!(PgnGame::parse(&chinese).unwrap().moves, game.moves);
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PgnGame {
    /// Tags in file order (without duplicates of `FEN`/`Format` handling).
    pub tags: Vec<(String, String)>,
    /// Start position (from the `FEN` tag, or the standard one).
    pub start: Position,
    /// Comment before the first move.
    pub intro: Option<String>,
    pub moves: Vec<PgnMove>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

impl Default for PgnGame {
    fn default() -> Self {
        PgnGame {
            tags: Vec::new(),
            start: Position::startpos(),
            intro: None,
            moves: Vec::new(),
            result: "*".to_string(),
        }
    }
}

struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    column: usize,
}

impl Lexer<'_> {
    fn next(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn err(&self, line: usize, column: usize, kind: PgnErrorKind) -> PgnError {
        PgnError { line, column, kind }
    }
}

fn is_result(t: &str) -> bool {
    matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*")
}

impl PgnGame {
    /// Value of a tag (first occurrence).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing an existing one.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Parses the first game of a PGN text.
    pub fn parse(text: &str) -> Result<PgnGame, PgnError> {
        let mut games = parse_all(text)?;
        if games.is_empty() {
            return Err(PgnError {
                line: 1,
                column: 1,
                kind: PgnErrorKind::NoGame,
            });
        }
        Ok(games.swap_remove(0))
    }

    /// A record of a game, with the given tags (Game, Result, FEN are filled in).
    pub fn from_game(game: &Game, tags: &[(&str, &str)]) -> PgnGame {
        let mut g = PgnGame {
            tags: tags
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            start: game.start_position().clone(),
            intro: None,
            moves: game
                .moves()
                .map(|mv| PgnMove { mv, comment: None })
                .collect(),
            result: game.result().map_or("*", |r| r.pgn()).to_string(),
        };
        if g.tag("Result").is_none() {
            let r = g.result.clone();
            g.set_tag("Result", &r);
        } else if let Some(r) = g.tag("Result").filter(|r| is_result(r)) {
            g.result = r.to_string();
        }
        g
    }

    /// Replays the moves into a [`Game`] (they were checked on import).
    pub fn to_game(&self) -> Game {
        let mut game = Game::from_position(self.start.clone());
        for m in &self.moves {
            if game.play(m.mv).is_err() {
                break;
            }
        }
        game
    }

    /// Writes the game as PGN with moves in the given notation.
    pub fn to_pgn(&self, format: MoveFormat) -> String {
        let mut out = String::new();
        let mut tags: Vec<(String, String)> = vec![("Game".into(), "Chinese Chess".into())];
        for (k, v) in &self.tags {
            if !matches!(k.as_str(), "Game" | "Result" | "FEN" | "Format") {
                tags.push((k.clone(), v.clone()));
            }
        }
        // `result` is public: whatever it holds, what is written reads back.
        let result = if is_result(&self.result) {
            self.result.clone()
        } else {
            "*".to_string()
        };
        tags.push(("Result".into(), result.clone()));
        let fen = self.start.to_fen();
        if fen != START_FEN {
            tags.push(("FEN".into(), fen));
        }
        tags.push(("Format".into(), format.tag().into()));
        for (k, v) in tags {
            let v = v.replace('\\', "\\\\").replace('"', "\\\"");
            out.push_str(&format!("[{k} \"{v}\"]\n"));
        }
        out.push('\n');
        let mut tokens: Vec<String> = Vec::new();
        if let Some(c) = &self.intro {
            tokens.push(format!("{{{}}}", c.replace('}', ")")));
        }
        let mut pos = self.start.clone();
        for (i, m) in self.moves.iter().enumerate() {
            let red = pos.turn() == crate::Color::Red;
            let text = match format {
                MoveFormat::Iccs => m.mv.to_iccs(),
                MoveFormat::Wxf => pos.to_wxf(m.mv),
                MoveFormat::Chinese => pos.to_chinese(m.mv),
            };
            // A move number stays on the same line as its move.
            tokens.push(if red {
                format!("{}. {text}", pos.fullmoves())
            } else if i == 0 {
                format!("{}... {text}", pos.fullmoves())
            } else {
                text
            });
            if let Some(c) = &m.comment {
                tokens.push(format!("{{{}}}", c.replace('}', ")")));
            }
            pos.make_move(m.mv);
        }
        tokens.push(result);
        let mut line_len = 0;
        for t in tokens {
            let w = t.chars().count();
            if line_len > 0 && line_len + 1 + w > 79 {
                out.push('\n');
                line_len = 0;
            } else if line_len > 0 {
                out.push(' ');
                line_len += 1;
            }
            out.push_str(&t);
            line_len += w;
        }
        out.push('\n');
        out
    }
}

/// Parses every game in a PGN text.
pub fn parse_all(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let mut lx = Lexer {
        chars: text.chars().peekable(),
        line: 1,
        column: 1,
    };
    let mut games = Vec::new();
    let mut cur: Option<(PgnGame, Position)> = None;
    let mut in_moves = false;
    while let Some(c) = lx.peek() {
        let (line, col) = (lx.line, lx.column);
        if c.is_whitespace() {
            lx.next();
            continue;
        }
        // A tag after moves starts a new game.
        if c == '[' && in_moves {
            if let Some((g, _)) = cur.take() {
                games.push(g);
            }
            in_moves = false;
        }
        let (game, pos) = cur.get_or_insert_with(|| (PgnGame::default(), Position::startpos()));
        match c {
            '[' => {
                lx.next();
                let mut inner = String::new();
                let mut in_str = false;
                loop {
                    match lx.next() {
                        None | Some('\n') if !in_str => {
                            return Err(lx.err(line, col, PgnErrorKind::BadTag));
                        }
                        None => return Err(lx.err(line, col, PgnErrorKind::Unterminated('['))),
                        Some('\\') if in_str => {
                            if let Some(e) = lx.next() {
                                inner.push(e);
                            }
                        }
                        Some('"') => {
                            in_str = !in_str;
                            inner.push('\u{0}');
                        }
                        Some(']') if !in_str => break,
                        Some(ch) => inner.push(ch),
                    }
                }
                let mut parts = inner.splitn(2, '\u{0}');
                let name = parts.next().unwrap_or("").trim().to_string();
                let rest = parts.next().unwrap_or("");
                let Some((value, tail)) = rest.split_once('\u{0}') else {
                    return Err(lx.err(line, col, PgnErrorKind::BadTag));
                };
                if name.is_empty()
                    || !name.chars().all(|c| c.is_alphanumeric() || c == '_')
                    || !tail.trim().is_empty()
                {
                    return Err(lx.err(line, col, PgnErrorKind::BadTag));
                }
                if name.eq_ignore_ascii_case("FEN") {
                    let start = Position::from_fen(value)
                        .map_err(|e| lx.err(line, col, PgnErrorKind::BadFen(e)))?;
                    game.start = start.clone();
                    *pos = start;
                }
                // Only one of the four results ends a game's moves; anything
                // else written as the result would read back as a move.
                if name == "Result" && is_result(value) {
                    game.result = value.to_string();
                }
                game.tags.push((name, value.to_string()));
            }
            '{' => {
                lx.next();
                let mut s = String::new();
                loop {
                    match lx.next() {
                        None => return Err(lx.err(line, col, PgnErrorKind::Unterminated('{'))),
                        Some('}') => break,
                        Some(ch) => s.push(ch),
                    }
                }
                attach_comment(game, s.trim().to_string());
            }
            ';' => {
                let mut s = String::new();
                lx.next();
                while let Some(ch) = lx.peek() {
                    if ch == '\n' {
                        break;
                    }
                    s.push(ch);
                    lx.next();
                }
                attach_comment(game, s.trim().to_string());
            }
            '(' => {
                let mut depth = 0;
                loop {
                    match lx.next() {
                        None => return Err(lx.err(line, col, PgnErrorKind::Unterminated('('))),
                        Some('(') => depth += 1,
                        Some(')') => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        Some(_) => {}
                    }
                }
            }
            _ => {
                in_moves = true;
                let mut tok = String::new();
                while let Some(ch) = lx.peek() {
                    if ch.is_whitespace() || matches!(ch, '{' | '(' | ';' | '[') {
                        break;
                    }
                    tok.push(ch);
                    lx.next();
                }
                if is_result(&tok) {
                    game.result = tok;
                    if let Some((g, _)) = cur.take() {
                        games.push(g);
                    }
                    in_moves = false;
                    continue;
                }
                if tok.starts_with('$') || is_placeholder(&tok) {
                    continue;
                }
                // Strip annotations (`!`, `?`, check marks); every notation we read
                // ends in a digit or numeral, so this never eats part of a move.
                let t = tok.trim_end_matches(['!', '?', '+', '#']);
                let t = if t.is_empty() { tok.as_str() } else { t };
                let mv = match pos.parse_move(t) {
                    Ok(m) => Some(m),
                    Err(_) => {
                        // `12.` or `12...` move numbers, possibly glued to a move.
                        let digits = t.trim_start_matches(|c: char| c.is_ascii_digit());
                        let after = digits.trim_start_matches('.');
                        if digits.len() < t.len() && after.len() < digits.len() {
                            if after.is_empty() {
                                None
                            } else {
                                Some(pos.parse_move(after).map_err(|_| {
                                    lx.err(line, col, PgnErrorKind::IllegalMove(tok.clone()))
                                })?)
                            }
                        } else {
                            return Err(lx.err(line, col, PgnErrorKind::IllegalMove(tok.clone())));
                        }
                    }
                };
                if let Some(m) = mv {
                    pos.make_move(m);
                    game.moves.push(PgnMove {
                        mv: m,
                        comment: None,
                    });
                }
            }
        }
    }
    if let Some((g, _)) = cur
        && (!g.moves.is_empty() || !g.tags.is_empty())
    {
        games.push(g);
    }
    Ok(games)
}

/// Whether a token only holds a move's place: `...` after a move number
/// (chess style), or what vschess writes for Black's move when a comment
/// parted it from Red's: `.....` (ICCS), `....` (WXF), `…………` (Chinese).
fn is_placeholder(tok: &str) -> bool {
    !tok.is_empty() && tok.chars().all(|c| matches!(c, '.' | '…'))
}

fn attach_comment(game: &mut PgnGame, s: String) {
    let slot = match game.moves.last_mut() {
        Some(m) => &mut m.comment,
        None => &mut game.intro,
    };
    match slot {
        Some(existing) => {
            existing.push(' ');
            existing.push_str(&s);
        }
        None => *slot = Some(s),
    }
}
