//! `dames bench-server`: the server-side figures quoted in the README — the
//! leaderboard page of a day with 100,000 scores, rendered through the real
//! router, the replay-verification of a long game, and the analysis of a
//! 100-ply game asked for through the router, then seen again.

use crate::engine::bot::{self, Level};
use crate::engine::Game;
use crate::protocol::GameKind;
use crate::server::db::sqlite::SqliteDb;
use crate::server::db::Db;
use crate::server::games::{GameRecord, Played};
use crate::server::{players, router, scores, today_utc, Site};
use axum::body::Body;
use axum::http::Request;
use leptos::config::LeptosOptions;
use rusqlite::params;
use std::io::Write;
use std::time::Instant;
use tower::ServiceExt;

const PLAYERS: usize = 100_000;
/// The long game whose verification is timed.
const LONG_GAME_PLIES: usize = 150;

/// Well-formed uuids, so that a cookie can name them.
fn player_id(i: usize) -> String {
    format!("00000000-0000-4000-8000-{i:012}")
}

fn percentile(times: &mut [f64], p: f64) -> f64 {
    times.sort_by(|a, b| a.total_cmp(b));
    times[((times.len() - 1) as f64 * p).round() as usize]
}

pub async fn run(out: &mut dyn Write) -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::temp_dir().join(format!("dames-bench-{}.sqlite3", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let sqlite = SqliteDb::open(&path)?;
    let db = Db::Sqlite(sqlite.clone());
    let day = today_utc();
    let board = format!("jour:{day}");
    let started = Instant::now();
    sqlite.run_blocking(|c| -> rusqlite::Result<()> {
        let tx = c.transaction()?;
        {
            let mut player = tx.prepare("INSERT INTO players (id, pseudonym, pseudonym_key, created_at) VALUES (?1, ?2, ?3, 0)")?;
            let mut game = tx.prepare(
                "INSERT INTO games (id, player_id, kind, day, level, seed, start_fen, outcome, last_answer_ms, created_at)
                 VALUES (?1, ?2, 'daily', ?3, 'intermediaire', 0, 'W:W31-50:B1-20', 'x', 0, 0)",
            )?;
            let mut score = tx.prepare(
                "INSERT INTO scores (game_id, player_id, board, score, pieces, seconds, recorded_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            let mut best = tx.prepare(
                "INSERT INTO best_scores (board, player_id, game_id, score, pieces, seconds, recorded_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            for i in 0..PLAYERS {
                let (p, g) = (player_id(i), format!("g{i}"));
                let name = format!("Joueur {i}");
                // A spread of scores with many ties.
                let pieces = (i * 7 % 20) as u32 + 1;
                let seconds = (i * 13 % 3000) as i64;
                let s = scores::score(pieces, seconds as u64) as i64;
                player.execute(params![p, name, name.to_lowercase()])?;
                game.execute(params![g, p, day])?;
                score.execute(params![g, p, board, s, pieces, seconds, i as i64])?;
                best.execute(params![board, p, g, s, pieces, seconds, i as i64])?;
            }
        }
        tx.commit()
    })?;
    writeln!(out, "setup: {PLAYERS} scores on {board} in {:.1} s", started.elapsed().as_secs_f64())?;

    let options = LeptosOptions::builder().output_name("dames").site_root("target/site").build();
    let app = router(options, Site::with_defaults(db.clone()));
    let mut times = Vec::new();
    for i in 0..50 {
        // A player far down the board, whose own row is shown below the top.
        let cookie = format!("{}={}", players::COOKIE, player_id(90_000 + i));
        let request = Request::get("/classement").header("cookie", cookie).body(Body::empty())?;
        let t = Instant::now();
        let response = app.clone().oneshot(request).await?;
        let body = axum::body::to_bytes(response.into_body(), usize::MAX).await?;
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        assert!(body.len() > 10_000, "the page lists the top 100");
    }
    writeln!(
        out,
        "leaderboard page ({PLAYERS} scores): p50 {:.2} ms, p99 {:.2} ms",
        percentile(&mut times, 0.5),
        percentile(&mut times, 0.99)
    )?;

    // A long game: 150 plies, 75 replies of the daily bot to another
    // intermediaire (the first seed whose game lasts that long).
    let game = (1..)
        .map(|white_seed| {
            // Under the rules stored games are played by, which
            // verification replays them with.
            let start = crate::engine::Position::<crate::engine::geometry::Ten>::initial(crate::engine::Rules::DAILY)
                .expect("the daily start");
            let mut game = Game::new(start);
            while !game.is_over() && game.moves().len() < LONG_GAME_PLIES {
                let seed = if game.turn() == crate::engine::Color::White { white_seed } else { 99 };
                let mv = bot::reply(&game, Level::Intermediaire, seed).expect("a move").mv;
                game.play(&mv).expect("the bot plays legal moves");
            }
            game
        })
        .find(|game| game.moves().len() == LONG_GAME_PLIES)
        .expect("some game lasts");
    let record = GameRecord {
        id: "bench".into(),
        player_id: player_id(0),
        kind: GameKind::Daily,
        day: day.clone(),
        setup: crate::protocol::GameSetup::daily(),
        seed: 99,
        bot_version: bot::BOT_VERSION,
        start_fen: game.start().to_fen(),
        moves: game.moves().iter().map(|m| m.long_form().to_string()).collect(),
        outcome: game.outcome(),
        active_ms: 0,
        last_answer_ms: 0,
        created_at: 0,
        played_on: false,
        revision: 0,
    };
    let (mut legality, mut verified, mut one_thread) = (Vec::new(), Vec::new(), Vec::new());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    for _ in 0..20 {
        let t = Instant::now();
        record.replay()?;
        legality.push(t.elapsed().as_secs_f64() * 1000.0);
        let t = Instant::now();
        record.replay_verified(threads)?;
        verified.push(t.elapsed().as_secs_f64() * 1000.0);
        let t = Instant::now();
        record.replay_verified(1)?;
        one_thread.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    writeln!(
        out,
        "replay of a {}-ply game: legality {:.2} ms; with every computer move recomputed {:.2} ms on {threads} threads, {:.2} ms on one (p50)",
        record.moves.len(),
        percentile(&mut legality, 0.5),
        percentile(&mut verified, 0.5),
        percentile(&mut one_thread, 0.5)
    )?;
    analysis(out, &app, &db, &record).await?;
    drop(app);
    drop(db);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    Ok(())
}

/// Plies of the game whose analysis is timed.
const ANALYSED_PLIES: usize = 100;

/// The first 100 plies of `long`, resigned, analysed as a player asks for
/// it: the time to the first progress the page would show, to the end, and
/// a second visit's answer (the stored analysis) and page.
async fn analysis(
    out: &mut dyn Write,
    app: &axum::Router,
    db: &Db,
    long: &GameRecord,
) -> Result<(), Box<dyn std::error::Error>> {
    use crate::engine::{Color, Outcome, WinReason};
    use crate::protocol::AnalysisState;
    let record = GameRecord {
        id: "bench-analysis".into(),
        kind: GameKind::Free,
        moves: long.moves[..ANALYSED_PLIES].to_vec(),
        outcome: Some(Outcome::Win { winner: Color::Black, reason: WinReason::Resignation }),
        ..long.clone()
    };
    let added = record.moves.iter().map(|m| (m.clone(), None)).collect();
    db.insert_game(&Played { record, added, expected_plies: 0, expected_outcome: None, expected_revision: 0 }).await?;
    let cookie = format!("{}={}", players::COOKIE, player_id(0));
    let ask = |endpoint: &str| {
        Request::post(format!("/api/{endpoint}"))
            .header("cookie", cookie.clone())
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Body::from("game_id=bench-analysis"))
    };
    let state = |bytes: &[u8]| serde_json::from_slice::<AnalysisState>(bytes);
    let mut quiet = moves_timed(app, 40, 1_000).await?;
    let started = Instant::now();
    let response = app.clone().oneshot(ask("analyse/demander")?).await?;
    let mut current = state(&axum::body::to_bytes(response.into_body(), usize::MAX).await?)?;
    let mut first_progress = None;
    // Other players' moves while it runs (the first 5 s of it).
    let mut beside = moves_timed(app, 40, 2_000).await?;
    while !matches!(current, AnalysisState::Done(_)) {
        match current {
            AnalysisState::Running { done, .. } if done > 0 && first_progress.is_none() => {
                first_progress = Some(started.elapsed().as_secs_f64())
            }
            AnalysisState::NotStarted => return Err("the analysis stopped".into()),
            _ => {}
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        let response = app.clone().oneshot(ask("analyse/etat")?).await?;
        current = state(&axum::body::to_bytes(response.into_body(), usize::MAX).await?)?;
    }
    let whole = started.elapsed().as_secs_f64();
    let AnalysisState::Done(analysis) = current else { unreachable!("the loop ends on Done") };
    let positions = analysis.plies.len() + 1;
    let (mut answers, mut pages) = (Vec::new(), Vec::new());
    for _ in 0..50 {
        let t = Instant::now();
        let response = app.clone().oneshot(ask("analyse/etat")?).await?;
        let body = axum::body::to_bytes(response.into_body(), usize::MAX).await?;
        answers.push(t.elapsed().as_secs_f64() * 1000.0);
        assert!(matches!(state(&body)?, AnalysisState::Done(_)), "stored");
        let request = Request::get("/analyse/bench-analysis").header("cookie", cookie.clone()).body(Body::empty())?;
        let t = Instant::now();
        let response = app.clone().oneshot(request).await?;
        let body = axum::body::to_bytes(response.into_body(), usize::MAX).await?;
        pages.push(t.elapsed().as_secs_f64() * 1000.0);
        assert!(String::from_utf8_lossy(&body).contains("data-testid=\"graphe\""), "the graph drawn");
    }
    writeln!(
        out,
        "analysis of a {ANALYSED_PLIES}-ply game ({positions} positions, {} nodes each): first progress after {:.2} s, \
         done after {whole:.1} s ({:.0} ms a position); seen again: the stored analysis p50 {:.2} ms, its page p50 {:.2} ms",
        analysis.budget.get(),
        first_progress.unwrap_or(whole),
        whole * 1000.0 / positions as f64,
        percentile(&mut answers, 0.5),
        percentile(&mut pages, 0.5),
    )?;
    writeln!(
        out,
        "moves against intermediaire through the router, p50 / p99: {:.1} / {:.1} ms alone, {:.1} / {:.1} ms while the analysis runs",
        percentile(&mut quiet, 0.5),
        percentile(&mut quiet, 0.99),
        percentile(&mut beside, 0.5),
        percentile(&mut beside, 0.99),
    )?;
    Ok(())
}

/// `count` moves of free games against intermediaire through the router,
/// each answered with the computer's reply: their times in ms. Players
/// from `first_player` on, a game of ten moves each (under the limits).
async fn moves_timed(
    app: &axum::Router,
    count: usize,
    first_player: usize,
) -> Result<Vec<f64>, Box<dyn std::error::Error>> {
    use crate::protocol::GameView;
    let post = |endpoint: &str, player: usize, body: String| {
        Request::post(format!("/api/{endpoint}"))
            .header("cookie", format!("{}={}", players::COOKIE, player_id(player)))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Body::from(body))
    };
    let view = |bytes: &[u8]| serde_json::from_slice::<GameView>(bytes);
    let mut times = Vec::with_capacity(count);
    let mut player = first_player;
    let mut game: Option<GameView> = None;
    while times.len() < count {
        let current = match game.take() {
            Some(g) if g.outcome.is_none() && g.moves.len() < 20 => g,
            _ => {
                player += 1;
                let form = "kind=Free&rules=international&level=Intermediaire&player=White".to_string();
                let response = app.clone().oneshot(post("partie/nouvelle", player, form)?).await?;
                view(&axum::body::to_bytes(response.into_body(), usize::MAX).await?)?
            }
        };
        let mv = current.replay().map_err(|e| e.0)?.choices().first().ok_or("a legal move")?.long.clone();
        let form = format!("game_id={}&ply={}&mv={mv}&think_ms=1000", current.id, current.moves.len());
        let t = Instant::now();
        let response = app.clone().oneshot(post("partie/jouer", player, form)?).await?;
        let body = axum::body::to_bytes(response.into_body(), usize::MAX).await?;
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        game = Some(view(&body)?);
    }
    Ok(times)
}
