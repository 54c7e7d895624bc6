//! The errors a server function can return, as the player reads them, each
//! with its HTTP status. They cross the wire as JSON and keep their variant,
//! so the page can react to each (reload on a conflict, show the message
//! otherwise); the status is what proxies, monitors and client libraries see.

use leptos::server_fn::error::{FromServerFnError, ServerFnErrorErr};
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AppError {
    /// The move is not legal here (the text says why).
    IllegalMove(String),
    /// It is the computer's turn.
    NotYourTurn,
    /// The game is over: it takes no more moves.
    GameOver,
    /// The game is not over: it cannot be analysed yet (an analysis of a
    /// game in progress would be the engine playing for the player).
    GameNotOver,
    /// The game was started against an earlier version of the computer,
    /// which can no longer answer it.
    ComputerChanged,
    GameNotFound,
    /// The game belongs to another player.
    NotYourGame,
    /// Another request changed the game first.
    Conflict,
    /// Another player's game of today's challenge: shown from tomorrow.
    HiddenUntilTomorrow,
    /// The request itself is malformed: bad id, bad level, oversized text,
    /// a missing or unreadable field.
    BadRequest(String),
    /// Too many requests from this player or address; the limiter says
    /// when the next one would pass.
    RateLimited {
        retry_after_s: u64,
    },
    /// A pseudonym that breaks the rules or is taken.
    BadPseudonym(String),
    /// A text to read (PDN, FEN) that does not read: what and where.
    BadText(String),
    /// A text over the size accepted, in bytes.
    TooLarge {
        limit_bytes: u64,
    },
    /// A fault on the server; its cause is in the server's log, not on the
    /// page.
    Internal,
    /// The database is out of reach for a moment (restarting, failing
    /// over): the same request may be sent again shortly.
    Unavailable,
    /// The request did not reach the server or its answer was unreadable.
    Transport(String),
}

impl AppError {
    /// The HTTP status the server answers this error with: the client's
    /// mistakes are 4xx, only the server's own faults are 5xx. The only
    /// place a status is decided (see `server/statuses.rs` for the path).
    pub fn status(&self) -> u16 {
        match self {
            AppError::BadRequest(_) => 400,
            AppError::NotYourGame | AppError::HiddenUntilTomorrow => 403,
            AppError::GameNotFound => 404,
            AppError::NotYourTurn
            | AppError::GameOver
            | AppError::GameNotOver
            | AppError::ComputerChanged
            | AppError::Conflict => 409,
            AppError::IllegalMove(_) | AppError::BadPseudonym(_) | AppError::BadText(_) => 422,
            AppError::TooLarge { .. } => 413,
            AppError::RateLimited { .. } => 429,
            AppError::Internal => 500,
            AppError::Unavailable => 503,
            // Only ever built by the client, for a request that got no
            // readable answer; a server that produced one failed itself.
            AppError::Transport(_) => 502,
        }
    }

    /// Seconds before a refused request may be sent again (the
    /// `Retry-After` header of a 429).
    pub fn retry_after_s(&self) -> Option<u64> {
        match self {
            AppError::RateLimited { retry_after_s } => Some(*retry_after_s),
            AppError::Unavailable => Some(5),
            _ => None,
        }
    }
}

impl fmt::Display for AppError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AppError::IllegalMove(why) => write!(f, "Coup refusé : {why}"),
            AppError::NotYourTurn => f.write_str("Ce n'est pas à vous de jouer."),
            AppError::GameOver => f.write_str("La partie est terminée."),
            AppError::GameNotOver => {
                f.write_str("La partie n'est pas terminée : elle pourra être analysée une fois finie.")
            }
            AppError::ComputerChanged => f.write_str(
                "L'ordinateur a été mis à jour depuis le début de cette partie : elle ne peut plus continuer. \
                 Rechargez la page pour en commencer une nouvelle.",
            ),
            AppError::GameNotFound => f.write_str("Partie introuvable."),
            AppError::NotYourGame => f.write_str("Cette partie n'est pas la vôtre."),
            AppError::Conflict => f.write_str("La partie a changé entre-temps : la page se met à jour."),
            AppError::HiddenUntilTomorrow => {
                f.write_str("Les parties du défi du jour se dévoilent le lendemain : revenez demain.")
            }
            AppError::BadRequest(why) => write!(f, "Requête invalide : {why}"),
            AppError::RateLimited { retry_after_s } => {
                write!(f, "Trop de requêtes : patientez {} s.", retry_after_s.max(&1))
            }
            AppError::BadPseudonym(why) => write!(f, "Pseudonyme refusé : {why}"),
            AppError::BadText(why) => write!(f, "Texte refusé : {why}"),
            AppError::TooLarge { limit_bytes } => {
                write!(f, "Texte trop long : {} Ko au plus.", limit_bytes / 1024)
            }
            AppError::Internal => f.write_str("Erreur du serveur. Réessayez dans un instant."),
            AppError::Unavailable => {
                f.write_str("Le service est momentanément indisponible. Réessayez dans quelques secondes.")
            }
            AppError::Transport(why) => write!(f, "Le serveur ne répond pas ({why})."),
        }
    }
}

impl std::error::Error for AppError {}

impl FromServerFnError for AppError {
    type Encoder = super::codec::JsonTextEncoding;

