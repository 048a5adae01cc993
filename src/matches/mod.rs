//! `sp960 match`: games between two engines (or more: round-robin or gauntlet) from
//! numbered Chess960 starts, each start played twice with colours swapped, saved as PGN
//! one finished game at a time.
//!
//! Wings, one folder each (its `mod.rs` says what it owns):
//! - [`engines`]: the GUI side of each protocol as a sans-IO client (engine lines in;
//!   lines to send and [`engines::talk::ClientEvent`]s out), unit-tested on transcripts
//!   of the real engines;
//! - [`game`]: one game: the rules and clocks ([`game::referee`]), the PGN entry
//!   ([`game::pgn`]) and the two engine processes playing it ([`game::player`]);
//! - [`tally`]: finished games into scores, statistics, SPRT and the summary (built there,
//!   for this runner and for `--runner` alike);
//! - [`config`]: the request, `--openings` and `--resume`;
//! - this module: [`run`], in named steps: the checks before anything starts, the engines'
//!   first handshakes, the schedule, the worker pool that plays games concurrently, and
//!   the commit of each finished game on one thread (the PGN entry, the state file beside
//!   it, the tally, the progress line, the SPRT's decision); and how the summary is
//!   reported ([`match_command`]).
//!
//! Engine specs, time controls and the engine process are [`crate::launch`]'s (below this
//! room, shared with `sp960 tournament` and `sp960 book`); `--runner fastchess|cutechess`,
//! the same match played by a real runner, is `tournaments/handoff.rs`'s (above this room). Ctrl-C is
//! [`crate::os::interrupt`].
//!
//! Castling, FENs and move checking are the proxies' own ([`crate::starts::castling`],
//! [`crate::protocol::game`], [`crate::protocol::xboard`]); see README "sp960 match" for why the
//! runner speaks to engines directly rather than through a proxy session.

pub mod config;
pub mod engines;
pub mod game;
pub mod tally;

pub use config::request::{MatchConfig, MatchRequest};
pub use tally::summary::{GameSummary, Summary};

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Instant, SystemTime};

use shakmaty::Color;
use thiserror::Error;

