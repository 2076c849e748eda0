//! Xiangqi game flow both front ends share (the terminal's play screen and
//! the browser's `web::xiangqi`): the engine's strengths, the notations of
//! the move list, the clocks, how endings and scores are told, taking moves
//! back, draw offers to the engine, the ECCO opening, and the PGN record a
//! save writes.

use std::time::{Duration, Instant, SystemTime};

use xiangqi::ecco::{self, Opening};
use xiangqi::engine::{Limits, MAX_SKILL, Score};
use xiangqi::pgn::{MoveFormat, PgnGame};
use xiangqi::{Color, EndReason, Game, GameResult, Move, Outcome, Position};

use crate::engine_worker::score_value;
use crate::store::xiangqi as saved;

/// A strength the engine plays at: a skill level and a budget per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub name: &'static str,
    pub skill: u8,
    pub budget: Budget,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Milliseconds per move.
    Time(u64),
    /// Plies.
    Depth(u32),
}

/// The strengths on offer, weakest first: by skill level, by depth, by time.
pub const LEVELS: [Level; 9] = [
    Level {
        name: "Beginner (skill 1, 0.2 s)",
        skill: 1,
        budget: Budget::Time(200),
    },
    Level {
        name: "Novice (skill 5, 0.3 s)",
        skill: 5,
        budget: Budget::Time(300),
    },
    Level {
        name: "Casual (skill 10, 0.5 s)",
        skill: 10,
        budget: Budget::Time(500),
    },
    Level {
        name: "Club (skill 15, 1 s)",
        skill: 15,
        budget: Budget::Time(1000),
    },
    Level {
        name: "Depth 4",
        skill: MAX_SKILL,
        budget: Budget::Depth(4),
    },
    Level {
        name: "Depth 6",
        skill: MAX_SKILL,
        budget: Budget::Depth(6),
    },
    Level {
        name: "Expert (1 s per move)",
        skill: MAX_SKILL,
        budget: Budget::Time(1000),
    },
    Level {
        name: "Master (3 s per move)",
        skill: MAX_SKILL,
        budget: Budget::Time(3000),
    },
    Level {
        name: "Grandmaster (10 s per move)",
        skill: MAX_SKILL,
        budget: Budget::Time(10_000),
    },
];

impl Level {
    /// Search limits, taking the engine's clock into account when there is one.
    pub fn limits(&self, clock: Option<(Duration, Duration)>) -> Limits {
        let mut limits = match self.budget {
            Budget::Time(ms) => Limits::movetime(ms),
            Budget::Depth(d) => Limits::depth(d),
        };
        if let Some((left, inc)) = clock {
            let left = left.as_millis() as u64;
            let inc = inc.as_millis() as u64;
            limits.time = Some(left);
            limits.increment = inc;
            if let Some(ms) = limits.movetime {
                // Never spend more of the clock than a measured share of it.
                limits.movetime = Some(ms.min(left / 20 + inc / 2).max(1));
            }
        }
        limits
    }
}

/// The level at a stored index (clamped: the settings file may be old or edited).
pub fn level(index: usize) -> &'static Level {
    &LEVELS[index.min(LEVELS.len() - 1)]
}

/// Clock choices: name, base, increment. The first is "no clocks".
pub const CLOCKS: [(&str, u64, u64); 5] = [
    ("off", 0, 0),
    ("1 min + 1 s", 60, 1),
    ("5 min + 3 s", 300, 3),
    ("10 min + 5 s", 600, 5),
    ("15 min + 10 s", 900, 10),
];

/// Base time and increment of a stored clock choice, or None for no clocks.
pub fn clock(index: usize) -> Option<(Duration, Duration)> {
    let (_, base, inc) = CLOCKS.get(index).copied().unwrap_or(CLOCKS[0]);
    (base > 0).then(|| (Duration::from_secs(base), Duration::from_secs(inc)))
}

