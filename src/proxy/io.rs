//! The I/O shell that runs a [`Session`] between our stdin/stdout (the GUI) and an engine
//! process: spawn, two relay threads, stderr passthrough, signal forwarding, bounded wait
//! on quit, exit status.
//!
//! Each relay thread reads whatever its pipe has (up to 64 KiB), hands every complete
//! line to the session (one lock per read, not per line), then writes the resulting lines
//! and flushes once its input is drained: a line is never held back while the proxy
//! waits for more input, and a flood of output costs one `write` per read, not per line.
//! The engine's stderr is inherited: it reaches ours untouched.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::ops::Range;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::OnceLock;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

use thiserror::Error;

use super::transcript::{Entry, Transcript};
use super::{Action, EngineExit, Peer, ProxyEvent, Relay, Session, Step};
use crate::exit_code;
use crate::launch::command::{EngineCommand, SpawnError, spawn_engine};
use crate::os::process::{ProcessEnding, forward_signals_to, signal_forwarded, wait_bounded};
use crate::os::stdio::{enlarge_pipe, raw_stdin_stdout};

/// How the shell behaves.
#[derive(Debug, Clone)]
pub struct ShellOptions {
    /// Where to write the transcript (`--log FILE`).
    pub log: Option<PathBuf>,
    /// How long the engine gets to exit after `quit` before it is killed.
    pub quit_timeout: Duration,
}

impl Default for ShellOptions {
    fn default() -> ShellOptions {
        ShellOptions {
            log: None,
            quit_timeout: Duration::from_secs(2),
        }
    }
}

/// Why the proxy could not run at all.
#[derive(Debug, Error)]
pub enum ShellError {
    /// The engine could not be started.
    #[error("proxy: {0}")]
    Spawn(#[from] SpawnError),
    /// The transcript file cannot be written.
    #[error("proxy: cannot write log file '{0}': {1}")]
    Log(String, io::Error),
    /// Our stdin or stdout cannot be used.
    #[error("proxy: {0}")]
    Io(#[from] io::Error),
}

impl ShellError {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            ShellError::Spawn(err) => err.exit_code(),
            ShellError::Log(..) | ShellError::Io(_) => exit_code::USAGE,
        }
    }
}

/// What the relay threads tell the main thread.
enum Event {
    /// The session asked to shut down (GUI sent quit, or its input ended).
    Shutdown,
    /// The session failed: exit code and message.
    Fail(u8, String),
    /// Engine stdout reached end of file.
    EngineEof,
    /// Our stdin reached end of file (after the session's reaction to it).
    GuiEof,
    /// The GUI is gone: it closed our stdout, or our stdin and the session did not
    /// shut down in time.
    GuiGone,
}

struct Shared<S> {
    session: Mutex<S>,
    gui_out: Mutex<BufWriter<File>>,
    engine_in: Mutex<Option<BufWriter<ChildStdin>>>,
    transcript: Option<Mutex<Transcript>>,
    events: Sender<Event>,
    /// The clock thread, unparked when the session sets a deadline earlier than the one it
    /// sleeps until.
    clock_thread: OnceLock<Thread>,
    /// The deadline the clock thread sleeps until (`None`: parked for good, or awake).
    clock_wakes_at: Mutex<Option<Instant>>,
}

