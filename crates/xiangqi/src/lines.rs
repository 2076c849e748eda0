//! Sliding along files and ranks with bit operations instead of square by
//! square: the occupancy of a rank comes straight out of the occupancy bit set
//! (`rank * 9 + file`), that of a file out of a second, file-major one
//! ([`Position::columns`], bit `file * 10 + rank`) that moves keep up to date.
//! The nearest occupied squares either way along a line are then a trailing-
//! or leading-zero count away. The evaluation counts chariot and cannon
//! mobility this way. (Move generation still walks the rays: measured, the
//! line version was no faster in search and slower in perft.)

use crate::position::Position;

/// Bit of each square in the file-major occupancy (`file * 10 + rank`).
pub(crate) static COLUMN_BIT: [u128; 90] = build_column_bits();

const fn build_column_bits() -> [u128; 90] {
    let mut t = [0; 90];
    let mut s = 0;
    while s < 90 {
        t[s] = 1u128 << ((s % 9) * 10 + s / 9);
        s += 1;
    }
    t
}

/// One file or rank through a square, seen from that square: the nearest
/// occupied index on the line each way. Indices run up the line (ranks
/// northwards, files eastwards); with no piece above, `up` is the length of
/// the line, with none below, `down` is -1.
#[derive(Clone, Copy)]
pub(crate) struct Line {
    len: i32,
    up: i32,
    down: i32,
}

impl Line {
    /// The line with occupancy `bits` (`len` squares) seen from index `at`.
    #[inline]
    fn new(bits: u32, at: u32, len: i32) -> Line {
        let above = bits & !((2u32 << at) - 1);
        let below = bits & ((1u32 << at) - 1);
        Line {
            len,
            up: if above == 0 {
                len
            } else {
                above.trailing_zeros() as i32
            },
            down: 31 - below.leading_zeros() as i32,
        }
    }

    /// Empty squares between the square and the nearest piece (or the edge),
    /// both ways.
    #[inline]
    pub(crate) fn empty(&self) -> i32 {
        self.up - self.down - 2
    }

    /// How many of the two directions end in a piece.
    #[inline]
    pub(crate) fn blocked(&self) -> i32 {
        (self.up < self.len) as i32 + (self.down >= 0) as i32
    }
}

impl Position {
    /// The file through square `s` (indices are ranks, up is north).
    #[inline]
    pub(crate) fn file_line(&self, s: usize) -> Line {
        let (file, rank) = (s % 9, s / 9);
        let bits = (self.columns >> (file * 10)) as u32 & 0x3FF;
        Line::new(bits, rank as u32, 10)
    }

    /// The rank through square `s` (indices are files, up is east).
    #[inline]
    pub(crate) fn rank_line(&self, s: usize) -> Line {
        let (file, rank) = (s % 9, s / 9);
        let all = self.occupied[0] | self.occupied[1];
        let bits = (all >> (rank * 9)) as u32 & 0x1FF;
        Line::new(bits, file as u32, 9)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::attacks::RAYS;

    /// Empty squares and blocked rays from `s`, walked square by square.
    fn walk(pos: &Position, s: usize, rays: std::ops::Range<usize>) -> (i32, i32) {
        let (mut empty, mut blocked) = (0, 0);
        for ray in &RAYS[s][rays] {
            for &t in &ray.squares[..ray.len as usize] {
                if pos.board[t as usize] != 0 {
                    blocked += 1;
                    break;
                }
                empty += 1;
            }
        }
        (empty, blocked)
    }

    #[test]
    fn lines_agree_with_rays() {
        for fen in [
            crate::position::START_FEN,
            "r3kabr1/4a4/1cn1b1n2/p1p1p3p/6p2/2P6/P3P1PcP/1CN1C1N2/3R5/2BAKABR1 w - - 14 8",
            "4k4/9/9/9/9/9/9/9/9/3K4R w",
        ] {
            let mut pos = Position::from_fen(fen).unwrap();
            // Moves and captures must keep the file-major set in step too.
            for m in pos
                .legal_moves()
                .iter()
                .take(5)
                .copied()
                .collect::<Vec<_>>()
            {
                let undo = pos.make_move(m);
                for s in 0..90 {
                    let (file, rank) = (pos.file_line(s), pos.rank_line(s));
                    assert_eq!(
                        (file.empty(), file.blocked()),
                        walk(&pos, s, 0..2),
                        "{fen} {m} {s}"
                    );
                    assert_eq!(
                        (rank.empty(), rank.blocked()),
                        walk(&pos, s, 2..4),
                        "{fen} {m} {s}"
                    );
                }
                pos.unmake_move(m, undo);
            }
        }
    }
}
