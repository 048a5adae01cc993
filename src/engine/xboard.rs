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

use super::game::{Game, position_from_fen, xboard_move_text};
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
    game: Option<Game>,
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
            game: Some(Game::default()),
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
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Whether `variant fischerandom` is on.
    pub fn fischerandom(&self) -> bool {
        self.fischerandom
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
            Ok(position) => self.game = Some(Game::new(position)),
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
mod tests {
    use super::*;
    use crate::engine::transcript;
    use shakmaty::Square;

    fn run(lines: &[&str]) -> Vec<String> {
        transcript(&mut XboardFrontEnd::default(), lines)
    }

    fn moves(lines: &[String]) -> Vec<&str> {
        lines
            .iter()
            .filter_map(|line| line.strip_prefix("move "))
            .collect()
    }

    #[test]
    fn handshake_declares_the_features_python_chess_needs() {
        let out = run(&["xboard", "protover 2", "ping 1"]);
        assert_eq!(out[0], "feature done=0");
        for feature in [
            "setboard=1",
            "usermove=1",
            "san=0",
            "ping=1",
            "sigint=0",
            "myname=\"sp960\"",
            "variants=\"normal,fischerandom\"",
        ] {
            assert!(out[1].contains(feature), "{feature} in {}", out[1]);
        }
        assert_eq!(&out[2..], ["feature done=1", "pong 1"]);
    }

    /// SP 860 after six moves each: O-O-O (c1a1) and O-O (c1e1) both legal.
    const SP860_CASTLES: &str =
        "r1k1r2q/pp1ppbpp/2pbn1n1/5p2/5P2/2PBN1N1/PP1PPBPP/R1K1R2Q w EAea - 2 7";

    #[test]
    fn fischerandom_castling_in_every_notation() {
        for castle in ["O-O", "c1e1", "c1g1"] {
            let mut session = XboardFrontEnd::default();
            let setboard = format!("setboard {SP860_CASTLES}");
            let out = transcript(
                &mut session,
                &[
                    "new",
                    "variant fischerandom",
                    "force",
                    &setboard,
                    &format!("usermove {castle}"),
                ],
            );
            assert!(out.is_empty(), "{castle}: {out:?}");
            let board = session.game().unwrap().position().board().clone();
            assert_eq!(board.king_of(Color::White), Some(Square::G1), "{castle}");
            assert_eq!(
                board.role_at(Square::F1),
                Some(shakmaty::Role::Rook),
                "{castle}"
            );
        }
    }

    #[test]
    fn engine_castles_as_o_o_o_in_fischerandom() {
        let out = run(&[
            "new",
            "variant fischerandom",
            "force",
            "setboard 3k4/2R1R3/8/8/8/8/P7/R1K5 w A - 0 1",
            "sd 3",
            "go",
        ]);
        assert_eq!(moves(&out), ["O-O-O"]);
        assert_eq!(out.last().unwrap(), "1-0 {White mates}");
        let out = run(&[
            "new",
            "force",
            "setboard r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1",
            "usermove e8g8",
            "undo",
            "usermove e8c8",
            "usermove e1g1",
            "remove",
            "ping 4",
            "remove",
        ]);
        assert_eq!(out, ["pong 4", "Error (no move to take back): remove"]);
    }

    #[test]
    fn plays_its_side_after_user_moves_and_answers_ping_after_the_move() {
        let mut session = XboardFrontEnd::default();
        let out = transcript(&mut session, &["new", "sd 2", "post", "usermove e2e4"]);
        let [.., last] = out.as_slice() else { panic!() };
        assert!(last.starts_with("move "), "{out:?}");
        assert!(
            out[0].split_whitespace().count() >= 5,
            "post line: {}",
            out[0]
        );
        assert_eq!(session.game().unwrap().moves().len(), 2);
        // A ping during thinking is answered only after the move.
        let Step::Event(EngineEvent::Search { id, job }) =
            session.on_gui_line("usermove d2d4").remove(0)
        else {
            panic!()
        };
        assert!(session.on_gui_line("ping 9").is_empty());
        let result = crate::engine::search_now(&job, false);
        let out = session.on_done(id, result);
        assert!(
            matches!(&out[..], [Step::Send { line: m, .. }, Step::Send { line: pong, .. }] if m.starts_with(b"move ") && pong == b"pong 9"),
            "{out:?}"
        );
    }

    #[test]
    fn force_mode_takes_moves_without_thinking() {
        let out = run(&[
            "new",
            "force",
            "usermove e2e4",
            "usermove e7e5",
            "e2e4",
            "usermove e1e8",
            "ping 2",
        ]);
        assert_eq!(
            out,
            [
                "Error (unknown command): e2e4",
                "Illegal move (illegal move 'e1e8' in rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w HAha - 0 2): e1e8",
                "pong 2",
            ]
        );
    }

    #[test]
    fn limits_follow_level_time_st_sd_and_nps() {
        let mut session = XboardFrontEnd::default();
        let position = shakmaty::Chess::default();
        assert_eq!(
            session.limits(&position).time,
            Some(TimeBudget::fixed(DEFAULT_MOVE_TIME))
        );
        transcript(&mut session, &["sd 4"]);
        assert_eq!(
            session.limits(&position),
            SearchLimits {
                depth: Some(4),
                ..SearchLimits::default()
            }
        );
        transcript(&mut session, &["level 40 5 0", "time 6000"]);
        let limits = session.limits(&position);
        assert_eq!(
            limits.time,
            Some(TimeBudget::for_clock(
                Duration::from_secs(60),
                Duration::ZERO,
                Some(40)
            ))
        );
        transcript(&mut session, &["level 0 2:30 1.5"]);
        assert_eq!(
            session.limits(&position).time,
            Some(TimeBudget::for_clock(
                Duration::from_secs(150),
                Duration::from_millis(1500),
                None
            ))
        );
        transcript(&mut session, &["st 0.25"]);
        assert_eq!(
            session.limits(&position).time,
            Some(TimeBudget::fixed(Duration::from_millis(250)))
        );
        transcript(&mut session, &["nps 1", "st 500"]);
        let limits = session.limits(&position);
        assert_eq!((limits.nodes, limits.time), (Some(499), None));
        // `new` ends node counting and the depth limit, not the time control.
        transcript(&mut session, &["sd 3", "new"]);
        assert_eq!(
            session.limits(&position),
            SearchLimits {
                time: Some(TimeBudget::fixed(Duration::from_secs(500))),
                ..SearchLimits::default()
            }
        );
        let out = transcript(
            &mut session,
            &["level x", "st -1", "sd", "variant crazyhouse"],
        );
        assert_eq!(out.len(), 4, "{out:?}");
        assert!(
            out.iter().all(|line| line.starts_with("Error (")),
            "{out:?}"
        );
    }

    #[test]
    fn bad_setboard_is_told_and_no_move_is_guessed() {
        let out = run(&[
            "new",
            "force",
            "setboard 8/8/8/8 w - - 0 1",
            "go",
            "usermove e2e4",
        ]);
        assert!(
            out[0].starts_with("tellusererror Illegal position: invalid FEN '8/8/8/8 w - - 0 1'"),
            "{out:?}"
        );
        assert!(out[1].starts_with("Error (no position"), "{out:?}");
        assert_eq!(out[2], "Illegal move (no position): e2e4");
    }

    #[test]
    fn mated_engine_claims_the_result() {
        let out = run(&[
            "new",
            "force",
            "setboard 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
            "go",
        ]);
        assert_eq!(out, ["1-0 {White mates}"]);
    }
}
