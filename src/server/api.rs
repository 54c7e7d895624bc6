//! What the server functions do, once decoded: each takes the request's
//! context (database, player, limits) and returns what the page shows.

use super::db::Db;
use super::error::{ServerError, ServerResult};
use super::games::{self, GameRecord, NewGame, PlayerMove};
use super::limits::RateLimits;
use super::proxy::Client;
use super::{now_ms, players, scores, today_utc};
use crate::engine::bot::{daily_seed, Level};
use crate::engine::Preset;
use crate::protocol::{AppError, BoardKey, GameKind, GameSetup, GameView, LeaderboardView};
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
    pub fn current() -> ServerResult<RequestContext> {
        let db = use_context::<Db>().ok_or(ServerError::MissingContext("Db"))?;
        let limits = use_context::<RateLimits>().ok_or(ServerError::MissingContext("RateLimits"))?;
        let player = players::current_player();
        let address =
            use_context::<axum::http::request::Parts>().and_then(|p| p.extensions.get::<Client>().map(|c| c.address));
        Ok(RequestContext { db, player, limits, address })
    }

    /// Runs a search-heavy task on the blocking pool, once a search slot
    /// is free.
    async fn search<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> ServerResult<T> {
        let _slot = self.limits.searches.acquire().await.map_err(|_| ServerError::SearchSlotsClosed)?;
        Ok(tokio::task::spawn_blocking(work).await?)
    }
}

/// The view of a game with its score (if won) and whether to ask for a
/// pseudonym.
async fn full_view(db: &Db, record: &GameRecord) -> ServerResult<GameView> {
    let mut view = record.view();
    view.score = scores::score_of_game(db, &record.id).await?;
    view.needs_pseudonym = view.score.is_some() && db.pseudonym_of(&record.player_id).await?.is_none();
    Ok(view)
}

fn spec<'a>(player: &'a str, kind: GameKind, setup: GameSetup, day: &'a str) -> NewGame<'a> {
    let seed = match kind {
        GameKind::Daily => daily_seed(day),
        GameKind::Free | GameKind::Electronic => uuid::Uuid::new_v4().as_u64_pair().0,
        GameKind::TwoPlayers => 0,
    };
    NewGame { player_id: player, kind, day, setup, seed, start_fen: None, now_ms: now_ms() }
}

/// The set-up a game of `kind` gets from what the page asked, checked.
fn settle(kind: GameKind, asked: &GameSetup) -> ServerResult<GameSetup> {
    Ok(asked.for_kind(kind).map_err(|e| AppError::BadRequest(e.0))?)
}

/// The player's current game of this kind, or, if there is none, a game
/// not started yet (stored with its first move: a page view writes
/// nothing). A set-up asked for in the address (rules, level, colour)
/// starts a game with it, unless the latest game already has it.
pub async fn current_game(ctx: &RequestContext, kind: GameKind, asked: Option<GameSetup>) -> ServerResult<GameView> {
    let day = today_utc();
    let player = ctx.player.clone();
    let asked = asked.map(|a| settle(kind, &a)).transpose()?;
    let unstarted =
        GameView::unstarted(kind, day.clone(), asked.clone().unwrap_or_else(|| GameSetup::default_for(kind)));
    let day_filter = (kind == GameKind::Daily).then_some(day.as_str());
    match ctx.db.latest_game(&player, kind, day_filter).await? {
        Some(game) if asked.is_none_or(|a| a == game.setup) => full_view(&ctx.db, &game).await,
        _ => Ok(unstarted),
    }
}

/// A new game, stored now ("Rejouer", "Nouvelle partie", or a game the
/// computer opens).
pub async fn new_game(ctx: &RequestContext, kind: GameKind, setup: GameSetup) -> ServerResult<GameView> {
    ctx.limits.check_new_game(&ctx.player, ctx.address)?;
    let setup = settle(kind, &setup)?;
    let day = today_utc();
    let player = ctx.player.clone();
    // The computer may open: a search, so in a search slot.
    let opened = ctx.search(move || games::new_record(spec(&player, kind, setup, &day))).await??;
    ctx.db.insert_game(&opened).await?;
    metrics::counter!("dames_games_started_total", "kind" => kind.name()).increment(1);
    Ok(opened.record.view())
}

