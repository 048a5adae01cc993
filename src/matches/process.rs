//! The I/O driver for one engine process: spawned with the proxy's [`spawn_engine`],
//! lines written and flushed in one go, and read with a deadline by `poll(2)` on its
//! stdout from the game's own thread. (A reader thread per engine feeding a channel
//! costs a second wake-up per line; at a few milliseconds a move that doubled the
//! runner's own CPU time, see README "sp960 match" under Speed.)

use std::io::{self, BufWriter, Read, Write};
use std::os::fd::AsRawFd;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Stdio};
use std::time::{Duration, Instant};

use super::log::{Direction, GameLog};
use crate::proxy::io::{EngineCommand, ShellError, describe_exit, spawn_engine, wait_bounded};

/// Bytes asked for by one read (the buffer's first size).
const READ_SIZE: usize = 64 * 1024;

/// What a read gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Received<'a> {
    /// A line, without its line ending, as the engine wrote it (not necessarily UTF-8:
    /// the client's [`Session`](crate::protocol::session::Session) reads it), borrowed
    /// from the read buffer: no copy, no allocation per line.
    Line(&'a [u8]),
    /// The engine closed its output (it exited or crashed).
    Closed,
    /// Nothing before the deadline.
    Timeout,
    /// The match was interrupted (Ctrl-C) while waiting.
    Interrupted,
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: Option<BufWriter<ChildStdin>>,
    stdout: ChildStdout,
    /// Bytes read and not yet returned as lines: `buffer[start..end]`. The buffer is
    /// zeroed once (and when it grows), not before each read: zeroing 64 KiB per read was
    /// a third of the runner's own CPU time per ply.
    buffer: Vec<u8>,
    start: usize,
    end: usize,
    closed: bool,
    /// With `--log`: the engine's stderr, read by the same `poll(2)` as its stdout.
    stderr: Option<ChildStderr>,
    /// Stderr bytes not yet logged as lines.
    stderr_buffer: Vec<u8>,
    /// With `--log`: where every line goes, and the engine's name there.
    log: Option<(GameLog, String)>,
}

impl EngineProcess {
    /// Starts `command`. Its stderr is read for the log with `capture_stderr` (`--log`),
    /// and otherwise goes nowhere (engines' chatter would tear the progress line).
    pub fn spawn(
        command: &EngineCommand,
        capture_stderr: bool,
    ) -> Result<EngineProcess, ShellError> {
        let stderr = if capture_stderr {
            Stdio::piped()
        } else {
            Stdio::null()
        };
        let mut child = spawn_engine(command, stderr)?;
        let stdin = child.stdin.take().map(BufWriter::new);
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take();
        Ok(EngineProcess {
            child,
            stdin,
            stdout,
            buffer: vec![0; READ_SIZE],
            start: 0,
            end: 0,
            closed: false,
            stderr,
            stderr_buffer: Vec::new(),
            log: None,
        })
    }

    /// Logs every line from now on to `log` as `name`'s; returns the log it had.
    pub fn set_log(&mut self, log: GameLog, name: String) -> Option<GameLog> {
        self.log.replace((log, name)).map(|(old, _)| old)
    }

    fn tap(&self, direction: Direction, text: &[u8]) {
        if let Some((log, name)) = &self.log {
            log.line(name, direction, text);
        }
    }

    /// Reads what the engine wrote to stderr (it is ready) and logs its complete lines
    /// (the rest at the end of the stream).
    fn read_stderr(&mut self) {
        let Some(stderr) = &mut self.stderr else {
            return;
        };
        let mut chunk = [0u8; 8192];
        let read = loop {
            match stderr.read(&mut chunk) {
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                other => break other,
            }
        };
        let ended = match read {
            Ok(0) | Err(_) => true,
            Ok(n) => {
                self.stderr_buffer.extend_from_slice(&chunk[..n]);
                false
            }
        };
        let mut used = 0;
        while let Some(end) = memchr::memchr(b'\n', &self.stderr_buffer[used..]) {
            let line = &self.stderr_buffer[used..used + end];
            self.tap(Direction::Stderr, line.strip_suffix(b"\r").unwrap_or(line));
            used += end + 1;
        }
        if ended {
            if used < self.stderr_buffer.len() {
                self.tap(Direction::Stderr, &self.stderr_buffer[used..]);
            }
            self.stderr_buffer.clear();
            self.stderr = None;
        } else {
            self.stderr_buffer.drain(..used);
        }
    }

    /// Where the next complete line is in the buffer (a last line without `\n` once
    /// closed).
    fn take_line(&mut self) -> Option<std::ops::Range<usize>> {
        let pending = &self.buffer[self.start..self.end];
        let (line, used) = match memchr::memchr(b'\n', pending) {
            Some(end) => (&pending[..end], end + 1),
            None if self.closed && !pending.is_empty() => (pending, pending.len()),
            None => return None,
        };
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let range = self.start..self.start + line.len();
        self.start += used;
        Some(range)
    }

