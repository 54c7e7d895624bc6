//! What the server sends the page about a game: the start position and the
//! moves. Everything else (the position, whose turn, the notation, the
//! computer's last move) is derived from them with the engine, the same way
//! on both sides.

use crate::engine::bot::Level;
use crate::engine::pdn::{move_texts, write_pdn};
use crate::engine::{parse_long_form, Color, Game, Move, Outcome, Position, Square, WinReason};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameKind {
    /// The challenge of the UTC day: the day's seed, level intermediaire.
    Daily,
    /// A free game: a fresh seed, the level the player picks.
    Free,
}

impl GameKind {
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Daily => "daily",
            GameKind::Free => "free",
        }
    }

    pub fn from_name(name: &str) -> Option<GameKind> {
        match name {
            "daily" => Some(GameKind::Daily),
            "free" => Some(GameKind::Free),
            _ => None,
        }
    }
}

/// A game as the page receives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameView {
    pub id: String,
    pub kind: GameKind,
    /// The UTC day the game started (YYYY-MM-DD).
    pub day: String,
    pub level: Level,
    pub start_fen: String,
    /// Every ply so far in long form (`32-28`, `28x19{23}`).
    pub moves: Vec<String>,
    /// How it ended, when it has (resignation included, which the moves
    /// alone do not show).
    pub outcome: Option<Outcome>,
    /// The player's thinking time as the server counted it.
    pub active_ms: u64,
    /// The score, once the server has verified a win.
    #[serde(default)]
    pub score: Option<ScoreView>,
    /// The player has a score but no pseudonym yet: ask for one.
    #[serde(default)]
    pub needs_pseudonym: bool,
}

/// The leaderboard of a day's challenge.
pub fn daily_board(day: &str) -> String {
    format!("jour:{day}")
}

/// The leaderboard of free games at one level.
pub fn free_board(level: Level) -> String {
    format!("libre:{}", level.name())
}

/// A day as the site writes it: `YYYY-MM-DD`.
pub fn day_text(date: time::Date) -> String {
    format!("{:04}-{:02}-{:02}", date.year(), date.month() as u8, date.day())
}

/// Reads `YYYY-MM-DD` naming a real date.
pub fn parse_day(text: &str) -> Option<time::Date> {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let year: i32 = text[0..4].parse().ok()?;
    let month = time::Month::try_from(text[5..7].parse::<u8>().ok()?).ok()?;
    time::Date::from_calendar_date(year, month, text[8..10].parse().ok()?).ok()
}

/// A win is worth this much before pieces and time.
pub const SCORE_BASE: u64 = 3000;
/// Each of the player's pieces left at the end (man or king) adds this.
pub const SCORE_PER_PIECE: u64 = 300;

/// 3000 + 300 per piece left − 1 per second of play, never below zero.
/// Only the server computes a score that counts; the page uses this to
/// explain it.
pub fn score(pieces: u32, seconds: u64) -> u64 {
    (SCORE_BASE + SCORE_PER_PIECE * pieces as u64).saturating_sub(seconds)
}

/// A won game's score as the server computed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreView {
    pub score: u64,
    pub pieces: u32,
    pub seconds: u64,
    /// The player's rank on this game's leaderboard (with their best score).
    pub rank: Option<u64>,
    /// The player's best score on that leaderboard.
    pub best: u64,
    /// `jour:YYYY-MM-DD` or `libre:<level>`.
    pub board: String,
}

impl ScoreView {
    /// How the score is made: `3000 + 6 pièces × 300 − 900 s`.
    pub fn breakdown(&self) -> String {
        format!("{SCORE_BASE} + {} pièces × {SCORE_PER_PIECE} − {} s", self.pieces, self.seconds)
    }
}

/// One row of a leaderboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreLine {
    pub rank: u64,
    /// Never sent: it is the player's only credential.
    #[serde(skip)]
    pub player_id: String,
    pub pseudonym: Option<String>,
    pub game_id: String,
    pub score: u64,
    pub pieces: u32,
    pub seconds: u64,
}

/// A game view whose moves do not replay: the server sent something this
/// client cannot follow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorruptView(pub String);

impl GameView {
    /// The game, replayed from its start with the engine.
    pub fn replay(&self) -> Result<Game, CorruptView> {
        replay_stored(&self.start_fen, &self.moves, self.outcome)
    }
}

