//! `sp960 check`'s plan: start the engine, then the groups in order ([`groups`]: protocol,
//! notation, movegen with the descent on every difference, play), and the verdict,
//! computed from the rows' ids; when every failure is one `sp960 proxy` mends
//! ([`CheckId::mending`]), the same protocol and play checks again through the proxy to
//! prove it. An engine that hangs or crashes in a case is reported in that case's row and
//! started afresh for the next.

use std::io::IsTerminal;
use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::check::cases::{Case, cases};
use crate::check::engine::{CheckEngine, EngineFailure, EngineSetup};
use crate::check::groups::movegen::perft_rows;
use crate::check::groups::notation::notation_rows;
use crate::check::groups::play::play_rows;
use crate::check::groups::protocol::{
    castling_files_row, declaration_rows, probe_perft, variant_row,
};
use crate::check::ids::{CheckId, Mending, Translation};
use crate::check::positions::{OwnPosition, PerftPlan, probes};
use crate::check::report::{CheckReport, CheckRow, Cost, Readiness, Status};
use crate::launch::command::{EngineCommand, SpawnError};
use crate::launch::engine_start::EngineStart;
use crate::launch::proxy_invocation::{ProxyInvocation, ProxyOptions};
use crate::os::cpu;
use crate::protocol::Protocol;
use crate::protocol::perft::PerftDialect;

/// Which perft command to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PerftChoice {
    /// The one the engine is known by its name to have, if any.
    Auto,
    /// This one.
    Dialect(PerftDialect),
    /// None: move generation is checked through play only.
    Off,
}

/// Everything `sp960 check` was asked.
#[derive(Debug, Clone)]
pub struct CheckRequest {
    /// The engine.
    pub engine: EngineSetup,
    /// Its perft command.
    pub perft: PerftChoice,
    /// The positions counted and how deep.
    pub plan: PerftPlan,
    /// The author's own positions (`--positions FILE`), counted last.
    pub own: Vec<OwnPosition>,
    /// Depth of the play group's searches.
    pub play_depth: u32,
    /// This program, to run the engine through `sp960 proxy` when it needs it (`None`:
    /// not tried).
    pub proxy_program: Option<PathBuf>,
    /// A progress bar on stderr when it is a terminal.
    pub progress: bool,
}

/// Why the check could not go on: the engine (or the perft script) could not be started,
/// or not started again.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The engine could not be started.
    #[error(transparent)]
    Spawn(#[from] SpawnError),
    /// The engine failed in a case and could not be started again.
    #[error("the engine {what}, and could not be started again: {source}")]
    Restart {
        /// What it did (`failed (no answer within 30 s)`).
        what: String,
        /// Why it could not be started again.
        source: EngineFailure,
    },
    /// The perft script could not be started.
    #[error("cannot start the perft script '{program}': {source}")]
    Script {
        /// The script's program.
        program: String,
        /// Why.
        source: std::io::Error,
    },
}

impl CheckError {
    /// The exit code: 127 not found, 126 not executable, 3 an engine that could not be
    /// started again.
    pub fn exit_code(&self) -> u8 {
        match self {
            CheckError::Spawn(err) => err.exit_code(),
            CheckError::Restart { .. } => crate::exit_code::ENGINE_UNSUITABLE,
            CheckError::Script { source, .. } => match source.kind() {
                std::io::ErrorKind::NotFound => crate::exit_code::ENGINE_NOT_FOUND,
                _ => crate::exit_code::ENGINE_NOT_EXECUTABLE,
            },
        }
    }
}

/// Runs the check.
pub fn check(request: &CheckRequest) -> Result<CheckReport, CheckError> {
    let began = (
        std::time::Instant::now(),
        cpu::process_seconds(),
        cpu::children_seconds(),
    );
    let mut report = check_engine(request)?;
    report.cost = Some(Cost {
        wall: began.0.elapsed().as_secs_f64(),
        sp960_cpu: cpu::process_seconds() - began.1,
        engine_cpu: cpu::children_seconds()
            .zip(began.2)
            .map(|(now, then)| now - then),
    });
    Ok(report)
}

