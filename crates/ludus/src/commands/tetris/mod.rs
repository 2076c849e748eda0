//! `ludus tetris …`: play (the menu, or a mode straight away), run a sim script, run the bot
//! headless, run headless versus games, watch a replay.

mod tbp;
mod versus;

pub use tbp::serve_tbp;
pub use versus::{VersusGame, VersusRun, versus_game, versus_games};

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use tetris::bot::{Bot, apply_move};
use tetris::{Game, Mode, Settings, SoftDrop};

use crate::session::tetris::versus::{BotLevel, Lookahead};
use crate::store::{DataDir, limits, tetris as store};
use crate::tui::tetris::game::GameScreen;
use crate::tui::tetris::menu::Menu;
use crate::tui::{self, Start};

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct TetrisArgs {
    #[command(subcommand)]
    pub command: Option<TetrisCommand>,

    /// Start a game of this mode straight away (default: the Tetris menu).
    #[arg(long, value_enum)]
    pub mode: Option<ModeArg>,

    /// Seed of the first game, to play a given piece sequence again.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Configure a Tetris Bot Protocol bot by its command line (repeatable): the versus
    /// set-up then offers it as an opponent, here and in the browser.
    #[arg(long, value_name = "CMD")]
    pub tbp_bot: Vec<String>,
}

#[derive(Debug, Subcommand)]
pub enum TetrisCommand {
    /// Run a script of timestamped inputs through the engine; print the final state as JSON.
    Sim {
        /// Seed of the 7-bag randomiser.
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        /// The script (`-` reads standard input). One input per line: `0 left`,
        /// `120 rotate_cw`, `hold`, `500 hard_drop`, …
        #[arg(long, value_name = "FILE|-")]
        script: PathBuf,
    },
    /// Let the placement bot play headless games; print lines, score, pieces and speed.
    Bot {
        /// How many games (seeds S, S+1, …).
        #[arg(long, value_name = "N", default_value_t = 10)]
        games: u64,
        /// Seed of the first game.
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        /// Stop each game after this many pieces.
        #[arg(long, value_name = "P", default_value_t = 1_000_000)]
        pieces: u64,
    },
    /// Let two of Ludus's bots play headless versus games; print one line per game
    /// (winner, pieces and attack per piece of each side), the draws, and a last line
    /// `wins A-B, APP x / y`. Each bot looks ahead as --botN-lookahead says. Either side can
    /// be any Tetris Bot Protocol bot instead (`--bot1-command`, `--bot2-command`).
    Versus {
        /// How many games (seeds S, S+1, …).
        #[arg(long, value_name = "N", default_value_t = 10)]
        games: u64,
        /// Seed of the first game.
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        /// Bot 1's level: easy (0.5 PPS), medium (1), hard (2), expert (3) or unlimited.
        #[arg(long, value_name = "LEVEL", default_value = "hard", value_parser = parse_level)]
        bot1: BotLevel,
        /// Bot 2's level (as --bot1).
        #[arg(long, value_name = "LEVEL", default_value = "hard", value_parser = parse_level)]
        bot2: BotLevel,
        /// How many next pieces bot 1 looks ahead: 0 (the piece in play only) to 6, or
        /// `classic` (the one-piece evaluator without search).
        #[arg(long, value_name = "N", default_value = "5", value_parser = parse_lookahead)]
        bot1_lookahead: Lookahead,
        /// Bot 2's look-ahead (as --bot1-lookahead).
        #[arg(long, value_name = "N", default_value = "5", value_parser = parse_lookahead)]
        bot2_lookahead: Lookahead,
        /// Pieces per second for both bots, instead of their levels' pace.
        #[arg(long, value_name = "P", value_parser = parse_pps)]
        pps: Option<f64>,
        /// A game stops as a draw when either side has locked this many pieces.
        #[arg(long, value_name = "MAX", default_value_t = 2_000)]
        pieces: u64,
        /// Side 1 is this TBP bot (a shell command speaking TBP on stdin/stdout), at
        /// --bot1's pace (or --pps).
        #[arg(long, value_name = "CMD")]
        bot1_command: Option<String>,
        /// Side 2 is this TBP bot, at --bot2's pace (or --pps).
        #[arg(long, value_name = "CMD")]
        bot2_command: Option<String>,
        /// The same as --bot2-command.
        #[arg(long, value_name = "CMD", conflicts_with = "bot2_command")]
        bot_command: Option<String>,
        /// Real time, in milliseconds, a TBP bot thinks on each position before it is
        /// asked for its move (games run faster than real time otherwise).
        #[arg(long, value_name = "MS", default_value_t = 0)]
        think_ms: u64,
    },
    /// Serve Ludus's bot over the Tetris Bot Protocol on standard input and output
    /// (JSON lines: info, then rules → ready, start, suggest → suggestion, play,
    /// new_piece, stop, quit), for other Tetris front ends.
    Tbp,
    /// Watch a saved replay (Space pause, + − speed, ← → seek, q quit).
    Replay {
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
}

/// The modes as command-line values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    Marathon,
    MarathonEndless,
    Sprint,
    Ultra,
    Zen,
}

