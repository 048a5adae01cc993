//! One engine as a user names it: the `--engine` argument of `sp960 match` and
//! `sp960 tournament`, read with cutechess-cli's `-engine` keys meaning what they mean
//! there, plus sp960's own keys for tournaments.
//!
//! An `--engine` is one argument, split into words as the platform's shell would: as a POSIX
//! shell on Unix (quotes group, `\` escapes), by the rules of Windows command lines on
//! Windows (double quotes group, `\` is a path separator: `cmd=C:\Engines\sf.exe`,
//! `"cmd=C:\Program Files\sf.exe"`; see [`split_windows`]). A word
//! `KEY=VALUE` whose KEY is a name (letters, digits, `_`) or `option.NAME` is a setting;
//! a key this reader does not know is an error naming it, never an engine argument.
//! Other words are the command line: the first is the program (unless `cmd=` gives it),
//! the rest its arguments, so `--engine '/usr/games/stockfish'` and
//! `--engine 'cmd=/usr/games/stockfish'` are the same engine. A word such as
//! `--threads=2` (its key is no name) is an argument.
//!
//! | key | meaning (as in cutechess-cli) |
//! |---|---|
//! | `cmd=PROGRAM` | the engine program |
//! | `arg=ARG` | one more argument (repeatable) |
//! | `dir=DIR` | its working directory |
//! | `name=NAME` | its name in the PGN |
//! | `proto=uci\|xboard` | its protocol |
//! | `option.NAME=VALUE` | an engine option |
//! | `initstr=TEXT` | a line sent before the protocol starts (`\n` separates lines; repeatable) |
//! | `restart=auto\|on\|off` | a fresh process for every game (`on`), or only after a failure |
//! | `tc=`, `st=`, `depth=`, `nodes=` | this engine's own time control, seconds per move, depth and node limits |
//! | `castling=`, `chess960=`, `proxy=` | tournaments only: what the engine takes, see `tournaments/tournament.rs` |
//!
//! Each command says which keys it supports ([`EngineSpec::refuse`]); the others are usage
//! errors naming the key and why.

use std::fmt;
use std::path::Path;
use std::time::Duration;

use thiserror::Error;

use crate::launch::key_value::one_of;
use crate::launch::time_control::{MAX_TIME_CONTROL_SECONDS, TimeControl, TimeControlError};
use crate::protocol::Protocol;

/// Whether a tournament wraps an engine in `sp960 proxy`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum ProxyChoice {
    /// Wrap when the engine needs it.
    #[default]
    Auto,
    /// Always wrap.
    Always,
    /// Never wrap.
    Never,
}

/// How an engine takes castling: an engine spec's `castling=` (what `sp960 tournament`
/// reads to decide whether to wrap it) and `sp960 proxy --engine-castling` (what the proxy
/// writes to it). The FEN notations apply to UCI `position fen` and XBoard `setboard`; the
/// move forms to XBoard moves (UCI engines in Chess960 mode always take king takes rook).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum EngineCastlingArg {
    /// FEN castling field with file letters (`HAha`).
    Shredder,
    /// FEN castling field `KQkq` (X-FEN).
    Xfen,
    /// XBoard: castling moves as `O-O` / `O-O-O`.
    Oo,
    /// XBoard: castling moves as king takes rook (`e1h1`).
    Kxr,
}

impl EngineCastlingArg {
    /// The values `castling=` takes for an engine speaking `protocol` (either, when not
    /// given), as written: UCI engines take a FEN notation, XBoard engines a move form.
    fn allowed(protocol: Option<Protocol>) -> &'static [(&'static str, EngineCastlingArg)] {
        const ALL: [(&str, EngineCastlingArg); 4] = [
            ("shredder", EngineCastlingArg::Shredder),
            ("xfen", EngineCastlingArg::Xfen),
            ("oo", EngineCastlingArg::Oo),
            ("kxr", EngineCastlingArg::Kxr),
        ];
        match protocol {
            Some(Protocol::Uci) => &ALL[..2],
            Some(Protocol::Xboard) => &ALL[2..],
            None => &ALL,
        }
    }
}

