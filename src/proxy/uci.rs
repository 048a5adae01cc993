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
//! | GUI | `stop`, `ponderhit` | swallowed after the proxy answered the `go` itself; right after `go`, held until the search's first `info` (at most [`search::EARLY_WAIT`], a deadline) |
//! | GUI | `quit` | forwarded, then [`Step::Event(ProxyEvent::Shutdown)`] |
//! | GUI | any, between `uci` and the engine's `uciok` | held, then handled at `uciok` |
//!
//! The session is a [`Link`] (the engine's handshake: before `uci`, waiting for `uciok`
//! with the GUI's lines held, ready, holding them again, restarting) and a few facts: the
//! GUI's position, the engine's search, what the engine declared. Each handler says what
//! becomes of the line through a [`Reply`]. The parts: [`search`] (`go`, `stop`,
//! `ponderhit`, the GUI's lines during a search), [`guard`] (the clock guard),
//! [`position`], [`options`] (the handshake, Chess960 mode, `setoption`), [`output`]
//! (`bestmove` and `info` to the GUI) and [`restart`].

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
use crate::proxy::{Action, EngineExit, Fate, Mark, Peer, ProxyEvent, Relay, Reply, Step, tell};
use crate::starts::castling::{
    CastlingDialect, CastlingFilter, parse_move, translate_moves, write_move,
};
use crate::starts::notation::{CastlingNotation, castling_field};

mod guard;
mod options;
mod output;
mod position;
mod restart;
mod search;

use guard::first_pv_move;
use output::rewrite_spans;
use search::{ClockGuard, Running, Search, Stop};

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

/// What the GUI said.
struct GuiState {
    /// It enabled Chess960 (`UCI_Chess960`, or `UCI_Variant chess960`): its castling
    /// dialect unless `--gui-castling` says.
    chess960: bool,
    /// Its position: none, accepted, or refused.
    position: GuiPosition,
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
    gui: GuiState,
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
            gui: GuiState {
                chess960: false,
                position: GuiPosition::Unset,
            },
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

    /// The castling dialect the GUI speaks now.
    pub fn gui_dialect(&self) -> CastlingDialect {
        self.config.gui_castling.unwrap_or(if self.gui.chess960 {
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

    /// An `info string` for the GUI only.
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

    /// Handles GUI lines the session held, in order (forwarded ones go marked
    /// [`Mark::Held`]).
    fn release(&mut self, held: Vec<Vec<u8>>, actions: &mut Vec<Action>) {
        for line in held {
            self.gui_line(&mut Reply::held(actions, &line));
        }
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

    fn on_engine_exit(&mut self, exit: EngineExit, actions: &mut Vec<Action>) {
        self.engine_exit(exit, actions);
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
    /// ([`search::EARLY_WAIT`]) and the clock guard's.
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
