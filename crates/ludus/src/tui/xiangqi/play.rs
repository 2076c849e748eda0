//! The play screen: the board, moving by cursor or by typing, the engine on a
//! worker thread with its thinking line, the move list, clocks, undo, hints,
//! resignation and draw offers, saving, and stepping through the game.

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color as Tint, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use xiangqi::engine::SearchInfo;
use xiangqi::pgn::PgnGame;
use xiangqi::{Color, Game, Move, Position, Square};

use super::Notation;
use super::board::{self, Marks};
use super::graph;
use crate::engine_seats::EngineSeats;
use crate::engine_worker::Event;
use crate::session::xiangqi::flow::{self, Characters, Clocks, Purpose, score_text, side_name};
use crate::session::xiangqi::{Answer, DrawAnswer, Refusal, Seat, XiangqiSession};
use crate::tui::app::{Action, Ctx, Screen};
use crate::tui::widgets::{clock, key_hints, popup};

/// Every key of the play screen, for the help overlay (and the README).
pub const KEYS: [(&str, &str); 22] = [
    ("←↑→↓", "move the cursor"),
    (
        "Enter  Space",
        "pick up a piece, then put it on a marked point",
    ),
    ("Esc", "put the piece back / cancel"),
    (":  m", "type a move (ICCS h2e2, WXF C2.5, or 炮二平五)"),
    ("u  Backspace", "undo (a move of each side against Ludus)"),
    ("h", "hint: Ludus suggests a move"),
    ("f", "flip the board"),
    ("n", "move list in Chinese / WXF / ICCS"),
    ("c", "traditional / simplified characters"),
    ("r", "resign (press twice)"),
    ("d", "offer a draw"),
    ("S  Ctrl-S", "save the game (PGN in xiangqi/games/)"),
    (
        "[  ]  PgUp PgDn",
        "step back / forward (engines paused: ] plays one move)",
    ),
    ("Home  End", "first position / back to the game"),
    ("a", "analysis on / off: Ludus's best three lines"),
    ("p", "pause / resume the analysis, or the engines playing"),
    ("g", "evaluation graph on / off"),
    ("w", "engines play on from here (the set-up's engines)"),
    ("N", "new game"),
    ("L", "saved games"),
    ("?", "this help"),
    ("q  Esc", "back (asks first if moves are unsaved)"),
];

/// Room the board, a narrow side panel and the key hints need.
const MIN_WIDTH: u16 = board::WIDTH + 2 + 30;
const MIN_HEIGHT: u16 = board::HEIGHT + 1;

pub use crate::session::xiangqi::Opponent;

/// The engine workers and the channel their events arrive on.
struct Workers {
    engines: EngineSeats,
    events: mpsc::Receiver<Event>,
}

impl Workers {
    fn new() -> Workers {
        let (tx, events) = mpsc::channel();
        let engines = EngineSeats::new(move |e| {
            let _ = tx.send(e);
        });
        Workers { engines, events }
    }
}

/// Where the player asked to go from a game with unsaved moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Leave {
    Back,
    NewGame,
    SavedGames,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Tone {
    Info,
    Good,
    Bad,
}

/// The play screen: the game is a [`XiangqiSession`]; the screen keeps only
/// what it shows (cursor, picked piece, typed move, message, the view).
pub struct Play {
    session: XiangqiSession,
    /// The evaluation graph is drawn under the moves.
    graph: bool,
    cursor: Square,
    selected: Option<Square>,
    flipped: bool,
    notation: Notation,
    /// Traditional or simplified characters, for the board and the moves alike.
    characters: Characters,
    /// A move being typed.
    input: Option<String>,
    message: Option<(String, Tone)>,
    workers: Workers,
    /// The game-over box is shown until a key is pressed.
    over_popup: bool,
    confirm_resign: bool,
    /// Waiting for the player to confirm leaving a game with unsaved moves.
    leaving: Option<Leave>,
    help: bool,
}

/// A line of moves from `pos` in Chinese notation, at most `max` moves and
/// about `width` columns (stops at anything illegal).
fn chinese_line(
    pos: &Position,
    moves: &[Move],
    max: usize,
    width: usize,
    chars: Characters,
) -> String {
    let mut words: Vec<String> = Vec::new();
    for word in flow::chinese_words(pos, moves, max, chars) {
        let used: usize = words.iter().map(|w| unicode_width(w) + 1).sum();
        if !words.is_empty() && used + unicode_width(&word) > width {
            break;
        }
        words.push(word);
    }
    words.join(" ")
}

impl Play {
    /// A game in progress; against the engine, it starts thinking at once if
    /// it is its move. `clock` is base time and increment.
    pub fn new(
        game: Game,
        opponent: Opponent,
        clock: Option<(Duration, Duration)>,
        ctx: &Ctx,
    ) -> Play {
        let clocks = clock.map(|(base, increment)| Clocks::new(base, increment));
        Play::with_session(XiangqiSession::new(game, opponent, clocks), ctx)
    }

