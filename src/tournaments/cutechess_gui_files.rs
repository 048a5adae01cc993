//! `sp960 tournament --emit cutechess-gui`: Cute Chess GUI's files for a Chess960
//! tournament (its words, the [`crate::tournaments::runners::cutechess_gui`] dialect, are
//! rendered in `runners/`; this file writes what they make). The GUI keeps its engines in `engines.json` (the file `cutechess-cli -engine
//! conf=NAME` reads too), one `command` per engine and no arguments, so each engine becomes
//! a launcher: a program the GUI starts alone that runs `sp960 proxy [options] -- ENGINE
//! ARGS` (`launch::launcher`). The decisions are `--emit cutechess`'s ([`plan`] with
//! [`super::Tool::CutechessGui`], whose [`Dialect`] is cutechess-cli's but for the engines'
//! names and keys): the same proxy options, the same `option.NAME=VALUE`s, the same book. An engine that line runs bare goes through the proxy with no options (it passes
//! every line unchanged but for its shield against broken positions and moves).
//!
//! What is written, in this order, and only once everything is known to be valid:
//! the launchers (`--launchers DIR`), a copy of the old `engines.json` (`engines.json.bak`,
//! or `.bak.2`, `.bak.3`, ... when that exists), the new `engines.json` (replaced atomically:
//! [`crate::os::fs::write_atomic`]), then the book. Entries of other engines are kept byte
//! for byte; an entry with the name of one of ours is replaced. A malformed `engines.json`
//! is refused with its line and column, and nothing is written.
//!
//! The entry format is Cute Chess 1.5.1's (`projects/lib/src/engineconfiguration.cpp`,
//! `engineoptionfactory.cpp`): `name`, `command`, `workingDirectory`, `protocol`,
//! `variants` (the New Game and New Tournament dialogs list an engine only under the
//! variants it names: `engineconfigproxymodel.cpp`), `options` as `{"name", "value"}`
//! objects (a text option, what cutechess-cli's `option.NAME=VALUE` makes), `initStrings`
//! and `restart`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::value::RawValue;
use thiserror::Error;

use crate::books::book::{BookFormat, file_name_warning};
use crate::launch::proxy_invocation::{ProxyInvocation, ProxyOptions};
use crate::launch::proxy_launcher::{
    LauncherError, LauncherSettings, absolute_engine_program, write_launcher,
};
use crate::launch::spec::{EngineSpec, ProxyChoice, Restart};
use crate::launch::time_control::TimeControl;
use crate::protocol::Protocol;
use crate::tournaments::runners::RunnerLaunch;
use crate::tournaments::runners::cutechess_gui::VARIANT;
use crate::tournaments::tournament::{
    Tournament, TournamentError, TournamentPlan, TournamentRequest, plan,
};

/// Where the GUI's files go.
#[derive(Debug, Clone)]
pub(crate) struct GuiFiles {
    /// The `engines.json` to write or merge into (as the user named it: relative to the
    /// current directory of the process).
    pub(crate) engines_json: PathBuf,
    /// The folder the launchers go into (absolute; created if missing).
    pub(crate) launchers: PathBuf,
    /// The engines.json Cute Chess GUI reads, when known (`--engines-json`'s default).
    pub(crate) gui_engines_json: Option<PathBuf>,
    /// The current directory: relative paths (engines, `dir=`, the book) mean what they
    /// mean here.
    pub(crate) current_dir: PathBuf,
}

/// One launcher to write: at `path`, running `sp960 proxy OPTIONS -- PROGRAM ARGS` from
/// `directory`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LauncherJob {
    /// Where the launcher goes (without `.exe`).
    pub(crate) path: PathBuf,
    /// The folder it runs in (absolute).
    pub(crate) directory: PathBuf,
    /// The proxy's options and the engine as the `--engine` gave it (its program made
    /// absolute when the launcher is written).
    pub(crate) invocation: ProxyInvocation,
}

