//! `sp960 check --perft-script CMD`: a move generator without an engine loop, checked
//! through perftree's protocol (agausmann/perftree). For each count the descent asks,
//! the script is run as `CMD DEPTH FEN` and prints one `MOVE COUNT` line per legal move,
//! a blank line, then the total alone on a line; castling in either notation (king takes
//! rook, or the king's destination). The movegen group (the castling cases, the 960
//! starts, the pairs, the random positions) and the descent to one position and one move
//! run against it; the protocol and play groups need an engine and are skipped.
//!
//! [`parse_reply`] reads an output, sans-IO; [`run_script`] is the I/O (one process per
//! query, killed at the timeout); [`check_script`] runs the group.

use std::ffi::OsString;
use std::io::{self, Read};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use shakmaty::Chess;
use thiserror::Error;

use crate::check::groups::movegen::{Asked, castling_dialect, count_probes, fen_of};
use crate::check::ids::{CheckId, Group};
use crate::check::positions::{OwnPosition, PerftPlan, Probe, probes};
use crate::check::report::{CheckReport, CheckRow, Cost, Readiness};
use crate::check::run::{CheckError, first_defect, progress_bar};
use crate::launch::command::EngineCommand;
use crate::os::cpu;
use crate::os::process::spawn_killed_with_us;
use crate::protocol::perft::PerftReply;
use crate::starts::castling::{CastlingDialect, MoveError, move_text, parse_move};

/// Everything `sp960 check --perft-script` was asked.
#[derive(Debug, Clone)]
pub struct ScriptRequest {
    /// The script: program, fixed arguments, directory; `DEPTH FEN` are appended.
    pub command: EngineCommand,
    /// How long one run of the script may take before it is killed.
    pub timeout: Duration,
    /// The positions counted and how deep.
    pub plan: PerftPlan,
    /// The author's own positions (`--positions FILE`), counted last.
    pub own: Vec<OwnPosition>,
    /// A progress bar on stderr when it is a terminal.
    pub progress: bool,
}

/// Why a script's output is not a perftree reply.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OutputError {
    /// A line before the blank line that is not `MOVE COUNT`.
    #[error("line {line}: '{text}' is not 'MOVE COUNT'")]
    Garbage {
        /// Its number, from 1.
        line: usize,
        /// The line.
        text: String,
    },
    /// The output ended before the blank line and the total.
    #[error("no blank line and total after the moves")]
    NoTotal,
    /// The line after the blank line is not a number.
    #[error("line {line}: the total '{text}' is not a number")]
    BadTotal {
        /// Its number, from 1.
        line: usize,
        /// The line.
        text: String,
    },
    /// Output after the total.
    #[error("line {line}: '{text}' after the total")]
    Trailing {
        /// Its number, from 1.
        line: usize,
        /// The line.
        text: String,
    },
    /// One move listed twice (perhaps in both castling notations).
    #[error("{0} is listed twice")]
    Twice(String),
}

