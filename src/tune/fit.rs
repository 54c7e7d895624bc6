//! Fitting the learned evaluation's weights to game results: logistic
//! regression of the result on the evaluation (Texel's method), by full-batch
//! Adam, with the classic evaluation's scale kept.
//!
//! Every step is deterministic (one thread, a fixed order), so the same
//! positions file gives the same weights.

use super::data::Sample;
use crate::engine::eval::patterns::{self, Weights, STATES, TABLES};
use crate::engine::eval::{classic_weights, Terms, TERMS};
use std::io::Write;

/// A sample as the fit reads it: its terms (White less Black), the pattern
/// states it adds and subtracts, and White's result.
struct Row {
    terms: [f32; TERMS],
    states: [(u16, u16); TABLES],
    result: f32,
}

impl Row {
    fn of(sample: &Sample) -> Row {
        let pos = &sample.position;
        let terms = Terms::difference(pos).0.map(|t| t as f32);
        let white = pos.men(crate::engine::Color::White).bits();
        let black = pos.men(crate::engine::Color::Black).bits();
        let states = patterns::indices(white, black).map(|(a, b)| (a as u16, b as u16));
        Row { terms, states, result: sample.white_result }
    }
}

/// The weights being fitted, as floats.
#[derive(Clone)]
struct Model {
    terms: [f64; TERMS],
    tables: Vec<f64>,
}

impl Model {
    fn classic() -> Model {
        Model { terms: classic_weights(true).map(|w| w as f64), tables: vec![0.0; TABLES * STATES] }
    }

    /// White's score of a row, in hundredths of a man.
    fn score(&self, row: &Row) -> f64 {
        let mut score: f64 = row.terms.iter().zip(&self.terms).map(|(t, w)| *t as f64 * w).sum();
        for (table, (own, mirrored)) in row.states.iter().enumerate() {
            score += self.tables[table * STATES + *own as usize] - self.tables[table * STATES + *mirrored as usize];
        }
        score
    }

    /// The weights rounded as the build ships them.
    fn rounded(&self) -> Weights {
        let mut weights = Weights { terms: self.terms.map(|w| w.round() as i32), tables: [[0; STATES]; TABLES] };
        for (table, shipped) in weights.tables.iter_mut().enumerate() {
            for (state, w) in shipped.iter_mut().enumerate() {
                *w = self.tables[table * STATES + state].round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
            }
        }
        weights
    }

    fn from_weights(weights: &Weights) -> Model {
        Model {
            terms: weights.terms.map(|w| w as f64),
            tables: weights.tables.iter().flatten().map(|w| *w as f64).collect(),
        }
    }
}

/// The expected result for White of a score: `1 / (1 + e^(-score / scale))`.
fn expected(score: f64, scale: f64) -> f64 {
    1.0 / (1.0 + (-score / scale).exp())
}

/// Mean squared error of the expected results against the real ones.
fn loss(model: &Model, rows: &[&Row], scale: f64) -> f64 {
    let sum: f64 = rows.iter().map(|r| (expected(model.score(r), scale) - r.result as f64).powi(2)).sum();
    sum / rows.len().max(1) as f64
}

/// Terms whose classic weights the fit keeps: the king (1) and its
/// mobility (8). Fitted, they come out worth about one man: in the games
/// the positions come from, a king won is often not a game won (kings-only
/// endings are drawish, and play at that depth seldom converts), and a
/// search judging kings that way stops crowning. It lost 36 % of its games
/// against the classic weights.
const FIXED_TERMS: [usize; 2] = [1, 8];

/// The pattern weights' momentum.
const MOMENTUM: f64 = 0.9;

/// What the fit asks for.
#[derive(Clone, Copy, Debug)]
pub struct FitOptions {
    pub epochs: u32,
    /// Adam's step for the terms' weights, in hundredths of a man.
    pub rate: f64,
    /// The pattern weights' step per unit of gradient (gradient descent
    /// with momentum, not Adam: a state seen in few positions then moves
    /// little, where Adam would move it as far as a common one and fit its
    /// noise, which the search, looking for the best-looking positions,
    /// would then seek out).
    pub pattern_rate: f64,
    /// The pull of every pattern weight towards zero (L2).
    pub regularisation: f64,
}

/// What the fit found.
pub struct Fitted {
    pub weights: Weights,
    pub scale: f64,
    pub train_rows: usize,
    pub validation_rows: usize,
    /// Validation loss of the classic weights and of the fitted ones
    /// (rounded as shipped); training loss of the fitted ones.
    pub classic_validation: f64,
    pub fitted_validation: f64,
    pub fitted_train: f64,
}

