//! Endgame tablebases: every position of small endings solved by retrograde
//! analysis, so that the engine plays them perfectly and the interfaces can
//! show the verdict.
//!
//! - [`Material`]: a signature such as `KR-KAA` (naming in its docs);
//!   [`Material::standard`] lists the standard set by size.
//! - [`generate()`]: builds one [`Table`] from the tables its captures lead
//!   to, reporting [`Progress`] through a callback.
//! - [`Table`]: one byte per position (see [`Verdict`] for the values), with
//!   the left-right mirror folded in; [`Table::to_bytes`] and
//!   [`Table::from_bytes`] give a versioned, checksummed file image, so the
//!   front end decides where files live and the crate does no IO.
//! - [`Tablebases`]: a set of tables, probed by any position whose material
//!   one covers (colours swapped when Black is the stronger side); held from
//!   the start or read on first use through a [`TableSource`].
//!
//! The rules the values follow are Ludus's: checkmate and stalemate lose for
//! the side to move, the generals may not face each other, and a position
//! with no chariot, horse, cannon or soldier on the board is a draw (unless
//! the side to move has no move). Values are distance to mate in plies with
//! best play (the winner mates as fast as it can, the loser delays as long as
//! it can), across captures into smaller endings.
//!
//! What the tables do not know: the game's history. They ignore repetition
//! (a position is a win only if a forced mate exists; a defence that could
//! only hold by perpetual check or chase is still a draw in the table) and
//! the 60-move rule. The engine probes below the repetition check, so a
//! repeated position is still judged by the rules first.

mod generate;
mod index;
mod material;

pub use generate::{GenerateError, Phase, Progress, generate};
pub use material::{MAX_MATERIAL_NAME, Material, MaterialError};

use crate::moves::Move;
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::square::Square;
use index::Layout;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// Longest distance to mate a table can store, in plies.
pub const MAX_DTM: u32 = 253;

/// Byte of a position that is not used (illegal, overlapping, or the mirror
/// image of a canonical position).
const UNUSED: u8 = 255;
/// Byte of a drawn position.
const DRAW: u8 = 0;

/// First bytes of a table file.
pub const MAGIC: &[u8; 8] = b"LUDUSXTB";
/// Format version of [`Table::to_bytes`].
pub const FORMAT_VERSION: u16 = 1;

/// The value of a position for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Verdict {
    /// The side to move mates in this many plies (odd).
    Win(u32),
    /// The side to move is mated in this many plies (even; 0: it is mated or
    /// stalemated now).
    Loss(u32),
    /// Neither side can force mate.
    Draw,
}

impl Verdict {
    /// Decodes a table byte: 0 draw, `d + 1` mate in `d` plies (odd: the side
    /// to move wins).
    fn from_byte(b: u8) -> Option<Verdict> {
        match b {
            DRAW => Some(Verdict::Draw),
            UNUSED => None,
            _ => {
                let d = b as u32 - 1;
                Some(if d % 2 == 1 {
                    Verdict::Win(d)
                } else {
                    Verdict::Loss(d)
                })
            }
        }
    }

    /// Plies to mate, if either side mates.
    pub fn plies(&self) -> Option<u32> {
        match *self {
            Verdict::Win(d) | Verdict::Loss(d) => Some(d),
            Verdict::Draw => None,
        }
    }

    /// The verdict one ply earlier, for the side that played into this one.
    pub fn parent(self) -> Verdict {
        match self {
            Verdict::Win(d) => Verdict::Loss(d + 1),
            Verdict::Loss(d) => Verdict::Win(d + 1),
            Verdict::Draw => Verdict::Draw,
        }
    }

    /// How good the verdict is for its side (higher is better): quicker wins,
    /// then draws, then longer defences.
    pub fn rank(self) -> i64 {
        match self {
            Verdict::Win(d) => 1_000_000 - d as i64,
            Verdict::Draw => 0,
            Verdict::Loss(d) => -1_000_000 + d as i64,
        }
    }
}

/// A tablebase verdict told from a colour's side, for people: "Red wins in 7"
/// (moves, as the mate scores of UCI count them), "draw".
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Report {
    /// The side that mates, if one does.
    pub winner: Option<Color>,
    /// Plies to mate (0 for a draw).
    pub plies: u32,
}

