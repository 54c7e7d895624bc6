//! A game: the moves played from a start position, and how it ended under
//! the rules of that position (the no-progress count, the repetition rule,
//! a move limit), and under the endgame counts a game may follow besides
//! (the electronic boards', FMJD's).

use super::geometry::{Geometry, Ten};
use super::notation::{parse_move, MoveTextError};
use super::{Color, IllegalMove, Move, MoveList, Position};
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub enum WinReason {
    /// The loser has no piece left.
    NoPieces,
    /// The loser has pieces but no legal move.
    Blocked,
    /// The loser gave up.
    Resignation,
}
crate::deserialize_by_name!(WinReason { NoPieces, Blocked, Resignation });

#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum DrawReason {
    /// The rules' count of moves of each side (25 in international
    /// draughts) with only kings moving and no capture. (The name is
    /// stored with finished games.)
    KingMoves,
    /// Each side has played more moves than the rules' limit (150 in the
    /// daily challenge).
    MoveLimit,
    /// The same position, with the same side to move, a third time.
    Repetition,
    /// Both players agreed to a draw (one offered, the other accepted).
    Agreement,
    /// The electronic boards' rule (when a game asks for it, see
    /// [`Game::with_endgame_limit`]): one side has a single king, the other
    /// at most three pieces, all kings, and the stronger side has not won
    /// within the limit's moves of each side.
    EndgameLimit,
    /// FMJD's endgame counts (when a game follows them, see
    /// [`Game::with_fmjd_counts`]): a lone king held out for
    /// [`FMJD_COUNT_THREE`] moves of each side against three pieces, or
    /// [`FMJD_COUNT_TWO`] against two or one.
    EndgameCount,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Outcome {
    Win { winner: Color, reason: WinReason },
    Draw(DrawReason),
}

impl Outcome {
    /// The result as PDN writes it for international draughts: two points
    /// a win, one each a draw, from White's side.
    pub const fn pdn_result(self) -> &'static str {
        match self {
            Outcome::Win { winner: Color::White, .. } => "2-0",
            Outcome::Win { winner: Color::Black, .. } => "0-2",
            Outcome::Draw(_) => "1-1",
        }
    }
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
pub enum GameError<G: Geometry = Ten> {
    /// The game has ended.
    Finished(Outcome),
    Illegal(IllegalMove<G>),
    Text(MoveTextError),
}

impl<G: Geometry> fmt::Display for GameError<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Finished(o) => write!(f, "the game is over: {o}"),
            GameError::Illegal(e) => e.fmt(f),
            GameError::Text(e) => e.fmt(f),
        }
    }
}

impl<G: Geometry> std::error::Error for GameError<G> {}

/// The moves of a game from its start position, with the counters the draw
/// rules need and the outcome once there is one. Without a parameter, a game
/// on the 10×10 board.
#[derive(Clone)]
pub struct Game<G: Geometry = Ten> {
    start: Position<G>,
    moves: Vec<Move<G>>,
    position: Position<G>,
    moves_by_white: u32,
    moves_by_black: u32,
    /// The positions since a man moved or a piece was captured (none can
    /// come back after that), the current one last: the repetition rule
    /// compares them, and their count is the no-progress count.
    since_progress: Vec<Position<G>>,
    /// The electronic boards' endgame rule: its count of moves of each
    /// side, or `None` when the game does not follow it.
    endgame_limit: Option<u32>,
    /// Plies played since that endgame was reached.
    endgame_plies: u32,
    /// The players chose to play on after that rule declared a draw: it
    /// no longer applies.
    played_on: bool,
    /// FMJD's endgame counts apply to this game.
    fmjd_counts: bool,
    /// Plies played since the count of the present material began (0
    /// outside a counted endgame).
    count_plies: u32,
    outcome: Option<Outcome>,
}

impl<G: Geometry> PartialEq for Game<G> {
    fn eq(&self, other: &Self) -> bool {
        self.start == other.start && self.moves == other.moves && self.outcome == other.outcome
    }
}

