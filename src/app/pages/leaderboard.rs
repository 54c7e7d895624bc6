//! `/classement`: the daily challenge's board (any day) and the free games'
//! boards, one per level.

use crate::app::describe::{french_date, game_title, preset_name};
use crate::app::status::clock_text;
use crate::engine::bot::Level;
use crate::engine::{Preset, Rules};
use crate::protocol::game::free_board_href;
use crate::protocol::{AppError, BoardKey, GameKind, LeaderboardView, ScoreLine};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

/// A daily board (`day`, today if absent) or a free board (`level`, of
/// `variant`, international if absent).
#[server(endpoint = "classement", output = crate::protocol::codec::JsonText)]
pub async fn get_leaderboard(
    day: Option<String>,
    level: Option<Level>,
    variant: Option<Preset>,
) -> Result<LeaderboardView, AppError> {
    use crate::server::api;
    Ok(api::leaderboard(&api::RequestContext::current()?, day, level, variant).await?)
}

/// The variants with free-game leaderboards.
const RANKED: [Preset; 3] = [Preset::International, Preset::English, Preset::Russian];

fn variant_param(name: Option<String>) -> Option<Preset> {
    name.and_then(|n| RANKED.into_iter().find(|p| p.name() == n))
}

#[component]
pub fn LeaderboardPage() -> impl IntoView {
    let query = use_query_map();
    let params = move || {
        query.with(|q| {
            (q.get("jour"), q.get("niveau").and_then(|l| l.parse::<Level>().ok()), variant_param(q.get("variante")))
        })
    };
    let data = Resource::new(params, |(day, level, variant)| get_leaderboard(day, level, variant));
    view! {
        <Title text="Classement — Dames"/>
        <section class="text-page leaderboard">
            <h1>"Classement"</h1>
            <nav class="tabs" aria-label="Classements">
                <a href="/classement" aria-current=move || params().1.is_none().then_some("page")>"Défi du jour"</a>
                {Level::ALL.into_iter().map(|l| view! {
                    <a
                        href=free_board_href(l, params().2.unwrap_or(Preset::International))
                        aria-current=move || (params().1 == Some(l)).then_some("page")
                    >{format!("Libre — {}", l.label())}</a>
                }).collect_view()}
            </nav>
            <nav class="tabs" aria-label="Variantes des parties libres">
                {RANKED.into_iter().map(|v| view! {
                    <a
                        href=free_board_href(params().1.unwrap_or_default(), v)
                        aria-current=move || {
                            let (_, level, variant) = params();
                            (level.is_some() && variant.unwrap_or(Preset::International) == v).then_some("page")
                        }
                    >{preset_name(v)}</a>
                }).collect_view()}
            </nav>
            <Suspense fallback=|| view! { <p class="loading">"Chargement du classement…"</p> }>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(board) => view! { <BoardTable board/> }.into_any(),
                        Err(e) => {
                            crate::app::set_page_status(&e);
                            view! { <p class="error" role="alert">{e.to_string()}</p> }.into_any()
                        }
                    }
                })}
            </Suspense>
        </section>
    }
}

#[component]
fn BoardTable(board: LeaderboardView) -> impl IntoView {
    let heading = match &board.board {
        BoardKey::Daily { day } if board.is_today => format!("Défi du jour — {}", french_date(day)),
        BoardKey::Daily { day } => game_title(GameKind::Daily, day, Level::Intermediaire, &Rules::DAILY),
        BoardKey::Free { level, variant } => {
            format!("Parties libres — {}, niveau {}", preset_name(*variant).to_lowercase(), level.label())
        }
    };
    let day_links = matches!(board.board, BoardKey::Daily { .. }).then(|| {
        view! {
            <p class="day-links">
                {board.previous_day.map(|p| view! { <a href=format!("/classement?jour={p}")>"← Jour précédent"</a> })}
                " "
                {board.next_day.map(|n| view! { <a href=format!("/classement?jour={n}")>"Jour suivant →"</a> })}
            </p>
        }
    });
    let mine_game = board.mine.as_ref().map(|m| m.game_id.clone());
    let mine_outside = board.mine.clone().filter(|m| !board.top.iter().any(|t| t.game_id == m.game_id));
    let empty = board.top.is_empty();
    view! {
        <h2>{heading}</h2>
        {day_links}
        {if empty {
            view! { <p>"Personne n'a encore de score ici. À vous de jouer !"</p> }.into_any()
        } else {
            view! {
                <table class="scores">
                    <thead><tr>
                        <th scope="col">"Rang"</th><th scope="col">"Joueur"</th><th scope="col">"Score"</th>
                        <th scope="col">"Pièces"</th><th scope="col">"Temps"</th><th scope="col">"Partie"</th>
                    </tr></thead>
                    <tbody>
                        {board.top.into_iter().map(|line| {
                            let me = Some(&line.game_id) == mine_game.as_ref();
                            view! { <ScoreRow line me/> }
                        }).collect_view()}
                        {mine_outside.map(|line| view! { <ScoreRow line me=true/> })}
                    </tbody>
                </table>
            }.into_any()
        }}
    }
}

/// One player's row; the player's own is marked.
#[component]
fn ScoreRow(line: ScoreLine, me: bool) -> impl IntoView {
    let name = line.pseudonym.clone().unwrap_or_else(|| "Anonyme".into());
    view! {
        <tr class:me=me aria-current=if me { Some("true") } else { None }>
            <td>{line.rank}</td>
            <td>{name}{if me { " (vous)" } else { "" }}</td>
            <td class="num">{line.score}</td>
            <td class="num">{line.pieces}</td>
            <td class="num">{clock_text(line.seconds * 1000)}</td>
            <td><a href=format!("/partie/{}", line.game_id)>"Voir la partie"</a></td>
        </tr>
    }
}
