//! The levels that ship with Ludus, embedded in the binary: the Ludus
//! Original library and the classic collections whose authors allow free
//! distribution with credit (`levels/LICENSES.md` lists them with their
//! terms). Each carries the par and difficulty its rating run found
//! (`<file>.par.json`, see [`crate::rating`]).

use std::borrow::Cow;

use crate::format::sok::{Collection, parse_collection};
use crate::rating::Ratings;

/// The Ludus Original library in `.sok` form: levels Ludus generated with its
/// seeded generator and curated, plus the levels designed for Ludus, ordered
/// from tutorial to hard. Each carries a title, a `Comment:` with its proven
/// optimal push count, moves and difficulty band, and one push-optimal
/// solution.
pub const ORIGINAL: &str = include_str!("../levels/original.sok");

/// The same library in the JSON library form (see [`crate::format::json`]),
/// with `min_pushes`, `min_moves` and `difficulty` per level.
pub const ORIGINAL_JSON: &str = include_str!("../levels/original.json");

/// The built-in collection's display name.
pub const ORIGINAL_NAME: &str = "Ludus Original";

/// A collection built into Ludus.
#[derive(Clone, Copy, Debug)]
pub struct Builtin {
    /// A stable name for files and settings (`microban-1`).
    pub id: &'static str,
    pub title: &'static str,
    pub author: &'static str,
    /// The author's terms, shown with the collection as they ask.
    pub credit: &'static str,
    /// The collection file as published (Latin-1 or UTF-8).
    pub file: &'static [u8],
    /// Its rating file (`<file>.par.json`).
    pub ratings: &'static str,
}

impl Builtin {
    /// The collection's text: UTF-8 where it is, Latin-1 otherwise (as
    /// collections of the 1990s and 2000s were written).
    pub fn text(&self) -> Cow<'static, str> {
        match std::str::from_utf8(self.file) {
            Ok(text) => Cow::Borrowed(text),
            Err(_) => Cow::Owned(self.file.iter().map(|&b| char::from(b)).collect()),
        }
    }

    /// The parsed collection, titled, with each level's par and difficulty.
    pub fn collection(&self) -> Collection {
        let mut collection = parse_collection(&self.text());
        collection.title = Some(self.title.to_string());
        collection.author = Some(self.author.to_string());
        match Ratings::parse(self.ratings) {
            Ok(ratings) => {
                let stale = ratings.apply(&mut collection);
                if !stale.is_empty() {
                    collection
                        .warnings
                        .push(format!("ratings out of date for levels {stale:?}"));
                }
            }
            Err(e) => collection.warnings.push(format!("ratings: {e}")),
        }
        collection
    }
}

const MICROBAN_CREDIT: &str = "David W. Skinner: \"My sets are in two groups: Sasquatch and Microban. These sets may be freely distributed provided they remain properly credited.\"";
const HAYWOOD_CREDIT: &str = "Lee J Haywood (leehaywood.org): \"These designs may be freely distributed and may be used commercially provided they remain unchanged and I am credited with my name - Lee J Haywood.\"";
const GRIGORIEV_CREDIT: &str = "Evgeny Grigoriev (GRIGoRusha, grigr.narod.ru; some levels with his friend Mottled): \"Who wants to copy anyone any of these levels what to place it on the Site, in the program or to change it, can do it completely freely.\"";
const HOLLAND_CREDIT: &str = "These levels are © David Holland <david@noether.freeserve.co.uk>. These levels may be distributed freely as long as this copyright message is retained.";

macro_rules! builtin {
    ($id:literal, $title:literal, $author:literal, $credit:expr, $path:literal) => {
        Builtin {
            id: $id,
            title: $title,
            author: $author,
            credit: $credit,
            file: include_bytes!(concat!("../levels/", $path)),
            ratings: include_str!(concat!("../levels/", $path, ".par.json")),
        }
    };
}

