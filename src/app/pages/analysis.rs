//! `/analyse/<id>`: a finished game analysed by the engine: the evaluation
//! graph, each move's verdict with the engine's best move and line (drawn
//! on the board), and a summary per side; asked for with a button, its
//! progress shown as it runs on the server.

use crate::app::board::ReadOnlyBoard;
use crate::app::bundle::BundlePreload;
use crate::app::call::ServerCall;
use crate::app::describe::{view_title, ShownMove};
use crate::app::pages::replay::{game_not_shown, get_replay};
use crate::app::panel::PlyBrowser;
use crate::app::status::side_name;
use crate::engine::analysis::{Analysis, Eval, Men, PlyAnalysis, SideSummary, Verdict};
use crate::engine::Color;
use crate::protocol::{AnalysisState, AppError, GameView, Preferences};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

#[server(endpoint = "analyse/etat", output = crate::protocol::codec::JsonText)]
pub async fn get_analysis(game_id: String) -> Result<AnalysisState, AppError> {
    use crate::server::{analyses, api};
    Ok(analyses::analysis_of(&api::RequestContext::current()?, game_id).await?)
}

#[server(endpoint = "analyse/demander", output = crate::protocol::codec::JsonText)]
pub async fn request_analysis(game_id: String) -> Result<AnalysisState, AppError> {
    use crate::server::{analyses, api};
    Ok(analyses::request_analysis(&api::RequestContext::current()?, game_id).await?)
}

#[component]
pub fn AnalysisPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.with(|p| p.get("id").unwrap_or_default());
    let data = Resource::new(id, |id| async move {
        let game = get_replay(id.clone()).await?;
        let state = get_analysis(id).await?;
        Ok::<_, AppError>((game, state))
    });
    view! {
        <Title text="Analyse d'une partie — Dames"/>
        <Suspense fallback=|| view! { <p class="loading">"Chargement de l'analyse…"</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok((game, state)) => {
                        let preferences = crate::app::settings::current_preferences();
                        let size = game.setup.rules.size;
                        view! { <BundlePreload size/> <GameAnalysis game state preferences/> }.into_any()
                    }
                    Err(e) => game_not_shown(e),
                }
            })}
        </Suspense>
    }
}

