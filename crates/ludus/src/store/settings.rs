//! User settings (`settings.json`). Every field has a default, so files written by older
//! builds (missing fields) load, and unknown fields are ignored.

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::data_dir::DataDir;
use super::json_file::{self, Document, Warning};

/// All settings. The file also carries `"version"` ([`Settings::VERSION`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub sokoban: SokobanSettings,
    pub tetris: TetrisSettings,
    pub xiangqi: XiangqiSettings,
    pub terminal: TerminalSettings,
}

/// Sokoban settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SokobanSettings {
    /// Show deadlock warnings on the board.
    pub show_deadlocks: bool,
    /// Milliseconds per step when replaying or animating a solution.
    pub animation_ms: u32,
    /// The collection played last (its name: a built-in title, a pack, a file).
    pub last_collection: Option<String>,
    /// The level played last in that collection (0-based).
    pub last_level: Option<usize>,
}

impl Default for SokobanSettings {
    fn default() -> Self {
        SokobanSettings {
            show_deadlocks: true,
            animation_ms: 120,
            last_collection: None,
            last_level: None,
        }
    }
}

/// Tetris settings: handling, the ghost piece and the keys.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TetrisSettings {
    /// DAS, ARR, soft drop and next-queue length, as the engine takes them (it clamps
    /// out-of-range values).
    pub handling: tetris::Settings,
    /// Show where the piece will land.
    pub ghost: bool,
    pub keys: TetrisKeys,
    /// Command lines of the Tetris Bot Protocol bots the user configured
    /// (`ludus tetris --tbp-bot CMD`), offered as versus opponents.
    pub bots: Vec<String>,
}

impl Default for TetrisSettings {
    fn default() -> Self {
        TetrisSettings {
            handling: tetris::Settings::default(),
            ghost: true,
            keys: TetrisKeys::default(),
            bots: Vec::new(),
        }
    }
}

/// Tetris key bindings: key names (`left`, `space`, `shift`, a character, …) per action.
/// Esc (pause) and `?` (help) are fixed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TetrisKeys {
    pub left: Vec<String>,
    pub right: Vec<String>,
    pub soft_drop: Vec<String>,
    pub hard_drop: Vec<String>,
    pub rotate_cw: Vec<String>,
    pub rotate_ccw: Vec<String>,
    pub rotate_180: Vec<String>,
    pub hold: Vec<String>,
    pub pause: Vec<String>,
    pub hint: Vec<String>,
    pub quit: Vec<String>,
}

impl Default for TetrisKeys {
    fn default() -> Self {
        let keys = |names: &[&str]| names.iter().map(|n| (*n).to_owned()).collect();
        TetrisKeys {
            left: keys(&["left"]),
            right: keys(&["right"]),
            soft_drop: keys(&["down"]),
            hard_drop: keys(&["space"]),
            rotate_cw: keys(&["up", "x"]),
            rotate_ccw: keys(&["z"]),
            rotate_180: keys(&["a"]),
            hold: keys(&["c", "shift"]),
            pause: keys(&["p"]),
            hint: keys(&["h"]),
            quit: keys(&["q"]),
        }
    }
}

/// Xiangqi settings: the last game set-up and how moves are shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct XiangqiSettings {
    /// Play against the engine (else two players on one terminal).
    pub vs_engine: bool,
    /// The human plays Red against the engine.
    pub human_red: bool,
    /// Index into the TUI's strength levels (out-of-range values are clamped).
    pub level: usize,
    /// Index into the TUI's clock choices (0 = no clocks).
    pub clock: usize,
    /// Move list notation: `chinese`, `wxf` or `iccs`.
    pub notation: String,
    /// Chinese characters of the board and the move list: `traditional`
    /// (帥俥傌, 進) or `simplified` (帅车马, 进).
    #[serde(default = "traditional")]
    pub characters: String,
    /// Engines play each other (the set-up's third opponent).
    pub watch: bool,
    /// Red's and Black's players when engines play each other: the
    /// strengths of Ludus, then the configured engines (see
    /// `session::xiangqi::watch::Seat::from_choice`).
    pub watch_seats: [usize; 2],
    /// Command lines of the UCI/UCCI engines the user configured
    /// (`ludus xiangqi --engine CMD`).
    pub engines: Vec<String>,
    /// Whether the browser slides the pieces when a move is played: unset
    /// follows the browser's `prefers-reduced-motion` (on unless it asks for
    /// less motion); set, it is the player's choice.
    pub animate: Option<bool>,
}

