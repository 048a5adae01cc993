//! `sp960 validate`: every record of every input checked, invalid ones reported the way a
//! compiler reports errors (`path:line:col: error: reason`, or JSON), then a summary.
//!
//! Each input is streamed in blocks of whole lines ([`crate::records`]); a batch of blocks
//! is checked on all cores (rayon) while the next batch is read, and the reports are
//! printed in input order. A valid record costs one parse and shakmaty's legality check,
//! with no allocation.

use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;

use crate::exit_code;
use crate::inputs::{Input, expand};
use crate::record::{CheckOptions, Field, Problem, Syntax, Verdict, validate_line};
use crate::records::{Block, LineBlocks, MAX_LINE_BYTES, lines, strip_bom};
use crate::start::Start;

/// How invalid records are printed on stdout.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// `path:line:col: error: reason`, one line per invalid record.
    #[default]
    Text,
    /// One JSON object per invalid record, then one with a `summary` key.
    Json,
}

/// Everything `sp960 validate` is told.
#[derive(Debug, Clone)]
pub struct ValidateOptions {
    /// How each record is checked.
    pub check: CheckOptions,
    /// Text or JSON on stdout.
    pub format: OutputFormat,
    /// Only the summary.
    pub quiet: bool,
    /// File-name patterns searched for in directories.
    pub globs: Vec<String>,
}

/// Counts for the summary line.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Records read (blank lines and comments are not records).
    pub records: u64,
    /// Records that passed.
    pub valid: u64,
    /// Records that did not.
    pub invalid: u64,
    /// Inputs read to the end.
    pub files: u64,
    /// Inputs that could not be opened or read.
    pub unreadable: u64,
    /// Wall time.
    pub seconds: f64,
}

impl Summary {
    /// 0 when every record of every input is valid, 1 for invalid records, 2 when an input
    /// could not be read.
    pub fn exit_code(&self) -> u8 {
        if self.unreadable > 0 {
            exit_code::USAGE
        } else if self.invalid > 0 {
            exit_code::INVALID_DATA
        } else {
            exit_code::SUCCESS
        }
    }
}

/// One invalid record in `--format json`.
#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    path: &'a str,
    line: u64,
    column: usize,
    field: Field,
    kind: &'a str,
    error: &'a str,
}

/// One valid start in `--format json` with `--start-positions`: `start` is `518` or `0:959`.
#[derive(Serialize)]
struct JsonStart<'a> {
    path: &'a str,
    line: u64,
    start: &'a str,
}

/// What checking one block found.
#[derive(Debug, Default)]
struct BlockReport {
    lines: u64,
    records: u64,
    bytes: u64,
    /// Invalid records: line within the block (1-based) and why.
    problems: Vec<(u64, Problem)>,
    /// With `--start-positions`: line within the block and start of each valid record.
    starts: Vec<(u64, Start)>,
}

fn check_block(block: &Block, options: &CheckOptions, syntax: Syntax) -> BlockReport {
    let mut report = BlockReport::default();
    match block {
        Block::Overlong(length) => {
            report.lines = 1;
            report.records = 1;
            report.bytes = *length;
            report
                .problems
                .push((1, Problem::line_too_long(*length, MAX_LINE_BYTES)));
        }
        Block::Lines(data) => {
            report.bytes = data.len() as u64;
            for line in lines(data) {
                report.lines += 1;
                let Some(span) = syntax.record_span(line.text) else {
                    continue;
                };
                let offset = span.start;
                match validate_line(&line.text[span], options) {
                    Verdict::Skipped => {}
                    Verdict::Valid(start) => {
                        report.records += 1;
                        if let Some(start) = start {
                            report.starts.push((report.lines, start));
                        }
                    }
                    Verdict::Invalid(mut problem) => {
                        problem.column += offset;
                        report.records += 1;
                        report.problems.push((report.lines, problem));
                    }
                }
            }
        }
    }
    report
}

/// Prints reports in order, on top of the progress bar when there is one.
struct Reporter<'a> {
    out: &'a mut dyn Write,
    options: &'a ValidateOptions,
    progress: Option<ProgressBar>,
    summary: Summary,
    text: Vec<u8>,
}

