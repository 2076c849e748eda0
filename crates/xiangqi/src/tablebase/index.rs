//! Position indexing: a compact number for each placement of a signature's
//! pieces, with the left-right mirror folded in.
//!
//! The index counts, from the outside in: the side to move (2), Red's general
//! on the d or e file of its palace (6 squares: a position with Red's general
//! on the f file is indexed as its mirror image), Black's general (9 palace
//! squares), then for each group of like pieces (one colour and role, in the
//! signature's order) the set of squares it stands on, as a combination of
//! the squares that piece may ever occupy (advisors 5, elephants 7, soldiers
//! the 63 squares from their third rank on, the others all 90). With Red's
//! general on the e file a position and its mirror both have numbers; the
//! smaller one is canonical and the other is left unused.

use super::material::{Material, ROLES};
use crate::fen::allowed_square;
use crate::piece::{Color, Piece, Role};
use crate::position::{Position, set_bits};
use crate::square::Square;

/// `BINOMIAL[n][k]` for n < 91, k < 6.
static BINOMIAL: [[u64; 6]; 91] = build_binomial();

const fn build_binomial() -> [[u64; 6]; 91] {
    let mut t = [[0u64; 6]; 91];
    let mut n = 0;
    while n < 91 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 6 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
}

/// Palace squares of Red's general indexed directly (files d and e).
const RED_GENERAL: [u8; 6] = [3, 4, 12, 13, 21, 22];

/// One colour and role of a signature, and the squares it may stand on.
#[derive(Clone, Debug)]
struct Group {
    code: u8,
    count: usize,
    /// The allowed squares, lowest first.
    squares: Vec<u8>,
    /// Position of each square in `squares` (255: not allowed).
    slot: [u8; 90],
    /// Number of placements: C(squares, count).
    size: u64,
}

/// The index of one signature.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    groups: Vec<Group>,
    /// Black's general squares, lowest first, and each square's slot.
    black_general: Vec<u8>,
    black_slot: [u8; 90],
    red_slot: [u8; 90],
    /// Positions per side to move.
    half: u64,
}

impl Layout {
    pub(crate) fn new(material: &Material) -> Layout {
        let mut groups = Vec::new();
        for color in [Color::Red, Color::Black] {
            for (i, &role) in ROLES.iter().enumerate() {
                let count = material.counts[color.index()][i] as usize;
                if count == 0 {
                    continue;
                }
                let piece = Piece::new(color, role);
                let squares: Vec<u8> = Square::all()
                    .filter(|&s| allowed_square(piece, s))
                    .map(|s| s.index() as u8)
                    .collect();
                let mut slot = [255u8; 90];
                for (j, &s) in squares.iter().enumerate() {
                    slot[s as usize] = j as u8;
                }
                let size = BINOMIAL[squares.len()][count];
                groups.push(Group {
                    code: piece.code(),
                    count,
                    squares,
                    slot,
                    size,
                });
            }
        }
        let general = Piece::new(Color::Black, Role::General);
        let black_general: Vec<u8> = Square::all()
            .filter(|&s| allowed_square(general, s))
            .map(|s| s.index() as u8)
            .collect();
        let mut black_slot = [255u8; 90];
        for (j, &s) in black_general.iter().enumerate() {
            black_slot[s as usize] = j as u8;
        }
        let mut red_slot = [255u8; 90];
        for (j, &s) in RED_GENERAL.iter().enumerate() {
            red_slot[s as usize] = j as u8;
        }
        let half = groups
            .iter()
            .fold((RED_GENERAL.len() * black_general.len()) as u64, |n, g| {
                n.saturating_mul(g.size)
            });
        Layout {
            groups,
            black_general,
            black_slot,
            red_slot,
            half,
        }
    }

    /// Number of indices (both sides to move).
    pub(crate) fn size(&self) -> u64 {
        self.half.saturating_mul(2)
    }

    /// The canonical index of a position of this layout's material (with
    /// Red as the signature's first side).
    pub(crate) fn index(&self, pos: &Position) -> Option<u64> {
        match pos.generals[0] % 9 {
            3 => self.raw_index(pos, false),
            5 => self.raw_index(pos, true),
            _ => {
                let a = self.raw_index(pos, false)?;
                let b = self.raw_index(pos, true)?;
                Some(a.min(b))
            }
        }
    }

    /// The index of a position, read in mirror image if `mirror`.
    fn raw_index(&self, pos: &Position, mirror: bool) -> Option<u64> {
        let map = |s: usize| -> usize { if mirror { s - s % 9 + (8 - s % 9) } else { s } };
        let red = self.red_slot[map(pos.generals[0] as usize)];
        let black = self.black_slot[map(pos.generals[1] as usize)];
        if red == 255 || black == 255 {
            return None;
        }
        let mut idx = pos.turn.index() as u64;
        idx = idx * RED_GENERAL.len() as u64 + red as u64;
        idx = idx * self.black_general.len() as u64 + black as u64;
        for g in &self.groups {
            let mut slots = [0u8; 5];
            let mut n = 0;
            for s in set_bits(pos.pieces[g.code as usize]) {
                if n >= g.count {
                    return None;
                }
                let slot = g.slot[map(s)];
                if slot == 255 {
                    return None;
                }
                slots[n] = slot;
                n += 1;
            }
            if n != g.count {
                return None;
            }
            let slots = &mut slots[..n];
            slots.sort_unstable();
            let rank: u64 = slots
                .iter()
                .enumerate()
                .map(|(k, &s)| BINOMIAL[s as usize][k + 1])
                .sum();
            idx = idx * g.size + rank;
        }
        Some(idx)
    }

    /// The placement an index stands for, or `None` if two pieces would share
    /// a square or the index is out of range. The position may still be
    /// illegal (the side not to move in check) or not canonical.
    pub(crate) fn position(&self, mut idx: u64) -> Option<Position> {
        if idx >= self.size() {
            return None;
        }
        let mut placed: Vec<(u8, u8)> = Vec::with_capacity(12);
        for g in self.groups.iter().rev() {
            let mut rank = idx % g.size;
            idx /= g.size;
            // Unrank the combination, highest element first.
            let mut top = g.squares.len();
            for k in (1..=g.count).rev() {
                let mut s = top - 1;
                while BINOMIAL[s][k] > rank {
                    s -= 1;
                }
                rank -= BINOMIAL[s][k];
                placed.push((g.squares[s], g.code));
                top = s;
            }
        }
        let black = self.black_general[(idx % self.black_general.len() as u64) as usize];
        idx /= self.black_general.len() as u64;
        let red = RED_GENERAL[(idx % RED_GENERAL.len() as u64) as usize];
        idx /= RED_GENERAL.len() as u64;
        let turn = if idx == 0 { Color::Red } else { Color::Black };
        placed.push((red, Piece::new(Color::Red, Role::General).code()));
        placed.push((black, Piece::new(Color::Black, Role::General).code()));
        let mut pos = Position::empty();
        for &(s, code) in &placed {
            if pos.board[s as usize] != 0 {
                return None;
            }
            pos.set(Square::idx(s), Piece::from_code(code));
        }
        pos.set_turn(turn);
        Some(pos)
    }
}
