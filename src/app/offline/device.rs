//! The requests a game kept on the device answers itself. Two split points
//! of the bundle, fetched on first use (or beforehand by the service
//! worker):
//! - [`answer_on_device`], on the page: reads the game from the device's
//!   store, has the worker compute the answer, stores the result;
//! - [`compute_on_device`], in the worker: the server's checked ways to
//!   extend a game ([`crate::record`]) and the computer's search, so that a
//!   search never freezes the page.

use crate::engine::any::MoveChoice;
use crate::engine::bot::Level;
use crate::protocol::{AppError, GameKind, GameSetup, GameView};
use crate::record::GameRecord;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// What a screen asks of a game kept on the device (the server function
/// each mirrors is named).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeviceRequest {
    /// A new game, kept at once (`new_game`; `start_position` with `fen`):
    /// the computer opens when it has the first move.
    New {
        kind: GameKind,
        setup: GameSetup,
        fen: Option<String>,
    },
    /// The player's move and the computer's reply (`play_move`).
    Move {
        seen: usize,
        text: String,
        think_ms: u64,
    },
    Resign,
    AgreeDraw {
        seen: usize,
    },
    SwitchSides {
        seen: usize,
    },
    SetLevel {
        seen: usize,
        level: Level,
    },
    PlayOn {
        seen: usize,
    },
    TakeBack {
        seen: usize,
        to: usize,
    },
    Hint {
        seen: usize,
    },
    /// Every game kept on the device.
    List,
    /// Forgets the game.
    Forget,
}

/// The device's answer, by request.
#[derive(Clone, Debug)]
pub enum DeviceAnswer {
    Game(GameView),
    Hint(MoveChoice),
    Games(Vec<GameView>),
    Forgotten,
}

/// What the worker is given: the game as kept (none for a new one), the
/// request, and what only the page knows (its clock; a new game's seed and
/// day). (The worker's side is compiled for the server too, where only
/// the tests call it.)
#[derive(Serialize, Deserialize)]
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
struct Computation {
    record: Option<GameRecord>,
    request: DeviceRequest,
    now_ms: i64,
    day: String,
    /// A string: a `u64` does not fit a JavaScript number on its way.
    seed: String,
}

/// What the worker answers: the game to keep, or the advice asked for.
#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
enum Computed {
    Record(GameRecord),
    Hint(MoveChoice),
}

/// Answers `request` on the game `id` kept on the device.
#[lazy]
pub async fn answer_on_device(id: String, request: DeviceRequest) -> Result<DeviceAnswer, AppError> {
    #[cfg(feature = "hydrate")]
    return on_page::answer(id, request).await;
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = (id, request);
        Err(AppError::Unavailable)
    }
}

/// The worker's side: a [`Computation`] as JSON in, `Result<Computed,
/// AppError>` as JSON out.
#[lazy]
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
pub fn compute_on_device(message: String) -> String {
    let answer = serde_json::from_str::<Computation>(&message).map_err(|_| AppError::Internal).and_then(compute);
    serde_json::to_string(&answer).unwrap_or_default()
}

#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
fn compute(computation: Computation) -> Result<Computed, AppError> {
    use super::DEVICE_PLAYER as ME;
    use crate::record::{self, NewGame, PlayerMove, RecordError};
    let Computation { record, request, now_ms, day, seed } = computation;
    let refusal = |error: RecordError| -> AppError {
        if let RecordError::Corrupt { why, .. } = &error {
            leptos::logging::error!("partie de l'appareil illisible : {why}");
        }
        error.into()
    };
    if let DeviceRequest::New { kind, setup, fen } = request {
        let seed = seed.parse().map_err(|_| AppError::Internal)?;
        let new = NewGame { player_id: ME, kind, day: &day, setup, seed, start_fen: fen.as_deref(), now_ms };
        return record::new_record(new).map(|p| Computed::Record(p.record)).map_err(refusal);
    }
    let record = record.ok_or(AppError::GameNotFound)?;
    let next = match request {
        DeviceRequest::Move { seen, text, think_ms } => {
            let sent = PlayerMove { seen_plies: seen, text: &text, think_ms };
            record::apply_player_move(&record, ME, sent, now_ms).map(|p| p.record)
        }
        DeviceRequest::Resign => record::resign(&record, ME, now_ms).map(|e| e.record),
        DeviceRequest::AgreeDraw { seen } => record::agree_draw(&record, ME, seen, now_ms).map(|e| e.record),
        DeviceRequest::SwitchSides { seen } => record::switch_sides(&record, ME, seen, now_ms).map(|p| p.record),
        DeviceRequest::SetLevel { seen, level } => record::set_level(&record, ME, seen, level).map(|p| p.record),
        DeviceRequest::PlayOn { seen } => record::play_on(&record, ME, seen, now_ms).map(|p| p.record),
        DeviceRequest::TakeBack { seen, to } => record::take_back(&record, ME, seen, to).map(|t| t.record),
        DeviceRequest::Hint { seen } => return record::hint(&record, ME, seen).map(Computed::Hint).map_err(refusal),
        DeviceRequest::New { .. } | DeviceRequest::List | DeviceRequest::Forget => {
            return Err(AppError::BadRequest("demande sans calcul".into()))
        }
    };
    next.map(Computed::Record).map_err(refusal)
}

