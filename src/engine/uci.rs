//! The UCI front-end as a sans-IO state machine.
//!
//! Castling follows `UCI_Chess960`: on, moves are written king-takes-rook (`e1h1`,
//! `c1a1`); off (the default, as UCI requires), classic castling is written
//! king-to-destination (`e1g1`). Moves are read in either form. Errors in the GUI's
//! commands are reported as `info string error: ...` naming the offending text; a rejected
//! `position` leaves no position, and `go` then answers `bestmove (none)` rather than
//! playing a move in a position the GUI did not mean.

use std::time::Duration;

use shakmaty::{Color, Position};

use super::game::{Game, parse_move, position_from_fen, uci_move_text};
use super::search::{
    Eval, MAX_DEPTH, SearchJob, SearchLimits, SearchReport, SearchResult, TimeBudget,
};
use super::{ENGINE_NAME, EngineEvent, EngineStep, SearchSession, Step, send};
use crate::protocol::first_token;
use crate::protocol::uci::{self, PositionCommand, SetOption, bestmove_line, check_option_line};

/// A UCI conversation.
#[derive(Debug)]
pub struct UciFrontEnd {
    chess960: bool,
    /// `None` after a rejected `position` command.
    game: Option<Game>,
    search: Option<PendingSearch>,
    /// A `go` that came after `stop` but before the stopped search's `bestmove`: it
    /// starts once that `bestmove` is written, as GUIs expect.
    queued: Option<(PendingSearch, Box<SearchJob>)>,
    next_id: u64,
}

#[derive(Debug)]
struct PendingSearch {
    id: u64,
    /// `go infinite` (or a bare `go`): `bestmove` waits for `stop`.
    infinite: bool,
    stop_requested: bool,
    /// A result that arrived before `stop` in an infinite search.
    held: Option<SearchResult>,
    quit_when_done: bool,
}

impl Default for UciFrontEnd {
    fn default() -> UciFrontEnd {
        UciFrontEnd {
            chess960: false,
            game: Some(Game::default()),
            search: None,
            queued: None,
            next_id: 1,
        }
    }
}

fn error(message: impl std::fmt::Display) -> EngineStep {
    send(format!("info string error: {message}"))
}

/// What a `go` command asks for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Go {
    limits: SearchLimits,
    infinite: bool,
    searchmoves: Vec<String>,
}

impl UciFrontEnd {
    /// Whether `UCI_Chess960` is on.
    pub fn chess960(&self) -> bool {
        self.chess960
    }

