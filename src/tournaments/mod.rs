//! Books and tournaments: opening books of starts for match runners ([`book`]), and the
//! cutechess-cli, fastchess or xboard command line that plays them, with each engine
//! wrapped in `sp960 proxy` where the tool needs it ([`tournament`]: the decisions, and one
//! runner command built from them, [`error`] why none could be), each runner's words for
//! that command (`runners`: one file per runner), Cute Chess GUI's engines.json with a
//! launcher per engine (`cutechess_gui`), written for the user's shell ([`shell`]); a match handed to a real runner ([`handoff`]);
//! books of openings generated with an engine ([`generate`]); what a book holds ([`stats`])
//! and the files that serve it to OpenBench and fishtest ([`package`]).
//! What is known about particular engines is `protocol::quirks`'s table; [`tournament`]
//! decides from it.
//!
//! Must not import `cli`, `proxy` or `engine`; uses `matches`, `clients`, `launch`,
//! `records`, `protocol`, `starts` and `os`.

pub(crate) mod cutechess_gui_files;
pub mod error;
pub mod handoff;
pub(crate) mod runners;
pub mod shell;
pub mod tournament;
