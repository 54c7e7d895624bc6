//! What the player sees: the HTML shell, the router and the pages, rendered
//! on the server and hydrated in the browser.

pub mod board;
pub mod bundle;
pub mod call;
pub mod describe;
pub mod diagram;
pub mod electronic;
pub mod input;
pub mod motion;
pub mod offline;
pub mod pages;
pub mod panel;
pub mod play;
pub mod settings;
pub mod sound;
pub mod status;

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, MetaTags, Title};
use leptos_router::components::{Route, Router, Routes, A};
use leptos_router::{path, SsrMode};

/// A page that shows an error is served with the error's HTTP status (as
/// [`crate::protocol::AppError::status`] decides it; `server/statuses.rs`
/// does the same for server functions' answers).
pub fn set_page_status(error: &crate::protocol::AppError) {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        if let Ok(status) = axum::http::StatusCode::from_u16(error.status()) {
            response.set_status(status);
        }
    }
    let _ = error;
}

/// Counts an island as live, in `window.__damesIslands`, for the browser
/// tests (`waitForHydration` in `end2end/tests/helpers.ts`): the page's
/// own flag is set before any island hydrates, and a lazy island hydrates
/// only once its chunk has arrived. Every island calls it first.
pub fn count_live_island() {
    #[cfg(feature = "hydrate")]
    {
        let (global, key) = (js_sys::global(), wasm_bindgen::JsValue::from_str("__damesIslands"));
        let live = js_sys::Reflect::get(&global, &key).ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
        let _ = js_sys::Reflect::set(&global, &key, &(live + 1.0).into());
    }
}

/// A page that answers with a redirect (a form read on the server): `303
/// See Other` to `path`, followed by every browser.
pub fn redirect_page(path: &str) {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(axum::http::StatusCode::SEE_OTHER);
        if let Ok(location) = axum::http::HeaderValue::from_str(path) {
            response.insert_header(axum::http::header::LOCATION, location);
        }
    }
    let _ = path;
}

/// The HTML document around the app. The bundle's folder carries its
/// content hash (see `server::Config::leptos_options`), so the
/// stylesheet's does too; which bundle a page loads, [`bundle`] says.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    let css = format!("/{}/{}.css", options.site_pkg_dir, options.output_name);
    let folder = bundle::BundleFolder::of(&options);
    provide_context(folder.clone());
    view! {
        <!DOCTYPE html>
        <html lang="fr">
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <meta name="description" content="Dames internationales, anglaises, russes et brésiliennes : un défi par jour, contre l'ordinateur ou à deux."/>
                <meta name="theme-color" content="#2b2118"/>
                <link rel="stylesheet" href=css/>
                <link rel="icon" href="/favicon.svg" type="image/svg+xml"/>
                <bundle::BundleScripts folder/>
                // Before the browser code arrives, taps on the board are
                // answered from what the server wrote (first_taps.js).
                <script>{include_str!("first_taps.js")}</script>
                <script>{include_str!("offline.js")}</script>
                <link rel="manifest" href="/manifest.webmanifest"/>
                <link rel="apple-touch-icon" href="/icone-192.png"/>
                <MetaTags/>
            </head>
            <body data-palette=settings::current_preferences().palette.name()>
                <App/>
            </body>
        </html>
    }
}

#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    view! {
        <Title text="Dames"/>
        <Router>
            <a class="skip" href="#contenu">"Aller au contenu"</a>
            <header class="site">
                <A href="/" attr:class="brand">"Dames"</A>
                <nav aria-label="Menu principal">
                    <A href="/">"Défi du jour"</A>
                    <A href="/partie-libre">"Partie libre"</A>
                    <A href="/deux-joueurs">"1 contre 1"</A>
                    <A href="/dames-electroniques">"Électronique"</A>
                    <A href="/analyse">"Analyse"</A>
                    <A href="/classement">"Classement"</A>
                    <A href="/regles">"Règles"</A>
                    <A href="/reglages">"Réglages"</A>
                </nav>
            </header>
            <p id="sans-connexion" class="offline-notice" role="status" hidden>
                "Pas de connexion : le défi du jour et les classements attendront. "
                <a href="/hors-ligne">"Jouer sur cet appareil"</a>
            </p>
            <main id="contenu">
                <Routes fallback=pages::not_found::NotFound>
                    <Route path=path!("/") view=pages::daily::DailyPage ssr=SsrMode::Async/>
                    <Route path=path!("/partie-libre") view=pages::free::FreePage ssr=SsrMode::Async/>
                    <Route path=path!("/deux-joueurs") view=pages::two_players::TwoPlayersPage ssr=SsrMode::Async/>
                    <Route path=path!("/nouvelle-partie") view=pages::setup::SetupPage/>
                    <Route path=path!("/dames-electroniques") view=pages::electronic::ElectronicPage ssr=SsrMode::Async/>
                    <Route path=path!("/regles") view=pages::rules::RulesPage/>
                    <Route path=path!("/classement") view=pages::leaderboard::LeaderboardPage ssr=SsrMode::Async/>
                    <Route path=path!("/partie/:id") view=pages::replay::ReplayPage ssr=SsrMode::Async/>
                    <Route path=path!("/analyse") view=pages::analysis_board::AnalysisBoardPage/>
                    <Route path=path!("/analyse/:id") view=pages::analysis::AnalysisPage ssr=SsrMode::Async/>
                    <Route path=path!("/reglages") view=pages::settings::SettingsPage/>
                    <Route path=path!("/hors-ligne") view=pages::offline::OfflinePage/>
                </Routes>
            </main>
            <footer class="site">
                <p>"Dames internationales (FMJD), anglaises, russes et brésiliennes. L'ordinateur ne connaît que le plateau et les règles."</p>
                <p><a href="/hors-ligne">"Jouer sur cet appareil, même sans connexion"</a></p>
            </footer>
        </Router>
    }
}
