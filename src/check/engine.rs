//! The I/O shell's engine: one engine driven by the shared engine driver
//! ([`EngineDriver`], `clients/`: the process, protocol detection, handshake, options,
//! positions and searches, with deadlines). What the check adds is asked in raw lines
//! beside the client: perft ([`crate::protocol::perft`]), the mode switch and
//! `searchmoves`. Every wait has a deadline and says which case it was for; a closed
//! engine is reported with its exit and started again by [`CheckEngine::restart`].

use std::time::{Duration, Instant};

use shakmaty::{Chess, Move};

use crate::check::cases::EngineMode;
use crate::clients::driver::{EngineDriver, Failure, Launch, Waits};
use crate::clients::talk::{ClientEvent, GoRequest, Limits, Unsupported};
use crate::launch::command::SpawnError;
use crate::launch::engine_start::EngineStart;
use crate::protocol::Protocol;
use crate::protocol::first_token;
use crate::protocol::game::GameLine;
use crate::protocol::perft::{
    PerftDialect, PerftProbe, PerftReader, PerftReply, ProbeCommand, ProbeOutcome,
};
use crate::protocol::uci::{BestMove, setoption_line};
use crate::starts::castling::parse_move;
use crate::starts::notation::{CastlingNotation, position_fen};

/// How the engine is started and set up: its start (as every role's), and how long any
/// one answer may take.
#[derive(Debug, Clone)]
pub struct EngineSetup {
    /// The program, `proto=`, `option.NAME=VALUE` and `initstr=`.
    pub start: EngineStart,
    /// How long any one answer may take.
    pub timeout: Duration,
}

/// Why a question got no answer.
#[derive(Debug, thiserror::Error)]
pub enum EngineFailure {
    /// Nothing (or not the answer) before the deadline.
    #[error("no answer within {0} s")]
    Timeout(u64),
    /// The engine closed its output: it exited or crashed.
    #[error("the engine {0}")]
    Closed(String),
    /// It could not be started.
    #[error(transparent)]
    Spawn(#[from] SpawnError),
    /// Its answer was no answer to the question.
    #[error("{0}")]
    Answer(String),
    /// A perft reply line that does not read.
    #[error("{0}")]
    Perft(String),
}

/// What the handshake showed, raw, for the protocol checks.
#[derive(Debug, Clone, Default)]
pub struct Handshake {
    /// `id name` or `myname`.
    pub name: Option<String>,
    /// Every `option` line (UCI) or `feature` line (XBoard), as read.
    pub declarations: Vec<String>,
}

/// The driver's failures, as the check words them: a hang and Ctrl-C are both a wait
/// without an answer (`timeout` seconds).
fn failure(failure: Failure, timeout: Duration) -> EngineFailure {
    match failure {
        Failure::Spawn(err) => EngineFailure::Spawn(err),
        Failure::WriteFailed(how) | Failure::Closed(how) => EngineFailure::Closed(how),
        Failure::Timeout | Failure::Interrupted => EngineFailure::Timeout(timeout.as_secs()),
        Failure::Refused(reason) => EngineFailure::Answer(reason),
        Failure::Unexpected(event) => EngineFailure::Answer(format!("{event:?}")),
    }
}

/// How long a perft probe waits for an answer (or for the `isready` sent after it).
const PROBE_WAIT: Duration = Duration::from_secs(5);

/// How long a perft probe waits after the engine answered `isready` or `ping` with
/// nothing perft-like.
const PROBE_GRACE: Duration = Duration::from_secs(1);

/// One running engine.
pub struct CheckEngine {
    setup: EngineSetup,
    driver: EngineDriver,
    /// What the handshake showed.
    pub handshake: Handshake,
    /// The mode the engine is in (UCI: `UCI_Chess960` as last set).
    mode: EngineMode,
}

impl CheckEngine {
    /// Starts the engine and runs its handshake.
    pub fn start(setup: &EngineSetup) -> Result<CheckEngine, EngineFailure> {
        // Protocol detection and an XBoard handshake without `done=1` end on silence:
        // 5 s for an answer to `uci` (the match runner waits 2 s; a loaded machine made
        // Stockfish 15.1 slower than that to answer, and a check is not in a hurry), then
        // 2 s for the XBoard features.
        let waits = Waits {
            detect: Duration::from_secs(5).min(setup.timeout),
            features: Duration::from_secs(2),
            overall: setup.timeout,
        };
        let launch = Launch::new(&setup.start, waits);
        let driver =
            EngineDriver::start(&launch, None).map_err(|err| failure(err, setup.timeout))?;
        Ok(CheckEngine::with(setup.clone(), driver))
    }

