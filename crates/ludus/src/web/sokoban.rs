//! The Sokoban WebSocket: one [`SokobanSession`] per game on the server,
//! kept in [`Sessions`] so a reload reconnects (and its clock goes on);
//! every request validated, every reply JSON (see `docs/web-protocol.md`).
//! Requests become session commands and the session's state becomes JSON;
//! the session's solver orders are carried out here, on the blocking pool.
//! The editor's save and check come from [`crate::session::sokoban::editing`].

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::socket::{GameConnection, Replies, refuse};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sokoban::solver::{BoxGoal, Options};
use sokoban::{Cell, Level};
use tokio::sync::mpsc;

use super::App;
use super::protocol::{self, ErrorCode, Refusal, with_seq};
use super::sessions::{GameKey, game_key, lock};
use crate::session::sokoban::editing::{self, NotReady};
use crate::session::sokoban::library::{
    LEVEL_UPDATED, LevelSet, Source, Summary, parse_text, why_nothing_to_play,
};
use crate::session::sokoban::pack;
use crate::session::sokoban::play::{NoRun, NoStep, SnapshotError, SokobanSession};
use crate::session::sokoban::solver_job::{Figures, solve_watched};
use crate::session::sokoban::thinking::{Purpose, SolveOrder, SolverAnswer, SolverOrder};
use crate::session::sokoban::{self as flow, Solved};
use crate::store::settings;

/// A direction in a request or reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dir {
    Left,
    Up,
    Right,
    Down,
}

impl From<Dir> for sokoban::Direction {
    fn from(d: Dir) -> sokoban::Direction {
        match d {
            Dir::Left => sokoban::Direction::Left,
            Dir::Up => sokoban::Direction::Up,
            Dir::Right => sokoban::Direction::Right,
            Dir::Down => sokoban::Direction::Down,
        }
    }
}

impl From<sokoban::Direction> for Dir {
    fn from(d: sokoban::Direction) -> Dir {
        match d {
            sokoban::Direction::Left => Dir::Left,
            sokoban::Direction::Up => Dir::Up,
            sokoban::Direction::Right => Dir::Right,
            sokoban::Direction::Down => Dir::Down,
        }
    }
}

/// Export formats of the editor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Sok,
    Json,
    Xsb,
    Rle,
}

/// A request from the page.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// Play level `level` of collection `collection` (indices into `/api/sokoban/collections`).
    Open {
        #[serde(default)]
        seq: Option<u64>,
        collection: usize,
        level: usize,
    },
    /// Reconnect to the game of an earlier connection (after a page reload).
    Resume {
        #[serde(default)]
        seq: Option<u64>,
        session: String,
    },
    /// Play levels sent as text (a file the player picked, or the editor's play-test).
    Upload {
        #[serde(default)]
        seq: Option<u64>,
        text: String,
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        level: Option<usize>,
        /// A level from the editor, play-tested: solving it records nothing.
        #[serde(default)]
        play_test: bool,
    },
    Move {
        #[serde(default)]
        seq: Option<u64>,
        dir: Dir,
        /// The page plays the solver's solution (solve and show): a solve
        /// through such moves is not recorded as the player's.
        #[serde(default)]
        by_solver: bool,
    },
    /// Ask for the walk to a cell (the page then plays the steps).
    Walk {
        #[serde(default)]
        seq: Option<u64>,
        to: usize,
    },
    /// Ask for the pushes that bring the box at `from` to `to`.
    Push {
        #[serde(default)]
        seq: Option<u64>,
        from: usize,
        to: usize,
    },
    Undo {
        #[serde(default)]
        seq: Option<u64>,
    },
    Redo {
        #[serde(default)]
        seq: Option<u64>,
    },
    Restart {
        #[serde(default)]
        seq: Option<u64>,
    },
    Next {
        #[serde(default)]
        seq: Option<u64>,
        /// Go to the next level not yet solved (as after a solve) instead of the next one.
        #[serde(default)]
        unsolved: bool,
    },
    Prev {
        #[serde(default)]
        seq: Option<u64>,
    },
    Goto {
        #[serde(default)]
        seq: Option<u64>,
        level: usize,
    },
    Hint {
        #[serde(default)]
        seq: Option<u64>,
    },
    /// Shows or hides which goal the solver's lower bound gives each box.
    Goals {
        #[serde(default)]
        seq: Option<u64>,
    },
    Solve {
        #[serde(default)]
        seq: Option<u64>,
    },
    Cancel {
        #[serde(default)]
        seq: Option<u64>,
    },
    /// Undo back to the last position the solver can still solve.
    Rewind {
        #[serde(default)]
        seq: Option<u64>,
    },
    Replay {
        #[serde(default)]
        seq: Option<u64>,
        #[serde(default)]
        by_pushes: bool,
    },
    SaveSnapshot {
        #[serde(default)]
        seq: Option<u64>,
    },
    LoadSnapshot {
        #[serde(default)]
        seq: Option<u64>,
    },
    /// Editor: parse and validate a level.
    Validate {
        #[serde(default)]
        seq: Option<u64>,
        text: String,
    },
    /// Editor: ask the solver whether the level can be solved.
    Check {
        #[serde(default)]
        seq: Option<u64>,
        text: String,
    },
    /// Editor import: the levels in a text (XSB, SOK, RLE or the JSON library form).
    Parse {
        #[serde(default)]
        seq: Option<u64>,
        text: String,
        #[serde(default)]
        name: Option<String>,
    },
    /// Editor export: the level in a file format, for download.
    Export {
        #[serde(default)]
        seq: Option<u64>,
        text: String,
        format: Format,
        #[serde(default)]
        title: Option<String>,
    },
    /// Editor: save the level in the levels folder of the data dir, as a
    /// new `<name>.sok` (`<name>-2.sok`… when taken), or over `saved_as`,
    /// the file an earlier save of the same level made.
    SaveLevel {
        #[serde(default)]
        seq: Option<u64>,
        name: String,
        text: String,
        #[serde(default)]
        title: Option<String>,
        #[serde(default)]
        saved_as: Option<String>,
    },
    Ping {
        #[serde(default)]
        seq: Option<u64>,
    },
}

