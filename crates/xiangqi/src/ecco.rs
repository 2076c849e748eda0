//! ECCO opening classification: the code (`A00`–`E99`) and the name, in
//! Chinese and English, of the opening a game's first moves belong to.
//!
//! The classification is data (`ecco/openings.txt`, `ecco/lines.txt`, see
//! `ecco/SOURCE.md`): each defining line is a code and the ICCS moves that
//! reach it, where `*` at one ply stands for any move. A game is matched over
//! its first [`MAX_PLIES`] plies; the deepest ply whose move sequence (exactly,
//! else with a wildcard, else by its position, so transpositions count) ends a
//! defining line gives the code, or failing that a position a line passes
//! through gives the code the line has there. Games opening on Red's left half are
//! read mirrored, as ECCO does. A game from the start position with moves that
//! no line reaches is `A00` ("Other openings").

use crate::{Move, Position, Square};
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// A classified opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The ECCO code, `A00` to `E99`.
    pub code: &'static str,
    /// The name in Chinese (simplified); a `：` parts opening and variation.
    pub chinese: &'static str,
    /// The name in English; a `: ` parts opening and variation.
    pub english: &'static str,
}

impl Opening {
    /// The Chinese name of the opening without its variation (PGN `Opening`).
    pub fn chinese_opening(&self) -> &'static str {
        split_variation(self.chinese, VARIATION_MARK_ZH).0
    }

    /// The Chinese name of the variation, if the code names one (PGN `Variation`).
    pub fn chinese_variation(&self) -> Option<&'static str> {
        split_variation(self.chinese, VARIATION_MARK_ZH).1
    }

    /// The English name of the opening without its variation.
    pub fn english_opening(&self) -> &'static str {
        split_variation(self.english, VARIATION_MARK_EN).0
    }

    /// The English name of the variation, if the code names one.
    pub fn english_variation(&self) -> Option<&'static str> {
        split_variation(self.english, VARIATION_MARK_EN).1
    }

    /// The PGN tags xqbase's converters write: `ECCO`, `Opening` and, when
    /// the code names one, `Variation` (names in Chinese).
    ///
    /// ```
    /// let o = xiangqi::ecco::opening("C02").unwrap();
    /// assert_eq!(
    ///     o.pgn_tags(),
    ///     [("ECCO", "C02"), ("Opening", "中炮七路马对屏风马"), ("Variation", "红左马盘河")]
    /// );
    /// ```
    pub fn pgn_tags(&self) -> Vec<(&'static str, &'static str)> {
        let mut tags = vec![("ECCO", self.code), ("Opening", self.chinese_opening())];
        if let Some(variation) = self.chinese_variation() {
            tags.push(("Variation", variation));
        }
        tags
    }
}

/// `C20 中炮过河车七路马对屏风马两头蛇`.
impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.code, self.chinese)
    }
}

/// How many plies of a game the classification looks at (ECCO reads the
/// first ten moves of each side).
pub const MAX_PLIES: usize = 20;

const VARIATION_MARK_ZH: &str = "：";
const VARIATION_MARK_EN: &str = ": ";
const OPENINGS: &str = include_str!("ecco/openings.txt");
const LINES: &str = include_str!("ecco/lines.txt");
/// `A00`: what a game from the start whose moves no line reaches is.
const OTHER: usize = 0;
const CODES: usize = 500;
/// In a defining line, "any move" at that ply.
const WILDCARD: &str = "*";

fn split_variation<'a>(name: &'a str, mark: &str) -> (&'a str, Option<&'a str>) {
    match name.split_once(mark) {
        Some((opening, variation)) => (opening, Some(variation)),
        None => (name, None),
    }
}

