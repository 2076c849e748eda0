//! The position: board, side to move, counters and Zobrist key, with make/unmake.

use crate::engine::pst::PST;
use crate::lines::COLUMN_BIT;
use crate::moves::Move;
use crate::piece::{Color, Piece, Role};
use crate::square::{NUM_SQUARES, Square};
use crate::zobrist::{SIDE_KEY, piece_key};

/// Starting position in FEN.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// What [`Position::make_move`] returns so that [`Position::unmake_move`] can restore
/// the previous position exactly.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Undo {
    pub(crate) captured: u8,
    pub(crate) halfmoves: u32,
}

impl Undo {
    /// The captured piece, if the move was a capture.
    pub fn captured(&self) -> Option<Piece> {
        Piece::from_code(self.captured)
    }
}

/// A xiangqi position.
///
/// ```
/// use xiangqi::Position;
/// let pos = Position::startpos();
/// assert_eq!(pos.legal_moves().len(), 44);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    /// Piece code per square (0 = empty).
    pub(crate) board: [u8; NUM_SQUARES],
    /// Occupancy per colour, one bit per square.
    pub(crate) occupied: [u128; 2],
    /// Occupancy per piece code (role | colour << 3), one bit per square, so
    /// the evaluation visits only the pieces it weighs and counts the rest.
    pub(crate) pieces: [u128; 16],
    /// Occupancy of both colours file by file (bit `file * 10 + rank`), so
    /// that a file's pieces are one shift away (see `lines.rs`).
    pub(crate) columns: u128,
    /// Material plus piece-square value per colour (the evaluation's
    /// [`PST`]), kept up to date by every change of the board.
    pub(crate) psq: [i32; 2],
    /// General squares per colour (valid positions have exactly one each).
    pub(crate) generals: [u8; 2],
    pub(crate) turn: Color,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) key: u64,
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl std::fmt::Display for Position {
    /// A text diagram, Black at the top, followed by the FEN.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in (0..10).rev() {
            write!(f, "{rank} ")?;
            for file in 0..9 {
                let c = Square::new(file, rank)
                    .and_then(|s| self.piece_at(s))
                    .map_or('.', |p| p.char());
                write!(f, "{c}")?;
                if file < 8 {
                    f.write_str(" ")?;
                }
            }
            f.write_str("\n")?;
        }
        writeln!(f, "  a b c d e f g h i")?;
        write!(f, "{}", self.to_fen())
    }
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        // The constant is valid; fall back to an empty board rather than panic.
        Position::from_fen(START_FEN).unwrap_or_else(|_| Position::empty())
    }

    /// An empty board, Red to move (not a legal position until generals are placed).
    pub fn empty() -> Position {
        Position {
            board: [0; NUM_SQUARES],
            occupied: [0; 2],
            pieces: [0; 16],
            columns: 0,
            psq: [0; 2],
            generals: [0; 2],
            turn: Color::Red,
            halfmoves: 0,
            fullmoves: 1,
            key: 0,
        }
    }

    /// The piece on a square.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.board[sq.index()])
    }

    /// Side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Plies since the last capture.
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// Move number, starting at 1 and incremented after Black's move.
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Zobrist key of the position (pieces and side to move).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The general's square of a colour.
    pub fn general(&self, color: Color) -> Square {
        Square::idx(self.generals[color.index()])
    }

    /// Squares occupied by a colour, in index order.
    pub fn squares_of(&self, color: Color) -> impl Iterator<Item = Square> + '_ {
        set_bits(self.occupied[color.index()]).map(|s| Square::idx(s as u8))
    }

    /// Number of pieces of a kind.
    pub fn count(&self, piece: Piece) -> usize {
        let code = piece.code();
        self.squares_of(piece.color)
            .filter(|s| self.board[s.index()] == code)
            .count()
    }

    /// Places or removes a piece (used to set up positions; updates the key).
    pub(crate) fn set(&mut self, sq: Square, piece: Option<Piece>) {
        let i = sq.index();
        let old = self.board[i];
        if old != 0 {
            self.key ^= piece_key(old, i);
            self.occupied[((old >> 3) & 1) as usize] &= !(1u128 << i);
            self.pieces[(old & 15) as usize] &= !(1u128 << i);
            self.columns &= !COLUMN_BIT[i];
            self.psq[((old >> 3) & 1) as usize] -= PST[(old & 15) as usize][i];
        }
        let new = piece.map_or(0, |p| p.code());
        self.board[i] = new;
        if let Some(p) = piece {
            self.key ^= piece_key(new, i);
            self.occupied[p.color.index()] |= 1u128 << i;
            self.pieces[new as usize] |= 1u128 << i;
            self.columns |= COLUMN_BIT[i];
            self.psq[p.color.index()] += PST[new as usize][i];
            if p.role == Role::General {
                self.generals[p.color.index()] = i as u8;
            }
        }
    }

    pub(crate) fn set_turn(&mut self, turn: Color) {
        if turn != self.turn {
            self.key ^= SIDE_KEY;
            self.turn = turn;
        }
    }

    /// Recomputes the key from scratch (the incremental key must always agree).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for (i, &code) in self.board.iter().enumerate() {
            if code != 0 {
                k ^= piece_key(code, i);
            }
        }
        if self.turn == Color::Black {
            k ^= SIDE_KEY;
        }
        k
    }

    /// Plays a move without checking legality. The move must at least be
    /// pseudo-legal for the result to be meaningful; it never panics.
    #[inline]
    pub fn make_move(&mut self, m: Move) -> Undo {
        let (from, to) = (m.from.index(), m.to.index());
        let piece = self.board[from];
        let captured = self.board[to];
        let undo = Undo {
            captured,
            halfmoves: self.halfmoves,
        };
        let us = ((piece >> 3) & 1) as usize;
        if captured != 0 {
            let them = ((captured >> 3) & 1) as usize;
            self.key ^= piece_key(captured, to);
            self.occupied[them] &= !(1u128 << to);
            self.pieces[(captured & 15) as usize] &= !(1u128 << to);
            self.psq[them] -= PST[(captured & 15) as usize][to];
            self.halfmoves = 0;
        } else {
            self.halfmoves = self.halfmoves.saturating_add(1);
        }
        if piece != 0 {
            let code = (piece & 15) as usize;
            self.key ^= piece_key(piece, from) ^ piece_key(piece, to);
            self.occupied[us] ^= (1u128 << from) | (1u128 << to);
            self.pieces[code] ^= (1u128 << from) | (1u128 << to);
            self.columns = self.columns & !COLUMN_BIT[from] | COLUMN_BIT[to];
            self.psq[us] += PST[code][to] - PST[code][from];
            if piece & 7 == Role::General as u8 {
                self.generals[us] = to as u8;
            }
        }
        self.board[to] = piece;
        self.board[from] = 0;
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !self.turn;
        self.key ^= SIDE_KEY;
        undo
    }

    /// Takes back a move played with [`Position::make_move`].
    #[inline]
    pub fn unmake_move(&mut self, m: Move, undo: Undo) {
        let (from, to) = (m.from.index(), m.to.index());
        let piece = self.board[to];
        let us = ((piece >> 3) & 1) as usize;
        self.turn = !self.turn;
        self.key ^= SIDE_KEY;
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_sub(1).max(1);
        }
        if piece != 0 {
            let code = (piece & 15) as usize;
            self.key ^= piece_key(piece, from) ^ piece_key(piece, to);
            self.occupied[us] ^= (1u128 << from) | (1u128 << to);
            self.pieces[code] ^= (1u128 << from) | (1u128 << to);
            self.columns |= COLUMN_BIT[from];
            if undo.captured == 0 {
                self.columns &= !COLUMN_BIT[to];
            }
            self.psq[us] -= PST[code][to] - PST[code][from];
            if piece & 7 == Role::General as u8 {
                self.generals[us] = from as u8;
            }
        }
        self.board[from] = piece;
        self.board[to] = undo.captured;
        if undo.captured != 0 {
            let them = ((undo.captured >> 3) & 1) as usize;
            let code = (undo.captured & 15) as usize;
            self.key ^= piece_key(undo.captured, to);
            self.occupied[them] |= 1u128 << to;
            self.pieces[code] |= 1u128 << to;
            self.psq[them] += PST[code][to];
        }
        self.halfmoves = undo.halfmoves;
    }

    /// Passes the turn (null move, for search). Undo with [`Position::unmake_null`].
    pub fn make_null(&mut self) -> u32 {
        self.turn = !self.turn;
        self.key ^= SIDE_KEY;
        let h = self.halfmoves;
        self.halfmoves = self.halfmoves.saturating_add(1);
        h
    }

    /// Takes back [`Position::make_null`].
    pub fn unmake_null(&mut self, halfmoves: u32) {
        self.turn = !self.turn;
        self.key ^= SIDE_KEY;
        self.halfmoves = halfmoves;
    }

    /// Plays a move after checking that it is legal.
    pub fn play(&mut self, m: Move) -> Result<Undo, crate::IllegalMove> {
        if self.is_legal(m) {
            Ok(self.make_move(m))
        } else {
            Err(crate::IllegalMove(m))
        }
    }

    /// Mirror image (files a..i swapped), same side to move.
    pub fn mirror(&self) -> Position {
        let mut p = Position::empty();
        for sq in Square::all() {
            p.set(sq.flip_file(), self.piece_at(sq));
        }
        p.set_turn(self.turn);
        p.halfmoves = self.halfmoves;
        p.fullmoves = self.fullmoves;
        p
    }
}

/// The indices of the bits set in a square set, lowest first.
pub(crate) fn set_bits(mut bb: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if bb == 0 {
            return None;
        }
        let s = bb.trailing_zeros() as usize;
        bb &= bb - 1;
        Some(s)
    })
}
