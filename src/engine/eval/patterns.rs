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
//!
//! Every weight may have two values, one for the opening and one for the
//! ending: a position is judged by the blend of the two by how far the game
//! has gone ([`Phase`]: the pieces on the board for the shipped weights),
//! since what a structure is worth changes as the men advance and the board
//! empties.
//!
//! A few whole-board terms ([`Extras`]) see what no region does: how far a
//! side's men lean to one wing, and kings on the long diagonal.

use super::{row_sum, Terms, TERMS};
use crate::geometry::{Geometry, Ten, Word};
use crate::rules::{PackedRules, Rules};
use crate::{Color, Position};
use std::borrow::Cow;

/// Regions on the board, in pairs sharing a table.
pub const REGIONS: usize = 16;
/// Tables of weights, one per pair of regions.
pub const TABLES: usize = 8;
/// States of a region: 3⁸.
pub const STATES: usize = 6561;
/// The phases a weight has a value for: the opening, then the ending.
pub const PHASES: usize = 2;
/// What a weights file of one value a weight starts with…
pub const MAGIC: &[u8; 8] = b"DAMESEV1";
/// …and of two (opening and ending)…
pub const MAGIC_PHASED: &[u8; 8] = b"DAMESEV2";
/// …and of two, followed by the whole-board terms' weights…
pub const MAGIC_EXTRAS: &[u8; 8] = b"DAMESEV3";
/// …and the same, its phases blended by the rows the men have to go
/// ([`Phase::RowsToGo`]; the first three blend by the pieces).
pub const MAGIC_ROWS_PHASE: &[u8; 8] = b"DAMESEV4";
/// The size of a file of one value a weight: the magic, then little-endian
/// `i16`s, the terms' weights first, then the tables one after the other.
pub const FILE_BYTES: usize = MAGIC.len() + 2 * (TERMS + TABLES * STATES);
/// The size of a file of two (the shipped `learned.bin`): the same layout,
/// each weight's opening value followed by its ending value.
pub const PHASED_FILE_BYTES: usize = MAGIC.len() + 2 * PHASES * (TERMS + TABLES * STATES);
/// The size of a file with the whole-board terms (the third and fourth
/// formats): the second layout, then each extra's opening and ending values.
pub const EXTRAS_FILE_BYTES: usize = PHASED_FILE_BYTES + 2 * PHASES * EXTRAS;

/// Fitted weights, in hundredths of a man, each for the opening and the
/// ending (the same where the fit had one phase).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Weights {
    pub terms: [[i32; PHASES]; TERMS],
    /// The tables one after the other, [`STATES`] each: state `s` of table
    /// `t` at `t × STATES + s`. On the heap, or in the binary for the
    /// shipped weights (a thread's stack would not hold many copies).
    pub tables: Cow<'static, [[i16; PHASES]]>,
    /// The whole-board terms' weights ([`Extras`]): 0 in files of the first
    /// two formats.
    pub extras: [[i32; PHASES]; EXTRAS],
    /// What blends the opening's and the ending's values: the pieces in
    /// files of the first three formats (the shipped one's), the rows to go
    /// in the fourth (`dames tune fit --phase rows`).
    pub phase: Phase,
}

/// What a position's phase, the share of the opening's values in its
/// score, is measured by.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Phase {
    /// The pieces on the board: 40 at the start, the opening's values
    /// alone. The shipped weights' (every version's so far).
    Pieces,
    /// The rows the men still have to go to their crowning rows: 300 at the
    /// start (Scan's phase). Men advanced and locked count as a later phase
    /// than their number says, and a king counts as none. It fits the
    /// games a little better, but was not shown to play better against
    /// Scan 2.0 (README, "Matches against another engine"): a switch to
    /// measure again.
    RowsToGo,
}

/// The scale of [`Phase::opening_share`]: 15 a piece, 2 a row to go.
pub const PHASE_SCALE: i32 = 600;
/// The pieces on the board at the start, where the opening's values hold
/// alone under [`Phase::Pieces`].
pub const FULL_BOARD: i32 = 40;
/// The men's rows to go at the start (20 men a side, 6 to 9 rows from their
/// crowning row), where they hold alone under [`Phase::RowsToGo`].
pub const START_ROWS_TO_GO: i32 = 300;

