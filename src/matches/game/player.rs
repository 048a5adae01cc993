//! The I/O shell of a game: the two engines of a worker (`Seats`: taken from the first
//! handshake's pool, started, restarted after a breakdown, quit), each driven by the
//! shared engine driver ([`EngineDriver`]: process, handshake, deadlines), and [`play_game`], which runs the sans-IO [`Game`] between them: it carries
//! out the game's steps (lines to an engine, an engine to seat), reads the engine the game
//! waits for until its deadline, and tells the game what it read, when, and what went
//! wrong (an engine closed, Ctrl-C). A side that broke down is killed and started afresh
//! for its next game.

use std::thread;
use std::time::{Duration, Instant};

use shakmaty::{ByColor, Chess, Color};
use thiserror::Error;

use crate::clients::driver::{EngineDriver, EngineLink, Failure, Launch, Started, Waits};
use crate::clients::talk::{ClientEvent, Unsupported};
use crate::launch::command::SpawnError;
use crate::launch::log::GameLog;
use crate::launch::process::Received;
use crate::matches::config::request::{MatchConfig, MatchEngine};
use crate::matches::error::MatchError;
use crate::matches::game::referee::{Ending, Forfeit};
use crate::matches::game::state::{Game, GameSetup, GameStep, HANDSHAKE_TIMEOUT, Played};
use crate::protocol::Protocol;
use crate::protocol::game::shared_castling_files;

/// One game of the schedule.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scheduled {
    /// 1-based, in schedule order.
    pub number: usize,
    /// The opening: an index into the match's openings.
    pub opening: usize,
    /// Index of the engine that plays white.
    pub white: usize,
    /// Index of the engine that plays black.
    pub black: usize,
    /// The game pair (the same opening, colours swapped) it belongs to.
    pub pair: usize,
}

/// A player: an engine driven by the one engine driver ([`EngineDriver`]: its process and
/// the conversation with it).
pub(crate) struct Player(EngineDriver);

/// Why an engine could not be started or handshaken (the detail of a
/// [`Forfeit::Start`], or of [`MatchError::Engine`] before the match).
#[derive(Debug, Error)]
pub enum StartError {
    /// No such program.
    #[error("'{0}' not found")]
    NotFound(String),
    /// The program cannot be executed.
    #[error("'{0}' is not executable")]
    NotExecutable(String),
    /// Any other failure to start it.
    #[error(transparent)]
    Spawn(SpawnError),
    /// It closed its input (`how` it ended).
    #[error("the engine {0}")]
    Closed(String),
    /// It ended before the handshake was over.
    #[error("the engine {0} during the handshake")]
    ClosedInHandshake(String),
    /// Ctrl-C came during the handshake.
    #[error("interrupted")]
    Interrupted,
    /// It said nothing in time.
    #[error("no answer to the handshake in {} s", HANDSHAKE_TIMEOUT.as_secs())]
    Silent,
    /// It broke the protocol in the handshake.
    #[error("{0}")]
    Refused(String),
    /// It answered the handshake with an event that was not the one asked for.
    #[error("{0:?}")]
    Unexpected(ClientEvent),
    /// Its features rule out Chess960.
    #[error(transparent)]
    Unsupported(#[from] Unsupported),
}

impl From<SpawnError> for StartError {
    fn from(err: SpawnError) -> StartError {
        match err {
            SpawnError::NotFound(name) => StartError::NotFound(name),
            SpawnError::NotExecutable(name) => StartError::NotExecutable(name),
            other => StartError::Spawn(other),
        }
    }
}

/// The driver's failures in the start and the handshake, as the runner words them.
impl From<Failure> for StartError {
    fn from(failure: Failure) -> StartError {
        match failure {
            Failure::Spawn(err) => err.into(),
            Failure::WriteFailed(how) => StartError::Closed(how),
            Failure::Closed(how) => StartError::ClosedInHandshake(how),
            Failure::Timeout => StartError::Silent,
            Failure::Interrupted => StartError::Interrupted,
            Failure::Refused(reason) => StartError::Refused(reason),
            Failure::Unexpected(event) => StartError::Unexpected(event),
        }
    }
}

/// How long detection waits for a UCI answer, and an XBoard handshake for `done=1`.
const FEATURE_WAIT: Duration = Duration::from_secs(2);

/// How `engine` is started, speaking `protocol` (given, or learned in its first
/// handshake).
fn launch_of(engine: &MatchEngine, protocol: Option<Protocol>) -> Launch {
    let waits = Waits {
        detect: FEATURE_WAIT,
        features: FEATURE_WAIT,
        overall: HANDSHAKE_TIMEOUT,
    };
    Launch {
        protocol,
        ..Launch::new(&engine.start, waits)
    }
}

impl Player {
    /// Starts `engine` (logging to `log` under a name, with `--log`) and completes the
    /// handshake.
    fn launch(
        engine: &MatchEngine,
        protocol: Option<Protocol>,
        log: Option<(GameLog, String)>,
    ) -> Result<Player, StartError> {
        Ok(Player(EngineDriver::start(
            &launch_of(engine, protocol),
            log,
        )?))
    }

