//! A child process spoken to line by line, as a GUI speaks to an engine (or to the proxy):
//! the harness the proxy tests share (`#[path]`-included by tests/proxy_uci.rs and
//! tests/proxy_xboard.rs, which add their protocol's commands on top). Every wait is
//! bounded; the process is killed when dropped.
#![allow(dead_code)] // each test crate uses its part

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

/// The longest wait for an expected line.
pub const WAIT: Duration = Duration::from_secs(20);

/// The sp960 binary under test.
pub fn sp960() -> &'static str {
    env!("CARGO_BIN_EXE_sp960")
}

/// The scripted engine (examples/fake_uci_engine.rs), built by `cargo test` with the other
/// examples.
pub fn fake_engine() -> std::path::PathBuf {
    let deps = std::env::current_exe().unwrap();
    let examples = deps.parent().unwrap().parent().unwrap().join("examples");
    let engine = examples.join(if cfg!(windows) {
        "fake_uci_engine.exe"
    } else {
        "fake_uci_engine"
    });
    assert!(
        engine.exists(),
        "{} missing: cargo test builds examples",
        engine.display()
    );
    engine
}

/// A running process with its stdin, and its stdout read line by line on a thread.
pub struct LineProcess {
    pub child: Child,
    /// `None` once closed (the process sees the end of its input).
    pub stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far, for checks and failure messages.
    pub seen: Vec<String>,
}

impl LineProcess {
    /// Starts `program` with piped stdin and stdout; `stderr` as given.
    pub fn spawn(program: &str, args: &[&str], stderr: Stdio) -> LineProcess {
        let mut command = Command::new(program);
        command.args(args).stderr(stderr);
        LineProcess::start(command)
    }

    /// Starts `command` (its arguments, directory and stderr already chosen) with piped
    /// stdin and stdout.
    pub fn start(mut command: Command) -> LineProcess {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|err| panic!("{command:?}: {err}"));
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).split(b'\n') {
                let Ok(line) = line else { break };
                if send
                    .send(String::from_utf8_lossy(&line).into_owned())
                    .is_err()
                {
                    break;
                }
            }
        });
        LineProcess {
            stdin: child.stdin.take(),
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// Writes `line` and a newline, flushed.
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .unwrap_or_else(|err| panic!("sending {line:?}: {err}; seen {:?}", self.seen));
    }

    /// Reads lines up to and including the first that satisfies `done` (`what` names it
    /// in the failure message when it does not come within [`WAIT`]).
    pub fn until(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.within(WAIT, done).unwrap_or_else(|err| {
            panic!(
                "waiting for {what}: {err}; read so far:\n{}",
                self.seen.join("\n")
            )
        })
    }

    /// Reads lines up to and including the first that satisfies `done`, for at most
    /// `limit`; the error says whether the time ran out or the output ended.
    pub fn within(
        &mut self,
        limit: Duration,
        done: impl Fn(&str) -> bool,
    ) -> Result<Vec<String>, RecvTimeoutError> {
        let deadline = Instant::now() + limit;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.lines.recv_timeout(left)?;
            self.seen.push(line.clone());
            got.push(line.clone());
            if done(&line) {
                return Ok(got);
            }
        }
    }

    /// Reads up to the first line matching `done`, which it returns.
    pub fn wait_for(&mut self, done: impl Fn(&str) -> bool) -> String {
        self.until("a matching line", done).pop().expect("one line")
    }

    /// Waits up to `limit` for the process to exit on its own (killed and failed after).
    pub fn wait(&mut self, limit: Duration) -> ExitStatus {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("did not exit within {limit:?}; seen {:?}", self.seen);
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// All of stderr (when piped), once the process has exited.
    pub fn stderr(&mut self) -> String {
        let mut text = String::new();
        self.child
            .stderr
            .take()
            .expect("stderr piped")
            .read_to_string(&mut text)
            .unwrap();
        text
    }
}

impl Drop for LineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs the python-chess script `script` (a path from the crate root) with the sp960
/// binary as its argument, killed after `seconds`; it must succeed. Returns its stdout.
pub fn run_python_client(script: &str, seconds: u32) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(script);
    let output = Command::new("timeout")
        .args(["-k", "5", &seconds.to_string(), "python3"])
        .arg(&path)
        .arg(sp960())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{script}: {}\n{stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// python-chess replays every game of the PGN file `pgn` (tests/python/replay_games.py),
/// which must succeed; returns its report (one tab-separated line per game).
pub fn replay_games(pgn: &std::path::Path) -> String {
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/replay_games.py");
    let output = Command::new("python3")
        .arg(script)
        .arg(pgn)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "python-chess: {}\n{}",
        String::from_utf8_lossy(&output.stderr),
        std::fs::read_to_string(pgn).unwrap_or_default()
    );
    String::from_utf8(output.stdout).unwrap()
}
