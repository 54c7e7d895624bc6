//! `/nouvelle-partie`: setting up a game against the computer or between
//! two players: a variant, every rule it may change, and for the computer
//! its level and the player's colour. A plain form, read on the server (no
//! browser code, and it works without JavaScript): "Commencer la partie"
//! answers with a redirect to the address the game pages read
//! (`/partie-libre?regles=…&niveau=…&couleur=…`, `/deux-joueurs?regles=…`).

use crate::app::describe::{preset_name, promotion_text};
use crate::engine::any::Layout;
use crate::engine::bot::Level;
use crate::engine::rules::MAX_DRAW_MOVES;
use crate::engine::{Color, Preset, Promotion, Rules};
use crate::protocol::error::rules_error_fr;
use crate::protocol::{AppError, GameKind, GameSetup};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

/// Which game the form sets up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupMode {
    Computer,
    TwoPlayers,
}

impl SetupMode {
    fn name(self) -> &'static str {
        match self {
            SetupMode::Computer => "ordinateur",
            SetupMode::TwoPlayers => "deux-joueurs",
        }
    }
}

/// Where the form is posted: the server reads it there, starts the game
/// when the computer has the first move, and sends the player on to the
/// game (or back to the form, to show it again). A page view of the form
/// itself stores nothing.
pub const START_PATH: &str = "/nouvelle-partie/commencer";

/// What the form asks for once read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormAnswer {
    /// Show the form with these rules, level and colour in its fields (and
    /// an error, if the address or the fields were wrong).
    Show { rules: Rules, level: Level, color: Color, error: Option<String> },
    /// Start the game set up so at this address (its page).
    Play { address: String, kind: GameKind, setup: GameSetup },
}

/// Reads the form (or an address): `field` gives a query parameter.
///
/// The custom rules' fields were filled from the rules in `affiche`; a
/// variant picked since (`variante` names another one) starts from that
/// variant instead, so that a player who only picks a variant gets it
/// exactly, with or without JavaScript. "Partir de la variante choisie"
/// (`action=variante`) shows the chosen variant's rules in the fields.
pub fn read_form(mode: SetupMode, field: impl Fn(&str) -> Option<String>) -> FormAnswer {
    let level =
        field("niveau").and_then(|l| l.parse::<Level>().ok()).filter(|l| Level::ALL.contains(l)).unwrap_or_default();
    let color = if field("couleur").as_deref() == Some("noirs") { Color::Black } else { Color::White };
    let show = |rules: Rules, error: Option<String>| FormAnswer::Show { rules, level, color, error };
    let shown = match field("affiche").or_else(|| field("regles")) {
        None => Rules::INTERNATIONAL,
        Some(text) => match Rules::parse(&text) {
            Ok(rules) => rules,
            Err(e) => return show(Rules::INTERNATIONAL, Some(rules_error_fr(&e))),
        },
    };
    let variant = field("variante").and_then(|name| Preset::ALL.into_iter().find(|p| p.name() == name));
    let action = field("action");
    if action.as_deref() == Some("variante") {
        return show(variant.map_or(shown, Preset::rules), None);
    }
    if action.as_deref() != Some("jouer") {
        return show(shown, None);
    }
    // The custom fields count only when the form sent them (an address
    // written by hand may not): a missing box would read as "off".
    let has_fields = field("trait").is_some();
    let rules = match variant {
        Some(v) if v != shown.closest_preset() => v.rules(),
        _ if !has_fields => shown,
        _ => match rules_from_fields(shown, &field) {
            Ok(rules) => rules,
            Err((asked, error)) => return show(asked, Some(error)),
        },
    };
    let spec = crate::app::panel::percent_encode(&rules.to_string());
    let (address, kind) = match mode {
        SetupMode::TwoPlayers => (format!("/deux-joueurs?regles={spec}"), GameKind::TwoPlayers),
        SetupMode::Computer => {
            let colour = if color == Color::Black { "noirs" } else { "blancs" };
            (format!("/partie-libre?regles={spec}&niveau={}&couleur={colour}", level.name()), GameKind::Free)
        }
    };
    FormAnswer::Play { address, kind, setup: GameSetup { rules, level, player: color } }
}

