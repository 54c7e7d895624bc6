//! `/`: the daily challenge's board first, then a countdown to the next
//! one and the other ways to play (also in the header, one tap away).

use crate::app::play::Play;
use crate::protocol::GameKind;
use leptos::prelude::*;
use leptos_meta::Title;

#[component]
pub fn DailyPage() -> impl IntoView {
    view! {
        <Title text="Défi du jour — Dames"/>
        <Play kind=GameKind::Daily setup=None/>
        <p class="intro after-board">
            "Aujourd'hui, tout le monde affronte le même ordinateur : aux mêmes coups, il répond pareil. "
            "Gagnez vite et avec le plus de pièces possible. "
            <Countdown/>
        </p>
        <WaysToPlay/>
    }
}

/// "Prêt à jouer ?": the ways in, each with a line on what it is.
#[component]
fn WaysToPlay() -> impl IntoView {
    view! {
        <nav class="ways" aria-labelledby="pret-a-jouer">
            <h2 id="pret-a-jouer">"Prêt à jouer ?"</h2>
            <ul>
                <li>
                    <a href="#titre-partie">"Défi du jour"</a>
                    <span>"Le même ordinateur pour tous aujourd'hui, et un classement du jour."</span>
                </li>
                <li>
                    <a href="/nouvelle-partie?mode=ordinateur">"Contre l'ordinateur"</a>
                    <span>"Internationales, anglaises, russes ou brésiliennes, trois niveaux, blancs ou noirs."</span>
                </li>
                <li>
                    <a href="/nouvelle-partie?mode=deux-joueurs">"1 contre 1 local"</a>
                    <span>"Deux joueurs sur le même appareil, chacun son tour."</span>
                </li>
                <li>
                    <a href="/dames-electroniques">"Dames électroniques"</a>
                    <span>"Le damier électronique : huit niveaux, reprendre, conseil, mise en place."</span>
                </li>
                <li>
                    <a href="/hors-ligne">"Sur cet appareil"</a>
                    <span>"Les mêmes parties sans connexion, gardées sur cet appareil (jamais classées)."</span>
                </li>
            </ul>
        </nav>
    }
}

/// "Prochain défi dans 3 h 12 min (à 01:00)": the next 00:00 UTC in the
/// player's own time. Rendered in the browser only, which knows the
/// player's clock and time zone.
#[island]
fn Countdown() -> impl IntoView {
    crate::app::count_live_island();
    let text = RwSignal::new(String::from("Un nouveau défi chaque jour à minuit (UTC)."));
    #[cfg(feature = "hydrate")]
    {
        let update = move || text.set(next_challenge_text(js_sys::Date::now()));
        Effect::new(move |_| update());
        if let Ok(handle) = set_interval_with_handle(update, std::time::Duration::from_secs(30)) {
            on_cleanup(move || handle.clear());
        }
    }
    view! { <span data-testid="compte-a-rebours">{move || text.get()}</span> }
}

/// The countdown text at `now_ms` (milliseconds since the epoch).
#[cfg(feature = "hydrate")]
fn next_challenge_text(now_ms: f64) -> String {
    const DAY_MS: f64 = 86_400_000.0;
    let next = (now_ms / DAY_MS).floor() * DAY_MS + DAY_MS;
    let left_min = ((next - now_ms) / 60_000.0).ceil() as u64;
    let local = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(next));
    let at = format!("{:02}:{:02}", local.get_hours(), local.get_minutes());
    format!("Prochain défi dans {} h {:02} min (à {at}, heure locale).", left_min / 60, left_min % 60)
}
