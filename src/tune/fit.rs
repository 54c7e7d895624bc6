//! Fitting the learned evaluation's weights to game results: logistic
//! regression of the result on the evaluation (Texel's method), by full-batch
//! Adam, with the classic evaluation's scale kept. The target may blend the
//! result with the score the player's search gave the position, or with
//! the scores of that position and the ones after it in its game (TD(λ)).
//!
//! Every step is deterministic (one thread, a fixed order), so the same
//! positions file gives the same weights.

use super::data::Sample;
use crate::engine::eval::patterns::{self, Extras, Phase, Weights, EXTRAS, PHASES, PHASE_SCALE, STATES, TABLES};
use crate::engine::eval::{classic_weights, drawish_divisor, Terms, TERMS};
use crate::engine::Color;
use std::io::Write;

/// A sample as the fit reads it: its terms (White less Black), the pattern
/// states it adds and subtracts, its whole-board terms, its share of the
/// opening's weights, White's result and the search's score.
struct Row {
    terms: [f32; TERMS],
    states: [(u16, u16); TABLES],
    extras: [f32; EXTRAS],
    /// The opening's share in the blend of the phases (0 to 1), as the
    /// evaluation computes it by the fit's [`Phase`].
    opening: f64,
    result: f32,
    score: Option<i16>,
    /// What the evaluation divides the patterns' sum by when White is
    /// ahead and when Black is (`drawish_divisor`): 1 and 1 unless the fit
    /// goes through that scaling.
    divisors: [f32; 2],
}

impl Row {
    fn of(sample: &Sample, phase: Phase, drawish: bool) -> Row {
        let pos = &sample.position;
        let terms = Terms::difference(pos).0.map(|t| t as f32);
        let white = pos.men(Color::White).bits();
        let black = pos.men(Color::Black).bits();
        let states = patterns::indices(white, black).map(|(a, b)| (a as u16, b as u16));
        let kings = [Color::White, Color::Black].map(|c| pos.kings_of(c).bits());
        let extras = Extras::difference(white, black, kings).0.map(|e| e as f32);
        let share = phase.opening_share(white, black, pos.occupied().count());
        let opening = share as f64 / PHASE_SCALE as f64;
        let divisors = match drawish {
            true => [Color::White, Color::Black].map(|strong| drawish_divisor(pos, strong, true) as f32),
            false => [1.0; 2],
        };
        Row { terms, states, extras, opening, result: sample.white_result, score: sample.white_score, divisors }
    }

    /// The divisor of a sum `score` of the patterns and terms: the one of
    /// the side it puts ahead.
    fn divisor(&self, score: f64) -> f64 {
        self.divisors[usize::from(score < 0.0)] as f64
    }

    /// What the fit aims at: the result, blended by `lambda` (0: the
    /// result alone) with what the search's scores say, `scored`: the
    /// row's [`score_returns`].
    fn target(&self, lambda: f64, scored: f64) -> f64 {
        match self.score {
            Some(_) => lambda * scored + (1.0 - lambda) * self.result as f64,
            None => self.result as f64,
        }
    }

    /// Each phase's share of the row's score: all of it with one phase.
    fn shares(&self, phases: usize) -> [f64; PHASES] {
        if phases == 1 {
            [1.0, 0.0]
        } else {
            [self.opening, 1.0 - self.opening]
        }
    }
}

/// Where the whole-board terms' weights start in a phase's.
const EXTRAS_AT: usize = TERMS + TABLES * STATES;
/// A phase's weights: the terms', the tables' one after the other, then the
/// whole-board terms'.
const PARAMETERS: usize = EXTRAS_AT + EXTRAS;

/// Whether parameter `i` of a phase is a pattern weight (stepped with
/// momentum) rather than a term's (stepped by Adam).
fn is_pattern(i: usize) -> bool {
    (TERMS..EXTRAS_AT).contains(&i)
}

/// The weights being fitted, as floats: [`PARAMETERS`] for each phase.
#[derive(Clone)]
struct Model {
    phases: usize,
    weights: Vec<f64>,
}

impl Model {
    fn classic(phases: usize) -> Model {
        let mut weights = vec![0.0; phases * PARAMETERS];
        for phase in weights.chunks_mut(PARAMETERS) {
            for (w, classic) in phase.iter_mut().zip(classic_weights(true)) {
                *w = classic as f64;
            }
        }
        Model { phases, weights }
    }

