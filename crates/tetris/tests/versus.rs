//! Versus: garbage between two games, the winner, and replays that play back exactly.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use tetris::bot::{Bot, Weights};
use tetris::garbage::{GarbageRules, Meter};
use tetris::versus::{Outcome, Player, Versus, VersusRecorder, VersusReplay, VersusSettings};
use tetris::{
    Action, Edge, Game, GameOver, InputEvent, Matrix, Mode, PieceKind, ReplayError, Settings,
    SoftDrop, Status,
};

/// Lines are conserved: each player's attack is cancelled or sent, everything sent
/// reaches the opponent, and what a player received was cancelled, rose, or still waits.
fn assert_conserved(versus: &Versus) {
    for player in Player::BOTH {
        let mine = versus.stats(player).garbage;
        let theirs = versus.stats(player.opponent()).garbage;
        assert_eq!(mine.attack, mine.cancelled + mine.sent, "{player:?}");
        assert_eq!(mine.sent, theirs.received, "{player:?} sent");
        let queued: u32 = versus
            .game(player)
            .garbage()
            .unwrap()
            .queue()
            .map(|b| b.lines)
            .sum();
        assert_eq!(
            mine.received,
            mine.cancelled + mine.risen + queued,
            "{player:?}"
        );
        assert_eq!(versus.meter(player).total(), queued);
    }
}

fn instant_settings(garbage: GarbageRules) -> VersusSettings {
    let handling = Settings {
        soft_drop: SoftDrop::Instant,
        ..Settings::default()
    };
    VersusSettings {
        handling: [handling; 2],
        garbage,
    }
}

/// Two bots take turns, one piece every `gap_ms` each, until someone loses or both have
/// played `pieces` pieces. Player one's bot plays for attack, player two's to survive, so
/// their boards differ (the same bot on the same pieces would mirror the other).
fn bot_game(seed: u64, garbage: GarbageRules, pieces: u64, gap_ms: u64) -> VersusRecorder {
    let mut recorder = VersusRecorder::new(instant_settings(garbage), seed);
    let mut bots = [Bot::with_weights(Weights::attack()), Bot::new()];
    let mut time_ms = 0;
    for _ in 0..pieces {
        for player in Player::BOTH {
            time_ms += gap_ms;
            recorder.advance_to(time_ms);
            if !recorder.versus().is_playing() {
                return recorder;
            }
            let Some(plan) = bots[player.index()].suggest(recorder.versus().game(player)) else {
                continue;
            };
            for input in plan.input_events(time_ms) {
                recorder.handle(player, input);
            }
        }
    }
    recorder
}

#[test]
fn bots_exchange_garbage_and_the_game_replays_exactly() {
    let rules = GarbageRules {
        delay_ms: 300,
        messiness_percent: 30,
    };
    let recorder = bot_game(11, rules, 150, 100);
    let versus = recorder.versus();
    let one = versus.stats(Player::One);
    let two = versus.stats(Player::Two);
    assert!(
        one.garbage.attack + two.garbage.attack > 0,
        "{one:?} {two:?}"
    );
    assert!(one.garbage.risen + two.garbage.risen > 0, "{one:?} {two:?}");
    assert!(one.pieces > 100 && two.pieces > 100);
    assert_eq!(
        one.attack_per_piece,
        f64::from(one.garbage.attack) / one.pieces as f64
    );
    assert_conserved(versus);
    let json = recorder.replay().to_json();
    let replay = VersusReplay::from_json(&json).unwrap();
    assert_eq!(&replay.play().unwrap(), versus);
}

#[test]
fn a_serialised_versus_carries_on_identically() {
    let recorder = bot_game(5, GarbageRules::default(), 40, 100);
    let versus = recorder.versus().clone();
    let mut copy: Versus = serde_json::from_str(&serde_json::to_string(&versus).unwrap()).unwrap();
    let mut original = versus;
    for (player, time_ms) in [
        (Player::One, 9_000),
        (Player::Two, 9_050),
        (Player::One, 9_100),
    ] {
        for input in InputEvent::tap(time_ms, Action::HardDrop) {
            original.handle(player, input);
            copy.handle(player, input);
        }
    }
    original.advance_to(20_000);
    copy.advance_to(20_000);
    assert_eq!(original, copy);
}

