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

use crate::launch::spec::{NodeLimitError, check_node_limit};
use crate::matches::engines::client::{ClientEvent, GoRequest, Limits, illegal_move};
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
}

impl XboardClient {
    /// A client that sends `xboard` and `protover 2` now.
    pub fn start(options: Vec<(String, String)>, out: &mut Vec<String>) -> XboardClient {
        out.push("xboard".to_owned());
        out.push("protover 2".to_owned());
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
        }
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
    pub fn on_line(&mut self, line: &str, out: &mut Vec<String>) -> Option<ClientEvent> {
        let first = first_token(line.as_bytes());
        match (self.phase, first) {
            (Phase::Features, b"feature") => {
                let mut done = None;
                for (key, value) in feature_pairs(line.as_bytes()) {
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
                        out.push(format!("accepted {}", String::from_utf8_lossy(key)));
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
                let answer = std::str::from_utf8(argument(line.as_bytes()))
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
                let text = String::from_utf8_lossy(argument(line.as_bytes())).into_owned();
                Some(match parse_xboard_move(&position, text.as_bytes()) {
                    Ok(m) => {
                        self.synced += 1;
                        ClientEvent::Move(m)
                    }
                    Err(_) => illegal_move(&text, &position),
                })
            }
            (Phase::Thinking, [b'0'..=b'9', ..]) => {
                if let Some(info) = parse_thinking(line.as_bytes()) {
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
                    line.trim()
                )))
            }
            _ => None,
        }
    }

    /// No `feature done=1` came in time: without `done=0` the handshake is over.
    pub fn on_timeout(&mut self, out: &mut Vec<String>) -> Option<ClientEvent> {
        match self.phase {
            Phase::Features if !self.features.done_zero => Some(self.handshake_done(out)),
            Phase::Features => Some(ClientEvent::Failed(
                "sent feature done=0 and never feature done=1".to_owned(),
            )),
            _ => None,
        }
    }

    fn handshake_done(&mut self, out: &mut Vec<String>) -> ClientEvent {
        self.phase = Phase::Idle;
        for (name, value) in &self.options {
            out.push(format!("option {name}={value}"));
        }
        ClientEvent::Ready
    }

    /// Whether the engine's features allow Chess960 games: `setboard=1` and
    /// `fischerandom` among its variants.
    pub fn chess960_support(&self) -> Result<(), String> {
        if !self.features.setboard {
            return Err("no feature setboard=1: cannot set up a Chess960 start".to_owned());
        }
        let fischerandom = self
            .features
            .variants
            .as_deref()
            .is_some_and(|v| v.split(',').any(|v| v.trim() == "fischerandom"));
        if !fischerandom {
            return Err("variant fischerandom is not among the engine's variants".to_owned());
        }
        Ok(())
    }

    /// Sets up a game from `root` with `limits`; [`ClientEvent::Ready`] follows a `ping`
    /// or is returned at once.
    pub fn new_game(
        &mut self,
        root: &Chess,
        limits: &Limits,
        out: &mut Vec<String>,
    ) -> Option<ClientEvent> {
        if let Err(reason) = self.chess960_support() {
            return Some(ClientEvent::Failed(reason));
        }
        if let Err(err) = check_node_limit(Protocol::Xboard, limits.nodes, NodeLimitError::Game) {
            return Some(ClientEvent::Failed(err.to_string()));
        }
        // `easy`: no pondering on the opponent's time.
        out.extend(["new", "variant fischerandom", "force", "easy"].map(String::from));
        let fen = EngineChess::Chess960(CastlingNotation::Shredder).fen(root);
        out.push(format!("setboard {fen}"));
        // Thinking output: the scores for adjudication and the PGN comments.
        out.push("post".to_owned());
        if let Some(tc) = &limits.clock {
            let level = Level {
                moves_per_session: tc.moves().unwrap_or(0),
                base: tc.base(),
                increment: tc.increment(),
            };
            out.push(level.to_string());
        }
        if let Some(depth) = limits.depth {
            out.push(format!("sd {depth}"));
        }
        if let Some(movetime) = limits.movetime {
            out.push(format!("st {}", seconds_text(movetime)));
        }
        self.synced = 0;
        self.playing = false;
        self.asked = None;
        if self.features.ping {
            self.pings += 1;
            out.push(format!("ping {}", self.pings));
            self.phase = Phase::Syncing(self.pings);
            None
        } else {
            self.phase = Phase::Idle;
            Some(ClientEvent::Ready)
        }
    }

    /// `time`/`otim` with a clock, the moves the engine has not seen, `go` the first time.
    pub fn go(&mut self, request: GoRequest<'_>, out: &mut Vec<String>) {
        let game = request.game;
        let turn = game.current.turn();
        if let Some(clocks) = request.clocks {
            out.push(clock_line("time", clocks.of(turn)));
            out.push(clock_line("otim", clocks.of(!turn)));
        }
        for m in game.moves.iter().skip(self.synced) {
            let text = xboard_move_text(m, CastlingForm::Coordinate(CastlingDialect::Chess960));
            out.push(if self.features.usermove {
                format!("usermove {text}")
            } else {
                text.clone()
            });
            self.last_sent = Some(text);
        }
        self.synced = game.moves.len();
        if !self.playing {
            out.push("go".to_owned());
            self.playing = true;
        }
        self.asked = Some(game.current.clone());
        self.search = SearchInfo::default();
        self.phase = Phase::Thinking;
    }
}

