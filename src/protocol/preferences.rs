//! The player's preferences ("Réglages"): how the board looks, sounds and
//! takes moves. They travel in a cookie, so that the server renders a page
//! with them (nothing flashes after hydration), and the browser writes the
//! same cookie when a setting is changed from the game screen.

use serde::{Deserialize, Serialize};

/// The cookie that keeps them (readable by the page's script: nothing in
/// it is secret, and the game screen's quick toggles write it).
pub const PREFERENCES_COOKIE: &str = "dames_reglages";
/// A year, renewed with every change.
pub const PREFERENCES_MAX_AGE: u64 = 365 * 24 * 3600;

/// The board's colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
pub enum Palette {
    /// Brown wood, the site's own look.
    #[default]
    Wood,
    /// Green and cream, as on a tournament board.
    Green,
    /// Black and white squares, yellow cues and thick outlines.
    HighContrast,
}
crate::engine::deserialize_by_name!(Palette { Wood, Green, HighContrast });

impl Palette {
    pub const ALL: [Palette; 3] = [Palette::Wood, Palette::Green, Palette::HighContrast];

    /// Its name in the cookie, the form and the page's `data-palette`.
    pub fn name(self) -> &'static str {
        match self {
            Palette::Wood => "bois",
            Palette::Green => "vert",
            Palette::HighContrast => "contraste",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Palette::Wood => "Bois (par défaut)",
            Palette::Green => "Vert et crème",
            Palette::HighContrast => "Contraste élevé",
        }
    }

    pub fn from_name(name: &str) -> Option<Palette> {
        Palette::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// How a capture of several pieces (a rafle) is entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
pub enum RafleInput {
    /// A tap on the final square plays the rafle when only one ends there;
    /// the landing squares are tapped one by one only when several do.
    #[default]
    FinalSquare,
    /// Every landing square is tapped, one after the other.
    SquareBySquare,
}
crate::engine::deserialize_by_name!(RafleInput { FinalSquare, SquareBySquare });

impl RafleInput {
    pub const ALL: [RafleInput; 2] = [RafleInput::FinalSquare, RafleInput::SquareBySquare];

    pub fn name(self) -> &'static str {
        match self {
            RafleInput::FinalSquare => "arrivee",
            RafleInput::SquareBySquare => "case-par-case",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            RafleInput::FinalSquare => "Par la case d'arrivée (quand une seule rafle y mène)",
            RafleInput::SquareBySquare => "Case par case, chaque saut",
        }
    }

    pub fn from_name(name: &str) -> Option<RafleInput> {
        RafleInput::ALL.into_iter().find(|r| r.name() == name)
    }
}

/// Everything the player can set. The defaults are the site as it was
/// before there were settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preferences {
    pub palette: Palette,
    /// Square numbers drawn on the dark squares.
    pub numbers: bool,
    /// A selected piece's legal destinations marked on the board.
    pub destinations: bool,
    /// A move entered waits for "Jouer" (or Entrée) before it is sent.
    pub confirm_moves: bool,
    /// Short synthesized sounds for a move, a capture and the end.
    pub sound: bool,
    pub rafle_input: RafleInput,
}

impl Default for Preferences {
    fn default() -> Preferences {
        Preferences {
            palette: Palette::Wood,
            numbers: false,
            destinations: true,
            confirm_moves: false,
            sound: false,
            rafle_input: RafleInput::FinalSquare,
        }
    }
}

/// The names of the fields, in the cookie and in the settings form.
pub mod field {
    pub const PALETTE: &str = "palette";
    pub const NUMBERS: &str = "numeros";
    pub const DESTINATIONS: &str = "destinations";
    pub const CONFIRM: &str = "confirmation";
    pub const SOUND: &str = "son";
    pub const RAFLE: &str = "rafle";
}

impl Preferences {
    /// The cookie's value: `palette=bois&numeros=0&…` (no character a
    /// cookie value may not hold).
    pub fn to_cookie_value(&self) -> String {
        let flag = |on: bool| if on { "1" } else { "0" };
        format!(
            "{}={}&{}={}&{}={}&{}={}&{}={}&{}={}",
            field::PALETTE,
            self.palette.name(),
            field::NUMBERS,
            flag(self.numbers),
            field::DESTINATIONS,
            flag(self.destinations),
            field::CONFIRM,
            flag(self.confirm_moves),
            field::SOUND,
            flag(self.sound),
            field::RAFLE,
            self.rafle_input.name(),
        )
    }

    /// Reads a cookie's value. What it does not understand (an old or
    /// edited cookie) keeps its default: a setting is never worth an error.
    pub fn from_cookie_value(value: &str) -> Preferences {
        let mut preferences = Preferences::default();
        for pair in value.split('&') {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            preferences.set(name, value);
        }
        preferences
    }

