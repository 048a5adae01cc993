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

use super::game::{EngineGame, parse_move, position_from_fen, uci_move_text};
use super::search::{
    Eval, MAX_DEPTH, SearchJob, SearchLimits, SearchReport, SearchResult, TimeBudget,
};
use super::{ENGINE_NAME, EngineEvent, EngineStep, SearchSession, Step, send};
use crate::protocol::first_token;
use crate::protocol::uci::{self, PositionCommand, SetOption, bestmove_line, check_option_line};

/// The deepest `go perft` answered: depth 7 of a start is billions of nodes, minutes.
const MAX_PERFT_DEPTH: u32 = 6;

/// The second word of a line ("" when there is none).
fn second_token(line: &str) -> &str {
    line.split_whitespace().nth(1).unwrap_or_default()
}

/// A UCI conversation.
#[derive(Debug)]
pub struct UciFrontEnd {
    chess960: bool,
    /// `None` after a rejected `position` command.
    game: Option<EngineGame>,
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
            game: Some(EngineGame::default()),
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
    /// The current game, if the last `position` command was accepted.
    #[cfg(test)]
    pub fn game(&self) -> Option<&EngineGame> {
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
            None => EngineGame::default(),
            Some(fen) => match position_from_fen(fen) {
                Ok(position) => EngineGame::new(position),
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
        // Only the other side's clock given (a confused GUI): budget from it anyway rather
        // than search forever.
        let own_clock = clock.get(turn).or(*clock.get(!turn));
        go.limits.time = match (movetime, own_clock) {
            (Some(movetime), _) => Some(TimeBudget::fixed(movetime)),
            (None, Some(remaining)) => Some(TimeBudget::for_clock(
                remaining,
                *increment.get(turn),
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

    /// `go perft N`, as Stockfish answers it: each legal move with its count at depth
    /// N - 1 (castling as `UCI_Chess960` says), an empty line, `Nodes searched: TOTAL`.
    /// shakmaty's counts: what `sp960 check` finds by its probe and checks the engine with.
    fn perft(&self, line: &str) -> Vec<EngineStep> {
        let Some(game) = &self.game else {
            return vec![error(
                "go perft: no position (the last 'position' command was rejected)",
            )];
        };
        let depth = match line.split_whitespace().nth(2).map(str::parse::<u32>) {
            Some(Ok(depth)) if (1..=MAX_PERFT_DEPTH).contains(&depth) => depth,
            _ => {
                return vec![error(format!(
                    "go perft takes a depth from 1 to {MAX_PERFT_DEPTH}: '{}'",
                    line.trim()
                ))];
            }
        };
        let position = game.position();
        let mut steps = Vec::new();
        let mut total = 0;
        for m in position.legal_moves() {
            let mut child = position.clone();
            child.play_unchecked(m);
            let count = shakmaty::perft(&child, depth - 1);
            total += count;
            steps.push(send(format!(
                "{}: {count}",
                uci_move_text(m, self.chess960)
            )));
        }
        steps.push(send(""));
        steps.push(send(format!("Nodes searched: {total}")));
        steps
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
            "go" if second_token(line) == "perft" => self.perft(line),
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
#[path = "uci_tests.rs"]
mod tests;
