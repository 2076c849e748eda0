//! XSB boards: `#` wall, ` `/`-`/`_` floor, `.` goal, `$` box, `*` box on goal,
//! `@` player, `+` player on goal; the `.sok` letters `p P b B` for player,
//! player on goal, box and box on goal; rows may be run-length encoded.

use crate::error::{ParseError, ParseErrorKind};
use crate::level::{Level, Metadata};
use crate::map::{Cell, Map};

/// Largest board side we accept.
pub const MAX_SIDE: usize = 256;

/// Most characters the run-length rows of one board may expand to: a full
/// `MAX_SIDE` x `MAX_SIDE` board with its row separators. Checked while
/// expanding, so a few bytes of counts cannot allocate more than this.
pub const MAX_BOARD_TEXT: usize = MAX_SIDE * (MAX_SIDE + 1);

/// Whether `c` may stand in a board row (before run-length decoding).
pub(crate) fn is_board_char(c: char) -> bool {
    matches!(
        c,
        '#' | ' ' | '-' | '_' | '.' | '$' | '*' | '@' | '+' | 'p' | 'P' | 'b' | 'B'
    )
}

fn is_rle_char(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, '|' | '(' | ')')
}

/// Whether a line of a collection file is a board row: its first non-floor
/// character is a wall, or it is a run-length encoded row holding a wall.
pub(crate) fn is_board_line(line: &str) -> bool {
    let trimmed = line.trim_end();
    match trimmed
        .chars()
        .find(|c| !matches!(c, ' ' | '-' | '_' | '\t'))
    {
        Some('#') => true,
        Some(c) if c.is_ascii_digit() || c == '(' => {
            trimmed.contains('#') && trimmed.chars().all(|c| is_board_char(c) || is_rle_char(c))
        }
        _ => false,
    }
}

/// Parses one level from text: the first board in it, with metadata.
pub fn parse_level(text: &str) -> Result<Level, ParseError> {
    parse_level_within(text, &mut 0)
}

/// [`parse_level`], adding the board text it expands to `spent` (see
/// [`super::sok::MAX_COLLECTION_TEXT`]).
pub(crate) fn parse_level_within(text: &str, spent: &mut usize) -> Result<Level, ParseError> {
    let collection = super::sok::parse_collection_within(text, spent);
    collection
        .levels
        .into_iter()
        .next()
        .unwrap_or(Err(ParseError::new(1, 1, ParseErrorKind::NoLevel)))
}

/// Builds a level from board rows, each with its 1-based line number, adding
/// the length of the board text it read or expanded to `spent`.
pub(crate) fn parse_board(
    rows: &[(usize, &str)],
    meta: Metadata,
    spent: &mut usize,
) -> Result<Level, ParseError> {
    // Check characters against the raw text, so columns match the file.
    let mut expanded: Vec<(usize, String)> = Vec::new();
    // What the board's run-length rows may still expand to.
    let mut budget = MAX_BOARD_TEXT;
    for &(line, raw) in rows {
        let raw = raw.trim_end();
        if let Some((col, c)) = raw
            .chars()
            .enumerate()
            .find(|&(_, c)| !is_board_char(c) && !is_rle_char(c) && c != '\t')
        {
            return Err(ParseError::new(
                line,
                col + 1,
                ParseErrorKind::IllegalCharacter(c),
            ));
        }
        if raw.chars().any(is_rle_char) {
            let decoded =
                crate::rle::decode_within(raw, budget).map_err(|k| ParseError::new(line, 1, k))?;
            budget = budget.saturating_sub(decoded.len() + 1);
            *spent = spent.saturating_add(decoded.len() + 1);
            // An empty row (`||`) would print as a blank line, which ends an
            // XSB board: no text format could hold the level.
            if decoded.split('|').any(str::is_empty) {
                return Err(ParseError::new(line, 1, ParseErrorKind::EmptyRow));
            }
            expanded.extend(decoded.split('|').map(|r| (line, r.to_string())));
        } else {
            *spent = spent.saturating_add(raw.len() + 1);
            expanded.push((line, raw.replace('\t', "    ")));
        }
    }
    let first_line = rows.first().map_or(1, |r| r.0);
    let height = expanded.len();
    let width = expanded
        .iter()
        .map(|(_, r)| r.chars().count())
        .max()
        .unwrap_or(0);
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(ParseError::new(
            first_line,
            1,
            ParseErrorKind::TooLarge { width, height },
        ));
    }
    let mut cells = vec![Cell::Floor; width * height];
    let mut player = None;
    let mut boxes = Vec::new();
    let mut goals = 0;
    for (row, (line, text)) in expanded.iter().enumerate() {
        for (col, c) in text.chars().enumerate() {
            let i = row * width + col;
            let (cell, is_player, is_box) = match c {
                '#' => (Cell::Wall, false, false),
                ' ' | '-' | '_' => (Cell::Floor, false, false),
                '.' => (Cell::Goal, false, false),
                '$' | 'b' => (Cell::Floor, false, true),
                '*' | 'B' => (Cell::Goal, false, true),
                '@' | 'p' => (Cell::Floor, true, false),
                '+' | 'P' => (Cell::Goal, true, false),
                other => {
                    return Err(ParseError::new(
                        *line,
                        col + 1,
                        ParseErrorKind::IllegalCharacter(other),
                    ));
                }
            };
            cells[i] = cell;
            if cell == Cell::Goal {
                goals += 1;
            }
            if is_box {
                boxes.push(i);
            }
            if is_player {
                if player.is_some() {
                    return Err(ParseError::new(*line, col + 1, ParseErrorKind::TwoPlayers));
                }
                player = Some(i);
            }
        }
    }
    let player = player.ok_or(ParseError::new(first_line, 1, ParseErrorKind::NoPlayer))?;
    if boxes.is_empty() {
        return Err(ParseError::new(first_line, 1, ParseErrorKind::NoBoxes));
    }
    if boxes.len() != goals {
        return Err(ParseError::new(
            first_line,
            1,
            ParseErrorKind::BoxGoalMismatch {
                boxes: boxes.len(),
                goals,
            },
        ));
    }
    let meta = Metadata {
        line: first_line,
        ..meta
    };
    Ok(Level::from_grid(width, height, cells, player, boxes, meta))
}

