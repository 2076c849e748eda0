//! Searches a game prefix: `repro <depth> <plies> moves...`.
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use xiangqi::Game;
use xiangqi::engine::{Engine, Limits};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.first().and_then(|d| d.parse().ok()).unwrap_or(8);
    let plies: usize = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(0);
    let mut game = Game::new();
    for m in args.iter().skip(2).take(plies) {
        if game.play_text(m).is_err() {
            eprintln!("bad move {m}");
            return;
        }
    }
    let mut engine = Engine::new(16);
    engine.set_own_book(false);
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let elapsed = || start.elapsed().as_millis() as u64;
    let r = engine.search(&game, &Limits::depth(depth), &stop, &elapsed, &mut |i| {
        let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
        println!(
            "depth {} score {:?} nodes {} pv {}",
            i.depth,
            i.score,
            i.nodes,
            pv.join(" ")
        );
    });
    println!("bestmove {:?} {:?}", r.best.map(|m| m.to_string()), r.score);
}