/// Both sides' clocks: a base time and an increment per move (Fischer). The
/// side to move's clock runs from the last [`Clocks::run`] on; the front end
/// says when time passes, so it can stop the clocks (the terminal while the
/// player looks back through the moves, the browser while no page is open).
#[derive(Clone, Debug)]
pub struct Clocks {
    base: Duration,
    left: [Duration; 2],
    /// The time both had left when each move so far began (the first entry
    /// is the start), so a take-back gives the time back with the move.
    at_move: Vec<[Duration; 2]>,
    increment: Duration,
    /// When the side to move was last charged; `None` while stopped.
    since: Option<Instant>,
}

impl Clocks {
    pub fn new(base: Duration, increment: Duration) -> Clocks {
        Clocks::resumed(base, increment, [base, base])
    }

    /// Clocks of a game saved with `left` (Red, Black) on them; take-backs
    /// give back nothing from before.
    pub fn resumed(base: Duration, increment: Duration, left: [Duration; 2]) -> Clocks {
        Clocks {
            base,
            left,
            at_move: vec![left],
            increment,
            since: None,
        }
    }

    /// The time each side started with.
    pub fn base(&self) -> Duration {
        self.base
    }

    /// Time left for `color`, as charged at the last [`Clocks::run`].
    pub fn left(&self, color: Color) -> Duration {
        self.left[color.index()]
    }

    pub fn increment(&self) -> Duration {
        self.increment
    }

    /// Whether the side to move's clock is running.
    pub fn running(&self) -> bool {
        self.since.is_some()
    }

    /// Charges `turn` (the side to move) for the time since the last run
    /// (nothing if the clocks were stopped) and keeps its clock running.
    /// Returns whether its time is up.
    pub fn run(&mut self, turn: Color, now: Instant) -> bool {
        if let Some(since) = self.since.replace(now) {
            let left = &mut self.left[turn.index()];
            *left = left.saturating_sub(now.saturating_duration_since(since));
        }
        self.left[turn.index()].is_zero()
    }

    /// Stops the clocks; the next [`Clocks::run`] starts them again without
    /// charging the time in between.
    pub fn stop(&mut self) {
        self.since = None;
    }

    /// `mover` has just moved: it gets the increment.
    pub fn moved(&mut self, mover: Color) {
        self.left[mover.index()] += self.increment;
        self.at_move.push(self.left);
    }

    /// `plies` moves were taken back: both clocks show what they showed when
    /// the position came about again (a fallen flag rises with them). Moves
    /// played before the clocks were set give back nothing. The clocks stop.
    pub fn take_back(&mut self, plies: usize) {
        let keep = self.at_move.len().saturating_sub(plies).max(1);
        self.at_move.truncate(keep);
        if let Some(&left) = self.at_move.last() {
            self.left = left;
        }
        self.since = None;
    }
}

/// What is said when `loser`'s time runs out.
pub fn out_of_time(loser: Color) -> String {
    format!(
        "{} ran out of time: {} wins",
        side_name(loser),
        side_name(!loser)
    )
}

/// The clocks of a stored clock choice, or `None` for no clocks.
pub fn clocks(index: usize) -> Option<Clocks> {
    clock(index).map(|(base, increment)| Clocks::new(base, increment))
}

/// The Chinese characters of the board and the move list, one set for both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Characters {
    /// 帥仕相俥傌炮兵 against 將士象車馬砲卒; moves `傌二進三`.
    Traditional,
    /// 帅仕相车马炮兵 against 将士象车马炮卒; moves `马二进三`.
    Simplified,
}

impl Characters {
    pub fn from_setting(s: &str) -> Characters {
        match s {
            "simplified" => Characters::Simplified,
            _ => Characters::Traditional,
        }
    }

