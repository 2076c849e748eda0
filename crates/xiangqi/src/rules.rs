//! Game-ending rules that go beyond move generation: mate and stalemate, chases
//! (for the Asian repetition rules), and material draws.

use crate::moves::Move;
use crate::piece::{Color, Role};
use crate::position::Position;
use crate::square::Square;

/// Which side won, or a draw.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    Win(Color),
    Draw,
}

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EndReason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move has no legal move (and loses, unlike in chess).
    Stalemate,
    /// A repetition in which one side checked on every move.
    PerpetualCheck,
    /// A repetition in which one side chased the same piece on every move.
    PerpetualChase,
    /// A repetition with both or neither side violating the rules.
    Repetition,
    /// 120 plies without capture (checks beyond ten per side not counted).
    MoveLimit,
    /// Neither side has a piece that can cross the river.
    InsufficientMaterial,
}

/// A finished game: outcome and reason.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct GameResult {
    pub outcome: Outcome,
    pub reason: EndReason,
}

impl GameResult {
    /// PGN result string: `1-0`, `0-1` or `1/2-1/2`.
    pub fn pgn(&self) -> &'static str {
        match self.outcome {
            Outcome::Win(Color::Red) => "1-0",
            Outcome::Win(Color::Black) => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
}

impl std::fmt::Display for GameResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let why = match self.reason {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::PerpetualCheck => "perpetual check",
            EndReason::PerpetualChase => "perpetual chase",
            EndReason::Repetition => "repetition",
            EndReason::MoveLimit => "move limit",
            EndReason::InsufficientMaterial => "insufficient material",
        };
        match self.outcome {
            Outcome::Win(c) => write!(f, "{c} wins by {why}"),
            Outcome::Draw => write!(f, "draw by {why}"),
        }
    }
}

/// Whether a soldier of `color` on `sq` has crossed the river.
pub(crate) fn crossed_river(color: Color, sq: Square) -> bool {
    match color {
        Color::Red => sq.rank() >= 5,
        Color::Black => sq.rank() <= 4,
    }
}

impl Position {
    /// Checkmate: in check with no legal move.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && self.legal_moves().is_empty()
    }

    /// Stalemate: not in check but no legal move (the side to move loses).
    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && self.legal_moves().is_empty()
    }

    /// Neither side has a chariot, horse, cannon or soldier, so no one can mate.
    pub fn has_insufficient_material(&self) -> bool {
        Square::all().all(|sq| {
            self.piece_at(sq)
                .is_none_or(|p| matches!(p.role, Role::General | Role::Advisor | Role::Elephant))
        })
    }

    /// The position with `color` to move (same pieces), used to ask what a side
    /// attacks regardless of whose turn it is.
    pub(crate) fn with_turn(&self, color: Color) -> Position {
        let mut p = self.clone();
        p.set_turn(color);
        p
    }

    /// Legal captures `color` could make here if it were its turn.
    fn captures_for(&self, color: Color) -> Vec<Move> {
        self.with_turn(color).legal_captures().to_vec()
    }

    /// Whether `color` could legally capture on `target` with the piece on `from`.
    fn can_capture(&self, color: Color, from: Square, target: Square) -> bool {
        self.captures_for(color)
            .iter()
            .any(|m| m.from == from && m.to == target)
    }

    /// Squares of the opponent's pieces that the quiet move `m` (by the side to move)
    /// newly chases, in the position after the move.
    ///
    /// A chase is a new, legal attack by a piece other than a general or soldier on
    /// a piece other than a general or an unadvanced soldier, where the victim is
    /// unprotected, or is a chariot attacked by a horse or cannon. Offering an
    /// exchange (the victim, of the same kind, attacks back) is not a chase.
    /// Captures are never chases (they are irreversible anyway).
    pub fn chased_after(&self, m: Move) -> Vec<Square> {
        let us = self.turn;
        let mut out = Vec::new();
        if self.is_capture(m) || !self.is_legal(m) {
            return out;
        }
        let mut after = self.clone();
        after.make_move(m);
        for c in after.captures_for(us) {
            let (Some(attacker), Some(victim)) = (after.piece_at(c.from), after.piece_at(c.to))
            else {
                continue;
            };
            if matches!(attacker.role, Role::General | Role::Soldier)
                || victim.role == Role::General
                || (victim.role == Role::Soldier && !crossed_river(victim.color, c.to))
            {
                continue;
            }
            // Only new attacks count: the same attacker (tracked through the move)
            // must not have been able to take the victim before.
            let before_from = if c.from == m.to { m.from } else { c.from };
            if self.can_capture(us, before_from, c.to) {
                continue;
            }
            // An exchange offer between pieces of the same kind is not a chase.
            if victim.role == attacker.role && after.can_capture(!us, c.to, c.from) {
                continue;
            }
            let strong_victim =
                victim.role == Role::Chariot && matches!(attacker.role, Role::Horse | Role::Cannon);
            if !strong_victim {
                let mut taken = after.with_turn(us);
                taken.make_move(c);
                let protected = taken.legal_captures().iter().any(|r| r.to == c.to);
                if protected {
                    continue;
                }
            }
            if !out.contains(&c.to) {
                out.push(c.to);
            }
        }
        out
    }
}
