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

use crate::launch::spec::{EngineCastlingArg, EngineSpec, EngineSpecError, ProxyChoice, Restart};
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
    /// Cute Chess GUI: entries in its engines.json, one launcher per engine, and the
    /// steps of its Tournament > New dialog.
    CutechessGui,
}

impl Tool {
    /// The tool's name in notes.
    fn display_name(self) -> &'static str {
        match self {
            Tool::Cutechess => "cutechess-cli",
            Tool::Fastchess => "fastchess",
            Tool::Xboard => "xboard",
            Tool::CutechessGui => "Cute Chess",
        }
    }
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
        Tool::CutechessGui => &[
            (
                "tc",
                "by Cute Chess GUI's engines.json (set the time control in Tournament > New: use --tc)",
            ),
            (
                "st",
                "by Cute Chess GUI's engines.json (set the time control in Tournament > New: use --tc)",
            ),
            (
                "depth",
                "by Cute Chess GUI's engines.json (set Plies in the tournament's time control)",
            ),
            (
                "nodes",
                "by Cute Chess GUI's engines.json (set Nodes in the tournament's time control)",
            ),
        ],
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
    /// How each engine is started, in `--engine` order.
    pub(crate) launches: Vec<Launch>,
}

/// How one engine is started: program and arguments (through the proxy or not), and the
/// options it is given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Launch {
    /// The engine's name in the tool (unique).
    pub(crate) name: String,
    /// The program the tool starts: the engine, or sp960 when wrapped.
    pub(crate) program: String,
    /// Its arguments (`proxy ... -- ENGINE ARGS` when wrapped).
    pub(crate) args: Vec<String>,
    /// The proxy's options (the words between `proxy` and `--`) when wrapped.
    pub(crate) proxy_options: Option<Vec<String>>,
    /// `option.NAME=VALUE` the tool sets: the user's, and those the quirks table adds.
    pub(crate) options: Vec<(String, String)>,
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
    let names = unique_names(&tournament.engines, tool);
    let mut launches = Vec::new();
    for (engine, name) in tournament.engines.iter().zip(names) {
        launches.push(launch(engine, name, tournament, &mut notes)?);
    }
    let mut plan = Plan {
        argv: Vec::new(),
        breaks: Vec::new(),
        book: None,
        notes,
        launches: Vec::new(),
    };
    match tool {
        // The GUI plays as cutechess-cli does (one library): the same line is planned,
        // and its engines, book and notes are what the GUI's files are made from.
        Tool::Cutechess | Tool::Fastchess | Tool::CutechessGui => {
            runner_command(tournament, &launches, &mut plan)?
        }
        Tool::Xboard => xboard_command(tournament, &launches, &mut plan)?,
    }
    plan.launches = launches;
    Ok(plan)
}

/// The engines' names: `name=`, else the program's file name; for Cute Chess GUI its stem
/// and `-960` (`stockfish-960`), so that an entry of the user's own for the engine is not
/// replaced. Made unique with `-2`, `-3`, ...
fn unique_names(engines: &[EngineSpec], tool: Tool) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for engine in engines {
        let base = match &engine.name {
            Some(name) => name.clone(),
            None if tool == Tool::CutechessGui => {
                let stem = Path::new(engine.program())
                    .file_stem()
                    .and_then(|stem| stem.to_str())
                    .unwrap_or(engine.program());
                format!("{stem}-960")
            }
            None => engine.program().to_owned(),
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
) -> Result<Launch, TournamentError> {
    let tool = tournament.tool;
    let tool_name = tool.display_name();
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
            proxy_options: None,
            options,
            cores,
        });
    }
    notes.push(format!(
        "engine '{name}': wrapped in sp960 proxy because {}",
        wrapping.reasons.join("; and ")
    ));
    let mut proxy_options = Vec::new();
    if protocol == Protocol::Xboard {
        proxy_options.extend(["--protocol".to_owned(), "xboard".to_owned()]);
    }
    proxy_options.extend(wrapping.proxy_args);
    let mut args = vec!["proxy".to_owned()];
    args.extend(proxy_options.iter().cloned());
    args.push("--".to_owned());
    args.push(engine.cmd.clone());
    args.extend(engine.args.iter().cloned());
    Ok(Launch {
        name,
        program: tournament.sp960.clone(),
        args,
        proxy_options: Some(proxy_options),
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
        if engine.castling == Some(EngineCastlingArg::Xfen) {
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
        if matches!(tournament.tool, Tool::Cutechess | Tool::CutechessGui)
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
#[path = "tournament_tests.rs"]
mod tests;
