//! The runner's UCI client: `uci`, options, `isready`; per game `ucinewgame`; per move
//! `position fen ... moves ...` and `go`, answered by `bestmove`.
//!
//! An engine with `UCI_Chess960` gets it switched on, Shredder-FEN castling fields and
//! king-takes-rook castling. One without it (Toga II) gets the game as
//! [`GameLine::for_standard_engine`] renders it, the same as the proxy gives it: it just
//! never castles where standard chess would not.
//!
//! An engine the quirks table knows by its `id name` ([`crate::protocol::quirks`]) gets
//! what the proxy or `sp960 tournament` would give it: Glaurung 2.2 its positions as the
//! proxy's shield renders them ([`GameLine::for_shared_castling_files`]), and
//! `setoption name Threads value 1` unless the user set `Threads`.

use shakmaty::{ByColor, Chess, Move, Position};

use crate::clients::talk::{ClientEvent, GoRequest, Lines, illegal_move, no_move};
use crate::protocol::first_token;
use crate::protocol::game::{EngineChess, GameLine};
use crate::protocol::quirks::{quirks, sets_threads};
use crate::protocol::uci::{BestMove, Go, OptionDecl, SearchInfo, setoption_line};
use crate::starts::castling::{parse_move, write_move};
use crate::starts::notation::CastlingNotation;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// `uci` sent.
    Handshake,
    /// `isready` sent.
    Syncing,
    /// Nothing asked.
    Idle,
    /// `go` sent.
    Thinking,
}

/// The UCI conversation with one engine.
#[derive(Debug)]
pub struct UciClient {
    phase: Phase,
    name: Option<String>,
    chess960_option: bool,
    options: Vec<(String, String)>,
    /// The engine keeps one king file and one rook file per wing for both colours
    /// (Glaurung 2.2): it gets [`GameLine::for_shared_castling_files`].
    shared_castling_files: bool,
    /// `Threads` was sent for the engine because the quirks table names a value and the
    /// user set none (a flag, not the value: the client is kept small).
    threads_added: bool,
    /// The position of the last `go`.
    asked: Option<Chess>,
    /// The `info` lines of the search since that `go`, kept as they came and read back
    /// to front when asked: the last line or two say everything, and parsing every
    /// line (the whole PV of each depth) was a quarter of the runner's instructions.
    infos: InfoLines,
    /// The last `position` line sent: the next one appends its new moves to it instead
    /// of rendering the FEN and every move again (a tenth of the runner's instructions).
    sent: Option<SentPosition>,
}

/// The `info` lines of one search, and what the lines before them said.
#[derive(Debug, Default)]
struct InfoLines {
    /// The lines, one after the other.
    text: Vec<u8>,
    /// Where each line starts in `text`.
    starts: Vec<usize>,
    /// What [`InfoLines::read`] gave before the lines now kept (a long search's lines are
    /// read and dropped every 64 KiB).
    before: (SearchInfo, SearchInfo),
}

impl InfoLines {
    /// A new search (the buffers' room is kept).
    fn clear(&mut self) {
        self.text.clear();
        self.starts.clear();
        self.before = Default::default();
    }

    /// Reads the lines kept, and drops them.
    fn settle(&mut self) {
        self.before = self.read();
        self.text.clear();
        self.starts.clear();
    }

    fn push(&mut self, line: &[u8]) {
        if self.text.len() >= 64 * 1024 {
            self.settle();
        }
        self.starts.push(self.text.len());
        self.text.extend_from_slice(line);
    }

    /// What the lines say, as if each had been read in turn: the depth and score of the
    /// last line with an exact score and the time of the last line with one (what
    /// fastchess writes in the PGN: a node limit often ends on an `upperbound` line one
    /// deeper), and the last depth and the last score, bounds included, each from the
    /// last line that has one (what cutechess-cli adjudicates on: its check for the bound
    /// word is never reached).
    fn read(&self) -> (SearchInfo, SearchInfo) {
        let (mut search, mut latest) = self.before;
        let (mut exact, mut time, mut depth, mut scored) = (false, false, false, false);
        let mut end = self.text.len();
        for &start in self.starts.iter().rev() {
            let info = SearchInfo::parse(&self.text[start..end]);
            end = start;
            let Some(info) = info else {
                continue;
            };
            if !exact && info.score.is_some() && !info.bound {
                (search.depth, search.score, exact) = (info.depth, info.score, true);
            }
            if !time && info.time_ms.is_some() {
                (search.time_ms, time) = (info.time_ms, true);
            }
            if !depth && info.depth.is_some() {
                (latest.depth, depth) = (info.depth, true);
            }
            if !scored && info.score.is_some() {
                (latest.score, latest.bound, scored) = (info.score, info.bound, true);
            }
            if exact && time && depth && scored {
                break;
            }
        }
        (search, latest)
    }
}