/// Runs `session` between our stdin/stdout and the engine until the GUI quits or the
/// engine exits; returns the proxy's exit code: the engine's status (0 after a clean
/// `quit`, 128 + signal if it was killed), [`exit_code::ENGINE_EXITED`] if it exited with
/// 0 unasked, or the code of an [`ProxyEvent::Fail`](super::ProxyEvent::Fail).
pub fn run<S: Relay + 'static>(
    session: S,
    command: &EngineCommand,
    options: &ShellOptions,
) -> Result<u8, ShellError> {
    let transcript = match &options.log {
        Some(path) => {
            Some(Mutex::new(Transcript::create(path).map_err(|err| {
                ShellError::Log(path.display().to_string(), err)
            })?))
        }
        None => None,
    };
    // Raw descriptors: std's stdout is line-buffered, and we decide when to flush.
    let (gui_in, gui_out) = raw_stdin_stdout()?;
    let mut child = spawn_engine(command, Stdio::inherit())?;
    forward_signals_to(child.id());
    let engine_in = child.stdin.take().expect("piped");
    let engine_out = child.stdout.take().expect("piped");
    enlarge_pipe(&engine_out);
    let (events, received) = mpsc::channel();
    let shared = Arc::new(Shared {
        session: Mutex::new(session),
        gui_out: Mutex::new(BufWriter::with_capacity(256 * 1024, gui_out)),
        engine_in: Mutex::new(Some(BufWriter::with_capacity(16 * 1024, engine_in))),
        transcript,
        events,
        clock_thread: OnceLock::new(),
        clock_wakes_at: Mutex::new(None),
    });
    {
        // The sessions' clock: their deadlines (a line held a moment, the clock guard).
        // Started first, so a relay thread always finds it to unpark.
        let shared_by_clock = Arc::clone(&shared);
        let clock_thread = thread::Builder::new()
            .name("clock".to_owned())
            .spawn(move || clock(&shared_by_clock))?;
        let _ = shared.clock_thread.set(clock_thread.thread().clone());
    }
    for (from, input) in [
        (Peer::Gui, Box::new(gui_in) as Box<dyn Read + Send>),
        (Peer::Engine, Box::new(engine_out)),
    ] {
        let shared = Arc::clone(&shared);
        thread::Builder::new()
            .name(format!("relay-{from:?}"))
            .spawn(move || relay(from, input, &shared))?;
    }
    let code = supervise(
        &shared,
        &received,
        &mut child,
        command,
        options.quit_timeout,
    );
    if let Some(transcript) = &shared.transcript {
        let _ = lock(transcript).flush();
    }
    let _ = lock(&shared.gui_out).flush();
    Ok(code)
}

/// The main thread: waits for the first decisive event, then for the engine; an engine
/// the session takes back ([`ProxyEvent::Restart`]) is started again in `child`'s place.
fn supervise<S: Relay + 'static>(
    shared: &Arc<Shared<S>>,
    received: &Receiver<Event>,
    child: &mut Child,
    command: &EngineCommand,
    quit_timeout: Duration,
) -> u8 {
    loop {
        if let Some(code) = supervise_once(shared, received, child, command, quit_timeout) {
            return code;
        }
    }
}

/// One decisive event: `Some(exit code)`, or `None` when the engine was restarted.
fn supervise_once<S: Relay + 'static>(
    shared: &Arc<Shared<S>>,
    received: &Receiver<Event>,
    child: &mut Child,
    command: &EngineCommand,
    quit_timeout: Duration,
) -> Option<u8> {
    let mut event = received.recv().unwrap_or(Event::EngineEof);
    if let Event::GuiEof = event {
        // The session may finish first (lines it held for the engine's `uciok`); it gets
        // the quit timeout to do so, then the engine is told to quit.
        event = match received.recv_timeout(quit_timeout) {
            Ok(Event::GuiEof) | Err(_) => Event::GuiGone,
            Ok(event) => event,
        };
    }
    match event {
        Event::Shutdown | Event::GuiGone | Event::GuiEof | Event::Fail(..) => {
            if !matches!(event, Event::Shutdown) {
                write_to(shared, Peer::Engine, b"quit\n");
            }
            // Close the engine's stdin: engines that wait for input see the end of it.
            let _ = lock(&shared.engine_in).take().map(|mut w| w.flush());
            let status = wait_bounded(child, quit_timeout);
            drain_engine_output(received);
            if let Event::Fail(code, message) = event {
                eprintln!("sp960: {message}");
                record(shared, Entry::Event, message.as_bytes());
                return Some(code);
            }
            Some(ProcessEnding::of(status).shell_code())
        }
        Event::EngineEof => {
            let status = wait_bounded(child, quit_timeout);
            let ending = ProcessEnding::of(status);
            let how = ending.describe();
            eprintln!("sp960: proxy: the engine {how}");
            record(shared, Entry::Event, format!("the engine {how}").as_bytes());
            let mut actions = Vec::new();
            {
                let mut session = lock(&shared.session);
                session.set_now(Instant::now());
                // A signal we passed on (Ctrl-C, SIGTERM) ended it: not a crash to undo.
                let exit = EngineExit {
                    ending,
                    restartable: !signal_forwarded(),
                };
                session.on_engine_exit(exit, &mut actions);
            }
            let restart = actions
                .iter()
                .position(|action| *action == Step::Event(ProxyEvent::Restart));
            let (before, after) = actions.split_at(restart.unwrap_or(actions.len()));
            perform_all(shared, before);
            if restart.is_some() {
                match restart_engine(shared, command) {
                    Ok(new) => {
                        *child = new;
                        perform_all(shared, &after[1..]);
                        return None;
                    }
                    Err(err) => {
                        let message = format!("{err}; giving up");
                        eprintln!("sp960: {message}");
                        record(shared, Entry::Event, message.as_bytes());
                    }
                }
            }
            Some(match ProcessEnding::of(status).shell_code() {
                0 => exit_code::ENGINE_EXITED,
                code => code,
            })
        }
    }
}

