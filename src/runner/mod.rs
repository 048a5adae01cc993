//! `sp960 match`: games between two engines from numbered Chess960 starts, each start
//! played twice with colours swapped, saved as PGN one finished game at a time.
//!
//! Layers:
//! - [`client`] ([`uci_client`], [`xboard_client`]): the GUI side of each protocol as a
//!   sans-IO state machine (engine lines in; lines to send and [`client::ClientEvent`]s
//!   out), unit-tested on transcripts of the real engines.
//! - [`referee`]: the rules (shakmaty) and the clocks; [`pgn`] and [`stats`]: the output.
//! - [`process`]: the I/O driver of one engine (a thread reading its stdout into a
//!   channel, reads with deadlines); this module: the workers that play games
//!   concurrently, the PGN file, progress and the summary.
//!
//! Castling, FENs and move checking are the proxies' own ([`crate::castling`],
//! [`crate::game`]); see README "sp960 match" for why the runner speaks to engines
//! directly rather than through a proxy session.

pub mod client;
pub mod pgn;
pub mod process;
pub mod referee;
pub mod stats;
pub mod uci_client;
pub mod xboard_client;

use std::fs::OpenOptions;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant, SystemTime};

use serde::Serialize;
use shakmaty::{Chess, Color, Position};
use thiserror::Error;

use self::client::{Client, ClientEvent, GoRequest, Limits};
use self::process::{EngineProcess, Received};
use self::referee::{Ending, Forfeit, GameClock, Referee};
use self::stats::Score;
use crate::proxy::io::{EngineCommand, ShellError};
use crate::proxy::transcript::utc_timestamp;
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

    fn program_name(&self) -> String {
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

/// Why a match could not be played.
#[derive(Debug, Error)]
pub enum MatchError {
    /// An engine's program does not exist.
    #[error("engine {engine}: '{program}' not found")]
    EngineNotFound {
        /// Which engine (1-based).
        engine: usize,
        /// The program as given.
        program: String,
    },
    /// An engine does not start or does not complete its handshake.
    #[error("engine {engine}: {reason}")]
    Engine {
        /// Which engine (1-based).
        engine: usize,
        /// What is wrong.
        reason: String,
    },
    /// Limits an engine cannot be given.
    #[error("{0}")]
    Limits(String),
    /// The PGN file cannot be written.
    #[error("PGN file '{path}': {source}")]
    Pgn {
        /// The file.
        path: String,
        /// The error.
        source: io::Error,
    },
    /// A thread could not be started.
    #[error("cannot start a worker thread: {0}")]
    Thread(io::Error),
    /// Bad arguments (SPECs, time control, engine count).
    #[error("{0}")]
    Usage(String),
    /// The summary cannot be written.
    #[error("cannot write the summary: {0}")]
    Output(io::Error),
}

impl MatchError {
    /// The process exit code: usage errors 2, engines that are missing 127 or
    /// unusable 3.
    pub fn exit_code(&self) -> u8 {
        match self {
            MatchError::EngineNotFound { .. } => crate::exit_code::ENGINE_NOT_FOUND,
            MatchError::Engine { .. } => crate::exit_code::ENGINE_UNSUITABLE,
            _ => crate::exit_code::USAGE,
        }
    }
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
        self.starts.seed = match self.seed {
            Some(seed) => seed,
            None if self.starts.is_random() => {
                let seed = crate::start::RandomStarts::fresh_seed();
                eprintln!("sp960: match: random seed {seed} (repeat with --seed {seed})");
                seed
            }
            None => 0,
        };
        let starts = self
            .starts
            .starts()
            .map_err(|err| MatchError::Usage(err.to_string()))?;
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
        if !(self.move_timeout.is_finite() && self.move_timeout > 0.0) {
            return Err(MatchError::Usage(format!(
                "--timeout {}: expected a positive number of seconds",
                self.move_timeout
            )));
        }
        let engines: [MatchEngine; 2] = engines.try_into().expect("two engines");
        Ok(MatchConfig {
            engines,
            starts,
            rounds: self.rounds.max(1),
            limits,
            concurrency: self.concurrency.unwrap_or_else(|| {
                thread::available_parallelism().map_or(1, std::num::NonZero::get)
            }),
            max_plies: self.max_plies,
            pgn: self.pgn,
            move_timeout: Duration::from_secs_f64(self.move_timeout),
            event: "sp960 match".to_owned(),
            quiet: self.json,
        })
    }
}

