//! Replays: record, save, load and play back to the identical final state.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use tetris::replay::REPLAY_VERSION;
use tetris::{Action, Edge, InputEvent, Mode, Playback, Recorder, Replay, ReplayError, Settings};

fn arb_mode() -> impl Strategy<Value = Mode> {
    prop_oneof![
        any::<bool>().prop_map(|endless| Mode::Marathon { endless }),
        Just(Mode::Sprint),
        Just(Mode::Ultra),
        Just(Mode::Zen),
    ]
}

fn arb_input() -> impl Strategy<Value = (u64, usize, bool)> {
    (0u64..400, 0usize..Action::ALL.len(), any::<bool>())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn replaying_random_games_gives_the_identical_final_state(
        seed in any::<u64>(),
        mode in arb_mode(),
        das in 0u32..300,
        arr in 0u32..60,
        steps in proptest::collection::vec(arb_input(), 0..300),
    ) {
        let settings = Settings { das_ms: das, arr_ms: arr, ..Settings::default() };
        let mut recorder = Recorder::new(mode, settings, seed);
        let mut time = 0;
        for (gap, action, press) in steps {
            time += gap;
            let edge = if press { Edge::Press } else { Edge::Release };
            recorder.handle(InputEvent { time_ms: time, action: Action::ALL[action], edge });
        }
        recorder.advance_to(time + 1000);
        let json = recorder.replay().to_json();
        let loaded = Replay::from_json(&json).unwrap();
        let replayed = loaded.play().unwrap();
        prop_assert_eq!(&replayed, recorder.game());
    }
}

#[test]
fn other_versions_and_damaged_files_are_refused() {
    let mut recorder = Recorder::new(Mode::Sprint, Settings::default(), 3);
    recorder.update(500, &InputEvent::tap(100, Action::HardDrop));
    let json = recorder.replay().to_json();

    let newer = json.replacen(
        &format!("\"version\": {REPLAY_VERSION}"),
        "\"version\": 2",
        1,
    );
    assert_eq!(
        Replay::from_json(&newer),
        Err(ReplayError::UnsupportedVersion { found: 2 })
    );
    let truncated = &json[..json.len() / 2];
    let err = Replay::from_json(truncated).unwrap_err();
    assert!(matches!(err, ReplayError::Damaged(_)));
    assert!(
        err.to_string().starts_with("the replay file is damaged: "),
        "{err}"
    );
    assert_eq!(
        Replay::from_json("[1, 2]"),
        Err(ReplayError::MissingVersion)
    );
    let wrong_type = json.replacen("\"seed\": 3", "\"seed\": \"three\"", 1);
    assert!(matches!(
        Replay::from_json(&wrong_type),
        Err(ReplayError::Damaged(_))
    ));

    // Edited inputs no longer reproduce the recorded result.
    let mut replay = Replay::from_json(&json).unwrap();
    replay.inputs.clear();
    assert_eq!(replay.play().unwrap_err(), ReplayError::Diverged);
}

#[test]
fn playback_follows_the_clock() {
    let mut recorder = Recorder::new(Mode::Marathon { endless: false }, Settings::default(), 8);
    for i in 0..10 {
        recorder.handle(InputEvent::press(i * 1000 + 500, Action::HardDrop));
        recorder.handle(InputEvent::release(i * 1000 + 550, Action::HardDrop));
    }
    recorder.advance_to(12_000);
    let replay = recorder.replay();
    let mut playback = Playback::new(replay);
    playback.advance_to(4_600);
    assert_eq!(playback.game().pieces(), 5);
    assert!(!playback.is_finished());
    playback.advance_to(20_000);
    assert!(playback.is_finished());
    assert_eq!(playback.game(), recorder.game());
    // Seeking back plays again from the start to the same game as then.
    playback.advance_to(2_600);
    assert_eq!(playback.game().pieces(), 3);
    let mut fresh = Playback::new(recorder.replay());
    fresh.advance_to(2_600);
    assert_eq!(playback.game(), fresh.game());
}

