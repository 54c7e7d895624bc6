//! `/analyse`: the analysis board. Any rule set, from the start, a FEN or a
//! game read from PDN (pasted or from a file); both sides' moves played on
//! the board; the engine's evaluation and best line on request; the
//! position and the line exported as FEN and PDN. Nothing is stored.

use crate::app::board::Board;
use crate::app::bundle::{go_to_full_bundle, BundlePreload};
use crate::app::call::ServerCall;
use crate::app::describe::ShownMove;
use crate::app::electronic::PositionEditor;
use crate::app::input::MoveOptions;
use crate::app::pages::analysis::eval_text;
use crate::app::panel::{PlyBrowser, TypedMoveForm};
use crate::engine::analysis::PositionSearch;
use crate::engine::any::{AnyGame, AnyPosition};
use crate::engine::{FenError, PositionError, Preset, Rules};
use crate::protocol::error::{fen_error_fr, rules_error_fr};
use crate::protocol::{AppError, ImportedGame, Preferences};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

#[server(endpoint = "analyse/evaluer", output = crate::protocol::codec::JsonText)]
pub async fn evaluate_position(rules: String, fen: String) -> Result<PositionSearch, AppError> {
    use crate::server::{analysis_board, api};
    Ok(analysis_board::evaluate(&api::RequestContext::current()?, rules, fen).await?)
}

#[server(endpoint = "analyse/importer", output = crate::protocol::codec::JsonText)]
pub async fn import_pdn(text: String, index: usize) -> Result<ImportedGame, AppError> {
    use crate::server::{analysis_board, api};
    Ok(analysis_board::import_pdn(&api::RequestContext::current()?, text, index).await?)
}

/// The board's rules, start and line from the address
/// (`?regles=english&fen=…&coups=…`, the moves in long form, separated by
/// spaces), international from its start when absent; a bad one is a 400
/// with the reason.
#[component]
pub fn AnalysisBoardPage() -> impl IntoView {
    let query = use_query_map();
    let asked = query.with_untracked(|q| {
        let start = start_from(q.get("regles").as_deref(), q.get("fen").as_deref())?;
        let moves = line_from(start, q.get("coups").as_deref().unwrap_or_default())?;
        Ok::<_, AppError>((start, moves))
    });
    view! {
        <Title text="Échiquier d'analyse — Dames"/>
        {match asked {
            Ok((start, moves)) => {
                let preferences = crate::app::settings::current_preferences();
                view! {
                    <BundlePreload size=start.rules().size/>
                    <AnalysisBoard rules=start.rules() start_fen=start.to_fen() moves preferences/>
                }
                .into_any()
            }
            Err(e) => {
                crate::app::set_page_status(&e);
                view! {
                    <section class="text-page">
                        <h1>"Échiquier d'analyse"</h1>
                        <p class="error" role="alert">{e.to_string()}</p>
                        <p><a href="/analyse">"Repartir de la position de départ"</a></p>
                    </section>
                }.into_any()
            }
        }}
    }
}

fn start_from(rules: Option<&str>, fen: Option<&str>) -> Result<AnyPosition, AppError> {
    let rules = match rules {
        Some(text) => Rules::parse(text).map_err(|e| AppError::BadRequest(rules_error_fr(&e)))?,
        None => Rules::INTERNATIONAL,
    };
    match fen {
        Some(fen) => AnyPosition::from_fen(fen, rules).map_err(|e| AppError::BadRequest(fen_error_fr(&e))),
        None => AnyPosition::initial(rules).map_err(|e| AppError::BadRequest(e.to_string())),
    }
}

/// The moves of `text` (long forms separated by spaces), each legal in
/// turn from `start`.
fn line_from(start: AnyPosition, text: &str) -> Result<Vec<String>, AppError> {
    let mut game = AnyGame::new(start);
    text.split_whitespace()
        .enumerate()
        .map(|(i, long)| match game.play_long(long) {
            Ok(_) => Ok(long.to_string()),
            Err(_) => Err(AppError::BadRequest(format!(
                "Le coup {} de la ligne, « {} », n'est pas jouable.",
                i + 1,
                crate::protocol::error::clip_quote(long)
            ))),
        })
        .collect()
}

