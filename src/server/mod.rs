//! The server side (built with the `ssr` feature only): configuration, the
//! HTTP router, the database and what the site stores. It uses the engine
//! and the wire types; it names the app only here, where the router mounts
//! it.

pub mod analyses;
pub mod analysis_board;
pub mod api;
pub mod days;
pub mod db;
pub mod error;
pub mod games;
#[cfg(test)]
mod http_tests;
pub mod limits;
pub mod observe;
pub mod offline;
pub mod players;
pub mod proxy;
pub mod scores;
pub mod statuses;

use crate::app::{shell, App};
use analyses::AnalysisBudget;
use axum::body::Body;
use axum::http::{header, HeaderValue, Request, Response, StatusCode};
use axum::routing::{get, post};
use axum::Router;
pub use days::today_utc;
use db::{Db, DbLocation};
use leptos::config::LeptosOptions;
use leptos::prelude::*;
use leptos_axum::{generate_route_list, LeptosRoutes};
use limits::{LimitsConfig, RateLimits};
use proxy::TrustedProxies;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;
use tracing::Span;

/// Where to listen, what to serve, where to store: from the environment.
#[derive(Clone, Debug)]
pub struct Config {
    /// `LEPTOS_SITE_ADDR`, default 127.0.0.1:3000.
    pub addr: SocketAddr,
    /// `LEPTOS_SITE_ROOT`, default `target/site`: the built browser bundle.
    pub site_root: PathBuf,
    /// `DAMES_DB`: a SQLite file (default `dames.sqlite3` in the working
    /// directory) or a `postgres://` address.
    pub db: DbLocation,
    /// `DAMES_TRUSTED_PROXIES`: whose forwarding headers are believed.
    pub trusted_proxies: TrustedProxies,
    /// `DAMES_LIMIT_*`: requests per minute.
    pub limits: LimitsConfig,
    /// `DAMES_ANALYSIS_NODES`: nodes searched per position of an analysis.
    pub analysis_budget: AnalysisBudget,
}

impl Config {
    pub fn from_env() -> Result<Config, String> {
        let addr = std::env::var("LEPTOS_SITE_ADDR").unwrap_or_else(|_| "127.0.0.1:3000".into());
        let addr =
            addr.parse().map_err(|_| format!("LEPTOS_SITE_ADDR {addr:?} is not an address like 127.0.0.1:3000"))?;
        let site_root = std::env::var("LEPTOS_SITE_ROOT").unwrap_or_else(|_| "target/site".into()).into();
        let db = DbLocation::parse(&std::env::var("DAMES_DB").unwrap_or_else(|_| "dames.sqlite3".into()));
        let trusted_proxies = TrustedProxies::parse(&std::env::var("DAMES_TRUSTED_PROXIES").unwrap_or_default())
            .map_err(|e| format!("DAMES_TRUSTED_PROXIES: {e}"))?;
        let limits = LimitsConfig::from_env()?;
        let analysis_budget = AnalysisBudget::from_env()?;
        Ok(Config { addr, site_root, db, trusted_proxies, limits, analysis_budget })
    }

    /// The Leptos options. The bundle lives in a folder named by its
    /// content hash (`pkg/1a2b3c4d5e6f/dames.js`, with the lazy islands'
    /// chunks beside it), which the build writes to `build.txt`: every file
    /// can then be cached for a year.
    pub fn leptos_options(&self) -> LeptosOptions {
        let pkg_dir = match std::fs::read_to_string(self.site_root.join("build.txt")) {
            Ok(build) => format!("pkg/{}", build.trim()),
            Err(_) => "pkg".to_string(),
        };
        LeptosOptions::builder()
            .output_name("dames")
            .site_root(self.site_root.to_string_lossy().into_owned())
            .site_pkg_dir(pkg_dir)
            .site_addr(self.addr)
            .build()
    }
}

