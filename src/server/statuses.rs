//! Every refusal a server function returns gets its HTTP status here.
//!
//! An error's status has one path: server code fails with a `ServerError`;
//! `From<ServerError> for AppError` (`server/error.rs`) passes refusals on
//! and turns faults into `Internal` or `Unavailable`; `AppError::status`
//! (`protocol/error.rs`) is the only place that maps an error to a status;
//! it is applied on the two ways out: here for a server function's answer,
//! and by `app::set_page_status` for a page rendered with an error.
//!
//! The server-function layer answers every error with a 500 and the
//! [`AppError`] as JSON (including the ones it raises itself, for a missing
//! or unreadable field, before any of our code runs); this middleware reads
//! that error back and sets the status it names, with `Retry-After` on a
//! 429. The body is unchanged, so the page still shows the French message.

use crate::protocol::AppError;
use axum::body::{to_bytes, Body};
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::Response;

/// The header the server-function layer puts on its error responses.
const SERVER_FN_ERROR_HEADER: &str = "serverfnerror";
/// An error body is a short JSON text; anything larger is not one.
const MAX_ERROR_BODY: usize = 64 * 1024;

pub async fn set_error_status(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    if !response.headers().contains_key(SERVER_FN_ERROR_HEADER) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = to_bytes(body, MAX_ERROR_BODY).await else {
        tracing::error!("a server function's error body could not be read");
        parts.status = StatusCode::INTERNAL_SERVER_ERROR;
        return Response::from_parts(parts, Body::empty());
    };
    if let Ok(error) = serde_json::from_slice::<AppError>(&bytes) {
        parts.status = StatusCode::from_u16(error.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        if let Some(seconds) = error.retry_after_s() {
            parts.headers.insert(axum::http::header::RETRY_AFTER, HeaderValue::from(seconds.max(1)));
        }
    }
    Response::from_parts(parts, Body::from(bytes))
}