impl Reporter<'_> {
    fn report(&mut self, name: &str, first_line: u64, report: &BlockReport) -> io::Result<()> {
        self.summary.records += report.records;
        self.summary.invalid += report.problems.len() as u64;
        if let Some(progress) = &self.progress {
            progress.inc(report.bytes);
        }
        if self.options.quiet {
            return Ok(());
        }
        self.text.clear();
        let mut problems = report.problems.iter().peekable();
        let mut starts = report.starts.iter().peekable();
        // Starts and problems interleaved by line.
        loop {
            let next_problem = problems.peek().map(|(line, _)| *line);
            let next_start = starts.peek().map(|(line, _)| *line);
            match (next_problem, next_start) {
                (None, None) => break,
                (Some(p), s) if s.is_none_or(|s| p < s) => {
                    let (line, problem) = problems.next().expect("peeked");
                    self.write_problem(name, first_line + line, problem)?;
                }
                _ => {
                    let (line, start) = starts.next().expect("peeked");
                    let line = first_line + line;
                    match self.options.format {
                        OutputFormat::Text => {
                            let kind = start.kind_name();
                            writeln!(self.text, "{name}:{line}: {kind} {start}")?;
                        }
                        OutputFormat::Json => {
                            let start = start.to_string();
                            let record = JsonStart {
                                path: name,
                                line,
                                start: &start,
                            };
                            serde_json::to_writer(&mut self.text, &record)?;
                            self.text.push(b'\n');
                        }
                    }
                }
            }
        }
        self.flush_text()
    }

    fn write_problem(&mut self, name: &str, line: u64, problem: &Problem) -> io::Result<()> {
        match self.options.format {
            OutputFormat::Text => writeln!(
                self.text,
                "{name}:{line}:{}: error: {}",
                problem.column, problem.message
            ),
            OutputFormat::Json => {
                let diagnostic = JsonDiagnostic {
                    path: name,
                    line,
                    column: problem.column,
                    field: problem.field,
                    kind: &problem.kind,
                    error: &problem.message,
                };
                serde_json::to_writer(&mut self.text, &diagnostic)?;
                self.text.push(b'\n');
                Ok(())
            }
        }
    }

    fn flush_text(&mut self) -> io::Result<()> {
        if self.text.is_empty() {
            return Ok(());
        }
        let (out, text) = (&mut self.out, &self.text);
        match &self.progress {
            Some(progress) => progress.suspend(|| out.write_all(text).and_then(|()| out.flush())),
            None => out.write_all(text),
        }
    }
}

/// A failure while validating one input: reading it, or writing the report.
enum StreamError {
    Read(io::Error),
    Write(io::Error),
}

/// Validates one stream.
fn validate_stream<R: Read + Send>(
    reader: R,
    name: &str,
    reporter: &mut Reporter<'_>,
) -> Result<(), StreamError> {
    let (_, reader) = strip_bom(reader).map_err(StreamError::Read)?;
    let mut blocks = LineBlocks::new(reader);
    let batch_len = rayon::current_num_threads().max(1) * 2;
    let read_batch = |blocks: &mut LineBlocks<_>| -> io::Result<Vec<Block>> {
        let mut batch = Vec::with_capacity(batch_len);
        while batch.len() < batch_len {
            match blocks.next_block(None)? {
                Some(block) => batch.push(block),
                None => break,
            }
        }
        Ok(batch)
    };
    let options = reporter.options.check;
    let mut batch = read_batch(&mut blocks).map_err(StreamError::Read)?;
    let head = match batch.first() {
        Some(Block::Lines(data)) => &data[..],
        _ => &[],
    };
    let syntax = Syntax::detect(name, head);
    let mut first_line = 0;
    while !batch.is_empty() {
        let (next, reports) = rayon::join(
            || read_batch(&mut blocks),
            || {
                batch
                    .par_iter()
                    .map(|block| check_block(block, &options, syntax))
                    .collect::<Vec<_>>()
            },
        );
        for report in &reports {
            reporter
                .report(name, first_line, report)
                .map_err(StreamError::Write)?;
            first_line += report.lines;
        }
        batch = next.map_err(StreamError::Read)?;
    }
    Ok(())
}

