//! PGN as other programs write it: the ICCS forms (`h2e2`, `H2-E2`), WXF
//! (`C2.5`, `C2=5`, `+C.4`) and Chinese, in the layouts of xiangqi.js,
//! vschess and PlayOK (see `data/pgn/README.md` for where each file comes
//! from). Each file is read to the last move and compared with the moves the
//! game is known to have.
#![allow(clippy::unwrap_used)]

use xiangqi::pgn::{MoveFormat, PgnErrorKind, PgnGame, parse_all};
use xiangqi::{Color, Position};

/// The game of the 1982 national championship (柳大华 – 杨官璘) as ICCS.
const GAME_1982: &str = "b2e2 b9c7 b0c2 a9b9 a0b0 h9g7 g3g4 c6c5 b0b6 b7a7 b6c6 a7a8 \
    h0g2 f9e8 h2i2 a8c8 c6d6 c7b5 i0h0 i9h9 c2e1 c5c4 d6d5 c8c3";

fn iccs(game: &PgnGame) -> Vec<String> {
    game.moves.iter().map(|m| m.mv.to_string()).collect()
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

/// The position after all the moves of a game.
fn last_position(game: &PgnGame) -> Position {
    let mut pos = game.start.clone();
    for m in &game.moves {
        pos.make_move(m.mv);
    }
    pos
}

/// Every export of the game reads back as the same moves.
fn round_trips(game: &PgnGame) {
    for format in [MoveFormat::Iccs, MoveFormat::Wxf, MoveFormat::Chinese] {
        let back = PgnGame::parse(&game.to_pgn(format)).unwrap();
        assert_eq!(back.moves, game.moves, "{format:?}");
        assert_eq!(back.start, game.start, "{format:?}");
    }
}

#[test]
fn the_1982_game_in_lower_case_iccs_ends_where_xiangqi_js_says() {
    let game = PgnGame::parse(include_str!("data/pgn/xiangqijs-1982-iccs.pgn")).unwrap();
    assert_eq!(game.tag("Red"), Some("柳大华"));
    assert_eq!(game.tag("Black"), Some("杨官璘"));
    assert_eq!(game.result, "1/2-1/2");
    // 63 moves for Red, 62 for Black.
    assert_eq!(game.moves.len(), 125);
    assert_eq!(iccs(&game)[..24], words(GAME_1982)[..]);
    // The position xiangqi.js's README gives after the last move.
    let end = last_position(&game);
    let fen = end.to_fen();
    assert_eq!(
        fen.split_whitespace().next(),
        Some("3akc3/9/4ba3/r7p/P1bC5/9/8P/3AB1N2/4K1nR1/2B6"),
        "{fen}"
    );
    assert_eq!(end.turn(), Color::Black);
    round_trips(&game);
}

#[test]
fn vschess_wxf_with_a_comment_between_reds_move_and_blacks() {
    let game = PgnGame::parse(include_str!("data/pgn/vschess-wxf.pgn")).unwrap();
    assert_eq!(game.tag("Format"), Some("WXF"));
    assert_eq!(iccs(&game), words(GAME_1982));
    assert!(
        game.intro
            .as_deref()
            .unwrap()
            .starts_with("The first twelve moves")
    );
    // The comment after Red's fourth move stays with it; `....` holds
    // Black's place on the line that follows.
    assert!(
        game.moves[6]
            .comment
            .as_deref()
            .unwrap()
            .starts_with("A comment after Red")
    );
    assert_eq!(game.moves[7].comment, None);
    assert_eq!(
        game.moves[23].comment.as_deref(),
        Some("Black's cannon takes the horse.")
    );
    assert_eq!(game.result, "*");
}

#[test]
fn vschess_iccs_with_its_placeholder_for_black() {
    let game = PgnGame::parse(include_str!("data/pgn/vschess-iccs.pgn")).unwrap();
    assert_eq!(
        iccs(&game),
        words("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 h0h6 h7i7 h6g6 i7i8")
    );
    assert_eq!(game.moves[2].comment.as_deref(), Some("Both horses out."));
    assert_eq!(game.result, "1-0");
    round_trips(&game);
}

#[test]
fn vschess_chinese_from_a_position_with_black_to_move() {
    let game = PgnGame::parse(include_str!("data/pgn/vschess-chinese-black-first.pgn")).unwrap();
    assert_eq!(game.start.turn(), Color::Black);
    assert_eq!(iccs(&game), words("h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 g6g5"));
    assert_eq!(game.moves[3].comment.as_deref(), Some("红方出车。"));
    assert!(game.intro.as_deref().unwrap().contains("placeholder"));
    round_trips(&game);
}

#[test]
fn playok_upper_case_iccs_with_a_dash() {
    let game = PgnGame::parse(include_str!("data/pgn/playok-iccs.pgn")).unwrap();
    assert_eq!(game.tag("Black"), Some("Player B"));
    assert_eq!(game.tag("Date"), Some("2020-04-18"));
    // No Format tag: the moves say what they are.
    assert_eq!(game.tag("Format"), None);
    assert_eq!(iccs(&game), words(GAME_1982)[..20]);
    assert_eq!(game.result, "1/2-1/2");
}

#[test]
fn chinese_with_full_width_digits_from_a_handicap_fen_with_r_to_move() {
    let game = PgnGame::parse(include_str!("data/pgn/handicap-fen-r-chinese.pgn")).unwrap();
    // `r` for the side to move, as some programs write Red.
    assert_eq!(game.start.turn(), Color::Red);
    assert_eq!(
        game.start.to_fen().split_whitespace().next(),
        Some("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR")
    );
    assert_eq!(
        iccs(&game),
        words("b2e2 h7e7 e2e7 g9e7 h2e2 h9g7 h0g2 i9h9 b0c2 b9a7")
    );
    assert!(game.intro.as_deref().unwrap().starts_with("许银川让去"));
    assert_eq!(game.moves[1].comment.as_deref(), Some("红方首着架中炮。"));
    round_trips(&game);
}

#[test]
fn wxf_spellings_equals_lower_case_tandem_prefix_and_annotations() {
    let game = PgnGame::parse(include_str!("data/pgn/wxf-forms.pgn")).unwrap();
    assert_eq!(
        iccs(&game),
        words("h2h4 h9g7 b2h2 g6g5 h4f4 b9c7 h2h3 b7a7 h0g2 g9e7 i0h0 i9h9")
    );
    assert_eq!(
        game.intro.as_deref(),
        Some("a line comment before the moves")
    );
    assert_eq!(
        game.moves[1].comment.as_deref(),
        Some("lower case for Black")
    );
    assert!(
        game.moves[6]
            .comment
            .as_deref()
            .unwrap()
            .contains("front of two")
    );
    assert_eq!(game.result, "0-1");
}

#[test]
fn iccs_spellings_and_the_chess_placeholder_in_two_games() {
    let games = parse_all(include_str!("data/pgn/iccs-forms.pgn")).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(
        iccs(&games[0]),
        words("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 h0h4 g6g5 h4g4")
    );
    assert_eq!(
        games[0].moves[4].comment.as_deref(),
        Some("a number glued to its move")
    );
    assert_eq!(games[1].start.turn(), Color::Black);
    assert_eq!(iccs(&games[1]), words("h9g7 h0g2 i9h9"));
}

#[test]
fn a_placeholder_is_only_dots_and_the_move_after_it_is_still_checked() {
    // Dots and ellipses hold a place; anything else among them is no move.
    for (text, bad) in [
        ("1. .... x9x9 *", "x9x9"),
        ("1. h2e2 ..h9g7 *", "..h9g7"),
        ("1. ………… 馬 *", "馬"),
    ] {
        let err = PgnGame::parse(text).unwrap_err();
        assert_eq!(err.kind, PgnErrorKind::IllegalMove(bad.into()), "{text}");
    }
    let game = PgnGame::parse("1. h2e2 … h9g7 2. ... h0g2 *").unwrap();
    assert_eq!(iccs(&game), words("h2e2 h9g7 h0g2"));
}
