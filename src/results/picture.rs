//! The picture of the 960: an SVG written directly (each start a `<rect>` with a `<title>`
//! tooltip, which plotters' SVG backend cannot attach to what it draws), and an HTML page
//! holding it with the summary and the table.
//!
//! Layout: Scharnagl's number is `96 × knights + 16 × queen + 4 × dark bishop + light
//! bishop`, so column `n / 16` (60 columns: 10 blocks of knight placements, 6 queen squares
//! each) and row `n % 16` (16 rows: 4 blocks of the dark bishop's file, 4 light-bishop files
//! each) put starts that share their knights and queen in one column and starts that share
//! their bishops in one row. Colour: White's score on a diverging scale (red where Black
//! scores, white at 0.5, blue where White scores, full at 0.25 and 0.75), faded towards
//! white as the 95% interval widens (pale: few games). Double-FRC pairs are in the table
//! only. Below it, a histogram of the per-start scores beside what noise alone gives: the
//! expected number of starts per bin if every start had the overall W/D/L chances, with
//! its own number of games.

use std::fmt::Write as _;

use crate::results::report::{Report, StartRow, elo_text, start_label, summary_lines};
use crate::starts::numbering::StartPosition;

const CELL: usize = 13;
const GAP: usize = 4;
const LEFT: usize = 70;
const TOP: usize = 56;
const BINS: usize = 21;

/// Characters that must not appear raw in SVG/HTML text.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn column_x(column: usize) -> usize {
    LEFT + column * CELL + (column / 6) * GAP
}

fn row_y(row: usize) -> usize {
    TOP + row * CELL + (row / 4) * GAP
}

/// The fill of a score: red below 0.5, blue above, `#f7f7f7` at 0.5.
fn colour(score: f64) -> String {
    let t = ((score - 0.5) / 0.25).clamp(-1.0, 1.0);
    let (end, mid) = if t < 0.0 {
        ((178.0, 24.0, 43.0), (247.0, 247.0, 247.0))
    } else {
        ((33.0, 102.0, 172.0), (247.0, 247.0, 247.0))
    };
    let a = t.abs();
    let mix = |e: f64, m: f64| (m + (e - m) * a).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(end.0, mid.0),
        mix(end.1, mid.1),
        mix(end.2, mid.2)
    )
}

/// The opacity of a cell: 1 for a precise score, down to 0.15 for a wide interval.
fn certainty(row: &StartRow) -> f64 {
    (1.0 - (row.high - row.low)).clamp(0.15, 1.0)
}

fn cell_title(row: &StartRow) -> String {
    format!(
        "{} {}: {} games, +{} ={} -{}, White {:.3} [{:.3}, {:.3}], draws {:.0}%",
        start_label(&row.start),
        row.arrangement,
        row.games,
        row.wins,
        row.draws,
        row.losses,
        row.score,
        row.low,
        row.high,
        row.draw_rate * 100.0
    )
}

/// The grid of the 960 starts.
fn grid(report: &Report, out: &mut String) {
    let mut by_number: Vec<Option<&StartRow>> = vec![None; 960];
    for row in &report.rows {
        if let Ok(n) = row.start.parse::<usize>()
            && n < 960
        {
            by_number[n] = Some(row);
        }
    }
    let _ = writeln!(
        out,
        "<text x=\"{LEFT}\" y=\"16\" class=\"h\">The 960 starts: White's score by arrangement</text>"
    );
    let _ = writeln!(
        out,
        "<text x=\"{LEFT}\" y=\"32\" class=\"s\">columns: knights (blocks) and queen (6 a block) on the \
         squares the bishops leave; rows: the bishops' files. SP n is column n / 16, row n % 16</text>"
    );
    // Scharnagl's knight placements on the five squares left after the bishops and the
    // queen (NN---, N-N--, ...) over the blocks; the queen's square runs across each block.
    let pairs = (0..5).flat_map(|first| (first + 1..5).map(move |second| (first, second)));
    for (block, (first, second)) in pairs.enumerate() {
        let knights: String = (0..5)
            .map(|square| {
                if square == first || square == second {
                    'N'
                } else {
                    '-'
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" class=\"s\">{knights}</text>",
            column_x(block * 6),
            TOP - 6
        );
    }
    for row in 0..16 {
        let light = ['b', 'd', 'f', 'h'][row % 4];
        let dark = ['a', 'c', 'e', 'g'][row / 4];
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" class=\"s\" text-anchor=\"end\">B{dark} B{light}</text>",
            LEFT - 4,
            row_y(row) + CELL - 3
        );
    }
    for (n, row) in by_number.iter().enumerate() {
        let (x, y) = (column_x(n / 16), row_y(n % 16));
        let size = CELL - 1;
        match row {
            Some(row) => {
                let _ = writeln!(
                    out,
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{size}\" height=\"{size}\" fill=\"{}\" \
                     fill-opacity=\"{:.2}\"><title>{}</title></rect>",
                    colour(row.score),
                    certainty(row),
                    escape(&cell_title(row))
                );
            }
            None => {
                let arrangement = StartPosition::new(n as u64).expect("in range").back_rank();
                let _ = writeln!(
                    out,
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{size}\" height=\"{size}\" class=\"none\">\
                     <title>SP {n} {arrangement}: no games</title></rect>"
                );
            }
        }
    }
}

/// The colour legend under the grid, at `y`.
fn legend(out: &mut String, y: usize) {
    let _ = writeln!(
        out,
        "<text x=\"{LEFT}\" y=\"{}\" class=\"s\">White's score:</text>",
        y + 10
    );
    for step in 0..=20 {
        let score = step as f64 / 20.0;
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{y}\" width=\"8\" height=\"12\" fill=\"{}\"/>",
            LEFT + 90 + step * 8,
            colour(score)
        );
    }
    for (score, label) in [(0.0, "0"), (0.5, "0.5"), (1.0, "1")] {
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" class=\"s\" text-anchor=\"middle\">{label}</text>",
            LEFT + 94 + (score * 160.0) as usize,
            y + 24
        );
    }
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" class=\"s\">paler: a wider 95% interval (fewer games); outlined: no games</text>",
        LEFT + 280,
        y + 10
    );
}