    pub fn setting(self) -> &'static str {
        match self {
            Characters::Traditional => "traditional",
            Characters::Simplified => "simplified",
        }
    }

    pub fn next(self) -> Characters {
        match self {
            Characters::Traditional => Characters::Simplified,
            Characters::Simplified => Characters::Traditional,
        }
    }

    /// A piece's character on the board.
    pub fn piece(self, p: xiangqi::Piece) -> char {
        use xiangqi::Role;
        let traditional = self == Characters::Traditional;
        match (p.color, p.role) {
            (Color::Red, Role::General) if traditional => '帥',
            (Color::Red, Role::General) => '帅',
            (Color::Red, Role::Advisor) => '仕',
            (Color::Red, Role::Elephant) => '相',
            (Color::Red, Role::Horse) if traditional => '傌',
            (Color::Red, Role::Horse) => '马',
            (Color::Red, Role::Chariot) if traditional => '俥',
            (Color::Red, Role::Chariot) => '车',
            (Color::Red, Role::Cannon) => '炮',
            (Color::Red, Role::Soldier) => '兵',
            (Color::Black, Role::General) if traditional => '將',
            (Color::Black, Role::General) => '将',
            (Color::Black, Role::Advisor) => '士',
            (Color::Black, Role::Elephant) => '象',
            (Color::Black, Role::Horse) if traditional => '馬',
            (Color::Black, Role::Horse) => '马',
            (Color::Black, Role::Chariot) if traditional => '車',
            (Color::Black, Role::Chariot) => '车',
            (Color::Black, Role::Cannon) if traditional => '砲',
            (Color::Black, Role::Cannon) => '炮',
            (Color::Black, Role::Soldier) => '卒',
        }
    }

    /// A legal move of `pos` in Chinese notation, in these characters:
    /// the pieces as the board draws them, 進 and 後 for traditional.
    /// Simplified text (an opening's name) in these characters.
    pub fn text(self, simplified: &str) -> String {
        if self == Characters::Simplified {
            return simplified.to_string();
        }
        simplified.chars().map(traditional).collect()
    }

    pub fn chinese(self, pos: &Position, m: Move) -> String {
        let text = pos.to_chinese(m);
        if self == Characters::Simplified {
            return text;
        }
        let mover = pos.piece_at(m.from).map(|p| p.color);
        text.chars()
            .map(|c| match (c, mover) {
                ('帅', _) => '帥',
                ('将', _) => '將',
                ('进', _) => '進',
                ('后', _) => '後',
                ('车', Some(Color::Red)) => '俥',
                ('车', _) => '車',
                ('马', Some(Color::Red)) => '傌',
                ('马', _) => '馬',
                ('炮', Some(Color::Black)) => '砲',
                (c, _) => c,
            })
            .collect()
    }
}

/// How moves are written in the move list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    Chinese,
    Wxf,
    Iccs,
}

impl Notation {
    pub fn from_setting(s: &str) -> Notation {
        match s {
            "wxf" => Notation::Wxf,
            "iccs" => Notation::Iccs,
            _ => Notation::Chinese,
        }
    }

    pub fn setting(self) -> &'static str {
        match self {
            Notation::Chinese => "chinese",
            Notation::Wxf => "wxf",
            Notation::Iccs => "iccs",
        }
    }

    pub fn next(self) -> Notation {
        match self {
            Notation::Chinese => Notation::Wxf,
            Notation::Wxf => Notation::Iccs,
            Notation::Iccs => Notation::Chinese,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Notation::Chinese => "Chinese",
            Notation::Wxf => "WXF",
            Notation::Iccs => "ICCS",
        }
    }

    /// A legal move of `pos` in this notation (Chinese in `chars`).
    pub fn write(self, pos: &Position, m: Move, chars: Characters) -> String {
        match self {
            Notation::Chinese => chars.chinese(pos, m),
            Notation::Wxf => pos.to_wxf(m),
            Notation::Iccs => m.to_iccs(),
        }
    }
}

/// The players' names for the record: "You" and "Ludus (strength)" against
/// the engine (`vs` is the human's side and the level), else Red and Black.
pub fn player_names(vs: Option<(Color, usize)>) -> [String; 2] {
    match vs {
        Some((human, index)) => {
            let engine = format!("Ludus ({})", level(index).name);
            if human == Color::Red {
                ["You".to_string(), engine]
            } else {
                [engine, "You".to_string()]
            }
        }
        None => ["Red".to_string(), "Black".to_string()],
    }
}