/// Every built-in collection, grouped by author: the Ludus Original library
/// first.
pub const BUILTIN: &[Builtin] = &[
    builtin!(
        "original",
        "Ludus Original",
        "Ludus",
        "Made for Ludus; licensed like Ludus (MIT OR Apache-2.0).",
        "original.sok"
    ),
    builtin!(
        "microban-1",
        "Microban I",
        "David W. Skinner",
        MICROBAN_CREDIT,
        "microban/microban-1.txt"
    ),
    builtin!(
        "microban-2",
        "Microban II",
        "David W. Skinner",
        MICROBAN_CREDIT,
        "microban/microban-2.txt"
    ),
    builtin!(
        "microban-3",
        "Microban III",
        "David W. Skinner",
        MICROBAN_CREDIT,
        "microban/microban-3.txt"
    ),
    builtin!(
        "microban-4",
        "Microban IV",
        "David W. Skinner",
        MICROBAN_CREDIT,
        "microban/microban-4.txt"
    ),
    builtin!(
        "microban-5",
        "Microban V",
        "David W. Skinner",
        MICROBAN_CREDIT,
        "microban/microban-5.txt"
    ),
    builtin!(
        "sasquatch-1",
        "Sasquatch I",
        "David W. Skinner",
        MICROBAN_CREDIT,
        "sasquatch/sasquatch-1.txt"
    ),
    builtin!(
        "sasquatch-2",
        "Sasquatch II",
        "David W. Skinner",
        MICROBAN_CREDIT,
        "sasquatch/sasquatch-2.txt"
    ),
    builtin!(
        "sasquatch-3",
        "Sasquatch III",
        "David W. Skinner",
        MICROBAN_CREDIT,
        "sasquatch/sasquatch-3.txt"
    ),
    builtin!(
        "sasquatch-4",
        "Sasquatch IV",
        "David W. Skinner",
        MICROBAN_CREDIT,
        "sasquatch/sasquatch-4.txt"
    ),
    builtin!(
        "sasquatch-5",
        "Sasquatch V",
        "David W. Skinner",
        MICROBAN_CREDIT,
        "sasquatch/sasquatch-5.txt"
    ),
    builtin!(
        "sasquatch-6",
        "Sasquatch VI",
        "David W. Skinner",
        MICROBAN_CREDIT,
        "sasquatch/sasquatch-6.txt"
    ),
    builtin!(
        "sasquatch-7",
        "Sasquatch VII",
        "David W. Skinner",
        MICROBAN_CREDIT,
        "sasquatch/sasquatch-7.txt"
    ),
    builtin!(
        "sasquatch-8",
        "Sasquatch VIII",
        "David W. Skinner",
        MICROBAN_CREDIT,
        "sasquatch/sasquatch-8.txt"
    ),
    builtin!(
        "sasquatch-9",
        "Sasquatch IX",
        "David W. Skinner",
        MICROBAN_CREDIT,
        "sasquatch/sasquatch-9.txt"
    ),
    builtin!(
        "sasquatch-10",
        "Sasquatch X",
        "David W. Skinner",
        MICROBAN_CREDIT,
        "sasquatch/sasquatch-10.txt"
    ),
    builtin!(
        "sasquatch-11",
        "Sasquatch XI",
        "David W. Skinner",
        MICROBAN_CREDIT,
        "sasquatch/sasquatch-11.txt"
    ),
    builtin!(
        "sasquatch-12",
        "Sasquatch XII",
        "David W. Skinner",
        MICROBAN_CREDIT,
        "sasquatch/sasquatch-12.txt"
    ),
    builtin!(
        "sokevo",
        "SokEvo",
        "Lee J Haywood",
        HAYWOOD_CREDIT,
        "haywood/sokevo.txt"
    ),
    builtin!(
        "sokhard",
        "SokHard",
        "Lee J Haywood",
        HAYWOOD_CREDIT,
        "haywood/sokhard.txt"
    ),
    builtin!(
        "sokwhole",
        "SokWhole",
        "Lee J Haywood",
        HAYWOOD_CREDIT,
        "haywood/sokwhole.txt"
    ),
    builtin!(
        "grigr-2001",
        "Grigr 2001",
        "Evgeny Grigoriev",
        GRIGORIEV_CREDIT,
        "grigoriev/grigr2001.txt"
    ),
    builtin!(
        "grigr-2002",
        "Grigr 2002",
        "Evgeny Grigoriev",
        GRIGORIEV_CREDIT,
        "grigoriev/grigr2002.txt"
    ),
    builtin!(
        "grigr-comet",
        "Grigr Comet",
        "Evgeny Grigoriev",
        GRIGORIEV_CREDIT,
        "grigoriev/GrigrComet.txt"
    ),
    builtin!(
        "grigr-special",
        "Grigr Special",
        "Evgeny Grigoriev",
        GRIGORIEV_CREDIT,
        "grigoriev/GrigrSpecial.txt"
    ),
    builtin!(
        "grigr-star",
        "Grigr Star",
        "Evgeny Grigoriev",
        GRIGORIEV_CREDIT,
        "grigoriev/GrigrStar.txt"
    ),
    builtin!(
        "grigr-sun",
        "Grigr Sun",
        "Evgeny Grigoriev",
        GRIGORIEV_CREDIT,
        "grigoriev/GrigrSun.txt"
    ),
    builtin!(
        "bagatelle",
        "Bagatelle",
        "David Holland",
        HOLLAND_CREDIT,
        "holland/bagatelle.txt"
    ),
    builtin!(
        "cantrip",
        "Cantrip",
        "David Holland",
        HOLLAND_CREDIT,
        "holland/cantrip.txt"
    ),
    builtin!(
        "dh1",
        "dh1",
        "David Holland",
        HOLLAND_CREDIT,
        "holland/dh1.txt"
    ),
    builtin!(
        "dh2",
        "dh2",
        "David Holland",
        HOLLAND_CREDIT,
        "holland/dh2.txt"
    ),
    builtin!(
        "maelstrom",
        "Maelstrom",
        "David Holland",
        HOLLAND_CREDIT,
        "holland/maelstrom.txt"
    ),
];

/// The built-in collection called `name` (its id or its title, any case).
pub fn builtin(name: &str) -> Option<&'static Builtin> {
    BUILTIN
        .iter()
        .find(|b| b.id.eq_ignore_ascii_case(name) || b.title.eq_ignore_ascii_case(name))
}