/// The address of the analysis board under `rules`, from `fen` (else
/// their start) with the line `moves`: where the board goes when the
/// running code lacks it (see [`crate::app::bundle`]).
fn address_of(rules: Rules, fen: Option<&str>, moves: &[String]) -> String {
    use crate::app::panel::percent_encode;
    let mut address = format!("/analyse?regles={}", percent_encode(&rules.to_string()));
    if let Some(fen) = fen {
        address.push_str(&format!("&fen={}", percent_encode(fen)));
    }
    if !moves.is_empty() {
        address.push_str(&format!("&coups={}", percent_encode(&moves.join(" "))));
    }
    address
}

/// What the board holds: its rules and start, the line played from there,
/// and the position shown.
#[derive(Clone, Copy)]
struct Line {
    start: RwSignal<AnyPosition>,
    moves: RwSignal<Vec<String>>,
    ply: RwSignal<usize>,
    game: Memo<AnyGame>,
    /// The line's positions and moves, worked out once per line (not once
    /// per position shown).
    positions: Memo<Vec<AnyPosition>>,
    played: Memo<Vec<(crate::engine::Color, crate::engine::any::MoveChoice)>>,
}

impl Line {
    /// `moves` from `start`, the start shown.
    fn new(start: AnyPosition, moves: Vec<String>) -> Line {
        let (start, moves, ply) = (RwSignal::new(start), RwSignal::new(moves), RwSignal::new(0));
        let game = Memo::new(move |_| {
            let mut game = AnyGame::new(start.get());
            moves.with(|moves| moves.iter().take_while(|m| game.play_long(m).is_ok()).count());
            game
        });
        let positions = Memo::new(move |_| game.with(AnyGame::positions));
        let played = Memo::new(move |_| game.with(AnyGame::played));
        Line { start, moves, ply, game, positions, played }
    }

    /// A new start: the line is cleared.
    fn restart(self, start: AnyPosition, moves: Vec<String>) {
        self.start.set(start);
        self.moves.set(moves);
        self.ply.set(0);
    }

    /// A move played on the position shown: the line goes on from there.
    fn play(self, long: String) {
        let at = self.ply.get_untracked();
        self.moves.update(|moves| {
            moves.truncate(at);
            moves.push(long);
        });
        self.ply.set(at + 1);
    }

    fn position(self) -> AnyPosition {
        let at = self.ply.get();
        self.positions.with(|p| p.get(at).or(p.last()).copied()).unwrap_or_else(|| self.start.get())
    }

    fn rules(self) -> Rules {
        self.start.with(|s| s.rules())
    }
}

#[island(lazy)]
fn AnalysisBoard(rules: Rules, start_fen: String, moves: Vec<String>, preferences: Preferences) -> impl IntoView {
    crate::app::count_live_island();
    let start = AnyPosition::from_fen(&start_fen, rules).expect("the page checked the start");
    let line = Line::new(start, moves);
    let position = Signal::derive(move || line.position());
    let options = Signal::derive(move || {
        let at_end = line.ply.get() == line.game.with(AnyGame::ply_count);
        if at_end && line.game.with(AnyGame::is_over) {
            MoveOptions::none()
        } else {
            MoveOptions::new(&position.get())
        }
    });
    let last_move = Signal::derive(move || {
        let at = line.ply.get();
        line.played
            .with(|played| at.checked_sub(1).and_then(|i| played.get(i).cloned()))
            .map(|(by, mv)| ShownMove::new(by, mv))
    });
    // The engine's look, kept with the position it is of.
    let look = RwSignal::new(None::<(String, PositionSearch)>);
    let current_look = Signal::derive(move || {
        let fen = position.get().to_fen();
        look.with(|l| l.as_ref().filter(|(of, _)| *of == fen).map(|(_, s)| s.clone()))
    });
    let hint = Signal::derive(move || {
        let turn = position.get().turn();
        current_look.get().and_then(|s| match s {
            PositionSearch::Searched { best, .. } => Some(ShownMove::new(turn, best)),
            PositionSearch::Forced { only } => Some(ShownMove::new(turn, only)),
            PositionSearch::Over { .. } => None,
        })
    });
    let flipped = RwSignal::new(false);
    view! {
        <section class="play analysis-board" aria-labelledby="titre-echiquier">
            <h1 id="titre-echiquier">"Échiquier d'analyse"</h1>
            <div class="play-grid">
                <div class="board-wrap">
                    <Board
                        position=position
                        options=options
                        last_move=last_move
                        hint=hint
                        on_play=Callback::new(move |long| line.play(long))
                        preferences=Signal::derive(move || preferences)
                        flipped=flipped
                    />
                </div>
                <div class="panel">
                    <p class="status" data-testid="statut">{move || turn_text(&position.get(), line)}</p>
                    <LineBrowser line flipped/>
                    <TypedMove line position options/>
                    <EngineLook position look current_look/>
                    <LineMoves line/>
                </div>
            </div>
            <div class="analysis-tools">
                <RulesPicker line/>
                <FenLoader line/>
                <SetUp line/>
                <PdnImport line/>
                <Export line/>
            </div>
        </section>
    }
}

