//! Games as the server stores them: creating one in the database, and
//! the row both storage engines read. The checked ways to extend a game
//! live in [`crate::record`], shared with the browser's offline play; they
//! are named here too, for the storage code. The server trusts nothing the
//! browser sends: each request replays the stored moves, checks the new
//! one, and computes the computer's reply itself.

use super::db::Db;
use super::error::{ServerError, ServerResult};
use crate::engine::Color;
use crate::engine::Outcome;
use crate::protocol::{GameKind, GameSetup};
pub use crate::record::{
    agree_draw, apply_player_move, clamp_think_ms, hint, new_record, new_record_with_move, play_on, resign, set_level,
    switch_sides, take_back, Ended, GameRecord, NewGame, Played, PlayerMove, TakenBack, MIN_THINK_MS,
};

/// Creates and stores a game.
pub async fn create(db: &Db, new: NewGame<'_>) -> ServerResult<GameRecord> {
    let new = new_record(new)?;
    db.insert_game(&new).await?;
    Ok(new.record)
}

/// How a side is stored.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A `games` row as both engines read it.
pub struct GameRow {
    pub id: String,
    pub player_id: String,
    pub kind: String,
    pub day: String,
    pub level: String,
    pub seed: i64,
    pub start_fen: String,
    pub outcome: Option<String>,
    pub active_ms: i64,
    pub last_answer_ms: i64,
    pub created_at: i64,
    pub bot_version: u32,
    pub rules: String,
    pub player_color: String,
    pub played_on: bool,
    pub revision: i64,
}

impl GameRow {
    /// The record, with its moves in ply order; a value this program did
    /// not write is `Unreadable`.
    pub fn into_record(self, moves: Vec<String>) -> ServerResult<GameRecord> {
        let player = match self.player_color.as_str() {
            "white" => Color::White,
            "black" => Color::Black,
            other => return Err(ServerError::Unreadable(format!("player colour {other:?}"))),
        };
        let kind = self.kind;
        let level = self.level;
        Ok(GameRecord {
            kind: GameKind::from_name(&kind).ok_or_else(|| ServerError::Unreadable(format!("game kind {kind:?}")))?,
            setup: GameSetup {
                rules: self
                    .rules
                    .parse()
                    .map_err(|e| ServerError::Unreadable(format!("rules {:?}: {e}", self.rules)))?,
                level: level.parse().map_err(|_| ServerError::Unreadable(format!("level {level:?}")))?,
                player,
            },
            outcome: self
                .outcome
                .map(|o| serde_json::from_str(&o).map_err(|e| ServerError::Unreadable(format!("outcome {o:?}: {e}"))))
                .transpose()?,
            seed: self.seed as u64,
            bot_version: self.bot_version,
            active_ms: self.active_ms as u64,
            id: self.id,
            player_id: self.player_id,
            day: self.day,
            start_fen: self.start_fen,
            moves,
            last_answer_ms: self.last_answer_ms,
            created_at: self.created_at,
            played_on: self.played_on,
            revision: self.revision,
        })
    }
}

