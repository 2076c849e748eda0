//! The games database both front ends show: one entry per saved game and
//! per game of an imported collection, with its players, result, date,
//! event, length and ECCO opening; searched by a [`Query`] and ordered by a
//! [`Sort`]. Pure: built from what the store read ([`Database::build`]).

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use xiangqi::Move;
use xiangqi::ecco::{self, Opening};
use xiangqi::pgn::PgnGame;

use super::{MAX_NAME_CHARS, XiangqiSession};
use crate::store::DataDir;
use crate::store::xiangqi::{
    Collection, FolderStamp, SavedGame, database_stamp, list_collections, list_games,
};

/// Longest query text read (it is typed on one line).
pub const MAX_QUERY_CHARS: usize = 200;

/// Where an entry's game is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A saved game: its file in `xiangqi/games/` (saving it again writes there).
    Saved { file: String, path: PathBuf },
    /// Game `index` (from 0) of a file in `xiangqi/collections/`.
    Collection { file: String, index: usize },
}

impl Source {
    /// The source for lists: the saved game's file, or the collection's with
    /// the game's number (from 1) when it holds several.
    pub fn label(&self, games_in_file: usize) -> String {
        match self {
            Source::Saved { file, .. } => file.clone(),
            Source::Collection { file, index } if games_in_file > 1 => {
                format!("{file} #{}", index + 1)
            }
            Source::Collection { file, .. } => file.clone(),
        }
    }

    /// The entry's id in requests: `saved/FILE` or `collection/FILE/INDEX`.
    pub fn key(&self) -> String {
        match self {
            Source::Saved { file, .. } => format!("saved/{file}"),
            Source::Collection { file, index } => format!("collection/{file}/{index}"),
        }
    }
}

/// A game's result as the database files it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    RedWins,
    BlackWins,
    Draw,
    /// `*`, or a result text that is none of the three.
    Unfinished,
}

impl GameResult {
    /// From a PGN result text (`1/2-1/2` and `½-½` are draws).
    pub fn from_pgn(text: &str) -> GameResult {
        match text.trim() {
            "1-0" => GameResult::RedWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" | "½-½" => GameResult::Draw,
            _ => GameResult::Unfinished,
        }
    }

    /// How lists show it.
    pub fn text(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "½-½",
            GameResult::Unfinished => "*",
        }
    }
}

/// Which results a search keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ResultFilter {
    #[default]
    Any,
    Only(GameResult),
}

impl ResultFilter {
    /// Every filter in the order a key cycles through them.
    pub const ALL: [ResultFilter; 5] = [
        ResultFilter::Any,
        ResultFilter::Only(GameResult::RedWins),
        ResultFilter::Only(GameResult::BlackWins),
        ResultFilter::Only(GameResult::Draw),
        ResultFilter::Only(GameResult::Unfinished),
    ];

    /// The next filter of [`ResultFilter::ALL`] (after the last, the first).
    pub fn next(self) -> ResultFilter {
        let at = Self::ALL.iter().position(|f| *f == self).unwrap_or(0);
        Self::ALL[(at + 1) % Self::ALL.len()]
    }

    /// Its name in requests and on screen: `any`, `1-0`, `0-1`, `draw`, `unfinished`.
    pub fn name(self) -> &'static str {
        match self {
            ResultFilter::Any => "any",
            ResultFilter::Only(GameResult::RedWins) => "1-0",
            ResultFilter::Only(GameResult::BlackWins) => "0-1",
            ResultFilter::Only(GameResult::Draw) => "draw",
            ResultFilter::Only(GameResult::Unfinished) => "unfinished",
        }
    }

    /// The filter of that name ([`ResultFilter::name`]; `½-½` and `*` too).
    pub fn from_name(name: &str) -> Option<ResultFilter> {
        match name.trim() {
            "" | "any" => Some(ResultFilter::Any),
            "1-0" => Some(ResultFilter::Only(GameResult::RedWins)),
            "0-1" => Some(ResultFilter::Only(GameResult::BlackWins)),
            "draw" | "½-½" | "1/2-1/2" => Some(ResultFilter::Only(GameResult::Draw)),
            "unfinished" | "*" => Some(ResultFilter::Only(GameResult::Unfinished)),
            _ => None,
        }
    }

    fn keeps(self, result: GameResult) -> bool {
        match self {
            ResultFilter::Any => true,
            ResultFilter::Only(r) => r == result,
        }
    }
}

