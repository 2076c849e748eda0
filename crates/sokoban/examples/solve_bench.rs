//! Solves every level of some collection files and prints one line per
//! level and a summary per file.
//!
//! `cargo run --release -p sokoban --example solve_bench -- [--mode fast|pushes|moves]
//! [--time-limit SECS] [--cpu] [--nodes N] [--memory MB] [--levels A-B] [--threads N] [--trace] [--lurd] FILES...`
//!
//! `--trace` prints the highest f (pushes + bound) expanded so far each time
//! it rises, with the nodes expanded by then (how far a proof has got),
//! and where pushes mode's fewest-moves pass begins;
//! `--lurd` prints each solution.
//!
//! `--cpu` measures and limits the process's CPU time (Linux, from
//! `/proc/self/stat`) instead of wall time: steadier on a loaded machine.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use sokoban::solver::{self, Control, Mode, Options, Outcome};

struct Args {
    mode: Mode,
    time_limit: f64,
    cpu: bool,
    memory_mb: usize,
    range: Option<(usize, usize)>,
    nodes: Option<u64>,
    trace: bool,
    lurd: bool,
    threads: usize,
    files: Vec<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        mode: Mode::Fast,
        time_limit: 10.0,
        cpu: false,
        memory_mb: 1024,
        range: None,
        nodes: None,
        trace: false,
        lurd: false,
        threads: 1,
        files: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--mode" => {
                args.mode = match value()?.as_str() {
                    "fast" => Mode::Fast,
                    "pushes" => Mode::Pushes,
                    "moves" => Mode::Moves,
                    other => return Err(format!("unknown mode {other}")),
                }
            }
            "--time-limit" => {
                args.time_limit = value()?.parse().map_err(|e| format!("--time-limit: {e}"))?
            }
            "--cpu" => args.cpu = true,
            "--trace" => args.trace = true,
            "--threads" => {
                args.threads = value()?.parse().map_err(|e| format!("--threads: {e}"))?
            }
            "--lurd" => args.lurd = true,
            "--nodes" => args.nodes = Some(value()?.parse().map_err(|e| format!("--nodes: {e}"))?),
            "--memory" => {
                args.memory_mb = value()?.parse().map_err(|e| format!("--memory: {e}"))?
            }
            "--levels" => {
                let v = value()?;
                let (a, b) = v.split_once('-').unwrap_or((&v, &v));
                let a = a.parse().map_err(|e| format!("--levels: {e}"))?;
                let b = b.parse().map_err(|e| format!("--levels: {e}"))?;
                args.range = Some((a, b));
            }
            _ => args.files.push(arg),
        }
    }
    Ok(args)
}

/// CPU seconds this process has used so far (user + system), from
/// `/proc/self/stat` (clock ticks, 100 per second on Linux); 0 if unreadable.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which may hold spaces) in parentheses.
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return 0.0;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of the line, 12 and 13 here.
    (ticks(11) + ticks(12)) / 100.0
}

/// Seconds since `start`: wall time, or CPU time with `--cpu`.
fn clock(cpu: bool) -> impl Fn() -> f64 {
    let wall = Instant::now();
    let used = cpu_seconds();
    move || {
        if cpu {
            cpu_seconds() - used
        } else {
            wall.elapsed().as_secs_f64()
        }
    }
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let options = Options {
        mode: args.mode,
        node_limit: args.nodes,
        memory_mb: args.memory_mb,
        threads: args.threads,
        ..Options::default()
    };
    let mut grand = (0usize, 0usize);
    for file in &args.files {
        let text = match std::fs::read(file) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                eprintln!("{file}: {e}");
                continue;
            }
        };
        let collection = sokoban::parse_collection(&text);
        let mut times = Vec::new();
        let mut solved = 0;
        for (i, level) in collection.levels.iter().enumerate() {
            let number = i + 1;
            if args.range.is_some_and(|(a, b)| number < a || number > b) {
                continue;
            }
            let Ok(level) = level else {
                println!("{file} #{number}: parse error");
                continue;
            };
            let cancel = Arc::new(AtomicBool::new(false));
            let done = Arc::new(AtomicBool::new(false));
            let watchdog = {
                let (cancel, done) = (cancel.clone(), done.clone());
                let (limit, cpu) = (args.time_limit, args.cpu);
                std::thread::spawn(move || {
                    let elapsed = clock(cpu);
                    while !done.load(Ordering::Relaxed) {
                        if elapsed() >= limit {
                            cancel.store(true, Ordering::Relaxed);
                            return;
                        }
                        std::thread::sleep(Duration::from_millis(5));
                    }
                })
            };
            let elapsed = clock(args.cpu);
            let mut control = Control::new().cancel_flag(&cancel);
            if args.trace {
                let (mut highest, mut last) = (0, 0);
                let since = clock(args.cpu);
                control = control.on_progress(1024, move |p| {
                    if p.expanded < last {
                        // Pushes mode's fewest-moves pass counts afresh.
                        eprintln!("  next pass after {last} nodes, {:.2} s", since());
                        highest = 0;
                    }
                    last = p.expanded;
                    let f = p.depth + p.lower_bound;
                    if f > highest {
                        highest = f;
                        eprintln!("  f {f} at {} nodes", p.expanded);
                    }
                });
            }
            let (outcome, stats) = solver::solve_with_stats(level, &options, &mut control);
            let seconds = elapsed();
            done.store(true, Ordering::Relaxed);
            let _ = watchdog.join();
            times.push(seconds);
            let line = match &outcome {
                Outcome::Solved(s) => {
                    solved += 1;
                    if args.lurd {
                        println!("{}", s.lurd);
                    }
                    let by = stats.found_by.map_or(String::new(), |k| format!(" by {k}"));
                    format!(
                        "solved   moves {:5} pushes {:4} optimal {} secondary {}{by}",
                        s.moves, s.pushes, s.optimal, s.secondary_optimal
                    )
                }
                other => format!("unsolved {other:?}"),
            };
            println!(
                "{file} #{number}: {line} {seconds:.3}s nodes {} stored {}",
                stats.expanded, stats.stored
            );
        }
        times.sort_by(f64::total_cmp);
        let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
        let total: f64 = times.iter().sum();
        println!(
            "SUMMARY {file}: levels {} solved {solved} median {median:.3}s total {total:.1}s",
            times.len()
        );
        grand.0 += times.len();
        grand.1 += solved;
    }
    println!("solved {}/{}", grand.1, grand.0);
}
