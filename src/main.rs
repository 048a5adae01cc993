//! The `sp960` command: parses the arguments, runs the command ([`sp960::run`]), and turns
//! a failure into its `sp960: ...` line on stderr and its exit code.

use std::process::ExitCode;

use clap::Parser;
use sp960::{Cli, run};

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            if let Some(message) = failure.message {
                eprintln!("sp960: {message}");
            }
            ExitCode::from(failure.code)
        }
    }
}
