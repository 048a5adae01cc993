//! FEN/EPD/PGN records and the fixture files that hold them: one FEN/EPD record parsed and
//! checked ([`record`], with [`legality`] saying why a position is illegal and [`epd_ops`]
//! whether its EPD operations' moves and perft counts are right), the one PGN
//! reader ([`pgn`]: games streamed to a visitor with the line and column of each thing,
//! read by the match runner's `--openings` and `--resume`, by the book generator's
//! `--resume` and by the read-back of a real runner's PGN in `tournaments`) and its one
//! tag pair rule ([`pgn_tag`], also read line by line by `validate` and `normalize`), a
//! PGN game checked as a game ([`game`]: its start from its tags by the one rule of
//! [`game_start`], which every reader of games uses, every move replayed) and
//! rewritten for the tool that reads it ([`game_rewrite`]), a PGN stream checked game by
//! game with bounded memory on all cores ([`game_stream`]: `validate` and `sp960 results`),
//! such files streamed in blocks of lines ([`line_blocks`]), the paths and directories to
//! read ([`inputs`]), the one place an input is opened, compressed or archived, told by its
//! first bytes ([`open`]; the formats, their names and their encoders: [`compression`]), and the two commands
//! over whole files: [`validate`] (compiler-style diagnostics; PGN game by game) and [`normalize`]
//! (rewrite records, byte for byte elsewhere; a zip archive in place through `zip_rewrite`).
//!
//! Must not import any room but `starts` (and the shared `exit_code`).

pub mod check;
pub mod compression;
pub mod epd_ops;
pub mod game;
pub mod game_rewrite;
pub mod game_start;
pub mod game_stream;
pub(crate) mod illegal_move;
pub mod inputs;
pub mod legality;
pub mod line_blocks;
pub mod normalize;
pub mod open;
pub mod pgn;
pub(crate) mod pgn_tag;
pub mod record;
pub mod validate;
pub(crate) mod zip_rewrite;
