//! The engine on a worker thread, the one every front end uses: the UCI and
//! UCCI shells, the terminal UI and the web server. Jobs go in through a
//! channel, events come out through a sink the owner chooses (formatted lines
//! for UCI/UCCI, a channel the TUI polls, a task that answers the page). Each search and perft has its own stop flag, so stopping one
//! never lets it run on into the next (nor stops the next); the clock is read
//! here, never in the pure crate. Nothing here makes the owner wait for the
//! worker except [`EngineThread::wait_idle`].

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use xiangqi::engine::{Engine, HashError, Limits, Score, SearchInfo, SearchResult};
use xiangqi::{Game, Move, Position, perft_divide_until};

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
    /// Resize the transposition table to this many megabytes; if the memory
    /// cannot be had, the old table stays and [`Event::HashUnavailable`] says so.
    Hash(usize),
    Skill(u8),
    /// Lines each search reports (UCI `MultiPV`).
    MultiPv(usize),
    /// Search threads (UCI `Threads`).
    Threads(usize),
    OwnBook(bool),
    /// Use the endgame tables of the data dir, if generated.
    Tablebases(bool),
    /// Seeds book choices and skill noise.
    Seed(u64),
    /// Forget the previous game (transposition table, history).
    NewGame,
}

pub enum Job {
    Search(Box<SearchJob>),
    /// Stopped by [`EngineThread::stop`] like a search.
    Perft {
        position: Box<Position>,
        depth: u32,
    },
    Configure(Setting),
}

/// What the worker reports.
#[derive(Clone, Debug)]
pub enum Event {
    /// One line of a completed iteration ([`Setting::MultiPv`] lines each,
    /// best first).
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
    /// A perft was stopped before it finished: no counts.
    PerftStopped { elapsed_ms: u64 },
    /// A [`Setting::Hash`] could not be had; the table of `kept_mb` stays.
    HashUnavailable { requested_mb: usize, kept_mb: usize },
    /// The settings sent before an [`EngineThread::ready`] that answered
    /// `false` are now applied.
    Ready,
    /// The search `id` has no answer: an engine process crashed, timed out
    /// or answered with a move that is not legal (the message says which).
    Failed { id: u64, message: String },
}

/// Job counts shared by the owner and the worker.
#[derive(Default)]
struct State {
    /// Jobs sent and not finished, so owners can wait for quiet.
    pending: usize,
    /// Configure jobs sent, and finished (or skipped).
    configs_sent: u64,
    configs_done: u64,
    /// For each [`EngineThread::ready`] that answered `false`: how many
    /// configure jobs must be done before [`Event::Ready`] is sent.
    ready_at: VecDeque<u64>,
}

type Shared = Arc<(Mutex<State>, Condvar)>;

/// A worker thread owning an [`Engine`].
pub struct EngineThread {
    jobs: Option<mpsc::Sender<(Job, Arc<AtomicBool>)>>,
    /// Stop flags of the searches and perfts sent and not stopped yet.
    flags: Mutex<Vec<Arc<AtomicBool>>>,
    state: Shared,
    /// Set by [`EngineThread::shutdown`]: settings still queued are skipped
    /// and a table being filled is given up.
    closing: Arc<AtomicBool>,
    handle: Option<thread::JoinHandle<()>>,
}

impl EngineThread {
    /// Starts the worker; `sink` hears every event, on the worker thread.
    pub fn spawn(sink: impl FnMut(Event) + Send + 'static) -> EngineThread {
        let (tx, rx) = mpsc::channel();
        let state: Shared = Arc::new((Mutex::new(State::default()), Condvar::new()));
        let closing = Arc::new(AtomicBool::new(false));
        let handle = {
            let state = Arc::clone(&state);
            let closing = Arc::clone(&closing);
            thread::spawn(move || worker(rx, state, closing, sink))
        };
        EngineThread {
            jobs: Some(tx),
            flags: Mutex::new(Vec::new()),
            state,
            closing,
            handle: Some(handle),
        }
    }

