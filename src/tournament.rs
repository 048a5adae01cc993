//! Tournament command lines for match runners: given engines, starts and a time control,
//! the cutechess-cli, fastchess or xboard command that plays every start with both
//! colours, plus the book it reads. Engines that cannot play Chess960 as the tool drives
//! them are wrapped in `sp960 proxy -- ...`, or refused when no wrapper can help.
//!
//! Everything here is pure: [`plan`] turns a [`Tournament`] into an argv and a book text;
//! [`shell_line`] renders the argv for a POSIX shell.

use std::fmt;
use std::path::Path;
use std::time::Duration;

use thiserror::Error;

use crate::book::{BookError, BookFormat, BookRequest, render};
use crate::notation::CastlingNotation;
use crate::start::{InvalidStart, Start};

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

/// The protocol an engine speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// Universal Chess Interface.
    Uci,
    /// XBoard/CECP.
    Xboard,
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Uci => "uci",
            Protocol::Xboard => "xboard",
        })
    }
}

/// Whether to wrap an engine in `sp960 proxy`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum ProxyChoice {
    /// Wrap when the engine needs it (see README, "Which engines are wrapped").
    #[default]
    Auto,
    /// Always wrap.
    Always,
    /// Never wrap.
    Never,
}

/// One engine as given on the command line: `cmd=PATH name=NAME proto=uci|xboard
/// arg=ARG dir=DIR option.NAME=VALUE castling=... chess960=yes|no proxy=auto|yes|no`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSpec {
    /// The program to run.
    pub cmd: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The name in the PGN (default: the program's file name).
    pub name: Option<String>,
    /// Its protocol (default UCI).
    pub protocol: Protocol,
    /// Working directory.
    pub dir: Option<String>,
    /// Engine options, in order.
    pub options: Vec<(String, String)>,
    /// What the engine takes: FEN castling `shredder`|`xfen` (UCI), castling moves
    /// `oo`|`kxr` (XBoard). Unset: known engines' needs, otherwise what the tool sends.
    pub castling: Option<String>,
    /// Whether a UCI engine has `UCI_Chess960` (unset: known engines, otherwise yes).
    pub chess960: Option<bool>,
    /// Whether to wrap it in the proxy.
    pub proxy: ProxyChoice,
}

/// Why no tournament command could be written.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TournamentError {
    /// A malformed `--engine` item.
    #[error("engine {engine}: {reason}")]
    Engine {
        /// Which `--engine` (1-based).
        engine: usize,
        /// What is wrong.
        reason: String,
    },
    /// A malformed time control.
    #[error(
        "time control '{0}': expected [MOVES/]SECONDS[+INCREMENT] or [MOVES/]M:SS[+INCREMENT], e.g. 10+0.1 or 40/1:00+0.6"
    )]
    TimeControl(String),
    /// A time (base or increment) too long to keep a clock with.
    #[error(
        "time control '{text}': {value} seconds is out of range (at most {max} seconds, one year)",
        max = MAX_TIME_CONTROL_SECONDS
    )]
    TimeControlRange {
        /// The time control as written.
        text: String,
        /// The time as written.
        value: String,
    },
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

