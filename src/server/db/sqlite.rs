//! The SQLite engine: one connection, the migrations of `migrations/*.sql`
//! applied at start-up, every query the site makes, and blocking work moved
//! off the async executor.

use super::{AnalysisClaim, AnalysisKey, StoredAnalysis, StoredScore};
use crate::engine::bot;
use crate::protocol::{AppError, GameKind, ScoreLine};
use crate::server::error::{ServerError, ServerResult};
use crate::server::games::{color_name, outcome_json, Ended, GameRecord, GameRow, Played, TakenBack};
use crate::server::scores::VerifiedWin;
use rusqlite::{params, Connection, OptionalExtension};
use std::path::Path;
use std::sync::{Arc, Mutex};
/// The schema, in order. Each file is applied once, in a transaction, and
/// `PRAGMA user_version` records how many have been applied.
pub const MIGRATIONS: &[(&str, &str)] = &[
    ("0001_games.sql", include_str!("../../../migrations/0001_games.sql")),
    ("0002_scores.sql", include_str!("../../../migrations/0002_scores.sql")),
    ("0003_bot_version.sql", include_str!("../../../migrations/0003_bot_version.sql")),
    ("0004_rules_and_sides.sql", include_str!("../../../migrations/0004_rules_and_sides.sql")),
    ("0005_analyses.sql", include_str!("../../../migrations/0005_analyses.sql")),
];

/// Applies the migrations not applied yet. Returns how many ran.
pub fn migrate(conn: &mut Connection) -> ServerResult<usize> {
    let applied: usize = conn.query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0))? as usize;
    if applied > MIGRATIONS.len() {
        return Err(ServerError::SchemaTooNew { found: applied, known: MIGRATIONS.len() });
    }
    // A migration may rebuild a table (SQLite cannot change a column's
    // CHECK in place), which the foreign keys pointing at it would refuse
    // halfway. As SQLite documents for such changes, they are switched off
    // (possible only outside a transaction) and checked before each commit.
    let enforced: bool = conn.query_row("PRAGMA foreign_keys", [], |r| r.get(0))?;
    conn.pragma_update(None, "foreign_keys", false)?;
    let result = (|| -> ServerResult<()> {
        for (i, (name, sql)) in MIGRATIONS.iter().enumerate().skip(applied) {
            let tx = conn.transaction()?;
            tx.execute_batch(sql)?;
            let broken: i64 = tx.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| r.get(0))?;
            if broken > 0 {
                return Err(ServerError::Unreadable(format!("{name} leaves {broken} broken foreign keys")));
            }
            tx.pragma_update(None, "user_version", (i + 1) as i64)?;
            tx.commit()?;
            tracing::info!(migration = name, "applied");
        }
        Ok(())
    })();
    conn.pragma_update(None, "foreign_keys", enforced)?;
    result?;
    Ok(MIGRATIONS.len() - applied)
}

/// A shared handle on a SQLite database. SQLite serialises writers anyway;
/// one connection behind a mutex keeps it simple, and every query runs on
/// tokio's blocking pool so that it never stalls the executor.
#[derive(Clone)]
pub struct SqliteDb {
    conn: Arc<Mutex<Connection>>,
}

impl SqliteDb {
    pub fn open(path: &Path) -> ServerResult<SqliteDb> {
        let mut conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", true)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        migrate(&mut conn)?;
        Ok(SqliteDb { conn: Arc::new(Mutex::new(conn)) })
    }

    /// An in-memory database, for tests.
    pub fn open_in_memory() -> ServerResult<SqliteDb> {
        let mut conn = Connection::open_in_memory()?;
        conn.pragma_update(None, "foreign_keys", true)?;
        migrate(&mut conn)?;
        Ok(SqliteDb { conn: Arc::new(Mutex::new(conn)) })
    }

    /// Runs `work` with the connection on the blocking pool.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Connection) -> ServerResult<T> + Send + 'static,
    ) -> ServerResult<T> {
        let conn = self.conn.clone();
        tokio::task::spawn_blocking(move || {
            // A panic while holding the lock poisons it; the connection
            // itself is still sound, so carry on with it.
            let mut guard = conn.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            work(&mut guard)
        })
        .await?
    }

    /// Runs `work` on the calling thread (for start-up and tests).
    pub fn run_blocking<T>(&self, work: impl FnOnce(&mut Connection) -> T) -> T {
        let mut guard = self.conn.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        work(&mut guard)
    }
}

/// Liveness.
pub fn ping(conn: &mut Connection) -> ServerResult<()> {
    conn.query_row("SELECT 1", [], |r| r.get::<_, i64>(0))?;
    Ok(())
}

