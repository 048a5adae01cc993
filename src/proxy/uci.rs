//! The UCI proxy's sans-IO state machine: lines in, [`Action`]s out.
//!
//! Only a line's first token decides whether it needs work. Untouched lines (most `info`
//! lines, `id`, `readyok`, unknown commands, vendor extensions) are answered with
//! [`Action::Forward`] and go through byte for byte. The lines that get work:
//!
//! | from | first token | what happens |
//! |---|---|---|
//! | engine | `id name` | forwarded; `Glaurung` marks an engine with one set of castling files for both colours |
//! | engine | `option` | `UCI_Chess960` noted; its `default False` rewritten to `default false` |
//! | engine | `uciok` | `setoption name UCI_Chess960 value true` to the engine first (start active), then our two options and `uciok` to the GUI |
//! | engine | `bestmove`, `info` | castling moves rewritten into the GUI's dialect (`info` only when it contains a castling text of the search root); a `bestmove` not legal in the searched position becomes `bestmove 0000` with an `info string`; one without a `go` is dropped |
//! | GUI | `setoption` | our options consumed; `UCI_Chess960` and `UCI_Variant chess960` set the GUI's dialect (consumed or rewritten, see README) |
//! | GUI | `position` | checked with shakmaty (Chess960 mode); `startpos` becomes the start's FEN; castling rights and moves rewritten for the engine; lists over 400 plies or with over 100 reversible plies at the end rebased; refused if broken; for an engine with one set of castling files (Glaurung 2.2) rebased or stripped to rights it can hold |
//! | GUI | `go` | answered `bestmove 0000` after a refused position and for a `go` an engine may never answer; `searchmoves` translated and put last; the position sent again after `ucinewgame` |
//! | GUI | `position`, `go`, `setoption`, `ucinewgame` during a search | held: `stop` to the engine, sent after its `bestmove` |
//! | GUI | `isready` during a search | answered `readyok` |
//! | GUI | `stop`, `ponderhit` | swallowed after the proxy answered the `go` itself; right after `go`, held until the search's first `info` (at most [`EARLY_WAIT`], a deadline) |
//! | GUI | `quit` | forwarded, then [`Step::Event(ProxyEvent::Shutdown)`] |
//! | GUI | any, between `uci` and the engine's `uciok` | held, then handled at `uciok` |

use std::time::{Duration, Instant};

use memchr::memmem;
use shakmaty::{Chess, Position};

use crate::exit_code;
use crate::protocol::game::{EngineChess, GameLine, has_chess960_castling, parse_fen};
use crate::protocol::quirks::quirks;
use crate::protocol::uci::{
    BestMove, Go, GoError, OptionDecl, PositionCommand, SetOption, check_option_line,
    info_move_lists, setoption_line, spin_option_line,
};
use crate::protocol::{first_token, is_chess960_variant, tokens};
use crate::proxy::recovery::{self, ExitVerdict, Restarts, SearchClock};
pub use crate::proxy::starts::{BLACK_START_OPTION, START_OPTION};
use crate::proxy::starts::{
    NoChess960, NoChess960Verdict, StartChoice, StartNotices, StartOption, StartSelector,
};
use crate::proxy::{Action, Fate, Mark, Peer, ProxyEvent, Relay, Reply, Step, tell};
use crate::starts::castling::{
    CastlingDialect, CastlingFilter, parse_move, translate_moves, write_move,
};
use crate::starts::notation::{CastlingNotation, castling_field};

/// How the UCI proxy behaves (the command-line options).
#[derive(Debug, Clone, Default)]
pub struct UciConfig {
    /// The start of the games.
    pub start: StartChoice,
    /// The GUI's castling dialect; `None`: Chess960 once the GUI enables `UCI_Chess960`
    /// (or `UCI_Variant` chess960/fischerandom), standard before.
    pub gui_castling: Option<CastlingDialect>,
    /// The castling field of FENs for an engine in Chess960 mode.
    pub engine_castling: CastlingNotation,
    /// Fail when a start is active and the engine has no `UCI_Chess960`.
    pub require_chess960: bool,
    /// Seed of the random starts the GUI may ask for (`SP960_Start` -2) when `start` is
    /// not random itself.
    pub random_seed: u64,
    /// List `UCI_Chess960` to the GUI for an engine that has no such option, so that
    /// GUIs and runners (cutechess-cli, fastchess, polyglot) play Chess960 with it: the
    /// engine gets each position as standard chess, without the castling rights it
    /// cannot express, and so never castles in a Chess960 start.
    pub offer_chess960: bool,
    /// `--restart-engine N`: an engine that exits unasked is started again, up to N times
    /// a game (0: never, the proxy ends with it).
    pub restart_engine: u32,
    /// `--max-overrun MS`: a `go` with a clock (`wtime`/`btime` of the side to move,
    /// `movetime`) not answered by that time plus this margin is stopped.
    pub max_overrun: Option<Duration>,
    /// `--max-search MS`: a finite `go` without a clock (`depth`, `nodes`, `mate`) not
    /// answered within this is stopped.
    pub max_search: Option<Duration>,
}

/// How long the clock guard waits for a `bestmove` after its `stop` before it answers the
/// GUI itself.
pub const STOP_GRACE: Duration = Duration::from_secs(1);

/// A `go` the engine got: the line as sent and when, for the clock guard and a restart.
#[derive(Debug, Clone)]
struct PendingGo {
    /// The line the engine got.
    line: Vec<u8>,
    /// When (the shell's clock).
    at: Instant,
    /// White to move in the searched position.
    white: bool,
    /// The time the search may take by its clock; `go ponder` is unbounded until its
    /// `ponderhit`.
    clock: SearchClock,
    /// A `go ponder`.
    ponder: bool,
}

/// Where the clock guard stands in the current search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ClockGuard {
    /// No deadline (no guard, or a search it does not bound).
    Off,
    /// `stop` goes to the engine at this instant.
    StopAt(Instant),
    /// `stop` went; the proxy answers the GUI itself at this instant.
    AnswerAt(Instant),
}

/// `stop` / `ponderhit` lines read right after `go`, before the engine was heard, and
/// when they go anyway ([`EARLY_WAIT`] after the first).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Early {
    lines: Vec<Vec<u8>>,
    release_at: Instant,
}

impl Early {
    fn holds_stop(&self) -> bool {
        self.lines.iter().any(|line| first_token(line) == b"stop")
    }
}

/// What the engine has been told to end its search.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Stop {
    /// The engine has not been heard since the `go` (no `info` but `info string` yet):
    /// `stop` and `ponderhit` are held (Ethereal 12.75 loses a `stop` that comes at
    /// once) until its first `info`, or until their deadline.
    Unheard(Option<Early>),
    /// The search has begun: `stop` and `ponderhit` go through.
    Heard,
    /// The engine was told `stop`: another is dropped.
    Sent,
}

/// A search the engine runs, from the `go` it got to its `bestmove` (or the clock
/// guard's answer).
#[derive(Debug, Clone)]
struct Running {
    go: PendingGo,
    stop: Stop,
    guard: ClockGuard,
    /// The first move of the engine's last principal variation in this search, in the
    /// engine's notation (tracked only with the clock guard on).
    last_pv_move: Option<Vec<u8>>,
    /// GUI lines read during the search (`position`, `go`, `setoption`, `ucinewgame` and
    /// everything after the first of them), handled once its `bestmove` is passed on.
    after: Vec<Vec<u8>>,
}