impl Request {
    /// The sequence number the page attached, echoed in the reply.
    pub fn seq(&self) -> Option<u64> {
        match self {
            Request::Open { seq, .. }
            | Request::Resume { seq, .. }
            | Request::Upload { seq, .. }
            | Request::Move { seq, .. }
            | Request::Walk { seq, .. }
            | Request::Push { seq, .. }
            | Request::Undo { seq }
            | Request::Redo { seq }
            | Request::Restart { seq }
            | Request::Next { seq, .. }
            | Request::Prev { seq }
            | Request::Goto { seq, .. }
            | Request::Hint { seq }
            | Request::Goals { seq }
            | Request::Solve { seq }
            | Request::Cancel { seq }
            | Request::Rewind { seq }
            | Request::Replay { seq, .. }
            | Request::SaveSnapshot { seq }
            | Request::LoadSnapshot { seq }
            | Request::Validate { seq, .. }
            | Request::Check { seq, .. }
            | Request::Parse { seq, .. }
            | Request::Export { seq, .. }
            | Request::SaveLevel { seq, .. }
            | Request::Ping { seq } => *seq,
        }
    }
}

/// Reads one text message into a request, or says why not.
pub fn parse(text: &str) -> Result<Request, Refusal> {
    protocol::parse_as(text)
}

/// Estimated bytes per cell of the level being played: the level and the
/// game's copy, box marks, the deadlock detector's tables, the drawn rows.
const GAME_BYTES_PER_CELL: usize = 32;

/// One game being played in a browser: the session and what the page is sent.
pub struct SokobanGame {
    session: SokobanSession,
    /// Index of the set in the registry; `None` for uploaded levels.
    collection: Option<usize>,
    animation_ms: u32,
    /// The static cells, one string per row (`#` wall, `-` floor, `.` goal, space outside).
    rows: Vec<String>,
    /// The level's key, title and start as XSB, computed once (every state carries them).
    key: String,
    title: String,
    /// The heading the page shows (see `SokobanSession::heading`).
    heading: String,
    xsb: String,
    /// The cancel flag of the solve running for this game, if one is.
    solving: Option<Arc<AtomicBool>>,
    /// Data files moved aside while setting up, for the page (sent once).
    warnings: Vec<String>,
    /// The map pack's skin, if the set is a pack with one.
    skin: Option<SkinView>,
}

impl SokobanGame {
    /// Level `index` of `set`, if it parsed.
    fn new(app: &App, set: Arc<LevelSet>, collection: Option<usize>, index: usize) -> Option<Self> {
        let (settings, settings_warning) = settings::load(&app.data);
        let (progress, progress_warning) = flow::load_progress(&app.data);
        let warnings = [settings_warning, progress_warning]
            .into_iter()
            .filter_map(|w| app.report(w))
            .collect();
        let session = SokobanSession::open(set, index, &progress, settings.sokoban.show_deadlocks)?;
        let level = session.level();
        let skin = SkinView::of(app, session.set());
        Some(SokobanGame {
            skin,
            key: level.key(),
            title: session.title(),
            heading: session.heading(),
            xsb: level.to_xsb(),
            rows: static_rows(level),
            session,
            collection,
            animation_ms: settings.sokoban.animation_ms,
            solving: None,
            warnings,
        })
    }

    /// Stops the solve running for this game: its answer is not wanted.
    fn cancel_solving(&mut self) {
        if let Some(flag) = self.solving.take() {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Nobody is looking: the session pauses (its clock stops, its solver
    /// run is dropped), and the solve stops.
    fn pause(&mut self) {
        self.session.pause(Instant::now());
        self.session.take_orders();
        self.cancel_solving();
    }

    /// The whole visible state, sent after every change, as JSON text.
    /// Serialized straight from borrowed data: it is the reply to every move.
    fn state(&self, session: &str, seq: Option<u64>, blocked: Option<String>) -> String {
        let game = self.session.game();
        let elapsed = self.session.elapsed(Instant::now());
        let level = game.level();
        let counts = |s: &Option<flow::Solution>| {
            s.as_ref().map(|s| Counts {
                moves: s.moves,
                pushes: s.pushes,
            })
        };
        let view = StateView {
            kind: "state",
            session,
            collection: self.collection,
            set: &self.session.set().name,
            count: self.session.set().len(),
            level: self.session.index(),
            title: &self.title,
            heading: &self.heading,
            key: &self.key,
            xsb: &self.xsb,
            width: level.width(),
            height: level.height(),
            map: &self.rows,
            player: game.player(),
            boxes: game.boxes(),
            facing: Dir::from(game.facing()),
            moves: game.moves(),
            pushes: game.pushes(),
            boxes_on_goals: game.boxes_on_goals(),
            box_count: game.box_count(),
            solved: game.is_solved(),
            can_undo: game.can_undo(),
            can_redo: game.can_redo(),
            deadlock: self.session.deadlock().map(|d| DeadlockView {
                message: flow::deadlock_text(&d.kind),
                boxes: &d.boxes,
            }),
            goals: self.session.goal_hint_shown().then(|| {
                let assignment = self.session.goal_hint();
                GoalsView {
                    message: flow::goal_hint::text(assignment),
                    pairs: assignment.map_or(&[], |a| a.pairs.as_slice()),
                    pushes: assignment.and_then(|a| a.pushes),
                }
            }),
            best: self.session.record().map(|r| Best {
                moves: counts(&r.best_by_moves),
                pushes: counts(&r.best_by_pushes),
            }),
            par: level.meta.par.map(|p| ParView {
                pushes: p.pushes,
                proven: p.proven,
            }),
            difficulty: level.meta.difficulty.as_deref(),
            solved_before: self.session.solved_before(),
            thinking: self.session.thinking().is_some(),
            elapsed_ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
            clock_running: self.session.clock_running(),
            animation_ms: self.animation_ms,
            skin: self.skin.as_ref(),
            blocked,
            seq,
        };
        serde_json::to_string(&view).unwrap_or_else(|e| {
            Refusal::new(ErrorCode::Internal, format!("state: {e}"), seq).to_json()
        })
    }

    /// Tells the page what a solve (recorded by the session) achieved.
    fn solved_message(&self, solved: Solved) -> Value {
        let next = self.session.next_level(&solved.progress, true);
        json!({
            "type": "solved",
            "moves": self.session.game().moves(),
            "pushes": self.session.game().pushes(),
            "first_solve": solved.new_best.first_solve,
            "moves_record": solved.new_best.moves_record,
            "pushes_record": solved.new_best.pushes_record,
            "all_solved": solved.all_solved,
            "assisted": solved.assisted,
            "play_test": solved.play_test,
            "against_par": solved.against_par,
            "next": next,
            "problems": solved.problems,
        })
    }
}

/// The static cells of a level as strings, one per row.
fn static_rows(level: &Level) -> Vec<String> {
    let map = level.map();
    (0..map.height())
        .map(|y| {
            (0..map.width())
                .map(|x| match map.cell(map.index(x, y)) {
                    Cell::Outside => ' ',
                    Cell::Wall => '#',
                    Cell::Floor => '-',
                    Cell::Goal => '.',
                })
                .collect()
        })
        .collect()
}

/// The `state` reply (see `docs/web-protocol.md`).
#[derive(Serialize)]
struct StateView<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    session: &'a str,
    collection: Option<usize>,
    set: &'a str,
    count: usize,
    level: usize,
    title: &'a str,
    heading: &'a str,
    key: &'a str,
    /// The level at its start, for the editor.
    xsb: &'a str,
    width: usize,
    height: usize,
    map: &'a [String],
    player: usize,
    boxes: Vec<usize>,
    facing: Dir,
    moves: u32,
    pushes: u32,
    boxes_on_goals: usize,
    box_count: usize,
    solved: bool,
    can_undo: bool,
    can_redo: bool,
    deadlock: Option<DeadlockView<'a>>,
    /// The goal-assignment hint, while shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    goals: Option<GoalsView<'a>>,
    best: Option<Best>,
    /// The level's par and difficulty, when a rating or library gives them.
    par: Option<ParView>,
    difficulty: Option<&'a str>,
    solved_before: bool,
    thinking: bool,
    /// Time spent on the level, and whether it runs on (the page counts on
    /// from `elapsed_ms` while it does).
    elapsed_ms: u64,
    clock_running: bool,
    animation_ms: u32,
    /// The map pack's skin tiles are under this path (`<tile>.png`).
    #[serde(skip_serializing_if = "Option::is_none")]
    skin: Option<&'a SkinView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    blocked: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seq: Option<u64>,
}

/// The goal-assignment hint: each box with its goal (`null`: none it can
/// reach) and the pushes the bound counts for it.
#[derive(Serialize)]
struct GoalsView<'a> {
    message: String,
    #[serde(serialize_with = "goal_pairs")]
    pairs: &'a [BoxGoal],
    pushes: Option<u32>,
}

fn goal_pairs<S: serde::Serializer>(pairs: &&[BoxGoal], out: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = out.serialize_seq(Some(pairs.len()))?;
    for pair in pairs.iter() {
        seq.serialize_element(&json!({
            "box": pair.box_cell,
            "goal": pair.goal,
            "pushes": pair.pushes,
        }))?;
    }
    seq.end()
}

#[derive(Serialize)]
struct DeadlockView<'a> {
    message: &'static str,
    boxes: &'a [usize],
}

