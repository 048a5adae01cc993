//! Values typed on the command line, read into a method's procedure: one die or throw per
//! argument (`die 3 5 1`, `coins TH HTT`), tosses as letters (`coin THTTHHHHTT`, in one
//! argument or several), or named dice of one throw in any order (`polyhedral d8=3 d4=1
//! d6=2 d20=17`, `d10 light=1 dark=2 queen=3 knights=4`). Every refusal names the value,
//! its position and why.

use thiserror::Error;

use super::registry::Values;
use super::{Method, Procedure, RollOutcome, RollStep};

/// Why the values give no start (a usage error: exit 2).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RollError {
    /// A value the method cannot read.
    #[error("roll {method}: value {position} ('{text}'): {why}")]
    BadValue {
        /// The method.
        method: Method,
        /// 1-based position among the values.
        position: usize,
        /// The value as given.
        text: String,
        /// Why it is refused.
        why: String,
    },
    /// A die of the throw not given.
    #[error("roll {method}: the {name} is missing (give {expected})")]
    Missing {
        /// The method.
        method: Method,
        /// The die's name.
        name: &'static str,
        /// The dice the method reads.
        expected: String,
    },
    /// The values ran out before the start was complete.
    #[error(
        "roll {method}: {given} given, but the start is not complete; the next {label} is for {decides}"
    )]
    TooFew {
        /// The method.
        method: Method,
        /// `5 values`.
        given: String,
        /// What the next value is called.
        label: &'static str,
        /// What it would decide.
        decides: String,
    },
    /// A value after the start was complete.
    #[error(
        "roll {method}: value {position} ('{text}'): one too many, the start was complete before it"
    )]
    TooMany {
        /// The method.
        method: Method,
        /// 1-based position among the values.
        position: usize,
        /// The value as given.
        text: String,
    },
    /// No values, and no terminal to ask for them.
    #[error(
        "roll {0}: values are needed: give them after the method, or run sp960 roll in a terminal to be asked for each"
    )]
    NoValues(Method),
}

/// Reads `values` into `method`'s procedure: the trace and the start.
pub fn run(method: Method, values: &[String]) -> Result<RollOutcome, RollError> {
    if values.is_empty() {
        return Err(RollError::NoValues(method));
    }
    if method.is_named() {
        named(method, values)
    } else {
        sequential(method, values)
    }
}

/// One value to feed: where it came from and the text the device reads.
struct Token<'a> {
    position: usize,
    whole: &'a str,
    /// For `coin`: which letter of the argument (1-based), and the letter.
    toss: Option<(usize, String)>,
}

fn sequential(method: Method, values: &[String]) -> Result<RollOutcome, RollError> {
    let mut tokens = Vec::new();
    for (index, value) in values.iter().enumerate() {
        if letters(method) {
            for (letter, c) in value.chars().filter(|c| !c.is_whitespace()).enumerate() {
                tokens.push(Token {
                    position: index + 1,
                    whole: value,
                    toss: Some((letter + 1, c.to_string())),
                });
            }
        } else {
            tokens.push(Token {
                position: index + 1,
                whole: value,
                toss: None,
            });
        }
    }
    let mut procedure = method.procedure(false);
    let mut steps: Vec<RollStep> = Vec::new();
    for token in &tokens {
        let bad = |why: String| RollError::BadValue {
            method,
            position: token.position,
            text: token.whole.to_owned(),
            why,
        };
        let Some(ask) = procedure.ask() else {
            return Err(match &token.toss {
                Some((letter, _)) => bad(format!(
                    "toss {letter} is one too many, the start was complete before it"
                )),
                None => RollError::TooMany {
                    method,
                    position: token.position,
                    text: token.whole.to_owned(),
                },
            });
        };
        let text = token.toss.as_ref().map_or(token.whole, |(_, c)| c.as_str());
        let face = ask.device.read(text).map_err(|why| match &token.toss {
            Some((letter, _)) => bad(format!("toss {letter}: {why}")),
            None => bad(why.to_string()),
        })?;
        steps.push(procedure.take(face));
    }
    finish(method, procedure, steps, tokens.len())
}

/// Whether the method's values are letters, in one argument or several (`coin`).
fn letters(method: Method) -> bool {
    match method.info().values {
        Values::Letters => true,
        Values::OnePerArgument | Values::Named { .. } => false,
    }
}

