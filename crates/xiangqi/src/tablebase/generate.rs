//! Retrograde analysis: solving every position of one signature.
//!
//! A first scan visits every index once: it marks unused ones, counts each
//! legal position's distinct successor positions inside the table, and
//! resolves its captures by probing the smaller tables (the positions they
//! lead to are already solved). Then, level by level (distance to mate in
//! plies), the positions solved at the last level are taken back one move
//! (un-moves: every non-capture move played in reverse) to their
//! predecessors: a position with a successor lost for its opponent is won one
//! ply later; a position whose successors all turned out won for the opponent
//! (and whose captures lose too) is lost one ply after the slowest of them.
//! What is left unsolved at the end is a draw.

use super::index::Layout;
use super::{DRAW, MAX_DTM, Material, Table, Tablebases, UNUSED, Verdict};
use crate::fen::allowed_square;
use crate::piece::{Color, Piece, Role};
use crate::position::{Position, set_bits};
use crate::square::Square;
use std::fmt;

/// Indices between two progress reports.
const REPORT_EVERY: u64 = 1 << 16;

/// Stage of a generation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    /// The first pass over every index.
    Scan,
    /// Solving level by level; `done` counts solved positions.
    Solve,
}

/// Progress of one generation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Progress {
    pub material: Material,
    pub phase: Phase,
    pub done: u64,
    pub total: u64,
}

/// Why a table could not be generated.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum GenerateError {
    /// A table a capture leads to has not been generated yet.
    MissingDependency(Material),
    /// The signature is not canonical (Black stronger than Red).
    NotCanonical(Material),
    /// The signature has no piece that could ever mate.
    NoAttackers(Material),
    /// More positions than this machine's address space can index.
    TooLarge(Material),
    /// A mate longer than [`MAX_DTM`] plies, which one byte cannot hold.
    TooDeep(Material),
    /// The caller asked to stop.
    Cancelled,
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::MissingDependency(m) => {
                write!(f, "tablebase {m} must be generated first")
            }
            GenerateError::NotCanonical(m) => write!(
                f,
                "tablebase {m} is named with the weaker side first; use {}",
                m.canonical()
            ),
            GenerateError::NoAttackers(m) => {
                write!(
                    f,
                    "tablebase {m} has no piece that can mate (always a draw)"
                )
            }
            GenerateError::TooLarge(m) => write!(f, "tablebase {m} is too large to index"),
            GenerateError::TooDeep(m) => {
                write!(f, "tablebase {m} has a mate longer than {MAX_DTM} plies")
            }
            GenerateError::Cancelled => write!(f, "tablebase generation was cancelled"),
        }
    }
}

impl std::error::Error for GenerateError {}

/// Encodes a distance to mate as a table byte.
fn byte(d: u32) -> u8 {
    (d + 1) as u8
}

