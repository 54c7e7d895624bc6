//! The site as HTTP clients see it, through the real router: the status of
//! every refusal, clients behind a reverse proxy, and page views that store
//! nothing. (Inside the crate, so that the server functions are registered
//! in the test binary.)

use super::analyses::AnalysisBudget;
use super::db::sqlite::SqliteDb;
use super::db::Db;
use super::games::{self, NewGame};
use super::limits::{LimitsConfig, RateLimits};
use super::proxy::TrustedProxies;
use super::{router, Site};
use crate::app::panel::percent_encode;
use crate::engine::analysis::NodeBudget;
use crate::engine::{Color, DrawReason, Outcome, Rules};
use crate::protocol::{AnalysisState, AppError, GameKind, GameSetup, GameView};
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, HeaderMap, Request, StatusCode};
use axum::Router;
use leptos::config::LeptosOptions;
use std::net::{IpAddr, SocketAddr};
use std::sync::LazyLock;
use tower::ServiceExt;

/// One runtime for every test here, as one server has: the tests run side
/// by side on it.
static RUNTIME: LazyLock<tokio::runtime::Runtime> = LazyLock::new(|| {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime")
});

fn on_runtime(test: impl std::future::Future<Output = ()>) {
    RUNTIME.block_on(test)
}

/// Leptos marks route generation with a process-wide flag, and a page whose
/// resources first run while another thread generates routes never finishes
/// (leptos issue 4773). A server generates its routes once, before serving;
/// tests build a router each, side by side: routers are built under the
/// write lock, requests run under the read lock.
static ROUTING: LazyLock<tokio::sync::RwLock<()>> = LazyLock::new(|| tokio::sync::RwLock::new(()));

/// A site on an in-memory database, and requests to it.
struct TestSite {
    app: Router,
    /// The site's database, for checks in SQL.
    sqlite: SqliteDb,
    db: Db,
}

/// One request's answer.
struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    body: String,
}

impl Answer {
    fn error(&self) -> AppError {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not an AppError ({e}): {}", self.body))
    }

    fn game(&self) -> GameView {
        assert_eq!(self.status, StatusCode::OK, "{}", self.body);
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not a GameView ({e}): {}", self.body))
    }

    fn analysis(&self) -> AnalysisState {
        assert_eq!(self.status, StatusCode::OK, "{}", self.body);
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not an AnalysisState ({e}): {}", self.body))
    }
}

/// Who sends a request: a player's cookie (or none), the connection's
/// address and any extra headers (a proxy's).
#[derive(Clone, Default)]
struct Sender {
    player: Option<String>,
    peer: Option<&'static str>,
    headers: Vec<(&'static str, String)>,
}

fn player(id: &str) -> Sender {
    Sender { player: Some(id.to_string()), ..Sender::default() }
}

const ALICE: &str = "0b9a3a8e-8f4a-4c55-9a55-3c1f5e3f1a2b";
const BOB: &str = "1c2b3d4e-5f60-4718-9a2b-3c4d5e6f7a8b";

impl TestSite {
    async fn new(limits: LimitsConfig, trusted: &str) -> TestSite {
        let _routing = ROUTING.write().await;
        let sqlite = SqliteDb::open_in_memory().unwrap();
        let db = Db::Sqlite(sqlite.clone());
        let site = Site {
            db: db.clone(),
            limits: RateLimits::new(limits),
            trusted_proxies: TrustedProxies::parse(trusted).unwrap(),
            // A small budget: the analyses here check what is stored and
            // when, not how well the engine judges.
            analysis_budget: AnalysisBudget(NodeBudget::new(5_000).unwrap()),
        };
        let options = LeptosOptions::builder().output_name("dames").site_root("target/site").build();
        TestSite { app: router(options, site), sqlite, db }
    }

    async fn send(&self, method: &str, path: &str, form: &[(&str, &str)], from: &Sender) -> Answer {
        let body: String = form.iter().map(|(k, v)| format!("{k}={}", percent_encode(v))).collect::<Vec<_>>().join("&");
        let mut request = Request::builder().method(method).uri(path);
        if method == "POST" {
            request = request.header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
        }
        if let Some(id) = &from.player {
            request = request.header(header::COOKIE, format!("dames_joueur={id}"));
        }
        for (name, value) in &from.headers {
            request = request.header(*name, value);
        }
        let mut request = request.body(Body::from(body)).unwrap();
        let peer: IpAddr = from.peer.unwrap_or("192.0.2.1").parse().unwrap();
        request.extensions_mut().insert(ConnectInfo(SocketAddr::new(peer, 40_000)));
        let _routing = ROUTING.read().await;
        let response = self.app.clone().oneshot(request).await.unwrap();
        let (status, headers) = (response.status(), response.headers().clone());
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
        Answer { status, headers, body: String::from_utf8_lossy(&bytes).into_owned() }
    }

