//! Storage: one interface over two engines, chosen at start-up by
//! `DAMES_DB` — a SQLite file (the default: one process, nothing else to
//! run) or a `postgres://` address (several identical app servers on one
//! database). Every operation the site needs is a method here; the SQL of
//! each engine lives in its own module, and the storage tests run the same
//! suite against both.

pub mod analyses;
pub mod postgres;
pub mod sqlite;
#[cfg(test)]
mod tests;

use super::error::ServerResult;
use super::games::{Ended, GameRecord, Played, TakenBack};
use super::scores::VerifiedWin;
use crate::protocol::{GameKind, ScoreLine};
use std::future::Future;
use std::path::PathBuf;
use std::time::Instant;

pub use analyses::{AnalysisClaim, AnalysisKey, StoredAnalysis};

/// Where the data lives, as `DAMES_DB` says.
#[derive(Clone, PartialEq, Eq)]
pub enum DbLocation {
    /// A SQLite file, created and migrated at start-up.
    File(PathBuf),
    /// A PostgreSQL connection string (`postgres://user:password@host/db`).
    Postgres(String),
}

impl DbLocation {
    pub fn parse(text: &str) -> DbLocation {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            DbLocation::Postgres(text.to_string())
        } else {
            DbLocation::File(PathBuf::from(text))
        }
    }
}

/// For logs: a PostgreSQL address without its password.
impl std::fmt::Debug for DbLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DbLocation::File(path) => write!(f, "{}", path.display()),
            DbLocation::Postgres(url) => f.write_str(&postgres::without_password(url)),
        }
    }
}

/// A stored score row (its rank is computed apart).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredScore {
    pub board: String,
    pub player_id: String,
    pub score: u64,
    pub pieces: u32,
    pub seconds: u64,
}

/// The site's storage. Cheap to clone: both engines share their
/// connections.
#[derive(Clone)]
pub enum Db {
    Sqlite(sqlite::SqliteDb),
    Postgres(postgres::PgDb),
}

impl Db {
    /// Opens (and migrates) the database `DAMES_DB` names.
    pub async fn open(location: &DbLocation) -> ServerResult<Db> {
        match location {
            DbLocation::File(path) => Ok(Db::Sqlite(sqlite::SqliteDb::open(path)?)),
            DbLocation::Postgres(url) => Ok(Db::Postgres(postgres::PgDb::open(url).await?)),
        }
    }

    /// An in-memory SQLite database, for tests and benchmarks.
    pub fn open_in_memory() -> ServerResult<Db> {
        Ok(Db::Sqlite(sqlite::SqliteDb::open_in_memory()?))
    }

