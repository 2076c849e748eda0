//! Engine self-play sanity check:
//! `cargo run --release -p xiangqi --example selfplay -- <games> <limitA> <limitB>`.
//! A limit up to 50 is a depth, above that a node count.
//! Plays A against B with alternating colours from book openings and prints the
//! score of A (1 per win, 0.5 per draw). Games are adjudicated by the rules.

use std::sync::atomic::AtomicBool;
use xiangqi::engine::{Engine, Limits};
use xiangqi::{Color, Game, Outcome};

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let games = args.first().copied().unwrap_or(10);
    let da = args.get(1).copied().unwrap_or(4);
    let db = args.get(2).copied().unwrap_or(2);
    let stop = AtomicBool::new(false);
    let mut score = 0.0;
    for g in 0..games {
        let mut a = Engine::new(16);
        let mut b = Engine::new(16);
        a.set_book_seed(g as u64 / 2);
        b.set_book_seed(g as u64 / 2 + 1000);
        let a_red = g % 2 == 0;
        let mut game = Game::new();
        let result = loop {
            if let Some(r) = game.result() {
                break Some(r);
            }
            if game.plies().len() >= 300 {
                break None;
            }
            let red_to_move = game.position().turn() == Color::Red;
            let (engine, depth) = if red_to_move == a_red {
                (&mut a, da)
            } else {
                (&mut b, db)
            };
            let limits = if depth > 50 {
                Limits::nodes(depth as u64)
            } else {
                Limits::depth(depth)
            };
            let r = engine.search(&game, &limits, &stop, &|| 0, &mut |_| {});
            match r.best {
                Some(m) => {
                    if game.play(m).is_err() {
                        eprintln!("illegal move {m}");
                        return;
                    }
                }
                None => break game.result(),
            }
        };
        let pts = match result.map(|r| r.outcome) {
            Some(Outcome::Win(c)) => {
                if (c == Color::Red) == a_red {
                    1.0
                } else {
                    0.0
                }
            }
            _ => 0.5,
        };
        score += pts;
        println!(
            "game {g}: A {} {} plies, {}",
            if a_red { "red" } else { "black" },
            game.plies().len(),
            result.map_or("adjudicated draw (300 plies)".to_string(), |r| r
                .to_string())
        );
    }
    println!("A (depth {da}) scored {score}/{games} against B (depth {db})");
}