    /// The current game, if the last `position` command was accepted.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    fn setoption(&mut self, line: &str) -> Vec<EngineStep> {
        let Some(set) = SetOption::parse(line.as_bytes()) else {
            let args = line
                .trim_start()
                .get("setoption".len()..)
                .unwrap_or_default();
            return vec![error(format!("setoption without 'name': '{args}'"))];
        };
        if !set.is("UCI_Chess960") {
            return vec![send(format!(
                "info string unknown option '{}' ignored",
                String::from_utf8_lossy(&set.name)
            ))];
        }
        match set.value() {
            value if value.eq_ignore_ascii_case(b"true") => self.chess960 = true,
            value if value.eq_ignore_ascii_case(b"false") => self.chess960 = false,
            value => {
                return vec![error(format!(
                    "UCI_Chess960 takes 'true' or 'false', not '{}'",
                    String::from_utf8_lossy(value)
                ))];
            }
        }
        Vec::new()
    }

    fn position(&mut self, line: &str) -> Vec<EngineStep> {
        self.game = None;
        let command = match PositionCommand::parse(line.as_bytes()) {
            Ok(command) => command,
            Err(err) => return vec![error(format!("position rejected: {err}"))],
        };
        let mut game = match &command.fen {
            None => Game::default(),
            Some(fen) => match position_from_fen(fen) {
                Ok(position) => Game::new(position),
                Err(err) => return vec![error(format!("position rejected: {err}"))],
            },
        };
        let moves: Vec<&str> = command
            .moves
            .iter()
            .map(|m| std::str::from_utf8(m).unwrap_or_default())
            .collect();
        for (index, text) in moves.iter().enumerate() {
            if let Err(err) = game.play_text(text) {
                return vec![error(format!(
                    "position rejected: move {} of the list: {err}",
                    index + 1
                ))];
            }
        }
        self.game = Some(game);
        Vec::new()
    }

    fn parse_go(line: &str, turn: Color) -> Result<Go, uci::GoError> {
        let read = uci::Go::parse(line.as_bytes())?;
        let millis = |value: i64| Duration::from_millis(value.max(0) as u64);
        let mut go = Go {
            infinite: read.infinite,
            searchmoves: read
                .searchmoves
                .iter()
                .map(|span| line[span.clone()].to_owned())
                .collect(),
            ..Go::default()
        };
        go.limits.depth = read.depth.map(|d| d.clamp(1, MAX_DEPTH.into()) as u32);
        go.limits.nodes = read.nodes.map(|n| n.max(1) as u64);
        if let Some(moves) = read.mate {
            go.limits.depth = Some(2 * moves.clamp(1, 31) as u32 - 1);
        }
        let movetime = read.movetime.map(millis);
        let clock = read.time.map(|t| t.map(millis));
        let increment = read.increment.map(|i| i.map_or(Duration::ZERO, millis));
        let moves_to_go = read.moves_to_go.map(|m| m.max(1) as u32);
        let side = turn.fold_wb(0, 1);
        // Only the other side's clock given (a confused GUI): budget from it anyway rather
        // than search forever.
        let own_clock = clock[side].or(clock[1 - side]);
        go.limits.time = match (movetime, own_clock) {
            (Some(movetime), _) => Some(TimeBudget::fixed(movetime)),
            (None, Some(remaining)) => Some(TimeBudget::for_clock(
                remaining,
                increment[side],
                moves_to_go,
            )),
            (None, None) => None,
        };
        if go.limits == SearchLimits::default() {
            // A bare `go` searches until `stop`, as in Stockfish.
            go.infinite = true;
        }
        if go.infinite {
            go.limits = SearchLimits::default();
        }
        Ok(go)
    }

    fn go(&mut self, line: &str) -> Vec<EngineStep> {
        // After `stop`, the stopped search still owes its `bestmove`: this `go` waits
        // for it (see `finish`). Without `stop` (or with a `go` already waiting), the
        // GUI has broken the protocol.
        let wait = match &self.search {
            None => false,
            Some(search) if search.stop_requested && self.queued.is_none() => true,
            Some(_) => return vec![error("go: already searching (send 'stop' first)")],
        };
        let Some(game) = &self.game else {
            return vec![
                error("go: no position (the last 'position' command was rejected)"),
                send("bestmove (none)"),
            ];
        };
        let go = match UciFrontEnd::parse_go(line, game.position().turn()) {
            Ok(go) => go,
            Err(err) => return vec![error(err.to_string())],
        };
        let mut job = game.search_job(go.limits);
        for text in &go.searchmoves {
            match parse_move(game.position(), text) {
                Ok(m) => job.root_moves.push(m),
                Err(err) => return vec![error(format!("go searchmoves: {err}"))],
            }
        }
        let id = self.next_id;
        self.next_id += 1;
        let pending = PendingSearch {
            id,
            infinite: go.infinite,
            stop_requested: false,
            held: None,
            quit_when_done: false,
        };
        if wait {
            self.queued = Some((pending, Box::new(job)));
            return Vec::new();
        }
        self.search = Some(pending);
        vec![Step::Event(EngineEvent::Search {
            id,
            job: Box::new(job),
        })]
    }

    fn stop(&mut self) -> Vec<EngineStep> {
        if let Some((queued, _)) = &mut self.queued {
            // Stops the `go` waiting for its turn: it starts and is stopped at once,
            // so it still answers with a `bestmove`.
            queued.stop_requested = true;
            return Vec::new();
        }
        let Some(search) = &mut self.search else {
            return Vec::new();
        };
        search.stop_requested = true;
        match search.held.take() {
            Some(result) => self.finish(result),
            None => vec![Step::Event(EngineEvent::Stop)],
        }
    }

    /// The `bestmove` line for a finished search, then a quit if one is due, else the
    /// search of a `go` that was waiting for this one.
    fn finish(&mut self, result: SearchResult) -> Vec<EngineStep> {
        let quit = self
            .search
            .take()
            .is_some_and(|search| search.quit_when_done);
        let line = match result.best_move {
            None => bestmove_line("(none)", None),
            Some(best) => bestmove_line(
                &uci_move_text(best, self.chess960),
                result
                    .ponder
                    .map(|ponder| uci_move_text(ponder, self.chess960))
                    .as_deref(),
            ),
        };
        let mut actions = vec![send(line)];
        if quit {
            actions.push(Step::Event(EngineEvent::Quit));
        } else if let Some((next, job)) = self.queued.take() {
            actions.push(Step::Event(EngineEvent::Search { id: next.id, job }));
            if next.stop_requested {
                actions.push(Step::Event(EngineEvent::Stop));
            }
            self.search = Some(next);
        }
        actions
    }

    /// The `info` line of a completed iteration.
    pub fn info_line(&self, info: &SearchReport) -> String {
        uci::Info {
            depth: info.depth,
            seldepth: info.seldepth,
            score: match info.score {
                Eval::Cp(cp) => format!("cp {cp}"),
                Eval::Mate(moves) => format!("mate {moves}"),
            },
            nodes: info.nodes,
            nps: info.nps(),
            time: info.elapsed.as_millis(),
            pv: info
                .pv
                .iter()
                .map(|&m| uci_move_text(m, self.chess960))
                .collect(),
        }
        .to_string()
    }
}