/// Why the GUI's files could not be written.
#[derive(Debug, Error)]
pub(crate) enum GuiError {
    /// The tournament cannot be played as asked.
    #[error(transparent)]
    Plan(#[from] TournamentError),
    /// The existing engines.json is not JSON.
    #[error(
        "{path}:{line}:{column}: not a valid engines.json ({reason}); it was left untouched: \
         fix it or choose another file with --engines-json"
    )]
    Malformed {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// serde_json's reason.
        reason: String,
    },
    /// The existing engines.json is JSON, but not a list of engines.
    #[error(
        "{path}: not a valid engines.json: Cute Chess expects a JSON array of engine objects, \
         this holds {found}; it was left untouched: fix it or choose another file with \
         --engines-json"
    )]
    NotAnArray {
        /// The file.
        path: String,
        /// What the file holds instead.
        found: &'static str,
    },
    /// An engine that cannot be put into engines.json as asked.
    #[error("engine '{name}': {reason}")]
    Engine {
        /// The engine's name.
        name: String,
        /// Why.
        reason: String,
    },
    /// A book the GUI would read in the wrong format.
    #[error(
        "book {path}: Cute Chess GUI reads an opening suite as EPD only when its name ends in \
         .epd (any other as PGN): name the EPD book so (--book NAME.epd)"
    )]
    BookName {
        /// The book.
        path: String,
    },
    /// A file could not be read or written.
    #[error("cannot {action} {path}: {source}")]
    Io {
        /// What was being done (`read`, `write`, ...).
        action: &'static str,
        /// The file.
        path: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// An engine's launcher could not be made (its program not found, a file in the way).
    #[error("engine '{name}': {source}")]
    Launcher {
        /// The engine's name.
        name: String,
        /// Why.
        source: LauncherError,
    },
}

impl GuiError {
    /// The exit code: bad input data 1 (a malformed engines.json, bad starts), an engine
    /// that cannot play 3, otherwise (an engine program not found too) a usage error 2.
    pub(crate) fn exit_code(&self) -> u8 {
        use crate::exit_code::{INVALID_DATA, USAGE};
        match self {
            GuiError::Plan(err) => err.exit_code(),
            GuiError::Malformed { .. } | GuiError::NotAnArray { .. } => INVALID_DATA,
            GuiError::Engine { .. }
            | GuiError::Io { .. }
            | GuiError::Launcher { .. }
            | GuiError::BookName { .. } => USAGE,
        }
    }
}

/// One engine's entry in engines.json, and the launcher it needs (none with `proxy=no`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct GuiEngine {
    /// The entry (its `command` is the launcher's path as planned, without `.exe`, until
    /// the launcher is written).
    pub(crate) entry: serde_json::Value,
    /// The launcher to write first.
    pub(crate) launcher: Option<LauncherJob>,
}

/// What [`write_gui_files`] did, for stdout and stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GuiReport {
    /// The steps in the GUI, for stdout.
    pub(crate) steps: String,
    /// Notes for stderr: the plan's, then what was written.
    pub(crate) notes: Vec<String>,
}

