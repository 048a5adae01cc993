//! The `sp960` command: parses arguments, calls the library, maps errors to exit codes.

use std::io;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use sp960::exit_code;
use sp960::fixtures::inputs::DEFAULT_GLOBS;
use sp960::fixtures::normalize::NormalizeOptions;
use sp960::fixtures::record::{CheckOptions, Mode, Rules};
use sp960::fixtures::validate::{OutputFormat, ValidateOptions};
use sp960::matches::{MatchRequest, match_command};
use sp960::proxy::detect::{EngineCastlingArg, Protocol, ProxyConfig};
use sp960::proxy::io::{EngineCommand, ShellOptions};
use sp960::proxy::starts::StartChoice;
use sp960::starts::castling::CastlingDialect;
use sp960::starts::commands::{CommandError, identify_inputs, print_random, print_starts};
use sp960::starts::notation::{CastlingNotation, RecordFormat};
use sp960::starts::roll::Method;
use sp960::starts::roll::command::{RollCommandError, RollRequest};
use sp960::starts::start::RandomStarts;
use sp960::tournaments::book::{BookError, BookFormat, BookRequest, WriteBookError, write_book};
use sp960::tournaments::tournament::{
    Tool, TournamentRequest, WriteTournamentError, write_tournament,
};

const EXAMPLES: &str = "\
Examples:
  sp960 fen 860                      the FEN of start position 860
  sp960 fen 0-9 959 --castling xfen  several, with KQkq castling
  sp960 fen 0:959                    double Fischer Random: white from SP 0, black from SP 959
  sp960 fen all --format epd         all 960 as EPD records with id \"SP n\"
  sp960 identify RBKNRNBQ            -> 860
  sp960 fen all | sp960 identify -   reads FENs or arrangements from stdin
  sp960 random --count 3 --seed 7    three reproducible random starts
  sp960 explain 860                  how SP 860 is derived (Scharnagl's tables, K-R-N method)
  sp960 roll die 3 5 1 4 6 2 1       a start from die rolls; --fairness proves a method fair
  sp960 book all -o all-FRC.epd      an opening book of all 960 for cutechess-cli/fastchess
  sp960 tournament --emit cutechess --engine stockfish --engine ethereal-chess --sp 0-9
                                     the cutechess-cli command (and book) for SP 0-9, both colours
  sp960 engine                       the built-in engine on stdin/stdout (UCI or XBoard)
  sp960 validate fixtures/           check every *.fen, *.epd, *.txt, *.pgn below
  sp960 normalize --in-place a.epd   rewrite records with Shredder castling
  sp960 proxy --sp 860 -- stockfish  a UCI engine that plays every game from SP 860

Exit codes (every subcommand):
  0         success
  1         invalid chess data: a bad SP or SPEC, arrangement, FEN or record
  2         usage error (a bad option, --engine key, time control or limit) or I/O error
  3         an engine that cannot do what was asked (proxy --require-chess960; match: fails
            its handshake; tournament: the tool cannot drive it)
  4         proxy: the engine exited with status 0 unasked (other exits: its own status)
  126, 127  the engine program cannot be executed, or is not found (proxy, match)";

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
  xboard -variant fischerandom -fcp \"sp960 proxy --protocol xboard --engine-castling kxr -- /usr/games/fairy-stockfish\"";

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
        /// Draw with a physical procedure's seeded die or coin (see `sp960 roll`), printing
        /// its values after the FEN: die, polyhedral, d10, coins, coin or fast.
        #[arg(long, value_name = "METHOD")]
        method: Option<Method>,
    },
    /// Explain a start's number: Scharnagl's tables, the direct derivation, the K-R-N method.
    #[command(
        after_help = "Examples:\n  sp960 explain 518\n  sp960 explain RBKNRNBQ --json\n  sp960 explain 0:959"
    )]
    Explain {
        /// Starts: SPECs as in `sp960 fen`, 8-letter arrangements or FENs.
        #[arg(required = true, value_name = "SPEC|ARRANGEMENT|FEN")]
        inputs: Vec<String>,
        /// One JSON object per start.
        #[arg(long)]
        json: bool,
    },
    /// Turn dice rolls or coin tosses into a start, showing what each value decided.
    ///
    /// Methods: die (Althöfer: one d6, re-rolls), polyhedral d8=A d4=B d6=C d20=D [d12=E],
    /// d10 light=A dark=B queen=C knights=D, coins (throws of 2 or 3 coins, TH ...), coin
    /// (ten tosses, THTTHHHHTT), fast (one d6, fewest rolls). Without values and with a
    /// terminal on stdin, each value is asked for.
    #[command(
        after_help = "Examples:\n  sp960 roll die 3 5 1 4 6 2 1\n  sp960 roll polyhedral d8=3 d4=3 d6=3 d20=7\n  sp960 roll coin THTTHHHHTT --json\n  sp960 roll fast --fairness"
    )]
    Roll {
        /// die, polyhedral, d10, coins, coin or fast.
        method: Method,
        /// The rolls, throws or tosses, in order (NAME=VALUE for polyhedral and d10).
        #[arg(value_name = "VALUE", conflicts_with = "fairness")]
        values: Vec<String>,
        /// Prove the method fair by exhaustive enumeration, in exact fractions.
        #[arg(long)]
        fairness: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Castling field notation.
        #[arg(long, value_enum, default_value_t)]
        castling: CastlingNotation,
    },
    /// Write an opening book of starts (EPD, PGN or FEN) for match runners.
    ///
    /// SPEC is as in `sp960 fen`; the word `random` stands for --count random starts.
    /// The same arguments always give the same bytes.
    #[command(
        after_help = "Examples:\n  sp960 book all -o all-FRC.epd\n  sp960 book 0 518 959 --format pgn -o three-960.pgn\n  sp960 book random --count 100 --seed 7 --dfrc-sample 20 -o sample-FRC.epd"
    )]
    Book {
        /// Start positions: N, A-B, all, W:B, lists like 0,5-7, or `random`.
        #[arg(value_name = "SPEC")]
        specs: Vec<String>,
        #[command(flatten)]
        draws: RandomDraws,
        /// Book format: EPD with `id "SP n";`, moveless PGN games, or bare FENs (xboard).
        #[arg(long, value_enum, default_value_t)]
        format: BookFormat,
        /// Castling field notation.
        #[arg(long, value_enum, default_value_t)]
        castling: CastlingNotation,
        /// Write to FILE instead of stdout (warns when the name lacks FRC or 960).
        #[arg(short, long, value_name = "FILE")]
        output: Option<std::path::PathBuf>,
    },
    /// Write the command line (and book) that plays a Chess960 tournament in a match runner.
    ///
    /// Every start is played twice, colours swapped. Engines that need it are wrapped in
    /// `sp960 proxy -- ...`; engines that cannot play Chess960 are refused with the reason.
    /// The command goes to stdout, notes to stderr, the book to --book.
    #[command(
        after_help = "--engine: one argument, split as a shell would: the command (or cmd=PROGRAM) and its\narguments (or arg=ARG), and cutechess-cli's keys dir= name= proto=uci|xboard option.NAME=VALUE\ninitstr= restart=auto|on|off tc= st= depth= nodes=, plus castling=shredder|xfen (UCI FEN) or\noo|kxr (XBoard moves), chess960=yes|no (has UCI_Chess960), proxy=auto|yes|no. An unknown\nkey is an error, never an engine argument.\n\nExamples:\n  sp960 tournament --emit cutechess --engine /usr/games/stockfish --engine /usr/games/fairy-stockfish --sp 0,518,959\n  sp960 tournament --emit fastchess --engine 'stockfish option.Hash=16' --engine ethereal-chess --sp all --tc 10+0.1\n  sp960 tournament --emit xboard --engine '/usr/games/sjaakii proto=xboard' --engine '/usr/games/fairy-stockfish proto=xboard' --sp 860"
    )]
    Tournament {
        /// The match runner to write for.
        #[arg(long, value_enum)]
        emit: Tool,
        /// One engine: 'KEY=VALUE ...' items in one argument (see below), once per engine.
        #[arg(long, required = true, value_name = "'KEY=VALUE ...'")]
        engine: Vec<String>,
        /// Starts to play: SPECs as in `sp960 fen`, or `random` (see --count).
        #[arg(long = "sp", required = true, value_name = "SPEC")]
        specs: Vec<String>,
        #[command(flatten)]
        draws: RandomDraws,
        /// Time control, cutechess syntax: [MOVES/]SECONDS|M:SS[+INCREMENT].
        #[arg(long, default_value = "10+0.1")]
        tc: String,
        /// Where to write the book [default: sp960-FRC.epd, .pgn with --book-format pgn, .fen for xboard].
        #[arg(long, value_name = "FILE")]
        book: Option<String>,
        /// Book format for cutechess-cli and fastchess (xboard reads FEN lines).
        #[arg(long, value_enum, default_value_t)]
        book_format: BookFormat,
        /// Castling field notation in the book.
        #[arg(long, value_enum, default_value_t)]
        castling: CastlingNotation,
        /// Where the match runner saves the games.
        #[arg(long, value_name = "FILE", default_value = "sp960-games.pgn")]
        pgnout: String,
        /// Games at once (cutechess-cli, fastchess).
        #[arg(long)]
        concurrency: Option<u32>,
        /// How the command line runs sp960 for wrapped engines.
        #[arg(long, value_name = "PATH", default_value = "sp960")]
        sp960: String,
    },
    /// Run the built-in reference engine on stdin/stdout, speaking UCI or XBoard.
    ///
    /// The first command chooses the protocol: `uci` or `xboard`. Chess960 castling in
    /// both (UCI_Chess960; XBoard `variant fischerandom`).
    #[command(
        after_help = "Examples:\n  printf 'uci\\nposition startpos\\ngo depth 5\\n' | sp960 engine\n  xboard -fcp 'sp960 engine' -fd . -variant fischerandom\n  python: chess.engine.SimpleEngine.popen_uci(['sp960', 'engine'])"
    )]
    Engine,
    /// Play a match between two engines from numbered starts, both colours, saved as PGN.
    ///
    /// Each start is played twice per round, colours swapped. With one --engine or none,
    /// the built-in engine (`sp960 engine`) plays the missing side. Finished games are
    /// appended to the PGN file one by one; a live progress line goes to stderr and the
    /// final table (or --json) to stdout.
    #[command(
        name = "match",
        after_help = "--engine takes one argument, split as a shell would: the command (or cmd=) and its\narguments (or arg=), and cutechess-cli's keys dir= name= proto=uci|xboard (default: detected)\noption.NAME=VALUE initstr= restart=on and the engine's own st= depth= nodes=. An unknown key\nis an error, never an engine argument.\n\nExamples:\n  sp960 match --sp 860\n  sp960 match --engine /usr/games/stockfish --engine /usr/games/ethereal-chess --sp 0,959 --sp 0:959 --nodes 20000 --pgn games.pgn\n  sp960 match --engine 'proto=xboard name=\"Sjaak II\" /usr/games/sjaakii' --sp random --count 10 --seed 7 --tc 40/60+0.6"
    )]
    Match {
        /// One engine: its command line, with proto=, name=, option.NAME=VALUE (twice for two engines).
        #[arg(long, value_name = "'CMD ...'")]
        engine: Vec<String>,
        /// Starts: SPECs as in `sp960 fen` (N, A-B, all, W:B, lists), or `random` (see --count).
        #[arg(long = "sp", required = true, value_name = "SPEC")]
        specs: Vec<String>,
        /// How many random starts each `random` SPEC stands for.
        #[arg(long, default_value_t = 1)]
        count: u64,
        /// Seed for `random` SPECs (otherwise one is drawn and told on stderr).
        #[arg(long)]
        seed: Option<u64>,
        /// Search depth per move.
        #[arg(long)]
        depth: Option<u32>,
        /// Nodes per move (UCI engines).
        #[arg(long)]
        nodes: Option<u64>,
        /// Milliseconds per move [default when no limit is given: 100].
        #[arg(long, value_name = "MS")]
        movetime: Option<u64>,
        /// Clock per side, cutechess syntax: [MOVES/]SECONDS|M:SS[+INCREMENT]; a flag fall loses.
        #[arg(long, value_name = "TC")]
        tc: Option<String>,
        /// Games at once [default: one per core].
        #[arg(long, value_name = "K")]
        concurrency: Option<usize>,
        /// How many times to play the whole schedule.
        #[arg(long, default_value_t = 1)]
        rounds: u32,
        /// Adjudicate a draw after this many plies.
        #[arg(long, value_name = "N")]
        max_plies: Option<u32>,
        /// The PGN file finished games are appended to.
        #[arg(long, value_name = "FILE", default_value = "sp960-match.pgn")]
        pgn: std::path::PathBuf,
        /// Without --tc: seconds a move may take (beyond --movetime) before the engine loses by time-out.
        #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
        timeout: f64,
        /// Print the summary as JSON instead of the table (and no progress line).
        #[arg(long)]
        json: bool,
    },
    /// Check every FEN/EPD record of files, directories or stdin; report each invalid one.
    ///
    /// One record per line: a FEN (6 fields) or an EPD (4 fields and operations). Blank
    /// lines and lines starting with `#` are skipped; CRLF and a UTF-8 BOM are accepted.
    /// Invalid records go to stdout as `path:line:col: error: reason`, the summary to
    /// stderr. Exit 0 when all are valid, 1 when any is invalid, 2 for usage or I/O errors.
    #[command(
        after_help = "Examples:\n  sp960 validate perft.epd books/\n  sp960 fen all | sp960 validate --start-positions --quiet\n  sp960 validate --format json suite.epd | jq .error"
    )]
    Validate {
        /// Files, directories (searched recursively), or `-` for stdin (the default).
        #[arg(value_name = "PATH")]
        paths: Vec<String>,
        #[command(flatten)]
        check: CheckArgs,
        /// Every record must also be an untouched Chess960 start (its SP is reported); an
        /// EPD `id "SP n"` must name it.
        #[arg(long)]
        start_positions: bool,
        /// File-name patterns searched for in directories (repeatable).
        #[arg(long = "glob", value_name = "PATTERN", default_values_t = DEFAULT_GLOBS.map(String::from))]
        globs: Vec<String>,
        /// Text lines or JSON objects (one per invalid record, then a summary).
        #[arg(long, value_enum, default_value_t)]
        format: OutputFormat,
        /// Print only the summary.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Rewrite records in canonical form, keeping EPD operations, comments and blank lines.
    ///
    /// Invalid records are copied unchanged and reported on stderr (exit 1); with
    /// --in-place such a file is left untouched.
    #[command(
        after_help = "Examples:\n  sp960 normalize old.epd > new.epd\n  sp960 normalize --castling xfen --in-place *.fen"
    )]
    Normalize {
        /// Files, or `-` for stdin (the default).
        #[arg(value_name = "PATH")]
        paths: Vec<String>,
        #[command(flatten)]
        check: CheckArgs,
        /// Castling field notation written.
        #[arg(long, value_enum, default_value_t)]
        castling: CastlingNotation,
        /// Rewrite each file (temporary file, then atomic rename) instead of printing.
        #[arg(long)]
        in_place: bool,
    },
    /// Run a UCI or XBoard engine behind a proxy that sets up Chess960 starts and shields it.
    #[command(after_help = PROXY_HELP)]
    Proxy(ProxyArgs),
}

