//! Material signatures: which pieces besides the two generals are on the board.
//!
//! A signature is named like `KRH-KAAEE`: each side's general `K` followed by
//! its other pieces in the order `R` chariot, `H` horse, `C` cannon, `P`
//! soldier, `A` advisor, `E` elephant; the stronger side (see
//! [`Material::canonical`]) first. A table is stored for the canonical
//! signature only, with the stronger side as Red; a position where Black is
//! stronger is probed with its colours swapped.

use crate::piece::{Color, Role};
use crate::position::Position;
use std::fmt;

/// The roles a signature counts, in the order its name lists them.
pub(crate) const ROLES: [Role; 6] = [
    Role::Chariot,
    Role::Horse,
    Role::Cannon,
    Role::Soldier,
    Role::Advisor,
    Role::Elephant,
];

/// The letters of [`ROLES`] in a signature's name.
const LETTERS: [char; 6] = ['R', 'H', 'C', 'P', 'A', 'E'];

/// Most pieces of one role a side may have (soldiers 5, the others 2).
const fn max_count(role: Role) -> u8 {
    match role {
        Role::Soldier => 5,
        _ => 2,
    }
}

/// Longest signature name [`Material::parse`] reads.
pub const MAX_MATERIAL_NAME: usize = 40;

/// Pieces per side besides the generals, counted per role of [`ROLES`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Material {
    /// `counts[colour][i]`: pieces of `ROLES[i]`.
    pub(crate) counts: [[u8; 6]; 2],
}

/// What is wrong with a signature name.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MaterialError {
    /// Longer than [`MAX_MATERIAL_NAME`] characters.
    TooLong(usize),
    /// Not two sides separated by one `-`.
    NotTwoSides,
    /// A side does not start with its general `K`.
    NoGeneral { side: usize },
    /// A letter that is none of `R H C P A E`.
    UnknownPiece { side: usize, ch: char },
    /// More pieces of a kind than a side starts with.
    TooMany { side: usize, ch: char },
}

impl fmt::Display for MaterialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MaterialError::TooLong(n) => {
                write!(
                    f,
                    "material name has {n} characters, at most {MAX_MATERIAL_NAME} allowed"
                )
            }
            MaterialError::NotTwoSides => {
                write!(
                    f,
                    "material name must be two sides joined by '-', like KR-KAA"
                )
            }
            MaterialError::NoGeneral { side } => {
                write!(f, "material side {side} does not start with its general K")
            }
            MaterialError::UnknownPiece { side, ch } => {
                write!(f, "material side {side} has {ch:?}, not one of R H C P A E")
            }
            MaterialError::TooMany { side, ch } => {
                write!(f, "material side {side} has too many {ch}")
            }
        }
    }
}

impl std::error::Error for MaterialError {}

impl Material {
    /// Two bare generals.
    pub const fn bare() -> Material {
        Material {
            counts: [[0; 6]; 2],
        }
    }

    /// The material of a position.
    pub fn of(pos: &Position) -> Material {
        let mut m = Material::bare();
        for (c, side) in m.counts.iter_mut().enumerate() {
            for (i, role) in ROLES.iter().enumerate() {
                let code = *role as u8 | ((c as u8) << 3);
                side[i] = pos.pieces[code as usize].count_ones() as u8;
            }
        }
        m
    }

    /// Parses a name such as `KR-KAA` (either case).
    ///
    /// # Errors
    ///
    /// A [`MaterialError`] naming the side and letter at fault.
    pub fn parse(text: &str) -> Result<Material, MaterialError> {
        let text = text.trim();
        if text.len() > MAX_MATERIAL_NAME {
            return Err(MaterialError::TooLong(text.len()));
        }
        let sides: Vec<&str> = text.split('-').collect();
        if sides.len() != 2 {
            return Err(MaterialError::NotTwoSides);
        }
        let mut m = Material::bare();
        for (c, side) in sides.iter().enumerate() {
            let mut chars = side.chars().map(|ch| ch.to_ascii_uppercase());
            if chars.next() != Some('K') {
                return Err(MaterialError::NoGeneral { side: c + 1 });
            }
            for ch in chars {
                let i = LETTERS
                    .iter()
                    .position(|&l| l == ch)
                    .ok_or(MaterialError::UnknownPiece { side: c + 1, ch })?;
                m.counts[c][i] += 1;
                if m.counts[c][i] > max_count(ROLES[i]) {
                    return Err(MaterialError::TooMany { side: c + 1, ch });
                }
            }
        }
        Ok(m)
    }

