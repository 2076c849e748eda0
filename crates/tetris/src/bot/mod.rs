//! A placement bot: it enumerates every reachable placement of the current piece (and of the
//! piece hold would give), evaluates the boards they leave, and returns the best placement
//! with the inputs that reach it.
//!
//! ```
//! use tetris::bot::Bot;
//! use tetris::{Game, Mode, Settings, SoftDrop};
//! let settings = Settings { soft_drop: SoftDrop::Instant, ..Settings::default() };
//! let mut game = Game::new(Mode::Marathon { endless: true }, settings, 1);
//! let mut bot = Bot::new();
//! for _ in 0..50 {
//!     // A hint: where the bot would put the piece.
//!     let plan = bot.suggest(&game).unwrap();
//!     for event in plan.input_events(game.time_ms()) {
//!         game.handle(event);
//!     }
//! }
//! // Or let it play (demo mode): any soft-drop setting works.
//! let mut game = Game::new(Mode::Marathon { endless: true }, Settings::default(), 2);
//! for _ in 0..50 {
//!     assert!(bot.play_piece(&mut game).unwrap().on_target);
//! }
//! assert_eq!(game.pieces(), 50);
//! assert!(game.is_playing());
//! ```

mod board;
mod eval;
mod movegen;
mod search;

use serde::{Deserialize, Serialize};

pub use board::BitBoard;
pub use eval::{VersusWeights, Weights};
pub use search::{Context, MAX_BEAM, MAX_DEPTH, SearchLimits, SearchStats};

use crate::game::{Action, Game, InputEvent};
use crate::matrix::VISIBLE_HEIGHT;
use crate::piece::{ActivePiece, PieceKind};
use crate::scoring::TSpin;
use board::Shapes;
use movegen::{MoveGen, Placement};

/// One step of a bot plan. `SoftDrop` means "drop to the floor without locking": a front end
/// performs it by holding soft drop until the piece lands (or with instant soft drop).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BotMove {
    Left,
    Right,
    RotateCw,
    RotateCcw,
    Rotate180,
    SoftDrop,
    Hold,
    HardDrop,
}

impl BotMove {
    pub fn action(self) -> Action {
        match self {
            BotMove::Left => Action::Left,
            BotMove::Right => Action::Right,
            BotMove::RotateCw => Action::RotateCw,
            BotMove::RotateCcw => Action::RotateCcw,
            BotMove::Rotate180 => Action::Rotate180,
            BotMove::SoftDrop => Action::SoftDrop,
            BotMove::Hold => Action::Hold,
            BotMove::HardDrop => Action::HardDrop,
        }
    }
}

/// The bot's choice for the current piece.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Whether the plan starts with a hold.
    pub hold: bool,
    /// Where the piece ends up (draw it as an outline for a hint).
    pub target: ActivePiece,
    /// The inputs, ending with a hard drop.
    pub moves: Vec<BotMove>,
    pub lines: u32,
    pub t_spin: TSpin,
    pub score: f32,
}

impl Plan {
    /// The plan as taps all at `time_ms`. `SoftDrop` taps reach the floor only with
    /// [`crate::SoftDrop::Instant`]; otherwise hold soft drop until the piece lands.
    pub fn input_events(&self, time_ms: u64) -> Vec<InputEvent> {
        self.moves
            .iter()
            .flat_map(|step| InputEvent::tap(time_ms, step.action()))
            .collect()
    }
}

/// Applies one plan step to the game at its current time. `SoftDrop` taps soft drop until
/// the piece rests, so it reaches the floor with any soft-drop setting.
pub fn apply_move(game: &mut Game, step: BotMove) {
    let now = game.time_ms();
    if step == BotMove::SoftDrop {
        // Each tap moves at least one row while the piece is airborne; 40 rows is the matrix.
        for _ in 0..crate::matrix::HEIGHT {
            let resting = game.active().copied() == game.ghost();
            if resting || !game.is_playing() {
                break;
            }
            for event in InputEvent::tap(now, Action::SoftDrop) {
                game.handle(event);
            }
        }
        return;
    }
    for event in InputEvent::tap(now, step.action()) {
        game.handle(event);
    }
}

/// A piece the bot played with [`Bot::play_piece`].
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedPiece {
    pub plan: Plan,
    /// The piece came to rest exactly where the plan said before the hard drop.
    pub on_target: bool,
}

/// The placement bot. Keeps its search buffers between calls.
///
/// [`Bot::suggest`] is the one-piece evaluator (hints, demos, the solo bot); for versus,
/// [`Bot::suggest_versus`] runs the look-ahead search with [`VersusWeights`].
pub struct Bot {
    shapes: Shapes,
    movegen: MoveGen,
    weights: Weights,
    placements: Vec<Placement>,
    versus: VersusWeights,
    limits: SearchLimits,
    tie_seed: u64,
    search: search::Search,
}

