//! The runner's GUI side of an engine conversation, as a sans-IO state machine: lines
//! from the engine in, lines for the engine and [`ClientEvent`]s out. [`Client`] starts
//! out detecting the protocol (it sends `uci`; `id`/`option`/`uciok` mean UCI, `feature`,
//! an error line or silence mean XBoard) and then is a [`UciClient`] or an
//! [`XboardClient`].
//!
//! Moves are written and read with [`crate::starts::castling`] and positions rendered with
//! [`crate::protocol::game`], the same code the proxies use: king takes rook for every engine in
//! Chess960 mode, standard castling and
//! [`crate::protocol::game::GameLine::for_standard_engine`] for a UCI engine
//! without `UCI_Chess960`.

use crate::clients::talk::{ClientEvent, GoRequest, Lines, NewGame, Unsupported};
use crate::clients::uci::UciClient;
use crate::clients::xboard::XboardClient;
use crate::protocol::Protocol;
use crate::protocol::first_token;
use crate::protocol::session::{Mark, Peer, Session, Step};

/// A client for one engine process: detecting the protocol, or speaking one.
#[derive(Debug)]
pub enum Client {
    /// `uci` sent, waiting for the first answer that tells the protocol.
    Detecting(Vec<(String, String)>),
    /// Speaking UCI.
    Uci(UciClient),
    /// Speaking XBoard/CECP.
    Xboard(XboardClient),
}

impl Client {
    /// A client for `protocol` (or one that detects it), and the first lines to send.
    pub fn start(protocol: Option<Protocol>, options: &[(String, String)]) -> (Client, Lines) {
        let mut out = Vec::new();
        let client = match protocol {
            Some(Protocol::Uci) => Client::Uci(UciClient::start(options.to_vec(), &mut out)),
            Some(Protocol::Xboard) => {
                Client::Xboard(XboardClient::start(options.to_vec(), &mut out))
            }
            None => {
                out.push(b"uci".to_vec());
                Client::Detecting(options.to_vec())
            }
        };
        (client, out)
    }

    /// The protocol, once known.
    pub fn protocol(&self) -> Option<Protocol> {
        match self {
            Client::Detecting(_) => None,
            Client::Uci(_) => Some(Protocol::Uci),
            Client::Xboard(_) => Some(Protocol::Xboard),
        }
    }

    /// The name the engine gave (`id name`, `myname`).
    pub fn name(&self) -> Option<&str> {
        match self {
            Client::Detecting(_) => None,
            Client::Uci(client) => client.name(),
            Client::Xboard(client) => client.name(),
        }
    }

    /// The UCI client, once the protocol is known to be UCI.
    pub fn uci(&self) -> Option<&UciClient> {
        match self {
            Client::Uci(client) => Some(client),
            _ => None,
        }
    }

    /// One line from the engine (no line ending). The user's options are applied once the
    /// protocol is detected.
    pub fn on_line(&mut self, line: &[u8], out: &mut Lines) -> Option<ClientEvent> {
        match self {
            Client::Detecting(options) => match first_token(line) {
                b"id" | b"option" | b"uciok" => {
                    *self = Client::Uci(UciClient::after_uci(std::mem::take(options)));
                    self.on_line(line, out)
                }
                b"feature" | b"Error" | b"Illegal" | b"tellusererror" => {
                    self.switch_to_xboard(out);
                    self.on_line(line, out)
                }
                _ => None,
            },
            Client::Uci(client) => client.on_line(line, out),
            Client::Xboard(client) => match client.late_uci_answer(line) {
                Some(options) => {
                    *self = Client::Uci(UciClient::after_uci(options));
                    self.on_line(line, out)
                }
                None => client.on_line(line, out),
            },
        }
    }

    /// What the engine reported of its last search (UCI `info`, XBoard thinking output).
    pub fn last_search(&self) -> crate::protocol::uci::SearchInfo {
        match self {
            Client::Uci(client) => client.last_search(),
            Client::Xboard(client) => client.last_search(),
            Client::Detecting(_) => crate::protocol::uci::SearchInfo::default(),
        }
    }

    /// The last depth and score, bounds included (cutechess-cli's adjudication input;
    /// XBoard thinking lines have no bounds).
    pub fn latest_eval(&self) -> crate::protocol::uci::SearchInfo {
        match self {
            Client::Uci(client) => client.latest_eval(),
            Client::Xboard(client) => client.last_search(),
            Client::Detecting(_) => crate::protocol::uci::SearchInfo::default(),
        }
    }

    /// Nothing came for a while: detection settles on XBoard; an XBoard handshake
    /// without `feature done=0` is over.
    pub fn on_timeout(&mut self, out: &mut Lines) -> Option<ClientEvent> {
        match self {
            Client::Detecting(_) => {
                self.switch_to_xboard(out);
                None
            }
            Client::Uci(_) => None,
            Client::Xboard(client) => client.on_timeout(out),
        }
    }

    fn switch_to_xboard(&mut self, out: &mut Lines) {
        let options = match self {
            Client::Detecting(options) => std::mem::take(options),
            _ => Vec::new(),
        };
        *self = Client::Xboard(XboardClient::detected(options, out));
    }

    /// Sets up a new game; [`ClientEvent::Ready`] follows (or is returned at
    /// once when the protocol has nothing to wait for).
    pub fn new_game(&mut self, game: NewGame<'_>, out: &mut Lines) -> Option<ClientEvent> {
        match self {
            Client::Detecting(_) => {
                Some(ClientEvent::Failed("protocol not detected yet".to_owned()))
            }
            Client::Uci(client) => client.new_game(out),
            Client::Xboard(client) => client.new_game(game, out),
        }
    }

