//! `/partie-libre`: a free game at the level the player picks.

use crate::app::play::Play;
use crate::engine::bot::Level;
use crate::protocol::GameKind;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

#[component]
pub fn FreePage() -> impl IntoView {
    // `?niveau=fort` asks for a game at that level; without it (or with an
    // unknown name) the latest free game goes on.
    let level = use_query_map().with_untracked(|q| q.get("niveau").and_then(|l| l.parse::<Level>().ok()));
    view! {
        <Title text="Partie libre — Dames"/>
        <p class="intro">
            "Une partie contre l'ordinateur, à votre rythme. Chaque partie est différente. "
            "Choisissez le niveau de la prochaine partie à côté du damier."
        </p>
        <Play kind=GameKind::Free level=level/>
    }
}
