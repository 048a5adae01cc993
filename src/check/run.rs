//! `sp960 check` in named steps: start the engine, the protocol group, the perft group
//! (with the descent on every difference), the play group, and the verdict; when the only
//! failures are what `sp960 proxy` translates, the same protocol and play checks again
//! through the proxy to prove it. An engine that hangs or crashes in a case is reported in
//! that case's row and started afresh for the next.

use std::io::IsTerminal;
use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use shakmaty::{Chess, Position};

use crate::check::cases::{CASES, Case, Mode};
use crate::check::descent::{Descent, Next, Outcome, chess960};
use crate::check::engine::{CheckEngine, EngineFailure, EngineSetup};
use crate::check::positions::{Plan, Probe, probes};
use crate::check::reference;
use crate::check::report::{Cost, Group, Report, Row, Status, Verdict};
use crate::check::traps::{TRAPS, TrapAnswer, parse_uci};
use crate::launch::command::EngineCommand;
use crate::os::cpu;
use crate::protocol::Protocol;
use crate::protocol::perft::{PerftDialect, probe_commands};
use crate::protocol::uci::OptionDecl;
use crate::starts::castling::{CastlingDialect, parse_move};
use crate::starts::notation::{CastlingNotation, position_fen};

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
    pub plan: Plan,
    /// Depth of the play group's searches.
    pub play_depth: u32,
    /// This program, to run the engine through `sp960 proxy` when it needs it (`None`:
    /// not tried).
    pub proxy_program: Option<PathBuf>,
    /// A progress bar on stderr when it is a terminal.
    pub progress: bool,
}

/// Why the check could not go on: the engine could not be started (again).
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct CheckError {
    /// What happened.
    pub message: String,
    /// The exit code (127 not found, 126 not executable, 3 an engine that could not be
    /// started again).
    pub code: u8,
}

