//! `sp960 proxy`: its arguments and help text, and the call into [`crate::proxy`]: the
//! start choice and options become a [`ProxyConfig`], the engine's exit becomes ours. With
//! `--write-launcher PATH` the same options, checked as for a run, become a launcher's
//! words instead ([`launcher_words`]), written by [`crate::launch::launcher`].

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::CommandFailure;
use crate::exit_code;
use crate::launch::command::EngineCommand;
use crate::launch::proxy_invocation::{ProxyInvocation, ProxyOptions};
use crate::launch::proxy_launcher::{self, LauncherSettings, absolute_engine_program};
use crate::proxy::detect::{ProxyConfig, run_proxy};
use crate::proxy::io::ShellOptions;
use crate::proxy::starts::StartChoice;
use crate::starts::start::RandomStarts;

const PROXY_HELP: &str =
    "The GUI starts this command as if it were the engine. Every line either way is
forwarded byte for byte, except what the proxy deliberately changes: with a start
(--sp, or the GUI options SP960_Start: -2 random, -1 off, 0-959, and SP960_BlackStart),
`position startpos` becomes the start's FEN and the engine is put into UCI_Chess960
mode (the start replaces `startpos` only: a GUI or runner that keeps its own board sends
its own start, so give it a book: sp960 book / sp960 tournament); castling moves are
translated between the GUI's and the engine's notation;
broken FENs and illegal moves never reach the engine (the GUI gets `info string`, the
next `go` gets `bestmove 0000`).

XBoard GUIs and engines too: the GUI's first command (`xboard` or `uci`, or --protocol)
picks the protocol. For XBoard, `new` brings `variant fischerandom` and `setboard <start>`,
the options are `feature option=\"SP960_Start -spin ...\"`, castling is rewritten between
O-O/O-O-O and king takes rook (--engine-castling oo|kxr), and bad input gets `Error (...)`
or `Illegal move (...)`.

Examples:
  sp960 proxy --sp 860 -- /usr/games/stockfish
  sp960 proxy --sp 0:959 --log game.log -- /usr/games/fairy-stockfish
  sp960 proxy --sp random --seed 7 -- ethereal-chess
  sp960 proxy -- glaurung                      shield and translate only
  sp960 proxy --offer-chess960 -- toga2        an engine without UCI_Chess960 in a runner
  sp960 proxy --restart-engine 3 --max-overrun 500 -- /usr/games/stockfish
  sp960 proxy --write-launcher ~/engines/stockfish-960 --sp 860 -- stockfish
                                               one program path for a GUI, started with no arguments
  xboard -variant fischerandom -fcp \"sp960 proxy --protocol xboard --engine-castling kxr -- /usr/games/fairy-stockfish\"";

/// Run a UCI or XBoard engine behind a proxy that sets up Chess960 starts and shields it.
#[derive(clap::Args, Debug, Clone, PartialEq)]
#[command(after_help = PROXY_HELP)]
pub struct ProxyArgs {
    /// Every option of the proxy, typed once (`launch::proxy_invocation`).
    #[command(flatten)]
    pub options: ProxyOptions,
    /// Do not run: write a launcher at PATH (PATH.exe on Windows) for GUIs that start an
    /// engine by its path alone, with no arguments. It is a copy of sp960 with PATH.sp960.json beside it, holding this directory and these
    /// options and engine (the engine and --log made absolute); started with no arguments
    /// from any directory, it runs this very `sp960 proxy` here. Prints the launcher's
    /// path; register that path alone in the GUI. Rewrites a launcher, never another file.
    #[arg(long, value_name = "PATH")]
    pub write_launcher: Option<PathBuf>,
    /// The engine program and its arguments (after `--`).
    #[arg(required = true, last = true, value_name = "ENGINE [ARGS]")]
    pub engine: Vec<OsString>,
}

