//! The Tetris session: one player's game, as the terminal's game screen and
//! the browser's socket both drive it. It owns the recorded game (every
//! input kept for the replay), pausing, the keys held, hints and whether
//! they were used, the end of the game and its one recording in the high
//! scores, and the saved replay. Time is passed in as game milliseconds;
//! the session never reads the clock.

mod hint;
mod modes;
pub mod room;
mod stats;
mod tbp_seat;
pub mod versus;

pub use hint::{Hint, HintTracker};
pub use modes::{MODES, mode_title, random_seed};
pub use stats::Stats;

use std::path::Path;

use tetris::{Action, Edge, Game, GameOver, InputEvent, Mode, Recorder, Replay, Status, Summary};

use crate::store::DataDir;
use crate::store::settings::TetrisSettings;
pub use crate::store::tetris::Recorded;
use crate::store::tetris::{self as store};
pub use crate::store::tetris::{
    HighScores, ReplayFile, ScoreEntry, TABLE_SIZE, format_date, list_replays as saved_replays,
    now_secs, read_replay,
};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// A new piece had no room.
    BlockOut,
    /// A piece locked wholly above the visible matrix.
    LockOut,
    /// Rising garbage pushed blocks over the top (versus games).
    TopOut,
    /// The mode's goal: 40 lines, two minutes, Marathon's 150 lines.
    GoalReached,
    /// The player ended it (Zen, which never ends by itself).
    Ended,
}

impl End {
    /// How a game in `status` ended; `ended` says the player (Zen) or the
    /// replay's end stopped a game still playing.
    pub fn of(status: Status, ended: bool) -> Option<End> {
        match status {
            Status::Over(GameOver::BlockOut) => Some(End::BlockOut),
            Status::Over(GameOver::LockOut) => Some(End::LockOut),
            Status::Over(GameOver::TopOut) => Some(End::TopOut),
            Status::Over(GameOver::GoalReached) => Some(End::GoalReached),
            Status::Playing if ended => Some(End::Ended),
            Status::Playing => None,
        }
    }

    /// The name the web protocol uses.
    pub fn name(self) -> &'static str {
        match self {
            End::BlockOut => "block_out",
            End::LockOut => "lock_out",
            End::TopOut => "top_out",
            End::GoalReached => "goal_reached",
            End::Ended => "ended",
        }
    }

    /// The summary's title for a game of `mode` that ended so.
    pub fn title(self, mode: Mode) -> &'static str {
        match (self, mode) {
            (End::GoalReached, Mode::Ultra) => "Time's up",
            (End::GoalReached, Mode::Sprint) => "Sprint complete",
            (End::GoalReached, _) => "Marathon complete",
            (End::BlockOut | End::LockOut | End::TopOut, _) => "Game over",
            (End::Ended, _) => "Game ended",
        }
    }
}

/// A finished game waiting to be written to the high scores (see
/// [`TetrisSession::end_to_record`]); recording it may be done on any thread.
#[derive(Clone, Debug)]
pub struct EndToRecord {
    summary: Summary,
    stats: Stats,
    end: End,
    assisted: bool,
}

/// A finished game and what the high scores made of it.
#[derive(Clone, Debug)]
pub struct GameResult {
    pub summary: Summary,
    /// The figures at the end: keys per piece, finesse, splits.
    pub stats: Stats,
    pub end: End,
    /// Whether the game could enter the table (an unfinished sprint cannot).
    pub qualifies: bool,
    /// The mode's table after the game (with its rank when it entered), or
    /// why it could not be written or read.
    pub recorded: Result<Recorded, String>,
}

