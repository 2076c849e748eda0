//! Chinese notation: `炮二平五`, `马8进7`, `前炮平五`, `中兵进一`.
//!
//! Printed in simplified characters, Red with Chinese numerals (帅仕相马车炮兵)
//! and Black with Arabic digits (将士象马车炮卒). Parsing also accepts
//! traditional characters (帥俥傌炮 將車馬砲包 進 後), full-width digits, and
//! either numeral style for either side. When several files hold more than one
//! soldier (or four or more share one), a soldier is named by its place and its
//! file: `前七进一`, `中七平六`, or `一七进一` .. `五七进一` for four or five.

use super::{Descriptor, NotationError, Op, Origin};
use crate::moves::Move;
use crate::piece::{Color, Role};
use crate::position::Position;

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

fn piece_char(color: Color, role: Role) -> char {
    match (color, role) {
        (Color::Red, Role::General) => '帅',
        (Color::Black, Role::General) => '将',
        (Color::Red, Role::Advisor) => '仕',
        (Color::Black, Role::Advisor) => '士',
        (Color::Red, Role::Elephant) => '相',
        (Color::Black, Role::Elephant) => '象',
        (_, Role::Horse) => '马',
        (_, Role::Chariot) => '车',
        (_, Role::Cannon) => '炮',
        (Color::Red, Role::Soldier) => '兵',
        (Color::Black, Role::Soldier) => '卒',
    }
}

fn numeral(color: Color, n: u8) -> String {
    match color {
        Color::Red => RED_NUMERALS
            .get((n as usize).wrapping_sub(1))
            .map_or_else(|| n.to_string(), |c| c.to_string()),
        Color::Black => n.to_string(),
    }
}

fn render(d: &Descriptor) -> String {
    let p = piece_char(d.color, d.role);
    let origin = match d.origin {
        Origin::File(f) => format!("{p}{}", numeral(d.color, f)),
        Origin::Front => format!("前{p}"),
        Origin::Middle(_) => format!("中{p}"),
        Origin::Rear => format!("后{p}"),
        Origin::Index { index, count, file } => {
            let place = match (count, index) {
                (2 | 3, 1) => "前".to_string(),
                (2, _) | (3, 3) => "后".to_string(),
                (3, _) => "中".to_string(),
                _ => numeral(Color::Red, index),
            };
            format!("{place}{}", numeral(d.color, file))
        }
    };
    let op = match d.op {
        Op::Advance => '进',
        Op::Retreat => '退',
        Op::Traverse => '平',
    };
    format!("{origin}{op}{}", numeral(d.color, d.arg))
}

/// Canonical ASCII form: pieces as WXF letters, numerals as digits, 进退平 as
/// `+-.`, 前中后 as `f m b`.
fn normalise(s: &str) -> Option<String> {
    let mut out = String::new();
    for c in s.chars().filter(|c| !c.is_whitespace()) {
        let t = match c {
            '帅' | '帥' | '将' | '將' => 'K',
            '仕' | '士' => 'A',
            '相' | '象' => 'E',
            '马' | '馬' | '傌' => 'H',
            '车' | '車' | '俥' => 'R',
            '炮' | '砲' | '包' => 'C',
            '兵' | '卒' => 'P',
            '进' | '進' => '+',
            '退' => '-',
            '平' => '.',
            '前' => 'f',
            '中' => 'm',
            '后' | '後' => 'b',
            '1'..='9' => c,
            '１'..='９' => char::from_u32(c as u32 - '１' as u32 + '1' as u32)?,
            _ => {
                let i = RED_NUMERALS.iter().position(|&n| n == c)?;
                char::from(b'1' + i as u8)
            }
        };
        out.push(t);
    }
    (out.chars().count() == 4).then_some(out)
}

impl Position {
    /// The move in Chinese notation (`炮二平五`).
    ///
    /// ```
    /// use xiangqi::{Move, Position};
    /// let mut pos = Position::startpos();
    /// assert_eq!(pos.to_chinese(Move::parse_iccs("h2e2").unwrap()), "炮二平五");
    /// pos.play(Move::parse_iccs("h2e2").unwrap()).unwrap();
    /// assert_eq!(pos.to_chinese(Move::parse_iccs("h9g7").unwrap()), "马8进7");
    /// assert_eq!(pos.parse_chinese("馬８進７").unwrap(), Move::parse_iccs("h9g7").unwrap());
    /// ```
    pub fn to_chinese(&self, m: Move) -> String {
        match self.describe(m) {
            Some(d) => render(&d),
            None => m.to_iccs(),
        }
    }

    /// Parses a move in Chinese notation and returns the legal move it names.
    pub fn parse_chinese(&self, s: &str) -> Result<Move, NotationError> {
        let n = normalise(s).ok_or_else(|| NotationError::Syntax(s.to_string()))?;
        self.find_move(s, &n, |p, m| Some(p.to_chinese(m)), normalise)
    }
}
