//! `dames tune`: the tools that make the learned evaluation's weights —
//! self-play positions (`generate`) and the fit of the weights to their
//! results (`fit`). The README says how the shipped weights were made.

pub mod data;
pub mod fit;

use crate::cli::{number, number_or, options, required, with_search_options, UsageError};
use crate::engine::bot::Level;
use crate::engine::search::Limits;
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
    let known = ["games", "out", "seed", "nodes", "threads", "eval", "weights", "pruning", "tables"];
    let (positional, named) = options(args, &known)?;
    if let Some(extra) = positional.first() {
        return Err(UsageError(format!("unexpected argument {extra:?}")));
    }
    let games: u32 = number("games", required(&named, "games")?)?;
    let path = required(&named, "out")?;
    let classic = data::SelfPlay::classic(
        games,
        number_or(&named, "seed", 1)?,
        number_or(&named, "nodes", 20_000)?,
        number_or(&named, "threads", 1)?,
    );
    // The evaluation and switches as the other commands read them; what
    // is not asked stays classic, without pruning or tables (README: the
    // shipped weights' games asked for both).
    let base = Limits {
        eval: classic.eval,
        frontier_pruning: classic.pruning,
        endgame_tables: classic.tables,
        ..Level::Fort.limits()
    };
    let asked = with_search_options(base, &named, None)?;
    let selfplay =
        data::SelfPlay { eval: asked.eval, pruning: asked.frontier_pruning, tables: asked.endgame_tables, ..classic };
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
    let (positional, named) =
        options(args, &["data", "out", "epochs", "rate", "pattern-rate", "l2", "lambda", "phases"])?;
    if let Some(extra) = positional.first() {
        return Err(UsageError(format!("unexpected argument {extra:?}")));
    }
    let path = required(&named, "out")?;
    let options = fit::FitOptions {
        epochs: number_or(&named, "epochs", 400)?,
        rate: number_or(&named, "rate", 0.5)?,
        pattern_rate: number_or(&named, "pattern-rate", 1e5)?,
        regularisation: number_or(&named, "l2", 0.0)?,
        lambda: number_or(&named, "lambda", 0.0)?,
        phases: number_or(&named, "phases", 1)?,
    };
    if !(1..=2).contains(&options.phases) {
        return Err(UsageError("--phases must be 1 or 2".into()));
    }
    if !(0.0..=1.0).contains(&options.lambda) {
        return Err(UsageError("--lambda must be from 0 to 1".into()));
    }
    let mut samples = Vec::new();
    for (_, data) in named.iter().filter(|(k, _)| *k == "data") {
        let file = File::open(data).map_err(|e| UsageError(format!("{data}: {e}")))?;
        samples.extend(data::read_samples(&mut BufReader::new(file)).map_err(|e| UsageError(format!("{data}: {e}")))?);
    }
    if samples.is_empty() {
        return Err(UsageError("--data FILE is required (and must hold positions)".into()));
    }
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
