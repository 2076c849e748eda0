//! Sokoban game flow shared by the front ends (terminal and browser). The
//! session of a level being played is [`play::SokobanSession`]; this module
//! holds the helpers under it: what happens when a level is solved, which
//! level comes next, which solution a replay shows, snapshots, and the words
//! for hints, solutions and deadlocks. Front ends only decide how to show
//! the results.

pub mod clock;
pub mod editing;
pub mod goal_hint;
pub mod library;
pub mod pack;
pub mod play;
pub mod replay;
pub mod solver_job;
pub mod thinking;

use sokoban::solver::DeadlockKind;
use sokoban::{Game, Level, ReplayError};

use crate::session::sokoban::library::LevelSet;
use crate::store::DataDir;
use crate::store::progress;
pub use crate::store::progress::{
    LevelProgress, NewBest, Progress, Solution, load as load_progress,
};
use crate::store::snapshots::{History, Snapshot};

/// Seconds since the Unix epoch (0 if the clock is before it).
pub fn now_unix() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The title progress is recorded under: the level's own, or "<set> #<n>"
/// (the set's name alone for a set of one level: an upload, a play-test).
pub fn level_title(set: &LevelSet, index: usize, level: &Level) -> String {
    level.meta.title.clone().unwrap_or_else(|| {
        if set.len() == 1 {
            set.name.clone()
        } else {
            format!("{} #{}", set.name, index + 1)
        }
    })
}

/// The name a level list shows (both front ends): the level's title, or for an
/// untitled level (most classic ones) its [`size_text`].
pub fn list_name(level: &Level) -> String {
    level.meta.title.clone().unwrap_or_else(|| size_text(level))
}

/// A level's size and boxes: `9x6, 2 boxes`.
pub fn size_text(level: &Level) -> String {
    format!(
        "{}x{}, {}",
        level.width(),
        level.height(),
        crate::words::counted(level.boxes().len(), "box")
    )
}

/// The outcome of recording a solve.
#[derive(Debug)]
pub struct Solved {
    /// What the solution improved (all false if it could not be saved).
    pub new_best: NewBest,
    /// Progress as it is on disk after the write (with other front ends' solves).
    pub progress: Progress,
    /// Every valid level of the set is now solved.
    pub all_solved: bool,
    /// Files that were unusable and moved aside, or why saving failed.
    pub problems: Vec<String>,
    /// The solver made some of the moves ("solve and show"), so nothing was
    /// recorded: the solve is not the player's.
    pub assisted: bool,
    /// A play-test of a level in the editor: nothing is recorded.
    pub play_test: bool,
    /// How the solve compares with the level's par, when it has one ("par
    /// 32 pushes, you 35").
    pub against_par: Option<String>,
}

/// What the front ends say after solving a play-test.
pub const PLAY_TEST_SOLVE: &str = "A play-test: your progress is not recorded.";

/// What the front ends say after a solve the solver made.
pub const ASSISTED_SOLVE: &str = "The solver made these moves, so they are not counted as yours.";

/// Records the solution `game` has reached (locked read-modify-write of
/// `progress.json`, so two front ends solving at once both count), then
/// reloads progress and says what record it set. A solve the solver made
/// (see [`Game::is_assisted`]) and a play-test in the editor are not recorded.
pub fn record_solve(data: &DataDir, set: &LevelSet, index: usize, game: &Game) -> Solved {
    let level = game.level();
    let title = level_title(set, index, level);
    let mut problems = Vec::new();
    let assisted = game.is_assisted();
    let play_test = set.source == crate::session::sokoban::library::Source::PlayTest;
    let new_best = if assisted || play_test {
        NewBest::default()
    } else {
        record(data, &set.name, level, &title, game, &mut problems)
    };
    let (progress, warning) = progress::load(data);
    problems.extend(warning.map(|w| w.to_string()));
    let all_solved = !play_test
        && set
            .collection
            .valid_levels()
            .all(|(_, l)| progress.is_solved(&l.key()));
    let against_par = level
        .meta
        .par
        .map(|par| sokoban::rating::against_par(&par, game.pushes()));
    Solved {
        new_best,
        progress,
        all_solved,
        problems,
        assisted,
        play_test,
        against_par,
    }
}

/// Writes the solve into `progress.json`; a warning or a failure goes to `problems`.
fn record(
    data: &DataDir,
    collection: &str,
    level: &Level,
    title: &str,
    game: &Game,
    problems: &mut Vec<String>,
) -> NewBest {
    match progress::record_solution(
        data,
        &progress::Place {
            key: &level.key(),
            title,
            collection,
        },
        &game.lurd(),
        game.moves(),
        game.pushes(),
        now_unix(),
    ) {
        Ok((best, warning)) => {
            problems.extend(warning.map(|w| w.to_string()));
            best
        }
        Err(e) => {
            problems.push(format!("could not save your progress: {e:#}"));
            NewBest::default()
        }
    }
}

