//! The openings of one start, as a sans-IO state machine: [`Walk::step`] answers with the
//! next search to ask the engine for, [`Walk::feed`] takes the engine's answer, until the
//! start is done ([`WalkStep::Done`]).
//!
//! A walk plays `plies` moves from the start, each chosen at random (the walk's own seeded
//! ChaCha8 stream) among the MultiPV lines whose score is within `margin` centipawns of the
//! best line; the final position is then searched with one line, and kept when that
//! score, from White's side, is a centipawn score inside the window (mate scores never
//! are) and the start has not kept the position already (the book drops a position an
//! earlier start holds when it writes this one's). Walks are tried until `per_start`
//! openings are kept or `tries` walks have been made. Searches are remembered by position
//! within a start (the start position's search is made once, not once per walk).

use std::collections::{HashMap, HashSet};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, EnPassantMode, Move, Position};
use thiserror::Error;

use crate::protocol::uci::EngineScore;
use crate::starts::castling::parse_move;
use crate::starts::notation::{CastlingNotation, epd_fields};
use crate::starts::start::{InvalidStart, Start};

/// An evaluation window, in centipawns from White's side, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// The lowest score kept.
    pub low: i32,
    /// The highest score kept.
    pub high: i32,
}

impl Window {
    /// Whether a score from White's side lies in the window (mate scores never do).
    pub fn contains(self, white: EngineScore) -> bool {
        matches!(white, EngineScore::Centipawns(cp) if (self.low..=self.high).contains(&cp))
    }
}

/// How the openings of every start are made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalkSettings {
    /// Moves (plies) from the start.
    pub plies: u32,
    /// Openings wanted per start.
    pub per_start: u32,
    /// Kept evaluations; `None`: every centipawn score (no mate).
    pub window: Option<Window>,
    /// A move may be chosen when its line scores at most this many centipawns below the best.
    pub margin: i32,
    /// MultiPV lines asked for at each ply.
    pub multipv: u32,
    /// Walks tried per start at most.
    pub tries: u32,
    /// The seed of every start's random stream.
    pub seed: u64,
}

/// A search the walk needs: the position after `moves` from the start, with `lines`
/// MultiPV lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchRequest {
    /// The moves from the start.
    pub moves: Vec<Move>,
    /// MultiPV lines wanted.
    pub lines: u32,
    /// The final position's own evaluation, to be searched in a cleared hash
    /// (`ucinewgame`), so that a fresh engine at the same settings gives the same score.
    pub fresh: bool,
}

/// One MultiPV line of a finished search: its first move (as the engine wrote it) and
/// its score, from the side to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PvLine {
    /// The line's first move, in the engine's coordinate notation.
    pub first_move: String,
    /// The line's score, from the side to move.
    pub score: EngineScore,
}

/// What the engine answered: its lines (best first) and the search effort.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EngineAnswer {
    /// The lines, in MultiPV order (best first).
    pub lines: Vec<PvLine>,
    /// The depth reached (`info depth`).
    pub depth: Option<u32>,
    /// The nodes searched (`info nodes`).
    pub nodes: Option<u64>,
}

/// An opening kept for the book.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookOpening {
    /// Its start.
    pub start: Start,
    /// The moves from the start.
    pub moves: Vec<Move>,
    /// The position after them.
    pub position: Chess,
    /// The final search's score, from the side to move, in centipawns.
    pub score: i32,
    /// The final search's depth.
    pub depth: Option<u32>,
    /// The final search's nodes.
    pub nodes: Option<u64>,
}

#[cfg(test)]
impl BookOpening {
    /// An opening for the tests: `moves` (coordinates) played from the start `spec`,
    /// scored `score` by a search of depth 9 and 10,000 nodes.
    pub(crate) fn played(spec: &str, moves: &str, score: i32) -> BookOpening {
        let start: Start = spec.parse().unwrap();
        let mut position = start.position().unwrap();
        let mut played = Vec::new();
        for text in moves.split_ascii_whitespace() {
            let m = parse_move(&position, text.as_bytes()).unwrap();
            position.play_unchecked(m);
            played.push(m);
        }
        BookOpening {
            start,
            moves: played,
            position,
            score,
            depth: Some(9),
            nodes: Some(10000),
        }
    }
}

