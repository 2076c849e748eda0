//! ECCO classification: cases from the source's procedure, mirroring,
//! transpositions, every defining line, and robustness on random games.

use proptest::prelude::*;
use xiangqi::{Game, Move, Position, ecco};

/// The opening of a game given in any notation `Game::play_text` reads.
fn classify(moves: &str) -> Option<ecco::Opening> {
    let mut game = Game::new();
    for text in moves.split_whitespace() {
        game.play_text(text).expect(text);
    }
    let moves: Vec<Move> = game.moves().collect();
    ecco::classify(game.start_position(), &moves)
}

fn code(moves: &str) -> &'static str {
    classify(moves).map_or("-", |o| o.code)
}

#[test]
fn first_moves_name_the_families() {
    let o = classify("相三进五").unwrap();
    assert_eq!(
        (o.code, o.chinese, o.english),
        ("A10", "飞相局", "Elephant opening")
    );
    assert_eq!(classify("兵七进一").unwrap().chinese, "仙人指路局");
    assert_eq!(code("兵七进一"), "E00");
    assert_eq!(classify("马二进三").unwrap().chinese, "起马局");
    assert_eq!(code("马二进三"), "A40");
    assert_eq!(code("炮二平五"), "B00");
    assert_eq!(code("炮二平四"), "A50");
    assert_eq!(code("炮二平六"), "A60");
}

#[test]
fn central_cannon_lines_from_the_source() {
    assert_eq!(code("炮二平五 马8进7"), "B05");
    assert_eq!(code("炮二平五 马2进3"), "B01");
    assert_eq!(code("炮二平五 炮8平5"), "D00");
    assert_eq!(code("炮二平五 炮2平5"), "D50");
    assert_eq!(code("C2.5 H8+7 H2+3 H2+3 R1.2 R9.8"), "C00");
    let c20 = "C2.5 H8+7 H2+3 R9.8 R1.2 P7+1 R2+6 H2+3 H8+7 P3+1";
    let o = classify(c20).unwrap();
    assert_eq!(o.code, "C20");
    assert_eq!(o.chinese, "中炮过河车七路马对屏风马两头蛇");
    assert_eq!(o.chinese_variation(), None);
    assert_eq!(code(&format!("{c20} R9+1 C2+1 R2-2 E3+5")), "C22");
    let c30 = "C2.5 H8+7 H2+3 R9.8 R1.2 P7+1 R2+6 H2+3 P7+1";
    assert_eq!(code(c30), "C30");
    let c46 = format!("{c30} C8.9 R2.3 C9-1 H8+7 A4+5 C8.9 R1.2");
    let o = classify(&c46).unwrap();
    assert_eq!(o.code, "C46");
    assert_eq!(o.chinese_opening(), "中炮过河车互进七兵对屏风马平炮兑车");
    assert_eq!(
        o.chinese_variation(),
        Some("红左边炮对黑退边炮上右士右直车")
    );
    assert!(o.english_variation().is_some());
}

#[test]
fn book_main_lines_from_the_source() {
    // The lines of the engine's book, as the source's procedure codes them.
    assert_eq!(code("C2.5 H8+7 H2+3 R9.8 R1.2 H2+3 H8+7"), "C01");
    assert_eq!(code("C2.5 H8+7 H2+3 R9.8 R1.2 H2+3 R2+6"), "C17");
    assert_eq!(code("C2.5 C8.5 H2+3 H8+7 R1.2 R9.8"), "D13");
    assert_eq!(code("C2.5 H8+7 H2+3 R9.8 R1.2 H2+3 C8.7"), "C60");
}

#[test]
fn moves_after_the_twentieth_ply_do_not_count() {
    // Twenty plies of horses going out and back leave the start position; a
    // central cannon on ply 21 would otherwise match the B00 line.
    let shuffle = "H2+3 H8+7 H3-2 H7-8 ".repeat(5);
    assert_eq!(code(&format!("{shuffle}C2.5")), code(&shuffle));
    assert_ne!(code(&format!("{shuffle}C2.5")), "B00");
}

#[test]
fn left_side_openings_read_mirrored() {
    assert_eq!(code("炮八平五"), "B00");
    assert_eq!(code("炮八平五 马2进3"), code("炮二平五 马8进7"));
    assert_eq!(code("相七进五"), "A10");
    assert_eq!(code("兵三进一"), "E00");
}

#[test]
fn transpositions_classify_by_position() {
    // The C30 line with Black's seventh pawn played before the rook.
    let moved = "C2.5 H8+7 H2+3 P7+1 R1.2 R9.8 R2+6 H2+3 P7+1";
    assert_eq!(code(moved), "C30");
    // A position the lines only pass through (the book plays 马2进3 before
    // the pawns): 中炮对屏风马.
    assert_eq!(
        code("炮二平五 马8进7 马二进三 车9平8 车一平二 卒7进1 兵七进一 马2进3"),
        "C00"
    );
    // Red's pawn before the rook crosses, and the whole line mirrored.
    assert_eq!(code("C2.5 H8+7 H2+3 R9.8 R1.2 P7+1 P7+1 H2+3 R2+6"), "C30");
    assert_eq!(code("C8.5 H2+3 H8+7 R1.2 R9.8 P3+1 R8+6 H8+7 P3+1"), "C30");
}

#[test]
fn no_opening_without_moves_or_from_another_position() {
    assert_eq!(classify(""), None);
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
    let m = Move::parse_iccs("e0e1").unwrap();
    assert_eq!(ecco::classify(&pos, &[m]), None);
    // The start position with Black to move is not the start.
    let black =
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1")
            .unwrap();
    let m = Move::parse_iccs("h9g7").unwrap();
    assert_eq!(ecco::classify(&black, &[m]), None);
}

