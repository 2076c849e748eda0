//! Static exchange evaluation: what a capture wins once both sides have
//! recaptured on its square, each with its least valuable piece and each free
//! to stop when going on would cost more. Pins and checks are ignored, as
//! usual; a cannon's screen is whatever stands between when its turn comes,
//! so pieces leaving the line open and close screens as they would in play.

use super::pst::VALUES;
use crate::movegen::least_valuable_attacker;
use crate::moves::Move;
use crate::piece::Role;
use crate::position::Position;

/// The general, as a recapturer, counts as worth more than everything else:
/// taking with it on a defended square is never worth it.
const GENERAL_VALUE: i32 = 10_000;

fn piece_value(code: u8) -> i32 {
    match code & 7 {
        g if g == Role::General as u8 => GENERAL_VALUE,
        role => VALUES[role as usize],
    }
}

/// Whether the capture `m` loses material in the exchange on its square.
/// Taking a piece worth at least the capturer never does (the worst reply
/// takes the capturer back), so only the other captures are played out.
pub(crate) fn loses_exchange(pos: &Position, m: Move) -> bool {
    let value = |code: u8| VALUES[(code & 7) as usize];
    value(pos.board[m.to.index()]) < value(pos.board[m.from.index()]) && see(pos, m) < 0
}

/// The material the side to move wins by the capture `m` and the exchange
/// on its square that follows (negative: the capture loses material).
///
/// ```
/// use xiangqi::{Move, Position};
/// use xiangqi::engine::see;
/// // The red chariot takes a soldier defended by a horse: it loses 850.
/// let pos = Position::from_fen("4k4/9/9/6n2/4p4/9/9/9/9/4RK3 w").unwrap();
/// assert_eq!(see(&pos, Move::parse_iccs("e0e5").unwrap()), 100 - 950);
/// ```
pub fn see(pos: &Position, m: Move) -> i32 {
    let mut b = pos.board;
    let (from, to) = (m.from.index(), m.to.index());
    // gains[d]: what the side making capture d has won so far, if the other
    // side stops there.
    let mut gains = [0i32; 32];
    gains[0] = piece_value(b[to]);
    let mut on_square = b[from];
    b[to] = on_square;
    b[from] = 0;
    let mut them = (on_square & 8) ^ 8;
    let mut d = 0;
    while d + 1 < gains.len() {
        let Some(s) = least_valuable_attacker(&b, to, them) else {
            break;
        };
        d += 1;
        gains[d] = piece_value(on_square) - gains[d - 1];
        on_square = b[s];
        b[to] = on_square;
        b[s] = 0;
        them ^= 8;
    }
    // Each side in turn recaptures only if that beats stopping.
    while d > 0 {
        gains[d - 1] = -(-gains[d - 1]).max(gains[d]);
        d -= 1;
    }
    gains[0]
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn see_of(fen: &str, iccs: &str) -> i32 {
        see(
            &Position::from_fen(fen).unwrap(),
            Move::parse_iccs(iccs).unwrap(),
        )
    }

    #[test]
    fn an_undefended_piece_is_won_whole() {
        assert_eq!(see_of("4k4/9/9/9/4n4/9/9/9/9/4RK3 w", "e0e5"), 420);
    }

    #[test]
    fn a_defended_piece_costs_the_capturer_its_value() {
        // The chariot takes a horse that a chariot defends.
        assert_eq!(see_of("4k4/9/9/4r4/4n4/9/9/9/9/4RK3 w", "e0e5"), 420 - 950);
        // A soldier takes the same horse and is lost for it.
        assert_eq!(see_of("4k4/9/9/4r4/4n4/4P4/9/9/9/3K5 w", "e4e5"), 420 - 100);
    }

    #[test]
    fn recaptures_go_on_while_they_pay() {
        // Horse takes a soldier defended by a horse (its leg d6 is free).
        let alone = "4k4/9/9/2n6/4p4/9/3N5/9/9/3K5 w";
        assert_eq!(see_of(alone, "d3e5"), 100 - 420);
        // With a chariot behind on the file, Red takes back the horse and
        // keeps the soldier.
        let backed = "4k4/9/9/2n6/4p4/9/3N5/9/9/3KR4 w";
        assert_eq!(see_of(backed, "d3e5"), 100);
    }

    #[test]
    fn a_cannon_joins_once_the_line_leaves_it_one_screen() {
        // The chariot on e2 takes the horse on e6 and the chariot on e8 takes
        // it back. With nothing else on the file the cannon on e0 has no
        // screen then, so the exchange loses the chariot.
        let no_screen = "5k3/4r4/9/4n4/9/9/9/4R4/9/3KC4 w";
        assert_eq!(see_of(no_screen, "e2e6"), 420 - 950);
        // With an advisor on e1 the cannon looks over two pieces at first;
        // once the chariot has gone, the advisor is its one screen and it
        // takes the black chariot.
        let screen = "5k3/4r4/9/4n4/9/9/9/4R4/4A4/3KC4 w";
        assert_eq!(see_of(screen, "e2e6"), 420);
    }

    #[test]
    fn the_general_does_not_recapture_on_a_defended_square() {
        // A black chariot takes the advisor next to the red general, with a
        // second black chariot behind it: the general must not take back.
        let fen = "5k3/9/9/9/9/9/9/4r4/4A4/4K4 b";
        // Only the one chariot: the general takes it (advisor for chariot).
        assert_eq!(see_of(fen, "e2e1"), 130 - 950);
        let defended = "5k3/9/9/9/9/4r4/9/4r4/4A4/4K4 b";
        assert_eq!(see_of(defended, "e2e1"), 130);
    }
}
