//! The score of the first engine against the second, and the statistics it implies.
//!
//! - [`Score::elo_difference`] and [`Score::elo_margin`]: the short estimate the match
//!   table prints (the normal approximation cutechess-cli uses).
//! - [`match_stats`]: the statistics as fastchess 1.8.2 computes them, as pure functions
//!   of the counts: Elo with its 95% error, normalized Elo (nElo) with its error, LOS and
//!   draw ratio, from the trinomial W/D/L counts of unpaired games ([`trinomial_elo`]) or
//!   from the pentanomial counts of game pairs ([`pentanomial_elo`]), and the SPRT
//!   log-likelihood ratio ([`crate::matches::tally::sprt`]).
//!
//! Where fastchess computes a non-finite number (it prints `inf`, `-inf`, `nan` or
//! `-nan`), these functions return [`Undefined`] with the reason instead; every finite
//! value is fastchess's own (the unit tests compare with numbers printed by fastchess's
//! code). The cases, by reason:
//! - [`Undefined::NoGames`]: no game (pentanomial: no complete pair) yet, every value but
//!   the LLR (fastchess: `-nan` everywhere).
//! - [`Undefined::OneSided`]: a 100% or 0% score: Elo (fastchess `inf`/`-inf`) and its
//!   error (`-nan`).
//! - [`Undefined::IntervalBeyondRange`]: the 95% interval of the score reaches 0% or 100%
//!   (5 wins and a loss, or 1-1): the Elo error (fastchess `nan` or `inf`); the Elo
//!   itself is defined.
//! - [`Undefined::NoSpread`]: every game (every pair) scored the same, so the standard
//!   deviation nElo divides by is zero: nElo and its error (`inf`, `-inf`, `-nan`), and
//!   the LOS when that common score is exactly even (all draws: `-nan %`). A one-sided
//!   zero-spread sample keeps fastchess's LOS of 100% or 0%.
//! - [`Undefined::NoLostPairs`], [`Undefined::Unpaired`]: the pairs ratio.

use std::fmt;

use serde::{Serialize, Serializer};

use crate::matches::tally::counts::{Counts, PairCounts, Score};
use crate::matches::tally::sprt::{SprtConfig, SprtDecision};

/// Why a statistic has no finite value (see the module documentation for each case).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Undefined {
    /// No game (pentanomial: no complete game pair) counted yet.
    NoGames,
    /// The first engine scored 100% or 0%: the Elo difference is infinite.
    OneSided,
    /// The 95% interval of the score reaches 0% or 100%, so one end of the Elo interval is
    /// infinite: too few games.
    IntervalBeyondRange,
    /// Every game (pair) scored the same: no spread for the normalized Elo to divide by.
    NoSpread,
    /// Pairs ratio: no pair was lost (LD + LL = 0).
    NoLostPairs,
    /// Pairs ratio: the games are not paired.
    Unpaired,
}

impl fmt::Display for Undefined {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Undefined::NoGames => "no games yet",
            Undefined::OneSided => "one-sided score (100% or 0%)",
            Undefined::IntervalBeyondRange => "too few games (the interval reaches 0% or 100%)",
            Undefined::NoSpread => "every game has the same result",
            Undefined::NoLostPairs => "no lost pair",
            Undefined::Unpaired => "games not paired",
        })
    }
}

/// A statistic: its value, or why it has none.
pub type Stat = Result<f64, Undefined>;

/// `serde`: a defined statistic as its number, an undefined one as `null`.
pub(crate) fn defined_or_null<S: Serializer>(
    stat: &Stat,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match stat {
        Ok(value) => serializer.serialize_some(value),
        Err(_) => serializer.serialize_none(),
    }
}

/// Elo estimates from one sample, fastchess's `EloWDL` or `EloPentanomial`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    /// Points per game of the first engine, 0.0 to 1.0.
    pub score: Stat,
    /// Elo difference, first engine minus second: `-400 log10(1/score - 1)`.
    pub elo: Stat,
    /// Half the width of the 95% interval of `elo` (normal approximation of the score).
    pub elo_error: Stat,
    /// Normalized Elo: the score's distance from 50% in standard deviations of one game
    /// (of one pair divided by sqrt 2), times 800/ln 10.
    pub nelo: Stat,
    /// Half the width of the 95% interval of `nelo`.
    pub nelo_error: Stat,
    /// Likelihood of superiority: the probability, 0.0 to 1.0, that the first engine is
    /// the stronger (normal approximation).
    pub los: Stat,
}

/// fastchess's `CI95ZSCORE`.
const CI95_Z: f64 = 1.959963984540054;

/// `800 / ln 10`: Elo per unit of the logistic curve's slope.
fn nelo_scale() -> f64 {
    800.0 / std::f64::consts::LN_10
}