    fn with(setup: EngineSetup, driver: EngineDriver) -> CheckEngine {
        let client = driver.client();
        let handshake = Handshake {
            name: client.name().map(str::to_owned),
            declarations: driver.declarations().to_vec(),
        };
        CheckEngine {
            setup,
            driver,
            handshake,
            mode: EngineMode::Chess960,
        }
    }

    /// The same engine, started afresh (after a crash or a hang).
    pub fn restart(self) -> Result<CheckEngine, EngineFailure> {
        let CheckEngine { setup, driver, .. } = self;
        let driver = driver
            .restart()
            .map_err(|err| failure(err, setup.timeout))?;
        Ok(CheckEngine::with(setup, driver))
    }

    /// Ends the conversation.
    pub fn quit(self) {
        self.driver.quit(Duration::from_millis(500));
    }

    fn deadline(&self) -> Instant {
        Instant::now() + self.setup.timeout
    }

    fn send<L: AsRef<[u8]>>(&mut self, lines: &[L]) -> Result<(), EngineFailure> {
        let timeout = self.setup.timeout;
        self.driver.send(lines).map_err(|err| failure(err, timeout))
    }

    /// The protocol spoken.
    pub fn protocol(&self) -> Protocol {
        self.driver.protocol()
    }

    /// Whether a UCI engine offers `UCI_Chess960` (and the client switched it on).
    pub fn has_chess960_option(&self) -> bool {
        self.driver.client().uci().is_some_and(|c| c.has_chess960())
    }

    /// Whether the client renders positions for an engine with one set of castling files
    /// for both colours (Glaurung 2.2, known by name in `protocol::quirks`), as the proxy
    /// does.
    pub fn shares_castling_files(&self) -> bool {
        self.driver
            .client()
            .uci()
            .is_some_and(|c| c.shares_castling_files())
    }

    /// Why an XBoard engine cannot play Chess960, if it cannot.
    pub fn xboard_support(&self) -> Result<(), Unsupported> {
        self.driver.client().chess960_support()
    }

    /// Reads raw lines until `until` says the answer is complete (`Some`).
    fn read_until<T>(&mut self, until: impl FnMut(&[u8]) -> Option<T>) -> Result<T, EngineFailure> {
        let (deadline, timeout) = (self.deadline(), self.setup.timeout);
        self.driver
            .read_until(deadline, until)
            .map_err(|err| failure(err, timeout))
    }

    /// `isready` ... `readyok` (UCI).
    fn sync(&mut self) -> Result<(), EngineFailure> {
        self.send(&["isready"])?;
        self.read_until(|line| (first_token(line) == b"readyok").then_some(()))
    }

    /// Switches a UCI engine with `UCI_Chess960` to `mode`.
    fn set_mode(&mut self, mode: EngineMode) -> Result<(), EngineFailure> {
        if mode == self.mode || !self.has_chess960_option() {
            return Ok(());
        }
        let on = mode == EngineMode::Chess960;
        self.send(&[setoption_line("UCI_Chess960", on)])?;
        self.sync()?;
        self.mode = mode;
        Ok(())
    }

