//! `dames tune generate`, `import` and `fit`: their arguments, read into
//! the typed options `crate::tune` runs with.

use super::{evaluation, switch, weights_file, UsageError};
use crate::engine::eval::patterns::Phase;
use crate::engine::eval::Evaluation;
use crate::tune::{data::SelfPlay, fit::FitOptions};
use clap::builder::RangedU64ValueParser;
use clap::{value_parser, Args, Subcommand};
use std::io::Write;
use std::path::PathBuf;

/// `dames tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    #[command(subcommand)]
    action: TuneAction,
}

#[derive(Subcommand, Debug)]
enum TuneAction {
    /// Self-play positions for the fit: games from varied random openings, each position with the game's result and
    /// the search's score
    Generate(GenerateArgs),
    /// Positions for the fit from games played elsewhere (a match's PDN): each quiet position after the opening,
    /// with its game's result, and with our own search's score when --nodes asks
    Import(ImportArgs),
    /// Fits the learned evaluation's weights to the positions' results and scores, and writes them
    Fit(FitArgs),
}

/// `dames tune import`.
#[derive(Args, Debug)]
struct ImportArgs {
    /// A PDN file of finished games of international draughts (once for each file)
    #[arg(long, value_name = "FILE", required = true)]
    pdn: Vec<PathBuf>,
    /// The file the positions are written to
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Label each position with our own search's score at N nodes a position (learned evaluation, fort's pruning
    /// and tables), as self-play positions are; without it a position has its game's result alone
    #[arg(long, value_name = "N", value_parser = value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Positions searched side by side with --nodes, 1 to 64 (the same scores whatever the threads)
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = RangedU64ValueParser::<usize>::new().range(1..=64))]
    threads: usize,
    /// With --nodes, the learned evaluation with the weights of FILE (written by dames tune fit) instead of the
    /// shipped ones
    #[arg(long, value_name = "FILE", requires = "nodes")]
    weights: Option<PathBuf>,
}

/// `dames tune generate`.
#[derive(Args, Debug)]
struct GenerateArgs {
    /// Games played, 1 to 1000000
    #[arg(long, value_name = "N", value_parser = value_parser!(u32).range(1..=1_000_000))]
    games: u32,
    /// The file the positions are written to
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// The seed of the games' random openings
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Each move's node budget (at least 1)
    #[arg(long, value_name = "N", default_value_t = 20_000, value_parser = value_parser!(u64).range(1..))]
    nodes: u64,
    /// Games played side by side, 1 to 64 (the same positions whatever the threads)
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = RangedU64ValueParser::<usize>::new().range(1..=64))]
    threads: usize,
    /// How both sides judge positions: classic (the default) or learned
    #[arg(long, value_name = "E")]
    eval: Option<Evaluation>,
    /// The learned evaluation with the weights of FILE (written by dames tune fit) instead of the shipped ones
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// fort's frontier pruning on (1) or off (0, the default; the shipped weights' games had it on)
    #[arg(long, value_name = "0|1", value_parser = switch)]
    pruning: Option<bool>,
    /// The exact endgame tables used (1) or not (0, the default; the shipped weights' games used them)
    #[arg(long, value_name = "0|1", value_parser = switch)]
    tables: Option<bool>,
}