/// The opening of a game that starts at `start` and plays `moves`, or `None`
/// when the game does not start from the initial position or has no moves.
///
/// Only the first [`MAX_PLIES`] moves count; an illegal move ends the reading.
///
/// ```
/// use xiangqi::{Move, Position, ecco};
/// let moves: Vec<Move> = ["h2e2", "h9g7"].iter().map(|m| Move::parse_iccs(m).unwrap()).collect();
/// let opening = ecco::classify(&Position::startpos(), &moves).unwrap();
/// assert_eq!(opening.code, "B05");
/// assert_eq!(opening.chinese, "中炮对进左马");
/// ```
pub fn classify(start: &Position, moves: &[Move]) -> Option<Opening> {
    if moves.is_empty() || !is_start(start) {
        return None;
    }
    let table = table().as_ref().ok()?;
    let mirrored = moves[0].from.file() < 4;
    let mut seq: Vec<Move> = Vec::with_capacity(MAX_PLIES);
    let mut pos = Position::startpos();
    let mut found = OTHER;
    for &m in moves.iter().take(MAX_PLIES) {
        let m = if mirrored { mirror(m) } else { m };
        if pos.play(m).is_err() {
            break;
        }
        seq.push(m);
        if let Some(&code) = table.by_line.get(seq.as_slice()) {
            found = code;
        } else if let Some(code) = table.pattern_match(&seq) {
            found = code;
        } else if let Some(&code) = table.by_position.get(&pos.key()) {
            found = code;
        } else if let Some(&code) = table.by_passage.get(&pos.key()) {
            found = code;
        }
    }
    table.openings[found].or(table.openings[OTHER])
}

/// The opening a code names, if the classification uses it.
///
/// ```
/// assert_eq!(xiangqi::ecco::opening("E00").unwrap().chinese, "仙人指路局");
/// assert!(xiangqi::ecco::opening("Z99").is_none());
/// ```
pub fn opening(code: &str) -> Option<Opening> {
    let table = table().as_ref().ok()?;
    table.openings[code_index(code)?]
}

/// Every opening the classification names, in code order.
pub fn openings() -> impl Iterator<Item = Opening> {
    table()
        .as_ref()
        .ok()
        .into_iter()
        .flat_map(|t| t.openings.iter().flatten().copied())
}

/// Checks the embedded data: `Ok` with the number of defining lines, or the
/// first problem found. Classification never panics on bad data; it gives
/// `None` instead, and this says why.
///
/// # Errors
/// The [`EccoDataError`] of the first unreadable line.
pub fn check_data() -> Result<usize, EccoDataError> {
    table().as_ref().map(|t| t.lines).map_err(Clone::clone)
}

/// A line of the embedded ECCO data that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EccoDataError {
    /// `openings.txt` or `lines.txt`.
    pub file: &'static str,
    /// The line number, from 1.
    pub line: usize,
    /// What is wrong.
    pub kind: EccoDataErrorKind,
}

/// What is wrong with a line of ECCO data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EccoDataErrorKind {
    /// The code is not a letter `A`–`E` and two digits.
    BadCode(String),
    /// A names line lacks its Chinese or English name.
    MissingName,
    /// A defining line uses a code the names file does not name.
    UnnamedCode(String),
    /// A move is unreadable or illegal where it is played.
    BadMove(String),
    /// A defining line is longer than [`MAX_PLIES`].
    TooLong,
}

impl fmt::Display for EccoDataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ecco/{} line {}: ", self.file, self.line)?;
        match &self.kind {
            EccoDataErrorKind::BadCode(c) => write!(f, "bad ECCO code {c:?}"),
            EccoDataErrorKind::MissingName => write!(f, "missing Chinese or English name"),
            EccoDataErrorKind::UnnamedCode(c) => write!(f, "code {c} has no name"),
            EccoDataErrorKind::BadMove(m) => write!(f, "bad or illegal move {m:?}"),
            EccoDataErrorKind::TooLong => write!(f, "line longer than {MAX_PLIES} plies"),
        }
    }
}

impl std::error::Error for EccoDataError {}

struct Table {
    openings: Vec<Option<Opening>>,
    /// Exact move sequences that end a defining line.
    by_line: HashMap<Vec<Move>, usize>,
    /// Sequences with one "any move" ply, by length and last move.
    patterns: HashMap<(usize, Move), Vec<Pattern>>,
    /// Position keys that end a defining line; the first line wins.
    by_position: HashMap<u64, usize>,
    /// Position keys a defining line passes through, with its code there.
    by_passage: HashMap<u64, usize>,
    lines: usize,
}