    /// Queues a job; it never waits for the worker. A `stop` after this call
    /// ends the search or perft even if the worker has not started it yet.
    pub fn send(&self, job: Job) {
        let flag = Arc::new(AtomicBool::new(false));
        if matches!(job, Job::Search(_) | Job::Perft { .. }) {
            let mut flags = lock(&self.flags);
            // Flags only the caller still holds belong to finished jobs.
            flags.retain(|f| Arc::strong_count(f) > 1);
            flags.push(Arc::clone(&flag));
        }
        let Some(tx) = &self.jobs else { return };
        let configure = matches!(job, Job::Configure(_));
        {
            let mut state = lock(&self.state.0);
            state.pending += 1;
            state.configs_sent += u64::from(configure);
        }
        if tx.send((job, flag)).is_err() {
            // The worker is gone (it panicked): nothing will run, so nothing is pending.
            let mut state = lock(&self.state.0);
            state.pending = 0;
            state.configs_done = state.configs_sent;
            state.ready_at.clear();
        }
    }

    /// Asks the running and queued searches and perfts to finish now;
    /// searches still report their results.
    pub fn stop(&self) {
        for flag in lock(&self.flags).drain(..) {
            flag.store(true, Ordering::SeqCst);
        }
    }

    /// Stops everything for good: searches and perfts as [`Self::stop`] does,
    /// settings still queued are skipped and a table being filled is given
    /// up, so [`Self::wait_idle`] returns promptly.
    pub fn shutdown(&self) {
        self.closing.store(true, Ordering::SeqCst);
        self.stop();
    }

    /// Whether every setting sent so far is applied (a new hash table can
    /// take a while to fill). If not, the worker sends [`Event::Ready`] once
    /// they are, and the caller should answer then: searches are not waited for.
    pub fn ready(&self) -> bool {
        let mut state = lock(&self.state.0);
        if state.configs_done >= state.configs_sent {
            return true;
        }
        let at = state.configs_sent;
        state.ready_at.push_back(at);
        false
    }

    /// Whether jobs are queued or running.
    pub fn is_busy(&self) -> bool {
        lock(&self.state.0).pending > 0
    }

    /// Blocks until every queued job has finished and reported.
    pub fn wait_idle(&self) {
        let (state, cond) = &*self.state;
        let mut state = lock(state);
        while state.pending > 0 {
            state = cond.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
    }
}

impl Drop for EngineThread {
    fn drop(&mut self) {
        self.shutdown();
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
    state: Shared,
    closing: Arc<AtomicBool>,
    mut sink: impl FnMut(Event),
) {
    let mut engine = Engine::new(16);
    // Endgame tables, if generated (read once per process, on this thread).
    engine.set_tablebases(crate::store::tablebases::shared());
    while let Ok((job, stop)) = rx.recv() {
        let configure = matches!(job, Job::Configure(_));
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
                let counted = perft_divide_until(&mut pos, depth, &|| stop.load(Ordering::Relaxed));
                let elapsed_ms = started.elapsed().as_millis() as u64;
                sink(match counted {
                    Some(divide) => Event::Perft {
                        total: if depth == 0 {
                            1
                        } else {
                            divide.iter().map(|(_, n)| n).sum()
                        },
                        divide,
                        elapsed_ms,
                    },
                    None => Event::PerftStopped { elapsed_ms },
                });
            }
            // Quitting: a setting nobody will use is not worth a table fill.
            Job::Configure(_) if closing.load(Ordering::SeqCst) => {}
            Job::Configure(setting) => match setting {
                Setting::Hash(mb) => {
                    let cancel = || closing.load(Ordering::Relaxed);
                    if let Err(HashError::Unavailable { .. }) = engine.try_set_hash(mb, &cancel) {
                        sink(Event::HashUnavailable {
                            requested_mb: mb,
                            kept_mb: engine.hash_mb(),
                        });
                    }
                }
                Setting::Skill(level) => engine.set_skill_level(level),
                Setting::MultiPv(lines) => engine.set_multi_pv(lines),
                Setting::Threads(threads) => engine.set_threads(threads),
                Setting::OwnBook(on) => engine.set_own_book(on),
                Setting::Tablebases(on) => {
                    engine.set_tablebases(on.then(crate::store::tablebases::shared).flatten())
                }
                Setting::Seed(seed) => engine.set_book_seed(seed),
                Setting::NewGame => engine.clear(),
            },
        }
        let (state, cond) = &*state;
        if configure {
            let ready = {
                let mut state = lock(state);
                state.configs_done += 1;
                let done = state.configs_done;
                let n = state.ready_at.iter().take_while(|&&at| at <= done).count();
                state.ready_at.drain(..n);
                n
            };
            // Before the job counts as finished, so `wait_idle` covers these too.
            for _ in 0..ready {
                sink(Event::Ready);
            }
        }
        let mut state = lock(state);
        state.pending = state.pending.saturating_sub(1);
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
    fn ready_waits_for_settings_and_a_refused_hash_keeps_the_table() {
        let (engine, rx) = collect();
        assert!(engine.ready(), "nothing pending");
        engine.send(Job::Configure(Setting::Hash(usize::MAX)));
        engine.send(Job::Configure(Setting::Hash(2)));
        if !engine.ready() {
            assert!(matches!(
                rx.recv_timeout(Duration::from_secs(10)),
                Ok(Event::HashUnavailable {
                    requested_mb: usize::MAX,
                    kept_mb: 16
                })
            ));
            assert!(matches!(
                rx.recv_timeout(Duration::from_secs(10)),
                Ok(Event::Ready)
            ));
        }
        engine.wait_idle();
        assert!(engine.ready());
        engine.send(Job::Configure(Setting::Hash(usize::MAX)));
        engine.wait_idle();
        let events: Vec<Event> = rx.try_iter().collect();
        assert!(
            matches!(
                events.last(),
                Some(Event::HashUnavailable { kept_mb: 2, .. })
            ),
            "{events:?}"
        );
    }

