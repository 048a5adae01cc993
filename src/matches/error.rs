//! Why a match could not be played ([`MatchError`]) and the exit code each reason gives.

use std::io;

use thiserror::Error;

use crate::launch::spec::NodeLimitError;
use crate::matches::config;
use crate::matches::game::player::StartError;

/// Why a match could not be played.
#[derive(Debug, Error)]
pub enum MatchError {
    /// An engine's program does not exist.
    #[error("engine {engine}: '{program}' not found")]
    EngineNotFound {
        /// Which engine (1-based).
        engine: usize,
        /// The program as given.
        program: String,
    },
    /// An engine does not start or does not complete its handshake.
    #[error("engine {engine}: {reason}")]
    Engine {
        /// Which engine (1-based).
        engine: usize,
        /// What is wrong.
        #[source]
        reason: StartError,
    },
    /// A node limit for an engine that speaks XBoard, which has none.
    #[error(transparent)]
    Limits(#[from] NodeLimitError),
    /// The PGN file cannot be written.
    #[error("PGN file '{path}': {source}")]
    Pgn {
        /// The file.
        path: String,
        /// The error.
        source: io::Error,
    },
    /// Another `sp960 match` writes this PGN (it holds the PGN's lock file).
    #[error(
        "PGN file '{pgn}' is being written by another sp960 match ({}, holding '{lock}'): wait for it to end, or give another --pgn",
        pid.map_or_else(|| "its process could not be read".to_owned(), |pid| format!("process {pid}"))
    )]
    Locked {
        /// The PGN file.
        pgn: String,
        /// Its lock file.
        lock: String,
        /// The process that holds it, where the system lets its id be read.
        pid: Option<u32>,
    },
    /// A thread could not be started.
    #[error("cannot start a worker thread: {0}")]
    Thread(io::Error),
    /// The starts asked for are invalid (a bad SPEC): invalid data, as in `sp960 fen`.
    #[error(transparent)]
    Starts(#[from] crate::starts::request::BookError),
    /// A start that is no position (a usage error here, not invalid data).
    #[error(transparent)]
    Start(#[from] crate::starts::start::InvalidStart),
    /// A malformed `--engine`, or a key `sp960 match` does not take.
    #[error(transparent)]
    EngineSpec(#[from] crate::launch::spec::EngineSpecError),
    /// Bad arguments (engine count, values out of range).
    #[error("{0}")]
    Usage(String),
    /// An opening of `--openings` is bad (or the file cannot be read): invalid data.
    #[error("--openings: {0}")]
    Openings(#[from] crate::books::openings::OpeningError),
    /// The `--log` directory cannot be made.
    #[error("--log '{path}': {source}")]
    Log {
        /// The directory.
        path: String,
        /// The error.
        source: io::Error,
    },
    /// Ctrl-C: the finished games are saved (the table was printed).
    #[error("interrupted: {games} games saved to {pgn}")]
    Interrupted {
        /// Games written to the PGN file.
        games: usize,
        /// The PGN file.
        pgn: String,
    },
    /// The summary cannot be written.
    #[error("cannot write the summary: {0}")]
    Output(io::Error),
    /// `--resume` cannot continue the match.
    #[error(transparent)]
    Resume(#[from] config::resume::ResumeError),
}

impl MatchError {
    /// The process exit code: invalid SPECs 1, usage errors 2, engines that are missing
    /// 127 or unusable 3.
    pub fn exit_code(&self) -> u8 {
        match self {
            MatchError::EngineNotFound { .. } => crate::exit_code::ENGINE_NOT_FOUND,
            MatchError::Engine { .. } => crate::exit_code::ENGINE_UNSUITABLE,
            MatchError::Starts(crate::starts::request::BookError::Empty) => crate::exit_code::USAGE,
            MatchError::Starts(_) | MatchError::Openings(_) => crate::exit_code::INVALID_DATA,
            MatchError::Interrupted { .. } => crate::exit_code::INTERRUPTED,
            _ => crate::exit_code::USAGE,
        }
    }
}