/// The random parts of a book's starts, shared by `book` and `tournament`.
#[derive(clap::Args)]
struct RandomDraws {
    /// How many random starts each `random` SPEC stands for.
    #[arg(long, default_value_t = 1)]
    count: u64,
    /// Add K random double-FRC pairs at the end.
    #[arg(long, value_name = "K", default_value_t = 0)]
    dfrc_sample: u64,
    /// Seed for `random` and --dfrc-sample (otherwise one is drawn and told on stderr).
    #[arg(long)]
    seed: Option<u64>,
}

impl RandomDraws {
    /// The book request for `specs`; a request that draws without a seed gets a fresh one,
    /// told on stderr so the run can be repeated.
    fn request(self, specs: Vec<String>, command: &str) -> BookRequest {
        let mut request = BookRequest {
            specs,
            count: self.count,
            dfrc_sample: self.dfrc_sample,
            seed: self.seed.unwrap_or(0),
        };
        if self.seed.is_none() && request.is_random() {
            request.seed = RandomStarts::fresh_seed();
            let seed = request.seed;
            eprintln!("sp960: {command}: random seed {seed} (repeat with --seed {seed})");
        }
        request
    }
}

/// How records are judged, shared by validate and normalize.
#[derive(clap::Args)]
struct CheckArgs {
    /// Castling rules.
    #[arg(long, value_enum, default_value_t)]
    mode: Mode,
    /// Legality rules: python-chess's `is_valid()`, or shakmaty's stricter verdict on
    /// material and double checks by knights and pawns.
    #[arg(long, value_enum, default_value_t)]
    rules: Rules,
}