impl Running {
    /// A search of `go`, its guard armed from `go.at`.
    fn new(go: PendingGo, config: &UciConfig) -> Running {
        let mut run = Running {
            stop: Stop::Unheard(None),
            guard: ClockGuard::Off,
            last_pv_move: None,
            after: Vec::new(),
            go,
        };
        run.arm_guard(run.go.at, config);
        run
    }

    /// The guard's `stop` deadline, the search's clock counted from `from`.
    fn arm_guard(&mut self, from: Instant, config: &UciConfig) {
        self.guard = match self.go.clock.limit(config.max_overrun, config.max_search) {
            Some(limit) => ClockGuard::StopAt(from + limit),
            None => ClockGuard::Off,
        };
    }

    /// A `stop` is on its way: sent, or held to be sent.
    fn stop_pending(&self) -> bool {
        match &self.stop {
            Stop::Sent => true,
            Stop::Unheard(Some(early)) => early.holds_stop(),
            Stop::Unheard(None) | Stop::Heard => false,
        }
    }

    /// The instant the held `stop` / `ponderhit` lines go anyway.
    fn early_deadline(&self) -> Option<Instant> {
        match &self.stop {
            Stop::Unheard(Some(early)) => Some(early.release_at),
            _ => None,
        }
    }

    fn guard_deadline(&self) -> Option<Instant> {
        match self.guard {
            ClockGuard::StopAt(at) | ClockGuard::AnswerAt(at) => Some(at),
            ClockGuard::Off => None,
        }
    }

    /// The GUI's `stop` (`stop`: true) or `ponderhit` (`line`, read at `now`): true when
    /// it goes to the engine now; held before the engine is heard; a second `stop` is
    /// dropped. `ponderhit` puts a pondering search on its clock.
    fn stop_or_ponderhit(
        &mut self,
        stop: bool,
        line: &[u8],
        now: Instant,
        config: &UciConfig,
    ) -> bool {
        if self.stop == Stop::Sent || (stop && self.stop_pending()) {
            return false;
        }
        if !stop && self.go.ponder && self.go.clock.unbounded {
            self.go.clock.unbounded = false;
            self.arm_guard(now, config);
        }
        match &mut self.stop {
            Stop::Unheard(early) => {
                early
                    .get_or_insert_with(|| Early {
                        lines: Vec::new(),
                        release_at: now + EARLY_WAIT,
                    })
                    .lines
                    .push(line.to_vec());
                false
            }
            Stop::Heard | Stop::Sent => {
                if stop {
                    self.stop = Stop::Sent;
                }
                true
            }
        }
    }

    /// The clock guard's `stop`: true when it must be sent (none was), replacing any
    /// held lines.
    fn guard_stop(&mut self) -> bool {
        std::mem::replace(&mut self.stop, Stop::Sent) != Stop::Sent
    }

    /// The engine was restarted at `now` and got the `go` again: not heard yet, and a
    /// `stop` the old engine had is held for the new one.
    fn restarted(&mut self, now: Instant) {
        self.stop = match std::mem::replace(&mut self.stop, Stop::Heard) {
            Stop::Sent => Stop::Unheard(Some(Early {
                lines: vec![b"stop".to_vec()],
                release_at: now + EARLY_WAIT,
            })),
            Stop::Heard => Stop::Unheard(None),
            unheard @ Stop::Unheard(_) => unheard,
        };
    }

    /// Sends the lines held since the `go`, up to the first `stop`; `heard`: the
    /// engine's first `info` came (else their deadline did).
    fn release_early(&mut self, heard: bool, actions: &mut Vec<Action>) {
        let Stop::Unheard(early) = &mut self.stop else {
            return;
        };
        let lines = early.take().map(|early| early.lines).unwrap_or_default();
        self.stop = if heard {
            Stop::Heard
        } else {
            Stop::Unheard(None)
        };
        for line in lines {
            let stop = first_token(&line) == b"stop";
            actions.push(Action::send(Peer::Engine, line, Mark::Held));
            if stop {
                self.stop = Stop::Sent;
                break;
            }
        }
    }
}

/// The engine's search, as the GUI's `go`s and the engine's `bestmove`s move it.
#[derive(Debug, Clone)]
enum Search {
    /// No search: a `stop` or `ponderhit` is forwarded as any line.
    Idle,
    /// The proxy answered the GUI's last `go` itself (`bestmove 0000`): its `stop` and
    /// `ponderhit` are swallowed.
    AnsweredByProxy,
    /// A `go` went to the engine and its `bestmove` has not come back.
    Running(Box<Running>),
}