impl EngineSpec {
    /// Parses the KEY=VALUE items of one `--engine` (`index` is 1-based, for messages).
    pub fn parse(index: usize, items: &[String]) -> Result<EngineSpec, TournamentError> {
        let fail = |reason: String| TournamentError::Engine {
            engine: index,
            reason,
        };
        let mut spec = EngineSpec {
            cmd: String::new(),
            args: Vec::new(),
            name: None,
            protocol: Protocol::Uci,
            dir: None,
            options: Vec::new(),
            castling: None,
            chess960: None,
            proxy: ProxyChoice::Auto,
        };
        for item in items {
            let Some((key, value)) = item.split_once('=') else {
                return Err(fail(format!("'{item}' is not KEY=VALUE")));
            };
            match key {
                "cmd" => spec.cmd = value.to_owned(),
                "arg" => spec.args.push(value.to_owned()),
                "name" => spec.name = Some(value.to_owned()),
                "dir" => spec.dir = Some(value.to_owned()),
                "proto" => {
                    spec.protocol = match value {
                        "uci" => Protocol::Uci,
                        "xboard" => Protocol::Xboard,
                        _ => return Err(fail(format!("proto={value}: expected uci or xboard"))),
                    }
                }
                "castling" => spec.castling = Some(value.to_owned()),
                "chess960" => {
                    spec.chess960 = Some(match value {
                        "yes" | "true" => true,
                        "no" | "false" => false,
                        _ => return Err(fail(format!("chess960={value}: expected yes or no"))),
                    })
                }
                "proxy" => {
                    spec.proxy = match value {
                        "auto" => ProxyChoice::Auto,
                        "yes" | "always" => ProxyChoice::Always,
                        "no" | "never" => ProxyChoice::Never,
                        _ => {
                            return Err(fail(format!("proxy={value}: expected auto, yes or no")));
                        }
                    }
                }
                _ => match key.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => {
                        spec.options.push((name.to_owned(), value.to_owned()));
                    }
                    _ => {
                        return Err(fail(format!(
                            "unknown key '{key}' (expected cmd, arg, name, dir, proto, \
                             option.NAME, castling, chess960 or proxy)"
                        )));
                    }
                },
            }
        }
        if spec.cmd.is_empty() {
            return Err(fail("cmd=PROGRAM is missing".to_owned()));
        }
        let allowed: &[&str] = match spec.protocol {
            Protocol::Uci => &["shredder", "xfen"],
            Protocol::Xboard => &["oo", "kxr"],
        };
        if let Some(castling) = &spec.castling
            && !allowed.contains(&castling.as_str())
        {
            return Err(fail(format!(
                "castling={castling}: a {} engine takes {}",
                spec.protocol,
                allowed.join(" or ")
            )));
        }
        Ok(spec)
    }

    /// Parses one `--engine` argument: KEY=VALUE items separated by spaces, quoted as in a
    /// POSIX shell where a value holds spaces (`'name=Sjaak II'`).
    pub fn parse_line(index: usize, line: &str) -> Result<EngineSpec, TournamentError> {
        let items = shlex::split(line).ok_or_else(|| TournamentError::Engine {
            engine: index,
            reason: format!("unbalanced quotes in '{line}'"),
        })?;
        EngineSpec::parse(index, &items)
    }

    /// The program's file name, which the table of known engines is keyed on.
    fn program(&self) -> &str {
        Path::new(&self.cmd)
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or(&self.cmd)
    }
}

/// What sp960 knows about a Debian engine from running it (see /README.md).
struct Known {
    /// UCI engine without a `UCI_Chess960` option.
    no_uci_chess960: bool,
    /// Lists `fischerandom` in its `UCI_Variant` combo: cutechess-cli then sends
    /// `UCI_Variant chess960`, which the engine ignores.
    uci_variant_fischerandom: bool,
    /// In XBoard mode it rejects `O-O` and wants king-takes-rook.
    xboard_kxr: bool,
}

fn known(program: &str) -> Known {
    let program = program.to_ascii_lowercase();
    let fairy = program.contains("fairy-stockfish") || program.contains("fairy_stockfish");
    Known {
        no_uci_chess960: program.starts_with("toga"),
        uci_variant_fischerandom: fairy,
        xboard_kxr: fairy,
    }
}

/// The longest time a time control may give, base or increment, in seconds: one year.
/// Longer values are refused when parsed (they overflow clocks and `Duration`).
pub const MAX_TIME_CONTROL_SECONDS: u64 = 365 * 24 * 60 * 60;

/// A time control in cutechess syntax: `[MOVES/]TIME[+INCREMENT]`, TIME in seconds or
/// `M:SS`.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeControl {
    text: String,
    moves: Option<u32>,
    seconds: f64,
    base: Duration,
    increment_text: Option<String>,
    increment: Duration,
}

