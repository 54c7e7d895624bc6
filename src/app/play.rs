//! A game against the computer: the server functions that load and extend
//! it, and the game screen (the board beside its panel, see
//! [`super::panel`]).

use super::board::Board;
use super::describe::{last_computer_move, notation, pdn, view_title};
use super::input::MoveOptions;
use super::panel::{Facts, GameButtons, MoveList, PdnExport, StatusLine, TypedMoveForm, WinPanel};
use crate::engine::bot::Level;
use crate::engine::{Color, DrawReason, Game, Move, Outcome, WinReason};
use crate::protocol::game::stored_game_start;
use crate::protocol::{AppError, GameKind, GameView};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The player's current game of this kind (the daily challenge of today,
/// or the latest free game; `level` asks for a free game at that level),
/// or one not started yet: reading a page stores nothing.
#[server(endpoint = "partie/charger")]
pub async fn load_game(kind: GameKind, level: Option<Level>) -> Result<GameView, AppError> {
    use crate::server::api;
    Ok(api::current_game(&api::RequestContext::current()?, kind, level).await?)
}

/// Starts the game with the player's first move.
#[server(endpoint = "partie/commencer")]
pub async fn start_game(kind: GameKind, level: Option<Level>, mv: String) -> Result<GameView, AppError> {
    use crate::server::api;
    Ok(api::start_game(&api::RequestContext::current()?, kind, level, mv).await?)
}

/// A new game: "rejouer" or "nouvelle partie".
#[server(endpoint = "partie/nouvelle")]
pub async fn new_game(kind: GameKind, level: Option<Level>) -> Result<GameView, AppError> {
    use crate::server::api;
    Ok(api::new_game(&api::RequestContext::current()?, kind, level).await?)
}

/// The player's game as stored, to catch up after a conflict.
#[server(endpoint = "partie/etat")]
pub async fn reload_game(game_id: String) -> Result<GameView, AppError> {
    use crate::server::api;
    Ok(api::own_game(&api::RequestContext::current()?, game_id).await?)
}

/// Plays the player's move (long form) on the position after `ply` plies
/// and returns the game with the computer's answer. `think_ms` is the
/// player's own count of thinking time, which the server clamps.
#[server(endpoint = "partie/jouer")]
pub async fn play_move(game_id: String, ply: usize, mv: String, think_ms: u64) -> Result<GameView, AppError> {
    use crate::server::api;
    Ok(api::play_move(&api::RequestContext::current()?, game_id, ply, mv, think_ms).await?)
}

#[server(endpoint = "partie/abandonner")]
pub async fn resign_game(game_id: String) -> Result<GameView, AppError> {
    use crate::server::api;
    Ok(api::resign(&api::RequestContext::current()?, game_id).await?)
}

/// Test hook: starts a game for the current player from any position,
/// level and seed, so that browser tests can set up a rafle or a quick win.
/// Compiled out of release builds, and even in a debug build answers only
/// when the server runs with `DAMES_TEST_HOOKS=1` (as the browser tests
/// start it), so that `make run` cannot be used to forge a score.
#[cfg(debug_assertions)]
#[server(endpoint = "test/partie")]
pub async fn start_test_game(fen: String, level: Level, seed: u64, kind: GameKind) -> Result<GameView, AppError> {
    use crate::server::api;
    if std::env::var("DAMES_TEST_HOOKS").as_deref() != Ok("1") {
        return Err(AppError::BadRequest("crochet de test désactivé".into()));
    }
    let start = crate::engine::Position::from_fen(&fen).map_err(|e| AppError::BadRequest(e.to_string()))?;
    Ok(api::start_test_game(&api::RequestContext::current()?, start, level, seed, kind).await?)
}

/// The outcome in words, from the player's side (White).
pub fn outcome_text(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win { winner: Color::White, reason } => match reason {
            WinReason::NoPieces => "Vous avez gagné : l'ordinateur n'a plus de pièce.".into(),
            WinReason::Blocked => "Vous avez gagné : l'ordinateur est bloqué.".into(),
            WinReason::Resignation => "Vous avez gagné : l'ordinateur abandonne.".into(),
        },
        Outcome::Win { winner: Color::Black, reason } => match reason {
            WinReason::NoPieces => "Perdu : vous n'avez plus de pièce.".into(),
            WinReason::Blocked => "Perdu : vous n'avez plus de coup possible.".into(),
            WinReason::Resignation => "Vous avez abandonné.".into(),
        },
        Outcome::Draw(DrawReason::KingMoves) => {
            "Partie nulle : 25 coups de chaque côté sans prise ni mouvement de pion.".into()
        }
        Outcome::Draw(DrawReason::MoveLimit) => "Partie nulle : plus de 150 coups de chaque côté.".into(),
        Outcome::Draw(DrawReason::Repetition) => "Partie nulle : la même position est revenue trois fois.".into(),
    }
}

/// `mm:ss`.
pub fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    format!("{:02}:{:02}", s / 60, s % 60)
}

