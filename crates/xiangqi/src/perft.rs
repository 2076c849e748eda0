//! Perft: counts the leaves of the legal move tree, for testing move generation.

use crate::moves::Move;
use crate::position::Position;

/// Deepest perft the engine shells accept: the count recurses once per ply
/// (a depth of 100,000 overflows the stack), and depth 8 already takes hours.
pub const MAX_PERFT_DEPTH: u32 = 32;

/// Number of leaf nodes at `depth` plies (bulk-counted at the last ply).
///
/// ```
/// use xiangqi::{Position, perft};
/// let mut pos = Position::startpos();
/// assert_eq!(perft(&mut pos, 2), 1920);
/// ```
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    // A constant `false` is optimised away: no cost over an unstoppable count.
    count(pos, depth, &|| false).unwrap_or(0)
}

/// Perft split by first move, in generation order.
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    perft_divide_until(pos, depth, &|| false).unwrap_or_default()
}

/// [`perft_divide`] that asks `stop` at every inner node whether to give up
/// (a deep perft runs for hours); `None` if it did. The position is restored
/// either way.
///
/// ```
/// use xiangqi::{Position, perft_divide_until};
/// let mut pos = Position::startpos();
/// assert_eq!(perft_divide_until(&mut pos, 2, &|| false).unwrap().len(), 44);
/// assert_eq!(perft_divide_until(&mut pos, 2, &|| true), None);
/// ```
pub fn perft_divide_until(
    pos: &mut Position,
    depth: u32,
    stop: &impl Fn() -> bool,
) -> Option<Vec<(Move, u64)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    let moves = pos.legal_moves();
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves.iter() {
        let undo = pos.make_move(m);
        let n = count(pos, depth - 1, stop);
        pos.unmake_move(m, undo);
        out.push((m, n?));
    }
    Some(out)
}

fn count(pos: &mut Position, depth: u32, stop: &impl Fn() -> bool) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if stop() {
        return None;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return Some(moves.len() as u64);
    }
    let mut nodes = 0;
    for &m in moves.iter() {
        let undo = pos.make_move(m);
        let n = count(pos, depth - 1, stop);
        pos.unmake_move(m, undo);
        nodes += n?;
    }
    Some(nodes)
}
