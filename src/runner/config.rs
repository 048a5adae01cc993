//! The match as the user asks for it ([`MatchRequest`]: `--engine` texts, SPECs, limits)
//! and as it is played ([`MatchConfig`]: engines, starts, limits, concurrency).

use std::path::{Path, PathBuf};
use std::thread;
use std::time::Duration;

use super::MatchError;
use super::client::Limits;
use crate::proxy::io::EngineCommand;
use crate::start::Start;
use crate::tournament::{EngineSpec, Protocol};

/// One engine of the match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchEngine {
    /// The program and its arguments.
    pub command: EngineCommand,
    /// `name=`: the name in the PGN (default: what the engine calls itself).
    pub name: Option<String>,
    /// `proto=`: the protocol (default: detected).
    pub protocol: Option<Protocol>,
    /// `option.NAME=VALUE`, in order.
    pub options: Vec<(String, String)>,
}

/// Keys of `--engine` that are settings rather than words of the command.
fn is_setting(word: &str) -> bool {
    match word.split_once('=') {
        Some((key, _)) => {
            matches!(key, "cmd" | "arg" | "name" | "proto")
                || key
                    .strip_prefix("option.")
                    .is_some_and(|name| !name.is_empty())
        }
        None => false,
    }
}

impl MatchEngine {
    /// Parses one `--engine` (`index` 1-based, for messages): words split as a shell
    /// would; `proto=`, `name=`, `option.NAME=VALUE` (and cutechess's `cmd=`, `arg=`)
    /// anywhere; the other words are the command and its arguments.
    pub fn parse(index: usize, text: &str) -> Result<MatchEngine, MatchError> {
        let fail = |reason: String| MatchError::Usage(format!("engine {index}: {reason}"));
        let words =
            shlex::split(text).ok_or_else(|| fail(format!("unbalanced quotes in '{text}'")))?;
        let (settings, command): (Vec<String>, Vec<String>) =
            words.into_iter().partition(|word| is_setting(word));
        let mut items = Vec::new();
        let mut command = command.into_iter();
        if let Some(program) = command.next() {
            items.push(format!("cmd={program}"));
        }
        items.extend(command.map(|arg| format!("arg={arg}")));
        let explicit_protocol = settings.iter().any(|s| s.starts_with("proto="));
        items.extend(settings);
        let spec = EngineSpec::parse(index, &items).map_err(|err| {
            fail(match err {
                crate::tournament::TournamentError::Engine { reason, .. } => reason,
                other => other.to_string(),
            })
        })?;
        Ok(MatchEngine {
            command: EngineCommand {
                program: spec.cmd.into(),
                args: spec.args.into_iter().map(Into::into).collect(),
            },
            name: spec.name,
            protocol: explicit_protocol.then_some(spec.protocol),
            options: spec.options,
        })
    }

    /// The built-in engine: `program engine` (`program` is normally this executable).
    pub fn builtin(program: PathBuf) -> MatchEngine {
        MatchEngine {
            command: EngineCommand {
                program: program.into(),
                args: vec!["engine".into()],
            },
            name: None,
            protocol: Some(Protocol::Uci),
            options: Vec::new(),
        }
    }

    /// The program's file name (the name of last resort).
    pub(crate) fn program_name(&self) -> String {
        Path::new(&self.command.program)
            .file_name()
            .unwrap_or(self.command.program.as_os_str())
            .to_string_lossy()
            .into_owned()
    }
}

/// A whole match.
#[derive(Debug, Clone)]
pub struct MatchConfig {
    /// The two engines; the score is the first one's.
    pub engines: [MatchEngine; 2],
    /// The starts; each is played twice per round, colours swapped.
    pub starts: Vec<Start>,
    /// How many times the schedule is played.
    pub rounds: u32,
    /// The search limits.
    pub limits: Limits,
    /// Games at once.
    pub concurrency: usize,
    /// Draw after this many plies.
    pub max_plies: Option<u32>,
    /// The PGN file games are appended to.
    pub pgn: PathBuf,
    /// Without a clock: how long past `--movetime` (if any) an engine may take for a
    /// move before it loses by time-out.
    pub move_timeout: Duration,
    /// The PGN `Event`.
    pub event: String,
    /// `--json`: no progress line (the summary is for a script).
    pub quiet: bool,
}

/// `sp960 match` as typed: the arguments before they are checked.
#[derive(Debug, Clone)]
pub struct MatchRequest {
    /// `--engine` texts (zero, one or two; the built-in engine fills in).
    pub engines: Vec<String>,
    /// The built-in engine's program (normally this executable).
    pub builtin: PathBuf,
    /// `--sp` SPECs, and `random` (see `count`, `seed`).
    pub starts: crate::book::BookRequest,
    /// `--seed`: `None` draws one (and tells stderr) when a SPEC is `random`.
    pub seed: Option<u64>,
    /// `--depth`.
    pub depth: Option<u32>,
    /// `--nodes`.
    pub nodes: Option<u64>,
    /// `--movetime` in milliseconds.
    pub movetime: Option<u64>,
    /// `--tc`.
    pub tc: Option<String>,
    /// `--concurrency` (default: one game per core).
    pub concurrency: Option<usize>,
    /// `--rounds`.
    pub rounds: u32,
    /// `--max-plies`.
    pub max_plies: Option<u32>,
    /// `--pgn`.
    pub pgn: PathBuf,
    /// `--timeout`: seconds a move may take without a clock (beyond `--movetime`).
    pub move_timeout: f64,
    /// `--json`.
    pub json: bool,
}