/// Runs the check.
pub fn check(request: &CheckRequest) -> Result<Report, CheckError> {
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

fn check_engine(request: &CheckRequest) -> Result<Report, CheckError> {
    let mut engine = match CheckEngine::start(&request.engine) {
        Ok(engine) => engine,
        Err(EngineFailure::Spawn(message, code)) => return Err(CheckError { message, code }),
        Err(failure) => {
            let name = program_name(&request.engine.command);
            let row = Row {
                group: Group::Protocol,
                case: "handshake".into(),
                sent: "uci / xboard".into(),
                got: failure.to_string(),
                status: Status::Fail,
                why: format!("handshake failed: {failure}"),
            };
            return Ok(finish(name, "unknown".into(), None, vec![row], None));
        }
    };
    let name = engine
        .handshake
        .name
        .clone()
        .unwrap_or_else(|| program_name(&request.engine.command));
    let protocol = engine.protocol();
    let mut rows = Vec::new();
    let dialect = match request.perft {
        PerftChoice::Auto => match PerftDialect::of_engine(&name, protocol) {
            Some(dialect) => Some(dialect),
            None => {
                let found;
                (engine, found) = probe_perft(engine, &name, &mut rows)?;
                found
            }
        },
        PerftChoice::Dialect(dialect) => Some(dialect),
        PerftChoice::Off => None,
    };
    let play_cases: Vec<&Case> = CASES
        .iter()
        .filter(|c| c.castling.is_some() && c.mode == Mode::Chess960)
        .collect();
    let probes = match dialect {
        Some(_) => probes(&request.plan),
        None => Vec::new(),
    };
    let bar = progress_bar(request.progress, probes.len() + play_cases.len() + 4);

    protocol_rows(&mut engine, &mut rows);
    if engine.shares_castling_files() {
        rows.push(Row {
            group: Group::Protocol,
            case: "castling files".into(),
            sent: "uci".into(),
            got: name.clone(),
            status: Status::Fail,
            why: format!(
                "{name} keeps one set of castling files for both colours (sp960's quirks \
                 table): a position whose colours castle with different rooks reaches it \
                 only without the rights it cannot hold, as the proxy renders it (and as \
                 this check did)"
            ),
        });
    }
    match dialect {
        Some(dialect) => {
            bar.set_message("notation");
            engine = notation_rows(engine, dialect, &mut rows)?;
            engine = perft_rows(engine, dialect, &probes, &bar, &mut rows)?;
        }
        None => rows.push(Row {
            group: Group::Movegen,
            case: "perft".into(),
            sent: String::new(),
            got: String::new(),
            status: Status::Skip,
            why: match request.perft {
                PerftChoice::Off => "--perft none: move generation checked only through \
                                     play (the traps)"
                    .to_owned(),
                _ => format!(
                    "no perft command found for {name} (--perft names one): move generation \
                     checked only through play (the traps)"
                ),
            },
        }),
    }
    bar.set_message("play");
    let chess960_castling = protocol == Protocol::Xboard || engine.has_chess960_option();
    engine = play_rows(
        engine,
        &play_cases,
        request.play_depth,
        chess960_castling,
        &bar,
        &mut rows,
    )?;
    engine.quit();
    bar.finish_and_clear();

    let proxy = translations(&rows, protocol).and_then(|translations| {
        let program = request.proxy_program.as_ref()?;
        Some((
            translations,
            through_proxy(request, program, protocol, chess960_castling, &play_cases),
        ))
    });
    Ok(finish(name, protocol.to_string(), dialect, rows, proxy))
}

/// An engine whose perft is not known by its name is asked each form sp960 reads
/// (`go perft 2`, `perft 2`), its answer read by shape; started afresh after a form it
/// does not answer. One protocol row says what was found.
fn probe_perft(
    mut engine: CheckEngine,
    name: &str,
    rows: &mut Vec<Row>,
) -> Result<(CheckEngine, Option<PerftDialect>), CheckError> {
    // SP 518, the standard start: a FEN every engine reads, whatever castling letters it
    // knows (Toga II 3.0 exits on Shredder-FEN letters).
    const FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let commands = probe_commands(engine.protocol());
    let sent: Vec<String> = commands.iter().map(|c| c.line()).collect();
    let sent = format!("{} in {FEN}", sent.join(", then "));
    for command in commands {
        match engine.probe_perft(*command, FEN) {
            Ok(Some(dialect)) => {
                rows.push(Row {
                    group: Group::Protocol,
                    case: "perft command".into(),
                    sent,
                    got: format!("{}: {dialect}", command.line()),
                    status: Status::Pass,
                    why: String::new(),
                });
                return Ok((engine, Some(dialect)));
            }
            Ok(None) => {
                engine = restarted(engine, "did not answer a perft probe as a perft")?;
            }
            Err(failure) => engine = failed_engine(engine, &failure)?,
        }
    }
    rows.push(Row {
        group: Group::Protocol,
        case: "perft command".into(),
        sent,
        got: "no perft reply".into(),
        status: Status::Skip,
        why: format!(
            "{name} answered none of them with a perft (a divide, a total, or a line per \
             depth): move generation not checked by counting"
        ),
    });
    Ok((engine, None))
}

/// The engine started afresh after what it did (`the engine {what}`), or why it could not
/// be.
fn restarted(engine: CheckEngine, what: impl std::fmt::Display) -> Result<CheckEngine, CheckError> {
    engine.restart().map_err(|err| CheckError {
        message: format!("the engine {what}, and could not be started again: {err}"),
        code: crate::exit_code::ENGINE_UNSUITABLE,
    })
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
    rows: Vec<Row>,
    proxy: Option<(Vec<String>, Vec<Row>)>,
) -> Report {
    // Without a perft, "ready" rests on play alone, and says so.
    let not_counted = perft
        .is_none()
        .then(|| "move generation not checked: no perft command".to_owned());
    let first = |rows: &[Row]| {
        rows.iter()
            .find(|r| r.status == Status::Fail)
            .map(|r| format!("{}: {}", r.case, r.why))
    };
    let (verdict, proxy_rows) = match (first(&rows), proxy) {
        (None, _) => match not_counted {
            None => (Verdict::Ready, Vec::new()),
            Some(not_checked) => (Verdict::ReadyInPlay { not_checked }, Vec::new()),
        },
        (Some(_), Some((translations, proxy_rows))) if first(&proxy_rows).is_none() => (
            Verdict::ReadyThroughProxy {
                translations,
                not_checked: not_counted,
            },
            proxy_rows,
        ),
        (Some(defect), proxy) => (
            Verdict::NotReady {
                first_defect: defect,
            },
            proxy.map(|(_, rows)| rows).unwrap_or_default(),
        ),
    };
    Report {
        engine,
        protocol,
        perft: perft.map_or_else(|| "none".to_owned(), |d| d.to_string()),
        rows,
        proxy_rows,
        verdict,
        cost: None,
    }
}

/// What the engine declares.
fn protocol_rows(engine: &mut CheckEngine, rows: &mut Vec<Row>) {
    match engine.protocol() {
        Protocol::Uci => {
            let declared = engine
                .handshake
                .declarations
                .iter()
                .find(|line| OptionDecl::parse(line.as_bytes()).is("UCI_Chess960"));
            let (status, got, why) = match declared {
                None => (
                    Status::Fail,
                    "no option UCI_Chess960".to_owned(),
                    "UCI_Chess960 is not declared: the engine plays standard chess only".to_owned(),
                ),
                Some(line) => {
                    let decl = OptionDecl::parse(line.as_bytes());
                    if decl.kind != b"check" {
                        (
                            Status::Fail,
                            line.clone(),
                            format!(
                                "UCI_Chess960 is declared with type {}, not check",
                                String::from_utf8_lossy(&decl.kind)
                            ),
                        )
                    } else if decl.default.as_deref() != Some(b"false") {
                        (
                            Status::Fail,
                            line.clone(),
                            "UCI_Chess960's default is not 'false' in lower case (GUIs such \
                             as lichess-bot read it case-sensitively: its issue 1129)"
                                .to_owned(),
                        )
                    } else {
                        (Status::Pass, line.clone(), String::new())
                    }
                }
            };
            rows.push(Row {
                group: Group::Protocol,
                case: "UCI_Chess960 declared".into(),
                sent: "uci".into(),
                got,
                status,
                why,
            });
        }
        Protocol::Xboard => {
            let (status, why) = match engine.xboard_support() {
                Ok(()) => (Status::Pass, String::new()),
                Err(reason) => (Status::Fail, reason.to_string()),
            };
            // The feature line that declares setboard (or else variants), as read.
            let declared = |key: &str| {
                engine
                    .handshake
                    .declarations
                    .iter()
                    .find(|line| line.contains(key))
            };
            let got = declared("setboard=")
                .or_else(|| declared("variants="))
                .map_or("no such feature".to_owned(), |line| {
                    line.chars().take(120).collect()
                });
            rows.push(Row {
                group: Group::Protocol,
                case: "setboard, fischerandom".into(),
                sent: "xboard, protover 2".into(),
                got,
                status,
                why,
            });
        }
    }
}

/// The engine after a failed question: started afresh when it hung, exited or gave an
/// unreadable perft reply (whose rest may still come); as it is after a wrong answer.
fn failed_engine(engine: CheckEngine, failure: &EngineFailure) -> Result<CheckEngine, CheckError> {
    match failure {
        EngineFailure::Timeout(_) | EngineFailure::Closed(_) | EngineFailure::Perft(_) => {
            restarted(engine, format_args!("failed ({failure})"))
        }
        _ => Ok(engine),
    }
}

/// A failed question's outcome (status, what came back, why): the failure, and `why`; the
/// engine is started afresh when it hung or died ([`failed_engine`]).
fn failed_row(
    engine: CheckEngine,
    failure: &EngineFailure,
    why: String,
) -> Result<(CheckEngine, (Status, String, String)), CheckError> {
    let engine = failed_engine(engine, failure)?;
    Ok((engine, (Status::Fail, failure.to_string(), why)))
}

/// Which castling notation the engine writes and accepts, and both FEN castling fields.
fn notation_rows(
    mut engine: CheckEngine,
    dialect: PerftDialect,
    rows: &mut Vec<Row>,
) -> Result<CheckEngine, CheckError> {
    // Written: the divide of a position with both castlings, in Chess960 mode.
    if dialect.divides() {
        let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w HAha - 0 1";
        let row = |status, got: String, why: String| Row {
            group: Group::Protocol,
            case: "castling written".into(),
            sent: format!("{} in {fen}", dialect.command(1)),
            got,
            status,
            why,
        };
        match engine.perft(dialect, fen, &[], 1, Mode::Chess960) {
            Ok(reply) => {
                let texts: Vec<&str> = reply
                    .divide
                    .iter()
                    .flatten()
                    .map(|(text, _)| text.as_str())
                    .filter(|t| matches!(*t, "e1h1" | "e1a1" | "e1g1" | "e1c1"))
                    .collect();
                let got = texts.join(" ");
                rows.push(if texts.contains(&"e1h1") && texts.contains(&"e1a1") {
                    row(
                        Status::Pass,
                        format!("{got} (king takes rook)"),
                        String::new(),
                    )
                } else {
                    row(
                        Status::Fail,
                        got.clone(),
                        format!(
                            "in Chess960 mode castling is written king takes rook (e1h1, e1a1); \
                             the engine wrote '{got}' in {fen}"
                        ),
                    )
                });
            }
            Err(failure) => {
                rows.push(row(
                    Status::Fail,
                    failure.to_string(),
                    format!("{}: {failure}", dialect.command(1)),
                ));
                engine = failed_engine(engine, &failure)?;
            }
        }
    }
    // Accepted: the count after the castling move in `position ... moves` is the
    // engine's own count from the FEN after it (its move generation is the perft group's
    // business: here only the move's reading is checked).
    // XBoard: through play only. Fairy-Stockfish 11.1 miscounts after moves sent in
    // force mode once it has run a perft (docs/check.md has the transcript), so a count
    // there says nothing about the castling move.
    let accepted_by_perft = engine.protocol() == Protocol::Uci;
    if !accepted_by_perft {
        rows.push(Row {
            group: Group::Protocol,
            case: "castling accepted".into(),
            sent: String::new(),
            got: String::new(),
            status: Status::Skip,
            why: "XBoard: the castling moves sent are checked by the play group".into(),
        });
    }
    for case in CASES
        .iter()
        .filter(|c| accepted_by_perft && c.castling.is_some() && c.mode == Mode::Chess960)
        .take(2)
    {
        let castle = case.castling.expect("filtered");
        let root = chess960(case.fen);
        let m = parse_move(&root, castle.as_bytes()).expect("a tested case");
        let mut after = root.clone();
        after.play_unchecked(m);
        let after_fen = position_fen(&after, CastlingNotation::Shredder);
        let sent = format!(
            "{} after {castle} in {}, and from {after_fen}",
            dialect.command(2),
            case.fen
        );
        let answers = engine
            .perft(dialect, case.fen, &[castle], 2, Mode::Chess960)
            .and_then(|moved| {
                Ok((
                    moved,
                    engine.perft(dialect, &after_fen, &[], 2, Mode::Chess960)?,
                ))
            });
        let (status, got, why) = match answers {
            Ok((moved, set)) if moved.total == set.total => (
                Status::Pass,
                format!("{} and {}", moved.total, set.total),
                String::new(),
            ),
            Ok((moved, set)) => (
                Status::Fail,
                format!("{} and {}", moved.total, set.total),
                format!(
                    "after castling {castle} in {} the engine counts {} at depth 2, and {} from \
                     the position castling gives ({after_fen}): the move was not played as \
                     castling",
                    case.fen, moved.total, set.total
                ),
            ),
            Err(failure) => {
                let why = format!("{sent}: {failure}");
                let (restarted, outcome) = failed_row(engine, &failure, why)?;
                engine = restarted;
                outcome
            }
        };
        rows.push(Row::new(
            Group::Protocol,
            format!("castling {castle} accepted"),
            sent,
            (status, got, why),
        ));
    }
    // Both castling fields: the same counts from Shredder-FEN and X-FEN (whether they are
    // shakmaty's is the perft group's business; the row says so when they are not).
    for (name, fen) in [
        (
            "SP 0",
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
        ),
        ("outer rook", "1k3r1r/5p1p/8/8/8/8/5P1P/1K3R1R w Hh - 0 1"),
    ] {
        let position = chess960(fen);
        let expected = reference::perft(&position, 3);
        let xfen = position_fen(&position, CastlingNotation::Xfen);
        let mut got = Vec::new();
        let mut why = String::new();
        for text in [fen.to_owned(), xfen.clone()] {
            match engine.perft(dialect, &text, &[], 3, Mode::Chess960) {
                Ok(reply) => got.push(reply.total),
                Err(failure) => {
                    why = format!("{} in {text}: {failure}", dialect.command(3));
                    engine = failed_engine(engine, &failure)?;
                    break;
                }
            }
        }
        if let [shredder, x] = got[..]
            && shredder != x
        {
            why = format!(
                "the engine counts {shredder} from {fen} and {x} from {xfen} at depth 3 \
                 (shakmaty {expected})"
            );
        }
        let mut got: String = got
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(" and ");
        if why.is_empty() && !got.starts_with(&expected.to_string()) {
            got.push_str(&format!(" (shakmaty {expected}: see the perft group)"));
        }
        rows.push(Row {
            group: Group::Protocol,
            case: format!("Shredder-FEN and X-FEN ({name})"),
            sent: format!(
                "{} from {} and {}",
                dialect.command(3),
                fen_castling(fen),
                fen_castling(&xfen)
            ),
            got,
            status: if why.is_empty() {
                Status::Pass
            } else {
                Status::Fail
            },
            why,
        });
    }
    Ok(engine)
}

fn fen_castling(fen: &str) -> &str {
    fen.split_whitespace().nth(2).unwrap_or("-")
}

/// The perft group: every probe, descending on a difference.
fn perft_rows(
    mut engine: CheckEngine,
    dialect: PerftDialect,
    probes: &[Probe],
    bar: &ProgressBar,
    rows: &mut Vec<Row>,
) -> Result<CheckEngine, CheckError> {
    let can_switch = engine.has_chess960_option();
    let mut failures_in_a_row = 0;
    for probe in probes {
        if failures_in_a_row == 3 {
            rows.push(Row {
                group: Group::Movegen,
                case: "perft".into(),
                sent: String::new(),
                got: String::new(),
                status: Status::Fail,
                why: format!(
                    "stopped after three positions in a row without an answer to {}: the \
                     rest were not counted",
                    dialect.command(1)
                ),
            });
            break;
        }
        bar.set_message(probe.label.clone());
        bar.inc(1);
        if probe.mode == Mode::Standard && !can_switch {
            rows.push(Row {
                group: Group::Movegen,
                case: probe.label.clone(),
                sent: String::new(),
                got: String::new(),
                status: Status::Skip,
                why: "no UCI_Chess960 to switch off: standard mode is not checked".into(),
            });
            continue;
        }
        let castling = match probe.mode {
            Mode::Chess960 => CastlingDialect::Chess960,
            Mode::Standard => CastlingDialect::Standard,
        };
        let (mut descent, mut query) = Descent::start(
            probe.position.clone(),
            probe.depth,
            castling,
            dialect.divides(),
        );
        if let Some(count) = probe.kept {
            descent.root_reference(count);
        }
        let sent = format!(
            "{} in {}",
            dialect.command(probe.depth),
            fen_of(&probe.position, probe.mode)
        );
        let row = loop {
            // shakmaty counts while the engine does.
            let reply = engine
                .ask_perft_position(dialect, &query.position, query.depth, probe.mode)
                .and_then(|()| {
                    descent.count_ahead();
                    engine.read_perft(dialect, query.depth)
                });
            match reply {
                Ok(reply) => match descent.on_reply(&reply) {
                    Next::Ask(next) => query = next,
                    Next::Done(outcome) => {
                        failures_in_a_row = 0;
                        break outcome_row(outcome);
                    }
                },
                Err(failure) => {
                    let why = format!(
                        "{} in {}: {failure}",
                        dialect.command(query.depth),
                        fen_of(&query.position, probe.mode)
                    );
                    let got = failure.to_string();
                    engine = failed_engine(engine, &failure)?;
                    failures_in_a_row += 1;
                    break (Status::Fail, got, why);
                }
            }
        };
        rows.push(Row {
            group: Group::Movegen,
            case: probe.label.clone(),
            sent,
            got: row.1,
            status: row.0,
            why: row.2,
        });
    }
    Ok(engine)
}

/// A finished descent as a row's outcome (status, what came back, why): the total when
/// the counts agree, the engine's and shakmaty's totals and the finding when they differ.
pub(crate) fn outcome_row(outcome: Outcome) -> (Status, String, String) {
    match outcome {
        Outcome::Agrees { total } => (Status::Pass, total.to_string(), String::new()),
        Outcome::Differs(finding) => (
            Status::Fail,
            format!("{} (shakmaty {})", finding.root.0, finding.root.1),
            finding.to_string(),
        ),
    }
}

/// The FEN a probe's position is sent in: Shredder-FEN in Chess960 mode, X-FEN in
/// standard mode.
pub(crate) fn fen_of(position: &Chess, mode: Mode) -> String {
    position_fen(
        position,
        match mode {
            Mode::Chess960 => CastlingNotation::Shredder,
            Mode::Standard => CastlingNotation::Xfen,
        },
    )
}

/// The play group: each castling case, the castling made, then a search; and the
/// castling move offered alone with `searchmoves`.
/// `chess960_castling`: whether the engine can be asked for a castling that only
/// Chess960 has (not when it gets standard chess for want of `UCI_Chess960`, directly or
/// behind the proxy's `--offer-chess960`).
fn play_rows(
    mut engine: CheckEngine,
    cases: &[&Case],
    depth: u32,
    chess960_castling: bool,
    bar: &ProgressBar,
    rows: &mut Vec<Row>,
) -> Result<CheckEngine, CheckError> {
    for case in cases {
        bar.set_message(format!("play {}", case.name));
        bar.inc(1);
        let castle = case.castling.expect("filtered");
        let root = chess960(case.fen);
        let m = parse_move(&root, castle.as_bytes()).expect("a tested case");
        let sent = format!("{castle} in {}, then a search to depth {depth}", case.fen);
        let (status, got, why) = match engine.play(&root, &[m], depth) {
            Ok(reply) => (
                Status::Pass,
                crate::starts::castling::move_text(&reply, CastlingDialect::Chess960),
                String::new(),
            ),
            Err(failure) => {
                let why = format!("after {castle} in {}: {failure}", case.fen);
                let (restarted, outcome) = failed_row(engine, &failure, why)?;
                engine = restarted;
                outcome
            }
        };
        rows.push(Row::new(
            Group::Play,
            format!("case {}", case.name),
            sent,
            (status, got, why),
        ));
    }
    match engine.protocol() {
        Protocol::Uci => {
            engine = trap_rows(engine, depth, chess960_castling, rows)?;
            engine = searchmoves_rows(engine, cases, depth, rows)?;
        }
        Protocol::Xboard if engine.xboard_support().is_ok() => {
            engine = trap_rows(engine, depth, true, rows)?;
            engine = written_castling_row(engine, depth, rows)?;
        }
        Protocol::Xboard => {}
    }
    Ok(engine)
}

/// The traps: a search in each position where castling would mate. An illegal castling
/// played, or the legal one missed, is a move-generation defect found by play alone.
fn trap_rows(
    mut engine: CheckEngine,
    depth: u32,
    chess960_castling: bool,
    rows: &mut Vec<Row>,
) -> Result<CheckEngine, CheckError> {
    let protocol = engine.protocol();
    for trap in TRAPS {
        let root = trap.position();
        let sent = format!(
            "{} in {} (castling {} would mate)",
            match protocol {
                Protocol::Uci => format!("go depth {depth}"),
                Protocol::Xboard => format!("sd {depth}, go"),
            },
            trap.fen,
            trap.castling
        );
        if trap.legal && !chess960_castling {
            rows.push(Row::new(
                Group::Play,
                format!("trap {}", trap.name),
                sent,
                (
                    Status::Skip,
                    String::new(),
                    "the engine gets standard chess (no UCI_Chess960 of its own): it cannot \
                     castle where Chess960 castling differs, so this castling is not asked"
                        .into(),
                ),
            ));
            continue;
        }
        let outcome = match engine.search_text(&root, depth) {
            Ok(text) => {
                let answer = match protocol {
                    Protocol::Uci => trap.answer(&text, parse_uci),
                    Protocol::Xboard => trap.answer(&text, |position, text| {
                        crate::protocol::xboard::parse_xboard_move(position, text.as_bytes()).ok()
                    }),
                };
                let fen = trap.fen;
                match answer {
                    TrapAnswer::Right => (Status::Pass, text, String::new()),
                    TrapAnswer::IllegalCastling => {
                        let why = format!(
                            "the engine played {text}, castling that is illegal in {fen}: {} \
                             (it would mate)",
                            trap.reason
                        );
                        (Status::Fail, text, why)
                    }
                    TrapAnswer::Illegal => {
                        let why = format!("the engine played {text}, which is illegal in {fen}");
                        (Status::Fail, text, why)
                    }
                    TrapAnswer::MissedCastling(played) => {
                        let why = format!(
                            "the only mate in one in {fen} is castling {} ({}); the engine \
                             played {played}",
                            trap.castling, trap.reason
                        );
                        (Status::Fail, played, why)
                    }
                }
            }
            Err(failure) => {
                let why = format!("{sent}: {failure}");
                let (restarted, outcome) = failed_row(engine, &failure, why)?;
                engine = restarted;
                outcome
            }
        };
        rows.push(Row::new(
            Group::Play,
            format!("trap {}", trap.name),
            sent,
            outcome,
        ));
    }
    Ok(engine)
}

/// XBoard: which notation the engine writes its own castling in. The position's only mate
/// in one is queen-side castling with the king on b1 and the rook on a1 (the king moves one
/// square, so `b1c1` would be a king step): `O-O-O` or king takes rook (`b1a1`).
fn written_castling_row(
    mut engine: CheckEngine,
    depth: u32,
    rows: &mut Vec<Row>,
) -> Result<CheckEngine, CheckError> {
    const FEN: &str = "2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1";
    let root = chess960(FEN);
    let sent = format!("setboard {FEN}, sd {depth}, go (the only mate in one: O-O-O)");
    let (status, got, why) = match engine.xboard_move(FEN, depth) {
        Ok(text) => match crate::protocol::xboard::parse_xboard_move(&root, text.as_bytes()) {
            Ok(m) if m.is_castle() => {
                let form = if text.starts_with('O') || text.starts_with('0') {
                    "O-O notation"
                } else {
                    "king takes rook"
                };
                (Status::Pass, format!("{text} ({form})"), String::new())
            }
            Ok(_) => (
                Status::Fail,
                text.clone(),
                format!("in {FEN} the engine played {text}, not the castling mate O-O-O"),
            ),
            Err(err) => (
                Status::Fail,
                text.clone(),
                format!("in {FEN} the engine wrote {text}: {err}"),
            ),
        },
        Err(failure) => {
            let why = format!("{sent}: {failure}");
            let (restarted, outcome) = failed_row(engine, &failure, why)?;
            engine = restarted;
            outcome
        }
    };
    rows.push(Row::new(
        Group::Play,
        "writes castling",
        sent,
        (status, got, why),
    ));
    Ok(engine)
}

/// `go searchmoves CASTLE`: the engine must answer the castling move, where it honours
/// `searchmoves` at all (checked first with a quiet move in a start).
fn searchmoves_rows(
    mut engine: CheckEngine,
    cases: &[&Case],
    depth: u32,
    rows: &mut Vec<Row>,
) -> Result<CheckEngine, CheckError> {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1";
    let root: Chess = chess960(start);
    let honours = matches!(engine.search_moves(&root, start, Some("a2a3"), depth), Ok(best) if best == "a2a3");
    if !honours {
        rows.push(Row {
            group: Group::Play,
            case: "searchmoves".into(),
            sent: format!("go depth {depth} searchmoves a2a3 in {start}"),
            got: String::new(),
            status: Status::Skip,
            why:
                "the engine does not honour searchmoves: the castling moves were not offered alone"
                    .into(),
        });
        return Ok(engine);
    }
    for case in cases {
        let castle = case.castling.expect("filtered");
        let root = chess960(case.fen);
        let sent = format!("go depth {depth} searchmoves {castle} in {}", case.fen);
        let (status, got, why) = match engine.search_moves(&root, case.fen, Some(castle), depth) {
            Ok(best) if best == castle => (Status::Pass, best, String::new()),
            Ok(best) => (
                Status::Fail,
                best.clone(),
                format!(
                    "offered only {castle} in {} (searchmoves), the engine answered {best}",
                    case.fen
                ),
            ),
            Err(failure) => {
                let why = format!("{sent}: {failure}");
                let (restarted, outcome) = failed_row(engine, &failure, why)?;
                engine = restarted;
                outcome
            }
        };
        rows.push(Row::new(
            Group::Play,
            format!("searchmoves {}", case.name),
            sent,
            (status, got, why),
        ));
    }
    Ok(engine)
}

/// When every failure is one `sp960 proxy` translates: what it translates.
fn translations(rows: &[Row], protocol: Protocol) -> Option<Vec<String>> {
    let failures: Vec<&Row> = rows.iter().filter(|r| r.status == Status::Fail).collect();
    if failures.is_empty() {
        return None;
    }
    let mut translations = Vec::new();
    for row in &failures {
        match (protocol, row.case.as_str()) {
            (Protocol::Uci, "UCI_Chess960 declared") if row.got == "no option UCI_Chess960" => {
                translations.push(
                    "UCI_Chess960 (sp960 proxy --offer-chess960): the proxy declares it and \
                     gives the engine each position as standard chess; it never castles where \
                     Chess960 castling differs"
                        .to_owned(),
                );
            }
            // The case made for the castling-files defect fails for that defect: the
            // castling-files row's translation covers it.
            (Protocol::Uci, case)
                if case.ends_with(" colours-differ")
                    && failures.iter().any(|r| r.case == "castling files") => {}
            (Protocol::Uci, "castling files") => translations.push(
                "castling files: the proxy gives the engine positions where both colours \
                 castle with the same rooks, without the rights it cannot hold"
                    .to_owned(),
            ),
            (Protocol::Xboard, case) if case.starts_with("case ") && row.group == Group::Play => {
                if !translations
                    .iter()
                    .any(|t: &String| t.starts_with("castling"))
                {
                    translations.push(
                        "castling moves: the proxy writes them in the form the engine takes"
                            .to_owned(),
                    );
                }
            }
            _ => return None,
        }
    }
    Some(translations)
}

/// The protocol and play checks again, the engine behind `program proxy -- ENGINE`.
fn through_proxy(
    request: &CheckRequest,
    program: &std::path::Path,
    protocol: Protocol,
    chess960_castling: bool,
    cases: &[&Case],
) -> Vec<Row> {
    let mut command = request.engine.command.clone();
    let mut args: Vec<std::ffi::OsString> = vec!["proxy".into()];
    args.extend(
        match protocol {
            Protocol::Uci => ["--offer-chess960"],
            Protocol::Xboard => ["--protocol=xboard"],
        }
        .map(Into::into),
    );
    args.extend(["--".into(), command.program]);
    args.append(&mut command.args);
    let setup = EngineSetup {
        command: EngineCommand {
            program: program.into(),
            args,
            dir: command.dir,
        },
        protocol: Some(protocol),
        ..request.engine.clone()
    };
    let mut rows = Vec::new();
    let mut engine = match CheckEngine::start(&setup) {
        Ok(engine) => engine,
        Err(failure) => {
            rows.push(Row {
                group: Group::Protocol,
                case: "handshake".into(),
                sent: "through sp960 proxy".into(),
                got: failure.to_string(),
                status: Status::Fail,
                why: format!("handshake through sp960 proxy failed: {failure}"),
            });
            return rows;
        }
    };
    protocol_rows(&mut engine, &mut rows);
    let bar = ProgressBar::hidden();
    match play_rows(
        engine,
        cases,
        request.play_depth,
        chess960_castling,
        &bar,
        &mut rows,
    ) {
        Ok(engine) => engine.quit(),
        Err(err) => rows.push(Row {
            group: Group::Play,
            case: "restart".into(),
            sent: "through sp960 proxy".into(),
            got: err.to_string(),
            status: Status::Fail,
            why: err.to_string(),
        }),
    }
    rows
}
