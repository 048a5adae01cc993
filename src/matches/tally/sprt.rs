//! The sequential probability ratio test as fastchess 1.8.2 runs it: `--sprt elo0=A
//! elo1=B alpha=X beta=Y [model=normalized|logistic]`, the generalized log-likelihood
//! ratio (LLR) of H1 (the Elo difference is `elo1`) against H0 (it is `elo0`) from the
//! pentanomial counts of game pairs or the trinomial counts of unpaired games, and its
//! bounds `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`.
//!
//! The LLR follows fastchess's `SPRT::getLLR` step by step (the same regularization of
//! empty classes, the same ITP root finder with the same tolerances and the same ten
//! iterations of the normalized model), so it matches fastchess's to rounding. It is
//! always finite: an empty class counts as 0.001, so even no games give an LLR near 0.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use thiserror::Error;

use crate::launch::key_value::{self, KeyValueError};
use crate::matches::tally::counts::{Counts, PairCounts, Score};

/// How `elo0` and `elo1` are read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SprtModel {
    /// Normalized Elo (nElo), fastchess's default (and fishtest's).
    #[default]
    Normalized,
    /// Logistic Elo, the Elo the statistics report (`-400 log10(1/score - 1)`).
    Logistic,
}

impl fmt::Display for SprtModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtModel::Normalized => "normalized",
            SprtModel::Logistic => "logistic",
        })
    }
}

impl FromStr for SprtModel {
    type Err = SprtError;

    fn from_str(text: &str) -> Result<Self, SprtError> {
        match text {
            "normalized" => Ok(SprtModel::Normalized),
            "logistic" => Ok(SprtModel::Logistic),
            _ => Err(SprtError::BadModel(text.to_owned())),
        }
    }
}

/// Why a `--sprt` specification is rejected.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SprtError {
    /// A word that is not `KEY=VALUE`.
    #[error("--sprt: '{0}' is not KEY=VALUE (keys: elo0, elo1, alpha, beta, model)")]
    NotKeyValue(String),
    /// A key fastchess's `-sprt` does not have.
    #[error("--sprt: unknown key '{0}' (keys: elo0, elo1, alpha, beta, model)")]
    UnknownKey(String),
    /// A key given twice.
    #[error("--sprt: {0} is given twice")]
    Duplicate(String),
    /// A value that is not a finite number.
    #[error("--sprt: {key}={value}: not a finite number")]
    BadNumber {
        /// The key.
        key: &'static str,
        /// The value as given.
        value: String,
    },
    /// A model other than `normalized` and `logistic`.
    #[error(
        "--sprt: model={0}: the model is normalized (the default) or logistic (fastchess's bayesian model is trinomial-only and not offered)"
    )]
    BadModel(String),
    /// A required key is missing.
    #[error("--sprt: {0}= is missing (give elo0, elo1, alpha and beta)")]
    Missing(&'static str),
    /// `elo0` is not below `elo1`.
    #[error("--sprt: elo0 ({elo0}) must be less than elo1 ({elo1})")]
    EloOrder {
        /// The given `elo0`.
        elo0: f64,
        /// The given `elo1`.
        elo1: f64,
    },
    /// `alpha` or `beta` is not strictly between 0 and 1.
    #[error("--sprt: {key}={value} must be between 0 and 1 (exclusive)")]
    OutOfRange {
        /// `alpha` or `beta`.
        key: &'static str,
        /// The given value.
        value: f64,
    },
    /// `alpha + beta` is 1 or more (the bounds would cross).
    #[error("--sprt: alpha + beta ({0}) must be less than 1")]
    ErrorSum(f64),
}

/// An SPRT's hypotheses, error rates and model; built by [`SprtConfig::new`] or
/// [`parse_sprt`], which check it as fastchess does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtConfig {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    model: SprtModel,
}

/// What an SPRT concludes at an LLR (fastchess's `SPRT::getResult`). Shown and
/// serialized (`--json`'s `sprt`) in words: `H0 accepted`, `H1 accepted`, `inconclusive`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum SprtDecision {
    /// The LLR is at or below the lower bound: H0 (Elo = `elo0`) is accepted.
    #[serde(rename = "H0 accepted")]
    AcceptH0,
    /// The LLR is at or above the upper bound: H1 (Elo = `elo1`) is accepted.
    #[serde(rename = "H1 accepted")]
    AcceptH1,
    /// Neither bound is reached: play on.
    #[serde(rename = "inconclusive")]
    Continue,
}