/// Plans the tournament as `--emit cutechess` would, writes the launchers, merges the
/// entries into `files.engines_json` and writes the book; returns the steps and notes.
pub(crate) fn write_gui_files(
    request: TournamentRequest,
    files: &GuiFiles,
) -> Result<GuiReport, GuiError> {
    let given_book = request.given_book.is_some();
    let tournament = request.resolve()?;
    let plan = plan(&tournament)?;
    // The tournament's time control is set in the GUI's dialog: it has one.
    let clock = plan
        .command
        .clock
        .clone()
        .ok_or(TournamentError::NoClock("Cute Chess"))?;
    // The GUI goes by the extension (gamesettingswidget.cpp): `.epd` is EPD, anything else PGN.
    let epd_name = Path::new(&tournament.book)
        .extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("epd"));
    if tournament.book_format != BookFormat::Pgn && !epd_name {
        return Err(GuiError::BookName {
            path: tournament.book.clone(),
        });
    }
    let mut engines = gui_engines(&tournament, &plan, files)?;
    // Everything is checked before anything is written: the old file, and each engine's
    // program (made absolute: a bare name found on PATH, a path taken from here).
    let old = read_engines_json(&files.engines_json)?;
    let settings = launcher_settings(&engines, &plan)?;
    let mut notes = plan.notes.clone();
    if engines.iter().any(|engine| engine.launcher.is_some()) {
        std::fs::create_dir_all(&files.launchers).map_err(|source| GuiError::Io {
            action: "create",
            path: files.launchers.display().to_string(),
            source,
        })?;
    }
    for ((engine, settings), launch) in engines.iter_mut().zip(&settings).zip(plan.launches()) {
        if let (Some(job), Some(settings)) = (&engine.launcher, settings) {
            let written =
                write_launcher(&job.path, settings).map_err(|source| GuiError::Launcher {
                    name: launch.name.clone(),
                    source,
                })?;
            // The path written: with `.exe` on Windows.
            engine.entry["command"] = written.display().to_string().into();
        }
    }
    let written = engines.iter().filter(|e| e.launcher.is_some()).count();
    if written > 0 {
        notes.push(format!(
            "wrote {written} launcher{} in {}",
            if written == 1 { "" } else { "s" },
            files.launchers.display()
        ));
    }
    let entries: Vec<serde_json::Value> = engines.into_iter().map(|e| e.entry).collect();
    let merged = merge(old.as_ref().map(|old| old.entries.as_slice()), &entries);
    for name in &merged.replaced {
        notes.push(format!(
            "{}: replaced the entry '{name}'",
            files.engines_json.display()
        ));
    }
    write_engines_json(files, old.as_ref(), &merged.text, &mut notes)?;
    let book = files.current_dir.join(&tournament.book);
    if let Some(text) = plan.book.as_ref().filter(|_| !given_book) {
        std::fs::write(&book, text).map_err(|source| GuiError::Io {
            action: "write",
            path: tournament.book.clone(),
            source,
        })?;
        notes.extend(file_name_warning(Path::new(&tournament.book)));
    }
    let steps = steps(&tournament, &plan, &clock, files, &book);
    Ok(GuiReport { steps, notes })
}

/// Each engine's launcher settings (`None` for one without a launcher), checked before
/// anything is written: its working directory, and its program made absolute (a bare name
/// found on PATH, a path taken from here).
fn launcher_settings(
    engines: &[GuiEngine],
    plan: &TournamentPlan,
) -> Result<Vec<Option<LauncherSettings>>, GuiError> {
    let mut settings = Vec::new();
    for (engine, launch) in engines.iter().zip(plan.launches()) {
        let Some(job) = &engine.launcher else {
            settings.push(None);
            continue;
        };
        if !job.directory.is_dir() {
            return Err(GuiError::Engine {
                name: launch.name.clone(),
                reason: format!(
                    "its working directory {} is not a directory",
                    job.directory.display()
                ),
            });
        }
        let program = absolute_engine_program(&job.invocation.engine[0]).map_err(|source| {
            GuiError::Launcher {
                name: launch.name.clone(),
                source,
            }
        })?;
        let mut invocation = job.invocation.clone();
        invocation.engine[0] = program.display().to_string().into();
        let proxy_args = invocation.text_words().split_off(1);
        settings.push(Some(LauncherSettings {
            directory: job.directory.clone(),
            proxy_args,
        }));
    }
    Ok(settings)
}

/// Writes the merged `text` to `files.engines_json`: the old file (`old`) copied to a backup
/// first, or the folder created for a new one; what was done goes to `notes`.
fn write_engines_json(
    files: &GuiFiles,
    old: Option<&OldEngines>,
    text: &str,
    notes: &mut Vec<String>,
) -> Result<(), GuiError> {
    if let Some(old) = old {
        let backup = backup_path(&files.engines_json);
        std::fs::write(&backup, &old.text).map_err(|source| GuiError::Io {
            action: "write",
            path: backup.display().to_string(),
            source,
        })?;
        notes.push(format!(
            "{}: the old file is kept in {}",
            files.engines_json.display(),
            backup.display()
        ));
    } else if let Some(parent) = files.engines_json.parent()
        && !parent.as_os_str().is_empty()
    {
        std::fs::create_dir_all(parent).map_err(|source| GuiError::Io {
            action: "create",
            path: parent.display().to_string(),
            source,
        })?;
    }
    crate::os::fs::write_atomic(&files.engines_json, text.as_bytes()).map_err(|source| {
        GuiError::Io {
            action: "write",
            path: files.engines_json.display().to_string(),
            source,
        }
    })?;
    Ok(())
}

