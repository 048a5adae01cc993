//! The UCI side of sp960: `sp960 proxy -- ENGINE`, a process a GUI starts as if it were
//! the engine. The protocol logic is the sans-IO [`session::UciSession`]; the pipes,
//! threads and signals are the shared [`crate::proxy::io`] shell.

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