/// `value` seconds (written `written` in `text`) as a `Duration`: a range error above
/// [`MAX_TIME_CONTROL_SECONDS`], never a panic.
fn time_control_seconds(
    text: &str,
    written: &str,
    value: f64,
) -> Result<Duration, TournamentError> {
    let too_long = || TournamentError::TimeControlRange {
        text: text.to_owned(),
        value: written.to_owned(),
    };
    if value > MAX_TIME_CONTROL_SECONDS as f64 {
        return Err(too_long());
    }
    Duration::try_from_secs_f64(value).map_err(|_| too_long())
}

impl std::str::FromStr for TimeControl {
    type Err = TournamentError;

    fn from_str(text: &str) -> Result<TimeControl, TournamentError> {
        let fail = || TournamentError::TimeControl(text.to_owned());
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => (Some(moves.parse::<u32>().map_err(|_| fail())?), rest),
            None => (None, text),
        };
        let number = |s: &str| s.parse::<f64>().ok().filter(|n| *n >= 0.0 && n.is_finite());
        let (time, increment_text, increment) = match rest.split_once('+') {
            Some((time, increment)) => {
                let seconds = number(increment).ok_or_else(fail)?;
                let duration = time_control_seconds(text, increment, seconds)?;
                (time, Some(increment.to_owned()), duration)
            }
            None => (rest, None, Duration::ZERO),
        };
        let seconds = match time.split_once(':') {
            Some((minutes, seconds)) => {
                let minutes = minutes.parse::<u32>().map_err(|_| fail())?;
                f64::from(minutes) * 60.0 + number(seconds).ok_or_else(fail)?
            }
            None => number(time).ok_or_else(fail)?,
        };
        if seconds <= 0.0 {
            return Err(fail());
        }
        let base = time_control_seconds(text, time, seconds)?;
        Ok(TimeControl {
            text: text.to_owned(),
            moves,
            seconds,
            base,
            increment_text,
            increment,
        })
    }
}

impl TimeControl {
    /// Moves per period (`40` in `40/60+0.6`); `None`: the whole game.
    pub fn moves(&self) -> Option<u32> {
        self.moves
    }

    /// The time of a period.
    pub fn base(&self) -> Duration {
        self.base
    }

    /// The increment per move (zero when none was given).
    pub fn increment(&self) -> Duration {
        self.increment
    }

    /// The PGN `TimeControl` tag value: seconds, as the PGN standard writes them
    /// (`1:30+1` is `90+1`, `40/1:00+0.6` is `40/60+0.6`). A fractional base, which the
    /// standard cannot express, is written as a decimal (`0.5+0.1`), as cutechess does.
    pub fn pgn_tag(&self) -> String {
        let mut tag = String::new();
        if let Some(moves) = self.moves.filter(|m| *m > 0) {
            tag.push_str(&format!("{moves}/"));
        }
        tag.push_str(&format!("{}", self.seconds));
        if self.increment_text.is_some() {
            tag.push_str(&format!("+{}", self.increment.as_secs_f64()));
        }
        tag
    }
}

impl fmt::Display for TimeControl {
    /// The text as the user wrote it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
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
}

impl TournamentRequest {
    /// Reads the engines, starts and time control; the first error is returned.
    pub fn resolve(self) -> Result<Tournament, TournamentError> {
        let starts = self.starts.starts()?;
        let engines = self
            .engines
            .iter()
            .enumerate()
            .map(|(index, line)| EngineSpec::parse_line(index + 1, line))
            .collect::<Result<Vec<_>, _>>()?;
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
        })
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

/// How one engine is started: program and arguments (through the proxy or not).
struct Launch {
    name: String,
    program: String,
    args: Vec<String>,
}

