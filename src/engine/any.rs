//! A position and a game on any board: the geometry chosen at run time from
//! the rules' board size, for what reads rules from text (the site's stored
//! games, the command line, test data) and so cannot name the board's type.
//! What they answer speaks in square numbers and move texts, so that the
//! page and the server never meet the board's type either.
//!
//! The 12×12 board is behind the crate's `twelve` feature (on by default):
//! the browser's first bundle leaves it out, which keeps every 12×12
//! function out of the page a player opens first, and loads the bundle
//! that has it only where a 12×12 board is shown. Without the feature a
//! board of 12 is refused with [`PositionError::BoardNotBuilt`].

use super::bot::{self, Level};
#[cfg(feature = "twelve")]
use super::geometry::Twelve;
use super::geometry::{Eight, Geometry, Ten};
use super::notation::{move_to_text, move_to_text_among, parse_long_form, parse_move, FenError, MoveTextError};
use super::pdn::{move_texts, write_pdn};
use super::{
    perft, perft_divide, Bitboard, Color, Game, GameError, Move, Outcome, Piece, Position, PositionError, Role, Rules,
    Setup, Square,
};
use serde::{Deserialize, Serialize};

/// A position of a rule set whose board is known only at run time.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AnyPosition {
    Eight(Position<Eight>),
    Ten(Position<Ten>),
    #[cfg(feature = "twelve")]
    Twelve(Position<Twelve>),
}

/// Runs `$body` with `$p` bound to the position, whatever its board.
macro_rules! on_board {
    ($any:expr, |$p:ident| $body:expr) => {
        match $any {
            AnyPosition::Eight($p) => $body,
            AnyPosition::Ten($p) => $body,
            #[cfg(feature = "twelve")]
            AnyPosition::Twelve($p) => $body,
        }
    };
}

impl AnyPosition {
    /// The start position of `rules`.
    pub fn initial(rules: Rules) -> Result<AnyPosition, PositionError> {
        Ok(match rules.size {
            8 => AnyPosition::Eight(Position::initial(rules)?),
            #[cfg(feature = "twelve")]
            12 => AnyPosition::Twelve(Position::initial(rules)?),
            #[cfg(not(feature = "twelve"))]
            12 => return Err(PositionError::BoardNotBuilt(12)),
            _ => AnyPosition::Ten(Position::initial(rules)?),
        })
    }

    /// A position in FEN, played under `rules`.
    pub fn from_fen(fen: &str, rules: Rules) -> Result<AnyPosition, FenError> {
        Ok(match rules.size {
            8 => AnyPosition::Eight(Position::from_fen_with(fen, rules)?),
            #[cfg(feature = "twelve")]
            12 => AnyPosition::Twelve(Position::from_fen_with(fen, rules)?),
            #[cfg(not(feature = "twelve"))]
            12 => return Err(FenError::Position(PositionError::BoardNotBuilt(12))),
            _ => AnyPosition::Ten(Position::from_fen_with(fen, rules)?),
        })
    }

    pub fn rules(&self) -> Rules {
        on_board!(self, |p| p.rules())
    }

    pub fn layout(&self) -> Layout {
        Layout { size: self.rules().size }
    }

    pub fn turn(&self) -> Color {
        on_board!(self, |p| p.turn())
    }

    /// The piece on square `number`, if any (none off the board).
    pub fn piece_at(&self, number: u8) -> Option<Piece> {
        on_board!(self, |p| Square::new(number).and_then(|s| p.piece_at(s)))
    }

    /// How many pieces `color` has.
    pub fn count(&self, color: Color) -> u32 {
        on_board!(self, |p| p.pieces(color).count())
    }

    /// Whether the side to move must capture (a capture is possible and
    /// the rules make it mandatory).
    pub fn must_capture(&self) -> bool {
        on_board!(self, |p| p.has_capture())
    }

    /// The legal moves with everything the board needs to offer them.
    pub fn choices(&self) -> Vec<MoveChoice> {
        on_board!(self, |p| {
            let legal = p.legal_moves();
            legal.iter().map(|m| MoveChoice::among(p, m, &legal)).collect()
        })
    }

    /// A move typed by the player in notation (`32-28`, `19x30`,
    /// `28x19x10`), in long form, or why it is refused.
    pub fn resolve_text(&self, text: &str) -> Result<String, MoveTextError> {
        on_board!(self, |p| parse_move(p, text).map(|m| m.long_form().to_string()))
    }

