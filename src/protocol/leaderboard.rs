//! A leaderboard as the page receives it: which board, its top rows, the
//! player's own row, and the neighbouring days to link to.

use super::game::ScoreLine;
use crate::engine::bot::Level;
use crate::engine::Preset;
use serde::{Deserialize, Serialize};

/// Which leaderboard: a day's challenge, or the free games of one variant
/// at one level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BoardKey {
    /// The challenge of a UTC day, `YYYY-MM-DD`.
    Daily { day: String },
    /// Free games of a variant (international, English or Russian) at one
    /// level, played as White.
    Free { level: Level, variant: Preset },
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
