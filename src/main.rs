//! The `sp960` command: parses arguments, calls the library, maps errors to exit codes.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use sp960::castling::CastlingDialect;
use sp960::exit_code;
use sp960::identify::identify;
use sp960::notation::{CastlingNotation, RecordFormat, start_fen, start_record};
use sp960::proxy::detect::{EngineCastlingArg, Protocol, ProxyConfig};
use sp960::proxy::io::{EngineCommand, ShellOptions};
use sp960::start::{RandomStarts, parse_spec};
use sp960::uci::{StartChoice, UciConfig};
use sp960::xboard::XboardConfig;

const EXAMPLES: &str = "\
Examples:
  sp960 fen 860                      the FEN of start position 860
  sp960 fen 0-9 959 --castling xfen  several, with KQkq castling
  sp960 fen 0:959                    double Fischer Random: white from SP 0, black from SP 959
  sp960 fen all --format epd         all 960 as EPD records with id \"SP n\"
  sp960 identify RBKNRNBQ            -> 860
  sp960 fen all | sp960 identify -   reads FENs or arrangements from stdin
  sp960 random --count 3 --seed 7    three reproducible random starts
  sp960 proxy --sp 860 -- stockfish  a UCI engine that plays every game from SP 860

Exit codes: 0 success, 1 invalid chess data (bad SP, arrangement or FEN), 2 usage error.
proxy: the engine's exit status; 3 engine unsuitable (--require-chess960), 4 engine exited
unasked with status 0, 126 engine not executable, 127 engine not found.";

const PROXY_HELP: &str =
    "The GUI starts this command as if it were the engine. Every line either way is
forwarded byte for byte, except what the proxy deliberately changes: with a start
(--sp or the GUI options SP960_Start / SP960_BlackStart, -1 = as on the command line),
`position startpos` becomes the start's FEN and the engine is put into UCI_Chess960
mode; castling moves are translated between the GUI's and the engine's notation;
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
  xboard -variant fischerandom -fcp \"sp960 proxy --sp 860 -- /usr/games/fairy-stockfish\"";

