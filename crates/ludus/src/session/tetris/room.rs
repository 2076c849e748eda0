//! A Tetris versus room: two people on one server, each at a seat held by a secret
//! token, and any number of spectators (up to [`MAX_SPECTATORS`]). The room owns a
//! [`VersusSession`] with two [`Side::Person`] sides and the flow around it: waiting for
//! the second player, a [`COUNTDOWN_MS`] countdown, the game, and its end (a top-out, or a
//! player who left); a rematch when both ask. It never reads the clock nor touches a
//! socket: the caller passes the room's time in milliseconds (monotonic, from when the
//! room was made) and makes the tokens (from a cryptographic source).
//!
//! **Reloads.** A seated player whose connection drops keeps the seat for [`GRACE_MS`]:
//! the game pauses (held keys are let go) and goes on when they come back with their
//! token. When the grace ends, or on an explicit [`Room::leave`], the other player wins.
//!
//! **Time.** Inputs are stamped with the room's clock by the caller; a page's own time
//! stamps are not trusted. Game time is room time minus the time spent before the game
//! and paused.

use std::fmt;

use tetris::versus::{Outcome, Player};
use tetris::{Action, Edge, Settings};

use super::versus::{Side, VersusSession};

/// How long the countdown before each game lasts.
pub const COUNTDOWN_MS: u64 = 3_000;
/// How long a seated player whose connection dropped keeps the seat (the game waits,
/// paused); after that the other player wins.
pub const GRACE_MS: u64 = 10_000;
/// Most spectators at once.
pub const MAX_SPECTATORS: usize = 16;
/// Longest player name kept, in characters (longer ones are cut).
pub const MAX_NAME_CHARS: usize = 20;
/// Longest token compared; longer ones never match (a token is 32 hex digits).
pub const MAX_TOKEN_LEN: usize = 64;

/// Why a room refused a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoomError {
    /// The token holds no seat: spectators watch, they do not play.
    NotSeated,
    /// Both seats are taken and [`MAX_SPECTATORS`] watch already.
    Full,
    /// A rematch is asked before the game ended, or with a seat empty.
    NoRematch,
}

impl fmt::Display for RoomError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RoomError::NotSeated => {
                "only a seated player can play here: spectators watch (or the token is not this room's)"
            }
            RoomError::Full => "the room is full: two players and the most spectators it takes",
            RoomError::NoRematch => "a rematch needs the game over and both players seated",
        })
    }
}

impl std::error::Error for RoomError {}

/// What a connection became by joining.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Joined {
    /// A seat: its player, the token that holds it, and this connection's number (a
    /// later join with the same token takes the seat over; only the latest connection's
    /// drop counts).
    Player {
        seat: Player,
        token: String,
        connection: u64,
    },
    /// Both seats are taken: this connection watches.
    Spectator,
}

/// Where the room is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// A seat is free (the link is to be shared), or a seated player is away before
    /// the game started.
    Waiting,
    /// Both seated; the game starts at `until_ms` (room time).
    Countdown { until_ms: u64 },
    /// The game is on (it pauses while a player is away).
    Playing,
    /// The game ended.
    Finished,
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// The game's rules ended it: a top-out (`Some` outcome), or a limit of the session
    /// (longest game, most inputs) with no winner (`None`).
    Played(Option<Outcome>),
    /// This player left the room (or stayed away past [`GRACE_MS`]): the other won.
    Left(Player),
}

impl Finish {
    /// The winner or a draw; `None` for a game stopped with no winner.
    pub fn outcome(self) -> Option<Outcome> {
        match self {
            Finish::Played(outcome) => outcome,
            Finish::Left(player) => Some(Outcome::Winner(player.opponent())),
        }
    }

    /// Why, for people: "left the room" for a forfeit.
    pub fn reason(self) -> &'static str {
        match self {
            Finish::Played(Some(_)) => "topped out",
            Finish::Played(None) => "stopped",
            Finish::Left(_) => "left the room",
        }
    }
}

/// One taken seat.
#[derive(Clone, Debug)]
struct Seat {
    token: String,
    name: String,
    /// The connection that holds the seat now.
    connection: u64,
    /// Since when (room time) the seat's connection is gone, `None` while connected.
    away_since: Option<u64>,
    rematch: bool,
}

/// A seat as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    pub name: String,
    pub connected: bool,
    /// Milliseconds left of the grace while away.
    pub grace_left_ms: Option<u64>,
    pub rematch: bool,
}