/// Why a GUI's `position` was refused (told to the GUI; its next `go` is answered).
#[derive(Debug, thiserror::Error)]
enum PositionRefusal {
    /// Neither `startpos` nor `fen FEN`.
    #[error(transparent)]
    Syntax(#[from] crate::protocol::uci::PositionSyntaxError),
    /// The start of the games cannot be set up (a bug).
    #[error(transparent)]
    Start(#[from] crate::starts::start::InvalidStart),
    /// A bad FEN or an illegal move.
    #[error(transparent)]
    Position(#[from] crate::protocol::game::PositionError),
}

/// Exit code when `--require-chess960` is given and the engine lacks `UCI_Chess960`.
pub const NO_CHESS960_EXIT: u8 = exit_code::ENGINE_UNSUITABLE;

/// The engine's handshake, as it decides what becomes of the GUI's lines.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Link {
    /// Before the GUI's `uci`: its lines are handled as they come.
    Unstarted,
    /// The GUI sent `uci`: its lines are held until the engine's first `uciok`, then
    /// handled with the engine's options known.
    AwaitingUciok(Vec<Vec<u8>>),
    /// The engine answered `uciok`: the GUI's lines are handled as they come.
    Ready,
    /// After a `uciok`: the GUI sent `uci` again, or the engine's output ended and a
    /// restart may follow; the GUI's lines are held until the next `uciok` (or the
    /// restart's replay).
    Held(Vec<Vec<u8>>),
    /// A restarted engine's handshake: its lines are consumed until its `uciok`, then
    /// the replay; the GUI's lines are held until after it.
    Restarting(Vec<Vec<u8>>),
}

impl Link {
    /// The engine answered `uciok` at least once (it can be restarted).
    fn ready(&self) -> bool {
        matches!(self, Link::Ready | Link::Held(_) | Link::Restarting(_))
    }

    /// The GUI lines held, if the link holds them.
    fn held(&mut self) -> Option<&mut Vec<Vec<u8>>> {
        match self {
            Link::AwaitingUciok(held) | Link::Held(held) | Link::Restarting(held) => Some(held),
            Link::Unstarted | Link::Ready => None,
        }
    }

    /// The held GUI lines, taken: the link is [`Link::Ready`] (`uciok` came).
    fn open(&mut self) -> Vec<Vec<u8>> {
        match std::mem::replace(self, Link::Ready) {
            Link::AwaitingUciok(held) | Link::Held(held) | Link::Restarting(held) => held,
            Link::Unstarted | Link::Ready => Vec::new(),
        }
    }
}

/// The GUI's position, from its last `position`.
#[derive(Debug)]
enum GuiPosition {
    /// No `position` yet.
    Unset,
    /// Accepted: the position after its moves.
    Accepted(Chess),
    /// Refused (the GUI was told why); the next `go` is answered `bestmove 0000`.
    Refused,
}

impl GuiPosition {
    fn current(&self) -> Option<&Chess> {
        match self {
            GuiPosition::Accepted(position) => Some(position),
            GuiPosition::Unset | GuiPosition::Refused => None,
        }
    }
}

/// The root of the engine's current or last search, for reading and translating its
/// output.
struct SearchRoot {
    position: Chess,
    /// Finds castling texts of `position` in engine output.
    filter: CastlingFilter,
}

/// The `position` line the engine got last.
struct SentPosition {
    line: Vec<u8>,
    /// A `ucinewgame` came after it: it is sent again before the next `go` (Glaurung 2.2
    /// searches the start position after `position`, `ucinewgame`, `go`).
    renew: bool,
}

/// What the session knows of the engine from its handshake.
struct EngineFacts {
    /// Its `UCI_Chess960`: missing, off or on.
    chess960: Chess960Option,
    /// Its own options, as it declared them (for checking the GUI's values).
    options: Vec<OptionDecl>,
    /// It keeps one king file and one rook file per wing for both colours
    /// ([`crate::protocol::quirks::Quirks::shared_castling_files`] of its `id name`:
    /// Glaurung 2.2 reads `HDfa` as one set of files and corrupts its memory,
    /// docs/hostile-gui.md): its positions come from
    /// [`GameLine::for_shared_castling_files`].
    shared_castling_files: bool,
}

/// The engine's `UCI_Chess960` option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Chess960Option {
    /// The engine declared none (so far).
    Missing,
    /// Declared; the engine is in standard mode.
    Off,
    /// Declared, and set to true: the engine is in Chess960 mode.
    On,
}

/// The UCI proxy session: the engine's handshake ([`Link`]), what the GUI and the engine
/// said, and the search.
pub struct UciSession {
    config: UciConfig,
    /// The engine's handshake: the GUI's lines held until `uciok`, or a restart's.
    link: Link,
    /// The start of the games (command line and `SP960_Start` / `SP960_BlackStart`).
    starts: StartSelector,
    /// What the GUI was told about the start in this game (once per game).
    told: StartNotices,
    /// The warning (or failure) for an engine without `UCI_Chess960`.
    no_chess960: NoChess960,
    engine: EngineFacts,
    /// The GUI enabled Chess960 (`UCI_Chess960`, or `UCI_Variant chess960`): its castling
    /// dialect unless `--gui-castling` says.
    gui_chess960: bool,
    /// The GUI's position: none, accepted, or refused.
    position: GuiPosition,
    /// Root of the engine's current or last search.
    root: Option<SearchRoot>,
    /// The engine's search: none, answered by the proxy, or running (its `go`, what it
    /// was told to stop it, the clock guard, the GUI lines held for after it).
    search: Search,
    /// The `position` line the engine got last.
    sent_position: Option<SentPosition>,
    /// `--restart-engine`: the budget, and the `setoption` lines the engine got (the
    /// last per option name, lowercase), replayed to a restarted engine.
    restarts: Restarts,
    /// `bestmove`s still to come for searches the clock guard answered (dropped).
    stale_bestmoves: u32,
    /// The shell's clock at the last line read or timeout.
    now: Option<Instant>,
}

/// How long a `stop` or `ponderhit` that came right after `go` waits for the search's
/// first `info` before it is sent anyway (Ethereal 12.75 loses a `stop` sent at once, and
/// answers `bestmove a1a1` to one that comes before its first iteration ends): a deadline
/// ([`Relay::poll_timeout`]).
pub const EARLY_WAIT: Duration = Duration::from_millis(200);

/// Move lists longer than this reach the engine as the FEN after the last irreversible
/// move and the moves since ([`GameLine::rebased`]): Ethereal cuts lists beyond about
/// 1,526 plies (docs/proxy.md).
pub const MAX_ENGINE_PLIES: usize = 400;

/// At most this many plies stay in a rebased list (the 50-move rule's 100 plies), and a
/// list whose last this many plies and more are reversible is rebased whatever its length:
/// Glaurung 2.2 keeps the positions since the last capture or pawn move of the list and of
/// its search in one table of 220 (`history[MaxGameLength]`, position.h), and dies (SIGSEGV)
/// from about 210 reversible plies searched to depth 8.
pub const REBASED_PLIES: usize = 100;

/// The castling field of `position` in Shredder-FEN (`HAha`, `-`).
fn shredder_rights(position: &Chess) -> String {
    castling_field(
        &position.to_setup(shakmaty::EnPassantMode::Legal),
        CastlingNotation::Shredder,
    )
}

impl UciSession {
    /// A session before the engine's `uciok`.
    pub fn new(config: UciConfig) -> UciSession {
        UciSession {
            starts: StartSelector::new(config.start, config.random_seed),
            told: StartNotices::default(),
            no_chess960: NoChess960::new(config.require_chess960),
            restarts: Restarts::new(config.restart_engine),
            config,
            link: Link::Unstarted,
            engine: EngineFacts {
                chess960: Chess960Option::Missing,
                options: Vec::new(),
                shared_castling_files: false,
            },
            gui_chess960: false,
            position: GuiPosition::Unset,
            root: None,
            search: Search::Idle,
            sent_position: None,
            stale_bestmoves: 0,
            now: None,
        }
    }

    /// The shell's clock ([`Relay::set_now`]); a session never given one (a unit test)
    /// reads the system's.
    fn now(&self) -> Instant {
        self.now.unwrap_or_else(Instant::now)
    }

    /// Notes a `setoption` line the engine gets (replacing an earlier one of the option).
    fn remember_option(&mut self, line: &[u8]) {
        let Some(set) = SetOption::parse(line) else {
            return;
        };
        // Only the engine's own options matter to it (and hostile input names endless
        // others: kept, they would grow without bound).
        if self
            .engine
            .options
            .iter()
            .any(|option| option.name.eq_ignore_ascii_case(&set.name))
        {
            self.restarts.remember(set.name.to_ascii_lowercase(), line);
        }
    }

    /// True while a `go` the engine got has not been answered.
    pub fn searching(&self) -> bool {
        matches!(self.search, Search::Running(_))
    }

    /// The castling dialect the GUI speaks now.
    pub fn gui_dialect(&self) -> CastlingDialect {
        self.config.gui_castling.unwrap_or(if self.gui_chess960 {
            CastlingDialect::Chess960
        } else {
            CastlingDialect::Standard
        })
    }

    /// How the engine takes positions now.
    pub fn engine_chess(&self) -> EngineChess {
        if self.engine.chess960 == Chess960Option::On {
            EngineChess::Chess960(self.config.engine_castling)
        } else {
            EngineChess::Standard
        }
    }

