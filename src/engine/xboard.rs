//! The XBoard/CECP front-end (protocol version 2) as a sans-IO state machine.
//!
//! Castling: in `variant fischerandom` the engine writes `O-O`/`O-O-O`, as XBoard
//! expects; in `normal`, classic castling is `e1g1`. It reads `O-O`/`O-O-O`,
//! king-takes-rook and king-to-destination alike. Time: `level`, `st`, `sd`, `time`,
//! `otim` and `nps` (nodes instead of seconds, as python-chess uses for node limits).
//! A `ping` that arrives while the engine thinks is answered after its move, as CECP
//! requires.

use std::time::Duration;

use shakmaty::{Color, Position};

use super::game::{EngineGame, position_from_fen, xboard_move_text};
use super::search::{Eval, MAX_DEPTH, SearchLimits, SearchReport, SearchResult, TimeBudget};
use super::{ENGINE_NAME, EngineEvent, EngineStep, SearchSession, Step, send};
use crate::protocol::split_command;
use crate::protocol::xboard::{Level, parse_centiseconds, parse_seconds};

/// The `feature` lines answering `protover 2`.
pub fn feature_lines() -> Vec<String> {
    vec![
        "feature done=0".to_owned(),
        format!(
            "feature ping=1 setboard=1 usermove=1 san=0 time=1 draw=0 sigint=0 reuse=1 \
             analyze=0 colors=0 nps=1 variants=\"normal,fischerandom\" myname=\"{ENGINE_NAME}\""
        ),
        "feature done=1".to_owned(),
    ]
}

/// Time used when the GUI set no limit at all.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// An XBoard conversation.
#[derive(Debug)]
pub struct XboardFrontEnd {
    /// `None` after a rejected `setboard`.
    game: Option<EngineGame>,
    fischerandom: bool,
    force: bool,
    /// The side the engine plays when not in force mode.
    engine_side: Color,
    post: bool,
    depth: Option<u32>,
    move_time: Option<Duration>,
    level: Option<Level>,
    engine_clock: Option<Duration>,
    nodes_per_second: Option<u64>,
    /// The search whose move will be played.
    search: Option<u64>,
    next_id: u64,
    /// `ping`s received while thinking, answered after the move.
    pongs: Vec<String>,
    /// The input ended during a search: quit after its move.
    quit_when_done: bool,
}

impl Default for XboardFrontEnd {
    fn default() -> XboardFrontEnd {
        XboardFrontEnd {
            game: Some(EngineGame::default()),
            fischerandom: false,
            force: false,
            engine_side: Color::Black,
            post: false,
            depth: None,
            move_time: None,
            level: None,
            engine_clock: None,
            nodes_per_second: None,
            search: None,
            next_id: 1,
            pongs: Vec::new(),
            quit_when_done: false,
        }
    }
}

fn unknown(line: &str) -> EngineStep {
    send(format!("Error (unknown command): {}", line.trim()))
}

impl XboardFrontEnd {
    /// The current game, if the last `setboard` was accepted.
    #[cfg(test)]
    pub fn game(&self) -> Option<&EngineGame> {
        self.game.as_ref()
    }

    /// Drops the running search, if any: its move will not be played.
    fn abandon_search(&mut self) -> Vec<EngineStep> {
        let mut actions = Vec::new();
        if self.search.take().is_some() {
            actions.push(Step::Event(EngineEvent::Stop));
        }
        actions.extend(self.pongs.drain(..).map(send));
        actions
    }

    fn limits(&self, position: &shakmaty::Chess) -> SearchLimits {
        let time = if let Some(move_time) = self.move_time {
            Some(TimeBudget::fixed(move_time))
        } else if let Some(level) = self.level {
            let moves_to_go = (level.moves_per_session > 0).then(|| {
                let played = (position.fullmoves().get() - 1) % level.moves_per_session;
                level.moves_per_session - played
            });
            let remaining = self.engine_clock.unwrap_or(level.base);
            Some(TimeBudget::for_clock(
                remaining,
                level.increment,
                moves_to_go,
            ))
        } else {
            self.engine_clock
                .map(|remaining| TimeBudget::for_clock(remaining, Duration::ZERO, None))
        };
        let time = match (time, self.depth) {
            (None, None) => Some(TimeBudget::fixed(DEFAULT_MOVE_TIME)),
            (time, _) => time,
        };
        match (self.nodes_per_second, time) {
            // `nps N`: think in nodes, N per second of the time planned for the move.
            (Some(nps), Some(budget)) => SearchLimits {
                depth: self.depth,
                nodes: Some(((nps as f64 * budget.soft.as_secs_f64()) as u64).max(1)),
                time: None,
            },
            _ => SearchLimits {
                depth: self.depth,
                nodes: None,
                time,
            },
        }
    }

