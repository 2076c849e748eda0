//! The evaluation graph: the engine's stored score of each position of the
//! game, from Red's view, as bars above (Red better) and below (Black
//! better) a middle line, the position shown marked.

use ratatui::style::{Color as Tint, Modifier, Style};
use ratatui::text::{Line, Span};

/// Scores beyond this many centipawns (mates too) fill a bar.
const FULL_BAR_CP: i32 = 800;
/// Eighths of a cell, from empty to full, growing upwards.
const RISING: [char; 9] = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// The graph as `rows` lines (an even number, at least 2) of at most `width`
/// columns: up to three columns per position when they fit, else each
/// column shows the position at its share of the game. `shown` is the position on the
/// board (plies played); columns without a score stay blank.
pub fn lines(evals: &[Option<i32>], shown: usize, width: usize, rows: usize) -> Vec<Line<'static>> {
    let rows = (rows.max(2) / 2) * 2;
    let half = rows / 2;
    let positions = evals.len().max(shown + 1);
    // A short game's positions get up to three columns each.
    let columns = (positions * (width / positions).clamp(1, 3)).min(width.max(1));
    let ply_of = |c: usize| c * positions / columns;
    let shown_column = (0..columns).rfind(|&c| ply_of(c) <= shown);
    let mut grid = vec![vec![(' ', Style::default()); columns]; rows];
    for (c, cell) in (0..columns).map(|c| (c, evals.get(ply_of(c)).copied().flatten())) {
        let mark = shown_column == Some(c);
        let base = if mark {
            Style::default().bg(Tint::DarkGray)
        } else {
            Style::default()
        };
        for row in grid.iter_mut() {
            row[c].1 = base;
        }
        let Some(value) = cell else {
            grid[half][c] = ('·', base.fg(Tint::DarkGray));
            continue;
        };
        let eighths = (value.clamp(-FULL_BAR_CP, FULL_BAR_CP).unsigned_abs() as usize * half * 8)
            .div_ceil(FULL_BAR_CP as usize);
        if value >= 0 {
            let style = base.fg(Tint::LightRed);
            // Red's bars rise from the middle line through the top half.
            for (i, row) in grid[..half].iter_mut().rev().enumerate() {
                let fill = eighths.saturating_sub(i * 8).min(8);
                row[c] = (RISING[fill], style);
            }
            if value == 0 {
                grid[half - 1][c] = ('▁', base.fg(Tint::Gray));
            }
        } else {
            // Black's bars hang from the middle line: full cells, then the
            // upper half block for a part cell (the block set has no finer step).
            let style = base.fg(Tint::Cyan);
            for (i, row) in grid[half..].iter_mut().enumerate() {
                let fill = eighths.saturating_sub(i * 8).min(8);
                let ch = match fill {
                    0 => ' ',
                    1..=2 => '▔',
                    3..=6 => '▀',
                    _ => '█',
                };
                row[c] = (ch, style);
            }
        }
    }
    grid.into_iter()
        .map(|row| {
            Line::from(
                row.into_iter()
                    .map(|(ch, style)| Span::styled(ch.to_string(), style))
                    .collect::<Vec<_>>(),
            )
        })
        .collect()
}

/// The graph's title: what it shows and the score of the position shown.
pub fn title(evals: &[Option<i32>], shown: usize) -> Line<'static> {
    let score = match evals.get(shown).copied().flatten() {
        Some(v) if v.abs() >= xiangqi::engine::MATE_BOUND => {
            if v > 0 { "Red mates" } else { "Black mates" }.to_string()
        }
        Some(0) => "even".to_string(),
        Some(v) if v > 0 => format!("Red +{:.2}", v as f64 / 100.0),
        Some(v) => format!("Black +{:.2}", -v as f64 / 100.0),
        None => "no score".to_string(),
    };
    Line::styled(
        format!("Evaluation (g hides) · here: {score}"),
        Style::default().add_modifier(Modifier::UNDERLINED),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[Line]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn red_rises_black_hangs_and_missing_scores_are_dots() {
        let evals = [Some(0), Some(800), None, Some(-800), Some(100)];
        let rows = text(&lines(&evals, 4, 20, 4));
        assert_eq!(rows.len(), 4);
        // Five positions in 20 columns: three columns each; keep the first of each.
        let columns: Vec<Vec<char>> = rows
            .iter()
            .map(|r| r.chars().step_by(3).collect())
            .collect();
        // Column 1: Red's full bar fills both upper rows.
        assert_eq!((columns[0][1], columns[1][1]), ('█', '█'));
        assert_eq!((columns[2][1], columns[3][1]), (' ', ' '));
        // Column 2: no score.
        assert_eq!(columns[2][2], '·');
        // Column 3: Black's full bar fills both lower rows.
        assert_eq!((columns[2][3], columns[3][3]), ('█', '█'));
        assert_eq!((columns[0][3], columns[1][3]), (' ', ' '));
        // Column 4: +1.00 is one eighth of 16 eighths rounded up: two eighths.
        assert_eq!(columns[1][4], '▂');
        // Column 0: even is a thin line at the middle.
        assert_eq!(columns[1][0], '▁');
    }

    #[test]
    fn a_long_game_is_squeezed_into_the_width_and_the_shown_position_marked() {
        let evals: Vec<Option<i32>> = (0..200).map(|i| Some(i - 100)).collect();
        let graph = lines(&evals, 150, 40, 2);
        assert!(graph.iter().all(|l| l.width() == 40));
        let marked: Vec<usize> = graph[0]
            .spans
            .iter()
            .enumerate()
            .filter(|(_, s)| s.style.bg == Some(Tint::DarkGray))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(marked, [30]);
    }

    #[test]
    fn the_title_tells_the_score_shown() {
        let evals = [Some(35), Some(-120), None];
        let t = |n| title(&evals, n).spans[0].content.to_string();
        assert!(t(0).ends_with("Red +0.35"));
        assert!(t(1).ends_with("Black +1.20"));
        assert!(t(2).ends_with("no score"));
    }
}
