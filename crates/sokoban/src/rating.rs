//! A level's par (the fewest pushes known) and its difficulty: what the
//! level browser and the solved dialog show, and what the built-in
//! collections store beside their levels (see [`crate::levels`]).
//!
//! The difficulty formula, used for the Ludus Original library and every
//! built-in collection alike, rates the push-optimal solver's run on the
//! level: its optimal pushes, its effort (nodes expanded) and the boxes.
//!
//! | band     | pushes | nodes     | boxes |
//! |----------|--------|-----------|-------|
//! | Tutorial | ≤ 8    | ≤ 2,000   | ≤ 3   |
//! | Easy     | ≤ 20   | ≤ 20,000  | ≤ 7   |
//! | Medium   | ≤ 40   | ≤ 200,000 | ≤ 10  |
//! | Hard     | proven beyond Medium           |
//! | Expert   | not proven within the rating run's budget |
//!
//! A level takes the first band all three of its figures fit. The nodes
//! are those of the proof alone (`solver::Options::fewest_moves` off), one
//! thread; the budget of a collection's run is in its rating file
//! ([`Ratings::node_limit`]), so "Expert" means "not proven within that".

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{ParseError, ParseErrorKind};
use crate::format::sok::Collection;
#[cfg(doc)]
use crate::level::Level;

/// The fewest pushes known for a level: proven optimal by the solver, or
/// the best a solver found when the proof did not finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Par {
    pub pushes: u32,
    pub proven: bool,
}

impl fmt::Display for Par {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pushes = counted_pushes(self.pushes);
        if self.proven {
            write!(f, "{pushes}")
        } else {
            write!(f, "{pushes} (best found)")
        }
    }
}

/// The difficulty bands, easiest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Difficulty {
    Tutorial,
    Easy,
    Medium,
    Hard,
    Expert,
}

/// What the rating run found out about a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    /// The optimal pushes, when the push-optimal solver proved them.
    pub proven_pushes: Option<u32>,
    /// Nodes the push-optimal solver expanded.
    pub nodes: u64,
    pub boxes: usize,
}

/// A band's upper limits.
struct Limits {
    band: Difficulty,
    pushes: u32,
    nodes: u64,
    boxes: usize,
}

const BANDS: [Limits; 3] = [
    Limits {
        band: Difficulty::Tutorial,
        pushes: 8,
        nodes: 2_000,
        boxes: 3,
    },
    Limits {
        band: Difficulty::Easy,
        pushes: 20,
        nodes: 20_000,
        boxes: 7,
    },
    Limits {
        band: Difficulty::Medium,
        pushes: 40,
        nodes: 200_000,
        boxes: 10,
    },
];

impl Difficulty {
    /// Every band, easiest first.
    pub const ALL: [Difficulty; 5] = [
        Difficulty::Tutorial,
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Expert,
    ];

    /// The band of a rating run (the table in the module's docs).
    pub fn rate(effort: &Effort) -> Difficulty {
        let Some(pushes) = effort.proven_pushes else {
            return Difficulty::Expert;
        };
        BANDS
            .iter()
            .find(|l| pushes <= l.pushes && effort.nodes <= l.nodes && effort.boxes <= l.boxes)
            .map_or(Difficulty::Hard, |l| l.band)
    }

    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Tutorial => "Tutorial",
            Difficulty::Easy => "Easy",
            Difficulty::Medium => "Medium",
            Difficulty::Hard => "Hard",
            Difficulty::Expert => "Expert",
        }
    }

    /// The band named `name` (any case).
    pub fn from_name(name: &str) -> Option<Difficulty> {
        Difficulty::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(name.trim()))
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a player's solve compares with the par, for the solved dialog:
/// "par 32 pushes, you 35".
pub fn against_par(par: &Par, pushes: u32) -> String {
    let best = if par.proven { "par" } else { "best known" };
    let verdict = match pushes.cmp(&par.pushes) {
        std::cmp::Ordering::Less if par.proven => " (below a proven par? check the level)",
        std::cmp::Ordering::Less => ", a new best!",
        std::cmp::Ordering::Equal => ", par!",
        std::cmp::Ordering::Greater => "",
    };
    format!(
        "{best} {}, you {pushes}{verdict}",
        counted_pushes(par.pushes)
    )
}

/// "1 push", "32 pushes".
fn counted_pushes(pushes: u32) -> String {
    let unit = if pushes == 1 { "push" } else { "pushes" };
    format!("{pushes} {unit}")
}

/// The rating file kept beside a collection (`<file>.par.json`): what the
/// rating run (`ludus sokoban rate`) found for each level, keyed by the
/// level's number and its key so a changed level is not given an old par.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ratings {
    pub version: u32,
    /// How the figures were made: the solver, its mode and budget.
    pub rated_by: String,
    /// The node limit of the push-optimal proofs: a proven par is proven
    /// again within it (the release checks do, with no more).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_limit: Option<u64>,
    /// The solver's memory for each proof, in MB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_mb: Option<usize>,
    pub levels: Vec<LevelRating>,
}

/// One level's entry in [`Ratings`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelRating {
    /// 1-based position in the collection.
    pub level: usize,
    /// The level's key ([`Level::key`]) when it was rated.
    pub key: String,
    /// The par: proven optimal, or the fewest a fast solve found; none when
    /// no solver run solved the level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pushes: Option<u32>,
    pub proven: bool,
    /// Nodes the push-optimal solver expanded (its effort).
    pub nodes: u64,
    pub difficulty: Difficulty,
}