/// `sp960 match`: resolves the request, plays the match, and writes the table (or the
/// `--json` summary) to `out`.
pub fn match_command(request: MatchRequest, out: &mut dyn Write) -> Result<Summary, MatchError> {
    let json = request.json;
    let config = request.resolve()?;
    let summary = run(&config)?;
    let text = if json {
        let mut text = serde_json::to_string_pretty(&summary).expect("plain data");
        text.push('\n');
        text
    } else {
        summary_table(&summary)
    };
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(MatchError::Output)?;
    Ok(summary)
}

/// One game of the schedule.
#[derive(Debug, Clone, Copy)]
struct Scheduled {
    /// 1-based, in schedule order.
    number: usize,
    start: Start,
    /// Index of the engine that plays white.
    white: usize,
}

/// One game's result, as the summary lists it.
#[derive(Debug, Clone, Serialize)]
pub struct GameSummary {
    /// Schedule number (the PGN `Round`).
    pub round: usize,
    /// The start (`860`, `0:959`).
    pub start: String,
    /// White's and black's names.
    pub white: String,
    /// See `white`.
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: String,
    /// The PGN `Termination`.
    pub termination: String,
    /// The reason in words.
    pub reason: String,
    /// Plies played.
    pub plies: usize,
}

/// What `--json` prints, and what the table shows.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The engines' names, first (scored) engine first.
    pub engines: [String; 2],
    /// The first engine's wins, draws and losses.
    pub score: Score,
    /// Points per game of the first engine.
    pub score_fraction: f64,
    /// Elo difference, first minus second (`null` at 0% or 100%).
    pub elo: Option<f64>,
    /// 95% error margin of `elo` (`null` when unbounded).
    pub elo_margin: Option<f64>,
    /// Every game, in the order they finished.
    pub games: Vec<GameSummary>,
    /// The PGN file.
    pub pgn: String,
    /// Wall time of the match.
    pub wall_seconds: f64,
    /// CPU time of the runner itself (its threads, not the engines).
    pub runner_cpu_seconds: f64,
}

/// A player: an engine process and the conversation with it.
struct Player {
    process: EngineProcess,
    client: Client,
}

fn spawn_failure(err: &ShellError) -> String {
    match err {
        ShellError::NotFound(name) => format!("'{name}' not found"),
        ShellError::NotExecutable(name) => format!("'{name}' is not executable"),
        other => other.to_string(),
    }
}

/// How an exchange with an engine went wrong.
enum Trouble {
    Closed(String),
    Timeout,
}

const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(15);
/// How long detection waits for a UCI answer, and an XBoard handshake for `done=1`.
const FEATURE_WAIT: Duration = Duration::from_secs(2);
/// Past a clock's last millisecond: the flag has surely fallen.
const FLAG_GRACE: Duration = Duration::from_millis(100);

impl Player {
    /// Starts `engine` and completes the handshake.
    fn launch(engine: &MatchEngine, protocol: Option<Protocol>) -> Result<Player, String> {
        let process = EngineProcess::spawn(&engine.command).map_err(|err| spawn_failure(&err))?;
        Player::handshake(process, engine, protocol)
    }

    /// Sends the first lines and reads until the client is ready.
    fn handshake(
        process: EngineProcess,
        engine: &MatchEngine,
        protocol: Option<Protocol>,
    ) -> Result<Player, String> {
        let (client, first) = Client::start(protocol, &engine.options);
        let mut player = Player { process, client };
        player.send(&first)?;
        let overall = Instant::now() + HANDSHAKE_TIMEOUT;
        let mut short = Some(Instant::now() + FEATURE_WAIT);
        loop {
            let deadline = short.map_or(overall, |s| s.min(overall));
            let mut out = Vec::new();
            let event = match player.process.receive(deadline) {
                Received::Line(line) => player.client.on_line(&line, &engine.options, &mut out),
                Received::Closed => {
                    return Err(format!(
                        "the engine {} during the handshake",
                        player.process.exit_description()
                    ));
                }
                Received::Timeout if Instant::now() >= overall => {
                    return Err(format!(
                        "no answer to the handshake in {} s",
                        HANDSHAKE_TIMEOUT.as_secs()
                    ));
                }
                Received::Timeout => {
                    let detecting = player.client.protocol().is_none();
                    let event = player.client.on_timeout(&engine.options, &mut out);
                    // Detection settled on XBoard: its handshake gets its own wait.
                    short = detecting.then(|| Instant::now() + FEATURE_WAIT);
                    event
                }
            };
            player.send(&out)?;
            match event {
                Some(ClientEvent::Ready) => return Ok(player),
                Some(ClientEvent::Failed(reason)) => return Err(reason),
                _ => {}
            }
        }
    }

