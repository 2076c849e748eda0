//! The Guideline attack table: how many garbage lines a lock sends in a versus game.
//!
//! The lock's [`ClearReport`] (from [`crate::scoring`]: lines, T-spin, back-to-back, combo,
//! perfect clear) is all the table needs, so nothing is detected twice.
//!
//! | clear | lines sent |
//! | --- | --- |
//! | single, double, triple, Tetris | 0, 1, 2, 4 |
//! | T-spin mini single, mini double | 0, 1 |
//! | T-spin single, double, triple | 2, 4, 6 |
//! | back-to-back (a Tetris or line-clearing T-spin after another) | +1 |
//! | combo (see [`COMBO_TABLE`]) | +0 … +5 |
//! | perfect clear | 10, in place of the clear's own lines and back-to-back bonus; the combo bonus is still added |
//!
//! A lock that clears no lines sends nothing (a T-spin without lines included).
#![warn(missing_docs)]

use serde::{Deserialize, Serialize};

use crate::scoring::{ClearReport, TSpin};

/// Lines a perfect clear sends.
pub const PERFECT_CLEAR_LINES: u32 = 10;

/// Extra lines by combo, indexed by [`ClearReport::combo`] (0 for the first clear of a
/// chain, 1 for the second, …); combos past the end send the last entry.
///
/// This is the Guideline table of Tetris Friends (also Puyo Puyo Tetris' "REN" bonus):
/// 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, then 5 from combo 10 on.
pub const COMBO_TABLE: [u32; 11] = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5];

/// The lines a lock sends, part by part (for "+1 B2B" style banners), before cancelling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Attack {
    /// From the clear itself (or [`PERFECT_CLEAR_LINES`] for a perfect clear).
    pub clear: u32,
    /// The back-to-back bonus (0 or 1; 0 on a perfect clear).
    pub back_to_back: u32,
    /// The combo bonus from [`COMBO_TABLE`].
    pub combo: u32,
}

impl Attack {
    /// The attack of one lock.
    ///
    /// ```
    /// use tetris::attack::Attack;
    /// use tetris::scoring::{score_lock, Chains, TSpin};
    /// let mut chains = Chains::default();
    /// let first = score_lock(2, TSpin::Full, false, 1, &mut chains);
    /// assert_eq!(Attack::of(&first).total(), 4); // T-spin double
    /// let second = score_lock(4, TSpin::None, false, 1, &mut chains);
    /// assert_eq!(Attack::of(&second).total(), 4 + 1 + 1); // Tetris, back-to-back, combo 1
    /// ```
    pub fn of(report: &ClearReport) -> Attack {
        if report.lines == 0 {
            return Attack::default();
        }
        let combo = combo_lines(report.combo);
        if report.perfect_clear {
            return Attack {
                clear: PERFECT_CLEAR_LINES,
                back_to_back: 0,
                combo,
            };
        }
        Attack {
            clear: clear_lines(report.lines, report.t_spin),
            back_to_back: u32::from(report.back_to_back),
            combo,
        }
    }

    /// All the lines sent.
    pub fn total(self) -> u32 {
        self.clear + self.back_to_back + self.combo
    }
}

/// Lines a clear sends by itself, without back-to-back, combo or perfect clear.
pub fn clear_lines(lines: u32, t_spin: TSpin) -> u32 {
    match (t_spin, lines) {
        (_, 0) => 0,
        (TSpin::None, 1) => 0,
        (TSpin::None, 2) => 1,
        (TSpin::None, 3) => 2,
        (TSpin::None, _) => 4,
        (TSpin::Mini, 1) => 0,
        (TSpin::Mini, _) => 1,
        (TSpin::Full, 1) => 2,
        (TSpin::Full, 2) => 4,
        (TSpin::Full, _) => 6,
    }
}

/// The combo bonus for [`ClearReport::combo`] (see [`COMBO_TABLE`]).
pub fn combo_lines(combo: u32) -> u32 {
    let last = COMBO_TABLE.len() - 1;
    COMBO_TABLE[usize::try_from(combo).map_or(last, |c| c.min(last))]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(lines: u32, t_spin: TSpin, back_to_back: bool, combo: u32) -> ClearReport {
        ClearReport {
            lines,
            t_spin,
            back_to_back,
            combo,
            perfect_clear: false,
            points: 0,
        }
    }

    #[test]
    fn every_row_of_the_clear_table() {
        // (lines, T-spin, lines sent, with back-to-back)
        let table = [
            (0, TSpin::None, 0, 0),
            (1, TSpin::None, 0, 0),
            (2, TSpin::None, 1, 1),
            (3, TSpin::None, 2, 2),
            (4, TSpin::None, 4, 5),
            (0, TSpin::Mini, 0, 0),
            (1, TSpin::Mini, 0, 1),
            (2, TSpin::Mini, 1, 2),
            (0, TSpin::Full, 0, 0),
            (1, TSpin::Full, 2, 3),
            (2, TSpin::Full, 4, 5),
            (3, TSpin::Full, 6, 7),
        ];
        for (lines, t_spin, plain, b2b) in table {
            // Back-to-back is only ever reported on difficult clears; the table still adds it.
            let difficult = crate::scoring::is_difficult(lines, t_spin);
            assert_eq!(
                Attack::of(&report(lines, t_spin, false, 0)).total(),
                plain,
                "{lines} lines, {t_spin:?}"
            );
            if difficult || lines == 0 {
                assert_eq!(
                    Attack::of(&report(lines, t_spin, difficult, 0)).total(),
                    b2b,
                    "{lines} lines, {t_spin:?}, back-to-back"
                );
            }
        }
    }

    #[test]
    fn every_row_of_the_combo_table() {
        let expected = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5];
        for (combo, lines) in expected.into_iter().enumerate() {
            let single = report(1, TSpin::None, false, combo as u32);
            assert_eq!(Attack::of(&single).combo, lines, "combo {combo}");
            assert_eq!(
                Attack::of(&single).total(),
                lines,
                "single at combo {combo}"
            );
        }
        assert_eq!(combo_lines(u32::MAX), 5);
        // The combo bonus adds to the clear and back-to-back: T-spin double, B2B, combo 4.
        assert_eq!(
            Attack::of(&report(2, TSpin::Full, true, 4)).total(),
            4 + 1 + 2
        );
    }

    #[test]
    fn perfect_clears_send_ten_plus_combo() {
        for lines in 1..=4 {
            let mut pc = report(lines, TSpin::None, lines == 4, 0);
            pc.perfect_clear = true;
            assert_eq!(Attack::of(&pc).total(), PERFECT_CLEAR_LINES);
            pc.combo = 3;
            assert_eq!(
                Attack::of(&pc),
                Attack {
                    clear: 10,
                    back_to_back: 0,
                    combo: 2
                }
            );
        }
    }

    #[test]
    fn reports_from_scoring_feed_the_table() {
        use crate::scoring::{Chains, score_lock};
        let mut chains = Chains::default();
        let sent: Vec<u32> = [
            (1, TSpin::None),
            (1, TSpin::Mini),
            (4, TSpin::None),
            (0, TSpin::None),
            (3, TSpin::Full),
        ]
        .into_iter()
        .map(|(lines, t_spin)| {
            Attack::of(&score_lock(lines, t_spin, false, 1, &mut chains)).total()
        })
        .collect();
        // Single; mini single at combo 1; Tetris continuing the mini's B2B at combo 2;
        // nothing; T-spin triple keeping B2B alive after the gap.
        assert_eq!(sent, vec![0, 1, 4 + 1 + 1, 0, 6 + 1]);
    }
}
