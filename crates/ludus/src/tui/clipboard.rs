//! Copying text to the system clipboard from a terminal, with the OSC 52
//! escape sequence that most terminal emulators (and tmux) understand.

use std::io::{IsTerminal, Write};

/// Sends `text` to the terminal's clipboard. Returns false when standard
/// output is not a terminal (nothing was sent).
pub fn copy(text: &str) -> bool {
    let mut out = std::io::stdout();
    if !out.is_terminal() {
        return false;
    }
    let sequence = format!("\x1b]52;c;{}\x07", base64(text.as_bytes()));
    out.write_all(sequence.as_bytes())
        .and_then(|()| out.flush())
        .is_ok()
}

/// Standard base64 with padding (RFC 4648).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_matches_rfc_4648_vectors() {
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in cases {
            assert_eq!(super::base64(plain.as_bytes()), encoded);
        }
    }
}
