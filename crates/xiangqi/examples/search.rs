//! Search benchmark: `cargo run --release -p xiangqi --example search -- <depth> [fen] [moves m…]`.
//! Prints one line per iteration and the best move (book off). The moves
//! (any notation) are played from the FEN, or from the start, first: a game
//! prefix from a match can be searched as the engine saw it.

use std::sync::atomic::AtomicBool;
use std::time::Instant;
use xiangqi::engine::{Engine, Limits};
use xiangqi::{Game, Position};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.first().and_then(|d| d.parse().ok()).unwrap_or(8);
    let rest = &args[1.min(args.len())..];
    let (fen, moves) = match rest.iter().position(|a| a == "moves") {
        Some(p) => (rest[..p].join(" "), &rest[p + 1..]),
        None => (rest.join(" "), &[][..]),
    };
    let pos = if fen.is_empty() {
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
    let mut game = Game::from_position(pos);
    for m in moves {
        if let Err(e) = game.play_text(m) {
            eprintln!("move {m}: {e}");
            std::process::exit(2);
        }
    }
    let mut engine = Engine::new(64);
    engine.set_own_book(false);
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let elapsed = || start.elapsed().as_millis() as u64;
    let r = engine.search(&game, &Limits::depth(depth), &stop, &elapsed, &mut |i| {
        let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
        println!(
            "depth {} seldepth {} score {:?} nodes {} time {} pv {}",
            i.depth,
            i.seldepth,
            i.score,
            i.nodes,
            i.elapsed_ms,
            pv.join(" ")
        );
    });
    let secs = start.elapsed().as_secs_f64();
    println!(
        "bestmove {} nodes {} seconds {:.3} nps {:.0}",
        r.best.map_or("(none)".to_string(), |m| m.to_string()),
        r.nodes,
        secs,
        r.nodes as f64 / secs.max(1e-9)
    );
}