    /// The lines that set `fen` (and `moves`) up for a perft or a search without the
    /// client.
    fn position_lines(&self, fen: &str, moves: &[&str]) -> Vec<String> {
        match self.protocol() {
            Protocol::Uci => {
                let mut line = format!("position fen {fen}");
                if !moves.is_empty() {
                    line.push_str(" moves ");
                    line.push_str(&moves.join(" "));
                }
                vec![line]
            }
            Protocol::Xboard => {
                let mut lines = vec![
                    "new".to_owned(),
                    "variant fischerandom".to_owned(),
                    "force".to_owned(),
                    format!("setboard {fen}"),
                ];
                // `feature usermove=1` (accepted by the client): moves come as `usermove M`.
                let usermove = self.declares_feature(b"usermove");
                lines.extend(moves.iter().map(|m| {
                    if usermove {
                        format!("usermove {m}")
                    } else {
                        (*m).to_owned()
                    }
                }));
                lines
            }
        }
    }

    /// Sends `command` (a probe for a perft command, in `fen`) and reads the answer by its
    /// shape ([`PerftProbe`]). The question is followed by `isready` (UCI) or `ping`
    /// (XBoard, where declared): once that is answered with nothing perft-like, the engine
    /// gets [`PROBE_GRACE`] more (Fairy-Stockfish counts on its search thread and answers
    /// `isready` first), then the probe ends. `Ok(None)`: no perft in that form; the engine
    /// may still be searching or mid-answer, so the caller starts it afresh.
    pub fn probe_perft(
        &mut self,
        command: ProbeCommand,
        fen: &str,
    ) -> Result<Option<PerftDialect>, EngineFailure> {
        self.set_mode(EngineMode::Chess960)?;
        let mut lines = self.position_lines(fen, &[]);
        lines.push(command.line());
        let sync = match self.protocol() {
            Protocol::Uci => Some(("isready".to_owned(), b"readyok".as_slice())),
            Protocol::Xboard if self.declares_feature(b"ping") => {
                Some(("ping 960".to_owned(), b"pong".as_slice()))
            }
            Protocol::Xboard => None,
        };
        if let Some((line, _)) = &sync {
            lines.push(line.clone());
        }
        self.send(&lines)?;
        let mut probe = PerftProbe::new(command);
        let mut synced = false;
        let answer_token = sync.map(|(_, token)| token);
        let mut read = |synced: &mut bool, line: &[u8]| {
            if answer_token.is_some_and(|token| first_token(line) == token) {
                *synced = true;
            }
            probe.on_line(line)
        };
        let timeout = self.setup.timeout;
        let deadline = Instant::now() + PROBE_WAIT.min(timeout);
        // First the answer or the sync, then a short grace after the sync.
        let first = self
            .driver
            .read_until(deadline, |line| match read(&mut synced, line) {
                Some(outcome) => Some(Some(outcome)),
                None if synced => Some(None),
                None => None,
            });
        let outcome = match first {
            Ok(Some(outcome)) => Some(outcome),
            Ok(None) => {
                let grace = Instant::now() + PROBE_GRACE;
                match self
                    .driver
                    .read_until(grace, |line| read(&mut synced, line))
                {
                    Ok(outcome) => Some(outcome),
                    Err(Failure::Timeout) => None,
                    Err(err) => return Err(failure(err, timeout)),
                }
            }
            Err(Failure::Timeout) => None,
            Err(err) => return Err(failure(err, timeout)),
        };
        match outcome {
            Some(ProbeOutcome::Found(dialect)) => {
                // The sync's answer, so that no line of the probe is left for the next
                // question.
                if let Some(token) = answer_token
                    && !synced
                {
                    self.read_until(|line| (first_token(line) == token).then_some(()))?;
                }
                Ok(Some(dialect))
            }
            Some(ProbeOutcome::Refused) | None => Ok(None),
        }
    }

