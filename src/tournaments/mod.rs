//! Tournaments: the cutechess-cli, fastchess or xboard command line that plays a book of
//! starts, with each engine wrapped in `sp960 proxy` where the tool needs it
//! ([`tournament`]: the decisions, and one runner command built from them, [`error`] why
//! none could be), each runner's words for that command (`runners`: one file per runner),
//! Cute Chess GUI's engines.json with a launcher per engine (`cutechess_gui_files`), written
//! for the user's shell ([`shell`]); a match handed to a real runner ([`handoff`]). The
//! books themselves (starts, engine-made openings, their statistics and packaging) are the
//! `books` room's. What is known about particular engines is `protocol::quirks`'s table;
//! [`tournament`] decides from it.
//!
//! Must not import `cli`, `proxy` or `engine`; uses `matches`, `books`, `clients`, `launch`,
//! `records`, `protocol`, `starts` and `os`.

pub(crate) mod cutechess_gui_files;
pub mod error;
pub mod handoff;
pub(crate) mod runners;
pub mod shell;
pub mod tournament;
