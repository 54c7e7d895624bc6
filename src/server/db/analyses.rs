//! The stored analyses of games: claimed by one run, its progress, then
//! its result (the table `analyses`), over either engine.

use super::{postgres, sqlite, Db};
use crate::server::error::ServerResult;

/// Which analysis: a game's, at one version of the analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisKey {
    pub game_id: String,
    /// The analysis version, the bot version and the node budget
    /// (`1-5-500000`): a change of any of them makes another analysis.
    pub version: String,
}

/// A run's claim on an analysis.
#[derive(Clone, Debug)]
pub struct AnalysisClaim {
    pub key: AnalysisKey,
    /// The run: a random id, so that only it writes the row.
    pub run_id: String,
    /// Positions to search.
    pub total: u64,
    pub now_ms: i64,
    /// A run whose last word is older than this has stopped (its server
    /// went away): its claim may be taken.
    pub stale_before_ms: i64,
}

/// An analysis as stored: its progress, and its result once done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAnalysis {
    pub done: u64,
    pub total: u64,
    /// JSON of the engine's `Analysis`.
    pub result: Option<String>,
    /// When its run last wrote (unix ms).
    pub updated_at: i64,
}

impl Db {
    pub async fn load_analysis(&self, key: &AnalysisKey) -> ServerResult<Option<StoredAnalysis>> {
        self.timed("load_analysis", async {
            match self {
                Db::Sqlite(db) => {
                    let key = key.clone();
                    db.run(move |c| sqlite::load_analysis(c, &key)).await
                }
                Db::Postgres(db) => postgres::load_analysis(db, key).await,
            }
        })
        .await
    }

    /// Claims an analysis for a run: true when the run is to search it (no
    /// row yet, or one without a result whose run went silent). Of any
    /// number of claims at once, on any number of servers, one wins.
    pub async fn claim_analysis(&self, claim: &AnalysisClaim) -> ServerResult<bool> {
        self.timed("claim_analysis", async {
            match self {
                Db::Sqlite(db) => {
                    let claim = claim.clone();
                    db.run(move |c| sqlite::claim_analysis(c, &claim)).await
                }
                Db::Postgres(db) => postgres::claim_analysis(db, claim).await,
            }
        })
        .await
    }

    /// The run's progress: `done` positions searched. False when the run
    /// no longer holds the claim.
    pub async fn save_analysis_progress(
        &self,
        key: &AnalysisKey,
        run_id: &str,
        done: u64,
        now_ms: i64,
    ) -> ServerResult<bool> {
        self.timed("save_analysis_progress", async {
            match self {
                Db::Sqlite(db) => {
                    let (key, run) = (key.clone(), run_id.to_string());
                    db.run(move |c| sqlite::save_analysis_progress(c, &key, &run, done, now_ms)).await
                }
                Db::Postgres(db) => postgres::save_analysis_progress(db, key, run_id, done, now_ms).await,
            }
        })
        .await
    }

    /// The run's result, stored once. False when the run no longer holds
    /// the claim.
    pub async fn finish_analysis(
        &self,
        key: &AnalysisKey,
        run_id: &str,
        result: &str,
        now_ms: i64,
    ) -> ServerResult<bool> {
        self.timed("finish_analysis", async {
            match self {
                Db::Sqlite(db) => {
                    let (key, run, result) = (key.clone(), run_id.to_string(), result.to_string());
                    db.run(move |c| sqlite::finish_analysis(c, &key, &run, &result, now_ms)).await
                }
                Db::Postgres(db) => postgres::finish_analysis(db, key, run_id, result, now_ms).await,
            }
        })
        .await
    }
}
