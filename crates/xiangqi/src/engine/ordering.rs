//! Move ordering: hash move, captures by the victim's value and then the
//! capture history (moved piece × destination × captured piece: how often
//! the capture cut off before), killers, the counter-move, then history: the
//! butterfly history (moved piece × destination) plus the continuation
//! histories of the previous two plies (how well this move answered the
//! opponent's last move, and followed up our own).

use super::pst::VALUES;
use crate::moves::{MAX_MOVES, Move, MoveList};
use crate::position::Position;

pub(crate) const MAX_PLY: usize = 128;

/// Piece codes (colour bit and role) an index into the history tables has.
const CODES: usize = 16;
/// A moved piece and its destination, as one index: code × 90 + square.
pub(crate) type PieceTo = usize;
/// How many [`PieceTo`] values there are.
const PIECE_TOS: usize = CODES * 90;
/// Where history scores saturate (the gravity formula keeps them inside).
const HISTORY_MAX: i32 = 16384;

/// The [`PieceTo`] of a move in the position before it is made.
pub(crate) fn piece_to(pos: &Position, m: Move) -> PieceTo {
    (pos.board[m.from.index()] as usize & 15) * 90 + m.to.index()
}

/// The moves that lead to a node, for the continuation histories: the
/// opponent's last move and our own move before it (None after a null move or
/// at the root).
#[derive(Clone, Copy, Default)]
pub(crate) struct Context {
    pub(crate) prev: Option<PieceTo>,
    pub(crate) prev2: Option<PieceTo>,
}

/// Moves a history entry toward `bonus` (negative for a malus), saturating
/// at [`HISTORY_MAX`].
fn gravity(entry: &mut i16, bonus: i32) {
    let h = *entry as i32;
    let v = h + bonus - h * bonus.abs() / HISTORY_MAX;
    *entry = v.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
}

/// Killer moves per ply and the history table (piece code x destination).
pub(crate) struct Heuristics {
    pub(crate) killers: [[Option<Move>; 2]; MAX_PLY],
    pub(crate) history: Box<[[i32; 90]; 16]>,
    /// The quiet move that last refuted a move (by moved piece and destination).
    pub(crate) counter: Box<[[Option<Move>; 90]; 16]>,
    /// Continuation history: [earlier move's PieceTo][this move's PieceTo].
    continuation: Vec<i16>,
    /// Capture history: [capturing move's PieceTo][captured role].
    captures: Vec<i16>,
}

impl Heuristics {
    pub(crate) fn new() -> Heuristics {
        Heuristics {
            killers: [[None; 2]; MAX_PLY],
            history: Box::new([[0; 90]; 16]),
            counter: Box::new([[None; 90]; 16]),
            continuation: vec![0; PIECE_TOS * PIECE_TOS],
            captures: vec![0; PIECE_TOS * 8],
        }
    }

    /// Ages history between searches so that old results fade.
    pub(crate) fn age(&mut self) {
        for row in self.history.iter_mut() {
            for v in row.iter_mut() {
                *v /= 4;
            }
        }
        self.continuation.iter_mut().for_each(|v| *v /= 2);
        self.captures.iter_mut().for_each(|v| *v /= 2);
        self.killers = [[None; 2]; MAX_PLY];
    }

