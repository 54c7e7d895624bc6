//! Several app servers (this crate's binary, in processes of their own) on
//! one throw-away PostgreSQL, as `make cluster` runs them: a game goes on
//! from one server to the other and scores once, simultaneous submissions
//! of one ply are accepted once, a server killed with `kill -9` loses
//! nothing it acknowledged while the other serves, and a PostgreSQL restart
//! gets 503s, then service again, without a restart of the servers.
#![cfg(feature = "ssr")]

use dames::ops::cluster::{proxy, AppServer};
use dames::ops::throwaway::ThrowawayPostgres;
use dames::protocol::{AppError, GameView, LeaderboardView};
use std::net::SocketAddr;
use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A PostgreSQL with a `dames` database and `count` servers on it.
struct Cluster {
    postgres: ThrowawayPostgres,
    servers: Vec<AppServer>,
    client: reqwest::Client,
}

async fn cluster(count: usize) -> Cluster {
    let postgres = ThrowawayPostgres::start(None, false).expect("a throw-away PostgreSQL");
    let (client, connection) = tokio_postgres::connect(&postgres.url("postgres"), tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    client.batch_execute("CREATE DATABASE dames").await.unwrap();
    let env = [
        ("DAMES_TEST_HOOKS", "1"),
        ("DAMES_LIMIT_MOVES_PER_MINUTE", "100000"),
        ("DAMES_LIMIT_MOVES_PER_MINUTE_PER_ADDRESS", "100000"),
        ("DAMES_LIMIT_GAMES_PER_MINUTE", "100000"),
        ("DAMES_LIMIT_GAMES_PER_MINUTE_PER_ADDRESS", "100000"),
        ("DAMES_DB_POOL", "8"),
        ("RUST_LOG", "warn"),
    ];
    let program = Path::new(env!("CARGO_BIN_EXE_dames"));
    let mut servers: Vec<AppServer> =
        (0..count).map(|_| AppServer::start(program, &postgres.url("dames"), &env, Stdio::null()).unwrap()).collect();
    // The servers start together: the migrations run once, under the lock.
    for server in &mut servers {
        server.wait_ready(Duration::from_secs(60)).await.unwrap();
    }
    Cluster { postgres, servers, client: reqwest::Client::new() }
}

/// One answer: status and body.
struct Answer {
    status: u16,
    body: String,
}

impl Answer {
    fn game(&self) -> GameView {
        assert_eq!(self.status, 200, "{}", self.body);
        serde_json::from_str(&self.body).unwrap()
    }

    fn error(&self) -> AppError {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not an AppError ({e}): {}", self.body))
    }
}

async fn post(client: &reqwest::Client, at: SocketAddr, endpoint: &str, form: &[(&str, &str)], player: &str) -> Answer {
    let answer = client
        .post(format!("http://{at}/api/{endpoint}"))
        .header("cookie", format!("dames_joueur={player}"))
        .form(form)
        .send()
        .await
        .unwrap();
    Answer { status: answer.status().as_u16(), body: answer.text().await.unwrap() }
}

async fn get_status(client: &reqwest::Client, url: String) -> Option<u16> {
    client.get(url).send().await.ok().map(|a| a.status().as_u16())
}

fn player(i: u64) -> String {
    uuid::Uuid::from_u64_pair(0x0c1a_57e2_0000_4000, 0x8000_0000_0000_0000 | i).to_string()
}

async fn sql_count(postgres: &ThrowawayPostgres, query: &str, id: &str) -> i64 {
    let (client, connection) = tokio_postgres::connect(&postgres.url("dames"), tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    client.query_one(query, &[&id]).await.unwrap().get(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_started_on_one_server_goes_on_on_the_other_and_scores_once() {
    let c = cluster(2).await;
    let (a, b) = (c.servers[0].addr, c.servers[1].addr);
    let alice = player(1);
    // A daily game one capture from a win, started on A.
    let form = [("fen", "W:WK47,40:B9,12,33"), ("level", "Intermediaire"), ("seed", "1"), ("kind", "Daily")];
    let started = post(&c.client, a, "test/partie", &form, &alice).await.game();
    // Won on B.
    let id = started.id.as_str();
    let win = [("game_id", id), ("ply", "0"), ("mv", "47x26{9,12,33}"), ("think_ms", "1000")];
    let won = post(&c.client, b, "partie/jouer", &win, &alice).await.game();
    let score = won.score.clone().expect("won and scored");
    // The same move again on A: the game is over there too.
    let again = post(&c.client, a, "partie/jouer", &win, &alice).await;
    assert_eq!((again.status, again.error()), (409, AppError::GameOver));
    assert_eq!(sql_count(&c.postgres, "SELECT count(*) FROM scores WHERE game_id = $1", id).await, 1);
    // Both servers show the same leaderboard, with the score once.
    let mut boards = Vec::new();
    for server in [a, b] {
        let answer = post(&c.client, server, "classement", &[], &player(2)).await;
        assert_eq!(answer.status, 200, "{}", answer.body);
        boards.push(serde_json::from_str::<LeaderboardView>(&answer.body).unwrap().top);
    }
    assert_eq!(boards[0], boards[1]);
    assert_eq!(boards[0].len(), 1);
    assert_eq!(boards[0][0].score, score.score);
    // The player's own view of the game, from either server.
    assert_eq!(post(&c.client, a, "partie/etat", &[("game_id", id)], &alice).await.game(), won);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn of_100_simultaneous_submissions_of_one_ply_on_two_servers_one_is_accepted() {
    let c = cluster(2).await;
    let alice = player(3);
    let form = [("kind", "Free"), ("rules", "international"), ("level", "Debutant"), ("player", "White")];
    let game = post(&c.client, c.servers[0].addr, "partie/nouvelle", &form, &alice).await.game();
    let sends: Vec<_> = (0..100)
        .map(|i| {
            let (client, server, alice, id) = (c.client.clone(), c.servers[i % 2].addr, alice.clone(), game.id.clone());
            tokio::spawn(async move {
                let form = [("game_id", id.as_str()), ("ply", "0"), ("mv", "32-28"), ("think_ms", "1000")];
                post(&client, server, "partie/jouer", &form, &alice).await
            })
        })
        .collect();
    let mut statuses = std::collections::BTreeMap::new();
    for send in sends {
        let answer = send.await.unwrap();
        if answer.status == 409 {
            assert_eq!(answer.error(), AppError::Conflict);
        }
        *statuses.entry(answer.status).or_insert(0) += 1;
    }
    assert_eq!(statuses, [(200, 1), (409, 99)].into_iter().collect());
    let moves = sql_count(&c.postgres, "SELECT count(*) FROM game_moves WHERE game_id = $1", &game.id).await;
    assert_eq!(moves, 2, "the move and the computer's answer, once");
}

/// What players were told was stored: each game's moves in the latest
/// answer they got.
type Acknowledged = Arc<Mutex<Vec<GameView>>>;

/// Statuses of the answers a player got, by status.
type Statuses = std::collections::BTreeMap<u16, u64>;

/// A player who plays random legal moves at `at` until `until`, keeping
/// every game the servers acknowledged.
async fn keep_playing(at: SocketAddr, i: u64, until: Instant, acknowledged: Acknowledged) -> Statuses {
    let client = reqwest::Client::new();
    let me = player(100 + i);
    let mut statuses = Statuses::new();
    let mut game: Option<GameView> = None;
    let mut pick = i as usize;
    while Instant::now() < until {
        let answer = match game.as_ref().filter(|g| g.outcome.is_none()) {
            None => {
                let form = [("kind", "Free"), ("rules", "international"), ("level", "Debutant"), ("player", "White")];
                post(&client, at, "partie/nouvelle", &form, &me).await
            }
            Some(view) => {
                let choices = view.replay().unwrap().choices();
                pick = pick.wrapping_mul(31).wrapping_add(7);
                let mv = choices[pick % choices.len()].long.clone();
                let ply = view.moves.len().to_string();
                let form = [("game_id", view.id.as_str()), ("ply", &ply), ("mv", &mv), ("think_ms", "300")];
                post(&client, at, "partie/jouer", &form, &me).await
            }
        };
        *statuses.entry(answer.status).or_default() += 1;
        if answer.status == 200 {
            let view: GameView = serde_json::from_str(&answer.body).unwrap();
            acknowledged.lock().unwrap().push(view.clone());
            game = Some(view);
        } else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            if let Some(view) = &game {
                let reloaded = post(&client, at, "partie/etat", &[("game_id", view.id.as_str())], &me).await;
                *statuses.entry(reloaded.status).or_default() += 1;
                if reloaded.status == 200 {
                    game = Some(reloaded.game());
                }
            }
        }
    }
    statuses
}

/// Every player's statuses added up.
async fn all_statuses(players: Vec<tokio::task::JoinHandle<Statuses>>) -> Statuses {
    let mut total = Statuses::new();
    for p in players {
        for (status, n) in p.await.unwrap() {
            *total.entry(status).or_default() += n;
        }
    }
    total
}

/// Every acknowledged game is stored with at least the moves the player
/// was shown (later answers may have added more).
async fn assert_stored(postgres: &ThrowawayPostgres, acknowledged: &[GameView]) {
    let (client, connection) = tokio_postgres::connect(&postgres.url("dames"), tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    for view in acknowledged {
        let rows =
            client.query("SELECT move FROM game_moves WHERE game_id = $1 ORDER BY ply", &[&view.id]).await.unwrap();
        let stored: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
        assert!(stored.starts_with(&view.moves), "game {}: stored {stored:?}, acknowledged {:?}", view.id, view.moves);
    }
}

async fn start_proxy(servers: Vec<SocketAddr>) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let at = listener.local_addr().unwrap();
    tokio::spawn(proxy(listener, servers));
    at
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn when_a_server_is_killed_the_other_serves_and_nothing_acknowledged_is_lost() {
    let mut c = cluster(2).await;
    let proxy_at = start_proxy(c.servers.iter().map(|s| s.addr).collect()).await;
    // Pages pass through the proxy too.
    let home = c.client.get(format!("http://{proxy_at}/")).send().await.unwrap();
    assert_eq!(home.status(), 200);
    assert!(home.text().await.unwrap().contains("Défi du jour"));
    let acknowledged: Acknowledged = Arc::default();
    let until = Instant::now() + Duration::from_secs(6);
    let players: Vec<_> =
        (0..12).map(|i| tokio::spawn(keep_playing(proxy_at, i, until, acknowledged.clone()))).collect();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let before_kill = acknowledged.lock().unwrap().len();
    c.servers[0].kill();
    let killed_at = acknowledged.lock().unwrap().len();
    let statuses = all_statuses(players).await;
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(before_kill > 0, "players played before the kill");
    assert!(
        acknowledged.len() > killed_at + 12,
        "the other server went on serving: {killed_at} → {}",
        acknowledged.len()
    );
    assert_stored(&c.postgres, &acknowledged).await;
    // Only requests caught by the kill failed (the proxy answers 502), a
    // handful at most.
    let failed: u64 = statuses.iter().filter(|(s, _)| **s != 200).map(|(_, n)| n).sum();
    assert!(failed <= 24, "{statuses:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn while_postgres_restarts_under_play_the_server_answers_503_then_recovers_by_itself() {
    let c = cluster(1).await;
    let at = c.servers[0].addr;
    let alice = player(4);
    let form = [("kind", "Free"), ("rules", "international"), ("level", "Debutant"), ("player", "White")];
    let game = post(&c.client, at, "partie/nouvelle", &form, &alice).await.game();
    let acknowledged: Acknowledged = Arc::default();
    let until = Instant::now() + Duration::from_secs(8);
    let players: Vec<_> = (0..6).map(|i| tokio::spawn(keep_playing(at, i, until, acknowledged.clone()))).collect();
    tokio::time::sleep(Duration::from_millis(1500)).await;

    c.postgres.stop().unwrap();
    let stopped_at = acknowledged.lock().unwrap().len();
    let move_form = [("game_id", game.id.as_str()), ("ply", "0"), ("mv", "32-28"), ("think_ms", "1000")];
    let refused = post(&c.client, at, "partie/jouer", &move_form, &alice).await;
    assert_eq!((refused.status, refused.error()), (503, AppError::Unavailable));
    assert_eq!(get_status(&c.client, format!("http://{at}/pret")).await, Some(503));
    assert_eq!(get_status(&c.client, format!("http://{at}/sante")).await, Some(503));
    let page = get_status(&c.client, format!("http://{at}/partie-libre")).await;
    assert_eq!(page, Some(503), "a page whose data is out of reach");
    tokio::time::sleep(Duration::from_millis(1000)).await;

    c.postgres.start_again().unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let answer = post(&c.client, at, "partie/jouer", &move_form, &alice).await;
        if answer.status == 200 {
            assert_eq!(answer.game().moves.len(), 2);
            break;
        }
        assert_eq!(answer.status, 503, "{}", answer.body);
        assert!(Instant::now() < deadline, "no recovery within 30 s");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(get_status(&c.client, format!("http://{at}/pret")).await, Some(200));
    let recovered_at = acknowledged.lock().unwrap().len();

    // The players got answers, 503s and conflicts but never a 500, and
    // played on once the database was back.
    let statuses = all_statuses(players).await;
    assert!(statuses.keys().all(|s| [200, 409, 503].contains(s)), "{statuses:?}");
    assert!(statuses.get(&503).is_some_and(|&n| n > 0), "{statuses:?}");
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(stopped_at > 0 && acknowledged.len() > recovered_at, "{stopped_at} {recovered_at} {}", acknowledged.len());
    assert_stored(&c.postgres, &acknowledged).await;
    // Still the same process, and its metrics counted the 503s.
    let metrics = c.client.get(format!("http://{at}/metrics")).send().await.unwrap().text().await.unwrap();
    assert!(metrics.contains("status=\"503\""), "{metrics}");
}