    /// The move the computer at `level` judges best here, from this
    /// position alone (no game history, seed 0): what `dames bestmove
    /// <FEN> --level L` prints, and the electronic board's hint.
    pub fn best_move(&self, level: Level) -> Option<MoveChoice> {
        on_board!(self, |p| {
            let result = bot::search(p, Default::default(), &level.limits())?;
            Some(MoveChoice::new(p, &bot::choose(&result, 0, 0)))
        })
    }

    /// The pieces a capture jumps when it lands on `steps` one after the
    /// other from `from`: shown as ghosts while a rafle is being entered.
    pub fn jumped(&self, from: u8, steps: &[u8]) -> Vec<u8> {
        on_board!(self, |p| jumped_on(p, from, steps))
    }

    pub fn to_fen(&self) -> String {
        on_board!(self, |p| p.to_fen())
    }

    /// Leaves of the move tree `depth` plies deep (see [`perft`]).
    pub fn perft(&self, depth: u32) -> u64 {
        on_board!(self, |p| perft(p, depth))
    }

    /// Perft by first move, each written in long form.
    pub fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        on_board!(self, |p| divide_texts(p, depth))
    }

    /// Every legal move in long form (`32-28`, `28x19{23}`), sorted by
    /// start, end and captured squares.
    pub fn legal_move_texts(&self) -> Vec<String> {
        on_board!(self, |p| sorted_texts(p))
    }
}

/// A board's shape, for drawing it: which row and column each numbered
/// square sits on.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Layout {
    /// 8, 10 or 12 squares a side.
    pub size: u8,
}

/// Runs `$body` with `$G` naming the geometry of a board of `$size`; a
/// board this build leaves out gives `$absent`.
macro_rules! on_size {
    ($size:expr, |$G:ident| $body:expr, or $absent:expr) => {
        match $size {
            8 => {
                type $G = Eight;
                $body
            }
            #[cfg(feature = "twelve")]
            12 => {
                type $G = Twelve;
                $body
            }
            #[cfg(not(feature = "twelve"))]
            12 => $absent,
            _ => {
                type $G = Ten;
                $body
            }
        }
    };
}

impl Layout {
    /// Dark squares on the board.
    pub fn squares(self) -> u8 {
        self.size * self.size / 2
    }

    /// The number of the dark square at `row` (0 = Black's side) and
    /// `column` (0 = left as White sees it), if it is one.
    pub fn square_at(self, row: u8, column: u8) -> Option<u8> {
        on_size!(self.size, |G| Square::<G>::from_row_column(row, column).map(Square::number), or None)
    }

    /// The row and column of square `number` (which must be on the board).
    pub fn row_column(self, number: u8) -> Option<(u8, u8)> {
        on_size!(self.size, |G| Square::<G>::new(number).map(|s| (s.row(), s.column())), or None)
    }

    /// The FEN of pieces on this board (square number and piece), legal
    /// position or not: what a position editor sends to be checked.
    /// Squares off the board are left out; a board this build leaves out
    /// gives an empty text, which no position reads.
    pub fn fen_of(self, turn: Color, pieces: impl IntoIterator<Item = (u8, Piece)>) -> String {
        on_size!(self.size, |G| {
            let mut setup =
                Setup::<G> { white: Bitboard::EMPTY, black: Bitboard::EMPTY, kings: Bitboard::EMPTY, turn: Some(turn) };
            for (square, piece) in pieces.into_iter().filter_map(|(n, p)| Square::<G>::new(n).map(|s| (s, p))) {
                match piece.color {
                    Color::White => setup.white = setup.white.with(square),
                    Color::Black => setup.black = setup.black.with(square),
                }
                if piece.role == Role::King {
                    setup.kings = setup.kings.with(square);
                }
            }
            setup.to_fen()
        }, or String::new())
    }
}

/// The computer's reply, with what its search cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotReply {
    /// The move, long form.
    pub long: String,
    /// Nodes searched (0 for a random opening move).
    pub nodes: u64,
}

/// A legal move as the board offers it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveChoice {
    pub from: u8,
    pub to: u8,
    /// Where the captured pieces stand, in ascending order.
    pub captured: Vec<u8>,
    /// Every route the move can take, as its landing squares (a quiet
    /// move's only route is its destination).
    pub paths: Vec<Vec<u8>>,
    /// The long form the server reads (`28x19{23}`).
    pub long: String,
    /// The notation a player reads (`28x19`).
    pub text: String,
}

impl MoveChoice {
    pub(super) fn new<G: Geometry>(pos: &Position<G>, mv: &Move<G>) -> MoveChoice {
        MoveChoice::with_text(pos, mv, move_to_text(pos, mv))
    }