impl CheckArgs {
    fn options(&self, start_positions: bool) -> CheckOptions {
        CheckOptions {
            mode: self.mode.castling_mode(),
            rules: self.rules,
            start_positions,
        }
    }
}

/// `sp960 proxy` arguments.
#[derive(clap::Args)]
struct ProxyArgs {
    /// Start of every game: N (0-959), W:B (double FRC) or `random`.
    #[arg(long, value_name = "SPEC")]
    sp: Option<String>,
    /// Seed for random starts (`--sp random`, or the GUI's SP960_Start -2); otherwise
    /// one is drawn and told on stderr when used.
    #[arg(long)]
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
    /// UCI_Chess960 option (UCI) or does not list fischerandom in its variants (XBoard).
    #[arg(long)]
    require_chess960: bool,
    /// UCI: list UCI_Chess960 to the GUI for an engine that has no such option (Toga II),
    /// so that runners play Chess960 with it: it gets each position as standard chess,
    /// plays legal moves, and never castles where Chess960 castling differs.
    #[arg(long)]
    offer_chess960: bool,
    /// Write a timestamped transcript of both directions to FILE.
    #[arg(long, value_name = "FILE")]
    log: Option<std::path::PathBuf>,
    /// Milliseconds the engine gets to exit after `quit` before it is killed.
    #[arg(long, value_name = "MS", default_value_t = 2000)]
    quit_timeout: u64,
    /// The engine program and its arguments (after `--`).
    #[arg(required = true, last = true, value_name = "ENGINE [ARGS]")]
    engine: Vec<std::ffi::OsString>,
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
        } => command_result(
            "fen",
            print_starts(
                &specs,
                castling,
                format,
                &mut io::BufWriter::new(io::stdout().lock()),
            ),
        ),
        Command::Identify { inputs } => command_result(
            "identify",
            identify_inputs(
                &inputs,
                io::stdin().lock(),
                &mut io::BufWriter::new(io::stdout().lock()),
                &mut io::stderr().lock(),
            ),
        ),
        Command::Random {
            count,
            seed,
            dfrc,
            castling,
            method,
        } => {
            let (seed, out) = (
                seed_or_fresh(seed),
                &mut io::BufWriter::new(io::stdout().lock()),
            );
            command_result(
                "random",
                match method {
                    Some(method) => sp960::starts::roll::simulate::print_random_rolls(
                        count, seed, dfrc, method, castling, out,
                    ),
                    None => print_random(count, seed, dfrc, castling, out),
                },
            )
        }
        Command::Explain { inputs, json } => sp960::starts::explain::print_explanations(
            &inputs,
            json,
            &mut io::BufWriter::new(io::stdout().lock()),
        )
        .map_err(|err| match err {
            sp960::starts::explain::ExplainError::Io(err) => Failure::from(err),
            err => Failure::invalid(err.to_string()),
        }),
        Command::Roll {
            method,
            values,
            fairness,
            json,
            castling,
        } => roll(&RollRequest {
            method,
            values,
            json,
            fairness,
            castling,
        }),
        Command::Book {
            specs,
            draws,
            format,
            castling,
            output,
        } => book(
            &draws.request(specs, "book"),
            format,
            castling,
            output.as_deref(),
        ),
        Command::Tournament {
            emit,
            engine,
            specs,
            draws,
            tc,
            book,
            book_format,
            castling,
            pgnout,
            concurrency,
            sp960,
        } => {
            let request = TournamentRequest {
                tool: emit,
                engines: engine,
                starts: draws.request(specs, "tournament"),
                time_control: tc,
                book,
                book_format,
                castling,
                pgn_out: pgnout,
                concurrency,
                sp960,
            };
            tournament(request)
        }
        Command::Engine => engine(),
        Command::Match {
            engine,
            specs,
            count,
            seed,
            depth,
            nodes,
            movetime,
            tc,
            concurrency,
            rounds,
            max_plies,
            pgn,
            timeout,
            json,
        } => play_match(MatchRequest {
            engines: engine,
            builtin: std::env::current_exe().unwrap_or_else(|_| "sp960".into()),
            starts: BookRequest {
                specs,
                count,
                dfrc_sample: 0,
                seed: 0,
            },
            seed,
            depth,
            nodes,
            movetime,
            tc,
            concurrency,
            rounds,
            max_plies,
            pgn,
            move_timeout: timeout,
            json,
        }),
        Command::Validate {
            paths,
            check,
            start_positions,
            globs,
            format,
            quiet,
        } => {
            let options = ValidateOptions {
                check: check.options(start_positions),
                format,
                quiet,
                globs,
            };
            exit_with(sp960::fixtures::validate::run(
                &paths,
                &options,
                &mut io::stdout().lock(),
                &mut io::stderr().lock(),
            ))
        }
        Command::Normalize {
            paths,
            check,
            castling,
            in_place,
        } => {
            let options = NormalizeOptions {
                check: check.options(false),
                castling,
                in_place,
            };
            exit_with(sp960::fixtures::normalize::run(
                &paths,
                &options,
                &mut io::BufWriter::new(io::stdout().lock()),
                &mut io::stderr().lock(),
            ))
        }
        Command::Proxy(args) => return proxy(args),
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

