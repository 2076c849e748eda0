//! The engine on a worker thread, shared by the protocols, the match runner's
//! own tests and the terminal UI: jobs go in through a channel, events come out
//! through a sink the owner chooses (formatted lines for UCI/UCCI, a channel the
//! TUI polls). Each search has its own stop flag, so stopping one search never
//! lets it run on into the next (nor stops the next); the clock is read here,
//! never in the pure crate.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use xiangqi::engine::{Engine, Limits, Score, SearchInfo, SearchResult};
use xiangqi::{Game, Move, Position, perft, perft_divide};

/// One search to run.
pub struct SearchJob {
    /// Chosen by the owner, returned with every event of this search.
    pub id: u64,
    pub game: Game,
    pub limits: Limits,
    /// Keep the result until stopped (UCI `go infinite` must not answer early).
    pub hold: bool,
    /// When the search was asked for: time limits count from here.
    pub started: Instant,
}

/// Engine settings that persist across searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    Hash(usize),
    Skill(u8),
    OwnBook(bool),
    /// Seeds book choices and skill noise.
    Seed(u64),
    /// Forget the previous game (transposition table, history).
    NewGame,
}

pub enum Job {
    Search(Box<SearchJob>),
    Perft { position: Box<Position>, depth: u32 },
    Configure(Setting),
}

/// What the worker reports.
#[derive(Clone, Debug)]
pub enum Event {
    /// A completed iteration.
    Info { id: u64, info: SearchInfo },
    /// The search ended (limits reached or stopped).
    Done {
        id: u64,
        result: SearchResult,
        elapsed_ms: u64,
    },
    /// Perft counts per first move (generation order) and the total.
    Perft {
        divide: Vec<(Move, u64)>,
        total: u64,
        elapsed_ms: u64,
    },
}

/// Counts jobs sent but not finished, so owners can wait for quiet.
type Pending = Arc<(Mutex<usize>, Condvar)>;

/// A worker thread owning an [`Engine`].
pub struct EngineThread {
    jobs: Option<mpsc::Sender<(Job, Arc<AtomicBool>)>>,
    /// Stop flags of the searches sent and not stopped yet.
    flags: Mutex<Vec<Arc<AtomicBool>>>,
    pending: Pending,
    handle: Option<thread::JoinHandle<()>>,
}

impl EngineThread {
    /// Starts the worker; `sink` hears every event, on the worker thread.
    pub fn spawn(sink: impl FnMut(Event) + Send + 'static) -> EngineThread {
        let (tx, rx) = mpsc::channel();
        let pending: Pending = Arc::new((Mutex::new(0), Condvar::new()));
        let handle = {
            let pending = Arc::clone(&pending);
            thread::spawn(move || worker(rx, pending, sink))
        };
        EngineThread {
            jobs: Some(tx),
            flags: Mutex::new(Vec::new()),
            pending,
            handle: Some(handle),
        }
    }

    /// Queues a job. A `stop` after this call ends the search even if the
    /// worker has not started it yet.
    pub fn send(&self, job: Job) {
        let flag = Arc::new(AtomicBool::new(false));
        if matches!(job, Job::Search(_)) {
            let mut flags = lock(&self.flags);
            // Flags only the caller still holds belong to finished searches.
            flags.retain(|f| Arc::strong_count(f) > 1);
            flags.push(Arc::clone(&flag));
        }
        let Some(tx) = &self.jobs else { return };
        *lock(&self.pending.0) += 1;
        if tx.send((job, flag)).is_err() {
            // The worker is gone (it panicked): nothing will run, so nothing is pending.
            *lock(&self.pending.0) = 0;
        }
    }

    /// Asks the running and queued searches to finish now; they still report
    /// their results.
    pub fn stop(&self) {
        for flag in lock(&self.flags).drain(..) {
            flag.store(true, Ordering::SeqCst);
        }
    }

    /// Whether jobs are queued or running.
    pub fn is_busy(&self) -> bool {
        *lock(&self.pending.0) > 0
    }

