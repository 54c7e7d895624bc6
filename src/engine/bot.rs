//! The computer opponent: levels as fixed search budgets, the seeded draw
//! among equal moves, and the random opening moves.
//!
//! Everything the bot decides follows from (seed, level, moves so far): the
//! random number generator is rebuilt for every reply from the seed and the
//! ply, and the search starts from nothing. A server restart, another
//! server or the browser replays the same game to the same replies.

use super::eval::Evaluation;
use super::geometry::{Geometry, Ten};
pub use super::search::Searcher;
use super::search::{DrawCounters, Limits, SearchResult};
use super::{Color, Game, Move, Position};
use rand_core::RngCore;
use rand_pcg::Pcg32;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The version of the computer's play. Bump it with any change to the
/// search, the evaluation or a level's budget that can change a single
/// reply of `debutant`, `intermediaire` or `fort`, whose games are scored
/// (the ladder's steps 2 and 4 play as the first two): a stored game
/// records the version it was played against, and only the same version can
/// recompute its moves to verify a score. A change to the electronic
/// board's own steps does not bump it: those games are never scored, so
/// nothing recomputes their replies, and a bump would end every unfinished
/// game, the day's challenges included.
/// 1: until 2026-11-29; 2: `intermediaire` with one threat ply, captures
/// tried as generated in quiescence. (The ladder's steps 6 to 8 changed
/// twice on 2026-11-30 without a bump: step 8 is now `fort` itself.)
/// 3: `fort` plays positions of three pieces or fewer by the exact endgame
/// tables (its other replies, and the other levels', are unchanged).
/// 4: `fort` prunes at the last plies of its search (frontier pruning):
/// one to three plies deeper at the same nodes; the other levels are
/// unchanged.
/// 5: `fort` judges positions by the learned evaluation (weights in two
/// phases fitted to its own searches' scores); the other levels are
/// unchanged.
/// 6: `fort`'s learned weights of the fourth generation (fitted to the
/// searches of games played by the weights before them); the other levels
/// are unchanged.
/// 7: `fort`'s learned weights of the fifth generation, with the
/// whole-board terms, fitted also to positions of its games against Scan
/// 2.0 labelled by its own deeper search; the other levels are unchanged.
/// 8: `fort`'s learned weights of the sixth generation, carried on from
/// the fifth's with its own new games and 640 new games against Scan 2.0
/// (labelled by its own search); the other levels are unchanged.
/// 9: `fort`'s learned scores shrink where the weaker side has a king
/// (to an eighth against three pieces or fewer, to a half with as many
/// kings each and a man more at most); the other levels are unchanged.
/// 10: `fort`'s learned weights of the seventh generation, fitted through
/// that shrinking (`tune fit --drawish 1`) on its own new games and 700 new
/// games against Scan 2.0; the other levels are unchanged.
/// 11: `fort`'s learned weights of the eighth generation, fitted to targets
/// that look about ten plies ahead in the game (`tune fit --td 0.9`); the
/// other levels are unchanged.
pub const BOT_VERSION: u32 = 11;

/// The bot's first moves of a game from the usual start drawn at random
/// among the legal moves: games start differently without any opening
/// book.
pub const RANDOM_OPENING_MOVES: u32 = 2;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize, PartialOrd, Ord)]
pub enum Level {
    Debutant,
    /// The daily challenge's level, and a free game's unless asked.
    #[default]
    Intermediaire,
    Fort,
    /// A step of the electronic board's ladder.
    Ladder(Step),
}

/// A step of the electronic board's ladder, from 1 (a beginner's opponent)
/// to 8 (`fort`, the strongest the engine plays in a few seconds). Only
/// these eight exist: a number read from a request is checked
/// ([`Step::new`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(try_from = "u8", into = "u8")]
pub struct Step(u8);

impl Step {
    pub const ALL: [Step; 8] = [Step(1), Step(2), Step(3), Step(4), Step(5), Step(6), Step(7), Step(8)];

    /// Step `n`, if it is one of the eight.
    pub const fn new(n: u8) -> Option<Step> {
        if n >= 1 && n <= 8 {
            Some(Step(n))
        } else {
            None
        }
    }

