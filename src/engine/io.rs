//! The I/O loop around a [`SearchSession`]: a thread reads the GUI's lines, a thread per search
//! thinks, and this loop alone writes, flushing after every batch so the GUI sees each
//! answer at once.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::thread::{self, JoinHandle};

use super::search::{self, SearchReport, SearchResult};
use super::{EngineEvent, Frontend, SearchSession, Step};

enum Event {
    Line(String),
    EndOfInput,
    Info(u64, SearchReport),
    Done(u64, SearchResult),
}

/// A search thread; dropping it stops and joins the thread.
struct RunningSearch {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for RunningSearch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Runs the engine (`sp960 engine`) on `input` and `output` until `quit` or the end of the
/// input: UCI or XBoard as the first command says. The reading thread it starts ends when
/// `input` does.
pub fn run<R, W>(input: R, output: W) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    serve(&mut Frontend::default(), input, output)
}

/// Runs any [`SearchSession`] on `input` and `output` (see [`run`]).
pub fn serve<R, W>(session: &mut dyn SearchSession, input: R, mut output: W) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let (sender, events) = mpsc::channel();
    let reader = sender.clone();
    thread::spawn(move || read_lines(input, reader));
    let mut running: Option<RunningSearch> = None;
    loop {
        // `sender` lives as long as this loop, so the channel never disconnects.
        let Ok(event) = events.recv() else {
            return Ok(());
        };
        let actions = match event {
            Event::Line(line) => session.on_gui_line(&line),
            Event::EndOfInput => session.on_end_of_input(),
            Event::Info(id, info) => session.on_info(id, &info),
            Event::Done(id, result) => session.on_done(id, result),
        };
        let mut quit = false;
        for action in actions {
            match action {
                Step::Send { line, .. } => {
                    output.write_all(&line)?;
                    output.write_all(b"\n")?;
                }
                Step::Forward => {}
                Step::Event(EngineEvent::Search { id, job }) => {
                    drop(running.take());
                    running = Some(start_search(id, job, sender.clone()));
                }
                Step::Event(EngineEvent::Stop) => {
                    if let Some(search) = &running {
                        search.stop.store(true, Ordering::Relaxed);
                    }
                }
                Step::Event(EngineEvent::Quit) => quit = true,
            }
        }
        output.flush()?;
        if quit {
            return Ok(());
        }
    }
}

fn start_search(id: u64, job: Box<search::SearchJob>, events: Sender<Event>) -> RunningSearch {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let thread = thread::spawn(move || {
        let result = search::search(&job, &flag, &mut |info| {
            let _ = events.send(Event::Info(id, info.clone()));
        });
        let _ = events.send(Event::Done(id, result));
    });
    RunningSearch {
        stop,
        thread: Some(thread),
    }
}

/// Sends each line of `input` (line ending removed, invalid UTF-8 replaced), then the end.
fn read_lines(mut input: impl BufRead, events: Sender<Event>) {
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buffer);
                let line = line.trim_end_matches(['\n', '\r']).to_owned();
                if events.send(Event::Line(line)).is_err() {
                    return;
                }
            }
        }
    }
    let _ = events.send(Event::EndOfInput);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn run_text(input: &str) -> String {
        let mut output = Vec::new();
        run(io::Cursor::new(input.to_owned()), &mut output).unwrap();
        String::from_utf8(output).unwrap()
    }

    #[test]
    fn uci_session_on_streams() {
        let out = run_text("uci\nisready\nposition startpos moves e2e4\ngo depth 2\n");
        let lines: Vec<&str> = out.lines().collect();
        assert!(
            lines.contains(&"uciok") && lines.contains(&"readyok"),
            "{out}"
        );
        assert!(lines.last().unwrap().starts_with("bestmove "), "{out}");
    }

    /// Starts the engine on a pipe (input stays open until `writer` is dropped) and sends
    /// `first`, then after 200 ms `second`; returns the output and the time taken.
    fn run_piped(first: &str, second: &str, close: bool) -> (String, Duration) {
        let (reader, mut writer) = io::pipe().unwrap();
        let engine = thread::spawn(move || {
            let mut output = Vec::new();
            run(io::BufReader::new(reader), &mut output).map(|()| output)
        });
        let started = Instant::now();
        writeln!(writer, "{first}").unwrap();
        thread::sleep(Duration::from_millis(200));
        writeln!(writer, "{second}").unwrap();
        if close {
            drop(writer);
        }
        let output = String::from_utf8(engine.join().unwrap().unwrap()).unwrap();
        (output, started.elapsed())
    }

    #[test]
    fn isready_and_stop_are_answered_while_searching() {
        let (output, elapsed) =
            run_piped("uci\nposition startpos\ngo infinite", "isready\nstop", true);
        assert!(elapsed < Duration::from_secs(5));
        let lines: Vec<&str> = output.lines().collect();
        let ready = lines.iter().position(|line| *line == "readyok").unwrap();
        let best = lines
            .iter()
            .position(|line| line.starts_with("bestmove "))
            .unwrap();
        assert!(ready < best, "{output}");
        assert!(
            lines[..best]
                .iter()
                .any(|line| line.starts_with("info depth")),
            "{output}"
        );
    }

    #[test]
    fn go_right_after_stop_starts_once_the_stopped_search_has_answered() {
        let (output, elapsed) = run_piped(
            "uci\nposition startpos\ngo depth 50",
            "stop\nposition startpos moves e2e4\ngo depth 1",
            true,
        );
        assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
        assert!(!output.contains("error"), "{output}");
        let best: Vec<&str> = output
            .lines()
            .filter(|line| line.starts_with("bestmove "))
            .collect();
        assert_eq!(best.len(), 2, "{output}");
        // The second answer is for Black after 1. e4.
        let reply = best[1].split_whitespace().nth(1).unwrap();
        assert!(reply.ends_with('6') || reply.ends_with('5'), "{output}");
    }

    #[test]
    fn quit_ends_an_infinite_search_at_once() {
        let (output, elapsed) = run_piped("uci\ngo infinite", "quit", false);
        assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
        assert!(output.contains("uciok"), "{output}");
    }

    #[test]
    fn xboard_session_on_streams() {
        let out = run_text("xboard\nprotover 2\nnew\nsd 2\nusermove e2e4\nping 7\n");
        let lines: Vec<&str> = out.lines().collect();
        let moved = lines
            .iter()
            .position(|line| line.starts_with("move "))
            .unwrap();
        assert_eq!(lines.last(), Some(&"pong 7"), "{out}");
        assert!(moved < lines.len() - 1);
    }
}