/// A game as stored and sent (start FEN, long-form moves, outcome)
/// replayed with the engine: every move checked, a resignation applied.
/// The browser and the server read games through this one function.
pub fn replay_stored(start_fen: &str, moves: &[String], outcome: Option<Outcome>) -> Result<Game, CorruptView> {
    let start = Position::from_fen(start_fen).map_err(|e| CorruptView(e.to_string()))?;
    let mut game = Game::new(start);
    for text in moves {
        let mv = parse_long_form(game.position(), text).map_err(|e| CorruptView(e.to_string()))?;
        game.play(&mv).map_err(|e| CorruptView(e.to_string()))?;
    }
    if let Some(Outcome::Win { winner, reason: WinReason::Resignation }) = outcome {
        let _ = game.resign(!winner);
    }
    Ok(game)
}

/// The computer's last move as the board shows it: where it started, every
/// landing square, and where the captured pieces stood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownMove {
    pub from: Square,
    pub path: Vec<Square>,
    pub captured: Vec<Square>,
    pub text: String,
}

impl ShownMove {
    pub fn new(before: &Position, mv: &Move) -> ShownMove {
        let path = before.capture_paths(mv).into_iter().next().unwrap_or_else(|| vec![mv.to]);
        ShownMove {
            from: mv.from,
            path,
            captured: mv.captured.squares().collect(),
            text: crate::engine::move_to_text(before, mv),
        }
    }
}

/// The last move Black (the computer) played, if the last ply was its.
pub fn last_computer_move(game: &Game) -> Option<ShownMove> {
    let positions = game.positions();
    let (mv, before) = game.moves().iter().zip(&positions).next_back()?;
    (before.turn() == Color::Black).then(|| ShownMove::new(before, mv))
}

/// The moves in PDN notation.
pub fn notation(game: &Game) -> Vec<String> {
    move_texts(game.start(), game.moves())
}

/// The game as a PDN file.
pub fn pdn(game: &Game, view: &GameView) -> String {
    let result = match game.outcome() {
        Some(Outcome::Win { winner: Color::White, .. }) => "2-0",
        Some(Outcome::Win { winner: Color::Black, .. }) => "0-2",
        Some(Outcome::Draw(_)) => "1-1",
        None => "*",
    };
    let event = match view.kind {
        GameKind::Daily => format!("Défi du jour {}", view.day),
        GameKind::Free => format!("Partie libre ({})", view.level.label()),
    };
    let date = view.day.replace('-', ".");
    write_pdn(
        game,
        &[("Event", &event), ("Date", &date), ("White", "Joueur"), ("Black", "Ordinateur"), ("Result", result)],
        result,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(moves: &[&str]) -> GameView {
        GameView {
            id: "x".into(),
            kind: GameKind::Free,
            day: "2026-11-29".into(),
            level: Level::Intermediaire,
            start_fen: Position::start().to_fen(),
            moves: moves.iter().map(|s| s.to_string()).collect(),
            outcome: None,
            active_ms: 0,
            score: None,
            needs_pseudonym: false,
        }
    }

    #[test]
    fn a_view_replays_and_shows_the_computer_move() {
        let game = view(&["32-28", "19-23"]).replay().unwrap();
        assert_eq!(game.moves().len(), 2);
        let shown = last_computer_move(&game).unwrap();
        assert_eq!((shown.from.number(), shown.text.as_str()), (19, "19-23"));
        assert_eq!(notation(&game), vec!["32-28", "19-23"]);
        let game = view(&["32-28"]).replay().unwrap();
        assert_eq!(last_computer_move(&game), None);
    }

    #[test]
    fn a_view_that_does_not_replay_is_refused() {
        // Legal moves, but a capture that takes the wrong piece.
        assert!(view(&["32-28", "19-23", "28x19{24}"]).replay().is_err());
        assert!(view(&["32-29"]).replay().is_err());
        let mut bad = view(&[]);
        bad.start_fen = "nonsense".into();
        assert!(bad.replay().is_err());
    }

    #[test]
    fn the_worked_score_examples() {
        assert_eq!(score(6, 15 * 60), 3900);
        assert_eq!(score(9, 12 * 60), 4980);
        assert_eq!(score(20, 0), 9000);
        assert_eq!(score(1, 100_000), 0);
    }

    #[test]
    fn pdn_of_a_view_reads_back() {
        let v = view(&["32-28", "19-23", "28x19{23}"]);
        let game = v.replay().unwrap();
        let text = pdn(&game, &v);
        let games = crate::engine::pdn::parse_pdn(&text);
        assert_eq!(crate::engine::pdn::replay(&games[0]).unwrap().moves(), game.moves());
    }
}
