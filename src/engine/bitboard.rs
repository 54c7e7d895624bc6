//! Sets of squares as 64-bit words, and the four diagonal directions.

use super::Square;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// A set of squares. Square `s` is bit [`Square::bit_index`]: squares 1–10
/// on bits 0–9, a ghost bit 10, squares 11–20 on bits 11–20, and so on, up to
/// square 50 on bit 53. With that layout a step towards Black's side (up) is a
/// right shift by 5 or 6 and a step towards White's side a left shift by 5 or
/// 6; a step off the left or right edge lands on a ghost bit, which is never
/// part of a valid set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub(crate) u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 50 playable squares.
    pub const ALL: Bitboard = Bitboard(ALL_BITS);
    /// Black's back row (1–5): where White men are promoted.
    pub const WHITE_PROMOTION: Bitboard = Bitboard(0b11111);
    /// White's back row (46–50): where Black men are promoted.
    pub const BLACK_PROMOTION: Bitboard = Bitboard(0b11111 << 49);

    /// The set holding `square` only.
    pub const fn from_square(square: Square) -> Bitboard {
        Bitboard(1 << square.bit_index())
    }

    /// The set of the given squares.
    pub fn from_squares(squares: impl IntoIterator<Item = Square>) -> Bitboard {
        squares.into_iter().fold(Bitboard::EMPTY, |b, s| b | Bitboard::from_square(s))
    }

    /// The raw word, for hashing and serialisation.
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The set of the raw word, or `None` when a ghost bit is set.
    pub const fn from_bits(bits: u64) -> Option<Bitboard> {
        if bits & !ALL_BITS == 0 {
            Some(Bitboard(bits))
        } else {
            None
        }
    }

    pub const fn contains(self, square: Square) -> bool {
        self.0 & (1 << square.bit_index()) != 0
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest-numbered square of the set.
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Square::from_bit_index(self.0.trailing_zeros())
        }
    }

    pub fn with(self, square: Square) -> Bitboard {
        self | Bitboard::from_square(square)
    }

    pub fn without(self, square: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << square.bit_index()))
    }

    /// The squares in increasing number.
    pub fn squares(self) -> Squares {
        Squares(self.0)
    }
}

const ALL_BITS: u64 = {
    let mut bits = 0u64;
    let mut n = 1;
    while n <= 50 {
        let i = (n - 1) as u32;
        bits |= 1 << (i + i / 10);
        n += 1;
    }
    bits
};

/// The set bits of a raw word, one single-bit word at a time, lowest first:
/// the move generator's and the search's loop over pieces.
#[inline(always)]
pub(crate) fn single_bits(mut bits: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let bit = bits & bits.wrapping_neg();
        bits ^= bit;
        Some(bit)
    })
}

/// Iterator over the squares of a [`Bitboard`], lowest number first.
#[derive(Clone)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Square::from_bit_index(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;
    fn into_iter(self) -> Squares {
        self.squares()
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitOrAssign for Bitboard {
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitAndAssign for Bitboard {
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

/// The complement within the 50 playable squares (ghost bits stay clear).
impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_BITS)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.squares().map(|s| s.number())).finish()
    }
}

/// A diagonal direction, named as White sees the board: north is towards
/// Black's side (squares 1–5).
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

    /// Moves every square of `bits` one step this way; squares that would
    /// leave the board land on ghost bits or fall off the word. Callers mask
    /// the result with a valid set (empty squares, enemy pieces).
    #[inline(always)]
    pub(crate) const fn shift(self, bits: u64) -> u64 {
        match self {
            Direction::NorthWest => bits >> 6,
            Direction::NorthEast => bits >> 5,
            Direction::SouthWest => bits << 5,
            Direction::SouthEast => bits << 6,
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

    /// The neighbouring square this way, if there is one.
    pub fn step(self, square: Square) -> Option<Square> {
        let moved = self.shift(1 << square.bit_index()) & ALL_BITS;
        if moved == 0 {
            None
        } else {
            Square::from_bit_index(moved.trailing_zeros())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: u8) -> Square {
        Square::new(n).unwrap()
    }

    #[test]
    fn all_has_fifty_squares_and_rows_are_right() {
        assert_eq!(Bitboard::ALL.count(), 50);
        let top: Vec<u8> = Bitboard::WHITE_PROMOTION.squares().map(|s| s.number()).collect();
        assert_eq!(top, vec![1, 2, 3, 4, 5]);
        let bottom: Vec<u8> = Bitboard::BLACK_PROMOTION.squares().map(|s| s.number()).collect();
        assert_eq!(bottom, vec![46, 47, 48, 49, 50]);
    }

    #[test]
    fn steps_agree_with_rows_and_columns() {
        for s in Square::all() {
            for d in Direction::ALL {
                let (dr, dc): (i8, i8) = match d {
                    Direction::NorthWest => (-1, -1),
                    Direction::NorthEast => (-1, 1),
                    Direction::SouthWest => (1, -1),
                    Direction::SouthEast => (1, 1),
                };
                let r = s.row() as i8 + dr;
                let c = s.column() as i8 + dc;
                let expected = if (0..10).contains(&r) && (0..10).contains(&c) {
                    Square::from_row_column(r as u8, c as u8)
                } else {
                    None
                };
                assert_eq!(d.step(s), expected, "{d:?} from {s}");
            }
        }
        assert_eq!(Direction::NorthWest.step(sq(28)), Some(sq(22)));
        assert_eq!(Direction::NorthEast.step(sq(28)), Some(sq(23)));
    }

    #[test]
    fn complement_never_sets_ghost_bits() {
        assert_eq!(!Bitboard::EMPTY, Bitboard::ALL);
        assert_eq!(!Bitboard::ALL, Bitboard::EMPTY);
        assert_eq!(Bitboard::from_bits(1 << 10), None);
    }
}
