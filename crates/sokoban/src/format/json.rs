//! The JSON level-library form:
//! `{ "version", "total_levels", "levels": [ { "id", "name", "width", "height",
//! "data", "min_pushes", "difficulty" } ] }`, where `data` holds the board rows
//! separated by newlines (an array of row strings is accepted too).

use serde::{Deserialize, Serialize};

use super::sok::Collection;
use crate::error::{ParseError, ParseErrorKind};
use crate::level::{Level, Metadata};
use crate::rating::Par;

/// The library format version this crate writes.
pub const LIBRARY_VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
struct Library {
    /// A number: the seed's files write `1.0`, Ludus writes `1`.
    version: serde_json::Number,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    author: Option<String>,
    total_levels: usize,
    levels: Vec<Entry>,
}

#[derive(Debug, Serialize, Deserialize)]
struct Entry {
    id: serde_json::Value,
    #[serde(default)]
    name: Option<String>,
    width: usize,
    height: usize,
    data: Rows,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    min_pushes: Option<u32>,
    /// Whether `min_pushes` is proven optimal; absent means it is (the
    /// field's name says "minimum").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    min_pushes_proven: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    min_moves: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    difficulty: Option<Difficulty>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    author: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    comments: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(untagged)]
enum Rows {
    Text(String),
    List(Vec<String>),
}

/// A difficulty as libraries write it: a band's name or a number.
#[derive(Debug, Serialize, Deserialize)]
#[serde(untagged)]
enum Difficulty {
    Name(String),
    Number(serde_json::Number),
}

impl Difficulty {
    fn into_text(self) -> String {
        match self {
            Difficulty::Name(name) => name,
            Difficulty::Number(n) => n.to_string(),
        }
    }

    fn from_text(text: &str) -> Difficulty {
        match text.parse::<serde_json::Number>() {
            Ok(n) => Difficulty::Number(n),
            Err(_) => Difficulty::Name(text.to_string()),
        }
    }
}

/// Reads a JSON level library, keeping each level's `min_pushes`,
/// `min_moves` and `difficulty` in its [`Metadata`]. Malformed JSON is an
/// error with the line and column serde found; a malformed board inside it
/// becomes that level's error, with the line and column inside its `data`.
/// A `total_levels` that disagrees with the list is a warning of the
/// collection.
///
/// # Errors
/// Malformed JSON, a missing required field, or a `version` this crate does
/// not read (below 1, or 2 and above).
pub fn parse_library(text: &str) -> Result<Collection, ParseError> {
    let library: Library = serde_json::from_str(text)
        .map_err(|e| ParseError::new(e.line(), e.column(), ParseErrorKind::Json(e.to_string())))?;
    let version = library.version.as_f64().unwrap_or(f64::NAN);
    if !(1.0..2.0).contains(&version) {
        return Err(ParseError::new(
            1,
            1,
            ParseErrorKind::Json(format!(
                "library version {} is not one this program reads (1)",
                library.version
            )),
        ));
    }
    let mut warnings = Vec::new();
    if library.total_levels != library.levels.len() {
        warnings.push(format!(
            "total_levels says {} but the library lists {}",
            library.total_levels,
            library.levels.len()
        ));
    }
    let mut spent = 0;
    let levels = library
        .levels
        .into_iter()
        .map(|entry| {
            let rows = match entry.data {
                Rows::Text(t) => t,
                Rows::List(l) => l.join("\n"),
            };
            let mut level = super::xsb::parse_level_within(&rows, &mut spent)?;
            level.meta = Metadata {
                title: entry.name,
                author: entry.author,
                solutions: entry.solution.into_iter().collect(),
                comments: entry.comments,
                par: entry.min_pushes.map(|pushes| Par {
                    pushes,
                    proven: entry.min_pushes_proven.unwrap_or(true),
                }),
                min_moves: entry.min_moves,
                difficulty: entry.difficulty.map(Difficulty::into_text),
                ..level.meta
            };
            Ok(level)
        })
        .collect();
    Ok(Collection {
        title: library.title,
        author: library.author,
        notes: Vec::new(),
        levels,
        warnings,
    })
}

/// Writes levels as a JSON library, each with the `min_pushes`, `min_moves`
/// and `difficulty` its metadata holds.
pub fn write_library(title: Option<&str>, levels: &[Level]) -> String {
    let entries = levels
        .iter()
        .enumerate()
        .map(|(i, level)| {
            let meta = &level.meta;
            Entry {
                id: serde_json::Value::from(i + 1),
                name: meta.title.clone(),
                width: level.width(),
                height: level.height(),
                data: Rows::Text(level.to_xsb().trim_end().to_string()),
                min_pushes: meta.par.map(|p| p.pushes),
                min_pushes_proven: meta.par.and_then(|p| (!p.proven).then_some(false)),
                min_moves: meta.min_moves,
                difficulty: meta.difficulty.as_deref().map(Difficulty::from_text),
                author: meta.author.clone(),
                solution: meta.solutions.first().cloned(),
                comments: meta.comments.clone(),
            }
        })
        .collect();
    let library = Library {
        version: LIBRARY_VERSION.into(),
        title: title.map(str::to_string),
        author: None,
        total_levels: levels.len(),
        levels: entries,
    };
    serde_json::to_string_pretty(&library).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut level = Level::from_xsb("#####\n#@$.#\n#####").unwrap();
        level.meta.title = Some("One".into());
        level.meta.solutions.push("R".into());
        level.meta.par = Some(Par {
            pushes: 1,
            proven: true,
        });
        level.meta.min_moves = Some(1);
        level.meta.difficulty = Some("Tutorial".into());
        let text = write_library(Some("Set"), std::slice::from_ref(&level));
        assert!(text.contains("\"total_levels\": 1"));
        assert!(text.contains("\"min_pushes\": 1"));
        let back = parse_library(&text).unwrap();
        assert_eq!(back.title.as_deref(), Some("Set"));
        let back = back.levels[0].as_ref().unwrap();
        assert_eq!(back.to_xsb(), level.to_xsb());
        assert_eq!(back.meta.title.as_deref(), Some("One"));
        assert_eq!(back.meta.solutions, ["R"]);
        assert_eq!(back.meta.par, level.meta.par);
        assert_eq!(back.meta.min_moves, Some(1));
        assert_eq!(back.meta.difficulty.as_deref(), Some("Tutorial"));
    }

