//! PGN import and export.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use xiangqi::pgn::{MoveFormat, PgnErrorKind, PgnGame, parse_all};
use xiangqi::{Game, Move, Position};

const SAMPLE: &str = r#"[Game "Chinese Chess"]
[Event "Club \"final\""]
[Red "Li"]
[Black "Wang"]
[Result "1-0"]
[Format "WXF"]

{A classical opening}
1. C2.5 H8+7 2. H2+3 R9.8 ; the chariot comes out
3. R1.2 (3. H8+7 C8.9) C8+4 $1 4. P7+1! {quiet} 1-0
"#;

#[test]
fn imports_tags_comments_and_moves() {
    let g = PgnGame::parse(SAMPLE).unwrap();
    assert_eq!(g.tag("Red"), Some("Li"));
    assert_eq!(g.tag("Event"), Some("Club \"final\""));
    assert_eq!(g.result, "1-0");
    assert_eq!(g.intro.as_deref(), Some("A classical opening"));
    let iccs: Vec<String> = g.moves.iter().map(|m| m.mv.to_string()).collect();
    assert_eq!(
        iccs,
        ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "h7h3", "c3c4"]
    );
    assert_eq!(g.moves[3].comment.as_deref(), Some("the chariot comes out"));
    assert_eq!(g.moves[6].comment.as_deref(), Some("quiet"));
}

#[test]
fn exports_in_every_format_and_reads_back() {
    let g = PgnGame::parse(SAMPLE).unwrap();
    for f in [MoveFormat::Iccs, MoveFormat::Wxf, MoveFormat::Chinese] {
        let text = g.to_pgn(f);
        assert!(text.starts_with("[Game \"Chinese Chess\"]\n"));
        assert!(text.contains(&format!("[Format \"{}\"]", f.tag())));
        let back = PgnGame::parse(&text).unwrap();
        assert_eq!(back.moves, g.moves, "{text}");
        assert_eq!(back.intro, g.intro);
        assert_eq!(back.result, "1-0");
        assert_eq!(back.tag("Event"), Some("Club \"final\""));
    }
    let chinese = g.to_pgn(MoveFormat::Chinese);
    assert!(
        chinese.contains("1. 炮二平五 马8进7 2. 马二进三 车9平8"),
        "{chinese}"
    );
}

#[test]
fn fen_setup_with_black_to_move() {
    let text = "[Game \"Chinese Chess\"]\n[FEN \"5k3/9/9/9/9/9/9/9/R8/3K5 b - - 0 12\"]\n\n12... f9e9 13. a1e1 e9f9 *\n";
    let g = PgnGame::parse(text).unwrap();
    assert_eq!(g.moves.len(), 3);
    let out = g.to_pgn(MoveFormat::Iccs);
    assert!(out.contains("[FEN \"5k3/9/9/9/9/9/9/9/R8/3K5 b - - 0 12\"]"));
    assert!(out.contains("12... F9-E9 13. A1-E1 E9-F9 *"), "{out}");
    let game = g.to_game();
    assert_eq!(game.plies().len(), 3);
}

#[test]
fn errors_name_line_and_column() {
    let e = PgnGame::parse("[Result \"*\"]\n\n1. h2e2 h9g7\n2. a0a5 *\n").unwrap_err();
    assert_eq!((e.line, e.column), (4, 4));
    assert!(matches!(e.kind, PgnErrorKind::IllegalMove(ref m) if m == "a0a5"));
    assert_eq!(
        e.to_string(),
        "PGN line 4, column 4: illegal or unreadable move \"a0a5\""
    );
    let e = PgnGame::parse("1. h2e2 {never closed\n").unwrap_err();
    assert_eq!(
        (e.line, e.column, e.kind),
        (1, 9, PgnErrorKind::Unterminated('{'))
    );
    let e = PgnGame::parse("[Red Li]\n").unwrap_err();
    assert_eq!((e.line, e.column, e.kind), (1, 1, PgnErrorKind::BadTag));
    let e = PgnGame::parse("\n  [FEN \"9/9 w\"]\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, 3));
    assert!(matches!(e.kind, PgnErrorKind::BadFen(_)));
    assert_eq!(PgnGame::parse("").unwrap_err().kind, PgnErrorKind::NoGame);
}

#[test]
fn several_games() {
    let text = "[Red \"A\"]\n\n1. h2e2 *\n\n[Red \"B\"]\n\n1. b2e2 h9g7 1-0\n";
    let games = parse_all(text).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].tag("Red"), Some("B"));
    assert_eq!(games[1].moves.len(), 2);
}

