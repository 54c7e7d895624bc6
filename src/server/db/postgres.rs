//! The PostgreSQL engine: a pool of connections, the migrations of
//! `migrations/postgres/` applied at start-up under an advisory lock (so
//! that servers starting together migrate once), and every query the site
//! makes. Several app servers share one database: every write that extends
//! or ends a game is a conditional update on the row read, so a ply is
//! accepted once whichever server receives it.

use super::{AnalysisClaim, AnalysisKey, StoredAnalysis, StoredScore};
use crate::engine::bot;
use crate::protocol::{AppError, GameKind, ScoreLine};
use crate::server::error::{ServerError, ServerResult};
use crate::server::games::{color_name, outcome_json, Ended, GameRecord, GameRow, Played, TakenBack};
use crate::server::players::TAKEN;
use crate::server::scores::VerifiedWin;
use deadpool_postgres::GenericClient;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use std::time::Duration;
use tokio_postgres::{NoTls, Row};

/// The schema, in order; `schema_migrations` records which are applied.
pub const MIGRATIONS: &[(&str, &str)] = &[
    ("0001_schema.sql", include_str!("../../../migrations/postgres/0001_schema.sql")),
    ("0002_analyses.sql", include_str!("../../../migrations/postgres/0002_analyses.sql")),
];

/// The advisory lock migrations run under ("dames" in ASCII): servers
/// starting together wait for the first one, then find nothing to do.
const MIGRATION_LOCK: i64 = 0x64_61_6d_65_73;

/// Connections per app server: `DAMES_DB_POOL`, 16 by default. Size it so
/// that servers × pool stays under PostgreSQL's `max_connections` (100 by
/// default).
fn pool_size() -> usize {
    std::env::var("DAMES_DB_POOL").ok().and_then(|v| v.parse().ok()).filter(|&n| n > 0).unwrap_or(16)
}

