//! A game: a start position and the moves played, with what the rules need to
//! judge repetitions (checks and chases per ply, piece identities).

use crate::IllegalMove;
use crate::moves::{Move, MoveList};
use crate::piece::Color;
use crate::position::{Position, Undo};
use crate::rules::{EndReason, GameResult, Outcome};
use crate::square::{NUM_SQUARES, Square};

/// Plies without capture after which the game is drawn (60 moves).
pub const MOVE_LIMIT_PLIES: u32 = 120;
/// Checks per side within the move-limit window that still count as plies.
pub const COUNTED_CHECKS: u32 = 10;
/// A position seen this many times ends the game under the repetition rules.
pub const REPETITIONS: usize = 3;

const NO_ID: u8 = u8::MAX;

/// What happened on one ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move played.
    pub mv: Move,
    /// The side that played it.
    pub color: Color,
    /// Whether it gave check.
    pub check: bool,
    /// Whether it captured.
    pub capture: bool,
    /// Identities of the opponent pieces it chased (bit per piece identity).
    pub chased: u64,
    /// Zobrist key after the move.
    pub key: u64,
    pub(crate) undo: Undo,
    moved_id: u8,
    captured_id: u8,
}

/// A game in progress.
///
/// ```
/// use xiangqi::{Game, Move, Square};
/// let mut game = Game::new();
/// let m = Move::new(Square::parse("h2").unwrap(), Square::parse("e2").unwrap());
/// game.play(m).unwrap();
/// assert_eq!(game.legal_moves().len(), 45);
/// assert!(game.result().is_none());
/// game.undo();
/// assert_eq!(game.position(), &xiangqi::Position::startpos());
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    pos: Position,
    plies: Vec<Ply>,
    /// Identity of the piece on each square (stable while pieces move).
    ids: [u8; NUM_SQUARES],
}

impl Default for Game {
    fn default() -> Self {
        Game::new()
    }
}

impl Game {
    /// A game from the starting position.
    pub fn new() -> Game {
        Game::from_position(Position::startpos())
    }

    /// A game from a set-up position.
    pub fn from_position(pos: Position) -> Game {
        let mut ids = [NO_ID; NUM_SQUARES];
        let mut next = 0u8;
        for sq in Square::all() {
            if pos.piece_at(sq).is_some() {
                ids[sq.index()] = next;
                next += 1;
            }
        }
        Game {
            start: pos.clone(),
            pos,
            plies: Vec::new(),
            ids,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The position the game started from.
    pub fn start_position(&self) -> &Position {
        &self.start
    }

    /// What happened on each ply so far.
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// The moves played so far.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.plies.iter().map(|p| p.mv)
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.plies.last().map(|p| p.mv)
    }

    /// Reads a move in any notation ([`Position::parse_move`]) and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<Move, crate::NotationError> {
        let m = self.pos.parse_move(text)?;
        self.play(m)
            .map_err(|_| crate::NotationError::NoSuchMove(text.to_string()))?;
        Ok(m)
    }

    /// Legal moves in the current position.
    pub fn legal_moves(&self) -> MoveList {
        self.pos.legal_moves()
    }

