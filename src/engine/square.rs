//! Squares of the 10×10 board in FMJD numbering.

use std::fmt;

/// One of the 50 playable (dark) squares, numbered as the FMJD does: 1 is the
/// top-left playable square on Black's side, 50 the bottom-right one on
/// White's side, five squares per row, row by row from Black's side.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// The square numbered `number` (1..=50), or `None`.
    pub const fn new(number: u8) -> Option<Square> {
        if number >= 1 && number <= 50 {
            Some(Square(number))
        } else {
            None
        }
    }

    /// The square at `row` (0 = Black's back row, 9 = White's) and `column`
    /// (0 = left as White sees the board), if that square is playable.
    pub const fn from_row_column(row: u8, column: u8) -> Option<Square> {
        if row > 9 || column > 9 || (row + column).is_multiple_of(2) {
            return None;
        }
        Some(Square(row * 5 + column / 2 + 1))
    }

    /// Every square, 1 to 50.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + Clone {
        (1..=50).map(Square)
    }

    /// The FMJD number, 1..=50.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// 0 for Black's back row (squares 1–5), 9 for White's (46–50).
    pub const fn row(self) -> u8 {
        (self.0 - 1) / 5
    }

    /// 0..=9 from the left as White sees the board. Even rows hold their
    /// playable squares on odd columns, odd rows on even columns.
    pub const fn column(self) -> u8 {
        let index_in_row = (self.0 - 1) % 5;
        if self.row().is_multiple_of(2) {
            index_in_row * 2 + 1
        } else {
            index_in_row * 2
        }
    }

    /// The squares strictly between this square and `other` when both lie on
    /// one diagonal (empty otherwise): what a capture from one to the other
    /// jumps over.
    pub fn between(self, other: Square) -> Vec<Square> {
        let (r0, c0) = (self.row() as i8, self.column() as i8);
        let (dr, dc) = (other.row() as i8 - r0, other.column() as i8 - c0);
        if dr.abs() != dc.abs() || dr == 0 {
            return Vec::new();
        }
        let (sr, sc) = (dr.signum(), dc.signum());
        (1..dr.abs()).filter_map(|i| Square::from_row_column((r0 + sr * i) as u8, (c0 + sc * i) as u8)).collect()
    }

    /// The bit this square occupies in a [`Bitboard`](super::Bitboard): one
    /// unused "ghost" bit after every two rows makes each diagonal step a
    /// constant shift (5 or 6) that falls off the board onto a ghost bit.
    pub(crate) const fn bit_index(self) -> u32 {
        let i = (self.0 - 1) as u32;
        i + i / 10
    }

    /// The square at `index`, or `None` for a ghost or out-of-range bit.
    pub(crate) const fn from_bit_index(index: u32) -> Option<Square> {
        if index >= 54 || index % 11 == 10 {
            return None;
        }
        Some(Square((index / 11 * 10 + index % 11 + 1) as u8))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_matches_the_fmjd_board() {
        let s1 = Square::new(1).unwrap();
        assert_eq!((s1.row(), s1.column()), (0, 1));
        let s6 = Square::new(6).unwrap();
        assert_eq!((s6.row(), s6.column()), (1, 0));
        let s50 = Square::new(50).unwrap();
        assert_eq!((s50.row(), s50.column()), (9, 8));
        let s46 = Square::new(46).unwrap();
        assert_eq!((s46.row(), s46.column()), (9, 0));
        assert_eq!(Square::new(0), None);
        assert_eq!(Square::new(51), None);
    }

    #[test]
    fn between_walks_the_diagonal() {
        let sq = |n| Square::new(n).unwrap();
        assert_eq!(sq(46).between(sq(5)), vec![sq(41), sq(37), sq(32), sq(28), sq(23), sq(19), sq(14), sq(10)]);
        assert_eq!(sq(5).between(sq(46)).len(), 8);
        assert!(sq(46).between(sq(47)).is_empty());
        assert!(sq(32).between(sq(28)).is_empty());
    }

    #[test]
    fn row_column_and_bit_index_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::from_row_column(sq.row(), sq.column()), Some(sq));
            assert_eq!(Square::from_bit_index(sq.bit_index()), Some(sq));
        }
        assert_eq!(Square::from_row_column(0, 0), None);
        for ghost in [10, 21, 32, 43, 54, 63] {
            assert_eq!(Square::from_bit_index(ghost), None);
        }
    }
}
