//! Finished games grouped by start, sans-IO: fed each game's verdict from the one PGN
//! checker ([`crate::records::game`]) with the input it came from, it keeps White's wins,
//! draws and losses per start, each engine's games as White and as Black per start, and
//! the games it cannot use, counted by why, with the first few named.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::records::game::{GameVerdict, Severity};
use crate::results::filter::{By, GameFilter};
use crate::results::stats::Wdl;
use crate::starts::start::Start;

/// Why a game is not counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SkipReason {
    /// Standard chess: no Chess960 Variant tag and standard castling.
    StandardChess,
    /// A Chess960 game from a position that is no untouched start (after book moves, no
    /// castling rights, ...).
    NotAStart,
    /// A move or tag that does not replay.
    DoesNotReplay,
    /// No result: `*` or none.
    Unfinished,
    /// A player's Elo under `--min-elo`.
    BelowMinElo,
    /// A missing or `?` Elo, with `--min-elo`.
    NoElo,
    /// A time control not of a class `--time-control` asks (or none).
    OtherTimeControl,
    /// An `Event` that does not say Rated, with `--rated`.
    NotRated,
}

impl SkipReason {
    /// For people: "standard chess", ...
    pub fn words(self) -> &'static str {
        match self {
            SkipReason::StandardChess => "standard chess",
            SkipReason::NotAStart => "not from a Chess960 start",
            SkipReason::DoesNotReplay => "does not replay",
            SkipReason::Unfinished => "unfinished",
            SkipReason::BelowMinElo => "below --min-elo",
            SkipReason::NoElo => "no Elo for --min-elo",
            SkipReason::OtherTimeControl => "outside --time-control",
            SkipReason::NotRated => "not rated",
        }
    }
}

/// A game not counted: where it is, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The input it was read from.
    pub path: String,
    /// Its line there (of the finding, or of the game).
    pub line: usize,
    /// Which kind of reason.
    pub reason: SkipReason,
    /// What was found, for people.
    pub message: String,
}

/// How many skipped games of each reason are kept as examples.
pub const EXAMPLES_KEPT: usize = 5;

/// One engine's games from one start: as White and as Black, each from that engine's side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EngineAtStart {
    /// Its games as White.
    pub as_white: Wdl,
    /// Its games as Black, from Black's side (a win is Black's).
    pub as_black: Wdl,
}

/// The counted and the skipped games.
#[derive(Debug, Default)]
pub struct StartTally {
    /// White's results per start.
    pub starts: BTreeMap<Start, Wdl>,
    /// Per engine name (the `White`/`Black` tag, `?` when missing) and start.
    pub engines: BTreeMap<(String, Start), EngineAtStart>,
    /// The pairs of names that met, White first.
    pub pairs: BTreeSet<(String, String)>,
    /// Skipped games per reason.
    pub skipped: BTreeMap<SkipReason, u64>,
    /// The first [`EXAMPLES_KEPT`] skipped games of each reason.
    pub examples: Vec<Skipped>,
    /// The games counted (`--min-elo`, `--time-control`, `--rated`); default: all.
    pub filter: GameFilter,
    /// How they are grouped (`--by`); default: per start.
    pub by: By,
}

impl StartTally {
    /// Counts one game read from `path`; a game not counted is returned, to be told.
    pub fn add(&mut self, path: &str, game: &GameVerdict) -> Option<Skipped> {
        let counted = classify(game).and_then(|(start, result)| {
            self.filter
                .check(&game.players, game.line)
                .map_err(|(reason, message)| (game.line, reason, message))?;
            Ok((self.by.group(start), result))
        });
        match counted {
            Ok((start, result)) => {
                self.starts.entry(start).or_default().add(result);
                let name = |tag: &Option<String>| tag.clone().unwrap_or_else(|| "?".to_owned());
                let (white, black) = (name(&game.players.white), name(&game.players.black));
                self.engines
                    .entry((white.clone(), start))
                    .or_default()
                    .as_white
                    .add(result);
                self.engines
                    .entry((black.clone(), start))
                    .or_default()
                    .as_black
                    .add(result.flipped());
                if !self.pairs.contains(&(white.clone(), black.clone())) {
                    self.pairs.insert((white, black));
                }
                None
            }
            Err((line, reason, message)) => {
                let skipped = Skipped {
                    path: path.to_owned(),
                    line,
                    reason,
                    message,
                };
                let count = self.skipped.entry(reason).or_default();
                *count += 1;
                if *count <= EXAMPLES_KEPT as u64 {
                    self.examples.push(skipped.clone());
                }
                Some(skipped)
            }
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.starts.values().map(Wdl::games).sum()
    }
}

/// A game's start and White's result, or where and why it is not counted.
fn classify(game: &GameVerdict) -> Result<(Start, Wdl), (usize, SkipReason, String)> {
    if let Some(error) = game.findings.iter().find(|f| f.severity == Severity::Error) {
        let reason = if error.kind.is_not_a_start() {
            SkipReason::NotAStart
        } else {
            SkipReason::DoesNotReplay
        };
        return Err((error.line, reason, error.message.clone()));
    }
    let start = match game.start {
        Some(start) if game.chess960 => start,
        _ => {
            let message = format!(
                "game at line {}: standard chess (no Chess960 Variant tag, standard castling)",
                game.line
            );
            return Err((game.line, SkipReason::StandardChess, message));
        }
    };
    let result = match game.result.as_deref().map(str::trim) {
        Some("1-0") => Wdl {
            wins: 1,
            ..Wdl::default()
        },
        Some("0-1") => Wdl {
            losses: 1,
            ..Wdl::default()
        },
        Some("1/2-1/2") => Wdl {
            draws: 1,
            ..Wdl::default()
        },
        other => {
            let message = format!(
                "game at line {}: no result (Result tag {})",
                game.line,
                other.map_or("missing".to_owned(), |r| format!("`{r}`"))
            );
            return Err((game.line, SkipReason::Unfinished, message));
        }
    };
    Ok((start, result))
}
