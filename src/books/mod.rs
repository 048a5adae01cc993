//! Books: opening books of starts for match runners ([`book`]: EPD, PGN, FEN, and the
//! file-name warning), books of openings generated with an engine ([`generate`]), the
//! `--openings` reader the match runner, `sp960 tournament`, `sp960 book stats` and the
//! generator's `--resume` read ([`openings`]: EPD and PGN, checked up front), what a book
//! holds ([`stats`]) and the files that serve it to OpenBench and fishtest ([`package`]).
//!
//! Below `matches` and `tournaments`, which read and write books through it. Must not
//! import `cli`, `check`, `tournaments`, `matches`, `proxy` or `engine`; uses `clients` (the
//! generator's engine driver), `launch`, `records`, `protocol`, `starts` and `os`.

pub mod book;
pub mod generate;
pub mod openings;
pub mod package;
pub mod stats;
