//! Counting finished games as they are committed: the PGN entry and state through the
//! [`PgnWriter`](crate::matches::record::PgnWriter), the tally and the SPRT's decision
//! (`Ledger`), the progress line (`Commit`).

use shakmaty::Color;

use crate::matches::config;
use crate::matches::config::request::MatchConfig;
use crate::matches::error::MatchError;
use crate::matches::game::player::{Finished, Scheduled};
use crate::matches::record::{PgnWriter, Resumed};
use crate::matches::tally;
use crate::matches::tally::counts::{Counts, Outcome};
use crate::matches::tally::results::{GameResult, Tally};
use crate::matches::tally::sprt::SprtDecision;
use crate::matches::tally::stats::match_stats;
use crate::matches::tally::summary::Progress;
use crate::matches::tally::summary::Summary;
use crate::matches::tally::summary::{GameSummary, Stopwatch};
use crate::os::interrupt;

/// The commit of a finished game, on the thread that owns the files: the PGN entry and the
/// state, the tally and the progress line; and the SPRT's decision.
pub(crate) struct Commit<'a> {
    pub(crate) config: &'a MatchConfig,
    pub(crate) names: &'a [String],
    pub(crate) writer: PgnWriter,
    pub(crate) ledger: Ledger,
    pub(crate) progress: Progress,
    /// The first write that failed: no game is written after it.
    pub(crate) failure: Option<MatchError>,
}

impl Commit<'_> {
    /// Commits `done`; true when no new game should start (a write failed, or the SPRT
    /// decided just now).
    pub(crate) fn game(&mut self, done: Finished) -> bool {
        let mut stop = false;
        let entry = self.writer.entry(self.config, &done, self.names);
        self.writer.crash_hook(&entry);
        if self.failure.is_none()
            && let Err(err) = self.writer.append(&entry, self.ledger.played + 1)
        {
            // Stop handing out games; the ones being played finish.
            stop = true;
            self.failure = Some(err);
        }
        let white_outcome = match done.ending.winner(done.turn) {
            Some(Color::White) => Outcome::Win,
            Some(Color::Black) => Outcome::Loss,
            None => Outcome::Draw,
        };
        let summary = GameSummary {
            round: done.game.number,
            start: self.config.openings[done.game.opening].label.clone(),
            white: self.names[done.game.white].clone(),
            black: self.names[done.game.black].clone(),
            result: done.ending.result(done.turn).to_owned(),
            termination: done.ending.termination().to_owned(),
            reason: done.ending.comment(done.turn),
            plies: done.moves.len(),
        };
        let sprt = self
            .ledger
            .count(self.config, done.game, white_outcome, summary);
        let last = self.ledger.games.last().expect("just counted");
        let score = self.ledger.tally.score(0);
        self.progress
            .update(self.ledger.played, self.names, &score, last);
        if let Some(step) = sprt {
            self.progress.sprt(step.pairs, &step.stats);
            if step.decided {
                // No new games; the ones being played finish and are written.
                stop = true;
                self.progress
                    .sprt_stop(self.ledger.decision.unwrap_or(SprtDecision::Continue));
            }
        }
        stop
    }
}

/// The finished games, counted as they come: the tally, the SPRT's decision (the first
/// bound crossed after a completed pair) and, for `--json`, the summary's list (without
/// it, only the last game is kept, for the progress line: memory stays flat however long
/// the match).
pub(crate) struct Ledger {
    /// fastchess's pairing: a start's two games (colours swapped) are one pair, counted
    /// when both are done.
    pub(crate) tally: Tally,
    pub(crate) decision: Option<SprtDecision>,
    /// Games counted.
    pub(crate) played: usize,
    /// Every game (`list`), or the last one.
    pub(crate) games: Vec<GameSummary>,
    pub(crate) list: bool,
}

/// After a completed pair, with `--sprt`: the pairs, the statistics and whether the SPRT
/// decided just now.
pub(crate) struct SprtStep {
    pub(crate) pairs: u64,
    pub(crate) stats: tally::stats::MatchStats,
    pub(crate) decided: bool,
}

impl Ledger {
    pub(crate) fn new(engines: usize, list: bool) -> Ledger {
        Ledger {
            tally: Tally::new(engines),
            decision: None,
            played: 0,
            games: Vec::new(),
            list,
        }
    }

    /// Counts a finished game (a game read back on `--resume` the same way as one just
    /// played, so the SPRT decides as in one uninterrupted run); with `--sprt` and a pair
    /// completed, the SPRT's step.
    pub(crate) fn count(
        &mut self,
        config: &MatchConfig,
        game: Scheduled,
        white_outcome: Outcome,
        summary: GameSummary,
    ) -> Option<SprtStep> {
        let completed = self
            .tally
            .add(GameResult {
                pair: game.pair,
                white: game.white,
                black: game.black,
                white_outcome,
            })
            .is_some();
        if !self.list {
            self.games.clear();
        }
        self.games.push(summary);
        self.played += 1;
        let sprt = config.sprt.as_ref().filter(|_| completed)?;
        let pairs = self.tally.pairs(0);
        let stats = match_stats(&Counts::Pairs(pairs), Some(sprt));
        let now = stats.decision.unwrap_or(SprtDecision::Continue);
        let decided = self.decision.is_none() && now != SprtDecision::Continue;
        if decided {
            self.decision = Some(now);
        }
        Some(SprtStep {
            pairs: pairs.pairs(),
            stats,
            decided,
        })
    }

    /// `--resume`: counts the games read back, in the schedule's places.
    pub(crate) fn replay(
        &mut self,
        config: &MatchConfig,
        schedule: &[Scheduled],
        resumed: &Resumed,
        progress: &Progress,
    ) {
        for game in &resumed.games {
            let scheduled = schedule[game.round - 1];
            let summary = GameSummary {
                start: config.openings[scheduled.opening].label.clone(),
                ..game.clone()
            };
            let step = self.count(
                config,
                scheduled,
                config::resume::white_outcome(game),
                summary,
            );
            if step.is_some_and(|step| step.decided) {
                progress.sprt_stop(self.decision.unwrap_or(SprtDecision::Continue));
            }
        }
        if !config.quiet {
            eprintln!(
                "sp960: match: resuming: {} of {} games already in {}",
                self.played,
                schedule.len(),
                config.pgn.display()
            );
        }
    }

    /// The match's summary: the tally's, with the SPRT's decision where it stopped.
    pub(crate) fn summary(
        self,
        config: &MatchConfig,
        names: Vec<String>,
        stopwatch: &Stopwatch,
    ) -> Summary {
        let games = if self.list { self.games } else { Vec::new() };
        let record = stopwatch.record(games, self.played, &config.pgn, interrupt::interrupted());
        Summary::new(
            &self.tally,
            names,
            config.sprt.as_ref(),
            self.decision,
            record,
        )
    }
}
