//! The UCI side of sp960: `sp960 proxy -- ENGINE`, a process a GUI starts as if it were
//! the engine. The protocol logic is the sans-IO [`session::UciSession`]; the pipes,
//! threads and signals are the shared [`crate::proxy::io`] shell.
//!
//! Public API (stable; the match runner drives sessions through it):
//! - [`UciSession::new`]`(`[`UciConfig`]`)` builds a session; it implements
//!   [`crate::proxy::Session`] (`on_gui_line`, `on_engine_line`, `on_gui_eof`,
//!   `on_engine_exit`, each pushing [`crate::proxy::Action`]s);
//! - [`UciConfig`]: `start` ([`StartChoice`]), `gui_castling`, `engine_castling`,
//!   `require_chess960`, `random_seed`;
//! - [`START_OPTION`] / [`BLACK_START_OPTION`]: the option names (shared with XBoard, from
//!   [`crate::proxy::starts`]);
//! - [`run_proxy`]: a UCI-only proxy between real pipes. `sp960 proxy` itself runs
//!   [`crate::proxy::detect::run_proxy`], which picks UCI or XBoard from the GUI.

pub mod session;

pub use crate::proxy::starts::StartChoice;
pub use session::{BLACK_START_OPTION, START_OPTION, UciConfig, UciSession};

use crate::proxy::io::{self, EngineCommand, ShellError, ShellOptions};

/// Runs the UCI proxy: starts `engine` and relays between it and our stdin/stdout until
/// the GUI quits or the engine exits. Returns the exit code (see [`io::run`]).
pub fn run_proxy(
    config: UciConfig,
    engine: &EngineCommand,
    shell: &ShellOptions,
) -> Result<u8, ShellError> {
    io::run(UciSession::new(config), engine, shell)
}
