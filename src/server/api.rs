//! What the server functions do, once decoded: each takes the request's
//! context (database, player, limits) and returns what the page shows.

use super::db::Db;
use super::games::{self, GameRecord, NewGame};
use super::limits::RateLimits;
use super::{now_ms, players, scores, today_utc};
use crate::app::error::AppError;
use crate::app::game_state::{GameKind, GameView, ScoreLine};
use crate::engine::bot::{daily_seed, Level};
use crate::engine::Position;
use leptos::prelude::use_context;
use std::net::IpAddr;

/// What every server function needs: the database, the player of the
/// request (from the cookie, or new), the limits and the client's address.
pub struct RequestContext {
    pub db: Db,
    pub player: String,
    pub limits: RateLimits,
    pub address: Option<IpAddr>,
}

impl RequestContext {
    pub async fn current() -> Result<RequestContext, AppError> {
        let db = use_context::<Db>().ok_or(AppError::Internal)?;
        let limits = use_context::<RateLimits>().ok_or(AppError::Internal)?;
        let player = players::current_player(&db).await?;
        let address = super::limits::client_address().await;
        Ok(RequestContext { db, player, limits, address })
    }

    /// Runs a search-heavy task on the blocking pool, once a search slot
    /// is free.
    async fn search<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Result<T, AppError> {
        let _slot = self.limits.searches.acquire().await.map_err(|_| AppError::Internal)?;
        tokio::task::spawn_blocking(work).await.map_err(|_| AppError::Internal)
    }
}

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
pub async fn current_game(ctx: &RequestContext, kind: GameKind, level: Option<Level>) -> Result<GameView, AppError> {
    let day = today_utc();
    let player = ctx.player.clone();
    let existing = ctx
        .db
        .run(move |c| {
            let day_filter = (kind == GameKind::Daily).then_some(day.as_str());
            match games::latest(c, &player, kind, day_filter)? {
                // A level asked for in the address starts a game at that
                // level, unless the latest game is already one.
                Some(game) if level.is_none_or(|l| l == game.level) => full_view(c, &game).map(Some),
                _ => Ok(None),
            }
        })
        .await?;
    match existing {
        Some(view) => Ok(view),
        None => new_game(ctx, kind, level).await,
    }
}

pub async fn new_game(ctx: &RequestContext, kind: GameKind, level: Option<Level>) -> Result<GameView, AppError> {
    ctx.limits.check_new_game(&ctx.player, ctx.address)?;
    let day = today_utc();
    let player = ctx.player.clone();
    ctx.db.run(move |c| games::create(c, spec(&player, kind, level, &day)).map(|g| g.view())).await
}

/// The player's own game, as stored (after a conflict, to catch up).
pub async fn own_game(ctx: &RequestContext, game_id: String) -> Result<GameView, AppError> {
    let player = ctx.player.clone();
    ctx.db
        .run(move |c| {
            let record = games::load(c, &game_id)?.ok_or(AppError::GameNotFound)?;
            if record.player_id != player {
                return Err(AppError::NotYourGame);
            }
            full_view(c, &record)
        })
        .await
}

/// Plays the player's move and the computer's answer; on a win, verifies
/// the whole game and records the score before answering. `ply` is the
/// number of plies the player saw: a move sent from a stale page (another
/// tab, a retried request) is refused rather than played elsewhere.
pub async fn play_move(ctx: &RequestContext, game_id: String, ply: usize, mv: String, think_ms: u64) -> Result<GameView, AppError> {
    ctx.limits.check_move(&ctx.player, ctx.address)?;
    if game_id.len() > 64 {
        return Err(AppError::BadRequest("identifiant de partie trop long".into()));
    }
    let record = ctx.db.run(move |c| games::load(c, &game_id)).await?.ok_or(AppError::GameNotFound)?;
    // The bot's search runs on the blocking pool, without the database lock.
    let player = ctx.player.clone();
    let played = ctx
        .search(move || {
            let sent = games::PlayerMove { seen_plies: ply, text: &mv, think_ms };
            games::apply_player_move(&record, &player, sent, now_ms())
        })
        .await??;
    let record = played.record.clone();
    ctx.db.run(move |c| games::save_played(c, &played)).await?;
    if scores::may_score(&record) {
        // Verification recomputes every computer move, side by side on the
        // idle cores; a `fort` game's takes seconds, so it keeps to one core
        // and never holds up other players' moves.
        let wanted = if record.level == Level::Fort { 1 } else { usize::MAX };
        let slots = ctx.limits.search_slots(wanted).await?;
        record_score(&ctx.db, record.clone(), slots.num_permits()).await?;
    }
    ctx.db.run(move |c| full_view(c, &record)).await
}

/// Verifies a finished game and stores its score if the player won.
/// Idempotent: the start-up sweep calls it for wins left unscored.
pub async fn record_score(db: &Db, record: GameRecord, threads: usize) -> Result<(), AppError> {
    let verified = tokio::task::spawn_blocking(move || scores::verify_win(&record, threads))
        .await
        .map_err(|_| AppError::Internal)??;
    if let Some(win) = verified {
        db.run(move |c| scores::record(c, &win, now_ms())).await?;
    }
    Ok(())
}

/// Scores the wins a crash left unscored; a game that fails its check is
/// logged and skipped, never blocks the others. It runs beside the live
/// site, so it verifies on one thread.
pub async fn sweep_unscored(db: &Db) -> Result<usize, AppError> {
    let ids = db.run(|c| scores::unscored_wins(c)).await?;
    let mut done = 0;
    for id in ids {
        let loaded = {
            let id = id.clone();
            db.run(move |c| games::load(c, &id)).await
        };
        match loaded {
            Ok(Some(record)) => match record_score(db, record, 1).await {
                Ok(()) => done += 1,
                Err(e) => tracing::error!(game = %id, "score not recorded: {e}"),
            },
            Ok(None) => {}
            Err(e) => tracing::error!(game = %id, "game not loaded: {e}"),
        }
    }
    Ok(done)
}

pub async fn resign(ctx: &RequestContext, game_id: String) -> Result<GameView, AppError> {
    let player = ctx.player.clone();
    ctx.db.run(move |c| games::resign(c, &game_id, &player, now_ms()).and_then(|g| full_view(c, &g))).await
}

pub async fn set_pseudonym(ctx: &RequestContext, name: String) -> Result<String, AppError> {
    let player = ctx.player.clone();
    ctx.db.run(move |c| players::set_pseudonym(c, &player, &name)).await
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

/// A game for the replay page. Finished games are public (they prove a
/// score), except today's daily games, which only their player sees until
/// the day is over: the computer answers the same moves the same way, so
/// a winning line shown today could be copied today. A game in progress is
/// shown to its player only.
pub async fn replay(db: &Db, player: String, game_id: String) -> Result<GameView, AppError> {
    if game_id.len() > 64 {
        return Err(AppError::GameNotFound);
    }
    let today = today_utc();
    db.run(move |c| {
        let record = games::load(c, &game_id)?.ok_or(AppError::GameNotFound)?;
        if record.player_id != player {
            if record.outcome.is_none() {
                return Err(AppError::NotYourGame);
            }
            if record.kind == GameKind::Daily && record.day >= today {
                return Err(AppError::HiddenUntilTomorrow);
            }
        }
        let mut view = full_view(c, &record)?;
        view.needs_pseudonym = false;
        Ok(view)
    })
    .await
}
