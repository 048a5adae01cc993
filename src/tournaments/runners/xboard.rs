//! xboard 4.9 in match mode: exactly two engines, UCI ones through polyglot (which declares
//! no `Threads`: it sets it from xboard's `-smpCores`), one time control for both in whole
//! seconds of base time, and a start by its number (`-defaultFrcPosition`: xboard numbers
//! its shuffles as Scharnagl does) or a file of FENs, each played twice (`-lpf`, `-lpi -2`).
//! It sends an XBoard engine castling as `O-O`/`O-O-O` in `fischerandom`.

use crate::books::book::{BookFormat, render};
use crate::launch::spec::{KeyRefusals, SpecKey};
use crate::launch::time_control::TimeControl;
use crate::protocol::Protocol;
use crate::tournaments::error::TournamentError;
use crate::tournaments::shell::Shell;

use super::{CommandLine, Dialect, Rendered, RunnerCommand, RunnerLaunch};

/// xboard.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Xboard;

impl Dialect for Xboard {
    fn name(&self) -> &'static str {
        "xboard"
    }

    fn program(&self) -> &'static str {
        "xboard"
    }

    fn unsupported_keys(&self) -> &'static KeyRefusals {
        &[
            (
                SpecKey::Initstr,
                "by xboard (it has no per-engine initialisation lines)",
            ),
            (SpecKey::Restart, "by xboard (it restarts engines itself)"),
            (
                SpecKey::Tc,
                "by xboard (one time control for both engines: use --tc)",
            ),
            (
                SpecKey::St,
                "by xboard (one time control for both engines: use --tc)",
            ),
            (SpecKey::Depth, "by xboard (one limit for both engines)"),
            (
                SpecKey::Nodes,
                "by xboard (it has no per-engine node limit)",
            ),
        ]
    }

    fn check_engine_count(&self, count: usize) -> Result<(), TournamentError> {
        if count != 2 {
            return Err(TournamentError::EngineCount(format!(
                "xboard plays a match between exactly 2 engines; {count} given"
            )));
        }
        Ok(())
    }

    fn threads_as_cores(&self) -> bool {
        true
    }

    fn book_format(&self, _asked: BookFormat) -> BookFormat {
        BookFormat::Fen
    }

    fn refuses_given_book(&self) -> Option<&'static str> {
        Some(
            "--openings is for cutechess-cli and fastchess (xboard reads one FEN a line: use --sp)",
        )
    }

    fn render(&self, command: &RunnerCommand) -> Result<Rendered, TournamentError> {
        let mut line = CommandLine::new(&command.program);
        for (side, entrant) in ["first", "second"].into_iter().zip(&command.engines) {
            let (engine, launch) = (&entrant.spec, &entrant.launch);
            let letter = &side[..1];
            line.break_here();
            line.extend([
                format!("-{letter}cp"),
                command_string(launch),
                format!("-{letter}n"),
                launch.name.clone(),
            ]);
            if let Some(dir) = &engine.dir {
                line.extend([format!("-{letter}d"), dir.clone()]);
            }
            if engine.protocol_or_uci() == Protocol::Uci {
                // xboard runs UCI engines through polyglot.
                line.push(format!("-{letter}UCI"));
            }
            if !launch.options.is_empty() {
                let options: Vec<String> = launch
                    .options
                    .iter()
                    .map(|(name, value)| format!("{name}={value}"))
                    .collect();
                line.extend([format!("-{side}Options"), options.join(",")]);
            }
        }
        line.break_here();
        let cores = command
            .engines
            .iter()
            .filter_map(|entrant| entrant.launch.cores)
            .min();
        if let Some(cores) = cores {
            line.extend(["-smpCores".to_owned(), cores.to_string()]);
        }
        line.extend(["-variant", "fischerandom"]);
        let openings = &command.book;
        let mut book = None;
        match openings.starts.as_slice() {
            // xboard numbers its shuffles as Scharnagl does (518 = the standard array).
            [start] if start.is_symmetric() => {
                line.extend([
                    "-defaultFrcPosition".to_owned(),
                    start.white.number().to_string(),
                ]);
            }
            starts => {
                // A position file, each position used for two games (-lpi -2), colours
                // swapped.
                line.extend([
                    "-lpf".to_owned(),
                    openings.path.clone(),
                    "-lpi".to_owned(),
                    "-2".to_owned(),
                ]);
                book = Some(render(starts, BookFormat::Fen, openings.castling)?);
            }
        }
        line.extend([
            "-matchGames".to_owned(),
            (2 * openings.starts.len()).to_string(),
        ]);
        line.break_here();
        let tc = command
            .clock
            .as_ref()
            .ok_or(TournamentError::NoClock("xboard"))?;
        if let Some(moves) = tc.moves() {
            line.extend(["-mps".to_owned(), moves.to_string()]);
        }
        line.extend(["-tc".to_owned(), xboard_minutes(tc)?]);
        if let Some(increment) = tc.increment_text() {
            line.extend(["-inc".to_owned(), increment.to_owned()]);
        }
        line.break_here();
        line.extend([
            "-sgf".to_owned(),
            command.pgn_out.clone(),
            "-xexit".to_owned(),
            "-saveSettingsOnExit".to_owned(),
            "false".to_owned(),
        ]);
        Ok(Rendered {
            line,
            book,
            notes: Vec::new(),
        })
    }
}

/// Program and arguments as one command string (xboard's `-fcp`).
fn command_string(launch: &RunnerLaunch) -> String {
    std::iter::once(launch.program().to_owned())
        .chain(launch.args())
        .map(|word| Shell::Sh.quote(&word))
        .collect::<Vec<_>>()
        .join(" ")
}

/// xboard's `-tc minutes[:seconds]` for a base time in whole seconds.
pub(crate) fn xboard_minutes(tc: &TimeControl) -> Result<String, TournamentError> {
    if tc.seconds().fract() != 0.0 {
        return Err(TournamentError::XboardTime(tc.to_string()));
    }
    let seconds = tc.seconds() as u64;
    Ok(format!("{}:{:02}", seconds / 60, seconds % 60))
}