    pub const fn get(self) -> u8 {
        self.0
    }
}

impl TryFrom<u8> for Step {
    type Error = UnknownLevel;
    fn try_from(n: u8) -> Result<Step, UnknownLevel> {
        Step::new(n).ok_or_else(|| UnknownLevel(n.to_string()))
    }
}

impl From<Step> for u8 {
    fn from(step: Step) -> u8 {
        step.0
    }
}

impl Level {
    /// The named levels (the electronic board's ladder aside).
    pub const ALL: [Level; 3] = [Level::Debutant, Level::Intermediaire, Level::Fort];

    /// The electronic board's ladder, 1 to 8.
    pub const LADDER: [Level; 8] = [
        Level::Ladder(Step(1)),
        Level::Ladder(Step(2)),
        Level::Ladder(Step(3)),
        Level::Ladder(Step(4)),
        Level::Ladder(Step(5)),
        Level::Ladder(Step(6)),
        Level::Ladder(Step(7)),
        Level::Ladder(Step(8)),
    ];

    /// Whether this is a step of the electronic board's ladder.
    pub const fn is_ladder(self) -> bool {
        matches!(self, Level::Ladder(_))
    }

    /// The ladder's step, 1 to 8 (none for the named levels).
    pub const fn step(self) -> Option<Step> {
        match self {
            Level::Ladder(step) => Some(step),
            _ => None,
        }
    }

    /// The name used in URLs, the database and the command line (`1` to
    /// `8` for the ladder).
    pub const fn name(self) -> &'static str {
        const STEPS: [&str; 8] = ["1", "2", "3", "4", "5", "6", "7", "8"];
        match self {
            Level::Debutant => "debutant",
            Level::Intermediaire => "intermediaire",
            Level::Fort => "fort",
            Level::Ladder(step) => STEPS[step.0 as usize - 1],
        }
    }

    /// The name shown to players.
    pub const fn label(self) -> &'static str {
        const STEPS: [&str; 8] =
            ["Niveau 1", "Niveau 2", "Niveau 3", "Niveau 4", "Niveau 5", "Niveau 6", "Niveau 7", "Niveau 8"];
        match self {
            Level::Debutant => "Débutant",
            Level::Intermediaire => "Intermédiaire",
            Level::Fort => "Fort",
            Level::Ladder(step) => STEPS[step.0 as usize - 1],
        }
    }

    /// The search budget of the level.
    pub const fn limits(self) -> Limits {
        match self {
            // Sees its own captures and the immediate reply, and picks
            // freely among moves that look about as good: it blunders now
            // and then, as a beginner does.
            Level::Debutant => Limits {
                depth: 2,
                nodes: 4_000,
                tie_margin: 35,
                table_bits: 10,
                threat_plies: 2,
                eval: Evaluation::Classic,
                keep_partial: false,
                probcut: false,
                frontier_pruning: false,
                endgame_tables: false,
                two_slot_table: false,
                late_reductions: false,
                quiescence_exchanges: false,
            },
            // Four plies plus captures played out: punishes a hanging piece
            // and finds two-move shots, within a few milliseconds. One
            // threat ply, not two: over 324 games against itself with two it
            // scored 49.2 %, and 94.8 % against debutant as it did with
            // two, for a fifth less work.
            Level::Intermediaire => Limits {
                depth: 4,
                nodes: 25_000,
                tie_margin: 0,
                table_bits: 12,
                threat_plies: 1,
                eval: Evaluation::Classic,
                keep_partial: false,
                probcut: false,
                frontier_pruning: false,
                endgame_tables: false,
                two_slot_table: false,
                late_reductions: false,
                quiescence_exchanges: false,
            },
            Level::Fort => FORT,
            Level::Ladder(step) => ladder_limits(step),
        }
    }
}

