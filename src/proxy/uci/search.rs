//! The engine's search: the GUI's `go` (checked, `searchmoves` translated, answered
//! by the proxy when no engine could answer it), `stop` and `ponderhit` (held right after
//! `go` until the engine is heard), and the GUI's lines during a search.

use super::*;

/// A `go` the engine got: the line as sent and when, for the clock guard and a restart.
#[derive(Debug, Clone)]
pub(super) struct PendingGo {
    /// The line the engine got.
    pub(super) line: Vec<u8>,
    /// When (the shell's clock).
    pub(super) at: Instant,
    /// The side to move in the searched position.
    pub(super) turn: shakmaty::Color,
    /// The time the search may take by its clock; `go ponder` is unbounded until its
    /// `ponderhit`.
    pub(super) clock: SearchClock,
    /// A `go ponder`.
    pub(super) ponder: bool,
}

/// Where the clock guard stands in the current search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ClockGuard {
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
pub(super) struct Early {
    pub(super) lines: Vec<Vec<u8>>,
    pub(super) release_at: Instant,
}

impl Early {
    pub(super) fn holds_stop(&self) -> bool {
        self.lines.iter().any(|line| first_token(line) == b"stop")
    }
}

/// What the engine has been told to end its search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Stop {
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
pub(super) struct Running {
    pub(super) go: PendingGo,
    pub(super) stop: Stop,
    pub(super) guard: ClockGuard,
    /// The first move of the engine's last principal variation in this search, in the
    /// engine's notation (tracked only with the clock guard on).
    pub(super) last_pv_move: Option<Vec<u8>>,
    /// GUI lines read during the search (`position`, `go`, `setoption`, `ucinewgame` and
    /// everything after the first of them), handled once its `bestmove` is passed on.
    pub(super) after: Vec<Vec<u8>>,
}

