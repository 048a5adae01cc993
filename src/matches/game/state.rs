//! One game between two engines as a sans-IO state machine, in the manner of quinn-proto's
//! `Connection` and the proxy's sessions: [`Game`] is fed each engine's lines
//! ([`Game::handle_line`]), what the shell saw happen to an engine (it closed, Ctrl-C)
//! and the time ([`Game::set_now`], [`Game::handle_timeout`]); it answers with
//! [`GameStep`]s (lines to send to a side, an engine to seat), the next deadline
//! ([`Game::poll_timeout`]) and, at the end, the referee's verdict ([`Game::ending`]).
//!
//! It owns the referee, the clocks, the adjudicator, the move loop and the two engines'
//! protocol clients, which it drives through their [`Session`] shape: an engine's line in
//! (bytes), [`Step::Send`] lines out, moved on to the shell as they are. It never touches
//! a process, a thread or a clock, so it is unit-tested on transcripts (`state_tests.rs`).
//!
//! The conversation, one side at a time: white is seated (the shell takes or starts its
//! engine and hands over its client, [`Game::seat`]) and set up for a new game until it
//! is ready, then black; then the side to move is asked for a move, with a deadline from
//! its clock (`--tc`) or from `--movetime` and `--move-timeout`, until the rules, an
//! adjudication or a forfeit end the game.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use shakmaty::{ByColor, Chess, Color, Move, Position};

use crate::clients::client::Client;
use crate::clients::talk::{ClientEvent, GoRequest, Limits, Lines, NewGame};
use crate::launch::time_control::TimeControl;
use crate::matches::config::adjudication::{DrawRule, ResignRule};
use crate::matches::game::pgn;
use crate::matches::game::referee::{Adjudicator, Ending, Forfeit, GameClock, Referee};
use crate::protocol::session::{Peer, Session, Step};
use crate::protocol::uci::EngineScore;

/// How long an engine may take to get ready: the handshake, and a new game's setup.
pub(crate) const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(15);
/// Past a clock's last millisecond: the flag has surely fallen.
const FLAG_GRACE: Duration = Duration::from_millis(100);

/// What decides a game besides the engines' moves: its start and the match's settings.
#[derive(Debug, Clone)]
pub(crate) struct GameSetup {
    /// The start position.
    pub root: Chess,
    /// The opening's moves, played for the engines (legal: checked when read).
    pub opening: Vec<Move>,
    /// `--max-plies`.
    pub max_plies: Option<u32>,
    /// `--resign`.
    pub resign: Option<ResignRule>,
    /// `--draw`.
    pub draw: Option<DrawRule>,
    /// `--tc`: the clock both sides play on.
    pub clock: Option<TimeControl>,
    /// Each side's search limits.
    pub limits: ByColor<Limits>,
    /// Without a clock: how long past its `movetime` (if any) a side may take for a move.
    pub move_timeout: Duration,
}

/// What the shell does for the game, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum GameStep {
    /// Write `lines` (no line endings) to `to`'s engine, and flush once.
    Send {
        /// The engine's side.
        to: Color,
        /// The lines, as the client wrote them.
        lines: Lines,
    },
    /// Seat this side's engine (take it or start it), then [`Game::seat`] its client or
    /// [`Game::seat_failed`].
    Seat(Color),
}

/// Where the game is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Phase {
    /// Waiting for the shell to seat this side.
    Seating(Color),
    /// The side's new-game setup is sent; it must be ready by the deadline.
    SettingUp { side: Color, deadline: Instant },
    /// The side to move was asked at `started` and must answer by the deadline.
    Thinking {
        started: Instant,
        allowed: Duration,
        deadline: Instant,
    },
    /// Over: the verdict.
    Over(Ending),
}

/// One game, sans-IO.
#[derive(Debug)]
pub(crate) struct Game {
    setup: GameSetup,
    referee: Referee,
    adjudicator: Adjudicator,
    clock: Option<GameClock>,
    /// The clients, once seated.
    clients: ByColor<Option<Client>>,
    /// Each move's PGN comment (`book` for the opening's).
    comments: Vec<String>,
    phase: Phase,
    now: Instant,
    steps: VecDeque<GameStep>,
    /// Reused for each line's [`Step`]s.
    read: Vec<Step<ClientEvent>>,
}

/// A finished game's record (the shell adds which game it was).
#[derive(Debug)]
pub(crate) struct Played {
    /// The start position.
    pub root: Chess,
    /// Every move, the opening's included.
    pub moves: Vec<Move>,
    /// One PGN comment per move.
    pub comments: Vec<String>,
    /// The verdict.
    pub ending: Ending,
    /// The side to move at the end.
    pub turn: Color,
}

fn forfeit(loser: Color, kind: Forfeit, detail: String) -> Ending {
    Ending::Forfeit {
        loser,
        kind,
        detail,
    }
}

