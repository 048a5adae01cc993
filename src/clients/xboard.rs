//! The runner's XBoard/CECP client: `xboard`, `protover 2` and the `feature` handshake;
//! per game `new`, `variant fischerandom`, `force`, `setboard` (Shredder FEN) and the
//! limits (`level`, `sd`, `st`); per move `time`/`otim`, the opponent's move and, the
//! first time, `go`; answered by `move X`.
//!
//! Moves are sent king takes rook (`c1e1`), which Sjaak II, Fairy-Stockfish, polyglot and
//! the built-in engine all read; bare, or with `usermove ` when the engine asks for it.
//! Moves are read and written with the XBoard proxy's [`crate::protocol::xboard`]: read in
//! coordinates (either castling dialect) or SAN, `O-O`/`O-O-O` included (what Sjaak II
//! sends).

use shakmaty::{Chess, Position};

use crate::clients::talk::{ClientEvent, GoRequest, Lines, NewGame, Unsupported, illegal_move};
use crate::launch::spec::{NodeLimitError, check_node_limit};
use crate::protocol::game::EngineChess;
use crate::protocol::uci::SearchInfo;
use crate::protocol::xboard::thinking::parse_thinking;
use crate::protocol::xboard::{
    CastlingForm, Level, clock_line, feature_pairs, parse_xboard_move, rejected_command,
    seconds_text, xboard_move_text,
};
use crate::protocol::{Protocol, argument, first_token};
use crate::starts::castling::CastlingDialect;
use crate::starts::notation::CastlingNotation;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// `protover 2` sent, reading features.
    Features,
    /// Nothing asked.
    Idle,
    /// `ping N` sent.
    Syncing(u32),
    /// Waiting for `move`.
    Thinking,
}

/// The features the runner uses.
#[derive(Debug, Clone, Default)]
struct Features {
    ping: bool,
    setboard: bool,
    usermove: bool,
    variants: Option<String>,
    myname: Option<String>,
    /// `feature done=0`: the engine asked for time.
    done_zero: bool,
    /// Any `feature` line came.
    heard: bool,
}

/// The XBoard conversation with one engine.
#[derive(Debug)]
pub struct XboardClient {
    phase: Phase,
    features: Features,
    options: Vec<(String, String)>,
    /// Moves of the game the engine knows.
    synced: usize,
    /// `go` sent this game: the engine answers every move of ours.
    playing: bool,
    pings: u32,
    /// The position of the last request and the text of our last move.
    asked: Option<Chess>,
    last_sent: Option<String>,
    /// The last thinking line (`post`) of the current search.
    search: SearchInfo,
    /// XBoard was chosen by detection (an engine's silence or an error line), not by
    /// `proto=xboard`: a UCI answer before any feature undoes it.
    detected: bool,
}

impl XboardClient {
    /// A client that sends `xboard` and `protover 2` now.
    pub fn start(options: Vec<(String, String)>, out: &mut Lines) -> XboardClient {
        out.push(b"xboard".to_vec());
        out.push(b"protover 2".to_vec());
        XboardClient {
            phase: Phase::Features,
            features: Features::default(),
            options,
            synced: 0,
            playing: false,
            pings: 0,
            asked: None,
            last_sent: None,
            search: SearchInfo::default(),
            detected: false,
        }
    }

    /// As [`XboardClient::start`], for a protocol that detection chose.
    pub fn detected(options: Vec<(String, String)>, out: &mut Lines) -> XboardClient {
        XboardClient {
            detected: true,
            ..XboardClient::start(options, out)
        }
    }

    /// `line` is a UCI engine's late answer to `uci` (`id`, `option`, `uciok`), come while
    /// a detected XBoard handshake has heard no feature yet: the engine was slow, not
    /// XBoard. Then the user's options, for a UCI client.
    pub fn late_uci_answer(&mut self, line: &[u8]) -> Option<Vec<(String, String)>> {
        let late = self.detected
            && self.phase == Phase::Features
            && !self.features.heard
            && matches!(first_token(line), b"id" | b"option" | b"uciok");
        late.then(|| std::mem::take(&mut self.options))
    }

    /// The last thinking line of the last search (depth, score, time; nothing without one).
    pub fn last_search(&self) -> SearchInfo {
        self.search
    }

    /// `myname`, once read.
    pub fn name(&self) -> Option<&str> {
        self.features.myname.as_deref()
    }

    /// One line from the engine.
    pub fn on_line(&mut self, line: &[u8], out: &mut Lines) -> Option<ClientEvent> {
        let first = first_token(line);
        match (self.phase, first) {
            (Phase::Features, b"feature") => {
                self.features.heard = true;
                let mut done = None;
                for (key, value) in feature_pairs(line) {
                    let text = || String::from_utf8_lossy(value).into_owned();
                    let on = value == b"1";
                    match key {
                        b"ping" => self.features.ping = on,
                        b"setboard" => self.features.setboard = on,
                        b"usermove" => self.features.usermove = on,
                        b"variants" => self.features.variants = Some(text()),
                        b"myname" => self.features.myname = Some(text()),
                        b"done" => done = Some(on),
                        _ => {}
                    }
                    if key != b"done" {
                        out.push([b"accepted ", key].concat());
                    }
                }
                match done {
                    Some(true) => return Some(self.handshake_done(out)),
                    Some(false) => self.features.done_zero = true,
                    None => {}
                }
                None
            }
            (Phase::Syncing(n), b"pong") => {
                let answer = std::str::from_utf8(argument(line))
                    .ok()
                    .and_then(|n| n.parse().ok());
                (answer == Some(n)).then(|| {
                    self.phase = Phase::Idle;
                    ClientEvent::Ready
                })
            }
            (Phase::Thinking, b"move") => {
                self.phase = Phase::Idle;
                let position = self.asked.take()?;
                let text = String::from_utf8_lossy(argument(line)).into_owned();
                Some(match parse_xboard_move(&position, text.as_bytes()) {
                    Ok(m) => {
                        self.synced += 1;
                        ClientEvent::Move(m)
                    }
                    Err(_) => illegal_move(&text, &position),
                })
            }
            (Phase::Thinking, [b'0'..=b'9', ..]) => {
                if let Some(info) = parse_thinking(line) {
                    self.search = info;
                }
                None
            }
            (Phase::Thinking, b"resign") => {
                self.phase = Phase::Idle;
                Some(ClientEvent::Resign)
            }
            (Phase::Thinking, _) if is_refusal(line, self.last_sent.as_deref()) => {
                self.phase = Phase::Idle;
                Some(ClientEvent::Failed(format!(
                    "refused the legal move '{}': {}",
                    self.last_sent.as_deref().unwrap_or_default(),
                    String::from_utf8_lossy(line.trim_ascii())
                )))
            }
            _ => None,
        }
    }

