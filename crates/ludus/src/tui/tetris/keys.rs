//! Keys of the game screen: bindings (names saved in the settings), and the tracker that
//! turns terminal key events into timed presses and releases for the engine.
//!
//! Terminals speaking the kitty keyboard protocol report real releases: the engine then
//! times DAS and ARR itself. Others only repeat the key press while it is held; the tracker
//! treats such a key as held until no repeat has come for a little longer than the
//! terminal's repeat interval (learnt from the repeats), then releases it.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers, ModifierKeyCode};
use tetris::{Action, InputEvent};

use crate::store::settings::TetrisKeys;

/// What a bindable key does in the game screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bind {
    Game(Action),
    Pause,
    Hint,
    Quit,
}

/// Every bindable action, in the order of the settings screen (and of precedence when a
/// saved file binds one key twice).
pub const BINDS: [Bind; 11] = [
    Bind::Game(Action::Left),
    Bind::Game(Action::Right),
    Bind::Game(Action::SoftDrop),
    Bind::Game(Action::HardDrop),
    Bind::Game(Action::RotateCw),
    Bind::Game(Action::RotateCcw),
    Bind::Game(Action::Rotate180),
    Bind::Game(Action::Hold),
    Bind::Pause,
    Bind::Hint,
    Bind::Quit,
];

impl Bind {
    pub fn label(self) -> &'static str {
        match self {
            Bind::Game(Action::Left) => "move left",
            Bind::Game(Action::Right) => "move right",
            Bind::Game(Action::SoftDrop) => "soft drop",
            Bind::Game(Action::HardDrop) => "hard drop",
            Bind::Game(Action::RotateCw) => "rotate clockwise",
            Bind::Game(Action::RotateCcw) => "rotate counter-clockwise",
            Bind::Game(Action::Rotate180) => "rotate 180°",
            Bind::Game(Action::Hold) => "hold",
            Bind::Pause => "pause",
            Bind::Hint => "hint (the bot's placement)",
            Bind::Quit => "quit to the menu",
        }
    }

    pub fn keys(self, keys: &TetrisKeys) -> &Vec<String> {
        match self {
            Bind::Game(Action::Left) => &keys.left,
            Bind::Game(Action::Right) => &keys.right,
            Bind::Game(Action::SoftDrop) => &keys.soft_drop,
            Bind::Game(Action::HardDrop) => &keys.hard_drop,
            Bind::Game(Action::RotateCw) => &keys.rotate_cw,
            Bind::Game(Action::RotateCcw) => &keys.rotate_ccw,
            Bind::Game(Action::Rotate180) => &keys.rotate_180,
            Bind::Game(Action::Hold) => &keys.hold,
            Bind::Pause => &keys.pause,
            Bind::Hint => &keys.hint,
            Bind::Quit => &keys.quit,
        }
    }

    pub fn keys_mut(self, keys: &mut TetrisKeys) -> &mut Vec<String> {
        match self {
            Bind::Game(Action::Left) => &mut keys.left,
            Bind::Game(Action::Right) => &mut keys.right,
            Bind::Game(Action::SoftDrop) => &mut keys.soft_drop,
            Bind::Game(Action::HardDrop) => &mut keys.hard_drop,
            Bind::Game(Action::RotateCw) => &mut keys.rotate_cw,
            Bind::Game(Action::RotateCcw) => &mut keys.rotate_ccw,
            Bind::Game(Action::Rotate180) => &mut keys.rotate_180,
            Bind::Game(Action::Hold) => &mut keys.hold,
            Bind::Pause => &mut keys.pause,
            Bind::Hint => &mut keys.hint,
            Bind::Quit => &mut keys.quit,
        }
    }
}

/// Keys that are never bindable: Esc always pauses, `?` always shows the help.
const FIXED: [&str; 2] = ["esc", "?"];

