//! `sp960 match --runner fastchess|cutechess`: the same match handed to a real match runner
//! found on PATH, its progress streamed to stderr, its PGN read back into the [`Summary`].
//!
//! Nothing about the runners is decided twice: the runner's command line, with every engine
//! wrapped in `sp960 proxy` where the runner needs it, is
//! [`crate::tournaments::tournament::plan`]'s, as `sp960 tournament` prints it, and so is
//! the book of numbered starts. A match adds to the tournament what a tournament line does
//! not have ([`MatchOptions`], given to the plan, so the runner's command is built once):
//! the limits (`--nodes`, `--depth`, `--movetime` as `st=` with `--timeout` as
//! `timemargin=`, or `--tc`), `--max-plies`, `--resign`, `--draw`, `--sprt`, `-tournament`
//! for more engines and the rounds of the book's layout in the runner's schedule
//! (`schedule.rs`), the PGN book of the `--openings` sp960 chose (`book.rs`); and it refuses
//! what the runner cannot do as asked. The engines are probed first (`probe.rs`), as the
//! built-in runner does, so the runner gets their protocols and names and the table shows
//! the same names. `process.rs` runs the runner.
//!
//! The runner appends to `--pgn`; the games after the file's old end are read back
//! ([`read_games`], `pgn.rs`, through the one PGN reader `records::pgn`: tags, plies, the
//! end comment) and placed in the built-in
//! runner's schedule by their `Round` tag and engines, their `FEN` tag checked against the
//! opening's root (cutechess-cli writes X-FEN castling `KQkq`, fastchess Shredder `HAha`).
//! They are counted by the built-in runner's tally, and the summary is built where the
//! built-in runner's is ([`Summary::new`]).

mod book;
mod pgn;
mod probe;
mod process;
mod schedule;

use std::io::{self, Write};
use std::path::Path;

use thiserror::Error;

use crate::matches::MatchError;
use crate::matches::config::request::{MatchConfig, MatchRequest};
use crate::matches::tally::summary::{Stopwatch, Summary};
use crate::tournaments::runners::cutechess::Cutechess;
use crate::tournaments::runners::fastchess::Fastchess;
use crate::tournaments::runners::{Adjudication, HandoffDialect};
use crate::tournaments::tournament::{MatchOptions, Tool, TournamentError, plan, shell_line};

use book::Book;
pub use pgn::{RunnerPgnError, read_games};
use probe::probe;
use process::{read_from, run_runner};
use schedule::{Layout, place_games};

/// The real match runners a match can be handed to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Runner {
    /// fastchess (UCI engines only).
    Fastchess,
    /// cutechess-cli.
    Cutechess,
}

impl Runner {
    /// The runner's tool and its schedule for a handed-off match.
    fn dialects(self) -> (Tool, &'static dyn HandoffDialect) {
        match self {
            Runner::Fastchess => (Tool::Fastchess, &Fastchess),
            Runner::Cutechess => (Tool::Cutechess, &Cutechess),
        }
    }

    /// The program looked up on PATH.
    pub fn program(self) -> &'static str {
        self.tool().dialect().program()
    }

    fn tool(self) -> Tool {
        self.dialects().0
    }

    /// How it takes the book's openings and numbers its games.
    fn schedule(self) -> &'static dyn HandoffDialect {
        self.dialects().1
    }
}

