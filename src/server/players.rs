//! Anonymous players: a random id in a long-lived cookie, nothing else
//! until they choose a pseudonym. Looking at pages stores nothing: the
//! player's row is written with their first game or their pseudonym.

use super::db::Db;
use super::error::ServerResult;
use super::proxy::Client;
use crate::protocol::AppError;
use axum::http::{header, HeaderMap, HeaderValue};
use leptos::prelude::*;

/// The cookie that keeps the player's id.
pub const COOKIE: &str = "dames_joueur";
/// Ten years: the id is all that ties a player to their scores.
const COOKIE_MAX_AGE: u64 = 10 * 365 * 24 * 3600;

/// The player of the current request: the id from the cookie, or a new one
/// sent back in a cookie (`Secure` when the client is on HTTPS). Nothing is
/// stored here.
pub fn current_player() -> String {
    let parts = use_context::<axum::http::request::Parts>();
    if let Some(id) = parts.as_ref().and_then(|p| player_id_from_cookie(&p.headers)) {
        return id;
    }
    let Some(response) = use_context::<leptos_axum::ResponseOptions>() else {
        return uuid::Uuid::new_v4().to_string();
    };
    // A second call in the same request keeps the id the first one issued.
    let issued = response.0.read().ok().and_then(|parts| player_id_from_set_cookie(&parts.headers));
    if let Some(id) = issued {
        return id;
    }
    let secure = parts.as_ref().and_then(|p| p.extensions.get::<Client>()).is_some_and(|c| c.https);
    let (id, cookie) = new_player(secure);
    if let Some(value) = cookie {
        response.append_header(header::SET_COOKIE, value);
    }
    id
}

/// The player of a request outside a page or a server function (a form
/// posted to a handler of its own): the id from the cookie, or a new one
/// with the `Set-Cookie` that gives it.
pub fn player_of_request(headers: &HeaderMap, client: Option<&Client>) -> (String, Option<HeaderValue>) {
    match player_id_from_cookie(headers) {
        Some(id) => (id, None),
        None => new_player(client.is_some_and(|c| c.https)),
    }
}

/// A new player id and its cookie (`Secure` over HTTPS).
fn new_player(secure: bool) -> (String, Option<HeaderValue>) {
    let id = uuid::Uuid::new_v4().to_string();
    let cookie = format!(
        "{COOKIE}={id}; Path=/; Max-Age={COOKIE_MAX_AGE}; HttpOnly; SameSite=Lax{}",
        if secure { "; Secure" } else { "" }
    );
    (id, HeaderValue::from_str(&cookie).ok())
}

/// Pseudonyms: 3 to 20 characters once trimmed.
pub const PSEUDONYM_MIN: usize = 3;
pub const PSEUDONYM_MAX: usize = 20;

/// Checks a pseudonym and returns it trimmed: letters (accents welcome),
/// digits, space, `-` and `_` only, 3 to 20 of them.
pub fn validate_pseudonym(raw: &str) -> Result<String, AppError> {
    if raw.len() > 200 {
        return Err(AppError::BadPseudonym("il est bien trop long (20 caractères au plus)".into()));
    }
    let name = raw.trim();
    let count = name.chars().count();
    if count < PSEUDONYM_MIN {
        return Err(AppError::BadPseudonym(format!("il faut au moins {PSEUDONYM_MIN} caractères")));
    }
    if count > PSEUDONYM_MAX {
        return Err(AppError::BadPseudonym(format!("{PSEUDONYM_MAX} caractères au plus")));
    }
    if let Some(bad) = name.chars().find(|c| !(c.is_alphabetic() || c.is_ascii_digit() || matches!(c, ' ' | '-' | '_')))
    {
        return Err(AppError::BadPseudonym(format!(
            "le caractère « {} » n'est pas permis (lettres, chiffres, espace, - et _ seulement)",
            bad.escape_default()
        )));
    }
    if name.contains("  ") {
        return Err(AppError::BadPseudonym("pas deux espaces de suite".into()));
    }
    Ok(name.to_string())
}

/// Why a pseudonym another player has is refused.
pub const TAKEN: &str = "ce pseudonyme est déjà pris";

/// Sets (or changes) the player's pseudonym, storing the player if they
/// had no row yet; refused, and nothing stored, when the name breaks the
/// rules or another player has it, whatever the case.
pub async fn set_pseudonym(db: &Db, player_id: &str, raw: &str, now_ms: i64) -> ServerResult<String> {
    let name = validate_pseudonym(raw)?;
    db.set_pseudonym(player_id, &name, &name.to_lowercase(), now_ms).await?;
    Ok(name)
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

/// The id a `Set-Cookie` already issued in this response, if any.
fn player_id_from_set_cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next()?.trim().strip_prefix(COOKIE)?.strip_prefix('='))
        .find_map(|value| uuid::Uuid::parse_str(value.trim()).ok())
        .map(|u| u.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pseudonyms_are_checked() {
        assert_eq!(validate_pseudonym("  Amélie_92 ").unwrap(), "Amélie_92");
        assert_eq!(validate_pseudonym("Jean-Éric Noël").unwrap(), "Jean-Éric Noël");
        for bad in [
            "ab",
            "  a ",
            "<script>alert(1)</script>",
            "a<b>c",
            "x".repeat(21).as_str(),
            "é".repeat(500).as_str(),
            "ab\u{0}cd",
            "tab\tbed",
            "two  spaces",
            "emoji🙂",
        ] {
            assert!(matches!(validate_pseudonym(bad), Err(AppError::BadPseudonym(_))), "{bad:?}");
        }
        assert!(validate_pseudonym(&"é".repeat(20)).is_ok(), "20 accented letters fit");
    }

    #[test]
    fn only_a_well_formed_cookie_counts() {
        let mut h = HeaderMap::new();
        assert_eq!(player_id_from_cookie(&h), None);
        h.insert(header::COOKIE, HeaderValue::from_static("a=1; dames_joueur=<script>"));
        assert_eq!(player_id_from_cookie(&h), None);
        let id = "0b9a3a8e-8f4a-4c55-9a55-3c1f5e3f1a2b";
        h.insert(header::COOKIE, HeaderValue::from_str(&format!("a=1; dames_joueur={id}")).unwrap());
        assert_eq!(player_id_from_cookie(&h).as_deref(), Some(id));
        let mut issued = HeaderMap::new();
        issued.append(header::SET_COOKIE, HeaderValue::from_static("other=1; Path=/"));
        assert_eq!(player_id_from_set_cookie(&issued), None);
        issued.append(
            header::SET_COOKIE,
            HeaderValue::from_str(&format!("dames_joueur={id}; Path=/; HttpOnly")).unwrap(),
        );
        assert_eq!(player_id_from_set_cookie(&issued).as_deref(), Some(id));
    }
}
