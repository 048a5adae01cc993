//! The rules side of a game: the moves played so far, how the game ended (shakmaty
//! decides mate, stalemate and insufficient material; the runner counts the fifty-move
//! rule and repetitions), and the clocks the runner keeps. Pure: no engine, no time source.

use std::time::Duration;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

use super::client::{Clocks, slot};
use crate::matches::time_control::TimeControl;
use crate::protocol::game::GameLine;

/// Why a side lost without being mated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Forfeit {
    /// It played an illegal move or broke the protocol.
    IllegalMove,
    /// Its flag fell.
    Time,
    /// It gave no move within the time allowed (no clock).
    Timeout,
    /// Its process ended or closed its output.
    Crash,
    /// It could not be started or set up.
    Start,
    /// It resigned.
    Resign,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can mate.
    InsufficientMaterial,
    /// 100 plies without a capture or pawn move.
    FiftyMoves,
    /// The same position a third time.
    Threefold,
    /// `--max-plies` reached: adjudicated a draw.
    MaxPlies,
    /// `loser` forfeits (`detail` says why, in words).
    Forfeit {
        /// The side that loses.
        loser: Color,
        /// What it did.
        kind: Forfeit,
        /// The details (the engine's move text, its exit status, ...).
        detail: String,
    },
    /// The flag of `color` fell, but the other side cannot mate: a draw.
    TimeoutVsInsufficient(Color),
}

impl Ending {
    /// The winner, `None` for a draw. `turn` is the side to move at the end.
    pub fn winner(&self, turn: Color) -> Option<Color> {
        match self {
            Ending::Checkmate => Some(!turn),
            Ending::Forfeit { loser, .. } => Some(!*loser),
            _ => None,
        }
    }

    /// The PGN result (`1-0`, `0-1`, `1/2-1/2`).
    pub fn result(&self, turn: Color) -> &'static str {
        match self.winner(turn) {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The PGN `Termination` tag: `normal`, `adjudication`, `time forfeit`, `illegal move`,
    /// `stalled connection`, `abandoned`.
    pub fn termination(&self) -> &'static str {
        match self {
            Ending::MaxPlies => "adjudication",
            Ending::Forfeit { kind, .. } => match kind {
                Forfeit::IllegalMove => "illegal move",
                Forfeit::Time => "time forfeit",
                Forfeit::Timeout => "stalled connection",
                Forfeit::Crash | Forfeit::Start => "abandoned",
                Forfeit::Resign => "normal",
            },
            Ending::TimeoutVsInsufficient(_) => "time forfeit",
            _ => "normal",
        }
    }

    /// The reason in words, for the PGN comment (`White mates`, `Black crashed: ...`).
    pub fn comment(&self, turn: Color) -> String {
        let name = |color: Color| if color.is_white() { "White" } else { "Black" };
        match self {
            Ending::Checkmate => format!("{} mates", name(!turn)),
            Ending::Stalemate => "Draw by stalemate".to_owned(),
            Ending::InsufficientMaterial => "Draw by insufficient material".to_owned(),
            Ending::FiftyMoves => "Draw by the fifty-move rule".to_owned(),
            Ending::Threefold => "Draw by threefold repetition".to_owned(),
            Ending::MaxPlies => "Draw by adjudication: --max-plies reached".to_owned(),
            Ending::TimeoutVsInsufficient(color) => format!(
                "{} loses on time, but {} cannot mate: draw",
                name(*color),
                name(!*color)
            ),
            Ending::Forfeit {
                loser,
                kind,
                detail,
            } => {
                let what = match kind {
                    Forfeit::IllegalMove => "makes an illegal move",
                    Forfeit::Time => "loses on time",
                    Forfeit::Timeout => "times out",
                    Forfeit::Crash => "disconnects",
                    Forfeit::Start => "fails to start",
                    Forfeit::Resign => "resigns",
                };
                if detail.is_empty() {
                    format!("{} {what}", name(*loser))
                } else {
                    format!("{} {what}: {detail}", name(*loser))
                }
            }
        }
    }
}

