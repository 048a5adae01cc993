//! The I/O driver for one engine process: spawned with the proxy's [`spawn_engine`],
//! lines written and flushed in one go, and read from the game's own thread with a
//! deadline ([`EngineOutput`]: on Linux one blocking `read(2)` per wake-up, interrupted by
//! the thread's timer signal; the OS layer says how each platform does it).
//!
//! With `--log`, the engine's stderr is read by a small thread of its own that blocks on
//! it and logs each line as it comes (engines rarely write to stderr, so that costs no
//! wake-ups); once stdout is closed, the reader waits briefly for that thread to reach
//! the end of stderr, so a crash message is in the log before the game ends.

use std::io::{self, BufWriter, Read, Write};
use std::process::{Child, ChildStderr, ChildStdin, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use crate::launch::command::{EngineCommand, SpawnError, spawn_engine};
use crate::launch::log::{Direction, GameLog};
use crate::os::process::{ProcessEnding, wait_bounded};
use crate::os::reader::{EngineOutput, Filled};

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

/// Where an engine's lines are logged with `--log`: its game's log and its name there
/// (shared with its stderr thread, which logs what it reads there).
type LogTarget = Arc<Mutex<Option<(GameLog, String)>>>;

/// How long the end of a closed engine's stderr is waited for (its crash message).
const STDERR_GRACE: Duration = Duration::from_millis(50);

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: Option<BufWriter<ChildStdin>>,
    stdout: EngineOutput,
    /// Bytes read and not yet returned as lines: `buffer[start..end]`. The buffer is
    /// zeroed once (and when it grows), not before each read: zeroing 64 KiB per read was
    /// a third of the runner's own CPU time per ply.
    buffer: Vec<u8>,
    start: usize,
    end: usize,
    closed: bool,
    /// With `--log`: where every line goes, and the engine's name there.
    log: Option<(GameLog, String)>,
    /// With `--log`: the same, for the stderr thread.
    stderr_log: Option<LogTarget>,
    /// With `--log`, until stderr ended: disconnected when the stderr thread is done.
    stderr_done: Option<mpsc::Receiver<()>>,
}

