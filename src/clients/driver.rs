//! The one I/O driver of an engine conversation, for every role that drives engines (the
//! match runner's players and their first handshakes, `sp960 check`, the book generator,
//! the `--runner` hand-off's probe): the process ([`EngineProcess`]: lines in and out with
//! deadlines) and the sans-IO [`Client`] together, with the steps they all take: start the
//! program and send its `initstr=` lines, the handshake (protocol detection, the user's
//! options, the lines the handshake declared), a new game, a search, raw lines beside the
//! client (perft, `isready`, `searchmoves`), quit and restart.
//!
//! Every wait has a deadline the caller gives; what went wrong is a [`Failure`], which each
//! role words in its own error type (the runner's forfeits, the check's rows, the book's
//! hung engine).

use std::time::{Duration, Instant};

use shakmaty::Chess;

use crate::clients::client::Client;
use crate::clients::talk::{ClientEvent, GoRequest, Limits, Lines, NewGame};
use crate::launch::command::{EngineCommand, SpawnError};
use crate::launch::engine_start::EngineStart;
use crate::launch::log::GameLog;
use crate::launch::process::{EngineProcess, Received};
use crate::protocol::Protocol;
use crate::protocol::first_token;

/// Why the driver could not go on.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// The program could not be started.
    #[error(transparent)]
    Spawn(#[from] SpawnError),
    /// A write failed: the engine closed its input (how it ended).
    #[error("the engine {0}")]
    WriteFailed(String),
    /// The engine closed its output: it exited or crashed (how it ended).
    #[error("the engine {0}")]
    Closed(String),
    /// Nothing (or not the answer) before the deadline.
    #[error("no answer in time")]
    Timeout,
    /// Ctrl-C came while waiting.
    #[error("interrupted")]
    Interrupted,
    /// The client found the engine's answer wrong (a refused handshake, an illegal move).
    #[error("{0}")]
    Refused(String),
    /// The engine answered with an event that was not the one asked for.
    #[error("answered with {0:?}")]
    Unexpected(ClientEvent),
}

/// How long a handshake waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Waits {
    /// For a first answer that tells the protocol (and, with XBoard given, for the
    /// features).
    pub detect: Duration,
    /// After detection settled on XBoard: for its features, until the handshake is taken
    /// as over.
    pub features: Duration,
    /// The whole handshake.
    pub overall: Duration,
}

/// Everything needed to start an engine and complete its handshake (kept for a restart).
#[derive(Debug, Clone)]
pub struct Launch {
    /// The program.
    pub command: EngineCommand,
    /// `initstr=` lines, sent before the handshake.
    pub init_strings: Vec<String>,
    /// `proto=`, when given (else detected).
    pub protocol: Option<Protocol>,
    /// `option.NAME=VALUE`, in order.
    pub options: Vec<(String, String)>,
    /// The handshake's waits.
    pub waits: Waits,
}

impl Launch {
    /// `engine` started with `waits`: the one way a role's engine becomes the driver's
    /// launch (a role that knows the protocol by now sets `protocol` after).
    pub fn new(engine: &EngineStart, waits: Waits) -> Launch {
        let EngineStart {
            command,
            protocol,
            options,
            init_strings,
        } = engine.clone();
        Launch {
            command,
            init_strings,
            protocol,
            options,
            waits,
        }
    }
}

/// A started engine whose handshake has not run yet (the runner starts all engines on one
/// thread, then handshakes them at once on threads of their own).
pub struct Started {
    process: EngineProcess,
    launch: Launch,
}

impl Started {
    /// Runs the handshake.
    pub fn handshake(self) -> Result<EngineDriver, Failure> {
        let (client, first) = Client::start(self.launch.protocol, &self.launch.options);
        let mut driver = EngineDriver {
            link: EngineLink {
                process: self.process,
                launch: self.launch,
                declarations: Vec::new(),
            },
            client,
        };
        driver.send(&first)?;
        driver.until_ready()?;
        Ok(driver)
    }
}

/// One engine, running and handshaken: its process and the client speaking to it.
pub struct EngineDriver {
    link: EngineLink,
    client: Client,
}