/// The order of a search's entries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sort {
    /// Newest date first; undated games last.
    #[default]
    Newest,
    /// Oldest date first; undated games last.
    Oldest,
    /// By Red's name.
    Red,
    /// By ECCO code; unclassified games last.
    Opening,
}

impl Sort {
    pub const ALL: [Sort; 4] = [Sort::Newest, Sort::Oldest, Sort::Red, Sort::Opening];

    /// The next order (after the last, the first).
    pub fn next(self) -> Sort {
        let at = Self::ALL.iter().position(|s| *s == self).unwrap_or(0);
        Self::ALL[(at + 1) % Self::ALL.len()]
    }

    /// Its name in requests and on screen.
    pub fn name(self) -> &'static str {
        match self {
            Sort::Newest => "newest",
            Sort::Oldest => "oldest",
            Sort::Red => "red",
            Sort::Opening => "opening",
        }
    }

    pub fn from_name(name: &str) -> Option<Sort> {
        Self::ALL.into_iter().find(|s| s.name() == name.trim())
    }
}

/// One game of the database.
#[derive(Clone, Debug)]
pub struct Entry {
    pub source: Source,
    /// How many games the entry's file holds (for its label).
    pub games_in_file: usize,
    pub red: String,
    pub black: String,
    pub event: String,
    /// The date as recorded (PGN `Date`, XQF's date field), possibly empty.
    pub date: String,
    /// The date as `YYYY`, `YYYY.MM` or `YYYY.MM.DD`, if it has a year.
    pub date_key: Option<String>,
    pub result: GameResult,
    /// Half-moves in the record.
    pub plies: usize,
    pub opening: Option<Opening>,
    record: PgnGame,
}

impl Entry {
    /// An entry for `record` kept at `source`.
    pub fn new(source: Source, games_in_file: usize, record: PgnGame) -> Entry {
        let tag = |name: &str| -> String {
            record
                .tag(name)
                .map(|v| v.trim().chars().take(MAX_NAME_CHARS).collect())
                .unwrap_or_default()
        };
        let moves: Vec<Move> = record.moves.iter().map(|m| m.mv).collect();
        let date = tag("Date");
        Entry {
            source,
            games_in_file,
            red: tag("Red"),
            black: tag("Black"),
            event: tag("Event"),
            date_key: date_key(&date),
            date,
            result: GameResult::from_pgn(&record.result),
            plies: record.moves.len(),
            opening: ecco::classify(&record.start, &moves),
            record,
        }
    }

    /// The id requests open it by (see [`Source::key`]).
    pub fn key(&self) -> String {
        self.source.key()
    }

    /// The source for lists (see [`Source::label`]).
    pub fn source_label(&self) -> String {
        self.source.label(self.games_in_file)
    }

    /// The date as lists show it: the [`date_key`] if it has a year, else
    /// the text as recorded (possibly empty).
    pub fn date_text(&self) -> &str {
        self.date_key.as_deref().unwrap_or(&self.date)
    }

    /// The opening as lists show it: `C20 English name`, or `—` unclassified.
    pub fn opening_text(&self) -> String {
        self.opening
            .map_or("—".to_string(), |o| format!("{} {}", o.code, o.english))
    }

    pub fn record(&self) -> &PgnGame {
        &self.record
    }

    /// The game opened to continue or step through: a saved game saves back
    /// to its file; a collection's game saves as a new saved game.
    pub fn session(&self) -> XiangqiSession {
        let saved_as = match &self.source {
            Source::Saved { path, .. } => Some(path.clone()),
            Source::Collection { .. } => None,
        };
        XiangqiSession::from_record(&self.record, self.source_label(), saved_as)
    }

    /// Whether every word of the query is in a player's name, the event,
    /// or the opening's code or names (ignoring case).
    fn has_words(&self, words: &[String]) -> bool {
        let mut fields: Vec<String> = vec![
            self.red.to_lowercase(),
            self.black.to_lowercase(),
            self.event.to_lowercase(),
        ];
        if let Some(o) = self.opening {
            fields.extend([o.code, o.chinese, o.english].map(str::to_lowercase));
        }
        words.iter().all(|w| fields.iter().any(|f| f.contains(w)))
    }
}

