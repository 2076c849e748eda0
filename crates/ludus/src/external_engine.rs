//! Any UCI or UCCI engine as a child process, behind the same jobs and events
//! as Ludus's own worker ([`EngineWorker`] is what both offer), so a screen can
//! show a game between Ludus and Pikafish, ElephantEye or Fairy-Stockfish.
//!
//! [`EngineProcess`] is the process and its handshake (shared with
//! `ludus xiangqi match`); [`ExternalEngine`] runs one on a thread that turns
//! [`Job`]s into `position`/`go` and the engine's `info`/`bestmove` lines into
//! [`Event`]s. The engine is never trusted: lines are cut at
//! [`MAX_LINE_BYTES`], at most [`MAX_QUEUED_LINES`] wait unread (the engine is
//! then made to wait), progress reports are throttled, and moves are checked
//! against the rules. A crash, a silence long past the time limit or an
//! illegal `bestmove` becomes [`Event::Failed`] and the process is ended.

use std::collections::{HashMap, VecDeque};
use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use xiangqi::engine::{Limits, Score, SearchInfo, SearchResult};
use xiangqi::{Game, Move, Position};

use crate::engine_worker::{EngineThread, Event, Job, SearchJob, Setting};
use crate::protocol::Dialect;
use crate::protocol::r#match::{banned_moves, engine_move_text, parse_engine_move, split_command};

/// Longest engine line kept, in bytes; the rest of a longer line is dropped.
pub const MAX_LINE_BYTES: usize = 16 * 1024;
/// Lines read but not yet handled before the reader stops reading (the
/// engine then blocks on its full pipe instead of filling our memory).
pub const MAX_QUEUED_LINES: usize = 1024;
/// How long an engine has to answer `uci`/`ucci`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an engine has to answer `isready` (a network file may load).
pub const READY_TIMEOUT: Duration = Duration::from_secs(30);
/// Lines an engine may print before `uciok`/`ucciok`.
pub const MAX_HANDSHAKE_LINES: usize = 10_000;
/// Options remembered from the handshake.
pub const MAX_OPTIONS: usize = 512;
/// How long past its time limit a search may run before it is given up on.
pub const LATE_GRACE: Duration = Duration::from_secs(5);
/// How long a search by depth or nodes only may take.
pub const UNTIMED_PATIENCE: Duration = Duration::from_secs(300);
/// How long after `stop` the `bestmove` may take.
pub const STOP_GRACE: Duration = Duration::from_secs(5);
/// How long a search may take to answer `stop` when the engine is shut down.
pub const SHUTDOWN_GRACE: Duration = Duration::from_millis(500);
/// How long an engine has to exit after `quit` before it is killed.
pub const QUIT_GRACE: Duration = Duration::from_millis(500);
/// Progress reports passed on at once; then [`INFO_PER_SECOND`], the latest
/// one held back being sent before the answer.
pub const INFO_BURST: f64 = 200.0;
/// Steady rate of progress reports passed on.
pub const INFO_PER_SECOND: f64 = 100.0;
/// Depth asked for when the limits bound nothing (Ludus's own engine stops
/// at its deepest iteration; an external one would think forever).
pub const UNBOUNDED_DEPTH: u32 = 64;
/// UCCI scores beyond this are mates (ElephantEye's `WIN_VALUE`).
const UCCI_MATE_BOUND: i32 = 9_900;

/// What a front end needs of an engine, Ludus's own thread or a process.
pub trait EngineWorker: Send {
    /// Queues a job; never waits for the engine.
    fn send(&self, job: Job);
    /// Ends the running and queued searches; searches still answer.
    fn stop(&self);
    /// Stops for good: nothing queued runs any more.
    fn shutdown(&self);
    /// Whether jobs are queued or running.
    fn is_busy(&self) -> bool;
}

impl EngineWorker for EngineThread {
    fn send(&self, job: Job) {
        EngineThread::send(self, job);
    }
    fn stop(&self) {
        EngineThread::stop(self);
    }
    fn shutdown(&self) {
        EngineThread::shutdown(self);
    }
    fn is_busy(&self) -> bool {
        EngineThread::is_busy(self)
    }
}

/// How to start an external engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalSpec {
    /// Command line, split like a shell would (quotes group words).
    pub command: String,
    /// `None` tries UCI, then UCCI if the engine quits or stays silent.
    pub dialect: Option<Dialect>,
    /// Options set after the handshake, as (name, value).
    pub options: Vec<(String, String)>,
}

impl ExternalSpec {
    /// A command whose protocol is detected, with no options.
    pub fn new(command: impl Into<String>) -> ExternalSpec {
        ExternalSpec {
            command: command.into(),
            dialect: None,
            options: Vec::new(),
        }
    }
}

/// An option the engine advertised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// As the engine spells it.
    pub name: String,
    pub default: Option<String>,
    pub min: Option<i64>,
    pub max: Option<i64>,
}

impl EngineOption {
    /// Reads `option [name] <name…> type <t> [default d] [min a] [max b] …`
    /// (UCI and UCCI) after the word `option`.
    fn parse(words: &[&str]) -> Option<EngineOption> {
        let words = words.strip_prefix(&["name"]).unwrap_or(words);
        let type_at = words.iter().position(|w| *w == "type")?;
        if type_at == 0 {
            return None;
        }
        let rest = &words[type_at..];
        let after = |key: &str| {
            rest.iter()
                .position(|w| *w == key)
                .and_then(|i| rest.get(i + 1))
        };
        Some(EngineOption {
            name: words[..type_at].join(" "),
            default: after("default").map(|s| s.to_string()),
            min: after("min").and_then(|s| s.parse().ok()),
            max: after("max").and_then(|s| s.parse().ok()),
        })
    }

    /// `value` moved into the advertised range.
    fn clamp(&self, value: i64) -> i64 {
        let value = self.min.map_or(value, |min| value.max(min));
        self.max.map_or(value, |max| value.min(max))
    }
}

/// What the thread of an [`ExternalEngine`] hears, in order: the owner's
/// requests and the engine's lines.
enum Input {
    Line(String),
    /// The engine's output ended: it exited.
    Closed,
    Job(Job),
    Stop,
    Shutdown,
}