impl Phase {
    /// How much of the opening's values a position takes, in
    /// [`PHASE_SCALE`]ths, from its men's bits on the 10×10 board and its
    /// pieces. (One scale for both, so that the blend of version 8's
    /// weights stays exactly what it was: `15a / 600` rounds as `a / 40`.)
    #[inline(always)]
    pub fn opening_share(self, white: u64, black: u64, pieces: u32) -> i32 {
        match self {
            Phase::Pieces => 15 * (pieces as i32).min(FULL_BOARD),
            Phase::RowsToGo => 2 * rows_to_go(white, black).min(START_ROWS_TO_GO),
        }
    }
}

/// The rows the men of `white` and `black` (on the 10×10 board) still
/// have to go to their crowning rows, all together: White's crown on row 0,
/// so a White man has its row number to go; Black's on row 9.
#[inline(always)]
fn rows_to_go(white: u64, black: u64) -> i32 {
    row_sum::<Ten>(white) + 9 * black.count_ones() as i32 - row_sum::<Ten>(black)
}

/// The shipped weights file, checked at compile time: a file of the wrong
/// size or format fails the build.
const SHIPPED: &[u8] = match check(include_bytes!("learned.bin")) {
    Ok(bytes) => bytes,
    Err(_) => panic!("learned.bin is not a weights file of the right size"),
};
static SHIPPED_TABLES: [[i16; PHASES]; TABLES * STATES] = {
    let mut tables = [[0; PHASES]; TABLES * STATES];
    let mut i = 0;
    while i < tables.len() {
        tables[i] = [weight_at(SHIPPED, TERMS + i, 0), weight_at(SHIPPED, TERMS + i, 1)];
        i += 1;
    }
    tables
};
/// The weights the build ships.
static WEIGHTS: Weights = Weights {
    terms: {
        let mut terms = [[0; PHASES]; TERMS];
        let mut t = 0;
        while t < TERMS {
            terms[t] = [weight_at(SHIPPED, t, 0) as i32, weight_at(SHIPPED, t, 1) as i32];
            t += 1;
        }
        terms
    },
    tables: Cow::Borrowed(&SHIPPED_TABLES),
    extras: {
        let mut extras = [[0; PHASES]; EXTRAS];
        let mut e = 0;
        while e < EXTRAS && SHIPPED.len() == EXTRAS_FILE_BYTES {
            extras[e] = [weight_at(SHIPPED, EXTRAS_AT + e, 0) as i32, weight_at(SHIPPED, EXTRAS_AT + e, 1) as i32];
            e += 1;
        }
        extras
    },
    phase: phase_of(SHIPPED),
};

/// Where the extras' weights start among a file's weights.
const EXTRAS_AT: usize = TERMS + TABLES * STATES;

/// `bytes` when they are a weights file: the magic of one of the formats
/// described at [`FILE_BYTES`], [`PHASED_FILE_BYTES`] and
/// [`EXTRAS_FILE_BYTES`], and its size.
const fn check(bytes: &[u8]) -> Result<&[u8], &'static str> {
    let size = match bytes.first_chunk::<8>() {
        Some(magic) if eq8(magic, MAGIC) => FILE_BYTES,
        Some(magic) if eq8(magic, MAGIC_PHASED) => PHASED_FILE_BYTES,
        Some(magic) if eq8(magic, MAGIC_EXTRAS) || eq8(magic, MAGIC_ROWS_PHASE) => EXTRAS_FILE_BYTES,
        _ => return Err("not a weights file (no DAMESEV1 to DAMESEV4 header)"),
    };
    if bytes.len() != size {
        return Err("a weights file of the wrong size for its version");
    }
    Ok(bytes)
}

/// The phase of a checked file: the fourth format's rows to go, else the
/// pieces.
const fn phase_of(bytes: &[u8]) -> Phase {
    match bytes.first_chunk::<8>() {
        Some(magic) if eq8(magic, MAGIC_ROWS_PHASE) => Phase::RowsToGo,
        _ => Phase::Pieces,
    }
}

