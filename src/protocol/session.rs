//! The one shape of every conversation in sp960, sans-IO: a [`Session`] is fed one line
//! at a time (without its `\n`) from a [`Peer`], and answers with [`Step`]s: lines to
//! write and events for the I/O shell that drives it. It never touches a file descriptor,
//! a thread or a clock, so each is unit-tested on transcripts.
//!
//! The three roles are sessions of this shape: the proxy's UCI and XBoard sessions (a GUI
//! and an engine; events: warn, shut down, fail), the runner's clients (an engine;
//! events: ready, a move, a resignation, a failure) and the built-in engine's front-ends
//! (a GUI; events: start or stop a search, quit).

/// One side of a conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Peer {
    /// The GUI (or match runner): for the proxy and the engine, our stdin and stdout.
    Gui,
    /// The engine: for the proxy and the runner, a child process's stdin and stdout.
    Engine,
}

impl Peer {
    /// The other side.
    pub fn other(self) -> Peer {
        match self {
            Peer::Gui => Peer::Engine,
            Peer::Engine => Peer::Gui,
        }
    }
}

/// Why a session sends a line it did not simply forward (shown in transcripts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mark {
    /// A line the session wrote on its own (an option, `setoption`, `info string`).
    Injected,
    /// A line read from one side and changed on its way to the other.
    Rewritten,
    /// The session's own answer to a request it did not forward (`bestmove 0000`).
    Answered,
    /// A line read earlier and held back, sent unchanged now (GUI lines that came before
    /// the engine's `uciok`).
    Held,
}

/// What the shell does, in order, after a session has read a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step<E> {
    /// Send the line just read, byte for byte (with its original line ending), to the
    /// other side (relays only).
    Forward,
    /// Send `line` (no line ending: the shell adds `\n`) to `to`.
    Send {
        /// The receiving side.
        to: Peer,
        /// The text.
        line: Vec<u8>,
        /// Why, for the transcript.
        mark: Mark,
    },
    /// Something only the shell can do (the role's events).
    Event(E),
}

impl<E> Step<E> {
    /// A line to send, with its mark.
    pub fn send(to: Peer, line: impl Into<Vec<u8>>, mark: Mark) -> Step<E> {
        Step::Send {
            to,
            line: line.into(),
            mark,
        }
    }
}

/// A sans-IO conversation: a line in, [`Step`]s out.
pub trait Session: Send {
    /// The role's events.
    type Event;
    /// A line from `from` (no `\n`; a `\r` may still be on it).
    fn on_line(&mut self, from: Peer, line: &[u8], out: &mut Vec<Step<Self::Event>>);
    /// `from` closed its end (`how`: its exit status, when known).
    fn on_closed(&mut self, from: Peer, how: &str, out: &mut Vec<Step<Self::Event>>);
}
