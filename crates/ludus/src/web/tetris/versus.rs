//! Versus against a bot on the Tetris socket: the `versus` request starts a
//! [`VersusSession`] (the person on the left, Ludus's bot or a configured TBP bot at a
//! level's pace on the right; `versus_options` lists the opponents), and the
//! solo requests `input`, `tick`, `pause` and `save_replay` drive it with the same clamped
//! page times. Every reply is a `versus` state with both sides (see
//! `docs/web-protocol.md`); the game, the bot and its pace live in the session.

use std::sync::{Arc, Mutex};

use ::tetris::versus::{Outcome, Player};
use ::tetris::{Action, Edge, Game};
use serde::Serialize;
use serde_json::{Value, json};

use super::{PieceView, Request, board_text, cells, clamp_time};
use crate::session::tetris::now_secs;
use crate::session::tetris::versus::{BotLevel, Lookahead, Opponent, SideStats, VersusSession};
use crate::store::settings::TetrisSettings;
use crate::web::App;
use crate::web::protocol::{ErrorCode, Refusal, with_seq};
use crate::web::sessions::lock;
use crate::web::socket::{Replies, refuse};

/// A versus game on one connection: the session and what the page was told at its start.
pub struct VersusGame {
    session: VersusSession,
    /// The bot's title above its board ("Bot · Hard (2 PPS)").
    title: String,
    /// Whether the person's ghost piece is drawn (their setting).
    ghost: bool,
    setup: Value,
}

impl VersusGame {
    /// The person (with their handling, keys and ghost setting) against `opponent` at
    /// `level`'s pace, Ludus's bot looking `lookahead` pieces ahead (kept within what the
    /// level allows; the level's own when `None`).
    pub fn new(
        opponent: &Opponent,
        level: BotLevel,
        lookahead: Option<Lookahead>,
        seed: u64,
        settings: &TetrisSettings,
    ) -> VersusGame {
        let strength = level.with_lookahead(lookahead.unwrap_or(level.strength().lookahead));
        VersusGame {
            session: VersusSession::against(opponent, strength, settings.handling, seed),
            title: opponent.title(level, strength.lookahead),
            ghost: settings.ghost,
            setup: json!({
                "level": level.name(),
                "label": level.label(),
                "opponent": opponent.name(),
                "lookahead": strength.lookahead.name(),
                "bot_pps": level.pieces_per_second(),
                "seed": seed,
                "ghost": settings.ghost,
                "das": settings.handling.das_ms,
                "arr": settings.handling.arr_ms,
                "keys": &settings.keys,
            }),
        }
    }

    /// Lets go of the person's keys and stops the clock where the game is (the page left).
    pub fn pause_now(&mut self) {
        let now = self.session.time_ms();
        self.session.pause(now);
    }
}

/// The level named by a `versus` request.
///
/// # Errors
/// An unknown name: the refusal lists the levels.
pub fn level(name: &str, seq: Option<u64>) -> Result<BotLevel, Replies> {
    BotLevel::from_name(name).ok_or_else(|| {
        let shown: String = name.chars().take(40).collect();
        let names: Vec<&str> = BotLevel::ALL.iter().map(|l| l.name()).collect();
        refuse(
            ErrorCode::BadRequest,
            format!("unknown bot level {shown:?}: {}", names.join(", ")),
            seq,
        )
    })
}

/// The `versus_options` reply: the opponents a `versus` request may name by index
/// (Ludus's bot, then the TBP bots configured with `ludus tetris --tbp-bot`), by name
/// only: the page never sees or sends a command line.
pub fn options(settings: &TetrisSettings, seq: Option<u64>) -> String {
    let bots = &settings.bots;
    let opponents: Vec<String> = (0..Opponent::choices(bots))
        .map(|i| Opponent::from_choice(i, bots).name())
        .collect();
    let levels: Vec<Value> = BotLevel::ALL
        .iter()
        .map(|l| json!({"name": l.name(), "label": l.label(), "pps": l.pieces_per_second()}))
        .collect();
    let lookaheads: Vec<Value> = Lookahead::ALL
        .iter()
        .map(|l| json!({"name": l.name(), "label": l.label()}))
        .collect();
    with_seq(
        json!({
            "type": "versus_options",
            "opponents": opponents,
            "levels": levels,
            "lookaheads": lookaheads,
            "lookahead": Lookahead::BEST.name(),
        }),
        seq,
    )
}

