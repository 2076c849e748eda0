//! XQF records: round trips through the writer, hand-made files of each
//! version family (1.0 plain; 1.1 and 1.2 encrypted by the encoder below,
//! written from the format's description), variations, hostile input.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use xiangqi::pgn::{MoveFormat, PgnGame};
use xiangqi::xqf::{self, MAX_XQF_NODES, XqfError};
use xiangqi::{Move, Square};

/// One record of a hand-made move tree, in file (pre-)order.
#[derive(Clone)]
struct Node {
    mv: &'static str,
    next: bool,
    variation: bool,
    comment: &'static str,
}

fn node(mv: &'static str, next: bool, variation: bool) -> Node {
    Node {
        mv,
        next,
        variation,
        comment: "",
    }
}

/// XQF square byte of an ICCS square name.
fn sq(name: &str) -> u8 {
    let s = Square::parse(name).unwrap();
    s.file() * 10 + s.rank()
}

/// Piece table of the standard start (Red's R N B A K A B N R C C P×5, then Black's).
fn start_pieces() -> [u8; 32] {
    let red = [
        "a0", "b0", "c0", "d0", "e0", "f0", "g0", "h0", "i0", "b2", "h2", "a3", "c3", "e3", "g3",
        "i3",
    ];
    let mut out = [0u8; 32];
    for (i, name) in red.iter().enumerate() {
        out[i] = sq(name);
        let black = name.replace('0', "9").replace('2', "7").replace('3', "6");
        out[16 + i] = sq(&black);
    }
    out
}

/// A file's header settings.
struct Header {
    version: u8,
    /// Bytes 3 and 8..16 (mask, then the eight keys); ignored below 11.
    mask: u8,
    keys: [u8; 8],
    pieces: [u8; 32],
    setup: u8,
    result: u8,
    red: &'static str,
}

impl Default for Header {
    fn default() -> Self {
        Header {
            version: 10,
            mask: 0,
            keys: [0; 8],
            pieces: start_pieces(),
            setup: 0,
            result: 0,
            red: "",
        }
    }
}

const STREAM_MASK: &[u8] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// Builds an XQF file; versions 11 and up are encrypted.
fn encode(h: &Header, intro: &'static str, nodes: &[Node]) -> Vec<u8> {
    let mut out = vec![0u8; 1024];
    out[0] = b'X';
    out[1] = b'Q';
    out[2] = h.version;
    out[3] = h.mask;
    out[8..16].copy_from_slice(&h.keys);
    let enc = h.version >= 11;
    let k = |i: usize| u32::from(h.keys[i - 8]);
    let f = |key: u32, by: u32| ((key * key * 54 + 221) * by) % 256;
    let piece_off = if enc { f(k(13), k(13)) } else { 0 };
    let src_off = if enc { f(k(14), piece_off) } else { 0 };
    let dst_off = if enc { f(k(15), src_off) } else { 0 };
    let comment_off = if enc {
        (k(12) * 256 + k(13)) % 32000 + 767
    } else {
        0
    };
    for i in 0..32 {
        let plain = if h.version >= 12 {
            h.pieces[(piece_off as usize + 1 + i) % 32]
        } else {
            h.pieces[i]
        };
        out[16 + i] = plain.wrapping_add(piece_off as u8);
    }
    out[51] = h.result;
    out[64] = h.setup;
    out[304] = h.red.len() as u8;
    out[305..305 + h.red.len()].copy_from_slice(h.red.as_bytes());

    let root = Node {
        mv: "a0a0",
        next: !nodes.is_empty(),
        variation: false,
        comment: intro,
    };
    let mut body = Vec::new();
    for n in std::iter::once(&root).chain(nodes) {
        let from = sq(&n.mv[..2]);
        let to = sq(&n.mv[2..]);
        let flags = if enc {
            (if n.next { 0x80 } else { 0 })
                | (if n.variation { 0x40 } else { 0 })
                | (if n.comment.is_empty() { 0 } else { 0x20 })
        } else {
            (if n.next { 0xf0 } else { 0 }) | (if n.variation { 0x0f } else { 0 })
        };
        body.extend_from_slice(&[
            (u32::from(from) + 24 + src_off) as u8,
            (u32::from(to) + 32 + dst_off) as u8,
            flags,
            0,
        ]);
        if !enc || !n.comment.is_empty() {
            let len = n.comment.len() as u32 + comment_off;
            body.extend_from_slice(&len.to_le_bytes());
            body.extend_from_slice(n.comment.as_bytes());
        }
    }
    if enc {
        let stream: Vec<u8> = (0..32)
            .map(|i| (h.keys[i % 4] | (h.keys[4 + i % 4] & h.mask)) & STREAM_MASK[i])
            .collect();
        for (i, b) in body.iter_mut().enumerate() {
            *b = b.wrapping_add(stream[i % 32]);
        }
    }
    out.extend_from_slice(&body);
    out
}

