//! The rules side of a game: the moves played so far, how the game ended (shakmaty
//! decides mate, stalemate and insufficient material; the runner counts the fifty-move
//! rule and repetitions), and the clocks the runner keeps. Pure: no engine, no time source.

use std::time::Duration;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{ByColor, Chess, Color, EnPassantMode, Move, Position};

use crate::clients::talk::Clocks;
use crate::launch::time_control::TimeControl;
use crate::matches::config::adjudication::{DrawRule, ResignRule};
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
    /// `--resign` or `--draw`: the engines' scores decided the game.
    Adjudicated {
        /// The winner, `None` for a draw.
        winner: Option<Color>,
        /// Why, in words (the last PGN comment).
        reason: String,
    },
}

impl Ending {
    /// The winner, `None` for a draw. `turn` is the side to move at the end.
    pub fn winner(&self, turn: Color) -> Option<Color> {
        match self {
            Ending::Checkmate => Some(!turn),
            Ending::Forfeit { loser, .. } => Some(!*loser),
            Ending::Adjudicated { winner, .. } => *winner,
            _ => None,
        }
    }

    /// The side whose engine broke down (crashed, timed out, broke the rules, failed to
    /// start, or lost on time): it is started afresh for its next game. A resignation or a
    /// game decided on the board names none.
    pub fn culprit(&self) -> Option<Color> {
        match self {
            Ending::Forfeit { loser, kind, .. } if *kind != Forfeit::Resign => Some(*loser),
            Ending::TimeoutVsInsufficient(color) => Some(*color),
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
            Ending::MaxPlies | Ending::Adjudicated { .. } => "adjudication",
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
            Ending::Adjudicated { reason, .. } => reason.clone(),
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

    /// The game so far, given up (at its end).
    pub fn into_line(self) -> GameLine {
        self.line
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

/// cutechess-cli's `GameAdjudicator`: after each move, the mover's evaluation (its last
/// `info` depth and exact score) counts towards a resign or draw adjudication.
#[derive(Debug, Clone, Default)]
pub struct Adjudicator {
    resign: Option<ResignRule>,
    draw: Option<DrawRule>,
    draw_count: u32,
    resign_count: ByColor<u32>,
    win_count: ByColor<u32>,
}

fn color_name(color: Color) -> &'static str {
    if color.is_white() { "White" } else { "Black" }
}

impl Adjudicator {
    /// A fresh adjudicator for one game.
    pub fn new(resign: Option<ResignRule>, draw: Option<DrawRule>) -> Adjudicator {
        Adjudicator {
            resign,
            draw,
            ..Adjudicator::default()
        }
    }

    /// After `mover`'s move to `position` (`plies` played since the start): its depth and
    /// score (cutechess-cli's value, from the mover's view). No depth or no score counts
    /// as a move without evaluation (cutechess-cli's book or forced move): the counters
    /// start over.
    pub fn add_eval(
        &mut self,
        position: &Chess,
        plies: usize,
        mover: Color,
        depth: Option<u32>,
        score: Option<i64>,
    ) -> Option<Ending> {
        if position.halfmoves() == 0 {
            self.draw_count = 0;
        }
        let score = match (depth, score) {
            (Some(depth), Some(score)) if depth > 0 => score,
            _ => {
                self.draw_count = 0;
                self.resign_count[mover] = 0;
                self.win_count[mover] = 0;
                return None;
            }
        };
        if let Some(rule) = self.draw.filter(|rule| rule.move_number > 0) {
            if score.abs() <= rule.score {
                self.draw_count += 1;
            } else {
                self.draw_count = 0;
            }
            if plies / 2 >= rule.move_number as usize
                && u64::from(self.draw_count) >= u64::from(rule.move_count) * 2
            {
                return Some(Ending::Adjudicated {
                    winner: None,
                    reason: format!(
                        "Draw by adjudication: both scores within {} cp for {} moves",
                        rule.score, rule.move_count
                    ),
                });
            }
        }
        if let Some(rule) = self.resign {
            let count = &mut self.resign_count[mover];
            if score <= -rule.score {
                *count += 1;
            } else {
                *count = 0;
            }
            let count = *count;
            let wins = &mut self.win_count[mover];
            if score >= rule.score {
                *wins += 1;
            } else {
                *wins = 0;
            }
            if count >= rule.move_count
                && (!rule.two_sided || self.win_count[!mover] >= rule.move_count)
            {
                return Some(Ending::Adjudicated {
                    winner: Some(!mover),
                    reason: format!(
                        "{} wins by adjudication: {}'s score at or below -{} cp for {} moves",
                        color_name(!mover),
                        color_name(mover),
                        rule.score,
                        rule.move_count
                    ),
                });
            }
        }
        None
    }
}

/// The two clocks of a game with `--tc`.
#[derive(Debug, Clone)]
pub struct GameClock {
    control: TimeControl,
    remaining: ByColor<Duration>,
    moves_made: ByColor<u32>,
}

impl GameClock {
    /// Both clocks at the start.
    pub fn new(control: TimeControl) -> GameClock {
        GameClock {
            remaining: ByColor::new_with(|_| control.base()),
            control,
            moves_made: ByColor::default(),
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
                .map(|m| m - self.moves_made[color] % m),
        }
    }

    /// Time left for `color`.
    pub fn remaining(&self, color: Color) -> Duration {
        self.remaining[color]
    }

    /// `color` moved after `used`: false when its flag fell. Otherwise the increment is
    /// added, and a new period's time when a period ends.
    pub fn record(&mut self, color: Color, used: Duration) -> bool {
        let Some(left) = self.remaining[color].checked_sub(used) else {
            self.remaining[color] = Duration::ZERO;
            return false;
        };
        self.moves_made[color] += 1;
        let mut left = left + self.control.increment();
        if let Some(period) = self.control.moves().filter(|m| *m > 0)
            && self.moves_made[color].is_multiple_of(period)
        {
            left += self.control.base();
        }
        self.remaining[color] = left;
        true
    }
}

#[cfg(test)]
#[path = "referee_tests.rs"]
mod tests;
