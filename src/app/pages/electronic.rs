//! `/dames-electroniques`: the electronic board, the player's latest game
//! on it or a new one.

use crate::app::bundle::BundlePreload;
use crate::app::electronic::ElectronicScreen;
use crate::app::play::load_game;
use crate::protocol::GameKind;
use leptos::prelude::*;
use leptos_meta::Title;

#[component]
pub fn ElectronicPage() -> impl IntoView {
    let loaded = Resource::new(|| (), |_| load_game(GameKind::Electronic, None));
    view! {
        <Title text="Dames électroniques — Dames"/>
        <Suspense fallback=|| view! { <p class="loading">"Mise en marche…"</p> }>
            {move || Suspend::new(async move {
                match loaded.await {
                    Ok(game) => {
                        let preferences = crate::app::settings::current_preferences();
                        let size = game.setup.rules.size;
                        view! { <BundlePreload size/> <ElectronicScreen initial=game preferences/> }.into_any()
                    }
                    Err(e) => {
                        crate::app::set_page_status(&e);
                        view! { <p class="error" role="alert">{e.to_string()}</p> }.into_any()
                    }
                }
            })}
        </Suspense>
        <p class="intro after-board">
            "Le damier électronique d'autrefois : huit niveaux, reprendre un coup, demander un conseil, "
            "changer de camp, mettre en place une position. Règles internationales, avec les règles de nulle "
            "de l'appareil : 25 coups de dames de chaque côté sans prise ni mouvement de pion, et une dame seule "
            "contre trois dames au plus, sans gain en 10 coups de chaque côté (vous pouvez alors continuer). "
            "Ces parties ne sont jamais classées."
        </p>
    }
}