/// The version of [`Ratings`] files this crate reads and writes.
pub const RATINGS_VERSION: u32 = 1;

impl Ratings {
    /// Reads a rating file.
    ///
    /// # Errors
    /// Malformed JSON, a missing field, or another version.
    pub fn parse(text: &str) -> Result<Ratings, ParseError> {
        let ratings: Ratings = serde_json::from_str(text).map_err(|e| {
            ParseError::new(e.line(), e.column(), ParseErrorKind::Json(e.to_string()))
        })?;
        if ratings.version != RATINGS_VERSION {
            return Err(ParseError::new(
                1,
                1,
                ParseErrorKind::Json(format!(
                    "ratings version {} is not {RATINGS_VERSION}",
                    ratings.version
                )),
            ));
        }
        Ok(ratings)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// Gives each level of `collection` its par and difficulty. Returns the
    /// levels whose entry no longer fits (another key, or no such level),
    /// which keep none.
    pub fn apply(&self, collection: &mut Collection) -> Vec<usize> {
        let mut stale = Vec::new();
        for rating in &self.levels {
            let level = rating
                .level
                .checked_sub(1)
                .and_then(|i| collection.levels.get_mut(i))
                .and_then(|l| l.as_mut().ok());
            match level {
                Some(level) if level.key() == rating.key => {
                    level.meta.par = rating.pushes.map(|pushes| Par {
                        pushes,
                        proven: rating.proven,
                    });
                    level.meta.difficulty = Some(rating.difficulty.name().to_string());
                }
                _ => stale.push(rating.level),
            }
        }
        stale
    }
}

impl Serialize for Difficulty {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Difficulty {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Difficulty::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown difficulty {name:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn effort(pushes: Option<u32>, nodes: u64, boxes: usize) -> Effort {
        Effort {
            proven_pushes: pushes,
            nodes,
            boxes,
        }
    }

    #[test]
    fn bands_take_the_first_that_fits_all_three_figures() {
        assert_eq!(
            Difficulty::rate(&effort(Some(4), 100, 2)),
            Difficulty::Tutorial
        );
        // Few pushes, but four boxes: not a tutorial.
        assert_eq!(Difficulty::rate(&effort(Some(4), 100, 4)), Difficulty::Easy);
        assert_eq!(Difficulty::rate(&effort(Some(9), 100, 2)), Difficulty::Easy);
        assert_eq!(
            Difficulty::rate(&effort(Some(20), 20_001, 2)),
            Difficulty::Medium
        );
        assert_eq!(
            Difficulty::rate(&effort(Some(40), 1_000, 11)),
            Difficulty::Hard
        );
        assert_eq!(
            Difficulty::rate(&effort(Some(41), 1_000, 2)),
            Difficulty::Hard
        );
        assert_eq!(
            Difficulty::rate(&effort(None, 1_000, 2)),
            Difficulty::Expert
        );
    }

    #[test]
    fn names_round_trip() {
        for d in Difficulty::ALL {
            assert_eq!(Difficulty::from_name(&d.name().to_lowercase()), Some(d));
        }
        assert_eq!(Difficulty::from_name("impossible"), None);
    }

    #[test]
    fn par_in_words() {
        let par = Par {
            pushes: 32,
            proven: true,
        };
        assert_eq!(par.to_string(), "32 pushes");
        assert_eq!(against_par(&par, 35), "par 32 pushes, you 35");
        assert_eq!(against_par(&par, 32), "par 32 pushes, you 32, par!");
        let found = Par {
            pushes: 40,
            proven: false,
        };
        assert_eq!(found.to_string(), "40 pushes (best found)");
        assert_eq!(
            against_par(&found, 38),
            "best known 40 pushes, you 38, a new best!"
        );
    }

    #[test]
    fn ratings_apply_only_to_the_level_they_were_made_for() {
        let mut collection =
            crate::parse_collection("#####\n#@$.#\n#####\n\n######\n#@$ .#\n######\n");
        let key = |i: usize| collection.levels[i].as_ref().unwrap().key();
        let ratings = Ratings {
            version: RATINGS_VERSION,
            rated_by: "test".into(),
            node_limit: Some(1000),
            memory_mb: None,
            levels: vec![
                LevelRating {
                    level: 1,
                    key: key(0),
                    pushes: Some(1),
                    proven: true,
                    nodes: 3,
                    difficulty: Difficulty::Tutorial,
                },
                LevelRating {
                    level: 2,
                    key: key(0),
                    pushes: Some(2),
                    proven: true,
                    nodes: 3,
                    difficulty: Difficulty::Tutorial,
                },
                LevelRating {
                    level: 9,
                    key: key(0),
                    pushes: None,
                    proven: false,
                    nodes: 3,
                    difficulty: Difficulty::Expert,
                },
            ],
        };
        let text = ratings.to_json();
        let back = Ratings::parse(&text).unwrap();
        assert_eq!(back, ratings);
        assert_eq!(back.apply(&mut collection), [2, 9]);
        let first = collection.levels[0].as_ref().unwrap();
        assert_eq!(first.meta.par.map(|p| p.pushes), Some(1));
        assert_eq!(first.meta.difficulty.as_deref(), Some("Tutorial"));
        assert_eq!(collection.levels[1].as_ref().unwrap().meta.par, None);
        assert!(Ratings::parse("{\"version\": 7, \"rated_by\": \"\", \"levels\": []}").is_err());
    }
}
