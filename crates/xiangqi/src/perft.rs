//! Perft: counts the leaves of the legal move tree, for testing move generation.

use crate::moves::Move;
use crate::position::Position;

/// Number of leaf nodes at `depth` plies (bulk-counted at the last ply).
///
/// ```
/// use xiangqi::{Position, perft};
/// let mut pos = Position::startpos();
/// assert_eq!(perft(&mut pos, 2), 1920);
/// ```
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &m in moves.iter() {
        let undo = pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake_move(m, undo);
    }
    nodes
}

/// Perft split by first move, in generation order.
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = pos.legal_moves();
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves.iter() {
        let undo = pos.make_move(m);
        out.push((m, perft(pos, depth - 1)));
        pos.unmake_move(m, undo);
    }
    out
}