/// The game on its board beside its analysis, or the button that asks for
/// it and the progress bar while it runs.
#[island(lazy)]
fn GameAnalysis(game: GameView, state: AnalysisState, preferences: Preferences) -> impl IntoView {
    crate::app::count_live_island();
    let Ok(replayed) = game.replay() else {
        return view! { <p class="error">"Cette partie ne se rejoue pas."</p> }.into_any();
    };
    let positions = replayed.positions();
    let played = replayed.played();
    let texts: Vec<(String, Color)> = played.iter().map(|(by, m)| (m.text.clone(), *by)).collect();
    let last = positions.len() - 1;
    let ply = RwSignal::new(0usize);
    let state = RwSignal::new(state);
    let analysis = Memo::new(move |_| match state.get() {
        AnalysisState::Done(analysis) => Some(*analysis),
        _ => None,
    });
    let position = Signal::derive(move || positions[ply.get()]);
    let last_move = Memo::new(move |_| {
        let p = ply.get();
        (p > 0).then(|| ShownMove::new(played[p - 1].0, played[p - 1].1.clone()))
    });
    // The engine's move in the position shown, drawn as a hint.
    let best = Memo::new(move |_| {
        let p = ply.get();
        analysis
            .with(|a| a.as_ref().and_then(|a| a.plies.get(p).map(|ply| ShownMove::new(ply.mover, ply.best.clone()))))
    });
    let flipped = game.kind.against_computer() && game.setup.player == Color::Black;
    let over = game.outcome.is_some();
    let game_id = game.id.clone();
    let call = ServerCall::new();
    watch_while_running(state, game_id.clone(), call);
    let ask = move |_| {
        let id = game_id.clone();
        call.send(request_analysis(id), move |answer| state.set(answer));
    };
    view! {
        <section class="play analysis" aria-labelledby="titre-analyse">
            <h1 id="titre-analyse">"Analyse : " {view_title(&game)}</h1>
            <div class="play-grid">
                <div class="board-wrap">
                    <ReadOnlyBoard position last_move hint=best preferences flipped/>
                </div>
                <div class="panel">
                    {move || match state.get() {
                        AnalysisState::Done(_) => None,
                        AnalysisState::Running { done, total } => Some(view! { <AnalysisProgress done total/> }.into_any()),
                        AnalysisState::NotStarted if over => Some(view! {
                            <p>"L'ordinateur évalue chaque position de la partie et juge chaque coup."</p>
                            <div class="buttons">
                                <button type="button" class="primary" on:click=ask.clone() disabled=move || call.pending.get()>
                                    "Analyser la partie"
                                </button>
                            </div>
                        }.into_any()),
                        AnalysisState::NotStarted => Some(view! {
                            <p class="status">"La partie n'est pas terminée : elle pourra être analysée une fois finie."</p>
                        }.into_any()),
                    }}
                    {move || call.error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
                    {move || analysis.get().map(|a| view! { <EvalGraph analysis=a ply/> })}
                    <PlyBrowser ply last/>
                    {move || analysis.get().map(|a| view! { <PlyVerdict analysis=a ply/> })}
                    {move || analysis.get().map(|a| view! { <SideSummaries analysis=a/> })}
                    <p><a href=format!("/partie/{}", game.id)>"Revoir la partie sans l'analyse"</a></p>
                </div>
            </div>
            <AnalysedMoves texts analysis ply/>
        </section>
    }
    .into_any()
}

/// While the analysis runs, asks the server how far it has gone, twice a
/// second, until it is done or stops.
fn watch_while_running(state: RwSignal<AnalysisState>, game_id: String, call: ServerCall) {
    Effect::new(move |_| {
        if !state.with(AnalysisState::is_running) {
            return;
        }
        let id = game_id.clone();
        leptos::task::spawn_local(async move {
            crate::app::call::pause_ms(500).await;
            match get_analysis(id).await {
                Ok(answer) => state.set(answer),
                Err(e) => {
                    call.error.set(Some(e.to_string()));
                    state.set(AnalysisState::NotStarted);
                }
            }
        });
    });
}

/// The progress bar of an analysis running on the server.
#[component]
fn AnalysisProgress(done: u64, total: u64) -> impl IntoView {
    let text = format!("Analyse en cours : {done} positions sur {total}.");
    view! {
        <div class="analysis-progress" data-testid="progression">
            <progress max=total value=done aria-label="Avancement de l'analyse"></progress>
            <p aria-live="polite">{text}</p>
        </div>
    }
}

/// The graph's size in its own units; the page scales it to its width.
const GRAPH_WIDTH: f64 = 600.0;
const GRAPH_HEIGHT: f64 = 160.0;

/// `value` to the tenth (`12.3`, `-0.5`), written from integers: the
/// browser's build carries no float formatting (it would weigh some 6 KB
/// of brotli on every page; scripts/stub-unused-code.mjs takes it out).
pub fn tenths(value: f64) -> String {
    let tenths = (value * 10.0).round() as i64;
    let sign = if tenths < 0 { "-" } else { "" };
    format!("{sign}{}.{}", tenths.abs() / 10, tenths.abs() % 10)
}

/// Where an evaluation sits on the graph, from -1 (Black wins) to 1 (White
/// wins): a man is plainly visible (0.44), three men near the top (0.79),
/// and a proven win saturates.
pub fn graph_level(eval: Eval) -> f64 {
    match eval.winner {
        Some(Color::White) => 1.0,
        Some(Color::Black) => -1.0,
        None => (eval.men.as_f64() / 1.2).atan() * std::f64::consts::FRAC_2_PI,
    }
}

/// The evaluation of every position, White's advantage up, the moves that
/// lost marked; a point clicked, or ←/→ and Début/Fin on the keyboard, goes
/// to that position.
#[component]
fn EvalGraph(analysis: Analysis, ply: RwSignal<usize>) -> impl IntoView {
    let evals = analysis.evals();
    let last = evals.len() - 1;
    let step_x = GRAPH_WIDTH / last.max(1) as f64;
    let x = move |i: usize| i as f64 * step_x;
    let y = |eval: Eval| GRAPH_HEIGHT / 2.0 * (1.0 - 0.94 * graph_level(eval));
    let curve: Vec<(f64, f64)> = evals.iter().enumerate().map(|(i, e)| (x(i), y(*e))).collect();
    let mid = tenths(GRAPH_HEIGHT / 2.0);
    let point = |(px, py): &(f64, f64)| format!("{},{}", tenths(*px), tenths(*py));
    let area = std::iter::once(format!("0,{mid}"))
        .chain(curve.iter().map(point))
        .chain(std::iter::once(format!("{},{mid}", tenths(x(last)))))
        .collect::<Vec<_>>()
        .join(" ");
    let line = curve.iter().map(point).collect::<Vec<_>>().join(" ");
    // A move that lost is marked where it led: the point after it.
    let marks: Vec<(f64, f64, Verdict)> = analysis
        .plies
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.verdict.filter(|v| *v >= Verdict::Mistake).map(|v| (curve[i + 1].0, curve[i + 1].1, v)))
        .collect();
    let texts: Vec<String> = (0..=last).map(|i| position_label(&analysis, i)).collect();
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let to = match ev.key().as_str() {
            "ArrowLeft" | "ArrowDown" => ply.get_untracked().saturating_sub(1),
            "ArrowRight" | "ArrowUp" => (ply.get_untracked() + 1).min(last),
            "Home" => 0,
            "End" => last,
            _ => return,
        };
        ev.prevent_default();
        ply.set(to);
    };
    let cursor_x = move || tenths(x(ply.get()));
    let (width, height) = (tenths(GRAPH_WIDTH), tenths(GRAPH_HEIGHT));
    view! {
        <svg
            class="eval-graph"
            viewBox=format!("0 0 {width} {height}")
            role="slider"
            tabindex="0"
            aria-label="Évaluation de la partie, coup par coup"
            aria-valuemin="0"
            aria-valuemax=last.to_string()
            aria-valuenow=move || ply.get().to_string()
            aria-valuetext=move || texts[ply.get()].clone()
            on:keydown=on_key
            data-testid="graphe"
        >
            <rect class="graph-black" x="0" y="0" width=width.clone() height=height.clone()/>
            <polygon class="graph-area" points=area/>
            <line class="graph-mid" x1="0" y1=mid.clone() x2=width.clone() y2=mid/>
            <polyline class="graph-line" points=line/>
            <line class="graph-cursor" x1=cursor_x y1="0" x2=cursor_x y2=height.clone()/>
            {marks.into_iter().map(|(cx, cy, verdict)| view! {
                <circle class=format!("graph-mark {}", verdict.name()) cx=tenths(cx) cy=tenths(cy) r="8"/>
            }).collect_view()}
            {(0..=last).map(|i| view! {
                <rect
                    class="graph-hit"
                    x=tenths(x(i) - step_x / 2.0)
                    y="0"
                    width=tenths(step_x)
                    height=height.clone()
                    data-ply=i
                    on:click=move |_| ply.set(i)
                />
            }).collect_view()}
        </svg>
    }
}

