//! Notation: ICCS, WXF and Chinese, printing and parsing.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use xiangqi::{Move, NotationError, Position};

fn m(s: &str) -> Move {
    Move::parse_iccs(s).unwrap()
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

#[test]
fn iccs_forms() {
    assert_eq!(
        Move::parse_iccs("h2e2").unwrap(),
        Move::parse_iccs("H2-E2").unwrap()
    );
    assert_eq!(m("a0a1").to_iccs(), "A0-A1");
    assert_eq!(Move::from_uci("i9i8").unwrap().to_uci(), "i9i8");
    for bad in ["", "h2", "h2e", "j2e2", "h2e2e", "h2xe2", "h2h2"] {
        assert!(Move::parse_iccs(bad).is_err(), "{bad}");
    }
    let p = Position::startpos();
    assert!(matches!(
        p.parse_iccs("a0a5"),
        Err(NotationError::NoSuchMove(_))
    ));
}

#[test]
fn opening_moves() {
    let mut p = Position::startpos();
    let cases = [
        ("h2e2", "C2.5", "炮二平五"),
        ("h9g7", "H8+7", "马8进7"),
        ("h0g2", "H2+3", "马二进三"),
        ("i9h9", "R9.8", "车9平8"),
        ("i0h0", "R1.2", "车一平二"),
        ("g6g5", "P7+1", "卒7进1"),
        ("f0e1", "A4+5", "仕四进五"),
        ("c9e7", "E3+5", "象3进5"),
    ];
    for (iccs, wxf, chinese) in cases {
        let mv = m(iccs);
        assert_eq!(p.to_wxf(mv), wxf);
        assert_eq!(p.to_chinese(mv), chinese);
        assert_eq!(p.parse_wxf(wxf).unwrap(), mv);
        assert_eq!(p.parse_chinese(chinese).unwrap(), mv);
        assert_eq!(p.parse_move(iccs).unwrap(), mv);
        p.play(mv).unwrap();
    }
}

#[test]
fn alternative_spellings() {
    let p = Position::startpos();
    let c25 = m("h2e2");
    assert_eq!(p.parse_wxf("C2=5").unwrap(), c25);
    assert_eq!(p.parse_wxf("c2.5").unwrap(), c25);
    assert_eq!(p.parse_chinese("炮二平五").unwrap(), c25);
    assert_eq!(p.parse_chinese("炮2平5").unwrap(), c25);
    assert_eq!(p.parse_chinese("炮２平５").unwrap(), c25);
    // Traditional characters for Red's chariot and horse.
    assert_eq!(p.parse_chinese("俥一進一").unwrap(), m("i0i1"));
    assert_eq!(p.parse_chinese("傌二進三").unwrap(), m("h0g2"));
    assert_eq!(p.parse_wxf("N2+3").unwrap(), m("h0g2"));
    assert_eq!(p.parse_wxf("B3+5").unwrap(), m("g0e2"));
    assert!(matches!(
        p.parse_wxf("C2.4x"),
        Err(NotationError::Syntax(_))
    ));
    assert!(matches!(
        p.parse_wxf("C3.5"),
        Err(NotationError::NoSuchMove(_))
    ));
    assert!(p.parse_chinese("炮二平").is_err());
}

#[test]
fn front_and_rear() {
    // Two red cannons on file e (5): e2 (rear) and e4 (front).
    let p = pos("5k3/9/9/9/9/4C4/9/4C4/9/3K5 w");
    assert_eq!(p.to_wxf(m("e4d4")), "C+.6");
    assert_eq!(p.to_wxf(m("e2d2")), "C-.6");
    assert_eq!(p.to_chinese(m("e4d4")), "前炮平六");
    assert_eq!(p.to_chinese(m("e2d2")), "后炮平六");
    assert_eq!(p.parse_wxf("+C.6").unwrap(), m("e4d4"));
    assert_eq!(p.parse_chinese("後炮平六").unwrap(), m("e2d2"));
    // Black: front is the lower rank.
    let p = pos("3k5/9/9/4r4/9/4r4/9/9/9/5K3 b");
    assert_eq!(p.to_chinese(m("e4f4")), "前车平6");
    assert_eq!(p.to_chinese(m("e6f6")), "后车平6");
    assert_eq!(p.parse_chinese("前車平６").unwrap(), m("e4f4"));
}

#[test]
fn advisors_use_their_file() {
    let p = pos("5k3/9/9/9/9/9/9/5A3/9/3K1A3 w");
    assert_eq!(p.to_chinese(m("f0e1")), "仕四进五");
    assert_eq!(p.to_chinese(m("f2e1")), "仕四退五");
}

#[test]
fn three_soldiers_on_a_file() {
    // Red soldiers e5, e6, e7 (front e7).
    let p = pos("5k3/9/4P4/4P4/4P4/9/9/9/9/3K5 w");
    assert_eq!(p.to_chinese(m("e7d7")), "前兵平六");
    assert_eq!(p.to_chinese(m("e6d6")), "中兵平六");
    assert_eq!(p.to_chinese(m("e5d5")), "后兵平六");
    assert_eq!(p.to_wxf(m("e7d7")), "P+.6");
    assert_eq!(p.to_wxf(m("e6d6")), "25.6");
    assert_eq!(p.to_wxf(m("e5d5")), "P-.6");
    for mv in p.legal_moves().iter() {
        assert_eq!(p.parse_chinese(&p.to_chinese(*mv)).unwrap(), *mv);
        assert_eq!(p.parse_wxf(&p.to_wxf(*mv)).unwrap(), *mv);
    }
}

#[test]
fn tandem_soldiers_on_two_files() {
    // Black soldiers c3, c4 and g3, g4 (two tandem files).
    let p = pos("3k5/9/9/9/9/2p3p2/2p3p2/9/9/4K4 b");
    assert_eq!(p.to_chinese(m("c3b3")), "前3平2");
    assert_eq!(p.to_chinese(m("c4b4")), "后3平2");
    assert_eq!(p.to_wxf(m("c3b3")), "13.2");
    assert_eq!(p.to_wxf(m("g4h4")), "27.8");
    assert_eq!(p.parse_chinese("前３平２").unwrap(), m("c3b3"));
    // Four soldiers on one file: numbered from the front.
    let p = pos("5k3/9/4P4/4P4/4P4/4P4/9/9/9/3K5 w");
    assert_eq!(p.to_chinese(m("e7d7")), "一五平六");
    assert_eq!(p.to_chinese(m("e4d4")), "四五平六");
    assert_eq!(p.to_wxf(m("e4d4")), "45.6");
}

/// A position reached by playing `choices` (each picks a legal move by index).
fn random_position(choices: &[u16]) -> Position {
    let mut p = Position::startpos();
    for &c in choices {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        p.play(moves[c as usize % moves.len()]).unwrap();
    }
    p
}

proptest! {
    #[test]
    fn round_trips(choices in prop::collection::vec(any::<u16>(), 0..120)) {
        let p = random_position(&choices);
        for &mv in p.legal_moves().iter() {
            prop_assert_eq!(p.parse_iccs(&mv.to_iccs()).unwrap(), mv);
            prop_assert_eq!(p.parse_move(&mv.to_uci()).unwrap(), mv);
            let w = p.to_wxf(mv);
            prop_assert_eq!(p.parse_wxf(&w).unwrap(), mv, "wxf {} in {}", w, p.to_fen());
            let c = p.to_chinese(mv);
            prop_assert_eq!(p.parse_chinese(&c).unwrap(), mv, "chinese {} in {}", c, p.to_fen());
        }
    }
}
