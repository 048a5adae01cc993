//! The rules side of a game: the moves played so far, how the game ended (shakmaty
//! decides mate, stalemate and insufficient material; the runner counts the fifty-move
//! rule and repetitions), and the clocks the runner keeps. Pure: no engine, no time source.

use std::time::Duration;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

use crate::launch::time_control::TimeControl;
use crate::matches::engines::client::{Clocks, slot};
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

/// `--resign movecount=N score=CP [twosided=true]`, as cutechess-cli's `-resign`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves of the losing side's score at or below `-score`.
    pub move_count: u32,
    /// Centipawns below zero.
    pub score: i64,
    /// The winning side's score must also be at or above `score` for `move_count` moves.
    pub two_sided: bool,
}

/// `--draw movenumber=N movecount=N score=CP`, as cutechess-cli's `-draw`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawRule {
    /// Full moves played before a draw can be adjudicated.
    pub move_number: u32,
    /// Consecutive moves (of each side) with both scores within `score` of zero.
    pub move_count: u32,
    /// Centipawns from zero.
    pub score: i64,
}

/// Reads `KEY=VALUE` words (several may share a word) for `flag`, with `keys` allowed.
fn key_values(
    flag: &str,
    words: &[String],
    keys: &[&str],
) -> Result<Vec<(String, String)>, String> {
    let mut pairs: Vec<(String, String)> = Vec::new();
    for word in words.iter().flat_map(|w| w.split_whitespace()) {
        let Some((key, value)) = word.split_once('=') else {
            return Err(format!(
                "{flag}: '{word}' is not KEY=VALUE (keys: {})",
                keys.join(", ")
            ));
        };
        if !keys.contains(&key) {
            return Err(format!(
                "{flag}: unknown key '{key}' (keys: {})",
                keys.join(", ")
            ));
        }
        if pairs.iter().any(|(k, _)| k == key) {
            return Err(format!("{flag}: {key} is given twice"));
        }
        pairs.push((key.to_owned(), value.to_owned()));
    }
    Ok(pairs)
}

fn number<T: std::str::FromStr>(
    flag: &str,
    pairs: &[(String, String)],
    key: &str,
    what: &str,
) -> Result<T, String> {
    let (_, value) = pairs
        .iter()
        .find(|(k, _)| k == key)
        .ok_or_else(|| format!("{flag}: {key}= is missing"))?;
    value
        .parse()
        .map_err(|_| format!("{flag}: {key}={value}: not {what}"))
}

impl ResignRule {
    /// Reads `--resign`'s words.
    pub fn parse(words: &[String]) -> Result<ResignRule, String> {
        const FLAG: &str = "--resign";
        let pairs = key_values(FLAG, words, &["movecount", "score", "twosided"])?;
        let move_count = number(FLAG, &pairs, "movecount", "a positive whole number")?;
        if move_count == 0 {
            return Err(format!("{FLAG}: movecount=0: not a positive whole number"));
        }
        let score = number::<u32>(
            FLAG,
            &pairs,
            "score",
            "a whole number of centipawns, 0 or more",
        )?;
        let two_sided = match pairs.iter().find(|(k, _)| k == "twosided") {
            None => false,
            Some((_, value)) => match value.as_str() {
                "true" => true,
                "false" => false,
                _ => return Err(format!("{FLAG}: twosided={value}: not true or false")),
            },
        };
        Ok(ResignRule {
            move_count,
            score: i64::from(score),
            two_sided,
        })
    }
}

impl DrawRule {
    /// Reads `--draw`'s words.
    pub fn parse(words: &[String]) -> Result<DrawRule, String> {
        const FLAG: &str = "--draw";
        let pairs = key_values(FLAG, words, &["movenumber", "movecount", "score"])?;
        let move_number = number(FLAG, &pairs, "movenumber", "a whole number, 0 or more")?;
        let move_count = number(FLAG, &pairs, "movecount", "a whole number, 0 or more")?;
        let score = number::<u32>(
            FLAG,
            &pairs,
            "score",
            "a whole number of centipawns, 0 or more",
        )?;
        Ok(DrawRule {
            move_number,
            move_count,
            score: i64::from(score),
        })
    }
}

/// cutechess-cli's `GameAdjudicator`: after each move, the mover's evaluation (its last
/// `info` depth and exact score) counts towards a resign or draw adjudication.
#[derive(Debug, Clone, Default)]
pub struct Adjudicator {
    resign: Option<ResignRule>,
    draw: Option<DrawRule>,
    draw_count: u32,
    resign_count: [u32; 2],
    win_count: [u32; 2],
}

