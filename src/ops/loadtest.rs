//! `dames loadtest URL --players N --seconds S`: virtual players, each with
//! its own cookie and its own (made-up) client address, play whole games
//! against the computer with random legal moves and a think time between
//! moves, through the site's own server functions. Prints requests per
//! second, latency percentiles and errors by status; with `--server-pid`,
//! the servers' CPU time per move.

use crate::engine::bot::Level;
use crate::engine::Color;
use crate::protocol::GameView;
use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the command line asked for.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The site, `http://…` without a final `/`.
    pub url: String,
    pub players: usize,
    pub seconds: u64,
    pub think_ms: u64,
    pub level: Level,
    /// The servers whose CPU time is reported.
    pub server_pids: Vec<u32>,
}

/// What every player saw, merged.
#[derive(Default)]
struct Tally {
    latencies_ms: Vec<f64>,
    statuses: BTreeMap<u16, u64>,
    /// Requests that got no answer at all (connection refused or reset).
    failed: u64,
    moves: u64,
    games_finished: u64,
}

/// Runs the load test `plan` describes and prints its figures: 0, or 1
/// when the site answered with server errors or not at all.
pub async fn command(plan: Plan) -> i32 {
    let cpu_before: Option<u64> = cpu_ms(&plan.server_pids);
    let tally = Arc::new(Mutex::new(Tally::default()));
    let started = Instant::now();
    let deadline = started + Duration::from_secs(plan.seconds);
    let players: Vec<_> =
        (0..plan.players).map(|i| tokio::spawn(play(plan.clone(), i, deadline, tally.clone()))).collect();
    for player in players {
        let _ = player.await;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let cpu_after = cpu_ms(&plan.server_pids);
    let mut tally = tally.lock().unwrap_or_else(|p| p.into_inner());
    report(&plan, &mut tally, elapsed, cpu_before.zip(cpu_after).map(|(b, a)| a.saturating_sub(b)));
    let errors: u64 = tally.failed + tally.statuses.iter().filter(|(s, _)| **s >= 500).map(|(_, n)| n).sum::<u64>();
    i32::from(errors > 0)
}

/// One virtual player, until the deadline.
async fn play(plan: Plan, index: usize, deadline: Instant, tally: Arc<Mutex<Tally>>) {
    let mut rng = Pcg64Mcg::seed_from_u64(index as u64);
    let cookie = format!("dames_joueur={}", uuid::Uuid::from_u64_pair(0x4441_4d45_5300_4000, index as u64 + 1));
    // Made-up addresses from 10.0.0.0/8, one per player: the site's
    // per-address limits then see players, not one load generator.
    let address = format!("10.{}.{}.{}", (index >> 16) & 255, (index >> 8) & 255, index & 255);
    let client = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().expect("an HTTP client");
    let post = |endpoint: &str, form: Vec<(&str, String)>| {
        let request = client
            .post(format!("{}/api/{endpoint}", plan.url))
            .header("cookie", &cookie)
            .header("x-forwarded-for", &address)
            .form(&form);
        let tally = tally.clone();
        async move {
            let started = Instant::now();
            let answer = request.send().await;
            let Ok(answer) = answer else {
                tally.lock().unwrap_or_else(|p| p.into_inner()).failed += 1;
                return None;
            };
            {
                let mut t = tally.lock().unwrap_or_else(|p| p.into_inner());
                t.latencies_ms.push(started.elapsed().as_secs_f64() * 1000.0);
                *t.statuses.entry(answer.status().as_u16()).or_default() += 1;
            }
            // Refused by a rate limit: wait as told, as a browser would.
            if answer.status() == reqwest::StatusCode::TOO_MANY_REQUESTS {
                let wait = answer.headers().get("retry-after").and_then(|v| v.to_str().ok()?.parse().ok());
                tokio::time::sleep(Duration::from_secs(wait.unwrap_or(1))).await;
                return None;
            }
            let ok = answer.status().is_success();
            let text = answer.text().await.unwrap_or_default();
            if ok {
                serde_json::from_str::<GameView>(&text).ok()
            } else {
                None
            }
        }
    };
    let new_game = || {
        post(
            "partie/nouvelle",
            vec![
                ("kind", "Free".into()),
                ("rules", "international".into()),
                ("level", format!("{:?}", plan.level)),
                ("player", format!("{:?}", Color::White)),
            ],
        )
    };
    let mut game: Option<GameView> = None;
    while Instant::now() < deadline {
        if game_is_over(&game) {
            tally.lock().unwrap_or_else(|p| p.into_inner()).games_finished += 1;
        }
        let Some(view) = game.take().filter(|g| g.outcome.is_none()) else {
            game = new_game().await;
            if game.is_none() {
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            continue;
        };
        tokio::time::sleep(Duration::from_millis(plan.think_ms)).await;
        let Some(mv) = random_move(&view, &mut rng) else {
            continue;
        };
        let form = vec![
            ("game_id", view.id.clone()),
            ("ply", view.moves.len().to_string()),
            ("mv", mv),
            ("think_ms", plan.think_ms.to_string()),
        ];
        game = match post("partie/jouer", form).await {
            Some(next) => {
                tally.lock().unwrap_or_else(|p| p.into_inner()).moves += 1;
                Some(next)
            }
            // Refused (a 409 after a retry, a 503 while the database is
            // away): catch up with the stored game.
            None => post("partie/etat", vec![("game_id", view.id.clone())]).await,
        };
    }
}

fn game_is_over(game: &Option<GameView>) -> bool {
    game.as_ref().is_some_and(|g| g.outcome.is_some())
}

fn random_move(view: &GameView, rng: &mut Pcg64Mcg) -> Option<String> {
    let game = view.replay().ok()?;
    let choices = game.choices();
    (!choices.is_empty()).then(|| choices[rng.next_u64() as usize % choices.len()].long.clone())
}

/// User plus system CPU time of these processes, in milliseconds (Linux).
fn cpu_ms(pids: &[u32]) -> Option<u64> {
    if pids.is_empty() {
        return None;
    }
    let ticks_per_second = 100; // USER_HZ on Linux
    let mut total = 0;
    for pid in pids {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // Fields after the command name (which may hold spaces): utime and
        // stime are the 12th and 13th.
        let after = &stat[stat.rfind(')')? + 2..];
        let fields: Vec<&str> = after.split_whitespace().collect();
        let (utime, stime): (u64, u64) = (fields.get(11)?.parse().ok()?, fields.get(12)?.parse().ok()?);
        total += (utime + stime) * 1000 / ticks_per_second;
    }
    Some(total)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn report(plan: &Plan, tally: &mut Tally, elapsed: f64, cpu_ms: Option<u64>) {
    tally.latencies_ms.sort_by(|a, b| a.total_cmp(b));
    let answered = tally.latencies_ms.len();
    println!(
        "{} joueurs, {:.0} s, réflexion {} ms, niveau {} — {}",
        plan.players,
        elapsed,
        plan.think_ms,
        plan.level.name(),
        plan.url
    );
    println!(
        "requêtes : {answered} ({:.1}/s), coups joués : {} ({:.1}/s), parties finies : {}",
        answered as f64 / elapsed,
        tally.moves,
        tally.moves as f64 / elapsed,
        tally.games_finished
    );
    let l = &tally.latencies_ms;
    println!(
        "latence : p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        percentile(l, 0.5),
        percentile(l, 0.99),
        l.last().copied().unwrap_or(0.0)
    );
    let statuses: Vec<String> = tally.statuses.iter().map(|(s, n)| format!("{s}: {n}")).collect();
    println!("statuts : {} ; sans réponse : {}", statuses.join(", "), tally.failed);
    if let Some(cpu) = cpu_ms.filter(|_| tally.moves > 0) {
        println!("CPU des serveurs : {cpu} ms, soit {:.2} ms par coup", cpu as f64 / tally.moves as f64);
    }
}
