//! Texel-style tuning of the evaluation weights ([`xiangqi::engine::param`])
//! from finished games: `cargo run --release -p xiangqi --example tune --
//! GAMES.pgn…`. A dev tool, not part of the engine.
//!
//! Every quiet position of every game (not in check, reached and left by a
//! move that captured nothing, after the first 16 plies) is labelled with the
//! game's result for Red. The tool fits the scale `K` of
//! `1 / (1 + 10^(-K * eval / 400))` to the results, then changes one weight at
//! a time (by a step that halves when neither direction helps) while the mean
//! squared error on nine games in ten falls, for up to twelve rounds
//! (`TUNE_ROUNDS`), and keeps the round whose weights predict the tenth (held
//! out) best. It prints those weights in [`PARAMS`]'s layout.
//!
//! Game results label positions poorly (one result for a hundred positions),
//! so the tool can also learn from another engine's judgement:
//! `tune --dump GAMES.pgn… > positions.tsv` writes every fourth quiet position
//! as `FEN<TAB>result`; a script has the other engine score each one (for
//! Red, in its own units) and appends the score as a third column; `tune
//! --labels scored.tsv` then fits the other engine's scale to the results and
//! uses its predicted result as each position's target (`TUNE_MIX=0.5` would
//! take half the game result instead). BENCHMARKS.md has how the weights in
//! play were made this way from ElephantEye's scores.

use xiangqi::engine::{PARAMS, Params, evaluate_with, param};
use xiangqi::pgn::parse_all;
use xiangqi::{Color, Position, Role};

struct Sample {
    pos: Position,
    /// Result for Red: 1, 0.5 or 0.
    result: f64,
    /// Red's pieces minus Black's per piece-square feature (see [`features`]).
    feat: [i8; FEATURES],
}

/// Roles whose squares get corrections: horse, chariot, cannon, soldier.
const ROLES: [Role; 4] = [Role::Horse, Role::Chariot, Role::Cannon, Role::Soldier];
/// Per role: ten ranks (from the owner's side) and five distances from the
/// centre file.
const FEATURES: usize = ROLES.len() * 15;

/// Piece-square features: corrections to the piece-square tables are tuned as
/// weights of these counts, to be folded into `engine/pst.rs` by hand.
fn features(pos: &Position) -> [i8; FEATURES] {
    let mut f = [0i8; FEATURES];
    for color in [Color::Red, Color::Black] {
        let sign = if color == Color::Red { 1 } else { -1 };
        for sq in pos.squares_of(color) {
            let Some(piece) = pos.piece_at(sq) else {
                continue;
            };
            let Some(r) = ROLES.iter().position(|&x| x == piece.role) else {
                continue;
            };
            let rank = if color == Color::Red {
                sq.rank()
            } else {
                9 - sq.rank()
            } as usize;
            let cd = (sq.file() as i32 - 4).unsigned_abs() as usize;
            f[r * 15 + rank] += sign;
            f[r * 15 + 10 + cd] += sign;
        }
    }
    f
}

/// All tuned weights: the evaluation's, then the piece-square corrections.
const ALL: usize = param::COUNT + FEATURES;

fn load(paths: &[String]) -> (Vec<Sample>, Vec<Sample>) {
    let (mut train, mut test) = (Vec::new(), Vec::new());
    let mut games = 0usize;
    for path in paths {
        let Ok(text) = std::fs::read_to_string(path) else {
            eprintln!("cannot read {path}");
            continue;
        };
        let Ok(list) = parse_all(&text) else {
            eprintln!("cannot parse {path}");
            continue;
        };
        for g in list {
            let result = match g.tag("Result") {
                Some("1-0") => 1.0,
                Some("0-1") => 0.0,
                Some("1/2-1/2") => 0.5,
                _ => continue,
            };
            let game = g.to_game();
            let mut pos = game.start_position().clone();
            let plies = game.plies();
            games += 1;
            let out = if games.is_multiple_of(10) {
                &mut test
            } else {
                &mut train
            };
            for (i, p) in plies.iter().enumerate() {
                let quiet = i >= 16 && !p.capture && !plies[i - 1].capture && !plies[i - 1].check;
                if quiet {
                    out.push(Sample {
                        pos: pos.clone(),
                        result,
                        feat: features(&pos),
                    });
                }
                pos.make_move(p.mv);
            }
        }
    }
    eprintln!(
        "{games} games, {} training and {} held-out positions",
        train.len(),
        test.len()
    );
    (train, test)
}

/// The result (for Red) a score predicts, on the scale `k`.
fn expected_result(k: f64, score: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * score / 400.0))
}

/// The scale, from 1 by ever finer steps, with the lowest `err`, and that
/// error.
fn fit_scale(err: impl Fn(f64) -> f64) -> (f64, f64) {
    let mut k = 1.0;
    let mut best = err(k);
    for step in [0.5, 0.1, 0.02] {
        loop {
            let up = err(k + step);
            let down = err(k - step);
            if up < best {
                k += step;
                best = up;
            } else if down < best {
                k -= step;
                best = down;
            } else {
                break;
            }
        }
    }
    (k, best)
}

