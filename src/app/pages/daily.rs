//! `/`: the daily challenge.

use crate::app::game_state::GameKind;
use crate::app::play::Play;
use leptos::prelude::*;
use leptos_meta::Title;

#[component]
pub fn DailyPage() -> impl IntoView {
    view! {
        <Title text="Défi du jour — Dames"/>
        <p class="intro">
            "Aujourd'hui, tout le monde affronte le même ordinateur : aux mêmes coups, il répond pareil. "
            "Gagnez vite et avec le plus de pièces possible. Nouveau défi chaque jour à minuit (UTC)."
        </p>
        <Play kind=GameKind::Daily/>
    }
}