/// The address with its password replaced, for logs.
pub fn without_password(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &url[scheme + 3..at];
            match credentials.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

/// A pool of connections to one PostgreSQL database.
#[derive(Clone)]
pub struct PgDb {
    pool: Pool,
}

impl PgDb {
    /// Connects and applies the migrations not applied yet.
    pub async fn open(url: &str) -> ServerResult<PgDb> {
        let config: tokio_postgres::Config =
            url.parse().map_err(|e| ServerError::Unreadable(format!("DAMES_DB: {e}")))?;
        let manager = Manager::from_config(config, NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
        // A request waits at most 5 s for a connection; a dead database
        // then answers 503 quickly instead of piling requests up. Closed
        // connections are dropped on recycling, so the pool recovers by
        // itself once the database is back.
        let pool = Pool::builder(manager)
            .max_size(pool_size())
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(Duration::from_secs(5)))
            .create_timeout(Some(Duration::from_secs(5)))
            .recycle_timeout(Some(Duration::from_secs(5)))
            .build()
            .map_err(|e| ServerError::Unreadable(format!("DAMES_DB: {e}")))?;
        let db = PgDb { pool };
        db.migrate().await?;
        Ok(db)
    }

    /// Applies the migrations not applied yet, in one transaction under the
    /// advisory lock. Returns how many ran.
    pub async fn migrate(&self) -> ServerResult<usize> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).await?;
        tx.batch_execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (
                 version    BIGINT PRIMARY KEY,
                 name       TEXT NOT NULL,
                 applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
             )",
        )
        .await?;
        let applied = applied(&tx).await?;
        if applied > MIGRATIONS.len() {
            return Err(ServerError::SchemaTooNew { found: applied, known: MIGRATIONS.len() });
        }
        for (i, (name, sql)) in MIGRATIONS.iter().enumerate().skip(applied) {
            tx.batch_execute(sql).await?;
            tx.execute("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", &[&(i as i64 + 1), name])
                .await?;
            tracing::info!(migration = name, "applied");
        }
        tx.commit().await?;
        Ok(MIGRATIONS.len() - applied)
    }

    pub async fn ping(&self) -> ServerResult<()> {
        self.pool.get().await?.query_one("SELECT 1", &[]).await?;
        Ok(())
    }

    pub async fn ready(&self) -> ServerResult<()> {
        let client = self.pool.get().await?;
        let applied = applied(&client).await?;
        if applied != MIGRATIONS.len() {
            return Err(ServerError::Unavailable(format!("{applied} of {} migrations applied", MIGRATIONS.len())));
        }
        Ok(())
    }

    pub async fn insert_game(&self, new: &Played) -> ServerResult<()> {
        let record = &new.record;
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        tx.execute(
            "INSERT INTO players (id, created_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING",
            &[&record.player_id, &record.created_at],
        )
        .await?;
        tx.execute(
            "INSERT INTO games (id, player_id, kind, day, level, seed, start_fen, ply_count, outcome, active_ms,
                                last_answer_ms, created_at, finished_at, bot_version, rules, player_color, played_on)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
            &[
                &record.id,
                &record.player_id,
                &record.kind.name(),
                &record.day,
                &record.level().name(),
                &(record.seed as i64),
                &record.start_fen,
                &(record.moves.len() as i64),
                &record.outcome.map(outcome_json),
                &(record.active_ms as i64),
                &record.last_answer_ms,
                &record.created_at,
                &record.outcome.map(|_| record.last_answer_ms),
                &i64::from(record.bot_version),
                &record.setup.rules.to_string(),
                &color_name(record.setup.player),
                &record.played_on,
            ],
        )
        .await?;
        insert_moves(&tx, &record.id, 0, &new.added).await?;
        tx.commit().await?;
        Ok(())
    }

    pub async fn load_game(&self, id: &str) -> ServerResult<Option<GameRecord>> {
        let client = self.pool.get().await?;
        load_game(&client, id).await
    }

    pub async fn latest_game(
        &self,
        player_id: &str,
        kind: GameKind,
        day: Option<&str>,
    ) -> ServerResult<Option<GameRecord>> {
        let client = self.pool.get().await?;
        let row = client
            .query_opt(
                "SELECT id FROM games WHERE player_id = $1 AND kind = $2 AND ($3::TEXT IS NULL OR day = $3)
                     AND (bot_version = $4 OR kind = 'two_players')
                 ORDER BY created_at DESC, seq DESC LIMIT 1",
                &[&player_id, &kind.name(), &day, &i64::from(bot::BOT_VERSION)],
            )
            .await?;
        match row {
            Some(row) => load_game(&client, row.get(0)).await,
            None => Ok(None),
        }
    }

    pub async fn save_played(&self, played: &Played) -> ServerResult<()> {
        let r = &played.record;
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        // Two servers updating the same row: the second waits for the
        // first to commit, then finds its conditions false and changes
        // nothing (PostgreSQL re-checks the WHERE on the committed row).
        let changed = tx
            .execute(
                "UPDATE games SET ply_count = $2, outcome = $3, active_ms = $4, last_answer_ms = $5,
                        finished_at = CASE WHEN $3::TEXT IS NULL THEN NULL ELSE $5::BIGINT END,
                        player_color = $7, level = $8, played_on = $9, revision = revision + 1
                 WHERE id = $1 AND ply_count = $6 AND outcome IS NOT DISTINCT FROM $10 AND revision = $11",
                &[
                    &r.id,
                    &(r.moves.len() as i64),
                    &r.outcome.map(outcome_json),
                    &(r.active_ms as i64),
                    &r.last_answer_ms,
                    &(played.expected_plies as i64),
                    &color_name(r.setup.player),
                    &r.level().name(),
                    &r.played_on,
                    &played.expected_outcome.map(outcome_json),
                    &played.expected_revision,
                ],
            )
            .await?;
        if changed != 1 {
            return Err(AppError::Conflict.into());
        }
        insert_moves(&tx, &r.id, played.expected_plies, &played.added).await?;
        tx.commit().await?;
        Ok(())
    }

    pub async fn save_take_back(&self, taken: &TakenBack) -> ServerResult<()> {
        let r = &taken.record;
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let changed = tx
            .execute(
                "UPDATE games SET ply_count = $2, outcome = NULL, finished_at = NULL, played_on = $4,
                        revision = revision + 1
                 WHERE id = $1 AND ply_count = $3 AND revision = $5",
                &[
                    &r.id,
                    &(r.moves.len() as i64),
                    &(taken.expected_plies as i64),
                    &r.played_on,
                    &taken.expected_revision,
                ],
            )
            .await?;
        if changed != 1 {
            return Err(AppError::Conflict.into());
        }
        tx.execute("DELETE FROM game_moves WHERE game_id = $1 AND ply >= $2", &[&r.id, &(r.moves.len() as i64)])
            .await?;
        tx.commit().await?;
        Ok(())
    }

    pub async fn save_ending(&self, ended: &Ended) -> ServerResult<()> {
        let r = &ended.record;
        let changed = self
            .pool
            .get()
            .await?
            .execute(
                "UPDATE games SET outcome = $2, finished_at = $3, revision = revision + 1
                 WHERE id = $1 AND outcome IS NULL AND ply_count = $4 AND revision = $5",
                &[
                    &r.id,
                    &r.outcome.map(outcome_json),
                    &ended.finished_at,
                    &(r.moves.len() as i64),
                    &ended.expected_revision,
                ],
            )
            .await?;
        if changed != 1 {
            return Err(AppError::Conflict.into());
        }
        Ok(())
    }

    pub async fn pseudonym_of(&self, player_id: &str) -> ServerResult<Option<String>> {
        let row =
            self.pool.get().await?.query_opt("SELECT pseudonym FROM players WHERE id = $1", &[&player_id]).await?;
        Ok(row.and_then(|r| r.get(0)))
    }

    pub async fn set_pseudonym(&self, player_id: &str, name: &str, key: &str, now_ms: i64) -> ServerResult<()> {
        let client = self.pool.get().await?;
        // The unique index on the key decides between two players taking
        // the same name at the same moment.
        let written = client
            .execute(
                "INSERT INTO players (id, pseudonym, pseudonym_key, created_at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (id) DO UPDATE SET pseudonym = excluded.pseudonym, pseudonym_key = excluded.pseudonym_key",
                &[&player_id, &name, &key, &now_ms],
            )
            .await;
        match written {
            Ok(_) => Ok(()),
            Err(e) if e.code() == Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION) => {
                Err(AppError::BadPseudonym(TAKEN.into()).into())
            }
            Err(e) => Err(e.into()),
        }
    }

    pub async fn record_score(&self, win: &VerifiedWin, now_ms: i64) -> ServerResult<()> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let (score, pieces, seconds) = (win.score as i64, i64::from(win.pieces), win.seconds as i64);
        let inserted = tx
            .execute(
                "INSERT INTO scores (game_id, player_id, board, score, pieces, seconds, recorded_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (game_id) DO NOTHING",
                &[&win.game_id, &win.player_id, &win.board, &score, &pieces, &seconds, &now_ms],
            )
            .await?;
        if inserted == 1 {
            tx.execute(
                "INSERT INTO best_scores (board, player_id, game_id, score, pieces, seconds, recorded_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)
                 ON CONFLICT (board, player_id) DO UPDATE SET
                    game_id = excluded.game_id, score = excluded.score, pieces = excluded.pieces,
                    seconds = excluded.seconds, recorded_at = excluded.recorded_at
                 WHERE excluded.score > best_scores.score",
                &[&win.board, &win.player_id, &win.game_id, &score, &pieces, &seconds, &now_ms],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    pub async fn finished_unscored(&self) -> ServerResult<Vec<(String, String)>> {
        let rows = self
            .pool
            .get()
            .await?
            .query(
                "SELECT g.id, g.outcome FROM games g LEFT JOIN scores s ON s.game_id = g.id
                 WHERE g.outcome IS NOT NULL AND g.bot_version = $1 AND s.game_id IS NULL",
                &[&i64::from(bot::BOT_VERSION)],
            )
            .await?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    pub async fn score_of_game(&self, game_id: &str) -> ServerResult<Option<StoredScore>> {
        let row = self
            .pool
            .get()
            .await?
            .query_opt("SELECT board, player_id, score, pieces, seconds FROM scores WHERE game_id = $1", &[&game_id])
            .await?;
        Ok(row.map(|r| StoredScore {
            board: r.get(0),
            player_id: r.get(1),
            score: r.get::<_, i64>(2) as u64,
            pieces: r.get::<_, i64>(3) as u32,
            seconds: r.get::<_, i64>(4) as u64,
        }))
    }

    pub async fn leaderboard(&self, board: &str, limit: usize) -> ServerResult<Vec<ScoreLine>> {
        let rows = self
            .pool
            .get()
            .await?
            .query(
                "SELECT b.player_id, p.pseudonym, b.game_id, b.score, b.pieces, b.seconds
                 FROM best_scores b JOIN players p ON p.id = b.player_id
                 WHERE b.board = $1 ORDER BY b.score DESC, b.recorded_at ASC LIMIT $2",
                &[&board, &(limit as i64)],
            )
            .await?;
        Ok(rows
            .iter()
            .enumerate()
            .map(|(i, r)| ScoreLine {
                rank: i as u64 + 1,
                player_id: r.get(0),
                pseudonym: r.get(1),
                game_id: r.get(2),
                score: r.get::<_, i64>(3) as u64,
                pieces: r.get::<_, i64>(4) as u32,
                seconds: r.get::<_, i64>(5) as u64,
            })
            .collect())
    }

    pub async fn rank_of(&self, board: &str, player_id: &str) -> ServerResult<Option<ScoreLine>> {
        let client = self.pool.get().await?;
        let row = client
            .query_opt(
                "SELECT b.game_id, b.score, b.pieces, b.seconds, b.recorded_at, p.pseudonym
                 FROM best_scores b JOIN players p ON p.id = b.player_id
                 WHERE b.board = $1 AND b.player_id = $2",
                &[&board, &player_id],
            )
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let (score, recorded_at): (i64, i64) = (row.get(1), row.get(4));
        let ahead: i64 = client
            .query_one(
                "SELECT count(*) FROM best_scores
                 WHERE board = $1 AND (score > $2 OR (score = $2 AND recorded_at < $3))",
                &[&board, &score, &recorded_at],
            )
            .await?
            .get(0);
        Ok(Some(ScoreLine {
            rank: ahead as u64 + 1,
            player_id: player_id.to_string(),
            pseudonym: row.get(5),
            game_id: row.get(0),
            score: score as u64,
            pieces: row.get::<_, i64>(2) as u32,
            seconds: row.get::<_, i64>(3) as u64,
        }))
    }
}

/// How many migrations `schema_migrations` records (0 before the first).
async fn applied(client: &impl GenericClient) -> ServerResult<usize> {
    let exists: bool = client.query_one("SELECT to_regclass('schema_migrations') IS NOT NULL", &[]).await?.get(0);
    if !exists {
        return Ok(0);
    }
    let n: i64 = client.query_one("SELECT count(*) FROM schema_migrations", &[]).await?.get(0);
    Ok(n as usize)
}

async fn load_game(client: &impl GenericClient, id: &str) -> ServerResult<Option<GameRecord>> {
    let row = client
        .query_opt(
            "SELECT id, player_id, kind, day, level, seed, start_fen, outcome, active_ms, last_answer_ms, created_at,
                    bot_version, rules, player_color, played_on, revision
             FROM games WHERE id = $1",
            &[&id],
        )
        .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let moves = client
        .query("SELECT move FROM game_moves WHERE game_id = $1 ORDER BY ply", &[&id])
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect();
    game_row(&row).into_record(moves).map(Some)
}

fn game_row(r: &Row) -> GameRow {
    GameRow {
        id: r.get(0),
        player_id: r.get(1),
        kind: r.get(2),
        day: r.get(3),
        level: r.get(4),
        seed: r.get(5),
        start_fen: r.get(6),
        outcome: r.get(7),
        active_ms: r.get(8),
        last_answer_ms: r.get(9),
        created_at: r.get(10),
        bot_version: r.get::<_, i64>(11) as u32,
        rules: r.get(12),
        player_color: r.get(13),
        played_on: r.get(14),
        revision: r.get(15),
    }
}

async fn insert_moves(
    client: &impl GenericClient,
    game_id: &str,
    first_ply: usize,
    moves: &[(String, Option<u64>)],
) -> ServerResult<()> {
    if moves.is_empty() {
        return Ok(());
    }
    let statement =
        client.prepare_cached("INSERT INTO game_moves (game_id, ply, move, think_ms) VALUES ($1, $2, $3, $4)").await?;
    for (i, (mv, think)) in moves.iter().enumerate() {
        client.execute(&statement, &[&game_id, &((first_ply + i) as i64), mv, &think.map(|t| t as i64)]).await?;
    }
    Ok(())
}

pub async fn load_analysis(db: &PgDb, key: &AnalysisKey) -> ServerResult<Option<StoredAnalysis>> {
    let row = db
        .pool
        .get()
        .await?
        .query_opt(
            "SELECT done, total, result, updated_at FROM analyses WHERE game_id = $1 AND version = $2",
            &[&key.game_id, &key.version],
        )
        .await?;
    Ok(row.map(|r| StoredAnalysis {
        done: r.get::<_, i64>(0) as u64,
        total: r.get::<_, i64>(1) as u64,
        result: r.get(2),
        updated_at: r.get(3),
    }))
}

pub async fn claim_analysis(db: &PgDb, claim: &AnalysisClaim) -> ServerResult<bool> {
    let changed = db
        .pool
        .get()
        .await?
        .execute(
            "INSERT INTO analyses (game_id, version, done, total, run_id, updated_at) VALUES ($1, $2, 0, $3, $4, $5)
             ON CONFLICT (game_id, version) DO UPDATE
                 SET done = 0, total = excluded.total, run_id = excluded.run_id, updated_at = excluded.updated_at
                 WHERE analyses.result IS NULL AND analyses.updated_at < $6",
            &[
                &claim.key.game_id,
                &claim.key.version,
                &(claim.total as i64),
                &claim.run_id,
                &claim.now_ms,
                &claim.stale_before_ms,
            ],
        )
        .await?;
    Ok(changed == 1)
}

pub async fn save_analysis_progress(
    db: &PgDb,
    key: &AnalysisKey,
    run_id: &str,
    done: u64,
    now_ms: i64,
) -> ServerResult<bool> {
    let changed = db
        .pool
        .get()
        .await?
        .execute(
            "UPDATE analyses SET done = $4, updated_at = $5
             WHERE game_id = $1 AND version = $2 AND run_id = $3 AND result IS NULL",
            &[&key.game_id, &key.version, &run_id, &(done as i64), &now_ms],
        )
        .await?;
    Ok(changed == 1)
}

pub async fn finish_analysis(
    db: &PgDb,
    key: &AnalysisKey,
    run_id: &str,
    result: &str,
    now_ms: i64,
) -> ServerResult<bool> {
    let changed = db
        .pool
        .get()
        .await?
        .execute(
            "UPDATE analyses SET done = total, result = $4, updated_at = $5
             WHERE game_id = $1 AND version = $2 AND run_id = $3 AND result IS NULL",
            &[&key.game_id, &key.version, &run_id, &result, &now_ms],
        )
        .await?;
    Ok(changed == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_stay_out_of_the_logs() {
        assert_eq!(without_password("postgres://dames:s3cret@db:5432/dames"), "postgres://dames:***@db:5432/dames");
        assert_eq!(without_password("postgres://dames@db/dames"), "postgres://dames@db/dames");
        assert_eq!(without_password("postgres://db/dames"), "postgres://db/dames");
    }
}