fn error(samples: &[Sample], all: &[i32; ALL], k: f64) -> f64 {
    let mut w: Params = [0; param::COUNT];
    w.copy_from_slice(&all[..param::COUNT]);
    let corr = &all[param::COUNT..];
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let v = evaluate_with(&s.pos, &w);
            let mut red = if s.pos.turn() == Color::Red { v } else { -v };
            for (c, &n) in corr.iter().zip(s.feat.iter()) {
                red += c * n as i32;
            }
            let p = expected_result(k, red as f64);
            (s.result - p) * (s.result - p)
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// `--dump GAMES…`: every fourth quiet position as "FEN<TAB>result" lines, to
/// be scored by another engine.
fn dump(paths: &[String]) {
    let (train, test) = load(paths);
    for (i, s) in train.iter().chain(test.iter()).enumerate() {
        if i % 4 == 0 {
            println!("{}\t{}", s.pos.to_fen(), s.result);
        }
    }
}

/// `--labels FILE`: lines "FEN<TAB>result<TAB>score" with another engine's
/// score for Red; the target of each position becomes that engine's
/// predicted result, on the scale that fits its scores to the results best.
fn load_labels(path: &str) -> (Vec<Sample>, Vec<Sample>) {
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("cannot read {path}");
        return (Vec::new(), Vec::new());
    };
    let mut rows = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 3 {
            continue;
        }
        let (Ok(pos), Ok(result), Ok(score)) = (
            Position::from_fen(f[0]),
            f[1].parse::<f64>(),
            f[2].parse::<f64>(),
        ) else {
            continue;
        };
        // Mate scores and won positions say nothing about the weights.
        if score.abs() > 1500.0 {
            continue;
        }
        rows.push((pos, result, score));
    }
    let (k, _) = fit_scale(|k| {
        rows.iter()
            .map(|(_, r, s)| (r - expected_result(k, *s)).powi(2))
            .sum::<f64>()
    });
    eprintln!("labels: {} positions, their scale {k:.2}", rows.len());
    let mix = std::env::var("TUNE_MIX")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .unwrap_or(1.0);
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (i, (pos, r, s)) in rows.into_iter().enumerate() {
        let p = expected_result(k, s);
        let sample = Sample {
            feat: features(&pos),
            pos,
            result: mix * p + (1.0 - mix) * r,
        };
        if i % 10 == 9 {
            test.push(sample);
        } else {
            train.push(sample);
        }
    }
    (train, test)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--dump") {
        dump(&args[1..]);
        return;
    }
    let (train, test) = if args.first().is_some_and(|a| a == "--labels") && args.len() > 1 {
        load_labels(&args[1])
    } else {
        load(&args)
    };
    if train.is_empty() {
        eprintln!("no positions");
        return;
    }
    let mut w = [0i32; ALL];
    w[..param::COUNT].copy_from_slice(&PARAMS);
    // The scale that fits the current weights best.
    let (k, mut best) = fit_scale(|k| error(&train, &w, k));
    eprintln!(
        "K {k:.2}: training error {best:.6}, held out {:.6}",
        error(&test, &w, k)
    );
    // The piece-square corrections only with `TUNE_PST=1` (they are many,
    // and noisy on a few hundred games).
    let pst = std::env::var("TUNE_PST").is_ok_and(|v| v == "1");
    let mut steps: Vec<i32> = w
        .iter()
        .enumerate()
        .map(|(i, v)| match (i < param::COUNT, pst) {
            (true, _) => (v.abs() / 4).max(2),
            (false, true) => 8,
            (false, false) => 0,
        })
        .collect();
    // Early stopping: the weights of the round with the lowest held-out error.
    let mut kept = (error(&test, &w, k), w);
    let rounds = std::env::var("TUNE_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12);
    for round in 0..rounds {
        let mut changed = false;
        for i in 0..ALL {
            let step = steps[i];
            if step == 0 {
                continue;
            }
            let mut improved = false;
            for delta in [step, -step] {
                let mut t = w;
                t[i] += delta;
                let e = error(&train, &t, k);
                if e < best {
                    best = e;
                    w = t;
                    improved = true;
                    changed = true;
                    break;
                }
            }
            if !improved && step > 1 {
                steps[i] = step / 2;
                changed = true;
            }
        }
        let held = error(&test, &w, k);
        eprintln!("round {round}: training {best:.6}, held out {held:.6}");
        if held < kept.0 {
            kept = (held, w);
        }
        if !changed {
            break;
        }
    }
    let w = kept.1;
    for (i, name) in param::NAMES.iter().enumerate() {
        println!("{name:>18} {:>5} -> {:>5}", PARAMS[i], w[i]);
    }
    println!("{:?}", &w[..param::COUNT]);
    for (r, role) in ROLES.iter().enumerate() {
        let c = &w[param::COUNT + r * 15..param::COUNT + r * 15 + 15];
        println!(
            "{role:?} by rank {:?}, by distance from the centre file {:?}",
            &c[..10],
            &c[10..]
        );
    }
}
