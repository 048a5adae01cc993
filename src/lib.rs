//! sp960: Chess960 (Fischer Random) start positions between chess GUIs and engines.
//!
//! One module per concept: [`numbering`] (Scharnagl's SP numbers and back-rank
//! arrangements), [`start`] (a start, classic or double-FRC, and the SPEC lists users
//! type), [`notation`] (FEN/EPD text and castling notation), [`identify`] (which start a
//! FEN or arrangement is), [`engine`] (the built-in reference engine, `sp960 engine`),
//! [`book`] and [`tournament`] (opening books and match-runner command lines), [`record`] (one line of a FEN/EPD fixture file, parsed and
//! checked; [`legality`] says why a position is illegal), [`records`] (such files streamed in blocks of lines), [`inputs`] (paths and
//! directories to read), [`validate`] and [`normalize`] (the commands over whole files).

pub mod book;
pub mod engine;
pub mod identify;
pub mod inputs;
pub mod legality;
pub mod normalize;
pub mod notation;
pub mod numbering;
pub mod record;
pub mod records;
pub mod start;
pub mod tournament;
pub mod validate;

/// Process exit codes shared by every subcommand (documented in README.md).
pub mod exit_code {
    /// Everything went well.
    pub const SUCCESS: u8 = 0;
    /// Invalid chess data: a bad SP, arrangement or FEN.
    pub const INVALID_DATA: u8 = 1;
    /// A usage error: bad arguments or options (clap uses this code too).
    pub const USAGE: u8 = 2;
}