/// Runs `sp960 validate` over `paths`; diagnostics go to `out`, unreadable inputs and the
/// summary to `err`. Returns the exit code; an error only when `out` or `err` fails.
pub fn run(
    paths: &[String],
    options: &ValidateOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<u8> {
    let started = Instant::now();
    let (inputs, missing) = expand(paths, &options.globs);
    let mut summary = Summary::default();
    for input in &missing {
        summary.unreadable += 1;
        writeln!(
            err,
            "sp960: validate: {}: {}",
            input.path.display(),
            input.error
        )?;
    }
    let progress = (!options.quiet && io::stderr().is_terminal()).then(|| progress_bar(&inputs));
    let mut reporter = Reporter {
        out,
        options,
        progress,
        summary,
        text: Vec::new(),
    };
    for input in &inputs {
        let name = input.name();
        let result = match input {
            Input::Stdin => validate_stream(io::stdin(), &name, &mut reporter),
            Input::Path(path) => match File::open(path) {
                Ok(file) => validate_stream(file, &name, &mut reporter),
                Err(error) => Err(StreamError::Read(error)),
            },
        };
        match result {
            Ok(()) => reporter.summary.files += 1,
            Err(StreamError::Write(error)) => return Err(error),
            Err(StreamError::Read(error)) => {
                reporter.summary.unreadable += 1;
                let message = format!("sp960: validate: {name}: cannot read: {error}\n");
                match &reporter.progress {
                    Some(progress) => progress.suspend(|| err.write_all(message.as_bytes()))?,
                    None => err.write_all(message.as_bytes())?,
                }
            }
        }
    }
    if let Some(progress) = reporter.progress.take() {
        progress.finish_and_clear();
    }
    let mut summary = reporter.summary;
    summary.valid = summary.records - summary.invalid;
    summary.seconds = started.elapsed().as_secs_f64();
    if options.format == OutputFormat::Json {
        serde_json::to_writer(
            &mut *reporter.out,
            &serde_json::json!({ "summary": &summary }),
        )?;
        writeln!(reporter.out)?;
    }
    reporter.out.flush()?;
    let plural =
        |count: u64, noun: &str| format!("{count} {noun}{}", if count == 1 { "" } else { "s" });
    let unreadable = if summary.unreadable > 0 {
        format!(", {} unreadable", summary.unreadable)
    } else {
        String::new()
    };
    writeln!(
        err,
        "sp960: validate: {}: {} valid, {} invalid; {}{unreadable}; {:.3} s",
        plural(summary.records, "record"),
        summary.valid,
        summary.invalid,
        plural(summary.files, "file"),
        summary.seconds
    )?;
    Ok(summary.exit_code())
}

/// A bar over the bytes of all regular files, or a spinner when stdin or a pipe is read.
fn progress_bar(inputs: &[Input]) -> ProgressBar {
    let sizes: Option<u64> = inputs
        .iter()
        .map(|input| match input {
            Input::Path(path) => std::fs::metadata(path)
                .ok()
                .filter(|metadata| metadata.is_file())
                .map(|metadata| metadata.len()),
            Input::Stdin => None,
        })
        .sum();
    let target = ProgressDrawTarget::stderr_with_hz(4);
    match sizes {
        Some(total) => ProgressBar::with_draw_target(Some(total), target).with_style(
            ProgressStyle::with_template(
                "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
            )
            .expect("valid template"),
        ),
        None => ProgressBar::with_draw_target(None, target).with_style(
            ProgressStyle::with_template("{spinner} {bytes} {bytes_per_sec}")
                .expect("valid template"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_on(text: &[u8], format: OutputFormat) -> (u8, String, String) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.fen");
        std::fs::write(&path, text).unwrap();
        let options = ValidateOptions {
            check: CheckOptions::default(),
            format,
            quiet: false,
            globs: vec!["*.fen".to_owned()],
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run(&[path.display().to_string()], &options, &mut out, &mut err).unwrap();
        let out = String::from_utf8(out)
            .unwrap()
            .replace(&path.display().to_string(), "t.fen");
        (code, out, String::from_utf8(err).unwrap())
    }

    #[test]
    fn line_numbers_stay_right_across_blocks() {
        // Enough lines for many blocks; a few invalid ones spread through.
        let valid = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\n";
        let invalid = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 x\n";
        let mut text = String::from("# header\n\n");
        let mut expected = String::new();
        for line in 3..=60_000u64 {
            if line % 9_999 == 0 {
                text.push_str(invalid);
                expected.push_str(&format!(
                    "t.fen:{line}:56: error: fullmove number: expected a number (digits 0-9), found `x`\n"
                ));
            } else {
                text.push_str(valid);
            }
        }
        let (code, out, err) = run_on(text.as_bytes(), OutputFormat::Text);
        assert_eq!(out, expected);
        assert_eq!(code, 1);
        assert!(
            err.starts_with("sp960: validate: 59998 records: 59992 valid, 6 invalid; 1 file;"),
            "{err}"
        );
    }

    #[test]
    fn json_lines_and_summary() {
        let (code, out, _) = run_on(
            b"\xEF\xBB\xBF4k3/8/8/8/8/8/8/8 w - - 0 1\r\n",
            OutputFormat::Json,
        );
        assert_eq!(code, 1);
        let lines: Vec<serde_json::Value> = out
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["path"], "t.fen");
        assert_eq!(lines[0]["line"], 1);
        assert_eq!(lines[0]["column"], 1);
        assert_eq!(lines[0]["kind"], "MISSING_KING");
        assert_eq!(lines[0]["error"], "white has no king");
        assert_eq!(lines[1]["summary"]["records"], 1);
        assert_eq!(lines[1]["summary"]["invalid"], 1);
    }
}
