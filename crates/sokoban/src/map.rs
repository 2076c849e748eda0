//! The static part of a level: walls, floor and goals, and how cells are indexed.

use crate::Direction;

/// What a cell is, independent of the player and the boxes on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Empty space outside the level's walls, drawn as nothing.
    Outside,
    Wall,
    Floor,
    Goal,
}

impl Cell {
    pub fn is_walkable(self) -> bool {
        matches!(self, Cell::Floor | Cell::Goal)
    }
}

/// A rectangular grid of [`Cell`]s. Cells are addressed by a flat index
/// `row * width + column`; every function that takes a cell takes that index.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Map {
    width: usize,
    height: usize,
    cells: Vec<Cell>,
}

impl Map {
    pub(crate) fn new(width: usize, height: usize, cells: Vec<Cell>) -> Map {
        debug_assert_eq!(cells.len(), width * height);
        Map {
            width,
            height,
            cells,
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of cells (`width * height`).
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    pub fn cell(&self, index: usize) -> Cell {
        self.cells.get(index).copied().unwrap_or(Cell::Outside)
    }

    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    pub fn is_goal(&self, index: usize) -> bool {
        self.cell(index) == Cell::Goal
    }

    pub fn is_walkable(&self, index: usize) -> bool {
        self.cell(index).is_walkable()
    }

    pub fn index(&self, column: usize, row: usize) -> usize {
        row * self.width + column
    }

    /// `(column, row)` of a cell index.
    pub fn position(&self, index: usize) -> (usize, usize) {
        (index % self.width, index / self.width)
    }

    /// The neighbouring cell in `dir`, or `None` off the grid.
    pub fn neighbor(&self, index: usize, dir: Direction) -> Option<usize> {
        let (column, row) = self.position(index);
        let (dx, dy) = dir.delta();
        let column = column.checked_add_signed(dx)?;
        let row = row.checked_add_signed(dy)?;
        (column < self.width && row < self.height).then(|| self.index(column, row))
    }

    /// Indices of all goal cells.
    pub fn goals(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.cells.len()).filter(|&i| self.cells[i] == Cell::Goal)
    }
}