    /// Whether the XBoard handshake declared `feature NAME=1`.
    fn declares_feature(&self, name: &[u8]) -> bool {
        self.handshake.declarations.iter().any(|line| {
            crate::protocol::xboard::feature_pairs(line.as_bytes())
                .into_iter()
                .any(|(key, value)| key == name && value == b"1")
        })
    }

    /// The engine's perft of `fen` (after `moves`) at `depth` in `mode`.
    pub fn perft(
        &mut self,
        dialect: PerftDialect,
        fen: &str,
        moves: &[&str],
        depth: u32,
        mode: EngineMode,
    ) -> Result<PerftReply, EngineFailure> {
        self.ask_perft(dialect, fen, moves, depth, mode)?;
        self.read_perft(dialect, depth)
    }

    /// The engine's perft of `fen` at `depth` after `setoption name UCI_Variant value
    /// {value}` with `UCI_Chess960` off: what it gets from a GUI that selects Chess960 by
    /// that option (cutechess-cli 1.5.1, for an engine whose combo lists `fischerandom`).
    /// The variant is set back to `chess` after.
    pub fn perft_as_variant(
        &mut self,
        dialect: PerftDialect,
        value: &str,
        fen: &str,
        depth: u32,
    ) -> Result<PerftReply, EngineFailure> {
        self.set_mode(EngineMode::Standard)?;
        self.send(&[format!("setoption name UCI_Variant value {value}")])?;
        self.sync()?;
        let mut lines = self.position_lines(fen, &[]);
        lines.push(dialect.command(depth));
        self.send(&lines)?;
        let reply = self.read_perft(dialect, depth)?;
        self.send(&["setoption name UCI_Variant value chess"])?;
        self.sync()?;
        Ok(reply)
    }

    /// Asks for the perft of `fen` (after `moves`) at `depth` in `mode`, without waiting
    /// for the count ([`CheckEngine::read_perft`] reads it).
    pub fn ask_perft(
        &mut self,
        dialect: PerftDialect,
        fen: &str,
        moves: &[&str],
        depth: u32,
        mode: EngineMode,
    ) -> Result<(), EngineFailure> {
        self.set_mode(mode)?;
        let mut lines = self.position_lines(fen, moves);
        lines.push(dialect.command(depth));
        self.send(&lines)
    }

    /// The reply to the perft asked at `depth`.
    pub fn read_perft(
        &mut self,
        dialect: PerftDialect,
        depth: u32,
    ) -> Result<PerftReply, EngineFailure> {
        let mut reader = PerftReader::new(dialect, depth);
        self.read_until(|line| reader.on_line(line))?
            .map_err(|err| EngineFailure::Perft(err.to_string()))
    }

    /// Asks for the perft of `position` (Shredder-FEN, or the standard FEN in standard
    /// mode), without waiting for the count.
    pub fn ask_perft_position(
        &mut self,
        dialect: PerftDialect,
        position: &Chess,
        depth: u32,
        mode: EngineMode,
    ) -> Result<(), EngineFailure> {
        let notation = match mode {
            EngineMode::Chess960 => CastlingNotation::Shredder,
            EngineMode::Standard => CastlingNotation::Xfen,
        };
        let fen = position_fen(position, notation);
        self.ask_perft(dialect, &fen, &[], depth, mode)
    }

    /// A search of `root` after `moves` through the client (its notation and position
    /// rendering, so an engine gets the position in the form it reads), `depth` plies deep,
    /// each line of the engine's shown to `see`: the client's event, or why there is none.
    fn search_through_client(
        &mut self,
        root: &Chess,
        moves: &[Move],
        depth: u32,
        see: impl FnMut(&[u8]),
    ) -> Result<Result<ClientEvent, Failure>, EngineFailure> {
        self.set_mode(EngineMode::Chess960)?;
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let (deadline, timeout) = (self.deadline(), self.setup.timeout);
        self.driver
            .new_game(root, &limits, deadline)
            .map_err(|err| failure(err, timeout))?;
        let mut game = GameLine::new(root.clone());
        for m in moves {
            game.push(*m);
        }
        let request = GoRequest {
            game: &game,
            limits: &limits,
            clocks: None,
        };
        let deadline = self.deadline();
        Ok(self.driver.search(request, deadline, see))
    }