    async fn post(&self, endpoint: &str, form: &[(&str, &str)], from: &Sender) -> Answer {
        self.send("POST", &format!("/api/{endpoint}"), form, from).await
    }

    async fn get(&self, path: &str, from: &Sender) -> Answer {
        self.send("GET", path, &[], from).await
    }

    /// A free game against debutant, stored now.
    async fn new_game(&self, from: &Sender) -> GameView {
        let form = [("kind", "Free"), ("rules", "international"), ("level", "Debutant"), ("player", "White")];
        self.post("partie/nouvelle", &form, from).await.game()
    }

    fn rows(&self) -> [i64; 4] {
        self.sqlite.run_blocking(|c| {
            ["players", "games", "game_moves", "scores"]
                .map(|table| c.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0)).unwrap())
        })
    }

    fn sql(&self, statement: &str, game_id: &str) {
        self.sqlite.run_blocking(|c| c.execute(statement, [game_id])).unwrap();
    }
}

/// The first legal move of the side to move, long form.
fn some_move(view: &GameView) -> String {
    let game = view.replay().unwrap();
    game.choices().first().expect("a legal move").long.clone()
}

fn ply(view: &GameView) -> String {
    view.moves.len().to_string()
}

/// The board's squares in a page (`data-square="12"`; the page's script
/// names the attribute too, without a number).
fn squares_in(page: &str) -> usize {
    page.match_indices("data-square=\"")
        .filter(|(at, found)| page[at + found.len()..].starts_with(|c: char| c.is_ascii_digit()))
        .count()
}

#[test]
fn every_refusal_has_its_status() {
    on_runtime(async {
        let site = TestSite::new(LimitsConfig::default(), "").await;
        let (alice, bob) = (player(ALICE), player(BOB));
        let game = site.new_game(&alice).await;
        let id = game.id.as_str();
        let play =
            |mv: &'static str, ply: &'static str| [("game_id", id), ("ply", ply), ("mv", mv), ("think_ms", "1000")];
        let cases: Vec<(Answer, StatusCode, &str)> = vec![
            (
                site.post("partie/jouer", &[("game_id", id), ("ply", "0"), ("think_ms", "1")], &alice).await,
                StatusCode::BAD_REQUEST,
                "BadRequest",
            ),
            (
                site.post(
                    "partie/jouer",
                    &[("game_id", id), ("ply", "x"), ("mv", "32-28"), ("think_ms", "-5")],
                    &alice,
                )
                .await,
                StatusCode::BAD_REQUEST,
                "BadRequest",
            ),
            (site.post("partie/jouer", &play("32-28", "0"), &bob).await, StatusCode::FORBIDDEN, "NotYourGame"),
            (
                site.post(
                    "partie/jouer",
                    &[("game_id", "nope"), ("ply", "0"), ("mv", "32-28"), ("think_ms", "1")],
                    &alice,
                )
                .await,
                StatusCode::NOT_FOUND,
                "GameNotFound",
            ),
            (site.post("partie/jouer", &play("32-28", "4"), &alice).await, StatusCode::CONFLICT, "Conflict"),
            (
                site.post("partie/jouer", &play("32-23", "0"), &alice).await,
                StatusCode::UNPROCESSABLE_ENTITY,
                "IllegalMove",
            ),
            (
                site.post("joueur/pseudonyme", &[("name", "<b>moi</b>")], &alice).await,
                StatusCode::UNPROCESSABLE_ENTITY,
                "BadPseudonym",
            ),
            (site.post("partie/revoir", &[("game_id", id)], &bob).await, StatusCode::FORBIDDEN, "NotYourGame"),
        ];
        for (answer, status, variant) in cases {
            assert_eq!(answer.status, status, "{variant}: {}", answer.body);
            assert!(answer.body.contains(variant), "{variant}: {}", answer.body);
            assert!(!answer.error().to_string().is_empty(), "the page has a French message");
        }
        assert_eq!(site.rows(), [1, 1, 0, 0], "nothing was played");

        // Over: no more moves.
        assert_eq!(site.post("partie/abandonner", &[("game_id", id)], &alice).await.status, StatusCode::OK);
        let over = site.post("partie/jouer", &play("32-28", "0"), &alice).await;
        assert_eq!((over.status, over.error()), (StatusCode::CONFLICT, AppError::GameOver));

        // Against an earlier computer: refused, and said why.
        let game = site.new_game(&alice).await;
        site.sql("UPDATE games SET bot_version = bot_version - 1 WHERE id = ?1", &game.id);
        let old = site
            .post("partie/jouer", &[("game_id", &game.id), ("ply", "0"), ("mv", "32-28"), ("think_ms", "1")], &alice)
            .await;
        assert_eq!((old.status, old.error()), (StatusCode::CONFLICT, AppError::ComputerChanged));

        // Only a real fault is a 500: a stored game that no longer replays.
        let game = site.new_game(&alice).await;
        let first = site
            .post("partie/jouer", &[("game_id", &game.id), ("ply", "0"), ("mv", "32-28"), ("think_ms", "1")], &alice)
            .await
            .game();
        site.sql("UPDATE game_moves SET move = '31-27' WHERE game_id = ?1 AND ply = 1", &game.id);
        let broken = site
            .post(
                "partie/jouer",
                &[("game_id", &game.id), ("ply", &ply(&first)), ("mv", "33-29"), ("think_ms", "1")],
                &alice,
            )
            .await;
        assert_eq!((broken.status, broken.error()), (StatusCode::INTERNAL_SERVER_ERROR, AppError::Internal));

        // Pages say it too.
        assert_eq!(site.get("/partie/nope", &alice).await.status, StatusCode::NOT_FOUND);
        assert_eq!(site.get(&format!("/partie/{}", first.id), &bob).await.status, StatusCode::FORBIDDEN);
        assert_eq!(site.get("/classement?jour=2026-02-30", &alice).await.status, StatusCode::BAD_REQUEST);
        assert_eq!(site.get("/classement?jour=2026-02-28", &alice).await.status, StatusCode::OK);
    });
}

