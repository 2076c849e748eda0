//! Board evaluation: Pierre Dellacherie's features with El-Tetris weights (landing height,
//! rows cleared, row and column transitions, holes, cumulative wells), plus bumpiness and
//! small terms for T-spin and Tetris opportunities.

use super::board::{BitBoard, FULL_ROW};
use crate::scoring::TSpin;

/// Rows over which transitions are counted (a constant span, so empty rows add a constant).
const SPAN: usize = 24;

/// Feature weights; positive is good.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    pub landing_height: f32,
    pub rows_cleared: f32,
    pub row_transitions: f32,
    pub column_transitions: f32,
    pub holes: f32,
    pub cumulative_wells: f32,
    pub bumpiness: f32,
    /// Per line cleared by a T-spin (on top of `rows_cleared`).
    pub t_spin_lines: f32,
    /// For clearing four lines at once.
    pub tetris: f32,
    /// For a ready T-slot (a T-spin double shape) on the board.
    pub t_slot: f32,
    /// For a single well at least four deep with the rest of those rows full.
    pub tetris_ready: f32,
    /// Per row of stack above row 14, where the game gets dangerous.
    pub danger: f32,
    /// Per line of a 1–3 line clear without a T-spin while the stack is at most
    /// `calm_height` rows (negative to save lines for Tetrises).
    pub burn: f32,
    pub calm_height: usize,
    /// Leave the deepest single-column well out of the well penalty (a Tetris well).
    pub spare_deepest_well: bool,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            landing_height: -4.500_159,
            rows_cleared: 3.418_127,
            row_transitions: -3.217_888,
            column_transitions: -9.348_695,
            holes: -7.899_265,
            cumulative_wells: -3.385_597,
            bumpiness: -0.2,
            t_spin_lines: 2.0,
            tetris: 4.0,
            t_slot: 1.0,
            tetris_ready: 1.0,
            danger: -20.0,
            burn: 0.0,
            calm_height: 0,
            spare_deepest_well: false,
        }
    }
}

impl Weights {
    /// The default weights play for survival (they burn lines early and keep the stack very
    /// low). This style builds a Tetris well and T-slots while the stack is calm, for demos
    /// and higher scores, at some cost in safety.
    pub fn attack() -> Weights {
        Weights {
            burn: -20.0,
            calm_height: 10,
            tetris: 40.0,
            tetris_ready: 8.0,
            t_spin_lines: 15.0,
            t_slot: 4.0,
            spare_deepest_well: true,
            ..Weights::default()
        }
    }
}

/// What the versus search rewards beside the board: attack sent (by the real attack
/// table), a back-to-back chain kept, and garbage left waiting. Two board styles are
/// chosen by the state at the root: `calm` builds (Tetris well, T-slots, no burning) and
/// `pressed` digs and clears when garbage is coming or the stack is high.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VersusWeights {
    /// Board weights while calm.
    pub calm: Weights,
    /// Board weights under pressure.
    pub pressed: Weights,
    /// The stack height (with incoming garbage counted as risen) above which the bot is
    /// under pressure.
    pub pressure_height: usize,
    /// Per line of attack (cancelled or sent): the attack table's lines, B2B, combo, PC.
    pub attack_line: f32,
    /// For ending a line of play with a back-to-back chain alive.
    pub back_to_back: f32,
    /// Per line of garbage still waiting (not cancelled) at the end of a line of play.
    pub incoming_line: f32,
    /// Per line of garbage that rose during a line of play (a clear-less lock let it in).
    pub risen_line: f32,
}

impl Default for VersusWeights {
    fn default() -> Self {
        VersusWeights {
            calm: Weights {
                burn: -12.0,
                calm_height: 8,
                tetris: 10.0,
                tetris_ready: 8.0,
                t_spin_lines: 4.0,
                t_slot: 6.0,
                spare_deepest_well: true,
                ..Weights::default()
            },
            pressed: Weights {
                tetris: 8.0,
                t_slot: 2.0,
                ..Weights::default()
            },
            pressure_height: 10,
            attack_line: 12.0,
            back_to_back: 6.0,
            incoming_line: -4.0,
            risen_line: -6.0,
        }
    }
}

/// What a placement did, alongside the board it left.
#[derive(Clone, Copy, Debug)]
pub struct Move {
    /// Middle of the piece's rows, counted from 1 at the bottom.
    pub landing_height: f32,
    pub lines: u32,
    pub t_spin: TSpin,
}

pub fn evaluate(board: &BitBoard, placed: Move, weights: &Weights) -> f32 {
    let height = board.height();
    board_score(board, weights, 0) + move_score(placed, height, weights)
}

/// The terms of [`evaluate`] that belong to the placement itself (landing height, lines,
/// T-spin, Tetris, burn), given the stack height after it. The look-ahead search adds these
/// up along a line of play.
pub fn move_score(placed: Move, height: usize, weights: &Weights) -> f32 {
    let mut score =
        weights.landing_height * placed.landing_height + weights.rows_cleared * placed.lines as f32;
    if placed.t_spin != TSpin::None {
        score += weights.t_spin_lines * placed.lines as f32;
    }
    if placed.lines >= 4 {
        score += weights.tetris;
    } else if placed.lines > 0 && placed.t_spin == TSpin::None && height <= weights.calm_height {
        score += weights.burn * placed.lines as f32;
    }
    score
}

