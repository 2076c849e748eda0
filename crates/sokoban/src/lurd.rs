//! LURD solutions: `l u r d` for moves, `L U R D` for pushes, optionally
//! run-length encoded (`3r2U`, `2(lU)`); white space is ignored.

use crate::Direction;
use crate::error::{ParseError, ParseErrorKind};

/// One step of a solution as written: a direction, and whether it was
/// written as a push (upper case).
pub type Written = (Direction, bool);

/// Parses LURD text into steps.
///
/// ```
/// use sokoban::{lurd, Direction};
/// let steps = lurd::parse("2rU").unwrap();
/// assert_eq!(steps, [(Direction::Right, false), (Direction::Right, false), (Direction::Up, true)]);
/// ```
pub fn parse(text: &str) -> Result<Vec<Written>, ParseError> {
    // Check characters first so the error points into the original text.
    for (line_index, line) in crate::format::split_lines(text).iter().enumerate() {
        if let Some((col, c)) = line.chars().enumerate().find(|&(_, c)| {
            Direction::from_lurd(c).is_none()
                && !c.is_whitespace()
                && !c.is_ascii_digit()
                && c != '('
                && c != ')'
        }) {
            return Err(ParseError::new(
                line_index + 1,
                col + 1,
                ParseErrorKind::IllegalLurd(c),
            ));
        }
    }
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let expanded = if compact.chars().any(|c| c.is_ascii_digit() || c == '(') {
        crate::rle::decode(&compact).map_err(|k| ParseError::new(1, 1, k))?
    } else {
        compact
    };
    Ok(expanded.chars().filter_map(Direction::from_lurd).collect())
}

/// Writes steps as LURD text.
pub fn write(steps: impl IntoIterator<Item = Written>) -> String {
    steps.into_iter().map(|(d, push)| d.lurd(push)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_point_at_the_character() {
        let e = parse("lurd\nLU x").unwrap_err();
        assert_eq!(
            (e.line, e.column, e.kind),
            (2, 4, ParseErrorKind::IllegalLurd('x'))
        );
    }

    #[test]
    fn round_trip() {
        let text = "lurdLURD";
        assert_eq!(write(parse(text).unwrap()), text);
        assert_eq!(write(parse("2(lU) d").unwrap()), "lUlUd");
    }
}