impl Game {
    /// A game from `setup` at `now`: the opening is played, and white's engine is asked
    /// for ([`GameStep::Seat`]).
    pub(crate) fn new(setup: GameSetup, now: Instant) -> Game {
        let mut referee = Referee::new(setup.root.clone(), setup.max_plies);
        let mut comments = Vec::with_capacity(setup.opening.len() + 80);
        for m in &setup.opening {
            referee.play(*m);
            comments.push("book".to_owned());
        }
        Game {
            adjudicator: Adjudicator::new(setup.resign, setup.draw),
            clock: setup.clock.clone().map(GameClock::new),
            referee,
            clients: ByColor::default(),
            comments,
            phase: Phase::Seating(Color::White),
            now,
            steps: VecDeque::from([GameStep::Seat(Color::White)]),
            read: Vec::new(),
            setup,
        }
    }

    /// The time now: given before each call that reads engine lines or seats an engine.
    /// The game never reads a clock itself.
    pub(crate) fn set_now(&mut self, now: Instant) {
        self.now = now;
    }

    /// The next thing for the shell to do, in order.
    pub(crate) fn poll(&mut self) -> Option<GameStep> {
        self.steps.pop_front()
    }

    /// The side whose engine the shell reads now (until [`Game::poll_timeout`]): none
    /// while an engine is to be seated, or once the game is over.
    pub(crate) fn awaiting(&self) -> Option<Color> {
        match self.phase {
            Phase::SettingUp { side, .. } => Some(side),
            Phase::Thinking { .. } => Some(self.turn()),
            Phase::Seating(_) | Phase::Over(_) => None,
        }
    }

    /// When [`Game::handle_timeout`] is due, if the game waits for an engine.
    pub(crate) fn poll_timeout(&self) -> Option<Instant> {
        match self.phase {
            Phase::SettingUp { deadline, .. } | Phase::Thinking { deadline, .. } => Some(deadline),
            Phase::Seating(_) | Phase::Over(_) => None,
        }
    }

    /// The verdict, once the game is over.
    pub(crate) fn ending(&self) -> Option<&Ending> {
        match &self.phase {
            Phase::Over(ending) => Some(ending),
            _ => None,
        }
    }

    fn turn(&self) -> Color {
        self.referee.line().current.turn()
    }

    /// The verdict: lines already queued still go out, no engine is seated any more.
    fn end(&mut self, ending: Ending) {
        self.phase = Phase::Over(ending);
        self.steps
            .retain(|step| matches!(step, GameStep::Send { .. }));
    }

    fn send(&mut self, to: Color, lines: Lines) {
        if !lines.is_empty() {
            self.steps.push_back(GameStep::Send { to, lines });
        }
    }

    /// `side`'s engine is running and handshaken: its new game is set up.
    /// (A client seated when none was asked for is only kept, and given back by
    /// [`Game::finish`].)
    pub(crate) fn seat(&mut self, side: Color, client: Client) {
        let client = self.clients[side].insert(client);
        if self.phase != Phase::Seating(side) {
            return;
        }
        let mut lines = Vec::new();
        let game = NewGame {
            root: &self.setup.root,
            limits: &self.setup.limits[side],
        };
        let event = client.new_game(game, &mut lines);
        self.send(side, lines);
        match event {
            None => {
                self.phase = Phase::SettingUp {
                    side,
                    deadline: self.now + HANDSHAKE_TIMEOUT,
                };
            }
            Some(event) => self.set_up(side, event),
        }
    }

    /// `side`'s engine could not be started or handshaken: it forfeits.
    pub(crate) fn seat_failed(&mut self, side: Color, reason: String) {
        if self.phase == Phase::Seating(side) {
            self.end(forfeit(side, Forfeit::Start, reason));
        }
    }

    /// During `side`'s setup: what its engine said.
    fn set_up(&mut self, side: Color, event: ClientEvent) {
        match event {
            ClientEvent::Ready if side.is_white() => {
                self.phase = Phase::Seating(Color::Black);
                self.steps.push_back(GameStep::Seat(Color::Black));
            }
            ClientEvent::Ready => self.ask(),
            ClientEvent::Failed(reason) => self.end(forfeit(side, Forfeit::Start, reason)),
            other => self.end(forfeit(
                side,
                Forfeit::Start,
                format!("unexpected {other:?}"),
            )),
        }
    }

    /// The game goes on: the rules end it, or the side to move is asked for a move.
    fn ask(&mut self) {
        if let Some(ending) = self.referee.ending() {
            return self.end(ending);
        }
        let turn = self.turn();
        let limits = &self.setup.limits[turn];
        let request = GoRequest {
            game: self.referee.line(),
            limits,
            clocks: self.clock.as_ref().map(|clock| clock.clocks(turn)),
        };
        let mut lines = Vec::new();
        if let Some(client) = &mut self.clients[turn] {
            client.go(request, &mut lines);
        }
        let allowed = match &self.clock {
            Some(clock) => clock.remaining(turn) + FLAG_GRACE,
            None => limits.movetime.unwrap_or_default() + self.setup.move_timeout,
        };
        self.send(turn, lines);
        self.phase = Phase::Thinking {
            started: self.now,
            allowed,
            deadline: self.now + allowed,
        };
    }

