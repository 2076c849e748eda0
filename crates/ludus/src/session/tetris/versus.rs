//! The versus session: a versus game ([`tetris::versus`]) in which each side is a
//! person or Ludus's bot, as the terminal (and later the browser) drives it. It owns the
//! recorded game (both sides' inputs, for the replay), the bots and their pace, pausing,
//! the person's held keys, the outcome and per-side statistics, and the saved replay.
//! Time is passed in as game milliseconds; the session never reads the clock (a front
//! end stops its clock while paused, as for solo games).
//!
//! **Bot pace.** A bot plays one piece every `1000 / PPS` milliseconds of game time: at
//! each due time it plans the piece in play ([`Bot::suggest_versus`] with the game's
//! incoming garbage and chains, or [`Bot::suggest`] for a classic bot) and plays the plan's
//! inputs as taps at that millisecond (its handling uses instant soft drop, so the taps
//! reach the planned spot). [`BotLevel::Unlimited`] plays a piece every
//! [`UNLIMITED_GAP_MS`] milliseconds, the fastest the session goes.
//!
//! **Look-ahead.** Beside its pace, a bot has a [`Lookahead`]: how many pieces of the next
//! queue (and hold) its versus search ([`Bot::suggest_versus`]) looks at, or
//! [`Lookahead::Classic`], the one-piece evaluator of the solo bot in its attack style.
//! A [`BotStrength`] is both; a [`BotLevel`] is a pace with the deepest look-ahead that
//! keeps up with it in real time ([`BotLevel::strength`]: shallow for unlimited, whose
//! 100 pieces a second leave 10 ms a piece).
//!
//! **No mirroring.** Both sides are dealt the same pieces, so two identical bots would
//! mirror each other to a draw: each searching bot breaks ties with a small noise seeded
//! by the game's seed and its side. A classic bot plays for attack ([`Weights::attack`]),
//! except on [`Player::Two`] against another classic bot, where it plays for survival.
//!
//! **TBP bots.** A [`Side::Tbp`] side is any Tetris Bot Protocol bot run as a child
//! process on its own thread ([`TbpSeat`]), paced like Ludus's bot: it is asked for a move
//! as soon as its position is known, and at each due time the first suggested move that a
//! path of inputs reaches is played as those inputs. Driven live by a front end, a side
//! whose answer has not come plays it when it comes; run headless, the session waits for
//! it. A crash, timeout, bad line or no playable move loses the game for that side
//! ([`VersusSession::forfeit`] says why).

use std::fmt;
use std::time::Duration;

use tetris::bot::{Bot, Context, Plan, SearchLimits, Weights};
use tetris::versus::{
    MAX_VERSUS_INPUTS, Outcome, Player, PlayerStats, Versus, VersusRecorder, VersusReplay,
    VersusSettings,
};
use tetris::{Action, Edge, Game, InputEvent, MAX_GAME_TIME_MS, Settings, SoftDrop};

