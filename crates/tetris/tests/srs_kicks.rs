//! SRS rotation and kicks, through the game and through sim scripts.
#![allow(clippy::unwrap_used)]

use tetris::scoring::TSpin;
use tetris::script::simulate;
use tetris::srs::{Turn, kicks};
use tetris::{Action, ActivePiece, Game, InputEvent, Matrix, Mode, PieceKind, Rotation, Settings};

fn zen_game(board: &[&str], kind: PieceKind) -> Game {
    let matrix = Matrix::from_text_rows(board).unwrap();
    Game::with_setup(Mode::Zen, Settings::default(), 1, matrix, &[kind])
}

fn turn_action(turn: Turn) -> Action {
    match turn {
        Turn::Clockwise => Action::RotateCw,
        Turn::CounterClockwise => Action::RotateCcw,
        Turn::Half => Action::Rotate180,
    }
}

fn rotate(game: &mut Game, turn: Turn) -> ActivePiece {
    for event in InputEvent::tap(0, turn_action(turn)) {
        game.handle(event);
    }
    *game.active().unwrap()
}

/// Independent statement of the rule: the first test in the table that fits wins; if none
/// fits the piece stays as it was.
fn expected_rotation(matrix: &Matrix, piece: ActivePiece, turn: Turn) -> ActivePiece {
    for &(dx, dy) in kicks(piece.kind, piece.rotation, turn) {
        let candidate = ActivePiece {
            rotation: turn.apply(piece.rotation),
            x: piece.x + dx,
            y: piece.y + dy,
            ..piece
        };
        if matrix.fits(&candidate) {
            return candidate;
        }
    }
    piece
}

/// Boards that press pieces against the floor, the walls and uneven stacks.
const BOARDS: [&[&str]; 4] = [
    &[".........."],
    &["X........X", "XX......XX", "XXX....XXX", "XXXX..XXXX"],
    &["...X..X...", ".X..XX..X.", "XX.X..X.XX", "X.XXX.XX.X"],
    &[
        "XXXX.XXXXX",
        "XXX...XXXX",
        "XXXX.XXXXX",
        "XXX...XXXX",
        "XX.....XXX",
    ],
];

