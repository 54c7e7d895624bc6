//! Analysis of a whole game with the engine: every position searched at a
//! fixed node budget, each move's loss against the engine's best, a verdict
//! (inaccuracy, mistake, blunder) by fixed thresholds, and a summary per
//! side.
//!
//! The work is one search per position, each from nothing (a fresh table,
//! the game's history up to that position), bounded by nodes and never by
//! the clock: [`AnalysisJob::search`] runs one of them, in any order, on
//! any machine, with the same result, and [`AnalysisJob::finish`] turns
//! them into an [`Analysis`]. [`analyse`] does both in one call, with a
//! progress callback.

use super::any::{AnyGame, MoveChoice};
use super::bot::{Level, BOT_VERSION};
use super::geometry::Geometry;
use super::notation::move_to_text;
use super::search::{DrawCounters, Limits, Searcher, ENDGAME_WIN};
use super::{Color, DrawReason, Game, Outcome, Position, Rules, WinReason};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The version of the analysis: bump it with any change to its budget,
/// thresholds, bound or way of scoring that can change a stored analysis.
/// A stored analysis is keyed by it and by [`BOT_VERSION`] (the search and
/// the evaluation it runs).
pub const ANALYSIS_VERSION: u32 = 1;

/// An amount of men: a man is 1.00. Held in hundredths of a man, the
/// search's own unit, so that figures compare exactly and every machine
/// agrees; written as a number of men (`1.25`) on the wire.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Men(i32);

impl Men {
    pub const ZERO: Men = Men(0);

    pub const fn from_hundredths(hundredths: i32) -> Men {
        Men(hundredths)
    }

    pub const fn hundredths(self) -> i32 {
        self.0
    }

    /// As a number of men.
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 100.0
    }

    /// Seen from `side`: positive amounts are White's advantage, so Black
    /// sees them negated.
    pub const fn for_side(self, side: Color) -> Men {
        match side {
            Color::White => self,
            Color::Black => Men(-self.0),
        }
    }
}

/// Two decimals: `1.25`, `-0.30`.
impl fmt::Display for Men {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 {
            "-"
        } else if f.sign_plus() {
            "+"
        } else {
            ""
        };
        write!(f, "{sign}{}.{:02}", self.0.unsigned_abs() / 100, self.0.unsigned_abs() % 100)
    }
}

impl Serialize for Men {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.as_f64())
    }
}

impl<'de> Deserialize<'de> for Men {
    /// A finite number of men, read to the hundredth.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Men, D::Error> {
        let men = f64::deserialize(deserializer)?;
        let hundredths = (men * 100.0).round();
        if !hundredths.is_finite() || hundredths.abs() > f64::from(i32::MAX) {
            // serde's message for an unexpected float, which the browser's
            // build writes without the number (it carries no float
            // formatting: scripts/stub-unused-code.mjs).
            return Err(serde::de::Error::invalid_value(serde::de::Unexpected::Float(men), &"an amount of men"));
        }
        Ok(Men(hundredths as i32))
    }
}

/// Evaluations are held within this many men either way, and a won
/// position (a win the search proves, by force or by the endgame tables)
/// stands at the bound itself. Three men: three men ahead decide a game
/// between masters, and beyond that the search's figures swing by a man
/// from one position to the next (an ending of kings and men scored 3.5 on
/// one side's move and 4.5 on the other's) while nothing that matters
/// changes: held within three men, the moves of a decided game are not
/// called mistakes because another move looked to win by more. Over 27
/// masters' games (README, "Analysis of a game") a bound of five men made
/// 6 blunders and 43 mistakes of their moves, this one 2 and 26; a move
/// that drops two men from level still loses three.
pub const EVAL_BOUND: Men = Men(300);

/// What the engine thinks of a position, from White's side.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Eval {
    /// White's advantage, within ±[`EVAL_BOUND`]; a proven win is at the
    /// bound.
    pub men: Men,
    /// The side that wins by force, when the search proved it (a win it
    /// found to the end, or the endgame tables' verdict), or the side that
    /// has won when the game is over.
    pub winner: Option<Color>,
}

impl Eval {
    /// An even position, or a drawn one.
    pub const EVEN: Eval = Eval { men: Men::ZERO, winner: None };

    /// The game won for `winner`.
    pub const fn won_for(winner: Color) -> Eval {
        Eval { men: EVAL_BOUND.for_side(winner), winner: Some(winner) }
    }