    /// `sqlite` or `postgres`: a label on the metrics.
    pub fn engine(&self) -> &'static str {
        match self {
            Db::Sqlite(_) => "sqlite",
            Db::Postgres(_) => "postgres",
        }
    }

    /// Times one operation into `dames_db_query_seconds{op, engine}`.
    async fn timed<T>(&self, op: &'static str, work: impl Future<Output = ServerResult<T>>) -> ServerResult<T> {
        let started = Instant::now();
        let result = work.await;
        metrics::histogram!("dames_db_query_seconds", "op" => op, "engine" => self.engine())
            .record(started.elapsed().as_secs_f64());
        result
    }

    /// Liveness: the database answers.
    pub async fn ping(&self) -> ServerResult<()> {
        match self {
            Db::Sqlite(db) => db.run(sqlite::ping).await,
            Db::Postgres(db) => db.ping().await,
        }
    }

    /// Readiness: the database answers and every migration this program
    /// knows is applied.
    pub async fn ready(&self) -> ServerResult<()> {
        match self {
            Db::Sqlite(db) => db.run(sqlite::ready).await,
            Db::Postgres(db) => db.ready().await,
        }
    }

    /// Stores a new game with its first plies (and its player's row, if new).
    pub async fn insert_game(&self, new: &Played) -> ServerResult<()> {
        self.timed("insert_game", async {
            match self {
                Db::Sqlite(db) => {
                    let new = new.clone();
                    db.run(move |c| sqlite::insert_game(c, &new)).await
                }
                Db::Postgres(db) => db.insert_game(new).await,
            }
        })
        .await
    }

    pub async fn load_game(&self, id: &str) -> ServerResult<Option<GameRecord>> {
        self.timed("load_game", async {
            match self {
                Db::Sqlite(db) => {
                    let id = id.to_string();
                    db.run(move |c| sqlite::load_game(c, &id)).await
                }
                Db::Postgres(db) => db.load_game(id).await,
            }
        })
        .await
    }

    /// The player's latest game of this kind (of `day`, if given) against
    /// today's computer: the one a page resumes.
    pub async fn latest_game(
        &self,
        player_id: &str,
        kind: GameKind,
        day: Option<&str>,
    ) -> ServerResult<Option<GameRecord>> {
        self.timed("latest_game", async {
            match self {
                Db::Sqlite(db) => {
                    let (player, day) = (player_id.to_string(), day.map(str::to_string));
                    db.run(move |c| sqlite::latest_game(c, &player, kind, day.as_deref())).await
                }
                Db::Postgres(db) => db.latest_game(player_id, kind, day).await,
            }
        })
        .await
    }

    /// Stores the plies a request added, unless the game changed since it
    /// was read (then `Conflict`): a ply is accepted once, whichever server
    /// receives it.
    pub async fn save_played(&self, played: &Played) -> ServerResult<()> {
        self.timed("save_played", async {
            match self {
                Db::Sqlite(db) => {
                    let played = played.clone();
                    db.run(move |c| sqlite::save_played(c, &played)).await
                }
                Db::Postgres(db) => db.save_played(played).await,
            }
        })
        .await
    }

    /// Cuts a game back (electronic board), unless it changed meanwhile.
    pub async fn save_take_back(&self, taken: &TakenBack) -> ServerResult<()> {
        self.timed("save_take_back", async {
            match self {
                Db::Sqlite(db) => {
                    let taken = taken.clone();
                    db.run(move |c| sqlite::save_take_back(c, &taken)).await
                }
                Db::Postgres(db) => db.save_take_back(taken).await,
            }
        })
        .await
    }

    /// Ends a game as its players decided, unless it changed meanwhile.
    pub async fn save_ending(&self, ended: &Ended) -> ServerResult<()> {
        self.timed("save_ending", async {
            match self {
                Db::Sqlite(db) => {
                    let ended = ended.clone();
                    db.run(move |c| sqlite::save_ending(c, &ended)).await
                }
                Db::Postgres(db) => db.save_ending(ended).await,
            }
        })
        .await
    }

    pub async fn pseudonym_of(&self, player_id: &str) -> ServerResult<Option<String>> {
        self.timed("pseudonym_of", async {
            match self {
                Db::Sqlite(db) => {
                    let player = player_id.to_string();
                    db.run(move |c| sqlite::pseudonym_of(c, &player)).await
                }
                Db::Postgres(db) => db.pseudonym_of(player_id).await,
            }
        })
        .await
    }

    /// Sets a checked pseudonym; `BadPseudonym` when another player has it
    /// in any case (`key` is its lower-case form).
    pub async fn set_pseudonym(&self, player_id: &str, name: &str, key: &str, now_ms: i64) -> ServerResult<()> {
        self.timed("set_pseudonym", async {
            match self {
                Db::Sqlite(db) => {
                    let (player, name, key) = (player_id.to_string(), name.to_string(), key.to_string());
                    db.run(move |c| sqlite::set_pseudonym(c, &player, &name, &key, now_ms)).await
                }
                Db::Postgres(db) => db.set_pseudonym(player_id, name, key, now_ms).await,
            }
        })
        .await
    }

    /// Stores a verified win once, and as the player's best on its board if
    /// it beats the one there (an equal score keeps the older).
    pub async fn record_score(&self, win: &VerifiedWin, now_ms: i64) -> ServerResult<()> {
        self.timed("record_score", async {
            match self {
                Db::Sqlite(db) => {
                    let win = win.clone();
                    db.run(move |c| sqlite::record_score(c, &win, now_ms)).await
                }
                Db::Postgres(db) => db.record_score(win, now_ms).await,
            }
        })
        .await
    }

    /// Finished games of this computer without a score: (id, outcome JSON).
    pub async fn finished_unscored(&self) -> ServerResult<Vec<(String, String)>> {
        self.timed("finished_unscored", async {
            match self {
                Db::Sqlite(db) => db.run(|c| sqlite::finished_unscored(c)).await,
                Db::Postgres(db) => db.finished_unscored().await,
            }
        })
        .await
    }

    pub async fn score_of_game(&self, game_id: &str) -> ServerResult<Option<StoredScore>> {
        self.timed("score_of_game", async {
            match self {
                Db::Sqlite(db) => {
                    let id = game_id.to_string();
                    db.run(move |c| sqlite::score_of_game(c, &id)).await
                }
                Db::Postgres(db) => db.score_of_game(game_id).await,
            }
        })
        .await
    }

    /// The top of a board, best first; equal scores: the older first.
    pub async fn leaderboard(&self, board: &str, limit: usize) -> ServerResult<Vec<ScoreLine>> {
        self.timed("leaderboard", async {
            match self {
                Db::Sqlite(db) => {
                    let board = board.to_string();
                    db.run(move |c| sqlite::leaderboard(c, &board, limit)).await
                }
                Db::Postgres(db) => db.leaderboard(board, limit).await,
            }
        })
        .await
    }

    /// A player's best row on a board, with its rank.
    pub async fn rank_of(&self, board: &str, player_id: &str) -> ServerResult<Option<ScoreLine>> {
        self.timed("rank_of", async {
            match self {
                Db::Sqlite(db) => {
                    let (board, player) = (board.to_string(), player_id.to_string());
                    db.run(move |c| sqlite::rank_of(c, &board, &player)).await
                }
                Db::Postgres(db) => db.rank_of(board, player_id).await,
            }
        })
        .await
    }
}
