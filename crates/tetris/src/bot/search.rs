//! Look-ahead for versus: a beam search over the piece in play, the visible next queue and
//! hold. Each level places one more piece on every board of the beam (with and without
//! holding), scores each new board as the sum of its line of play's rewards (attack by the
//! real attack table with back-to-back and combo, cancelling of incoming garbage, the
//! placements' own terms) plus the leaf board's evaluation, and keeps the best `beam`
//! boards. The first placement of the best leaf is the plan.
//!
//! **Work bound.** A search expands at most `1 + beam × depth` boards, each with at most
//! two move generations (the piece and the piece hold gives), so at most
//! `2 × (1 + beam × depth)` move generations per piece ([`SearchLimits::max_expansions`]).

use super::board::{BitBoard, Shapes};
use super::eval::{self, Move, VersusWeights, Weights};
use super::movegen::{MoveGen, Placement};
use super::{BotMove, Plan, spawn_on};
use crate::attack::Attack;
use crate::game::Game;
use crate::matrix::VISIBLE_HEIGHT;
use crate::piece::{ActivePiece, PieceKind};
use crate::scoring::{Chains, TSpin, score_lock};

/// The deepest look-ahead: the longest preview the settings allow.
pub const MAX_DEPTH: usize = 6;
/// The widest beam.
pub const MAX_BEAM: usize = 512;

/// How far and how wide the versus search looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchLimits {
    /// Pieces looked at beyond the piece in play (0 = the piece in play only); the
    /// search also stops where the visible queue ends.
    pub depth: usize,
    /// Boards kept from one level to the next.
    pub beam: usize,
}

impl SearchLimits {
    /// The limits the versus bot plays with by default (look at the whole preview).
    pub const BEST: SearchLimits = SearchLimits { depth: 5, beam: 48 };

    /// Depth at most [`MAX_DEPTH`], beam between 1 and [`MAX_BEAM`].
    pub fn clamped(self) -> SearchLimits {
        SearchLimits {
            depth: self.depth.min(MAX_DEPTH),
            beam: self.beam.clamp(1, MAX_BEAM),
        }
    }

    /// The most move generations one search can run: `2 × (1 + beam × depth)`.
    pub fn max_expansions(self) -> usize {
        let limits = self.clamped();
        2 * (1 + limits.beam * limits.depth)
    }
}

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits::BEST
    }
}

/// What the bot knows of a versus game beyond its board, piece, hold and queue.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Context {
    /// Garbage lines queued against the bot (the incoming meter, ready and pending).
    pub incoming: u32,
    /// A back-to-back chain is alive.
    pub back_to_back: bool,
    /// The running combo (`None` when the last lock cleared nothing).
    pub combo: Option<u32>,
}

impl Context {
    /// The context a game gives: its garbage meter and its chains.
    pub fn of(game: &Game) -> Context {
        Context {
            incoming: game.garbage_meter().map_or(0, |meter| meter.total()),
            back_to_back: game.back_to_back(),
            combo: game.combo(),
        }
    }
}

/// What the last search did, to check its bounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Levels searched (placements in the longest line of play).
    pub levels: usize,
    /// Boards expanded (move generations run: at most two per board).
    pub expansions: usize,
    /// Placements evaluated.
    pub placements: usize,
    /// The most boards kept at any level.
    pub widest: usize,
    /// The search chose the pressed style (garbage coming or a high stack).
    pub pressed: bool,
}

/// One board in the beam.
#[derive(Clone, Copy, Debug)]
struct Node {
    board: BitBoard,
    hold: Option<PieceKind>,
    /// Index in the piece sequence (piece in play, then the queue) of the next piece.
    next: usize,
    chains: Chains,
    /// Garbage still waiting after the line of play's cancels.
    incoming: u32,
    /// Garbage that rose during the line of play.
    risen: u32,
    /// Sum of the line of play's rewards.
    reward: f32,
    /// `reward` plus the board's evaluation: what the beam sorts by.
    value: f32,
    /// Which first placement the line of play started with.
    root: usize,
}

/// A first placement, with the inputs that reach it.
struct RootChoice {
    hold: bool,
    target: ActivePiece,
    moves: Vec<BotMove>,
    lines: u32,
    t_spin: TSpin,
}

