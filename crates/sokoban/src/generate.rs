//! A level generator: deterministic per seed. It carves a random room,
//! puts the boxes on goals, plays backwards (random pulls) to scatter
//! them, and keeps the result only if the push-optimal solver proves it
//! solvable within a node budget and it needs at least the asked pushes.
//! Each level comes rated: its optimal push count and the search effort.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use crate::Direction;
use crate::level::Level;
use crate::solver::{self, Control, Mode, Options, Outcome, Solution};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateOptions {
    /// Outer size, walls included.
    pub width: usize,
    pub height: usize,
    pub boxes: usize,
    /// Reject levels solvable in fewer pushes.
    pub min_pushes: u32,
    /// Rooms tried before giving up.
    pub attempts: u32,
    /// Nodes the push-optimal proof may expand per candidate.
    pub node_limit: u64,
    pub memory_mb: usize,
}

impl Default for GenerateOptions {
    fn default() -> GenerateOptions {
        GenerateOptions {
            width: 9,
            height: 8,
            boxes: 3,
            min_pushes: 10,
            attempts: 200,
            node_limit: 200_000,
            memory_mb: 128,
        }
    }
}

/// A generated level with its proven push-optimal solution.
#[derive(Clone, Debug)]
pub struct Generated {
    pub level: Level,
    pub solution: Solution,
    /// Nodes the push-optimal search expanded proving the fewest pushes
    /// (the fewest-moves pass left out): the effort the difficulty rates.
    pub effort: u64,
}

/// Why generation stopped without a level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenerateError {
    /// The size is too small for the boxes asked for.
    TooSmall,
    /// No candidate met the requirements within the attempts.
    NoLevel,
    Cancelled,
}