/// A running engine process after its handshake.
pub(crate) struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    inbox: mpsc::Receiver<Input>,
    /// For the owner's requests to join the engine's lines.
    outbox: mpsc::Sender<Input>,
    /// Lines sent by the reader and not yet taken.
    queued: Arc<AtomicUsize>,
    pub(crate) name: String,
    pub(crate) dialect: Dialect,
    /// Fairy-Stockfish numbers xiangqi ranks 1–10 (Pikafish and UCCI: 0–9).
    pub(crate) one_based: bool,
    pub(crate) options: Vec<EngineOption>,
}

impl EngineProcess {
    /// Starts the engine and shakes hands. Without a dialect, an engine that
    /// exits or stays silent instead of answering `uci` (ElephantEye quits on
    /// any first line but `ucci`) is started again and spoken to in UCCI.
    ///
    /// # Errors
    /// The command is empty or cannot be started, or the engine does not
    /// finish its handshake or answer `isready` in time.
    pub(crate) fn start(spec: &ExternalSpec) -> Result<EngineProcess> {
        match spec.dialect {
            Some(dialect) => EngineProcess::start_as(spec, dialect),
            None => match EngineProcess::start_as(spec, Dialect::Uci) {
                Ok(engine) => Ok(engine),
                Err(uci_error) => {
                    EngineProcess::start_as(spec, Dialect::Ucci).map_err(|_| uci_error)
                }
            },
        }
    }

    fn start_as(spec: &ExternalSpec, dialect: Dialect) -> Result<EngineProcess> {
        let words = split_command(&spec.command);
        let Some((program, args)) = words.split_first() else {
            bail!("empty engine command");
        };
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start engine {:?}", spec.command))?;
        let stdin = child.stdin.take().context("engine has no stdin")?;
        let stdout = child.stdout.take().context("engine has no stdout")?;
        let (outbox, inbox) = mpsc::channel();
        let queued = Arc::new(AtomicUsize::new(0));
        {
            let outbox = outbox.clone();
            let queued = Arc::clone(&queued);
            thread::spawn(move || read_lines(stdout, &outbox, &queued));
        }
        let mut engine = EngineProcess {
            child,
            stdin,
            inbox,
            outbox,
            queued,
            name: spec.command.clone(),
            dialect,
            one_based: false,
            options: Vec::new(),
        };
        let (hello, ok) = match dialect {
            Dialect::Uci => ("uci", "uciok"),
            Dialect::Ucci => ("ucci", "ucciok"),
        };
        engine.send(hello)?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let mut lines = 0;
        loop {
            lines += 1;
            if lines > MAX_HANDSHAKE_LINES {
                bail!(
                    "engine {} printed more than {MAX_HANDSHAKE_LINES} lines before {ok}",
                    engine.name
                );
            }
            let line = engine.recv(deadline.saturating_duration_since(Instant::now()))?;
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[..] {
                [w] if w == ok => break,
                ["id", "name", ref name @ ..] => engine.name = name.join(" "),
                ["option", ref rest @ ..] if engine.options.len() < MAX_OPTIONS => {
                    engine.options.extend(EngineOption::parse(rest));
                }
                _ => {}
            }
        }
        if engine.name.starts_with("Fairy-Stockfish") {
            // A multi-variant engine: ask for xiangqi, and speak its coordinates.
            engine.one_based = true;
            engine.send("setoption name UCI_Variant value xiangqi")?;
        }
        if dialect == Dialect::Ucci {
            engine.send("setoption usemillisec true")?;
        }
        for (name, value) in &spec.options {
            engine.set_option(name, value)?;
        }
        engine.ready()?;
        Ok(engine)
    }

    /// Writes one line to the engine.
    ///
    /// # Errors
    /// The engine no longer reads its input.
    pub(crate) fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .with_context(|| format!("engine {} stopped listening", self.name))
    }

    /// The engine's next line.
    ///
    /// # Errors
    /// None came within `timeout`, or the engine exited.
    pub(crate) fn recv(&mut self, timeout: Duration) -> Result<String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.inbox.recv_timeout(left) {
                Ok(Input::Line(l)) => {
                    self.queued.fetch_sub(1, Ordering::SeqCst);
                    return Ok(l);
                }
                Ok(Input::Closed) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                    bail!("engine {} exited", self.name)
                }
                // Requests of an owner; none while it waits here.
                Ok(_) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => bail!("engine {} timed out", self.name),
            }
        }
    }

    /// Sends `isready` and waits for `readyok`.
    ///
    /// # Errors
    /// As [`Self::recv`], with [`READY_TIMEOUT`].
    pub(crate) fn ready(&mut self) -> Result<()> {
        self.send("isready")?;
        let deadline = Instant::now() + READY_TIMEOUT;
        while self
            .recv(deadline.saturating_duration_since(Instant::now()))?
            .trim()
            != "readyok"
        {}
        Ok(())
    }

    /// Tells the engine a new game starts, and waits until it is ready.
    ///
    /// # Errors
    /// As [`Self::ready`].
    pub(crate) fn new_game(&mut self) -> Result<()> {
        self.send(self.new_game_line())?;
        self.ready()
    }

    fn new_game_line(&self) -> &'static str {
        match self.dialect {
            Dialect::Uci => "ucinewgame",
            Dialect::Ucci => "setoption newgame",
        }
    }

    /// Sets an option, in the engine's dialect.
    ///
    /// # Errors
    /// As [`Self::send`].
    pub(crate) fn set_option(&mut self, name: &str, value: &str) -> Result<()> {
        match self.dialect {
            Dialect::Uci => self.send(&format!("setoption name {name} value {value}")),
            Dialect::Ucci => self.send(&format!("setoption {name} {value}")),
        }
    }

    /// The advertised option called one of `names` (any case).
    fn option(&self, names: &[&str]) -> Option<&EngineOption> {
        self.options
            .iter()
            .find(|o| names.iter().any(|n| o.name.eq_ignore_ascii_case(n)))
    }

    /// `position fen … [moves …]` for `game`.
    pub(crate) fn position_line(&self, game: &Game) -> String {
        let moves: Vec<String> = game
            .moves()
            .map(|m| engine_move_text(m, self.one_based))
            .collect();
        let mut line = format!("position fen {}", game.start_position().to_fen());
        if !moves.is_empty() {
            line.push_str(" moves ");
            line.push_str(&moves.join(" "));
        }
        line
    }

    /// Moves as the engine writes them, space-separated.
    pub(crate) fn moves_text(&self, moves: &[Move]) -> String {
        let text: Vec<String> = moves
            .iter()
            .map(|&m| engine_move_text(m, self.one_based))
            .collect();
        text.join(" ")
    }

    /// Kills the engine at once (it is stuck or misbehaved).
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // Both protocols end with `quit`.
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        // Give it a moment to exit by itself, then make sure.
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }
}

