//! Moves and move lists.

use super::geometry::{Geometry, Ten};
use super::{Bitboard, Square};
use smallvec::SmallVec;
use std::fmt;

/// A move: where the piece starts, where it ends and which pieces it
/// captures. That triple is the whole identity of a move: two capture paths
/// with the same start, end and captured set are one move. Under rules
/// where a man crowned mid-capture goes on as a king, the move also says
/// whether that happened (the end square alone may not tell).
///
/// The landing squares of a capture are not stored, which keeps a move at 16
/// bytes on the 8×8 and 10×10 boards for the move generator and the search;
/// [`Position::capture_paths`] recovers them for display and for
/// step-by-step input.
///
/// [`Position::capture_paths`]: super::Position::capture_paths
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move<G: Geometry = Ten> {
    pub from: Square<G>,
    pub to: Square<G>,
    pub captured: Bitboard<G>,
    /// The man was crowned on the far row in the middle of the capture and
    /// finished it as a king.
    pub crowned_in_passing: bool,
}

impl<G: Geometry> fmt::Debug for Move<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({})", self.long_form())
    }
}

impl<G: Geometry> Move<G> {
    pub fn quiet(from: Square<G>, to: Square<G>) -> Move<G> {
        Move { from, to, captured: Bitboard::EMPTY, crowned_in_passing: false }
    }

    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    /// How many pieces the move takes off the board.
    pub fn capture_count(&self) -> u32 {
        self.captured.count()
    }

    /// The same start, end and captured pieces: the same move as far as
    /// its text says.
    pub fn same_squares(&self, other: &Move<G>) -> bool {
        self.from == other.from && self.to == other.to && self.captured == other.captured
    }

    /// The order in which `dames moves` lists moves: by start, then end,
    /// then captured squares.
    pub fn sort_key(&self) -> (u8, u8, Vec<u8>) {
        (self.from.number(), self.to.number(), self.captured.squares().map(|s| s.number()).collect())
    }

    /// `32-28` for a quiet move, `28x19{23}` for a capture: captured squares
    /// in ascending order. Unambiguous without a position, unlike the PDN
    /// form, which [`super::notation`] writes.
    pub fn long_form(&self) -> LongForm<'_, G> {
        LongForm(self)
    }
}

/// See [`Move::long_form`].
pub struct LongForm<'a, G: Geometry = Ten>(&'a Move<G>);

impl<G: Geometry> fmt::Display for LongForm<'_, G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.0;
        if !m.is_capture() {
            return write!(f, "{}-{}", m.from, m.to);
        }
        write!(f, "{}x{}{{", m.from, m.to)?;
        for (i, s) in m.captured.squares().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{s}")?;
        }
        f.write_str("}")
    }
}

/// Legal moves of one position. Stored inline: 128 moves cover every
/// position met in play, so the move generator does not touch the heap; a
/// constructed position with more spills to the heap rather than failing.
pub type MoveList<G = Ten> = SmallVec<[Move<G>; 128]>;
