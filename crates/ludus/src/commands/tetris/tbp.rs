//! `ludus tetris tbp`: Ludus's bot as a Tetris Bot Protocol bot on standard input and
//! output. The conversation is [`TbpServer`]; this only moves lines, each read with a
//! bound of [`MAX_LINE_BYTES`] (a longer line gets an `error` and is skipped).

use std::io::{BufRead, Read, Write};

use anyhow::Result;

use crate::protocol::tbp::{BotMessage, MAX_LINE_BYTES, TbpError, TbpServer, to_line};

/// Sends `info`, then answers each line until `quit` or the end of input.
///
/// # Errors
/// Reading or writing failed.
pub fn serve_tbp(mut input: impl BufRead, out: &mut impl Write) -> Result<()> {
    let mut server = TbpServer::new();
    writeln!(out, "{}", to_line(&TbpServer::info()))?;
    out.flush()?;
    loop {
        let mut buf = Vec::new();
        let read = input
            .by_ref()
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut buf)?;
        if read == 0 {
            return Ok(());
        }
        let reply = if buf.len() > MAX_LINE_BYTES {
            // Skip the rest of the over-long line.
            let mut rest = Vec::new();
            loop {
                rest.clear();
                let n = input
                    .by_ref()
                    .take(MAX_LINE_BYTES as u64)
                    .read_until(b'\n', &mut rest)?;
                if n == 0 || rest.ends_with(b"\n") {
                    break;
                }
            }
            vec![BotMessage::Error {
                reason: TbpError::LineTooLong(buf.len()).to_string(),
            }]
        } else {
            let line = String::from_utf8_lossy(&buf);
            let reply = server.handle(&line);
            if reply.quit {
                return Ok(());
            }
            reply.messages
        };
        for message in reply {
            writeln!(out, "{}", to_line(&message))?;
        }
        out.flush()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::tbp::parse_bot;

    fn replies(input: &str) -> Vec<BotMessage> {
        let mut out = Vec::new();
        serve_tbp(input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|line| parse_bot(line).unwrap())
            .collect()
    }

    #[test]
    fn an_over_long_line_gets_an_error_and_the_next_line_is_answered() {
        let long = "x".repeat(3 * MAX_LINE_BYTES);
        let got = replies(&format!("{long}\n{{\"type\":\"rules\"}}\n"));
        assert!(matches!(got[0], BotMessage::Info { .. }));
        assert!(
            matches!(&got[1], BotMessage::Error { reason } if reason.contains("over the limit"))
        );
        assert_eq!(got[2], BotMessage::Ready);
        assert_eq!(got.len(), 3);
    }

    #[test]
    fn quit_ends_the_conversation_and_blank_lines_are_skipped() {
        let got = replies("\n{\"type\":\"quit\"}\n{\"type\":\"rules\"}\n");
        assert_eq!(got.len(), 1, "{got:?}");
    }
}
