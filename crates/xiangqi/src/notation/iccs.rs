//! ICCS (`H2-E2`) and UCI (`h2e2`) coordinate notation: file `a`..`i` from Red's
//! left, rank `0`..`9` from Red's side.

use super::NotationError;
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;

impl Move {
    /// Parses `h2e2`, `H2E2`, `h2-e2` or `H2-E2` (no legality check).
    ///
    /// ```
    /// use xiangqi::Move;
    /// let m = Move::parse_iccs("H2-E2").unwrap();
    /// assert_eq!(m.to_string(), "h2e2");
    /// assert_eq!(m.to_iccs(), "H2-E2");
    /// assert!(Move::parse_iccs("h2e").is_err());
    /// ```
    pub fn parse_iccs(s: &str) -> Result<Move, NotationError> {
        let t = s.trim();
        let t = match t.len() {
            5 if t.as_bytes()[2] == b'-' => [&t[..2], &t[3..]].concat(),
            4 => t.to_string(),
            _ => return Err(NotationError::Syntax(s.to_string())),
        };
        let bad = || NotationError::Syntax(s.to_string());
        let from = Square::parse(t.get(..2).ok_or_else(bad)?).ok_or_else(bad)?;
        let to = Square::parse(t.get(2..).ok_or_else(bad)?).ok_or_else(bad)?;
        if from == to {
            return Err(bad());
        }
        Ok(Move::new(from, to))
    }

    /// Same as [`Move::parse_iccs`]; UCI uses the lower-case form.
    pub fn from_uci(s: &str) -> Result<Move, NotationError> {
        Move::parse_iccs(s)
    }

    /// Upper-case ICCS with a dash: `H2-E2`.
    pub fn to_iccs(self) -> String {
        format!("{}-{}", self.from, self.to).to_ascii_uppercase()
    }

    /// Lower-case UCI form: `h2e2`.
    pub fn to_uci(self) -> String {
        self.to_string()
    }
}

impl Position {
    /// Parses an ICCS/UCI move and checks that it is legal here.
    pub fn parse_iccs(&self, s: &str) -> Result<Move, NotationError> {
        let m = Move::parse_iccs(s)?;
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(NotationError::NoSuchMove(s.to_string()))
        }
    }
}
