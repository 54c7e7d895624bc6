//! `/hors-ligne`: play on this device, with or without a connection. The
//! games against the computer, between two players and on the electronic
//! board are kept on the device and answered by the browser itself
//! ([`crate::app::offline`]); the service worker serves this page when the
//! network does not answer. The daily challenge and the leaderboards need
//! the server, and say so.

use crate::app::bundle::BundlePreload;
use crate::app::call::ServerCall;
use crate::app::describe::{variant_name, view_title};
use crate::app::electronic::ElectronicScreen;
use crate::app::offline::{self, DeviceRequest};
use crate::app::play::GameScreen;
use crate::app::status::{outcome_text, Seat};
use crate::engine::bot::Level;
use crate::engine::{Color, Preset, Rules};
use crate::protocol::{GameKind, GameSetup, GameView, Preferences};
use leptos::prelude::*;
use leptos_meta::Title;

/// Where the service worker sends a navigation the network does not answer.
pub const OFFLINE_PATH: &str = "/hors-ligne";

#[component]
pub fn OfflinePage() -> impl IntoView {
    let preferences = crate::app::settings::current_preferences();
    view! {
        <Title text="Jouer sur cet appareil — Dames"/>
        <section class="offline" aria-labelledby="titre-appareil">
            <h1 id="titre-appareil">"Jouer sur cet appareil"</h1>
            <p class="notice" data-testid="hors-ligne">
                "Sans connexion, les parties contre l'ordinateur, à deux et aux dames électroniques se jouent ici "
                "et restent sur cet appareil. Le défi du jour et les classements ont besoin du serveur : "
                "ils reviennent avec la connexion. Une partie jouée ici n'est jamais classée."
            </p>
            // The first bundle: no game kept on the device is 12×12.
            <BundlePreload size=10/>
            <DeviceGames preferences/>
        </section>
    }
}

/// The games kept on the device and a form for a new one; the game opened
/// takes their place.
#[island(lazy)]
fn DeviceGames(preferences: Preferences) -> impl IntoView {
    crate::app::count_live_island();
    let opened = RwSignal::new(None::<GameView>);
    let games = RwSignal::new(None::<Vec<GameView>>);
    let call = ServerCall::new();
    let refresh = move || call.send(offline::games(), move |list| games.set(Some(list)));
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| refresh());
    let open = Callback::new(move |view: GameView| opened.set(Some(view)));
    let close = move |_| {
        opened.set(None);
        refresh();
    };
    view! {
        {move || match opened.get() {
            Some(view) => view! {
                <button type="button" class="back" on:click=close>"← Parties de cet appareil"</button>
                <DeviceScreen view preferences/>
            }.into_any(),
            None => view! {
                <NewDeviceGame call on_open=open/>
                <DeviceGameList games call on_open=open on_forget=Callback::new(move |_| refresh())/>
            }.into_any(),
        }}
        {move || call.error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
    }
}

/// The game's own screen, answered by the device.
#[component]
fn DeviceScreen(view: GameView, preferences: Preferences) -> impl IntoView {
    if view.kind == GameKind::Electronic {
        view! { <ElectronicScreen initial=view preferences/> }.into_any()
    } else {
        view! { <GameScreen initial=view preferences/> }.into_any()
    }
}

