//! Board geometries: 8×8, 10×10 and 12×12, each a type, so that the move
//! generator and the search are compiled once per board with every shift
//! and mask a constant.
//!
//! The dark squares are numbered from 1 on Black's side (top) to 32, 50 or
//! 72 on White's side, `SIZE / 2` to a row. Square `n` sits on bit
//! `i + i / SIZE` of a word (`i = n - 1`): one unused "ghost" bit after every
//! two rows makes each diagonal step a constant shift (`SIZE / 2` or
//! `SIZE / 2 + 1`), and a step off the left or right edge lands on a ghost
//! bit, never on a square. 8×8 and 10×10 fit in a `u64`; 12×12 (72 squares
//! and 5 ghosts) takes a `u128`.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr};

/// The machine word a board's square sets live in.
pub trait Word:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitAndAssign
    + BitOr<Output = Self>
    + BitOrAssign
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    fn count_ones(self) -> u32;
    fn trailing_zeros(self) -> u32;
    /// The lowest set bit alone.
    fn lowest_bit(self) -> Self;
    /// The word as a `u128` (for hashing and square-number sets).
    fn to_u128(self) -> u128;
    fn from_u128(bits: u128) -> Self;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const ZERO: $t = 0;
            const ONE: $t = 1;
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn lowest_bit(self) -> $t {
                self & self.wrapping_neg()
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn from_u128(bits: u128) -> $t {
                bits as $t
            }
        }
    };
}
word!(u64);
word!(u128);

/// A board size and everything derived from it, as constants.
pub trait Geometry: Copy + Eq + Hash + Debug + Default + Send + Sync + 'static {
    type Word: Word;
    /// Squares along an edge: 8, 10 or 12.
    const SIZE: u8;
    /// Playable squares: 32, 50 or 72.
    const SQUARES: u8 = Self::SIZE * Self::SIZE / 2;
    /// Playable squares in a row.
    const PER_ROW: u8 = Self::SIZE / 2;
    /// Every playable square's bit.
    const ALL: Self::Word;
    /// Black's back row (squares 1 to `PER_ROW`): where White men are
    /// crowned.
    const TOP_ROW: Self::Word;
    /// White's back row: where Black men are crowned.
    const BOTTOM_ROW: Self::Word;

    // What the evaluation reads (see `eval`).
    /// Each row's squares (0 = Black's back row); rows past `SIZE` empty.
    const ROWS: [Self::Word; 12];
    /// `ROW_NUMBER_BITS[k]`: the squares whose row number has bit `k` set.
    const ROW_NUMBER_BITS: [Self::Word; 4];
    /// The central squares, which control both wings.
    const CENTRE: Self::Word;
    /// White's back-row squares that stop Black's crowning; Black's.
    const WHITE_GUARD: Self::Word;
    const BLACK_GUARD: Self::Word;
    /// The squares on the left and right edges.
    const LEFT_EDGE: Self::Word;
    const RIGHT_EDGE: Self::Word;

    /// The bit of square `number` (1-based).
    #[inline(always)]
    fn bit_index(number: u8) -> u32 {
        let i = (number - 1) as u32;
        i + i / Self::SIZE as u32
    }

    /// The square on bit `index`, or `None` for a ghost or an
    /// out-of-range bit.
    #[inline(always)]
    fn number_at(index: u32) -> Option<u8> {
        let size = Self::SIZE as u32;
        let (pair, within) = (index / (size + 1), index % (size + 1));
        let number = pair * size + within + 1;
        (within < size && number <= Self::SQUARES as u32).then_some(number as u8)
    }
}

/// The constant masks of a board, for one word type: `const fn` cannot be
/// generic over the word, so the macro writes them once for `u64` and once
/// for `u128`.
macro_rules! masks {
    ($word:ty, $bits:ident, $list:ident, $rows:ident, $row_bits:ident) => {
        /// Bits of the squares `first..=last` on a board of `size`.
        const fn $bits(size: u32, first: u32, last: u32) -> $word {
            let mut bits: $word = 0;
            let mut n = first;
            while n <= last {
                let i = n - 1;
                bits |= 1 << (i + i / size);
                n += 1;
            }
            bits
        }

        /// Bits of the listed squares on a board of `size`.
        const fn $list(size: u32, squares: &[u8]) -> $word {
            let mut bits: $word = 0;
            let mut k = 0;
            while k < squares.len() {
                let i = squares[k] as u32 - 1;
                bits |= 1 << (i + i / size);
                k += 1;
            }
            bits
        }

        /// Each row's squares on a board of `size`.
        const fn $rows(size: u32) -> [$word; 12] {
            let mut rows: [$word; 12] = [0; 12];
            let per_row = size / 2;
            let mut r = 0;
            while r < size {
                rows[r as usize] = $bits(size, r * per_row + 1, (r + 1) * per_row);
                r += 1;
            }
            rows
        }

        /// The squares whose row number has bit `k` set, for each `k`.
        const fn $row_bits(rows: [$word; 12]) -> [$word; 4] {
            let mut masks: [$word; 4] = [0; 4];
            let mut r = 0;
            while r < 12 {
                let mut k = 0;
                while k < 4 {
                    if r & (1 << k) != 0 {
                        masks[k] |= rows[r];
                    }
                    k += 1;
                }
                r += 1;
            }
            masks
        }
    };
}

