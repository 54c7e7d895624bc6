//! The electronic board's face beside the board: its display (the
//! computer's move, the move number, the side to move, the level, the
//! thinking light and the hint), its buttons, and the level picker.

use super::DeviceActions;
use crate::app::describe::ShownMove;
use crate::app::play::GameSignals;
use crate::app::status::side_name;
use crate::engine::bot::{Level, Step};
use crate::engine::Color;
use leptos::prelude::*;

/// The device's display.
#[component]
pub fn DeviceDisplay(
    signals: GameSignals,
    player: Memo<Color>,
    step: Memo<u8>,
    hinted: RwSignal<Option<ShownMove>>,
    busy: RwSignal<bool>,
) -> impl IntoView {
    let GameSignals { game, turn, last_move, .. } = signals;
    let computer_move =
        move || last_move.get().filter(|m| m.by != player.get()).map_or_else(|| "--".to_string(), |m| m.text);
    // Move numbers count from White's move, as on the board's display; a
    // position set up with Black to move starts with Black's half.
    let move_number = move || {
        game.with(|g| {
            let black_first = usize::from(g.start().turn() == Color::Black);
            format!("Coup {}", (g.ply_count() + black_first) / 2 + 1)
        })
    };
    view! {
        <div class="lcd" aria-label="Écran de l'appareil">
            <p class="lcd-move" data-testid="lcd-coup">{computer_move}</p>
            <p class="lcd-line">
                <span data-testid="lcd-numero">{move_number}</span>
                <span>{move || format!("Trait : {}", side_name(turn.get()))}</span>
                <span data-testid="lcd-niveau">{move || format!("Niveau {}", step.get())}</span>
            </p>
            <p class="lcd-line">
                <span class="lcd-thinking" class:on=move || busy.get()>"Réflexion"</span>
                <span data-testid="lcd-conseil">{move || hinted.get().map(|h| format!("Conseil {}", h.text))}</span>
            </p>
        </div>
    }
}

/// Take back, hint, switch sides, new game, set up: each usable only when
/// it means something (never while a request is out).
#[component]
pub fn DeviceButtons(actions: DeviceActions, signals: GameSignals) -> impl IntoView {
    let GameSignals { outcome, started, players_turn, turn, .. } = signals;
    let (editing, back_to) = (actions.editing, actions.back_to);
    let busy = actions.link.pending();
    let idle = move || !busy.get();
    view! {
        <div class="buttons">
            <button type="button" on:click=move |_| actions.take_back()
                disabled=move || !idle() || !started.get() || back_to.get().is_none() || editing.get()>"Reprendre"</button>
            <button type="button" on:click=move |_| actions.hint()
                disabled=move || !idle() || !players_turn.get() || editing.get()>"Conseil"</button>
            <button type="button" on:click=move |_| actions.switch_sides(turn.get_untracked())
                disabled=move || !idle() || outcome.get().is_some() || editing.get()>"Changer de camp"</button>
            <button type="button" on:click=move |_| actions.new_game() disabled=move || !idle()>"Nouvelle partie"</button>
            <button type="button" on:click=move |_| editing.update(|e| *e = !*e)
                aria-pressed=move || editing.get().to_string() disabled=move || !idle()>"Mettre en place"</button>
        </div>
    }
}

/// The ladder's eight steps.
#[component]
pub fn LadderPicker(step: Memo<u8>, busy: RwSignal<bool>, on_pick: Callback<u8>) -> impl IntoView {
    let on_change = move |ev: leptos::ev::Event| {
        if let Ok(n) = event_target_value(&ev).parse::<u8>() {
            on_pick.run(n);
        }
    };
    view! {
        <label class="level">
            "Niveau "
            <select on:change=on_change disabled=move || busy.get()>
                {Step::ALL.into_iter().map(|s| view! {
                    <option value=s.get().to_string() selected=move || step.get() == s.get()>{Level::Ladder(s).label()}</option>
                }).collect_view()}
            </select>
        </label>
    }
}