    /// What the runner gives this engine because the quirks table knows it by its name
    /// ([`crate::protocol::quirks`]), as notes for stderr: a `Threads` value the user did
    /// not set, and the proxy's castling-file shield when an opening needs it.
    pub(crate) fn quirk_notes(&self, openings: &[crate::books::openings::Opening]) -> Vec<String> {
        let Some(client) = self.0.client().uci() else {
            return Vec::new();
        };
        let mut notes = Vec::new();
        if let Some(threads) = client.threads_added() {
            notes.push(format!(
                "given option Threads={threads}, because with more threads (its default is \
                 2) it crashes in Chess960 positions (set option.Threads=N to choose)"
            ));
        }
        if client.shares_castling_files()
            && client.has_chess960()
            && let Some(opening) = openings
                .iter()
                .find(|opening| !shared_castling_files(&opening.root))
        {
            notes.push(format!(
                "it keeps one king file and one rook file per wing for both colours, and in \
                 opening {} the colours' castling files differ: it is given only the castling rights \
                 it can hold, as the proxy gives them (the game is unchanged)",
                opening.label
            ));
        }
        notes
    }

    pub(crate) fn quit(self) {
        self.0.quit(Duration::from_millis(500));
    }
}

/// A finished game, from a worker to the writer.
pub(crate) struct Finished {
    /// Which game.
    pub game: Scheduled,
    /// Its start position.
    pub root: Chess,
    /// The moves played.
    pub moves: Vec<shakmaty::Move>,
    /// Each move's PGN comment (`+0.35/12 0.105s`), one per move.
    pub move_comments: Vec<String>,
    /// How it ended.
    pub ending: Ending,
    /// The side to move at the end.
    pub turn: Color,
}

/// Engines started and handshaken, waiting for a worker to take them into its seats.
pub(crate) type Pool = std::sync::Mutex<Vec<Option<Player>>>;

/// The per-worker engines, by engine index. Only the two engines of the current game stay
/// seated: a worker closes the others before a game, so a match keeps at most two engine
/// processes per worker alive (plus the first handshake's, until a worker takes them).
pub(crate) struct Seats<'a> {
    engines: &'a [MatchEngine],
    protocols: &'a [Protocol],
    names: &'a [String],
    players: Vec<Option<Player>>,
    pool: &'a Pool,
    /// With `--log`: the worker's log, which its players write to.
    log: Option<GameLog>,
    /// With `--affinity`: the worker's CPU, which its players are pinned to.
    cpu: Option<usize>,
}

impl Seats<'_> {
    /// No engine seated yet: each comes from `pool` or starts at its first game.
    pub(crate) fn new<'a>(
        engines: &'a [MatchEngine],
        protocols: &'a [Protocol],
        names: &'a [String],
        pool: &'a Pool,
        log: Option<GameLog>,
        cpu: Option<usize>,
    ) -> Seats<'a> {
        Seats {
            engines,
            protocols,
            names,
            players: engines.iter().map(|_| None).collect(),
            pool,
            log,
            cpu,
        }
    }

    /// Tells the engines to quit (they are killed if they do not).
    pub(crate) fn close(self) {
        for player in self.players.into_iter().flatten() {
            player.quit();
        }
    }

    /// Before a game between `white` and `black`: every other engine quits, and so do the
    /// engines asked to restart every game (`restart=on`).
    fn prepare(&mut self, white: usize, black: usize) {
        for (index, (engine, seat)) in self.engines.iter().zip(&mut self.players).enumerate() {
            let playing = index == white || index == black;
            if (!playing || engine.restart_every_game)
                && let Some(player) = seat.take()
            {
                player.quit();
            }
        }
    }

    /// Engine `index` for a game: seated, from the pool, or started now (and pinned to the
    /// worker's CPU, with `--affinity`). It is given back with [`Seats::put`] unless it
    /// broke down.
    fn take(&mut self, index: usize) -> Result<Player, StartError> {
        if let Some(player) = self.players[index].take() {
            return Ok(player);
        }
        let player = self.take_unseated(index)?;
        if let Some(cpu) = self.cpu
            && let Err(err) = player.0.pin_to(cpu)
        {
            eprintln!(
                "sp960: match: engine '{}': not pinned to CPU {cpu}: {err}",
                self.names[index]
            );
        }
        Ok(player)
    }

    /// Engine `index` from the pool, or started now.
    fn take_unseated(&mut self, index: usize) -> Result<Player, StartError> {
        let pooled = self
            .pool
            .lock()
            .ok()
            .and_then(|mut pool| pool.get_mut(index).and_then(Option::take));
        let log = self
            .log
            .as_ref()
            .map(|log| (log.clone(), self.names[index].clone()));
        match pooled {
            Some(mut player) => {
                if let Some((log, name)) = log {
                    // The first handshake's lines go to this worker's log.
                    if let Some(first) = player.0.set_log(log.clone(), name) {
                        log.adopt(&first);
                    }
                }
                Ok(player)
            }
            None => Player::launch(&self.engines[index], Some(self.protocols[index]), log),
        }
    }

    fn put(&mut self, index: usize, player: Player) {
        self.players[index] = Some(player);
    }
}

