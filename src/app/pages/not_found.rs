//! The page for unknown addresses, served with status 404.

use leptos::prelude::*;
use leptos_meta::Title;

#[component]
pub fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(axum::http::StatusCode::NOT_FOUND);
    }
    view! {
        <Title text="Page introuvable — Dames"/>
        <section class="text-page">
            <h1>"Page introuvable"</h1>
            <p>"Cette adresse ne mène à aucune page. Le damier vous attend ailleurs :"</p>
            <ul>
                <li><a href="/">"le défi du jour"</a></li>
                <li><a href="/partie-libre">"une partie libre"</a></li>
                <li><a href="/regles">"les règles"</a></li>
            </ul>
        </section>
    }
}
