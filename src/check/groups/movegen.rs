//! The movegen group: every probe's count against shakmaty's, descending on a difference
//! to one position and one move ([`Descent`]). One loop ([`count_probes`]) serves the
//! engine and a perft script (`--perft-script`): what differs is how a count is asked.

use indicatif::ProgressBar;
use shakmaty::Chess;

use crate::check::cases::EngineMode;
use crate::check::descent::{Comparison, Descent, Next, Query};
use crate::check::engine::CheckEngine;
use crate::check::groups::failed_engine;
use crate::check::ids::CheckId;
use crate::check::positions::Probe;
use crate::check::report::{CheckRow, Status};
use crate::check::run::CheckError;
use crate::protocol::perft::{PerftDialect, PerftReply};
use crate::starts::castling::CastlingDialect;
use crate::starts::notation::{CastlingNotation, position_fen};

/// How one question about a count went.
pub enum Asked {
    /// The counter's reply.
    Reply(PerftReply),
    /// No usable reply: what came back and why (the row's).
    Failed {
        /// What came back.
        got: String,
        /// Why it is a failure, with the question.
        why: String,
    },
    /// Not asked, and why: the probe's row is a skip.
    Skipped(&'static str),
}

/// What stopped the counting: after this many probes in a row without a reply, the rest
/// are not counted.
const FAILURES_BEFORE_STOP: usize = 3;

/// Counts every probe with `ask` (the query, the descent to count ahead with while the
/// counter counts, the probe's mode), descending on a difference; a row each, labelled
/// with the probe, `sent` by `sent_of`. After three probes in a row without a reply, one
/// row `stop_why` ends the group. Returns how many probes agreed.
pub fn count_probes<E>(
    probes: &[Probe],
    divides: bool,
    bar: &ProgressBar,
    sent_of: impl Fn(&Probe) -> String,
    stop_why: &str,
    mut ask: impl FnMut(&Query, &mut Descent, EngineMode) -> Result<Asked, E>,
    rows: &mut Vec<CheckRow>,
) -> Result<usize, E> {
    let (mut failures_in_a_row, mut agreed) = (0, 0);
    for probe in probes {
        if failures_in_a_row == FAILURES_BEFORE_STOP {
            let outcome = (Status::Fail, String::new(), stop_why.to_owned());
            rows.push(CheckRow::new(CheckId::PerftStopped, String::new(), outcome));
            break;
        }
        bar.set_message(probe.label.clone());
        bar.inc(1);
        let (mut descent, mut query) = Descent::start(
            probe.position.clone(),
            probe.depth,
            castling_dialect(probe.mode),
            divides,
        );
        if let Some(count) = probe.kept {
            descent.root_reference(count);
        }
        let outcome = loop {
            match ask(&query, &mut descent, probe.mode)? {
                Asked::Reply(reply) => match descent.on_reply(&reply) {
                    Next::Ask(next) => query = next,
                    Next::Done(outcome) => {
                        failures_in_a_row = 0;
                        agreed += usize::from(matches!(outcome, Comparison::Agrees { .. }));
                        break outcome_row(outcome);
                    }
                },
                Asked::Failed { got, why } => {
                    failures_in_a_row += 1;
                    break (Status::Fail, got, why);
                }
                Asked::Skipped(why) => break (Status::Skip, String::new(), why.to_owned()),
            }
        };
        let sent = match outcome.0 {
            Status::Skip => String::new(),
            _ => sent_of(probe),
        };
        rows.push(CheckRow::new(CheckId::of_probe(probe), sent, outcome));
    }
    Ok(agreed)
}

/// The group for an engine: each probe asked with `dialect`, shakmaty counting while the
/// engine does; standard-mode probes skipped when the engine cannot switch modes.
pub fn perft_rows(
    engine: CheckEngine,
    dialect: PerftDialect,
    probes: &[Probe],
    bar: &ProgressBar,
    rows: &mut Vec<CheckRow>,
) -> Result<CheckEngine, CheckError> {
    let can_switch = engine.has_chess960_option();
    let mut engine = Some(engine);
    let stop_why = format!(
        "stopped after three positions in a row without an answer to {}: the rest were not \
         counted",
        dialect.command(1)
    );
    let sent_of = |probe: &Probe| {
        let fen = fen_of(&probe.position, probe.mode);
        format!("{} in {fen}", dialect.command(probe.depth))
    };
    count_probes::<CheckError>(
        probes,
        dialect.divides(),
        bar,
        sent_of,
        &stop_why,
        |query, descent, mode| {
            if mode == EngineMode::Standard && !can_switch {
                let why = "no UCI_Chess960 to switch off: standard mode is not checked";
                return Ok(Asked::Skipped(why));
            }
            let counting = engine.as_mut().expect("put back after each question");
            let reply = counting
                .ask_perft_position(dialect, &query.position, query.depth, mode)
                .and_then(|()| {
                    // shakmaty counts while the engine does.
                    descent.count_ahead();
                    counting.read_perft(dialect, query.depth)
                });
            match reply {
                Ok(reply) => Ok(Asked::Reply(reply)),
                Err(failure) => {
                    let fen = fen_of(&query.position, mode);
                    let why = format!("{} in {fen}: {failure}", dialect.command(query.depth));
                    let taken = engine.take().expect("put back after each question");
                    engine = Some(failed_engine(taken, &failure)?);
                    Ok(Asked::Failed {
                        got: failure.to_string(),
                        why,
                    })
                }
            }
        },
        rows,
    )?;
    Ok(engine.expect("put back after each question"))
}

/// How castling is written in `mode`.
pub fn castling_dialect(mode: EngineMode) -> CastlingDialect {
    match mode {
        EngineMode::Chess960 => CastlingDialect::Chess960,
        EngineMode::Standard => CastlingDialect::Standard,
    }
}

/// A finished descent as a row's outcome (status, what came back, why): the total when
/// the counts agree, the engine's and shakmaty's totals and the finding when they differ.
pub fn outcome_row(outcome: Comparison) -> (Status, String, String) {
    match outcome {
        Comparison::Agrees { total } => (Status::Pass, total.to_string(), String::new()),
        Comparison::Differs(finding) => (
            Status::Fail,
            format!("{} (shakmaty {})", finding.root.0, finding.root.1),
            finding.to_string(),
        ),
    }
}

/// The FEN a probe's position is sent in: Shredder-FEN in Chess960 mode, X-FEN in
/// standard mode.
pub fn fen_of(position: &Chess, mode: EngineMode) -> String {
    position_fen(
        position,
        match mode {
            EngineMode::Chess960 => CastlingNotation::Shredder,
            EngineMode::Standard => CastlingNotation::Xfen,
        },
    )
}
