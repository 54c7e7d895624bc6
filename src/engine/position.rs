//! Positions: an unvalidated [`Setup`] becomes a [`Position`] only when it
//! could stand on a real board.

use super::geometry::{Geometry, Ten};
use super::rules::PackedRules;
use super::{Bitboard, Color, Move, Piece, Role, Rules, Square};
use std::fmt;

/// Pieces on the board and the side to move, not yet checked.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Setup<G: Geometry = Ten> {
    pub white: Bitboard<G>,
    pub black: Bitboard<G>,
    /// Which of the pieces above are kings.
    pub kings: Bitboard<G>,
    pub turn: Option<Color>,
}

/// Why a [`Setup`] is not a position. Squares are given by number.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// A square holds both a white and a black piece.
    SquareTwice(u8),
    /// A square is marked as a king but holds no piece.
    KingOnEmptySquare(u8),
    /// A man stands on its own promotion row, where it would have been
    /// crowned.
    ManOnPromotionRow(u8, Color),
    /// A side has more pieces than it starts with.
    TooManyPieces(Color, u32),
    /// Nobody is to move.
    NoSideToMove,
    /// The rules are for another board than the position's.
    WrongBoard { rules: u8, board: u8 },
    /// A board of this size is left out of this build (the engine's
    /// `twelve` feature: see [`crate::any`]).
    BoardNotBuilt(u8),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::SquareTwice(s) => write!(f, "square {s} holds a white and a black piece"),
            PositionError::KingOnEmptySquare(s) => write!(f, "square {s} is marked king but is empty"),
            PositionError::ManOnPromotionRow(s, c) => {
                write!(f, "{c} man on square {s}, on its promotion row")
            }
            PositionError::TooManyPieces(c, n) => write!(f, "{c} has {n} pieces, more than it starts with"),
            PositionError::NoSideToMove => f.write_str("no side to move"),
            PositionError::WrongBoard { rules, board } => {
                write!(f, "rules for a {rules}×{rules} board on a {board}×{board} board")
            }
            PositionError::BoardNotBuilt(size) => write!(f, "the {size}×{size} board is not in this build"),
        }
    }
}

impl std::error::Error for PositionError {}

/// A legal position: where the pieces stand, whose turn it is, and the
/// rules it is played under. Copying it is cheap (32 bytes on the 8×8 and
/// 10×10 boards), so moves are played by copy-make. Without a parameter, a
/// position on the 10×10 board.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position<G: Geometry = Ten> {
    pub(crate) white: Bitboard<G>,
    pub(crate) black: Bitboard<G>,
    pub(crate) kings: Bitboard<G>,
    pub(crate) turn: Color,
    pub(crate) rules: PackedRules,
}

impl<G: Geometry> fmt::Debug for Position<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {})", self.rules(), self.to_fen())
    }
}

/// The move asked for is not among the legal moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct IllegalMove<G: Geometry = Ten>(pub Move<G>);

impl<G: Geometry> fmt::Display for IllegalMove<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}", self.0.long_form())
    }
}

impl<G: Geometry> std::error::Error for IllegalMove<G> {}

impl Position<Ten> {
    /// The starting position of international draughts: Black on 1–20,
    /// White on 31–50, White to move.
    pub fn start() -> Position<Ten> {
        Position::initial(Rules::INTERNATIONAL).expect("the international rules are for 10×10")
    }

    /// A position of international draughts.
    pub fn from_setup(setup: Setup<Ten>) -> Result<Position<Ten>, PositionError> {
        Position::from_setup_with(setup, Rules::INTERNATIONAL)
    }
}

impl<G: Geometry> Position<G> {
    /// The starting position of `rules`: `rules.rows` rows of men on each
    /// side, Black at the top, `rules.first` to move.
    pub fn initial(rules: Rules) -> Result<Position<G>, PositionError> {
        let men = rules.men_per_side();
        let last = G::SQUARES;
        let black = Bitboard::from_squares((1..=men).filter_map(Square::new));
        let white = Bitboard::from_squares((last - men + 1..=last).filter_map(Square::new));
        let setup = Setup { white, black, kings: Bitboard::EMPTY, turn: Some(rules.first) };
        Position::from_setup_with(setup, rules)
    }

