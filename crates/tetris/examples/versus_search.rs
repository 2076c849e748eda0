//! Speed of the versus bot's look-ahead search:
//! `cargo run --release -p tetris --example versus_search -- [--pieces P] [--seed S] [--beam B]`
//!
//! For each look-ahead (0 to 6 next pieces), plays `P` pieces of an endless game (instant
//! soft drop, every plan applied at one instant) with the search at that depth, and prints
//! the search's time per piece (mean and worst), pieces planned per second of CPU (one
//! thread), placements evaluated per second, boards expanded per piece, and the attack per
//! piece of the solo game (no opponent, so no garbage).

use std::time::{Duration, Instant};

use tetris::attack::Attack;
use tetris::bot::{Bot, Context, SearchLimits, apply_move};
use tetris::{Game, Mode, Settings, SoftDrop};

fn main() {
    let mut pieces = 500u64;
    let mut seed = 1u64;
    let mut beam = SearchLimits::BEST.beam;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().and_then(|v| v.parse::<u64>().ok());
        match (flag.as_str(), value) {
            ("--pieces", Some(v)) => pieces = v,
            ("--seed", Some(v)) => seed = v,
            ("--beam", Some(v)) => beam = usize::try_from(v).unwrap_or(usize::MAX),
            _ => {
                eprintln!("usage: versus_search [--pieces P] [--seed S] [--beam B]");
                std::process::exit(2);
            }
        }
    }
    println!("depth beam | ms/piece mean  worst | pieces/s | placements/s | boards/piece | APP");
    for depth in 0..=tetris::bot::MAX_DEPTH {
        let limits = SearchLimits { depth, beam };
        let settings = Settings {
            soft_drop: SoftDrop::Instant,
            preview: 6,
            ..Settings::default()
        };
        let mut game = Game::new(Mode::Marathon { endless: true }, settings, seed);
        let mut bot = Bot::new().with_limits(limits);
        let (mut total, mut worst) = (Duration::ZERO, Duration::ZERO);
        let (mut placements, mut boards, mut attack, mut played) = (0u64, 0u64, 0u64, 0u64);
        while played < pieces && game.is_playing() {
            let context = Context::of(&game);
            let start = Instant::now();
            let Some(plan) = bot.suggest_versus(&game, &context) else {
                break;
            };
            let took = start.elapsed();
            total += took;
            worst = worst.max(took);
            let stats = bot.last_search();
            placements += stats.placements as u64;
            boards += stats.expansions as u64;
            for &step in &plan.moves {
                apply_move(&mut game, step);
            }
            attack += game
                .last_clear()
                .map_or(0, |c| u64::from(Attack::of(c).total()));
            played += 1;
        }
        let seconds = total.as_secs_f64().max(1e-9);
        let n = played.max(1) as f64;
        println!(
            "{depth:>5} {beam:>4} | {:>13.2} {:>6.2} | {:>8.0} | {:>12.0} | {:>12.1} | {:.2}{}",
            seconds * 1000.0 / n,
            worst.as_secs_f64() * 1000.0,
            n / seconds,
            placements as f64 / seconds,
            boards as f64 / n,
            attack as f64 / n,
            if game.is_playing() {
                ""
            } else {
                " (topped out)"
            },
        );
    }
}
