//! The per-start report made from a [`StartTally`]: a row per start with at least `min_games`
//! games (games, W/D/L from White's side, White's score and its 95% Wilson interval, the
//! draw rate, Elo), sorted; the overall score; the homogeneity test; the starts whose
//! Bonferroni-corrected interval excludes the overall score; and a one-line conclusion.
//! Rendered as text, JSON or CSV; per engine with `by_engine`.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::results::filter::By;
use crate::results::stats::{Homogeneity, Wdl, bonferroni_z, elo, homogeneity, wilson, z_for};
use crate::results::tally::{SkipReason, Skipped, StartTally};
use crate::starts::start::Start;

/// How the rows are ordered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum SortBy {
    /// White's score, highest first (ties: more games first, then the start).
    #[default]
    Score,
    /// The start's number (SP, then double-FRC pairs).
    Start,
    /// Games, most first.
    Games,
}

/// What the report is asked.
#[derive(Debug, Clone, Copy)]
pub struct ReportOptions {
    /// Starts with fewer games are left out of the rows and the tests.
    pub min_games: u64,
    /// StartRow order.
    pub sort: SortBy,
}

/// One start's row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StartRow {
    /// `518`, or `0:959` for a double-FRC pair.
    pub start: String,
    /// White's back rank (and Black's, after `/`, for a pair): `RNBQKBNR`.
    pub arrangement: String,
    /// Games.
    pub games: u64,
    /// White's wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// White's losses.
    pub losses: u64,
    /// White's score, 0 to 1.
    pub score: f64,
    /// The 95% Wilson interval of the score.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
    /// Draws / games.
    pub draw_rate: f64,
    /// The score as Elo; `null` at 0 or 1.
    pub elo: Option<f64>,
    /// Its Bonferroni-corrected interval excludes the overall score.
    pub differs: bool,
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// How the games are grouped: `start` (a double-FRC pair apart), `white-start` or
    /// `black-start` (per one side's arrangement, whatever the other's).
    pub by: By,
    /// Games counted (from every start, also those under `min_games`).
    pub games: u64,
    /// Starts with any game.
    pub starts: usize,
    /// Of them, double-FRC pairs.
    pub pairs: usize,
    /// Starts with at least `min_games` games: the rows and the tests.
    pub tested: usize,
    /// The `--min-games` applied.
    pub min_games: u64,
    /// White's results over the tested starts.
    pub overall: Wdl,
    /// White's overall score and its 95% Wilson interval.
    pub score: f64,
    /// Its lower end.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
    /// The overall score as Elo.
    pub elo: Option<f64>,
    /// Pearson's chi-square test of homogeneity over the tested starts' W/D/L.
    pub homogeneity: Option<Homogeneity>,
    /// The normal quantile of the Bonferroni-corrected intervals (0.05 / tested, two-sided).
    pub bonferroni_z: f64,
    /// Tested starts whose corrected interval excludes the overall score.
    pub differing: usize,
    /// The plain conclusion.
    pub conclusion: String,
    /// Games not counted, per reason.
    pub skipped: Vec<SkippedCount>,
    /// The first few of each reason.
    pub skipped_examples: Vec<Skipped>,
    /// A row per tested start, in the order asked.
    pub rows: Vec<StartRow>,
}

/// How many games were skipped for one reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SkippedCount {
    /// Why.
    pub reason: SkipReason,
    /// How many.
    pub games: u64,
}

/// The arrangement of a start: `BQNBRKNR`, or `BQNBRKNR/RNBQKBNR` for a pair.
pub fn arrangement(start: Start) -> String {
    let ranks = start.arrangements();
    if start.is_symmetric() {
        ranks.white.to_string()
    } else {
        format!("{}/{}", ranks.white, ranks.black)
    }
}

/// A row for `start`'s games; `z_corrected` decides `differs` against `overall`.
fn row(start: Start, wdl: Wdl, z95: f64, z_corrected: f64, overall: f64) -> StartRow {
    let (low, high) = wilson(wdl.points(), wdl.games(), z95);
    let (corrected_low, corrected_high) = wilson(wdl.points(), wdl.games(), z_corrected);
    StartRow {
        start: start.to_string(),
        arrangement: arrangement(start),
        games: wdl.games(),
        wins: wdl.wins,
        draws: wdl.draws,
        losses: wdl.losses,
        score: wdl.score(),
        low,
        high,
        draw_rate: wdl.draw_rate(),
        elo: elo(wdl.score()),
        differs: overall < corrected_low || overall > corrected_high,
    }
}

