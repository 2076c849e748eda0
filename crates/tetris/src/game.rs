//! The game state machine: spawning, handling (DAS/ARR), gravity, lock delay, hold, line
//! clears, scoring and top out, all driven by injected time.
//!
//! Time is *game time*: milliseconds of play since the game began. A front end that pauses
//! simply stops advancing it. Internally the engine schedules in microseconds so that fast
//! gravity (up to 20G) and soft drop stay exact.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::attack::Attack;
use crate::bag::Bag;
use crate::finesse::{FinesseCount, Placement};
use crate::garbage::{Garbage, GarbageRules, Meter};
use crate::matrix::{Matrix, VISIBLE_HEIGHT};
use crate::mode::Mode;
use crate::piece::{ActivePiece, PieceKind};
use crate::scoring::{self, Chains, ClearReport, LastAction, TSpin};
use crate::settings::{Settings, SoftDrop};
use crate::srs::{self, Turn};

/// Lock delay: how long a grounded piece waits before locking.
pub const LOCK_DELAY_MS: u64 = 500;
/// Moves or rotations during lock delay that restart it; one more locks the piece on contact.
pub const LOCK_RESETS: u8 = 15;
/// The latest game time a script line or replay input may have, and a replay's longest
/// recording: 24 hours. Inputs are refused past it before anything is played, which bounds
/// the work of a run, since the engine's cost grows with the game time it simulates.
pub const MAX_GAME_TIME_MS: u64 = 24 * 60 * 60 * 1000;
/// Pieces kept ready beyond the active one (the preview shows up to 6 of them).
const QUEUE_DEPTH: usize = 7;

/// Microseconds per row of gravity for levels 1–18: (0.8 − (level−1)·0.007)^(level−1) s.
/// Written out (rounded to the microsecond) so the timing never depends on floating point.
const GRAVITY_US: [u64; 18] = [
    1_000_000, 793_000, 617_796, 472_729, 355_197, 262_004, 189_677, 134_735, 93_882, 64_152,
    42_976, 28_218, 18_153, 11_439, 7_059, 4_264, 2_520, 1_457,
];
/// 20G: twenty rows per 1/60 s frame, the fastest gravity (reached at level 19).
const TWENTY_G_US: u64 = 1_000_000 / 60 / 20;

/// Time per row of gravity at a level.
pub fn gravity_us(level: u32) -> u64 {
    let index = level.max(1) as usize - 1;
    GRAVITY_US.get(index).copied().unwrap_or(TWENTY_G_US)
}

/// A player action, bound to a key by the front end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Left,
    Right,
    SoftDrop,
    HardDrop,
    RotateCw,
    RotateCcw,
    Rotate180,
    Hold,
}

impl Action {
    pub const ALL: [Action; 8] = [
        Action::Left,
        Action::Right,
        Action::SoftDrop,
        Action::HardDrop,
        Action::RotateCw,
        Action::RotateCcw,
        Action::Rotate180,
        Action::Hold,
    ];

    /// The name used in scripts and replays (`left`, `rotate_cw`, …).
    pub fn name(self) -> &'static str {
        match self {
            Action::Left => "left",
            Action::Right => "right",
            Action::SoftDrop => "soft_drop",
            Action::HardDrop => "hard_drop",
            Action::RotateCw => "rotate_cw",
            Action::RotateCcw => "rotate_ccw",
            Action::Rotate180 => "rotate_180",
            Action::Hold => "hold",
        }
    }

    pub fn from_name(name: &str) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.name() == name)
    }
}

/// Key down or key up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    Press,
    Release,
}

/// One timestamped input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct InputEvent {
    pub time_ms: u64,
    pub action: Action,
    pub edge: Edge,
}

impl InputEvent {
    pub fn press(time_ms: u64, action: Action) -> InputEvent {
        InputEvent {
            time_ms,
            action,
            edge: Edge::Press,
        }
    }

    pub fn release(time_ms: u64, action: Action) -> InputEvent {
        InputEvent {
            time_ms,
            action,
            edge: Edge::Release,
        }
    }

    /// A press immediately followed by its release: one step of the action.
    pub fn tap(time_ms: u64, action: Action) -> [InputEvent; 2] {
        [
            InputEvent::press(time_ms, action),
            InputEvent::release(time_ms, action),
        ]
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameOver {
    /// A new piece overlapped the stack where it spawns.
    BlockOut,
    /// A piece locked wholly above the visible field.
    LockOut,
    /// The mode's goal was reached (lines in Marathon or Sprint, time in Ultra).
    GoalReached,
    /// Rising garbage pushed blocks above the top of the matrix (versus games).
    TopOut,
}

/// Whether the game is still running.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Playing,
    Over(GameOver),
}

/// A finished (or running) game's figures, for high-score tables.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub mode: Mode,
    pub score: u64,
    pub lines: u32,
    pub level: u32,
    pub pieces: u64,
    pub time_ms: u64,
    pub pieces_per_second: f64,
    pub status: Status,
    /// Finesse faults, judged pieces and key presses (zero in files from before them).
    #[serde(default)]
    pub finesse: FinesseCount,
    /// Sprint's split times (empty in the other modes and in older files).
    #[serde(default)]
    pub splits: Splits,
}

