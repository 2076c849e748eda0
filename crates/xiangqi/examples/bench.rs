//! Search benchmark over fixed positions (like Stockfish's `bench`):
//! `cargo run --release -p xiangqi --example bench -- [depth] [multipv] [threads]`.
//! Prints the total node count (a signature of the search: any change in it
//! means the search changed) and the speed; `multipv` (default 1) measures
//! the cost of reporting several lines, `threads` (default 1) the time to
//! depth with helper threads (their node counts vary from run to run).

use std::sync::atomic::AtomicBool;
use std::time::Instant;
use xiangqi::engine::{Engine, Limits};
use xiangqi::{Game, Position};

const POSITIONS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    "r3kabr1/4a4/1cn1b1n2/p1p1p3p/6p2/2P6/P3P1PcP/1CN1C1N2/3R5/2BAKABR1 w - - 14 8",
    "2bak4/4a4/4b4/9/2n6/9/9/4B4/4A4/2RAK4 w - - 0 1",
];

fn main() {
    let depth: u32 = std::env::args()
        .nth(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or(9);
    let lines: usize = std::env::args()
        .nth(2)
        .and_then(|d| d.parse().ok())
        .unwrap_or(1);
    let threads: usize = std::env::args()
        .nth(3)
        .and_then(|d| d.parse().ok())
        .unwrap_or(1);
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let mut total = 0;
    for fen in POSITIONS {
        let Ok(pos) = Position::from_fen(fen) else {
            eprintln!("bad FEN {fen}");
            continue;
        };
        let mut engine = Engine::new(16);
        engine.set_own_book(false);
        engine.set_multi_pv(lines);
        engine.set_threads(threads);
        let game = Game::from_position(pos);
        let r = engine.search(&game, &Limits::depth(depth), &stop, &|| 0, &mut |_| {});
        println!(
            "{:>10} {} {}",
            r.nodes,
            r.best.map_or("-".to_string(), |m| m.to_string()),
            fen
        );
        total += r.nodes;
    }
    let secs = start.elapsed().as_secs_f64();
    println!("nodes {total}");
    println!("seconds {secs:.3}");
    println!("nodes/s {:.0}", total as f64 / secs.max(1e-9));
}