    fn send(&mut self, lines: &[String]) -> Result<(), String> {
        self.process
            .send(lines)
            .map_err(|_| format!("the engine {}", self.process.exit_description()))
    }

    /// Reads until the client reports an event other than `Ready` (or `Ready` when
    /// `want_ready`).
    fn wait(&mut self, deadline: Instant, want_ready: bool) -> Result<ClientEvent, Trouble> {
        loop {
            match self.process.receive(deadline) {
                Received::Line(line) => {
                    let mut out = Vec::new();
                    let event = self.client.on_line(&line, &[], &mut out);
                    if self.process.send(&out).is_err() {
                        return Err(Trouble::Closed(self.process.exit_description()));
                    }
                    match event {
                        Some(ClientEvent::Ready) if !want_ready => {}
                        Some(event) => return Ok(event),
                        None => {}
                    }
                }
                Received::Closed => return Err(Trouble::Closed(self.process.exit_description())),
                Received::Timeout => return Err(Trouble::Timeout),
            }
        }
    }

    fn quit(self) {
        let mut out = Vec::new();
        self.client.quit(&mut out);
        self.process.stop(&out, Duration::from_millis(500));
    }
}

/// A finished game, from a worker to the writer.
struct Finished {
    game: Scheduled,
    root: Chess,
    moves: Vec<shakmaty::Move>,
    ending: Ending,
    turn: Color,
}

/// The per-worker engines, by engine index.
struct Seats<'a> {
    engines: &'a [MatchEngine; 2],
    protocols: [Protocol; 2],
    players: [Option<Player>; 2],
}

impl Seats<'_> {
    fn player(&mut self, index: usize) -> Result<&mut Player, String> {
        if self.players[index].is_none() {
            let player = Player::launch(&self.engines[index], Some(self.protocols[index]))?;
            self.players[index] = Some(player);
        }
        Ok(self.players[index].as_mut().expect("just launched"))
    }
}

fn forfeit(loser: Color, kind: Forfeit, detail: String) -> Ending {
    Ending::Forfeit {
        loser,
        kind,
        detail,
    }
}