#[test]
fn the_player_who_stacks_out_first_loses() {
    let mut versus = Versus::new(VersusSettings::default(), 3);
    let mut time_ms = 0;
    while versus.is_playing() {
        time_ms += 50;
        for input in InputEvent::tap(time_ms, Action::HardDrop) {
            versus.handle(Player::One, input);
        }
        assert!(time_ms < 60_000, "player one never topped out");
    }
    assert_eq!(versus.outcome(), Some(Outcome::Winner(Player::Two)));
    assert!(versus.game(Player::One).topped_out());
    assert!(versus.game(Player::Two).is_playing());
    // The game ends when the top-out's millisecond is over, and stays ended.
    let end_ms = versus.game(Player::One).time_ms() + 1;
    assert_eq!(versus.time_ms(), end_ms);
    versus.advance_to(time_ms + 10_000);
    assert_eq!(versus.time_ms(), end_ms);
    assert_eq!(versus.next_event_ms(), None);
}

#[test]
fn topping_out_in_the_same_millisecond_is_a_draw() {
    // The same pieces and the same inputs: the boards stay identical and both top out at
    // the same millisecond, one input after the other.
    let mut versus = Versus::new(VersusSettings::default(), 8);
    let mut time_ms = 0;
    while versus.is_playing() {
        time_ms += 40;
        for player in Player::BOTH {
            for input in InputEvent::tap(time_ms, Action::HardDrop) {
                versus.handle(player, input);
            }
        }
        versus.advance_to(time_ms);
        assert!(time_ms < 60_000, "nobody topped out");
    }
    assert_eq!(versus.outcome(), Some(Outcome::Draw));
}

#[test]
fn a_tetris_sends_four_and_garbage_rises_after_the_delay() {
    let rules = GarbageRules {
        delay_ms: 500,
        messiness_percent: 0,
    };
    // A block left above the well, so the Tetris is not a perfect clear.
    let well = [
        "X.........",
        "XXXXXXXXX.",
        "XXXXXXXXX.",
        "XXXXXXXXX.",
        "XXXXXXXXX.",
    ];
    let mut sender = Game::with_setup(
        Mode::Marathon { endless: true },
        Settings::default(),
        1,
        Matrix::from_text_rows(&well).unwrap(),
        &[PieceKind::I],
    )
    .with_garbage(rules, 2);
    let mut receiver =
        Game::new(Mode::Marathon { endless: true }, Settings::default(), 1).with_garbage(rules, 2);
    // Vertical I into the well on the right.
    for event in [
        InputEvent::tap(100, Action::RotateCw),
        InputEvent::tap(100, Action::Right),
        InputEvent::tap(100, Action::Right),
        InputEvent::tap(100, Action::Right),
        InputEvent::tap(100, Action::Right),
        InputEvent::tap(100, Action::HardDrop),
    ]
    .into_iter()
    .flatten()
    {
        sender.handle(event);
    }
    assert_eq!(sender.lines(), 4);
    let sent = sender.take_sent_garbage();
    assert_eq!(sent, vec![(100, 4)]);
    for (sent_ms, lines) in sent {
        receiver.receive_garbage(lines, sent_ms);
    }
    receiver.advance_to(200);
    assert_eq!(
        receiver.garbage_meter(),
        Some(Meter {
            ready: 0,
            pending: 4
        })
    );
    // A lock before the delay is over takes nothing.
    receiver.handle(InputEvent::press(300, Action::HardDrop));
    assert_eq!(receiver.garbage().unwrap().totals().risen, 0);
    receiver.advance_to(600);
    assert_eq!(
        receiver.garbage_meter(),
        Some(Meter {
            ready: 4,
            pending: 0
        })
    );
    receiver.handle(InputEvent::press(700, Action::HardDrop));
    assert_eq!(receiver.garbage().unwrap().totals().risen, 4);
    assert_eq!(sender.matrix().text_rows(1), vec!["X........."]);
    let rows = receiver.matrix().text_rows(4);
    assert!(
        rows.iter().all(|row| row.matches('X').count() == 9),
        "{rows:?}"
    );
    // One clean batch: the same hole in every row.
    assert!(rows.iter().all(|row| row.find('.') == rows[0].find('.')));
    assert_eq!(receiver.garbage_meter(), Some(Meter::default()));
}