impl Default for Bot {
    fn default() -> Self {
        Bot::new()
    }
}

/// Where a piece enters play, as the game spawns it (with the one-row drop).
fn spawn_on(board: &BitBoard, shapes: &Shapes, kind: PieceKind) -> Option<ActivePiece> {
    let piece = ActivePiece::spawn(kind);
    let shape = shapes.get(kind, piece.rotation);
    if board.collides(shape, piece.x, piece.y) {
        return None;
    }
    if board.collides(shape, piece.x, piece.y - 1) {
        Some(piece)
    } else {
        Some(piece.shifted(0, -1))
    }
}

impl Bot {
    pub fn new() -> Bot {
        Bot::with_weights(Weights::default())
    }

    pub fn with_weights(weights: Weights) -> Bot {
        Bot {
            shapes: Shapes::new(),
            movegen: MoveGen::new(),
            weights,
            placements: Vec::with_capacity(256),
            versus: VersusWeights::default(),
            limits: SearchLimits::BEST,
            tie_seed: 0,
            search: search::Search::default(),
        }
    }

    /// The same bot with these versus search limits.
    pub fn with_limits(mut self, limits: SearchLimits) -> Bot {
        self.limits = limits.clamped();
        self
    }

    /// The same bot with these versus weights.
    pub fn with_versus_weights(mut self, weights: VersusWeights) -> Bot {
        self.versus = weights;
        self
    }

    /// The same bot breaking ties between equal boards by a small noise drawn from `seed`
    /// (0 = none), so that two bots dealt the same pieces do not mirror each other.
    pub fn with_tie_break(mut self, seed: u64) -> Bot {
        self.tie_seed = seed;
        self
    }

    /// The versus search limits.
    pub fn limits(&self) -> SearchLimits {
        self.limits
    }

    /// What the last versus search did (levels, boards expanded, placements, beam width).
    pub fn last_search(&self) -> SearchStats {
        self.search.stats
    }

    /// The versus plan for the game's current piece: a look-ahead search over the next
    /// queue and hold that values attack and cancelling (see [`SearchLimits`]).
    /// `context` says what the board does not (incoming garbage, chains): take it from the
    /// game with [`Context::of`]. `None` when the game is over or nothing fits.
    pub fn suggest_versus(&mut self, game: &Game, context: &Context) -> Option<Plan> {
        if !game.is_playing() {
            return None;
        }
        let board = BitBoard::from_matrix(game.matrix());
        let active = *game.active()?;
        let queue = game.next_queue();
        self.plan_versus(
            &board,
            active,
            game.hold_piece(),
            game.can_hold(),
            &queue,
            context,
        )
    }

    /// The versus plan from explicit inputs (as [`Bot::plan`], plus the context).
    pub fn plan_versus(
        &mut self,
        board: &BitBoard,
        active: ActivePiece,
        hold: Option<PieceKind>,
        can_hold: bool,
        queue: &[PieceKind],
        context: &Context,
    ) -> Option<Plan> {
        let request = search::Request {
            board,
            active,
            hold,
            can_hold,
            queue,
            context,
            limits: self.limits,
            weights: &self.versus,
            tie_seed: self.tie_seed,
        };
        self.search.run(&request, &self.shapes, &mut self.movegen)
    }

    /// The best plan for the game's current piece, `None` when the game is over or no
    /// placement exists.
    pub fn suggest(&mut self, game: &Game) -> Option<Plan> {
        if !game.is_playing() {
            return None;
        }
        let board = BitBoard::from_matrix(game.matrix());
        let active = *game.active()?;
        let queue = game.next_queue();
        self.plan(&board, active, game.hold_piece(), game.can_hold(), &queue)
    }

    /// Plans the current piece and plays it at once (all inputs at the game's current time),
    /// for demos and headless runs. `None` when the game is over or nothing fits.
    pub fn play_piece(&mut self, game: &mut Game) -> Option<PlayedPiece> {
        let plan = self.suggest(game)?;
        let (last, steps) = plan.moves.split_last()?;
        for &step in steps {
            apply_move(game, step);
        }
        let mut landing = game.ghost().map(|piece| piece.cells());
        if let Some(cells) = landing.as_mut() {
            cells.sort_unstable();
        }
        let mut promised = plan.target.cells();
        promised.sort_unstable();
        apply_move(game, *last);
        Some(PlayedPiece {
            on_target: landing == Some(promised),
            plan,
        })
    }