#[derive(Serialize)]
struct Best {
    moves: Option<Counts>,
    pushes: Option<Counts>,
}

#[derive(Serialize)]
struct Counts {
    moves: u32,
    pushes: u32,
}

/// A level's par: the fewest pushes known, `proven` or the best found.
#[derive(Serialize)]
struct ParView {
    pushes: u32,
    proven: bool,
}

/// The game a connection plays: its session id and the game.
pub type Current = Option<(String, Arc<Mutex<SokobanGame>>)>;

impl GameConnection for Current {
    type Request = Request;

    fn parse(text: &str) -> Result<Request, Refusal> {
        parse(text)
    }

    fn quick(request: &Request) -> bool {
        matches!(
            request,
            Request::Move { .. }
                | Request::Undo { .. }
                | Request::Redo { .. }
                | Request::Restart { .. }
                | Request::Walk { .. }
                | Request::Push { .. }
                | Request::Ping { .. }
        )
    }

    fn seq(request: &Request) -> Option<u64> {
        request.seq()
    }

    fn handle(
        &mut self,
        app: &Arc<App>,
        request: Request,
        sender: &mpsc::UnboundedSender<String>,
    ) -> Replies {
        handle(app, self, request, sender)
    }

    /// The game stays for a reload; its solver need not run on for nobody.
    fn game(&self) -> Option<GameKey> {
        self.as_ref().map(|(_, game)| game_key(game))
    }

    fn closed(&self) {
        if let Some((_, game)) = self {
            lock(game).pause();
        }
    }
}