    /// True when games start from a start of ours (command line or GUI option).
    pub fn start_active(&self) -> bool {
        self.starts.active()
    }

    fn translation_needed(&self) -> bool {
        self.gui_dialect() != self.engine_chess().dialect()
    }

    fn info_to_gui(actions: &mut Vec<Action>, text: &str) {
        actions.push(Action::send(
            Peer::Gui,
            format!("info string sp960: {text}"),
            Mark::Injected,
        ));
    }

    /// Tells the user: an `info string` for the GUI, and stderr.
    fn tell(actions: &mut Vec<Action>, message: &str) {
        tell(actions, format!("info string sp960: {message}"), message);
    }

    /// Puts the engine into Chess960 mode if it can be and is not.
    fn enable_engine_chess960(&mut self, actions: &mut Vec<Action>) {
        if self.engine.chess960 == Chess960Option::Off {
            let line = setoption_line("UCI_Chess960", true);
            self.remember_option(line.as_bytes());
            actions.push(Action::send(Peer::Engine, line, Mark::Injected));
            self.engine.chess960 = Chess960Option::On;
        }
    }

    /// After `uciok` or when the GUI picks a start: the engine into Chess960 mode, or
    /// the warning (or failure) when it has no such mode. False when the proxy fails.
    fn prepare_engine_for_start(&mut self, actions: &mut Vec<Action>) -> bool {
        if !self.start_active() {
            return true;
        }
        if self.engine.chess960 != Chess960Option::Missing {
            self.enable_engine_chess960(actions);
            return true;
        }
        match self.no_chess960.verdict() {
            NoChess960Verdict::Fail => {
                Self::info_to_gui(actions, "the engine has no UCI_Chess960 option");
                actions.push(Step::Event(ProxyEvent::Fail {
                    code: NO_CHESS960_EXIT,
                    message: "proxy: the engine has no UCI_Chess960 option and \
                              --require-chess960 was given"
                        .to_owned(),
                }));
                return false;
            }
            NoChess960Verdict::Warn => Self::tell(
                actions,
                "the engine has no UCI_Chess960 option: it plays the start as standard chess \
                 without castling (after a Chess960 castling move it gets the position from \
                 there on)",
            ),
            NoChess960Verdict::Quiet => {}
        }
        true
    }

    fn our_options(&self) -> [String; 2] {
        let (white, black) = self.starts.option_defaults();
        [
            spin_option_line(START_OPTION, white.into(), -2, 959),
            spin_option_line(BLACK_START_OPTION, black.into(), -1, 959),
        ]
    }

    // ---- engine side ----

    fn engine_option(&mut self, out: &mut Reply) {
        let line = out.line();
        let option = OptionDecl::parse(line);
        self.engine.options.push(option.clone());
        if option.is("UCI_Chess960") {
            if self.engine.chess960 == Chess960Option::Missing {
                self.engine.chess960 = Chess960Option::Off;
            }
            // python-chess reads `default False` as true and then never enables the
            // option: give GUIs the lowercase spelling.
            if let Some(value) = &option.default
                && value.eq_ignore_ascii_case(b"false")
                && value != b"false"
            {
                let words: Vec<&[u8]> = tokens(line)
                    .map(|word| {
                        if word == value.as_slice() {
                            &b"false"[..]
                        } else {
                            word
                        }
                    })
                    .collect();
                return out.replace(words.join(&b' '));
            }
        }
        out.forward();
    }

    fn engine_uciok(&mut self, out: &mut Reply) {
        // The engine hears `UCI_Chess960 true` before the GUI can hear `uciok`, so before
        // anything the GUI sends after it.
        if !self.prepare_engine_for_start(out) {
            // The proxy fails: the GUI's lines stay held.
            self.link = match std::mem::replace(&mut self.link, Link::Ready) {
                Link::AwaitingUciok(held) | Link::Held(held) => Link::Held(held),
                other => other,
            };
            return;
        }
        if self.config.offer_chess960 && self.engine.chess960 == Chess960Option::Missing {
            out.push(Action::send(
                Peer::Gui,
                check_option_line("UCI_Chess960", false),
                Mark::Injected,
            ));
        }
        for option in self.our_options() {
            out.push(Action::send(Peer::Gui, option, Mark::Injected));
        }
        out.forward();
        // Lines the GUI sent too early now go, read with the engine's options known.
        let held = self.link.open();
        self.release(held, out);
    }

    /// Handles GUI lines the session held, in order (forwarded ones go marked
    /// [`Mark::Held`]).
    fn release(&mut self, held: Vec<Vec<u8>>, actions: &mut Vec<Action>) {
        for line in held {
            self.gui_line(&mut Reply::held(actions, &line));
        }
    }

    fn engine_bestmove(&mut self, out: &mut Reply) {
        let line = out.line();
        if self.stale_bestmoves > 0 {
            // The answer to a search the clock guard answered itself.
            self.stale_bestmoves -= 1;
            return out.push(Step::Event(ProxyEvent::Warn(format!(
                "proxy: the engine's late '{}' (its search was answered by the clock guard); not passed on",
                String::from_utf8_lossy(line.trim_ascii())
            ))));
        }
        let Some(run) = self.end_search() else {
            // Every `go` gets one `bestmove`: one without a search is not passed on.
            return out.push(Step::Event(ProxyEvent::Warn(format!(
                "proxy: the engine's '{}' answers no go; not passed on",
                String::from_utf8_lossy(line.trim_ascii())
            ))));
        };
        let guarded = matches!(run.guard, ClockGuard::AnswerAt(_));
        if let Some(reason) = self.illegal_bestmove(line) {
            // The GUI is not misled: the protocol's null move (or, after the clock guard's
            // stop, the engine's best so far), and why.
            let mut answer = b"bestmove ".to_vec();
            match self.best_so_far(&run).filter(|_| guarded) {
                Some(best) => {
                    Self::info_to_gui(
                        out,
                        &format!(
                            "{reason}; after the clock guard's stop: the first move of its last pv instead"
                        ),
                    );
                    answer.extend_from_slice(&best);
                }
                None => {
                    Self::info_to_gui(out, &reason);
                    answer.extend_from_slice(b"0000");
                }
            }
            out.replace(answer);
        } else if let Some(without) = self.without_illegal_ponder(line) {
            // Glaurung 2.2 names a ponder move that is not legal after its best move: a GUI
            // that ponders would search an impossible position. The hint is dropped.
            let translated = self.translated_bestmove(&without);
            out.replace(translated.unwrap_or(without));
        } else if let Some(translated) = self.translated_bestmove(line) {
            out.rewrite(translated);
        } else {
            out.forward();
        }
        self.release(run.after, out);
    }

    /// The search ends (its `bestmove` came, or the clock guard answered): the session is
    /// idle, and the search is returned; `None` (and nothing changes) without one.
    fn end_search(&mut self) -> Option<Box<Running>> {
        match std::mem::replace(&mut self.search, Search::Idle) {
            Search::Running(run) => Some(run),
            other => {
                self.search = other;
                None
            }
        }
    }

