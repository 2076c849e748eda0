//! What the endgame tables say about a position, in the words every front
//! end shows: the terminal and web boards ("Tablebase: Red wins in 7"), the
//! position editor, and the UCI/UCCI shells (`info string tablebase win in 7`).

use xiangqi::Position;
use xiangqi::tablebase::{Report, Tablebases, Verdict};

/// The process's tables (see [`crate::store::tablebases::shared`]).
pub fn shared() -> Option<std::sync::Arc<Tablebases>> {
    crate::store::tablebases::shared()
}

/// "Tablebase: Red wins in 7" (moves), "Tablebase: draw", or `None` if no
/// table covers the position or it has no attacking piece left (the rules
/// already call that a draw).
pub fn label(tables: &Tablebases, pos: &Position) -> Option<String> {
    let material = xiangqi::tablebase::Material::of(pos);
    if !material.has_attackers(xiangqi::Color::Red)
        && !material.has_attackers(xiangqi::Color::Black)
    {
        return None;
    }
    let verdict = tables.probe(pos)?;
    Some(format!("Tablebase: {}", Report::new(verdict, pos.turn())))
}

/// The label of a position with the process's tables.
pub fn shared_label(pos: &Position) -> Option<String> {
    label(shared()?.as_ref(), pos)
}

/// The shells' report for the side to move: "tablebase win in 7",
/// "tablebase loss in 6", "tablebase draw" (moves, as `score mate` counts).
pub fn info_string(tables: &Tablebases, pos: &Position) -> Option<String> {
    let verdict = tables.probe(pos)?;
    let report = Report::new(verdict, pos.turn());
    Some(match verdict {
        Verdict::Win(_) => format!("tablebase win in {}", report.moves()),
        Verdict::Loss(_) => format!("tablebase loss in {}", report.moves()),
        Verdict::Draw => "tablebase draw".to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::tablebase::{Material, generate};

    fn kr_k() -> Tablebases {
        let mut tb = Tablebases::new();
        let t = generate(Material::parse("KR-K").unwrap(), &tb, &mut |_| true).unwrap();
        tb.insert(t);
        tb
    }

    #[test]
    fn labels_and_info_strings() {
        let tb = kr_k();
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
        let Some(Verdict::Win(d)) = tb.probe(&pos) else {
            panic!()
        };
        let n = d.div_ceil(2);
        assert_eq!(
            label(&tb, &pos).unwrap(),
            format!("Tablebase: Red wins in {n}")
        );
        assert_eq!(
            info_string(&tb, &pos).unwrap(),
            format!("tablebase win in {n}")
        );
        let black = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 b").unwrap();
        assert!(
            info_string(&tb, &black)
                .unwrap()
                .starts_with("tablebase loss in ")
        );
        assert!(
            label(&tb, &black)
                .unwrap()
                .starts_with("Tablebase: Red wins in ")
        );
        // Not covered, and bare generals (a draw by the rules, not a table).
        assert_eq!(label(&tb, &Position::startpos()), None);
        let bare = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w").unwrap();
        assert_eq!(label(&tb, &bare), None);
    }
}
