//! What the user sees: the live progress on stderr, the [`Summary`] (`--json`) and the
//! final table. A summary is built in one place, [`Summary::new`], from the tally, for the
//! built-in runner and for `--runner` alike.

use std::io::{self, IsTerminal};
use std::path::Path;
use std::time::Instant;

use serde::Serialize;

use crate::matches::tally::counts::{Counts, Score};
use crate::matches::tally::results::{EngineStanding, PairStanding, Tally};
use crate::matches::tally::sprt::{SprtConfig, SprtDecision};
use crate::matches::tally::stats::{MatchStats, Stat, match_stats};
use crate::os::cpu::process_seconds;

/// One game's result, as the summary lists it.
#[derive(Debug, Clone, Serialize)]
pub struct GameSummary {
    /// Schedule number (the PGN `Round`).
    pub round: usize,
    /// The start (`860`, `0:959`).
    pub start: String,
    /// White's and black's names.
    pub white: String,
    /// See `white`.
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: String,
    /// The PGN `Termination`.
    pub termination: String,
    /// The reason in words.
    pub reason: String,
    /// Plies played.
    pub plies: usize,
}

impl GameSummary {
    /// A game read back from a PGN file (`--resume`'s, or a runner's), at `round` of the
    /// schedule from `start`: `tags` are its White, Black, Result and Termination, `reason`
    /// its end in words, `plies` its moves.
    pub(crate) fn read_back(
        round: usize,
        start: &str,
        tags: [&str; 4],
        reason: &str,
        plies: usize,
    ) -> GameSummary {
        let [white, black, result, termination] = tags.map(str::to_owned);
        GameSummary {
            round,
            start: start.to_owned(),
            white,
            black,
            result,
            termination,
            reason: reason.to_owned(),
            plies,
        }
    }
}

/// What `--json` prints, and what the table shows.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The engines' names, in `--engine` order; the first is the scored one.
    pub engines: Vec<String>,
    /// The first engine's wins, draws and losses (against every other engine).
    pub score: Score,
    /// Points per game of the first engine.
    pub score_fraction: f64,
    /// Elo difference, first minus second (`null` at 0% or 100%).
    pub elo: Option<f64>,
    /// 95% error margin of `elo` (`null` when unbounded).
    pub elo_margin: Option<f64>,
    /// Every game, in the order they finished: listed for `--json` only (a long match
    /// without it keeps no memory per game; see `played`).
    pub games: Vec<GameSummary>,
    /// How many games the match has finished (those of `games` when they are listed).
    #[serde(skip)]
    pub played: usize,
    /// The PGN file.
    pub pgn: String,
    /// Wall time of the match.
    pub wall_seconds: f64,
    /// CPU time of the runner itself (its threads, not the engines).
    pub runner_cpu_seconds: f64,
    /// fastchess's statistics over the complete game pairs (a start's two games).
    pub stats: MatchStats,
    /// With `--sprt`: its decision, written `H0 accepted`, `H1 accepted` or
    /// `inconclusive`.
    pub sprt: Option<SprtDecision>,
    /// Games whose pair partner was not played (left out of `stats`).
    pub unpaired_games: usize,
    /// Each engine's results against the field, in `--engine` order.
    pub standings: Vec<EngineStanding>,
    /// Each two engines' results against each other (one entry with two engines).
    pub pairs: Vec<PairStanding>,
    /// Ctrl-C ended the match: the games are those finished before it.
    pub interrupted: bool,
}

/// What a summary says besides the tally: the games listed, where they went, how long the
/// match took and whether Ctrl-C ended it.
pub(crate) struct MatchRecord {
    /// Every game for `--json`, or none.
    pub games: Vec<GameSummary>,
    /// How many games the match finished.
    pub played: usize,
    /// The PGN file.
    pub pgn: String,
    /// Wall time of the match.
    pub wall_seconds: f64,
    /// CPU time of the runner itself.
    pub runner_cpu_seconds: f64,
    /// Ctrl-C ended the match.
    pub interrupted: bool,
}

impl Summary {
    /// The summary of `tally` (engines `names`, the first one scored): its score, fastchess's
    /// statistics over its complete game pairs, the standings and the matchups; with `sprt`,
    /// the SPRT's decision: `decided` (the bound the match stopped at) or else the decision
    /// at the final counts.
    pub(crate) fn new(
        tally: &Tally,
        names: Vec<String>,
        sprt: Option<&SprtConfig>,
        decided: Option<SprtDecision>,
        record: MatchRecord,
    ) -> Summary {
        let finite = |x: f64| x.is_finite().then_some(x);
        let stats = match_stats(&Counts::Pairs(tally.pairs(0)), sprt);
        let score = tally.score(0);
        Summary {
            sprt: sprt.map(|_| decided.or(stats.decision).unwrap_or(SprtDecision::Continue)),
            stats,
            unpaired_games: tally.unpaired(),
            score_fraction: score.fraction(),
            elo: finite(score.elo_difference()),
            elo_margin: finite(score.elo_margin()),
            standings: tally.standings(&names),
            pairs: tally.matchups(&names),
            engines: names,
            score,
            games: record.games,
            played: record.played,
            pgn: record.pgn,
            wall_seconds: record.wall_seconds,
            runner_cpu_seconds: record.runner_cpu_seconds,
            interrupted: record.interrupted,
        }
    }

