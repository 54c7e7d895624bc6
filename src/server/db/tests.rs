//! The storage suite, run against both engines: SQLite in memory, and a
//! database of its own on a throw-away PostgreSQL server started by the
//! first test that needs it.

use super::{AnalysisClaim, AnalysisKey, Db, DbLocation};
use crate::engine::bot::{Level, BOT_VERSION};
use crate::engine::{Color, Outcome, Rules, WinReason};
use crate::ops::throwaway::ThrowawayPostgres;
use crate::protocol::{AppError, GameKind, GameSetup};
use crate::server::error::ServerError;
use crate::server::games::{self, GameRecord, NewGame, PlayerMove};
use crate::server::players;
use crate::server::scores::{self, VerifiedWin};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

static SERVER: OnceLock<ThrowawayPostgres> = OnceLock::new();
static DATABASES: AtomicUsize = AtomicUsize::new(0);

fn sqlite() -> Db {
    Db::open_in_memory().unwrap()
}

/// A new, migrated database on the shared throw-away server.
async fn postgres() -> Db {
    let server = SERVER.get_or_init(|| ThrowawayPostgres::start(None, false).expect("a throw-away PostgreSQL"));
    let name = format!("suite_{}", DATABASES.fetch_add(1, Ordering::Relaxed));
    let (client, connection) = tokio_postgres::connect(&server.url("postgres"), tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    client.batch_execute(&format!("CREATE DATABASE {name}")).await.unwrap();
    Db::open(&DbLocation::Postgres(server.url(&name))).await.unwrap()
}

/// Each test of the suite, once per engine.
macro_rules! on_both_engines {
    ($($test:ident),* $(,)?) => {
        mod on_sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $test() {
                    super::$test(super::sqlite()).await
                }
            )*
        }
        mod on_postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $test() {
                    super::$test(super::postgres().await).await
                }
            )*
        }
    };
}

on_both_engines!(
    a_game_is_stored_extended_and_a_stale_write_refused,
    of_many_simultaneous_writes_of_one_ply_exactly_one_is_accepted,
    a_take_back_and_an_ending_apply_once,
    scores_keep_the_best_per_player_the_older_on_ties_and_count_a_game_once,
    the_sweep_finds_only_unscored_wins_against_this_computer,
    pseudonyms_are_unique_regardless_of_case_even_when_taken_at_once,
    a_migrated_database_is_ready,
    an_analysis_is_claimed_by_one_run_of_many_and_stored_once,
);

fn is_conflict(result: Result<(), ServerError>) -> bool {
    matches!(result, Err(ServerError::Refused(AppError::Conflict)))
}

async fn new_game(db: &Db, player: &str, kind: GameKind, setup: GameSetup, fen: Option<&str>) -> GameRecord {
    let new = NewGame { player_id: player, kind, day: "2026-11-30", setup, seed: 42, start_fen: fen, now_ms: 1_000 };
    games::create(db, new).await.unwrap()
}

fn debutant() -> GameSetup {
    GameSetup::new(Rules::INTERNATIONAL, Level::Debutant, Color::White)
}

/// The player's move (the first legal one) and the computer's answer, as
/// a request computes them.
fn next_move(record: &GameRecord, player: &str, now_ms: i64) -> games::Played {
    let mv = record.replay().unwrap().choices()[0].long.clone();
    let sent = PlayerMove { seen_plies: record.moves.len(), text: &mv, think_ms: 2_000 };
    games::apply_player_move(record, player, sent, now_ms).unwrap()
}

/// A request for the first move of `game`, made from a page that shows its
/// start: read, checked, computed, written, as a server does.
async fn first_move_request(db: Db, id: String, now_ms: i64) -> Result<(), ServerError> {
    let read = db.load_game(&id).await?.ok_or(AppError::GameNotFound)?;
    let sent = PlayerMove { seen_plies: 0, text: "32-28", think_ms: 2_000 };
    let played = games::apply_player_move(&read, "alice", sent, now_ms)?;
    db.save_played(&played).await
}

