//! What the server functions do, once decoded: each takes the database
//! and the current player and returns what the page shows.

use super::db::Db;
use super::games::{self, GameRecord, NewGame};
use super::{now_ms, players, scores, today_utc};
use crate::app::error::AppError;
use crate::app::game_state::{GameKind, GameView, ScoreLine};
use crate::engine::bot::{daily_seed, Level};
use crate::engine::Position;

/// The view of a game with its score (if won) and whether to ask for a
/// pseudonym.
fn full_view(conn: &rusqlite::Connection, record: &GameRecord) -> Result<GameView, AppError> {
    let mut view = record.view();
    view.score = scores::score_of_game(conn, &record.id)?;
    view.needs_pseudonym = view.score.is_some() && players::pseudonym_of(conn, &record.player_id)?.is_none();
    Ok(view)
}

fn spec<'a>(player: &'a str, kind: GameKind, level: Option<Level>, day: &'a str) -> NewGame<'a> {
    let (level, seed) = match kind {
        GameKind::Daily => (Level::Intermediaire, daily_seed(day)),
        GameKind::Free => (level.unwrap_or_default(), uuid::Uuid::new_v4().as_u64_pair().0),
    };
    NewGame { player_id: player, kind, day, level, seed, start: Position::start(), now_ms: now_ms() }
}

/// The player's current game of this kind, created if there is none. For
/// a free game, `level` (from the address) asks for that level.
pub async fn current_game(db: &Db, player: String, kind: GameKind, level: Option<Level>) -> Result<GameView, AppError> {
    let day = today_utc();
    db.run(move |c| {
        let day_filter = (kind == GameKind::Daily).then_some(day.as_str());
        match games::latest(c, &player, kind, day_filter)? {
            // A level asked for in the address starts a game at that level,
            // unless the latest game is already one.
            Some(game) if level.is_none_or(|l| l == game.level) => full_view(c, &game),
            _ => games::create(c, spec(&player, kind, level, &day)).map(|g| g.view()),
        }
    })
    .await
}

pub async fn new_game(db: &Db, player: String, kind: GameKind, level: Option<Level>) -> Result<GameView, AppError> {
    let day = today_utc();
    db.run(move |c| games::create(c, spec(&player, kind, level, &day)).map(|g| g.view())).await
}

/// Plays the player's move and the computer's answer; on a win, verifies
/// the whole game and records the score before answering.
pub async fn play_move(db: &Db, player: String, game_id: String, mv: String, think_ms: u64) -> Result<GameView, AppError> {
    if game_id.len() > 64 {
        return Err(AppError::BadRequest("identifiant de partie trop long".into()));
    }
    let record = db.run(move |c| games::load(c, &game_id)).await?.ok_or(AppError::GameNotFound)?;
    // The bot's search runs on the blocking pool, without the database lock.
    let played = tokio::task::spawn_blocking(move || games::apply_player_move(&record, &player, &mv, think_ms, now_ms()))
        .await
        .map_err(|_| AppError::Internal)??;
    let record = played.record.clone();
    db.run(move |c| games::save_played(c, &played)).await?;
    if record.outcome.is_some() {
        record_score(db, record.clone()).await?;
    }
    db.run(move |c| full_view(c, &record)).await
}

/// Verifies a finished game and stores its score if the player won.
/// Idempotent: the start-up sweep calls it again for wins left unscored.
pub async fn record_score(db: &Db, record: GameRecord) -> Result<(), AppError> {
    let verified = tokio::task::spawn_blocking(move || scores::verify_win(&record))
        .await
        .map_err(|_| AppError::Internal)??;
    if let Some(win) = verified {
        db.run(move |c| scores::record(c, &win, now_ms())).await?;
    }
    Ok(())
}

/// Scores the wins a crash left unscored.
pub async fn sweep_unscored(db: &Db) -> Result<usize, AppError> {
    let ids = db.run(|c| scores::unscored_wins(c)).await?;
    let mut done = 0;
    for id in ids {
        let record = db.run(move |c| games::load(c, &id)).await?;
        if let Some(record) = record {
            record_score(db, record).await?;
            done += 1;
        }
    }
    Ok(done)
}

pub async fn resign(db: &Db, player: String, game_id: String) -> Result<GameView, AppError> {
    db.run(move |c| games::resign(c, &game_id, &player, now_ms()).and_then(|g| full_view(c, &g))).await
}

pub async fn set_pseudonym(db: &Db, player: String, name: String) -> Result<String, AppError> {
    db.run(move |c| players::set_pseudonym(c, &player, &name)).await
}

/// A leaderboard: its top rows and the player's own row (even outside
/// the top).
pub struct Board {
    pub top: Vec<ScoreLine>,
    pub mine: Option<ScoreLine>,
}

pub async fn leaderboard(db: &Db, player: String, board: String) -> Result<Board, AppError> {
    db.run(move |c| {
        let top = scores::leaderboard(c, &board, scores::TOP)?;
        let mine = scores::rank_of(c, &board, &player)?;
        Ok(Board { top, mine })
    })
    .await
}

/// A game for the replay page: finished games are public (they prove a
/// score); a game in progress only to its player.
pub async fn replay(db: &Db, player: String, game_id: String) -> Result<GameView, AppError> {
    if game_id.len() > 64 {
        return Err(AppError::GameNotFound);
    }
    db.run(move |c| {
        let record = games::load(c, &game_id)?.ok_or(AppError::GameNotFound)?;
        if record.outcome.is_none() && record.player_id != player {
            return Err(AppError::NotYourGame);
        }
        let mut view = full_view(c, &record)?;
        view.needs_pseudonym = false;
        Ok(view)
    })
    .await
}
