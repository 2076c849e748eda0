//! Live statistics of one game, computed once for both front ends: pieces per second,
//! keys per piece, finesse faults and rate, attack per minute (versus) and Sprint splits.

use tetris::{Game, Splits};

/// A game's live figures (and, at the end, the ones saved with the high score).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// Pieces locked per second of game time; 0 at time 0.
    pub pieces_per_second: f64,
    /// Key presses (moves, turns, drops, hold) per piece locked; 0 before the first.
    pub keys_per_piece: f64,
    /// Pieces placed with more presses than the finesse minimum.
    pub faults: u64,
    /// Percentage of judged pieces placed without a fault (100 before any).
    pub finesse_rate: f64,
    /// The last judged piece was a fault: the screens flash it.
    pub last_fault: bool,
    /// Pieces finesse training sent back to spawn.
    pub retries: u64,
    /// Attack lines per minute of game time, in versus games only.
    pub attack_per_minute: Option<f64>,
    /// Sprint's split times so far.
    pub splits: Splits,
}

impl Stats {
    /// The figures of `game` now.
    pub fn of(game: &Game) -> Stats {
        let seconds = game.time_ms() as f64 / 1000.0;
        let per_second = |n: f64| if seconds > 0.0 { n / seconds } else { 0.0 };
        let finesse = game.finesse();
        Stats {
            pieces_per_second: per_second(game.pieces() as f64),
            keys_per_piece: if game.pieces() > 0 {
                finesse.keys as f64 / game.pieces() as f64
            } else {
                0.0
            },
            faults: finesse.faults,
            finesse_rate: finesse.rate(),
            last_fault: finesse.last_fault,
            retries: game.finesse_retries(),
            attack_per_minute: game
                .garbage()
                .map(|g| per_second(f64::from(g.totals().attack)) * 60.0),
            splits: *game.splits(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetris::garbage::GarbageRules;
    use tetris::{Action, InputEvent, Mode, Settings};

    #[test]
    fn figures_of_a_short_game() {
        let mut game = Game::new(Mode::Zen, Settings::default(), 9);
        assert_eq!(Stats::of(&game).keys_per_piece, 0.0);
        assert_eq!(Stats::of(&game).finesse_rate, 100.0);
        // Right, left, drop (a fault: the piece ends where it spawned), then a drop.
        for action in [Action::Right, Action::Left, Action::HardDrop] {
            game.update(500, &InputEvent::tap(500, action));
        }
        game.update(2_000, &InputEvent::tap(2_000, Action::HardDrop));
        let stats = Stats::of(&game);
        assert_eq!(stats.pieces_per_second, 1.0);
        assert_eq!(stats.keys_per_piece, 2.0);
        assert_eq!(stats.faults, 1);
        assert_eq!(stats.finesse_rate, 50.0);
        assert!(!stats.last_fault);
        assert_eq!(stats.attack_per_minute, None);
    }

    #[test]
    fn versus_games_have_attack_per_minute() {
        let game =
            Game::new(Mode::Zen, Settings::default(), 9).with_garbage(GarbageRules::default(), 1);
        assert_eq!(Stats::of(&game).attack_per_minute, Some(0.0));
    }
}
