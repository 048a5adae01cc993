//! The engine clients: the GUI side of an engine conversation, for every role that drives
//! engines (the match runner, `sp960 check`, the book generator, the `--runner` hand-off's
//! probe). Sans-IO state machines fed engine lines and answering with lines to send and
//! [`talk::ClientEvent`]s (ready, a move, a resignation, a failure), and one small I/O
//! driver around them.
//!
//! - [`talk`]: what a GUI and an engine say to each other whatever the protocol (limits,
//!   clocks, the go and new-game requests, the events), imported by the others;
//! - [`uci`] ([`uci::UciClient`]) and [`xboard`] ([`xboard::XboardClient`]): the two
//!   protocols;
//! - [`client`]: the protocol detection and the one [`client::Client`] shape over both;
//! - [`driver`]: the I/O driver ([`driver::EngineDriver`]): the engine process of
//!   [`crate::launch::process`] and a client together: start, handshake, options, new
//!   game, search, raw lines beside the client (perft, `isready`), deadlines, quit and
//!   restart. The only code here that touches a process.
//!
//! Lines are bytes both ways, as the [`crate::protocol::session::Session`] shape has them:
//! an engine's line is read as `&[u8]` (no UTF-8 check, no copy) and the lines for it are
//! [`talk::Lines`] (`Vec<Vec<u8>>`), which go to the process as they are. A [`client::Client`] is
//! a `Session` whose events are `ClientEvent`s; the match runner's game drives it through
//! that shape. No file here imports one that imports it.
//!
//! Below `matches`, `check` and `tournaments`, which use it. Imports `launch`,
//! `protocol`, `starts` and `os` only; must not import `matches`, `check`, `tournaments`,
//! `proxy`, `engine`, `records` or `cli`.

pub mod client;
pub mod driver;
pub mod talk;
pub mod uci;
pub mod xboard;
