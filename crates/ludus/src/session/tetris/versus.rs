//! The versus session: a versus game ([`tetris::versus`]) in which each side is a
//! person or Ludus's bot, as the terminal (and later the browser) drives it. It owns the
//! recorded game (both sides' inputs, for the replay), the bots and their pace, pausing,
//! the person's held keys, the outcome and per-side statistics, and the saved replay.
//! Time is passed in as game milliseconds; the session never reads the clock (a front
//! end stops its clock while paused, as for solo games).
//!
//! **Bot pace.** A bot plays one piece every `1000 / PPS` milliseconds of game time: at
//! each due time it plans the piece in play with [`Bot::suggest`] and plays the plan's
//! inputs as taps at that millisecond (its handling uses instant soft drop, so the taps
//! reach the planned spot). [`BotLevel::Unlimited`] plays a piece every
//! [`UNLIMITED_GAP_MS`] milliseconds, the fastest the session goes.
//!
//! **Styles.** A bot on [`Player::One`] plays for attack ([`Weights::attack`]) and one on
//! [`Player::Two`] for survival ([`Weights::default`]): both sides are dealt the same
//! pieces, so two identical bots would mirror each other to a draw. The bot has no
//! look-ahead setting (it always weighs the next piece), so levels differ by pace only.

use std::fmt;

use tetris::bot::{Bot, Weights};
use tetris::versus::{
    MAX_VERSUS_INPUTS, Outcome, Player, PlayerStats, Versus, VersusRecorder, VersusReplay,
    VersusSettings,
};
use tetris::{Action, Edge, Game, InputEvent, MAX_GAME_TIME_MS, Settings, SoftDrop};

use crate::store::DataDir;
use crate::store::tetris as store;

/// How fast the bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BotLevel {
    /// 0.5 pieces per second.
    Easy,
    /// 1 piece per second.
    Medium,
    /// 2 pieces per second.
    Hard,
    /// 3 pieces per second.
    Expert,
    /// As fast as the session goes: a piece every [`UNLIMITED_GAP_MS`].
    Unlimited,
}

/// The unlimited bot's gap between pieces (100 pieces per second at most).
pub const UNLIMITED_GAP_MS: u64 = 10;

impl BotLevel {
    /// Every level, slowest first.
    pub const ALL: [BotLevel; 5] = [
        BotLevel::Easy,
        BotLevel::Medium,
        BotLevel::Hard,
        BotLevel::Expert,
        BotLevel::Unlimited,
    ];

    /// The level's name, as the CLI takes it and menus show it.
    pub fn name(self) -> &'static str {
        match self {
            BotLevel::Easy => "easy",
            BotLevel::Medium => "medium",
            BotLevel::Hard => "hard",
            BotLevel::Expert => "expert",
            BotLevel::Unlimited => "unlimited",
        }
    }

    /// A level by its name (any case).
    pub fn from_name(name: &str) -> Option<BotLevel> {
        BotLevel::ALL
            .into_iter()
            .find(|level| level.name().eq_ignore_ascii_case(name))
    }

    /// Pieces per second, `None` for unlimited.
    pub fn pieces_per_second(self) -> Option<f64> {
        match self {
            BotLevel::Easy => Some(0.5),
            BotLevel::Medium => Some(1.0),
            BotLevel::Hard => Some(2.0),
            BotLevel::Expert => Some(3.0),
            BotLevel::Unlimited => None,
        }
    }

    /// The pace this level plays at.
    pub fn pace(self) -> Pace {
        match self.pieces_per_second() {
            Some(pps) => Pace::per_second(pps),
            None => Pace {
                gap_ms: UNLIMITED_GAP_MS,
            },
        }
    }

    /// "Easy (0.5 PPS)", for menus.
    pub fn label(self) -> String {
        let mut name = self.name().to_owned();
        if let Some(first) = name.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        match self.pieces_per_second() {
            Some(pps) => format!("{name} ({pps} PPS)"),
            None => name,
        }
    }
}

