//! `sp960 book` and `tournament`: their arguments and help text (the random draws,
//! [`RandomDraws`], shared), and the calls into [`crate::tournaments`]: the book or
//! command line to stdout or a file, warnings and notes to stderr.

use std::io;
use std::path::PathBuf;

use super::Failure;
use crate::exit_code;
use crate::starts::notation::CastlingNotation;
use crate::starts::start::RandomStarts;
use crate::tournaments::book::{
    BookError, BookFormat, BookRequest, WriteBookError, file_name_warning, write_book,
};
use crate::tournaments::generate::{
    GenerateError, GenerateOptions, GenerateRequest, generate as generate_openings,
};
use crate::tournaments::shell::Shell;
use crate::tournaments::tournament::{
    Tool, TournamentRequest, WriteTournamentError, write_tournament,
};

/// Write an opening book of starts (EPD, PGN or FEN) for match runners.
///
/// SPEC is as in `sp960 fen`; the word `random` stands for --count random starts.
/// The same arguments always give the same bytes.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sp960 book all -o all-FRC.epd\n  sp960 book 0 518 959 --format pgn -o three-960.pgn\n  sp960 book random --count 100 --seed 7 --dfrc-sample 20 -o sample-FRC.epd"
)]
pub struct BookArgs {
    /// Start positions: N, A-B, all, W:B, lists like 0,5-7, or `random`.
    #[arg(value_name = "SPEC")]
    pub specs: Vec<String>,
    #[command(flatten)]
    pub draws: RandomDraws,
    /// Book format: EPD with `id "SP n";`, moveless PGN games, or bare FENs (xboard).
    #[arg(long, value_enum, default_value_t)]
    pub format: BookFormat,
    /// Castling field notation.
    #[arg(long, value_enum, default_value_t)]
    pub castling: CastlingNotation,
    /// Write to FILE instead of stdout (warns when the name lacks FRC or 960).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub generate: GenerateArgs,
}

/// `sp960 book --plies N --engine ...`: openings generated with an engine (docs/book.md).
#[derive(clap::Args)]
#[command(next_help_heading = "Generating openings with an engine (docs/book.md)")]
pub struct GenerateArgs {
    /// Generate openings N plies deep from each start (needs --engine); without it the
    /// book holds the bare starts.
    #[arg(long, value_name = "N")]
    pub plies: Option<u32>,
    /// The UCI engine that scores the moves: 'KEY=VALUE ...' as in `sp960 match`.
    #[arg(long, value_name = "'KEY=VALUE ...'")]
    pub engine: Option<String>,
    /// Nodes per search [default: 100000 when no --depth or --movetime].
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Depth per search.
    #[arg(long, value_name = "PLIES")]
    pub depth: Option<u32>,
    /// Milliseconds per search (not reproducible: prefer --nodes).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Keep positions the engine scores within LO..HI centipawns from White's side
    /// (mates never) [default: any centipawn score].
    #[arg(long, value_name = "LO,HI", allow_hyphen_values = true)]
    pub window: Option<String>,
    /// Positions per start.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub per_start: u32,
    /// Moves are chosen among the MultiPV lines within this many centipawns of the best.
    #[arg(long, value_name = "CP", default_value_t = crate::tournaments::generate::DEFAULT_MARGIN, allow_hyphen_values = true)]
    pub margin: i32,
    /// MultiPV lines asked for at each ply.
    #[arg(long, value_name = "M", default_value_t = crate::tournaments::generate::DEFAULT_MULTIPV)]
    pub multipv: u32,
    /// Walks tried per start at most [default: 50 x --per-start].
    #[arg(long, value_name = "T")]
    pub tries: Option<u32>,
    /// Engines (workers) at once.
    #[arg(long, value_name = "C", default_value_t = 1)]
    pub concurrency: usize,
    /// Continue the book in --output: its positions are kept, its starts not made again.
    #[arg(long)]
    pub resume: bool,
    /// Seconds an engine may stay silent beyond the search's own time before it is
    /// restarted.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub engine_timeout: f64,
    /// Print the time, rate and CPU (sp960's and the engines') on stderr at the end.
    #[arg(long)]
    pub timing: bool,
}