impl Report {
    /// The verdict of a position whose side to move is `turn`.
    pub fn new(verdict: Verdict, turn: Color) -> Report {
        match verdict {
            Verdict::Win(d) => Report {
                winner: Some(turn),
                plies: d,
            },
            Verdict::Loss(d) => Report {
                winner: Some(!turn),
                plies: d,
            },
            Verdict::Draw => Report {
                winner: None,
                plies: 0,
            },
        }
    }

    /// Moves to mate, counted as UCI's `score mate` counts them.
    pub fn moves(&self) -> u32 {
        self.plies.div_ceil(2)
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(_) if self.plies == 0 => write!(f, "{} has won", self.winner_name()),
            Some(_) => write!(f, "{} wins in {}", self.winner_name(), self.moves()),
            None => f.write_str("draw"),
        }
    }
}

impl Report {
    fn winner_name(&self) -> &'static str {
        match self.winner {
            Some(Color::Red) => "Red",
            Some(Color::Black) => "Black",
            None => "nobody",
        }
    }
}

/// What is wrong with a table's bytes.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TableError {
    /// Shorter than its header says.
    Truncated,
    /// Does not start with [`MAGIC`].
    BadMagic,
    /// Written by another format version.
    Version(u16),
    /// The signature in the header does not parse or is not canonical.
    BadMaterial(String),
    /// The number of positions is not the signature's.
    Size { expected: u64, found: u64 },
    /// The checksum does not match the contents.
    Checksum,
    /// A position byte that is no value.
    BadValue { index: u64 },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Truncated => write!(f, "tablebase file is truncated"),
            TableError::BadMagic => write!(f, "not a Ludus tablebase file"),
            TableError::Version(v) => write!(
                f,
                "tablebase file has format version {v}, this build reads {FORMAT_VERSION}"
            ),
            TableError::BadMaterial(m) => write!(f, "tablebase file names bad material {m:?}"),
            TableError::Size { expected, found } => write!(
                f,
                "tablebase file has {found} positions, its material has {expected}"
            ),
            TableError::Checksum => write!(f, "tablebase file checksum does not match"),
            TableError::BadValue { index } => {
                write!(f, "tablebase file has a bad value at position {index}")
            }
        }
    }
}

impl std::error::Error for TableError {}

/// FNV-1a, 64 bits: a checksum for the file image.
fn checksum(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The solved positions of one signature.
#[derive(Clone)]
pub struct Table {
    material: Material,
    layout: Layout,
    data: Vec<u8>,
}

impl fmt::Debug for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Table({}, {} positions)", self.material, self.data.len())
    }
}

impl Table {
    /// The signature.
    pub fn material(&self) -> Material {
        self.material
    }

