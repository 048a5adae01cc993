//! The results of a match, as a pure tally: finished games (engine indices, colours,
//! outcome, game pair) in; per-engine scores, per-matchup W/D/L and pentanomial counts,
//! and the statistics of [`crate::matches::tally::stats`] out. No I/O: the runner feeds it one game at a
//! time ([`Tally::add`]) and the summary reads it at the end.
//!
//! A game pair is one opening played with both colours by the same two engines; it counts
//! in the pentanomial statistics once both games are done (fastchess's pairing).

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use crate::matches::tally::counts::{Counts, Outcome, PairCounts, Score};
use crate::matches::tally::stats::{
    MatchStats, Stat, defined_or_null, match_stats, pentanomial_elo,
};

/// One finished game, as the tally needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameResult {
    /// The game pair it belongs to (the same opening, colours swapped).
    pub pair: usize,
    /// The engine that played white (index into the match's engines).
    pub white: usize,
    /// The engine that played black.
    pub black: usize,
    /// The result from white's view.
    pub white_outcome: Outcome,
}

/// One engine's results against everyone.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct EngineTally {
    score: Score,
    pairs: PairCounts,
}

/// Two engines' results against each other, from the lower-indexed engine's view.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Matchup {
    score: Score,
    pairs: PairCounts,
}

/// The running tally of a match between `engines` engines.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    engines: Vec<EngineTally>,
    matchups: BTreeMap<(usize, usize), Matchup>,
    /// The first-finished game of each open pair: the lower engine, the higher, and the
    /// lower engine's outcome.
    halves: HashMap<usize, (usize, usize, Outcome)>,
}

fn flip(outcome: Outcome) -> Outcome {
    match outcome {
        Outcome::Win => Outcome::Loss,
        Outcome::Draw => Outcome::Draw,
        Outcome::Loss => Outcome::Win,
    }
}

impl Tally {
    /// An empty tally for `engines` engines.
    pub fn new(engines: usize) -> Tally {
        Tally {
            engines: vec![EngineTally::default(); engines],
            ..Tally::default()
        }
    }

    /// Counts one game; returns the matchup (lower, higher engine index) when it completed
    /// its pair.
    ///
    /// # Panics
    /// When an engine index is out of range or a game is played against itself.
    pub fn add(&mut self, game: GameResult) -> Option<(usize, usize)> {
        assert_ne!(game.white, game.black, "an engine never plays itself");
        let (low, high, low_outcome) = if game.white < game.black {
            (game.white, game.black, game.white_outcome)
        } else {
            (game.black, game.white, flip(game.white_outcome))
        };
        self.engines[low].score.add(low_outcome);
        self.engines[high].score.add(flip(low_outcome));
        let matchup = self.matchups.entry((low, high)).or_default();
        matchup.score.add(low_outcome);
        match self.halves.remove(&game.pair) {
            Some((first_low, first_high, first)) if (first_low, first_high) == (low, high) => {
                matchup.pairs.add(first, low_outcome);
                self.engines[low].pairs.add(first, low_outcome);
                self.engines[high].pairs.add(flip(first), flip(low_outcome));
                Some((low, high))
            }
            Some(other) => {
                // A pair id reused by other engines: not a pair; keep the newer half.
                self.halves.insert(game.pair, other);
                None
            }
            None => {
                self.halves.insert(game.pair, (low, high, low_outcome));
                None
            }
        }
    }

    /// Games whose pair partner has not been counted (left out of the pair statistics).
    pub fn unpaired(&self) -> usize {
        self.halves.len()
    }

    /// An engine's wins, draws and losses against everyone.
    pub fn score(&self, engine: usize) -> Score {
        self.engines[engine].score
    }

    /// An engine's complete game pairs against everyone, from its view.
    pub fn pairs(&self, engine: usize) -> PairCounts {
        self.engines[engine].pairs
    }

    /// Games counted.
    #[cfg(test)]
    pub fn games(&self) -> u32 {
        self.matchups.values().map(|m| m.score.games()).sum()
    }

    /// Each engine's row of the standings, in engine order.
    pub fn standings(&self, names: &[String]) -> Vec<EngineStanding> {
        self.engines
            .iter()
            .zip(names)
            .map(|(tally, name)| {
                let estimate = pentanomial_elo(&tally.pairs);
                EngineStanding {
                    name: name.clone(),
                    games: tally.score.games(),
                    wins: tally.score.wins,
                    draws: tally.score.draws,
                    losses: tally.score.losses,
                    points: f64::from(tally.score.wins) + f64::from(tally.score.draws) / 2.0,
                    score_fraction: tally.score.fraction(),
                    elo: estimate.elo,
                    elo_error: estimate.elo_error,
                    pentanomial: tally.pairs.pentanomial(),
                }
            })
            .collect()
    }

