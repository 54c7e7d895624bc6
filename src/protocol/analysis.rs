//! What the server sends the page about a game's analysis by the engine:
//! not asked for yet, how far it has gone, or the analysis itself (the
//! engine's own type: every position's evaluation, each move's verdict and
//! the summary per side).

use crate::engine::analysis::Analysis;
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
