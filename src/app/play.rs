//! A game against the computer: the server functions that load and extend
//! it, and the screen around the board (turn, clock, pieces, moves, PDN).

use super::board::Board;
use super::error::AppError;
use super::game_state::{last_computer_move, notation, pdn, GameKind, GameView};
use super::input::MoveOptions;
use crate::engine::bot::Level;
use crate::engine::{Color, DrawReason, Game, Move, MoveText, Outcome, WinReason};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The player's current game of this kind, created if there is none (the
/// daily challenge of today, or the latest free game; `level` asks for a
/// free game at that level).
#[server(endpoint = "partie/charger")]
pub async fn load_game(kind: GameKind, level: Option<Level>) -> Result<GameView, AppError> {
    use crate::server::api;
    api::current_game(&api::RequestContext::current().await?, kind, level).await
}

/// A new game: "rejouer" or "nouvelle partie".
#[server(endpoint = "partie/nouvelle")]
pub async fn new_game(kind: GameKind, level: Option<Level>) -> Result<GameView, AppError> {
    use crate::server::api;
    api::new_game(&api::RequestContext::current().await?, kind, level).await
}

/// The player's game as stored, to catch up after a conflict.
#[server(endpoint = "partie/etat")]
pub async fn reload_game(game_id: String) -> Result<GameView, AppError> {
    use crate::server::api;
    api::own_game(&api::RequestContext::current().await?, game_id).await
}

/// Plays the player's move (long form) on the position after `ply` plies
/// and returns the game with the computer's answer. `think_ms` is the
/// player's own count of thinking time, which the server clamps.
#[server(endpoint = "partie/jouer")]
pub async fn play_move(game_id: String, ply: usize, mv: String, think_ms: u64) -> Result<GameView, AppError> {
    use crate::server::api;
    api::play_move(&api::RequestContext::current().await?, game_id, ply, mv, think_ms).await
}

#[server(endpoint = "partie/abandonner")]
pub async fn resign_game(game_id: String) -> Result<GameView, AppError> {
    use crate::server::api;
    api::resign(&api::RequestContext::current().await?, game_id).await
}

/// Chooses the pseudonym shown on the leaderboards.
#[server(endpoint = "joueur/pseudonyme")]
pub async fn choose_pseudonym(name: String) -> Result<String, AppError> {
    use crate::server::api;
    api::set_pseudonym(&api::RequestContext::current().await?, name).await
}