/// How many moves (a Red and a Black ply each, as the move list numbers
/// them) `plies` plies from `start` make: 10 plies from the start are 5 moves.
pub fn full_moves(start: &Position, plies: usize) -> usize {
    match start.turn() {
        Color::Red => plies.div_ceil(2),
        Color::Black if plies == 0 => 0,
        Color::Black => 1 + (plies - 1).div_ceil(2),
    }
}

/// The position after `plies` plies from `start`, in words the move list
/// matches: "after Black's move 2 of 5".
pub fn position_after(start: &Position, plies: usize, total_plies: usize) -> String {
    let total = full_moves(start, total_plies);
    if plies == 0 {
        return format!("at the start (of {})", crate::words::counted(total, "move"));
    }
    let mover = if (plies % 2 == 1) == (start.turn() == Color::Red) {
        Color::Red
    } else {
        Color::Black
    };
    let number = start.fullmoves() as usize - 1 + full_moves(start, plies);
    let last = start.fullmoves() as usize - 1 + total;
    format!("after {}'s move {number} of {last}", side_name(mover))
}

/// Why the engine is searching.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Purpose {
    /// Its own move in the game.
    Move,
    /// A hint for the player.
    Hint,
    /// Analysis of the position on screen: lines, no move.
    Analysis,
}

/// Skill and limits of a search: a hint at full strength within a second;
/// the engine's own move at its strength, planned from its clock if there is one.
pub fn search_limits(
    purpose: Purpose,
    level: &Level,
    clocks: Option<&Clocks>,
    turn: Color,
) -> (u8, Limits) {
    match purpose {
        Purpose::Hint => (MAX_SKILL, Limits::movetime(1000)),
        Purpose::Analysis => (
            MAX_SKILL,
            Limits {
                infinite: true,
                ..Limits::default()
            },
        ),
        Purpose::Move => {
            let clock = clocks.map(|c| (c.left(turn), c.increment()));
            (level.skill, level.limits(clock))
        }
    }
}

pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

/// A finished game in words.
pub fn describe(r: &GameResult) -> String {
    let (winner, loser) = match r.outcome {
        Outcome::Win(w) => (side_name(w), side_name(!w)),
        Outcome::Draw => ("", ""),
    };
    match r.reason {
        EndReason::Checkmate => format!("Checkmate: {winner} wins"),
        EndReason::Stalemate => {
            format!("Stalemate: {loser} has no legal move and loses; {winner} wins")
        }
        EndReason::PerpetualCheck => {
            format!("Perpetual check: {loser} may not check forever and loses; {winner} wins")
        }
        EndReason::PerpetualChase => {
            format!(
                "Perpetual chase: {loser} may not chase a piece forever and loses; {winner} wins"
            )
        }
        EndReason::Repetition => "Draw by repetition".to_string(),
        EndReason::MoveLimit => "Draw: 60 moves without a capture".to_string(),
        EndReason::InsufficientMaterial => {
            "Draw: neither side has a piece that can cross the river".to_string()
        }
    }
}

/// The PGN result of an outcome.
pub fn result_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Color::Red) => "1-0",
        Outcome::Win(Color::Black) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}

/// A score from the searching side's view, told from Red's.
pub fn score_text(score: Score, searcher: Color) -> String {
    let (v, red_view) = match score {
        Score::Cp(v) => (v, true),
        Score::Mate(n) => (n, false),
    };
    let v = if searcher == Color::Red { v } else { -v };
    if red_view {
        match v {
            0 => "even".to_string(),
            v if v > 0 => format!("Red +{:.2}", v as f64 / 100.0),
            v => format!("Black +{:.2}", -v as f64 / 100.0),
        }
    } else if v > 0 {
        format!("Red mates in {v}")
    } else if v < 0 {
        format!("Black mates in {}", -v)
    } else {
        "mated".to_string()
    }
}