    /// Why the engine's `bestmove` is not a move the GUI can play: not legal in the
    /// searched position while that has legal moves (Ethereal answers `a1a1` and Glaurung
    /// `(none)` to a search stopped before its first iteration ends).
    fn illegal_bestmove(&self, line: &[u8]) -> Option<String> {
        let root = &self.root.as_ref()?.position;
        let bestmove = BestMove::parse(line);
        let best = bestmove.best;
        // Without a legal move only a null move is right (Ethereal 12.75 names a move in
        // a mated position).
        if root.legal_moves().is_empty() && bestmove.is_null() {
            return None;
        }
        parse_move(root, best).err().map(|_| {
            format!(
                "the engine's bestmove '{}' is not a legal move in the searched position; \
                 sent as bestmove 0000",
                String::from_utf8_lossy(best)
            )
        })
    }

    /// The `bestmove` line without its `ponder` move when that is not legal after the
    /// (legal) best move.
    fn without_illegal_ponder(&self, line: &[u8]) -> Option<Vec<u8>> {
        let root = &self.root.as_ref()?.position;
        let bestmove = BestMove::parse(line);
        let ponder = bestmove
            .ponder
            .filter(|p| !p.is_empty() && *p != b"(none)")?;
        let best = parse_move(root, bestmove.best).ok()?;
        let mut after = root.clone();
        after.play_unchecked(best);
        if parse_move(&after, ponder).is_ok() {
            return None;
        }
        let mut out = b"bestmove ".to_vec();
        out.extend_from_slice(bestmove.best);
        Some(out)
    }

    /// The `bestmove` line with its moves in the GUI's dialect, when the dialects differ
    /// and the best move is legal.
    fn translated_bestmove(&self, line: &[u8]) -> Option<Vec<u8>> {
        let root = &self
            .root
            .as_ref()
            .filter(|_| self.translation_needed())?
            .position;
        let best = parse_move(root, BestMove::parse(line).best).ok()?;
        let words: Vec<&[u8]> = tokens(line).collect();
        let dialect = self.gui_dialect();
        let mut out = b"bestmove ".to_vec();
        write_move(&best, dialect, &mut out);
        let mut rest = words[2..].iter();
        while let Some(word) = rest.next() {
            out.push(b' ');
            out.extend_from_slice(word);
            if *word == b"ponder"
                && let Some(ponder) = rest.next()
            {
                out.push(b' ');
                let mut after = root.clone();
                shakmaty::Position::play_unchecked(&mut after, best);
                translate_moves(&after, [*ponder], dialect, &mut out);
            }
        }
        Some(out)
    }

    fn engine_info(&mut self, out: &mut Reply) {
        let line = out.line();
        if self.guard_on()
            && let Search::Running(run) = &mut self.search
            && let Some(first) = first_pv_move(line)
        {
            run.last_pv_move = Some(first);
        }
        // Cheapest test first: with both sides in one dialect, no line needs a look.
        match &self.root {
            Some(root) if self.translation_needed() && root.filter.might_match(line) => {
                out.rewrite(translate_info(&root.position, line, self.gui_dialect()));
            }
            _ => out.forward(),
        }
    }

    // ---- GUI side ----

    fn gui_setoption(&mut self, out: &mut Reply) {
        let line = out.line();
        let Some(set) = SetOption::parse(line) else {
            return out.forward();
        };
        let value = set.value();
        if let Some(option) = StartOption::from_name(&set.name) {
            match self.starts.set_option(option, value) {
                Ok(note) => {
                    if let Some(note) = note {
                        out.push(Step::Event(ProxyEvent::Warn(format!("proxy: {note}"))));
                    }
                    self.prepare_engine_for_start(out);
                }
                Err(err) => Self::info_to_gui(out, &format!("{err}: ignored")),
            }
        } else if set.is("UCI_Chess960")
            && !value.eq_ignore_ascii_case(b"true")
            && !value.eq_ignore_ascii_case(b"false")
        {
            // Ethereal reads `value 1.5` its own way, and the proxy would write positions
            // for the other mode.
            Self::info_to_gui(
                out,
                &format!(
                    "refused setoption (UCI_Chess960 takes true or false, not '{}'); not sent \
                     to the engine",
                    String::from_utf8_lossy(value)
                ),
            );
        } else if set.is("UCI_Chess960") {
            self.gui_chess960 = value.eq_ignore_ascii_case(b"true");
            let missing = self.engine.chess960 == Chess960Option::Missing;
            if self.start_active() || (missing && self.config.offer_chess960) {
                // The engine stays in Chess960 mode (in standard mode it would write O-O-O
                // from SP 860 as `c1c1`); the value only selects the GUI's dialect.
                return;
            }
            if !missing {
                self.engine.chess960 = if self.gui_chess960 {
                    Chess960Option::On
                } else {
                    Chess960Option::Off
                };
            }
            self.remember_option(line);
            out.forward();
        } else if set.is("UCI_Variant") && is_chess960_variant(value) {
            // cutechess's way to ask for Chess960 (Fairy-Stockfish would stay in standard
            // chess with it): UCI_Chess960 is what engines understand.
            self.gui_chess960 = true;
            if self.engine.chess960 == Chess960Option::Missing {
                // Its own UCI_Variant may know the name.
                self.remember_option(line);
                out.forward();
            } else if self.engine.chess960 == Chess960Option::Off {
                self.engine.chess960 = Chess960Option::On;
                let line = setoption_line("UCI_Chess960", true);
                self.remember_option(line.as_bytes());
                out.replace(line);
            }
        } else if let Some(reason) = self
            .engine
            .options
            .iter()
            .find(|option| option.name.eq_ignore_ascii_case(&set.name))
            .and_then(|option| option.check_value(value).err())
        {
            // The shield: a value the engine did not declare (Stockfish 15.1 aborts on
            // `setoption name Hash value abc`).
            Self::info_to_gui(
                out,
                &format!("refused setoption ({reason}); not sent to the engine"),
            );
        } else {
            self.remember_option(line);
            out.forward();
        }
    }

    fn gui_position(&mut self, out: &mut Reply) {
        let line = out.line();
        // A `stop` after a new position goes to the engine.
        if let Search::AnsweredByProxy = self.search {
            self.search = Search::Idle;
        }
        match self.read_position(line) {
            Ok((game, from_startpos, notes)) => {
                for note in notes {
                    Self::info_to_gui(out, &note);
                }
                self.tell_about_the_start(line, out);
                self.send_position(&game, from_startpos, out);
                self.position = GuiPosition::Accepted(game.current);
            }
            Err(reason) => {
                Self::info_to_gui(
                    out,
                    &format!(
                        "refused position ({reason}); not sent to the engine, the next go gets \
                         bestmove 0000"
                    ),
                );
                self.position = GuiPosition::Refused;
            }
        }
    }

    /// Once per game: when the GUI's own `position fen` replaces the proxy's start, and
    /// when `startpos` becomes the start for a GUI that has not enabled Chess960 (one
    /// that keeps its own board will reject the engine's moves).
    fn tell_about_the_start(&mut self, line: &[u8], actions: &mut Vec<Action>) {
        let Some(start) = self.starts.current() else {
            return;
        };
        let message = if tokens(line).nth(1) == Some(b"fen") {
            self.told.replaced(start, "position fen")
        } else if !self.gui_chess960 {
            self.told
                .standard_gui(start, "position startpos", "UCI_Chess960")
        } else {
            None
        };
        if let Some(message) = message {
            Self::tell(actions, &message);
        }
    }