/// The piece a board plays next and what hold and the queue become.
#[derive(Clone, Copy)]
struct Turn {
    start: ActivePiece,
    hold: Option<PieceKind>,
    next: usize,
    held: bool,
}

/// The search's reusable buffers.
#[derive(Default)]
pub(super) struct Search {
    beam: Vec<Node>,
    children: Vec<Node>,
    roots: Vec<RootChoice>,
    placements: Vec<Placement>,
    sequence: Vec<PieceKind>,
    pub(super) stats: SearchStats,
}

/// What one search is asked.
pub(super) struct Request<'a> {
    pub board: &'a BitBoard,
    pub active: ActivePiece,
    pub hold: Option<PieceKind>,
    pub can_hold: bool,
    pub queue: &'a [PieceKind],
    pub context: &'a Context,
    pub limits: SearchLimits,
    pub weights: &'a VersusWeights,
    /// Seeds a small deterministic noise that breaks ties (0 = none).
    pub tie_seed: u64,
}

/// Largest noise added to a board's value by the tie-break.
const TIE_NOISE: f32 = 0.5;

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn noise(seed: u64, piece: &ActivePiece, level: usize) -> f32 {
    if seed == 0 {
        return 0.0;
    }
    let key = (piece.kind.index() as u64)
        | (piece.rotation.index() as u64) << 4
        | ((piece.x as u8) as u64) << 8
        | ((piece.y as u8) as u64) << 16
        | (level as u64) << 24;
    let bits = splitmix(seed ^ splitmix(key)) >> 40;
    bits as f32 / (1u64 << 24) as f32 * TIE_NOISE
}

impl Search {
    /// The best first placement, `None` when nothing can be placed.
    pub(super) fn run(
        &mut self,
        request: &Request<'_>,
        shapes: &Shapes,
        movegen: &mut MoveGen,
    ) -> Option<Plan> {
        let limits = request.limits.clamped();
        self.stats = SearchStats::default();
        self.roots.clear();
        self.beam.clear();
        self.sequence.clear();
        self.sequence.push(request.active.kind);
        self.sequence.extend_from_slice(request.queue);
        let board = request.board;
        let effective = board.height() + request.context.incoming as usize;
        let pressed = effective > request.weights.pressure_height;
        self.stats.pressed = pressed;
        let weights = if pressed {
            request.weights.pressed
        } else {
            request.weights.calm
        };
        let root = Node {
            board: *board,
            hold: request.hold,
            next: 0,
            chains: Chains {
                back_to_back: request.context.back_to_back,
                combo: request.context.combo,
            },
            incoming: request.context.incoming,
            risen: 0,
            reward: 0.0,
            value: 0.0,
            root: 0,
        };
        let levels = (limits.depth + 1).min(self.sequence.len());
        for level in 0..levels {
            self.children.clear();
            let parents = if level == 0 {
                vec![root]
            } else {
                std::mem::take(&mut self.beam)
            };
            for parent in &parents {
                let turns =
                    self.turns(parent, level == 0, request.active, request.can_hold, shapes);
                if turns.iter().all(Option::is_none) {
                    // The queue ran out on this line (it held into an empty hold): it
                    // stays as it is.
                    if parent.next >= self.sequence.len() {
                        self.children.push(*parent);
                    }
                    continue;
                }
                self.stats.expansions += 1;
                for turn in turns.into_iter().flatten() {
                    self.expand(parent, turn, level, shapes, movegen, &weights, request);
                }
            }
            if self.children.is_empty() {
                // Every line dies here: keep the previous level's best.
                self.beam = parents;
                break;
            }
            self.stats.levels = level + 1;
            if self.children.len() > limits.beam {
                self.children
                    .select_nth_unstable_by(limits.beam - 1, |a, b| b.value.total_cmp(&a.value));
                self.children.truncate(limits.beam);
            }
            self.stats.widest = self.stats.widest.max(self.children.len());
            std::mem::swap(&mut self.beam, &mut self.children);
        }
        let best = self
            .beam
            .iter()
            .enumerate()
            .max_by(|(i, a), (j, b)| a.value.total_cmp(&b.value).then(j.cmp(i)))
            .map(|(_, node)| *node)?;
        if self.stats.levels == 0 {
            return None;
        }
        let choice = self.roots.get(best.root)?;
        Some(Plan {
            hold: choice.hold,
            target: choice.target,
            moves: choice.moves.clone(),
            lines: choice.lines,
            t_spin: choice.t_spin,
            score: best.value,
        })
    }

