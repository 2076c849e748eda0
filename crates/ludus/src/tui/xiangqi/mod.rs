//! Xiangqi in the terminal: the set-up screen, the saved-games list and the
//! play screen (which also steps through loaded game records).

pub mod board;
pub mod games;
pub mod graph;
pub mod play;
pub mod setup;

use xiangqi::Game;
use xiangqi::pgn::PgnGame;

use super::app::{Ctx, Screen};
use play::{Opponent, Play};

// Strengths, clocks and notations are shared with the browser.
pub use crate::session::xiangqi::flow::{Budget, CLOCKS, LEVELS, Level, Notation, clock, level};

/// The set-up screen (new game against the engine or two players, saved games).
pub fn setup(ctx: &mut Ctx) -> Box<dyn Screen> {
    Box::new(setup::Setup::new(ctx))
}

/// Two players from a position (`ludus xiangqi --fen`).
pub fn two_players(ctx: &mut Ctx, game: Game) -> Box<dyn Screen> {
    Box::new(Play::new(game, Opponent::Humans, None, ctx))
}

/// A game record opened to step through from its first move
/// (`ludus xiangqi game.pgn`); play can continue from its end.
pub fn review(ctx: &mut Ctx, pgn: PgnGame, name: String) -> Box<dyn Screen> {
    let mut play = Play::from_record(&pgn, name, None, ctx);
    play.view_ply(0);
    Box::new(play)
}