/// A library command's exit code as a result.
/// A checking command (validate, normalize) whose output closed early exits 1: not every
/// record was reported, so success cannot be claimed.
fn exit_with(result: io::Result<u8>) -> Result<(), Failure> {
    match result.map_err(output_cut_short)? {
        exit_code::SUCCESS => Ok(()),
        code => Err(Failure {
            code,
            message: None,
        }),
    }
}

fn book_failure(err: BookError) -> Failure {
    match err {
        BookError::Empty => Failure {
            code: exit_code::USAGE,
            message: Some(format!("book: {err}")),
        },
        err => Failure::invalid(format!("book: {err}")),
    }
}

fn book(
    request: &BookRequest,
    format: BookFormat,
    castling: CastlingNotation,
    output: Option<&std::path::Path>,
) -> Result<(), Failure> {
    let warnings = write_book(request, format, castling, output, &mut io::stdout().lock())
        .map_err(|err| match err {
            WriteBookError::Io { source, .. } if source.kind() == io::ErrorKind::BrokenPipe => {
                Failure::from(source)
            }
            WriteBookError::Io { .. } => Failure {
                code: exit_code::USAGE,
                message: Some(format!("book: {err}")),
            },
            WriteBookError::Book(err) => book_failure(err),
        })?;
    for warning in warnings {
        eprintln!("sp960: book: {warning}");
    }
    Ok(())
}