/// Starts a game with the player's first move: both are stored together,
/// with the computer's answer, or nothing is if the move is refused.
pub async fn start_game(ctx: &RequestContext, kind: GameKind, setup: GameSetup, mv: String) -> ServerResult<GameView> {
    ctx.limits.check_new_game(&ctx.player, ctx.address)?;
    ctx.limits.check_move(&ctx.player, ctx.address)?;
    let setup = settle(kind, &setup)?;
    let day = today_utc();
    let player = ctx.player.clone();
    // The computer's answer is a search: it runs in a search slot, then
    // the game is written.
    let played = ctx
        .search(move || {
            // The clock starts with this move: it counts the minimum.
            let first = PlayerMove { seen_plies: 0, text: &mv, think_ms: 0 };
            games::new_record_with_move(spec(&player, kind, setup, &day), first)
        })
        .await??;
    ctx.db.insert_game(&played).await?;
    metrics::counter!("dames_games_started_total", "kind" => kind.name()).increment(1);
    finish_move(ctx, played.record).await
}

/// The player's own game, as stored (after a conflict, to catch up).
pub async fn own_game(ctx: &RequestContext, game_id: String) -> ServerResult<GameView> {
    let record = load_own(ctx, game_id).await?;
    full_view(&ctx.db, &record).await
}

/// A game from any position, level and seed, for the browser tests' hook
/// (debug builds only; see `app::play::start_test_game`).
#[cfg(debug_assertions)]
pub async fn start_test_game(
    ctx: &RequestContext,
    fen: String,
    setup: GameSetup,
    seed: u64,
    kind: GameKind,
) -> ServerResult<GameView> {
    let (day, player) = (today_utc(), ctx.player.clone());
    let new = NewGame { player_id: &player, kind, day: &day, setup, seed, start_fen: Some(&fen), now_ms: now_ms() };
    Ok(games::create(&ctx.db, new).await?.view())
}

/// Plays the player's move and the computer's answer; on a win, verifies
/// the whole game and records the score before answering. `ply` is the
/// number of plies the player saw: a move sent from a stale page (another
/// tab, a retried request) is refused rather than played elsewhere.
pub async fn play_move(
    ctx: &RequestContext,
    game_id: String,
    ply: usize,
    mv: String,
    think_ms: u64,
) -> ServerResult<GameView> {
    ctx.limits.check_move(&ctx.player, ctx.address)?;
    let started = std::time::Instant::now();
    let record = load_game(ctx, &game_id).await?;
    // The bot's search runs on the blocking pool, holding no connection.
    let player = ctx.player.clone();
    let played = ctx
        .search(move || {
            let sent = PlayerMove { seen_plies: ply, text: &mv, think_ms };
            games::apply_player_move(&record, &player, sent, now_ms())
        })
        .await??;
    ctx.db.save_played(&played).await?;
    let view = finish_move(ctx, played.record).await;
    metrics::histogram!("dames_move_seconds").record(started.elapsed().as_secs_f64());
    view
}

/// After a stored move: the score if the player won, then the view.
async fn finish_move(ctx: &RequestContext, record: GameRecord) -> ServerResult<GameView> {
    if scores::may_score(&record) {
        // Verification recomputes every computer move, side by side on the
        // idle cores; a `fort` game's takes seconds, so it keeps to one core
        // and never holds up other players' moves.
        let wanted = if record.level() == Level::Fort { 1 } else { usize::MAX };
        let slots = ctx.limits.search_slots(wanted).await?;
        record_score(&ctx.db, record.clone(), slots.num_permits()).await?;
    }
    if record.outcome.is_some() {
        metrics::counter!("dames_games_finished_total", "kind" => record.kind.name()).increment(1);
    }
    full_view(&ctx.db, &record).await
}

/// Verifies a finished game and stores its score if the player won.
/// Idempotent: the start-up sweep calls it for wins left unscored.
pub async fn record_score(db: &Db, record: GameRecord, threads: usize) -> ServerResult<()> {
    let started = std::time::Instant::now();
    let verified = tokio::task::spawn_blocking(move || scores::verify_win(&record, threads)).await??;
    metrics::histogram!("dames_verification_seconds").record(started.elapsed().as_secs_f64());
    if let Some(win) = verified {
        db.record_score(&win, now_ms()).await?;
        metrics::counter!("dames_scores_recorded_total").increment(1);
    }
    Ok(())
}