    /// Number of indexed positions (one byte each).
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether the table has no positions (never, for a real signature).
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The canonical index of a position of exactly this material (Red the
    /// signature's first side); a position and its mirror image share one.
    pub fn index(&self, pos: &Position) -> Option<u64> {
        self.layout.index(pos)
    }

    /// The placement an index stands for (`None` if two pieces would share a
    /// square); it may be illegal or the mirror twin of a canonical index.
    pub fn position(&self, index: u64) -> Option<Position> {
        self.layout.position(index)
    }

    /// The raw values, one byte per index.
    pub fn values(&self) -> &[u8] {
        &self.data
    }

    /// Counts of positions per kind: (wins, draws, losses) for the side to
    /// move, over canonical legal positions, and the longest mate in plies.
    pub fn stats(&self) -> TableStats {
        let mut s = TableStats::default();
        for &b in &self.data {
            match Verdict::from_byte(b) {
                Some(Verdict::Win(d)) => {
                    s.wins += 1;
                    s.longest = s.longest.max(d);
                }
                Some(Verdict::Loss(_)) => s.losses += 1,
                Some(Verdict::Draw) => s.draws += 1,
                None => {}
            }
        }
        s
    }

    /// The verdict of a position of exactly this material, Red being the
    /// signature's first side.
    fn probe_exact(&self, pos: &Position) -> Option<Verdict> {
        let i = self.layout.index(pos)?;
        Verdict::from_byte(*self.data.get(usize::try_from(i).ok()?)?)
    }

    /// The file image: [`MAGIC`], the format version (u16), the signature's
    /// name (length byte, ASCII), the number of positions (u64), an FNV-1a
    /// checksum of the values (u64), then the values; little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        let name = self.material.to_string();
        let mut out = Vec::with_capacity(self.data.len() + 64);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.push(name.len() as u8);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&(self.data.len() as u64).to_le_bytes());
        out.extend_from_slice(&checksum(&self.data).to_le_bytes());
        out.extend_from_slice(&self.data);
        out
    }

    /// Reads a file image written by [`Table::to_bytes`], checking everything.
    ///
    /// # Errors
    ///
    /// The [`TableError`] of the first thing wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Table, TableError> {
        let take = |at: usize, n: usize| bytes.get(at..at + n).ok_or(TableError::Truncated);
        if take(0, 8)? != MAGIC {
            return Err(TableError::BadMagic);
        }
        let version = u16::from_le_bytes([take(8, 1)?[0], take(9, 1)?[0]]);
        if version != FORMAT_VERSION {
            return Err(TableError::Version(version));
        }
        let len = take(10, 1)?[0] as usize;
        let name = String::from_utf8_lossy(take(11, len)?).into_owned();
        let material = Material::parse(&name).map_err(|_| TableError::BadMaterial(name.clone()))?;
        // Exactly as written: canonical, in upper case.
        if !material.is_canonical() || material.to_string() != name {
            return Err(TableError::BadMaterial(name));
        }
        let mut at = 11 + len;
        let read_u64 = |at: usize| -> Result<u64, TableError> {
            let b = take(at, 8)?;
            let mut a = [0u8; 8];
            a.copy_from_slice(b);
            Ok(u64::from_le_bytes(a))
        };
        let found = read_u64(at)?;
        let sum = read_u64(at + 8)?;
        at += 16;
        let layout = Layout::new(&material);
        if found != layout.size() {
            return Err(TableError::Size {
                expected: layout.size(),
                found,
            });
        }
        let data = bytes.get(at..).ok_or(TableError::Truncated)?;
        if (data.len() as u64) < found {
            return Err(TableError::Truncated);
        }
        if data.len() as u64 > found {
            return Err(TableError::Size {
                expected: found,
                found: data.len() as u64,
            });
        }
        if checksum(data) != sum {
            return Err(TableError::Checksum);
        }
        if let Some(i) = data
            .iter()
            .position(|&b| b != UNUSED && b as u32 > MAX_DTM + 1)
        {
            return Err(TableError::BadValue { index: i as u64 });
        }
        Ok(Table {
            material,
            layout,
            data: data.to_vec(),
        })
    }
}

/// Summary counts of a table (see [`Table::stats`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct TableStats {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Longest mate in plies.
    pub longest: u32,
}

/// Where the tables of a [`Tablebases`] made with [`Tablebases::lazy`] come
/// from when first probed: the front end reads its files, the crate does no
/// IO.
pub trait TableSource: Send + Sync {
    /// The table of a canonical signature, or `None` if it cannot be had.
    fn load(&self, material: &Material) -> Option<Table>;
}

/// A set of tables, probed by position. Tables are held from the start
/// ([`Tablebases::insert`]) or read on first probe ([`Tablebases::lazy`]),
/// so a process pays only for the endings it meets.
#[derive(Clone, Default)]
pub struct Tablebases {
    tables: HashMap<Material, OnceLock<Option<Table>>>,
    source: Option<Arc<dyn TableSource>>,
    /// Most pieces (generals included) of any table held.
    max_pieces: u32,
}

impl fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tablebases({} signatures)", self.tables.len())
    }
}

/// A position with the stronger side as Red: colours swapped and the board
/// turned round if Black is stronger.
fn oriented(pos: &Position, material: Material) -> Option<(Position, Material)> {
    if material.is_canonical() {
        return None;
    }
    let mut p = Position::empty();
    for sq in Square::all() {
        if let Some(piece) = pos.piece_at(sq) {
            p.set(sq.flip_rank(), Some(Piece::new(!piece.color, piece.role)));
        }
    }
    p.set_turn(!pos.turn());
    Some((p, material.flipped()))
}

