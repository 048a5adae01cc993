//! The score of the first engine against the second, and the Elo difference it implies
//! with a 95% error margin (the normal approximation cutechess-cli uses).

use serde::Serialize;

/// Wins, draws and losses of the first engine.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Score {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

impl Score {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game, 0.0 to 1.0 (0.5 before any game).
    pub fn fraction(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(n),
        }
    }

    /// The Elo difference the score implies (infinite at 0% or 100%).
    pub fn elo_difference(&self) -> f64 {
        elo(self.fraction())
    }

    /// Half the width of the 95% confidence interval of the Elo difference (infinite
    /// when the interval reaches 0% or 100%).
    pub fn elo_margin(&self) -> f64 {
        let n = f64::from(self.games());
        if n == 0.0 {
            return f64::INFINITY;
        }
        let s = self.fraction();
        let variance = (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n;
        let deviation = (variance / n).sqrt();
        let (low, high) = (s - 1.96 * deviation, s + 1.96 * deviation);
        if low <= 0.0 || high >= 1.0 {
            return f64::INFINITY;
        }
        (elo(high) - elo(low)) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_and_lopsided_scores() {
        let even = Score {
            wins: 10,
            draws: 20,
            losses: 10,
        };
        assert_eq!(even.elo_difference(), 0.0);
        // s = 0.5, variance 0.125, sd = sqrt(0.125/40) = 0.0559; +-0.1096 -> +-76.9 Elo.
        assert!(
            (even.elo_margin() - 76.9).abs() < 0.5,
            "{}",
            even.elo_margin()
        );
        let ahead = Score {
            wins: 30,
            draws: 10,
            losses: 10,
        };
        // 70%: +147.2 Elo.
        assert!((ahead.elo_difference() - 147.2).abs() < 0.1);
        let sweep = Score {
            wins: 4,
            draws: 0,
            losses: 0,
        };
        assert!(sweep.elo_difference().is_infinite());
        assert!(sweep.elo_margin().is_infinite());
        assert!(Score::default().elo_margin().is_infinite());
    }
}