const fn eq8(a: &[u8; 8], b: &[u8; 8]) -> bool {
    u64::from_le_bytes(*a) == u64::from_le_bytes(*b)
}

/// Weight `i` (the terms', then the tables' in order, then the extras') of
/// a checked file, in `phase`: a file of one value a weight gives it for
/// both.
const fn weight_at(bytes: &[u8], i: usize, phase: usize) -> i16 {
    let at = if bytes.len() == FILE_BYTES { MAGIC.len() + 2 * i } else { MAGIC.len() + 2 * (PHASES * i + phase) };
    i16::from_le_bytes([bytes[at], bytes[at + 1]])
}

impl Weights {
    /// Whether the opening's and the ending's values differ anywhere.
    pub fn is_phased(&self) -> bool {
        self.terms.iter().chain(&self.extras).any(|[o, e]| o != e) || self.tables.iter().any(|[o, e]| o != e)
    }

    /// Whether any whole-board term has a weight.
    pub fn has_extras(&self) -> bool {
        self.extras.iter().flatten().any(|w| *w != 0)
    }

    /// The file format of [`Weights::read`]: for weights blended by the
    /// pieces, one value a weight when the phases agree everywhere and no
    /// extra has a weight, two otherwise (as the shipped file), followed by
    /// the extras' when they have weights; for those blended by the rows to
    /// go, the fourth (two values a weight and the extras').
    pub fn encode(&self) -> Vec<u8> {
        let (magic, size) = match (self.phase, self.has_extras(), self.is_phased()) {
            (Phase::RowsToGo, _, _) => (MAGIC_ROWS_PHASE, EXTRAS_FILE_BYTES),
            (Phase::Pieces, true, _) => (MAGIC_EXTRAS, EXTRAS_FILE_BYTES),
            (Phase::Pieces, false, true) => (MAGIC_PHASED, PHASED_FILE_BYTES),
            (Phase::Pieces, false, false) => (MAGIC, FILE_BYTES),
        };
        let phases = if size == FILE_BYTES { 1 } else { PHASES };
        let mut bytes = Vec::with_capacity(size);
        bytes.extend_from_slice(magic);
        let term = |w: &i32| i16::try_from(*w).expect("a term's weight fits in an i16");
        for values in self.terms {
            for w in &values[..phases] {
                bytes.extend_from_slice(&term(w).to_le_bytes());
            }
        }
        for values in self.tables.iter() {
            for w in &values[..phases] {
                bytes.extend_from_slice(&w.to_le_bytes());
            }
        }
        if size == EXTRAS_FILE_BYTES {
            for values in self.extras {
                for w in &values {
                    bytes.extend_from_slice(&term(w).to_le_bytes());
                }
            }
        }
        bytes
    }

    /// Reads a weights file given at run time (`--weights`), refused with a
    /// reason when it is not one (the shipped file is read as the build
    /// compiles, by the same [`weight_at`]).
    pub fn read(bytes: &[u8]) -> Result<Weights, String> {
        let bytes = check(bytes).map_err(|e| format!("{e} ({} bytes)", bytes.len()))?;
        let value = |i, phase| weight_at(bytes, i, phase);
        Ok(Weights {
            terms: std::array::from_fn(|t| [value(t, 0) as i32, value(t, 1) as i32]),
            tables: (TERMS..EXTRAS_AT).map(|i| [value(i, 0), value(i, 1)]).collect(),
            extras: std::array::from_fn(|e| match bytes.len() == EXTRAS_FILE_BYTES {
                true => [value(EXTRAS_AT + e, 0) as i32, value(EXTRAS_AT + e, 1) as i32],
                false => [0; PHASES],
            }),
            phase: phase_of(bytes),
        })
    }

    /// Every weight 0, in both phases, blended by the pieces.
    pub fn zero() -> Weights {
        Weights {
            terms: [[0; PHASES]; TERMS],
            tables: vec![[0; PHASES]; TABLES * STATES].into(),
            extras: [[0; PHASES]; EXTRAS],
            phase: Phase::Pieces,
        }
    }

