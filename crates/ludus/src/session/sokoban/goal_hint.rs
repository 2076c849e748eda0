//! The goal-assignment hint: while the player asks for it, which goal the
//! solver's lower bound sends each box to in the position on the board.
//! The session brings it up to date after every change of the position, so
//! both front ends only draw it.

use sokoban::Game;
use sokoban::solver::{GoalAssigner, GoalAssignment};

/// The hint's state for one level: hidden, or shown for one position.
#[derive(Default)]
pub struct GoalHint {
    /// The solver's board for the level, built the first time it is shown.
    assigner: Option<GoalAssigner>,
    shown: Option<Shown>,
}

/// The position the hint was worked out for, and what it found there.
struct Shown {
    player: usize,
    boxes: Vec<usize>,
    /// `None` when the solver cannot take the level (too large, or
    /// unsolvable from its start).
    assignment: Option<GoalAssignment>,
}

impl GoalHint {
    /// Shows the hint for `game`'s position, or hides it; whether it is
    /// now shown.
    pub fn toggle(&mut self, game: &Game) -> bool {
        if self.shown.take().is_none() {
            self.work_out(game);
        }
        self.shown.is_some()
    }

    pub fn is_shown(&self) -> bool {
        self.shown.is_some()
    }

    /// Works the hint out again when it is shown and the position moved.
    pub fn update(&mut self, game: &Game) {
        if self.shown.is_some() && self.for_position(game).is_none() {
            self.work_out(game);
        }
    }

    /// The assignment for `game`'s position, while shown and worked out
    /// for that very position.
    pub fn assignment(&self, game: &Game) -> Option<&GoalAssignment> {
        self.for_position(game)?.assignment.as_ref()
    }

    fn for_position(&self, game: &Game) -> Option<&Shown> {
        self.shown
            .as_ref()
            .filter(|s| s.player == game.player() && s.boxes == game.boxes())
    }

    fn work_out(&mut self, game: &Game) {
        let assigner = self
            .assigner
            .get_or_insert_with(|| GoalAssigner::new(game.level()));
        let boxes = game.boxes();
        let assignment = assigner.assign(&boxes, game.player());
        self.shown = Some(Shown {
            player: game.player(),
            boxes,
            assignment,
        });
    }
}

/// What the hint says when shown: the bound, or how many boxes reach no
/// goal, or that the solver cannot take the level.
pub fn text(assignment: Option<&GoalAssignment>) -> String {
    let Some(assignment) = assignment else {
        return "The solver cannot match boxes to goals on this level.".into();
    };
    let unmatched = assignment.pairs.iter().filter(|p| p.goal.is_none()).count();
    match assignment.pushes {
        _ if unmatched > 0 => format!(
            "Goals: {} (!) can reach no goal.",
            crate::words::counted(unmatched, "box")
        ),
        Some(pushes) => format!(
            "Goals: each box and the goal the solver's bound gives it; {} at least.",
            crate::words::counted(pushes as usize, "push")
        ),
        None => "Goals: the boxes cannot all reach goals.".into(),
    }
}