/// `sp960 proxy`: runs the engine behind the proxy and exits with its code (a bad --sp is
/// invalid data, exit 1, refused as clap reads it).
pub(super) fn proxy(args: ProxyArgs) -> Result<(), CommandFailure> {
    let options = &args.options;
    let random_seed = options.seed.unwrap_or_else(RandomStarts::fresh_seed);
    let start = StartChoice::from_arguments(options.sp.as_ref(), random_seed, options.dfrc);
    if let Some(path) = &args.write_launcher {
        return write_launcher(path, &args);
    }
    if let (StartChoice::Random { .. }, None) = (start, options.seed) {
        eprintln!("sp960: proxy: random seed {random_seed} (repeat with --seed {random_seed})");
    }
    let mut config = ProxyConfig::new(start, random_seed, options.require_chess960);
    config.protocol = options.protocol;
    config.uci.gui_castling = options.gui_castling;
    config.uci.offer_chess960 = options.offer_chess960;
    config.uci.restart_engine = options.restart_engine;
    config.xboard.restart_engine = options.restart_engine;
    config.uci.max_overrun = options.max_overrun.map(Duration::from_millis);
    config.uci.max_search = options.max_search.map(Duration::from_millis);
    if let Some(value) = options.engine_castling {
        config.set_engine_castling(value);
    }
    let shell = ShellOptions {
        log: options.log.clone(),
        quit_timeout: Duration::from_millis(options.quit_timeout),
    };
    let mut engine = args.engine.into_iter();
    let command = EngineCommand {
        program: engine.next().expect("clap requires the engine"),
        args: engine.collect(),
        dir: None,
    };
    match run_proxy(config, &command, &shell) {
        Ok(exit_code::SUCCESS) => Ok(()),
        Ok(code) => Err(CommandFailure::quiet(code)),
        Err(err) => Err(CommandFailure::new(err.exit_code(), err.to_string())),
    }
}

/// `sp960 proxy --write-launcher PATH ...`: the options already checked as for a run, the
/// engine and `--log` made absolute, the current directory as the launcher's directory;
/// its path on stdout, how to register it on stderr.
fn write_launcher(path: &Path, args: &ProxyArgs) -> Result<(), CommandFailure> {
    let failure = |err: proxy_launcher::LauncherError| {
        CommandFailure::new(err.exit_code(), format!("proxy: --write-launcher: {err}"))
    };
    let directory = std::env::current_dir()?;
    let program = args.engine.first().expect("clap requires the engine");
    let program = absolute_engine_program(program).map_err(failure)?;
    let log = args
        .options
        .log
        .as_deref()
        .map(std::path::absolute)
        .transpose()?;
    let settings = LauncherSettings {
        directory,
        proxy_args: launcher_words(args, &program, log.as_deref())?,
    };
    let written = proxy_launcher::write_launcher(path, &settings).map_err(failure)?;
    let written = std::path::absolute(&written)?;
    println!("{}", written.display());
    eprintln!(
        "sp960: proxy: launcher written; in the GUI give its path alone as the engine's command, with no arguments (its settings: {})",
        proxy_launcher::settings_path(&written).display()
    );
    Ok(())
}

/// The words after `sp960 proxy` that run `args` again, `--write-launcher` left out, with
/// `program` for the engine program and `log` for `--log`: the typed invocation's words
/// ([`ProxyInvocation::arguments`]), each checked to be text (JSON holds text).
fn launcher_words(
    args: &ProxyArgs,
    program: &Path,
    log: Option<&Path>,
) -> Result<Vec<String>, CommandFailure> {
    if let Some(log) = log {
        text("the --log file", log.as_os_str())?;
    }
    text("the engine program", program.as_os_str())?;
    for arg in &args.engine[1..] {
        text("an engine argument", arg)?;
    }
    let invocation = ProxyInvocation::new(
        ProxyOptions {
            log: log.map(Path::to_path_buf),
            ..args.options.clone()
        },
        program,
        &args.engine[1..],
    );
    invocation
        .arguments()
        .iter()
        .map(|word| text("a word", word))
        .collect()
}

