//! The `sp960` command: reads the command line, or a launcher's settings
//! ([`sp960::Cli::from_env_or_launcher`]), runs the command ([`sp960::run`]), and turns a
//! failure into its `sp960: ...` line on stderr and its exit code.

use std::process::ExitCode;

use sp960::{Cli, run};

fn main() -> ExitCode {
    match Cli::from_env_or_launcher().and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            if let Some(message) = failure.message {
                eprintln!("sp960: {message}");
            }
            ExitCode::from(failure.code)
        }
    }
}