impl fmt::Display for BotLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A bot's gap between pieces, in game milliseconds (at least 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pace {
    gap_ms: u64,
}

impl Pace {
    /// A piece every `1000 / pps` ms, clamped to between [`UNLIMITED_GAP_MS`] and a
    /// minute (non-finite or non-positive rates are the slowest).
    pub fn per_second(pps: f64) -> Pace {
        let gap = if pps.is_finite() && pps > 0.0 {
            (1000.0 / pps).round()
        } else {
            60_000.0
        };
        Pace {
            gap_ms: (gap.clamp(UNLIMITED_GAP_MS as f64, 60_000.0)) as u64,
        }
    }

    /// The gap between pieces.
    pub fn gap_ms(self) -> u64 {
        self.gap_ms
    }
}

/// Room kept below [`MAX_VERSUS_INPUTS`]: the game stops (with no winner) before the
/// recorder would refuse a bot's plan half-way.
const INPUT_MARGIN: usize = 1_024;

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Side {
    /// Keys from a front end.
    Person,
    /// Ludus's bot at this pace.
    Bot(Pace),
}

/// A bot playing one side, and when its next piece is due.
struct SideBot {
    bot: Bot,
    pace: Pace,
    due_ms: u64,
}

/// One side's figures for the live panel and the result screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SideStats {
    /// The core's figures (pieces, lines, garbage, APP, PPS).
    pub core: PlayerStats,
    /// Attack per minute of game time; 0 at time 0.
    pub attack_per_minute: f64,
    /// Keys per piece and finesse, as in a game played alone.
    pub live: super::Stats,
}

/// A versus game between two sides.
pub struct VersusSession {
    recorder: VersusRecorder,
    sides: [Side; 2],
    bots: [Option<SideBot>; 2],
    paused: bool,
    /// The person's keys that are down, let go when the game pauses.
    held: Vec<(Player, Action)>,
    /// Stop after this many pieces on either side (headless runs), `None` for no limit.
    piece_limit: Option<u64>,
    /// Inputs handed to the recorder.
    inputs: usize,
    saved_replay: Option<String>,
}

impl VersusSession {
    /// A new versus game dealt from `seed`. `handling` is the person's handling (used for
    /// any [`Side::Person`]); bots play with instant soft drop.
    pub fn new(sides: [Side; 2], handling: Settings, seed: u64) -> VersusSession {
        let bot_handling = Settings {
            soft_drop: SoftDrop::Instant,
            ..Settings::default()
        };
        let settings = VersusSettings {
            handling: sides.map(|side| match side {
                Side::Person => handling,
                Side::Bot(_) => bot_handling,
            }),
            ..VersusSettings::default()
        };
        let bots = [Player::One, Player::Two].map(|player| match sides[player.index()] {
            Side::Person => None,
            Side::Bot(pace) => Some(SideBot {
                bot: Bot::with_weights(match player {
                    Player::One => Weights::attack(),
                    Player::Two => Weights::default(),
                }),
                pace,
                due_ms: pace.gap_ms,
            }),
        });
        VersusSession {
            recorder: VersusRecorder::new(settings, seed),
            sides,
            bots,
            paused: false,
            held: Vec::new(),
            piece_limit: None,
            inputs: 0,
            saved_replay: None,
        }
    }

    /// The person (player one) against the bot at `level` (player two).
    pub fn against_bot(level: BotLevel, handling: Settings, seed: u64) -> VersusSession {
        VersusSession::new([Side::Person, Side::Bot(level.pace())], handling, seed)
    }

    /// Ends the game (with no winner) once either side has locked `pieces` pieces.
    pub fn with_piece_limit(mut self, pieces: u64) -> VersusSession {
        self.piece_limit = Some(pieces);
        self
    }

    /// The game being played.
    pub fn versus(&self) -> &Versus {
        self.recorder.versus()
    }

    /// A player's game, to draw.
    pub fn game(&self, player: Player) -> &Game {
        self.versus().game(player)
    }