/// `fort`'s budget: eight million nodes (README, "Measured", for the time
/// they take), judged by the learned evaluation: it beat the classic one
/// at every budget measured, `fort`'s own included (README, "The learned
/// evaluation").
const FORT: Limits = Limits {
    depth: 64,
    nodes: 8_000_000,
    tie_margin: 0,
    table_bits: 20,
    threat_plies: 2,
    eval: Evaluation::Learned,
    // The nodes of an iteration cut short count when a root move it
    // finished beats the previous best (as the learned evaluation was
    // measured).
    keep_partial: true,
    // Not shown to gain at this budget (see [`Limits::probcut`]).
    probcut: false,
    // One to three plies deeper at the same nodes, and stronger for it (README,
    // "Measured").
    frontier_pruning: true,
    // Exact play with three pieces or fewer, at no cost elsewhere.
    endgame_tables: true,
    // Not shown to gain (README, "Measured").
    two_slot_table: false,
    // Not shown to gain against Scan 2.0, and behind in self-play and in
    // the masters' moves (README, "Matches against another engine").
    late_reductions: false,
    // A ply or two shallower, and behind against Scan 2.0 (same).
    quiescence_exchanges: false,
};

/// The electronic board's ladder: each step searches deeper or longer than
/// the one below (the README gives each step's score against the one below
/// over 20 selfplay games). Step 2 plays as `debutant`, step 4 as
/// `intermediaire`, step 8 as `fort`. Step 8 was `fort` with twice its
/// nodes, but lost more games to `fort` than it won (README): twice the
/// nodes did not show as strength at this budget, so the top step is `fort`
/// itself, and steps 6 and 7 stand far enough below it for each step to
/// score 70 % against the one below.
const fn ladder_limits(step: Step) -> Limits {
    match step.0 {
        // One ply and a wide margin: it sees what it takes, not what it
        // gives away.
        1 => Limits {
            depth: 1,
            nodes: 1_000,
            tie_margin: 80,
            table_bits: 8,
            threat_plies: 0,
            eval: Evaluation::Classic,
            keep_partial: false,
            probcut: false,
            frontier_pruning: false,
            endgame_tables: false,
            two_slot_table: false,
            late_reductions: false,
            quiescence_exchanges: false,
        },
        2 => Level::Debutant.limits(),
        3 => Limits {
            depth: 3,
            nodes: 8_000,
            tie_margin: 30,
            table_bits: 11,
            threat_plies: 1,
            eval: Evaluation::Classic,
            keep_partial: false,
            probcut: false,
            frontier_pruning: false,
            endgame_tables: false,
            two_slot_table: false,
            late_reductions: false,
            quiescence_exchanges: false,
        },
        4 => Level::Intermediaire.limits(),
        5 => Limits {
            depth: 6,
            nodes: 150_000,
            tie_margin: 0,
            table_bits: 16,
            threat_plies: 2,
            eval: Evaluation::Classic,
            keep_partial: false,
            probcut: false,
            frontier_pruning: false,
            endgame_tables: false,
            two_slot_table: false,
            late_reductions: false,
            quiescence_exchanges: false,
        },
        6 => Limits {
            depth: 64,
            nodes: 200_000,
            tie_margin: 0,
            table_bits: 18,
            threat_plies: 2,
            eval: Evaluation::Classic,
            keep_partial: false,
            probcut: false,
            frontier_pruning: false,
            endgame_tables: true,
            two_slot_table: false,
            late_reductions: false,
            quiescence_exchanges: false,
        },
        7 => Limits {
            depth: 64,
            nodes: 1_000_000,
            tie_margin: 0,
            table_bits: 20,
            threat_plies: 2,
            eval: Evaluation::Classic,
            keep_partial: false,
            probcut: false,
            frontier_pruning: false,
            endgame_tables: true,
            two_slot_table: false,
            late_reductions: false,
            quiescence_exchanges: false,
        },
        _ => FORT,
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
        write!(f, "unknown level {:?} (debutant, intermediaire, fort, or 1 to 8)", self.0)
    }
}

impl std::error::Error for UnknownLevel {}

impl FromStr for Level {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        Level::ALL.into_iter().chain(Level::LADDER).find(|l| l.name() == s).ok_or_else(|| UnknownLevel(s.to_string()))
    }
}

/// The bot's move, with the search behind it (none for a random opening
/// move).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Reply<G: Geometry = Ten> {
    pub mv: Move<G>,
    pub search: Option<SearchResult<G>>,
}

