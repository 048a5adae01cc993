//! The core subcommands `fen`, `identify` and `random` over any reader and writers, so that
//! the `cli` room only parses arguments and maps the outcome to an exit code (and so that
//! these loops are tested without spawning a process).

use std::io::{self, BufRead, Write};

use thiserror::Error;

use crate::starts::identify::{IdentifyError, identify};
use crate::starts::notation::BOM;
use crate::starts::notation::{CastlingNotation, RecordFormat, start_fen, start_record};
use crate::starts::start::{InvalidStart, RandomStarts, Spec, SpecError};

/// Why a core command stopped.
#[derive(Debug, Error)]
pub enum CommandError {
    /// A SPEC that names no start (exit 1).
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A start shakmaty refused: a bug, reported (exit 1).
    #[error(transparent)]
    Start(#[from] InvalidStart),
    /// Some inputs were not starts; each was already reported (exit 1).
    #[error("{0} of the inputs could not be identified")]
    Unidentified(usize),
    /// Reading or writing failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// `sp960 fen`: one record per start of every SPEC, in order. Every SPEC is read before
/// anything is written, so a bad one writes nothing at all.
pub fn print_starts(
    specs: &[Spec],
    castling: CastlingNotation,
    format: RecordFormat,
    out: &mut impl Write,
) -> Result<(), CommandError> {
    let mut starts = Vec::new();
    for spec in specs {
        if spec.is_random() {
            return Err(SpecError::Malformed(spec.text().trim().to_owned()).into());
        }
        starts.extend(spec.starts());
    }
    for start in starts {
        writeln!(out, "{}", start_record(start, castling, format)?)?;
    }
    out.flush()?;
    Ok(())
}

/// `sp960 identify`: the start of each input (`-` reads `stdin` line by line, skipping
/// blank lines), one line each on `out`; each input that is no start is reported on `err`
/// with its name (`'text'` or `<stdin>:LINE`) and the reason, and the others go on.
pub fn identify_inputs(
    inputs: &[String],
    stdin: impl BufRead,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), CommandError> {
    let mut failed = 0;
    let mut stdin = Some(stdin);
    for input in inputs {
        if input != "-" {
            failed += usize::from(!report_identity(
                &format!("'{input}'"),
                Ok(input),
                out,
                err,
            )?);
            continue;
        }
        // A second `-` finds stdin already read to its end.
        let Some(lines) = stdin.take() else { continue };
        for (index, line) in lines.split(b'\n').enumerate() {
            let line = line?;
            // A byte-order mark at the start of stdin, as `validate` accepts one.
            let line = match index {
                0 => line.strip_prefix(BOM).unwrap_or(&line),
                _ => &line,
            };
            let text = std::str::from_utf8(line).map_err(NotAStart::NotUtf8);
            if text.as_ref().is_ok_and(|text| text.trim().is_empty()) {
                continue;
            }
            let name = format!("<stdin>:{}", index + 1);
            failed += usize::from(!report_identity(&name, text, out, err)?);
        }
    }
    out.flush()?;
    match failed {
        0 => Ok(()),
        n => Err(CommandError::Unidentified(n)),
    }
}

/// Why an input of `identify` names no start.
#[derive(Debug, Error)]
enum NotAStart {
    /// A line of stdin that is not UTF-8.
    #[error("not UTF-8 text ({0})")]
    NotUtf8(std::str::Utf8Error),
    /// Text that is no start.
    #[error(transparent)]
    Identify(#[from] IdentifyError),
}

/// Writes the start `text` is, or why it is none; true when identified.
fn report_identity(
    name: &str,
    text: Result<&str, NotAStart>,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<bool> {
    match text.and_then(|text| Ok(identify(text)?)) {
        Ok(start) => writeln!(out, "{start}").map(|()| true),
        Err(reason) => {
            // Keep stdout and stderr in input order when both go to a terminal.
            out.flush()?;
            writeln!(err, "sp960: identify: {name}: {reason}")?;
            Ok(false)
        }
    }
}

/// `sp960 random`: `count` uniformly random starts (double-FRC pairs with `dfrc`) from
/// `seed`, each as `NUMBER FEN`.
pub fn print_random(
    count: u64,
    seed: u64,
    dfrc: bool,
    castling: CastlingNotation,
    out: &mut impl Write,
) -> Result<(), CommandError> {
    for start in RandomStarts::new(seed, dfrc).take(count as usize) {
        writeln!(out, "{start} {}", start_fen(start, castling)?)?;
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identify_text(inputs: &[&str], stdin: &[u8]) -> (Result<(), CommandError>, String, String) {
        let inputs: Vec<String> = inputs.iter().map(|s| s.to_string()).collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let result = identify_inputs(&inputs, stdin, &mut out, &mut err);
        (
            result,
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    }

    #[test]
    fn identify_reports_each_bad_input_and_goes_on() {
        let (result, out, err) = identify_text(&["RBKNRNBQ", "-", "xx"], b"BBQNNRKR\n\nbad\n");
        assert!(matches!(result, Err(CommandError::Unidentified(2))));
        assert_eq!(out, "860\n0\n");
        assert!(err.contains("<stdin>:3: "), "{err}");
        assert!(err.contains("'xx': "), "{err}");
    }

    #[test]
    fn a_byte_order_mark_on_stdin_is_skipped() {
        let (result, out, err) = identify_text(
            &["-"],
            b"\xEF\xBB\xBFrbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\r\nBBQNNRKR\n",
        );
        assert!(result.is_ok(), "{err}");
        assert_eq!(out, "860\n0\n");
        // Only at the very start: a mark on a later line is an error.
        let (result, _, err) = identify_text(&["-"], b"RBKNRNBQ\n\xEF\xBB\xBFBBQNNRKR\n");
        assert!(matches!(result, Err(CommandError::Unidentified(1))));
        assert!(err.contains("<stdin>:2: "), "{err}");
    }

    #[test]
    fn a_second_dash_reads_nothing_more() {
        let (result, out, _) = identify_text(&["-", "-"], b"RNBQKBNR\n");
        assert!(result.is_ok());
        assert_eq!(out, "518\n");
    }

    #[test]
    fn a_bad_spec_writes_nothing() {
        let mut out = Vec::new();
        // `random` lists no starts for `fen`.
        let specs: [Spec; 2] = ["0".parse().unwrap(), "random".parse().unwrap()];
        let result = print_starts(
            &specs,
            CastlingNotation::Shredder,
            RecordFormat::Fen,
            &mut out,
        );
        assert!(matches!(result, Err(CommandError::Spec(_))));
        assert!(out.is_empty());
    }

    #[test]
    fn random_lines_are_number_and_fen() {
        let mut out = Vec::new();
        print_random(3, 5, true, CastlingNotation::Shredder, &mut out).unwrap();
        for line in String::from_utf8(out).unwrap().lines() {
            let (number, fen) = line.split_once(' ').unwrap();
            assert_eq!(identify(fen).unwrap().to_string(), number);
        }
    }
}