/// The chance of each score bin for a start of `games` games with per-game chances
/// `(win, draw, loss)`.
fn bin_chances(games: u64, win: f64, draw: f64, loss: f64) -> [f64; BINS] {
    let mut chances = [0.0; BINS];
    let n = games as usize;
    // log n! for the multinomial coefficients.
    let mut log_factorial = vec![0.0f64; n + 1];
    for k in 1..=n {
        log_factorial[k] = log_factorial[k - 1] + (k as f64).ln();
    }
    let ln = |p: f64, k: usize| if k == 0 { 0.0 } else { k as f64 * p.ln() };
    for wins in 0..=n {
        for draws in 0..=(n - wins) {
            let losses = n - wins - draws;
            let log_p = log_factorial[n]
                - log_factorial[wins]
                - log_factorial[draws]
                - log_factorial[losses]
                + ln(win, wins)
                + ln(draw, draws)
                + ln(loss, losses);
            let score = (wins as f64 + draws as f64 / 2.0) / n as f64;
            chances[bin(score)] += log_p.exp();
        }
    }
    chances
}

fn bin(score: f64) -> usize {
    ((score * (BINS - 1) as f64).round() as usize).min(BINS - 1)
}

/// Observed starts per score bin, and the expected number under noise alone.
pub fn histogram(report: &Report) -> ([u64; BINS], [f64; BINS]) {
    let mut observed = [0u64; BINS];
    let mut expected = [0.0f64; BINS];
    let total = report.overall.games().max(1) as f64;
    let (win, draw, loss) = (
        report.overall.wins as f64 / total,
        report.overall.draws as f64 / total,
        report.overall.losses as f64 / total,
    );
    let mut cache: std::collections::HashMap<u64, [f64; BINS]> = Default::default();
    for row in &report.rows {
        observed[bin(row.score)] += 1;
        // Beyond 400 games a start the exact sum is slow and the bins are narrow anyway.
        let games = row.games.min(400);
        let chances = cache
            .entry(games)
            .or_insert_with(|| bin_chances(games, win, draw, loss));
        for (e, c) in expected.iter_mut().zip(chances.iter()) {
            *e += c;
        }
    }
    (observed, expected)
}

