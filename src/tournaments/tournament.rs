//! Tournament command lines for match runners: given engines, starts and a time control,
//! the cutechess-cli, fastchess or xboard command that plays every start with both
//! colours, plus the book it reads. Engines that cannot play Chess960 as the tool drives
//! them are wrapped in `sp960 proxy -- ...`, or refused when no wrapper can help.
//!
//! Everything here is pure: [`plan`] decides how each engine is started and builds the
//! one [`RunnerCommand`] of the tournament, which the runner's dialect
//! ([`super::runners`]) renders into a command line and a book text; [`shell_line`]
//! writes the line for the user's shell ([`Shell`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use shakmaty::Chess;
use thiserror::Error;

use super::shell::Shell;

use super::runners::{
    Adjudication, CommandLine, Dialect, Entrant, Openings, Run, RunnerCommand, RunnerLaunch,
    Schedule, TournamentKind,
};
use crate::books::book::{BookFormat, BookRequest};
use crate::launch::proxy_invocation::{ProxyInvocation, ProxyOptions};
use crate::launch::spec::{EngineCastlingArg, EngineSpec, ProxyChoice};
use crate::launch::time_control::TimeControl;
use crate::matches::tally::sprt::SprtConfig;
use crate::protocol::Protocol;
use crate::protocol::game::shared_castling_files;
use crate::protocol::quirks::{Quirks, quirks, sets_threads};
use crate::starts::notation::CastlingNotation;
use crate::starts::numbering::STANDARD;
use crate::starts::start::Start;

pub use super::runners::Tool;

pub use super::error::TournamentError;

/// A tournament to write a command line for.
#[derive(Debug, Clone)]
pub struct Tournament {
    /// The match runner.
    pub tool: Tool,
    /// The engines (two for xboard).
    pub engines: Vec<EngineSpec>,
    /// The starts, each played twice with colours swapped.
    pub starts: Vec<Start>,
    /// Time control for every engine; none for a match without a clock (`tc=inf`).
    pub time_control: Option<TimeControl>,
    /// Where the book goes (the command line names it as given).
    pub book: String,
    /// Book format for cutechess-cli and fastchess (xboard always reads FENs).
    pub book_format: BookFormat,
    /// Castling notation in the book.
    pub castling: CastlingNotation,
    /// Where the tool saves the games.
    pub pgn_out: String,
    /// Games at once (cutechess-cli and fastchess), when given.
    pub concurrency: Option<u32>,
    /// How the command line invokes sp960 for wrapped engines.
    pub sp960: String,
    /// Where games start besides `starts`, labelled: the roots of the openings
    /// `sp960 match --runner --openings` writes into its own book (its `starts` then only
    /// count the games). Their castling rights count as the starts' do when deciding
    /// which engines need the proxy's shield.
    pub other_roots: Vec<(String, Chess)>,
    /// What a match handed to the runner adds (`sp960 match --runner`).
    pub(crate) match_options: MatchOptions,
}

/// What `sp960 match --runner` adds to a tournament: the runner's path, its rounds and
/// tournament kind as the match's schedule lays them out, the move margin, the
/// adjudications and the SPRT. None of these for `sp960 tournament`.
#[derive(Debug, Clone, Default)]
pub(crate) struct MatchOptions {
    /// The runner's program (its path on PATH), instead of its name.
    pub(crate) program: Option<String>,
    /// The runner's rounds, instead of one per start.
    pub(crate) rounds: Option<usize>,
    /// `-tournament`, for more than two engines.
    pub(crate) kind: Option<TournamentKind>,
    /// How long past `st=` a move may take.
    pub(crate) move_margin: Option<Duration>,
    /// `-maxmoves`, `-resign`, `-draw`.
    pub(crate) adjudication: Adjudication,
    /// `-sprt`.
    pub(crate) sprt: Option<SprtConfig>,
}

