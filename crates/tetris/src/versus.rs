//! Versus: two games side by side, each lock's attack sent to the other as garbage, the
//! last player standing the winner. Pure and deterministic like [`Game`]: time and inputs
//! are arguments, the generators live in the state, and a [`VersusReplay`] (the seed, the
//! settings and both players' timed inputs) plays back to the identical result.
//!
//! - **Pieces**: both games are seeded with the same seed, so each player's own bag deals
//!   the same sequence.
//! - **Garbage holes**: each player's hole generator ([`crate::garbage::Holes`]) is seeded
//!   with `seed ^` [`GARBAGE_SEED_SALT`], separate from the bags and the same for both
//!   players, so the same attacks bring the same holes.
//! - **Gravity**: each board plays [`VERSUS_MODE`] (endless Marathon: level 1 plus one per
//!   10 lines the player cleared, no goal and no time limit).
//! - **Time**: both games share one clock. [`Versus::advance_to`] steps both games from
//!   lock to lock (in game milliseconds) and hands each step's attacks to the opponent
//!   before the next step, so a lock sees every attack sent before its millisecond.
//! - **End**: a player who tops out (block out, lock out, or garbage pushing blocks over
//!   the top) loses when that millisecond of game time is over: the other player's inputs
//!   at the same millisecond are still played, and when both top out within one
//!   millisecond the game is a draw. The outcome is settled as the clock passes that
//!   millisecond, so [`Versus::time_ms`] ends one past it.
#![warn(missing_docs)]

use serde::{Deserialize, Serialize};

use crate::game::{Game, InputEvent, MAX_GAME_TIME_MS};
use crate::garbage::{GarbageRules, GarbageTotals, Meter};
use crate::mode::Mode;
use crate::replay::{MAX_RECORDED_INPUTS, ReplayError, from_versioned_json};
use crate::settings::Settings;

/// The mode each board of a versus game plays.
pub const VERSUS_MODE: Mode = Mode::Marathon { endless: true };
/// Mixed into the seed for the garbage-hole generators ("garbage!" in ASCII), so holes do
/// not follow the bag's draws.
pub const GARBAGE_SEED_SALT: u64 = 0x6761_7262_6167_6521;
/// The versus replay format this build writes and reads.
pub const VERSUS_REPLAY_VERSION: u32 = 1;
/// Most inputs a versus replay holds: a single game's limit for each player.
pub const MAX_VERSUS_INPUTS: usize = 2 * MAX_RECORDED_INPUTS;

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Player {
    /// The first player (drawn on the left).
    One,
    /// The second player (drawn on the right; the bot, when playing one).
    Two,
}

impl Player {
    /// Both players, in order.
    pub const BOTH: [Player; 2] = [Player::One, Player::Two];

    /// 0 for [`Player::One`], 1 for [`Player::Two`].
    pub fn index(self) -> usize {
        match self {
            Player::One => 0,
            Player::Two => 1,
        }
    }

    /// The other player.
    pub fn opponent(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }
}

/// How a versus game is played: each player's handling, and the garbage rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct VersusSettings {
    /// DAS, ARR, soft drop and preview of [`Player::One`] and [`Player::Two`].
    pub handling: [Settings; 2],
    /// Garbage delay and messiness, the same for both.
    pub garbage: GarbageRules,
}

/// How a versus game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The other player topped out.
    Winner(Player),
    /// Both topped out in the same step.
    Draw,
}

/// One player's figures, for the result screen and `--games N` tables.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerStats {
    /// Pieces locked.
    pub pieces: u64,
    /// Lines cleared.
    pub lines: u32,
    /// Attack, cancelling, sending and garbage received and risen.
    pub garbage: GarbageTotals,
    /// Attack (before cancelling) per piece locked; 0 before the first piece.
    pub attack_per_piece: f64,
    /// Pieces per second of game time; 0 at time 0.
    pub pieces_per_second: f64,
}