/// Each engine's entry and launcher.
pub(crate) fn gui_engines(
    tournament: &Tournament,
    plan: &TournamentPlan,
    files: &GuiFiles,
) -> Result<Vec<GuiEngine>, GuiError> {
    let mut file_names: Vec<String> = Vec::new();
    let mut engines = Vec::new();
    for (engine, launch) in tournament.engines.iter().zip(plan.launches()) {
        let directory = match &engine.dir {
            Some(dir) => files.current_dir.join(dir),
            None => files.current_dir.clone(),
        };
        let mut file_name = launcher_file_name(&launch.name);
        let base = file_name.clone();
        let mut n = 2;
        while file_names
            .iter()
            .any(|taken| taken.eq_ignore_ascii_case(&file_name))
        {
            file_name = format!("{base}-{n}");
            n += 1;
        }
        file_names.push(file_name.clone());
        let (command, launcher) = if engine.proxy == ProxyChoice::Never {
            if !engine.args.is_empty() {
                return Err(GuiError::Engine {
                    name: launch.name.clone(),
                    reason: "proxy=no with engine arguments: Cute Chess GUI starts a command \
                             without arguments (engines.json has no place for them); drop \
                             proxy=no and a launcher passes them on"
                        .to_owned(),
                });
            }
            let program = Path::new(&engine.cmd);
            let command = if program.components().count() > 1 {
                directory.join(program)
            } else {
                program.to_path_buf()
            };
            (command, None)
        } else {
            let job = LauncherJob {
                path: files.launchers.join(&file_name),
                directory: directory.clone(),
                invocation: ProxyInvocation::new(
                    launcher_proxy_options(engine, launch),
                    &engine.cmd,
                    &engine.args,
                ),
            };
            (job.path.clone(), Some(job))
        };
        engines.push(GuiEngine {
            entry: entry(engine, launch, &command, &directory),
            launcher,
        });
    }
    Ok(engines)
}

/// The proxy options of an engine's launcher: those `--emit cutechess` wraps it with, or
/// for an engine it runs bare, none but the protocol.
fn launcher_proxy_options(engine: &EngineSpec, launch: &RunnerLaunch) -> ProxyOptions {
    match launch.proxy() {
        Some(invocation) => invocation.options.clone(),
        None => ProxyOptions {
            protocol: (engine.protocol_or_uci() == Protocol::Xboard).then_some(Protocol::Xboard),
            ..ProxyOptions::default()
        },
    }
}

/// A launcher's file name for an engine name: letters, digits, `.`, `_` and `-` kept, any
/// other character `-` (`Sjaak II` -> `Sjaak-II`).
pub(crate) fn launcher_file_name(name: &str) -> String {
    let mut file: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    // A leading dot would hide it; a trailing one Windows drops.
    while file.starts_with('.') || file.ends_with('.') {
        file = file.trim_matches('.').to_owned();
    }
    if file.is_empty() {
        file = "engine".to_owned();
    }
    file
}

/// One engine's entry in Cute Chess's engines.json.
pub(crate) fn entry(
    engine: &EngineSpec,
    launch: &RunnerLaunch,
    command: &Path,
    directory: &Path,
) -> serde_json::Value {
    let mut map = serde_json::Map::new();
    map.insert("name".into(), launch.name.clone().into());
    map.insert("command".into(), command.display().to_string().into());
    map.insert(
        "workingDirectory".into(),
        directory.display().to_string().into(),
    );
    map.insert(
        "protocol".into(),
        engine.protocol_or_uci().to_string().into(),
    );
    map.insert("variants".into(), serde_json::json!([VARIANT]));
    if !launch.options.is_empty() {
        let options: Vec<serde_json::Value> = launch
            .options
            .iter()
            .map(|(name, value)| serde_json::json!({ "name": name, "value": value }))
            .collect();
        map.insert("options".into(), options.into());
    }
    if !engine.init_strings.is_empty() {
        map.insert("initStrings".into(), engine.init_strings.clone().into());
    }
    match engine.restart {
        Some(restart @ (Restart::On | Restart::Off)) => {
            map.insert("restart".into(), restart.to_string().into());
        }
        Some(Restart::Auto) | None => {}
    }
    serde_json::Value::Object(map)
}