/// Writes a board as XSB rows, trailing space trimmed, each ending in `\n`.
pub(crate) fn board_to_xsb(map: &Map, player: usize, boxes: &[usize]) -> String {
    let mut out = String::with_capacity((map.width() + 1) * map.height());
    for row in 0..map.height() {
        let mut line = String::with_capacity(map.width());
        for col in 0..map.width() {
            let i = map.index(col, row);
            let has_box = boxes.binary_search(&i).is_ok();
            line.push(match (map.cell(i), i == player, has_box) {
                (Cell::Wall, _, _) => '#',
                (Cell::Goal, true, _) => '+',
                (Cell::Goal, _, true) => '*',
                (Cell::Goal, _, _) => '.',
                (_, true, _) => '@',
                (_, _, true) => '$',
                _ => ' ',
            });
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The board as one run-length encoded line: `-` for floor, `|` between rows.
pub fn to_rle(level: &Level) -> String {
    level
        .to_xsb()
        .lines()
        .map(|row| crate::rle::encode(&row.replace(' ', "-")))
        .collect::<Vec<_>>()
        .join("|")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> ParseError {
        parse_level(text).unwrap_err()
    }

    #[test]
    fn an_empty_run_length_row_is_an_error() {
        for text in ["7#||#@-$-.#|7#", "7#|#@$.#|7#|"] {
            let e = crate::Level::from_xsb(text).unwrap_err();
            assert_eq!(e.kind, ParseErrorKind::EmptyRow, "{text}");
        }
    }

    #[test]
    fn run_length_rows_share_one_board_budget() {
        // One budget for all rows: 1,000 rows of `1048576#` would take a gigabyte.
        let text = "1048576#\n".repeat(1000);
        let e = crate::Level::from_xsb(&text).unwrap_err();
        assert_eq!(
            (e.line, e.kind),
            (
                1,
                ParseErrorKind::ExpandsTooFar {
                    limit: MAX_BOARD_TEXT
                }
            )
        );
        let text = "200#\n".repeat(400);
        let e = crate::Level::from_xsb(&text).unwrap_err();
        assert!(
            matches!(e.kind, ParseErrorKind::ExpandsTooFar { .. }),
            "{e}"
        );
        // A full-size board still reads.
        let full = "256#|#@$.252#|253(256#|)256#";
        let level = crate::Level::from_xsb(full).unwrap();
        assert_eq!(level.map().width(), MAX_SIDE);
    }

    #[test]
    fn sok_letters_and_floor_variants() {
        let a = parse_level("#####\n#pb.#\n#####").unwrap();
        let b = parse_level("#####\n#@$.#\n#####").unwrap();
        let c = parse_level("#####\n#@$.#\n#####\n").unwrap();
        assert_eq!(a.to_xsb(), b.to_xsb());
        assert_eq!(b.to_xsb(), c.to_xsb());
        let d = parse_level("-#####\n-#@$.#\n_#####").unwrap();
        assert_eq!(d.to_xsb(), b.to_xsb());
        let e = parse_level("#####\n#pB #\n#####").unwrap();
        assert!(e.is_solved_at_start());
    }

    #[test]
    fn short_rows_are_padded_and_outside_is_cropped() {
        let level = parse_level("  ####\n###  #\n#@$. #\n######").unwrap();
        assert_eq!(level.width(), 6);
        assert_eq!(level.map().cell(0), Cell::Outside);
        assert_eq!(level.to_xsb(), "  ####\n###  #\n#@$. #\n######\n");
    }

    #[test]
    fn run_length_rows() {
        let level = parse_level("5#|#@$.#|5#").unwrap();
        assert_eq!(level.to_xsb(), "#####\n#@$.#\n#####\n");
        assert_eq!(to_rle(&level), "5#|#@$.#|5#");
        let level = parse_level("3#4-p.#").unwrap_err();
        assert_eq!(level.kind, ParseErrorKind::NoBoxes);
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = err("; title\n#####\n#@$x#\n#####");
        assert_eq!(
            (e.line, e.column, e.kind),
            (3, 4, ParseErrorKind::IllegalCharacter('x'))
        );
        let e = err("#####\n#@$.#\n#@  #\n#####");
        assert_eq!(
            (e.line, e.column, e.kind),
            (3, 2, ParseErrorKind::TwoPlayers)
        );
        assert_eq!(err("#####\n# $.#\n#####").kind, ParseErrorKind::NoPlayer);
        assert_eq!(err("#####\n#@ .#\n#####").kind, ParseErrorKind::NoBoxes);
        assert_eq!(
            err("#####\n#@$$.#\n#####").kind,
            ParseErrorKind::BoxGoalMismatch { boxes: 2, goals: 1 }
        );
        assert_eq!(err("no level here").kind, ParseErrorKind::NoLevel);
    }

    #[test]
    fn key_ignores_presentation_but_not_content() {
        let a = parse_level("Title: A\n#####\r\n#@$.#\r\n#####").unwrap();
        let b = parse_level("\n   #####\n   #@$.#   \n   #####\n").unwrap();
        let c = parse_level("######\n#@$ .#\n######").unwrap();
        assert_eq!(a.key(), b.key());
        assert_ne!(a.key(), c.key());
    }
}
