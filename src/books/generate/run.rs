//! The long run: one engine per worker thread, each taking the next start; results
//! committed to the book in start order (so the bytes do not depend on `--concurrency`),
//! a progress line on a terminal, Ctrl-C ending with the finished starts written, `--resume`
//! reading a book back and going on, and an engine that crashes or hangs restarted.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use thiserror::Error;

use super::engine::{BookEngine, BookEngineFailure, BookEngineSetup};
use super::record::{ReadBackError, read_back, render};
use super::walk::{
    StartOpenings, Walk, WalkError, WalkSettings, WalkStep, Window, position_key, start_seed,
};
use crate::books::book::BookFormat;
use crate::clients::driver::Failure;
use crate::exit_code;
use crate::launch::command::SpawnError;
use crate::os::{cpu, interrupt};
use crate::starts::notation::CastlingNotation;
use crate::starts::start::{InvalidStart, Start};

/// How often a start is retried after its engine failed, before it is skipped.
pub const RETRIES: u32 = 2;

/// A whole generation.
#[derive(Debug, Clone)]
pub struct GenerateRequest {
    /// The starts, in book order.
    pub starts: Vec<Start>,
    /// How each start's openings are made.
    pub walk: WalkSettings,
    /// The engine every worker starts.
    pub engine: BookEngineSetup,
    /// Workers (engines) at once.
    pub concurrency: usize,
    /// EPD, PGN or FEN records.
    pub format: BookFormat,
    /// The castling field of EPD and FEN records and PGN FEN tags.
    pub castling: CastlingNotation,
    /// The book file; stdout when `None`.
    pub output: Option<PathBuf>,
    /// Continue the book file: its positions are kept and its starts not made again.
    pub resume: bool,
    /// Print the timing summary (time, rate, CPU of sp960 and of the engines).
    pub timing: bool,
}

/// What a finished run did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BookSummary {
    /// Starts in the request.
    pub starts: usize,
    /// Starts taken from the resumed file.
    pub resumed: usize,
    /// Positions written by this run.
    pub positions: usize,
    /// Final positions searched (evaluated).
    pub evaluated: u64,
    /// Searches made, the evaluations included.
    pub searches: u64,
    /// Starts that got fewer than `--per-start` openings.
    pub short: usize,
    /// Starts skipped after their engine failed.
    pub skipped: usize,
    /// Starts whose walks reached no position in the window, and the first of them (its
    /// label and tries), for the error when the whole book stays empty.
    pub unreached: usize,
    /// The first start that reached no position: its label and its tries.
    pub first_unreached: Option<(String, u32)>,
}