/// Fits the weights on `samples`. Games whose number ends in 0 are held out
/// for validation, and the epoch with the best validation loss is kept.
pub fn fit(samples: &[Sample], options: FitOptions, log: &mut dyn Write) -> Fitted {
    let rows: Vec<Row> = samples.iter().map(Row::of).collect();
    let (mut validation, mut train) = (Vec::new(), Vec::new());
    for (row, sample) in rows.iter().zip(samples) {
        if sample.game.is_multiple_of(10) {
            validation.push(row);
        } else {
            train.push(row);
        }
    }
    let classic = Model::classic();
    let scale = best_scale(&classic, &train);
    let classic_validation = loss(&classic, &validation, scale);
    let _ = writeln!(
        log,
        "{} training and {} validation positions; scale {scale:.1}; classic validation loss {classic_validation:.6}",
        train.len(),
        validation.len()
    );

    let mut model = classic.clone();
    let mut best = (classic_validation, classic.clone());
    let parameters = TERMS + TABLES * STATES;
    // Adam's moments for the terms; the momentum alone for the patterns.
    let (mut mean, mut variance) = (vec![0.0f64; parameters], vec![0.0f64; parameters]);
    let (beta1, beta2, epsilon) = (0.9f64, 0.999f64, 1e-8);
    let mut gradient = vec![0.0f64; parameters];
    for epoch in 1..=options.epochs {
        gradient.iter_mut().for_each(|g| *g = 0.0);
        for row in &train {
            let p = expected(model.score(row), scale);
            let d = 2.0 * (p - row.result as f64) * p * (1.0 - p) / scale;
            for (t, term) in row.terms.iter().enumerate() {
                gradient[t] += d * *term as f64;
            }
            for (table, (own, mirrored)) in row.states.iter().enumerate() {
                gradient[TERMS + table * STATES + *own as usize] += d;
                gradient[TERMS + table * STATES + *mirrored as usize] -= d;
            }
        }
        let n = train.len().max(1) as f64;
        for (i, g) in gradient.iter_mut().enumerate() {
            *g /= n;
            if i >= TERMS {
                *g += options.regularisation * model.tables[i - TERMS];
            }
        }
        let (correction1, correction2) = (1.0 - beta1.powi(epoch as i32), 1.0 - beta2.powi(epoch as i32));
        for i in 0..parameters {
            if FIXED_TERMS.contains(&i) {
                continue;
            }
            if i < TERMS {
                mean[i] = beta1 * mean[i] + (1.0 - beta1) * gradient[i];
                variance[i] = beta2 * variance[i] + (1.0 - beta2) * gradient[i] * gradient[i];
                model.terms[i] -=
                    options.rate * (mean[i] / correction1) / ((variance[i] / correction2).sqrt() + epsilon);
            } else {
                mean[i] = MOMENTUM * mean[i] + gradient[i];
                model.tables[i - TERMS] -= options.pattern_rate * mean[i];
            }
        }
        if epoch % 25 == 0 || epoch == options.epochs {
            let shipped = Model::from_weights(&model.rounded());
            let validation_loss = loss(&shipped, &validation, scale);
            let _ = writeln!(log, "epoch {epoch}: validation loss {validation_loss:.6}");
            if validation_loss < best.0 {
                best = (validation_loss, shipped);
            }
        }
    }
    let (fitted_validation, model) = best;
    Fitted {
        fitted_train: loss(&model, &train, scale),
        weights: model.rounded(),
        scale,
        train_rows: train.len(),
        validation_rows: validation.len(),
        classic_validation,
        fitted_validation,
    }
}

/// The scale that fits the classic evaluation best: results are read as
/// logistic in the score, and the fitted weights keep this scale, so they
/// stay in hundredths of a man. Golden-section search over 10 to 2,000.
fn best_scale(model: &Model, rows: &[&Row]) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut low, mut high) = (10f64, 2_000f64);
    while high - low > 0.5 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if loss(model, rows, a) < loss(model, rows, b) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::data::SelfPlay;

    /// On a few games: the fit starts from the classic weights and keeps
    /// its best epoch, so its validation loss is never worse; the scale is
    /// found inside its range; the weights survive the file format.
    #[test]
    fn the_fit_never_ends_worse_than_the_classic_weights() {
        let samples = SelfPlay { games: 12, seed: 3, nodes: 2_000, threads: 2 }.run(&mut std::io::sink());
        let fitted = fit(
            &samples,
            FitOptions { epochs: 50, rate: 1.0, pattern_rate: 1e5, regularisation: 0.0 },
            &mut std::io::sink(),
        );
        assert!(fitted.validation_rows > 0 && fitted.train_rows > fitted.validation_rows);
        assert!(fitted.fitted_validation <= fitted.classic_validation);
        assert!(fitted.fitted_train.is_finite());
        assert!((10.0..=2_000.0).contains(&fitted.scale));
        let again = Weights::decode(&fitted.weights.encode());
        assert_eq!(again.terms, fitted.weights.terms);
    }

    #[test]
    fn the_scale_fitted_is_the_one_the_results_follow() {
        // Results drawn so that White wins with probability expected(score, 150).
        let model = Model::classic();
        let mut rows = Vec::new();
        for men in -3i32..=3 {
            let p = expected(100.0 * men as f64, 150.0);
            for k in 0..1000 {
                let mut terms = [0.0; TERMS];
                terms[0] = men as f32;
                let result = if (k as f64 + 0.5) / 1000.0 < p { 1.0 } else { 0.0 };
                rows.push(Row { terms, states: [(0, 0); TABLES], result });
            }
        }
        let rows: Vec<&Row> = rows.iter().collect();
        let scale = best_scale(&model, &rows);
        assert!((scale - 150.0).abs() < 5.0, "{scale}");
    }
}