impl EndToRecord {
    /// Writes the game to its mode's table when it qualifies (a locked
    /// read-modify-write), or reads the table to show beside it.
    pub fn record(self, data: &DataDir, date: u64) -> GameResult {
        let qualifies = store::qualifies(&self.summary);
        let recorded = if qualifies {
            let entry = ScoreEntry::of(&self.summary, date, self.assisted);
            store::record(data, self.summary.mode, entry)
                .map_err(|e| format!("could not save the high score: {e:#}"))
        } else {
            let (scores, warning) = store::load(data);
            Ok(Recorded {
                rank: None,
                table: scores.table(self.summary.mode).to_vec(),
                warning,
            })
        };
        GameResult {
            summary: self.summary,
            stats: self.stats,
            end: self.end,
            qualifies,
            recorded,
        }
    }
}

/// Why the session did not do what was asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Only Zen is ended by the player; the other modes end by themselves.
    NotZen,
    /// The game is still being played.
    StillPlaying,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Refusal::NotZen => "only Zen is ended by the player; the other modes end by themselves",
            Refusal::StillPlaying => "the game is still running",
        })
    }
}

/// One player's game.
pub struct TetrisSession {
    recorder: Recorder,
    /// What the game was started with: handling, ghost, keys.
    settings: TetrisSettings,
    paused: bool,
    /// Actions whose key is down, let go when the game pauses.
    held: Vec<Action>,
    /// Zen ended by the player.
    ended: bool,
    /// Hints are shown; `hint_used` once they have been in this game.
    hint: bool,
    hint_used: bool,
    hints: HintTracker,
    /// The end, once taken for recording (so it is recorded once).
    end_taken: bool,
    result: Option<GameResult>,
    /// The replay's file name once saved.
    saved_replay: Option<String>,
}

impl TetrisSession {
    /// A new game of `mode` dealt from `seed`, played with the player's
    /// handling settings.
    pub fn new(mode: Mode, seed: u64, settings: &TetrisSettings) -> TetrisSession {
        TetrisSession {
            recorder: Recorder::new(mode, settings.handling, seed),
            settings: settings.clone(),
            paused: false,
            held: Vec::new(),
            ended: false,
            hint: false,
            hint_used: false,
            hints: HintTracker::default(),
            end_taken: false,
            result: None,
            saved_replay: None,
        }
    }

    pub fn game(&self) -> &Game {
        self.recorder.game()
    }

    /// The live figures: PPS, keys per piece, finesse, Sprint splits.
    pub fn stats(&self) -> Stats {
        Stats::of(self.game())
    }

    /// The replay of the game so far.
    pub fn replay(&self) -> Replay {
        self.recorder.replay()
    }

    /// The settings the game was started with (its handling, ghost and keys).
    pub fn settings(&self) -> &TetrisSettings {
        &self.settings
    }

    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// The game is over, or the player ended it.
    pub fn is_finished(&self) -> bool {
        !self.game().is_playing() || self.ended
    }

    /// How the game ended, once it has.
    pub fn end(&self) -> Option<End> {
        End::of(self.game().status(), self.ended)
    }

    /// Plays `events` and lets time run to `now_ms`; nothing happens while
    /// paused or after the end.
    pub fn update(&mut self, now_ms: u64, events: &[InputEvent]) {
        if self.paused || self.is_finished() {
            return;
        }
        for event in events {
            match event.edge {
                Edge::Press if !self.held.contains(&event.action) => self.held.push(event.action),
                Edge::Release => self.held.retain(|&a| a != event.action),
                Edge::Press => {}
            }
        }
        self.recorder.update(now_ms, events);
    }

    /// One key edge at `now_ms`.
    pub fn input(&mut self, action: Action, edge: Edge, now_ms: u64) {
        self.update(
            now_ms,
            &[InputEvent {
                time_ms: now_ms,
                action,
                edge,
            }],
        );
    }

    /// Pauses at `now_ms`, letting go of every held key so that no
    /// auto-shift runs on after the pause.
    pub fn pause(&mut self, now_ms: u64) {
        if self.paused || self.is_finished() {
            return;
        }
        let now_ms = now_ms.max(self.game().time_ms());
        let releases: Vec<InputEvent> = std::mem::take(&mut self.held)
            .into_iter()
            .map(|action| InputEvent::release(now_ms, action))
            .collect();
        self.recorder.update(now_ms, &releases);
        self.paused = true;
    }