/// The look-ahead a `versus` request names (`None`: the level's own).
///
/// # Errors
/// An unknown name: the refusal lists the look-aheads.
pub fn lookahead(name: Option<&str>, seq: Option<u64>) -> Result<Option<Lookahead>, Replies> {
    let Some(name) = name else {
        return Ok(None);
    };
    Lookahead::from_name(name).map(Some).ok_or_else(|| {
        let shown: String = name.chars().take(40).collect();
        refuse(
            ErrorCode::BadRequest,
            format!(
                "unknown look-ahead {shown:?}: classic or 0 to {}",
                Lookahead::MAX
            ),
            seq,
        )
    })
}

/// The opponent a `versus` request names by index.
///
/// # Errors
/// An index past the choices: the refusal says how many there are.
pub fn opponent(
    choice: Option<usize>,
    settings: &TetrisSettings,
    seq: Option<u64>,
) -> Result<Opponent, Replies> {
    let choices = Opponent::choices(&settings.bots);
    match choice.unwrap_or(0) {
        i if i < choices => Ok(Opponent::from_choice(i, &settings.bots)),
        i => Err(refuse(
            ErrorCode::BadRequest,
            format!("no opponent {i}: there are {choices} (see versus_options)"),
            seq,
        )),
    }
}

/// Answers a request about the versus game on this connection; `None` for the requests
/// that do not concern the game in play (new games, lists, pings).
pub fn handle(app: &App, game: &Arc<Mutex<VersusGame>>, request: &Request) -> Option<Replies> {
    let seq = request.seq();
    let mut g = lock(game);
    match *request {
        Request::Input {
            action, edge, t, ..
        } => {
            input(&mut g.session, action, edge, t);
        }
        Request::Tick { t, .. } => {
            let t = clamp_time(g.session.time_ms(), t);
            g.session.update(t, &[]);
        }
        Request::Pause { paused, t, .. } => {
            if paused {
                let t = clamp_time(g.session.time_ms(), t);
                g.session.pause(t);
            } else {
                g.session.resume();
            }
        }
        Request::SaveReplay { .. } => {
            return Some(match g.session.save_replay(&app.data, now_secs()) {
                Ok(name) => vec![with_seq(
                    json!({"type": "replay_saved", "name": name, "versus": true}),
                    seq,
                )],
                Err(message) if !g.session.is_finished() => {
                    refuse(ErrorCode::BadRequest, message, seq)
                }
                Err(message) => refuse(ErrorCode::BadPath, message, seq),
            });
        }
        Request::Hint { .. } | Request::End { .. } | Request::WatchTo { .. } => {
            return Some(refuse(
                ErrorCode::BadRequest,
                "not in a versus game (hints, End and replays are for solo games)",
                seq,
            ));
        }
        _ => return None,
    }
    Some(vec![state(&g, seq, false)])
}

/// One key edge of the person at the page's time `t`, clamped like solo times.
fn input(session: &mut VersusSession, action: Action, edge: Edge, t: u64) {
    let t = clamp_time(session.time_ms(), t);
    session.input(Player::One, action, edge, t);
}

