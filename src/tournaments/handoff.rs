//! `sp960 match --runner fastchess|cutechess`: the same match handed to a real match runner
//! found on PATH, its progress streamed to stderr, its PGN read back into the [`Summary`].
//!
//! Nothing about the runners is decided twice: the runner's command line, with every engine
//! wrapped in `sp960 proxy` where the runner needs it, is
//! [`crate::tournaments::tournament::plan`]'s, as `sp960 tournament` prints it, and so is
//! the book of numbered starts. This module adds what a match has and a tournament line does
//! not: the limits (`--nodes`, `--depth`, `--movetime` as `st=` with `--timeout` as
//! `timemargin=`, or `--tc`), `--max-plies`, `--resign`, `--draw`, `--sprt`, the PGN book of
//! the `--openings` sp960 chose ([`pgn_book`]), `-tournament` for more engines and the book's
//! layout in the runner's schedule ([`Layout`]), and refuses what the runner cannot do as
//! asked. The engines are probed first, as the built-in runner does, so the runner gets their
//! protocols and names and the table shows the same names.
//!
//! The runner appends to `--pgn`; the games after the file's old end are read back
//! ([`read_games`]: tags, plies, the end comment) and placed in the built-in runner's
//! schedule by their `Round` tag and engines, their `FEN` tag checked against the opening's
//! root (cutechess-cli writes X-FEN castling `KQkq`, fastchess Shredder `HAha`). They are
//! counted by the built-in runner's tally, and the summary is built where the built-in
//! runner's is ([`Summary::new`]).

use std::collections::HashMap;
use std::io::{self, BufRead, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use thiserror::Error;

use crate::launch::spec::{EngineSpec, NodeLimitError, check_node_limit};
use crate::matches::MatchError;
use crate::matches::config::openings::Opening;
use crate::matches::config::request::{MatchConfig, MatchRequest};
use crate::matches::game::player::launch_all;
use crate::matches::tally::counts::Outcome;
use crate::matches::tally::results::{GameResult, Tally};
use crate::matches::tally::summary::Stopwatch;
use crate::matches::tally::summary::{GameSummary, Summary};
use crate::starts::notation::{CastlingNotation, position_fen};
use crate::starts::start::Start;
use crate::tournaments::book::{BookFormat, pgn_tags};
use crate::tournaments::tournament::{Plan, Tool, Tournament, TournamentError, plan, shell_line};

/// The real match runners a match can be handed to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Runner {
    /// fastchess (UCI engines only).
    Fastchess,
    /// cutechess-cli.
    Cutechess,
}

impl Runner {
    /// The program looked up on PATH.
    pub fn program(self) -> &'static str {
        match self {
            Runner::Fastchess => "fastchess",
            Runner::Cutechess => "cutechess-cli",
        }
    }

    fn tool(self) -> Tool {
        match self {
            Runner::Fastchess => Tool::Fastchess,
            Runner::Cutechess => Tool::Cutechess,
        }
    }
}

