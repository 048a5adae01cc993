//! The runner's PGN read back: each game's tags the summary needs, its plies and the end
//! in words ([`read_games`]), and why a game cannot be read or placed in the match
//! ([`RunnerPgnError`]: the line and the problem).

use thiserror::Error;

/// Why a game of the runner's PGN cannot be read or placed in the match's schedule: the
/// line (of the game's first tag, or of a malformed tag) and the problem.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {problem}")]
pub struct RunnerPgnError {
    /// The 1-based line.
    pub line: usize,
    /// What is wrong.
    pub problem: RunnerPgnProblem,
}

/// What is wrong with a game of the runner's PGN.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RunnerPgnProblem {
    /// A line starting with `[` that is no `[Key "value"]`.
    #[error("a malformed tag pair: {0}")]
    MalformedTag(String),
    /// A tag the summary needs is missing.
    #[error("the game has no {0} tag")]
    MissingTag(&'static str),
    /// The `FEN` tag is no position.
    #[error("FEN '{fen}': {error}")]
    Fen {
        /// The tag's value.
        fen: String,
        /// Why it is refused.
        error: crate::protocol::game::PositionError,
    },
    /// The `Round` tag is no number.
    #[error("Round '{0}' is not a number")]
    RoundNotANumber(String),
    /// fastchess numbers its games matchup by matchup: this `Round` is another matchup's.
    #[error(
        "Round {round} is not a game between engines {} and {} in fastchess's order",
        .engines.0 + 1,
        .engines.1 + 1
    )]
    NotInOrder {
        /// The `Round` tag.
        round: u64,
        /// The matchup's engines (0-based).
        engines: (usize, usize),
    },
    /// A `Round` past the match's schedule.
    #[error("Round {0} is outside the match's schedule")]
    OutsideSchedule(u64),
    /// The `FEN` tag is not the root of the opening the runner's schedule gives the game.
    #[error(
        "FEN '{fen}' is not the root of opening {} ({label}), which the runner's schedule \
         gives Round {round}",
        .opening + 1
    )]
    NotTheRoot {
        /// The tag's value.
        fen: String,
        /// The opening (0-based).
        opening: usize,
        /// Its label.
        label: String,
        /// The `Round` tag.
        round: u64,
    },
}

/// One game of a runner's PGN, as far as the summary needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunnerGame {
    /// The `Round` tag: both games of a start share it.
    pub round: u64,
    /// The `White` tag.
    pub white: String,
    /// The `Black` tag.
    pub black: String,
    /// The `Result` tag.
    pub result: String,
    /// The 1-based line of its first tag.
    pub line: usize,
    /// The `FEN` tag (none: the standard start).
    pub fen: Option<String>,
    /// The `Termination` tag (`normal` when there is none).
    pub termination: String,
    /// The end of the game in words: the last comment's text after its score, if any.
    pub reason: String,
    /// Plies played.
    pub plies: usize,
}

/// Reads every game of `text` (a runner's PGN); an error names the line and the reason.
pub fn read_games(text: &str) -> Result<Vec<RunnerGame>, RunnerPgnError> {
    let mut games = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut movetext = String::new();
    let mut first_line = 0;
    let lines: Vec<&str> = text.lines().collect();
    for (number, line) in lines.iter().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.starts_with('[') {
            if !movetext.trim().is_empty() {
                games.push(game(first_line, &tags, &movetext)?);
                tags.clear();
                movetext.clear();
            }
            if tags.is_empty() {
                first_line = number + 1;
            }
            tags.push(tag(line).ok_or_else(|| RunnerPgnError {
                line: number + 1,
                problem: RunnerPgnProblem::MalformedTag(line.to_owned()),
            })?);
        } else if !tags.is_empty() {
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    if !tags.is_empty() {
        games.push(game(first_line, &tags, &movetext)?);
    }
    Ok(games)
}

/// `[Key "value"]` with `\"` and `\\` unescaped ([`crate::records::pgn_tag`], the one
/// PGN tag reader).
fn tag(line: &str) -> Option<(String, String)> {
    let (key, value) = crate::records::pgn_tag::tag_pair(line)?;
    Some((key.to_owned(), value.into_owned()))
}

fn game(
    line: usize,
    tags: &[(String, String)],
    movetext: &str,
) -> Result<RunnerGame, RunnerPgnError> {
    let at = |problem| RunnerPgnError { line, problem };
    let get = |key: &str| {
        tags.iter()
            .find(|(k, _)| k == key)
            .map(|(_, value)| value.clone())
    };
    let need = |key: &'static str| get(key).ok_or(at(RunnerPgnProblem::MissingTag(key)));
    let fen = get("FEN");
    if let Some(fen) = &fen {
        crate::protocol::game::parse_fen(fen).map_err(|error| {
            at(RunnerPgnProblem::Fen {
                fen: fen.clone(),
                error,
            })
        })?;
    }
    let round = need("Round")?;
    let round = round
        .parse()
        .map_err(|_| at(RunnerPgnProblem::RoundNotANumber(round)))?;
    let (plies, last_comment) = movetext_plies(movetext);
    let reason = last_comment
        .as_deref()
        .map(|comment| match comment.split_once(", ") {
            Some((_, reason)) => reason.trim(),
            // A comment of its own (`{Black mates}`), not a move's `{+0.31/7 0.01s}`.
            None if !comment.contains('/') => comment.trim(),
            None => "",
        })
        .unwrap_or_default()
        .to_owned();
    Ok(RunnerGame {
        round,
        white: need("White")?,
        black: need("Black")?,
        result: need("Result")?,
        line,
        fen,
        termination: get("Termination").unwrap_or_else(|| "normal".to_owned()),
        reason,
        plies,
    })
}

/// The moves of a movetext (move numbers, comments, NAGs, variations and the result left
/// out) and its last comment.
fn movetext_plies(movetext: &str) -> (usize, Option<String>) {
    let mut plies = 0;
    let mut last_comment = None;
    let mut rest = movetext;
    let mut depth = 0;
    while let Some(c) = rest.chars().next() {
        if c == '{' {
            let end = rest.find('}').unwrap_or(rest.len());
            last_comment = Some(rest[1..end].to_owned());
            rest = &rest[(end + 1).min(rest.len())..];
            continue;
        }
        if c.is_whitespace() {
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '{' || c == '(' || c == ')')
            .unwrap_or(rest.len())
            .max(c.len_utf8());
        let word = &rest[..end];
        rest = &rest[end..];
        match word {
            "(" => depth += 1,
            ")" => depth -= 1,
            _ if depth > 0 => {}
            "1-0" | "0-1" | "1/2-1/2" | "*" => {}
            _ if word.starts_with('$') => {}
            _ => {
                // `12.` or `12...` before a move, possibly glued to it (`12.Nf3`).
                let san = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                if !san.is_empty() {
                    plies += 1;
                }
            }
        }
    }
    (plies, last_comment)
}

#[cfg(test)]
#[path = "pgn_tests.rs"]
mod tests;