/// The reader thread: bounded lines into `outbox` until the output ends, or
/// until nobody listens.
fn read_lines(stdout: ChildStdout, outbox: &mpsc::Sender<Input>, queued: &Arc<AtomicUsize>) {
    let mut reader = BufReader::new(stdout);
    loop {
        match read_bounded_line(&mut reader, MAX_LINE_BYTES) {
            Ok(Some(line)) => {
                while queued.load(Ordering::SeqCst) >= MAX_QUEUED_LINES {
                    if Arc::strong_count(queued) == 1 {
                        return; // the process is gone
                    }
                    thread::sleep(Duration::from_millis(1));
                }
                queued.fetch_add(1, Ordering::SeqCst);
                if outbox.send(Input::Line(line)).is_err() {
                    return;
                }
            }
            Ok(None) | Err(_) => {
                let _ = outbox.send(Input::Closed);
                return;
            }
        }
    }
}

/// One line of at most `max` bytes (the rest of a longer line is read and
/// dropped), without its line ending, bad UTF-8 replaced; `None` at the end.
///
/// # Errors
/// Reading fails.
fn read_bounded_line(reader: &mut impl BufRead, max: usize) -> io::Result<Option<String>> {
    let mut line = Vec::new();
    let mut any = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then(|| text_of(&line)));
        }
        any = true;
        let newline = buf.iter().position(|&b| b == b'\n');
        let chunk = &buf[..newline.unwrap_or(buf.len())];
        let room = max.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = newline.map_or(buf.len(), |i| i + 1);
        reader.consume(used);
        if newline.is_some() {
            return Ok(Some(text_of(&line)));
        }
    }
}

fn text_of(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.strip_suffix('\r').unwrap_or(&text).to_string()
}

/// Job counts shared by the owner and the engine's thread.
#[derive(Default)]
struct Counts {
    /// Jobs sent and not finished.
    pending: usize,
    /// The thread has ended (the process is gone).
    finished: bool,
}

type Shared = Arc<(Mutex<Counts>, Condvar)>;

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A UCI/UCCI engine process behind the jobs and events of [`EngineThread`].
pub struct ExternalEngine {
    requests: mpsc::Sender<Input>,
    counts: Shared,
    name: String,
    dialect: Dialect,
    handle: Option<thread::JoinHandle<()>>,
}

impl ExternalEngine {
    /// Starts the engine (see [`EngineProcess::start`]: this waits for its
    /// handshake, up to [`HANDSHAKE_TIMEOUT`] per dialect tried and
    /// [`READY_TIMEOUT`]) and the thread that runs its jobs; `sink` hears
    /// every event, on that thread.
    ///
    /// # Errors
    /// The engine cannot be started or does not complete its handshake.
    pub fn spawn(
        spec: &ExternalSpec,
        sink: impl FnMut(Event) + Send + 'static,
    ) -> Result<ExternalEngine> {
        let process = EngineProcess::start(spec)?;
        let requests = process.outbox.clone();
        let name = process.name.clone();
        let dialect = process.dialect;
        let counts: Shared = Arc::default();
        let handle = {
            let counts = Arc::clone(&counts);
            thread::spawn(move || Runner::new(process, sink, counts).run())
        };
        Ok(ExternalEngine {
            requests,
            counts,
            name,
            dialect,
            handle: Some(handle),
        })
    }

