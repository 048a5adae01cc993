//! `sp960 proxy`: its arguments and help text, and the call into [`crate::proxy`]: the
//! start choice and options become a [`ProxyConfig`], the engine's exit becomes ours.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use super::Failure;
use crate::exit_code;
use crate::launch::command::EngineCommand;
use crate::protocol::Protocol;
use crate::proxy::detect::{EngineCastlingArg, ProxyConfig, run_proxy};
use crate::proxy::io::ShellOptions;
use crate::proxy::starts::StartChoice;
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
  xboard -variant fischerandom -fcp \"sp960 proxy --protocol xboard --engine-castling kxr -- /usr/games/fairy-stockfish\"";

/// Run a UCI or XBoard engine behind a proxy that sets up Chess960 starts and shields it.
#[derive(clap::Args)]
#[command(after_help = PROXY_HELP)]
pub struct ProxyArgs {
    /// Start of every game: N (0-959), W:B (double FRC) or `random`.
    #[arg(long, value_name = "SPEC")]
    pub sp: Option<String>,
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
    #[arg(long, value_name = "MS", default_value_t = 2000)]
    pub quit_timeout: u64,
    /// The engine program and its arguments (after `--`).
    #[arg(required = true, last = true, value_name = "ENGINE [ARGS]")]
    pub engine: Vec<OsString>,
}

/// `sp960 proxy`: runs the engine behind the proxy and exits with its code; a bad --sp is
/// invalid data (exit 1).
pub(super) fn proxy(args: ProxyArgs) -> Result<(), Failure> {
    let random_seed = args.seed.unwrap_or_else(RandomStarts::fresh_seed);
    let start = StartChoice::from_arguments(args.sp.as_deref(), random_seed, args.dfrc)
        .map_err(|err| Failure::invalid(format!("proxy: --sp: {err}")))?;
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
