//! Reading and writing levels: XSB boards, SOK collection files, RLE rows and
//! the JSON level-library form.

pub mod json;
pub mod sok;
pub mod xsb;

/// Splits text into lines, accepting LF, CRLF and CR-only line endings.
pub(crate) fn split_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                lines.push(&text[start..i]);
                start = i + 1;
            }
            b'\r' => {
                lines.push(&text[start..i]);
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
}

#[cfg(test)]
mod tests {
    #[test]
    fn all_line_endings() {
        assert_eq!(super::split_lines("a\nb\r\nc\rd"), ["a", "b", "c", "d"]);
        assert_eq!(super::split_lines("a\r\r\nb\n"), ["a", "", "b"]);
    }
}
