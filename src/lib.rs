//! sp960: Chess960 (Fischer Random) start positions between chess GUIs and engines.
//!
//! The rooms, one folder each (ARCHITECTURE.md walks through them):
//! - [`starts`]: SP numbers, arrangements, starts, FENs, castling notation, identify and
//!   explain;
//! - `roll`: dice and coin methods into a start, with their exact fairness proofs
//!   (`sp960 roll`, `random --method`);
//! - [`records`]: FEN/EPD/PGN records and fixture files, `validate` and `normalize`;
//! - `results`: which starts favour White, from any Chess960 games (`sp960 results`);
//! - [`protocol`]: the UCI and XBoard vocabulary the proxy, the match runner and the
//!   built-in engine share;
//! - `launch`: engines as users name them and as processes (`--engine` specs, time
//!   controls, the program spawned, its lines with deadlines, `--log`), the proxy's own
//!   command line typed once, and launchers (copies of sp960 that run the proxy);
//! - [`proxy`]: `sp960 proxy`, its sans-IO sessions and the small I/O shell;
//! - `clients`: the engine clients (UCI, XBoard, protocol detection) and the one engine
//!   driver of every role that drives engines (match runner, check, book generator);
//! - [`matches`](mod@matches): `sp960 match`, the runner (engine specs, clocks, referee, PGN, stats);
//! - [`engine`]: the built-in engine, `sp960 engine`;
//! - `books`: opening books of starts and engine-made books, the `--openings` reader,
//!   their statistics and packaging;
//! - [`tournaments`]: the match runners' command lines (and Cute Chess GUI's files);
//! - `os`: the OS layer, the only room that knows the platform (processes, signals,
//!   Ctrl-C, pipes, CPU time);
//! - `check`: `sp960 check`, an engine's Chess960 move generation, castling and
//!   notation against shakmaty;
//! - [`cli`]: the `sp960` command line: clap arguments, help texts, errors to exit codes.

// Every room but the OS layer is safe Rust: `unsafe` is the OS layer's alone (system calls),
// and the compiler refuses it anywhere else (tests/layers.rs keeps these attributes).
#[forbid(unsafe_code)]
pub(crate) mod books;
#[forbid(unsafe_code)]
pub(crate) mod check;
#[forbid(unsafe_code)]
pub(crate) mod cli;
#[forbid(unsafe_code)]
pub(crate) mod clients;
#[forbid(unsafe_code)]
pub(crate) mod engine;
#[forbid(unsafe_code)]
pub(crate) mod launch;
#[forbid(unsafe_code)]
pub(crate) mod matches;
pub(crate) mod os;
#[forbid(unsafe_code)]
pub(crate) mod protocol;
#[forbid(unsafe_code)]
pub(crate) mod proxy;
#[forbid(unsafe_code)]
pub(crate) mod records;
#[forbid(unsafe_code)]
pub(crate) mod results;
#[forbid(unsafe_code)]
pub(crate) mod roll;
#[forbid(unsafe_code)]
pub(crate) mod starts;
#[forbid(unsafe_code)]
pub(crate) mod tournaments;

// The public face: what the `sp960` binary, the integration tests, the fuzzers and the
// examples use. The rooms themselves are the crate's own (their items are reached through
// these names only).
/// A book of starts as `sp960 book` writes it.
pub use books::book::BookRequest;
/// The command line (`main.rs`).
pub use cli::{Cli, run};
/// Positions and moves as the protocols carry them.
pub use protocol::{
    game::{parse_fen, shared_castling_files},
    xboard::parse_xboard_move,
};
/// The proxy's sessions, fed lines without processes (the proxy fuzzer).
pub use proxy::{
    EngineExit, ProcessEnding, Relay,
    uci::{UciConfig, UciSession},
    xboard::{XboardConfig, XboardSession},
};
/// FEN/EPD records checked one line at a time (the records fuzzer); the one PGN reader
/// (its benchmark, beside the pgn-reader crate) and PGN games checked as games (the game
/// fuzzer).
pub use records::{
    check::{CheckOptions, OperationChecks},
    compression::Compression,
    game::{GameVerdict, check_games},
    pgn,
    record::{Line, Verdict, check_line, validate_line},
};
/// Starts, their numbers, FENs and castling notation.
pub use starts::{
    castling::{CastlingDialect, move_text, parse_move},
    identify::identify,
    notation::{CastlingNotation, epd_fields, position_fen, start_fen},
    numbering::StartPosition,
    start::{RandomStarts, Start, parse_spec},
};

/// The unit tests' scripted child processes: the unit-test executable run again as one of
/// its own tests, so that no unit test starts an external program.
#[cfg(test)]
mod test_child;

/// Process exit codes shared by every subcommand (documented in README.md).
pub mod exit_code;