    /// Checks `setup` as a position played under `rules`.
    pub fn from_setup_with(setup: Setup<G>, rules: Rules) -> Result<Position<G>, PositionError> {
        if rules.size != G::SIZE {
            return Err(PositionError::WrongBoard { rules: rules.size, board: G::SIZE });
        }
        if let Some(s) = (setup.white & setup.black).first() {
            return Err(PositionError::SquareTwice(s.number()));
        }
        if let Some(s) = (setup.kings & !(setup.white | setup.black)).first() {
            return Err(PositionError::KingOnEmptySquare(s.number()));
        }
        let white_men = setup.white & !setup.kings;
        if let Some(s) = (white_men & Bitboard::WHITE_PROMOTION).first() {
            return Err(PositionError::ManOnPromotionRow(s.number(), Color::White));
        }
        let black_men = setup.black & !setup.kings;
        if let Some(s) = (black_men & Bitboard::BLACK_PROMOTION).first() {
            return Err(PositionError::ManOnPromotionRow(s.number(), Color::Black));
        }
        for (color, pieces) in [(Color::White, setup.white), (Color::Black, setup.black)] {
            if pieces.count() > rules.men_per_side() as u32 {
                return Err(PositionError::TooManyPieces(color, pieces.count()));
            }
        }
        let turn = setup.turn.ok_or(PositionError::NoSideToMove)?;
        Ok(Position {
            white: setup.white,
            black: setup.black,
            kings: setup.kings,
            turn,
            rules: PackedRules::of(&rules),
        })
    }

    pub fn to_setup(&self) -> Setup<G> {
        Setup { white: self.white, black: self.black, kings: self.kings, turn: Some(self.turn) }
    }

    /// The rules this position is played under.
    pub const fn rules(&self) -> Rules {
        self.rules.unpack()
    }

    /// The same pieces played under other rules of the same board.
    pub fn with_rules(&self, rules: Rules) -> Result<Position<G>, PositionError> {
        Position::from_setup_with(self.to_setup(), rules)
    }

    pub const fn turn(&self) -> Color {
        self.turn
    }

    pub const fn pieces(&self, color: Color) -> Bitboard<G> {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    pub const fn kings(&self) -> Bitboard<G> {
        self.kings
    }

    pub fn men(&self, color: Color) -> Bitboard<G> {
        self.pieces(color) & !self.kings
    }

    pub fn kings_of(&self, color: Color) -> Bitboard<G> {
        self.pieces(color) & self.kings
    }

    pub fn occupied(&self) -> Bitboard<G> {
        self.white | self.black
    }

    pub fn empty(&self) -> Bitboard<G> {
        !self.occupied()
    }

    pub fn piece_at(&self, square: Square<G>) -> Option<Piece> {
        let color = if self.white.contains(square) {
            Color::White
        } else if self.black.contains(square) {
            Color::Black
        } else {
            return None;
        };
        let role = if self.kings.contains(square) { Role::King } else { Role::Man };
        Some(Piece { color, role })
    }

    /// Plays `mv` if it is legal here.
    pub fn play(&self, mv: &Move<G>) -> Result<Position<G>, IllegalMove<G>> {
        if self.legal_moves().contains(mv) {
            Ok(self.play_unchecked(mv))
        } else {
            Err(IllegalMove(*mv))
        }
    }

    /// Plays `mv` without checking it: for moves that come from
    /// [`Position::legal_moves`]. An illegal move gives a position that may
    /// break the rules, never undefined behaviour.
    #[inline]
    pub fn play_unchecked(&self, mv: &Move<G>) -> Position<G> {
        let from = Bitboard::from_square(mv.from).0;
        let to = Bitboard::from_square(mv.to).0;
        self.play_words(from, to, mv.captured.0, mv.crowned_in_passing)
    }

    /// [`Position::play_unchecked`] on raw words: the piece on `from`
    /// goes to `to`, `captured` leaves the board, and a man is crowned on
    /// its far row or, under rules that crown in passing, when
    /// `crowned_in_passing`. (Perft plays quiet moves this way, straight
    /// from the bitboards.)
    #[inline(always)]
    pub(crate) fn play_words(
        &self,
        from: G::Word,
        to: G::Word,
        captured: G::Word,
        crowned_in_passing: bool,
    ) -> Position<G> {
        self.play_words_as(self.turn, from, to, captured, crowned_in_passing)
    }

    /// [`Position::play_words`] for a side to move known to be `turn` (a
    /// constant in perft, so the colour's branches fold).
    #[inline(always)]
    pub(crate) fn play_words_as(
        &self,
        turn: Color,
        from: G::Word,
        to: G::Word,
        captured: G::Word,
        crowned_in_passing: bool,
    ) -> Position<G> {
        debug_assert_eq!(self.turn, turn);
        let zero = <G::Word as super::geometry::Word>::ZERO;
        let (mut us, mut them, promotion) = match turn {
            Color::White => (self.white.0, self.black.0, G::TOP_ROW),
            Color::Black => (self.black.0, self.white.0, G::BOTTOM_ROW),
        };
        let mut kings = self.kings.0 & !captured;
        // `from` may equal `to` (a rafle that comes back to its start), hence
        // clear-then-set rather than a toggle.
        us = (us & !from) | to;
        them &= !captured;
        if kings & from != zero {
            kings = (kings & !from) | to;
        } else if to & promotion != zero || crowned_in_passing {
            kings |= to;
        }
        let (white, black) = match turn {
            Color::White => (us, them),
            Color::Black => (them, us),
        };
        Position {
            white: Bitboard(white),
            black: Bitboard(black),
            kings: Bitboard(kings),
            turn: !turn,
            rules: self.rules,
        }
    }

    /// The same pieces with the other side to move (for evaluation and
    /// tests; not a legal move in draughts).
    pub fn with_turn(&self, turn: Color) -> Position<G> {
        Position { turn, ..*self }
    }
}

impl Default for Position<Ten> {
    fn default() -> Position<Ten> {
        Position::start()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: u8) -> Square {
        Square::new(n).unwrap()
    }

