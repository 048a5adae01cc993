//! Which protocol the GUI speaks, decided by its first command: `xboard` starts the XBoard
//! session, anything else the UCI one (`uci` is what UCI GUIs send first). `--protocol`
//! fixes it instead. The shell stays protocol-neutral: it runs a [`DetectingSession`].

use std::time::Instant;

use super::io::{self, ShellError, ShellOptions};
use super::{Action, EngineExit, Mark, Peer, ProxyEvent, Relay, Session, Step, first_token};
use crate::launch::command::EngineCommand;
use crate::protocol::Protocol;
use crate::proxy::starts::StartChoice;
use crate::proxy::uci::{UciConfig, UciSession};
use crate::proxy::xboard::{EngineCastling, XboardConfig, XboardSession};
use crate::starts::notation::CastlingNotation;

/// `--engine-castling`: how the engine takes castling (the type of an engine spec's
/// `castling=`, which names the same values).
pub use crate::launch::spec::EngineCastlingArg;

/// Both sessions' settings and the protocol, if fixed.
#[derive(Debug, Clone, Default)]
pub struct ProxyConfig {
    /// `None`: decided by the GUI's first command.
    pub protocol: Option<Protocol>,
    /// Settings of the UCI session.
    pub uci: UciConfig,
    /// Settings of the XBoard session.
    pub xboard: XboardConfig,
}

impl ProxyConfig {
    /// Both sessions with the settings they share: the games' start, the seed of random
    /// starts the GUI may ask for, and `--require-chess960`; the rest at defaults.
    pub fn new(start: StartChoice, random_seed: u64, require_chess960: bool) -> ProxyConfig {
        ProxyConfig {
            protocol: None,
            uci: UciConfig {
                start,
                random_seed,
                require_chess960,
                ..UciConfig::default()
            },
            xboard: XboardConfig {
                start,
                random_seed,
                require_chess960,
                ..XboardConfig::default()
            },
        }
    }

    /// Applies `--engine-castling` to the session it concerns.
    pub fn set_engine_castling(&mut self, value: EngineCastlingArg) {
        match value {
            EngineCastlingArg::Shredder | EngineCastlingArg::Xfen => {
                let notation = if value == EngineCastlingArg::Xfen {
                    CastlingNotation::Xfen
                } else {
                    CastlingNotation::Shredder
                };
                self.uci.engine_castling = notation;
                self.xboard.fen_castling = Some(notation);
            }
            EngineCastlingArg::Oo => self.xboard.engine_castling = Some(EngineCastling::OO),
            EngineCastlingArg::Kxr => {
                self.xboard.engine_castling = Some(EngineCastling::KingTakesRook);
            }
        }
    }
}

enum Inner {
    Undecided(Box<ProxyConfig>),
    Uci(Box<UciSession>),
    Xboard(Box<XboardSession>),
}

/// A session that becomes the UCI or the XBoard session at the GUI's first command.
pub struct DetectingSession {
    inner: Inner,
}

impl DetectingSession {
    /// Undecided until the GUI's first non-blank line (or decided now by `protocol`).
    pub fn new(config: ProxyConfig) -> DetectingSession {
        let mut session = DetectingSession {
            inner: Inner::Undecided(Box::new(config.clone())),
        };
        if let Some(protocol) = config.protocol {
            session.decide(protocol);
        }
        session
    }

    /// The protocol, once decided.
    #[cfg(test)]
    pub fn protocol(&self) -> Option<Protocol> {
        match self.inner {
            Inner::Undecided(_) => None,
            Inner::Uci(_) => Some(Protocol::Uci),
            Inner::Xboard(_) => Some(Protocol::Xboard),
        }
    }

    fn decide(&mut self, protocol: Protocol) {
        let Inner::Undecided(config) = &self.inner else {
            return;
        };
        let config = (**config).clone();
        self.inner = match protocol {
            Protocol::Uci => Inner::Uci(Box::new(UciSession::new(config.uci))),
            Protocol::Xboard => Inner::Xboard(Box::new(XboardSession::new(config.xboard))),
        };
    }

    fn session(&mut self) -> Option<&mut dyn Session<Event = ProxyEvent>> {
        match &mut self.inner {
            Inner::Undecided(_) => None,
            Inner::Uci(session) => Some(session.as_mut()),
            Inner::Xboard(session) => Some(session.as_mut()),
        }
    }
}

impl Relay for DetectingSession {
    fn on_gui_line(&mut self, line: &[u8], actions: &mut Vec<Action>) {
        if let Inner::Undecided(_) = self.inner {
            match first_token(line) {
                b"" => return actions.push(Action::Forward),
                b"xboard" => self.decide(Protocol::Xboard),
                _ => self.decide(Protocol::Uci),
            }
        }
        if let Some(session) = self.session() {
            session.on_line(Peer::Gui, line, actions);
        }
    }

    fn on_engine_line(&mut self, line: &[u8], actions: &mut Vec<Action>) {
        match self.session() {
            Some(session) => session.on_line(Peer::Engine, line, actions),
            // Banners before the GUI said anything.
            None => actions.push(Action::Forward),
        }
    }

    fn on_gui_eof(&mut self, actions: &mut Vec<Action>) {
        match self.session() {
            Some(session) => session.on_closed(Peer::Gui, "", actions),
            None => {
                actions.push(Action::send(Peer::Engine, "quit", Mark::Injected));
                actions.push(Step::Event(ProxyEvent::Shutdown));
            }
        }
    }

    fn on_engine_eof(&mut self) {
        match &mut self.inner {
            Inner::Undecided(_) => {}
            Inner::Uci(session) => session.on_engine_eof(),
            Inner::Xboard(session) => session.on_engine_eof(),
        }
    }