    /// A saved or opened record: against Ludus if it was played against
    /// Ludus, with its clocks; `saved_as` is where a save goes.
    pub fn from_record(pgn: &PgnGame, title: String, saved_as: Option<PathBuf>, ctx: &Ctx) -> Play {
        Play::with_session(XiangqiSession::from_record(pgn, title, saved_as), ctx)
    }

    pub fn with_session(session: XiangqiSession, ctx: &Ctx) -> Play {
        let human = match session.opponent() {
            Opponent::Engine { human, .. } => human,
            Opponent::Humans => session.position().turn(),
            Opponent::Engines => Color::Red,
        };
        let mut play = Play {
            cursor: session.position().general(human),
            // Your own side at the bottom against Ludus; Red at the bottom for two players.
            flipped: matches!(
                session.opponent(),
                Opponent::Engine {
                    human: Color::Black,
                    ..
                }
            ),
            session,
            graph: true,
            selected: None,
            notation: Notation::from_setting(&ctx.settings.xiangqi.notation),
            characters: Characters::from_setting(&ctx.settings.xiangqi.characters),
            input: None,
            message: None,
            workers: Workers::new(),
            over_popup: false,
            confirm_resign: false,
            leaving: None,
            help: false,
        };
        play.run_orders();
        play
    }

    /// Shows the position after `plies` moves (the end: the current game).
    pub fn view_ply(&mut self, plies: usize) {
        self.session.show(plies);
        self.run_orders();
        self.selected = None;
        if self.session.view().is_some() {
            self.say(
                "Stepping through the game: ] forward, [ back, End to the last move",
                Tone::Info,
            );
        }
    }

    /// Replaces the thinking line's progress (tests show a fixed one).
    pub fn show_thinking(&mut self, info: SearchInfo) {
        if self.session.thinking().is_none() {
            // Tests ask for a thinking line without a search: ask for a hint.
            let _ = self.session.ask_hint();
            self.session.take_orders();
        }
        if let Some(id) = self.session.thinking().map(|t| t.id) {
            self.session.search_info(id, info);
        }
    }

    /// Turns the analysis on with these reports instead of the engine's
    /// (tests show fixed lines).
    pub fn analyse_with(&mut self, infos: impl IntoIterator<Item = SearchInfo>) {
        if self.session.start_analysis().is_err() {
            return;
        }
        self.session.take_orders();
        if let Some(id) = self.session.thinking().map(|t| t.id) {
            for info in infos {
                self.session.search_info(id, info);
            }
        }
    }

    /// Whether the engine is searching (for a move or a hint).
    pub fn is_thinking(&self) -> bool {
        self.session.thinking().is_some()
    }

    /// The game as played so far.
    pub fn game(&self) -> &Game {
        self.session.game()
    }

    fn say(&mut self, text: impl Into<String>, tone: Tone) {
        self.message = Some((text.into(), tone));
    }

    /// The position before the last move (Ludus's move, to write it).
    fn position_before_last(&self) -> Position {
        let game = self.session.game();
        let mut pos = game.start_position().clone();
        for m in game.moves().take(game.plies().len().saturating_sub(1)) {
            pos.make_move(m);
        }
        pos
    }

    /// The position on the board (a past one while stepping through the game).
    fn shown(&self) -> (Position, Option<Move>) {
        self.session.shown()
    }

    /// Carries out what the session asked of the engines.
    fn run_orders(&mut self) {
        for order in self.session.take_orders() {
            self.workers.engines.carry_out(order);
        }
    }

    /// After a command: the engine's orders, the game-over box, a check warning.
    fn after_command(&mut self, was_over: bool) {
        self.run_orders();
        self.selected = None;
        if !was_over && self.session.over().is_some() {
            self.over_popup = true;
        } else if self.session.over().is_none() && self.session.position().in_check() {
            let side = side_name(self.session.position().turn());
            self.say(format!("Check! {side} must answer it."), Tone::Bad);
        }
    }

    fn human_move(&mut self, m: Move) {
        let was_over = self.session.over().is_some();
        match self.session.play(m, Instant::now()) {
            Ok(()) => {
                self.message = None;
                self.after_command(was_over);
            }
            Err(Refusal::Over(_)) => {
                self.say("The game is over: u undoes, N starts a new one", Tone::Info);
            }
            Err(Refusal::EngineToMove) => {
                self.say("Ludus is thinking; wait for its move", Tone::Info);
            }
            Err(e) => self.say(capitalised(&e.to_string()), Tone::Bad),
        }
    }

    fn can_move_here(&mut self) -> bool {
        if self.session.view().is_some() {
            self.say(
                "You are looking at an earlier position: End goes back to the game",
                Tone::Info,
            );
            return false;
        }
        true
    }