/// `dames tune fit`.
#[derive(Args, Debug)]
struct FitArgs {
    /// A positions file written by tune generate or tune import (once for each file); the fit's target for a
    /// position imported without --nodes is its game's result whatever --lambda
    #[arg(long, value_name = "FILE", required = true)]
    data: Vec<PathBuf>,
    /// The file the weights are written to (what --weights reads)
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Passes over the training positions
    #[arg(long, value_name = "E", default_value_t = 400)]
    epochs: u32,
    /// Adam's step for the terms' weights, in hundredths of a man
    #[arg(long, value_name = "R", default_value_t = 0.5)]
    rate: f64,
    /// The pattern weights' step per unit of gradient
    #[arg(long = "pattern-rate", value_name = "P", default_value_t = 1e5)]
    pattern_rate: f64,
    /// The pull of every pattern weight towards zero (L2)
    #[arg(long, value_name = "L", default_value_t = 0.0)]
    l2: f64,
    /// The share of the search's score in the fit's target, 0 to 1 (0: the game result alone)
    #[arg(long, value_name = "L", default_value_t = 0.0, value_parser = share)]
    lambda: f64,
    /// How far ahead in its game each search score looks, 0 to 1: the target takes, instead of a position's
    /// score, the TD(λ) blend of it (1 - L) with the same for the next position of its game (L), and so on to the
    /// result (0: the score alone; 0.9, the shipped weights': about ten plies ahead)
    #[arg(long, value_name = "L", default_value_t = 0.0, value_parser = share)]
    td: f64,
    /// 1: one value a weight; 2: weights for the opening and the ending, blended by --phase
    #[arg(long, value_name = "1|2", default_value_t = 1, value_parser = RangedU64ValueParser::<usize>::new().range(1..=2))]
    phases: usize,
    /// What blends the two: pieces (the pieces on the board, the shipped weights') or rows (the rows the men still have to go, Scan's measure; a fourth file format)
    #[arg(long, value_name = "pieces|rows", default_value = "pieces", value_parser = phase)]
    phase: Phase,
    /// Fit the score as the learned evaluation gives it, divided where a king holds (1), or the plain sum of the
    /// weights (0, the shipped weights'); the search's scores, the labels, are divided there
    #[arg(long, value_name = "0|1", value_parser = switch)]
    drawish: Option<bool>,
    /// Carry on from the weights of FILE (what --weights reads) instead of starting from the classic ones
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
}

/// A measure of the game's phase, by name.
fn phase(text: &str) -> Result<Phase, String> {
    match text {
        "rows" => Ok(Phase::RowsToGo),
        "pieces" => Ok(Phase::Pieces),
        _ => Err("takes rows or pieces".into()),
    }
}

/// A share, from 0 to 1.
fn share(text: &str) -> Result<f64, String> {
    let share: f64 = text.parse().map_err(|e| format!("{e}"))?;
    if (0.0..=1.0).contains(&share) {
        Ok(share)
    } else {
        Err("must be from 0 to 1".into())
    }
}

impl TuneArgs {
    pub fn run(self, out: &mut dyn Write) -> Result<i32, UsageError> {
        match self.action {
            TuneAction::Generate(args) => {
                // What is not asked stays classic, without pruning or
                // tables (README: the shipped weights' games asked for
                // both).
                let classic = SelfPlay::classic(args.games, args.seed, args.nodes, args.threads);
                let selfplay = SelfPlay {
                    eval: evaluation(args.eval, args.weights.as_deref())?.unwrap_or(classic.eval),
                    pruning: args.pruning.unwrap_or(classic.pruning),
                    tables: args.tables.unwrap_or(classic.tables),
                    ..classic
                };
                crate::tune::generate(&selfplay, &args.out, out).map_err(UsageError)?;
            }
            TuneAction::Import(args) => {
                let eval = evaluation(None, args.weights.as_deref())?.unwrap_or(Evaluation::Learned);
                let labels = args.nodes.map(|nodes| (nodes, eval, args.threads));
                crate::tune::import(&args.pdn, labels, &args.out, out).map_err(UsageError)?
            }
            TuneAction::Fit(args) => {
                let options = FitOptions {
                    epochs: args.epochs,
                    rate: args.rate,
                    pattern_rate: args.pattern_rate,
                    regularisation: args.l2,
                    lambda: args.lambda,
                    td: args.td,
                    phases: args.phases,
                    phase: args.phase,
                    drawish: args.drawish.unwrap_or(false),
                };
                let start = args.from.as_deref().map(weights_file).transpose()?;
                crate::tune::fit(&args.data, options, start, &args.out, out).map_err(UsageError)?;
            }
        }
        Ok(0)
    }
}