/// Lines between two Sprint splits.
pub const SPLIT_LINES: u32 = 10;

/// Sprint's split times: the game time at which 10, 20, 30 and 40 lines were reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Splits {
    pub at_ms: [Option<u64>; 4],
}

impl Splits {
    /// The splits reached so far, in order, with the lines of each.
    pub fn reached(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        (1..)
            .zip(self.at_ms.iter())
            .filter_map(|(n, at)| at.map(|ms| (n * SPLIT_LINES, ms)))
    }

    /// Notes every split that `lines` reaches at `time_ms`.
    fn reach(&mut self, lines: u32, time_ms: u64) {
        for (n, at) in (1..).zip(self.at_ms.iter_mut()) {
            if at.is_none() && lines >= n * SPLIT_LINES {
                *at = Some(time_ms);
            }
        }
    }
}

/// A sideways key being held: which way, and when it next repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct HeldShift {
    direction: i8,
    /// Next auto-repeat time; for ARR 0 the time DAS charges, after which `charged` is set.
    next_us: u64,
    /// DAS has charged with ARR 0: the piece is kept against the wall.
    charged: bool,
}

/// The whole state of one game; serialisable mid-game, deterministic given its inputs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Game {
    mode: Mode,
    settings: Settings,
    seed: u64,
    matrix: Matrix,
    bag: Bag,
    queue: VecDeque<PieceKind>,
    active: Option<ActivePiece>,
    hold: Option<PieceKind>,
    hold_used: bool,
    last_action: LastAction,
    score: u64,
    lines: u32,
    pieces: u64,
    chains: Chains,
    last_clear: Option<ClearReport>,
    status: Status,
    now_us: u64,
    next_fall_us: u64,
    lock_deadline_us: Option<u64>,
    /// Resets used during lock delay; past [`LOCK_RESETS`] the piece locks on contact.
    lock_resets: u8,
    /// Lowest row the active piece has reached; reaching a lower one restores the resets.
    lowest_row: i8,
    shift: Option<HeldShift>,
    left_held: bool,
    right_held: bool,
    soft_drop_held: bool,
    /// Zen mode clears the matrix instead of ending the game; this counts how often.
    zen_clears: u32,
    /// Incoming and outgoing garbage in a versus game; `None` in a game played alone.
    #[serde(default)]
    garbage: Option<Garbage>,
    /// Finesse so far (presses of the piece in play, faults, keys).
    #[serde(default)]
    finesse: FinesseCount,
    /// Pieces sent back to spawn by finesse training.
    #[serde(default)]
    finesse_retries: u64,
    /// Sprint's split times.
    #[serde(default)]
    splits: Splits,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Timer {
    Shift,
    Fall,
    Lock,
    TimeUp,
}

impl Game {
    /// A new game at time 0 with the first piece in play.
    ///
    /// ```
    /// use tetris::{Action, Game, InputEvent, Mode, Settings};
    /// let mut game = Game::new(Mode::Sprint, Settings::default(), 42);
    /// let first = game.active().unwrap().kind;
    /// let second = game.next_queue()[0];
    /// game.update(100, &InputEvent::tap(100, Action::HardDrop));
    /// assert_eq!(game.pieces(), 1);
    /// assert_ne!(game.matrix().stack_height(), 0);
    /// assert_eq!(game.active().unwrap().kind, second);
    /// assert_ne!(first, second); // a 7-bag never deals the same piece twice in a row at the start
    /// ```
    pub fn new(mode: Mode, settings: Settings, seed: u64) -> Game {
        Game::with_setup(mode, settings, seed, Matrix::new(), &[])
    }

    /// A game starting from a prepared matrix, with `first_pieces` dealt before the bag
    /// (the first of them is the piece in play). Used by tests, puzzles and scripts.
    pub fn with_setup(
        mode: Mode,
        settings: Settings,
        seed: u64,
        matrix: Matrix,
        first_pieces: &[PieceKind],
    ) -> Game {
        let mut game = Game {
            mode,
            settings: settings.clamped(),
            seed,
            matrix,
            bag: Bag::new(seed),
            queue: first_pieces.iter().copied().collect(),
            active: None,
            hold: None,
            hold_used: false,
            last_action: LastAction::Other,
            score: 0,
            lines: 0,
            pieces: 0,
            chains: Chains::default(),
            last_clear: None,
            status: Status::Playing,
            now_us: 0,
            next_fall_us: u64::MAX,
            lock_deadline_us: None,
            lock_resets: 0,
            lowest_row: 0,
            shift: None,
            left_held: false,
            right_held: false,
            soft_drop_held: false,
            zen_clears: 0,
            garbage: None,
            finesse: FinesseCount::default(),
            finesse_retries: 0,
            splits: Splits::default(),
        };
        let first = game.take_next();
        game.spawn(first);
        game
    }