/// A word of a launcher's settings file: JSON holds text, so it must be Unicode.
fn text(what: &str, word: &OsStr) -> Result<String, CommandFailure> {
    word.to_str().map(str::to_owned).ok_or_else(|| {
        CommandFailure::new(
            exit_code::USAGE,
            format!(
                "proxy: --write-launcher: {what} '{}' is not valid Unicode: a launcher's settings file cannot hold it",
                word.to_string_lossy()
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::{Cli, Command};

    fn proxy_args(words: &[&str]) -> ProxyArgs {
        let cli = Cli::try_parse_from(["sp960", "proxy"].iter().chain(words)).unwrap();
        match cli.command {
            Command::Proxy(args) => args,
            _ => unreachable!("a proxy command"),
        }
    }

    /// Every option set away from its default comes back from the launcher's words: the
    /// words parse as the same arguments, but for `--write-launcher` and the absolute
    /// engine and log.
    #[test]
    fn launcher_words_keep_every_option() {
        let given = proxy_args(&[
            "--sp",
            "0:959",
            "--seed",
            "7",
            "--dfrc",
            "--gui-castling",
            "chess960",
            "--engine-castling",
            "kxr",
            "--protocol",
            "xboard",
            "--require-chess960",
            "--offer-chess960",
            "--restart-engine",
            "3",
            "--max-overrun",
            "500",
            "--max-search",
            "9000",
            "--log",
            "game.log",
            "--quit-timeout",
            "100",
            "--write-launcher",
            "sf-960",
            "--",
            "sf",
            "-x",
            "--y",
            "a b",
        ]);
        let words = launcher_words(
            &given,
            Path::new("/abs/sf"),
            Some(Path::new("/abs/game.log")),
        )
        .unwrap();
        let again = proxy_args(&words.iter().map(String::as_str).collect::<Vec<_>>());
        let expected = ProxyArgs {
            options: ProxyOptions {
                log: Some("/abs/game.log".into()),
                ..given.options
            },
            write_launcher: None,
            engine: ["/abs/sf", "-x", "--y", "a b"].map(OsString::from).to_vec(),
        };
        assert_eq!(again, expected);
    }

    /// The typed invocation, every option away from its default (a struct literal and a
    /// destructuring without `..`: a new option does not compile until it is here),
    /// rendered by [`ProxyInvocation::words`] and read back by the proxy's own clap
    /// parser: the same options and engine.
    #[test]
    fn every_option_of_the_invocation_round_trips_through_clap() {
        use crate::launch::spec::EngineCastlingArg;
        use crate::protocol::Protocol;
        use crate::starts::castling::CastlingDialect;
        let options = ProxyOptions {
            sp: Some("random".parse().unwrap()),
            seed: Some(7),
            dfrc: true,
            gui_castling: Some(CastlingDialect::Standard),
            engine_castling: Some(EngineCastlingArg::Xfen),
            protocol: Some(Protocol::Uci),
            require_chess960: true,
            offer_chess960: true,
            restart_engine: 3,
            max_overrun: Some(500),
            max_search: Some(9000),
            log: Some("a b.log".into()),
            quit_timeout: 100,
        };
        let ProxyOptions {
            sp,
            seed,
            dfrc,
            gui_castling,
            engine_castling,
            protocol,
            require_chess960,
            offer_chess960,
            restart_engine,
            max_overrun,
            max_search,
            log,
            quit_timeout,
        } = ProxyOptions::default();
        assert_ne!(options.sp, sp);
        assert_ne!(options.seed, seed);
        assert_ne!(options.dfrc, dfrc);
        assert_ne!(options.gui_castling, gui_castling);
        assert_ne!(options.engine_castling, engine_castling);
        assert_ne!(options.protocol, protocol);
        assert_ne!(options.require_chess960, require_chess960);
        assert_ne!(options.offer_chess960, offer_chess960);
        assert_ne!(options.restart_engine, restart_engine);
        assert_ne!(options.max_overrun, max_overrun);
        assert_ne!(options.max_search, max_search);
        assert_ne!(options.log, log);
        assert_ne!(options.quit_timeout, quit_timeout);
        let invocation = ProxyInvocation::new(options, "/usr/games/stockfish", ["-x", "--y"]);
        let words = invocation.text_words();
        assert_eq!(words[0], "proxy");
        let again = proxy_args(&words[1..].iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(again.options, invocation.options);
        assert_eq!(again.engine, invocation.engine);
        assert_eq!(again.write_launcher, None);
        // The defaults come back from no words at all.
        let bare = proxy_args(&["--", "sf"]);
        assert_eq!(bare.options, ProxyOptions::default());
    }

    #[test]
    fn defaults_are_left_out_of_the_words() {
        let given = proxy_args(&["--sp", "860", "--", "stockfish"]);
        let words = launcher_words(&given, Path::new("/usr/games/stockfish"), None).unwrap();
        assert_eq!(words, ["--sp", "860", "--", "/usr/games/stockfish"]);
    }
}