/// Solves every position of `material` (canonical, with at least one
/// attacking piece), probing `smaller` for the positions captures lead to.
/// `progress` hears about the work now and then and returns `false` to stop.
///
/// # Errors
///
/// A [`GenerateError`]: a missing smaller table, a signature that cannot or
/// need not be generated, a mate too long to store, or a stop.
pub fn generate(
    material: Material,
    smaller: &Tablebases,
    progress: &mut dyn FnMut(Progress) -> bool,
) -> Result<Table, GenerateError> {
    if !material.is_canonical() {
        return Err(GenerateError::NotCanonical(material));
    }
    if !material.has_attackers(Color::Red) && !material.has_attackers(Color::Black) {
        return Err(GenerateError::NoAttackers(material));
    }
    for dep in material.dependencies() {
        if smaller.get(&dep).is_none() {
            return Err(GenerateError::MissingDependency(dep));
        }
    }
    let layout = Layout::new(&material);
    let size = usize::try_from(layout.size())
        .ok()
        .filter(|&n| n < u32::MAX as usize)
        .ok_or(GenerateError::TooLarge(material))?;
    let mut report = |phase, done, total| {
        if progress(Progress {
            material,
            phase,
            done,
            total,
        }) {
            Ok(())
        } else {
            Err(GenerateError::Cancelled)
        }
    };
    let mut value = vec![UNUSED; size];
    // Undecided positions: distinct successors in the table not yet known
    // to be won for the opponent.
    let mut count = vec![0u8; size];
    // Per position: the slowest losing capture's level (loss no sooner than
    // that), or `NO_LOSS` if a capture draws or wins (never a loss).
    let mut floor = vec![0u8; size];
    const NO_LOSS: u8 = 255;
    let levels = MAX_DTM as usize + 2;
    let mut pending: Vec<Vec<u32>> = vec![Vec::new(); levels];
    let mut legal_total = 0u64;
    let mut children: Vec<u32> = Vec::with_capacity(64);
    for i in 0..size {
        if (i as u64).is_multiple_of(REPORT_EVERY) {
            report(Phase::Scan, i as u64, size as u64)?;
        }
        let Some(mut pos) = layout.position(i as u64) else {
            continue;
        };
        if pos.is_check(!pos.turn()) || layout.index(&pos) != Some(i as u64) {
            continue;
        }
        legal_total += 1;
        value[i] = DRAW;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            pending[0].push(i as u32);
            continue;
        }
        children.clear();
        let mut best_win: Option<u32> = None;
        let mut slowest_loss = 0u32;
        let mut can_lose = true;
        for &m in moves.iter() {
            let capture = pos.is_capture(m);
            let undo = pos.make_move(m);
            if capture {
                let v = smaller.probe(&pos).ok_or(GenerateError::MissingDependency(
                    Material::of(&pos).canonical(),
                ));
                pos.unmake_move(m, undo);
                match v?.parent() {
                    Verdict::Win(d) => {
                        best_win = Some(best_win.map_or(d, |b| b.min(d)));
                        can_lose = false;
                    }
                    Verdict::Draw => can_lose = false,
                    Verdict::Loss(d) => slowest_loss = slowest_loss.max(d),
                }
            } else {
                let c = layout.index(&pos);
                pos.unmake_move(m, undo);
                if let Some(c) = c {
                    children.push(c as u32);
                }
            }
        }
        children.sort_unstable();
        children.dedup();
        count[i] = children.len().min(254) as u8;
        if let Some(d) = best_win {
            if d > MAX_DTM {
                return Err(GenerateError::TooDeep(material));
            }
            pending[d as usize].push(i as u32);
        }
        floor[i] = if can_lose {
            slowest_loss.min(MAX_DTM + 1) as u8
        } else {
            NO_LOSS
        };
        if can_lose && best_win.is_none() && children.is_empty() {
            if slowest_loss > MAX_DTM {
                return Err(GenerateError::TooDeep(material));
            }
            pending[slowest_loss as usize].push(i as u32);
        }
    }
    // `solved[i]`: whether `value[i]` is final (draws stay unsolved).
    let mut solved = vec![false; size];
    let mut done = 0u64;
    let mut current: Vec<u32> = Vec::new();
    let mut preds: Vec<u32> = Vec::with_capacity(64);
    for level in 0..=MAX_DTM as usize {
        for &i in &std::mem::take(&mut pending[level]) {
            if !solved[i as usize] {
                solved[i as usize] = true;
                value[i as usize] = byte(level as u32);
                current.push(i);
            }
        }
        if current.is_empty() && pending[level..].iter().all(Vec::is_empty) {
            break;
        }
        let mut next: Vec<u32> = Vec::new();
        for &c in &current {
            done += 1;
            if done.is_multiple_of(REPORT_EVERY) {
                report(Phase::Solve, done, legal_total)?;
            }
            let Some(pos) = layout.position(c as u64) else {
                continue;
            };
            predecessors(&pos, &layout, &mut preds);
            for &p in &preds {
                let pi = p as usize;
                if solved[pi] {
                    continue;
                }
                if level % 2 == 0 {
                    // The successor is lost for its mover: a win for ours.
                    if level + 1 > MAX_DTM as usize {
                        return Err(GenerateError::TooDeep(material));
                    }
                    solved[pi] = true;
                    value[pi] = byte(level as u32 + 1);
                    next.push(p);
                } else {
                    count[pi] = count[pi].saturating_sub(1);
                    if count[pi] == 0 && floor[pi] != NO_LOSS {
                        let at = (level + 1).max(floor[pi] as usize);
                        if at > MAX_DTM as usize {
                            return Err(GenerateError::TooDeep(material));
                        }
                        if at == level + 1 {
                            solved[pi] = true;
                            value[pi] = byte(at as u32);
                            next.push(p);
                        } else {
                            pending[at].push(p);
                        }
                    }
                }
            }
        }
        current = next;
    }
    if !current.is_empty() {
        return Err(GenerateError::TooDeep(material));
    }
    report(Phase::Solve, legal_total, legal_total)?;
    Ok(Table {
        material,
        layout,
        data: value,
    })
}