    /// The engine's name (`id name`), or its command if it gave none.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The protocol spoken.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    fn request(&self, input: Input) {
        // The thread only ends after shutdown; a request then changes nothing.
        let _ = self.requests.send(input);
    }

    /// Queues a job; it never waits for the engine. After [`Self::shutdown`]
    /// a job may go unanswered.
    pub fn send(&self, job: Job) {
        lock(&self.counts.0).pending += 1;
        if self.requests.send(Input::Job(job)).is_err() {
            // The engine's thread has ended: the job will never run.
            let (counts, cond) = &*self.counts;
            let mut counts = lock(counts);
            counts.pending = counts.pending.saturating_sub(1);
            cond.notify_all();
        }
    }

    /// Sends `stop` to the running search and stops the queued ones as soon
    /// as they start; each still answers ([`Event::Done`]).
    pub fn stop(&self) {
        self.request(Input::Stop);
    }

    /// Stops the running search (waiting [`SHUTDOWN_GRACE`] for its answer),
    /// fails the queued ones, then sends `quit` and kills the engine if it
    /// has not exited after [`QUIT_GRACE`]. Never waits.
    pub fn shutdown(&self) {
        self.request(Input::Shutdown);
    }

    /// Whether jobs are queued or running.
    pub fn is_busy(&self) -> bool {
        let counts = lock(&self.counts.0);
        counts.pending > 0 && !counts.finished
    }

    /// Waits until no job is queued or running, at most `timeout`; says
    /// whether that happened.
    pub fn wait_idle(&self, timeout: Duration) -> bool {
        let (counts, cond) = &*self.counts;
        let deadline = Instant::now() + timeout;
        let mut counts = lock(counts);
        while counts.pending > 0 && !counts.finished {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            counts = cond
                .wait_timeout(counts, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        true
    }
}

impl EngineWorker for ExternalEngine {
    fn send(&self, job: Job) {
        ExternalEngine::send(self, job);
    }
    fn stop(&self) {
        ExternalEngine::stop(self);
    }
    fn shutdown(&self) {
        ExternalEngine::shutdown(self);
    }
    fn is_busy(&self) -> bool {
        ExternalEngine::is_busy(self)
    }
}

impl Drop for ExternalEngine {
    /// Shuts down and waits for the engine's end, a few seconds at most: a
    /// thread stuck writing to an engine that reads nothing is left behind.
    fn drop(&mut self) {
        self.shutdown();
        let (counts, cond) = &*self.counts;
        let limit = SHUTDOWN_GRACE + QUIT_GRACE + Duration::from_secs(2);
        let finished = {
            let counts = lock(counts);
            let (counts, _) = cond
                .wait_timeout_while(counts, limit, |c| !c.finished)
                .unwrap_or_else(PoisonError::into_inner);
            counts.finished
        };
        if let Some(handle) = self.handle.take()
            && finished
        {
            let _ = handle.join();
        }
    }
}

/// A job waiting its turn; `stopped` when a stop came after it was sent.
struct Queued {
    job: Job,
    stopped: bool,
}

/// The search the engine is running.
struct Running {
    id: u64,
    root: Position,
    started: Instant,
    hold: bool,
    stop_sent: bool,
    /// When the engine is given up on, if ever.
    deadline: Option<Instant>,
    /// An answer that came before the `stop` a held search waits for.
    held: Option<SearchResult>,
    /// The latest line of multipv 1, for the answer.
    best_line: Option<SearchInfo>,
    nodes: u64,
    time_ms: Option<u64>,
    seldepth: u32,
    throttle: Throttle,
}

/// Progress reports passed on: a burst, then a steady rate.
struct Throttle {
    tokens: f64,
    at: Instant,
    /// The latest report held back.
    held: Option<SearchInfo>,
}

impl Throttle {
    fn new(now: Instant) -> Throttle {
        Throttle {
            tokens: INFO_BURST,
            at: now,
            held: None,
        }
    }

    /// Whether a report may go now; if not, it is kept as the one to send later.
    fn admit(&mut self, info: SearchInfo, now: Instant) -> Option<SearchInfo> {
        let refill = now.duration_since(self.at).as_secs_f64() * INFO_PER_SECOND;
        self.tokens = (self.tokens + refill).min(INFO_BURST);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            self.held = None;
            Some(info)
        } else {
            self.held = Some(info);
            None
        }
    }
}

/// The thread of an [`ExternalEngine`].
struct Runner<S> {
    process: EngineProcess,
    sink: S,
    counts: Shared,
    queue: VecDeque<Queued>,
    running: Option<Running>,
    /// Waiting for `readyok` until then.
    syncing: Option<Instant>,
    /// Options were set since the last `isready`.
    dirty: bool,
    /// Why the engine cannot be used any more.
    dead: Option<String>,
    closing: bool,
    /// Values last set, so repeated settings are not sent again.
    set: HashMap<String, String>,
    hash_mb: usize,
}

impl<S: FnMut(Event)> Runner<S> {
    fn new(process: EngineProcess, sink: S, counts: Shared) -> Runner<S> {
        let hash_mb = process
            .option(&["Hash", "hashsize"])
            .and_then(|o| o.default.as_deref()?.parse().ok())
            .unwrap_or(0);
        Runner {
            process,
            sink,
            counts,
            queue: VecDeque::new(),
            running: None,
            syncing: None,
            dirty: false,
            dead: None,
            closing: false,
            set: HashMap::new(),
            hash_mb,
        }
    }

    fn run(mut self) {
        loop {
            let deadline = self
                .running
                .as_ref()
                .and_then(|r| r.deadline)
                .or(self.syncing);
            let input = match deadline {
                Some(d) => self
                    .process
                    .inbox
                    .recv_timeout(d.saturating_duration_since(Instant::now())),
                None => self
                    .process
                    .inbox
                    .recv()
                    .map_err(|_| mpsc::RecvTimeoutError::Disconnected),
            };
            match input {
                Ok(Input::Job(job)) => self.queue.push_back(Queued {
                    job,
                    stopped: false,
                }),
                Ok(Input::Stop) => self.stop(),
                Ok(Input::Shutdown) => {
                    self.closing = true;
                    // Settings nobody will use need no `readyok`.
                    self.syncing = None;
                    self.stop();
                }
                Ok(Input::Line(line)) => {
                    self.process.queued.fetch_sub(1, Ordering::SeqCst);
                    self.on_line(&line);
                }
                Ok(Input::Closed) => self.die(format!("engine {} exited", self.process.name)),
                Err(mpsc::RecvTimeoutError::Timeout) => self.on_timeout(),
                Err(mpsc::RecvTimeoutError::Disconnected) => self.closing = true,
            }
            self.advance();
            if self.closing && self.running.is_none() && self.syncing.is_none() {
                break;
            }
        }
        // Jobs sent after the shutdown: they will never run.
        while let Ok(input) = self.process.inbox.try_recv() {
            if let Input::Job(job) = input {
                if let Job::Search(search) = job {
                    let message = format!("engine {} was shut down", self.process.name);
                    (self.sink)(Event::Failed {
                        id: search.id,
                        message,
                    });
                }
                self.done();
            }
        }
        let (counts, cond) = &*self.counts;
        // The process ends (quit, then kill) before the owner hears so.
        drop(self.process);
        lock(counts).finished = true;
        cond.notify_all();
    }

    /// One job finished and reported.
    fn done(&self) {
        let (counts, cond) = &*self.counts;
        let mut counts = lock(counts);
        counts.pending = counts.pending.saturating_sub(1);
        cond.notify_all();
    }

    /// Stops the running search and the queued ones (when they start).
    fn stop(&mut self) {
        for q in &mut self.queue {
            q.stopped = true;
        }
        self.stop_running();
    }

    /// Sends `stop` to the running search, or answers at once if it has.
    fn stop_running(&mut self) {
        let Some(run) = &mut self.running else { return };
        if let Some(result) = run.held.take() {
            return self.answer(result);
        }
        if run.stop_sent {
            return;
        }
        run.stop_sent = true;
        let grace = if self.closing {
            SHUTDOWN_GRACE
        } else {
            STOP_GRACE
        };
        let by = Instant::now() + grace;
        run.deadline = Some(run.deadline.map_or(by, |d| d.min(by)));
        if let Err(e) = self.process.send("stop") {
            self.die(format!("{e:#}"));
        }
    }

