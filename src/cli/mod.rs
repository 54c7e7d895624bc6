//! The `dames` command line, parsed by clap: the [`Cli`] parser, the
//! [`Command`] enum, [`run`], which dispatches and returns the exit status,
//! and the option types the subcommands share (the rules, the evaluation
//! and the search's switches). Exit statuses: 0 success, 1 a failed check
//! (a game that does not replay), 2 bad input — clap's own status for a bad
//! command line, and a one-line `dames: …` message for what only running
//! finds (a bad FEN, a file that cannot be read).

pub mod analysis;
pub mod bench;
pub mod engine;
pub mod matches;
#[cfg(feature = "ssr")]
pub mod ops;
pub mod play;
#[cfg(test)]
mod tests;
pub mod tune;

use crate::engine::any::AnyPosition;
use crate::engine::eval::{patterns::Weights, Evaluation};
use crate::engine::search::Limits;
use crate::engine::Rules;
use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Dames: draughts against the computer, in every rule set. With no subcommand
/// (or `serve`) it serves the site; the subcommands are the engine's
/// command line and the operator's tools.
#[derive(Parser, Debug)]
#[command(
    name = "dames",
    // An option given twice counts once, the last one given.
    args_override_self = true,
    after_help = "Exit status: 0 success, 1 a failed check (a game that does not replay, a load test with \
                  server errors), 2 bad input."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Serves the site (what `dames` alone does): LEPTOS_SITE_ADDR (127.0.0.1:3000), DAMES_DB (dames.sqlite3 or a
    /// postgres:// address), DAMES_TRUSTED_PROXIES, DAMES_LIMIT_*
    Serve,
    /// Counts the positions a position leads to: one line per depth, depth D nodes N time_ms T mnps R
    Perft(engine::PerftArgs),
    /// Every legal move of a position, sorted and written long: 32-28, 28x19{23}
    Moves(engine::MovesArgs),
    /// Replays PDN games: ok <plies> | error <file:game> <ply>: <reason> for each, then a total (status 1 when one
    /// fails)
    Replay(engine::ReplayArgs),
    /// The bot's move in a position: the move, score, depth, nodes and principal variation
    Bestmove(engine::BestmoveArgs),
    /// A game of a PDN file analysed by the engine at a fixed node budget: each ply's evaluation, the engine's best
    /// move, the loss of the move played and its verdict (inaccuracy, mistake, blunder), then a summary per side
    Analyse(analysis::AnalyseArgs),
    /// The Hub protocol on stdin and stdout (international draughts)
    Hub,
    /// A match between two levels from varied openings, each with both colours: each game, then the score with its
    /// 95 % interval and Elo
    Selfplay(play::SelfplayArgs),
    /// A match against another engine (Scan 2.0 through the first Hub protocol, any engine through the second) or
    /// dames itself, from openings with both colours under FMJD's draw rules: each game, then the score with its 95 %
    /// interval and Elo, each side's time a move, restarts and illegal moves
    Match(Box<matches::MatchArgs>),
    /// The built-in balanced openings dames match plays, in its order for a seed, one a line as --openings reads
    /// them (less those of a file: a test set kept apart)
    Openings(matches::OpeningsArgs),
    /// The learned evaluation's data and weights: self-play positions (generate), positions of games played
    /// elsewhere (import) and the fit of the weights (fit)
    Tune(tune::TuneArgs),
    /// The exact endgame tables (three pieces or fewer): a position's verdict (win in N plies, loss, draw), or what
    /// each material's table holds
    Endgame(engine::EndgameArgs),
    /// Reply times of each level over positions from real games, and the search speed of fort from the start
    Bench(bench::BenchArgs),
    /// How often the bot plays the move played in real games, in positions where there was a choice
    Agreement(bench::AgreementArgs),
    /// The server's figures: the leaderboard page of a day with 100,000 scores, the replay-verification of a long
    /// game
    #[cfg(feature = "ssr")]
    BenchServer,
    /// A local cluster: a throw-away PostgreSQL in target/cluster, app servers on it and a round-robin proxy in
    /// front; Ctrl-C stops everything
    #[cfg(feature = "ssr")]
    Cluster(ops::ClusterArgs),
    /// Virtual players playing whole games against a site: requests per second, latency percentiles, errors by
    /// status (status 1 when there were server errors)
    #[cfg(feature = "ssr")]
    Loadtest(ops::LoadtestArgs),
}