    /// A move of `legal`, the position's moves already generated.
    fn among<G: Geometry>(pos: &Position<G>, mv: &Move<G>, legal: &[Move<G>]) -> MoveChoice {
        MoveChoice::with_text(pos, mv, move_to_text_among(pos, mv, legal))
    }

    fn with_text<G: Geometry>(pos: &Position<G>, mv: &Move<G>, text: String) -> MoveChoice {
        let paths = if mv.is_capture() { pos.capture_paths(mv) } else { vec![vec![mv.to]] };
        MoveChoice {
            from: mv.from.number(),
            to: mv.to.number(),
            captured: mv.captured.squares().map(Square::number).collect(),
            paths: paths.into_iter().map(|p| p.into_iter().map(Square::number).collect()).collect(),
            long: mv.long_form().to_string(),
            text,
        }
    }

    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }
}

fn jumped_on<G: Geometry>(pos: &Position<G>, from: u8, steps: &[u8]) -> Vec<u8> {
    let mut jumped = Vec::new();
    let Some(mut at) = Square::<G>::new(from) else { return jumped };
    for next in steps.iter().filter_map(|&n| Square::<G>::new(n)) {
        jumped.extend(at.between(next).into_iter().filter(|s| pos.piece_at(*s).is_some()).map(Square::number));
        at = next;
    }
    jumped
}

/// A game whose board is known only at run time.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum AnyGame {
    Eight(Game<Eight>),
    Ten(Game<Ten>),
    #[cfg(feature = "twelve")]
    Twelve(Game<Twelve>),
}

macro_rules! on_game {
    ($any:expr, |$g:ident| $body:expr) => {
        match $any {
            AnyGame::Eight($g) => $body,
            AnyGame::Ten($g) => $body,
            #[cfg(feature = "twelve")]
            AnyGame::Twelve($g) => $body,
        }
    };
}

/// Why a move or an action could not be added to a game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum AnyGameError {
    /// The game has ended.
    Finished(Outcome),
    /// The move text does not name a legal move.
    Text(MoveTextError),
    /// The move is not legal here.
    Illegal(String),
}