/// A `position` line and what it was rendered from.
#[derive(Debug)]
struct SentPosition {
    root: Chess,
    moves: Vec<Move>,
    line: Vec<u8>,
}

impl SentPosition {
    /// Whether `line` is this line's game a few moves on. Within a game the line only
    /// grows ([`UciClient::new_game`] drops the kept line), so the number of moves and
    /// the last of them are checked, not every move (comparing them all was 5% of the
    /// runner's instructions).
    fn continued_by(&self, line: &GameLine) -> bool {
        let sent = self.moves.len();
        self.same_root(&line.root)
            && line.moves.len() >= sent
            && (sent == 0 || line.moves[sent - 1] == self.moves[sent - 1])
    }

    /// Whether `root` renders as the same FEN as this line's root: the same position
    /// (shakmaty's equality: board, turn, castling rights, legal en passant square) and
    /// the same move counters.
    fn same_root(&self, root: &Chess) -> bool {
        self.root == *root
            && self.root.halfmoves() == root.halfmoves()
            && self.root.fullmoves() == root.fullmoves()
    }
}

impl UciClient {
    /// A client that sends `uci` now.
    pub fn start(options: Vec<(String, String)>, out: &mut Lines) -> UciClient {
        out.push(b"uci".to_vec());
        UciClient::after_uci(options)
    }

    /// A client whose `uci` was already sent.
    pub fn after_uci(options: Vec<(String, String)>) -> UciClient {
        UciClient {
            phase: Phase::Handshake,
            name: None,
            chess960_option: false,
            options,
            shared_castling_files: false,
            threads_added: false,
            asked: None,
            infos: InfoLines::default(),
            sent: None,
        }
    }

    /// `id name`, once read.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Whether the engine offers `UCI_Chess960`.
    pub fn has_chess960(&self) -> bool {
        self.chess960_option
    }

    /// Whether its positions come from [`GameLine::for_shared_castling_files`]
    /// (Glaurung 2.2, known by its `id name`).
    pub fn shares_castling_files(&self) -> bool {
        self.shared_castling_files
    }

    /// The `Threads` value the client sent on its own (Glaurung 2.2 without the user's
    /// `option.Threads=`).
    pub fn threads_added(&self) -> Option<u32> {
        if self.threads_added {
            quirks(self.name.as_deref().unwrap_or_default()).threads
        } else {
            None
        }
    }

    /// One line from the engine.
    pub fn on_line(&mut self, line: &[u8], out: &mut Lines) -> Option<ClientEvent> {
        let first = first_token(line);
        match (self.phase, first) {
            (Phase::Handshake, b"id") => {
                let rest = line
                    .trim_ascii_start()
                    .strip_prefix(b"id")?
                    .trim_ascii_start();
                if let Some(name) = rest.strip_prefix(b"name") {
                    self.name = Some(String::from_utf8_lossy(name.trim_ascii()).into_owned());
                }
                None
            }
            (Phase::Handshake, b"option") => {
                if OptionDecl::parse(line).is("UCI_Chess960") {
                    self.chess960_option = true;
                }
                None
            }
            (Phase::Handshake, b"uciok") => {
                let known = quirks(self.name.as_deref().unwrap_or_default());
                self.shared_castling_files = known.shared_castling_files;
                for (name, value) in &self.options {
                    out.push(setoption_line(name, value).into_bytes());
                }
                if let Some(threads) = known.threads
                    && !sets_threads(self.options.iter().map(|(name, _)| name.as_str()))
                {
                    out.push(setoption_line("Threads", threads).into_bytes());
                    self.threads_added = true;
                }
                if self.chess960_option {
                    out.push(setoption_line("UCI_Chess960", true).into_bytes());
                }
                out.push(b"isready".to_vec());
                self.phase = Phase::Syncing;
                None
            }
            (Phase::Syncing, b"readyok") => {
                self.phase = Phase::Idle;
                Some(ClientEvent::Ready)
            }
            (Phase::Thinking, b"info") => {
                self.infos.push(line);
                None
            }
            (Phase::Thinking, b"bestmove") => {
                self.phase = Phase::Idle;
                // Read once, not at each question about the search.
                self.infos.settle();
                let position = self.asked.take()?;
                let best = BestMove::parse(line);
                let text = String::from_utf8_lossy(best.best);
                if best.is_null() {
                    return Some(no_move(&text, &position));
                }
                Some(match parse_move(&position, best.best) {
                    Ok(m) => ClientEvent::Move(m),
                    Err(_) => illegal_move(&text, &position),
                })
            }
            _ => None,
        }
    }

