//! A TBP bot playing one versus side from its own thread, so that neither its launch
//! handshake nor its thinking ever holds up the front end that drives the session.
//!
//! The session asks for a move as soon as the side's position is known (right after its
//! previous piece locked and any garbage rose), so the bot thinks between its pieces; at
//! the side's due time the session takes the answer if it has come ([`TbpSeat::poll`]), or
//! waits for it when the game runs headless (`wait`). An answer about a position the
//! side has since left (garbage rose under it) is dropped and the bot asked again.
//!
//! The worker keeps the bot's idea of the position: it sends `start` when that idea is
//! not the game's, `new_piece` for pieces the game revealed after a move, and `play` for
//! the move it chose; Ludus's bot finds the inputs that reach the move
//! ([`Bot::path_to`]).

use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::thread;
use std::time::Duration;

use tetris::Game;
use tetris::bot::{Bot, Plan};

use crate::protocol::tbp::{TbpPosition, cells_at, seven_bag_after, to_line};
use crate::tbp_bot::TbpBot;

/// What the worker tells the seat.
enum Answer {
    /// The bot answered `info` and `ready` (its name and version), or could not start.
    Launched(Result<String, String>),
    /// The bot's move in the position asked about, or why the side loses.
    Move {
        asked: TbpPosition,
        plan: Result<Plan, String>,
    },
}

/// What the side does at its due time.
#[derive(Debug)]
pub enum Turn {
    /// Play these inputs.
    Play(Plan),
    /// The answer has not come yet: try again later.
    Thinking,
    /// The bot failed (why): the side forfeits.
    Failed(String),
}

/// A TBP bot on a worker thread, and the question it was last asked.
pub struct TbpSeat {
    /// Positions to answer; dropping it ends the worker and the bot's process.
    jobs: Option<Sender<Box<Game>>>,
    answers: Receiver<Answer>,
    /// The position of the question not yet answered.
    asked: Option<TbpPosition>,
    /// The bot's name once it started.
    name: Option<String>,
    /// Why the bot cannot go on, once it failed.
    failed: Option<String>,
}

impl TbpSeat {
    /// Starts `command` on a worker thread (the launch itself happens there). `think` is
    /// the real time the bot gets on each position before it is asked for a move.
    pub fn launch(command: &str, think: Duration) -> TbpSeat {
        let (jobs, inbox) = channel::<Box<Game>>();
        let (outbox, answers) = channel();
        let command = command.to_owned();
        let spawned = thread::Builder::new()
            .name("tbp-bot".into())
            .spawn(move || work(&command, think, &inbox, &outbox));
        let failed = spawned
            .err()
            .map(|e| format!("the TBP bot's thread could not start: {e}"));
        TbpSeat {
            jobs: Some(jobs),
            answers,
            asked: None,
            name: None,
            failed,
        }
    }

    /// The bot's name and version, once it started.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Waits until the bot has started (headless runs report a bad command at once).
    ///
    /// # Errors
    /// Why the bot could not start.
    pub fn wait_launched(&mut self) -> Result<(), String> {
        while self.name.is_none() && self.failed.is_none() {
            match self.answers.recv() {
                Ok(answer) => self.take(answer),
                Err(_) => self.fail("the TBP bot's thread ended"),
            }
        }
        self.failed.clone().map_or(Ok(()), Err)
    }

    /// Asks for a move in `game`'s position unless that question is already out.
    pub fn ask(&mut self, game: &Game) {
        if self.failed.is_some() {
            return;
        }
        let position = TbpPosition::of_game(game);
        if self.asked.as_ref() == Some(&position) {
            return;
        }
        let sent = self
            .jobs
            .as_ref()
            .is_some_and(|jobs| jobs.send(Box::new(game.clone())).is_ok());
        if sent {
            self.asked = Some(position);
        } else {
            self.fail("the TBP bot's thread ended");
        }
    }