/// Plays one game; the engines of a side that misbehaved are dropped (killed) so the
/// next game starts them afresh.
fn play_game(seats: &mut Seats<'_>, game: Scheduled, config: &MatchConfig) -> Finished {
    let root = game
        .start
        .position()
        .expect("starts from the schedule are valid");
    let mut referee = Referee::new(root.clone(), config.max_plies);
    let index = |color: Color| {
        if color.is_white() {
            game.white
        } else {
            1 - game.white
        }
    };
    let ending = 'game: {
        for color in Color::ALL {
            let player = match seats.player(index(color)) {
                Ok(player) => player,
                Err(reason) => break 'game forfeit(color, Forfeit::Start, reason),
            };
            let mut out = Vec::new();
            let event = player.client.new_game(&root, &config.limits, &mut out);
            if let Err(reason) = player.send(&out) {
                break 'game forfeit(color, Forfeit::Crash, reason);
            }
            let event = match event {
                Some(event) => Ok(event),
                None => player.wait(Instant::now() + HANDSHAKE_TIMEOUT, true),
            };
            match event {
                Ok(ClientEvent::Ready) => {}
                Ok(ClientEvent::Failed(reason)) => {
                    break 'game forfeit(color, Forfeit::Start, reason);
                }
                Ok(other) => {
                    break 'game forfeit(color, Forfeit::Start, format!("unexpected {other:?}"));
                }
                Err(Trouble::Closed(how)) => {
                    break 'game forfeit(color, Forfeit::Crash, format!("the engine {how}"));
                }
                Err(Trouble::Timeout) => {
                    break 'game forfeit(
                        color,
                        Forfeit::Timeout,
                        "not ready for a new game".into(),
                    );
                }
            }
        }
        let mut clock = config.limits.clock.clone().map(GameClock::new);
        loop {
            if let Some(ending) = referee.ending() {
                break 'game ending;
            }
            let turn = referee.line().current.turn();
            let player = seats.players[index(turn)]
                .as_mut()
                .expect("both players set up");
            let request = GoRequest {
                game: referee.line(),
                limits: &config.limits,
                clocks: clock.as_ref().map(|c| c.clocks(turn)),
            };
            let mut out = Vec::new();
            player.client.go(request, &mut out);
            if let Err(reason) = player.send(&out) {
                break 'game forfeit(turn, Forfeit::Crash, reason);
            }
            let started = Instant::now();
            let allowed = match &clock {
                Some(clock) => clock.remaining(turn) + FLAG_GRACE,
                None => config.limits.movetime.unwrap_or_default() + config.move_timeout,
            };
            match player.wait(started + allowed, false) {
                Ok(ClientEvent::Move(m)) => {
                    let used = started.elapsed();
                    if let Some(clock) = &mut clock {
                        let left = clock.remaining(turn);
                        if !clock.record(turn, used) {
                            break 'game referee.flag_fall(
                                turn,
                                format!(
                                    "{:.3} s used, {:.3} s left",
                                    used.as_secs_f64(),
                                    left.as_secs_f64()
                                ),
                            );
                        }
                    }
                    referee.play(m);
                }
                Ok(ClientEvent::Resign) => {
                    break 'game forfeit(turn, Forfeit::Resign, String::new());
                }
                Ok(ClientEvent::Failed(reason)) => {
                    break 'game forfeit(turn, Forfeit::IllegalMove, reason);
                }
                Ok(ClientEvent::Ready) => unreachable!("wait() skips Ready"),
                Err(Trouble::Closed(how)) => {
                    break 'game forfeit(turn, Forfeit::Crash, format!("the engine {how}"));
                }
                Err(Trouble::Timeout) => match clock {
                    Some(_) => {
                        break 'game referee.flag_fall(
                            turn,
                            format!("no move within {:.3} s", allowed.as_secs_f64()),
                        );
                    }
                    None => {
                        break 'game forfeit(
                            turn,
                            Forfeit::Timeout,
                            format!("no move within {:.1} s", allowed.as_secs_f64()),
                        );
                    }
                },
            }
        }
    };
    // A side that broke down is restarted for its next game.
    let culprit = match &ending {
        Ending::Forfeit { loser, kind, .. } if *kind != Forfeit::Resign => Some(*loser),
        Ending::TimeoutVsInsufficient(color) => Some(*color),
        _ => None,
    };
    if let Some(color) = culprit {
        seats.players[index(color)] = None;
    }
    Finished {
        game,
        turn: referee.line().current.turn(),
        root,
        moves: referee.line().moves.clone(),
        ending,
    }
}

/// Checks that each engine starts, learns its protocol and name, and stops it again.
fn probe(engines: &[MatchEngine; 2]) -> Result<[(Protocol, String); 2], MatchError> {
    let probe_one = |index: usize| -> Result<(Protocol, String), MatchError> {
        let engine = &engines[index];
        let fail = |reason| MatchError::Engine {
            engine: index + 1,
            reason,
        };
        let process = EngineProcess::spawn(&engine.command).map_err(|err| match err {
            ShellError::NotFound(program) => MatchError::EngineNotFound {
                engine: index + 1,
                program,
            },
            other => fail(spawn_failure(&other)),
        })?;
        let player = Player::handshake(process, engine, engine.protocol).map_err(fail)?;
        player.client.chess960_support().map_err(fail)?;
        let protocol = player.client.protocol().expect("known after the handshake");
        let name = engine
            .name
            .clone()
            .or_else(|| player.client.name().map(str::to_owned))
            .unwrap_or_else(|| engine.program_name());
        player.quit();
        Ok((protocol, name))
    };
    let (first, second) = thread::scope(|scope| {
        let first = scope.spawn(|| probe_one(0));
        let second = probe_one(1);
        (first.join().expect("probe thread"), second)
    });
    let (first, mut second) = (first?, second?);
    if first.1 == second.1 {
        second.1.push_str(" (2)");
    }
    Ok([first, second])
}

fn cpu_seconds() -> f64 {
    // SAFETY: getrusage fills the struct we pass.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut usage) != 0 {
            return 0.0;
        }
        let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
        seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

/// The live progress display on stderr: an indicatif bar on a terminal, one line per
/// game otherwise (nothing when quiet).
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    plain: bool,
    total: usize,
}

