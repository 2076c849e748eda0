//! Box sets as bitsets over compact cells.

#[inline]
pub(crate) fn has(set: &[u64], cell: u16) -> bool {
    let c = usize::from(cell);
    set.get(c / 64).is_some_and(|w| w >> (c % 64) & 1 == 1)
}

#[inline]
pub(crate) fn set(set: &mut [u64], cell: u16) {
    let c = usize::from(cell);
    if let Some(w) = set.get_mut(c / 64) {
        *w |= 1 << (c % 64);
    }
}

#[inline]
pub(crate) fn clear(set: &mut [u64], cell: u16) {
    let c = usize::from(cell);
    if let Some(w) = set.get_mut(c / 64) {
        *w &= !(1 << (c % 64));
    }
}

/// How many cells the set holds.
pub(crate) fn count(set: &[u64]) -> usize {
    set.iter().map(|w| w.count_ones() as usize).sum()
}

/// The cells in the set, ascending.
pub(crate) fn cells(set: &[u64], out: &mut Vec<u16>) {
    out.clear();
    for (i, &word) in set.iter().enumerate() {
        let mut w = word;
        while w != 0 {
            let bit = w.trailing_zeros() as usize;
            out.push((i * 64 + bit) as u16);
            w &= w - 1;
        }
    }
}
