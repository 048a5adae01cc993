//! The I/O driver for one engine process: spawned with the proxy's
//! [`spawn_engine`], a thread reading its stdout into a channel, lines written and
//! flushed in one go, reads with a deadline.

use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use crate::proxy::io::{EngineCommand, ShellError, describe_exit, spawn_engine, wait_bounded};

/// What a read gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Received {
    /// A line (lossy UTF-8, without its line ending).
    Line(String),
    /// The engine closed its output (it exited or crashed).
    Closed,
    /// Nothing before the deadline.
    Timeout,
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: Option<BufWriter<ChildStdin>>,
    lines: Receiver<String>,
}

impl EngineProcess {
    /// Starts `command`; its stderr goes nowhere (engines' chatter would tear the
    /// progress line).
    pub fn spawn(command: &EngineCommand) -> Result<EngineProcess, ShellError> {
        let mut child = spawn_engine(command, Stdio::null())?;
        let stdin = child.stdin.take().map(BufWriter::new);
        let stdout = child.stdout.take().expect("piped");
        let (sender, lines) = mpsc::channel();
        thread::Builder::new()
            .name("engine-stdout".to_owned())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buffer = Vec::new();
                loop {
                    buffer.clear();
                    match reader.read_until(b'\n', &mut buffer) {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {
                            let line = buffer.strip_suffix(b"\n").unwrap_or(&buffer);
                            let line = line.strip_suffix(b"\r").unwrap_or(line);
                            if sender
                                .send(String::from_utf8_lossy(line).into_owned())
                                .is_err()
                            {
                                return;
                            }
                        }
                    }
                }
            })
            .map_err(ShellError::Io)?;
        Ok(EngineProcess {
            child,
            stdin,
            lines,
        })
    }

    /// Writes `lines` (each with `\n`) and flushes once.
    pub fn send(&mut self, lines: &[String]) -> io::Result<()> {
        if lines.is_empty() {
            return Ok(());
        }
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::from(io::ErrorKind::BrokenPipe))?;
        for line in lines {
            stdin.write_all(line.as_bytes())?;
            stdin.write_all(b"\n")?;
        }
        stdin.flush()
    }

    /// The next line, waiting until `deadline` at most.
    pub fn receive(&mut self, deadline: Instant) -> Received {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Received::Line(line),
            Err(RecvTimeoutError::Timeout) => Received::Timeout,
            Err(RecvTimeoutError::Disconnected) => Received::Closed,
        }
    }

    /// After [`Received::Closed`]: how the process ended ("exited unexpectedly with
    /// status 1", "died unexpectedly from signal 11").
    pub fn exit_description(&mut self) -> String {
        describe_exit(wait_bounded(&mut self.child, Duration::from_secs(1)))
    }

    /// Sends `quit_lines`, closes stdin and gives the engine `grace` to exit before it is
    /// killed.
    pub fn stop(mut self, quit_lines: &[String], grace: Duration) {
        let _ = self.send(quit_lines);
        drop(self.stdin.take());
        wait_bounded(&mut self.child, grace);
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // Never leave an engine behind (stop() already reaped it: then this is a no-op).
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