/// The name of a key as saved in the settings, `None` for keys that cannot be bound.
/// Letters keep their case (Shift+z arrives as `Z`).
pub fn key_name(code: KeyCode) -> Option<String> {
    let name = match code {
        KeyCode::Left => "left",
        KeyCode::Right => "right",
        KeyCode::Up => "up",
        KeyCode::Down => "down",
        KeyCode::Enter => "enter",
        KeyCode::Tab => "tab",
        KeyCode::Backspace => "backspace",
        KeyCode::Esc => "esc",
        KeyCode::Char(' ') => "space",
        KeyCode::Char(c) if !c.is_control() => return Some(c.to_string()),
        KeyCode::Modifier(ModifierKeyCode::LeftShift | ModifierKeyCode::RightShift) => "shift",
        KeyCode::Modifier(ModifierKeyCode::LeftControl | ModifierKeyCode::RightControl) => "ctrl",
        KeyCode::Modifier(ModifierKeyCode::LeftAlt | ModifierKeyCode::RightAlt) => "alt",
        _ => return None,
    };
    Some(name.to_owned())
}

/// The physical key behind a name: a release of Shift+z arrives as `Z` even when the press
/// was `z`, so held keys are matched case-insensitively.
pub fn physical(name: &str) -> String {
    name.to_lowercase()
}

/// How a key name is shown: arrows as arrows, words capitalised.
pub fn display(name: &str) -> String {
    match name {
        "left" => "←".to_owned(),
        "right" => "→".to_owned(),
        "up" => "↑".to_owned(),
        "down" => "↓".to_owned(),
        _ if name.chars().count() > 1 => {
            let mut chars = name.chars();
            chars
                .next()
                .map(|first| first.to_uppercase().chain(chars).collect())
                .unwrap_or_default()
        }
        _ => name.to_owned(),
    }
}

/// Whether a key can be bound at all.
pub fn bindable(name: &str) -> bool {
    !FIXED.contains(&name)
}

/// Binds `name` to `bind` alone (or, with `add`, besides its other keys), taking it from
/// whichever action had it so no key ever does two things. Returns that action.
pub fn assign(keys: &mut TetrisKeys, bind: Bind, name: &str, add: bool) -> Option<Bind> {
    let mut taken_from = None;
    for other in BINDS {
        let list = other.keys_mut(keys);
        let before = list.len();
        list.retain(|k| k != name);
        if list.len() != before && other != bind {
            taken_from = Some(other);
        }
    }
    let list = bind.keys_mut(keys);
    if !add {
        list.clear();
    }
    list.push(name.to_owned());
    taken_from
}

/// Key names to actions, built from the settings.
#[derive(Clone, Debug, Default)]
pub struct Keymap {
    map: Vec<(String, Bind)>,
    /// Keys bound twice in the file (the first action in [`BINDS`] order keeps them).
    pub conflicts: Vec<String>,
}

impl Keymap {
    pub fn new(keys: &TetrisKeys) -> Keymap {
        let mut keymap = Keymap::default();
        for bind in BINDS {
            for name in bind.keys(keys) {
                if !bindable(name) {
                    continue;
                }
                if keymap.lookup(name).is_some() {
                    keymap.conflicts.push(name.clone());
                } else {
                    keymap.map.push((name.clone(), bind));
                }
            }
        }
        keymap
    }

    pub fn lookup(&self, name: &str) -> Option<Bind> {
        self.map
            .iter()
            .find(|(key, _)| key == name)
            .map(|&(_, bind)| bind)
    }

    /// The action a key event is bound to, with the key's name. Ctrl and Alt
    /// chords are not game keys, but their release still counts (the key
    /// may have been pressed before the modifier), so no key stays held. An
    /// upper-case letter that is not bound itself (Caps Lock, Shift held)
    /// does what its lower-case key does.
    pub fn bound(&self, key: &KeyEvent) -> Option<(Bind, String)> {
        if key.kind != KeyEventKind::Release
            && key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            return None;
        }
        let name = key_name(key.code)?;
        let bind = self
            .lookup(&name)
            .or_else(|| self.lookup(&name.to_lowercase()))?;
        Some((bind, name))
    }

    /// The first key of an action as shown to the player, if it has one.
    pub fn first(&self, bind: Bind) -> Option<String> {
        self.map
            .iter()
            .find(|(_, b)| *b == bind)
            .map(|(key, _)| display(key))
    }

    /// The keys of an action as shown to the player (`↑ x`), or `(no key)`
    /// when unbound (a `-` would read as the minus key).
    pub fn shown(&self, bind: Bind) -> String {
        let names: Vec<String> = self
            .map
            .iter()
            .filter(|(_, b)| *b == bind)
            .map(|(key, _)| display(key))
            .collect();
        if names.is_empty() {
            NO_KEY.to_owned()
        } else {
            names.join(" ")
        }
    }
}

