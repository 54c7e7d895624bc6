//! Static evaluation: how good a position looks for the side to move, in
//! hundredths of a man. Two judges share the terms below: the classic one,
//! whose weights are named here, and the learned one (`patterns`), whose
//! weights were fitted on self-play games.

pub mod patterns;

use super::bitboard::{single_bits, Direction};
use super::geometry::{Geometry, Word};
use super::{Color, Position};

/// Which evaluation a search uses.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Evaluation {
    /// The hand-set weights below: material, kings and placement.
    #[default]
    Classic,
    /// The weights fitted by `dames tune` (the terms below, patterns of men
    /// in 16 regions of the board and a few whole-board terms), for
    /// international draughts; other rule sets fall back to the classic
    /// weights.
    Learned,
    /// Learned weights read from a file at run time (`--weights`), to
    /// measure a fit before the build ships it.
    Fitted(&'static patterns::Weights),
}

impl Evaluation {
    pub const fn name(self) -> &'static str {
        match self {
            Evaluation::Classic => "classic",
            Evaluation::Learned => "learned",
            Evaluation::Fitted(_) => "fitted",
        }
    }
}

impl std::str::FromStr for Evaluation {
    type Err = String;
    fn from_str(s: &str) -> Result<Evaluation, String> {
        match s {
            "classic" => Ok(Evaluation::Classic),
            "learned" => Ok(Evaluation::Learned),
            _ => Err(format!("unknown evaluation {s:?} (classic or learned)")),
        }
    }
}

/// A man on the board.
pub const MAN: i32 = 100;
/// A king: it flies and captures backwards, worth about three men.
pub const KING: i32 = 320;
/// A king that moves one square at a time (English draughts): worth about
/// one and a half men.
pub const SHORT_KING: i32 = 150;
/// The sum of the row numbers (0 at the top) of `men`, read bit by bit
/// from the row-number masks.
#[inline(always)]
pub(crate) fn row_sum<G: Geometry>(men: G::Word) -> i32 {
    G::ROW_NUMBER_BITS.iter().enumerate().map(|(k, mask)| ((men & *mask).count_ones() as i32) << k).sum()
}

/// Per row a man has advanced from its own back row: men that move up gain
/// space and come closer to a crown.
pub const ADVANCE_PER_ROW: i32 = 3;
/// A man on one of the central squares (22–24, 27–29 on 10×10), which
/// control both wings.
pub const CENTRE: i32 = 8;
/// A man still on the back-row squares that stop the opponent's crowning
/// (47, 48, 49 for White and 2, 3, 4 for Black on 10×10), while there are
/// many pieces.
pub const BACK_GUARD: i32 = 10;
/// A man with both squares behind it filled or at the edge: it cannot be
/// jumped from the front.
pub const SUPPORTED: i32 = 4;
/// A man one row from its crown with a free square ahead, by rows left (1
/// or 2): nearly a king.
pub const RUNAWAY: [i32; 3] = [0, 60, 25];
/// Per square a king can move to: active kings win endgames.
pub const KING_MOBILITY: i32 = 2;
/// When ahead, each ply without a man move or capture costs this much, so
/// that the side ahead makes progress instead of drifting into the no-progress
/// draw.
pub const SHUFFLE_PENALTY: i32 = 2;
/// Below this share of the pieces the game starts with (two in five: 16 of
/// 40 on 10×10), the back guard no longer matters.
const GUARD_MIN_SHARE: (u32, u32) = (2, 5);

/// The terms both evaluations weigh, one count per side: see [`Terms`].
pub const TERMS: usize = 10;

/// One side's counts of what the evaluation weighs, in this order: men,
/// kings, rows the men advanced, men in the centre, men guarding the back
/// row (while enough pieces remain), supported men, runaways one row and two
/// rows from the crown, king mobility (squares the kings can move to), and
/// the move (1 for the side to move).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Terms(pub [i32; TERMS]);

impl Terms {
    /// White's counts less Black's.
    pub fn difference<G: Geometry>(pos: &Position<G>) -> Terms {
        let guard_counts = guard_counts(pos);
        let white = side_terms(pos, Color::White, guard_counts).0;
        let black = side_terms(pos, Color::Black, guard_counts).0;
        Terms(std::array::from_fn(|i| white[i] - black[i]))
    }

    /// The weighted sum.
    #[inline]
    pub fn weigh(&self, weights: &[i32; TERMS]) -> i32 {
        self.0.iter().zip(weights).map(|(t, w)| t * w).sum()
    }
}

/// The classic weights of the terms, with flying or short kings.
pub const fn classic_weights(flying: bool) -> [i32; TERMS] {
    let king = if flying { KING } else { SHORT_KING };
    [MAN, king, ADVANCE_PER_ROW, CENTRE, BACK_GUARD, SUPPORTED, RUNAWAY[1], RUNAWAY[2], KING_MOBILITY, 0]
}

