//! Symmetry: on a level whose walls and goals look the same after a turn or
//! a mirror, a position and its image need the same pushes and moves to
//! solve. The searches expand one position of each such set (in the
//! optimal modes at its lowest cost) and skip the images, which divides
//! their work by up to eight on symmetric levels and changes nothing on
//! the others.

use std::collections::HashMap;

use super::board::{Board, NONE};

/// Bytes an expanded position costs in [`Symmetry`]'s table beyond its
/// cells (key allocation, cost, hash slot).
const ENTRY_OVERHEAD: usize = 16 + 16 + 8 + 8;

pub(crate) struct Symmetry {
    /// Each symmetry of the board other than the identity, as a map from
    /// compact cell to compact cell.
    maps: Vec<Vec<u16>>,
    /// Normal form of each position expanded (the least of its images) →
    /// the cost it was expanded at.
    expanded: HashMap<Box<[u16]>, u64>,
    /// Most entries the memory share allows; past it, nothing new is
    /// recorded (skipping less never loses a solution).
    capacity: usize,
    key: Vec<u16>,
    best: Vec<u16>,
}

impl Symmetry {
    /// The board's symmetries, or `None` when it has none but the identity.
    /// `memory_bytes` caps the table of expanded positions.
    pub fn new(board: &Board, memory_bytes: usize) -> Option<Symmetry> {
        let maps = cell_maps(board);
        if maps.is_empty() {
            return None;
        }
        let entry = ENTRY_OVERHEAD + 2 * (board.start_boxes.len() + 1);
        Some(Symmetry {
            maps,
            expanded: HashMap::new(),
            capacity: memory_bytes / entry,
            key: Vec::new(),
            best: Vec::new(),
        })
    }

    /// Whether the position (box cells in any order; the player's cell, or
    /// every cell of its region when the search normalises the player) has
    /// an image, itself included, already expanded at `cost` or less. If
    /// not, records it as expanded at `cost`.
    pub fn seen_image(&mut self, boxes: &[u16], player: &[u16], cost: u64) -> bool {
        normal_form(boxes, player, &mut self.best, |c| c);
        for map in &self.maps {
            normal_form(boxes, player, &mut self.key, |c| map[usize::from(c)]);
            if self.key < self.best {
                std::mem::swap(&mut self.key, &mut self.best);
            }
        }
        match self.expanded.get_mut(self.best.as_slice()) {
            Some(&mut known) if known <= cost => true,
            Some(known) => {
                *known = cost;
                false
            }
            None => {
                if self.expanded.len() < self.capacity {
                    self.expanded.insert(self.best.as_slice().into(), cost);
                }
                false
            }
        }
    }
}

/// The image of a position under `map`, as sorted box cells followed by the
/// lowest image of the player's cells.
fn normal_form(boxes: &[u16], player: &[u16], out: &mut Vec<u16>, map: impl Fn(u16) -> u16) {
    out.clear();
    out.extend(boxes.iter().map(|&b| map(b)));
    out.sort_unstable();
    out.push(player.iter().map(|&c| map(c)).min().unwrap_or(NONE));
}

/// The turns and mirrors of the board's bounding box (other than the
/// identity) that map its cells onto its cells and its goals onto its goals.
fn cell_maps(board: &Board) -> Vec<Vec<u16>> {
    let position = |o: usize| (o % board.width, o / board.width);
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for &o in &board.original {
        let (x, y) = position(o);
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    let (w, h) = (x1.saturating_sub(x0), y1.saturating_sub(y0));
    let mut maps = Vec::new();
    for transform in 1..8u8 {
        let (flip_x, flip_y, swap) = (transform & 1 != 0, transform & 2 != 0, transform & 4 != 0);
        if swap && w != h {
            continue;
        }
        let image = |o: usize| {
            let (x, y) = position(o);
            let (mut u, mut v) = (x - x0, y - y0);
            if flip_x {
                u = w - u;
            }
            if flip_y {
                v = h - v;
            }
            if swap {
                (u, v) = (v, u);
            }
            (y0 + v) * board.width + x0 + u
        };
        let map: Option<Vec<u16>> = board
            .original
            .iter()
            .enumerate()
            .map(|(c, &o)| {
                let to = board.compact.get(image(o)).copied().unwrap_or(NONE);
                (to != NONE && board.is_goal[usize::from(to)] == board.is_goal[c]).then_some(to)
            })
            .collect();
        // A flat or square box can map onto itself in two ways at once.
        if let Some(map) = map
            && map.iter().enumerate().any(|(c, &to)| usize::from(to) != c)
            && !maps.contains(&map)
        {
            maps.push(map);
        }
    }
    maps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Level;

    fn symmetries(xsb: &str) -> usize {
        let level = Level::from_xsb(xsb).unwrap();
        let board = Board::new(level.map(), level.player(), level.boxes()).unwrap();
        cell_maps(&board).len()
    }

    #[test]
    fn finds_the_turns_and_mirrors_that_keep_walls_and_goals() {
        // A cross: the four turns and four mirrors.
        let cross = "  ###\n  #.#\n###$###\n#.$@$.#\n###$###\n  #.#\n  ###";
        assert_eq!(symmetries(cross), 7);
        // A corridor: mirrored end to end only.
        assert_eq!(symmetries("#######\n#.$@$.#\n#######"), 1);
        // One goal off its mirror place breaks every symmetry.
        assert_eq!(symmetries("#######\n#.$@$ #\n#   . #\n#######"), 0);
    }

    #[test]
    fn a_position_and_its_mirror_image_share_one_expansion() {
        let level = Level::from_xsb("#######\n#. $@.#\n#  $  #\n#######").unwrap();
        let board = Board::new(level.map(), level.player(), level.boxes()).unwrap();
        let mut symmetry = Symmetry::new(&board, 1 << 20).unwrap();
        let mirror = |c: u16| {
            let o = board.original[usize::from(c)];
            let (x, y) = (o % board.width, o / board.width);
            board.compact[y * board.width + (6 - x)]
        };
        let boxes = board.start_boxes.clone();
        let player = [board.start_player];
        assert!(!symmetry.seen_image(&boxes, &player, 5));
        let image: Vec<u16> = boxes.iter().map(|&b| mirror(b)).collect();
        assert!(symmetry.seen_image(&image, &[mirror(player[0])], 5));
        // Reached more cheaply, the image is expanded after all.
        assert!(!symmetry.seen_image(&image, &[mirror(player[0])], 4));
        // A different position is not an image.
        let elsewhere = board.compact[2 * board.width + 2];
        assert!(!symmetry.seen_image(&boxes, &[elsewhere], 5));
    }
}