/// The date of a record as a key that sorts and compares by prefix:
/// `YYYY[.MM[.DD]]` from the digit groups of the text (a four-digit year
/// first: `1997`, `2004.10.02`, `2004年10月2日`), or `None` without a year.
pub fn date_key(text: &str) -> Option<String> {
    let groups: Vec<&str> = text
        .split(|c: char| !c.is_ascii_digit())
        .filter(|g| !g.is_empty())
        .take(3)
        .collect();
    let year = groups.first().filter(|y| y.len() == 4)?;
    let mut key = (*year).to_string();
    for part in groups.iter().skip(1) {
        match part.parse::<u32>() {
            Ok(n) if (1..=31).contains(&n) && part.len() <= 2 => key.push_str(&format!(".{n:02}")),
            _ => break,
        }
    }
    Some(key)
}

/// A file the database could not read, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub file: String,
    pub message: String,
}

/// Why a query text was not understood; one message each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueryError {
    /// Longer than [`MAX_QUERY_CHARS`].
    TooLong,
    /// A `date:` that holds no year (the text given).
    BadDate(String),
    /// A `eco:` that is not a code prefix like `C` or `C2` (the text given).
    BadOpening(String),
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueryError::TooLong => {
                write!(f, "the search is longer than {MAX_QUERY_CHARS} characters")
            }
            QueryError::BadDate(t) => write!(
                f,
                "date:{t} is not a year, a date or a range like 2020..2023"
            ),
            QueryError::BadOpening(t) => {
                write!(f, "eco:{t} is not an ECCO code or its start, like C or C2")
            }
        }
    }
}

impl std::error::Error for QueryError {}

/// Inclusive date bounds, as [`date_key`]s; a bound compares by its prefix
/// (`2023` holds every day of 2023).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DateRange {
    pub from: Option<String>,
    pub to: Option<String>,
}

impl DateRange {
    fn holds(&self, key: Option<&str>) -> bool {
        let Some(key) = key else { return false };
        let after = self.from.as_deref().is_none_or(|from| key >= from);
        let before = self.to.as_deref().is_none_or(|to| {
            let cut: String = key.chars().take(to.chars().count()).collect();
            cut.as_str() <= to
        });
        after && before
    }
}

/// What a search keeps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query {
    /// Lower-case words, each to be found in a player, the event or the opening.
    pub words: Vec<String>,
    pub result: ResultFilter,
    pub dates: Option<DateRange>,
    /// An ECCO code prefix (upper case), like `C2`.
    pub opening: Option<String>,
}

impl Query {
    /// Reads a typed search: words, `date:2023` (a year or date prefix),
    /// `date:2020..2023` (a range; either end may be left out) and
    /// `eco:C2` (an opening code prefix). The result filter is set apart.
    ///
    /// # Errors
    /// The text is too long, or a `date:` or `eco:` cannot be read.
    pub fn parse(text: &str) -> Result<Query, QueryError> {
        if text.chars().count() > MAX_QUERY_CHARS {
            return Err(QueryError::TooLong);
        }
        let mut query = Query::default();
        for word in text.split_whitespace() {
            let lower = word.to_lowercase();
            if let Some(range) = lower.strip_prefix("date:") {
                query.dates = Some(parse_dates(range)?);
            } else if let Some(code) = lower.strip_prefix("eco:") {
                let code = code.to_uppercase();
                let mut chars = code.chars();
                let letter = chars.next().is_some_and(|c| ('A'..='E').contains(&c));
                let digits: Vec<char> = chars.collect();
                if !letter || digits.len() > 2 || !digits.iter().all(char::is_ascii_digit) {
                    return Err(QueryError::BadOpening(code));
                }
                query.opening = Some(code);
            } else {
                query.words.push(lower);
            }
        }
        Ok(query)
    }

    /// Whether `entry` is kept.
    pub fn matches(&self, entry: &Entry) -> bool {
        self.result.keeps(entry.result)
            && self
                .dates
                .as_ref()
                .is_none_or(|d| d.holds(entry.date_key.as_deref()))
            && self
                .opening
                .as_deref()
                .is_none_or(|p| entry.opening.is_some_and(|o| o.code.starts_with(p)))
            && entry.has_words(&self.words)
    }
}