impl Report {
    /// The report of `tally`.
    pub fn new(tally: &StartTally, options: ReportOptions) -> Report {
        let tested: Vec<(Start, Wdl)> = tally
            .starts
            .iter()
            .filter(|(_, wdl)| wdl.games() >= options.min_games.max(1))
            .map(|(start, wdl)| (*start, *wdl))
            .collect();
        let mut overall = Wdl::default();
        for (_, wdl) in &tested {
            overall.add(*wdl);
        }
        let z95 = z_for(0.95);
        let z_corrected = bonferroni_z(tested.len());
        let score = overall.score();
        let mut rows: Vec<StartRow> = tested
            .iter()
            .map(|&(start, wdl)| row(start, wdl, z95, z_corrected, score))
            .collect();
        sort_rows(&mut rows, &tested, options.sort);
        let wdls: Vec<Wdl> = tested.iter().map(|(_, wdl)| *wdl).collect();
        let test = homogeneity(&wdls);
        let differing = rows.iter().filter(|row| row.differs).count();
        let (low, high) = wilson(overall.points(), overall.games(), z95);
        let mut report = Report {
            by: tally.by,
            games: tally.games(),
            starts: tally.starts.len(),
            pairs: tally.starts.keys().filter(|s| !s.is_symmetric()).count(),
            tested: tested.len(),
            min_games: options.min_games,
            overall,
            score,
            low,
            high,
            elo: elo(score),
            homogeneity: test,
            bonferroni_z: z_corrected,
            differing,
            conclusion: String::new(),
            skipped: tally
                .skipped
                .iter()
                .map(|(&reason, &games)| SkippedCount { reason, games })
                .collect(),
            skipped_examples: tally.examples.clone(),
            rows,
        };
        report.conclusion = conclusion(&report);
        report
    }

    /// Games per tested start, as said in the conclusion: the median.
    pub fn typical_games(&self) -> u64 {
        let mut games: Vec<u64> = self.rows.iter().map(|row| row.games).collect();
        games.sort_unstable();
        games.get(games.len() / 2).copied().unwrap_or(0)
    }
}

/// `rows` (made from `tested`, in its order) put in the order asked.
fn sort_rows(rows: &mut Vec<StartRow>, tested: &[(Start, Wdl)], sort: SortBy) {
    let mut keyed: Vec<(Start, StartRow)> =
        tested.iter().map(|(s, _)| *s).zip(rows.drain(..)).collect();
    match sort {
        // Symmetric starts first, then pairs: the numbering's order.
        SortBy::Start => keyed.sort_by_key(|(start, _)| (!start.is_symmetric(), *start)),
        SortBy::Games => keyed.sort_by(|(a, x), (b, y)| y.games.cmp(&x.games).then(a.cmp(b))),
        SortBy::Score => keyed.sort_by(|(a, x), (b, y)| {
            y.score
                .total_cmp(&x.score)
                .then(y.games.cmp(&x.games))
                .then(a.cmp(b))
        }),
    }
    rows.extend(keyed.into_iter().map(|(_, row)| row));
}

/// The one line a non-statistician reads.
fn conclusion(report: &Report) -> String {
    let typical = report.typical_games();
    let games = format!(
        "with {typical} game{} a start",
        if typical == 1 { "" } else { "s" }
    );
    let Some(test) = report.homogeneity else {
        return "fewer than two starts with games, or one outcome in every game: nothing to \
                compare"
            .to_owned();
    };
    let differing: Vec<String> = report
        .rows
        .iter()
        .filter(|row| row.differs)
        .map(|row| start_label(&row.start))
        .collect();
    match (differing.len(), test.p() < 0.05) {
        (0, false) => format!(
            "{games}, no start differs from the average beyond noise (p = {:.2})",
            test.p()
        ),
        (0, true) => format!(
            "{games}, the starts differ as a whole (p = {}), but no single start stands out \
             once {} starts are tested at once",
            p_text(test.p()),
            report.tested
        ),
        (n, _) => {
            let shown: Vec<&str> = differing.iter().take(5).map(String::as_str).collect();
            let more = if n > 5 {
                format!(" and {} more", n - 5)
            } else {
                String::new()
            };
            format!(
                "{games}, {n} start{} differ{} from the average beyond noise: {}{more}",
                if n == 1 { "" } else { "s" },
                if n == 1 { "s" } else { "" },
                shown.join(", ")
            )
        }
    }
}

/// A p-value for people: `0.031`, `< 0.001`.
pub fn p_text(p: f64) -> String {
    if p < 0.001 {
        format!("{p:.1e}")
    } else {
        format!("{p:.3}")
    }
}

/// An Elo for the table: `+21`, `-inf`.
pub fn elo_text(elo: Option<f64>, score: f64) -> String {
    match elo {
        Some(elo) if elo.abs() < 0.5 => "0".to_owned(),
        Some(elo) => format!("{elo:+.0}"),
        None if score >= 1.0 => "+inf".to_owned(),
        None => "-inf".to_owned(),
    }
}

