//! `sp960 proxy`'s own command line, typed once: every option the proxy takes
//! ([`ProxyOptions`], which is also the proxy's clap arguments: `cli` flattens it) and the
//! engine after `--` ([`ProxyInvocation`]), rendered into words in one place
//! ([`ProxyInvocation::words`]). Whoever runs an engine through the proxy builds one: the
//! tournament lines and the runner dialects, Cute Chess GUI's launchers, `sp960 proxy
//! --write-launcher`'s settings and `sp960 check`'s proxied run. No proxy option word is
//! written anywhere else; `cli/proxy.rs`'s tests read every option back through the
//! proxy's own clap parser.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::ValueEnum;

use crate::exit_code::Refused;
use crate::launch::spec::EngineCastlingArg;
use crate::protocol::Protocol;
use crate::starts::castling::CastlingDialect;
use crate::starts::start::StartArg;

/// The proxy's subcommand word: `sp960 proxy ...`.
pub(crate) const SUBCOMMAND: &str = "proxy";

/// The default of `--quit-timeout`, left out of the words.
pub(crate) const DEFAULT_QUIT_TIMEOUT_MS: u64 = 2000;

/// Every option of `sp960 proxy` (its clap arguments, but for `--write-launcher` and the
/// engine). A default is left out of the words.
#[derive(clap::Args, Debug, Clone, PartialEq, Eq)]
pub struct ProxyOptions {
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
}

impl Default for ProxyOptions {
    /// No option given: what `sp960 proxy -- ENGINE` runs with.
    fn default() -> ProxyOptions {
        ProxyOptions {
            sp: None,
            seed: None,
            dfrc: false,
            gui_castling: None,
            engine_castling: None,
            protocol: None,
            require_chess960: false,
            offer_chess960: false,
            restart_engine: 0,
            max_overrun: None,
            max_search: None,
            log: None,
            quit_timeout: DEFAULT_QUIT_TIMEOUT_MS,
        }
    }
}

/// `sp960 proxy --sp`: one start or `random`, refused as invalid data (exit 1).
pub fn proxy_start(text: &str) -> Result<StartArg, Refused> {
    text.parse().map_err(Refused::invalid("proxy: --sp"))
}

/// `sp960 proxy OPTIONS -- ENGINE ARGS`: the proxy's options and the engine it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProxyInvocation {
    /// The proxy's options.
    pub options: ProxyOptions,
    /// The engine program and its arguments (after `--`).
    pub engine: Vec<OsString>,
}

impl ProxyOptions {
    /// The option words, in the one order every command line sp960 writes has them
    /// (`--protocol xboard --engine-castling kxr`, `--offer-chess960 --engine-castling
    /// xfen`, as the tournament lines always were), defaults left out. Every field is
    /// named here (no `..`): a new option does not compile until it says how it is written.
    pub fn words(&self) -> Vec<OsString> {
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
        } = self;
        let mut words: Vec<OsString> = Vec::new();
        let mut option = |name: &str, value: Option<OsString>| {
            if let Some(value) = value {
                words.push(format!("--{name}").into());
                words.push(value);
            }
        };
        option("sp", sp.as_ref().map(|sp| sp.text().into()));
        option("seed", seed.map(|seed| seed.to_string().into()));
        option("gui-castling", gui_castling.map(value_name));
        option("protocol", protocol.map(value_name));
        option(
            "restart-engine",
            (*restart_engine != 0).then(|| restart_engine.to_string().into()),
        );
        option("max-overrun", max_overrun.map(|ms| ms.to_string().into()));
        option("max-search", max_search.map(|ms| ms.to_string().into()));
        option("log", log.as_ref().map(|log| log.clone().into_os_string()));
        option(
            "quit-timeout",
            (*quit_timeout != DEFAULT_QUIT_TIMEOUT_MS).then(|| quit_timeout.to_string().into()),
        );
        for (flag, set) in [
            ("--dfrc", dfrc),
            ("--require-chess960", require_chess960),
            ("--offer-chess960", offer_chess960),
        ] {
            if *set {
                words.push(flag.into());
            }
        }
        if let Some(castling) = engine_castling {
            words.push("--engine-castling".into());
            words.push(value_name(*castling));
        }
        words
    }
}

impl ProxyInvocation {
    /// The proxy with `options` running `program` with `args`.
    pub fn new(
        options: ProxyOptions,
        program: impl Into<OsString>,
        args: impl IntoIterator<Item = impl Into<OsString>>,
    ) -> ProxyInvocation {
        let engine = std::iter::once(program.into())
            .chain(args.into_iter().map(Into::into))
            .collect();
        ProxyInvocation { options, engine }
    }

    /// The words after `sp960 proxy`: the options, `--`, the engine and its arguments (what
    /// a launcher's settings file holds).
    pub fn arguments(&self) -> Vec<OsString> {
        let mut words = self.options.words();
        words.push("--".into());
        words.extend(self.engine.iter().cloned());
        words
    }

    /// The words after the sp960 program: `proxy`, the options, `--`, the engine and its
    /// arguments.
    pub fn words(&self) -> Vec<OsString> {
        let mut words = vec![OsString::from(SUBCOMMAND)];
        words.extend(self.arguments());
        words
    }

    /// [`ProxyInvocation::words`] as text, for a command line sp960 writes: built from
    /// text (an `--engine` spec, a path already checked to be Unicode), so nothing is lost.
    pub fn text_words(&self) -> Vec<String> {
        self.words()
            .into_iter()
            .map(|word| word.to_string_lossy().into_owned())
            .collect()
    }
}

/// A value enum's name as clap reads it (`shredder`, `xboard`).
fn value_name<T: ValueEnum>(value: T) -> OsString {
    value
        .to_possible_value()
        .expect("no value is skipped")
        .get_name()
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_give_no_option_words() {
        let invocation = ProxyInvocation::new(ProxyOptions::default(), "sf", ["-x"]);
        assert_eq!(invocation.text_words(), ["proxy", "--", "sf", "-x"]);
    }

    #[test]
    fn the_tournament_lines_order_is_kept() {
        let options = ProxyOptions {
            protocol: Some(Protocol::Xboard),
            engine_castling: Some(EngineCastlingArg::Kxr),
            ..ProxyOptions::default()
        };
        let words = ProxyInvocation::new(options, "fsf", [""; 0]).text_words();
        assert_eq!(
            words,
            [
                "proxy",
                "--protocol",
                "xboard",
                "--engine-castling",
                "kxr",
                "--",
                "fsf"
            ]
        );
        let options = ProxyOptions {
            offer_chess960: true,
            engine_castling: Some(EngineCastlingArg::Xfen),
            ..ProxyOptions::default()
        };
        let words = options.words();
        assert_eq!(words, ["--offer-chess960", "--engine-castling", "xfen"]);
    }
}
