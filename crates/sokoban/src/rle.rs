//! Run-length encoding of board rows and LURD strings: `3#` is `###`,
//! `2(3(#-)#)` repeats a group, and `|` separates rows.
//!
//! Limits, checked before the work they bound: groups nest at most
//! [`MAX_NESTING`] deep, and an expansion is refused as soon as it would pass
//! its length limit ([`MAX_EXPANDED`] for [`decode`]).

use crate::error::ParseErrorKind;

/// Deepest nesting of parenthesised groups accepted (real files use two or three).
pub const MAX_NESTING: usize = 32;

/// Longest expansion [`decode`] accepts (characters), so that `999999(…)`
/// cannot exhaust memory.
pub const MAX_EXPANDED: usize = 1 << 20;

/// Expands run-length encoding. Digits repeat the next character or
/// parenthesised group; everything else is copied (including `|`).
///
/// ```
/// assert_eq!(sokoban::rle::decode("3#4-p.#").unwrap(), "###----p.#");
/// assert_eq!(sokoban::rle::decode("2(3(#-)#)").unwrap(), "#-#-#-##-#-#-#");
/// ```
///
/// # Errors
/// A malformed encoding, groups nested deeper than [`MAX_NESTING`], or an
/// expansion longer than [`MAX_EXPANDED`] characters.
pub fn decode(text: &str) -> Result<String, ParseErrorKind> {
    decode_within(text, MAX_EXPANDED)
}

/// Expands run-length encoding into at most `limit` characters.
///
/// # Errors
/// As [`decode`], with [`ParseErrorKind::ExpandsTooFar`] naming `limit` when
/// the expansion would be longer.
pub fn decode_within(text: &str, limit: usize) -> Result<String, ParseErrorKind> {
    let chars: Vec<char> = text.chars().collect();
    let mut pos = 0;
    let out = decode_group(&chars, &mut pos, 0, limit)?;
    if pos < chars.len() {
        return Err(ParseErrorKind::BadRunLength("unmatched ')'"));
    }
    Ok(out)
}

/// Expands from `pos` to the `)` closing this group (or the end at depth 0).
/// Each group's own output is bounded by `limit`, so a caller's total is too.
fn decode_group(
    chars: &[char],
    pos: &mut usize,
    depth: usize,
    limit: usize,
) -> Result<String, ParseErrorKind> {
    let mut out = String::new();
    while *pos < chars.len() {
        let c = chars[*pos];
        if c == ')' {
            if depth == 0 {
                return Err(ParseErrorKind::BadRunLength("unmatched ')'"));
            }
            return Ok(out);
        }
        let mut count: usize = 1;
        if c.is_ascii_digit() {
            count = 0;
            while let Some(d) = chars.get(*pos).and_then(|c| c.to_digit(10)) {
                count = count.saturating_mul(10).saturating_add(d as usize);
                *pos += 1;
            }
            if *pos >= chars.len() {
                return Err(ParseErrorKind::BadRunLength(
                    "a count with nothing after it",
                ));
            }
        }
        let piece = if chars[*pos] == '(' {
            // Recursion is bounded here: a hostile file must not overflow the stack.
            if depth + 1 > MAX_NESTING {
                return Err(ParseErrorKind::NestedTooDeep { limit: MAX_NESTING });
            }
            *pos += 1;
            let inner = decode_group(chars, pos, depth + 1, limit)?;
            if chars.get(*pos) != Some(&')') {
                return Err(ParseErrorKind::BadRunLength("unclosed '('"));
            }
            *pos += 1;
            inner
        } else if chars[*pos] == ')' {
            return Err(ParseErrorKind::BadRunLength("a count before ')'"));
        } else {
            let s = chars[*pos].to_string();
            *pos += 1;
            s
        };
        // An empty group repeats nothing, however large its count.
        if piece.is_empty() {
            continue;
        }
        if out.len().saturating_add(piece.len().saturating_mul(count)) > limit {
            return Err(ParseErrorKind::ExpandsTooFar { limit });
        }
        out.push_str(&piece.repeat(count));
    }
    if depth > 0 {
        return Err(ParseErrorKind::BadRunLength("unclosed '('"));
    }
    Ok(out)
}

/// Run-length encodes a string: runs of 2 or more become `N` + character.
///
/// ```
/// assert_eq!(sokoban::rle::encode("###----p.#"), "3#4-p.#");
/// ```
pub fn encode(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let mut run = 1;
        while chars.peek() == Some(&c) {
            chars.next();
            run += 1;
        }
        if run > 1 {
            out.push_str(&run.to_string());
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_groups_and_rows() {
        assert_eq!(decode("#|2(#-)").unwrap(), "#|#-#-");
        assert_eq!(decode("3(2(ab)c)").unwrap(), "ababcababcababc");
        assert_eq!(decode("12r").unwrap(), "rrrrrrrrrrrr");
    }

    #[test]
    fn malformed_input_is_an_error() {
        assert!(decode("3(#").is_err());
        assert!(decode("#)").is_err());
        assert!(decode("3").is_err());
        assert!(decode("999999999(999999999(#))").is_err());
    }

    #[test]
    fn deep_nesting_is_refused_not_a_stack_overflow() {
        let deep = format!("#{}#{}", "(".repeat(15_000), ")".repeat(15_000));
        assert_eq!(
            decode(&deep),
            Err(ParseErrorKind::NestedTooDeep { limit: MAX_NESTING })
        );
        let ok = format!("{}#{}", "1(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING));
        assert_eq!(decode(&ok).unwrap(), "#");
    }

    #[test]
    fn a_huge_count_of_an_empty_group_ends_at_once() {
        assert_eq!(decode("#99999999999999999999()").unwrap(), "#");
        assert_eq!(decode("5(99999999999999999999(1()))#").unwrap(), "#");
    }

    #[test]
    fn the_limit_is_checked_before_expanding() {
        assert_eq!(decode_within("4#", 4).unwrap(), "####");
        assert_eq!(
            decode_within("5#", 4),
            Err(ParseErrorKind::ExpandsTooFar { limit: 4 })
        );
        assert_eq!(
            decode("1048577#"),
            Err(ParseErrorKind::ExpandsTooFar {
                limit: MAX_EXPANDED
            })
        );
    }

    #[test]
    fn encode_then_decode_is_identity() {
        for s in ["", "#", "####  ..$$@", "--__--", "abcabc"] {
            assert_eq!(decode(&encode(s)).unwrap(), s);
        }
    }
}
