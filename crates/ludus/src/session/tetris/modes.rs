//! The modes in menu order, their names, and the seed of a new game.

use tetris::Mode;

/// The modes in menu order.
pub const MODES: [Mode; 5] = [
    Mode::Marathon { endless: false },
    Mode::Marathon { endless: true },
    Mode::Sprint,
    Mode::Ultra,
    Mode::Zen,
];

/// A mode's name as players know it.
pub fn mode_title(mode: Mode) -> &'static str {
    match mode {
        Mode::Marathon { endless: false } => "Marathon",
        Mode::Marathon { endless: true } => "Marathon endless",
        Mode::Sprint => "Sprint 40 lines",
        Mode::Ultra => "Ultra 2 minutes",
        Mode::Zen => "Zen",
    }
}

/// A seed for a new game: the clock's nanoseconds, mixed (SplitMix64) so that games
/// started close together differ in every bit.
pub fn random_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut z = nanos.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
