//! The tally of a match: finished games in ([`results`]), the score and its statistics
//! ([`stats`]: Elo, LOS, pentanomial counts), the sequential probability ratio test
//! ([`sprt`]) and what the user sees ([`summary`]: progress, the `--json` summary, the
//! table). Pure apart from printing: no engine, no clock.
//!
//! Must not import the engines or game wings, `proxy`, `tournaments` or `cli`.

pub mod results;
pub mod sprt;
pub mod stats;
pub mod summary;