/// Whose move it is, or how the line ended.
fn turn_text(position: &AnyPosition, line: Line) -> String {
    let at_end = line.ply.get() == line.game.with(AnyGame::ply_count);
    match line.game.with(AnyGame::outcome) {
        Some(outcome) if at_end => {
            crate::app::status::outcome_text(outcome, crate::app::status::Seat::Shared, &line.rules())
        }
        _ => format!("Trait aux {}.", crate::app::status::side_name(position.turn())),
    }
}

/// The line browsed, and the board turned round.
#[component]
fn LineBrowser(line: Line, flipped: RwSignal<bool>) -> impl IntoView {
    view! {
        <PlyBrowser ply=line.ply last=Signal::derive(move || line.game.with(AnyGame::ply_count))/>
        <div class="buttons">
            <button type="button" on:click=move |_| flipped.update(|f| *f = !*f) aria-pressed=move || flipped.get().to_string()>
                "Retourner le damier"
            </button>
        </div>
    }
}

/// A move typed in notation, for the side to move.
#[component]
fn TypedMove(line: Line, position: Signal<AnyPosition>, options: Signal<MoveOptions>) -> impl IntoView {
    let call = ServerCall::new();
    let on_play = Callback::new(move |long: String| {
        call.error.set(None);
        line.play(long);
    });
    view! {
        <TypedMoveForm position can_play=Signal::derive(move || !options.with(|o| o.moves.is_empty())) on_play call/>
        {move || call.error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
    }
}

/// The engine's evaluation and best line of the position shown, asked for
/// with a button (never searched on a page view).
#[component]
fn EngineLook(
    position: Signal<AnyPosition>,
    look: RwSignal<Option<(String, PositionSearch)>>,
    current_look: Signal<Option<PositionSearch>>,
) -> impl IntoView {
    let call = ServerCall::new();
    let ask = move |_| {
        let position = position.get_untracked();
        let fen = position.to_fen();
        let of = fen.clone();
        call.send(evaluate_position(position.rules().to_string(), fen), move |search| look.set(Some((of, search))));
    };
    view! {
        <div class="engine-look" data-testid="evaluation">
            <button type="button" class="primary" on:click=ask disabled=move || call.pending.get()>
                {move || if call.pending.get() { "L'ordinateur réfléchit…" } else { "Évaluer la position" }}
            </button>
            {move || call.error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            {move || current_look.get().map(|search| view! { <p aria-live="polite">{look_text(&search)}</p> })}
        </div>
    }
}

/// The engine's look in words.
fn look_text(search: &PositionSearch) -> String {
    match search {
        PositionSearch::Over { eval } => format!("Partie finie : {}.", eval_text(*eval)),
        PositionSearch::Forced { only } => format!("Un seul coup possible : {}.", only.text),
        PositionSearch::Searched { eval, best, line, depth, .. } => format!(
            "Évaluation : {}. Meilleur coup : {} (ligne : {} ; profondeur {depth}).",
            eval_text(*eval),
            best.text,
            line.join(" ")
        ),
    }
}

/// The line's moves; a move pressed shows the position after it.
#[component]
fn LineMoves(line: Line) -> impl IntoView {
    let texts = Memo::new(move |_| line.played.with(|p| p.iter().map(|(_, m)| m.text.clone()).collect::<Vec<_>>()));
    view! {
        <ol class="moves replay-moves" data-testid="ligne" aria-label="Coups de la ligne">
            <For
                each=move || texts.get().into_iter().enumerate()
                key=|(i, text)| (*i, text.clone())
                children=move |(i, text)| view! {
                    <li class="ply">
                        <button
                            type="button"
                            class="ply-button"
                            class:current=move || line.ply.get() == i + 1
                            on:click=move |_| line.ply.set(i + 1)
                        >{text}</button>
                    </li>
                }
            />
        </ol>
    }
}

/// A variant, or rules in their text form: the board starts again from
/// their start.
#[component]
fn RulesPicker(line: Line) -> impl IntoView {
    let text = RwSignal::new(line.rules().to_string());
    let error = RwSignal::new(None::<String>);
    let apply = move |spec: String| match Rules::parse(spec.trim()) {
        Ok(rules) => match AnyPosition::initial(rules) {
            Ok(start) => {
                error.set(None);
                text.set(rules.to_string());
                line.restart(start, Vec::new());
            }
            Err(PositionError::BoardNotBuilt(_)) => go_to_full_bundle(&address_of(rules, None, &[])),
            Err(e) => error.set(Some(fen_error_fr(&FenError::Position(e)))),
        },
        Err(e) => error.set(Some(rules_error_fr(&e))),
    };
    view! {
        <fieldset class="tool">
            <legend>"Règles"</legend>
            <div class="buttons">
                {Preset::ALL.into_iter().map(|preset| view! {
                    <button type="button" on:click=move |_| apply(preset.rules().to_string())>
                        {crate::app::describe::preset_name(preset)}
                    </button>
                }).collect_view()}
            </div>
            <form class="typed" on:submit=move |ev: leptos::ev::SubmitEvent| {
                ev.prevent_default();
                apply(text.get_untracked());
            }>
                <label for="regles-texte">"Règles sur mesure (forme texte, par exemple international,size=8)"</label>
                <div>
                    <input id="regles-texte" type="text" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))/>
                    <button type="submit">"Appliquer"</button>
                </div>
            </form>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
        </fieldset>
    }
}

