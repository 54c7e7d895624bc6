//! Analyses of finished games: asked for from a page, searched once
//! whatever the number of requests and app servers (the run that claims
//! the stored row searches, the others read), one position at a time in a
//! search slot so that moves keep theirs, with the progress and the result
//! stored for every later visit.

use super::api::{visible_game, RequestContext};
use super::db::{AnalysisClaim, AnalysisKey, Db, StoredAnalysis};
use super::error::{ServerError, ServerResult};
use super::limits::RateLimits;
use super::now_ms;
use crate::engine::analysis::{Analysis, AnalysisJob, NodeBudget, ANALYSIS_VERSION};
use crate::engine::bot::BOT_VERSION;
use crate::protocol::{AnalysisState, AppError};
use leptos::prelude::use_context;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A run writes after every position (a fraction of a second) and every
/// few seconds while it waits for its turn: one silent this long has
/// stopped with its server, and its claim may be taken.
const STALE_AFTER_MS: i64 = 60_000;
/// How often a run waiting for its turn says it is still there.
const WAITING_HEARTBEAT: Duration = Duration::from_secs(15);

/// The node budget of this server's analyses: `DAMES_ANALYSIS_NODES`, or
/// the engine's default. Part of the stored analysis's key, so servers
/// that differ never mix their figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalysisBudget(pub NodeBudget);

impl AnalysisBudget {
    pub fn from_env() -> Result<AnalysisBudget, String> {
        match std::env::var("DAMES_ANALYSIS_NODES") {
            Err(_) => Ok(AnalysisBudget(NodeBudget::DEFAULT)),
            Ok(text) => {
                text.trim().parse::<u64>().ok().and_then(|n| NodeBudget::new(n).ok()).map(AnalysisBudget).ok_or_else(
                    || {
                        format!(
                            "DAMES_ANALYSIS_NODES {text:?} is not a number of nodes from {} to {}",
                            NodeBudget::MIN,
                            NodeBudget::MAX
                        )
                    },
                )
            }
        }
    }

    /// The request's budget (the router provides it; the default if not).
    pub(super) fn current() -> AnalysisBudget {
        use_context::<AnalysisBudget>().unwrap_or(AnalysisBudget(NodeBudget::DEFAULT))
    }

    fn key(self, game_id: &str) -> AnalysisKey {
        AnalysisKey {
            game_id: game_id.to_string(),
            version: format!("{ANALYSIS_VERSION}-{BOT_VERSION}-{}", self.0.get()),
        }
    }
}

/// A finished game's analysis as far as it has gone; searches nothing.
pub async fn analysis_of(ctx: &RequestContext, game_id: String) -> ServerResult<AnalysisState> {
    let record = visible_game(ctx, &game_id).await?;
    let key = AnalysisBudget::current().key(&record.id);
    state_of(ctx.db.load_analysis(&key).await?, now_ms())
}

/// Asks for a finished game's analysis: the stored one, the run already
/// going, or a new run started in the background (its first state).
/// Counted against the player's and the address's analyses per minute.
pub async fn request_analysis(ctx: &RequestContext, game_id: String) -> ServerResult<AnalysisState> {
    ctx.limits.check_analysis(&ctx.player, ctx.address)?;
    let record = visible_game(ctx, &game_id).await?;
    if record.outcome.is_none() {
        return Err(AppError::GameNotOver.into());
    }
    let budget = AnalysisBudget::current();
    let key = budget.key(&record.id);
    let now = now_ms();
    let state = state_of(ctx.db.load_analysis(&key).await?, now)?;
    if state != AnalysisState::NotStarted {
        return Ok(state);
    }
    let job = AnalysisJob::new(record.replay()?, budget.0);
    let total = job.positions() as u64;
    let claim = AnalysisClaim {
        key,
        run_id: uuid::Uuid::new_v4().to_string(),
        total,
        now_ms: now,
        stale_before_ms: now - STALE_AFTER_MS,
    };
    if !ctx.db.claim_analysis(&claim).await? {
        // Another request claimed it first: its run is the one.
        return state_of(ctx.db.load_analysis(&claim.key).await?, now);
    }
    metrics::counter!("dames_analyses_started_total").increment(1);
    let (db, limits) = (ctx.db.clone(), ctx.limits.clone());
    tokio::spawn(async move {
        let (game_id, started) = (claim.key.game_id.clone(), Instant::now());
        match run(&db, &limits, &claim, job).await {
            Ok(true) => tracing::info!(game_id, ms = started.elapsed().as_millis() as u64, "analyse terminée"),
            Ok(false) => tracing::info!(game_id, "analyse reprise par une autre exécution"),
            Err(e) => tracing::error!(game_id, "analyse interrompue : {e}"),
        }
    });
    Ok(AnalysisState::Running { done: 0, total })
}