#[test]
fn every_rotation_of_every_piece_against_walls_floor_and_stacks() {
    let mut kicked = 0;
    let mut blocked = 0;
    for board in BOARDS {
        let matrix = Matrix::from_text_rows(board).unwrap();
        for kind in PieceKind::ALL {
            for rotation in Rotation::ALL {
                for turn in [Turn::Clockwise, Turn::CounterClockwise, Turn::Half] {
                    for x in -2..10 {
                        for y in -2..8 {
                            let start = ActivePiece {
                                kind,
                                rotation,
                                x,
                                y,
                            };
                            let mut game = zen_game(board, kind);
                            if !game.set_active(start) {
                                continue;
                            }
                            let got = rotate(&mut game, turn);
                            let want = expected_rotation(&matrix, start, turn);
                            assert_eq!(
                                got, want,
                                "{kind:?} {rotation:?} {turn:?} at ({x},{y}) on {board:?}"
                            );
                            if got == start {
                                blocked += 1;
                            } else if (got.x, got.y) != (start.x, start.y) {
                                kicked += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    // The boards really exercise kicks and failed rotations, not just free space.
    assert!(kicked > 50, "{kicked}");
    assert!(blocked > 50, "{blocked}");
}

#[test]
fn hand_checked_wall_and_floor_kicks() {
    // Vertical I against the left wall turning clockwise: tests 1 and 2 leave the matrix,
    // test 3 (+2, 0) fits.
    let mut game = zen_game(&[".........."], PieceKind::I);
    let start = ActivePiece {
        kind: PieceKind::I,
        rotation: Rotation::Right,
        x: -2,
        y: 5,
    };
    assert!(game.set_active(start));
    let got = rotate(&mut game, Turn::Clockwise);
    assert_eq!((got.rotation, got.x, got.y), (Rotation::Reverse, 0, 5));
    assert_eq!(got.cells().map(|c| c.0), [0, 1, 2, 3]);

    // Vertical I (state L) against the right wall turning clockwise back to spawn: (−2, 0).
    let mut game = zen_game(&[".........."], PieceKind::I);
    let start = ActivePiece {
        kind: PieceKind::I,
        rotation: Rotation::Left,
        x: 8,
        y: 5,
    };
    assert!(game.set_active(start));
    let got = rotate(&mut game, Turn::Clockwise);
    assert_eq!((got.rotation, got.x, got.y), (Rotation::Spawn, 6, 5));

    // T flat on the floor turning clockwise: the floor refuses tests 1 and 2, test 3 (−1, +1).
    let mut game = zen_game(&[".........."], PieceKind::T);
    let start = ActivePiece {
        kind: PieceKind::T,
        rotation: Rotation::Spawn,
        x: 4,
        y: -1,
    };
    assert!(game.set_active(start));
    let got = rotate(&mut game, Turn::Clockwise);
    assert_eq!((got.rotation, got.x, got.y), (Rotation::Right, 3, 0));

    // O never kicks, and its cells never move.
    let mut game = zen_game(&["XXXXX.XXXX"], PieceKind::O);
    let before = *game.active().unwrap();
    for turn in [Turn::Clockwise, Turn::CounterClockwise, Turn::Half] {
        let after = rotate(&mut game, turn);
        assert_eq!((after.x, after.y), (before.x, before.y));
        assert_eq!(after.cells(), before.cells());
    }

    // 180° from spawn on the floor: (0,0) leaves the matrix, (0,+1) fits.
    let mut game = zen_game(&[".........."], PieceKind::T);
    let start = ActivePiece {
        kind: PieceKind::T,
        rotation: Rotation::Spawn,
        x: 4,
        y: -1,
    };
    assert!(game.set_active(start));
    let got = rotate(&mut game, Turn::Half);
    assert_eq!((got.rotation, got.x, got.y), (Rotation::Reverse, 4, 0));
}

/// A T-spin triple that only fits with the fifth SRS test (−1, −2): the T slides under the
/// roof, tests 1–4 are blocked, and the rotation drops it into the three-deep slot.
const TST: &str = "
sdf instant
queue T
board XXXX......
board XXX.......
board XXX.XXXXXX
board XXX..XXXXX
board XXX.XXXXXX
0 right
right
soft_drop     # lands on the stack (16 rows of soft drop)
left
left          # tucked under the roof
rotate_cw     # kick test 5
hard_drop
";

#[test]
fn t_spin_triple_needs_the_fifth_kick() {
    let snapshot = simulate(1, TST).unwrap();
    assert_eq!(snapshot.lines, 3);
    let clear = snapshot.last_clear.unwrap();
    assert_eq!(clear.t_spin, TSpin::Full);
    assert_eq!(clear.points, 1600);
    assert_eq!(snapshot.score, 16 + 1600);
    let bottom: Vec<&str> = snapshot
        .board
        .iter()
        .rev()
        .take(2)
        .map(String::as_str)
        .collect();
    assert_eq!(bottom, ["XXX.......", "XXXX......"]);

    // Without the roof-side tuck the same rotation has nowhere to go: a plain hard drop from
    // the landing spot is no T-spin and clears nothing.
    let plain = TST.replace("rotate_cw     # kick test 5\n", "");
    let snapshot = simulate(1, &plain).unwrap();
    assert_eq!(snapshot.lines, 0);
    assert_eq!(snapshot.last_clear, None);
}

/// A T-spin double reached with the third test (−1, −1) of L→2: the obvious in-place
/// rotation is blocked by the block at column 4.
const TSD: &str = "
sdf instant
queue T
board XX..X.....
board X...XXXXXX
board XX.XXXXXXX
0 rotate_ccw
left
soft_drop
rotate_ccw
hard_drop
";

#[test]
fn t_spin_double_needs_a_kick() {
    let snapshot = simulate(1, TSD).unwrap();
    assert_eq!(snapshot.lines, 2);
    let clear = snapshot.last_clear.unwrap();
    assert_eq!(clear.t_spin, TSpin::Full);
    assert_eq!(snapshot.score, 17 + 1200);
    assert_eq!(snapshot.board.last().unwrap(), "XX..X.....");
}

/// A T-spin mini single: the T kicks (−1, −1) into a floor notch with only one front corner.
#[test]
fn t_spin_mini_single() {
    let script = "
sdf instant
queue T
board X..X......
board ...XXXXXXX
0 rotate_ccw
left
left
soft_drop
rotate_cw
hard_drop
";
    let snapshot = simulate(1, script).unwrap();
    assert_eq!(snapshot.lines, 1);
    let clear = snapshot.last_clear.unwrap();
    assert_eq!(clear.t_spin, TSpin::Mini);
    assert_eq!(clear.points, 200);
    assert_eq!(snapshot.score, 18 + 200);
    assert_eq!(snapshot.board.last().unwrap(), "XT.X......");
}

/// The same tuck as the T-spin triple, but with the lower front corner open: by the corners
/// alone it would be a mini, yet the fifth kick test makes it a full T-spin double.
#[test]
fn the_fifth_kick_upgrades_a_mini() {
    let script = TST.replace("board XXX.XXXXXX\n0 right", "board XXX..XXXXX\n0 right");
    assert_ne!(script, TST);
    let snapshot = simulate(1, &script).unwrap();
    let clear = snapshot.last_clear.unwrap();
    assert_eq!((clear.lines, clear.t_spin), (2, TSpin::Full));
    assert_eq!(clear.points, 1200);
    assert_eq!(snapshot.board.last().unwrap(), "XXXT.XXXXX");
}
