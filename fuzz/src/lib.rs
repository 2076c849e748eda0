//! The checks behind the fuzz targets (one function per target, named as the
//! target). `crates/ludus/tests/fuzz_corpus.rs` runs the same file over the
//! committed corpora and regressions on stable.

mod checks;

pub use checks::*;