    /// The GUI's `position` as a checked line: (line, came from `startpos` with no start
    /// of ours, notes about repaired FEN parts).
    fn read_position(
        &mut self,
        line: &[u8],
    ) -> Result<(GameLine, bool, Vec<String>), PositionRefusal> {
        let command = PositionCommand::parse(line)?;
        let (root, plain_startpos, notes) = match &command.fen {
            None => match self.starts.current() {
                Some(start) => (start.position()?, false, Vec::new()),
                None => (Chess::default(), true, Vec::new()),
            },
            Some(fen) => {
                let (root, notes) = parse_fen(fen)?;
                (root, false, notes)
            }
        };
        let mut game = GameLine::new(root);
        for text in &command.moves {
            game.push_text(text)?;
        }
        Ok((game, plain_startpos, notes))
    }

    fn send_position(&mut self, game: &GameLine, plain_startpos: bool, out: &mut Reply) {
        if has_chess960_castling(&game.root) {
            self.enable_engine_chess960(out);
        }
        let engine = self.engine_chess();
        let mut for_engine = match engine {
            EngineChess::Standard => game.for_standard_engine(),
            EngineChess::Chess960(_) if self.engine.shared_castling_files => {
                let shared = game.for_shared_castling_files();
                if shared.current.castles().castling_rights()
                    != game.current.castles().castling_rights()
                {
                    Self::info_to_gui(
                        out,
                        &format!(
                            "the engine keeps one king file and one rook file per wing for \
                             both colours: it gets castling rights {} instead of {}",
                            shredder_rights(&shared.current),
                            shredder_rights(&game.current)
                        ),
                    );
                }
                shared
            }
            EngineChess::Chess960(_) => game.clone(),
        };
        let long_reversible_tail = for_engine.moves.len() > REBASED_PLIES
            && for_engine.current.halfmoves() > REBASED_PLIES as u32;
        if for_engine.moves.len() > MAX_ENGINE_PLIES || long_reversible_tail {
            for_engine = for_engine.rebased(REBASED_PLIES);
        }
        let mut line = b"position ".to_vec();
        if plain_startpos && for_engine.root == Chess::default() {
            line.extend_from_slice(b"startpos");
        } else {
            line.extend_from_slice(b"fen ");
            line.extend_from_slice(engine.fen(&for_engine.root).as_bytes());
        }
        GameLine::write_moves(&for_engine.moves, engine.dialect(), &mut line);
        self.sent_position = Some(SentPosition {
            line: line.clone(),
            renew: false,
        });
        out.rewrite(line);
    }

    fn gui_go(&mut self, out: &mut Reply) {
        let line = out.line();
        if let GuiPosition::Refused = self.position {
            return self.answer_go(out);
        }
        // The shield: a parameter UCI does not define, a known one without its number, or a
        // limit no search can meet never reaches the engine: on each, Stockfish 15.1 searches
        // forever or never answers `bestmove` (`go garbage`, `go perft 2`, `go depth 0`).
        let white = self
            .position
            .current()
            .is_none_or(|p| p.turn() == shakmaty::Color::White);
        let go = match Go::parse(line) {
            Ok(go) => go,
            Err(GoError::Number(reason) | GoError::Unknown(reason)) => {
                return self.refuse_go(&reason, out);
            }
        };
        if let Some(reason) = go
            .impossible_limit()
            .or_else(|| go.never_ending(white))
            .or_else(|| self.illegal_searchmove(line, &go))
        {
            return self.refuse_go(&reason, out);
        }
        if let Some(sent) = &mut self.sent_position
            && std::mem::take(&mut sent.renew)
        {
            out.push(Action::send(
                Peer::Engine,
                sent.line.clone(),
                Mark::Injected,
            ));
        }
        self.root = self.position.current().map(|position| SearchRoot {
            position: position.clone(),
            filter: CastlingFilter::new(position),
        });
        match self.translated_searchmoves(line) {
            Some(rewritten) => out.rewrite(rewritten),
            None => out.forward(),
        }
        // The line the engine gets: the one read, or its rewrite.
        let sent = match out.fate() {
            Fate::Rewritten(sent) => sent.clone(),
            _ => line.trim_ascii().to_vec(),
        };
        let go = PendingGo {
            line: sent,
            at: self.now(),
            white,
            clock: SearchClock::of(&go, white),
            ponder: go.ponder,
        };
        self.search = Search::Running(Box::new(Running::new(go, &self.config)));
    }

    /// A `go` the engine never gets: why, and the proxy's answer.
    fn refuse_go(&mut self, reason: &str, actions: &mut Reply) {
        Self::info_to_gui(
            actions,
            &format!("refused go ({reason}); not sent to the engine"),
        );
        self.answer_go(actions);
    }

    /// The proxy answers the GUI's `go` itself, with the null move.
    fn answer_go(&mut self, actions: &mut Reply) {
        self.search = Search::AnsweredByProxy;
        actions.push(Action::send(Peer::Gui, "bestmove 0000", Mark::Answered));
    }

    /// The `go` with its `searchmoves` translated for the engine and put last, if it
    /// has any.
    fn translated_searchmoves(&self, line: &[u8]) -> Option<Vec<u8>> {
        let root = match &self.root {
            Some(root) if memmem::find(line, b"searchmoves").is_some() => &root.position,
            _ => return None,
        };
        let go = Go::parse(line).ok()?;
        let dialect = self.engine_chess().dialect();
        let trimmed = line.trim_ascii_end();
        let out = if go
            .searchmoves
            .last()
            .is_some_and(|m| m.end == trimmed.len())
        {
            rewrite_spans(line, &go.searchmoves, |moves, out| {
                translate_moves(root, moves.iter().map(|m| &line[m.clone()]), dialect, out);
            })
        } else {
            // Stockfish 15.1 reads every word after `searchmoves` as a move (`depth 3`
            // too): the moves go last.
            let mut out = go.to_string().into_bytes();
            out.extend_from_slice(b" searchmoves ");
            translate_moves(
                root,
                go.searchmoves.iter().map(|m| &line[m.clone()]),
                dialect,
                &mut out,
            );
            out
        };
        Some(out)
    }

    /// A `searchmoves` move that is not legal in the position (Stockfish, Glaurung and
    /// Fairy-Stockfish answer `bestmove (none)` when none is).
    fn illegal_searchmove(&self, line: &[u8], go: &Go) -> Option<String> {
        let position = self.position.current()?;
        go.searchmoves.iter().find_map(|span| {
            let text = &line[span.clone()];
            parse_move(position, text).err().map(|_| {
                format!(
                    "go: searchmoves '{}' is not a legal move here",
                    String::from_utf8_lossy(text)
                )
            })
        })
    }

