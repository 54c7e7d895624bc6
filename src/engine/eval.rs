//! Static evaluation: how good a position looks for the side to move, in
//! hundredths of a man. Every weight is named here and nowhere else.

use super::bitboard::{single_bits, Direction};
use super::geometry::Ten;
use super::{Color, Position};

/// A man on the board.
pub const MAN: i32 = 100;
/// A king: it flies and captures backwards, worth about three men.
pub const KING: i32 = 320;
/// Per row a man has advanced from its own back row: men that move up gain
/// space and come closer to a crown.
pub const ADVANCE_PER_ROW: i32 = 3;
/// A man on one of the six central squares (22–24, 27–29), which control
/// both wings.
pub const CENTRE: i32 = 8;
/// A man still on the back-row squares that stop the opponent's crowning
/// (47, 48, 49 for White; 2, 3, 4 for Black), while there are many pieces.
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
/// that the side ahead makes progress instead of drifting into the 25-move
/// draw.
pub const SHUFFLE_PENALTY: i32 = 2;
/// Below this many pieces in all the back guard no longer matters.
pub const GUARD_MIN_PIECES: u32 = 16;

const CENTRE_SQUARES: u64 = sq_bits(&[22, 23, 24, 27, 28, 29]);
const WHITE_GUARD: u64 = sq_bits(&[47, 48, 49]);
const BLACK_GUARD: u64 = sq_bits(&[2, 3, 4]);
const LEFT_EDGE: u64 = sq_bits(&[6, 16, 26, 36, 46]);
const RIGHT_EDGE: u64 = sq_bits(&[5, 15, 25, 35, 45]);

const fn sq_bits(squares: &[u8]) -> u64 {
    let mut bits = 0;
    let mut i = 0;
    while i < squares.len() {
        let n = (squares[i] - 1) as u32;
        bits |= 1 << (n + n / 10);
        i += 1;
    }
    bits
}

/// Masks of each row (0 = Black's back row), as raw words.
const ROWS: [u64; 10] = {
    let mut rows = [0u64; 10];
    let mut n = 1u8;
    while n <= 50 {
        let i = (n - 1) as u32;
        rows[((n - 1) / 5) as usize] |= 1 << (i + i / 10);
        n += 1;
    }
    rows
};

/// Bit k of each square's row number: `ROW_NUMBER_BITS[k]` holds the
/// squares whose row has that bit set.
const ROW_NUMBER_BITS: [u64; 4] = {
    let mut masks = [0u64; 4];
    let mut row = 0;
    while row < 10 {
        let mut k = 0;
        while k < 4 {
            if row & (1 << k) != 0 {
                masks[k] |= ROWS[row];
            }
            k += 1;
        }
        row += 1;
    }
    masks
};

/// The score of `pos` for the side to move. `king_only_plies` is the
/// 25-move rule's count, which makes a won position worth less the longer
/// it shuffles.
pub fn evaluate(pos: &Position, king_only_plies: u32) -> i32 {
    let white = side_score(pos, Color::White);
    let black = side_score(pos, Color::Black);
    let mut score = white - black;
    score = scale_drawish(pos, score);
    if score != 0 {
        let penalty = (SHUFFLE_PENALTY * king_only_plies as i32).min(score.abs() / 2);
        score -= penalty * score.signum();
    }
    match pos.turn() {
        Color::White => score,
        Color::Black => -score,
    }
}

fn side_score(pos: &Position, color: Color) -> i32 {
    let men = pos.men(color).0;
    let kings = pos.kings_of(color).0;
    let own = pos.pieces(color).0;
    let empty = pos.empty().0;
    let mut score = men.count_ones() as i32 * MAN + kings.count_ones() as i32 * KING;

    // Rows advanced, counted from the man's own back row: the sum of the
    // men's row numbers, read bit by bit from the row-number masks.
    let row_sum: i32 =
        ROW_NUMBER_BITS.iter().enumerate().map(|(k, mask)| ((men & mask).count_ones() as i32) << k).sum();
    let advanced = match color {
        Color::White => 9 * men.count_ones() as i32 - row_sum,
        Color::Black => row_sum,
    };
    score += advanced * ADVANCE_PER_ROW;
    score += (men & CENTRE_SQUARES).count_ones() as i32 * CENTRE;
    if pos.occupied().count() >= GUARD_MIN_PIECES {
        let guard = match color {
            Color::White => WHITE_GUARD,
            Color::Black => BLACK_GUARD,
        };
        score += (men & guard).count_ones() as i32 * BACK_GUARD;
    }
    // Supported: the two squares behind are own pieces or off the board.
    let (back_left, back_right) = match color {
        Color::White => (Direction::SouthWest, Direction::SouthEast),
        Color::Black => (Direction::NorthWest, Direction::NorthEast),
    };
    let home_row = match color {
        Color::White => ROWS[9],
        Color::Black => ROWS[0],
    };
    let covered_left = back_left.opposite().shift::<Ten>(own) | LEFT_EDGE | home_row;
    let covered_right = back_right.opposite().shift::<Ten>(own) | RIGHT_EDGE | home_row;
    score += (men & covered_left & covered_right).count_ones() as i32 * SUPPORTED;

    // Runaways: one or two rows from the crown with a free square ahead.
    let [ahead_a, ahead_b] = match color {
        Color::White => [Direction::NorthWest, Direction::NorthEast],
        Color::Black => [Direction::SouthWest, Direction::SouthEast],
    };
    let free_ahead = ahead_a.opposite().shift::<Ten>(empty) | ahead_b.opposite().shift::<Ten>(empty);
    for (rows_left, bonus) in RUNAWAY.iter().enumerate().skip(1) {
        let row = match color {
            Color::White => rows_left,
            Color::Black => 9 - rows_left,
        };
        score += (men & ROWS[row] & free_ahead).count_ones() as i32 * bonus;
    }

    // King mobility.
    for king in single_bits(kings) {
        for d in Direction::ALL {
            let mut sq = d.shift::<Ten>(king);
            while sq & empty != 0 {
                score += KING_MOBILITY;
                sq = d.shift::<Ten>(sq);
            }
        }
    }
    score
}

/// Kings-only endings with a small edge are draws in practice: one king
/// holds off up to three, and two hold off four when the stronger side has no
/// man left to crown. The score keeps its sign but shrinks, so the search
/// still prefers them to a real loss and seeks real wins elsewhere.
fn scale_drawish(pos: &Position, score: i32) -> i32 {
    let (strong, weak) = if score >= 0 { (Color::White, Color::Black) } else { (Color::Black, Color::White) };
    let strong_men = pos.men(strong).count();
    let strong_pieces = pos.pieces(strong).count();
    let weak_kings = pos.kings_of(weak).count();
    let weak_pieces = pos.pieces(weak).count();
    if strong_men == 0 && weak_kings >= 1 {
        let holds = (weak_pieces == 1 && strong_pieces <= 3) || (weak_pieces == 2 && strong_pieces <= 4);
        if holds || strong_pieces <= weak_pieces {
            return score / 16;
        }
    }
    score
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
    fn lone_king_against_three_kings_is_drawish() {
        let pos = Position::from_fen("W:WK46,K47,K48:BK5").unwrap();
        assert!(evaluate(&pos, 0) < MAN);
        let won = Position::from_fen("W:WK46,K47,K48,40:BK5").unwrap();
        assert!(evaluate(&won, 0) > 4 * MAN);
    }
}
