//! Sets of squares as machine words (see [`Geometry`] for the layout), and
//! the four diagonal directions.

use super::geometry::{Geometry, Ten, Word};
use super::Square;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// A set of squares of a board of geometry `G` (without a parameter, the
/// 10×10 board). Square `s` is bit [`Square::bit_index`]; with that layout a
/// step towards Black's side (up) is a right shift and a step towards White's
/// side a left shift, by `G::PER_ROW` or one more; a step off the left or
/// right edge lands on a ghost bit, which is never part of a valid set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard<G: Geometry = Ten>(pub(crate) G::Word);

impl<G: Geometry> Bitboard<G> {
    /// No square.
    pub const EMPTY: Bitboard<G> = Bitboard(<G::Word as Word>::ZERO);
    /// All the playable squares.
    pub const ALL: Bitboard<G> = Bitboard(G::ALL);
    /// Black's back row: where White men are crowned.
    pub const WHITE_PROMOTION: Bitboard<G> = Bitboard(G::TOP_ROW);
    /// White's back row: where Black men are crowned.
    pub const BLACK_PROMOTION: Bitboard<G> = Bitboard(G::BOTTOM_ROW);

    /// The set holding `square` only.
    #[inline(always)]
    pub fn from_square(square: Square<G>) -> Bitboard<G> {
        Bitboard(<G::Word as Word>::ONE << square.bit_index())
    }

    /// The set of the given squares.
    pub fn from_squares(squares: impl IntoIterator<Item = Square<G>>) -> Bitboard<G> {
        squares.into_iter().fold(Bitboard::EMPTY, |b, s| b | Bitboard::from_square(s))
    }

    /// The raw word, for hashing and serialisation.
    pub fn bits(self) -> G::Word {
        self.0
    }

    /// The set of the raw word, or `None` when a ghost bit is set.
    pub fn from_bits(bits: G::Word) -> Option<Bitboard<G>> {
        if bits & !G::ALL == <G::Word as Word>::ZERO {
            Some(Bitboard(bits))
        } else {
            None
        }
    }

    #[inline(always)]
    pub fn contains(self, square: Square<G>) -> bool {
        self.0 & (<G::Word as Word>::ONE << square.bit_index()) != <G::Word as Word>::ZERO
    }

    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0 == <G::Word as Word>::ZERO
    }

    #[inline(always)]
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest-numbered square of the set.
    pub fn first(self) -> Option<Square<G>> {
        if self.is_empty() {
            None
        } else {
            Square::from_bit_index(self.0.trailing_zeros())
        }
    }

    pub fn with(self, square: Square<G>) -> Bitboard<G> {
        self | Bitboard::from_square(square)
    }

    pub fn without(self, square: Square<G>) -> Bitboard<G> {
        Bitboard(self.0 & !(<G::Word as Word>::ONE << square.bit_index()))
    }

    /// The squares in increasing number.
    pub fn squares(self) -> Squares<G> {
        Squares(self.0)
    }
}

/// The set bits of a raw word, one single-bit word at a time, lowest first:
/// the move generator's and the search's loop over pieces.
#[inline(always)]
pub(crate) fn single_bits<W: Word>(mut bits: W) -> impl Iterator<Item = W> {
    std::iter::from_fn(move || {
        if bits == W::ZERO {
            return None;
        }
        let bit = bits.lowest_bit();
        bits = bits ^ bit;
        Some(bit)
    })
}

/// Iterator over the squares of a [`Bitboard`], lowest number first.
#[derive(Clone)]
pub struct Squares<G: Geometry = Ten>(G::Word);

impl<G: Geometry> Iterator for Squares<G> {
    type Item = Square<G>;

    #[inline]
    fn next(&mut self) -> Option<Square<G>> {
        if self.0 == <G::Word as Word>::ZERO {
            return None;
        }
        let index = self.0.trailing_zeros();
        self.0 = self.0 ^ self.0.lowest_bit();
        Square::from_bit_index(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl<G: Geometry> ExactSizeIterator for Squares<G> {}

impl<G: Geometry> IntoIterator for Bitboard<G> {
    type Item = Square<G>;
    type IntoIter = Squares<G>;
    fn into_iter(self) -> Squares<G> {
        self.squares()
    }
}

impl<G: Geometry> BitOr for Bitboard<G> {
    type Output = Bitboard<G>;
    fn bitor(self, rhs: Bitboard<G>) -> Bitboard<G> {
        Bitboard(self.0 | rhs.0)
    }
}

impl<G: Geometry> BitOrAssign for Bitboard<G> {
    fn bitor_assign(&mut self, rhs: Bitboard<G>) {
        self.0 |= rhs.0;
    }
}

impl<G: Geometry> BitAnd for Bitboard<G> {
    type Output = Bitboard<G>;
    fn bitand(self, rhs: Bitboard<G>) -> Bitboard<G> {
        Bitboard(self.0 & rhs.0)
    }
}

impl<G: Geometry> BitAndAssign for Bitboard<G> {
    fn bitand_assign(&mut self, rhs: Bitboard<G>) {
        self.0 &= rhs.0;
    }
}

impl<G: Geometry> BitXor for Bitboard<G> {
    type Output = Bitboard<G>;
    fn bitxor(self, rhs: Bitboard<G>) -> Bitboard<G> {
        Bitboard(self.0 ^ rhs.0)
    }
}

/// The complement within the playable squares (ghost bits stay clear).
impl<G: Geometry> Not for Bitboard<G> {
    type Output = Bitboard<G>;
    fn not(self) -> Bitboard<G> {
        Bitboard(!self.0 & G::ALL)
    }
}

impl<G: Geometry> fmt::Debug for Bitboard<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.squares().map(|s| s.number())).finish()
    }
}