    /// The (at most two) pieces `node` can play: the next one, or the one hold gives.
    fn turns(
        &self,
        node: &Node,
        root: bool,
        active: ActivePiece,
        can_hold: bool,
        shapes: &Shapes,
    ) -> [Option<Turn>; 2] {
        let Some(&current) = self.sequence.get(node.next) else {
            return [None, None];
        };
        let start_of = |kind: PieceKind| {
            if root && kind == active.kind {
                Some(active)
            } else {
                spawn_on(&node.board, shapes, kind)
            }
        };
        let play = start_of(current).map(|start| Turn {
            start,
            hold: node.hold,
            next: node.next + 1,
            held: false,
        });
        if root && !can_hold {
            return [play, None];
        }
        let held = match node.hold {
            Some(kind) if kind != current => {
                spawn_on(&node.board, shapes, kind).map(|start| Turn {
                    start,
                    hold: Some(current),
                    next: node.next + 1,
                    held: true,
                })
            }
            Some(_) => None,
            None => self
                .sequence
                .get(node.next + 1)
                .filter(|&&kind| kind != current)
                .and_then(|&kind| spawn_on(&node.board, shapes, kind))
                .map(|start| Turn {
                    start,
                    hold: Some(current),
                    next: node.next + 2,
                    held: true,
                }),
        };
        [play, held]
    }

