//! Arbitrary input never panics: FEN, move texts, PGN and books.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use xiangqi::engine::Book;
use xiangqi::pgn::PgnGame;
use xiangqi::{Move, Position};

/// Strings built from characters that occur in the formats, plus anything.
fn texty() -> impl Strategy<Value = String> {
    let alphabet: Vec<char> =
        "rnbakcpRNBAKCPEHeh0123456789/ -+.=wb[]{}();\"\n车马炮兵卒将帅仕相象进退平前中后一二三四五六七八九１２３"
            .chars()
            .collect();
    prop_oneof![
        prop::collection::vec(prop::sample::select(alphabet), 0..80)
            .prop_map(|v| v.into_iter().collect::<String>()),
        any::<String>(),
    ]
}

proptest! {
    #[test]
    fn fen_never_panics(s in texty()) {
        if let Ok(p) = Position::from_fen(&s) {
            // Anything accepted must round-trip and be playable.
            let again = Position::from_fen(&p.to_fen()).unwrap();
            prop_assert_eq!(again.to_fen(), p.to_fen());
            let _ = p.legal_moves();
        }
    }

    #[test]
    fn move_texts_never_panic(s in texty()) {
        let p = Position::startpos();
        let _ = p.parse_move(&s);
        let _ = p.parse_wxf(&s);
        let _ = p.parse_chinese(&s);
        let _ = Move::parse_iccs(&s);
    }

    #[test]
    fn pgn_and_book_never_panic(s in texty()) {
        let _ = PgnGame::parse(&s);
        let _ = Book::parse(&s);
    }

    #[test]
    fn fen_with_random_counters(h in any::<u32>(), n in any::<u32>()) {
        let fen = format!("4k4/9/9/9/9/9/9/9/4A4/3K5 w - - {h} {n}");
        let mut p = Position::from_fen(&fen).unwrap();
        let m = p.legal_moves()[0];
        let u = p.make_move(m);
        p.unmake_move(m, u);
        prop_assert_eq!(p.halfmoves(), h);
    }
}

#[test]
fn empty_and_odd_inputs() {
    assert!(Position::from_fen("").is_err());
    assert!(Position::from_fen("////////// w").is_err());
    assert!(Position::from_fen("99999999999999999999k/9/9/9/9/9/9/9/9/4K4 w").is_err());
    assert!(PgnGame::parse("[").is_err());
    assert!(PgnGame::parse("(((").is_err());
    assert!(PgnGame::parse(")").is_err());
}