impl<G: Geometry> Eq for Game<G> {}

impl<G: Geometry> fmt::Debug for Game<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("start", &self.start)
            .field("moves", &self.moves)
            .field("outcome", &self.outcome)
            .finish()
    }
}

impl<G: Geometry> Game<G> {
    /// A game from `start`, played under its rules.
    pub fn new(start: Position<G>) -> Game<G> {
        let mut game = Game {
            start,
            moves: Vec::new(),
            position: start,
            moves_by_white: 0,
            moves_by_black: 0,
            since_progress: vec![start],
            endgame_limit: None,
            endgame_plies: 0,
            played_on: false,
            fmjd_counts: false,
            count_plies: 0,
            outcome: None,
        };
        game.outcome = game.judge();
        game
    }

    /// A game from `start` that also follows FMJD's endgame counts, as
    /// tournaments do (see [`fmjd_count`]): a match against an engine that
    /// keeps no history has them applied by whoever keeps the game.
    pub fn with_fmjd_counts(start: Position<G>) -> Game<G> {
        let mut game = Game::new(start);
        game.fmjd_counts = true;
        game.outcome = game.judge();
        game
    }

    /// Plies played since FMJD's count of the present material began (0
    /// outside a counted endgame or in a game that does not follow them).
    pub fn count_plies(&self) -> u32 {
        self.count_plies
    }

    /// A game from `start` that also follows the electronic boards'
    /// endgame rule: one king against at most three kings is drawn when the
    /// stronger side has not won within `moves` moves of each side (the
    /// players may then play on, see [`Game::play_on`]).
    pub fn with_endgame_limit(start: Position<G>, moves: u32) -> Game<G> {
        let mut game = Game::new(start);
        game.endgame_limit = Some(moves);
        game.endgame_plies = 0;
        game.outcome = game.judge();
        game
    }

    /// Plies played since the one-king endgame was reached (0 outside it).
    pub fn endgame_plies(&self) -> u32 {
        self.endgame_plies
    }

    /// After the endgame rule declared a draw, the players play on: the
    /// rule no longer applies to this game. Refused for any other outcome.
    pub fn play_on(&mut self) -> Result<(), GameError<G>> {
        match self.outcome {
            Some(Outcome::Draw(DrawReason::EndgameLimit)) => {
                self.played_on = true;
                self.outcome = self.judge();
                Ok(())
            }
            Some(outcome) => Err(GameError::Finished(outcome)),
            None => Ok(()),
        }
    }

    /// Whether the players chose to play on after the endgame rule.
    pub fn has_played_on(&self) -> bool {
        self.played_on
    }

    pub fn start(&self) -> &Position<G> {
        &self.start
    }

    pub fn position(&self) -> &Position<G> {
        &self.position
    }