/// Why the run stopped.
#[derive(Debug, Error)]
pub enum GenerateError {
    /// A bad option or combination: exit 2.
    #[error("{0}")]
    Usage(String),
    /// The engine cannot be used at all.
    #[error("{message}")]
    Engine {
        /// Exit code (127 not found, 126 not executable, 3 unsuitable).
        code: u8,
        /// What happened.
        message: String,
    },
    /// The engine cannot be started (its exit code: 127 not found, 126 not executable).
    #[error("--engine: {}", .0.to_string().trim_start_matches("proxy: "))]
    EngineStart(#[source] SpawnError),
    /// The engine started, but its UCI handshake failed.
    #[error("--engine: the UCI handshake failed: {0}")]
    Handshake(#[source] BookEngineFailure),
    /// The book cannot be written or read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The OS error.
        source: io::Error,
    },
    /// The resumed file is not a generated book.
    #[error("--resume: {path}: {source}")]
    ReadBack {
        /// The file.
        path: String,
        /// What is wrong.
        source: ReadBackError,
    },
    /// Ctrl-C: the finished starts are written.
    #[error("{0}")]
    Interrupted(String),
    /// A start shakmaty refused (a bug).
    #[error(transparent)]
    Invalid(#[from] InvalidStart),
}

impl GenerateError {
    /// The process exit code.
    pub fn exit_code(&self) -> u8 {
        match self {
            GenerateError::Usage(_) | GenerateError::Io { .. } => exit_code::USAGE,
            GenerateError::Engine { code, .. } => *code,
            GenerateError::EngineStart(err) => err.exit_code(),
            GenerateError::Handshake(_) => exit_code::ENGINE_UNSUITABLE,
            GenerateError::ReadBack { .. } | GenerateError::Invalid(_) => exit_code::INVALID_DATA,
            GenerateError::Interrupted(_) => exit_code::INTERRUPTED,
        }
    }
}

/// One start to make: its place in the request, the start, and its occurrence (the same
/// start asked for twice gets two random streams).
#[derive(Debug, Clone, Copy)]
struct StartJob {
    start: Start,
    occurrence: u32,
}

/// What a worker made of a job.
enum StartOutcome {
    Done(StartOpenings),
    Skipped(Start, String),
    Fatal(GenerateError),
    Interrupted,
}

/// Runs the request; book records to the file (or `stdout`), notes to stderr.
pub fn generate(
    request: &GenerateRequest,
    stdout: &mut dyn Write,
) -> Result<BookSummary, GenerateError> {
    let began = Instant::now();
    let cpu_before = cpu::process_seconds();
    // What a resumed book holds already.
    let (taken, mut done_labels, existing_text) = match (&request.output, request.resume) {
        (Some(path), true) => read_existing(path, request.format)?,
        _ => (HashSet::new(), HashMap::new(), false),
    };
    let (jobs, resumed) = plan_jobs(request, &mut done_labels);
    let mut book = BookWriter::new(
        request,
        open_output(request, stdout)?,
        taken,
        !existing_text,
    );
    book.summary.resumed = resumed;
    let _sigint = interrupt::Guard::install();
    run_workers(request, &jobs, &mut book, began);
    if book.progress {
        eprint!("\r\x1b[K");
    }
    book.out.flush().map_err(|source| GenerateError::Io {
        path: book.out_name.clone(),
        source,
    })?;
    let BookWriter {
        out_name,
        keys,
        summary,
        committed,
        failure,
        last_skip,
        ..
    } = book;
    if let Some(err) = failure {
        return Err(err);
    }
    if committed < jobs.len() {
        return Err(interrupted(
            request,
            &summary,
            resumed + committed,
            &out_name,
        ));
    }
    if let Some(err) = out_of_reach(&summary, request.walk.window, keys.is_empty()) {
        return Err(err);
    }
    if let Some(reason) = last_skip.filter(|_| summary.skipped == jobs.len() && !jobs.is_empty()) {
        return Err(GenerateError::Engine {
            code: exit_code::ENGINE_EXITED,
            message: format!("--engine: every start was skipped (the last, {reason})"),
        });
    }
    if request.timing {
        print_timing(began, cpu_before, &summary);
    }
    Ok(summary)
}

/// The jobs to run, in book order, and how many starts a resumed book holds already
/// (`done_labels`: each start's records in the book, used up as starts are matched).
fn plan_jobs(
    request: &GenerateRequest,
    done_labels: &mut HashMap<String, usize>,
) -> (Vec<StartJob>, usize) {
    let mut occurrences: HashMap<Start, u32> = HashMap::new();
    let mut jobs = Vec::new();
    let mut resumed = 0;
    for &start in &request.starts {
        let occurrence = occurrences.entry(start).or_default();
        let job = StartJob {
            start,
            occurrence: *occurrence,
        };
        *occurrence += 1;
        match done_labels.get_mut(&start.label()) {
            Some(count) if *count > 0 => {
                *count = count.saturating_sub(request.walk.per_start as usize);
                resumed += 1;
            }
            _ => jobs.push(job),
        }
    }
    (jobs, resumed)
}

/// The book file (appended to with `--resume`), or `stdout`.
fn open_output<'a>(
    request: &GenerateRequest,
    stdout: &'a mut dyn Write,
) -> Result<Box<dyn Write + 'a>, GenerateError> {
    let Some(path) = &request.output else {
        return Ok(Box::new(stdout));
    };
    let file = if request.resume {
        OpenOptions::new().create(true).append(true).open(path)
    } else {
        File::create(path)
    };
    let file = file.map_err(|source| GenerateError::Io {
        path: path.display().to_string(),
        source,
    })?;
    Ok(Box::new(io::BufWriter::new(file)))
}

/// The book's name in messages: its path, or `<stdout>`.
fn output_name(request: &GenerateRequest) -> String {
    request
        .output
        .as_ref()
        .map_or("<stdout>".to_owned(), |p| p.display().to_string())
}

