//! Pushes mode, met in the middle: an A* forwards over pushes and one
//! backwards over pulls from the solved position prove the fewest pushes
//! together, each going about as deep as it can afford.
//!
//! They run in rounds, one per limit `c` on f (pushes so far plus the lower
//! bound on those left, each direction with its own bound): in a round the
//! forward search expands every node with f below `c` up to a depth of
//! `a` pushes, the backward one every node with f below `c` up to `b`
//! pulls, with `a + b + 3 >= c`, and every position stored since the last
//! look is looked up in the other's store. A position in both is a
//! solution of as many pushes as the pushes to it and the pulls from it.
//!
//! Why a round proves that no solution is shorter than `c` when none
//! shorter has been met: take a shortest one, of `C < c` pushes, as the
//! positions after each push, and on it the first position the forward
//! search has not expanded (`n`, reached at its true depth, its f at most
//! `C`), and the last one the backward search has not (`m`, likewise). If
//! `m` came before `n`, `n` would be stored in both, a meeting of `C`
//! pushes. So `n` comes before `m` (or is `m`, stored in both), and their
//! depths add up to at most `C - 1`. Both were left out of the round, so
//! they are deeper than `a` and `b`: `C >= a + b + 2 + 1 >= c`, against
//! `C < c`. (The forward search's pruning keeps a shortest solution among
//! the pushes it tries; the backward search tries every single pull, so
//! every position of that solution is one it reaches at its distance.)
//!
//! Every push moves a box onto a square of the other colour of the
//! chessboard, which changes the parity of the matching bound (a sum of
//! distances between boxes and goals): f keeps the parity of the start's
//! bound, and so does every solution. A round proving "at least `c`"
//! with `c` of the other parity proves `c + 1`: the rounds go up by two.
//!
//! Which direction goes on while `a + b + 3 < c` is a matter of cost only:
//! the one with fewer nodes left to finish its depth, the forward search
//! favoured four to one (see [`FORWARD_PER_BACKWARD`]). Neither commits to
//! a depth before it has swept it, so a direction whose nodes multiply
//! leaves the depth to the other.
//!
//! Rounds alone find a shortest solution only once their depths add up
//! with f up to its length, sweeping every node of that f down to them;
//! where the bound is close to the truth that is most of the work. So,
//! chunk about with the round, the forward search dives for a solution of
//! the pushes proven so far: the nodes with f up to them, deepest first,
//! as A* takes its last f. Where the bound is exact from the start, the
//! dive finds the solution in a small fraction of the rounds' nodes.
//!
//! And where the bound turns exact partway along a solution, the sweep
//! finds it by completion (see [`Completer`](super::complete::Completer)):
//! each node it expands whose f is the pushes proven is completed, if it
//! can be, by pushing boxes alone onto goals in packing order; a
//! completion no longer than the node's bound is a solution of the proven
//! pushes. On a long solution whose bound is exact over its later part,
//! that saves most of the nodes the rounds and the dive would need.
//!
//! On levels whose bound is far below the truth most of a forward A*'s
//! nodes are deep ones, and each direction stopping part way cuts them by
//! orders of magnitude. Sweeping shallowest first also expands each node
//! once per round at its fewest pushes, where A* with a bound that can drop
//! by more than one per push expands some nodes again.

use super::backward::Backward;
use super::search::{End, SHIFT, Search};
use super::store::Store;
use super::{Control, Progress};

/// How the search ended.
pub(crate) enum Met {
    /// The fewest pushes, with the position where the two directions meet
    /// in each store.
    Found {
        pushes: u32,
        forward: u32,
        backward: u32,
    },
    /// The fewest pushes, by a completion (see [`Completer`](super::complete::Completer)) of a node of
    /// the forward search: the node and the pushes from it.
    Completed {
        pushes: u32,
        forward: u32,
        tail: Vec<(u16, u8)>,
    },
    End(End),
    LimitReached,
}

/// The forward search goes on while the nodes left at its depth are at most
/// this many times the backward search's. A forward node costs about twice
/// a backward one (a pull needs no deadlock tests beyond dead cells), but
/// the backward bound is the weaker (pull distances to the start cells,
/// where most of the player's sides are unknown), so a depth the backward
/// search finishes rules out fewer positions.
const FORWARD_PER_BACKWARD: usize = 4;