/// Write the command line (and book) that plays a Chess960 tournament in a match runner.
///
/// Every start is played twice, colours swapped. Engines that need it are wrapped in
/// `sp960 proxy -- ...`; engines that cannot play Chess960 are refused with the reason.
/// The command goes to stdout, notes to stderr, the book to --book.
#[derive(clap::Args)]
#[command(
    after_help = "--engine: one argument, split as a shell would: the command (or cmd=PROGRAM) and its\narguments (or arg=ARG), and cutechess-cli's keys dir= name= proto=uci|xboard option.NAME=VALUE\ninitstr= restart=auto|on|off tc= st= depth= nodes=, plus castling=shredder|xfen (UCI FEN) or\noo|kxr (XBoard moves), chess960=yes|no (has UCI_Chess960), proxy=auto|yes|no. An unknown\nkey is an error, never an engine argument.\n\nExamples:\n  sp960 tournament --emit cutechess --engine /usr/games/stockfish --engine /usr/games/fairy-stockfish --sp 0,518,959\n  sp960 tournament --emit fastchess --engine 'stockfish option.Hash=16' --engine ethereal-chess --sp all --tc 10+0.1\n  sp960 tournament --emit xboard --engine '/usr/games/sjaakii proto=xboard' --engine '/usr/games/fairy-stockfish proto=xboard' --sp 860"
)]
pub struct TournamentArgs {
    /// The match runner to write for.
    #[arg(long, value_enum)]
    pub emit: Tool,
    /// One engine: 'KEY=VALUE ...' items in one argument (see below), once per engine.
    #[arg(long, required = true, value_name = "'KEY=VALUE ...'")]
    pub engine: Vec<String>,
    /// Starts to play: SPECs as in `sp960 fen`, or `random` (see --count).
    #[arg(long = "sp", required = true, value_name = "SPEC")]
    pub specs: Vec<String>,
    #[command(flatten)]
    pub draws: RandomDraws,
    /// Time control, cutechess syntax: [MOVES/]SECONDS|M:SS[+INCREMENT].
    #[arg(long, default_value = "10+0.1")]
    pub tc: String,
    /// Where to write the book [default: sp960-FRC.epd, .pgn with --book-format pgn, .fen for xboard].
    #[arg(long, value_name = "FILE")]
    pub book: Option<String>,
    /// Book format for cutechess-cli and fastchess (xboard reads FEN lines).
    #[arg(long, value_enum, default_value_t)]
    pub book_format: BookFormat,
    /// Castling field notation in the book.
    #[arg(long, value_enum, default_value_t)]
    pub castling: CastlingNotation,
    /// Where the match runner saves the games.
    #[arg(long, value_name = "FILE", default_value = "sp960-games.pgn")]
    pub pgnout: String,
    /// Games at once (cutechess-cli, fastchess).
    #[arg(long)]
    pub concurrency: Option<u32>,
    /// How the command line runs sp960 for wrapped engines.
    #[arg(long, value_name = "PATH", default_value = "sp960")]
    pub sp960: String,
    /// The shell the command line is written for [default: powershell on Windows, sh elsewhere].
    #[arg(long, value_enum)]
    pub shell: Option<Shell>,
}

/// The random parts of a book's starts, shared by `book` and `tournament`.
#[derive(clap::Args)]
pub struct RandomDraws {
    /// How many random starts each `random` SPEC stands for.
    #[arg(long, default_value_t = 1)]
    pub count: u64,
    /// Add K random double-FRC pairs at the end.
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub dfrc_sample: u64,
    /// Seed for `random` and --dfrc-sample (otherwise one is drawn and told on stderr).
    #[arg(long)]
    pub seed: Option<u64>,
}

