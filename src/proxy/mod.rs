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
//! protocol), [`transcript`] (`--log`), and helpers both sessions use
//! ([`forward_unless_changed`], [`is_chess960_variant`], [`tokens`], [`first_token`]).

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
    /// The engine exited without being asked to (`how` describes the exit status): tell
    /// the GUI in its protocol, or take the engine back ([`ProxyEvent::Restart`], then
    /// the lines for the new engine) when `restartable` (false: the exit followed a signal
    /// passed on to it) and the session may (`--restart-engine`).
    fn on_engine_exit(&mut self, how: &str, restartable: bool, actions: &mut Vec<Action>);
    /// The engine's output ended (its exit follows, [`Relay::on_engine_exit`]): a session
    /// that may restart it holds the GUI's lines from now on, so none is lost to the dead
    /// engine's pipe.
    fn on_engine_eof(&mut self) {}
    /// The shell's clock: the time now, given before each batch of lines read and before
    /// [`Relay::handle_timeout`]. A session never reads a clock itself.
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

    fn on_closed(&mut self, from: Peer, how: &str, out: &mut Vec<Action>) {
        match from {
            Peer::Gui => self.on_gui_eof(out),
            Peer::Engine => self.on_engine_exit(how, true, out),
        }
    }
}

/// Handles GUI lines the session held, in order, with `handle`: a line it forwards goes to
/// the engine marked [`Mark::Held`] (the line read is not the batch's current one).
pub(crate) fn release_held(
    held: Vec<Vec<u8>>,
    actions: &mut Vec<Action>,
    mut handle: impl FnMut(&[u8], &mut Vec<Action>),
) {
    for line in held {
        let first = actions.len();
        handle(&line, actions);
        for action in &mut actions[first..] {
            if *action == Action::Forward {
                *action = Action::send(Peer::Engine, line.clone(), Mark::Held);
            }
        }
    }
}

/// Pushes the action that sends `rewritten` (a rewrite of the line `original` read from
/// the other side) to `to`: [`Action::Forward`] when the rewrite changed nothing, so the
/// line goes byte for byte (trailing whitespace and `\r` included), else a
/// [`Mark::Rewritten`] send.
pub fn forward_unless_changed(
    actions: &mut Vec<Action>,
    to: Peer,
    original: &[u8],
    rewritten: Vec<u8>,
) {
    if original.trim_ascii_end() == rewritten.as_slice() && !original.starts_with(b" ") {
        actions.push(Action::Forward);
    } else {
        actions.push(Action::send(to, rewritten, Mark::Rewritten));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::is_chess960_variant;

    #[test]
    fn unchanged_rewrites_are_forwarded_byte_for_byte() {
        let mut actions = Vec::new();
        forward_unless_changed(
            &mut actions,
            Peer::Gui,
            b"bestmove e2e4 \r",
            b"bestmove e2e4".to_vec(),
        );
        forward_unless_changed(
            &mut actions,
            Peer::Gui,
            b" bestmove e2e4",
            b"bestmove e2e4".to_vec(),
        );
        forward_unless_changed(&mut actions, Peer::Engine, b"go", b"go depth 1".to_vec());
        assert_eq!(
            actions,
            [
                Action::Forward,
                Action::send(Peer::Gui, "bestmove e2e4", Mark::Rewritten),
                Action::send(Peer::Engine, "go depth 1", Mark::Rewritten),
            ]
        );
        assert!(is_chess960_variant(b"FischeRandom") && is_chess960_variant(b"960"));
        assert!(!is_chess960_variant(b"normal"));
    }
}