impl fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
            SprtDecision::Continue => "inconclusive",
        })
    }
}

impl SprtConfig {
    /// A checked configuration: `elo0 < elo1`, `alpha` and `beta` in (0, 1) and
    /// `alpha + beta < 1` (fastchess's `SPRT::isValid`), all finite.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: SprtModel,
    ) -> Result<Self, SprtError> {
        for (key, value) in [
            ("elo0", elo0),
            ("elo1", elo1),
            ("alpha", alpha),
            ("beta", beta),
        ] {
            if !value.is_finite() {
                return Err(SprtError::BadNumber {
                    key,
                    value: value.to_string(),
                });
            }
        }
        if elo0 >= elo1 {
            return Err(SprtError::EloOrder { elo0, elo1 });
        }
        for (key, value) in [("alpha", alpha), ("beta", beta)] {
            if value <= 0.0 || value >= 1.0 {
                return Err(SprtError::OutOfRange { key, value });
            }
        }
        if alpha + beta >= 1.0 {
            return Err(SprtError::ErrorSum(alpha + beta));
        }
        Ok(SprtConfig {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// H0's Elo difference.
    pub fn elo0(&self) -> f64 {
        self.elo0
    }

    /// H1's Elo difference.
    pub fn elo1(&self) -> f64 {
        self.elo1
    }

    /// The probability of accepting H1 when H0 holds.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// The probability of accepting H0 when H1 holds.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// How `elo0` and `elo1` are read.
    pub fn model(&self) -> SprtModel {
        self.model
    }

    /// The lower bound, `ln(beta / (1 - alpha))`.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound, `ln((1 - beta) / alpha)`.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The decision at `llr`: H1 at or above the upper bound, H0 at or below the lower.
    pub fn decision(&self, llr: f64) -> SprtDecision {
        if llr >= self.upper_bound() {
            SprtDecision::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    /// How far `llr` has gone towards the bound on its side, as fastchess prints it in
    /// percent (`LLR: 2.25 (76.4%)`): `llr / upper` when `llr >= 0`, else
    /// `-llr / lower` (which fastchess leaves negative).
    #[cfg(test)]
    pub fn fraction(&self, llr: f64) -> f64 {
        if llr >= 0.0 {
            llr / self.upper_bound()
        } else {
            -llr / self.lower_bound()
        }
    }

    /// The LLR of `counts`: pentanomial for pairs, trinomial for unpaired games.
    pub fn llr(&self, counts: &Counts) -> f64 {
        match counts {
            Counts::Games(score) => self.llr_trinomial(score),
            Counts::Pairs(pairs) => self.llr_pentanomial(pairs),
        }
    }

    /// The LLR from the W/D/L of unpaired games.
    pub fn llr_trinomial(&self, score: &Score) -> f64 {
        let l = regularize(score.losses);
        let d = regularize(score.draws);
        let w = regularize(score.wins);
        let total = l + d + w;
        let probs = [l / total, d / total, w / total];
        let scores = [0.0, 0.5, 1.0];
        self.llr_of(
            &Sample {
                total,
                scores,
                probs,
            },
            1.0,
        )
    }

    /// The LLR from the pentanomial counts of game pairs.
    pub fn llr_pentanomial(&self, pairs: &PairCounts) -> f64 {
        let ll = regularize(pairs.ll);
        let ld = regularize(pairs.ld);
        let wl_dd = regularize(pairs.dd.saturating_add(pairs.wl));
        let wd = regularize(pairs.wd);
        let ww = regularize(pairs.ww);
        let total = ww + wd + wl_dd + ld + ll;
        let probs = [
            ll / total,
            ld / total,
            wl_dd / total,
            wd / total,
            ww / total,
        ];
        let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
        // nElo is per game: a pair's spread is sqrt 2 times a game's.
        self.llr_of(
            &Sample {
                total,
                scores,
                probs,
            },
            std::f64::consts::SQRT_2,
        )
    }

    /// The LLR of `sample` under this SPRT's model; `nelo_factor` turns nElo per game into
    /// the sample's unit (1 for games, sqrt 2 for pairs).
    fn llr_of<const N: usize>(&self, sample: &Sample<N>, nelo_factor: f64) -> f64 {
        match self.model {
            SprtModel::Normalized => {
                let t0 = nelo_factor * self.elo0 / nelo_scale();
                let t1 = nelo_factor * self.elo1 / nelo_scale();
                llr_normalized(sample, t0, t1)
            }
            SprtModel::Logistic => llr_logistic(
                sample,
                logistic_elo_to_score(self.elo0),
                logistic_elo_to_score(self.elo1),
            ),
        }
    }
}

/// Parses `--sprt`'s words, `elo0=A elo1=B alpha=X beta=Y [model=normalized|logistic]`
/// in any order (a word may also hold several, separated by spaces). The four numbers are
/// required; the model defaults to `normalized`, as in fastchess.
pub fn parse_sprt<I, S>(words: I) -> Result<SprtConfig, SprtError>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    const KEYS: &[&str] = &["elo0", "elo1", "alpha", "beta", "model"];
    let words: Vec<S> = words.into_iter().collect();
    let pairs = key_value::read("--sprt", KEYS, &words).map_err(|err| match err {
        KeyValueError::NotKeyValue { word, .. } => SprtError::NotKeyValue(word),
        KeyValueError::UnknownKey { key, .. } => SprtError::UnknownKey(key),
        KeyValueError::Duplicate { key, .. } => SprtError::Duplicate(key.to_owned()),
    })?;
    let mut numbers: [Option<f64>; 4] = [None; 4];
    let mut model = SprtModel::default();
    for (key, value) in pairs {
        match KEYS.iter().position(|known| *known == key) {
            Some(index @ 0..4) => {
                let number = value
                    .parse::<f64>()
                    .ok()
                    .filter(|number| number.is_finite());
                numbers[index] = Some(number.ok_or_else(|| SprtError::BadNumber {
                    key,
                    value: value.to_owned(),
                })?);
            }
            // `model`, the last key.
            _ => model = value.parse::<SprtModel>()?,
        }
    }
    let [elo0, elo1, alpha, beta] = [0, 1, 2, 3].map(|index| numbers[index].ok_or(KEYS[index]));
    SprtConfig::new(
        elo0.map_err(SprtError::Missing)?,
        elo1.map_err(SprtError::Missing)?,
        alpha.map_err(SprtError::Missing)?,
        beta.map_err(SprtError::Missing)?,
        model,
    )
}

/// `800 / ln 10`.
fn nelo_scale() -> f64 {
    800.0 / std::f64::consts::LN_10
}

/// An empty class counts as 0.001 game (pair), so that no probability is zero.
fn regularize(count: u32) -> f64 {
    if count == 0 { 1e-3 } else { f64::from(count) }
}

/// The expected score at a logistic Elo difference.
fn logistic_elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

fn mean<const N: usize>(x: [f64; N], p: [f64; N]) -> f64 {
    let mut result = 0.0;
    for i in 0..N {
        result += x[i] * p[i];
    }
    result
}

fn mean_and_variance<const N: usize>(x: [f64; N], p: [f64; N]) -> (f64, f64) {
    let mu = mean(x, p);
    let mut var = 0.0;
    for i in 0..N {
        var += p[i] * (x[i] - mu) * (x[i] - mu);
    }
    (mu, var)
}

/// The ITP root finder (I. F. D. Oliveira and R. H. C. Takahashi, ACM TOMS 47(1), 2021)
/// exactly as fastchess codes it, bracket orientation and all.
#[allow(clippy::too_many_arguments)]
fn itp(
    f: impl Fn(f64) -> f64,
    mut a: f64,
    mut b: f64,
    mut f_a: f64,
    mut f_b: f64,
    k_1: f64,
    k_2: f64,
    n_0: f64,
    epsilon: f64,
) -> f64 {
    if f_a > 0.0 {
        std::mem::swap(&mut a, &mut b);
        std::mem::swap(&mut f_a, &mut f_b);
    }
    let n_half = ((b - a).abs() / (2.0 * epsilon)).log2().ceil();
    let n_max = n_half + n_0;
    let mut i = 0u32;
    while (b - a).abs() > 2.0 * epsilon {
        let x_half = (a + b) / 2.0;
        let r = epsilon * 2f64.powf(n_max - f64::from(i)) - (b - a) / 2.0;
        let delta = k_1 * (b - a).powf(k_2);
        let x_f = (f_b * a - f_a * b) / (f_b - f_a);
        let sigma = (x_half - x_f) / (x_half - x_f).abs();
        let x_t = if delta <= (x_half - x_f).abs() {
            x_f + sigma * delta
        } else {
            x_half
        };
        let x_itp = if (x_t - x_half).abs() <= r {
            x_t
        } else {
            x_half - sigma * r
        };
        let f_itp = f(x_itp);
        if f_itp == 0.0 {
            a = x_itp;
            b = x_itp;
        } else if f_itp.is_sign_negative() {
            a = x_itp;
            f_a = f_itp;
        } else {
            b = x_itp;
            f_b = f_itp;
        }
        i = i.saturating_add(1);
    }
    (a + b) / 2.0
}

/// The `theta` of the maximum-likelihood distribution `probs_i / (1 + theta phi_i)`: the
/// root of `sum_i probs_i phi_i / (1 + theta phi_i)` between `-1 / max phi` and
/// `-1 / min phi`, found by ITP with fastchess's settings to within `epsilon`.
fn mle_theta<const N: usize>(probs: [f64; N], phi: [f64; N], epsilon: f64) -> f64 {
    let u = phi.iter().copied().fold(f64::INFINITY, f64::min);
    let v = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    itp(
        |x| {
            let mut result = 0.0;
            for i in 0..N {
                result += probs[i] * phi[i] / (1.0 + x * phi[i]);
            }
            result
        },
        -1.0 / v,
        -1.0 / u,
        f64::INFINITY,
        f64::NEG_INFINITY,
        0.1,
        2.0,
        0.99,
        epsilon,
    )
}

/// The LLR of expected scores `s0` against `s1`: the maximum-likelihood distributions
/// with those means (Van den Bergh, "Comparing the approximations for the generalized log
/// likelihood ratio of a multinomial distribution", Proposition 1.1).
fn llr_logistic<const N: usize>(sample: &Sample<N>, s0: f64, s1: f64) -> f64 {
    let Sample { scores, probs, .. } = *sample;
    let mle = |s: f64| -> [f64; N] {
        let phi: [f64; N] = std::array::from_fn(|i| scores[i] - s);
        let theta = mle_theta(probs, phi, 1e-3);
        std::array::from_fn(|i| probs[i] / (1.0 + theta * phi[i]))
    };
    sample.log_ratio(mle(s0), mle(s1))
}

/// The LLR of normalized Elo `t0` against `t1` (in units of `(mu - 0.5) / sigma`): the
/// maximum-likelihood distributions by fastchess's ten fixed-point iterations (Van den
/// Bergh, "Comments on normalized Elo", section 4.1).
fn llr_normalized<const N: usize>(sample: &Sample<N>, t0: f64, t1: f64) -> f64 {
    let Sample { scores, probs, .. } = *sample;
    let mle = |mu_ref: f64, t_star: f64| -> [f64; N] {
        let theta_epsilon = 1e-7;
        let mle_epsilon = 1e-4;
        let mut p = [1.0 / N as f64; N];
        for _ in 0..10 {
            let (mu, var) = mean_and_variance(scores, p);
            let sigma = var.sqrt();
            let phi: [f64; N] = std::array::from_fn(|i| {
                let a_i = scores[i];
                a_i - mu_ref
                    - 0.5 * t_star * sigma * (1.0 + ((a_i - mu) / sigma) * ((a_i - mu) / sigma))
            });
            let theta = mle_theta(probs, phi, theta_epsilon);
            let mut max_diff = 0.0f64;
            for i in 0..N {
                let new_p = probs[i] / (1.0 + theta * phi[i]);
                max_diff = max_diff.max((new_p - p[i]).abs());
                p[i] = new_p;
            }
            if max_diff < mle_epsilon {
                break;
            }
        }
        p
    };
    sample.log_ratio(mle(0.5, t0), mle(0.5, t1))
}

/// A sample of `total` games (or pairs) scoring `scores`, with the (regularized)
/// frequencies `probs`.
#[derive(Clone, Copy)]
struct Sample<const N: usize> {
    total: f64,
    scores: [f64; N],
    probs: [f64; N],
}

impl<const N: usize> Sample<N> {
    /// `total * sum_i probs_i (ln p1_i - ln p0_i)`.
    fn log_ratio(&self, p0: [f64; N], p1: [f64; N]) -> f64 {
        let lpr: [f64; N] = std::array::from_fn(|i| p1[i].ln() - p0[i].ln());
        self.total * mean(lpr, self.probs)
    }
}

#[cfg(test)]
#[path = "sprt_tests.rs"]
mod tests;
