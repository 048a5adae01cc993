//! `sp960 roll` over any reader and writers: values from the arguments, or asked for on a
//! terminal, or the fairness proofs; the `cli` room only maps the error to an exit code.

use std::io::{self, BufRead, Write};

use thiserror::Error;

use super::Method;
use super::fairness::{FairnessError, analyse};
use super::input::{RollError, run};
use super::interactive::{AskError, ask_each};
use super::report::{fairness_json, fairness_text, outcome_json, outcome_text};
use crate::exit_code;
use crate::starts::notation::CastlingNotation;
use crate::starts::start::InvalidStart;

/// What `sp960 roll` was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollRequest {
    /// The method.
    pub method: Method,
    /// The values given (none: ask on a terminal).
    pub values: Vec<String>,
    /// JSON instead of text.
    pub json: bool,
    /// Prove the method fair instead of reading values.
    pub fairness: bool,
    /// The FEN's castling field.
    pub castling: CastlingNotation,
}

/// Why `sp960 roll` stopped.
#[derive(Debug, Error)]
pub enum RollCommandError {
    /// Bad, missing or too many values (exit 2).
    #[error(transparent)]
    Roll(#[from] RollError),
    /// A fairness proof that could not be completed: a bug (exit 1).
    #[error(transparent)]
    Fairness(#[from] FairnessError),
    /// A start shakmaty refused: a bug (exit 1).
    #[error(transparent)]
    Start(#[from] InvalidStart),
    /// Reading or writing failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

impl RollCommandError {
    /// The exit code: 2 for the values (a usage error), 1 for the bugs.
    pub fn exit_code(&self) -> u8 {
        match self {
            RollCommandError::Roll(_) | RollCommandError::Io(_) => exit_code::USAGE,
            RollCommandError::Fairness(_) | RollCommandError::Start(_) => exit_code::INVALID_DATA,
        }
    }
}

impl From<AskError> for RollCommandError {
    fn from(err: AskError) -> RollCommandError {
        match err {
            AskError::Roll(err) => RollCommandError::Roll(err),
            AskError::Io(err) => RollCommandError::Io(err),
        }
    }
}

/// Runs `request`: with `--fairness` the proofs; with values the draw they make; with no
/// values, asks for each on `prompts` when `stdin_is_terminal`, or refuses. Results go to
/// `out`.
pub fn roll(
    request: &RollRequest,
    stdin_is_terminal: bool,
    stdin: &mut impl BufRead,
    out: &mut impl Write,
    prompts: &mut impl Write,
) -> Result<(), RollCommandError> {
    let method = request.method;
    if request.fairness {
        let mut analyses = Vec::new();
        for (name, procedure) in method.variants() {
            analyses.push((name, analyse(procedure)?));
        }
        if request.json {
            writeln!(out, "{}", fairness_json(method, &analyses))?;
        } else {
            let texts: Vec<String> = analyses
                .iter()
                .map(|(name, analysis)| fairness_text(name, method, analysis))
                .collect();
            write!(out, "{}", texts.join("\n"))?;
        }
        out.flush()?;
        return Ok(());
    }
    let outcome = if !request.values.is_empty() {
        run(method, &request.values)?
    } else if stdin_is_terminal {
        ask_each(method, stdin, prompts)?
    } else {
        return Err(RollError::NoValues(method).into());
    };
    if request.json {
        writeln!(out, "{}", outcome_json(&outcome, request.castling)?)?;
    } else {
        write!(out, "{}", outcome_text(&outcome, request.castling)?)?;
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(method: Method, values: &[&str]) -> RollRequest {
        RollRequest {
            method,
            values: values.iter().map(|s| s.to_string()).collect(),
            json: false,
            fairness: false,
            castling: CastlingNotation::Shredder,
        }
    }

    #[test]
    fn no_values_and_no_terminal_is_a_usage_error() {
        let mut out = Vec::new();
        let err = roll(
            &request(Method::Die, &[]),
            false,
            &mut &b"3\n"[..],
            &mut out,
            &mut Vec::new(),
        )
        .unwrap_err();
        assert_eq!(err.exit_code(), exit_code::USAGE);
        assert!(err.to_string().contains("values are needed"), "{err}");
        assert!(out.is_empty());
    }

    #[test]
    fn a_terminal_is_asked() {
        let (mut out, mut prompts) = (Vec::new(), Vec::new());
        roll(
            &request(Method::Fast, &[]),
            true,
            &mut &b"3\n3\n2\n5\n"[..],
            &mut out,
            &mut prompts,
        )
        .unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("SP 514: "), "{out}");
        assert!(!out.contains("base-6 digit"), "prompts stay off stdout");
        assert!(String::from_utf8(prompts).unwrap().contains("base-6 digit"));
    }

    #[test]
    fn bad_values_are_usage_errors() {
        let err = roll(
            &request(Method::Die, &["7"]),
            false,
            &mut &b""[..],
            &mut Vec::new(),
            &mut Vec::new(),
        )
        .unwrap_err();
        assert_eq!(err.exit_code(), exit_code::USAGE);
    }
}
