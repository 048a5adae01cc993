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

use shakmaty::{Chess, Move, Position};

use crate::matches::engines::client::{ClientEvent, GoRequest, Lines, illegal_move, no_move};
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
            go.increment = [millis(clocks.increment); 2];
            go.moves_to_go = clocks.moves_to_go.map(i64::from);
        }
        out.push(go.to_string().into_bytes());
        self.asked = Some(request.game.current.clone());
        self.infos.clear();
        self.phase = Phase::Thinking;
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::super::client::{Clocks, Limits, Lines};
    use super::*;
    use crate::protocol::game::parse_fen;

    /// The lines as text, as the transcripts show them.
    fn text(lines: &[Vec<u8>]) -> Vec<String> {
        let text = |line: &Vec<u8>| String::from_utf8(line.clone()).expect("ASCII");
        lines.iter().map(text).collect()
    }

    fn handshake(client: &mut UciClient, engine: &[&str]) -> (Vec<String>, Vec<ClientEvent>) {
        let mut out = Vec::new();
        let events = engine
            .iter()
            .filter_map(|line| client.on_line(line.as_bytes(), &mut out))
            .collect();
        (text(&out), events)
    }

    #[test]
    fn stockfish_handshake_turns_chess960_on_after_the_users_options() {
        let mut out = Vec::new();
        let mut client = UciClient::start(vec![("Hash".into(), "16".into())], &mut out);
        assert_eq!(text(&out), ["uci"]);
        let (out, events) = handshake(
            &mut client,
            &[
                "Stockfish 15.1 by the Stockfish developers (see AUTHORS file)",
                "id name Stockfish 15.1",
                "id author the Stockfish developers (see AUTHORS file)",
                "",
                "option name Hash type spin default 16 min 1 max 33554432",
                "option name UCI_Chess960 type check default false",
                "uciok",
                "readyok",
            ],
        );
        assert_eq!(
            out,
            [
                "setoption name Hash value 16",
                "setoption name UCI_Chess960 value true",
                "isready"
            ]
        );
        assert_eq!(events, [ClientEvent::Ready]);
        assert_eq!(client.name(), Some("Stockfish 15.1"));
    }

    #[test]
    fn glaurung_gets_one_thread_and_castling_rights_one_set_of_files_can_hold() {
        let glaurung = [
            "id name Glaurung 2.2",
            "option name Threads type spin default 2 min 1 max 8",
            "option name UCI_Chess960 type check default false",
            "uciok",
            "readyok",
        ];
        // The user's own Threads (any case) is kept, and nothing is added.
        let mut client = UciClient::after_uci(vec![("threads".into(), "3".into())]);
        let (out, _) = handshake(&mut client, &glaurung);
        assert_eq!(out[0], "setoption name threads value 3");
        assert!(!out.iter().any(|line| line.contains("value 1")), "{out:?}");
        assert_eq!(client.threads_added(), None);
        let mut client = UciClient::after_uci(vec![("Hash".into(), "8".into())]);
        let (out, _) = handshake(&mut client, &glaurung);
        assert_eq!(
            out,
            [
                "setoption name Hash value 8",
                "setoption name Threads value 1",
                "setoption name UCI_Chess960 value true",
                "isready"
            ]
        );
        assert_eq!(client.threads_added(), Some(1));
        assert!(client.shares_castling_files());
        // DFRC 860:1: white king c1, rooks a1 e1; black king g8, rooks f8 h8. Glaurung
        // is given white's rights only (white to move); the game is the runner's.
        let (root, _) =
            parse_fen("bqnbnrkr/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAhf - 0 1").unwrap();
        let game = GameLine::new(root);
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let mut out = Vec::new();
        let request = GoRequest {
            game: &game,
            limits: &limits,
            clocks: None,
        };
        client.go(request, &mut out);
        assert_eq!(
            text(&out)[0],
            "position fen bqnbnrkr/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EA - 0 1"
        );
        // Stockfish, not in the table, gets the rights as they are, and no Threads.
        let mut stockfish = UciClient::after_uci(Vec::new());
        let (out, _) = handshake(
            &mut stockfish,
            &[
                "id name Stockfish 15.1",
                "option name UCI_Chess960 type check default false",
                "uciok",
                "readyok",
            ],
        );
        assert!(!out.iter().any(|line| line.contains("Threads")), "{out:?}");
        let mut out = Vec::new();
        stockfish.go(request, &mut out);
        assert_eq!(
            text(&out)[0],
            "position fen bqnbnrkr/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAhf - 0 1"
        );
    }

    #[test]
    fn sp_860_castling_is_sent_and_read_king_takes_rook() {
        let mut client = UciClient::after_uci(Vec::new());
        handshake(
            &mut client,
            &[
                "option name UCI_Chess960 type check default false",
                "uciok",
                "readyok",
            ],
        );
        let (root, _) =
            parse_fen("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1").unwrap();
        let mut game = GameLine::new(root);
        for m in "d1e3 d8e6 f1g3 f8g6 f2f4 f7f5 g1f2 g8f7 c1e1".split(' ') {
            game.push_text(m.as_bytes()).unwrap();
        }
        let limits = Limits {
            depth: Some(3),
            clock: None,
            ..Limits::default()
        };
        let clocks = Clocks {
            remaining: [Duration::from_millis(900), Duration::from_millis(1500)],
            increment: Duration::from_millis(100),
            moves_to_go: Some(7),
        };
        let mut out = Vec::new();
        client.go(
            GoRequest {
                game: &game,
                limits: &limits,
                clocks: Some(clocks),
            },
            &mut out,
        );
        assert_eq!(
            text(&out),
            [
                "position fen rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1 moves d1e3 d8e6 f1g3 f8g6 f2f4 f7f5 g1f2 g8f7 c1e1",
                "go wtime 900 btime 1500 winc 100 binc 100 movestogo 7 depth 3"
            ]
        );
        // Black castles O-O: c8e8 (Ethereal's trailing space included).
        let event = client.on_line(b"bestmove c8e8 ", &mut out);
        let Some(ClientEvent::Move(m)) = event else {
            panic!("{event:?}")
        };
        assert!(m.is_castle());
    }

    #[test]
    fn the_position_line_grows_with_the_game_and_starts_afresh_for_another() {
        let mut client = UciClient::after_uci(Vec::new());
        handshake(
            &mut client,
            &[
                "option name UCI_Chess960 type check default false",
                "uciok",
                "readyok",
            ],
        );
        let limits = Limits::default();
        let position_line = |client: &mut UciClient, game: &GameLine| {
            let mut out = Vec::new();
            let request = GoRequest {
                game,
                limits: &limits,
                clocks: None,
            };
            client.go(request, &mut out);
            text(&out).swap_remove(0)
        };
        let fen = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1";
        let (root, _) = parse_fen(fen).unwrap();
        let mut game = GameLine::new(root.clone());
        assert_eq!(
            position_line(&mut client, &game),
            format!("position fen {fen}")
        );
        let mut expected = format!("position fen {fen} moves");
        for m in "d1e3 d8e6 f1g3 f8g6 f2f4 f7f5 g1f2 g8f7 c1e1".split(' ') {
            game.push_text(m.as_bytes()).unwrap();
            expected.push(' ');
            expected.push_str(m);
            assert_eq!(position_line(&mut client, &game), expected);
        }
        // The next game from the same start, another first move.
        client.new_game(&mut Vec::new());
        let mut next = GameLine::new(root);
        next.push_text(b"g2g3").unwrap();
        assert_eq!(
            position_line(&mut client, &next),
            format!("position fen {fen} moves g2g3")
        );
        // Another start: the same moves, another FEN; and the same position with other
        // move counters is another FEN.
        for start in [
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 4 9",
        ] {
            let mut game = GameLine::new(parse_fen(start).unwrap().0);
            game.push_text(b"g2g3").unwrap();
            assert_eq!(
                position_line(&mut client, &game),
                format!("position fen {start} moves g2g3")
            );
        }
    }

    /// The reading of each line in turn, as the client did before it kept the lines.
    fn read_forward(lines: &[String]) -> (SearchInfo, SearchInfo) {
        let (mut search, mut latest) = (SearchInfo::default(), SearchInfo::default());
        for info in lines.iter().filter_map(|l| SearchInfo::parse(l.as_bytes())) {
            if info.score.is_some() && !info.bound {
                search.depth = info.depth;
                search.score = info.score;
            }
            search.time_ms = info.time_ms.or(search.time_ms);
            latest.depth = info.depth.or(latest.depth);
            if info.score.is_some() {
                latest.score = info.score;
                latest.bound = info.bound;
            }
        }
        (search, latest)
    }

    #[test]
    fn kept_info_lines_read_back_to_front_say_what_reading_each_in_turn_says() {
        let parts = [
            "depth 4",
            "seldepth 6",
            "score cp 17",
            "score cp -40 upperbound",
            "score mate 3 lowerbound",
            "score mate -2",
            "time 12",
            "nodes 500",
            "pv e2e4 e7e5",
            "currmove e2e4 currmovenumber 1",
            "string depth 9 score cp 1 time 5",
        ];
        // A small deterministic generator: searches of 0 to 40 lines (and one of 6000
        // lines, past the 64 KiB at which kept lines are read and dropped).
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |below: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below) as usize
        };
        let mut client = UciClient::after_uci(Vec::new());
        handshake(&mut client, &["uciok", "readyok"]);
        let game = GameLine::new(Chess::default());
        let limits = Limits::default();
        for search in 0..300 {
            let count = if search == 0 { 6000 } else { next(41) };
            let lines: Vec<String> = (0..count)
                .map(|_| {
                    let mut line = "info".to_owned();
                    for _ in 0..next(4) {
                        line.push(' ');
                        line.push_str(parts[next(parts.len() as u64)]);
                    }
                    line
                })
                .collect();
            let mut out = Vec::new();
            let request = GoRequest {
                game: &game,
                limits: &limits,
                clocks: None,
            };
            client.go(request, &mut out);
            for line in &lines {
                client.on_line(line.as_bytes(), &mut out);
            }
            let expected = read_forward(&lines);
            assert_eq!(client.last_search(), expected.0, "{lines:?}");
            assert_eq!(client.latest_eval(), expected.1, "{lines:?}");
            client.on_line(b"bestmove e2e4", &mut out);
            assert_eq!(client.last_search(), expected.0, "{lines:?}");
        }
    }

    /// A client past its handshake (no `UCI_Chess960`) and asked for a move from the
    /// standard start: the client and what it sent.
    fn asked_at_the_start() -> (UciClient, Lines) {
        let mut client = UciClient::after_uci(Vec::new());
        handshake(&mut client, &["uciok", "readyok"]);
        let mut out = Vec::new();
        go_at_the_start(&mut client, &mut out);
        (client, out)
    }

    fn go_at_the_start(client: &mut UciClient, out: &mut Lines) {
        let game = GameLine::new(Chess::default());
        let limits = Limits::default();
        let request = GoRequest {
            game: &game,
            limits: &limits,
            clocks: None,
        };
        client.go(request, out);
    }

    #[test]
    fn illegal_and_missing_moves_fail_with_the_text() {
        let (mut client, mut out) = asked_at_the_start();
        // No UCI_Chess960: X-FEN castling field.
        assert_eq!(
            text(&out)[0],
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        let Some(ClientEvent::Failed(reason)) = client.on_line(b"bestmove e2e5", &mut out) else {
            panic!()
        };
        assert!(reason.contains("illegal move 'e2e5'"), "{reason}");
        go_at_the_start(&mut client, &mut out);
        let Some(ClientEvent::Failed(reason)) = client.on_line(b"bestmove a1a1 ", &mut out) else {
            panic!()
        };
        assert!(
            reason.contains("no move ('a1a1') in a position with 20 legal moves"),
            "{reason}"
        );
        // A stray bestmove when nothing was asked is no event.
        assert_eq!(client.on_line(b"bestmove e2e4", &mut out), None);
    }

    #[test]
    fn the_last_info_of_a_search_is_kept_until_the_next_go() {
        let (mut client, mut out) = asked_at_the_start();
        client.on_line(b"info depth 5 score cp 20 time 7 pv e2e4", &mut out);
        client.on_line(b"info depth 6 score cp 35 upperbound", &mut out);
        client.on_line(b"info depth 6 time 9 nodes 500", &mut out);
        client.on_line(b"bestmove e2e4", &mut out);
        let search = client.last_search();
        assert_eq!(search.depth, Some(5));
        assert_eq!(
            search.score,
            Some(crate::protocol::uci::EngineScore::Centipawns(20))
        );
        assert_eq!(search.time_ms, Some(9));
        let latest = client.latest_eval();
        assert_eq!(latest.depth, Some(6));
        assert_eq!(
            latest.score,
            Some(crate::protocol::uci::EngineScore::Centipawns(35))
        );
        go_at_the_start(&mut client, &mut out);
        assert_eq!(client.last_search(), SearchInfo::default());
        assert_eq!(client.latest_eval(), SearchInfo::default());
    }
}