    /// Enter or Space on the cursor.
    fn pick(&mut self) {
        if !self.can_move_here() {
            return;
        }
        let pos = self.session.position().clone();
        let here = self.cursor;
        if let Some(from) = self.selected {
            if from == here {
                self.selected = None;
                return;
            }
            let m = Move::new(from, here);
            if pos.is_legal(m) {
                self.human_move(m);
                return;
            }
        }
        match pos.piece_at(here) {
            Some(p) if p.color == pos.turn() => {
                if pos.legal_moves().iter().any(|m| m.from == here) {
                    self.selected = Some(here);
                    self.message = None;
                } else {
                    self.say("That piece has no legal move", Tone::Bad);
                }
            }
            Some(_) => self.say(format!("It is {}'s move", side_name(pos.turn())), Tone::Bad),
            None if self.selected.is_some() => {
                self.say("The piece cannot go there", Tone::Bad);
            }
            None => self.say("Pick up one of your pieces", Tone::Info),
        }
    }

    fn move_cursor(&mut self, dc: i8, dr: i8) {
        let (c, r) = board::screen_of(self.cursor, self.flipped);
        let c = (c as i8 + dc).clamp(0, 8) as u8;
        let r = (r as i8 + dr).clamp(0, 9) as u8;
        if let Some(sq) = board::square_at(c, r, self.flipped) {
            self.cursor = sq;
        }
    }

    fn typed(&mut self, text: &str) {
        if !self.can_move_here() {
            return;
        }
        match self.session.position().parse_move(text.trim()) {
            Ok(m) => self.human_move(m),
            Err(e) => self.say(e.to_string(), Tone::Bad),
        }
    }

    fn undo(&mut self) {
        self.session.show(usize::MAX);
        match self.session.undo() {
            Ok(removed) => {
                self.say(
                    format!(
                        "Took back {removed} {}",
                        if removed == 1 { "move" } else { "moves" }
                    ),
                    Tone::Info,
                );
                self.after_command(false);
            }
            Err(_) => self.say("Nothing to undo", Tone::Info),
        }
    }

    fn hint(&mut self) {
        if self.session.over().is_some() || !self.can_move_here() {
            return;
        }
        match self.session.ask_hint() {
            Ok(()) => {
                self.run_orders();
                self.say("Looking for a good move…", Tone::Info);
            }
            Err(e) => self.say(format!("{}{}", capitalised(&e.to_string()), ""), Tone::Info),
        }
    }

    fn resign(&mut self) {
        if self.session.over().is_some() {
            return;
        }
        if !self.confirm_resign {
            self.confirm_resign = true;
            self.say("Resign? Press r again to confirm", Tone::Bad);
            return;
        }
        self.confirm_resign = false;
        if self.session.resign().is_ok() {
            self.message = None;
            self.after_command(false);
        }
    }

    fn offer_draw(&mut self) {
        match self.session.offer_draw() {
            Ok(DrawAnswer::Accepted) => {
                self.message = None;
                self.after_command(false);
            }
            Ok(DrawAnswer::Declined) => self.say("Ludus declines the draw", Tone::Info),
            Ok(DrawAnswer::Offered(side)) => self.say(
                format!(
                    "{} offers a draw: {}, press y to accept, any other key to decline",
                    side_name(side),
                    side_name(!side)
                ),
                Tone::Info,
            ),
            Err(_) => {}
        }
    }

    /// Saves the game; whether it was saved.
    fn save(&mut self, ctx: &mut Ctx) -> bool {
        match self.session.save(&ctx.data) {
            Ok(name) => {
                self.say(format!("Saved as {name}"), Tone::Good);
                true
            }
            Err(e) => {
                self.say(format!("{e:#}"), Tone::Bad);
                false
            }
        }
    }

    /// Leaves at once if nothing would be lost; else asks first.
    fn leave(&mut self, to: Leave, ctx: &mut Ctx) -> Action {
        if self.session.has_unsaved_moves() {
            self.leaving = Some(to);
            self.say(
                "Leave this game? y leaves it, S saves it first, any other key stays",
                Tone::Bad,
            );
            return Action::None;
        }
        self.go(to, ctx)
    }

    /// Engines play on from the position shown, on a screen of their own
    /// (the players chosen in the set-up); this game waits underneath.
    fn watch_from_here(&mut self, ctx: &Ctx) -> Action {
        if self.session.opponent() == Opponent::Engines {
            self.say("The engines are playing already", Tone::Info);
            return Action::None;
        }
        let choice = &ctx.settings.xiangqi;
        let seats = choice
            .watch_seats
            .map(|i| Seat::from_choice(i, &choice.engines));
        let game = self.session.shown_game();
        let plies = game.plies().len();
        let mut watched = XiangqiSession::watch(game, seats, None, false);
        let from = flow::position_after(
            self.session.game().start_position(),
            plies,
            self.session.game().plies().len(),
        );
        watched.set_title(match self.session.title() {
            Some(t) => format!("{t}, engines from the position {from}"),
            None => format!("Engines from the position {from}"),
        });
        self.session.pause();
        self.run_orders();
        Action::Push(Box::new(Play::with_session(watched, ctx)))
    }