/// Why a handed-off match could not be played or read back.
#[derive(Debug, Error)]
pub enum HandoffError {
    /// The request itself (SPECs, `--engine`, limits) or an engine's probe.
    #[error(transparent)]
    Match(#[from] MatchError),
    /// The runner cannot drive an engine (fastchess and an XBoard engine).
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    /// An option the runner cannot honour as sp960 means it.
    #[error("--runner {runner}: {reason}")]
    Refused {
        /// The runner's program.
        runner: &'static str,
        /// What and why.
        reason: String,
    },
    /// The runner is not on PATH.
    #[error("--runner: '{0}' not found on PATH")]
    NotFound(&'static str),
    /// The runner did not start, or could not be waited for.
    #[error("{runner}: {action}{source}")]
    Process {
        /// The runner's program.
        runner: &'static str,
        /// `cannot start: `, or nothing (waiting).
        action: &'static str,
        /// The error.
        source: io::Error,
    },
    /// The runner did not end well.
    #[error("{runner}: {reason}")]
    Failed {
        /// The runner's program.
        runner: &'static str,
        /// How it ended (and with `--json`, its last output lines).
        reason: String,
    },
    /// The book or the PGN file could not be written or read.
    #[error("{path}: {source}")]
    File {
        /// The file.
        path: String,
        /// The error.
        source: io::Error,
    },
    /// A game of the runner's PGN cannot be read or placed in the match.
    #[error("{path}: {source}")]
    Pgn {
        /// The PGN file.
        path: String,
        /// The line and the reason.
        source: RunnerPgnError,
    },
}

impl HandoffError {
    /// The exit code: as `sp960 match` and `sp960 tournament`; a refused option 2, a
    /// runner not found 127, a runner that failed 3.
    pub fn exit_code(&self) -> u8 {
        use crate::exit_code::{ENGINE_NOT_FOUND, ENGINE_UNSUITABLE, USAGE};
        match self {
            HandoffError::Match(err) => err.exit_code(),
            HandoffError::Tournament(err) => err.exit_code(),
            HandoffError::Refused { .. } | HandoffError::File { .. } | HandoffError::Pgn { .. } => {
                USAGE
            }
            HandoffError::NotFound(_) => ENGINE_NOT_FOUND,
            HandoffError::Process { .. } | HandoffError::Failed { .. } => ENGINE_UNSUITABLE,
        }
    }
}

/// `sp960 match --runner`: resolves the request as `sp960 match` does, hands the match to
/// `runner`, and writes the table (or `--json`) of the games it played to `out`.
pub fn handoff_command(
    request: MatchRequest,
    runner: Runner,
    out: &mut dyn Write,
) -> Result<Summary, HandoffError> {
    refuse_what_a_handoff_cannot_do(&request, runner)?;
    let engine_texts = request.engines.clone();
    let sp960 = request.builtin.clone();
    let json = request.json;
    let config = request.resolve()?;
    refuse_what_the_runner_cannot_do(&config, runner)?;
    let layout = Layout::new(&config, runner)?;
    let program = crate::os::process::find_program(runner.program())
        .ok_or(HandoffError::NotFound(runner.program()))?;
    let stopwatch = Stopwatch::start();
    let engines = probe(&config, &engine_texts, &sp960)?;
    let book = Book::new(&config);
    let options = match_options(&config, runner, &layout, &program);
    let plan = plan(&book.tournament(&config, runner, &layout, engines, &sp960, options))?;
    let book_text = book.text(&plan, &config, runner, &layout);
    std::fs::write(&book.path, book_text).map_err(|source| file_error(&book.path, source))?;
    let pgn_start = std::fs::metadata(&config.pgn).map_or(0, |m| m.len());
    if !json {
        for note in &plan.notes {
            eprintln!("sp960: match: {note}");
        }
        eprintln!(
            "sp960: match: running {}",
            shell_line(&plan, crate::tournaments::shell::Shell::platform()).trim_end()
        );
    }
    // Ctrl-C reaches the runner too (one process group): it stops, and the games it
    // finished are read back and reported, as the built-in runner does.
    let sigint = crate::os::interrupt::Guard::install();
    let ran = run_runner(runner, &plan.line.argv, json);
    let interrupted = crate::os::interrupt::interrupted();
    drop(sigint);
    let _ = std::fs::remove_file(&book.path);
    if !interrupted {
        ran?;
    }
    let text = read_from(&config.pgn, pgn_start).map_err(|err| file_error(&config.pgn, err))?;
    let pgn_error = |source| HandoffError::Pgn {
        path: config.pgn.display().to_string(),
        source,
    };
    let games = read_games(&text).map_err(pgn_error)?;
    let names: Vec<String> = plan.launches().map(|launch| launch.name.clone()).collect();
    let (tally, listed) = place_games(&config, &layout, &names, &games).map_err(pgn_error)?;
    let played = listed.len();
    let record = stopwatch.record(listed, played, &config.pgn, interrupted);
    let summary = Summary::new(&tally, names, config.sprt.as_ref(), None, record);
    Ok(crate::matches::report(summary, json, out)?)
}

/// The book or the PGN file `path` could not be written or read.
fn file_error(path: &Path, source: io::Error) -> HandoffError {
    HandoffError::File {
        path: path.display().to_string(),
        source,
    }
}

/// What `--runner` does not do (yet), refused before anything runs.
fn refuse_what_a_handoff_cannot_do(
    request: &MatchRequest,
    runner: Runner,
) -> Result<(), HandoffError> {
    let refused = |reason: &str| HandoffError::Refused {
        runner: runner.program(),
        reason: reason.to_owned(),
    };
    if request.log.is_some() {
        return Err(refused(
            "--log is the built-in runner's (the runners keep their own logs: fastchess -log, \
             cutechess-cli -debug)",
        ));
    }
    if request.affinity.is_some() {
        return Err(refused(
            "--affinity is the built-in runner's (fastchess has its own -use-affinity: give it \
             through sp960 tournament)",
        ));
    }
    if request.resume {
        return Err(refused(
            "--resume is the built-in runner's (fastchess resumes from its own -config file=)",
        ));
    }
    if request.event.is_some() || request.site.is_some() {
        return Err(refused(
            "--event and --site are the built-in runner's (give the runner's own -event, -site \
             through sp960 tournament)",
        ));
    }
    Ok(())
}

/// The options a runner cannot take as sp960 means them.
fn refuse_what_the_runner_cannot_do(
    config: &MatchConfig,
    runner: Runner,
) -> Result<(), HandoffError> {
    let refuse = |reason: &str| {
        Err(HandoffError::Refused {
            runner: runner.program(),
            reason: reason.to_owned(),
        })
    };
    if let Some(plies) = config.max_plies
        && plies % 2 == 1
    {
        return refuse(&format!(
            "--max-plies {plies}: the runner's -maxmoves counts moves of both sides (2 plies); \
             give an even number"
        ));
    }
    if let Some(reason) = runner.schedule().refuses_sprt()
        && config.sprt.is_some()
    {
        return refuse(reason);
    }
    if config.limits.clock.is_some() && config.engine_limits.iter().any(|l| l.movetime.is_some()) {
        return refuse("--tc with a time per move (--movetime or st=): give one of them");
    }
    Ok(())
}

/// What the match adds to the tournament line: the runner's path, the layout's rounds and
/// tournament kind, `timemargin=` without a clock (`tc=inf` then comes from the clock's
/// absence), `-maxmoves`, `-resign`, `-draw`, `-sprt`.
fn match_options(
    config: &MatchConfig,
    runner: Runner,
    layout: &Layout,
    program: &Path,
) -> MatchOptions {
    // sp960's --timeout: how long past st= a move may take (without it fastchess forfeits
    // a move 1 ms late).
    let per_move = config.engine_limits.iter().any(|l| l.movetime.is_some());
    MatchOptions {
        program: Some(program.display().to_string()),
        rounds: Some(layout.cycles),
        kind: layout.kind(),
        move_margin: (config.limits.clock.is_none() && per_move).then_some(config.move_timeout),
        adjudication: Adjudication {
            max_moves: config.max_plies.map(|plies| plies / 2),
            resign: config.resign,
            draw: config.draw,
        },
        sprt: config
            .sprt
            .filter(|_| runner.schedule().refuses_sprt().is_none()),
    }
}

#[cfg(test)]
#[path = "handoff_tests.rs"]
mod tests;