/// `restart=`: when the engine process is started afresh.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Restart {
    /// cutechess-cli's default: as the runner sees fit (sp960: after a failure only).
    Auto,
    /// Before every game.
    On,
    /// Never, except after a failure.
    Off,
}

impl fmt::Display for Restart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Restart::Auto => "auto",
            Restart::On => "on",
            Restart::Off => "off",
        })
    }
}

/// An engine's own search limits (`tc=`, `st=`, `depth=`, `nodes=`); each overrides the
/// command's limit of the same kind for this engine.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EngineLimits {
    /// `tc=`: its own time control.
    pub tc: Option<TimeControl>,
    /// `st=`: seconds per move, as written and as a duration.
    pub st: Option<(String, Duration)>,
    /// `depth=`: plies.
    pub depth: Option<u32>,
    /// `nodes=`: nodes per move.
    pub nodes: Option<u64>,
}

impl EngineLimits {
    /// True when the engine has a time limit of its own (`tc=` or `st=`).
    pub fn has_time(&self) -> bool {
        self.tc.is_some() || self.st.is_some()
    }
}

/// XBoard has no node limit: `--nodes` or `nodes=` for an engine that speaks it is
/// refused ([`check_node_limit`]). The variant says when the protocol was known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum NodeLimitError {
    /// Engine N (1-based) was given `proto=xboard`: refused before it starts.
    #[error("engine {0}: XBoard has no node limit; use --depth, --movetime or --tc")]
    Declared(usize),
    /// Engine N's first handshake showed XBoard.
    #[error("engine {0} speaks XBoard, which has no node limit; use --depth, --movetime or --tc")]
    Spoken(usize),
    /// A game was set up on an XBoard engine with a node limit.
    #[error("XBoard has no node limit: use --depth, --movetime or --tc")]
    Game,
}

/// The one check that an engine speaking `protocol` can search `nodes` per move: not in
/// XBoard, which has no node limit; `refusal` names the engine and when that was found.
pub fn check_node_limit(
    protocol: Protocol,
    nodes: Option<u64>,
    refusal: NodeLimitError,
) -> Result<(), NodeLimitError> {
    match (protocol, nodes) {
        (Protocol::Xboard, Some(_)) => Err(refusal),
        _ => Ok(()),
    }
}

/// One engine as given on the command line.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineSpec {
    /// Which `--engine` it was (1-based), for messages.
    pub index: usize,
    /// The program to run.
    pub cmd: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// `name=`: its name (default: what the command decides).
    pub name: Option<String>,
    /// `proto=`: its protocol, when given.
    pub protocol: Option<Protocol>,
    /// `dir=`: its working directory.
    pub dir: Option<String>,
    /// `option.NAME=VALUE`, in order.
    pub options: Vec<(String, String)>,
    /// `initstr=`: lines sent before the protocol starts.
    pub init_strings: Vec<String>,
    /// `restart=`.
    pub restart: Option<Restart>,
    /// `tc=`, `st=`, `depth=`, `nodes=`.
    pub limits: EngineLimits,
    /// `castling=`: FEN castling `shredder`|`xfen` (UCI) or castling moves `oo`|`kxr`
    /// (XBoard) the engine takes.
    pub castling: Option<EngineCastlingArg>,
    /// `chess960=`: whether a UCI engine has `UCI_Chess960`.
    pub chess960: Option<bool>,
    /// `proxy=`: whether a tournament wraps it in `sp960 proxy`.
    pub proxy: ProxyChoice,
    /// The keys given, in order (each once), for [`EngineSpec::refuse`].
    given: Vec<SpecKey>,
}

/// A malformed `--engine`, or a key the command does not support: a usage error.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("engine {engine}: {reason}")]
pub struct EngineSpecError {
    /// Which `--engine` (1-based).
    pub engine: usize,
    /// What is wrong.
    pub reason: String,
}