    /// A search of `root` after `moves` through the client, `depth` plies deep: the reply,
    /// checked legal by the client.
    pub fn play(
        &mut self,
        root: &Chess,
        moves: &[Move],
        depth: u32,
    ) -> Result<Move, EngineFailure> {
        match self.search_through_client(root, moves, depth, |_| {})? {
            Ok(ClientEvent::Move(m)) => Ok(m),
            Ok(ClientEvent::Resign) => Err(EngineFailure::Answer("resigned".into())),
            Ok(ClientEvent::Ready | ClientEvent::Failed(_)) => {
                Err(EngineFailure::Answer("no move".into()))
            }
            Err(err) => Err(failure(err, self.setup.timeout)),
        }
    }

    /// A search of `root` through the client, `depth` plies deep: the move as the engine
    /// wrote it (`bestmove M`, `move M`), legal or not.
    pub fn search_text(&mut self, root: &Chess, depth: u32) -> Result<String, EngineFailure> {
        let mut written = None;
        let see = |line: &[u8]| match first_token(line) {
            b"bestmove" => written = Some(BestMove::parse(line).best.to_vec()),
            b"move" => written = Some(crate::protocol::argument(line).trim_ascii().to_vec()),
            _ => {}
        };
        let result = self.search_through_client(root, &[], depth, see)?;
        // An illegal move is the client's refusal; here it is the answer to read.
        match (result, written) {
            (Ok(ClientEvent::Resign), _) => Err(EngineFailure::Answer("resigned".into())),
            (Ok(_) | Err(Failure::Refused(_) | Failure::Unexpected(_)), Some(text)) => {
                Ok(String::from_utf8_lossy(&text).into_owned())
            }
            (Ok(_), None) => Err(EngineFailure::Answer("no move".into())),
            (Err(err), _) => Err(failure(err, self.setup.timeout)),
        }
    }

    /// XBoard: the move the engine plays in `fen` searching `depth` plies, as written.
    pub fn xboard_move(&mut self, fen: &str, depth: u32) -> Result<String, EngineFailure> {
        let mut lines = self.position_lines(fen, &[]);
        lines.push(format!("sd {depth}"));
        lines.push("go".to_owned());
        self.send(&lines)?;
        let text = self.read_until(|line| {
            (first_token(line) == b"move").then(|| {
                String::from_utf8_lossy(crate::protocol::argument(line))
                    .trim()
                    .to_owned()
            })
        })?;
        // Not on for the other side: the next question starts with `new`.
        self.send(&["force"])?;
        Ok(text)
    }

    /// UCI: `go depth N` in `fen` (with `searchmoves M` when `only` is given): the
    /// engine's best move as written, or as the move it is in `root` when it is legal
    /// there (king takes rook for castling, whichever notation the engine wrote).
    pub fn search_moves(
        &mut self,
        root: &Chess,
        fen: &str,
        only: Option<&str>,
        depth: u32,
    ) -> Result<String, EngineFailure> {
        self.set_mode(EngineMode::Chess960)?;
        let mut lines = self.position_lines(fen, &[]);
        lines.push(match only {
            Some(only) => format!("go depth {depth} searchmoves {only}"),
            None => format!("go depth {depth}"),
        });
        self.send(&lines)?;
        let best = self.read_until(|line| {
            (first_token(line) == b"bestmove")
                .then(|| String::from_utf8_lossy(BestMove::parse(line).best).into_owned())
        })?;
        // Whatever it wrote, as the move it is (either castling dialect).
        Ok(match parse_move(root, best.as_bytes()) {
            Ok(m) => crate::starts::castling::move_text(
                &m,
                crate::starts::castling::CastlingDialect::Chess960,
            ),
            Err(_) => best,
        })
    }
}