    /// The preferences in a `Cookie` request header, or the defaults.
    pub fn from_cookie_header(header: &str) -> Preferences {
        header
            .split(';')
            .filter_map(|c| c.trim().split_once('='))
            .find(|(name, _)| *name == PREFERENCES_COOKIE)
            .map(|(_, value)| Preferences::from_cookie_value(value))
            .unwrap_or_default()
    }

    /// The settings form, posted: a checkbox sends its field only when it
    /// is ticked, so every switch missing from the form is off. A value
    /// that names no choice is refused, in French.
    pub fn from_form<'a>(fields: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Preferences, String> {
        let mut preferences = Preferences {
            numbers: false,
            destinations: false,
            confirm_moves: false,
            sound: false,
            ..Default::default()
        };
        for (name, value) in fields {
            let known = match name {
                field::PALETTE => Palette::from_name(value).map(|p| preferences.palette = p).is_some(),
                field::RAFLE => RafleInput::from_name(value).map(|r| preferences.rafle_input = r).is_some(),
                field::NUMBERS | field::DESTINATIONS | field::CONFIRM | field::SOUND => preferences.set(name, value),
                // The page to go back to, read by the handler.
                _ => true,
            };
            if !known {
                return Err(format!("Réglage inconnu : {name} = {value:?}."));
            }
        }
        Ok(preferences)
    }

    /// Sets one field from its text; false when the text means nothing.
    fn set(&mut self, name: &str, value: &str) -> bool {
        let flag = match value {
            "1" | "on" => Some(true),
            "0" => Some(false),
            _ => None,
        };
        match (name, flag) {
            (field::PALETTE, _) => Palette::from_name(value).map(|p| self.palette = p).is_some(),
            (field::RAFLE, _) => RafleInput::from_name(value).map(|r| self.rafle_input = r).is_some(),
            (field::NUMBERS, Some(on)) => {
                self.numbers = on;
                true
            }
            (field::DESTINATIONS, Some(on)) => {
                self.destinations = on;
                true
            }
            (field::CONFIRM, Some(on)) => {
                self.confirm_moves = on;
                true
            }
            (field::SOUND, Some(on)) => {
                self.sound = on;
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_combination() -> Vec<Preferences> {
        let mut all = Vec::new();
        for palette in Palette::ALL {
            for rafle_input in RafleInput::ALL {
                for bits in 0..16u8 {
                    all.push(Preferences {
                        palette,
                        rafle_input,
                        numbers: bits & 1 != 0,
                        destinations: bits & 2 != 0,
                        confirm_moves: bits & 4 != 0,
                        sound: bits & 8 != 0,
                    });
                }
            }
        }
        all
    }

    #[test]
    fn every_combination_survives_the_cookie() {
        for preferences in every_combination() {
            let value = preferences.to_cookie_value();
            assert!(
                value.bytes().all(|b| b.is_ascii_graphic() && !b"\",;\\".contains(&b)),
                "{value:?} holds a character a cookie value may not"
            );
            assert_eq!(Preferences::from_cookie_value(&value), preferences);
            let header = format!("dames_joueur=abc; {PREFERENCES_COOKIE}={value}; autre=1");
            assert_eq!(Preferences::from_cookie_header(&header), preferences);
        }
    }

    #[test]
    fn no_cookie_or_a_garbled_one_gives_the_defaults_for_what_it_lacks() {
        assert_eq!(Preferences::from_cookie_header(""), Preferences::default());
        assert_eq!(Preferences::from_cookie_header("dames_joueur=abc"), Preferences::default());
        let garbled = Preferences::from_cookie_value("palette=rose&numeros=oui&son=1&&=&x");
        assert_eq!(garbled, Preferences { sound: true, ..Preferences::default() });
    }

    #[test]
    fn the_form_reads_unticked_switches_as_off_and_refuses_unknown_choices() {
        let ticked = Preferences::from_form([("palette", "contraste"), ("numeros", "on"), ("rafle", "case-par-case")]);
        assert_eq!(
            ticked,
            Ok(Preferences {
                palette: Palette::HighContrast,
                numbers: true,
                destinations: false,
                confirm_moves: false,
                sound: false,
                rafle_input: RafleInput::SquareBySquare,
            })
        );
        assert!(Preferences::from_form([("retour", "/partie-libre")]).is_ok());
        let refused = Preferences::from_form([("palette", "rose")]).unwrap_err();
        assert!(refused.contains("palette"), "{refused}");
        assert!(Preferences::from_form([("son", "peut-être")]).is_err());
    }
}