    /// Every placement of `turn.start` on `parent`'s board, as children.
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &mut self,
        parent: &Node,
        turn: Turn,
        level: usize,
        shapes: &Shapes,
        movegen: &mut MoveGen,
        weights: &Weights,
        request: &Request<'_>,
    ) {
        let versus = request.weights;
        movegen.placements(&parent.board, shapes, turn.start, &mut self.placements);
        for placement in &self.placements {
            let piece = placement.piece;
            let shape = shapes.get(piece.kind, piece.rotation);
            let bottom = piece.y + shape.min_dy;
            let top = piece.y + shape.max_dy;
            if bottom >= VISIBLE_HEIGHT {
                continue; // lock out
            }
            let mut board = parent.board;
            let (lines, _) = board.place(shape, piece.x, piece.y);
            let next_kind = self.sequence.get(turn.next).copied();
            if next_kind.is_some_and(|kind| spawn_on(&board, shapes, kind).is_none()) {
                continue; // block out for the next piece
            }
            self.stats.placements += 1;
            let height = board.height();
            let perfect_clear = lines > 0 && height == 0;
            let mut chains = parent.chains;
            let report = score_lock(lines, placement.t_spin, perfect_clear, 1, &mut chains);
            let attack = Attack::of(&report).total();
            let (mut incoming, mut risen) = (parent.incoming, parent.risen);
            if lines > 0 {
                incoming -= attack.min(incoming);
            } else {
                // A lock that clears nothing lets the waiting garbage rise.
                risen += incoming;
                incoming = 0;
            }
            let extra = (incoming + risen) as usize;
            let placed = Move {
                landing_height: f32::from(bottom + top) / 2.0 + 1.0,
                lines,
                t_spin: placement.t_spin,
            };
            let reward = parent.reward
                + eval::move_score(placed, height + extra, weights)
                + versus.attack_line * attack as f32;
            let value = reward
                + eval::board_score(&board, weights, extra)
                + versus.back_to_back * f32::from(u8::from(chains.back_to_back))
                + versus.incoming_line * incoming as f32
                + versus.risen_line * risen as f32
                + noise(request.tie_seed, &piece, level);
            let root = if level == 0 {
                self.roots.push(RootChoice {
                    hold: turn.held,
                    target: piece,
                    moves: {
                        let mut moves = Vec::new();
                        if turn.held {
                            moves.push(BotMove::Hold);
                        }
                        moves.extend(movegen.path(placement));
                        moves
                    },
                    lines,
                    t_spin: placement.t_spin,
                });
                self.roots.len() - 1
            } else {
                parent.root
            };
            self.children.push(Node {
                board,
                hold: turn.hold,
                next: turn.next,
                chains,
                incoming,
                risen,
                reward,
                value,
                root,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::Bot;
    use crate::matrix::Matrix;
    use crate::{Mode, Settings, SoftDrop};
    use PieceKind::*;

    fn board(rows: &[&str]) -> BitBoard {
        BitBoard::from_matrix(&Matrix::from_text_rows(rows).unwrap())
    }

    fn limits(depth: usize) -> SearchLimits {
        SearchLimits { depth, beam: 48 }
    }

    /// Plays `pieces` placements from a position by the search's plans, on the bitboard.
    fn play(
        depth: usize,
        mut board: BitBoard,
        sequence: &[PieceKind],
        mut hold: Option<PieceKind>,
        pieces: usize,
    ) -> Vec<Plan> {
        let shapes = Shapes::new();
        let mut bot = Bot::new().with_limits(limits(depth));
        let mut next = 0;
        let mut plans = Vec::new();
        for _ in 0..pieces {
            let active = spawn_on(&board, &shapes, sequence[next]).unwrap();
            let plan = bot
                .plan_versus(
                    &board,
                    active,
                    hold,
                    true,
                    &sequence[next + 1..],
                    &Context::default(),
                )
                .unwrap();
            if plan.hold {
                // An empty hold takes the piece in play and brings the next one.
                next += usize::from(hold.is_none());
                hold = Some(active.kind);
            }
            next += 1;
            let target = plan.target;
            board.place(shapes.get(target.kind, target.rotation), target.x, target.y);
            plans.push(plan);
        }
        plans
    }

    const TSD_LATER: [&str; 4] = [".........L", ".......LLL", "OOZZ...SST", "OOJZZ.SSTT"];

    #[test]
    fn looking_ahead_finds_the_t_spin_double_one_piece_misses() {
        let sequence = [Z, T, J, I, S, L];
        let ahead = play(1, board(&TSD_LATER), &sequence, Some(L), 2);
        assert!(
            ahead
                .iter()
                .any(|p| p.t_spin == TSpin::Full && p.lines == 2),
            "{ahead:?}"
        );
        let greedy = play(0, board(&TSD_LATER), &sequence, Some(L), 2);
        assert!(
            !greedy
                .iter()
                .any(|p| p.t_spin == TSpin::Full && p.lines == 2),
            "{greedy:?}"
        );
    }

    #[test]
    fn hold_brings_in_the_piece_for_a_tetris() {
        let ready = board(&["XXXXXXXXX."; 4]);
        let shapes = Shapes::new();
        let active = spawn_on(&ready, &shapes, S).unwrap();
        for depth in [0, 2, 5] {
            let mut bot = Bot::new().with_limits(limits(depth));
            let plan = bot
                .plan_versus(
                    &ready,
                    active,
                    Some(I),
                    true,
                    &[Z, S, Z, O, S],
                    &Context::default(),
                )
                .unwrap();
            assert!(plan.hold, "depth {depth}: {plan:?}");
            assert_eq!(plan.lines, 4, "depth {depth}");
            assert_eq!(plan.moves.first(), Some(&BotMove::Hold));
            // Hold refused: the S is played.
            let plan = bot
                .plan_versus(
                    &ready,
                    active,
                    Some(I),
                    false,
                    &[Z, S, Z, O, S],
                    &Context::default(),
                )
                .unwrap();
            assert!(!plan.hold);
            assert_eq!(plan.target.kind, S);
        }
    }

    #[test]
    fn the_search_keeps_to_its_depth_and_beam() {
        let settings = Settings {
            soft_drop: SoftDrop::Instant,
            ..Settings::default()
        };
        let mut game = Game::new(Mode::Zen, settings, 3);
        let mut player = Bot::new().with_limits(limits(2));
        for _ in 0..30 {
            for (depth, beam) in [(0, 1), (1, 4), (3, 8), (5, 16), (9, 10_000)] {
                let asked = SearchLimits { depth, beam };
                let mut bot = Bot::new().with_limits(asked);
                let bounded = asked.clamped();
                assert!(bot.suggest_versus(&game, &Context::of(&game)).is_some());
                let stats = bot.last_search();
                assert!(
                    stats.levels >= 1 && stats.levels <= bounded.depth + 1,
                    "{stats:?}"
                );
                assert!(stats.widest <= bounded.beam, "{stats:?}");
                assert!(
                    stats.expansions <= 1 + bounded.beam * bounded.depth,
                    "{stats:?}"
                );
                assert!(2 * stats.expansions <= asked.max_expansions());
            }
            let plan = player.suggest_versus(&game, &Context::of(&game)).unwrap();
            for event in plan.input_events(game.time_ms()) {
                game.handle(event);
            }
        }
        assert_eq!(
            SearchLimits { depth: 9, beam: 0 }.clamped(),
            SearchLimits {
                depth: MAX_DEPTH,
                beam: 1
            }
        );
        // The queue bounds the depth too.
        let empty = board(&[]);
        let shapes = Shapes::new();
        let mut bot = Bot::new().with_limits(limits(5));
        let active = spawn_on(&empty, &shapes, T).unwrap();
        bot.plan_versus(&empty, active, None, false, &[I, O], &Context::default())
            .unwrap();
        assert_eq!(bot.last_search().levels, 3);
    }

    #[test]
    fn the_search_is_deterministic() {
        let settings = Settings {
            soft_drop: SoftDrop::Instant,
            ..Settings::default()
        };
        let run = |tie_seed: u64| {
            let mut game = Game::new(Mode::Zen, settings, 9);
            let mut bot = Bot::new().with_limits(limits(3)).with_tie_break(tie_seed);
            let mut targets = Vec::new();
            for _ in 0..40 {
                let plan = bot.suggest_versus(&game, &Context::of(&game)).unwrap();
                targets.push(plan.target);
                for event in plan.input_events(game.time_ms()) {
                    game.handle(event);
                }
            }
            targets
        };
        assert_eq!(run(0), run(0));
        assert_eq!(run(7), run(7));
        assert_ne!(run(0), run(7), "the tie-break changes some choices");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(8))]
        /// Every plan, played as inputs, lands the piece where the plan says.
        #[test]
        fn every_plan_is_reachable_and_legal(seed in 0u64..1_000_000, depth in 0usize..4) {
            let settings = Settings { soft_drop: SoftDrop::Instant, ..Settings::default() };
            let mut game = Game::new(Mode::Zen, settings, seed)
                .with_garbage(crate::garbage::GarbageRules::default(), seed);
            let mut bot = Bot::new().with_limits(SearchLimits { depth, beam: 8 });
            for piece in 0..60u64 {
                if piece % 10 == 9 {
                    game.receive_garbage(3, game.time_ms());
                }
                let plan = bot.suggest_versus(&game, &Context::of(&game)).unwrap();
                let before = game.pieces();
                let (last, steps) = plan.moves.split_last().unwrap();
                proptest::prop_assert_eq!(*last, BotMove::HardDrop);
                for &step in steps {
                    crate::bot::apply_move(&mut game, step);
                }
                let mut landing = game.ghost().unwrap().cells();
                landing.sort_unstable();
                let mut promised = plan.target.cells();
                promised.sort_unstable();
                proptest::prop_assert_eq!(landing, promised);
                proptest::prop_assert_eq!(game.active().unwrap().kind, plan.target.kind);
                crate::bot::apply_move(&mut game, *last);
                proptest::prop_assert_eq!(game.pieces(), before + 1);
                proptest::prop_assert!(game.is_playing());
            }
        }
    }

    #[test]
    fn incoming_garbage_turns_building_into_digging() {
        // A calm bot keeps its well and does not burn the single; with garbage coming,
        // it clears (cancelling is worth more than the shape).
        let rows = [
            "XXXX..XXXX",
            "XXXXX.XXXX",
            "XXXXXXXX.X",
            "XXXXXXXX.X",
            "XXXXXXXX.X",
        ];
        let start = board(&rows);
        let shapes = Shapes::new();
        let active = spawn_on(&start, &shapes, O).unwrap();
        let mut bot = Bot::new().with_limits(limits(0));
        let calm = bot
            .plan_versus(&start, active, None, false, &[], &Context::default())
            .unwrap();
        assert!(!bot.last_search().pressed);
        let attacked = Context {
            incoming: 8,
            ..Context::default()
        };
        let pressed = bot
            .plan_versus(&start, active, None, false, &[], &attacked)
            .unwrap();
        assert!(bot.last_search().pressed);
        assert_eq!(calm.lines, 0, "{calm:?}");
        assert!(pressed.lines > 0, "{pressed:?}");
    }
}