/// Milliseconds since the Unix epoch, from the server's clock.
pub fn now_ms() -> i64 {
    (time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as i64
}

/// What the router needs besides the Leptos options.
#[derive(Clone)]
pub struct Site {
    pub db: Db,
    pub limits: RateLimits,
    pub trusted_proxies: TrustedProxies,
    pub analysis_budget: AnalysisBudget,
}

impl Site {
    pub fn new(db: Db, config: &Config) -> Site {
        Site {
            db,
            limits: RateLimits::new(config.limits),
            trusted_proxies: config.trusted_proxies.clone(),
            analysis_budget: config.analysis_budget,
        }
    }

    /// Default limits, no trusted proxy, the default analysis budget
    /// (benchmarks and tests).
    pub fn with_defaults(db: Db) -> Site {
        Site {
            db,
            limits: RateLimits::default(),
            trusted_proxies: TrustedProxies::default(),
            analysis_budget: AnalysisBudget(crate::engine::analysis::NodeBudget::DEFAULT),
        }
    }
}

/// The whole site: pages, server functions, the bundle, `/sante` (alive),
/// `/pret` (ready) and `/metrics`.
pub fn router(options: LeptosOptions, site: Site) -> Router {
    let Site { db, limits, trusted_proxies, analysis_budget } = site;
    observe::recorder();
    let routes = generate_route_list(App);
    // Every build's folder (`pkg/<hash>/`) under one route.
    let pkg_dir = PathBuf::from(options.site_root.as_ref()).join("pkg");
    let health_db = db.clone();
    let ready_db = db.clone();
    let context_db = db.clone();
    let setup_site = (db.clone(), limits.clone());
    let offline::OfflineScripts { service_worker, device_worker } = offline::OfflineScripts::for_site(
        Path::new(options.site_root.as_ref()),
        &options.site_pkg_dir,
        crate::app::pages::offline::OFFLINE_PATH,
        crate::app::offline::DEVICE_WORKER_PATH,
    );
    let sweeper = limits.clone();
    tokio::spawn(async move {
        let mut every_minute = tokio::time::interval(Duration::from_secs(60));
        loop {
            every_minute.tick().await;
            sweeper.forget_idle();
        }
    });
    let bundle = Router::new().fallback_service(ServeDir::new(pkg_dir).precompressed_gzip().precompressed_br()).layer(
        SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=31536000, immutable"),
        ),
    );
    Router::new()
        .route("/sante", get(move || health(health_db.clone())))
        .route("/pret", get(move || ready(ready_db.clone())))
        .route("/metrics", get(observe::metrics_page))
        .route(offline::WORKER_PATH, get(move || std::future::ready(service_worker.response())))
        .route(crate::app::offline::DEVICE_WORKER_PATH, get(move || std::future::ready(device_worker.response())))
        .route(
            crate::app::pages::setup::START_PATH,
            post(move |request: Request<Body>| {
                start_from_setup_form(setup_site.0.clone(), setup_site.1.clone(), request)
            }),
        )
        .route(crate::app::pages::settings::SAVE_PATH, post(save_settings_form))
        .nest("/pkg", bundle)
        .leptos_routes_with_context(
            &options,
            routes,
            move || {
                provide_context(context_db.clone());
                provide_context(limits.clone());
                provide_context(analysis_budget);
            },
            {
                let options = options.clone();
                move || shell(options.clone())
            },
        )
        .fallback(leptos_axum::file_and_error_handler(shell))
        .with_state(options)
        .layer(axum::middleware::from_fn(statuses::set_error_status))
        .layer(axum::middleware::from_fn(observe::track_requests))
        .layer(axum::middleware::from_fn(move |request, next| {
            proxy::identify_client(trusted_proxies.clone(), request, next)
        }))
        .layer(CompressionLayer::new())
        .layer(CatchPanicLayer::custom(|_| error_page()))
        .layer(request_tracing())
}

/// The set-up form, posted: a game the computer opens is started here,
/// its first move included (a POST may store; a page view may not), then
/// the player goes on to the game's page with a 303. A form to show again
/// (another variant picked, a field refused) goes back to the form's page,
/// which reads the same fields from its address. A body that is not a
/// form of modest size is a 400 and starts nothing.
async fn start_from_setup_form(db: Db, limits: RateLimits, request: Request<Body>) -> Response<Body> {
    use crate::app::pages::setup::{read_form, FormAnswer, SetupMode};
    use axum::response::IntoResponse;
    const MAX_FORM_BYTES: usize = 16 * 1024;
    let (parts, body) = request.into_parts();
    let refused = |why: &str| (StatusCode::BAD_REQUEST, format!("{why}\n")).into_response();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_FORM_BYTES).await else {
        return refused("Formulaire trop long.");
    };
    let Ok(fields) = serde_urlencoded::from_bytes::<Vec<(String, String)>>(&bytes) else {
        return refused("Formulaire illisible.");
    };
    let field = |name: &str| fields.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    let mode =
        if field("mode").as_deref() == Some("deux-joueurs") { SetupMode::TwoPlayers } else { SetupMode::Computer };
    let client = parts.extensions.get::<proxy::Client>();
    let (player, cookie) = players::player_of_request(&parts.headers, client);
    let location = match read_form(mode, field) {
        FormAnswer::Play { address, kind, setup } => {
            if setup.player != setup.rules.first {
                let ctx = api::RequestContext { db, player, limits, address: client.map(|c| c.address) };
                // Refused (too many new games), the page offers the
                // "Lancer la partie" button as before.
                if let Err(e) = api::new_game(&ctx, kind, setup).await {
                    tracing::info!("set-up form: the computer's game not started: {e}");
                }
            }
            address
        }
        FormAnswer::Show { .. } => {
            let query = serde_urlencoded::to_string(&fields).unwrap_or_default();
            format!("/nouvelle-partie?{query}")
        }
    };
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(value) = HeaderValue::from_str(&location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    if let Some(cookie) = cookie {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}

/// The settings form, posted: kept in the preferences' cookie (a year),
/// then back to the settings page with a 303, which says they are saved. A
/// body that is not a small form, or a choice the form never offers, is a
/// 400 that changes nothing.
async fn save_settings_form(request: Request<Body>) -> Response<Body> {
    use crate::app::pages::settings::SAVED_ADDRESS;
    use crate::protocol::Preferences;
    use axum::response::IntoResponse;
    const MAX_FORM_BYTES: usize = 4 * 1024;
    let (parts, body) = request.into_parts();
    let refused = |why: &str| (StatusCode::BAD_REQUEST, format!("{why}\n")).into_response();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_FORM_BYTES).await else {
        return refused("Formulaire trop long.");
    };
    let Ok(fields) = serde_urlencoded::from_bytes::<Vec<(String, String)>>(&bytes) else {
        return refused("Formulaire illisible.");
    };
    let preferences = match Preferences::from_form(fields.iter().map(|(n, v)| (n.as_str(), v.as_str()))) {
        Ok(preferences) => preferences,
        Err(why) => return refused(&why),
    };
    let secure = parts.extensions.get::<proxy::Client>().is_some_and(|c| c.https);
    let cookie = crate::app::settings::preferences_cookie(&preferences, secure);
    let mut response = StatusCode::SEE_OTHER.into_response();
    response.headers_mut().insert(header::LOCATION, HeaderValue::from_static(SAVED_ADDRESS));
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().append(header::SET_COOKIE, value);
    }
    response
}

