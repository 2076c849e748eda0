//! Legal move generation and attack detection.
//!
//! Moves are generated pseudo-legally from the precomputed tables, then filtered:
//! a move can only expose its own general if it is a general move, if the side is
//! already in check, or if the origin or destination shares a line with the
//! general or the origin is a horse leg next to it. Everything else is legal
//! without a test, which keeps perft fast. The search skips the list filter and
//! tests each move the same way when it comes to it
//! ([`Position::pseudo_legal_is_legal`]).

use crate::attacks::{
    ADVISOR_MOVES, ELEPHANT_MOVES, GENERAL_MOVES, HORSE_ATTACKERS, HORSE_MOVES, RAYS,
    SOLDIER_MOVES, Steps,
};
use crate::moves::{Move, MoveList};
use crate::piece::{Color, Role};
use crate::position::{Position, set_bits};
use crate::square::Square;

const GENERAL: u8 = Role::General as u8;
const ADVISOR: u8 = Role::Advisor as u8;
const ELEPHANT: u8 = Role::Elephant as u8;
const HORSE: u8 = Role::Horse as u8;
const CHARIOT: u8 = Role::Chariot as u8;
const CANNON: u8 = Role::Cannon as u8;
const SOLDIER: u8 = Role::Soldier as u8;

/// `RELEVANT[k][s]`: whether a piece leaving or entering `s` may change attacks on
/// a general standing on `k` (same file, same rank, or diagonal neighbour).
static RELEVANT: [[bool; 90]; 90] = build_relevant();

const fn build_relevant() -> [[bool; 90]; 90] {
    let mut t = [[false; 90]; 90];
    let mut k = 0;
    while k < 90 {
        let mut s = 0;
        while s < 90 {
            let (kf, kr, sf, sr): (usize, usize, usize, usize) = (k % 9, k / 9, s % 9, s / 9);
            let diag = kf.abs_diff(sf) == 1 && kr.abs_diff(sr) == 1;
            t[k][s] = kf == sf || kr == sr || diag;
            s += 1;
        }
        k += 1;
    }
    t
}

/// `CHECK_FROM[k][s]`: bit 1 if `s` is relevant to a general on `k` as in
/// [`RELEVANT`], bit 2 if a horse on `s` could attack `k` (a horse's move away,
/// ignoring its leg). A move can only give check if its origin has bit 1 or its
/// destination has bit 1 (bit 2 too for a horse).
static CHECK_FROM: [[u8; 90]; 90] = build_check_from();

const fn build_check_from() -> [[u8; 90]; 90] {
    let mut t = [[0; 90]; 90];
    let mut k = 0;
    while k < 90 {
        let mut s = 0;
        while s < 90 {
            let (kf, kr, sf, sr): (usize, usize, usize, usize) = (k % 9, k / 9, s % 9, s / 9);
            let (df, dr) = (kf.abs_diff(sf), kr.abs_diff(sr));
            let diag = df == 1 && dr == 1;
            let mut v = 0;
            if kf == sf || kr == sr || diag {
                v |= 1;
            }
            if (df == 1 && dr == 2) || (df == 2 && dr == 1) {
                v |= 2;
            }
            t[k][s] = v;
            s += 1;
        }
        k += 1;
    }
    t
}

/// Whether a move from `from` to `to` can leave the mover's general (on `k`)
/// attacked; every other move is legal without a test.
#[inline(always)]
fn may_expose(k: usize, from: usize, to: usize, is_general: bool, in_check: bool) -> bool {
    in_check || is_general || RELEVANT[k][from] || RELEVANT[k][to]
}

#[inline]
fn color_bit(c: Color) -> u8 {
    (c as u8) << 3
}

