//! `/classement`: the daily challenge's board (any day) and the free games'
//! boards, one per level.

use crate::app::error::AppError;
use crate::app::game_state::{day_text, parse_day, ScoreLine};
use crate::app::play::clock_text;
use crate::engine::bot::Level;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

/// One leaderboard as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderboardView {
    /// The day shown, for the daily board.
    pub day: Option<String>,
    /// The level shown, for a free-games board.
    pub level: Option<Level>,
    /// Today (UTC), to know whether "next day" exists.
    pub today: String,
    pub top: Vec<ScoreLine>,
    /// The player's own row, even outside the top.
    pub mine: Option<ScoreLine>,
}

/// A daily board (`day`, today if absent) or a free board (`level`).
#[server(endpoint = "classement")]
pub async fn get_leaderboard(day: Option<String>, level: Option<Level>) -> Result<LeaderboardView, AppError> {
    use crate::app::game_state::{daily_board, free_board};
    use crate::server::{api, db::Db, players, today_utc};
    let db = use_context::<Db>().ok_or(AppError::Internal)?;
    let player = players::current_player(&db).await?;
    let today = today_utc();
    let (board, day) = match (level, day) {
        (Some(level), _) => (free_board(level), None),
        (None, Some(day)) => {
            let day = valid_day(&day).ok_or_else(|| AppError::BadRequest(format!("date invalide : {day:.20}")))?;
            (daily_board(&day), Some(day))
        }
        (None, None) => (daily_board(&today), Some(today.clone())),
    };
    let found = api::leaderboard(&db, player, board).await?;
    Ok(LeaderboardView { day, level, today, top: found.top, mine: found.mine })
}

/// `YYYY-MM-DD` naming a real date.
pub fn valid_day(text: &str) -> Option<String> {
    parse_day(text).map(day_text)
}

/// The day before or after `day`.
pub fn shift_day(day: &str, delta: i64) -> Option<String> {
    parse_day(day)?.checked_add(time::Duration::days(delta)).map(day_text)
}

#[component]
pub fn LeaderboardPage() -> impl IntoView {
    let query = use_query_map();
    let params = move || {
        query.with(|q| (q.get("jour"), q.get("niveau").and_then(|l| l.parse::<Level>().ok())))
    };
    let data = Resource::new(params, |(day, level)| get_leaderboard(day, level));
    view! {
        <Title text="Classement — Dames"/>
        <section class="text-page leaderboard">
            <h1>"Classement"</h1>
            <nav class="tabs" aria-label="Classements">
                <a href="/classement" aria-current=move || params().1.is_none().then_some("page")>"Défi du jour"</a>
                {Level::ALL.into_iter().map(|l| view! {
                    <a
                        href=format!("/classement?niveau={}", l.name())
                        aria-current=move || (params().1 == Some(l)).then_some("page")
                    >{format!("Libre — {}", l.label())}</a>
                }).collect_view()}
            </nav>
            <Suspense fallback=|| view! { <p class="loading">"Chargement du classement…"</p> }>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(board) => view! { <BoardTable board/> }.into_any(),
                        Err(e) => view! { <p class="error" role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

#[component]
fn BoardTable(board: LeaderboardView) -> impl IntoView {
    let heading = match (&board.day, board.level) {
        (Some(day), _) if *day == board.today => format!("Défi du jour — {day}"),
        (Some(day), _) => format!("Défi du {day}"),
        (None, Some(level)) => format!("Parties libres — niveau {}", level.label()),
        (None, None) => String::new(),
    };
    let day_links = board.day.clone().map(|day| {
        let previous = shift_day(&day, -1);
        let next = shift_day(&day, 1).filter(|n| *n <= board.today);
        view! {
            <p class="day-links">
                {previous.map(|p| view! { <a href=format!("/classement?jour={p}")>"← Jour précédent"</a> })}
                " "
                {next.map(|n| view! { <a href=format!("/classement?jour={n}")>"Jour suivant →"</a> })}
            </p>
        }
    });
    let mine_game = board.mine.as_ref().map(|m| m.game_id.clone());
    let mine_outside = board.mine.clone().filter(|m| !board.top.iter().any(|t| t.game_id == m.game_id));
    let empty = board.top.is_empty();
    let row = move |line: ScoreLine, me: bool| {
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
    };
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
                        {board.top.into_iter().map(|l| { let me = Some(&l.game_id) == mine_game.as_ref(); row(l, me) }).collect_view()}
                        {mine_outside.map(|m| row(m, true))}
                    </tbody>
                </table>
            }.into_any()
        }}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_checked_and_shifted() {
        assert_eq!(valid_day("2026-11-29").as_deref(), Some("2026-11-29"));
        for bad in ["2026-02-30", "2026-13-01", "26-11-29", "2026/11/29", "<script>", ""] {
            assert_eq!(valid_day(bad), None, "{bad}");
        }
        assert_eq!(shift_day("2026-12-31", 1).as_deref(), Some("2027-01-01"));
        assert_eq!(shift_day("2026-03-01", -1).as_deref(), Some("2026-02-28"));
    }
}
