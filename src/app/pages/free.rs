//! `/partie-libre`: a game against the computer, set up by the address
//! (`?regles=english&niveau=fort&couleur=noirs`) or the latest one.

use crate::app::pages::setup::{refused, SetupMode};
use crate::app::play::Play;
use crate::protocol::{GameKind, GameSetup};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

#[component]
pub fn FreePage() -> impl IntoView {
    let asked = use_query_map().with_untracked(|q| {
        GameSetup::from_query(
            GameKind::Free,
            q.get("regles").as_deref(),
            q.get("niveau").as_deref(),
            q.get("couleur").as_deref(),
        )
    });
    view! {
        <Title text="Contre l'ordinateur — Dames"/>
        {match asked {
            Ok(setup) => {
                let note = setup.as_ref().map(ranking_note);
                view! {
                    <Play kind=GameKind::Free setup=setup/>
                    <p class="intro after-board">
                        "Une partie contre l'ordinateur, à votre rythme. Chaque partie est différente. "
                        {note}
                        " "
                        <a href="/nouvelle-partie?mode=ordinateur">"Choisir les règles, le niveau et la couleur"</a>
                    </p>
                }.into_any()
            }
            Err(e) => refused(SetupMode::Computer, e.0).into_any(),
        }}
    }
}

/// Whether a game set up so counts for the leaderboards, said before it
/// starts.
pub fn ranking_note(setup: &GameSetup) -> &'static str {
    if setup.is_ranked(GameKind::Free) {
        "Une victoire compte pour le classement de cette variante et de ce niveau."
    } else if setup.player == crate::engine::Color::Black {
        "Partie non classée : seules les parties avec les blancs sont classées."
    } else {
        "Partie non classée : seules les variantes internationale, anglaise et russe sont classées."
    }
}
