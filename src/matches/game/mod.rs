//! One game between two engines: the rules and clocks ([`referee`]), the PGN entry of a
//! finished game ([`pgn`]) and playing it with two engine processes ([`player`]).
//!
//! Must not import the tally or config wings' internals beyond the match settings, nor
//! `proxy`, `tournaments` or `cli`.

pub mod pgn;
pub mod player;
pub mod referee;
