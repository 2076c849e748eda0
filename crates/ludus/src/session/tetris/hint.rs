//! The bot's hint for the piece in play, asked again only when the piece changes.

use tetris::bot::Bot;
use tetris::{ActivePiece, Game, PieceKind};

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
