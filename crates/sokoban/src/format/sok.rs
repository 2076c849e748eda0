//! Collection files holding many levels (`.sok`, `.xsb`, `.txt`): boards
//! separated by titles (`; 12`, `Title:`), `Author:`/`Collection:` notes,
//! free comment lines before or after each board, and `Solution` lines.

use super::split_lines;
use super::xsb::{MAX_BOARD_TEXT, is_board_line, parse_board};
use crate::error::{ParseError, ParseErrorKind};
use crate::level::{Level, Metadata};

/// A parsed collection: its header notes and its levels in file order.
/// A level that failed to parse keeps its place as an error, so one bad
/// level does not hide the others.
#[derive(Clone, Debug, Default)]
pub struct Collection {
    pub title: Option<String>,
    pub author: Option<String>,
    /// Header comment lines that belong to no level.
    pub notes: Vec<String>,
    pub levels: Vec<Result<Level, ParseError>>,
    /// What the file says that does not add up but spoils no level, such as
    /// a JSON library whose `total_levels` disagrees with its list.
    pub warnings: Vec<String>,
}

impl Collection {
    /// The levels that parsed, with their 0-based positions in the file.
    pub fn valid_levels(&self) -> impl Iterator<Item = (usize, &Level)> {
        self.levels
            .iter()
            .enumerate()
            .filter_map(|(i, l)| l.as_ref().ok().map(|l| (i, l)))
    }
}

/// Most board text (characters, after run-length expansion) one collection
/// may hold in all: 256 boards of the largest size. The boards after it are
/// not read, each refused with [`ParseErrorKind::CollectionTooLarge`], so a
/// small file of run-length boards cannot take minutes or gigabytes.
pub const MAX_COLLECTION_TEXT: usize = 256 * MAX_BOARD_TEXT;

/// One line of text between boards, classified.
enum Note<'a> {
    Blank,
    /// `Key: value` (keys we know or any short word key).
    Field(String, &'a str),
    /// A free comment (leading `;` removed).
    Free(&'a str),
}

fn classify(line: &str) -> Note<'_> {
    let text = line.trim();
    if text.is_empty() || is_separator(text) {
        return Note::Blank;
    }
    let stripped = text.trim_start_matches(';').trim();
    if let Some((key, value)) = stripped.split_once(':') {
        let key = key.trim();
        let is_key = !key.is_empty()
            && key.len() <= 40
            && key
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '(' | ')' | ','));
        if is_key {
            return Note::Field(key.to_ascii_lowercase(), value.trim());
        }
    }
    if stripped.is_empty() {
        Note::Blank
    } else {
        Note::Free(stripped)
    }
}

/// A line of dashes only (`---`), which some files put between levels: it
/// ends a board and names nothing.
fn is_separator(text: &str) -> bool {
    text.len() >= 3 && text.chars().all(|c| c == '-')
}

/// A gap: the lines between two boards (or before the first / after the last).
struct Gap<'a> {
    lines: Vec<(usize, &'a str)>,
}

/// Parses every level in a collection file.
///
/// ```
/// let text = "; My set\n\n; 1\n#####\n#@$.#\n#####\nTitle: First\n\n; 2\n######\n#@$ .#\n######\n";
/// let collection = sokoban::parse_collection(text);
/// assert_eq!(collection.levels.len(), 2);
/// let first = collection.levels[0].as_ref().unwrap();
/// assert_eq!(first.meta.title.as_deref(), Some("First"));
/// ```
pub fn parse_collection(text: &str) -> Collection {
    parse_collection_within(text, &mut 0)
}