    /// This game made a versus player's: its locks send garbage by the attack table
    /// ([`crate::attack`]) and take garbage sent with [`Game::receive_garbage`] under
    /// `rules`, the holes drawn from a generator seeded with `hole_seed`
    /// ([`crate::garbage`]).
    ///
    /// ```
    /// use tetris::garbage::{GarbageRules, Meter};
    /// use tetris::{Game, Mode, Settings};
    /// let mut game = Game::new(Mode::Marathon { endless: true }, Settings::default(), 5)
    ///     .with_garbage(GarbageRules::default(), 6);
    /// game.receive_garbage(3, 0);
    /// assert_eq!(game.garbage_meter(), Some(Meter { ready: 0, pending: 3 }));
    /// ```
    pub fn with_garbage(mut self, rules: GarbageRules, hole_seed: u64) -> Game {
        self.garbage = Some(Garbage::new(rules, hole_seed));
        self
    }

    // ----- reading the state -----

    pub fn mode(&self) -> Mode {
        self.mode
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn matrix(&self) -> &Matrix {
        &self.matrix
    }

    /// The falling piece, `None` once the game is over by block out.
    pub fn active(&self) -> Option<&ActivePiece> {
        self.active.as_ref()
    }

    /// Where the active piece would land on a hard drop.
    pub fn ghost(&self) -> Option<ActivePiece> {
        self.active.map(|piece| self.dropped(piece).0)
    }

    pub fn hold_piece(&self) -> Option<PieceKind> {
        self.hold
    }

    /// Hold is allowed once per piece, until it locks.
    pub fn can_hold(&self) -> bool {
        !self.hold_used && self.is_playing()
    }

    /// The next pieces as the player sees them (as many as the preview setting).
    pub fn next_queue(&self) -> Vec<PieceKind> {
        self.queue
            .iter()
            .take(usize::from(self.settings.preview))
            .copied()
            .collect()
    }

    pub fn score(&self) -> u64 {
        self.score
    }

    pub fn lines(&self) -> u32 {
        self.lines
    }

    /// Level 1 plus one per 10 lines (Sprint and Ultra stay at 1).
    pub fn level(&self) -> u32 {
        if self.mode.levels_up() {
            1 + self.lines / 10
        } else {
            1
        }
    }

    /// Pieces locked so far.
    pub fn pieces(&self) -> u64 {
        self.pieces
    }

    /// Game time in milliseconds (frozen when the game ends).
    pub fn time_ms(&self) -> u64 {
        self.now_us / 1000
    }

    /// Game time rounded up to the millisecond: advancing a fresh copy to it replays every
    /// event so far (a game can end between two milliseconds, e.g. on a gravity step).
    pub fn time_ms_ceil(&self) -> u64 {
        self.now_us.div_ceil(1000)
    }

    pub fn status(&self) -> Status {
        self.status
    }

    pub fn is_playing(&self) -> bool {
        self.status == Status::Playing
    }

    pub fn topped_out(&self) -> bool {
        matches!(
            self.status,
            Status::Over(GameOver::BlockOut | GameOver::LockOut | GameOver::TopOut)
        )
    }

    /// The versus garbage (queue, totals, rules); `None` unless made with
    /// [`Game::with_garbage`].
    pub fn garbage(&self) -> Option<&Garbage> {
        self.garbage.as_ref()
    }

    /// The incoming-garbage meter now, for versus games.
    pub fn garbage_meter(&self) -> Option<Meter> {
        self.garbage.as_ref().map(|g| g.meter(self.time_ms()))
    }

    /// Queues `lines` of garbage an opponent sent at game time `sent_ms` (nothing happens
    /// in a game without garbage; a game that is over still counts them as received).
    pub fn receive_garbage(&mut self, lines: u32, sent_ms: u64) {
        if let Some(garbage) = &mut self.garbage {
            garbage.receive(lines, sent_ms);
        }
    }

    /// Takes the garbage this game's locks sent since the last call, as (game time sent,
    /// lines), for the opponent's [`Game::receive_garbage`].
    pub fn take_sent_garbage(&mut self) -> Vec<(u64, u32)> {
        self.garbage
            .as_mut()
            .map(Garbage::take_sent)
            .unwrap_or_default()
    }

    /// What the most recent line clear or T-spin earned (for "T-SPIN DOUBLE" style banners).
    pub fn last_clear(&self) -> Option<&ClearReport> {
        self.last_clear.as_ref()
    }

    pub fn back_to_back(&self) -> bool {
        self.chains.back_to_back
    }

    /// Current combo (0 after the first clear of a chain), `None` when no chain is running.
    pub fn combo(&self) -> Option<u32> {
        self.chains.combo
    }

    /// How often Zen mode wiped a topped-out matrix.
    pub fn zen_clears(&self) -> u32 {
        self.zen_clears
    }

    /// The figures a high-score table keeps.
    ///
    /// ```
    /// use tetris::{Action, Game, InputEvent, Mode, Settings};
    /// let mut game = Game::new(Mode::Ultra, Settings::default(), 3);
    /// game.update(2_000, &InputEvent::tap(1_000, Action::HardDrop));
    /// let summary = game.summary();
    /// assert_eq!((summary.pieces, summary.time_ms), (1, 2_000));
    /// assert_eq!(summary.pieces_per_second, 0.5);
    /// ```
    pub fn summary(&self) -> Summary {
        let seconds = self.now_us as f64 / 1_000_000.0;
        Summary {
            mode: self.mode,
            score: self.score,
            lines: self.lines,
            level: self.level(),
            pieces: self.pieces,
            time_ms: self.time_ms(),
            pieces_per_second: if seconds > 0.0 {
                self.pieces as f64 / seconds
            } else {
                0.0
            },
            status: self.status,
            finesse: self.finesse,
            splits: self.splits,
        }
    }

    /// Finesse so far: faults, judged pieces, key presses.
    pub fn finesse(&self) -> &FinesseCount {
        &self.finesse
    }

    /// How often finesse training sent a piece back to spawn.
    pub fn finesse_retries(&self) -> u64 {
        self.finesse_retries
    }

    /// Sprint's split times so far.
    pub fn splits(&self) -> &Splits {
        &self.splits
    }

    /// Lock-delay resets used by the active piece.
    pub fn lock_resets(&self) -> u8 {
        self.lock_resets
    }

    /// When the grounded active piece will lock, in game milliseconds.
    pub fn lock_deadline_ms(&self) -> Option<u64> {
        self.lock_deadline_us.map(|us| us / 1000)
    }

    /// When the game will next change by itself (gravity step, auto-repeat, lock, time
    /// limit), so a front end can sleep until then; `None` when nothing is pending.
    pub fn next_event_ms(&self) -> Option<u64> {
        if !self.is_playing() {
            return None;
        }
        self.next_timer().map(|(at_us, _)| at_us.div_ceil(1000))
    }

    /// Puts `piece` in play in place of the active one (for puzzles, editors and tests).
    /// Returns false, changing nothing, when it does not fit or the game is over.
    pub fn set_active(&mut self, piece: ActivePiece) -> bool {
        if !self.is_playing() || !self.fits(&piece) {
            return false;
        }
        self.active = Some(piece);
        self.last_action = LastAction::Other;
        self.lock_deadline_us = None;
        self.lowest_row = piece.cells().iter().map(|c| c.1).min().unwrap_or(0);
        self.settle();
        true
    }

    // ----- driving the game -----

    /// Applies `inputs` (each at its own time, in order) and then advances to `now_ms`.
    pub fn update(&mut self, now_ms: u64, inputs: &[InputEvent]) {
        for &input in inputs {
            self.handle(input);
        }
        self.advance_to(now_ms);
    }

    /// Advances to the input's time (an earlier time counts as now) and applies it.
    pub fn handle(&mut self, input: InputEvent) {
        self.advance_to(input.time_ms);
        if !self.is_playing() {
            return;
        }
        match input.edge {
            Edge::Press => self.press(input.action),
            Edge::Release => self.release(input.action),
        }
    }

    /// Lets time run: gravity, auto-repeat, lock delay and time limits up to `now_ms`.
    ///
    /// Auto-repeats of a key held against the wall and gravity steps of a grounded piece
    /// are skipped in one go, so the cost does not grow with the time they span.
    pub fn advance_to(&mut self, now_ms: u64) {
        self.run_to(now_ms.saturating_mul(1000), true);
    }

    /// [`Game::advance_to`] in microseconds; `skip_idle` off fires every timer one by one
    /// (the reference the skipping is tested against).
    fn run_to(&mut self, target_us: u64, skip_idle: bool) {
        self.run_until(target_us, skip_idle, false);
    }

    /// When the game, left alone, next locks a piece at or before `now_ms` (the
    /// millisecond, rounded up, of the lock); `None` when it does not. Versus games step
    /// from lock to lock with it, since garbage only moves when a piece locks.
    pub(crate) fn next_lock_ms(&self, now_ms: u64) -> Option<u64> {
        let mut probe = self.clone();
        probe
            .run_until(now_ms.saturating_mul(1000), true, true)
            .then(|| probe.now_us.div_ceil(1000))
    }

    /// [`Game::run_to`], stopping just after the first lock when `stop_at_lock` is set;
    /// returns whether it stopped so.
    fn run_until(&mut self, target_us: u64, skip_idle: bool, stop_at_lock: bool) -> bool {
        let pieces = self.pieces;
        while self.is_playing() {
            if skip_idle {
                self.skip_idle_timers(target_us);
            }
            let Some((at_us, timer)) = self.next_timer() else {
                break;
            };
            if at_us > target_us {
                break;
            }
            self.now_us = self.now_us.max(at_us);
            self.fire(timer);
            if stop_at_lock && self.pieces != pieces {
                return true;
            }
        }
        if self.is_playing() {
            self.now_us = self.now_us.max(target_us);
        }
        false
    }

    /// Moves the auto-repeat and gravity timers past the firings that cannot change the
    /// game: a repeat into a wall, a fall of a grounded piece. Each such firing only
    /// reschedules itself, and stays idle until another timer (or `target_us`) comes, so
    /// those strictly before it are dropped at once (ties still fire, in their order).
    fn skip_idle_timers(&mut self, target_us: u64) {
        let Some(piece) = self.active else { return };
        if !self.is_settled(&piece) {
            return;
        }
        let arr_us = u64::from(self.settings.arr_ms) * 1000;
        let idle_shift = self.shift.filter(|shift| {
            !shift.charged
                && arr_us > 0
                && shift.next_us != u64::MAX
                && !self.fits(&piece.shifted(shift.direction, 0))
        });
        let grounded = !self.fits(&piece.shifted(0, -1));
        let fall_us = self.fall_interval_us().filter(|_| grounded);
        let idle_fall = fall_us.is_some() && self.next_fall_us != u64::MAX;
        let mut bound = target_us;
        if idle_shift.is_none()
            && let Some(shift) = self.shift.filter(|shift| !shift.charged)
        {
            bound = bound.min(shift.next_us);
        }
        if !idle_fall {
            bound = bound.min(self.next_fall_us);
        }
        if let Some(deadline) = self.lock_deadline_us {
            bound = bound.min(deadline);
        }
        if let Some(limit) = self.mode.time_limit_ms() {
            bound = bound.min(limit.saturating_mul(1000));
        }
        // The first time of `at + k·step` (k ≥ 0) not before `bound`; past u64 it never comes.
        let first_from = |at: u64, step: u64| {
            if at >= bound {
                return at;
            }
            let steps = (bound - at).div_ceil(step);
            steps
                .checked_mul(step)
                .and_then(|span| at.checked_add(span))
                .unwrap_or(u64::MAX)
        };
        if let Some(mut shift) = idle_shift {
            shift.next_us = first_from(shift.next_us, arr_us);
            self.shift = Some(shift);
        }
        if let (true, Some(step)) = (idle_fall, fall_us) {
            self.next_fall_us = first_from(self.next_fall_us, step);
        }
    }

    /// Whether `settle` would leave the game as it is: held ARR-0 and instant soft drop
    /// already applied, lock delay running exactly when the piece is grounded.
    fn is_settled(&self, piece: &ActivePiece) -> bool {
        let charged_can_move = self
            .shift
            .is_some_and(|shift| shift.charged && self.fits(&piece.shifted(shift.direction, 0)));
        let grounded = !self.fits(&piece.shifted(0, -1));
        let instant_can_fall =
            self.soft_drop_held && self.settings.soft_drop == SoftDrop::Instant && !grounded;
        let bottom = piece.cells().iter().map(|c| c.1).min().unwrap_or(0);
        !charged_can_move
            && !instant_can_fall
            && bottom >= self.lowest_row
            && grounded == self.lock_deadline_us.is_some()
    }

    /// The earliest pending timer; ties go to shift, then fall, then lock, then time up.
    fn next_timer(&self) -> Option<(u64, Timer)> {
        let piece_timers = self.active.is_some();
        let shift = self
            .shift
            .filter(|shift| piece_timers && !shift.charged && shift.next_us != u64::MAX)
            .map(|shift| (shift.next_us, Timer::Shift));
        let fall = (piece_timers && self.next_fall_us != u64::MAX)
            .then_some((self.next_fall_us, Timer::Fall));
        let lock = self
            .lock_deadline_us
            .filter(|_| piece_timers)
            .map(|deadline| (deadline, Timer::Lock));
        let time_up = self
            .mode
            .time_limit_ms()
            .map(|limit| (limit * 1000, Timer::TimeUp));
        [shift, fall, lock, time_up].into_iter().flatten().min()
    }

    fn fire(&mut self, timer: Timer) {
        match timer {
            Timer::Shift => {
                let Some(mut shift) = self.shift else { return };
                if self.settings.arr_ms == 0 {
                    shift.charged = true;
                    self.shift = Some(shift);
                    self.shift_to_wall(shift.direction);
                } else {
                    shift.next_us = shift
                        .next_us
                        .saturating_add(u64::from(self.settings.arr_ms) * 1000);
                    self.shift = Some(shift);
                    if self.try_shift(shift.direction) {
                        self.after_player_move();
                    }
                }
                self.settle();
            }
            Timer::Fall => {
                self.next_fall_us = self
                    .fall_interval_us()
                    .map_or(u64::MAX, |interval| self.now_us.saturating_add(interval));
                if self.try_move_down() && self.soft_drop_held {
                    self.score += 1;
                }
                self.settle();
            }
            Timer::Lock => self.lock_active(),
            Timer::TimeUp => self.status = Status::Over(GameOver::GoalReached),
        }
    }

    fn fall_interval_us(&self) -> Option<u64> {
        let gravity = gravity_us(self.level());
        match (self.soft_drop_held, self.settings.soft_drop) {
            (true, SoftDrop::Factor(factor)) => {
                let base = if self.mode.has_gravity() {
                    gravity
                } else {
                    gravity_us(1)
                };
                Some((base / u64::from(factor.max(1))).max(1))
            }
            // Instant soft drop is applied in `settle`; gravity still runs underneath.
            _ if self.mode.has_gravity() => Some(gravity),
            _ => None,
        }
    }

    fn press(&mut self, action: Action) {
        self.finesse.keys += 1;
        match action {
            Action::Left
            | Action::Right
            | Action::RotateCw
            | Action::RotateCcw
            | Action::Rotate180 => self.finesse.piece_presses += 1,
            Action::SoftDrop => self.finesse.piece_soft_dropped = true,
            Action::HardDrop | Action::Hold => {}
        }
        match action {
            Action::Left | Action::Right => {
                let direction = if action == Action::Left { -1 } else { 1 };
                if direction < 0 {
                    self.left_held = true;
                } else {
                    self.right_held = true;
                }
                self.start_shift(direction);
                if self.try_shift(direction) {
                    self.after_player_move();
                }
                self.settle();
            }
            Action::SoftDrop => {
                self.soft_drop_held = true;
                if self.settings.soft_drop != SoftDrop::Instant && self.try_move_down() {
                    self.score += 1;
                }
                self.next_fall_us = self
                    .fall_interval_us()
                    .map_or(u64::MAX, |interval| self.now_us.saturating_add(interval));
                self.settle();
            }
            Action::HardDrop => self.hard_drop(),
            Action::RotateCw => self.rotate(Turn::Clockwise),
            Action::RotateCcw => self.rotate(Turn::CounterClockwise),
            Action::Rotate180 => self.rotate(Turn::Half),
            Action::Hold => self.hold_active(),
        }
    }

    fn release(&mut self, action: Action) {
        match action {
            Action::Left | Action::Right => {
                let direction = if action == Action::Left { -1 } else { 1 };
                if direction < 0 {
                    self.left_held = false;
                } else {
                    self.right_held = false;
                }
                if self.shift.is_some_and(|s| s.direction == direction) {
                    self.shift = None;
                    // The other key is still down: it takes over with a fresh DAS.
                    let other_held = if direction < 0 {
                        self.right_held
                    } else {
                        self.left_held
                    };
                    if other_held {
                        self.start_shift(-direction);
                    }
                }
            }
            Action::SoftDrop if self.soft_drop_held => {
                self.soft_drop_held = false;
                self.next_fall_us = self
                    .fall_interval_us()
                    .map_or(u64::MAX, |interval| self.now_us.saturating_add(interval));
            }
            _ => {}
        }
    }

    fn start_shift(&mut self, direction: i8) {
        self.shift = Some(HeldShift {
            direction,
            next_us: self
                .now_us
                .saturating_add(u64::from(self.settings.das_ms) * 1000),
            charged: false,
        });
    }

    // ----- piece movement -----

    fn fits(&self, piece: &ActivePiece) -> bool {
        self.matrix.fits(piece)
    }

    /// The piece dropped as far as it goes, and how many rows that was.
    fn dropped(&self, mut piece: ActivePiece) -> (ActivePiece, u32) {
        let mut rows = 0;
        while self.fits(&piece.shifted(0, -1)) {
            piece = piece.shifted(0, -1);
            rows += 1;
        }
        (piece, rows)
    }

    fn try_shift(&mut self, direction: i8) -> bool {
        let Some(piece) = self.active else {
            return false;
        };
        let moved = piece.shifted(direction, 0);
        if self.fits(&moved) {
            self.active = Some(moved);
            self.last_action = LastAction::Other;
            true
        } else {
            false
        }
    }

    fn shift_to_wall(&mut self, direction: i8) {
        let mut moved = false;
        while self.try_shift(direction) {
            moved = true;
        }
        if moved {
            self.after_player_move();
        }
    }

    fn try_move_down(&mut self) -> bool {
        let Some(piece) = self.active else {
            return false;
        };
        let moved = piece.shifted(0, -1);
        if self.fits(&moved) {
            self.active = Some(moved);
            self.last_action = LastAction::Other;
            true
        } else {
            false
        }
    }

    fn rotate(&mut self, turn: Turn) {
        let Some(piece) = self.active else { return };
        let rotation = turn.apply(piece.rotation);
        for (kick, &(dx, dy)) in srs::kicks(piece.kind, piece.rotation, turn)
            .iter()
            .enumerate()
        {
            let candidate = ActivePiece {
                rotation,
                x: piece.x + dx,
                y: piece.y + dy,
                ..piece
            };
            if self.fits(&candidate) {
                self.active = Some(candidate);
                self.last_action = LastAction::Rotation {
                    turn,
                    kick: kick as u8,
                };
                self.after_player_move();
                self.settle();
                return;
            }
        }
    }

    /// A successful shift or rotation during lock delay uses one reset.
    fn after_player_move(&mut self) {
        if self.lock_deadline_us.take().is_some() {
            self.lock_resets = self.lock_resets.saturating_add(1);
        }
    }

    /// Re-applies held ARR-0 shifts and instant soft drop, tracks the lowest row, and starts,
    /// clears or ends lock delay depending on whether the piece rests on something.
    fn settle(&mut self) {
        if !self.is_playing() {
            return;
        }
        if let Some(shift) = self.shift.filter(|shift| shift.charged) {
            self.shift_to_wall(shift.direction);
        }
        if self.soft_drop_held && self.settings.soft_drop == SoftDrop::Instant {
            while self.try_move_down() {
                self.score += 1;
            }
        }
        let Some(piece) = self.active else { return };
        let bottom = piece.cells().iter().map(|c| c.1).min().unwrap_or(0);
        if bottom < self.lowest_row {
            self.lowest_row = bottom;
            self.lock_resets = 0;
        }
        let grounded = !self.fits(&piece.shifted(0, -1));
        if !grounded {
            self.lock_deadline_us = None;
        } else if self.lock_deadline_us.is_none() {
            if self.lock_resets > LOCK_RESETS {
                self.lock_active();
            } else {
                self.lock_deadline_us = Some(self.now_us.saturating_add(LOCK_DELAY_MS * 1000));
            }
        }
    }

    fn hard_drop(&mut self) {
        let Some(piece) = self.active else { return };
        let (landed, rows) = self.dropped(piece);
        self.active = Some(landed);
        if rows > 0 {
            self.last_action = LastAction::Other;
        }
        if self.retry_on_fault() {
            return;
        }
        self.score += 2 * u64::from(rows);
        self.lock_judged();
    }

    /// Judges the finesse of the piece about to lock; in finesse training a fault sends it
    /// back to spawn instead (true), the matrix untouched.
    fn retry_on_fault(&mut self) -> bool {
        let Some(piece) = self.active else {
            return false;
        };
        let fault = self
            .finesse
            .judge(Placement::of(&piece), self.settings.finesse_180);
        if fault && self.settings.finesse_training {
            self.finesse_retries += 1;
            self.active = None;
            self.spawn(piece.kind);
            return true;
        }
        false
    }

    fn hold_active(&mut self) {
        if self.hold_used {
            return;
        }
        let Some(piece) = self.active.take() else {
            return;
        };
        let next = match self.hold.take() {
            Some(kind) => kind,
            None => self.take_next(),
        };
        self.hold = Some(piece.kind);
        self.hold_used = true;
        self.finesse.new_piece();
        self.spawn(next);
    }

    fn take_next(&mut self) -> PieceKind {
        while self.queue.len() <= QUEUE_DEPTH {
            let kind = self.bag.next_piece();
            self.queue.push_back(kind);
        }
        self.queue.pop_front().unwrap_or(PieceKind::T)
    }

    fn spawn(&mut self, kind: PieceKind) {
        let mut piece = ActivePiece::spawn(kind);
        if !self.fits(&piece) {
            if self.mode.can_top_out() {
                self.active = None;
                self.status = Status::Over(GameOver::BlockOut);
                return;
            }
            self.zen_clears += 1;
            self.matrix = Matrix::new();
        }
        // Guideline: the piece drops one row straight away if nothing is in the way.
        if self.fits(&piece.shifted(0, -1)) {
            piece = piece.shifted(0, -1);
        }
        self.active = Some(piece);
        self.last_action = LastAction::Other;
        self.lock_deadline_us = None;
        self.lock_resets = 0;
        self.lowest_row = piece.cells().iter().map(|c| c.1).min().unwrap_or(0);
        self.next_fall_us = self
            .fall_interval_us()
            .map_or(u64::MAX, |interval| self.now_us.saturating_add(interval));
        self.settle();
    }

    fn lock_active(&mut self) {
        if !self.retry_on_fault() {
            self.lock_judged();
        }
    }

    /// Locks the active piece (its finesse already judged).
    fn lock_judged(&mut self) {
        let Some(piece) = self.active.take() else {
            return;
        };
        let t_spin = scoring::detect_t_spin(&self.matrix, &piece, self.last_action);
        let lock_out = piece.cells().iter().all(|&(_, y)| y >= VISIBLE_HEIGHT);
        self.matrix.lock(&piece);
        self.pieces += 1;
        self.lock_deadline_us = None;
        if lock_out {
            if self.mode.can_top_out() {
                self.status = Status::Over(GameOver::LockOut);
                return;
            }
            self.zen_clears += 1;
            self.matrix = Matrix::new();
        }
        let level = self.level();
        let lines = self.matrix.clear_full_rows();
        let perfect_clear = lines > 0 && self.matrix.is_empty();
        let report = scoring::score_lock(lines, t_spin, perfect_clear, level, &mut self.chains);
        self.score += report.points;
        self.lines += lines;
        if self.mode == Mode::Sprint {
            self.splits.reach(self.lines, self.now_us / 1000);
        }
        if lines > 0 || t_spin != TSpin::None {
            self.last_clear = Some(report);
        }
        if let Some(garbage) = &mut self.garbage {
            let attack = Attack::of(&report).total();
            let now_ms = self.now_us / 1000;
            if garbage
                .after_lock(attack, lines, now_ms, &mut self.matrix)
                .topped_out
            {
                if self.mode.can_top_out() {
                    self.status = Status::Over(GameOver::TopOut);
                    return;
                }
                self.zen_clears += 1;
                self.matrix = Matrix::new();
            }
        }
        if self.mode.line_goal().is_some_and(|goal| self.lines >= goal) {
            self.status = Status::Over(GameOver::GoalReached);
            return;
        }
        self.hold_used = false;
        let next = self.take_next();
        self.spawn(next);
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// [`Game::handle`] firing every timer one by one.
    fn handle_stepwise(game: &mut Game, input: InputEvent) {
        game.run_to(input.time_ms.saturating_mul(1000), false);
        if game.is_playing() {
            match input.edge {
                Edge::Press => game.press(input.action),
                Edge::Release => game.release(input.action),
            }
        }
    }

    fn mode() -> impl Strategy<Value = Mode> {
        prop_oneof![
            Just(Mode::Zen),
            Just(Mode::Marathon { endless: true }),
            Just(Mode::Sprint),
            Just(Mode::Ultra),
        ]
    }

    fn settings() -> impl Strategy<Value = Settings> {
        let soft_drop = prop_oneof![
            (1u32..60).prop_map(SoftDrop::Factor),
            Just(SoftDrop::Factor(1000)),
            Just(SoftDrop::Instant),
        ];
        (0u32..300, prop_oneof![Just(0u32), 1u32..50], soft_drop).prop_map(
            |(das_ms, arr_ms, soft_drop)| Settings {
                das_ms,
                arr_ms,
                soft_drop,
                preview: 5,
                ..Settings::default()
            },
        )
    }

    /// Inputs at rising times, mostly holds of the sideways and soft-drop keys, with gaps
    /// long enough for many repeats and gravity steps.
    fn inputs() -> impl Strategy<Value = Vec<InputEvent>> {
        let action = prop_oneof![
            4 => Just(Action::Left),
            4 => Just(Action::Right),
            3 => Just(Action::SoftDrop),
            1 => Just(Action::HardDrop),
            1 => Just(Action::RotateCw),
            1 => Just(Action::Hold),
        ];
        let edge = prop_oneof![Just(Edge::Press), Just(Edge::Release)];
        prop::collection::vec((0u64..3_000, action, edge), 0..40).prop_map(|steps| {
            let mut time_ms = 0;
            steps
                .into_iter()
                .map(|(gap, action, edge)| {
                    time_ms += gap;
                    InputEvent {
                        time_ms,
                        action,
                        edge,
                    }
                })
                .collect()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn skipping_idle_timers_matches_firing_each(
            mode in mode(),
            settings in settings(),
            seed in 0u64..1000,
            inputs in inputs(),
            tail_ms in 0u64..5_000,
        ) {
            let mut fast = Game::new(mode, settings, seed);
            let mut slow = fast.clone();
            for &input in &inputs {
                fast.handle(input);
                handle_stepwise(&mut slow, input);
                prop_assert_eq!(&fast, &slow);
            }
            let end_ms = inputs.last().map_or(0, |i| i.time_ms) + tail_ms;
            fast.advance_to(end_ms);
            slow.run_to(end_ms * 1000, false);
            prop_assert_eq!(&fast, &slow);
        }
    }

    #[test]
    fn a_key_held_for_the_longest_game_is_quick() {
        let settings = Settings {
            arr_ms: 1,
            ..Settings::default()
        };
        let mut game = Game::new(Mode::Zen, settings, 1);
        game.handle(InputEvent::press(0, Action::Left));
        // Step by step this is 3.6 billion repeats into the wall.
        game.advance_to(1000 * 60 * 60 * 1000);
        assert_eq!(game.active().map(|p| p.x), Some(0), "against the left wall");
        assert_eq!(game.time_ms(), 3_600_000_000);
        // The end of time neither overflows nor loops.
        game.handle(InputEvent::press(u64::MAX, Action::SoftDrop));
        game.advance_to(u64::MAX);
        assert!(game.is_playing());
    }
}