/// One level from `seed`. The same seed and options give the same level.
pub fn generate(
    seed: u64,
    options: &GenerateOptions,
    control: &mut Control<'_>,
) -> Result<Generated, GenerateError> {
    let (w, h) = (options.width, options.height);
    if w < 5 || h < 5 || (w - 2) * (h - 2) < 2 * options.boxes + 4 || options.boxes == 0 {
        return Err(GenerateError::TooSmall);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..options.attempts {
        let Some(text) = candidate(&mut rng, options) else {
            continue;
        };
        let Ok(level) = Level::from_xsb(&text) else {
            continue;
        };
        if level.is_solved_at_start() {
            continue;
        }
        let solve_options = Options {
            mode: Mode::Pushes,
            node_limit: Some(options.node_limit),
            memory_mb: options.memory_mb,
            threads: 1,
            fewest_moves: true,
        };
        let (outcome, stats) = solver::solve_with_stats(&level, &solve_options, control);
        match outcome {
            Outcome::Solved(solution) if solution.pushes >= options.min_pushes => {
                return Ok(Generated {
                    level,
                    solution,
                    effort: stats.proof_expanded(),
                });
            }
            Outcome::Cancelled => return Err(GenerateError::Cancelled),
            _ => {}
        }
    }
    Err(GenerateError::NoLevel)
}

/// `count` levels from consecutive seeds starting at `seed`, skipping
/// seeds that give none and duplicates.
pub fn generate_many(
    seed: u64,
    count: usize,
    options: &GenerateOptions,
    control: &mut Control<'_>,
) -> Result<Vec<Generated>, GenerateError> {
    let mut levels: Vec<Generated> = Vec::new();
    let mut next = seed;
    let mut misses = 0;
    while levels.len() < count {
        match generate(next, options, control) {
            Ok(g) => {
                if !levels.iter().any(|l| l.level.key() == g.level.key()) {
                    levels.push(g);
                }
            }
            Err(GenerateError::NoLevel) => {
                misses += 1;
                if misses > count * 4 + 8 {
                    return Err(GenerateError::NoLevel);
                }
            }
            Err(e) => return Err(e),
        }
        next = next.wrapping_add(1);
    }
    Ok(levels)
}

fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

/// Carves a room and scatters boxes backwards from the goals; XSB text.
fn candidate(rng: &mut ChaCha8Rng, options: &GenerateOptions) -> Option<String> {
    let (w, h) = (options.width, options.height);
    let mut floor = vec![false; w * h];
    // Random walks from the middle carve the room.
    let target = (w - 2) * (h - 2) * (55 + below(rng, 20)) / 100;
    let (mut x, mut y) = (w / 2, h / 2);
    let mut carved = 0;
    let mut steps = 0;
    while carved < target && steps < 20 * w * h {
        steps += 1;
        if !floor[y * w + x] {
            floor[y * w + x] = true;
            carved += 1;
        }
        let (dx, dy) = Direction::ALL[below(rng, 4)].delta();
        let nx = x.checked_add_signed(dx).filter(|&v| v >= 1 && v < w - 1);
        let ny = y.checked_add_signed(dy).filter(|&v| v >= 1 && v < h - 1);
        if let (Some(nx), Some(ny)) = (nx, ny) {
            x = nx;
            y = ny;
        }
    }
    let cells: Vec<usize> = (0..w * h).filter(|&i| floor[i]).collect();
    if cells.len() < 2 * options.boxes + 4 {
        return None;
    }
    // Goals away from corners, so that boxes can leave them.
    let mut goals = Vec::new();
    let mut tries = 0;
    while goals.len() < options.boxes && tries < 1000 {
        tries += 1;
        let c = cells[below(rng, cells.len())];
        let open = [(1isize, 0isize), (0, 1)].iter().all(|&(dx, dy)| {
            let a = c as isize - dx - dy * w as isize;
            let b = c as isize + dx + dy * w as isize;
            floor[a as usize] && floor[b as usize]
        });
        if open && !goals.contains(&c) {
            goals.push(c);
        }
    }
    if goals.len() < options.boxes {
        return None;
    }
    let mut boxes = goals.clone();
    let mut player = *cells.iter().find(|c| !boxes.contains(c))?;
    // Pull boxes around: each pull moves a box one cell towards the player.
    let pulls = 10 * options.boxes + below(rng, 40 * options.boxes);
    let mut last_box = 0;
    for _ in 0..pulls * 3 {
        let reach = reachable(w, &floor, &boxes, player);
        // Mostly keep pulling the same box, for longer box paths.
        let pick = if below(rng, 3) == 0 {
            below(rng, boxes.len())
        } else {
            last_box
        };
        let b = boxes[pick];
        let dir = Direction::ALL[below(rng, 4)];
        let (dx, dy) = dir.delta();
        let step = |c: usize| (c as isize + dx + dy * w as isize) as usize;
        let stand = step(b);
        let back = step(stand);
        if floor[stand] && reach[stand] && floor[back] && !boxes.contains(&back) {
            boxes[pick] = stand;
            player = back;
            last_box = pick;
        }
    }
    // The player wanders off to a random reachable cell.
    let reach = reachable(w, &floor, &boxes, player);
    let spots: Vec<usize> = (0..w * h).filter(|&c| reach[c]).collect();
    player = spots
        .get(below(rng, spots.len().max(1)))
        .copied()
        .unwrap_or(player);
    let mut text = String::new();
    for row in 0..h {
        for col in 0..w {
            let c = row * w + col;
            let goal = goals.contains(&c);
            // Only walls that touch the room are drawn; the rest is outside.
            let touches = (row.saturating_sub(1)..(row + 2).min(h))
                .any(|r| (col.saturating_sub(1)..(col + 2).min(w)).any(|k| floor[r * w + k]));
            text.push(match (floor[c], boxes.contains(&c), c == player, goal) {
                (false, ..) if touches => '#',
                (false, ..) => ' ',
                (true, true, _, true) => '*',
                (true, true, _, false) => '$',
                (true, false, true, true) => '+',
                (true, false, true, false) => '@',
                (true, false, false, true) => '.',
                (true, false, false, false) => ' ',
            });
        }
        text.push('\n');
    }
    Some(text)
}

fn reachable(w: usize, floor: &[bool], boxes: &[usize], from: usize) -> Vec<bool> {
    let mut seen = vec![false; floor.len()];
    let mut stack = vec![from];
    seen[from] = true;
    while let Some(c) = stack.pop() {
        for n in [c - 1, c + 1, c - w, c + w] {
            if floor[n] && !seen[n] && !boxes.contains(&n) {
                seen[n] = true;
                stack.push(n);
            }
        }
    }
    seen
}
