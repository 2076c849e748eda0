//! Watching the player's own best solution from the level's start, on a
//! copy of the game: the game being played is untouched. The pace is the
//! front end's; this is where the replay stands.

use sokoban::{Direction, Game, Level};

/// A replay of one solution.
#[derive(Clone, Debug)]
pub struct Replay {
    game: Game,
    steps: Vec<Direction>,
    position: usize,
    lurd: String,
    label: &'static str,
}

/// Why there is nothing to replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoReplay {
    /// The player has not solved the level yet (the level's own solution
    /// is never shown: it would give the answer away).
    NotSolvedYet,
    /// The stored solution cannot be read.
    Damaged(String),
}

impl std::fmt::Display for NoReplay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoReplay::NotSolvedYet => {
                f.write_str("no solution of yours to replay yet: solve the level first")
            }
            NoReplay::Damaged(why) => write!(f, "the stored solution is damaged: {why}"),
        }
    }
}

impl Replay {
    /// A replay of `lurd` on `level`, called `label` ("your best by moves").
    ///
    /// # Errors
    /// [`NoReplay::Damaged`] when `lurd` is not a solution's text.
    pub fn new(level: &Level, lurd: String, label: &'static str) -> Result<Replay, NoReplay> {
        let steps = sokoban::lurd::parse(&lurd)
            .map_err(|e| NoReplay::Damaged(e.to_string()))?
            .into_iter()
            .map(|(dir, _)| dir)
            .collect();
        Ok(Replay {
            game: Game::new(level.clone()),
            steps,
            position: 0,
            lurd,
            label,
        })
    }

    /// One step on; false at the end (or where the solution stops fitting).
    pub fn forward(&mut self) -> bool {
        let Some(&dir) = self.steps.get(self.position) else {
            return false;
        };
        if self.game.step(dir).is_err() {
            self.position = self.steps.len();
            return false;
        }
        self.position += 1;
        true
    }

    /// One step back; false at the start.
    pub fn back(&mut self) -> bool {
        let undone = self.game.undo();
        if undone {
            self.position -= 1;
        }
        undone
    }

    /// Back to the start.
    pub fn rewind(&mut self) {
        self.game.restart();
        self.position = 0;
    }

    /// The position reached.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Steps played so far.
    pub fn position(&self) -> usize {
        self.position
    }

    /// Steps in the solution.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    pub fn at_end(&self) -> bool {
        self.position >= self.steps.len()
    }

    /// The solution replayed, in LURD.
    pub fn lurd(&self) -> &str {
        &self.lurd
    }

    /// Which of the player's bests it is, in words.
    pub fn label(&self) -> &'static str {
        self.label
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_forward_and_back_on_a_copy() {
        let level = Level::from_xsb("######\n#@ $.#\n######").expect("a level");
        let mut replay = Replay::new(&level, "rR".into(), "your best by moves").expect("parses");
        assert!(replay.forward() && replay.forward());
        assert!(replay.at_end() && replay.game().is_solved());
        assert!(!replay.forward());
        assert!(replay.back());
        assert_eq!(replay.position(), 1);
        assert!(matches!(
            Replay::new(&level, "rx".into(), "x"),
            Err(NoReplay::Damaged(_))
        ));
    }
}