/// The rules the custom fields say, starting from `shown` (an unticked
/// box is absent from a form: off); refused, the rules as asked (to show
/// them again) and why.
fn rules_from_fields(shown: Rules, field: &impl Fn(&str) -> Option<String>) -> Result<Rules, (Rules, String)> {
    let number = |name: &str, label: &str| -> Result<Option<u8>, (Rules, String)> {
        field(name)
            .map(|v| {
                v.trim().parse::<u8>().map_err(|_| (shown, format!("Valeur impossible pour « {label} » : {v:.10}.")))
            })
            .transpose()
    };
    let on = |name: &str| field(name).is_some();
    let mut rules = Rules {
        mandatory: on("obligatoire"),
        majority: on("majoritaire"),
        men_back: on("arriere"),
        flying: on("volantes"),
        repetition: on("repetition"),
        ..shown
    };
    if let Some(size) = number("taille", "Damier")? {
        rules.size = size;
    }
    if let Some(rows) = number("rangees", "Rangées de pions")? {
        rules.rows = rows;
    }
    if let Some(draw_moves) = number("nulle", "Nulle sans progrès")? {
        rules.draw_moves = draw_moves;
    }
    rules.first = if field("trait").as_deref() == Some("noirs") { Color::Black } else { Color::White };
    if let Some(name) = field("promotion") {
        rules.promotion = Promotion::ALL.into_iter().find(|p| p.name() == name).unwrap_or(rules.promotion);
    }
    rules.check().map_err(|e| (rules, rules_error_fr(&e)))?;
    Ok(rules)
}

#[component]
pub fn SetupPage() -> impl IntoView {
    let query = use_query_map();
    let mode = query.with_untracked(|q| match q.get("mode").as_deref() {
        Some("deux-joueurs") => SetupMode::TwoPlayers,
        _ => SetupMode::Computer,
    });
    match query.with_untracked(|q| read_form(mode, |name| q.get(name))) {
        FormAnswer::Play { address, .. } => {
            crate::app::redirect_page(&address);
            view! { <p><a href=address>"Commencer la partie"</a></p> }.into_any()
        }
        FormAnswer::Show { rules, level, color, error } => setup_page(mode, rules, level, color, error).into_any(),
    }
}

/// A set-up the address of a game page got wrong: the set-up form, with
/// the reason in French, served as a 400.
pub fn refused(mode: SetupMode, why: String) -> impl IntoView {
    setup_page(mode, Rules::INTERNATIONAL, Level::default(), Color::White, Some(why))
}

/// The page around the form.
fn setup_page(mode: SetupMode, rules: Rules, level: Level, color: Color, error: Option<String>) -> impl IntoView {
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
            <SetupForm mode=mode rules=rules level=level color=color/>
        </section>
    }
}

