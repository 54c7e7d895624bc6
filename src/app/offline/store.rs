//! The games kept on the device: one entry of the browser's local storage
//! per game (`dames.appareil.<id>`, the record as JSON), which survives a
//! reload and a closed tab. Only [`super::device`] reads and writes it.

use crate::protocol::AppError;
use crate::record::GameRecord;

const PREFIX: &str = "dames.appareil.";

/// The games a device keeps at most: the oldest finished ones go first.
const KEPT: usize = 50;

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

pub fn load(id: &str) -> Option<GameRecord> {
    let text = storage()?.get_item(&format!("{PREFIX}{id}")).ok().flatten()?;
    serde_json::from_str(&text).ok()
}

/// Keeps `record`, making room if the device keeps too many games.
pub fn save(record: &GameRecord) -> Result<(), AppError> {
    let full = || AppError::BadRequest("Cet appareil n'a plus de place pour garder la partie.".into());
    let storage = storage().ok_or_else(full)?;
    let text = serde_json::to_string(record).map_err(|_| AppError::Internal)?;
    storage.set_item(&format!("{PREFIX}{}", record.id), &text).map_err(|_| full())?;
    let mut games = all();
    if games.len() > KEPT {
        // The oldest finished games first, then the oldest.
        games.sort_by_key(|g| (g.outcome.is_none(), g.last_answer_ms));
        for old in &games[..games.len() - KEPT] {
            remove(&old.id);
        }
    }
    Ok(())
}

pub fn remove(id: &str) {
    if let Some(storage) = storage() {
        let _ = storage.remove_item(&format!("{PREFIX}{id}"));
    }
}

/// Every game kept, the latest played first (an entry that does not read
/// back is skipped).
pub fn all() -> Vec<GameRecord> {
    let Some(storage) = storage() else { return Vec::new() };
    let count = storage.length().unwrap_or(0);
    let keys: Vec<String> = (0..count).filter_map(|i| storage.key(i).ok().flatten()).collect();
    let mut games: Vec<GameRecord> = keys.iter().filter_map(|key| key.strip_prefix(PREFIX)).filter_map(load).collect();
    games.sort_by_key(|g| std::cmp::Reverse(g.last_answer_ms));
    games
}