impl Tablebases {
    /// No tables.
    pub fn new() -> Tablebases {
        Tablebases::default()
    }

    /// Tables of these signatures, each read from `source` the first time a
    /// position needs it (a table that cannot be had then covers nothing).
    pub fn lazy(materials: &[Material], source: Arc<dyn TableSource>) -> Tablebases {
        let mut tb = Tablebases {
            source: Some(source),
            ..Tablebases::default()
        };
        for m in materials {
            tb.max_pieces = tb.max_pieces.max(m.pieces());
            tb.tables.insert(*m, OnceLock::new());
        }
        tb
    }

    /// Adds (or replaces) a table.
    pub fn insert(&mut self, table: Table) {
        self.max_pieces = self.max_pieces.max(table.material.pieces());
        self.tables
            .insert(table.material, OnceLock::from(Some(table)));
    }

    /// Forgets a signature's table (its memory goes once no probe holds it).
    pub fn remove(&mut self, material: &Material) {
        self.tables.remove(material);
        self.max_pieces = self.tables.keys().map(Material::pieces).max().unwrap_or(0);
    }

    /// The table of a canonical signature (read now if it is lazy).
    pub fn get(&self, material: &Material) -> Option<&Table> {
        self.tables
            .get(material)?
            .get_or_init(|| self.source.as_ref()?.load(material))
            .as_ref()
    }

    /// Number of tables (signatures, read or not).
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// Whether there are no tables.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// The signatures held, in generation order.
    pub fn materials(&self) -> Vec<Material> {
        let mut v: Vec<Material> = self.tables.keys().copied().collect();
        v.sort_by_key(|m| (m.pieces(), m.to_string()));
        v
    }

    /// Most pieces (generals included) on the board of any table held: a
    /// position with more is not covered (a cheap test before probing).
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The verdict of a position for the side to move, if a table covers its
    /// material, or if no side has a piece that could mate (then it is a draw,
    /// or a loss if the side to move has no move).
    pub fn probe(&self, pos: &Position) -> Option<Verdict> {
        let material = Material::of(pos);
        if !material.has_attackers(Color::Red) && !material.has_attackers(Color::Black) {
            return Some(if pos.legal_moves().is_empty() {
                Verdict::Loss(0)
            } else {
                Verdict::Draw
            });
        }
        if material.pieces() > self.max_pieces {
            return None;
        }
        match oriented(pos, material) {
            Some((p, m)) => self.get(&m)?.probe_exact(&p),
            None => self.get(&material)?.probe_exact(pos),
        }
    }

    /// The verdict at the root and the legal moves that keep it (the quickest
    /// mates when winning, the longest defences when losing, every drawing
    /// move when drawn), if the position and all its moves are covered.
    pub fn best_moves(&self, pos: &Position) -> Option<(Verdict, Vec<Move>)> {
        let verdict = self.probe(pos)?;
        let mut best: Option<Verdict> = None;
        let mut moves = Vec::new();
        let mut p = pos.clone();
        for &m in pos.legal_moves().iter() {
            let undo = p.make_move(m);
            let v = self.probe(&p).map(Verdict::parent);
            p.unmake_move(m, undo);
            let v = v?;
            match best {
                Some(b) if b.rank() > v.rank() => {}
                Some(b) if b == v => moves.push(m),
                _ => {
                    best = Some(v);
                    moves = vec![m];
                }
            }
        }
        Some((verdict, moves))
    }

    /// Every move of the position with the verdict it leads to, for the side
    /// to move, best first; `None` if a move is not covered.
    pub fn rank_moves(&self, pos: &Position) -> Option<Vec<(Move, Verdict)>> {
        let mut p = pos.clone();
        let mut out = Vec::new();
        for &m in pos.legal_moves().iter() {
            let undo = p.make_move(m);
            let v = self.probe(&p).map(Verdict::parent);
            p.unmake_move(m, undo);
            out.push((m, v?));
        }
        out.sort_by_key(|&(_, v)| std::cmp::Reverse(v.rank()));
        Some(out)
    }
}