    #[test]
    fn setup_errors_are_typed() {
        let b = |v: &[u8]| Bitboard::from_squares(v.iter().map(|&n| sq(n)));
        let base = Setup { white: b(&[31]), black: b(&[20]), kings: Bitboard::EMPTY, turn: Some(Color::White) };
        assert!(Position::from_setup(base).is_ok());
        assert_eq!(Position::from_setup(Setup { black: b(&[31]), ..base }), Err(PositionError::SquareTwice(31)));
        assert_eq!(Position::from_setup(Setup { kings: b(&[30]), ..base }), Err(PositionError::KingOnEmptySquare(30)));
        assert_eq!(
            Position::from_setup(Setup { white: b(&[3]), ..base }),
            Err(PositionError::ManOnPromotionRow(3, Color::White))
        );
        assert_eq!(
            Position::from_setup(Setup { black: b(&[47]), ..base }),
            Err(PositionError::ManOnPromotionRow(47, Color::Black))
        );
        assert!(Position::from_setup(Setup { white: b(&[3]), kings: b(&[3]), ..base }).is_ok());
        let many = Bitboard::from_squares((6..=26).map(sq));
        assert_eq!(
            Position::from_setup(Setup { white: many, black: b(&[50]), kings: b(&[50]), ..base }),
            Err(PositionError::TooManyPieces(Color::White, 21))
        );
        assert_eq!(Position::from_setup(Setup { turn: None, ..base }), Err(PositionError::NoSideToMove));
    }

    #[test]
    fn play_promotes_only_at_the_end_and_removes_captures() {
        let b = |v: &[u8]| Bitboard::from_squares(v.iter().map(|&n| sq(n)));
        let pos = Position::from_setup(Setup {
            white: b(&[8]),
            black: b(&[40]),
            kings: Bitboard::EMPTY,
            turn: Some(Color::White),
        })
        .unwrap();
        let after = pos.play(&Move::quiet(sq(8), sq(3))).unwrap();
        assert_eq!(after.piece_at(sq(3)), Some(Piece { color: Color::White, role: Role::King }));
        assert_eq!(after.turn(), Color::Black);
        assert!(pos.play(&Move::quiet(sq(8), sq(13))).is_err());
    }
}
