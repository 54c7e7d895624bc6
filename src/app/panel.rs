//! The panel beside the board on the game screen, one component per part:
//! the status line, the facts (clock, pieces), the buttons, the typed-move
//! form, the move list, the PDN export and, after a win, the score with the
//! pseudonym form (and its server function).

use super::call::ServerCall;
use super::describe::view_title;
use super::status::clock_text;
use crate::engine::any::AnyPosition;
use crate::engine::Preset;
use crate::protocol::game::{free_board_href, ranked_variant};
use crate::protocol::{move_text_error_fr, AppError, GameKind, GameView, Preferences, ScoreView};
use leptos::prelude::*;

/// Chooses the pseudonym shown on the leaderboards.
#[server(endpoint = "joueur/pseudonyme", output = crate::protocol::codec::JsonText)]
pub async fn choose_pseudonym(name: String) -> Result<String, AppError> {
    use crate::server::api;
    Ok(api::set_pseudonym(&api::RequestContext::current()?, name).await?)
}

/// Whose turn, what is forced, how it ended.
#[component]
pub fn StatusLine(text: Signal<String>, over: Signal<bool>) -> impl IntoView {
    view! { <p class="status" class:over=move || over.get() data-testid="statut">{move || text.get()}</p> }
}

/// The clock and the pieces left on each side, each side named as the
/// player sees it ("Vos pièces", "Pièces de l'ordinateur", "Pièces
/// blanches").
#[component]
pub fn Facts(
    clock: Signal<String>,
    white: Signal<u32>,
    black: Signal<u32>,
    white_label: &'static str,
    black_label: &'static str,
) -> impl IntoView {
    view! {
        <dl class="facts">
            <div><dt>"Temps"</dt><dd data-testid="horloge">{move || clock.get()}</dd></div>
            <div><dt>{white_label}</dt><dd data-testid="pieces-blanches">{move || white.get()}</dd></div>
            <div><dt>{black_label}</dt><dd data-testid="pieces-noires">{move || black.get()}</dd></div>
        </dl>
    }
}

/// Resign while playing, play again or analyse the game once over, a new
/// game at any time, and the square numbers toggle.
#[component]
pub fn GameButtons(
    over: Signal<bool>,
    /// The game's id, for the link to its analysis (none when empty: a
    /// game kept on the device, which the server never saw).
    game_id: Signal<String>,
    #[prop(into)] busy: Signal<bool>,
    can_resign: Signal<bool>,
    on_restart: Callback<()>,
    on_resign: Callback<()>,
    /// The numbers' button changes the setting, kept for every page.
    preferences: RwSignal<Preferences>,
) -> impl IntoView {
    let toggle_numbers = move |_| {
        preferences.update(|p| p.numbers = !p.numbers);
        crate::app::settings::remember(&preferences.get_untracked());
    };
    let numbers_on = move || preferences.with(|p| p.numbers).to_string();
    view! {
        <div class="buttons">
            <Show
                when=move || over.get()
                fallback=move || view! {
                    <button type="button" on:click=move |_| on_resign.run(()) disabled=move || !can_resign.get()>"Abandonner"</button>
                }
            >
                <button type="button" class="primary" on:click=move |_| on_restart.run(()) disabled=move || busy.get()>"Rejouer"</button>
                <Show when=move || !game_id.with(String::is_empty)>
                    <a class="button" href=move || format!("/analyse/{}", game_id.get())>"Analyser la partie"</a>
                </Show>
            </Show>
            <Show when=move || !over.get()>
                <button type="button" on:click=move |_| on_restart.run(()) disabled=move || busy.get()>"Nouvelle partie"</button>
            </Show>
            <button type="button" on:click=toggle_numbers aria-pressed=numbers_on>
                "Numéros des cases"
            </button>
        </div>
    }
}

/// A move typed in notation (`32-28`, `19x30`), checked here with the
/// engine before it is sent.
#[component]
pub fn TypedMoveForm(
    position: Signal<AnyPosition>,
    can_play: Signal<bool>,
    /// Called with the move in long form.
    on_play: Callback<String>,
    /// Where a refusal is shown, as the server's are.
    call: ServerCall,
) -> impl IntoView {
    let typed = RwSignal::new(String::new());
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if !can_play.get_untracked() {
            call.refuse(AppError::NotYourTurn);
            return;
        }
        let text = typed.get_untracked();
        match position.with_untracked(|p| p.resolve_text(&text)) {
            Ok(mv) => {
                typed.set(String::new());
                on_play.run(mv);
            }
            Err(e) => call.refuse(AppError::IllegalMove(move_text_error_fr(&e))),
        }
    };
    view! {
        <form class="typed" on:submit=submit>
            <label for="coup-saisi">"Jouer un coup en notation"</label>
            <div>
                <input
                    id="coup-saisi"
                    type="text"
                    inputmode="text"
                    autocomplete="off"
                    placeholder=move || if position.with(|p| p.layout().size) == 8 { "22-18 ou 15x22" } else { "32-28 ou 19x30" }
                    maxlength="80"
                    prop:value=move || typed.get()
                    on:input=move |ev| typed.set(event_target_value(&ev))
                />
                <button type="submit">"Jouer"</button>
            </div>
        </form>
    }
}