/// Gives the positions a line passes through (not only where it ends) the
/// code its moves have there, so a game that reaches one in another order is
/// classified too; line ends keep precedence.
fn index_passages(table: &mut Table, lines: &[Vec<Move>]) {
    let mut passages = HashMap::new();
    for seq in lines {
        let mut pos = Position::startpos();
        let mut code = None;
        for (ply, &m) in seq.iter().enumerate() {
            pos.make_move(m);
            if let Some(&c) = table.by_line.get(&seq[..=ply]) {
                code = Some(c);
            }
            if let Some(c) = code {
                passages.entry(pos.key()).or_insert(c);
            }
        }
    }
    table.by_passage = passages;
}

/// A defining line with `None` for the ply where any move fits.
struct Pattern {
    moves: Vec<Option<Move>>,
    code: usize,
}

impl Table {
    /// The code of the first pattern the whole of `seq` fits.
    fn pattern_match(&self, seq: &[Move]) -> Option<usize> {
        let last = *seq.last()?;
        let fits = |pattern: &[Option<Move>]| {
            pattern
                .iter()
                .zip(seq)
                .all(|(p, m)| p.is_none_or(|p| p == *m))
        };
        self.patterns
            .get(&(seq.len(), last))?
            .iter()
            .find(|p| fits(&p.moves))
            .map(|p| p.code)
    }
}

fn table() -> &'static Result<Table, EccoDataError> {
    static TABLE: OnceLock<Result<Table, EccoDataError>> = OnceLock::new();
    TABLE.get_or_init(|| parse(OPENINGS, LINES))
}

fn is_start(pos: &Position) -> bool {
    let start = Position::startpos();
    pos.key() == start.key()
        && Square::all().all(|sq| pos.piece_at(sq) == start.piece_at(sq))
        && pos.turn() == start.turn()
}

fn mirror(m: Move) -> Move {
    Move::new(m.from.flip_file(), m.to.flip_file())
}

/// `C20` → 220.
fn code_index(code: &str) -> Option<usize> {
    let b = code.as_bytes();
    if b.len() != 3 || !(b'A'..=b'E').contains(&b[0]) {
        return None;
    }
    if !b[1].is_ascii_digit() || !b[2].is_ascii_digit() {
        return None;
    }
    Some(usize::from(b[0] - b'A') * 100 + usize::from(b[1] - b'0') * 10 + usize::from(b[2] - b'0'))
}

fn data_lines(text: &'static str) -> impl Iterator<Item = (usize, &'static str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
}