#[test]
fn todays_daily_game_of_another_player_is_hidden_until_tomorrow() {
    on_runtime(async {
        let site = TestSite::new(LimitsConfig::default(), "").await;
        let day = super::today_utc();
        let new = NewGame {
            player_id: ALICE,
            kind: GameKind::Daily,
            day: &day,
            setup: GameSetup::daily(),
            seed: 1,
            start_fen: Some("W:WK47,40:B9,12,33"),
            now_ms: 0,
        };
        let won = games::create(&site.db, new).await.unwrap();
        let answer = site
            .post(
                "partie/jouer",
                &[("game_id", &won.id), ("ply", "0"), ("mv", "47x26{9,12,33}"), ("think_ms", "1")],
                &player(ALICE),
            )
            .await;
        assert!(answer.game().score.is_some(), "won and scored");
        let hidden = site.post("partie/revoir", &[("game_id", &won.id)], &player(BOB)).await;
        assert_eq!((hidden.status, hidden.error()), (StatusCode::FORBIDDEN, AppError::HiddenUntilTomorrow));
        assert_eq!(site.post("partie/revoir", &[("game_id", &won.id)], &player(ALICE)).await.status, StatusCode::OK);
    });
}

#[test]
fn a_rate_limited_request_gets_429_and_retry_after() {
    on_runtime(async {
        let limits = LimitsConfig { moves_per_player: 6, ..LimitsConfig::default() };
        let site = TestSite::new(limits, "").await;
        let alice = player(ALICE);
        let game = site.new_game(&alice).await;
        let first = site
            .post("partie/jouer", &[("game_id", &game.id), ("ply", "0"), ("mv", "32-28"), ("think_ms", "1")], &alice)
            .await
            .game();
        let mv = some_move(&first);
        let refused = site
            .post(
                "partie/jouer",
                &[("game_id", &game.id), ("ply", &ply(&first)), ("mv", &mv), ("think_ms", "1")],
                &alice,
            )
            .await;
        assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS, "{}", refused.body);
        let retry: u64 = refused.headers[header::RETRY_AFTER].to_str().unwrap().parse().unwrap();
        assert!((1..=10).contains(&retry), "six a minute: one every ten seconds, not {retry}");
        assert_eq!(refused.error(), AppError::RateLimited { retry_after_s: retry });
        assert_eq!(site.rows()[2], 2, "the refused move was not stored");
    });
}

