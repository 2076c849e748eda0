//! Zobrist keys from a fixed-seed splitmix64 generator, computed at compile time
//! so hashes are identical across runs and platforms.

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn build() -> ([[u64; 90]; 16], u64) {
    let mut keys = [[0u64; 90]; 16];
    let mut state = 0x5851_F42D_4C95_7F2D_u64;
    let mut p = 0;
    while p < 16 {
        let mut s = 0;
        while s < 90 {
            let (st, v) = splitmix64(state);
            state = st;
            // Empty-square and unused codes keep zero keys.
            if p % 8 != 0 {
                keys[p][s] = v;
            }
            s += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix64(state);
    (keys, side)
}

const TABLES: ([[u64; 90]; 16], u64) = build();

/// Key per piece code (role | colour << 3) and square.
pub(crate) static PIECE_KEYS: [[u64; 90]; 16] = TABLES.0;
/// XORed in when Black is to move.
pub(crate) const SIDE_KEY: u64 = TABLES.1;

#[inline]
pub(crate) fn piece_key(code: u8, sq: usize) -> u64 {
    PIECE_KEYS[(code & 15) as usize][sq]
}