/// The next level after `index` (wrapping) that parsed and is not solved yet.
pub fn next_unsolved(set: &LevelSet, index: usize, progress: &Progress) -> Option<usize> {
    let len = set.len();
    (1..len).map(|d| (index + d) % len).find(|&i| {
        set.collection.levels[i]
            .as_ref()
            .is_ok_and(|l| !progress.is_solved(&l.key()))
    })
}

/// The next (or previous) level of the set that parsed, if any.
pub fn neighbour_level(set: &LevelSet, index: usize, forward: bool) -> Option<usize> {
    let valid = |i: &usize| set.collection.levels.get(*i).is_some_and(Result::is_ok);
    if forward {
        (index + 1..set.len()).find(valid)
    } else {
        (0..index).rev().find(valid)
    }
}

/// The solution a replay shows: the player's best (by moves or by pushes),
/// with a label saying which. Never the solution stored with the level: on a
/// level not solved yet that would give the answer away.
pub fn replay_solution(
    progress: &Progress,
    level: &Level,
    by_pushes: bool,
) -> Option<(String, &'static str)> {
    let record = progress.get(&level.key());
    let best = record.and_then(|r| {
        if by_pushes {
            r.best_by_pushes.as_ref()
        } else {
            r.best_by_moves.as_ref()
        }
    });
    match best {
        Some(b) if by_pushes => Some((b.lurd.clone(), "your best by pushes")),
        Some(b) => Some((b.lurd.clone(), "your best by moves")),
        None => None,
    }
}

/// A snapshot of `game`: its level and every move, the undone ones too.
pub fn snapshot_of(game: &Game) -> Snapshot {
    let level = game.level();
    Snapshot {
        level_key: level.key(),
        level_title: level.meta.title.clone().unwrap_or_default(),
        level_xsb: level.to_xsb(),
        history: History {
            lurd: game.lurd_with_redo(),
            position: game.moves() as usize,
            by_solver: game.solver_steps(),
        },
        saved_at: now_unix(),
    }
}

/// The game a snapshot stands for, on `level` (undo and redo work).
pub fn restore_snapshot(level: &Level, snapshot: &Snapshot) -> Result<Game, ReplayError> {
    Game::restore_marked(
        level.clone(),
        &snapshot.history.lurd,
        snapshot.history.position,
        &snapshot.history.by_solver,
    )
}

/// How long each earlier position may be solved while looking for the last
/// solvable one.
pub const REWIND_LIMIT: std::time::Duration = std::time::Duration::from_secs(3);

/// The position just before the latest push at least `undos` steps back from
/// `game`, and how many steps back it is: the next candidate when looking for
/// the last position that can still be solved. `None` at the start.
pub fn before_last_push(game: &Game, undos: usize) -> Option<(Game, usize)> {
    let mut earlier = game.clone();
    for _ in 0..undos {
        earlier.undo();
    }
    let mut count = undos;
    loop {
        let was_push = earlier.steps().last().map(|s| s.push);
        if !earlier.undo() {
            return None;
        }
        count += 1;
        if was_push == Some(true) {
            return Some((earlier, count));
        }
    }
}

/// What a hint says, with the pushes of the solution it came from (the
/// hint's own push included): the count is of the pushes left after it, the
/// ones the player still has to find once the hint is played.
pub fn hint_text(solution_pushes: u32) -> String {
    match solution_pushes.saturating_sub(1) {
        0 => "Hint: the last push.".to_string(),
        left => format!(
            "Hint: the next push; {} more {} after it.",
            left,
            crate::words::plural(left as usize, "push")
        ),
    }
}

/// What "solve and show" says of the solution it plays.
pub fn solution_text(moves: u32, pushes: u32) -> String {
    format!(
        "The solver's solution: {}, {}.",
        crate::words::counted(moves as usize, "move"),
        crate::words::counted(pushes as usize, "push")
    )
}

/// A reason ("no earlier position to go back to") as a line on the screen:
/// a capital letter and a full stop.
pub fn as_sentence(why: &str) -> String {
    let mut chars = why.chars();
    match chars.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
        None => String::new(),
    }
}

