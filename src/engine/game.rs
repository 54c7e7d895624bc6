//! A game: the moves played from a start position, and how it ended.

use super::notation::{parse_move, MoveTextError};
use super::{Color, IllegalMove, Move, MoveList, Position};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Plies in a row in which only kings moved and nothing was captured, after
/// which the game is drawn: 25 moves of each side.
pub const KING_MOVES_DRAW_PLIES: u32 = 50;

/// A game is drawn once each side has played more than this many moves.
pub const MOVE_LIMIT_PER_SIDE: u32 = 150;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum WinReason {
    /// The loser has no piece left.
    NoPieces,
    /// The loser has pieces but no legal move.
    Blocked,
    /// The loser gave up.
    Resignation,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum DrawReason {
    /// 25 moves of each side with only kings moving and no capture.
    KingMoves,
    /// Each side has played more than 150 moves.
    MoveLimit,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Outcome {
    Win { winner: Color, reason: WinReason },
    Draw(DrawReason),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, reason } => write!(f, "{winner} wins ({reason:?})"),
            Outcome::Draw(reason) => write!(f, "draw ({reason:?})"),
        }
    }
}

/// Why a move could not be added to a game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum GameError {
    /// The game has ended.
    Finished(Outcome),
    Illegal(IllegalMove),
    Text(MoveTextError),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Finished(o) => write!(f, "the game is over: {o}"),
            GameError::Illegal(e) => e.fmt(f),
            GameError::Text(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GameError {}

/// The moves of a game from its start position, with the counters the draw
/// rules need and the outcome once there is one.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Game {
    start: Position,
    moves: Vec<Move>,
    position: Position,
    /// Plies since a man moved or a piece was captured.
    king_only_plies: u32,
    moves_by_white: u32,
    moves_by_black: u32,
    outcome: Option<Outcome>,
}

