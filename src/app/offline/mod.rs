//! Play without a connection: the games kept on the player's device, and
//! the requests their screens send, answered by the browser itself with
//! the server's own checked code ([`crate::record`]) and the same bot, so
//! that the same moves get the same replies offline and online.
//!
//! What computes (the rules of extending a game, the bot's search and its
//! weights, the device's store) is in lazily loaded pieces of the bundle,
//! behind [`answer_on_device`] (the page's side) and a worker that runs
//! the bundle's own code (the search, off the page's thread): the first
//! page a player opens loads none of it; the service worker fetches it in
//! the background and keeps it.

mod device;
#[cfg(feature = "hydrate")]
mod store;
#[cfg(feature = "hydrate")]
mod worker;

pub use device::{answer_on_device, DeviceAnswer, DeviceRequest};

use super::call::GameRequest;
use crate::engine::any::MoveChoice;
use crate::protocol::{AppError, GameView};

/// The player's id on the device: a device has one player.
pub const DEVICE_PLAYER: &str = "appareil";

/// Where the server serves the offline games' worker script.
pub const DEVICE_WORKER_PATH: &str = "/appareil.js";

/// The worker's entry point (`/appareil.js` calls it): one computation
/// for a game kept on the device, JSON in and out.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub async fn device_compute(message: String) -> String {
    device::compute_on_device(message).await
}

/// A request on the game `id` kept on the device, answered with the game.
pub fn game_request(id: String, request: DeviceRequest) -> GameRequest {
    Box::pin(async move {
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