async fn a_game_is_stored_extended_and_a_stale_write_refused(db: Db) {
    let game = new_game(&db, "alice", GameKind::Free, debutant(), None).await;
    assert_eq!(db.load_game(&game.id).await.unwrap().as_ref(), Some(&game));
    assert_eq!(db.load_game("nope").await.unwrap(), None);

    let played = next_move(&game, "alice", 5_000);
    db.save_played(&played).await.unwrap();
    let stored = db.load_game(&game.id).await.unwrap().unwrap();
    assert_eq!(stored, played.record, "what was computed is what is read back");
    assert_eq!(stored.moves.len(), 2, "the move and the computer's answer");
    assert!(is_conflict(db.save_played(&played).await), "the same write twice");

    // The latest game of the kind, and only of that kind and day.
    let later = GameRecord { created_at: 2_000, ..new_game(&db, "alice", GameKind::Free, debutant(), None).await };
    let latest = db.latest_game("alice", GameKind::Free, None).await.unwrap().unwrap();
    assert_eq!(latest.id, later.id);
    assert_eq!(db.latest_game("alice", GameKind::Daily, None).await.unwrap(), None);
    assert_eq!(db.latest_game("alice", GameKind::Free, Some("2026-11-29")).await.unwrap(), None);
    assert_eq!(db.latest_game("bob", GameKind::Free, None).await.unwrap(), None);
}

async fn of_many_simultaneous_writes_of_one_ply_exactly_one_is_accepted(db: Db) {
    let game = new_game(&db, "alice", GameKind::Free, debutant(), None).await;
    let writers: Vec<_> =
        (0..40).map(|i| tokio::spawn(first_move_request(db.clone(), game.id.clone(), 5_000 + i))).collect();
    let mut accepted = 0;
    for writer in writers {
        match writer.await.unwrap() {
            Ok(()) => accepted += 1,
            refused => assert!(matches!(refused, Err(ServerError::Refused(AppError::Conflict))), "{refused:?}"),
        }
    }
    assert_eq!(accepted, 1);
    let stored = db.load_game(&game.id).await.unwrap().unwrap();
    assert_eq!((stored.moves.len(), stored.revision), (2, 1));
}

async fn a_take_back_and_an_ending_apply_once(db: Db) {
    let setup = GameSetup::new(Rules::INTERNATIONAL, Level::LADDER[0], Color::White);
    let game = new_game(&db, "alice", GameKind::Electronic, setup, None).await;
    let played = next_move(&game, "alice", 5_000);
    db.save_played(&played).await.unwrap();
    let taken = games::take_back(&played.record, "alice", 2, 0).unwrap();
    db.save_take_back(&taken).await.unwrap();
    assert!(is_conflict(db.save_take_back(&taken).await));
    let stored = db.load_game(&game.id).await.unwrap().unwrap();
    assert_eq!(stored, taken.record);
    assert!(stored.moves.is_empty());
    assert!(is_conflict(db.save_played(&played).await), "a write read before the take-back");

    let ended = games::resign(&stored, "alice", 9_000).unwrap();
    db.save_ending(&ended).await.unwrap();
    assert!(is_conflict(db.save_ending(&ended).await));
    let stored = db.load_game(&game.id).await.unwrap().unwrap();
    assert_eq!(stored.outcome, Some(Outcome::Win { winner: Color::Black, reason: WinReason::Resignation }));
}

async fn score(db: &Db, game: &str, player: &str, board: &str, score: u64, at: i64) {
    let win = VerifiedWin {
        game_id: game.into(),
        player_id: player.into(),
        board: board.into(),
        score,
        pieces: 5,
        seconds: 100,
    };
    db.record_score(&win, at).await.unwrap();
}