impl Progress {
    fn new(total: usize, quiet: bool) -> Progress {
        let terminal = !quiet && io::stderr().is_terminal();
        let bar = terminal.then(|| {
            let bar = indicatif::ProgressBar::new(total as u64);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}",
                )
                .expect("valid template")
                .progress_chars("=> "),
            );
            bar
        });
        Progress {
            bar,
            plain: !quiet && !terminal,
            total,
        }
    }

    fn update(&self, done: usize, names: &[String; 2], score: &Score, last: &GameSummary) {
        let line = format!(
            "{} vs {}: +{} ={} -{} ({:.1}%)",
            names[0],
            names[1],
            score.wins,
            score.draws,
            score.losses,
            score.fraction() * 100.0
        );
        if let Some(bar) = &self.bar {
            bar.set_position(done as u64);
            bar.set_message(line);
        } else if self.plain {
            eprintln!(
                "sp960: match: game {done}/{} (SP {}) {} - {} {} {{{}}}; {line}",
                self.total, last.start, last.white, last.black, last.result, last.reason
            );
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Plays the match: every start twice per round, `concurrency` games at once, each
/// finished game appended to the PGN file with one write and flushed.
pub fn run(config: &MatchConfig) -> Result<Summary, MatchError> {
    let started = Instant::now();
    let cpu_at_start = cpu_seconds();
    if config.limits.nodes.is_some() {
        for (index, engine) in config.engines.iter().enumerate() {
            if engine.protocol == Some(Protocol::Xboard) {
                return Err(MatchError::Limits(format!(
                    "engine {}: XBoard has no node limit; use --depth, --movetime or --tc",
                    index + 1
                )));
            }
        }
    }
    let probed = probe(&config.engines)?;
    let names = [probed[0].1.clone(), probed[1].1.clone()];
    let protocols = [probed[0].0, probed[1].0];
    if config.limits.nodes.is_some()
        && let Some(index) = protocols.iter().position(|p| *p == Protocol::Xboard)
    {
        return Err(MatchError::Limits(format!(
            "engine {} speaks XBoard, which has no node limit; use --depth, --movetime or --tc",
            index + 1
        )));
    }
    let mut schedule = Vec::new();
    for _ in 0..config.rounds {
        for start in &config.starts {
            for white in [0, 1] {
                schedule.push(Scheduled {
                    number: schedule.len() + 1,
                    start: *start,
                    white,
                });
            }
        }
    }
    // Opened once the engines work, so a failed start leaves no empty file behind.
    let pgn_error = |source| MatchError::Pgn {
        path: config.pgn.display().to_string(),
        source,
    };
    let mut pgn_file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&config.pgn)
        .map_err(pgn_error)?;
    let date = utc_timestamp(SystemTime::now())[..10].replace('-', ".");
    let time_control = config
        .limits
        .clock
        .as_ref()
        .map_or_else(|| "-".to_owned(), ToString::to_string);
    let progress = Progress::new(schedule.len(), config.quiet);
    let mut score = Score::default();
    let mut games = Vec::new();
    let next = AtomicUsize::new(0);
    let workers = config.concurrency.clamp(1, schedule.len().max(1));
    let written = thread::scope(|scope| -> Result<(), MatchError> {
        let (sender, finished) = mpsc::channel::<Finished>();
        for worker in 0..workers {
            let sender = sender.clone();
            let (schedule, next) = (&schedule, &next);
            thread::Builder::new()
                .name(format!("match-worker-{worker}"))
                .spawn_scoped(scope, move || {
                    let mut seats = Seats {
                        engines: &config.engines,
                        protocols,
                        players: [None, None],
                    };
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(game) = schedule.get(index) else {
                            break;
                        };
                        let finished = play_game(&mut seats, *game, config);
                        if sender.send(finished).is_err() {
                            break;
                        }
                    }
                    for player in seats.players.into_iter().flatten() {
                        player.quit();
                    }
                })
                .map_err(MatchError::Thread)?;
        }
        drop(sender);
        let mut failure = None;
        for done in finished {
            let (white, black) = if done.game.white == 0 {
                (&names[0], &names[1])
            } else {
                (&names[1], &names[0])
            };
            let result = done.ending.result(done.turn);
            let comment = done.ending.comment(done.turn);
            let entry = pgn::pgn_entry(&pgn::GameRecord {
                event: &config.event,
                date: &date,
                round: done.game.number.to_string(),
                white,
                black,
                time_control: &time_control,
                root: &done.root,
                moves: &done.moves,
                result,
                termination: done.ending.termination(),
                comment: &comment,
            });
            if failure.is_none()
                && let Err(err) = pgn_file
                    .write_all(entry.as_bytes())
                    .and_then(|()| pgn_file.flush())
            {
                // Stop handing out games; the ones being played finish.
                next.store(usize::MAX / 2, Ordering::Relaxed);
                failure = Some(pgn_error(err));
            }
            let first_engine_color = if done.game.white == 0 {
                Color::White
            } else {
                Color::Black
            };
            match done.ending.winner(done.turn) {
                Some(color) if color == first_engine_color => score.wins += 1,
                Some(_) => score.losses += 1,
                None => score.draws += 1,
            }
            let summary = GameSummary {
                round: done.game.number,
                start: done.game.start.to_string(),
                white: white.clone(),
                black: black.clone(),
                result: result.to_owned(),
                termination: done.ending.termination().to_owned(),
                reason: comment,
                plies: done.moves.len(),
            };
            progress.update(games.len() + 1, &names, &score, &summary);
            games.push(summary);
        }
        failure.map_or(Ok(()), Err)
    });
    progress.finish();
    written?;
    let finite = |x: f64| x.is_finite().then_some(x);
    Ok(Summary {
        score_fraction: score.fraction(),
        elo: finite(score.elo_difference()),
        elo_margin: finite(score.elo_margin()),
        engines: names,
        score,
        games,
        pgn: config.pgn.display().to_string(),
        wall_seconds: started.elapsed().as_secs_f64(),
        runner_cpu_seconds: cpu_seconds() - cpu_at_start,
    })
}