    /// From a search's score: hundredths of a man for `side_to_move`, with
    /// wins far above any evaluation.
    fn of_score(score: i32, side_to_move: Color) -> Eval {
        // Search wins score `WIN` less the plies, the tables' wins
        // `ENDGAME_WIN` less the plies; no evaluation comes near either.
        const PROVEN: i32 = ENDGAME_WIN - 1_000;
        if score >= PROVEN {
            return Eval::won_for(side_to_move);
        }
        if score <= -PROVEN {
            return Eval::won_for(!side_to_move);
        }
        let bound = EVAL_BOUND.hundredths();
        Eval { men: Men(score.clamp(-bound, bound)).for_side(side_to_move), winner: None }
    }
}

/// Inaccuracy, mistake or blunder ("imprécision", "erreur", "gaffe"): how
/// much a move lost against the engine's best, in men.
///
/// The thresholds, a move's loss at least: [`INACCURACY`] 0.30 men,
/// [`MISTAKE`] 0.80, [`BLUNDER`] 1.60. The evaluation's man is 1.00 (the
/// learned one weighs a man 1.09 to 1.21 by the phase, and its patterns a
/// little more), and its figure moves by a tenth or two between searches
/// of neighbouring positions with nothing at stake. So an inaccuracy is a
/// slip the search sees clearly; a mistake is about a man (a man left to
/// be taken loses 1.1 to 1.25 here, as does a move that allows a shot
/// giving one man to take two back); a blunder is more than a man and a
/// half: two men dropped (3.5 to 3.9), a won game thrown away. Over 2,254
/// masters' moves with a choice (27 games, README, "Analysis of a game")
/// they call 2.0 % inaccuracies, 1.2 % mistakes and 0.09 % blunders.
/// A forced move (the only legal one) gets no verdict, nor does the
/// engine's own choice.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub enum Verdict {
    Inaccuracy,
    Mistake,
    Blunder,
}

/// The least loss that is an inaccuracy.
pub const INACCURACY: Men = Men(30);
/// The least loss that is a mistake.
pub const MISTAKE: Men = Men(80);
/// The least loss that is a blunder.
pub const BLUNDER: Men = Men(160);

impl Verdict {
    pub const ALL: [Verdict; 3] = [Verdict::Inaccuracy, Verdict::Mistake, Verdict::Blunder];

    /// The verdict on a move that lost `loss` against the best, if any.
    pub const fn of(loss: Men) -> Option<Verdict> {
        if loss.0 >= BLUNDER.0 {
            Some(Verdict::Blunder)
        } else if loss.0 >= MISTAKE.0 {
            Some(Verdict::Mistake)
        } else if loss.0 >= INACCURACY.0 {
            Some(Verdict::Inaccuracy)
        } else {
            None
        }
    }

    /// The least loss that earns this verdict.
    pub const fn threshold(self) -> Men {
        match self {
            Verdict::Inaccuracy => INACCURACY,
            Verdict::Mistake => MISTAKE,
            Verdict::Blunder => BLUNDER,
        }
    }

