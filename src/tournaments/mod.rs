//! Books and tournaments: opening books of starts for match runners ([`book`]), and the
//! cutechess-cli, fastchess or xboard command line that plays them, with each engine
//! wrapped in `sp960 proxy` where the tool needs it ([`tournament`]), written for the user's
//! shell ([`shell`]); books of openings generated with an engine ([`generate`]).

pub mod book;
pub mod generate;
pub mod shell;
pub mod tournament;
