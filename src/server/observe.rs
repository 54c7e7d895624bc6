//! What an operator watches: the metrics `/metrics` serves in Prometheus
//! text format (requests by route and status, latencies, the computer's
//! searches, verification, database queries, games, scores, rate-limit
//! refusals) and the logs, as text or JSON lines.

use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::sync::OnceLock;
use std::time::Instant;

static RECORDER: OnceLock<PrometheusHandle> = OnceLock::new();

/// Latency buckets, in seconds: a move against `fort` takes most of a
/// second, a page a few milliseconds.
const SECONDS: &[f64] = &[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];
/// Search sizes, in nodes: level 1's thousand to level 8's sixteen million.
const NODES: &[f64] = &[1e3, 4e3, 1.6e4, 6.4e4, 2.5e5, 1e6, 4e6, 1.6e7, 6.4e7];

/// The process's metrics recorder, installed on first use. (One per
/// process: the tests build many routers, which share it.)
pub fn recorder() -> &'static PrometheusHandle {
    RECORDER.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), SECONDS)
            .and_then(|b| b.set_buckets_for_metric(Matcher::Suffix("_nodes".into()), NODES))
            .expect("non-empty buckets")
            .build_recorder();
        let handle = recorder.handle();
        // Another recorder installed first (none is, but for a library
        // user's): this handle then renders nothing, which is all.
        let _ = metrics::set_global_recorder(recorder);
        describe();
        handle
    })
}

fn describe() {
    use metrics::{describe_counter, describe_histogram, Unit};
    describe_counter!("dames_http_requests_total", "HTTP requests answered, by route, method and status");
    describe_histogram!("dames_http_request_seconds", Unit::Seconds, "Time to answer a request, by route");
    describe_histogram!("dames_move_seconds", Unit::Seconds, "Time to answer a move, the computer's reply included");
    describe_histogram!("dames_bot_search_seconds", Unit::Seconds, "The computer's search time, by level");
    describe_histogram!("dames_bot_search_nodes", Unit::Count, "The computer's search size, by level");
    describe_histogram!("dames_verification_seconds", Unit::Seconds, "Time to verify a won game before scoring it");
    describe_histogram!("dames_db_query_seconds", Unit::Seconds, "Database operations, by operation and engine");
    describe_counter!("dames_games_started_total", "Games stored, by kind");
    describe_counter!("dames_games_finished_total", "Games finished, by kind");
    describe_counter!("dames_scores_recorded_total", "Won games verified and scored");
    describe_counter!("dames_rate_limited_total", "Requests refused by the rate limits");
}

/// Counts and times every request under its route's pattern (`/partie/{id}`,
/// not each game's address: one series per route), or `other` for what no
/// route matched.
pub async fn track_requests(request: Request, next: Next) -> Response {
    let route = request.extensions().get::<MatchedPath>().map(|p| p.as_str().to_owned());
    let route = route.unwrap_or_else(|| {
        // Server functions are all mounted under one pattern: name each.
        let path = request.uri().path();
        if path.starts_with("/api/") && path.len() < 64 {
            path.to_owned()
        } else {
            "other".to_owned()
        }
    });
    let method = request.method().as_str().to_owned();
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    metrics::histogram!("dames_http_request_seconds", "route" => route.clone()).record(started.elapsed().as_secs_f64());
    metrics::counter!("dames_http_requests_total", "route" => route, "method" => method, "status" => status)
        .increment(1);
    response
}

/// `GET /metrics`.
pub async fn metrics_page() -> ([(axum::http::HeaderName, &'static str); 1], String) {
    ([(axum::http::header::CONTENT_TYPE, "text/plain; version=0.0.4")], recorder().render())
}

/// The log subscriber: `RUST_LOG` filters (default `info`);
/// `DAMES_LOG_FORMAT=json` writes one JSON object per line, for a log
/// collector.
pub fn init_logs() -> Result<(), String> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    match std::env::var("DAMES_LOG_FORMAT").as_deref() {
        Ok("json") => builder.json().flatten_event(true).with_current_span(true).with_span_list(false).init(),
        Ok("text") | Err(_) => builder.init(),
        Ok(other) => return Err(format!("DAMES_LOG_FORMAT {other:?}: expected text or json")),
    }
    Ok(())
}