/// Carries out actions that answer no line read (the clock's, the engine's exit).
fn perform_all<S>(shared: &Shared<S>, actions: &[Action]) -> bool {
    perform(
        shared,
        Peer::Engine,
        &[],
        &[(0..0, 0..actions.len())],
        actions,
    )
}

/// Starts the engine again (`--restart-engine`): its stdin replaces the dead one's, a new
/// relay thread reads its stdout, signals go to it.
fn restart_engine<S: Relay + 'static>(
    shared: &Arc<Shared<S>>,
    command: &EngineCommand,
) -> Result<Child, ShellError> {
    let mut child = spawn_engine(command, Stdio::inherit())?;
    forward_signals_to(child.id());
    let engine_in = child.stdin.take().expect("piped");
    let engine_out = child.stdout.take().expect("piped");
    enlarge_pipe(&engine_out);
    *lock(&shared.engine_in) = Some(BufWriter::with_capacity(16 * 1024, engine_in));
    let relay_shared = Arc::clone(shared);
    thread::Builder::new()
        .name("relay-Engine".to_owned())
        .spawn(move || relay(Peer::Engine, Box::new(engine_out), &relay_shared))?;
    Ok(child)
}

/// After quit: gives the engine's last lines a moment to be relayed.
fn drain_engine_output(received: &Receiver<Event>) {
    let deadline = Instant::now() + Duration::from_millis(500);
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        match received.recv_timeout(left) {
            Ok(Event::EngineEof) | Err(_) => return,
            Ok(_) => {}
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn record<S>(shared: &Shared<S>, entry: Entry, text: &[u8]) {
    if let Some(transcript) = &shared.transcript {
        let _ = lock(transcript).record(entry, text);
    }
}

/// Writes `bytes` (a line with its ending) to `to`; false when that pipe is gone.
fn write_to<S>(shared: &Shared<S>, to: Peer, bytes: &[u8]) -> bool {
    match to {
        Peer::Gui => lock(&shared.gui_out).write_all(bytes).is_ok(),
        Peer::Engine => match lock(&shared.engine_in).as_mut() {
            Some(writer) => writer.write_all(bytes).is_ok(),
            None => false,
        },
    }
}

fn flush<S>(shared: &Shared<S>, to: Peer) -> bool {
    match to {
        Peer::Gui => lock(&shared.gui_out).flush().is_ok(),
        Peer::Engine => lock(&shared.engine_in)
            .as_mut()
            .is_none_or(|writer| writer.flush().is_ok()),
    }
}

/// One direction: reads `input` (lines from `from`) until end of file or shutdown.
fn relay<S: Relay>(from: Peer, mut input: Box<dyn Read + Send>, shared: &Shared<S>) {
    let mut buffer = vec![0u8; 256 * 1024];
    let mut filled = 0;
    let mut actions = Vec::new();
    // Per complete line: its bytes in `buffer` (with ending) and its actions.
    let mut lines: Vec<(Range<usize>, Range<usize>)> = Vec::new();
    loop {
        if filled == buffer.len() {
            buffer.resize(buffer.len() * 2, 0);
        }
        let read = match input.read(&mut buffer[filled..]) {
            Ok(0) => None,
            Ok(n) => Some(n),
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => None,
        };
        let Some(read) = read else {
            // End of input: a last line without `\n` still counts, and gets one (the
            // proxy's own `quit` or report may follow it).
            actions.clear();
            lines.clear();
            let mut session = lock(&shared.session);
            if filled > 0 {
                buffer[filled] = b'\n';
                filled += 1;
                feed(&mut *session, from, &buffer[..filled], &mut actions);
                lines.push((0..filled, 0..actions.len()));
            }
            let before = actions.len();
            match from {
                Peer::Gui => session.on_closed(Peer::Gui, "", &mut actions),
                Peer::Engine => session.on_engine_eof(),
            }
            lines.push((filled..filled, before..actions.len()));
            drop(session);
            perform(shared, from, &buffer, &lines, &actions);
            let _ = shared.events.send(match from {
                Peer::Gui => Event::GuiEof,
                Peer::Engine => Event::EngineEof,
            });
            return;
        };
        let scan_from = filled;
        filled += read;
        actions.clear();
        lines.clear();
        let mut start = 0;
        let wake_clock = {
            let mut session = lock(&shared.session);
            session.set_now(Instant::now());
            for end in memchr::memchr_iter(b'\n', &buffer[scan_from..filled]) {
                let end = scan_from + end;
                let before = actions.len();
                feed(&mut *session, from, &buffer[start..end], &mut actions);
                lines.push((start..end + 1, before..actions.len()));
                start = end + 1;
            }
            clock_needed(&*session, shared)
        };
        if wake_clock && let Some(clock) = shared.clock_thread.get() {
            // No system call unless the clock is parked.
            clock.unpark();
        }
        if !perform(shared, from, &buffer, &lines, &actions) {
            return;
        }
        buffer.copy_within(start..filled, 0);
        filled -= start;
    }
}

/// Whether the clock thread must be woken for `session`: it has a deadline earlier than
/// the one the clock sleeps until.
fn clock_needed<S: Relay>(session: &S, shared: &Shared<S>) -> bool {
    session
        .poll_timeout()
        .is_some_and(|deadline| lock(&shared.clock_wakes_at).is_none_or(|wakes| deadline < wakes))
}

/// Calls the session's [`Relay::handle_timeout`] when its [deadline](Relay::poll_timeout)
/// comes, and carries out what it asks; parked otherwise (a relay thread unparks it when a
/// line sets an earlier deadline), so an idle proxy is never woken.
fn clock<S: Relay>(shared: &Shared<S>) {
    let mut actions = Vec::new();
    loop {
        actions.clear();
        let now = Instant::now();
        let deadline = {
            let mut session = lock(&shared.session);
            if session
                .poll_timeout()
                .is_some_and(|deadline| deadline <= now)
            {
                session.set_now(now);
                session.handle_timeout(now, &mut actions);
            }
            session.poll_timeout()
        };
        if !actions.is_empty() && !perform_all(shared, &actions) {
            return;
        }
        *lock(&shared.clock_wakes_at) = deadline;
        match deadline {
            Some(deadline) => {
                thread::park_timeout(deadline.saturating_duration_since(Instant::now()))
            }
            None => thread::park(),
        }
    }
}

fn feed(
    session: &mut dyn Session<Event = ProxyEvent>,
    from: Peer,
    line: &[u8],
    actions: &mut Vec<Action>,
) {
    session.on_line(from, line.strip_suffix(b"\n").unwrap_or(line), actions);
}

/// What a batch wrote, and whether the GUI is still there.
struct Written {
    to: [bool; 2],
    gui_ok: bool,
}

impl Written {
    fn write<S>(&mut self, shared: &Shared<S>, to: Peer, bytes: &[u8]) {
        // A dead engine is noticed by its relay (end of file), a dead GUI here.
        self.gui_ok &= write_to(shared, to, bytes) || to == Peer::Engine;
        self.to[usize::from(to == Peer::Engine)] = true;
    }
}

/// Carries out the actions of a batch of lines read from `from`, then flushes. Returns
/// false when the relay should stop (shutdown, failure, or the GUI is gone).
fn perform<S>(
    shared: &Shared<S>,
    from: Peer,
    buffer: &[u8],
    lines: &[(Range<usize>, Range<usize>)],
    actions: &[Action],
) -> bool {
    let mut keep_going = true;
    let mut written = Written {
        to: [false; 2],
        gui_ok: true,
    };
    let forward_to = from.other();
    // Consecutive forwarded lines are contiguous in `buffer`: written with one call.
    let mut pending: Range<usize> = 0..0;
    for (bytes, line_actions) in lines {
        let line_actions = &actions[line_actions.clone()];
        let line = &buffer[bytes.clone()];
        let text = line.strip_suffix(b"\n").unwrap_or(line);
        // A forwarded line is logged where it goes out (after a line the session sends
        // before it); one the session keeps, when it is read.
        if shared.transcript.is_some()
            && !bytes.is_empty()
            && !line_actions.contains(&Action::Forward)
        {
            record(shared, Entry::Consumed(from), text);
        }
        for action in line_actions {
            if *action == Action::Forward {
                if shared.transcript.is_some() {
                    record(shared, Entry::Forwarded(from), text);
                }
                if pending.end != bytes.start {
                    written.write(shared, forward_to, &buffer[pending.clone()]);
                    pending.start = bytes.start;
                }
                pending.end = bytes.end;
                continue;
            }
            if pending.start < pending.end {
                written.write(shared, forward_to, &buffer[pending.clone()]);
            }
            pending = 0..0;
            match action {
                Action::Forward => unreachable!("handled above"),
                Action::Send { to, line, mark } => {
                    record(shared, Entry::Sent(*to, *mark), line);
                    let mut bytes = Vec::with_capacity(line.len() + 1);
                    bytes.extend_from_slice(line);
                    bytes.push(b'\n');
                    written.write(shared, *to, &bytes);
                }
                Step::Event(ProxyEvent::Warn(message)) => {
                    eprintln!("sp960: {message}");
                    record(shared, Entry::Event, message.as_bytes());
                }
                // The GUI's relay stops reading; the engine's goes on to its end of file,
                // so nothing the engine says before it exits is lost.
                Step::Event(ProxyEvent::Shutdown) => {
                    keep_going = from == Peer::Engine;
                    let _ = shared.events.send(Event::Shutdown);
                }
                Step::Event(ProxyEvent::Fail { code, message }) => {
                    keep_going = from == Peer::Engine;
                    let _ = shared.events.send(Event::Fail(*code, message.clone()));
                }
                // Done by `supervise`, which owns the engine process.
                Step::Event(ProxyEvent::Restart) => {}
            }
        }
    }
    if pending.start < pending.end {
        written.write(shared, forward_to, &buffer[pending]);
    }
    // The engine's lines first: a GUI that reacts to a line of this batch (a `bestmove`
    // sent after lines the session released for the engine) finds them sent.
    for peer in [Peer::Engine, Peer::Gui] {
        if written.to[usize::from(peer == Peer::Engine)] {
            written.gui_ok &= flush(shared, peer) || peer == Peer::Engine;
        }
    }
    if let Some(transcript) = &shared.transcript {
        let _ = lock(transcript).flush();
    }
    if !written.gui_ok {
        let _ = shared.events.send(Event::GuiGone);
        return false;
    }
    keep_going
}
