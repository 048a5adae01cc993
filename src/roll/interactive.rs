//! The interactive roll: no values on the command line and a terminal on stdin. A thin
//! loop over the same procedure: it asks for each value, naming what it decides and the
//! squares, says what the value did, and asks again after a value it cannot read.

use std::collections::HashMap;
use std::io::{self, BufRead, Write};

use thiserror::Error;

use super::input::RollError;
use super::{Method, Procedure, RollOutcome};

/// Why the interactive roll stopped.
#[derive(Debug, Error)]
pub enum AskError {
    /// The input ended before the start was drawn.
    #[error(transparent)]
    Roll(#[from] RollError),
    /// Reading or writing failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Asks on `prompts` for each value of `method` and reads it from `input`, until the start
/// is drawn. The polyhedral method asks for the four dice d8, d4, d6, d20 (without the
/// d12). Input that ends first is a [`RollError::TooFew`].
pub fn ask_each(
    method: Method,
    input: &mut impl BufRead,
    prompts: &mut impl Write,
) -> Result<RollOutcome, AskError> {
    let mut procedure = method.procedure(false);
    let mut steps = Vec::new();
    let mut counts: HashMap<&'static str, usize> = HashMap::new();
    writeln!(
        prompts,
        "sp960 roll {method}: type each value and press Enter (end of input to stop)"
    )?;
    while let Some(ask) = procedure.ask() {
        let count = counts.entry(ask.label).or_default();
        *count += 1;
        let name = if method.is_named() {
            ask.label.to_owned()
        } else {
            format!("{} {count}", ask.label)
        };
        loop {
            write!(
                prompts,
                "{name} ({}) for {}\n> ",
                ask.device.describe(),
                ask.decides
            )?;
            prompts.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(prompts)?;
                let (one, many) = method.unit();
                return Err(RollError::TooFew {
                    method,
                    given: format!(
                        "{} {}",
                        steps.len(),
                        if steps.len() == 1 { one } else { many }
                    ),
                    label: ask.label,
                    decides: ask.decides,
                }
                .into());
            }
            let text = line.trim();
            if text.is_empty() {
                continue;
            }
            match ask.device.read(text) {
                Ok(face) => {
                    let step = procedure.take(face);
                    writeln!(prompts, "  -> {}", step.text)?;
                    steps.push(step);
                    break;
                }
                Err(why) => writeln!(prompts, "  '{text}': {why}; once more")?,
            }
        }
    }
    let done = procedure.done().ok_or_else(|| RollError::TooFew {
        method,
        given: format!("{} values", steps.len()),
        label: "value",
        decides: "the rest".to_owned(),
    })?;
    Ok(RollOutcome {
        method,
        steps,
        done,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asks_for_each_roll_naming_the_squares() {
        let mut prompts = Vec::new();
        let outcome =
            ask_each(Method::Die, &mut &b"2\n7\n\n3\n3\n2\n3\n"[..], &mut prompts).unwrap();
        assert_eq!(outcome.done.rank.number().number(), 518);
        let prompts = String::from_utf8(prompts).unwrap();
        assert!(
            prompts.contains(
                "roll 1 (a d6) for the dark-square bishop: 1 to 4 = a1 c1 e1 g1, roll again on 5 and 6\n> "
            ),
            "{prompts}"
        );
        assert!(
            prompts.contains("  '7': a die shows 1 to 6; once more"),
            "{prompts}"
        );
        assert!(
            prompts.contains("  -> queen on d1, the 3rd empty square"),
            "{prompts}"
        );
        assert!(
            prompts.contains("roll 5 (a d6) for the second knight"),
            "{prompts}"
        );
    }

    #[test]
    fn named_dice_and_coins() {
        let mut prompts = Vec::new();
        let outcome =
            ask_each(Method::Polyhedral, &mut &b"3\n3\n3\n7\n"[..], &mut prompts).unwrap();
        assert_eq!(outcome.done.rank.number().number(), 518);
        assert!(
            String::from_utf8(prompts)
                .unwrap()
                .contains("d20 (a d20) for both knights")
        );
        let outcome = ask_each(
            Method::Coin,
            &mut &b"T\nH\nT\nT\nH\nH\nH\nH\nT\nT\n"[..],
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!(outcome.done.rank.number().number(), 707);
    }

    #[test]
    fn die_optimized_asks_once_more_after_a_bishops_5() {
        let mut prompts = Vec::new();
        let outcome = ask_each(
            Method::DieOptimized,
            &mut &b"5\n5\n6\n6\n4\n6\n3\n6\n"[..],
            &mut prompts,
        )
        .unwrap();
        assert_eq!(outcome.done.rank.to_string(), "BRKNQRNB");
        let prompts = String::from_utf8(prompts).unwrap();
        assert!(
            prompts.contains(
                "roll 2 (a d6) for the dark-square bishop after a 5: 1 to 4 = a1 c1 e1 g1, 5 = a1 (5 − 4), 6 = c1 (6 − 4)\n> "
            ),
            "{prompts}"
        );
    }

    #[test]
    fn input_that_ends_early() {
        let err = ask_each(Method::Die, &mut &b"2\n3\n"[..], &mut Vec::new()).unwrap_err();
        assert!(
            err.to_string().starts_with(
                "roll die: 2 rolls given, but the start is not complete; the next roll is for the queen"
            ),
            "{err}"
        );
    }
}
