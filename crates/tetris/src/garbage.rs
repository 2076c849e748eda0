//! Incoming garbage in a versus game: the queue of batches an opponent sent, their garbage
//! delay, cancelling, and the rows that rise into the matrix.
//!
//! The flow on each lock (run by [`crate::Game`] between the lock and the next spawn):
//!
//! 1. The lock's [`Attack`](crate::attack::Attack) first cancels queued incoming lines,
//!    oldest batch first, ready or not; what is left is sent to the opponent.
//! 2. A lock that clears no lines lets every *ready* batch rise: a batch is ready once its
//!    garbage delay ([`GarbageRules::delay_ms`]) has passed since it was sent. A clearing
//!    lock never takes garbage (Guideline, as in Tetris Friends and Puyo Puyo Tetris).
//! 3. Rows pushed above the top of the 40-row matrix top the player out
//!    ([`GameOver::TopOut`](crate::GameOver::TopOut)).
//!
//! Each risen row is full but for one hole. The holes come from the receiver's own seeded
//! generator ([`Holes`]) with a *messiness*: the first row of each batch takes a column
//! drawn uniformly from all ten, and each further row of the batch keeps the column above
//! it except with probability `messiness_percent`/100, when it moves to one of the other
//! nine (uniformly). Messiness 0 (the default) gives the Guideline's clean batches, one
//! column per attack; 100 moves the hole on every row.
#![warn(missing_docs)]

use std::collections::VecDeque;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::matrix::{Matrix, WIDTH};

/// The Guideline-style garbage delay most versus games use: half a second.
pub const DEFAULT_DELAY_MS: u32 = 500;
/// The longest garbage delay allowed (a minute).
pub const MAX_DELAY_MS: u32 = 60_000;

/// How garbage behaves; the same for both players of a versus game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct GarbageRules {
    /// Milliseconds between an attack being sent and its lines being ready to rise.
    pub delay_ms: u32,
    /// Per cent chance (0–100) that a garbage row's hole moves from the column of the row
    /// above it in the same batch (see the module documentation).
    pub messiness_percent: u8,
}

impl Default for GarbageRules {
    fn default() -> Self {
        GarbageRules {
            delay_ms: DEFAULT_DELAY_MS,
            messiness_percent: 0,
        }
    }
}

impl GarbageRules {
    /// The rules with every value in its range (delay at most [`MAX_DELAY_MS`], messiness
    /// at most 100).
    pub fn clamped(self) -> GarbageRules {
        GarbageRules {
            delay_ms: self.delay_ms.min(MAX_DELAY_MS),
            messiness_percent: self.messiness_percent.min(100),
        }
    }
}

/// Lines an opponent sent, waiting to rise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Batch {
    /// Lines still queued (cancelling takes lines off the front batch).
    pub lines: u32,
    /// Game time at which the batch was sent.
    pub sent_ms: u64,
    /// Game time from which the batch may rise.
    pub ready_ms: u64,
}

/// What an incoming-garbage meter draws: queued lines, split by whether they can rise now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Meter {
    /// Lines whose delay has passed: they rise on the next lock that clears nothing.
    pub ready: u32,
    /// Lines still in their delay.
    pub pending: u32,
}

impl Meter {
    /// All queued lines.
    pub fn total(self) -> u32 {
        self.ready + self.pending
    }
}

/// Running totals of one player's garbage, for statistics and for checking that lines are
/// conserved: `attack = cancelled + sent` and `received = cancelled_incoming + risen +
/// queued` (where `cancelled_incoming` is the lines of incoming batches this player's
/// attacks cancelled, the same number as `cancelled`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GarbageTotals {
    /// Lines this player's locks produced by the attack table.
    pub attack: u32,
    /// Of those, lines spent cancelling incoming garbage.
    pub cancelled: u32,
    /// Of those, lines sent on to the opponent.
    pub sent: u32,
    /// Lines the opponent sent this player (queued on arrival).
    pub received: u32,
    /// Garbage rows that rose into this player's matrix.
    pub risen: u32,
}

/// The generator of hole columns (see the module documentation for the messiness rule).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Holes {
    rng: ChaCha8Rng,
    /// The hole of the last row risen, when a batch is being continued.
    column: Option<u8>,
}

impl Holes {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Holes {
        Holes {
            rng: ChaCha8Rng::seed_from_u64(seed),
            column: None,
        }
    }

    /// The hole of the next row; `first_of_batch` draws a fresh column from all ten.
    pub fn next_hole(&mut self, first_of_batch: bool, messiness_percent: u8) -> u8 {
        let width = WIDTH as u32;
        let column = match self.column {
            Some(column) if !first_of_batch => {
                let moves = self.rng.next_u32() % 100 < u32::from(messiness_percent);
                if moves {
                    // One of the other nine columns.
                    let step = 1 + self.rng.next_u32() % (width - 1);
                    ((u32::from(column) + step) % width) as u8
                } else {
                    column
                }
            }
            _ => (self.rng.next_u32() % width) as u8,
        };
        self.column = Some(column);
        column
    }
}

