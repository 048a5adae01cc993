//! `--resign` and `--draw`: the adjudication rules as the user types them, in cutechess-cli's
//! words (`-resign movecount=N score=CP [twosided=true]`, `-draw movenumber=N movecount=N
//! score=CP`), read with the one `KEY=VALUE` reader. The game's
//! [`Adjudicator`](crate::matches::game::referee::Adjudicator) applies them.

use crate::launch::key_value::{self, KeyValueError};

/// `--resign movecount=N score=CP [twosided=true]`, as cutechess-cli's `-resign`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves of the losing side's score at or below `-score`.
    pub move_count: u32,
    /// Centipawns below zero.
    pub score: i64,
    /// The winning side's score must also be at or above `score` for `move_count` moves.
    pub two_sided: bool,
}

/// `--draw movenumber=N movecount=N score=CP`, as cutechess-cli's `-draw`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawRule {
    /// Full moves played before a draw can be adjudicated.
    pub move_number: u32,
    /// Consecutive moves (of each side) with both scores within `score` of zero.
    pub move_count: u32,
    /// Centipawns from zero.
    pub score: i64,
}

/// Why `--resign` or `--draw` cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AdjudicationError {
    /// Not `KEY=VALUE` words with the option's keys.
    #[error(transparent)]
    Words(#[from] KeyValueError),
    /// A key the rule needs is not given.
    #[error("{flag}: {key}= is missing")]
    Missing {
        /// `--resign` or `--draw`.
        flag: &'static str,
        /// The key.
        key: &'static str,
    },
    /// A value the key does not take.
    #[error("{flag}: {key}={value}: not {what}")]
    BadValue {
        /// `--resign` or `--draw`.
        flag: &'static str,
        /// The key.
        key: &'static str,
        /// The value as given.
        value: String,
        /// What the key takes.
        what: &'static str,
    },
}

/// The value of `key` among `pairs`, read as `what` (for the message).
fn number<T: std::str::FromStr>(
    flag: &'static str,
    pairs: &[(&'static str, &str)],
    key: &'static str,
    what: &'static str,
) -> Result<T, AdjudicationError> {
    let value = key_value::value(pairs, key).ok_or(AdjudicationError::Missing { flag, key })?;
    value.parse().map_err(|_| AdjudicationError::BadValue {
        flag,
        key,
        value: value.to_owned(),
        what,
    })
}

/// The `score=` of `--resign` or `--draw`: centipawns, 0 or more.
fn centipawns(
    flag: &'static str,
    pairs: &[(&'static str, &str)],
) -> Result<u32, AdjudicationError> {
    number(
        flag,
        pairs,
        "score",
        "a whole number of centipawns, 0 or more",
    )
}

impl ResignRule {
    /// Reads `--resign`'s words.
    pub fn parse(words: &[String]) -> Result<ResignRule, AdjudicationError> {
        const FLAG: &str = "--resign";
        let pairs = key_value::read(FLAG, &["movecount", "score", "twosided"], words)?;
        let positive = "a positive whole number";
        let move_count = number(FLAG, &pairs, "movecount", positive)?;
        if move_count == 0 {
            return Err(AdjudicationError::BadValue {
                flag: FLAG,
                key: "movecount",
                value: "0".to_owned(),
                what: positive,
            });
        }
        let score = centipawns(FLAG, &pairs)?;
        let two_sided = match key_value::value(&pairs, "twosided") {
            None => false,
            Some(value) => key_value::one_of(value, &[("true", true), ("false", false)])
                .ok_or_else(|| AdjudicationError::BadValue {
                    flag: FLAG,
                    key: "twosided",
                    value: value.to_owned(),
                    what: "true or false",
                })?,
        };
        Ok(ResignRule {
            move_count,
            score: i64::from(score),
            two_sided,
        })
    }
}

impl DrawRule {
    /// Reads `--draw`'s words.
    pub fn parse(words: &[String]) -> Result<DrawRule, AdjudicationError> {
        const FLAG: &str = "--draw";
        let pairs = key_value::read(FLAG, &["movenumber", "movecount", "score"], words)?;
        let move_number = number(FLAG, &pairs, "movenumber", "a whole number, 0 or more")?;
        let move_count = number(FLAG, &pairs, "movecount", "a whole number, 0 or more")?;
        let score = centipawns(FLAG, &pairs)?;
        Ok(DrawRule {
            move_number,
            move_count,
            score: i64::from(score),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        vec![text.to_owned()]
    }

    #[test]
    fn resign_and_draw_rules_are_read_and_bad_values_named() {
        assert_eq!(
            ResignRule::parse(&words("movecount=3 score=500 twosided=true")).unwrap(),
            ResignRule {
                move_count: 3,
                score: 500,
                two_sided: true
            }
        );
        assert_eq!(
            DrawRule::parse(&words("movenumber=40 movecount=8 score=10")).unwrap(),
            DrawRule {
                move_number: 40,
                move_count: 8,
                score: 10
            }
        );
        for (text, message) in [
            ("movecount=x score=5", "movecount=x"),
            ("movecount=3", "score= is missing"),
            ("movecount=3 score=5 twosided=yes", "twosided=yes"),
            ("movecount=3 score=5 foo=1", "unknown key 'foo'"),
            ("movecount=0 score=5", "movecount=0"),
            ("movecount=3 score=-5", "score=-5"),
            ("movecount", "'movecount' is not KEY=VALUE"),
        ] {
            let err = ResignRule::parse(&words(text)).unwrap_err().to_string();
            assert!(err.contains(message), "{text}: {err}");
        }
        let err = DrawRule::parse(&words("movenumber=1 movecount=2"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("score= is missing"), "{err}");
    }
}
