//! `sp960 book --from-results FILE`: the starts of a results JSON (`sp960 results --json`)
//! whose White score lies in a window, with a minimum of games, in the file's row order.
//! Sans-IO: given the file's text.

use serde::Deserialize;
use thiserror::Error;

use crate::starts::start::{Spec, Start};

/// White's score window, inclusive: `0.45,0.55`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScoreWindow {
    /// The lowest score kept.
    pub low: f64,
    /// The highest score kept.
    pub high: f64,
}

impl std::str::FromStr for ScoreWindow {
    type Err = FilterError;

    /// `LO,HI`, two scores from 0 to 1 with LO <= HI.
    fn from_str(text: &str) -> Result<ScoreWindow, FilterError> {
        let bad = || FilterError::Window(text.to_owned());
        let (low, high) = text.split_once(',').ok_or_else(bad)?;
        let score = |s: &str| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| (0.0..=1.0).contains(v))
        };
        match (score(low), score(high)) {
            (Some(low), Some(high)) if low <= high => Ok(ScoreWindow { low, high }),
            _ => Err(bad()),
        }
    }
}

/// Why a results file gave no starts.
#[derive(Debug, Error)]
pub enum FilterError {
    /// A window that is not `LO,HI` with 0 <= LO <= HI <= 1.
    #[error(
        "score window `{0}`: expected LO,HI, two scores from 0 to 1 with LO <= HI (e.g. 0.45,0.55)"
    )]
    Window(String),
    /// Not the JSON `sp960 results --json` writes.
    #[error(
        "not a results JSON of `sp960 results --json` (line {line}, column {column}): {reason}"
    )]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What serde_json said.
        reason: String,
    },
    /// A row whose start is no SP or pair.
    #[error("row {row}: start `{start}` is no SP (0-959) or double-FRC pair W:B")]
    BadStart {
        /// 1-based row.
        row: usize,
        /// As written.
        start: String,
    },
    /// Rows per one side's arrangement (`results --by white-start`), which are no starts.
    #[error(
        "made with `sp960 results --by {0}`: its rows are one side's arrangements over every \
         start of the other side, not starts (write it without --by)"
    )]
    GroupedBySide(String),
    /// Nothing inside the window.
    #[error(
        "no start has a White score in {low}..{high} with at least {min_games} games \
         ({rows} starts in the file)"
    )]
    Empty {
        /// The window's low end.
        low: f64,
        /// Its high end.
        high: f64,
        /// The minimum of games.
        min_games: u64,
        /// Rows read.
        rows: usize,
    },
}

#[derive(Deserialize)]
struct ResultsFile {
    /// `start`, or `white-start`/`black-start` (`results --by`): rows that are no start.
    #[serde(default)]
    by: Option<String>,
    rows: Vec<RowIn>,
}

#[derive(Deserialize)]
struct RowIn {
    start: String,
    games: u64,
    score: f64,
}

/// The starts of `json` with a score inside `window` and at least `min_games` games, as
/// SPECs a book request takes.
pub fn starts_in_window(
    json: &str,
    window: ScoreWindow,
    min_games: u64,
) -> Result<Vec<Spec>, FilterError> {
    let file: ResultsFile = serde_json::from_str(json).map_err(|err| FilterError::Json {
        line: err.line(),
        column: err.column(),
        reason: err.to_string(),
    })?;
    if let Some(by) = file.by.filter(|by| by != "start") {
        return Err(FilterError::GroupedBySide(by));
    }
    let mut specs = Vec::new();
    for (index, row) in file.rows.iter().enumerate() {
        let start = parse_start(&row.start).ok_or_else(|| FilterError::BadStart {
            row: index + 1,
            start: row.start.clone(),
        })?;
        if row.games >= min_games && row.score >= window.low && row.score <= window.high {
            specs.push(Spec::from(start));
        }
    }
    if specs.is_empty() {
        return Err(FilterError::Empty {
            low: window.low,
            high: window.high,
            min_games,
            rows: file.rows.len(),
        });
    }
    Ok(specs)
}

/// One start written as `518` or `0:959`.
fn parse_start(text: &str) -> Option<Start> {
    match Spec::listed(text).ok()?.starts()[..] {
        [start] => Some(start),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const JSON: &str = r#"{"games": 9, "rows": [
        {"start": "12", "games": 4, "score": 0.5},
        {"start": "0:959", "games": 4, "score": 0.55},
        {"start": "13", "games": 1, "score": 0.5},
        {"start": "14", "games": 4, "score": 0.9}]}"#;

    #[test]
    fn keeps_the_starts_inside_the_window() {
        let window = ScoreWindow {
            low: 0.45,
            high: 0.55,
        };
        let specs = starts_in_window(JSON, window, 2).unwrap();
        let texts: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
        assert_eq!(texts, ["12", "0:959"]);
    }

    #[test]
    fn reads_a_window() {
        let window: ScoreWindow = "0.4, 0.6".parse().unwrap();
        assert_eq!((window.low, window.high), (0.4, 0.6));
        for bad in ["0.6,0.4", "0.5", "-1,0.5", "a,b"] {
            assert!(bad.parse::<ScoreWindow>().is_err(), "{bad}");
        }
    }

    #[test]
    fn says_why_nothing_came() {
        let window = ScoreWindow {
            low: 0.0,
            high: 0.1,
        };
        let err = starts_in_window(JSON, window, 1).unwrap_err();
        assert!(err.to_string().contains("4 starts in the file"), "{err}");
        let err = starts_in_window(
            "{\"rows\": [{\"start\": \"960\", \"games\": 1, \"score\": 0.5}]}",
            window,
            1,
        )
        .unwrap_err();
        assert!(err.to_string().contains("`960`"), "{err}");
        let err = starts_in_window("{\n\"rows\": 3}", window, 1).unwrap_err();
        assert!(err.to_string().contains("line 2"), "{err}");
    }
}
