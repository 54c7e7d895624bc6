//! `dames tune`: the tools that make the learned evaluation's weights —
//! self-play positions (`generate`) and the fit of the weights to their
//! results (`fit`). The README says how the shipped weights were made.

pub mod data;
pub mod fit;

use crate::cli::{number, options, UsageError};
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::time::Instant;

/// Runs `dames tune …` (`args` after `tune`).
pub fn command(args: &[String], out: &mut dyn Write) -> Result<i32, UsageError> {
    let Some((action, rest)) = args.split_first() else {
        return Err(UsageError("tune needs generate or fit (`dames help` lists their options)".into()));
    };
    match action.as_str() {
        "generate" => generate(rest, out),
        "fit" => fit(rest, out),
        other => Err(UsageError(format!("unknown tune action {other:?} (generate or fit)"))),
    }
}

fn generate(args: &[String], out: &mut dyn Write) -> Result<i32, UsageError> {
    let (positional, named) = options(args, &["games", "out", "seed", "nodes", "threads"])?;
    if let Some(extra) = positional.first() {
        return Err(UsageError(format!("unexpected argument {extra:?}")));
    }
    let get = |n: &str| named.iter().rev().find(|(k, _)| *k == n).map(|(_, v)| *v);
    let games: u32 = number("games", get("games").ok_or_else(|| UsageError("--games is required".into()))?)?;
    let path = get("out").ok_or_else(|| UsageError("--out is required".into()))?;
    let selfplay = data::SelfPlay {
        games,
        seed: get("seed").map(|s| number("seed", s)).transpose()?.unwrap_or(1),
        nodes: get("nodes").map(|s| number("nodes", s)).transpose()?.unwrap_or(20_000),
        threads: get("threads").map(|s| number("threads", s)).transpose()?.unwrap_or(1),
    };
    if !(1..=1_000_000).contains(&games) || selfplay.nodes == 0 || !(1..=64).contains(&selfplay.threads) {
        return Err(UsageError("--games 1 to 1000000, --nodes above 0, --threads 1 to 64".into()));
    }
    let started = Instant::now();
    let samples = selfplay.run(out);
    let mut file = BufWriter::new(File::create(path).map_err(|e| UsageError(format!("{path}: {e}")))?);
    data::write_samples(&samples, &mut file)?;
    file.flush()?;
    writeln!(
        out,
        "{} positions from {games} games in {:.0} s, written to {path}",
        samples.len(),
        started.elapsed().as_secs_f64()
    )?;
    Ok(0)
}

fn fit(args: &[String], out: &mut dyn Write) -> Result<i32, UsageError> {
    let (positional, named) = options(args, &["data", "out", "epochs", "rate", "pattern-rate", "l2"])?;
    if let Some(extra) = positional.first() {
        return Err(UsageError(format!("unexpected argument {extra:?}")));
    }
    let get = |n: &str| named.iter().rev().find(|(k, _)| *k == n).map(|(_, v)| *v);
    let path = get("out").ok_or_else(|| UsageError("--out is required".into()))?;
    let mut samples = Vec::new();
    for (_, data) in named.iter().filter(|(k, _)| *k == "data") {
        let file = File::open(data).map_err(|e| UsageError(format!("{data}: {e}")))?;
        samples.extend(data::read_samples(&mut BufReader::new(file)).map_err(|e| UsageError(format!("{data}: {e}")))?);
    }
    if samples.is_empty() {
        return Err(UsageError("--data FILE is required (and must hold positions)".into()));
    }
    let options = fit::FitOptions {
        epochs: get("epochs").map(|s| number("epochs", s)).transpose()?.unwrap_or(400),
        rate: get("rate").map(|s| number("rate", s)).transpose()?.unwrap_or(0.5),
        pattern_rate: get("pattern-rate").map(|s| number("pattern-rate", s)).transpose()?.unwrap_or(1e5),
        regularisation: get("l2").map(|s| number("l2", s)).transpose()?.unwrap_or(0.0),
    };
    let started = Instant::now();
    let fitted = fit::fit(&samples, options, out);
    std::fs::write(path, fitted.weights.encode()).map_err(|e| UsageError(format!("{path}: {e}")))?;
    writeln!(
        out,
        "scale {:.1}; validation loss {:.6} classic, {:.6} fitted (training {:.6}); terms {:?}; {:.0} s; written to {path}",
        fitted.scale,
        fitted.classic_validation,
        fitted.fitted_validation,
        fitted.fitted_train,
        fitted.weights.terms,
        started.elapsed().as_secs_f64()
    )?;
    Ok(0)
}