    fn go(&mut self, to: Leave, ctx: &mut Ctx) -> Action {
        self.session.pause();
        self.run_orders();
        match to {
            Leave::Back => Action::Pop,
            Leave::NewGame => Action::Replace(super::setup(ctx)),
            Leave::SavedGames => Action::Push(Box::new(super::games::Games::over_a_game(ctx))),
        }
    }

    fn on_input_key(&mut self, key: KeyEvent) {
        let Some(text) = &mut self.input else { return };
        match key.code {
            KeyCode::Esc => self.input = None,
            KeyCode::Enter => {
                let t = std::mem::take(text);
                self.input = None;
                if !t.trim().is_empty() {
                    self.typed(&t);
                }
            }
            KeyCode::Backspace => {
                text.pop();
            }
            KeyCode::Char(c) if text.chars().count() < 16 => text.push(c),
            _ => {}
        }
    }

    fn step(&mut self, forward: bool) {
        self.session.step(forward);
        self.run_orders();
        self.selected = None;
        if self.session.view().is_none() {
            self.message = None;
        }
    }

    /// Analysis on or off.
    fn toggle_analysis(&mut self) {
        if self.session.analysis().is_some() {
            self.session.stop_analysis();
            self.say("Analysis off", Tone::Info);
        } else {
            match self.session.start_analysis() {
                Ok(()) => self.say(
                    "Analysis: Ludus shows its best lines for the position on the board; \
                     p pauses, a ends it",
                    Tone::Info,
                ),
                Err(e) => self.say(capitalised(&e.to_string()), Tone::Bad),
            }
        }
        self.run_orders();
    }

    /// Pauses or resumes the analysis.
    fn pause_analysis(&mut self) {
        let Some(paused) = self.session.analysis().map(|a| a.paused()) else {
            self.say("Analysis is off: a turns it on", Tone::Info);
            return;
        };
        self.session.pause_analysis(!paused);
        self.run_orders();
    }

    /// Drains the worker's events into the session.
    fn poll_engine(&mut self) {
        let events: Vec<Event> = self.workers.events.try_iter().collect();
        for event in events {
            match event {
                Event::Info { id, info } => self.session.search_info(id, info),
                Event::Done { id, result, .. } => {
                    let was_over = self.session.over().is_some();
                    let answer = self.session.search_done(id, result, Instant::now());
                    self.answered(answer, was_over);
                }
                // No answer: the search is dropped and the screen says why.
                // Between engines the failing one loses.
                Event::Failed { id, message } => {
                    let was_over = self.session.over().is_some();
                    if let Some(text) = self.session.search_failed(id, &message) {
                        self.after_command(was_over);
                        self.say(text, Tone::Bad);
                    }
                }
                Event::Perft { .. }
                | Event::PerftStopped { .. }
                | Event::HashUnavailable { .. }
                | Event::Ready => {}
            }
        }
    }

    /// Shows what a search's answer changed.
    fn answered(&mut self, answer: Option<Answer>, was_over: bool) {
        match answer {
            Some(Answer::Hint { best, .. }) => {
                let text = self.characters.chinese(self.session.position(), best);
                self.cursor = best.from;
                self.say(format!("Hint: {text} ({})", best.to_iccs()), Tone::Good);
            }
            Some(Answer::Moved { best, .. }) => {
                let text = self.characters.chinese(&self.position_before_last(), best);
                self.message = None;
                self.after_command(was_over);
                if self.message.is_none() {
                    let who = match self.session.opponent() {
                        Opponent::Engines => {
                            let mover = self.position_before_last().turn();
                            self.session.names()[mover.index()].clone()
                        }
                        _ => "Ludus".to_string(),
                    };
                    self.say(format!("{who} plays {text}"), Tone::Info);
                }
            }
            None => self.after_command(was_over),
        }
    }

    fn marks(&self, last: Option<Move>, pos: &Position) -> Marks {
        let targets = match self.selected {
            Some(from) => pos
                .legal_moves()
                .iter()
                .filter(|m| m.from == from)
                .map(|m| m.to)
                .collect(),
            None => Vec::new(),
        };
        Marks {
            cursor: Some(self.cursor),
            selected: self.selected,
            targets,
            last,
            // The analysis's best move when it is of the position shown.
            hint: self.session.hint().or_else(|| {
                let a = self.session.analysis()?;
                let best = a.lines().first()?.pv.first().copied();
                best.filter(|_| a.ply() == self.session.shown_plies())
            }),
        }
    }