    /// Asks for a move in `request.game.current`.
    pub fn go(&mut self, request: GoRequest<'_>, out: &mut Lines) {
        match self {
            Client::Detecting(_) => {}
            Client::Uci(client) => client.go(request, out),
            Client::Xboard(client) => client.go(request, out),
        }
    }

    /// Why this engine cannot play Chess960 at all, if it cannot (checked once after the
    /// handshake, before any game).
    pub fn chess960_support(&self) -> Result<(), Unsupported> {
        match self {
            Client::Xboard(client) => client.chess960_support(),
            Client::Detecting(_) | Client::Uci(_) => Ok(()),
        }
    }

    /// UCI: the next [`Client::go`] renders its `position` line whole
    /// ([`UciClient::forget_position`]); XBoard sets up each game afresh anyway.
    pub fn forget_position(&mut self) {
        if let Client::Uci(client) = self {
            client.forget_position();
        }
    }

    /// The lines that end the conversation.
    pub fn quit(&self, out: &mut Lines) {
        out.push(b"quit".to_vec());
    }
}

/// The client in the shape of every conversation in sp960: the engine's line in, the
/// lines for the engine ([`Step::Send`]) and the [`ClientEvent`] out.
impl Session for Client {
    type Event = ClientEvent;

    fn on_line(&mut self, _from: Peer, line: &[u8], out: &mut Vec<Step<ClientEvent>>) {
        let mut lines = Vec::new();
        let event = Client::on_line(self, line, &mut lines);
        out.extend(
            lines
                .into_iter()
                .map(|line| Step::send(Peer::Engine, line, Mark::Injected)),
        );
        out.extend(event.map(Step::Event));
    }

    fn on_closed(&mut self, _from: Peer, how: &str, out: &mut Vec<Step<ClientEvent>>) {
        out.push(Step::Event(ClientEvent::Failed(format!(
            "the engine {how}"
        ))));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_reads_uci_answers_and_xboard_errors() {
        let (mut client, out) = Client::start(None, &[]);
        assert_eq!(out, [b"uci"]);
        let mut out = Vec::new();
        // A banner decides nothing.
        assert_eq!(
            client.on_line(b"Stockfish 15.1 by the Stockfish developers", &mut out),
            None
        );
        assert!(client.protocol().is_none());
        client.on_line(b"id name Stockfish 15.1", &mut out);
        assert_eq!(client.protocol(), Some(Protocol::Uci));
        assert_eq!(client.name(), Some("Stockfish 15.1"));

        let (mut client, _) = Client::start(None, &[]);
        let mut out = Vec::new();
        client.on_line(b"Error (Illegal move or unknown command): uci", &mut out);
        assert_eq!(client.protocol(), Some(Protocol::Xboard));
        assert_eq!(out, [b"xboard".to_vec(), b"protover 2".to_vec()]);

        let (mut client, _) = Client::start(None, &[]);
        let mut out = Vec::new();
        client.on_timeout(&mut out);
        assert_eq!(client.protocol(), Some(Protocol::Xboard));
        assert_eq!(out, [b"xboard".to_vec(), b"protover 2".to_vec()]);
    }

    /// A UCI engine slower than the detection wait (a loaded machine): its answer to `uci`
    /// after `xboard` went out makes the client a UCI client again, the user's options kept.
    #[test]
    fn a_late_uci_answer_undoes_detected_xboard() {
        let options = [("Hash".to_owned(), "16".to_owned())];
        let (mut client, _) = Client::start(None, &options);
        let mut out = Vec::new();
        client.on_timeout(&mut out);
        assert_eq!(client.protocol(), Some(Protocol::Xboard));
        let mut out = Vec::new();
        client.on_line(b"Unknown command: xboard", &mut out);
        assert_eq!(client.protocol(), Some(Protocol::Xboard));
        client.on_line(b"id name Stockfish 15.1", &mut out);
        assert_eq!(client.protocol(), Some(Protocol::Uci));
        assert_eq!(client.name(), Some("Stockfish 15.1"));
        let mut event = None;
        for line in [
            &b"option name Hash type spin default 16 min 1 max 33554432"[..],
            b"uciok",
        ] {
            event = client.on_line(line, &mut out);
        }
        let sent: Vec<String> = out
            .iter()
            .map(|line| String::from_utf8_lossy(line).into_owned())
            .collect();
        assert!(
            sent.contains(&"setoption name Hash value 16".to_owned()),
            "{sent:?}"
        );
        assert!(
            event.is_some() || sent.last().is_some_and(|l| l == "isready"),
            "{sent:?}"
        );

        // Once a feature came, or with proto=xboard, a UCI-looking line is only a line.
        let (mut client, _) = Client::start(None, &[]);
        let mut out = Vec::new();
        client.on_timeout(&mut out);
        client.on_line(b"feature myname=\"X\" done=0", &mut out);
        client.on_line(b"id name X", &mut out);
        assert_eq!(client.protocol(), Some(Protocol::Xboard));
        let (mut client, _) = Client::start(Some(Protocol::Xboard), &[]);
        client.on_line(b"uciok", &mut out);
        assert_eq!(client.protocol(), Some(Protocol::Xboard));
    }
}