    /// Who plays each side.
    pub fn sides(&self) -> [Side; 2] {
        self.sides
    }

    /// The shared clock, in game milliseconds.
    pub fn time_ms(&self) -> u64 {
        self.versus().time_ms()
    }

    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// Someone lost, or the piece limit, the longest game time or the replay's input
    /// limit was reached.
    pub fn is_finished(&self) -> bool {
        !self.versus().is_playing() || self.limit_reached()
    }

    fn limit_reached(&self) -> bool {
        let pieces = Player::BOTH.map(|p| self.game(p).pieces());
        self.piece_limit
            .is_some_and(|limit| pieces.iter().any(|&n| n >= limit))
            || self.time_ms() >= MAX_GAME_TIME_MS
            || self.inputs.saturating_add(INPUT_MARGIN) >= MAX_VERSUS_INPUTS
    }

    fn record(&mut self, player: Player, input: InputEvent) {
        self.inputs += 1;
        self.recorder.handle(player, input);
    }

    /// The winner or a draw, once someone has topped out; `None` while playing and for a
    /// game stopped by the piece limit.
    pub fn outcome(&self) -> Option<Outcome> {
        self.versus().outcome()
    }

    /// A side's figures so far.
    pub fn stats(&self, player: Player) -> SideStats {
        let core = self.versus().stats(player);
        let minutes = self.time_ms() as f64 / 60_000.0;
        SideStats {
            core,
            attack_per_minute: if minutes > 0.0 {
                f64::from(core.garbage.attack) / minutes
            } else {
                0.0
            },
            live: super::Stats::of(self.versus().game(player)),
        }
    }

    /// The replay of the game so far.
    pub fn replay(&self) -> VersusReplay {
        self.recorder.replay()
    }

    /// Plays the person's key edges (each at its own time) and the bots' pieces due by
    /// `now_ms`, in time order, then runs both games to `now_ms`. Nothing happens while
    /// paused or after the end; inputs for a bot's side are ignored.
    pub fn update(&mut self, now_ms: u64, person: &[(Player, InputEvent)]) {
        if self.paused {
            return;
        }
        let now_ms = now_ms.min(MAX_GAME_TIME_MS);
        let sides = self.sides;
        let mut inputs = person
            .iter()
            .filter(|(player, _)| sides[player.index()] == Side::Person)
            .peekable();
        loop {
            if self.is_finished() {
                return;
            }
            let bot_due = self.next_bot_due().filter(|&(_, due)| due <= now_ms);
            let next_input = inputs.peek().map(|(_, input)| input.time_ms);
            match (bot_due, next_input) {
                (Some((player, due)), input_ms) if input_ms.is_none_or(|t| due < t) => {
                    self.play_bot(player, due);
                }
                (_, Some(_)) => {
                    if let Some(&(player, input)) = inputs.next() {
                        self.play_person(player, input);
                    }
                }
                (_, None) => break,
            }
        }
        if !self.is_finished() {
            self.recorder.advance_to(now_ms);
        }
    }

    /// One key edge of the person playing `player`, at `now_ms`.
    pub fn input(&mut self, player: Player, action: Action, edge: Edge, now_ms: u64) {
        let event = InputEvent {
            time_ms: now_ms,
            action,
            edge,
        };
        self.update(now_ms, &[(player, event)]);
    }

    fn play_person(&mut self, player: Player, input: InputEvent) {
        match input.edge {
            Edge::Press if !self.held.contains(&(player, input.action)) => {
                self.held.push((player, input.action));
            }
            Edge::Release => self.held.retain(|&h| h != (player, input.action)),
            Edge::Press => {}
        }
        self.record(player, input);
    }

    /// The bot whose piece is due first (player one first on a tie).
    fn next_bot_due(&self) -> Option<(Player, u64)> {
        Player::BOTH
            .into_iter()
            .filter_map(|p| self.bots[p.index()].as_ref().map(|b| (p, b.due_ms)))
            .min_by_key(|&(player, due)| (due, player))
    }