    /// Plays a legal move (it is played even if the game is already over, so a
    /// front end decides whether to allow it).
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if !self.pos.is_legal(m) {
            return Err(IllegalMove(m));
        }
        let chased_sqs = self.pos.chased_after(m);
        let check = self.pos.gives_check(m);
        let color = self.pos.turn();
        let undo = self.pos.make_move(m);
        let moved_id = self.ids[m.from.index()];
        let captured_id = self.ids[m.to.index()];
        self.ids[m.to.index()] = moved_id;
        self.ids[m.from.index()] = NO_ID;
        let chased = chased_sqs
            .iter()
            .map(|s| self.ids[s.index()])
            .filter(|&id| id < 64)
            .fold(0u64, |acc, id| acc | (1u64 << id));
        self.plies.push(Ply {
            mv: m,
            color,
            check,
            capture: undo.captured().is_some(),
            chased,
            key: self.pos.key(),
            undo,
            moved_id,
            captured_id,
        });
        Ok(())
    }

    /// Takes back the last move, returning it.
    pub fn undo(&mut self) -> Option<Move> {
        let ply = self.plies.pop()?;
        self.pos.unmake_move(ply.mv, ply.undo);
        self.ids[ply.mv.from.index()] = ply.moved_id;
        self.ids[ply.mv.to.index()] = ply.captured_id;
        Some(ply.mv)
    }

    /// Key of the position before ply `i` (0 = start position).
    fn key_before(&self, i: usize) -> u64 {
        match i {
            0 => self.start.key(),
            _ => self.plies[i - 1].key,
        }
    }

    /// The result if the game is over under the rules, else `None`.
    pub fn result(&self) -> Option<GameResult> {
        let to_move = self.pos.turn();
        if self.pos.legal_moves().is_empty() {
            let reason = if self.pos.in_check() {
                EndReason::Checkmate
            } else {
                EndReason::Stalemate
            };
            return Some(GameResult {
                outcome: Outcome::Win(!to_move),
                reason,
            });
        }
        if let Some(r) = self.repetition_result() {
            return Some(r);
        }
        if self.move_limit_reached() {
            return Some(GameResult {
                outcome: Outcome::Draw,
                reason: EndReason::MoveLimit,
            });
        }
        if self.pos.has_insufficient_material() {
            return Some(GameResult {
                outcome: Outcome::Draw,
                reason: EndReason::InsufficientMaterial,
            });
        }
        None
    }

    /// Plies since the last capture counted for the move limit: checks beyond
    /// [`COUNTED_CHECKS`] per side are not counted.
    pub fn move_limit_plies(&self) -> u32 {
        let clock = self.pos.halfmoves();
        let span = (clock as usize).min(self.plies.len());
        let mut checks = [0u32; 2];
        for p in &self.plies[self.plies.len() - span..] {
            if p.check {
                checks[p.color.index()] += 1;
            }
        }
        let extra: u32 = checks
            .iter()
            .map(|c| c.saturating_sub(COUNTED_CHECKS))
            .sum();
        clock.saturating_sub(extra)
    }

    /// Whether the 60-move (120-ply) rule draws the game.
    pub fn move_limit_reached(&self) -> bool {
        self.move_limit_plies() >= MOVE_LIMIT_PLIES
    }

    /// How often the current position (same side to move) has occurred, this
    /// time included, since the last capture.
    pub fn repetition_count(&self) -> usize {
        self.repetition_start().map_or(1, |(_, n)| n)
    }

    /// Earliest ply index `j` such that the position before ply `j` equals the
    /// current one, and the number of occurrences (None if no repetition).
    fn repetition_start(&self) -> Option<(usize, usize)> {
        let n = self.plies.len();
        let key = self.pos.key();
        let mut count = 1;
        let mut earliest = None;
        let mut i = n;
        while i >= 2 {
            // A capture between here and there makes a repetition impossible.
            if self.plies[i - 1].capture || self.plies[i - 2].capture {
                break;
            }
            i -= 2;
            if self.key_before(i) == key {
                count += 1;
                earliest = Some(i);
            }
        }
        earliest.map(|j| (j, count))
    }

    /// Judges a repetition under the Asian rules once the current position has
    /// occurred [`REPETITIONS`] times.
    fn repetition_result(&self) -> Option<GameResult> {
        let (start, count) = self.repetition_start()?;
        if count < REPETITIONS {
            return None;
        }
        let cycle = &self.plies[start..];
        Some(judge_cycle(cycle))
    }
}

/// Decides a repetition cycle recorded in a game.
fn judge_cycle(cycle: &[Ply]) -> GameResult {
    crate::rules::judge_cycle(cycle.iter().map(|p| (p.color, p.check, p.chased as u128)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ply(color: Color, check: bool, chased: u64) -> Ply {
        let a = Square::idx(0);
        Ply {
            mv: Move::new(a, a),
            color,
            check,
            capture: false,
            chased,
            key: 0,
            undo: Undo {
                captured: 0,
                halfmoves: 0,
            },
            moved_id: 0,
            captured_id: 0,
        }
    }

    fn judge(red: &[(bool, u64)], black: &[(bool, u64)]) -> GameResult {
        let mut cycle = Vec::new();
        for (r, b) in red.iter().zip(black) {
            cycle.push(ply(Color::Red, r.0, r.1));
            cycle.push(ply(Color::Black, b.0, b.1));
        }
        judge_cycle(&cycle)
    }

    #[test]
    fn judgements() {
        let quiet = [(false, 0), (false, 0)];
        let check = [(true, 0), (true, 0)];
        let chase = [(false, 4), (false, 6)];
        let drift = [(false, 4), (false, 2)]; // different pieces: not perpetual
        let check_chase = [(true, 0), (false, 1)];
        let draw = |r: GameResult| r.outcome == Outcome::Draw;
        assert!(draw(judge(&quiet, &quiet)));
        assert!(draw(judge(&check, &check)));
        assert!(draw(judge(&chase, &chase)));
        assert!(draw(judge(&drift, &quiet)));
        assert_eq!(judge(&check, &quiet).outcome, Outcome::Win(Color::Black));
        assert_eq!(judge(&check, &chase).reason, EndReason::PerpetualCheck);
        assert_eq!(judge(&quiet, &chase).outcome, Outcome::Win(Color::Red));
        // One check and one chase is allowed (AXF rule 18): a check breaks a chase.
        assert!(draw(judge(&check_chase, &quiet)));
        assert_eq!(judge(&quiet, &check_chase).reason, EndReason::Repetition);
        // ... but the other side's perpetual chase still loses.
        assert_eq!(
            judge(&chase, &check_chase).outcome,
            Outcome::Win(Color::Black)
        );
    }
}
