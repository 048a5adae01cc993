//! Playing one game: the two engine processes of a worker (`Seats`), their handshakes
//! and new-game setup, the move loop with clocks and time-outs, and the verdict
//! ([`Ending`]). A side that broke down is killed and started afresh for its next game.

use std::thread;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Color, Position};

use crate::launch::command::SpawnError;
use crate::launch::log::GameLog;
use crate::launch::process::{EngineProcess, Received};
use crate::matches::MatchError;
use crate::matches::config::request::{MatchConfig, MatchEngine};
use crate::matches::engines::client::{Client, ClientEvent, GoRequest};
use crate::matches::game::pgn;
use crate::matches::game::referee::{Adjudicator, Ending, Forfeit, GameClock, Referee};
use crate::protocol::Protocol;
use crate::protocol::game::shared_castling_files;
use crate::protocol::session::{Peer, Session, Step};
use crate::protocol::uci::EngineScore;

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

/// A player: an engine process and the conversation with it.
pub(crate) struct Player {
    process: EngineProcess,
    client: Client,
}

fn spawn_failure(err: &SpawnError) -> String {
    match err {
        SpawnError::NotFound(name) => format!("'{name}' not found"),
        SpawnError::NotExecutable(name) => format!("'{name}' is not executable"),
        other => other.to_string(),
    }
}

/// How an exchange with an engine went wrong.
enum Trouble {
    Closed(String),
    Timeout,
    /// Ctrl-C: the game is abandoned.
    Interrupted,
}

const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(15);
/// How long detection waits for a UCI answer, and an XBoard handshake for `done=1`.
const FEATURE_WAIT: Duration = Duration::from_secs(2);
/// Past a clock's last millisecond: the flag has surely fallen.
const FLAG_GRACE: Duration = Duration::from_millis(100);

impl Player {
    /// Starts `engine` (logging to `log` under a name, with `--log`) and completes the
    /// handshake.
    fn launch(
        engine: &MatchEngine,
        protocol: Option<Protocol>,
        log: Option<(GameLog, String)>,
    ) -> Result<Player, String> {
        let mut process =
            EngineProcess::spawn(&engine.command, log).map_err(|err| spawn_failure(&err))?;
        if !engine.init_strings.is_empty() {
            process
                .send(&engine.init_strings)
                .map_err(|_| format!("the engine {}", process.exit_description()))?;
        }
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
                Received::Line(line) => read(&mut player.client, line, &mut out),
                Received::Closed => {
                    return Err(format!(
                        "the engine {} during the handshake",
                        player.process.exit_description()
                    ));
                }
                Received::Interrupted => return Err("interrupted".to_owned()),
                Received::Timeout if Instant::now() >= overall => {
                    return Err(format!(
                        "no answer to the handshake in {} s",
                        HANDSHAKE_TIMEOUT.as_secs()
                    ));
                }
                Received::Timeout => {
                    let detecting = player.client.protocol().is_none();
                    let event = player.client.on_timeout(&mut out);
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
                    let event = read(&mut self.client, line, &mut out);
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
                Received::Interrupted => return Err(Trouble::Interrupted),
            }
        }
    }

    /// What the runner gives this engine because the quirks table knows it by its name
    /// ([`crate::protocol::quirks`]), as notes for stderr: a `Threads` value the user did
    /// not set, and the proxy's castling-file shield when an opening needs it.
    pub(crate) fn quirk_notes(
        &self,
        openings: &[crate::matches::config::openings::Opening],
    ) -> Vec<String> {
        let Some(client) = self.client.uci() else {
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
        let mut out = Vec::new();
        self.client.quit(&mut out);
        self.process.stop(&out, Duration::from_millis(500));
    }
}

/// One line from the engine through the client's [`Session`]: the lines to send go to
/// `out`, the event (if any) is returned.
fn read(client: &mut Client, line: &[u8], out: &mut Vec<String>) -> Option<ClientEvent> {
    let mut steps = Vec::new();
    Session::on_line(client, Peer::Engine, line, &mut steps);
    let mut event = None;
    for step in steps {
        match step {
            Step::Send { line, .. } => out.push(String::from_utf8_lossy(&line).into_owned()),
            Step::Event(e) => event = Some(e),
            Step::Forward => {}
        }
    }
    event
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
}

