//! Tournament command lines for match runners: given engines, starts and a time control,
//! the cutechess-cli, fastchess or xboard command that plays every start with both
//! colours, plus the book it reads. Engines that cannot play Chess960 as the tool drives
//! them are wrapped in `sp960 proxy -- ...`, or refused when no wrapper can help.
//!
//! Everything here is pure: [`plan`] turns a [`Tournament`] into an argv and a book text;
//! [`shell_line`] renders the argv for the user's shell ([`Shell`]).

use std::path::Path;

use shakmaty::Chess;
use thiserror::Error;

use super::shell::Shell;

use crate::launch::spec::{EngineSpec, EngineSpecError, ProxyChoice, Restart};
use crate::launch::time_control::{TimeControl, TimeControlError};
use crate::protocol::Protocol;
use crate::protocol::game::shared_castling_files;
use crate::protocol::quirks::{Quirks, quirks, sets_threads};
use crate::starts::notation::CastlingNotation;
use crate::starts::start::{InvalidStart, Start};
use crate::tournaments::book::{BookError, BookFormat, BookRequest, render};

/// The match runner to write a command line for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Tool {
    /// cutechess-cli (UCI and XBoard engines, any number).
    Cutechess,
    /// fastchess (UCI engines only).
    Fastchess,
    /// xboard 4.9 in match mode (two engines; UCI ones through polyglot).
    Xboard,
}