fn handle(
    app: &Arc<App>,
    current: &mut Current,
    request: Request,
    sender: &mpsc::UnboundedSender<String>,
) -> Replies {
    let seq = request.seq();
    // Requests that need no game.
    match request {
        Request::Ping { .. } => return vec![with_seq(json!({ "type": "pong" }), seq)],
        Request::Open {
            collection, level, ..
        } => return open_registry(app, current, collection, level, seq),
        Request::Resume { session, .. } => {
            return match app.sokoban.get(&session) {
                Some(game) => {
                    let state = {
                        let mut g = lock(&game);
                        g.session.resume(Instant::now());
                        g.state(&session, seq, None)
                    };
                    *current = Some((session, game));
                    vec![state]
                }
                None => refuse(ErrorCode::NotFound, "that game is gone; open a level", seq),
            };
        }
        Request::Upload {
            text,
            name,
            level,
            play_test,
            ..
        } => {
            let source = if play_test {
                Source::PlayTest
            } else {
                Source::Upload
            };
            return upload(app, current, &text, name.as_deref(), level, source, seq);
        }
        Request::Validate { text, .. } => return vec![with_seq(validation(&text), seq)],
        Request::Check { text, .. } => return check(app, &text, seq, sender),
        Request::Parse { text, name, .. } => return parse_levels(&text, name.as_deref(), seq),
        Request::Export {
            text,
            format,
            title,
            ..
        } => return export(&text, format, title.as_deref(), seq),
        Request::SaveLevel {
            name,
            text,
            title,
            saved_as,
            ..
        } => {
            let edited = EditedLevel {
                name: &name,
                text: &text,
                title: title.as_deref(),
                saved_as: saved_as.as_deref(),
            };
            return save_level(app, &edited, seq);
        }
        _ => {}
    }
    let Some((session, shared)) = current.clone() else {
        return refuse(ErrorCode::NoGame, "open a level first", seq);
    };
    app.sokoban.touch(&session);
    let mut g = lock(&shared);
    let now = Instant::now();
    let mut extra = Vec::new();
    match request {
        Request::Move { dir, by_solver, .. } => {
            match g.session.step(dir.into(), by_solver, &app.data, now) {
                Ok(solved) => extra.extend(solved.map(|s| g.solved_message(s))),
                Err(NoStep::Solved) => {
                    return refuse(ErrorCode::Blocked, "the level is solved", seq);
                }
                Err(NoStep::Blocked(why)) => {
                    return vec![g.state(&session, seq, Some(why.to_string()))];
                }
            }
        }
        Request::Undo { .. } => {
            g.session.undo(now);
        }
        Request::Redo { .. } => {
            let redone = g.session.redo(&app.data, now);
            extra.extend(redone.solved.map(|s| g.solved_message(s)));
        }
        Request::Restart { .. } => {
            g.session.restart(now);
        }
        Request::Walk { to, .. } => {
            return match g.session.walk_to(to) {
                Some(steps) => vec![path_reply("walk", &steps, seq)],
                None => refuse(ErrorCode::Blocked, "the worker cannot walk there", seq),
            };
        }
        Request::Push { from, to, .. } => {
            return match g.session.push_to(from, to) {
                Some(steps) => vec![path_reply("push", &steps, seq)],
                None => refuse(ErrorCode::Blocked, "that box cannot be pushed there", seq),
            };
        }
        Request::Next { unsolved, .. } => {
            let (progress, warning) = flow::load_progress(&app.data);
            g.warnings.extend(app.report(warning));
            let Some(target) = g.session.next_level(&progress, unsolved) else {
                return refuse(ErrorCode::NotFound, "this is the last level", seq);
            };
            return switch_level(app, &mut g, &session, target, seq);
        }
        Request::Prev { .. } => {
            let Some(target) = g.session.previous_level() else {
                return refuse(ErrorCode::NotFound, "this is the first level", seq);
            };
            return switch_level(app, &mut g, &session, target, seq);
        }
        Request::Goto { level, .. } => return switch_level(app, &mut g, &session, level, seq),
        Request::Goals { .. } => {
            g.session.toggle_goal_hint();
        }
        Request::Hint { .. } | Request::Solve { .. } => {
            let purpose = if matches!(request, Request::Hint { .. }) {
                Purpose::Hint
            } else {
                Purpose::Show
            };
            if let Err(NoRun::Solved) = g.session.ask(purpose) {
                return refuse(ErrorCode::Blocked, NoRun::Solved.to_string(), seq);
            }
            return thinking_reply(app, &shared, &mut g, &session, purpose, seq, sender);
        }
        Request::Rewind { .. } => {
            if let Err(why) = g.session.rewind() {
                let text = flow::as_sentence(&why.to_string());
                return vec![with_seq(json!({ "type": "notice", "message": text }), seq)];
            }
            return thinking_reply(app, &shared, &mut g, &session, Purpose::Rewind, seq, sender);
        }
        Request::Cancel { .. } => {
            let stopped = g.session.stop(now);
            extra.extend(
                stopped
                    .text()
                    .map(|text| json!({ "type": "notice", "message": text })),
            );
        }
        Request::Replay { by_pushes, .. } => {
            let (progress, warning) = flow::load_progress(&app.data);
            g.warnings.extend(app.report(warning));
            return match g.session.replay(&progress, by_pushes) {
                Ok(replay) => {
                    let level = g.session.level();
                    let start = json!({ "player": level.player(), "boxes": level.boxes() });
                    let reply = json!({
                        "type": "replay",
                        "lurd": replay.lurd(),
                        "label": replay.label(),
                        "start": start,
                    });
                    let mut replies = vec![with_seq(reply, seq)];
                    replies.extend(notices(&mut g));
                    replies
                }
                Err(why) => refuse(ErrorCode::NotFound, why.to_string(), seq),
            };
        }
        Request::SaveSnapshot { .. } => {
            let text = match g.session.save_snapshot(&app.data) {
                Ok(saved) => {
                    g.warnings.extend(app.report(saved.warning));
                    format!("Snapshot saved at move {}.", saved.moves)
                }
                Err(e) => return refuse(ErrorCode::Internal, e, seq),
            };
            extra.push(json!({ "type": "notice", "message": text }));
        }
        Request::LoadSnapshot { .. } => match g.session.load_snapshot(&app.data, now) {
            Ok(loaded) => {
                g.warnings.extend(app.report(loaded.warning));
                extra.push(json!({ "type": "notice", "message": "Snapshot loaded." }));
            }
            Err(e @ SnapshotError::NoneSaved(_)) => {
                return refuse(ErrorCode::NotFound, e.to_string(), seq);
            }
            Err(e @ SnapshotError::DoesNotFit(_)) => {
                return refuse(ErrorCode::BadLevel, e.to_string(), seq);
            }
            Err(e @ SnapshotError::Unreadable(_)) => {
                return refuse(ErrorCode::Internal, e.to_string(), seq);
            }
        },
        // Handled above.
        Request::Ping { .. }
        | Request::Open { .. }
        | Request::Resume { .. }
        | Request::Upload { .. }
        | Request::Validate { .. }
        | Request::Check { .. }
        | Request::Parse { .. }
        | Request::Export { .. }
        | Request::SaveLevel { .. } => {}
    }
    // A move, an undo or a stop may have dropped a solver run.
    let carried = carry_out_orders(app, &shared, &mut g, &session, seq, sender);
    let mut replies = vec![g.state(&session, seq, None)];
    replies.extend(carried.err());
    replies.extend(extra.into_iter().map(|v| v.to_string()));
    replies
}

/// The session asked the solver for `purpose`: its order goes to the
/// blocking pool and the page hears that the solver thinks (or that it is busy).
fn thinking_reply(
    app: &Arc<App>,
    shared: &Arc<Mutex<SokobanGame>>,
    g: &mut SokobanGame,
    session: &str,
    purpose: Purpose,
    seq: Option<u64>,
    sender: &mpsc::UnboundedSender<String>,
) -> Replies {
    if let Err(busy) = carry_out_orders(app, shared, g, session, seq, sender) {
        return vec![busy];
    }
    vec![with_seq(
        json!({ "type": "thinking", "purpose": purpose.name(), "doing": purpose.doing() }),
        seq,
    )]
}

/// How often a running solve tells the page its figures.
const FIGURES_EVERY: Duration = Duration::from_millis(250);

/// Sends a running solve's figures to the page at most every [`FIGURES_EVERY`]
/// (the page may be gone: the solve goes on for a reload).
fn figures_to(sender: mpsc::UnboundedSender<String>) -> impl FnMut(&Figures) {
    let mut told = Instant::now();
    move |figures| {
        if told.elapsed() >= FIGURES_EVERY {
            told = Instant::now();
            let _ = sender.send(figures_message(figures));
        }
    }
}

