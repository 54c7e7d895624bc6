//! The subcommands that measure: `bench` (reply times and search speed),
//! `agreement` (how often the bot plays the masters' move) and
//! `bench-server` (the server's figures, in `crate::ops::bench`).

use super::{pdn_text, SearchOptions, UsageError};
use crate::engine::bot::{self, Level};
use crate::engine::pdn::{parse_pdn, replay};
use crate::engine::search::{DrawCounters, Limits};
use crate::engine::{Move, Position};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// `dames bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// PDN files of international games to draw positions from
    #[arg(value_name = "FILE.pdn", required = true)]
    files: Vec<PathBuf>,
    /// About how many positions, spread evenly over the games
    #[arg(long, value_name = "N", default_value_t = 300)]
    positions: usize,
}

/// `dames agreement`.
#[derive(Args, Debug)]
pub struct AgreementArgs {
    /// PDN files of international games to draw positions from
    #[arg(value_name = "FILE.pdn", required = true)]
    files: Vec<PathBuf>,
    /// About how many positions, spread evenly over the games (those with a single move are then left out)
    #[arg(long, value_name = "N", default_value_t = 300)]
    positions: usize,
    /// The level whose limits the search has: debutant, intermediaire, fort, or a step of the electronic board's
    /// ladder, 1 (a beginner's opponent) to 8 (the strongest)
    #[arg(long, value_name = "LEVEL", default_value = "fort")]
    level: Level,
    #[command(flatten)]
    search: SearchOptions,
    /// Each search's node budget, instead of the level's
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
}

/// Positions of the games in `files` (international draughts), every
/// seventh from the fifth ply on, each with the move played there; about
/// `wanted` of them, spread evenly.
fn positions_of_games(files: &[PathBuf], wanted: usize) -> Result<Vec<(Position, Move)>, UsageError> {
    let mut positions = Vec::new();
    for file in files {
        let text = pdn_text(file).map_err(|e| UsageError(format!("cannot read {}: {e}", file.display())))?;
        for pdn in parse_pdn(&text) {
            if let Ok(game) = replay(&pdn) {
                let played = game.positions().into_iter().zip(game.moves().iter().copied());
                positions.extend(played.skip(4).step_by(7));
            }
        }
    }
    if positions.is_empty() {
        return Err(UsageError("no position found in those files".into()));
    }
    let step = (positions.len() / wanted.max(1)).max(1);
    Ok(positions.into_iter().step_by(step).take(wanted).collect())
}

impl AgreementArgs {
    /// How often the bot plays the move the players of real games played,
    /// in positions where there was a choice: a rough proxy of its
    /// judgement.
    pub fn run(self, out: &mut dyn Write) -> Result<i32, UsageError> {
        let level = self.level;
        let mut limits = self.search.apply(level.limits())?;
        if let Some(nodes) = self.nodes {
            limits = Limits { nodes, ..limits };
        }
        let choices: Vec<_> = positions_of_games(&self.files, self.positions)?
            .into_iter()
            .filter(|(p, _)| p.legal_moves().len() > 1)
            .collect();
        let started = Instant::now();
        let agreed = choices
            .iter()
            .filter(|(pos, played)| {
                let result = bot::search(pos, DrawCounters::default(), &limits).expect("positions with a move");
                result.best_moves[0] == *played
            })
            .count();
        writeln!(
            out,
            "{level} ({} evaluation, {} nodes): the move played in {agreed} of {} positions with a choice, {:.1} %, in {:.0} s",
            limits.eval.name(),
            limits.nodes,
            choices.len(),
            agreed as f64 / choices.len().max(1) as f64 * 100.0,
            started.elapsed().as_secs_f64()
        )?;
        Ok(0)
    }
}

impl BenchArgs {
    /// Reply times of each level over positions from real games, and the
    /// search speed of `fort` from the start.
    pub fn run(self, out: &mut dyn Write) -> Result<i32, UsageError> {
        let sample: Vec<Position> =
            positions_of_games(&self.files, self.positions)?.into_iter().map(|(p, _)| p).collect();
        for level in Level::ALL {
            let limits = level.limits();
            let mut times = Vec::with_capacity(sample.len());
            let mut nodes = 0u64;
            let started = Instant::now();
            for pos in &sample {
                let t = Instant::now();
                let result = bot::search(pos, DrawCounters::default(), &limits).expect("positions with a move");
                times.push(t.elapsed().as_secs_f64() * 1000.0);
                nodes += result.nodes;
            }
            let total = started.elapsed().as_secs_f64();
            times.sort_by(|a, b| a.total_cmp(b));
            let pct = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
            writeln!(
                out,
                "{level}: {} positions, reply p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms, {:.2} M nodes/s",
                times.len(),
                pct(0.5),
                pct(0.99),
                times[times.len() - 1],
                nodes as f64 / total / 1e6
            )?;
        }
        let limits = Level::Fort.limits();
        let started = Instant::now();
        let result = bot::search(&Position::start(), DrawCounters::default(), &limits).expect("the start has moves");
        let seconds = started.elapsed().as_secs_f64();
        writeln!(
            out,
            "fort from the start: depth {} nodes {} in {:.0} ms, {:.2} M nodes/s",
            result.depth,
            result.nodes,
            seconds * 1000.0,
            result.nodes as f64 / seconds / 1e6
        )?;
        Ok(0)
    }
}

/// `dames bench-server`: the server's figures (run inside the binary's
/// runtime).
#[cfg(feature = "ssr")]
pub fn bench_server(out: &mut dyn Write) -> Result<i32, UsageError> {
    super::on_runtime(crate::ops::bench::run(out))??;
    Ok(0)
}
