//! Perft benchmark: `cargo run --release -p xiangqi --example perft -- <depth> [fen]`.
//! Add `--divide` to print per-move counts.

use std::time::Instant;
use xiangqi::{Position, perft, perft_divide};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let divide = args.iter().any(|a| a == "--divide");
    let rest: Vec<&String> = args.iter().filter(|a| *a != "--divide").collect();
    let depth: u32 = match rest.first().and_then(|d| d.parse().ok()) {
        Some(d) => d,
        None => {
            eprintln!("usage: perft <depth> [fen] [--divide]");
            std::process::exit(2);
        }
    };
    let fen = rest[1..]
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let mut pos = if fen.is_empty() {
        Position::startpos()
    } else {
        match Position::from_fen(&fen) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        }
    };
    let start = Instant::now();
    let nodes = if divide {
        let parts = perft_divide(&mut pos, depth);
        for (m, n) in &parts {
            println!("{m}: {n}");
        }
        parts.iter().map(|(_, n)| n).sum()
    } else {
        perft(&mut pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("nodes {nodes}");
    println!("seconds {secs:.3}");
    println!("nodes/s {:.0}", nodes as f64 / secs.max(1e-9));
}