/// Why a handed-off match could not be played or read back.
#[derive(Debug, Error)]
pub enum HandoffError {
    /// The request itself (SPECs, `--engine`, limits) or an engine's probe.
    #[error(transparent)]
    Match(#[from] MatchError),
    /// The runner cannot drive an engine (fastchess and an XBoard engine).
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    /// An option the runner cannot honour as sp960 means it.
    #[error("--runner {runner}: {reason}")]
    Refused {
        /// The runner's program.
        runner: &'static str,
        /// What and why.
        reason: String,
    },
    /// The runner is not on PATH.
    #[error("--runner: '{0}' not found on PATH")]
    NotFound(&'static str),
    /// The runner did not start, or could not be waited for.
    #[error("{runner}: {action}{source}")]
    Process {
        /// The runner's program.
        runner: &'static str,
        /// `cannot start: `, or nothing (waiting).
        action: &'static str,
        /// The error.
        source: io::Error,
    },
    /// The runner did not end well.
    #[error("{runner}: {reason}")]
    Failed {
        /// The runner's program.
        runner: &'static str,
        /// How it ended (and with `--json`, its last output lines).
        reason: String,
    },
    /// The book or the PGN file could not be written or read.
    #[error("{path}: {source}")]
    File {
        /// The file.
        path: String,
        /// The error.
        source: io::Error,
    },
    /// A game of the runner's PGN cannot be read or placed in the match.
    #[error("{path}: {source}")]
    Pgn {
        /// The PGN file.
        path: String,
        /// The line and the reason.
        source: RunnerPgnError,
    },
}

/// Why a game of the runner's PGN cannot be read or placed in the match's schedule: the
/// line (of the game's first tag, or of a malformed tag) and the problem.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {problem}")]
pub struct RunnerPgnError {
    /// The 1-based line.
    pub line: usize,
    /// What is wrong.
    pub problem: RunnerPgnProblem,
}

/// What is wrong with a game of the runner's PGN.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RunnerPgnProblem {
    /// A line starting with `[` that is no `[Key "value"]`.
    #[error("a malformed tag pair: {0}")]
    MalformedTag(String),
    /// A tag the summary needs is missing.
    #[error("the game has no {0} tag")]
    MissingTag(&'static str),
    /// The `FEN` tag is no position.
    #[error("FEN '{fen}': {error}")]
    Fen {
        /// The tag's value.
        fen: String,
        /// Why it is refused.
        error: crate::protocol::game::PositionError,
    },
    /// The `Round` tag is no number.
    #[error("Round '{0}' is not a number")]
    RoundNotANumber(String),
    /// fastchess numbers its games matchup by matchup: this `Round` is another matchup's.
    #[error(
        "Round {round} is not a game between engines {} and {} in fastchess's order",
        .engines.0 + 1,
        .engines.1 + 1
    )]
    NotInOrder {
        /// The `Round` tag.
        round: u64,
        /// The matchup's engines (0-based).
        engines: (usize, usize),
    },
    /// A `Round` past the match's schedule.
    #[error("Round {0} is outside the match's schedule")]
    OutsideSchedule(u64),
    /// The `FEN` tag is not the root of the opening the runner's schedule gives the game.
    #[error(
        "FEN '{fen}' is not the root of opening {} ({label}), which the runner's schedule \
         gives Round {round}",
        .opening + 1
    )]
    NotTheRoot {
        /// The tag's value.
        fen: String,
        /// The opening (0-based).
        opening: usize,
        /// Its label.
        label: String,
        /// The `Round` tag.
        round: u64,
    },
}

impl HandoffError {
    /// The exit code: as `sp960 match` and `sp960 tournament`; a refused option 2, a
    /// runner not found 127, a runner that failed 3.
    pub fn exit_code(&self) -> u8 {
        use crate::exit_code::{ENGINE_NOT_FOUND, ENGINE_UNSUITABLE, USAGE};
        match self {
            HandoffError::Match(err) => err.exit_code(),
            HandoffError::Tournament(err) => err.exit_code(),
            HandoffError::Refused { .. } | HandoffError::File { .. } | HandoffError::Pgn { .. } => {
                USAGE
            }
            HandoffError::NotFound(_) => ENGINE_NOT_FOUND,
            HandoffError::Process { .. } | HandoffError::Failed { .. } => ENGINE_UNSUITABLE,
        }
    }
}

