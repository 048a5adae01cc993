//! Starts and their numbers: Scharnagl's SP 0–959 and the back-rank arrangements
//! ([`numbering`]), a start, classic or double-FRC, and the SPEC lists users type
//! ([`start`]), FEN and EPD text with either castling notation ([`notation`]), castling
//! moves in both coordinate dialects ([`castling`]), which start a FEN or arrangement is
//! ([`identify`]), how the literature derives a number ([`explain`]), the starts a book or
//! match is asked to play ([`request`]), and the `fen`, `identify` and `random` commands
//! over them ([`commands`]). Dice and coins into a start are the room above, `roll`.
//!
//! Everything here is pure chess arithmetic over shakmaty; no other room is imported.

pub mod castling;
pub mod commands;
pub mod explain;
pub mod identify;
pub mod notation;
pub mod numbering;
pub mod request;
pub mod start;
pub mod variant;