/// What a stored row says, at `now`: a run silent for too long counts as
/// not started, so that it can be asked for again.
fn state_of(stored: Option<StoredAnalysis>, now: i64) -> ServerResult<AnalysisState> {
    Ok(match stored {
        None => AnalysisState::NotStarted,
        Some(StoredAnalysis { result: Some(json), .. }) => {
            let analysis: Analysis =
                serde_json::from_str(&json).map_err(|e| ServerError::Unreadable(format!("analysis: {e}")))?;
            AnalysisState::Done(Box::new(analysis))
        }
        Some(row) if row.updated_at < now - STALE_AFTER_MS => AnalysisState::NotStarted,
        Some(row) => AnalysisState::Running { done: row.done, total: row.total },
    })
}

/// Searches every position of the claimed analysis and stores the result.
/// Returns false when the claim was lost on the way (the run went silent
/// long enough for another to take over): the other run's result stands.
async fn run(db: &Db, limits: &RateLimits, claim: &AnalysisClaim, job: AnalysisJob) -> ServerResult<bool> {
    let (key, run_id) = (&claim.key, claim.run_id.as_str());
    // Its share of the search slots: the run waits for an analysis turn,
    // saying now and then that it is still there.
    let _turn = loop {
        match tokio::time::timeout(WAITING_HEARTBEAT, limits.analyses.acquire()).await {
            Ok(turn) => break turn.map_err(|_| ServerError::SearchSlotsClosed)?,
            Err(_) => {
                if !db.save_analysis_progress(key, run_id, 0, now_ms()).await? {
                    return Ok(false);
                }
            }
        }
    };
    let job = Arc::new(job);
    let mut searches = Vec::with_capacity(job.positions());
    for index in 0..job.positions() {
        let slot = limits.searches.acquire().await.map_err(|_| ServerError::SearchSlotsClosed)?;
        let (started, job_here) = (Instant::now(), job.clone());
        let search = tokio::task::spawn_blocking(move || job_here.search(index)).await?;
        drop(slot);
        metrics::histogram!("dames_analysis_position_seconds").record(started.elapsed().as_secs_f64());
        searches.push(search.map_err(|e| ServerError::Unreadable(format!("analysis: {e}")))?);
        if !db.save_analysis_progress(key, run_id, searches.len() as u64, now_ms()).await? {
            return Ok(false);
        }
    }
    let analysis = job.finish(&searches).map_err(|e| ServerError::Unreadable(format!("analysis: {e}")))?;
    let json = serde_json::to_string(&analysis).map_err(|e| ServerError::Unreadable(format!("analysis: {e}")))?;
    db.finish_analysis(key, run_id, &json, now_ms()).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(done: u64, result: Option<&str>, updated_at: i64) -> Option<StoredAnalysis> {
        Some(StoredAnalysis { done, total: 41, result: result.map(str::to_string), updated_at })
    }

    #[test]
    fn a_silent_run_counts_as_not_started_and_a_live_one_shows_its_progress() {
        assert_eq!(state_of(None, 100_000).unwrap(), AnalysisState::NotStarted);
        assert_eq!(state_of(row(7, None, 90_000), 100_000).unwrap(), AnalysisState::Running { done: 7, total: 41 });
        assert_eq!(state_of(row(7, None, 100_000 - STALE_AFTER_MS - 1), 100_000).unwrap(), AnalysisState::NotStarted);
        assert!(state_of(row(41, Some("{"), 0), 100_000).is_err(), "an unreadable result is a fault");
    }

    #[test]
    fn the_key_names_the_analysis_the_computer_and_the_budget() {
        let key = AnalysisBudget(NodeBudget::DEFAULT).key("g");
        assert_eq!(key.version, format!("{ANALYSIS_VERSION}-{BOT_VERSION}-500000"));
        assert_ne!(key, AnalysisBudget(NodeBudget::new(20_000).unwrap()).key("g"));
    }
}
