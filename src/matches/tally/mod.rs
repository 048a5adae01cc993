//! The tally of a match: what is counted ([`counts`]: a game's outcome, W/D/L, game pairs
//! in fastchess's classes), finished games in ([`results`]: per engine, per matchup, the
//! game pairs), the statistics of the counts ([`stats`]: Elo, LOS, pentanomial), the
//! sequential probability ratio test ([`sprt`]: its LLR from the counts, typed decisions)
//! and what the user sees ([`summary`]: progress, the table, and the [`summary::Summary`]
//! of `--json`, built in one place, [`summary::Summary::new`], for the built-in runner and
//! for `--runner` alike). Pure apart from printing: no engine, no clock.
//!
//! Imports within the wing run one way, in this order: each file imports only files
//! before it (`counts`, `sprt`, `stats`, `results`, `summary`). Must not import the
//! engines, game or config wings, `proxy`, `tournaments` or `cli`.

pub mod counts;
pub mod results;
pub mod sprt;
pub mod stats;
pub mod summary;