/// What garbage did on one lock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LockGarbage {
    /// Attack lines that cancelled incoming garbage.
    pub cancelled: u32,
    /// Attack lines left to send to the opponent.
    pub sent: u32,
    /// Garbage rows that rose.
    pub risen: u32,
    /// The rows pushed blocks above the top of the matrix.
    pub topped_out: bool,
}

/// A player's incoming garbage: the queue, the hole generator, the rules and the totals.
/// [`crate::Game`] keeps one in a versus game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Garbage {
    rules: GarbageRules,
    queue: VecDeque<Batch>,
    holes: Holes,
    totals: GarbageTotals,
    /// Lines sent by locks and not yet taken by the opponent: (time sent, lines).
    outbox: Vec<(u64, u32)>,
}

impl Garbage {
    /// No garbage yet; holes from a generator seeded with `hole_seed`.
    pub fn new(rules: GarbageRules, hole_seed: u64) -> Garbage {
        Garbage {
            rules: rules.clamped(),
            queue: VecDeque::new(),
            holes: Holes::new(hole_seed),
            totals: GarbageTotals::default(),
            outbox: Vec::new(),
        }
    }

    /// The rules in force.
    pub fn rules(&self) -> GarbageRules {
        self.rules
    }

    /// The queued batches, oldest first.
    pub fn queue(&self) -> impl Iterator<Item = &Batch> {
        self.queue.iter()
    }

    /// The meter at game time `now_ms`.
    ///
    /// ```
    /// use tetris::garbage::{Garbage, GarbageRules, Meter};
    /// let mut garbage = Garbage::new(GarbageRules { delay_ms: 500, messiness_percent: 0 }, 1);
    /// garbage.receive(4, 1_000);
    /// garbage.receive(2, 1_300);
    /// assert_eq!(garbage.meter(1_600), Meter { ready: 4, pending: 2 });
    /// ```
    pub fn meter(&self, now_ms: u64) -> Meter {
        self.queue.iter().fold(Meter::default(), |meter, batch| {
            if batch.ready_ms <= now_ms {
                Meter {
                    ready: meter.ready + batch.lines,
                    ..meter
                }
            } else {
                Meter {
                    pending: meter.pending + batch.lines,
                    ..meter
                }
            }
        })
    }

    /// The totals so far.
    pub fn totals(&self) -> GarbageTotals {
        self.totals
    }

    /// Queues `lines` sent at `sent_ms`; they are ready after the garbage delay.
    pub fn receive(&mut self, lines: u32, sent_ms: u64) {
        if lines == 0 {
            return;
        }
        self.totals.received = self.totals.received.saturating_add(lines);
        self.queue.push_back(Batch {
            lines,
            sent_ms,
            ready_ms: sent_ms.saturating_add(u64::from(self.rules.delay_ms)),
        });
    }

    /// Spends up to `lines` of attack on the queue, oldest batch first; returns the lines
    /// cancelled.
    pub fn cancel(&mut self, lines: u32) -> u32 {
        let mut left = lines;
        while left > 0 {
            let Some(front) = self.queue.front_mut() else {
                break;
            };
            let taken = front.lines.min(left);
            front.lines -= taken;
            left -= taken;
            if front.lines == 0 {
                self.queue.pop_front();
            }
        }
        lines - left
    }

    /// Runs garbage for one lock at `now_ms` that cleared `cleared` lines and produced
    /// `attack` lines: cancelling, sending (to the outbox, see [`Garbage::take_sent`]) and,
    /// when nothing was cleared, the ready batches rising into `matrix`.
    pub fn after_lock(
        &mut self,
        attack: u32,
        cleared: u32,
        now_ms: u64,
        matrix: &mut Matrix,
    ) -> LockGarbage {
        let cancelled = self.cancel(attack);
        let sent = attack - cancelled;
        self.totals.attack = self.totals.attack.saturating_add(attack);
        self.totals.cancelled = self.totals.cancelled.saturating_add(cancelled);
        self.totals.sent = self.totals.sent.saturating_add(sent);
        if sent > 0 {
            self.outbox.push((now_ms, sent));
        }
        let mut outcome = LockGarbage {
            cancelled,
            sent,
            ..LockGarbage::default()
        };
        if cleared > 0 {
            return outcome;
        }
        let mut holes = Vec::new();
        while let Some(batch) = self.queue.front().filter(|b| b.ready_ms <= now_ms) {
            for row in 0..batch.lines {
                holes.push(self.holes.next_hole(row == 0, self.rules.messiness_percent));
            }
            self.queue.pop_front();
        }
        if holes.is_empty() {
            return outcome;
        }
        outcome.risen = u32::try_from(holes.len()).unwrap_or(u32::MAX);
        self.totals.risen = self.totals.risen.saturating_add(outcome.risen);
        outcome.topped_out = matrix.rise(&holes);
        outcome
    }

