//! The levels that ship with Ludus, embedded in the binary.

/// The Ludus Original library in `.sok` form: levels Ludus generated with its
/// seeded generator and curated, plus the levels designed for Ludus, ordered
/// from tutorial to hard. Each carries a title, a `Comment:` with its proven
/// optimal push count, moves and difficulty band, and one push-optimal
/// solution.
pub const ORIGINAL: &str = include_str!("../levels/original.sok");

/// The same library in the JSON library form (see [`crate::format::json`]),
/// with `min_pushes`, `min_moves` and `difficulty` per level.
pub const ORIGINAL_JSON: &str = include_str!("../levels/original.json");

/// The built-in collection's display name.
pub const ORIGINAL_NAME: &str = "Ludus Original";