    /// The weights the build ships.
    pub fn shipped() -> &'static Weights {
        &WEIGHTS
    }
}

/// The terms' weights only: the tables are too long to print.
impl std::fmt::Debug for Weights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Weights")
            .field("terms", &self.terms)
            .field("extras", &self.extras)
            .field("phase", &self.phase)
            .finish_non_exhaustive()
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

/// The learned score of `pos` for White by the shipped weights (before the
/// draw scaling and the no-progress penalty, which both evaluations share).
#[inline]
pub fn white_score<G: Geometry>(pos: &Position<G>) -> i32 {
    white_score_with(&WEIGHTS, pos)
}

/// The same by `weights`: the opening's and the ending's sums, blended by
/// their [`Phase`] (exactly either when they agree).
#[inline]
pub fn white_score_with<G: Geometry>(weights: &Weights, pos: &Position<G>) -> i32 {
    let terms = Terms::difference(pos);
    let mut sums = [0i32; PHASES];
    for (t, values) in terms.0.iter().zip(&weights.terms) {
        sums[0] += t * values[0];
        sums[1] += t * values[1];
    }
    let white = pos.men(Color::White).0.to_u128() as u64;
    let black = pos.men(Color::Black).0.to_u128() as u64;
    for (table, (own, mirrored)) in indices(white, black).into_iter().enumerate() {
        let (plus, minus) = (weights.tables[table * STATES + own], weights.tables[table * STATES + mirrored]);
        sums[0] += plus[0] as i32 - minus[0] as i32;
        sums[1] += plus[1] as i32 - minus[1] as i32;
    }
    // Files without extras have them at 0: the same sums, no test a leaf.
    let kings = [Color::White, Color::Black].map(|c| pos.kings_of(c).0.to_u128() as u64);
    for (e, values) in Extras::difference(white, black, kings).0.iter().zip(&weights.extras) {
        sums[0] += e * values[0];
        sums[1] += e * values[1];
    }
    let opening = weights.phase.opening_share(white, black, pos.occupied().count());
    (sums[0] * opening + sums[1] * (PHASE_SCALE - opening)) / PHASE_SCALE
}

/// Whole-board terms of the learned evaluation.
pub const EXTRAS: usize = 2;

/// What the whole-board terms count, White's less Black's: how far a side's
/// men lean to one wing (the difference between its men on the left five
/// files and on the right five: a lopsided side runs out of moves on its
/// crowded wing) and its kings on the long diagonal (46–5), which a king
/// holds against several.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Extras(pub [i32; EXTRAS]);

impl Extras {
    /// From the men's and the kings' (White's, Black's) bits on the 10×10
    /// board.
    #[inline(always)]
    pub fn difference(white: u64, black: u64, kings: [u64; 2]) -> Extras {
        Extras([
            lean(white) - lean(black),
            (kings[0] & LONG_DIAGONAL).count_ones() as i32 - (kings[1] & LONG_DIAGONAL).count_ones() as i32,
        ])
    }
}

/// How far `men` lean to one wing: |men on files 0–4 − men on files 5–9|.
#[inline(always)]
fn lean(men: u64) -> i32 {
    ((men & LEFT_WING).count_ones() as i32 - (men & !LEFT_WING).count_ones() as i32).abs()
}

/// The bit of square `(row, column)` on the 10×10 board (0-based from the
/// top left, columns counting playable squares): see [`block_bits`].
const fn bit(row: u32, column: u32) -> u64 {
    1 << (5 * row + row / 2 + column)
}

/// The squares of the five files on the left: on even rows (counting from
/// the top) the playable squares sit on odd files, so a row's first three
/// or two.
const LEFT_WING: u64 = {
    let mut wing = 0;
    let mut row = 0;
    while row < 10 {
        let mut column = 0;
        while 2 * column + (row + 1) % 2 < 5 {
            wing |= bit(row, column);
            column += 1;
        }
        row += 1;
    }
    wing
};