impl ModeArg {
    pub fn mode(self) -> Mode {
        match self {
            ModeArg::Marathon => Mode::Marathon { endless: false },
            ModeArg::MarathonEndless => Mode::Marathon { endless: true },
            ModeArg::Sprint => Mode::Sprint,
            ModeArg::Ultra => Mode::Ultra,
            ModeArg::Zen => Mode::Zen,
        }
    }
}

pub fn run(data: DataDir, args: TetrisArgs) -> Result<ExitCode> {
    match args.command {
        None => {
            super::configure_programs(&data, &args.tbp_bot, "bot", "--tbp-bot", |s| {
                &mut s.tetris.bots
            })?;
            let (mode, seed) = (args.mode.map(ModeArg::mode), args.seed);
            let open: tui::OpenScreen = Box::new(move |ctx| match mode {
                Some(mode) => Box::new(Menu::starting(ctx, seed, mode)),
                None => Box::new(Menu::new(ctx, seed)),
            });
            tui::run(data, Start::Screen(open))
        }
        Some(TetrisCommand::Sim { seed, script }) => {
            let text = read_script(&script)?;
            let snapshot = tetris::script::simulate(seed, &text)
                .with_context(|| format!("{}", script.display()))?;
            writeln!(std::io::stdout().lock(), "{}", snapshot.to_json())?;
            Ok(ExitCode::SUCCESS)
        }
        Some(TetrisCommand::Bot {
            games,
            seed,
            pieces,
        }) => {
            bot_games(games, seed, pieces, &mut std::io::stdout().lock())?;
            Ok(ExitCode::SUCCESS)
        }
        Some(TetrisCommand::Versus {
            games,
            seed,
            bot1,
            bot2,
            bot1_lookahead,
            bot2_lookahead,
            pps,
            pieces,
            bot1_command,
            bot2_command,
            bot_command,
            think_ms,
        }) => {
            let run = VersusRun {
                games,
                seed,
                levels: [bot1, bot2],
                lookaheads: [bot1_lookahead, bot2_lookahead],
                pps,
                max_pieces: pieces,
                commands: [bot1_command, bot2_command.or(bot_command)],
                think_ms,
            };
            versus_games(&run, &mut std::io::stdout().lock())?;
            Ok(ExitCode::SUCCESS)
        }
        Some(TetrisCommand::Tbp) => {
            serve_tbp(std::io::stdin().lock(), &mut std::io::stdout().lock())?;
            Ok(ExitCode::SUCCESS)
        }
        Some(TetrisCommand::Replay { file }) => {
            // Checked before the terminal is taken over, so a refusal is a plain message.
            let replay = store::read_replay(&file)?;
            let open: tui::OpenScreen =
                Box::new(move |ctx| Box::new(GameScreen::watch(replay, ctx)));
            tui::run(data, Start::Screen(open))
        }
    }
}