    /// White's score of a row, in hundredths of a man, as the evaluation
    /// gives it (divided where a king holds, when the fit asks for it).
    fn score(&self, row: &Row) -> f64 {
        let sum = self.sum(row);
        sum / row.divisor(sum)
    }

    /// The same before the division: the sum of the weights.
    fn sum(&self, row: &Row) -> f64 {
        if self.phases == 1 {
            return self.phase_score(row, 0);
        }
        let [opening, ending] = row.shares(self.phases);
        self.phase_score(row, 0) * opening + self.phase_score(row, 1) * ending
    }

    /// The score of a row by one phase's weights.
    fn phase_score(&self, row: &Row, phase: usize) -> f64 {
        let weights = &self.weights[phase * PARAMETERS..(phase + 1) * PARAMETERS];
        let (terms, tables) = weights.split_at(TERMS);
        let mut score: f64 = row.terms.iter().zip(terms).map(|(t, w)| *t as f64 * w).sum();
        for (table, (own, mirrored)) in row.states.iter().enumerate() {
            score += tables[table * STATES + *own as usize] - tables[table * STATES + *mirrored as usize];
        }
        score + row.extras.iter().zip(&weights[EXTRAS_AT..]).map(|(e, w)| *e as f64 * w).sum::<f64>()
    }

    /// The weights rounded as the build ships them (one phase: the same
    /// values for both), blended by `phase`.
    fn rounded(&self, phase: Phase) -> Weights {
        let mut weights = Weights { phase, ..Weights::zero() };
        let tables = weights.tables.to_mut();
        for phase in 0..PHASES {
            let fitted = &self.weights[phase.min(self.phases - 1) * PARAMETERS..];
            for (t, values) in weights.terms.iter_mut().enumerate() {
                values[phase] = fitted[t].round() as i32;
            }
            for (values, w) in tables.iter_mut().zip(&fitted[TERMS..EXTRAS_AT]) {
                values[phase] = w.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
            }
            for (values, w) in weights.extras.iter_mut().zip(&fitted[EXTRAS_AT..PARAMETERS]) {
                values[phase] = w.round().clamp(i16::MIN as f64, i16::MAX as f64) as i32;
            }
        }
        weights
    }

    fn from_weights(weights: &Weights, phases: usize) -> Model {
        let mut model = Model { phases, weights: vec![0.0; phases * PARAMETERS] };
        for (phase, fitted) in model.weights.chunks_mut(PARAMETERS).enumerate() {
            for (t, values) in weights.terms.iter().enumerate() {
                fitted[t] = values[phase] as f64;
            }
            for (i, values) in weights.tables.iter().enumerate() {
                fitted[TERMS + i] = values[phase] as f64;
            }
            for (e, values) in weights.extras.iter().enumerate() {
                fitted[EXTRAS_AT + e] = values[phase] as f64;
            }
        }
        model
    }
}

/// The expected result for White of a score: `1 / (1 + e^(-score / scale))`.
fn expected(score: f64, scale: f64) -> f64 {
    1.0 / (1.0 + (-score / scale).exp())
}

/// What the search's scores say of each row, for White: the expected
/// result of its own score blended, `td` to `1 - td`, with the same for the
/// next row of its game, and so on to the game's result after its last row
/// (the TD(λ) return, λ = `td`). With `td` 0 it is the row's own score
/// alone, as every generation before version 11's was fitted; the shipped
/// weights were fitted with 0.9. The larger `td`, the further
/// ahead in the game the target looks (about `1 / (1 - td)` rows, one a
/// quiet ply), so that what a search sees only later in the game, as a
/// position drifts, is learned where the drift begins. A row without a
/// score passes on what comes after it. Consecutive rows of one game
/// number are one game, in order, as the positions files hold them.
fn score_returns(rows: &[Row], games: &[u32], td: f64, scale: f64) -> Vec<f64> {
    let mut returns = vec![0.0; rows.len()];
    // The game and return of the row after, going backwards.
    let mut after: Option<(u32, f64)> = None;
    for (i, (row, &game)) in rows.iter().zip(games).enumerate().rev() {
        let later = match after {
            Some((next_game, next)) if next_game == game => next,
            _ => row.result as f64,
        };
        returns[i] = match row.score {
            Some(score) => (1.0 - td) * expected(score as f64, scale) + td * later,
            None => later,
        };
        after = Some((game, returns[i]));
    }
    returns
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
    /// The share of the search's score in the target, 0 to 1 (0: the game
    /// result alone; the shipped weights were fitted with 1). Positions
    /// without a score (first-version files) keep their result.
    pub lambda: f64,
    /// How far ahead in its game a row's search score looks
    /// ([`score_returns`]): 0, the row's own score, to 1, the game's
    /// result (the shipped weights were fitted with 0.9).
    pub td: f64,
    /// 1: one value a weight; 2 (the shipped weights): one for the opening
    /// and one for the ending…
    pub phases: usize,
    /// …blended by this measure of the game's phase: the pieces (the
    /// shipped weights'), or the rows to go.
    pub phase: Phase,
    /// Whether the fit judges the weights by the score the evaluation
    /// makes of them, divided where a king holds (`drawish_divisor`), or
    /// by their plain sum (the shipped weights'). The search's scores, the
    /// labels, are already divided there: fitted to the plain sum, the
    /// patterns learn the division and the evaluation divides again. The
    /// classic weights' loss, a reference, is measured the same way.
    pub drawish: bool,
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
    /// Validation loss of the weights the fit started from (the classic
    /// ones unless given).
    pub start_validation: f64,
    pub fitted_validation: f64,
    pub fitted_train: f64,
}