    /// The name the command line prints.
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Inaccuracy => "inaccuracy",
            Verdict::Mistake => "mistake",
            Verdict::Blunder => "blunder",
        }
    }

    /// The name shown to players.
    pub const fn label(self) -> &'static str {
        match self {
            Verdict::Inaccuracy => "imprécision",
            Verdict::Mistake => "erreur",
            Verdict::Blunder => "gaffe",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Nodes searched in each position: the same figure on every machine, so
/// the same analysis everywhere, whatever the load.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(try_from = "u64", into = "u64")]
pub struct NodeBudget(u64);

impl NodeBudget {
    /// 500,000 nodes a position: a 100-ply international game in about
    /// 7 s on one core of the 2-core machine the README measures on, a
    /// third of the 20 s an analysis may take, so that a long game (180
    /// plies: 17 s), a position rich in kings (slower nodes) or a loaded
    /// server stays within it (README, "Analysis of a game").
    pub const DEFAULT: NodeBudget = NodeBudget(500_000);
    /// Below this a search does not see a two-move shot.
    pub const MIN: u64 = 1_000;
    /// Above this one position would take minutes.
    pub const MAX: u64 = 1_000_000_000;

    /// A budget of `nodes`, within [`NodeBudget::MIN`] and
    /// [`NodeBudget::MAX`].
    pub const fn new(nodes: u64) -> Result<NodeBudget, AnalysisError> {
        if nodes < NodeBudget::MIN || nodes > NodeBudget::MAX {
            return Err(AnalysisError::Budget(nodes));
        }
        Ok(NodeBudget(nodes))
    }

    pub const fn get(self) -> u64 {
        self.0
    }
}

impl Default for NodeBudget {
    fn default() -> NodeBudget {
        NodeBudget::DEFAULT
    }
}

impl TryFrom<u64> for NodeBudget {
    type Error = AnalysisError;
    fn try_from(nodes: u64) -> Result<NodeBudget, AnalysisError> {
        NodeBudget::new(nodes)
    }
}

impl From<NodeBudget> for u64 {
    fn from(budget: NodeBudget) -> u64 {
        budget.0
    }
}

/// Why an analysis could not be made.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum AnalysisError {
    /// A node budget outside [`NodeBudget::MIN`]..=[`NodeBudget::MAX`].
    Budget(u64),
    /// No position of that index: a game of `plies` plies has `plies + 1`.
    NoSuchPosition { index: usize, positions: usize },
    /// [`AnalysisJob::finish`] was given this many searches for a game of
    /// `positions` positions.
    SearchCount { given: usize, positions: usize },
    /// The search given for the position at `index` is not one of this
    /// game's (another game's, or another version's).
    NotThisGame { index: usize },
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalysisError::Budget(nodes) => write!(
                f,
                "a budget of {nodes} nodes: the analysis searches {} to {} nodes a position",
                NodeBudget::MIN,
                NodeBudget::MAX
            ),
            AnalysisError::NoSuchPosition { index, positions } => {
                write!(f, "no position {index}: the game has {positions}")
            }
            AnalysisError::SearchCount { given, positions } => {
                write!(f, "{given} searches for a game of {positions} positions")
            }
            AnalysisError::NotThisGame { index } => write!(f, "the search of position {index} is not this game's"),
        }
    }
}

impl std::error::Error for AnalysisError {}

/// How far the analysis has gone: `done` of `total` positions searched.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Progress {
    pub done: usize,
    pub total: usize,
}

/// The engine's look at one position of the game: the unit of work, which
/// a server may run on its own and store.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum PositionSearch {
    /// The game is over here: no move left, or drawn by the rules.
    Over { eval: Eval },
    /// One legal move: nothing to choose, so no search; the position after
    /// it judges this one.
    Forced { only: MoveChoice },
    Searched {
        eval: Eval,
        /// The move the engine plays.
        best: MoveChoice,
        /// Every move the search scored as high as `best`, long form: the
        /// move played is the engine's choice when it is one of them.
        equal_best: Vec<String>,
        /// The principal variation, from `best`, as move texts.
        line: Vec<String>,
        /// The deepest iteration completed.
        depth: u32,
        nodes: u64,
    },
}

/// One ply of the game, judged.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct PlyAnalysis {
    /// The move's number as PDN writes it (both sides' moves share one).
    pub number: u32,
    pub mover: Color,
    /// The position before the move, in FEN.
    pub fen: String,
    pub played: MoveChoice,
    /// The position before the move.
    pub eval: Eval,
    /// The engine's move here (the played one when it was forced).
    pub best: MoveChoice,
    /// The engine's line from here, from `best`, as move texts.
    pub line: Vec<String>,
    /// What the move played lost against `best`, from the mover's side:
    /// the best move's score less the score of the position after the move
    /// played, never below zero; zero when it is the engine's choice.
    pub loss: Men,
    /// None for a good move, a forced one or the engine's own.
    pub verdict: Option<Verdict>,
    /// The only legal move.
    pub forced: bool,
    /// The search of this position: its deepest iteration and its nodes
    /// (0 for a forced move).
    pub depth: u32,
    pub nodes: u64,
}

/// One side's moves in sum.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct SideSummary {
    /// Moves played.
    pub moves: u32,
    /// Moves played where there was a choice: the ones judged.
    pub judged: u32,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
    /// The average loss over the moves judged (forced moves say nothing of
    /// the player, so they are left out), to the hundredth.
    pub average_loss: Men,
}

