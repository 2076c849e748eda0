//! The sim script: timestamped inputs, one per line, for headless runs and tests.
//!
//! ```text
//! # comments start with '#'
//! board ..........      # optional set-up lines first: matrix rows, top row first
//! board XXXXX.XXXX
//! queue TIO             # pieces dealt before the bag (the first is in play)
//! mode sprint           # marathon | marathon-endless | sprint | ultra | zen
//! das 100               # also: arr <ms>, sdf <factor|instant>, preview <0-6>
//! 0 left                # a tap: press and release at 0 ms
//! 120 rotate_cw
//! hold                  # no time: same time as the previous line
//! 200 press right       # hold a key …
//! 600 release right     # … and let go
//! 1500 wait             # just let time pass
//! 1500 hard_drop
//! ```

use crate::game::{Action, Edge, Game, InputEvent, MAX_GAME_TIME_MS};
use crate::matrix::Matrix;
use crate::mode::Mode;
use crate::piece::PieceKind;
use crate::settings::{Settings, SoftDrop};
use crate::snapshot::Snapshot;

/// A parsed script: optional set-up plus inputs.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Script {
    pub board: Vec<String>,
    pub queue: Vec<PieceKind>,
    pub mode: Option<Mode>,
    pub settings: Settings,
    pub inputs: Vec<InputEvent>,
    /// Time of the last line; the run advances to it.
    pub end_ms: u64,
}

/// What is wrong with a script line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptErrorKind {
    UnknownAction(String),
    BadNumber(String),
    TimeGoesBack {
        previous: u64,
        time: u64,
    },
    /// Later than [`MAX_GAME_TIME_MS`].
    TimeTooLate(u64),
    MissingAction,
    TrailingText(String),
    BadBoardRow(String),
    TooManyBoardRows,
    BadPiece(char),
    UnknownMode(String),
    SetupAfterInputs(String),
    BadSetting(String),
}

/// A script error with its 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    pub line: usize,
    pub column: usize,
    pub kind: ScriptErrorKind,
}

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: ", self.line, self.column)?;
        match &self.kind {
            ScriptErrorKind::UnknownAction(word) => write!(
                f,
                "unknown action `{word}` (expected left, right, soft_drop, hard_drop, rotate_cw, rotate_ccw, rotate_180, hold or wait)"
            ),
            ScriptErrorKind::BadNumber(word) => write!(f, "`{word}` is not a valid number"),
            ScriptErrorKind::TimeGoesBack { previous, time } => {
                write!(f, "time {time} is before the previous line's {previous}")
            }
            ScriptErrorKind::TimeTooLate(time) => write!(
                f,
                "time {time} is past the limit of {MAX_GAME_TIME_MS} ms (24 hours of game time)"
            ),
            ScriptErrorKind::MissingAction => write!(f, "a time must be followed by an action"),
            ScriptErrorKind::TrailingText(word) => {
                write!(f, "unexpected `{word}` after the action")
            }
            ScriptErrorKind::BadBoardRow(row) => {
                write!(f, "board row `{row}` must be exactly 10 cells")
            }
            ScriptErrorKind::TooManyBoardRows => write!(f, "the board has more than 40 rows"),
            ScriptErrorKind::BadPiece(ch) => write!(f, "`{ch}` is not a piece (I O T S Z J L)"),
            ScriptErrorKind::UnknownMode(word) => write!(
                f,
                "unknown mode `{word}` (expected marathon, marathon-endless, sprint, ultra or zen)"
            ),
            ScriptErrorKind::SetupAfterInputs(word) => {
                write!(f, "`{word}` set-up must come before the first input")
            }
            ScriptErrorKind::BadSetting(word) => write!(f, "`{word}` is out of range"),
        }
    }
}

impl std::error::Error for ScriptError {}

/// Words of a line with their 1-based columns.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in line.char_indices() {
        if ch.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((s, &line[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s, &line[s..]));
    }
    out.into_iter()
        .map(|(byte, word)| (line[..byte].chars().count() + 1, word))
        .collect()
}

fn number<T: std::str::FromStr>(
    word: &str,
    err: impl Fn(ScriptErrorKind) -> ScriptError,
) -> Result<T, ScriptError> {
    word.parse()
        .map_err(|_| err(ScriptErrorKind::BadNumber(word.to_string())))
}