/// [`parse_collection`], adding the board text it expands to `spent` and
/// refusing the boards met once `spent` passes [`MAX_COLLECTION_TEXT`].
pub(crate) fn parse_collection_within(text: &str, spent: &mut usize) -> Collection {
    let lines = split_lines(text);
    // Split into alternating gaps and boards.
    let mut gaps: Vec<Gap> = vec![Gap { lines: Vec::new() }];
    let mut boards: Vec<Vec<(usize, &str)>> = Vec::new();
    let mut in_board = false;
    for (i, line) in lines.iter().enumerate() {
        let numbered = (i + 1, *line);
        if is_board_line(line) {
            if !in_board {
                boards.push(Vec::new());
                in_board = true;
            }
            if let Some(b) = boards.last_mut() {
                b.push(numbered);
            }
        } else {
            if in_board {
                gaps.push(Gap { lines: Vec::new() });
                in_board = false;
            }
            if let Some(g) = gaps.last_mut() {
                g.lines.push(numbered);
            }
        }
    }
    if gaps.len() == boards.len() {
        gaps.push(Gap { lines: Vec::new() });
    }

    // Free comments name the board after them, unless the file puts them
    // after each board: we know that by the last board having some.
    let titles_after = gaps.last().is_some_and(|g| {
        g.lines
            .iter()
            .any(|(_, l)| matches!(classify(l), Note::Free(_)))
    });

    let mut collection = Collection::default();
    let mut metas: Vec<Metadata> = vec![Metadata::default(); boards.len()];
    let mut named = vec![false; boards.len()];
    for (gap_index, gap) in gaps.iter().enumerate() {
        let before = gap_index.checked_sub(1); // the board this gap follows
        let after = (gap_index < boards.len()).then_some(gap_index); // the board it precedes
        // In the header, only the last paragraph of free lines names the first board.
        let last_paragraph_start = gap
            .lines
            .iter()
            .rposition(|(_, l)| matches!(classify(l), Note::Blank))
            .map_or(0, |p| p + 1);
        let mut in_comment_block = false;
        let mut solution_target: Option<usize> = None;
        for (pos, &(_, line)) in gap.lines.iter().enumerate() {
            let note = classify(line);
            if in_comment_block {
                if matches!(&note, Note::Field(k, _) if k == "comment-end") {
                    in_comment_block = false;
                } else if let Some(b) = before {
                    metas[b].comments.push(line.trim().to_string());
                }
                continue;
            }
            if let Some(b) = solution_target {
                let t = line.trim();
                if !t.is_empty()
                    && t.chars()
                        .all(|c| c.is_ascii_alphanumeric() || "()".contains(c))
                {
                    if let Some(s) = metas[b].solutions.last_mut() {
                        s.push_str(t);
                    }
                    continue;
                }
                solution_target = None;
            }
            match note {
                Note::Blank => {}
                Note::Field(key, value) => {
                    // Fields follow their board; before the first board they describe the collection.
                    let Some(b) = before else {
                        match key.as_str() {
                            "title" | "collection" | "set" => {
                                collection.title.get_or_insert_with(|| value.to_string());
                            }
                            "author" => {
                                collection.author.get_or_insert_with(|| value.to_string());
                            }
                            _ => collection.notes.push(format!("{key}: {value}")),
                        }
                        continue;
                    };
                    let meta = &mut metas[b];
                    match key.as_str() {
                        "title" => meta.title = Some(value.to_string()),
                        "author" => meta.author = Some(value.to_string()),
                        "comment" if value.is_empty() => in_comment_block = true,
                        "comment" => meta.comments.push(value.to_string()),
                        k if k.starts_with("solution") => {
                            meta.solutions.push(value.to_string());
                            solution_target = Some(b);
                        }
                        _ => meta
                            .comments
                            .push(line.trim().trim_start_matches(';').trim().to_string()),
                    }
                }
                Note::Free(text) => {
                    let owner = if titles_after {
                        before
                    } else if gap_index == 0 {
                        (pos >= last_paragraph_start).then_some(after).flatten()
                    } else {
                        after
                    };
                    match owner {
                        Some(b) => {
                            // The first free line given to a level names it.
                            if named[b] {
                                metas[b].comments.push(text.to_string());
                            } else {
                                named[b] = true;
                                if metas[b].title.is_none() {
                                    metas[b].title = title_from_comment(text);
                                }
                            }
                        }
                        None => {
                            if collection.title.is_none() && collection.notes.is_empty() {
                                collection.title = Some(text.to_string());
                            } else {
                                collection.notes.push(text.to_string());
                            }
                        }
                    }
                }
            }
        }
    }
    collection.levels = boards
        .iter()
        .zip(metas)
        .map(|(rows, meta)| {
            if *spent > MAX_COLLECTION_TEXT {
                let line = rows.first().map_or(1, |r| r.0);
                return Err(ParseError::new(
                    line,
                    1,
                    ParseErrorKind::CollectionTooLarge {
                        limit: MAX_COLLECTION_TEXT,
                    },
                ));
            }
            parse_board(rows, meta, spent)
        })
        .collect();
    collection
}