/// The `versus` reply: both sides to draw; `full` adds the setup.
pub fn state(game: &VersusGame, seq: Option<u64>, full: bool) -> String {
    let session = &game.session;
    let view = VersusView {
        kind: "versus",
        t: session.time_ms(),
        playing: !session.is_finished(),
        paused: session.is_paused(),
        outcome: outcome_name(session),
        sides: [Player::One, Player::Two].map(|p| side_view_of(game, p)),
        replay: session.saved_replay(),
        setup: full.then(|| game.setup.clone()),
        seq,
    };
    serde_json::to_string(&view).unwrap_or_else(|e| {
        Refusal::new(ErrorCode::Internal, format!("versus state: {e}"), seq).to_json()
    })
}

/// How the game ended, from the person's side: `win`, `loss`, `draw`, or `stopped` (a
/// limit of the session ended it with no winner).
fn outcome_name(session: &VersusSession) -> Option<&'static str> {
    match session.outcome() {
        Some(Outcome::Winner(Player::One)) => Some("win"),
        Some(Outcome::Winner(Player::Two)) => Some("loss"),
        Some(Outcome::Draw) => Some("draw"),
        None if session.is_finished() => Some("stopped"),
        None => None,
    }
}

fn side_view_of(game: &VersusGame, player: Player) -> SideView {
    let (who, label) = match player {
        Player::One => ("you", "You".to_owned()),
        Player::Two => ("bot", game.title.clone()),
    };
    side_view(
        &game.session,
        player,
        who,
        label,
        player == Player::One && game.ghost,
    )
}

/// One side of a versus game as the page draws it (rooms draw theirs the same way).
pub(super) fn side_view(
    session: &VersusSession,
    player: Player,
    who: &'static str,
    label: String,
    ghost: bool,
) -> SideView {
    let g: &Game = session.game(player);
    let meter = session.versus().meter(player);
    SideView {
        who,
        label,
        forfeit: session.forfeit(player).map(str::to_owned),
        board: board_text(g),
        active: g.active().map(|p| PieceView {
            kind: p.kind.letter(),
            rot: p.rotation.index(),
            cells: cells(p),
        }),
        ghost: ghost.then(|| g.ghost().map(|p| cells(&p))).flatten(),
        hold: g.hold_piece().map(|k| k.letter()),
        can_hold: g.can_hold(),
        next: g.next_queue().iter().map(|k| k.letter()).collect(),
        meter: MeterView {
            ready: meter.ready,
            pending: meter.pending,
        },
        stats: StatsView::from(session.stats(player)),
    }
}

/// The `versus` reply (see `docs/web-protocol.md`).
#[derive(Serialize)]
struct VersusView<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    t: u64,
    playing: bool,
    paused: bool,
    outcome: Option<&'static str>,
    /// The person's side, then the bot's.
    sides: [SideView; 2],
    /// The saved replay's file name, once saved.
    #[serde(skip_serializing_if = "Option::is_none")]
    replay: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    setup: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seq: Option<u64>,
}

/// One side of the `versus` reply.
#[derive(Serialize)]
pub(super) struct SideView {
    who: &'static str,
    label: String,
    /// Why this side lost outside the rules (its TBP bot failed).
    #[serde(skip_serializing_if = "Option::is_none")]
    forfeit: Option<String>,
    /// Locked cells, 22 rows top first, as in the solo `state`.
    board: String,
    active: Option<PieceView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ghost: Option<[[i8; 2]; 4]>,
    hold: Option<char>,
    can_hold: bool,
    next: String,
    meter: MeterView,
    stats: StatsView,
}

/// Incoming garbage: lines ready to rise at the next lock, and lines still delayed.
#[derive(Serialize)]
struct MeterView {
    ready: u32,
    pending: u32,
}

/// One side's live figures.
#[derive(Serialize)]
struct StatsView {
    pieces: u64,
    lines: u32,
    attack: u32,
    sent: u32,
    cancelled: u32,
    received: u32,
    risen: u32,
    /// Attack per piece.
    app: f64,
    /// Pieces per second of game time.
    pps: f64,
    /// Attack per minute of game time.
    apm: f64,
}

