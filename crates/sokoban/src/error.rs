//! Errors of the text formats, each naming where in the input it happened.

use std::fmt;

/// A parse error with its 1-based line and column in the input text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub column: usize,
    pub kind: ParseErrorKind,
}

/// What went wrong while reading a level, a solution or a library file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    NoLevel,
    IllegalCharacter(char),
    NoPlayer,
    TwoPlayers,
    NoBoxes,
    BoxGoalMismatch {
        boxes: usize,
        goals: usize,
    },
    TooLarge {
        width: usize,
        height: usize,
    },
    BadRunLength(&'static str),
    /// Parenthesised run-length groups nested deeper than `limit`.
    NestedTooDeep {
        limit: usize,
    },
    /// A run-length board row with no cell (`||`).
    EmptyRow,
    /// A run-length expansion longer than `limit` characters.
    ExpandsTooFar {
        limit: usize,
    },
    /// A collection whose boards expand to more than `limit` characters in all.
    CollectionTooLarge {
        limit: usize,
    },
    IllegalLurd(char),
    Json(String),
}

impl ParseError {
    pub(crate) fn new(line: usize, column: usize, kind: ParseErrorKind) -> ParseError {
        ParseError { line, column, kind }
    }
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::NoLevel => write!(f, "no level found"),
            ParseErrorKind::IllegalCharacter(c) => write!(f, "illegal character {c:?} in a board"),
            ParseErrorKind::NoPlayer => write!(f, "the level has no player"),
            ParseErrorKind::TwoPlayers => write!(f, "the level has a second player"),
            ParseErrorKind::NoBoxes => write!(f, "the level has no boxes"),
            ParseErrorKind::BoxGoalMismatch { boxes, goals } => {
                write!(
                    f,
                    "the level has {boxes} {} but {goals} {}",
                    if *boxes == 1 { "box" } else { "boxes" },
                    if *goals == 1 { "goal" } else { "goals" }
                )
            }
            ParseErrorKind::TooLarge { width, height } => {
                write!(f, "the board is {width}x{height}, larger than 256x256")
            }
            ParseErrorKind::BadRunLength(why) => write!(f, "bad run-length encoding: {why}"),
            ParseErrorKind::NestedTooDeep { limit } => write!(
                f,
                "bad run-length encoding: groups nested more than {limit} deep"
            ),
            ParseErrorKind::EmptyRow => {
                write!(
                    f,
                    "a board row is empty (run-length `||`): a row needs a cell"
                )
            }
            ParseErrorKind::ExpandsTooFar { limit } => write!(
                f,
                "run-length encoding expands to more than {limit} characters"
            ),
            ParseErrorKind::CollectionTooLarge { limit } => write!(
                f,
                "the collection's boards expand to more than {limit} characters; \
                 this level and the ones after it are not read"
            ),
            ParseErrorKind::IllegalLurd(c) => {
                write!(f, "illegal character {c:?} in a LURD solution")
            }
            ParseErrorKind::Json(msg) => write!(f, "bad level library JSON: {msg}"),
        }
    }
}

impl ParseErrorKind {
    /// Whether the error is at one character of the input (its column means
    /// something); the others are about a whole level, a solution or a file.
    pub fn points_at_a_character(&self) -> bool {
        matches!(
            self,
            ParseErrorKind::IllegalCharacter(_)
                | ParseErrorKind::TwoPlayers
                | ParseErrorKind::IllegalLurd(_)
                | ParseErrorKind::BadRunLength(_)
                | ParseErrorKind::NestedTooDeep { .. }
                | ParseErrorKind::EmptyRow
                | ParseErrorKind::Json(_)
        )
    }
}

impl fmt::Display for ParseError {
    /// `line:column: what` at a character; `line N: what` for a whole level
    /// (the line where it starts), where a column would mean nothing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind.points_at_a_character() {
            write!(f, "{}:{}: {}", self.line, self.column, self.kind)
        } else {
            write!(f, "line {}: {}", self.line, self.kind)
        }
    }
}

impl std::error::Error for ParseError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_level_error_names_its_line_but_no_column() {
        let no_player = ParseError::new(5, 1, ParseErrorKind::NoPlayer);
        assert_eq!(no_player.to_string(), "line 5: the level has no player");
        let bad = ParseError::new(2, 7, ParseErrorKind::IllegalCharacter('x'));
        assert!(bad.to_string().starts_with("2:7: "), "{bad}");
    }
}
