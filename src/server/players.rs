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
    if let Some(bad) = name.chars().find(|c| !(c.is_alphabetic() || c.is_ascii_digit() || matches!(c, ' ' | '-' | '_'))) {
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

/// The player's pseudonym, if they chose one.
pub fn pseudonym_of(conn: &rusqlite::Connection, player_id: &str) -> Result<Option<String>, AppError> {
    use rusqlite::OptionalExtension;
    conn.query_row("SELECT pseudonym FROM players WHERE id = ?1", [player_id], |r| r.get(0))
        .optional()
        .map(Option::flatten)
        .map_err(db_error)
}

/// Sets (or changes) the player's pseudonym; refused when another player
/// has it, whatever the case.
pub fn set_pseudonym(conn: &rusqlite::Connection, player_id: &str, raw: &str) -> Result<String, AppError> {
    let name = validate_pseudonym(raw)?;
    let key = name.to_lowercase();
    let taken: bool = conn
        .query_row("SELECT EXISTS (SELECT 1 FROM players WHERE pseudonym_key = ?1 AND id <> ?2)", params![key, player_id], |r| r.get(0))
        .map_err(db_error)?;
    if taken {
        return Err(AppError::BadPseudonym("ce pseudonyme est déjà pris".into()));
    }
    let changed = conn
        .execute("UPDATE players SET pseudonym = ?2, pseudonym_key = ?3 WHERE id = ?1", params![player_id, name, key])
        .map_err(|e| match e {
            rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::ConstraintViolation => {
                AppError::BadPseudonym("ce pseudonyme est déjà pris".into())
            }
            e => db_error(e),
        })?;
    if changed != 1 {
        return Err(AppError::Internal);
    }
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

fn is_https(headers: &HeaderMap) -> bool {
    headers.get("x-forwarded-proto").and_then(|v| v.to_str().ok()) == Some("https")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pseudonyms_are_checked() {
        assert_eq!(validate_pseudonym("  Amélie_92 ").unwrap(), "Amélie_92");
        assert_eq!(validate_pseudonym("Jean-Éric Noël").unwrap(), "Jean-Éric Noël");
        for bad in ["ab", "  a ", "<script>alert(1)</script>", "a<b>c", "x".repeat(21).as_str(), "é".repeat(500).as_str(), "ab\u{0}cd", "tab\tbed", "two  spaces", "emoji🙂"] {
            assert!(matches!(validate_pseudonym(bad), Err(AppError::BadPseudonym(_))), "{bad:?}");
        }
        assert!(validate_pseudonym(&"é".repeat(20)).is_ok(), "20 accented letters fit");
    }

    #[test]
    fn pseudonyms_are_unique_regardless_of_case() {
        let db = crate::server::db::Db::open_in_memory().unwrap();
        db.run_blocking(|c| {
            c.execute("INSERT INTO players (id, created_at) VALUES ('a', 0), ('b', 0)", []).unwrap();
            assert_eq!(set_pseudonym(c, "a", "Amélie").unwrap(), "Amélie");
            assert!(matches!(set_pseudonym(c, "b", "AMÉLIE"), Err(AppError::BadPseudonym(_))));
            assert!(matches!(set_pseudonym(c, "b", "<b>x</b>"), Err(AppError::BadPseudonym(_))));
            assert_eq!(pseudonym_of(c, "b").unwrap(), None);
            assert_eq!(set_pseudonym(c, "a", "amélie").unwrap(), "amélie", "one may change one's own case");
        });
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
    }
}