    /// A line from `from`'s engine (no line ending), read at the time last set.
    pub(crate) fn handle_line(&mut self, from: Color, line: &[u8]) {
        let Some(client) = &mut self.clients[from] else {
            return;
        };
        let mut read = std::mem::take(&mut self.read);
        Session::on_line(client, Peer::Engine, line, &mut read);
        let mut lines = Vec::new();
        let mut event = None;
        for step in read.drain(..) {
            match step {
                Step::Send { line, .. } => lines.push(line),
                Step::Event(e) => event = Some(e),
                Step::Forward => {}
            }
        }
        self.read = read;
        self.send(from, lines);
        if let Some(event) = event
            && self.awaiting() == Some(from)
        {
            self.on_event(from, event);
        }
    }

    fn on_event(&mut self, from: Color, event: ClientEvent) {
        match (&self.phase, event) {
            (Phase::SettingUp { .. }, event) => self.set_up(from, event),
            (Phase::Thinking { .. }, ClientEvent::Ready) => {}
            (Phase::Thinking { started, .. }, ClientEvent::Move(m)) => {
                let used = self.now.saturating_duration_since(*started);
                self.moved(from, m, used);
            }
            (Phase::Thinking { .. }, ClientEvent::Resign) => {
                self.end(forfeit(from, Forfeit::Resign, String::new()));
            }
            (Phase::Thinking { .. }, ClientEvent::Failed(reason)) => {
                self.end(forfeit(from, Forfeit::IllegalMove, reason));
            }
            (Phase::Seating(_) | Phase::Over(_), _) => {}
        }
    }

    /// `mover` played `m` (legal: its client checked it) after `used`: its clock, the
    /// move and its comment, the adjudication; then the next move.
    fn moved(&mut self, mover: Color, m: Move, used: Duration) {
        if let Some(clock) = &mut self.clock {
            let left = clock.remaining(mover);
            if !clock.record(mover, used) {
                let detail = format!(
                    "{:.3} s used, {:.3} s left",
                    used.as_secs_f64(),
                    left.as_secs_f64()
                );
                return self.end(self.referee.flag_fall(mover, detail));
            }
        }
        self.referee.play(m);
        let client = self.clients[mover].as_ref().expect("the mover is seated");
        let search = client.last_search();
        self.comments
            .push(pgn::move_comment(search.score, search.depth, used));
        let eval = client.latest_eval();
        if self.referee.ending().is_none()
            && let Some(ending) = self.adjudicator.add_eval(
                &self.referee.line().current,
                self.referee.line().moves.len(),
                mover,
                eval.depth,
                eval.score.map(EngineScore::cutechess_value),
            )
        {
            return self.end(ending);
        }
        self.ask();
    }

    /// `side`'s engine closed its output or its input (`how`: its exit status in
    /// words): it forfeits.
    pub(crate) fn handle_closed(&mut self, side: Color, how: &str) {
        if self.ending().is_none() {
            self.end(forfeit(side, Forfeit::Crash, format!("the engine {how}")));
        }
    }

    /// Ctrl-C while the shell waited for the engine [`Game::awaiting`] names: the game
    /// ends as that side's crash (the shell abandons it).
    pub(crate) fn handle_interrupt(&mut self) {
        if let Some(side) = self.awaiting() {
            self.end(forfeit(side, Forfeit::Crash, "interrupted".to_owned()));
        }
    }

    /// The time is `now`: a side past its deadline loses (its flag, or a time-out).
    pub(crate) fn handle_timeout(&mut self, now: Instant) {
        self.now = now;
        if self.poll_timeout().is_none_or(|deadline| now < deadline) {
            return;
        }
        match self.phase {
            Phase::SettingUp { side, .. } => self.end(forfeit(
                side,
                Forfeit::Timeout,
                "not ready for a new game".into(),
            )),
            Phase::Thinking { allowed, .. } => {
                let turn = self.turn();
                let ending = match self.clock {
                    Some(_) => self.referee.flag_fall(
                        turn,
                        format!("no move within {:.3} s", allowed.as_secs_f64()),
                    ),
                    None => forfeit(
                        turn,
                        Forfeit::Timeout,
                        format!("no move within {:.1} s", allowed.as_secs_f64()),
                    ),
                };
                self.end(ending);
            }
            Phase::Seating(_) | Phase::Over(_) => {}
        }
    }

    /// The record and the clients (those seated), for their next games. `None` for the
    /// record while the game is not over.
    pub(crate) fn finish(self) -> (Option<Played>, ByColor<Option<Client>>) {
        let Phase::Over(ending) = self.phase else {
            return (None, self.clients);
        };
        let turn = self.referee.line().current.turn();
        let line = self.referee.into_line();
        let played = Played {
            root: line.root,
            moves: line.moves,
            comments: self.comments,
            ending,
            turn,
        };
        (Some(played), self.clients)
    }
}

#[cfg(test)]
#[path = "state_tests.rs"]
mod tests;
