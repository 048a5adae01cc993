//! sp960: Chess960 (Fischer Random) start positions between chess GUIs and engines.
//!
//! One module per concept: [`numbering`] (Scharnagl's SP numbers and back-rank
//! arrangements), [`start`] (a start, classic or double-FRC, and the SPEC lists users
//! type), [`notation`] (FEN/EPD text and castling notation), [`identify`] (which start a
//! FEN or arrangement is), [`engine`] (the built-in reference engine, `sp960 engine`),
//! [`book`] and [`tournament`] (opening books and match-runner command lines), [`record`] (one line of a FEN/EPD fixture file, parsed and
//! checked; [`legality`] says why a position is illegal), [`records`] (such files streamed in blocks of lines), [`inputs`] (paths and
//! directories to read), [`validate`] and [`normalize`] (the commands over whole files),
//! [`castling`] (castling moves in both coordinate dialects), [`game`] (a GUI's position
//! and moves, checked), [`proxy`] (the protocol-neutral proxy: shell, session trait, start
//! selection, protocol detection), [`uci`] (the UCI proxy session) and [`xboard`] (the
//! XBoard proxy session); [`explain`] (how the literature derives a start's number) and
//! [`roll`] (dice rolls and coin tosses into a start, and the fairness proofs).

pub mod book;
pub mod castling;
pub mod commands;
pub mod engine;
pub mod engine_spec;
pub mod explain;
pub mod game;
pub mod identify;
pub mod inputs;
pub mod legality;
pub mod normalize;
pub mod notation;
pub mod numbering;
pub mod proxy;
pub mod record;
pub mod records;
pub mod roll;
pub mod runner;
pub mod start;
pub mod time_control;
pub mod tournament;
pub mod uci;
pub mod validate;
pub mod xboard;

/// Process exit codes shared by every subcommand (documented in README.md).
pub mod exit_code {
    /// Everything went well.
    pub const SUCCESS: u8 = 0;
    /// Invalid chess data: a bad SP, arrangement or FEN.
    pub const INVALID_DATA: u8 = 1;
    /// A usage error: bad arguments or options (clap uses this code too).
    pub const USAGE: u8 = 2;
    /// proxy: the engine cannot do what was asked (`--require-chess960` and no
    /// `UCI_Chess960`).
    pub const ENGINE_UNSUITABLE: u8 = 3;
    /// proxy: the engine exited with status 0 without being asked to quit. (Other
    /// unasked exits give the engine's own status, or 128 + signal number.)
    pub const ENGINE_EXITED: u8 = 4;
    /// proxy: the engine program exists but cannot be executed (as shells report it).
    pub const ENGINE_NOT_EXECUTABLE: u8 = 126;
    /// proxy: the engine program was not found (as shells report it).
    pub const ENGINE_NOT_FOUND: u8 = 127;
}
