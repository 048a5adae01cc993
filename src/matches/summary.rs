//! What the user sees: the live progress on stderr, the [`Summary`] (`--json`) and the
//! final table.

use std::io::{self, IsTerminal};

use serde::Serialize;

use super::stats::Score;

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

/// What `--json` prints, and what the table shows.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The engines' names, first (scored) engine first.
    pub engines: [String; 2],
    /// The first engine's wins, draws and losses.
    pub score: Score,
    /// Points per game of the first engine.
    pub score_fraction: f64,
    /// Elo difference, first minus second (`null` at 0% or 100%).
    pub elo: Option<f64>,
    /// 95% error margin of `elo` (`null` when unbounded).
    pub elo_margin: Option<f64>,
    /// Every game, in the order they finished.
    pub games: Vec<GameSummary>,
    /// The PGN file.
    pub pgn: String,
    /// Wall time of the match.
    pub wall_seconds: f64,
    /// CPU time of the runner itself (its threads, not the engines).
    pub runner_cpu_seconds: f64,
}

/// CPU time of this process so far (user + system, all threads).
pub(crate) fn cpu_seconds() -> f64 {
    // SAFETY: getrusage fills the struct we pass.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut usage) != 0 {
            return 0.0;
        }
        let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
        seconds(usage.ru_utime) + seconds(usage.ru_stime)
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

    pub(crate) fn update(
        &self,
        done: usize,
        names: &[String; 2],
        score: &Score,
        last: &GameSummary,
    ) {
        let line = format!(
            "{} vs {}: +{} ={} -{} ({:.1}%)",
            names[0],
            names[1],
            score.wins,
            score.draws,
            score.losses,
            score.fraction() * 100.0
        );
        if let Some(bar) = &self.bar {
            bar.set_position(done as u64);
            bar.set_message(line);
        } else if self.plain {
            eprintln!(
                "sp960: match: game {done}/{} (SP {}) {} - {} {} {{{}}}; {line}",
                self.total, last.start, last.white, last.black, last.result, last.reason
            );
        }
    }

    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The final table: each engine's score, the Elo difference and its margin.
pub fn summary_table(summary: &Summary) -> String {
    let s = &summary.score;
    let width = summary
        .engines
        .iter()
        .map(|n| n.len())
        .max()
        .unwrap_or(0)
        .max(6);
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
    let elo = match (summary.elo, summary.elo_margin) {
        // `+ 0.0` turns -0.0 into 0.0.
        (Some(elo), Some(margin)) => format!("{:+.1} +/- {margin:.1} (95%)", elo + 0.0),
        (Some(elo), None) => format!("{:+.1} +/- inf (95%)", elo + 0.0),
        (None, _) if s.games() == 0 => "n/a (no games)".to_owned(),
        (None, _) => "unbounded (one side scored every point)".to_owned(),
    };
    text.push_str(&format!(
        "Elo difference ({} - {}): {elo}\nPGN: {} ({} games appended)\n",
        summary.engines[0],
        summary.engines[1],
        summary.pgn,
        s.games()
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_shows_both_sides_and_the_margin() {
        let summary = Summary {
            engines: ["Stockfish 15.1".into(), "Ethereal 12.00".into()],
            score: Score {
                wins: 3,
                draws: 4,
                losses: 1,
            },
            score_fraction: 0.625,
            elo: Some(88.7),
            elo_margin: Some(150.2),
            games: Vec::new(),
            pgn: "games.pgn".into(),
            wall_seconds: 1.0,
            runner_cpu_seconds: 0.01,
        };
        let table = summary_table(&summary);
        assert!(
            table.contains("Stockfish 15.1      8     3      4       1   62.5%"),
            "{table}"
        );
        assert!(
            table.contains("Ethereal 12.00      8     1      4       3   37.5%"),
            "{table}"
        );
        assert!(
            table.contains(
                "Elo difference (Stockfish 15.1 - Ethereal 12.00): +88.7 +/- 150.2 (95%)"
            )
        );
    }
}