impl EngineProcess {
    /// Starts `command`, logging every line to `log` under a name (`--log`), its stderr
    /// included from the first byte; without a log its stderr goes nowhere (engines'
    /// chatter would tear the progress line).
    pub fn spawn(
        command: &EngineCommand,
        log: Option<(GameLog, String)>,
    ) -> Result<EngineProcess, SpawnError> {
        let stderr = if log.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        };
        let mut child = spawn_engine(command, stderr)?;
        let stdin = child.stdin.take().map(BufWriter::new);
        let stdout = match EngineOutput::new(child.stdout.take().expect("piped")) {
            Ok(stdout) => stdout,
            Err(err) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(SpawnError::Other(
                    command.program.to_string_lossy().into_owned(),
                    err,
                ));
            }
        };
        let (stderr_log, stderr_done) = match child.stderr.take() {
            Some(stderr) => {
                let target = Arc::new(Mutex::new(log.clone()));
                let (done, ended) = mpsc::channel();
                let shared = Arc::clone(&target);
                let started = thread::Builder::new()
                    .name("engine-stderr".into())
                    .stack_size(64 * 1024)
                    .spawn(move || log_stderr(stderr, &shared, done));
                if let Err(err) = started {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(SpawnError::Other(
                        command.program.to_string_lossy().into_owned(),
                        err,
                    ));
                }
                (Some(target), Some(ended))
            }
            None => (None, None),
        };
        Ok(EngineProcess {
            child,
            stdin,
            stdout,
            buffer: vec![0; READ_SIZE],
            start: 0,
            end: 0,
            closed: false,
            log,
            stderr_log,
            stderr_done,
        })
    }

    /// Pins the engine, every thread it has and starts, to `cpu` (`match --affinity`).
    pub fn pin_to(&self, cpu: usize) -> io::Result<()> {
        crate::os::affinity::pin_process(&self.child, cpu)
    }

    /// Logs every line from now on to `log` as `name`'s; returns the log it had.
    pub fn set_log(&mut self, log: GameLog, name: String) -> Option<GameLog> {
        if let Some(target) = &self.stderr_log {
            *lock(target) = Some((log.clone(), name.clone()));
        }
        self.log.replace((log, name)).map(|(old, _)| old)
    }

    fn tap(&self, direction: Direction, text: &[u8]) {
        if let Some((log, name)) = &self.log {
            log.line(name, direction, text);
        }
    }

    /// Waits up to [`STDERR_GRACE`] for the stderr thread to log the end of stderr.
    fn await_stderr(&mut self) {
        if let Some(done) = self.stderr_done.take() {
            let _ = done.recv_timeout(STDERR_GRACE);
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
                self.await_stderr();
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
            match self
                .stdout
                .read_until(&mut self.buffer[self.end..], deadline)
            {
                Filled::Bytes(n) => self.end += n,
                Filled::Closed => self.closed = true,
                Filled::Timeout => return Received::Timeout,
                Filled::Interrupted => return Received::Interrupted,
            }
        }
    }

    /// Writes `lines` (each with `\n`) and flushes once. With `--log` they are logged
    /// before they are written: the engine's answer, which its stderr thread may log, can
    /// come as soon as the flush is done.
    pub fn send<L: AsRef<[u8]>>(&mut self, lines: &[L]) -> io::Result<()> {
        if lines.is_empty() {
            return Ok(());
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(io::ErrorKind::BrokenPipe.into());
        };
        if let Some((log, name)) = &self.log {
            for line in lines {
                log.line(name, Direction::ToEngine, line.as_ref());
            }
        }
        for line in lines {
            stdin.write_all(line.as_ref())?;
            stdin.write_all(b"\n")?;
        }
        stdin.flush()
    }

    /// After [`Received::Closed`]: how the process ended ("exited unexpectedly with
    /// status 1", "died unexpectedly from signal 11").
    pub fn exit_description(&mut self) -> String {
        ProcessEnding::of(wait_bounded(&mut self.child, Duration::from_secs(1))).describe()
    }

    /// Sends `quit_lines`, closes stdin and gives the engine `grace` to exit before it is
    /// killed.
    pub fn stop<L: AsRef<[u8]>>(mut self, quit_lines: &[L], grace: Duration) {
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
        // Its last stderr lines, then no more logging from its stderr thread (which
        // outlives it only if a child of the engine holds its stderr).
        self.await_stderr();
        if let Some(target) = &self.stderr_log {
            *lock(target) = None;
        }
    }
}

