//! Opening book.
//!
//! Format (text, UTF-8): one line of play per line, moves in ICCS/UCI form
//! separated by spaces, from the start position. `#` starts a comment. A line
//! may begin with a weight `N:` (default 1). Every position along a line gets
//! the next move with the line's weight; weights of equal moves add up. The
//! built-in book (`book.txt` next to this file) is compiled into the crate. It
//! is built by [`Book::extend_lines`]: hand-picked main openings, each extended
//! by the engine's own analysis (see `examples/build_book.rs`).
//!
//! ```
//! use xiangqi::engine::Book;
//! use xiangqi::Position;
//! let book = Book::parse("3: h2e2 h9g7\n1: b2e2\n").unwrap();
//! let moves = book.probe(&Position::startpos());
//! assert_eq!(moves.len(), 2);
//! assert_eq!(moves[0].1, 3);
//! ```

use super::search::Engine;
use super::time::Limits;
use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::AtomicBool;

/// A book line that could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BookError {
    pub line: usize,
    pub text: String,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "book line {}: cannot read {:?}", self.line, self.text)
    }
}

impl std::error::Error for BookError {}

/// Moves per position key, with weights.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: HashMap<u64, Vec<(Move, u32)>>,
}

const BUILTIN: &str = include_str!("book.txt");

impl Book {
    /// The book shipped with the crate.
    pub fn builtin() -> Book {
        Book::parse(BUILTIN).unwrap_or_default()
    }

    /// Reads a book in the format above; illegal or unreadable moves are errors.
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let mut book = Book::default();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |t: &str| BookError {
                line: i + 1,
                text: t.to_string(),
            };
            let (weight, moves) = match line.split_once(':') {
                Some((w, rest)) => (w.trim().parse::<u32>().map_err(|_| err(w))?, rest),
                None => (1, line),
            };
            let mut pos = Position::startpos();
            for tok in moves.split_whitespace() {
                let m = pos.parse_iccs(tok).map_err(|_| err(tok))?;
                let list = book.entries.entry(pos.key()).or_default();
                match list.iter_mut().find(|(mv, _)| *mv == m) {
                    Some(e) => e.1 += weight,
                    None => list.push((m, weight)),
                }
                pos.make_move(m);
            }
        }
        for list in book.entries.values_mut() {
            list.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.to_u16().cmp(&b.0.to_u16())));
        }
        Ok(book)
    }

    /// Extends every line of a book text by `extra` plies chosen by the engine
    /// (searching with `limits`, its own book off) and returns the new text.
    /// Comments and blank lines are kept; a line ends early if the game does.
    pub fn extend_lines(
        text: &str,
        engine: &mut Engine,
        limits: &Limits,
        extra: usize,
    ) -> Result<String, BookError> {
        engine.set_book(None);
        let stop = AtomicBool::new(false);
        let mut out = String::new();
        for (i, raw) in text.lines().enumerate() {
            let (body, comment) = match raw.split_once('#') {
                Some((b, c)) => (b, Some(c)),
                None => (raw, None),
            };
            if body.trim().is_empty() {
                out.push_str(raw);
                out.push('\n');
                continue;
            }
            let err = |t: &str| BookError {
                line: i + 1,
                text: t.to_string(),
            };
            let (weight, moves) = match body.split_once(':') {
                Some((w, rest)) => (Some(w.trim()), rest),
                None => (None, body),
            };
            let mut game = Game::new();
            let mut line: Vec<String> = Vec::new();
            for tok in moves.split_whitespace() {
                let m = game.position().parse_iccs(tok).map_err(|_| err(tok))?;
                game.play(m).map_err(|_| err(tok))?;
                line.push(m.to_string());
            }
            for _ in 0..extra {
                if game.result().is_some() {
                    break;
                }
                let r = engine.search(&game, limits, &stop, &|| 0, &mut |_| {});
                let Some(m) = r.best else { break };
                if game.play(m).is_err() {
                    break;
                }
                line.push(m.to_string());
            }
            if let Some(w) = weight {
                out.push_str(w);
                out.push_str(": ");
            }
            out.push_str(&line.join(" "));
            if let Some(c) = comment {
                out.push_str(" #");
                out.push_str(c);
            }
            out.push('\n');
        }
        Ok(out)
    }

    /// Book moves for a position, heaviest first.
    pub fn probe(&self, pos: &Position) -> Vec<(Move, u32)> {
        self.entries
            .get(&pos.key())
            .map(|v| {
                v.iter()
                    .copied()
                    .filter(|(m, _)| pos.is_legal(*m))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Picks a book move with probability proportional to its weight, using
    /// `random` (any 64-bit value) as the source of chance.
    pub fn pick(&self, pos: &Position, random: u64) -> Option<Move> {
        let moves = self.probe(pos);
        let total: u64 = moves.iter().map(|(_, w)| *w as u64).sum();
        if total == 0 {
            return None;
        }
        let mut r = random % total;
        for (m, w) in moves {
            if r < w as u64 {
                return Some(m);
            }
            r -= w as u64;
        }
        None
    }

    /// Number of positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}
