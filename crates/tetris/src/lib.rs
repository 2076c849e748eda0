//! tetris: pure game rules (no IO, no clock, no global RNG).