/// A position typed or pasted in FEN, under the board's rules.
#[component]
fn FenLoader(line: Line) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let load = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        match AnyPosition::from_fen(text.get_untracked().trim(), line.rules()) {
            Ok(start) => {
                error.set(None);
                line.restart(start, Vec::new());
            }
            Err(e) => error.set(Some(format!("FEN refusée : {}", fen_error_fr(&e)))),
        }
    };
    view! {
        <fieldset class="tool">
            <legend>"Position (FEN)"</legend>
            <form class="typed" on:submit=load>
                <label for="fen-texte">"Une position en FEN, par exemple W:W31-50:B1-20"</label>
                <div>
                    <input id="fen-texte" type="text" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))/>
                    <button type="submit">"Charger la position"</button>
                </div>
            </form>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
        </fieldset>
    }
}

/// A position set up square by square with the electronic board's editor,
/// on the board of the current rules.
#[component]
fn SetUp(line: Line) -> impl IntoView {
    let editing = RwSignal::new(false);
    let idle = RwSignal::new(false);
    let take = Callback::new(move |(fen, _): (String, crate::engine::Color)| {
        if let Ok(start) = AnyPosition::from_fen(&fen, line.rules()) {
            line.restart(start, Vec::new());
            editing.set(false);
        }
    });
    view! {
        <fieldset class="tool">
            <legend>"Mettre en place"</legend>
            <Show
                when=move || editing.get()
                fallback=move || view! {
                    <div class="buttons">
                        <button type="button" on:click=move |_| editing.set(true)>"Mettre en place une position"</button>
                    </div>
                }
            >
                <PositionEditor
                    start=line.position()
                    hint="La position mise en place remplace la ligne sur le damier."
                    done_label="Analyser cette position"
                    on_done=take
                    on_cancel=Callback::new(move |_| editing.set(false))
                    busy=idle
                />
            </Show>
        </fieldset>
    }
}