impl Game {
    pub fn new(start: Position) -> Game {
        let mut game = Game {
            start,
            moves: Vec::new(),
            position: start,
            king_only_plies: 0,
            moves_by_white: 0,
            moves_by_black: 0,
            outcome: None,
        };
        game.outcome = game.judge();
        game
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn turn(&self) -> Color {
        self.position.turn()
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Plies since the last man move or capture (the 25-move rule's count).
    pub fn king_only_plies(&self) -> u32 {
        self.king_only_plies
    }

    /// Moves played by each side so far.
    pub fn moves_played(&self, color: Color) -> u32 {
        match color {
            Color::White => self.moves_by_white,
            Color::Black => self.moves_by_black,
        }
    }

    /// The legal moves now: none once the game is over.
    pub fn legal_moves(&self) -> MoveList {
        if self.is_over() {
            MoveList::new()
        } else {
            self.position.legal_moves()
        }
    }

    /// Plays a legal move.
    pub fn play(&mut self, mv: &Move) -> Result<(), GameError> {
        if let Some(outcome) = self.outcome {
            return Err(GameError::Finished(outcome));
        }
        let next = self.position.play(mv).map_err(GameError::Illegal)?;
        let man_moved = !self.position.kings().contains(mv.from);
        if man_moved || mv.is_capture() {
            self.king_only_plies = 0;
        } else {
            self.king_only_plies += 1;
        }
        match self.position.turn() {
            Color::White => self.moves_by_white += 1,
            Color::Black => self.moves_by_black += 1,
        }
        self.moves.push(*mv);
        self.position = next;
        self.outcome = self.judge();
        Ok(())
    }

    /// Plays a move written in notation (`32-28`, `19x30`).
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        if let Some(outcome) = self.outcome {
            return Err(GameError::Finished(outcome));
        }
        let mv = parse_move(&self.position, text).map_err(GameError::Text)?;
        self.play(&mv)?;
        Ok(mv)
    }

    /// `color` gives up.
    pub fn resign(&mut self, color: Color) -> Result<(), GameError> {
        if let Some(outcome) = self.outcome {
            return Err(GameError::Finished(outcome));
        }
        self.outcome = Some(Outcome::Win { winner: !color, reason: WinReason::Resignation });
        Ok(())
    }

    /// The position before each move and after the last: `moves().len() + 1`
    /// positions.
    pub fn positions(&self) -> Vec<Position> {
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        let mut pos = self.start;
        out.push(pos);
        for m in &self.moves {
            pos = pos.play_unchecked(m);
            out.push(pos);
        }
        out
    }

    fn judge(&self) -> Option<Outcome> {
        let pos = &self.position;
        let mover = pos.turn();
        if pos.pieces(mover).is_empty() {
            return Some(Outcome::Win { winner: !mover, reason: WinReason::NoPieces });
        }
        if !pos.has_legal_move() {
            return Some(Outcome::Win { winner: !mover, reason: WinReason::Blocked });
        }
        if self.king_only_plies >= KING_MOVES_DRAW_PLIES {
            return Some(Outcome::Draw(DrawReason::KingMoves));
        }
        if self.moves_by_white > MOVE_LIMIT_PER_SIDE && self.moves_by_black > MOVE_LIMIT_PER_SIDE {
            return Some(Outcome::Draw(DrawReason::MoveLimit));
        }
        None
    }
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Position::start())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_piece_and_no_move_lose() {
        let game = Game::new(Position::from_fen("W:W:B1").unwrap());
        assert_eq!(game.outcome(), Some(Outcome::Win { winner: Color::Black, reason: WinReason::NoPieces }));
        // The white man on 6 can only step to 1, where a black king stands.
        let game = Game::new(Position::from_fen("W:W6:BK1").unwrap());
        assert_eq!(game.outcome(), Some(Outcome::Win { winner: Color::Black, reason: WinReason::Blocked }));
        let mut game = Game::new(Position::from_fen("W:W28:B22").unwrap());
        game.play_text("28x17").unwrap();
        assert_eq!(game.outcome(), Some(Outcome::Win { winner: Color::White, reason: WinReason::NoPieces }));
        assert!(matches!(game.play_text("17-11"), Err(GameError::Finished(_))));
    }

    #[test]
    fn twenty_five_king_moves_each_draw_and_a_man_move_resets() {
        let mut game = Game::new(Position::from_fen("W:WK46,45:BK16").unwrap());
        for i in 0..KING_MOVES_DRAW_PLIES {
            assert_eq!(game.outcome(), None, "ply {i}");
            let text = match i % 4 {
                0 => "46-41",
                1 => "16-21",
                2 => "41-46",
                _ => "21-16",
            };
            game.play_text(text).unwrap();
            if i == 20 {
                assert_eq!(game.king_only_plies(), 21);
            }
        }
        assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::KingMoves)));

        let mut game = Game::new(Position::from_fen("W:WK46,45:BK16").unwrap());
        for text in ["46-41", "16-21", "45-40"] {
            game.play_text(text).unwrap();
        }
        assert_eq!(game.king_only_plies(), 0);
    }

    #[test]
    fn more_than_150_moves_each_draw() {
        // Kings shuffle on the left; a white man walks up the right edge often
        // enough to keep the 25-move rule away.
        let mut game = Game::new(Position::from_fen("W:WK46,45:BK16").unwrap());
        let mut man_path = ["45-40", "40-35", "35-30", "30-25", "25-20", "20-15", "15-10", "10-5"].into_iter();
        let mut white_king_home = true;
        let mut black_king_home = true;
        for ply in 0..302 {
            assert_eq!(game.outcome(), None, "ply {ply}");
            let text = match game.turn() {
                Color::White if game.king_only_plies() >= 40 => man_path.next().unwrap(),
                Color::White => {
                    white_king_home = !white_king_home;
                    if white_king_home {
                        "41-46"
                    } else {
                        "46-41"
                    }
                }
                Color::Black => {
                    black_king_home = !black_king_home;
                    if black_king_home {
                        "21-16"
                    } else {
                        "16-21"
                    }
                }
            };
            game.play_text(text).unwrap();
        }
        assert_eq!(game.moves_played(Color::White), 151);
        assert_eq!(game.moves_played(Color::Black), 151);
        assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::MoveLimit)));
    }

    #[test]
    fn positions_follow_the_moves() {
        let mut game = Game::default();
        game.play_text("32-28").unwrap();
        game.play_text("19-23").unwrap();
        let positions = game.positions();
        assert_eq!(positions.len(), 3);
        assert_eq!(positions[2], *game.position());
    }
}
