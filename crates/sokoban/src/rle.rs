//! Run-length encoding of board rows and LURD strings: `3#` is `###`,
//! `2(3(#-)#)` repeats a group, and `|` separates rows.

use crate::error::ParseErrorKind;

/// Expands run-length encoding. Digits repeat the next character or
/// parenthesised group; everything else is copied (including `|`).
///
/// ```
/// assert_eq!(sokoban::rle::decode("3#4-p.#").unwrap(), "###----p.#");
/// assert_eq!(sokoban::rle::decode("2(3(#-)#)").unwrap(), "#-#-#-##-#-#-#");
/// ```
pub fn decode(text: &str) -> Result<String, ParseErrorKind> {
    let chars: Vec<char> = text.chars().collect();
    let mut pos = 0;
    let out = decode_group(&chars, &mut pos, 0)?;
    if pos < chars.len() {
        return Err(ParseErrorKind::BadRunLength("unmatched ')'"));
    }
    Ok(out)
}

/// Longest expansion we accept, so that `999999(…)` cannot exhaust memory.
const MAX_EXPANDED: usize = 1 << 20;

fn decode_group(chars: &[char], pos: &mut usize, depth: usize) -> Result<String, ParseErrorKind> {
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
            *pos += 1;
            let inner = decode_group(chars, pos, depth + 1)?;
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
        if out.len().saturating_add(piece.len().saturating_mul(count)) > MAX_EXPANDED {
            return Err(ParseErrorKind::BadRunLength(
                "expands to more than a megabyte",
            ));
        }
        for _ in 0..count {
            out.push_str(&piece);
        }
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
    fn encode_then_decode_is_identity() {
        for s in ["", "#", "####  ..$$@", "--__--", "abcabc"] {
            assert_eq!(decode(&encode(s)).unwrap(), s);
        }
    }
}