/// `sp960 match --runner`: resolves the request as `sp960 match` does, hands the match to
/// `runner`, and writes the table (or `--json`) of the games it played to `out`.
pub fn handoff_command(
    request: MatchRequest,
    runner: Runner,
    out: &mut dyn Write,
) -> Result<Summary, HandoffError> {
    refuse_what_a_handoff_cannot_do(&request, runner)?;
    let engine_texts = request.engines.clone();
    let sp960 = request.builtin.clone();
    let json = request.json;
    let config = request.resolve()?;
    refuse_what_the_runner_cannot_do(&config, runner)?;
    let layout = Layout::new(&config, runner)?;
    let program = crate::os::process::find_program(runner.program())
        .ok_or(HandoffError::NotFound(runner.program()))?;
    let stopwatch = Stopwatch::start();
    let engines = probe(&config, &engine_texts, &sp960)?;
    let book = Book::new(&config);
    let mut plan = plan(&book.tournament(&config, runner, &layout, engines, &sp960))?;
    plan.argv[0] = program.display().to_string();
    add_tournament_options(&mut plan, &config, runner, &layout);
    add_match_options(&mut plan, &config, runner);
    let book_text = book.text(&plan, &config, &layout);
    std::fs::write(&book.path, book_text).map_err(|source| file_error(&book.path, source))?;
    let pgn_start = std::fs::metadata(&config.pgn).map_or(0, |m| m.len());
    if !json {
        for note in &plan.notes {
            eprintln!("sp960: match: {note}");
        }
        eprintln!(
            "sp960: match: running {}",
            shell_line(&plan, crate::tournaments::shell::Shell::platform()).trim_end()
        );
    }
    // Ctrl-C reaches the runner too (one process group): it stops, and the games it
    // finished are read back and reported, as the built-in runner does.
    let sigint = crate::os::interrupt::Guard::install();
    let ran = run_runner(runner, &plan.argv, json);
    let interrupted = crate::os::interrupt::interrupted();
    drop(sigint);
    let _ = std::fs::remove_file(&book.path);
    if !interrupted {
        ran?;
    }
    let text = read_from(&config.pgn, pgn_start).map_err(|err| file_error(&config.pgn, err))?;
    let pgn_error = |source| HandoffError::Pgn {
        path: config.pgn.display().to_string(),
        source,
    };
    let games = read_games(&text).map_err(pgn_error)?;
    let names: Vec<String> = (0..config.engines.len())
        .map(|index| engine_name(&plan.argv, index))
        .collect();
    let (tally, listed) = place_games(&config, &layout, &names, &games).map_err(pgn_error)?;
    let played = listed.len();
    let record = stopwatch.record(listed, played, &config.pgn, interrupted);
    let summary = Summary::new(&tally, names, config.sprt.as_ref(), None, record);
    Ok(crate::matches::report(summary, json, out)?)
}

/// The book or the PGN file `path` could not be written or read.
fn file_error(path: &Path, source: io::Error) -> HandoffError {
    HandoffError::File {
        path: path.display().to_string(),
        source,
    }
}

/// Each engine's first handshake tells its protocol and name, as in the built-in runner
/// (the engine then quits); the runner's line gets them, with the engine's limits. A node
/// limit for an engine that speaks XBoard is refused.
fn probe(
    config: &MatchConfig,
    texts: &[String],
    sp960: &Path,
) -> Result<Vec<EngineSpec>, MatchError> {
    let mut probed = Vec::new();
    for (player, protocol, name) in launch_all(&config.engines, false)? {
        player.quit();
        probed.push((protocol, name));
    }
    let mut engines = Vec::new();
    for (index, ((protocol, name), limits)) in probed.iter().zip(&config.engine_limits).enumerate()
    {
        let mut spec = match texts.get(index) {
            Some(text) => EngineSpec::parse(index + 1, text),
            None => EngineSpec::from_words(
                index + 1,
                &[format!("cmd={}", sp960.display()), "arg=engine".to_owned()],
            ),
        }?;
        check_node_limit(*protocol, limits.nodes, NodeLimitError::Spoken(index + 1))?;
        spec.protocol = Some(*protocol);
        spec.name = Some(name.clone());
        spec.limits.depth = limits.depth;
        spec.limits.nodes = limits.nodes;
        spec.limits.st = limits
            .movetime
            .map(|time| (format!("{}", time.as_secs_f64()), time));
        engines.push(spec);
    }
    Ok(engines)
}

/// The book the runner plays, next to the PGN file: `sp960 tournament`'s EPD of numbered
/// starts or, with `--openings`, the openings sp960 chose (checked, cut to plies=, from
/// start=, count=, order=) as a PGN book the runner plays in order.
struct Book {
    /// The starts, when every opening is a numbered start without moves.
    numbered: Option<Vec<Start>>,
    format: BookFormat,
    path: PathBuf,
}

impl Book {
    fn new(config: &MatchConfig) -> Book {
        let numbered: Option<Vec<Start>> = config
            .openings
            .iter()
            .map(|opening| {
                opening
                    .moves
                    .is_empty()
                    .then(|| opening.label.parse().ok())
                    .flatten()
            })
            .collect();
        let format = if numbered.is_some() {
            BookFormat::Epd
        } else {
            BookFormat::Pgn
        };
        Book {
            numbered,
            format,
            path: book_path(&config.pgn, format),
        }
    }

