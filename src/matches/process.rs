//! The I/O driver for one engine process: spawned with the proxy's [`spawn_engine`],
//! lines written and flushed in one go, and read with a deadline by `poll(2)` on its
//! stdout from the game's own thread. (A reader thread per engine feeding a channel
//! costs a second wake-up per line; at a few milliseconds a move that doubled the
//! runner's own CPU time, see README "sp960 match" under Speed.)

use std::io::{self, BufWriter, Read, Write};
use std::os::fd::AsRawFd;
use std::process::{Child, ChildStdin, ChildStdout, Stdio};
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
    stdout: ChildStdout,
    /// Bytes read and not yet returned as lines: `buffer[start..]`.
    buffer: Vec<u8>,
    start: usize,
    closed: bool,
}

impl EngineProcess {
    /// Starts `command`; its stderr goes nowhere (engines' chatter would tear the
    /// progress line).
    pub fn spawn(command: &EngineCommand) -> Result<EngineProcess, ShellError> {
        let mut child = spawn_engine(command, Stdio::null())?;
        let stdin = child.stdin.take().map(BufWriter::new);
        let stdout = child.stdout.take().expect("piped");
        Ok(EngineProcess {
            child,
            stdin,
            stdout,
            buffer: Vec::with_capacity(64 * 1024),
            start: 0,
            closed: false,
        })
    }

    /// The next complete line in the buffer (a last line without `\n` once closed).
    fn take_line(&mut self) -> Option<String> {
        let pending = &self.buffer[self.start..];
        let (line, used) = match memchr::memchr(b'\n', pending) {
            Some(end) => (&pending[..end], end + 1),
            None if self.closed && !pending.is_empty() => (pending, pending.len()),
            None => return None,
        };
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let text = String::from_utf8_lossy(line).into_owned();
        self.start += used;
        Some(text)
    }

    /// The next line, waiting until `deadline` at most.
    pub fn receive(&mut self, deadline: Instant) -> Received {
        loop {
            if let Some(line) = self.take_line() {
                return Received::Line(line);
            }
            if self.closed {
                return Received::Closed;
            }
            // Keep the unread tail only.
            self.buffer.drain(..self.start);
            self.start = 0;
            let left = deadline.saturating_duration_since(Instant::now());
            if !self.wait_readable(left) {
                return Received::Timeout;
            }
            let filled = self.buffer.len();
            self.buffer.resize(filled + 64 * 1024, 0);
            let read = loop {
                match self.stdout.read(&mut self.buffer[filled..]) {
                    Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                    other => break other,
                }
            };
            match read {
                Ok(0) | Err(_) => {
                    self.buffer.truncate(filled);
                    self.closed = true;
                }
                Ok(n) => self.buffer.truncate(filled + n),
            }
        }
    }

    /// Waits up to `timeout` for stdout to have data (or to be closed).
    fn wait_readable(&self, timeout: Duration) -> bool {
        let mut poll = libc::pollfd {
            fd: self.stdout.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            // Rounded up: a 0.4 ms wait must not become a busy loop of 0 ms polls.
            let millis = left.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
            // SAFETY: one valid pollfd, for the duration of the call.
            let ready = unsafe { libc::poll(&mut poll, 1, millis) };
            match ready {
                n if n > 0 => return true,
                0 if Instant::now() >= deadline => return false,
                0 => {}
                _ if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => {}
                // poll itself failed: let read() report what is wrong.
                _ => return true,
            }
        }
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
