//! Move ordering: hash move, captures by MVV-LVA, killers, the counter-move,
//! then history.

use super::pst::VALUES;
use crate::moves::{MAX_MOVES, Move, MoveList};
use crate::position::Position;

pub(crate) const MAX_PLY: usize = 128;

/// Killer moves per ply and the history table (piece code x destination).
pub(crate) struct Heuristics {
    pub(crate) killers: [[Option<Move>; 2]; MAX_PLY],
    pub(crate) history: Box<[[i32; 90]; 16]>,
    /// The quiet move that last refuted a move (by moved piece and destination).
    pub(crate) counter: Box<[[Option<Move>; 90]; 16]>,
}

impl Heuristics {
    pub(crate) fn new() -> Heuristics {
        Heuristics {
            killers: [[None; 2]; MAX_PLY],
            history: Box::new([[0; 90]; 16]),
            counter: Box::new([[None; 90]; 16]),
        }
    }

    /// Ages history between searches so that old results fade.
    pub(crate) fn age(&mut self) {
        for row in self.history.iter_mut() {
            for v in row.iter_mut() {
                *v /= 4;
            }
        }
        self.killers = [[None; 2]; MAX_PLY];
    }

    /// Records a quiet move that caused a beta cut-off.
    pub(crate) fn reward(
        &mut self,
        pos: &Position,
        m: Move,
        ply: usize,
        depth: i32,
        tried: &[Move],
        prev: Option<Move>,
    ) {
        if let Some(p) = prev {
            // The piece of the previous move stands on its destination now.
            let code = (pos.board[p.to.index()] & 15) as usize;
            self.counter[code][p.to.index()] = Some(m);
        }
        if let Some(k) = self.killers.get_mut(ply)
            && k[0] != Some(m)
        {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let bonus = (depth * depth).min(400);
        let code = |mv: Move| (pos.board[mv.from.index()] & 15) as usize;
        let h = &mut self.history[code(m)][m.to.index()];
        *h += bonus - *h * bonus / 16384;
        // Quiet moves tried before the cut-off did not work: lower them.
        for &q in tried {
            if q != m && !pos.is_capture(q) {
                let h = &mut self.history[code(q)][q.to.index()];
                *h -= bonus + *h * bonus / 16384;
            }
        }
    }

    /// Scores moves for ordering (higher first) into `out` (same indices).
    pub(crate) fn score(
        &self,
        pos: &Position,
        moves: &MoveList,
        tt_move: Option<Move>,
        ply: usize,
        prev: Option<Move>,
        out: &mut [i32; MAX_MOVES],
    ) {
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        let counter =
            prev.and_then(|p| self.counter[(pos.board[p.to.index()] & 15) as usize][p.to.index()]);
        for (slot, &m) in out.iter_mut().zip(moves.iter()) {
            let victim = pos.board[m.to.index()];
            let attacker = pos.board[m.from.index()];
            *slot = if Some(m) == tt_move {
                1 << 30
            } else if victim != 0 {
                (1 << 28) + VALUES[(victim & 7) as usize] * 16
                    - VALUES[(attacker & 7) as usize] / 16
            } else if Some(m) == killers[0] {
                1 << 27
            } else if Some(m) == killers[1] {
                (1 << 27) - 1
            } else if Some(m) == counter {
                (1 << 27) - 2
            } else {
                self.history[(attacker & 15) as usize][m.to.index()]
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
