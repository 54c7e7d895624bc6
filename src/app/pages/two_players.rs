//! `/deux-joueurs`: two people on one device, any rules
//! (`?regles=english`), or the latest such game.

use crate::app::pages::setup::{refused, SetupMode};
use crate::app::play::Play;
use crate::protocol::{GameKind, GameSetup};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

#[component]
pub fn TwoPlayersPage() -> impl IntoView {
    let asked = use_query_map()
        .with_untracked(|q| GameSetup::from_query(GameKind::TwoPlayers, q.get("regles").as_deref(), None, None));
    view! {
        <Title text="1 contre 1 — Dames"/>
        {match asked {
            Ok(setup) => view! {
                <Play kind=GameKind::TwoPlayers setup=setup/>
                <p class="intro after-board">
                    "Deux joueurs, un seul écran : chacun joue son camp à son tour. Partie non classée. "
                    <a href="/nouvelle-partie?mode=deux-joueurs">"Choisir les règles"</a>
                </p>
            }.into_any(),
            Err(e) => refused(SetupMode::TwoPlayers, e.0).into_any(),
        }}
    }
}
