//! A level: its static [`Map`], the starting positions of the player and the
//! boxes, and what a collection file said about it (title, author, solutions).

use crate::Direction;
use crate::map::{Cell, Map};
use crate::rating::Par;

/// Information that travels with a level in a collection file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metadata {
    pub title: Option<String>,
    pub author: Option<String>,
    /// Free comment lines and `Comment:` notes, in file order.
    pub comments: Vec<String>,
    /// Solutions stored with the level (`Solution:` lines), as LURD text.
    pub solutions: Vec<String>,
    /// 1-based line of the board's first row in the file it came from.
    pub line: usize,
    /// The fewest pushes known (a library's `min_pushes`, a collection's
    /// stored rating).
    pub par: Option<Par>,
    /// The fewest moves among push-optimal solutions, where a library says.
    pub min_moves: Option<u32>,
    /// The difficulty a library or rating gives, as written there (see
    /// [`crate::rating::Difficulty`] for Ludus's own bands).
    pub difficulty: Option<String>,
}

/// A parsed Sokoban level.
///
/// ```
/// let level = sokoban::Level::from_xsb("#####\n#@$.#\n#####")?;
/// assert_eq!(level.boxes().len(), 1);
/// assert_eq!(level.to_xsb(), "#####\n#@$.#\n#####\n");
/// # Ok::<(), sokoban::ParseError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    map: Map,
    player: usize,
    boxes: Vec<usize>,
    /// Column and row of the cropped map's corner in the source text.
    origin: (usize, usize),
    pub meta: Metadata,
}

impl Level {
    /// Builds a level from a rectangular grid of XSB cells.
    /// Plain floor connected to the grid's edge becomes [`Cell::Outside`],
    /// and the grid is cropped to what is left.
    pub(crate) fn from_grid(
        width: usize,
        height: usize,
        mut cells: Vec<Cell>,
        player: usize,
        mut boxes: Vec<usize>,
        meta: Metadata,
    ) -> Level {
        mark_outside(width, height, &mut cells, player, &boxes);
        // Crop to the bounding box of everything that is not outside.
        let inside = |i: usize| cells[i] != Cell::Outside || i == player || boxes.contains(&i);
        let rows: Vec<usize> = (0..height)
            .filter(|&r| (0..width).any(|c| inside(r * width + c)))
            .collect();
        let columns: Vec<usize> = (0..width)
            .filter(|&c| (0..height).any(|r| inside(r * width + c)))
            .collect();
        let (top, left) = (
            rows.first().copied().unwrap_or(0),
            columns.first().copied().unwrap_or(0),
        );
        let new_height = rows.last().map_or(0, |&b| b + 1 - top);
        let new_width = columns.last().map_or(0, |&r| r + 1 - left);
        let remap = |i: usize| (i / width - top) * new_width + (i % width - left);
        let mut cropped = Vec::with_capacity(new_width * new_height);
        for r in top..top + new_height {
            for c in left..left + new_width {
                cropped.push(cells[r * width + c]);
            }
        }
        boxes.iter_mut().for_each(|b| *b = remap(*b));
        boxes.sort_unstable();
        Level {
            map: Map::new(new_width, new_height, cropped),
            player: remap(player),
            boxes,
            origin: (left, top),
            meta,
        }
    }

    /// The same level with the player and the boxes elsewhere (a position
    /// reached in play), for solving from it.
    pub(crate) fn with_position(&self, player: usize, mut boxes: Vec<usize>) -> Level {
        boxes.sort_unstable();
        Level {
            player,
            boxes,
            ..self.clone()
        }
    }

    /// The 1-based line and column in the source text of a cell.
    pub fn source_position(&self, cell: usize) -> (usize, usize) {
        let (column, row) = self.map.position(cell);
        (
            self.meta.line.max(1) + self.origin.1 + row,
            self.origin.0 + column + 1,
        )
    }

    /// Parses a single level in XSB/SOK form (see [`crate::parse_collection`] for
    /// files holding many levels).
    pub fn from_xsb(text: &str) -> Result<Level, crate::ParseError> {
        crate::format::xsb::parse_level(text)
    }

    pub fn map(&self) -> &Map {
        &self.map
    }

    pub fn player(&self) -> usize {
        self.player
    }

    /// Box cells, sorted.
    pub fn boxes(&self) -> &[usize] {
        &self.boxes
    }

    pub fn width(&self) -> usize {
        self.map.width()
    }

    pub fn height(&self) -> usize {
        self.map.height()
    }

    /// The title, or `"Level N"` style fallback supplied by the caller.
    pub fn title_or<'a>(&'a self, fallback: &'a str) -> &'a str {
        self.meta.title.as_deref().unwrap_or(fallback)
    }

    /// The board as XSB text (`#`, space, `.`, `$`, `*`, `@`, `+`), one row per
    /// line, trailing spaces trimmed, ending with a newline.
    pub fn to_xsb(&self) -> String {
        crate::format::xsb::board_to_xsb(&self.map, self.player, &self.boxes)
    }

    /// A stable key for this level's content: a 64-bit FNV-1a hash of its
    /// normalised XSB text, as 16 hex digits. Titles, comments, floor
    /// characters, line endings and surrounding space do not change it; any
    /// change to walls, goals, boxes or the player does.
    pub fn key(&self) -> String {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in self.to_xsb().bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        format!("{hash:016x}")
    }

    /// Whether every box already stands on a goal.
    pub fn is_solved_at_start(&self) -> bool {
        self.boxes.iter().all(|&b| self.map.is_goal(b))
    }
}

/// Marks as [`Cell::Outside`] every plain floor cell that the grid's edge can
/// reach through plain floor (no goal, box or player on the way).
fn mark_outside(width: usize, height: usize, cells: &mut [Cell], player: usize, boxes: &[usize]) {
    let map = Map::new(width, height, cells.to_vec());
    let plain = |i: usize| cells[i] == Cell::Floor && i != player && !boxes.contains(&i);
    let mut seen = vec![false; cells.len()];
    let mut stack: Vec<usize> = (0..cells.len())
        .filter(|&i| {
            let (c, r) = map.position(i);
            (c == 0 || r == 0 || c + 1 == width || r + 1 == height) && plain(i)
        })
        .collect();
    stack.iter().for_each(|&i| seen[i] = true);
    while let Some(i) = stack.pop() {
        for dir in Direction::ALL {
            if let Some(n) = map.neighbor(i, dir)
                && !seen[n]
                && plain(n)
            {
                seen[n] = true;
                stack.push(n);
            }
        }
    }
    for (i, s) in seen.iter().enumerate() {
        if *s {
            cells[i] = Cell::Outside;
        }
    }
}