/// The workers, each with its engine, and the loop that commits their starts in request
/// order (and shows the progress line on a terminal) until every worker is done.
fn run_workers(
    request: &GenerateRequest,
    jobs: &[StartJob],
    book: &mut BookWriter<'_>,
    began: Instant,
) {
    let settings = &request.walk;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let setup = Arc::new(request.engine.clone());
    let (sender, results) = mpsc::channel::<(usize, StartOutcome)>();
    let workers = request.concurrency.clamp(1, jobs.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let (next, stop, setup) = (&next, &stop, &setup);
            scope.spawn(move || worker(jobs, next, stop, setup, settings, &sender));
        }
        drop(sender);
        let mut pending: BTreeMap<usize, StartOutcome> = BTreeMap::new();
        let mut last_shown = Instant::now();
        loop {
            match results.recv_timeout(Duration::from_millis(250)) {
                Ok((index, outcome)) => {
                    pending.insert(index, outcome);
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            if interrupt::interrupted() {
                stop.store(true, Ordering::SeqCst);
            }
            book.commit_ready(&mut pending);
            if book.failure.is_some() {
                stop.store(true, Ordering::SeqCst);
            }
            if book.progress
                && (last_shown.elapsed() >= Duration::from_millis(500)
                    || book.committed == jobs.len())
            {
                show_progress(began, book.committed, jobs.len(), &book.summary);
                last_shown = Instant::now();
            }
        }
    });
}

/// The error of a run stopped by Ctrl-C, with how to continue it.
fn interrupted(
    request: &GenerateRequest,
    summary: &BookSummary,
    written: usize,
    out_name: &str,
) -> GenerateError {
    let resume = match &request.output {
        Some(_) => format!(
            "to continue, run the same command with --resume (and --seed {}, if it did not \
             give one)",
            request.walk.seed
        ),
        None => "write to a file (-o FILE) to be able to --resume".to_owned(),
    };
    GenerateError::Interrupted(format!(
        "interrupted: {written} of {} starts written to {out_name} ({} positions); {resume}",
        request.starts.len(),
        summary.positions
    ))
}

/// `--timing`: the run's time, rate and CPU (sp960's own and the engines').
fn print_timing(began: Instant, cpu_before: f64, summary: &BookSummary) {
    let seconds = began.elapsed().as_secs_f64();
    let own = cpu::process_seconds() - cpu_before;
    let engines = cpu::children_seconds().map_or("unknown".to_owned(), |s| format!("{s:.3} s"));
    eprintln!(
        "sp960: book: timing: {} positions, {} evaluated, {} searches, in {seconds:.3} s ({:.2} positions/s); CPU: sp960 {own:.3} s, engines {engines}",
        summary.positions,
        summary.evaluated,
        summary.searches,
        summary.positions as f64 / seconds.max(1e-9)
    );
}

/// The book being written: the output, the keys of the positions it holds, the summary
/// so far, and how far the starts are committed (in request order).
struct BookWriter<'a> {
    request: &'a GenerateRequest,
    out: Box<dyn Write + 'a>,
    out_name: String,
    keys: HashSet<String>,
    summary: BookSummary,
    /// Nothing written yet (PGN games are separated by a blank line).
    first: bool,
    /// A progress line on stderr (a terminal).
    progress: bool,
    committed: usize,
    failure: Option<GenerateError>,
    /// The last skipped start and why, for the error when every start was skipped.
    last_skip: Option<String>,
}

