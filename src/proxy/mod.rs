//! The protocol-neutral parts of a proxy between a GUI and an engine: its sessions are
//! [`crate::protocol::session::Session`]s whose events are [`ProxyEvent`]s (the
//! [`Action`]s the shell carries out), and the I/O shell in [`io`] runs any of them
//! between real pipes; the UCI and XBoard sessions are [`uci`] and [`xboard`].
//!
//! A session never touches a file descriptor: it is fed one line at a time (without its
//! `\n`, with any `\r` still on it) and says what to do with it. That keeps the protocol
//! logic testable on transcripts and lets the UCI and XBoard proxies share one shell.
//!
//! The parts: [`io`] (the shell), [`detect`] (which session: the GUI's first command or
//! `--protocol`; [`detect::run_proxy`] is what `sp960 proxy` runs), [`starts`] (the start
//! of each game: `--sp` and the `SP960_Start` / `SP960_BlackStart` options, for every
//! protocol), [`transcript`] (`--log`), [`recovery`] (the clock guard's and the engine
//! restart's protocol-neutral parts), and what both sessions use to answer a line
//! ([`Reply`], [`tell`]).

use std::time::Instant;

pub use crate::protocol::first_token;

pub mod detect;
pub mod io;
pub mod recovery;
#[cfg(test)]
pub(crate) mod script;
pub mod starts;
pub mod transcript;
pub mod uci;
pub mod xboard;

pub use crate::os::process::ProcessEnding;
pub use crate::protocol::session::{Mark, Peer, Session, Step};

/// What only the proxy's shell can do, asked by a session ([`Step::Event`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProxyEvent {
    /// Tell the user on stderr (a warning that should not wait for a GUI to show it).
    Warn(String),
    /// The GUI is done: after the lines before this, wait a bounded time for the engine to
    /// exit, then kill it.
    Shutdown,
    /// Stop now with exit `code`, after telling stderr `message`; the engine is told to
    /// quit and then killed.
    Fail {
        /// The proxy's exit code.
        code: u8,
        /// One line for stderr.
        message: String,
    },
    /// The engine exited unasked and the session takes it back (`--restart-engine`):
    /// start the engine again before the lines after this, which go to the new one.
    Restart,
}

/// What the shell does, in order, after a proxy session has read a line.
pub type Action = Step<ProxyEvent>;

/// How the engine's process ended when it exited unasked, as the shell tells a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineExit {
    /// Its exit status.
    pub ending: ProcessEnding,
    /// False when the exit followed a signal passed on to it (Ctrl-C, SIGTERM): not a
    /// crash to undo.
    pub restartable: bool,
}

impl EngineExit {
    /// In words, after "the engine": "died unexpectedly from signal 11".
    pub fn describe(self) -> String {
        self.ending.describe()
    }
}

/// A proxy session's inputs, one method per peer: every `Relay` is a [`Session`] whose
/// events are [`ProxyEvent`]s, which is how the shell drives it.
pub trait Relay: Send {
    /// A line from the GUI (no `\n`).
    fn on_gui_line(&mut self, line: &[u8], actions: &mut Vec<Action>);
    /// A line from the engine (no `\n`).
    fn on_engine_line(&mut self, line: &[u8], actions: &mut Vec<Action>);
    /// The GUI closed our stdin: typically send the engine its quit command, then shut
    /// down.
    fn on_gui_eof(&mut self, actions: &mut Vec<Action>);
    /// The engine exited without being asked to: tell the GUI in its protocol, or take
    /// the engine back ([`ProxyEvent::Restart`], then the lines for the new engine) when
    /// the exit is restartable and the session may (`--restart-engine`).
    fn on_engine_exit(&mut self, exit: EngineExit, actions: &mut Vec<Action>);
    /// The engine's output ended (its exit follows, [`Relay::on_engine_exit`]): a session
    /// that may restart it holds the GUI's lines from now on, so none is lost to the dead
    /// engine's pipe.
    fn on_engine_eof(&mut self) {}
    /// The shell's clock: the time now, given before each batch of lines read and before
    /// [`Relay::handle_timeout`]. A session takes the time from here (the UCI session
    /// reads the system clock only when never given one, in unit tests).
    fn set_now(&mut self, _now: Instant) {}
    /// The next instant the session must be woken at ([`Relay::handle_timeout`]), if
    /// any: a deadline such as the clock guard's (`--max-overrun`).
    fn poll_timeout(&self) -> Option<Instant> {
        None
    }
    /// The instant of [`Relay::poll_timeout`] has come (`now` is at or past it).
    fn handle_timeout(&mut self, _now: Instant, _actions: &mut Vec<Action>) {}
}

impl<T: Relay> Session for T {
    type Event = ProxyEvent;

    fn on_line(&mut self, from: Peer, line: &[u8], out: &mut Vec<Action>) {
        match from {
            Peer::Gui => self.on_gui_line(line, out),
            Peer::Engine => self.on_engine_line(line, out),
        }
    }

    /// (The shell tells an engine's exit with its status, [`Relay::on_engine_exit`];
    /// here it is unknown.)
    fn on_closed(&mut self, from: Peer, _how: &str, out: &mut Vec<Action>) {
        match from {
            Peer::Gui => self.on_gui_eof(out),
            Peer::Engine => self.on_engine_exit(
                EngineExit {
                    ending: ProcessEnding::Unknown,
                    restartable: true,
                },
                out,
            ),
        }
    }
}

