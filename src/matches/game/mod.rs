//! One game between two engines, sans-IO at the core with a small I/O shell around it:
//!
//! - [`state`]: the game itself, [`state::Game`], a state machine in the manner of
//!   quinn-proto's `Connection` and the proxy's sessions. It is fed each engine's lines
//!   (which side), what the shell saw (an engine closed, Ctrl-C) and the time, and answers
//!   with [`state::GameStep`]s (lines to send to a side, an engine to seat), the next
//!   deadline (`poll_timeout`/`handle_timeout`) and the verdict. It owns the referee, the
//!   clocks, the adjudicator, the move loop and the two engines' protocol clients, which
//!   it drives through their [`crate::protocol::session::Session`] shape (bytes in, bytes
//!   out, never converted). Unit-tested on transcripts (`state_tests.rs`).
//! - [`referee`]: the rules, the clocks and the adjudication rules, pure.
//! - [`pgn`]: the PGN entry of a finished game.
//! - [`player`]: the shell. A worker's engines (`Seats`: from the first handshake's
//!   pool, started afresh after a breakdown), each an engine driver of
//!   [`crate::clients::driver`] (process, handshake, deadlines), and
//!   [`player::play_game`], which carries out a game's steps, reads the engine the game
//!   waits for until its deadline, and tells the game what it read and when; the only
//!   code here that touches an engine, a clock, `--log` or Ctrl-C.
//!
//! Must not import the tally or config wings' internals beyond the match settings, nor
//! `proxy`, `tournaments` or `cli`.

pub mod pgn;
pub mod player;
pub mod referee;
pub(crate) mod state;