    /// Starts thinking on the side to move, or claims the result when there is no move.
    fn think(&mut self) -> Vec<EngineStep> {
        let Some(game) = &self.game else {
            return vec![send(
                "Error (no position: the last setboard was rejected): go",
            )];
        };
        let position = game.position();
        if position.legal_moves().is_empty() {
            return vec![send(game_over_claim(position))];
        }
        let job = game.search_job(self.limits(position));
        let id = self.next_id;
        self.next_id += 1;
        self.search = Some(id);
        vec![Step::Event(EngineEvent::Search {
            id,
            job: Box::new(job),
        })]
    }

    fn user_move(&mut self, text: &str) -> Vec<EngineStep> {
        let mut actions = self.abandon_search();
        let Some(game) = &mut self.game else {
            actions.push(send(format!("Illegal move (no position): {text}")));
            return actions;
        };
        if let Err(err) = game.play_text(text) {
            actions.push(send(format!("Illegal move ({err}): {text}")));
            return actions;
        }
        if !self.force && game.position().turn() == self.engine_side {
            actions.extend(self.think());
        }
        actions
    }

    fn undo(&mut self, plies: usize) -> Vec<EngineStep> {
        let mut actions = self.abandon_search();
        let undone = self
            .game
            .as_mut()
            .is_some_and(|game| (0..plies).all(|_| game.undo().is_some()));
        if !undone {
            actions.push(send(format!(
                "Error (no move to take back): {}",
                if plies == 1 { "undo" } else { "remove" }
            )));
        }
        actions
    }

    /// `new`: the time control stays; `sd`, the clocks and `nps` (CECP: "until the next
    /// new") do not.
    fn new_game(&mut self) -> Vec<EngineStep> {
        let actions = self.abandon_search();
        *self = XboardFrontEnd {
            next_id: self.next_id,
            level: self.level,
            move_time: self.move_time,
            post: self.post,
            ..XboardFrontEnd::default()
        };
        actions
    }

    fn variant(&mut self, rest: &str) -> Vec<EngineStep> {
        match rest {
            "fischerandom" => self.fischerandom = true,
            "normal" => self.fischerandom = false,
            _ => return vec![send(format!("Error (unsupported variant): {rest}"))],
        }
        Vec::new()
    }

    fn setboard(&mut self, fen: &str) -> Vec<EngineStep> {
        let mut actions = self.abandon_search();
        match position_from_fen(fen) {
            Ok(position) => self.game = Some(EngineGame::new(position)),
            Err(err) => {
                self.game = None;
                actions.push(send(format!("tellusererror Illegal position: {err}")));
            }
        }
        actions
    }

    /// `go` (`to_move`: the engine plays the side to move, now) or `playother` (the other
    /// side, after the user's move); both leave force mode.
    fn take_side(&mut self, to_move: bool) -> Vec<EngineStep> {
        let mut actions = self.abandon_search();
        self.force = false;
        if let Some(game) = &self.game {
            let turn = game.position().turn();
            self.engine_side = if to_move { turn } else { !turn };
        }
        if to_move {
            actions.extend(self.think());
        }
        actions
    }

    /// `sd`, `st`, `level`, `time` and `nps`; what the command needs when `rest` is not it.
    fn time_control(&mut self, command: &str, rest: &str) -> Result<(), &'static str> {
        let number = || {
            rest.split_whitespace()
                .next()
                .and_then(|n| n.parse::<u64>().ok())
        };
        match command {
            "sd" => {
                let depth = number().ok_or("a depth")?;
                self.depth = Some(depth.clamp(1, MAX_DEPTH.into()) as u32);
            }
            "st" => {
                self.move_time = Some(parse_seconds(rest).ok_or("seconds")?);
                self.level = None;
            }
            "level" => {
                self.level = Some(Level::parse(rest).ok_or("MPS BASE INC")?);
                self.move_time = None;
                self.engine_clock = None;
            }
            "time" => self.engine_clock = Some(parse_centiseconds(rest).ok_or("centiseconds")?),
            _ => {
                let nps = number().ok_or("a number")?;
                self.nodes_per_second = (nps > 0).then_some(nps);
            }
        }
        Ok(())
    }

    fn post_line(&self, info: &SearchReport) -> String {
        let score = match info.score {
            Eval::Cp(cp) => cp,
            Eval::Mate(moves) if moves > 0 => 100_000 + moves,
            Eval::Mate(moves) => -100_000 + moves,
        };
        let mut line = format!(
            "{} {score} {} {}",
            info.depth,
            info.elapsed.as_millis() / 10,
            info.nodes
        );
        for &m in &info.pv {
            line.push(' ');
            line.push_str(&xboard_move_text(m, self.fischerandom));
        }
        line
    }
}