/// One line telling the player what kind of deadlock was found.
pub fn deadlock_text(kind: &DeadlockKind) -> &'static str {
    match kind {
        DeadlockKind::DeadSquare => "Deadlock: that box can never reach a goal from there.",
        DeadlockKind::Frozen => "Deadlock: boxes are frozen off their goals.",
        DeadlockKind::Bipartite => "Deadlock: the boxes can no longer all reach different goals.",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in set, its first level and that level's stored solution.
    fn first_level() -> (LevelSet, Level, String) {
        let set = LevelSet::builtin();
        let level = set.collection.levels[0]
            .clone()
            .unwrap_or_else(|e| panic!("{e}"));
        let lurd = level.meta.solutions.first().cloned().unwrap_or_default();
        (set, level, lurd)
    }

    #[test]
    fn records_and_moves_on() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let data = DataDir::at(dir.path());
        let (set, level, lurd) = first_level();
        let mut game = Game::new(level);
        game.play_lurd(&lurd).unwrap_or_else(|e| panic!("{e}"));
        assert!(game.is_solved());
        let solved = record_solve(&data, &set, 0, &game);
        assert!(solved.new_best.first_solve);
        assert!(solved.problems.is_empty());
        assert!(!solved.all_solved);
        assert_eq!(next_unsolved(&set, 0, &solved.progress), Some(1));
        let again = record_solve(&data, &set, 0, &game);
        assert!(!again.new_best.any());
        let level = game.level();
        let (shown, label) = replay_solution(&again.progress, level, false).unwrap_or_default();
        assert_eq!(
            (shown.as_str(), label),
            (game.lurd().as_str(), "your best by moves")
        );
    }

    #[test]
    fn the_solved_dialog_compares_with_the_par() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let data = DataDir::at(dir.path());
        let (set, mut level, lurd) = first_level();
        let mut game = Game::new(level.clone());
        game.play_lurd(&lurd).unwrap_or_else(|e| panic!("{e}"));
        let pushes = game.pushes();
        level.meta.par = Some(sokoban::rating::Par {
            pushes: pushes - 1,
            proven: false,
        });
        let mut game = Game::new(level);
        game.play_lurd(&lurd).unwrap_or_else(|e| panic!("{e}"));
        let solved = record_solve(&data, &set, 0, &game);
        assert_eq!(
            solved.against_par.as_deref(),
            Some(format!("best known {} pushes, you {pushes}", pushes - 1).as_str())
        );
    }

    #[test]
    fn a_solve_the_solver_made_is_not_recorded() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let data = DataDir::at(dir.path());
        let (set, level, lurd) = first_level();
        let steps = sokoban::lurd::parse(&lurd).unwrap_or_else(|e| panic!("{e}"));
        let mut game = Game::new(level);
        let (own, shown) = steps.split_at(steps.len() / 2);
        for &(dir, _) in own {
            game.step(dir).unwrap_or_else(|e| panic!("{e}"));
        }
        for &(dir, _) in shown {
            game.step_by_solver(dir).unwrap_or_else(|e| panic!("{e}"));
        }
        assert!(game.is_solved());
        let solved = record_solve(&data, &set, 0, &game);
        assert!(solved.assisted);
        assert!(!solved.new_best.any());
        assert!(!solved.progress.is_solved(&game.level().key()));
        // Nor is the level's stored solution shown in its place.
        assert!(!game.level().meta.solutions.is_empty());
        assert_eq!(replay_solution(&solved.progress, game.level(), false), None);
    }

    #[test]
    fn a_hint_counts_the_pushes_left_after_it() {
        assert_eq!(hint_text(4), "Hint: the next push; 3 more pushes after it.");
        assert_eq!(hint_text(2), "Hint: the next push; 1 more push after it.");
        assert_eq!(hint_text(1), "Hint: the last push.");
    }

    #[test]
    fn a_lone_untitled_level_takes_its_sets_name() {
        let level = Level::from_xsb("#####\n#@$.#\n#####").unwrap_or_else(|e| panic!("{e}"));
        let set = LevelSet::single("My level", level.clone());
        assert_eq!(level_title(&set, 0, &level), "My level");
    }

    #[test]
    fn lists_name_a_level_by_its_title_or_its_size() {
        let mut level =
            Level::from_xsb("######\n#@$ .#\n# $ .#\n######").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(list_name(&level), "6x4, 2 boxes");
        level.meta.title = Some(String::from("Two Lanes"));
        assert_eq!(list_name(&level), "Two Lanes");
        assert_eq!(size_text(&level), "6x4, 2 boxes");
    }

    #[test]
    fn a_play_test_is_not_recorded() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let data = DataDir::at(dir.path());
        let (_, level, lurd) = first_level();
        let set = LevelSet::single("Play-test", level.clone());
        let mut game = Game::new(level);
        game.play_lurd(&lurd).unwrap_or_else(|e| panic!("{e}"));
        let solved = record_solve(&data, &set, 0, &game);
        assert!(solved.play_test && !solved.all_solved && !solved.new_best.any());
        assert!(!solved.progress.is_solved(&game.level().key()));
    }

    #[test]
    fn snapshots_keep_the_solver_moves() {
        let level = Level::from_xsb("#######\n#@ $ .#\n#######").unwrap_or_else(|e| panic!("{e}"));
        let mut game = Game::new(level.clone());
        game.step(sokoban::Direction::Right)
            .unwrap_or_else(|e| panic!("{e}"));
        game.step_by_solver(sokoban::Direction::Right)
            .unwrap_or_else(|e| panic!("{e}"));
        let back = restore_snapshot(&level, &snapshot_of(&game)).unwrap_or_else(|e| panic!("{e}"));
        assert!(back.is_assisted());
        assert_eq!(back.solver_steps(), vec![1]);
    }

    #[test]
    fn snapshots_round_trip() {
        let level = Level::from_xsb("#######\n#@ $ .#\n#######").unwrap_or_else(|e| panic!("{e}"));
        let mut game = Game::new(level.clone());
        game.play_lurd("rR").unwrap_or_else(|e| panic!("{e}"));
        game.undo();
        let back = restore_snapshot(&level, &snapshot_of(&game)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((back.moves(), back.lurd_with_redo()), (1, "rR".to_string()));
    }
}