impl SideSummary {
    /// How many moves got `verdict`.
    pub const fn count(&self, verdict: Verdict) -> u32 {
        match verdict {
            Verdict::Inaccuracy => self.inaccuracies,
            Verdict::Mistake => self.mistakes,
            Verdict::Blunder => self.blunders,
        }
    }

    fn of(plies: &[PlyAnalysis], side: Color) -> SideSummary {
        let mine = || plies.iter().filter(move |p| p.mover == side);
        let judged: Vec<&PlyAnalysis> = mine().filter(|p| !p.forced).collect();
        let count = |v: Verdict| judged.iter().filter(|p| p.verdict == Some(v)).count() as u32;
        let total: i64 = judged.iter().map(|p| i64::from(p.loss.hundredths())).sum();
        // Rounded to the nearest hundredth (losses are never negative).
        let n = judged.len() as i64;
        let average = if n == 0 { 0 } else { (total + n / 2) / n };
        SideSummary {
            moves: mine().count() as u32,
            judged: judged.len() as u32,
            inaccuracies: count(Verdict::Inaccuracy),
            mistakes: count(Verdict::Mistake),
            blunders: count(Verdict::Blunder),
            average_loss: Men(average as i32),
        }
    }
}

/// A whole game analysed.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Analysis {
    pub rules: Rules,
    /// The start position, in FEN.
    pub start: String,
    /// Nodes searched in each position.
    pub budget: NodeBudget,
    /// Nodes searched in all, the end position's included.
    pub nodes: u64,
    /// [`ANALYSIS_VERSION`] and [`BOT_VERSION`] when it was made.
    pub analysis_version: u32,
    pub bot_version: u32,
    pub plies: Vec<PlyAnalysis>,
    /// The position after the last move.
    pub end: Eval,
    pub white: SideSummary,
    pub black: SideSummary,
}