/// The game's settings from the match's, for the game `game`.
fn setup(config: &MatchConfig, game: Scheduled) -> GameSetup {
    let opening = &config.openings[game.opening];
    GameSetup {
        root: opening.root.clone(),
        opening: opening.moves.clone(),
        max_plies: config.max_plies,
        resign: config.resign,
        draw: config.draw,
        clock: config.limits.clock.clone(),
        limits: ByColor {
            white: game.white,
            black: game.black,
        }
        .map(|index| config.engine_limits[index].clone()),
        move_timeout: config.move_timeout,
    }
}

/// Plays one game; the engines of a side that misbehaved are dropped (killed) so the
/// next game starts them afresh.
/// `None` when the match was interrupted (Ctrl-C) and the game abandoned.
pub(crate) fn play_game(
    seats: &mut Seats<'_>,
    game: Scheduled,
    config: &MatchConfig,
) -> Option<Finished> {
    if let (Some(log), Some(dir)) = (&seats.log, &config.log_dir)
        && let Err(err) = log.start(dir, game.number)
    {
        eprintln!(
            "sp960: match: --log: cannot write {}: {err}",
            crate::launch::log::game_file(dir, game.number).display()
        );
    }
    seats.prepare(game.white, game.black);
    let indices = ByColor {
        white: game.white,
        black: game.black,
    };
    let mut play = Game::new(setup(config, game), Instant::now());
    // The engines' links (the driver without its client: the game holds the clients).
    let mut links: ByColor<Option<EngineLink>> = ByColor::default();
    loop {
        while let Some(step) = play.poll() {
            carry_out(step, &mut play, seats, indices, &mut links);
        }
        let Some(side) = play.awaiting() else { break };
        let (Some(link), Some(deadline)) = (&mut links[side], play.poll_timeout()) else {
            unreachable!("the engine awaited is seated, with a deadline")
        };
        match link.receive(deadline) {
            Received::Line(line) => {
                play.set_now(Instant::now());
                play.handle_line(side, line);
            }
            Received::Closed => play.handle_closed(side, &link.exit_description()),
            Received::Timeout => play.handle_timeout(Instant::now()),
            Received::Interrupted => play.handle_interrupt(),
        }
    }
    let (played, clients) = play.finish();
    let played = played.expect("a game no engine is awaited in is over");
    let crashed = matches!(
        &played.ending,
        Ending::Forfeit {
            kind: Forfeit::Crash,
            ..
        }
    );
    if crashed && !crate::os::interrupt::interrupted() {
        // A terminal's Ctrl-C reaches the engines too: their death may be seen a moment
        // before our own SIGINT handler has run.
        thread::sleep(Duration::from_millis(20));
    }
    // A side that broke down is restarted for its next game.
    let culprit = played.ending.culprit();
    if culprit.is_some() && crate::os::interrupt::interrupted() {
        // Ctrl-C (which a terminal also sends the engines): the game is abandoned, not
        // lost, and its engines are killed (dropped here).
        return None;
    }
    for (side, (link, client)) in links.zip(clients).zip_color() {
        if let (Some(link), Some(client)) = (link, client)
            && culprit != Some(side)
        {
            seats.put(indices[side], Player(link.attach(client)));
        }
    }
    if let Some(log) = &seats.log
        && let Err(err) = log.finish()
    {
        eprintln!("sp960: match: --log: game {}: {err}", game.number);
    }
    Some(finished(game, played))
}