masks!(u64, bits_u64, list_u64, rows_u64, row_bits_u64);
masks!(u128, bits_u128, list_u128, rows_u128, row_bits_u128);

/// The 8×8 board: English, Russian and Brazilian draughts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Eight;

impl Geometry for Eight {
    type Word = u64;
    const SIZE: u8 = 8;
    const ALL: u64 = bits_u64(8, 1, 32);
    const TOP_ROW: u64 = bits_u64(8, 1, 4);
    const BOTTOM_ROW: u64 = bits_u64(8, 29, 32);
    const ROWS: [u64; 12] = rows_u64(8);
    const ROW_NUMBER_BITS: [u64; 4] = row_bits_u64(rows_u64(8));
    const CENTRE: u64 = list_u64(8, &[14, 15, 18, 19]);
    const WHITE_GUARD: u64 = list_u64(8, &[30, 31]);
    const BLACK_GUARD: u64 = list_u64(8, &[2, 3]);
    const LEFT_EDGE: u64 = list_u64(8, &[5, 13, 21, 29]);
    const RIGHT_EDGE: u64 = list_u64(8, &[4, 12, 20, 28]);
}

/// The 10×10 board of international draughts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Ten;

impl Geometry for Ten {
    type Word = u64;
    const SIZE: u8 = 10;
    const ALL: u64 = bits_u64(10, 1, 50);
    const TOP_ROW: u64 = bits_u64(10, 1, 5);
    const BOTTOM_ROW: u64 = bits_u64(10, 46, 50);
    const ROWS: [u64; 12] = rows_u64(10);
    const ROW_NUMBER_BITS: [u64; 4] = row_bits_u64(rows_u64(10));
    const CENTRE: u64 = list_u64(10, &[22, 23, 24, 27, 28, 29]);
    const WHITE_GUARD: u64 = list_u64(10, &[47, 48, 49]);
    const BLACK_GUARD: u64 = list_u64(10, &[2, 3, 4]);
    const LEFT_EDGE: u64 = list_u64(10, &[6, 16, 26, 36, 46]);
    const RIGHT_EDGE: u64 = list_u64(10, &[5, 15, 25, 35, 45]);
}

/// The 12×12 board (Canadian size), for custom rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Twelve;

impl Geometry for Twelve {
    type Word = u128;
    const SIZE: u8 = 12;
    const ALL: u128 = bits_u128(12, 1, 72);
    const TOP_ROW: u128 = bits_u128(12, 1, 6);
    const BOTTOM_ROW: u128 = bits_u128(12, 67, 72);
    const ROWS: [u128; 12] = rows_u128(12);
    const ROW_NUMBER_BITS: [u128; 4] = row_bits_u128(rows_u128(12));
    const CENTRE: u128 = list_u128(12, &[33, 34, 39, 40]);
    const WHITE_GUARD: u128 = list_u128(12, &[68, 69, 70, 71]);
    const BLACK_GUARD: u128 = list_u128(12, &[2, 3, 4, 5]);
    const LEFT_EDGE: u128 = list_u128(12, &[7, 19, 31, 43, 55, 67]);
    const RIGHT_EDGE: u128 = list_u128(12, &[6, 18, 30, 42, 54, 66]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<G: Geometry>() {
        assert_eq!(G::ALL.count_ones(), G::SQUARES as u32);
        for n in 1..=G::SQUARES {
            assert_eq!(G::number_at(G::bit_index(n)), Some(n));
        }
        let ghosts = (0..128u32).filter(|&i| G::number_at(i).is_none()).count();
        assert_eq!(ghosts, 128 - G::SQUARES as usize);
        assert_eq!(G::TOP_ROW.count_ones(), G::PER_ROW as u32);
        assert_eq!(G::BOTTOM_ROW.count_ones(), G::PER_ROW as u32);
        assert_eq!(G::TOP_ROW.trailing_zeros(), 0);
        assert_eq!(G::ROWS[0], G::TOP_ROW);
        assert_eq!(G::ROWS[G::SIZE as usize - 1], G::BOTTOM_ROW);
        let every_row = G::ROWS.iter().fold(G::Word::ZERO, |a, r| a | *r);
        assert_eq!(every_row, G::ALL);
        for edge in [G::LEFT_EDGE, G::RIGHT_EDGE] {
            assert_eq!(edge.count_ones(), G::SIZE as u32 / 2, "one square on each of half the rows");
        }
        for (r, row) in G::ROWS.iter().enumerate() {
            for (k, bits) in G::ROW_NUMBER_BITS.iter().enumerate() {
                let expected = if r & (1 << k) != 0 { *row } else { G::Word::ZERO };
                assert_eq!(*row & *bits, expected);
            }
        }
    }

    #[test]
    fn every_square_has_one_bit_and_back() {
        check::<Eight>();
        check::<Ten>();
        check::<Twelve>();
        assert_eq!(Ten::bit_index(11), 11, "the ghost after square 10 is bit 10");
        assert_eq!(Eight::bit_index(9), 9, "the ghost after square 8 is bit 8");
        assert_eq!(Twelve::bit_index(72), 76);
    }
}