/// Readiness: every migration applied.
pub fn ready(conn: &mut Connection) -> ServerResult<()> {
    let applied: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if applied as usize != MIGRATIONS.len() {
        return Err(ServerError::Unavailable(format!("{applied} of {} migrations applied", MIGRATIONS.len())));
    }
    Ok(())
}

pub fn insert_game(conn: &mut Connection, new: &Played) -> ServerResult<()> {
    let record = &new.record;
    let tx = conn.transaction()?;
    tx.execute(
        "INSERT OR IGNORE INTO players (id, created_at) VALUES (?1, ?2)",
        params![record.player_id, record.created_at],
    )?;
    tx.execute(
        "INSERT INTO games (id, player_id, kind, day, level, seed, start_fen, ply_count, outcome, active_ms,
                            last_answer_ms, created_at, finished_at, bot_version, rules, player_color, played_on)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
        params![
            record.id,
            record.player_id,
            record.kind.name(),
            record.day,
            record.level().name(),
            record.seed as i64,
            record.start_fen,
            record.moves.len() as i64,
            record.outcome.map(outcome_json),
            record.active_ms as i64,
            record.last_answer_ms,
            record.created_at,
            record.outcome.map(|_| record.last_answer_ms),
            record.bot_version,
            record.setup.rules.to_string(),
            color_name(record.setup.player),
            record.played_on,
        ],
    )?;
    insert_moves(&tx, &record.id, 0, &new.added)?;
    tx.commit()?;
    Ok(())
}

pub fn load_game(conn: &Connection, id: &str) -> ServerResult<Option<GameRecord>> {
    let row = conn
        .query_row(
            "SELECT id, player_id, kind, day, level, seed, start_fen, outcome, active_ms, last_answer_ms, created_at,
                    bot_version, rules, player_color, played_on, revision
             FROM games WHERE id = ?1",
            [id],
            |r| {
                Ok(GameRow {
                    id: r.get(0)?,
                    player_id: r.get(1)?,
                    kind: r.get(2)?,
                    day: r.get(3)?,
                    level: r.get(4)?,
                    seed: r.get(5)?,
                    start_fen: r.get(6)?,
                    outcome: r.get(7)?,
                    active_ms: r.get(8)?,
                    last_answer_ms: r.get(9)?,
                    created_at: r.get(10)?,
                    bot_version: r.get(11)?,
                    rules: r.get(12)?,
                    player_color: r.get(13)?,
                    played_on: r.get(14)?,
                    revision: r.get(15)?,
                })
            },
        )
        .optional()?;
    let Some(row) = row else {
        return Ok(None);
    };
    let mut stmt = conn.prepare_cached("SELECT move FROM game_moves WHERE game_id = ?1 ORDER BY ply")?;
    let moves = stmt.query_map([id], |r| r.get::<_, String>(0))?.collect::<Result<Vec<_>, _>>()?;
    row.into_record(moves).map(Some)
}

pub fn latest_game(
    conn: &Connection,
    player_id: &str,
    kind: GameKind,
    day: Option<&str>,
) -> ServerResult<Option<GameRecord>> {
    let id: Option<String> = conn
        .query_row(
            "SELECT id FROM games WHERE player_id = ?1 AND kind = ?2 AND (?3 IS NULL OR day = ?3)
                 AND (bot_version = ?4 OR kind = 'two_players')
             ORDER BY created_at DESC, rowid DESC LIMIT 1",
            params![player_id, kind.name(), day, bot::BOT_VERSION],
            |r| r.get(0),
        )
        .optional()?;
    match id {
        Some(id) => load_game(conn, &id),
        None => Ok(None),
    }
}

pub fn save_played(conn: &mut Connection, played: &Played) -> ServerResult<()> {
    let r = &played.record;
    let tx = conn.transaction()?;
    let changed = tx.execute(
        "UPDATE games SET ply_count = ?2, outcome = ?3, active_ms = ?4, last_answer_ms = ?5,
                    finished_at = CASE WHEN ?3 IS NULL THEN NULL ELSE ?5 END,
                    player_color = ?7, level = ?8, played_on = ?9, revision = revision + 1
             WHERE id = ?1 AND ply_count = ?6 AND outcome IS ?10 AND revision = ?11",
        params![
            r.id,
            r.moves.len() as i64,
            r.outcome.map(outcome_json),
            r.active_ms as i64,
            r.last_answer_ms,
            played.expected_plies as i64,
            color_name(r.setup.player),
            r.level().name(),
            r.played_on,
            played.expected_outcome.map(outcome_json),
            played.expected_revision,
        ],
    )?;
    if changed != 1 {
        return Err(AppError::Conflict.into());
    }
    insert_moves(&tx, &r.id, played.expected_plies, &played.added)?;
    tx.commit()?;
    Ok(())
}