/// What the room shows: the state, the seats, the game.
pub struct RoomView<'a> {
    pub phase: Phase,
    /// Milliseconds left of the countdown.
    pub countdown_ms: Option<u64>,
    /// The game waits for an away player.
    pub paused: bool,
    pub seats: [Option<SeatView>; 2],
    pub spectators: usize,
    pub finish: Option<Finish>,
    /// Games that began in this room (a rematch adds one).
    pub games: u32,
    pub session: &'a VersusSession,
}

/// A versus room (see the module's documentation).
pub struct Room {
    seats: [Option<Seat>; 2],
    spectators: usize,
    phase: Phase,
    session: VersusSession,
    handling: Settings,
    seed: u64,
    /// Room time at which game time was 0 (moved on by every pause).
    origin_ms: u64,
    /// Room time at which the game paused for an away player.
    paused_at: Option<u64>,
    finish: Option<Finish>,
    games: u32,
    connections: u64,
}

/// Whether two tokens are equal, in time that does not depend on where they differ.
fn same_token(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() || a.len() > MAX_TOKEN_LEN {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A typed name made safe to show: control characters dropped, spaces trimmed, at
/// most [`MAX_NAME_CHARS`]; empty gives `None`.
pub fn clean_name(name: &str) -> Option<String> {
    let name: String = name
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_NAME_CHARS * 4)
        .collect();
    let name: String = name.trim().chars().take(MAX_NAME_CHARS).collect();
    let name = name.trim_end().to_owned();
    (!name.is_empty()).then_some(name)
}

/// The seed of the game after one dealt from `seed` (SplitMix64: rematches get new pieces).
fn next_seed(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Room {
    /// An empty room whose first game is dealt from `seed`, both players with `handling`
    /// (the server's Tetris settings).
    pub fn new(seed: u64, handling: Settings) -> Room {
        Room {
            seats: [None, None],
            spectators: 0,
            phase: Phase::Waiting,
            session: Room::fresh(seed, handling),
            handling,
            seed,
            origin_ms: 0,
            paused_at: None,
            finish: None,
            games: 0,
            connections: 0,
        }
    }

    fn fresh(seed: u64, handling: Settings) -> VersusSession {
        VersusSession::new([Side::Person, Side::Person], handling, seed)
    }

    /// The game (of the last countdown; an untouched one before the first).
    pub fn session(&self) -> &VersusSession {
        &self.session
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn finish(&self) -> Option<Finish> {
        self.finish
    }

    /// The seed of the game being (or last) played.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// No seat taken and nobody watching.
    pub fn is_empty(&self) -> bool {
        self.seats.iter().all(Option::is_none) && self.spectators == 0
    }

    /// Seated connections and spectators.
    pub fn spectators(&self) -> usize {
        self.spectators
    }

    /// The seat that `token` holds.
    pub fn seat_of(&self, token: &str) -> Option<Player> {
        Player::BOTH.into_iter().find(|p| {
            self.seats[p.index()]
                .as_ref()
                .is_some_and(|s| same_token(&s.token, token))
        })
    }

    /// A connection joins at room time `now_ms`: the seat `token` holds (a reload: the
    /// game goes on if it waited), else a free seat held from now on by `new_token`
    /// (made by the caller from a cryptographic source), else a spectator's place.
    /// `name` names a new seat's player ("Player 1" or "Player 2" when `None` or blank).
    ///
    /// # Errors
    /// [`RoomError::Full`]: both seats taken and [`MAX_SPECTATORS`] watching.
    pub fn join(
        &mut self,
        token: Option<&str>,
        new_token: String,
        name: Option<&str>,
        now_ms: u64,
    ) -> Result<Joined, RoomError> {
        self.connections += 1;
        let connection = self.connections;
        if let Some(player) = token.and_then(|t| self.seat_of(t))
            && let Some(seat) = self.seats[player.index()].as_mut()
        {
            seat.connection = connection;
            seat.away_since = None;
            if let Some(name) = name.and_then(clean_name) {
                seat.name = name;
            }
            let token = seat.token.clone();
            self.settle(now_ms);
            return Ok(Joined::Player {
                seat: player,
                token,
                connection,
            });
        }
        let free = Player::BOTH
            .into_iter()
            .find(|p| self.seats[p.index()].is_none());
        let Some(player) = free else {
            if self.spectators >= MAX_SPECTATORS {
                return Err(RoomError::Full);
            }
            self.spectators += 1;
            return Ok(Joined::Spectator);
        };
        self.seats[player.index()] = Some(Seat {
            token: new_token.clone(),
            name: name
                .and_then(clean_name)
                .unwrap_or_else(|| format!("Player {}", player.index() + 1)),
            connection,
            away_since: None,
            rematch: false,
        });
        self.settle(now_ms);
        Ok(Joined::Player {
            seat: player,
            token: new_token,
            connection,
        })
    }

    /// A spectator's connection went away.
    pub fn spectator_left(&mut self) {
        self.spectators = self.spectators.saturating_sub(1);
    }

    /// The connection `connection` of `player`'s seat went away at `now_ms`: the seat is
    /// kept for [`GRACE_MS`] and the game waits. A connection that no longer holds the
    /// seat (another took it over) changes nothing.
    pub fn disconnect(&mut self, player: Player, connection: u64, now_ms: u64) {
        let Some(seat) = self.seats[player.index()].as_mut() else {
            return;
        };
        if seat.connection != connection || seat.away_since.is_some() {
            return;
        }
        seat.away_since = Some(now_ms);
        self.settle(now_ms);
    }

    /// The player holding `token` leaves for good at `now_ms`: during a game (or its
    /// countdown) the other player wins; the seat is free again.
    ///
    /// # Errors
    /// [`RoomError::NotSeated`]: the token holds no seat.
    pub fn leave(&mut self, token: &str, now_ms: u64) -> Result<Player, RoomError> {
        let player = self.seat_of(token).ok_or(RoomError::NotSeated)?;
        self.forfeit(player, now_ms);
        self.seats[player.index()] = None;
        for seat in self.seats.iter_mut().flatten() {
            seat.rematch = false;
        }
        self.settle(now_ms);
        Ok(player)
    }

    /// `player` loses by leaving if a game is on or about to start.
    fn forfeit(&mut self, player: Player, now_ms: u64) {
        match self.phase {
            Phase::Playing => {
                self.pause_game(now_ms);
                self.finish = Some(Finish::Left(player));
                self.phase = Phase::Finished;
            }
            Phase::Countdown { .. } => {
                self.finish = Some(Finish::Left(player));
                self.phase = Phase::Finished;
            }
            // Both seated before the game, one away: leaving just frees the seat.
            Phase::Waiting | Phase::Finished => {}
        }
    }

    /// The player holding `token` is called `name` from now on (cleaned as by
    /// [`clean_name`]; a blank name gives back "Player 1" or "Player 2").
    ///
    /// # Errors
    /// [`RoomError::NotSeated`]: the token holds no seat.
    pub fn rename(&mut self, token: &str, name: &str) -> Result<Player, RoomError> {
        let player = self.seat_of(token).ok_or(RoomError::NotSeated)?;
        if let Some(seat) = self.seats[player.index()].as_mut() {
            seat.name =
                clean_name(name).unwrap_or_else(|| format!("Player {}", player.index() + 1));
        }
        Ok(player)
    }

    /// One key edge of the player holding `token`, at room time `now_ms`. Keys while
    /// the game is not on (waiting, counting down, paused, over) are dropped.
    ///
    /// # Errors
    /// [`RoomError::NotSeated`]: the token holds no seat.
    pub fn input(
        &mut self,
        token: &str,
        action: Action,
        edge: Edge,
        now_ms: u64,
    ) -> Result<Player, RoomError> {
        let player = self.seat_of(token).ok_or(RoomError::NotSeated)?;
        self.tick(now_ms);
        if self.phase == Phase::Playing && self.paused_at.is_none() {
            let t = self.game_ms(now_ms);
            self.session.input(player, action, edge, t);
            self.check_end();
        }
        Ok(player)
    }

    /// The player holding `token` asks for another game, at `now_ms`; when both have
    /// asked, a new game (new pieces) counts down with the seats kept.
    ///
    /// # Errors
    /// [`RoomError::NotSeated`]: the token holds no seat; [`RoomError::NoRematch`]:
    /// the game is not over.
    pub fn rematch(&mut self, token: &str, now_ms: u64) -> Result<(), RoomError> {
        let player = self.seat_of(token).ok_or(RoomError::NotSeated)?;
        if self.phase != Phase::Finished {
            return Err(RoomError::NoRematch);
        }
        if let Some(seat) = self.seats[player.index()].as_mut() {
            seat.rematch = true;
        }
        self.settle(now_ms);
        Ok(())
    }

    /// Lets the room's time run to `now_ms`: the countdown ends, the game runs, an away
    /// player's grace runs out.
    pub fn tick(&mut self, now_ms: u64) {
        // A grace that ended: the player left.
        for player in Player::BOTH {
            let expired = self.seats[player.index()]
                .as_ref()
                .and_then(|s| s.away_since)
                .is_some_and(|since| now_ms >= since.saturating_add(GRACE_MS));
            if expired {
                let at = self.seats[player.index()]
                    .as_ref()
                    .and_then(|s| s.away_since)
                    .map_or(now_ms, |since| since.saturating_add(GRACE_MS));
                self.forfeit(player, at);
                self.seats[player.index()] = None;
                for seat in self.seats.iter_mut().flatten() {
                    seat.rematch = false;
                }
            }
        }
        if let Phase::Countdown { until_ms } = self.phase
            && now_ms >= until_ms
        {
            self.phase = Phase::Playing;
            self.origin_ms = until_ms;
            self.games += 1;
        }
        if self.phase == Phase::Playing && self.paused_at.is_none() {
            let t = self.game_ms(now_ms);
            self.session.update(t, &[]);
            self.check_end();
        }
        self.settle(now_ms);
    }

    /// Game time at room time `now_ms` (never before the game's own clock).
    fn game_ms(&self, now_ms: u64) -> u64 {
        now_ms
            .saturating_sub(self.origin_ms)
            .max(self.session.time_ms())
    }

    fn check_end(&mut self) {
        if self.phase == Phase::Playing && self.session.is_finished() {
            self.finish = Some(Finish::Played(self.session.outcome()));
            self.phase = Phase::Finished;
        }
    }

    fn pause_game(&mut self, now_ms: u64) {
        if self.paused_at.is_none() {
            let t = self.game_ms(now_ms);
            self.session.update(t, &[]);
            self.session.pause(t);
            self.paused_at = Some(now_ms);
        }
    }

    /// Moves between phases after any change of seats or time.
    fn settle(&mut self, now_ms: u64) {
        let seated = self.seats.iter().all(Option::is_some);
        let present = seated
            && self
                .seats
                .iter()
                .flatten()
                .all(|seat| seat.away_since.is_none());
        match self.phase {
            Phase::Waiting if present => {
                self.phase = Phase::Countdown {
                    until_ms: now_ms.saturating_add(COUNTDOWN_MS),
                };
            }
            Phase::Countdown { .. } if !present => self.phase = Phase::Waiting,
            Phase::Playing if !present => self.pause_game(now_ms),
            Phase::Playing => {
                if let Some(at) = self.paused_at.take() {
                    self.origin_ms = self.origin_ms.saturating_add(now_ms.saturating_sub(at));
                    self.session.resume();
                }
            }
            Phase::Finished if present && self.seats.iter().flatten().all(|seat| seat.rematch) => {
                self.seed = next_seed(self.seed);
                self.session = Room::fresh(self.seed, self.handling);
                self.finish = None;
                self.paused_at = None;
                for seat in self.seats.iter_mut().flatten() {
                    seat.rematch = false;
                }
                self.phase = Phase::Countdown {
                    until_ms: now_ms.saturating_add(COUNTDOWN_MS),
                };
            }
            Phase::Waiting | Phase::Countdown { .. } | Phase::Finished => {}
        }
    }

    /// What to draw at room time `now_ms`.
    pub fn view(&self, now_ms: u64) -> RoomView<'_> {
        let seats = Player::BOTH.map(|p| {
            self.seats[p.index()].as_ref().map(|s| SeatView {
                name: s.name.clone(),
                connected: s.away_since.is_none(),
                grace_left_ms: s
                    .away_since
                    .map(|since| since.saturating_add(GRACE_MS).saturating_sub(now_ms)),
                rematch: s.rematch,
            })
        });
        RoomView {
            phase: self.phase,
            countdown_ms: match self.phase {
                Phase::Countdown { until_ms } => Some(until_ms.saturating_sub(now_ms)),
                _ => None,
            },
            paused: self.phase == Phase::Playing && self.paused_at.is_some(),
            seats,
            spectators: self.spectators,
            finish: self.finish,
            games: self.games,
            session: &self.session,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn room() -> Room {
        Room::new(7, Settings::default())
    }

    /// Joins with a fresh token `new` and returns the seat and token, or `None` for a
    /// spectator.
    fn join(room: &mut Room, token: Option<&str>, new: &str, now: u64) -> Option<(Player, String)> {
        match room.join(token, new.to_owned(), None, now) {
            Ok(Joined::Player { seat, token, .. }) => Some((seat, token)),
            Ok(Joined::Spectator) => None,
            Err(e) => panic!("join refused: {e}"),
        }
    }

    fn connection(room: &mut Room, token: &str, now: u64) -> u64 {
        match room.join(Some(token), String::from("unused"), None, now) {
            Ok(Joined::Player { connection, .. }) => connection,
            other => panic!("not seated: {other:?}"),
        }
    }

    /// A room with both seated (tokens "a" and "b") and the game on at `COUNTDOWN_MS`.
    fn playing() -> Room {
        let mut room = room();
        join(&mut room, None, "a", 0);
        join(&mut room, None, "b", 0);
        room.tick(COUNTDOWN_MS);
        assert_eq!(room.phase(), Phase::Playing);
        room
    }

    fn drop_pieces(room: &mut Room, token: &str, now: u64) {
        room.input(token, Action::HardDrop, Edge::Press, now)
            .unwrap_or_else(|e| panic!("{e}"));
        room.input(token, Action::HardDrop, Edge::Release, now)
            .unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn two_joins_take_the_seats_then_a_countdown_starts_the_game() {
        let mut room = room();
        assert!(room.is_empty());
        assert_eq!(
            join(&mut room, None, "a", 0),
            Some((Player::One, "a".into()))
        );
        assert_eq!(room.phase(), Phase::Waiting);
        assert_eq!(
            room.view(0).seats[0].as_ref().map(|s| s.name.as_str()),
            Some("Player 1")
        );
        assert_eq!(
            join(&mut room, None, "b", 1_000),
            Some((Player::Two, "b".into()))
        );
        assert_eq!(
            room.phase(),
            Phase::Countdown {
                until_ms: 1_000 + COUNTDOWN_MS
            }
        );
        assert_eq!(room.view(2_000).countdown_ms, Some(2_000));
        // Keys during the countdown are dropped.
        drop_pieces(&mut room, "a", 2_000);
        assert_eq!(room.session().game(Player::One).pieces(), 0);
        room.tick(1_000 + COUNTDOWN_MS);
        assert_eq!(room.phase(), Phase::Playing);
        assert_eq!(room.view(4_000).games, 1);
        room.tick(5_000);
        assert_eq!(
            room.session().time_ms(),
            1_000,
            "game time starts at the countdown's end"
        );
    }

    #[test]
    fn a_third_join_watches_and_cannot_play_and_the_room_fills_up() {
        let mut room = playing();
        assert_eq!(join(&mut room, None, "c", 3_100), None);
        assert_eq!(join(&mut room, Some("forged"), "d", 3_100), None);
        assert_eq!(room.spectators(), 2);
        assert_eq!(
            room.input("forged", Action::HardDrop, Edge::Press, 3_200),
            Err(RoomError::NotSeated)
        );
        assert_eq!(
            room.input("", Action::Left, Edge::Press, 3_200),
            Err(RoomError::NotSeated)
        );
        assert_eq!(room.rematch("c", 3_200), Err(RoomError::NotSeated));
        for _ in 2..MAX_SPECTATORS {
            join(&mut room, None, "x", 3_300);
        }
        assert_eq!(
            room.join(None, "y".into(), None, 3_300),
            Err(RoomError::Full)
        );
        room.spectator_left();
        assert_eq!(join(&mut room, None, "y", 3_300), None);
        assert_eq!(room.view(3_300).spectators, MAX_SPECTATORS);
    }

    #[test]
    fn each_players_keys_reach_only_their_own_matrix() {
        let mut room = playing();
        drop_pieces(&mut room, "a", 3_500);
        assert_eq!(room.session().game(Player::One).pieces(), 1);
        assert_eq!(room.session().game(Player::Two).pieces(), 0);
        drop_pieces(&mut room, "b", 3_600);
        drop_pieces(&mut room, "b", 3_700);
        assert_eq!(room.session().game(Player::Two).pieces(), 2);
        // Stamped with the room's clock: game time is room time less the countdown.
        let replay = room.session().replay();
        let last = replay.inputs.last().map(|i| (i.player, i.input.time_ms));
        assert_eq!(last, Some((Player::Two, 700)));
    }

    #[test]
    fn a_reload_with_the_token_keeps_the_seat_and_the_game_waits_meanwhile() {
        let mut room = playing();
        let old = connection(&mut room, "b", 3_000);
        room.input("b", Action::Left, Edge::Press, 3_500)
            .unwrap_or_else(|e| panic!("{e}"));
        room.disconnect(Player::Two, old, 4_000);
        let view = room.view(6_000);
        assert!(view.paused);
        assert_eq!(
            view.seats[1].as_ref().and_then(|s| s.grace_left_ms),
            Some(GRACE_MS - 2_000)
        );
        assert!(!view.seats[1].as_ref().is_some_and(|s| s.connected));
        room.tick(9_000);
        assert_eq!(room.session().time_ms(), 1_000, "paused at the drop");
        // Keys while paused are dropped; the held key was let go at the pause.
        drop_pieces(&mut room, "a", 9_000);
        assert_eq!(room.session().game(Player::One).pieces(), 0);
        let releases = room
            .session()
            .replay()
            .inputs
            .iter()
            .filter(|i| i.input.edge == Edge::Release)
            .count();
        assert_eq!(releases, 1);
        // The reload: same token, same seat, and the game goes on from where it was.
        assert_eq!(
            join(&mut room, Some("b"), "new", 10_000),
            Some((Player::Two, "b".into()))
        );
        assert!(!room.view(10_000).paused);
        room.tick(11_000);
        assert_eq!(room.session().time_ms(), 2_000);
        assert_eq!(room.phase(), Phase::Playing);
    }

    #[test]
    fn only_the_latest_connection_of_a_seat_counts() {
        let mut room = playing();
        let first = connection(&mut room, "a", 3_000);
        let second = connection(&mut room, "a", 3_000);
        // The first tab closes after the second took the seat over: nothing changes.
        room.disconnect(Player::One, first, 3_500);
        assert!(!room.view(3_500).paused);
        room.disconnect(Player::One, second, 3_600);
        assert!(room.view(3_600).paused);
    }

    #[test]
    fn a_grace_that_runs_out_loses_the_game() {
        let mut room = playing();
        let conn = connection(&mut room, "a", 3_000);
        room.disconnect(Player::One, conn, 5_000);
        room.tick(5_000 + GRACE_MS - 1);
        assert_eq!(room.phase(), Phase::Playing);
        room.tick(5_000 + GRACE_MS);
        assert_eq!(room.phase(), Phase::Finished);
        let finish = room.finish();
        assert_eq!(finish, Some(Finish::Left(Player::One)));
        assert_eq!(
            finish.and_then(Finish::outcome),
            Some(Outcome::Winner(Player::Two))
        );
        assert_eq!(finish.map(Finish::reason), Some("left the room"));
        // The seat is free: the old token plays no more, a newcomer may sit.
        assert_eq!(room.seat_of("a"), None);
        assert_eq!(
            join(&mut room, None, "c", 20_000),
            Some((Player::One, "c".into()))
        );
    }

    #[test]
    fn leaving_during_the_game_or_its_countdown_hands_the_win_over() {
        let mut room = playing();
        drop_pieces(&mut room, "a", 4_000);
        assert_eq!(room.leave("a", 4_500), Ok(Player::One));
        assert_eq!(room.finish(), Some(Finish::Left(Player::One)));
        assert_eq!(room.leave("a", 4_500), Err(RoomError::NotSeated));
        // The game stays as it ended; player two is still seated.
        assert_eq!(room.session().game(Player::One).pieces(), 1);
        assert_eq!(room.seat_of("b"), Some(Player::Two));

        let mut counting = room_with_two();
        assert_eq!(counting.leave("b", 1_000), Ok(Player::Two));
        assert_eq!(
            counting.finish().and_then(Finish::outcome),
            Some(Outcome::Winner(Player::One))
        );
    }

    fn room_with_two() -> Room {
        let mut room = room();
        join(&mut room, None, "a", 0);
        join(&mut room, None, "b", 0);
        room
    }

    #[test]
    fn a_waiting_player_who_leaves_frees_the_room() {
        let mut room = room();
        join(&mut room, None, "a", 0);
        let conn = connection(&mut room, "a", 0);
        room.disconnect(Player::One, conn, 100);
        room.tick(100 + GRACE_MS);
        assert!(room.is_empty());
        assert_eq!(room.finish(), None);
        assert_eq!(room.phase(), Phase::Waiting);
    }

    #[test]
    fn an_away_player_during_the_countdown_holds_it() {
        let mut room = room_with_two();
        let conn = connection(&mut room, "b", 500);
        room.disconnect(Player::Two, conn, 1_000);
        assert_eq!(room.phase(), Phase::Waiting);
        room.tick(5_000);
        assert_eq!(room.phase(), Phase::Waiting);
        join(&mut room, Some("b"), "z", 6_000);
        assert_eq!(
            room.phase(),
            Phase::Countdown {
                until_ms: 6_000 + COUNTDOWN_MS
            }
        );
    }

    #[test]
    fn a_top_out_ends_the_game_and_both_must_ask_for_the_rematch() {
        let mut room = playing();
        assert_eq!(room.rematch("a", 3_000), Err(RoomError::NoRematch));
        let mut now = 3_000;
        while room.phase() == Phase::Playing {
            now += 20;
            drop_pieces(&mut room, "a", now);
            assert!(now < 60_000, "no top-out");
        }
        assert_eq!(
            room.finish(),
            Some(Finish::Played(Some(Outcome::Winner(Player::Two))))
        );
        let first_seed = room.seed();
        let ended_at = room.session().time_ms();
        assert_eq!(room.rematch("a", now), Ok(()));
        assert!(room.view(now).seats[0].as_ref().is_some_and(|s| s.rematch));
        assert_eq!(room.phase(), Phase::Finished);
        assert_eq!(room.rematch("b", now + 10), Ok(()));
        assert_eq!(
            room.phase(),
            Phase::Countdown {
                until_ms: now + 10 + COUNTDOWN_MS
            }
        );
        assert_ne!(room.seed(), first_seed, "a rematch deals new pieces");
        assert_eq!(room.finish(), None);
        assert_eq!(room.session().time_ms(), 0);
        assert!(ended_at > 0);
        room.tick(now + 10 + COUNTDOWN_MS);
        assert_eq!(room.view(now).games, 2);
        assert_eq!(room.seat_of("a"), Some(Player::One));
        assert_eq!(room.seat_of("b"), Some(Player::Two));
    }

    #[test]
    fn tokens_match_only_whole_and_names_are_bounded() {
        assert!(same_token("abc", "abc"));
        assert!(!same_token("abc", "abd"));
        assert!(!same_token("abc", "ab"));
        assert!(!same_token("", "a"));
        let long = "x".repeat(MAX_TOKEN_LEN + 1);
        assert!(!same_token(&long, &long));
        let mut room = room();
        join(&mut room, None, "abcdef", 0);
        assert_eq!(room.seat_of("abcde"), None);
        assert_eq!(room.seat_of("abcdefg"), None);
        assert_eq!(room.seat_of("ABCDEF"), None);

        assert_eq!(clean_name("  Ana \n"), Some("Ana".into()));
        assert_eq!(clean_name(" \t "), None);
        assert_eq!(
            clean_name(&"é".repeat(100)).map(|n| n.chars().count()),
            Some(MAX_NAME_CHARS)
        );
        assert_eq!(clean_name("a\u{7}b"), Some("ab".into()));
        assert_eq!(room.rename("abcdef", " Cy\t"), Ok(Player::One));
        assert_eq!(
            room.view(0).seats[0].as_ref().map(|s| s.name.as_str()),
            Some("Cy")
        );
        assert_eq!(room.rename("abcdef", "  "), Ok(Player::One));
        assert_eq!(
            room.view(0).seats[0].as_ref().map(|s| s.name.as_str()),
            Some("Player 1")
        );
        assert_eq!(room.rename("other", "Eve"), Err(RoomError::NotSeated));
        let mut named = Room::new(1, Settings::default());
        let joined = named.join(None, "t".into(), Some("  Bo  "), 0);
        assert!(matches!(
            joined,
            Ok(Joined::Player {
                seat: Player::One,
                ..
            })
        ));
        assert_eq!(
            named.view(0).seats[0].as_ref().map(|s| s.name.as_str()),
            Some("Bo")
        );
    }
}
