//! Play without a connection: the games kept on the player's device, and
//! the requests their screens send, answered by the browser itself with
//! the server's own checked code ([`crate::record`]) and the same bot, so
//! that the same moves get the same replies offline and online.
//!
//! What computes (the rules of extending a game, the bot's search and its
//! weights, the device's store) is one lazily loaded piece of the bundle,
//! behind [`answer_on_device`]: the first page a player opens does not
//! load it; the service worker fetches it in the background and keeps it.

mod device;
#[cfg(feature = "hydrate")]
mod store;

pub use device::{answer_on_device, DeviceAnswer, DeviceRequest};

use super::call::GameRequest;
use crate::engine::any::MoveChoice;
use crate::protocol::{AppError, GameView};

/// The player's id on the device: a device has one player.
pub const DEVICE_PLAYER: &str = "appareil";

/// A request on the game `id` kept on the device, answered with the game.
/// The computer's search runs on the page's thread: it starts after a
/// pause, so that the player's own move is drawn (and starts to slide)
/// first.
pub fn game_request(id: String, request: DeviceRequest) -> GameRequest {
    Box::pin(async move {
        super::call::pause_ms(30).await;
        match answer_on_device(id, request).await? {
            DeviceAnswer::Game(view) => Ok(view),
            _ => Err(AppError::Internal),
        }
    })
}

/// The electronic board's advice on a game kept on the device.
pub async fn hint(id: String, seen: usize) -> Result<MoveChoice, AppError> {
    match answer_on_device(id, DeviceRequest::Hint { seen }).await? {
        DeviceAnswer::Hint(choice) => Ok(choice),
        _ => Err(AppError::Internal),
    }
}

/// Every game kept on the device, the latest first.
pub async fn games() -> Result<Vec<GameView>, AppError> {
    match answer_on_device(String::new(), DeviceRequest::List).await? {
        DeviceAnswer::Games(games) => Ok(games),
        _ => Err(AppError::Internal),
    }
}
