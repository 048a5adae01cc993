//! The built-in reference engine, `sp960 engine`: a small alpha-beta searcher that speaks
//! UCI and XBoard/CECP, Chess960 castling included, so `sp960 match` and the proxies' tests
//! always have a known-good peer.
//!
//! Layers, each usable alone:
//! - [`eval`] and [`search`]: the chess; [`search::search`] is a synchronous call.
//! - [`game`]: positions, `undo`, and move text in both protocols' notations.
//! - [`uci`] and [`xboard`]: the protocols as sans-IO state machines ([`SearchSession`]): a
//!   line in, [`EngineStep`]s out (lines to send, a search to start or stop, quit), on the
//!   vocabulary and session shape of [`crate::protocol`].
//! - [`io`]: the small loop that runs a [`Frontend`] on real streams with the search on a
//!   thread of its own, so `stop`, `isready` and `quit` are answered while it thinks.
//!
//! Must not import `proxy`, `matches`, `launch`, `tournaments` or `cli`; uses `protocol`
//! and `starts`.

pub mod eval;
pub mod game;
pub mod io;
pub mod search;
pub mod uci;
pub mod xboard;

pub use io::run;
pub use search::{SearchJob, SearchReport, SearchResult};

/// The engine's name, as `id name` (UCI) and `myname` (XBoard) give it.
pub const ENGINE_NAME: &str = "sp960";

pub use crate::protocol::session::{Mark, Peer, Step};

/// What only the engine's I/O loop can do, asked by a front-end ([`Step::Event`]).
#[derive(Debug, Clone)]
pub enum EngineEvent {
    /// Start searching; report with [`SearchSession::on_info`] and
    /// [`SearchSession::on_done`] under this `id`. A search still running is stopped first.
    Search { id: u64, job: Box<SearchJob> },
    /// Stop the running search soon; it still reports its result.
    Stop,
    /// Stop any search and end the session.
    Quit,
}

/// What a front-end asks its I/O loop to do, in order: lines for the GUI
/// ([`Step::Send`]) and [`EngineEvent`]s.
pub type EngineStep = Step<EngineEvent>;

/// A line for the GUI.
pub(crate) fn send(line: impl Into<String>) -> EngineStep {
    Step::send(Peer::Gui, line.into(), Mark::Injected)
}

/// A protocol front-end as a pure state machine: it is fed the GUI's lines and the
/// search's reports and answers with [`EngineStep`]s. It never blocks and does no I/O; the
/// [`Frontend`] that picks UCI or XBoard is also a [`crate::protocol::session::Session`],
/// the shape every conversation in sp960 has.
pub trait SearchSession {
    /// One line from the GUI, without its line ending.
    fn on_gui_line(&mut self, line: &str) -> Vec<EngineStep>;
    /// A completed iteration of search `id`.
    fn on_info(&mut self, id: u64, info: &SearchReport) -> Vec<EngineStep>;
    /// Search `id` has ended.
    fn on_done(&mut self, id: u64, result: SearchResult) -> Vec<EngineStep>;
    /// The GUI closed its end: finish what the protocol requires, then
    /// [`EngineEvent::Quit`].
    fn on_end_of_input(&mut self) -> Vec<EngineStep>;
}

/// The session `sp960 engine` runs: UCI or XBoard, chosen by the first command (`xboard`
/// selects XBoard; anything else, normally `uci`, selects UCI and is handled as UCI).
#[derive(Debug, Default)]
pub enum Frontend {
    /// No command yet.
    #[default]
    Undecided,
    /// Speaking UCI.
    Uci(uci::UciFrontEnd),
    /// Speaking XBoard/CECP.
    Xboard(xboard::XboardFrontEnd),
}

impl Frontend {
    fn session(&mut self) -> Option<&mut dyn SearchSession> {
        match self {
            Frontend::Undecided => None,
            Frontend::Uci(session) => Some(session),
            Frontend::Xboard(session) => Some(session),
        }
    }
}

impl SearchSession for Frontend {
    fn on_gui_line(&mut self, line: &str) -> Vec<EngineStep> {
        if let Frontend::Undecided = self {
            match crate::protocol::first_token(line.as_bytes()) {
                b"" => return Vec::new(),
                b"xboard" => *self = Frontend::Xboard(xboard::XboardFrontEnd::default()),
                _ => *self = Frontend::Uci(uci::UciFrontEnd::default()),
            }
        }
        self.session()
            .map_or_else(Vec::new, |session| session.on_gui_line(line))
    }

    fn on_info(&mut self, id: u64, info: &SearchReport) -> Vec<EngineStep> {
        self.session()
            .map_or_else(Vec::new, |session| session.on_info(id, info))
    }

    fn on_done(&mut self, id: u64, result: SearchResult) -> Vec<EngineStep> {
        self.session()
            .map_or_else(Vec::new, |session| session.on_done(id, result))
    }

    fn on_end_of_input(&mut self) -> Vec<EngineStep> {
        self.session().map_or_else(
            || vec![Step::Event(EngineEvent::Quit)],
            |session| session.on_end_of_input(),
        )
    }
}

impl crate::protocol::session::Session for Frontend {
    type Event = EngineEvent;

    fn on_line(&mut self, _from: Peer, line: &[u8], out: &mut Vec<EngineStep>) {
        out.extend(self.on_gui_line(&String::from_utf8_lossy(line)));
    }

    fn on_closed(&mut self, _from: Peer, _how: &str, out: &mut Vec<EngineStep>) {
        out.extend(self.on_end_of_input());
    }
}

/// Test helper: runs `job` to its end on this thread (`stopped`: as if `stop` came at once).
#[cfg(test)]
pub(crate) fn search_now(job: &SearchJob, stopped: bool) -> SearchResult {
    search::search(
        job,
        &std::sync::atomic::AtomicBool::new(stopped),
        &mut |_| {},
    )
}

/// Test helper: feeds `lines` to `session`, running every search synchronously to its end
/// (a `Stop` has nothing left to stop), and returns every line sent.
#[cfg(test)]
pub(crate) fn transcript(session: &mut dyn SearchSession, lines: &[&str]) -> Vec<String> {
    use std::collections::VecDeque;
    use std::sync::atomic::AtomicBool;

    let mut sent = Vec::new();
    for line in lines {
        let mut queue: VecDeque<EngineStep> = session.on_gui_line(line).into();
        while let Some(action) = queue.pop_front() {
            match action {
                Step::Send { line, .. } => sent.push(String::from_utf8(line).expect("UTF-8")),
                Step::Event(EngineEvent::Search { id, job }) => {
                    let mut infos = Vec::new();
                    let result = search::search(&job, &AtomicBool::new(false), &mut |info| {
                        infos.push(info.clone())
                    });
                    for info in &infos {
                        queue.extend(session.on_info(id, info));
                    }
                    queue.extend(session.on_done(id, result));
                }
                Step::Event(EngineEvent::Stop | EngineEvent::Quit) | Step::Forward => {}
            }
        }
    }
    sent
}