impl SearchSession for UciFrontEnd {
    fn on_gui_line(&mut self, line: &str) -> Vec<EngineStep> {
        let command = std::str::from_utf8(first_token(line.as_bytes())).unwrap_or_default();
        match command {
            "" => Vec::new(),
            "uci" => vec![
                send(format!(
                    "id name {ENGINE_NAME} {}",
                    env!("CARGO_PKG_VERSION")
                )),
                send("id author the sp960 developers"),
                // `default false` in lower case matters: python-chess reads `False` as true.
                send(check_option_line("UCI_Chess960", false)),
                send("uciok"),
            ],
            "isready" => vec![send("readyok")],
            "setoption" => self.setoption(line),
            "ucinewgame" | "debug" | "register" | "ponderhit" => Vec::new(),
            "position" => self.position(line),
            "go" => self.go(line),
            "stop" => self.stop(),
            "quit" => vec![Step::Event(EngineEvent::Quit)],
            other => vec![error(format!(
                "unknown command '{other}' in '{}'",
                line.trim()
            ))],
        }
    }

    fn on_info(&mut self, id: u64, info: &SearchReport) -> Vec<EngineStep> {
        if self.search.as_ref().is_some_and(|search| search.id == id) {
            vec![send(self.info_line(info))]
        } else {
            Vec::new()
        }
    }

    fn on_done(&mut self, id: u64, result: SearchResult) -> Vec<EngineStep> {
        let Some(search) = self.search.as_mut().filter(|search| search.id == id) else {
            return Vec::new();
        };
        if search.infinite && !search.stop_requested {
            // UCI: after `go infinite`, `bestmove` only once `stop` (or `quit`) comes.
            search.held = Some(result);
            return Vec::new();
        }
        self.finish(result)
    }