    #[test]
    fn perft_is_stopped_and_shutdown_skips_settings() {
        let (engine, rx) = collect();
        engine.send(Job::Perft {
            position: Box::new(Position::startpos()),
            depth: 9,
        });
        engine.stop();
        engine.send(Job::Perft {
            position: Box::new(Position::startpos()),
            depth: 9,
        });
        engine.shutdown();
        engine.send(Job::Configure(Setting::Hash(usize::MAX)));
        engine.wait_idle();
        let events: Vec<Event> = rx.try_iter().collect();
        assert_eq!(events.len(), 2, "{events:?}");
        assert!(
            events
                .iter()
                .all(|e| matches!(e, Event::PerftStopped { .. }))
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

    /// The lines reported until the search answers, and the answer.
    fn lines_until_done(rx: &mpsc::Receiver<Event>) -> (Vec<SearchInfo>, SearchResult) {
        let mut infos = Vec::new();
        loop {
            match rx.recv_timeout(Duration::from_secs(30)) {
                Ok(Event::Info { info, .. }) => infos.push(info),
                Ok(Event::Done { result, .. }) => return (infos, result),
                Ok(_) => {}
                Err(e) => panic!("no result: {e}"),
            }
        }
    }

    #[test]
    fn every_line_of_a_multipv_search_is_an_event() {
        let (engine, rx) = collect();
        engine.send(Job::Configure(Setting::OwnBook(false)));
        engine.send(Job::Configure(Setting::MultiPv(3)));
        engine.send(job(Game::new(), Limits::depth(4), false));
        let (infos, result) = lines_until_done(&rx);
        let numbered: Vec<(u32, u32)> = infos.iter().map(|i| (i.depth, i.multipv)).collect();
        let expected: Vec<(u32, u32)> =
            (1..=4).flat_map(|d| (1..=3).map(move |k| (d, k))).collect();
        assert_eq!(numbered, expected);
        assert_eq!(result.pv, infos[infos.len() - 3].pv);
        // Back to one line: one event per depth.
        engine.send(Job::Configure(Setting::MultiPv(1)));
        engine.send(job(Game::new(), Limits::depth(3), false));
        let (infos, _) = lines_until_done(&rx);
        let lines: Vec<u32> = infos.iter().map(|i| i.multipv).collect();
        assert_eq!(lines, [1, 1, 1]);
    }
}