/// Whether the general of the colour whose enemy bit is `them` (0 or 8), standing
/// on `k`, is attacked on board `b`. Covers chariots, cannons, horses, soldiers
/// and the flying general (the only pieces that can ever reach a palace).
#[inline]
fn general_attacked(b: &[u8; 90], k: usize, them: u8) -> bool {
    let rays = &RAYS[k];
    for (d, ray) in rays.iter().enumerate() {
        let n = ray.len as usize;
        let sq = &ray.squares[..n];
        let mut i = 0;
        while i < n && b[sq[i] as usize] == 0 {
            i += 1;
        }
        if i == n {
            continue;
        }
        let p = b[sq[i] as usize];
        if p == (CHARIOT | them) || (d < 2 && p == (GENERAL | them)) {
            return true;
        }
        i += 1;
        while i < n && b[sq[i] as usize] == 0 {
            i += 1;
        }
        if i < n && b[sq[i] as usize] == (CANNON | them) {
            return true;
        }
    }
    let h = &HORSE_ATTACKERS[k];
    for j in 0..h.len as usize {
        if b[h.to[j] as usize] == (HORSE | them) && b[h.block[j] as usize] == 0 {
            return true;
        }
    }
    let (f, r) = (k % 9, k / 9);
    let soldier = SOLDIER | them;
    if them == 8 {
        // Black soldiers move down the board.
        if r < 9 && b[k + 9] == soldier {
            return true;
        }
        if r <= 4 && ((f > 0 && b[k - 1] == soldier) || (f < 8 && b[k + 1] == soldier)) {
            return true;
        }
    } else {
        if r > 0 && b[k - 9] == soldier {
            return true;
        }
        if r >= 5 && ((f > 0 && b[k - 1] == soldier) || (f < 8 && b[k + 1] == soldier)) {
            return true;
        }
    }
    false
}

/// Whether a piece of the colour with bit `them` could capture on `k` by its
/// movement rules (pseudo-legal; the flying general is not an attack here).
fn square_attacked(b: &[u8; 90], k: usize, them: u8) -> bool {
    least_valuable_attacker(b, k, them).is_some()
}

/// The square of the least valuable piece of the colour with bit `them` that
/// could capture on `k` by its movement rules (pseudo-legal: pins and the
/// attacker's own general are not considered), for exchanges on one square:
/// soldiers first, then advisors, elephants, horses, cannons, chariots and the
/// general.
pub(crate) fn least_valuable_attacker(b: &[u8; 90], k: usize, them: u8) -> Option<usize> {
    let (f, r) = (k % 9, k / 9);
    let soldier = SOLDIER | them;
    let soldier_from = if them == 8 {
        // Black soldiers move down the board and sideways once on ranks 0..=4.
        [
            (r < 9).then(|| k + 9),
            (r <= 4 && f > 0).then(|| k - 1),
            (r <= 4 && f < 8).then(|| k + 1),
        ]
    } else {
        [
            (r > 0).then(|| k - 9),
            (r >= 5 && f > 0).then(|| k - 1),
            (r >= 5 && f < 8).then(|| k + 1),
        ]
    };
    if let Some(s) = soldier_from
        .into_iter()
        .flatten()
        .find(|&s| b[s] == soldier)
    {
        return Some(s);
    }
    let stepper = |st: &Steps, role: u8, blocked: bool| {
        (0..st.len as usize)
            .find(|&j| {
                b[st.to[j] as usize] == (role | them) && (!blocked || b[st.block[j] as usize] == 0)
            })
            .map(|j| st.to[j] as usize)
    };
    if let Some(s) = stepper(&ADVISOR_MOVES[k], ADVISOR, false)
        .or_else(|| stepper(&ELEPHANT_MOVES[k], ELEPHANT, true))
        .or_else(|| stepper(&HORSE_ATTACKERS[k], HORSE, true))
    {
        return Some(s);
    }
    // Along the four lines: the first piece may be a chariot, the second a cannon.
    let mut chariot = None;
    for ray in &RAYS[k] {
        let mut pieces = ray.squares[..ray.len as usize]
            .iter()
            .map(|&t| t as usize)
            .filter(|&t| b[t] != 0);
        if let Some(first) = pieces.next() {
            if b[first] == (CHARIOT | them) && chariot.is_none() {
                chariot = Some(first);
            }
            if let Some(second) = pieces.next()
                && b[second] == (CANNON | them)
            {
                return Some(second);
            }
        }
    }
    chariot.or_else(|| stepper(&GENERAL_MOVES[k], GENERAL, false))
}

/// Pushes the moves of a stepping piece on `from` (`blocked`: the steps have
/// blocking squares) to empty squares (unless `captures_only`) or enemy pieces.
#[inline(always)]
fn push_steps(
    list: &mut MoveList,
    b: &[u8; 90],
    from: Square,
    st: &Steps,
    blocked: bool,
    own: u8,
    captures_only: bool,
) {
    for j in 0..st.len as usize {
        let to = st.to[j] as usize;
        if blocked && b[st.block[j] as usize] != 0 {
            continue;
        }
        let t = b[to];
        if if t == 0 { !captures_only } else { t & 8 != own } {
            list.push(Move::new(from, Square::idx(to as u8)));
        }
    }
}