pub fn save_take_back(conn: &mut Connection, taken: &TakenBack) -> ServerResult<()> {
    let r = &taken.record;
    let tx = conn.transaction()?;
    let changed = tx.execute(
        "UPDATE games SET ply_count = ?2, outcome = NULL, finished_at = NULL, played_on = ?4, revision = revision + 1
             WHERE id = ?1 AND ply_count = ?3 AND revision = ?5",
        params![r.id, r.moves.len() as i64, taken.expected_plies as i64, r.played_on, taken.expected_revision],
    )?;
    if changed != 1 {
        return Err(AppError::Conflict.into());
    }
    tx.execute("DELETE FROM game_moves WHERE game_id = ?1 AND ply >= ?2", params![r.id, r.moves.len() as i64])?;
    tx.commit()?;
    Ok(())
}

pub fn save_ending(conn: &mut Connection, ended: &Ended) -> ServerResult<()> {
    let r = &ended.record;
    let changed = conn.execute(
        "UPDATE games SET outcome = ?2, finished_at = ?3, revision = revision + 1
             WHERE id = ?1 AND outcome IS NULL AND ply_count = ?4 AND revision = ?5",
        params![r.id, r.outcome.map(outcome_json), ended.finished_at, r.moves.len() as i64, ended.expected_revision],
    )?;
    if changed != 1 {
        return Err(AppError::Conflict.into());
    }
    Ok(())
}

fn insert_moves(
    tx: &rusqlite::Transaction<'_>,
    game_id: &str,
    first_ply: usize,
    moves: &[(String, Option<u64>)],
) -> ServerResult<()> {
    let mut stmt =
        tx.prepare_cached("INSERT INTO game_moves (game_id, ply, move, think_ms) VALUES (?1, ?2, ?3, ?4)")?;
    for (i, (mv, think)) in moves.iter().enumerate() {
        stmt.execute(params![game_id, (first_ply + i) as i64, mv, think.map(|t| t as i64)])?;
    }
    Ok(())
}

pub fn pseudonym_of(conn: &Connection, player_id: &str) -> ServerResult<Option<String>> {
    Ok(conn.query_row("SELECT pseudonym FROM players WHERE id = ?1", [player_id], |r| r.get(0)).optional()?.flatten())
}

pub fn set_pseudonym(conn: &mut Connection, player_id: &str, name: &str, key: &str, now_ms: i64) -> ServerResult<()> {
    let tx = conn.transaction()?;
    let taken: bool = tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM players WHERE pseudonym_key = ?1 AND id <> ?2)",
        params![key, player_id],
        |r| r.get(0),
    )?;
    if taken {
        return Err(AppError::BadPseudonym(crate::server::players::TAKEN.into()).into());
    }
    tx.execute(
        "INSERT INTO players (id, pseudonym, pseudonym_key, created_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (id) DO UPDATE SET pseudonym = excluded.pseudonym, pseudonym_key = excluded.pseudonym_key",
        params![player_id, name, key, now_ms],
    )?;
    tx.commit()?;
    Ok(())
}

pub fn record_score(conn: &mut Connection, win: &VerifiedWin, now_ms: i64) -> ServerResult<()> {
    let tx = conn.transaction()?;
    let inserted = tx.execute(
        "INSERT OR IGNORE INTO scores (game_id, player_id, board, score, pieces, seconds, recorded_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![win.game_id, win.player_id, win.board, win.score as i64, win.pieces, win.seconds as i64, now_ms],
    )?;
    if inserted == 1 {
        tx.execute(
            "INSERT INTO best_scores (board, player_id, game_id, score, pieces, seconds, recorded_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (board, player_id) DO UPDATE SET
                game_id = excluded.game_id, score = excluded.score, pieces = excluded.pieces,
                seconds = excluded.seconds, recorded_at = excluded.recorded_at
             WHERE excluded.score > best_scores.score",
            params![win.board, win.player_id, win.game_id, win.score as i64, win.pieces, win.seconds as i64, now_ms],
        )?;
    }
    Ok(tx.commit()?)
}

