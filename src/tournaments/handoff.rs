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
//! root (cutechess-cli writes X-FEN castling `KQkq`, fastchess Shredder `HAha`).

use std::collections::HashMap;
use std::io::{self, BufRead, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use thiserror::Error;

use crate::launch::spec::EngineSpec;
use crate::matches::MatchError;
use crate::matches::config::openings::Opening;
use crate::matches::config::request::{MatchConfig, MatchRequest};
use crate::matches::game::player::launch_all;
use crate::matches::tally::results::{GameResult, Tally};
use crate::matches::tally::sprt::SprtDecision;
use crate::matches::tally::stats::{Counts, Outcome, match_stats};
use crate::matches::tally::summary::{self, GameSummary, Summary, summary_table};
use crate::os::cpu::process_seconds;
use crate::protocol::Protocol;
use crate::starts::notation::{CastlingNotation, position_fen};
use crate::starts::start::Start;
use crate::tournaments::book::BookFormat;
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
    /// The runner did not start or did not end well.
    #[error("{runner}: {reason}")]
    Failed {
        /// The runner's program.
        runner: &'static str,
        /// What happened (its exit status and last output lines).
        reason: String,
    },
    /// The book or the PGN file could not be written or read.
    #[error("{path}: {reason}")]
    File {
        /// The file.
        path: String,
        /// What is wrong (for an unreadable game: the line and the reason).
        reason: String,
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
            HandoffError::Refused { .. } | HandoffError::File { .. } => USAGE,
            HandoffError::NotFound(_) => ENGINE_NOT_FOUND,
            HandoffError::Failed { .. } => ENGINE_UNSUITABLE,
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
    let started = Instant::now();
    let cpu_at_start = process_seconds();
    // Each engine's first handshake tells its protocol and name, as in the built-in runner.
    let mut probed = Vec::new();
    for (player, protocol, name) in launch_all(&config.engines, false)? {
        player.quit();
        probed.push((protocol, name));
    }
    let mut engines = Vec::new();
    for (index, ((protocol, name), limits)) in probed.iter().zip(&config.engine_limits).enumerate()
    {
        let mut spec = match engine_texts.get(index) {
            Some(text) => EngineSpec::parse(index + 1, text),
            None => EngineSpec::from_words(
                index + 1,
                &[format!("cmd={}", sp960.display()), "arg=engine".to_owned()],
            ),
        }
        .map_err(|err| MatchError::Usage(err.to_string()))?;
        if limits.nodes.is_some() && *protocol == Protocol::Xboard {
            return Err(MatchError::Limits(format!(
                "engine {} speaks XBoard, which has no node limit; use --depth, --movetime or --tc",
                index + 1
            ))
            .into());
        }
        spec.protocol = Some(*protocol);
        spec.name = Some(name.clone());
        spec.limits.depth = limits.depth;
        spec.limits.nodes = limits.nodes;
        spec.limits.st = limits
            .movetime
            .map(|time| (format!("{}", time.as_secs_f64()), time));
        engines.push(spec);
    }
    // A book of numbered starts is `sp960 tournament`'s EPD; with --openings, sp960 writes
    // the openings it chose (checked, cut to plies=, from start=, count=, order=) as a PGN
    // book the runner plays in order.
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
    let book_format = if numbered.is_some() {
        BookFormat::Epd
    } else {
        BookFormat::Pgn
    };
    let book = book_path(&config.pgn, book_format);
    let placeholder: Start = "518".parse().expect("a valid start");
    let starts = layout
        .book
        .iter()
        .map(|&index| {
            numbered
                .as_ref()
                .map_or(placeholder, |starts| starts[index])
        })
        .collect();
    let tournament = Tournament {
        tool: runner.tool(),
        engines,
        starts,
        time_control: match &config.limits.clock {
            Some(clock) => clock.clone(),
            None => NO_CLOCK.parse().expect("a valid time control"),
        },
        book: book.display().to_string(),
        book_format,
        castling: CastlingNotation::Shredder,
        pgn_out: config.pgn.display().to_string(),
        concurrency: Some(u32::try_from(config.concurrency).unwrap_or(u32::MAX)),
        sp960: sp960.display().to_string(),
        other_roots: match numbered {
            Some(_) => Vec::new(),
            None => config
                .openings
                .iter()
                .map(|opening| (opening.label.clone(), opening.root.clone()))
                .collect(),
        },
    };
    let mut plan = plan(&tournament)?;
    plan.argv[0] = program.display().to_string();
    add_tournament_options(&mut plan, &config, runner, &layout);
    add_match_options(&mut plan, &config, runner);
    let book_text = match numbered {
        Some(_) => plan
            .book
            .clone()
            .expect("cutechess-cli and fastchess read a book"),
        None => pgn_book(&config.openings, &layout.book),
    };
    let file_error = |path: &Path, err: io::Error| HandoffError::File {
        path: path.display().to_string(),
        reason: err.to_string(),
    };
    std::fs::write(&book, book_text).map_err(|err| file_error(&book, err))?;
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
    let _ = std::fs::remove_file(&book);
    if !interrupted {
        ran?;
    }
    let text = read_from(&config.pgn, pgn_start).map_err(|err| file_error(&config.pgn, err))?;
    let games = read_games(&text).map_err(|reason| HandoffError::File {
        path: config.pgn.display().to_string(),
        reason,
    })?;
    let names: Vec<String> = (0..config.engines.len())
        .map(|index| engine_name(&plan.argv, index))
        .collect();
    let mut summary =
        summarize(&config, &layout, &names, &games, started, cpu_at_start).map_err(|reason| {
            HandoffError::File {
                path: config.pgn.display().to_string(),
                reason,
            }
        })?;
    summary.interrupted = interrupted;
    let text = if json {
        let mut text = serde_json::to_string_pretty(&summary).expect("plain data");
        text.push('\n');
        text
    } else {
        summary_table(&summary)
    };
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|err| HandoffError::Match(MatchError::Output(err)))?;
    if interrupted {
        return Err(MatchError::Interrupted {
            games: summary.played,
            pgn: summary.pgn,
        }
        .into());
    }
    Ok(summary)
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
    let fail = |reason: String| HandoffError::Failed {
        runner: runner.program(),
        reason,
    };
    let mut child = Command::new(&argv[0])
        .args(&argv[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|err| match err.kind() {
            io::ErrorKind::NotFound => HandoffError::NotFound(runner.program()),
            _ => fail(format!("cannot start: {err}")),
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
    let status = child.wait().map_err(|err| fail(err.to_string()))?;
    if status.success() {
        return Ok(());
    }
    let mut reason = crate::os::process::ProcessEnding::of(Some(status)).describe();
    if quiet && !last.is_empty() {
        reason.push_str("; its last lines:\n");
        reason.push_str(&Vec::from(last).join("\n"));
    }
    Err(fail(reason))
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
pub fn read_games(text: &str) -> Result<Vec<RunnerGame>, String> {
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
            tags.push(
                tag(line)
                    .ok_or_else(|| format!("line {}: a malformed tag pair: {line}", number + 1))?,
            );
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

/// `[Key "value"]` with `\"` and `\\` unescaped.
fn tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (key, value) = inner.split_once(' ')?;
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((
        key.to_owned(),
        value.replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

fn game(line: usize, tags: &[(String, String)], movetext: &str) -> Result<RunnerGame, String> {
    let get = |key: &str| {
        tags.iter()
            .find(|(k, _)| k == key)
            .map(|(_, value)| value.clone())
    };
    let need =
        |key: &str| get(key).ok_or_else(|| format!("line {line}: the game has no {key} tag"));
    let fen = get("FEN");
    if let Some(fen) = &fen {
        crate::protocol::game::parse_fen(fen)
            .map_err(|err| format!("line {line}: FEN '{fen}': {err}"))?;
    }
    let round = need("Round")?;
    let round = round
        .parse()
        .map_err(|_| format!("line {line}: Round '{round}' is not a number"))?;
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
    fn cycle(&self, round: u64, matchup: usize) -> Result<usize, String> {
        let index = usize::try_from(round.saturating_sub(1)).unwrap_or(usize::MAX);
        let cycle = match self.runner {
            Runner::Cutechess => index / self.rounds_per_cycle,
            Runner::Fastchess => {
                let count = self.matchups.len();
                if index % count != matchup {
                    return Err(format!(
                        "Round {round} is not a game between engines {} and {} in fastchess's \
                         order",
                        self.matchups[matchup].0 + 1,
                        self.matchups[matchup].1 + 1
                    ));
                }
                index / count
            }
        };
        if round == 0 || cycle >= self.cycles {
            return Err(format!("Round {round} is outside the match's schedule"));
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
        let _ = writeln!(text, "[Event \"{label}\"]");
        for (key, value) in [
            ("Site", "?"),
            ("Date", "????.??.??"),
            ("Round", "-"),
            ("White", "?"),
            ("Black", "?"),
            ("Result", "*"),
            ("Variant", "fischerandom"),
            ("SetUp", "1"),
        ] {
            let _ = writeln!(text, "[{key} \"{value}\"]");
        }
        let _ = writeln!(
            text,
            "[FEN \"{}\"]\n",
            position_fen(&opening.root, CastlingNotation::Shredder)
        );
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

/// The summary of the games the runner played, counted by the built-in runner's tally: each
/// game is placed in the built-in runner's schedule (its opening, pair and game number) by
/// [`Layout`], and its `FEN` tag must be that opening's root.
fn summarize(
    config: &MatchConfig,
    layout: &Layout,
    names: &[String],
    games: &[RunnerGame],
    started: Instant,
    cpu_at_start: f64,
) -> Result<Summary, String> {
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
        let at = |reason: String| format!("line {}: {reason}", game.line);
        let cycle = layout.cycle(game.round, matchup).map_err(at)?;
        let opening = layout.opening(cycle, matchup);
        if let Some(fen) = &game.fen
            && position_fields(fen).as_ref() != Some(&roots[opening])
        {
            return Err(at(format!(
                "FEN '{fen}' is not the root of opening {} ({}), which the runner's schedule \
                 gives Round {}",
                opening + 1,
                config.openings[opening].label,
                game.round
            )));
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
        listed.push(GameSummary {
            round: 2 * pair + if white < black { 1 } else { 2 },
            start: config.openings[opening].label.clone(),
            white: game.white.clone(),
            black: game.black.clone(),
            result: game.result.clone(),
            termination: game.termination.clone(),
            reason: game.reason.clone(),
            plies: game.plies,
        });
    }
    let stats = match_stats(&Counts::Pairs(tally.pairs(0)), config.sprt.as_ref());
    let score = tally.score(0);
    let finite = |x: f64| x.is_finite().then_some(x);
    Ok(Summary {
        sprt: config
            .sprt
            .map(|_| summary::verdict(stats.decision.unwrap_or(SprtDecision::Continue)).to_owned()),
        stats,
        unpaired_games: tally.unpaired(),
        score_fraction: score.fraction(),
        elo: finite(score.elo_difference()),
        elo_margin: finite(score.elo_margin()),
        standings: tally.standings(names),
        pairs: tally.matchups(names),
        engines: names.to_vec(),
        score,
        played: listed.len(),
        games: listed,
        pgn: config.pgn.display().to_string(),
        wall_seconds: started.elapsed().as_secs_f64(),
        runner_cpu_seconds: process_seconds() - cpu_at_start,
        interrupted: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CUTECHESS: &str = r#"[Event "?"]
[Round "3"]
[White "a"]
[Black "b"]
[Result "0-1"]
[FEN "qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w KQkq - 0 1"]
[PlyCount "4"]
[SetUp "1"]
[Termination "adjudication"]

1. c4 {+0.34/7 0.002s} b5 {-0.53/5 0.001s} 2. b3 {+0.54/7 0.002s}
bxc4 {-0.45/6 0.001s, Black wins by adjudication} 0-1

[Event "?"]
[Round "3"]
[White "b"]
[Black "a"]
[Result "1/2-1/2"]
[FEN "qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w KQkq - 0 1"]
[SetUp "1"]

1. c4 b5 (1... e5 2. d4) 2. b3 $1 {Draw by 3-fold repetition} 1/2-1/2
"#;

    #[test]
    fn a_runners_games_are_read_with_their_start_plies_and_reason() {
        let games = read_games(CUTECHESS).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(
            games[0],
            RunnerGame {
                round: 3,
                white: "a".into(),
                black: "b".into(),
                result: "0-1".into(),
                line: 1,
                fen: Some("qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w KQkq - 0 1".into()),
                termination: "adjudication".into(),
                reason: "Black wins by adjudication".into(),
                plies: 4,
            }
        );
        assert_eq!(games[1].plies, 3, "variations and NAGs are not moves");
        assert_eq!(games[1].reason, "Draw by 3-fold repetition");
        assert_eq!(games[1].termination, "normal");
        assert_eq!(games[1].line, 14);
        // fastchess's Shredder castling is the same position.
        let shredder = CUTECHESS.replace("w KQkq", "w HEhe");
        let fen = read_games(&shredder).unwrap()[0].fen.clone().unwrap();
        assert_eq!(
            position_fields(&fen),
            position_fields(games[0].fen.as_ref().unwrap())
        );
    }

    #[test]
    fn a_bad_game_names_its_line() {
        let err = read_games("[Event \"?\"]\n\n1. e4 *\n").unwrap_err();
        assert_eq!(err, "line 1: the game has no Round tag");
        let err = read_games("[Event \"?\"]\n[Round x]\n").unwrap_err();
        assert_eq!(err, "line 2: a malformed tag pair: [Round x]");
        let bad_fen = CUTECHESS.replace("qbbnrnkr/", "qbbnrnk/");
        assert!(
            read_games(&bad_fen)
                .unwrap_err()
                .starts_with("line 1: FEN '")
        );
        assert_eq!(read_games("").unwrap(), Vec::new());
    }

    fn config(engines: usize, gauntlet: bool, starts: &str, rounds: u32) -> MatchConfig {
        let names: Vec<String> = (0..engines).map(|i| format!("e{i}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut request = MatchRequest::for_tests(&names);
        request.gauntlet = gauntlet;
        request.starts.specs = vec![starts.into()];
        request.rounds = rounds;
        request.resolve().unwrap()
    }

    /// Every matchup meets every opening `--rounds` times in the runner's schedule, as in
    /// the built-in runner's.
    fn assert_complete(layout: &Layout, config: &MatchConfig) {
        let mut met = HashMap::<(usize, usize), u32>::new();
        for cycle in 0..layout.cycles {
            for matchup in 0..layout.matchups.len() {
                *met.entry((matchup, layout.opening(cycle, matchup)))
                    .or_default() += 1;
            }
        }
        assert_eq!(met.len(), config.matchups.len() * config.openings.len());
        assert!(met.values().all(|&times| times == config.rounds), "{met:?}");
    }

    #[test]
    fn the_book_reaches_every_matchup_with_every_opening() {
        for (engines, gauntlet, starts, rounds) in [
            (2, false, "100-102", 2),
            (3, false, "100-101", 1),
            (4, false, "100-104", 1),
            (4, false, "100-102", 6),
            (3, true, "100-102", 1),
            (4, true, "100-101", 3),
        ] {
            let config = config(engines, gauntlet, starts, rounds);
            for runner in [Runner::Cutechess, Runner::Fastchess] {
                let layout = Layout::new(&config, runner).unwrap();
                assert_complete(&layout, &config);
            }
        }
        // cutechess-cli counts Berger rounds: 4 engines, 3 a cycle; 5 engines (a bye), 5.
        let four = Layout::new(&config(4, false, "100", 1), Runner::Cutechess).unwrap();
        assert_eq!(four.rounds_per_cycle, 3);
        let five = Layout::new(&config(5, false, "100", 1), Runner::Cutechess).unwrap();
        assert_eq!(five.rounds_per_cycle, 5);
        // fastchess: 3 pairings of a round-robin and 3 openings cannot all meet in 3 rounds.
        let err = Layout::new(&config(3, false, "100-102", 1), Runner::Fastchess).unwrap_err();
        assert!(
            err.to_string()
                .contains("give --rounds a multiple of 3, or use --runner cutechess"),
            "{err}"
        );
        let three = config(3, false, "100-102", 3);
        assert_complete(&Layout::new(&three, Runner::Fastchess).unwrap(), &three);
    }

    #[test]
    fn a_pgn_book_holds_each_openings_root_and_moves_for_cutechess() {
        let root: shakmaty::Chess = "100".parse::<Start>().unwrap().position().unwrap();
        let moves: Vec<_> = ["e2e4", "e7e5", "f1g3", "f8g6", "g1h1"]
            .iter()
            .scan(root.clone(), |position, uci| {
                use shakmaty::Position as _;
                let m = uci
                    .parse::<shakmaty::uci::UciMove>()
                    .unwrap()
                    .to_move(position)
                    .unwrap();
                position.play_unchecked(m);
                Some(m)
            })
            .collect();
        let opening = Opening {
            label: "book.pgn:1".into(),
            root,
            moves,
        };
        let text = pgn_book(std::slice::from_ref(&opening), &[0, 0]);
        assert_eq!(text.matches("[Variant \"fischerandom\"]").count(), 2);
        assert!(text.contains(
            "[FEN \"qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w HEhe - 0 1\"]\n\n\
             1. e4 e5 2. Ng3 Ng6 3. O-O *\n"
        ));
    }

    #[test]
    fn the_engine_names_are_the_lines_name_words() {
        let argv: Vec<String> = [
            "fastchess",
            "-engine",
            "name=a b",
            "cmd=x",
            "-engine",
            "cmd=y",
            "name=c",
            "-each",
        ]
        .map(str::to_owned)
        .into();
        assert_eq!(engine_name(&argv, 0), "a b");
        assert_eq!(engine_name(&argv, 1), "c");
    }
}