    /// The best plan from explicit inputs: board, piece in play (at its current position),
    /// hold contents, whether hold is allowed, and the visible next queue.
    pub fn plan(
        &mut self,
        board: &BitBoard,
        active: ActivePiece,
        hold: Option<PieceKind>,
        can_hold: bool,
        queue: &[PieceKind],
    ) -> Option<Plan> {
        let next_after_play = queue.first().copied();
        let mut best = self.best_for(board, active, next_after_play, false);
        if can_hold {
            // Holding brings back the held piece, or the next one if hold is empty.
            let (swap_in, next_after) = match hold {
                Some(kind) => (Some(kind), queue.first().copied()),
                None => (queue.first().copied(), queue.get(1).copied()),
            };
            let start = swap_in
                .filter(|&kind| kind != active.kind)
                .and_then(|kind| spawn_on(board, &self.shapes, kind));
            if let Some(start) = start {
                let held = self.best_for(board, start, next_after, true);
                if held.as_ref().map(|p| p.score) > best.as_ref().map(|p| p.score) {
                    best = held;
                }
            }
        }
        best
    }

    /// The best plan for `current` entering play on `board` (at its spawn position, with
    /// the one-row drop), for callers that hold a position rather than a [`Game`] (the
    /// Tetris Bot Protocol). `None` when the piece cannot enter or nothing fits.
    pub fn plan_new_piece(
        &mut self,
        board: &BitBoard,
        current: PieceKind,
        hold: Option<PieceKind>,
        queue: &[PieceKind],
    ) -> Option<Plan> {
        let active = spawn_on(board, &self.shapes, current)?;
        self.plan(board, active, hold, true, queue)
    }

    /// As [`Bot::plan_new_piece`], with the versus search ([`Bot::plan_versus`]) over the
    /// queue and hold in `context`: what a TBP front end asks of Ludus's bot.
    pub fn plan_new_piece_versus(
        &mut self,
        board: &BitBoard,
        current: PieceKind,
        hold: Option<PieceKind>,
        queue: &[PieceKind],
        context: &Context,
    ) -> Option<Plan> {
        let active = spawn_on(board, &self.shapes, current)?;
        self.plan_versus(board, active, hold, true, queue, context)
    }

    /// The inputs that bring a `kind` piece to rest on exactly `cells` (in any rotation
    /// state that covers them) from the game's piece in play, holding first when `kind`
    /// is the piece hold would give: how a front end plays a placement another program
    /// chose. `None` when no reachable placement covers those cells.
    pub fn path_to(&mut self, game: &Game, kind: PieceKind, cells: [(i8, i8); 4]) -> Option<Plan> {
        if !game.is_playing() {
            return None;
        }
        let board = BitBoard::from_matrix(game.matrix());
        let active = *game.active()?;
        let (start, hold) = if active.kind == kind {
            (active, false)
        } else {
            let swap_in = match game.hold_piece() {
                Some(held) => Some(held),
                None => game.next_queue().first().copied(),
            };
            if !game.can_hold() || swap_in != Some(kind) {
                return None;
            }
            (spawn_on(&board, &self.shapes, kind)?, true)
        };
        let mut wanted = cells;
        wanted.sort_unstable();
        let mut placements = std::mem::take(&mut self.placements);
        self.movegen
            .placements(&board, &self.shapes, start, &mut placements);
        let found = placements.iter().find(|placement| {
            let mut covered = placement.piece.cells();
            covered.sort_unstable();
            covered == wanted
        });
        let plan = found.map(|placement| {
            let mut after = board;
            let shape = self
                .shapes
                .get(placement.piece.kind, placement.piece.rotation);
            let (lines, _) = after.place(shape, placement.piece.x, placement.piece.y);
            let mut moves = Vec::new();
            if hold {
                moves.push(BotMove::Hold);
            }
            moves.extend(self.movegen.path(placement));
            Plan {
                hold,
                target: placement.piece,
                moves,
                lines,
                t_spin: placement.t_spin,
                score: 0.0,
            }
        });
        self.placements = placements;
        plan
    }