    pub fn resume(&mut self) {
        self.paused = false;
    }

    /// Ends a Zen game (it never ends by itself).
    ///
    /// # Errors
    /// [`Refusal::NotZen`] for the other modes.
    pub fn end_zen(&mut self) -> Result<(), Refusal> {
        if self.game().mode() != Mode::Zen {
            return Err(Refusal::NotZen);
        }
        if !self.is_finished() {
            self.ended = true;
            self.paused = false;
        }
        Ok(())
    }

    /// Shows the bot's placement for each piece, or stops; a game played
    /// with hints is marked so in the high scores.
    pub fn set_hint(&mut self, on: bool) {
        if self.is_finished() {
            return;
        }
        self.hint = on;
        self.hint_used |= on;
        if !on {
            self.hints.clear();
        }
    }

    pub fn hint_on(&self) -> bool {
        self.hint
    }

    /// The bot's placement for the piece in play, while hints are on.
    pub fn hint(&mut self) -> Option<Hint> {
        if !self.hint || self.is_finished() {
            return None;
        }
        self.hints.update(self.recorder.game())
    }

    /// The finished game to record, the first time it is asked for after
    /// the end; `None` before the end and ever after.
    pub fn end_to_record(&mut self) -> Option<EndToRecord> {
        let end = self.end()?;
        if self.end_taken {
            return None;
        }
        self.end_taken = true;
        Some(EndToRecord {
            summary: self.game().summary(),
            stats: self.stats(),
            end,
            assisted: self.hint_used,
        })
    }

    /// Keeps what recording the end gave, for the summary and a reload.
    pub fn set_result(&mut self, result: GameResult) {
        self.result = Some(result);
    }

    /// Records the end in the high scores if the game has just finished,
    /// and returns the result the first time.
    pub fn record_end(&mut self, data: &DataDir, date: u64) -> Option<&GameResult> {
        let end = self.end_to_record()?;
        self.result = Some(end.record(data, date));
        self.result.as_ref()
    }

    /// The finished game and its place in the high scores, once recorded.
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// The replay's file name, once saved.
    pub fn saved_replay(&self) -> Option<&str> {
        self.saved_replay.as_deref()
    }

    /// Saves the finished game's replay in `tetris/replays/` (once: asked
    /// again, the same file name) and returns its file name.
    ///
    /// # Errors
    /// [`Refusal::StillPlaying`] before the end; the file could not be
    /// written (the message says why).
    pub fn save_replay(&mut self, data: &DataDir, date: u64) -> Result<String, String> {
        if !self.is_finished() {
            return Err(Refusal::StillPlaying.to_string());
        }
        if let Some(name) = &self.saved_replay {
            return Ok(name.clone());
        }
        let path = store::save_replay(data, &self.replay(), date).map_err(|e| format!("{e:#}"))?;
        let name = file_name(&path);
        self.saved_replay = Some(name.clone());
        Ok(name)
    }
}

/// The high-score tables (a file that cannot be read is moved aside, and
/// the warning says so).
pub fn high_scores(data: &DataDir) -> (HighScores, Option<crate::store::Warning>) {
    store::load(data)
}

/// A saved replay found by its file name among the listed ones (a name
/// never becomes a path by itself).
///
/// # Errors
/// No listed replay has that name, or it cannot be read (the message says why).
pub fn open_replay(data: &DataDir, name: &str) -> Result<Replay, OpenReplayError> {
    let file = saved_replays(data)
        .into_iter()
        .find(|f| file_name(&f.path) == name)
        .ok_or(OpenReplayError::NotFound)?;
    file.replay.map_err(OpenReplayError::Unreadable)
}

/// Why a saved replay could not be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpenReplayError {
    NotFound,
    Unreadable(String),
}

impl std::fmt::Display for OpenReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenReplayError::NotFound => f.write_str("no such replay"),
            OpenReplayError::Unreadable(why) => f.write_str(why),
        }
    }
}