fn score_to_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The estimates from a score, its variance per game (pair) and the sample size, as
/// fastchess's `EloBase` subclasses compute them; `pair_factor` is 1 for games and 2 for
/// pairs (nElo is per game).
fn estimate(score: f64, variance: f64, sample: f64, pair_factor: f64) -> EloEstimate {
    let variance_per_sample = variance / sample;
    let upper = score + CI95_Z * variance_per_sample.sqrt();
    let lower = score - CI95_Z * variance_per_sample.sqrt();
    let nelo = |score: f64| (score - 0.5) / (pair_factor * variance).sqrt() * nelo_scale();
    let elo = score_to_elo(score);
    let elo_error = (score_to_elo(upper) - score_to_elo(lower)) / 2.0;
    let nelo_error = (nelo(upper) - nelo(lower)) / 2.0;
    let los = (1.0 - erf(-(score - 0.5) / (2.0 * variance_per_sample).sqrt())) / 2.0;
    let one_sided = score <= 0.0 || score >= 1.0;
    let defined = |value: f64, reason: Undefined| {
        if value.is_finite() {
            // `+ 0.0` turns fastchess's -0 (an even score's Elo) into 0.
            Ok(value + 0.0)
        } else {
            Err(reason)
        }
    };
    EloEstimate {
        score: Ok(score),
        elo: defined(elo, Undefined::OneSided),
        elo_error: defined(
            elo_error,
            if one_sided {
                Undefined::OneSided
            } else {
                Undefined::IntervalBeyondRange
            },
        ),
        nelo: defined(nelo(score), Undefined::NoSpread),
        nelo_error: defined(nelo_error, Undefined::NoSpread),
        los: defined(los, Undefined::NoSpread),
    }
}

const NO_GAMES: EloEstimate = EloEstimate {
    score: Err(Undefined::NoGames),
    elo: Err(Undefined::NoGames),
    elo_error: Err(Undefined::NoGames),
    nelo: Err(Undefined::NoGames),
    nelo_error: Err(Undefined::NoGames),
    los: Err(Undefined::NoGames),
};

/// Elo, nElo and LOS from the W/D/L of unpaired games (fastchess's `EloWDL`).
pub fn trinomial_elo(score: &Score) -> EloEstimate {
    let games = f64::from(score.wins) + f64::from(score.draws) + f64::from(score.losses);
    if games == 0.0 {
        return NO_GAMES;
    }
    let w = f64::from(score.wins) / games;
    let d = f64::from(score.draws) / games;
    let l = f64::from(score.losses) / games;
    let s = w + 0.5 * d;
    let variance = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * (0.0 - s).powi(2);
    estimate(s, variance, games, 1.0)
}

/// Elo, nElo and LOS from the pentanomial counts of game pairs (fastchess's
/// `EloPentanomial`): each pair is one sample of 0, 0.25, 0.5, 0.75 or 1 points per game.
pub fn pentanomial_elo(pairs: &PairCounts) -> EloEstimate {
    let total = pairs.pairs() as f64;
    if total == 0.0 {
        return NO_GAMES;
    }
    let ww = f64::from(pairs.ww) / total;
    let wd = f64::from(pairs.wd) / total;
    let wl = f64::from(pairs.wl) / total;
    let dd = f64::from(pairs.dd) / total;
    let ld = f64::from(pairs.ld) / total;
    let ll = f64::from(pairs.ll) / total;
    let s = ww + 0.75 * wd + 0.5 * (wl + dd) + 0.25 * ld;
    let variance = ww * (1.0 - s).powi(2)
        + wd * (0.75 - s).powi(2)
        + (wl + dd) * (0.5 - s).powi(2)
        + ld * (0.25 - s).powi(2)
        + ll * (0.0 - s).powi(2);
    estimate(s, variance, total, 2.0)
}

/// The statistics of a two-engine match, as fastchess prints them after each game pair;
/// the `stats` object of `sp960 match --json`. Undefined values serialize as `null`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchStats {
    /// Elo difference, first engine minus second.
    #[serde(serialize_with = "defined_or_null")]
    pub elo: Stat,
    /// Half the width of its 95% interval.
    #[serde(serialize_with = "defined_or_null")]
    pub elo_error: Stat,
    /// Normalized Elo.
    #[serde(serialize_with = "defined_or_null")]
    pub nelo: Stat,
    /// Half the width of its 95% interval.
    #[serde(serialize_with = "defined_or_null")]
    pub nelo_error: Stat,
    /// Likelihood of superiority of the first engine, 0.0 to 1.0 (fastchess prints a
    /// percentage).
    #[serde(serialize_with = "defined_or_null")]
    pub los: Stat,
    /// Draw ratio, 0.0 to 1.0 (fastchess prints a percentage): drawn games of all games,
    /// or, for pairs, as fastchess reports it, drawn pairs (WL + DD) of all pairs.
    #[serde(serialize_with = "defined_or_null")]
    pub draw_ratio: Stat,
    /// Pentanomial counts worst first: LL, LD+DL, WL+DD, WD+DW, WW (`null` when the games
    /// are not paired).
    pub pentanomial: Option<[u32; 5]>,
    /// Pairs ratio: pairs won (WW + WD) per pair lost (LD + LL).
    #[serde(serialize_with = "defined_or_null")]
    pub pairs_ratio: Stat,
    /// SPRT log-likelihood ratio (`null` without `--sprt`).
    pub llr: Option<f64>,
    /// SPRT lower bound, `ln(beta / (1 - alpha))`: H0 is accepted at or below it.
    pub llr_lower: Option<f64>,
    /// SPRT upper bound, `ln((1 - beta) / alpha)`: H1 is accepted at or above it.
    pub llr_upper: Option<f64>,
    /// The SPRT decision at `llr` (not serialized: it follows from the three numbers).
    #[serde(skip)]
    pub decision: Option<SprtDecision>,
}