    fn heading(&self) -> String {
        let names = self.session.names();
        let base = match self.session.opponent() {
            Opponent::Engine { human, level } => format!(
                "You ({}) vs Ludus, {}",
                side_name(human),
                super::level(level).name
            ),
            Opponent::Humans => format!("{} vs {}", names[0], names[1]),
            Opponent::Engines => format!("{} vs {}", names[0], names[1]),
        };
        match self.session.title() {
            Some(t) => format!("{t}: {base}"),
            None => base,
        }
    }

    fn status(&self, pos: &Position) -> Line<'static> {
        let view = self.session.view();
        if let Some(over) = self.session.over().filter(|_| view.is_none()) {
            return Line::styled(
                over.text.clone(),
                Style::default()
                    .fg(Tint::Yellow)
                    .add_modifier(Modifier::BOLD),
            );
        }
        let turn = pos.turn();
        let mut text = format!("{} to move", side_name(turn));
        if view.is_none()
            && self.session.analysis().is_none()
            && let Some(e) = self.session.engine_color()
        {
            text.push_str(if e == turn { " (Ludus)" } else { " (you)" });
        }
        if let Some(n) = view {
            let game = self.session.game();
            let at = flow::position_after(game.start_position(), n, game.plies().len());
            text = format!("{}{}: {text}", at[..1].to_uppercase(), &at[1..]);
        }
        let mut spans = vec![Span::styled(
            text,
            Style::default().add_modifier(Modifier::BOLD),
        )];
        if pos.in_check() {
            spans.push(Span::styled(
                "  Check!",
                Style::default().fg(Tint::Red).add_modifier(Modifier::BOLD),
            ));
        }
        if let Some(r) = self.session.recorded() {
            spans.push(Span::raw(format!("  (recorded result {r})")));
        }
        if self.session.opponent() == Opponent::Engines && self.session.over().is_none() {
            spans.push(Span::styled(
                if self.session.watch_paused() {
                    "  paused: p goes on, ] plays one move"
                } else {
                    "  p pauses"
                },
                Style::default().fg(Tint::Yellow),
            ));
        }
        Line::from(spans)
    }

    /// The analysis: its state, then each line with its score, depth and moves.
    fn analysis_lines(&self, width: usize) -> Vec<Line<'static>> {
        let Some(a) = self.session.analysis() else {
            return Vec::new();
        };
        let style = Style::default().fg(Tint::Cyan);
        let state = if a.paused() {
            "paused (p resumes)".to_string()
        } else if a.finished() {
            "searched to the end".to_string()
        } else if a.lines().is_empty() {
            "thinking…".to_string()
        } else {
            format!("{} kN/s", a.nodes_per_second() / 1000)
        };
        let mut lines = vec![Line::styled(
            format!("Analysis · depth {} · {state}", a.depth()),
            style.add_modifier(Modifier::BOLD),
        )];
        for view in self
            .session
            .analysis_lines(self.notation, self.characters, 12)
        {
            let head = format!("{}. {} d{} ", view.rank, view.score, view.depth);
            let mut text = head.clone();
            for word in &view.moves {
                if unicode_width(&text) + 1 + unicode_width(word) > width {
                    break;
                }
                text.push(' ');
                text.push_str(word);
            }
            lines.push(Line::styled(text, style));
        }
        lines
    }

    fn thinking_lines(&self, width: usize) -> Vec<Line<'static>> {
        if self.session.analysis().is_some() {
            return self.analysis_lines(width);
        }
        let Some(t) = self.session.thinking() else {
            return Vec::new();
        };
        let mover = self.session.names()[t.root.turn().index()].clone();
        let who = match t.purpose {
            Purpose::Move if self.session.opponent() == Opponent::Engines => mover.as_str(),
            Purpose::Move => "Ludus",
            Purpose::Hint => "Hint",
            Purpose::Analysis => "Analysis",
        };
        let style = Style::default().fg(Tint::Cyan);
        match &t.info {
            None => vec![Line::styled(format!("{who}: thinking…"), style)],
            Some(info) => {
                let nps = info.nodes * 1000 / info.elapsed_ms.max(1);
                vec![
                    Line::styled(
                        format!(
                            "{who}: depth {} · {} · {} kN/s",
                            info.depth,
                            score_text(info.score, t.root.turn()),
                            nps / 1000
                        ),
                        style,
                    ),
                    Line::styled(
                        format!(
                            "  {}",
                            chinese_line(
                                &t.root,
                                &info.pv,
                                8,
                                width.saturating_sub(2),
                                self.characters
                            )
                        ),
                        style,
                    ),
                ]
            }
        }
    }

    fn move_list(&self, height: usize, current: Option<usize>) -> Vec<Line<'static>> {
        let game = self.session.game();
        let mut pos = game.start_position().clone();
        let mut rows: Vec<Vec<Span<'static>>> = Vec::new();
        let mut current_row = None;
        for (i, m) in game.moves().enumerate() {
            let text = self.notation.write(&pos, m, self.characters);
            let style = if current == Some(i + 1) {
                Style::default()
                    .bg(Tint::DarkGray)
                    .add_modifier(Modifier::BOLD)
            } else {
                Style::default()
            };
            let red = pos.turn() == Color::Red;
            if red || rows.is_empty() {
                let number = format!("{:>3}. ", pos.fullmoves());
                let mut row = vec![Span::raw(number)];
                if !red {
                    row.push(Span::raw(format!("{:<10}", "…")));
                }
                rows.push(row);
            }
            let pad = 10usize.saturating_sub(unicode_width(&text));
            if current == Some(i + 1) {
                current_row = Some(rows.len().saturating_sub(1));
            }
            if let Some(row) = rows.last_mut() {
                row.push(Span::styled(text, style));
                row.push(Span::raw(" ".repeat(pad)));
            }
            pos.make_move(m);
        }
        // Scrolled so that the move shown on the board is in view.
        let last = current_row.unwrap_or(rows.len().saturating_sub(1));
        let skip = (last + 1).saturating_sub(height);
        rows.into_iter().skip(skip).map(Line::from).collect()
    }

    fn clock_line(&self) -> Option<Line<'static>> {
        let c = self.session.clocks()?;
        let turn = self.session.position().turn();
        let mut spans = Vec::new();
        for color in [Color::Red, Color::Black] {
            let mut style = Style::default();
            if color == turn && self.session.over().is_none() {
                style = style.add_modifier(Modifier::BOLD | Modifier::REVERSED);
            }
            spans.push(Span::styled(
                format!(" {} {} ", side_name(color), clock(c.left(color).as_secs())),
                style,
            ));
            spans.push(Span::raw("  "));
        }
        Some(Line::from(spans))
    }
}

