//! Analysis: the engine searches the position on screen without moving and
//! reports its best [`ANALYSIS_LINES`] lines, until stopped; it follows the
//! position as the player steps through the game or moves a piece. The
//! session keeps the lines ([`Analysis`]) and writes them for a screen
//! ([`Analysis::views`]) in the notation the player chose, so the terminal
//! and the browser show the same thing.

use xiangqi::engine::SearchInfo;
use xiangqi::{Move, Position};

use super::flow::{self, Characters, Notation};

/// Lines the analysis reports (UCI `MultiPV`).
pub const ANALYSIS_LINES: usize = 3;

/// The engine's lines for the position on screen.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Stopped by the player: the lines are kept, no search runs.
    pub(super) paused: bool,
    /// The position analysed is the one after this many plies of the game.
    pub(super) ply: usize,
    pub(super) root: Position,
    /// The latest report of each line, best first (index `multipv - 1`).
    pub(super) lines: Vec<SearchInfo>,
    /// The search ended by itself (a mate found, the deepest depth reached).
    pub(super) finished: bool,
}

/// One line written for a screen.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LineView {
    /// 1 for the best line.
    pub rank: u32,
    pub depth: u32,
    /// The score in words, from Red's view ("Red +0.35", "Black mates in 3").
    pub score: String,
    /// The score as one number from Red's view, for bars and graphs.
    pub value: i32,
    /// The moves of the line in the chosen notation.
    pub moves: Vec<String>,
    /// The same moves in coordinates (`h2e2`), for boards to draw arrows.
    pub coordinates: Vec<String>,
}

impl Analysis {
    pub(super) fn new(ply: usize, root: Position) -> Analysis {
        Analysis {
            paused: false,
            ply,
            root,
            lines: Vec::new(),
            finished: false,
        }
    }

    /// Whether the player stopped it.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Whether the search ended by itself (nothing deeper to find).
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// The analysed position is the one after this many plies of the game.
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// The analysed position.
    pub fn root(&self) -> &Position {
        &self.root
    }

    /// The latest report of each line, best first.
    pub fn lines(&self) -> &[SearchInfo] {
        &self.lines
    }

    /// The deepest completed depth of the best line (0 before the first report).
    pub fn depth(&self) -> u32 {
        self.lines.first().map_or(0, |l| l.depth)
    }

    /// Nodes searched per second by the latest report of the best line.
    pub fn nodes_per_second(&self) -> u64 {
        self.lines
            .first()
            .map_or(0, |l| l.nodes * 1000 / l.elapsed_ms.max(1))
    }

    /// A search of the same position started again: the old lines stay shown
    /// until the new ones replace them.
    pub(super) fn restarted(&mut self) {
        self.finished = false;
    }

    /// A report of search line `info.multipv`.
    pub(super) fn report(&mut self, info: SearchInfo) {
        let index = (info.multipv.max(1) as usize - 1).min(ANALYSIS_LINES - 1);
        if index == 0 {
            // A new best line; the old lines stay shown below it until the
            // search reports them again, except the one starting the same way.
            let first = info.pv.first().copied();
            self.lines.retain(|l| l.pv.first().copied() != first);
            self.lines.insert(0, info);
            self.lines.truncate(ANALYSIS_LINES);
            return;
        }
        if self.lines.len() < index {
            return; // a line reported before the ones above it: wait for them
        }
        if self.lines.len() == index {
            self.lines.push(info);
        } else {
            self.lines[index] = info;
        }
    }

    /// The lines written for a screen: at most `max_moves` moves each, in
    /// `notation` with `chars`, stopping at anything not legal.
    pub fn views(&self, notation: Notation, chars: Characters, max_moves: usize) -> Vec<LineView> {
        let searcher = self.root.turn();
        self.lines
            .iter()
            .enumerate()
            .map(|(i, line)| {
                let (moves, coordinates) =
                    written(&self.root, &line.pv, max_moves, notation, chars);
                LineView {
                    rank: i as u32 + 1,
                    depth: line.depth,
                    score: flow::score_text(line.score, searcher),
                    value: flow::red_value(line.score, searcher),
                    moves,
                    coordinates,
                }
            })
            .collect()
    }
}

/// `moves` from `pos` in `notation` and in coordinates, at most `max`.
fn written(
    pos: &Position,
    moves: &[Move],
    max: usize,
    notation: Notation,
    chars: Characters,
) -> (Vec<String>, Vec<String>) {
    let mut p = pos.clone();
    let mut words = Vec::new();
    let mut coordinates = Vec::new();
    for &m in moves.iter().take(max) {
        if !p.is_legal(m) {
            break;
        }
        words.push(notation.write(&p, m, chars));
        coordinates.push(m.to_string());
        p.make_move(m);
    }
    (words, coordinates)
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::engine::Score;

    fn info(multipv: u32, depth: u32, cp: i32, pv: &[&str]) -> SearchInfo {
        let mut pos = Position::startpos();
        let moves = pv
            .iter()
            .map(|t| {
                let m = pos.parse_move(t).expect("legal");
                pos.make_move(m);
                m
            })
            .collect();
        SearchInfo {
            multipv,
            depth,
            seldepth: depth,
            score: Score::Cp(cp),
            nodes: 1000,
            elapsed_ms: 10,
            pv: moves,
        }
    }

    #[test]
    fn lines_are_kept_by_rank_and_a_new_best_drops_its_stale_twin() {
        let mut a = Analysis::new(0, Position::startpos());
        a.report(info(1, 5, 30, &["h2e2", "h9g7"]));
        a.report(info(2, 5, 20, &["b2e2"]));
        a.report(info(3, 5, 10, &["c3c4"]));
        assert_eq!(a.lines().len(), 3);
        assert_eq!(a.depth(), 5);
        // The next depth's best is the old second line: it moves up, the
        // old best shown below it until reported again.
        a.report(info(1, 6, 25, &["b2e2"]));
        let firsts: Vec<String> = a.lines().iter().map(|l| l.pv[0].to_string()).collect();
        assert_eq!(firsts, ["b2e2", "h2e2", "c3c4"]);
        assert_eq!(a.lines()[1].depth, 5);
        a.report(info(2, 6, 22, &["h2e2"]));
        a.report(info(3, 6, 5, &["g3g4"]));
        let firsts: Vec<String> = a.lines().iter().map(|l| l.pv[0].to_string()).collect();
        assert_eq!(firsts, ["b2e2", "h2e2", "g3g4"]);
    }

    #[test]
    fn a_line_reported_before_those_above_it_waits() {
        let mut a = Analysis::new(0, Position::startpos());
        a.report(info(3, 5, 10, &["c3c4"]));
        assert!(a.lines().is_empty());
    }

    #[test]
    fn views_write_scores_from_reds_side_in_the_chosen_notation() {
        let mut root = Position::startpos();
        root.make_move(root.parse_move("h2e2").expect("legal"));
        let mut a = Analysis::new(1, root.clone());
        let mut line = info(1, 4, 40, &[]);
        line.pv = vec![root.parse_move("h9g7").expect("legal")];
        a.report(line);
        let views = a.views(Notation::Wxf, Characters::Traditional, 8);
        assert_eq!(views[0].moves, ["H8+7"]);
        assert_eq!(views[0].coordinates, ["h9g7"]);
        // Black searched and is better by 0.40: Black +0.40 from Red's view.
        assert_eq!(views[0].score, "Black +0.40");
        assert_eq!(views[0].value, -40);
    }
}