impl Running {
    /// A search of `go`, its guard armed from `go.at`.
    pub(super) fn new(go: PendingGo, config: &UciConfig) -> Running {
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
    pub(super) fn arm_guard(&mut self, from: Instant, config: &UciConfig) {
        self.guard = match self.go.clock.limit(config.max_overrun, config.max_search) {
            Some(limit) => ClockGuard::StopAt(from + limit),
            None => ClockGuard::Off,
        };
    }

    /// A `stop` is on its way: sent, or held to be sent.
    pub(super) fn stop_pending(&self) -> bool {
        match &self.stop {
            Stop::Sent => true,
            Stop::Unheard(Some(early)) => early.holds_stop(),
            Stop::Unheard(None) | Stop::Heard => false,
        }
    }

    /// The instant the held `stop` / `ponderhit` lines go anyway.
    pub(super) fn early_deadline(&self) -> Option<Instant> {
        match &self.stop {
            Stop::Unheard(Some(early)) => Some(early.release_at),
            _ => None,
        }
    }

    pub(super) fn guard_deadline(&self) -> Option<Instant> {
        match self.guard {
            ClockGuard::StopAt(at) | ClockGuard::AnswerAt(at) => Some(at),
            ClockGuard::Off => None,
        }
    }

    /// The GUI's `stop` (`stop`: true) or `ponderhit` (`line`, read at `now`): true when
    /// it goes to the engine now; held before the engine is heard; a second `stop` is
    /// dropped. `ponderhit` puts a pondering search on its clock.
    pub(super) fn stop_or_ponderhit(
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
    pub(super) fn guard_stop(&mut self) -> bool {
        std::mem::replace(&mut self.stop, Stop::Sent) != Stop::Sent
    }

    /// The engine was restarted at `now` and got the `go` again: not heard yet, and a
    /// `stop` the old engine had is held for the new one.
    pub(super) fn restarted(&mut self, now: Instant) {
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
    pub(super) fn release_early(&mut self, heard: bool, actions: &mut Vec<Action>) {
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
pub(super) enum Search {
    /// No search: a `stop` or `ponderhit` is forwarded as any line.
    Idle,
    /// The proxy answered the GUI's last `go` itself (`bestmove 0000`): its `stop` and
    /// `ponderhit` are swallowed.
    AnsweredByProxy,
    /// A `go` went to the engine and its `bestmove` has not come back.
    Running(Box<Running>),
}

/// How long a `stop` or `ponderhit` that came right after `go` waits for the search's
/// first `info` before it is sent anyway (Ethereal 12.75 loses a `stop` sent at once, and
/// answers `bestmove a1a1` to one that comes before its first iteration ends): a deadline
/// ([`Relay::poll_timeout`]).
pub const EARLY_WAIT: Duration = Duration::from_millis(200);

impl UciSession {
    /// True while a `go` the engine got has not been answered.
    pub fn searching(&self) -> bool {
        matches!(self.search, Search::Running(_))
    }

    /// The search ends (its `bestmove` came, or the clock guard answered): the session is
    /// idle, and the search is returned; `None` (and nothing changes) without one.
    pub(super) fn end_search(&mut self) -> Option<Box<Running>> {
        match std::mem::replace(&mut self.search, Search::Idle) {
            Search::Running(run) => Some(run),
            other => {
                self.search = other;
                None
            }
        }
    }

    pub(super) fn gui_go(&mut self, out: &mut Reply) {
        let line = out.line();
        if let GuiPosition::Refused = self.gui.position {
            return self.answer_go(out);
        }
        // The shield: a parameter UCI does not define, a known one without its number, or a
        // limit no search can meet never reaches the engine: on each, Stockfish 15.1 searches
        // forever or never answers `bestmove` (`go garbage`, `go perft 2`, `go depth 0`).
        let turn = self
            .gui
            .position
            .current()
            .map_or(shakmaty::Color::White, |p| p.turn());
        let go = match Go::parse(line) {
            Ok(go) => go,
            Err(GoError::Number(reason) | GoError::Unknown(reason)) => {
                return self.refuse_go(&reason, out);
            }
        };
        if let Some(reason) = go
            .impossible_limit()
            .or_else(|| go.never_ending(turn))
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
        self.root = self.gui.position.current().map(|position| SearchRoot {
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
            turn,
            clock: SearchClock::of(&go, turn),
            ponder: go.ponder,
        };
        self.search = Search::Running(Box::new(Running::new(go, &self.config)));
    }

    /// A `go` the engine never gets: why, and the proxy's answer.
    pub(super) fn refuse_go(&mut self, reason: &str, actions: &mut Reply) {
        Self::info_to_gui(
            actions,
            &format!("refused go ({reason}); not sent to the engine"),
        );
        self.answer_go(actions);
    }

    /// The proxy answers the GUI's `go` itself, with the null move.
    pub(super) fn answer_go(&mut self, actions: &mut Reply) {
        self.search = Search::AnsweredByProxy;
        actions.push(Action::send(Peer::Gui, "bestmove 0000", Mark::Answered));
    }

    /// The `go` with its `searchmoves` translated for the engine and put last, if it
    /// has any.
    pub(super) fn translated_searchmoves(&self, line: &[u8]) -> Option<Vec<u8>> {
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
    pub(super) fn illegal_searchmove(&self, line: &[u8], go: &Go) -> Option<String> {
        let position = self.gui.position.current()?;
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

    /// A GUI line while the engine searches. `position`, `go`, `setoption` and
    /// `ucinewgame` never reach a searching engine (Stockfish 15.1 dies on some, and the
    /// search's `bestmove` would answer the wrong `go`): the search is stopped, its
    /// `bestmove` passed on, then they go. `isready` is answered by the proxy (Glaurung
    /// 2.2 answers none during a search).
    pub(super) fn gui_line_during_search(&mut self, first: &[u8], out: &mut Reply) {
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
    pub(super) fn release_early_at(&mut self, now: Instant, actions: &mut Vec<Action>) {
        if let Search::Running(run) = &mut self.search
            && run.early_deadline().is_some_and(|at| at <= now)
        {
            run.release_early(false, actions);
        }
    }
}