/// One span per request (method, path), closed with the status and the
/// latency: at `info` for what the server answered, `warn` for its faults.
fn request_tracing() -> TraceLayer<
    tower_http::classify::SharedClassifier<tower_http::classify::ServerErrorsAsFailures>,
    impl Fn(&Request<Body>) -> Span + Clone,
    (),
    impl Fn(&Response<Body>, Duration, &Span) + Clone,
> {
    TraceLayer::new_for_http()
        .make_span_with(|request: &Request<Body>| {
            tracing::info_span!("request", method = %request.method(), path = %request.uri().path())
        })
        .on_request(())
        .on_response(|response: &Response<Body>, latency: Duration, _span: &Span| {
            let (status, latency_ms) = (response.status().as_u16(), latency.as_secs_f64() * 1000.0);
            if response.status().is_server_error() {
                tracing::warn!(status, latency_ms, "answered");
            } else {
                tracing::info!(status, latency_ms, "answered");
            }
        })
}

/// `/sante` (liveness): 200 `ok` when the database answers.
async fn health(db: Db) -> (StatusCode, &'static str) {
    match db.ping().await {
        Ok(()) => (StatusCode::OK, "ok\n"),
        Err(_) => (StatusCode::SERVICE_UNAVAILABLE, "base de données indisponible\n"),
    }
}

/// `/pret` (readiness): 200 `prêt` only when the database answers and has
/// every migration this program knows; a load balancer sends players to
/// this server only then.
async fn ready(db: Db) -> (StatusCode, String) {
    match db.ready().await {
        Ok(()) => (StatusCode::OK, "prêt\n".into()),
        Err(e) => (StatusCode::SERVICE_UNAVAILABLE, format!("pas prêt : {e}\n")),
    }
}

/// What a request that panicked gets: a page, not a trace.
fn error_page() -> Response<Body> {
    let html = "<!DOCTYPE html><html lang=\"fr\"><head><meta charset=\"utf-8\"><title>Erreur — Dames</title>\
        <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"></head>\
        <body style=\"font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem\">\
        <h1>Une erreur est survenue</h1><p>Le serveur n'a pas pu répondre. Réessayez dans un instant.</p>\
        <p><a href=\"/\">Retour au défi du jour</a></p></body></html>";
    Response::builder()
        .status(StatusCode::INTERNAL_SERVER_ERROR)
        .header(header::CONTENT_TYPE, "text/html; charset=utf-8")
        .body(Body::from(html))
        .expect("a static response")
}

/// Opens the database and serves until SIGTERM or Ctrl-C.
pub async fn serve(config: Config) -> Result<(), Box<dyn std::error::Error>> {
    let db = Db::open(&config.db).await?;
    let options = config.leptos_options();
    if !config.trusted_proxies.is_empty() {
        tracing::info!(proxies = ?config.trusted_proxies, "forwarding headers believed from these peers only");
    }
    let app = router(options, Site::new(db.clone(), &config));
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    // Wins a crash left without their score: recorded in the background,
    // once the site answers.
    tokio::spawn(async move {
        match api::sweep_unscored(&db).await {
            Ok(0) => {}
            Ok(n) => tracing::info!("{n} parties gagnées sans score : scores enregistrés"),
            Err(e) => tracing::error!("balayage des scores : {e}"),
        }
    });
    // The exact endgame tables, computed while the site already answers (a
    // second in a release build); a search that needs one first waits.
    // Debug builds, ten times slower, compute each when first needed.
    if !cfg!(debug_assertions) {
        tokio::task::spawn_blocking(|| {
            let started = std::time::Instant::now();
            crate::engine::endgame::compute_all();
            tracing::info!("tables de finales prêtes en {} ms", started.elapsed().as_millis());
        });
    }
    tracing::info!("Dames sur http://{} (base {:?})", config.addr, config.db);
    axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
        .with_graceful_shutdown(shutdown_signal())
        .await?;
    tracing::info!("arrêt");
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}