    pub fn moves(&self) -> &[Move<G>] {
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

    /// Plies since the last man move or capture (the no-progress count).
    pub fn king_only_plies(&self) -> u32 {
        self.since_progress.len() as u32 - 1
    }

    /// Moves played by each side so far.
    pub fn moves_played(&self, color: Color) -> u32 {
        match color {
            Color::White => self.moves_by_white,
            Color::Black => self.moves_by_black,
        }
    }

    /// The positions since the last man move or capture, oldest first, the
    /// current one last: the ones the repetition rule compares.
    pub fn since_progress(&self) -> &[Position<G>] {
        &self.since_progress
    }

    /// The legal moves now: none once the game is over.
    pub fn legal_moves(&self) -> MoveList<G> {
        if self.is_over() {
            MoveList::new()
        } else {
            self.position.legal_moves()
        }
    }

    /// Plays a legal move.
    pub fn play(&mut self, mv: &Move<G>) -> Result<(), GameError<G>> {
        if let Some(outcome) = self.outcome {
            return Err(GameError::Finished(outcome));
        }
        let next = self.position.play(mv).map_err(GameError::Illegal)?;
        let man_moved = !self.position.kings().contains(mv.from);
        if man_moved || mv.is_capture() {
            self.since_progress.clear();
        }
        match self.position.turn() {
            Color::White => self.moves_by_white += 1,
            Color::Black => self.moves_by_black += 1,
        }
        // Counted from the endgame's first position: the move that reaches
        // it (a capture, a crowning) is not one of the moves allowed. Only
        // games that follow the rule count.
        if self.endgame_limit.is_some() {
            let in_endgame = is_one_king_endgame(&self.position) && is_one_king_endgame(&next);
            self.endgame_plies = if in_endgame { self.endgame_plies + 1 } else { 0 };
        }
        // Likewise from the first position of the material counted; a
        // capture that brings a shorter count starts that count afresh,
        // while a crowning or a capture within the same count goes on
        // counting (the count is the most moves the material gets).
        if self.fmjd_counts {
            let (before, after) = (fmjd_count(&self.position), fmjd_count(&next));
            self.count_plies = if after.is_some() && after == before { self.count_plies + 1 } else { 0 };
        }
        self.moves.push(*mv);
        self.position = next;
        self.since_progress.push(next);
        self.outcome = self.judge();
        Ok(())
    }

    /// Plays a move written in notation (`32-28`, `19x30`).
    pub fn play_text(&mut self, text: &str) -> Result<Move<G>, GameError<G>> {
        if let Some(outcome) = self.outcome {
            return Err(GameError::Finished(outcome));
        }
        let mv = parse_move(&self.position, text).map_err(GameError::Text)?;
        self.play(&mv)?;
        Ok(mv)
    }

    /// `color` gives up.
    pub fn resign(&mut self, color: Color) -> Result<(), GameError<G>> {
        if let Some(outcome) = self.outcome {
            return Err(GameError::Finished(outcome));
        }
        self.outcome = Some(Outcome::Win { winner: !color, reason: WinReason::Resignation });
        Ok(())
    }

    /// Both players agree to a draw.
    pub fn agree_draw(&mut self) -> Result<(), GameError<G>> {
        if let Some(outcome) = self.outcome {
            return Err(GameError::Finished(outcome));
        }
        self.outcome = Some(Outcome::Draw(DrawReason::Agreement));
        Ok(())
    }

    /// The position before each move and after the last: `moves().len() + 1`
    /// positions.
    pub fn positions(&self) -> Vec<Position<G>> {
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
        let rules = pos.rules();
        if rules.draw_moves > 0 && self.king_only_plies() >= 2 * rules.draw_moves as u32 {
            return Some(Outcome::Draw(DrawReason::KingMoves));
        }
        let limit = rules.move_limit as u32;
        if limit > 0 && self.moves_by_white > limit && self.moves_by_black > limit {
            return Some(Outcome::Draw(DrawReason::MoveLimit));
        }
        if rules.repetition && self.since_progress.iter().filter(|p| **p == *pos).count() >= 3 {
            return Some(Outcome::Draw(DrawReason::Repetition));
        }
        if let Some(moves) = self.endgame_limit.filter(|_| !self.played_on) {
            if self.endgame_plies >= 2 * moves {
                return Some(Outcome::Draw(DrawReason::EndgameLimit));
            }
        }
        if let Some(moves) = fmjd_count(pos).filter(|_| self.fmjd_counts) {
            if self.count_plies >= 2 * moves {
                return Some(Outcome::Draw(DrawReason::EndgameCount));
            }
        }
        None
    }
}

/// FMJD's endgame counts (articles 6.4 and 6.5 of the international
/// rules): a lone king against three pieces, one of them at least a king,
/// is drawn when the stronger side has not won within this many moves of
/// each side…
pub const FMJD_COUNT_THREE: u32 = 16;
/// …and against two pieces or one, a king among them, within this many.
pub const FMJD_COUNT_TWO: u32 = 5;

/// The moves of each side FMJD's endgame counts give the material of
/// `pos`: [`FMJD_COUNT_THREE`] or [`FMJD_COUNT_TWO`] when one side has a
/// single king and the other at most three pieces with a king among them,
/// none otherwise.
pub fn fmjd_count<G: Geometry>(pos: &Position<G>) -> Option<u32> {
    let kings = pos.kings();
    let (white, black) = (pos.pieces(Color::White), pos.pieces(Color::Black));
    let (lone, other) = if white.count() <= black.count() { (white, black) } else { (black, white) };
    let lone_king = lone.count() == 1 && (lone & kings) == lone;
    let other_has_king = (other & kings) != super::Bitboard::EMPTY;
    match other.count() {
        _ if !lone_king || !other_has_king => None,
        3 => Some(FMJD_COUNT_THREE),
        1 | 2 => Some(FMJD_COUNT_TWO),
        _ => None,
    }
}

/// The electronic board's endgame rule: a lone king against at most this
/// many kings (and nothing else on the board)…
pub const ENDGAME_STRONGER_KINGS: u32 = 3;
/// …is drawn after this many moves of each side without a win.
pub const ENDGAME_LIMIT_MOVES: u32 = 10;

/// One side has a single king, the other at most three pieces, all kings.
fn is_one_king_endgame<G: Geometry>(pos: &Position<G>) -> bool {
    let kings = pos.kings();
    let (white, black) = (pos.pieces(Color::White), pos.pieces(Color::Black));
    let only_kings = (white | black) & !kings == super::Bitboard::EMPTY;
    let (few, many) = if white.count() <= black.count() { (white, black) } else { (black, white) };
    only_kings && few.count() == 1 && (1..=ENDGAME_STRONGER_KINGS).contains(&many.count())
}

impl Default for Game<Ten> {
    fn default() -> Game<Ten> {
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

    use crate::geometry::Eight;
    use crate::Rules;

    /// A position of the daily challenge's rules (no repetition rule, the
    /// 150-move limit).
    fn daily(fen: &str) -> Position {
        Position::from_fen_with(fen, Rules::DAILY).unwrap()
    }

    #[test]
    fn twenty_five_king_moves_each_draw_and_a_man_move_resets() {
        let mut game = Game::new(daily("W:WK46,45:BK16"));
        for i in 0..50 {
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

        let mut game = Game::new(daily("W:WK46,45:BK16"));
        for text in ["46-41", "16-21", "45-40"] {
            game.play_text(text).unwrap();
        }
        assert_eq!(game.king_only_plies(), 0);
    }

    #[test]
    fn more_than_150_moves_each_draw() {
        // Kings shuffle on the left; a white man walks up the right edge often
        // enough to keep the 25-move rule away.
        let mut game = Game::new(daily("W:WK46,45:BK16"));
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

    /// Kings shuffling back and forth: the start position comes back after
    /// every four plies.
    fn shuffle<G: Geometry>(start: Position<G>, moves: [&str; 4]) -> Game<G> {
        let mut game = Game::new(start);
        for ply in 0..8 {
            assert_eq!(game.outcome(), None, "{} ply {ply}", start.rules());
            game.play_text(moves[ply % 4]).unwrap();
        }
        game
    }

    #[test]
    fn a_third_repetition_draws_in_every_rule_set_but_the_daily_challenge() {
        let shuffle_ten = ["46-41", "16-21", "41-46", "21-16"];
        for rules in [Rules::INTERNATIONAL, Rules::parse("international,majority=0").unwrap()] {
            let game = shuffle(Position::<Ten>::from_fen_with("W:WK46,45:BK16", rules).unwrap(), shuffle_ten);
            assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)), "{rules}");
            assert_eq!(game.since_progress().len(), 9);
        }
        for rules in [Rules::ENGLISH, Rules::RUSSIAN, Rules::BRAZILIAN] {
            let start = Position::<Eight>::from_fen_with("W:WK29:BK1", rules).unwrap();
            let game = shuffle(start, ["29-25", "1-5", "25-29", "5-1"]);
            assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)), "{rules}");
        }
        let mut game = Game::new(daily("W:WK46,45:BK16"));
        for ply in 0..12 {
            game.play_text(shuffle_ten[ply % 4]).unwrap();
        }
        assert_eq!(game.outcome(), None, "the daily challenge has no repetition rule");
        // A man's move starts the count again.
        let mut game = Game::new(Position::from_fen("W:WK46,45:BK16").unwrap());
        for text in ["46-41", "16-21", "41-46", "21-16", "45-40", "16-21", "46-41", "21-16", "41-46"] {
            game.play_text(text).unwrap();
        }
        assert_eq!(game.outcome(), None);
    }

    #[test]
    fn the_no_progress_count_is_the_rules() {
        // Russian: 15 moves of each side (repetition off, so that the
        // shuffle runs long enough).
        let rules = Rules::parse("russian,repetition=0").unwrap();
        let mut game = Game::new(Position::<Eight>::from_fen_with("W:WK29:BK1", rules).unwrap());
        let cycle = ["29-25", "1-5", "25-29", "5-1"];
        for ply in 0..30 {
            assert_eq!(game.outcome(), None, "ply {ply}");
            game.play_text(cycle[ply % 4]).unwrap();
        }
        assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::KingMoves)));
        let english = Rules::parse("english,repetition=0").unwrap();
        let mut game = Game::new(Position::<Eight>::from_fen_with("W:WK29:BK1", english).unwrap());
        for ply in 0..80 {
            assert_eq!(game.outcome(), None, "ply {ply}");
            game.play_text(cycle[ply % 4]).unwrap();
        }
        assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::KingMoves)), "40 moves each");
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

    #[test]
    fn the_electronic_boards_endgame_rule_draws_then_lets_the_players_play_on() {
        let rules = Rules { repetition: false, ..Rules::INTERNATIONAL };
        let start = Position::<Ten>::from_fen_with("W:WK47:BK4", rules).unwrap();
        let shuffle = ["47-42", "4-10", "42-47", "10-4"];
        let mut plain = Game::new(start);
        let mut electronic = Game::with_endgame_limit(start, 10);
        for ply in 0..20 {
            assert_eq!(electronic.outcome(), None, "ply {ply}");
            plain.play_text(shuffle[ply % 4]).unwrap();
            electronic.play_text(shuffle[ply % 4]).unwrap();
        }
        assert_eq!(electronic.endgame_plies(), 20);
        assert_eq!(electronic.outcome(), Some(Outcome::Draw(DrawReason::EndgameLimit)), "10 moves of each side");
        assert_eq!(plain.outcome(), None, "a game without the rule goes on");
        electronic.play_on().unwrap();
        assert!(electronic.has_played_on());
        assert_eq!(electronic.outcome(), None);
        for ply in 20..50 {
            electronic.play_text(shuffle[ply % 4]).unwrap();
        }
        assert_eq!(electronic.outcome(), Some(Outcome::Draw(DrawReason::KingMoves)), "the usual rules still apply");
        assert!(electronic.play_on().is_err(), "only the endgame rule's draw can be played on");
    }

    #[test]
    fn the_endgame_rule_needs_one_king_against_at_most_three_kings() {
        let rules = Rules::INTERNATIONAL;
        let fen = |f: &str| Position::<Ten>::from_fen_with(f, rules).unwrap();
        assert!(is_one_king_endgame(&fen("W:WK47,K48,K49:BK4")));
        assert!(is_one_king_endgame(&fen("B:WK47:BK4,K3")));
        assert!(!is_one_king_endgame(&fen("W:WK47,K48,K49,K50:BK4")), "four kings");
        assert!(!is_one_king_endgame(&fen("W:WK47,48:BK4")), "a man");
        assert!(!is_one_king_endgame(&fen("W:WK47,K48:BK4,K3")), "two kings each");
    }

    #[test]
    fn fmjd_counts_a_lone_king_against_at_most_three_pieces_with_a_king() {
        for (fen, count) in [
            ("W:WK46,K47,K48:BK3", Some(FMJD_COUNT_THREE)),
            ("W:WK46,47,48:BK3", Some(FMJD_COUNT_THREE)),
            ("B:WK3:BK46,K47,38", Some(FMJD_COUNT_THREE)),
            ("W:WK46,K47:BK3", Some(FMJD_COUNT_TWO)),
            ("W:WK46,47:BK3", Some(FMJD_COUNT_TWO)),
            ("W:WK46:BK3", Some(FMJD_COUNT_TWO)),
            ("W:W46,47,48:BK3", None),
            ("W:WK46,K47,K48,K49:BK3", None),
            ("W:WK46:B3", None),
            ("W:W46:BK3", None),
            ("W:WK46,K47:BK3,K4", None),
            ("W:WK46,K47:BK3,4", None),
        ] {
            assert_eq!(fmjd_count(&Position::from_fen(fen).unwrap()), count, "{fen}");
        }
    }

    #[test]
    fn fmjd_counts_draw_after_sixteen_or_five_moves_of_each_side() {
        // Repetition off, so that a shuffle of kings runs as long as the
        // count allows.
        let rules = Rules { repetition: false, ..Rules::INTERNATIONAL };
        for (fen, shuffle, plies) in [
            ("W:WK46,K47,K48:BK3", ["48-43", "3-9", "43-48", "9-3"], 32),
            ("W:WK46,47,48:BK3", ["46-41", "3-9", "41-46", "9-3"], 32),
            ("W:WK46,K47:BK3", ["46-41", "3-9", "41-46", "9-3"], 10),
            ("W:WK46,47:BK3", ["46-41", "3-9", "41-46", "9-3"], 10),
            ("W:WK46:BK3", ["46-41", "3-9", "41-46", "9-3"], 10),
        ] {
            let start = Position::<Ten>::from_fen_with(fen, rules).unwrap();
            let mut counted = Game::with_fmjd_counts(start);
            let mut plain = Game::new(start);
            for ply in 0..plies {
                assert_eq!(counted.outcome(), None, "{fen} ply {ply}");
                counted.play_text(shuffle[ply % 4]).unwrap();
                plain.play_text(shuffle[ply % 4]).unwrap();
            }
            assert_eq!(counted.count_plies(), plies as u32, "{fen}");
            assert_eq!(counted.outcome(), Some(Outcome::Draw(DrawReason::EndgameCount)), "{fen}");
            assert_eq!(plain.outcome(), None, "{fen}: a game without the counts goes on");
        }
    }

    #[test]
    fn a_capture_that_shortens_the_fmjd_count_starts_it_afresh() {
        let rules = Rules { repetition: false, ..Rules::INTERNATIONAL };
        let start = Position::<Ten>::from_fen_with("W:WK9,K47,K48:BK26", rules).unwrap();
        let mut game = Game::with_fmjd_counts(start);
        for text in ["47-41", "26-21", "41-47", "21-26", "48-37"] {
            game.play_text(text).unwrap();
        }
        assert_eq!(game.count_plies(), 5, "three kings against one: counting towards 16 moves");
        // The black king takes one: two against one, 5 moves from here.
        game.play_text("26x48").unwrap();
        assert_eq!(game.count_plies(), 0);
        let shuffle = ["9-3", "48-43", "3-9", "43-48"];
        for ply in 0..10 {
            assert_eq!(game.outcome(), None, "ply {ply} after the capture");
            game.play_text(shuffle[ply % 4]).unwrap();
        }
        assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::EndgameCount)));
    }

    #[test]
    fn the_move_that_reaches_the_endgame_does_not_count() {
        // White takes the black man: one king against three from then on.
        let rules = Rules { repetition: false, ..Rules::INTERNATIONAL };
        let start = Position::<Ten>::from_fen_with("W:WK47,K48,K50:BK4,28", rules).unwrap();
        let mut game = Game::with_endgame_limit(start, 10);
        game.play_text("50x6").unwrap();
        assert_eq!(game.endgame_plies(), 0);
        game.play_text("4-10").unwrap();
        assert_eq!(game.endgame_plies(), 1);
    }
}
