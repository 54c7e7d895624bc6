//! Squares: the dark squares of a board, numbered as the draughts
//! federations do (1 on Black's side, top left, to 32, 50 or 72 on White's
//! side), for each [`Geometry`].

use super::geometry::{Geometry, Ten};
use std::fmt;
use std::marker::PhantomData;

/// One of the playable (dark) squares of a board of geometry `G`: 1 is the
/// top-left playable square on Black's side, `G::SQUARES` the bottom-right
/// one on White's side, `G::PER_ROW` squares per row, row by row from
/// Black's side. Without a parameter, a square of the 10×10 board.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Square<G: Geometry = Ten>(u8, PhantomData<G>);

// Squares order by number (a derived order would ask it of the board type).
impl<G: Geometry> PartialOrd for Square<G> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<G: Geometry> Ord for Square<G> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.cmp(&other.0)
    }
}

impl<G: Geometry> fmt::Debug for Square<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({})", self.0)
    }
}

impl<G: Geometry> Square<G> {
    /// The square numbered `number` (1..=`G::SQUARES`), or `None`.
    pub const fn new(number: u8) -> Option<Square<G>> {
        if number >= 1 && number <= G::SQUARES {
            Some(Square(number, PhantomData))
        } else {
            None
        }
    }

    /// The square at `row` (0 = Black's back row) and `column` (0 = left as
    /// White sees the board), if that square is playable.
    pub const fn from_row_column(row: u8, column: u8) -> Option<Square<G>> {
        if row >= G::SIZE || column >= G::SIZE || (row + column).is_multiple_of(2) {
            return None;
        }
        Some(Square(row * G::PER_ROW + column / 2 + 1, PhantomData))
    }

    /// Every square, 1 to `G::SQUARES`.
    pub fn all() -> impl DoubleEndedIterator<Item = Square<G>> + Clone {
        (1..=G::SQUARES).map(|n| Square(n, PhantomData))
    }

    /// The square's number.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// 0 for Black's back row, `G::SIZE - 1` for White's.
    pub const fn row(self) -> u8 {
        (self.0 - 1) / G::PER_ROW
    }

    /// 0..`G::SIZE` from the left as White sees the board. Even rows hold
    /// their playable squares on odd columns, odd rows on even columns.
    pub const fn column(self) -> u8 {
        let index_in_row = (self.0 - 1) % G::PER_ROW;
        if self.row().is_multiple_of(2) {
            index_in_row * 2 + 1
        } else {
            index_in_row * 2
        }
    }

    /// The squares strictly between this square and `other` when both lie on
    /// one diagonal (empty otherwise): what a capture from one to the other
    /// jumps over.
    pub fn between(self, other: Square<G>) -> Vec<Square<G>> {
        let (r0, c0) = (self.row() as i8, self.column() as i8);
        let (dr, dc) = (other.row() as i8 - r0, other.column() as i8 - c0);
        if dr.abs() != dc.abs() || dr == 0 {
            return Vec::new();
        }
        let (sr, sc) = (dr.signum(), dc.signum());
        (1..dr.abs()).filter_map(|i| Square::from_row_column((r0 + sr * i) as u8, (c0 + sc * i) as u8)).collect()
    }

    /// The bit this square occupies in a [`Bitboard`](super::Bitboard) (see
    /// [`Geometry`]).
    #[inline(always)]
    pub(crate) fn bit_index(self) -> u32 {
        G::bit_index(self.0)
    }

    /// The square at `index`, or `None` for a ghost or out-of-range bit.
    #[inline(always)]
    pub(crate) fn from_bit_index(index: u32) -> Option<Square<G>> {
        G::number_at(index).map(|n| Square(n, PhantomData))
    }
}

impl<G: Geometry> fmt::Display for Square<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Eight, Twelve};

    #[test]
    fn numbering_matches_the_fmjd_board() {
        let s1 = Square::<Ten>::new(1).unwrap();
        assert_eq!((s1.row(), s1.column()), (0, 1));
        let s6 = Square::<Ten>::new(6).unwrap();
        assert_eq!((s6.row(), s6.column()), (1, 0));
        let s50 = Square::<Ten>::new(50).unwrap();
        assert_eq!((s50.row(), s50.column()), (9, 8));
        let s46 = Square::<Ten>::new(46).unwrap();
        assert_eq!((s46.row(), s46.column()), (9, 0));
        assert_eq!(Square::<Ten>::new(0), None);
        assert_eq!(Square::<Ten>::new(51), None);
    }

    #[test]
    fn numbering_of_the_small_and_large_boards() {
        // 8×8: four a row; White's lower left corner is square 29.
        let sq = |n| Square::<Eight>::new(n).unwrap();
        assert_eq!((sq(1).row(), sq(1).column()), (0, 1));
        assert_eq!((sq(29).row(), sq(29).column()), (7, 0));
        assert_eq!((sq(32).row(), sq(32).column()), (7, 6));
        assert_eq!(Square::<Eight>::new(33), None);
        assert_eq!(Square::<Twelve>::new(72).map(|s| (s.row(), s.column())), Some((11, 10)));
    }

    #[test]
    fn between_walks_the_diagonal() {
        let sq = |n| Square::<Ten>::new(n).unwrap();
        assert_eq!(sq(46).between(sq(5)), vec![sq(41), sq(37), sq(32), sq(28), sq(23), sq(19), sq(14), sq(10)]);
        assert_eq!(sq(5).between(sq(46)).len(), 8);
        assert!(sq(46).between(sq(47)).is_empty());
        assert!(sq(32).between(sq(28)).is_empty());
    }

    fn round_trip<G: Geometry>() {
        for sq in Square::<G>::all() {
            assert_eq!(Square::<G>::from_row_column(sq.row(), sq.column()), Some(sq));
            assert_eq!(Square::<G>::from_bit_index(sq.bit_index()), Some(sq));
        }
        assert_eq!(Square::<G>::from_row_column(0, 0), None);
    }

    #[test]
    fn row_column_and_bit_index_round_trip() {
        round_trip::<Eight>();
        round_trip::<Ten>();
        round_trip::<Twelve>();
        for ghost in [10, 21, 32, 43, 54, 63] {
            assert_eq!(Square::<Ten>::from_bit_index(ghost), None);
        }
    }
}