/// An existing engines.json: its text and its entries as written.
#[derive(Debug)]
pub(crate) struct OldEngines {
    text: String,
    entries: Vec<Box<RawValue>>,
}

/// Reads and checks the engines.json at `path`; `None` when there is none. An empty (or
/// blank) file holds no entries.
pub(crate) fn read_engines_json(path: &Path) -> Result<Option<OldEngines>, GuiError> {
    let text = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(GuiError::Io {
                action: "read",
                path: path.display().to_string(),
                source,
            });
        }
    };
    let name = path.display().to_string();
    let text = String::from_utf8(text).map_err(|err| {
        let valid = &err.as_bytes()[..err.utf8_error().valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = valid.len() - valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1) + 1;
        GuiError::Malformed {
            path: name.clone(),
            line,
            column,
            reason: "not UTF-8".to_owned(),
        }
    })?;
    let json = text.strip_prefix('\u{feff}').unwrap_or(&text);
    if json.trim().is_empty() {
        return Ok(Some(OldEngines {
            text,
            entries: Vec::new(),
        }));
    }
    let value: &RawValue = serde_json::from_str(json).map_err(|err| GuiError::Malformed {
        path: name.clone(),
        line: err.line(),
        column: err.column(),
        reason: strip_position(&err.to_string()),
    })?;
    let entries: Vec<Box<RawValue>> = match value.get().trim_start().as_bytes().first() {
        Some(b'[') => serde_json::from_str(value.get()).expect("a JSON array is a list"),
        Some(b'{') => return Err(not_an_array(name, "an object")),
        Some(b'"') => return Err(not_an_array(name, "a string")),
        _ => return Err(not_an_array(name, "a single value")),
    };
    Ok(Some(OldEngines { text, entries }))
}

fn not_an_array(path: String, found: &'static str) -> GuiError {
    GuiError::NotAnArray { path, found }
}

/// serde_json's message without its own " at line L column C" (the error names them once).
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message.to_owned(),
    }
}

/// engines.json after the merge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Merged {
    /// The whole file.
    pub(crate) text: String,
    /// The names of old entries replaced by new ones.
    pub(crate) replaced: Vec<String>,
}

/// The old entries (each as written) with `new` in place of those of the same name, and
/// the rest of `new` at the end; a JSON array, one entry after another.
pub(crate) fn merge(old: Option<&[Box<RawValue>]>, new: &[serde_json::Value]) -> Merged {
    let name_of = |raw: &RawValue| -> Option<String> {
        #[derive(serde::Deserialize)]
        struct Named {
            name: Option<String>,
        }
        serde_json::from_str::<Named>(raw.get()).ok()?.name
    };
    let new_name = |value: &serde_json::Value| value["name"].as_str().map(str::to_owned);
    let mut used = vec![false; new.len()];
    let mut replaced = Vec::new();
    let mut items: Vec<String> = Vec::new();
    for raw in old.unwrap_or_default() {
        let name = name_of(raw);
        let ours = name.as_ref().and_then(|name| {
            new.iter()
                .position(|value| new_name(value).as_ref() == Some(name))
        });
        match ours {
            Some(index) if !used[index] => {
                used[index] = true;
                replaced.push(name.expect("matched by name"));
                items.push(pretty(&new[index]));
            }
            // A second old entry of the same name: Cute Chess would list both; ours once.
            Some(_) => replaced.push(name.expect("matched by name")),
            None => items.push(raw.get().to_owned()),
        }
    }
    for (value, used) in new.iter().zip(&used) {
        if !used {
            items.push(pretty(value));
        }
    }
    let mut text = String::from("[");
    for (index, item) in items.iter().enumerate() {
        text.push_str(if index == 0 { "\n" } else { ",\n" });
        text.push_str(item);
    }
    text.push_str("\n]\n");
    Merged { text, replaced }
}