use super::tbp_seat::{TbpSeat, Turn};
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

    /// The level's pace with the deepest look-ahead that keeps up with it in real time:
    /// the best for 0.5 to 3 PPS, [`Lookahead::FAST`] for unlimited (a piece every 10 ms).
    pub fn strength(self) -> BotStrength {
        BotStrength {
            pace: self.pace(),
            lookahead: match self {
                BotLevel::Unlimited => Lookahead::FAST,
                _ => Lookahead::BEST,
            },
        }
    }

    /// The level's pace with `lookahead`, kept within what the pace allows in real time
    /// (unlimited looks no further than [`Lookahead::FAST`]: the bot plans on the
    /// front end's thread, and a deeper search at 100 pieces a second would freeze it).
    pub fn with_lookahead(self, lookahead: Lookahead) -> BotStrength {
        let fastest = self.strength().lookahead;
        let deeper = |a: Lookahead, b: Lookahead| match (a, b) {
            (Lookahead::Pieces(x), Lookahead::Pieces(y)) => x > y,
            _ => false,
        };
        BotStrength {
            pace: self.pace(),
            lookahead: if deeper(lookahead, fastest) {
                fastest
            } else {
                lookahead
            },
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

/// Who a person plays against: Ludus's bot or a Tetris Bot Protocol bot the user
/// configured (`ludus tetris --tbp-bot CMD`), at a level's pace either way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    Ludus,
    /// A configured TBP bot, by its command line.
    Tbp {
        command: String,
    },
}

/// The longest a live TBP bot thinks on a position, whatever its pace.
pub const MAX_TBP_THINK_MS: u64 = 2_000;

impl Opponent {
    /// The opponent a set-up choice stands for: Ludus's bot first, then the configured
    /// TBP bots (an index past them: Ludus's bot, as for a removed bot).
    pub fn from_choice(choice: usize, bots: &[String]) -> Opponent {
        match choice.checked_sub(1).and_then(|i| bots.get(i)) {
            Some(command) => Opponent::Tbp {
                command: command.clone(),
            },
            None => Opponent::Ludus,
        }
    }

    /// How many choices a set-up offers.
    pub fn choices(bots: &[String]) -> usize {
        1 + bots.len().min(crate::session::programs::MAX_PROGRAMS)
    }

    /// The name menus show: "Ludus's bot" or the TBP bot's program.
    pub fn name(&self) -> String {
        match self {
            Opponent::Ludus => String::from("Ludus's bot"),
            Opponent::Tbp { command } => crate::session::programs::program_name(command, "bot"),
        }
    }

    /// The title above its board: "Bot · Hard (2 PPS) · 5 next pieces",
    /// "cold-clear-2 · Hard (2 PPS)" (a TBP bot looks as far as it likes).
    pub fn title(&self, level: BotLevel, lookahead: Lookahead) -> String {
        match self {
            Opponent::Ludus => format!("Bot · {} · {}", level.label(), lookahead.label()),
            Opponent::Tbp { .. } => format!("{} · {}", self.name(), level.label()),
        }
    }

    /// The side this opponent plays at `strength` (a TBP bot takes its pace). A TBP bot
    /// thinks three fifths of the gap between its pieces (at most [`MAX_TBP_THINK_MS`])
    /// and plays live.
    pub fn side(&self, strength: BotStrength) -> Side {
        let pace = strength.pace;
        match self {
            Opponent::Ludus => Side::Bot(strength),
            Opponent::Tbp { command } => Side::Tbp {
                command: command.clone(),
                pace,
                think_ms: (pace.gap_ms() * 3 / 5).min(MAX_TBP_THINK_MS),
                live: true,
            },
        }
    }
}

/// How far ahead a bot looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lookahead {
    /// The one-piece evaluator of the solo bot, in its attack style (no search).
    Classic,
    /// The versus search over the piece in play and this many pieces of the next queue
    /// (0 to [`Lookahead::MAX`]) and hold.
    Pieces(u8),
}

impl Lookahead {
    /// The deepest look-ahead (the longest preview).
    pub const MAX: u8 = tetris::bot::MAX_DEPTH as u8;

    /// The strongest setting, the default: the whole default preview of five pieces.
    pub const BEST: Lookahead = Lookahead::Pieces(5);

    /// The deepest look-ahead that plans a piece well within [`UNLIMITED_GAP_MS`] on a
    /// loaded machine (the piece in play and hold only: about 0.1 ms a piece).
    pub const FAST: Lookahead = Lookahead::Pieces(0);

    /// The settings menus offer, weakest first.
    pub const ALL: [Lookahead; 5] = [
        Lookahead::Classic,
        Lookahead::Pieces(0),
        Lookahead::Pieces(1),
        Lookahead::Pieces(3),
        Lookahead::Pieces(5),
    ];

    /// Beam width of the search: the boards kept from one piece to the next.
    pub const BEAM: usize = SearchLimits::BEST.beam;

    /// "classic" or the number of pieces, as the CLI takes it.
    pub fn name(self) -> String {
        match self {
            Lookahead::Classic => String::from("classic"),
            Lookahead::Pieces(n) => n.to_string(),
        }
    }

    /// `classic` or a number from 0 to [`Lookahead::MAX`] (any case, spaces trimmed).
    pub fn from_name(name: &str) -> Option<Lookahead> {
        let name = name.trim();
        if name.eq_ignore_ascii_case("classic") {
            return Some(Lookahead::Classic);
        }
        name.parse::<u8>()
            .ok()
            .filter(|&n| n <= Lookahead::MAX)
            .map(Lookahead::Pieces)
    }

