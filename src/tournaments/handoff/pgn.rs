//! The runner's PGN read back through the one PGN reader ([`crate::records::pgn`]): each
//! game's tags the summary needs, its plies and the end in words ([`read_games`]), and why a game cannot be read or placed in the match
//! ([`RunnerPgnError`]: the line and the problem).

use std::ops::ControlFlow;

use shakmaty::san::SanPlus;
use thiserror::Error;

use crate::records::game_start::{UnknownVariant, tag_start};
use crate::records::pgn::{At, Reader, TagPairs, TagValue, Visitor};

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
    /// A `Variant` tag that names neither chess nor Chess960.
    #[error(transparent)]
    Variant(#[from] UnknownVariant),
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

/// Reads every game of `text` (a runner's PGN) through the one PGN reader
/// ([`crate::records::pgn`]); an error names the line and the reason.
pub fn read_games(text: &str) -> Result<Vec<RunnerGame>, RunnerPgnError> {
    let mut reader = Reader::new(text.as_bytes());
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut Games) {
        games.push(game?);
    }
    Ok(games)
}

/// A game's movetext as it is read: its tags, plies outside variations and last comment.
struct Movetext {
    tags: TagPairs,
    plies: usize,
    last_comment: Option<String>,
}

/// The visitor that makes [`RunnerGame`]s: a move, SAN or not, is a ply; variations are
/// skipped (the reader's default), NAGs and the result are no plies.
struct Games;

impl Visitor for Games {
    type Tags = TagPairs;
    type Movetext = Movetext;
    type Output = Result<RunnerGame, RunnerPgnError>;

    fn begin_tags(&mut self, at: At) -> ControlFlow<Self::Output, TagPairs> {
        ControlFlow::Continue(TagPairs::starting(at))
    }

    fn tag(
        &mut self,
        tags: &mut TagPairs,
        name: &[u8],
        value: TagValue<'_>,
        _at: At,
    ) -> ControlFlow<Self::Output> {
        tags.push(name, value);
        ControlFlow::Continue(())
    }

    fn malformed_tag(
        &mut self,
        _tags: &mut TagPairs,
        line: &[u8],
        at: At,
    ) -> ControlFlow<Self::Output> {
        ControlFlow::Break(Err(RunnerPgnError {
            line: at.line,
            problem: RunnerPgnProblem::MalformedTag(String::from_utf8_lossy(line).into_owned()),
        }))
    }

    fn begin_movetext(&mut self, tags: TagPairs, _at: At) -> ControlFlow<Self::Output, Movetext> {
        ControlFlow::Continue(Movetext {
            tags,
            plies: 0,
            last_comment: None,
        })
    }

    fn san(
        &mut self,
        movetext: &mut Movetext,
        _san: SanPlus,
        _token: &[u8],
        _at: At,
    ) -> ControlFlow<Self::Output> {
        movetext.plies += 1;
        ControlFlow::Continue(())
    }

    fn not_san(
        &mut self,
        movetext: &mut Movetext,
        _token: &[u8],
        _at: At,
    ) -> ControlFlow<Self::Output> {
        movetext.plies += 1;
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        movetext: &mut Movetext,
        comment: &[u8],
        _at: At,
    ) -> ControlFlow<Self::Output> {
        movetext.last_comment = Some(String::from_utf8_lossy(comment).into_owned());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Movetext) -> Self::Output {
        game(
            movetext.tags.line,
            &movetext.tags.pairs,
            movetext.plies,
            movetext.last_comment,
        )
    }
}

fn game(
    line: usize,
    tags: &[(String, String)],
    plies: usize,
    last_comment: Option<String>,
) -> Result<RunnerGame, RunnerPgnError> {
    let at = |problem| RunnerPgnError { line, problem };
    let get = |key: &str| {
        tags.iter()
            .find(|(k, _)| k == key)
            .map(|(_, value)| value.clone())
    };
    let need = |key: &'static str| get(key).ok_or(at(RunnerPgnProblem::MissingTag(key)));
    // The start read by the one rule of `records::game_start`.
    let start = tag_start(
        tags.iter()
            .map(|(name, value)| (name.as_str(), value.as_str())),
    )
    .map_err(|unknown| at(unknown.into()))?;
    let fen = start.fen.map(str::to_owned);
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

#[cfg(test)]
#[path = "pgn_tests.rs"]
mod tests;
