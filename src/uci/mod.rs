//! The UCI side of sp960: `sp960 proxy -- ENGINE`, a process a GUI starts as if it were
//! the engine. The protocol logic is the sans-IO [`session::UciSession`]; the pipes,
//! threads and signals are the shared [`crate::proxy::io`] shell.

pub mod session;

pub use session::{BLACK_START_OPTION, START_OPTION, StartChoice, UciConfig, UciSession};

use crate::proxy::io::{self, EngineCommand, ShellError, ShellOptions};
use crate::start::{RandomStarts, SpecError, Start};

impl StartChoice {
    /// Reads `--sp`: `N`, `W:B`, or `random` (with `seed`, or a fresh one: returned so
    /// it can be told, and `dfrc` for random double-FRC pairs). `None` gives
    /// [`StartChoice::Off`].
    pub fn from_arguments(
        spec: Option<&str>,
        seed: Option<u64>,
        dfrc: bool,
    ) -> Result<(StartChoice, Option<u64>), SpecError> {
        match spec {
            None => Ok((StartChoice::Off, None)),
            Some(text) if text.trim().eq_ignore_ascii_case("random") => {
                let seed = seed.unwrap_or_else(RandomStarts::fresh_seed);
                Ok((StartChoice::Random { seed, dfrc }, Some(seed)))
            }
            Some(text) => Ok((StartChoice::Fixed(text.parse::<Start>()?), None)),
        }
    }
}

/// Runs the UCI proxy: starts `engine` and relays between it and our stdin/stdout until
/// the GUI quits or the engine exits. Returns the exit code (see [`io::run`]).
pub fn run_proxy(
    config: UciConfig,
    engine: &EngineCommand,
    shell: &ShellOptions,
) -> Result<u8, ShellError> {
    io::run(UciSession::new(config), engine, shell)
}