/// Why one run of the script gave no reply.
#[derive(Debug, Error)]
pub enum ScriptFailure {
    /// The program could not be started.
    #[error("cannot start '{0}': {1}")]
    Spawn(String, io::Error),
    /// It ran longer than the timeout and was killed.
    #[error("no reply within {0} s: killed")]
    Timeout(u64),
    /// It exited with a failure (and the last line of its stderr).
    #[error("exited with {status}{stderr}")]
    Exit {
        /// The exit status, as the platform shows it.
        status: String,
        /// `: LAST STDERR LINE`, or nothing.
        stderr: String,
    },
    /// Its output could not be read.
    #[error("reading its output: {0}")]
    Io(io::Error),
    /// Its output is not a perftree reply.
    #[error("{0}")]
    Output(#[from] OutputError),
}

/// Reads a perftree reply to a query in `position`: each `MOVE COUNT` line, a blank line,
/// the total. Each move that is legal in `position` (in either castling notation) is
/// rewritten in `dialect`, as the descent compares it; any other move is kept as written,
/// for the descent to name as illegal (a word that is no move in coordinate notation is
/// garbage).
pub fn parse_reply(
    position: &Chess,
    dialect: CastlingDialect,
    output: &str,
) -> Result<PerftReply, OutputError> {
    let mut divide: Vec<(String, u64)> = Vec::new();
    let mut lines = output.lines().enumerate().map(|(i, line)| (i + 1, line));
    loop {
        let Some((number, line)) = lines.next() else {
            return Err(OutputError::NoTotal);
        };
        if line.trim().is_empty() {
            break;
        }
        let garbage = || OutputError::Garbage {
            line: number,
            text: line.to_owned(),
        };
        let mut words = line.split_whitespace();
        let (Some(text), Some(count), None) = (words.next(), words.next(), words.next()) else {
            return Err(garbage());
        };
        let count: u64 = count.parse().map_err(|_| garbage())?;
        let text = match parse_move(position, text.as_bytes()) {
            Ok(m) => move_text(&m, dialect),
            Err(MoveError::Syntax(_)) => return Err(garbage()),
            Err(_) => text.to_owned(),
        };
        if divide.iter().any(|(known, _)| *known == text) {
            return Err(OutputError::Twice(text));
        }
        divide.push((text, count));
    }
    let Some((number, line)) = lines.next() else {
        return Err(OutputError::NoTotal);
    };
    let total = line.trim().parse().map_err(|_| OutputError::BadTotal {
        line: number,
        text: line.to_owned(),
    })?;
    if let Some((number, line)) = lines.find(|(_, line)| !line.trim().is_empty()) {
        return Err(OutputError::Trailing {
            line: number,
            text: line.to_owned(),
        });
    }
    Ok(PerftReply {
        total,
        divide: Some(divide),
    })
}

/// Runs `command DEPTH FEN` and returns its stdout, once it has exited successfully
/// within `timeout` (otherwise it is killed).
pub fn run_script(
    command: &EngineCommand,
    depth: u32,
    fen: &str,
    timeout: Duration,
) -> Result<String, ScriptFailure> {
    let deadline = Instant::now() + timeout;
    let mut process = Command::new(&command.program);
    process
        .args(&command.args)
        .arg(depth.to_string())
        .arg(fen)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = &command.dir {
        process.current_dir(dir);
    }
    let name = command.program.to_string_lossy().into_owned();
    let mut child =
        spawn_killed_with_us(&mut process).map_err(|err| ScriptFailure::Spawn(name, err))?;
    // Read on threads, so that a script that hangs (or a child of it that keeps the
    // pipes open) never blocks the check: at the deadline it is killed and left behind.
    let read = |mut pipe: Box<dyn Read + Send>| {
        let (send, receive) = mpsc::channel();
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = send.send(pipe.read_to_end(&mut bytes).map(|_| bytes));
        });
        receive
    };
    let stdout = read(Box::new(child.stdout.take().expect("piped")));
    let stderr = read(Box::new(child.stderr.take().expect("piped")));
    let timed_out = |mut child: Child| {
        let _ = child.kill();
        let _ = child.wait();
        ScriptFailure::Timeout(timeout.as_secs())
    };
    let out = match stdout.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        Ok(out) => out.map_err(ScriptFailure::Io)?,
        Err(_) => return Err(timed_out(child)),
    };
    let status = loop {
        match child.try_wait().map_err(ScriptFailure::Io)? {
            Some(status) => break status,
            None if Instant::now() >= deadline => return Err(timed_out(child)),
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    if !status.success() {
        let stderr = stderr
            .recv_timeout(Duration::from_millis(200))
            .ok()
            .and_then(Result::ok)
            .and_then(|bytes| {
                String::from_utf8_lossy(&bytes)
                    .lines()
                    .rfind(|line| !line.trim().is_empty())
                    .map(|line| format!(": {}", line.trim()))
            })
            .unwrap_or_default();
        return Err(ScriptFailure::Exit {
            status: status.to_string(),
            stderr,
        });
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// The command as one line, for rows and the report.
fn shown(command: &EngineCommand) -> String {
    std::iter::once(&command.program)
        .chain(&command.args)
        .map(|word: &OsString| word.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs the movegen group and the descent against the script; the protocol and play
/// groups are skipped with a row each. Errs only when the script cannot be started.
pub fn check_script(request: &ScriptRequest) -> Result<CheckReport, CheckError> {
    let began = (
        Instant::now(),
        cpu::process_seconds(),
        cpu::children_seconds(),
    );
    let name = shown(&request.command);
    let probes = probes(&request.plan, &request.own);
    let bar = progress_bar(request.progress, probes.len());
    let mut rows = vec![CheckRow::skipped(
        CheckId::NoEngine(Group::Protocol),
        "a perft script has no engine loop: UCI/XBoard declarations and castling notation \
         not checked",
    )];
    let sent_of = |probe: &Probe| {
        let fen = fen_of(&probe.position, probe.mode);
        format!("{name} {} '{fen}'", probe.depth)
    };
    let stop_why = "stopped after three positions in a row without a reply from the script: \
                    the rest were not counted";
    let counted = count_probes(
        &probes,
        true,
        &bar,
        sent_of,
        stop_why,
        |query, _, mode| {
            let fen = fen_of(&query.position, mode);
            let reply = run_script(&request.command, query.depth, &fen, request.timeout)
                .and_then(|out| Ok(parse_reply(&query.position, castling_dialect(mode), &out)?));
            match reply {
                Ok(reply) => Ok(Asked::Reply(reply)),
                Err(ScriptFailure::Spawn(program, source)) => {
                    Err(CheckError::Script { program, source })
                }
                Err(failure) => Ok(Asked::Failed {
                    got: failure.to_string(),
                    why: format!("{name} {} '{fen}': {failure}", query.depth),
                }),
            }
        },
        &mut rows,
    )?;
    bar.finish_and_clear();
    rows.push(CheckRow::skipped(
        CheckId::NoEngine(Group::Play),
        "a perft script has no engine loop: castling in play, searchmoves and the traps not \
         checked",
    ));
    let verdict = match first_defect(&rows) {
        Some(first_defect) => Readiness::NotReady { first_defect },
        None => Readiness::MovegenCorrect { positions: counted },
    };
    Ok(CheckReport {
        engine: name,
        protocol: "perftree".into(),
        perft: "perftree".into(),
        rows,
        proxy_rows: Vec::new(),
        verdict,
        cost: Some(Cost {
            wall: began.0.elapsed().as_secs_f64(),
            sp960_cpu: cpu::process_seconds() - began.1,
            engine_cpu: cpu::children_seconds()
                .zip(began.2)
                .map(|(now, then)| now - then),
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::descent::chess960;

    const FEN: &str = "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1";

    /// The divide of FEN at depth 1 as a script writes it, castling as `castles`.
    fn transcript(castles: [&str; 2]) -> String {
        let position = chess960(FEN);
        let mut out = String::new();
        let moves = shakmaty::Position::legal_moves(&position);
        for m in &moves {
            let text = match move_text(m, CastlingDialect::Chess960).as_str() {
                "e1h1" => castles[0].to_owned(),
                "e1a1" => castles[1].to_owned(),
                text => text.to_owned(),
            };
            out.push_str(&format!("{text} 1\n"));
        }
        out.push_str(&format!("\n{}\n", moves.len()));
        out
    }

    #[test]
    fn a_divide_in_either_castling_notation_reads_alike() {
        let position = chess960(FEN);
        let kxr = parse_reply(
            &position,
            CastlingDialect::Chess960,
            &transcript(["e1h1", "e1a1"]),
        );
        let dest = parse_reply(
            &position,
            CastlingDialect::Chess960,
            &transcript(["e1g1", "e1c1"]),
        );
        let kxr = kxr.unwrap();
        assert_eq!(kxr.total, 26);
        assert_eq!(kxr.divide.as_ref().unwrap().len(), 26);
        assert!(
            kxr.divide
                .as_ref()
                .unwrap()
                .iter()
                .any(|(m, _)| m == "e1h1")
        );
        assert_eq!(Ok(kxr), dest);
    }

    #[test]
    fn a_standard_probe_gets_the_kings_destination() {
        let position = shakmaty::fen::Fen::from_ascii(FEN.replace("HAha", "KQkq").as_bytes())
            .unwrap()
            .into_position::<Chess>(shakmaty::CastlingMode::Standard)
            .unwrap();
        let reply = parse_reply(
            &position,
            CastlingDialect::Standard,
            &transcript(["e1h1", "e1a1"]),
        )
        .unwrap();
        let divide = reply.divide.unwrap();
        assert!(divide.iter().any(|(m, _)| m == "e1g1"), "{divide:?}");
        assert!(divide.iter().any(|(m, _)| m == "e1c1"), "{divide:?}");
    }

    #[test]
    fn an_illegal_move_is_kept_as_written_for_the_descent() {
        let position = chess960(FEN);
        let reply = parse_reply(
            &position,
            CastlingDialect::Chess960,
            "e1e3 1\na1a8 1\n\n2\n",
        )
        .unwrap();
        assert_eq!(
            reply.divide.unwrap(),
            vec![("e1e3".to_owned(), 1), ("a1a8".to_owned(), 1)]
        );
    }

    #[test]
    fn a_checkmate_has_no_moves_and_a_total_of_zero() {
        let position = chess960("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
        let reply = parse_reply(&position, CastlingDialect::Chess960, "\n0\n").unwrap();
        assert_eq!(reply.total, 0);
        assert_eq!(reply.divide, Some(Vec::new()));
    }

    #[test]
    fn bad_outputs_are_named() {
        let position = chess960(FEN);
        let read = |text| parse_reply(&position, CastlingDialect::Chess960, text);
        assert_eq!(read("a1a2 1\na1a3 1\n"), Err(OutputError::NoTotal));
        assert_eq!(read("a1a2 1\n\n"), Err(OutputError::NoTotal));
        assert_eq!(read(""), Err(OutputError::NoTotal));
        assert_eq!(
            read("a1a2 1\nTraceback (most recent call last):\n\n1\n"),
            Err(OutputError::Garbage {
                line: 2,
                text: "Traceback (most recent call last):".into()
            })
        );
        assert_eq!(
            read("a1a2: 1\n\n1\n"),
            Err(OutputError::Garbage {
                line: 1,
                text: "a1a2: 1".into()
            })
        );
        assert_eq!(
            read("a1a2 1\n\nNodes searched: 1\n"),
            Err(OutputError::BadTotal {
                line: 3,
                text: "Nodes searched: 1".into()
            })
        );
        assert_eq!(
            read("a1a2 1\n\n1\n\nextra\n"),
            Err(OutputError::Trailing {
                line: 5,
                text: "extra".into()
            })
        );
        assert_eq!(
            read("e1h1 1\ne1g1 1\n\n2\n"),
            Err(OutputError::Twice("e1h1".into()))
        );
        // Windows line ends read alike.
        assert_eq!(read("a1a2 1\r\n\r\n1\r\n").unwrap().total, 1);
    }
}