/// A start's openings, and how many walks they took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartOpenings {
    /// The start.
    pub start: Start,
    /// The openings kept, in the order found.
    pub openings: Vec<BookOpening>,
    /// The walks made.
    pub tries: u32,
    /// Final positions searched (evaluated).
    pub evaluated: u32,
    /// Searches asked of the engine, the evaluations included.
    pub searches: u32,
}

/// What the walk wants next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WalkStep {
    /// Ask the engine for this search, then [`Walk::feed`] its result.
    Search(SearchRequest),
    /// The start is done.
    Done(StartOpenings),
}

/// The engine's answer cannot be used: the walk (and the start) cannot go on with it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WalkError {
    /// No line with a move and a score, in a position with legal moves.
    #[error("no line with a move and a score in a position with {0} legal moves")]
    NoLines(usize),
    /// A line's first move is not legal.
    #[error("illegal move '{0}' in a MultiPV line")]
    IllegalMove(String),
    /// An answer fed when no search was asked.
    #[error("an answer to no search")]
    Unasked,
}

/// The 4-field EPD of a position in Shredder castling, en passant only when legal: the key
/// by which positions are told apart (transpositions are one position).
pub fn position_key(position: &Chess) -> String {
    epd_fields(
        &position.to_setup(EnPassantMode::Legal),
        CastlingNotation::Shredder,
    )
}