    /// No `feature done=1` came in time: without `done=0` the handshake is over.
    pub fn on_timeout(&mut self, out: &mut Lines) -> Option<ClientEvent> {
        match self.phase {
            Phase::Features if !self.features.done_zero => Some(self.handshake_done(out)),
            Phase::Features => Some(ClientEvent::Failed(
                "sent feature done=0 and never feature done=1".to_owned(),
            )),
            _ => None,
        }
    }

    fn handshake_done(&mut self, out: &mut Lines) -> ClientEvent {
        self.phase = Phase::Idle;
        for (name, value) in &self.options {
            out.push(format!("option {name}={value}").into_bytes());
        }
        ClientEvent::Ready
    }

    /// Whether the engine's features allow Chess960 games: `setboard=1` and
    /// `fischerandom` among its variants.
    pub fn chess960_support(&self) -> Result<(), Unsupported> {
        if !self.features.setboard {
            return Err(Unsupported::NoSetboard);
        }
        let fischerandom = self
            .features
            .variants
            .as_deref()
            .is_some_and(|v| v.split(',').any(|v| v.trim() == "fischerandom"));
        if !fischerandom {
            return Err(Unsupported::NoFischerandom);
        }
        Ok(())
    }

    /// Sets up a game from its start with its limits; [`ClientEvent::Ready`] follows a `ping`
    /// or is returned at once.
    pub fn new_game(&mut self, game: NewGame<'_>, out: &mut Lines) -> Option<ClientEvent> {
        let NewGame { root, limits } = game;
        if let Err(reason) = self.chess960_support() {
            return Some(ClientEvent::Failed(reason.to_string()));
        }
        if let Err(err) = check_node_limit(Protocol::Xboard, limits.nodes, NodeLimitError::Game) {
            return Some(ClientEvent::Failed(err.to_string()));
        }
        // `easy`: no pondering on the opponent's time.
        out.extend([&b"new"[..], b"variant fischerandom", b"force", b"easy"].map(<[u8]>::to_vec));
        let fen = EngineChess::Chess960(CastlingNotation::Shredder).fen(root);
        out.push(format!("setboard {fen}").into_bytes());
        // Thinking output: the scores for adjudication and the PGN comments.
        out.push(b"post".to_vec());
        if let Some(tc) = &limits.clock {
            let level = Level {
                moves_per_session: tc.moves().unwrap_or(0),
                base: tc.base(),
                increment: tc.increment(),
            };
            out.push(level.to_string().into_bytes());
        }
        if let Some(depth) = limits.depth {
            out.push(format!("sd {depth}").into_bytes());
        }
        if let Some(movetime) = limits.movetime {
            out.push(format!("st {}", seconds_text(movetime)).into_bytes());
        }
        self.synced = 0;
        self.playing = false;
        self.asked = None;
        if self.features.ping {
            self.pings += 1;
            out.push(format!("ping {}", self.pings).into_bytes());
            self.phase = Phase::Syncing(self.pings);
            None
        } else {
            self.phase = Phase::Idle;
            Some(ClientEvent::Ready)
        }
    }

    /// `time`/`otim` with a clock, the moves the engine has not seen, `go` the first time.
    pub fn go(&mut self, request: GoRequest<'_>, out: &mut Lines) {
        let game = request.game;
        let turn = game.current.turn();
        if let Some(clocks) = request.clocks {
            out.push(clock_line("time", clocks.of(turn)).into_bytes());
            out.push(clock_line("otim", clocks.of(!turn)).into_bytes());
        }
        for m in game.moves.iter().skip(self.synced) {
            let text = xboard_move_text(m, CastlingForm::Coordinate(CastlingDialect::Chess960));
            out.push(if self.features.usermove {
                format!("usermove {text}").into_bytes()
            } else {
                text.clone().into_bytes()
            });
            self.last_sent = Some(text);
        }
        self.synced = game.moves.len();
        if !self.playing {
            out.push(b"go".to_vec());
            self.playing = true;
        }
        self.asked = Some(game.current.clone());
        self.search = SearchInfo::default();
        self.phase = Phase::Thinking;
    }
}

/// `Illegal move...` or `Error (...): X` naming the move we sent last.
fn is_refusal(line: &[u8], last_sent: Option<&str>) -> bool {
    line.trim_ascii_start().starts_with(b"Illegal move")
        || last_sent.is_some_and(|sent| rejected_command(line) == Some(sent.as_bytes()))
}

#[cfg(test)]
#[path = "xboard_tests.rs"]
mod tests;
