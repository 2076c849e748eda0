//! A JSON-friendly summary of a game, as printed by `ludus tetris sim`.

use serde::{Deserialize, Serialize};

use crate::game::{Game, Status};
use crate::matrix::{HEIGHT, VISIBLE_HEIGHT};
use crate::piece::{ActivePiece, PieceKind};
use crate::scoring::ClearReport;

/// The state a test or a headless run wants to look at.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Matrix rows, top first: the 20 visible rows, preceded by any hidden rows that hold
    /// blocks. Locked cells are upper-case piece letters, the active piece lower-case, `.` empty.
    pub board: Vec<String>,
    pub score: u64,
    pub lines: u32,
    pub level: u32,
    pub pieces: u64,
    pub time_ms: u64,
    pub hold: Option<PieceKind>,
    pub queue: Vec<PieceKind>,
    pub active: Option<ActivePiece>,
    pub status: Status,
    pub topped_out: bool,
    pub back_to_back: bool,
    pub combo: Option<u32>,
    pub last_clear: Option<ClearReport>,
}

impl Snapshot {
    pub fn of(game: &Game) -> Snapshot {
        let active = game.active().copied();
        let top = game
            .matrix()
            .stack_height()
            .max(active.map_or(0, |p| p.cells().iter().map(|c| c.1 + 1).max().unwrap_or(0)))
            .clamp(VISIBLE_HEIGHT, HEIGHT);
        let mut board = game.matrix().text_rows(top);
        if let Some(piece) = active {
            for (x, y) in piece.cells() {
                let row = (top - 1 - y) as usize;
                if let Some(text) = board.get_mut(row) {
                    let mut chars: Vec<char> = text.chars().collect();
                    if let Some(cell) = chars.get_mut(x as usize) {
                        *cell = piece.kind.letter().to_ascii_lowercase();
                    }
                    *text = chars.into_iter().collect();
                }
            }
        }
        Snapshot {
            board,
            score: game.score(),
            lines: game.lines(),
            level: game.level(),
            pieces: game.pieces(),
            time_ms: game.time_ms(),
            hold: game.hold_piece(),
            queue: game.next_queue(),
            active,
            status: game.status(),
            topped_out: game.topped_out(),
            back_to_back: game.back_to_back(),
            combo: game.combo(),
            last_clear: game.last_clear().copied(),
        }
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}
