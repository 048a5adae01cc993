//! The built-in reference engine, `sp960 engine`: a small alpha-beta searcher that speaks
//! UCI and XBoard/CECP, Chess960 castling included, so `sp960 match` and the proxies' tests
//! always have a known-good peer.
//!
//! Layers, each usable alone:
//! - [`eval`] and [`search`]: the chess; [`search::search`] is a synchronous call.
//! - [`game`]: positions, `undo`, and move text in both protocols' notations.
//! - [`uci`] and [`xboard`]: the protocols as sans-IO state machines ([`Session`]): a line
//!   in, [`Action`]s out (lines to send, a search to start or stop, quit).
//! - [`io`]: the small loop that runs a [`Frontend`] on real streams with the search on a
//!   thread of its own, so `stop`, `isready` and `quit` are answered while it thinks.

pub mod eval;
pub mod game;
pub mod io;
pub mod search;
pub mod uci;
pub mod xboard;

pub use io::run;
pub use search::{Limits, SearchInfo, SearchJob, SearchResult, TimeBudget};

/// The engine's name, as `id name` (UCI) and `myname` (XBoard) give it.
pub const ENGINE_NAME: &str = "sp960";

/// What a protocol session asks its I/O loop to do, in order.
#[derive(Debug, Clone)]
pub enum Action {
    /// Write this line (without its newline) to the GUI.
    Send(String),
    /// Start searching; report with [`Session::on_info`] and [`Session::on_done`] under
    /// this `id`. A search still running is stopped first.
    Search { id: u64, job: Box<SearchJob> },
    /// Stop the running search soon; it still reports its result.
    Stop,
    /// Stop any search and end the session.
    Quit,
}

/// A protocol front-end as a pure state machine: it is fed input lines and search reports
/// and answers with [`Action`]s. It never blocks and does no I/O.
pub trait Session {
    /// One line from the GUI, without its line ending.
    fn on_line(&mut self, line: &str) -> Vec<Action>;
    /// A completed iteration of search `id`.
    fn on_info(&mut self, id: u64, info: &SearchInfo) -> Vec<Action>;
    /// Search `id` has ended.
    fn on_done(&mut self, id: u64, result: SearchResult) -> Vec<Action>;
    /// The GUI closed its end: finish what the protocol requires, then [`Action::Quit`].
    fn on_end_of_input(&mut self) -> Vec<Action>;
}

/// The session `sp960 engine` runs: UCI or XBoard, chosen by the first command (`xboard`
/// selects XBoard; anything else, normally `uci`, selects UCI and is handled as UCI).
#[derive(Debug, Default)]
pub enum Frontend {
    /// No command yet.
    #[default]
    Undecided,
    /// Speaking UCI.
    Uci(uci::UciSession),
    /// Speaking XBoard/CECP.
    Xboard(xboard::XboardSession),
}

impl Frontend {
    fn session(&mut self) -> Option<&mut dyn Session> {
        match self {
            Frontend::Undecided => None,
            Frontend::Uci(session) => Some(session),
            Frontend::Xboard(session) => Some(session),
        }
    }
}

impl Session for Frontend {
    fn on_line(&mut self, line: &str) -> Vec<Action> {
        if let Frontend::Undecided = self {
            match crate::protocol::first_token(line.as_bytes()) {
                b"" => return Vec::new(),
                b"xboard" => *self = Frontend::Xboard(xboard::XboardSession::default()),
                _ => *self = Frontend::Uci(uci::UciSession::default()),
            }
        }
        self.session()
            .map_or_else(Vec::new, |session| session.on_line(line))
    }

    fn on_info(&mut self, id: u64, info: &SearchInfo) -> Vec<Action> {
        self.session()
            .map_or_else(Vec::new, |session| session.on_info(id, info))
    }

    fn on_done(&mut self, id: u64, result: SearchResult) -> Vec<Action> {
        self.session()
            .map_or_else(Vec::new, |session| session.on_done(id, result))
    }

    fn on_end_of_input(&mut self) -> Vec<Action> {
        self.session()
            .map_or_else(|| vec![Action::Quit], |session| session.on_end_of_input())
    }
}

/// Test helper: feeds `lines` to `session`, running every search synchronously to its end
/// (a `Stop` has nothing left to stop), and returns every line sent.
#[cfg(test)]
pub(crate) fn transcript(session: &mut dyn Session, lines: &[&str]) -> Vec<String> {
    use std::collections::VecDeque;
    use std::sync::atomic::AtomicBool;

    let mut sent = Vec::new();
    for line in lines {
        let mut queue: VecDeque<Action> = session.on_line(line).into();
        while let Some(action) = queue.pop_front() {
            match action {
                Action::Send(text) => sent.push(text),
                Action::Search { id, job } => {
                    let mut infos = Vec::new();
                    let result = search::search(&job, &AtomicBool::new(false), &mut |info| {
                        infos.push(info.clone())
                    });
                    for info in &infos {
                        queue.extend(session.on_info(id, info));
                    }
                    queue.extend(session.on_done(id, result));
                }
                Action::Stop | Action::Quit => {}
            }
        }
    }
    sent
}
