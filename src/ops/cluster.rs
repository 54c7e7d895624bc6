//! A local cluster, for `make cluster` and the cluster tests: a throw-away
//! PostgreSQL, several identical app servers (this program, in processes
//! of their own) on it, and a tiny round-robin HTTP proxy in front that
//! adds `X-Forwarded-For` as nginx would and skips a server that refuses
//! connections.

use super::throwaway::{free_port, ThrowawayPostgres};
use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One app server process.
pub struct AppServer {
    child: Child,
    pub addr: SocketAddr,
}

impl AppServer {
    /// Starts `program` (this binary) serving on a free port of 127.0.0.1
    /// with `DAMES_DB=db_url`, believing forwarding headers from
    /// 127.0.0.1 (the proxy), plus `env`.
    pub fn start(program: &Path, db_url: &str, env: &[(&str, &str)], log: Stdio) -> std::io::Result<AppServer> {
        let addr = SocketAddr::from(([127, 0, 0, 1], free_port()?));
        let mut command = Command::new(program);
        command
            .env("DAMES_DB", db_url)
            .env("LEPTOS_SITE_ADDR", addr.to_string())
            .env("DAMES_TRUSTED_PROXIES", "127.0.0.1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log);
        for (name, value) in env {
            command.env(name, value);
        }
        Ok(AppServer { child: command.spawn()?, addr })
    }

    /// Waits until `/pret` answers 200 (migrations applied, database up).
    pub async fn wait_ready(&mut self, within: Duration) -> Result<(), String> {
        let client = reqwest::Client::new();
        let deadline = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().map_err(|e| e.to_string())? {
                return Err(format!("server {} exited: {status}", self.addr));
            }
            let answer = client.get(format!("http://{}/pret", self.addr)).send().await;
            if answer.is_ok_and(|a| a.status() == StatusCode::OK) {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(format!("server {} not ready after {within:?}", self.addr));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// `kill -9`: no clean shutdown, as a crash.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// SIGTERM, and waits for the clean exit.
    pub fn stop(&mut self) {
        let _ = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status();
        let _ = self.child.wait();
    }
}

impl Drop for AppServer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The proxy's state: the servers and whose turn it is.
#[derive(Clone)]
struct Backends {
    servers: Arc<Vec<SocketAddr>>,
    next: Arc<AtomicUsize>,
    client: reqwest::Client,
}

/// Serves the round-robin proxy on `listener` until the task is dropped.
pub async fn proxy(listener: tokio::net::TcpListener, servers: Vec<SocketAddr>) -> std::io::Result<()> {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(Duration::from_secs(2))
        .build()
        .map_err(std::io::Error::other)?;
    let backends = Backends { servers: Arc::new(servers), next: Arc::new(AtomicUsize::new(0)), client };
    let app = axum::Router::new().fallback(forward).with_state(backends);
    axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>()).await
}

/// Headers that describe one connection or one message's framing, not the
/// content (RFC 9110, 7.6.1).
const HOP_BY_HOP: [&str; 7] =
    ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "content-length"];

/// Forwards one request to the next server; one that refuses the
/// connection (down) is skipped, which is safe for any method since
/// nothing was sent.
async fn forward(
    State(backends): State<Backends>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
) -> Response {
    let (parts, body) = request.into_parts();
    let Ok(body) = axum::body::to_bytes(body, 1 << 20).await else {
        return (StatusCode::PAYLOAD_TOO_LARGE, "requête trop grande\n").into_response();
    };
    let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let forwarded_for = match parts.headers.get("x-forwarded-for").and_then(|v| v.to_str().ok()) {
        Some(earlier) => format!("{earlier}, {}", peer.ip()),
        None => peer.ip().to_string(),
    };
    let first = backends.next.fetch_add(1, Ordering::Relaxed);
    for attempt in 0..backends.servers.len() {
        let server = backends.servers[(first + attempt) % backends.servers.len()];
        let mut headers = parts.headers.clone();
        headers.remove(axum::http::header::HOST);
        for name in HOP_BY_HOP {
            headers.remove(name);
        }
        if let Ok(value) = HeaderValue::from_str(&forwarded_for) {
            headers.insert("x-forwarded-for", value);
        }
        let sent = backends
            .client
            .request(parts.method.clone(), format!("http://{server}{path}"))
            .headers(headers)
            .body(body.clone())
            .send()
            .await;
        match sent {
            Ok(answer) => {
                let mut response = Response::builder().status(answer.status());
                // The body is passed on whole: its framing headers are
                // this hop's to set.
                for (name, value) in answer.headers() {
                    if !HOP_BY_HOP.contains(&name.as_str()) {
                        response = response.header(name, value);
                    }
                }
                let bytes = answer.bytes().await.unwrap_or_default();
                return response.body(Body::from(bytes)).unwrap_or_else(|_| StatusCode::BAD_GATEWAY.into_response());
            }
            Err(e) if e.is_connect() => continue,
            Err(_) => return (StatusCode::BAD_GATEWAY, "serveur injoignable\n").into_response(),
        }
    }
    (StatusCode::BAD_GATEWAY, "aucun serveur ne répond\n").into_response()
}

/// `dames cluster`: PostgreSQL in `target/cluster`, `servers` app servers,
/// the proxy on 127.0.0.1:`port`; stops everything on Ctrl-C. 0, or 1 when
/// the cluster failed.
pub async fn command(servers: usize, port: u16) -> i32 {
    match run(servers, port).await {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("dames cluster: {e}");
            1
        }
    }
}

async fn run(count: usize, port: u16) -> Result<(), Box<dyn std::error::Error>> {
    // An absolute path: the server runs as another user, from elsewhere.
    let folder = std::env::current_dir()?.join("target/cluster");
    let postgres = ThrowawayPostgres::start(Some(&folder), true)?;
    let (client, connection) = tokio_postgres::connect(&postgres.url("postgres"), tokio_postgres::NoTls).await?;
    tokio::spawn(connection);
    client.batch_execute("CREATE DATABASE dames").await?;
    let db_url = postgres.url("dames");
    let program = std::env::current_exe()?;
    let mut servers = Vec::new();
    for _ in 0..count {
        servers.push(AppServer::start(&program, &db_url, &[], Stdio::inherit())?);
    }
    for server in &mut servers {
        server.wait_ready(Duration::from_secs(60)).await?;
    }
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    let addrs: Vec<SocketAddr> = servers.iter().map(|s| s.addr).collect();
    println!("PostgreSQL : {db_url}");
    for addr in &addrs {
        println!("serveur    : http://{addr}");
    }
    println!("Dames (proxy, tour à tour) sur http://127.0.0.1:{port} — Ctrl-C pour tout arrêter");
    tokio::select! {
        served = proxy(listener, addrs) => served?,
        _ = tokio::signal::ctrl_c() => {}
    }
    for server in &mut servers {
        server.stop();
    }
    drop(postgres);
    Ok(())
}
