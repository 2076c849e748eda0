//! `ludus sokoban generate`: new levels, deterministic per seed, each proven
//! solvable by the push-optimal solver and rated, written as `.sok` with
//! their solutions.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;
use rayon::prelude::*;
use sokoban::Level;
use sokoban::generate::{GenerateError, GenerateOptions, Generated, generate};
use sokoban::rating::{Difficulty, Effort};
use sokoban::solver::Control;

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// How many levels.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub count: usize,
    /// The first seed; the same seed and options always give the same levels.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Outer size, walls included.
    #[arg(long, value_name = "WxH", default_value = "9x8", value_parser = parse_size)]
    pub size: (usize, usize),
    #[arg(long, value_name = "B", default_value_t = 3)]
    pub boxes: usize,
    /// Keep only levels that need at least this many pushes.
    #[arg(long, value_name = "P", default_value_t = 10)]
    pub min_pushes: u32,
    /// Write the .sok here instead of standard output.
    #[arg(long, short, value_name = "OUT")]
    pub output: Option<PathBuf>,
}

fn parse_size(text: &str) -> Result<(usize, usize), String> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or("write the size as WxH, e.g. 9x8")?;
    let w: usize = w.trim().parse().map_err(|_| format!("bad width {w:?}"))?;
    let h: usize = h.trim().parse().map_err(|_| format!("bad height {h:?}"))?;
    if !(5..=40).contains(&w) || !(5..=40).contains(&h) {
        return Err("width and height must be between 5 and 40".into());
    }
    Ok((w, h))
}

/// A generated level's difficulty band: the rating formula of every
/// built-in collection ([`Difficulty::rate`]) over its proven pushes, the
/// push-optimal search's effort and its boxes.
pub fn difficulty(generated: &Generated) -> Difficulty {
    Difficulty::rate(&Effort {
        proven_pushes: Some(generated.solution.pushes),
        nodes: generated.effort,
        boxes: generated.level.boxes().len(),
    })
}

/// Generates `count` distinct levels from seeds `seed`, `seed + 1`, … in
/// order, trying seeds in parallel batches; the result depends only on the
/// arguments.
pub fn generate_levels(
    args: &GenerateArgs,
    mut report: impl FnMut(usize),
) -> Result<Vec<Generated>> {
    let options = GenerateOptions {
        width: args.size.0,
        height: args.size.1,
        boxes: args.boxes,
        min_pushes: args.min_pushes,
        ..GenerateOptions::default()
    };
    let mut found: Vec<Generated> = Vec::new();
    let mut next = args.seed;
    let mut misses = 0usize;
    let batch = rayon::current_num_threads().max(1) as u64 * 2;
    while found.len() < args.count {
        let results: Vec<Result<Generated, GenerateError>> = (next..next.saturating_add(batch))
            .into_par_iter()
            .map(|s| generate(s, &options, &mut Control::new()))
            .collect();
        next = next.saturating_add(batch);
        for result in results {
            match result {
                Ok(g)
                    if found.len() < args.count
                        && !found.iter().any(|f| f.level.key() == g.level.key()) =>
                {
                    found.push(g);
                    report(found.len());
                }
                Ok(_) => {}
                Err(GenerateError::TooSmall) => bail!(
                    "{}x{} is too small for {}",
                    args.size.0,
                    args.size.1,
                    crate::words::counted(args.boxes, "box")
                ),
                Err(_) => misses += 1,
            }
        }
        if misses > args.count * 4 + 16 {
            bail!(
                "found only {}: try a larger size, fewer boxes or a lower --min-pushes",
                crate::words::counted(found.len(), "level")
            );
        }
    }
    Ok(found)
}

/// The generated levels as a `.sok` collection with titles, ratings and solutions.
pub fn to_sok(args: &GenerateArgs, levels: &[Generated]) -> String {
    let rated: Vec<Level> = levels
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let mut level = g.level.clone();
            level.meta.title = Some(format!("Generated {}-{}", args.seed, i + 1));
            level.meta.author = Some("Ludus generator".into());
            level.meta.comments = vec![format!(
                "optimal pushes {}, moves {}, search effort {} nodes, {}",
                g.solution.pushes,
                g.solution.moves,
                g.effort,
                difficulty(g)
            )];
            level.meta.solutions = vec![g.solution.lurd.clone()];
            level
        })
        .collect();
    sokoban::format::sok::write_sok(
        Some(&format!("Generated levels, seed {}", args.seed)),
        &rated,
    )
}

pub fn run(args: &GenerateArgs, out: &mut impl Write) -> Result<ExitCode> {
    if args.count == 0 {
        bail!("--count must be at least 1");
    }
    let bar = super::solve::progress_bar(args.count);
    let levels = generate_levels(args, |n| bar.set_position(n as u64))?;
    bar.finish_and_clear();
    let text = to_sok(args, &levels);
    match &args.output {
        Some(path) => super::levels::write_output(Some(path), &text).map(|_| ())?,
        None => out.write_all(text.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}
