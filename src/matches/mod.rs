//! `sp960 match`: games between two engines (or more: round-robin or gauntlet) from
//! numbered Chess960 starts, each start played twice with colours swapped, saved as PGN
//! one finished game at a time.
//!
//! Wings, one folder each (its `mod.rs` says what it owns):
//! - [`engines`]: the GUI side of each protocol as a sans-IO client (engine lines in;
//!   lines to send and [`engines::client::ClientEvent`]s out), unit-tested on transcripts
//!   of the real engines;
//! - [`game`]: one game: the rules and clocks ([`game::referee`]), the PGN entry
//!   ([`game::pgn`]) and the two engine processes playing it ([`game::player`]);
//! - [`tally`]: finished games into scores, statistics, SPRT and the summary;
//! - [`config`]: the request, `--openings` and `--resume`;
//! - this module: the schedule, the workers that play games concurrently and the PGN
//!   file.
//!
//! Engine specs, time controls and the engine process are [`crate::launch`]'s (below this
//! room, shared with `sp960 tournament` and `sp960 book`); `--runner fastchess|cutechess`,
//! the same match played by a real runner, is [`crate::tournaments::handoff`]'s. Ctrl-C is
//! [`crate::os::interrupt`].
//!
//! Castling, FENs and move checking are the proxies' own ([`crate::starts::castling`],
//! [`crate::protocol::game`], [`crate::protocol::xboard`]); see README "sp960 match" for why the
//! runner speaks to engines directly rather than through a proxy session.

pub mod config;
pub mod engines;
pub mod game;
pub mod tally;

pub use config::request::{DEFAULT_MOVETIME_MS, MatchConfig, MatchEngine, MatchRequest};
pub use tally::summary::{GameSummary, Summary, summary_table};

use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Instant, SystemTime};

use shakmaty::Color;
use thiserror::Error;

use crate::launch::log::utc_timestamp;
use crate::matches::config::resume::MatchState;
use crate::matches::game::player::{Finished, Pool, Scheduled, Seats, launch_all, play_game};
use crate::matches::tally::results::{GameResult, Tally};
use crate::matches::tally::sprt::SprtDecision;
use crate::matches::tally::stats::{Counts, Outcome, match_stats};
use crate::matches::tally::summary::Progress;
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
    /// The starts asked for are invalid (a bad SPEC): invalid data, as in `sp960 fen`.
    #[error(transparent)]
    Starts(#[from] crate::starts::request::BookError),
    /// Bad arguments (`--engine` text, time control, engine count).
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
    if summary.interrupted {
        return Err(MatchError::Interrupted {
            games: summary.played,
            pgn: summary.pgn,
        });
    }
    Ok(summary)
}