/// Bad input found while running: the message for the user's one line of
/// error.
#[derive(Debug)]
pub struct UsageError(pub String);

impl<T: std::fmt::Display> From<T> for UsageError {
    fn from(e: T) -> UsageError {
        UsageError(e.to_string())
    }
}

/// Runs the command `cli` names, writing to `out` and `err`. Returns the
/// process exit status, or `None` when the command is to serve the site
/// (no subcommand, or `serve`), which the caller does.
pub fn run(cli: Cli, out: &mut dyn Write, err: &mut dyn Write) -> Option<i32> {
    let result = match cli.command? {
        Command::Serve => return None,
        Command::Perft(args) => args.run(out),
        Command::Moves(args) => args.run(out),
        Command::Replay(args) => return Some(args.run(out, err)),
        Command::Bestmove(args) => args.run(out),
        Command::Analyse(args) => args.run(out),
        Command::Hub => play::hub(),
        Command::Selfplay(args) => args.run(out),
        Command::Match(args) => args.run(out),
        Command::Openings(args) => args.run(out),
        Command::Tune(args) => args.run(out),
        Command::Endgame(args) => args.run(out),
        Command::Bench(args) => args.run(out),
        Command::Agreement(args) => args.run(out),
        #[cfg(feature = "ssr")]
        Command::BenchServer => bench::bench_server(out),
        #[cfg(feature = "ssr")]
        Command::Cluster(args) => args.run(),
        #[cfg(feature = "ssr")]
        Command::Loadtest(args) => args.run(),
    };
    Some(match result {
        Ok(code) => code,
        Err(UsageError(message)) => {
            let _ = writeln!(err, "dames: {message}");
            2
        }
    })
}

/// Runs `future` to its end on the binary's tokio runtime, from the
/// synchronous command line (which that runtime's `main` runs).
#[cfg(feature = "ssr")]
fn on_runtime<F: std::future::Future>(future: F) -> Result<F::Output, UsageError> {
    let handle = tokio::runtime::Handle::try_current().map_err(|e| UsageError(e.to_string()))?;
    Ok(tokio::task::block_in_place(|| handle.block_on(future)))
}

/// `--rules SPEC`, for the commands that play under any rule set.
#[derive(Args, Debug, Clone)]
pub struct RulesOption {
    /// A rule set: international, english, russian or brazilian, then optional overrides: size=8|10|12, rows=N,
    /// first=white|black, men_back=0|1, flying=0|1, mandatory=0|1, majority=0|1,
    /// promotion=stays_man|becomes_king_continues|ends_move, draw_moves=N, repetition=0|1 (e.g. english,mandatory=0)
    #[arg(long, value_name = "SPEC", value_parser = Rules::parse, default_value = "international")]
    pub rules: Rules,
}

/// The evaluation and the search's switches: each, when given, replaces
/// what the level (or the command) would use.
#[derive(Args, Debug, Clone, Default)]
pub struct SearchOptions {
    /// The evaluation, classic (material, kings, placement: every level's but fort's and step 8's) or learned
    /// (weights fitted by dames tune, fort's: international only, with unfinished iterations kept; other rule sets
    /// fall back to classic)
    #[arg(long, value_name = "E")]
    pub eval: Option<Evaluation>,
    /// The learned evaluation with the weights of FILE (written by dames tune fit) instead of the shipped ones
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// ProbCut in the search on (1) or off (0, every level's)
    #[arg(long, value_name = "0|1", value_parser = switch)]
    pub probcut: Option<bool>,
    /// Frontier pruning (reverse futility, razoring) on (1: fort's and step 8's) or off (0: the other levels)
    #[arg(long, value_name = "0|1", value_parser = switch)]
    pub pruning: Option<bool>,
    /// The exact endgame tables (three pieces or fewer) used (1: fort's and steps 6 to 8) or not (0: the other
    /// levels)
    #[arg(long, value_name = "0|1", value_parser = switch)]
    pub tables: Option<bool>,
    /// The transposition table keeps the deepest and the latest entry of each slot (1) or the latest only (0: every
    /// level's)
    #[arg(long = "two-slot", value_name = "0|1", value_parser = switch)]
    pub two_slot: Option<bool>,
    /// The strong programs' late-move reductions (1: two plies for late quiet moves off the principal variation) or
    /// the mild ones (0: one ply from the fifth move, every level's)
    #[arg(long, value_name = "0|1", value_parser = switch)]
    pub reductions: Option<bool>,
    /// The quiescence search also tries, where no capture is due and no king is on the board, the moves that offer
    /// an exchange (the opponent must capture, and is captured back) and the moves that crown (1), or captures and
    /// defences only (0: every level's)
    #[arg(long, value_name = "0|1", value_parser = switch)]
    pub exchanges: Option<bool>,
}