    /// A GUI line once the engine's options are known.
    fn gui_line(&mut self, out: &mut Reply) {
        let line = out.line();
        let first = first_token(line);
        if let Search::Running(run) = &mut self.search {
            if first != b"quit" && !run.after.is_empty() {
                return run.after.push(line.to_vec());
            }
            return self.gui_line_during_search(first, out);
        }
        match first {
            b"setoption" => self.gui_setoption(out),
            b"ucinewgame" => {
                self.restarts.new_game();
                self.starts.new_game();
                self.told.new_game();
                if let Some(sent) = &mut self.sent_position {
                    sent.renew = true;
                }
                out.forward();
            }
            b"position" => self.gui_position(out),
            b"go" => self.gui_go(out),
            b"stop" | b"ponderhit" if matches!(self.search, Search::AnsweredByProxy) => {}
            b"quit" => {
                out.forward();
                out.push(Step::Event(ProxyEvent::Shutdown));
            }
            _ => out.forward(),
        }
    }
}

/// The running search: the GUI's lines during it, `stop` and `ponderhit`.
impl UciSession {
    /// A GUI line while the engine searches. `position`, `go`, `setoption` and
    /// `ucinewgame` never reach a searching engine (Stockfish 15.1 dies on some, and the
    /// search's `bestmove` would answer the wrong `go`): the search is stopped, its
    /// `bestmove` passed on, then they go. `isready` is answered by the proxy (Glaurung
    /// 2.2 answers none during a search).
    fn gui_line_during_search(&mut self, first: &[u8], out: &mut Reply) {
        let line = out.line();
        let now = self.now();
        let Search::Running(run) = &mut self.search else {
            return;
        };
        match first {
            // Forwarded once the engine has been heard since its `go` (else held until it
            // is, at most [`EARLY_WAIT`]); a second `stop` is dropped. `ponderhit` puts
            // the pondering search on its clock.
            b"stop" | b"ponderhit" => {
                if run.stop_or_ponderhit(first == b"stop", line, now, &self.config) {
                    out.forward();
                }
            }
            b"isready" => out.push(Action::send(Peer::Gui, "readyok", Mark::Answered)),
            b"position" | b"go" | b"setoption" | b"ucinewgame" => {
                run.after.push(line.to_vec());
                // Our own `stop`, not the line read (held, or sent now).
                if !run.stop_pending() && run.stop_or_ponderhit(true, b"stop", now, &self.config) {
                    out.push(Action::send(Peer::Engine, "stop", Mark::Injected));
                }
            }
            b"quit" => {
                out.forward();
                out.push(Step::Event(ProxyEvent::Shutdown));
            }
            _ => out.forward(),
        }
    }

    /// The held `stop` / `ponderhit` lines go when their deadline has come.
    fn release_early_at(&mut self, now: Instant, actions: &mut Vec<Action>) {
        if let Search::Running(run) = &mut self.search
            && run.early_deadline().is_some_and(|at| at <= now)
        {
            run.release_early(false, actions);
        }
    }
}

/// The clock guard (`--max-overrun`, `--max-search`) and the engine restart
/// (`--restart-engine`).
impl UciSession {
    fn guard_on(&self) -> bool {
        self.config.max_overrun.is_some() || self.config.max_search.is_some()
    }

    /// The engine's best move so far in `run`, legal in the searched position, as the GUI
    /// writes it.
    fn best_so_far(&self, run: &Running) -> Option<Vec<u8>> {
        let root = &self.root.as_ref()?.position;
        let best = parse_move(root, run.last_pv_move.as_deref()?).ok()?;
        let mut out = Vec::new();
        write_move(&best, self.gui_dialect(), &mut out);
        Some(out)
    }

    fn guard_timeout(&mut self, now: Instant, actions: &mut Vec<Action>) {
        let Search::Running(run) = &mut self.search else {
            return;
        };
        match run.guard {
            ClockGuard::StopAt(at) if now >= at => {
                let limit = match (
                    run.go.clock.clock,
                    self.config.max_overrun,
                    self.config.max_search,
                ) {
                    (Some(clock), Some(margin), _) => format!(
                        "the go's {} ms + {} ms (--max-overrun)",
                        clock.as_millis(),
                        margin.as_millis()
                    ),
                    (_, _, Some(search)) => format!("{} ms (--max-search)", search.as_millis()),
                    _ => "its limit".to_owned(),
                };
                Self::tell(
                    actions,
                    &format!("clock guard: no bestmove within {limit}; stop sent to the engine"),
                );
                if run.guard_stop() {
                    actions.push(Action::send(Peer::Engine, "stop", Mark::Injected));
                }
                run.guard = ClockGuard::AnswerAt(now + STOP_GRACE);
            }
            ClockGuard::AnswerAt(at) if now >= at => self.guard_answers(actions),
            ClockGuard::Off | ClockGuard::StopAt(_) | ClockGuard::AnswerAt(_) => {}
        }
    }

    /// No `bestmove` [`STOP_GRACE`] after the guard's `stop`: the GUI gets the engine's
    /// best so far, and the search ends.
    fn guard_answers(&mut self, actions: &mut Vec<Action>) {
        let Some(run) = self.end_search() else {
            return;
        };
        let (best, what) = match self.best_so_far(&run) {
            Some(best) => {
                let text = String::from_utf8_lossy(&best).into_owned();
                (best, format!("the first move of its last pv, {text}"))
            }
            None => (
                b"0000".to_vec(),
                "bestmove 0000 (no legal pv move)".to_owned(),
            ),
        };
        Self::tell(
            actions,
            &format!(
                "clock guard: no bestmove {} ms after stop; the GUI gets {what}",
                STOP_GRACE.as_millis()
            ),
        );
        let mut line = b"bestmove ".to_vec();
        line.extend_from_slice(&best);
        actions.push(Action::send(Peer::Gui, line, Mark::Answered));
        self.stale_bestmoves += 1;
        self.release(run.after, actions);
    }

    /// The engine exited unasked: restarted within the budget, else told.
    fn engine_exit(&mut self, how: &str, restartable: bool, actions: &mut Vec<Action>) {
        let budget = self.restarts.budget();
        match self.restarts.verdict(restartable, self.link.ready()) {
            ExitVerdict::Final => return Self::info_to_gui(actions, &format!("the engine {how}")),
            ExitVerdict::Spent => {
                return Self::tell(
                    actions,
                    &format!(
                        "the engine {how}; restarted {budget} time(s) in this game already \
                         (--restart-engine {budget}): giving up"
                    ),
                );
            }
            ExitVerdict::Restart => {}
        }
        let number = self.restarts.begin();
        Self::tell(
            actions,
            &format!(
                "the engine {how}; restarting it ({number} of {budget} in this game), then its \
                 options, the position{}",
                if self.searching() { " and the go" } else { "" }
            ),
        );
        actions.push(Step::Event(ProxyEvent::Restart));
        actions.push(Action::send(Peer::Engine, "uci", Mark::Injected));
        self.link = Link::Restarting(self.link.open());
        // A search the proxy answered itself gets no bestmove from the new engine.
        self.stale_bestmoves = 0;
    }

