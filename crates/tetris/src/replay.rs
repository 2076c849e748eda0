//! Replays: a game is its seed, mode, settings and timestamped inputs, saved as JSON.

use serde::{Deserialize, Serialize};

use crate::finesse::FinesseCount;
use crate::game::{Game, InputEvent, MAX_GAME_TIME_MS, Splits};
use crate::mode::Mode;
use crate::settings::Settings;

/// The replay format this build writes and reads.
pub const REPLAY_VERSION: u32 = 1;

/// Everything needed to play a game again exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    pub version: u32,
    pub seed: u64,
    pub mode: Mode,
    pub settings: Settings,
    pub inputs: Vec<InputEvent>,
    /// Game time at which the recording ended.
    pub end_ms: u64,
    /// The recorded outcome, checked when the replay is played back.
    pub result: ReplayResult,
}

/// Outcome stored with a replay (also handy for listing replay files).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayResult {
    pub score: u64,
    pub lines: u32,
    pub pieces: u64,
    pub topped_out: bool,
    /// Finesse and key presses (`None` in replays from before they were counted, which
    /// are then checked without them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finesse: Option<FinesseCount>,
    /// Sprint's split times (`None` in older replays).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub splits: Option<Splits>,
}

impl ReplayResult {
    fn of(game: &Game) -> ReplayResult {
        ReplayResult {
            score: game.score(),
            lines: game.lines(),
            pieces: game.pieces(),
            topped_out: game.topped_out(),
            finesse: Some(*game.finesse()),
            splits: Some(*game.splits()),
        }
    }

    /// Whether a played game's result `got` is this recorded one (figures an older
    /// replay did not record are not compared).
    fn matches(&self, got: &ReplayResult) -> bool {
        let got = ReplayResult {
            finesse: self.finesse.and(got.finesse),
            splits: self.splits.and(got.splits),
            ..*got
        };
        *self == got
    }
}

/// Most inputs a game records (and a replay holds): hours of the fastest
/// play. Past it a recorder takes no more input, so one game's memory is
/// bounded whatever a client sends.
pub const MAX_RECORDED_INPUTS: usize = 200_000;

/// Why a replay could not be loaded or played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// Not JSON, or not a replay: the parser's message (with line and column).
    Damaged(String),
    /// The file has no format version.
    MissingVersion,
    /// Written by a different format version.
    UnsupportedVersion { found: u64 },
    /// An input (`Some(index)`, counted from 0) or the end (`None`) is later than
    /// [`MAX_GAME_TIME_MS`].
    TimeTooLate { input: Option<usize>, time_ms: u64 },
    /// More inputs than [`MAX_RECORDED_INPUTS`].
    TooManyInputs { count: usize },
    /// Playing the inputs did not give the recorded result (edited or corrupted inputs).
    Diverged,
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::Damaged(message) => write!(f, "the replay file is damaged: {message}"),
            ReplayError::MissingVersion => {
                write!(f, "the file is not a Ludus Tetris replay (no version)")
            }
            ReplayError::UnsupportedVersion { found } => write!(
                f,
                "the replay is format version {found}, this version of Ludus plays version {REPLAY_VERSION}"
            ),
            ReplayError::TimeTooLate { input, time_ms } => {
                match input {
                    Some(index) => write!(f, "input {index} is at {time_ms} ms")?,
                    None => write!(f, "the replay ends at {time_ms} ms")?,
                }
                write!(
                    f,
                    ", past the limit of {MAX_GAME_TIME_MS} ms (24 hours of game time)"
                )
            }
            ReplayError::TooManyInputs { count } => write!(
                f,
                "the replay has {count} inputs, past the limit of {MAX_RECORDED_INPUTS}"
            ),
            ReplayError::Diverged => {
                write!(
                    f,
                    "the replay's inputs do not reproduce its recorded result"
                )
            }
        }
    }
}

impl std::error::Error for ReplayError {}

/// Reads a replay file of format `version`: its `version` field is checked
/// before the rest is read, so another version is named, not called damaged.
pub(crate) fn from_versioned_json<T: serde::de::DeserializeOwned>(
    text: &str,
    version: u32,
) -> Result<T, ReplayError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| ReplayError::Damaged(e.to_string()))?;
    let found = value
        .get("version")
        .and_then(serde_json::Value::as_u64)
        .ok_or(ReplayError::MissingVersion)?;
    if found != u64::from(version) {
        return Err(ReplayError::UnsupportedVersion { found });
    }
    serde_json::from_value(value).map_err(|e| ReplayError::Damaged(e.to_string()))
}

impl Replay {
    /// Pretty JSON for saving.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Reads a replay, refusing other format versions and damaged data with a clear message.
    ///
    /// # Errors
    ///
    /// [`ReplayError::Damaged`], [`ReplayError::MissingVersion`],
    /// [`ReplayError::UnsupportedVersion`], or [`ReplayError::TimeTooLate`] for an input or
    /// end past [`MAX_GAME_TIME_MS`].
    ///
    /// ```
    /// use tetris::{Replay, ReplayError};
    /// assert_eq!(
    ///     Replay::from_json(r#"{"version": 99}"#).unwrap_err().to_string(),
    ///     "the replay is format version 99, this version of Ludus plays version 1"
    /// );
    /// assert!(matches!(Replay::from_json("{ not json"), Err(ReplayError::Damaged(_))));
    /// ```
    pub fn from_json(text: &str) -> Result<Replay, ReplayError> {
        let replay: Replay = from_versioned_json(text, REPLAY_VERSION)?;
        replay.check_times()?;
        Ok(replay)
    }