/// A game read from PDN, pasted or from a file; a file of many games
/// offers to pick one.
#[component]
fn PdnImport(line: Line) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let games = RwSignal::new(Vec::<String>::new());
    let chosen = RwSignal::new(0usize);
    let call = ServerCall::new();
    let import = move |index: usize| {
        call.send(import_pdn(text.get_untracked(), index), move |imported: ImportedGame| {
            match AnyPosition::from_fen(&imported.start_fen, imported.rules) {
                Ok(start) => {
                    chosen.set(imported.index);
                    games.set(imported.games);
                    line.restart(start, imported.moves);
                }
                Err(FenError::Position(PositionError::BoardNotBuilt(_))) => {
                    go_to_full_bundle(&address_of(imported.rules, Some(&imported.start_fen), &imported.moves))
                }
                // The server read the game from this start: nothing else fails.
                Err(_) => {}
            }
        });
    };
    let on_file = move |ev: leptos::ev::Event| read_file(ev, text);
    view! {
        <fieldset class="tool">
            <legend>"Importer une partie (PDN)"</legend>
            <form class="pdn-import" on:submit=move |ev: leptos::ev::SubmitEvent| {
                ev.prevent_default();
                import(0);
            }>
                <label for="pdn-texte">"Collez le texte PDN"</label>
                <textarea id="pdn-texte" rows="4" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                <label for="pdn-fichier">"ou choisissez un fichier .pdn"</label>
                <input id="pdn-fichier" type="file" accept=".pdn,.txt,text/plain" on:change=on_file/>
                <div class="buttons"><button type="submit" disabled=move || call.pending.get()>"Importer"</button></div>
            </form>
            {move || call.error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            {move || (games.get().len() > 1).then(|| view! {
                <label for="pdn-partie">"Partie du fichier"</label>
                <select id="pdn-partie" on:change=move |ev| import(event_target_value(&ev).parse().unwrap_or(0))>
                    {games.get().into_iter().enumerate().map(|(i, name)| view! {
                        <option value=i.to_string() selected=move || chosen.get() == i>{name}</option>
                    }).collect_view()}
                </select>
            })}
        </fieldset>
    }
}

/// Puts a chosen file's text in the PDN field (read by the browser).
fn read_file(ev: leptos::ev::Event, text: RwSignal<String>) {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsCast;
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        let Some(file) = input.files().and_then(|files| files.get(0)) else { return };
        leptos::task::spawn_local(async move {
            if let Ok(read) = wasm_bindgen_futures::JsFuture::from(file.text()).await {
                text.set(read.as_string().unwrap_or_default());
            }
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (ev, text);
}

/// The position shown in FEN and the line up to it in PDN, to copy.
#[component]
fn Export(line: Line) -> impl IntoView {
    let fen = move || line.position().to_fen();
    let pdn = move || {
        let at = line.ply.get();
        let mut game = AnyGame::new(line.start.get());
        line.moves.with(|moves| moves.iter().take(at).take_while(|m| game.play_long(m).is_ok()).count());
        // The rules' tags and the start's FEN are written with the moves.
        game.pdn(&[("Event", "Échiquier d'analyse")], "*")
    };
    view! {
        <fieldset class="tool">
            <legend>"Exporter"</legend>
            <label for="export-fen">"Position (FEN)"</label>
            <input id="export-fen" type="text" readonly prop:value=fen data-testid="export-fen"/>
            <label for="export-pdn">"Ligne jusqu'à la position (PDN)"</label>
            <textarea id="export-pdn" rows="4" readonly prop:value=pdn data-testid="export-pdn"></textarea>
        </fieldset>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_address_gives_the_rules_and_the_start_or_a_french_refusal() {
        assert_eq!(start_from(None, None).unwrap(), AnyPosition::initial(Rules::INTERNATIONAL).unwrap());
        let english = start_from(Some("english"), Some("B:W21-32:B1-12")).unwrap();
        assert_eq!(english.rules(), Rules::parse("english").unwrap());
        assert!(matches!(start_from(Some("english"), Some("W:W31-50:B1-20")), Err(AppError::BadRequest(_))));
        assert!(matches!(start_from(Some("nimporte"), None), Err(AppError::BadRequest(_))));
    }

    #[test]
    fn the_address_gives_a_line_played_from_the_start() {
        let twelve = Rules::parse("international,size=12").unwrap();
        let start = start_from(Some(&twelve.to_string()), None).unwrap();
        assert_eq!(line_from(start, " 43-37  25-31 ").unwrap(), ["43-37", "25-31"]);
        let Err(AppError::BadRequest(why)) = line_from(start, "43-37 43-37") else { panic!("a man moved twice") };
        assert_eq!(why, "Le coup 2 de la ligne, « 43-37 », n'est pas jouable.");
        let moves = ["43-37".to_string(), "25-31".to_string()];
        assert_eq!(
            address_of(twelve, Some("W:W43-72:B1-30"), &moves),
            "/analyse?regles=international%2Csize%3D12&fen=W%3AW43-72%3AB1-30&coups=43-37%2025-31"
        );
    }
}