/// The set-up form, filled with `rules`, `level` and `color`.
#[component]
pub fn SetupForm(mode: SetupMode, rules: Rules, level: Level, color: Color) -> impl IntoView {
    let shown_variant = rules.preset();
    let note = match mode {
        SetupMode::Computer => {
            "Une victoire avec les blancs, dans une des variantes internationale, anglaise ou russe, compte pour le \
             classement de son niveau ; les autres parties ne sont pas classées."
        }
        SetupMode::TwoPlayers => "Les parties à deux ne sont pas classées.",
    };
    let start_button =
        || view! { <button type="submit" name="action" value="jouer" class="primary">"Commencer la partie"</button> };
    view! {
        <form class="setup-form" method="post" action=START_PATH>
            <input type="hidden" name="mode" value=mode.name()/>
            <input type="hidden" name="affiche" value=rules.to_string()/>
            <fieldset>
                <legend>"Variante"</legend>
                {Preset::ALL.into_iter().map(|preset| view! {
                    <label class="choice">
                        <input type="radio" name="variante" value=preset.name()
                            checked=shown_variant == Some(preset) || (shown_variant.is_none() && rules.closest_preset() == preset)/>
                        <span>{preset_name(preset)}</span>
                        <small>{variant_line(preset)}</small>
                    </label>
                }).collect_view()}
                {shown_variant.is_none().then(|| view! {
                    <p class="chosen" data-testid="variante-choisie">"Règles personnalisées, à partir de la variante cochée."</p>
                })}
            </fieldset>
            {(mode == SetupMode::Computer).then(|| view! {
                <fieldset>
                    <legend>"L'ordinateur"</legend>
                    <label class="field">
                        "Niveau "
                        <select name="niveau">
                            {Level::ALL.into_iter().map(|l| view! {
                                <option value=l.name() selected=l == level>{l.label()}</option>
                            }).collect_view()}
                        </select>
                    </label>
                    <div class="field" role="radiogroup" aria-label="Votre couleur">
                        <label class="choice"><input type="radio" name="couleur" value="blancs" checked=color == Color::White/>"Je joue les blancs"</label>
                        <label class="choice"><input type="radio" name="couleur" value="noirs" checked=color == Color::Black/>"Je joue les noirs"</label>
                    </div>
                </fieldset>
            })}
            <p class="hint" data-testid="classement-note">{note}</p>
            {start_button()}
            <details class="custom-rules" open=shown_variant.is_none()>
                <summary>"Personnaliser les règles"</summary>
                <p class="hint">
                    "Ces règles sont celles de la variante affichée. Pour partir d'une autre variante, cochez-la puis : "
                    <button type="submit" name="action" value="variante">"Partir de la variante cochée"</button>
                </p>
                <RuleField label="Damier" help=size_help()>
                    <select name="taille" id="regle-size">
                        {Rules::SIZES.map(|n| view! { <option value=n.to_string() selected=rules.size == n>{format!("{n} × {n}")}</option> })
                            .into_iter().collect_view()}
                    </select>
                </RuleField>
                <RuleField label="Rangées de pions" help=rows_help()>
                    <input name="rangees" id="regle-rows" type="number" min="1" max=most_rows().to_string() value=rules.rows.to_string()/>
                </RuleField>
                <RuleField label="Trait au départ" help="Le camp qui joue le premier coup.">
                    <select name="trait" id="regle-first">
                        <option value="blancs" selected=rules.first == Color::White>"Blancs"</option>
                        <option value="noirs" selected=rules.first == Color::Black>"Noirs"</option>
                    </select>
                </RuleField>
                <RuleFlag name="obligatoire" label="Prise obligatoire" on=rules.mandatory
                    help="Quand une prise est possible, il faut prendre (une rafle commencée se joue jusqu'au bout dans tous les cas)."/>
                <RuleFlag name="majoritaire" label="Prise majoritaire" on=rules.majority
                    help="Parmi les prises, il faut choisir celle qui prend le plus de pièces."/>
                <RuleFlag name="arriere" label="Les pions prennent en arrière" on=rules.men_back
                    help="Un pion peut prendre vers son propre camp (il n'avance toujours que vers l'avant)."/>
                <RuleFlag name="volantes" label="Dames volantes" on=rules.flying
                    help="Une dame va aussi loin qu'elle veut en diagonale et prend à distance ; sinon elle avance d'une case."/>
                <RuleField label="Pion arrivé au bout pendant une rafle" help="Ce que devient un pion qui touche la dernière rangée au milieu d'une prise.">
                    <select name="promotion" id="regle-promotion">
                        {Promotion::ALL.into_iter().map(|p| view! {
                            <option value=p.name() selected=rules.promotion == p>{promotion_text(p)}</option>
                        }).collect_view()}
                    </select>
                </RuleField>
                <RuleField label="Nulle sans progrès (coups de chaque côté)" help="Partie nulle après tant de coups de chaque côté sans prise ni mouvement de pion (0 : jamais).">
                    <input name="nulle" id="regle-draw-moves" type="number" min="0" max=MAX_DRAW_MOVES.to_string() value=rules.draw_moves.to_string()/>
                </RuleField>
                <RuleFlag name="repetition" label="Nulle par répétition" on=rules.repetition
                    help="La même position, avec le même camp au trait, revenue trois fois : partie nulle."/>
                {start_button()}
            </details>
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
fn RuleField(label: &'static str, #[prop(into)] help: String, children: Children) -> impl IntoView {
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

/// The board sizes the rules allow, in words: "8 × 8 (32 cases), 10 × 10
/// (50 cases) ou 12 × 12 (72 cases)."
fn size_help() -> String {
    let sizes: Vec<String> =
        Rules::SIZES.iter().map(|&n| format!("{n} × {n} ({} cases)", Layout { size: n }.squares())).collect();
    french_list(&sizes) + "."
}

/// The rows each board size takes, in words.
fn rows_help() -> String {
    let limits: Vec<String> = Rules::SIZES.iter().map(|n| format!("{n} × {n} : 1 à {}", Rules::max_rows(*n))).collect();
    format!("Combien de rangées chaque camp remplit au départ (sur {}).", limits.join(" ; "))
}

/// The most rows of men any board takes.
fn most_rows() -> u8 {
    Rules::SIZES.into_iter().map(Rules::max_rows).max().unwrap_or(1)
}

/// "a, b ou c".
fn french_list(items: &[String]) -> String {
    match items.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} ou {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// A rule that is on or off.
#[component]
fn RuleFlag(name: &'static str, label: &'static str, help: &'static str, on: bool) -> impl IntoView {
    view! {
        <div class="rule">
            <label>
                <input id=format!("regle-{name}") name=name value="1" type="checkbox" checked=on/>
                <span class="rule-name">{label}</span>
            </label>
            <small>{help}</small>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl FormAnswer {
        /// The game page to go to, when the form asked to play.
        fn address(&self) -> Option<&str> {
            match self {
                FormAnswer::Play { address, .. } => Some(address),
                FormAnswer::Show { .. } => None,
            }
        }
    }

    fn read(mode: SetupMode, pairs: &[(&str, &str)]) -> FormAnswer {
        read_form(mode, |name| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string()))
    }

    /// The fields as the form shows them for `rules`, ticked boxes only.
    fn fields(rules: &Rules) -> Vec<(&'static str, String)> {
        let mut out = vec![
            ("affiche", rules.to_string()),
            ("variante", rules.closest_preset().name().to_string()),
            ("taille", rules.size.to_string()),
            ("rangees", rules.rows.to_string()),
            ("trait", if rules.first == Color::White { "blancs" } else { "noirs" }.to_string()),
            ("promotion", rules.promotion.name().to_string()),
            ("nulle", rules.draw_moves.to_string()),
        ];
        for (name, on) in [
            ("obligatoire", rules.mandatory),
            ("majoritaire", rules.majority),
            ("arriere", rules.men_back),
            ("volantes", rules.flying),
            ("repetition", rules.repetition),
        ] {
            if on {
                out.push((name, "1".to_string()));
            }
        }
        out
    }

    fn submit(
        mode: SetupMode,
        fields: &[(&'static str, String)],
        extra: &[(&'static str, &'static str)],
    ) -> FormAnswer {
        // The first value of a name counts: `extra` overrides the fields.
        let mut pairs: Vec<(&str, &str)> = extra.to_vec();
        pairs.extend(fields.iter().map(|(k, v)| (*k, v.as_str())));
        read(mode, &pairs)
    }

    #[test]
    fn the_form_says_what_the_engine_allows() {
        assert_eq!(size_help(), "8 × 8 (32 cases), 10 × 10 (50 cases) ou 12 × 12 (72 cases).");
        assert_eq!(
            rows_help(),
            "Combien de rangées chaque camp remplit au départ (sur 8 × 8 : 1 à 3 ; 10 × 10 : 1 à 4 ; 12 × 12 : 1 à 5)."
        );
        assert_eq!(most_rows(), 5);
    }

    #[test]
    fn each_variant_is_played_as_it_is_and_its_fields_round_trip() {
        for preset in Preset::ALL {
            let answer = submit(SetupMode::TwoPlayers, &fields(&preset.rules()), &[("action", "jouer")]);
            assert_eq!(
                answer.address(),
                Some(format!("/deux-joueurs?regles={}", preset.name()).as_str()),
                "{preset:?}"
            );
        }
    }

    #[test]
    fn a_variant_picked_after_the_fields_were_filled_is_taken_whole() {
        // The fields show international rules; the player ticks "russes"
        // and starts: Russian rules, not the fields' 10×10.
        let mut shown = fields(&Rules::INTERNATIONAL);
        shown.retain(|(k, _)| *k != "variante");
        shown.push(("variante", "russian".into()));
        let answer =
            submit(SetupMode::Computer, &shown, &[("action", "jouer"), ("couleur", "noirs"), ("niveau", "fort")]);
        assert_eq!(answer.address(), Some("/partie-libre?regles=russian&niveau=fort&couleur=noirs"));
        let answer = submit(SetupMode::Computer, &shown, &[("action", "variante")]);
        assert!(matches!(answer, FormAnswer::Show { rules: Rules::RUSSIAN, error: None, .. }), "{answer:?}");
    }

    #[test]
    fn custom_fields_make_custom_rules_and_bad_ones_say_why_in_french() {
        let mut custom = fields(&Rules::RUSSIAN);
        custom.retain(|(k, _)| *k != "volantes");
        let answer = submit(SetupMode::Computer, &custom, &[("action", "jouer")]);
        assert_eq!(
            answer.address(),
            Some("/partie-libre?regles=russian%2Cflying%3D0&niveau=intermediaire&couleur=blancs")
        );
        let mut too_many_rows = fields(&Rules::ENGLISH);
        too_many_rows.retain(|(k, _)| *k != "rangees");
        too_many_rows.push(("rangees", "4".into()));
        match submit(SetupMode::TwoPlayers, &too_many_rows, &[("action", "jouer")]) {
            FormAnswer::Show { error: Some(e), rules, .. } => {
                assert!(e.contains("rangées"), "{e}");
                assert_eq!(rules, Rules { rows: 4, ..Rules::ENGLISH }, "the form comes back as sent");
            }
            other => panic!("{other:?}"),
        }
        let bad_address = read(SetupMode::Computer, &[("regles", "polish")]);
        assert!(matches!(bad_address, FormAnswer::Show { error: Some(e), .. } if e.contains("Variante inconnue")));
        assert!(matches!(
            read(SetupMode::Computer, &[("regles", "english")]),
            FormAnswer::Show { rules: Rules::ENGLISH, error: None, .. }
        ));
        // An address without the form's fields plays the rules it names.
        let by_hand =
            read(SetupMode::Computer, &[("affiche", "english"), ("variante", "english"), ("action", "jouer")]);
        assert_eq!(by_hand.address(), Some("/partie-libre?regles=english&niveau=intermediaire&couleur=blancs"));
    }
}