fn check_engine(request: &CheckRequest) -> Result<CheckReport, CheckError> {
    let mut engine = match CheckEngine::start(&request.engine) {
        Ok(engine) => engine,
        Err(EngineFailure::Spawn(err)) => return Err(CheckError::Spawn(err)),
        Err(failure) => {
            let name = program_name(&request.engine.start.command);
            let why = format!("handshake failed: {failure}");
            let outcome = (Status::Fail, failure.to_string(), why);
            let row = CheckRow::new(CheckId::Handshake, "uci / xboard".into(), outcome);
            return Ok(finish(name, "unknown".into(), None, vec![row], None));
        }
    };
    let name = engine
        .handshake
        .name
        .clone()
        .unwrap_or_else(|| program_name(&request.engine.start.command));
    let protocol = engine.protocol();
    let mut rows = Vec::new();
    let dialect;
    (engine, dialect) = perft_dialect(engine, request.perft, &name, &mut rows)?;
    let play_cases = played_cases();
    let chess960_castling;
    (engine, chess960_castling) =
        run_groups(engine, request, dialect, &name, &play_cases, &mut rows)?;
    engine.quit();
    let proxy = translations(&rows, protocol).and_then(|translations| {
        let program = request.proxy_program.as_ref()?;
        Some((
            translations,
            through_proxy(request, program, protocol, chess960_castling, &play_cases),
        ))
    });
    Ok(finish(name, protocol.to_string(), dialect, rows, proxy))
}

/// The cases the notation and play groups ask ([`Case::is_played`]).
fn played_cases() -> Vec<&'static Case> {
    cases().iter().filter(|case| case.is_played()).collect()
}

/// The perft command asked for, or known by the engine's name, or found by a probe.
fn perft_dialect(
    engine: CheckEngine,
    choice: PerftChoice,
    name: &str,
    rows: &mut Vec<CheckRow>,
) -> Result<(CheckEngine, Option<PerftDialect>), CheckError> {
    match choice {
        PerftChoice::Auto => match PerftDialect::of_engine(name, engine.protocol()) {
            Some(dialect) => Ok((engine, Some(dialect))),
            None => probe_perft(engine, name, rows),
        },
        PerftChoice::Dialect(dialect) => Ok((engine, Some(dialect))),
        PerftChoice::Off => Ok((engine, None)),
    }
}

/// The groups in order; returns the engine and whether it can be asked for castlings
/// only Chess960 has.
fn run_groups(
    mut engine: CheckEngine,
    request: &CheckRequest,
    dialect: Option<PerftDialect>,
    name: &str,
    play_cases: &[&'static Case],
    rows: &mut Vec<CheckRow>,
) -> Result<(CheckEngine, bool), CheckError> {
    let probes = match dialect {
        Some(_) => probes(&request.plan, &request.own),
        None => Vec::new(),
    };
    let bar = progress_bar(request.progress, probes.len() + play_cases.len() + 4);
    declaration_rows(&engine, rows);
    if engine.shares_castling_files() {
        rows.push(castling_files_row(name));
    }
    match dialect {
        Some(dialect) => {
            engine = variant_row(engine, dialect, rows)?;
            bar.set_message("notation");
            engine = notation_rows(engine, dialect, rows)?;
            engine = perft_rows(engine, dialect, &probes, &bar, rows)?;
        }
        None => rows.push(CheckRow::skipped(
            CheckId::PerftSkipped,
            match request.perft {
                PerftChoice::Off => "--perft none: move generation checked only through play \
                                     (the traps)"
                    .to_owned(),
                _ => format!(
                    "no perft command found for {name} (--perft names one): move generation \
                     checked only through play (the traps)"
                ),
            },
        )),
    }
    bar.set_message("play");
    let protocol = engine.protocol();
    let chess960_castling = protocol == Protocol::Xboard || engine.has_chess960_option();
    let depth = request.play_depth;
    engine = play_rows(engine, play_cases, depth, chess960_castling, &bar, rows)?;
    bar.finish_and_clear();
    Ok((engine, chess960_castling))
}

fn program_name(command: &EngineCommand) -> String {
    std::path::Path::new(&command.program)
        .file_name()
        .map_or_else(
            || command.program.to_string_lossy().into_owned(),
            |name| name.to_string_lossy().into_owned(),
        )
}

/// A bar of `total` steps on stderr, when `enabled` and stderr is a terminal.
pub(crate) fn progress_bar(enabled: bool, total: usize) -> ProgressBar {
    let target = if enabled && std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    ProgressBar::with_draw_target(Some(total as u64), target).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}").expect("a valid template"),
    )
}