    /// The side's move in `game` if its answer has come (asking first if need be);
    /// with `wait`, blocks until it comes (the bot's own time-outs bound the wait).
    pub fn poll(&mut self, game: &Game, wait: bool) -> Turn {
        self.ask(game);
        let position = TbpPosition::of_game(game);
        loop {
            if let Some(why) = &self.failed {
                return Turn::Failed(why.clone());
            }
            let received = if wait {
                self.answers.recv().map_err(|_| TryRecvError::Disconnected)
            } else {
                self.answers.try_recv()
            };
            match received {
                Ok(Answer::Move { asked, plan }) => {
                    if self.asked.as_ref() == Some(&asked) {
                        self.asked = None;
                    }
                    match plan {
                        Err(why) => self.fail(&why),
                        // An answer about a position left behind is dropped.
                        Ok(plan) if asked == position => return Turn::Play(plan),
                        Ok(_) => self.ask(game),
                    }
                }
                Ok(answer) => self.take(answer),
                Err(TryRecvError::Empty) => return Turn::Thinking,
                Err(TryRecvError::Disconnected) => self.fail("the TBP bot's thread ended"),
            }
        }
    }

    fn take(&mut self, answer: Answer) {
        match answer {
            Answer::Launched(Ok(name)) => self.name = Some(name),
            Answer::Launched(Err(why)) => self.fail(&why),
            Answer::Move { .. } => {}
        }
    }

    fn fail(&mut self, why: &str) {
        if self.failed.is_none() {
            self.failed = Some(why.to_owned());
        }
        // The worker ends and stops the bot's process.
        self.jobs = None;
    }
}

/// The worker: launches the bot, then answers positions until the seat is dropped or the
/// bot fails. Only the newest of several waiting positions is answered.
fn work(command: &str, think: Duration, inbox: &Receiver<Box<Game>>, outbox: &Sender<Answer>) {
    let mut process = match TbpBot::launch(command, think) {
        Ok(process) => {
            let _ = outbox.send(Answer::Launched(Ok(process.name().to_owned())));
            process
        }
        Err(e) => {
            let _ = outbox.send(Answer::Launched(Err(e.to_string())));
            return;
        }
    };
    let mut told: Option<TbpPosition> = None;
    let mut paths = Bot::new();
    while let Ok(mut game) = inbox.recv() {
        while let Ok(newer) = inbox.try_recv() {
            game = newer;
        }
        let plan = tbp_move(&mut process, &mut told, &mut paths, &game);
        let failed = plan.is_err();
        let answer = Answer::Move {
            asked: TbpPosition::of_game(&game),
            plan,
        };
        if outbox.send(answer).is_err() || failed {
            return;
        }
    }
}

/// Asks the bot for its move in `game` and turns the first reachable one into inputs;
/// the bot is told the move played. Pieces the game revealed since the bot's last move
/// are sent as `new_piece`; when the bot's idea of the position is still not the game's
/// (garbage rose, or the bot was never told), it gets a `start`. The error is why the
/// side loses.
fn tbp_move(
    process: &mut TbpBot,
    told: &mut Option<TbpPosition>,
    paths: &mut Bot,
    game: &Game,
) -> Result<Plan, String> {
    let now = TbpPosition::of_game(game);
    if let Some(position) = told.as_mut()
        && now.queue.len() > position.queue.len()
        && now.queue.iter().zip(&position.queue).all(|(a, b)| a == b)
    {
        for &piece in now.queue.iter().skip(position.queue.len()) {
            process.new_piece(piece).map_err(|e| e.to_string())?;
            position.queue.push_back(piece);
        }
    }
    if told.as_ref().is_none_or(|told| !told.same_play(&now)) {
        process
            .start(now.to_start(seven_bag_after(game)))
            .map_err(|e| e.to_string())?;
        *told = Some(now);
    }
    let moves = process.suggest().map_err(|e| e.to_string())?;
    let chosen = moves.iter().find_map(|mv| {
        let cells = cells_at(&mv.location)?;
        Some((*mv, paths.path_to(game, mv.location.kind, cells)?))
    });
    let Some((mv, plan)) = chosen else {
        return Err(match moves.first() {
            None => String::from("the TBP bot suggested no move (it forfeits)"),
            Some(first) => format!(
                "none of the TBP bot's {} suggested moves can be played (first: {})",
                moves.len(),
                to_line(first)
            ),
        });
    };
    if let Some(position) = told.as_mut()
        && position.play(&mv).is_err()
    {
        *told = None;
    }
    process.play(mv).map_err(|e| e.to_string())?;
    Ok(plan)
}