/// The `solver_progress` message: a running solve's figures, and their words.
fn figures_message(figures: &Figures) -> String {
    json!({
        "type": "solver_progress",
        "nodes": figures.nodes,
        "stored": figures.stored,
        "depth": figures.depth,
        "lower_bound": figures.lower_bound,
        "seconds": (figures.elapsed.as_secs_f64() * 10.0).round() / 10.0,
        "text": figures.text(),
    })
    .to_string()
}

/// Carries out the session's solver orders: a solve runs on the blocking
/// pool in one of the server's solver slots, and its answer goes to the
/// session and then to the page; a cancel stops the running solve.
///
/// # Errors
/// Every solver slot is taken: the run is dropped and the refusal is returned.
fn carry_out_orders(
    app: &Arc<App>,
    shared: &Arc<Mutex<SokobanGame>>,
    g: &mut SokobanGame,
    session: &str,
    seq: Option<u64>,
    sender: &mpsc::UnboundedSender<String>,
) -> Result<(), String> {
    for order in g.session.take_orders() {
        match order {
            SolverOrder::Cancel => g.cancel_solving(),
            SolverOrder::Solve(order) => {
                g.cancel_solving();
                let Ok(permit) = Arc::clone(&app.solver_slots).try_acquire_owned() else {
                    g.session.stop(Instant::now());
                    g.session.take_orders();
                    let busy = "the solver is busy; try again soon";
                    return Err(Refusal::new(ErrorCode::Busy, busy, seq).to_json());
                };
                let cancel = Arc::new(AtomicBool::new(false));
                g.solving = Some(Arc::clone(&cancel));
                let run = SolveRun {
                    app: Arc::clone(app),
                    shared: Arc::clone(shared),
                    session: session.to_string(),
                    seq,
                    sender: sender.clone(),
                    cancel,
                };
                tokio::task::spawn_blocking(move || {
                    let report = solve_watched(
                        &order.level,
                        &Options::default(),
                        Some(order.limit),
                        &run.cancel,
                        figures_to(run.sender.clone()),
                    );
                    drop(permit);
                    run.done(&order, report.outcome);
                });
            }
        }
    }
    Ok(())
}

/// One solve on the blocking pool and where its answer goes.
struct SolveRun {
    app: Arc<App>,
    shared: Arc<Mutex<SokobanGame>>,
    session: String,
    seq: Option<u64>,
    sender: mpsc::UnboundedSender<String>,
    cancel: Arc<AtomicBool>,
}

impl SolveRun {
    /// Hands the outcome to the session and its answer to the page; a
    /// rewind may go on with an earlier position.
    fn done(self, order: &SolveOrder, outcome: sokoban::solver::Outcome) {
        let mut g = lock(&self.shared);
        // Another level (or a newer run) took this game's place meanwhile.
        if !g
            .solving
            .as_ref()
            .is_some_and(|c| Arc::ptr_eq(c, &self.cancel))
        {
            return;
        }
        g.solving = None;
        let answer = g.session.solver_done(order.id, outcome, Instant::now());
        let mut replies = Vec::new();
        if let Err(busy) = carry_out_orders(
            &self.app,
            &self.shared,
            &mut g,
            &self.session,
            self.seq,
            &self.sender,
        ) {
            replies.push(busy);
        }
        replies.extend(answer.map_or_else(Vec::new, |a| self.replies(&g, a)));
        for reply in replies {
            // The page may be gone: the game stays for a reload.
            let _ = self.sender.send(reply);
        }
    }

    fn replies(&self, g: &SokobanGame, answer: SolverAnswer) -> Replies {
        let seq = self.seq;
        let notice = |text: &str| with_seq(json!({ "type": "notice", "message": text }), seq);
        match answer {
            SolverAnswer::Play {
                purpose,
                steps,
                moves,
                pushes,
                text,
                ..
            } => {
                let dirs: Vec<Dir> = steps.into_iter().map(Dir::from).collect();
                let reply = json!({
                    "type": "solution",
                    "purpose": purpose.name(),
                    "steps": dirs,
                    "moves": moves,
                    "pushes": pushes,
                    "text": text,
                });
                vec![with_seq(reply, seq)]
            }
            SolverAnswer::Unsolvable { purpose } => vec![with_seq(
                json!({
                    "type": "unsolvable",
                    "purpose": purpose.name(),
                    "message": "This position cannot be solved any more. Enter (or the button): back to the last one that can.",
                }),
                seq,
            )],
            SolverAnswer::Rewound { text, .. } => {
                vec![g.state(&self.session, None, None), notice(&text)]
            }
            SolverAnswer::Notice(text) => vec![notice(&text)],
        }
    }
}

fn path_reply(purpose: &str, steps: &[sokoban::Direction], seq: Option<u64>) -> String {
    let dirs: Vec<Dir> = steps.iter().map(|&d| Dir::from(d)).collect();
    with_seq(
        json!({ "type": "path", "purpose": purpose, "steps": dirs }),
        seq,
    )
}

/// Starts a new game and keeps it under a new session id.
fn start(
    app: &App,
    current: &mut Current,
    set: Arc<LevelSet>,
    collection: Option<usize>,
    index: usize,
    seq: Option<u64>,
) -> Replies {
    // Weighed before the game (and its detector) is set up.
    let bytes = session_bytes(&set, collection.is_none());
    if bytes > app.limits.session_bytes {
        let message = format!(
            "these levels would take about {} KiB on the server; one game may take at most {} KiB",
            bytes.div_ceil(1024),
            app.limits.session_bytes / 1024
        );
        return refuse(ErrorCode::TooLarge, message, seq);
    }
    let Some(mut game) = SokobanGame::new(app, set, collection, index) else {
        return refuse(
            ErrorCode::NotFound,
            format!("no playable level {index}"),
            seq,
        );
    };
    if let Some((_, old)) = current.take() {
        lock(&old).pause();
    }
    let warnings = notices(&mut game);
    let game = Arc::new(Mutex::new(game));
    let id = match app.sokoban.insert_sized(Arc::clone(&game), bytes) {
        Ok(id) => id,
        Err(e) => return refuse(ErrorCode::TooLarge, e.to_string(), seq),
    };
    let mut replies = vec![lock(&game).state(&id, seq, None)];
    replies.extend(warnings);
    *current = Some((id, game));
    replies
}