/// How an action without a key is shown.
pub const NO_KEY: &str = "(no key)";

/// A key the tracker considers held.
#[derive(Clone, Debug, PartialEq)]
struct HeldKey {
    physical: String,
    action: Action,
    /// The last press or repeat seen for it.
    last_ms: u64,
}

/// Turns key events into engine inputs, timing holds when the terminal reports no releases.
#[derive(Clone, Debug)]
pub struct InputTracker {
    /// A release (or a kitty-style repeat) has been seen: the terminal reports releases.
    releases: bool,
    held: Vec<HeldKey>,
    /// Last press per physical key, to learn the terminal's repeat interval.
    last_press: Vec<(String, u64)>,
    /// Estimated terminal auto-repeat interval.
    repeat_ms: u64,
}

impl Default for InputTracker {
    fn default() -> Self {
        InputTracker {
            releases: false,
            held: Vec::new(),
            last_press: Vec::new(),
            repeat_ms: INITIAL_REPEAT_MS,
        }
    }
}

/// A common terminal repeat interval (25–30 per second) until the real one is seen.
const INITIAL_REPEAT_MS: u64 = 40;
/// Gaps between presses of one key longer than this never teach the repeat interval:
/// terminals repeat 20–40 times a second, while a quick player taps one key about every
/// 100 ms or more.
const MAX_REPEAT_MS: u64 = 60;
/// The longest hold timeout: a second tap of a key after this long is always a new press.
const MAX_HOLD_MS: u64 = 100;
/// How late a repeat may be seen (the event loop's tick) and still continue a hold.
const LATE_MS: u64 = 30;
/// Terminals repeat keys at most about every 15 ms; presses closer than this are taps.
const MIN_REPEAT_MS: u64 = 8;

impl InputTracker {
    /// Whether the terminal has shown it reports key releases.
    pub fn has_releases(&self) -> bool {
        self.releases
    }

    /// Any key event: a release or a marked repeat, even of an unbound key, shows that the
    /// terminal reports releases.
    pub fn note(&mut self, kind: KeyEventKind) {
        if kind != KeyEventKind::Press {
            self.releases = true;
        }
    }

    /// Without releases: how long after its last repeat a key still counts as held.
    pub fn hold_timeout_ms(&self) -> u64 {
        (self.repeat_ms * 3 / 2 + 20).clamp(50, MAX_HOLD_MS)
    }

    /// Whether any key is held.
    pub fn any_held(&self) -> bool {
        !self.held.is_empty()
    }

    /// One key event at game time `now_ms`, for `action`, on the key `name`.
    pub fn key(
        &mut self,
        name: &str,
        action: Action,
        kind: KeyEventKind,
        now_ms: u64,
        out: &mut Vec<InputEvent>,
    ) {
        let physical = physical(name);
        let held = self.held.iter().position(|h| h.physical == physical);
        match kind {
            KeyEventKind::Press => {
                if !self.releases {
                    self.learn(&physical, now_ms);
                }
                match held {
                    // A second press within a few milliseconds is no terminal repeat (none
                    // is that fast) but a burst of taps, e.g. pasted or sent by tmux.
                    Some(i) if !self.releases && now_ms < self.held[i].last_ms + MIN_REPEAT_MS => {
                        self.held[i].last_ms = now_ms;
                        out.push(InputEvent::release(now_ms, action));
                        out.push(InputEvent::press(now_ms, action));
                    }
                    // Without releases a press of a held key is the terminal repeating it.
                    Some(i) => self.held[i].last_ms = now_ms,
                    None => {
                        self.held.push(HeldKey {
                            physical,
                            action,
                            last_ms: now_ms,
                        });
                        out.push(InputEvent::press(now_ms, action));
                    }
                }
            }
            KeyEventKind::Repeat => {
                // Only the kitty protocol marks repeats: releases will come too.
                self.releases = true;
                match held {
                    Some(i) => self.held[i].last_ms = now_ms,
                    // Held through a focus change or a pause: it is down, so press it.
                    None => {
                        self.held.push(HeldKey {
                            physical,
                            action,
                            last_ms: now_ms,
                        });
                        out.push(InputEvent::press(now_ms, action));
                    }
                }
            }
            KeyEventKind::Release => {
                self.releases = true;
                if let Some(i) = held {
                    let key = self.held.remove(i);
                    out.push(InputEvent::release(now_ms, key.action));
                }
            }
        }
    }

