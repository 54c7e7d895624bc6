//! What the server sends the page about analyses by the engine: a game's
//! (not asked for yet, how far it has gone, or the analysis itself, the
//! engine's own type: every position's evaluation, each move's verdict and
//! the summary per side), one position's on the analysis board, and a game
//! read from PDN for that board.

use crate::engine::analysis::Analysis;
use crate::engine::Rules;
use serde::{Deserialize, Serialize};

/// A game's analysis, as far as it has gone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AnalysisState {
    /// Nobody asked for it, or its run stopped before the end: it can be
    /// asked for.
    NotStarted,
    /// Being searched: `done` of `total` positions.
    Running {
        done: u64,
        total: u64,
    },
    Done(Box<Analysis>),
}

impl AnalysisState {
    pub const fn is_running(&self) -> bool {
        matches!(self, AnalysisState::Running { .. })
    }
}

/// A game read from PDN text for the analysis board: its rules (from its
/// `GameType` or `Rules` tag), its start and its moves, checked by the
/// rules; and the games of the text, to pick another.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportedGame {
    pub rules: Rules,
    pub start_fen: String,
    /// The moves, long form.
    pub moves: Vec<String>,
    /// The result written, if any (`2-0`, `1-1`…).
    pub result: Option<String>,
    /// Which game of the text this is (from 0).
    pub index: usize,
    /// Every game of the text in a line: players, event, date, moves.
    pub games: Vec<String>,
}