/// One step of the game: lines sent (a failed write is the engine's end), or an engine
/// seated.
fn carry_out(
    step: GameStep,
    play: &mut Game,
    seats: &mut Seats<'_>,
    indices: ByColor<usize>,
    links: &mut ByColor<Option<EngineLink>>,
) {
    match step {
        GameStep::Send { to, lines } => {
            if let Some(link) = &mut links[to]
                && let Err(Failure::WriteFailed(how)) = link.send(&lines)
            {
                play.handle_closed(to, &how);
            }
        }
        GameStep::Seat(side) => match seats.take(indices[side]) {
            Ok(Player(driver)) => {
                let (link, client) = driver.into_parts();
                links[side] = Some(link);
                play.set_now(Instant::now());
                play.seat(side, client);
            }
            Err(err) => play.seat_failed(side, err.to_string()),
        },
    }
}

fn finished(game: Scheduled, played: Played) -> Finished {
    Finished {
        game,
        root: played.root,
        moves: played.moves,
        move_comments: played.comments,
        ending: played.ending,
        turn: played.turn,
    }
}

/// Starts every engine (at once, a thread each) and completes its handshake: the protocol
/// and name are learned there, and the players go to the workers for their first games
/// (no engine is started twice). Names that repeat get ` (2)`, ` (3)`...
pub(crate) fn launch_all(
    engines: &[MatchEngine],
    logging: bool,
) -> Result<Vec<(Player, Protocol, String)>, MatchError> {
    // Started on this thread, which outlives the match: the proxy's spawn ties an engine
    // to the life of the thread that starts it (PR_SET_PDEATHSIG). Handshaken a batch at a
    // time, one engine per core, so many engines' start-up (Stockfish loads its network)
    // does not run into each other's handshake time-out.
    let batch = thread::available_parallelism().map_or(2, |n| n.get().max(2));
    let mut launched = Vec::with_capacity(engines.len());
    for first in (0..engines.len()).step_by(batch) {
        let chunk = first..engines.len().min(first + batch);
        launched.extend(launch_batch(engines, chunk, logging)?);
    }
    for index in 1..launched.len() {
        let base = launched[index].2.clone();
        let mut copy = 1;
        while launched[..index]
            .iter()
            .any(|(_, _, name)| *name == launched[index].2)
        {
            copy += 1;
            launched[index].2 = format!("{base} ({copy})");
        }
    }
    Ok(launched)
}

/// Starts the engines `indices` on this thread and handshakes them at once.
fn launch_batch(
    engines: &[MatchEngine],
    indices: std::ops::Range<usize>,
    logging: bool,
) -> Result<Vec<(Player, Protocol, String)>, MatchError> {
    let fail = |index: usize, reason| MatchError::Engine {
        engine: index + 1,
        reason,
    };
    let mut started = Vec::with_capacity(indices.len());
    for index in indices {
        let engine = &engines[index];
        // Until a worker takes it: under its name= or program name (its own name comes
        // with the handshake).
        let log = logging.then(|| {
            let name = engine.name.clone().unwrap_or_else(|| engine.program_name());
            (GameLog::default(), name)
        });
        let launch = launch_of(engine, engine.start.protocol);
        let spawned = EngineDriver::spawn(&launch, log).map_err(|err| match err {
            Failure::Spawn(SpawnError::NotFound(program)) => MatchError::EngineNotFound {
                engine: index + 1,
                program,
            },
            other => fail(index, StartError::from(other)),
        })?;
        started.push((index, spawned));
    }
    let handshake =
        |index: usize, spawned: Started| -> Result<(Player, Protocol, String), MatchError> {
            let engine = &engines[index];
            let fail = |reason: StartError| fail(index, reason);
            let driver = spawned.handshake().map_err(|err| fail(err.into()))?;
            let client = driver.client();
            client.chess960_support().map_err(|err| fail(err.into()))?;
            let protocol = client.protocol().expect("known after the handshake");
            let name = engine
                .name
                .clone()
                .or_else(|| client.name().map(str::to_owned))
                .unwrap_or_else(|| engine.program_name());
            Ok((Player(driver), protocol, name))
        };
    let results: Vec<_> = thread::scope(|scope| {
        let handles: Vec<_> = started
            .into_iter()
            .map(|(index, spawned)| scope.spawn(move || handshake(index, spawned)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("handshake thread"))
            .collect()
    });
    // On the first failure the others are dropped, and so killed.
    results.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_handshake_is_worded_as_the_driver_met_it() {
        let worded = |failure| StartError::from(failure).to_string();
        assert_eq!(worded(Failure::Unexpected(ClientEvent::Resign)), "Resign");
        assert_eq!(worded(Failure::Refused("no uciok".to_owned())), "no uciok");
        assert_eq!(
            worded(Failure::Closed("exited with code 1".to_owned())),
            "the engine exited with code 1 during the handshake"
        );
    }
}