/// 50 players behind one proxy: each is told apart by the address the
/// proxy forwards, so none is refused; the same headers from a peer that is
/// not a trusted proxy are ignored, so those 50 share one address's limit.
#[test]
fn players_behind_a_trusted_proxy_are_told_apart() {
    on_runtime(async {
        let limits = LimitsConfig { moves_per_address: 60, games_per_address: 150, ..LimitsConfig::default() };
        let site = TestSite::new(limits, "10.0.0.1, 10.0.0.0/30").await;
        let behind = |i: usize, peer: &'static str| Sender {
            player: Some(format!("00000000-0000-4000-8000-{i:012}")),
            peer: Some(peer),
            headers: vec![("x-forwarded-for", format!("198.51.100.{}, 10.0.0.2", i % 50 + 1))],
        };
        // Starts a game with a first move, then plays two more; returns how
        // many requests were refused for the rate.
        let play_three_moves = |from: Sender| {
            let site = &site;
            async move {
                let mut answer = site
                    .post(
                        "partie/commencer",
                        &[
                            ("kind", "Free"),
                            ("rules", "international"),
                            ("level", "Debutant"),
                            ("player", "White"),
                            ("mv", "32-28"),
                        ],
                        &from,
                    )
                    .await;
                for _ in 0..2 {
                    if answer.status != StatusCode::OK {
                        break;
                    }
                    let game = answer.game();
                    let form = [
                        ("game_id", game.id.as_str()),
                        ("ply", &ply(&game)),
                        ("mv", &some_move(&game)),
                        ("think_ms", "1"),
                    ];
                    answer = site.post("partie/jouer", &form, &from).await;
                }
                match answer.status {
                    StatusCode::OK => 0,
                    StatusCode::TOO_MANY_REQUESTS => 1,
                    other => panic!("{other}: {}", answer.body),
                }
            }
        };
        let mut trusted_refusals = 0;
        for i in 0..50 {
            trusted_refusals += play_three_moves(behind(i, "10.0.0.1")).await;
        }
        assert_eq!(trusted_refusals, 0, "every player behind the proxy played");
        assert_eq!(site.rows()[1], 50, "50 games");
        assert_eq!(site.rows()[2], 50 * 6, "three moves each, and the computer's answers");

        let mut untrusted_refusals = 0;
        for i in 50..100 {
            untrusted_refusals += play_three_moves(behind(i, "203.0.113.9")).await;
        }
        assert!(untrusted_refusals > 0, "one address: its limit applies to all 50");

        // A TLS proxy's word makes the cookie Secure; anyone else's does not.
        let https = |peer: &'static str| Sender {
            peer: Some(peer),
            headers: vec![("x-forwarded-proto", "https".into())],
            ..Sender::default()
        };
        let cookie = |a: &Answer| a.headers[header::SET_COOKIE].to_str().unwrap().to_string();
        assert!(cookie(&site.get("/", &https("10.0.0.1")).await).ends_with("; Secure"));
        assert!(!cookie(&site.get("/", &https("203.0.113.9")).await).contains("Secure"));
    });
}

#[test]
fn page_views_store_nothing() {
    on_runtime(async {
        let site = TestSite::new(LimitsConfig::default(), "").await;
        let game = site.new_game(&player(ALICE)).await;
        let over = site.post("partie/abandonner", &[("game_id", &game.id)], &player(ALICE)).await.game();
        let before = site.rows();
        assert_eq!(before, [1, 1, 0, 0]);
        let home = site.get("/", &Sender::default()).await;
        assert!(home.headers.contains_key(header::SET_COOKIE), "the home page gives a cookie, and stores nothing");
        let replay = format!("/partie/{}", over.id);
        let pages = [
            "/",
            "/partie-libre",
            "/partie-libre?niveau=fort",
            "/classement",
            "/classement?niveau=fort",
            "/regles",
            replay.as_str(),
        ];
        for page in pages {
            let first = site.get(page, &Sender::default()).await;
            assert_eq!(first.status, StatusCode::OK, "{page}");
            // One stored row per view would show at once; fifty views
            // also catch a write made now and then (a debug build renders
            // a page in some 20 ms: 1,000 views of each took two minutes).
            for _ in 1..50 {
                site.get(page, &Sender::default()).await;
            }
            assert_eq!(site.rows(), before, "50 views of {page} stored nothing");
        }
    });
}