#[test]
fn unknown_first_moves_are_other_openings() {
    let o = classify("车九进一").unwrap();
    assert_eq!((o.code, o.chinese), ("A00", "其他开局"));
}

#[test]
fn an_illegal_move_ends_the_reading() {
    let moves: Vec<Move> = ["h2e2", "h9g7", "e2e9"]
        .iter()
        .map(|m| Move::parse_iccs(m).unwrap())
        .collect();
    let o = ecco::classify(&Position::startpos(), &moves).unwrap();
    assert_eq!(o.code, "B05");
}

#[test]
fn the_data_reads_and_names_260_codes() {
    assert_eq!(ecco::check_data().map(|n| n > 4000), Ok(true));
    let all: Vec<_> = ecco::openings().collect();
    assert_eq!(all.len(), 260);
    for o in &all {
        assert!(is_code(o.code), "{o:?}");
        assert!(!o.chinese.is_empty() && !o.english.is_empty(), "{o:?}");
        assert_eq!(ecco::opening(o.code), Some(*o));
    }
    assert_eq!(ecco::opening("A09"), None);
    assert_eq!(ecco::opening("nonsense"), None);
}

const LINES: &str = include_str!("../src/ecco/lines.txt");

fn data_lines() -> impl Iterator<Item = (&'static str, Vec<&'static str>)> {
    LINES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut words = l.split_whitespace();
            (words.next().expect("a code"), words.collect())
        })
}

#[test]
fn every_defining_line_classifies_to_its_code() {
    let mut seen = std::collections::HashSet::new();
    for (want, words) in data_lines().filter(|(_, w)| !w.contains(&"*")) {
        let moves: Vec<Move> = words.iter().map(|m| Move::parse_iccs(m).unwrap()).collect();
        let got = ecco::classify(&Position::startpos(), &moves).map(|o| o.code);
        assert_eq!(got, Some(want), "{want} {words:?}");
        seen.insert(want);
    }
    assert_eq!(seen.len(), 260);
}

/// A pattern's `*` filled with each legal move that keeps the rest legal
/// classifies to the pattern's code unless an exact line says otherwise.
#[test]
fn patterns_classify_their_instances() {
    let exact: std::collections::HashSet<Vec<&str>> = data_lines()
        .filter(|(_, w)| !w.contains(&"*"))
        .map(|(_, w)| w)
        .collect();
    let (mut patterns, mut instances, mut misses) = (0, 0, Vec::new());
    for (want, words) in data_lines().filter(|(_, w)| w.contains(&"*")) {
        patterns += 1;
        let at = words.iter().position(|w| *w == "*").unwrap();
        let mut pos = Position::startpos();
        for w in &words[..at] {
            pos.make_move(pos.parse_iccs(w).unwrap());
        }
        for &alt in pos.legal_moves().iter() {
            let mut line: Vec<String> = words.iter().map(|w| w.to_string()).collect();
            line[at] = alt.to_iccs();
            let mut p = Position::startpos();
            let mut moves = Vec::new();
            for w in &line {
                match p.parse_iccs(w) {
                    Ok(m) => {
                        p.make_move(m);
                        moves.push(m);
                    }
                    Err(_) => break,
                }
            }
            let words: Vec<&str> = line.iter().map(String::as_str).collect();
            if moves.len() < line.len() || exact.contains(&words) {
                continue;
            }
            instances += 1;
            let got = ecco::classify(&Position::startpos(), &moves).map(|o| o.code);
            if got != Some(want) {
                misses.push(format!("{want} {got:?} {}", line.join(" ")));
            }
        }
    }
    assert!(
        patterns > 1000 && instances > 10 * patterns,
        "{patterns} {instances}"
    );
    // Overlapping patterns of one length may disagree on a few instances.
    let shown = &misses[..misses.len().min(5)];
    assert!(
        misses.len() * 100 <= instances,
        "{} of {instances}: {shown:?}",
        misses.len()
    );
}

fn is_code(code: &str) -> bool {
    let b = code.as_bytes();
    b.len() == 3 && (b'A'..=b'E').contains(&b[0]) && b[1].is_ascii_digit() && b[2].is_ascii_digit()
}

proptest! {
    #[test]
    fn random_legal_games_always_get_a_code(choices in proptest::collection::vec(any::<u16>(), 1..40)) {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for c in choices {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal.as_slice()[usize::from(c) % legal.len()];
            pos.make_move(m);
            moves.push(m);
        }
        let o = ecco::classify(&Position::startpos(), &moves);
        prop_assert!(o.is_some());
        let o = o.unwrap();
        prop_assert!(is_code(o.code), "{:?}", o);
        prop_assert!(!o.chinese.is_empty());
    }

    #[test]
    fn arbitrary_moves_never_panic(raw in proptest::collection::vec(any::<u16>(), 0..30)) {
        let moves: Vec<Move> = raw.into_iter().filter_map(Move::from_u16).collect();
        if let Some(o) = ecco::classify(&Position::startpos(), &moves) {
            prop_assert!(is_code(o.code));
        }
    }
}

#[test]
fn a_transposition_the_source_reads_by_move_order() {
    // ECCO's procedure keeps this pawn opening `E00`; its position is the
    // central cannon's.
    assert_eq!(code("兵七进一 炮8平9 炮八平五 马8进7")[..1], *"B");
}
