//! The workers that carry out one Xiangqi session's engine orders: the
//! game's own engine, or in a game between engines one worker per seat
//! (each with its own strength and tables), started on its first search.
//! Both front ends use it, so an order reaches the same worker from either.

use std::sync::Arc;

use xiangqi::Color;

use crate::engine_worker::{EngineThread, Event, Job, Setting};
use crate::session::xiangqi::flow;
use crate::session::xiangqi::{EngineOrder, SearchOrder};

/// Where every worker's events go.
type Sink = Arc<dyn Fn(Event) + Send + Sync>;

/// One session's engine workers.
pub struct EngineSeats {
    sink: Sink,
    /// The game's engine (moves against a player, hints, analysis).
    main: Option<EngineThread>,
    /// Red's and Black's workers in a game between engines.
    seats: [Option<EngineThread>; 2],
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
                let worker = match &order.seat {
                    Some((side, _)) => self.seat(*side),
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
        for worker in self.main.iter().chain(self.seats.iter().flatten()) {
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

    fn seat(&mut self, side: Color) -> &EngineThread {
        let sink = Arc::clone(&self.sink);
        self.seats[side.index()].get_or_insert_with(|| start(sink))
    }
}

/// A worker whose events go to `sink`, seeded so that games from the same
/// position differ (the engine has no RNG of its own).
fn start(sink: Sink) -> EngineThread {
    let thread = EngineThread::spawn(move |event| sink(event));
    thread.send(Job::Configure(Setting::Seed(flow::engine_seed())));
    thread
}