/// A level name from a comment such as `; 155 'The Dungeon'`: a bare number
/// is no name (the position says it), a leading number is dropped.
fn title_from_comment(text: &str) -> Option<String> {
    let text = text.trim();
    let is_number = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    let rest = match text.split_once(char::is_whitespace) {
        Some((number, rest)) if is_number(number) => rest,
        _ if is_number(text) => "",
        _ => text,
    };
    let rest = rest.trim().trim_matches(|c| c == '\'' || c == '"').trim();
    (!rest.is_empty()).then(|| rest.to_string())
}

/// Writes levels as a `.sok` collection with titles, authors, comments and
/// stored solutions, readable by [`parse_collection`].
pub fn write_sok(title: Option<&str>, levels: &[Level]) -> String {
    let mut out = String::new();
    if let Some(t) = title {
        out.push_str(&format!("Title: {t}\n\n"));
    }
    for (i, level) in levels.iter().enumerate() {
        out.push_str(&format!("; {}\n", i + 1));
        out.push_str(&level.to_xsb());
        let meta = &level.meta;
        if let Some(t) = &meta.title {
            out.push_str(&format!("Title: {t}\n"));
        }
        if let Some(a) = &meta.author {
            out.push_str(&format!("Author: {a}\n"));
        }
        for c in &meta.comments {
            out.push_str(&format!("Comment: {c}\n"));
        }
        for s in &meta.solutions {
            out.push_str(&format!("Solution: {s}\n"));
        }
        out.push('\n');
    }
    out
}

/// Writes levels as plain XSB boards, each preceded by a `; N title` line
/// and followed by its `Author:` and `Comment:` lines, if any.
pub fn write_xsb(levels: &[Level]) -> String {
    let mut out = String::new();
    for (i, level) in levels.iter().enumerate() {
        match &level.meta.title {
            Some(t) => out.push_str(&format!("; {} {t}\n", i + 1)),
            None => out.push_str(&format!("; {}\n", i + 1)),
        }
        out.push_str(&level.to_xsb());
        push_notes(&mut out, level);
        out.push('\n');
    }
    out
}

/// A level's author and comments as `Key: value` lines after its board.
fn push_notes(out: &mut String, level: &Level) {
    if let Some(a) = &level.meta.author {
        out.push_str(&format!("Author: {a}\n"));
    }
    // An empty `Comment:` would open a comment block.
    for c in level.meta.comments.iter().filter(|c| !c.trim().is_empty()) {
        out.push_str(&format!("Comment: {c}\n"));
    }
}