    /// Ends the engine: the running search fails with `reason`, later ones
    /// fail as they come.
    fn die(&mut self, reason: String) {
        if self.dead.is_none() {
            self.process.kill();
            self.dead = Some(reason.clone());
        }
        self.syncing = None;
        if let Some(run) = self.running.take() {
            (self.sink)(Event::Failed {
                id: run.id,
                message: reason,
            });
            self.done();
        }
    }

    fn on_timeout(&mut self) {
        let now = Instant::now();
        if self.syncing.is_some_and(|d| d <= now) {
            let name = self.process.name.clone();
            return self.die(format!(
                "engine {name} did not answer isready within {} s",
                READY_TIMEOUT.as_secs()
            ));
        }
        let Some(run) = &self.running else { return };
        if run.deadline.is_some_and(|d| d <= now) {
            let name = &self.process.name;
            let reason = if run.stop_sent {
                format!("engine {name} did not answer stop in time")
            } else {
                format!("engine {name} timed out: no bestmove long after its time limit")
            };
            self.die(reason);
        }
    }

    /// Starts queued jobs while the engine is free.
    fn advance(&mut self) {
        while self.running.is_none() && self.syncing.is_none() {
            let Some(Queued { job, stopped }) = self.queue.pop_front() else {
                return;
            };
            match job {
                Job::Search(search) => {
                    let refusal = match &self.dead {
                        Some(reason) => Some(reason.clone()),
                        None if self.closing => {
                            Some(format!("engine {} was shut down", self.process.name))
                        }
                        None => None,
                    };
                    if let Some(message) = refusal {
                        (self.sink)(Event::Failed {
                            id: search.id,
                            message,
                        });
                        self.done();
                    } else if self.dirty {
                        // Settings first: UCI wants `isready` before the search.
                        self.dirty = false;
                        self.queue.push_front(Queued {
                            job: Job::Search(search),
                            stopped,
                        });
                        self.sync();
                    } else {
                        self.start_search(*search, stopped);
                    }
                }
                Job::Perft { .. } => {
                    (self.sink)(Event::PerftStopped { elapsed_ms: 0 });
                    self.done();
                }
                Job::Configure(setting) => {
                    if self.dead.is_none() && !self.closing {
                        self.configure(setting);
                    }
                    self.done();
                }
            }
        }
    }

    fn sync(&mut self) {
        match self.process.send("isready") {
            Ok(()) => self.syncing = Some(Instant::now() + READY_TIMEOUT),
            Err(e) => self.die(format!("{e:#}")),
        }
    }

    /// Sets an advertised option (called one of `names`) unless it has this
    /// value already.
    fn set_option(&mut self, names: &[&str], value: String) {
        let Some(name) = self.process.option(names).map(|o| o.name.clone()) else {
            return;
        };
        if self.set.get(&name) == Some(&value) {
            return;
        }
        match self.process.set_option(&name, &value) {
            Ok(()) => {
                self.dirty = true;
                self.set.insert(name, value);
            }
            Err(e) => self.die(format!("{e:#}")),
        }
    }

    fn configure(&mut self, setting: Setting) {
        let spin = |names: &[&str], process: &EngineProcess, value: i64| {
            process.option(names).map(|o| o.clamp(value))
        };
        match setting {
            Setting::Hash(mb) => {
                let names = ["Hash", "hashsize"];
                let Some(option) = self.process.option(&names) else {
                    return;
                };
                let wanted = i64::try_from(mb).unwrap_or(i64::MAX);
                if option.clamp(wanted) != wanted {
                    (self.sink)(Event::HashUnavailable {
                        requested_mb: mb,
                        kept_mb: self.hash_mb,
                    });
                    return;
                }
                self.set_option(&names, mb.to_string());
                self.hash_mb = mb;
            }
            Setting::MultiPv(lines) => {
                let names = ["MultiPV"];
                let lines = i64::try_from(lines).unwrap_or(i64::MAX);
                if let Some(v) = spin(&names, &self.process, lines) {
                    self.set_option(&names, v.to_string());
                }
            }
            Setting::Threads(threads) => {
                let names = ["Threads", "threads"];
                let threads = i64::try_from(threads).unwrap_or(i64::MAX);
                if let Some(v) = spin(&names, &self.process, threads) {
                    self.set_option(&names, v.to_string());
                }
            }
            Setting::Skill(level) => {
                let names = ["Skill Level"];
                if let Some(v) = spin(&names, &self.process, i64::from(level)) {
                    self.set_option(&names, v.to_string());
                }
            }
            Setting::OwnBook(on) => self.set_option(&["OwnBook", "usebook"], on.to_string()),
            // Ludus's own tables; another engine has its own, if any.
            Setting::Seed(_) | Setting::Tablebases(_) => {}
            Setting::NewGame => {
                let line = self.process.new_game_line();
                match self.process.send(line) {
                    Ok(()) => self.dirty = true,
                    Err(e) => self.die(format!("{e:#}")),
                }
            }
        }
    }

    fn start_search(&mut self, job: SearchJob, stopped: bool) {
        let root = job.game.position().clone();
        let mut lines = vec![self.process.position_line(&job.game)];
        let restriction = Restriction::of(&job.game, &job.limits, self.process.dialect);
        let go = go_line(self.process.dialect, &job.limits, job.hold);
        match (restriction, self.process.dialect) {
            (Restriction::Ban(moves), Dialect::Ucci) => {
                lines.push(format!("banmoves {}", self.process.moves_text(&moves)));
                lines.push(go);
            }
            (Restriction::Only(moves), Dialect::Uci) => {
                lines.push(format!(
                    "{go} searchmoves {}",
                    self.process.moves_text(&moves)
                ));
            }
            _ => lines.push(go),
        }
        for line in &lines {
            if let Err(e) = self.process.send(line) {
                // Reported for this search: the engine went before it started.
                self.running = Some(Running::new(job.id, root, job.started, false, None));
                return self.die(format!("{e:#}"));
            }
        }
        let patience = patience(&job.limits, job.hold);
        let deadline = patience.map(|p| Instant::now() + p);
        self.running = Some(Running::new(job.id, root, job.started, job.hold, deadline));
        if stopped {
            self.stop_running();
        }
    }