/// Plays the match: every start twice per round, `concurrency` games at once, each
/// finished game appended to the PGN file with one write and flushed.
pub fn run(config: &MatchConfig) -> Result<Summary, MatchError> {
    let started = Instant::now();
    let cpu_at_start = process_seconds();
    let _sigint = interrupt::Guard::install();
    for (index, engine) in config.engines.iter().enumerate() {
        if config.engine_limits[index].nodes.is_some() && engine.protocol == Some(Protocol::Xboard)
        {
            return Err(MatchError::Limits(format!(
                "engine {}: XBoard has no node limit; use --depth, --movetime or --tc",
                index + 1
            )));
        }
    }
    // The first handshake of each engine tells its protocol and name; its process plays
    // the first game it is needed in.
    let mut names = Vec::new();
    let mut protocols = Vec::new();
    let mut pooled = Vec::new();
    if let Some(dir) = &config.log_dir {
        std::fs::create_dir_all(dir).map_err(|source| MatchError::Log {
            path: dir.display().to_string(),
            source,
        })?;
    }
    // Read back before the engines start, so a refused resume starts none.
    let resumed = if config.resume {
        resume_point(config)?
    } else {
        None
    };
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
    let pool: Pool = std::sync::Mutex::new(pooled);
    if let Some(index) = (0..config.engines.len()).find(|index| {
        config.engine_limits[*index].nodes.is_some() && protocols[*index] == Protocol::Xboard
    }) {
        return Err(MatchError::Limits(format!(
            "engine {} speaks XBoard, which has no node limit; use --depth, --movetime or --tc",
            index + 1
        )));
    }
    let schedule = schedule(config);
    if let Some(resumed) = &resumed {
        resumed.check_names(&schedule, &names, &config.pgn)?;
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
    let pgn_length = |file: &std::fs::File| file.metadata().map(|m| m.len());
    let date = utc_timestamp(SystemTime::now())[..10].replace('-', ".");
    let time_control = config.limits.clock.as_ref().map_or_else(
        || "-".to_owned(),
        crate::launch::time_control::TimeControl::pgn_tag,
    );
    let progress = Progress::new(schedule.len(), config.quiet);
    let mut ledger = Ledger::new(names.len(), config.quiet);
    let state_path = config::resume::state_path(&config.pgn);
    let mut state = MatchState {
        format: config::resume::STATE_FORMAT.to_owned(),
        arguments: config.identity.iter().cloned().collect(),
        seed: config.seed,
        pgn_start: pgn_length(&pgn_file).map_err(pgn_error)?,
        games: 0,
        pgn_end: 0,
    };
    if let Some(resumed) = &resumed {
        state.pgn_start = resumed.pgn_start;
        for game in &resumed.games {
            let scheduled = schedule[game.round - 1];
            let summary = GameSummary {
                round: game.round,
                start: config.openings[scheduled.opening].label.clone(),
                white: game.white.clone(),
                black: game.black.clone(),
                result: game.result.clone(),
                termination: game.termination.clone(),
                reason: game.reason.clone(),
                plies: game.plies,
            };
            if let Some((_, _, true)) = ledger.count(
                config,
                scheduled,
                config::resume::white_outcome(game),
                summary,
            ) {
                progress.sprt_stop(ledger.decision.unwrap_or(SprtDecision::Continue));
            }
        }
        if !config.quiet {
            eprintln!(
                "sp960: match: resuming: {} of {} games already in {}",
                ledger.played,
                schedule.len(),
                config.pgn.display()
            );
        }
    }
    let save_state = |state: &mut MatchState, games: usize, end: u64| {
        state.games = games;
        state.pgn_end = end;
        config::resume::save_state(&state_path, state).map_err(|source| MatchError::Pgn {
            path: state_path.display().to_string(),
            source,
        })
    };
    save_state(
        &mut state,
        ledger.played,
        pgn_length(&pgn_file).map_err(pgn_error)?,
    )?;
    // The games still to play, in schedule order (none once the SPRT has decided).
    let finished: HashSet<usize> = resumed
        .into_iter()
        .flat_map(|resumed| resumed.games)
        .map(|game| game.round)
        .collect();
    let schedule: Vec<Scheduled> = if ledger.decision.is_some() {
        Vec::new()
    } else {
        schedule
            .into_iter()
            .filter(|game| !finished.contains(&game.number))
            .collect()
    };
    let crash_in_write = crash_hook();
    let mut written_here = 0;
    let next = AtomicUsize::new(0);
    let workers = config.concurrency.clamp(1, schedule.len().max(1));
    let written = thread::scope(|scope| -> Result<(), MatchError> {
        // Each result comes with its worker's acknowledgement channel: the worker takes its
        // next game only once this one is counted, so an SPRT decision starts no new game.
        let (sender, finished) = mpsc::channel::<(Finished, mpsc::Sender<()>)>();
        for worker in 0..workers {
            let sender = sender.clone();
            let (schedule, next, protocols, pool, names) =
                (&schedule, &next, &protocols, &pool, &names);
            thread::Builder::new()
                .name(format!("match-worker-{worker}"))
                .spawn_scoped(scope, move || {
                    let log = config
                        .log_dir
                        .as_ref()
                        .map(|_| crate::launch::log::GameLog::default());
                    let mut seats = Seats::new(&config.engines, protocols, names, pool, log);
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
                })
                .map_err(MatchError::Thread)?;
        }
        drop(sender);
        let mut failure = None;
        for (done, ack) in finished {
            let (white, black) = (&names[done.game.white], &names[done.game.black]);
            let result = done.ending.result(done.turn);
            let comment = done.ending.comment(done.turn);
            let entry = game::pgn::pgn_entry(&game::pgn::GameRecord {
                event: &config.event,
                site: &config.site,
                date: &date,
                round: done.game.number.to_string(),
                white,
                black,
                time_control: &time_control,
                root: &done.root,
                moves: &done.moves,
                move_comments: &done.move_comments,
                result,
                termination: done.ending.termination(),
                comment: &comment,
            });
            written_here += 1;
            if crash_in_write == Some(written_here) {
                crash_while_writing(&mut pgn_file, &entry);
            }
            if failure.is_none()
                && let Err(err) = pgn_file
                    .write_all(entry.as_bytes())
                    .and_then(|()| pgn_file.flush())
                    .map_err(pgn_error)
                    .and_then(|()| {
                        let end = pgn_length(&pgn_file).map_err(pgn_error)?;
                        save_state(&mut state, ledger.played + 1, end)
                    })
            {
                // Stop handing out games; the ones being played finish.
                next.store(usize::MAX / 2, Ordering::Relaxed);
                failure = Some(err);
            }
            let white_outcome = match done.ending.winner(done.turn) {
                Some(Color::White) => Outcome::Win,
                Some(Color::Black) => Outcome::Loss,
                None => Outcome::Draw,
            };
            let summary = GameSummary {
                round: done.game.number,
                start: config.openings[done.game.opening].label.clone(),
                white: white.clone(),
                black: black.clone(),
                result: result.to_owned(),
                termination: done.ending.termination().to_owned(),
                reason: comment,
                plies: done.moves.len(),
            };
            let sprt = ledger.count(config, done.game, white_outcome, summary);
            let last = ledger.games.last().expect("just counted");
            progress.update(ledger.played, &names, &ledger.tally.score(0), last);
            if let Some((pairs, stats, decided)) = sprt {
                progress.sprt(pairs, &stats);
                if decided {
                    // No new games; the ones being played finish and are written.
                    next.store(usize::MAX / 2, Ordering::Relaxed);
                    progress.sprt_stop(ledger.decision.unwrap_or(SprtDecision::Continue));
                }
            }
            // The worker may take its next game (or find none left).
            let _ = ack.send(());
        }
        failure.map_or(Ok(()), Err)
    });
    progress.finish();
    // Engines of the first handshake that no game needed.
    for player in pool.into_inner().unwrap_or_default().into_iter().flatten() {
        if !interrupt::interrupted() {
            player.quit();
        }
    }
    written?;
    let Ledger {
        tally,
        decision,
        played,
        games,
        list,
    } = ledger;
    let finite = |x: f64| x.is_finite().then_some(x);
    let stats = match_stats(&Counts::Pairs(tally.pairs(0)), config.sprt.as_ref());
    let score = tally.score(0);
    Ok(Summary {
        stats,
        sprt: config.sprt.map(|_| sprt_verdict(decision)),
        unpaired_games: tally.unpaired(),
        score_fraction: score.fraction(),
        elo: finite(score.elo_difference()),
        elo_margin: finite(score.elo_margin()),
        interrupted: interrupt::interrupted(),
        standings: tally.standings(&names),
        pairs: tally.matchups(&names),
        engines: names,
        score,
        games: if list { games } else { Vec::new() },
        played,
        pgn: config.pgn.display().to_string(),
        wall_seconds: started.elapsed().as_secs_f64(),
        runner_cpu_seconds: process_seconds() - cpu_at_start,
    })
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
    /// completed, returns the pairs, the statistics and whether the SPRT decided just now.
    fn count(
        &mut self,
        config: &MatchConfig,
        game: Scheduled,
        white_outcome: Outcome,
        summary: GameSummary,
    ) -> Option<(u64, tally::stats::MatchStats, bool)> {
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
        Some((pairs.pairs(), stats, decided))
    }
}

/// A match to continue: where its games begin in the PGN, and those finished there.
struct Resumed {
    pgn_start: u64,
    games: Vec<config::resume::PgnGame>,
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

/// The SPRT's outcome in words (`--json`'s `sprt`).
fn sprt_verdict(decision: Option<SprtDecision>) -> String {
    tally::summary::verdict(decision.unwrap_or(SprtDecision::Continue)).to_owned()
}