impl Script {
    /// Parses script text.
    ///
    /// ```
    /// let script = tetris::Script::parse("0 left\nhold\n120 rotate_cw\n").unwrap();
    /// assert_eq!(script.inputs.len(), 6);
    /// let err = tetris::Script::parse("0 left\n50 jump\n").unwrap_err();
    /// assert_eq!(err.to_string().split(':').take(2).collect::<Vec<_>>(), ["2", "4"]);
    /// ```
    pub fn parse(text: &str) -> Result<Script, ScriptError> {
        let mut script = Script::default();
        let mut time = 0u64;
        for (index, raw) in text.lines().enumerate() {
            let line_no = index + 1;
            let content = raw.split('#').next().unwrap_or("");
            let words = words(content);
            let Some(&(first_col, first)) = words.first() else {
                continue;
            };
            let err = |column: usize| {
                move |kind: ScriptErrorKind| ScriptError {
                    line: line_no,
                    column,
                    kind,
                }
            };
            if let Some(setup) = Self::setup_word(first) {
                if !script.inputs.is_empty() {
                    return Err(err(first_col)(ScriptErrorKind::SetupAfterInputs(
                        setup.to_string(),
                    )));
                }
                let Some(&(col, value)) = words.get(1) else {
                    return Err(err(first_col + first.len())(ScriptErrorKind::BadSetting(
                        first.to_string(),
                    )));
                };
                script.apply_setup(setup, value, err(col))?;
                if let Some(&(col, extra)) = words.get(2) {
                    return Err(err(col)(ScriptErrorKind::TrailingText(extra.to_string())));
                }
                continue;
            }
            let mut rest = &words[..];
            if first.starts_with(|c: char| c.is_ascii_digit()) {
                let at: u64 = number(first, err(first_col))?;
                if at > MAX_GAME_TIME_MS {
                    return Err(err(first_col)(ScriptErrorKind::TimeTooLate(at)));
                }
                if at < time {
                    return Err(err(first_col)(ScriptErrorKind::TimeGoesBack {
                        previous: time,
                        time: at,
                    }));
                }
                time = at;
                rest = &rest[1..];
            }
            let Some(&(col, word)) = rest.first() else {
                return Err(err(first_col + first.len())(ScriptErrorKind::MissingAction));
            };
            let (edge, rest) = match word {
                "press" => (Some(Edge::Press), &rest[1..]),
                "release" => (Some(Edge::Release), &rest[1..]),
                _ => (None, rest),
            };
            let Some(&(col, word)) = rest.first() else {
                return Err(err(col + word.len())(ScriptErrorKind::MissingAction));
            };
            if let Some(&(extra_col, extra)) = rest.get(1) {
                return Err(err(extra_col)(ScriptErrorKind::TrailingText(
                    extra.to_string(),
                )));
            }
            script.end_ms = time;
            if word == "wait" && edge.is_none() {
                continue;
            }
            let Some(action) = Action::from_name(word) else {
                return Err(err(col)(ScriptErrorKind::UnknownAction(word.to_string())));
            };
            match edge {
                Some(edge) => script.inputs.push(InputEvent {
                    time_ms: time,
                    action,
                    edge,
                }),
                None => script.inputs.extend(InputEvent::tap(time, action)),
            }
        }
        Ok(script)
    }

    fn setup_word(word: &str) -> Option<&'static str> {
        ["board", "queue", "mode", "das", "arr", "sdf", "preview"]
            .into_iter()
            .find(|w| *w == word)
    }

    fn apply_setup(
        &mut self,
        setup: &str,
        value: &str,
        err: impl Fn(ScriptErrorKind) -> ScriptError,
    ) -> Result<(), ScriptError> {
        match setup {
            "board" => {
                if value.chars().count() != 10 {
                    return Err(err(ScriptErrorKind::BadBoardRow(value.to_string())));
                }
                if self.board.len() >= crate::matrix::HEIGHT as usize {
                    return Err(err(ScriptErrorKind::TooManyBoardRows));
                }
                self.board.push(value.to_string());
            }
            "queue" => {
                for ch in value.chars() {
                    let kind = PieceKind::from_letter(ch)
                        .ok_or_else(|| err(ScriptErrorKind::BadPiece(ch)))?;
                    self.queue.push(kind);
                }
            }
            "mode" => {
                self.mode = Some(match value {
                    "marathon" => Mode::Marathon { endless: false },
                    "marathon-endless" => Mode::Marathon { endless: true },
                    "sprint" => Mode::Sprint,
                    "ultra" => Mode::Ultra,
                    "zen" => Mode::Zen,
                    _ => return Err(err(ScriptErrorKind::UnknownMode(value.to_string()))),
                })
            }
            "das" => self.settings.das_ms = number(value, &err)?,
            "arr" => self.settings.arr_ms = number(value, &err)?,
            "sdf" => {
                self.settings.soft_drop = if value == "instant" {
                    SoftDrop::Instant
                } else {
                    SoftDrop::Factor(number(value, &err)?)
                }
            }
            _ => self.settings.preview = number(value, &err)?,
        }
        if self.settings.validate().is_err() {
            return Err(err(ScriptErrorKind::BadSetting(value.to_string())));
        }
        Ok(())
    }

    /// Plays the script on a fresh game (Marathon unless the script says otherwise).
    pub fn run(&self, seed: u64) -> Game {
        let matrix = Matrix::from_text_rows(&self.board).unwrap_or_default();
        let mode = self.mode.unwrap_or_default();
        let mut game = Game::with_setup(mode, self.settings, seed, matrix, &self.queue);
        game.update(self.end_ms, &self.inputs);
        game
    }
}

