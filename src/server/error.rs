//! The server's one error type: a refusal the player reads, or a fault
//! with its cause. Faults become [`AppError::Internal`] in one `From`, which
//! logs the cause: the page never shows it, the operator always sees it.

use crate::protocol::AppError;

#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The request is refused for a reason the player can act on (an
    /// illegal move, somebody else's game…): passed on as it is.
    #[error("{0}")]
    Refused(#[from] AppError),
    #[error("database: {0}")]
    Database(#[from] rusqlite::Error),
    /// A PostgreSQL error that is not the database being out of reach.
    #[error("postgres: {0}")]
    Postgres(tokio_postgres::Error),
    /// The database cannot be reached now (down, restarting, every
    /// connection busy past the wait): the request may be retried, and the
    /// player sees a 503, not a fault.
    #[error("database unavailable: {0}")]
    Unavailable(String),
    /// The database was written by a newer version of Dames.
    #[error("database schema version {found} is newer than this program's {known}")]
    SchemaTooNew { found: usize, known: usize },
    /// A blocking task panicked or was cancelled.
    #[error("background task failed: {0}")]
    Task(#[from] tokio::task::JoinError),
    /// A stored game that the rules or the computer do not replay.
    #[error("stored game {game} does not replay: {why}")]
    CorruptGame { game: String, why: String },
    /// A stored value this program cannot read back.
    #[error("unreadable stored value: {0}")]
    Unreadable(String),
    /// The search slots' semaphore was closed (the server is stopping).
    #[error("search slots closed")]
    SearchSlotsClosed,
    /// The router did not provide what a handler needs: a wiring bug.
    #[error("{0} missing from the request context")]
    MissingContext(&'static str),
}

pub type ServerResult<T> = Result<T, ServerError>;

/// Out of reach (connection refused or lost, the server shutting down or
/// starting up) is `Unavailable`; anything else is a fault.
impl From<tokio_postgres::Error> for ServerError {
    fn from(error: tokio_postgres::Error) -> ServerError {
        let unreachable = match error.code() {
            Some(code) => {
                let code = code.code();
                code.starts_with("08") || matches!(code, "57P01" | "57P02" | "57P03" | "53300")
            }
            None => error.as_db_error().is_none(),
        };
        if unreachable {
            ServerError::Unavailable(error.to_string())
        } else {
            ServerError::Postgres(error)
        }
    }
}

/// The pool's errors: waiting too long, or a connection it could not open,
/// are the database out of reach.
impl From<crate::record::RecordError> for ServerError {
    fn from(error: crate::record::RecordError) -> ServerError {
        match error {
            crate::record::RecordError::Refused(refusal) => ServerError::Refused(refusal),
            crate::record::RecordError::Corrupt { game, why } => ServerError::CorruptGame { game, why },
        }
    }
}

impl From<deadpool_postgres::PoolError> for ServerError {
    fn from(error: deadpool_postgres::PoolError) -> ServerError {
        match error {
            deadpool_postgres::PoolError::Backend(e) => e.into(),
            other => ServerError::Unavailable(other.to_string()),
        }
    }
}

impl From<ServerError> for AppError {
    fn from(error: ServerError) -> AppError {
        match error {
            ServerError::Refused(refusal) => refusal,
            ServerError::Unavailable(why) => {
                tracing::warn!(error = %why, "database unavailable");
                AppError::Unavailable
            }
            fault => {
                tracing::error!(error = %fault, "internal error");
                AppError::Internal
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_pass_through_and_faults_become_internal() {
        assert_eq!(AppError::from(ServerError::from(AppError::Conflict)), AppError::Conflict);
        let fault = ServerError::from(rusqlite::Error::InvalidQuery);
        assert!(fault.to_string().starts_with("database: "));
        assert_eq!(AppError::from(fault), AppError::Internal);
        assert_eq!(AppError::from(ServerError::MissingContext("Db")), AppError::Internal);
        assert_eq!(AppError::from(ServerError::Unavailable("down".into())), AppError::Unavailable);
    }
}
