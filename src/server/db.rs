//! The SQLite database: one connection, migrations applied at start-up, and
//! blocking work moved off the async executor.

use super::error::{ServerError, ServerResult};
use rusqlite::Connection;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The schema, in order. Each file is applied once, in a transaction, and
/// `PRAGMA user_version` records how many have been applied.
pub const MIGRATIONS: &[(&str, &str)] = &[
    ("0001_games.sql", include_str!("../../migrations/0001_games.sql")),
    ("0002_scores.sql", include_str!("../../migrations/0002_scores.sql")),
    ("0003_bot_version.sql", include_str!("../../migrations/0003_bot_version.sql")),
    ("0004_rules_and_sides.sql", include_str!("../../migrations/0004_rules_and_sides.sql")),
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

/// A shared handle on the database. SQLite serialises writers anyway; one
/// connection behind a mutex keeps it simple, and every query runs on
/// tokio's blocking pool so that it never stalls the executor.
#[derive(Clone)]
pub struct Db {
    conn: Arc<Mutex<Connection>>,
}

impl Db {
    pub fn open(path: &Path) -> ServerResult<Db> {
        let mut conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", true)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        migrate(&mut conn)?;
        Ok(Db { conn: Arc::new(Mutex::new(conn)) })
    }

    /// An in-memory database, for tests.
    pub fn open_in_memory() -> ServerResult<Db> {
        let mut conn = Connection::open_in_memory()?;
        conn.pragma_update(None, "foreign_keys", true)?;
        migrate(&mut conn)?;
        Ok(Db { conn: Arc::new(Mutex::new(conn)) })
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

        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".sql"))
            .collect();
        files.sort();
        let listed: Vec<String> = MIGRATIONS.iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(files, listed, "every migrations/*.sql is listed in MIGRATIONS, in order");
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
            let db = Db::open(&path).unwrap();
            db.run_blocking(|c| c.execute("INSERT INTO players (id, created_at) VALUES ('p', 1)", [])).unwrap();
        }
        let db = Db::open(&path).unwrap();
        let n: i64 = db.run_blocking(|c| c.query_row("SELECT count(*) FROM players", [], |r| r.get(0))).unwrap();
        assert_eq!(n, 1);
    }
}