/// A score as one number from Red's view (mates beyond every centipawn
/// score), for evaluation graphs.
pub fn red_value(score: Score, searcher: Color) -> i32 {
    let v = score_value(score);
    if searcher == Color::Red { v } else { -v }
}

/// A line of moves from `pos` in Chinese notation, at most `max` moves
/// (stops at anything illegal).
pub fn chinese_words(pos: &Position, moves: &[Move], max: usize, chars: Characters) -> Vec<String> {
    let mut p = pos.clone();
    let mut words = Vec::new();
    for &m in moves.iter().take(max) {
        if !p.is_legal(m) {
            break;
        }
        words.push(chars.chinese(&p, m));
        p.make_move(m);
    }
    words
}

/// Whether the engine takes a draw offer: only when its last score of its
/// own moves (its point of view) says it is worse.
pub fn engine_accepts_draw(engine_score: Option<Score>) -> bool {
    engine_score.is_some_and(|s| score_value(s) <= -100)
}

/// Takes back the last move, and against the engine also its reply, so the
/// human is to move again. Returns how many plies went.
pub fn take_back(game: &mut Game, engine: Option<Color>) -> usize {
    let mut removed = 0;
    while !game.plies().is_empty() && (removed == 0 || Some(game.position().turn()) == engine) {
        game.undo();
        removed += 1;
    }
    removed
}

/// A seed for the engine's book choices and skill noise, so that games from
/// the same position differ (the engine has no RNG of its own).
pub fn engine_seed() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// The PGN text a save writes: today's date, the players, the result,
/// `extra` tags, moves in Chinese notation (both front ends read and write
/// the same files).
pub fn record_text(
    game: &Game,
    names: &[String; 2],
    result: &str,
    extra: &[(&str, &str)],
) -> String {
    let date = saved::pgn_date(SystemTime::now());
    let mut tags = vec![
        ("Event", "Ludus game"),
        ("Date", date.as_str()),
        ("Red", names[0].as_str()),
        ("Black", names[1].as_str()),
        ("Result", result),
    ];
    tags.extend_from_slice(extra);
    let mut record = PgnGame::from_game(game, &tags);
    record.result = result.to_string();
    tag_opening(&mut record);
    record.to_pgn(MoveFormat::Chinese)
}

/// The ECCO opening of a game so far (`None` before the first move or when
/// the game did not start from the initial position).
pub fn opening(game: &Game) -> Option<Opening> {
    let moves: Vec<Move> = game.moves().take(ecco::MAX_PLIES).collect();
    ecco::classify(game.start_position(), &moves)
}

/// How the move list heads the opening: the ECCO code and the name, in the
/// chosen characters when the moves are in Chinese, in English otherwise.
pub fn opening_heading(opening: &Opening, notation: Notation, chars: Characters) -> String {
    match notation {
        Notation::Chinese => format!("{} {}", opening.code, chars.text(opening.chinese)),
        Notation::Wxf | Notation::Iccs => format!("{} {}", opening.code, opening.english),
    }
}

/// The traditional form of a simplified character of the ECCO names.
fn traditional(c: char) -> char {
    const PAIRS: [(char, char); 33] = [
        ('两', '兩'),
        ('兑', '兌'),
        ('单', '單'),
        ('压', '壓'),
        ('双', '雙'),
        ('后', '後'),
        ('头', '頭'),
        ('宫', '宮'),
        ('对', '對'),
        ('弃', '棄'),
        ('横', '橫'),
        ('盘', '盤'),
        ('红', '紅'),
        ('缓', '緩'),
        ('补', '補'),
        ('车', '車'),
        ('转', '轉'),
        ('边', '邊'),
        ('过', '過'),
        ('进', '進'),
        ('连', '連'),
        ('钩', '鉤'),
        ('顺', '順'),
        ('风', '風'),
        ('飞', '飛'),
        ('马', '馬'),
        ('骑', '騎'),
        ('鸯', '鴦'),
        ('鸳', '鴛'),
        ('龟', '龜'),
        ('开', '開'),
        ('将', '將'),
        ('帅', '帥'),
    ];
    PAIRS.iter().find(|(s, _)| *s == c).map_or(c, |(_, t)| *t)
}