/// The score of `pos` for the side to move, by the classic weights.
/// `king_only_plies` is the no-progress count (25 moves each in
/// international draughts), which makes a won position worth less the longer
/// it shuffles.
pub fn evaluate<G: Geometry>(pos: &Position<G>, king_only_plies: u32) -> i32 {
    evaluate_with(Evaluation::Classic, pos, king_only_plies)
}

/// The score of `pos` for the side to move, by `evaluation`.
#[inline]
pub fn evaluate_with<G: Geometry>(evaluation: Evaluation, pos: &Position<G>, king_only_plies: u32) -> i32 {
    let (mut score, learned) = match evaluation {
        Evaluation::Learned if patterns::applies(pos) => (patterns::white_score(pos), true),
        Evaluation::Fitted(weights) if patterns::applies(pos) => (patterns::white_score_with(weights, pos), true),
        _ => (Terms::difference(pos).weigh(&classic_weights(pos.rules.flying())), false),
    };
    score = scale_drawish(pos, score, learned);
    if score != 0 {
        let penalty = (SHUFFLE_PENALTY * king_only_plies as i32).min(score.abs() / 2);
        score -= penalty * score.signum();
    }
    match pos.turn() {
        Color::White => score,
        Color::Black => -score,
    }
}

/// Whether enough pieces remain for the back guard to matter.
fn guard_counts<G: Geometry>(pos: &Position<G>) -> bool {
    pos.occupied().count() >= pos.rules.men_per_side() as u32 * 2 * GUARD_MIN_SHARE.0 / GUARD_MIN_SHARE.1
}

/// One side's [`Terms`]; `guard_counts`: enough pieces remain for the back
/// guard to matter.
fn side_terms<G: Geometry>(pos: &Position<G>, color: Color, guard_counts: bool) -> Terms {
    let men = pos.men(color).0;
    let kings = pos.kings_of(color).0;
    let own = pos.pieces(color).0;
    let empty = pos.empty().0;
    let flying = pos.rules.flying();
    let mut terms = [0; TERMS];
    terms[0] = men.count_ones() as i32;
    terms[1] = kings.count_ones() as i32;
    let last_row = G::SIZE as usize - 1;

    // Rows advanced, counted from the man's own back row.
    let row_sum = row_sum::<G>(men);
    terms[2] = match color {
        Color::White => last_row as i32 * men.count_ones() as i32 - row_sum,
        Color::Black => row_sum,
    };
    terms[3] = (men & G::CENTRE).count_ones() as i32;
    if guard_counts {
        let guard = match color {
            Color::White => G::WHITE_GUARD,
            Color::Black => G::BLACK_GUARD,
        };
        terms[4] = (men & guard).count_ones() as i32;
    }
    // Supported: the two squares behind are own pieces or off the board.
    let (back_left, back_right) = match color {
        Color::White => (Direction::SouthWest, Direction::SouthEast),
        Color::Black => (Direction::NorthWest, Direction::NorthEast),
    };
    let home_row = match color {
        Color::White => G::ROWS[last_row],
        Color::Black => G::ROWS[0],
    };
    let covered_left = back_left.opposite().shift::<G>(own) | G::LEFT_EDGE | home_row;
    let covered_right = back_right.opposite().shift::<G>(own) | G::RIGHT_EDGE | home_row;
    terms[5] = (men & covered_left & covered_right).count_ones() as i32;

    // Runaways: one or two rows from the crown with a free square ahead.
    let [ahead_a, ahead_b] = match color {
        Color::White => [Direction::NorthWest, Direction::NorthEast],
        Color::Black => [Direction::SouthWest, Direction::SouthEast],
    };
    let free_ahead = ahead_a.opposite().shift::<G>(empty) | ahead_b.opposite().shift::<G>(empty);
    for rows_left in 1..=2 {
        let row = match color {
            Color::White => rows_left,
            Color::Black => last_row - rows_left,
        };
        terms[5 + rows_left] = (men & G::ROWS[row] & free_ahead).count_ones() as i32;
    }

    // King mobility.
    for king in single_bits(kings) {
        for d in Direction::ALL {
            let mut sq = d.shift::<G>(king);
            while sq & empty != G::Word::ZERO {
                terms[8] += 1;
                if !flying {
                    break;
                }
                sq = d.shift::<G>(sq);
            }
        }
    }
    terms[9] = (pos.turn() == color) as i32;
    Terms(terms)
}