impl Analysis {
    pub const fn summary(&self, side: Color) -> &SideSummary {
        match side {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The evaluation of every position, the start first and the end last:
    /// the points of the graph.
    pub fn evals(&self) -> Vec<Eval> {
        self.plies.iter().map(|p| p.eval).chain(std::iter::once(self.end)).collect()
    }
}

/// The analysis of one game at one budget, to be run position by position.
#[derive(Clone, Debug)]
pub struct AnalysisJob {
    game: AnyGame,
    budget: NodeBudget,
}

impl AnalysisJob {
    pub fn new(game: AnyGame, budget: NodeBudget) -> AnalysisJob {
        AnalysisJob { game, budget }
    }

    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    pub fn budget(&self) -> NodeBudget {
        self.budget
    }

    /// The positions to search: one before each ply and the one after the
    /// last.
    pub fn positions(&self) -> usize {
        self.game.ply_count() + 1
    }

    /// Looks at the position before ply `index` (the last one: after the
    /// last ply). Depends on the game up to there and the budget alone.
    pub fn search(&self, index: usize) -> Result<PositionSearch, AnalysisError> {
        let positions = self.positions();
        if index >= positions {
            return Err(AnalysisError::NoSuchPosition { index, positions });
        }
        Ok(match &self.game {
            AnyGame::Eight(g) => search_position(g, index, self.budget),
            AnyGame::Ten(g) => search_position(g, index, self.budget),
            #[cfg(feature = "twelve")]
            AnyGame::Twelve(g) => search_position(g, index, self.budget),
        })
    }

    /// The analysis from the searches of every position, in order.
    pub fn finish(&self, searches: &[PositionSearch]) -> Result<Analysis, AnalysisError> {
        let positions = self.positions();
        if searches.len() != positions {
            return Err(AnalysisError::SearchCount { given: searches.len(), positions });
        }
        let played = self.game.played();
        let fens: Vec<String> = self.game.positions().iter().map(|p| p.to_fen()).collect();
        let start = self.game.start();
        // Move numbers count from the side the rules have start, as PDN
        // writes them (Black's first move is move 1 in English draughts).
        let offset = usize::from(start.turn() != start.rules().first);

        // Backwards, so that a forced move takes the judgement of the
        // position after it, and chains of forced moves theirs.
        let mut evals = vec![Eval::EVEN; positions];
        let mut lines: Vec<Vec<String>> = vec![Vec::new(); positions];
        for index in (0..positions).rev() {
            let is_last = index + 1 == positions;
            (evals[index], lines[index]) = match &searches[index] {
                PositionSearch::Over { eval } if is_last => (*eval, Vec::new()),
                PositionSearch::Searched { eval, line, .. } => (*eval, line.clone()),
                PositionSearch::Forced { only } if !is_last && only.long == played[index].1.long => {
                    let line = std::iter::once(only.text.clone()).chain(lines[index + 1].iter().cloned()).collect();
                    (evals[index + 1], line)
                }
                _ => return Err(AnalysisError::NotThisGame { index }),
            };
        }

        let mut plies = Vec::with_capacity(played.len());
        for (index, ((mover, played), fen)) in played.into_iter().zip(fens).enumerate() {
            let after = evals[index + 1].men.for_side(mover);
            let (best, loss, forced, depth, nodes) = match &searches[index] {
                PositionSearch::Forced { only } => (only.clone(), Men::ZERO, true, 0, 0),
                PositionSearch::Searched { best, equal_best, depth, nodes, eval, .. } => {
                    let loss = if equal_best.contains(&played.long) {
                        Men::ZERO
                    } else {
                        Men((eval.men.for_side(mover).hundredths() - after.hundredths()).max(0))
                    };
                    (best.clone(), loss, false, *depth, *nodes)
                }
                PositionSearch::Over { .. } => return Err(AnalysisError::NotThisGame { index }),
            };
            plies.push(PlyAnalysis {
                number: ((index + offset) / 2 + 1) as u32,
                mover,
                fen,
                played,
                eval: evals[index],
                best,
                line: std::mem::take(&mut lines[index]),
                loss,
                verdict: if forced { None } else { Verdict::of(loss) },
                forced,
                depth,
                nodes,
            });
        }
        let nodes =
            searches.iter().map(|s| if let PositionSearch::Searched { nodes, .. } = s { *nodes } else { 0 }).sum();
        Ok(Analysis {
            rules: self.game.rules(),
            start: start.to_fen(),
            budget: self.budget,
            nodes,
            analysis_version: ANALYSIS_VERSION,
            bot_version: BOT_VERSION,
            white: SideSummary::of(&plies, Color::White),
            black: SideSummary::of(&plies, Color::Black),
            plies,
            end: evals[positions - 1],
        })
    }
}

/// Analyses `game` at `budget`, one position after the other, calling
/// `progress` after each.
pub fn analyse(
    game: &AnyGame,
    budget: NodeBudget,
    mut progress: impl FnMut(Progress),
) -> Result<Analysis, AnalysisError> {
    let job = AnalysisJob::new(game.clone(), budget);
    let total = job.positions();
    let mut searches = Vec::with_capacity(total);
    for index in 0..total {
        searches.push(job.search(index)?);
        progress(Progress { done: index + 1, total });
    }
    job.finish(&searches)
}

/// The search the analysis runs: `fort`'s (its evaluation, the learned one
/// where it applies and the classic one in other rule sets, as `dames
/// bestmove --level fort` judges; its pruning and endgame tables) at
/// `budget` nodes, with a table of 2^18 entries rather than `fort`'s 2^20:
/// a fresh table is filled for every position, and at a few hundred
/// thousand nodes the larger one cost more to clear than it gave.
pub fn limits(budget: NodeBudget) -> Limits {
    Limits { depth: 64, nodes: budget.get(), table_bits: 18, ..Level::Fort.limits() }
}

fn search_position<G: Geometry>(game: &Game<G>, index: usize, budget: NodeBudget) -> PositionSearch {
    let is_last = index == game.moves().len();
    if is_last {
        // How the game ended, when the rules ended it here. A resignation
        // or an agreed draw leaves a position to judge like any other.
        match game.outcome() {
            Some(Outcome::Win { winner, reason: WinReason::NoPieces | WinReason::Blocked }) => {
                return PositionSearch::Over { eval: Eval::won_for(winner) };
            }
            Some(Outcome::Draw(reason)) if reason != DrawReason::Agreement => {
                return PositionSearch::Over { eval: Eval::EVEN };
            }
            _ => {}
        }
    }
    let before = prefix(game, index);
    let pos = *before.position();
    let legal = pos.legal_moves();
    if legal.len() == 1 && !is_last {
        return PositionSearch::Forced { only: MoveChoice::new(&pos, &legal[0]) };
    }
    let limits = limits(budget);
    let searched = Searcher::new(&limits).with_game_history(&before).search(&pos, DrawCounters::of(&before), &limits);
    let Some(result) = searched else {
        // No legal move: the side to move has lost (the game's own outcome
        // says so too, unless it ended by resignation first).
        return PositionSearch::Over { eval: Eval::won_for(!pos.turn()) };
    };
    PositionSearch::Searched {
        eval: Eval::of_score(result.score, pos.turn()),
        best: MoveChoice::new(&pos, &result.best_moves[0]),
        equal_best: result.best_moves.iter().map(|m| m.long_form().to_string()).collect(),
        line: line_texts(&pos, &result.pv),
        depth: result.depth,
        nodes: result.nodes,
    }
}

/// The game's first `plies` plies, with the counters and the history the
/// search reads (the no-progress count, the move limit, the positions a
/// repetition would draw).
fn prefix<G: Geometry>(game: &Game<G>, plies: usize) -> Game<G> {
    let mut prefix = Game::new(*game.start());
    for mv in &game.moves()[..plies] {
        // The game reached `plies` by these moves, under the same rules,
        // and a prefix ends no earlier than the game did: each plays.
        let played = prefix.play(mv);
        debug_assert!(played.is_ok(), "a game's prefix replays");
    }
    prefix
}

fn line_texts<G: Geometry>(start: &Position<G>, line: &[super::Move<G>]) -> Vec<String> {
    let mut pos = *start;
    line.iter()
        .map(|mv| {
            let text = move_to_text(&pos, mv);
            pos = pos.play_unchecked(mv);
            text
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::any::AnyPosition;

    /// Small enough for a debug build, large enough to see a two-move shot.
    const BUDGET: NodeBudget = NodeBudget(20_000);

    /// A game from `fen` under `rules` with `moves` (long form or notation)
    /// played.
    fn game(fen: &str, rules: Rules, moves: &[&str]) -> AnyGame {
        let mut game = AnyGame::new(AnyPosition::from_fen(fen, rules).unwrap());
        for text in moves {
            let long = game.position().resolve_text(text).unwrap();
            game.play_long(&long).unwrap();
        }
        game
    }

    fn analysed(game: &AnyGame) -> Analysis {
        analyse(game, BUDGET, |_| {}).unwrap()
    }

    /// White to move, six men each. 28-23 lets Black's man on 18 take 23
    /// and 34 in one capture (18x40), and nothing takes back; other moves
    /// keep the material level.
    const DROPS_TWO: &str = "W:W28,34,46,47,48,49:B1,2,3,4,5,18";

    #[test]
    fn amounts_are_written_in_men() {
        let cases = [(125, "1.25", "+1.25"), (-30, "-0.30", "-0.30"), (0, "0.00", "+0.00"), (-5, "-0.05", "-0.05")];
        for (hundredths, plain, signed) in cases {
            let men = Men::from_hundredths(hundredths);
            assert_eq!((men.to_string(), format!("{men:+}")), (plain.to_string(), signed.to_string()));
            let json = serde_json::to_string(&men).unwrap();
            assert_eq!(serde_json::from_str::<Men>(&json).unwrap(), men, "{json}");
        }
        assert_eq!(serde_json::to_string(&Men::from_hundredths(125)).unwrap(), "1.25");
        assert_eq!(serde_json::from_str::<Men>("-0.3").unwrap(), Men::from_hundredths(-30));
        assert!(serde_json::from_str::<Men>("1e300").is_err());
    }

    #[test]
    fn verdicts_follow_the_thresholds() {
        let cases = [
            (0, None),
            (29, None),
            (30, Some(Verdict::Inaccuracy)),
            (79, Some(Verdict::Inaccuracy)),
            (80, Some(Verdict::Mistake)),
            (159, Some(Verdict::Mistake)),
            (160, Some(Verdict::Blunder)),
            (500, Some(Verdict::Blunder)),
        ];
        for (loss, verdict) in cases {
            assert_eq!(Verdict::of(Men::from_hundredths(loss)), verdict, "a loss of {loss}");
        }
        for v in Verdict::ALL {
            assert_eq!(Verdict::of(v.threshold()), Some(v));
        }
        assert_eq!(Verdict::ALL.map(Verdict::label), ["imprécision", "erreur", "gaffe"]);
    }

    #[test]
    fn a_move_that_drops_two_men_is_a_blunder_and_the_capture_is_forced() {
        let analysis = analysed(&game(DROPS_TWO, Rules::INTERNATIONAL, &["28-23", "18x40"]));
        let [blunder, capture] = &analysis.plies[..] else { panic!("two plies: {analysis:?}") };
        assert_eq!((blunder.played.text.as_str(), blunder.verdict), ("28-23", Some(Verdict::Blunder)), "{blunder:?}");
        assert!(blunder.loss >= Men::from_hundredths(180), "about two men: {}", blunder.loss);
        assert_ne!(blunder.best.text, "28-23");
        assert_eq!(blunder.line.first(), Some(&blunder.best.text));
        assert!((capture.forced, capture.verdict, capture.loss) == (true, None, Men::ZERO), "{capture:?}");
        assert_eq!(capture.nodes, 0, "a forced move is not searched");
        assert!(analysis.nodes > blunder.nodes, "the end position is searched too");
        assert_eq!(capture.eval, analysis.end, "a forced move is judged by the position after it");
        assert_eq!(capture.line.first().map(String::as_str), Some("18x40"));
        assert!(analysis.end.men <= Men::from_hundredths(-150), "Black two men up: {:?}", analysis.end);
        let white = analysis.white;
        assert_eq!((white.moves, white.judged, white.blunders, white.average_loss), (1, 1, 1, blunder.loss));
        let black = analysis.black;
        assert_eq!((black.moves, black.judged, black.average_loss), (1, 0, Men::ZERO));
    }

    #[test]
    fn a_move_that_drops_one_man_is_a_mistake() {
        // Five men each: 28-23 lets 18 take it (18x29), and nothing takes back.
        let analysis = analysed(&game("W:W28,46,47,48,49:B1,2,3,4,18", Rules::INTERNATIONAL, &["28-23", "18x29"]));
        let ply = &analysis.plies[0];
        assert_eq!(ply.verdict, Some(Verdict::Mistake), "{ply:?}");
        assert!(ply.loss >= Men::from_hundredths(100), "about a man: {}", ply.loss);
    }

    #[test]
    fn a_move_that_allows_a_shot_is_at_least_a_mistake() {
        // 37-31 leaves 37 empty: Black gives the man on 22 (22-28, 33x22:
        // 11 keeps the capture from going on over 17) to take two or three
        // back (17x37 over 22 and 32, on over 31 to 26), and 42 keeps White
        // from taking back. Any other move keeps 37 held.
        let analysis = analysed(&game("W:W23,32,33,37,42,48,49:B2,3,4,11,17,22", Rules::INTERNATIONAL, &["37-31"]));
        let allowing = &analysis.plies[0];
        assert!(allowing.verdict >= Some(Verdict::Mistake), "{allowing:?}");
        assert_ne!(allowing.best.text, "37-31");
        assert!(analysis.end.men.for_side(Color::Black) >= Men::from_hundredths(80), "{:?}", analysis.end);
    }

    #[test]
    fn the_engines_own_move_gets_no_verdict() {
        let best = analysed(&game(DROPS_TWO, Rules::INTERNATIONAL, &["28-23"])).plies[0].best.text.clone();
        let analysis = analysed(&game(DROPS_TWO, Rules::INTERNATIONAL, &[&best]));
        let ply = &analysis.plies[0];
        assert_eq!((ply.loss, ply.verdict, ply.forced), (Men::ZERO, None, false), "{ply:?}");
        assert_eq!(ply.best.text, best, "the same search in the same position");
        assert!(ply.eval.men.hundredths().abs() < 100, "level material: {:?}", ply.eval);
    }

    #[test]
    fn a_won_game_saturates_at_the_bound() {
        // White's only move takes Black's last man.
        let analysis = analysed(&game("W:W28:B23", Rules::INTERNATIONAL, &["28x19"]));
        assert_eq!(analysis.end, Eval { men: EVAL_BOUND, winner: Some(Color::White) });
        assert_eq!(analysis.plies[0].eval, analysis.end);
        assert!(analysis.plies[0].forced);
        // Black to move, lost: any move of its last man is taken.
        let lost = analysed(&game("B:W33,38,39,43,44:B19", Rules::INTERNATIONAL, &[]));
        assert_eq!(lost.end.winner, Some(Color::White), "{:?}", lost.end);
        assert_eq!(lost.end.men, EVAL_BOUND);
        assert!(lost.plies.is_empty());
    }

    #[test]
    fn the_positions_can_be_searched_in_any_order() {
        let game = game(DROPS_TWO, Rules::INTERNATIONAL, &["46-41", "5-10", "28-23", "18x40"]);
        let mut seen = Vec::new();
        let whole = analyse(&game, BUDGET, |p| seen.push(p)).unwrap();
        assert_eq!(seen, (1..=5).map(|done| Progress { done, total: 5 }).collect::<Vec<_>>());
        let job = AnalysisJob::new(game, BUDGET);
        let mut searches: Vec<PositionSearch> = (0..job.positions()).rev().map(|i| job.search(i).unwrap()).collect();
        searches.reverse();
        assert_eq!(job.finish(&searches), Ok(whole.clone()));
        // Across the wire and back.
        let json = serde_json::to_string(&whole).unwrap();
        assert_eq!(serde_json::from_str::<Analysis>(&json).unwrap(), whole);
        let stored: Vec<PositionSearch> = serde_json::from_str(&serde_json::to_string(&searches).unwrap()).unwrap();
        assert_eq!(stored, searches);
    }

    #[test]
    fn searches_that_are_not_this_games_are_refused() {
        let job = AnalysisJob::new(game(DROPS_TWO, Rules::INTERNATIONAL, &["28-23", "18x40"]), BUDGET);
        assert_eq!(job.search(3), Err(AnalysisError::NoSuchPosition { index: 3, positions: 3 }));
        let searches: Vec<PositionSearch> = (0..3).map(|i| job.search(i).unwrap()).collect();
        assert_eq!(job.finish(&searches[..2]), Err(AnalysisError::SearchCount { given: 2, positions: 3 }));
        let other = AnalysisJob::new(game("W:W28:B23", Rules::INTERNATIONAL, &["28x19"]), BUDGET);
        let swapped = [searches[0].clone(), other.search(0).unwrap(), searches[2].clone()];
        assert_eq!(job.finish(&swapped), Err(AnalysisError::NotThisGame { index: 1 }));
        let over = [searches[0].clone(), searches[1].clone(), other.search(1).unwrap()];
        assert!(job.finish(&over).is_ok(), "the last position may be over");
        let early = [other.search(1).unwrap(), searches[1].clone(), searches[2].clone()];
        assert_eq!(job.finish(&early), Err(AnalysisError::NotThisGame { index: 0 }));
    }

    #[test]
    fn budgets_are_checked() {
        assert_eq!(NodeBudget::new(0), Err(AnalysisError::Budget(0)));
        assert_eq!(NodeBudget::new(NodeBudget::MAX + 1), Err(AnalysisError::Budget(NodeBudget::MAX + 1)));
        assert_eq!(NodeBudget::new(5_000).map(NodeBudget::get), Ok(5_000));
        assert!(serde_json::from_str::<NodeBudget>("10").is_err());
        assert_eq!(serde_json::from_str::<NodeBudget>("500000").ok(), Some(NodeBudget::DEFAULT));
        assert_eq!(limits(NodeBudget::DEFAULT).nodes, 500_000);
    }

    #[test]
    fn every_board_is_analysed() {
        let twelve = Rules::parse("international,size=12").unwrap();
        for rules in [Rules::ENGLISH, Rules::RUSSIAN, Rules::BRAZILIAN, twelve] {
            let mut game = AnyGame::new(AnyPosition::initial(rules).unwrap());
            for _ in 0..6 {
                let first = game.choices()[0].long.clone();
                game.play_long(&first).unwrap();
            }
            let analysis = analyse(&game, NodeBudget::new(2_000).unwrap(), |_| {}).unwrap();
            assert_eq!((analysis.rules, analysis.plies.len()), (rules, 6), "{rules}");
            assert_eq!(analysis.plies[0].mover, rules.first, "{rules}");
            let numbers: Vec<u32> = analysis.plies.iter().map(|p| p.number).collect();
            assert_eq!(numbers, [1, 1, 2, 2, 3, 3], "{rules}");
            assert_eq!(analysis.white.moves + analysis.black.moves, 6);
            assert!(analysis
                .plies
                .iter()
                .all(|p| p.loss >= Men::ZERO && p.eval.men.hundredths().abs() <= EVAL_BOUND.0));
        }
    }
}