/// A tournament as the command line gives it, read by clap: each `--engine` an engine spec
/// (the keys the tool refuses checked by [`TournamentRequest::resolve`]), the starts as a
/// book request, the time control.
#[derive(Debug, Clone)]
pub struct TournamentRequest {
    /// The match runner.
    pub tool: Tool,
    /// The engines, in `--engine` order.
    pub engines: Vec<EngineSpec>,
    /// The starts (seed already chosen).
    pub starts: BookRequest,
    /// Time control, cutechess syntax.
    pub time_control: TimeControl,
    /// Where the book goes (default: [`default_book_path`]).
    pub book: Option<PathBuf>,
    /// Book format for cutechess-cli and fastchess.
    pub book_format: BookFormat,
    /// Castling notation in the book.
    pub castling: CastlingNotation,
    /// Where the match runner saves the games.
    pub pgn_out: PathBuf,
    /// Games at once, when given.
    pub concurrency: Option<u32>,
    /// How the command line invokes sp960 for wrapped engines.
    pub sp960: String,
    /// The shell the command line is written for.
    pub shell: Shell,
    /// A book the runner plays as it is (`--openings FILE`) instead of one of `starts`.
    pub given_book: Option<GivenBook>,
}

/// An existing book the tournament plays (a generated one, say): its path, format and the
/// root of each opening (read and checked by [`crate::books::openings::read_openings`]).
#[derive(Debug, Clone)]
pub struct GivenBook {
    /// The file, as the command line names it.
    pub path: String,
    /// EPD or PGN.
    pub format: BookFormat,
    /// Each opening's label and root position, in file order.
    pub roots: Vec<(String, Chess)>,
}

impl TournamentRequest {
    /// Reads the starts and checks the engines' keys against the tool; the first error is
    /// returned.
    pub fn resolve(self) -> Result<Tournament, TournamentError> {
        if let Some(given) = self.given_book {
            return TournamentRequest {
                book: Some(given.path.into()),
                book_format: given.format,
                starts: BookRequest {
                    specs: vec![Start::symmetric(STANDARD).into()],
                    ..BookRequest::default()
                },
                given_book: None,
                ..self
            }
            .resolve()
            .map(|tournament| Tournament {
                // One round per opening: `-rounds` counts `starts`, whose starts are then
                // placeholders; the roots decide the proxy's shield as starts would.
                starts: vec![tournament.starts[0]; given.roots.len()],
                other_roots: given.roots,
                ..tournament
            });
        }
        let starts = self.starts.starts()?;
        for engine in &self.engines {
            engine.refuse(self.tool.dialect().unsupported_keys())?;
        }
        Ok(Tournament {
            tool: self.tool,
            engines: self.engines,
            starts,
            time_control: Some(self.time_control),
            // The paths as the command line names them (`--book` and `--pgnout` are read as
            // text, so nothing is lost).
            book: self.book.map_or_else(
                || default_book_path(self.tool, self.book_format),
                |path| path.display().to_string(),
            ),
            book_format: self.book_format,
            castling: self.castling,
            pgn_out: self.pgn_out.display().to_string(),
            concurrency: self.concurrency,
            sp960: self.sp960,
            other_roots: Vec::new(),
            match_options: MatchOptions::default(),
        })
    }
}

/// A tournament command, ready to write out.
#[derive(Debug, Clone, PartialEq)]
pub struct TournamentPlan {
    /// What the runner is asked to play.
    pub(crate) command: RunnerCommand,
    /// The command line, rendered once from `command` by the runner's dialect.
    pub(crate) line: CommandLine,
    /// The book to write at the path the command names, if the command reads one.
    pub book: Option<String>,
    /// What was decided about each engine and why, for stderr.
    pub notes: Vec<String>,
}

impl TournamentPlan {
    /// How each engine is started, in `--engine` order.
    pub(crate) fn launches(&self) -> impl Iterator<Item = &RunnerLaunch> {
        self.command.engines.iter().map(|entrant| &entrant.launch)
    }
}