/// Tells the user: `gui_line` (the protocol's form of `message`) to the GUI, and `message`
/// on stderr.
pub(crate) fn tell(actions: &mut Vec<Action>, gui_line: String, message: &str) {
    actions.push(Action::send(Peer::Gui, gui_line, Mark::Injected));
    actions.push(Step::Event(ProxyEvent::Warn(format!("proxy: {message}"))));
}

/// What a handler made of the line it read, as [`Reply`] records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fate {
    /// Nothing yet: the line is dropped (consumed, held or answered by the proxy) unless
    /// the handler says otherwise.
    Dropped,
    /// Forwarded byte for byte.
    Forwarded,
    /// Sent rewritten (the line the other side got).
    Rewritten(Vec<u8>),
}

/// Where a handler puts what becomes of the line it read (forward it, rewrite it, or
/// neither: drop or answer it) among the other lines and events it sends; it knows
/// whether the line was held, so a forwarded held line goes as a [`Mark::Held`] send, and
/// it records the line's [`Fate`] for the caller.
pub(crate) struct Reply<'a> {
    actions: &'a mut Vec<Action>,
    line: &'a [u8],
    /// The peer the line goes to when forwarded.
    to: Peer,
    /// The line was held by the session (not the batch's current line).
    held: bool,
    fate: Fate,
}

impl<'a> Reply<'a> {
    /// A reply to `line`, read now, that goes `to` the other peer when forwarded.
    pub(crate) fn new(actions: &'a mut Vec<Action>, line: &'a [u8], to: Peer) -> Reply<'a> {
        Reply {
            actions,
            line,
            to,
            held: false,
            fate: Fate::Dropped,
        }
    }

    /// A reply to a GUI line the session held and handles now.
    pub(crate) fn held(actions: &'a mut Vec<Action>, line: &'a [u8]) -> Reply<'a> {
        Reply {
            held: true,
            ..Reply::new(actions, line, Peer::Engine)
        }
    }

    /// The line replied to.
    pub(crate) fn line(&self) -> &'a [u8] {
        self.line
    }

    /// Forwards the line byte for byte.
    pub(crate) fn forward(&mut self) {
        self.actions.push(if self.held {
            Action::send(self.to, self.line.to_vec(), Mark::Held)
        } else {
            Action::Forward
        });
        self.fate = Fate::Forwarded;
    }

    /// Sends `rewritten` in the line's place: forwarded byte for byte when the rewrite
    /// changed nothing (only trailing whitespace or a `\r`).
    pub(crate) fn rewrite(&mut self, rewritten: Vec<u8>) {
        if unchanged(self.line, &rewritten) {
            return self.forward();
        }
        self.actions
            .push(Action::send(self.to, rewritten.clone(), Mark::Rewritten));
        self.fate = Fate::Rewritten(rewritten);
    }

    /// Sends `line` to the other peer in the line's place, marked [`Mark::Rewritten`].
    pub(crate) fn replace(&mut self, line: impl Into<Vec<u8>>) {
        let line = line.into();
        self.actions
            .push(Action::send(self.to, line.clone(), Mark::Rewritten));
        self.fate = Fate::Rewritten(line);
    }

    /// What became of the line so far.
    pub(crate) fn fate(&self) -> &Fate {
        &self.fate
    }
}

impl std::ops::Deref for Reply<'_> {
    type Target = Vec<Action>;
    fn deref(&self) -> &Vec<Action> {
        self.actions
    }
}

impl std::ops::DerefMut for Reply<'_> {
    fn deref_mut(&mut self) -> &mut Vec<Action> {
        self.actions
    }
}

/// True when `rewritten` is `original` as it was read: only trailing whitespace (and a
/// `\r`) differ, and `original` does not start with a space.
fn unchanged(original: &[u8], rewritten: &[u8]) -> bool {
    original.trim_ascii_end() == rewritten && !original.starts_with(b" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::is_chess960_variant;

    #[test]
    fn unchanged_rewrites_are_forwarded_byte_for_byte() {
        let mut actions = Vec::new();
        let mut out = Reply::new(&mut actions, b"bestmove e2e4 \r", Peer::Gui);
        out.rewrite(b"bestmove e2e4".to_vec());
        assert_eq!(*out.fate(), Fate::Forwarded);
        let mut out = Reply::new(&mut actions, b" bestmove e2e4", Peer::Gui);
        out.rewrite(b"bestmove e2e4".to_vec());
        assert_eq!(*out.fate(), Fate::Rewritten(b"bestmove e2e4".to_vec()));
        let mut out = Reply::new(&mut actions, b"go", Peer::Engine);
        out.rewrite(b"go depth 1".to_vec());
        // A held line forwarded goes as itself, marked held.
        let mut out = Reply::held(&mut actions, b"isready \r");
        out.rewrite(b"isready".to_vec());
        assert_eq!(*out.fate(), Fate::Forwarded);
        let out = Reply::new(&mut actions, b"stop", Peer::Engine);
        assert_eq!(*out.fate(), Fate::Dropped);
        assert_eq!(
            actions,
            [
                Action::Forward,
                Action::send(Peer::Gui, "bestmove e2e4", Mark::Rewritten),
                Action::send(Peer::Engine, "go depth 1", Mark::Rewritten),
                Action::send(Peer::Engine, "isready \r", Mark::Held),
            ]
        );
        assert!(is_chess960_variant(b"FischeRandom") && is_chess960_variant(b"960"));
        assert!(!is_chess960_variant(b"normal"));
    }
}