/// The driver without its client, while a game holds the client ([`EngineDriver::into_parts`]):
/// the process, raw lines both ways.
pub struct EngineLink {
    process: EngineProcess,
    launch: Launch,
    /// Every `option` (UCI) or `feature` (XBoard) line of the handshake, as read.
    declarations: Vec<String>,
}

impl EngineLink {
    /// Writes `lines` raw (each with `\n`, one flush).
    pub fn send<L: AsRef<[u8]>>(&mut self, lines: &[L]) -> Result<(), Failure> {
        self.process
            .send(lines)
            .map_err(|_| Failure::WriteFailed(self.process.exit_description()))
    }

    /// The next raw line, waiting until `deadline` at most.
    pub fn receive(&mut self, deadline: Instant) -> Received<'_> {
        self.process.receive(deadline)
    }

    /// After [`Failure::Closed`] or [`Received::Closed`]: how the process ended.
    pub fn exit_description(&mut self) -> String {
        self.process.exit_description()
    }

    /// The driver again, with the client given back.
    pub fn attach(self, client: Client) -> EngineDriver {
        EngineDriver { link: self, client }
    }
}

impl EngineDriver {
    /// Starts the program of `launch` (its lines logged to `log` under a name, with
    /// `--log`) and sends its `initstr=` lines.
    pub fn spawn(launch: &Launch, log: Option<(GameLog, String)>) -> Result<Started, Failure> {
        let mut process = EngineProcess::spawn(&launch.command, log)?;
        if process.send(&launch.init_strings).is_err() {
            return Err(Failure::WriteFailed(process.exit_description()));
        }
        Ok(Started {
            process,
            launch: launch.clone(),
        })
    }

    /// Starts the engine and completes its handshake.
    pub fn start(launch: &Launch, log: Option<(GameLog, String)>) -> Result<EngineDriver, Failure> {
        EngineDriver::spawn(launch, log)?.handshake()
    }

    /// The same engine, started afresh (after a crash or a hang), without a log.
    pub fn restart(self) -> Result<EngineDriver, Failure> {
        let launch = self.link.launch.clone();
        drop(self);
        EngineDriver::start(&launch, None)
    }

    /// Tells the engine to quit, and kills it if it has not within `grace`.
    pub fn quit(self, grace: Duration) {
        let mut lines = Vec::new();
        self.client.quit(&mut lines);
        self.link.process.stop(&lines, grace);
    }

    /// The process and the client apart (a game holds the clients; its shell the
    /// links), until [`EngineLink::attach`].
    pub fn into_parts(self) -> (EngineLink, Client) {
        (self.link, self.client)
    }

    /// The client (protocol, name, what the handshake told it).
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The protocol spoken (known after the handshake).
    pub fn protocol(&self) -> Protocol {
        self.client.protocol().unwrap_or(Protocol::Uci)
    }

    /// Every `option` (UCI) or `feature` (XBoard) line of the handshake, as read.
    pub fn declarations(&self) -> &[String] {
        &self.link.declarations
    }

    /// Logs every line from now on to `log` as `name`'s; returns the log it had.
    pub fn set_log(&mut self, log: GameLog, name: String) -> Option<GameLog> {
        self.link.process.set_log(log, name)
    }

    /// Pins the engine, every thread it has and starts, to `cpu` (`match --affinity`).
    pub fn pin_to(&self, cpu: usize) -> std::io::Result<()> {
        self.link.process.pin_to(cpu)
    }

    /// Writes `lines` raw (each with `\n`, one flush).
    pub fn send<L: AsRef<[u8]>>(&mut self, lines: &[L]) -> Result<(), Failure> {
        self.link.send(lines)
    }

    /// Reads raw lines, beside the client, until `until` says the answer is complete.
    pub fn read_until<T>(
        &mut self,
        deadline: Instant,
        mut until: impl FnMut(&[u8]) -> Option<T>,
    ) -> Result<T, Failure> {
        let process = &mut self.link.process;
        loop {
            match process.receive(deadline) {
                Received::Line(line) => {
                    if let Some(answer) = until(line) {
                        return Ok(answer);
                    }
                }
                Received::Timeout => return Err(Failure::Timeout),
                Received::Interrupted => return Err(Failure::Interrupted),
                Received::Closed => return Err(Failure::Closed(process.exit_description())),
            }
        }
    }