/// `Illegal move...` or `Error (...): X` naming the move we sent last.
fn is_refusal(line: &str, last_sent: Option<&str>) -> bool {
    line.trim_start().starts_with("Illegal move")
        || last_sent.is_some_and(|sent| rejected_command(line.as_bytes()) == Some(sent.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::super::client::Clocks;
    use super::*;
    use crate::protocol::game::{GameLine, parse_fen};
    use std::time::Duration;

    const SJAAK_FEATURES: &str = "feature setboard=1 time=1 sigint=0 colors=0 highlight=1 ping=1 memory=1 analyze=1 pause=1 nps=1 sjef=1 myname=\"Sjaak II 1.4.1\" myversion=\"[1.4.1 (x86_64)]\" variants=\"fide_chess,chess960,fischerandom,normal\"";

    fn sjaak() -> XboardClient {
        let mut out = Vec::new();
        let mut client = XboardClient::start(Vec::new(), &mut out);
        assert_eq!(out, ["xboard", "protover 2"]);
        out.clear();
        assert_eq!(client.on_line("#[Chess] 0w>", &mut out), None);
        assert_eq!(client.on_line(SJAAK_FEATURES, &mut out), None);
        assert!(out.contains(&"accepted myname".to_owned()));
        assert_eq!(
            client.on_line(
                "feature option=\"Send O-O/O-O-O for castling -check 1\"",
                &mut out
            ),
            None
        );
        assert_eq!(
            client.on_line("feature done=1", &mut out),
            Some(ClientEvent::Ready)
        );
        assert_eq!(client.name(), Some("Sjaak II 1.4.1"));
        client
    }

    #[test]
    fn sjaak_game_from_sp_860_bare_moves_and_o_o() {
        let mut client = sjaak();
        let (root, _) =
            parse_fen("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1").unwrap();
        let tc: crate::launch::time_control::TimeControl = "40/90+0.5".parse().unwrap();
        let limits = Limits {
            clock: Some(tc),
            ..Limits::default()
        };
        let mut out = Vec::new();
        assert_eq!(client.new_game(&root, &limits, &mut out), None);
        assert_eq!(
            out,
            [
                "new",
                "variant fischerandom",
                "force",
                "easy",
                "setboard rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1",
                "post",
                "level 40 1:30 0.5",
                "ping 1"
            ]
        );
        assert_eq!(client.on_line("pong 1", &mut out), Some(ClientEvent::Ready));
        // Sjaak plays black: white's first move, then go.
        let mut game = GameLine::new(root);
        for m in "d1e3 d8e6 f1g3 f8g6 f2f4 f7f5 g1f2 g8f7".split(' ') {
            game.push_text(m.as_bytes()).unwrap();
        }
        let clocks = Clocks {
            remaining: [Duration::from_millis(80_000), Duration::from_millis(85_500)],
            increment: Duration::from_millis(500),
            moves_to_go: Some(36),
        };
        let mut out = Vec::new();
        // White castles c1e1, sent king takes rook; the engine is black.
        game.push_text(b"c1e1").unwrap();
        let go = |client: &mut XboardClient, game: &GameLine, out: &mut Vec<String>| {
            client.go(
                GoRequest {
                    game,
                    limits: &limits,
                    clocks: Some(clocks),
                },
                out,
            )
        };
        go(&mut client, &game, &mut out);
        assert_eq!(out[..2], ["time 8550", "otim 8000"]);
        assert_eq!(out.last().map(String::as_str), Some("go"));
        assert_eq!(out[out.len() - 2], "c1e1");
        // Thinking output (`post`): the last line is the search's depth and score.
        assert_eq!(
            client.on_line("  1     12      0        21  1. Nc6", &mut out),
            None
        );
        assert_eq!(
            client.on_line("  2    -40      3       160  1. O-O", &mut out),
            None
        );
        let search = client.last_search();
        assert_eq!(search.depth, Some(2));
        assert_eq!(
            search.score,
            Some(crate::protocol::uci::EngineScore::Centipawns(-40))
        );
        assert_eq!(search.time_ms, Some(30));
        let Some(ClientEvent::Move(m)) = client.on_line("move O-O", &mut out) else {
            panic!()
        };
        assert_eq!(client.last_search().depth, Some(2), "kept after the move");
        assert!(m.is_castle());
        game.push(m);
        // Next request: only white's new move, no second go.
        game.push_text(b"c2c3").unwrap();
        out.clear();
        go(&mut client, &game, &mut out);
        assert_eq!(out, ["time 8550", "otim 8000", "c2c3"]);
        assert_eq!(client.last_search(), SearchInfo::default(), "a new search");
        // Sjaak's own result line is not a move.
        assert_eq!(client.on_line("1-0 {White mates}", &mut out), None);
        let Some(ClientEvent::Failed(reason)) =
            client.on_line("Error (Illegal move or unknown command): c2c3", &mut out)
        else {
            panic!()
        };
        assert!(reason.contains("refused the legal move 'c2c3'"), "{reason}");
    }

    #[test]
    fn the_built_in_engines_features_with_done_0() {
        let mut out = Vec::new();
        let mut client = XboardClient::start(Vec::new(), &mut out);
        let mut events = Vec::new();
        for line in crate::engine::xboard::feature_lines() {
            events.extend(client.on_line(&line, &mut out));
        }
        assert_eq!(events, [ClientEvent::Ready]);
        assert_eq!(client.name(), Some(crate::engine::ENGINE_NAME));
        assert_eq!(client.chess960_support(), Ok(()));
        // Before done=1 a time-out would not have ended the handshake.
        let mut waiting = XboardClient::start(Vec::new(), &mut out);
        waiting.on_line("feature done=0", &mut out);
        assert!(matches!(
            waiting.on_timeout(&mut out),
            Some(ClientEvent::Failed(_))
        ));
    }

    #[test]
    fn usermove_prefix_ping_less_engines_and_missing_features() {
        let mut out = Vec::new();
        let mut client = XboardClient::start(Vec::new(), &mut out);
        client.on_line(
            "feature setboard=1 usermove=1 myname=Fairy-Stockfish variants=\"chess,fischerandom\"",
            &mut out,
        );
        assert_eq!(client.on_timeout(&mut out), Some(ClientEvent::Ready));
        let root = Chess::default();
        let limits = Limits {
            depth: Some(4),
            movetime: Some(Duration::from_millis(1500)),
            ..Limits::default()
        };
        out.clear();
        assert_eq!(
            client.new_game(&root, &limits, &mut out),
            Some(ClientEvent::Ready)
        );
        assert_eq!(out[out.len() - 2..], ["sd 4", "st 1.5"]);
        let mut game = GameLine::new(root.clone());
        game.push_text(b"e2e4").unwrap();
        out.clear();
        client.go(
            GoRequest {
                game: &game,
                limits: &limits,
                clocks: None,
            },
            &mut out,
        );
        assert_eq!(out, ["usermove e2e4", "go"]);
        let Some(ClientEvent::Failed(reason)) = client.on_line("move e7e3", &mut out) else {
            panic!()
        };
        assert!(reason.starts_with("illegal move 'e7e3'"), "{reason}");

        let mut client = XboardClient::start(Vec::new(), &mut out);
        client.on_line("feature setboard=1 variants=\"normal\" done=1", &mut out);
        let Some(ClientEvent::Failed(reason)) = client.new_game(&root, &limits, &mut out) else {
            panic!()
        };
        assert!(reason.contains("fischerandom"), "{reason}");
    }
}