/// A versus game in progress (or over): two [`Game`]s and their shared clock.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Versus {
    seed: u64,
    settings: VersusSettings,
    games: [Game; 2],
    now_ms: u64,
    /// The millisecond in which the first player topped out, until the outcome is settled.
    top_out_ms: Option<u64>,
    outcome: Option<Outcome>,
}

impl Versus {
    /// A new versus game at time 0 (see the module documentation for the seeding).
    ///
    /// ```
    /// use tetris::versus::{Player, Versus, VersusSettings};
    /// let versus = Versus::new(VersusSettings::default(), 9);
    /// let one = versus.game(Player::One);
    /// let two = versus.game(Player::Two);
    /// assert_eq!(one.active().map(|p| p.kind), two.active().map(|p| p.kind));
    /// assert_eq!(one.next_queue(), two.next_queue());
    /// assert_eq!(versus.outcome(), None);
    /// ```
    pub fn new(settings: VersusSettings, seed: u64) -> Versus {
        let game = |player: Player| {
            Game::new(VERSUS_MODE, settings.handling[player.index()], seed)
                .with_garbage(settings.garbage, seed ^ GARBAGE_SEED_SALT)
        };
        Versus {
            seed,
            settings,
            games: [game(Player::One), game(Player::Two)],
            now_ms: 0,
            top_out_ms: None,
            outcome: None,
        }
    }

    /// The shared seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The settings the game was made with.
    pub fn settings(&self) -> &VersusSettings {
        &self.settings
    }

    /// A player's game, to draw (matrix, piece, hold, queue, …).
    pub fn game(&self, player: Player) -> &Game {
        &self.games[player.index()]
    }

    /// The shared clock, in game milliseconds (frozen when the game ends).
    pub fn time_ms(&self) -> u64 {
        self.now_ms
    }

    /// `None` until the millisecond in which someone topped out is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game is still on (a player who topped out this millisecond has not
    /// lost yet: see the module documentation).
    pub fn is_playing(&self) -> bool {
        self.outcome.is_none()
    }

    /// A player's incoming-garbage meter.
    pub fn meter(&self, player: Player) -> Meter {
        self.game(player).garbage_meter().unwrap_or_default()
    }

    /// A player's statistics so far.
    pub fn stats(&self, player: Player) -> PlayerStats {
        let game = self.game(player);
        let garbage = game.garbage().map(|g| g.totals()).unwrap_or_default();
        let pieces = game.pieces();
        PlayerStats {
            pieces,
            lines: game.lines(),
            garbage,
            attack_per_piece: if pieces > 0 {
                f64::from(garbage.attack) / pieces as f64
            } else {
                0.0
            },
            pieces_per_second: game.summary().pieces_per_second,
        }
    }

    /// When either game next changes by itself, for a front end to sleep until then.
    pub fn next_event_ms(&self) -> Option<u64> {
        if !self.is_playing() {
            return None;
        }
        if let Some(at_ms) = self.top_out_ms {
            return Some(at_ms.saturating_add(1));
        }
        self.games.iter().filter_map(Game::next_event_ms).min()
    }

    /// Applies one player's input at its time (an earlier time than the clock counts as
    /// now): both games first run to that time, then the input is played and its attack
    /// sent. Nothing happens once the game is over.
    pub fn handle(&mut self, player: Player, input: InputEvent) {
        let time_ms = input.time_ms.max(self.now_ms);
        self.advance_to(time_ms);
        if !self.is_playing() {
            return;
        }
        self.games[player.index()].handle(InputEvent { time_ms, ..input });
        self.exchange_and_judge();
    }

    /// Applies `inputs` in order, then runs both games to `now_ms`.
    pub fn update(&mut self, now_ms: u64, inputs: &[VersusInput]) {
        for input in inputs {
            self.handle(input.player, input.input);
        }
        self.advance_to(now_ms);
    }