/// Sets a record's `ECCO`, `Opening` and `Variation` tags (the ones xqbase's
/// tools write) from its moves; a record without an opening keeps its tags.
pub fn tag_opening(record: &mut PgnGame) {
    let moves: Vec<Move> = record
        .moves
        .iter()
        .take(ecco::MAX_PLIES)
        .map(|m| m.mv)
        .collect();
    let Some(opening) = ecco::classify(&record.start, &moves) else {
        return;
    };
    record.tags.retain(|(k, _)| k != "Variation");
    for (tag, value) in opening.pgn_tags() {
        record.set_tag(tag, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_opening_heading_follows_notation_and_characters() {
        let o = ecco::opening("C02").unwrap_or_else(|| panic!("C02"));
        assert_eq!(
            opening_heading(&o, Notation::Chinese, Characters::Simplified),
            "C02 中炮七路马对屏风马：红左马盘河"
        );
        assert_eq!(
            opening_heading(&o, Notation::Chinese, Characters::Traditional),
            "C02 中炮七路馬對屏風馬：紅左馬盤河"
        );
        assert!(
            opening_heading(&o, Notation::Wxf, Characters::Traditional)
                .starts_with("C02 Central Cannon Seventh-File Horse vs. Screen Horses")
        );
    }

    #[test]
    fn the_board_and_the_moves_share_one_set_of_characters() {
        let mut pos = Position::startpos();
        let horse = pos.parse_move("h0g2").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(Characters::Simplified.chinese(&pos, horse), "马二进三");
        assert_eq!(Characters::Traditional.chinese(&pos, horse), "傌二進三");
        pos.make_move(horse);
        let reply = pos.parse_move("h9g7").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(Characters::Traditional.chinese(&pos, reply), "馬8進7");
        let black_horse = pos
            .piece_at(reply.from)
            .unwrap_or_else(|| panic!("a horse"));
        assert_eq!(Characters::Traditional.piece(black_horse), '馬');
        assert_eq!(Characters::Simplified.piece(black_horse), '马');
        // Both read back as the same move.
        assert_eq!(pos.parse_move("馬8進7").ok(), Some(reply));
        assert_eq!(pos.parse_move("马8进7").ok(), Some(reply));
    }

    #[test]
    fn moves_are_counted_as_the_list_numbers_them() {
        let start = Position::startpos();
        assert_eq!(full_moves(&start, 10), 5);
        assert_eq!(full_moves(&start, 3), 2);
        assert_eq!(position_after(&start, 2, 10), "after Black's move 1 of 5");
        assert_eq!(position_after(&start, 3, 10), "after Red's move 2 of 5");
        assert_eq!(position_after(&start, 0, 2), "at the start (of 1 move)");
        let black_first =
            Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 7").unwrap_or(start.clone());
        assert_eq!(full_moves(&black_first, 3), 2);
        assert_eq!(
            position_after(&black_first, 1, 3),
            "after Black's move 7 of 8"
        );
    }

    #[test]
    fn endings_are_told_plainly() {
        let r = |outcome, reason| describe(&GameResult { outcome, reason });
        let red = Outcome::Win(Color::Red);
        let black = Outcome::Win(Color::Black);
        assert_eq!(r(red, EndReason::Checkmate), "Checkmate: Red wins");
        assert_eq!(
            r(black, EndReason::Stalemate),
            "Stalemate: Red has no legal move and loses; Black wins"
        );
        assert!(r(red, EndReason::PerpetualCheck).starts_with("Perpetual check: Black"));
        assert!(r(black, EndReason::PerpetualChase).starts_with("Perpetual chase: Red"));
        assert_eq!(
            r(Outcome::Draw, EndReason::Repetition),
            "Draw by repetition"
        );
        assert!(r(Outcome::Draw, EndReason::MoveLimit).contains("60 moves"));
        assert!(r(Outcome::Draw, EndReason::InsufficientMaterial).starts_with("Draw"));
    }

    #[test]
    fn scores_are_told_from_reds_side() {
        assert_eq!(score_text(Score::Cp(35), Color::Red), "Red +0.35");
        assert_eq!(score_text(Score::Cp(35), Color::Black), "Black +0.35");
        assert_eq!(score_text(Score::Cp(0), Color::Black), "even");
        assert_eq!(score_text(Score::Mate(2), Color::Black), "Black mates in 2");
        assert_eq!(score_text(Score::Mate(-3), Color::Black), "Red mates in 3");
        assert_eq!(red_value(Score::Cp(35), Color::Black), -35);
    }

    #[test]
    fn clocks_charge_the_side_to_move_only_while_running() {
        let t0 = Instant::now();
        let at = |ms| t0 + Duration::from_millis(ms);
        let mut c = Clocks::new(Duration::from_secs(60), Duration::from_secs(2));
        assert!(!c.running());
        assert!(!c.run(Color::Red, at(0)), "starting charges nothing");
        assert!(!c.run(Color::Red, at(1500)));
        assert_eq!(c.left(Color::Red), Duration::from_millis(58_500));
        c.moved(Color::Red);
        assert_eq!(c.left(Color::Red), Duration::from_millis(60_500));
        // Black's clock from Red's move on; stopped time is not charged.
        assert!(!c.run(Color::Black, at(2500)));
        c.stop();
        assert!(!c.run(Color::Black, at(9000)));
        assert_eq!(c.left(Color::Black), Duration::from_secs(59));
        // The flag falls at zero, and stays down.
        assert!(c.run(Color::Black, at(70_000)));
        assert!(c.left(Color::Black).is_zero());
        assert!(c.run(Color::Black, at(70_001)));
        assert_eq!(c.left(Color::Red), Duration::from_millis(60_500));
        assert!(clocks(0).is_none(), "the first choice is no clocks");
        assert_eq!(
            clocks(1).map(|c| c.increment()),
            Some(Duration::from_secs(1))
        );
    }

    #[test]
    fn taking_back_moves_gives_their_time_back() {
        let t0 = Instant::now();
        let at = |ms| t0 + Duration::from_millis(ms);
        let mut c = Clocks::new(Duration::from_secs(10), Duration::from_secs(1));
        c.run(Color::Red, at(0));
        c.run(Color::Red, at(3000));
        c.moved(Color::Red); // Red 8 s
        c.run(Color::Black, at(5000));
        c.moved(Color::Black); // Black 9 s
        assert!(c.run(Color::Red, at(20_000)), "Red's flag falls");
        // Taking back Black's move: as when Red's move had just been made.
        c.take_back(1);
        assert!(!c.running(), "a take-back stops the clocks");
        assert_eq!(c.left(Color::Red), Duration::from_secs(8));
        assert_eq!(c.left(Color::Black), Duration::from_secs(10));
        assert!(!c.run(Color::Black, at(20_000)), "the flag rose again");
        c.take_back(5); // more than were timed: back to the start
        assert_eq!(c.left(Color::Red), Duration::from_secs(10));
        assert_eq!(c.left(Color::Black), Duration::from_secs(10));
    }

    #[test]
    fn take_back_returns_the_move_to_the_human() {
        let mut game = Game::new();
        for m in ["h2e2", "h9g7", "h0g2"] {
            game.play_text(m).unwrap();
        }
        // Against an engine playing Black: Red's last move only (Black to move after it).
        let mut g = game.clone();
        assert_eq!(take_back(&mut g, Some(Color::Black)), 1);
        assert_eq!(g.position().turn(), Color::Red);
        // Against an engine playing Red: Black's move and Red's reply.
        let mut g = game.clone();
        assert_eq!(take_back(&mut g, Some(Color::Red)), 2);
        assert_eq!(g.position().turn(), Color::Black);
        assert_eq!(take_back(&mut game, None), 1);
    }
}
