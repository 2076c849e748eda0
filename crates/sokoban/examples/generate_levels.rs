//! Generates levels and prints them as a SOK collection with their rating.
//!
//! `cargo run --release -p sokoban --example generate_levels -- SEED COUNT [WxH] [BOXES] [MIN_PUSHES]`

use sokoban::generate::{GenerateOptions, generate_many};
use sokoban::solver::Control;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| args.get(i).map(String::as_str);
    let seed = arg(0).and_then(|s| s.parse().ok()).unwrap_or(1);
    let count = arg(1).and_then(|s| s.parse().ok()).unwrap_or(3);
    let mut options = GenerateOptions::default();
    if let Some((w, h)) = arg(2).and_then(|s| s.split_once('x')) {
        options.width = w.parse().unwrap_or(options.width);
        options.height = h.parse().unwrap_or(options.height);
    }
    options.boxes = arg(3).and_then(|s| s.parse().ok()).unwrap_or(options.boxes);
    options.min_pushes = arg(4)
        .and_then(|s| s.parse().ok())
        .unwrap_or(options.min_pushes);
    match generate_many(seed, count, &options, &mut Control::new()) {
        Ok(levels) => {
            for (i, g) in levels.iter().enumerate() {
                println!("; {}\n{}", i + 1, g.level.to_xsb());
                println!(
                    "Comment: pushes {} (optimal), moves {}, effort {} nodes",
                    g.solution.pushes, g.solution.moves, g.effort
                );
                println!("Solution: {}\n", g.solution.lurd);
            }
        }
        Err(e) => eprintln!("no levels: {e:?}"),
    }
}
