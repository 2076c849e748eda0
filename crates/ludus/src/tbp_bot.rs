//! A TBP bot run as a child process (`sh -c "exec CMD"`): launching it through `info`,
//! `rules` and `ready`, then `start`, `suggest`, `play`, `new_piece` and `stop` as the
//! versus session asks. A reader thread hands the bot's lines over a channel so every
//! wait has a timeout; lines over [`MAX_LINE_BYTES`] end the conversation.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

use tetris::PieceKind;

use crate::protocol::tbp::{
    BotMessage, FrontendMessage, MAX_LINE_BYTES, Rules, Start, TbpError, TbpMove, parse_bot,
    to_line,
};

/// How long the bot may take to send `info`, `ready` or a `suggestion`.
pub const TBP_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a TBP bot could not go on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TbpBotError {
    /// The command could not be started (the OS's message).
    Launch(String),
    /// The bot closed its output or exited.
    Exited,
    /// No answer in time; names what was awaited.
    Timeout(&'static str),
    /// The bot sent an `error` message with this reason.
    Refused(String),
    /// The bot sent a line that is not TBP.
    Protocol(TbpError),
    /// Writing to the bot failed (the OS's message).
    Write(String),
}

impl std::fmt::Display for TbpBotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TbpBotError::Launch(why) => write!(f, "the TBP bot could not be started: {why}"),
            TbpBotError::Exited => f.write_str("the TBP bot exited"),
            TbpBotError::Timeout(what) => {
                write!(
                    f,
                    "the TBP bot sent no {what} within {} s",
                    TBP_TIMEOUT.as_secs()
                )
            }
            TbpBotError::Refused(reason) => write!(f, "the TBP bot reported an error: {reason}"),
            TbpBotError::Protocol(e) => write!(f, "the TBP bot sent a bad line: {e}"),
            TbpBotError::Write(why) => write!(f, "writing to the TBP bot failed: {why}"),
        }
    }
}

impl std::error::Error for TbpBotError {}

/// What the reader thread passes on.
enum Incoming {
    Line(String),
    TooLong,
    Closed,
}

/// A running TBP bot.
pub struct TbpBot {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Incoming>,
    /// The bot's name and version from `info`.
    name: String,
    /// Real time the bot gets to think on a position before `suggest`.
    think: Duration,
    position_sent: Instant,
}

impl TbpBot {
    /// Starts `command` through the shell and waits for `info`, then sends `rules` (7-bag)
    /// and waits for `ready`. `think` is the real time the bot gets on each position.
    ///
    /// # Errors
    /// The command cannot start, or the bot does not answer `info`/`ready` in time.
    pub fn launch(command: &str, think: Duration) -> Result<TbpBot, TbpBotError> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {command}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| TbpBotError::Launch(e.to_string()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(TbpBotError::Launch(String::from("no pipes")));
        };
        let (sender, lines) = channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                let limit = (MAX_LINE_BYTES + 1) as u64;
                let message = match reader.by_ref().take(limit).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => Incoming::Closed,
                    Ok(_) if buf.len() > MAX_LINE_BYTES => Incoming::TooLong,
                    Ok(_) => Incoming::Line(String::from_utf8_lossy(&buf).into_owned()),
                };
                let stop = !matches!(message, Incoming::Line(_));
                if sender.send(message).is_err() || stop {
                    return;
                }
            }
        });
        let mut bot = TbpBot {
            child,
            stdin,
            lines,
            name: String::new(),
            think,
            position_sent: Instant::now(),
        };
        match bot.receive("info")? {
            BotMessage::Info { name, version, .. } => bot.name = format!("{name} {version}"),
            other => return Err(unexpected(&other)),
        }
        bot.send(&FrontendMessage::Rules(Rules {
            randomizer: Some(String::from("seven_bag")),
        }))?;
        match bot.receive("ready")? {
            BotMessage::Ready => Ok(bot),
            other => Err(unexpected(&other)),
        }
    }

    /// The name and version the bot gave.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn send(&mut self, message: &FrontendMessage) -> Result<(), TbpBotError> {
        let mut line = to_line(message);
        line.push('\n');
        let written = self
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.flush());
        written.map_err(|e| match e.kind() {
            // The bot is gone: say so rather than naming the pipe.
            std::io::ErrorKind::BrokenPipe => TbpBotError::Exited,
            _ => TbpBotError::Write(e.to_string()),
        })
    }

    /// The next known message (unknown types are skipped, as the spec says).
    fn receive(&mut self, awaited: &'static str) -> Result<BotMessage, TbpBotError> {
        let deadline = Instant::now() + TBP_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(Incoming::Line(line)) => line,
                Ok(Incoming::TooLong) => {
                    return Err(TbpBotError::Protocol(TbpError::LineTooLong(
                        MAX_LINE_BYTES + 1,
                    )));
                }
                Ok(Incoming::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(TbpBotError::Exited);
                }
                Err(RecvTimeoutError::Timeout) => return Err(TbpBotError::Timeout(awaited)),
            };
            if line.trim().is_empty() {
                continue;
            }
            match parse_bot(&line).map_err(TbpBotError::Protocol)? {
                BotMessage::Unknown => continue,
                BotMessage::Error { reason } => return Err(TbpBotError::Refused(reason)),
                message => return Ok(message),
            }
        }
    }

    /// Tells the bot to calculate from a new position.
    ///
    /// # Errors
    /// Writing failed.
    pub fn start(&mut self, start: Start) -> Result<(), TbpBotError> {
        self.position_sent = Instant::now();
        self.send(&FrontendMessage::Start(start))
    }

    /// Asks for moves (after the think time since the last position) and waits for them.
    ///
    /// # Errors
    /// The bot exited, timed out, refused or sent a bad line.
    pub fn suggest(&mut self) -> Result<Vec<TbpMove>, TbpBotError> {
        let thought = self.position_sent.elapsed();
        if thought < self.think {
            thread::sleep(self.think - thought);
        }
        self.send(&FrontendMessage::Suggest)?;
        match self.receive("suggestion")? {
            BotMessage::Suggestion { moves } => Ok(moves),
            other => Err(unexpected(&other)),
        }
    }

    /// Tells the bot the move was played.
    ///
    /// # Errors
    /// Writing failed.
    pub fn play(&mut self, mv: TbpMove) -> Result<(), TbpBotError> {
        self.position_sent = Instant::now();
        self.send(&FrontendMessage::Play { mv })
    }

    /// Tells the bot a piece joined the queue.
    ///
    /// # Errors
    /// Writing failed.
    pub fn new_piece(&mut self, piece: PieceKind) -> Result<(), TbpBotError> {
        self.send(&FrontendMessage::NewPiece { piece })
    }
}

fn unexpected(message: &BotMessage) -> TbpBotError {
    TbpBotError::Protocol(TbpError::BadJson(format!(
        "unexpected message {}",
        to_line(message)
    )))
}

impl Drop for TbpBot {
    /// `stop` and `quit`, a moment to exit, then the process is killed if still there.
    fn drop(&mut self) {
        let _ = self.send(&FrontendMessage::Stop);
        let _ = self.send(&FrontendMessage::Quit);
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