/// Display width: Chinese characters take two columns.
fn unicode_width(s: &str) -> usize {
    Line::raw(s.to_string()).width()
}

/// A refusal's text as a sentence.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

impl Screen for Play {
    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Action {
        if self.help {
            self.help = false;
            return Action::None;
        }
        if self.input.is_some() {
            self.on_input_key(key);
            return Action::None;
        }
        if self.over_popup {
            self.over_popup = false;
            if matches!(key.code, KeyCode::Esc | KeyCode::Enter | KeyCode::Char(' ')) {
                return Action::None;
            }
        }
        if let Some(offerer) = self.session.draw_offer() {
            let accept = key.code == KeyCode::Char('y');
            if self.session.answer_draw(accept).is_ok() {
                if accept {
                    self.say(
                        format!("{} accepts the draw", side_name(!offerer)),
                        Tone::Info,
                    );
                    self.after_command(false);
                } else {
                    self.say(
                        format!("{} declines the draw", side_name(!offerer)),
                        Tone::Info,
                    );
                }
            }
            return Action::None;
        }
        if let Some(to) = self.leaving.take() {
            return match key.code {
                KeyCode::Char('y') => self.go(to, ctx),
                KeyCode::Char('S') if self.save(ctx) => self.go(to, ctx),
                KeyCode::Char('S') => Action::None,
                _ => {
                    self.say("Still playing", Tone::Info);
                    Action::None
                }
            };
        }
        let confirming = self.confirm_resign;
        self.confirm_resign = false;
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('s') if ctrl => {
                self.save(ctx);
            }
            KeyCode::Up => self.move_cursor(0, -1),
            KeyCode::Down => self.move_cursor(0, 1),
            KeyCode::Left => self.move_cursor(-1, 0),
            KeyCode::Right => self.move_cursor(1, 0),
            KeyCode::Enter | KeyCode::Char(' ') => self.pick(),
            KeyCode::Esc if self.selected.is_some() => self.selected = None,
            // The natural Esc after a refused move clears the refusal, no more.
            KeyCode::Esc if matches!(self.message, Some((_, Tone::Bad))) => self.message = None,
            KeyCode::Esc | KeyCode::Char('q') => return self.leave(Leave::Back, ctx),
            KeyCode::Char(':') | KeyCode::Char('m') if self.can_move_here() => {
                self.input = Some(String::new());
            }
            KeyCode::Char('u') | KeyCode::Backspace => self.undo(),
            KeyCode::Char('h') => self.hint(),
            KeyCode::Char('f') => self.flipped = !self.flipped,
            KeyCode::Char('n') => {
                self.notation = self.notation.next();
                ctx.settings.xiangqi.notation = self.notation.setting().to_string();
                ctx.save_settings();
            }
            KeyCode::Char('c') => {
                self.characters = self.characters.next();
                ctx.settings.xiangqi.characters = self.characters.setting().to_string();
                ctx.save_settings();
            }
            KeyCode::Char('r') => {
                self.confirm_resign = confirming;
                self.resign();
            }
            KeyCode::Char('d') => self.offer_draw(),
            KeyCode::Char('S') => {
                self.save(ctx);
            }
            KeyCode::Char('[') | KeyCode::PageUp => self.step(false),
            KeyCode::Char(']') | KeyCode::PageDown
                if self.session.watch_paused() && self.session.view().is_none() =>
            {
                let was_over = self.session.over().is_some();
                self.session.step_watch(Instant::now());
                self.after_command(was_over);
            }
            KeyCode::Char(']') | KeyCode::PageDown => self.step(true),
            KeyCode::Home => self.view_ply(0),
            KeyCode::End => {
                self.session.show(usize::MAX);
                self.run_orders();
                self.message = None;
            }
            KeyCode::Char('a') => self.toggle_analysis(),
            KeyCode::Char('w') => return self.watch_from_here(ctx),
            KeyCode::Char('p') if self.session.opponent() == Opponent::Engines => {
                let paused = !self.session.watch_paused();
                self.session.pause_watch(paused, Instant::now());
                self.run_orders();
            }
            KeyCode::Char('p') => self.pause_analysis(),
            KeyCode::Char('g') => self.graph = !self.graph,
            KeyCode::Char('N') => return self.leave(Leave::NewGame, ctx),
            KeyCode::Char('L') => return self.leave(Leave::SavedGames, ctx),
            KeyCode::Char('?') => self.help = true,
            _ => {}
        }
        Action::None
    }

    /// Back from the saved-games list: the game goes on.
    fn resume(&mut self, _ctx: &Ctx) {
        self.session.resume(Instant::now());
        self.run_orders();
    }

    fn tick(&mut self, now: Instant, _ctx: &mut Ctx) -> Action {
        self.poll_engine();
        let was_over = self.session.over().is_some();
        if self.session.tick(now) {
            self.after_command(was_over);
        }
        if let Some(answer) = self.session.play_held(now) {
            self.answered(Some(answer), was_over);
        }
        Action::None
    }

    fn draw(&self, frame: &mut Frame, area: Rect, _ctx: &Ctx) {
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            let text = format!(
                "The board needs {MIN_WIDTH}x{MIN_HEIGHT}; this terminal gives {}x{}. Enlarge it, or press q.",
                area.width, area.height
            );
            frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
            return;
        }
        let [main, hints] =
            Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area);
        let [board_area, _, panel] = Layout::horizontal([
            Constraint::Length(board::WIDTH),
            Constraint::Length(2),
            Constraint::Min(10),
        ])
        .areas(main);
        let (pos, last) = self.shown();
        let marks = self.marks(last, &pos);
        frame.render_widget(
            Paragraph::new(board::lines(&pos, &marks, self.flipped, self.characters)),
            board_area,
        );

        // A heading wider than the panel (an 80-column terminal) breaks after
        // its first comma rather than losing its end.
        let heading = self.heading();
        let heading_style = Style::default()
            .fg(Tint::Rgb(230, 190, 80))
            .add_modifier(Modifier::BOLD);
        let mut lines: Vec<Line> = match heading.split_once(", ") {
            Some((first, rest)) if Line::from(heading.as_str()).width() > panel.width as usize => {
                vec![
                    Line::styled(format!("{first},"), heading_style),
                    Line::styled(rest.to_string(), heading_style),
                ]
            }
            _ => vec![Line::styled(heading, heading_style)],
        };
        lines.push(self.status(&pos));
        lines.extend(self.clock_line());
        let cursor_text = match pos.piece_at(self.cursor) {
            Some(p) => format!("Cursor {} {}", self.cursor, self.characters.piece(p)),
            None => format!("Cursor {}", self.cursor),
        };
        let mut info = cursor_text;
        if let Some(s) = self.selected {
            info.push_str(&format!(" · picked up {s}"));
        }
        if let Some(m) = last {
            let game = self.session.game();
            let mut before = game.start_position().clone();
            let upto = self.session.shown_plies().saturating_sub(1);
            for mv in game.moves().take(upto) {
                before.make_move(mv);
            }
            info.push_str(&format!(
                " · last move {}",
                self.notation.write(&before, m, self.characters)
            ));
        }
        lines.push(Line::styled(info, Style::default().fg(Tint::Gray)));
        lines.extend(self.thinking_lines(panel.width as usize));
        if let Some(text) = self.session.tablebase() {
            lines.push(Line::styled(text, Style::default().fg(Tint::Green)));
        }
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            format!("Moves ({}; n switches)", self.notation.label()),
            Style::default().add_modifier(Modifier::UNDERLINED),
        ));
        if let Some(opening) = self.session.opening() {
            let heading = flow::opening_heading(&opening, self.notation, self.characters);
            lines.push(Line::styled(heading, Style::default().fg(Tint::Cyan)));
        }
        let mut bottom = Vec::new();
        if let Some((text, tone)) = &self.message {
            let color = match tone {
                Tone::Info => Tint::White,
                Tone::Good => Tint::Green,
                Tone::Bad => Tint::LightRed,
            };
            bottom.push(Line::styled(text.clone(), Style::default().fg(color)));
        }
        if let Some(text) = &self.input {
            bottom.push(Line::from(vec![
                Span::styled("Move: ", Style::default().fg(Tint::Yellow)),
                Span::raw(format!("{text}_")),
                Span::styled(
                    "  (Enter plays, Esc cancels)",
                    Style::default().fg(Tint::DarkGray),
                ),
            ]));
        }
        // The message may wrap; everything above it is kept to one row per line.
        let width = (panel.width as usize).max(1);
        let bottom_rows: usize = bottom
            .iter()
            .map(|l| l.width().max(1).div_ceil(width))
            .sum();
        let bottom_rows = bottom_rows.min(panel.height as usize / 2) as u16;
        let [top_area, bottom_area] =
            Layout::vertical([Constraint::Min(1), Constraint::Length(bottom_rows)]).areas(panel);
        let evals = self.session.evals();
        let shown = self.session.shown_plies();
        let room = (top_area.height as usize).saturating_sub(lines.len());
        // The graph takes its rows only if the move list keeps a few.
        let graph_rows = if self.graph && evals.iter().any(Option::is_some) && room >= 10 {
            5
        } else {
            0
        };
        let room = room.saturating_sub(graph_rows).max(1);
        lines.extend(self.move_list(room, Some(shown)));
        let graph_area = Rect {
            y: top_area.bottom().saturating_sub(graph_rows as u16),
            height: graph_rows as u16,
            ..top_area
        };
        frame.render_widget(Paragraph::new(lines), top_area);
        if graph_rows > 0 {
            let mut graph = vec![graph::title(evals, shown)];
            graph.extend(graph::lines(
                evals,
                shown,
                graph_area.width as usize,
                graph_rows - 1,
            ));
            frame.render_widget(ratatui::widgets::Clear, graph_area);
            frame.render_widget(Paragraph::new(graph), graph_area);
        }
        frame.render_widget(
            Paragraph::new(bottom).wrap(Wrap { trim: false }),
            bottom_area,
        );

        frame.render_widget(
            Paragraph::new(key_hints(&[
                ("←↑→↓ Enter", "move"),
                (":", "type"),
                ("u", "undo"),
                ("h", "hint"),
                ("f", "flip"),
                ("S", "save"),
                ("?", "help"),
                ("q", "back"),
            ])),
            hints,
        );

        let gold = Tint::Rgb(230, 190, 80);
        if self.help {
            let mut help: Vec<Line> = KEYS
                .iter()
                .map(|(k, what)| {
                    Line::from(vec![
                        Span::styled(
                            format!("{k:<16}"),
                            Style::default()
                                .fg(Tint::Yellow)
                                .add_modifier(Modifier::BOLD),
                        ),
                        Span::raw(*what),
                    ])
                })
                .collect();
            help.push(Line::raw(""));
            help.push(
                Line::from("Any key closes this help.").style(Style::default().fg(Tint::Gray)),
            );
            popup(frame, area, "Xiangqi keys", help, gold);
        } else if self.over_popup
            && let Some(over) = self.session.over()
        {
            let lines = vec![
                Line::styled(
                    over.text.clone(),
                    Style::default().add_modifier(Modifier::BOLD),
                ),
                Line::raw(""),
                Line::from(format!(
                    "{} played · result {}",
                    crate::words::counted(
                        flow::full_moves(
                            self.session.game().start_position(),
                            self.session.game().plies().len()
                        ),
                        "move"
                    ),
                    over.result
                )),
                Line::raw(""),
                key_hints(&[
                    ("u", "undo"),
                    ("S", "save"),
                    ("N", "new game"),
                    ("q", "leave"),
                ]),
            ];
            popup(frame, area, "Game over", lines, gold);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::DataDir;

    #[test]
    fn a_failed_search_is_dropped_and_its_message_shown() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = Ctx::new(DataDir::resolve(Some(dir.path()), None).unwrap());
        let mut play = Play::new(Game::new(), Opponent::Humans, None, &ctx);
        play.session.ask_hint().unwrap();
        play.run_orders();
        let id = play.session.thinking().map(|t| t.id).unwrap();
        // The engine's own events give way to a failure of this search.
        let (tx, events) = mpsc::channel();
        play.workers.events = events;
        let message = "engine Broken exited".to_string();
        tx.send(Event::Failed {
            id: id + 1,
            message: message.clone(),
        })
        .unwrap();
        play.poll_engine();
        assert!(
            play.session.thinking().is_some(),
            "another search's failure"
        );
        tx.send(Event::Failed {
            id,
            message: message.clone(),
        })
        .unwrap();
        play.poll_engine();
        assert!(play.session.thinking().is_none());
        let told = format!("The engine failed: {message}");
        assert!(matches!(&play.message, Some((m, Tone::Bad)) if *m == told));
    }
}
