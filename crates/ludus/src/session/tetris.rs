//! Tetris facts both front ends share (the terminal's menu and game screens
//! and the browser's `web::tetris`): the modes in menu order, their names,
//! the seed of a new game, and the bot's hint for the piece in play.

use tetris::bot::Bot;
use tetris::{ActivePiece, Game, Mode, PieceKind};

/// The modes in menu order.
pub const MODES: [Mode; 5] = [
    Mode::Marathon { endless: false },
    Mode::Marathon { endless: true },
    Mode::Sprint,
    Mode::Ultra,
    Mode::Zen,
];

/// A mode's name as players know it.
pub fn mode_title(mode: Mode) -> &'static str {
    match mode {
        Mode::Marathon { endless: false } => "Marathon",
        Mode::Marathon { endless: true } => "Marathon endless",
        Mode::Sprint => "Sprint 40 lines",
        Mode::Ultra => "Ultra 2 minutes",
        Mode::Zen => "Zen",
    }
}

/// A seed for a new game: the clock's nanoseconds, mixed (SplitMix64) so that games
/// started close together differ in every bit.
pub fn random_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut z = nanos.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The bot's suggestion for the piece in play.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hint {
    /// Where the piece should come to rest; `None` when nothing fits.
    pub piece: Option<ActivePiece>,
    /// Hold first, then place the piece that comes out.
    pub hold_first: bool,
}

/// Which piece a hint is for: pieces locked so far, the hold, the piece in play.
type PieceStamp = (u64, Option<PieceKind>, Option<PieceKind>);

/// Follows a game and keeps the bot's hint for its current piece, asking the
/// bot again only when a new piece is in play or the hold changed it (a
/// placement search is about 80 µs, too much for every frame).
#[derive(Default)]
pub struct HintTracker {
    bot: Option<Box<Bot>>,
    /// The hint, and which piece it is for.
    current: Option<(PieceStamp, Hint)>,
}

impl HintTracker {
    /// The hint for `game`'s piece in play; `None` when the game is over.
    pub fn update(&mut self, game: &Game) -> Option<Hint> {
        if !game.is_playing() {
            self.current = None;
            return None;
        }
        let for_piece = (
            game.pieces(),
            game.hold_piece(),
            game.active().map(|p| p.kind),
        );
        if let Some((seen, hint)) = self.current
            && seen == for_piece
        {
            return Some(hint);
        }
        let plan = self.bot().suggest(game);
        let hint = Hint {
            piece: plan.as_ref().map(|p| p.target),
            hold_first: plan.is_some_and(|p| p.hold),
        };
        self.current = Some((for_piece, hint));
        Some(hint)
    }

    /// Forgets the hint (hints switched off).
    pub fn clear(&mut self) {
        self.current = None;
    }

    /// The bot itself, made on first use (the terminal's demo plays with it).
    pub fn bot(&mut self) -> &mut Bot {
        self.bot.get_or_insert_with(|| Box::new(Bot::new()))
    }
}
