//! The levels that ship with Ludus, embedded in the binary.

/// The Ludus Starter collection in `.sok` form: original levels designed for
/// Ludus, each with a stored solution.
pub const STARTER: &str = include_str!("../levels/starter.sok");

/// The built-in collection's display name.
pub const STARTER_NAME: &str = "Ludus Starter";