/// Squares 46, 41, 37, 32, 28, 23, 19, 14, 10 and 5.
const LONG_DIAGONAL: u64 = {
    let mut mask = 0;
    let squares = [46u32, 41, 37, 32, 28, 23, 19, 14, 10, 5];
    let mut k = 0;
    while k < squares.len() {
        mask |= bit((squares[k] - 1) / 5, (squares[k] - 1) % 5);
        k += 1;
    }
    mask
};

/// For each table, the state of its region seen from White and the state
/// of the mirrored region seen from Black: the score adds the first weight
/// and subtracts the second. `white` and `black` are the men's bits on the
/// 10×10 board.
///
/// A region's four rows are two pairs of rows (0–1, 2–3, …), so it is read
/// as two blocks of four squares: a block's state once in order, as White's
/// regions read it, and once reversed with the colours swapped, as the
/// mirrored regions do. Each block is read once for all the regions it is
/// in (the evaluation asks this at every leaf).
#[inline(always)]
pub fn indices(white: u64, black: u64) -> [(usize, usize); TABLES] {
    // White's regions start on row pairs 0 and 1; their mirrors on row
    // pairs 3 and 2, so they span pairs 2 to 4.
    let mut forward = [[0u16; 4]; 3];
    let mut backward = [[0u16; 4]; 3];
    let mut column = 0;
    while column < 4 {
        let mut k = 0;
        while k < 3 {
            let (w, b) = (block_bits(white, k, column), block_bits(black, k, column));
            forward[k][column] = BLOCK[w] + 2 * BLOCK[b];
            let (w, b) = (block_bits(white, k + 2, column), block_bits(black, k + 2, column));
            backward[k][column] = BLOCK_REVERSED[b] + 2 * BLOCK_REVERSED[w];
            k += 1;
        }
        column += 1;
    }
    let mut states = [(0, 0); TABLES];
    let mut table = 0;
    while table < TABLES {
        let (pair, column) = (table / 4, table % 4);
        let own = forward[pair][column] + 81 * forward[pair + 1][column];
        // The mirror of the region at row pairs (p, p + 1) and column c is
        // at pairs (3 − p, 4 − p) and column 3 − c, read from its end: the
        // lower block first. (`backward` starts at pair 2.)
        let (lower, upper) = (2 - pair, 1 - pair);
        let mirrored = backward[lower][3 - column] + 81 * backward[upper][3 - column];
        states[table] = (own as usize, mirrored as usize);
        table += 1;
    }
    states
}

/// The 4 bits of the block of row pair `pair` (rows `2 × pair` and the next)
/// and playable columns `column` and the next: bit `2 × k + c` is the square
/// `k` rows down and `c` columns right. Square `(r, c)` (0-based, from the
/// top) sits on bit `5r + r/2 + c`, so the block's upper row starts at bit
/// `11 × pair + column` and its lower row five bits further.
#[inline(always)]
fn block_bits(men: u64, pair: usize, column: usize) -> usize {
    let x = men >> (11 * pair + column);
    ((x & 0b11) | ((x >> 3) & 0b1100)) as usize
}

/// `BLOCK[m]`: the 4 bits of `m` read as base-3 digits (bit `k` worth 3^k).
const BLOCK: [u16; 16] = base3_table(false);
/// The same with the bits reversed: a mirrored block read in the
/// original's order.
const BLOCK_REVERSED: [u16; 16] = base3_table(true);

