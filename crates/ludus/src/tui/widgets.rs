//! Small drawing helpers shared by the screens.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Padding, Paragraph};

/// A rectangle of at most `width` x `height`, centred in `area`.
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let [row] = Layout::vertical([Constraint::Length(height.min(area.height))])
        .flex(Flex::Center)
        .areas(area);
    let [cell] = Layout::horizontal([Constraint::Length(width.min(area.width))])
        .flex(Flex::Center)
        .areas(row);
    cell
}

/// Draws a bordered pop-up with a title and lines of text, centred.
pub fn popup(frame: &mut Frame, area: Rect, title: &str, lines: Vec<Line>, accent: Color) {
    let width = lines
        .iter()
        .map(|l| l.width())
        .max()
        .unwrap_or(0)
        .max(title.len() + 4) as u16
        + 6;
    let height = lines.len() as u16 + 2;
    let rect = centered(area, width, height);
    frame.render_widget(Clear, rect);
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(Style::default().fg(accent))
        .padding(Padding::horizontal(1))
        .title(
            Line::from(format!(" {title} "))
                .style(Style::default().fg(accent).add_modifier(Modifier::BOLD)),
        );
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}

/// A line of key hints: `key` in bold, then what it does.
pub fn key_hints(pairs: &[(&str, &str)]) -> Line<'static> {
    let mut spans = Vec::new();
    for (i, (key, what)) in pairs.iter().enumerate() {
        if i > 0 {
            spans.push(Span::raw("  "));
        }
        spans.push(Span::styled(
            key.to_string(),
            Style::default()
                .fg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
        ));
        spans.push(Span::raw(format!(" {what}")));
    }
    Line::from(spans)
}

/// Black on gold, bold: the chosen row of a menu, and screen title tags.
pub fn highlight() -> Style {
    Style::default()
        .fg(Color::Black)
        .bg(Color::Rgb(230, 190, 80))
        .add_modifier(Modifier::BOLD)
}

/// What a key means in a vertical menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MenuKey {
    /// Nothing to do (or only the selection moved).
    None,
    /// Open the selected item.
    Open,
    /// Leave the menu.
    Leave,
}

/// Moves `selected` in a menu of `len` items for ↑↓ (and k/j, w/s, Tab), picks
/// an item by its number 1–9, and tells whether to open it or leave.
pub fn menu_key(key: KeyEvent, selected: &mut usize, len: usize) -> MenuKey {
    if len == 0 {
        return MenuKey::None;
    }
    match key.code {
        KeyCode::Up | KeyCode::Char('k') | KeyCode::Char('w') => {
            *selected = selected.checked_sub(1).unwrap_or(len - 1);
        }
        KeyCode::Down | KeyCode::Char('j') | KeyCode::Char('s') | KeyCode::Tab => {
            *selected = (*selected + 1) % len;
        }
        KeyCode::Char(c @ '1'..='9') => {
            let index = c as usize - '1' as usize;
            if index < len {
                *selected = index;
                return MenuKey::Open;
            }
        }
        KeyCode::Enter | KeyCode::Char(' ') => return MenuKey::Open,
        KeyCode::Esc | KeyCode::Char('q') => return MenuKey::Leave,
        _ => {}
    }
    MenuKey::None
}

/// Redraws every character of `buf` outside ASCII in ASCII, for the ASCII
/// look: box drawing as `+`, `-`, `|`, arrows and triangles as `<`, `>`, `^`,
/// `v`, marks as `x`, `!`, `.`, anything else as `?`. Done once over the
/// whole screen, so that no screen can forget it; the Sokoban board draws
/// its own ASCII (`#`, `@`, `$`, …) first.
pub fn to_ascii(buf: &mut Buffer) {
    for cell in &mut buf.content {
        let symbol = cell.symbol();
        if !symbol.is_ascii() {
            let plain = ascii_for(symbol);
            cell.set_symbol(plain);
        }
    }
}

/// The ASCII stand-in for one non-ASCII grapheme.
fn ascii_for(symbol: &str) -> &'static str {
    let Some(c) = symbol.chars().next() else {
        return " ";
    };
    match c {
        '─' | '━' | '═' | '╌' | '┄' | '—' | '–' | '−' | '‐' => "-",
        '│' | '┃' | '║' | '╎' | '┆' => "|",
        '┌' | '┐' | '└' | '┘' | '╭' | '╮' | '╰' | '╯' | '├' | '┤' | '┬' | '┴' | '┼' | '╔' | '╗'
        | '╚' | '╝' | '╠' | '╣' | '╦' | '╩' | '╬' | '┏' | '┓' | '┗' | '┛' => {
            "+"
        }
        '▶' | '►' | '▸' | '→' | '»' | '≥' => ">",
        '◀' | '◄' | '◂' | '←' | '«' | '≤' => "<",
        '▲' | '↑' | '△' => "^",
        '▼' | '↓' | '▽' => "v",
        '✓' | '✔' | '×' | '✕' => "x",
        '✗' | '✘' => "!",
        '·' | '…' | '•' | '∙' => ".",
        '█' | '▓' | '▒' | '░' | '■' => "#",
        '‘' | '’' => "'",
        '“' | '”' => "\"",
        '\u{a0}' => " ",
        _ => "?",
    }
}

/// Formats a duration in whole seconds as `m:ss` or `h:mm:ss`.
pub fn clock(seconds: u64) -> String {
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::widgets::{Block, BorderType, Widget};

    #[test]
    fn to_ascii_leaves_no_character_outside_ascii() {
        let area = Rect::new(0, 0, 12, 3);
        let mut buf = Buffer::empty(area);
        Block::bordered()
            .border_type(BorderType::Rounded)
            .title("▶ ✓ 象")
            .render(area, &mut buf);
        buf.set_string(1, 1, "a—b…", ratatui::style::Style::default());
        super::to_ascii(&mut buf);
        let lines: Vec<String> = (0..3)
            .map(|y| (0..12).map(|x| buf[(x, y)].symbol().to_string()).collect())
            .collect();
        assert_eq!(lines, ["+> x ? ----+", "|a-b.      |", "+----------+"]);
    }

    #[test]
    fn clock_format() {
        assert_eq!(super::clock(0), "0:00");
        assert_eq!(super::clock(75), "1:15");
        assert_eq!(super::clock(3725), "1:02:05");
    }
}