/// Endings the weaker side holds with a king are draws in practice, so
/// their score keeps its sign but shrinks: the search still prefers them
/// to a real loss and seeks real wins elsewhere.
///
/// With flying kings, kings-only endings with a small edge: one king holds
/// off up to three, and two hold off four when the stronger side has no
/// man left to crown. With `kings_hold` (the learned evaluation, whose
/// patterns, fitted position by position, do not see it; the classic one
/// keeps its pinned judgement), men or no men: three pieces or fewer
/// seldom beat a king, and with as many kings on each side a man more is
/// seldom enough (Scan 2.0's evaluation scales the same way).
fn scale_drawish<G: Geometry>(pos: &Position<G>, score: i32, kings_hold: bool) -> i32 {
    let strong = if score >= 0 { Color::White } else { Color::Black };
    // Truncated divisions in a row are one by their product.
    score / drawish_divisor(pos, strong, kings_hold)
}

/// What [`scale_drawish`] divides the score of `pos` by when `strong` is
/// ahead: 1 where nothing holds. (`dames tune fit --drawish 1` fits the
/// patterns through it.)
pub fn drawish_divisor<G: Geometry>(pos: &Position<G>, strong: Color, kings_hold: bool) -> i32 {
    // Kings that step one square at a time do not hold such endings.
    if !pos.rules.flying() {
        return 1;
    }
    let weak = !strong;
    let weak_kings = pos.kings_of(weak).count();
    if weak_kings == 0 {
        return 1;
    }
    let strong_men = pos.men(strong).count();
    let strong_pieces = pos.pieces(strong).count();
    let mut divisor = 1;
    if kings_hold {
        if strong_pieces <= 3 {
            divisor = 8;
        } else if pos.kings_of(strong).count() == weak_kings && strong_men.abs_diff(pos.men(weak).count()) <= 1 {
            divisor = 2;
        }
    }
    let weak_pieces = pos.pieces(weak).count();
    if strong_men == 0 {
        let holds = (weak_pieces == 1 && strong_pieces <= 3) || (weak_pieces == 2 && strong_pieces <= 4);
        if holds || strong_pieces <= weak_pieces {
            divisor *= 16;
        }
    }
    divisor
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_is_balanced_and_material_counts() {
        let start = Position::start();
        assert_eq!(evaluate(&start, 0), 0);
        assert_eq!(evaluate(&start.with_turn(Color::Black), 0), 0);
        let up = Position::from_fen("W:W31-50:B2-20").unwrap();
        assert!(evaluate(&up, 0) > MAN / 2);
        assert!(evaluate(&up.with_turn(Color::Black), 0) < -MAN / 2);
    }

    #[test]
    fn every_board_starts_balanced() {
        use crate::any::AnyPosition;
        for spec in ["english", "russian", "brazilian", "international,size=12"] {
            match AnyPosition::initial(crate::Rules::parse(spec).unwrap()).unwrap() {
                AnyPosition::Eight(p) => assert_eq!(evaluate(&p, 0), 0, "{spec}"),
                AnyPosition::Ten(p) => assert_eq!(evaluate(&p, 0), 0, "{spec}"),
                AnyPosition::Twelve(p) => assert_eq!(evaluate(&p, 0), 0, "{spec}"),
            }
        }
    }

    #[test]
    fn a_king_on_the_weaker_side_shrinks_the_learned_score() {
        let shrunk = |fen: &str, score: i32| scale_drawish(&Position::from_fen(fen).unwrap(), score, true);
        // A king each, a man more: half.
        assert_eq!(shrunk("W:WK46,30,31,32,33:BK5,18,19,20", 200), 100);
        // Black the stronger, the same: the sign is kept.
        assert_eq!(shrunk("W:WK46,30,31,32:BK5,17,18,19,20", -200), -100);
        // Three pieces against a king: an eighth.
        assert_eq!(shrunk("W:WK46,30,31:BK5,18", 400), 50);
        // No king on the weaker side, or two men more, or a king more for
        // the stronger side: unchanged.
        assert_eq!(shrunk("W:WK46,30,31,32,33:B17,18,19,20", 200), 200);
        assert_eq!(shrunk("W:WK46,29,30,31,32,33:BK5,18,19,20", 200), 200);
        assert_eq!(shrunk("W:WK46,K47,30,31,32:BK5,18,19,20", 200), 200);
        // The classic evaluation, whose replies are pinned, is not scaled.
        let pos = Position::from_fen("W:WK46,30,31,32,33:BK5,18,19,20").unwrap();
        let classic = Terms::difference(&pos).weigh(&classic_weights(true));
        assert_eq!(evaluate(&pos, 0), classic);
    }

    #[test]
    fn lone_king_against_three_kings_is_drawish() {
        let pos = Position::from_fen("W:WK46,K47,K48:BK5").unwrap();
        assert!(evaluate(&pos, 0) < MAN);
        let won = Position::from_fen("W:WK46,K47,K48,40:BK5").unwrap();
        assert!(evaluate(&won, 0) > 4 * MAN);
    }
}
