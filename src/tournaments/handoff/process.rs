//! The runner as a process: started with the rendered line, its progress streamed, and the
//! PGN it appended to read back from where it began.

use std::io::{self, BufRead, Read, Seek, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use super::{HandoffError, Runner};

/// Runs the runner; its stdout (its progress) is copied to our stderr line by line unless
/// `quiet`, and its last lines are kept for the error message if it fails.
pub(super) fn run_runner(runner: Runner, argv: &[String], quiet: bool) -> Result<(), HandoffError> {
    let process = |action, source| HandoffError::Process {
        runner: runner.program(),
        action,
        source,
    };
    let mut child = Command::new(&argv[0])
        .args(&argv[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|err| match err.kind() {
            io::ErrorKind::NotFound => HandoffError::NotFound(runner.program()),
            _ => process("cannot start: ", err),
        })?;
    let stdout = child.stdout.take().expect("piped");
    let mut last = std::collections::VecDeque::new();
    let stderr = io::stderr();
    for line in io::BufReader::new(stdout).split(b'\n') {
        let Ok(line) = line else { break };
        if !quiet {
            let mut err = stderr.lock();
            let _ = err.write_all(&line);
            let _ = err.write_all(b"\n");
        }
        last.push_back(String::from_utf8_lossy(&line).into_owned());
        if last.len() > 10 {
            last.pop_front();
        }
    }
    let status = child.wait().map_err(|err| process("", err))?;
    if status.success() {
        return Ok(());
    }
    let mut reason = crate::os::process::ProcessEnding::of(Some(status)).describe();
    if quiet && !last.is_empty() {
        reason.push_str("; its last lines:\n");
        reason.push_str(&Vec::from(last).join("\n"));
    }
    Err(HandoffError::Failed {
        runner: runner.program(),
        reason,
    })
}

/// The text of `path` from byte `start` on.
pub(super) fn read_from(path: &Path, start: u64) -> io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    file.seek(io::SeekFrom::Start(start))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