fn parse(openings: &'static str, lines: &'static str) -> Result<Table, EccoDataError> {
    let mut table = Table {
        openings: vec![None; CODES],
        by_line: HashMap::new(),
        patterns: HashMap::new(),
        by_position: HashMap::new(),
        by_passage: HashMap::new(),
        lines: 0,
    };
    for (n, line) in data_lines(openings) {
        let err = |kind| EccoDataError {
            file: "openings.txt",
            line: n,
            kind,
        };
        let mut fields = line.split('\t');
        let code = fields.next().unwrap_or("");
        let index = code_index(code).ok_or_else(|| err(EccoDataErrorKind::BadCode(code.into())))?;
        let (Some(chinese), Some(english)) = (fields.next(), fields.next()) else {
            return Err(err(EccoDataErrorKind::MissingName));
        };
        if chinese.is_empty() || english.is_empty() {
            return Err(err(EccoDataErrorKind::MissingName));
        }
        table.openings[index] = Some(Opening {
            code,
            chinese,
            english,
        });
    }
    let mut exact: Vec<Vec<Move>> = Vec::new();
    for (n, line) in data_lines(lines) {
        let err = |kind| EccoDataError {
            file: "lines.txt",
            line: n,
            kind,
        };
        let mut words = line.split_whitespace();
        let code = words.next().unwrap_or("");
        let index = code_index(code).ok_or_else(|| err(EccoDataErrorKind::BadCode(code.into())))?;
        if table.openings[index].is_none() {
            return Err(err(EccoDataErrorKind::UnnamedCode(code.into())));
        }
        let words: Vec<&str> = words.collect();
        if words.len() > MAX_PLIES {
            return Err(err(EccoDataErrorKind::TooLong));
        }
        let last = words.last().copied().unwrap_or("*");
        if last == WILDCARD {
            return Err(err(EccoDataErrorKind::BadMove(last.into())));
        }
        if words.contains(&WILDCARD) {
            // A pattern: checked for form only (its moves depend on the wildcard).
            let mut pattern = Vec::with_capacity(words.len());
            for word in &words {
                pattern.push(if *word == WILDCARD {
                    None
                } else {
                    let m = Move::parse_iccs(word)
                        .map_err(|_| err(EccoDataErrorKind::BadMove((*word).into())))?;
                    Some(m)
                });
            }
            let key = (pattern.len(), pattern.last().copied().flatten());
            if let Some(key_last) = key.1 {
                table
                    .patterns
                    .entry((key.0, key_last))
                    .or_default()
                    .push(Pattern {
                        moves: pattern,
                        code: index,
                    });
            }
            table.lines += 1;
            continue;
        }
        let mut pos = Position::startpos();
        let mut seq = Vec::new();
        for word in words {
            let m = pos
                .parse_iccs(word)
                .map_err(|_| err(EccoDataErrorKind::BadMove(word.into())))?;
            pos.make_move(m);
            seq.push(m);
        }
        table.by_position.entry(pos.key()).or_insert(index);
        table.by_line.entry(seq.clone()).or_insert(index);
        exact.push(seq);
        table.lines += 1;
    }
    // In file order, so the first line through a position names it.
    index_passages(&mut table, &exact);
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wildcard_stands_for_any_move_but_an_exact_line_comes_first() {
        let names = "A00\t其他开局\tOther\nB00\t中炮局\tCentral\nB05\t中炮对进左马\tLeft\n";
        let t = parse(names, "B05 h2e2 * h0g2\nB00 h2e2 a6a5 h0g2\n");
        let t = t.unwrap_or_else(|e| panic!("{e}"));
        let line = |s: &str| -> Vec<Move> {
            s.split(' ')
                .filter_map(|m| Move::parse_iccs(m).ok())
                .collect()
        };
        assert_eq!(t.pattern_match(&line("h2e2 h9g7 h0g2")), Some(105));
        assert_eq!(t.by_line.get(line("h2e2 a6a5 h0g2").as_slice()), Some(&100));
        assert_eq!(t.pattern_match(&line("h2e2 h9g7")), None);
        let e = parse(names, "B05 h2e2 *\n").err();
        assert_eq!(
            e.map(|e| e.kind),
            Some(EccoDataErrorKind::BadMove("*".into()))
        );
    }

    #[test]
    fn codes_index_and_reject() {
        assert_eq!(code_index("A00"), Some(0));
        assert_eq!(code_index("C20"), Some(220));
        assert_eq!(code_index("E99"), Some(499));
        for bad in ["F00", "a00", "C2", "C2x", "C200", ""] {
            assert_eq!(code_index(bad), None, "{bad}");
        }
    }

    #[test]
    fn bad_data_is_an_error_naming_file_and_line() {
        let e = parse("A00\t其他开局\tOther\nX1\tx\ty\n", "").err();
        assert_eq!(e.map(|e| (e.file, e.line)), Some(("openings.txt", 2)));
        let e = parse("A00\t其他开局\n", "").err();
        assert_eq!(e.map(|e| e.kind), Some(EccoDataErrorKind::MissingName));
        let names = "A00\t其他开局\tOther\n";
        let e = parse(names, "# c\nA00 h2e2 h2e3\n").err();
        assert_eq!(
            e.map(|e| (e.line, e.kind)),
            Some((2, EccoDataErrorKind::BadMove("h2e3".into())))
        );
        let e = parse(names, "B00 h2e2\n").err();
        assert_eq!(
            e.map(|e| e.kind),
            Some(EccoDataErrorKind::UnnamedCode("B00".into()))
        );
        let long = format!("A00{}\n", " h0g2 h9g7 g2h0 g7h9".repeat(6));
        let e = parse(names, Box::leak(long.into_boxed_str())).err();
        assert_eq!(e.map(|e| e.kind), Some(EccoDataErrorKind::TooLong));
    }
}