    fn on_line(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("readyok") => self.syncing = None,
            Some("info") => self.on_info(&words[1..]),
            Some("bestmove" | "nobestmove") => self.on_bestmove(&words),
            _ => {}
        }
    }

    fn on_info(&mut self, words: &[&str]) {
        let dialect = self.process.dialect;
        let one_based = self.process.one_based;
        let Some(run) = &mut self.running else { return };
        let Some(info) = run.read_info(words, dialect, one_based) else {
            return;
        };
        if info.multipv == 1 {
            run.best_line = Some(info.clone());
        }
        if let Some(info) = run.throttle.admit(info, Instant::now()) {
            let id = run.id;
            (self.sink)(Event::Info { id, info });
        }
    }

    fn on_bestmove(&mut self, words: &[&str]) {
        let Some(run) = &mut self.running else { return };
        if run.held.is_some() {
            return;
        }
        let name = &self.process.name;
        let text = match words {
            ["nobestmove", ..] | ["bestmove", "(none)" | "0000" | "none", ..] => None,
            ["bestmove", text, ..] => Some(*text),
            _ => {
                let message = format!(
                    "engine {name} sent an unreadable answer: {:?}",
                    words.join(" ")
                );
                return self.die(message);
            }
        };
        let best = match text {
            None => None,
            Some(text) => {
                match parse_engine_move(text, self.process.one_based)
                    .filter(|&m| run.root.is_legal(m))
                {
                    Some(m) => Some(m),
                    None => {
                        let message = format!("engine {name} played the illegal move {text:?}");
                        return self.die(message);
                    }
                }
            }
        };
        let ponder = match (best, words) {
            (Some(best), ["bestmove", _, "ponder", reply, ..]) => {
                let mut after = run.root.clone();
                parse_engine_move(reply, self.process.one_based)
                    .filter(|&r| after.play(best).is_ok() && after.is_legal(r))
            }
            _ => None,
        };
        let result = run.result(best, ponder);
        if run.hold && !run.stop_sent {
            // `go infinite` answered early: the owner waits for its stop.
            run.held = Some(result);
            run.deadline = None;
            return;
        }
        self.answer(result);
    }

    /// Ends the running search with `result`, after the report held back.
    fn answer(&mut self, result: SearchResult) {
        let Some(mut run) = self.running.take() else {
            return;
        };
        let id = run.id;
        if let Some(info) = run.throttle.held.take() {
            (self.sink)(Event::Info { id, info });
        }
        (self.sink)(Event::Done {
            id,
            result,
            elapsed_ms: run.started.elapsed().as_millis() as u64,
        });
        self.done();
    }
}

impl Running {
    fn new(
        id: u64,
        root: Position,
        started: Instant,
        hold: bool,
        deadline: Option<Instant>,
    ) -> Running {
        Running {
            id,
            root,
            started,
            hold,
            stop_sent: false,
            deadline,
            held: None,
            best_line: None,
            nodes: 0,
            time_ms: None,
            seldepth: 0,
            throttle: Throttle::new(Instant::now()),
        }
    }

    /// Reads an `info` line (after the word): a report once it has a depth
    /// and an exact score. Counts from lines without them (UCCI sends `info
    /// time … nodes …` apart) are kept for the next report. Bounds
    /// (`lowerbound`/`upperbound`) and `info string` are not reports.
    fn read_info(
        &mut self,
        words: &[&str],
        dialect: Dialect,
        one_based: bool,
    ) -> Option<SearchInfo> {
        let mut depth = None;
        let mut multipv = 1;
        let mut score = None;
        let mut bound = false;
        let mut pv = Vec::new();
        let mut i = 0;
        while i < words.len() {
            let value = words.get(i + 1).copied();
            let number = || value.and_then(|v| v.parse::<u64>().ok());
            match words[i] {
                "string" => return None,
                "depth" => depth = number().map(|d| d.min(u64::from(u32::MAX)) as u32),
                "seldepth" => {
                    if let Some(d) = number() {
                        self.seldepth = d.min(u64::from(u32::MAX)) as u32;
                    }
                }
                "multipv" => {
                    multipv = number().map_or(1, |n| n.clamp(1, u64::from(u32::MAX)) as u32)
                }
                "nodes" => self.nodes = number().unwrap_or(self.nodes),
                "time" => self.time_ms = number().or(self.time_ms),
                "score" => {
                    let (read, used) = read_score(&words[i + 1..], dialect);
                    score = read;
                    i += used;
                    continue;
                }
                "lowerbound" | "upperbound" => bound = true,
                "pv" => {
                    pv = legal_line(&self.root, &words[i + 1..], one_based);
                    break;
                }
                // These run to the end of the line.
                "refutation" | "currline" => break,
                _ => {}
            }
            i += 1;
        }
        if bound {
            return None;
        }
        let depth = depth?;
        let score = score?;
        Some(SearchInfo {
            multipv,
            depth,
            seldepth: self.seldepth.max(depth),
            score,
            nodes: self.nodes,
            elapsed_ms: self
                .time_ms
                .unwrap_or_else(|| self.started.elapsed().as_millis() as u64),
            pv,
        })
    }

    /// The answer, with the score, depth and line of the last report.
    fn result(&self, best: Option<Move>, ponder: Option<Move>) -> SearchResult {
        let line = self.best_line.as_ref();
        let mut pv = line.map(|l| l.pv.clone()).unwrap_or_default();
        if pv.first() != best.as_ref() {
            pv = best.into_iter().chain(ponder).collect();
        }
        SearchResult {
            best,
            ponder: ponder.or_else(|| pv.get(1).copied()),
            score: line.map_or(Score::Cp(0), |l| l.score),
            depth: line.map_or(0, |l| l.depth),
            nodes: self.nodes,
            pv,
            from_book: false,
        }
    }
}

