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
use crate::proxy::recovery::{self, SearchClock};
pub use crate::proxy::starts::{BLACK_START_OPTION, START_OPTION};
use crate::proxy::starts::{StartChoice, StartNotices, StartOption, StartSelector};
use crate::proxy::{
    Action, Mark, Peer, ProxyEvent, Relay, Step, forward_unless_changed, release_held,
};
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
enum Handshake {
    /// GUI lines are handled as they come (before the GUI's `uci`, and after `uciok`).
    Open,
    /// The GUI sent `uci` (or the engine's output ended, and a restart may follow): its
    /// lines are held until the engine's `uciok`, then handled with the engine's options
    /// known.
    AwaitingUciok(Vec<Vec<u8>>),
    /// A restarted engine's handshake: its lines are consumed until its `uciok`, then the
    /// replay; the GUI's lines are held until after it.
    Restarting(Vec<Vec<u8>>),
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

/// The UCI proxy session. Its bools are independent facts, each set by its own lines.
pub struct UciSession {
    config: UciConfig,
    /// The start of the games (command line and `SP960_Start` / `SP960_BlackStart`).
    starts: StartSelector,
    /// The engine's `UCI_Chess960`: missing, off or on.
    engine_chess960: Chess960Option,
    /// The GUI was told the engine has no `UCI_Chess960` (once).
    warned_no_chess960: bool,
    /// The GUI enabled Chess960 (`UCI_Chess960`, or `UCI_Variant chess960`): its castling
    /// dialect unless `--gui-castling` says.
    gui_chess960: bool,
    /// The reason the last `position` was refused; `go` is answered while set.
    refused: Option<PositionRefusal>,
    /// The engine's handshake: the GUI's lines held until `uciok`, or a restart's.
    handshake: Handshake,
    /// The GUI's current position, once a `position` was accepted.
    position: Option<Chess>,
    /// Root of the engine's current or last search, for translating its output.
    search_root: Option<Chess>,
    /// Finds castling texts of `search_root` in engine output.
    castling_filter: Option<CastlingFilter>,
    /// What the GUI was told about the start in this game (once per game).
    told: StartNotices,
    /// The engine's own options, as it declared them (for checking the GUI's values).
    engine_options: Vec<OptionDecl>,
    /// The engine's search: none, answered by the proxy, or running (its `go`, what it
    /// was told to stop it, the clock guard, the GUI lines held for after it).
    search: Search,
    /// The `position` line the engine got last.
    last_position: Option<Vec<u8>>,
    /// A `ucinewgame` came after `last_position`: it is sent again before the next `go`
    /// (Glaurung 2.2 searches the start position after `position`, `ucinewgame`, `go`).
    renew_position: bool,
    /// The engine keeps one king file and one rook file per wing for both colours
    /// ([`crate::protocol::quirks::Quirks::shared_castling_files`] of its `id name`:
    /// Glaurung 2.2 reads `HDfa` as one set of files and corrupts its memory,
    /// docs/hostile-gui.md): its positions come from
    /// [`GameLine::for_shared_castling_files`].
    shared_castling_files: bool,
    /// The shell's clock at the last line read or timeout.
    now: Option<Instant>,
    /// `bestmove`s still to come for searches the proxy answered itself (dropped).
    stale_bestmoves: u32,
    /// The `setoption` lines the engine got, the last per option name (lowercase), in
    /// order: replayed to a restarted engine.
    options_sent: Vec<(Vec<u8>, Vec<u8>)>,
    /// The engine answered `uciok` once: it can be restarted.
    handshake_done: bool,
    /// Restarts in this game (since `ucinewgame`).
    restarts: u32,
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
            config,
            engine_chess960: Chess960Option::Missing,
            warned_no_chess960: false,
            gui_chess960: false,
            refused: None,
            handshake: Handshake::Open,
            position: None,
            search_root: None,
            castling_filter: None,
            told: StartNotices::default(),
            engine_options: Vec::new(),
            search: Search::Idle,
            last_position: None,
            renew_position: false,
            shared_castling_files: false,
            now: None,
            stale_bestmoves: 0,
            options_sent: Vec::new(),
            handshake_done: false,
            restarts: 0,
        }
    }

    fn now(&self) -> Instant {
        self.now.unwrap_or_else(Instant::now)
    }

    /// Notes a `setoption` line the engine gets (replacing an earlier one of the option).
    fn remember_option(&mut self, line: &[u8]) {
        if self.config.restart_engine == 0 {
            return;
        }
        let Some(set) = SetOption::parse(line) else {
            return;
        };
        // Only the engine's own options matter to it (and hostile input names endless
        // others: kept, they would grow without bound).
        if !self
            .engine_options
            .iter()
            .any(|option| option.name.eq_ignore_ascii_case(&set.name))
        {
            return;
        }
        let name = set.name.to_ascii_lowercase();
        self.options_sent.retain(|(known, _)| *known != name);
        self.options_sent.push((name, line.trim_ascii().to_vec()));
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
        if self.engine_chess960 == Chess960Option::On {
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

    /// Puts the engine into Chess960 mode if it can be and is not.
    fn enable_engine_chess960(&mut self, actions: &mut Vec<Action>) {
        if self.engine_chess960 == Chess960Option::Off {
            let line = setoption_line("UCI_Chess960", true);
            self.remember_option(line.as_bytes());
            actions.push(Action::send(Peer::Engine, line, Mark::Injected));
            self.engine_chess960 = Chess960Option::On;
        }
    }

    /// After `uciok` or when the GUI picks a start: the engine into Chess960 mode, or
    /// the warning (or failure) when it has no such mode.
    fn prepare_engine_for_start(&mut self, actions: &mut Vec<Action>) {
        if !self.start_active() {
            return;
        }
        if self.engine_chess960 != Chess960Option::Missing {
            self.enable_engine_chess960(actions);
            return;
        }
        let message = "the engine has no UCI_Chess960 option: it plays the start as standard \
                       chess without castling (after a Chess960 castling move it gets the \
                       position from there on)";
        if self.config.require_chess960 {
            Self::info_to_gui(actions, "the engine has no UCI_Chess960 option");
            actions.push(Step::Event(ProxyEvent::Fail {
                code: NO_CHESS960_EXIT,
                message: "proxy: the engine has no UCI_Chess960 option and --require-chess960 \
                          was given"
                    .to_owned(),
            }));
        } else if !self.warned_no_chess960 {
            self.warned_no_chess960 = true;
            Self::info_to_gui(actions, message);
            actions.push(Step::Event(ProxyEvent::Warn(format!("proxy: {message}"))));
        }
    }

    fn our_options(&self) -> [String; 2] {
        let (white, black) = self.starts.option_defaults();
        [
            spin_option_line(START_OPTION, white.into(), -2, 959),
            spin_option_line(BLACK_START_OPTION, black.into(), -1, 959),
        ]
    }

    // ---- engine side ----

    fn engine_option(&mut self, line: &[u8], actions: &mut Vec<Action>) {
        let option = OptionDecl::parse(line);
        self.engine_options.push(option.clone());
        if option.is("UCI_Chess960") {
            if self.engine_chess960 == Chess960Option::Missing {
                self.engine_chess960 = Chess960Option::Off;
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
                actions.push(Action::send(Peer::Gui, words.join(&b' '), Mark::Rewritten));
                return;
            }
        }
        actions.push(Action::Forward);
    }

    fn engine_uciok(&mut self, actions: &mut Vec<Action>) {
        self.handshake_done = true;
        // The engine hears `UCI_Chess960 true` before the GUI can hear `uciok`, so before
        // anything the GUI sends after it.
        let first = actions.len();
        self.prepare_engine_for_start(actions);
        if actions[first..]
            .iter()
            .any(|a| matches!(a, Step::Event(ProxyEvent::Fail { .. })))
        {
            return;
        }
        if self.config.offer_chess960 && self.engine_chess960 == Chess960Option::Missing {
            actions.push(Action::send(
                Peer::Gui,
                check_option_line("UCI_Chess960", false),
                Mark::Injected,
            ));
        }
        for option in self.our_options() {
            actions.push(Action::send(Peer::Gui, option, Mark::Injected));
        }
        actions.push(Action::Forward);
        // Lines the GUI sent too early now go, read with the engine's options known.
        self.release_held(actions);
    }

    /// Handles the GUI lines held while waiting for `uciok`.
    fn release_held(&mut self, actions: &mut Vec<Action>) {
        let held = match std::mem::replace(&mut self.handshake, Handshake::Open) {
            Handshake::AwaitingUciok(held) | Handshake::Restarting(held) => held,
            Handshake::Open => Vec::new(),
        };
        release_held(held, actions, |line, out| self.gui_line(line, out));
    }

    fn engine_bestmove(&mut self, line: &[u8], actions: &mut Vec<Action>) {
        if self.stale_bestmoves > 0 {
            // The answer to a search the clock guard answered itself.
            self.stale_bestmoves -= 1;
            return actions.push(Step::Event(ProxyEvent::Warn(format!(
                "proxy: the engine's late '{}' (its search was answered by the clock guard); not passed on",
                String::from_utf8_lossy(line.trim_ascii())
            ))));
        }
        let Some(run) = self.end_search() else {
            // Every `go` gets one `bestmove`: one without a search is not passed on.
            return actions.push(Step::Event(ProxyEvent::Warn(format!(
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
                        actions,
                        &format!(
                            "{reason}; after the clock guard's stop: the first move of its last pv instead"
                        ),
                    );
                    answer.extend_from_slice(&best);
                }
                None => {
                    Self::info_to_gui(actions, &reason);
                    answer.extend_from_slice(b"0000");
                }
            }
            actions.push(Action::send(Peer::Gui, answer, Mark::Rewritten));
        } else if let Some(without) = self.without_illegal_ponder(line) {
            // Glaurung 2.2 names a ponder move that is not legal after its best move: a GUI
            // that ponders would search an impossible position. The hint is dropped.
            let first = actions.len();
            self.pass_bestmove(&without, actions);
            for action in &mut actions[first..] {
                if *action == Action::Forward {
                    *action = Action::send(Peer::Gui, without.clone(), Mark::Rewritten);
                }
            }
        } else {
            self.pass_bestmove(line, actions);
        }
        self.release_after_search(run.after, actions);
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

    /// The GUI's lines held during the search go now (in the same batch, and the shell
    /// flushes the engine's side first).
    fn release_after_search(&mut self, after: Vec<Vec<u8>>, actions: &mut Vec<Action>) {
        release_held(after, actions, |line, out| self.gui_line(line, out));
    }

    /// Why the engine's `bestmove` is not a move the GUI can play: not legal in the
    /// searched position while that has legal moves (Ethereal answers `a1a1` and Glaurung
    /// `(none)` to a search stopped before its first iteration ends).
    fn illegal_bestmove(&self, line: &[u8]) -> Option<String> {
        let root = self.search_root.as_ref()?;
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
        let root = self.search_root.as_ref()?;
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

    fn pass_bestmove(&mut self, line: &[u8], actions: &mut Vec<Action>) {
        let (Some(root), true) = (&self.search_root, self.translation_needed()) else {
            return actions.push(Action::Forward);
        };
        let Ok(best) = parse_move(root, BestMove::parse(line).best) else {
            return actions.push(Action::Forward);
        };
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
        forward_unless_changed(actions, Peer::Gui, line, out);
    }

    fn engine_info(&mut self, line: &[u8], actions: &mut Vec<Action>) {
        if self.guard_on()
            && let Search::Running(run) = &mut self.search
            && let Some(first) = first_pv_move(line)
        {
            run.last_pv_move = Some(first);
        }
        // Cheapest test first: with both sides in one dialect, no line needs a look.
        let root = match &self.search_root {
            Some(root)
                if self.translation_needed()
                    && self
                        .castling_filter
                        .as_ref()
                        .is_some_and(|filter| filter.might_match(line)) =>
            {
                root
            }
            _ => return actions.push(Action::Forward),
        };
        let out = translate_info(root, line, self.gui_dialect());
        forward_unless_changed(actions, Peer::Gui, line, out);
    }

    // ---- GUI side ----

    fn gui_setoption(&mut self, line: &[u8], actions: &mut Vec<Action>) {
        let Some(set) = SetOption::parse(line) else {
            return actions.push(Action::Forward);
        };
        let value = set.value();
        if let Some(option) = StartOption::from_name(&set.name) {
            match self.starts.set_option(option, value) {
                Ok(note) => {
                    if let Some(note) = note {
                        actions.push(Step::Event(ProxyEvent::Warn(format!("proxy: {note}"))));
                    }
                    self.prepare_engine_for_start(actions);
                }
                Err(err) => Self::info_to_gui(actions, &format!("{err}: ignored")),
            }
        } else if set.is("UCI_Chess960")
            && !value.eq_ignore_ascii_case(b"true")
            && !value.eq_ignore_ascii_case(b"false")
        {
            // Ethereal reads `value 1.5` its own way, and the proxy would write positions
            // for the other mode.
            Self::info_to_gui(
                actions,
                &format!(
                    "refused setoption (UCI_Chess960 takes true or false, not '{}'); not sent \
                     to the engine",
                    String::from_utf8_lossy(value)
                ),
            );
        } else if set.is("UCI_Chess960") {
            self.gui_chess960 = value.eq_ignore_ascii_case(b"true");
            let missing = self.engine_chess960 == Chess960Option::Missing;
            if self.start_active() || (missing && self.config.offer_chess960) {
                // The engine stays in Chess960 mode (in standard mode it would write O-O-O
                // from SP 860 as `c1c1`); the value only selects the GUI's dialect.
                return;
            }
            if !missing {
                self.engine_chess960 = if self.gui_chess960 {
                    Chess960Option::On
                } else {
                    Chess960Option::Off
                };
            }
            self.remember_option(line);
            actions.push(Action::Forward);
        } else if set.is("UCI_Variant") && is_chess960_variant(value) {
            // cutechess's way to ask for Chess960 (Fairy-Stockfish would stay in standard
            // chess with it): UCI_Chess960 is what engines understand.
            self.gui_chess960 = true;
            if self.engine_chess960 == Chess960Option::Missing {
                // Its own UCI_Variant may know the name.
                self.remember_option(line);
                actions.push(Action::Forward);
            } else if self.engine_chess960 == Chess960Option::Off {
                self.engine_chess960 = Chess960Option::On;
                let line = setoption_line("UCI_Chess960", true);
                self.remember_option(line.as_bytes());
                actions.push(Action::send(Peer::Engine, line, Mark::Rewritten));
            }
        } else if let Some(reason) = self
            .engine_options
            .iter()
            .find(|option| option.name.eq_ignore_ascii_case(&set.name))
            .and_then(|option| option.check_value(value).err())
        {
            // The shield: a value the engine did not declare (Stockfish 15.1 aborts on
            // `setoption name Hash value abc`).
            Self::info_to_gui(
                actions,
                &format!("refused setoption ({reason}); not sent to the engine"),
            );
        } else {
            self.remember_option(line);
            actions.push(Action::Forward);
        }
    }

    fn gui_position(&mut self, line: &[u8], actions: &mut Vec<Action>) {
        // A `stop` after a new position goes to the engine.
        if let Search::AnsweredByProxy = self.search {
            self.search = Search::Idle;
        }
        match self.read_position(line) {
            Ok((game, from_startpos, notes)) => {
                for note in notes {
                    Self::info_to_gui(actions, &note);
                }
                self.tell_about_the_start(line, actions);
                self.refused = None;
                self.send_position(line, &game, from_startpos, actions);
                self.position = Some(game.current);
            }
            Err(reason) => {
                Self::info_to_gui(
                    actions,
                    &format!(
                        "refused position ({reason}); not sent to the engine, the next go gets \
                         bestmove 0000"
                    ),
                );
                self.refused = Some(reason);
                self.position = None;
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
        let Some(message) = message else {
            return;
        };
        Self::info_to_gui(actions, &message);
        actions.push(Step::Event(ProxyEvent::Warn(format!("proxy: {message}"))));
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

    fn send_position(
        &mut self,
        original: &[u8],
        game: &GameLine,
        plain_startpos: bool,
        actions: &mut Vec<Action>,
    ) {
        if has_chess960_castling(&game.root) {
            self.enable_engine_chess960(actions);
        }
        let engine = self.engine_chess();
        let mut for_engine = match engine {
            EngineChess::Standard => game.for_standard_engine(),
            EngineChess::Chess960(_) if self.shared_castling_files => {
                let shared = game.for_shared_castling_files();
                if shared.current.castles().castling_rights()
                    != game.current.castles().castling_rights()
                {
                    Self::info_to_gui(
                        actions,
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
        let mut out = b"position ".to_vec();
        if plain_startpos && for_engine.root == Chess::default() {
            out.extend_from_slice(b"startpos");
        } else {
            out.extend_from_slice(b"fen ");
            out.extend_from_slice(engine.fen(&for_engine.root).as_bytes());
        }
        GameLine::write_moves(&for_engine.moves, engine.dialect(), &mut out);
        self.last_position = Some(out.clone());
        self.renew_position = false;
        forward_unless_changed(actions, Peer::Engine, original, out);
    }

    fn gui_go(&mut self, line: &[u8], actions: &mut Vec<Action>) {
        if self.refused.is_some() {
            return self.answer_go(actions);
        }
        // The shield: a parameter UCI does not define, a known one without its number, or a
        // limit no search can meet never reaches the engine: on each, Stockfish 15.1 searches
        // forever or never answers `bestmove` (`go garbage`, `go perft 2`, `go depth 0`).
        let white = self
            .position
            .as_ref()
            .is_none_or(|p| p.turn() == shakmaty::Color::White);
        let go = match Go::parse(line) {
            Ok(go) => go,
            Err(GoError::Number(reason) | GoError::Unknown(reason)) => {
                return self.refuse_go(&reason, actions);
            }
        };
        if let Some(reason) = go
            .impossible_limit()
            .or_else(|| go.never_ending(white))
            .or_else(|| self.illegal_searchmove(line, &go))
        {
            return self.refuse_go(&reason, actions);
        }
        if std::mem::take(&mut self.renew_position)
            && let Some(position) = &self.last_position
        {
            actions.push(Action::send(Peer::Engine, position.clone(), Mark::Injected));
        }
        self.search_root = self.position.clone();
        self.castling_filter = self.search_root.as_ref().map(CastlingFilter::new);
        let first = actions.len();
        self.forward_go(line, actions);
        // The line the engine gets: the one read, or its rewrite.
        let sent = actions[first..]
            .iter()
            .find_map(|action| match action {
                Action::Send {
                    to: Peer::Engine,
                    line,
                    ..
                } if first_token(line) == b"go" => Some(line.clone()),
                _ => None,
            })
            .unwrap_or_else(|| line.trim_ascii().to_vec());
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
    fn refuse_go(&mut self, reason: &str, actions: &mut Vec<Action>) {
        Self::info_to_gui(
            actions,
            &format!("refused go ({reason}); not sent to the engine"),
        );
        self.answer_go(actions);
    }

    /// The proxy answers the GUI's `go` itself, with the null move.
    fn answer_go(&mut self, actions: &mut Vec<Action>) {
        self.search = Search::AnsweredByProxy;
        actions.push(Action::send(Peer::Gui, "bestmove 0000", Mark::Answered));
    }

    /// Sends the `go` (`searchmoves` translated) to the engine.
    fn forward_go(&mut self, line: &[u8], actions: &mut Vec<Action>) {
        let root = match &self.search_root {
            Some(root) if memmem::find(line, b"searchmoves").is_some() => root,
            _ => return actions.push(Action::Forward),
        };
        let Ok(go) = Go::parse(line) else {
            return actions.push(Action::Forward);
        };
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
        forward_unless_changed(actions, Peer::Engine, line, out);
    }

    /// A `searchmoves` move that is not legal in the position (Stockfish, Glaurung and
    /// Fairy-Stockfish answer `bestmove (none)` when none is).
    fn illegal_searchmove(&self, line: &[u8], go: &Go) -> Option<String> {
        let position = self.position.as_ref()?;
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
    fn gui_line(&mut self, line: &[u8], actions: &mut Vec<Action>) {
        let first = first_token(line);
        if let Search::Running(run) = &mut self.search {
            if first != b"quit" && !run.after.is_empty() {
                return run.after.push(line.to_vec());
            }
            return self.gui_line_during_search(first, line, actions);
        }
        match first {
            b"setoption" => self.gui_setoption(line, actions),
            b"ucinewgame" => {
                self.restarts = 0;
                self.starts.new_game();
                self.told.new_game();
                self.renew_position = self.last_position.is_some();
                actions.push(Action::Forward);
            }
            b"position" => self.gui_position(line, actions),
            b"go" => self.gui_go(line, actions),
            b"stop" | b"ponderhit" if matches!(self.search, Search::AnsweredByProxy) => {}
            b"quit" => {
                actions.push(Action::Forward);
                actions.push(Step::Event(ProxyEvent::Shutdown));
            }
            _ => actions.push(Action::Forward),
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
    fn gui_line_during_search(&mut self, first: &[u8], line: &[u8], actions: &mut Vec<Action>) {
        match first {
            b"stop" | b"ponderhit" => self.gui_stop(first, line, actions),
            b"isready" => actions.push(Action::send(Peer::Gui, "readyok", Mark::Answered)),
            b"position" | b"go" | b"setoption" | b"ucinewgame" => {
                let Search::Running(run) = &mut self.search else {
                    return;
                };
                run.after.push(line.to_vec());
                if !run.stop_pending() {
                    let before = actions.len();
                    self.gui_stop(b"stop", b"stop", actions);
                    // Sent now (not held): our own line, not the one read.
                    if actions.len() > before {
                        actions.truncate(before);
                        actions.push(Action::send(Peer::Engine, "stop", Mark::Injected));
                    }
                }
            }
            b"quit" => {
                actions.push(Action::Forward);
                actions.push(Step::Event(ProxyEvent::Shutdown));
            }
            _ => actions.push(Action::Forward),
        }
    }

    /// `stop` or `ponderhit` during a search: forwarded once the engine has been heard
    /// since its `go` (else held until it is, at most [`EARLY_WAIT`]); a second `stop` is
    /// dropped. `ponderhit` puts the pondering search on its clock.
    fn gui_stop(&mut self, first: &[u8], line: &[u8], actions: &mut Vec<Action>) {
        let now = self.now();
        if let Search::Running(run) = &mut self.search
            && run.stop_or_ponderhit(first == b"stop", line, now, &self.config)
        {
            actions.push(Action::Forward);
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
        let root = self.search_root.as_ref()?;
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
                let message =
                    format!("clock guard: no bestmove within {limit}; stop sent to the engine");
                Self::info_to_gui(actions, &message);
                actions.push(Step::Event(ProxyEvent::Warn(format!("proxy: {message}"))));
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
        let message = format!(
            "clock guard: no bestmove {} ms after stop; the GUI gets {what}",
            STOP_GRACE.as_millis()
        );
        Self::info_to_gui(actions, &message);
        actions.push(Step::Event(ProxyEvent::Warn(format!("proxy: {message}"))));
        let mut line = b"bestmove ".to_vec();
        line.extend_from_slice(&best);
        actions.push(Action::send(Peer::Gui, line, Mark::Answered));
        self.stale_bestmoves += 1;
        self.release_after_search(run.after, actions);
    }

    /// The engine exited unasked: restarted within the budget, else told.
    fn engine_exit(&mut self, how: &str, restartable: bool, actions: &mut Vec<Action>) {
        let budget = self.config.restart_engine;
        if !(restartable && budget > 0 && self.handshake_done) {
            return Self::info_to_gui(actions, &format!("the engine {how}"));
        }
        if self.restarts >= budget {
            let message = format!(
                "the engine {how}; restarted {budget} time(s) in this game already (--restart-engine {budget}): giving up"
            );
            Self::info_to_gui(actions, &message);
            return actions.push(Step::Event(ProxyEvent::Warn(format!("proxy: {message}"))));
        }
        self.restarts += 1;
        let message = format!(
            "the engine {how}; restarting it ({} of {budget} in this game), then its options, the position{}",
            self.restarts,
            if self.searching() { " and the go" } else { "" }
        );
        Self::info_to_gui(actions, &message);
        actions.push(Step::Event(ProxyEvent::Warn(format!("proxy: {message}"))));
        actions.push(Step::Event(ProxyEvent::Restart));
        actions.push(Action::send(Peer::Engine, "uci", Mark::Injected));
        self.handshake = Handshake::Restarting(
            match std::mem::replace(&mut self.handshake, Handshake::Open) {
                Handshake::AwaitingUciok(held) | Handshake::Restarting(held) => held,
                Handshake::Open => Vec::new(),
            },
        );
        // A search the proxy answered itself gets no bestmove from the new engine.
        self.stale_bestmoves = 0;
    }

    /// The restarted engine's `uciok`: the options the engine had, the position and the
    /// running search's `go` with the time spent taken off its clocks (a `stop` it had
    /// is held again until the new engine is heard), then the GUI's held lines.
    fn replay(&mut self, actions: &mut Vec<Action>) {
        for (_, line) in &self.options_sent {
            actions.push(Action::send(Peer::Engine, line.clone(), Mark::Injected));
        }
        if let Some(position) = &self.last_position {
            actions.push(Action::send(Peer::Engine, position.clone(), Mark::Injected));
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
            let message = format!(
                "the engine restarted; the go sent again{spent}: {}",
                String::from_utf8_lossy(&line)
            );
            Self::info_to_gui(actions, &message);
            actions.push(Step::Event(ProxyEvent::Warn(format!("proxy: {message}"))));
            actions.push(Action::send(Peer::Engine, line, Mark::Injected));
            run.restarted(now);
        }
        self.release_held(actions);
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
        match first_token(line) {
            b"uci" => {
                if self.handshake == Handshake::Open {
                    self.handshake = Handshake::AwaitingUciok(Vec::new());
                }
                actions.push(Action::Forward);
            }
            // Between `uci` and `uciok` the engine's options (UCI_Chess960 above all) are
            // not known yet: lines are held until `uciok` (UCI says GUIs wait for it).
            _ => match &mut self.handshake {
                Handshake::AwaitingUciok(held) | Handshake::Restarting(held) => {
                    held.push(line.to_vec());
                }
                Handshake::Open => self.gui_line(line, actions),
            },
        }
    }
    fn on_engine_line(&mut self, line: &[u8], actions: &mut Vec<Action>) {
        let first = first_token(line);
        if let Handshake::Restarting(_) = self.handshake {
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
        match first {
            b"info" => self.engine_info(line, actions),
            b"bestmove" => self.engine_bestmove(line, actions),
            b"option" => self.engine_option(line, actions),
            b"uciok" => self.engine_uciok(actions),
            b"id" => {
                let mut words = tokens(line).skip(1);
                if words.next() == Some(b"name".as_slice())
                    && let Some(name) = words.next()
                {
                    self.shared_castling_files =
                        quirks(&String::from_utf8_lossy(name)).shared_castling_files;
                }
                actions.push(Action::Forward);
            }
            _ => actions.push(Action::Forward),
        }
    }

    fn on_gui_eof(&mut self, actions: &mut Vec<Action>) {
        if let Handshake::AwaitingUciok(held) | Handshake::Restarting(held) = &mut self.handshake {
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
        if self.config.restart_engine > 0
            && self.handshake_done
            && self.restarts < self.config.restart_engine
            && self.handshake == Handshake::Open
        {
            self.handshake = Handshake::AwaitingUciok(Vec::new());
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
