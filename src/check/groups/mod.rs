//! The groups of `sp960 check`, a file each, run in this order by [`super::run`]:
//! [`protocol`] (what the engine declares, the perft probe), [`notation`] (castling written
//! and accepted, both FEN castling fields), [`movegen`] (perft against shakmaty, the
//! descent on a difference) and [`play`] (castlings made, the traps, `searchmoves`). Each
//! takes the engine and gives it back (started afresh after a hang or a crash), pushing
//! its rows, each a typed [`CheckId`](super::ids::CheckId) and its outcome.

pub mod movegen;
pub mod notation;
pub mod play;
pub mod protocol;

use crate::check::engine::{CheckEngine, EngineFailure};
use crate::check::report::Status;
use crate::check::run::CheckError;

/// A row's outcome: status, what came back, why.
pub type RowOutcome = (Status, String, String);

/// The engine started afresh after what it did (`the engine {what}`), or why it could not
/// be.
pub fn restarted(
    engine: CheckEngine,
    what: impl std::fmt::Display,
) -> Result<CheckEngine, CheckError> {
    engine.restart().map_err(|source| CheckError::Restart {
        what: what.to_string(),
        source,
    })
}

/// The engine after a failed question: started afresh when it hung, exited or gave an
/// unreadable perft reply (whose rest may still come); as it is after a wrong answer.
pub fn failed_engine(
    engine: CheckEngine,
    failure: &EngineFailure,
) -> Result<CheckEngine, CheckError> {
    match failure {
        EngineFailure::Timeout(_) | EngineFailure::Closed(_) | EngineFailure::Perft(_) => {
            restarted(engine, format_args!("failed ({failure})"))
        }
        _ => Ok(engine),
    }
}

/// A failed question's outcome: the failure, and `why`; the engine is started afresh
/// when it hung or died ([`failed_engine`]).
pub fn failed_row(
    engine: CheckEngine,
    failure: &EngineFailure,
    why: String,
) -> Result<(CheckEngine, RowOutcome), CheckError> {
    let engine = failed_engine(engine, failure)?;
    Ok((engine, (Status::Fail, failure.to_string(), why)))
}
