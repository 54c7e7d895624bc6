//! `dames tune`: the tools that make the learned evaluation's weights —
//! self-play positions (`generate`), positions of games played elsewhere
//! (`import`) and the fit of the weights to their results (`fit`). The
//! README says how the shipped weights were made. The command line
//! (`crate::cli`) reads the options and calls these with them.

pub mod data;
pub mod fit;

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::engine::eval::patterns::Weights;
use crate::engine::eval::Evaluation;

/// Plays the games of `selfplay` and writes their positions to `path`;
/// reports on `out`. The error is a one-line message.
pub fn generate(selfplay: &data::SelfPlay, path: &Path, out: &mut dyn Write) -> Result<(), String> {
    let started = Instant::now();
    let samples = selfplay.run(out);
    let mut file = BufWriter::new(File::create(path).map_err(|e| format!("{}: {e}", path.display()))?);
    data::write_samples(&samples, &mut file).map_err(|e| e.to_string())?;
    file.flush().map_err(|e| e.to_string())?;
    writeln!(
        out,
        "{} positions from {} games in {:.0} s, written to {}",
        samples.len(),
        selfplay.games,
        started.elapsed().as_secs_f64(),
        path.display()
    )
    .map_err(|e| e.to_string())
}

/// Reads the games of the PDN files `games` and writes their quiet
/// positions, labelled by their results, to `path` (see
/// [`data::from_games`]); with `labels` (nodes, evaluation, threads), each
/// also with our own search's score ([`data::label_by_search`]). Reports
/// on `out`. The error is a one-line message.
pub fn import(
    games: &[PathBuf],
    labels: Option<(u64, Evaluation, usize)>,
    path: &Path,
    out: &mut dyn Write,
) -> Result<(), String> {
    let mut parsed = Vec::new();
    for file in games {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        parsed.extend(crate::engine::pdn::parse_pdn(&text));
    }
    let mut samples = data::from_games(&parsed)?;
    if let Some((nodes, eval, threads)) = labels {
        data::label_by_search(&mut samples, nodes, eval, threads);
    }
    let mut file = BufWriter::new(File::create(path).map_err(|e| format!("{}: {e}", path.display()))?);
    data::write_samples(&samples, &mut file).map_err(|e| e.to_string())?;
    file.flush().map_err(|e| e.to_string())?;
    writeln!(out, "{} positions from {} games, written to {}", samples.len(), parsed.len(), path.display())
        .map_err(|e| e.to_string())
}

/// Fits weights to the positions of the files `data` and writes them to
/// `path`; reports on `out`. The error is a one-line message.
/// `start`: weights to carry on from instead of the classic ones.
pub fn fit(
    data: &[PathBuf],
    options: fit::FitOptions,
    start: Option<&Weights>,
    path: &Path,
    out: &mut dyn Write,
) -> Result<(), String> {
    let mut samples = Vec::new();
    for data in data {
        let name = data.display();
        let file = File::open(data).map_err(|e| format!("{name}: {e}"))?;
        samples.extend(data::read_samples(&mut BufReader::new(file)).map_err(|e| format!("{name}: {e}"))?);
    }
    if samples.is_empty() {
        return Err("--data FILE is required (and must hold positions)".into());
    }
    let started = Instant::now();
    let fitted = fit::fit(&samples, options, start, out);
    std::fs::write(path, fitted.weights.encode()).map_err(|e| format!("{}: {e}", path.display()))?;
    writeln!(
        out,
        "scale {:.1}; validation loss {:.6} classic, {:.6} fitted (training {:.6}); terms {:?}; extras {:?}; {:.0} s; written to {}",
        fitted.scale,
        fitted.classic_validation,
        fitted.fitted_validation,
        fitted.fitted_train,
        fitted.weights.terms,
        fitted.weights.extras,
        started.elapsed().as_secs_f64(),
        path.display()
    )
    .map_err(|e| e.to_string())
}
