//! The generator's engine: the shared engine driver ([`EngineDriver`], `clients/`) speaking
//! UCI for the handshake, `ucinewgame` and `position`/`go`, plus the MultiPV lines of each
//! search ([`PvCollector`], pure). Every wait has a deadline: an engine that says nothing
//! in time is [`BookEngineFailure::Hung`].

use std::sync::Arc;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move};
use thiserror::Error;

use super::walk::{EngineAnswer, PvLine};
use crate::clients::driver::{EngineDriver, Failure, Launch, Waits};
use crate::clients::talk::{ClientEvent, GoRequest, Limits};
use crate::launch::engine_start::EngineStart;
use crate::protocol::Protocol;
use crate::protocol::game::GameLine;
use crate::protocol::uci::{EngineScore, OptionDecl, setoption_line};
use crate::protocol::{first_token, tokens};

/// How to start and drive the engine: the same for every worker.
#[derive(Debug, Clone)]
pub struct BookEngineSetup {
    /// The program and its arguments, the user's `option.NAME=VALUE` and `initstr=` lines
    /// (sent before `uci`); spoken to in UCI.
    pub start: EngineStart,
    /// Each search's limits.
    pub limits: Limits,
    /// How long the engine may be silent past the search's own time before it is taken
    /// for hung.
    pub timeout: Duration,
}

/// Why the engine could not answer.
#[derive(Debug, Error)]
pub enum BookEngineFailure {
    /// What the driver met, as it words it (a broken protocol after "the engine "): the
    /// engine could not be started (a usage error: no such program), exited or crashed,
    /// broke the protocol, or Ctrl-C came. Never the driver's timeout: that is
    /// [`BookEngineFailure::Hung`], which says how long it waited.
    #[error("{prefix}{0}", prefix = engine_prefix(.0))]
    Driver(#[source] Failure),
    /// It said nothing for too long.
    #[error("the engine did not answer within {0:?}")]
    Hung(Duration),
    /// It answered a search with no move.
    #[error("the engine answered a search with {0:?}")]
    NoMove(ClientEvent),
}

/// "the engine " before a broken protocol (the driver's words name the engine otherwise).
fn engine_prefix(failure: &Failure) -> &'static str {
    match failure {
        Failure::Refused(_) | Failure::Unexpected(_) => "the engine ",
        _ => "",
    }
}

/// One running engine.
pub struct BookEngine {
    driver: EngineDriver,
    setup: Arc<BookEngineSetup>,
    has_multipv: bool,
    /// The MultiPV value last sent.
    multipv: u32,
    /// Reused between searches.
    collector: PvCollector,
}

impl BookEngine {
    /// Starts the engine and completes the handshake: the user's options, then
    /// `Threads 1` (unless the user set Threads) for reproducible searches.
    pub fn start(setup: Arc<BookEngineSetup>) -> Result<BookEngine, BookEngineFailure> {
        let waits = Waits {
            detect: setup.timeout,
            features: setup.timeout,
            overall: setup.timeout,
        };
        let launch = Launch {
            protocol: Some(Protocol::Uci),
            ..Launch::new(&setup.start, waits)
        };
        let mut driver = EngineDriver::start(&launch, None).map_err(|err| failure(err, &setup))?;
        let declared = |name: &str| {
            driver
                .declarations()
                .iter()
                .any(|line| OptionDecl::parse(line.as_bytes()).is(name))
        };
        let has_multipv = declared("MultiPV");
        let has_threads = declared("Threads");
        let user_threads = setup
            .start
            .options
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("threads"));
        if has_threads && !user_threads {
            driver
                .send(&[setoption_line("Threads", 1)])
                .map_err(|err| failure(err, &setup))?;
        }
        Ok(BookEngine {
            driver,
            has_multipv,
            multipv: 1,
            collector: PvCollector::default(),
            setup,
        })
    }

    /// A new start: `ucinewgame` (a cleared hash: each start's searches do not depend on
    /// the starts before it) and `isready`.
    pub fn new_start(&mut self) -> Result<(), BookEngineFailure> {
        let deadline = Instant::now() + self.setup.timeout;
        let limits = self.setup.limits.clone();
        // A UCI new game takes no position: each search sends its own.
        self.driver
            .new_game(&Chess::default(), &limits, deadline)
            .map_err(|err| failure(err, &self.setup))
    }

    /// Searches the position after `moves` from `root` with `lines` MultiPV lines.
    pub fn search(
        &mut self,
        root: &Chess,
        moves: &[Move],
        lines: u32,
    ) -> Result<EngineAnswer, BookEngineFailure> {
        if self.has_multipv && lines != self.multipv {
            self.driver
                .send(&[setoption_line("MultiPV", lines)])
                .map_err(|err| failure(err, &self.setup))?;
            self.multipv = lines;
        }
        let mut game = GameLine::new(root.clone());
        for m in moves {
            game.push(*m);
        }
        let limits = self.setup.limits.clone();
        self.driver.forget_position();
        let request = GoRequest {
            game: &game,
            limits: &limits,
            clocks: None,
        };
        let allowed = self.setup.timeout + limits.movetime.unwrap_or_default();
        let deadline = Instant::now() + allowed;
        self.collector.clear();
        let collector = &mut self.collector;
        match self
            .driver
            .search(request, deadline, |line| collector.line(line))
        {
            Ok(ClientEvent::Move(_)) => Ok(self.collector.result()),
            Ok(other) => Err(BookEngineFailure::NoMove(other)),
            Err(err) => Err(failure(err, &self.setup)),
        }
    }

    /// Sends `quit` and gives the engine a moment to exit.
    pub fn stop(self) {
        self.driver.quit(Duration::from_millis(500));
    }
}

