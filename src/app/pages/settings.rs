//! `/reglages`: the player's preferences, a plain form read on the server
//! (no browser code, and it works without JavaScript): "Enregistrer" posts
//! it to [`SAVE_PATH`], which keeps it in a cookie and comes back here.

use crate::app::settings::current_preferences;
use crate::protocol::preferences::field;
use crate::protocol::{Palette, Preferences, RafleInput};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

/// Where the form is posted.
pub const SAVE_PATH: &str = "/reglages/enregistrer";
/// Where the server sends the player once the settings are kept.
pub const SAVED_ADDRESS: &str = "/reglages?enregistre=1";

#[component]
pub fn SettingsPage() -> impl IntoView {
    let preferences = current_preferences();
    let saved = use_query_map().with_untracked(|q| q.get("enregistre").is_some());
    view! {
        <Title text="Réglages — Dames"/>
        <section class="settings" aria-labelledby="titre-reglages">
            <h1 id="titre-reglages">"Réglages"</h1>
            {saved.then(|| view! {
                <p class="saved" role="status">"Réglages enregistrés : ils valent pour toutes vos parties sur cet appareil."</p>
            })}
            <form method="post" action=SAVE_PATH>
                <PaletteChoice chosen=preferences.palette/>
                <fieldset>
                    <legend>"Le damier"</legend>
                    <Switch name=field::NUMBERS on=preferences.numbers label="Numéros des cases"/>
                    <Switch
                        name=field::DESTINATIONS
                        on=preferences.destinations
                        label="Montrer les destinations possibles de la pièce choisie"
                    />
                </fieldset>
                <MoveEntry preferences/>
                <fieldset>
                    <legend>"Son"</legend>
                    <Switch
                        name=field::SOUND
                        on=preferences.sound
                        label="Un son pour chaque coup, chaque prise et la fin de la partie"
                    />
                </fieldset>
                <button type="submit" class="primary">"Enregistrer"</button>
            </form>
            <p><a href="/">"Retour au défi du jour"</a></p>
        </section>
    }
}

/// The board's colours, each with a sample of its squares.
#[component]
fn PaletteChoice(chosen: Palette) -> impl IntoView {
    view! {
        <fieldset class="palettes">
            <legend>"Couleurs du damier"</legend>
            {Palette::ALL.into_iter().map(|palette| view! {
                <label class="palette-option" data-palette=palette.name()>
                    <input type="radio" name=field::PALETTE value=palette.name() checked=palette == chosen/>
                    <span class="swatch" aria-hidden="true">
                        <span class="sq light"></span>
                        <span class="sq dark"><span class="piece wm"></span></span>
                        <span class="sq dark"><span class="piece bm"></span></span>
                        <span class="sq light"></span>
                    </span>
                    {palette.label()}
                </label>
            }).collect_view()}
        </fieldset>
    }
}

/// How moves are entered: confirmation, and rafles.
#[component]
fn MoveEntry(preferences: Preferences) -> impl IntoView {
    view! {
        <fieldset>
            <legend>"Jouer un coup"</legend>
            <Switch
                name=field::CONFIRM
                on=preferences.confirm_moves
                label="Confirmer chaque coup avant de l'envoyer (« Jouer » ou « Annuler »)"
            />
            <fieldset class="inner">
                <legend>"Rafles"</legend>
                {RafleInput::ALL.into_iter().map(|mode| view! {
                    <label>
                        <input type="radio" name=field::RAFLE value=mode.name() checked=mode == preferences.rafle_input/>
                        {mode.label()}
                    </label>
                }).collect_view()}
            </fieldset>
        </fieldset>
    }
}

/// One setting on or off: a checkbox, sent only when ticked.
#[component]
fn Switch(name: &'static str, on: bool, label: &'static str) -> impl IntoView {
    view! {
        <label class="switch">
            <input type="checkbox" name=name value="1" checked=on/>
            {label}
        </label>
    }
}