fn tournament(request: TournamentRequest) -> Result<(), Failure> {
    let notes = write_tournament(request, &mut io::stdout().lock()).map_err(|err| match err {
        WriteTournamentError::Io { source, .. } if source.kind() == io::ErrorKind::BrokenPipe => {
            Failure::from(source)
        }
        WriteTournamentError::Io { .. } => Failure {
            code: exit_code::USAGE,
            message: Some(format!("tournament: {err}")),
        },
        WriteTournamentError::Plan(err) => Failure {
            code: err.exit_code(),
            message: Some(format!("tournament: {err}")),
        },
    })?;
    for note in notes {
        eprintln!("sp960: tournament: {note}");
    }
    Ok(())
}

fn play_match(request: MatchRequest) -> Result<(), Failure> {
    match_command(request, &mut io::stdout().lock()).map_err(|err| Failure {
        code: err.exit_code(),
        message: Some(format!("match: {err}")),
    })?;
    Ok(())
}

/// `sp960 roll`: bad values are usage errors (exit 2); without values stdin is asked when
/// it is a terminal.
fn roll(request: &RollRequest) -> Result<(), Failure> {
    use std::io::IsTerminal;
    let stdin = io::stdin();
    sp960::starts::roll::command::roll(
        request,
        stdin.is_terminal(),
        &mut stdin.lock(),
        &mut io::BufWriter::new(io::stdout().lock()),
        &mut io::stderr().lock(),
    )
    .map_err(|err| match err {
        RollCommandError::Io(err) => Failure::from(err),
        err => Failure {
            code: err.exit_code(),
            message: Some(err.to_string()),
        },
    })
}