/// The driver's failure, its timeout as the generator's own (how long it waited).
fn failure(failure: Failure, setup: &BookEngineSetup) -> BookEngineFailure {
    match failure {
        Failure::Timeout => BookEngineFailure::Hung(setup.timeout),
        other => BookEngineFailure::Driver(other),
    }
}

/// The MultiPV lines of one search, from its `info` lines: for each `multipv` index the
/// last score and first move, and the last depth and node count.
#[derive(Debug, Default)]
pub struct PvCollector {
    lines: Vec<Option<PvLine>>,
    depth: Option<u32>,
    nodes: Option<u64>,
}

impl PvCollector {
    /// A new search.
    pub fn clear(&mut self) {
        self.lines.clear();
        self.depth = None;
        self.nodes = None;
    }

    /// One line from the engine (anything but `info` is ignored).
    pub fn line(&mut self, line: &[u8]) {
        if first_token(line) != b"info" {
            return;
        }
        let number =
            |word: Option<&[u8]>| -> Option<i64> { std::str::from_utf8(word?).ok()?.parse().ok() };
        let mut words = tokens(line).skip(1);
        let (mut multipv, mut depth, mut nodes, mut score, mut first) =
            (1_i64, None, None, None, None);
        while let Some(word) = words.next() {
            match word {
                b"string" => break,
                b"multipv" => multipv = number(words.next()).unwrap_or(0),
                b"depth" => depth = number(words.next()),
                b"nodes" => nodes = number(words.next()),
                b"score" => {
                    let kind = words.next();
                    let value = number(words.next()).and_then(|v| i32::try_from(v).ok());
                    score = match (kind, value) {
                        (Some(b"cp"), Some(v)) => Some(EngineScore::Centipawns(v)),
                        (Some(b"mate"), Some(v)) => Some(EngineScore::Mate(v)),
                        _ => None,
                    };
                }
                b"pv" => {
                    first = words.next();
                    break;
                }
                _ => {}
            }
        }
        if let Some(nodes) = nodes.and_then(|n| u64::try_from(n).ok()) {
            self.nodes = Some(nodes);
        }
        let (Some(score), Some(first), Ok(index)) = (score, first, usize::try_from(multipv)) else {
            return;
        };
        if index == 0 || index > 500 {
            return;
        }
        if let Some(depth) = depth.and_then(|d| u32::try_from(d).ok()) {
            self.depth = Some(depth);
        }
        if self.lines.len() < index {
            self.lines.resize(index, None);
        }
        self.lines[index - 1] = Some(PvLine {
            first_move: String::from_utf8_lossy(first).into_owned(),
            score,
        });
    }

    /// The search's result: its lines in MultiPV order.
    pub fn result(&self) -> EngineAnswer {
        EngineAnswer {
            lines: self.lines.iter().flatten().cloned().collect(),
            depth: self.depth,
            nodes: self.nodes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_driver_failure_is_worded_as_the_generator_worded_it() {
        let driver = |failure| BookEngineFailure::Driver(failure).to_string();
        assert_eq!(
            driver(Failure::Closed("exited with code 1".to_owned())),
            "the engine exited with code 1"
        );
        assert_eq!(
            driver(Failure::WriteFailed("crashed".to_owned())),
            "the engine crashed"
        );
        assert_eq!(
            driver(Failure::Refused("sent no uciok".to_owned())),
            "the engine sent no uciok"
        );
        assert_eq!(
            driver(Failure::Unexpected(ClientEvent::Resign)),
            "the engine answered with Resign"
        );
        assert_eq!(driver(Failure::Interrupted), "interrupted");
        assert_eq!(
            BookEngineFailure::NoMove(ClientEvent::Ready).to_string(),
            "the engine answered a search with Ready"
        );
        assert_eq!(
            BookEngineFailure::Hung(Duration::from_secs(30)).to_string(),
            "the engine did not answer within 30s"
        );
    }

    #[test]
    fn the_last_line_of_each_multipv_index_is_kept() {
        let mut collector = PvCollector::default();
        for line in [
            "info string NNUE evaluation using nn.nnue enabled",
            "info depth 1 seldepth 1 multipv 1 score cp 30 nodes 20 nps 20000 time 1 pv e2e4",
            "info depth 1 seldepth 1 multipv 2 score cp 10 nodes 40 pv d2d4 d7d5",
            "info depth 2 seldepth 2 multipv 1 score cp 25 upperbound nodes 90 pv g1f3",
            "info depth 2 seldepth 3 multipv 2 score mate -3 nodes 120 pv h2h4 e7e5",
            "info depth 3 currmove e2e4 currmovenumber 1",
            "info depth 3 multipv 3 score cp 5 nodes 150",
            "bestmove g1f3 ponder d7d5",
        ] {
            collector.line(line.as_bytes());
        }
        let result = collector.result();
        assert_eq!(
            result.lines,
            [
                PvLine {
                    first_move: "g1f3".into(),
                    score: EngineScore::Centipawns(25)
                },
                PvLine {
                    first_move: "h2h4".into(),
                    score: EngineScore::Mate(-3)
                },
            ]
        );
        assert_eq!((result.depth, result.nodes), (Some(2), Some(150)));
        collector.clear();
        // No multipv word: line 1 (engines without MultiPV).
        collector.line(b"info depth 4 score cp -12 time 3 nodes 77 pv c7c5");
        let result = collector.result();
        assert_eq!(result.lines.len(), 1);
        assert_eq!(result.lines[0].first_move, "c7c5");
        assert_eq!((result.depth, result.nodes), (Some(4), Some(77)));
    }
}