/// The terms of [`evaluate`] that belong to the board alone. `extra_height` is added to
/// the stack height for the danger term: garbage on its way counts as if it had risen.
pub fn board_score(board: &BitBoard, weights: &Weights, extra_height: usize) -> f32 {
    let rows = &board.rows;
    let height = board.height();
    let mut row_transitions = 2 * (SPAN.saturating_sub(height)) as u32;
    let mut column_transitions = 0;
    let mut below = FULL_ROW;
    for &row in &rows[..height] {
        let walled = (u32::from(row) << 1) | 1 | (1 << 11);
        row_transitions += ((walled ^ (walled >> 1)) & 0x7ff).count_ones();
        column_transitions += u32::from(row ^ below).count_ones();
        below = row;
    }
    // The top surface counts as a transition into empty space above.
    column_transitions += u32::from(below).count_ones() * u32::from(height > 0);

    let mut holes = 0;
    let mut covered = 0u16;
    let mut column_heights = [0usize; 10];
    let mut well_depth = [0u32; 10];
    let mut column_wells = [0u32; 10];
    for y in (0..height).rev() {
        let row = rows[y];
        holes += (!row & covered & FULL_ROW).count_ones();
        let newly = row & !covered;
        if newly != 0 {
            for (x, h) in column_heights.iter_mut().enumerate() {
                if newly & (1 << x) != 0 {
                    *h = y + 1;
                }
            }
        }
        covered |= row;
        let left_wall = (row << 1) | 1;
        let right_wall = (row >> 1) | (1 << 9);
        let well_cells = !row & left_wall & right_wall & FULL_ROW;
        for (x, depth) in well_depth.iter_mut().enumerate() {
            if well_cells & (1 << x) != 0 {
                *depth += 1;
                column_wells[x] += *depth;
            } else {
                *depth = 0;
            }
        }
    }
    let mut wells: u32 = column_wells.iter().sum();
    if weights.spare_deepest_well {
        wells -= column_wells.iter().max().copied().unwrap_or(0);
    }
    let bumpiness: usize = column_heights.windows(2).map(|w| w[0].abs_diff(w[1])).sum();

    let mut score = weights.row_transitions * row_transitions as f32
        + weights.column_transitions * column_transitions as f32
        + weights.holes * holes as f32
        + weights.cumulative_wells * wells as f32
        + weights.bumpiness * bumpiness as f32
        + weights.danger * (height + extra_height).saturating_sub(14) as f32;
    if has_t_slot(rows, &column_heights) {
        score += weights.t_slot;
    }
    if tetris_ready(rows, &column_heights) {
        score += weights.tetris_ready;
    }
    score
}

/// A T-spin double slot: above the middle column's top, a row missing only that cell, the
/// row over it missing exactly three adjacent cells, and a roof over one side of the slot.
fn has_t_slot(rows: &[u16], heights: &[usize; 10]) -> bool {
    (0..8usize).any(|x| {
        let slot = 0b111u16 << x;
        let middle = 0b010u16 << x;
        let y = heights[x + 1];
        if y + 2 >= rows.len() {
            return false;
        }
        let (bottom, top, roof) = (rows[y], rows[y + 1], rows[y + 2]);
        bottom | middle == FULL_ROW
            && top | slot == FULL_ROW
            && top & slot == 0
            && roof & ((1 << x) | (1 << (x + 2))) != 0
    })
}

/// One column at least four lower than both neighbours, with the rows beside it full.
fn tetris_ready(rows: &[u16], heights: &[usize; 10]) -> bool {
    let lowest = (0..10).min_by_key(|&x| heights[x]).unwrap_or(0);
    let bottom = heights[lowest];
    if bottom + 4 > rows.len() {
        return false;
    }
    rows[bottom..bottom + 4]
        .iter()
        .all(|&row| row | (1 << lowest) == FULL_ROW && row & (1 << lowest) == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::Matrix;

    fn score(rows: &[&str]) -> f32 {
        let board = BitBoard::from_matrix(&Matrix::from_text_rows(rows).unwrap());
        let placed = Move {
            landing_height: 1.0,
            lines: 0,
            t_spin: TSpin::None,
        };
        evaluate(&board, placed, &Weights::default())
    }

    #[test]
    fn holes_wells_and_bumps_cost_points() {
        let flat = score(&["XXXXXXXXX."]);
        assert!(score(&["XXXXXXXXX.", "XXXX.XXXXX"]) < score(&["XXXXXXXXX.", "XXXXXXXXX."]));
        assert!(score(&["XXXXXXXXXX", "XXX.XXXXX."]) < flat, "a hole");
        assert!(score(&["X.X.......", "XXXXXXXXX."]) < score(&["XX........", "XXXXXXXXX."]));
    }

    #[test]
    fn t_slots_and_tetris_wells_are_recognised() {
        let rows = |text: &[&str]| {
            let board = BitBoard::from_matrix(&Matrix::from_text_rows(text).unwrap());
            let mut heights = [0usize; 10];
            for (x, h) in heights.iter_mut().enumerate() {
                *h = (0..40)
                    .rev()
                    .find(|&y| board.rows[y] & (1 << x) != 0)
                    .map_or(0, |y| y + 1);
            }
            (board, heights)
        };
        let (board, heights) = rows(&["XX........", "X...XXXXXX", "XX.XXXXXXX"]);
        assert!(has_t_slot(&board.rows, &heights));
        let (board, heights) = rows(&["..........", "X...XXXXXX", "XX.XXXXXXX"]);
        assert!(!has_t_slot(&board.rows, &heights), "no roof");
        let (board, heights) = rows(&["XXXXXXXXX."; 4]);
        assert!(tetris_ready(&board.rows, &heights));
        let (board, heights) = rows(&["XXXXXXXXX."; 3]);
        assert!(!tetris_ready(&board.rows, &heights));
    }
}