/// A game in progress: its moves and the hashes of every position, for repetitions.
#[derive(Debug, Clone)]
pub struct Referee {
    line: GameLine,
    hashes: Vec<Zobrist64>,
    max_plies: Option<u32>,
}

fn hash(position: &Chess) -> Zobrist64 {
    position.zobrist_hash(EnPassantMode::Legal)
}

impl Referee {
    /// A game from `root`, drawn at `max_plies` if given.
    pub fn new(root: Chess, max_plies: Option<u32>) -> Referee {
        Referee {
            hashes: vec![hash(&root)],
            line: GameLine::new(root),
            max_plies,
        }
    }

    /// The game so far.
    pub fn line(&self) -> &GameLine {
        &self.line
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: Move) {
        self.line.push(m);
        self.hashes.push(hash(&self.line.current));
    }

    /// How the game ended, if it did (rules first, then `--max-plies`).
    pub fn ending(&self) -> Option<Ending> {
        let position = &self.line.current;
        if position.is_checkmate() {
            return Some(Ending::Checkmate);
        }
        if position.is_stalemate() {
            return Some(Ending::Stalemate);
        }
        if position.is_insufficient_material() {
            return Some(Ending::InsufficientMaterial);
        }
        if position.halfmoves() >= 100 {
            return Some(Ending::FiftyMoves);
        }
        // Repetitions are only possible since the last irreversible move.
        let reversible = (position.halfmoves() as usize).min(self.hashes.len() - 1);
        let current = self.hashes[self.hashes.len() - 1];
        let seen = self.hashes[self.hashes.len() - 1 - reversible..]
            .iter()
            .filter(|h| **h == current)
            .count();
        if seen >= 3 {
            return Some(Ending::Threefold);
        }
        if self
            .max_plies
            .is_some_and(|max| self.line.moves.len() >= max as usize)
        {
            return Some(Ending::MaxPlies);
        }
        None
    }

    /// The ending when `color`'s flag falls: a loss, or a draw if the other side has no
    /// mating material.
    pub fn flag_fall(&self, color: Color, detail: String) -> Ending {
        if self.line.current.has_insufficient_material(!color) {
            Ending::TimeoutVsInsufficient(color)
        } else {
            Ending::Forfeit {
                loser: color,
                kind: Forfeit::Time,
                detail,
            }
        }
    }
}

/// The two clocks of a game with `--tc`.
#[derive(Debug, Clone)]
pub struct GameClock {
    control: TimeControl,
    remaining: [Duration; 2],
    moves_made: [u32; 2],
}

impl GameClock {
    /// Both clocks at the start.
    pub fn new(control: TimeControl) -> GameClock {
        GameClock {
            remaining: [control.base(); 2],
            control,
            moves_made: [0; 2],
        }
    }

    /// What the engines are told before `color` moves.
    pub fn clocks(&self, color: Color) -> Clocks {
        Clocks {
            remaining: self.remaining,
            increment: self.control.increment(),
            moves_to_go: self
                .control
                .moves()
                .filter(|m| *m > 0)
                .map(|m| m - self.moves_made[slot(color)] % m),
        }
    }

    /// Time left for `color`.
    pub fn remaining(&self, color: Color) -> Duration {
        self.remaining[slot(color)]
    }