    /// Blocks until every queued job has finished and reported.
    pub fn wait_idle(&self) {
        let (count, cond) = &*self.pending;
        let mut n = lock(count);
        while *n > 0 {
            n = cond.wait(n).unwrap_or_else(PoisonError::into_inner);
        }
    }
}

impl Drop for EngineThread {
    fn drop(&mut self) {
        self.stop();
        self.jobs = None; // closes the channel: the worker ends after its job
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn worker(
    rx: mpsc::Receiver<(Job, Arc<AtomicBool>)>,
    pending: Pending,
    mut sink: impl FnMut(Event),
) {
    let mut engine = Engine::new(16);
    while let Ok((job, stop)) = rx.recv() {
        match job {
            Job::Search(job) => {
                let started = job.started;
                let elapsed = move || started.elapsed().as_millis() as u64;
                let id = job.id;
                let result = engine.search(&job.game, &job.limits, &stop, &elapsed, &mut |info| {
                    sink(Event::Info {
                        id,
                        info: info.clone(),
                    })
                });
                while job.hold && !stop.load(Ordering::SeqCst) {
                    thread::sleep(Duration::from_millis(2));
                }
                sink(Event::Done {
                    id,
                    result,
                    elapsed_ms: elapsed(),
                });
            }
            Job::Perft { position, depth } => {
                let started = Instant::now();
                let mut pos = *position;
                let divide = perft_divide(&mut pos, depth);
                let total = if depth == 0 {
                    perft(&mut pos, 0)
                } else {
                    divide.iter().map(|(_, n)| n).sum()
                };
                sink(Event::Perft {
                    divide,
                    total,
                    elapsed_ms: started.elapsed().as_millis() as u64,
                });
            }
            Job::Configure(setting) => match setting {
                Setting::Hash(mb) => engine.set_hash(mb),
                Setting::Skill(level) => engine.set_skill_level(level),
                Setting::OwnBook(on) => engine.set_own_book(on),
                Setting::Seed(seed) => engine.set_book_seed(seed),
                Setting::NewGame => engine.clear(),
            },
        }
        let (count, cond) = &*pending;
        let mut n = lock(count);
        *n = n.saturating_sub(1);
        cond.notify_all();
    }
}

/// A score as one comparable number (mates beyond every centipawn score).
pub fn score_value(score: Score) -> i32 {
    match score {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => 30_000 - n,
        Score::Mate(n) => -30_000 - n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect() -> (EngineThread, mpsc::Receiver<Event>) {
        let (tx, rx) = mpsc::channel();
        let engine = EngineThread::spawn(move |e| {
            let _ = tx.send(e);
        });
        (engine, rx)
    }

    fn done(rx: &mpsc::Receiver<Event>) -> SearchResult {
        loop {
            match rx.recv_timeout(Duration::from_secs(30)) {
                Ok(Event::Done { result, .. }) => return result,
                Ok(_) => {}
                Err(e) => panic!("no result: {e}"),
            }
        }
    }

    fn job(game: Game, limits: Limits, hold: bool) -> Job {
        Job::Search(Box::new(SearchJob {
            id: 1,
            game,
            limits,
            hold,
            started: Instant::now(),
        }))
    }

    #[test]
    fn a_stop_is_not_undone_by_the_next_search() {
        let (engine, rx) = collect();
        engine.send(Job::Configure(Setting::OwnBook(false)));
        let started = Instant::now();
        engine.send(job(Game::new(), Limits::movetime(20_000), false));
        engine.stop();
        engine.send(job(Game::new(), Limits::depth(2), false));
        assert!(done(&rx).best.is_some());
        assert!(done(&rx).best.is_some());
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the first search ran on"
        );
    }

    #[test]
    fn infinite_search_waits_for_stop() {
        let (engine, rx) = collect();
        engine.send(Job::Configure(Setting::OwnBook(false)));
        engine.send(job(Game::new(), Limits::depth(1), true));
        thread::sleep(Duration::from_millis(100));
        assert!(
            !rx.try_iter().any(|e| matches!(e, Event::Done { .. })),
            "held until stopped"
        );
        engine.stop();
        assert!(done(&rx).best.is_some());
        engine.wait_idle();
        assert!(!engine.is_busy());
    }
}
