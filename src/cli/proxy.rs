//! `sp960 proxy`: its arguments and help text, and the call into [`crate::proxy`]: the
//! start choice and options become a [`ProxyConfig`], the engine's exit becomes ours. With
//! `--write-launcher PATH` the same options, checked as for a run, become a launcher's
//! words instead ([`launcher_words`]), written by [`crate::launch::launcher`].

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::ValueEnum;

use super::Failure;
use super::values::proxy_start;
use crate::exit_code;
use crate::launch::command::EngineCommand;
use crate::launch::launcher::{self, LauncherSettings, absolute_engine_program};
use crate::protocol::Protocol;
use crate::proxy::detect::{EngineCastlingArg, ProxyConfig, run_proxy};
use crate::proxy::io::ShellOptions;
use crate::proxy::starts::{StartArg, StartChoice};
use crate::starts::castling::CastlingDialect;
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

/// The default of `--quit-timeout`, left out of a launcher's words.
const DEFAULT_QUIT_TIMEOUT_MS: u64 = 2000;

/// Run a UCI or XBoard engine behind a proxy that sets up Chess960 starts and shields it.
#[derive(clap::Args, Debug, Clone, PartialEq)]
#[command(after_help = PROXY_HELP)]
pub struct ProxyArgs {
    /// Start of every game: N (0-959), W:B (double FRC) or `random`.
    #[arg(long, value_name = "SPEC", value_parser = proxy_start)]
    pub sp: Option<StartArg>,
    /// Seed for random starts (`--sp random`, or the GUI's SP960_Start -2); otherwise
    /// one is drawn and told on stderr when used.
    #[arg(long)]
    pub seed: Option<u64>,
    /// With `--sp random`: double Fischer Random pairs.
    #[arg(long, requires = "sp")]
    pub dfrc: bool,
    /// The GUI's castling notation (default: chess960 once the GUI enables
    /// UCI_Chess960, standard before).
    #[arg(long, value_enum)]
    pub gui_castling: Option<CastlingDialect>,
    /// How the engine takes castling: FEN castling field (shredder: HAha, the
    /// default; xfen: KQkq), or for XBoard engines the move form (oo: O-O/O-O-O;
    /// kxr: king takes rook, e1h1; default: learned, see README).
    #[arg(long, value_enum)]
    pub engine_castling: Option<EngineCastlingArg>,
    /// The GUI's protocol (default: its first command decides, `xboard` or `uci`).
    #[arg(long, value_enum)]
    pub protocol: Option<Protocol>,
    /// Exit (code 3) instead of warning when a start is set and the engine has no
    /// UCI_Chess960 option (UCI) or does not list fischerandom in its variants (XBoard).
    #[arg(long)]
    pub require_chess960: bool,
    /// UCI: list UCI_Chess960 to the GUI for an engine that has no such option (Toga II),
    /// so that runners play Chess960 with it: it gets each position as standard chess,
    /// plays legal moves, and never castles where Chess960 castling differs.
    #[arg(long)]
    pub offer_chess960: bool,
    /// When the engine exits unasked, start it again and go on with the same game (UCI:
    /// its options, the position, the pending go with the time spent taken off its clock;
    /// XBoard: its settings, the game's start and moves, time/otim and go), at most N
    /// times a game; after that, end as without it.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub restart_engine: u32,
    /// UCI: the clock guard. A go with a clock (the mover's wtime/btime, movetime) not
    /// answered by that time plus MS gets `stop`; one second later the GUI gets the
    /// engine's best so far (its last pv's first move) or `bestmove 0000`. Never cuts
    /// `go infinite` or `go ponder` (from `ponderhit` on, its clock counts).
    #[arg(long, value_name = "MS")]
    pub max_overrun: Option<u64>,
    /// UCI: the clock guard for a go without a clock (depth, nodes, mate): stopped after
    /// MS, then answered as with --max-overrun.
    #[arg(long, value_name = "MS")]
    pub max_search: Option<u64>,
    /// Write a timestamped transcript of both directions to FILE.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Milliseconds the engine gets to exit after `quit` before it is killed.
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_QUIT_TIMEOUT_MS)]
    pub quit_timeout: u64,
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
pub(super) fn proxy(args: ProxyArgs) -> Result<(), Failure> {
    let random_seed = args.seed.unwrap_or_else(RandomStarts::fresh_seed);
    let start = StartChoice::from_arguments(args.sp.as_ref(), random_seed, args.dfrc);
    if let Some(path) = &args.write_launcher {
        return write_launcher(path, &args);
    }
    if let (StartChoice::Random { .. }, None) = (start, args.seed) {
        eprintln!("sp960: proxy: random seed {random_seed} (repeat with --seed {random_seed})");
    }
    let mut config = ProxyConfig::new(start, random_seed, args.require_chess960);
    config.protocol = args.protocol;
    config.uci.gui_castling = args.gui_castling;
    config.uci.offer_chess960 = args.offer_chess960;
    config.uci.restart_engine = args.restart_engine;
    config.xboard.restart_engine = args.restart_engine;
    config.uci.max_overrun = args.max_overrun.map(Duration::from_millis);
    config.uci.max_search = args.max_search.map(Duration::from_millis);
    if let Some(value) = args.engine_castling {
        config.set_engine_castling(value);
    }
    let mut engine = args.engine.into_iter();
    let command = EngineCommand {
        program: engine.next().expect("clap requires the engine"),
        args: engine.collect(),
        dir: None,
    };
    let shell = ShellOptions {
        log: args.log,
        quit_timeout: Duration::from_millis(args.quit_timeout),
    };
    match run_proxy(config, &command, &shell) {
        Ok(exit_code::SUCCESS) => Ok(()),
        Ok(code) => Err(Failure::quiet(code)),
        Err(err) => Err(Failure::new(err.exit_code(), err.to_string())),
    }
}

