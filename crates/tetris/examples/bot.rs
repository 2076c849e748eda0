//! Headless bot benchmark:
//! `cargo run --release -p tetris --example bot -- --games N --seed S --pieces P [--style survival|attack]`
//!
//! Each game is endless Marathon with instant soft drop; the bot's inputs for a piece are
//! applied at one instant (so gravity never interferes) and the engine checks every move.
//! Prints per game: lines, score, pieces, whether it topped out, and placements per second of
//! bot computation (one thread).

use std::time::{Duration, Instant};

use tetris::bot::{Bot, Weights, apply_move};
use tetris::scoring::TSpin;
use tetris::{Game, Mode, Settings, SoftDrop};

struct Options {
    games: u64,
    seed: u64,
    pieces: u64,
    attack: bool,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        games: 10,
        seed: 1,
        pieces: 1_000_000,
        attack: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        if flag == "--style" {
            options.attack = match value.as_str() {
                "survival" => false,
                "attack" => true,
                _ => return Err(format!("--style: `{value}` is not survival or attack")),
            };
            continue;
        }
        let number: u64 = value
            .parse()
            .map_err(|_| format!("{flag}: `{value}` is not a number"))?;
        match flag.as_str() {
            "--games" => options.games = number,
            "--seed" => options.seed = number,
            "--pieces" => options.pieces = number,
            _ => {
                return Err(format!(
                    "unknown option {flag} (use --games, --seed, --pieces, --style)"
                ));
            }
        }
    }
    Ok(options)
}

fn main() {
    let options = match parse_options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("bot: {message}");
            std::process::exit(2);
        }
    };
    let settings = Settings {
        soft_drop: SoftDrop::Instant,
        ..Settings::default()
    };
    let mut bot = if options.attack {
        Bot::with_weights(Weights::attack())
    } else {
        Bot::new()
    };
    let (mut total_lines, mut total_pieces, mut total_time, mut topped) =
        (0u64, 0u64, Duration::ZERO, 0u64);
    for index in 0..options.games {
        let seed = options.seed + index;
        let mut game = Game::new(Mode::Marathon { endless: true }, settings, seed);
        let mut thinking = Duration::ZERO;
        let mut off_target = 0u64;
        let mut max_height = 0;
        let (mut tetrises, mut t_spins) = (0u64, 0u64);
        while game.is_playing() && game.pieces() < options.pieces {
            // Time only the bot's decision; playing the inputs is the engine's work.
            let started = Instant::now();
            let plan = bot.suggest(&game);
            thinking += started.elapsed();
            let Some(plan) = plan else { break };
            let Some((last, steps)) = plan.moves.split_last() else {
                break;
            };
            for &step in steps {
                apply_move(&mut game, step);
            }
            let mut landing = game.ghost().map(|g| g.cells());
            if let Some(cells) = landing.as_mut() {
                cells.sort_unstable();
            }
            let mut promised = plan.target.cells();
            promised.sort_unstable();
            if landing != Some(promised) {
                off_target += 1;
            }
            let pieces_before = game.pieces();
            apply_move(&mut game, *last);
            if game.pieces() > pieces_before {
                if plan.lines >= 4 {
                    tetrises += 1;
                }
                if plan.lines > 0 && plan.t_spin != TSpin::None {
                    t_spins += 1;
                }
            }
            max_height = max_height.max(game.matrix().stack_height());
        }
        let rate = game.pieces() as f64 / thinking.as_secs_f64().max(1e-9);
        println!(
            "game {index} seed {seed}: lines {} score {} pieces {} topped_out {} max_stack_height {max_height} tetrises {tetrises} t_spins {t_spins} placements/s {rate:.0}{}",
            game.lines(),
            game.score(),
            game.pieces(),
            if game.topped_out() { "yes" } else { "no" },
            if off_target > 0 {
                format!(" (off target: {off_target})")
            } else {
                String::new()
            },
        );
        total_lines += u64::from(game.lines());
        total_pieces += game.pieces();
        total_time += thinking;
        topped += u64::from(game.topped_out());
    }
    let games = options.games.max(1);
    println!(
        "average over {} games: lines {:.0} pieces {:.0} topped out {} placements/s {:.0}",
        options.games,
        total_lines as f64 / games as f64,
        total_pieces as f64 / games as f64,
        topped,
        total_pieces as f64 / total_time.as_secs_f64().max(1e-9),
    );
}