fn open_registry(
    app: &App,
    current: &mut Current,
    collection: usize,
    level: usize,
    seq: Option<u64>,
) -> Replies {
    let Some(set) = app.set(collection) else {
        return refuse(
            ErrorCode::NotFound,
            format!("no collection {collection}"),
            seq,
        );
    };
    let name = set.name.clone();
    let replies = start(app, current, set, Some(collection), level, seq);
    if current.is_some() {
        // Remembered like the terminal's level browser does; failing to is no reason to stop.
        let _ = settings::update(&app.data, |s| {
            s.sokoban.last_collection = Some(name);
            s.sokoban.last_level = Some(level);
        });
    }
    replies
}

/// Moves the same session to another level of its set.
fn switch_level(
    app: &App,
    g: &mut SokobanGame,
    session: &str,
    index: usize,
    seq: Option<u64>,
) -> Replies {
    let Some(next) = SokobanGame::new(app, Arc::clone(g.session.set()), g.collection, index) else {
        return refuse(
            ErrorCode::NotFound,
            format!("no playable level {index}"),
            seq,
        );
    };
    g.cancel_solving();
    *g = next;
    if g.collection.is_some() {
        let (name, level) = (g.session.set().name.clone(), index);
        let _ = settings::update(&app.data, |s| {
            s.sokoban.last_collection = Some(name);
            s.sokoban.last_level = Some(level);
        });
    }
    let mut replies = vec![g.state(session, seq, None)];
    replies.extend(notices(g));
    replies
}

/// The data files moved aside since the page last heard, as `notice` messages.
fn notices(g: &mut SokobanGame) -> Vec<String> {
    std::mem::take(&mut g.warnings)
        .into_iter()
        .map(|text| json!({ "type": "notice", "message": text }).to_string())
        .collect()
}

/// Estimated bytes a parsed collection holds: each level's cells, boxes and texts.
fn collection_bytes(collection: &sokoban::Collection) -> usize {
    let texts = |meta: &sokoban::Metadata| {
        let lines = meta.comments.iter().chain(&meta.solutions);
        meta.title.as_ref().map_or(0, String::len)
            + meta.author.as_ref().map_or(0, String::len)
            + lines.map(|l| l.len() + size_of::<String>()).sum::<usize>()
    };
    let levels: usize = collection
        .levels
        .iter()
        .map(|level| {
            size_of::<Result<Level, sokoban::ParseError>>()
                + match level {
                    Ok(level) => {
                        level.map().len() + size_of_val(level.boxes()) + texts(&level.meta)
                    }
                    Err(e) => e.to_string().len(),
                }
        })
        .sum();
    let notes: usize = collection.notes.iter().map(String::len).sum();
    size_of::<sokoban::Collection>() + levels + notes
}

/// Estimated bytes one kept game of `set` holds: the set itself when only
/// this game holds it (an upload), and its largest level being played.
fn session_bytes(set: &LevelSet, owned: bool) -> usize {
    let largest = set
        .collection
        .valid_levels()
        .map(|(_, l)| l.map().len())
        .max()
        .unwrap_or(0);
    let own = if owned {
        collection_bytes(&set.collection)
    } else {
        0
    };
    size_of::<SokobanGame>() + own + largest * GAME_BYTES_PER_CELL
}

/// Levels from text (a file name chooses JSON or XSB/SOK parsing; the name
/// is never used as a path).
fn read_levels(text: &str, name: Option<&str>) -> Result<sokoban::Collection, String> {
    let name = name.unwrap_or("upload.sok");
    parse_text(text, Path::new(name)).map_err(|e| e.to_string())
}

fn upload(
    app: &App,
    current: &mut Current,
    text: &str,
    name: Option<&str>,
    level: Option<usize>,
    source: Source,
    seq: Option<u64>,
) -> Replies {
    let collection = match read_levels(text, name) {
        Ok(c) => c,
        Err(e) => return refuse(ErrorCode::BadLevel, e, seq),
    };
    let index = match level {
        Some(i) => i,
        None => match collection.valid_levels().next() {
            Some((i, _)) => i,
            None => {
                let why = why_nothing_to_play(&collection);
                return refuse(ErrorCode::BadLevel, why, seq);
            }
        },
    };
    let set_name = collection
        .title
        .clone()
        .or_else(|| name.map(str::to_string))
        .unwrap_or_else(|| "Uploaded".into());
    let set = Arc::new(LevelSet {
        name: set_name.chars().take(80).collect(),
        source,
        collection,
        credit: None,
    });
    start(app, current, set, None, index, seq)
}

/// The editor's level: parsed, with its title.
fn editor_level(text: &str, title: Option<&str>) -> Result<Level, sokoban::ParseError> {
    let mut level = Level::from_xsb(text)?;
    if let Some(t) = title.filter(|t| !t.trim().is_empty()) {
        level.meta.title = Some(t.trim().chars().take(80).collect());
    }
    Ok(level)
}

/// Parse errors and validation findings, with the cells they point at.
fn validation(text: &str) -> Value {
    match Level::from_xsb(text) {
        Err(e) => {
            // Only some parse errors point at a cell; "no player" is about the whole level.
            let at_cell = matches!(
                e.kind,
                sokoban::ParseErrorKind::IllegalCharacter(_) | sokoban::ParseErrorKind::TwoPlayers
            );
            json!({
                "type": "validation",
                "ok": false,
                "findings": [{
                    "error": true,
                    "message": e.kind.to_string(),
                    "x": at_cell.then(|| e.column.saturating_sub(1)),
                    "y": at_cell.then(|| e.line.saturating_sub(1)),
                }],
            })
        }
        Ok(level) => {
            let report = sokoban::validate(&level);
            let findings: Vec<Value> = report
                .findings
                .iter()
                .map(|f| {
                    let at = f.cell.map(|c| level.source_position(c));
                    json!({
                        "error": f.problem.is_error(),
                        "message": f.problem.to_string(),
                        "x": at.map(|(_, column)| column.saturating_sub(1)),
                        "y": at.map(|(line, _)| line.saturating_sub(1)),
                    })
                })
                .collect();
            json!({
                "type": "validation",
                "ok": report.is_ok(),
                "findings": findings,
                "boxes": level.boxes().len(),
            })
        }
    }
}

