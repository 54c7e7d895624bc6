//! Matches of international draughts between two players, each opening
//! played with both colours: the referee that plays a game to its end
//! under FMJD's rules (the players keep no history, so the repetition, the
//! 25-move rule and the endgame counts are the referee's, which the
//! engine's [`Game`] applies), the players (the engine in this process, or
//! an engine in another process speaking a Hub protocol: [`external`]),
//! the openings ([`openings`]) and the score ([`score`]). `dames match`
//! and `dames selfplay` run them.

pub mod external;
pub mod openings;
pub mod score;

use crate::engine::bot::{self, Level};
use crate::engine::search::{DrawCounters, Limits};
use crate::engine::{Color, Game, Move, Outcome};
use score::Verdict;
use std::time::Instant;

/// What a player answered when asked for a move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Reply {
    /// A legal move.
    Move(Move),
    /// Text that is no legal move here, as the player wrote it.
    Illegal(String),
    /// No move at all, and why: an engine that crashed or hung again after
    /// its restarts.
    Failed(String),
}

/// A reply and the wall-clock milliseconds it took.
#[derive(Clone, PartialEq, Debug)]
pub struct Answer {
    pub reply: Reply,
    pub ms: f64,
}

/// One side of a match.
pub trait Player: Send {
    /// Its short name, for the report (`fort`, `Scan 2.0`).
    fn name(&self) -> String;
    /// Its name with its budget, for the games' records.
    fn describe(&self) -> String;
    /// Told before each game.
    fn new_game(&mut self) {}
    /// Its move in `game` (not over); `seed` draws among moves it finds
    /// equal, if it draws at all.
    fn reply(&mut self, game: &Game, seed: u64) -> Answer;
    /// Times it was restarted, since it was made.
    fn restarts(&self) -> u32 {
        0
    }
}

/// The engine of this process at a level, with the budget and switches
/// asked for: the same move in the same game with the same seed, whatever
/// the machine's load.
#[derive(Clone, Debug)]
pub struct Ours {
    pub level: Level,
    pub limits: Limits,
}

impl Player for Ours {
    fn name(&self) -> String {
        self.level.to_string()
    }

    fn describe(&self) -> String {
        describe(self.level, &self.limits)
    }

    fn reply(&mut self, game: &Game, seed: u64) -> Answer {
        let started = Instant::now();
        let result = bot::Searcher::new(&self.limits).with_game_history(game).search(
            game.position(),
            DrawCounters::of(game),
            &self.limits,
        );
        let reply = match result {
            Some(result) => Reply::Move(bot::choose(&result, seed, game.moves().len())),
            None => Reply::Failed("no move in a game that is not over".into()),
        };
        Answer { reply, ms: started.elapsed().as_secs_f64() * 1000.0 }
    }
}

/// A level with its budget and switches, as a game's record names it:
/// `fort (learned, 450000 nodes, table 2^22, pruning, endgame tables)`.
pub fn describe(level: Level, limits: &Limits) -> String {
    let probcut = if limits.probcut { ", probcut" } else { "" };
    let pruning = if limits.frontier_pruning { ", pruning" } else { "" };
    let tables = if limits.endgame_tables { ", endgame tables" } else { "" };
    let reductions = if limits.late_reductions { ", late reductions" } else { "" };
    let exchanges = if limits.quiescence_exchanges { ", exchanges in quiescence" } else { "" };
    let slots = if limits.two_slot_table { " in two slots" } else { "" };
    let (eval, bits) = (limits.eval.name(), limits.table_bits);
    let budget =
        if limits.nodes == u64::MAX { format!("depth {}", limits.depth) } else { format!("{} nodes", limits.nodes) };
    format!("{level} ({eval}, {budget}, table 2^{bits}{slots}{probcut}{pruning}{reductions}{exchanges}{tables})")
}

/// The first player's colour in game `i` of a match (from 0): White in
/// even games, so that each opening is played with both colours.
pub fn first_players_color(i: usize) -> Color {
    if i.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    }
}

/// How `outcome` ends the game for the player of `color`.
pub fn verdict(outcome: Outcome, color: Color) -> Verdict {
    match outcome {
        Outcome::Win { winner, .. } if winner == color => Verdict::Win,
        Outcome::Win { .. } => Verdict::Loss,
        Outcome::Draw(_) => Verdict::Draw,
    }
}

/// What one player did in a game.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct SideRecord {
    /// Moves it was asked for.
    pub moves: u32,
    /// Their wall-clock milliseconds, added up.
    pub ms: f64,
    pub restarts: u32,
    /// Moves it answered that were no legal move (at most one: it loses
    /// the game).
    pub illegal: u32,
    /// Moves it gave no answer to, restarts and all (at most one too).
    pub failed: u32,
}

impl SideRecord {
    pub fn add(&mut self, other: &SideRecord) {
        self.moves += other.moves;
        self.ms += other.ms;
        self.restarts += other.restarts;
        self.illegal += other.illegal;
        self.failed += other.failed;
    }

    /// Milliseconds a move on average (0 before any move).
    pub fn ms_a_move(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.ms / self.moves as f64
        }
    }
}

/// A game played by the referee.
#[derive(Clone, Debug)]
pub struct Played {
    pub game: Game,
    /// The first player's colour.
    pub first_color: Color,
    /// The result for the first player.
    pub verdict: Verdict,
    /// What each player did, the first player's first.
    pub sides: [SideRecord; 2],
    /// Why the game ended outside the rules: a player's illegal move, or
    /// an engine that gave no move.
    pub forfeit: Option<String>,
}

/// Plays `opening` to its end between `players`, the first of them with
/// `first_color`. The referee keeps the game: a player's move is played
/// only when legal, and the draw rules are the game's. A move that is not
/// legal, or none at all, loses the game for its player (recorded as a
/// resignation, with the reason in `forfeit`).
pub fn play_game(opening: &Game, first_color: Color, players: [&mut dyn Player; 2], seed: u64) -> Played {
    let mut game = opening.clone();
    let mut sides = [SideRecord::default(); 2];
    let restarts_before = [players[0].restarts(), players[1].restarts()];
    let mut forfeit = None;
    let [first, second] = players;
    first.new_game();
    second.new_game();
    while !game.is_over() {
        let (index, player) = if game.turn() == first_color { (0, &mut *first) } else { (1, &mut *second) };
        let Answer { reply, ms } = player.reply(&game, seed);
        let side = &mut sides[index];
        side.moves += 1;
        side.ms += ms;
        let refused = match reply {
            Reply::Move(mv) => match game.play(&mv) {
                Ok(()) => None,
                Err(e) => {
                    side.illegal += 1;
                    Some(format!("illegal move by {}: {e}", player.name()))
                }
            },
            Reply::Illegal(text) => {
                side.illegal += 1;
                Some(format!("illegal move {text:?} by {}", player.name()))
            }
            Reply::Failed(why) => {
                side.failed += 1;
                Some(format!("no move from {}: {why}", player.name()))
            }
        };
        if let Some(why) = refused {
            forfeit = Some(why);
            let loser = game.turn();
            if game.resign(loser).is_err() {
                break;
            }
        }
    }
    sides[0].restarts = first.restarts().saturating_sub(restarts_before[0]);
    sides[1].restarts = second.restarts().saturating_sub(restarts_before[1]);
    // A game only leaves the loop over (a resignation cannot fail on a
    // game that is not): the outcome is there.
    let verdict = game.outcome().map_or(Verdict::Draw, |outcome| verdict(outcome, first_color));
    Played { game, first_color, verdict, sides, forfeit }
}

#[cfg(test)]
pub(crate) mod tests;
