//! The computer opponent: levels as fixed search budgets, the seeded draw
//! among equal moves, and the random opening moves.
//!
//! Everything the bot decides follows from (seed, level, moves so far): the
//! random number generator is rebuilt for every reply from the seed and the
//! ply, and the search starts from nothing. A server restart, another
//! server or the browser replays the same game to the same replies.

use super::search::{DrawCounters, Limits, SearchResult, Searcher};
use super::{Game, Move, Position};
use rand_core::RngCore;
use rand_pcg::Pcg32;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The bot's first moves of a game drawn at random among the legal moves:
/// games start differently without any opening book.
pub const RANDOM_OPENING_MOVES: u32 = 2;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
pub enum Level {
    Debutant,
    Intermediaire,
    Fort,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Debutant, Level::Intermediaire, Level::Fort];

    /// The name used in URLs, the database and the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Debutant => "debutant",
            Level::Intermediaire => "intermediaire",
            Level::Fort => "fort",
        }
    }

    /// The name shown to players.
    pub const fn label(self) -> &'static str {
        match self {
            Level::Debutant => "Débutant",
            Level::Intermediaire => "Intermédiaire",
            Level::Fort => "Fort",
        }
    }

    /// The search budget of the level.
    pub const fn limits(self) -> Limits {
        match self {
            // Sees its own captures and the immediate reply, and picks
            // freely among moves that look about as good: it blunders now
            // and then, as a beginner does.
            Level::Debutant => Limits { depth: 2, nodes: 4_000, tie_margin: 35, table_bits: 10 },
            // Four plies plus captures played out: punishes a hanging piece
            // and finds two-move shots, within a few milliseconds.
            Level::Intermediaire => Limits { depth: 4, nodes: 25_000, tie_margin: 0, table_bits: 12 },
            // As deep as about a second of search allows on one core.
            Level::Fort => Limits { depth: 64, nodes: 8_000_000, tie_margin: 0, table_bits: 20 },
        }
    }
}

impl Default for Level {
    fn default() -> Level {
        Level::Intermediaire
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text is not a level name.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnknownLevel(pub String);

impl fmt::Display for UnknownLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown level {:?} (debutant, intermediaire or fort)", self.0)
    }
}

impl std::error::Error for UnknownLevel {}

impl FromStr for Level {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        Level::ALL.into_iter().find(|l| l.name() == s).ok_or_else(|| UnknownLevel(s.to_string()))
    }
}

/// The bot's move, with the search behind it (none for a random opening
/// move).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Reply {
    pub mv: Move,
    pub search: Option<SearchResult>,
}

/// The bot's reply in `game`, or `None` when the game is over.
pub fn reply(game: &Game, level: Level, seed: u64) -> Option<Reply> {
    if game.is_over() {
        return None;
    }
    let ply = game.moves().len();
    if game.moves_played(game.turn()) < RANDOM_OPENING_MOVES {
        let moves = game.legal_moves();
        let mv = moves[pick(&mut rng_for(seed, ply), moves.len())];
        return Some(Reply { mv, search: None });
    }
    let result = search(game.position(), DrawCounters::of(game), &level.limits())?;
    Some(Reply { mv: choose(&result, seed, ply), search: Some(result) })
}

/// A search of `pos` within `limits`, with fresh tables.
pub fn search(pos: &Position, counters: DrawCounters, limits: &Limits) -> Option<SearchResult> {
    Searcher::new(limits).search(pos, counters, limits)
}

/// Draws one of `result.best_moves` with the generator for (seed, ply).
pub fn choose(result: &SearchResult, seed: u64, ply: usize) -> Move {
    result.best_moves[pick(&mut rng_for(seed, ply), result.best_moves.len())]
}

/// The seed of the daily challenge of a UTC date written `YYYY-MM-DD`:
/// FNV-1a, a hash fixed by its definition, so every build and every
/// machine agrees.
pub fn daily_seed(date: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in "dames/defi/".bytes().chain(date.bytes()) {
        hash ^= byte as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// The generator for one reply: seeded from the game's seed and the ply,
/// so that nothing carries over from one reply to the next.
fn rng_for(seed: u64, ply: usize) -> Pcg32 {
    let stream = 0xda3e_39cb_94b9_5bdb;
    Pcg32::new(seed ^ (ply as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15), stream)
}

/// A uniform index below `n` (n ≥ 1), by multiply-shift: the same on every
/// platform, with no dependency on a `rand` version's range sampling.
fn pick(rng: &mut Pcg32, n: usize) -> usize {
    ((rng.next_u32() as u64 * n as u64) >> 32) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_by_name() {
        for level in Level::ALL {
            assert_eq!(level.name().parse::<Level>(), Ok(level));
        }
        assert!("expert".parse::<Level>().is_err());
    }

    #[test]
    fn daily_seeds_differ_by_day_and_are_fixed() {
        assert_ne!(daily_seed("2026-11-29"), daily_seed("2026-11-30"));
        assert_eq!(daily_seed("2026-11-29"), daily_seed("2026-11-29"));
    }

    #[test]
    fn pick_stays_in_range() {
        let mut rng = rng_for(7, 3);
        for n in 1..50 {
            assert!(pick(&mut rng, n) < n);
        }
    }
}