/// The result line for a position without legal moves.
fn game_over_claim(position: &shakmaty::Chess) -> String {
    if position.is_check() {
        match position.turn() {
            Color::White => "0-1 {Black mates}".to_owned(),
            Color::Black => "1-0 {White mates}".to_owned(),
        }
    } else {
        "1/2-1/2 {Stalemate}".to_owned()
    }
}

impl SearchSession for XboardFrontEnd {
    fn on_gui_line(&mut self, line: &str) -> Vec<EngineStep> {
        let trimmed = line.trim();
        let (command, rest) = split_command(line);
        match command {
            "" | "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "hard" | "easy" | "draw" | "hint" | "bk" | "." | "otim" | "memory"
            | "cores" | "option" | "egtpath" => Vec::new(),
            "protover" => feature_lines().into_iter().map(send).collect(),
            "new" => self.new_game(),
            "variant" => self.variant(rest),
            "setboard" => self.setboard(rest),
            "usermove" => self.user_move(rest),
            "go" | "playother" => self.take_side(command == "go"),
            "force" | "result" => {
                let actions = self.abandon_search();
                self.force = true;
                actions
            }
            "?" => {
                if self.search.is_some() {
                    vec![Step::Event(EngineEvent::Stop)]
                } else {
                    Vec::new()
                }
            }
            "undo" => self.undo(1),
            "remove" => self.undo(2),
            "ping" => {
                let pong = format!("pong {rest}");
                if self.search.is_some() {
                    self.pongs.push(pong);
                    Vec::new()
                } else {
                    vec![send(pong)]
                }
            }
            "post" | "nopost" => {
                self.post = command == "post";
                Vec::new()
            }
            "sd" | "st" | "level" | "time" | "nps" => match self.time_control(command, rest) {
                Ok(()) => Vec::new(),
                Err(needs) => vec![send(format!("Error ({command} needs {needs}): {trimmed}"))],
            },
            "quit" => vec![Step::Event(EngineEvent::Quit)],
            _ => {
                // Without `usermove`, a bare move (old GUIs, people typing) is a move too.
                let is_move = self
                    .game
                    .as_ref()
                    .is_some_and(|game| super::game::parse_move(game.position(), trimmed).is_ok());
                if is_move {
                    self.user_move(trimmed)
                } else {
                    vec![unknown(trimmed)]
                }
            }
        }
    }

    fn on_info(&mut self, id: u64, info: &SearchReport) -> Vec<EngineStep> {
        if self.post && self.search == Some(id) {
            vec![send(self.post_line(info))]
        } else {
            Vec::new()
        }
    }

    fn on_done(&mut self, id: u64, result: SearchResult) -> Vec<EngineStep> {
        if self.search != Some(id) {
            return Vec::new();
        }
        self.search = None;
        let mut actions = Vec::new();
        if let (Some(game), Some(best)) = (&mut self.game, result.best_move) {
            game.play(best);
            actions.push(send(format!(
                "move {}",
                xboard_move_text(best, self.fischerandom)
            )));
            if game.position().legal_moves().is_empty() {
                actions.push(send(game_over_claim(game.position())));
            }
        }
        actions.extend(self.pongs.drain(..).map(send));
        if self.quit_when_done {
            actions.push(Step::Event(EngineEvent::Quit));
        }
        actions
    }

    fn on_end_of_input(&mut self) -> Vec<EngineStep> {
        // A move being thought about is still played (`printf 'new\ngo\n' | sp960 engine`).
        if self.search.is_some() {
            self.quit_when_done = true;
            Vec::new()
        } else {
            vec![Step::Event(EngineEvent::Quit)]
        }
    }
}

#[cfg(test)]
#[path = "xboard_tests.rs"]
mod tests;