fn lock(target: &LogTarget) -> std::sync::MutexGuard<'_, Option<(GameLog, String)>> {
    target
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The stderr thread: logs each line of `stderr` to `target` as it comes (CR LF as LF,
/// the last line even without `\n`); `done` is dropped at the end of the stream.
fn log_stderr(mut stderr: ChildStderr, target: &LogTarget, done: mpsc::Sender<()>) {
    let tap = |line: &[u8]| {
        if let Some((log, name)) = &*lock(target) {
            log.line(name, Direction::Stderr, line);
        }
    };
    let mut pending = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let read = match stderr.read(&mut chunk) {
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        pending.extend_from_slice(&chunk[..read]);
        let mut used = 0;
        while let Some(end) = memchr::memchr(b'\n', &pending[used..]) {
            let line = &pending[used..used + end];
            tap(line.strip_suffix(b"\r").unwrap_or(line));
            used += end + 1;
        }
        pending.drain(..used);
    }
    if !pending.is_empty() {
        tap(&pending);
    }
    drop(done);
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;
    use crate::test_child;

    /// What a test saw: a line's bytes, or how the reading ended.
    #[derive(Debug, PartialEq)]
    enum Seen {
        Line(Vec<u8>),
        End(Received<'static>),
    }

    /// The child playing `script` (in [`scripted_child`]), logged to `log` as `Crashy`,
    /// read up to its READY line; with those lines read.
    fn spawn(script: &str, log: Option<&GameLog>) -> (EngineProcess, Vec<Vec<u8>>) {
        let command = EngineCommand {
            program: test_child::program().into(),
            args: test_child::args(module_path!(), script),
            dir: None,
        };
        let log = log.map(|log| (log.clone(), "Crashy".to_owned()));
        let mut process = EngineProcess::spawn(&command, log).unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        let prelude = test_child::skip_to_ready(|| match process.receive(deadline) {
            Received::Line(line) => Some(line.to_vec()),
            _ => None,
        });
        (process, prelude)
    }

    /// Every line the child playing `script` writes after READY, then `Closed`.
    fn lines_of(script: &str) -> Vec<Seen> {
        let (mut process, _) = spawn(script, None);
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
        let seen = lines_of("lines");
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
        let (mut process, _) = spawn("silent", None);
        for wait in [50, 130] {
            let begin = Instant::now();
            let got = process.receive(begin + Duration::from_millis(wait));
            assert_eq!(got, Received::Timeout);
            let waited = begin.elapsed();
            // On the deadline (by the thread's timer), not a tick later.
            assert!(
                (wait..wait + 90).contains(&(waited.as_millis() as u64)),
                "{waited:?} for {wait} ms"
            );
        }
    }

    #[test]
    fn stderr_is_logged_from_its_first_line_to_the_crash_message_before_closed() {
        let dir = tempfile::tempdir().unwrap();
        let log = GameLog::default();
        log.start(dir.path(), 1).unwrap();
        let (mut process, prelude) = spawn("crashy", Some(&log));
        // The child writes nothing more until it is told to go.
        process.send(&["go"]).unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        assert_eq!(process.receive(deadline), Received::Line(b"id name Crashy"));
        assert_eq!(process.receive(deadline), Received::Closed);
        // What the log holds when the game ends, before the process is dropped.
        log.finish().unwrap();
        let text = std::fs::read_to_string(crate::launch::log::game_file(dir.path(), 1)).unwrap();
        let tails: Vec<&str> = text
            .lines()
            .map(|line| line.split_once(' ').unwrap().1)
            .collect();
        let mut expected: Vec<String> = prelude
            .iter()
            .map(|line| format!("Crashy < {}", String::from_utf8_lossy(line)))
            .collect();
        expected.extend(
            [
                "Crashy > go",
                "Crashy ! starting",
                "Crashy < id name Crashy",
                "Crashy ! warming up",
                "Crashy ! fatal: out of ideas",
                "Crashy ! last words",
            ]
            .map(str::to_owned),
        );
        assert_eq!(tails, expected);
        assert_eq!(
            process.exit_description(),
            "exited unexpectedly with status 3"
        );
    }

    #[test]
    #[ignore = "the scripted child of the tests above: they run it"]
    fn scripted_child() {
        let Some(script) = test_child::script() else {
            return;
        };
        let pause = |ms| thread::sleep(Duration::from_millis(ms));
        let mut out = io::stdout().lock();
        let mut err = io::stderr().lock();
        match script.as_str() {
            // A line longer than a read, 3000 lines ending in CR LF in one write, a byte
            // that is not UTF-8, a line in two writes and a last line without `\n`.
            "lines" => {
                out.write_all(&[b'a'; 200_000]).unwrap();
                out.write_all(b"\n").unwrap();
                out.flush().unwrap();
                let mut infos = Vec::new();
                for n in 0..3000 {
                    write!(infos, "info depth {n}\r\n").unwrap();
                }
                out.write_all(&infos).unwrap();
                out.flush().unwrap();
                pause(50);
                out.write_all(b"bad \xff byte\nhalf").unwrap();
                out.flush().unwrap();
                pause(50);
                out.write_all(b" line\nlast").unwrap();
                test_child::exit(0);
            }
            // Silence.
            "silent" => {
                pause(5000);
                test_child::exit(0);
            }
            // Once told to go: stderr before, between and after its one line on stdout,
            // CR LF and a last line without `\n`, then it exits with status 3.
            "crashy" => {
                let mut go = String::new();
                io::stdin().read_line(&mut go).unwrap();
                assert_eq!(go, "go\n");
                err.write_all(b"starting\n").unwrap();
                pause(100);
                out.write_all(b"id name Crashy\n").unwrap();
                out.flush().unwrap();
                pause(200);
                err.write_all(b"warming up\r\n").unwrap();
                pause(100);
                err.write_all(b"fatal: out of ideas\nlast words").unwrap();
                test_child::exit(3);
            }
            other => panic!("no script {other}"),
        }
    }
}
