//! Games between engines driven as the front ends drive them: the session's
//! orders carried out by `EngineSeats`, its events passed back. Ludus's own
//! binary plays as a configured engine; a command that does not exist loses.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use ludus::engine_seats::EngineSeats;
use ludus::engine_worker::Event;
use ludus::session::xiangqi::{Seat, XiangqiSession};
use xiangqi::Game;

/// Plays until `plies` moves are on the board or the game is over (at most
/// `within`), as a front end's loop would; returns what failures said.
fn play(session: &mut XiangqiSession, plies: usize, within: Duration) -> Vec<String> {
    let (tx, rx) = mpsc::channel();
    let mut seats = EngineSeats::new(move |e| {
        let _ = tx.send(e);
    });
    let deadline = Instant::now() + within;
    let mut told = Vec::new();
    while session.game().plies().len() < plies && session.over().is_none() {
        assert!(Instant::now() < deadline, "the engines took too long");
        for order in session.take_orders() {
            seats.carry_out(order);
        }
        // The pace is not waited for: time is passed in.
        let later = Instant::now() + Duration::from_secs(3600);
        session.play_held(later);
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(Event::Info { id, info }) => session.search_info(id, info),
            Ok(Event::Done { id, result, .. }) => {
                session.search_done(id, result, later);
            }
            Ok(Event::Failed { id, message }) => told.extend(session.search_failed(id, &message)),
            Ok(_) | Err(_) => {}
        }
    }
    seats.stop();
    told
}

#[test]
fn ludus_plays_a_configured_engine_through_their_seats() {
    let command = format!("'{}' xiangqi uci", env!("CARGO_BIN_EXE_ludus"));
    let seats = [Seat::Ludus { level: 4 }, Seat::External { command }];
    let mut session = XiangqiSession::watch(Game::new(), seats, None, false);
    assert_eq!(session.names()[1], "ludus xiangqi uci");
    let told = play(&mut session, 6, Duration::from_secs(120));
    assert!(told.is_empty(), "{told:?}");
    assert_eq!(session.game().plies().len(), 6);
    let record = session.record_text();
    assert!(record.contains("[Black \"ludus xiangqi uci\"]"), "{record}");
}

#[test]
fn a_configured_engine_that_cannot_start_loses() {
    let seats = [
        Seat::External {
            command: "/nonexistent/engine --uci".to_string(),
        },
        Seat::Ludus { level: 0 },
    ];
    let mut session = XiangqiSession::watch(Game::new(), seats, None, false);
    let told = play(&mut session, 1, Duration::from_secs(60));
    let over = session.over().map(|o| (o.text.clone(), o.result));
    let (text, result) = over.expect("the game is over");
    assert_eq!(result, "0-1");
    assert!(
        text.starts_with("engine failed (engine could not be started"),
        "{text}"
    );
    assert_eq!(told, [text]);
}
