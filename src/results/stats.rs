//! The statistics of per-start results: a start's wins, draws and losses from White's side
//! ([`Wdl`]), White's score with its Wilson interval, the score as Elo, Pearson's
//! chi-square test of homogeneity over the W/D/L-by-start table ([`homogeneity`]), and the
//! Bonferroni-corrected count of starts whose interval excludes the overall score.
//!
//! The interval is Wilson's score interval on the points (a draw half a point) out of the
//! games: never of zero width, never outside 0 to 1, even for one game or two (the normal
//! interval with the trinomial variance is zero-wide after two draws). A game's score
//! varies less than a coin's when there are draws, so it errs wide. It is the inversion of
//! the score test, so a start whose interval (at the corrected level) excludes the overall
//! score is one whose score test rejects it.

use serde::Serialize;
use statrs::distribution::{ChiSquared, ContinuousCDF, Normal};

/// Games from one start (or of one engine with one colour), from White's side unless said.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Wdl {
    /// Won by White.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost by White.
    pub losses: u64,
}

impl Wdl {
    /// All games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// White's points: a win 1, a draw one half.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// White's score, 0 to 1 (0.5 without games).
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            games => self.points() / games as f64,
        }
    }

    /// The share of draws, 0 to 1.
    pub fn draw_rate(&self) -> f64 {
        match self.games() {
            0 => 0.0,
            games => self.draws as f64 / games as f64,
        }
    }

    /// The same games from the other side.
    pub fn flipped(self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// Adds the games of `other`.
    pub fn add(&mut self, other: Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

/// The normal quantile for a two-sided interval of `confidence` (0.95 gives 1.96).
pub fn z_for(confidence: f64) -> f64 {
    let normal = Normal::standard();
    normal.inverse_cdf(1.0 - (1.0 - confidence) / 2.0)
}

/// Wilson's score interval for `points` out of `games` at normal quantile `z`.
pub fn wilson(points: f64, games: u64, z: f64) -> (f64, f64) {
    if games == 0 {
        return (0.0, 1.0);
    }
    let n = games as f64;
    let p = points / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// A score as an Elo difference (logistic), `None` at 0 or 1 (infinite).
pub fn elo(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| -400.0 * (1.0 / score - 1.0).log10())
}

/// Pearson's chi-square test of homogeneity on the starts × {win, draw, loss} table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Homogeneity {
    /// The statistic: the sum over cells of (observed - expected)² / expected.
    pub chi_square: f64,
    /// Degrees of freedom: (starts - 1) × (outcome columns with any game - 1).
    pub df: u64,
    /// The chance of a statistic this large if every start had the same W/D/L chances.
    pub p_value: f64,
    /// The share of cells whose expected count is under 5: above 20%, the chi-square
    /// distribution is a rough approximation of the statistic's.
    pub sparse_cells: f64,
    /// The same p-value by permutations: the games' outcomes shuffled among the games
    /// (every start keeps its number of games, the table its W/D/L totals), the share of
    /// shuffles whose statistic is at least the observed one ((hits + 1) / (shuffles + 1)).
    /// Sound however few games a start has.
    pub permutation_p: f64,
    /// Shuffles made: 2,000, fewer above 10,000 games (about 20 million game draws in all,
    /// at least 100 shuffles).
    pub permutations: u64,
}

impl Homogeneity {
    /// The p-value to read: the permutations' when over 20% of the cells expect under 5
    /// games, the chi-square distribution's otherwise.
    pub fn p(&self) -> f64 {
        if self.sparse_cells > 0.2 {
            self.permutation_p
        } else {
            self.p_value
        }
    }
}

/// The Pearson statistic of `rows` (counts per used column) against `columns` totals.
fn pearson(rows: &[[u64; 3]], columns: &[u64; 3], used: &[usize]) -> f64 {
    let total: u64 = columns.iter().sum();
    let mut chi_square = 0.0;
    for row in rows {
        let n: u64 = row.iter().sum();
        for &c in used {
            let expected = n as f64 * columns[c] as f64 / total as f64;
            let difference = row[c] as f64 - expected;
            chi_square += difference * difference / expected;
        }
    }
    chi_square
}

/// Shuffles made in one seeded run; runs go to the cores (rayon), each from its own seed,
/// so the p-value does not depend on the number of threads.
const SHUFFLES_PER_RUN: u64 = 50;

/// The share of `shuffles` permutations of the outcomes whose statistic reaches `observed`,
/// from fixed seeds (the same report every run).
fn permutation_p(
    rows: &[[u64; 3]],
    columns: &[u64; 3],
    used: &[usize],
    shuffles: u64,
    observed: f64,
) -> f64 {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    use rayon::prelude::*;
    let mut outcomes: Vec<u8> = Vec::new();
    for (c, &count) in columns.iter().enumerate() {
        outcomes.extend(std::iter::repeat_n(c as u8, count as usize));
    }
    let sizes: Vec<u64> = rows.iter().map(|row| row.iter().sum()).collect();
    let runs = shuffles.div_ceil(SHUFFLES_PER_RUN);
    let hits: u64 = (0..runs)
        .into_par_iter()
        .map(|run| {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(960 + run);
            let mut outcomes = outcomes.clone();
            let mut shuffled = vec![[0u64; 3]; rows.len()];
            let mut hits = 0u64;
            for _ in 0..SHUFFLES_PER_RUN {
                outcomes.shuffle(&mut rng);
                let mut at = 0;
                for (row, &size) in shuffled.iter_mut().zip(&sizes) {
                    *row = [0; 3];
                    for &outcome in &outcomes[at..at + size as usize] {
                        row[outcome as usize] += 1;
                    }
                    at += size as usize;
                }
                // A relative tolerance, so that a shuffle equal to the table counts despite
                // rounding.
                if pearson(&shuffled, columns, used) >= observed * (1.0 - 1e-9) {
                    hits += 1;
                }
            }
            hits
        })
        .sum();
    let shuffles = runs * SHUFFLES_PER_RUN;
    (hits + 1) as f64 / (shuffles + 1) as f64
}

/// The homogeneity test over `rows` (one per start), `None` with fewer than two starts or
/// a single outcome in every game. An outcome no game had (no loss at all) is left out of
/// the table, as a column of zeros has no expected count.
pub fn homogeneity(rows: &[Wdl]) -> Option<Homogeneity> {
    let cells = |row: &Wdl| [row.wins, row.draws, row.losses];
    let mut columns = [0u64; 3];
    for row in rows {
        for (total, count) in columns.iter_mut().zip(cells(row)) {
            *total += count;
        }
    }
    let used: Vec<usize> = (0..3).filter(|&c| columns[c] > 0).collect();
    let total: u64 = columns.iter().sum();
    if rows.len() < 2 || used.len() < 2 {
        return None;
    }
    let table: Vec<[u64; 3]> = rows.iter().map(cells).collect();
    let chi_square = pearson(&table, &columns, &used);
    let sparse = rows
        .iter()
        .flat_map(|row| {
            used.iter()
                .map(move |&c| row.games() as f64 * columns[c] as f64 / total as f64)
        })
        .filter(|&expected| expected < 5.0)
        .count();
    let permutations =
        (20_000_000 / total.max(1)).clamp(100, 2000) / SHUFFLES_PER_RUN * SHUFFLES_PER_RUN;
    let df = (rows.len() as u64 - 1) * (used.len() as u64 - 1);
    let p_value = ChiSquared::new(df as f64)
        .map(|distribution| distribution.sf(chi_square))
        .unwrap_or(f64::NAN);
    Some(Homogeneity {
        chi_square,
        df,
        p_value,
        sparse_cells: sparse as f64 / (rows.len() * used.len()) as f64,
        permutation_p: permutation_p(&table, &columns, &used, permutations, chi_square),
        permutations,
    })
}

/// The normal quantile of a Bonferroni-corrected 95% interval among `tests` intervals:
/// each at 1 - 0.05 / tests.
pub fn bonferroni_z(tests: usize) -> f64 {
    z_for(1.0 - 0.05 / tests.max(1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_the_textbook_values() {
        // 8 successes of 10 at z = 1.96: [0.4902, 0.9433] (Wilson 1927; Newcombe 1998, table I).
        let (low, high) = wilson(8.0, 10, 1.959964);
        assert!((low - 0.4902).abs() < 1e-4, "{low}");
        assert!((high - 0.9433).abs() < 1e-4, "{high}");
        // Two draws: not zero-wide.
        let (low, high) = wilson(1.0, 2, 1.96);
        assert!(low < 0.2 && high > 0.8, "{low} {high}");
    }

    #[test]
    fn elo_of_a_score() {
        assert!((elo(0.75).unwrap() - 190.85).abs() < 0.01);
        assert_eq!(elo(1.0), None);
        assert_eq!(elo(0.0), None);
        assert!((z_for(0.95) - 1.959964).abs() < 1e-6);
    }

    #[test]
    fn homogeneity_of_a_small_table() {
        // scipy.stats.chi2_contingency([[10, 5, 5], [5, 10, 5]]) gives 3.3333, df 2, p 0.1889.
        let rows = [
            Wdl {
                wins: 10,
                draws: 5,
                losses: 5,
            },
            Wdl {
                wins: 5,
                draws: 10,
                losses: 5,
            },
        ];
        let test = homogeneity(&rows).unwrap();
        assert!((test.chi_square - 3.3333).abs() < 1e-4, "{test:?}");
        assert_eq!(test.df, 2);
        assert!((test.p_value - 0.188876).abs() < 1e-5, "{test:?}");
        // 40 games: the permutation p-value near the chi-square one, not equal.
        assert!((test.permutation_p - 0.19).abs() < 0.06, "{test:?}");
        assert_eq!(test.permutations, 2000);
        assert_eq!(homogeneity(&rows[..1]), None);
    }
}