/// Chess960 start positions for GUIs and engines: numbers to FENs and back.
#[derive(Parser)]
#[command(name = "sp960", version, about, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the start FEN of each SPEC, one per line.
    ///
    /// SPEC is a number 0-959 (Scharnagl), a range A-B, `all`, a double-FRC pair W:B
    /// (white's rank from SP W, black's from SP B), or a comma-separated list of these.
    #[command(
        after_help = "Examples:\n  sp960 fen 860\n  sp960 fen 0-3,959 0:959 --castling xfen\n  sp960 fen all --format epd"
    )]
    Fen {
        /// Start positions: N, A-B, all, W:B, or lists like 0,5-7.
        #[arg(required = true, value_name = "SPEC")]
        specs: Vec<String>,
        /// Castling field: Shredder file letters (HAha) or X-FEN (KQkq).
        #[arg(long, value_enum, default_value_t)]
        castling: CastlingNotation,
        /// Six-field FEN, or four-field EPD with `id "SP n";`.
        #[arg(long, value_enum, default_value_t)]
        format: RecordFormat,
    },
    /// Print the SP number (or W:B pair) of each FEN, EPD or 8-letter arrangement.
    #[command(
        after_help = "Examples:\n  sp960 identify RBKNRNBQ\n  sp960 identify 'rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1'\n  sp960 fen all | sp960 identify -"
    )]
    Identify {
        /// FENs, EPDs or arrangements; `-` reads one per line from stdin.
        #[arg(required = true, value_name = "FEN|ARRANGEMENT|-")]
        inputs: Vec<String>,
    },
    /// Print uniformly random starts: the number and the FEN, one per line.
    #[command(
        after_help = "Examples:\n  sp960 random\n  sp960 random --count 10 --seed 2024 --dfrc"
    )]
    Random {
        /// How many starts.
        #[arg(long, default_value_t = 1)]
        count: u64,
        /// Seed for a reproducible sequence (otherwise one is drawn and told on stderr).
        #[arg(long)]
        seed: Option<u64>,
        /// Double Fischer Random: independent arrangements for white and black.
        #[arg(long)]
        dfrc: bool,
        /// Castling field notation.
        #[arg(long, value_enum, default_value_t)]
        castling: CastlingNotation,
    },
    /// Run a UCI or XBoard engine behind a proxy that sets up Chess960 starts and shields it.
    #[command(after_help = PROXY_HELP)]
    Proxy {
        /// Start of every game: N (0-959), W:B (double FRC) or `random`.
        #[arg(long, value_name = "SPEC")]
        sp: Option<String>,
        /// Seed for `--sp random` (otherwise one is drawn and told on stderr).
        #[arg(long, requires = "sp")]
        seed: Option<u64>,
        /// With `--sp random`: double Fischer Random pairs.
        #[arg(long, requires = "sp")]
        dfrc: bool,
        /// The GUI's castling notation (default: chess960 once the GUI enables
        /// UCI_Chess960, standard before).
        #[arg(long, value_enum)]
        gui_castling: Option<CastlingDialect>,
        /// How the engine takes castling: FEN castling field (shredder: HAha, the
        /// default; xfen: KQkq), or for XBoard engines the move form (oo: O-O/O-O-O;
        /// kxr: king takes rook, e1h1; default: learned, see README).
        #[arg(long, value_enum)]
        engine_castling: Option<EngineCastlingArg>,
        /// The GUI's protocol (default: its first command decides, `xboard` or `uci`).
        #[arg(long, value_enum)]
        protocol: Option<Protocol>,
        /// Exit (code 3) instead of warning when a start is set and the engine has no
        /// UCI_Chess960 option.
        #[arg(long)]
        require_chess960: bool,
        /// Write a timestamped transcript of both directions to FILE.
        #[arg(long, value_name = "FILE")]
        log: Option<std::path::PathBuf>,
        /// Milliseconds the engine gets to exit after `quit` before it is killed.
        #[arg(long, value_name = "MS", default_value_t = 2000)]
        quit_timeout: u64,
        /// The engine program and its arguments (after `--`).
        #[arg(required = true, last = true, value_name = "ENGINE [ARGS]")]
        engine: Vec<std::ffi::OsString>,
    },
}

/// A failure that ends the command: its message and exit code.
struct Failure {
    code: u8,
    message: Option<String>,
}

impl Failure {
    fn invalid(message: impl Into<String>) -> Failure {
        Failure {
            code: exit_code::INVALID_DATA,
            message: Some(message.into()),
        }
    }
}