    /// Pieces of a role on one side.
    pub fn count(&self, color: Color, role: Role) -> u8 {
        ROLES
            .iter()
            .position(|&r| r == role)
            .map_or(u8::from(role == Role::General), |i| {
                self.counts[color.index()][i]
            })
    }

    /// All pieces on the board, the two generals included.
    pub fn pieces(&self) -> u32 {
        2 + self.counts.iter().flatten().map(|&c| c as u32).sum::<u32>()
    }

    /// Whether a side has a chariot, horse, cannon or soldier (a piece that
    /// can cross the river and so could ever give mate).
    pub fn has_attackers(&self, color: Color) -> bool {
        self.counts[color.index()][..4].iter().any(|&c| c > 0)
    }

    /// The same material with the colours swapped.
    pub fn flipped(&self) -> Material {
        Material {
            counts: [self.counts[1], self.counts[0]],
        }
    }

    /// Whether Red is the stronger side: more pieces of the earlier roles of
    /// the name order, compared role by role. Tables are made for canonical
    /// signatures only.
    pub fn is_canonical(&self) -> bool {
        self.counts[0] >= self.counts[1]
    }

    /// The canonical form (colours swapped if Black is the stronger side).
    pub fn canonical(&self) -> Material {
        if self.is_canonical() {
            *self
        } else {
            self.flipped()
        }
    }

    /// The canonical signatures left after one capture that still have an
    /// attacking piece (the ones without are drawn or lost at once).
    pub fn dependencies(&self) -> Vec<Material> {
        let mut out = Vec::new();
        for c in 0..2 {
            for i in 0..6 {
                if self.counts[c][i] > 0 {
                    let mut m = *self;
                    m.counts[c][i] -= 1;
                    let m = m.canonical();
                    if (m.has_attackers(Color::Red) || m.has_attackers(Color::Black))
                        && !out.contains(&m)
                    {
                        out.push(m);
                    }
                }
            }
        }
        out
    }

    /// The standard set: a general with one of chariot, horse, cannon and
    /// soldier against a general with any of its advisors and elephants (all
    /// of them, up to seven pieces), and with two of them against any
    /// defenders as long as the board holds at most `max_pieces` pieces
    /// (generals included); with every signature they convert into,
    /// smallest first (the generation order).
    pub fn standard(max_pieces: u32) -> Vec<Material> {
        let mut targets = Vec::new();
        for a in 0..4 {
            for b in a..5 {
                let mut strong = [0u8; 6];
                strong[a] += 1;
                if b < 4 {
                    strong[b] += 1;
                }
                for advisors in 0..=2 {
                    for elephants in 0..=2 {
                        let m = Material {
                            counts: [strong, [0, 0, 0, 0, advisors, elephants]],
                        };
                        if b == 4 || m.pieces() <= max_pieces {
                            targets.push(m);
                        }
                    }
                }
            }
        }
        Material::with_dependencies(&targets)
    }

    /// The given signatures (made canonical) and everything they convert
    /// into, each once, in an order where dependencies come first.
    pub fn with_dependencies(targets: &[Material]) -> Vec<Material> {
        let mut all: Vec<Material> = Vec::new();
        let mut todo: Vec<Material> = targets.iter().map(Material::canonical).collect();
        while let Some(m) = todo.pop() {
            if all.contains(&m) || !(m.has_attackers(Color::Red) || m.has_attackers(Color::Black)) {
                continue;
            }
            todo.extend(m.dependencies());
            all.push(m);
        }
        // Captures only remove pieces: fewer pieces first is a valid order.
        all.sort_by_key(|m| (m.pieces(), m.to_string()));
        all
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (c, side) in self.counts.iter().enumerate() {
            if c == 1 {
                f.write_str("-")?;
            }
            f.write_str("K")?;
            for (i, &n) in side.iter().enumerate() {
                for _ in 0..n {
                    write!(f, "{}", LETTERS[i])?;
                }
            }
        }
        Ok(())
    }
}