    fn learn(&mut self, physical: &str, now_ms: u64) {
        match self.last_press.iter_mut().find(|(k, _)| k == physical) {
            Some((_, last)) => {
                let gap = now_ms.saturating_sub(*last);
                if (5..=MAX_REPEAT_MS).contains(&gap) {
                    // A smoothed estimate: one odd gap does not swing the timeout.
                    self.repeat_ms = (self.repeat_ms * 3 + gap).div_ceil(4);
                }
                *last = now_ms;
            }
            None => self.last_press.push((physical.to_owned(), now_ms)),
        }
    }

    /// Without releases: lets go of keys whose repeats stopped, at the time the hold ran out,
    /// except keys in `pressed_now` whose hold ran out less than a tick ago (their repeat
    /// is in this batch, just late).
    pub fn expire(&mut self, now_ms: u64, pressed_now: &[String], out: &mut Vec<InputEvent>) {
        if self.releases {
            return;
        }
        let timeout = self.hold_timeout_ms();
        let mut expired: Vec<(u64, Action)> = Vec::new();
        self.held.retain(|key| {
            let until = key.last_ms + timeout;
            let late_repeat = pressed_now.contains(&key.physical) && now_ms <= until + LATE_MS;
            if until <= now_ms && !late_repeat {
                expired.push((until, key.action));
                false
            } else {
                true
            }
        });
        expired.sort_by_key(|&(time, _)| time);
        out.extend(
            expired
                .into_iter()
                .map(|(time, action)| InputEvent::release(time, action)),
        );
    }

