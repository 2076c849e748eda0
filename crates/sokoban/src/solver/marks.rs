//! Marks on a fixed range of indices (cells, or cell and side) that are
//! all cleared at once: a mark is the number of the current generation,
//! so a new generation unmarks everything without touching the array,
//! which is zeroed only when the number wraps. The searches flood the
//! player's region for every node; clearing a board-sized array each time
//! would cost more than the flood.

#[derive(Clone, Debug)]
pub(crate) struct Marks {
    marks: Vec<u32>,
    generation: u32,
}

impl Marks {
    /// `len` indices, none marked.
    pub fn new(len: usize) -> Marks {
        Marks {
            marks: vec![0; len],
            generation: 1,
        }
    }

    /// Unmarks everything.
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.marks.fill(0);
            self.generation = 1;
        }
    }

    #[inline]
    pub fn contains(&self, i: impl Into<usize>) -> bool {
        self.marks[i.into()] == self.generation
    }

    #[inline]
    pub fn mark(&mut self, i: impl Into<usize>) {
        self.marks[i.into()] = self.generation;
    }

    /// Marks `i`; false when it was marked already.
    #[inline]
    pub fn insert(&mut self, i: impl Into<usize>) -> bool {
        let slot = &mut self.marks[i.into()];
        let new = *slot != self.generation;
        *slot = self.generation;
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clearing_unmarks_everything_also_when_the_generation_wraps() {
        let mut marks = Marks::new(3);
        assert!(marks.insert(1usize));
        assert!(!marks.insert(1usize));
        assert!(marks.contains(1usize) && !marks.contains(0usize));
        marks.clear();
        assert!(!marks.contains(1usize));
        marks.mark(2usize);
        // A mark left from generation u32::MAX must not count in the
        // generation after the wrap.
        marks.generation = u32::MAX;
        marks.mark(0usize);
        marks.clear();
        assert!((0..3usize).all(|i| !marks.contains(i)));
        assert!(marks.insert(0usize));
    }
}