    /// Each matchup that played a game: the lower-indexed engine first.
    pub fn matchups(&self, names: &[String]) -> Vec<PairStanding> {
        self.matchups
            .iter()
            .map(|(&(low, high), matchup)| PairStanding {
                engines: [names[low].clone(), names[high].clone()],
                score: matchup.score,
                score_fraction: matchup.score.fraction(),
                stats: match_stats(&Counts::Pairs(matchup.pairs), None),
            })
            .collect()
    }
}

/// One engine's line of the table (`--json`'s `standings`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EngineStanding {
    /// The engine's name.
    pub name: String,
    /// Games played.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Wins plus half the draws.
    pub points: f64,
    /// Points per game, 0 to 1.
    pub score_fraction: f64,
    /// Elo against the field, from its game pairs (fastchess's pentanomial estimate).
    #[serde(serialize_with = "defined_or_null")]
    pub elo: Stat,
    /// Half the width of its 95% interval.
    #[serde(serialize_with = "defined_or_null")]
    pub elo_error: Stat,
    /// Its pairs' pentanomial counts, worst first.
    pub pentanomial: [u32; 5],
}

/// Two engines' results against each other (`--json`'s `pairs`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairStanding {
    /// The two engines; the score is the first one's.
    pub engines: [String; 2],
    /// The first engine's wins, draws and losses.
    pub score: Score,
    /// Its points per game.
    pub score_fraction: f64,
    /// fastchess's statistics over their complete game pairs.
    pub stats: MatchStats,
}

#[cfg(test)]
mod tests {
    use super::*;
    use Outcome::{Draw, Loss, Win};

    fn game(pair: usize, white: usize, black: usize, white_outcome: Outcome) -> GameResult {
        GameResult {
            pair,
            white,
            black,
            white_outcome,
        }
    }

    #[test]
    fn two_engines_count_as_the_first_engines_pairs() {
        let mut tally = Tally::new(2);
        // Pair 0: engine 0 wins with white and draws with black.
        assert_eq!(tally.add(game(0, 0, 1, Win)), None);
        // Pair 1's first game finishes before pair 0's second.
        assert_eq!(tally.add(game(1, 1, 0, Win)), None);
        assert_eq!(tally.add(game(0, 1, 0, Draw)), Some((0, 1)));
        assert_eq!(tally.unpaired(), 1);
        let mut expected = PairCounts::default();
        expected.add(Win, Draw);
        assert_eq!(tally.pairs(0), expected);
        assert_eq!(
            tally.score(0),
            Score {
                wins: 1,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(tally.score(1).wins, 1);
        assert_eq!(tally.pairs(1).ld, 1);
        assert_eq!(tally.games(), 3);
    }

    #[test]
    fn three_engines_give_a_row_each_and_a_line_per_matchup() {
        let names: Vec<String> = ["A", "B", "C"].map(String::from).to_vec();
        let mut tally = Tally::new(3);
        // A-B: A wins both; A-C: draws; B-C: C wins one, draws one.
        for g in [
            game(0, 0, 1, Win),
            game(0, 1, 0, Loss),
            game(1, 0, 2, Draw),
            game(1, 2, 0, Draw),
            game(2, 1, 2, Loss),
            game(2, 2, 1, Draw),
        ] {
            tally.add(g);
        }
        let rows = tally.standings(&names);
        assert_eq!(
            rows.iter()
                .map(|r| (r.name.as_str(), r.wins, r.draws, r.losses))
                .collect::<Vec<_>>(),
            [("A", 2, 2, 0), ("B", 0, 1, 3), ("C", 1, 3, 0)]
        );
        assert_eq!(rows[0].points, 3.0);
        assert_eq!(rows[0].pentanomial, [0, 0, 1, 0, 1]);
        assert_eq!(rows[1].pentanomial, [1, 1, 0, 0, 0]);
        // 0.5 of 2 pairs' 4 points: B is below the field, A above.
        assert!(rows[1].elo.unwrap() < 0.0);
        assert!(rows[0].elo.unwrap() > 0.0);
        let lines = tally.matchups(&names);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].engines, ["A", "B"].map(String::from));
        assert_eq!(lines[0].score.wins, 2);
        assert_eq!(lines[2].engines, ["B", "C"].map(String::from));
        assert_eq!(lines[2].score.losses, 1);
        assert_eq!(lines[2].stats.pentanomial, Some([0, 1, 0, 0, 0]));
        assert_eq!(tally.unpaired(), 0);
    }
}