    fn on_end_of_input(&mut self) -> Vec<EngineStep> {
        if let Some((queued, _)) = &mut self.queued {
            // The waiting `go` is the last search asked for: it runs, then the session
            // ends (an infinite one is stopped as soon as it starts).
            queued.quit_when_done = true;
            queued.stop_requested |= queued.infinite;
            return Vec::new();
        }
        let Some(search) = &mut self.search else {
            return vec![Step::Event(EngineEvent::Quit)];
        };
        // A search already asked for ends normally and its `bestmove` is written (as in
        // `printf 'go depth 5\n' | sp960 engine`); an infinite one is stopped first.
        search.quit_when_done = true;
        if search.infinite {
            self.stop()
        } else {
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::transcript;
    use shakmaty::Square;

    fn run(lines: &[&str]) -> Vec<String> {
        transcript(&mut UciFrontEnd::default(), lines)
    }

    fn bestmove(lines: &[String]) -> &str {
        lines
            .iter()
            .rev()
            .find_map(|line| line.strip_prefix("bestmove "))
            .expect("a bestmove line")
    }

    #[test]
    fn handshake_advertises_chess960() {
        let out = run(&["uci", "isready"]);
        assert!(out[0].starts_with("id name sp960 "), "{out:?}");
        assert_eq!(
            &out[2..],
            [
                "option name UCI_Chess960 type check default false",
                "uciok",
                "readyok"
            ]
        );
    }

    /// `3k4/2R1R3/8/8/8/8/P7/R1K5 w A`: the only mate in one is O-O-O (king stays on c1).
    const MATE_BY_LONG_CASTLING: &str = "3k4/2R1R3/8/8/8/8/P7/R1K5 w A - 0 1";

    #[test]
    fn castling_mate_is_written_per_uci_chess960() {
        let out = run(&[
            "setoption name UCI_Chess960 value true",
            &format!("position fen {MATE_BY_LONG_CASTLING}"),
            "go depth 3",
        ]);
        assert_eq!(bestmove(&out), "c1a1");
        assert!(
            out.iter().any(|line| line.contains("score mate 1")),
            "{out:?}"
        );
        // Off: standard notation would be the null-looking c1c1, so king-takes-rook stays.
        let out = run(&[
            &format!("position fen {MATE_BY_LONG_CASTLING}"),
            "go depth 3",
        ]);
        assert_eq!(bestmove(&out), "c1a1");
    }

    #[test]
    fn classic_castling_follows_the_option() {
        let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
        // Read in either notation, whatever the option says.
        let mut session = UciFrontEnd::default();
        transcript(
            &mut session,
            &[&format!("position fen {fen} moves e1g1 e8h8")],
        );
        let game = session.game().expect("accepted");
        assert_eq!(
            game.position().board().king_of(Color::White),
            Some(Square::G1)
        );
        assert_eq!(
            game.position().board().king_of(Color::Black),
            Some(Square::G8)
        );
        let position = format!("position fen {fen}");
        let out = run(&[&position, "go depth 1 searchmoves e1h1"]);
        assert_eq!(bestmove(&out), "e1g1");
        let out = run(&[
            "setoption name UCI_Chess960 value true",
            &position,
            "go depth 1 searchmoves e1g1",
        ]);
        assert_eq!(bestmove(&out), "e1h1");
    }

    #[test]
    fn position_with_moves_and_limits() {
        let out = run(&[
            "position startpos moves e2e4 e7e5 g1f3",
            "go nodes 500",
            "go movetime 30",
            "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 20",
        ]);
        assert_eq!(
            out.iter()
                .filter(|line| line.starts_with("bestmove "))
                .count(),
            3
        );
        let info = out
            .iter()
            .find(|line| line.starts_with("info depth"))
            .unwrap();
        for field in [
            " seldepth ",
            " score cp ",
            " nodes ",
            " nps ",
            " time ",
            " pv ",
        ] {
            assert!(info.contains(field), "{info}");
        }
    }

    #[test]
    fn bad_commands_are_reported_and_no_move_is_guessed() {
        let out = run(&["position startpos moves e2e4 e2e4", "go depth 2"]);
        assert_eq!(
            out[0],
            "info string error: position rejected: move 2 of the list: illegal move 'e2e4' in rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha - 0 1"
        );
        assert_eq!(bestmove(&out), "(none)");
        let out = run(&["position fen 8/8/8/8/8/8/8/8 w - - 0 1", "go depth 1"]);
        assert!(
            out[0].starts_with(
                "info string error: position rejected: illegal position '8/8/8/8/8/8/8/8 w - - 0 1'"
            ),
            "{out:?}"
        );
        assert_eq!(bestmove(&out), "(none)");
        let out = run(&[
            "position banana",
            "frobnicate",
            "position startpos",
            "go depth x",
            "setoption name Hash value 16",
        ]);
        assert_eq!(
            out,
            [
                "info string error: position rejected: expected 'startpos' or 'fen <FEN>', got 'banana'",
                "info string error: unknown command 'frobnicate' in 'frobnicate'",
                "info string error: go: 'depth' needs a number, not 'x'",
                "info string unknown option 'Hash' ignored",
            ]
        );
    }

    #[test]
    fn go_parameters_become_limits() {
        let go = |args: &str, turn| UciFrontEnd::parse_go(&format!("go {args}"), turn);
        let clock = TimeBudget::for_clock(
            Duration::from_millis(3000),
            Duration::from_millis(20),
            Some(5),
        );
        assert_eq!(
            go(
                "wtime 9000 btime 3000 winc 10 binc 20 movestogo 5 depth 7",
                Color::Black
            )
            .unwrap()
            .limits,
            SearchLimits {
                depth: Some(7),
                nodes: None,
                time: Some(clock)
            }
        );
        assert_eq!(
            go("btime 3000 binc 20 movestogo 5", Color::White)
                .unwrap()
                .limits
                .time,
            Some(TimeBudget::for_clock(
                Duration::from_millis(3000),
                Duration::ZERO,
                Some(5)
            ))
        );
        let fixed = go("movetime 250 wtime 100000 nodes 9", Color::White).unwrap();
        assert_eq!(
            fixed.limits.time,
            Some(TimeBudget::fixed(Duration::from_millis(250)))
        );
        assert_eq!(fixed.limits.nodes, Some(9));
        assert_eq!(go("mate 2", Color::White).unwrap().limits.depth, Some(3));
        let searchmoves = go("searchmoves e2e4 d2d4 depth 3", Color::White).unwrap();
        assert_eq!(
            (searchmoves.searchmoves.len(), searchmoves.limits.depth),
            (2, Some(3))
        );
        assert!(go("", Color::White).unwrap().infinite);
        assert_eq!(
            go("infinite depth 3", Color::White).unwrap().limits,
            SearchLimits::default()
        );
        assert_eq!(
            go("wtime -50", Color::White).unwrap().limits.time,
            Some(TimeBudget::for_clock(Duration::ZERO, Duration::ZERO, None))
        );
        assert_eq!(
            go("nodes", Color::White).unwrap_err().to_string(),
            "go: 'nodes' needs a number"
        );
        assert_eq!(
            go("depht 3", Color::White).unwrap_err().to_string(),
            "go: unknown parameter 'depht'"
        );
    }

    #[test]
    fn checkmated_side_has_no_move() {
        let out = run(&["position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "go depth 3"]);
        assert_eq!(out, ["bestmove (none)"]);
    }

    #[test]
    fn infinite_search_holds_bestmove_until_stop() {
        let mut session = UciFrontEnd::default();
        let actions = session.on_gui_line("go infinite");
        let [Step::Event(EngineEvent::Search { id, job })] = actions.as_slice() else {
            panic!("{actions:?}")
        };
        assert_eq!(job.limits, SearchLimits::default());
        let result = crate::engine::search::search(
            &crate::engine::SearchJob::new(
                job.position.clone(),
                SearchLimits {
                    depth: Some(1),
                    ..SearchLimits::default()
                },
            ),
            &std::sync::atomic::AtomicBool::new(false),
            &mut |_| {},
        );
        // The search ended by itself (say at the depth cap): nothing is written yet.
        assert!(session.on_done(*id, result).is_empty());
        assert_eq!(session.on_gui_line("isready").len(), 1);
        let out = session.on_gui_line("stop");
        assert!(
            matches!(&out[..], [Step::Send { line, .. }] if line.starts_with(b"bestmove ")),
            "{out:?}"
        );
        assert!(session.on_gui_line("stop").is_empty());
    }

    #[test]
    fn stop_asks_the_search_to_end_and_stale_results_are_ignored() {
        let mut session = UciFrontEnd::default();
        let Step::Event(EngineEvent::Search { id, job }) =
            session.on_gui_line("go movetime 100000").remove(0)
        else {
            panic!()
        };
        assert!(matches!(
            session.on_gui_line("go depth 1")[..],
            [Step::Send { line: _, .. }]
        ));
        assert!(matches!(
            session.on_gui_line("stop")[..],
            [Step::Event(EngineEvent::Stop)]
        ));
        let result = crate::engine::search_now(&job, true);
        assert!(session.on_done(id + 7, result.clone()).is_empty());
        let out = session.on_done(id, result);
        assert!(
            matches!(&out[..], [Step::Send { line, .. }] if line.starts_with(b"bestmove ")),
            "{out:?}"
        );
    }

    /// Runs `job` to its end (`stopped`: as if `stop` came at once).

    #[test]
    fn go_after_stop_waits_for_the_stopped_search_then_starts() {
        let mut session = UciFrontEnd::default();
        let Step::Event(EngineEvent::Search { id, job }) =
            session.on_gui_line("go depth 50").remove(0)
        else {
            panic!()
        };
        assert!(matches!(
            session.on_gui_line("stop")[..],
            [Step::Event(EngineEvent::Stop)]
        ));
        // The stopped search has not answered yet: the new `go` waits, no error.
        assert!(
            session
                .on_gui_line("position startpos moves e2e4")
                .is_empty()
        );
        assert!(session.on_gui_line("go depth 1").is_empty());
        assert_eq!(session.on_gui_line("isready").len(), 1);
        let out = session.on_done(id, crate::engine::search_now(&job, true));
        let [
            Step::Send { line: first, .. },
            Step::Event(EngineEvent::Search { id: next, job }),
        ] = &out[..]
        else {
            panic!("{out:?}")
        };
        assert!(first.starts_with(b"bestmove "), "{first:?}");
        assert_ne!(*next, id);
        // The waiting search is on the position given after `stop`, with its own limits.
        assert_eq!(job.limits.depth, Some(1));
        assert_eq!(job.position.turn(), Color::Black);
        let out = session.on_done(*next, crate::engine::search_now(job, false));
        assert!(
            matches!(&out[..], [Step::Send { line, .. }] if line.starts_with(b"bestmove ")),
            "{out:?}"
        );
        // A third `go` while one waits is refused, as is a `go` without `stop`.
        let Step::Event(EngineEvent::Search { id, job }) =
            session.on_gui_line("go depth 50").remove(0)
        else {
            panic!()
        };
        assert!(
            matches!(session.on_gui_line("go depth 2")[..], [Step::Send { line: ref e, .. }] if String::from_utf8_lossy(e).contains("already searching"))
        );
        session.on_gui_line("stop");
        assert!(session.on_gui_line("go depth 2").is_empty());
        assert!(
            matches!(session.on_gui_line("go depth 3")[..], [Step::Send { line: ref e, .. }] if String::from_utf8_lossy(e).contains("already searching"))
        );
        // `stop` for the waiting search: it starts and is stopped at once; end of
        // input after it: its bestmove, then quit.
        assert!(session.on_gui_line("stop").is_empty());
        assert!(session.on_end_of_input().is_empty());
        let out = session.on_done(id, crate::engine::search_now(&job, true));
        let [
            Step::Send { line: _, .. },
            Step::Event(EngineEvent::Search { id, job }),
            Step::Event(EngineEvent::Stop),
        ] = &out[..]
        else {
            panic!("{out:?}")
        };
        let out = session.on_done(*id, crate::engine::search_now(job, true));
        assert!(
            matches!(&out[..], [Step::Send { line, .. }, Step::Event(EngineEvent::Quit)] if line.starts_with(b"bestmove ")),
            "{out:?}"
        );
    }

    #[test]
    fn end_of_input_lets_a_search_finish_then_quits() {
        let mut session = UciFrontEnd::default();
        let Step::Event(EngineEvent::Search { id, job }) =
            session.on_gui_line("go depth 2").remove(0)
        else {
            panic!()
        };
        assert!(session.on_end_of_input().is_empty());
        let result = crate::engine::search_now(&job, false);
        let out = session.on_done(id, result);
        assert!(
            matches!(
                &out[..],
                [Step::Send { line: _, .. }, Step::Event(EngineEvent::Quit)]
            ),
            "{out:?}"
        );
        assert!(matches!(
            UciFrontEnd::default().on_end_of_input()[..],
            [Step::Event(EngineEvent::Quit)]
        ));
    }
}