/// Nodes a direction expands before the limits and the caller are checked.
const CHUNK: u64 = 1024;

/// Proves the fewest pushes of the level both searches were made for
/// (each started, with its layered open list).
pub(crate) fn meet(
    forward: &mut Search<'_>,
    backward: &mut Backward<'_>,
    node_limit: Option<u64>,
    control: &mut Control<'_>,
) -> Met {
    let mut best: Option<(u32, u32, u32)> = None;
    // No solution has fewer pushes than `proven`, and all have its parity.
    let Some(mut proven) = lowest_f(forward, backward) else {
        return Met::End(End::Exhausted);
    };
    let mut reported = 0;
    loop {
        let c = proven + 1;
        if let Some(completer) = &mut forward.completer {
            completer.f = proven;
        }
        if let Some(layers) = forward.layers() {
            layers.rewind();
            layers.start_dive(c);
        }
        if let Some(layers) = backward.layers() {
            layers.rewind();
        }
        // Each direction sweeps its nodes with f below `c`, shallowest
        // first, until the depths they have finished add up (see above);
        // chunk about, the forward search dives for a solution of `proven`
        // pushes.
        let (mut dive, mut dive_next) = (true, true);
        loop {
            let a = forward.layers().and_then(|l| l.frontier(c));
            let b = backward.layers().and_then(|l| l.frontier(c));
            let side = match (a, b) {
                (Some(a), Some(b)) if a + b + 1 < c => {
                    // The direction with less left to finish its depth goes on.
                    let forward_left = forward.layers().and_then(|l| l.left_at_frontier(c));
                    let backward_left = backward.layers().and_then(|l| l.left_at_frontier(c));
                    if dive && dive_next {
                        Side::Dive
                    } else if forward_left.unwrap_or(0)
                        <= backward_left.unwrap_or(0) * FORWARD_PER_BACKWARD
                    {
                        Side::Forward
                    } else {
                        Side::Backward
                    }
                }
                _ => break,
            };
            dive_next = !dive_next;
            match run(
                side,
                forward,
                backward,
                c,
                node_limit,
                control,
                &mut reported,
            ) {
                Some(Swept::Stop(end)) => return end,
                Some(Swept::Done) if side == Side::Dive => dive = false,
                _ => {}
            }
            if let Some((node, tail)) = forward.completer.as_mut().and_then(|c| c.found.take()) {
                return Met::Completed {
                    pushes: proven,
                    forward: node,
                    tail,
                };
            }
            if side == Side::Dive {
                look_up(forward, backward, &mut best);
                if let Some((pushes, f, b)) = best
                    && pushes <= proven
                {
                    return Met::Found {
                        pushes,
                        forward: f,
                        backward: b,
                    };
                }
            }
        }
        look_up(forward, backward, &mut best);
        proven = c + 1;
        let exhausted = forward.layers().is_none_or(|l| l.is_empty())
            || backward.layers().is_none_or(|l| l.is_empty());
        match best {
            Some((pushes, f, b)) if pushes <= proven || exhausted => {
                return Met::Found {
                    pushes,
                    forward: f,
                    backward: b,
                };
            }
            None if exhausted => return Met::End(End::Exhausted),
            _ => {}
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Forward,
    Backward,
    /// The forward search, deepest first (see [`Layers::start_dive`](super::layers::Layers::start_dive)).
    Dive,
}

/// What a chunk of work did, when not simply done.
enum Swept {
    /// Nothing was left to take.
    Done,
    /// The search must stop.
    Stop(Met),
}

/// A search that [`meet`] runs in rounds (the two directions).
pub(crate) trait Round {
    /// Nodes expanded so far.
    fn expanded(&self) -> u64;
    /// The next node of the round with f below `f_limit`, shallowest
    /// first, or (`dive`) the next of the dive, deepest first; stale
    /// entries passed over.
    fn next(&mut self, f_limit: u32, dive: bool) -> Option<u32>;
    /// Expands `id`; `Some` when the search must stop.
    fn expand_next(&mut self, id: u32, control: &Control<'_>) -> Option<End>;
}

/// Expands up to [`CHUNK`] nodes of a round with f below `f_limit` (or of
/// the dive). `Some(None)` when none is left, `Some(Some(end))` when the
/// search must stop, `None` when the chunk is done.
fn sweep(
    search: &mut impl Round,
    f_limit: u32,
    dive: bool,
    control: &Control<'_>,
) -> Option<Option<End>> {
    let stop_at = search.expanded() + CHUNK;
    while search.expanded() < stop_at {
        let Some(id) = search.next(f_limit, dive) else {
            return Some(None);
        };
        if let Some(end) = search.expand_next(id, control) {
            return Some(Some(end));
        }
    }
    None
}

/// A chunk of one direction's nodes with f below `c`, or of the dive.
fn run(
    side: Side,
    forward: &mut Search<'_>,
    backward: &mut Backward<'_>,
    c: u32,
    node_limit: Option<u64>,
    control: &mut Control<'_>,
    reported: &mut u64,
) -> Option<Swept> {
    let swept = match side {
        Side::Forward => probing(forward, true, |forward| sweep(forward, c, false, control)),
        // No completions in the dive: it goes deepest first, into the dead
        // ends where the bound is not exact, and completions there fail.
        Side::Dive => probing(forward, false, |forward| sweep(forward, c, true, control)),
        Side::Backward => sweep(backward, c, false, control),
    };
    if let Some(Some(end)) = swept {
        return Some(Swept::Stop(Met::End(end)));
    }
    let total = forward.expanded + backward.expanded;
    if node_limit.is_some_and(|limit| total >= limit) {
        return Some(Swept::Stop(Met::LimitReached));
    }
    if total / control.every > *reported {
        *reported = total / control.every;
        let progress = Progress {
            expanded: total,
            stored: (forward.store.stored() + backward.store.stored()) as u64,
            depth: forward.depth,
            lower_bound: c.saturating_sub(forward.depth),
        };
        if control.report(&progress) {
            return Some(Swept::Stop(Met::End(End::Cancelled)));
        }
    }
    swept.map(|_| Swept::Done)
}

/// Runs `work` with the forward search's completion probes on or off.
fn probing<'a, 'b, T>(
    forward: &'b mut Search<'a>,
    on: bool,
    work: impl FnOnce(&mut Search<'a>) -> T,
) -> T {
    if let Some(completer) = &mut forward.completer {
        completer.active = on;
    }
    work(forward)
}

/// The lowest f queued in either direction: a lower bound on the pushes.
fn lowest_f(forward: &mut Search<'_>, backward: &mut Backward<'_>) -> Option<u32> {
    let f = forward.layers()?.lowest_f()?;
    let b = backward.layers()?.lowest_f()?;
    Some(f.max(b))
}

/// Looks every position either direction queued since the last look up in
/// the other's store, keeping the shortest solution met.
fn look_up(
    forward: &mut Search<'_>,
    backward: &mut Backward<'_>,
    best: &mut Option<(u32, u32, u32)>,
) {
    let pushes = |store: &Store, id: u32| (store.cost[id as usize] >> SHIFT) as u32;
    let pulls = |store: &Store, id: u32| store.cost[id as usize] as u32;
    let mut keep = |total: u32, f: u32, b: u32| {
        if best.is_none_or(|(known, ..)| total < known) {
            *best = Some((total, f, b));
        }
    };
    let changed = forward.layers().map(|l| l.take_changed());
    for id in changed.unwrap_or_default() {
        if let Some(there) = backward.store.find_node_of(&forward.store, id) {
            keep(
                pushes(&forward.store, id) + pulls(&backward.store, there),
                id,
                there,
            );
        }
    }
    let changed = backward.layers().map(|l| l.take_changed());
    for id in changed.unwrap_or_default() {
        if let Some(there) = forward.store.find_node_of(&backward.store, id) {
            keep(
                pushes(&forward.store, there) + pulls(&backward.store, id),
                there,
                id,
            );
        }
    }
}