impl<'a> BookWriter<'a> {
    /// A book written to `out` that holds the positions `keys` already (`first`: and no
    /// text).
    fn new(
        request: &'a GenerateRequest,
        out: Box<dyn Write + 'a>,
        keys: HashSet<String>,
        first: bool,
    ) -> BookWriter<'a> {
        BookWriter {
            request,
            out,
            out_name: output_name(request),
            keys,
            summary: BookSummary {
                starts: request.starts.len(),
                ..BookSummary::default()
            },
            first,
            progress: io::stderr().is_terminal(),
            committed: 0,
            failure: None,
            last_skip: None,
        }
    }

    /// Commits the outcomes that are next in request order, until one is missing, a
    /// failure, or an interruption (put back: nothing after it is written).
    fn commit_ready(&mut self, pending: &mut BTreeMap<usize, StartOutcome>) {
        while self.failure.is_none()
            && let Some(outcome) = pending.remove(&self.committed)
        {
            match outcome {
                StartOutcome::Done(done) => {
                    if let Err(err) = self.commit(done) {
                        self.failure = Some(err);
                        break;
                    }
                }
                StartOutcome::Skipped(start, reason) => {
                    note(
                        self.progress,
                        &format!("{}: skipped: {reason}", start.label()),
                    );
                    self.summary.skipped += 1;
                    self.last_skip = Some(format!("{}: {reason}", start.label()));
                }
                StartOutcome::Fatal(err) => {
                    self.failure = Some(err);
                    break;
                }
                StartOutcome::Interrupted => {
                    pending.insert(self.committed, StartOutcome::Interrupted);
                    break;
                }
            }
            self.committed += 1;
        }
    }

    /// Writes a start's openings: the ones already in the book (from an earlier start, a
    /// transposition) are dropped; a start that reached none is counted (a note says it
    /// is short), and [`out_of_reach`] judges the whole run at its end.
    fn commit(&mut self, done: StartOpenings) -> Result<(), GenerateError> {
        let request = self.request;
        let summary = &mut self.summary;
        summary.evaluated += u64::from(done.evaluated);
        summary.searches += u64::from(done.searches);
        if done.openings.is_empty() {
            summary.unreached += 1;
            summary
                .first_unreached
                .get_or_insert_with(|| (done.start.label(), done.tries));
        }
        let openings: Vec<_> = done
            .openings
            .into_iter()
            .filter(|o| self.keys.insert(position_key(&o.position)))
            .collect();
        if (openings.len() as u32) < request.walk.per_start {
            summary.short += 1;
            note(
                io::stderr().is_terminal(),
                &format!(
                    "{}: {} of {} positions (--per-start) after {} tries (--tries)",
                    done.start.label(),
                    openings.len(),
                    request.walk.per_start,
                    done.tries
                ),
            );
        }
        let text = render(&openings, request.format, request.castling, self.first)?;
        self.first &= openings.is_empty();
        summary.positions += openings.len();
        self.out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.flush())
            .map_err(|source| GenerateError::Io {
                path: self.out_name.clone(),
                source,
            })
    }
}

/// The error for a run that wrote nothing because no start reached the window (a book that
/// already held positions, or a start that reached one, is not out of reach: the starts
/// that did not are notes). One rule whatever the order the starts finish in.
fn out_of_reach(
    summary: &BookSummary,
    window: Option<Window>,
    book_empty: bool,
) -> Option<GenerateError> {
    let (label, tries) = summary.first_unreached.as_ref()?;
    if summary.positions > 0 || !book_empty {
        return None;
    }
    let window = window.map_or("any centipawn score".to_owned(), |w| {
        format!("--window {},{}", w.low, w.high)
    });
    let which = if summary.unreached == 1 {
        format!("{label} reached it in {tries} tries")
    } else {
        format!(
            "any of {} starts reached it ({label}: {tries} tries)",
            summary.unreached
        )
    };
    Some(GenerateError::Usage(format!(
        "{window}: no position of {which} (--tries); widen --window, raise --tries or \
         --margin, or check the engine's limits"
    )))
}

/// A note on stderr, clearing the progress line first on a terminal.
fn note(progress: bool, text: &str) {
    if progress {
        eprint!("\r\x1b[K");
    }
    eprintln!("sp960: book: {text}");
}

fn show_progress(began: Instant, committed: usize, total: usize, summary: &BookSummary) {
    let seconds = began.elapsed().as_secs_f64();
    let rate = summary.positions as f64 / seconds.max(1e-9);
    let eta = if committed == 0 {
        "?".to_owned()
    } else {
        let left = seconds / committed as f64 * (total - committed) as f64;
        let left = left.round() as u64;
        format!("{}m{:02}s", left / 60, left % 60)
    };
    eprint!(
        "\r\x1b[Ksp960: book: {committed}/{total} starts, {} positions, {rate:.2} positions/s, ETA {eta}",
        summary.positions
    );
}

