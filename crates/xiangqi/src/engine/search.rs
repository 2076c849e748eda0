//! Iterative deepening principal-variation search.
//!
//! Alpha-beta with aspiration windows, a transposition table, quiescence search
//! (captures that lose the exchange on their square, by [`super::see()`], left out),
//! null-move pruning (not in check, not in pure-defence endings, not twice in a
//! row), reverse futility, futility and move-count pruning near the leaves,
//! late-move reductions, check extensions and mate-distance pruning; the
//! pruning decisions read the table's score instead of the static evaluation
//! where the table's bound says it is nearer the truth. Moves are
//! generated pseudo-legally and tested for legality one at a time, just before
//! they are searched.
//!
//! Rules inside the search: a repeated position (first repetition) is judged as
//! [`crate::Game`] judges it, so perpetual check and perpetual chase lose and
//! other repetitions draw; chases are only worked out when a repetition is
//! found, which is rare. The 60-move rule draws too. Checkmate and stalemate
//! both lose for the side to move.
//!
//! Endgame tablebases (when given, [`Engine::set_tablebases`], and at full
//! skill): a position below the root whose material a table covers gets the
//! table's exact score (mate distances counted from the root) and is not
//! searched further; the repetition and move-limit rules are applied before,
//! so the game's history still decides first. At the root a won or lost
//! position is played from the table (the quickest mate, the longest defence)
//! without a search, except that a move ending the game by the rules (a
//! repetition verdict from the game's history) gets the rules' result, and a
//! win that would go back to a position already played yields to one that
//! does not; a drawn one is searched among the drawing moves only, with the
//! tables probed below it only once a piece has been taken (otherwise every
//! line would score 0 and the engine would stop trying).
//!
//! MultiPV (as Stockfish does it): with k lines, each iteration searches line
//! 1 over every root move, then line i over the root moves lines 1..i-1 do
//! not start with, each in an aspiration window around its own last score;
//! the lines are reported best first once the iteration is complete. With
//! one line the search is exactly the single-line search.

use super::evaluate::{evaluate, has_attackers};
use super::ordering::{Context, Heuristics, MAX_PLY, PieceTo, pick, piece_to};
use super::pst::value;
use super::see::loses_exchange;
use super::time::{Limits, TimeBudget};
use super::tt::{Bound, Hit, TranspositionTable};
use crate::game::Game;
use crate::moves::{MAX_MOVES, Move, MoveList};
use crate::position::{Position, Undo};
use crate::rules::Outcome;
use crate::tablebase::{Tablebases, Verdict};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// Score of being mated right now; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 30000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1000;
/// Entries in the evaluation cache (a power of two).
const EVAL_CACHE: usize = 1 << 12;
/// Most lines a search reports (UCI `MultiPV`).
pub const MAX_MULTI_PV: usize = 10;
/// Highest skill level (no handicap).
pub const MAX_SKILL: u8 = 20;
/// Most search threads (UCI `Threads`).
pub const MAX_THREADS: usize = 64;
const INF: i32 = MATE + 1;

/// A score as protocols report it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// Centipawns from the side to move's view.
    Cp(i32),
    /// Mate in this many moves (negative: getting mated).
    Mate(i32),
}

impl Score {
    /// Converts an internal score.
    pub fn from_internal(v: i32) -> Score {
        if v > MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v < -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }
}