    /// Runs both games to `now_ms`, exchanging garbage after every millisecond in which a
    /// piece locks.
    ///
    /// Garbage only moves when a piece locks (an attack is sent, incoming lines are
    /// cancelled or rise), and a game only tops out by itself at a lock, so stepping both
    /// games from one lock's millisecond to the next gives the same game as stepping them
    /// through every event, while each game still skips its idle timers in between.
    pub fn advance_to(&mut self, now_ms: u64) {
        while self.is_playing() {
            let next_lock = self
                .games
                .iter()
                .filter_map(|game| game.next_lock_ms(now_ms))
                .min();
            match next_lock {
                // Each step moves the clock on, so the loop ends.
                Some(at_ms) if at_ms < now_ms && at_ms > self.now_ms => self.step_to(at_ms),
                _ => break,
            }
        }
        self.step_to(now_ms);
    }

    /// [`Versus::advance_to`] through every event of either game (the reference the
    /// lock-to-lock stepping is tested against).
    #[cfg(test)]
    fn advance_event_by_event(&mut self, now_ms: u64) {
        while self.is_playing() {
            match self.next_event_ms() {
                // An event due within the current millisecond is stepped to in
                // the next one, not taken for the end of the events.
                Some(at_ms) if at_ms.max(self.now_ms + 1) < now_ms => {
                    self.step_to(at_ms.max(self.now_ms + 1));
                }
                _ => break,
            }
        }
        self.step_to(now_ms);
    }

    fn step_to(&mut self, at_ms: u64) {
        if !self.is_playing() {
            return;
        }
        if let Some(top_out_ms) = self.top_out_ms.filter(|&t| at_ms > t) {
            self.settle(top_out_ms);
            return;
        }
        self.now_ms = self.now_ms.max(at_ms);
        for game in &mut self.games {
            game.advance_to(self.now_ms);
        }
        self.exchange_and_judge();
    }

    /// Hands each game's sent garbage to the other, and notes a first top-out.
    fn exchange_and_judge(&mut self) {
        for player in Player::BOTH {
            let sent = self.games[player.index()].take_sent_garbage();
            let opponent = &mut self.games[player.opponent().index()];
            for (sent_ms, lines) in sent {
                opponent.receive_garbage(lines, sent_ms);
            }
        }
        if self.top_out_ms.is_none() && self.games.iter().any(|g| !g.is_playing()) {
            self.top_out_ms = Some(self.now_ms);
        }
    }

    /// Ends the game at the close of the millisecond `top_out_ms`.
    fn settle(&mut self, top_out_ms: u64) {
        self.now_ms = top_out_ms.saturating_add(1);
        let out = self.games.each_ref().map(|g| !g.is_playing());
        self.outcome = match out {
            [false, false] => None,
            [true, false] => Some(Outcome::Winner(Player::Two)),
            [false, true] => Some(Outcome::Winner(Player::One)),
            [true, true] => Some(Outcome::Draw),
        };
    }
}

/// One player's input in a versus game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct VersusInput {
    /// Whose input.
    pub player: Player,
    /// The key press or release and its time.
    pub input: InputEvent,
}

/// The outcome stored with a versus replay and checked when it is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersusResult {
    /// `None` when the recording stopped before anyone topped out.
    pub outcome: Option<Outcome>,
    /// Pieces locked by each player.
    pub pieces: [u64; 2],
    /// Each player's garbage totals.
    pub garbage: [GarbageTotals; 2],
}

impl VersusResult {
    /// The result of `versus` as it stands.
    pub fn of(versus: &Versus) -> VersusResult {
        VersusResult {
            outcome: versus.outcome(),
            pieces: Player::BOTH.map(|p| versus.game(p).pieces()),
            garbage: Player::BOTH.map(|p| versus.stats(p).garbage),
        }
    }
}

/// Everything needed to play a versus game again exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VersusReplay {
    /// [`VERSUS_REPLAY_VERSION`].
    pub version: u32,
    /// The shared seed.
    pub seed: u64,
    /// Handling and garbage rules.
    pub settings: VersusSettings,
    /// Both players' inputs, in the order they were played.
    pub inputs: Vec<VersusInput>,
    /// Game time at which the recording ended.
    pub end_ms: u64,
    /// The recorded result.
    pub result: VersusResult,
}