/// The canonical indices of the legal positions from which a non-capture move
/// leads to `pos`, each once.
fn predecessors(pos: &Position, layout: &Layout, out: &mut Vec<u32>) {
    out.clear();
    let mover = !pos.turn();
    let mut p = pos.clone();
    p.set_turn(mover);
    for s in set_bits(pos.occupied[mover.index()]) {
        let code = pos.board[s];
        let Some(piece) = Piece::from_code(code) else {
            continue;
        };
        for from in origins(pos, piece, s) {
            // Take the move back: the piece returns to `from`.
            p.set(Square::idx(s as u8), None);
            p.set(Square::idx(from), Some(piece));
            // The side that did not move may not be left in check there.
            if !p.is_check(pos.turn())
                && let Some(i) = layout.index(&p)
            {
                out.push(i as u32);
            }
            p.set(Square::idx(from), None);
            p.set(Square::idx(s as u8), Some(piece));
        }
    }
    out.sort_unstable();
    out.dedup();
}

/// The empty squares a piece now on `s` may have come from by a
/// non-capture move.
fn origins(pos: &Position, piece: Piece, s: usize) -> Vec<u8> {
    let (f, r) = ((s % 9) as i32, (s / 9) as i32);
    let at = |f: i32, r: i32| -> Option<usize> {
        ((0..9).contains(&f) && (0..10).contains(&r)).then_some((r * 9 + f) as usize)
    };
    let empty = |sq: usize| pos.board[sq] == 0;
    let mut out = Vec::new();
    let mut push_if = |sq: Option<usize>, ok: &dyn Fn(usize) -> bool| {
        if let Some(sq) = sq
            && empty(sq)
            && ok(sq)
        {
            out.push(sq as u8);
        }
    };
    let allowed = |sq: usize| allowed_square(piece, Square::idx(sq as u8));
    match piece.role {
        Role::General => {
            for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                push_if(at(f + df, r + dr), &allowed);
            }
        }
        Role::Advisor => {
            for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                push_if(at(f + df, r + dr), &allowed);
            }
        }
        Role::Elephant => {
            for (df, dr) in [(2, 2), (2, -2), (-2, 2), (-2, -2)] {
                let eye = at(f + df / 2, r + dr / 2);
                if eye.is_some_and(empty) {
                    push_if(at(f + df, r + dr), &allowed);
                }
            }
        }
        Role::Horse => {
            // From o to s with delta (df, dr): the leg is next to o, one step
            // along the long side of the jump.
            for (df, dr) in [
                (1, 2),
                (-1, 2),
                (1, -2),
                (-1, -2),
                (2, 1),
                (2, -1),
                (-2, 1),
                (-2, -1),
            ] {
                let (of, or) = (f - df, r - dr);
                let leg = if dr.abs() == 2 {
                    at(of, or + dr.signum())
                } else {
                    at(of + df.signum(), or)
                };
                if leg.is_some_and(empty) {
                    push_if(at(of, or), &|_| true);
                }
            }
        }
        Role::Chariot | Role::Cannon => {
            for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                let (mut cf, mut cr) = (f + df, r + dr);
                while let Some(sq) = at(cf, cr) {
                    if !empty(sq) {
                        break;
                    }
                    out.push(sq as u8);
                    cf += df;
                    cr += dr;
                }
            }
        }
        Role::Soldier => {
            let back = if piece.color == Color::Red { -1 } else { 1 };
            push_if(at(f, r + back), &allowed);
            let crossed = match piece.color {
                Color::Red => r >= 5,
                Color::Black => r <= 4,
            };
            if crossed {
                push_if(at(f - 1, r), &|_| true);
                push_if(at(f + 1, r), &|_| true);
            }
        }
    }
    out
}