fn parse_dates(text: &str) -> Result<DateRange, QueryError> {
    let bad = || QueryError::BadDate(text.to_string());
    let bound = |t: &str| -> Result<Option<String>, QueryError> {
        if t.is_empty() {
            Ok(None)
        } else {
            date_key(t).map(Some).ok_or_else(bad)
        }
    };
    let range = match text.split_once("..") {
        Some((from, to)) => DateRange {
            from: bound(from)?,
            to: bound(to)?,
        },
        None => {
            let key = bound(text)?.ok_or_else(bad)?;
            DateRange {
                from: Some(key.clone()),
                to: Some(key),
            }
        }
    };
    Ok(range)
}

/// The saved games and imported collections, one [`Entry`] per game, and
/// the files that could not be read.
#[derive(Debug, Default)]
pub struct Database {
    entries: Vec<Entry>,
    problems: Vec<Problem>,
}

impl Database {
    /// The saved games (as listed) then the collections' games in file order.
    pub fn build(saved: Vec<SavedGame>, collections: Vec<Collection>) -> Database {
        let mut db = Database::default();
        for game in saved {
            match game.record {
                Ok(record) => db.entries.push(Entry::new(
                    Source::Saved {
                        file: game.name,
                        path: game.path,
                    },
                    1,
                    record,
                )),
                Err(message) => db.problems.push(Problem {
                    file: game.name,
                    message,
                }),
            }
        }
        for collection in collections {
            match collection.games {
                Ok(games) => {
                    let count = games.len();
                    for (index, record) in games.into_iter().enumerate() {
                        let source = Source::Collection {
                            file: collection.name.clone(),
                            index,
                        };
                        db.entries.push(Entry::new(source, count, record));
                    }
                }
                Err(message) => db.problems.push(Problem {
                    file: collection.name,
                    message,
                }),
            }
        }
        db
    }

    /// The database of the data dir's saved games and collections.
    pub fn load(data: &DataDir) -> Database {
        Database::build(list_games(data), list_collections(data))
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The entries `query` keeps, in `sort`'s order (ties keep the
    /// database's order).
    pub fn search(&self, query: &Query, sort: Sort) -> Vec<&Entry> {
        self.matching(query, sort)
            .into_iter()
            .filter_map(|i| self.entries.get(i))
            .collect()
    }

    /// As [`Database::search`], the entries' indexes in [`Database::entries`].
    pub fn matching(&self, query: &Query, sort: Sort) -> Vec<usize> {
        let mut found: Vec<usize> = (0..self.entries.len())
            .filter(|&i| query.matches(&self.entries[i]))
            .collect();
        let e = |i: &usize| &self.entries[*i];
        let dated_first = |a: &Entry, b: &Entry| b.date_key.is_some().cmp(&a.date_key.is_some());
        match sort {
            Sort::Newest => found.sort_by(|a, b| {
                let (a, b) = (e(a), e(b));
                dated_first(a, b).then_with(|| b.date_key.cmp(&a.date_key))
            }),
            Sort::Oldest => found.sort_by(|a, b| {
                let (a, b) = (e(a), e(b));
                dated_first(a, b).then_with(|| a.date_key.cmp(&b.date_key))
            }),
            Sort::Red => found.sort_by_key(|i| e(i).red.to_lowercase()),
            Sort::Opening => {
                found.sort_by_key(|i| (e(i).opening.is_none(), e(i).opening.map(|o| o.code)))
            }
        }
        found
    }

    /// The entry of that key ([`Entry::key`]).
    pub fn find(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key() == key)
    }
}

/// A database kept between searches and read again only when the files
/// changed ([`FolderStamp`]): a search as one types costs no parsing.
#[derive(Debug, Default)]
pub struct DatabaseCache {
    /// The data dir's root and its stamp when `db` was read.
    stamp: Option<(PathBuf, FolderStamp)>,
    db: Arc<Database>,
}