    /// The tournament `sp960 tournament` would plan for the match: its engines, this book
    /// in the layout's order, the clock, the PGN file and the concurrency.
    fn tournament(
        &self,
        config: &MatchConfig,
        runner: Runner,
        layout: &Layout,
        engines: Vec<EngineSpec>,
        sp960: &Path,
    ) -> Tournament {
        let placeholder: Start = "518".parse().expect("a valid start");
        let starts = layout
            .book
            .iter()
            .map(|&index| {
                self.numbered
                    .as_ref()
                    .map_or(placeholder, |starts| starts[index])
            })
            .collect();
        Tournament {
            tool: runner.tool(),
            engines,
            starts,
            time_control: match &config.limits.clock {
                Some(clock) => clock.clone(),
                None => NO_CLOCK.parse().expect("a valid time control"),
            },
            book: self.path.display().to_string(),
            book_format: self.format,
            castling: CastlingNotation::Shredder,
            pgn_out: config.pgn.display().to_string(),
            concurrency: Some(u32::try_from(config.concurrency).unwrap_or(u32::MAX)),
            sp960: sp960.display().to_string(),
            other_roots: match self.numbered {
                Some(_) => Vec::new(),
                None => config
                    .openings
                    .iter()
                    .map(|opening| (opening.label.clone(), opening.root.clone()))
                    .collect(),
            },
        }
    }

    /// The book's text: the plan's EPD, or the PGN book of the openings.
    fn text(&self, plan: &Plan, config: &MatchConfig, layout: &Layout) -> String {
        match self.numbered {
            Some(_) => plan
                .book
                .clone()
                .expect("cutechess-cli and fastchess read a book"),
            None => pgn_book(&config.openings, &layout.book),
        }
    }
}

/// The time control given to the plan when the match has no clock; every `tc=` word it
/// produces becomes `tc=inf`.
const NO_CLOCK: &str = "1";

/// What `--runner` does not do (yet), refused before anything runs.
fn refuse_what_a_handoff_cannot_do(
    request: &MatchRequest,
    runner: Runner,
) -> Result<(), HandoffError> {
    let refused = |reason: &str| HandoffError::Refused {
        runner: runner.program(),
        reason: reason.to_owned(),
    };
    if request.log.is_some() {
        return Err(refused(
            "--log is the built-in runner's (the runners keep their own logs: fastchess -log, \
             cutechess-cli -debug)",
        ));
    }
    if request.resume {
        return Err(refused(
            "--resume is the built-in runner's (fastchess resumes from its own -config file=)",
        ));
    }
    if request.event.is_some() || request.site.is_some() {
        return Err(refused(
            "--event and --site are the built-in runner's (give the runner's own -event, -site \
             through sp960 tournament)",
        ));
    }
    Ok(())
}

/// The options a runner cannot take as sp960 means them.
fn refuse_what_the_runner_cannot_do(
    config: &MatchConfig,
    runner: Runner,
) -> Result<(), HandoffError> {
    let refuse = |reason: &str| {
        Err(HandoffError::Refused {
            runner: runner.program(),
            reason: reason.to_owned(),
        })
    };
    if let Some(plies) = config.max_plies
        && plies % 2 == 1
    {
        return refuse(&format!(
            "--max-plies {plies}: the runner's -maxmoves counts moves of both sides (2 plies); \
             give an even number"
        ));
    }
    if runner == Runner::Cutechess && config.sprt.is_some() {
        return refuse(
            "--sprt is fastchess's SPRT (pentanomial, over game pairs); cutechess-cli's -sprt \
             uses another model, game by game: use --runner fastchess",
        );
    }
    if config.limits.clock.is_some() && config.engine_limits.iter().any(|l| l.movetime.is_some()) {
        return refuse("--tc with a time per move (--movetime or st=): give one of them");
    }
    Ok(())
}

