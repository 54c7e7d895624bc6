//! A leaderboard as the page receives it: which board, its top rows, the
//! player's own row, and the neighbouring days to link to.

use super::game::ScoreLine;
use crate::engine::bot::Level;
use serde::{Deserialize, Serialize};

/// Which leaderboard: a day's challenge, or the free games at one level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BoardKey {
    /// The challenge of a UTC day, `YYYY-MM-DD`.
    Daily { day: String },
    /// Free games at one level.
    Free { level: Level },
}

/// One leaderboard as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderboardView {
    pub board: BoardKey,
    /// The board is today's challenge.
    pub is_today: bool,
    /// For a daily board: the day before, and the day after unless it is
    /// still to come.
    pub previous_day: Option<String>,
    pub next_day: Option<String>,
    pub top: Vec<ScoreLine>,
    /// The player's own row, even outside the top.
    pub mine: Option<ScoreLine>,
}