use crate::launch::log::{GameLog, utc_timestamp};
use crate::launch::spec::{NodeLimitError, check_node_limit};
use crate::launch::time_control::TimeControl;
use crate::matches::config::resume::MatchState;
use crate::matches::game::player::{Finished, Pool, Scheduled, Seats, launch_all, play_game};
use crate::matches::tally::counts::{Counts, Outcome};
use crate::matches::tally::results::{GameResult, Tally};
use crate::matches::tally::sprt::SprtDecision;
use crate::matches::tally::stats::match_stats;
use crate::matches::tally::summary::{MatchRecord, Progress};
use crate::os::cpu::process_seconds;
use crate::os::interrupt;
use crate::protocol::Protocol;

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
    /// A node limit for an engine that speaks XBoard, which has none.
    #[error(transparent)]
    Limits(#[from] NodeLimitError),
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
    /// The starts asked for are invalid (a bad SPEC): invalid data, as in `sp960 fen`.
    #[error(transparent)]
    Starts(#[from] crate::starts::request::BookError),
    /// A start that is no position (a usage error here, not invalid data).
    #[error(transparent)]
    Start(#[from] crate::starts::start::InvalidStart),
    /// A malformed `--engine`, or a key `sp960 match` does not take.
    #[error(transparent)]
    EngineSpec(#[from] crate::launch::spec::EngineSpecError),
    /// A malformed `--tc`.
    #[error(transparent)]
    TimeControl(#[from] crate::launch::time_control::TimeControlError),
    /// A malformed `--sprt`.
    #[error(transparent)]
    Sprt(#[from] tally::sprt::SprtError),
    /// Malformed `--openings` words.
    #[error(transparent)]
    OpeningsSpec(#[from] config::openings::OpeningsSpecError),
    /// Malformed `--resign` or `--draw` words.
    #[error(transparent)]
    Adjudication(#[from] config::adjudication::AdjudicationError),
    /// Bad arguments (engine count, values out of range).
    #[error("{0}")]
    Usage(String),
    /// An opening of `--openings` is bad (or the file cannot be read): invalid data.
    #[error("--openings: {0}")]
    Openings(#[from] crate::matches::config::openings::OpeningError),
    /// The `--log` directory cannot be made.
    #[error("--log '{path}': {source}")]
    Log {
        /// The directory.
        path: String,
        /// The error.
        source: io::Error,
    },
    /// Ctrl-C: the finished games are saved (the table was printed).
    #[error("interrupted: {games} games saved to {pgn}")]
    Interrupted {
        /// Games written to the PGN file.
        games: usize,
        /// The PGN file.
        pgn: String,
    },
    /// The summary cannot be written.
    #[error("cannot write the summary: {0}")]
    Output(io::Error),
    /// `--resume` cannot continue the match.
    #[error(transparent)]
    Resume(#[from] config::resume::ResumeError),
}

impl MatchError {
    /// The process exit code: invalid SPECs 1, usage errors 2, engines that are missing
    /// 127 or unusable 3.
    pub fn exit_code(&self) -> u8 {
        match self {
            MatchError::EngineNotFound { .. } => crate::exit_code::ENGINE_NOT_FOUND,
            MatchError::Engine { .. } => crate::exit_code::ENGINE_UNSUITABLE,
            MatchError::Starts(crate::starts::request::BookError::Empty) => crate::exit_code::USAGE,
            MatchError::Starts(_) | MatchError::Openings(_) => crate::exit_code::INVALID_DATA,
            MatchError::Interrupted { .. } => INTERRUPTED,
            _ => crate::exit_code::USAGE,
        }
    }
}

/// The exit code after Ctrl-C: 128 + SIGINT, as a shell reports it.
pub const INTERRUPTED: u8 = crate::exit_code::INTERRUPTED;

/// `sp960 match`: resolves the request, plays the match, and writes the table (or the
/// `--json` summary) to `out`.
pub fn match_command(request: MatchRequest, out: &mut dyn Write) -> Result<Summary, MatchError> {
    let json = request.json;
    let config = request.resolve()?;
    let summary = run(&config)?;
    report(summary, json, out)
}

/// Writes the table (or, with `json`, the `--json` summary) to `out`; after Ctrl-C, once
/// it is written, [`MatchError::Interrupted`]. The built-in runner's and `--runner`'s.
pub(crate) fn report(
    summary: Summary,
    json: bool,
    out: &mut dyn Write,
) -> Result<Summary, MatchError> {
    out.write_all(summary.text(json).as_bytes())
        .and_then(|()| out.flush())
        .map_err(MatchError::Output)?;
    if summary.interrupted {
        return Err(MatchError::Interrupted {
            games: summary.played,
            pgn: summary.pgn,
        });
    }
    Ok(summary)
}

/// The wall and CPU time (the runner's own) since a match began, for its summary.
pub(crate) struct Stopwatch {
    wall: Instant,
    cpu: f64,
}

impl Stopwatch {
    /// Starts counting now.
    pub(crate) fn start() -> Stopwatch {
        Stopwatch {
            wall: Instant::now(),
            cpu: process_seconds(),
        }
    }

    /// What the summary says besides the tally: `games` (listed for `--json`), `played`,
    /// the PGN file, the times so far and whether Ctrl-C ended the match.
    pub(crate) fn record(
        &self,
        games: Vec<GameSummary>,
        played: usize,
        pgn: &Path,
        interrupted: bool,
    ) -> MatchRecord {
        MatchRecord {
            games,
            played,
            pgn: pgn.display().to_string(),
            wall_seconds: self.wall.elapsed().as_secs_f64(),
            runner_cpu_seconds: process_seconds() - self.cpu,
            interrupted,
        }
    }
}

/// Plays the match: every start twice per round, `concurrency` games at once, each
/// finished game appended to the PGN file with one write and flushed.
///
/// The steps: the match is checked (`validate`) and `--resume`'s games read back
/// (`resume_point`) before any engine starts; the engines are launched (`Engines`); the
/// PGN and state files are opened (`PgnWriter`) and the games read back counted
/// (`Ledger::replay`); the workers play the rest (`play_schedule`), and each finished game
/// is committed on this thread (`Commit::game`); the summary is the tally's.
pub fn run(config: &MatchConfig) -> Result<Summary, MatchError> {
    let stopwatch = Stopwatch::start();
    let _sigint = interrupt::Guard::install();
    validate(config)?;
    // Read back before the engines start, so a refused resume starts none.
    let resumed = if config.resume {
        resume_point(config)?
    } else {
        None
    };
    let engines = Engines::launch(config)?;
    let schedule = schedule(config);
    if let Some(resumed) = &resumed {
        resumed.check_names(&schedule, &engines.names, &config.pgn)?;
    }
    // Opened once the engines work, so a failed start leaves no empty file behind.
    let mut writer = PgnWriter::open(config, resumed.as_ref())?;
    let progress = Progress::new(schedule.len(), config.quiet);
    let mut ledger = Ledger::new(engines.names.len(), config.quiet);
    if let Some(resumed) = &resumed {
        ledger.replay(config, &schedule, resumed, &progress);
    }
    writer.save_state(ledger.played)?;
    let schedule = still_to_play(schedule, resumed, &ledger);
    let mut commit = Commit {
        config,
        names: &engines.names,
        writer,
        ledger,
        progress,
        failure: None,
    };
    let played = play_schedule(config, &schedule, &engines, |done| commit.game(done));
    commit.progress.finish();
    let Commit {
        ledger, failure, ..
    } = commit;
    engines.quit_unused();
    played?;
    if let Some(err) = failure {
        return Err(err);
    }
    Ok(ledger.summary(config, engines.names, &stopwatch))
}

/// What can be refused before anything starts: a node limit for an engine given
/// `proto=xboard`; and the `--log` directory is made.
fn validate(config: &MatchConfig) -> Result<(), MatchError> {
    for (index, engine) in config.engines.iter().enumerate() {
        if let Some(protocol) = engine.protocol {
            let nodes = config.engine_limits[index].nodes;
            check_node_limit(protocol, nodes, NodeLimitError::Declared(index + 1))?;
        }
    }
    if let Some(dir) = &config.log_dir {
        std::fs::create_dir_all(dir).map_err(|source| MatchError::Log {
            path: dir.display().to_string(),
            source,
        })?;
    }
    Ok(())
}

/// The engines after their first handshake, which tells each one's protocol and name; its
/// process waits in the pool and plays the first game it is needed in.
struct Engines {
    names: Vec<String>,
    protocols: Vec<Protocol>,
    pool: Pool,
}

impl Engines {
    /// Starts every engine and completes its handshake; prints what the quirks table gives
    /// an engine; refuses a node limit for an engine that turned out to speak XBoard.
    fn launch(config: &MatchConfig) -> Result<Engines, MatchError> {
        let launched = launch_all(&config.engines, config.log_dir.is_some()).map_err(|err| {
            if interrupt::interrupted() {
                MatchError::Interrupted {
                    games: 0,
                    pgn: config.pgn.display().to_string(),
                }
            } else {
                err
            }
        })?;
        let (mut names, mut protocols, mut pooled) = (Vec::new(), Vec::new(), Vec::new());
        for (player, protocol, name) in launched {
            if !config.quiet {
                for note in player.quirk_notes(&config.openings) {
                    eprintln!("sp960: match: engine '{name}': {note}");
                }
            }
            pooled.push(Some(player));
            protocols.push(protocol);
            names.push(name);
        }
        let engines = Engines {
            names,
            protocols,
            pool: std::sync::Mutex::new(pooled),
        };
        for (index, protocol) in engines.protocols.iter().enumerate() {
            let nodes = config.engine_limits[index].nodes;
            check_node_limit(*protocol, nodes, NodeLimitError::Spoken(index + 1))?;
        }
        Ok(engines)
    }

    /// The engines of the first handshake that no game needed quit (after Ctrl-C they are
    /// killed, dropped).
    fn quit_unused(&self) {
        let pooled = self.pool.lock().map(|mut pool| std::mem::take(&mut *pool));
        for player in pooled.unwrap_or_default().into_iter().flatten() {
            if !interrupt::interrupted() {
                player.quit();
            }
        }
    }
}

/// The games still to play, in schedule order: those not read back by `--resume`, and none
/// once the SPRT has decided.
fn still_to_play(
    schedule: Vec<Scheduled>,
    resumed: Option<Resumed>,
    ledger: &Ledger,
) -> Vec<Scheduled> {
    if ledger.decision.is_some() {
        return Vec::new();
    }
    let finished: HashSet<usize> = resumed
        .into_iter()
        .flat_map(|resumed| resumed.games)
        .map(|game| game.round)
        .collect();
    schedule
        .into_iter()
        .filter(|game| !finished.contains(&game.number))
        .collect()
}

/// A finished game and its worker's acknowledgement channel: the worker takes its next
/// game only once this one is committed, so an SPRT decision starts no new game.
type Done = (Finished, mpsc::Sender<()>);

/// Plays `schedule` on `config.concurrency` worker threads, each with its own seats for
/// the engines; every finished game is handed to `commit` on this thread, which answers
/// whether to stop handing out games (the ones being played finish and are committed).
fn play_schedule(
    config: &MatchConfig,
    schedule: &[Scheduled],
    engines: &Engines,
    mut commit: impl FnMut(Finished) -> bool,
) -> Result<(), MatchError> {
    let next = AtomicUsize::new(0);
    let workers = config.concurrency.clamp(1, schedule.len().max(1));
    thread::scope(|scope| {
        let (sender, finished) = mpsc::channel::<Done>();
        for worker in 0..workers {
            let (sender, next) = (sender.clone(), &next);
            thread::Builder::new()
                .name(format!("match-worker-{worker}"))
                .spawn_scoped(scope, move || {
                    work(config, schedule, engines, next, &sender)
                })
                .map_err(MatchError::Thread)?;
        }
        drop(sender);
        for (done, ack) in finished {
            if commit(done) {
                next.store(usize::MAX / 2, Ordering::Relaxed);
            }
            // The worker may take its next game (or find none left).
            let _ = ack.send(());
        }
        Ok(())
    })
}

/// One worker: takes the next game of `schedule` until none is left, Ctrl-C or the
/// committing thread is gone.
fn work(
    config: &MatchConfig,
    schedule: &[Scheduled],
    engines: &Engines,
    next: &AtomicUsize,
    sender: &mpsc::Sender<Done>,
) {
    let log = config.log_dir.as_ref().map(|_| GameLog::default());
    let mut seats = Seats::new(
        &config.engines,
        &engines.protocols,
        &engines.names,
        &engines.pool,
        log,
    );
    let (ack, acked) = mpsc::channel::<()>();
    loop {
        if interrupt::interrupted() {
            break;
        }
        let index = next.fetch_add(1, Ordering::Relaxed);
        let Some(game) = schedule.get(index) else {
            break;
        };
        let Some(finished) = play_game(&mut seats, *game, config) else {
            break;
        };
        if sender.send((finished, ack.clone())).is_err() || acked.recv().is_err() {
            break;
        }
    }
    if interrupt::interrupted() {
        // Killed at once (dropped), not asked to quit.
        drop(seats);
    } else {
        seats.close();
    }
}

/// The PGN file and the match's state file beside it: each finished game is appended to
/// the PGN with one write and flushed, then the state is replaced.
struct PgnWriter {
    file: File,
    path: PathBuf,
    state_path: PathBuf,
    state: MatchState,
    /// The PGN `Date` of every game (the day the match began) and `TimeControl`.
    date: String,
    time_control: String,
    /// The test hook's game to crash in ([`crash_hook`]), and the games written.
    crash_in_write: Option<usize>,
    written: usize,
}

impl PgnWriter {
    /// Opens the PGN for appending (creating it); the match's games begin at its end, or
    /// where `resumed` says.
    fn open(config: &MatchConfig, resumed: Option<&Resumed>) -> Result<PgnWriter, MatchError> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&config.pgn)
            .map_err(|source| MatchError::Pgn {
                path: config.pgn.display().to_string(),
                source,
            })?;
        let mut writer = PgnWriter {
            file,
            path: config.pgn.clone(),
            state_path: config::resume::state_path(&config.pgn),
            state: MatchState {
                format: config::resume::STATE_FORMAT.to_owned(),
                arguments: config.identity.iter().cloned().collect(),
                seed: config.seed,
                pgn_start: 0,
                games: 0,
                pgn_end: 0,
            },
            date: utc_timestamp(SystemTime::now())[..10].replace('-', "."),
            time_control: config
                .limits
                .clock
                .as_ref()
                .map_or_else(|| "-".to_owned(), TimeControl::pgn_tag),
            crash_in_write: crash_hook(),
            written: 0,
        };
        writer.state.pgn_start = match resumed {
            Some(resumed) => resumed.pgn_start,
            None => writer.length()?,
        };
        Ok(writer)
    }

    fn pgn_error(&self, source: io::Error) -> MatchError {
        MatchError::Pgn {
            path: self.path.display().to_string(),
            source,
        }
    }

    /// The PGN file's length.
    fn length(&self) -> Result<u64, MatchError> {
        let length = self.file.metadata().map(|m| m.len());
        length.map_err(|source| self.pgn_error(source))
    }

    /// Replaces the state file: `games` finished, the PGN ending where it ends now.
    fn save_state(&mut self, games: usize) -> Result<(), MatchError> {
        self.state.games = games;
        self.state.pgn_end = self.length()?;
        config::resume::save_state(&self.state_path, &self.state).map_err(|source| {
            MatchError::Pgn {
                path: self.state_path.display().to_string(),
                source,
            }
        })
    }

    /// The PGN entry of a finished game.
    fn entry(&self, config: &MatchConfig, done: &Finished, names: &[String]) -> String {
        game::pgn::pgn_entry(&game::pgn::GameRecord {
            event: &config.event,
            site: &config.site,
            date: &self.date,
            round: done.game.number.to_string(),
            white: &names[done.game.white],
            black: &names[done.game.black],
            time_control: &self.time_control,
            root: &done.root,
            moves: &done.moves,
            move_comments: &done.move_comments,
            result: done.ending.result(done.turn),
            termination: done.ending.termination(),
            comment: &done.ending.comment(done.turn),
        })
    }

    /// Counts a game to write; the test hook may abort halfway through writing it.
    fn crash_hook(&mut self, entry: &str) {
        self.written += 1;
        if self.crash_in_write == Some(self.written) {
            crash_while_writing(&mut self.file, entry);
        }
    }

    /// Appends `entry` with one write and flushes; then the state says `games` finished.
    fn append(&mut self, entry: &str, games: usize) -> Result<(), MatchError> {
        let written = self
            .file
            .write_all(entry.as_bytes())
            .and_then(|()| self.file.flush());
        written.map_err(|source| self.pgn_error(source))?;
        self.save_state(games)
    }
}

/// The commit of a finished game, on the thread that owns the files: the PGN entry and the
/// state, the tally and the progress line; and the SPRT's decision.
struct Commit<'a> {
    config: &'a MatchConfig,
    names: &'a [String],
    writer: PgnWriter,
    ledger: Ledger,
    progress: Progress,
    /// The first write that failed: no game is written after it.
    failure: Option<MatchError>,
}

impl Commit<'_> {
    /// Commits `done`; true when no new game should start (a write failed, or the SPRT
    /// decided just now).
    fn game(&mut self, done: Finished) -> bool {
        let mut stop = false;
        let entry = self.writer.entry(self.config, &done, self.names);
        self.writer.crash_hook(&entry);
        if self.failure.is_none()
            && let Err(err) = self.writer.append(&entry, self.ledger.played + 1)
        {
            // Stop handing out games; the ones being played finish.
            stop = true;
            self.failure = Some(err);
        }
        let white_outcome = match done.ending.winner(done.turn) {
            Some(Color::White) => Outcome::Win,
            Some(Color::Black) => Outcome::Loss,
            None => Outcome::Draw,
        };
        let summary = GameSummary {
            round: done.game.number,
            start: self.config.openings[done.game.opening].label.clone(),
            white: self.names[done.game.white].clone(),
            black: self.names[done.game.black].clone(),
            result: done.ending.result(done.turn).to_owned(),
            termination: done.ending.termination().to_owned(),
            reason: done.ending.comment(done.turn),
            plies: done.moves.len(),
        };
        let sprt = self
            .ledger
            .count(self.config, done.game, white_outcome, summary);
        let last = self.ledger.games.last().expect("just counted");
        let score = self.ledger.tally.score(0);
        self.progress
            .update(self.ledger.played, self.names, &score, last);
        if let Some(step) = sprt {
            self.progress.sprt(step.pairs, &step.stats);
            if step.decided {
                // No new games; the ones being played finish and are written.
                stop = true;
                self.progress
                    .sprt_stop(self.ledger.decision.unwrap_or(SprtDecision::Continue));
            }
        }
        stop
    }
}

/// The finished games, counted as they come: the tally, the SPRT's decision (the first
/// bound crossed after a completed pair) and, for `--json`, the summary's list (without
/// it, only the last game is kept, for the progress line: memory stays flat however long
/// the match).
struct Ledger {
    /// fastchess's pairing: a start's two games (colours swapped) are one pair, counted
    /// when both are done.
    tally: Tally,
    decision: Option<SprtDecision>,
    /// Games counted.
    played: usize,
    /// Every game (`list`), or the last one.
    games: Vec<GameSummary>,
    list: bool,
}

/// After a completed pair, with `--sprt`: the pairs, the statistics and whether the SPRT
/// decided just now.
struct SprtStep {
    pairs: u64,
    stats: tally::stats::MatchStats,
    decided: bool,
}

impl Ledger {
    fn new(engines: usize, list: bool) -> Ledger {
        Ledger {
            tally: Tally::new(engines),
            decision: None,
            played: 0,
            games: Vec::new(),
            list,
        }
    }

    /// Counts a finished game (a game read back on `--resume` the same way as one just
    /// played, so the SPRT decides as in one uninterrupted run); with `--sprt` and a pair
    /// completed, the SPRT's step.
    fn count(
        &mut self,
        config: &MatchConfig,
        game: Scheduled,
        white_outcome: Outcome,
        summary: GameSummary,
    ) -> Option<SprtStep> {
        let completed = self
            .tally
            .add(GameResult {
                pair: game.pair,
                white: game.white,
                black: game.black,
                white_outcome,
            })
            .is_some();
        if !self.list {
            self.games.clear();
        }
        self.games.push(summary);
        self.played += 1;
        let sprt = config.sprt.as_ref().filter(|_| completed)?;
        let pairs = self.tally.pairs(0);
        let stats = match_stats(&Counts::Pairs(pairs), Some(sprt));
        let now = stats.decision.unwrap_or(SprtDecision::Continue);
        let decided = self.decision.is_none() && now != SprtDecision::Continue;
        if decided {
            self.decision = Some(now);
        }
        Some(SprtStep {
            pairs: pairs.pairs(),
            stats,
            decided,
        })
    }

    /// `--resume`: counts the games read back, in the schedule's places.
    fn replay(
        &mut self,
        config: &MatchConfig,
        schedule: &[Scheduled],
        resumed: &Resumed,
        progress: &Progress,
    ) {
        for game in &resumed.games {
            let scheduled = schedule[game.round - 1];
            let summary = GameSummary {
                start: config.openings[scheduled.opening].label.clone(),
                ..game.clone()
            };
            let step = self.count(
                config,
                scheduled,
                config::resume::white_outcome(game),
                summary,
            );
            if step.is_some_and(|step| step.decided) {
                progress.sprt_stop(self.decision.unwrap_or(SprtDecision::Continue));
            }
        }
        if !config.quiet {
            eprintln!(
                "sp960: match: resuming: {} of {} games already in {}",
                self.played,
                schedule.len(),
                config.pgn.display()
            );
        }
    }

    /// The match's summary: the tally's, with the SPRT's decision where it stopped.
    fn summary(self, config: &MatchConfig, names: Vec<String>, stopwatch: &Stopwatch) -> Summary {
        let games = if self.list { self.games } else { Vec::new() };
        let record = stopwatch.record(games, self.played, &config.pgn, interrupt::interrupted());
        Summary::new(
            &self.tally,
            names,
            config.sprt.as_ref(),
            self.decision,
            record,
        )
    }
}

/// A match to continue: where its games begin in the PGN, and those finished there.
struct Resumed {
    pgn_start: u64,
    games: Vec<tally::summary::GameSummary>,
}

impl Resumed {
    /// Each game read back was played by the engines the schedule puts there.
    fn check_names(
        &self,
        schedule: &[Scheduled],
        names: &[String],
        pgn: &std::path::Path,
    ) -> Result<(), MatchError> {
        for game in &self.games {
            let scheduled = schedule[game.round - 1];
            for (colour, found, engine) in [
                ("White", &game.white, scheduled.white),
                ("Black", &game.black, scheduled.black),
            ] {
                if *found != names[engine] {
                    return Err(config::resume::ResumeError::Pgn {
                        path: pgn.display().to_string(),
                        reason: format!(
                            "game {} has {colour} '{found}', but engine {} now calls itself '{}': not the same engines",
                            game.round,
                            engine + 1,
                            names[engine]
                        ),
                    }
                    .into());
                }
            }
        }
        Ok(())
    }
}

/// `--resume`: the state beside the PGN checked against this match's options, and the
/// PGN read back from the match's start; a partial game at its end (a kill while it was
/// written) is cut off. `None` without a state file: a new match.
fn resume_point(config: &MatchConfig) -> Result<Option<Resumed>, MatchError> {
    let state_path = config::resume::state_path(&config.pgn);
    let Some(state) = config::resume::load_state(&state_path)? else {
        if !config.quiet {
            eprintln!(
                "sp960: match: --resume: no state file '{}': a new match",
                state_path.display()
            );
        }
        return Ok(None);
    };
    let differences =
        config::resume::differences(&state.arguments, state.seed, &config.identity, config.seed);
    if !differences.is_empty() {
        return Err(config::resume::ResumeError::Different {
            path: state_path.display().to_string(),
            differences,
        }
        .into());
    }
    let pgn_error = |reason: String| -> MatchError {
        config::resume::ResumeError::Pgn {
            path: config.pgn.display().to_string(),
            reason,
        }
        .into()
    };
    let text = match std::fs::read(&config.pgn) {
        Ok(text) => text,
        Err(err) if err.kind() == io::ErrorKind::NotFound && state.pgn_start == 0 => Vec::new(),
        Err(err) => return Err(pgn_error(err.to_string())),
    };
    let start = usize::try_from(state.pgn_start).unwrap_or(usize::MAX);
    if text.len() < start {
        return Err(pgn_error(format!(
            "{} bytes, but the match began at byte {start}: not the file the match was writing",
            text.len()
        )));
    }
    let read =
        config::resume::read_games(&text[start..]).map_err(|err| pgn_error(err.to_string()))?;
    let total = schedule(config).len();
    let mut seen = HashSet::new();
    for game in &read.games {
        if game.round == 0 || game.round > total {
            return Err(pgn_error(format!(
                "game with Round {}: the match has games 1 to {total}",
                game.round
            )));
        }
        if !seen.insert(game.round) {
            return Err(pgn_error(format!("game {} is there twice", game.round)));
        }
    }
    let end = start + read.complete;
    if end < text.len() {
        // A game cut short: played again.
        OpenOptions::new()
            .write(true)
            .open(&config.pgn)
            .and_then(|file| file.set_len(end as u64).and_then(|()| file.sync_all()))
            .map_err(|err| pgn_error(format!("cannot cut the unfinished game off: {err}")))?;
        eprintln!(
            "sp960: match: --resume: cut {} bytes of an unfinished game off the end of {}",
            text.len() - end,
            config.pgn.display()
        );
    }
    if read.games.len() < state.games {
        eprintln!(
            "sp960: match: --resume: the state counted {} finished games, {} holds {}: the others are played again",
            state.games,
            config.pgn.display(),
            read.games.len()
        );
    }
    Ok(Some(Resumed {
        pgn_start: state.pgn_start,
        games: read.games,
    }))
}

/// Test hook: `SP960_TEST_CRASH_IN_PGN_WRITE=N` makes the runner abort halfway through
/// writing the Nth game it saves (so tests can check `--resume` after a crash mid-write).
fn crash_hook() -> Option<usize> {
    std::env::var("SP960_TEST_CRASH_IN_PGN_WRITE")
        .ok()?
        .parse()
        .ok()
}

/// Writes half of `entry` and aborts (the test hook's crash).
fn crash_while_writing(file: &mut std::fs::File, entry: &str) -> ! {
    let _ = file.write_all(&entry.as_bytes()[..entry.len() / 2]);
    let _ = file.flush();
    eprintln!("sp960: match: SP960_TEST_CRASH_IN_PGN_WRITE: aborting mid-write");
    std::process::abort()
}

/// The games in the order they are handed out: per round, per matchup, each start twice
/// (the lower-indexed engine white first). Games of one matchup follow each other, so a
/// worker keeps its two engine processes for long runs.
pub(crate) fn schedule(config: &MatchConfig) -> Vec<Scheduled> {
    let mut games = Vec::new();
    for _ in 0..config.rounds {
        for &(a, b) in &config.matchups {
            for opening in 0..config.openings.len() {
                let pair = games.len() / 2;
                for (white, black) in [(a, b), (b, a)] {
                    games.push(Scheduled {
                        number: games.len() + 1,
                        opening,
                        white,
                        black,
                        pair,
                    });
                }
            }
        }
    }
    games
}

#[cfg(test)]
mod tests;