    /// "Classic (one piece)", "Current piece only", "1 next piece", "5 next pieces".
    pub fn label(self) -> String {
        match self {
            Lookahead::Classic => String::from("Classic (one piece)"),
            Lookahead::Pieces(0) => String::from("Current piece only"),
            Lookahead::Pieces(1) => String::from("1 next piece"),
            Lookahead::Pieces(n) => format!("{n} next pieces"),
        }
    }

    /// The search limits, `None` for the classic evaluator.
    pub fn limits(self) -> Option<SearchLimits> {
        match self {
            Lookahead::Classic => None,
            Lookahead::Pieces(n) => Some(SearchLimits {
                depth: usize::from(n.min(Lookahead::MAX)),
                beam: Lookahead::BEAM,
            }),
        }
    }
}

impl fmt::Display for Lookahead {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// How well a bot plays: its pace and its look-ahead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BotStrength {
    pub pace: Pace,
    pub lookahead: Lookahead,
}

impl BotStrength {
    /// Ludus's bot for `player` of a game dealt from `seed`; `both_classic` when the
    /// other side is a classic bot too (see "No mirroring").
    fn bot(self, player: Player, seed: u64, both_classic: bool) -> Bot {
        match self.lookahead.limits() {
            None if both_classic && player == Player::Two => Bot::with_weights(Weights::default()),
            None => Bot::with_weights(Weights::attack()),
            Some(limits) => Bot::new()
                .with_limits(limits)
                .with_tie_break(seed.wrapping_mul(2).wrapping_add(player.index() as u64 + 1)),
        }
    }
}

/// Ludus's bot's plan for `game`: the versus search with the game's garbage and chains,
/// or the classic evaluator.
fn ludus_plan(bot: &mut Bot, lookahead: Lookahead, game: &Game) -> Option<Plan> {
    match lookahead {
        Lookahead::Classic => bot.suggest(game),
        Lookahead::Pieces(_) => bot.suggest_versus(game, &Context::of(game)),
    }
}

/// Room kept below [`MAX_VERSUS_INPUTS`]: the game stops (with no winner) before the
/// recorder would refuse a bot's plan half-way.
const INPUT_MARGIN: usize = 1_024;

/// Who plays a side.
#[derive(Clone, Debug, PartialEq)]
pub enum Side {
    /// Keys from a front end.
    Person,
    /// Ludus's bot at this pace and look-ahead.
    Bot(BotStrength),
    /// A TBP bot run by this shell command, at this pace, given `think_ms` of real time
    /// on each position before it is asked for a move. `live`: a front end drives the
    /// game in real time, so a late answer is played when it comes instead of waited for.
    Tbp {
        command: String,
        pace: Pace,
        think_ms: u64,
        live: bool,
    },
}

/// What decides a bot side's pieces.
enum Brain {
    /// Ludus's bot and how far it looks.
    Ludus { bot: Box<Bot>, lookahead: Lookahead },
    /// A TBP bot; `live` as in [`Side::Tbp`].
    Tbp { seat: Box<TbpSeat>, live: bool },
}