#[test]
fn a_game_that_ends_between_milliseconds_replays() {
    // Soft drop at 7× gravity steps every 142 857 µs, so locks (and the top out) fall between
    // milliseconds.
    let settings = Settings {
        soft_drop: tetris::SoftDrop::Factor(7),
        ..Settings::default()
    };
    let mut recorder = Recorder::new(Mode::Marathon { endless: true }, settings, 21);
    recorder.handle(InputEvent::press(0, Action::SoftDrop));
    let mut t = 0;
    while recorder.game().is_playing() && t < 2_000_000 {
        t += 10_000;
        recorder.advance_to(t);
    }
    assert!(recorder.game().topped_out());
    assert_ne!(recorder.game().time_ms(), recorder.game().time_ms_ceil());
    let replay = Replay::from_json(&recorder.replay().to_json()).unwrap();
    assert_eq!(&replay.play().unwrap(), recorder.game());
}

#[test]
fn times_past_the_limit_are_refused_before_playing() {
    let mut recorder = Recorder::new(Mode::Zen, Settings::default(), 4);
    recorder.handle(InputEvent::press(0, Action::Left));
    recorder.advance_to(1_000);
    let mut late_input = recorder.replay();
    late_input
        .inputs
        .push(InputEvent::release(u64::MAX, Action::Left));
    late_input.end_ms = u64::MAX;
    let err = Replay::from_json(&late_input.to_json()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "input 1 is at 18446744073709551615 ms, past the limit of 86400000 ms (24 hours of game time)"
    );
    assert_eq!(late_input.play().unwrap_err(), err);
    let mut late_end = recorder.replay();
    late_end.end_ms = tetris::MAX_GAME_TIME_MS + 1;
    assert_eq!(
        Replay::from_json(&late_end.to_json()).unwrap_err(),
        ReplayError::TimeTooLate {
            input: None,
            time_ms: tetris::MAX_GAME_TIME_MS + 1
        }
    );
}

#[test]
fn a_key_held_all_the_longest_replay_plays_at_once() {
    // Left held through a whole day of Zen: a repeat every millisecond into the wall.
    let settings = Settings {
        arr_ms: 1,
        ..Settings::default()
    };
    let mut recorder = Recorder::new(Mode::Zen, settings, 9);
    recorder.handle(InputEvent::press(0, Action::Left));
    recorder.advance_to(tetris::MAX_GAME_TIME_MS);
    let replay = Replay::from_json(&recorder.replay().to_json()).unwrap();
    assert_eq!(replay.end_ms, tetris::MAX_GAME_TIME_MS);
    assert_eq!(&replay.play().unwrap(), recorder.game());
}

#[test]
fn a_recorder_takes_no_input_past_its_limit() {
    use tetris::MAX_RECORDED_INPUTS;
    let mut recorder = Recorder::new(Mode::Zen, Settings::default(), 1);
    for i in 0..MAX_RECORDED_INPUTS + 10 {
        let action = if i % 2 == 0 {
            Action::Left
        } else {
            Action::Right
        };
        recorder.handle(InputEvent::press(0, action));
    }
    let replay = recorder.replay();
    assert_eq!(replay.inputs.len(), MAX_RECORDED_INPUTS);
    // A replay holding more is refused when read.
    let mut longer = replay.clone();
    longer.inputs.push(InputEvent::press(0, Action::Left));
    assert_eq!(
        Replay::from_json(&longer.to_json()),
        Err(ReplayError::TooManyInputs {
            count: MAX_RECORDED_INPUTS + 1
        })
    );
}

#[test]
fn replays_keep_finesse_and_older_ones_still_play() {
    let mut recorder = Recorder::new(Mode::Sprint, Settings::default(), 8);
    for t in [10, 20, 30] {
        recorder.update(t, &InputEvent::tap(t, Action::Right));
        recorder.update(t, &InputEvent::tap(t, Action::HardDrop));
    }
    let replay = recorder.replay();
    let finesse = replay.result.finesse.expect("saved with the replay");
    assert_eq!(finesse.keys, 6);
    assert_eq!(finesse.judged, 3);
    assert!(replay.play().is_ok());

    // A replay written before finesse was counted: no finesse, still checked and played.
    let mut json: serde_json::Value = serde_json::from_str(&replay.to_json()).unwrap();
    let result = json["result"].as_object_mut().unwrap();
    result.remove("finesse");
    result.remove("splits");
    let old = Replay::from_json(&json.to_string()).expect("an old replay loads");
    assert_eq!(old.result.finesse, None);
    assert!(old.play().is_ok());

    // Edited figures are still caught.
    let mut edited = replay.clone();
    if let Some(f) = edited.result.finesse.as_mut() {
        f.faults += 1;
    }
    assert_eq!(edited.play().unwrap_err(), ReplayError::Diverged);
}