impl Position {
    /// Whether a piece of `by` could capture on `sq` by its movement rules
    /// (pseudo-legal: pins and the attacker's own general are not considered).
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        square_attacked(&self.board, sq.index(), color_bit(by))
    }

    /// Whether the side to move is in check (including a facing general).
    #[inline]
    pub fn in_check(&self) -> bool {
        self.is_check(self.turn)
    }

    /// Whether the general of `color` is attacked.
    #[inline]
    pub fn is_check(&self, color: Color) -> bool {
        let k = self.generals[color.index()] as usize;
        general_attacked(&self.board, k, color_bit(!color))
    }

    /// After `m` was made (with [`Position::make_move`]) from a position where
    /// the side now to move was not in check: whether it is in check now. The
    /// same as [`Position::in_check`], but most moves are answered by a table
    /// lookup (a move far from the general's lines cannot give check).
    #[inline]
    pub fn in_check_after(&self, m: Move) -> bool {
        let k = self.generals[self.turn.index()] as usize;
        let (from, to) = (m.from.index(), m.to.index());
        let row = &CHECK_FROM[k];
        let mask = if self.board[to] & 7 == HORSE { 3 } else { 1 };
        if row[from] & 1 == 0 && row[to] & mask == 0 {
            debug_assert!(!self.in_check());
            return false;
        }
        self.in_check()
    }

    /// Pseudo-legal moves (piece movement rules only, general safety not checked).
    pub fn pseudo_legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.gen_pseudo(&mut list, false);
        list
    }

    fn gen_pseudo(&self, list: &mut MoveList, captures_only: bool) {
        let us = self.turn.index();
        let own = color_bit(self.turn);
        let b = &self.board;
        for s in set_bits(self.occupied[us]) {
            let from = Square::idx(s as u8);
            let steps = |list: &mut MoveList, st: &Steps, blocked: bool| {
                push_steps(list, b, from, st, blocked, own, captures_only)
            };
            match b[s] & 7 {
                GENERAL => steps(list, &GENERAL_MOVES[s], false),
                ADVISOR => steps(list, &ADVISOR_MOVES[s], false),
                ELEPHANT => steps(list, &ELEPHANT_MOVES[s], true),
                HORSE => steps(list, &HORSE_MOVES[s], true),
                SOLDIER => steps(list, &SOLDIER_MOVES[us][s], false),
                CHARIOT => {
                    for ray in &RAYS[s] {
                        for &t in &ray.squares[..ray.len as usize] {
                            let p = b[t as usize];
                            if p == 0 {
                                if !captures_only {
                                    list.push(Move::new(from, Square::idx(t)));
                                }
                            } else {
                                if p & 8 != own {
                                    list.push(Move::new(from, Square::idx(t)));
                                }
                                break;
                            }
                        }
                    }
                }
                CANNON => {
                    for ray in &RAYS[s] {
                        let mut screen = false;
                        for &t in &ray.squares[..ray.len as usize] {
                            let p = b[t as usize];
                            if !screen {
                                if p == 0 {
                                    if !captures_only {
                                        list.push(Move::new(from, Square::idx(t)));
                                    }
                                } else {
                                    screen = true;
                                }
                            } else if p != 0 {
                                if p & 8 != own {
                                    list.push(Move::new(from, Square::idx(t)));
                                }
                                break;
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// Removes the moves that leave the mover's general attacked.
    fn filter_legal(&self, list: &mut MoveList) {
        let mut b = self.board;
        let them = color_bit(!self.turn);
        let k = self.generals[self.turn.index()] as usize;
        let in_check = general_attacked(&b, k, them);
        let mut i = 0;
        while i < list.len() {
            let m = list.as_slice()[i];
            let (from, to) = (m.from.index(), m.to.index());
            let piece = b[from];
            let is_general = piece & 7 == GENERAL;
            let legal = if may_expose(k, from, to, is_general, in_check) {
                let captured = b[to];
                b[to] = piece;
                b[from] = 0;
                let ksq = if is_general { to } else { k };
                let safe = !general_attacked(&b, ksq, them);
                b[from] = piece;
                b[to] = captured;
                safe
            } else {
                true
            };
            if legal {
                i += 1;
            } else {
                list.swap_remove(i);
            }
        }
    }

    /// Whether a pseudo-legal move of the side to move keeps its general safe;
    /// `in_check` must be [`Position::in_check`]. Only moves that can matter
    /// (general moves, moves in check, moves on the general's lines or next to
    /// it) are tried out, so the search can test each move just before it
    /// plays it instead of filtering whole lists it mostly never reaches.
    #[inline]
    pub fn pseudo_legal_is_legal(&self, m: Move, in_check: bool) -> bool {
        let k = self.generals[self.turn.index()] as usize;
        let (from, to) = (m.from.index(), m.to.index());
        let piece = self.board[from];
        let is_general = piece & 7 == GENERAL;
        if !may_expose(k, from, to, is_general, in_check) {
            return true;
        }
        let mut b = self.board;
        b[to] = piece;
        b[from] = 0;
        let ksq = if is_general { to } else { k };
        !general_attacked(&b, ksq, color_bit(!self.turn))
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.gen_pseudo(&mut list, false);
        self.filter_legal(&mut list);
        list
    }

    /// Legal moves of the piece on `from` (for highlighting targets in a UI).
    pub fn legal_moves_from(&self, from: Square) -> MoveList {
        let mut list = self.legal_moves();
        list.retain(|m| m.from == from);
        list
    }

    /// Pseudo-legal captures (general safety not checked).
    pub fn pseudo_legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.gen_pseudo(&mut list, true);
        list
    }

    /// Legal captures only (for quiescence search).
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.gen_pseudo(&mut list, true);
        self.filter_legal(&mut list);
        list
    }

    /// Number of legal moves (perft leaf counting).
    #[inline]
    pub fn count_legal(&self) -> usize {
        self.legal_moves().len()
    }

    /// Whether a move is pseudo-legal for the side to move.
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let p = self.board[m.from.index()];
        if p == 0 || p & 8 != color_bit(self.turn) {
            return false;
        }
        let mut list = MoveList::new();
        // Generating all moves is cheap enough for validation purposes.
        self.gen_pseudo(&mut list, false);
        list.contains(m)
    }

    /// Whether a move is legal in this position.
    pub fn is_legal(&self, m: Move) -> bool {
        self.is_pseudo_legal(m) && !self.leaves_in_check(m)
    }

    /// Whether a pseudo-legal move would leave the mover's general attacked.
    pub(crate) fn leaves_in_check(&self, m: Move) -> bool {
        let mut b = self.board;
        let piece = b[m.from.index()];
        let us = ((piece >> 3) & 1) as usize;
        b[m.to.index()] = piece;
        b[m.from.index()] = 0;
        let k = if piece & 7 == GENERAL {
            m.to.index()
        } else {
            self.generals[us] as usize
        };
        general_attacked(&b, k, ((us as u8) ^ 1) << 3)
    }

    /// Whether a (legal) move gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        let mut b = self.board;
        let piece = b[m.from.index()];
        let them = ((piece >> 3) & 1) ^ 1;
        b[m.to.index()] = piece;
        b[m.from.index()] = 0;
        general_attacked(&b, self.generals[them as usize] as usize, (them ^ 1) << 3)
    }

    /// Whether the move captures a piece.
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board[m.to.index()] != 0
    }

    /// Squares from which pieces of `by` could capture on `sq` by their movement
    /// rules (pseudo-legal: the attacker's own general safety is not checked).
    pub fn attackers(&self, sq: Square, by: Color) -> Vec<Square> {
        let mut out = Vec::new();
        let mut p = self.clone();
        // Pretend the target is an enemy piece and generate `by`'s captures.
        let target = sq.index();
        if p.board[target] != 0 && p.board[target] & 8 == color_bit(by) {
            return out;
        }
        if p.board[target] == 0 {
            // A placeholder enemy soldier makes the square capturable (placed
            // with `set`, which keeps the occupancy sets in step).
            p.set(sq, Some(crate::piece::Piece::new(!by, Role::Soldier)));
        }
        p.turn = by;
        let mut list = MoveList::new();
        p.gen_pseudo(&mut list, true);
        out.extend(list.iter().filter(|m| m.to == sq).map(|m| m.from));
        out
    }
}