impl Launch {
    /// Program and arguments as one command string (xboard's `-fcp`).
    fn command_string(&self) -> String {
        std::iter::once(&self.program)
            .chain(&self.args)
            .map(|word| quote(word))
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
    let cannot = |reason: &str| TournamentError::CannotPlay {
        name: name.clone(),
        tool: tool_name,
        reason: reason.to_owned(),
    };
    let known = known(engine.program());
    if tool == Tool::Fastchess && engine.protocol == Protocol::Xboard {
        return Err(cannot(
            "fastchess speaks only UCI, and sp960 proxy does not translate between protocols; \
             use --emit cutechess or --emit xboard",
        ));
    }
    let has_chess960 = engine.chess960.unwrap_or(!known.no_uci_chess960);
    if engine.protocol == Protocol::Uci && !has_chess960 {
        let what_happens = match tool {
            Tool::Cutechess => {
                "cutechess-cli refuses to start the match, as the engine lists no UCI_Chess960 \
                 and so no fischerandom variant"
            }
            Tool::Fastchess => {
                "fastchess sends `setoption name UCI_Chess960 value true` anyway, which the \
                 engine ignores, then a Shredder FEN (Toga II 3.0 exits on it: `bad FEN`)"
            }
            Tool::Xboard => {
                "polyglot announces only `variants=\"normal\"` for it, and xboard stops with \
                 `engine does not play this`"
            }
        };
        return Err(cannot(&format!(
            "it has no UCI_Chess960 option: {what_happens}. sp960 proxy cannot help: it fixes \
             notation, not rules, and with an X-FEN the engine would castle by capturing its \
             own rook"
        )));
    }
    let mut proxy_args: Vec<String> = Vec::new();
    let mut reasons: Vec<String> = Vec::new();
    match engine.protocol {
        Protocol::Uci => {
            if engine.castling.as_deref() == Some("xfen") {
                proxy_args.extend(["--engine-castling".to_owned(), "xfen".to_owned()]);
                reasons.push("it takes X-FEN castling (KQkq) and the tool sends Shredder".into());
            }
            if tool == Tool::Cutechess && known.uci_variant_fischerandom {
                reasons.push(
                    "cutechess-cli sends it `UCI_Variant chess960` instead of UCI_Chess960, \
                     which it ignores and so plays standard castling"
                        .into(),
                );
            }
        }
        Protocol::Xboard => {
            // xboard sends castling as O-O/O-O-O; cutechess-cli sends king-takes-rook in
            // Chess960 (its LAN for random variants). Wrap where the engine wants the other.
            let takes = engine
                .castling
                .as_deref()
                .or(known.xboard_kxr.then_some("kxr"));
            match (tool, takes) {
                (Tool::Xboard, Some("kxr")) => {
                    proxy_args.extend(["--engine-castling".to_owned(), "kxr".to_owned()]);
                    reasons.push(
                        "xboard sends castling as O-O/O-O-O, which it rejects (it takes \
                         king-takes-rook)"
                            .into(),
                    );
                }
                (Tool::Cutechess, Some("oo")) => {
                    proxy_args.extend(["--engine-castling".to_owned(), "oo".to_owned()]);
                    reasons.push(
                        "cutechess-cli sends Chess960 castling as king-takes-rook, and it \
                         takes only O-O/O-O-O"
                            .into(),
                    );
                }
                _ => {}
            }
        }
    }
    let wrap = match engine.proxy {
        ProxyChoice::Auto => !reasons.is_empty(),
        ProxyChoice::Always => {
            if reasons.is_empty() {
                reasons.push("proxy=yes".into());
            }
            true
        }
        ProxyChoice::Never => {
            if !reasons.is_empty() {
                notes.push(format!(
                    "engine '{name}': NOT wrapped (proxy=no) although {}; expect broken games",
                    reasons.join("; and ")
                ));
            }
            false
        }
    };
    if !wrap {
        return Ok(Launch {
            name,
            program: engine.cmd.clone(),
            args: engine.args.clone(),
        });
    }
    notes.push(format!(
        "engine '{name}': wrapped in sp960 proxy because {}",
        reasons.join("; and ")
    ));
    let mut args = vec!["proxy".to_owned()];
    if engine.protocol == Protocol::Xboard {
        args.extend(["--protocol".to_owned(), "xboard".to_owned()]);
    }
    args.extend(proxy_args);
    args.push("--".to_owned());
    args.push(engine.cmd.clone());
    args.extend(engine.args.iter().cloned());
    Ok(Launch {
        name,
        program: tournament.sp960.clone(),
        args,
    })
}

/// cutechess-cli and fastchess share most of their syntax.
fn runner_command(
    tournament: &Tournament,
    launches: &[Launch],
    plan: &mut Plan,
) -> Result<(), TournamentError> {
    let fastchess = tournament.tool == Tool::Fastchess;
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
        argv.push("-engine".to_owned());
        argv.push(format!("name={}", launch.name));
        argv.push(format!("cmd={}", launch.program));
        if fastchess {
            if !launch.args.is_empty() {
                // fastchess splits args= at spaces.
                argv.push(format!("args={}", launch.args.join(" ")));
            }
        } else {
            argv.extend(launch.args.iter().map(|arg| format!("arg={arg}")));
        }
        if let Some(dir) = &engine.dir {
            argv.push(format!("dir={dir}"));
        }
        argv.push(format!("proto={}", engine.protocol));
        argv.extend(
            engine
                .options
                .iter()
                .map(|(name, value)| format!("option.{name}={value}")),
        );
    }
    plan.breaks.push(argv.len());
    argv.extend([
        "-each".to_owned(),
        format!("tc={}", tournament.time_control.text),
    ]);
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
        if engine.protocol == Protocol::Uci {
            // xboard runs UCI engines through polyglot.
            argv.push(format!("-{letter}UCI"));
        }
        if !engine.options.is_empty() {
            let options: Vec<String> = engine
                .options
                .iter()
                .map(|(name, value)| format!("{name}={value}"))
                .collect();
            argv.extend([format!("-{side}Options"), options.join(",")]);
        }
    }
    plan.breaks.push(argv.len());
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
    if let Some(moves) = tc.moves {
        argv.extend(["-mps".to_owned(), moves.to_string()]);
    }
    argv.extend(["-tc".to_owned(), xboard_minutes(tc)?]);
    if let Some(increment) = &tc.increment_text {
        argv.extend(["-inc".to_owned(), increment.clone()]);
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
    if tc.seconds.fract() != 0.0 {
        return Err(TournamentError::TimeControl(format!(
            "{} (xboard takes whole seconds of base time)",
            tc.text
        )));
    }
    let seconds = tc.seconds as u64;
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
    let tournament = &request.resolve()?;
    let plan = plan(tournament)?;
    let mut notes = plan.notes.clone();
    if let Some(book) = &plan.book {
        let path = Path::new(&tournament.book);
        std::fs::write(path, book).map_err(|source| WriteTournamentError::Io {
            path: tournament.book.clone(),
            source,
        })?;
        notes.extend(crate::book::file_name_warning(path));
    }
    out.write_all(shell_line(&plan).as_bytes())
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

/// `word` quoted for a POSIX shell where it needs it: as is when it holds only characters
/// no shell treats specially (`cmd=/usr/games/stockfish`), else in single quotes.
fn quote(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The command as a shell line, continued with ` \` before each break.
pub fn shell_line(plan: &Plan) -> String {
    let mut line = String::new();
    for (index, word) in plan.argv.iter().enumerate() {
        if index > 0 {
            line.push_str(if plan.breaks.contains(&index) {
                " \\\n  "
            } else {
                " "
            });
        }
        line.push_str(&quote(word));
    }
    line.push('\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(items: &str) -> EngineSpec {
        EngineSpec::parse_line(1, items).unwrap()
    }

    fn tournament(tool: Tool, engines: &[&str], starts: &str) -> Tournament {
        Tournament {
            tool,
            engines: engines.iter().map(|items| engine(items)).collect(),
            starts: crate::start::parse_spec(starts).unwrap(),
            time_control: "10+0.1".parse().unwrap(),
            book: "book-FRC.epd".into(),
            book_format: BookFormat::Epd,
            castling: CastlingNotation::Shredder,
            pgn_out: "games.pgn".into(),
            concurrency: None,
            sp960: "sp960".into(),
        }
    }

    #[test]
    fn engine_items_parse_and_bad_ones_are_named() {
        let spec = engine("cmd=/usr/games/sjaakii proto=xboard arg=-x option.Hash=16 name=S");
        assert_eq!(spec.protocol, Protocol::Xboard);
        assert_eq!(spec.args, ["-x"]);
        assert_eq!(spec.options, [("Hash".to_owned(), "16".to_owned())]);
        let quoted = engine("cmd=x 'name=Sjaak II' option.Style='a b'");
        assert_eq!(quoted.name.as_deref(), Some("Sjaak II"));
        assert_eq!(quoted.options[0].1, "a b");
        assert!(
            EngineSpec::parse_line(3, "cmd='x")
                .unwrap_err()
                .to_string()
                .contains("engine 3: unbalanced")
        );
        let err = |items: &[&str]| {
            let items: Vec<String> = items.iter().map(|s| s.to_string()).collect();
            EngineSpec::parse(2, &items).unwrap_err().to_string()
        };
        assert_eq!(err(&["name=x"]), "engine 2: cmd=PROGRAM is missing");
        assert!(err(&["cmd=a", "colour=white"]).contains("unknown key 'colour'"));
        assert!(err(&["cmd=a", "castling=kxr"]).contains("a uci engine takes shredder or xfen"));
        assert!(err(&["cmd=a", "hash"]).contains("'hash' is not KEY=VALUE"));
    }

    #[test]
    fn time_controls() {
        let tc: TimeControl = "40/1:00+0.6".parse().unwrap();
        assert_eq!((tc.moves, tc.seconds), (Some(40), 60.0));
        assert_eq!(xboard_minutes(&tc).unwrap(), "1:00");
        assert_eq!(xboard_minutes(&"125".parse().unwrap()).unwrap(), "2:05");
        for bad in ["", "x", "10+", "10+-1", "0", "/10", "1:xx"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert!(xboard_minutes(&"0.5+0.1".parse().unwrap()).is_err());
    }

    #[test]
    fn time_controls_too_long_for_a_clock_are_refused_naming_the_value() {
        for (text, value) in [
            ("1e308", "1e308"),
            ("1e300", "1e300"),
            ("99999999999999999999", "99999999999999999999"),
            ("10+1e20", "1e20"),
            ("1:99999999999999999999", "1:99999999999999999999"),
            ("4294967295:00", "4294967295:00"),
            ("31536000.5", "31536000.5"),
        ] {
            let err = text.parse::<TimeControl>().unwrap_err();
            assert_eq!(
                err,
                TournamentError::TimeControlRange {
                    text: text.to_owned(),
                    value: value.to_owned()
                }
            );
            assert!(
                err.to_string()
                    .contains(&format!("'{text}': {value} seconds is out of range")),
                "{err}"
            );
        }
        // The longest base and increment are accepted, and their Durations exact.
        let tc: TimeControl = "31536000+31536000".parse().unwrap();
        assert_eq!(tc.base(), Duration::from_secs(MAX_TIME_CONTROL_SECONDS));
        assert_eq!(
            tc.increment(),
            Duration::from_secs(MAX_TIME_CONTROL_SECONDS)
        );
    }

    #[test]
    fn pgn_tag_writes_seconds() {
        for (text, tag) in [
            ("1:30+1", "90+1"),
            ("40/1:00+0.6", "40/60+0.6"),
            ("40/60+0.6", "40/60+0.6"),
            ("10", "10"),
            ("0:45", "45"),
            ("2.0+1e-1", "2+0.1"),
            ("0.5+0", "0.5+0"),
            ("0/10", "10"),
        ] {
            let tc: TimeControl = text.parse().unwrap();
            assert_eq!(tc.pgn_tag(), tag, "{text}");
            // The text as written stays what Display shows (cutechess's tc=).
            assert_eq!(tc.to_string(), text);
        }
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
        let xboard = [
            "cmd=/usr/games/sjaakii proto=xboard",
            "cmd=/usr/games/fairy-stockfish proto=xboard",
        ];
        let xboard = plan(&tournament(Tool::Xboard, &xboard, "860")).unwrap();
        assert!(xboard.argv.contains(
            &"sp960 proxy --protocol xboard --engine-castling kxr -- /usr/games/fairy-stockfish"
                .to_owned()
        ));
        // cutechess-cli sends XBoard engines king-takes-rook: Fairy-Stockfish takes it as is,
        // an engine that wants O-O is wrapped.
        let xboard_engines = [
            "cmd=/usr/games/fairy-stockfish proto=xboard",
            "cmd=/opt/oo-engine proto=xboard castling=oo",
        ];
        let cutechess = plan(&tournament(Tool::Cutechess, &xboard_engines, "0")).unwrap();
        assert!(
            cutechess
                .argv
                .contains(&"cmd=/usr/games/fairy-stockfish".to_owned())
        );
        assert!(cutechess.argv.contains(&"arg=oo".to_owned()));
        assert_eq!(cutechess.notes.len(), 1);
        // Told not to wrap: done, with a note saying what to expect.
        let never = ["cmd=stockfish", "cmd=fairy-stockfish proxy=no"];
        let never = plan(&tournament(Tool::Cutechess, &never, "0")).unwrap();
        assert!(never.argv.contains(&"cmd=fairy-stockfish".to_owned()));
        assert!(never.notes[0].contains("NOT wrapped"));
    }

    #[test]
    fn engines_that_cannot_play_are_refused_with_the_reason() {
        let toga = ["cmd=stockfish", "cmd=/usr/games/toga2"];
        for tool in [Tool::Cutechess, Tool::Fastchess, Tool::Xboard] {
            let err = plan(&tournament(tool, &toga, "0")).unwrap_err().to_string();
            assert!(err.contains("no UCI_Chess960"), "{err}");
        }
        let xboard_engine = ["cmd=stockfish", "cmd=sjaakii proto=xboard"];
        let err = plan(&tournament(Tool::Fastchess, &xboard_engine, "0")).unwrap_err();
        assert!(err.to_string().contains("fastchess speaks only UCI"));
        let three = ["cmd=a", "cmd=b", "cmd=c"];
        assert!(plan(&tournament(Tool::Xboard, &three, "0")).is_err());
        assert!(plan(&tournament(Tool::Cutechess, &three, "0")).is_ok());
        assert!(plan(&tournament(Tool::Cutechess, &["cmd=a"], "0")).is_err());
    }

    #[test]
    fn xboard_uses_the_sp_number_or_a_position_file() {
        let engines = ["cmd=sjaakii proto=xboard", "cmd=sjaakii proto=xboard"];
        let one = plan(&tournament(Tool::Xboard, &engines, "860")).unwrap();
        let line = shell_line(&one);
        assert!(
            line.contains("-defaultFrcPosition 860 -matchGames 2"),
            "{line}"
        );
        assert!(line.contains("-fn sjaakii"), "{line}");
        assert!(line.contains("-sn sjaakii-2"), "{line}");
        assert_eq!(one.book, None);
        let many = plan(&tournament(Tool::Xboard, &engines, "0,0:959")).unwrap();
        let line = shell_line(&many);
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

    #[test]
    fn shell_line_quotes_and_breaks() {
        let plan = Plan {
            argv: vec!["x".into(), "-a".into(), "b c".into(), "-d".into()],
            breaks: vec![3],
            book: None,
            notes: vec![],
        };
        assert_eq!(shell_line(&plan), "x -a 'b c' \\\n  -d\n");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("option.Hash=16"), "option.Hash=16");
        assert_eq!(shlex::split(&quote("a 'b' $c")).unwrap(), ["a 'b' $c"]);
    }
}