/// How an outcome is stored: the engine's type as JSON.
pub fn outcome_json(outcome: Outcome) -> String {
    serde_json::to_string(&outcome).expect("an outcome serialises")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bot::{self, Level};
    use crate::engine::Rules;
    use crate::engine::{DrawReason, WinReason};
    use crate::protocol::AppError;
    use crate::server::db::sqlite::SqliteDb;
    use crate::server::db::Db;

    /// The storage calls these tests make, on an in-memory SQLite database
    /// (the storage suite runs both engines), waited for in place.
    struct TestStore {
        sqlite: SqliteDb,
        db: Db,
        runtime: tokio::runtime::Runtime,
    }

    impl TestStore {
        fn new() -> TestStore {
            TestStore::on(SqliteDb::open_in_memory().unwrap())
        }

        fn on(sqlite: SqliteDb) -> TestStore {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            TestStore { db: Db::Sqlite(sqlite.clone()), sqlite, runtime }
        }

        fn run_blocking<T>(&self, work: impl FnOnce(&mut rusqlite::Connection) -> T) -> T {
            self.sqlite.run_blocking(work)
        }

        fn load(&self, id: &str) -> ServerResult<Option<GameRecord>> {
            self.runtime.block_on(self.db.load_game(id))
        }

        fn latest(&self, player: &str, kind: GameKind, day: Option<&str>) -> ServerResult<Option<GameRecord>> {
            self.runtime.block_on(self.db.latest_game(player, kind, day))
        }

        fn insert(&self, played: &Played) -> ServerResult<()> {
            self.runtime.block_on(self.db.insert_game(played))
        }

        fn save_played(&self, played: &Played) -> ServerResult<()> {
            self.runtime.block_on(self.db.save_played(played))
        }

        fn existing(&self, id: &str) -> ServerResult<GameRecord> {
            Ok(self.load(id)?.ok_or(AppError::GameNotFound)?)
        }

        fn take_back(&self, id: &str, player: &str, seen: usize, to: usize) -> ServerResult<GameRecord> {
            let taken = take_back(&self.existing(id)?, player, seen, to)?;
            self.runtime.block_on(self.db.save_take_back(&taken))?;
            Ok(taken.record)
        }

        fn resign(&self, id: &str, player: &str, now_ms: i64) -> ServerResult<GameRecord> {
            let ended = resign(&self.existing(id)?, player, now_ms)?;
            self.runtime.block_on(self.db.save_ending(&ended))?;
            Ok(ended.record)
        }

        fn agree_draw(&self, id: &str, player: &str, seen: usize, now_ms: i64) -> ServerResult<GameRecord> {
            let ended = agree_draw(&self.existing(id)?, player, seen, now_ms)?;
            self.runtime.block_on(self.db.save_ending(&ended))?;
            Ok(ended.record)
        }
    }

    fn new_game(db: &TestStore, start_fen: Option<&str>) -> GameRecord {
        new_game_with(db, GameKind::Free, GameSetup::new(Rules::DAILY, Level::Debutant, Color::White), start_fen)
    }

    fn new_game_with(db: &TestStore, kind: GameKind, setup: GameSetup, start_fen: Option<&str>) -> GameRecord {
        db.run_blocking(|c| c.execute("INSERT OR IGNORE INTO players (id, created_at) VALUES ('p2', 0)", [])).unwrap();
        let new = NewGame { player_id: "p1", kind, day: "2026-11-29", setup, seed: 42, start_fen, now_ms: 1_000 };
        db.runtime.block_on(create(&db.db, new)).unwrap()
    }

    fn play(db: &TestStore, id: &str, player: &str, text: &str, now_ms: i64) -> Result<GameRecord, AppError> {
        let moved = || -> ServerResult<GameRecord> {
            let record = db.existing(id)?;
            let played = apply_player_move(
                &record,
                player,
                PlayerMove { seen_plies: record.moves.len(), text, think_ms: 5_000 },
                now_ms,
            )?;
            db.save_played(&played)?;
            Ok(played.record)
        };
        moved().map_err(AppError::from)
    }

    #[test]
    fn a_game_against_an_earlier_computer_is_neither_resumed_nor_continued() {
        let db = TestStore::new();
        let game = new_game(&db, None);
        let latest_free = |db: &TestStore| db.latest("p1", GameKind::Free, None).unwrap().map(|g| g.id);
        assert_eq!(latest_free(&db), Some(game.id.clone()));
        db.run_blocking(|c| c.execute("UPDATE games SET bot_version = ?1", [bot::BOT_VERSION - 1])).unwrap();
        assert_eq!(play(&db, &game.id, "p1", "32-28", 3_000), Err(AppError::ComputerChanged));
        let stored = db.load(&game.id).unwrap().unwrap();
        assert_eq!((stored.moves.len(), stored.bot_version), (0, bot::BOT_VERSION - 1), "nothing changed");
        assert_eq!(latest_free(&db), None, "the page starts a new game instead");
        stored.replay().unwrap();
    }

    #[test]
    fn a_legal_move_is_answered_and_stored() {
        let db = TestStore::new();
        let game = new_game(&db, None);
        let after = play(&db, &game.id, "p1", "32-28", 3_000).unwrap();
        assert_eq!(after.moves.len(), 2, "the computer answered");
        assert_eq!(after.active_ms, 2_000, "clamped to the 2 s the server saw");
        let stored = db.load(&game.id).unwrap().unwrap();
        assert_eq!(stored, after);
        stored.replay_verified(2).unwrap();
    }

    #[test]
    fn bad_requests_change_nothing() {
        let db = TestStore::new();
        let game = new_game(&db, None);
        assert!(matches!(play(&db, &game.id, "p1", "32-27x", 2_000), Err(AppError::IllegalMove(_))));
        assert!(matches!(play(&db, &game.id, "p1", "19-23", 2_000), Err(AppError::IllegalMove(_))));
        assert_eq!(play(&db, &game.id, "p2", "32-28", 2_000), Err(AppError::NotYourGame));
        assert_eq!(play(&db, "nope", "p1", "32-28", 2_000), Err(AppError::GameNotFound));
        assert!(matches!(play(&db, &game.id, "p1", &"1".repeat(500), 2_000), Err(AppError::BadRequest(_))));
        let stored = db.load(&game.id).unwrap().unwrap();
        assert!(stored.moves.is_empty());
    }

    #[test]
    fn a_finished_game_takes_no_move() {
        let db = TestStore::new();
        // White takes the last black piece.
        let game = new_game(&db, Some("W:W28,40:B22"));
        let after = play(&db, &game.id, "p1", "28x17{22}", 2_000).unwrap();
        assert!(matches!(after.outcome, Some(Outcome::Win { winner: Color::White, .. })));
        assert_eq!(play(&db, &game.id, "p1", "40-34", 3_000), Err(AppError::GameOver));
        assert_eq!(db.resign(&game.id, "p1", 4_000).map_err(AppError::from), Err(AppError::GameOver));
    }

    #[test]
    fn two_requests_on_the_same_ply_cannot_fork_the_game() {
        let db = TestStore::new();
        let game = new_game(&db, None);
        let first = apply_player_move(
            &game,
            "p1",
            PlayerMove { seen_plies: game.moves.len(), text: "32-28", think_ms: 1_000 },
            2_000,
        )
        .unwrap();
        let second = apply_player_move(
            &game,
            "p1",
            PlayerMove { seen_plies: game.moves.len(), text: "33-29", think_ms: 1_000 },
            2_000,
        )
        .unwrap();
        db.save_played(&first).unwrap();
        assert_eq!(db.save_played(&second).map_err(AppError::from), Err(AppError::Conflict));
        let stored = db.load(&game.id).unwrap().unwrap();
        assert_eq!(stored.moves[0], "32-28");
    }

    #[test]
    fn a_game_survives_reopening_the_database_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("dames.sqlite3");
        let id = {
            let db = TestStore::on(SqliteDb::open(&path).unwrap());
            let game = new_game(&db, None);
            play(&db, &game.id, "p1", "32-28", 2_000).unwrap();
            game.id
        };
        let db = TestStore::on(SqliteDb::open(&path).unwrap());
        let stored = db.load(&id).unwrap().unwrap();
        assert_eq!(stored.moves.len(), 2);
        let latest = db.latest("p1", GameKind::Free, None).unwrap().unwrap();
        assert_eq!(latest.id, id);
    }

    #[test]
    fn a_refused_first_move_stores_nothing_and_a_legal_one_stores_the_game_and_player() {
        let db = TestStore::new();
        let new = || NewGame {
            player_id: "newcomer",
            kind: GameKind::Daily,
            day: "2026-11-29",
            setup: GameSetup::daily(),
            seed: 9,
            start_fen: None,
            now_ms: 1_000,
        };
        let count = |db: &TestStore| -> (i64, i64) {
            db.run_blocking(|c| {
                let players = c.query_row("SELECT count(*) FROM players", [], |r| r.get(0)).unwrap();
                let games = c.query_row("SELECT count(*) FROM games", [], |r| r.get(0)).unwrap();
                (players, games)
            })
        };
        let illegal = PlayerMove { seen_plies: 0, text: "32-23", think_ms: 1_000 };
        let refused = new_record_with_move(new(), illegal).map_err(AppError::from);
        assert!(matches!(refused, Err(AppError::IllegalMove(_))));
        assert_eq!(count(&db), (0, 0));
        let legal = PlayerMove { seen_plies: 0, text: "32-28", think_ms: 1_000 };
        let played = new_record_with_move(new(), legal).unwrap();
        db.insert(&played).unwrap();
        let record = played.record;
        assert_eq!(count(&db), (1, 1));
        let stored = db.load(&record.id).unwrap().unwrap();
        assert_eq!(stored, record);
        assert_eq!(stored.moves.len(), 2, "the move and the computer's answer");
        assert_eq!(stored.active_ms, MIN_THINK_MS, "the clock starts with the first move");
        stored.replay_verified(1).unwrap();
    }

    #[test]
    fn out_of_turn_and_replayed_requests_are_refused() {
        let db = TestStore::new();
        let game = new_game(&db, None);
        // A record left with Black to move (as if the server had stopped
        // between the two plies): the player may not move.
        let mut waiting = game.clone();
        waiting.moves.push("32-28".into());
        assert_eq!(
            apply_player_move(
                &waiting,
                "p1",
                PlayerMove { seen_plies: waiting.moves.len(), text: "33-29", think_ms: 1_000 },
                2_000
            )
            .err()
            .map(AppError::from),
            Some(AppError::NotYourTurn)
        );
        // A move sent for another ply than the stored one (a stale tab).
        let stale = PlayerMove { seen_plies: 4, text: "32-28", think_ms: 1_000 };
        assert_eq!(apply_player_move(&game, "p1", stale, 2_000).err().map(AppError::from), Some(AppError::Conflict));
        // The same request twice: the second finds the ply taken.
        let played = apply_player_move(
            &game,
            "p1",
            PlayerMove { seen_plies: game.moves.len(), text: "32-28", think_ms: 1_000 },
            2_000,
        )
        .unwrap();
        db.save_played(&played).unwrap();
        assert_eq!(db.save_played(&played).map_err(AppError::from), Err(AppError::Conflict));
        let stored = db.load(&game.id).unwrap().unwrap();
        assert_eq!(stored.moves.len(), 2);
    }

    #[test]
    fn think_time_is_clamped() {
        assert_eq!(clamp_think_ms(10, 5_000), MIN_THINK_MS);
        assert_eq!(clamp_think_ms(4_000, 5_000), 4_000);
        assert_eq!(clamp_think_ms(60_000, 5_000), 5_000);
        assert_eq!(clamp_think_ms(60_000, -5), MIN_THINK_MS);
    }

    #[test]
    fn the_computer_moves_first_when_black_starts() {
        let db = TestStore::new();
        let game = new_game(&db, Some("B:W40,45:B10,15"));
        assert_eq!(game.moves.len(), 1);
        game.replay_verified(2).unwrap();
    }

    #[test]
    fn a_variant_is_played_under_its_own_rules_with_the_side_the_player_took() {
        let db = TestStore::new();
        // English draughts: Black opens; the player as White waits for the
        // computer's first move.
        let english = GameSetup::new(Rules::ENGLISH, Level::Debutant, Color::White);
        let game = new_game_with(&db, GameKind::Free, english, None);
        assert_eq!(game.moves.len(), 1, "the computer (Black) opened");
        assert_eq!(game.replay().unwrap().rules(), Rules::ENGLISH);
        let reply = game.replay().unwrap().choices()[0].long.clone();
        let after = play(&db, &game.id, "p1", &reply, 2_000).unwrap();
        assert_eq!(after.moves.len(), 3);
        after.replay_verified(1).unwrap();
        // Russian draughts as Black: White (the computer) opens, and the
        // player's moves are Black's.
        let russian = GameSetup::new(Rules::RUSSIAN, Level::Debutant, Color::Black);
        let game = new_game_with(&db, GameKind::Free, russian.clone(), None);
        let stored = db.load(&game.id).unwrap().unwrap();
        assert_eq!((stored.setup.clone(), stored.moves.len()), (russian, 1));
        let black_move = stored.replay().unwrap().choices()[0].long.clone();
        assert_eq!(play(&db, &game.id, "p1", &black_move, 2_000).unwrap().moves.len(), 3);
        assert!(matches!(play(&db, &game.id, "p1", "21-17", 3_000), Err(AppError::IllegalMove(_))));
        // A set-up the kind does not allow (a free game at a step of the
        // electronic board's ladder) is refused before anything is stored;
        // forged rules never get this far (they are refused when read).
        let forged = GameSetup { rules: Rules::ENGLISH, level: Level::LADDER[0], player: Color::White };
        let new = NewGame {
            player_id: "p1",
            kind: GameKind::Free,
            day: "2026-11-29",
            setup: forged,
            seed: 1,
            start_fen: None,
            now_ms: 1,
        };
        assert!(matches!(new_record(new).map_err(AppError::from), Err(AppError::BadRequest(_))));
    }

    #[test]
    fn two_players_play_both_sides_then_draw_by_agreement_or_resign() {
        let db = TestStore::new();
        let setup = GameSetup::new(Rules::ENGLISH, Level::Fort, Color::Black);
        let game = new_game_with(&db, GameKind::TwoPlayers, setup, None);
        assert_eq!((game.moves.len(), game.setup.player), (0, Color::White), "no computer, no side");
        play(&db, &game.id, "p1", "11-15", 2_000).unwrap();
        let after = play(&db, &game.id, "p1", "23-19", 3_000).unwrap();
        assert_eq!(after.moves, ["11-15", "23-19"], "each request plays one move, no reply");
        after.replay_verified(1).unwrap();
        let draw = |plies| db.agree_draw(&game.id, "p1", plies, 4_000).map_err(AppError::from);
        assert_eq!(draw(1).err(), Some(AppError::Conflict), "an offer on an older position");
        assert_eq!(db.agree_draw(&game.id, "p2", 2, 4_000).map_err(AppError::from).err(), Some(AppError::NotYourGame));
        let drawn = draw(2).unwrap();
        assert_eq!(drawn.outcome, Some(Outcome::Draw(DrawReason::Agreement)));
        let stored = db.load(&game.id).unwrap().unwrap();
        assert_eq!(stored.replay().unwrap().outcome(), Some(Outcome::Draw(DrawReason::Agreement)));
        assert_eq!(play(&db, &game.id, "p1", "15x24{19}", 5_000), Err(AppError::GameOver));

        // A two-player game outlives a new computer: there is none in it.
        let game = new_game_with(&db, GameKind::TwoPlayers, GameSetup::default_for(GameKind::TwoPlayers), None);
        db.run_blocking(|c| c.execute("UPDATE games SET bot_version = ?1", [bot::BOT_VERSION - 1])).unwrap();
        assert_eq!(play(&db, &game.id, "p1", "32-28", 2_000).unwrap().moves.len(), 1);
        let resumed = db.latest("p1", GameKind::TwoPlayers, None).unwrap();
        assert_eq!(resumed.map(|g| g.id), Some(game.id));

        // Resigning gives the game to the side not to move.
        let game = new_game_with(&db, GameKind::TwoPlayers, GameSetup::default_for(GameKind::TwoPlayers), None);
        play(&db, &game.id, "p1", "32-28", 2_000).unwrap();
        let resigned = db.resign(&game.id, "p1", 3_000).unwrap();
        assert_eq!(resigned.outcome, Some(Outcome::Win { winner: Color::White, reason: WinReason::Resignation }));
        // A draw cannot be agreed with the computer.
        let against = new_game(&db, None);
        let refused = db.agree_draw(&against.id, "p1", 0, 2_000).map_err(AppError::from);
        assert!(matches!(refused, Err(AppError::BadRequest(_))));
    }

    fn electronic(db: &TestStore, fen: Option<&str>, player: Color) -> GameRecord {
        let setup = GameSetup::new(Rules::INTERNATIONAL, Level::LADDER[0], player);
        new_game_with(db, GameKind::Electronic, setup, fen)
    }

    fn save(db: &TestStore, played: crate::record::RecordResult<Played>) -> Result<GameRecord, AppError> {
        let played = played.map_err(AppError::from)?;
        db.save_played(&played).map_err(AppError::from)?;
        Ok(db.load(&played.record.id).unwrap().unwrap())
    }

    #[test]
    fn the_electronic_board_switches_sides_and_takes_back() {
        let db = TestStore::new();
        let game = electronic(&db, None, Color::White);
        let game = play(&db, &game.id, "p1", "32-28", 2_000).unwrap();
        assert_eq!(game.moves.len(), 2);
        // The computer takes over White (to move) and plays it; the player
        // has Black.
        let switched = save(&db, switch_sides(&game, "p1", 2, 3_000)).unwrap();
        assert_eq!((switched.setup.player, switched.moves.len()), (Color::Black, 3));
        let back = save(&db, switch_sides(&switched, "p1", 3, 4_000)).unwrap();
        assert_eq!((back.setup.player, back.moves.len()), (Color::White, 4));
        assert_eq!(save(&db, switch_sides(&back, "p1", 3, 4_000)).err(), Some(AppError::Conflict), "a stale page");
        assert_eq!(save(&db, switch_sides(&back, "p2", 4, 4_000)).err(), Some(AppError::NotYourGame));

        // Back to the player's first move: the computer's replies go too.
        let undo = |to: usize, seen: usize| db.take_back(&back.id, "p1", seen, to).map_err(AppError::from);
        assert!(matches!(undo(1, 4), Err(AppError::BadRequest(_))), "ply 1 leaves the computer to move");
        assert_eq!(undo(0, 3).err(), Some(AppError::Conflict));
        let undone = undo(0, 4).unwrap();
        assert!(undone.moves.is_empty());
        assert_eq!(db.load(&back.id).unwrap().unwrap(), undone);
        let again = play(&db, &back.id, "p1", "33-29", 5_000).unwrap();
        assert_eq!(again.moves[0], "33-29", "another line from there");

        // A write computed before a take-back cannot land after it, even
        // once the game is back at the same number of plies.
        let reply = again.replay().unwrap().choices()[0].long.clone();
        let stale =
            apply_player_move(&again, "p1", PlayerMove { seen_plies: 2, text: &reply, think_ms: 1 }, 6_000).unwrap();
        db.take_back(&back.id, "p1", 2, 0).unwrap();
        play(&db, &back.id, "p1", "33-29", 7_000).unwrap();
        assert_eq!(db.save_played(&stale).map_err(AppError::from), Err(AppError::Conflict));

        // A free game has none of this.
        let free = new_game(&db, None);
        assert!(matches!(save(&db, switch_sides(&free, "p1", 0, 1)), Err(AppError::BadRequest(_))));
        assert!(matches!(db.take_back(&free.id, "p1", 0, 0).map_err(AppError::from), Err(AppError::BadRequest(_))));
    }

    #[test]
    fn the_hint_is_what_bestmove_prints_and_a_set_up_position_is_checked_in_french() {
        let db = TestStore::new();
        let game = electronic(&db, Some("W:W28,40:B22,13"), Color::White);
        assert_eq!(hint(&game, "p1", 0).map_err(AppError::from).map(|m| m.text), Ok("28x17".to_string()));
        let refused = |fen: &str| {
            let setup = GameSetup::new(Rules::INTERNATIONAL, Level::LADDER[0], Color::White);
            let new = NewGame {
                player_id: "p1",
                kind: GameKind::Electronic,
                day: "d",
                setup,
                seed: 1,
                start_fen: Some(fen),
                now_ms: 1,
            };
            match new_record(new).map_err(AppError::from) {
                Err(AppError::BadRequest(why)) => why,
                other => panic!("{fen}: {other:?}"),
            }
        };
        assert!(refused("W:W6-26:B45").contains("21 pièces"), "{}", refused("W:W6-26:B45"));
        assert!(refused("W:W3:B30").contains("rangée de promotion"));
        assert!(refused("W:W60:B30").contains("n'est pas une case"));
        assert!(refused("W:W:B30").contains("déjà finie"));
        let forged = GameSetup::new(Rules::ENGLISH, Level::Fort, Color::White).for_kind(GameKind::Electronic);
        assert!(forged.is_err(), "the electronic board plays its ladder");
        let ladder = GameSetup::new(Rules::ENGLISH, Level::LADDER[7], Color::Black).for_kind(GameKind::Electronic);
        assert_eq!(ladder.unwrap().rules, Rules::ELECTRONIC, "and its rules");
    }

    #[test]
    fn after_the_endgame_draw_the_player_may_play_on() {
        let db = TestStore::new();
        let mut record = electronic(&db, Some("W:WK47:BK4"), Color::White);
        // Twenty plies in which nobody can capture nor repeat a position.
        let mut game = record.replay().unwrap();
        let mut seen = vec![game.position().to_fen()];
        while game.outcome().is_none() {
            let mv = game
                .choices()
                .into_iter()
                .find(|m| {
                    let mut next = game.clone();
                    next.play_long(&m.long).unwrap();
                    !m.is_capture()
                        && !seen.contains(&next.position().to_fen())
                        && next.position().choices().iter().all(|r| !r.is_capture())
                })
                .expect("a quiet move to a new position");
            game.play_long(&mv.long).unwrap();
            seen.push(game.position().to_fen());
            record.moves.push(mv.long);
        }
        assert_eq!(record.moves.len(), 20);
        assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::EndgameLimit)));
        record.outcome = game.outcome();
        let stored = Played {
            record: record.clone(),
            added: record.moves.iter().map(|m| (m.clone(), None)).collect(),
            expected_plies: 0,
            expected_outcome: None,
            expected_revision: 0,
        };
        db.run_blocking(|c| c.execute("DELETE FROM games WHERE id = ?1", [&record.id])).unwrap();
        db.insert(&stored).unwrap();
        assert_eq!(
            play(&db, &record.id, "p1", &game.choices().first().map(|m| m.long.clone()).unwrap_or_default(), 1),
            Err(AppError::GameOver)
        );
        let on = save(&db, play_on(&record, "p1", 20, 2_000)).unwrap();
        assert!(on.played_on && on.outcome.is_none());
        assert_eq!(on.view().replay().unwrap().outcome(), None, "the replay plays on too");
        assert!(
            matches!(save(&db, play_on(&on, "p1", 20, 3_000)), Err(AppError::BadRequest(_))),
            "no draw to play past"
        );
        let next = play(&db, &record.id, "p1", &on.replay().unwrap().choices()[0].long, 4_000).unwrap();
        assert_eq!(next.moves.len(), 22, "the computer answers again: {:?}", next.outcome);
        // Taking back past the moves played on keeps the choice to play on.
        let back = db.take_back(&record.id, "p1", 22, 20).map_err(AppError::from).unwrap();
        assert!(back.played_on && back.outcome.is_none());
        assert_eq!(
            play(&db, &record.id, "p1", &back.replay().unwrap().choices()[0].long, 5_000).unwrap().moves.len(),
            22
        );
        // Taking back to before the draw undoes the choice too.
        let before = db.take_back(&record.id, "p1", 22, 18).map_err(AppError::from).unwrap();
        assert!(!before.played_on);
    }
}