/// A bot playing one side, and when its next piece is due.
struct SideBot {
    brain: Brain,
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
    /// Why a side lost outside the rules (a TBP bot failed).
    forfeits: [Option<String>; 2],
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
            handling: sides.each_ref().map(|side| match side {
                Side::Person => handling,
                Side::Bot(_) | Side::Tbp { .. } => bot_handling,
            }),
            ..VersusSettings::default()
        };
        let mut forfeits = [None, None];
        let classic = |side: &Side| matches!(side, Side::Bot(strength) if strength.lookahead == Lookahead::Classic);
        let both_classic = sides.iter().all(classic);
        let bots = [Player::One, Player::Two].map(|player| match &sides[player.index()] {
            Side::Person => None,
            Side::Bot(strength) => Some(SideBot {
                brain: Brain::Ludus {
                    bot: Box::new(strength.bot(player, seed, both_classic)),
                    lookahead: strength.lookahead,
                },
                pace: strength.pace,
                due_ms: strength.pace.gap_ms,
            }),
            Side::Tbp {
                command,
                pace,
                think_ms,
                live,
            } => {
                let mut seat = TbpSeat::launch(command, Duration::from_millis(*think_ms));
                if !live && let Err(why) = seat.wait_launched() {
                    forfeits[player.index()] = Some(why);
                }
                Some(SideBot {
                    brain: Brain::Tbp {
                        seat: Box::new(seat),
                        live: *live,
                    },
                    pace: *pace,
                    due_ms: pace.gap_ms,
                })
            }
        });
        let mut session = VersusSession {
            recorder: VersusRecorder::new(settings, seed),
            sides,
            bots,
            forfeits,
            paused: false,
            held: Vec::new(),
            piece_limit: None,
            inputs: 0,
            saved_replay: None,
        };
        for player in Player::BOTH {
            session.ask_tbp_bot(player);
        }
        session
    }

    /// The name and version a TBP side's bot gave, once it started.
    pub fn tbp_bot_name(&self, player: Player) -> Option<&str> {
        match &self.bots[player.index()].as_ref()?.brain {
            Brain::Tbp { seat, .. } => seat.name(),
            Brain::Ludus { .. } => None,
        }
    }

    /// Lets a TBP side's bot think on its position until its piece is due.
    fn ask_tbp_bot(&mut self, player: Player) {
        let game = self.recorder.versus().game(player);
        if let Some(SideBot {
            brain: Brain::Tbp { seat, .. },
            ..
        }) = self.bots[player.index()].as_mut()
            && game.is_playing()
        {
            seat.ask(game);
        }
    }

    /// The person (player one) against the bot at `level` (player two), looking ahead
    /// as far as it can.
    pub fn against_bot(level: BotLevel, handling: Settings, seed: u64) -> VersusSession {
        VersusSession::against(&Opponent::Ludus, level.strength(), handling, seed)
    }

    /// The person (player one) against `opponent` at `strength` (player two; a TBP
    /// bot takes its pace, the look-ahead is Ludus's).
    pub fn against(
        opponent: &Opponent,
        strength: BotStrength,
        handling: Settings,
        seed: u64,
    ) -> VersusSession {
        VersusSession::new([Side::Person, opponent.side(strength)], handling, seed)
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
    pub fn sides(&self) -> &[Side; 2] {
        &self.sides
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
        !self.versus().is_playing()
            || self.limit_reached()
            || self.forfeits.iter().any(Option::is_some)
    }

    /// Why `player` lost outside the rules (its TBP bot failed), if it did.
    pub fn forfeit(&self, player: Player) -> Option<&str> {
        self.forfeits[player.index()].as_deref()
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
        match &self.forfeits {
            [Some(_), Some(_)] => Some(Outcome::Draw),
            [Some(_), None] => Some(Outcome::Winner(Player::Two)),
            [None, Some(_)] => Some(Outcome::Winner(Player::One)),
            [None, None] => self.versus().outcome(),
        }
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
        let persons = self.sides.each_ref().map(|side| *side == Side::Person);
        let mut inputs = person
            .iter()
            .filter(|(player, _)| persons[player.index()])
            .peekable();
        // Bot sides still thinking at their due time sit out the rest of this update.
        let mut thinking = [false; 2];
        loop {
            if self.is_finished() {
                return;
            }
            let bot_due = self
                .next_bot_due(thinking)
                .filter(|&(_, due)| due <= now_ms);
            let next_input = inputs.peek().map(|(_, input)| input.time_ms);
            match (bot_due, next_input) {
                (Some((player, due)), input_ms) if input_ms.is_none_or(|t| due < t) => {
                    if !self.play_bot(player, due) {
                        thinking[player.index()] = true;
                    }
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

    /// The bot whose piece is due first (player one first on a tie), leaving out the
    /// sides still `thinking`.
    fn next_bot_due(&self, thinking: [bool; 2]) -> Option<(Player, u64)> {
        Player::BOTH
            .into_iter()
            .filter(|p| !thinking[p.index()])
            .filter_map(|p| self.bots[p.index()].as_ref().map(|b| (p, b.due_ms)))
            .min_by_key(|&(player, due)| (due, player))
    }

    /// Plays `player`'s bot piece due at `due_ms`; false when a live TBP bot's answer has
    /// not come yet (the piece stays due).
    fn play_bot(&mut self, player: Player, due_ms: u64) -> bool {
        self.recorder.advance_to(due_ms);
        if !self.recorder.versus().is_playing() {
            return true;
        }
        let time_ms = self.recorder.versus().time_ms().max(due_ms);
        let game = self.recorder.versus().game(player);
        let Some(side) = self.bots[player.index()].as_mut() else {
            return true;
        };
        let plan = match &mut side.brain {
            Brain::Ludus { bot, lookahead } => ludus_plan(bot, *lookahead, game),
            Brain::Tbp { seat, live } => match seat.poll(game, !*live) {
                Turn::Play(plan) => Some(plan),
                Turn::Thinking => return false,
                Turn::Failed(why) => {
                    self.forfeits[player.index()] = Some(why);
                    return true;
                }
            },
        };
        side.due_ms = due_ms.saturating_add(side.pace.gap_ms);
        for input in plan.map(|p| p.input_events(time_ms)).unwrap_or_default() {
            self.record(player, input);
        }
        self.ask_tbp_bot(player);
        true
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
            [Side::Bot(one.strength()), Side::Bot(two.strength())],
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
    fn opponents_are_ludus_then_the_configured_tbp_bots() {
        let bots = vec![String::from("/opt/cc2/cold-clear-2 --x")];
        assert_eq!(Opponent::choices(&bots), 2);
        assert_eq!(Opponent::from_choice(0, &bots), Opponent::Ludus);
        let cc2 = Opponent::from_choice(1, &bots);
        assert_eq!(cc2.name(), "cold-clear-2");
        assert_eq!(
            cc2.title(BotLevel::Hard, Lookahead::BEST),
            "cold-clear-2 · Hard (2 PPS)"
        );
        assert_eq!(
            Opponent::Ludus.title(BotLevel::Easy, Lookahead::Pieces(1)),
            "Bot · Easy (0.5 PPS) · 1 next piece"
        );
        // A removed bot's stored choice falls back to Ludus's bot.
        assert_eq!(Opponent::from_choice(7, &bots), Opponent::Ludus);
        assert_eq!(
            Opponent::Ludus.side(BotLevel::Hard.strength()),
            Side::Bot(BotLevel::Hard.strength())
        );
        let Side::Tbp { think_ms, live, .. } = cc2.side(BotLevel::Hard.strength()) else {
            panic!("a TBP side");
        };
        assert_eq!((think_ms, live), (300, true));
        let Side::Tbp { think_ms, .. } = cc2.side(BotLevel::Easy.strength()) else {
            panic!("a TBP side");
        };
        assert_eq!(think_ms, 1_200);
    }

    #[test]
    fn look_aheads_have_names_labels_and_limits() {
        for lookahead in Lookahead::ALL {
            assert_eq!(Lookahead::from_name(&lookahead.name()), Some(lookahead));
            assert!(!lookahead.label().is_empty());
        }
        assert_eq!(Lookahead::from_name(" Classic"), Some(Lookahead::Classic));
        assert_eq!(Lookahead::from_name("6"), Some(Lookahead::Pieces(6)));
        assert_eq!(Lookahead::from_name("7"), None);
        assert_eq!(Lookahead::from_name("-1"), None);
        assert_eq!(Lookahead::Classic.limits(), None);
        assert_eq!(Lookahead::Pieces(3).limits().map(|l| l.depth), Some(3));
        assert_eq!(Lookahead::Pieces(1).label(), "1 next piece");
        assert_eq!(BotLevel::Hard.strength().lookahead, Lookahead::BEST);
        assert_eq!(BotLevel::Unlimited.strength().lookahead, Lookahead::FAST);
        let lookahead = |level: BotLevel, l| level.with_lookahead(l).lookahead;
        assert_eq!(
            lookahead(BotLevel::Hard, Lookahead::Pieces(3)),
            Lookahead::Pieces(3)
        );
        assert_eq!(
            lookahead(BotLevel::Unlimited, Lookahead::BEST),
            Lookahead::FAST
        );
        assert_eq!(
            lookahead(BotLevel::Unlimited, Lookahead::Classic),
            Lookahead::Classic
        );
        assert_eq!(Lookahead::ALL.last(), Some(&Lookahead::BEST));
    }

    #[test]
    fn looking_ahead_beats_playing_the_piece_alone() {
        let strength = |n| {
            Side::Bot(BotStrength {
                pace: BotLevel::Hard.pace(),
                lookahead: Lookahead::Pieces(n),
            })
        };
        for seed in [1, 2] {
            for (ahead, sides) in [
                (Player::One, [strength(1), strength(0)]),
                (Player::Two, [strength(0), strength(1)]),
            ] {
                let mut session = VersusSession::new(sides, Settings::default(), seed);
                session.update(3_600_000, &[]);
                assert_eq!(
                    session.outcome(),
                    Some(Outcome::Winner(ahead)),
                    "seed {seed}"
                );
            }
        }
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