#[test]
fn the_set_up_form_starts_a_game_the_computer_opens_and_nothing_else() {
    on_runtime(async {
        let site = TestSite::new(LimitsConfig::default(), "").await;
        let form = |colour: &'static str, action: &'static str| {
            [
                ("mode", "ordinateur"),
                ("affiche", "russian"),
                ("variante", "russian"),
                ("niveau", "debutant"),
                ("couleur", colour),
                ("action", action),
            ]
        };
        let start = crate::app::pages::setup::START_PATH;
        // As Black: the game is stored with the computer's first move, and
        // the player (new: the answer gives the cookie) is sent to it.
        let answer = site.send("POST", start, &form("noirs", "jouer"), &Sender::default()).await;
        assert_eq!(answer.status, StatusCode::SEE_OTHER, "{}", answer.body);
        assert_eq!(answer.headers[header::LOCATION], "/partie-libre?regles=russian&niveau=debutant&couleur=noirs");
        let cookie = answer.headers[header::SET_COOKIE].to_str().unwrap();
        let id = cookie.strip_prefix("dames_joueur=").and_then(|c| c.split(';').next()).unwrap().to_string();
        assert_eq!(site.rows(), [1, 1, 1, 0], "one game, the computer's move");
        let page = site.get("/partie-libre?regles=russian&niveau=debutant&couleur=noirs", &player(&id)).await;
        assert!(!page.body.contains("Lancer la partie"), "the game has begun: no second button");
        // As White, and a form to show again: nothing stored, the form's
        // page with the same fields.
        let answer = site.send("POST", start, &form("blancs", "jouer"), &player(ALICE)).await;
        assert_eq!(answer.headers[header::LOCATION], "/partie-libre?regles=russian&niveau=debutant&couleur=blancs");
        let answer = site.send("POST", start, &form("noirs", "variante"), &player(ALICE)).await;
        assert_eq!(answer.status, StatusCode::SEE_OTHER);
        let back = answer.headers[header::LOCATION].to_str().unwrap();
        assert!(back.starts_with("/nouvelle-partie?mode=ordinateur&") && back.contains("action=variante"), "{back}");
        assert_eq!(site.rows(), [1, 1, 1, 0]);
        // A body that is not a form, or too long a one: a 400 in French.
        let answer = site.send("POST", start, &[("x", &"y".repeat(20_000))], &player(ALICE)).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST);
        assert!(answer.body.contains("Formulaire"), "{}", answer.body);
        assert_eq!(site.rows(), [1, 1, 1, 0]);
    });
}

