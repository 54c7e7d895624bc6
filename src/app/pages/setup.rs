//! `/nouvelle-partie`: setting up a game against the computer or between
//! two players: a variant, every rule it may change, and for the computer
//! its level and the player's colour. The form sends the address the game
//! pages read (`/partie-libre?regles=…&niveau=…&couleur=…`).

use crate::app::describe::{preset_name, promotion_text, variant_name};
use crate::app::pages::free::ranking_note;
use crate::engine::bot::Level;
use crate::engine::rules::MAX_DRAW_MOVES;
use crate::engine::{Color, Preset, Promotion, Rules};
use crate::protocol::game::rules_error_fr;
use crate::protocol::{AppError, GameSetup};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

/// Which game the form sets up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SetupMode {
    Computer,
    TwoPlayers,
}

impl SetupMode {
    fn action(self) -> &'static str {
        match self {
            SetupMode::Computer => "/partie-libre",
            SetupMode::TwoPlayers => "/deux-joueurs",
        }
    }
}

#[component]
pub fn SetupPage() -> impl IntoView {
    let query = use_query_map();
    let (mode, asked) = query.with_untracked(|q| {
        let mode = match q.get("mode").as_deref() {
            Some("deux-joueurs") => SetupMode::TwoPlayers,
            _ => SetupMode::Computer,
        };
        (mode, q.get("regles"))
    });
    let (rules, error) = match asked.as_deref().map(Rules::parse) {
        None => (Rules::INTERNATIONAL, None),
        Some(Ok(rules)) => (rules, None),
        Some(Err(e)) => (Rules::INTERNATIONAL, Some(rules_error_fr(&e))),
    };
    if let Some(why) = &error {
        crate::app::set_page_status(&AppError::BadRequest(why.clone()));
    }
    let heading = match mode {
        SetupMode::Computer => "Contre l'ordinateur",
        SetupMode::TwoPlayers => "1 contre 1 sur cet appareil",
    };
    view! {
        <Title text="Nouvelle partie — Dames"/>
        <section class="text-page setup">
            <h1>{heading}</h1>
            {error.map(|e| view! { <p class="error" role="alert" data-testid="erreur-reglages">{e}</p> })}
            <SetupForm mode=mode rules=rules.to_string()/>
        </section>
    }
}