fn traditional() -> String {
    "traditional".to_string()
}

impl Default for XiangqiSettings {
    fn default() -> Self {
        XiangqiSettings {
            vs_engine: true,
            human_red: true,
            level: 2,
            clock: 0,
            notation: "chinese".to_string(),
            characters: traditional(),
            watch: false,
            watch_seats: [6, 7],
            engines: Vec::new(),
            animate: None,
        }
    }
}

/// How the terminal front end talks to the terminal: the mouse and the characters drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TerminalSettings {
    /// Capture the mouse (clicks and the wheel); off leaves the terminal's own selection.
    pub mouse: bool,
    pub look: Look,
}

impl Default for TerminalSettings {
    fn default() -> Self {
        TerminalSettings {
            mouse: true,
            look: Look::Auto,
        }
    }
}

/// The characters the screens are drawn with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Look {
    /// Unicode where the locale says UTF-8, else ASCII.
    #[default]
    Auto,
    /// Block and box-drawing characters.
    Unicode,
    /// Plain ASCII, for terminals without those characters.
    Ascii,
}

impl Look {
    /// Whether to draw in ASCII, given whether the locale is UTF-8.
    pub fn is_ascii(self, locale_utf8: bool) -> bool {
        match self {
            Look::Auto => !locale_utf8,
            Look::Unicode => false,
            Look::Ascii => true,
        }
    }
}

/// Whether the locale's character set is UTF-8, from the variables' values
/// (`var` looks one up): the first of LC_ALL, LC_CTYPE and LANG that is set
/// decides, as in POSIX. None set is the C locale (ASCII), except on
/// Windows, whose terminals take Unicode without them.
pub fn locale_is_utf8(var: impl Fn(&str) -> Option<String>) -> bool {
    let chosen = ["LC_ALL", "LC_CTYPE", "LANG"]
        .into_iter()
        .find_map(|name| var(name).filter(|v| !v.is_empty()));
    match chosen {
        Some(value) => {
            let value = value.to_ascii_lowercase();
            value.contains("utf-8") || value.contains("utf8")
        }
        None => cfg!(windows),
    }
}

impl Document for Settings {
    const VERSION: u32 = 1;
}

/// Loads `settings.json` (defaults if missing; moved aside and reported if unusable).
pub fn load(dir: &DataDir) -> (Settings, Option<Warning>) {
    json_file::load(&dir.settings())
}

/// Writes `settings.json` atomically (an unusable file there is moved aside and reported).
pub fn save(dir: &DataDir, settings: &Settings) -> Result<Option<Warning>> {
    json_file::save(&dir.settings(), settings)
}

