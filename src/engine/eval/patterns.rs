//! The learned evaluation of international draughts: the [`Terms`] with
//! fitted weights, plus one weight for every arrangement of men in each of
//! 16 regions of the 10×10 board. `dames tune` fits the weights on
//! self-play games and writes `learned.bin`, which the build includes.
//!
//! A region is a 4×4 block of the board: 4 rows, 2 playable squares in
//! each, at rows 0, 2, 4, 6 and at playable columns 0 to 3. Each of its 8
//! squares is empty (or holds a king, which the terms weigh), a white man or
//! a black man: 3⁸ = 6,561 states. A region and its image under the
//! half-turn of the board, colours swapped, are one pattern seen from either
//! side, so they share a table and only 8 tables are stored.

use super::{Terms, TERMS};
use crate::engine::geometry::{Geometry, Word};
use crate::engine::rules::{PackedRules, Rules};
use crate::engine::{Color, Position};

/// Regions on the board, in pairs sharing a table.
pub const REGIONS: usize = 16;
/// Tables of weights, one per pair of regions.
pub const TABLES: usize = 8;
/// States of a region: 3⁸.
pub const STATES: usize = 6561;
/// What `learned.bin` starts with; the number is its format's version.
pub const MAGIC: &[u8; 8] = b"DAMESEV1";
/// The size of `learned.bin`: the magic, then little-endian `i16`s, the
/// terms' weights first, then the tables one after the other.
pub const FILE_BYTES: usize = MAGIC.len() + 2 * (TERMS + TABLES * STATES);

/// Fitted weights, in hundredths of a man.
pub struct Weights {
    pub terms: [i32; TERMS],
    pub tables: [[i16; STATES]; TABLES],
}

/// The weights the build ships, read at compile time: a file of the wrong
/// size or format fails the build.
static WEIGHTS: Weights = Weights::decode(include_bytes!("learned.bin"));

impl Weights {
    /// Reads the file format described at [`FILE_BYTES`]. Panics (at compile
    /// time for the shipped file) on anything else.
    pub const fn decode(bytes: &[u8]) -> Weights {
        assert!(bytes.len() == FILE_BYTES, "learned.bin has the wrong size");
        let mut i = 0;
        while i < MAGIC.len() {
            assert!(bytes[i] == MAGIC[i], "learned.bin does not start with its magic");
            i += 1;
        }
        let mut weights = Weights { terms: [0; TERMS], tables: [[0; STATES]; TABLES] };
        let mut at = MAGIC.len();
        let mut t = 0;
        while t < TERMS {
            weights.terms[t] = i16::from_le_bytes([bytes[at], bytes[at + 1]]) as i32;
            at += 2;
            t += 1;
        }
        let mut table = 0;
        while table < TABLES {
            let mut state = 0;
            while state < STATES {
                weights.tables[table][state] = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
                at += 2;
                state += 1;
            }
            table += 1;
        }
        weights
    }

    /// The file format of [`Weights::decode`].
    pub fn encode(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(FILE_BYTES);
        bytes.extend_from_slice(MAGIC);
        for w in self.terms {
            let w = i16::try_from(w).expect("a term's weight fits in an i16");
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        for table in &self.tables {
            for w in table {
                bytes.extend_from_slice(&w.to_le_bytes());
            }
        }
        bytes
    }

    /// The weights the build ships.
    pub fn shipped() -> &'static Weights {
        &WEIGHTS
    }
}

/// Whether the learned weights judge `pos`: international draughts on
/// 10×10 (its captures, its kings, 20 men a side), whatever the draw rules.
#[inline(always)]
pub fn applies<G: Geometry>(pos: &Position<G>) -> bool {
    const INTERNATIONAL: PackedRules = PackedRules::of(&Rules::INTERNATIONAL);
    G::SIZE == 10
        && pos.rules.moves() == INTERNATIONAL.moves()
        && pos.rules.men_per_side() == INTERNATIONAL.men_per_side()
}

/// The learned score of `pos` for White (before the draw scaling and the
/// no-progress penalty, which both evaluations share).
#[inline]
pub fn white_score<G: Geometry>(pos: &Position<G>) -> i32 {
    let weights = &WEIGHTS;
    let mut score = Terms::difference(pos).weigh(&weights.terms);
    let white = pos.men(Color::White).0.to_u128() as u64;
    let black = pos.men(Color::Black).0.to_u128() as u64;
    for (table, (own, mirrored)) in indices(white, black).into_iter().enumerate() {
        score += weights.tables[table][own] as i32 - weights.tables[table][mirrored] as i32;
    }
    score
}

