//! Reachable placements: breadth-first search over piece positions using shifts, SRS
//! rotations (with kicks, 180° included) and soft drops to the floor, so tucks and spins
//! under overhangs are found. Each placement keeps the shortest input path to it.

use super::BotMove;
use super::board::{BitBoard, Shapes};
use crate::piece::{ActivePiece, PieceKind, Rotation};
use crate::scoring::TSpin;
use crate::srs::{self, FIFTH_TEST, Turn};

const X_OFFSET: i8 = 3;
const Y_OFFSET: i8 = 3;
const X_SPAN: usize = 16;
const Y_SPAN: usize = 48;
/// How the piece last moved: 0 shift/drop, 1 rotation, 2 rotation by the fifth SRS test.
const SPIN_STATES: usize = 3;
const NODES: usize = 4 * X_SPAN * Y_SPAN * SPIN_STATES;
const NO_PARENT: u32 = u32::MAX;

/// A place a piece can lock, found by the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub piece: ActivePiece,
    pub t_spin: TSpin,
    node: u32,
}

fn encode(rotation: Rotation, x: i8, y: i8, spin: usize) -> usize {
    let rx = (rotation.index() * X_SPAN) + (x + X_OFFSET) as usize;
    (rx * Y_SPAN + (y + Y_OFFSET) as usize) * SPIN_STATES + spin
}

fn decode(node: usize) -> (Rotation, i8, i8, usize) {
    let spin = node % SPIN_STATES;
    let rest = node / SPIN_STATES;
    let y = (rest % Y_SPAN) as i8 - Y_OFFSET;
    let rest = rest / Y_SPAN;
    let x = (rest % X_SPAN) as i8 - X_OFFSET;
    (Rotation::from_index(rest / X_SPAN), x, y, spin)
}

/// Reusable search buffers (allocated once per bot).
pub struct MoveGen {
    stamp: u32,
    seen: Vec<u32>,
    parent: Vec<(u32, BotMove)>,
    queue: Vec<u32>,
}

impl Default for MoveGen {
    fn default() -> Self {
        MoveGen::new()
    }
}

impl MoveGen {
    pub fn new() -> MoveGen {
        MoveGen {
            stamp: 0,
            seen: vec![0; NODES],
            parent: vec![(NO_PARENT, BotMove::HardDrop); NODES],
            queue: Vec::with_capacity(1024),
        }
    }

    fn visit(&mut self, node: usize, from: u32, step: BotMove) {
        if self.seen[node] != self.stamp {
            self.seen[node] = self.stamp;
            self.parent[node] = (from, step);
            self.queue.push(node as u32);
        }
    }

    /// Every distinct placement of the piece reachable from `start`, into `out`.
    pub fn placements(
        &mut self,
        board: &BitBoard,
        shapes: &Shapes,
        start: ActivePiece,
        out: &mut Vec<Placement>,
    ) {
        out.clear();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        self.queue.clear();
        let kind = start.kind;
        if board.collides(shapes.get(kind, start.rotation), start.x, start.y) {
            return;
        }
        let start_node = encode(start.rotation, start.x, start.y, 0);
        self.visit(start_node, NO_PARENT, BotMove::HardDrop);
        let turns: &[(Turn, BotMove)] = if kind == PieceKind::O {
            &[]
        } else {
            &[
                (Turn::Clockwise, BotMove::RotateCw),
                (Turn::CounterClockwise, BotMove::RotateCcw),
                (Turn::Half, BotMove::Rotate180),
            ]
        };
        let mut head = 0;
        while let Some(&node) = self.queue.get(head) {
            head += 1;
            let (rotation, x, y, spin) = decode(node as usize);
            let shape = shapes.get(kind, rotation);
            for (dx, step) in [(-1, BotMove::Left), (1, BotMove::Right)] {
                if !board.collides(shape, x + dx, y) {
                    self.visit(encode(rotation, x + dx, y, 0), node, step);
                }
            }
            let floor = board.drop_y(shape, x, y);
            if floor < y {
                self.visit(encode(rotation, x, floor, 0), node, BotMove::SoftDrop);
            }
            for &(turn, step) in turns {
                let to = turn.apply(rotation);
                let to_shape = shapes.get(kind, to);
                for (test, &(kx, ky)) in srs::kicks(kind, rotation, turn).iter().enumerate() {
                    let (nx, ny) = (x + kx, y + ky);
                    if !board.collides(to_shape, nx, ny) {
                        let new_spin = match kind {
                            PieceKind::T if test == FIFTH_TEST && turn != Turn::Half => 2,
                            PieceKind::T => 1,
                            _ => 0,
                        };
                        self.visit(encode(to, nx, ny, new_spin), node, step);
                        break;
                    }
                }
            }
            if floor == y {
                let piece = ActivePiece {
                    kind,
                    rotation,
                    x,
                    y,
                };
                out.push(Placement {
                    piece,
                    t_spin: t_spin(board, &piece, spin),
                    node,
                });
            }
        }
        // Keep one placement per resulting cell set (S, Z and I have two states for each):
        // the stable sort keeps BFS order among equals, so the shortest path survives.
        // Spins stay distinct.
        out.sort_by_key(|p| signature(&p.piece, p.t_spin));
        out.dedup_by_key(|p| signature(&p.piece, p.t_spin));
    }

    /// The inputs from the start to a placement, ending with a hard drop.
    pub fn path(&self, placement: &Placement) -> Vec<BotMove> {
        let mut steps = Vec::new();
        let mut node = placement.node;
        while let Some(&(parent, step)) = self.parent.get(node as usize) {
            if parent == NO_PARENT {
                break;
            }
            steps.push(step);
            node = parent;
        }
        steps.reverse();
        // A final drop to the floor is what the hard drop does anyway.
        if steps.last() == Some(&BotMove::SoftDrop) {
            steps.pop();
        }
        steps.push(BotMove::HardDrop);
        steps
    }
}

fn signature(piece: &ActivePiece, t_spin: TSpin) -> u64 {
    let mut cells = piece.cells();
    cells.sort_unstable();
    let mut sig = t_spin as u64;
    for (x, y) in cells {
        sig = (sig << 12) | ((y as u64 & 0x3f) << 4) | (x as u64 & 0xf);
    }
    sig
}

/// Three-corner rule on the bitboard, as [`crate::scoring::detect_t_spin`].
fn t_spin(board: &BitBoard, piece: &ActivePiece, spin: usize) -> TSpin {
    if piece.kind != PieceKind::T || spin == 0 {
        return TSpin::None;
    }
    let (cx, cy) = (piece.x + 1, piece.y + 1);
    let top_left = board.is_blocked(cx - 1, cy + 1);
    let top_right = board.is_blocked(cx + 1, cy + 1);
    let bottom_left = board.is_blocked(cx - 1, cy - 1);
    let bottom_right = board.is_blocked(cx + 1, cy - 1);
    let corners = [top_left, top_right, bottom_left, bottom_right]
        .iter()
        .filter(|&&b| b)
        .count();
    if corners < 3 {
        return TSpin::None;
    }
    let front = match piece.rotation {
        Rotation::Spawn => top_left && top_right,
        Rotation::Right => top_right && bottom_right,
        Rotation::Reverse => bottom_left && bottom_right,
        Rotation::Left => top_left && bottom_left,
    };
    if front || spin == 2 {
        TSpin::Full
    } else {
        TSpin::Mini
    }
}