/// How a start is named in tables: `SP 518`, `DFRC 0:959`.
pub fn start_label(start: &str) -> String {
    if start.contains(':') {
        format!("DFRC {start}")
    } else {
        format!("SP {start}")
    }
}

/// The summary lines above the table (also the head of the HTML page).
pub fn summary_lines(report: &Report) -> Vec<String> {
    let mut lines = Vec::new();
    let pairs = if report.pairs > 0 {
        format!(", {} of them double-FRC pairs", report.pairs)
    } else {
        String::new()
    };
    let skipped: u64 = report.skipped.iter().map(|s| s.games).sum();
    let skipped_text = if skipped == 0 {
        "none skipped".to_owned()
    } else {
        let parts: Vec<String> = report
            .skipped
            .iter()
            .map(|s| format!("{} {}", s.games, s.reason.words()))
            .collect();
        format!("{skipped} skipped: {}", parts.join(", "))
    };
    let starts = match report.by {
        By::Start => "starts",
        By::WhiteStart => "White starts (each game by White's arrangement, whatever Black's)",
        By::BlackStart => "Black starts (each game by Black's arrangement, whatever White's)",
    };
    lines.push(format!(
        "{} games from {} {starts}{pairs}; {skipped_text}",
        report.games, report.starts
    ));
    let tested = if report.min_games > 1 {
        format!(
            " over the {} starts with at least {} games",
            report.tested, report.min_games
        )
    } else {
        String::new()
    };
    lines.push(format!(
        "White scores {:.3} [{:.3}, {:.3}] (95% Wilson), {} Elo, draws {:.1}%{tested}",
        report.score,
        report.low,
        report.high,
        elo_text(report.elo, report.score),
        report.overall.draw_rate() * 100.0
    ));
    if let Some(test) = report.homogeneity {
        let read = if test.sparse_cells > 0.2 {
            format!(
                "; {:.0}% of cells expect under 5 games: read the permutations' p",
                test.sparse_cells * 100.0
            )
        } else {
            String::new()
        };
        lines.push(format!(
            "Homogeneity (Pearson chi-square, W/D/L by start): chi2 = {:.1}, df = {}, p = {} \
             (chi-square distribution), p = {} ({} permutations){read}",
            test.chi_square,
            test.df,
            p_text(test.p_value),
            p_text(test.permutation_p),
            test.permutations
        ));
    }
    lines.push(format!(
        "Starts whose interval excludes {:.3} (Bonferroni, {} tests): {}",
        report.score, report.tested, report.differing
    ));
    lines.push(format!("Conclusion: {}.", report.conclusion));
    lines
}

/// The text report: the summary, then the table.
pub fn text(report: &Report) -> String {
    let mut out = String::new();
    for line in summary_lines(report) {
        let _ = writeln!(out, "{line}");
    }
    if report.rows.is_empty() {
        return out;
    }
    let width = report
        .rows
        .iter()
        .map(|r| r.arrangement.len())
        .max()
        .unwrap_or(8);
    let label_width = report
        .rows
        .iter()
        .map(|r| start_label(&r.start).len())
        .max()
        .unwrap_or(6)
        .max(report.by.heading().len());
    let _ = writeln!(
        out,
        "\n{:<label_width$}  {:<width$}  Games    +W    =D    -L  Score  95% interval    Draws   Elo",
        report.by.heading(),
        "Arrangement"
    );
    for r in &report.rows {
        let _ = writeln!(
            out,
            "{:<label_width$}  {:<width$}  {:>5} {:>5} {:>5} {:>5}  {:.3}  [{:.3}, {:.3}]  {:>5.1}% {:>5}{}",
            start_label(&r.start),
            r.arrangement,
            r.games,
            r.wins,
            r.draws,
            r.losses,
            r.score,
            r.low,
            r.high,
            r.draw_rate * 100.0,
            elo_text(r.elo, r.score),
            if r.differs { "  *" } else { "" }
        );
    }
    out
}

/// The rows as CSV, with a header line.
pub fn csv(report: &Report) -> String {
    let column = match report.by {
        By::Start => "start",
        By::WhiteStart => "white_start",
        By::BlackStart => "black_start",
    };
    let mut out = format!(
        "{column},arrangement,games,wins,draws,losses,score,low,high,draw_rate,elo,differs\n"
    );
    for r in &report.rows {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{:.4},{:.4},{:.4},{:.4},{},{}",
            r.start,
            r.arrangement,
            r.games,
            r.wins,
            r.draws,
            r.losses,
            r.score,
            r.low,
            r.high,
            r.draw_rate,
            r.elo.map_or(String::new(), |e| format!("{e:.1}")),
            r.differs
        );
    }
    out
}
