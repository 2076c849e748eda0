//! The workers that carry out one Xiangqi session's engine orders: the
//! game's own engine, or in a game between engines one worker per seat
//! (Ludus with its own strength and tables, or a configured UCI/UCCI engine
//! as a child process), started on its first search. Both front ends use
//! it, so an order reaches the same worker from either.

use std::sync::{Arc, mpsc};
use std::thread;

use xiangqi::Color;

use crate::engine_worker::{EngineThread, Event, Job, Setting};
use crate::external_engine::{EngineWorker, ExternalEngine, ExternalSpec};
use crate::session::xiangqi::flow;
use crate::session::xiangqi::watch::engine_name;
use crate::session::xiangqi::{EngineOrder, SearchOrder, Seat};

/// Where every worker's events go.
type Sink = Arc<dyn Fn(Event) + Send + Sync>;

/// One session's engine workers.
pub struct EngineSeats {
    sink: Sink,
    /// The game's engine (moves against a player, hints, analysis).
    main: Option<EngineThread>,
    /// Red's and Black's workers in a game between engines.
    seats: [Option<Box<dyn EngineWorker>>; 2],
}

impl EngineSeats {
    /// No worker runs until the first search; `sink` hears every event.
    pub fn new(sink: impl Fn(Event) + Send + Sync + 'static) -> EngineSeats {
        EngineSeats {
            sink: Arc::new(sink),
            main: None,
            seats: [None, None],
        }
    }

    /// Carries out one order of the session.
    pub fn carry_out(&mut self, order: EngineOrder) {
        match order {
            EngineOrder::Search(order) => {
                let worker: &dyn EngineWorker = match &order.seat {
                    Some((side, seat)) => self.seat(*side, seat),
                    None => self.main(),
                };
                SearchOrder::send_to(*order, worker);
            }
            // The search ends; the session drops a cancelled one's answer.
            EngineOrder::Cancel | EngineOrder::Hurry => self.stop(),
        }
    }

    /// Stops every running search.
    pub fn stop(&self) {
        if let Some(main) = &self.main {
            main.stop();
        }
        for worker in self.seats.iter().flatten() {
            worker.stop();
        }
    }

    /// Whether any worker has started.
    pub fn started(&self) -> bool {
        self.main.is_some() || self.seats.iter().any(Option::is_some)
    }

    fn main(&mut self) -> &EngineThread {
        let sink = Arc::clone(&self.sink);
        self.main.get_or_insert_with(|| start(sink))
    }

    fn seat(&mut self, side: Color, seat: &Seat) -> &dyn EngineWorker {
        let sink = Arc::clone(&self.sink);
        let worker = self.seats[side.index()].get_or_insert_with(|| -> Box<dyn EngineWorker> {
            match seat {
                Seat::Ludus { .. } => Box::new(start(sink)),
                Seat::External { command } => Box::new(Starting::spawn(command.clone(), sink)),
            }
        });
        &**worker
    }
}

/// What the thread of a configured engine is asked to do.
enum Command {
    Job(Job),
    Stop,
}

/// A configured engine started off the caller's thread (its handshake can
/// take seconds): jobs wait in order until it is up; if it cannot start,
/// each search fails with the reason. Dropped, the engine is shut down.
struct Starting {
    commands: mpsc::Sender<Command>,
}

impl Starting {
    fn spawn(command: String, sink: Sink) -> Starting {
        let (commands, received) = mpsc::channel::<Command>();
        thread::spawn(move || {
            let events = Arc::clone(&sink);
            match ExternalEngine::spawn(&ExternalSpec::new(command.clone()), move |e| events(e)) {
                Ok(engine) => {
                    for c in received {
                        match c {
                            Command::Job(job) => engine.send(job),
                            Command::Stop => engine.stop(),
                        }
                    }
                    engine.shutdown();
                }
                Err(e) => {
                    let message = format!("{} could not be started: {e:#}", engine_name(&command));
                    for c in received {
                        if let Command::Job(Job::Search(job)) = c {
                            sink(Event::Failed {
                                id: job.id,
                                message: message.clone(),
                            });
                        }
                    }
                }
            }
        });
        Starting { commands }
    }
}

impl EngineWorker for Starting {
    fn send(&self, job: Job) {
        let _ = self.commands.send(Command::Job(job));
    }

    fn stop(&self) {
        let _ = self.commands.send(Command::Stop);
    }

    fn shutdown(&self) {}

    fn is_busy(&self) -> bool {
        false
    }
}

/// A worker whose events go to `sink`, seeded so that games from the same
/// position differ (the engine has no RNG of its own).
fn start(sink: Sink) -> EngineThread {
    let thread = EngineThread::spawn(move |event| sink(event));
    thread.send(Job::Configure(Setting::Seed(flow::engine_seed())));
    thread
}
