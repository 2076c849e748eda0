//! The level clock: the time spent on a level. It runs from the first move
//! until the level is solved, and stops while nobody is looking (the page
//! closed). The time is always passed in; the clock never reads one.

use std::time::{Duration, Instant};

/// Time spent on one level.
#[derive(Clone, Debug, Default)]
pub struct LevelClock {
    /// Time counted up to `running_since` (or in all, when stopped).
    spent: Duration,
    /// When the clock last started, while it runs.
    running_since: Option<Instant>,
    /// Nobody is looking: the clock stays stopped whatever the game.
    paused: bool,
}

impl LevelClock {
    /// Counts the time up to `now`, then runs on from `now` if `runs` (and
    /// the clock is not paused), or stops.
    pub fn update(&mut self, now: Instant, runs: bool) {
        if let Some(since) = self.running_since.take() {
            self.spent += now.saturating_duration_since(since);
        }
        if runs && !self.paused {
            self.running_since = Some(now);
        }
    }

    /// Stops the clock until [`LevelClock::resume`].
    pub fn pause(&mut self, now: Instant) {
        self.update(now, false);
        self.paused = true;
    }

    /// Lets the clock run again from `now` if `runs`.
    pub fn resume(&mut self, now: Instant, runs: bool) {
        self.paused = false;
        self.update(now, runs);
    }

    /// The time spent, as of `now`.
    pub fn elapsed(&self, now: Instant) -> Duration {
        self.spent
            + self
                .running_since
                .map_or(Duration::ZERO, |since| now.saturating_duration_since(since))
    }

    /// The time counted when the clock last stopped or started: what a
    /// screen shows before it has been told the time.
    pub fn counted(&self) -> Duration {
        self.spent
    }

    pub fn is_running(&self) -> bool {
        self.running_since.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_only_while_it_runs_and_is_not_paused() {
        let start = Instant::now();
        let at = |s: u64| start + Duration::from_secs(s);
        let mut clock = LevelClock::default();
        clock.update(at(0), true);
        clock.update(at(5), false);
        assert_eq!(clock.elapsed(at(9)), Duration::from_secs(5));
        clock.update(at(10), true);
        clock.pause(at(12));
        // Moves while paused do not start it.
        clock.update(at(13), true);
        assert_eq!(clock.elapsed(at(60)), Duration::from_secs(7));
        clock.resume(at(100), true);
        assert_eq!(clock.elapsed(at(103)), Duration::from_secs(10));
    }
}