/// The match's own options, added to the tournament line: `tc=inf` and `timemargin=`
/// without a clock, `-maxmoves`, `-resign`, `-draw`, `-sprt`.
fn add_match_options(plan: &mut Plan, config: &MatchConfig, runner: Runner) {
    if config.limits.clock.is_none() {
        let dummy = format!("tc={NO_CLOCK}");
        for word in plan.argv.iter_mut().filter(|word| **word == dummy) {
            *word = "tc=inf".to_owned();
        }
        if config.engine_limits.iter().any(|l| l.movetime.is_some()) {
            // sp960's --timeout: how long past st= a move may take (without it fastchess
            // forfeits a move 1 ms late).
            let margin = format!("timemargin={}", config.move_timeout.as_millis());
            match plan.argv.iter().position(|word| word == "-each") {
                Some(each) => insert(plan, each + 1, [margin]),
                None => {
                    let end = plan.argv.len();
                    insert(plan, end, ["-each".to_owned(), margin]);
                    plan.breaks.push(end);
                }
            }
        }
    }
    let mut extra = Vec::new();
    if let Some(plies) = config.max_plies {
        extra.extend(["-maxmoves".to_owned(), (plies / 2).to_string()]);
    }
    if let Some(resign) = &config.resign {
        extra.extend([
            "-resign".to_owned(),
            format!("movecount={}", resign.move_count),
            format!("score={}", resign.score),
        ]);
        if resign.two_sided {
            extra.push("twosided=true".to_owned());
        }
    }
    if let Some(draw) = &config.draw {
        extra.extend([
            "-draw".to_owned(),
            format!("movenumber={}", draw.move_number),
            format!("movecount={}", draw.move_count),
            format!("score={}", draw.score),
        ]);
    }
    if let (Some(sprt), Runner::Fastchess) = (&config.sprt, runner) {
        extra.extend([
            "-sprt".to_owned(),
            format!("elo0={}", sprt.elo0()),
            format!("elo1={}", sprt.elo1()),
            format!("alpha={}", sprt.alpha()),
            format!("beta={}", sprt.beta()),
            format!("model={}", sprt.model()),
        ]);
    }
    if !extra.is_empty() {
        let end = plan.argv.len();
        plan.breaks.push(end);
        insert(plan, end, extra);
    }
}

/// Inserts `words` into the line at `at`, keeping the line breaks after it in place.
fn insert(plan: &mut Plan, at: usize, words: impl IntoIterator<Item = String>) {
    let before = plan.argv.len();
    plan.argv.splice(at..at, words);
    let added = plan.argv.len() - before;
    for index in &mut plan.breaks {
        if *index > at {
            *index += added;
        }
    }
}

/// The name the line gives engine `index` (0-based): the `name=` after its `-engine`.
fn engine_name(argv: &[String], index: usize) -> String {
    argv.iter()
        .enumerate()
        .filter(|(_, word)| *word == "-engine")
        .nth(index)
        .and_then(|(at, _)| {
            argv[at + 1..]
                .iter()
                .take_while(|word| *word != "-engine")
                .find_map(|word| word.strip_prefix("name="))
        })
        .unwrap_or_default()
        .to_owned()
}

/// The book next to the PGN file, named for this process (`games.pgn.12345-FRC.epd`).
fn book_path(pgn: &Path, format: BookFormat) -> PathBuf {
    let mut name = pgn.file_name().unwrap_or_default().to_os_string();
    name.push(format!(
        ".{}-FRC.{}",
        std::process::id(),
        format.extension()
    ));
    pgn.with_file_name(name)
}

/// Runs the runner; its stdout (its progress) is copied to our stderr line by line unless
/// `quiet`, and its last lines are kept for the error message if it fails.
fn run_runner(runner: Runner, argv: &[String], quiet: bool) -> Result<(), HandoffError> {
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
fn read_from(path: &Path, start: u64) -> io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    file.seek(io::SeekFrom::Start(start))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// One game of a runner's PGN, as far as the summary needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunnerGame {
    /// The `Round` tag: both games of a start share it.
    pub round: u64,
    /// The `White` tag.
    pub white: String,
    /// The `Black` tag.
    pub black: String,
    /// The `Result` tag.
    pub result: String,
    /// The 1-based line of its first tag.
    pub line: usize,
    /// The `FEN` tag (none: the standard start).
    pub fen: Option<String>,
    /// The `Termination` tag (`normal` when there is none).
    pub termination: String,
    /// The end of the game in words: the last comment's text after its score, if any.
    pub reason: String,
    /// Plies played.
    pub plies: usize,
}