/// Loads the player's game and shows it.
#[component]
pub fn Play(kind: GameKind, level: Option<Level>) -> impl IntoView {
    let loaded = Resource::new(move || (kind, level), |(kind, level)| load_game(kind, level));
    view! {
        <Suspense fallback=|| view! { <p class="loading">"Préparation du damier…"</p> }>
            {move || Suspend::new(async move {
                match loaded.await {
                    Ok(game) => view! { <GameScreen initial=game/> }.into_any(),
                    Err(e) => view! { <p class="error" role="alert">{e.to_string()}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// What the status line says.
pub fn status_text(
    outcome: Option<Outcome>,
    pending: bool,
    players_turn: bool,
    must_capture: bool,
    started: bool,
) -> String {
    match outcome {
        Some(o) => outcome_text(o),
        None if pending => "L'ordinateur réfléchit…".into(),
        None if players_turn && must_capture => "À vous de jouer : la prise est obligatoire.".into(),
        None if players_turn && !started => "À vous de jouer (blancs). Le chrono démarre à votre premier coup.".into(),
        None if players_turn => "À vous de jouer (blancs).".into(),
        None => "Au tour de l'ordinateur (noirs).".into(),
    }
}

#[island]
pub fn GameScreen(initial: GameView) -> impl IntoView {
    let state = RwSignal::new(initial);
    let game = Memo::new(move |_| state.with(|v| v.replay().unwrap_or_else(|_| Game::new(stored_game_start()))));
    let pending = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let announce = RwSignal::new(String::new());
    let show_numbers = RwSignal::new(false);
    // Thinking time since the server's last answer, counted only while the
    // page is visible and the game has started.
    let think_ms = RwSignal::new(0u64);

    // The replay applies a resignation too, so the game alone says how it
    // ended.
    let outcome = Memo::new(move |_| game.with(|g| g.outcome()));
    let position = Signal::derive(move || game.with(|g| *g.position()));
    let started = Memo::new(move |_| state.with(|v| v.is_started()));
    let players_turn = Memo::new(move |_| outcome.get().is_none() && game.with(|g| g.turn() == Color::White));
    let options = Memo::new(move |_| {
        if players_turn.get() && !pending.get() {
            game.with(|g| MoveOptions::new(g.position()))
        } else {
            MoveOptions::none()
        }
    });
    // A memo: every square reads it, and working it out replays the game.
    let last_move = Memo::new(move |_| game.with(last_computer_move));
    // A memo, so that the score panel (and its pseudonym form) is not
    // rebuilt when another part of the game state changes.
    let score = Memo::new(move |_| state.with(|v| v.score.clone()));
    let texts = Memo::new(move |_| game.with(notation));
    let pdn_text = Memo::new(move |_| state.with(|v| game.with(|g| pdn(g, v))));

    #[cfg(feature = "hydrate")]
    {
        let counting = Signal::derive(move || started.get() && players_turn.get() && !pending.get());
        run_thinking_clock(think_ms, counting);
        // After hydration, so that the first render matches the server's.
        Effect::new(move |_| show_numbers.set(remembered_numbers()));
    }

    let send = move |mv: Move| {
        let view = state.get_untracked();
        let text = mv.long_form().to_string();
        // Show the player's move at once; the server's answer replaces it.
        state.update(|v| v.moves.push(text.clone()));
        pending.set(true);
        error.set(None);
        let think = think_ms.get_untracked();
        let ply = view.moves.len();
        spawn_local(async move {
            let answer = if view.is_started() {
                play_move(view.id.clone(), ply, text, think).await
            } else {
                start_game(view.kind, Some(view.level), text).await
            };
            match answer {
                Ok(next) => {
                    think_ms.set(0);
                    announce.set(answer_announcement(&next));
                    state.set(next);
                }
                Err(AppError::Conflict) => {
                    // Another tab or request moved first: show the game as
                    // the server has it.
                    error.set(Some(AppError::Conflict.to_string()));
                    match reload_game(view.id.clone()).await {
                        Ok(current) => state.set(current),
                        Err(_) => state.set(view),
                    }
                }
                Err(e) => {
                    state.set(view);
                    error.set(Some(e.to_string()));
                }
            }
            pending.set(false);
        });
    };

    let chosen_level = RwSignal::new(state.with_untracked(|v| v.level));
    let restart = move |_| {
        let kind = state.with_untracked(|v| v.kind);
        let level = chosen_level.get_untracked();
        pending.set(true);
        spawn_local(async move {
            match new_game(kind, Some(level)).await {
                Ok(next) => {
                    think_ms.set(0);
                    announce.set("Nouvelle partie. À vous de jouer.".into());
                    state.set(next);
                }
                Err(e) => error.set(Some(e.to_string())),
            }
            pending.set(false);
        });
    };

    let resign = move |_| {
        let id = state.with_untracked(|v| v.id.clone());
        pending.set(true);
        spawn_local(async move {
            match resign_game(id).await {
                Ok(next) => {
                    announce.set("Vous avez abandonné.".into());
                    state.set(next);
                }
                Err(e) => error.set(Some(e.to_string())),
            }
            pending.set(false);
        });
    };

    let status = Signal::derive(move || {
        status_text(outcome.get(), pending.get(), players_turn.get(), options.with(|o| o.must_capture()), started.get())
    });
    let over = Signal::derive(move || outcome.get().is_some());
    let clock = Signal::derive(move || clock_text(state.with(|v| v.active_ms) + think_ms.get()));
    let count = move |color: Color| Signal::derive(move || position.with(|p| p.pieces(color).count()));
    let can_play = Signal::derive(move || players_turn.get() && !pending.get());
    // An unstarted game has nothing to give up.
    let can_resign = Signal::derive(move || can_play.get() && started.get());
    let is_free = move || state.with(|v| v.kind == GameKind::Free);

    view! {
        <section class="play" aria-labelledby="titre-partie" data-partie=move || state.with(|v| v.id.clone())>
            <h1 id="titre-partie">{move || state.with(view_title)}</h1>
            <div class="play-grid">
                <div class="board-wrap">
                    <Board
                        position=position
                        options=options
                        last_move=last_move
                        on_play=Callback::new(send)
                        show_numbers=show_numbers
                    />
                </div>
                <div class="panel">
                    <StatusLine text=status over=over/>
                    <p class="sr-only" aria-live="polite" data-testid="annonce">{move || announce.get()}</p>
                    {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
                    <Facts clock=clock mine=count(Color::White) theirs=count(Color::Black)/>
                    <GameButtons
                        over=over
                        busy=pending
                        can_resign=can_resign
                        on_restart=Callback::new(restart)
                        on_resign=Callback::new(resign)
                        show_numbers=show_numbers
                    />
                    <Show when=is_free>
                        <LevelPicker chosen=chosen_level/>
                    </Show>
                    {move || score.get().map(|score| view! { <WinPanel score=score state=state/> })}
                    <TypedMoveForm position=position can_play=can_play on_play=Callback::new(send) error=error/>
                    <MoveList texts=texts/>
                    <PdnExport text=pdn_text/>
                </div>
            </div>
        </section>
    }
}

/// What the live region says after the server's answer: the computer's
/// move, and how the game ended if it did.
fn answer_announcement(next: &GameView) -> String {
    let Ok(game) = next.replay() else { return String::new() };
    let mut text = last_computer_move(&game).map(|m| format!("L'ordinateur joue {}.", m.text)).unwrap_or_default();
    if let Some(o) = game.outcome() {
        text.push(' ');
        text.push_str(&outcome_text(o));
    }
    text
}

/// The level of the next free game.
#[component]
fn LevelPicker(chosen: RwSignal<Level>) -> impl IntoView {
    view! {
        <label class="level">
            "Niveau de la prochaine partie "
            <select on:change=move |ev| {
                if let Ok(level) = event_target_value(&ev).parse::<Level>() {
                    chosen.set(level);
                }
            }>
                {Level::ALL.into_iter().map(|l| view! {
                    <option value=l.name() selected=move || chosen.get() == l>{l.label()}</option>
                }).collect_view()}
            </select>
        </label>
    }
}

/// The clock: adds the time that passes while `counting` holds and the
/// page is visible (a hidden tab does not count).
#[cfg(feature = "hydrate")]
fn run_thinking_clock(think_ms: RwSignal<u64>, counting: Signal<bool>) {
    let last_tick = StoredValue::new(now_ms());
    let handle = set_interval_with_handle(
        move || {
            let now = now_ms();
            let elapsed = now - last_tick.get_value();
            last_tick.set_value(now);
            if !document().hidden() && counting.get_untracked() {
                think_ms.update(|t| *t += elapsed.max(0.0) as u64);
            }
        },
        std::time::Duration::from_millis(250),
    );
    if let Ok(handle) = handle {
        on_cleanup(move || handle.clear());
    }
}

/// Whether this browser asked for the square numbers last time.
#[cfg(feature = "hydrate")]
fn remembered_numbers() -> bool {
    window()
        .local_storage()
        .ok()
        .flatten()
        .and_then(|s| s.get_item(super::panel::NUMBERS_KEY).ok().flatten())
        .as_deref()
        == Some("1")
}

#[cfg(feature = "hydrate")]
fn now_ms() -> f64 {
    window().performance().map(|p| p.now()).unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_and_outcome_texts() {
        assert_eq!(clock_text(0), "00:00");
        assert_eq!(clock_text(754_999), "12:34");
        assert!(outcome_text(Outcome::Draw(DrawReason::MoveLimit)).contains("150"));
    }

    #[test]
    fn the_status_line_says_what_to_do() {
        assert!(status_text(None, false, true, false, false).contains("premier coup"));
        assert_eq!(status_text(None, false, true, true, true), "À vous de jouer : la prise est obligatoire.");
        assert_eq!(status_text(None, true, true, false, true), "L'ordinateur réfléchit…");
        assert_eq!(status_text(None, false, false, false, true), "Au tour de l'ordinateur (noirs).");
        assert!(status_text(Some(Outcome::Draw(DrawReason::KingMoves)), false, false, false, true).contains("25 coups"));
    }
}
