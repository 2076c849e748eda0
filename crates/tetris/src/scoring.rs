//! Guideline scoring: line clears, T-spins (three-corner rule), back-to-back, combos and
//! perfect clears.

use serde::{Deserialize, Serialize};

use crate::matrix::Matrix;
use crate::piece::{ActivePiece, PieceKind, Rotation};
use crate::srs::Turn;

/// Whether a lock was a T-spin, judged by the three-corner rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TSpin {
    None,
    Mini,
    Full,
}

/// How the piece's last successful action before locking was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LastAction {
    /// Spawned, shifted or dropped.
    Other,
    /// Rotated, using the kick test with this index (0 = no kick).
    Rotation { turn: Turn, kick: u8 },
}

/// Three-corner T-spin rule: a T that last rotated and has at least three of the four cells
/// diagonal to its centre blocked (walls and floor count) is a T-spin. It is full when both
/// corners on its pointing side are blocked, or when the rotation used the fifth SRS test;
/// otherwise it is a mini.
pub fn detect_t_spin(matrix: &Matrix, piece: &ActivePiece, last: LastAction) -> TSpin {
    let LastAction::Rotation { turn, kick } = last else {
        return TSpin::None;
    };
    if piece.kind != PieceKind::T {
        return TSpin::None;
    }
    let (cx, cy) = (piece.x + 1, piece.y + 1);
    let blocked = |dx: i8, dy: i8| matrix.is_blocked(cx + dx, cy + dy);
    let (top_left, top_right) = (blocked(-1, 1), blocked(1, 1));
    let (bottom_left, bottom_right) = (blocked(-1, -1), blocked(1, -1));
    let corners = [top_left, top_right, bottom_left, bottom_right]
        .iter()
        .filter(|&&b| b)
        .count();
    if corners < 3 {
        return TSpin::None;
    }
    let front = match piece.rotation {
        Rotation::Spawn => top_left && top_right,
        Rotation::Right => top_right && bottom_right,
        Rotation::Reverse => bottom_left && bottom_right,
        Rotation::Left => top_left && bottom_left,
    };
    let fifth_test = turn != Turn::Half && usize::from(kick) == crate::srs::FIFTH_TEST;
    if front || fifth_test {
        TSpin::Full
    } else {
        TSpin::Mini
    }
}

/// What a lock earned, for the front end to announce and for the score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClearReport {
    pub lines: u32,
    pub t_spin: TSpin,
    /// This clear continued a back-to-back chain (and got the ×1.5).
    pub back_to_back: bool,
    /// Consecutive clearing locks minus one (0 on the first clear of a chain).
    pub combo: u32,
    pub perfect_clear: bool,
    /// Points awarded for the lock (action, combo and perfect clear).
    pub points: u64,
}

/// Base points of an action before the level multiplier.
pub fn action_points(lines: u32, t_spin: TSpin) -> u64 {
    match (t_spin, lines) {
        (TSpin::None, 0) => 0,
        (TSpin::None, 1) => 100,
        (TSpin::None, 2) => 300,
        (TSpin::None, 3) => 500,
        (TSpin::None, _) => 800,
        (TSpin::Mini, 0) => 100,
        (TSpin::Mini, 1) => 200,
        (TSpin::Mini, _) => 400,
        (TSpin::Full, 0) => 400,
        (TSpin::Full, 1) => 800,
        (TSpin::Full, 2) => 1200,
        (TSpin::Full, _) => 1600,
    }
}

/// Tetrises and line-clearing T-spins (mini or full) keep a back-to-back chain alive.
pub fn is_difficult(lines: u32, t_spin: TSpin) -> bool {
    lines >= 4 || (lines > 0 && t_spin != TSpin::None)
}

/// Guideline perfect-clear bonus before the level multiplier.
pub fn perfect_clear_points(lines: u32, back_to_back_tetris: bool) -> u64 {
    match lines {
        0 => 0,
        1 => 800,
        2 => 1200,
        3 => 1800,
        _ if back_to_back_tetris => 3200,
        _ => 2000,
    }
}

/// The running chain state scoring needs from one lock to the next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chains {
    pub back_to_back: bool,
    /// `None` when the previous lock cleared nothing.
    pub combo: Option<u32>,
}