/// A new game on the device: the way to play, the rules, the computer's
/// level and the player's side.
#[component]
fn NewDeviceGame(call: ServerCall, on_open: Callback<GameView>) -> impl IntoView {
    let kind = RwSignal::new(GameKind::Free);
    let preset = RwSignal::new(Preset::International);
    let level = RwSignal::new(Level::Intermediaire);
    let step = RwSignal::new(Level::LADDER[1]);
    let player = RwSignal::new(Color::White);
    let start = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let kind = kind.get_untracked();
        let setup = match kind {
            GameKind::Electronic => GameSetup::new(Rules::ELECTRONIC, step.get_untracked(), player.get_untracked()),
            _ => GameSetup::new(preset.get_untracked().rules(), level.get_untracked(), player.get_untracked()),
        };
        let request = offline::game_request(String::new(), DeviceRequest::New { kind, setup, fen: None });
        call.send(request, move |view| on_open.run(view));
    };
    let computer = move || kind.get() != GameKind::TwoPlayers;
    view! {
        <form class="device-new" on:submit=start aria-labelledby="nouvelle-appareil">
            <h2 id="nouvelle-appareil">"Nouvelle partie"</h2>
            <label>"Jeu "
                <select on:change=move |ev| kind.set(GameKind::from_name(&event_target_value(&ev)).unwrap_or(GameKind::Free))>
                    <option value="free" selected=true>"Contre l'ordinateur"</option>
                    <option value="two_players">"1 contre 1"</option>
                    <option value="electronic">"Dames électroniques"</option>
                </select>
            </label>
            <Show when=move || kind.get() != GameKind::Electronic>
                <label>"Règles "
                    <select on:change=move |ev| {
                        let name = event_target_value(&ev);
                        preset.set(Preset::ALL.into_iter().find(|p| p.name() == name).unwrap_or(Preset::International));
                    }>
                        {Preset::ALL.into_iter().map(|p| view! {
                            <option value=p.name() selected=move || preset.get() == p>{variant_name(&p.rules())}</option>
                        }).collect_view()}
                    </select>
                </label>
            </Show>
            <Show when=move || kind.get() == GameKind::Free>
                <LevelChoice levels=Level::ALL.to_vec() chosen=level/>
            </Show>
            <Show when=move || kind.get() == GameKind::Electronic>
                <LevelChoice levels=Level::LADDER.to_vec() chosen=step/>
            </Show>
            <Show when=computer>
                <label>"Je joue les "
                    <select on:change=move |ev| player.set(if event_target_value(&ev) == "noirs" { Color::Black } else { Color::White })>
                        <option value="blancs" selected=true>"blancs"</option>
                        <option value="noirs">"noirs"</option>
                    </select>
                </label>
            </Show>
            <button type="submit" class="primary" disabled=move || call.pending.get()>"Commencer la partie"</button>
        </form>
    }
}

/// A choice among `levels`.
#[component]
fn LevelChoice(levels: Vec<Level>, chosen: RwSignal<Level>) -> impl IntoView {
    view! {
        <label>"Niveau "
            <select on:change=move |ev| {
                if let Ok(level) = event_target_value(&ev).parse::<Level>() {
                    chosen.set(level);
                }
            }>
                {levels.into_iter().map(|l| view! {
                    <option value=l.name() selected=move || chosen.get() == l>{l.label()}</option>
                }).collect_view()}
            </select>
        </label>
    }
}

/// The games kept on the device, the latest first: resume, look again
/// (and export as PDN from the game's screen), or forget.
#[component]
fn DeviceGameList(
    games: RwSignal<Option<Vec<GameView>>>,
    call: ServerCall,
    on_open: Callback<GameView>,
    on_forget: Callback<()>,
) -> impl IntoView {
    let forget = move |id: String| {
        call.send(offline::answer_on_device(id, DeviceRequest::Forget), move |_| on_forget.run(()));
    };
    view! {
        <section class="device-games" aria-labelledby="parties-appareil">
            <h2 id="parties-appareil">"Parties de cet appareil"</h2>
            {move || match games.get() {
                None => view! { <p class="loading">"Lecture des parties…"</p> }.into_any(),
                Some(list) if list.is_empty() => view! { <p>"Aucune partie gardée ici pour l'instant."</p> }.into_any(),
                Some(list) => view! {
                    <ul data-testid="parties-appareil">
                        {list.into_iter().map(|game| {
                            let id = game.id.clone();
                            let (title, state) = (view_title(&game), game_state(&game));
                            let action = if game.outcome.is_some() { "Revoir" } else { "Reprendre" };
                            let shown = game.clone();
                            view! {
                                <li>
                                    <span class="title">{title}</span>
                                    <span class="state">{state}</span>
                                    <button type="button" on:click=move |_| on_open.run(shown.clone())>{action}</button>
                                    <button type="button" class="quiet" on:click=move |_| forget(id.clone())>"Oublier"</button>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                }.into_any(),
            }}
        </section>
    }
}

/// "12 coups · en cours", or the result.
fn game_state(game: &GameView) -> String {
    let plies = game.moves.len();
    let moves = if plies == 1 { "1 coup".to_string() } else { format!("{plies} coups") };
    let seat = if game.kind.against_computer() { Seat::Against(game.setup.player) } else { Seat::Shared };
    match game.replay().ok().and_then(|g| g.outcome()) {
        Some(outcome) => format!("{moves} · {}", outcome_text(outcome, seat, &game.setup.rules)),
        None => format!("{moves} · en cours"),
    }
}