fn parse_lookahead(text: &str) -> Result<Lookahead, String> {
    Lookahead::from_name(text).ok_or_else(|| {
        format!(
            "unknown look-ahead {text:?}: use classic or a number from 0 to {}",
            Lookahead::MAX
        )
    })
}

fn parse_level(text: &str) -> Result<BotLevel, String> {
    BotLevel::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = BotLevel::ALL.iter().map(|l| l.name()).collect();
        format!("unknown bot level (one of {})", names.join(", "))
    })
}

fn parse_pps(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(pps) if pps.is_finite() && pps > 0.0 && pps <= 100.0 => Ok(pps),
        _ => Err("pieces per second must be a number above 0, at most 100".to_owned()),
    }
}

fn read_script(path: &Path) -> Result<String> {
    if path == Path::new("-") {
        let bytes = limits::read_at_most(std::io::stdin(), limits::MAX_REPLAY_BYTES)
            .context("cannot read the script from standard input")?;
        String::from_utf8(bytes).context("the script on standard input is not UTF-8 text")
    } else {
        limits::read_text(path, limits::MAX_REPLAY_BYTES)
            .with_context(|| format!("cannot read the script {}", path.display()))
    }
}

/// One headless game's figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BotGame {
    pub seed: u64,
    pub lines: u32,
    pub score: u64,
    pub pieces: u64,
    pub topped_out: bool,
    /// Time spent choosing placements (playing them is the engine's work).
    pub thinking: Duration,
}

/// Plays one endless Marathon game with the bot (instant soft drop; each piece's inputs at
/// one instant, so gravity never interferes) until it tops out or places `max_pieces`.
pub fn bot_game(bot: &mut Bot, seed: u64, max_pieces: u64) -> BotGame {
    let settings = Settings {
        soft_drop: SoftDrop::Instant,
        ..Settings::default()
    };
    let mut game = Game::new(Mode::Marathon { endless: true }, settings, seed);
    let mut thinking = Duration::ZERO;
    while game.is_playing() && game.pieces() < max_pieces {
        let started = Instant::now();
        let plan = bot.suggest(&game);
        thinking += started.elapsed();
        let Some(plan) = plan else { break };
        for &step in &plan.moves {
            apply_move(&mut game, step);
        }
    }
    BotGame {
        seed,
        lines: game.lines(),
        score: game.score(),
        pieces: game.pieces(),
        topped_out: game.topped_out(),
        thinking,
    }
}

fn rate(pieces: u64, thinking: Duration) -> f64 {
    pieces as f64 / thinking.as_secs_f64().max(1e-9)
}

/// `ludus tetris bot`: one line per game as it finishes, then the averages.
pub fn bot_games(games: u64, seed: u64, pieces: u64, out: &mut impl Write) -> Result<()> {
    let mut bot = Bot::new();
    let (mut lines, mut placed, mut topped, mut thinking) = (0u64, 0u64, 0u64, Duration::ZERO);
    for index in 0..games {
        let seed = seed.wrapping_add(index);
        let game = bot_game(&mut bot, seed, pieces);
        writeln!(
            out,
            "game {} seed {}: lines {} score {} pieces {} topped_out {} placements/s {:.0}",
            index + 1,
            game.seed,
            game.lines,
            game.score,
            game.pieces,
            if game.topped_out { "yes" } else { "no" },
            rate(game.pieces, game.thinking),
        )?;
        out.flush()?;
        lines += u64::from(game.lines);
        placed += game.pieces;
        topped += u64::from(game.topped_out);
        thinking += game.thinking;
    }
    let n = games.max(1) as f64;
    writeln!(
        out,
        "average over {games} games: lines {:.1} pieces {:.1} topped_out {topped} placements/s {:.0}",
        lines as f64 / n,
        placed as f64 / n,
        rate(placed, thinking),
    )?;
    Ok(())
}