pub fn finished_unscored(conn: &Connection) -> ServerResult<Vec<(String, String)>> {
    let mut stmt = conn.prepare(
        "SELECT g.id, g.outcome FROM games g LEFT JOIN scores s ON s.game_id = g.id
             WHERE g.outcome IS NOT NULL AND g.bot_version = ?1 AND s.game_id IS NULL",
    )?;
    let rows = stmt.query_map([bot::BOT_VERSION], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

pub fn score_of_game(conn: &Connection, game_id: &str) -> ServerResult<Option<StoredScore>> {
    Ok(conn
        .query_row("SELECT board, player_id, score, pieces, seconds FROM scores WHERE game_id = ?1", [game_id], |r| {
            Ok(StoredScore {
                board: r.get(0)?,
                player_id: r.get(1)?,
                score: r.get::<_, i64>(2)? as u64,
                pieces: r.get(3)?,
                seconds: r.get::<_, i64>(4)? as u64,
            })
        })
        .optional()?)
}

pub fn leaderboard(conn: &Connection, board: &str, limit: usize) -> ServerResult<Vec<ScoreLine>> {
    let mut stmt = conn.prepare_cached(
        "SELECT b.player_id, p.pseudonym, b.game_id, b.score, b.pieces, b.seconds
             FROM best_scores b JOIN players p ON p.id = b.player_id
             WHERE b.board = ?1 ORDER BY b.score DESC, b.recorded_at ASC LIMIT ?2",
    )?;
    let rows = stmt
        .query_map(params![board, limit as i64], |r| {
            Ok(ScoreLine {
                rank: 0,
                player_id: r.get(0)?,
                pseudonym: r.get(1)?,
                game_id: r.get(2)?,
                score: r.get::<_, i64>(3)? as u64,
                pieces: r.get(4)?,
                seconds: r.get::<_, i64>(5)? as u64,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows.into_iter().enumerate().map(|(i, line)| ScoreLine { rank: i as u64 + 1, ..line }).collect())
}

pub fn rank_of(conn: &Connection, board: &str, player_id: &str) -> ServerResult<Option<ScoreLine>> {
    let row = conn
        .query_row(
            "SELECT b.game_id, b.score, b.pieces, b.seconds, b.recorded_at, p.pseudonym
             FROM best_scores b JOIN players p ON p.id = b.player_id
             WHERE b.board = ?1 AND b.player_id = ?2",
            params![board, player_id],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, u32>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, i64>(4)?,
                    r.get::<_, Option<String>>(5)?,
                ))
            },
        )
        .optional()?;
    let Some((game_id, score, pieces, seconds, recorded_at, pseudonym)) = row else {
        return Ok(None);
    };
    let ahead: i64 = conn.query_row(
        "SELECT count(*) FROM best_scores
             WHERE board = ?1 AND (score > ?2 OR (score = ?2 AND recorded_at < ?3))",
        params![board, score, recorded_at],
        |r| r.get(0),
    )?;
    Ok(Some(ScoreLine {
        rank: ahead as u64 + 1,
        player_id: player_id.to_string(),
        pseudonym,
        game_id,
        score: score as u64,
        pieces,
        seconds: seconds as u64,
    }))
}

pub fn load_analysis(conn: &Connection, key: &AnalysisKey) -> ServerResult<Option<StoredAnalysis>> {
    Ok(conn
        .query_row(
            "SELECT done, total, result, updated_at FROM analyses WHERE game_id = ?1 AND version = ?2",
            params![key.game_id, key.version],
            |r| {
                Ok(StoredAnalysis {
                    done: r.get::<_, i64>(0)? as u64,
                    total: r.get::<_, i64>(1)? as u64,
                    result: r.get(2)?,
                    updated_at: r.get(3)?,
                })
            },
        )
        .optional()?)
}

pub fn claim_analysis(conn: &Connection, claim: &AnalysisClaim) -> ServerResult<bool> {
    let changed = conn.execute(
        "INSERT INTO analyses (game_id, version, done, total, run_id, updated_at) VALUES (?1, ?2, 0, ?3, ?4, ?5)
         ON CONFLICT (game_id, version) DO UPDATE
             SET done = 0, total = excluded.total, run_id = excluded.run_id, updated_at = excluded.updated_at
             WHERE analyses.result IS NULL AND analyses.updated_at < ?6",
        params![
            claim.key.game_id,
            claim.key.version,
            claim.total as i64,
            claim.run_id,
            claim.now_ms,
            claim.stale_before_ms
        ],
    )?;
    Ok(changed == 1)
}

pub fn save_analysis_progress(
    conn: &Connection,
    key: &AnalysisKey,
    run_id: &str,
    done: u64,
    now_ms: i64,
) -> ServerResult<bool> {
    let changed = conn.execute(
        "UPDATE analyses SET done = ?4, updated_at = ?5
         WHERE game_id = ?1 AND version = ?2 AND run_id = ?3 AND result IS NULL",
        params![key.game_id, key.version, run_id, done as i64, now_ms],
    )?;
    Ok(changed == 1)
}

pub fn finish_analysis(
    conn: &Connection,
    key: &AnalysisKey,
    run_id: &str,
    result: &str,
    now_ms: i64,
) -> ServerResult<bool> {
    let changed = conn.execute(
        "UPDATE analyses SET done = total, result = ?4, updated_at = ?5
         WHERE game_id = ?1 AND version = ?2 AND run_id = ?3 AND result IS NULL",
        params![key.game_id, key.version, run_id, result, now_ms],
    )?;
    Ok(changed == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_apply_once_and_list_every_file() {
        let mut conn = Connection::open_in_memory().unwrap();
        assert_eq!(migrate(&mut conn).unwrap(), MIGRATIONS.len());
        assert_eq!(migrate(&mut conn).unwrap(), 0);
        let tables: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'games'", [], |r| r.get(0))
            .unwrap();
        assert_eq!(tables, 1);

        super::super::tests::assert_every_migration_listed("migrations", MIGRATIONS);
    }

    #[test]
    fn games_stored_before_rules_existed_keep_their_moves_and_get_the_daily_rules() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "foreign_keys", true).unwrap();
        for (i, (_, sql)) in MIGRATIONS.iter().enumerate().take(3) {
            conn.execute_batch(sql).unwrap();
            conn.pragma_update(None, "user_version", (i + 1) as i64).unwrap();
        }
        conn.execute_batch(
            "INSERT INTO players (id, created_at) VALUES ('p', 1);
             INSERT INTO games (id, player_id, kind, day, level, seed, start_fen, last_answer_ms, created_at, bot_version)
                 VALUES ('g', 'p', 'free', '2026-11-29', 'fort', 7, 'W:W31-50:B1-20', 1, 1, 2);
             INSERT INTO game_moves (game_id, ply, move) VALUES ('g', 0, '32-28');
             INSERT INTO scores (game_id, player_id, board, score, pieces, seconds, recorded_at)
                 VALUES ('g', 'p', 'libre:fort', 3000, 1, 1, 1);",
        )
        .unwrap();
        assert_eq!(migrate(&mut conn).unwrap(), MIGRATIONS.len() - 3);
        let (rules, color, version): (String, String, u32) = conn
            .query_row("SELECT rules, player_color, bot_version FROM games WHERE id = 'g'", [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .unwrap();
        assert_eq!(crate::engine::Rules::parse(&rules), Ok(crate::engine::Rules::DAILY));
        assert_eq!((color.as_str(), version), ("white", 2));
        let moves: i64 =
            conn.query_row("SELECT count(*) FROM game_moves WHERE game_id = 'g'", [], |r| r.get(0)).unwrap();
        assert_eq!(moves, 1);
        let broken: i64 = conn.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| r.get(0)).unwrap();
        assert_eq!(broken, 0);
        conn.execute(
            "INSERT INTO games (id, player_id, kind, day, level, seed, start_fen, last_answer_ms, created_at)
             VALUES ('h', 'p', 'two_players', '2026-11-29', 'intermediaire', 0, 'B:W21-32:B1-12', 1, 1)",
            [],
        )
        .unwrap();
        assert!(conn
            .execute(
                "INSERT INTO games (id, player_id, kind, day, level, seed, start_fen, last_answer_ms, created_at)
                 VALUES ('i', 'p', 'blitz', '2026-11-29', 'fort', 0, 'x', 1, 1)",
                [],
            )
            .is_err());
    }

    #[test]
    fn a_newer_database_is_refused() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "user_version", 99).unwrap();
        assert!(matches!(migrate(&mut conn), Err(ServerError::SchemaTooNew { found: 99, .. })));
    }

    #[test]
    fn a_file_database_survives_reopening() {
        // The folder goes away when the test ends, passed or failed.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("dames.sqlite3");
        {
            let db = SqliteDb::open(&path).unwrap();
            db.run_blocking(|c| c.execute("INSERT INTO players (id, created_at) VALUES ('p', 1)", [])).unwrap();
        }
        let db = SqliteDb::open(&path).unwrap();
        let n: i64 = db.run_blocking(|c| c.query_row("SELECT count(*) FROM players", [], |r| r.get(0))).unwrap();
        assert_eq!(n, 1);
    }
}