    /// Feeds the engine's lines to the client until it has an event, showing each line to
    /// `see` first; the client's answers are sent as they come.
    pub fn until_event(
        &mut self,
        deadline: Instant,
        mut see: impl FnMut(&[u8]),
    ) -> Result<ClientEvent, Failure> {
        let mut out = Vec::new();
        loop {
            let event = match self.link.process.receive(deadline) {
                Received::Line(line) => {
                    see(line);
                    self.client.on_line(line, &mut out)
                }
                Received::Timeout => return Err(Failure::Timeout),
                Received::Interrupted => return Err(Failure::Interrupted),
                Received::Closed => {
                    return Err(Failure::Closed(self.link.process.exit_description()));
                }
            };
            if !out.is_empty() {
                self.send(&out)?;
                out.clear();
            }
            if let Some(event) = event {
                return Ok(event);
            }
        }
    }

    /// The handshake: lines to the client until it is ready, with detection and an
    /// XBoard handshake without `done=1` ended by silence ([`Waits`]).
    fn until_ready(&mut self) -> Result<(), Failure> {
        let waits = self.link.launch.waits;
        let overall = Instant::now() + waits.overall;
        let mut quiet = Some(Instant::now() + waits.detect);
        let mut out: Lines = Vec::new();
        loop {
            let wait = match self.client.protocol() {
                Some(Protocol::Uci) => overall,
                _ => quiet.map_or(overall, |quiet| quiet.min(overall)),
            };
            let event = match self.link.process.receive(wait) {
                Received::Line(line) => {
                    if matches!(first_token(line), b"option" | b"feature") {
                        self.link
                            .declarations
                            .push(String::from_utf8_lossy(line).into_owned());
                    }
                    self.client.on_line(line, &mut out)
                }
                Received::Closed => {
                    return Err(Failure::Closed(self.link.process.exit_description()));
                }
                Received::Interrupted => return Err(Failure::Interrupted),
                Received::Timeout if Instant::now() >= overall => return Err(Failure::Timeout),
                Received::Timeout => {
                    let detecting = self.client.protocol().is_none();
                    // Detection settled on XBoard: its handshake gets its own wait.
                    quiet = detecting.then(|| Instant::now() + waits.features);
                    self.client.on_timeout(&mut out)
                }
            };
            if !out.is_empty() {
                self.send(&out)?;
                out.clear();
            }
            match event {
                Some(ClientEvent::Ready) => return Ok(()),
                Some(ClientEvent::Failed(reason)) => return Err(Failure::Refused(reason)),
                _ => {}
            }
        }
    }

    /// Sets up a new game from `root` and waits until the engine is ready for it.
    pub fn new_game(
        &mut self,
        root: &Chess,
        limits: &Limits,
        deadline: Instant,
    ) -> Result<(), Failure> {
        let mut out = Vec::new();
        let ready = self.client.new_game(NewGame { root, limits }, &mut out);
        self.send(&out)?;
        match ready {
            Some(ClientEvent::Ready) => Ok(()),
            Some(ClientEvent::Failed(reason)) => Err(Failure::Refused(reason)),
            Some(other) => Err(Failure::Unexpected(other)),
            None => match self.until_event(deadline, |_| {})? {
                ClientEvent::Ready => Ok(()),
                ClientEvent::Failed(reason) => Err(Failure::Refused(reason)),
                other => Err(Failure::Unexpected(other)),
            },
        }
    }

    /// Asks for a move in `request.game.current` and waits for the engine's answer,
    /// showing each line to `see`: the move (checked legal by the client), a resignation;
    /// a failure is [`Failure::Refused`].
    pub fn search(
        &mut self,
        request: GoRequest<'_>,
        deadline: Instant,
        see: impl FnMut(&[u8]),
    ) -> Result<ClientEvent, Failure> {
        let mut out = Vec::new();
        self.client.go(request, &mut out);
        self.send(&out)?;
        match self.until_event(deadline, see)? {
            ClientEvent::Failed(reason) => Err(Failure::Refused(reason)),
            event => Ok(event),
        }
    }

