//! The JSON level-library form:
//! `{ "version", "total_levels", "levels": [ { "id", "name", "width", "height",
//! "data", "min_pushes", "difficulty" } ] }`, where `data` holds the board rows
//! separated by newlines (an array of row strings is accepted too).

use serde::{Deserialize, Serialize};

use super::sok::Collection;
use crate::error::{ParseError, ParseErrorKind};
use crate::level::{Level, Metadata};

/// The library format version this crate writes.
pub const LIBRARY_VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
struct Library {
    version: u32,
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    min_moves: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    difficulty: Option<String>,
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

/// Extra facts a library entry carries beyond the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rating {
    pub min_pushes: Option<u32>,
    pub min_moves: Option<u32>,
    pub difficulty: Option<String>,
}

/// Reads a JSON level library. Malformed JSON is an error with the line and
/// column serde found; a malformed board inside it becomes that level's error,
/// with the line and column inside its `data`.
pub fn parse_library(text: &str) -> Result<Collection, ParseError> {
    let library: Library = serde_json::from_str(text)
        .map_err(|e| ParseError::new(e.line(), e.column(), ParseErrorKind::Json(e.to_string())))?;
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
    })
}

/// Writes levels as a JSON library; `ratings` (same order, may be shorter)
/// fills in `min_pushes`, `min_moves` and `difficulty`.
pub fn write_library(title: Option<&str>, levels: &[Level], ratings: &[Rating]) -> String {
    let entries = levels
        .iter()
        .enumerate()
        .map(|(i, level)| {
            let rating = ratings.get(i).cloned().unwrap_or_default();
            Entry {
                id: serde_json::Value::from(i + 1),
                name: level.meta.title.clone(),
                width: level.width(),
                height: level.height(),
                data: Rows::Text(level.to_xsb().trim_end().to_string()),
                min_pushes: rating.min_pushes,
                min_moves: rating.min_moves,
                difficulty: rating.difficulty,
                author: level.meta.author.clone(),
                solution: level.meta.solutions.first().cloned(),
                comments: level.meta.comments.clone(),
            }
        })
        .collect();
    let library = Library {
        version: LIBRARY_VERSION,
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
        let rating = Rating {
            min_pushes: Some(1),
            min_moves: Some(1),
            difficulty: Some("Tutorial".into()),
        };
        let text = write_library(Some("Set"), std::slice::from_ref(&level), &[rating]);
        assert!(text.contains("\"total_levels\": 1"));
        assert!(text.contains("\"min_pushes\": 1"));
        let back = parse_library(&text).unwrap();
        assert_eq!(back.title.as_deref(), Some("Set"));
        let back = back.levels[0].as_ref().unwrap();
        assert_eq!(back.to_xsb(), level.to_xsb());
        assert_eq!(back.meta.title.as_deref(), Some("One"));
        assert_eq!(back.meta.solutions, ["R"]);
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