impl Seats<'_> {
    /// No engine seated yet: each comes from `pool` or starts at its first game.
    pub(crate) fn new<'a>(
        engines: &'a [MatchEngine],
        protocols: &'a [Protocol],
        names: &'a [String],
        pool: &'a Pool,
        log: Option<GameLog>,
    ) -> Seats<'a> {
        Seats {
            engines,
            protocols,
            names,
            players: engines.iter().map(|_| None).collect(),
            pool,
            log,
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

    fn player(&mut self, index: usize) -> Result<&mut Player, String> {
        if self.players[index].is_none() {
            let pooled = self
                .pool
                .lock()
                .ok()
                .and_then(|mut pool| pool.get_mut(index).and_then(Option::take));
            let log = self
                .log
                .as_ref()
                .map(|log| (log.clone(), self.names[index].clone()));
            let player = match pooled {
                Some(mut player) => {
                    if let Some((log, name)) = log {
                        // The first handshake's lines go to this worker's log.
                        if let Some(first) = player.process.set_log(log.clone(), name) {
                            log.adopt(&first);
                        }
                    }
                    player
                }
                None => Player::launch(&self.engines[index], Some(self.protocols[index]), log)?,
            };
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
/// `None` when the match was interrupted (Ctrl-C) and the game abandoned.
pub(crate) fn play_game(
    seats: &mut Seats<'_>,
    game: Scheduled,
    config: &MatchConfig,
) -> Option<Finished> {
    let opening = &config.openings[game.opening];
    let root = opening.root.clone();
    let mut referee = Referee::new(root.clone(), config.max_plies);
    // The opening's moves are played for the engines (checked when the file was read).
    let mut move_comments = Vec::with_capacity(opening.moves.len() + 80);
    for m in &opening.moves {
        referee.play(*m);
        move_comments.push("book".to_owned());
    }
    let mut adjudicator = Adjudicator::new(config.resign, config.draw);
    if let (Some(log), Some(dir)) = (&seats.log, &config.log_dir)
        && let Err(err) = log.start(dir, game.number)
    {
        eprintln!(
            "sp960: match: --log: cannot write {}: {err}",
            crate::launch::log::game_file(dir, game.number).display()
        );
    }
    seats.prepare(game.white, game.black);
    let index = |color: Color| {
        if color.is_white() {
            game.white
        } else {
            game.black
        }
    };
    let ending = 'game: {
        for color in Color::ALL {
            let player = match seats.player(index(color)) {
                Ok(player) => player,
                Err(reason) => break 'game forfeit(color, Forfeit::Start, reason),
            };
            let mut out = Vec::new();
            let limits = &config.engine_limits[index(color)];
            let event = player.client.new_game(&root, limits, &mut out);
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
                Err(Trouble::Interrupted) => {
                    break 'game forfeit(color, Forfeit::Crash, "interrupted".into());
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
            let limits = &config.engine_limits[index(turn)];
            let request = GoRequest {
                game: referee.line(),
                limits,
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
                None => limits.movetime.unwrap_or_default() + config.move_timeout,
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
                    let search = player.client.last_search();
                    move_comments.push(pgn::move_comment(search.score, search.depth, used));
                    let eval = player.client.latest_eval();
                    if referee.ending().is_none()
                        && let Some(ending) = adjudicator.add_eval(
                            &referee.line().current,
                            referee.line().moves.len(),
                            turn,
                            eval.depth,
                            eval.score.map(EngineScore::cutechess_value),
                        )
                    {
                        break 'game ending;
                    }
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
                Err(Trouble::Interrupted) => {
                    break 'game forfeit(turn, Forfeit::Crash, "interrupted".into());
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
    if matches!(
        &ending,
        Ending::Forfeit {
            kind: Forfeit::Crash,
            ..
        }
    ) && !crate::os::interrupt::interrupted()
    {
        // A terminal's Ctrl-C reaches the engines too: their death may be seen a moment
        // before our own SIGINT handler has run.
        thread::sleep(Duration::from_millis(20));
    }
    if culprit.is_some() && crate::os::interrupt::interrupted() {
        // Ctrl-C (which a terminal also sends the engines): the game is abandoned, not
        // lost, and its engines are killed.
        seats.players[game.white] = None;
        seats.players[game.black] = None;
        return None;
    }
    if let Some(color) = culprit {
        seats.players[index(color)] = None;
    }
    if let Some(log) = &seats.log
        && let Err(err) = log.finish()
    {
        eprintln!("sp960: match: --log: game {}: {err}", game.number);
    }
    Some(Finished {
        game,
        turn: referee.line().current.turn(),
        root,
        moves: referee.line().moves.clone(),
        move_comments,
        ending,
    })
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
    let mut processes = Vec::with_capacity(indices.len());
    for index in indices {
        let engine = &engines[index];
        // Until a worker takes it: under its name= or program name (its own name comes
        // with the handshake).
        let log = logging.then(|| {
            let name = engine.name.clone().unwrap_or_else(|| engine.program_name());
            (GameLog::default(), name)
        });
        let mut process = EngineProcess::spawn(&engine.command, log).map_err(|err| match err {
            SpawnError::NotFound(program) => MatchError::EngineNotFound {
                engine: index + 1,
                program,
            },
            other => fail(index, spawn_failure(&other)),
        })?;
        if !engine.init_strings.is_empty() && process.send(&engine.init_strings).is_err() {
            return Err(fail(
                index,
                format!("the engine {}", process.exit_description()),
            ));
        }
        processes.push((index, process));
    }
    let handshake =
        |index: usize, process: EngineProcess| -> Result<(Player, Protocol, String), MatchError> {
            let engine = &engines[index];
            let fail = |reason| fail(index, reason);
            let player = Player::handshake(process, engine, engine.protocol).map_err(fail)?;
            player.client.chess960_support().map_err(fail)?;
            let protocol = player.client.protocol().expect("known after the handshake");
            let name = engine
                .name
                .clone()
                .or_else(|| player.client.name().map(str::to_owned))
                .unwrap_or_else(|| engine.program_name());
            Ok((player, protocol, name))
        };
    let results: Vec<_> = thread::scope(|scope| {
        let handles: Vec<_> = processes
            .into_iter()
            .map(|(index, process)| scope.spawn(move || handshake(index, process)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("handshake thread"))
            .collect()
    });
    // On the first failure the others are dropped, and so killed.
    results.into_iter().collect()
}
