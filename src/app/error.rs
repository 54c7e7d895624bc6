//! The errors a server function can return, as the player reads them. They
//! cross the wire as JSON and keep their variant, so the page can react to
//! each (reload on a conflict, show the message otherwise).

use leptos::server_fn::codec::JsonEncoding;
use leptos::server_fn::error::{FromServerFnError, ServerFnErrorErr};
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AppError {
    /// The move is not legal here (the text says why).
    IllegalMove(String),
    /// It is the computer's turn, or the game is over.
    NotYourTurn,
    GameOver,
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
    /// The request itself is malformed: bad id, bad level, oversized text.
    BadRequest(String),
    /// Too many requests from this player or address.
    RateLimited,
    /// A pseudonym that breaks the rules or is taken.
    BadPseudonym(String),
    /// A fault on the server; details are in its log, not on the page.
    Internal,
    /// The request did not reach the server or its answer was unreadable.
    Transport(String),
}

impl fmt::Display for AppError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AppError::IllegalMove(why) => write!(f, "Coup refusé : {why}"),
            AppError::NotYourTurn => f.write_str("Ce n'est pas à vous de jouer."),
            AppError::GameOver => f.write_str("La partie est terminée."),
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
            AppError::RateLimited => f.write_str("Trop de requêtes : patientez quelques secondes."),
            AppError::BadPseudonym(why) => write!(f, "Pseudonyme refusé : {why}"),
            AppError::Internal => f.write_str("Erreur du serveur. Réessayez dans un instant."),
            AppError::Transport(why) => write!(f, "Le serveur ne répond pas ({why})."),
        }
    }
}

impl std::error::Error for AppError {}

impl FromServerFnError for AppError {
    type Encoder = JsonEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> AppError {
        match value {
            ServerFnErrorErr::Args(why) | ServerFnErrorErr::Deserialization(why) => AppError::BadRequest(why),
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