/// A tree with two variations: 1. h2e2 (1. b2e2) h9g7 (1... b9c7) 2. h0g2.
fn tree() -> Vec<Node> {
    vec![
        Node {
            mv: "h2e2",
            next: true,
            variation: true,
            comment: "central cannon",
        },
        node("h9g7", true, true),
        Node {
            mv: "h0g2",
            next: false,
            variation: false,
            comment: "main line ends",
        },
        node("b9c7", false, false),
        Node {
            mv: "b2e2",
            next: false,
            variation: false,
            comment: "the other cannon",
        },
    ]
}

fn moves(game: &PgnGame) -> Vec<String> {
    game.moves.iter().map(|m| m.mv.to_string()).collect()
}

fn check_tree(bytes: &[u8], version: u8) {
    let rec = xqf::read(bytes).unwrap();
    assert_eq!(rec.version, version);
    assert_eq!(rec.variations, 2);
    assert_eq!(moves(&rec.game), ["h2e2", "h9g7", "h0g2"]);
    assert_eq!(rec.game.moves[0].comment.as_deref(), Some("central cannon"));
    assert_eq!(rec.game.moves[2].comment.as_deref(), Some("main line ends"));
    let intro = rec.game.intro.clone().unwrap();
    assert!(intro.starts_with("opening note\n"), "{intro}");
    assert!(intro.contains("2 variations"), "{intro}");
    assert_eq!(rec.game.tag("Red"), Some("Hu Ronghua"));
    assert_eq!(rec.game.result, "1-0");
}

#[test]
fn version_10_with_variations() {
    let h = Header {
        result: 1,
        red: "Hu Ronghua",
        ..Header::default()
    };
    check_tree(&encode(&h, "opening note", &tree()), 10);
}

#[test]
fn encrypted_versions_11_and_12_with_variations() {
    for (version, mask, keys) in [
        (11, 0x5a, [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88]),
        (12, 0xff, [0xde, 0xad, 0xbe, 0xef, 0x01, 0x9c, 0xe7, 0x42]),
        (18, 0x0f, [0xff, 0x00, 0x80, 0x7f, 0xfe, 0xfd, 0x03, 0x04]),
    ] {
        let h = Header {
            version,
            mask,
            keys,
            result: 1,
            red: "Hu Ronghua",
            ..Header::default()
        };
        check_tree(&encode(&h, "opening note", &tree()), version);
    }
}

#[test]
fn encrypted_endgame_piece_table_black_to_move() {
    // Kings on e0 and d9, a red rook on a0, a black cannon on b7; Black moves.
    let mut pieces = [0xffu8; 32];
    pieces[4] = sq("e0");
    pieces[0] = sq("a0");
    pieces[16 + 4] = sq("d9");
    pieces[16 + 9] = sq("b7");
    for version in [11, 12] {
        let h = Header {
            version,
            mask: 0xa5,
            keys: [9, 8, 7, 6, 5, 4, 3, 2],
            pieces,
            setup: 3,
            ..Header::default()
        };
        let rec = xqf::read(&encode(
            &h,
            "",
            &[node("b7b0", true, false), node("a0b0", false, false)],
        ))
        .unwrap();
        assert_eq!(
            rec.game.start.to_fen(),
            "3k5/9/1c7/9/9/9/9/9/9/R3K4 b - - 0 1"
        );
        assert_eq!(moves(&rec.game), ["b7b0", "a0b0"]);
        assert_eq!(rec.game.intro, None);
    }
}

