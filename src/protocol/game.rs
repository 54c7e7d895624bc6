//! What the server sends the page about a game: the start position and the
//! moves, with its score once won. Everything else (the position, whose
//! turn, the notation, the computer's last move) is derived from them with
//! the engine, the same way on both sides.

use crate::engine::bot::Level;
use crate::engine::{parse_long_form, Game, Outcome, Position, Rules, WinReason};

/// The rules every stored game has been played under so far: international
/// draughts with the daily challenge's draw rules (the 25-move rule and the
/// 150-move limit, no repetition rule).
pub const STORED_GAME_RULES: Rules = Rules::DAILY;

/// The start position of a stored game.
pub fn stored_game_start() -> Position {
    Position::start().with_rules(STORED_GAME_RULES).expect("the stored games' rules are for 10×10")
}
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
    /// Empty for a game not started yet: the page shows the start position,
    /// and the server stores the game when the player makes the first move
    /// (a page view writes nothing).
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

impl GameView {
    /// A game the player has not started: the start position, no id.
    pub fn unstarted(kind: GameKind, day: String, level: Level) -> GameView {
        GameView {
            id: String::new(),
            kind,
            day,
            level,
            start_fen: stored_game_start().to_fen(),
            moves: Vec::new(),
            outcome: None,
            active_ms: 0,
            score: None,
            needs_pseudonym: false,
        }
    }

    /// Whether the server has stored this game yet.
    pub fn is_started(&self) -> bool {
        !self.id.is_empty()
    }

    /// The game, replayed from its start with the engine.
    pub fn replay(&self) -> Result<Game, CorruptView> {
        replay_stored(&self.start_fen, &self.moves, self.outcome)
    }
}

/// A game view whose moves do not replay: the server sent something this
/// client cannot follow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorruptView(pub String);

impl std::fmt::Display for CorruptView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A game as stored and sent (start FEN, long-form moves, outcome)
/// replayed with the engine: every move checked, a resignation applied.
/// The browser and the server read games through this one function.
pub fn replay_stored(start_fen: &str, moves: &[String], outcome: Option<Outcome>) -> Result<Game, CorruptView> {
    let start = Position::from_fen_with(start_fen, STORED_GAME_RULES).map_err(|e| CorruptView(e.to_string()))?;
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

/// A win is worth this much before pieces and time (the page explains the
/// score with it; the server computes it).
pub const SCORE_BASE: u64 = 3000;
/// Each of the player's pieces left at the end (man or king) adds this.
pub const SCORE_PER_PIECE: u64 = 300;

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

#[cfg(test)]
mod tests {
    use super::*;

    fn view(moves: &[&str]) -> GameView {
        GameView {
            moves: moves.iter().map(|s| s.to_string()).collect(),
            id: "x".into(),
            ..GameView::unstarted(GameKind::Free, "2026-11-29".into(), Level::Intermediaire)
        }
    }

    #[test]
    fn a_view_replays() {
        let game = view(&["32-28", "19-23", "28x19{23}"]).replay().unwrap();
        assert_eq!(game.moves().len(), 3);
        assert_eq!(game.position().to_fen(), "B:W19,31,33-50:B1-18,20");
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
    fn an_unstarted_game_has_no_id_and_the_start_position() {
        let v = GameView::unstarted(GameKind::Daily, "2026-11-29".into(), Level::Intermediaire);
        assert!(!v.is_started());
        assert_eq!(v.replay().unwrap().position().to_fen(), Position::start().to_fen());
        assert_eq!(v.replay().unwrap().position().rules(), STORED_GAME_RULES);
        assert!(view(&[]).is_started());
    }

    #[test]
    fn a_score_explains_itself() {
        let s = ScoreView { score: 3900, pieces: 6, seconds: 900, rank: Some(1), best: 3900 };
        assert_eq!(s.breakdown(), "3000 + 6 pièces × 300 − 900 s");
    }
}