/// The final table: each engine's score, the Elo difference and its margin.
pub fn summary_table(summary: &Summary) -> String {
    let s = &summary.score;
    let width = summary
        .engines
        .iter()
        .map(|n| n.len())
        .max()
        .unwrap_or(0)
        .max(6);
    let mut text = format!(
        "{:<width$}  {:>5}  {:>4}  {:>5}  {:>6}  {:>6}\n",
        "Engine", "Games", "Wins", "Draws", "Losses", "Score"
    );
    let rows = [
        (&summary.engines[0], s.wins, s.losses, s.fraction()),
        (&summary.engines[1], s.losses, s.wins, 1.0 - s.fraction()),
    ];
    for (name, wins, losses, fraction) in rows {
        text.push_str(&format!(
            "{name:<width$}  {:>5}  {wins:>4}  {:>5}  {losses:>6}  {:>5.1}%\n",
            s.games(),
            s.draws,
            fraction * 100.0
        ));
    }
    let elo = match (summary.elo, summary.elo_margin) {
        // `+ 0.0` turns -0.0 into 0.0.
        (Some(elo), Some(margin)) => format!("{:+.1} +/- {margin:.1} (95%)", elo + 0.0),
        (Some(elo), None) => format!("{:+.1} +/- inf (95%)", elo + 0.0),
        (None, _) if s.games() == 0 => "n/a (no games)".to_owned(),
        (None, _) => "unbounded (one side scored every point)".to_owned(),
    };
    text.push_str(&format!(
        "Elo difference ({} - {}): {elo}\nPGN: {} ({} games appended)\n",
        summary.engines[0],
        summary.engines[1],
        summary.pgn,
        s.games()
    ));
    text
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

    #[test]
    fn table_shows_both_sides_and_the_margin() {
        let summary = Summary {
            engines: ["Stockfish 15.1".into(), "Ethereal 12.00".into()],
            score: Score {
                wins: 3,
                draws: 4,
                losses: 1,
            },
            score_fraction: 0.625,
            elo: Some(88.7),
            elo_margin: Some(150.2),
            games: Vec::new(),
            pgn: "games.pgn".into(),
            wall_seconds: 1.0,
            runner_cpu_seconds: 0.01,
        };
        let table = summary_table(&summary);
        assert!(
            table.contains("Stockfish 15.1      8     3      4       1   62.5%"),
            "{table}"
        );
        assert!(
            table.contains("Ethereal 12.00      8     1      4       3   37.5%"),
            "{table}"
        );
        assert!(
            table.contains(
                "Elo difference (Stockfish 15.1 - Ethereal 12.00): +88.7 +/- 150.2 (95%)"
            )
        );
    }
}
