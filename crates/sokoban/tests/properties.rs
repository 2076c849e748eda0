//! Invariants of play under random move sequences.

use proptest::prelude::*;
use sokoban::{Direction, Game, Level};

const LEVELS: [&str; 3] = [
    "#######\n#     #\n# $$. #\n# .@  #\n#  *  #\n#######",
    "  #####\n###   #\n#.@$  #\n### $.#\n#.##$ #\n# # . ##\n#$ *$$.#\n#   .  #\n########",
    "########\n#  .   #\n# $$$  #\n#..@.  #\n# $    #\n########",
];

fn directions() -> impl Strategy<Value = Vec<Direction>> {
    prop::collection::vec(prop::sample::select(Direction::ALL.to_vec()), 0..200)
}

fn snapshot(game: &Game) -> (usize, Vec<usize>, u32, u32) {
    (game.player(), game.boxes(), game.moves(), game.pushes())
}

proptest! {
    #[test]
    fn undo_all_returns_to_start_and_redo_restores(level in 0..LEVELS.len(), dirs in directions()) {
        let level = Level::from_xsb(LEVELS[level]).unwrap();
        let mut game = Game::new(level.clone());
        let start = snapshot(&game);
        for d in &dirs {
            let _ = game.step(*d);
        }
        let end = snapshot(&game);
        while game.undo() {}
        prop_assert_eq!(snapshot(&game), start);
        while game.redo() {}
        prop_assert_eq!(snapshot(&game), end);
    }

    #[test]
    fn counters_agree_with_history_and_boxes_are_kept(level in 0..LEVELS.len(), dirs in directions()) {
        let level = Level::from_xsb(LEVELS[level]).unwrap();
        let mut game = Game::new(level.clone());
        for d in &dirs {
            let _ = game.step(*d);
            let boxes = game.boxes();
            prop_assert_eq!(boxes.len(), level.boxes().len(), "boxes lost or merged");
            prop_assert!(boxes.iter().all(|&b| level.map().is_walkable(b)));
            prop_assert!(!game.has_box(game.player()));
            let steps = game.steps();
            prop_assert_eq!(steps.len() as u32, game.moves());
            prop_assert_eq!(steps.iter().filter(|s| s.push).count() as u32, game.pushes());
            let on_goals = boxes.iter().filter(|&&b| level.map().is_goal(b)).count();
            prop_assert_eq!(on_goals, game.boxes_on_goals());
        }
        // The history replays to the same position from the start.
        let replayed = Game::restore(level.clone(), &game.lurd(), usize::MAX).unwrap();
        prop_assert_eq!(snapshot(&replayed), snapshot(&game));
    }

    #[test]
    fn restart_is_undoable(level in 0..LEVELS.len(), dirs in directions(), more in directions()) {
        let level = Level::from_xsb(LEVELS[level]).unwrap();
        let mut game = Game::new(level);
        for d in &dirs {
            let _ = game.step(*d);
        }
        let before = snapshot(&game);
        game.restart();
        prop_assert_eq!((game.moves(), game.pushes()), (0, 0));
        for d in &more {
            let _ = game.step(*d);
        }
        while game.moves() > 0 && game.undo() {}
        prop_assert!(game.undo() || before.2 == 0);
        if before.2 > 0 {
            prop_assert_eq!(snapshot(&game), before);
        }
    }

    #[test]
    fn saved_history_restores_with_redo(level in 0..LEVELS.len(), dirs in directions(), back in 0usize..50) {
        let level = Level::from_xsb(LEVELS[level]).unwrap();
        let mut game = Game::new(level.clone());
        for d in &dirs {
            let _ = game.step(*d);
        }
        for _ in 0..back {
            game.undo();
        }
        let restored = Game::restore(level, &game.lurd_with_redo(), game.moves() as usize).unwrap();
        prop_assert_eq!(snapshot(&restored), snapshot(&game));
        prop_assert_eq!(restored.lurd_with_redo(), game.lurd_with_redo());
    }

    #[test]
    fn solver_steps_survive_a_saved_history(
        level in 0..LEVELS.len(),
        steps in prop::collection::vec((prop::sample::select(Direction::ALL.to_vec()), any::<bool>()), 0..200),
        back in 0usize..50,
    ) {
        let level = Level::from_xsb(LEVELS[level]).unwrap();
        let mut game = Game::new(level.clone());
        for &(d, by_solver) in &steps {
            let _ = if by_solver { game.step_by_solver(d) } else { game.step(d) };
        }
        for _ in 0..back {
            game.undo();
        }
        let marked = game.solver_steps();
        let restored =
            Game::restore_marked(level, &game.lurd_with_redo(), game.moves() as usize, &marked).unwrap();
        prop_assert_eq!(restored.solver_steps(), marked);
        prop_assert_eq!(restored.is_assisted(), game.is_assisted());
        // Assisted exactly when a solver step is among the applied ones.
        let applied = game.moves() as usize;
        prop_assert_eq!(game.is_assisted(), game.solver_steps().iter().any(|&i| i < applied));
    }
}