/// The position `index` in words: the move that led there, its verdict
/// and the evaluation.
fn position_label(analysis: &Analysis, index: usize) -> String {
    let eval = analysis.evals()[index];
    match index.checked_sub(1).and_then(|i| analysis.plies.get(i)) {
        None => format!("Position de départ, {}", eval_text(eval)),
        Some(p) => {
            let verdict = p.verdict.map(|v| format!(", {}", v.label())).unwrap_or_default();
            format!("Coup {index}, {} {}{verdict}, {}", side_name(p.mover), p.played.text, eval_text(eval))
        }
    }
}

/// What the move that led to the position shown was worth, and what the
/// engine would have played; then what it plays here.
#[component]
fn PlyVerdict(analysis: Analysis, ply: RwSignal<usize>) -> impl IntoView {
    let evals = analysis.evals();
    let plies = analysis.plies;
    move || {
        let index = ply.get();
        let eval = format!("Évaluation : {}.", eval_text(evals[index]));
        let judged = index.checked_sub(1).and_then(|i| plies.get(i)).map(move_judgement);
        let next = plies.get(index).map(|p| {
            let line = if p.line.len() > 1 { format!(" (ligne : {})", p.line.join(" ")) } else { String::new() };
            format!("Le meilleur coup ici : {}{line}.", p.best.text)
        });
        view! {
            <div class="ply-verdict" data-testid="verdict">
                {judged.map(|(class, text)| view! { <p class=class>{text}</p> })}
                <p>{eval}</p>
                {next.map(|text| view! { <p class="best-line">{text}</p> })}
            </div>
        }
    }
}

/// A move's judgement, and the class that colours it.
fn move_judgement(p: &PlyAnalysis) -> (String, String) {
    let head = format!("{}. {} ({})", p.number, p.played.text, side_name(p.mover));
    match p.verdict {
        Some(verdict) => (
            format!("judged {}", verdict.name()),
            format!("{head} : {}, perd {}. Le meilleur était {}.", verdict.label(), men_text(p.loss), p.best.text),
        ),
        None if p.forced => ("judged".into(), format!("{head} : coup forcé.")),
        None if p.loss == Men::ZERO => ("judged".into(), format!("{head} : le coup de l'ordinateur.")),
        None => ("judged".into(), format!("{head} : bon coup (perd {}).", men_text(p.loss))),
    }
}

/// Each side's mistakes in sum.
#[component]
fn SideSummaries(analysis: Analysis) -> impl IntoView {
    let row = |label: &'static str, value: &dyn Fn(&SideSummary) -> String| {
        view! {
            <tr><th scope="row">{label}</th><td>{value(&analysis.white)}</td><td>{value(&analysis.black)}</td></tr>
        }
    };
    view! {
        <table class="side-summary" data-testid="bilan">
            <caption>"Bilan"</caption>
            <thead><tr><td></td><th scope="col">"Blancs"</th><th scope="col">"Noirs"</th></tr></thead>
            <tbody>
                {row("Imprécisions", &|s| s.inaccuracies.to_string())}
                {row("Erreurs", &|s| s.mistakes.to_string())}
                {row("Gaffes", &|s| s.blunders.to_string())}
                {row("Perte moyenne", &|s| men_text(s.average_loss))}
            </tbody>
        </table>
    }
}