impl DatabaseCache {
    /// The database of `data`, read again if its files are not those read last.
    pub fn get(&mut self, data: &DataDir) -> Arc<Database> {
        // Stamped before reading: a change while reading shows next time.
        let now = (data.root().to_path_buf(), database_stamp(data));
        if self.stamp.as_ref() != Some(&now) {
            self.db = Arc::new(Database::load(data));
            self.stamp = Some(now);
        }
        Arc::clone(&self.db)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::pgn::parse_all;

    fn record(red: &str, black: &str, date: &str, event: &str, moves: &str) -> PgnGame {
        let text = format!(
            "[Event \"{event}\"]\n[Red \"{red}\"]\n[Black \"{black}\"]\n[Date \"{date}\"]\n\n{moves}\n"
        );
        PgnGame::parse(&text).unwrap()
    }

    fn sample() -> Database {
        let saved = vec![SavedGame::for_test(
            "game-1.pgn",
            Ok(record(
                "You",
                "Ludus (Easy)",
                "2024.03.01",
                "",
                "1. h2e2 h9g7 *",
            )),
        )];
        let club = Collection {
            path: PathBuf::from("club.pgn"),
            name: "club.pgn".into(),
            games: Ok(vec![
                record(
                    "胡荣华",
                    "杨官璘",
                    "1960.05.02",
                    "全国赛",
                    "1. h2e2 h9g7 1-0",
                ),
                record("Lü Qin", "Xu Yinchuan", "1997", "World Cup", "1. c3c4 0-1"),
                record(
                    "Hu Ronghua",
                    "Lü Qin",
                    "????.??.??",
                    "Friendly",
                    "1. b2e2 1/2-1/2",
                ),
            ]),
        };
        let broken = Collection {
            path: PathBuf::from("bad.pgn"),
            name: "bad.pgn".into(),
            games: Err("PGN line 1, column 4: illegal".into()),
        };
        Database::build(saved, vec![club, broken])
    }

    fn reds(found: &[&Entry]) -> Vec<String> {
        found.iter().map(|e| e.red.clone()).collect()
    }

    #[test]
    fn one_entry_per_game_and_a_problem_per_unreadable_file() {
        let db = sample();
        assert_eq!(db.entries().len(), 4);
        assert_eq!(
            db.problems(),
            [Problem {
                file: "bad.pgn".into(),
                message: "PGN line 1, column 4: illegal".into()
            }]
        );
        let e = &db.entries()[2];
        assert_eq!(e.key(), "collection/club.pgn/1");
        assert_eq!(e.source_label(), "club.pgn #2");
        assert_eq!(
            (e.black.as_str(), e.event.as_str()),
            ("Xu Yinchuan", "World Cup")
        );
        assert_eq!((e.result, e.plies), (GameResult::BlackWins, 1));
        // The classification is filled in elsewhere: what it says is shown, "—" for none.
        let expected = ecco::classify(&e.record().start, &[e.record().moves[0].mv]);
        assert_eq!(e.opening, expected);
        if expected.is_none() {
            assert_eq!(e.opening_text(), "—");
        }
        assert_eq!(db.entries()[0].key(), "saved/game-1.pgn");
        assert!(db.find("collection/club.pgn/2").is_some());
        assert!(db.find("collection/club.pgn/3").is_none());
    }

    #[test]
    fn newest_first_by_default_undated_last() {
        let db = sample();
        let all = db.search(&Query::default(), Sort::default());
        assert_eq!(reds(&all), ["You", "Lü Qin", "胡荣华", "Hu Ronghua"]);
        let oldest = db.search(&Query::default(), Sort::Oldest);
        assert_eq!(reds(&oldest), ["胡荣华", "Lü Qin", "You", "Hu Ronghua"]);
        let by_red = db.search(&Query::default(), Sort::Red);
        assert_eq!(reds(&by_red), ["Hu Ronghua", "Lü Qin", "You", "胡荣华"]);
    }

    #[test]
    fn words_match_players_and_events_in_any_case() {
        let db = sample();
        let q = Query::parse("lü").unwrap();
        assert_eq!(reds(&db.search(&q, Sort::Oldest)), ["Lü Qin", "Hu Ronghua"]);
        let q = Query::parse("LÜ world").unwrap();
        assert_eq!(reds(&db.search(&q, Sort::Newest)), ["Lü Qin"]);
        let q = Query::parse("杨官璘").unwrap();
        assert_eq!(reds(&db.search(&q, Sort::Newest)), ["胡荣华"]);
        let q = Query::parse("nobody").unwrap();
        assert!(db.search(&q, Sort::Newest).is_empty());
    }

    #[test]
    fn result_filter_keeps_one_result() {
        let db = sample();
        let mut q = Query::default();
        let mut seen = Vec::new();
        for _ in 0..ResultFilter::ALL.len() {
            q.result = q.result.next();
            seen.push((q.result.name(), reds(&db.search(&q, Sort::Newest))));
        }
        assert_eq!(
            seen,
            [
                ("1-0", vec!["胡荣华".to_string()]),
                ("0-1", vec!["Lü Qin".to_string()]),
                ("draw", vec!["Hu Ronghua".to_string()]),
                ("unfinished", vec!["You".to_string()]),
                ("any", reds(&db.search(&Query::default(), Sort::Newest))),
            ]
        );
        assert_eq!(
            ResultFilter::from_name("½-½"),
            Some(q.result.next().next().next())
        );
        assert_eq!(ResultFilter::from_name("won"), None);
    }

    #[test]
    fn dates_by_year_prefix_and_range() {
        let db = sample();
        let found = |text: &str| reds(&db.search(&Query::parse(text).unwrap(), Sort::Oldest));
        assert_eq!(found("date:1997"), ["Lü Qin"]);
        assert_eq!(found("date:1960.05"), ["胡荣华"]);
        assert_eq!(found("date:1950..1997"), ["胡荣华", "Lü Qin"]);
        assert_eq!(found("date:1997.."), ["Lü Qin", "You"]);
        assert_eq!(found("date:..1960.05.02"), ["胡荣华"]);
        assert_eq!(found("date:..1960.05.01"), Vec::<String>::new());
        assert_eq!(
            Query::parse("date:soon"),
            Err(QueryError::BadDate("soon".into()))
        );
        assert_eq!(date_key("2004年10月2日").as_deref(), Some("2004.10.02"));
        assert_eq!(date_key("????.??.??"), None);
        assert_eq!(date_key("97.1.1"), None);
        let dated = |d: &str| {
            Entry::new(
                Source::Saved {
                    file: "f".into(),
                    path: "f".into(),
                },
                1,
                record("a", "b", d, "", "*"),
            )
        };
        assert_eq!(dated("1997年11月").date_text(), "1997.11");
        assert_eq!(dated("spring").date_text(), "spring");
    }

    #[test]
    fn opening_codes_by_prefix() {
        let q = Query::parse("eco:c2 hu").unwrap();
        assert_eq!(q.opening.as_deref(), Some("C2"));
        assert_eq!(q.words, ["hu"]);
        assert_eq!(
            Query::parse("eco:Z9"),
            Err(QueryError::BadOpening("Z9".into()))
        );
        assert!(Query::parse("eco:C234").is_err());
        assert!(Query::parse(&"x".repeat(MAX_QUERY_CHARS + 1)).is_err());
        // An opening filter keeps classified games only.
        let db = sample();
        let found = db.search(&Query::parse("eco:A").unwrap(), Sort::Opening);
        assert!(
            found
                .iter()
                .all(|e| e.opening.is_some_and(|o| o.code.starts_with('A')))
        );
    }

    #[test]
    fn the_cache_reads_again_only_when_files_change() {
        let tmp = tempfile::tempdir().unwrap();
        let data = DataDir::at(tmp.path());
        let mut cache = DatabaseCache::default();
        let empty = cache.get(&data);
        assert!(empty.entries().is_empty());
        assert!(Arc::ptr_eq(&empty, &cache.get(&data)));
        let pgn = "[Red \"A\"]\n\n1. h2e2 *\n";
        crate::store::xiangqi::import_collection(&data, "a.pgn", pgn.as_bytes()).unwrap();
        let one = cache.get(&data);
        assert_eq!(one.entries().len(), 1);
        assert!(Arc::ptr_eq(&one, &cache.get(&data)));
    }

    #[test]
    fn an_entry_opens_as_a_session_that_steps_through_it() {
        let db = sample();
        let games = parse_all("[Red \"A\"]\n\n1. h2e2 h9g7 2. h0g2 1-0\n").unwrap();
        let one = Database::build(
            Vec::new(),
            vec![Collection {
                path: PathBuf::from("one.xqf"),
                name: "one.xqf".into(),
                games: Ok(games),
            }],
        );
        let entry = &one.entries()[0];
        assert_eq!(entry.source_label(), "one.xqf");
        let session = entry.session();
        assert_eq!(session.game().plies().len(), 3);
        assert_eq!(session.recorded(), Some("1-0"));
        assert_eq!(session.title(), Some("one.xqf"));
        assert_eq!(session.saved_as(), None);
        let saved = db.find("saved/game-1.pgn").unwrap().session();
        assert_eq!(saved.saved_as(), Some(std::path::Path::new("game-1.pgn")));
    }
}