/// The moves so far, a line per move number.
#[component]
pub fn MoveList(#[prop(into)] texts: Signal<Vec<String>>) -> impl IntoView {
    view! {
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
    }
}

/// The game as PDN, to read or download.
#[component]
pub fn PdnExport(#[prop(into)] text: Signal<String>) -> impl IntoView {
    let href = move || format!("data:application/x-draughts;charset=utf-8,{}", percent_encode(&text.get()));
    view! {
        <details class="pdn">
            <summary>"La partie en PDN"</summary>
            <textarea readonly rows="6" aria-label="La partie en PDN">{move || text.get()}</textarea>
            <a href=href download="partie-dames.pdn">"Télécharger le PDN"</a>
        </details>
    }
}

/// After a win: the score and how it was made, the rank, a share text,
/// and the pseudonym form the first time.
#[component]
pub fn WinPanel(score: ScoreView, state: RwSignal<GameView>) -> impl IntoView {
    let (kind, level, title) = state.with_untracked(|v| (v.kind, v.level(), view_title(v)));
    let variant = state.with_untracked(|v| ranked_variant(&v.setup.rules));
    let share = format!(
        "Dames — {title} : gagné avec {} pièces en {}, {} points.",
        score.pieces,
        clock_text(score.seconds * 1000),
        score.score
    );
    let board_link = match kind {
        GameKind::Daily => "/classement".to_string(),
        _ => free_board_href(level, variant.unwrap_or(Preset::International)),
    };
    let rank = score.rank.map(|r| match kind {
        GameKind::Daily => format!("Votre rang aujourd'hui : {r} (meilleur score du jour : {}).", score.best),
        _ => format!("Votre rang ({title}) : {r} (meilleur score : {}).", score.best),
    });
    let saved = RwSignal::new(None::<String>);
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
            <p class="breakdown">{format!("{} = {}", score.breakdown(), score.score)}</p>
            {rank.map(|r| view! { <p data-testid="rang">{r}</p> })}
            <Show when=move || state.with(|v| v.needs_pseudonym)>
                <PseudonymForm state=state saved=saved/>
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

/// Asked at the first score: the name shown on the leaderboards.
#[component]
fn PseudonymForm(state: RwSignal<GameView>, saved: RwSignal<Option<String>>) -> impl IntoView {
    let name = RwSignal::new(String::new());
    let call = ServerCall::new();
    let name_error = call.error;
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        call.send(choose_pseudonym(name.get_untracked()), move |n| {
            saved.set(Some(n));
            state.update(|v| v.needs_pseudonym = false);
        });
    };
    view! {
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
                <button type="submit" class="primary" disabled=move || call.pending.get()>"Enregistrer"</button>
            </div>
            <p class="hint">"3 à 20 caractères : lettres, chiffres, espace, - et _."</p>
            {move || name_error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
        </form>
    }
}

/// Percent-encoding for a `data:` URL (and the router tests' form bodies).
pub(crate) fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 3);
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_encoding_keeps_text_readable() {
        assert_eq!(percent_encode("1. 32-28 *\n"), "1.%2032-28%20%2A%0A");
        assert_eq!(percent_encode("é"), "%C3%A9");
    }
}

/// Which position of a game or line is shown, and the buttons to the first,
/// previous, next and last (the replay, the analyses).
#[component]
pub fn PlyBrowser(ply: RwSignal<usize>, #[prop(into)] last: Signal<usize>) -> impl IntoView {
    let step = move |delta: i64| ply.update(|p| *p = (*p as i64 + delta).clamp(0, last.get() as i64) as usize);
    view! {
        <p aria-live="polite" data-testid="coup-affiche">
            {move || match ply.get() {
                0 => "Position de départ".to_string(),
                p => format!("Coup {p} sur {}", last.get()),
            }}
        </p>
        <div class="buttons" role="group" aria-label="Parcourir la partie">
            <button type="button" on:click=move |_| ply.set(0) aria-label="Début">"|◀"</button>
            <button type="button" on:click=move |_| step(-1) aria-label="Coup précédent">"◀"</button>
            <button type="button" on:click=move |_| step(1) aria-label="Coup suivant">"▶"</button>
            <button type="button" on:click=move |_| ply.set(last.get()) aria-label="Fin">"▶|"</button>
        </div>
    }
}