    /// `color` moved after `used`: false when its flag fell. Otherwise the increment is
    /// added, and a new period's time when a period ends.
    pub fn record(&mut self, color: Color, used: Duration) -> bool {
        let index = slot(color);
        let Some(left) = self.remaining[index].checked_sub(used) else {
            self.remaining[index] = Duration::ZERO;
            return false;
        };
        self.moves_made[index] += 1;
        let mut left = left + self.control.increment();
        if let Some(period) = self.control.moves().filter(|m| *m > 0)
            && self.moves_made[index].is_multiple_of(period)
        {
            left += self.control.base();
        }
        self.remaining[index] = left;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::game::parse_fen;

    fn referee(fen: &str) -> Referee {
        Referee::new(parse_fen(fen).unwrap().0, None)
    }

    fn play(referee: &mut Referee, moves: &str) {
        for text in moves.split(' ') {
            let m = crate::starts::castling::parse_move(&referee.line().current, text.as_bytes())
                .unwrap();
            referee.play(m);
        }
    }

    #[test]
    fn rules_end_games_with_the_right_result() {
        let mut r = referee("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        play(&mut r, "f2f3 e7e5 g2g4 d8h4");
        assert_eq!(r.ending(), Some(Ending::Checkmate));
        assert_eq!(r.ending().unwrap().result(r.line().current.turn()), "0-1");
        assert_eq!(r.ending().unwrap().comment(Color::White), "Black mates");

        let r = referee("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        assert_eq!(r.ending(), Some(Ending::Stalemate));
        let r = referee("7k/8/6K1/8/8/8/8/6N1 b - - 0 1");
        assert_eq!(r.ending(), Some(Ending::InsufficientMaterial));
        let r = referee("7k/8/6K1/8/8/8/8/6R1 b - - 100 80");
        assert_eq!(r.ending(), Some(Ending::FiftyMoves));

        // Knights out and back twice: the start position a third time.
        let mut r = referee("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        play(&mut r, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
        assert_eq!(r.ending(), None);
        play(&mut r, "f6g8");
        assert_eq!(r.ending(), Some(Ending::Threefold));
        assert_eq!(r.ending().unwrap().result(Color::White), "1/2-1/2");

        let mut r = Referee::new(Chess::default(), Some(2));
        play(&mut r, "e2e4");
        assert_eq!(r.ending(), None);
        play(&mut r, "e7e5");
        assert_eq!(r.ending(), Some(Ending::MaxPlies));
        assert_eq!(r.ending().unwrap().termination(), "adjudication");
    }

    #[test]
    fn forfeits_name_the_loser_and_the_reason() {
        let ending = Ending::Forfeit {
            loser: Color::Black,
            kind: Forfeit::Crash,
            detail: "died unexpectedly from signal 11".to_owned(),
        };
        assert_eq!(ending.result(Color::White), "1-0");
        assert_eq!(ending.termination(), "abandoned");
        assert_eq!(
            ending.comment(Color::White),
            "Black disconnects: died unexpectedly from signal 11"
        );
        // A flag fall against a lone king is a draw.
        let r = referee("7k/8/6K1/8/8/8/8/6Q1 b - - 0 1");
        let white_flag = r.flag_fall(Color::White, String::new());
        assert_eq!(white_flag.result(Color::Black), "1/2-1/2");
        let black_flag = r.flag_fall(Color::Black, String::new());
        assert_eq!(black_flag.result(Color::Black), "1-0");
    }

    #[test]
    fn clocks_add_increments_and_periods_and_flags_fall() {
        let mut clock = GameClock::new("2/60+0.5".parse().unwrap());
        assert_eq!(clock.clocks(Color::White).moves_to_go, Some(2));
        assert!(clock.record(Color::White, Duration::from_secs(10)));
        assert_eq!(clock.remaining(Color::White), Duration::from_millis(50_500));
        assert_eq!(clock.clocks(Color::White).moves_to_go, Some(1));
        assert!(clock.record(Color::White, Duration::from_secs(20)));
        // Second move ends the period: +60 s.
        assert_eq!(clock.remaining(Color::White), Duration::from_secs(91));
        assert_eq!(clock.clocks(Color::White).moves_to_go, Some(2));
        assert_eq!(
            clock.clocks(Color::Black).remaining,
            [Duration::from_secs(91), Duration::from_secs(60)],
            "white first"
        );
        assert!(!clock.record(Color::Black, Duration::from_millis(60_001)));
        assert_eq!(clock.remaining(Color::Black), Duration::ZERO);
    }
}