    /// What the server-function layer itself reports: an unreadable
    /// request is the client's fault (400); anything else is a transport
    /// failure.
    fn from_server_fn_error(value: ServerFnErrorErr) -> AppError {
        match value {
            ServerFnErrorErr::Args(why) | ServerFnErrorErr::Deserialization(why) => AppError::BadRequest(why),
            ServerFnErrorErr::MissingArg(arg) => AppError::BadRequest(format!("champ manquant : {arg}")),
            // On the server, anything else is the server's own failure (an
            // answer it could not encode); in the browser, a request that
            // got no readable answer.
            #[cfg(feature = "ssr")]
            _ => AppError::Internal,
            #[cfg(not(feature = "ssr"))]
            other => AppError::Transport(other.to_string()),
        }
    }
}

/// Why a move text was refused, in French (for the typed-move box and for
/// the server's `IllegalMove`).
pub fn move_text_error_fr(e: &crate::engine::MoveTextError) -> String {
    use crate::engine::MoveTextError::*;
    match e {
        Malformed(t) => format!("« {t} » n'est pas un coup (exemples : 32-28, 19x30)"),
        Illegal(t) => format!("{t} n'est pas un coup permis ici"),
        Ambiguous(t, alts) => format!("{t} est ambigu : précisez {}", alts.join(" ou ")),
    }
}

/// Why a rules text was refused, in French.
pub fn rules_error_fr(e: &crate::engine::RulesError) -> String {
    use crate::engine::RulesError::*;
    match e {
        UnknownPreset(name) => {
            format!("Variante inconnue : « {} » (international, english, russian ou brazilian).", clip_quote(name))
        }
        UnknownKey(key) => format!("Règle inconnue : « {} ».", clip_quote(key)),
        BadValue { key, value } => {
            format!("Valeur impossible pour la règle {} : « {} ».", clip_quote(key), clip_quote(value))
        }
        RowsDoNotFit { rows, size } => {
            format!(
                "{rows} rangées de pions ne tiennent pas sur un damier de {size} (de 1 à {}).",
                crate::engine::Rules::max_rows(*size)
            )
        }
    }
}

/// At most 40 characters of a text a request sent, to quote it back.
pub(crate) fn clip_quote(text: &str) -> String {
    text.chars().take(40).collect()
}

/// Why a set-up position was refused, in French (the electronic board's
/// editor shows it).
pub fn fen_error_fr(e: &crate::engine::FenError) -> String {
    use crate::engine::{Color, FenError::*, PositionError};
    let side = |c: &Color| if *c == Color::White { "blancs" } else { "noirs" };
    match e {
        Empty => "La position est vide.".into(),
        BadTurn(_) | BadLayout(_) | BadSide(_) | BadItem(_) => {
            "Position illisible (exemple : W:W31-50:B1-20, les blancs au trait).".into()
        }
        BadSquare(t) => format!("« {} » n'est pas une case du damier.", clip_quote(t)),
        SquareListedTwice(n) => format!("La case {n} est donnée deux fois."),
        Position(PositionError::SquareTwice(n)) => format!("La case {n} porte une pièce blanche et une noire."),
        Position(PositionError::KingOnEmptySquare(n)) => format!("La case {n} est marquée dame mais elle est vide."),
        Position(PositionError::ManOnPromotionRow(n, c)) => format!(
            "Un pion {} ne peut pas être sur la case {n} : c'est sa rangée de promotion, il y serait dame.",
            if *c == Color::White { "blanc" } else { "noir" }
        ),
        Position(PositionError::TooManyPieces(c, n)) => {
            format!("Les {} ont {n} pièces : c'est plus qu'au départ de la partie.", side(c))
        }
        Position(PositionError::NoSideToMove) => "Choisissez le camp qui a le trait.".into(),
        Position(PositionError::WrongBoard { .. }) => "Cette position n'est pas sur le bon damier.".into(),
        Position(PositionError::BoardNotBuilt(size)) => {
            format!("Le damier de {size} × {size} n'est pas dans le code chargé par cette page : rechargez-la.")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_servers_own_faults_are_5xx() {
        let client_errors = [
            AppError::IllegalMove("x".into()),
            AppError::NotYourTurn,
            AppError::GameOver,
            AppError::ComputerChanged,
            AppError::GameNotFound,
            AppError::NotYourGame,
            AppError::Conflict,
            AppError::HiddenUntilTomorrow,
            AppError::BadRequest("x".into()),
            AppError::RateLimited { retry_after_s: 3 },
            AppError::BadPseudonym("x".into()),
        ];
        for e in client_errors {
            assert!((400..500).contains(&e.status()), "{e:?}");
        }
        assert_eq!(AppError::Internal.status(), 500);
        assert_eq!(AppError::Unavailable.status(), 503);
        assert_eq!(AppError::RateLimited { retry_after_s: 3 }.retry_after_s(), Some(3));
        assert_eq!(AppError::Conflict.retry_after_s(), None);
    }

    #[test]
    fn a_missing_or_unreadable_field_is_a_bad_request() {
        let e = AppError::from_server_fn_error(ServerFnErrorErr::Args("ply: invalid digit".into()));
        assert_eq!(e.status(), 400);
        let e = AppError::from_server_fn_error(ServerFnErrorErr::MissingArg("mv".into()));
        assert_eq!(e.status(), 400);
    }
}
