//! What a match counts: one game's [`Outcome`], the W/D/L [`Score`] of the first engine,
//! game pairs in fastchess's classes ([`PairCounts`]) and which of the two is counted
//! ([`Counts`]). Read by the statistics ([`crate::matches::tally::stats`]) and the SPRT
//! ([`crate::matches::tally::sprt`]), which do not import each other's counts.

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

/// One game's result for the first engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The first engine won.
    Win,
    /// A draw.
    Draw,
    /// The first engine lost.
    Loss,
}

impl Score {
    /// Counts one more game.
    pub fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
    }
}

/// Game pairs (one opening played with each colour) counted by the first engine's two
/// results, in fastchess's six classes (a pair's order does not matter: WD and DW are
/// both `wd`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PairCounts {
    /// Both games lost (0 points of 2).
    pub ll: u32,
    /// A loss and a draw (0.5).
    pub ld: u32,
    /// A win and a loss (1).
    pub wl: u32,
    /// Two draws (1).
    pub dd: u32,
    /// A win and a draw (1.5).
    pub wd: u32,
    /// Both games won (2).
    pub ww: u32,
}

impl PairCounts {
    /// Counts one more pair from the first engine's results in its two games.
    pub fn add(&mut self, first: Outcome, second: Outcome) {
        use Outcome::{Draw, Loss, Win};
        let class = match (first, second) {
            (Loss, Loss) => &mut self.ll,
            (Loss, Draw) | (Draw, Loss) => &mut self.ld,
            (Win, Loss) | (Loss, Win) => &mut self.wl,
            (Draw, Draw) => &mut self.dd,
            (Win, Draw) | (Draw, Win) => &mut self.wd,
            (Win, Win) => &mut self.ww,
        };
        *class += 1;
    }

    /// Complete pairs counted.
    pub fn pairs(&self) -> u64 {
        [self.ll, self.ld, self.wl, self.dd, self.wd, self.ww]
            .iter()
            .map(|&count| u64::from(count))
            .sum()
    }

    /// The pentanomial counts worst first, as fastchess prints them (`Ptnml(0-2)`):
    /// LL, LD+DL, WL+DD, WD+DW, WW.
    pub fn pentanomial(&self) -> [u32; 5] {
        [
            self.ll,
            self.ld,
            self.wl.saturating_add(self.dd),
            self.wd,
            self.ww,
        ]
    }

    /// The wins, draws and losses of the games in these pairs.
    #[cfg(test)]
    pub fn score(&self) -> Score {
        let sum = |counts: [u32; 3]| counts.iter().fold(0u32, |a, &b| a.saturating_add(b));
        Score {
            wins: sum([self.ww.saturating_mul(2), self.wd, self.wl]),
            draws: sum([self.wd, self.dd.saturating_mul(2), self.ld]),
            losses: sum([self.wl, self.ld, self.ll.saturating_mul(2)]),
        }
    }
}

/// What was counted: the W/D/L of unpaired games (trinomial statistics), or complete game
/// pairs (pentanomial statistics, fastchess's default for two-game rounds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counts {
    /// Games counted one by one (fastchess's trinomial model, for unpaired games; the
    /// runner always plays pairs, so only the SPRT's tests against fastchess's figures
    /// build it). No dead-code allowance: `sp960 match`'s typed arguments reach it through
    /// `SprtConfig::llr`.
    Games(Score),
    /// Complete game pairs.
    Pairs(PairCounts),
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

    #[test]
    fn pairs_are_counted_worst_first() {
        use Outcome::{Draw, Loss, Win};
        let mut counts = PairCounts::default();
        for (first, second) in [
            (Loss, Loss),
            (Draw, Loss),
            (Loss, Draw),
            (Win, Loss),
            (Draw, Draw),
            (Loss, Win),
            (Win, Draw),
            (Win, Win),
            (Win, Win),
        ] {
            counts.add(first, second);
        }
        assert_eq!(counts.pentanomial(), [1, 2, 3, 1, 2]);
        assert_eq!(counts.pairs(), 9);
        assert_eq!((counts.wl, counts.dd), (2, 1));
        let score = counts.score();
        assert_eq!((score.wins, score.draws, score.losses), (7, 5, 6));
        let mut games = Score::default();
        for outcome in [Win, Draw, Loss, Win] {
            games.add(outcome);
        }
        assert_eq!((games.wins, games.draws, games.losses), (2, 1, 1));
    }
}
