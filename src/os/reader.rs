//! Reading an engine's output with a deadline, from the game's own thread, for
//! `sp960 match`.
//!
//! - Linux: one blocking `read(2)` per wake-up; the deadline and Ctrl-C come from the
//!   thread's timer signal ([`timer`](super::timer)), which interrupts the read. A
//!   `poll(2)` before each `read` cost a second system call per engine line, and a reader
//!   thread per engine a second wake-up per line (docs/benchmarks.md, "sp960 match
//!   against fastchess").
//! - macOS and other Unix (and Linux with the `portable-io` feature): `poll(2)` in slices
//!   of at most 100 ms (to notice Ctrl-C), then `read(2)`.
//! - Windows, whose anonymous pipes cannot be polled: a small reader thread per engine
//!   blocks on the pipe and hands each chunk over a channel, waited for in slices of at
//!   most 100 ms.

use std::process::ChildStdout;
use std::time::{Duration, Instant};

use super::interrupt::interrupted;

/// The longest a wait goes without looking at the Ctrl-C flag.
const SLICE: Duration = Duration::from_millis(100);

/// What a read gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filled {
    /// This many bytes were read into the buffer.
    Bytes(usize),
    /// The engine closed its output (it exited or crashed), or it cannot be read.
    Closed,
    /// Nothing came before the deadline.
    Timeout,
    /// Ctrl-C came while waiting ([`interrupt`](super::interrupt)).
    Interrupted,
}

/// An engine's stdout, read with deadlines.
pub struct EngineOutput {
    inner: imp::Output,
}

impl EngineOutput {
    /// Takes over the engine's stdout.
    pub fn new(stdout: ChildStdout) -> std::io::Result<EngineOutput> {
        Ok(EngineOutput {
            inner: imp::Output::new(stdout)?,
        })
    }

    /// Reads what the engine has written into `buffer` (not empty), waiting until
    /// `deadline` at most; what is there already is read even past the deadline.
    pub fn read_until(&mut self, buffer: &mut [u8], deadline: Instant) -> Filled {
        self.inner.read_until(buffer, deadline)
    }
}

#[cfg(unix)]
mod imp {
    use std::io::{self, Read};
    use std::os::fd::AsRawFd;
    use std::process::ChildStdout;
    use std::time::{Duration, Instant};

    use super::{Filled, SLICE, interrupted};

    #[cfg(all(target_os = "linux", not(feature = "portable-io")))]
    use crate::os::timer::arm;

    /// No per-thread timer here: the reader polls.
    #[cfg(not(all(target_os = "linux", not(feature = "portable-io"))))]
    fn arm(_deadline: Instant) -> bool {
        false
    }

    pub struct Output {
        stdout: ChildStdout,
    }

    impl Output {
        pub fn new(stdout: ChildStdout) -> io::Result<Output> {
            Ok(Output { stdout })
        }

        pub fn read_until(&mut self, buffer: &mut [u8], deadline: Instant) -> Filled {
            loop {
                if interrupted() {
                    return Filled::Interrupted;
                }
                let left = deadline.saturating_duration_since(Instant::now());
                // A blocking read that the thread's timer interrupts on the deadline; past
                // the deadline (what is there already is still read), or with no timer, a
                // poll first.
                if left.is_zero() || !arm(deadline) {
                    match self.wait_readable(left) {
                        None => return Filled::Interrupted,
                        Some(false) => return Filled::Timeout,
                        Some(true) => {}
                    }
                }
                match self.stdout.read(buffer) {
                    // The timer's tick: look at the clock and the Ctrl-C flag again.
                    Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                    Ok(0) | Err(_) => return Filled::Closed,
                    Ok(n) => return Filled::Bytes(n),
                }
            }
        }

        /// Waits up to `timeout` for stdout to have data or to be closed: whether it has
        /// (`None` once Ctrl-C came: the wait is cut into slices to notice).
        fn wait_readable(&self, timeout: Duration) -> Option<bool> {
            let mut stdout = libc::pollfd {
                fd: self.stdout.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            let deadline = Instant::now() + timeout;
            loop {
                if interrupted() {
                    return None;
                }
                let left = deadline.saturating_duration_since(Instant::now());
                // Rounded up: a 0.4 ms wait must not become a busy loop of 0 ms polls.
                let millis = left.as_micros().div_ceil(1000).min(SLICE.as_millis()) as i32;
                // SAFETY: one valid pollfd, for the duration of the call.
                let ready = unsafe { libc::poll(&mut stdout, 1, millis) };
                match ready {
                    n if n > 0 => return Some(true),
                    0 if Instant::now() >= deadline => return Some(false),
                    0 => {}
                    _ if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => {}
                    // poll itself failed: let read() report what is wrong.
                    _ => return Some(true),
                }
            }
        }
    }
}

#[cfg(windows)]
mod imp {
    use std::io::{self, Read};
    use std::process::ChildStdout;
    use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
    use std::thread;
    use std::time::Instant;