/// A file's name as lists show it.
pub fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> TetrisSettings {
        TetrisSettings::default()
    }

    /// A data dir of its own, removed with the guard.
    fn data_dir() -> (tempfile::TempDir, DataDir) {
        let tmp = tempfile::tempdir().expect("a temp dir");
        let data = DataDir::at(tmp.path());
        (tmp, data)
    }

    /// Hard-drops pieces until the game is over (a top-out).
    fn top_out(session: &mut TetrisSession) -> u64 {
        let mut t = 0;
        while !session.is_finished() && t < 1_000_000 {
            t += 10;
            session.input(Action::HardDrop, Edge::Press, t);
            t += 10;
            session.input(Action::HardDrop, Edge::Release, t);
        }
        t
    }

    #[test]
    fn a_finished_game_is_recorded_once() {
        let (_tmp, data) = data_dir();
        let mut session = TetrisSession::new(Mode::Marathon { endless: false }, 3, &settings());
        assert!(session.record_end(&data, 100).is_none());
        top_out(&mut session);
        assert!(matches!(session.end(), Some(End::BlockOut | End::LockOut)));
        let result = session.record_end(&data, 100).expect("recorded");
        let recorded = result.recorded.as_ref().expect("written");
        assert_eq!(recorded.rank, Some(0));
        assert_eq!(recorded.table.len(), 1);
        // Asked again (a second tick, a reload): nothing more is written.
        assert!(session.record_end(&data, 101).is_none());
        let (scores, _) = high_scores(&data);
        assert_eq!(scores.table(Mode::Marathon { endless: false }).len(), 1);
        assert!(session.result().is_some());
    }

    #[test]
    fn pausing_stops_the_game_clock_and_lets_go_of_held_keys() {
        let mut session = TetrisSession::new(Mode::Sprint, 7, &settings());
        session.input(Action::Left, Edge::Press, 10);
        session.pause(30);
        assert!(session.is_paused());
        session.update(5_000, &[]);
        assert_eq!(session.game().time_ms(), 30);
        session.resume();
        let replay = session.replay();
        let released = replay
            .inputs
            .iter()
            .any(|i| i.action == Action::Left && i.edge == Edge::Release && i.time_ms == 30);
        assert!(released, "{:?}", replay.inputs);
    }

    #[test]
    fn the_recorded_replay_plays_to_the_same_end() {
        let mut session = TetrisSession::new(Mode::Ultra, 11, &settings());
        top_out(&mut session);
        let replayed = session.replay().play().expect("a valid replay");
        assert_eq!(replayed.summary().score, session.game().summary().score);
        assert_eq!(replayed.pieces(), session.game().pieces());
    }

    #[test]
    fn only_zen_is_ended_by_the_player_and_hints_mark_the_score() {
        let (_tmp, data) = data_dir();
        let mut sprint = TetrisSession::new(Mode::Sprint, 1, &settings());
        assert_eq!(sprint.end_zen(), Err(Refusal::NotZen));
        assert!(sprint.save_replay(&data, 5).is_err());
        let mut zen = TetrisSession::new(Mode::Zen, 1, &settings());
        zen.set_hint(true);
        assert!(zen.hint().is_some());
        zen.set_hint(false);
        zen.input(Action::HardDrop, Edge::Press, 10);
        assert_eq!(zen.end_zen(), Ok(()));
        assert_eq!(zen.end(), Some(End::Ended));
        let result = zen.record_end(&data, 5).expect("recorded");
        let entry = &result.recorded.as_ref().expect("written").table[0];
        assert!(entry.assisted);
        // The replay is saved once: the same name again.
        let name = zen.save_replay(&data, 5).expect("saved");
        assert_eq!(zen.save_replay(&data, 6), Ok(name.clone()));
        assert!(open_replay(&data, &name).is_ok());
        assert_eq!(
            open_replay(&data, "nope.json"),
            Err(OpenReplayError::NotFound)
        );
    }
}
