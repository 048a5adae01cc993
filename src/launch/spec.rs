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
//! | `castling=`, `chess960=`, `proxy=` | tournaments only: what the engine takes, see [`crate::tournaments::tournament`] |
//!
//! Each command says which keys it supports ([`EngineSpec::refuse`]); the others are usage
//! errors naming the key and why.

use std::fmt;
use std::path::Path;
use std::time::Duration;

use thiserror::Error;

use crate::launch::time_control::TimeControl;
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
    pub castling: Option<String>,
    /// `chess960=`: whether a UCI engine has `UCI_Chess960`.
    pub chess960: Option<bool>,
    /// `proxy=`: whether a tournament wraps it in `sp960 proxy`.
    pub proxy: ProxyChoice,
    /// The keys given, in order (each once), for [`EngineSpec::refuse`].
    given: Vec<&'static str>,
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

/// Every key, as written.
const KEYS: [&str; 15] = [
    "cmd", "arg", "dir", "name", "proto", "option", "initstr", "restart", "tc", "st", "depth",
    "nodes", "castling", "chess960", "proxy",
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
    let (key, value) = word.split_once('=')?;
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
            let key = spec.read_key(key, value).map_err(fail)?;
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
        if let Some(castling) = &spec.castling {
            let allowed: &[&str] = match spec.protocol {
                Some(Protocol::Uci) => &["shredder", "xfen"],
                Some(Protocol::Xboard) => &["oo", "kxr"],
                None => &["shredder", "xfen", "oo", "kxr"],
            };
            if !allowed.contains(&castling.as_str()) {
                let protocol = spec.protocol.unwrap_or(Protocol::Uci);
                return Err(fail(format!(
                    "castling={castling}: a {protocol} engine takes {}",
                    allowed.join(" or ")
                )));
            }
        }
        Ok(spec)
    }

    /// Stores one setting; returns its key as listed in [`KEYS`].
    fn read_key(&mut self, key: &str, value: &str) -> Result<&'static str, String> {
        let positive = |what: &str| format!("{key}={value}: expected a positive {what}");
        let known = match key {
            "cmd" if value.is_empty() => return Err("cmd= is empty".into()),
            "cmd" => {
                self.cmd = value.to_owned();
                "cmd"
            }
            "arg" => {
                self.args.push(value.to_owned());
                "arg"
            }
            "dir" => {
                self.dir = Some(value.to_owned());
                "dir"
            }
            "name" => {
                self.name = Some(value.to_owned());
                "name"
            }
            "proto" => {
                self.protocol = Some(match value {
                    "uci" => Protocol::Uci,
                    "xboard" => Protocol::Xboard,
                    _ => return Err(format!("proto={value}: expected uci or xboard")),
                });
                "proto"
            }
            "initstr" => {
                // As cutechess-cli: `\n` in the value separates lines.
                self.init_strings
                    .extend(value.split("\\n").map(str::to_owned));
                "initstr"
            }
            "restart" => {
                self.restart = Some(match value {
                    "auto" => Restart::Auto,
                    "on" => Restart::On,
                    "off" => Restart::Off,
                    _ => return Err(format!("restart={value}: expected auto, on or off")),
                });
                "restart"
            }
            "tc" => {
                self.limits.tc = Some(value.parse().map_err(|err| format!("tc=: {err}"))?);
                "tc"
            }
            "st" => {
                let seconds = value
                    .parse::<f64>()
                    .ok()
                    .filter(|s| {
                        *s > 0.0
                            && *s <= crate::launch::time_control::MAX_TIME_CONTROL_SECONDS as f64
                    })
                    .and_then(|s| Duration::try_from_secs_f64(s).ok())
                    .ok_or_else(|| positive("number of seconds, at most one year"))?;
                self.limits.st = Some((value.to_owned(), seconds));
                "st"
            }
            "depth" => {
                let depth = value.parse::<u32>().ok().filter(|d| *d > 0);
                self.limits.depth = Some(depth.ok_or_else(|| positive("whole number"))?);
                "depth"
            }
            "nodes" => {
                let nodes = value.parse::<u64>().ok().filter(|n| *n > 0);
                self.limits.nodes = Some(nodes.ok_or_else(|| positive("whole number"))?);
                "nodes"
            }
            "castling" => {
                self.castling = Some(value.to_owned());
                "castling"
            }
            "chess960" => {
                self.chess960 = Some(match value {
                    "yes" | "true" => true,
                    "no" | "false" => false,
                    _ => return Err(format!("chess960={value}: expected yes or no")),
                });
                "chess960"
            }
            "proxy" => {
                self.proxy = match value {
                    "auto" => ProxyChoice::Auto,
                    "yes" | "always" => ProxyChoice::Always,
                    "no" | "never" => ProxyChoice::Never,
                    _ => return Err(format!("proxy={value}: expected auto, yes or no")),
                };
                "proxy"
            }
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    self.options.push((name.to_owned(), value.to_owned()));
                    "option"
                }
                _ => {
                    return Err(format!(
                        "unknown key '{key}' (keys: {}; option.NAME=VALUE; for an engine \
                         argument write arg={key}={value})",
                        KEYS.iter()
                            .filter(|k| **k != "option")
                            .copied()
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            },
        };
        Ok(known)
    }

    /// Refuses the keys a command does not support: `unsupported` pairs a key with the
    /// reason; the first one given is a usage error naming it.
    pub fn refuse(&self, unsupported: &[(&str, &str)]) -> Result<(), EngineSpecError> {
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
mod tests {
    use super::*;

    fn parse(text: &str) -> EngineSpec {
        EngineSpec::parse(1, text).unwrap()
    }

    fn error(text: &str) -> String {
        EngineSpec::parse(2, text).unwrap_err().to_string()
    }

    #[test]
    fn a_bare_command_and_cmd_are_the_same_engine() {
        let bare = parse("/usr/games/stockfish --threads=2 arg=-x");
        let keyed = parse("cmd=/usr/games/stockfish arg=--threads=2 arg=-x");
        assert_eq!(bare.cmd, keyed.cmd);
        assert_eq!(bare.args, ["--threads=2", "-x"]);
        assert_eq!(bare.args, keyed.args);
        assert_eq!(bare.program(), "stockfish");
    }

    #[test]
    fn cutechess_keys_mean_what_they_mean_there() {
        let spec = parse(
            "cmd=sjaakii dir=/tmp proto=xboard 'name=Sjaak II' option.Hash=16 \
             'initstr=memory 16\\nnew' restart=on tc=40/60+0.6 st=0.5 depth=7 nodes=5000",
        );
        assert_eq!(spec.dir.as_deref(), Some("/tmp"));
        assert_eq!(spec.args, Vec::<String>::new());
        assert_eq!(spec.protocol, Some(Protocol::Xboard));
        assert_eq!(spec.name.as_deref(), Some("Sjaak II"));
        assert_eq!(spec.options, [("Hash".to_owned(), "16".to_owned())]);
        assert_eq!(spec.init_strings, ["memory 16", "new"]);
        assert_eq!(spec.restart, Some(Restart::On));
        assert_eq!(spec.limits.tc.as_ref().unwrap().to_string(), "40/60+0.6");
        assert_eq!(
            spec.limits.st,
            Some(("0.5".to_owned(), Duration::from_millis(500)))
        );
        assert_eq!(
            (spec.limits.depth, spec.limits.nodes),
            (Some(7), Some(5000))
        );
        assert!(spec.limits.has_time());
    }

    #[test]
    fn unknown_keys_and_cutechess_switches_are_errors_never_arguments() {
        assert!(
            error("stockfish hash=16").starts_with("engine 2: unknown key 'hash' (keys: cmd, arg,"),
            "{}",
            error("stockfish hash=16")
        );
        assert!(error("stockfish hash=16").contains("write arg=hash=16"));
        assert!(error("stockfish ponder").contains("'ponder' is cutechess-cli's switch"));
        assert!(error("cmd=stockfish extra").contains("'extra' is not KEY=VALUE"));
        assert_eq!(error("name=x"), "engine 2: cmd=PROGRAM is missing");
        assert!(error("cmd= name=x").contains("cmd= is empty"));
        assert!(error("cmd='x").contains("unbalanced quotes"));
        assert!(error("x proto=cecp").contains("proto=cecp: expected uci or xboard"));
        assert!(error("x restart=yes").contains("restart=yes: expected auto, on or off"));
        assert!(error("x tc=1+").contains("tc=: time control '1+'"));
        assert!(error("x tc=1e300").contains("out of range"));
        assert!(error("x st=0").contains("st=0: expected a positive number"));
        assert!(error("x st=1e300").contains("st=1e300"));
        assert!(error("x depth=-1").contains("depth=-1: expected a positive whole number"));
        assert!(error("x nodes=0").contains("nodes=0"));
        assert!(error("x castling=kxr proto=uci").contains("a uci engine takes shredder or xfen"));
        assert!(error("x chess960=maybe").contains("chess960=maybe"));
        assert!(error("x proxy=sometimes").contains("proxy=sometimes"));
    }

    #[test]
    fn commands_refuse_the_keys_they_do_not_support() {
        let spec = parse("x tc=1+0.1 castling=xfen");
        assert_eq!(spec.refuse(&[("initstr", "here")]), Ok(()));
        let err = spec
            .refuse(&[("castling", "by sp960 match (it drives the engine itself)")])
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "engine 1: castling= is not supported by sp960 match (it drives the engine itself)"
        );
    }

    #[test]
    fn windows_command_lines_keep_paths_and_group_with_double_quotes() {
        let split = |text: &str| split_windows(text).unwrap();
        assert_eq!(
            split(r"cmd=C:\Engines\sf.exe name=SF"),
            [r"cmd=C:\Engines\sf.exe", "name=SF"]
        );
        assert_eq!(
            split(r#""cmd=C:\Program Files\sf.exe" arg=-x"#),
            [r"cmd=C:\Program Files\sf.exe", "arg=-x"]
        );
        assert_eq!(
            split(r#"cmd="C:\Program Files\Stockfish 17\sf.exe"  "name=Stock fish""#),
            [
                r"cmd=C:\Program Files\Stockfish 17\sf.exe",
                "name=Stock fish"
            ]
        );
        // Backslashes before a quote: pairs halve, an odd one makes the quote literal.
        assert_eq!(
            split(r#"a\\"b c"  d\"e  f\\\"g"#),
            [r"a\b c", "d\"e", r#"f\"g"#]
        );
        assert_eq!(split(r"dir=\\server\share\ "), [r"dir=\\server\share\"]);
        assert_eq!(split("\"\""), [""]);
        assert_eq!(split("  "), Vec::<String>::new());
        assert_eq!(split_windows(r#"cmd="C:\x"#), None);
    }
}
