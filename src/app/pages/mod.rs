//! One file per page.

pub mod analysis;
pub mod analysis_board;
pub mod daily;
pub mod electronic;
pub mod free;
pub mod leaderboard;
pub mod not_found;
pub mod offline;
pub mod replay;
pub mod rules;
pub mod settings;
pub mod setup;
pub mod two_players;