/// Test hook: starts a game for the current player from any position,
/// level and seed, so that browser tests can set up a rafle or a quick win.
/// Compiled out of release builds, and even in a debug build answers only
/// when the server runs with `DAMES_TEST_HOOKS=1` (as the browser tests
/// start it), so that `make run` cannot be used to forge a score.
#[cfg(debug_assertions)]
#[server(endpoint = "test/partie")]
pub async fn start_test_game(fen: String, level: Level, seed: u64, kind: GameKind) -> Result<GameView, AppError> {
    use crate::server::{api, games, now_ms, today_utc};
    if std::env::var("DAMES_TEST_HOOKS").as_deref() != Ok("1") {
        return Err(AppError::BadRequest("crochet de test désactivé".into()));
    }
    let ctx = api::RequestContext::current().await?;
    let start = crate::engine::Position::from_fen(&fen).map_err(|e| AppError::BadRequest(e.to_string()))?;
    let (day, player) = (today_utc(), ctx.player.clone());
    ctx.db
        .run(move |c| {
            games::create(c, games::NewGame { player_id: &player, kind, day: &day, level, seed, start, now_ms: now_ms() })
                .map(|g| g.view())
        })
        .await
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

#[island]
pub fn GameScreen(initial: GameView) -> impl IntoView {
    let state = RwSignal::new(initial);
    let game = Memo::new(move |_| state.with(|v| v.replay().unwrap_or_else(|_| Game::default())));
    let pending = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let announce = RwSignal::new(String::new());
    let show_numbers = RwSignal::new(false);
    // Thinking time since the server's last answer, counted only while the
    // page is visible.
    let think_ms = RwSignal::new(0u64);

    // The replay applies a resignation too, so the game alone says how it
    // ended.
    let outcome = Memo::new(move |_| game.with(|g| g.outcome()));
    let position = Signal::derive(move || game.with(|g| *g.position()));
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
        // The clock: ticks while the page is visible and the player thinks.
        let last_tick = StoredValue::new(now_ms());
        let handle = set_interval_with_handle(
            move || {
                let now = now_ms();
                let elapsed = now - last_tick.get_value();
                last_tick.set_value(now);
                let visible = !document().hidden();
                if visible && players_turn.get_untracked() && !pending.get_untracked() {
                    think_ms.update(|t| *t += elapsed.max(0.0) as u64);
                }
            },
            std::time::Duration::from_millis(250),
        );
        if let Ok(handle) = handle {
            on_cleanup(move || handle.clear());
        }
        // The square numbers toggle is remembered in this browser.
        Effect::new(move |_| {
            let stored = window()
                .local_storage()
                .ok()
                .flatten()
                .and_then(|s| s.get_item("dames.numeros").ok().flatten());
            show_numbers.set(stored.as_deref() == Some("1"));
        });
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
            match play_move(view.id.clone(), ply, text, think).await {
                Ok(next) => {
                    think_ms.set(0);
                    let replayed = next.replay().ok();
                    if let Some(g) = replayed.as_ref() {
                        if let Some(m) = last_computer_move(g) {
                            announce.set(format!("L'ordinateur joue {}.", m.text));
                        }
                    }
                    if let Some(o) = replayed.as_ref().and_then(|g| g.outcome()) {
                        announce.update(|a| {
                            a.push(' ');
                            a.push_str(&outcome_text(o));
                        });
                    }
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

    let typed = RwSignal::new(String::new());
    let submit_typed = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let text = typed.get_untracked();
        if !players_turn.get_untracked() || pending.get_untracked() {
            error.set(Some("Ce n'est pas à vous de jouer.".into()));
            return;
        }
        let pos = position.get_untracked();
        match MoveText::parse(&text).and_then(|t| t.resolve(&pos)) {
            Ok(mv) => {
                typed.set(String::new());
                send(mv);
            }
            Err(e) => error.set(Some(format!("Coup refusé : {}", super::error::move_text_error_fr(&e)))),
        }
    };

    let toggle_numbers = move |_| {
        show_numbers.update(|s| *s = !*s);
        #[cfg(feature = "hydrate")]
        if let Some(storage) = window().local_storage().ok().flatten() {
            let _ = storage.set_item("dames.numeros", if show_numbers.get_untracked() { "1" } else { "0" });
        }
    };

    let count = move |color: Color| position.with(|p| p.pieces(color).count());
    let clock = move || clock_text(state.with(|v| v.active_ms) + think_ms.get());
    let title = move || match state.with(|v| v.kind) {
        GameKind::Daily => format!("Défi du jour — {}", state.with(|v| v.day.clone())),
        GameKind::Free => format!("Partie libre — niveau {}", state.with(|v| v.level.label())),
    };
    let status = move || match outcome.get() {
        Some(o) => outcome_text(o),
        None if pending.get() => "L'ordinateur réfléchit…".into(),
        None if players_turn.get() => {
            if options.with(|o| o.must_capture()) {
                "À vous de jouer : la prise est obligatoire.".into()
            } else {
                "À vous de jouer (blancs).".into()
            }
        }
        None => "Au tour de l'ordinateur (noirs).".into(),
    };
    let pdn_href = move || format!("data:application/x-draughts;charset=utf-8,{}", percent_encode(&pdn_text.get()));

    view! {
        <section class="play" aria-labelledby="titre-partie" data-partie=move || state.with(|v| v.id.clone())>
            <h1 id="titre-partie">{title}</h1>
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
                    <p class="status" class:over=move || outcome.get().is_some() data-testid="statut">{status}</p>
                    <p class="sr-only" aria-live="polite" data-testid="annonce">{move || announce.get()}</p>
                    {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
                    <dl class="facts">
                        <div><dt>"Temps"</dt><dd data-testid="horloge">{clock}</dd></div>
                        <div><dt>"Vos pièces"</dt><dd data-testid="pieces-blanches">{move || count(Color::White)}</dd></div>
                        <div><dt>"Pièces de l'ordinateur"</dt><dd data-testid="pieces-noires">{move || count(Color::Black)}</dd></div>
                    </dl>
                    <div class="buttons">
                        <Show
                            when=move || outcome.get().is_some()
                            fallback=move || view! {
                                <button type="button" on:click=resign disabled=move || pending.get() || !players_turn.get()>"Abandonner"</button>
                            }
                        >
                            <button type="button" class="primary" on:click=restart disabled=move || pending.get()>"Rejouer"</button>
                        </Show>
                        <Show when=move || outcome.get().is_none()>
                            <button type="button" on:click=restart disabled=move || pending.get()>"Nouvelle partie"</button>
                        </Show>
                        <button type="button" on:click=toggle_numbers aria-pressed=move || show_numbers.get().to_string()>
                            "Numéros des cases"
                        </button>
                    </div>
                    <Show when=move || state.with(|v| v.kind == GameKind::Free)>
                        <label class="level">
                            "Niveau de la prochaine partie "
                            <select on:change=move |ev| {
                                if let Ok(level) = event_target_value(&ev).parse::<Level>() {
                                    chosen_level.set(level);
                                }
                            }>
                                {Level::ALL.into_iter().map(|l| view! {
                                    <option value=l.name() selected=move || chosen_level.get() == l>{l.label()}</option>
                                }).collect_view()}
                            </select>
                        </label>
                    </Show>
                    {move || score.get().map(|score| view! { <WinPanel score=score state=state/> })}
                    <form class="typed" on:submit=submit_typed>
                        <label for="coup-saisi">"Jouer un coup en notation"</label>
                        <div>
                            <input
                                id="coup-saisi"
                                type="text"
                                inputmode="text"
                                autocomplete="off"
                                placeholder="32-28 ou 19x30"
                                maxlength="80"
                                prop:value=move || typed.get()
                                on:input=move |ev| typed.set(event_target_value(&ev))
                            />
                            <button type="submit">"Jouer"</button>
                        </div>
                    </form>
                    <h2>"Coups"</h2>
                    <ol class="moves" data-testid="coups">
                        {move || {
                            texts.get().chunks(2).enumerate().map(|(i, pair)| {
                                let white = pair.first().cloned().unwrap_or_default();
                                let black = pair.get(1).cloned().unwrap_or_default();
                                view! { <li><span class="n">{i + 1}"."</span><span>{white}</span><span>{black}</span></li> }
                            }).collect_view()
                        }}
                    </ol>
                    <details class="pdn">
                        <summary>"La partie en PDN"</summary>
                        <textarea readonly rows="6" aria-label="La partie en PDN">{move || pdn_text.get()}</textarea>
                        <a href=pdn_href download="partie-dames.pdn">"Télécharger le PDN"</a>
                    </details>
                </div>
            </div>
        </section>
    }
}

/// After a win: the score and how it was made, the rank, a share text,
/// and the pseudonym form the first time.
#[component]
fn WinPanel(score: super::game_state::ScoreView, state: RwSignal<GameView>) -> impl IntoView {
    let (kind, day, level) = state.with_untracked(|v| (v.kind, v.day.clone(), v.level));
    let share = match kind {
        GameKind::Daily => format!(
            "Dames — défi du {day} : gagné avec {} pièces en {}, {} points.",
            score.pieces,
            clock_text(score.seconds * 1000),
            score.score
        ),
        GameKind::Free => format!(
            "Dames — partie libre ({}) : gagné avec {} pièces en {}, {} points.",
            level.label(),
            score.pieces,
            clock_text(score.seconds * 1000),
            score.score
        ),
    };
    let board_link = match kind {
        GameKind::Daily => "/classement".to_string(),
        GameKind::Free => format!("/classement?niveau={}", level.name()),
    };
    let rank = score.rank.map(|r| match kind {
        GameKind::Daily => format!("Votre rang aujourd'hui : {r} (meilleur score du jour : {}).", score.best),
        GameKind::Free => format!("Votre rang en partie libre ({}) : {r} (meilleur score : {}).", level.label(), score.best),
    });
    let name = RwSignal::new(String::new());
    let name_error = RwSignal::new(None::<String>);
    let saved = RwSignal::new(None::<String>);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let wanted = name.get_untracked();
        spawn_local(async move {
            match choose_pseudonym(wanted).await {
                Ok(n) => {
                    saved.set(Some(n));
                    name_error.set(None);
                    state.update(|v| v.needs_pseudonym = false);
                }
                Err(e) => name_error.set(Some(e.to_string())),
            }
        });
    };
    let copy_share = {
        let share = share.clone();
        move |_| {
            #[cfg(feature = "hydrate")]
            {
                let _ = window().navigator().clipboard().write_text(&share);
            }
            let _ = &share;
        }
    };
    view! {
        <div class="win" data-testid="score">
            <p class="score-total"><strong>{score.score}</strong>" points"</p>
            <p class="breakdown">
                {format!("{} = {}", score.breakdown(), score.score)}
            </p>
            {rank.map(|r| view! { <p data-testid="rang">{r}</p> })}
            <Show when=move || state.with(|v| v.needs_pseudonym)>
                <form class="pseudo" on:submit=submit>
                    <label for="pseudonyme">"Votre pseudonyme pour le classement"</label>
                    <div>
                        <input
                            id="pseudonyme"
                            type="text"
                            minlength="3"
                            maxlength="20"
                            autocomplete="nickname"
                            required
                            prop:value=move || name.get()
                            on:input=move |ev| name.set(event_target_value(&ev))
                        />
                        <button type="submit" class="primary">"Enregistrer"</button>
                    </div>
                    <p class="hint">"3 à 20 caractères : lettres, chiffres, espace, - et _."</p>
                    {move || name_error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
                </form>
            </Show>
            {move || saved.get().map(|n| view! { <p role="status">"Pseudonyme enregistré : " {n}</p> })}
            <p class="share">{share.clone()}</p>
            <div class="buttons">
                <button type="button" on:click=copy_share>"Copier le texte à partager"</button>
                <a href=board_link>"Voir le classement"</a>
            </div>
        </div>
    }
}

/// Percent-encoding for a `data:` URL.
fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 3);
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~ ".contains(&b) {
            out.push(if b == b' ' { '+' } else { b as char });
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out.replace('+', "%20")
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
    fn percent_encoding_keeps_text_readable() {
        assert_eq!(percent_encode("1. 32-28 *\n"), "1.%2032-28%20%2A%0A");
    }
}