    fn play_bot(&mut self, player: Player, due_ms: u64) {
        self.recorder.advance_to(due_ms);
        let Some(side) = self.bots[player.index()].as_mut() else {
            return;
        };
        side.due_ms = due_ms.saturating_add(side.pace.gap_ms);
        if !self.recorder.versus().is_playing() {
            return;
        }
        let time_ms = self.recorder.versus().time_ms().max(due_ms);
        let plan = side.bot.suggest(self.recorder.versus().game(player));
        for input in plan.map(|p| p.input_events(time_ms)).unwrap_or_default() {
            self.record(player, input);
        }
    }

    /// Pauses at `now_ms`, letting go of the person's held keys so that no auto-shift
    /// runs on after the pause.
    pub fn pause(&mut self, now_ms: u64) {
        if self.paused || self.is_finished() {
            return;
        }
        let now_ms = now_ms.max(self.time_ms());
        for (player, action) in std::mem::take(&mut self.held) {
            self.record(player, InputEvent::release(now_ms, action));
        }
        self.paused = true;
    }

    pub fn resume(&mut self) {
        self.paused = false;
    }

    /// The replay's file name, once saved.
    pub fn saved_replay(&self) -> Option<&str> {
        self.saved_replay.as_deref()
    }

    /// Saves the finished game's replay in `tetris/versus/` (once: asked again, the same
    /// file name) and returns its file name.
    ///
    /// # Errors
    /// The game is still on; the file could not be written (the message says why).
    pub fn save_replay(&mut self, data: &DataDir, date: u64) -> Result<String, String> {
        if !self.is_finished() {
            return Err(super::Refusal::StillPlaying.to_string());
        }
        if let Some(name) = &self.saved_replay {
            return Ok(name.clone());
        }
        let path =
            store::save_versus_replay(data, &self.replay(), date).map_err(|e| format!("{e:#}"))?;
        let name = super::file_name(&path);
        self.saved_replay = Some(name.clone());
        Ok(name)
    }
}

