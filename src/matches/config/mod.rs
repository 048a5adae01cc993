//! The match as the user asks for it and as it is played: the request and its resolution
//! into engines, starts and limits ([`request`]), `--openings` books ([`openings`], checked
//! up front) and `--resume` ([`resume`]: the state file and the PGN read back).
//!
//! Must not import the engines or game wings, `proxy`, `tournaments` or `cli`.

pub mod openings;
pub mod request;
pub mod resume;