    /// The form exactly as the seed's design writes it: version `1.0`,
    /// `min_pushes` and `difficulty` per level.
    #[test]
    fn the_seeds_form_loads_with_its_ratings() {
        let text = r#######"{
  "version": 1.0,
  "total_levels": 2,
  "levels": [
    { "id": 1, "name": "Start", "width": 5, "height": 3,
      "data": "#####\n#@$.#\n#####", "min_pushes": 1, "difficulty": "easy" },
    { "id": 2, "name": "Next", "width": 6, "height": 3,
      "data": "######\n#@$ .#\n######", "min_pushes": 2, "difficulty": 3 }
  ]
}"#######;
        let c = parse_library(text).unwrap();
        assert!(c.warnings.is_empty(), "{:?}", c.warnings);
        let first = c.levels[0].as_ref().unwrap();
        assert_eq!(
            first.meta.par,
            Some(Par {
                pushes: 1,
                proven: true
            })
        );
        assert_eq!(first.meta.difficulty.as_deref(), Some("easy"));
        let second = c.levels[1].as_ref().unwrap();
        assert_eq!(second.meta.difficulty.as_deref(), Some("3"));
        // Written back, the ratings are still there, the number a number.
        let levels: Vec<Level> = c.valid_levels().map(|(_, l)| l.clone()).collect();
        let out = write_library(None, &levels);
        assert!(out.contains("\"min_pushes\": 2"), "{out}");
        assert!(out.contains("\"difficulty\": 3"), "{out}");
        assert!(out.contains("\"difficulty\": \"easy\""), "{out}");
        let again = parse_library(&out).unwrap();
        assert_eq!(again.levels[1].as_ref().unwrap().meta.par, second.meta.par);
    }

    #[test]
    fn a_wrong_total_is_a_warning_naming_both_numbers() {
        let text = r#######"{"version": 1, "total_levels": 5, "levels": [
            {"id": 1, "width": 5, "height": 3, "data": "#####\n#@$.#\n#####"}]}"#######;
        let c = parse_library(text).unwrap();
        assert_eq!(c.levels.len(), 1);
        assert_eq!(c.warnings, ["total_levels says 5 but the library lists 1"]);
    }

    #[test]
    fn a_future_version_is_refused_by_name() {
        let text = r#######"{"version": 2.0, "total_levels": 0, "levels": []}"#######;
        let e = parse_library(text).unwrap_err();
        assert!(e.to_string().contains("version 2.0"), "{e}");
    }

    #[test]
    fn rows_as_list_and_errors() {
        let text = concat!(
            "{\"version\":1,\"total_levels\":2,\"levels\":[\n",
            "{\"id\":1,\"name\":\"a\",\"width\":5,\"height\":3,\"data\":[\"#####\",\"#@$.#\",\"#####\"]},\n",
            "{\"id\":\"b\",\"width\":5,\"height\":3,\"data\":\"#####\\n#@x.#\\n#####\"}]}"
        );
        let c = parse_library(text).unwrap();
        assert!(c.levels[0].is_ok());
        let e = c.levels[1].as_ref().unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        let e = parse_library("{\"version\": 1,\n \"levels\": [}").unwrap_err();
        assert_eq!(e.line, 2);
    }
}
