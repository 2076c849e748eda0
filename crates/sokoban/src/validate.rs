//! Static checks of a parsed level: the player's region must be closed by
//! walls and hold every goal and every box that still has to move; plus
//! warnings for floor nobody can reach and for levels that start solved.

use std::fmt;

use crate::level::Level;
use crate::map::Cell;
use crate::region::flood;

/// One finding, with the cell it is about (if any).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub problem: Problem,
    pub cell: Option<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Error: the player can walk off the map (a gap in the walls).
    OpenRegion,
    /// Error: a box that is not on a goal lies where the player can never go.
    BoxOutsideRegion,
    /// Error: an empty goal lies where the player can never go.
    GoalOutsideRegion,
    /// Warning: floor that nothing can ever reach.
    UnreachableFloor,
    /// Warning: every box is already on a goal.
    StartsSolved,
}

impl Problem {
    pub fn is_error(self) -> bool {
        !matches!(self, Problem::UnreachableFloor | Problem::StartsSolved)
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Problem::OpenRegion => "the player's region is not closed by walls",
            Problem::BoxOutsideRegion => "a box lies outside the player's region",
            Problem::GoalOutsideRegion => "a goal lies outside the player's region",
            Problem::UnreachableFloor => "some floor can never be reached",
            Problem::StartsSolved => "the level starts solved",
        })
    }
}

/// The findings of [`validate`]: errors make a level unplayable, warnings don't.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub findings: Vec<Finding>,
}

impl Report {
    pub fn errors(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.problem.is_error())
    }

    pub fn warnings(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| !f.problem.is_error())
    }

    pub fn is_ok(&self) -> bool {
        self.errors().next().is_none()
    }
}

/// Checks a level. The region is the player's flood fill ignoring boxes.
///
/// ```
/// let open = sokoban::Level::from_xsb("#####\n#@$. \n#####")?;
/// assert!(!sokoban::validate(&open).is_ok());
/// # Ok::<(), sokoban::ParseError>(())
/// ```
pub fn validate(level: &Level) -> Report {
    let map = level.map();
    let mut findings = Vec::new();
    let region = flood(map, level.player(), |c| map.cell(c) != Cell::Wall);
    let on_edge = |c: usize| {
        let (x, y) = map.position(c);
        x == 0 || y == 0 || x + 1 == map.width() || y + 1 == map.height()
    };
    if let Some(leak) =
        (0..map.len()).find(|&c| region[c] && (map.cell(c) == Cell::Outside || on_edge(c)))
    {
        findings.push(Finding {
            problem: Problem::OpenRegion,
            cell: Some(leak),
        });
    }
    for &b in level.boxes() {
        if !region[b] && !map.is_goal(b) {
            findings.push(Finding {
                problem: Problem::BoxOutsideRegion,
                cell: Some(b),
            });
        }
    }
    for goal in map.goals() {
        if !region[goal] && level.boxes().binary_search(&goal).is_err() {
            findings.push(Finding {
                problem: Problem::GoalOutsideRegion,
                cell: Some(goal),
            });
        }
    }
    let pocket = (0..map.len()).find(|&c| {
        map.cell(c) == Cell::Floor && !region[c] && level.boxes().binary_search(&c).is_err()
    });
    if let Some(cell) = pocket {
        findings.push(Finding {
            problem: Problem::UnreachableFloor,
            cell: Some(cell),
        });
    }
    if level.is_solved_at_start() {
        findings.push(Finding {
            problem: Problem::StartsSolved,
            cell: None,
        });
    }
    Report { findings }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(xsb: &str) -> Vec<Problem> {
        validate(&Level::from_xsb(xsb).unwrap())
            .findings
            .iter()
            .map(|f| f.problem)
            .collect()
    }

    #[test]
    fn closed_level_is_ok() {
        assert_eq!(problems("#####\n#@$.#\n#####"), []);
    }

    #[test]
    fn gaps_in_the_wall() {
        assert_eq!(problems("#####\n#@$. \n#####"), [Problem::OpenRegion]);
        assert_eq!(problems("## ##\n#@$.#\n#####"), [Problem::OpenRegion]);
    }

    #[test]
    fn boxes_and_goals_outside() {
        assert_eq!(
            problems("#########\n#@$.#$ .#\n#########"),
            [
                Problem::BoxOutsideRegion,
                Problem::GoalOutsideRegion,
                Problem::UnreachableFloor
            ]
        );
        // A box on a goal outside the region is decoration.
        assert_eq!(problems("#######\n#@$.#*#\n#######"), []);
    }

    #[test]
    fn warnings() {
        assert_eq!(
            problems("#######\n#@$.# #\n#######"),
            [Problem::UnreachableFloor]
        );
        assert_eq!(problems("####\n#@*#\n####"), [Problem::StartsSolved]);
    }
}
