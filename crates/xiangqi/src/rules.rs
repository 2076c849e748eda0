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

    /// Squares of the opponent's pieces that `color` threatens here, in the
    /// sense of the chase rules (whoever is to move).
    ///
    /// A threat is a legal capture by a piece other than a general or soldier
    /// of a piece other than a general or an unadvanced soldier, where the
    /// victim is unprotected, or is worth more than its attacker (a chariot
    /// attacked by a horse or cannon; a chariot, horse or cannon attacked by
    /// an advisor or elephant).
    /// Offering an exchange (the victim, of the same kind, can take back) is
    /// not a threat.
    fn threats(&self, color: Color) -> Vec<Square> {
        let mut out = Vec::new();
        for c in self.captures_for(color) {
            let (Some(attacker), Some(victim)) = (self.piece_at(c.from), self.piece_at(c.to))
            else {
                continue;
            };
            if matches!(attacker.role, Role::General | Role::Soldier)
                || victim.role == Role::General
                || (victim.role == Role::Soldier && !crossed_river(victim.color, c.to))
                || out.contains(&c.to)
            {
                continue;
            }
            // An exchange offer between pieces of the same kind is not a chase.
            if victim.role == attacker.role && self.can_capture(!color, c.to, c.from) {
                continue;
            }
            // A victim worth more than its attacker is threatened even when
            // protected: taking it and being taken back still wins material.
            let strong_victim = match attacker.role {
                Role::Horse | Role::Cannon => victim.role == Role::Chariot,
                Role::Advisor | Role::Elephant => {
                    matches!(victim.role, Role::Chariot | Role::Horse | Role::Cannon)
                }
                _ => false,
            };
            if !strong_victim {
                let mut taken = self.with_turn(color);
                taken.make_move(c);
                if taken.legal_captures().iter().any(|r| r.to == c.to) {
                    continue;
                }
            }
            out.push(c.to);
        }
        out
    }

    /// Squares of the opponent's pieces that the quiet move `m` (by the side to
    /// move) newly chases, in the position after the move.
    ///
    /// A chase is a threat (as `threats` defines it) that the move creates: a
    /// piece threatened after the move that was not threatened before. So a
    /// second attacker on a piece already threatened, or a move that keeps a
    /// threat, chases nothing ("from chase to chase" is idle), while a move
    /// that takes a piece's protection away chases it. Captures are never
    /// chases (they are irreversible anyway).
    pub fn chased_after(&self, m: Move) -> Vec<Square> {
        let us = self.turn;
        if self.is_capture(m) || !self.is_legal(m) {
            return Vec::new();
        }
        let before = self.threats(us);
        let mut after = self.clone();
        after.make_move(m);
        after
            .threats(us)
            .into_iter()
            .filter(|s| !before.contains(s))
            .collect()
    }
}

/// Decides a repetition cycle given, for each move, who played it, whether it
/// gave check, and the identities of the pieces it chased (bit per identity).
///
/// A side that checked on every move loses (a draw if both did); otherwise a
/// side that chased the same piece on every one of its moves loses (a draw if
/// both did or neither). A check breaks a chase: one check and one chase is
/// allowed under the Asian rules (AXF rule 18, see `docs/REPETITION.md`).
pub(crate) fn judge_cycle(cycle: impl IntoIterator<Item = (Color, bool, u128)>) -> GameResult {
    let mut all_check = [true; 2];
    let mut chase = [u128::MAX; 2];
    let mut moved = [false; 2];
    for (color, check, chased) in cycle {
        let c = color.index();
        moved[c] = true;
        all_check[c] &= check;
        chase[c] &= if check { 0 } else { chased };
    }
    let verdict = |flags: [bool; 2], reason| match flags {
        [true, false] => Some(GameResult {
            outcome: Outcome::Win(Color::Black),
            reason,
        }),
        [false, true] => Some(GameResult {
            outcome: Outcome::Win(Color::Red),
            reason,
        }),
        _ => None,
    };
    let draw = GameResult {
        outcome: Outcome::Draw,
        reason: EndReason::Repetition,
    };
    let checks = [all_check[0] && moved[0], all_check[1] && moved[1]];
    if let Some(r) = verdict(checks, EndReason::PerpetualCheck) {
        return r;
    }
    if checks == [true, true] {
        return draw;
    }
    let chases = [moved[0] && chase[0] != 0, moved[1] && chase[1] != 0];
    verdict(chases, EndReason::PerpetualChase).unwrap_or(draw)
}

/// Judges a repetition cycle given its first position and the moves (legal,
/// one after another) that return to it, exactly as [`crate::Game::result`]
/// does: checks and chases are worked out move by move, and chased pieces are
/// followed by identity as they move. The search judges repetitions in its
/// tree with this too.
pub fn judge_repetition(start: &Position, moves: &[Move]) -> GameResult {
    const NONE: u8 = u8::MAX;
    let mut pos = start.clone();
    let mut ids = [NONE; crate::square::NUM_SQUARES];
    for (i, id) in ids.iter_mut().enumerate() {
        *id = i as u8;
    }
    let mut entries = Vec::with_capacity(moves.len());
    for &m in moves {
        let color = pos.turn();
        let check = pos.gives_check(m);
        let chased = if check {
            Vec::new()
        } else {
            pos.chased_after(m)
        };
        pos.make_move(m);
        ids[m.to.index()] = ids[m.from.index()];
        ids[m.from.index()] = NONE;
        let mask = chased
            .iter()
            .map(|s| ids[s.index()])
            .filter(|&id| id != NONE)
            .fold(0u128, |acc, id| acc | (1u128 << id));
        entries.push((color, check, mask));
    }
    judge_cycle(entries)
}
