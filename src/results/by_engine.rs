//! `--by-engine`: each engine's score from each start, as White and as Black, from that
//! engine's side, with its 95% Wilson interval; as text, JSON or CSV.

use std::fmt::Write as _;

use serde::Serialize;

use crate::results::report::{arrangement, start_label};
use crate::results::stats::{Wdl, wilson, z_for};
use crate::results::tally::{EngineAtStart, StartTally};

/// One colour's games of an engine from a start, from the engine's side.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Side {
    /// Games.
    pub games: u64,
    /// The engine's wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// The engine's losses.
    pub losses: u64,
    /// Its score, 0 to 1 (`null` without games).
    pub score: Option<f64>,
    /// The 95% Wilson interval.
    pub low: Option<f64>,
    /// Its upper end.
    pub high: Option<f64>,
}

/// One engine, one start.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EngineRow {
    /// The engine's name, as the `White`/`Black` tags give it.
    pub engine: String,
    /// `518` or `0:959`.
    pub start: String,
    /// White's back rank (and Black's for a pair).
    pub arrangement: String,
    /// Its games as White.
    pub white: Side,
    /// Its games as Black.
    pub black: Side,
}

fn side(wdl: Wdl, z: f64) -> Side {
    let games = wdl.games();
    let (low, high) = wilson(wdl.points(), games, z);
    Side {
        games,
        wins: wdl.wins,
        draws: wdl.draws,
        losses: wdl.losses,
        score: (games > 0).then(|| wdl.score()),
        low: (games > 0).then_some(low),
        high: (games > 0).then_some(high),
    }
}

/// A row per engine and start with at least `min_games` games (both colours together),
/// by engine name, then start.
pub fn engine_rows(tally: &StartTally, min_games: u64) -> Vec<EngineRow> {
    let z = z_for(0.95);
    tally
        .engines
        .iter()
        .filter(|(_, e)| e.as_white.games() + e.as_black.games() >= min_games.max(1))
        .map(
            |((engine, start), &EngineAtStart { as_white, as_black })| EngineRow {
                engine: engine.clone(),
                start: start.to_string(),
                arrangement: arrangement(*start),
                white: side(as_white, z),
                black: side(as_black, z),
            },
        )
        .collect()
}

fn side_text(side: &Side) -> String {
    match (side.score, side.low, side.high) {
        (Some(score), Some(low), Some(high)) => format!(
            "{:>4} {:>3}/{:>3}/{:>3} {score:.3} [{low:.3}, {high:.3}]",
            side.games, side.wins, side.draws, side.losses
        ),
        _ => format!("{:>4} {:>31}", 0, "-"),
    }
}

/// The rows as a table: the engine, the start, then as White and as Black: games,
/// W/D/L from the engine's side, score and interval.
pub fn text(rows: &[EngineRow]) -> String {
    let name_width = rows
        .iter()
        .map(|r| r.engine.len())
        .max()
        .unwrap_or(6)
        .max(6);
    let label_width = rows
        .iter()
        .map(|r| start_label(&r.start).len())
        .max()
        .unwrap_or(6);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<name_width$}  {:<label_width$}  {:<36}  As Black: games W/D/L score [95%]",
        "Engine", "Start", "As White: games W/D/L score [95%]"
    );
    for row in rows {
        let _ = writeln!(
            out,
            "{:<name_width$}  {:<label_width$}  {:<36}  {}",
            row.engine,
            start_label(&row.start),
            side_text(&row.white),
            side_text(&row.black)
        );
    }
    out
}

/// The rows as CSV (a name with a comma or quote is quoted).
pub fn csv(rows: &[EngineRow]) -> String {
    let mut out = String::from(
        "engine,start,arrangement,white_games,white_wins,white_draws,white_losses,white_score,\
         black_games,black_wins,black_draws,black_losses,black_score\n",
    );
    let quoted = |name: &str| {
        if name.contains([',', '"', '\n']) {
            format!("\"{}\"", name.replace('"', "\"\""))
        } else {
            name.to_owned()
        }
    };
    let score = |side: &Side| side.score.map_or(String::new(), |s| format!("{s:.4}"));
    for row in rows {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{}",
            quoted(&row.engine),
            row.start,
            row.arrangement,
            row.white.games,
            row.white.wins,
            row.white.draws,
            row.white.losses,
            score(&row.white),
            row.black.games,
            row.black.wins,
            row.black.draws,
            row.black.losses,
            score(&row.black)
        );
    }
    out
}
