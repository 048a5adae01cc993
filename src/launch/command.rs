//! The engine to start and starting it: program, arguments and directory, spawned with piped
//! stdin and stdout and tied to us ([`crate::os::process::spawn_killed_with_us`]). Shared by
//! the proxy, `sp960 match` and `sp960 book`.

use std::ffi::OsString;
use std::io;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use thiserror::Error;

use crate::exit_code;
use crate::os::process::spawn_killed_with_us;

/// The engine to start: program and arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineCommand {
    /// Program path or name (looked up on PATH).
    pub program: OsString,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// Its working directory (default: ours).
    pub dir: Option<PathBuf>,
}

/// Why an engine could not be started.
#[derive(Debug, Error)]
pub enum SpawnError {
    /// No such program.
    #[error("engine '{0}' not found")]
    NotFound(String),
    /// The program exists but cannot be executed.
    #[error("engine '{0}' is not executable")]
    NotExecutable(String),
    /// Any other failure to start it.
    #[error("cannot start engine '{0}': {1}")]
    Other(String, io::Error),
}

impl SpawnError {
    /// The process exit code for this error, as shells report it (127 not found, 126
    /// not executable).
    pub fn exit_code(&self) -> u8 {
        match self {
            SpawnError::NotFound(_) => exit_code::ENGINE_NOT_FOUND,
            SpawnError::NotExecutable(_) | SpawnError::Other(..) => {
                exit_code::ENGINE_NOT_EXECUTABLE
            }
        }
    }
}

/// Starts `command` with piped stdin and stdout and the given `stderr`, tied to us so that a
/// killed proxy or match runner leaves no engine behind where the OS allows it
/// ([`spawn_killed_with_us`]). Shared by the proxy and `sp960 match`.
pub fn spawn_engine(command: &EngineCommand, stderr: Stdio) -> Result<Child, SpawnError> {
    let name = command.program.to_string_lossy().into_owned();
    let mut process = Command::new(&command.program);
    process
        .args(&command.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr);
    if let Some(dir) = &command.dir {
        process.current_dir(dir);
    }
    spawn_killed_with_us(&mut process).map_err(|err| match err.kind() {
        io::ErrorKind::NotFound => SpawnError::NotFound(name),
        io::ErrorKind::PermissionDenied => SpawnError::NotExecutable(name),
        _ => SpawnError::Other(name, err),
    })
}
