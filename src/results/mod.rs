//! Which starts favour White: finished games grouped by start (`SP n` or a double-FRC
//! pair), each start's W/D/L from White's side with White's score, its 95% Wilson interval,
//! the draw rate and Elo ([`tally`], [`report`], [`by_engine`]), the games counted and how
//! they are grouped (Elo, time control, rated; per White's or Black's arrangement:
//! [`filter`]), whether the starts differ beyond noise ([`stats`]: Pearson's chi-square
//! test of homogeneity, Bonferroni-corrected intervals), the picture of the 960 and the HTML page holding it ([`picture`]), and the
//! starts of a results JSON inside a score window for `sp960 book --from-results`
//! ([`book_filter`]).
//!
//! Sans-IO: fed the verdicts of the one PGN game checker ([`crate::records::game`], streamed
//! by [`crate::records::game_stream`]), it returns tables and text; reading the games and
//! writing the files is the CLI's (`src/cli/results.rs`).
//!
//! Must not import any room but `records` and `starts` (and the shared `exit_code`).

pub mod book_filter;
pub mod by_engine;
pub mod filter;
pub mod picture;
pub mod report;
pub mod stats;
pub mod tally;