#[test]
fn from_game_records_the_result() {
    let mut game = Game::from_position(Position::from_fen("4k4/R8/9/9/9/9/9/9/9/3K4R w").unwrap());
    game.play(Move::parse_iccs("i0i9").unwrap()).unwrap();
    let rec = PgnGame::from_game(&game, &[("Red", "me")]);
    assert_eq!(rec.result, "1-0");
    let text = rec.to_pgn(MoveFormat::Chinese);
    assert!(text.contains("[Result \"1-0\"]"));
    assert!(text.contains("车一进九 1-0"), "{text}");
}

proptest! {
    #[test]
    fn random_games_round_trip(choices in prop::collection::vec(any::<u16>(), 0..80), fmt in 0usize..3) {
        let mut game = Game::new();
        for c in choices {
            let moves = game.legal_moves();
            if moves.is_empty() { break; }
            game.play(moves[c as usize % moves.len()]).unwrap();
        }
        let rec = PgnGame::from_game(&game, &[("Event", "random")]);
        let f = [MoveFormat::Iccs, MoveFormat::Wxf, MoveFormat::Chinese][fmt];
        let back = PgnGame::parse(&rec.to_pgn(f)).unwrap();
        prop_assert_eq!(back.moves, rec.moves);
    }
}

#[test]
fn reads_a_chinese_record_with_mixed_characters() {
    let text = include_str!("data/sample_chinese.pgn");
    let g = PgnGame::parse(text).unwrap();
    assert_eq!(g.tag("Format"), Some("Chinese"));
    assert_eq!(g.moves.len(), 14);
    assert_eq!(
        g.moves[9].comment.as_deref(),
        Some("the cannon blocks the chariot")
    );
    let game = g.to_game();
    assert_eq!(
        game.position().to_fen(),
        "r3kabr1/4a4/1cn1b1n2/p1p1p3p/6p2/2P6/P3P1PcP/1CN1C1N2/3R5/2BAKABR1 w - - 14 8"
    );
    // Printed again in the house style (simplified, Arabic digits for Black).
    let out = g.to_pgn(MoveFormat::Chinese);
    let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("1. 炮二平五 马8进7 2. 马二进三 车9平8"),
        "{out}"
    );
    assert!(flat.contains("7. 车九平六 士4进5 *"), "{out}");
}

#[test]
fn move_numbers_glued_to_moves() {
    let g = PgnGame::parse("1.h2e2 h9g7 2.炮八平七 3...x *").unwrap_err();
    assert!(matches!(g.kind, PgnErrorKind::IllegalMove(ref t) if t == "3...x"));
    let g = PgnGame::parse("1.h2e2 h9g7 2.炮八平七 *").unwrap();
    assert_eq!(g.moves.len(), 3);
    assert_eq!(g.moves[2].mv.to_string(), "b2c2");
}

/// Found by the `xiangqi_text` fuzz target: a `Result` tag that is no result
/// was taken as the game's result and written after the moves, where it read
/// back as an illegal move.
#[test]
fn a_result_tag_that_is_no_result_is_not_the_result() {
    let text = "[Result \"0-0\"]\n\n1. C2.5\n";
    let game = PgnGame::parse(text).unwrap();
    assert_eq!(game.result, "*");
    assert_eq!(game.tag("Result"), Some("0-0"));
    for format in [MoveFormat::Iccs, MoveFormat::Wxf, MoveFormat::Chinese] {
        let again = PgnGame::parse(&game.to_pgn(format)).unwrap();
        assert_eq!(again.moves, game.moves);
        assert_eq!(again.result, "*");
    }
    let mut odd = game.clone();
    odd.result = "0-0".to_string();
    let again = PgnGame::parse(&odd.to_pgn(MoveFormat::Iccs)).unwrap();
    assert_eq!(again.moves, game.moves);
}

#[test]
fn bare_coordinate_moves_after_a_fen_tag_read_as_a_game() {
    // The browser rebuilds a game the server lost from such a record.
    let text = "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n\nh2e2 h9g7 *\n";
    let pgn = xiangqi::pgn::PgnGame::parse(text).unwrap();
    assert_eq!(pgn.moves.len(), 2);
}