async fn scores_keep_the_best_per_player_the_older_on_ties_and_count_a_game_once(db: Db) {
    let mut ids = Vec::new();
    for player in ["alice", "bob", "carol", "alice", "dave", "alice"] {
        ids.push(new_game(&db, player, GameKind::Daily, GameSetup::daily(), None).await.id);
    }
    let board = "jour:2026-11-30";
    score(&db, &ids[0], "alice", board, 4000, 10).await;
    score(&db, &ids[1], "bob", board, 4500, 20).await;
    score(&db, &ids[2], "carol", board, 4000, 5).await;
    score(&db, &ids[3], "alice", board, 3000, 30).await; // worse: alice keeps 4000
    score(&db, &ids[0], "alice", board, 9000, 40).await; // the same game again: ignored
    score(&db, &ids[4], "dave", "jour:2026-11-29", 9000, 1).await; // another day
    let top = db.leaderboard(board, 10).await.unwrap();
    let order: Vec<(&str, u64, u64)> = top.iter().map(|l| (l.player_id.as_str(), l.score, l.rank)).collect();
    assert_eq!(order, vec![("bob", 4500, 1), ("carol", 4000, 2), ("alice", 4000, 3)]);
    assert_eq!(db.rank_of(board, "alice").await.unwrap().unwrap().rank, 3);
    assert_eq!(db.rank_of(board, "dave").await.unwrap(), None);
    assert_eq!(db.leaderboard(board, 2).await.unwrap().len(), 2);
    score(&db, &ids[5], "alice", board, 4600, 50).await; // better: alice is first
    assert_eq!(db.rank_of(board, "alice").await.unwrap().unwrap().rank, 1);
    let view = scores::score_of_game(&db, &ids[0]).await.unwrap().unwrap();
    assert_eq!((view.score, view.best, view.rank), (4000, 4600, Some(1)), "counted once, at its first value");
    assert_eq!(scores::score_of_game(&db, &ids[3]).await.unwrap().unwrap().score, 3000);
}

async fn the_sweep_finds_only_unscored_wins_against_this_computer(db: Db) {
    let white_wins = Some(Outcome::Win { winner: Color::White, reason: WinReason::NoPieces });
    let black_wins = Some(Outcome::Win { winner: Color::Black, reason: WinReason::NoPieces });
    let mut ids = Vec::new();
    for (outcome, version) in [(white_wins, BOT_VERSION), (white_wins, BOT_VERSION - 1), (black_wins, BOT_VERSION)] {
        let new = NewGame {
            player_id: "p",
            kind: GameKind::Daily,
            day: "2026-11-30",
            setup: GameSetup::daily(),
            seed: 0,
            start_fen: None,
            now_ms: 0,
        };
        let mut played = games::new_record(new).unwrap();
        played.record.outcome = outcome;
        played.record.bot_version = version;
        db.insert_game(&played).await.unwrap();
        ids.push(played.record.id);
    }
    assert_eq!(scores::unscored_wins(&db).await.unwrap(), vec![ids[0].clone()]);
    score(&db, &ids[0], "p", "jour:2026-11-30", 3000, 1).await;
    assert!(scores::unscored_wins(&db).await.unwrap().is_empty());
}

async fn pseudonyms_are_unique_regardless_of_case_even_when_taken_at_once(db: Db) {
    let set = |player: &'static str, name: &'static str| {
        let db = db.clone();
        async move { players::set_pseudonym(&db, player, name, 0).await.map_err(AppError::from) }
    };
    assert_eq!(set("a", "Amélie").await.unwrap(), "Amélie");
    assert!(matches!(set("b", "AMÉLIE").await, Err(AppError::BadPseudonym(_))));
    assert!(matches!(set("b", "<b>x</b>").await, Err(AppError::BadPseudonym(_))));
    assert_eq!(set("a", "amélie").await.unwrap(), "amélie", "one may change one's own case");
    assert_eq!(db.pseudonym_of("b").await.unwrap(), None, "a refused pseudonym stores no player");
    assert_eq!(db.pseudonym_of("a").await.unwrap().as_deref(), Some("amélie"));

    // Twenty players ask for one name at the same moment: one gets it.
    let claims: Vec<_> = (0..20)
        .map(|i| {
            let db = db.clone();
            tokio::spawn(async move { players::set_pseudonym(&db, &format!("player-{i}"), "Zoé du Nord", 0).await })
        })
        .collect();
    let mut granted = 0;
    for claim in claims {
        match claim.await.unwrap() {
            Ok(_) => granted += 1,
            Err(e) => assert!(matches!(AppError::from(e), AppError::BadPseudonym(_))),
        }
    }
    assert_eq!(granted, 1);
}

async fn a_migrated_database_is_ready(db: Db) {
    db.ping().await.unwrap();
    db.ready().await.unwrap();
}