/// The statistics of `counts`, with the SPRT of `sprt` if given: fastchess's numbers, or
/// [`Undefined`] where fastchess's would not be finite.
pub fn match_stats(counts: &Counts, sprt: Option<&SprtConfig>) -> MatchStats {
    let (estimate, draw_ratio, pentanomial, pairs_ratio) = match counts {
        Counts::Games(score) => {
            let games = f64::from(score.wins) + f64::from(score.draws) + f64::from(score.losses);
            let draw_ratio = if games == 0.0 {
                Err(Undefined::NoGames)
            } else {
                Ok(f64::from(score.draws) / games)
            };
            (
                trinomial_elo(score),
                draw_ratio,
                None,
                Err(Undefined::Unpaired),
            )
        }
        Counts::Pairs(pairs) => {
            let total = pairs.pairs() as f64;
            let won = f64::from(pairs.ww) + f64::from(pairs.wd);
            let lost = f64::from(pairs.ld) + f64::from(pairs.ll);
            let (draw_ratio, pairs_ratio) = if total == 0.0 {
                (Err(Undefined::NoGames), Err(Undefined::NoGames))
            } else {
                let drawn = f64::from(pairs.wl) + f64::from(pairs.dd);
                let pairs_ratio = if lost == 0.0 {
                    Err(Undefined::NoLostPairs)
                } else {
                    Ok(won / lost)
                };
                (Ok(drawn / total), pairs_ratio)
            };
            (
                pentanomial_elo(pairs),
                draw_ratio,
                Some(pairs.pentanomial()),
                pairs_ratio,
            )
        }
    };
    let llr = sprt.map(|sprt| sprt.llr(counts));
    MatchStats {
        elo: estimate.elo,
        elo_error: estimate.elo_error,
        nelo: estimate.nelo,
        nelo_error: estimate.nelo_error,
        los: estimate.los,
        draw_ratio,
        pentanomial,
        pairs_ratio,
        llr,
        llr_lower: sprt.map(SprtConfig::lower_bound),
        llr_upper: sprt.map(SprtConfig::upper_bound),
        decision: sprt.zip(llr).map(|(sprt, llr)| sprt.decision(llr)),
    }
}

/// The error function, to within a few units in the last place: a series for
/// |x| < 2.5, the continued fraction of erfc beyond (the standard library has no `erf`).
fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x < 0.0 {
        return -erf(-x);
    }
    if x >= 6.0 {
        // erfc(6) = 2.2e-17, less than half an ulp of 1.
        return 1.0;
    }
    let two_over_sqrt_pi = std::f64::consts::FRAC_2_SQRT_PI;
    if x < 2.5 {
        // erf x = 2/sqrt(pi) exp(-x^2) sum_n 2^n x^(2n+1) / (1*3*...*(2n+1)): all terms
        // positive, so no cancellation.
        let x2 = x * x;
        let (mut term, mut sum) = (x, x);
        let mut n = 0.0;
        while term > sum * 1e-17 {
            term *= 2.0 * x2 / (2.0 * n + 3.0);
            sum += term;
            n += 1.0;
        }
        return two_over_sqrt_pi * (-x2).exp() * sum;
    }
    // erfc x = exp(-x^2)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))), evaluated
    // with the modified Lentz method.
    let tiny = 1e-300;
    let (mut f, mut c, mut d) = (x, x, 0.0);
    for k in 1..500 {
        let a = f64::from(k) / 2.0;
        d = x + a * d;
        d = if d == 0.0 { tiny } else { d };
        c = x + a / c;
        c = if c == 0.0 { tiny } else { c };
        d = 1.0 / d;
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() <= f64::EPSILON {
            break;
        }
    }
    1.0 - (-x * x).exp() * two_over_sqrt_pi / 2.0 / f
}

#[cfg(test)]
#[path = "stats_tests.rs"]
mod tests;