    /// Lets go of every key (pause, focus lost, game over).
    pub fn release_all(&mut self, now_ms: u64, out: &mut Vec<InputEvent>) {
        for key in self.held.drain(..) {
            out.push(InputEvent::release(now_ms, key.action));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_action_without_a_key_never_shows_as_the_minus_key() {
        let keys = TetrisKeys {
            rotate_180: Vec::new(),
            ..TetrisKeys::default()
        };
        let keymap = Keymap::new(&keys);
        assert_eq!(keymap.first(Bind::Game(Action::Rotate180)), None);
        assert_eq!(keymap.shown(Bind::Game(Action::Rotate180)), NO_KEY);
        assert_eq!(
            keymap.first(Bind::Game(Action::HardDrop)).as_deref(),
            Some("Space")
        );
    }

    #[test]
    fn default_keys_have_no_conflicts_and_show_as_documented() {
        let keymap = Keymap::new(&TetrisKeys::default());
        assert!(keymap.conflicts.is_empty());
        assert_eq!(keymap.lookup("up"), Some(Bind::Game(Action::RotateCw)));
        assert_eq!(keymap.lookup("x"), Some(Bind::Game(Action::RotateCw)));
        assert_eq!(keymap.lookup("shift"), Some(Bind::Game(Action::Hold)));
        assert_eq!(keymap.lookup("X"), None);
        assert_eq!(keymap.shown(Bind::Game(Action::RotateCw)), "↑ x");
        assert_eq!(keymap.shown(Bind::Game(Action::HardDrop)), "Space");
    }

    #[test]
    fn assigning_a_key_takes_it_from_its_old_action() {
        let mut keys = TetrisKeys::default();
        let taken = assign(&mut keys, Bind::Hint, "c", false);
        assert_eq!(taken, Some(Bind::Game(Action::Hold)));
        assert_eq!(keys.hint, ["c"]);
        assert_eq!(keys.hold, ["shift"]);
        assert_eq!(assign(&mut keys, Bind::Hint, "g", true), None);
        assert_eq!(keys.hint, ["c", "g"]);
        assert!(Keymap::new(&keys).conflicts.is_empty());
    }

    #[test]
    fn a_file_binding_a_key_twice_keeps_the_first_and_reports_it() {
        let mut keys = TetrisKeys::default();
        keys.quit.push("z".into());
        keys.pause.push("esc".into());
        let keymap = Keymap::new(&keys);
        assert_eq!(keymap.conflicts, ["z"]);
        assert_eq!(keymap.lookup("z"), Some(Bind::Game(Action::RotateCcw)));
        assert_eq!(keymap.lookup("esc"), None);
    }

    #[test]
    fn with_releases_the_engine_gets_real_presses_and_releases() {
        let mut tracker = InputTracker::default();
        let mut out = Vec::new();
        tracker.key("left", Action::Left, KeyEventKind::Press, 10, &mut out);
        tracker.key("left", Action::Left, KeyEventKind::Repeat, 400, &mut out);
        tracker.expire(5000, &[], &mut out);
        assert!(tracker.any_held(), "no timeout once releases are known");
        tracker.key("left", Action::Left, KeyEventKind::Release, 5000, &mut out);
        assert_eq!(
            out,
            [
                InputEvent::press(10, Action::Left),
                InputEvent::release(5000, Action::Left)
            ]
        );
    }

    #[test]
    fn without_releases_repeats_hold_the_key_until_they_stop() {
        let mut tracker = InputTracker::default();
        let mut out = Vec::new();
        // The terminal: a press, its repeat delay, then repeats every 30 ms.
        tracker.key("left", Action::Left, KeyEventKind::Press, 0, &mut out);
        let timeout = tracker.hold_timeout_ms();
        assert!(timeout <= MAX_HOLD_MS, "{timeout}");
        tracker.expire(400, &[], &mut out);
        for t in (500..=800).step_by(30) {
            tracker.key("left", Action::Left, KeyEventKind::Press, t, &mut out);
            tracker.expire(t, &["left".into()], &mut out);
        }
        assert!(tracker.any_held());
        tracker.expire(2000, &[], &mut out);
        assert!(!tracker.any_held());
        let timeout_after = tracker.hold_timeout_ms();
        assert_eq!(
            out,
            [
                InputEvent::press(0, Action::Left),
                InputEvent::release(timeout, Action::Left),
                InputEvent::press(500, Action::Left),
                InputEvent::release(800 + timeout_after, Action::Left),
            ]
        );
    }

    #[test]
    fn without_releases_quick_taps_are_never_taken_for_repeats() {
        let mut tracker = InputTracker::default();
        let mut out = Vec::new();
        // Taps 110 ms apart, each expiring between ticks, with repeats seen elsewhere.
        tracker.key("x", Action::RotateCw, KeyEventKind::Press, 0, &mut out);
        for t in (30..=90).step_by(30) {
            tracker.key("x", Action::RotateCw, KeyEventKind::Press, t, &mut out);
        }
        for i in 1..=10 {
            let t = 200 + 110 * i;
            tracker.expire(t, &[], &mut out);
            tracker.key(" ", Action::HardDrop, KeyEventKind::Press, t, &mut out);
        }
        tracker.expire(5_000, &[], &mut out);
        let drops = out
            .iter()
            .filter(|e| e.action == Action::HardDrop && e.edge == tetris::Edge::Press)
            .count();
        assert_eq!(drops, 10);
    }

    #[test]
    fn release_of_a_shifted_letter_lets_go_of_the_plain_one() {
        let mut tracker = InputTracker::default();
        let mut out = Vec::new();
        tracker.key("z", Action::RotateCcw, KeyEventKind::Press, 0, &mut out);
        tracker.key("Z", Action::RotateCcw, KeyEventKind::Release, 50, &mut out);
        assert!(!tracker.any_held());
        assert_eq!(out.len(), 2);
    }
}
