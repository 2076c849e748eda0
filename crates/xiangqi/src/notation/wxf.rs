//! WXF notation: `C2.5`, `H2+3`, `R1=5` (`=` accepted for `.`), `C+.5` / `C-.5`
//! for the front and rear of two pieces on a file (`+C.5` accepted too).
//!
//! Soldiers: with exactly one file holding two or three soldiers, `P+`/`P-` name
//! the front and rear one and the middle of three is `2` followed by the file
//! (`25.4`). When several files hold more than one soldier, or four or more
//! share a file, a soldier is named by its place from the front and its file:
//! `15+1` is the front soldier on file 5.

use super::{Descriptor, NotationError, Op, Origin};
use crate::moves::Move;
use crate::piece::Role;
use crate::position::Position;

fn letter(role: Role) -> char {
    match role {
        Role::General => 'K',
        Role::Advisor => 'A',
        Role::Elephant => 'E',
        Role::Horse => 'H',
        Role::Chariot => 'R',
        Role::Cannon => 'C',
        Role::Soldier => 'P',
    }
}

pub(crate) fn render(d: &Descriptor) -> String {
    let l = letter(d.role);
    let origin = match d.origin {
        Origin::File(f) => format!("{l}{f}"),
        Origin::Front => format!("{l}+"),
        Origin::Rear => format!("{l}-"),
        Origin::Middle(file) => format!("2{file}"),
        Origin::Index { index, file, .. } => format!("{index}{file}"),
    };
    let op = match d.op {
        Op::Advance => '+',
        Op::Retreat => '-',
        Op::Traverse => '.',
    };
    format!("{origin}{op}{}", d.arg)
}

/// Canonical form: upper case, `.` for traverse, `E`/`H` letters, piece letter
/// before the `+`/`-` that names front and rear.
pub(crate) fn normalise(s: &str) -> Option<String> {
    let mut c: Vec<char> = s
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c.to_ascii_uppercase() {
            '=' => '.',
            'B' => 'E',
            'N' => 'H',
            x => x,
        })
        .collect();
    if c.len() != 4 {
        return None;
    }
    if matches!(c[0], '+' | '-') && c[1].is_ascii_alphabetic() {
        c.swap(0, 1);
    }
    Some(c.into_iter().collect())
}

impl Position {
    /// The move in WXF notation (`C2.5`).
    ///
    /// ```
    /// use xiangqi::{Move, Position};
    /// let pos = Position::startpos();
    /// assert_eq!(pos.to_wxf(Move::parse_iccs("h2e2").unwrap()), "C2.5");
    /// assert_eq!(pos.to_wxf(Move::parse_iccs("h0g2").unwrap()), "H2+3");
    /// ```
    pub fn to_wxf(&self, m: Move) -> String {
        match self.describe(m) {
            Some(d) => render(&d),
            None => m.to_iccs(),
        }
    }

    /// Parses a WXF move and returns the legal move it names.
    pub fn parse_wxf(&self, s: &str) -> Result<Move, NotationError> {
        let n = normalise(s).ok_or_else(|| NotationError::Syntax(s.to_string()))?;
        self.find_move(s, &n, |p, m| Some(p.to_wxf(m)), normalise)
    }
}