impl From<SideStats> for StatsView {
    fn from(s: SideStats) -> StatsView {
        let round = |x: f64| (x * 100.0).round() / 100.0;
        StatsView {
            pieces: s.core.pieces,
            lines: s.core.lines,
            attack: s.core.garbage.attack,
            sent: s.core.garbage.sent,
            cancelled: s.core.garbage.cancelled,
            received: s.core.garbage.received,
            risen: s.core.garbage.risen,
            app: round(s.core.attack_per_piece),
            pps: round(s.core.pieces_per_second),
            apm: round(s.attack_per_minute),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_by_name_and_unknown_ones_refused() {
        assert_eq!(level("expert", None).ok(), Some(BotLevel::Expert));
        let refused = level("godlike", Some(3)).err().unwrap_or_default();
        assert_eq!(refused.len(), 1);
        assert!(refused[0].contains("unknown bot level"), "{}", refused[0]);
        assert!(refused[0].contains("unlimited"), "{}", refused[0]);
    }

    #[test]
    fn options_name_the_opponents_and_requests_pick_them_by_index() {
        let settings = TetrisSettings {
            bots: vec![String::from("/opt/cc2/cold-clear-2")],
            ..TetrisSettings::default()
        };
        let options: Value = serde_json::from_str(&options(&settings, Some(2))).unwrap_or_default();
        assert_eq!(options["opponents"], json!(["Ludus's bot", "cold-clear-2"]));
        assert_eq!(options["levels"][0]["label"], "Easy (0.5 PPS)");
        assert_eq!(options["lookaheads"][0]["name"], "classic");
        assert_eq!(options["lookahead"], "5");
        assert_eq!(
            lookahead(Some("3"), None).ok(),
            Some(Some(Lookahead::Pieces(3)))
        );
        assert_eq!(lookahead(None, None).ok(), Some(None));
        assert!(lookahead(Some("deep"), None).is_err());
        assert_eq!(options["seq"], 2);
        assert_eq!(opponent(None, &settings, None).ok(), Some(Opponent::Ludus));
        assert_eq!(
            opponent(Some(1), &settings, None).ok(),
            Some(Opponent::Tbp {
                command: String::from("/opt/cc2/cold-clear-2")
            })
        );
        let refused = opponent(Some(2), &settings, None).err().unwrap_or_default();
        assert!(
            refused[0].contains("no opponent 2: there are 2"),
            "{}",
            refused[0]
        );
    }

    #[test]
    fn the_state_shows_both_sides_and_the_result() {
        let mut game = VersusGame::new(
            &Opponent::Ludus,
            BotLevel::Unlimited,
            None,
            5,
            &TetrisSettings::default(),
        );
        let first: Value = serde_json::from_str(&state(&game, Some(1), true)).unwrap_or_default();
        assert_eq!(first["type"], "versus");
        assert_eq!(first["setup"]["level"], "unlimited");
        assert_eq!(first["setup"]["opponent"], "Ludus's bot");
        assert_eq!(
            first["sides"][1]["label"],
            "Bot · Unlimited · Current piece only"
        );
        assert_eq!(first["setup"]["lookahead"], "0");
        assert_eq!(first["sides"][0]["who"], "you");
        assert_eq!(first["sides"][1]["board"].as_str().map(str::len), Some(220));
        assert_eq!(first["outcome"], Value::Null);
        // The person hard-drops every 50 ms into the middle and tops out first.
        let mut now = 0;
        while !game.session.is_finished() && now < 60_000 {
            now += 50;
            input(&mut game.session, Action::HardDrop, Edge::Press, now);
            input(&mut game.session, Action::HardDrop, Edge::Release, now);
        }
        let last: Value = serde_json::from_str(&state(&game, None, false)).unwrap_or_default();
        assert_eq!(last["playing"], false);
        assert_eq!(last["outcome"], "loss");
        assert!(last["sides"][1]["stats"]["pieces"].as_u64() > Some(0));
        assert!(last.get("setup").is_none());
    }
}