/// The bot's reply in `game`, or `None` when the game is over.
pub fn reply<G: Geometry>(game: &Game<G>, level: Level, seed: u64) -> Option<Reply<G>> {
    if game.is_over() {
        return None;
    }
    let ply = game.moves().len();
    // Random first moves vary the games from the usual start; from a
    // set-up position they would only be blunders.
    let from_the_start = Position::initial(game.start().rules()).ok() == Some(*game.start());
    if from_the_start && game.moves_played(game.turn()) < RANDOM_OPENING_MOVES {
        let moves = game.legal_moves();
        let mv = moves[pick(&mut rng_for(seed, ply), moves.len())];
        return Some(Reply { mv, search: None });
    }
    let limits = level.limits();
    let result =
        Searcher::new(&limits).with_game_history(game).search(game.position(), DrawCounters::of(game), &limits)?;
    Some(Reply { mv: choose(&result, seed, ply), search: Some(result) })
}

/// A move of the bot's side in a game that is not the bot's reply.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NotTheBotsMove<G: Geometry = Ten> {
    /// Index of the move in the game.
    pub ply: usize,
    pub played: Move<G>,
    pub expected: Option<Move<G>>,
}

impl<G: Geometry> fmt::Display for NotTheBotsMove<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ply {}: {} is not the computer's move (", self.ply, self.played.long_form())?;
        match &self.expected {
            Some(m) => write!(f, "it plays {})", m.long_form()),
            None => f.write_str("it has none)"),
        }
    }
}

impl<G: Geometry> std::error::Error for NotTheBotsMove<G> {}

/// Checks that every move `bot_side` played in `game` is the bot's reply at
/// `level` with `seed`, recomputing each one on up to `threads` threads.
///
/// Each reply follows from the game before it alone (fresh tables, a
/// generator per ply), so the replies can be recomputed in any order and in
/// parallel. On a mismatch, the earliest one is reported. In the browser
/// they are recomputed one at a time, whatever `threads` says.
pub fn verify_replies<G: Geometry>(
    game: &Game<G>,
    bot_side: Color,
    level: Level,
    seed: u64,
    threads: usize,
) -> Result<(), NotTheBotsMove<G>> {
    // The game before each of the bot's moves.
    let mut before = Vec::new();
    let mut prefix = Game::new(*game.start());
    for (ply, mv) in game.moves().iter().enumerate() {
        if prefix.turn() == bot_side {
            before.push((ply, prefix.clone(), *mv));
        }
        prefix.play(mv).expect("a game holds legal moves only");
    }
    let check = |(ply, prefix, played): &(usize, Game<G>, Move<G>)| {
        let expected = reply(prefix, level, seed).map(|r| r.mv);
        (expected != Some(*played)).then_some(NotTheBotsMove { ply: *ply, played: *played, expected })
    };
    let threads = threads.clamp(1, before.len().max(1));
    if threads == 1 {
        return before.iter().find_map(check).map_or(Ok(()), Err);
    }
    let found = in_parallel(&before, threads, check);
    found.into_iter().min_by_key(|m| m.ply).map_or(Ok(()), Err)
}

/// Runs `check` on every item, on the calling thread and `threads - 1`
/// threads of the process's pool, and gathers what it returns.
///
/// The pool's threads stay parked between calls and wake on a core of their
/// own within microseconds; threads spawned per call waited milliseconds
/// for one. Items are handed out one at a time, latest first: replies
/// differ a hundredfold in cost, the costliest (kings, long rafles) tend to
/// come late in a game, and the cheap opening replies then fill the gaps at
/// the end. Every item is checked: a mismatch only comes from a corrupt
/// record, so stopping early would gain nothing that matters.
#[cfg(not(target_arch = "wasm32"))]
fn in_parallel<T: Sync, R: Send>(items: &[T], threads: usize, check: impl Fn(&T) -> Option<R> + Sync) -> Vec<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let next = AtomicUsize::new(0);
    let found = Mutex::new(Vec::new());
    let work = || {
        while let Some(item) = items.iter().rev().nth(next.fetch_add(1, Ordering::Relaxed)) {
            if let Some(result) = check(item) {
                found.lock().unwrap_or_else(|e| e.into_inner()).push(result);
            }
        }
    };
    rayon::in_place_scope(|scope| {
        for _ in 1..threads {
            scope.spawn(|_| work());
        }
        work();
    });
    found.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// The browser has no threads to spare: one at a time.