    /// Takes the attacks sent since the last call, as (game time sent, lines), for the
    /// opponent's [`Garbage::receive`].
    pub fn take_sent(&mut self) -> Vec<(u64, u32)> {
        std::mem::take(&mut self.outbox)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(delay_ms: u32, messiness_percent: u8) -> GarbageRules {
        GarbageRules {
            delay_ms,
            messiness_percent,
        }
    }

    #[test]
    fn attacks_cancel_oldest_first_and_the_rest_is_sent() {
        let mut garbage = Garbage::new(rules(500, 0), 3);
        garbage.receive(2, 0);
        garbage.receive(3, 100);
        let mut matrix = Matrix::new();
        let outcome = garbage.after_lock(4, 2, 200, &mut matrix);
        assert_eq!((outcome.cancelled, outcome.sent, outcome.risen), (4, 0, 0));
        assert_eq!(
            garbage.meter(200),
            Meter {
                ready: 0,
                pending: 1
            }
        );
        assert_eq!(garbage.queue().next().map(|b| b.sent_ms), Some(100));
        let outcome = garbage.after_lock(5, 3, 300, &mut matrix);
        assert_eq!((outcome.cancelled, outcome.sent), (1, 4));
        assert_eq!(garbage.take_sent(), vec![(300, 4)]);
        assert!(garbage.take_sent().is_empty());
        let totals = garbage.totals();
        assert_eq!(totals.attack, 9);
        assert_eq!(totals.attack, totals.cancelled + totals.sent);
        assert_eq!(totals.received, totals.cancelled + totals.risen);
        assert!(matrix.is_empty());
    }

    #[test]
    fn ready_garbage_rises_only_on_a_lock_that_clears_nothing() {
        let mut garbage = Garbage::new(rules(500, 0), 3);
        garbage.receive(3, 0);
        garbage.receive(2, 400);
        let mut matrix = Matrix::new();
        // Not ready yet.
        assert_eq!(garbage.after_lock(0, 0, 499, &mut matrix).risen, 0);
        // Ready, but the lock cleared a line.
        assert_eq!(garbage.after_lock(0, 1, 500, &mut matrix).risen, 0);
        assert_eq!(
            garbage.meter(500),
            Meter {
                ready: 3,
                pending: 2
            }
        );
        let outcome = garbage.after_lock(0, 0, 500, &mut matrix);
        assert_eq!((outcome.risen, outcome.topped_out), (3, false));
        assert_eq!(matrix.stack_height(), 3);
        // A clean batch: one hole column, nine blocks a row.
        let rows = matrix.text_rows(3);
        let hole = rows[0].find('.');
        assert!(hole.is_some());
        for row in &rows {
            assert_eq!(row.find('.'), hole);
            assert_eq!(row.matches('X').count(), 9);
        }
        assert_eq!(
            garbage.meter(900),
            Meter {
                ready: 2,
                pending: 0
            }
        );
    }

    #[test]
    fn garbage_pushing_blocks_over_the_top_tops_out() {
        let mut garbage = Garbage::new(rules(0, 0), 3);
        let mut matrix = Matrix::new();
        matrix.set(0, 37, Some(crate::Block::Garbage));
        garbage.receive(2, 0);
        assert!(!garbage.after_lock(0, 0, 0, &mut matrix).topped_out);
        garbage.receive(1, 0);
        assert!(garbage.after_lock(0, 0, 0, &mut matrix).topped_out);
    }

    #[test]
    fn messiness_moves_holes_within_a_batch() {
        let rows_of = |messiness| {
            let mut holes = Holes::new(9);
            (0..200)
                .map(|row| holes.next_hole(row % 20 == 0, messiness))
                .collect::<Vec<u8>>()
        };
        let moves = |holes: &[u8]| {
            holes
                .windows(2)
                .enumerate()
                .filter(|(i, w)| (i + 1) % 20 != 0 && w[0] != w[1])
                .count()
        };
        assert_eq!(moves(&rows_of(0)), 0);
        assert_eq!(moves(&rows_of(100)), 190);
        let some = moves(&rows_of(30));
        assert!((20..100).contains(&some), "{some} moves of 190 at 30%");
        assert!(rows_of(100).iter().all(|&hole| hole < 10));
        // The same seed gives the same holes.
        assert_eq!(rows_of(30), rows_of(30));
    }

    #[test]
    fn rules_are_clamped() {
        let garbage = Garbage::new(rules(u32::MAX, 200), 0);
        assert_eq!(garbage.rules(), rules(MAX_DELAY_MS, 100));
    }
}