/// For each table, the state of its region seen from White and the state
/// of the mirrored region seen from Black: the score adds the first weight
/// and subtracts the second. `white` and `black` are the men's bits on the
/// 10×10 board.
#[inline(always)]
pub fn indices(white: u64, black: u64) -> [(usize, usize); TABLES] {
    std::array::from_fn(|table| {
        let (row, column) = (2 * (table as u32 / 4), table as u32 % 4);
        let (mirror_row, mirror_column) = (6 - row, 3 - column);
        let own = BASE3[gather(white, row, column)] + 2 * BASE3[gather(black, row, column)];
        let mirrored = BASE3_REVERSED[gather(black, mirror_row, mirror_column)]
            + 2 * BASE3_REVERSED[gather(white, mirror_row, mirror_column)];
        (own as usize, mirrored as usize)
    })
}

/// The 8 bits of the region whose top row is `row` and first playable
/// column is `column`: bit `2 × k + c` is the square `k` rows down and `c`
/// columns right. Square `(r, c)` (0-based, from the top) sits on bit
/// `5r + r/2 + c`: the two squares of a row are neighbouring bits.
#[inline(always)]
fn gather(men: u64, row: u32, column: u32) -> usize {
    let mut bits = 0;
    let mut k = 0;
    while k < 4 {
        let r = row + k;
        bits |= ((men >> (5 * r + r / 2 + column)) & 3) << (2 * k);
        k += 1;
    }
    bits as usize
}

/// `BASE3[m]`: the bits of `m` read as base-3 digits (bit `k` worth 3^k).
const BASE3: [u16; 256] = base3_table(false);
/// The same with the 8 bits reversed: a mirrored region read in the
/// original's order.
const BASE3_REVERSED: [u16; 256] = base3_table(true);

const fn base3_table(reversed: bool) -> [u16; 256] {
    let mut table = [0u16; 256];
    let mut m = 0;
    while m < 256 {
        let mut value = 0u16;
        let mut power = 1u16;
        let mut k = 0;
        while k < 8 {
            let bit = if reversed { 7 - k } else { k };
            if m >> bit & 1 == 1 {
                value += power;
            }
            power *= 3;
            k += 1;
        }
        table[m] = value;
        m += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Position;

    fn men(pos: &Position) -> (u64, u64) {
        (pos.men(Color::White).0, pos.men(Color::Black).0)
    }

    #[test]
    fn a_position_and_its_mirror_score_opposite() {
        // The half-turn with colours swapped: square n becomes 51 - n.
        for (fen, mirror) in [
            ("W:W31,32,33,40,45,50:B1,2,9,14,20", "B:W31,37,42,49,50:B1,6,11,18,19,20"),
            (
                "W:W27,28,32,33,38,39,42,43,44,48:B3,7,8,12,13,16,17,18,19,23",
                "B:W28,32,33,34,35,38,39,43,44,48:B3,7,8,9,12,13,18,19,23,24",
            ),
        ] {
            let a = Position::from_fen(fen).unwrap();
            let b = Position::from_fen(mirror).unwrap();
            assert_eq!(white_score(&a), -white_score(&b), "{fen}");
        }
    }

    #[test]
    fn regions_cover_the_board_and_indices_stay_in_range() {
        let all = Position::start().occupied().0 | Position::from_fen("W:W21-30:B1").unwrap().occupied().0;
        let mut covered = 0u64;
        for table in 0..TABLES as u32 {
            for (row, column) in [(2 * (table / 4), table % 4), (6 - 2 * (table / 4), 3 - table % 4)] {
                for k in 0..4 {
                    let r = row + k;
                    covered |= 3 << (5 * r + r / 2 + column);
                }
            }
        }
        assert_eq!(covered & all, all, "every square is in a region");
        let (w, b) = men(&Position::start());
        for (own, mirrored) in indices(w, b) {
            assert!(own < STATES && mirrored < STATES);
        }
        // The start is its own mirror: every pair reads the same state.
        for (own, mirrored) in indices(w, b) {
            assert_eq!(own, mirrored);
        }
    }

    #[test]
    fn the_file_format_round_trips() {
        let bytes = Weights::shipped().encode();
        assert_eq!(bytes.len(), FILE_BYTES);
        let again = Weights::decode(&bytes);
        assert_eq!(again.terms, Weights::shipped().terms);
        assert!(again.tables == Weights::shipped().tables);
    }
}