fn side(color: Color) -> usize {
    usize::from(color.is_black())
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
                self.resign_count[side(mover)] = 0;
                self.win_count[side(mover)] = 0;
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
            let count = &mut self.resign_count[side(mover)];
            if score <= -rule.score {
                *count += 1;
            } else {
                *count = 0;
            }
            let count = *count;
            let wins = &mut self.win_count[side(mover)];
            if score >= rule.score {
                *wins += 1;
            } else {
                *wins = 0;
            }
            if count >= rule.move_count
                && (!rule.two_sided || self.win_count[side(!mover)] >= rule.move_count)
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

    fn words(text: &str) -> Vec<String> {
        vec![text.to_owned()]
    }

    #[test]
    fn resign_and_draw_rules_are_read_and_bad_values_named() {
        assert_eq!(
            ResignRule::parse(&words("movecount=3 score=500 twosided=true")).unwrap(),
            ResignRule {
                move_count: 3,
                score: 500,
                two_sided: true
            }
        );
        assert_eq!(
            DrawRule::parse(&words("movenumber=40 movecount=8 score=10")).unwrap(),
            DrawRule {
                move_number: 40,
                move_count: 8,
                score: 10
            }
        );
        for (text, message) in [
            ("movecount=x score=5", "movecount=x"),
            ("movecount=3", "score= is missing"),
            ("movecount=3 score=5 twosided=yes", "twosided=yes"),
            ("movecount=3 score=5 foo=1", "unknown key 'foo'"),
            ("movecount=0 score=5", "movecount=0"),
            ("movecount=3 score=-5", "score=-5"),
            ("movecount", "'movecount' is not KEY=VALUE"),
        ] {
            let err = ResignRule::parse(&words(text)).unwrap_err();
            assert!(err.contains(message), "{text}: {err}");
        }
        let err = DrawRule::parse(&words("movenumber=1 movecount=2")).unwrap_err();
        assert!(err.contains("score= is missing"), "{err}");
    }

    /// Plays `moves` from the standard start, each with the mover's score from `scores`.
    fn adjudicate(adjudicator: &mut Adjudicator, moves: &str, scores: &[i64]) -> Option<Ending> {
        let mut referee = Referee::new(Chess::default(), None);
        for (ply, (text, score)) in moves.split(' ').zip(scores).enumerate() {
            let m = crate::starts::castling::parse_move(&referee.line().current, text.as_bytes())
                .unwrap();
            let mover = referee.line().current.turn();
            referee.play(m);
            if let Some(ending) = adjudicator.add_eval(
                &referee.line().current,
                ply + 1,
                mover,
                Some(10),
                Some(*score),
            ) {
                return Some(ending);
            }
        }
        None
    }

    const SHUFFLE: &str = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6";

    #[test]
    fn resign_after_movecount_moves_at_or_below_the_score() {
        let rule = ResignRule {
            move_count: 3,
            score: 500,
            two_sided: false,
        };
        // Black's score -600, -500, -700: the third move resigns for it.
        let mut adjudicator = Adjudicator::new(Some(rule), None);
        let ending = adjudicate(&mut adjudicator, SHUFFLE, &[0, -600, 0, -500, 0, -700]).unwrap();
        assert_eq!(ending.winner(Color::White), Some(Color::White));
        assert_eq!(ending.termination(), "adjudication");
        assert!(
            ending
                .comment(Color::White)
                .starts_with("White wins by adjudication")
        );
        // A better score in between starts the count over.
        let mut adjudicator = Adjudicator::new(Some(rule), None);
        assert_eq!(
            adjudicate(
                &mut adjudicator,
                SHUFFLE,
                &[0, -600, 0, -499, 0, -700, 0, -700]
            ),
            None
        );
        // Two-sided: White's score must have been at +500 or more as often.
        let two = ResignRule {
            two_sided: true,
            ..rule
        };
        let mut adjudicator = Adjudicator::new(Some(two), None);
        assert_eq!(
            adjudicate(
                &mut adjudicator,
                SHUFFLE,
                &[400, -600, 600, -600, 600, -600]
            ),
            None
        );
        let mut adjudicator = Adjudicator::new(Some(two), None);
        let ending = adjudicate(
            &mut adjudicator,
            SHUFFLE,
            &[500, -600, 600, -600, 600, -600],
        )
        .unwrap();
        assert_eq!(ending.winner(Color::White), Some(Color::White));
    }

    #[test]
    fn draw_after_movenumber_when_both_scores_stay_near_zero() {
        let rule = DrawRule {
            move_number: 4,
            move_count: 2,
            score: 10,
        };
        let mut adjudicator = Adjudicator::new(None, Some(rule));
        // Four scores within 10 cp by ply 4, but move 4 is not reached until ply 8.
        let ending = adjudicate(&mut adjudicator, SHUFFLE, &[5, -10, 0, 3, 1, 2, 0, 0]).unwrap();
        assert_eq!(ending.winner(Color::White), None);
        assert_eq!(ending.result(Color::White), "1/2-1/2");
        assert_eq!(ending.termination(), "adjudication");
        assert!(
            ending
                .comment(Color::White)
                .starts_with("Draw by adjudication")
        );
        let mut adjudicator = Adjudicator::new(None, Some(rule));
        // 11 cp at ply 7 starts the count over: two more plies are not four.
        assert_eq!(
            adjudicate(&mut adjudicator, SHUFFLE, &[5, -10, 0, 3, 1, 2, 11, 0, 0]),
            None
        );
        // A pawn move (irreversible) also starts it over.
        let mut adjudicator = Adjudicator::new(None, Some(rule));
        assert_eq!(
            adjudicate(
                &mut adjudicator,
                "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 e2e4 f6g8 f3g1",
                &[0, 0, 0, 0, 0, 0, 0, 0, 0]
            ),
            None
        );
    }

    #[test]
    fn a_move_without_a_score_starts_the_counts_over() {
        let rule = ResignRule {
            move_count: 2,
            score: 100,
            two_sided: false,
        };
        let mut adjudicator = Adjudicator::new(Some(rule), None);
        let position = Chess::default();
        assert_eq!(
            adjudicator.add_eval(&position, 1, Color::White, Some(5), Some(-200)),
            None
        );
        assert_eq!(
            adjudicator.add_eval(&position, 3, Color::White, None, None),
            None
        );
        assert_eq!(
            adjudicator.add_eval(&position, 5, Color::White, Some(5), Some(-200)),
            None
        );
        assert!(
            adjudicator
                .add_eval(&position, 7, Color::White, Some(5), Some(-200))
                .is_some()
        );
    }
}
