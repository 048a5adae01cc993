//! `sp960 check ENGINE-SPEC`: is this engine ready for Chess960, and if not, in which
//! position does it first go wrong? Three groups of checks, each case a row: the
//! protocol (`UCI_Chess960` declared as a check with `default false`; XBoard's `setboard`
//! and `fischerandom`; the castling notation written and accepted; Shredder-FEN and X-FEN
//! castling fields read alike), move generation (the engine's perft against shakmaty's
//! over the built-in castling cases, the 960 starts, double-FRC pairs and positions from
//! seeded random play, descending on a difference to one position and one move), and
//! play (each castling made, then a search whose reply must be legal; the castling move
//! offered alone with `searchmoves`; the traps searched). An engine whose perft is not
//! known by its name is probed for one first. Then a verdict and its exit status.
//!
//! - sans-IO, unit-tested without processes: [`cases`] (the castling cases, each with its
//!   reason, proven by tests), [`traps`] (positions where a castling would mate, illegal
//!   or the only mate, for the play group; proven by tests), [`positions`] (what the perft group counts from),
//!   [`reference`] (shakmaty's perft and divide; its counts of the default run kept:
//!   [`start_counts`] for the 960 starts, [`default_counts`] for the rest), [`descent`]
//!   (a difference down to one
//!   position and one move), [`perft`] (`sp960 perft`: the counts, the divide and the
//!   EPD perft suite, counted on rayon's threads), [`report`] (rows, verdict, exit status, table, JSON);
//! - the I/O shell: [`engine`] (one engine driven through the shared engine driver,
//!   `clients::driver`, with perft asked in raw lines beside the client, read by
//!   `protocol::perft`) and [`run`] (the groups in order, the restart after a crash or
//!   a hang, the rerun through `sp960 proxy`), and [`script`] (`--perft-script`: a move
//!   generator without an engine, run as perftree runs it, one process per count; its
//!   output read sans-IO).
//!
//! Must not import `proxy`, `engine`, `tournaments` or `cli`: the proxy is run as a
//! program (`sp960 proxy -- ENGINE`), as users run it. It imports `clients` (the engine
//! driver), `launch`, `protocol`, `starts`, `os` and `exit_code`.

pub mod cases;
pub mod descent;
pub mod engine;
pub mod groups;
pub mod ids;
pub mod kept;
pub mod perft;
pub mod positions;
pub mod reference;
pub mod report;
pub mod run;
pub mod script;
pub mod traps;