impl std::fmt::Display for AnyGameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnyGameError::Finished(outcome) => write!(f, "the game is over: {outcome}"),
            AnyGameError::Text(e) => write!(f, "{e}"),
            AnyGameError::Illegal(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for AnyGameError {}

impl<G: Geometry> From<GameError<G>> for AnyGameError {
    fn from(e: GameError<G>) -> AnyGameError {
        match e {
            GameError::Finished(outcome) => AnyGameError::Finished(outcome),
            GameError::Text(e) => AnyGameError::Text(e),
            GameError::Illegal(e) => AnyGameError::Illegal(e.to_string()),
        }
    }
}

impl AnyGame {
    /// A game from `start`, played under its rules.
    pub fn new(start: AnyPosition) -> AnyGame {
        match start {
            AnyPosition::Eight(p) => AnyGame::Eight(Game::new(p)),
            AnyPosition::Ten(p) => AnyGame::Ten(Game::new(p)),
            #[cfg(feature = "twelve")]
            AnyPosition::Twelve(p) => AnyGame::Twelve(Game::new(p)),
        }
    }

    /// A game from `start` that also follows the electronic boards'
    /// endgame rule (see [`Game::with_endgame_limit`]).
    pub fn with_endgame_limit(start: AnyPosition, moves: u32) -> AnyGame {
        match start {
            AnyPosition::Eight(p) => AnyGame::Eight(Game::with_endgame_limit(p, moves)),
            AnyPosition::Ten(p) => AnyGame::Ten(Game::with_endgame_limit(p, moves)),
            #[cfg(feature = "twelve")]
            AnyPosition::Twelve(p) => AnyGame::Twelve(Game::with_endgame_limit(p, moves)),
        }
    }

    /// An electronic-board game from `start`: its endgame rule at its own
    /// count of moves (the start should be under [`Rules::ELECTRONIC`]).
    pub fn electronic(start: AnyPosition) -> AnyGame {
        AnyGame::with_endgame_limit(start, super::ENDGAME_LIMIT_MOVES)
    }

    /// Plays on after the endgame rule declared a draw.
    pub fn play_on(&mut self) -> Result<(), AnyGameError> {
        on_game!(self, |g| Ok(g.play_on()?))
    }

    pub fn has_played_on(&self) -> bool {
        on_game!(self, |g| g.has_played_on())
    }

    pub fn start(&self) -> AnyPosition {
        match self {
            AnyGame::Eight(g) => AnyPosition::Eight(*g.start()),
            AnyGame::Ten(g) => AnyPosition::Ten(*g.start()),
            #[cfg(feature = "twelve")]
            AnyGame::Twelve(g) => AnyPosition::Twelve(*g.start()),
        }
    }

    pub fn position(&self) -> AnyPosition {
        match self {
            AnyGame::Eight(g) => AnyPosition::Eight(*g.position()),
            AnyGame::Ten(g) => AnyPosition::Ten(*g.position()),
            #[cfg(feature = "twelve")]
            AnyGame::Twelve(g) => AnyPosition::Twelve(*g.position()),
        }
    }

    pub fn rules(&self) -> Rules {
        self.position().rules()
    }

    pub fn turn(&self) -> Color {
        on_game!(self, |g| g.turn())
    }

    pub fn outcome(&self) -> Option<Outcome> {
        on_game!(self, |g| g.outcome())
    }

    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Plies played.
    pub fn ply_count(&self) -> usize {
        on_game!(self, |g| g.moves().len())
    }

    /// Moves `color` has played.
    pub fn moves_played(&self, color: Color) -> u32 {
        on_game!(self, |g| g.moves_played(color))
    }

    /// The legal moves now (none once the game is over).
    pub fn choices(&self) -> Vec<MoveChoice> {
        if self.is_over() {
            return Vec::new();
        }
        self.position().choices()
    }

    /// Plays a move given in long form (`32-28`, `28x19{23}`); returns it
    /// as the long form again.
    pub fn play_long(&mut self, text: &str) -> Result<String, AnyGameError> {
        if let Some(outcome) = self.outcome() {
            return Err(AnyGameError::Finished(outcome));
        }
        on_game!(self, |g| {
            let mv = parse_long_form(g.position(), text).map_err(AnyGameError::Text)?;
            g.play(&mv)?;
            Ok(mv.long_form().to_string())
        })
    }

    /// `color` gives up.
    pub fn resign(&mut self, color: Color) -> Result<(), AnyGameError> {
        on_game!(self, |g| Ok(g.resign(color)?))
    }

    /// Both players agree to a draw.
    pub fn agree_draw(&mut self) -> Result<(), AnyGameError> {
        on_game!(self, |g| Ok(g.agree_draw()?))
    }

    /// Every ply in notation (`32-28`, `19x30`).
    pub fn notation(&self) -> Vec<String> {
        on_game!(self, |g| move_texts(g.start(), g.moves()))
    }

    /// Every ply in long form.
    pub fn long_forms(&self) -> Vec<String> {
        on_game!(self, |g| g.moves().iter().map(|m| m.long_form().to_string()).collect())
    }

    /// The position before each move and after the last.
    pub fn positions(&self) -> Vec<AnyPosition> {
        match self {
            AnyGame::Eight(g) => g.positions().into_iter().map(AnyPosition::Eight).collect(),
            AnyGame::Ten(g) => g.positions().into_iter().map(AnyPosition::Ten).collect(),
            #[cfg(feature = "twelve")]
            AnyGame::Twelve(g) => g.positions().into_iter().map(AnyPosition::Twelve).collect(),
        }
    }

    /// Every ply: who played it and every route it took.
    pub fn played(&self) -> Vec<(Color, MoveChoice)> {
        on_game!(self, |g| g
            .positions()
            .iter()
            .zip(g.moves())
            .map(|(before, mv)| (before.turn(), MoveChoice::new(before, mv)))
            .collect())
    }

    /// The last ply, who played it and every route it took.
    pub fn last_move(&self) -> Option<(Color, MoveChoice)> {
        on_game!(self, |g| {
            let mv = g.moves().last()?;
            let before = g.positions().into_iter().nth_back(1)?;
            Some((before.turn(), MoveChoice::new(&before, mv)))
        })
    }

    /// The computer's move at `level` with `seed` (long form), or `None`
    /// when the game is over.
    pub fn bot_reply(&self, level: Level, seed: u64) -> Option<BotReply> {
        on_game!(self, |g| bot::reply(g, level, seed)
            .map(|r| BotReply { long: r.mv.long_form().to_string(), nodes: r.search.map_or(0, |s| s.nodes) }))
    }

    /// Checks that every move of `bot_side` is the computer's reply at
    /// `level` with `seed` (see [`bot::verify_replies`]); the error names
    /// the earliest that is not.
    pub fn verify_replies(&self, bot_side: Color, level: Level, seed: u64, threads: usize) -> Result<(), String> {
        on_game!(self, |g| bot::verify_replies(g, bot_side, level, seed, threads).map_err(|e| e.to_string()))
    }

    /// The game as a PDN file (see [`write_pdn`]).
    pub fn pdn(&self, tags: &[(&str, &str)], result: &str) -> String {
        on_game!(self, |g| write_pdn(g, tags, result))
    }
}

fn divide_texts<G: Geometry>(pos: &Position<G>, depth: u32) -> Vec<(String, u64)> {
    perft_divide(pos, depth).into_iter().map(|(m, n)| (m.long_form().to_string(), n)).collect()
}

fn sorted_texts<G: Geometry>(pos: &Position<G>) -> Vec<String> {
    let mut moves = pos.legal_moves().into_vec();
    moves.sort_by_key(|m| m.sort_key());
    moves.iter().map(|m| m.long_form().to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_set_gets_its_board() {
        let english = AnyPosition::initial(Rules::ENGLISH).unwrap();
        assert!(matches!(english, AnyPosition::Eight(_)));
        assert_eq!(english.to_fen(), "B:W21-32:B1-12");
        assert_eq!(english.legal_move_texts(), ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]);
        let twelve = AnyPosition::initial(Rules::parse("international,size=12").unwrap()).unwrap();
        assert_eq!(twelve.to_fen(), "W:W43-72:B1-30");
        assert_eq!(twelve.perft(1), 11);
        assert_eq!(AnyPosition::initial(Rules::INTERNATIONAL).unwrap().perft(2), 81);
        assert!(AnyPosition::from_fen("W:W33:B1", Rules::ENGLISH).is_err(), "no square 33 on 8×8");
    }

    #[test]
    fn the_hint_is_the_computers_choice_at_that_level() {
        let pos = AnyPosition::from_fen("W:W28,40:B22,13", Rules::INTERNATIONAL).unwrap();
        assert_eq!(pos.best_move(Level::LADDER[0]).map(|m| m.text), Some("28x17".to_string()));
        let start = AnyPosition::initial(Rules::ENGLISH).unwrap();
        assert!(start.best_move(Level::LADDER[3]).is_some_and(|m| m.from <= 12), "Black opens English draughts");
    }

    #[test]
    fn the_layout_numbers_each_board() {
        let eight = Layout { size: 8 };
        assert_eq!((eight.squares(), eight.square_at(0, 1), eight.square_at(7, 6)), (32, Some(1), Some(32)));
        assert_eq!(eight.square_at(0, 0), None);
        assert_eq!(eight.row_column(5), Some((1, 0)));
        assert_eq!(Layout { size: 10 }.square_at(9, 8), Some(50));
        assert_eq!(Layout { size: 12 }.row_column(72), Some((11, 10)));
        assert_eq!(eight.row_column(33), None);
    }

    #[test]
    fn a_game_on_the_small_board_plays_by_text() {
        let mut game = AnyGame::new(AnyPosition::initial(Rules::ENGLISH).unwrap());
        assert_eq!(game.turn(), Color::Black, "Black opens English draughts");
        assert_eq!(game.play_long("11-15").unwrap(), "11-15");
        assert!(game.play_long("11-15").is_err(), "the man has gone");
        game.play_long("22-18").unwrap();
        let captures = game.choices();
        assert!(captures.iter().all(MoveChoice::is_capture), "a capture is due");
        let capture = &captures[0];
        assert_eq!((capture.long.as_str(), capture.text.as_str()), ("15x22{18}", "15x22"));
        assert_eq!(capture.paths, vec![vec![22]]);
        assert_eq!(game.position().jumped(15, &[22]), vec![18]);
        game.play_long(&capture.long).unwrap();
        assert_eq!(game.notation(), ["11-15", "22-18", "15x22"]);
        let (color, last) = game.last_move().unwrap();
        assert_eq!((color, last.from, last.captured.clone()), (Color::Black, 15, vec![18]));
        assert_eq!(game.played().len(), 3);
        assert_eq!(game.positions().len(), 4);
        game.agree_draw().unwrap();
        assert_eq!(game.outcome(), Some(Outcome::Draw(super::super::DrawReason::Agreement)));
        assert!(matches!(game.play_long("25x18{22}"), Err(AnyGameError::Finished(_))));
    }

    #[test]
    fn the_bot_replies_on_any_board_and_its_replies_verify() {
        let mut game = AnyGame::new(AnyPosition::initial(Rules::RUSSIAN).unwrap());
        for _ in 0..6 {
            let reply = game.bot_reply(Level::Debutant, 7).unwrap().long;
            game.play_long(&reply).unwrap();
        }
        assert!(game.verify_replies(Color::Black, Level::Debutant, 7, 1).is_ok());
        assert!(game.verify_replies(Color::Black, Level::Debutant, 8, 1).is_err());
        assert!(game.pdn(&[("Event", "x")], "*").contains("[GameType \"25\"]"));
    }
}