impl From<io::Error> for Failure {
    fn from(err: io::Error) -> Failure {
        if err.kind() == io::ErrorKind::BrokenPipe {
            // The reader went away (`| head`): not an error of ours.
            Failure {
                code: exit_code::SUCCESS,
                message: None,
            }
        } else {
            Failure {
                code: exit_code::USAGE,
                message: Some(format!("I/O error: {err}")),
            }
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Fen {
            specs,
            castling,
            format,
        } => fen(&specs, castling, format),
        Command::Identify { inputs } => identify_all(&inputs),
        Command::Random {
            count,
            seed,
            dfrc,
            castling,
        } => random(count, seed, dfrc, castling),
        Command::Proxy {
            sp,
            seed,
            dfrc,
            gui_castling,
            engine_castling,
            protocol,
            require_chess960,
            log,
            quit_timeout,
            engine,
        } => {
            let (start, fresh_seed) = match StartChoice::from_arguments(sp.as_deref(), seed, dfrc) {
                Ok(choice) => choice,
                Err(err) => {
                    eprintln!("sp960: proxy: --sp: {err}");
                    return ExitCode::from(exit_code::USAGE);
                }
            };
            if let (Some(seed), None) = (fresh_seed, seed) {
                eprintln!("sp960: proxy: random seed {seed} (repeat with --seed {seed})");
            }
            let mut config = ProxyConfig {
                protocol,
                uci: UciConfig {
                    start,
                    gui_castling,
                    require_chess960,
                    ..UciConfig::default()
                },
                xboard: XboardConfig {
                    start,
                    require_chess960,
                    ..XboardConfig::default()
                },
            };
            if let Some(value) = engine_castling {
                config.set_engine_castling(value);
            }
            let mut engine = engine.into_iter();
            let command = EngineCommand {
                program: engine.next().expect("clap requires the engine"),
                args: engine.collect(),
            };
            let shell = ShellOptions {
                log,
                quit_timeout: std::time::Duration::from_millis(quit_timeout),
            };
            return match sp960::proxy::detect::run_proxy(config, &command, &shell) {
                Ok(code) => ExitCode::from(code),
                Err(err) => {
                    eprintln!("sp960: {err}");
                    ExitCode::from(err.exit_code())
                }
            };
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            if let Some(message) = failure.message {
                eprintln!("sp960: {message}");
            }
            ExitCode::from(failure.code)
        }
    }
}

fn fen(specs: &[String], castling: CastlingNotation, format: RecordFormat) -> Result<(), Failure> {
    // Every SPEC is read before anything is printed: a bad one prints nothing at all.
    let mut starts = Vec::new();
    for spec in specs {
        starts.extend(parse_spec(spec).map_err(|err| Failure::invalid(format!("fen: {err}")))?);
    }
    let mut out = io::BufWriter::new(io::stdout().lock());
    for start in starts {
        let record = start_record(start, castling, format)
            .map_err(|err| Failure::invalid(err.to_string()))?;
        writeln!(out, "{record}")?;
    }
    out.flush()?;
    Ok(())
}

fn identify_all(inputs: &[String]) -> Result<(), Failure> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut all_identified = true;
    for input in inputs {
        if input != "-" {
            all_identified &= report_identity(&format!("'{input}'"), Ok(input), &mut out)?;
            continue;
        }
        for (index, line) in io::stdin().lock().split(b'\n').enumerate() {
            let line = line?;
            let text = std::str::from_utf8(&line).map_err(|err| format!("not UTF-8 text ({err})"));
            if text.as_ref().is_ok_and(|text| text.trim().is_empty()) {
                continue;
            }
            all_identified &= report_identity(&format!("<stdin>:{}", index + 1), text, &mut out)?;
        }
    }
    out.flush()?;
    if all_identified {
        Ok(())
    } else {
        Err(Failure {
            code: exit_code::INVALID_DATA,
            message: None,
        })
    }
}

/// Prints the start `text` is, or tells stderr why it is none; true when identified.
fn report_identity(
    name: &str,
    text: Result<&str, String>,
    out: &mut impl Write,
) -> io::Result<bool> {
    match text.and_then(|text| identify(text).map_err(|err| err.to_string())) {
        Ok(start) => writeln!(out, "{start}").map(|()| true),
        Err(reason) => {
            // Keep stdout and stderr in input order when both go to a terminal.
            out.flush()?;
            eprintln!("sp960: identify: {name}: {reason}");
            Ok(false)
        }
    }
}

fn random(
    count: u64,
    seed: Option<u64>,
    dfrc: bool,
    castling: CastlingNotation,
) -> Result<(), Failure> {
    let seed = seed.unwrap_or_else(|| {
        let seed = RandomStarts::fresh_seed();
        eprintln!("sp960: random seed {seed} (repeat with --seed {seed})");
        seed
    });
    let mut out = io::BufWriter::new(io::stdout().lock());
    for start in RandomStarts::new(seed, dfrc).take(count as usize) {
        let fen = start_fen(start, castling).map_err(|err| Failure::invalid(err.to_string()))?;
        writeln!(out, "{start} {fen}")?;
    }
    out.flush()?;
    Ok(())
}
