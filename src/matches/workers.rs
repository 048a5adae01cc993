//! The engines of a match and the workers that play its games: the first handshake of every
//! engine (`Engines`), the schedule (per round, per matchup, each start twice), and the
//! worker threads, each with its own seats, handing every finished game to the committing
//! thread.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

use crate::launch::log::GameLog;
use crate::launch::spec::{NodeLimitError, check_node_limit};
use crate::matches::config::request::MatchConfig;
use crate::matches::error::MatchError;
use crate::matches::game::player::{Finished, Pool, Scheduled, Seats, launch_all, play_game};
use crate::os::{affinity, interrupt};
use crate::protocol::Protocol;

/// The engines after their first handshake, which tells each one's protocol and name; its
/// process waits in the pool and plays the first game it is needed in.
pub(crate) struct Engines {
    pub(crate) names: Vec<String>,
    pub(crate) protocols: Vec<Protocol>,
    pub(crate) pool: Pool,
}

impl Engines {
    /// Starts every engine and completes its handshake; prints what the quirks table gives
    /// an engine; refuses a node limit for an engine that turned out to speak XBoard.
    pub(crate) fn launch(config: &MatchConfig) -> Result<Engines, MatchError> {
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
    pub(crate) fn quit_unused(&self) {
        let pooled = self.pool.lock().map(|mut pool| std::mem::take(&mut *pool));
        for player in pooled.unwrap_or_default().into_iter().flatten() {
            if !interrupt::interrupted() {
                player.quit();
            }
        }
    }
}

/// A finished game and its worker's acknowledgement channel: the worker takes its next
/// game only once this one is committed, so an SPRT decision starts no new game.
pub(crate) type FinishedGame = (Finished, mpsc::Sender<()>);

/// Plays `schedule` on `config.concurrency` worker threads, each with its own seats for
/// the engines; every finished game is handed to `commit` on this thread, which answers
/// whether to stop handing out games (the ones being played finish and are committed).
pub(crate) fn play_schedule(
    config: &MatchConfig,
    schedule: &[Scheduled],
    engines: &Engines,
    mut commit: impl FnMut(Finished) -> bool,
) -> Result<(), MatchError> {
    let next = AtomicUsize::new(0);
    let workers = config.concurrency.clamp(1, schedule.len().max(1));
    thread::scope(|scope| {
        let (sender, finished) = mpsc::channel::<FinishedGame>();
        for worker in 0..workers {
            let (sender, next) = (sender.clone(), &next);
            thread::Builder::new()
                .name(format!("match-worker-{worker}"))
                .spawn_scoped(scope, move || {
                    work(config, worker, schedule, engines, next, &sender)
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

/// Worker number `worker`: takes the next game of `schedule` until none is left, Ctrl-C or
/// the committing thread is gone; with `--affinity`, it and its engines on its CPU.
pub(crate) fn work(
    config: &MatchConfig,
    worker: usize,
    schedule: &[Scheduled],
    engines: &Engines,
    next: &AtomicUsize,
    sender: &mpsc::Sender<FinishedGame>,
) {
    let log = config.log_dir.as_ref().map(|_| GameLog::default());
    let cpu = config
        .affinity
        .as_ref()
        .and_then(|cpus| cpus.get(worker).copied());
    if let Some(cpu) = cpu
        && let Err(err) = affinity::pin_this_thread(cpu).and_then(|()| affinity::yield_on_wakeup())
    {
        eprintln!(
            "sp960: match: game worker {}: not pinned to CPU {cpu}: {err}",
            worker + 1
        );
    }
    let mut seats = Seats::new(
        &config.engines,
        &engines.protocols,
        &engines.names,
        &engines.pool,
        log,
        cpu,
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