    /// The next line, waiting until `deadline` at most.
    pub fn receive(&mut self, deadline: Instant) -> Received<'_> {
        loop {
            if let Some(line) = self.take_line() {
                self.tap(Direction::FromEngine, &self.buffer[line.clone()]);
                return Received::Line(&self.buffer[line]);
            }
            if self.closed {
                // What it said on stderr as it went (a crash message).
                while self.stderr.is_some()
                    && self.wait_readable(Duration::from_millis(50)) == Some((false, true))
                {
                    self.read_stderr();
                }
                return Received::Closed;
            }
            // Keep the unread tail only, at the front; grow for a line longer than the
            // buffer.
            self.buffer.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
            if self.end == self.buffer.len() {
                self.buffer.resize(self.buffer.len() * 2, 0);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let Some((stdout, stderr)) = self.wait_readable(left) else {
                return Received::Interrupted;
            };
            if stderr {
                self.read_stderr();
            }
            if !stdout {
                if stderr {
                    continue;
                }
                return Received::Timeout;
            }
            let read = loop {
                match self.stdout.read(&mut self.buffer[self.end..]) {
                    Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                    other => break other,
                }
            };
            match read {
                Ok(0) | Err(_) => self.closed = true,
                Ok(n) => self.end += n,
            }
        }
    }

    /// Waits up to `timeout` for stdout (or the captured stderr) to have data or to be
    /// closed: which of the two are ready (`None` once the match is interrupted: the
    /// wait is cut into slices of at most 100 ms to notice).
    fn wait_readable(&self, timeout: Duration) -> Option<(bool, bool)> {
        let stdout = libc::pollfd {
            fd: if self.closed {
                -1
            } else {
                self.stdout.as_raw_fd()
            },
            events: libc::POLLIN,
            revents: 0,
        };
        let stderr = libc::pollfd {
            fd: self.stderr.as_ref().map_or(-1, AsRawFd::as_raw_fd),
            events: libc::POLLIN,
            revents: 0,
        };
        let mut polls = [stdout, stderr];
        let count = if self.stderr.is_some() { 2 } else { 1 };
        let deadline = Instant::now() + timeout;
        loop {
            if super::interrupt::interrupted() {
                return None;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            // Rounded up: a 0.4 ms wait must not become a busy loop of 0 ms polls.
            let millis = left.as_micros().div_ceil(1000).min(100) as i32;
            // SAFETY: `count` valid pollfds, for the duration of the call (a negative fd
            // is ignored by poll).
            let ready = unsafe { libc::poll(polls.as_mut_ptr(), count, millis) };
            match ready {
                n if n > 0 => {
                    return Some((polls[0].revents != 0, count == 2 && polls[1].revents != 0));
                }
                0 if Instant::now() >= deadline => return Some((false, false)),
                0 => {}
                _ if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => {}
                // poll itself failed: let read() report what is wrong.
                _ => return Some((!self.closed, false)),
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
        let flushed = stdin.flush();
        for line in lines {
            self.tap(Direction::ToEngine, line.as_bytes());
        }
        flushed
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What a test saw: a line's bytes, or how the reading ended.
    #[derive(Debug, PartialEq)]
    enum Seen {
        Line(Vec<u8>),
        End(Received<'static>),
    }

    /// Runs `python3 -c script` and returns every line it writes, then `Closed`.
    fn lines_of(script: &str) -> Vec<Seen> {
        let command = EngineCommand {
            program: "python3".into(),
            args: vec!["-c".into(), script.into()],
            dir: None,
        };
        let mut process = EngineProcess::spawn(&command, false).unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut seen = Vec::new();
        loop {
            let end = match process.receive(deadline) {
                Received::Line(line) => {
                    seen.push(Seen::Line(line.to_vec()));
                    continue;
                }
                Received::Closed => Received::Closed,
                Received::Timeout => Received::Timeout,
                Received::Interrupted => Received::Interrupted,
            };
            seen.push(Seen::End(end));
            return seen;
        }
    }

    #[test]
    fn lines_longer_than_a_read_cr_lf_bad_utf8_and_a_last_line_without_newline() {
        let seen = lines_of(
            "import sys, time\n\
             out = sys.stdout.buffer\n\
             out.write(b'a' * 200000 + b'\\n'); out.flush()\n\
             for n in range(3000): out.write(b'info depth %d\\r\\n' % n)\n\
             out.flush(); time.sleep(0.05)\n\
             out.write(b'bad \\xff byte\\nhalf'); out.flush(); time.sleep(0.05)\n\
             out.write(b' line\\nlast')",
        );
        let mut expected = vec![Seen::Line(vec![b'a'; 200_000])];
        expected.extend((0..3000).map(|n| Seen::Line(format!("info depth {n}").into())));
        // As the engine wrote it: the client's session reads it (lossy).
        expected.push(Seen::Line(b"bad \xff byte".to_vec()));
        expected.push(Seen::Line(b"half line".to_vec()));
        expected.push(Seen::Line(b"last".to_vec()));
        expected.push(Seen::End(Received::Closed));
        assert_eq!(seen.len(), expected.len());
        assert!(seen == expected, "the lines differ");
    }

    #[test]
    fn nothing_before_the_deadline_is_a_timeout() {
        let command = EngineCommand {
            program: "sleep".into(),
            args: vec!["5".into()],
            dir: None,
        };
        let mut process = EngineProcess::spawn(&command, false).unwrap();
        let begin = Instant::now();
        let got = process.receive(begin + Duration::from_millis(50));
        assert_eq!(got, Received::Timeout);
        assert!(begin.elapsed() >= Duration::from_millis(50));
    }
}