/// Scores the wins a crash left unscored; a game that fails its check is
/// logged and skipped, never blocks the others. It runs beside the live
/// site, so it verifies on one thread.
pub async fn sweep_unscored(db: &Db) -> ServerResult<usize> {
    let ids = scores::unscored_wins(db).await?;
    let mut done = 0;
    for id in ids {
        match db.load_game(&id).await {
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

pub async fn resign(ctx: &RequestContext, game_id: String) -> ServerResult<GameView> {
    ctx.limits.check_move(&ctx.player, ctx.address)?;
    let record = load_game(ctx, &game_id).await?;
    let ended = games::resign(&record, &ctx.player, now_ms())?;
    ctx.db.save_ending(&ended).await?;
    metrics::counter!("dames_games_finished_total", "kind" => record.kind.name()).increment(1);
    full_view(&ctx.db, &ended.record).await
}

/// What the electronic board asks of its game besides a move.
pub enum ElectronicAction {
    /// The computer takes over the side to move.
    SwitchSides,
    /// The computer plays at another step of the ladder.
    SetLevel(Level),
    /// Play on past the endgame rule's draw.
    PlayOn,
}

/// Applies an electronic-board action to the player's game seen at `ply`
/// plies; the computer answers at once when it is then its turn.
pub async fn electronic_action(
    ctx: &RequestContext,
    game_id: String,
    ply: usize,
    action: ElectronicAction,
) -> ServerResult<GameView> {
    ctx.limits.check_move(&ctx.player, ctx.address)?;
    let record = load_own(ctx, game_id).await?;
    let player = ctx.player.clone();
    let played = ctx
        .search(move || match action {
            ElectronicAction::SwitchSides => games::switch_sides(&record, &player, ply, now_ms()),
            ElectronicAction::SetLevel(level) => games::set_level(&record, &player, ply, level),
            ElectronicAction::PlayOn => games::play_on(&record, &player, ply, now_ms()),
        })
        .await??;
    ctx.db.save_played(&played).await?;
    full_view(&ctx.db, &played.record).await
}

/// Electronic board: takes the game back to `to_ply` plies.
pub async fn take_back(ctx: &RequestContext, game_id: String, ply: usize, to_ply: usize) -> ServerResult<GameView> {
    ctx.limits.check_move(&ctx.player, ctx.address)?;
    let record = load_game(ctx, &game_id).await?;
    let taken = games::take_back(&record, &ctx.player, ply, to_ply)?;
    ctx.db.save_take_back(&taken).await?;
    full_view(&ctx.db, &taken.record).await
}

/// Electronic board: the computer's advice for the player's move, in
/// notation, with the squares to highlight.
/// A game not stored yet (no id) is at its start, the player White, at
/// `level`.
pub async fn hint(
    ctx: &RequestContext,
    game_id: String,
    ply: usize,
    level: Level,
) -> ServerResult<crate::engine::any::MoveChoice> {
    ctx.limits.check_move(&ctx.player, ctx.address)?;
    if game_id.is_empty() {
        let start = GameSetup::default_for(GameKind::Electronic);
        let setup = settle(GameKind::Electronic, &GameSetup { level, ..start })?;
        let position = crate::engine::any::AnyPosition::initial(setup.rules)
            .map_err(|e| ServerError::Unreadable(e.to_string()))?;
        return ctx.search(move || position.best_move(setup.level).ok_or_else(|| AppError::GameOver.into())).await?;
    }
    let record = load_own(ctx, game_id).await?;
    let player = ctx.player.clone();
    Ok(ctx.search(move || games::hint(&record, &player, ply)).await??)
}

/// Electronic board: a new game from a set-up position (FEN), at `level`,
/// the player taking `player`'s side. The position is checked; the
/// computer moves first if it has the move.
pub async fn start_from_position(ctx: &RequestContext, fen: String, setup: GameSetup) -> ServerResult<GameView> {
    ctx.limits.check_new_game(&ctx.player, ctx.address)?;
    if fen.len() > 400 {
        return Err(AppError::BadRequest("position trop longue".into()).into());
    }
    let setup = settle(GameKind::Electronic, &setup)?;
    let (day, player) = (today_utc(), ctx.player.clone());
    let opened = ctx
        .search(move || {
            let new = NewGame {
                player_id: &player,
                kind: GameKind::Electronic,
                day: &day,
                setup,
                seed: uuid::Uuid::new_v4().as_u64_pair().0,
                start_fen: Some(&fen),
                now_ms: now_ms(),
            };
            games::new_record(new)
        })
        .await??;
    ctx.db.insert_game(&opened).await?;
    metrics::counter!("dames_games_started_total", "kind" => GameKind::Electronic.name()).increment(1);
    Ok(opened.record.view())
}

/// A game by its id (refused when the id is too long to be one).
async fn load_game(ctx: &RequestContext, game_id: &str) -> ServerResult<GameRecord> {
    if game_id.len() > 64 {
        return Err(AppError::BadRequest("identifiant de partie trop long".into()).into());
    }
    Ok(ctx.db.load_game(game_id).await?.ok_or(AppError::GameNotFound)?)
}

/// The player's own game, loaded (its owner is checked again where it is
/// changed).
async fn load_own(ctx: &RequestContext, game_id: String) -> ServerResult<GameRecord> {
    let record = load_game(ctx, &game_id).await?;
    if record.player_id != ctx.player {
        return Err(AppError::NotYourGame.into());
    }
    Ok(record)
}

/// The two players of a two-player game agree to a draw.
pub async fn agree_draw(ctx: &RequestContext, game_id: String, ply: usize) -> ServerResult<GameView> {
    ctx.limits.check_move(&ctx.player, ctx.address)?;
    let record = load_game(ctx, &game_id).await?;
    let ended = games::agree_draw(&record, &ctx.player, ply, now_ms())?;
    ctx.db.save_ending(&ended).await?;
    metrics::counter!("dames_games_finished_total", "kind" => record.kind.name()).increment(1);
    full_view(&ctx.db, &ended.record).await
}

pub async fn set_pseudonym(ctx: &RequestContext, name: String) -> ServerResult<String> {
    players::set_pseudonym(&ctx.db, &ctx.player, &name, now_ms()).await
}

/// A leaderboard: a day's challenge (`day`, today if absent) or the free
/// games of a variant (international unless given) at a level; its top
/// rows and the player's own row (even outside the top).
pub async fn leaderboard(
    ctx: &RequestContext,
    day: Option<String>,
    level: Option<Level>,
    variant: Option<Preset>,
) -> ServerResult<LeaderboardView> {
    use super::days::{parse_day, shift_day};
    let today = today_utc();
    let board = match (level, day) {
        (Some(level), _) => BoardKey::Free { level, variant: variant.unwrap_or(Preset::International) },
        (None, Some(day)) => {
            let day = parse_day(&day).ok_or_else(|| AppError::BadRequest(format!("date invalide : {day:.20}")))?;
            BoardKey::Daily { day }
        }
        (None, None) => BoardKey::Daily { day: today.clone() },
    };
    let (is_today, previous_day, next_day) = match &board {
        BoardKey::Daily { day } => (*day == today, shift_day(day, -1), shift_day(day, 1).filter(|next| *next <= today)),
        BoardKey::Free { .. } => (false, None, None),
    };
    let key = scores::board_key(&board);
    let (top, mine) = (ctx.db.leaderboard(&key, scores::TOP).await?, ctx.db.rank_of(&key, &ctx.player).await?);
    Ok(LeaderboardView { board, is_today, previous_day, next_day, top, mine })
}

/// A game as the replay and analysis pages may show it. Finished games
/// are public (they prove a score), except today's daily games, which only
/// their player sees until the day is over: the computer answers the same
/// moves the same way, so a winning line shown today could be copied
/// today. A game in progress is shown to its player only.
pub async fn visible_game(ctx: &RequestContext, game_id: &str) -> ServerResult<GameRecord> {
    if game_id.len() > 64 {
        return Err(AppError::GameNotFound.into());
    }
    let today = today_utc();
    let record = ctx.db.load_game(game_id).await?.ok_or(AppError::GameNotFound)?;
    if record.player_id != ctx.player {
        if record.outcome.is_none() {
            return Err(AppError::NotYourGame.into());
        }
        if record.kind == GameKind::Daily && record.day >= today {
            return Err(AppError::HiddenUntilTomorrow.into());
        }
    }
    Ok(record)
}

/// A game for the replay page (see [`visible_game`]).
pub async fn replay(ctx: &RequestContext, game_id: String) -> ServerResult<GameView> {
    let record = visible_game(ctx, &game_id).await?;
    let mut view = full_view(&ctx.db, &record).await?;
    view.needs_pseudonym = false;
    Ok(view)
}
