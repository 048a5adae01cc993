//! Where the match's games fall in the runner's schedule ([`Layout`]), and the runner's
//! games placed there: counted by the built-in runner's tally and listed for the summary
//! ([`place_games`]).

use std::collections::HashMap;

use crate::matches::config::request::MatchConfig;
use crate::matches::tally::counts::Outcome;
use crate::matches::tally::results::{GameResult, Tally};
use crate::matches::tally::summary::GameSummary;
use crate::starts::notation::{CastlingNotation, position_fen};
use crate::tournaments::runners::{Encounters, HandoffDialect, OtherMatchup, TournamentKind};

use super::pgn::{RunnerGame, RunnerPgnError, RunnerPgnProblem};
use super::{HandoffError, Runner};

/// Where the match's games fall in the runner's schedule. Both runners play a matchup's
/// two games of one opening (`-games 2 -repeat`) as an encounter; one cycle (`-rounds 1`)
/// holds one encounter per matchup, and the match takes `openings × --rounds` cycles. The
/// book is laid out so that every matchup meets every opening `--rounds` times, as in the
/// built-in runner; how each runner takes the book's entries and numbers its games is its
/// [`HandoffDialect`]'s (`runners/cutechess.rs`, `runners/fastchess.rs`).
#[derive(Debug, Clone)]
pub(super) struct Layout {
    runner: &'static dyn HandoffDialect,
    /// The match's engines, matchups, openings and rounds.
    pub(super) encounters: Encounters,
    /// The matchups (encounters per cycle).
    pub(super) matchups: Vec<(usize, usize)>,
    /// The runner's `-rounds`.
    pub(super) cycles: usize,
    /// The opening of each book entry, in the order the runner takes them.
    pub(super) book: Vec<usize>,
    /// The built-in runner's round (0-based) of encounter `cycle × matchups + matchup`.
    builtin_round: Vec<u32>,
}

impl Layout {
    pub(super) fn new(config: &MatchConfig, runner: Runner) -> Result<Layout, HandoffError> {
        let matchups = config.matchups.clone();
        let count = matchups.len();
        let engines = config.engines.len();
        let encounters = Encounters {
            engines,
            matchups: count,
            gauntlet: count < engines * (engines - 1) / 2,
            openings: config.openings.len(),
            rounds: config.rounds as usize,
        };
        let book = runner
            .schedule()
            .book_order(&encounters)
            .map_err(|refused| HandoffError::Refused {
                runner: runner.program(),
                reason: refused.0,
            })?;
        let cycles = encounters.cycles();
        let mut layout = Layout {
            runner: runner.schedule(),
            encounters,
            matchups,
            cycles,
            book,
            builtin_round: Vec::new(),
        };
        let mut seen = HashMap::<(usize, usize), u32>::new();
        for cycle in 0..cycles {
            for matchup in 0..count {
                let times = seen
                    .entry((matchup, layout.opening(cycle, matchup)))
                    .or_insert(0);
                layout.builtin_round.push(*times);
                *times += 1;
            }
        }
        Ok(layout)
    }

    /// Who meets whom, when the runner must be told: for more than two engines.
    pub(super) fn kind(&self) -> Option<TournamentKind> {
        (self.encounters.engines > 2).then_some(if self.encounters.gauntlet {
            TournamentKind::Gauntlet
        } else {
            TournamentKind::RoundRobin
        })
    }

    /// The opening (index into the match's openings) of a matchup's encounter in a cycle.
    pub(super) fn opening(&self, cycle: usize, matchup: usize) -> usize {
        let count = self.matchups.len();
        self.book[(cycle * count + matchup) % self.book.len()]
    }

    /// The cycle of a game from its `Round` tag and matchup.
    fn cycle(&self, round: u64, matchup: usize) -> Result<usize, RunnerPgnProblem> {
        let index = usize::try_from(round.saturating_sub(1)).unwrap_or(usize::MAX);
        let cycle = self
            .runner
            .cycle(&self.encounters, index, matchup)
            .map_err(|OtherMatchup| RunnerPgnProblem::NotInOrder {
                round,
                engines: self.matchups[matchup],
            })?;
        if round == 0 || cycle >= self.cycles {
            return Err(RunnerPgnProblem::OutsideSchedule(round));
        }
        Ok(cycle)
    }
}

/// The first four fields of a FEN (board, side, castling, en passant), normalised.
pub(super) fn position_fields(fen: &str) -> Option<String> {
    let (position, _) = crate::protocol::game::parse_fen(fen).ok()?;
    Some(four_fields(&position))
}

fn four_fields(position: &shakmaty::Chess) -> String {
    position_fen(position, CastlingNotation::Shredder)
        .split(' ')
        .take(4)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The games the runner played, counted by the built-in runner's tally and listed for the
/// summary: each game is placed in the built-in runner's schedule (its opening, pair and
/// game number) by [`Layout`], and its `FEN` tag must be that opening's root.
pub(super) fn place_games(
    config: &MatchConfig,
    layout: &Layout,
    names: &[String],
    games: &[RunnerGame],
) -> Result<(Tally, Vec<GameSummary>), RunnerPgnError> {
    let mut tally = Tally::new(names.len());
    let mut listed = Vec::new();
    let roots: Vec<String> = config
        .openings
        .iter()
        .map(|opening| four_fields(&opening.root))
        .collect();
    for game in games {
        let engine = |name: &str| names.iter().position(|n| n == name);
        // A game between other engines (appended by someone else) is not this match's.
        let (Some(white), Some(black)) = (engine(&game.white), engine(&game.black)) else {
            continue;
        };
        let Some(matchup) = layout
            .matchups
            .iter()
            .position(|&pair| pair == (white.min(black), white.max(black)))
        else {
            continue;
        };
        let white_outcome = match game.result.as_str() {
            "1-0" => Outcome::Win,
            "0-1" => Outcome::Loss,
            "1/2-1/2" => Outcome::Draw,
            // `*`: a game the runner broke off (cutechess-cli after Ctrl-C) is not counted,
            // as the built-in runner writes no unfinished game.
            _ => continue,
        };
        let at = |problem| RunnerPgnError {
            line: game.line,
            problem,
        };
        let cycle = layout.cycle(game.round, matchup).map_err(at)?;
        let opening = layout.opening(cycle, matchup);
        if let Some(fen) = &game.fen
            && position_fields(fen).as_ref() != Some(&roots[opening])
        {
            return Err(at(RunnerPgnProblem::NotTheRoot {
                fen: fen.clone(),
                opening,
                label: config.openings[opening].label.clone(),
                round: game.round,
            }));
        }
        let round = layout.builtin_round[cycle * layout.matchups.len() + matchup] as usize;
        // The built-in runner's pair and game numbers: per round, per matchup, per opening,
        // the lower engine white first.
        let pair = (round * layout.matchups.len() + matchup) * layout.encounters.openings + opening;
        tally.add(GameResult {
            pair,
            white,
            black,
            white_outcome,
        });
        listed.push(GameSummary::read_back(
            2 * pair + if white < black { 1 } else { 2 },
            &config.openings[opening].label,
            [&game.white, &game.black, &game.result, &game.termination],
            &game.reason,
            game.plies,
        ));
    }
    Ok((tally, listed))
}