/// Works out the whole command line and book for `tournament`.
pub fn plan(tournament: &Tournament) -> Result<TournamentPlan, TournamentError> {
    let dialect = tournament.tool.dialect();
    dialect.check_engine_count(tournament.engines.len())?;
    let mut notes = Vec::new();
    let names = unique_names(&tournament.engines, dialect);
    let mut engines = Vec::new();
    for (engine, name) in tournament.engines.iter().zip(names) {
        engines.push(Entrant {
            spec: engine.clone(),
            launch: launch(engine, name, tournament, &mut notes)?,
        });
    }
    let options = &tournament.match_options;
    let command = RunnerCommand {
        program: options
            .program
            .clone()
            .unwrap_or_else(|| dialect.program().to_owned()),
        engines,
        clock: tournament.time_control.clone(),
        move_margin: options.move_margin,
        book: Openings {
            path: tournament.book.clone(),
            format: tournament.book_format,
            castling: tournament.castling,
            starts: tournament.starts.clone(),
        },
        schedule: Schedule {
            rounds: options.rounds.unwrap_or(tournament.starts.len()),
            kind: options.kind,
            concurrency: tournament.concurrency,
        },
        adjudication: options.adjudication,
        sprt: options.sprt,
        pgn_out: tournament.pgn_out.clone(),
    };
    let rendered = dialect.render(&command)?;
    notes.extend(rendered.notes);
    Ok(TournamentPlan {
        command,
        line: rendered.line,
        book: rendered.book,
        notes,
    })
}

/// The engines' names: `name=`, else the program's file name; for Cute Chess GUI its stem
/// and `-960` (`stockfish-960`), so that an entry of the user's own for the engine is not
/// replaced. Made unique with `-2`, `-3`, ...
fn unique_names(engines: &[EngineSpec], dialect: &dyn Dialect) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for engine in engines {
        let base = match &engine.name {
            Some(name) => name.clone(),
            None => dialect.default_name(engine.program()),
        };
        let mut name = base.clone();
        let mut n = 2;
        while names.contains(&name) {
            name = format!("{base}-{n}");
            n += 1;
        }
        names.push(name);
    }
    names
}

/// Decides whether `engine` is wrapped, and how; refuses engines nothing can help.
fn launch(
    engine: &EngineSpec,
    name: String,
    tournament: &Tournament,
    notes: &mut Vec<String>,
) -> Result<RunnerLaunch, TournamentError> {
    let dialect = tournament.tool.dialect();
    let tool_name = dialect.name();
    let known = quirks(engine.program());
    let mut options = engine.options.clone();
    let cores = needed_threads(known, dialect, &name, &mut options, notes);
    let protocol = engine.protocol_or_uci();
    if !dialect.drives_xboard() && protocol == Protocol::Xboard {
        return Err(TournamentError::CannotPlay {
            name,
            tool: tool_name,
            reason: format!(
                "{tool_name} speaks only UCI, and sp960 proxy does not translate between \
                 protocols; use --emit cutechess or --emit xboard"
            ),
        });
    }
    let mut wrapping = Wrapping::default();
    match protocol {
        Protocol::Uci => wrapping.uci(engine, known, tournament, tool_name)?,
        Protocol::Xboard => wrapping.xboard(engine, known, tool_name),
    }
    if !wrapping.decide(engine.proxy, &name, notes) {
        return Ok(RunnerLaunch {
            name,
            run: Run::Bare {
                program: engine.cmd.clone(),
                args: engine.args.clone(),
            },
            options,
            cores,
        });
    }
    notes.push(format!(
        "engine '{name}': wrapped in sp960 proxy because {}",
        wrapping.reasons.join("; and ")
    ));
    let options_of_proxy = ProxyOptions {
        protocol: (protocol == Protocol::Xboard).then_some(Protocol::Xboard),
        ..wrapping.proxy
    };
    Ok(RunnerLaunch {
        name,
        run: Run::Proxied {
            sp960: tournament.sp960.clone(),
            invocation: ProxyInvocation::new(options_of_proxy, &engine.cmd, &engine.args),
        },
        options,
        cores,
    })
}