    fn set_now(&mut self, now: Instant) {
        match &mut self.inner {
            Inner::Undecided(_) => {}
            Inner::Uci(session) => session.set_now(now),
            Inner::Xboard(session) => session.set_now(now),
        }
    }

    fn poll_timeout(&self) -> Option<Instant> {
        match &self.inner {
            Inner::Undecided(_) => None,
            Inner::Uci(session) => session.poll_timeout(),
            Inner::Xboard(session) => session.poll_timeout(),
        }
    }

    fn handle_timeout(&mut self, now: Instant, actions: &mut Vec<Action>) {
        match &mut self.inner {
            Inner::Undecided(_) => {}
            Inner::Uci(session) => session.handle_timeout(now, actions),
            Inner::Xboard(session) => session.handle_timeout(now, actions),
        }
    }

    fn on_engine_exit(&mut self, exit: EngineExit, actions: &mut Vec<Action>) {
        // Before the GUI said anything: told in UCI, the protocol of any first line but
        // `xboard` (an XBoard GUI ignores the `info string`; stderr has it too).
        self.decide(Protocol::Uci);
        match &mut self.inner {
            Inner::Undecided(_) => {}
            Inner::Uci(session) => session.on_engine_exit(exit, actions),
            Inner::Xboard(session) => session.on_engine_exit(exit, actions),
        }
    }
}

/// Runs the proxy in the GUI's protocol: starts `engine` and relays until the GUI quits
/// or the engine exits. Returns the exit code (see [`io::run`]).
pub fn run_proxy(
    config: ProxyConfig,
    engine: &EngineCommand,
    shell: &ShellOptions,
) -> Result<u8, ShellError> {
    io::run(DetectingSession::new(config), engine, shell)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proxy::ProcessEnding;

    fn first_actions(session: &mut DetectingSession, line: &str) -> Vec<Action> {
        let mut actions = Vec::new();
        session.on_gui_line(line.as_bytes(), &mut actions);
        actions
    }

    /// The shell's clock wakes only at a deadline the session gives: the detector passes
    /// the question on, or a `stop` held after `go` would wait for ever.
    #[test]
    fn a_held_stop_sets_a_deadline_through_the_detector() {
        use crate::proxy::script::play;
        let mut session = DetectingSession::new(ProxyConfig::default());
        play(
            &mut session,
            &["gui: uci", "engine: uciok", "gui: position startpos"],
        );
        assert_eq!(Relay::poll_timeout(&session), None);
        play(&mut session, &["gui: go infinite", "gui: stop"]);
        assert!(Relay::poll_timeout(&session).is_some());
        let out = play(&mut session, &["tick"]);
        assert_eq!(out, ["engine< stop [Held]"]);
        assert_eq!(Relay::poll_timeout(&session), None);
    }

    #[test]
    fn the_first_command_decides() {
        let mut session = DetectingSession::new(ProxyConfig::default());
        let mut actions = Vec::new();
        session.on_engine_line(b"Sjaak II banner", &mut actions);
        assert_eq!(actions, [Action::Forward]);
        assert_eq!(first_actions(&mut session, ""), [Action::Forward]);
        assert_eq!(session.protocol(), None);
        assert_eq!(first_actions(&mut session, "xboard"), [Action::Forward]);
        assert_eq!(session.protocol(), Some(Protocol::Xboard));
        // Stays XBoard: a later `uci` is just a line.
        first_actions(&mut session, "uci");
        assert_eq!(session.protocol(), Some(Protocol::Xboard));

        let mut session = DetectingSession::new(ProxyConfig::default());
        first_actions(&mut session, "uci");
        assert_eq!(session.protocol(), Some(Protocol::Uci));

        let mut session = DetectingSession::new(ProxyConfig {
            protocol: Some(Protocol::Xboard),
            ..ProxyConfig::default()
        });
        assert_eq!(session.protocol(), Some(Protocol::Xboard));
        first_actions(&mut session, "uci");
        assert_eq!(session.protocol(), Some(Protocol::Xboard));

        // An engine that dies before the GUI speaks is reported in UCI, the default.
        let mut session = DetectingSession::new(ProxyConfig::default());
        let mut actions = Vec::new();
        let exit = EngineExit {
            ending: ProcessEnding::Code(0),
            restartable: true,
        };
        session.on_engine_exit(exit, &mut actions);
        assert_eq!(session.protocol(), Some(Protocol::Uci));
        assert_eq!(
            actions,
            [Action::send(
                Peer::Gui,
                "info string sp960: the engine exited unexpectedly with status 0",
                Mark::Injected
            )]
        );
    }

    #[test]
    fn engine_castling_goes_to_the_session_it_concerns() {
        let start = StartChoice::Fixed("860".parse().unwrap());
        let mut config = ProxyConfig::new(start, 5, true);
        assert_eq!(
            (
                config.uci.start,
                config.uci.random_seed,
                config.uci.require_chess960
            ),
            (start, 5, true)
        );
        assert_eq!(
            (
                config.xboard.start,
                config.xboard.random_seed,
                config.xboard.require_chess960
            ),
            (start, 5, true)
        );
        config.set_engine_castling(EngineCastlingArg::Kxr);
        assert_eq!(
            config.xboard.engine_castling,
            Some(EngineCastling::KingTakesRook)
        );
        assert_eq!(config.uci.engine_castling, CastlingNotation::Shredder);
        config.set_engine_castling(EngineCastlingArg::Xfen);
        assert_eq!(config.uci.engine_castling, CastlingNotation::Xfen);
        assert_eq!(config.xboard.fen_castling, Some(CastlingNotation::Xfen));
    }
}