/// Without any limit: 100 ms a move.
pub const DEFAULT_MOVETIME_MS: u64 = 100;

/// The longest `--timeout` and `--movetime`, in seconds (as for `--tc`: one year).
pub const MAX_TIMEOUT_SECONDS: u64 = crate::tournament::MAX_TIME_CONTROL_SECONDS;

/// The most games a match may schedule (starts × 2 × rounds): the schedule is made
/// up front, so a mistyped `--count` or `--rounds` is refused rather than exhausting
/// memory.
pub const MAX_GAMES: u64 = 1_000_000;

impl MatchRequest {
    /// Checks the arguments and builds the match.
    pub fn resolve(mut self) -> Result<MatchConfig, MatchError> {
        if self.engines.len() > 2 {
            return Err(MatchError::Usage(format!(
                "{} engines given: a match is between two (give one or none to play the built-in engine)",
                self.engines.len()
            )));
        }
        let mut engines = Vec::new();
        for (index, text) in self.engines.iter().enumerate() {
            engines.push(MatchEngine::parse(index + 1, text)?);
        }
        while engines.len() < 2 {
            engines.push(MatchEngine::builtin(self.builtin.clone()));
        }
        // Checked before the starts are drawn: `random` allocates `--count` of them.
        let random_specs = self
            .starts
            .specs
            .iter()
            .filter(|spec| spec.trim().eq_ignore_ascii_case("random"))
            .count() as u64;
        if random_specs.saturating_mul(self.starts.count) > MAX_GAMES / 2 {
            return Err(MatchError::Usage(format!(
                "--count {}: too many games (at most {MAX_GAMES} games, {} random starts)",
                self.starts.count,
                MAX_GAMES / 2
            )));
        }
        self.starts.seed = match self.seed {
            Some(seed) => seed,
            None if self.starts.is_random() => {
                let seed = crate::start::RandomStarts::fresh_seed();
                eprintln!("sp960: match: random seed {seed} (repeat with --seed {seed})");
                seed
            }
            None => 0,
        };
        let starts = self.starts.starts()?;
        let rounds = self.rounds.max(1);
        let games = (starts.len() as u64)
            .saturating_mul(2)
            .saturating_mul(u64::from(rounds));
        if games > MAX_GAMES {
            return Err(MatchError::Usage(format!(
                "{} starts × 2 colours × {rounds} rounds = {games} games: too many (at most {MAX_GAMES})",
                starts.len()
            )));
        }
        if let Some(ms) = self.movetime
            && ms / 1000 >= MAX_TIMEOUT_SECONDS
        {
            return Err(MatchError::Usage(format!(
                "--movetime {ms}: too long (below {} ms, one year)",
                MAX_TIMEOUT_SECONDS * 1000
            )));
        }
        let clock = match &self.tc {
            Some(text) => Some(text.parse().map_err(
                |err: crate::tournament::TournamentError| MatchError::Usage(err.to_string()),
            )?),
            None => None,
        };
        let mut limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime.map(Duration::from_millis),
            clock,
        };
        if limits == Limits::default() {
            limits.movetime = Some(Duration::from_millis(DEFAULT_MOVETIME_MS));
        }
        let move_timeout = Duration::try_from_secs_f64(self.move_timeout)
            .ok()
            .filter(|t| !t.is_zero() && t.as_secs() < MAX_TIMEOUT_SECONDS)
            .ok_or_else(|| {
                MatchError::Usage(format!(
                    "--timeout {:?}: expected a positive number of seconds, below {MAX_TIMEOUT_SECONDS}",
                    self.move_timeout
                ))
            })?;
        let engines: [MatchEngine; 2] = engines.try_into().expect("two engines");
        Ok(MatchConfig {
            engines,
            starts,
            rounds,
            limits,
            concurrency: self.concurrency.unwrap_or_else(|| {
                thread::available_parallelism().map_or(1, std::num::NonZero::get)
            }),
            max_plies: self.max_plies,
            pgn: self.pgn,
            move_timeout,
            event: "sp960 match".to_owned(),
            quiet: self.json,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_words_and_settings() {
        let engine = MatchEngine::parse(
            1,
            "proto=xboard '/usr/games/sjaakii' -x 'name=Sjaak II' option.Hash=16",
        )
        .unwrap();
        assert_eq!(engine.command.program, "/usr/games/sjaakii");
        assert_eq!(engine.command.args, ["-x"]);
        assert_eq!(engine.name.as_deref(), Some("Sjaak II"));
        assert_eq!(engine.protocol, Some(Protocol::Xboard));
        assert_eq!(engine.options, [("Hash".to_owned(), "16".to_owned())]);
        // Without proto= the protocol is detected; an argument with '=' is an argument.
        let engine = MatchEngine::parse(2, "stockfish --threads=2").unwrap();
        assert_eq!(engine.protocol, None);
        assert_eq!(engine.command.args, ["--threads=2"]);
        let err = MatchEngine::parse(2, "proto=cecp stockfish").unwrap_err();
        assert_eq!(
            err.to_string(),
            "engine 2: proto=cecp: expected uci or xboard"
        );
        let err = MatchEngine::parse(1, "name=x").unwrap_err();
        assert_eq!(err.to_string(), "engine 1: cmd=PROGRAM is missing");
        assert!(MatchEngine::parse(1, "'unbalanced").is_err());
    }
}
