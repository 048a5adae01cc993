//! Why no tournament command could be written ([`TournamentError`]), shared by the plan
//! (`tournament.rs`) and the runners' dialects (`runners/`).

use thiserror::Error;

use crate::books::book::BookError;
use crate::launch::spec::EngineSpecError;
use crate::starts::start::InvalidStart;

/// Why no tournament command could be written.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TournamentError {
    /// A malformed `--engine`, or a key the tool does not take.
    #[error(transparent)]
    Engine(#[from] EngineSpecError),
    /// An engine that cannot play Chess960 in this tool, wrapped or not.
    #[error("engine '{name}' cannot play Chess960 under {tool}: {reason}")]
    CannotPlay {
        /// The engine's name.
        name: String,
        /// The tool.
        tool: &'static str,
        /// Why, and what would happen.
        reason: String,
    },
    /// A base time xboard cannot take.
    #[error("time control '{0}': xboard takes whole seconds of base time")]
    XboardTime(String),
    /// A runner that cannot play without a clock (`sp960 match` without `--tc`).
    #[error("{0} needs a time control")]
    NoClock(&'static str),
    /// Too few or too many engines for the tool.
    #[error("{0}")]
    EngineCount(String),
    /// The starts asked for are invalid.
    #[error(transparent)]
    Starts(#[from] BookError),
    /// A start shakmaty refused (a bug).
    #[error(transparent)]
    Invalid(#[from] InvalidStart),
}

impl TournamentError {
    /// The exit code (README's table): a usage error 2, bad starts 1, an engine that
    /// cannot play in the tool 3.
    pub fn exit_code(&self) -> u8 {
        use crate::exit_code::{ENGINE_UNSUITABLE, INVALID_DATA, USAGE};
        match self {
            TournamentError::CannotPlay { .. } => ENGINE_UNSUITABLE,
            TournamentError::Starts(BookError::Empty) => USAGE,
            TournamentError::Starts(_) | TournamentError::Invalid(_) => INVALID_DATA,
            TournamentError::Engine(_)
            | TournamentError::XboardTime(_)
            | TournamentError::NoClock(_)
            | TournamentError::EngineCount(_) => USAGE,
        }
    }
}