/// The verdict from the rows (and the proxy's rows, when tried).
fn finish(
    engine: String,
    protocol: String,
    perft: Option<PerftDialect>,
    rows: Vec<CheckRow>,
    proxy: Option<(Vec<String>, Vec<CheckRow>)>,
) -> CheckReport {
    // Without a perft, "ready" rests on play alone, and says so.
    let not_counted = perft
        .is_none()
        .then(|| "move generation not checked: no perft command".to_owned());
    let (verdict, proxy_rows) = match (first_defect(&rows), proxy) {
        (None, _) => match not_counted {
            None => (Readiness::Ready, Vec::new()),
            Some(not_checked) => (Readiness::ReadyInPlay { not_checked }, Vec::new()),
        },
        (Some(_), Some((translations, proxy_rows))) if first_defect(&proxy_rows).is_none() => (
            Readiness::ReadyThroughProxy {
                translations,
                not_checked: not_counted,
            },
            proxy_rows,
        ),
        (Some(defect), proxy) => (
            Readiness::NotReady {
                first_defect: defect,
            },
            proxy.map(|(_, rows)| rows).unwrap_or_default(),
        ),
    };
    CheckReport {
        engine,
        protocol,
        perft: perft.map_or_else(|| "none".to_owned(), |d| d.to_string()),
        rows,
        proxy_rows,
        verdict,
        cost: None,
    }
}

/// The first failing row, as the verdict names it: `label: why`.
pub(crate) fn first_defect(rows: &[CheckRow]) -> Option<String> {
    rows.iter()
        .find(|r| r.status == Status::Fail)
        .map(|r| format!("{}: {}", r.id.label(), r.why))
}

/// When every failure is one `sp960 proxy` mends: what it translates, in the order first
/// met.
fn translations(rows: &[CheckRow], protocol: Protocol) -> Option<Vec<String>> {
    let failures: Vec<&CheckRow> = rows.iter().filter(|r| r.status == Status::Fail).collect();
    if failures.is_empty() {
        return None;
    }
    let mending_failed = |translation| {
        failures
            .iter()
            .any(|row| row.id.mending(protocol) == Mending::By(translation))
    };
    let mut translations: Vec<Translation> = Vec::new();
    for row in &failures {
        match row.id.mending(protocol) {
            Mending::By(translation) => {
                if !translations.contains(&translation) {
                    translations.push(translation);
                }
            }
            Mending::WithRowOf(translation) if mending_failed(translation) => {}
            Mending::WithRowOf(_) | Mending::Not => return None,
        }
    }
    Some(
        translations
            .iter()
            .map(|t| t.sentence().to_owned())
            .collect(),
    )
}

/// The protocol and play checks again, the engine behind `program proxy -- ENGINE` (the
/// perft rows are not: the proxy refuses `go perft`; its `UCI_Variant chess960` translation
/// is proven with cutechess-cli itself in tests/runners.rs).
fn through_proxy(
    request: &CheckRequest,
    program: &std::path::Path,
    protocol: Protocol,
    chess960_castling: bool,
    cases: &[&'static Case],
) -> Vec<CheckRow> {
    let command = request.engine.start.command.clone();
    let options = match protocol {
        Protocol::Uci => ProxyOptions {
            offer_chess960: true,
            ..ProxyOptions::default()
        },
        Protocol::Xboard => ProxyOptions {
            protocol: Some(Protocol::Xboard),
            ..ProxyOptions::default()
        },
    };
    let invocation = ProxyInvocation::new(options, command.program, command.args);
    let setup = EngineSetup {
        start: EngineStart {
            command: EngineCommand {
                program: program.into(),
                args: invocation.words(),
                dir: command.dir,
            },
            protocol: Some(protocol),
            ..request.engine.start.clone()
        },
        ..request.engine.clone()
    };
    let mut rows = Vec::new();
    let engine = match CheckEngine::start(&setup) {
        Ok(engine) => engine,
        Err(failure) => {
            let why = format!("handshake through sp960 proxy failed: {failure}");
            let outcome = (Status::Fail, failure.to_string(), why);
            rows.push(CheckRow::new(
                CheckId::Handshake,
                "through sp960 proxy".into(),
                outcome,
            ));
            return rows;
        }
    };
    declaration_rows(&engine, &mut rows);
    let bar = ProgressBar::hidden();
    let depth = request.play_depth;
    match play_rows(engine, cases, depth, chess960_castling, &bar, &mut rows) {
        Ok(engine) => engine.quit(),
        Err(err) => {
            let outcome = (Status::Fail, err.to_string(), err.to_string());
            rows.push(CheckRow::new(
                CheckId::Restart,
                "through sp960 proxy".into(),
                outcome,
            ));
        }
    }
    rows
}