impl SearchOptions {
    /// Each option of `self`, or where not given, of `fallback` (a side of
    /// a match: its own option before the match's).
    pub fn or(self, fallback: &SearchOptions) -> SearchOptions {
        SearchOptions {
            eval: self.eval.or(fallback.eval),
            weights: self.weights.or_else(|| fallback.weights.clone()),
            probcut: self.probcut.or(fallback.probcut),
            pruning: self.pruning.or(fallback.pruning),
            tables: self.tables.or(fallback.tables),
            two_slot: self.two_slot.or(fallback.two_slot),
            reductions: self.reductions.or(fallback.reductions),
            exchanges: self.exchanges.or(fallback.exchanges),
        }
    }

    /// `limits` with the evaluation and the switches asked for, where they
    /// were (reading the weights file, if any).
    pub fn apply(&self, limits: Limits) -> Result<Limits, UsageError> {
        let limits = match evaluation(self.eval, self.weights.as_deref())? {
            Some(eval) => limits.judged_by(eval),
            None => limits,
        };
        Ok(Limits {
            probcut: self.probcut.unwrap_or(limits.probcut),
            frontier_pruning: self.pruning.unwrap_or(limits.frontier_pruning),
            endgame_tables: self.tables.unwrap_or(limits.endgame_tables),
            two_slot_table: self.two_slot.unwrap_or(limits.two_slot_table),
            late_reductions: self.reductions.unwrap_or(limits.late_reductions),
            quiescence_exchanges: self.exchanges.unwrap_or(limits.quiescence_exchanges),
            ..limits
        })
    }
}

/// The evaluation `--eval` and `--weights` ask for, if any: the weights of
/// a file go with the learned evaluation only.
pub fn evaluation(eval: Option<Evaluation>, weights: Option<&Path>) -> Result<Option<Evaluation>, UsageError> {
    match (eval, weights) {
        (None | Some(Evaluation::Learned), Some(path)) => Ok(Some(Evaluation::Fitted(weights_file(path)?))),
        (Some(_), Some(_)) => Err(UsageError("--weights goes with the learned evaluation only".into())),
        (eval, None) => Ok(eval),
    }
}

/// Learned weights from a file (`dames tune fit` writes them), kept for the
/// rest of the run: the searches of a match borrow them.
pub(super) fn weights_file(path: &Path) -> Result<&'static Weights, UsageError> {
    let name = path.display();
    let bytes = std::fs::read(path).map_err(|e| UsageError(format!("cannot read {name}: {e}")))?;
    let weights = Weights::read(&bytes).map_err(|e| UsageError(format!("{name}: {e}")))?;
    Ok(Box::leak(Box::new(weights)))
}

/// A switch, `0` (off) or `1` (on).
pub fn switch(text: &str) -> Result<bool, String> {
    match text {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err("takes 0 or 1".into()),
    }
}

/// `start` or a FEN, under `rules`.
pub fn parse_any_position(text: &str, rules: Rules) -> Result<AnyPosition, UsageError> {
    if text == "start" {
        AnyPosition::initial(rules).map_err(UsageError::from)
    } else {
        AnyPosition::from_fen(text, rules).map_err(|e| UsageError(format!("bad FEN {text:?}: {e}")))
    }
}

/// The text of a PDN file: PDN files in the wild are ASCII, UTF-8 or
/// Latin-1.
pub fn pdn_text(path: &Path) -> std::io::Result<String> {
    let bytes = std::fs::read(path)?;
    Ok(String::from_utf8(bytes).unwrap_or_else(|e| e.into_bytes().iter().map(|&b| b as char).collect()))
}