const fn base3_table(reversed: bool) -> [u16; 16] {
    let mut table = [0u16; 16];
    let mut m = 0;
    while m < 16 {
        let mut value = 0u16;
        let mut power = 1u16;
        let mut k = 0;
        while k < 4 {
            let bit = if reversed { 3 - k } else { k };
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
    use crate::Position;

    /// The regions read square by square, as the first version did: what
    /// the blocks must give.
    fn indices_one_square_at_a_time(white: u64, black: u64) -> [(usize, usize); TABLES] {
        let square = |men: u64, r: u32, c: u32| (men >> (5 * r + r / 2 + c)) & 1;
        // A region's state from `own`'s men against `other`'s, its squares
        // in order (row by row, left to right) or from the last.
        let state = |own: u64, other: u64, row: u32, column: u32, reversed: bool| {
            let mut value = 0;
            for k in 0..8u32 {
                let at = if reversed { 7 - k } else { k };
                let (r, c) = (row + at / 2, column + at % 2);
                value += 3usize.pow(k) * (square(own, r, c) + 2 * square(other, r, c)) as usize;
            }
            value
        };
        std::array::from_fn(|table| {
            let (row, column) = (2 * (table as u32 / 4), table as u32 % 4);
            (state(white, black, row, column, false), state(black, white, 6 - row, 3 - column, true))
        })
    }

    #[test]
    fn the_blocks_read_the_regions_square_by_square() {
        let on_board = Position::start().occupied().0 | Position::from_fen("W:W21-30:B1").unwrap().occupied().0;
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut random = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let white = random() & random() & on_board;
            let black = random() & random() & on_board & !white;
            assert_eq!(indices(white, black), indices_one_square_at_a_time(white, black), "{white:#x} {black:#x}");
        }
        let (w, b) = men(&Position::start());
        assert_eq!(indices(w, b), indices_one_square_at_a_time(w, b));
    }

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
        // The shipped file is read back byte for byte, in its own format.
        let bytes = Weights::shipped().encode();
        assert_eq!(bytes, include_bytes!("learned.bin"), "the shipped file round-trips");
        assert!(Weights::read(&bytes).unwrap() == *Weights::shipped());
        assert!(Weights::read(&bytes[..bytes.len() - 2]).unwrap_err().contains("bytes"));
        assert!(Weights::read(b"DAMESPS1").unwrap_err().contains("header"));
        // The fourth format for weights blended by the rows to go, phased
        // or not.
        let mut rows = Weights { phase: Phase::RowsToGo, ..Weights::zero() };
        rows.terms[0] = [120, 120];
        let bytes = rows.encode();
        assert_eq!((bytes.len(), &bytes[..8]), (EXTRAS_FILE_BYTES, MAGIC_ROWS_PHASE.as_slice()));
        assert!(Weights::read(&bytes).unwrap() == rows);
        // Weights blended by the pieces keep the earlier formats: two values
        // a weight when the phases differ…
        let mut phased = Weights::zero();
        phased.terms[0] = [100, 140];
        phased.tables.to_mut()[3 * STATES + 77] = [-5, 7];
        let bytes = phased.encode();
        assert_eq!((bytes.len(), &bytes[..8]), (PHASED_FILE_BYTES, MAGIC_PHASED.as_slice()));
        assert!(Weights::read(&bytes).unwrap() == phased);
        assert!(Weights::read(&bytes[..FILE_BYTES]).unwrap_err().contains("bytes"));
        // …one when they agree: the first format, read back the same.
        let mut single = Weights::zero();
        single.terms[0] = [120, 120];
        single.tables.to_mut()[3 * STATES + 77] = [-5, -5];
        let bytes = single.encode();
        assert_eq!((bytes.len(), &bytes[..8]), (FILE_BYTES, MAGIC.as_slice()));
        assert!(Weights::read(&bytes).unwrap() == single);
        assert!(!single.is_phased() && phased.is_phased());
    }

    #[test]
    fn the_whole_board_terms_count_the_lean_and_the_long_diagonal() {
        let extras = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            let (w, b) = men(&pos);
            Extras::difference(w, b, [Color::White, Color::Black].map(|c| pos.kings_of(c).0))
        };
        // The start leans nowhere; men on 46 (file 0) and 15 (file 9)
        // together not at all; 47 (file 2) and 3 (file 5) are on either
        // side of the middle.
        assert_eq!(extras("W:W31-50:B1-20"), Extras([0, 0]));
        assert_eq!(extras("W:W46,15:B40").0[0], -1);
        assert_eq!(extras("W:W36,46,16:B45").0[0], 3 - 1);
        assert_eq!(extras("W:W46,47:B1,3").0[0], 2);
        // Kings on the long diagonal, White's less Black's.
        assert_eq!(extras("W:WK46,K28,K1:BK23,K5,K50").0[1], 2 - 2);
        assert_eq!(extras("W:WK46,K28,K1:BK24").0[1], 2);
    }

    #[test]
    fn the_whole_board_terms_keep_the_mirror_and_the_file_format() {
        let mut weights = Weights::shipped().clone();
        weights.extras = [[-3, -1], [25, 40]];
        for (fen, mirror) in [
            ("W:W31,32,33,40,45,50,K46:B1,2,9,14,20", "B:W31,37,42,49,50:B1,6,11,18,19,20,K5"),
            ("W:W27,28,36,46,K23:B3,7,8,12,K41", "B:W39,43,44,48,K10:B5,15,23,24,K28"),
        ] {
            let a = Position::from_fen(fen).unwrap();
            let b = Position::from_fen(mirror).unwrap();
            assert_eq!(white_score_with(&weights, &a), -white_score_with(&weights, &b), "{fen}");
            assert_ne!(white_score_with(&weights, &a), white_score(&a), "{fen}: the extras count");
        }
        let bytes = weights.encode();
        assert_eq!((bytes.len(), &bytes[..8]), (EXTRAS_FILE_BYTES, MAGIC_EXTRAS.as_slice()));
        assert!(Weights::read(&bytes).unwrap() == weights);
        assert!(Weights::read(&bytes[..PHASED_FILE_BYTES + 2]).unwrap_err().contains("bytes"));
        // A file of the second format (these bytes without the extras)
        // reads with none, its other weights the same.
        let mut earlier = bytes[..PHASED_FILE_BYTES].to_vec();
        earlier[..8].copy_from_slice(MAGIC_PHASED);
        let read = Weights::read(&earlier).unwrap();
        assert_eq!(read.extras, [[0; PHASES]; EXTRAS]);
        assert!(read.terms == weights.terms && read.tables == weights.tables && read.phase == Phase::Pieces);
    }

    #[test]
    fn the_phases_blend_by_the_rows_to_go_or_the_pieces() {
        // Only the men's weight differs: a man is worth 100 in the opening
        // and 140 in the ending, so one man up is worth the blend.
        let mut weights = Weights { phase: Phase::RowsToGo, ..Weights::zero() };
        weights.terms[0] = [100, 140];
        let (w, b) = men(&Position::start());
        assert_eq!(Phase::RowsToGo.opening_share(w, b, 40), PHASE_SCALE, "the start is all opening");
        // By the rows to go: 300 at the start less 6 for Black's man on 20
        // (row 3, six rows from row 9).
        let full = Position::from_fen("W:W31-50:B1-19").unwrap();
        assert_eq!(white_score_with(&weights, &full), (100 * 294 + 140 * 6) / 300);
        // White's men on rows 6 and 7, Black's on row 0: 5 × 6 + 7 and
        // 5 × 9 rows.
        let eleven = Position::from_fen("W:W31,32,33,34,35,36:B1,2,3,4,5").unwrap();
        assert_eq!(white_score_with(&weights, &eleven), (100 * 82 + 140 * 218) / 300);
        // Kings have no row to go: with one man a row from crowning beside
        // them, the position is all but ending.
        let kings = Position::from_fen("W:W6,K31:BK50").unwrap();
        assert_eq!(white_score_with(&weights, &kings), (100 + 140 * 299) / 300);
        // By the pieces (the earlier weights'): 39, 11 and 3 of 40.
        weights.phase = Phase::Pieces;
        assert_eq!(white_score_with(&weights, &full), (100 * 39 + 140) / 40);
        assert_eq!(white_score_with(&weights, &eleven), (100 * 11 + 140 * 29) / 40);
        let three = Position::from_fen("W:W31,32:B1").unwrap();
        assert_eq!(white_score_with(&weights, &three), (100 * 3 + 140 * 37) / 40);
        // The same values in both phases give them exactly.
        weights.terms[0] = [120, 120];
        assert_eq!(white_score_with(&weights, &eleven), 120);
        weights.phase = Phase::RowsToGo;
        assert_eq!(white_score_with(&weights, &eleven), 120);
    }
}