/// The set-up form. Without JavaScript it still sends a variant (the radio
/// buttons carry the `regles` name); with it, any change to a rule writes
/// the whole rule set into one hidden `regles` field instead.
#[island]
pub fn SetupForm(mode: SetupMode, rules: String) -> impl IntoView {
    let rules = RwSignal::new(Rules::parse(&rules).unwrap_or(Rules::INTERNATIONAL));
    let level = RwSignal::new(Level::Intermediaire);
    let color = RwSignal::new(Color::White);
    let custom = Memo::new(move |_| rules.with(|r| r.preset().is_none()));
    let problem = Memo::new(move |_| rules.with(|r| r.check().err().map(|e| rules_error_fr(&e))));
    let spec = Memo::new(move |_| rules.with(|r| r.to_string()));
    let note = move || match mode {
        SetupMode::Computer => ranking_note(&GameSetup::new(rules.get(), level.get(), color.get())),
        SetupMode::TwoPlayers => "Les parties à deux ne sont pas classées.",
    };
    let update = move |change: fn(&mut Rules, String), value: String| rules.update(|r| change(r, value));
    view! {
        <form class="setup-form" method="get" action=mode.action()>
            <fieldset>
                <legend>"Variante"</legend>
                {Preset::ALL.into_iter().map(|preset| view! {
                    <label class="choice">
                        <input
                            type="radio"
                            name=move || (!custom.get()).then_some("regles")
                            value=preset.name()
                            prop:checked=move || rules.get() == preset.rules()
                            on:change=move |_| rules.set(preset.rules())
                        />
                        <span>{preset_name(preset)}</span>
                        <small>{variant_line(preset)}</small>
                    </label>
                }).collect_view()}
                <p class="chosen" data-testid="variante-choisie">{move || rules.with(variant_name)}</p>
            </fieldset>
            <input type="hidden" name=move || custom.get().then_some("regles") prop:value=move || spec.get()/>
            <details class="custom-rules" open=move || custom.get()>
                <summary>"Personnaliser les règles"</summary>
                <RuleField label="Damier" help="8 × 8 (32 cases), 10 × 10 (50 cases) ou 12 × 12 (72 cases).">
                    <select id="regle-size" on:change=move |ev| update(|r, v| {
                        r.size = v.parse().unwrap_or(r.size);
                        r.rows = r.size / 2 - 1;
                    }, event_target_value(&ev))>
                        {[8u8, 10, 12].map(|n| view! {
                            <option value=n.to_string() selected=move || rules.with(|r| r.size == n)>{format!("{n} × {n}")}</option>
                        }).into_iter().collect_view()}
                    </select>
                </RuleField>
                <RuleField label="Rangées de pions" help="Combien de rangées chaque camp remplit au départ.">
                    <input id="regle-rows" type="number" min="1" max="5"
                        prop:value=move || rules.with(|r| r.rows.to_string())
                        on:change=move |ev| update(|r, v| r.rows = v.parse().unwrap_or(r.rows), event_target_value(&ev))/>
                </RuleField>
                <RuleField label="Trait au départ" help="Le camp qui joue le premier coup.">
                    <select id="regle-first" on:change=move |ev| update(|r, v| {
                        r.first = if v == "black" { Color::Black } else { Color::White };
                    }, event_target_value(&ev))>
                        <option value="white" selected=move || rules.with(|r| r.first == Color::White)>"Blancs"</option>
                        <option value="black" selected=move || rules.with(|r| r.first == Color::Black)>"Noirs"</option>
                    </select>
                </RuleField>
                <RuleFlag id="regle-mandatory" label="Prise obligatoire" help="Quand une prise est possible, il faut prendre (une rafle commencée se joue jusqu'au bout dans tous les cas)."
                    value=Signal::derive(move || rules.with(|r| r.mandatory)) set=move |on| rules.update(|r| r.mandatory = on)/>
                <RuleFlag id="regle-majority" label="Prise majoritaire" help="Parmi les prises, il faut choisir celle qui prend le plus de pièces."
                    value=Signal::derive(move || rules.with(|r| r.majority)) set=move |on| rules.update(|r| r.majority = on)/>
                <RuleFlag id="regle-men-back" label="Les pions prennent en arrière" help="Un pion peut prendre vers son propre camp (il n'avance toujours que vers l'avant)."
                    value=Signal::derive(move || rules.with(|r| r.men_back)) set=move |on| rules.update(|r| r.men_back = on)/>
                <RuleFlag id="regle-flying" label="Dames volantes" help="Une dame va aussi loin qu'elle veut en diagonale et prend à distance ; sinon elle avance d'une case."
                    value=Signal::derive(move || rules.with(|r| r.flying)) set=move |on| rules.update(|r| r.flying = on)/>
                <RuleField label="Pion arrivé au bout pendant une rafle" help="Ce que devient un pion qui touche la dernière rangée au milieu d'une prise.">
                    <select id="regle-promotion" on:change=move |ev| update(|r, v| {
                        r.promotion = Promotion::ALL.into_iter().find(|p| p.name() == v).unwrap_or(r.promotion);
                    }, event_target_value(&ev))>
                        {Promotion::ALL.into_iter().map(|p| view! {
                            <option value=p.name() selected=move || rules.with(|r| r.promotion == p)>{promotion_text(p)}</option>
                        }).collect_view()}
                    </select>
                </RuleField>
                <RuleField label="Nulle sans progrès (coups de chaque côté)" help="Partie nulle après tant de coups de chaque côté sans prise ni mouvement de pion (0 : jamais).">
                    <input id="regle-draw-moves" type="number" min="0" max=MAX_DRAW_MOVES.to_string()
                        prop:value=move || rules.with(|r| r.draw_moves.to_string())
                        on:change=move |ev| update(|r, v| r.draw_moves = v.parse().unwrap_or(r.draw_moves), event_target_value(&ev))/>
                </RuleField>
                <RuleFlag id="regle-repetition" label="Nulle par répétition" help="La même position, avec le même camp au trait, revenue trois fois : partie nulle."
                    value=Signal::derive(move || rules.with(|r| r.repetition)) set=move |on| rules.update(|r| r.repetition = on)/>
            </details>
            {(mode == SetupMode::Computer).then(|| view! {
                <fieldset>
                    <legend>"L'ordinateur"</legend>
                    <label class="field">
                        "Niveau "
                        <select name="niveau" on:change=move |ev| {
                            if let Ok(l) = event_target_value(&ev).parse::<Level>() {
                                level.set(l);
                            }
                        }>
                            {Level::ALL.into_iter().map(|l| view! {
                                <option value=l.name() selected=move || level.get() == l>{l.label()}</option>
                            }).collect_view()}
                        </select>
                    </label>
                    <div class="field" role="radiogroup" aria-label="Votre couleur">
                        <label class="choice"><input type="radio" name="couleur" value="blancs"
                            prop:checked=move || color.get() == Color::White on:change=move |_| color.set(Color::White)/>"Je joue les blancs"</label>
                        <label class="choice"><input type="radio" name="couleur" value="noirs"
                            prop:checked=move || color.get() == Color::Black on:change=move |_| color.set(Color::Black)/>"Je joue les noirs"</label>
                    </div>
                </fieldset>
            })}
            <p class="hint" data-testid="classement-note">{note}</p>
            {move || problem.get().map(|p| view! { <p class="error" role="alert">{p}</p> })}
            <button type="submit" class="primary" disabled=move || problem.get().is_some()>"Commencer la partie"</button>
        </form>
    }
}

/// One line on what a variant is.
fn variant_line(preset: Preset) -> &'static str {
    match preset {
        Preset::International => "10 × 10, 20 pions chacun, dames volantes, prise majoritaire.",
        Preset::English => "8 × 8, les noirs commencent, dames courtes, prise au choix.",
        Preset::Russian => "8 × 8, dames volantes, prise au choix, le pion couronné en passant continue en dame.",
        Preset::Brazilian => "Les règles internationales sur un damier de 8 × 8.",
    }
}

/// A rule with a control and a line on what it does.
#[component]
fn RuleField(label: &'static str, help: &'static str, children: Children) -> impl IntoView {
    view! {
        <div class="rule">
            <label>
                <span class="rule-name">{label}</span>
                {children()}
            </label>
            <small>{help}</small>
        </div>
    }
}

/// A rule that is on or off.
#[component]
fn RuleFlag(
    id: &'static str,
    label: &'static str,
    help: &'static str,
    value: Signal<bool>,
    set: impl Fn(bool) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <div class="rule">
            <label>
                <input id=id type="checkbox" prop:checked=move || value.get() on:change=move |ev| set(event_target_checked(&ev))/>
                <span class="rule-name">{label}</span>
            </label>
            <small>{help}</small>
        </div>
    }
}
