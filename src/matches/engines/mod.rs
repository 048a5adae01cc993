//! The engines' side of a match: the runner's GUI-side protocol clients, sans-IO state
//! machines fed engine lines and answering with lines to send and [`client::ClientEvent`]s
//! (ready, a move, a resignation, a failure).
//!
//! - [`client`]: the protocol detection and the one [`client::Client`] shape over
//!   [`uci`] ([`uci::UciClient`]) and [`xboard`] ([`xboard::XboardClient`]).
//!
//! Must not import the other wings of `matches` (game, tally, config), `proxy`,
//! `tournaments` or `cli`.

pub mod client;
pub mod uci;
pub mod xboard;
