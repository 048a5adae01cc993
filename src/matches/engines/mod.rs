//! The engines' side of a match: the runner's GUI-side protocol clients, sans-IO state
//! machines fed engine lines and answering with lines to send and [`talk::ClientEvent`]s
//! (ready, a move, a resignation, a failure).
//!
//! - [`talk`]: what the runner and an engine say to each other whatever the protocol
//!   (limits, clocks, the go and new-game requests, the events), imported by the others;
//! - [`uci`] ([`uci::UciClient`]) and [`xboard`] ([`xboard::XboardClient`]): the two
//!   protocols;
//! - [`client`]: the protocol detection and the one [`client::Client`] shape over both.
//!
//! Lines are bytes both ways, as the [`crate::protocol::session::Session`] shape has them:
//! an engine's line is read as `&[u8]` (no UTF-8 check, no copy) and the lines for it are
//! [`talk::Lines`] (`Vec<Vec<u8>>`), which go to the process as they are. A [`client::Client`] is
//! a `Session` whose events are `ClientEvent`s; the game ([`crate::matches::game`]) drives
//! it through that shape. No file here imports one that imports it.
//!
//! Must not import the other wings of `matches` (game, tally, config), `proxy`,
//! `tournaments` or `cli`.

pub mod client;
pub mod talk;
pub mod uci;
pub mod xboard;