/// A diagonal direction, named as White sees the board: north is towards
/// Black's side (square 1).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Direction {
    NorthWest,
    NorthEast,
    SouthWest,
    SouthEast,
}

impl Direction {
    pub const ALL: [Direction; 4] =
        [Direction::NorthWest, Direction::NorthEast, Direction::SouthWest, Direction::SouthEast];

    /// Moves every square of `bits` one step this way on a board of
    /// geometry `G`; squares that would leave the board land on ghost bits
    /// or fall off the word. Callers mask the result with a valid set
    /// (empty squares, enemy pieces).
    #[inline(always)]
    pub(crate) fn shift<G: Geometry>(self, bits: G::Word) -> G::Word {
        let row = G::PER_ROW as u32;
        match self {
            Direction::NorthWest => bits >> (row + 1),
            Direction::NorthEast => bits >> row,
            Direction::SouthWest => bits << row,
            Direction::SouthEast => bits << (row + 1),
        }
    }

    pub const fn opposite(self) -> Direction {
        match self {
            Direction::NorthWest => Direction::SouthEast,
            Direction::NorthEast => Direction::SouthWest,
            Direction::SouthWest => Direction::NorthEast,
            Direction::SouthEast => Direction::NorthWest,
        }
    }

    /// The two directions at right angles to this one.
    pub const fn perpendicular(self) -> [Direction; 2] {
        match self {
            Direction::NorthWest | Direction::SouthEast => [Direction::NorthEast, Direction::SouthWest],
            Direction::NorthEast | Direction::SouthWest => [Direction::NorthWest, Direction::SouthEast],
        }
    }

    /// Whether this direction leads towards the far row of `color`'s men.
    pub const fn is_forward_for(self, color: super::Color) -> bool {
        matches!(
            (self, color),
            (Direction::NorthWest | Direction::NorthEast, super::Color::White)
                | (Direction::SouthWest | Direction::SouthEast, super::Color::Black)
        )
    }

    /// The neighbouring square this way, if there is one.
    pub fn step<G: Geometry>(self, square: Square<G>) -> Option<Square<G>> {
        let moved = self.shift::<G>(Bitboard::from_square(square).0) & G::ALL;
        if moved == <G::Word as Word>::ZERO {
            None
        } else {
            Square::from_bit_index(moved.trailing_zeros())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::geometry::{Eight, Twelve};

    fn sq(n: u8) -> Square {
        Square::new(n).unwrap()
    }

    #[test]
    fn all_has_fifty_squares_and_rows_are_right() {
        assert_eq!(Bitboard::<Ten>::ALL.count(), 50);
        let top: Vec<u8> = Bitboard::<Ten>::WHITE_PROMOTION.squares().map(|s| s.number()).collect();
        assert_eq!(top, vec![1, 2, 3, 4, 5]);
        let bottom: Vec<u8> = Bitboard::<Ten>::BLACK_PROMOTION.squares().map(|s| s.number()).collect();
        assert_eq!(bottom, vec![46, 47, 48, 49, 50]);
    }

    fn steps_agree_with_rows_and_columns_on<G: Geometry>() {
        for s in Square::<G>::all() {
            for d in Direction::ALL {
                let (dr, dc): (i8, i8) = match d {
                    Direction::NorthWest => (-1, -1),
                    Direction::NorthEast => (-1, 1),
                    Direction::SouthWest => (1, -1),
                    Direction::SouthEast => (1, 1),
                };
                let r = s.row() as i8 + dr;
                let c = s.column() as i8 + dc;
                let size = G::SIZE as i8;
                let expected = if (0..size).contains(&r) && (0..size).contains(&c) {
                    Square::from_row_column(r as u8, c as u8)
                } else {
                    None
                };
                assert_eq!(d.step(s), expected, "{d:?} from {s} on {size}×{size}");
            }
        }
    }

    #[test]
    fn steps_agree_with_rows_and_columns() {
        steps_agree_with_rows_and_columns_on::<Eight>();
        steps_agree_with_rows_and_columns_on::<Ten>();
        steps_agree_with_rows_and_columns_on::<Twelve>();
        assert_eq!(Direction::NorthWest.step(sq(28)), Some(sq(22)));
        assert_eq!(Direction::NorthEast.step(sq(28)), Some(sq(23)));
    }

    #[test]
    fn complement_never_sets_ghost_bits() {
        assert_eq!(!Bitboard::<Ten>::EMPTY, Bitboard::ALL);
        assert_eq!(!Bitboard::<Ten>::ALL, Bitboard::EMPTY);
        assert_eq!(Bitboard::<Ten>::from_bits(1 << 10), None);
        assert_eq!(!Bitboard::<Twelve>::EMPTY, Bitboard::<Twelve>::ALL);
        assert_eq!(Bitboard::<Eight>::ALL.count(), 32);
    }
}