/// The moves, each marked with its verdict once analysed; a move pressed
/// shows the position after it.
#[component]
fn AnalysedMoves(texts: Vec<(String, Color)>, analysis: Memo<Option<Analysis>>, ply: RwSignal<usize>) -> impl IntoView {
    let verdict_of = move |i: usize| analysis.with(|a| a.as_ref().and_then(|a| a.plies.get(i).and_then(|p| p.verdict)));
    view! {
        <h2>"Coups"</h2>
        <ol class="moves replay-moves analysed-moves">
            {texts.into_iter().enumerate().map(|(i, (text, by))| {
                let mark = move || verdict_of(i).map_or("", verdict_mark);
                let shown = text.clone();
                let label = move || {
                    let verdict = verdict_of(i).map(|v| format!(", {}", v.label())).unwrap_or_default();
                    format!("Coup {} ({}) : {text}{verdict}", i + 1, side_name(by))
                };
                view! {
                    <li class="ply">
                        <button
                            type="button"
                            class=move || format!("ply-button {}", verdict_of(i).map_or("", Verdict::name))
                            class:current=move || ply.get() == i + 1
                            aria-label=label
                            on:click=move |_| ply.set(i + 1)
                        >{shown}<span class="mark" aria-hidden="true">{mark}</span></button>
                    </li>
                }
            }).collect_view()}
        </ol>
    }
}

/// The marks of annotated games: ?! an inaccuracy, ? a mistake, ?? a
/// blunder.
const fn verdict_mark(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Inaccuracy => "?!",
        Verdict::Mistake => "?",
        Verdict::Blunder => "??",
    }
}

/// An amount of men in French: `1,25 pion`, `2 pions`.
fn men_text(men: Men) -> String {
    let hundredths = men.hundredths().abs();
    let number = format!("{},{:02}", hundredths / 100, hundredths % 100);
    let plural = if hundredths >= 200 { "s" } else { "" };
    format!("{number} pion{plural}")
}

/// An evaluation in French, White's side: `+0,35 (avantage aux blancs)`.
pub(crate) fn eval_text(eval: Eval) -> String {
    match eval.winner {
        Some(winner) => format!("gain des {}", side_name(winner)),
        None => {
            let h = eval.men.hundredths();
            let sign = match h {
                0 => "",
                h if h > 0 => "+",
                _ => "−",
            };
            let number = format!("{sign}{},{:02}", h.abs() / 100, h.abs() % 100);
            match h {
                h if h.abs() < 20 => format!("{number} (égalité)"),
                h if h > 0 => format!("{number} (avantage aux blancs)"),
                _ => format!("{number} (avantage aux noirs)"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_graph_writes_its_numbers_to_the_tenth() {
        assert_eq!(tenths(600.0), "600.0");
        assert_eq!(tenths(12.34), "12.3");
        assert_eq!(tenths(12.36), "12.4");
        assert_eq!(tenths(-0.5), "-0.5");
        assert_eq!(tenths(-0.04), "0.0");
        assert_eq!(tenths(7.0 / 3.0), "2.3");
    }

    #[test]
    fn a_man_is_visible_on_the_graph_and_a_won_game_saturates_it() {
        let men = |h: i32| Eval { men: Men::from_hundredths(h), winner: None };
        assert_eq!(graph_level(men(0)), 0.0);
        assert!((0.4..0.5).contains(&graph_level(men(100))), "{}", graph_level(men(100)));
        assert!(graph_level(men(300)) < 0.9 && graph_level(men(300)) > 0.75);
        assert_eq!(graph_level(men(-100)), -graph_level(men(100)));
        assert_eq!(graph_level(Eval::won_for(Color::White)), 1.0);
        assert_eq!(graph_level(Eval::won_for(Color::Black)), -1.0);
    }

    #[test]
    fn figures_are_written_the_french_way() {
        assert_eq!(men_text(Men::from_hundredths(95)), "0,95 pion");
        assert_eq!(men_text(Men::from_hundredths(350)), "3,50 pions");
        let eval = |h| Eval { men: Men::from_hundredths(h), winner: None };
        assert_eq!(eval_text(eval(0)), "0,00 (égalité)");
        assert_eq!(eval_text(eval(125)), "+1,25 (avantage aux blancs)");
        assert_eq!(eval_text(eval(-40)), "−0,40 (avantage aux noirs)");
        assert_eq!(eval_text(Eval::won_for(Color::Black)), "gain des noirs");
    }
}
