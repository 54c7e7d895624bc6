//! What crosses the wire between the browser and the server: the views of
//! games, their analyses and leaderboards, the player's preferences (in their cookie), and
//! the typed errors with their HTTP status, and the encoding of server
//! functions' answers.
//! The screen (`app`) and the storage (`server`) both use these types; they
//! depend on the engine only.

pub mod analysis;
pub mod codec;
pub mod error;
pub mod game;
pub mod leaderboard;
pub mod preferences;

pub use analysis::{AnalysisState, ImportedGame};
pub use error::{fen_error_fr, move_text_error_fr, AppError};
pub use game::{replay_stored, CorruptView, GameKind, GameSetup, GameView, ScoreLine, ScoreView, SetupError};
pub use leaderboard::{BoardKey, LeaderboardView};
pub use preferences::{Palette, Preferences, RafleInput};