impl RandomDraws {
    /// The book request for `specs`; a request that draws without a seed gets a fresh one,
    /// told on stderr so the run can be repeated.
    pub fn request(self, specs: Vec<String>, command: &str) -> BookRequest {
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

/// `sp960 book`: the book to stdout or --output, then the file-name warnings.
pub(super) fn book(args: BookArgs) -> Result<(), Failure> {
    if args.generate.plies.is_some() {
        return generate_book(args);
    }
    if let Some(flag) = args.generate.given_without_plies() {
        return Err(Failure::new(
            exit_code::USAGE,
            format!("book: {flag} generates openings: give --plies N (and --engine)"),
        ));
    }
    let request = args.draws.request(args.specs, "book");
    let warnings = write_book(
        &request,
        args.format,
        args.castling,
        args.output.as_deref(),
        &mut io::stdout().lock(),
    )
    .map_err(|err| match err {
        WriteBookError::Io { source, .. } if source.kind() == io::ErrorKind::BrokenPipe => {
            Failure::from(source)
        }
        WriteBookError::Io { .. } => Failure::new(exit_code::USAGE, format!("book: {err}")),
        WriteBookError::Book(err) => book_failure(err),
    })?;
    for warning in warnings {
        eprintln!("sp960: book: {warning}");
    }
    Ok(())
}

impl GenerateArgs {
    /// The first generation flag given without `--plies`.
    fn given_without_plies(&self) -> Option<&'static str> {
        [
            (self.engine.is_some(), "--engine"),
            (self.nodes.is_some(), "--nodes"),
            (self.depth.is_some(), "--depth"),
            (self.movetime.is_some(), "--movetime"),
            (self.window.is_some(), "--window"),
            (self.tries.is_some(), "--tries"),
            (self.resume, "--resume"),
            (self.timing, "--timing"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }
}

/// `sp960 book --plies N --engine ...`: the generated book to --output (or stdout).
fn generate_book(args: BookArgs) -> Result<(), Failure> {
    let failure = |err: GenerateError| Failure::new(err.exit_code(), format!("book: {err}"));
    let generate = args.generate;
    let seed_given = args.draws.seed;
    let options = GenerateOptions {
        plies: generate.plies.unwrap_or(0),
        engine: generate.engine,
        nodes: generate.nodes,
        depth: generate.depth,
        movetime: generate.movetime,
        window: generate.window,
        per_start: generate.per_start,
        margin: generate.margin,
        multipv: generate.multipv,
        tries: generate.tries,
        seed: seed_given.unwrap_or(0),
        concurrency: generate.concurrency,
        engine_timeout: generate.engine_timeout,
    };
    let (mut walk, engine) = options.check().map_err(failure)?;
    if generate.resume && args.output.is_none() {
        return Err(failure(GenerateError::Usage(
            "--resume needs --output FILE: the book to continue".into(),
        )));
    }
    // The walks draw from the seed even when the starts do not: a fresh one is told.
    let mut request = args.draws.request(args.specs, "book");
    walk.seed = match seed_given {
        Some(seed) => seed,
        None if request.is_random() => request.seed,
        None => {
            request.seed = RandomStarts::fresh_seed();
            eprintln!(
                "sp960: book: random seed {0} (repeat with --seed {0})",
                request.seed
            );
            request.seed
        }
    };
    let starts = request.starts().map_err(book_failure)?;
    if let Some(path) = &args.output
        && let Some(warning) = file_name_warning(path)
    {
        eprintln!("sp960: book: {warning}");
    }
    let request = GenerateRequest {
        starts,
        walk,
        engine,
        concurrency: generate.concurrency,
        format: args.format,
        castling: args.castling,
        output: args.output,
        resume: generate.resume,
        timing: generate.timing,
    };
    generate_openings(&request, &mut io::stdout().lock()).map_err(failure)?;
    Ok(())
}

/// `sp960 tournament`: the command line to stdout, then the notes.
pub(super) fn tournament(args: TournamentArgs) -> Result<(), Failure> {
    let request = TournamentRequest {
        tool: args.emit,
        engines: args.engine,
        starts: args.draws.request(args.specs, "tournament"),
        time_control: args.tc,
        book: args.book,
        book_format: args.book_format,
        castling: args.castling,
        pgn_out: args.pgnout,
        concurrency: args.concurrency,
        sp960: args.sp960,
        shell: args.shell.unwrap_or_else(Shell::platform),
    };
    let notes = write_tournament(request, &mut io::stdout().lock()).map_err(|err| match err {
        WriteTournamentError::Io { source, .. } if source.kind() == io::ErrorKind::BrokenPipe => {
            Failure::from(source)
        }
        WriteTournamentError::Io { .. } => {
            Failure::new(exit_code::USAGE, format!("tournament: {err}"))
        }
        WriteTournamentError::Plan(err) => {
            Failure::new(err.exit_code(), format!("tournament: {err}"))
        }
    })?;
    for note in notes {
        eprintln!("sp960: tournament: {note}");
    }
    Ok(())
}

/// A book that cannot be made: no starts at all is a usage error (exit 2), a bad SPEC
/// invalid data (exit 1).
fn book_failure(err: BookError) -> Failure {
    match err {
        BookError::Empty => Failure::new(exit_code::USAGE, format!("book: {err}")),
        err => Failure::invalid(format!("book: {err}")),
    }
}