/// Changes settings under the file's lock (e.g. remember the last level without
/// clobbering a change another process just made).
pub fn update<R>(
    dir: &DataDir,
    change: impl FnOnce(&mut Settings) -> R,
) -> Result<(R, Option<Warning>)> {
    json_file::update(&dir.settings(), change)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn defaults() {
        let s = Settings::default();
        assert!(s.sokoban.show_deadlocks);
        assert_eq!(s.sokoban.animation_ms, 120);
        assert_eq!(s.sokoban.last_collection, None);
        assert_eq!(s.sokoban.last_level, None);
        assert!(s.terminal.mouse);
        assert_eq!(s.terminal.look, Look::Auto);
    }

    #[test]
    fn the_automatic_look_follows_the_locale() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| (*v).to_string())
            }
        };
        assert!(locale_is_utf8(env(&[("LANG", "en_GB.UTF-8")])));
        assert!(locale_is_utf8(env(&[("LC_CTYPE", "de_DE.utf8")])));
        assert!(!locale_is_utf8(env(&[("LANG", "C")])));
        assert!(!locale_is_utf8(env(&[("LANG", "fr_FR.ISO-8859-1")])));
        // The first one set decides: LC_ALL=C wins over a UTF-8 LANG.
        assert!(!locale_is_utf8(env(&[
            ("LC_ALL", "C"),
            ("LANG", "en_US.UTF-8")
        ])));
        assert!(locale_is_utf8(env(&[
            ("LC_ALL", ""),
            ("LC_CTYPE", "C.UTF-8"),
            ("LANG", "C")
        ])));
        assert_eq!(locale_is_utf8(env(&[])), cfg!(windows));

        assert!(Look::Auto.is_ascii(false));
        assert!(!Look::Auto.is_ascii(true));
        assert!(Look::Ascii.is_ascii(true));
        assert!(!Look::Unicode.is_ascii(false));
    }

    #[test]
    fn round_trip() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::at(tmp.path());
        assert_eq!(load(&dir), (Settings::default(), None));
        let mut s = Settings::default();
        s.sokoban.show_deadlocks = false;
        s.sokoban.animation_ms = 40;
        s.sokoban.last_collection = Some("microban.txt".into());
        s.sokoban.last_level = Some(12);
        s.terminal.mouse = false;
        s.terminal.look = Look::Ascii;
        assert_eq!(save(&dir, &s).unwrap(), None);
        assert_eq!(load(&dir), (s.clone(), None));
        let (old, _) = update(&dir, |s| {
            let old = s.sokoban.last_level;
            s.sokoban.last_level = Some(13);
            old
        })
        .unwrap();
        assert_eq!(old, Some(12));
        assert_eq!(load(&dir).0.sokoban.last_level, Some(13));
        assert_eq!(load(&dir).0.sokoban.animation_ms, 40);
    }

    #[test]
    fn missing_fields_default_and_unknown_fields_are_ignored() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::at(tmp.path());
        fs::write(
            dir.settings(),
            r#"{"version": 1, "sokoban": {"animation_ms": 300, "theme": "dark"}, "chess": {}}"#,
        )
        .unwrap();
        let (s, w) = load(&dir);
        assert_eq!(w, None);
        assert_eq!(s.sokoban.animation_ms, 300);
        assert!(s.sokoban.show_deadlocks);
        assert_eq!(s.sokoban.last_level, None);
        assert_eq!(s.tetris, TetrisSettings::default());

        fs::write(dir.settings(), r#"{"version": 1}"#).unwrap();
        assert_eq!(load(&dir), (Settings::default(), None));
    }

    #[test]
    fn a_xiangqi_section_from_before_the_animation_switch_loads() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::at(tmp.path());
        // As an older build wrote it: no `animate`.
        fs::write(
            dir.settings(),
            r#"{"version": 1, "xiangqi": {"vs_engine": false, "human_red": true, "level": 3,
                "clock": 1, "notation": "wxf", "characters": "simplified"}}"#,
        )
        .unwrap();
        let (s, w) = load(&dir);
        assert_eq!(w, None);
        assert_eq!(s.xiangqi.animate, None);
        assert_eq!(s.xiangqi.notation, "wxf");
        assert_eq!(s.xiangqi.level, 3);
        assert!(!s.xiangqi.vs_engine);

        let mut s = s;
        s.xiangqi.animate = Some(false);
        assert_eq!(save(&dir, &s).unwrap(), None);
        assert_eq!(load(&dir).0.xiangqi.animate, Some(false));
        let text = fs::read_to_string(dir.settings()).unwrap();
        assert!(text.contains(r#""animate": false"#), "{text}");
    }

    #[test]
    fn wrong_type_is_moved_aside() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::at(tmp.path());
        let text = "{\"version\": 1,\n \"sokoban\": {\"animation_ms\": -5}}";
        fs::write(dir.settings(), text).unwrap();
        let (s, w) = load(&dir);
        assert_eq!(s, Settings::default());
        let w = w.unwrap();
        assert!(w.to_string().contains("settings.json"), "{w}");
        assert!(w.problem.contains("line 2 column"), "{w}");
        assert_eq!(fs::read_to_string(w.moved_to.unwrap()).unwrap(), text);
    }
}