/// Reads every game of `text` (a runner's PGN); an error names the line and the reason.
pub fn read_games(text: &str) -> Result<Vec<RunnerGame>, RunnerPgnError> {
    let mut games = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut movetext = String::new();
    let mut first_line = 0;
    let lines: Vec<&str> = text.lines().collect();
    for (number, line) in lines.iter().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.starts_with('[') {
            if !movetext.trim().is_empty() {
                games.push(game(first_line, &tags, &movetext)?);
                tags.clear();
                movetext.clear();
            }
            if tags.is_empty() {
                first_line = number + 1;
            }
            tags.push(tag(line).ok_or_else(|| RunnerPgnError {
                line: number + 1,
                problem: RunnerPgnProblem::MalformedTag(line.to_owned()),
            })?);
        } else if !tags.is_empty() {
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    if !tags.is_empty() {
        games.push(game(first_line, &tags, &movetext)?);
    }
    Ok(games)
}

/// `[Key "value"]` with `\"` and `\\` unescaped ([`crate::records::pgn_tag`], the one
/// PGN tag reader).
fn tag(line: &str) -> Option<(String, String)> {
    let (key, value) = crate::records::pgn_tag::tag_pair(line)?;
    Some((key.to_owned(), value.into_owned()))
}

fn game(
    line: usize,
    tags: &[(String, String)],
    movetext: &str,
) -> Result<RunnerGame, RunnerPgnError> {
    let at = |problem| RunnerPgnError { line, problem };
    let get = |key: &str| {
        tags.iter()
            .find(|(k, _)| k == key)
            .map(|(_, value)| value.clone())
    };
    let need = |key: &'static str| get(key).ok_or(at(RunnerPgnProblem::MissingTag(key)));
    let fen = get("FEN");
    if let Some(fen) = &fen {
        crate::protocol::game::parse_fen(fen).map_err(|error| {
            at(RunnerPgnProblem::Fen {
                fen: fen.clone(),
                error,
            })
        })?;
    }
    let round = need("Round")?;
    let round = round
        .parse()
        .map_err(|_| at(RunnerPgnProblem::RoundNotANumber(round)))?;
    let (plies, last_comment) = movetext_plies(movetext);
    let reason = last_comment
        .as_deref()
        .map(|comment| match comment.split_once(", ") {
            Some((_, reason)) => reason.trim(),
            // A comment of its own (`{Black mates}`), not a move's `{+0.31/7 0.01s}`.
            None if !comment.contains('/') => comment.trim(),
            None => "",
        })
        .unwrap_or_default()
        .to_owned();
    Ok(RunnerGame {
        round,
        white: need("White")?,
        black: need("Black")?,
        result: need("Result")?,
        line,
        fen,
        termination: get("Termination").unwrap_or_else(|| "normal".to_owned()),
        reason,
        plies,
    })
}

/// The moves of a movetext (move numbers, comments, NAGs, variations and the result left
/// out) and its last comment.
fn movetext_plies(movetext: &str) -> (usize, Option<String>) {
    let mut plies = 0;
    let mut last_comment = None;
    let mut rest = movetext;
    let mut depth = 0;
    while let Some(c) = rest.chars().next() {
        if c == '{' {
            let end = rest.find('}').unwrap_or(rest.len());
            last_comment = Some(rest[1..end].to_owned());
            rest = &rest[(end + 1).min(rest.len())..];
            continue;
        }
        if c.is_whitespace() {
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '{' || c == '(' || c == ')')
            .unwrap_or(rest.len())
            .max(c.len_utf8());
        let word = &rest[..end];
        rest = &rest[end..];
        match word {
            "(" => depth += 1,
            ")" => depth -= 1,
            _ if depth > 0 => {}
            "1-0" | "0-1" | "1/2-1/2" | "*" => {}
            _ if word.starts_with('$') => {}
            _ => {
                // `12.` or `12...` before a move, possibly glued to it (`12.Nf3`).
                let san = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                if !san.is_empty() {
                    plies += 1;
                }
            }
        }
    }
    (plies, last_comment)
}

/// Where the match's games fall in the runner's schedule. Both runners play a matchup's
/// two games of one opening (`-games 2 -repeat`) as an encounter; one cycle (`-rounds 1`)
/// holds one encounter per matchup, and the match takes `openings × --rounds` cycles. The
/// book is laid out so that every matchup meets every opening `--rounds` times, as in the
/// built-in runner:
/// - cutechess-cli takes the next book entry for each encounter, so a cycle's entries are
///   its opening, once per matchup; its `Round` tag counts Berger rounds (round-robin:
///   engines rounded up to even, less one, per cycle) or cycles (gauntlet);
/// - fastchess cuts the book to `-rounds` entries and gives encounter `k` (its `Round` tag
///   less one, matchups in the built-in runner's order) entry `k` modulo the book, so entry
///   `i` is opening `(i / g) % openings`, `g` the greatest common divisor of the matchups and
///   the cycles; that reaches every matchup with every opening only when `g` divides
///   `--rounds` (refused otherwise).
#[derive(Debug, Clone)]
struct Layout {
    runner: Runner,
    /// Encounters per cycle (the matchups).
    matchups: Vec<(usize, usize)>,
    /// The openings given (each played `--rounds` times per matchup).
    openings: usize,
    /// The runner's `-rounds`.
    cycles: usize,
    /// The opening of each book entry, in the order the runner takes them.
    book: Vec<usize>,
    /// cutechess-cli's `Round` tags per cycle.
    rounds_per_cycle: usize,
    /// The built-in runner's round (0-based) of encounter `cycle × matchups + matchup`.
    builtin_round: Vec<u32>,
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

impl Layout {
    fn new(config: &MatchConfig, runner: Runner) -> Result<Layout, HandoffError> {
        let matchups = config.matchups.clone();
        let count = matchups.len();
        let openings = config.openings.len();
        let rounds = config.rounds as usize;
        let cycles = openings * rounds;
        let book: Vec<usize> = match runner {
            Runner::Cutechess => (0..cycles * count)
                .map(|k| (k / count) % openings)
                .collect(),
            Runner::Fastchess => {
                let g = gcd(count, cycles);
                if !rounds.is_multiple_of(g) {
                    return Err(HandoffError::Refused {
                        runner: runner.program(),
                        reason: format!(
                            "fastchess gives each of the {count} pairings in turn the next \
                             opening of a book it cuts to -rounds ({cycles}) openings, so \
                             {openings} openings × {rounds} rounds would not reach every \
                             pairing with every opening; give --rounds a multiple of {count}, \
                             or use --runner cutechess"
                        ),
                    });
                }
                (0..cycles).map(|i| (i / g) % openings).collect()
            }
        };
        let engines = config.engines.len();
        let gauntlet = count < engines * (engines - 1) / 2;
        let rounds_per_cycle = if gauntlet {
            1
        } else {
            engines + engines % 2 - 1
        };
        let mut layout = Layout {
            runner,
            matchups,
            openings,
            cycles,
            book,
            rounds_per_cycle,
            builtin_round: Vec::new(),
        };
        let mut seen = HashMap::<(usize, usize), u32>::new();
        for cycle in 0..cycles {
            for matchup in 0..count {
                let times = seen
                    .entry((matchup, layout.opening(cycle, matchup)))
                    .or_insert(0);
                layout.builtin_round.push(*times);
                *times += 1;
            }
        }
        Ok(layout)
    }

    /// The opening (index into the match's openings) of a matchup's encounter in a cycle.
    fn opening(&self, cycle: usize, matchup: usize) -> usize {
        let count = self.matchups.len();
        self.book[(cycle * count + matchup) % self.book.len()]
    }

    /// The cycle of a game from its `Round` tag and matchup.
    fn cycle(&self, round: u64, matchup: usize) -> Result<usize, RunnerPgnProblem> {
        let index = usize::try_from(round.saturating_sub(1)).unwrap_or(usize::MAX);
        let cycle = match self.runner {
            Runner::Cutechess => index / self.rounds_per_cycle,
            Runner::Fastchess => {
                let count = self.matchups.len();
                if index % count != matchup {
                    return Err(RunnerPgnProblem::NotInOrder {
                        round,
                        engines: self.matchups[matchup],
                    });
                }
                index / count
            }
        };
        if round == 0 || cycle >= self.cycles {
            return Err(RunnerPgnProblem::OutsideSchedule(round));
        }
        Ok(cycle)
    }
}

/// The `-tournament` of more than two engines, and `-rounds` as the layout counts them.
fn add_tournament_options(plan: &mut Plan, config: &MatchConfig, runner: Runner, layout: &Layout) {
    if let Some(at) = plan.argv.iter().position(|word| word == "-rounds") {
        plan.argv[at + 1] = layout.cycles.to_string();
    }
    if config.engines.len() > 2
        && let Some(at) = plan.argv.iter().position(|word| word == "-games")
    {
        let gauntlet = layout.rounds_per_cycle == 1;
        let kind = match (runner, gauntlet) {
            (_, true) => "gauntlet",
            (Runner::Fastchess, false) => "roundrobin",
            (Runner::Cutechess, false) => "round-robin",
        };
        insert(plan, at, ["-tournament".to_owned(), kind.to_owned()]);
    }
}

/// The PGN book of `order` (indices into `openings`): each opening's root as `FEN` and its
/// moves in SAN. cutechess-cli 1.5.1 plays a book game's moves in Chess960 only under
/// `[Variant "fischerandom"]` (not `Chess960`); fastchess reads the `FEN` and the moves.
fn pgn_book(openings: &[Opening], order: &[usize]) -> String {
    use shakmaty::Position as _;
    use std::fmt::Write as _;
    let mut text = String::new();
    for &index in order {
        let opening = &openings[index];
        let label = opening.label.replace('\\', "\\\\").replace('"', "\\\"");
        let fen = position_fen(&opening.root, CastlingNotation::Shredder);
        text.push_str(&pgn_tags(&label, "fischerandom", &fen));
        text.push('\n');
        let mut position = opening.root.clone();
        for (ply, m) in opening.moves.iter().enumerate() {
            let number = position.fullmoves().get();
            if position.turn().is_white() {
                let _ = write!(text, "{number}. ");
            } else if ply == 0 {
                let _ = write!(text, "{number}... ");
            }
            let san = shakmaty::san::SanPlus::from_move_and_play_unchecked(&mut position, *m);
            let _ = write!(text, "{san} ");
        }
        text.push_str("*\n\n");
    }
    text
}

/// The first four fields of a FEN (board, side, castling, en passant), normalised.
fn position_fields(fen: &str) -> Option<String> {
    let (position, _) = crate::protocol::game::parse_fen(fen).ok()?;
    Some(four_fields(&position))
}

fn four_fields(position: &shakmaty::Chess) -> String {
    position_fen(position, CastlingNotation::Shredder)
        .split(' ')
        .take(4)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The games the runner played, counted by the built-in runner's tally and listed for the
/// summary: each game is placed in the built-in runner's schedule (its opening, pair and
/// game number) by [`Layout`], and its `FEN` tag must be that opening's root.
fn place_games(
    config: &MatchConfig,
    layout: &Layout,
    names: &[String],
    games: &[RunnerGame],
) -> Result<(Tally, Vec<GameSummary>), RunnerPgnError> {
    let mut tally = Tally::new(names.len());
    let mut listed = Vec::new();
    let roots: Vec<String> = config
        .openings
        .iter()
        .map(|opening| four_fields(&opening.root))
        .collect();
    for game in games {
        let engine = |name: &str| names.iter().position(|n| n == name);
        // A game between other engines (appended by someone else) is not this match's.
        let (Some(white), Some(black)) = (engine(&game.white), engine(&game.black)) else {
            continue;
        };
        let Some(matchup) = layout
            .matchups
            .iter()
            .position(|&pair| pair == (white.min(black), white.max(black)))
        else {
            continue;
        };
        let white_outcome = match game.result.as_str() {
            "1-0" => Outcome::Win,
            "0-1" => Outcome::Loss,
            "1/2-1/2" => Outcome::Draw,
            // `*`: a game the runner broke off (cutechess-cli after Ctrl-C) is not counted,
            // as the built-in runner writes no unfinished game.
            _ => continue,
        };
        let at = |problem| RunnerPgnError {
            line: game.line,
            problem,
        };
        let cycle = layout.cycle(game.round, matchup).map_err(at)?;
        let opening = layout.opening(cycle, matchup);
        if let Some(fen) = &game.fen
            && position_fields(fen).as_ref() != Some(&roots[opening])
        {
            return Err(at(RunnerPgnProblem::NotTheRoot {
                fen: fen.clone(),
                opening,
                label: config.openings[opening].label.clone(),
                round: game.round,
            }));
        }
        let round = layout.builtin_round[cycle * layout.matchups.len() + matchup] as usize;
        // The built-in runner's pair and game numbers: per round, per matchup, per opening,
        // the lower engine white first.
        let pair = (round * layout.matchups.len() + matchup) * layout.openings + opening;
        tally.add(GameResult {
            pair,
            white,
            black,
            white_outcome,
        });
        listed.push(GameSummary::read_back(
            2 * pair + if white < black { 1 } else { 2 },
            &config.openings[opening].label,
            [&game.white, &game.black, &game.result, &game.termination],
            &game.reason,
            game.plies,
        ));
    }
    Ok((tally, listed))
}

#[cfg(test)]
#[path = "handoff_tests.rs"]
mod tests;