fn check(
    app: &Arc<App>,
    text: &str,
    seq: Option<u64>,
    sender: &mpsc::UnboundedSender<String>,
) -> Replies {
    let level = match editing::ready(Level::from_xsb(text)) {
        Ok(level) => level,
        Err(why) => return refuse(ErrorCode::BadLevel, why.to_string(), seq),
    };
    let Ok(permit) = Arc::clone(&app.solver_slots).try_acquire_owned() else {
        return refuse(ErrorCode::Busy, "the solver is busy; try again soon", seq);
    };
    let sender = sender.clone();
    tokio::task::spawn_blocking(move || {
        // Nobody cancels a check: it is bounded by its time limit.
        let report = solve_watched(
            &level,
            &Options::default(),
            Some(editing::CHECK_LIMIT),
            &AtomicBool::new(false),
            figures_to(sender.clone()),
        );
        drop(permit);
        let message = editing::check_text(&report.outcome);
        let answer = match report.outcome {
            sokoban::solver::Outcome::Solved(s) => json!({
                "type": "checked", "outcome": "solvable", "moves": s.moves, "pushes": s.pushes,
                "message": message,
            }),
            sokoban::solver::Outcome::Unsolvable => json!({
                "type": "checked", "outcome": "unsolvable", "message": message,
            }),
            _ => json!({ "type": "checked", "outcome": "undecided", "message": message }),
        };
        let _ = sender.send(with_seq(answer, seq));
    });
    vec![with_seq(
        json!({ "type": "thinking", "purpose": "check", "doing": "Checking with the solver" }),
        seq,
    )]
}

fn parse_levels(text: &str, name: Option<&str>, seq: Option<u64>) -> Replies {
    let collection = match read_levels(text, name) {
        Ok(c) => c,
        Err(e) => return refuse(ErrorCode::BadLevel, e, seq),
    };
    let levels: Vec<Value> = collection
        .levels
        .iter()
        .map(|l| match l {
            Ok(level) => json!({ "title": level.meta.title, "xsb": level.to_xsb() }),
            Err(e) => json!({ "error": e.to_string() }),
        })
        .collect();
    if levels.is_empty() {
        return refuse(ErrorCode::BadLevel, "no level found", seq);
    }
    vec![with_seq(
        json!({ "type": "parsed", "title": collection.title, "levels": levels }),
        seq,
    )]
}

/// A file name made from a title: letters, digits and `-` only.
pub fn slug(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out: String = out.trim_end_matches('-').chars().take(60).collect();
    if out.is_empty() { "level".into() } else { out }
}

fn export(text: &str, format: Format, title: Option<&str>, seq: Option<u64>) -> Replies {
    let level = match editor_level(text, title) {
        Ok(level) => level,
        Err(e) => return refuse(ErrorCode::BadLevel, e.to_string(), seq),
    };
    let title = level.meta.title.clone();
    let one = std::slice::from_ref(&level);
    let (body, ext) = match format {
        Format::Sok => (
            sokoban::format::sok::write_sok(title.as_deref(), one),
            "sok",
        ),
        Format::Json => (
            sokoban::format::json::write_library(title.as_deref(), one),
            "json",
        ),
        Format::Xsb => (level.to_xsb(), "xsb"),
        Format::Rle => (sokoban::format::xsb::to_rle(&level), "txt"),
    };
    let filename = format!("{}.{ext}", slug(title.as_deref().unwrap_or("level")));
    vec![with_seq(
        json!({ "type": "exported", "format": format, "filename": filename, "text": body }),
        seq,
    )]
}

/// Saves an editor level as `sokoban/levels/<name>.sok` in the data dir.
/// The name must be a plain file stem; the data dir refuses anything else.
/// A `save_level` request: the level's text and title, the file name the
/// page proposes, and the file an earlier save made.
struct EditedLevel<'a> {
    name: &'a str,
    text: &'a str,
    title: Option<&'a str>,
    saved_as: Option<&'a str>,
}

fn save_level(app: &App, edited: &EditedLevel<'_>, seq: Option<u64>) -> Replies {
    if !editing::plain_name(edited.name, editing::MAX_NAME) {
        return refuse(
            ErrorCode::BadPath,
            "a level name is 1 to 64 letters, digits, - or _",
            seq,
        );
    }
    // Only a file an earlier save made (a plain `.sok` name) is replaced.
    let saved_before = match edited.saved_as {
        Some(file) => match editing::saved_before(&app.data, file) {
            Ok(path) => path,
            Err(why) => return refuse(ErrorCode::BadPath, why.to_string(), seq),
        },
        None => None,
    };
    let level = match editing::ready(editor_level(edited.text, edited.title)) {
        Ok(level) => level,
        Err(NotReady::HasErrors) => {
            return refuse(ErrorCode::BadLevel, "fix the errors before saving", seq);
        }
        Err(why) => return refuse(ErrorCode::BadLevel, why.to_string(), seq),
    };
    let title = level
        .meta
        .title
        .clone()
        .unwrap_or_else(|| edited.name.to_string());
    let saved = editing::save(
        &app.data,
        &level,
        &title,
        edited.name,
        saved_before.as_deref(),
    );
    let path = match saved {
        Ok(path) => path,
        Err(e) => return refuse(ErrorCode::BadPath, format!("could not save: {e:#}"), seq),
    };
    app.reload_sets();
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    vec![with_seq(
        json!({ "type": "saved", "path": format!("sokoban/levels/{name}"), "name": name }),
        seq,
    )]
}

/// Installs a pack sent from the page and rereads the collections: its
/// name and index, or why it was refused.
///
/// # Errors
/// The pack is refused (naming the entry) or could not be written.
pub fn install_pack(app: &App, bytes: &[u8], file_name: &str) -> Result<Value, String> {
    let pack = pack::read_zip(bytes, file_name).map_err(|e| e.to_string())?;
    pack::install(&app.data, &pack).map_err(|e| format!("{e:#}"))?;
    app.reload_sets();
    let collection = app
        .sets()
        .iter()
        .position(|s| matches!(&s.source, Source::Pack { folder } if *folder == pack.folder));
    Ok(json!({ "name": pack.name, "collection": collection, "skin": !pack.skin.is_empty() }))
}

/// The bytes of a skin tile of an installed pack, if the names are plain
/// and the tile is there.
pub fn skin_image(app: &App, folder: &str, file: &str) -> Option<Vec<u8>> {
    let tile = file.strip_suffix(".png").and_then(pack::Tile::from_name)?;
    if !editing::plain_name(folder, pack::MAX_PACK_NAME_CHARS) {
        return None;
    }
    let path = pack::packs_dir(&app.data)
        .join(folder)
        .join("skin")
        .join(format!("{}.png", tile.name()));
    crate::store::limits::read_file(&path, pack::MAX_IMAGE_BYTES).ok()
}