/// Reads the score words after `score`; returns the score and the words used.
/// UCI: `cp N` or `mate N` (moves, from the mover's view); UCCI: a number,
/// mates as ±(10000 − plies).
fn read_score(words: &[&str], dialect: Dialect) -> (Option<Score>, usize) {
    let int = |i: usize| words.get(i).and_then(|w| w.parse::<i32>().ok());
    match (dialect, words.first().copied()) {
        (_, Some("cp")) => (int(1).map(Score::Cp), 2),
        (_, Some("mate")) => (int(1).map(Score::Mate), 2),
        (Dialect::Ucci, Some(_)) => (int(0).map(ucci_score), 1),
        _ => (None, 1),
    }
}

/// A UCCI score: centipawns, or a mate in moves.
fn ucci_score(v: i32) -> Score {
    let plies = (10_000 - v.saturating_abs()).max(1);
    if v > UCCI_MATE_BOUND {
        Score::Mate((plies + 1) / 2)
    } else if v < -UCCI_MATE_BOUND {
        Score::Mate(-(plies / 2).max(1))
    } else {
        Score::Cp(v)
    }
}

/// The moves of `words` that are legal one after the other from `root`,
/// up to the first that is not.
fn legal_line(root: &Position, words: &[&str], one_based: bool) -> Vec<Move> {
    let mut pos = root.clone();
    words
        .iter()
        .map_while(|w| {
            let m = parse_engine_move(w, one_based)?;
            pos.play(m).ok().map(|_| m)
        })
        .collect()
}

/// Moves the search may or may not consider, in the form the dialect can say.
enum Restriction {
    None,
    /// UCCI `banmoves`.
    Ban(Vec<Move>),
    /// UCI `searchmoves`.
    Only(Vec<Move>),
}

impl Restriction {
    /// The limits' `search_moves` and `ban_moves`, and for UCCI the moves
    /// the repetition rules forbid (UCI engines judge those themselves).
    /// Nothing is restricted if that would leave no move.
    fn of(game: &Game, limits: &Limits, dialect: Dialect) -> Restriction {
        let legal: Vec<Move> = game.position().legal_moves().iter().copied().collect();
        let mut banned = limits.ban_moves.clone();
        if dialect == Dialect::Ucci {
            banned.extend(banned_moves(game));
        }
        let allowed: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| limits.search_moves.is_empty() || limits.search_moves.contains(m))
            .filter(|m| !banned.contains(m))
            .collect();
        if allowed.is_empty() || allowed.len() == legal.len() {
            return Restriction::None;
        }
        match dialect {
            Dialect::Uci => Restriction::Only(allowed),
            Dialect::Ucci => {
                Restriction::Ban(legal.into_iter().filter(|m| !allowed.contains(m)).collect())
            }
        }
    }
}

/// The `go` line for `limits`. UCI takes every limit at once (both clocks
/// get the mover's time, the only one known); UCCI takes one mode: a fixed
/// time (as `time T movestogo 1`, milliseconds), else the clock, else depth,
/// else nodes. Held searches and `infinite` think until `stop`.
pub fn go_line(dialect: Dialect, limits: &Limits, hold: bool) -> String {
    if hold || limits.infinite {
        return "go infinite".to_string();
    }
    let mut go = String::from("go");
    match dialect {
        Dialect::Uci => {
            if let Some(d) = limits.depth {
                go.push_str(&format!(" depth {d}"));
            }
            if let Some(n) = limits.nodes {
                go.push_str(&format!(" nodes {n}"));
            }
            if let Some(ms) = limits.movetime {
                go.push_str(&format!(" movetime {ms}"));
            }
            if let Some(t) = limits.time {
                let inc = limits.increment;
                go.push_str(&format!(" wtime {t} btime {t} winc {inc} binc {inc}"));
                if let Some(n) = limits.moves_to_go {
                    go.push_str(&format!(" movestogo {n}"));
                }
            }
        }
        Dialect::Ucci => {
            if let Some(ms) = limits.movetime {
                go.push_str(&format!(" time {ms} movestogo 1"));
            } else if let Some(t) = limits.time {
                match limits.moves_to_go {
                    Some(n) => go.push_str(&format!(" time {t} movestogo {n}")),
                    None => go.push_str(&format!(" time {t} increment {}", limits.increment)),
                }
                go.push_str(&format!(" opptime {t} oppincrement {}", limits.increment));
            } else if let Some(d) = limits.depth {
                go.push_str(&format!(" depth {d}"));
            } else if let Some(n) = limits.nodes {
                go.push_str(&format!(" nodes {n}"));
            }
        }
    }
    if go == "go" {
        go.push_str(&format!(" depth {UNBOUNDED_DEPTH}"));
    }
    go
}

