//! `/partie/<id>`: a finished game, move by move, as the server verified
//! it: the proof behind a score.

use crate::app::board::ReadOnlyBoard;
use crate::app::bundle::BundlePreload;
use crate::app::describe::{variant_name, view_title, ShownMove};
use crate::app::panel::PlyBrowser;
use crate::app::status::{clock_text, outcome_text, side_name, Seat};
use crate::protocol::{AppError, GameView, Preferences};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

#[server(endpoint = "partie/revoir", output = crate::protocol::codec::JsonText)]
pub async fn get_replay(game_id: String) -> Result<GameView, AppError> {
    use crate::server::api;
    Ok(api::replay(&api::RequestContext::current()?, game_id).await?)
}

#[component]
pub fn ReplayPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.with(|p| p.get("id").unwrap_or_default());
    let data = Resource::new(id, get_replay);
    view! {
        <Title text="Revoir une partie — Dames"/>
        <Suspense fallback=|| view! { <p class="loading">"Chargement de la partie…"</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(game) => {
                        let preferences = crate::app::settings::current_preferences();
                        view! { <BundlePreload size=game.setup.rules.size/> <Replay game preferences/> }.into_any()
                    }
                    Err(e) => game_not_shown(e),
                }
            })}
        </Suspense>
    }
}

/// The page of a game that cannot be shown: not found, or not visible
/// (a game that exists but is not shown is not "not found").
pub fn game_not_shown(e: AppError) -> AnyView {
    crate::app::set_page_status(&e);
    let heading = if e.status() == 403 { "Partie non visible" } else { "Partie introuvable" };
    view! { <section class="text-page"><h1>{heading}</h1><p class="error" role="alert">{e.to_string()}</p></section> }
        .into_any()
}

#[island(lazy)]
fn Replay(game: GameView, preferences: Preferences) -> impl IntoView {
    crate::app::count_live_island();
    let Ok(replayed) = game.replay() else {
        return view! { <p class="error">"Cette partie ne se rejoue pas."</p> }.into_any();
    };
    let positions = replayed.positions();
    let played = replayed.played();
    let texts: Vec<(String, &'static str)> = played.iter().map(|(by, m)| (m.text.clone(), side_name(*by))).collect();
    let last = positions.len() - 1;
    let ply = RwSignal::new(last);
    let position = Signal::derive(move || positions[ply.get()]);
    let last_move = Memo::new(move |_| {
        let p = ply.get();
        (p > 0).then(|| ShownMove::new(played[p - 1].0, played[p - 1].1.clone()))
    });
    let seat = Seat::of(&game);
    let flipped = seat == Seat::Against(crate::engine::Color::Black);
    let title = view_title(&game);
    let rules = replayed.rules();
    let started_line =
        format!("{}. Partie commencée le {}.", variant_name(&rules), crate::app::describe::french_date(&game.day));
    let result = replayed.outcome().map(|o| outcome_text(o, seat, &rules)).unwrap_or_else(|| "Partie en cours.".into());
    let score = game
        .score
        .clone()
        .map(|s| format!("Score : {} ({}). Temps de jeu : {}.", s.score, s.breakdown(), clock_text(s.seconds * 1000)));
    let numbered: Vec<(usize, (String, &'static str))> = texts.into_iter().enumerate().collect();
    view! {
        <section class="play replay" aria-labelledby="titre-revoir">
            <h1 id="titre-revoir">{title}</h1>
            <div class="play-grid">
                <div class="board-wrap">
                    <ReadOnlyBoard position last_move preferences flipped/>
                </div>
                <div class="panel">
                    <p class="status over">{result}</p>
                    <p>{started_line}</p>
                    {game.outcome.is_some().then(|| view! {
                        <p><a class="button" href=format!("/analyse/{}", game.id)>"Analyser la partie"</a></p>
                    })}
                    {score.map(|s| view! { <p data-testid="score">{s}</p> })}
                    <PlyBrowser ply last/>
                    <h2>"Coups"</h2>
                    <ol class="moves replay-moves">
                        {numbered.into_iter().map(|(i, (text, who))| {
                            view! {
                                <li class="ply">
                                    <button
                                        type="button"
                                        class="ply-button"
                                        class:current=move || ply.get() == i + 1
                                        aria-label=format!("Coup {} ({who}) : {text}", i + 1)
                                        on:click=move |_| ply.set(i + 1)
                                    >{text.clone()}</button>
                                </li>
                            }
                        }).collect_view()}
                    </ol>
                </div>
            </div>
        </section>
    }
    .into_any()
}