/// Reads a saved versus replay and plays it back to its recorded result.
///
/// # Errors
/// The file cannot be read, is damaged, or no longer gives its result.
pub fn read_versus_replay(path: &std::path::Path) -> anyhow::Result<VersusReplay> {
    store::read_versus_replay(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bots(one: BotLevel, two: BotLevel, seed: u64) -> VersusSession {
        VersusSession::new(
            [Side::Bot(one.pace()), Side::Bot(two.pace())],
            Settings::default(),
            seed,
        )
    }

    #[test]
    fn levels_have_names_and_paces() {
        for level in BotLevel::ALL {
            assert_eq!(BotLevel::from_name(level.name()), Some(level));
        }
        assert_eq!(BotLevel::from_name("HARD"), Some(BotLevel::Hard));
        assert_eq!(BotLevel::from_name("godlike"), None);
        assert_eq!(BotLevel::Easy.pace().gap_ms(), 2000);
        assert_eq!(BotLevel::Expert.pace().gap_ms(), 333);
        assert_eq!(BotLevel::Unlimited.pace().gap_ms(), UNLIMITED_GAP_MS);
        assert_eq!(Pace::per_second(f64::NAN).gap_ms(), 60_000);
        assert_eq!(Pace::per_second(1e9).gap_ms(), UNLIMITED_GAP_MS);
        assert_eq!(BotLevel::Easy.label(), "Easy (0.5 PPS)");
    }

    #[test]
    fn the_bot_keeps_its_pace() {
        let mut session = VersusSession::against_bot(BotLevel::Hard, Settings::default(), 3);
        // Frames of 16 ms for ten seconds: two pieces a second, whatever the frame rate.
        let mut now = 0;
        while now < 10_000 {
            now += 16;
            session.update(now, &[]);
        }
        assert_eq!(session.game(Player::Two).pieces(), 20);
        assert_eq!(session.game(Player::One).pieces(), 0);
        let mut easy = VersusSession::against_bot(BotLevel::Easy, Settings::default(), 3);
        easy.update(10_000, &[]);
        assert_eq!(easy.game(Player::Two).pieces(), 5);
    }

    #[test]
    fn a_person_plays_their_keys_and_pause_stops_the_game() {
        let mut session = VersusSession::against_bot(BotLevel::Medium, Settings::default(), 8);
        session.input(Player::One, Action::HardDrop, Edge::Press, 500);
        session.input(Player::One, Action::Left, Edge::Press, 600);
        // The bot's side takes no keys.
        session.input(Player::Two, Action::HardDrop, Edge::Press, 700);
        assert_eq!(session.game(Player::One).pieces(), 1);
        session.pause(800);
        assert!(session.is_paused());
        session.update(5_000, &[]);
        assert_eq!(session.time_ms(), 800);
        assert_eq!(session.game(Player::Two).pieces(), 0);
        session.resume();
        session.update(1_000, &[]);
        assert_eq!(session.game(Player::Two).pieces(), 1);
        let replay = session.replay();
        let releases = replay
            .inputs
            .iter()
            .filter(|i| i.player == Player::One && i.input.edge == Edge::Release)
            .count();
        assert_eq!(releases, 2, "pause lets go of both held keys");
    }

    #[test]
    fn bots_reach_an_outcome_and_the_saved_replay_replays_identically() {
        // The fast attacker buries the slow defender.
        let mut session = bots(BotLevel::Unlimited, BotLevel::Hard, 11);
        let mut now = 0;
        while !session.is_finished() {
            now += 1_000;
            session.update(now, &[]);
            assert!(now < 3_600_000, "no outcome in an hour");
        }
        let outcome = session.outcome();
        assert_eq!(outcome, Some(Outcome::Winner(Player::One)));
        let one = session.stats(Player::One);
        assert!(one.core.pieces > 0);
        assert!(one.attack_per_minute >= 0.0);
        // The live block counts keys and finesse as a game alone does, and has APM.
        assert!(one.live.keys_per_piece >= 1.0, "{:?}", one.live);
        assert!(one.live.attack_per_minute.is_some());
        assert!((0.0..=100.0).contains(&one.live.finesse_rate));

        let dir = tempfile::tempdir().unwrap();
        let data = DataDir::at(dir.path());
        let name = session.save_replay(&data, 1_700_000_000).unwrap();
        assert_eq!(session.save_replay(&data, 1).unwrap(), name);
        let path = data.tetris_versus_replays().join(&name);
        let replay = read_versus_replay(&path).unwrap();
        assert_eq!(&replay.play().unwrap(), session.versus());
        assert_eq!(replay.result.outcome, outcome);
    }

    #[test]
    fn the_same_seed_gives_the_same_game_whatever_the_frames() {
        let mut coarse = bots(BotLevel::Expert, BotLevel::Hard, 4);
        coarse.update(30_000, &[]);
        let mut fine = bots(BotLevel::Expert, BotLevel::Hard, 4);
        for now in (0..=30_000).step_by(17) {
            fine.update(now, &[]);
        }
        fine.update(30_000, &[]);
        assert_eq!(coarse.versus(), fine.versus());
    }

    #[test]
    fn a_piece_limit_ends_the_game_without_a_winner() {
        let mut session = bots(BotLevel::Hard, BotLevel::Hard, 2).with_piece_limit(10);
        session.update(60_000, &[]);
        assert!(session.is_finished());
        assert_eq!(session.outcome(), None);
        assert_eq!(session.game(Player::One).pieces(), 10);
        let dir = tempfile::tempdir().unwrap();
        assert!(session.save_replay(&DataDir::at(dir.path()), 0).is_ok());
    }

    #[test]
    fn saving_before_the_end_is_refused() {
        let mut session = VersusSession::against_bot(BotLevel::Easy, Settings::default(), 1);
        let dir = tempfile::tempdir().unwrap();
        assert!(session.save_replay(&DataDir::at(dir.path()), 0).is_err());
    }
}