/// How long a search may go without answering: its time limit and
/// [`LATE_GRACE`], [`UNTIMED_PATIENCE`] without one, forever until stopped
/// when it is held or infinite.
fn patience(limits: &Limits, hold: bool) -> Option<Duration> {
    if hold || limits.infinite {
        return None;
    }
    let clock = limits.time.map(|t| t.saturating_add(limits.increment));
    let timed = limits.movetime.into_iter().chain(clock).min();
    let ms = timed.map_or(UNTIMED_PATIENCE, |ms| {
        Duration::from_millis(ms.min(86_400_000)) + LATE_GRACE
    });
    Some(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_bounded_and_read_to_their_end() {
        let long = "x".repeat(100);
        let text = format!("short\r\n{long}\nlast");
        let mut reader = io::Cursor::new(text.into_bytes());
        assert_eq!(
            read_bounded_line(&mut reader, 10).unwrap(),
            Some("short".into())
        );
        assert_eq!(
            read_bounded_line(&mut reader, 10).unwrap(),
            Some("x".repeat(10))
        );
        assert_eq!(
            read_bounded_line(&mut reader, 10).unwrap(),
            Some("last".into())
        );
        assert_eq!(read_bounded_line(&mut reader, 10).unwrap(), None);
        let mut bad = io::Cursor::new(vec![b'a', 0xff, b'\n']);
        assert_eq!(
            read_bounded_line(&mut bad, 10).unwrap(),
            Some("a\u{fffd}".into())
        );
    }

    #[test]
    fn options_of_both_dialects() {
        let words = |s: &'static str| s.split_whitespace().collect::<Vec<_>>();
        let skill = EngineOption::parse(&words(
            "name Skill Level type spin default 20 min -20 max 20",
        ))
        .unwrap();
        assert_eq!(skill.name, "Skill Level");
        assert_eq!((skill.min, skill.max), (Some(-20), Some(20)));
        assert_eq!(skill.clamp(99), 20);
        let hash =
            EngineOption::parse(&words("hashsize type spin min 0 max 1024 default 16")).unwrap();
        assert_eq!(hash.name, "hashsize");
        assert_eq!(hash.default.as_deref(), Some("16"));
        assert_eq!(EngineOption::parse(&words("name type check")), None);
        assert_eq!(EngineOption::parse(&words("name Ponder")), None);
    }

    #[test]
    fn go_lines_in_both_dialects() {
        let clock = Limits {
            time: Some(60_000),
            increment: 500,
            movetime: Some(3_000),
            ..Limits::default()
        };
        assert_eq!(
            go_line(Dialect::Uci, &clock, false),
            "go movetime 3000 wtime 60000 btime 60000 winc 500 binc 500"
        );
        assert_eq!(
            go_line(Dialect::Ucci, &clock, false),
            "go time 3000 movestogo 1"
        );
        let clock = Limits {
            movetime: None,
            ..clock
        };
        assert_eq!(
            go_line(Dialect::Ucci, &clock, false),
            "go time 60000 increment 500 opptime 60000 oppincrement 500"
        );
        assert_eq!(
            go_line(Dialect::Ucci, &Limits::depth(4), false),
            "go depth 4"
        );
        assert_eq!(
            go_line(Dialect::Uci, &Limits::nodes(900), false),
            "go nodes 900"
        );
        assert_eq!(
            go_line(Dialect::Uci, &Limits::depth(4), true),
            "go infinite"
        );
        assert_eq!(
            go_line(Dialect::Uci, &Limits::default(), false),
            "go depth 64"
        );
        assert_eq!(patience(&Limits::depth(3), true), None);
        assert_eq!(
            patience(&Limits::movetime(1000), false),
            Some(Duration::from_secs(1) + LATE_GRACE)
        );
        assert_eq!(patience(&Limits::depth(3), false), Some(UNTIMED_PATIENCE));
    }

    #[test]
    fn info_lines_become_reports() {
        let game = Game::new();
        let mut run = Running::new(1, game.position().clone(), Instant::now(), false, None);
        let words = |s: &'static str| s.split_whitespace().collect::<Vec<_>>();
        let info = run
            .read_info(
                &words("depth 5 seldepth 9 multipv 2 score cp -31 nodes 1234 nps 9 time 40 pv h2e2 h9g7 a0a5 b0c2"),
                Dialect::Uci,
                false,
            )
            .unwrap();
        assert_eq!((info.depth, info.seldepth, info.multipv), (5, 9, 2));
        assert_eq!(info.score, Score::Cp(-31));
        assert_eq!((info.nodes, info.elapsed_ms), (1234, 40));
        // The PV stops at a0a5, which is not a legal third move.
        assert_eq!(info.pv.len(), 2);
        assert!(
            run.read_info(&words("depth 6 score cp 5 lowerbound"), Dialect::Uci, false)
                .is_none()
        );
        assert!(
            run.read_info(&words("string depth 6 score cp 5"), Dialect::Uci, false)
                .is_none()
        );
        assert!(
            run.read_info(
                &words("currmove h2e2 currmovenumber 1"),
                Dialect::Uci,
                false
            )
            .is_none()
        );
        let mate = run
            .read_info(&words("depth 7 score mate -3"), Dialect::Uci, false)
            .unwrap();
        assert_eq!(mate.score, Score::Mate(-3));
        // UCCI: the counts come on their own line.
        assert!(
            run.read_info(&words("time 70 nodes 5000"), Dialect::Ucci, false)
                .is_none()
        );
        let ucci = run
            .read_info(&words("depth 3 score 9999 pv h2e2"), Dialect::Ucci, false)
            .unwrap();
        assert_eq!(ucci.score, Score::Mate(1));
        assert_eq!((ucci.nodes, ucci.elapsed_ms), (5000, 70));
        assert_eq!(ucci_score(-9998), Score::Mate(-1));
        assert_eq!(ucci_score(-35), Score::Cp(-35));
        assert_eq!(ucci_score(i32::MAX), Score::Mate(1));
        assert_eq!(ucci_score(i32::MIN), Score::Mate(-1));
        let junk = run.read_info(&words("depth x score cp"), Dialect::Uci, false);
        assert!(junk.is_none());
    }

    #[test]
    fn restrictions_follow_the_dialect() {
        let game = Game::new();
        let h2e2 = Move::parse_iccs("h2e2").unwrap();
        let only = Limits {
            search_moves: vec![h2e2],
            ..Limits::default()
        };
        assert!(
            matches!(Restriction::of(&game, &only, Dialect::Uci), Restriction::Only(m) if m == vec![h2e2])
        );
        match Restriction::of(&game, &only, Dialect::Ucci) {
            Restriction::Ban(m) => assert_eq!(m.len(), 43),
            _ => panic!("UCCI bans the others"),
        }
        assert!(matches!(
            Restriction::of(&game, &Limits::default(), Dialect::Ucci),
            Restriction::None
        ));
    }

    #[test]
    fn reports_are_throttled_and_the_latest_kept() {
        let start = Instant::now();
        let mut throttle = Throttle::new(start);
        let info = |depth| SearchInfo {
            multipv: 1,
            depth,
            seldepth: depth,
            score: Score::Cp(0),
            nodes: 0,
            elapsed_ms: 0,
            pv: Vec::new(),
        };
        let passed = (0..1000)
            .filter(|&d| throttle.admit(info(d), start).is_some())
            .count();
        assert_eq!(passed, INFO_BURST as usize);
        assert_eq!(throttle.held.as_ref().map(|i| i.depth), Some(999));
        let later = start + Duration::from_secs(1);
        assert!(throttle.admit(info(1000), later).is_some());
        assert!(throttle.held.is_none());
    }
}