/// Why one setting of an `--engine` cannot be read: the reason of an [`EngineSpecError`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
enum SettingError {
    /// `cmd=` with nothing after it.
    #[error("cmd= is empty")]
    EmptyCmd,
    /// A value the key does not take.
    #[error("{key}={value}: expected {expected}")]
    Expected {
        /// The key.
        key: &'static str,
        /// The value as given.
        value: String,
        /// What the key takes.
        expected: &'static str,
    },
    /// `tc=` that is not a time control.
    #[error("tc=: {0}")]
    Tc(TimeControlError),
    /// A key this reader does not know.
    #[error(
        "unknown key '{key}' (keys: {}; option.NAME=VALUE; for an engine argument write \
         arg={key}={value})",
        SpecKey::ALL
            .iter()
            .filter(|k| **k != SpecKey::Option)
            .map(|k| k.name())
            .collect::<Vec<_>>()
            .join(", ")
    )]
    Unknown {
        /// The key as given.
        key: String,
        /// Its value.
        value: String,
    },
}

/// A key of an engine spec (`KEY=VALUE`; `option` is `option.NAME=VALUE`), each spelled
/// once, in [`SpecKey::name`]: the reader and every command's list of refused keys use it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecKey {
    /// `cmd=`
    Cmd,
    /// `arg=`
    Arg,
    /// `dir=`
    Dir,
    /// `name=`
    Name,
    /// `proto=`
    Proto,
    /// `option.NAME=`
    Option,
    /// `initstr=`
    Initstr,
    /// `restart=`
    Restart,
    /// `tc=`
    Tc,
    /// `st=`
    St,
    /// `depth=`
    Depth,
    /// `nodes=`
    Nodes,
    /// `castling=`
    Castling,
    /// `chess960=`
    Chess960,
    /// `proxy=`
    Proxy,
}

impl SpecKey {
    /// Every key, in the order the error for an unknown key lists them.
    pub const ALL: [SpecKey; 15] = [
        SpecKey::Cmd,
        SpecKey::Arg,
        SpecKey::Dir,
        SpecKey::Name,
        SpecKey::Proto,
        SpecKey::Option,
        SpecKey::Initstr,
        SpecKey::Restart,
        SpecKey::Tc,
        SpecKey::St,
        SpecKey::Depth,
        SpecKey::Nodes,
        SpecKey::Castling,
        SpecKey::Chess960,
        SpecKey::Proxy,
    ];

    /// The key as written (`cmd`, `option`).
    pub fn name(self) -> &'static str {
        match self {
            SpecKey::Cmd => "cmd",
            SpecKey::Arg => "arg",
            SpecKey::Dir => "dir",
            SpecKey::Name => "name",
            SpecKey::Proto => "proto",
            SpecKey::Option => "option",
            SpecKey::Initstr => "initstr",
            SpecKey::Restart => "restart",
            SpecKey::Tc => "tc",
            SpecKey::St => "st",
            SpecKey::Depth => "depth",
            SpecKey::Nodes => "nodes",
            SpecKey::Castling => "castling",
            SpecKey::Chess960 => "chess960",
            SpecKey::Proxy => "proxy",
        }
    }
}