impl VersusReplay {
    /// Pretty JSON for saving.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Reads a versus replay, refusing other format versions and damaged data.
    ///
    /// # Errors
    ///
    /// [`ReplayError::Damaged`], [`ReplayError::MissingVersion`],
    /// [`ReplayError::UnsupportedVersion`], [`ReplayError::TooManyInputs`] past
    /// [`MAX_VERSUS_INPUTS`], or [`ReplayError::TimeTooLate`] for an input or end past
    /// [`MAX_GAME_TIME_MS`].
    ///
    /// ```
    /// use tetris::versus::VersusReplay;
    /// use tetris::ReplayError;
    /// assert_eq!(
    ///     VersusReplay::from_json(r#"{"version": 7}"#),
    ///     Err(ReplayError::UnsupportedVersion { found: 7 })
    /// );
    /// ```
    pub fn from_json(text: &str) -> Result<VersusReplay, ReplayError> {
        let replay: VersusReplay = from_versioned_json(text, VERSUS_REPLAY_VERSION)?;
        replay.check_bounds()?;
        Ok(replay)
    }

    fn check_bounds(&self) -> Result<(), ReplayError> {
        if self.inputs.len() > MAX_VERSUS_INPUTS {
            return Err(ReplayError::TooManyInputs {
                count: self.inputs.len(),
            });
        }
        if let Some((index, input)) = self
            .inputs
            .iter()
            .enumerate()
            .find(|(_, i)| i.input.time_ms > MAX_GAME_TIME_MS)
        {
            return Err(ReplayError::TimeTooLate {
                input: Some(index),
                time_ms: input.input.time_ms,
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
    /// As [`VersusReplay::from_json`] for out-of-bounds inputs (nothing is played), and
    /// [`ReplayError::Diverged`] when the result differs.
    pub fn play(&self) -> Result<Versus, ReplayError> {
        self.check_bounds()?;
        let mut versus = Versus::new(self.settings, self.seed);
        versus.update(self.end_ms, &self.inputs);
        if VersusResult::of(&versus) == self.result {
            Ok(versus)
        } else {
            Err(ReplayError::Diverged)
        }
    }
}

/// A versus game that records both players' inputs, for a [`VersusReplay`].
///
/// ```
/// use tetris::versus::{Player, VersusRecorder, VersusReplay, VersusSettings};
/// use tetris::{Action, InputEvent};
/// let mut recorder = VersusRecorder::new(VersusSettings::default(), 4);
/// recorder.handle(Player::One, InputEvent::press(100, Action::HardDrop));
/// recorder.handle(Player::Two, InputEvent::press(150, Action::HardDrop));
/// recorder.advance_to(1_000);
/// let replay = VersusReplay::from_json(&recorder.replay().to_json()).unwrap();
/// assert_eq!(&replay.play().unwrap(), recorder.versus());
/// ```
#[derive(Clone, Debug)]
pub struct VersusRecorder {
    versus: Versus,
    inputs: Vec<VersusInput>,
}

impl VersusRecorder {
    /// A new recorded versus game.
    pub fn new(settings: VersusSettings, seed: u64) -> VersusRecorder {
        VersusRecorder {
            versus: Versus::new(settings, seed),
            inputs: Vec::new(),
        }
    }

    /// Plays and records one input (at the clock's time when earlier); inputs after the
    /// end, or past [`MAX_VERSUS_INPUTS`], are neither played nor recorded.
    pub fn handle(&mut self, player: Player, input: InputEvent) {
        if !self.versus.is_playing() || self.inputs.len() >= MAX_VERSUS_INPUTS {
            return;
        }
        let input = InputEvent {
            time_ms: input.time_ms.max(self.versus.time_ms()),
            ..input
        };
        self.versus.handle(player, input);
        self.inputs.push(VersusInput { player, input });
    }

    /// Runs both games to `now_ms`.
    pub fn advance_to(&mut self, now_ms: u64) {
        self.versus.advance_to(now_ms);
    }

    /// The game being recorded.
    pub fn versus(&self) -> &Versus {
        &self.versus
    }

    /// The replay of everything so far.
    pub fn replay(&self) -> VersusReplay {
        VersusReplay {
            version: VERSUS_REPLAY_VERSION,
            seed: self.versus.seed(),
            settings: self.versus.settings,
            inputs: self.inputs.clone(),
            end_ms: self.versus.time_ms(),
            result: VersusResult::of(&self.versus),
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::game::{Action, Edge};
    use crate::settings::SoftDrop;

    fn settings() -> impl Strategy<Value = VersusSettings> {
        let soft_drop = prop_oneof![Just(SoftDrop::Factor(20)), Just(SoftDrop::Instant)];
        (0u32..200, 0u32..40, soft_drop, 0u32..800, 0u8..=100).prop_map(
            |(das_ms, arr_ms, soft_drop, delay_ms, messiness_percent)| {
                let handling = Settings {
                    das_ms,
                    arr_ms,
                    soft_drop,
                    preview: 5,
                    ..Settings::default()
                };
                VersusSettings {
                    handling: [handling; 2],
                    garbage: GarbageRules {
                        delay_ms,
                        messiness_percent,
                    },
                }
            },
        )
    }

    /// Inputs at rising times for either player; hard drops and holds of the sideways and
    /// soft-drop keys, with gaps long enough for gravity to lock pieces by itself.
    fn inputs() -> impl Strategy<Value = Vec<(u64, bool, Action, Edge)>> {
        let action = prop_oneof![
            3 => Just(Action::Left),
            3 => Just(Action::Right),
            2 => Just(Action::SoftDrop),
            3 => Just(Action::HardDrop),
            1 => Just(Action::RotateCw),
            1 => Just(Action::Hold),
        ];
        let edge = prop_oneof![Just(Edge::Press), Just(Edge::Release)];
        prop::collection::vec((0u64..1_500, any::<bool>(), action, edge), 0..150)
    }

    #[test]
    fn lock_to_lock_stepping_matches_event_by_event_with_garbage() {
        use crate::bot::{Bot, Weights};
        let settings = VersusSettings {
            garbage: GarbageRules {
                delay_ms: 700,
                messiness_percent: 20,
            },
            handling: [Settings {
                soft_drop: SoftDrop::Instant,
                ..Settings::default()
            }; 2],
        };
        let mut fast = Versus::new(settings, 21);
        let mut slow = fast.clone();
        let mut bots = [Bot::with_weights(Weights::attack()), Bot::new()];
        let mut time_ms = 0;
        'game: for _ in 0..120 {
            for player in Player::BOTH {
                time_ms += 170;
                fast.advance_to(time_ms);
                slow.advance_event_by_event(time_ms);
                assert_eq!(fast, slow);
                if !fast.is_playing() {
                    break 'game;
                }
                let Some(plan) = bots[player.index()].suggest(fast.game(player)) else {
                    continue;
                };
                for input in plan.input_events(time_ms) {
                    fast.handle(player, input);
                    slow.handle(player, input);
                }
            }
        }
        fast.advance_to(time_ms + 30_000);
        slow.advance_event_by_event(time_ms + 30_000);
        assert_eq!(fast, slow);
        let totals = Player::BOTH.map(|p| fast.stats(p).garbage);
        assert!(totals.iter().any(|t| t.risen > 0), "{totals:?}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn lock_to_lock_stepping_matches_event_by_event(
            settings in settings(),
            seed in 0u64..1000,
            inputs in inputs(),
            tail_ms in 0u64..20_000,
        ) {
            let mut fast = Versus::new(settings, seed);
            let mut slow = fast.clone();
            let mut time_ms = 0;
            for (gap, two, action, edge) in inputs {
                time_ms += gap;
                let player = if two { Player::Two } else { Player::One };
                fast.advance_to(time_ms);
                slow.advance_event_by_event(time_ms);
                prop_assert_eq!(&fast, &slow);
                let input = InputEvent { time_ms, action, edge };
                fast.handle(player, input);
                slow.handle(player, input);
            }
            fast.advance_to(time_ms + tail_ms);
            slow.advance_event_by_event(time_ms + tail_ms);
            prop_assert_eq!(&fast, &slow);
        }
    }
}
