//! The XBoard (CECP) side of sp960: `sp960 proxy` for XBoard engines. The protocol logic is
//! the sans-IO [`session::XboardSession`]; moves in XBoard's notations are read and
//! written by [`moves`]; the pipes and threads are the shared [`crate::proxy::io`] shell.
//!
//! Public API (stable, like the UCI session's):
//! - [`XboardSession::new`]`(`[`XboardConfig`]`)` builds a session; it implements
//!   [`crate::proxy::Session`];
//! - [`XboardConfig`]: `start` ([`crate::proxy::starts::StartChoice`]), `engine_castling`
//!   ([`EngineCastling`], `None` = learned), `fen_castling`, `require_chess960`,
//!   `random_seed`;
//! - the start options are [`crate::proxy::starts`]'s, offered as `feature option=`;
//! - to run it between pipes: [`crate::proxy::detect::run_proxy`] with
//!   `protocol: Some(Protocol::Xboard)` (or let the GUI's `xboard` decide).

pub mod moves;
pub mod session;

pub use session::{EngineCastling, XboardConfig, XboardSession};