#[test]
fn the_settings_are_kept_in_a_cookie_that_the_server_renders_with() {
    on_runtime(async {
        let site = TestSite::new(LimitsConfig::default(), "").await;
        let save = crate::app::pages::settings::SAVE_PATH;
        let form = [
            ("palette", "contraste"),
            ("numeros", "1"),
            ("confirmation", "1"),
            ("son", "1"),
            ("rafle", "case-par-case"),
        ];
        let answer = site.send("POST", save, &form, &player(ALICE)).await;
        assert_eq!(answer.status, StatusCode::SEE_OTHER, "{}", answer.body);
        assert_eq!(answer.headers[header::LOCATION], "/reglages?enregistre=1");
        let cookie = answer.headers[header::SET_COOKIE].to_str().unwrap().to_string();
        assert!(cookie.contains("; Path=/; Max-Age=31536000; SameSite=Lax"), "{cookie}");
        let pair = cookie.split(';').next().unwrap().to_string();
        assert_eq!(
            pair,
            "dames_reglages=palette=contraste&numeros=1&destinations=0&confirmation=1&son=1&rafle=case-par-case"
        );
        assert_eq!(site.rows(), [0, 0, 0, 0], "settings store nothing on the server");

        let with_settings = Sender { headers: vec![("cookie", pair.clone())], ..player(ALICE) };
        let page = site.get("/", &with_settings).await;
        assert!(page.body.contains(r#"<body data-palette="contraste">"#), "the palette, drawn by the server");
        assert!(page.body.contains(r#"class="board numbers no-destinations""#), "numbers on, destinations off");
        assert!(page.body.contains("confirm_moves&quot;:true") || page.body.contains(r#""confirm_moves":true"#));
        let settings = site.get("/reglages?enregistre=1", &with_settings).await;
        assert!(settings.body.contains("Réglages enregistrés"));
        for checked in
            [r#"value="contraste" checked"#, r#"name="numeros" value="1" checked"#, r#"value="case-par-case" checked"#]
        {
            assert!(settings.body.contains(checked), "{checked} in the form");
        }
        assert!(!settings.body.contains(r#"name="destinations" value="1" checked"#));
        let plain = site.get("/", &player(ALICE)).await;
        assert!(plain.body.contains(r#"<body data-palette="bois">"#) && plain.body.contains(r#"class="board""#));

        // A choice the form never offers, or no form: a 400, no cookie.
        for body in [vec![("palette", "rose".to_string())], vec![("son", "x".repeat(5_000))]] {
            let body: Vec<(&str, &str)> = body.iter().map(|(n, v)| (*n, v.as_str())).collect();
            let answer = site.send("POST", save, &body, &player(ALICE)).await;
            assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{}", answer.body);
            assert!(answer.body.contains("Réglage inconnu") || answer.body.contains("Formulaire"), "{}", answer.body);
            assert!(!answer.headers.contains_key(header::SET_COOKIE));
        }
    });
}

#[test]
fn two_players_share_a_game_of_any_rules_and_agree_a_draw() {
    on_runtime(async {
        let site = TestSite::new(LimitsConfig::default(), "").await;
        let (alice, bob) = (player(ALICE), player(BOB));
        let start = |rules: &'static str, mv: &'static str| {
            [("kind", "TwoPlayers"), ("rules", rules), ("level", "Fort"), ("player", "Black"), ("mv", mv)]
        };
        let forged = site.post("partie/commencer", &start("english,size=9", "11-15"), &alice).await;
        assert_eq!(forged.status, StatusCode::BAD_REQUEST, "{}", forged.body);
        assert_eq!(site.rows()[1], 0, "nothing stored");
        let white_first = site.post("partie/commencer", &start("english", "22-18"), &alice).await;
        assert_eq!(white_first.status, StatusCode::UNPROCESSABLE_ENTITY, "Black opens English draughts");
        let game = site.post("partie/commencer", &start("english", "11-15"), &alice).await.game();
        assert_eq!((game.moves.len(), game.setup.player), (1, Color::White), "no reply, no side");
        assert_eq!(game.setup.rules, Rules::ENGLISH);
        let game = site
            .post("partie/jouer", &[("game_id", &game.id), ("ply", "1"), ("mv", "23-19"), ("think_ms", "1")], &alice)
            .await
            .game();
        assert_eq!(game.moves, ["11-15", "23-19"]);
        let stranger = site.post("partie/nulle", &[("game_id", &game.id), ("ply", "2")], &bob).await;
        assert_eq!(stranger.status, StatusCode::FORBIDDEN);
        let stale = site.post("partie/nulle", &[("game_id", &game.id), ("ply", "1")], &alice).await;
        assert_eq!(stale.status, StatusCode::CONFLICT);
        let drawn = site.post("partie/nulle", &[("game_id", &game.id), ("ply", "2")], &alice).await.game();
        assert_eq!(drawn.outcome, Some(Outcome::Draw(DrawReason::Agreement)));
        let page = site.get(&format!("/partie/{}", game.id), &alice).await;
        assert!(
            page.body.contains("Partie nulle d&#x27;un commun accord")
                || page.body.contains("Partie nulle d'un commun accord")
        );
        // The game resumes on its page, on its 8×8 board.
        let resumed = site.get("/deux-joueurs", &alice).await;
        assert_eq!(resumed.status, StatusCode::OK);
        assert!(resumed.body.contains(r#"data-rules="english""#), "the board says its rules");
        assert_eq!(squares_in(&resumed.body), 32);
    });
}

#[test]
fn the_game_pages_read_their_setup_from_the_address_and_refuse_bad_ones_in_french() {
    on_runtime(async {
        let site = TestSite::new(LimitsConfig::default(), "").await;
        let alice = player(ALICE);
        let russian = site.get("/partie-libre?regles=russian&niveau=debutant&couleur=noirs", &alice).await;
        assert_eq!(russian.status, StatusCode::OK);
        assert!(russian.body.contains(r#"data-rules="russian""#));
        assert!(russian.body.contains(r#"data-fen="W:W21-32:B1-12""#), "the no-JavaScript view shows the 8×8 start");
        assert!(russian.body.contains("Partie non classée"), "as Black: said before the game starts");
        let custom = site.get("/partie-libre?regles=international,size%3D8,flying%3D0", &alice).await;
        assert!(custom.body.contains(r#"data-rules="brazilian,flying=0""#), "{}", custom.status);
        for (address, words) in [
            ("/partie-libre?regles=checkers", "Variante inconnue"),
            ("/partie-libre?regles=english,kings%3D1", "Règle inconnue"),
            ("/partie-libre?regles=english,draw_moves%3D999", "draw_moves"),
            ("/partie-libre?regles=russian,rows%3D4", "rangées"),
            ("/partie-libre?niveau=maitre", "Niveau inconnu"),
            ("/deux-joueurs?regles=english,size%3D9", "size"),
            ("/nouvelle-partie?regles=polish", "Variante inconnue"),
        ] {
            let page = site.get(address, &alice).await;
            assert_eq!(page.status, StatusCode::BAD_REQUEST, "{address}");
            assert!(page.body.contains(words), "{address}: {words}");
            assert!(page.body.contains("Réglages de la partie") || page.body.contains("setup-form"), "{address}");
        }
        assert_eq!(site.rows(), [0, 0, 0, 0], "pages store nothing");
        assert_eq!(site.get("/nouvelle-partie?mode=deux-joueurs", &alice).await.status, StatusCode::OK);
        // The set-up form answers with the game's address.
        let form = "/nouvelle-partie?mode=ordinateur&affiche=international&variante=english&niveau=fort&action=jouer";
        let started = site.get(form, &alice).await;
        assert_eq!(started.status, StatusCode::SEE_OTHER);
        assert_eq!(started.headers[header::LOCATION], "/partie-libre?regles=english&niveau=fort&couleur=blancs");
    });
}

#[test]
fn liveness_readiness_and_metrics_answer() {
    on_runtime(async {
        let site = TestSite::new(LimitsConfig::default(), "").await;
        let alice = player(ALICE);
        let health = site.get("/sante", &alice).await;
        assert_eq!((health.status, health.body.as_str()), (StatusCode::OK, "ok\n"));
        let ready = site.get("/pret", &alice).await;
        assert_eq!((ready.status, ready.body.as_str()), (StatusCode::OK, "prêt\n"));
        let game = site.new_game(&alice).await;
        let played = [("game_id", game.id.as_str()), ("ply", "0"), ("mv", "32-28"), ("think_ms", "1000")];
        assert_eq!(site.post("partie/jouer", &played, &alice).await.game().moves.len(), 2);
        let refused = site.post("partie/jouer", &[("game_id", "nope")], &alice).await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST);
        let metrics = site.get("/metrics", &alice).await;
        assert_eq!(metrics.status, StatusCode::OK);
        assert!(metrics.headers[header::CONTENT_TYPE].to_str().unwrap().starts_with("text/plain"));
        for expected in [
            "# TYPE dames_http_requests_total counter",
            "route=\"/api/partie/nouvelle\"",
            "status=\"400\"",
            "dames_games_started_total{kind=\"free\"}",
            "dames_db_query_seconds_bucket{op=\"insert_game\",engine=\"sqlite\"",
            "dames_bot_search_nodes",
        ] {
            assert!(metrics.body.contains(expected), "{expected} missing from\n{}", metrics.body);
        }
    });
}

/// A game of Alice's, three moves, then resigned: finished.
async fn finished_game(site: &TestSite, alice: &Sender) -> GameView {
    let game = site.new_game(alice).await;
    let mut view = game.clone();
    for _ in 0..3 {
        let (mv, at) = (some_move(&view), ply(&view));
        view = site
            .post("partie/jouer", &[("game_id", &game.id), ("ply", &at), ("mv", &mv), ("think_ms", "1")], alice)
            .await
            .game();
    }
    site.post("partie/abandonner", &[("game_id", &game.id)], alice).await.game()
}

/// Asks how the analysis goes until it is done (a few seconds at most).
async fn analysis_done(site: &TestSite, game_id: &str, from: &Sender) -> crate::engine::analysis::Analysis {
    for _ in 0..600 {
        match site.post("analyse/etat", &[("game_id", game_id)], from).await.analysis() {
            AnalysisState::Done(analysis) => return *analysis,
            AnalysisState::Running { done, total } => assert!(done <= total),
            AnalysisState::NotStarted => panic!("the analysis stopped"),
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the analysis never finished")
}

#[test]
fn a_finished_games_analysis_is_searched_once_stored_and_read_back() {
    on_runtime(async {
        // Alice asks seven times here: more than a person's burst.
        let site = TestSite::new(LimitsConfig { analyses_per_player: 100, ..LimitsConfig::default() }, "").await;
        let (alice, bob) = (player(ALICE), player(BOB));
        let playing = site.new_game(&alice).await;
        let early = site.post("analyse/demander", &[("game_id", &playing.id)], &alice).await;
        assert_eq!((early.status, early.error()), (StatusCode::CONFLICT, AppError::GameNotOver));
        let missing = site.post("analyse/demander", &[("game_id", "nope")], &alice).await;
        assert_eq!((missing.status, missing.error()), (StatusCode::NOT_FOUND, AppError::GameNotFound));
        let too_long = "x".repeat(65);
        assert_eq!(
            site.post("analyse/demander", &[("game_id", &too_long)], &alice).await.status,
            StatusCode::NOT_FOUND
        );
        let hidden = site.post("analyse/etat", &[("game_id", &playing.id)], &bob).await;
        assert_eq!((hidden.status, hidden.error()), (StatusCode::FORBIDDEN, AppError::NotYourGame));
        let page = site.get(&format!("/analyse/{}", playing.id), &alice).await;
        assert!(page.body.contains("pas terminée"), "{}", page.body);
        assert_eq!(
            site.sqlite
                .run_blocking(|c| c.query_row("SELECT count(*) FROM analyses", [], |r| r.get::<_, i64>(0)))
                .unwrap(),
            0
        );

        let game = finished_game(&site, &alice).await;
        let page = site.get(&format!("/analyse/{}", game.id), &alice).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(page.body.contains("Analyser la partie"), "the button, nothing searched by a view");
        assert_eq!(
            site.post("analyse/etat", &[("game_id", &game.id)], &bob).await.analysis(),
            AnalysisState::NotStarted
        );

        // Four requests at once, from the player and from another (a
        // finished free game is public): one run claims it, the others
        // follow it.
        let form = [("game_id", game.id.as_str())];
        let ask = |from| site.post("analyse/demander", &form, from);
        let (a, b, c, d) = tokio::join!(ask(&alice), ask(&bob), ask(&alice), ask(&bob));
        for answer in [a, b, c, d] {
            assert!(matches!(answer.analysis(), AnalysisState::Running { .. } | AnalysisState::Done(_)));
        }
        let analysis = analysis_done(&site, &game.id, &bob).await;
        assert_eq!(analysis.plies.len(), game.moves.len());
        let rows = |site: &TestSite| {
            site.sqlite.run_blocking(|c| {
                c.query_row("SELECT count(*), max(updated_at), max(run_id) FROM analyses", [], |r| {
                    Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, String>(2)?))
                })
            })
        };
        let stored = rows(&site).unwrap();
        assert_eq!(stored.0, 1, "stored once");

        // Asked again: the stored analysis at once, nothing searched or
        // written again.
        assert_eq!(ask(&alice).await.analysis(), AnalysisState::Done(Box::new(analysis.clone())));
        assert_eq!(rows(&site).unwrap(), stored);
        let page = site.get(&format!("/analyse/{}", game.id), &bob).await;
        assert!(page.body.contains("data-testid=\"graphe\""), "the graph is drawn by the server");
        assert!(page.body.contains("Bilan"));
    });
}

#[test]
fn analyses_asked_for_too_often_get_429() {
    on_runtime(async {
        let limits = LimitsConfig { analyses_per_player: 2, ..LimitsConfig::default() };
        let site = TestSite::new(limits, "").await;
        let alice = player(ALICE);
        let game = finished_game(&site, &alice).await;
        let first = site.post("analyse/demander", &[("game_id", &game.id)], &alice).await;
        assert_eq!(first.status, StatusCode::OK, "{}", first.body);
        let refused = site.post("analyse/demander", &[("game_id", &game.id)], &alice).await;
        assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS, "{}", refused.body);
        let retry: u64 = refused.headers[header::RETRY_AFTER].to_str().unwrap().parse().unwrap();
        assert!((1..=30).contains(&retry), "two a minute: one every thirty seconds, not {retry}");
        // Watching it run is not asking again.
        assert_eq!(site.post("analyse/etat", &[("game_id", &game.id)], &alice).await.status, StatusCode::OK);
        analysis_done(&site, &game.id, &alice).await;
    });
}

#[test]
fn the_analysis_board_refuses_bad_text_with_its_status_and_stores_nothing() {
    on_runtime(async {
        let site = TestSite::new(LimitsConfig::default(), "").await;
        let alice = player(ALICE);
        let huge = "1. 32-28 ".repeat(super::analysis_board::MAX_PDN_BYTES / 9 + 1);
        let cases: Vec<(Answer, StatusCode, &str)> = vec![
            (
                site.post("analyse/evaluer", &[("rules", "nimporte"), ("fen", "W:W31-50:B1-20")], &alice).await,
                StatusCode::BAD_REQUEST,
                "BadRequest",
            ),
            (
                site.post("analyse/evaluer", &[("rules", "english"), ("fen", "W:W31-50:B1-20")], &alice).await,
                StatusCode::UNPROCESSABLE_ENTITY,
                "BadText",
            ),
            (
                site.post("analyse/importer", &[("text", "1. 32-28 19-23 2. 28x30 *"), ("index", "0")], &alice).await,
                StatusCode::UNPROCESSABLE_ENTITY,
                "BadText",
            ),
            (
                site.post("analyse/importer", &[("text", huge.as_str()), ("index", "0")], &alice).await,
                StatusCode::PAYLOAD_TOO_LARGE,
                "TooLarge",
            ),
            (
                site.post("analyse/importer", &[("text", "1. 32-28 *"), ("index", "x")], &alice).await,
                StatusCode::BAD_REQUEST,
                "BadRequest",
            ),
        ];
        for (answer, status, variant) in cases {
            assert_eq!(answer.status, status, "{variant}: {}", answer.body);
            assert!(answer.body.contains(variant), "{variant}: {}", answer.body);
            assert!(!answer.error().to_string().is_empty(), "the page has a French message");
        }
        let ok = site.post("analyse/importer", &[("text", "1. 32-28 19-23 *"), ("index", "0")], &alice).await;
        assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
        let evaluated = site
            .post("analyse/evaluer", &[("rules", "international"), ("fen", "W:W28,34,46-49:B1-5,18")], &alice)
            .await;
        assert_eq!(evaluated.status, StatusCode::OK, "{}", evaluated.body);
        assert!(evaluated.body.contains("Searched"), "{}", evaluated.body);
        assert_eq!(site.rows(), [0, 0, 0, 0], "nothing stored");
    });
}