    /// What `sp960 match` prints: the `--json` summary, or the table.
    pub(crate) fn text(&self, json: bool) -> String {
        if json {
            let mut text = serde_json::to_string_pretty(self).expect("plain data");
            text.push('\n');
            text
        } else {
            summary_table(self)
        }
    }
}

/// The live progress display on stderr: an indicatif bar on a terminal, one line per
/// game otherwise (nothing when quiet).
pub(crate) struct Progress {
    bar: Option<indicatif::ProgressBar>,
    plain: bool,
    total: usize,
}

impl Progress {
    pub(crate) fn new(total: usize, quiet: bool) -> Progress {
        let terminal = !quiet && io::stderr().is_terminal();
        let bar = terminal.then(|| {
            let bar = indicatif::ProgressBar::new(total as u64);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}",
                )
                .expect("valid template")
                .progress_chars("=> "),
            );
            bar
        });
        Progress {
            bar,
            plain: !quiet && !terminal,
            total,
        }
    }

    pub(crate) fn update(&self, done: usize, names: &[String], score: &Score, last: &GameSummary) {
        let opponents = match names {
            [_, second] => second.as_str(),
            _ => "the field",
        };
        let line = format!(
            "{} vs {opponents}: +{} ={} -{} ({:.1}%)",
            names[0],
            score.wins,
            score.draws,
            score.losses,
            score.fraction() * 100.0
        );
        if let Some(bar) = &self.bar {
            bar.set_position(done as u64);
            bar.set_message(line);
        } else if self.plain {
            // An SP (`860`, `0:959`), or an opening's `FILE:LINE`.
            let sp = if last.start.parse::<crate::starts::start::Start>().is_ok() {
                "SP "
            } else {
                ""
            };
            eprintln!(
                "sp960: match: game {done}/{} ({sp}{}) {} - {} {} {{{}}}; {line}",
                self.total, last.start, last.white, last.black, last.result, last.reason
            );
        }
    }

    /// After a completed pair, with `--sprt`: the LLR and its bounds.
    pub(crate) fn sprt(&self, pairs: u64, stats: &MatchStats) {
        let (Some(llr), Some(lower), Some(upper)) = (stats.llr, stats.llr_lower, stats.llr_upper)
        else {
            return;
        };
        let line = format!(
            "pair {pairs}: LLR {} ({lower:.2}, {upper:.2})",
            llr_text(llr)
        );
        if let Some(bar) = &self.bar {
            bar.println(format!("sp960: match: {line}"));
        } else if self.plain {
            eprintln!("sp960: match: {line}");
        }
    }

    /// The SPRT decided: the match stops.
    pub(crate) fn sprt_stop(&self, decision: SprtDecision) {
        let line =
            format!("sp960: match: SPRT: {decision}; no new games (those being played finish)");
        if let Some(bar) = &self.bar {
            bar.println(line);
        } else if self.plain {
            eprintln!("{line}");
        }
    }

    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The final table: each engine's score, the Elo difference and its margin; with more
/// than two engines, the standings and a line per matchup.
pub fn summary_table(summary: &Summary) -> String {
    if summary.engines.len() != 2 {
        return field_table(summary);
    }
    let s = &summary.score;
    let width = name_width(&summary.engines);
    let mut text = format!(
        "{:<width$}  {:>5}  {:>4}  {:>5}  {:>6}  {:>6}\n",
        "Engine", "Games", "Wins", "Draws", "Losses", "Score"
    );
    let rows = [
        (&summary.engines[0], s.wins, s.losses, s.fraction()),
        (&summary.engines[1], s.losses, s.wins, 1.0 - s.fraction()),
    ];
    for (name, wins, losses, fraction) in rows {
        text.push_str(&format!(
            "{name:<width$}  {:>5}  {wins:>4}  {:>5}  {losses:>6}  {:>5.1}%\n",
            s.games(),
            s.draws,
            fraction * 100.0
        ));
    }
    let st = &summary.stats;
    text.push_str(&format!(
        "Elo difference ({} - {}): {}\n",
        summary.engines[0],
        summary.engines[1],
        with_error(st.elo, st.elo_error),
    ));
    text.push_str(&format!(
        "nElo: {}\nLOS: {}, draw ratio: {}\n",
        with_error(st.nelo, st.nelo_error),
        stat(st.los, |x| format!("{:.2}%", x * 100.0)),
        stat(st.draw_ratio, |x| format!("{:.2}%", x * 100.0)),
    ));
    if let Some(p) = st.pentanomial {
        text.push_str(&format!(
            "Pentanomial (LL, LD, WL+DD, WD, WW): [{}, {}, {}, {}, {}]",
            p[0], p[1], p[2], p[3], p[4]
        ));
        if summary.unpaired_games > 0 {
            text.push_str(&format!(
                " ({} unpaired games not counted)",
                summary.unpaired_games
            ));
        }
        text.push('\n');
    }
    if let (Some(llr), Some(lower), Some(upper)) = (st.llr, st.llr_lower, st.llr_upper) {
        text.push_str(&format!(
            "SPRT: LLR {} ({lower:.2}, {upper:.2}): {}\n",
            llr_text(llr),
            summary.sprt.unwrap_or(SprtDecision::Continue)
        ));
    }
    text.push_str(&format!(
        "PGN: {} ({} games appended)\n",
        summary.pgn,
        s.games()
    ));
    text
}

