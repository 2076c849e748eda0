//! `ludus tetris versus`: headless versus games between two of Ludus's bots, for
//! measurement. Each game is a [`VersusSession`] (the one the terminal plays), run in
//! steps of game time until someone tops out or either side reaches the piece limit.
//! A side may be a TBP bot run as a child process instead (one process per game).

use std::io::Write;

use anyhow::Result;
use tetris::Settings;
use tetris::versus::{Outcome, Player};

use crate::session::tetris::versus::{BotLevel, BotStrength, Lookahead, Pace, Side, VersusSession};

/// Game time each step of a headless game covers (the result does not depend on it).
const STEP_MS: u64 = 10_000;

/// What `ludus tetris versus` runs.
#[derive(Clone, Debug, PartialEq)]
pub struct VersusRun {
    /// How many games (seeds S, S+1, …).
    pub games: u64,
    /// Seed of the first game.
    pub seed: u64,
    /// Each side's bot level.
    pub levels: [BotLevel; 2],
    /// Each side's look-ahead (Ludus's bot only).
    pub lookaheads: [Lookahead; 2],
    /// Pieces per second for both bots, instead of their levels' pace.
    pub pps: Option<f64>,
    /// A game stops, as a draw, when either side has locked this many pieces.
    pub max_pieces: u64,
    /// Each side's TBP bot command, instead of Ludus's bot.
    pub commands: [Option<String>; 2],
    /// Real time a TBP bot thinks on each position, in milliseconds.
    pub think_ms: u64,
}

/// One headless game's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct VersusGame {
    pub seed: u64,
    /// `None` when the piece limit stopped the game.
    pub outcome: Option<Outcome>,
    pub pieces: [u64; 2],
    pub attack: [u32; 2],
    /// Why a side lost outside the rules (its TBP bot failed).
    pub forfeits: [Option<String>; 2],
}

impl VersusGame {
    fn attack_per_piece(&self, player: Player) -> f64 {
        per_piece(
            u64::from(self.attack[player.index()]),
            self.pieces[player.index()],
        )
    }
}

fn per_piece(attack: u64, pieces: u64) -> f64 {
    if pieces == 0 {
        0.0
    } else {
        attack as f64 / pieces as f64
    }
}

/// Plays one game of `run` dealt from `seed`.
pub fn versus_game(run: &VersusRun, seed: u64) -> VersusGame {
    let sides = [0, 1].map(|index| {
        let pace = match run.pps {
            Some(pps) => Pace::per_second(pps),
            None => run.levels[index].pace(),
        };
        match &run.commands[index] {
            Some(command) => Side::Tbp {
                command: command.clone(),
                pace,
                think_ms: run.think_ms,
                live: false,
            },
            None => Side::Bot(BotStrength {
                pace,
                lookahead: run.lookaheads[index],
            }),
        }
    });
    let mut session =
        VersusSession::new(sides, Settings::default(), seed).with_piece_limit(run.max_pieces);
    let mut now_ms = 0;
    while !session.is_finished() {
        now_ms += STEP_MS;
        session.update(now_ms, &[]);
    }
    VersusGame {
        seed,
        outcome: session.outcome(),
        pieces: Player::BOTH.map(|p| session.game(p).pieces()),
        attack: Player::BOTH.map(|p| session.stats(p).core.garbage.attack),
        forfeits: Player::BOTH.map(|p| session.forfeit(p).map(str::to_owned)),
    }
}

fn describe(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Winner(Player::One)) => "bot 1 wins",
        Some(Outcome::Winner(Player::Two)) => "bot 2 wins",
        Some(Outcome::Draw) => "draw (both topped out)",
        None => "draw (piece limit)",
    }
}

/// One line per game as it finishes, then the draws, then `wins A-B, APP x / y` (attack
/// per piece over all games).
pub fn versus_games(run: &VersusRun, out: &mut impl Write) -> Result<()> {
    let mut wins = [0u64; 2];
    let mut draws = 0u64;
    let mut pieces = [0u64; 2];
    let mut attack = [0u64; 2];
    for index in 0..run.games {
        let game = versus_game(run, run.seed.wrapping_add(index));
        writeln!(
            out,
            "game {} seed {}: {}, pieces {} / {}, APP {:.2} / {:.2}",
            index + 1,
            game.seed,
            describe(game.outcome),
            game.pieces[0],
            game.pieces[1],
            game.attack_per_piece(Player::One),
            game.attack_per_piece(Player::Two),
        )?;
        for (player, reason) in Player::BOTH.iter().zip(&game.forfeits) {
            if let Some(reason) = reason {
                writeln!(out, "  bot {} loses: {reason}", player.index() + 1)?;
            }
        }
        out.flush()?;
        match game.outcome {
            Some(Outcome::Winner(player)) => wins[player.index()] += 1,
            Some(Outcome::Draw) | None => draws += 1,
        }
        for player in Player::BOTH {
            pieces[player.index()] += game.pieces[player.index()];
            attack[player.index()] += u64::from(game.attack[player.index()]);
        }
    }
    writeln!(out, "draws {draws}")?;
    writeln!(
        out,
        "wins {}-{}, APP {:.2} / {:.2}",
        wins[0],
        wins[1],
        per_piece(attack[0], pieces[0]),
        per_piece(attack[1], pieces[1]),
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_bounded_and_deterministic() {
        let run = VersusRun {
            games: 2,
            seed: 3,
            levels: [BotLevel::Unlimited, BotLevel::Unlimited],
            lookaheads: [Lookahead::BEST, Lookahead::Classic],
            pps: None,
            max_pieces: 200,
            commands: [None, None],
            think_ms: 0,
        };
        let mut first = Vec::new();
        versus_games(&run, &mut first).unwrap();
        let mut second = Vec::new();
        versus_games(&run, &mut second).unwrap();
        assert_eq!(first, second);
        let game = versus_game(&run, 3);
        assert!(game.pieces.iter().all(|&p| p <= 200));
    }
}