/// The `Threads` an engine needs ([`Quirks::threads`]) when the user set none: added to
/// `options`, or for xboard returned as the `-smpCores` polyglot passes on; with a note.
fn needed_threads(
    known: Quirks,
    dialect: &dyn Dialect,
    name: &str,
    options: &mut Vec<(String, String)>,
    notes: &mut Vec<String>,
) -> Option<u32> {
    let threads = known.threads?;
    if sets_threads(options.iter().map(|(name, _)| name.as_str())) {
        return None;
    }
    let mut cores = None;
    let given = if dialect.threads_as_cores() {
        // xboard sends an engine only the options it declares, and polyglot declares
        // no Threads: it sets Threads from xboard's `cores` (-smpCores, both engines).
        cores = Some(threads);
        format!("-smpCores {threads} (polyglot passes it on as Threads {threads})")
    } else {
        options.push(("Threads".to_owned(), threads.to_string()));
        format!("option Threads={threads}")
    };
    notes.push(format!(
        "engine '{name}': given {given}, because with more threads (its default is 2) it \
         crashes in Chess960 positions (set option.Threads=N to choose)"
    ));
    cores
}

/// Why an engine would be wrapped in `sp960 proxy`, and the proxy's arguments for it.
#[derive(Debug, Default)]
struct Wrapping {
    proxy: ProxyOptions,
    reasons: Vec<String>,
}

impl Wrapping {
    /// A UCI engine: no `UCI_Chess960`, X-FEN castling, shared castling files, or
    /// cutechess-cli's `UCI_Variant`.
    fn uci(
        &mut self,
        engine: &EngineSpec,
        known: Quirks,
        tournament: &Tournament,
        tool_name: &str,
    ) -> Result<(), TournamentError> {
        let has_chess960 = engine.chess960.unwrap_or(!known.no_uci_chess960);
        if !has_chess960 {
            self.proxy.offer_chess960 = true;
            self.reasons.push(format!(
                "it has no UCI_Chess960 option, so {} would not play Chess960 with it \
                 (the proxy offers the option and gives it each position as standard \
                 chess: it plays legal moves but never castles where Chess960 castling \
                 differs from standard castling)",
                tool_name
            ));
        }
        if engine.castling == Some(EngineCastlingArg::Xfen) {
            self.proxy.engine_castling = Some(EngineCastlingArg::Xfen);
            self.reasons.push(format!(
                "it takes X-FEN castling (KQkq) and {tool_name} sends Shredder-FEN (HAha)"
            ));
        }
        if known.shared_castling_files
            && has_chess960
            && let Some(label) = castling_files_differ(tournament)?
        {
            self.reasons.push(format!(
                "it keeps one king file and one rook file per wing for both colours, and \
                 in {label} the colours' castling files differ: given such castling \
                 rights it corrupts its memory and hangs or crashes (the proxy gives it \
                 only the rights it can hold; the game is unchanged)"
            ));
        }
        if tournament.tool.dialect().sends_uci_variant()
            && known.uci_variant_fischerandom
            && has_chess960
        {
            self.reasons.push(format!(
                "{tool_name} sends it `UCI_Variant chess960` instead of UCI_Chess960, \
                 so it stays in standard chess (castling `c1c1`, illegal moves)"
            ));
        }
        Ok(())
    }

    /// An XBoard engine: xboard and cutechess-cli both send castling to XBoard engines
    /// as O-O/O-O-O in fischerandom, so the engines that want king-takes-rook are wrapped.
    fn xboard(&mut self, engine: &EngineSpec, known: Quirks, tool_name: &str) {
        let takes = engine
            .castling
            .or(known.xboard_kxr.then_some(EngineCastlingArg::Kxr));
        if takes == Some(EngineCastlingArg::Kxr) {
            self.proxy.engine_castling = Some(EngineCastlingArg::Kxr);
            self.reasons.push(format!(
                "{tool_name} sends castling as O-O/O-O-O, which it rejects (it takes \
                 king-takes-rook)"
            ));
        }
    }