    /// What the `info` lines of the last search said (depth, exact score, time).
    pub fn last_search(&self) -> SearchInfo {
        self.infos.read().0
    }

    /// The last depth and score of the last search, bound scores included, as
    /// cutechess-cli's adjudication reads them.
    pub fn latest_eval(&self) -> SearchInfo {
        self.infos.read().1
    }

    /// `ucinewgame` and `isready`; [`ClientEvent::Ready`] follows.
    pub fn new_game(&mut self, out: &mut Lines) -> Option<ClientEvent> {
        self.sent = None;
        out.push(b"ucinewgame".to_vec());
        out.push(b"isready".to_vec());
        self.phase = Phase::Syncing;
        None
    }

    /// Forgets the last `position` line: the next [`UciClient::go`] renders its line whole.
    /// For callers whose lines do not grow like a game's (the book generator's walks go
    /// back to the start), where the kept line's check (the number of moves and the last
    /// one) would take another line of the same length and last move for it.
    pub fn forget_position(&mut self) {
        self.sent = None;
    }

    /// `position` and `go`.
    pub fn go(&mut self, request: GoRequest<'_>, out: &mut Lines) {
        let (engine, line) = if self.chess960_option {
            let engine = EngineChess::Chess960(CastlingNotation::Shredder);
            if self.shared_castling_files {
                (engine, Some(request.game.for_shared_castling_files()))
            } else {
                (engine, None)
            }
        } else {
            (
                EngineChess::Standard,
                Some(request.game.for_standard_engine()),
            )
        };
        let line = line.as_ref().unwrap_or(request.game);
        let sent = match &mut self.sent {
            Some(sent) if sent.continued_by(line) => sent,
            stale => stale.insert(SentPosition {
                root: line.root.clone(),
                moves: Vec::with_capacity(line.moves.len() + 80),
                line: format!("position fen {}", engine.fen(&line.root)).into_bytes(),
            }),
        };
        let new = &line.moves[sent.moves.len()..];
        if sent.moves.is_empty() {
            GameLine::write_moves(new, engine.dialect(), &mut sent.line);
        } else {
            for m in new {
                sent.line.push(b' ');
                write_move(m, engine.dialect(), &mut sent.line);
            }
        }
        sent.moves.extend_from_slice(new);
        out.push(sent.line.clone());
        let millis = |time: std::time::Duration| Some(time.as_millis() as i64);
        let limits = request.limits;
        let mut go = Go {
            depth: limits.depth.map(i64::from),
            nodes: limits.nodes.map(|n| n as i64),
            movetime: limits.movetime.and_then(millis),
            ..Go::default()
        };
        if let Some(clocks) = request.clocks {
            go.time = clocks.remaining.map(millis);
            go.increment = ByColor::new_with(|_| millis(clocks.increment));
            go.moves_to_go = clocks.moves_to_go.map(i64::from);
        }
        out.push(go.to_string().into_bytes());
        self.asked = Some(request.game.current.clone());
        self.infos.clear();
        self.phase = Phase::Thinking;
    }
}

#[cfg(test)]
#[path = "uci_tests.rs"]
mod tests;
