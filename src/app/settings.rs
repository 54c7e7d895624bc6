//! The player's preferences where the pages meet them: read from the
//! request's cookie while the server renders a page (so the first paint is
//! already the player's board), and written back to the cookie by the
//! browser when the game screen changes one (the square numbers' button).

use crate::protocol::preferences::{PREFERENCES_COOKIE, PREFERENCES_MAX_AGE};
use crate::protocol::Preferences;

/// The preferences of the request being rendered (the defaults without a
/// cookie, and in the browser, whose islands get them as props).
pub fn current_preferences() -> Preferences {
    #[cfg(feature = "ssr")]
    {
        use leptos::prelude::use_context;
        if let Some(parts) = use_context::<axum::http::request::Parts>() {
            let header = parts.headers.get_all(axum::http::header::COOKIE);
            let joined = header.iter().filter_map(|v| v.to_str().ok()).collect::<Vec<_>>().join("; ");
            return Preferences::from_cookie_header(&joined);
        }
    }
    Preferences::default()
}

/// The `Set-Cookie` value that keeps `preferences` for a year.
pub fn preferences_cookie(preferences: &Preferences, secure: bool) -> String {
    format!(
        "{PREFERENCES_COOKIE}={}; Path=/; Max-Age={PREFERENCES_MAX_AGE}; SameSite=Lax{}",
        preferences.to_cookie_value(),
        if secure { "; Secure" } else { "" }
    )
}

/// Keeps `preferences` in the cookie, from the browser, so that the next
/// page the server renders has them.
pub fn remember(preferences: &Preferences) {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsCast;
        let secure = leptos::prelude::window().location().protocol().is_ok_and(|p| p == "https:");
        if let Ok(document) = leptos::prelude::document().dyn_into::<web_sys::HtmlDocument>() {
            let _ = document.set_cookie(&preferences_cookie(preferences, secure));
        }
    }
    let _ = preferences;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Palette;

    #[test]
    fn the_cookie_is_kept_a_year_for_the_whole_site_and_read_back() {
        let preferences = Preferences { palette: Palette::HighContrast, sound: true, ..Preferences::default() };
        let cookie = preferences_cookie(&preferences, true);
        assert!(cookie.starts_with("dames_reglages=palette=contraste&"), "{cookie}");
        assert!(cookie.contains("; Path=/; Max-Age=31536000; SameSite=Lax; Secure"), "{cookie}");
        let (pair, _) = cookie.split_once(';').unwrap();
        assert_eq!(Preferences::from_cookie_header(pair), preferences);
        assert!(!preferences_cookie(&preferences, false).contains("Secure"));
    }
}