    /// Whether to wrap, as `proxy=` says (auto: when there is a reason); a note when
    /// `proxy=no` leaves an engine unwrapped that needs the proxy.
    fn decide(&mut self, choice: ProxyChoice, name: &str, notes: &mut Vec<String>) -> bool {
        match choice {
            ProxyChoice::Auto => !self.reasons.is_empty(),
            ProxyChoice::Always => {
                if self.reasons.is_empty() {
                    self.reasons.push("proxy=yes".into());
                }
                true
            }
            ProxyChoice::Never => {
                if !self.reasons.is_empty() {
                    notes.push(format!(
                        "engine '{name}': NOT wrapped (proxy=no) although {}; expect broken games",
                        self.reasons.join("; and ")
                    ));
                }
                false
            }
        }
    }
}

/// The label of the first start (or other root) whose castling rights put the colours'
/// kings or rooks on different files (most DFRC pairs: `DFRC 860:1`), if any. Rights are
/// only lost in a game, so a start whose files agree never leads to a position whose do
/// not.
fn castling_files_differ(tournament: &Tournament) -> Result<Option<String>, TournamentError> {
    for start in &tournament.starts {
        if !shared_castling_files(&start.position()?) {
            return Ok(Some(start.label()));
        }
    }
    Ok(tournament
        .other_roots
        .iter()
        .find(|(_, root)| !shared_castling_files(root))
        .map(|(label, _)| label.clone()))
}

/// The book file name used when none is given: `sp960-FRC.epd`, `.pgn`, or `.fen` for
/// xboard (fishtest and OpenBench look for `FRC` in the name).
pub fn default_book_path(tool: Tool, format: BookFormat) -> String {
    let format = tool.dialect().book_format(format);
    format!("sp960-FRC.{}", format.extension())
}

/// Resolves `request`, writes the book (if the command reads one) and then the command
/// line to `out`; returns the notes and warnings for stderr. Nothing is written if the
/// request is invalid or the tournament cannot be played.
pub fn write_tournament(
    request: TournamentRequest,
    out: &mut impl std::io::Write,
) -> Result<Vec<String>, WriteTournamentError> {
    let request_shell = request.shell;
    // A given book (`--openings`) is the runner's to read: nothing is written over it.
    let given_book = request.given_book.is_some();
    if let Some(refusal) = request
        .tool
        .dialect()
        .refuses_given_book()
        .filter(|_| given_book)
    {
        return Err(TournamentError::EngineCount(refusal.to_owned()).into());
    }
    let tournament = &request.resolve()?;
    let plan = plan(tournament)?;
    let mut notes = plan.notes.clone();
    if let Some(book) = plan.book.as_ref().filter(|_| !given_book) {
        let path = Path::new(&tournament.book);
        std::fs::write(path, book).map_err(|source| WriteTournamentError::Io {
            path: tournament.book.clone(),
            source,
        })?;
        notes.extend(crate::books::book::file_name_warning(path));
    }
    out.write_all(shell_line(&plan, request_shell).as_bytes())
        .and_then(|()| out.flush())
        .map_err(|source| WriteTournamentError::Io {
            path: "<stdout>".to_owned(),
            source,
        })?;
    Ok(notes)
}

/// Why `write_tournament` failed.
#[derive(Debug, Error)]
pub enum WriteTournamentError {
    /// The tournament cannot be played as asked.
    #[error(transparent)]
    Plan(#[from] TournamentError),
    /// The book or the command line could not be written.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file (or `<stdout>`).
        path: String,
        /// The OS error.
        source: std::io::Error,
    },
}

/// The command as a line of `shell`, continued before each break.
pub fn shell_line(plan: &TournamentPlan, shell: Shell) -> String {
    shell.line(&plan.line.argv, &plan.line.breaks)
}

#[cfg(test)]
#[path = "tournament_tests.rs"]
mod tests;