    /// UCI: the next `go` renders its `position` line whole (for callers whose positions
    /// do not grow like a game's).
    pub fn forget_position(&mut self) {
        self.client.forget_position();
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;
    use crate::test_child;

    fn launch() -> Launch {
        Launch {
            command: EngineCommand {
                program: test_child::program().into(),
                args: test_child::args(module_path!(), "engine"),
                dir: None,
            },
            init_strings: Vec::new(),
            protocol: None,
            options: Vec::new(),
            waits: Waits {
                detect: Duration::from_secs(20),
                features: Duration::from_secs(2),
                overall: Duration::from_secs(30),
            },
        }
    }

    #[test]
    fn handshake_search_raw_lines_crash_and_restart() {
        let deadline = || Instant::now() + Duration::from_secs(30);
        let mut driver = EngineDriver::start(&launch(), None).unwrap();
        assert_eq!(driver.protocol(), Protocol::Uci);
        assert_eq!(driver.client().name(), Some("Scripted"));
        assert_eq!(driver.declarations().len(), 2);
        assert!(driver.declarations()[0].starts_with("option name MultiPV"));
        // A search: every line shown to the caller, the move checked by the client.
        let root = Chess::default();
        driver
            .new_game(&root, &Limits::default(), deadline())
            .unwrap();
        let game = crate::protocol::game::GameLine::new(root.clone());
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let mut seen = Vec::new();
        let request = GoRequest {
            game: &game,
            limits: &limits,
            clocks: None,
        };
        let event = driver
            .search(request, deadline(), |line| seen.push(line.to_vec()))
            .unwrap();
        assert!(matches!(event, ClientEvent::Move(m) if m.to_string().contains("e4")));
        assert_eq!(
            seen.first().map(Vec::as_slice),
            Some(&b"info depth 1 score cp 10 pv e2e4"[..])
        );
        // Raw lines beside the client.
        driver.send(&["perft 1"]).unwrap();
        let total = driver
            .read_until(deadline(), |line| {
                line.strip_prefix(b"Nodes searched: ").map(<[u8]>::to_vec)
            })
            .unwrap();
        assert_eq!(total, b"20");
        // Silence is a timeout, a crash is the engine's end, in words.
        let soon = Instant::now() + Duration::from_millis(100);
        assert!(matches!(
            driver.read_until(soon, |_| Some(())),
            Err(Failure::Timeout)
        ));
        driver.send(&["crash"]).unwrap();
        match driver.read_until(deadline(), |_| None::<()>) {
            Err(Failure::Closed(how)) => assert!(how.contains("status 3"), "{how}"),
            other => panic!("{other:?}"),
        }
        // Started afresh, handshake and all.
        let driver = driver.restart().unwrap();
        assert_eq!(driver.client().name(), Some("Scripted"));
        driver.quit(Duration::from_millis(500));
    }

    #[test]
    fn a_program_that_is_not_there_is_a_spawn_failure() {
        let mut launch = launch();
        launch.command.program = "/nonexistent/sp960-engine".into();
        assert!(matches!(
            EngineDriver::start(&launch, None),
            Err(Failure::Spawn(SpawnError::NotFound(_)))
        ));
    }

    /// A UCI engine in a few lines: its handshake declares two options, `go` answers
    /// `e2e4` after an `info` line, `perft` is answered raw, `crash` exits 3. Libtest's
    /// lines before its READY line are ones a client ignores.
    #[test]
    #[ignore = "the scripted child of the tests above: they run it"]
    fn scripted_child() {
        let Some(script) = test_child::script() else {
            return;
        };
        assert_eq!(script, "engine");
        let mut out = std::io::stdout().lock();
        for line in std::io::stdin().lines() {
            let line = line.unwrap();
            let answer: &[&str] = match line.split_whitespace().next() {
                Some("uci") => &[
                    "id name Scripted",
                    "option name MultiPV type spin default 1 min 1 max 5",
                    "option name UCI_Chess960 type check default false",
                    "uciok",
                ],
                Some("isready") => &["readyok"],
                Some("go") => &["info depth 1 score cp 10 pv e2e4", "bestmove e2e4"],
                Some("perft") => &["Nodes searched: 20"],
                Some("crash") => test_child::exit(3),
                Some("quit") => break,
                _ => &[],
            };
            for answer in answer {
                writeln!(out, "{answer}").unwrap();
            }
            out.flush().unwrap();
        }
        test_child::exit(0);
    }
}