    /// Records a quiet move that caused a beta cut-off, and lowers the quiet
    /// moves tried before it.
    pub(crate) fn reward(
        &mut self,
        pos: &Position,
        m: Move,
        ply: usize,
        depth: i32,
        tried: &[Move],
        context: Context,
    ) {
        if let Some(p) = context.prev {
            self.counter[p / 90][p % 90] = Some(m);
        }
        if let Some(k) = self.killers.get_mut(ply)
            && k[0] != Some(m)
        {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let bonus = (depth * depth).min(400);
        self.update(pos, m, bonus, context);
        for &q in tried {
            if q != m && !pos.is_capture(q) {
                self.update(pos, q, -bonus, context);
            }
        }
    }

    /// The capture history's index of a capture.
    fn capture_index(pos: &Position, m: Move) -> usize {
        piece_to(pos, m) * 8 + (pos.board[m.to.index()] & 7) as usize
    }

    /// The capture history entry of a capture.
    fn capture_entry(&mut self, pos: &Position, m: Move) -> Option<&mut i16> {
        self.captures.get_mut(Self::capture_index(pos, m))
    }

    /// How well a capture has done here before (its capture history).
    pub(crate) fn capture_score(&self, pos: &Position, m: Move) -> i32 {
        self.captures
            .get(Self::capture_index(pos, m))
            .map_or(0, |&v| v as i32)
    }

    /// Records a cut-off: a bonus for the move if it is a capture, and a
    /// malus for the captures tried before it.
    pub(crate) fn reward_captures(&mut self, pos: &Position, m: Move, depth: i32, tried: &[Move]) {
        let bonus = (depth * depth).min(400) * 4;
        if pos.is_capture(m)
            && let Some(e) = self.capture_entry(pos, m)
        {
            gravity(e, bonus);
        }
        for &q in tried {
            if q != m
                && pos.is_capture(q)
                && let Some(e) = self.capture_entry(pos, q)
            {
                gravity(e, -bonus);
            }
        }
    }

    /// Adds `bonus` to a quiet move's history and continuation histories.
    fn update(&mut self, pos: &Position, m: Move, bonus: i32, context: Context) {
        let code = (pos.board[m.from.index()] & 15) as usize;
        let h = &mut self.history[code][m.to.index()];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
        let pt = piece_to(pos, m);
        for earlier in [context.prev, context.prev2].into_iter().flatten() {
            if let Some(e) = self.continuation.get_mut(earlier * PIECE_TOS + pt) {
                gravity(e, bonus);
            }
        }
    }

    /// The history score of a quiet move: butterfly plus continuations.
    pub(crate) fn quiet_score(&self, pos: &Position, m: Move, context: Context) -> i32 {
        let pt = piece_to(pos, m);
        let cont = |earlier: Option<PieceTo>| {
            earlier
                .and_then(|e| self.continuation.get(e * PIECE_TOS + pt))
                .map_or(0, |&v| v as i32)
        };
        self.history[pt / 90][pt % 90] + cont(context.prev) + cont(context.prev2)
    }

    /// Scores moves for ordering (higher first) into `out` (same indices).
    pub(crate) fn score(
        &self,
        pos: &Position,
        moves: &MoveList,
        tt_move: Option<Move>,
        ply: usize,
        context: Context,
        out: &mut [i32; MAX_MOVES],
    ) {
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        let counter = context.prev.and_then(|p| self.counter[p / 90][p % 90]);
        for (slot, &m) in out.iter_mut().zip(moves.iter()) {
            let victim = pos.board[m.to.index()];
            *slot = if Some(m) == tt_move {
                1 << 30
            } else if victim != 0 {
                (1 << 28) + VALUES[(victim & 7) as usize] * 16 + self.capture_score(pos, m) / 4
            } else if Some(m) == killers[0] {
                1 << 27
            } else if Some(m) == killers[1] {
                (1 << 27) - 1
            } else if Some(m) == counter {
                (1 << 27) - 2
            } else {
                self.quiet_score(pos, m, context)
            };
        }
    }
}

/// Moves the best remaining move (by score) to index `i` (selection sort step).
pub(crate) fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) {
    let n = moves.len().min(scores.len());
    if i >= n {
        return;
    }
    // The first of the highest scores: the maximum first (a loop the compiler
    // vectorises), then its first position.
    let rest = &scores[i..n];
    let max = rest.iter().copied().max().unwrap_or(i32::MIN);
    let best = i + rest.iter().position(|&v| v == max).unwrap_or(0);
    moves.swap(i, best);
    scores.swap(i, best);
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn order(heur: &Heuristics, pos: &Position) -> Vec<Move> {
        let mut moves = pos.pseudo_legal_captures();
        let mut scores = [0; MAX_MOVES];
        heur.score(pos, &moves, None, 0, Context::default(), &mut scores);
        let list = moves.as_mut_slice();
        for i in 0..list.len() {
            pick(list, &mut scores, i);
        }
        list.to_vec()
    }

    #[test]
    fn capture_history_orders_captures_of_equal_victims() {
        // The chariot on a0 and the one on i0 can each take a soldier.
        let pos = Position::from_fen("3k5/9/9/p7p/9/9/9/9/9/R3K3R w").unwrap();
        let (left, right) = (
            Move::parse_iccs("a0a6").unwrap(),
            Move::parse_iccs("i0i6").unwrap(),
        );
        let mut heur = Heuristics::new();
        let first = order(&heur, &pos)[0];
        let other = if first == left { right } else { left };
        // The other capture cut off where the first was tried before it.
        heur.reward_captures(&pos, other, 8, &[first, other]);
        assert_eq!(order(&heur, &pos)[0], other);
        assert!(heur.capture_score(&pos, other) > 0);
        assert!(heur.capture_score(&pos, first) < 0);
    }

    #[test]
    fn capture_history_does_not_outweigh_a_chariot() {
        // The horse can take a chariot, the chariot a soldier.
        let pos = Position::from_fen("3k5/9/9/r7p/9/1N7/9/9/9/4K3R w").unwrap();
        let soldier = Move::parse_iccs("i0i6").unwrap();
        let chariot = Move::parse_iccs("b4a6").unwrap();
        let mut heur = Heuristics::new();
        for _ in 0..100 {
            heur.reward_captures(&pos, soldier, 20, &[chariot, soldier]);
        }
        assert_eq!(order(&heur, &pos)[0], chariot);
    }
}
