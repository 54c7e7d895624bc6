//! Moves and move lists.

use super::{Bitboard, Square};
use smallvec::SmallVec;
use std::fmt;

/// A move: where the piece starts, where it ends and which pieces it
/// captures. That triple is the whole identity of a move under FMJD rules: two
/// capture paths with the same start, end and captured set are one move.
///
/// The landing squares of a capture are not stored, which keeps a move at 16
/// bytes for the move generator and the search; [`Position::capture_paths`]
/// recovers them for display and for step-by-step input.
///
/// [`Position::capture_paths`]: super::Position::capture_paths
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub captured: Bitboard,
}

impl Move {
    pub const fn quiet(from: Square, to: Square) -> Move {
        Move { from, to, captured: Bitboard::EMPTY }
    }

    pub const fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    /// How many pieces the move takes off the board.
    pub const fn capture_count(&self) -> u32 {
        self.captured.count()
    }

    /// The order in which `dames moves` lists moves: by start, then end,
    /// then captured squares.
    pub fn sort_key(&self) -> (u8, u8, Vec<u8>) {
        (self.from.number(), self.to.number(), self.captured.squares().map(|s| s.number()).collect())
    }

    /// `32-28` for a quiet move, `28x19{23}` for a capture: captured squares
    /// in ascending order. Unambiguous without a position, unlike the PDN
    /// form, which [`super::notation`] writes.
    pub fn long_form(&self) -> LongForm<'_> {
        LongForm(self)
    }
}

/// See [`Move::long_form`].
pub struct LongForm<'a>(&'a Move);

impl fmt::Display for LongForm<'_> {
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
pub type MoveList = SmallVec<[Move; 128]>;
