//! Builds the opening book from hand-picked lines plus engine analysis:
//! `cargo run --release -p xiangqi --example build_book -- <seed file> <extra plies> <depth>`
//! prints the extended book to stdout (the crate's `src/engine/book.txt` was
//! made this way from `src/engine/book_seed.txt`).

use xiangqi::engine::{Book, Engine, Limits};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: build_book <seed file> [extra plies] [depth]");
        std::process::exit(2);
    };
    let extra = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(4);
    let depth = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(8);
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let mut engine = Engine::new(64);
    match Book::extend_lines(&text, &mut engine, &Limits::depth(depth), extra) {
        Ok(book) => print!("{book}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
