//! Positions: an unvalidated [`Setup`] becomes a [`Position`] only when it
//! could stand on a real board.

use super::{Bitboard, Color, Move, Piece, Role, Square};
use std::fmt;

/// Pieces on the board and the side to move, not yet checked.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Setup {
    pub white: Bitboard,
    pub black: Bitboard,
    /// Which of the pieces above are kings.
    pub kings: Bitboard,
    pub turn: Option<Color>,
}

/// Why a [`Setup`] is not a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// A square holds both a white and a black piece.
    SquareTwice(Square),
    /// A square is marked as a king but holds no piece.
    KingOnEmptySquare(Square),
    /// A man stands on its own promotion row, where it would have been
    /// crowned.
    ManOnPromotionRow(Square, Color),
    /// A side has more than the 20 pieces it starts with.
    TooManyPieces(Color, u32),
    /// Nobody is to move.
    NoSideToMove,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::SquareTwice(s) => write!(f, "square {s} holds a white and a black piece"),
            PositionError::KingOnEmptySquare(s) => write!(f, "square {s} is marked king but is empty"),
            PositionError::ManOnPromotionRow(s, c) => {
                write!(f, "{c} man on square {s}, on its promotion row")
            }
            PositionError::TooManyPieces(c, n) => write!(f, "{c} has {n} pieces, more than 20"),
            PositionError::NoSideToMove => f.write_str("no side to move"),
        }
    }
}

impl std::error::Error for PositionError {}

/// A legal position: where the pieces stand and whose turn it is. Copying
/// it is cheap (32 bytes), so moves are played by copy-make.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub(crate) white: Bitboard,
    pub(crate) black: Bitboard,
    pub(crate) kings: Bitboard,
    pub(crate) turn: Color,
}

/// The move asked for is not among the legal moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct IllegalMove(pub Move);

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}", self.0.long_form())
    }
}

impl std::error::Error for IllegalMove {}

impl Position {
    /// The starting position: Black on 1–20, White on 31–50, White to move.
    pub fn start() -> Position {
        let black = Bitboard::from_squares((1..=20).filter_map(Square::new));
        let white = Bitboard::from_squares((31..=50).filter_map(Square::new));
        Position { white, black, kings: Bitboard::EMPTY, turn: Color::White }
    }

    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        if let Some(s) = (setup.white & setup.black).first() {
            return Err(PositionError::SquareTwice(s));
        }
        if let Some(s) = (setup.kings & !(setup.white | setup.black)).first() {
            return Err(PositionError::KingOnEmptySquare(s));
        }
        let white_men = setup.white & !setup.kings;
        if let Some(s) = (white_men & Bitboard::WHITE_PROMOTION).first() {
            return Err(PositionError::ManOnPromotionRow(s, Color::White));
        }
        let black_men = setup.black & !setup.kings;
        if let Some(s) = (black_men & Bitboard::BLACK_PROMOTION).first() {
            return Err(PositionError::ManOnPromotionRow(s, Color::Black));
        }
        for (color, pieces) in [(Color::White, setup.white), (Color::Black, setup.black)] {
            if pieces.count() > 20 {
                return Err(PositionError::TooManyPieces(color, pieces.count()));
            }
        }
        let turn = setup.turn.ok_or(PositionError::NoSideToMove)?;
        Ok(Position { white: setup.white, black: setup.black, kings: setup.kings, turn })
    }

    pub fn to_setup(&self) -> Setup {
        Setup { white: self.white, black: self.black, kings: self.kings, turn: Some(self.turn) }
    }

    pub const fn turn(&self) -> Color {
        self.turn
    }

    pub const fn pieces(&self, color: Color) -> Bitboard {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    pub const fn kings(&self) -> Bitboard {
        self.kings
    }

    pub fn men(&self, color: Color) -> Bitboard {
        self.pieces(color) & !self.kings
    }

    pub fn kings_of(&self, color: Color) -> Bitboard {
        self.pieces(color) & self.kings
    }

    pub fn occupied(&self) -> Bitboard {
        self.white | self.black
    }

    pub fn empty(&self) -> Bitboard {
        !self.occupied()
    }

    pub fn piece_at(&self, square: Square) -> Option<Piece> {
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
    pub fn play(&self, mv: &Move) -> Result<Position, IllegalMove> {
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
    pub fn play_unchecked(&self, mv: &Move) -> Position {
        let from = Bitboard::from_square(mv.from).0;
        let to = Bitboard::from_square(mv.to).0;
        let captured = mv.captured.0;
        let (mut us, mut them, promotion) = match self.turn {
            Color::White => (self.white.0, self.black.0, Bitboard::WHITE_PROMOTION.0),
            Color::Black => (self.black.0, self.white.0, Bitboard::BLACK_PROMOTION.0),
        };
        let mut kings = self.kings.0 & !captured;
        // `from` may equal `to` (a rafle that comes back to its start), hence
        // clear-then-set rather than a toggle.
        us = (us & !from) | to;
        them &= !captured;
        if kings & from != 0 {
            kings = (kings & !from) | to;
        } else if to & promotion != 0 {
            kings |= to;
        }
        let (white, black) = match self.turn {
            Color::White => (us, them),
            Color::Black => (them, us),
        };
        Position { white: Bitboard(white), black: Bitboard(black), kings: Bitboard(kings), turn: !self.turn }
    }

    /// The same pieces with the other side to move (for evaluation and
    /// tests; not a legal move in draughts).
    pub fn with_turn(&self, turn: Color) -> Position {
        Position { turn, ..*self }
    }
}

impl Default for Position {
    fn default() -> Position {
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
        assert_eq!(Position::from_setup(Setup { black: b(&[31]), ..base }), Err(PositionError::SquareTwice(sq(31))));
        assert_eq!(
            Position::from_setup(Setup { kings: b(&[30]), ..base }),
            Err(PositionError::KingOnEmptySquare(sq(30)))
        );
        assert_eq!(
            Position::from_setup(Setup { white: b(&[3]), ..base }),
            Err(PositionError::ManOnPromotionRow(sq(3), Color::White))
        );
        assert_eq!(
            Position::from_setup(Setup { black: b(&[47]), ..base }),
            Err(PositionError::ManOnPromotionRow(sq(47), Color::Black))
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