    /// Refuses times past [`MAX_GAME_TIME_MS`], before any of them is played.
    fn check_times(&self) -> Result<(), ReplayError> {
        if self.inputs.len() > MAX_RECORDED_INPUTS {
            return Err(ReplayError::TooManyInputs {
                count: self.inputs.len(),
            });
        }
        if let Some((index, input)) = self
            .inputs
            .iter()
            .enumerate()
            .find(|(_, input)| input.time_ms > MAX_GAME_TIME_MS)
        {
            return Err(ReplayError::TimeTooLate {
                input: Some(index),
                time_ms: input.time_ms,
            });
        }
        if self.end_ms > MAX_GAME_TIME_MS {
            return Err(ReplayError::TimeTooLate {
                input: None,
                time_ms: self.end_ms,
            });
        }
        Ok(())
    }

    /// Plays the whole replay and checks it reproduces the recorded result.
    ///
    /// # Errors
    ///
    /// [`ReplayError::TimeTooLate`] for a time past [`MAX_GAME_TIME_MS`] (nothing is
    /// played), [`ReplayError::Diverged`] when the result differs.
    pub fn play(&self) -> Result<Game, ReplayError> {
        self.check_times()?;
        let mut playback = Playback::new(self.clone());
        playback.advance_to(self.end_ms);
        let game = playback.game;
        if self.result.matches(&ReplayResult::of(&game)) {
            Ok(game)
        } else {
            Err(ReplayError::Diverged)
        }
    }
}

/// A replay being watched: the game re-run as the watcher's clock moves
/// (the front end decides how fast, and may pause or seek back).
#[derive(Clone, Debug)]
pub struct Playback {
    replay: Replay,
    game: Game,
    next_input: usize,
}

impl Playback {
    pub fn new(replay: Replay) -> Playback {
        let game = Game::new(replay.mode, replay.settings, replay.seed);
        Playback {
            replay,
            game,
            next_input: 0,
        }
    }

    /// Shows the game at replay time `now_ms`: every recorded input up to it
    /// applied and time run to it. A game only runs forward, so a time before
    /// the game's plays again from the start.
    pub fn advance_to(&mut self, now_ms: u64) {
        let now_ms = now_ms.min(self.replay.end_ms);
        if now_ms < self.game.time_ms() {
            self.game = Game::new(self.replay.mode, self.replay.settings, self.replay.seed);
            self.next_input = 0;
        }
        while let Some(&input) = self.replay.inputs.get(self.next_input) {
            if input.time_ms > now_ms {
                break;
            }
            self.game.handle(input);
            self.next_input += 1;
        }
        self.game.advance_to(now_ms);
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn replay(&self) -> &Replay {
        &self.replay
    }

    pub fn is_finished(&self) -> bool {
        self.next_input >= self.replay.inputs.len()
            && self.game.time_ms_ceil() >= self.replay.end_ms
            || !self.game.is_playing()
    }
}

/// A game that records its inputs, for saving a replay when it ends.
///
/// ```
/// use tetris::{Action, InputEvent, Mode, Recorder, Replay, Settings};
/// let mut recorder = Recorder::new(Mode::Sprint, Settings::default(), 11);
/// recorder.update(300, &InputEvent::tap(250, Action::HardDrop));
/// let json = recorder.replay().to_json();
/// let replay = Replay::from_json(&json).unwrap();
/// assert_eq!(&replay.play().unwrap(), recorder.game());
/// ```
#[derive(Clone, Debug)]
pub struct Recorder {
    game: Game,
    inputs: Vec<InputEvent>,
}

impl Recorder {
    pub fn new(mode: Mode, settings: Settings, seed: u64) -> Recorder {
        Recorder {
            game: Game::new(mode, settings, seed),
            inputs: Vec::new(),
        }
    }

    /// Applies an input and records it (inputs after the game ends are dropped). Times that
    /// go backwards are recorded as the current time, as the game treats them.
    /// Plays and records one input; past [`MAX_RECORDED_INPUTS`] inputs are
    /// neither played nor recorded, so the record stays the game's.
    pub fn handle(&mut self, input: InputEvent) {
        if !self.game.is_playing() || self.inputs.len() >= MAX_RECORDED_INPUTS {
            return;
        }
        let input = InputEvent {
            time_ms: input.time_ms.max(self.game.time_ms()),
            ..input
        };
        self.game.handle(input);
        self.inputs.push(input);
    }

    pub fn update(&mut self, now_ms: u64, inputs: &[InputEvent]) {
        for &input in inputs {
            self.handle(input);
        }
        self.advance_to(now_ms);
    }

    pub fn advance_to(&mut self, now_ms: u64) {
        self.game.advance_to(now_ms);
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The replay of everything so far.
    pub fn replay(&self) -> Replay {
        Replay {
            version: REPLAY_VERSION,
            seed: self.game.seed(),
            mode: self.game.mode(),
            settings: *self.game.settings(),
            inputs: self.inputs.clone(),
            end_ms: self.game.time_ms_ceil(),
            result: ReplayResult::of(&self.game),
        }
    }
}