/// Servers starting together on a new database: the migrations run once,
/// under the advisory lock, and every server starts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn servers_starting_together_migrate_once() {
    let db = postgres().await;
    let Db::Postgres(first) = &db else { unreachable!() };
    let server = SERVER.get().unwrap();
    let name = format!("together_{}", DATABASES.fetch_add(1, Ordering::Relaxed));
    let (client, connection) = tokio_postgres::connect(&server.url("postgres"), tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    client.batch_execute(&format!("CREATE DATABASE {name}")).await.unwrap();
    let url = server.url(&name);
    let starts: Vec<_> = (0..6)
        .map(|_| {
            let url = url.clone();
            tokio::spawn(async move { super::postgres::PgDb::open(&url).await.map(|_| ()) })
        })
        .collect();
    for start in starts {
        start.await.unwrap().unwrap();
    }
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    let rows: i64 = client.query_one("SELECT count(*) FROM schema_migrations", &[]).await.unwrap().get(0);
    assert_eq!(rows as usize, super::postgres::MIGRATIONS.len());
    assert_eq!(first.migrate().await.unwrap(), 0, "nothing left to apply");
}

/// Every `*.sql` file of `folder` is in `listed`, in order.
pub(super) fn assert_every_migration_listed(folder: &str, listed: &[(&str, &str)]) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sql"))
        .collect();
    files.sort();
    let listed: Vec<String> = listed.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(files, listed, "every {folder}/*.sql is listed, in order");
}

#[test]
fn every_postgres_migration_is_listed() {
    assert_every_migration_listed("migrations/postgres", super::postgres::MIGRATIONS);
}

async fn an_analysis_is_claimed_by_one_run_of_many_and_stored_once(db: Db) {
    let game = new_game(&db, "alice", GameKind::Free, debutant(), None).await;
    let key = AnalysisKey { game_id: game.id.clone(), version: "1-5-500000".into() };
    let claim = |run: usize, now_ms: i64| AnalysisClaim {
        key: key.clone(),
        run_id: format!("run-{run}"),
        total: 41,
        now_ms,
        stale_before_ms: now_ms - 60_000,
    };
    assert_eq!(db.load_analysis(&key).await.unwrap(), None);
    // Eight runs claim it at the same moment: one wins.
    let claims: Vec<AnalysisClaim> = (0..8).map(|run| claim(run, 100_000)).collect();
    let tasks: Vec<_> = claims
        .iter()
        .cloned()
        .map(|c| {
            let db = db.clone();
            tokio::spawn(async move { db.claim_analysis(&c).await.unwrap() })
        })
        .collect();
    let mut winners = Vec::new();
    for (run, task) in tasks.into_iter().enumerate() {
        if task.await.unwrap() {
            winners.push(run);
        }
    }
    assert_eq!(winners.len(), 1, "{winners:?}");
    let (winner, loser) = (format!("run-{}", winners[0]), format!("run-{}", (winners[0] + 1) % 8));

    // Only the winner writes.
    assert!(db.save_analysis_progress(&key, &winner, 10, 101_000).await.unwrap());
    assert!(!db.save_analysis_progress(&key, &loser, 20, 101_000).await.unwrap());
    let stored = db.load_analysis(&key).await.unwrap().unwrap();
    assert_eq!((stored.done, stored.total, stored.result, stored.updated_at), (10, 41, None, 101_000));
    // A live run keeps its claim; one silent for a minute loses it.
    assert!(!db.claim_analysis(&claim(9, 150_000)).await.unwrap());
    assert!(db.claim_analysis(&claim(9, 170_000)).await.unwrap());
    assert!(!db.save_analysis_progress(&key, &winner, 11, 170_001).await.unwrap(), "taken over");
    assert!(!db.finish_analysis(&key, &winner, "{}", 170_001).await.unwrap());
    assert!(db.finish_analysis(&key, "run-9", "{\"done\":1}", 171_000).await.unwrap());
    let stored = db.load_analysis(&key).await.unwrap().unwrap();
    assert_eq!((stored.done, stored.result.as_deref()), (41, Some("{\"done\":1}")));
    // Done: stored once, never claimed or written again.
    assert!(!db.claim_analysis(&claim(10, 10_000_000)).await.unwrap());
    assert!(!db.finish_analysis(&key, "run-9", "{}", 10_000_000).await.unwrap());
    // Another version is another analysis.
    let other =
        AnalysisClaim { key: AnalysisKey { version: "2-5-500000".into(), ..key.clone() }, ..claim(11, 200_000) };
    assert!(db.claim_analysis(&other).await.unwrap());
}
