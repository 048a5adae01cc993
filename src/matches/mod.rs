//! `sp960 match`: games between two engines (or more: round-robin or gauntlet) from
//! numbered Chess960 starts, each start played twice with colours swapped, saved as PGN
//! one finished game at a time.
//!
//! Wings, one folder each (its `mod.rs` says what it owns):
//! - [`game`]: one game: the rules and clocks ([`game::referee`]), the PGN entry
//!   ([`game::pgn`]) and the two engines playing it ([`game::player`]), each driven by
//!   the engine driver of [`crate::clients`] (the GUI side of each protocol as a sans-IO
//!   client, shared with `sp960 check` and the book generator);
//! - [`tally`]: finished games into scores, statistics, SPRT and the summary (built there,
//!   for this runner and for `--runner` alike);
//! - [`config`]: the request, `--openings` and `--resume`;
//! - this module: [`run`], in named steps (the checks before anything starts, the engines'
//!   first handshakes, the schedule, the worker pool, the commit of each finished game on
//!   one thread), and how the summary is reported ([`match_command`]); its files:
//!   `workers.rs` (the engines' first handshakes, the schedule, the worker threads),
//!   `record.rs` (the PGN file and the state file beside it, `--resume`'s starting point),
//!   `ledger.rs` (each finished game committed: PGN entry, state, tally, progress, SPRT)
//!   and `error.rs` ([`MatchError`]). None of them imports this file.
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
mod error;
pub mod game;
mod ledger;
mod lock;
mod record;
pub mod tally;
mod workers;

pub use config::request::{MatchConfig, MatchRequest};
pub use error::MatchError;
pub use tally::summary::Summary;

use std::collections::HashSet;
use std::io::Write;

use crate::launch::spec::{NodeLimitError, check_node_limit};
use crate::matches::game::player::Scheduled;
use crate::matches::ledger::{Commit, Ledger};
use crate::matches::record::{PgnWriter, Resumed, resume_point};
use crate::matches::tally::summary::Progress;
use crate::matches::tally::summary::Stopwatch;
use crate::matches::workers::{Engines, play_schedule, schedule};
use crate::os::interrupt;

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
    // Before anything is read or written: a second match on this PGN stops here.
    let lock = lock::PgnLock::take(&config.pgn)?;
    if let Some(pid) = lock.left_by {
        eprintln!(
            "sp960: match: note: taking over the lock of {} left by process {pid}, which ended without releasing it",
            config.pgn.display()
        );
    }
    let _lock = lock.lock;
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
        if let Some(protocol) = engine.start.protocol {
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

#[cfg(test)]
mod tests;