/// The histogram at `top`.
fn histogram_svg(report: &Report, out: &mut String, top: usize) {
    let (observed, expected) = histogram(report);
    let height = 150.0;
    let peak = observed
        .iter()
        .map(|&o| o as f64)
        .chain(expected.iter().copied())
        .fold(1.0, f64::max);
    let width = 36;
    let base = top as f64 + 30.0 + height;
    let _ = writeln!(
        out,
        "<text x=\"{LEFT}\" y=\"{}\" class=\"h\">Starts by White's score: observed (bars) and noise alone (dots)</text>",
        top + 16
    );
    let mut dots = Vec::new();
    for k in 0..BINS {
        let x = LEFT + k * width;
        let bar = observed[k] as f64 / peak * height;
        let _ = writeln!(
            out,
            "<rect x=\"{x}\" y=\"{:.1}\" width=\"{}\" height=\"{bar:.1}\" class=\"bar\"><title>score {:.2}: {} starts, {:.1} expected from noise alone</title></rect>",
            base - bar,
            width - 2,
            k as f64 / (BINS - 1) as f64,
            observed[k],
            expected[k]
        );
        let cy = base - expected[k] / peak * height;
        dots.push(format!(
            "{:.1},{cy:.1}",
            x as f64 + (width - 2) as f64 / 2.0
        ));
        if k % 2 == 0 {
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{:.0}\" class=\"s\" text-anchor=\"middle\">{:.1}</text>",
                x + (width - 2) / 2,
                base + 14.0,
                k as f64 / (BINS - 1) as f64
            );
        }
    }
    let _ = writeln!(
        out,
        "<polyline points=\"{}\" class=\"noise\"/>",
        dots.join(" ")
    );
    for point in &dots {
        let (x, y) = point.split_once(',').expect("x,y");
        let _ = writeln!(out, "<circle cx=\"{x}\" cy=\"{y}\" r=\"3\" class=\"dot\"/>");
    }
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{:.0}\" class=\"s\">peak {peak:.0} starts</text>",
        LEFT + BINS * width + 6,
        base - height + 8.0
    );
}

/// The SVG document: the grid, its legend and the histogram.
pub fn svg(report: &Report) -> String {
    let grid_bottom = row_y(16) + 8;
    let histogram_top = grid_bottom + 40;
    let height = histogram_top + 230;
    let width = column_x(60) + 20;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\">"
    );
    let _ = writeln!(
        out,
        "<style>.h{{font-size:13px;font-weight:bold}} .s{{font-size:10px;fill:#333}} \
         .none{{fill:#ffffff;stroke:#d0d0d0;stroke-width:0.5}} .bar{{fill:#9bb3c9}} .noise{{fill:none;stroke:#222;stroke-width:1.5}} \
         .dot{{fill:#222}}</style>"
    );
    let _ = writeln!(
        out,
        "<rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>"
    );
    grid(report, &mut out);
    legend(&mut out, grid_bottom);
    histogram_svg(report, &mut out, histogram_top);
    out.push_str("</svg>\n");
    out
}

/// The HTML page: the summary, the picture, then the table.
pub fn html(report: &Report, title: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n\
         <style>body{{font-family:sans-serif;margin:1.5em}} table{{border-collapse:collapse;font-size:12px}} \
         td,th{{padding:2px 8px;text-align:right}} td:nth-child(2){{font-family:monospace}} \
         tr:nth-child(even){{background:#f4f4f4}} .differs{{font-weight:bold}}</style>\n</head>\n<body>",
        escape(title)
    );
    let _ = writeln!(out, "<h1>{}</h1>", escape(title));
    for line in summary_lines(report) {
        let _ = writeln!(out, "<p>{}</p>", escape(&line));
    }
    out.push_str(&svg(report));
    let _ = writeln!(
        out,
        "<table>\n<tr><th>{}</th><th>Arrangement</th><th>Games</th><th>+W</th><th>=D</th>\
         <th>-L</th><th>Score</th><th>95% interval</th><th>Draws</th><th>Elo</th></tr>",
        report.by.heading()
    );
    for row in &report.rows {
        let _ = writeln!(
            out,
            "<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.3}</td>\
             <td>[{:.3}, {:.3}]</td><td>{:.1}%</td><td>{}</td></tr>",
            if row.differs {
                " class=\"differs\""
            } else {
                ""
            },
            escape(&start_label(&row.start)),
            escape(&row.arrangement),
            row.games,
            row.wins,
            row.draws,
            row.losses,
            row.score,
            row.low,
            row.high,
            row.draw_rate * 100.0,
            elo_text(row.elo, row.score)
        );
    }
    out.push_str("</table>\n</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_alone_is_a_distribution_per_start() {
        for games in [1, 2, 7, 60] {
            let chances = bin_chances(games, 0.4, 0.35, 0.25);
            let total: f64 = chances.iter().sum();
            assert!((total - 1.0).abs() < 1e-9, "{games}: {total}");
        }
        // Two games: 0, 0.25, 0.5, 0.75, 1 only; 0.75 is a win and a draw, 2 × 0.4 × 0.35.
        let two = bin_chances(2, 0.4, 0.35, 0.25);
        assert!((two[bin(0.75)] - 0.28).abs() < 1e-12);
        assert_eq!(two[bin(0.6)], 0.0);
    }

    #[test]
    fn colours_diverge_from_white_at_one_half() {
        assert_eq!(colour(0.5), "#f7f7f7");
        assert_eq!(colour(1.0), "#2166ac");
        assert_eq!(colour(0.0), "#b2182b");
        assert_eq!(colour(0.8), colour(0.75));
        assert_eq!(escape("a<b&\"c\">"), "a&lt;b&amp;&quot;c&quot;&gt;");
    }
}