/// Fits the weights on `samples`. Games whose number ends in 0 are held out
/// for validation, and the epoch with the best validation loss is kept.
/// The fit starts from the classic weights, or from `start` (weights
/// fitted before, to carry on from them with more positions).
pub fn fit(samples: &[Sample], options: FitOptions, start: Option<&Weights>, log: &mut dyn Write) -> Fitted {
    let rows: Vec<Row> = samples.iter().map(|sample| Row::of(sample, options.phase, options.drawish)).collect();
    let games: Vec<u32> = samples.iter().map(|sample| sample.game).collect();
    let in_training: Vec<bool> = games.iter().map(|game| !game.is_multiple_of(10)).collect();
    let rows_in = |training: bool| -> Vec<&Row> {
        rows.iter().zip(&in_training).filter(|(_, t)| **t == training).map(|(row, _)| row).collect()
    };
    let (validation, train) = (rows_in(false), rows_in(true));
    let classic = Model::classic(options.phases);
    let scale = best_scale(&classic, &train);
    let classic_validation = loss(&classic, &validation, scale);
    let _ = writeln!(
        log,
        "{} training and {} validation positions; scale {scale:.1}; classic validation loss {classic_validation:.6}",
        train.len(),
        validation.len()
    );

    // Starting weights are carried on under the fit's phase, whatever
    // theirs was: their loss is measured so too.
    let mut model = match start {
        Some(weights) => Model::from_weights(weights, options.phases),
        None => classic.clone(),
    };
    let start_validation = loss(&model, &validation, scale);
    if start.is_some() {
        let _ = writeln!(log, "starting weights' validation loss {start_validation:.6}");
    }
    let mut best = (start_validation, model.clone());
    let parameters = options.phases * PARAMETERS;
    // Adam's moments for the terms; the momentum alone for the patterns.
    let (mut mean, mut variance) = (vec![0.0f64; parameters], vec![0.0f64; parameters]);
    let (beta1, beta2, epsilon) = (0.9f64, 0.999f64, 1e-8);
    let mut gradient = vec![0.0f64; parameters];
    let returns = score_returns(&rows, &games, options.td, scale);
    let targets: Vec<f64> = rows
        .iter()
        .zip(&returns)
        .zip(&in_training)
        .filter(|(_, t)| **t)
        .map(|((row, scored), _)| row.target(options.lambda, *scored))
        .collect();
    for epoch in 1..=options.epochs {
        gradient.iter_mut().for_each(|g| *g = 0.0);
        for (row, target) in train.iter().zip(&targets) {
            // Through the division (1 without --drawish), the gradient
            // of the sum is the score's divided by it.
            let sum = model.sum(row);
            let divisor = row.divisor(sum);
            let p = expected(sum / divisor, scale);
            let d = 2.0 * (p - target) * p * (1.0 - p) / scale / divisor;
            let shares = row.shares(options.phases);
            for (phase, gradient) in gradient.chunks_mut(PARAMETERS).enumerate() {
                // (With one phase the share is 1: the same sums as before
                // the phases, to the last bit.)
                let d = d * shares[phase];
                for (t, term) in row.terms.iter().enumerate() {
                    gradient[t] += d * *term as f64;
                }
                for (table, (own, mirrored)) in row.states.iter().enumerate() {
                    gradient[TERMS + table * STATES + *own as usize] += d;
                    gradient[TERMS + table * STATES + *mirrored as usize] -= d;
                }
                for (e, extra) in row.extras.iter().enumerate() {
                    gradient[EXTRAS_AT + e] += d * *extra as f64;
                }
            }
        }
        let n = train.len().max(1) as f64;
        for (i, g) in gradient.iter_mut().enumerate() {
            *g /= n;
            if is_pattern(i % PARAMETERS) {
                *g += options.regularisation * model.weights[i];
            }
        }
        let (correction1, correction2) = (1.0 - beta1.powi(epoch as i32), 1.0 - beta2.powi(epoch as i32));
        for i in 0..parameters {
            if FIXED_TERMS.contains(&(i % PARAMETERS)) {
                continue;
            }
            if !is_pattern(i % PARAMETERS) {
                mean[i] = beta1 * mean[i] + (1.0 - beta1) * gradient[i];
                variance[i] = beta2 * variance[i] + (1.0 - beta2) * gradient[i] * gradient[i];
                model.weights[i] -=
                    options.rate * (mean[i] / correction1) / ((variance[i] / correction2).sqrt() + epsilon);
            } else {
                mean[i] = MOMENTUM * mean[i] + gradient[i];
                model.weights[i] -= options.pattern_rate * mean[i];
            }
        }
        if epoch % 25 == 0 || epoch == options.epochs {
            let shipped = Model::from_weights(&model.rounded(options.phase), options.phases);
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
        weights: model.rounded(options.phase),
        scale,
        train_rows: train.len(),
        validation_rows: validation.len(),
        classic_validation,
        start_validation,
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
        let samples = SelfPlay::classic(12, 3, 2_000, 2).run(&mut std::io::sink());
        for (lambda, phases, phase) in
            [(0.0, 1, Phase::RowsToGo), (0.7, 1, Phase::Pieces), (0.0, 2, Phase::RowsToGo), (0.0, 2, Phase::Pieces)]
        {
            let fitted = fit(
                &samples,
                FitOptions {
                    epochs: 50,
                    rate: 1.0,
                    pattern_rate: 1e5,
                    regularisation: 0.0,
                    lambda,
                    td: 0.0,
                    phases,
                    phase,
                    drawish: false,
                },
                None,
                &mut std::io::sink(),
            );
            assert_eq!((fitted.weights.is_phased(), fitted.weights.phase), (phases == 2, phase));
            assert!(fitted.validation_rows > 0 && fitted.train_rows > fitted.validation_rows);
            assert!(fitted.fitted_validation <= fitted.classic_validation);
            assert!(fitted.fitted_train.is_finite());
            assert!((10.0..=2_000.0).contains(&fitted.scale));
            assert!(Weights::read(&fitted.weights.encode()).unwrap() == fitted.weights);
            assert_eq!(fitted.start_validation, fitted.classic_validation);
        }
    }

    /// Through the division, a row scores as the learned evaluation does
    /// (up to its two roundings), and without it as the weights sum.
    #[test]
    fn through_the_drawish_division_a_row_scores_as_the_evaluation_does() {
        use crate::engine::eval::{evaluate_with, Evaluation};
        use crate::engine::Position;
        let model = Model::from_weights(Weights::shipped(), 2);
        for (fen, divisor) in [
            ("W:WK46,30,31,32,33:BK5,18,19,20", 2.0),
            ("W:WK46,30,31:BK5,18", 8.0),
            ("W:W27,28,32,33,37,38,39,42,43,48:B3,7,8,12,13,16,17,18,19,23", 1.0),
        ] {
            let position = Position::from_fen(fen).unwrap();
            let sample = Sample { game: 1, position, white_result: 0.5, white_score: None };
            let (plain, through) = (Row::of(&sample, Phase::Pieces, false), Row::of(&sample, Phase::Pieces, true));
            let sum = model.sum(&through);
            assert_eq!(model.score(&plain), sum, "{fen}");
            assert_eq!(through.divisor(sum), divisor, "{fen}: {sum}");
            let evaluation = evaluate_with(Evaluation::Learned, &position, 0) as f64;
            assert!((model.score(&through) - evaluation).abs() < 2.0, "{fen}: {} {evaluation}", model.score(&through));
        }
    }

    /// Carried on from weights fitted before, the fit starts where they
    /// stand and keeps them unless an epoch does better.
    #[test]
    fn a_fit_from_given_weights_starts_from_them() {
        let samples = SelfPlay::classic(12, 3, 2_000, 2).run(&mut std::io::sink());
        let options = FitOptions {
            epochs: 50,
            rate: 1.0,
            pattern_rate: 1e5,
            regularisation: 0.0,
            lambda: 0.0,
            td: 0.0,
            phases: 2,
            phase: Phase::Pieces,
            drawish: false,
        };
        let first = fit(&samples, options, None, &mut std::io::sink());
        let again = fit(&samples, FitOptions { epochs: 25, ..options }, Some(&first.weights), &mut std::io::sink());
        assert!((again.start_validation - first.fitted_validation).abs() < 1e-12);
        assert!(again.start_validation < again.classic_validation);
        assert!(again.fitted_validation <= again.start_validation);
        // No epoch at all: the weights given, unchanged.
        let none = fit(&samples, FitOptions { epochs: 0, ..options }, Some(&first.weights), &mut std::io::sink());
        assert!(none.weights == first.weights);
    }

    fn row(result: f32, score: Option<i16>) -> Row {
        Row {
            terms: [0.0; TERMS],
            states: [(0, 0); TABLES],
            extras: [0.0; EXTRAS],
            opening: 1.0,
            result,
            score,
            divisors: [1.0; 2],
        }
    }

    #[test]
    fn the_target_blends_the_result_with_the_score() {
        let even = score_returns(&[row(1.0, Some(0))], &[0], 0.0, 200.0)[0];
        assert_eq!(even, 0.5);
        assert_eq!(row(1.0, Some(0)).target(0.0, even), 1.0);
        assert_eq!(row(1.0, Some(0)).target(1.0, even), 0.5);
        assert!((row(1.0, Some(0)).target(0.5, even) - 0.75).abs() < 1e-12);
        assert_eq!(row(1.0, None).target(1.0, even), 1.0, "no score: the result");
    }

    /// TD(λ): each return blends the row's own expected result with the
    /// next row's return, the last row's with its game's result; a row
    /// without a score passes on what follows it; games do not mix.
    #[test]
    fn score_returns_look_ahead_in_their_game_only() {
        let scale = 100.0;
        let p = |score: i16| expected(score as f64, scale);
        // Game 3 (won by White) then game 4 (lost by White).
        let rows = [row(1.0, Some(50)), row(1.0, None), row(1.0, Some(200)), row(0.0, Some(-100)), row(0.0, Some(0))];
        let games = [3, 3, 3, 4, 4];
        let own = score_returns(&rows, &games, 0.0, scale);
        assert_eq!(own, [p(50), p(200), p(200), p(-100), p(0)], "td 0: each row's own score (none: the next's)");
        let td = 0.5;
        let ahead = score_returns(&rows, &games, td, scale);
        let last_of_3 = 0.5 * p(200) + 0.5 * 1.0;
        assert!((ahead[2] - last_of_3).abs() < 1e-12);
        assert!((ahead[1] - last_of_3).abs() < 1e-12, "no score: passed on");
        assert!((ahead[0] - (0.5 * p(50) + 0.5 * last_of_3)).abs() < 1e-12);
        let last_of_4 = 0.5 * p(0);
        assert!((ahead[4] - last_of_4).abs() < 1e-12, "game 4 ends in its own result");
        assert!((ahead[3] - (0.5 * p(-100) + 0.5 * last_of_4)).abs() < 1e-12);
        let results = score_returns(&rows, &games, 1.0, scale);
        assert_eq!(results, [1.0, 1.0, 1.0, 0.0, 0.0], "td 1: the results");
    }

    #[test]
    fn the_scale_fitted_is_the_one_the_results_follow() {
        // Results drawn so that White wins with probability expected(score, 150).
        let model = Model::classic(1);
        let mut rows = Vec::new();
        for men in -3i32..=3 {
            let p = expected(100.0 * men as f64, 150.0);
            for k in 0..1000 {
                let mut terms = [0.0; TERMS];
                terms[0] = men as f32;
                let result = if (k as f64 + 0.5) / 1000.0 < p { 1.0 } else { 0.0 };
                rows.push(Row {
                    terms,
                    states: [(0, 0); TABLES],
                    extras: [0.0; EXTRAS],
                    opening: 1.0,
                    result,
                    score: None,
                    divisors: [1.0; 2],
                });
            }
        }
        let rows: Vec<&Row> = rows.iter().collect();
        let scale = best_scale(&model, &rows);
        assert!((scale - 150.0).abs() < 5.0, "{scale}");
    }
}