#[test]
fn pgn_to_xqf_to_pgn_keeps_main_line_and_tags() {
    let text = "[Event \"Club final\"]\n[Site \"Beijing\"]\n[Date \"2024.05.01\"]\n\
        [Red \"许银川\"]\n[Black \"吕钦\"]\n[Result \"1/2-1/2\"]\n\n\
        {开局} 1. h2e2 {中炮} h9g7 2. h0g2 i9h9 3. i0h0 b9c7 1/2-1/2\n";
    let pgn = PgnGame::parse(text).unwrap();
    let bytes = xqf::write(&pgn);
    let back = xqf::read(&bytes).unwrap();
    assert_eq!(back.version, 10);
    assert_eq!(back.variations, 0);
    assert_eq!(back.game.moves, pgn.moves);
    assert_eq!(back.game.intro, pgn.intro);
    assert_eq!(back.game.start, pgn.start);
    for tag in ["Event", "Site", "Date", "Red", "Black", "Result"] {
        assert_eq!(back.game.tag(tag), pgn.tag(tag), "{tag}");
    }
    assert_eq!(
        back.game.to_pgn(MoveFormat::Chinese),
        pgn.to_pgn(MoveFormat::Chinese)
    );
    // Chinese text is stored as GBK, as other readers expect.
    let red = encoding_rs::GBK.encode("许银川").0;
    assert_eq!(usize::from(bytes[304]), red.len());
    assert_eq!(&bytes[305..305 + red.len()], &red[..]);
}

#[test]
fn a_position_record_round_trips() {
    let text = "[FEN \"3k5/9/1c7/9/9/9/9/9/9/R3K4 b - - 0 1\"]\n[Result \"0-1\"]\n\n1... b7b0 2. a0b0 0-1\n";
    let pgn = PgnGame::parse(text).unwrap();
    let back = xqf::read(&xqf::write(&pgn)).unwrap();
    assert_eq!(back.game.start.to_fen(), pgn.start.to_fen());
    assert_eq!(back.game.moves, pgn.moves);
    assert_eq!(back.game.result, "0-1");
    // No moves: the header's side to move is used.
    let still = PgnGame {
        moves: Vec::new(),
        ..pgn
    };
    let back = xqf::read(&xqf::write(&still)).unwrap();
    assert_eq!(back.game.start.to_fen(), still.start.to_fen());
}

#[test]
fn long_tags_are_cut_at_a_character() {
    let mut pgn = PgnGame::default();
    pgn.set_tag("Red", "象棋大师一二三四五六七八");
    let back = xqf::read(&xqf::write(&pgn)).unwrap();
    assert_eq!(back.game.tag("Red"), Some("象棋大师一二三"));
}

#[test]
fn errors_name_the_offset() {
    assert_eq!(xqf::read(b"PK\x03\x04"), Err(XqfError::NotXqf));
    let h = Header::default();
    let good = encode(
        &h,
        "",
        &[node("h2e2", true, false), node("h9g7", false, false)],
    );
    assert_eq!(
        xqf::read(&good[..500]),
        Err(XqfError::Truncated { offset: 0 })
    );
    // Cut inside the second move (records at 1024, 1032, 1040).
    let err = xqf::read(&good[..1043]).unwrap_err();
    assert_eq!(err, XqfError::Truncated { offset: 1040 });
    assert_eq!(
        err.to_string(),
        "XQF offset 1040: the file ends inside a record"
    );
    // An illegal second move.
    let bad = encode(
        &h,
        "",
        &[node("h2e2", true, false), node("h9h5", false, false)],
    );
    let err = xqf::read(&bad).unwrap_err();
    assert_eq!(
        err,
        XqfError::IllegalMove {
            offset: 1040,
            ply: 2,
            mv: Move::new(Square::parse("h9").unwrap(), Square::parse("h5").unwrap())
        }
    );
    assert_eq!(err.to_string(), "XQF offset 1040: ply 2: illegal move h9h5");
    // An illegal move in a variation is an error too.
    let bad = encode(
        &h,
        "",
        &[node("h2e2", false, true), node("h2h8", false, false)],
    );
    assert!(matches!(
        xqf::read(&bad),
        Err(XqfError::IllegalMove {
            offset: 1040,
            ply: 1,
            ..
        })
    ));
    // A square off the board.
    let mut bad = good.clone();
    bad[1032] = 24 + 95;
    assert_eq!(xqf::read(&bad), Err(XqfError::BadSquare { offset: 1032 }));
    // A comment length of 2 GB.
    let mut bad = good.clone();
    bad[1028..1032].copy_from_slice(&0x7fff_ffffi32.to_le_bytes());
    assert_eq!(
        xqf::read(&bad),
        Err(XqfError::BadCommentLength { offset: 1028 })
    );
    // Two pieces on a square.
    let mut pieces = start_pieces();
    pieces[1] = pieces[0];
    let bad = encode(
        &Header {
            pieces,
            setup: 2,
            ..Header::default()
        },
        "",
        &[],
    );
    assert_eq!(xqf::read(&bad), Err(XqfError::SharedSquare { offset: 17 }));
    // No general.
    let mut pieces = start_pieces();
    pieces[4] = 0xff;
    let bad = encode(
        &Header {
            pieces,
            setup: 2,
            ..Header::default()
        },
        "",
        &[],
    );
    let err = xqf::read(&bad).unwrap_err();
    assert!(
        matches!(err, XqfError::BadPosition { offset: 16, .. }),
        "{err}"
    );
}