#[test]
fn garbage_over_the_top_is_a_top_out() {
    let rules = GarbageRules {
        delay_ms: 0,
        messiness_percent: 100,
    };
    let mut game =
        Game::new(Mode::Marathon { endless: true }, Settings::default(), 4).with_garbage(rules, 4);
    game.receive_garbage(40, 0);
    game.handle(InputEvent::press(10, Action::HardDrop));
    assert_eq!(game.status(), Status::Over(GameOver::TopOut));
    assert!(game.topped_out());
}

#[test]
fn damaged_and_edited_replays_are_refused() {
    assert!(matches!(
        VersusReplay::from_json("[1, 2"),
        Err(ReplayError::Damaged(_))
    ));
    assert_eq!(
        VersusReplay::from_json("{}"),
        Err(ReplayError::MissingVersion)
    );
    let recorder = bot_game(2, GarbageRules::default(), 20, 100);
    let mut replay = recorder.replay();
    replay.end_ms = u64::MAX;
    assert!(matches!(
        VersusReplay::from_json(&replay.to_json()),
        Err(ReplayError::TimeTooLate { input: None, .. })
    ));
    let mut replay = recorder.replay();
    replay.inputs.retain(|i| i.player == Player::One);
    assert_eq!(replay.play(), Err(ReplayError::Diverged));
}

fn arb_script() -> impl Strategy<Value = Vec<(u64, bool, usize, bool)>> {
    // (gap, player two?, action, press?)
    proptest::collection::vec(
        (
            0u64..300,
            any::<bool>(),
            0usize..Action::ALL.len(),
            any::<bool>(),
        ),
        0..400,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn random_scripts_replay_deterministically_and_conserve_lines(
        seed in any::<u64>(),
        delay_ms in 0u32..1_000,
        messiness_percent in 0u8..=100,
        script in arb_script(),
        tail_ms in 0u64..5_000,
    ) {
        let rules = GarbageRules { delay_ms, messiness_percent };
        let mut recorder = VersusRecorder::new(instant_settings(rules), seed);
        let mut time_ms = 0;
        for (gap, two, action, press) in script {
            time_ms += gap;
            let player = if two { Player::Two } else { Player::One };
            let edge = if press { Edge::Press } else { Edge::Release };
            recorder.handle(player, InputEvent { time_ms, action: Action::ALL[action], edge });
            assert_conserved(recorder.versus());
        }
        recorder.advance_to(time_ms + tail_ms);
        assert_conserved(recorder.versus());
        let replay = VersusReplay::from_json(&recorder.replay().to_json()).unwrap();
        let played = replay.play().unwrap();
        prop_assert_eq!(&played, recorder.versus());
        // Twice gives the same again.
        prop_assert_eq!(replay.play().unwrap(), played);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    #[test]
    fn bot_games_conserve_lines_and_replay_exactly(
        seed in any::<u64>(),
        delay_ms in 0u32..1_000,
        messiness_percent in 0u8..=100,
        gap_ms in 1u64..300,
    ) {
        let rules = GarbageRules { delay_ms, messiness_percent };
        let recorder = bot_game(seed, rules, 60, gap_ms);
        assert_conserved(recorder.versus());
        let replay = VersusReplay::from_json(&recorder.replay().to_json()).unwrap();
        prop_assert_eq!(&replay.play().unwrap(), recorder.versus());
    }
}