/// Parses and runs a script, returning the final state: the `ludus tetris sim` command.
///
/// ```
/// let snapshot = tetris::script::simulate(1, "queue I\n0 hard_drop\n").unwrap();
/// assert_eq!(snapshot.board.last().unwrap(), "...IIII...");
/// assert_eq!(snapshot.score, 2 * 19);
/// ```
pub fn simulate(seed: u64, text: &str) -> Result<Snapshot, ScriptError> {
    let script = Script::parse(text)?;
    Ok(Snapshot::of(&script.run(seed)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_carry_line_and_column() {
        let cases = [
            ("0 left\n  10 fly", "2:6: unknown action `fly`"),
            ("100 left\n50 right", "2:1: time 50 is before"),
            ("1x left", "1:1: `1x` is not a valid number"),
            ("0 left right", "1:8: unexpected `right`"),
            (
                "0 left\nboard ..........",
                "2:1: `board` set-up must come before",
            ),
            ("board ....", "1:7: board row `....` must be exactly 10"),
            ("queue TQ", "1:7: `Q` is not a piece"),
            ("mode blitz", "1:6: unknown mode `blitz`"),
            ("preview 9", "1:9: `9` is out of range"),
            ("5", "1:2: a time must be followed by an action"),
            (
                "0 left\n 18446744073709551615 wait",
                "2:2: time 18446744073709551615 is past the limit of 86400000 ms",
            ),
            ("86400001 left", "1:1: time 86400001 is past the limit"),
        ];
        for (text, expected) in cases {
            let message = Script::parse(text).unwrap_err().to_string();
            assert!(message.starts_with(expected), "{text:?} gave {message:?}");
        }
    }

    #[test]
    fn bare_lines_reuse_the_previous_time_and_edges_parse() {
        let script = Script::parse(
            "# set-up\nqueue TI\n\n120 press left # hold\nhold\n300 release left\n400 wait",
        )
        .unwrap();
        assert_eq!(script.queue, vec![PieceKind::T, PieceKind::I]);
        assert_eq!(
            script.inputs,
            vec![
                InputEvent::press(120, Action::Left),
                InputEvent::press(120, Action::Hold),
                InputEvent::release(120, Action::Hold),
                InputEvent::release(300, Action::Left),
            ]
        );
        assert_eq!(script.end_ms, 400);
    }
}

#[cfg(test)]
mod sim_tests {
    use super::*;

    #[test]
    fn sim_json_has_board_score_lines_level_hold_queue_topped_out() {
        let snapshot = simulate(5, "queue TIOSZJL\n0 hold\n10 hard_drop\n").unwrap();
        let json: serde_json::Value = serde_json::from_str(&snapshot.to_json()).unwrap();
        let board = json["board"].as_array().unwrap();
        assert_eq!(
            board.len(),
            21,
            "20 visible rows plus the hidden row the new piece pokes into"
        );
        assert_eq!(board.last().unwrap(), "...IIII...");
        assert_eq!(json["hold"], "T");
        let queue = json["queue"].as_array().unwrap();
        assert_eq!(queue.len(), 5);
        assert_eq!(
            queue[..4],
            serde_json::json!(["S", "Z", "J", "L"]).as_array().unwrap()[..]
        );
        assert_eq!(json["score"], 38);
        assert_eq!(json["lines"], 0);
        assert_eq!(json["level"], 1);
        assert_eq!(json["topped_out"], false);
        assert_eq!(json["status"], "playing");
        assert_eq!(json["time_ms"], 10);
        // The active O is drawn in lower case.
        assert_eq!(board[1], "....oo....");
    }
}