/// `sp960 proxy --write-launcher PATH ...`: the options already checked as for a run, the
/// engine and `--log` made absolute, the current directory as the launcher's directory;
/// its path on stdout, how to register it on stderr.
fn write_launcher(path: &Path, args: &ProxyArgs) -> Result<(), Failure> {
    let failure = |err: launcher::LauncherError| {
        Failure::new(err.exit_code(), format!("proxy: --write-launcher: {err}"))
    };
    let directory = std::env::current_dir()?;
    let program = args.engine.first().expect("clap requires the engine");
    let program = absolute_engine_program(program).map_err(failure)?;
    let log = args.log.as_deref().map(std::path::absolute).transpose()?;
    let settings = LauncherSettings {
        directory,
        proxy_args: launcher_words(args, &program, log.as_deref())?,
    };
    let written = launcher::write_launcher(path, &settings).map_err(failure)?;
    let written = std::path::absolute(&written)?;
    println!("{}", written.display());
    eprintln!(
        "sp960: proxy: launcher written; in the GUI give its path alone as the engine's command, with no arguments (its settings: {})",
        launcher::settings_path(&written).display()
    );
    Ok(())
}

/// The words after `sp960 proxy` that run `args` again, `--write-launcher` left out, with
/// `program` for the engine program and `log` for `--log`. Every field is named here (no
/// `..`), so a new proxy option does not compile until it says how a launcher keeps it.
fn launcher_words(
    args: &ProxyArgs,
    program: &Path,
    log: Option<&Path>,
) -> Result<Vec<String>, Failure> {
    let ProxyArgs {
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
        log: _,
        quit_timeout,
        write_launcher: _,
        engine,
    } = args;
    let mut words: Vec<String> = Vec::new();
    let mut option = |name: &str, value: Option<String>| {
        if let Some(value) = value {
            words.push(format!("--{name}"));
            words.push(value);
        }
    };
    option("sp", sp.as_ref().map(|sp| sp.text().to_owned()));
    option("seed", seed.map(|seed| seed.to_string()));
    option("gui-castling", gui_castling.map(value_name));
    option("engine-castling", engine_castling.map(value_name));
    option("protocol", protocol.map(value_name));
    option(
        "restart-engine",
        (*restart_engine != 0).then(|| restart_engine.to_string()),
    );
    option("max-overrun", max_overrun.map(|ms| ms.to_string()));
    option("max-search", max_search.map(|ms| ms.to_string()));
    option(
        "log",
        log.map(|log| text("the --log file", log.as_os_str()))
            .transpose()?,
    );
    option(
        "quit-timeout",
        (*quit_timeout != DEFAULT_QUIT_TIMEOUT_MS).then(|| quit_timeout.to_string()),
    );
    for (flag, set) in [
        ("--dfrc", dfrc),
        ("--require-chess960", require_chess960),
        ("--offer-chess960", offer_chess960),
    ] {
        if *set {
            words.push(flag.to_owned());
        }
    }
    words.push("--".to_owned());
    words.push(text("the engine program", program.as_os_str())?);
    for arg in &engine[1..] {
        words.push(text("an engine argument", arg)?);
    }
    Ok(words)
}

/// A value enum's name as clap reads it (`shredder`, `xboard`).
fn value_name<T: ValueEnum>(value: T) -> String {
    value
        .to_possible_value()
        .expect("no value is skipped")
        .get_name()
        .to_owned()
}

/// A word of a launcher's settings file: JSON holds text, so it must be Unicode.
fn text(what: &str, word: &OsStr) -> Result<String, Failure> {
    word.to_str().map(str::to_owned).ok_or_else(|| {
        Failure::new(
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
            write_launcher: None,
            log: Some("/abs/game.log".into()),
            engine: ["/abs/sf", "-x", "--y", "a b"].map(OsString::from).to_vec(),
            ..given
        };
        assert_eq!(again, expected);
    }

    #[test]
    fn defaults_are_left_out_of_the_words() {
        let given = proxy_args(&["--sp", "860", "--", "stockfish"]);
        let words = launcher_words(&given, Path::new("/usr/games/stockfish"), None).unwrap();
        assert_eq!(words, ["--sp", "860", "--", "/usr/games/stockfish"]);
    }
}