/// Why no tournament command could be written.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TournamentError {
    /// A malformed `--engine`, or a key the tool does not take.
    #[error(transparent)]
    Engine(#[from] EngineSpecError),
    /// A malformed or out-of-range time control.
    #[error(transparent)]
    TimeControl(#[from] TimeControlError),
    /// An engine that cannot play Chess960 in this tool, wrapped or not.
    #[error("engine '{name}' cannot play Chess960 under {tool}: {reason}")]
    CannotPlay {
        /// The engine's name.
        name: String,
        /// The tool.
        tool: &'static str,
        /// Why, and what would happen.
        reason: String,
    },
    /// A base time xboard cannot take.
    #[error("time control '{0}': xboard takes whole seconds of base time")]
    XboardTime(String),
    /// Too few or too many engines for the tool.
    #[error("{0}")]
    EngineCount(String),
    /// The starts asked for are invalid.
    #[error(transparent)]
    Starts(#[from] BookError),
    /// A start shakmaty refused (a bug).
    #[error(transparent)]
    Invalid(#[from] InvalidStart),
}

impl TournamentError {
    /// The exit code (README's table): a usage error 2, bad starts 1, an engine that
    /// cannot play in the tool 3.
    pub fn exit_code(&self) -> u8 {
        use crate::exit_code::{ENGINE_UNSUITABLE, INVALID_DATA, USAGE};
        match self {
            TournamentError::CannotPlay { .. } => ENGINE_UNSUITABLE,
            TournamentError::Starts(BookError::Empty) => USAGE,
            TournamentError::Starts(_) | TournamentError::Invalid(_) => INVALID_DATA,
            TournamentError::Engine(_)
            | TournamentError::TimeControl(_)
            | TournamentError::XboardTime(_)
            | TournamentError::EngineCount(_) => USAGE,
        }
    }
}

/// A tournament to write a command line for.
#[derive(Debug, Clone)]
pub struct Tournament {
    /// The match runner.
    pub tool: Tool,
    /// The engines (two for xboard).
    pub engines: Vec<EngineSpec>,
    /// The starts, each played twice with colours swapped.
    pub starts: Vec<Start>,
    /// Time control for every engine.
    pub time_control: TimeControl,
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
}

/// A tournament as the command line gives it: each engine as one `--engine` string, the
/// starts as a book request, the time control as text.
#[derive(Debug, Clone)]
pub struct TournamentRequest {
    /// The match runner.
    pub tool: Tool,
    /// One `KEY=VALUE ...` string per engine.
    pub engines: Vec<String>,
    /// The starts (seed already chosen).
    pub starts: BookRequest,
    /// Time control, cutechess syntax.
    pub time_control: String,
    /// Where the book goes (default: [`default_book_path`]).
    pub book: Option<String>,
    /// Book format for cutechess-cli and fastchess.
    pub book_format: BookFormat,
    /// Castling notation in the book.
    pub castling: CastlingNotation,
    /// Where the match runner saves the games.
    pub pgn_out: String,
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
/// root of each opening (read and checked by [`crate::matches::config::openings::read_openings`]).
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
    /// Reads the engines, starts and time control; the first error is returned.
    pub fn resolve(self) -> Result<Tournament, TournamentError> {
        if let Some(given) = self.given_book {
            return TournamentRequest {
                book: Some(given.path),
                book_format: given.format,
                starts: BookRequest {
                    specs: vec!["518".to_owned()],
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
        let mut engines = Vec::new();
        for (index, line) in self.engines.iter().enumerate() {
            let engine = EngineSpec::parse(index + 1, line)?;
            engine.refuse(unsupported_keys(self.tool))?;
            engines.push(engine);
        }
        Ok(Tournament {
            tool: self.tool,
            engines,
            starts,
            time_control: self.time_control.parse()?,
            book: self
                .book
                .unwrap_or_else(|| default_book_path(self.tool, self.book_format)),
            book_format: self.book_format,
            castling: self.castling,
            pgn_out: self.pgn_out,
            concurrency: self.concurrency,
            sp960: self.sp960,
            other_roots: Vec::new(),
        })
    }
}

/// The engine keys a tool cannot be given, with the reason.
fn unsupported_keys(tool: Tool) -> &'static [(&'static str, &'static str)] {
    match tool {
        Tool::Cutechess => &[],
        Tool::Fastchess => &[(
            "initstr",
            "by fastchess (it has no initstr; send options with option.NAME=VALUE)",
        )],
        Tool::Xboard => &[
            (
                "initstr",
                "by xboard (it has no per-engine initialisation lines)",
            ),
            ("restart", "by xboard (it restarts engines itself)"),
            (
                "tc",
                "by xboard (one time control for both engines: use --tc)",
            ),
            (
                "st",
                "by xboard (one time control for both engines: use --tc)",
            ),
            ("depth", "by xboard (one limit for both engines)"),
            ("nodes", "by xboard (it has no per-engine node limit)"),
        ],
    }
}

/// A tournament command, ready to write out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The command, one word per element.
    pub argv: Vec<String>,
    /// Indices into `argv` where a new line reads well (before `-engine` and the like).
    pub breaks: Vec<usize>,
    /// The book to write at the path the command names, if the command reads one.
    pub book: Option<String>,
    /// What was decided about each engine and why, for stderr.
    pub notes: Vec<String>,
}

/// How one engine is started: program and arguments (through the proxy or not), and the
/// options it is given.
struct Launch {
    name: String,
    program: String,
    args: Vec<String>,
    options: Vec<(String, String)>,
    /// xboard's `-smpCores` the engine needs (polyglot's `Threads`).
    cores: Option<u32>,
}

impl Launch {
    /// Program and arguments as one command string (xboard's `-fcp`).
    fn command_string(&self) -> String {
        std::iter::once(&self.program)
            .chain(&self.args)
            .map(|word| Shell::Sh.quote(word))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Works out the whole command line and book for `tournament`.
pub fn plan(tournament: &Tournament) -> Result<Plan, TournamentError> {
    let tool = tournament.tool;
    let count = tournament.engines.len();
    match tool {
        Tool::Xboard if count != 2 => {
            return Err(TournamentError::EngineCount(format!(
                "xboard plays a match between exactly 2 engines; {count} given"
            )));
        }
        _ if count < 2 => {
            return Err(TournamentError::EngineCount(format!(
                "a tournament needs at least 2 engines; {count} given"
            )));
        }
        _ => {}
    }
    let mut notes = Vec::new();
    let names = unique_names(&tournament.engines);
    let mut launches = Vec::new();
    for (engine, name) in tournament.engines.iter().zip(names) {
        launches.push(launch(engine, name, tournament, &mut notes)?);
    }
    let mut plan = Plan {
        argv: Vec::new(),
        breaks: Vec::new(),
        book: None,
        notes,
    };
    match tool {
        Tool::Cutechess | Tool::Fastchess => runner_command(tournament, &launches, &mut plan)?,
        Tool::Xboard => xboard_command(tournament, &launches, &mut plan)?,
    }
    Ok(plan)
}

fn unique_names(engines: &[EngineSpec]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for engine in engines {
        let base = engine
            .name
            .clone()
            .unwrap_or_else(|| engine.program().to_owned());
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
) -> Result<Launch, TournamentError> {
    let tool = tournament.tool;
    let tool_name = match tool {
        Tool::Cutechess => "cutechess-cli",
        Tool::Fastchess => "fastchess",
        Tool::Xboard => "xboard",
    };
    let known = quirks(engine.program());
    let mut options = engine.options.clone();
    let cores = needed_threads(known, tool, &name, &mut options, notes);
    let protocol = engine.protocol_or_uci();
    if tool == Tool::Fastchess && protocol == Protocol::Xboard {
        return Err(TournamentError::CannotPlay {
            name,
            tool: tool_name,
            reason: "fastchess speaks only UCI, and sp960 proxy does not translate between \
                     protocols; use --emit cutechess or --emit xboard"
                .to_owned(),
        });
    }
    let mut wrapping = Wrapping::default();
    match protocol {
        Protocol::Uci => wrapping.uci(engine, known, tournament, tool_name)?,
        Protocol::Xboard => wrapping.xboard(engine, known, tool_name),
    }
    if !wrapping.decide(engine.proxy, &name, notes) {
        return Ok(Launch {
            name,
            program: engine.cmd.clone(),
            args: engine.args.clone(),
            options,
            cores,
        });
    }
    notes.push(format!(
        "engine '{name}': wrapped in sp960 proxy because {}",
        wrapping.reasons.join("; and ")
    ));
    let mut args = vec!["proxy".to_owned()];
    if protocol == Protocol::Xboard {
        args.extend(["--protocol".to_owned(), "xboard".to_owned()]);
    }
    args.extend(wrapping.proxy_args);
    args.push("--".to_owned());
    args.push(engine.cmd.clone());
    args.extend(engine.args.iter().cloned());
    Ok(Launch {
        name,
        program: tournament.sp960.clone(),
        args,
        options,
        cores,
    })
}

/// The `Threads` an engine needs ([`Quirks::threads`]) when the user set none: added to
/// `options`, or for xboard returned as the `-smpCores` polyglot passes on; with a note.
fn needed_threads(
    known: Quirks,
    tool: Tool,
    name: &str,
    options: &mut Vec<(String, String)>,
    notes: &mut Vec<String>,
) -> Option<u32> {
    let threads = known.threads?;
    if sets_threads(options.iter().map(|(name, _)| name.as_str())) {
        return None;
    }
    let mut cores = None;
    let given = if tool == Tool::Xboard {
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
    proxy_args: Vec<String>,
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
            self.proxy_args.push("--offer-chess960".to_owned());
            self.reasons.push(format!(
                "it has no UCI_Chess960 option, so {} would not play Chess960 with it \
                 (the proxy offers the option and gives it each position as standard \
                 chess: it plays legal moves but never castles where Chess960 castling \
                 differs from standard castling)",
                tool_name
            ));
        }
        if engine.castling.as_deref() == Some("xfen") {
            self.proxy_args
                .extend(["--engine-castling".to_owned(), "xfen".to_owned()]);
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
        if tournament.tool == Tool::Cutechess && known.uci_variant_fischerandom && has_chess960 {
            self.reasons.push(
                "cutechess-cli sends it `UCI_Variant chess960` instead of UCI_Chess960, \
                 so it stays in standard chess (castling `c1c1`, illegal moves)"
                    .into(),
            );
        }
        Ok(())
    }

    /// An XBoard engine: xboard and cutechess-cli both send castling to XBoard engines
    /// as O-O/O-O-O in fischerandom, so the engines that want king-takes-rook are wrapped.
    fn xboard(&mut self, engine: &EngineSpec, known: Quirks, tool_name: &str) {
        let takes = engine
            .castling
            .as_deref()
            .or(known.xboard_kxr.then_some("kxr"));
        if takes == Some("kxr") {
            self.proxy_args
                .extend(["--engine-castling".to_owned(), "kxr".to_owned()]);
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

/// cutechess-cli and fastchess share most of their syntax.
fn runner_command(
    tournament: &Tournament,
    launches: &[Launch],
    plan: &mut Plan,
) -> Result<(), TournamentError> {
    let fastchess = tournament.tool == Tool::Fastchess;
    // `-each` is applied after every `-engine` in both tools, so an engine with a time
    // limit of its own gets every time limit on its own line instead.
    let own_times = tournament.engines.iter().any(|e| e.limits.has_time());
    let argv = &mut plan.argv;
    argv.push(
        if fastchess {
            "fastchess"
        } else {
            "cutechess-cli"
        }
        .to_owned(),
    );
    for (engine, launch) in tournament.engines.iter().zip(launches) {
        plan.breaks.push(argv.len());
        engine_words(engine, launch, tournament, own_times, argv)?;
    }
    if !own_times {
        plan.breaks.push(argv.len());
        argv.extend([
            "-each".to_owned(),
            format!("tc={}", tournament.time_control),
        ]);
    }
    plan.breaks.push(argv.len());
    argv.extend(["-variant".to_owned(), "fischerandom".to_owned()]);
    let format = match tournament.book_format {
        BookFormat::Pgn => BookFormat::Pgn,
        BookFormat::Epd => BookFormat::Epd,
        BookFormat::Fen => {
            plan.notes.push(
                "--book-format fen is for xboard; cutechess-cli and fastchess get an EPD book"
                    .to_owned(),
            );
            BookFormat::Epd
        }
    };
    plan.breaks.push(argv.len());
    argv.extend([
        "-openings".to_owned(),
        format!("file={}", tournament.book),
        format!("format={}", format.extension()),
        "order=sequential".to_owned(),
    ]);
    plan.breaks.push(argv.len());
    argv.extend([
        "-games".to_owned(),
        "2".to_owned(),
        "-rounds".to_owned(),
        tournament.starts.len().to_string(),
        "-repeat".to_owned(),
    ]);
    if let Some(concurrency) = tournament.concurrency {
        argv.extend(["-concurrency".to_owned(), concurrency.to_string()]);
    }
    // Without -recover, one crashed or stalled engine ends the whole tournament in both
    // tools; with it, that game is lost and the engine is restarted.
    argv.push("-recover".to_owned());
    plan.breaks.push(argv.len());
    argv.push("-pgnout".to_owned());
    argv.push(if fastchess {
        format!("file={}", tournament.pgn_out)
    } else {
        tournament.pgn_out.clone()
    });
    plan.book = Some(render(&tournament.starts, format, tournament.castling)?);
    Ok(())
}

/// One engine's `-engine` words for cutechess-cli or fastchess (`own_times`: some engine
/// has a time limit of its own, so every engine gets its time limit here).
fn engine_words(
    engine: &EngineSpec,
    launch: &Launch,
    tournament: &Tournament,
    own_times: bool,
    argv: &mut Vec<String>,
) -> Result<(), TournamentError> {
    let fastchess = tournament.tool == Tool::Fastchess;
    argv.push("-engine".to_owned());
    argv.push(format!("name={}", launch.name));
    argv.push(format!("cmd={}", launch.program));
    if fastchess {
        if !launch.args.is_empty() {
            // fastchess splits args= at spaces itself.
            if let Some(arg) = launch
                .args
                .iter()
                .find(|arg| arg.contains(char::is_whitespace))
            {
                return Err(EngineSpecError {
                    engine: engine.index,
                    reason: format!(
                        "argument '{arg}' holds a space, and fastchess splits args= at \
                         spaces: use a wrapper script"
                    ),
                }
                .into());
            }
            argv.push(format!("args={}", launch.args.join(" ")));
        }
    } else {
        argv.extend(launch.args.iter().map(|arg| format!("arg={arg}")));
    }
    if let Some(dir) = &engine.dir {
        argv.push(format!("dir={dir}"));
    }
    argv.push(format!("proto={}", engine.protocol_or_uci()));
    argv.extend(
        engine
            .init_strings
            .iter()
            .map(|line| format!("initstr={line}")),
    );
    match engine.restart {
        // fastchess knows only on and off; auto is both tools' default.
        Some(Restart::Auto) | None => {}
        Some(restart) => argv.push(format!("restart={restart}")),
    }
    let limits = &engine.limits;
    match (&limits.tc, &limits.st) {
        (_, Some((st, _))) => argv.push(format!("st={st}")),
        (Some(tc), None) => argv.push(format!("tc={tc}")),
        (None, None) if own_times => argv.push(format!("tc={}", tournament.time_control)),
        (None, None) => {}
    }
    if let Some(depth) = limits.depth {
        argv.push(format!("depth={depth}"));
    }
    if let Some(nodes) = limits.nodes {
        argv.push(format!("nodes={nodes}"));
    }
    argv.extend(
        launch
            .options
            .iter()
            .map(|(name, value)| format!("option.{name}={value}")),
    );
    Ok(())
}

fn xboard_command(
    tournament: &Tournament,
    launches: &[Launch],
    plan: &mut Plan,
) -> Result<(), TournamentError> {
    let argv = &mut plan.argv;
    argv.push("xboard".to_owned());
    for (side, (engine, launch)) in ["first", "second"]
        .into_iter()
        .zip(tournament.engines.iter().zip(launches))
    {
        let letter = &side[..1];
        plan.breaks.push(argv.len());
        argv.extend([
            format!("-{letter}cp"),
            launch.command_string(),
            format!("-{letter}n"),
            launch.name.clone(),
        ]);
        if let Some(dir) = &engine.dir {
            argv.extend([format!("-{letter}d"), dir.clone()]);
        }
        if engine.protocol_or_uci() == Protocol::Uci {
            // xboard runs UCI engines through polyglot.
            argv.push(format!("-{letter}UCI"));
        }
        if !launch.options.is_empty() {
            let options: Vec<String> = launch
                .options
                .iter()
                .map(|(name, value)| format!("{name}={value}"))
                .collect();
            argv.extend([format!("-{side}Options"), options.join(",")]);
        }
    }
    plan.breaks.push(argv.len());
    if let Some(cores) = launches.iter().filter_map(|launch| launch.cores).min() {
        argv.extend(["-smpCores".to_owned(), cores.to_string()]);
    }
    argv.extend(["-variant".to_owned(), "fischerandom".to_owned()]);
    let starts = &tournament.starts;
    match starts.as_slice() {
        // xboard numbers its shuffles as Scharnagl does (518 = the standard array).
        [start] if start.is_symmetric() => {
            argv.extend([
                "-defaultFrcPosition".to_owned(),
                start.white.number().to_string(),
            ]);
        }
        _ => {
            // A position file, each position used for two games (-lpi -2), colours swapped.
            argv.extend([
                "-lpf".to_owned(),
                tournament.book.clone(),
                "-lpi".to_owned(),
                "-2".to_owned(),
            ]);
            plan.book = Some(render(starts, BookFormat::Fen, tournament.castling)?);
        }
    }
    argv.extend(["-matchGames".to_owned(), (2 * starts.len()).to_string()]);
    plan.breaks.push(argv.len());
    let tc = &tournament.time_control;
    if let Some(moves) = tc.moves() {
        argv.extend(["-mps".to_owned(), moves.to_string()]);
    }
    argv.extend(["-tc".to_owned(), xboard_minutes(tc)?]);
    if let Some(increment) = tc.increment_text() {
        argv.extend(["-inc".to_owned(), increment.to_owned()]);
    }
    plan.breaks.push(argv.len());
    argv.extend([
        "-sgf".to_owned(),
        tournament.pgn_out.clone(),
        "-xexit".to_owned(),
        "-saveSettingsOnExit".to_owned(),
        "false".to_owned(),
    ]);
    Ok(())
}

/// xboard's `-tc minutes[:seconds]` for a base time in whole seconds.
fn xboard_minutes(tc: &TimeControl) -> Result<String, TournamentError> {
    if tc.seconds().fract() != 0.0 {
        return Err(TournamentError::XboardTime(tc.to_string()));
    }
    let seconds = tc.seconds() as u64;
    Ok(format!("{}:{:02}", seconds / 60, seconds % 60))
}

/// The book file name used when none is given: `sp960-FRC.epd`, `.pgn`, or `.fen` for
/// xboard (fishtest and OpenBench look for `FRC` in the name).
pub fn default_book_path(tool: Tool, format: BookFormat) -> String {
    let format = match tool {
        Tool::Xboard => BookFormat::Fen,
        _ if format == BookFormat::Pgn => BookFormat::Pgn,
        _ => BookFormat::Epd,
    };
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
    if given_book && request.tool == Tool::Xboard {
        return Err(TournamentError::EngineCount(
            "--openings is for cutechess-cli and fastchess (xboard reads one FEN a line: use --sp)"
                .to_owned(),
        )
        .into());
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
        notes.extend(crate::tournaments::book::file_name_warning(path));
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
pub fn shell_line(plan: &Plan, shell: Shell) -> String {
    shell.line(&plan.argv, &plan.breaks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(items: &str) -> EngineSpec {
        EngineSpec::parse(1, items).unwrap()
    }

    fn tournament(tool: Tool, engines: &[&str], starts: &str) -> Tournament {
        Tournament {
            tool,
            engines: engines.iter().map(|items| engine(items)).collect(),
            starts: crate::starts::start::parse_spec(starts).unwrap(),
            time_control: "10+0.1".parse().unwrap(),
            book: "book-FRC.epd".into(),
            book_format: BookFormat::Epd,
            castling: CastlingNotation::Shredder,
            pgn_out: "games.pgn".into(),
            concurrency: None,
            sp960: "sp960".into(),
            other_roots: Vec::new(),
        }
    }

    #[test]
    fn xboard_time_controls_are_whole_seconds() {
        let tc: TimeControl = "40/1:00+0.6".parse().unwrap();
        assert_eq!(xboard_minutes(&tc).unwrap(), "1:00");
        assert_eq!(xboard_minutes(&"125".parse().unwrap()).unwrap(), "2:05");
        assert_eq!(
            xboard_minutes(&"0.5+0.1".parse().unwrap())
                .unwrap_err()
                .to_string(),
            "time control '0.5+0.1': xboard takes whole seconds of base time"
        );
    }

    #[test]
    fn fairy_stockfish_is_wrapped_where_it_needs_it() {
        let uci = ["cmd=/usr/games/stockfish", "cmd=/usr/games/fairy-stockfish"];
        let cutechess = plan(&tournament(Tool::Cutechess, &uci, "0")).unwrap();
        assert!(cutechess.argv.contains(&"cmd=sp960".to_owned()));
        assert!(
            cutechess
                .argv
                .contains(&"arg=/usr/games/fairy-stockfish".to_owned())
        );
        assert_eq!(cutechess.notes.len(), 1);
        // fastchess sets UCI_Chess960 itself: no wrapper.
        let fastchess = plan(&tournament(Tool::Fastchess, &uci, "0")).unwrap();
        assert!(!fastchess.argv.iter().any(|word| word.contains("sp960")));
        // xboard and cutechess-cli both send XBoard engines O-O: Fairy-Stockfish, which
        // wants king-takes-rook, is wrapped in both; an O-O engine is not.
        let xboard_engines = [
            "cmd=/usr/games/sjaakii proto=xboard",
            "cmd=/usr/games/fairy-stockfish proto=xboard",
        ];
        let wrapped =
            "sp960 proxy --protocol xboard --engine-castling kxr -- /usr/games/fairy-stockfish";
        let xboard = plan(&tournament(Tool::Xboard, &xboard_engines, "860")).unwrap();
        assert!(xboard.argv.contains(&wrapped.to_owned()));
        let cutechess = plan(&tournament(Tool::Cutechess, &xboard_engines, "0")).unwrap();
        assert!(
            cutechess
                .argv
                .contains(&"cmd=/usr/games/sjaakii".to_owned())
        );
        assert!(cutechess.argv.contains(&"arg=kxr".to_owned()));
        assert_eq!(cutechess.notes.len(), 1);
        assert!(cutechess.notes[0].contains("cutechess-cli sends castling as O-O/O-O-O"));
        let oo = ["cmd=a proto=xboard castling=oo", "cmd=b proto=xboard"];
        let cutechess = plan(&tournament(Tool::Cutechess, &oo, "0")).unwrap();
        assert!(!cutechess.argv.iter().any(|word| word.contains("sp960")));
        // Told not to wrap: done, with a note saying what to expect.
        let never = ["cmd=stockfish", "cmd=fairy-stockfish proxy=no"];
        let never = plan(&tournament(Tool::Cutechess, &never, "0")).unwrap();
        assert!(never.argv.contains(&"cmd=fairy-stockfish".to_owned()));
        assert!(never.notes[0].contains("NOT wrapped"));
    }

    #[test]
    fn engines_without_uci_chess960_are_wrapped_with_the_option_offered() {
        let toga = ["cmd=stockfish", "cmd=/usr/games/toga2"];
        for tool in [Tool::Cutechess, Tool::Fastchess, Tool::Xboard] {
            let plan = plan(&tournament(tool, &toga, "0")).unwrap();
            let line = shell_line(&plan, Shell::Sh);
            assert!(line.contains("--offer-chess960"), "{line}");
            assert!(plan.notes[0].contains("never castles"), "{:?}", plan.notes);
        }
        let declared = ["cmd=stockfish", "cmd=/opt/old chess960=no"];
        let plan = plan(&tournament(Tool::Fastchess, &declared, "0")).unwrap();
        assert!(
            plan.argv
                .contains(&"args=proxy --offer-chess960 -- /opt/old".to_owned())
        );
    }

    #[test]
    fn glaurung_gets_one_thread_and_the_shield_where_castling_files_differ() {
        let engines = ["cmd=/usr/games/stockfish", "cmd=/usr/games/glaurung"];
        for tool in [Tool::Cutechess, Tool::Fastchess, Tool::Xboard] {
            // SPs only: every start's castling files agree, so no wrapper; one thread.
            let symmetric = plan(&tournament(tool, &engines, "1,2,860")).unwrap();
            let line = shell_line(&symmetric, Shell::Sh);
            assert!(!line.contains("proxy"), "{line}");
            let threads = match tool {
                Tool::Xboard => "-sn glaurung -sUCI \\\n  -smpCores 1 -variant fischerandom",
                _ => "proto=uci option.Threads=1",
            };
            assert!(line.contains(threads), "{line}");
            // xboard would not send it: polyglot declares no Threads option.
            assert!(!line.contains("Options Threads"), "{line}");
            assert_eq!(symmetric.notes.len(), 1, "{:?}", symmetric.notes);
            let given = match tool {
                Tool::Xboard => "-smpCores 1 (polyglot passes it on as Threads 1)",
                _ => "option Threads=1",
            };
            assert!(
                symmetric.notes[0].starts_with(&format!("engine 'glaurung': given {given}")),
                "{:?}",
                symmetric.notes
            );
            // DFRC 860:1 (kings c1 and g8): wrapped, and the note names the start.
            let mixed = plan(&tournament(tool, &engines, "1,860,860:1")).unwrap();
            let line = shell_line(&mixed, Shell::Sh);
            let wrapped = match tool {
                Tool::Cutechess => "cmd=sp960 arg=proxy arg=-- arg=/usr/games/glaurung",
                Tool::Fastchess => "cmd=sp960 'args=proxy -- /usr/games/glaurung'",
                Tool::Xboard => "-scp 'sp960 proxy -- /usr/games/glaurung' -sn glaurung -sUCI",
            };
            assert!(line.contains(wrapped), "{line}");
            assert!(line.contains(threads), "{line}");
            assert!(!line.contains("-- /usr/games/stockfish"), "{line}");
            assert!(!line.contains("arg=/usr/games/stockfish"), "{line}");
            assert_eq!(mixed.notes.len(), 2, "{:?}", mixed.notes);
            assert!(
                mixed.notes[1].starts_with("engine 'glaurung': wrapped in sp960 proxy because")
                    && mixed.notes[1].contains("in DFRC 860:1 the colours' castling files differ"),
                "{:?}",
                mixed.notes
            );
        }
        // A DFRC pair whose files agree (kings and rooks on the same files) needs nothing.
        let same_files = plan(&tournament(Tool::Fastchess, &engines, "0:1")).unwrap();
        assert!(!shell_line(&same_files, Shell::Sh).contains("proxy"));
        // The user's own Threads (any case) is kept; proxy=no is obeyed and told.
        let own = [
            "cmd=/usr/games/stockfish",
            "cmd=/usr/games/glaurung option.threads=3 proxy=no",
        ];
        let own = plan(&tournament(Tool::Cutechess, &own, "0:959")).unwrap();
        let line = shell_line(&own, Shell::Sh);
        assert!(
            line.contains("cmd=/usr/games/glaurung proto=uci option.threads=3 "),
            "{line}"
        );
        assert!(!line.contains("Threads=1"), "{line}");
        assert_eq!(own.notes.len(), 1, "{:?}", own.notes);
        assert!(
            own.notes[0].contains("NOT wrapped (proxy=no)"),
            "{:?}",
            own.notes
        );
        // The roots of a match's own openings count as starts do.
        let mut openings = tournament(Tool::Fastchess, &engines, "518");
        assert!(!shell_line(&plan(&openings).unwrap(), Shell::Sh).contains("proxy"));
        openings.other_roots = vec![(
            "book.epd:2".to_owned(),
            "0:959".parse::<Start>().unwrap().position().unwrap(),
        )];
        let planned = plan(&openings).unwrap();
        assert!(shell_line(&planned, Shell::Sh).contains("args=proxy -- /usr/games/glaurung"));
        assert!(planned.notes[1].contains("in book.epd:2 the colours'"));
    }

    #[test]
    fn engines_that_cannot_play_are_refused_with_the_reason() {
        let xboard_engine = ["cmd=stockfish", "cmd=sjaakii proto=xboard"];
        let err = plan(&tournament(Tool::Fastchess, &xboard_engine, "0")).unwrap_err();
        assert!(err.to_string().contains("fastchess speaks only UCI"));
        let three = ["cmd=a", "cmd=b", "cmd=c"];
        assert!(plan(&tournament(Tool::Xboard, &three, "0")).is_err());
        assert!(plan(&tournament(Tool::Cutechess, &three, "0")).is_ok());
        assert!(plan(&tournament(Tool::Cutechess, &["cmd=a"], "0")).is_err());
    }

    #[test]
    fn runner_lines_recover_and_carry_each_engines_own_keys() {
        for tool in [Tool::Cutechess, Tool::Fastchess] {
            let plain = plan(&tournament(tool, &["a", "b"], "0")).unwrap();
            assert!(plain.argv.contains(&"-recover".to_owned()));
            assert!(plain.argv.contains(&"tc=10+0.1".to_owned()));
            assert!(plain.argv.contains(&"-each".to_owned()));
            // An engine's own time limit: every engine gets its limits on its own line.
            let own = plan(&tournament(
                tool,
                &["a nodes=500 st=0.2 restart=on dir=/tmp", "b depth=3"],
                "0",
            ))
            .unwrap();
            let line = shell_line(&own, Shell::Sh);
            assert!(!own.argv.contains(&"-each".to_owned()), "{line}");
            assert!(
                line.contains("cmd=a dir=/tmp proto=uci restart=on st=0.2 nodes=500"),
                "{line}"
            );
            assert!(line.contains("cmd=b proto=uci tc=10+0.1 depth=3"), "{line}");
        }
        let init = ["a 'initstr=setoption name Hash value 8'", "b"];
        let cutechess = plan(&tournament(Tool::Cutechess, &init, "0")).unwrap();
        assert!(
            cutechess
                .argv
                .contains(&"initstr=setoption name Hash value 8".to_owned())
        );
        let spaced = ["a 'arg=two words'", "b"];
        let err = plan(&tournament(Tool::Fastchess, &spaced, "0")).unwrap_err();
        assert!(
            err.to_string().contains("fastchess splits args= at spaces"),
            "{err}"
        );
    }

    #[test]
    fn xboard_uses_the_sp_number_or_a_position_file() {
        let engines = ["cmd=sjaakii proto=xboard", "cmd=sjaakii proto=xboard"];
        let one = plan(&tournament(Tool::Xboard, &engines, "860")).unwrap();
        let line = shell_line(&one, Shell::Sh);
        assert!(
            line.contains("-defaultFrcPosition 860 -matchGames 2"),
            "{line}"
        );
        assert!(line.contains("-fn sjaakii"), "{line}");
        assert!(line.contains("-sn sjaakii-2"), "{line}");
        assert_eq!(one.book, None);
        let many = plan(&tournament(Tool::Xboard, &engines, "0,0:959")).unwrap();
        let line = shell_line(&many, Shell::Sh);
        assert!(
            line.contains("-lpf book-FRC.epd -lpi -2 -matchGames 4"),
            "{line}"
        );
        assert_eq!(many.book.unwrap().lines().count(), 2);
    }

    #[test]
    fn runners_get_epd_when_fen_is_asked_and_are_told() {
        let mut asked = tournament(Tool::Fastchess, &["cmd=a", "cmd=b"], "0,1");
        asked.book_format = BookFormat::Fen;
        let plan = plan(&asked).unwrap();
        assert!(plan.argv.contains(&"format=epd".to_owned()));
        assert!(plan.book.unwrap().contains("id \"SP 1\";"));
        assert!(plan.notes[0].contains("--book-format fen is for xboard"));
        assert_eq!(
            default_book_path(Tool::Cutechess, BookFormat::Fen),
            "sp960-FRC.epd"
        );
        assert_eq!(
            default_book_path(Tool::Xboard, BookFormat::Pgn),
            "sp960-FRC.fen"
        );
        assert_eq!(
            default_book_path(Tool::Fastchess, BookFormat::Pgn),
            "sp960-FRC.pgn"
        );
    }
}