/// Where the page finds the skin of a pack's set, and which tiles it has.
#[derive(Clone, Debug, Serialize)]
struct SkinView {
    url: String,
    tiles: Vec<&'static str>,
}

impl SkinView {
    /// The skin of the set being played, if it is a pack with one.
    fn of(app: &App, set: &LevelSet) -> Option<SkinView> {
        let Source::Pack { folder } = &set.source else {
            return None;
        };
        let dir = pack::packs_dir(&app.data).join(folder).join("skin");
        let tiles: Vec<&'static str> = pack::Tile::ALL
            .iter()
            .map(|t| t.name())
            .filter(|name| dir.join(format!("{name}.png")).is_file())
            .collect();
        let plain = editing::plain_name(folder, pack::MAX_PACK_NAME_CHARS);
        (plain && !tiles.is_empty()).then(|| SkinView {
            url: format!("/sokoban/packs/{folder}/skin/"),
            tiles,
        })
    }
}

/// What the level browser lists of a collection: where it comes from, a
/// short label rather than a file path.
fn origin_label(set: &LevelSet) -> &'static str {
    match set.source {
        Source::Builtin { .. } => "built in",
        Source::Pack { .. } => "map pack",
        _ => "your levels",
    }
}

/// A collection's summary as the page gets it (no levels).
fn summary_json(index: usize, set: &LevelSet, summary: &Summary) -> Value {
    json!({
        "index": index,
        "name": summary.name,
        "author": summary.author,
        "group": summary.group,
        "origin": origin_label(set),
        "credit": summary.credit,
        "levels": summary.levels,
        "solved": summary.solved,
        "first_unsolved": summary.first_unsolved,
        "updated": summary.updated.len(),
    })
}

/// Every collection, summed up without its levels, for the level browser
/// (`GET /api/sokoban/collections`): the levels of one are asked for when
/// it is chosen ([`collection`]). The registry is reread first, so files
/// added to the levels folder appear.
pub fn collections(app: &App) -> Value {
    let mut problems = app.reload_sets();
    let (progress, warning) = flow::load_progress(&app.data);
    problems.extend(app.report(warning));
    let sets = app.sets();
    let list: Vec<Value> = sets
        .iter()
        .enumerate()
        .map(|(i, set)| summary_json(i, set, &Summary::of(set, &progress)))
        .collect();
    let (settings, warning) = settings::load(&app.data);
    problems.extend(app.report(warning));
    let last = settings.sokoban.last_collection.as_ref().and_then(|name| {
        let i = sets.iter().position(|s| &s.name == name)?;
        Some(json!({ "collection": i, "level": settings.sokoban.last_level.unwrap_or(0) }))
    });
    json!({ "collections": list, "problems": problems, "last": last })
}

/// One collection of the list: its summary and every level's board, solved mark, best,
/// par, difficulty and updated mark (`GET /api/sokoban/collections/<index>`,
/// the index of the last list); `None` when there is no such collection.
pub fn collection(app: &App, index: usize) -> Option<Value> {
    let set = app.set(index)?;
    let (progress, warning) = flow::load_progress(&app.data);
    let problems: Vec<String> = app.report(warning).into_iter().collect();
    let summary = Summary::of(&set, &progress);
    let updated: std::collections::HashSet<usize> = summary.updated.iter().copied().collect();
    let counts =
        |s: Option<&flow::Solution>| s.map(|s| json!({ "moves": s.moves, "pushes": s.pushes }));
    let levels: Vec<Value> = set
        .collection
        .levels
        .iter()
        .enumerate()
        .map(|(n, l)| match l {
            Ok(level) => {
                let record = progress.get(&level.key());
                json!({
                    "index": n,
                    "title": flow::level_title(&set, n, level),
                    "name": flow::list_name(level),
                    "xsb": level.to_xsb(),
                    "solved": record.is_some_and(|r| r.solved.is_some()),
                    "best_moves": counts(record.and_then(|r| r.best_by_moves.as_ref())),
                    "best_pushes": counts(record.and_then(|r| r.best_by_pushes.as_ref())),
                    "par": level.meta.par.map(|p| json!({ "pushes": p.pushes, "proven": p.proven })),
                    "difficulty": level.meta.difficulty,
                    "updated": updated.contains(&n),
                })
            }
            Err(e) => json!({ "index": n, "error": e.to_string() }),
        })
        .collect();
    Some(json!({
        "collection": summary_json(index, &set, &summary),
        "levels": levels,
        "level_updated": LEVEL_UPDATED,
        "problems": problems,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::protocol::MAX_MESSAGE;

    fn code(text: &str) -> Option<ErrorCode> {
        parse(text).err().map(|r| r.code)
    }

    #[test]
    fn good_requests() {
        assert_eq!(
            parse(r#"{"type":"move","dir":"up","seq":3}"#),
            Ok(Request::Move {
                seq: Some(3),
                dir: Dir::Up,
                by_solver: false,
            })
        );
        assert_eq!(
            parse(r#"{"type":"move","dir":"up","by_solver":true}"#),
            Ok(Request::Move {
                seq: None,
                dir: Dir::Up,
                by_solver: true,
            })
        );
        assert_eq!(parse(r#"{"type":"undo"}"#), Ok(Request::Undo { seq: None }));
    }

    #[test]
    fn bad_requests() {
        assert_eq!(code("{"), Some(ErrorCode::BadJson));
        assert_eq!(code("[1,2]"), Some(ErrorCode::BadJson));
        assert_eq!(code(r#"{"dir":"up"}"#), Some(ErrorCode::BadRequest));
        assert_eq!(code(r#"{"type":"fly"}"#), Some(ErrorCode::UnknownType));
        assert_eq!(
            code(r#"{"type":"move","dir":"sideways"}"#),
            Some(ErrorCode::BadRequest)
        );
        assert_eq!(
            code(r#"{"type":"move","dir":"up","x":1}"#),
            Some(ErrorCode::BadRequest)
        );
        assert_eq!(
            code(&" ".repeat(MAX_MESSAGE + 1)),
            Some(ErrorCode::TooLarge)
        );
        let refused = parse(r#"{"type":"walk","seq":9}"#).err();
        assert_eq!(refused.map(|r| r.seq), Some(Some(9)));
    }
}