    fn best_for(
        &mut self,
        board: &BitBoard,
        start: ActivePiece,
        next: Option<PieceKind>,
        hold: bool,
    ) -> Option<Plan> {
        let mut placements = std::mem::take(&mut self.placements);
        self.movegen
            .placements(board, &self.shapes, start, &mut placements);
        let mut best: Option<(f32, usize, u32)> = None;
        for (index, placement) in placements.iter().enumerate() {
            let piece = placement.piece;
            let shape = self.shapes.get(piece.kind, piece.rotation);
            let bottom = piece.y + shape.min_dy;
            let top = piece.y + shape.max_dy;
            if bottom >= VISIBLE_HEIGHT {
                continue; // lock out
            }
            let mut after = *board;
            let (lines, _eroded) = after.place(shape, piece.x, piece.y);
            if next.is_some_and(|kind| spawn_on(&after, &self.shapes, kind).is_none()) {
                continue; // block out for the next piece
            }
            let placed = eval::Move {
                landing_height: f32::from(bottom + top) / 2.0 + 1.0,
                lines,
                t_spin: placement.t_spin,
            };
            let score = eval::evaluate(&after, placed, &self.weights);
            if best.is_none_or(|(s, _, _)| score > s) {
                best = Some((score, index, lines));
            }
        }
        let plan = best.and_then(|(score, index, lines)| {
            let placement = placements.get(index)?;
            let mut moves = Vec::new();
            if hold {
                moves.push(BotMove::Hold);
            }
            moves.extend(self.movegen.path(placement));
            Some(Plan {
                hold,
                target: placement.piece,
                moves,
                lines,
                t_spin: placement.t_spin,
                score,
            })
        });
        self.placements = placements;
        plan
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::Matrix;
    use crate::{Mode, Settings, SoftDrop};

    fn instant() -> Settings {
        Settings {
            soft_drop: SoftDrop::Instant,
            ..Settings::default()
        }
    }

    #[test]
    fn plans_are_executable_and_land_where_promised() {
        for settings in [instant(), Settings::default()] {
            let mut bot = Bot::new();
            let mut game = Game::new(Mode::Marathon { endless: true }, settings, 4);
            for _ in 0..300 {
                let played = bot.play_piece(&mut game).unwrap();
                assert!(played.on_target, "{:?}", played.plan);
                assert!(game.is_playing());
            }
            assert_eq!(game.pieces(), 300);
            assert!(game.lines() > 100, "{}", game.lines());
        }
    }

    #[test]
    fn attack_style_builds_tetrises() {
        let mut bot = Bot::with_weights(Weights::attack());
        let mut game = Game::new(Mode::Marathon { endless: true }, instant(), 12);
        let mut tetrises = 0;
        for _ in 0..400 {
            let played = bot.play_piece(&mut game).unwrap();
            tetrises += u32::from(played.plan.lines == 4);
        }
        assert!(game.is_playing());
        assert!(tetrises >= 10, "{tetrises}");
    }

    #[test]
    fn path_to_reaches_a_chosen_placement_and_refuses_an_unreachable_one() {
        let mut bot = Bot::new();
        let game = Game::new(Mode::Marathon { endless: true }, instant(), 5);
        let active = *game.active().unwrap();
        // The piece in play dropped straight down is reachable.
        let mut landing = game.ghost().unwrap().cells();
        landing.reverse();
        let plan = bot.path_to(&game, active.kind, landing).unwrap();
        assert!(!plan.hold);
        assert_eq!(plan.moves.last(), Some(&BotMove::HardDrop));
        // Floating in mid-air is not a resting place.
        let floating = active.shifted(0, -5).cells();
        assert!(bot.path_to(&game, active.kind, floating).is_none());
        // Another kind is only reachable by holding, when hold gives it.
        let next = game.next_queue()[0];
        let spawned = ActivePiece::spawn(next).cells();
        let bottom = spawned.iter().map(|&(_, y)| y).min().unwrap();
        let held = bot.path_to(&game, next, spawned.map(|(x, y)| (x, y - bottom)));
        if next != active.kind {
            assert!(held.unwrap().hold);
        }
        let other = PieceKind::ALL
            .into_iter()
            .find(|&k| k != active.kind && k != next)
            .unwrap();
        assert!(
            bot.path_to(&game, other, ActivePiece::spawn(other).cells())
                .is_none()
        );
    }

    #[test]
    fn plan_new_piece_spawns_the_current_piece() {
        let mut bot = Bot::new();
        let board = BitBoard::from_matrix(&Matrix::new());
        let plan = bot
            .plan_new_piece(&board, PieceKind::T, None, &[PieceKind::I, PieceKind::O])
            .unwrap();
        assert!(plan.target.y < 2, "{plan:?}");
    }

    #[test]
    fn finds_the_t_spin_double_that_needs_a_kick() {
        let matrix = Matrix::from_text_rows(&["XX..X.....", "X...XXXXXX", "XX.XXXXXXX"]).unwrap();
        let game = Game::with_setup(Mode::Zen, instant(), 1, matrix, &[PieceKind::T]);
        let mut bot = Bot::new();
        let board = BitBoard::from_matrix(game.matrix());
        let active = *game.active().unwrap();
        let plan = bot.plan(&board, active, None, false, &[]).unwrap();
        assert_eq!(plan.t_spin, TSpin::Full);
        assert_eq!(plan.lines, 2);
        let mut game = game;
        for event in plan.input_events(0) {
            game.handle(event);
        }
        assert_eq!(game.lines(), 2);
        assert_eq!(game.last_clear().unwrap().t_spin, TSpin::Full);
    }
}