/// An entry of ours, indented as an element of the array.
fn pretty(value: &serde_json::Value) -> String {
    let text = serde_json::to_string_pretty(value).expect("a JSON value serializes");
    text.lines()
        .map(|line| format!("  {line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Where the old engines.json is kept: `engines.json.bak`, or the first of
/// `engines.json.bak.2`, `.bak.3`, ... that does not exist yet.
pub(crate) fn backup_path(path: &Path) -> PathBuf {
    let with = |suffix: String| {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    };
    let first = with(".bak".to_owned());
    if !first.exists() {
        return first;
    }
    (2..)
        .map(|n| with(format!(".bak.{n}")))
        .find(|candidate| !candidate.exists())
        .expect("some backup name is free")
}

/// The steps in the GUI (stdout).
fn steps(
    tournament: &Tournament,
    plan: &TournamentPlan,
    clock: &TimeControl,
    files: &GuiFiles,
    book: &Path,
) -> String {
    let names: Vec<&str> = plan.launches().map(|launch| launch.name.as_str()).collect();
    let format = match tournament.book_format {
        BookFormat::Pgn => "PGN",
        BookFormat::Epd | BookFormat::Fen => "EPD",
    };
    let pgn_out = files.current_dir.join(&tournament.pgn_out);
    let mut out = String::new();
    match &files.gui_engines_json {
        Some(gui) if *gui == files.engines_json => {
            let _ = writeln!(
                out,
                "Cute Chess GUI reads {} when it starts (quit it first if it is running).",
                gui.display()
            );
        }
        Some(gui) => {
            let _ = writeln!(
                out,
                "Wrote {}; Cute Chess GUI reads {} when it starts (cutechess-cli reads \
                 engines.json in its current directory first).",
                files.engines_json.display(),
                gui.display()
            );
        }
        None => {
            let _ = writeln!(out, "Wrote {}.", files.engines_json.display());
        }
    }
    let _ = writeln!(out, "In Cute Chess: Tournament > New...");
    let _ = writeln!(out, "  PGN output: {}", pgn_out.display());
    let _ = writeln!(out, "  Tournament type: Round Robin");
    let _ = writeln!(out, "  Rounds: {}", tournament.starts.len());
    let _ = writeln!(out, "  Games per encounter: 2");
    let _ = writeln!(out, "  Play each opening: 2 times");
    let _ = writeln!(out, "  Recover crashed engines: on; Swap sides: on");
    let _ = writeln!(out, "  Variant: {VARIANT}");
    let _ = writeln!(out, "  Time Control: {}", time_control_steps(clock));
    let _ = writeln!(
        out,
        "  FEN string: empty (a FEN there replaces the opening suite)"
    );
    let _ = writeln!(
        out,
        "  PGN/EPD file: {} (read as {format}: the GUI goes by the extension)",
        book.display()
    );
    let _ = writeln!(out, "  Opening order: Sequential");
    let _ = writeln!(
        out,
        "  Players: + (Add), then select {} (listed under {VARIANT} only)",
        names.join(", ")
    );
    if let Some(concurrency) = tournament.concurrency {
        let _ = writeln!(
            out,
            "Tools > Settings > Tournaments: Concurrent games: {concurrency}"
        );
    }
    out
}

/// The time control as the GUI's Time Control dialog takes it.
fn time_control_steps(tc: &TimeControl) -> String {
    let moves = match tc.moves() {
        Some(moves) => moves.to_string(),
        None => "Whole game".to_owned(),
    };
    let increment = tc.increment_text().unwrap_or("0");
    format!(
        "Tournament, Moves: {moves}, Time: {} Seconds, Increment: {increment} sec",
        tc.seconds()
    )
}

#[cfg(test)]
#[path = "cutechess_gui_files_tests.rs"]
mod tests;