    /// The restarted engine's `uciok`: the options the engine had, the position and the
    /// running search's `go` with the time spent taken off its clocks (a `stop` it had
    /// is held again until the new engine is heard), then the GUI's held lines.
    fn replay(&mut self, actions: &mut Vec<Action>) {
        for (_, line) in self.restarts.settings() {
            actions.push(Action::send(Peer::Engine, line.to_vec(), Mark::Injected));
        }
        if let Some(sent) = &self.sent_position {
            actions.push(Action::send(
                Peer::Engine,
                sent.line.clone(),
                Mark::Injected,
            ));
        }
        let now = self.now();
        if let Search::Running(run) = &mut self.search {
            let go = &run.go;
            let spent = now.saturating_duration_since(go.at);
            let line = recovery::reduce_clocks(&go.line, go.white, spent);
            let spent = if line == go.line.trim_ascii() {
                String::new()
            } else {
                format!(" with the {} ms spent off its clock", spent.as_millis())
            };
            Self::tell(
                actions,
                &format!(
                    "the engine restarted; the go sent again{spent}: {}",
                    String::from_utf8_lossy(&line)
                ),
            );
            actions.push(Action::send(Peer::Engine, line, Mark::Injected));
            run.restarted(now);
        }
        let held = self.link.open();
        self.release(held, actions);
    }
}

/// The first move of the principal variation of an `info` line (of `multipv 1`): the
/// engine's best so far.
fn first_pv_move(line: &[u8]) -> Option<Vec<u8>> {
    memmem::find(line, b" pv ")?;
    if tokens(line).any(|word| word == b"multipv")
        && tokens(line).skip_while(|w| *w != b"multipv").nth(1) != Some(b"1")
    {
        return None;
    }
    let list = info_move_lists(line)
        .into_iter()
        .find(|list| list.field == "pv")?;
    let first = list.moves.first()?;
    Some(line[first.clone()].to_vec())
}

/// `line` (its trailing whitespace dropped) with the bytes of `spans` (in order, not
/// overlapping) replaced: the first span through the last by what `write` makes of them
/// all; every other byte is copied.
fn rewrite_spans(
    line: &[u8],
    spans: &[std::ops::Range<usize>],
    write: impl FnOnce(&[std::ops::Range<usize>], &mut Vec<u8>),
) -> Vec<u8> {
    let line = line.trim_ascii_end();
    let (Some(first), Some(last)) = (spans.first(), spans.last()) else {
        return line.to_vec();
    };
    let mut out = Vec::with_capacity(line.len() + 8);
    out.extend_from_slice(&line[..first.start]);
    write(spans, &mut out);
    out.extend_from_slice(&line[last.end..]);
    out
}

/// An `info` line with the moves after `pv`, `currmove`, `refutation` and `currline`
/// written in `dialect`; every other byte (the text after `string` among them) is copied.
pub fn translate_info(root: &Chess, line: &[u8], dialect: CastlingDialect) -> Vec<u8> {
    let line = line.trim_ascii_end();
    let mut out = Vec::with_capacity(line.len() + 8);
    let mut copied = 0;
    for list in info_move_lists(line) {
        let (Some(first), Some(last)) = (list.moves.first(), list.moves.last()) else {
            continue;
        };
        out.extend_from_slice(&line[copied..first.start]);
        translate_moves(
            root,
            list.moves.iter().map(|m| &line[m.clone()]),
            dialect,
            &mut out,
        );
        copied = last.end;
    }
    out.extend_from_slice(&line[copied..]);
    out
}

impl Relay for UciSession {
    fn on_gui_line(&mut self, line: &[u8], actions: &mut Vec<Action>) {
        if first_token(line) == b"uci" {
            self.link = match std::mem::replace(&mut self.link, Link::Ready) {
                Link::Unstarted => Link::AwaitingUciok(Vec::new()),
                Link::Ready => Link::Held(Vec::new()),
                holding => holding,
            };
            return actions.push(Action::Forward);
        }
        // Between `uci` and `uciok` the engine's options (UCI_Chess960 above all) are not
        // known yet: lines are held until `uciok` (UCI says GUIs wait for it).
        match self.link.held() {
            Some(held) => held.push(line.to_vec()),
            None => self.gui_line(&mut Reply::new(actions, line, Peer::Engine)),
        }
    }

    fn on_engine_line(&mut self, line: &[u8], actions: &mut Vec<Action>) {
        let first = first_token(line);
        if let Link::Restarting(_) = self.link {
            // The restarted engine's handshake: the GUI had it once.
            if first == b"uciok" {
                self.replay(actions);
            }
            return;
        }
        // The search's first `info` says it has begun (a `readyok` may answer an
        // `isready` read before the `go`, and Ethereal answers `setoption` with an
        // `info string`).
        if let Search::Running(run) = &mut self.search
            && let Stop::Unheard(_) = run.stop
            && first == b"info"
            && tokens(line).nth(1) != Some(b"string")
        {
            run.release_early(true, actions);
        }
        let out = &mut Reply::new(actions, line, Peer::Gui);
        match first {
            b"info" => self.engine_info(out),
            b"bestmove" => self.engine_bestmove(out),
            b"option" => self.engine_option(out),
            b"uciok" => self.engine_uciok(out),
            b"id" => {
                let mut words = tokens(line).skip(1);
                if words.next() == Some(b"name".as_slice())
                    && let Some(name) = words.next()
                {
                    self.engine.shared_castling_files =
                        quirks(&String::from_utf8_lossy(name)).shared_castling_files;
                }
                out.forward();
            }
            _ => out.forward(),
        }
    }

    fn on_gui_eof(&mut self, actions: &mut Vec<Action>) {
        if let Some(held) = self.link.held() {
            // Held lines go at `uciok`, then a quit (the shell waits a bounded time).
            if !held.iter().any(|line| first_token(line) == b"quit") {
                held.push(b"quit".to_vec());
            }
            return;
        }
        actions.push(Action::send(Peer::Engine, "quit", Mark::Injected));
        actions.push(Step::Event(ProxyEvent::Shutdown));
    }

    fn on_engine_exit(&mut self, how: &str, restartable: bool, actions: &mut Vec<Action>) {
        self.engine_exit(how, restartable, actions);
    }

    fn on_engine_eof(&mut self) {
        if self.link == Link::Ready && self.restarts.possible(true) {
            self.link = Link::Held(Vec::new());
        }
    }

    fn set_now(&mut self, now: Instant) {
        self.now = Some(now);
    }

    /// The first of the running search's deadlines: the held `stop` / `ponderhit`
    /// ([`EARLY_WAIT`]) and the clock guard's.
    fn poll_timeout(&self) -> Option<Instant> {
        let Search::Running(run) = &self.search else {
            return None;
        };
        match (run.early_deadline(), run.guard_deadline()) {
            (Some(early), Some(guard)) => Some(early.min(guard)),
            (early, guard) => early.or(guard),
        }
    }

    /// The deadlines that have come, the earlier first.
    fn handle_timeout(&mut self, now: Instant, actions: &mut Vec<Action>) {
        self.now = Some(now);
        let guard_first = match &self.search {
            Search::Running(run) => run
                .guard_deadline()
                .zip(run.early_deadline())
                .is_some_and(|(guard, early)| guard < early),
            _ => false,
        };
        if !guard_first {
            self.release_early_at(now, actions);
        }
        self.guard_timeout(now, actions);
        self.release_early_at(now, actions);
    }
}

#[cfg(test)]
#[path = "uci_tests.rs"]
mod tests;