fn engine() -> Result<(), Failure> {
    sp960::engine::run(io::BufReader::new(io::stdin()), io::stdout().lock())?;
    Ok(())
}

/// An I/O error of a command that checks its inputs: a closed stdout (`| head`) is exit 1
/// with a note, not the quiet success it is for commands that only print.
fn output_cut_short(err: io::Error) -> Failure {
    if err.kind() == io::ErrorKind::BrokenPipe {
        Failure::invalid("output closed before every input was checked and reported")
    } else {
        Failure::from(err)
    }
}

/// The seed given, or one drawn and told on stderr so the run can be repeated.
fn seed_or_fresh(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        let seed = RandomStarts::fresh_seed();
        eprintln!("sp960: random seed {seed} (repeat with --seed {seed})");
        seed
    })
}

/// Maps a core command's outcome: bad data exits 1 (already reported when identifying).
fn command_result(command: &str, result: Result<(), CommandError>) -> Result<(), Failure> {
    match result {
        Ok(()) => Ok(()),
        Err(CommandError::Io(err)) if command == "identify" => Err(output_cut_short(err)),
        Err(CommandError::Io(err)) => Err(Failure::from(err)),
        Err(CommandError::Unidentified(_)) => Err(Failure {
            code: exit_code::INVALID_DATA,
            message: None,
        }),
        Err(err) => Err(Failure::invalid(format!("{command}: {err}"))),
    }
}

/// `sp960 proxy`: reads the arguments, runs the library's proxy, exits with its code.
fn proxy(args: ProxyArgs) -> ExitCode {
    let random_seed = args.seed.unwrap_or_else(RandomStarts::fresh_seed);
    let start = match StartChoice::from_arguments(args.sp.as_deref(), random_seed, args.dfrc) {
        Ok(choice) => choice,
        Err(err) => {
            eprintln!("sp960: proxy: --sp: {err}");
            return ExitCode::from(exit_code::INVALID_DATA);
        }
    };
    if let (StartChoice::Random { .. }, None) = (start, args.seed) {
        eprintln!("sp960: proxy: random seed {random_seed} (repeat with --seed {random_seed})");
    }
    let mut config = ProxyConfig::new(start, random_seed, args.require_chess960);
    config.protocol = args.protocol;
    config.uci.gui_castling = args.gui_castling;
    config.uci.offer_chess960 = args.offer_chess960;
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
        quit_timeout: std::time::Duration::from_millis(args.quit_timeout),
    };
    match sp960::proxy::detect::run_proxy(config, &command, &shell) {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            eprintln!("sp960: {err}");
            ExitCode::from(err.exit_code())
        }
    }
}