    use super::{Filled, SLICE, interrupted};

    /// Bytes asked for by one read of the reader thread.
    const CHUNK: usize = 64 * 1024;

    pub struct Output {
        chunks: Receiver<Vec<u8>>,
        pending: Vec<u8>,
        taken: usize,
        closed: bool,
    }

    impl Output {
        pub fn new(mut stdout: ChildStdout) -> io::Result<Output> {
            let (send, chunks) = mpsc::sync_channel(16);
            thread::Builder::new()
                .name("engine-stdout".into())
                .stack_size(64 * 1024)
                .spawn(move || {
                    loop {
                        let mut chunk = vec![0; CHUNK];
                        match stdout.read(&mut chunk) {
                            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                            Ok(0) | Err(_) => return,
                            Ok(n) => {
                                chunk.truncate(n);
                                if send.send(chunk).is_err() {
                                    return;
                                }
                            }
                        }
                    }
                })?;
            Ok(Output {
                chunks,
                pending: Vec::new(),
                taken: 0,
                closed: false,
            })
        }

        fn hand_over(&mut self, buffer: &mut [u8]) -> Filled {
            let n = buffer.len().min(self.pending.len() - self.taken);
            buffer[..n].copy_from_slice(&self.pending[self.taken..self.taken + n]);
            self.taken += n;
            Filled::Bytes(n)
        }

        pub fn read_until(&mut self, buffer: &mut [u8], deadline: Instant) -> Filled {
            if self.taken < self.pending.len() {
                return self.hand_over(buffer);
            }
            if self.closed {
                return Filled::Closed;
            }
            loop {
                if interrupted() {
                    return Filled::Interrupted;
                }
                let left = deadline.saturating_duration_since(Instant::now());
                match self.chunks.recv_timeout(left.min(SLICE)) {
                    Ok(chunk) => {
                        self.pending = chunk;
                        self.taken = 0;
                        return self.hand_over(buffer);
                    }
                    Err(RecvTimeoutError::Timeout) if Instant::now() >= deadline => {
                        return Filled::Timeout;
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => {
                        self.closed = true;
                        return Filled::Closed;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::process::Stdio;

    use crate::test_child;

    /// A child that echoes what it is given (as `cat` does): silence, a line, then the end
    /// of its output once its input is closed.
    #[test]
    fn reads_what_comes_times_out_on_silence_and_sees_the_end() {
        let mut child = test_child::command(module_path!(), "echo")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let mut output = EngineOutput::new(child.stdout.take().unwrap()).unwrap();
        let mut buffer = [0u8; 16];
        // Libtest's lines, up to the child's READY (read in slices of the buffer).
        let mut ready = test_child::READY.to_vec();
        ready.push(b'\n');
        let mut prelude = Vec::new();
        while !prelude.ends_with(&ready) {
            match output.read_until(&mut buffer, Instant::now() + Duration::from_secs(30)) {
                Filled::Bytes(n) => prelude.extend_from_slice(&buffer[..n]),
                other => panic!("{other:?} before the child was ready: {prelude:?}"),
            }
        }
        let started = Instant::now();
        let silent = output.read_until(&mut buffer, started + Duration::from_millis(150));
        assert_eq!(silent, Filled::Timeout);
        assert!(started.elapsed() >= Duration::from_millis(150));
        stdin.write_all(b"uciok\n").unwrap();
        stdin.flush().unwrap();
        let read = output.read_until(&mut buffer, Instant::now() + Duration::from_secs(5));
        assert_eq!(read, Filled::Bytes(6));
        assert_eq!(&buffer[..6], b"uciok\n");
        drop(stdin);
        let end = output.read_until(&mut buffer, Instant::now() + Duration::from_secs(5));
        assert_eq!(end, Filled::Closed);
        assert!(child.wait().unwrap().success());
    }

    #[test]
    #[ignore = "the scripted child of the tests above: they run it"]
    fn scripted_child() {
        let Some(script) = test_child::script() else {
            return;
        };
        assert_eq!(script, "echo");
        let (mut stdin, mut stdout) = (std::io::stdin().lock(), std::io::stdout().lock());
        let mut chunk = [0u8; 4096];
        loop {
            match stdin.read(&mut chunk).unwrap() {
                0 => test_child::exit(0),
                n => {
                    stdout.write_all(&chunk[..n]).unwrap();
                    stdout.flush().unwrap();
                }
            }
        }
    }
}