#[cfg(feature = "hydrate")]
mod on_page {
    use super::super::{store, worker};
    use super::{Computation, Computed, DeviceAnswer, DeviceRequest};
    use crate::protocol::{AppError, GameView};
    use crate::record::GameRecord;

    pub async fn answer(id: String, request: DeviceRequest) -> Result<DeviceAnswer, AppError> {
        let record = match request {
            DeviceRequest::List => return Ok(DeviceAnswer::Games(store::all().iter().map(view).collect())),
            DeviceRequest::Forget => {
                store::remove(&id);
                return Ok(DeviceAnswer::Forgotten);
            }
            DeviceRequest::New { .. } => None,
            _ => Some(store::load(&id).ok_or(AppError::GameNotFound)?),
        };
        let now = js_sys::Date::new_0();
        let computation = Computation {
            record,
            request,
            now_ms: now.get_time() as i64,
            day: String::from(now.to_iso_string()).chars().take(10).collect(),
            seed: uuid::Uuid::new_v4().as_u64_pair().0.to_string(),
        };
        let message = serde_json::to_string(&computation).map_err(|_| AppError::Internal)?;
        let answer = worker::compute(message).await?;
        match serde_json::from_str::<Result<Computed, AppError>>(&answer).map_err(|_| AppError::Internal)?? {
            Computed::Record(record) => {
                store::save(&record)?;
                Ok(DeviceAnswer::Game(view(&record)))
            }
            Computed::Hint(choice) => Ok(DeviceAnswer::Hint(choice)),
        }
    }

    /// The game as its screen shows it: kept on the device.
    fn view(record: &GameRecord) -> GameView {
        GameView { on_device: true, ..record.view() }
    }
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::*;
    use crate::engine::any::{AnyGame, AnyPosition};
    use crate::engine::{Color, Rules};

    /// What the worker answers to `computation`, through its JSON.
    fn computed(computation: &Computation) -> Result<Computed, AppError> {
        let message = serde_json::to_string(computation).unwrap();
        compute(serde_json::from_str(&message).unwrap())
    }

    fn computation(record: Option<GameRecord>, request: DeviceRequest) -> Computation {
        // A seed past 2^53, which a JavaScript number would round.
        Computation { record, request, now_ms: 1_000, day: "2026-12-03".into(), seed: u64::MAX.to_string() }
    }

    #[test]
    fn the_worker_opens_a_game_and_answers_a_move_as_the_server_would() {
        let setup = GameSetup::new(Rules::ENGLISH, Level::Intermediaire, Color::White);
        let new = DeviceRequest::New { kind: GameKind::Free, setup, fen: None };
        let Ok(Computed::Record(opened)) = computed(&computation(None, new)) else { panic!("a new game") };
        // Black opens English draughts: the computer has played.
        let mut game = AnyGame::new(AnyPosition::initial(Rules::ENGLISH).unwrap());
        let opening = game.bot_reply(Level::Intermediaire, u64::MAX).unwrap().long;
        assert_eq!((opened.seed, opened.player_id.as_str()), (u64::MAX, "appareil"));
        assert_eq!(opened.moves, std::slice::from_ref(&opening));

        game.play_long(&opening).unwrap();
        let mine = game.choices()[0].long.clone();
        let sent = DeviceRequest::Move { seen: 1, text: mine.clone(), think_ms: 500 };
        let Ok(Computed::Record(played)) = computed(&computation(Some(opened.clone()), sent)) else {
            panic!("a move answered")
        };
        game.play_long(&mine).unwrap();
        let reply = game.bot_reply(Level::Intermediaire, u64::MAX).unwrap().long;
        assert_eq!(played.moves, [opening, mine.clone(), reply], "the server's replies, from the same seed");

        let stale = DeviceRequest::Move { seen: 1, text: mine, think_ms: 500 };
        assert_eq!(computed(&computation(Some(played.clone()), stale)).unwrap_err(), AppError::Conflict);
        let Ok(Computed::Record(resigned)) = computed(&computation(Some(played), DeviceRequest::Resign)) else {
            panic!("a resignation")
        };
        assert!(resigned.outcome.is_some());
    }

    #[test]
    fn the_worker_refuses_what_it_cannot_compute() {
        assert_eq!(computed(&computation(None, DeviceRequest::Resign)).unwrap_err(), AppError::GameNotFound);
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let answer = runtime.block_on(compute_on_device("{".into()));
        let read: Result<Computed, AppError> = serde_json::from_str(&answer).unwrap();
        assert_eq!(read.unwrap_err(), AppError::Internal, "a message that does not read");
    }
}