impl fmt::Display for SpecKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The keys a command does not take, each with the reason (`by sp960 match (...)`).
pub type KeyRefusals = [(SpecKey, &'static str)];

/// The values of `proto=`, `restart=`, `chess960=` and `proxy=`.
const PROTOCOLS: [(&str, Protocol); 2] = [("uci", Protocol::Uci), ("xboard", Protocol::Xboard)];
const RESTARTS: [(&str, Restart); 3] = [
    ("auto", Restart::Auto),
    ("on", Restart::On),
    ("off", Restart::Off),
];
const YES_NO: [(&str, bool); 4] = [
    ("yes", true),
    ("true", true),
    ("no", false),
    ("false", false),
];
const PROXY_CHOICES: [(&str, ProxyChoice); 5] = [
    ("auto", ProxyChoice::Auto),
    ("yes", ProxyChoice::Always),
    ("always", ProxyChoice::Always),
    ("no", ProxyChoice::Never),
    ("never", ProxyChoice::Never),
];

/// cutechess-cli's `-engine` words without a value; sp960 supports none of them.
const CUTECHESS_FLAGS: [(&str, &str); 4] = [
    ("ponder", "pondering"),
    ("trust", "trusting result claims"),
    ("whitepov", "white's point of view scores"),
    ("debug", "engine debug output"),
];

/// The setting in `word`, when it is one: (key, value).
fn setting(word: &str) -> Option<(&str, &str)> {
    let (key, value) = crate::launch::key_value::split(word)?;
    let is_name = key.starts_with(|c: char| c.is_ascii_alphabetic())
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (is_name || key.starts_with("option.")).then_some((key, value))
}

/// Splits `text` into words by the rules of Windows command lines (`CommandLineToArgvW`):
/// spaces and tabs separate words outside double quotes; a backslash is itself, except in a
/// run of backslashes before a double quote, where each pair gives one backslash and an odd
/// one makes the quote a character. `None` for a quote left open.
pub fn split_windows(text: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut in_word, mut quoted) = (false, false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let mut run = 1;
                while chars.next_if_eq(&'\\').is_some() {
                    run += 1;
                }
                if chars.peek() == Some(&'"') {
                    word.extend(std::iter::repeat_n('\\', run / 2));
                    if run % 2 == 1 {
                        chars.next();
                        word.push('"');
                    }
                } else {
                    word.extend(std::iter::repeat_n('\\', run));
                }
                in_word = true;
            }
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            ' ' | '\t' if !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            _ => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quoted {
        return None;
    }
    if in_word {
        words.push(word);
    }
    Some(words)
}

impl EngineSpec {
    /// Reads one `--engine` argument (`index` is 1-based, for messages).
    pub fn parse(index: usize, text: &str) -> Result<EngineSpec, EngineSpecError> {
        let split = if cfg!(windows) {
            split_windows
        } else {
            shlex::split
        };
        let words = split(text).ok_or_else(|| EngineSpecError {
            engine: index,
            reason: format!("unbalanced quotes in '{text}'"),
        })?;
        EngineSpec::from_words(index, &words)
    }

    /// Reads the words of one `--engine`, already split.
    pub fn from_words(index: usize, words: &[String]) -> Result<EngineSpec, EngineSpecError> {
        let fail = |reason: String| EngineSpecError {
            engine: index,
            reason,
        };
        let mut spec = EngineSpec {
            index,
            cmd: String::new(),
            args: Vec::new(),
            name: None,
            protocol: None,
            dir: None,
            options: Vec::new(),
            init_strings: Vec::new(),
            restart: None,
            limits: EngineLimits::default(),
            castling: None,
            chess960: None,
            proxy: ProxyChoice::Auto,
            given: Vec::new(),
        };
        let mut command_words: Vec<&str> = Vec::new();
        // `castling=` is read after every word: the values it takes depend on `proto=`.
        let mut castling = None;
        for word in words {
            let Some((key, value)) = setting(word) else {
                if let Some((flag, what)) = CUTECHESS_FLAGS.iter().find(|(flag, _)| flag == word) {
                    return Err(fail(format!(
                        "'{flag}' is cutechess-cli's switch for {what}, which sp960 does not \
                         support (to give the engine the word '{flag}', write arg={flag})"
                    )));
                }
                command_words.push(word);
                continue;
            };
            if key == "castling" {
                castling = Some(value);
            }
            let key = spec
                .read_key(key, value)
                .map_err(|err| fail(err.to_string()))?;
            if !spec.given.contains(&key) {
                spec.given.push(key);
            }
        }
        let mut command_words = command_words.into_iter();
        if spec.cmd.is_empty() {
            match command_words.next() {
                Some(program) => spec.cmd = program.to_owned(),
                None => return Err(fail("cmd=PROGRAM is missing".into())),
            }
            // Bare words follow the program, before any `arg=`.
            let bare: Vec<String> = command_words.map(str::to_owned).collect();
            spec.args.splice(0..0, bare);
        } else if let Some(word) = command_words.next() {
            return Err(fail(format!(
                "'{word}' is not KEY=VALUE, and cmd= already names the program (for an \
                 argument write arg={word})"
            )));
        }
        if let Some(castling) = castling {
            let allowed = EngineCastlingArg::allowed(spec.protocol);
            spec.castling = Some(one_of(castling, allowed).ok_or_else(|| {
                let protocol = spec.protocol.unwrap_or(Protocol::Uci);
                let names: Vec<&str> = allowed.iter().map(|(name, _)| *name).collect();
                fail(format!(
                    "castling={castling}: a {protocol} engine takes {}",
                    names.join(" or ")
                ))
            })?);
        }
        Ok(spec)
    }

    /// Stores one setting; returns its key.
    fn read_key(&mut self, key: &str, value: &str) -> Result<SpecKey, SettingError> {
        let option = key.strip_prefix("option.").filter(|name| !name.is_empty());
        let known = SpecKey::ALL
            .into_iter()
            .find(|known| known.name() == key && *known != SpecKey::Option)
            .or(option.map(|_| SpecKey::Option))
            .ok_or_else(|| SettingError::Unknown {
                key: key.to_owned(),
                value: value.to_owned(),
            })?;
        let expected = |expected: &'static str| SettingError::Expected {
            key: known.name(),
            value: value.to_owned(),
            expected,
        };
        let owned = || Some(value.to_owned());
        match (known, option) {
            (SpecKey::Cmd, _) if value.is_empty() => return Err(SettingError::EmptyCmd),
            (SpecKey::Cmd, _) => self.cmd = value.to_owned(),
            (SpecKey::Arg, _) => self.args.push(value.to_owned()),
            (SpecKey::Dir, _) => self.dir = owned(),
            (SpecKey::Name, _) => self.name = owned(),
            // Read by `from_words` once `proto=` is known.
            (SpecKey::Castling, _) => {}
            (SpecKey::Option, Some(name)) => self.options.push((name.to_owned(), value.to_owned())),
            // As cutechess-cli: `\n` in the value separates lines.
            (SpecKey::Initstr, _) => self
                .init_strings
                .extend(value.split("\\n").map(str::to_owned)),
            (SpecKey::Proto, _) => {
                self.protocol = Some(one_of(value, &PROTOCOLS).ok_or(expected("uci or xboard"))?);
            }
            (SpecKey::Restart, _) => {
                self.restart = Some(one_of(value, &RESTARTS).ok_or(expected("auto, on or off"))?);
            }
            (SpecKey::Chess960, _) => {
                self.chess960 = Some(one_of(value, &YES_NO).ok_or(expected("yes or no"))?);
            }
            (SpecKey::Proxy, _) => {
                self.proxy = one_of(value, &PROXY_CHOICES).ok_or(expected("auto, yes or no"))?;
            }
            (SpecKey::Tc, _) => self.limits.tc = Some(value.parse().map_err(SettingError::Tc)?),
            (SpecKey::St, _) => {
                let seconds = value
                    .parse::<f64>()
                    .ok()
                    .filter(|s| *s > 0.0 && *s <= MAX_TIME_CONTROL_SECONDS as f64)
                    .and_then(|s| Duration::try_from_secs_f64(s).ok())
                    .ok_or(expected("a positive number of seconds, at most one year"))?;
                self.limits.st = Some((value.to_owned(), seconds));
            }
            (SpecKey::Depth, _) => {
                let depth = value.parse::<u32>().ok().filter(|d| *d > 0);
                self.limits.depth = Some(depth.ok_or(expected("a positive whole number"))?);
            }
            (SpecKey::Nodes, _) => {
                let nodes = value.parse::<u64>().ok().filter(|n| *n > 0);
                self.limits.nodes = Some(nodes.ok_or(expected("a positive whole number"))?);
            }
            (SpecKey::Option, None) => unreachable!("option is found only with a NAME"),
        }
        Ok(known)
    }

    /// Refuses the keys a command does not support: `unsupported` pairs a key with the
    /// reason; the first one given is a usage error naming it.
    pub fn refuse(&self, unsupported: &KeyRefusals) -> Result<(), EngineSpecError> {
        for key in &self.given {
            if let Some((_, why)) = unsupported.iter().find(|(k, _)| k == key) {
                return Err(EngineSpecError {
                    engine: self.index,
                    reason: format!("{key}= is not supported {why}"),
                });
            }
        }
        Ok(())
    }

    /// The protocol given, or UCI.
    pub fn protocol_or_uci(&self) -> Protocol {
        self.protocol.unwrap_or(Protocol::Uci)
    }

    /// The program's file name (the name of last resort, and the key of the known
    /// engines' table).
    pub fn program(&self) -> &str {
        Path::new(&self.cmd)
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or(&self.cmd)
    }
}

#[cfg(test)]
#[path = "spec_tests.rs"]
mod tests;