/// The names a named method reads, in its order (none for a method whose values are not
/// named).
fn names(method: Method, d12: bool) -> Vec<&'static str> {
    match method.info().values {
        Values::Named { dice, .. } => dice(d12).to_vec(),
        Values::OnePerArgument | Values::Letters => Vec::new(),
    }
}

/// The `NAME=` words a named method reads, as its messages list them.
fn expected_names(method: Method) -> String {
    match method.info().values {
        Values::Named { expected, .. } => expected.to_owned(),
        Values::OnePerArgument | Values::Letters => String::new(),
    }
}

fn named(method: Method, values: &[String]) -> Result<RollOutcome, RollError> {
    let known = names(method, true);
    let mut given: Vec<(&'static str, usize, &str, &str)> = Vec::new();
    for (index, value) in values.iter().enumerate() {
        let bad = |why: String| RollError::BadValue {
            method,
            position: index + 1,
            text: value.clone(),
            why,
        };
        let Some((name, number)) = value.split_once('=') else {
            return Err(bad(format!(
                "expected NAME=VALUE, the names being {}",
                known.join(", ")
            )));
        };
        let name = name.trim().to_ascii_lowercase();
        let Some(&name) = known.iter().find(|&&k| k == name) else {
            return Err(bad(format!(
                "no die is called '{name}' (the names are {})",
                known.join(", ")
            )));
        };
        if let Some((_, earlier, _, _)) = given.iter().find(|(n, ..)| *n == name) {
            return Err(bad(format!(
                "the {name} is given twice (also value {earlier})"
            )));
        }
        given.push((name, index + 1, value.as_str(), number));
    }
    let d12 = given.iter().any(|(name, ..)| *name == "d12");
    let mut procedure = method.procedure(d12);
    let mut steps = Vec::new();
    while let Some(ask) = procedure.ask() {
        let Some(&(_, position, whole, number)) = given.iter().find(|(n, ..)| *n == ask.label)
        else {
            return Err(RollError::Missing {
                method,
                name: ask.label,
                expected: expected_names(method),
            });
        };
        let face = ask.device.read(number).map_err(|why| RollError::BadValue {
            method,
            position,
            text: whole.to_owned(),
            why: why.to_string(),
        })?;
        steps.push(procedure.take(face));
    }
    debug_assert_eq!(steps.len(), names(method, d12).len());
    finish(method, procedure, steps, values.len())
}

fn finish(
    method: Method,
    procedure: super::Stepper,
    steps: Vec<RollStep>,
    given: usize,
) -> Result<RollOutcome, RollError> {
    match (procedure.ask(), procedure.done()) {
        (None, Some(done)) => Ok(RollOutcome {
            method,
            steps,
            done,
        }),
        (ask, _) => {
            let (label, decides) = ask.map_or(("value", "the rest".to_owned()), |ask| {
                (ask.label, ask.decides)
            });
            // Letters are counted in the method's unit, other values as values.
            let (one, many) = if letters(method) {
                method.unit()
            } else {
                ("value", "values")
            };
            Err(RollError::TooFew {
                method,
                given: format!("{given} {}", if given == 1 { one } else { many }),
                label,
                decides,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roll(method: Method, values: &str) -> Result<RollOutcome, RollError> {
        let values: Vec<String> = values.split_whitespace().map(String::from).collect();
        run(method, &values)
    }

    fn sp(outcome: RollOutcome) -> u16 {
        outcome.done.rank.number().number()
    }

    #[test]
    fn the_issue_examples() {
        assert_eq!(sp(roll(Method::Die, "2 3 3 2 3").unwrap()), 518);
        assert_eq!(sp(roll(Method::Die, "2 3 3 4 2").unwrap()), 518);
        let outcome = roll(Method::Die, "3 5 1 4 6 2 1").unwrap();
        assert_eq!(outcome.done.rank.to_string(), "NBNRBQKR");
        // 002_1e5e9696fc39c650.txt: "if the tosses are T, H, T, T, H, H, H, H, T, T this
        // converts to the binary number 1011000011, or 707, which in the Chess960 numbering
        // scheme is the starting position BRKQNNRB".
        let outcome = roll(Method::Coin, "THTTHHHHTT").unwrap();
        assert_eq!(outcome.done.rank.to_string(), "BRKQNNRB");
        assert_eq!(sp(outcome), 0b10_1100_0011);
        assert_eq!(0b10_1100_0011, 707);
        assert_eq!(sp(roll(Method::Coin, "THTTH hhhtt").unwrap()), 707);
        assert_eq!(
            sp(roll(Method::D10, "light=3 dark=2 queen=3 knights=6").unwrap()),
            518
        );
        assert_eq!(
            sp(roll(Method::D10, "knights=6 queen=3 dark=2 light=3").unwrap()),
            518,
            "any order"
        );
        assert_eq!(
            sp(roll(Method::Polyhedral, "d8=3 d4=3 d6=3 d20=7").unwrap()),
            518
        );
        assert_eq!(
            sp(roll(Method::Polyhedral, "d12=11 d20=7 D8=3 d4=3 d6=3").unwrap()),
            518
        );
        assert_eq!(sp(roll(Method::Coins, "TH HT HTT THT HT").unwrap()), 518);
    }

    #[test]
    fn a_7_on_a_d6_names_the_value_and_why() {
        let err = roll(Method::Die, "3 5 7 4").unwrap_err();
        assert_eq!(
            err.to_string(),
            "roll die: value 3 ('7'): a die shows 1 to 6"
        );
        let err = roll(Method::Fast, "1 x").unwrap_err();
        assert_eq!(
            err.to_string(),
            "roll fast: value 2 ('x'): not a number: a die shows 1 to 6"
        );
        let err = roll(Method::Polyhedral, "d8=3 d4=3 d6=7 d20=7").unwrap_err();
        assert_eq!(
            err.to_string(),
            "roll polyhedral: value 3 ('d6=7'): a die shows 1 to 6"
        );
    }

    #[test]
    fn an_x_in_a_toss_string() {
        let err = roll(Method::Coin, "THTXHHHHTT").unwrap_err();
        assert_eq!(
            err.to_string(),
            "roll coin: value 1 ('THTXHHHHTT'): toss 4: 'X' is not H (heads) or T (tails)"
        );
        let err = roll(Method::Coins, "TH HX").unwrap_err();
        assert_eq!(
            err.to_string(),
            "roll coins: value 2 ('HX'): 'X' is not H (heads) or T (tails)"
        );
    }

    #[test]
    fn a_missing_die() {
        let err = roll(Method::Polyhedral, "d8=3 d4=3 d6=3").unwrap_err();
        assert_eq!(
            err.to_string(),
            "roll polyhedral: the d20 is missing (give d8=, d4=, d6= and d20=, and d12= with a d12)"
        );
        let err = roll(Method::D10, "light=1 dark=1 knights=1").unwrap_err();
        assert_eq!(
            err.to_string(),
            "roll d10: the queen is missing (give light=, dark=, queen= and knights=)"
        );
    }

    #[test]
    fn named_values_must_be_known_and_once() {
        let err = roll(Method::Polyhedral, "d8=3 d8=4").unwrap_err();
        assert_eq!(
            err.to_string(),
            "roll polyhedral: value 2 ('d8=4'): the d8 is given twice (also value 1)"
        );
        let err = roll(Method::D10, "light=1 5").unwrap_err();
        assert_eq!(
            err.to_string(),
            "roll d10: value 2 ('5'): expected NAME=VALUE, the names being light, dark, queen, knights"
        );
        let err = roll(Method::Polyhedral, "d7=1").unwrap_err();
        assert_eq!(
            err.to_string(),
            "roll polyhedral: value 1 ('d7=1'): no die is called 'd7' (the names are d8, d4, d6, d20, d12)"
        );
    }

    #[test]
    fn too_few_and_too_many() {
        let err = roll(Method::Die, "2 3 3 2").unwrap_err();
        assert_eq!(
            err.to_string(),
            "roll die: 4 values given, but the start is not complete; the next roll is for \
             the second knight: 1 to 4 = a1 e1 g1 h1, roll again on 5 and 6"
        );
        let err = roll(Method::Die, "2 3 3 2 3 1").unwrap_err();
        assert_eq!(
            err.to_string(),
            "roll die: value 6 ('1'): one too many, the start was complete before it"
        );
        let err = roll(Method::Coin, "THTTHHHHTTH").unwrap_err();
        assert_eq!(
            err.to_string(),
            "roll coin: value 1 ('THTTHHHHTTH'): toss 11 is one too many, the start was complete before it"
        );
        assert_eq!(roll(Method::Die, ""), Err(RollError::NoValues(Method::Die)));
    }
}