/// Writes levels one per line in run-length form, each preceded by `; N`.
pub fn write_rle(levels: &[Level]) -> String {
    let mut out = String::new();
    for (i, level) in levels.iter().enumerate() {
        match &level.meta.title {
            Some(t) => out.push_str(&format!("; {} {t}\n", i + 1)),
            None => out.push_str(&format!("; {}\n", i + 1)),
        }
        out.push_str(&super::xsb::to_rle(level));
        out.push('\n');
        push_notes(&mut out, level);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_collection_stops_reading_boards_past_its_budget() {
        // 30 bytes a board, 65 K characters each once expanded.
        let text = "; x\n256#|#@$.252#|253(256#|)256#\n".repeat(300);
        let c = parse_collection(&text);
        assert_eq!(c.levels.len(), 300);
        let read = c.levels.iter().filter(|l| l.is_ok()).count();
        assert!((250..=257).contains(&read), "{read}");
        let last = c.levels.last().and_then(|l| l.as_ref().err());
        assert_eq!(
            last.map(|e| &e.kind),
            Some(&ParseErrorKind::CollectionTooLarge {
                limit: MAX_COLLECTION_TEXT
            })
        );
    }

    fn titles(c: &Collection) -> Vec<Option<String>> {
        c.levels
            .iter()
            .map(|l| l.as_ref().unwrap().meta.title.clone())
            .collect()
    }

    const A: &str = "#####\n#@$.#\n#####\n";
    const B: &str = "######\n#@$ .#\n######\n";

    #[test]
    fn titles_before_boards() {
        let text = format!("; Collection X\n; by me\n\n; 1 'Alpha'\n{A}\n; 2\n{B}");
        let c = parse_collection(&text);
        assert_eq!(c.title.as_deref(), Some("Collection X"));
        assert_eq!(titles(&c), [Some("Alpha".to_string()), None]);
    }

    #[test]
    fn titles_after_boards() {
        let text = format!("; Set\n\n{A}; 1 First\n; Copyright: x\n\n{B}; 2 Second\n");
        let c = parse_collection(&text);
        assert_eq!(titles(&c), [Some("First".into()), Some("Second".into())]);
        let first = c.levels[0].as_ref().unwrap();
        assert_eq!(first.meta.comments, ["Copyright: x"]);
    }

    #[test]
    fn fields_follow_their_board() {
        let text = format!(
            "Title: The Set\nAuthor: Someone\n\n;1\n{A}Title: small\nAuthor: D\nComment:\ncolor blue\nComment-End:\nSolution (moves 1, pushes 1):\nR\n\n;2\n{B}Title: two\n"
        );
        let c = parse_collection(&text);
        assert_eq!(c.title.as_deref(), Some("The Set"));
        assert_eq!(c.author.as_deref(), Some("Someone"));
        let first = c.levels[0].as_ref().unwrap();
        assert_eq!(first.meta.title.as_deref(), Some("small"));
        assert_eq!(first.meta.author.as_deref(), Some("D"));
        assert_eq!(first.meta.comments, ["color blue"]);
        assert_eq!(first.meta.solutions, ["R"]);
        assert_eq!(titles(&c)[1].as_deref(), Some("two"));
    }

    #[test]
    fn line_endings_and_lines_numbers() {
        let text = "; 1\r\r#####\r#@$x#\r#####\r";
        let c = parse_collection(text);
        let e = c.levels[0].as_ref().unwrap_err();
        assert_eq!((e.line, e.column), (4, 4));
    }

    #[test]
    fn one_bad_level_keeps_the_others() {
        let text = format!("{A}\n#####\n#@ .#\n#####\n\n{B}");
        let c = parse_collection(&text);
        assert_eq!(c.levels.len(), 3);
        assert!(c.levels[0].is_ok() && c.levels[1].is_err() && c.levels[2].is_ok());
        assert_eq!(c.levels[1].as_ref().unwrap_err().line, 5);
    }

    #[test]
    fn writers_round_trip() {
        let mut level = Level::from_xsb(A).unwrap();
        level.meta.title = Some("One".into());
        level.meta.solutions.push("R".into());
        let other = Level::from_xsb(B).unwrap();
        let levels = vec![level, other];
        for text in [
            write_sok(Some("S"), &levels),
            write_xsb(&levels),
            write_rle(&levels),
        ] {
            let back = parse_collection(&text);
            let back: Vec<Level> = back.levels.into_iter().map(|l| l.unwrap()).collect();
            assert_eq!(back.len(), 2);
            assert_eq!(back[0].to_xsb(), levels[0].to_xsb());
            assert_eq!(back[1].to_xsb(), levels[1].to_xsb());
            assert_eq!(back[0].meta.title.as_deref(), Some("One"), "{text}");
        }
        let sok = parse_collection(&write_sok(Some("S"), &levels));
        assert_eq!(sok.title.as_deref(), Some("S"));
        assert_eq!(sok.levels[0].as_ref().unwrap().meta.solutions, ["R"]);
    }

    #[test]
    fn a_dash_line_separates_levels_and_names_none() {
        let text = "Title: One\n#####\n#@$.#\n#####\n---\n######\n#@$ .#\n######\nTitle: Two\n";
        let c = parse_collection(text);
        assert_eq!(c.levels.len(), 2);
        let titles: Vec<Option<String>> = c
            .levels
            .iter()
            .map(|l| l.as_ref().unwrap().meta.title.clone())
            .collect();
        assert_eq!(titles, [None, Some("Two".to_string())]);
        // Free titles before each board: the dashes are not the second's title.
        let text = "; First\n#####\n#@$.#\n#####\n---\n; Second\n######\n#@$ .#\n######\n";
        let c = parse_collection(text);
        let second = c.levels[1].as_ref().unwrap();
        assert_eq!(second.meta.title.as_deref(), Some("Second"));
        let text = "#####\n#@$.#\n#####\n---\n######\n#@$ .#\n######\n";
        let c = parse_collection(text);
        assert_eq!(c.levels.len(), 2);
        assert!(
            c.levels
                .iter()
                .all(|l| l.as_ref().unwrap().meta.title.is_none())
        );
    }
}