#[cfg(target_arch = "wasm32")]
fn in_parallel<T: Sync, R: Send>(items: &[T], _threads: usize, check: impl Fn(&T) -> Option<R> + Sync) -> Vec<R> {
    items.iter().filter_map(check).collect()
}

/// A search of `pos` within `limits`, with fresh tables.
pub fn search<G: Geometry>(pos: &Position<G>, counters: DrawCounters, limits: &Limits) -> Option<SearchResult<G>> {
    Searcher::new(limits).search(pos, counters, limits)
}

/// Draws one of `result.best_moves` with the generator for (seed, ply).
pub fn choose<G: Geometry>(result: &SearchResult<G>, seed: u64, ply: usize) -> Move<G> {
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
        for level in Level::ALL.into_iter().chain(Level::LADDER) {
            assert_eq!(level.name().parse::<Level>(), Ok(level));
        }
        for bad in ["expert", "0", "9", "08", ""] {
            assert!(bad.parse::<Level>().is_err(), "{bad:?}");
        }
        assert_eq!("3".parse::<Level>().map(Level::label), Ok("Niveau 3"));
    }

    #[test]
    fn the_ladder_climbs_to_fort() {
        let limits: Vec<Limits> = Level::LADDER.iter().map(|l| l.limits()).collect();
        for pair in limits.windows(2) {
            assert!(pair[1].nodes > pair[0].nodes && pair[1].depth >= pair[0].depth, "{pair:?}");
            assert!(pair[1].tie_margin <= pair[0].tie_margin);
        }
        assert_eq!(Level::LADDER[1].limits(), Level::Debutant.limits());
        assert_eq!(Level::LADDER[3].limits(), Level::Intermediaire.limits());
        assert_eq!(Level::LADDER[7].limits(), Level::Fort.limits(), "step 8 plays as fort");
        for level in Level::ALL.into_iter().chain(Level::LADDER) {
            // The learned evaluation and frontier pruning at fort's budget
            // only (step 8): the daily challenge's level keeps its replies,
            // and the steps below keep their measured distances.
            let is_fort = level == Level::Fort || level == Level::LADDER[7];
            let judge = if is_fort { (Evaluation::Learned, true) } else { (Evaluation::Classic, false) };
            assert_eq!((level.limits().eval, level.limits().keep_partial), judge, "{level}");
            assert!(!level.limits().probcut, "{level}: ProbCut is not shown to gain yet");
            assert_eq!(level.limits().frontier_pruning, is_fort, "{level}");
            // The tables from step 6 up, where the search is fort's; the
            // daily challenge's level keeps its replies.
            let searches_as_fort = level == Level::Fort || matches!(level, Level::Ladder(s) if s.get() >= 6);
            assert_eq!(level.limits().endgame_tables, searches_as_fort, "{level}");
        }
    }

    #[test]
    fn a_step_from_a_request_is_checked() {
        let level: Level = serde_json::from_str(r#"{"Ladder":8}"#).unwrap();
        assert_eq!(level, Level::LADDER[7]);
        assert_eq!(serde_json::to_string(&Level::LADDER[2]).unwrap(), r#"{"Ladder":3}"#);
        assert!(serde_json::from_str::<Level>(r#"{"Ladder":9}"#).is_err());
        assert!(serde_json::from_str::<Level>(r#"{"Ladder":0}"#).is_err());
        assert_eq!(Step::new(5).map(Step::get), Some(5));
    }

    /// The seeds written down: a change to the hash would silently give
    /// every day, past ones included, another challenge, and stored daily
    /// games could no longer be verified.
    #[test]
    fn daily_seeds_differ_by_day_and_are_fixed() {
        assert_eq!(daily_seed("2026-11-29"), 0x79e5_432b_627d_7d2e);
        assert_eq!(daily_seed("2026-11-30"), 0x79e1_b62b_627a_57c0);
    }

    #[test]
    fn pick_stays_in_range() {
        let mut rng = rng_for(7, 3);
        for n in 1..50 {
            assert!(pick(&mut rng, n) < n);
        }
    }
}