/// Scores one lock and advances the chains. `level` is the level before the lines count.
///
/// ```
/// use tetris::scoring::{score_lock, Chains, TSpin};
/// let mut chains = Chains::default();
/// let tetris = score_lock(4, TSpin::None, false, 1, &mut chains);
/// assert_eq!(tetris.points, 800);
/// let again = score_lock(4, TSpin::None, false, 1, &mut chains);
/// assert_eq!(again.points, 1200 + 50); // back-to-back ×1.5, combo 1
/// ```
pub fn score_lock(
    lines: u32,
    t_spin: TSpin,
    perfect_clear: bool,
    level: u32,
    chains: &mut Chains,
) -> ClearReport {
    let level = u64::from(level.max(1));
    let difficult = is_difficult(lines, t_spin);
    let back_to_back = difficult && chains.back_to_back;
    let mut action = action_points(lines, t_spin) * level;
    if back_to_back {
        action = action * 3 / 2;
    }
    let combo = if lines > 0 {
        chains.combo.map_or(0, |c| c + 1)
    } else {
        0
    };
    let combo_points = if lines > 0 {
        50 * u64::from(combo) * level
    } else {
        0
    };
    let pc_points = if perfect_clear {
        perfect_clear_points(lines, back_to_back && lines >= 4) * level
    } else {
        0
    };
    if lines > 0 {
        chains.back_to_back = difficult;
        chains.combo = Some(combo);
    } else {
        chains.combo = None;
    }
    ClearReport {
        lines,
        t_spin,
        back_to_back,
        combo,
        perfect_clear,
        points: action + combo_points + pc_points,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t_at(rotation: Rotation, x: i8, y: i8) -> ActivePiece {
        ActivePiece {
            kind: PieceKind::T,
            rotation,
            x,
            y,
        }
    }

    #[test]
    fn three_corners_full_and_mini() {
        // A T pointing down into a slot with both lower corners and one upper corner filled.
        let matrix = Matrix::from_text_rows(&["XX........", "X...XXXXXX", "XX.XXXXXXX"]).unwrap();
        let piece = t_at(Rotation::Reverse, 1, 0);
        let rotated = LastAction::Rotation {
            turn: Turn::Clockwise,
            kick: 0,
        };
        assert_eq!(detect_t_spin(&matrix, &piece, rotated), TSpin::Full);
        assert_eq!(
            detect_t_spin(&matrix, &piece, LastAction::Other),
            TSpin::None
        );
        // Pointing up against the floor: the two back corners are the floor, one front corner.
        let matrix = Matrix::from_text_rows(&["X.........", ".........."]).unwrap();
        let piece = t_at(Rotation::Spawn, 0, -1);
        assert_eq!(detect_t_spin(&matrix, &piece, rotated), TSpin::Mini);
        assert_eq!(
            detect_t_spin(
                &matrix,
                &piece,
                LastAction::Rotation {
                    turn: Turn::Clockwise,
                    kick: 4
                }
            ),
            TSpin::Full
        );
    }

    #[test]
    fn point_tables() {
        let mut chains = Chains::default();
        assert_eq!(
            score_lock(1, TSpin::None, false, 2, &mut chains).points,
            200
        );
        assert_eq!(score_lock(0, TSpin::None, false, 2, &mut chains).points, 0);
        assert_eq!(chains.combo, None);
        assert_eq!(
            score_lock(0, TSpin::Full, false, 1, &mut chains).points,
            400
        );
        assert_eq!(
            score_lock(0, TSpin::Mini, false, 1, &mut chains).points,
            100
        );
        assert_eq!(
            score_lock(1, TSpin::Mini, false, 1, &mut chains).points,
            200
        );
        // Mini single made the chain; a T-spin double continues it: 1200 × 1.5, combo 1.
        let tsd = score_lock(2, TSpin::Full, false, 1, &mut chains);
        assert!(tsd.back_to_back);
        assert_eq!(tsd.points, 1800 + 50);
        // A plain single breaks back-to-back, combo 2.
        let single = score_lock(1, TSpin::None, false, 1, &mut chains);
        assert_eq!(single.points, 100 + 100);
        assert!(!chains.back_to_back);
        // A T-spin with no lines neither breaks nor builds the chain, but ends the combo.
        let mut chains = Chains {
            back_to_back: true,
            combo: Some(3),
        };
        score_lock(0, TSpin::Full, false, 1, &mut chains);
        assert!(chains.back_to_back);
        assert_eq!(chains.combo, None);
        assert_eq!(
            score_lock(3, TSpin::Full, false, 3, &mut chains).points,
            1600 * 3 * 3 / 2
        );
    }

    #[test]
    fn perfect_clears() {
        let mut chains = Chains::default();
        assert_eq!(score_lock(1, TSpin::None, true, 1, &mut chains).points, 900);
        let mut chains = Chains::default();
        assert_eq!(
            score_lock(4, TSpin::None, true, 2, &mut chains).points,
            (800 + 2000) * 2
        );
        // Back-to-back tetris perfect clear: 1200 + 3200, plus combo 1 (50).
        assert_eq!(
            score_lock(4, TSpin::None, true, 1, &mut chains).points,
            1200 + 3200 + 50
        );
    }
}
