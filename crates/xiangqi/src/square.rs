//! Squares, files and ranks.
//!
//! Squares are numbered `rank * 9 + file`, with file `a`..`i` (0..8) from left to
//! right as Red sees the board and rank 0..9 starting at Red's back rank, the same
//! coordinates ICCS and UCI use (`a0`..`i9`).

use std::fmt;

/// Number of squares on the board.
pub const NUM_SQUARES: usize = 90;

/// A square on the 9x10 board (always valid).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// Builds a square from a file (0..9) and a rank (0..10).
    ///
    /// ```
    /// use xiangqi::Square;
    /// let sq = Square::new(4, 0).unwrap();
    /// assert_eq!(sq.to_string(), "e0");
    /// assert!(Square::new(9, 0).is_none());
    /// ```
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 10 {
            Some(Square(rank * 9 + file))
        } else {
            None
        }
    }

    /// Builds a square from its index `0..90`.
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < NUM_SQUARES {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// Internal constructor for indices already known to be `< 90`.
    #[inline]
    pub(crate) const fn idx(index: u8) -> Square {
        debug_assert!(index < 90);
        Square(index)
    }

    /// The index `0..90`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..9 (`a` = 0).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    /// Rank 0..10 (Red's back rank = 0).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// The square with the same file and mirrored rank (seen from the other side).
    pub const fn flip_rank(self) -> Square {
        Square((9 - self.rank()) * 9 + self.file())
    }

    /// The square with the same rank and mirrored file.
    pub const fn flip_file(self) -> Square {
        Square(self.rank() * 9 + (8 - self.file()))
    }

    /// Parses a square in ICCS/UCI coordinates (`e0`, `H2`).
    ///
    /// ```
    /// use xiangqi::Square;
    /// assert_eq!(Square::parse("h2").unwrap().index(), 2 * 9 + 7);
    /// assert!(Square::parse("j1").is_none());
    /// ```
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'0');
        Square::new(file, rank)
    }

    /// Iterates over all 90 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..NUM_SQUARES as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}