/// Progress after each completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Which line this is, 1 for the best (UCI's `multipv`).
    pub multipv: u32,
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    /// Milliseconds since the search started (from the caller's clock).
    pub elapsed_ms: u64,
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` only if there is no legal move.
    pub best: Option<Move>,
    /// The expected reply, if known.
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
    /// Whether the move came from the opening book.
    pub from_book: bool,
}

/// One line of a search: its score, principal variation and selective depth.
#[derive(Clone, Debug)]
struct RootLine {
    score: i32,
    pv: Vec<Move>,
    seldepth: u32,
}

impl SearchResult {
    /// Takes a finished line as the answer, if it starts with a legal move.
    fn take(&mut self, line: &RootLine, depth: u32, legal: &MoveList) {
        if let Some(&best) = line.pv.first().filter(|m| legal.contains(**m)) {
            self.best = Some(best);
            self.ponder = line.pv.get(1).copied();
            self.score = Score::from_internal(line.score);
            self.depth = depth;
            self.pv = line.pv.clone();
        }
    }
}

/// The engine: transposition table and move-ordering state that persist across
/// searches of one game.
pub struct Engine {
    tt: TranspositionTable,
    heur: Heuristics,
    book: Option<super::book::Book>,
    book_seed: u64,
    skill: u8,
    /// Lines searched and reported (UCI `MultiPV`), at least 1.
    multi_pv: usize,
    eval_cache: Vec<(u64, i32)>,
    tablebases: Option<Arc<Tablebases>>,
    /// What the helper threads keep between searches (one per thread after
    /// the first, see [`Engine::set_threads`]).
    helpers: Vec<Helper>,
}

/// A helper thread's own move-ordering state and evaluation cache.
struct Helper {
    heur: Heuristics,
    eval_cache: Vec<(u64, i32)>,
}

impl Helper {
    fn new() -> Helper {
        Helper {
            heur: Heuristics::new(),
            eval_cache: vec![(0, 0); EVAL_CACHE],
        }
    }
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(16)
    }
}

/// State of one search.
struct Search<'a> {
    shared: Shared<'a>,
    heur: &'a mut Heuristics,
    stop_flag: &'a AtomicBool,
    /// This thread's number, 0 for the main thread.
    thread: usize,
    /// This thread's nodes already added to the shared count, and the
    /// shared count as it was then.
    flushed: u64,
    seen: u64,
    elapsed: &'a dyn Fn() -> u64,
    budget: TimeBudget,
    node_limit: u64,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// Static evaluations by key (direct-mapped).
    eval_cache: &'a mut Vec<(u64, i32)>,
    /// Amplitude of evaluation noise (weaker skill levels), and its seed.
    noise: i32,
    noise_seed: u64,
    /// The line from the game's start to the current node.
    path: Path,
    /// Moves searched at the root (legal, allowed by the limits, not
    /// starting an earlier line of this iteration).
    root_moves: MoveList,
    /// The line being searched, 0 for the best (MultiPV).
    pv_index: usize,
    /// The root move tried first instead of the table's (lines after the first).
    root_hint: Option<Move>,
    /// The move a singular-extension search leaves out, by ply.
    excluded: Vec<Option<Move>>,
    /// The depth of the iteration under way (extensions stop at twice it).
    root_depth: i32,
    pv: Vec<Vec<Move>>,
    /// Static evaluation at each ply of the current line (-INF in check).
    evals: Vec<i32>,
}

/// What the threads of one search share.
#[derive(Clone, Copy)]
struct Shared<'a> {
    tt: &'a TranspositionTable,
    /// Every thread's nodes, each adding its own now and then.
    nodes: &'a AtomicU64,
    /// Tables to probe below the root, and the most pieces a probed position
    /// may have.
    tablebases: Option<&'a Tablebases>,
    probe_pieces: u32,
    /// The deepest iteration a helper completed, and its line.
    deepest: &'a Mutex<Option<(u32, RootLine)>>,
}

/// The positions from the game's start to the node being searched, one
/// entry each: what the repetition and move-limit rules and the
/// continuation histories read.
#[derive(Clone)]
struct Path {
    /// The positions' keys.
    keys: Vec<u64>,
    /// Whether the move leading to the position at the same index gave check.
    checks: Vec<bool>,
    /// Whether that move was a capture or a null move.
    irreversible: Vec<bool>,
    /// The move leading to the position (None for the start and null moves),
    /// with what is needed to take it back when judging a cycle.
    moves: Vec<Option<(Move, Undo)>>,
    /// The moved piece and destination of that move, for the continuation
    /// histories (None for null moves and where not known).
    piece_tos: Vec<Option<PieceTo>>,
}

impl Path {
    /// The game's moves so far.
    fn of_game(game: &Game) -> Path {
        let plies = game.plies();
        let mut path = Path {
            keys: vec![game.start_position().key()],
            checks: vec![false],
            irreversible: vec![true],
            moves: vec![None],
            piece_tos: vec![None],
        };
        for p in plies {
            path.push(p.key, p.check, p.capture, Some((p.mv, p.undo)), None);
        }
        // The pieces of the last two moves still stand on their destinations
        // (unless the last move took the one before it).
        let board = &game.position().board;
        let n = path.piece_tos.len();
        for (back, p) in plies.iter().rev().take(2).enumerate() {
            let to = p.mv.to.index();
            let taken = back == 1 && plies.last().is_some_and(|l| l.mv.to == p.mv.to);
            if board[to] != 0 && !taken {
                path.piece_tos[n - 1 - back] = Some((board[to] as usize & 15) * 90 + to);
            }
        }
        path
    }

    fn push(
        &mut self,
        key: u64,
        check: bool,
        irreversible: bool,
        mv: Option<(Move, Undo)>,
        piece_to: Option<PieceTo>,
    ) {
        self.keys.push(key);
        self.checks.push(check);
        self.irreversible.push(irreversible);
        self.moves.push(mv);
        self.piece_tos.push(piece_to);
    }

    fn pop(&mut self) {
        self.keys.pop();
        self.checks.pop();
        self.irreversible.pop();
        self.moves.pop();
        self.piece_tos.pop();
    }

    /// The last two moves, for the continuation histories.
    fn context(&self) -> Context {
        let n = self.piece_tos.len();
        Context {
            prev: n.checked_sub(1).and_then(|i| self.piece_tos[i]),
            prev2: n.checked_sub(2).and_then(|i| self.piece_tos[i]),
        }
    }
}

impl Engine {
    /// An engine with a transposition table of `hash_mb` megabytes and the
    /// built-in opening book switched on.
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            tt: TranspositionTable::new(hash_mb),
            heur: Heuristics::new(),
            book: Some(super::book::Book::builtin()),
            book_seed: 0x2545_F491_4F6C_DD1D,
            skill: MAX_SKILL,
            multi_pv: 1,
            eval_cache: vec![(0, 0); EVAL_CACHE],
            tablebases: None,
            helpers: Vec::new(),
        }
    }

    /// Searches with `threads` threads (clamped to 1..=[`MAX_THREADS`]):
    /// the main thread and helpers that search the same position at once,
    /// sharing only the transposition table ("lazy SMP"); the main thread's
    /// answer is played (found sooner for what the helpers stored), or a
    /// helper's if it completed a deeper iteration.
    pub fn set_threads(&mut self, threads: usize) {
        let helpers = threads.clamp(1, MAX_THREADS) - 1;
        self.helpers.truncate(helpers);
        while self.helpers.len() < helpers {
            self.helpers.push(Helper::new());
        }
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Uses these endgame tables (or none) in the searches that follow.
    pub fn set_tablebases(&mut self, tablebases: Option<Arc<Tablebases>>) {
        self.tablebases = tablebases;
    }

    /// The endgame tables in use.
    pub fn tablebases(&self) -> Option<&Arc<Tablebases>> {
        self.tablebases.as_ref()
    }

    /// Resizes (and clears) the transposition table, clamped to
    /// 1..=[`MAX_HASH_MB`](super::MAX_HASH_MB); aborts if the memory cannot be
    /// had (see [`Engine::try_set_hash`]).
    pub fn set_hash(&mut self, mb: usize) {
        self.tt = TranspositionTable::new(mb);
    }

    /// Resizes (and clears) the transposition table to `mb` megabytes, keeping
    /// the old table if the new one cannot be had; `cancel` is asked between
    /// chunks of the fill whether to give up.
    ///
    /// # Errors
    ///
    /// The [`HashError`](super::HashError) of
    /// [`TranspositionTable::try_new`]; the old table is kept.
    pub fn try_set_hash(
        &mut self,
        mb: usize,
        cancel: &dyn Fn() -> bool,
    ) -> Result<(), super::HashError> {
        self.tt = TranspositionTable::try_new(mb, cancel)?;
        Ok(())
    }

    /// The transposition table's size in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// How full the transposition table is with entries of the last search,
    /// in permille (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Forgets everything learned (for a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.eval_cache.iter_mut().for_each(|e| *e = (0, 0));
        self.heur = Heuristics::new();
        let threads = self.threads();
        self.helpers.clear();
        self.set_threads(threads);
    }

    /// Uses the given book, or none.
    pub fn set_book(&mut self, book: Option<super::book::Book>) {
        self.book = book;
    }

    /// Switches the built-in book on or off.
    pub fn set_own_book(&mut self, on: bool) {
        self.book = on.then(super::book::Book::builtin);
    }

    /// Playing strength 0..=20 (20 = full strength, the default). Lower levels
    /// search less deeply and add seeded noise to the evaluation.
    pub fn set_skill_level(&mut self, level: u8) {
        self.skill = level.min(MAX_SKILL);
    }

    /// How many lines to search and report (UCI `MultiPV`), clamped to
    /// 1..=[`MAX_MULTI_PV`]. The lines after the first are the best of the
    /// root moves the earlier lines do not start with.
    pub fn set_multi_pv(&mut self, lines: usize) {
        self.multi_pv = lines.clamp(1, MAX_MULTI_PV);
    }

    /// Lines searched and reported.
    pub fn multi_pv(&self) -> usize {
        self.multi_pv
    }

    /// The skill level (see [`Engine::set_skill_level`]).
    pub fn skill_level(&self) -> u8 {
        self.skill
    }

    /// Seeds the choice among book moves and the noise of weaker skill levels
    /// (the engine has no RNG of its own).
    pub fn set_book_seed(&mut self, seed: u64) {
        self.book_seed = seed;
    }

    /// Searches the current position of a game (its history is used for
    /// repetitions). `stop` aborts promptly; `elapsed_ms` tells the time since the
    /// search started; `on_info` hears about each completed iteration.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        elapsed_ms: &dyn Fn() -> u64,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let root = game.position().clone();
        let mut legal = root.legal_moves();
        let all_legal = !legal.is_empty();
        legal.retain(|m| {
            (limits.search_moves.is_empty() || limits.search_moves.contains(&m))
                && !limits.ban_moves.contains(&m)
        });
        let mut result = SearchResult {
            best: legal.first().copied(),
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            from_book: false,
        };
        if legal.is_empty() {
            // No legal move loses; if all were excluded there is nothing to play.
            result.score = if all_legal {
                Score::Cp(0)
            } else {
                Score::Mate(0)
            };
            return result;
        }
        // splitmix64 step: deterministic variety between searches.
        self.book_seed = self.book_seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let random = mix(self.book_seed);
        // An analyst asking for several lines wants them searched and scored.
        if let Some(book) = self.book.as_ref().filter(|_| self.multi_pv == 1)
            && let Some(m) = book.pick(&root, random).filter(|m| legal.contains(*m))
        {
            result.best = Some(m);
            result.pv = vec![m];
            result.from_book = true;
            return result;
        }
        // Endgame tables decide won and lost positions at the root (at full
        // strength only: weaker levels keep their weakness in endings too).
        let tables = self
            .tablebases
            .as_deref()
            .filter(|_| self.skill == MAX_SKILL);
        let mut probe_pieces = tables.map_or(0, |t| t.max_pieces());
        if let Some(tb) = tables
            && self.multi_pv == 1
            && let Some(ranked) = tb.rank_moves(&root)
        {
            // The game's history comes first: a move that ends the game (by
            // the repetition rules, the move limit or mate) gets the rules'
            // verdict, and a win that goes back to a position already played
            // (which could let the opponent claim a repetition) yields to one
            // that does not.
            let us = root.turn();
            let seen: Vec<u64> = std::iter::once(game.start_position().key())
                .chain(game.plies().iter().map(|p| p.key))
                .collect();
            let mut ranked: Vec<(Move, Verdict, bool)> = ranked
                .into_iter()
                .filter(|&(m, _)| legal.contains(m))
                .filter_map(|(m, v)| {
                    let mut g = game.clone();
                    g.play(m).ok()?;
                    let v = match g.result() {
                        Some(r) => match r.outcome {
                            Outcome::Win(c) if c == us => Verdict::Win(1),
                            Outcome::Win(_) => Verdict::Loss(0),
                            Outcome::Draw => Verdict::Draw,
                        },
                        None => v,
                    };
                    let fresh = !seen.contains(&g.position().key());
                    Some((m, v, fresh))
                })
                .collect();
            ranked.sort_by_key(|&(_, v, fresh)| {
                std::cmp::Reverse((matches!(v, Verdict::Win(_)) && fresh, v.rank()))
            });
            let ranked: Vec<(Move, Verdict)> = ranked.into_iter().map(|(m, v, _)| (m, v)).collect();
            match ranked.first() {
                Some(&(m, v @ (Verdict::Win(_) | Verdict::Loss(_)))) => {
                    let score = match v {
                        Verdict::Win(d) => MATE - d as i32,
                        Verdict::Loss(d) => -MATE + d as i32,
                        Verdict::Draw => 0,
                    };
                    result.best = Some(m);
                    result.pv = table_line(tb, &root, m);
                    result.ponder = result.pv.get(1).copied();
                    result.score = Score::from_internal(score);
                    result.depth = 1;
                    on_info(&SearchInfo {
                        multipv: 1,
                        depth: 1,
                        seldepth: result.pv.len() as u32,
                        score: result.score,
                        nodes: 0,
                        elapsed_ms: elapsed_ms(),
                        pv: result.pv.clone(),
                    });
                    return result;
                }
                Some(&(_, Verdict::Draw)) => {
                    legal.retain(|m| ranked.contains(&(m, Verdict::Draw)));
                    // Searched with the evaluation until a piece is taken.
                    probe_pieces = (root.occupied[0] | root.occupied[1])
                        .count_ones()
                        .saturating_sub(1);
                    result.best = legal.first().copied();
                }
                None => {}
            }
        }
        self.tt.new_search();
        self.heur.age();
        let mut max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8);
        if self.skill < MAX_SKILL {
            max_depth = max_depth.min(1 + self.skill as u32 / 2);
        }
        // With a clock running, a forced move is played without thinking.
        if legal.len() == 1 && limits.time.is_some() && !limits.infinite {
            max_depth = 1;
        }
        // Helpers at full strength only (weaker levels are meant to be weak),
        // and not for a forced move.
        let helpers = if self.skill == MAX_SKILL && max_depth > 1 {
            self.helpers.len()
        } else {
            0
        };
        let nodes = AtomicU64::new(0);
        // Set when the main thread is done: the helpers stop.
        let done = AtomicBool::new(false);
        let deepest = Mutex::new(None);
        let shared = Shared {
            tt: &self.tt,
            nodes: &nodes,
            tablebases: tables,
            probe_pieces,
            deepest: &deepest,
        };
        let path = Path::of_game(game);
        let mut s = Search::new(
            shared,
            0,
            &mut self.heur,
            &mut self.eval_cache,
            stop,
            path.clone(),
            legal.clone(),
        );
        s.elapsed = elapsed_ms;
        s.budget = TimeBudget::new(limits);
        let node_limit = limits.nodes.unwrap_or(u64::MAX);
        s.node_limit = node_limit;
        s.noise = (MAX_SKILL - self.skill) as i32 * 15;
        s.noise_seed = random;
        let mut pos = root;
        // Fewer lines than asked for when there are fewer moves to start them.
        let wanted = self.multi_pv.min(legal.len());
        std::thread::scope(|scope| {
            for (i, helper) in self.helpers.iter_mut().take(helpers).enumerate() {
                let (path, root, root_moves, done) =
                    (path.clone(), pos.clone(), legal.clone(), &done);
                scope.spawn(move || {
                    helper.heur.age();
                    let Helper { heur, eval_cache } = helper;
                    let mut h =
                        Search::new(shared, i + 1, heur, eval_cache, done, path, root_moves);
                    h.node_limit = node_limit;
                    h.help(root, max_depth);
                });
            }
            // The lines of the last completed iteration, best first: their scores
            // centre the next aspiration windows, their first moves order the roots.
            let mut last: Vec<RootLine> = Vec::new();
            for depth in 1..=max_depth {
                let mut lines: Vec<RootLine> = Vec::with_capacity(wanted);
                for index in 0..wanted {
                    s.seldepth = 0;
                    s.pv_index = index;
                    // Line i is the best of the root moves lines 1..i-1 do not start with.
                    if index > 0 {
                        s.root_moves = legal.clone();
                        s.root_moves
                            .retain(|m| !lines.iter().any(|l| l.pv.first() == Some(&m)));
                    }
                    // Its own last first move leads the roots (the table's root
                    // entry belongs to line 1).
                    s.root_hint = last
                        .get(index)
                        .filter(|_| index > 0)
                        .and_then(|l| l.pv.first().copied());
                    let prev = last.get(index).map(|l| l.score);
                    let score = s.aspiration(&mut pos, depth, prev);
                    // An unfinished line is no line, except the first at depth 1
                    // (nothing better is known yet).
                    if s.stopped && (depth > 1 || index > 0) {
                        break;
                    }
                    lines.push(RootLine {
                        score,
                        pv: s.pv[0].clone(),
                        seldepth: s.seldepth as u32,
                    });
                    if s.stopped {
                        break;
                    }
                }
                s.root_moves = legal.clone();
                if s.stopped && depth > 1 {
                    match lines.first() {
                        // Line 1 finished at this depth: it is the best answer.
                        Some(line) => result.take(line, depth, &legal),
                        // Root moves that completed in the unfinished iteration and
                        // beat the window are better than the last full answer.
                        None => {
                            if let Some(&best) = s.pv[0].first().filter(|m| legal.contains(**m)) {
                                if result.best != Some(best) {
                                    result.ponder = s.pv[0].get(1).copied();
                                    result.pv = s.pv[0].clone();
                                }
                                result.best = Some(best);
                            }
                        }
                    }
                    break;
                }
                // A later line can come back above an earlier one (its own window,
                // a fuller table): best first, as the lines are reported.
                lines.sort_by_key(|l| std::cmp::Reverse(l.score));
                if let Some(line) = lines.first() {
                    result.take(line, depth, &legal);
                }
                result.nodes = s.total_nodes();
                let elapsed = (s.elapsed)();
                for (i, line) in lines.iter().enumerate() {
                    on_info(&SearchInfo {
                        multipv: i as u32 + 1,
                        depth,
                        seldepth: line.seldepth,
                        score: Score::from_internal(line.score),
                        nodes: result.nodes,
                        elapsed_ms: elapsed,
                        pv: line.pv.clone(),
                    });
                }
                if s.stopped {
                    break;
                }
                // Found mates will not get shorter by searching deeper than needed.
                let mated = |l: &RootLine| {
                    l.score.abs() > MATE_BOUND && (MATE - l.score.abs()) as u32 <= depth
                };
                if !lines.is_empty() && lines.iter().all(mated) {
                    break;
                }
                last = lines;
                if let Some(soft) = s.budget.soft
                    && (s.elapsed)() >= soft
                {
                    break;
                }
            }
            done.store(true, Ordering::Relaxed);
        });
        s.flush_nodes();
        result.nodes = nodes.load(Ordering::Relaxed);
        // A helper that completed a deeper iteration than the main thread
        // knows better (with one line: the helpers search only the first).
        let deepest = deepest.into_inner().unwrap_or_else(PoisonError::into_inner);
        if let Some((depth, line)) = deepest
            && wanted == 1
            && depth > result.depth
        {
            result.take(&line, depth, &legal);
            on_info(&SearchInfo {
                multipv: 1,
                depth,
                seldepth: line.seldepth,
                score: result.score,
                nodes: result.nodes,
                elapsed_ms: elapsed_ms(),
                pv: line.pv.clone(),
            });
        }
        result
    }

    /// Convenience: searches a bare position (no game history).
    pub fn search_position(&mut self, pos: &Position, limits: &Limits) -> SearchResult {
        let game = Game::from_position(pos.clone());
        let stop = AtomicBool::new(false);
        self.search(&game, limits, &stop, &|| 0, &mut |_| {})
    }
}

/// The line the tables give after `first`: best moves for both sides until
/// mate (at most [`MAX_PLY`] plies).
fn table_line(tb: &Tablebases, root: &Position, first: Move) -> Vec<Move> {
    let mut pos = root.clone();
    let mut line = vec![first];
    pos.make_move(first);
    while line.len() < MAX_PLY {
        match tb.best_moves(&pos) {
            Some((_, moves)) if !moves.is_empty() => {
                pos.make_move(moves[0]);
                line.push(moves[0]);
            }
            _ => break,
        }
    }
    line
}

/// Late-move reduction for a move searched `i`-th at `depth`.
fn lmr(depth: i32, i: usize) -> i32 {
    let r = 0.5 + (depth as f64).ln() * (i as f64).ln() / 2.0;
    r as i32
}

/// splitmix64 output function.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A search's clock when the caller gives none (helper threads).
fn no_clock() -> u64 {
    0
}

impl<'a> Search<'a> {
    /// A thread's search of the root, with no limits (the caller sets them)
    /// and no evaluation noise.
    fn new(
        shared: Shared<'a>,
        thread: usize,
        heur: &'a mut Heuristics,
        eval_cache: &'a mut Vec<(u64, i32)>,
        stop_flag: &'a AtomicBool,
        path: Path,
        root_moves: MoveList,
    ) -> Search<'a> {
        Search {
            shared,
            heur,
            stop_flag,
            thread,
            flushed: 0,
            seen: 0,
            elapsed: &no_clock,
            budget: TimeBudget {
                soft: None,
                hard: None,
            },
            node_limit: u64::MAX,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            eval_cache,
            noise: 0,
            noise_seed: 0,
            path,
            root_moves,
            pv_index: 0,
            root_hint: None,
            excluded: vec![None; MAX_PLY + 1],
            root_depth: 0,
            pv: vec![Vec::new(); MAX_PLY + 1],
            evals: vec![-INF; MAX_PLY + 1],
        }
    }

    /// Searches the root at `depth` in an aspiration window around `prev`
    /// (the line's last score, once stable), widening it until the score is
    /// inside; the score is meaningless if the search stopped.
    fn aspiration(&mut self, pos: &mut Position, depth: u32, prev: Option<i32>) -> i32 {
        let mut delta = 40;
        let (mut alpha, mut beta) = match prev {
            Some(prev) if depth >= 4 && prev.abs() < MATE_BOUND => (prev - delta, prev + delta),
            _ => (-INF, INF),
        };
        self.root_depth = depth as i32;
        loop {
            let v = self.negamax(pos, depth as i32, alpha, beta, 0, true);
            if self.stopped {
                return v;
            }
            if v <= alpha {
                alpha = (alpha - delta).max(-INF);
            } else if v >= beta {
                beta = (beta + delta).min(INF);
            } else {
                return v;
            }
            delta *= 2;
            if delta > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// Static evaluation (cached by key), with seeded noise at weaker skill levels.
    fn eval(&mut self, pos: &Position) -> i32 {
        let key = pos.key();
        let slot = (key as usize) & (EVAL_CACHE - 1);
        let v = match self.eval_cache.get(slot) {
            Some(&(k, v)) if k == key => v,
            _ => {
                let v = evaluate(pos);
                if let Some(e) = self.eval_cache.get_mut(slot) {
                    *e = (key, v);
                }
                v
            }
        };
        if self.noise == 0 {
            return v;
        }
        let r = mix(pos.key() ^ self.noise_seed) % (2 * self.noise as u64 + 1);
        v + r as i32 - self.noise
    }

    /// The tables' exact score of a position `ply` plies below the root, if
    /// they cover it.
    fn probe(&self, pos: &Position, ply: usize) -> Option<i32> {
        let tb = self.shared.tablebases?;
        let pieces = (pos.occupied[0] | pos.occupied[1]).count_ones();
        if pieces > self.shared.probe_pieces {
            return None;
        }
        Some(match tb.probe(pos)? {
            Verdict::Win(d) => MATE - ply as i32 - d as i32,
            Verdict::Loss(d) => -MATE + ply as i32 + d as i32,
            Verdict::Draw => 0,
        })
    }

    fn check_stop(&mut self) {
        if self.nodes & 1023 == 0 {
            self.flush_nodes();
            if let Some(hard) = self.budget.hard
                && (self.elapsed)() >= hard
            {
                self.stopped = true;
            }
        }
        // A node limit counts every thread's nodes (the others' as of the
        // last flush); with one thread it is exact.
        let total = self.seen + (self.nodes - self.flushed);
        if total >= self.node_limit || self.stop_flag.load(Ordering::Relaxed) {
            self.stopped = true;
        }
    }

    /// Adds this thread's new nodes to the shared count and reads it.
    fn flush_nodes(&mut self) {
        let new = self.nodes - self.flushed;
        self.seen = self.shared.nodes.fetch_add(new, Ordering::Relaxed) + new;
        self.flushed = self.nodes;
    }

    /// Nodes searched by every thread so far (the others' as last flushed).
    fn total_nodes(&mut self) -> u64 {
        self.flush_nodes();
        self.seen
    }

    /// A helper thread's iterative deepening: the root searched at growing
    /// depths, every other helper a ply ahead so that the threads spread
    /// over two depths, until the main thread is done (its stop flag). The
    /// deepest completed iteration of any helper is kept: if it is deeper
    /// than the main thread's, its move is played.
    fn help(&mut self, mut pos: Position, max_depth: u32) {
        let ahead = (self.thread & 1) as u32;
        let mut prev = None;
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let depth = (depth + ahead).min(max_depth);
            let v = self.aspiration(&mut pos, depth, prev);
            if self.stopped {
                break;
            }
            prev = Some(v);
            let mut deepest = self
                .shared
                .deepest
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if deepest.as_ref().is_none_or(|(d, _)| depth > *d) {
                *deepest = Some((
                    depth,
                    RootLine {
                        score: v,
                        pv: self.pv[0].clone(),
                        seldepth: self.seldepth as u32,
                    },
                ));
            }
        }
        self.flush_nodes();
    }

    /// Score of the current node if it repeats an earlier position, judged by
    /// the rules: a draw, unless one side checked on every move of the cycle or
    /// (failing that) chased the same piece on every move; that side loses.
    fn repetition(&self, pos: &Position, ply: usize) -> Option<i32> {
        let n = self.path.keys.len();
        let cur = *self.path.keys.last()?;
        let mut i = n - 1;
        loop {
            // Captures and null moves cannot be undone: nothing before them repeats.
            if i < 2 || self.path.irreversible[i] || self.path.irreversible[i - 1] {
                return None;
            }
            i -= 2;
            if self.path.keys[i] == cur {
                return Some(self.judge(pos, i, ply));
            }
        }
    }

    /// Judges the cycle from position `start` (an index into the stack) to the
    /// current position `pos`.
    fn judge(&self, pos: &Position, start: usize, ply: usize) -> i32 {
        let n = self.path.keys.len();
        let mut p = pos.clone();
        let mut cycle = Vec::with_capacity(n - start);
        for j in (start + 1..n).rev() {
            match self.path.moves[j] {
                Some((m, undo)) => {
                    p.unmake_move(m, undo);
                    cycle.push(m);
                }
                None => return 0,
            }
        }
        cycle.reverse();
        let r = crate::rules::judge_repetition(&p, &cycle);
        // A game lost by the repetition rules is lost exactly like a game lost
        // by mate, so it gets a mate score at this ply. (A separate, smaller
        // "repetition win" constant made the engine prefer losing by perpetual
        // check now over being mated later, reported as `cp 19999`, and it
        // escaped the TT's mate-distance adjustment.)
        match r.outcome {
            Outcome::Win(c) if c == pos.turn() => MATE - ply as i32,
            Outcome::Win(_) => -MATE + ply as i32,
            Outcome::Draw => 0,
        }
    }

    /// The move-limit rule as [`Game`] applies it: plies since the last capture,
    /// minus each side's checks beyond the first ten, reach 120.
    fn move_limit(&self, pos: &Position) -> bool {
        let n = self.path.checks.len();
        let clock = pos.halfmoves() as usize;
        let span = clock.min(n.saturating_sub(1));
        // Moves alternate, so the parity of the index separates the two sides.
        let mut counts = [0u32; 2];
        for j in n - span..n {
            if self.path.checks[j] {
                counts[(n - 1 - j) & 1] += 1;
            }
        }
        let extra: u32 = counts
            .iter()
            .map(|c| c.saturating_sub(crate::game::COUNTED_CHECKS))
            .sum();
        clock as u32 - extra.min(clock as u32) >= crate::game::MOVE_LIMIT_PLIES
    }

    fn negamax(
        &mut self,
        pos: &mut Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        allow_null: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        if ply > 0 {
            self.nodes += 1;
            self.check_stop();
            if self.stopped {
                return 0;
            }
            if let Some(v) = self.repetition(pos, ply) {
                return v;
            }
            if pos.halfmoves() >= crate::game::MOVE_LIMIT_PLIES && self.move_limit(pos) {
                return 0;
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            if ply >= MAX_PLY - 2 {
                return self.eval(pos);
            }
            if let Some(v) = self.probe(pos, ply) {
                return v;
            }
        }
        self.seldepth = self.seldepth.max(ply);
        // Below the root the stack already knows whether the last move checked.
        let in_check = match self.path.checks.last() {
            Some(&c) if ply > 0 => c,
            _ => pos.in_check(),
        };
        debug_assert_eq!(in_check, pos.in_check());
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, in_check);
        }
        let key = pos.key();
        let hit = self.shared.tt.probe(key);
        let tt_move = match self.root_hint {
            Some(m) if ply == 0 => Some(m),
            _ => hit.and_then(|h| h.mv),
        };
        // Searching this node without its best move (a singular-extension
        // test): the table's entry is about the whole node, so unusable.
        let excluded = self.excluded.get(ply).copied().flatten();
        if let Some(h) = hit
            && !pv_node
            && ply > 0
            && h.depth >= depth
            && excluded.is_none()
            && let Some(v) = table_cutoff(h, ply, alpha, beta)
        {
            return v;
        }
        let static_eval = if in_check { -INF } else { self.eval(pos) };
        if let Some(e) = self.evals.get_mut(ply) {
            *e = static_eval;
        }
        // The table's score, where its bound says it is nearer the truth
        // than the static evaluation, stands in for it in pruning.
        let static_eval = match hit {
            Some(h) if !in_check && excluded.is_none() => {
                let v = from_tt(h.score, ply);
                let closer = match h.bound {
                    Bound::Lower => v > static_eval,
                    Bound::Upper => v < static_eval,
                    Bound::Exact => true,
                };
                if closer && v.abs() < MATE_BOUND {
                    v
                } else {
                    static_eval
                }
            }
            _ => static_eval,
        };
        // Improving: the side to move stands better than two plies ago (taken
        // as so when that position was in check), so cut-offs are likelier and
        // late moves deserve less suspicion.
        let improving = !in_check
            && match ply.checked_sub(2).and_then(|p| self.evals.get(p)) {
                Some(&e) if e > -INF => static_eval > e,
                _ => true,
            };
        if !pv_node && !in_check && ply > 0 && excluded.is_none() {
            // Reverse futility: far above beta near the leaves.
            let margin = 120 * depth - if improving { 60 } else { 0 };
            if depth <= 3 && static_eval - margin >= beta && beta.abs() < MATE_BOUND {
                return static_eval;
            }
            // Razoring: far below alpha near the leaves, only captures can
            // help; if they do not, the node fails low.
            if depth <= 2 && static_eval + 250 * depth < alpha && alpha.abs() < MATE_BOUND {
                let v = self.qsearch(pos, alpha, alpha + 1, ply, false);
                if self.stopped {
                    return 0;
                }
                if v <= alpha {
                    return v;
                }
            }
            // Null move: give the opponent a free move; if still above beta, cut.
            // The reduction starts at 2 (as ElephantEye's): xiangqi threats
            // often take a quiet move to set up, which a deeper cut hides.
            if allow_null
                && depth >= 3
                && static_eval >= beta
                && beta.abs() < MATE_BOUND
                && has_attackers(pos, pos.turn())
            {
                let r = 2 + depth / 6;
                let h = pos.make_null();
                self.path.push(pos.key(), false, true, None, None);
                let v = -self.negamax(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                self.path.pop();
                pos.unmake_null(h);
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v > MATE_BOUND { beta } else { v };
                }
            }
        }
        // Internal iterative reduction: with no move from the table, this
        // node was not searched before and is probably not worth full depth.
        if depth >= 4 && tt_move.is_none() && excluded.is_none() {
            depth -= 1;
        }
        // Singular extension: if every other move fails well below the
        // table's score, the table's move is forced and gets one more ply; if
        // even without it the node beats beta, cut (multi-cut).
        let mut singular = None;
        if let Some(h) = hit
            && let Some(tm) = tt_move
            && ply > 0
            && depth >= 6
            && excluded.is_none()
            && h.bound != Bound::Upper
            && h.depth >= depth - 3
            && (ply as i32) < 2 * self.root_depth
        {
            let tt_score = from_tt(h.score, ply);
            if tt_score.abs() < MATE_BOUND {
                let singular_beta = tt_score - 2 * depth;
                self.excluded[ply] = Some(tm);
                let v = self.negamax(
                    pos,
                    (depth - 1) / 2,
                    singular_beta - 1,
                    singular_beta,
                    ply,
                    false,
                );
                self.excluded[ply] = None;
                if self.stopped {
                    return 0;
                }
                if v < singular_beta {
                    singular = Some(tm);
                } else if singular_beta >= beta {
                    return singular_beta;
                }
            }
        }
        // Pseudo-legal moves: each is tested for legality only when its turn
        // comes, since a cut-off often leaves most of the list untried.
        let mut moves = if ply == 0 {
            self.root_moves.clone()
        } else {
            pos.pseudo_legal_moves()
        };
        let mut scores = [0i32; MAX_MOVES];
        let context = self.path.context();
        self.heur
            .score(pos, &moves, tt_move, ply, context, &mut scores);
        let list = moves.as_mut_slice();
        let mut best = -INF;
        let mut best_move = None;
        let orig_alpha = alpha;
        // Legal moves met so far (pruned ones included): the move number that
        // pruning and reductions go by.
        let mut legal = 0;
        for i in 0..list.len() {
            pick(list, &mut scores, i);
            let m = list[i];
            if Some(m) == excluded || !pos.pseudo_legal_is_legal(m, in_check) {
                continue;
            }
            let n = legal;
            legal += 1;
            let capture = pos.is_capture(m);
            let moved = piece_to(pos, m);
            // Whether the move checks is read off the position after it.
            let undo = pos.make_move(m);
            let gives_check = pos.in_check_after(m);
            let quiet = !capture && !gives_check && !in_check;
            // Frontier pruning: late quiet moves near the leaves that cannot
            // plausibly raise alpha are skipped.
            if n > 0 && quiet && !pv_node && best > -MATE_BOUND {
                let futile = depth <= 5 && static_eval + 100 + 120 * depth <= alpha;
                // Fewer moves are worth a look where the side is not improving.
                let late_limit = (4 + 2 * depth * depth) as usize;
                let late = depth <= 6
                    && n >= if improving {
                        late_limit
                    } else {
                        late_limit * 2 / 3
                    };
                // History pruning: moves that keep failing here.
                let unpromising = depth <= 3 && scores[i] < -3000 * depth;
                if futile || late || unpromising {
                    pos.unmake_move(m, undo);
                    continue;
                }
            }
            self.path.push(
                pos.key(),
                gives_check,
                capture,
                Some((m, undo)),
                Some(moved),
            );
            let mut v;
            let depth = if Some(m) == singular {
                depth + 1
            } else {
                depth
            };
            if n == 0 {
                v = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, true);
            } else {
                let r = if quiet && depth >= 3 && n >= 3 && scores[i] < (1 << 27) - 1 {
                    let mut r = lmr(depth, n);
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    // Moves with a good history are reduced less, bad ones more.
                    r -= scores[i] / 8000;
                    r.clamp(0, depth - 2)
                } else {
                    0
                };
                v = -self.negamax(pos, depth - 1 - r, -alpha - 1, -alpha, ply + 1, true);
                if v > alpha && r > 0 {
                    v = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, ply + 1, true);
                }
                if v > alpha && v < beta {
                    v = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, true);
                }
            }
            self.path.pop();
            pos.unmake_move(m, undo);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(m);
                if v > alpha {
                    alpha = v;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    let line = &mut head[ply];
                    line.clear();
                    line.push(m);
                    line.extend_from_slice(&tail[0]);
                    if v >= beta {
                        if !capture {
                            self.heur.reward(pos, m, ply, depth, &list[..i], context);
                        }
                        self.heur.reward_captures(pos, m, depth, &list[..i]);
                        break;
                    }
                }
            }
        }
        if legal == 0 {
            // Checkmate or stalemate: both lose in xiangqi. (Without the
            // excluded move, no move at all: the excluded one is singular.)
            return if excluded.is_some() {
                alpha
            } else {
                -MATE + ply as i32
            };
        }
        let bound = bound_of(best, orig_alpha, beta);
        // A later line's root saw only some moves, and so did a search
        // without the excluded move: their scores are not the position's.
        if (ply > 0 || self.pv_index == 0) && excluded.is_none() {
            self.shared
                .tt
                .store(key, best_move, to_tt(best, ply), depth, bound);
        }
        best
    }

    /// Quiescence search; `in_check` must be [`Position::in_check`].
    fn qsearch(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
    ) -> i32 {
        self.nodes += 1;
        self.check_stop();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        self.pv[ply].clear();
        if ply >= MAX_PLY - 2 {
            return self.eval(pos);
        }
        // A capture into a covered ending is scored exactly.
        if let Some(v) = self.probe(pos, ply) {
            return v;
        }
        debug_assert_eq!(in_check, pos.in_check());
        // The table: any entry is at least as deep as this (depth 0).
        let key = pos.key();
        let hit = self.shared.tt.probe(key);
        if let Some(h) = hit
            && beta - alpha == 1
            && let Some(v) = table_cutoff(h, ply, alpha, beta)
        {
            return v;
        }
        let orig_alpha = alpha;
        let mut best;
        let mut best_move = None;
        let mut moves;
        let stand;
        // Pseudo-legal moves, tested for legality one by one as in negamax.
        if in_check {
            moves = pos.pseudo_legal_moves();
            best = -INF;
            stand = -INF;
        } else {
            stand = self.eval(pos);
            if stand >= beta {
                if hit.is_none() {
                    self.shared
                        .tt
                        .store(key, None, to_tt(stand, ply), 0, Bound::Lower);
                }
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            moves = pos.pseudo_legal_captures();
        }
        let mut scores = [0i32; MAX_MOVES];
        let tt_move = hit.and_then(|h| h.mv);
        self.heur.score(
            pos,
            &moves,
            tt_move,
            MAX_PLY,
            Context::default(),
            &mut scores,
        );
        let list = moves.as_mut_slice();
        let mut any_legal = false;
        for i in 0..list.len() {
            pick(list, &mut scores, i);
            let m = list[i];
            if !in_check {
                // Delta pruning: even winning this piece cannot reach alpha.
                let gain = crate::piece::Piece::from_code(pos.board[m.to.index()])
                    .map_or(0, |p| value(p.role));
                if stand + gain + 200 < alpha {
                    continue;
                }
                // A capture that loses material in the exchange on its
                // square is left out: standing pat is at least as good.
                if loses_exchange(pos, m) {
                    continue;
                }
            }
            if !pos.pseudo_legal_is_legal(m, in_check) {
                continue;
            }
            any_legal = true;
            let undo = pos.make_move(m);
            let check = pos.in_check_after(m);
            let v = -self.qsearch(pos, -beta, -alpha, ply + 1, check);
            pos.unmake_move(m, undo);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    best_move = Some(m);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && !any_legal {
            return -MATE + ply as i32;
        }
        let bound = bound_of(best, orig_alpha, beta);
        // A deeper result for the same position is worth more than this one.
        if hit.is_none_or(|h| h.depth <= 0) {
            self.shared
                .tt
                .store(key, best_move, to_tt(best, ply), 0, bound);
        }
        best
    }
}

/// The score a table entry decides the node with, if its bound does.
fn table_cutoff(h: Hit, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let v = from_tt(h.score, ply);
    let cut = match h.bound {
        Bound::Exact => true,
        Bound::Lower => v >= beta,
        Bound::Upper => v <= alpha,
    };
    cut.then_some(v)
}

/// What a node's best score says about it, given the window it was
/// searched in.
fn bound_of(best: i32, alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// Mate scores are stored relative to the node, not the root.
fn to_tt(v: i32, ply: usize) -> i32 {
    if v > MATE_BOUND {
        v + ply as i32
    } else if v < -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

fn from_tt(v: i32, ply: usize) -> i32 {
    if v > MATE_BOUND {
        v - ply as i32
    } else if v < -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}