/// The seed of the `occurrence`-th (0-based) walk set of `start` in the request: the same
/// start in another request, or at another place in it, gets the same openings.
pub fn start_seed(seed: u64, start: Start, occurrence: u32) -> u64 {
    // FNV-1a over the label, then SplitMix64's finaliser over everything.
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for byte in start.label().bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    let mut z = seed ^ hash ^ u64::from(occurrence).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A search remembered: its legal first moves with their scores (best first), and its
/// result.
#[derive(Debug, Clone)]
struct Known {
    moves: Vec<(Move, EngineScore)>,
    result: EngineAnswer,
}

/// The openings of one start being made.
#[derive(Debug)]
pub struct Walk {
    start: Start,
    root: Chess,
    settings: WalkSettings,
    rng: ChaCha8Rng,
    /// Searches made, by position key and lines.
    known: HashMap<(String, u32), Known>,
    /// The search asked for and not yet answered.
    asked: Option<(String, u32, Chess)>,
    kept: Vec<BookOpening>,
    kept_keys: HashSet<String>,
    tries: u32,
    evaluated: u32,
    searches: u32,
    /// Whether the walk under way had a choice of moves anywhere: a walk without one
    /// plays the same moves as every walk after it (the searches are remembered), so the
    /// start is done.
    branched: bool,
    /// The walk under way.
    moves: Vec<Move>,
    current: Chess,
}

impl Walk {
    /// The walk of `start`, its random stream from `seed` ([`start_seed`]). It knows no
    /// other start's positions: the book drops a position an earlier start (or a resumed
    /// file) holds when it writes this start's, so a start's openings do not depend on
    /// what is in the book already, and a resumed run writes what an uninterrupted one does.
    pub fn new(start: Start, seed: u64, settings: WalkSettings) -> Result<Walk, InvalidStart> {
        let root = start.position()?;
        Ok(Walk {
            start,
            current: root.clone(),
            root,
            settings,
            rng: ChaCha8Rng::seed_from_u64(seed),
            known: HashMap::new(),
            asked: None,
            kept: Vec::new(),
            kept_keys: HashSet::new(),
            tries: 0,
            evaluated: 0,
            searches: 0,
            branched: false,
            moves: Vec::new(),
        })
    }

    /// The start's position.
    pub fn root(&self) -> &Chess {
        &self.root
    }

    /// The next search, or the start's openings when it is done.
    pub fn step(&mut self) -> WalkStep {
        loop {
            if self.kept.len() as u32 >= self.settings.per_start
                || self.tries >= self.settings.tries
            {
                return WalkStep::Done(StartOpenings {
                    start: self.start,
                    openings: std::mem::take(&mut self.kept),
                    tries: self.tries,
                    evaluated: self.evaluated,
                    searches: self.searches,
                });
            }
            let key = position_key(&self.current);
            if (self.moves.len() as u32) < self.settings.plies {
                if self.current.is_game_over() {
                    self.end_walk();
                    continue;
                }
                let lines = self.settings.multipv;
                let Some(known) = self.known.get(&(key.clone(), lines)) else {
                    return self.ask(key, lines, false);
                };
                let best = rank(known.moves[0].1);
                let close = known
                    .moves
                    .iter()
                    .take_while(|(_, score)| rank(*score) >= best - i64::from(self.settings.margin))
                    .count();
                self.branched |= close > 1;
                let (chosen, _) = known.moves[self.rng.random_range(0..close)];
                self.current.play_unchecked(chosen);
                self.moves.push(chosen);
                continue;
            }
            // The final position.
            if self.kept_keys.contains(&key) {
                self.end_walk();
                continue;
            }
            let Some(known) = self.known.get(&(key.clone(), 1)) else {
                self.evaluated += 1;
                return self.ask(key, 1, true);
            };
            let score = known.moves[0].1;
            let white = if self.current.turn().is_white() {
                score
            } else {
                match score {
                    EngineScore::Centipawns(cp) => EngineScore::Centipawns(-cp),
                    EngineScore::Mate(n) => EngineScore::Mate(-n),
                }
            };
            let inside = match self.settings.window {
                Some(window) => window.contains(white),
                None => matches!(white, EngineScore::Centipawns(_)),
            };
            if let (true, EngineScore::Centipawns(cp)) = (inside, score) {
                self.kept.push(BookOpening {
                    start: self.start,
                    moves: self.moves.clone(),
                    position: self.current.clone(),
                    score: cp,
                    depth: known.result.depth,
                    nodes: known.result.nodes,
                });
                self.kept_keys.insert(key);
            }
            self.end_walk();
        }
    }

    /// The engine's answer to the search last asked for.
    pub fn feed(&mut self, result: EngineAnswer) -> Result<(), WalkError> {
        let (key, lines, position) = self.asked.take().ok_or(WalkError::Unasked)?;
        let mut moves: Vec<(Move, EngineScore)> = Vec::with_capacity(result.lines.len());
        for line in &result.lines {
            let m = parse_move(&position, line.first_move.as_bytes())
                .map_err(|_| WalkError::IllegalMove(line.first_move.clone()))?;
            if !moves.iter().any(|(seen, _)| *seen == m) {
                moves.push((m, line.score));
            }
        }
        if moves.is_empty() {
            return Err(WalkError::NoLines(position.legal_moves().len()));
        }
        // Best first, whatever order the engine printed its lines in; ties keep its order.
        moves.sort_by_key(|(_, score)| std::cmp::Reverse(rank(*score)));
        self.known.insert((key, lines), Known { moves, result });
        Ok(())
    }

    fn ask(&mut self, key: String, lines: u32, fresh: bool) -> WalkStep {
        self.searches += 1;
        self.asked = Some((key, lines, self.current.clone()));
        WalkStep::Search(SearchRequest {
            moves: self.moves.clone(),
            lines,
            fresh,
        })
    }

    fn end_walk(&mut self) {
        self.tries += 1;
        if !self.branched {
            // Every walk from here on would be this one again.
            self.tries = self.tries.max(self.settings.tries);
        }
        self.branched = false;
        self.moves.clear();
        self.current = self.root.clone();
    }
}

/// A score as one number to compare: centipawns, or mates beyond any centipawn score
/// (a quicker mate higher, a quicker mated lower).
fn rank(score: EngineScore) -> i64 {
    const MATE: i64 = 1_000_000;
    match score {
        EngineScore::Centipawns(cp) => i64::from(cp),
        EngineScore::Mate(n) if n > 0 => MATE - i64::from(n),
        EngineScore::Mate(n) => -MATE - i64::from(n),
    }
}

#[cfg(test)]
#[path = "walk_tests.rs"]
mod tests;
