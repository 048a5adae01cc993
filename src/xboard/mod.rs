//! The XBoard (CECP) side of sp960: `sp960 proxy` for XBoard engines. The protocol logic is
//! the sans-IO [`session::XboardSession`]; moves in XBoard's notations are read and
//! written by [`moves`]; the pipes and threads are the shared [`crate::proxy::io`] shell.

pub mod moves;
pub mod session;

pub use session::{EngineCastling, XboardConfig, XboardSession};