/// The keys and the starts' labels (with their record counts) of a book being resumed;
/// and whether it has any text.
#[allow(clippy::type_complexity)]
fn read_existing(
    path: &PathBuf,
    format: BookFormat,
) -> Result<(HashSet<String>, HashMap<String, usize>, bool), GenerateError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) if err.kind() == io::ErrorKind::NotFound => String::new(),
        Err(source) => {
            return Err(GenerateError::Io {
                path: path.display().to_string(),
                source,
            });
        }
    };
    if format == BookFormat::Fen && !text.is_empty() {
        return Err(GenerateError::Usage(
            "--resume: a FEN book does not name its starts; generate EPD or PGN to resume".into(),
        ));
    }
    let records = read_back(&text, format).map_err(|source| GenerateError::ReadBack {
        path: path.display().to_string(),
        source,
    })?;
    let mut labels: HashMap<String, usize> = HashMap::new();
    let mut keys = HashSet::new();
    for record in records {
        *labels.entry(record.label).or_default() += 1;
        keys.insert(record.key);
    }
    Ok((keys, labels, !text.is_empty()))
}

/// A worker: its own engine, started when first needed and again after a failure.
fn worker(
    jobs: &[StartJob],
    next: &AtomicUsize,
    stop: &AtomicBool,
    setup: &Arc<BookEngineSetup>,
    settings: &WalkSettings,
    sender: &mpsc::Sender<(usize, StartOutcome)>,
) {
    let mut engine: Option<BookEngine> = None;
    loop {
        if stop.load(Ordering::SeqCst) || interrupt::interrupted() {
            break;
        }
        let index = next.fetch_add(1, Ordering::SeqCst);
        let Some(&job) = jobs.get(index) else {
            break;
        };
        let outcome = run_job(job, &mut engine, setup, settings);
        let last = matches!(outcome, StartOutcome::Fatal(_) | StartOutcome::Interrupted);
        if sender.send((index, outcome)).is_err() || last {
            break;
        }
    }
    if let Some(engine) = engine {
        engine.stop();
    }
}