/// More than two engines: a row per engine, best first, then a line per matchup.
fn field_table(summary: &Summary) -> String {
    let width = name_width(&summary.engines);
    let mut text = format!(
        "Rank  {:<width$}  {:>5}  {:>4}  {:>5}  {:>6}  {:>6}  Elo\n",
        "Engine", "Games", "Wins", "Draws", "Losses", "Score"
    );
    let mut rows: Vec<&EngineStanding> = summary.standings.iter().collect();
    rows.sort_by(|a, b| b.points.total_cmp(&a.points));
    for (rank, row) in rows.iter().enumerate() {
        text.push_str(&format!(
            "{:>4}  {:<width$}  {:>5}  {:>4}  {:>5}  {:>6}  {:>5.1}%  {}\n",
            rank + 1,
            row.name,
            row.games,
            row.wins,
            row.draws,
            row.losses,
            row.score_fraction * 100.0,
            with_error(row.elo, row.elo_error),
        ));
    }
    for pair in &summary.pairs {
        let p = pair.stats.pentanomial.unwrap_or_default();
        text.push_str(&format!(
            "{} vs {}: +{} ={} -{} ({:.1}%), Elo {}, pentanomial [{}, {}, {}, {}, {}]\n",
            pair.engines[0],
            pair.engines[1],
            pair.score.wins,
            pair.score.draws,
            pair.score.losses,
            pair.score_fraction * 100.0,
            with_error(pair.stats.elo, pair.stats.elo_error),
            p[0],
            p[1],
            p[2],
            p[3],
            p[4]
        ));
    }
    if summary.unpaired_games > 0 {
        text.push_str(&format!(
            "({} unpaired games not counted in the Elo estimates)\n",
            summary.unpaired_games
        ));
    }
    text.push_str(&format!(
        "PGN: {} ({} games appended)\n",
        summary.pgn, summary.played
    ));
    text
}

/// The width of the engine column: the longest name, at least `Engine`'s.
fn name_width(engines: &[String]) -> usize {
    engines.iter().map(String::len).max().unwrap_or(0).max(6)
}

/// A statistic as text, or `undefined (reason)`.
fn stat(value: Stat, show: impl Fn(f64) -> String) -> String {
    match value {
        Ok(x) => show(x),
        Err(reason) => format!("undefined ({reason})"),
    }
}

/// `+12.3 +/- 45.6 (95%)`, with `undefined (reason)` for either part.
fn with_error(value: Stat, error: Stat) -> String {
    match (value, error) {
        (Ok(x), Ok(e)) => format!("{:+.2} +/- {e:.2} (95%)", x + 0.0),
        (Ok(x), Err(reason)) => format!("{:+.2} +/- undefined ({reason})", x + 0.0),
        (Err(reason), _) => format!("undefined ({reason})"),
    }
}

/// The LLR to two decimals, or `undefined` where the model has no finite value.
fn llr_text(llr: f64) -> String {
    if llr.is_finite() {
        format!("{:.2}", llr + 0.0)
    } else {
        "undefined (the model has no finite value for these counts)".to_owned()
    }
}

/// The wall and CPU time (the runner's own) since a match began, for its summary.
pub(crate) struct Stopwatch {
    wall: Instant,
    cpu: f64,
}

impl Stopwatch {
    /// Starts counting now.
    pub(crate) fn start() -> Stopwatch {
        Stopwatch {
            wall: Instant::now(),
            cpu: process_seconds(),
        }
    }

    /// What the summary says besides the tally: `games` (listed for `--json`), `played`,
    /// the PGN file, the times so far and whether Ctrl-C ended the match.
    pub(crate) fn record(
        &self,
        games: Vec<GameSummary>,
        played: usize,
        pgn: &Path,
        interrupted: bool,
    ) -> MatchRecord {
        MatchRecord {
            games,
            played,
            pgn: pgn.display().to_string(),
            wall_seconds: self.wall.elapsed().as_secs_f64(),
            runner_cpu_seconds: process_seconds() - self.cpu,
            interrupted,
        }
    }
}

#[cfg(test)]
#[path = "summary_tests.rs"]
mod tests;
