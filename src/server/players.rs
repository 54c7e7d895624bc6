//! Anonymous players: a random id in a long-lived cookie, nothing else
//! until they choose a pseudonym.

use super::db::Db;
use super::games::db_error;
use crate::app::error::AppError;
use axum::http::{header, HeaderMap, HeaderValue};
use leptos::prelude::*;
use rusqlite::params;

/// The cookie that keeps the player's id.
pub const COOKIE: &str = "dames_joueur";
/// Ten years: the id is all that ties a player to their scores.
const COOKIE_MAX_AGE: u64 = 10 * 365 * 24 * 3600;

/// The player of the current request: the id from the cookie, or a new
/// one, sent back in a cookie. The row exists when this returns.
pub async fn current_player(db: &Db) -> Result<String, AppError> {
    let parts = use_context::<axum::http::request::Parts>();
    let headers = parts.as_ref().map(|p| &p.headers);
    let id = match headers.and_then(|h| player_id_from_cookie(h)) {
        Some(id) => id,
        None => {
            let id = uuid::Uuid::new_v4().to_string();
            if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
                let secure = headers.is_some_and(is_https);
                let cookie = format!(
                    "{COOKIE}={id}; Path=/; Max-Age={COOKIE_MAX_AGE}; HttpOnly; SameSite=Lax{}",
                    if secure { "; Secure" } else { "" }
                );
                if let Ok(value) = HeaderValue::from_str(&cookie) {
                    response.append_header(header::SET_COOKIE, value);
                }
            }
            id
        }
    };
    let now = super::now_ms();
    let stored = id.clone();
    db.run(move |c| {
        c.execute("INSERT OR IGNORE INTO players (id, created_at) VALUES (?1, ?2)", params![stored, now])
            .map_err(db_error)
    })
    .await?;
    Ok(id)
}

/// The id in the cookie, if it is a well-formed uuid.
pub fn player_id_from_cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .and_then(|(_, value)| uuid::Uuid::parse_str(value.trim()).ok())
        .map(|u| u.to_string())
}

fn is_https(headers: &HeaderMap) -> bool {
    headers.get("x-forwarded-proto").and_then(|v| v.to_str().ok()) == Some("https")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_well_formed_cookie_counts() {
        let mut h = HeaderMap::new();
        assert_eq!(player_id_from_cookie(&h), None);
        h.insert(header::COOKIE, HeaderValue::from_static("a=1; dames_joueur=<script>"));
        assert_eq!(player_id_from_cookie(&h), None);
        let id = "0b9a3a8e-8f4a-4c55-9a55-3c1f5e3f1a2b";
        h.insert(header::COOKIE, HeaderValue::from_str(&format!("a=1; dames_joueur={id}")).unwrap());
        assert_eq!(player_id_from_cookie(&h).as_deref(), Some(id));
    }
}