/// Why a start could not be finished on one engine.
#[derive(Debug, Error)]
enum StartFailure {
    #[error(transparent)]
    Engine(#[from] BookEngineFailure),
    #[error("the engine's answer: {0}")]
    Walk(#[from] WalkError),
}

/// One start, retried from scratch on a fresh engine after a failure.
fn run_job(
    job: StartJob,
    engine: &mut Option<BookEngine>,
    setup: &Arc<BookEngineSetup>,
    settings: &WalkSettings,
) -> StartOutcome {
    let label = job.start.label();
    let mut failures = 0;
    loop {
        if interrupt::interrupted() {
            return StartOutcome::Interrupted;
        }
        let running = match engine {
            Some(running) => running,
            None => match BookEngine::start(Arc::clone(setup)) {
                Ok(started) => engine.insert(started),
                Err(BookEngineFailure::Driver(Failure::Interrupted)) => {
                    return StartOutcome::Interrupted;
                }
                Err(BookEngineFailure::Driver(Failure::Spawn(err))) => {
                    return StartOutcome::Fatal(GenerateError::EngineStart(err));
                }
                Err(err) => return StartOutcome::Fatal(GenerateError::Handshake(err)),
            },
        };
        let seed = start_seed(settings.seed, job.start, job.occurrence);
        let walk = match Walk::new(job.start, seed, settings.clone()) {
            Ok(walk) => walk,
            Err(err) => return StartOutcome::Fatal(err.into()),
        };
        match make_start(running, walk) {
            Ok(done) => return StartOutcome::Done(done),
            Err(StartFailure::Engine(BookEngineFailure::Driver(Failure::Interrupted))) => {
                return StartOutcome::Interrupted;
            }
            Err(_) if interrupt::interrupted() => {
                // Ctrl-C from a terminal reaches the engines too: their deaths are not
                // failures to retry.
                return StartOutcome::Interrupted;
            }
            Err(failure) => {
                // The engine is dropped (killed if it still runs) and started afresh.
                *engine = None;
                failures += 1;
                if failures > RETRIES {
                    return StartOutcome::Skipped(
                        job.start,
                        format!("{failure} ({} attempts)", RETRIES + 1),
                    );
                }
                note(
                    io::stderr().is_terminal(),
                    &format!(
                        "{label}: {failure}; restarting the engine and retrying the start ({failures} of {RETRIES})"
                    ),
                );
            }
        }
    }
}

/// Runs a walk on the engine to the end.
fn make_start(engine: &mut BookEngine, mut walk: Walk) -> Result<StartOpenings, StartFailure> {
    engine.new_start()?;
    loop {
        match walk.step() {
            WalkStep::Search(request) => {
                if request.fresh {
                    // The kept score is what a fresh engine reproduces (book_proof re-evaluates).
                    engine.new_start()?;
                }
                let result = engine.search(walk.root(), &request.moves, request.lines)?;
                walk.feed(result)?;
            }
            WalkStep::Done(done) => return Ok(done),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::walk::BookOpening;
    use super::*;
    use crate::clients::talk::Limits;
    use crate::launch::command::EngineCommand;
    use crate::launch::engine_start::EngineStart;

    fn request() -> GenerateRequest {
        GenerateRequest {
            starts: Vec::new(),
            walk: WalkSettings {
                plies: 2,
                per_start: 2,
                window: Some(Window { low: -5, high: 5 }),
                margin: 50,
                multipv: 5,
                tries: 7,
                seed: 1,
            },
            engine: BookEngineSetup {
                start: EngineStart::command(EngineCommand {
                    program: "engine".into(),
                    args: Vec::new(),
                    dir: None,
                }),
                limits: Limits::default(),
                timeout: Duration::from_secs(1),
            },
            concurrency: 1,
            format: BookFormat::Epd,
            castling: CastlingNotation::Shredder,
            output: None,
            resume: false,
            timing: false,
        }
    }

    fn opening(spec: &str, moves: &str) -> BookOpening {
        BookOpening::played(spec, moves, 0)
    }

    fn done(openings: Vec<BookOpening>) -> StartOpenings {
        StartOpenings {
            start: openings.first().map_or("860".parse().unwrap(), |o| o.start),
            openings,
            tries: 7,
            evaluated: 3,
            searches: 9,
        }
    }

    #[test]
    fn commits_drop_positions_the_book_holds_and_only_an_empty_book_is_out_of_reach() {
        let request = request();
        let mut bytes = Vec::new();
        let (keys, summary) = {
            let mut book = BookWriter::new(&request, Box::new(&mut bytes), HashSet::new(), true);
            // Nothing in the book and nothing found: the window is out of reach.
            book.commit(done(Vec::new())).unwrap();
            let window = request.walk.window;
            let err = out_of_reach(&book.summary, window, book.keys.is_empty()).unwrap();
            assert!(
                err.to_string()
                    .starts_with("--window -5,5: no position of SP 860 reached it in 7 tries"),
                "{err}"
            );
            let a = opening("860", "e2e4 e7e5");
            book.commit(done(vec![a.clone()])).unwrap();
            // The same start asked for again: a transposition of the first one's position
            // is dropped, the other kept.
            let b = opening("860", "e2e4 e7e5");
            let c = opening("860", "d2d4 d7d5");
            book.commit(done(vec![b, c])).unwrap();
            // Empty once the book holds something: the start is short, no error.
            book.commit(done(Vec::new())).unwrap();
            (book.keys, book.summary)
        };
        let text = String::from_utf8(bytes).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
        assert!(text.contains("c0 \"SP 860: e2e4 e7e5\""));
        assert!(text.contains("c0 \"SP 860: d2d4 d7d5\""));
        // Every start fell short of --per-start 2 (the two empty ones too); each counted its
        // 9 searches.
        assert_eq!(
            (summary.positions, summary.short, summary.searches),
            (2, 4, 36)
        );
        // Whatever order the starts finished in: two reached none, one did, no error.
        assert_eq!(summary.unreached, 2);
        assert!(out_of_reach(&summary, request.walk.window, keys.is_empty()).is_none());
        // And a book resumed with positions in it is not out of reach either.
        let nothing = BookSummary {
            unreached: 1,
            first_unreached: Some(("SP 860".to_owned(), 7)),
            ..BookSummary::default()
        };
        assert!(out_of_reach(&nothing, request.walk.window, false).is_none());
        let several = BookSummary {
            unreached: 3,
            ..nothing
        };
        let err = out_of_reach(&several, request.walk.window, true).unwrap();
        assert!(
            err.to_string().starts_with(
                "--window -5,5: no position of any of 3 starts reached it (SP 860: 7 tries)"
            ),
            "{err}"
        );
    }
}
