//! A match's score from its first player's side: wins, draws and losses,
//! the score with its 95 % interval, and the Elo difference these mean.

use std::fmt;

/// How a game of a match ended for the first player.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    Win,
    Draw,
    Loss,
}

impl Verdict {
    pub const fn word(self) -> &'static str {
        match self {
            Verdict::Win => "win",
            Verdict::Draw => "draw",
            Verdict::Loss => "loss",
        }
    }
}

/// The games of a match counted from the first player's side.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    pub fn add(&mut self, verdict: Verdict) {
        match verdict {
            Verdict::Win => self.wins += 1,
            Verdict::Draw => self.draws += 1,
            Verdict::Loss => self.losses += 1,
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The share of the points, 0 to 1 (a draw half a point); 0.5 before
    /// any game.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / n as f64
    }

    /// Half the width of the score's 95 % interval, from the spread of the
    /// games' results about the score.
    pub fn margin(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.5;
        }
        let score = self.score();
        let spread = (self.wins as f64 * (1.0 - score).powi(2)
            + self.draws as f64 * (0.5 - score).powi(2)
            + self.losses as f64 * score.powi(2))
            / n;
        1.96 * (spread / n).sqrt()
    }
}

/// The Elo difference a score means (a score of 0 or 1 read as 0.001 or
/// 0.999, which would otherwise be infinite).
pub fn elo(score: f64) -> f64 {
    // Adding 0 turns the -0 of an even score into 0, which prints as +0.
    -400.0 * (1.0 / score.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10() + 0.0
}

/// `W wins, D draws, L losses, score S% (95 % interval A–B %, Elo E, A to B)`.
impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (score, margin) = (self.score(), self.margin());
        let (low, high) = ((score - margin).max(0.0), (score + margin).min(1.0));
        write!(
            f,
            "{} wins, {} draws, {} losses, score {:.1}% (95 % interval {:.1}–{:.1} %, Elo {:+.0}, {:+.0} to {:+.0})",
            self.wins,
            self.draws,
            self.losses,
            score * 100.0,
            low * 100.0,
            high * 100.0,
            elo(score),
            elo(score - margin),
            elo(score + margin),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_score_its_interval_and_elo() {
        // (wins, draws, losses) → score %, interval %, Elo, as printed.
        for ((wins, draws, losses), line) in [
            ((1, 4, 15), "1 wins, 4 draws, 15 losses, score 15.0% (95 % interval 2.8–27.2 %, Elo -301, -616 to -171)"),
            ((10, 0, 10), "10 wins, 0 draws, 10 losses, score 50.0% (95 % interval 28.1–71.9 %, Elo +0, -163 to +163)"),
            ((0, 20, 0), "0 wins, 20 draws, 0 losses, score 50.0% (95 % interval 50.0–50.0 %, Elo +0, +0 to +0)"),
            (
                (3, 0, 0),
                "3 wins, 0 draws, 0 losses, score 100.0% (95 % interval 100.0–100.0 %, Elo +1200, +1200 to +1200)",
            ),
        ] {
            let tally = Tally { wins, draws, losses };
            assert_eq!(tally.to_string(), line);
        }
    }

    #[test]
    fn verdicts_add_up() {
        let mut tally = Tally::default();
        assert_eq!(tally.score(), 0.5);
        for verdict in [Verdict::Win, Verdict::Draw, Verdict::Draw, Verdict::Loss, Verdict::Loss, Verdict::Loss] {
            tally.add(verdict);
        }
        assert_eq!(tally, Tally { wins: 1, draws: 2, losses: 3 });
        assert!((tally.score() - 1.0 / 3.0).abs() < 1e-12);
    }
}
