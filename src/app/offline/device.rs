//! The requests a game kept on the device answers itself: the server's
//! checked ways to extend a game ([`crate::record`]), run by the browser
//! on the game read from the device's store, and the result stored back.
//! A split point of the bundle: everything it calls is fetched on first
//! use (or beforehand by the service worker).

use crate::engine::any::MoveChoice;
use crate::engine::bot::Level;
use crate::protocol::{AppError, GameKind, GameSetup, GameView};
use leptos::prelude::*;

/// What a screen asks of a game kept on the device (the server function
/// each mirrors is named).
#[derive(Clone, Debug, PartialEq, Eq)]
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

/// Answers `request` on the game `id` kept on the device.
#[lazy]
pub fn answer_on_device(id: String, request: DeviceRequest) -> Result<DeviceAnswer, AppError> {
    #[cfg(feature = "hydrate")]
    return on_device::answer(id, request);
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = (id, request);
        Err(AppError::Unavailable)
    }
}

#[cfg(feature = "hydrate")]
mod on_device {
    use super::super::{store, DEVICE_PLAYER};
    use super::{DeviceAnswer, DeviceRequest};
    use crate::protocol::{AppError, GameView};
    use crate::record::{self, GameRecord, NewGame, PlayerMove, RecordError};

    pub fn answer(id: String, request: DeviceRequest) -> Result<DeviceAnswer, AppError> {
        let now_ms = js_sys::Date::now() as i64;
        let kept = |record: GameRecord| -> Result<DeviceAnswer, AppError> {
            store::save(&record)?;
            Ok(DeviceAnswer::Game(view(&record)))
        };
        let me = DEVICE_PLAYER;
        match request {
            DeviceRequest::List => return Ok(DeviceAnswer::Games(store::all().iter().map(view).collect())),
            DeviceRequest::Forget => {
                store::remove(&id);
                return Ok(DeviceAnswer::Forgotten);
            }
            DeviceRequest::New { kind, setup, fen } => {
                let today = String::from(js_sys::Date::new_0().to_iso_string());
                let new = NewGame {
                    player_id: me,
                    kind,
                    day: today.get(..10).unwrap_or_default(),
                    setup,
                    seed: uuid::Uuid::new_v4().as_u64_pair().0,
                    start_fen: fen.as_deref(),
                    now_ms,
                };
                return kept(record::new_record(new).map_err(refusal)?.record);
            }
            _ => {}
        }
        let record = store::load(&id).ok_or(AppError::GameNotFound)?;
        let next = match request {
            DeviceRequest::Move { seen, text, think_ms } => {
                let sent = PlayerMove { seen_plies: seen, text: &text, think_ms };
                record::apply_player_move(&record, me, sent, now_ms).map(|p| p.record)
            }
            DeviceRequest::Resign => record::resign(&record, me, now_ms).map(|e| e.record),
            DeviceRequest::AgreeDraw { seen } => record::agree_draw(&record, me, seen, now_ms).map(|e| e.record),
            DeviceRequest::SwitchSides { seen } => record::switch_sides(&record, me, seen, now_ms).map(|p| p.record),
            DeviceRequest::SetLevel { seen, level } => record::set_level(&record, me, seen, level).map(|p| p.record),
            DeviceRequest::PlayOn { seen } => record::play_on(&record, me, seen, now_ms).map(|p| p.record),
            DeviceRequest::TakeBack { seen, to } => record::take_back(&record, me, seen, to).map(|t| t.record),
            DeviceRequest::Hint { seen } => {
                return record::hint(&record, me, seen).map(DeviceAnswer::Hint).map_err(refusal);
            }
            DeviceRequest::New { .. } | DeviceRequest::List | DeviceRequest::Forget => unreachable!("answered above"),
        };
        kept(next.map_err(refusal)?)
    }

    /// The game as its screen shows it: kept on the device.
    fn view(record: &GameRecord) -> GameView {
        GameView { on_device: true, ..record.view() }
    }

    /// A refusal as the player reads it; a kept game that no longer
    /// replays is said plainly (the server would log it).
    fn refusal(error: RecordError) -> AppError {
        if let RecordError::Corrupt { why, .. } = &error {
            leptos::logging::error!("partie de l'appareil illisible : {why}");
        }
        error.into()
    }
}