#[test]
fn the_record_count_is_bounded() {
    // Each record offers h2e2 again as a variation of the one before.
    let nodes = vec![node("h2e2", false, true); MAX_XQF_NODES + 1];
    let bytes = encode(&Header::default(), "", &nodes);
    assert!(matches!(
        xqf::read(&bytes),
        Err(XqfError::TooManyMoves { .. })
    ));
}

/// The worked example of the XQF 1.0 specification (see tests/data/SOURCE-xqf.md).
#[test]
fn the_specification_example() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/xqf-1.0-spec-example.xqf"
    );
    let bytes = std::fs::read(path).unwrap();
    let rec = xqf::read(&bytes).unwrap();
    assert_eq!(rec.version, 10);
    assert_eq!(rec.variations, 0);
    let expected = PgnGame::parse(
        "1. 兵七进一 马８进７ 2. 兵三进一 炮２平３ 3. 相七进五 马２进１ 4. 马八进七 车１平２ \
         5. 车九平八 车２进４ 6. 炮八平九 车２平８ 7. 炮二进五 炮３平８ 8. 马二进三 车９平８ 0-1",
    )
    .unwrap();
    assert_eq!(rec.game.moves, expected.moves);
    assert_eq!(rec.game.result, "0-1");
    for (tag, value) in [
        ("Title", "仙人指路对起马局"),
        ("Event", "\"中立杯\"象棋电视快棋赛"),
        ("Date", "1997年11月16日"),
        ("Site", "北京"),
        ("Red", "柳大华"),
        ("Black", "吕  钦"),
        ("Annotator", "刘殿中"),
        ("Author", "过河象"),
    ] {
        assert_eq!(rec.game.tag(tag), Some(value), "{tag}");
    }
    // Written back: the same strings and the same move records, byte for byte.
    let written = xqf::write(&rec.game);
    assert_eq!(written.len(), bytes.len());
    assert_eq!(&written[0x50..0x400], &bytes[0x50..0x400]);
    assert_eq!(&written[0x400..], &bytes[0x400..]);
    assert_eq!(written[0x33], bytes[0x33]);
}

fn sample() -> Vec<u8> {
    let h = Header {
        version: 12,
        mask: 0x3c,
        keys: [1, 2, 3, 4, 5, 6, 7, 8],
        ..Header::default()
    };
    encode(&h, "note", &tree())
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(mut bytes in prop::collection::vec(any::<u8>(), 0..1400), version in any::<u8>()) {
        if bytes.len() > 3 {
            bytes[0] = b'X';
            bytes[1] = b'Q';
            bytes[2] = version;
        }
        let _ = xqf::read(&bytes);
    }

    #[test]
    fn damaged_files_never_panic(edits in prop::collection::vec((any::<usize>(), any::<u8>()), 1..8), cut in any::<usize>()) {
        for base in [sample(), encode(&Header::default(), "x", &tree())] {
            let mut bytes = base;
            for (at, b) in &edits {
                let i = at % bytes.len();
                bytes[i] = *b;
            }
            bytes.truncate(cut % (bytes.len() + 1));
            if let Ok(rec) = xqf::read(&bytes) {
                // Whatever is read writes and reads back the same main line.
                let again = xqf::read(&xqf::write(&rec.game)).unwrap();
                prop_assert_eq!(again.game.moves, rec.game.moves);
            }
        }
    }
}
