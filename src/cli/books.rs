//! `sp960 book` (and its `stats` and `package`): their arguments and help text (the random
//! draws, [`RandomDraws`], shared with `sp960 tournament`), and the calls into
//! [`crate::books`]: the book to stdout or a file, warnings and notes to stderr.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::CommandFailure;
use super::values::{book_engine, book_spec, book_window};
use crate::books::book::{
    BookError, BookFormat, BookRequest, WriteBookError, file_name_warning, write_book,
};
use crate::books::generate::{
    GenerateError, GenerateOptions, GenerateRequest, Window, generate as generate_openings,
};
use crate::books::package;
use crate::books::stats::{self, Diagnostic};
use crate::exit_code;
use crate::launch::spec::EngineSpec;
use crate::records::compression::Stored;
use crate::records::inputs::Input;
use crate::records::open::{OpenError, read_one, read_whole};
use crate::records::record::Syntax;
use crate::starts::notation::CastlingNotation;
use crate::starts::start::{RandomStarts, Spec};

/// Write an opening book of starts (EPD, PGN or FEN) for match runners.
///
/// SPEC is as in `sp960 fen`; the word `random` stands for --count random starts.
/// The same arguments always give the same bytes.
#[derive(clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    after_help = "Examples:\n  sp960 book all -o all-FRC.epd\n  sp960 book 0 518 959 --format pgn -o three-960.pgn\n  sp960 book random --count 100 --seed 7 --dfrc-sample 20 -o sample-FRC.epd\n  sp960 book stats all-FRC.epd\n  sp960 book package --for fishtest all-FRC.epd -o out/"
)]
pub struct BookArgs {
    /// What to do with existing books instead of writing one.
    #[command(subcommand)]
    pub action: Option<BookAction>,
    /// Start positions: N, A-B, all, W:B, lists like 0,5-7, or `random`.
    #[arg(value_name = "SPEC", value_parser = book_spec)]
    pub specs: Vec<Spec>,
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
    #[command(flatten)]
    pub from_results: super::results::FromResultsArgs,
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
    #[arg(long, value_name = "'KEY=VALUE ...'", value_parser = book_engine)]
    pub engine: Option<EngineSpec>,
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
    #[arg(long, value_name = "LO,HI", allow_hyphen_values = true, value_parser = book_window)]
    pub window: Option<Window>,
    /// Positions per start.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub per_start: u32,
    /// Moves are chosen among the MultiPV lines within this many centipawns of the best.
    #[arg(long, value_name = "CP", default_value_t = crate::books::generate::DEFAULT_MARGIN, allow_hyphen_values = true)]
    pub margin: i32,
    /// MultiPV lines asked for at each ply.
    #[arg(long, value_name = "M", default_value_t = crate::books::generate::DEFAULT_MULTIPV)]
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

/// `sp960 book stats` and `sp960 book package`.
#[derive(clap::Subcommand)]
pub enum BookAction {
    Stats(BookStatsArgs),
    Package(BookPackageArgs),
}

/// Statistics of opening books: positions, side to move, plies from the start, starts,
/// duplicates, `ce` evaluations, and the hashes fishtest and OpenBench check.
///
/// Plies from the start: the moves of a `c0` operand, else the fullmove number and side to
/// move, else 0 for an untouched start. Invalid records are reported as
/// `FILE:LINE:COL: error: reason` on stderr and not counted (exit 1).
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sp960 book stats balanced-FRC.epd\n  sp960 book stats --json a-FRC.epd b-FRC.epd"
)]
pub struct BookStatsArgs {
    /// Books: EPD or FEN lines, or PGN (by its FEN tags).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// One JSON object keyed by file, with fishtest's books.json fields (total, white,
    /// black, min_depth, max_depth, sri) and sp960's.
    #[arg(long)]
    pub json: bool,
}

/// Package a book for an OpenBench instance or fishtest: the book under a name they play as
/// Chess960, its zip, and the metadata entry with the hash their workers check.
///
/// Writes NAME, NAME.zip and NAME.json into --output (OpenBench: Books/NAME.json with
/// `sha` and `source`; fishtest: the books.json entry). Only records are kept, one per line
/// with `\n` endings; an invalid record stops the packaging (exit 1).
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sp960 book package --for fishtest balanced.epd -o pkg\n  sp960 book package --for openbench balanced.epd --source https://example.org/books/ -o pkg"
)]
pub struct BookPackageArgs {
    /// The system the package is for.
    #[arg(long = "for", value_enum, value_name = "SYSTEM")]
    pub target: crate::books::package::Target,
    /// The book (EPD or FEN lines).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The book's name [default: the file's, with _FRC added when it has neither FRC nor 960, and .epd].
    #[arg(long)]
    pub name: Option<String>,
    /// OpenBench: the URL the zip will be served from, or a folder URL ending in `/`
    /// (NAME.zip is appended).
    #[arg(
        long,
        value_name = "URL",
        default_value = "https://raw.githubusercontent.com/OWNER/openbench-books/master/"
    )]
    pub source: String,
    /// The folder to write into (created if missing).
    #[arg(short, long, value_name = "DIR", default_value = ".")]
    pub output: PathBuf,
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
    pub fn request(self, specs: Vec<Spec>, command: &str) -> BookRequest {
        let (request, drawn) = BookRequest::seeded(specs, self.count, self.dfrc_sample, self.seed);
        if let Some(seed) = drawn {
            eprintln!("sp960: {command}: random seed {seed} (repeat with --seed {seed})");
        }
        request
    }
}

/// `sp960 book`: the book to stdout or --output, then the file-name warnings.
pub(super) fn book(args: BookArgs) -> Result<(), CommandFailure> {
    match args.action {
        Some(BookAction::Stats(args)) => return book_stats(args),
        Some(BookAction::Package(args)) => return book_package(args),
        None => {}
    }
    if args.generate.plies.is_some() {
        return generate_book(args);
    }
    if let Some(flag) = args.generate.given_without_plies() {
        return Err(CommandFailure::new(
            exit_code::USAGE,
            format!("book: {flag} generates openings: give --plies N (and --engine)"),
        ));
    }
    let specs = args.from_results.specs(args.specs)?;
    let request = args.draws.request(specs, "book");
    let warnings = write_book(
        &request,
        args.format,
        args.castling,
        args.output.as_deref(),
        &mut io::stdout().lock(),
    )
    .map_err(|err| match err {
        WriteBookError::Io { source, .. } if source.kind() == io::ErrorKind::BrokenPipe => {
            CommandFailure::from(source)
        }
        WriteBookError::Io { .. } => CommandFailure::new(exit_code::USAGE, format!("book: {err}")),
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
fn generate_book(args: BookArgs) -> Result<(), CommandFailure> {
    let failure = |err: GenerateError| CommandFailure::new(err.exit_code(), format!("book: {err}"));
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

/// A book that cannot be made: no starts at all is a usage error (exit 2), a bad SPEC
/// invalid data (exit 1).
fn book_failure(err: BookError) -> CommandFailure {
    match err {
        BookError::Empty => CommandFailure::new(exit_code::USAGE, format!("book: {err}")),
        err => CommandFailure::invalid(format!("book: {err}")),
    }
}

/// Why a book cannot be read, as `book stats` and `book package` say it: `cannot read
/// PATH: why` for a missing or unreadable file.
fn book_read_error(command: &str, path: &Path, err: &OpenError) -> String {
    match err {
        OpenError::Io { source, .. } => {
            format!("book {command}: cannot read {}: {source}", path.display())
        }
        err => format!("book {command}: {err}"),
    }
}

/// The file name of a book's text: a zip entry's own name (`books.zip!sub/book.epd` is
/// `book.epd`), a compressed file's name without its suffix (`book.epd.gz` is `book.epd`).
fn text_file_name(name: &str, stored: Option<Stored>) -> String {
    let name = stored.map_or(name, |stored| stored.text_name(name));
    Path::new(name)
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Prints invalid records compiler-style on stderr.
fn report_invalid(path: &Path, diagnostics: &[Diagnostic]) {
    let stderr = io::stderr();
    let mut err = stderr.lock();
    for diagnostic in diagnostics {
        let _ = writeln!(
            err,
            "{}:{}:{}: error: {}",
            path.display(),
            diagnostic.line,
            diagnostic.problem.column,
            diagnostic.problem.message
        );
    }
}

/// `sp960 book stats`: text or one JSON object on stdout; exit 1 when a record is invalid.
fn book_stats(args: BookStatsArgs) -> Result<(), CommandFailure> {
    let mut invalid = 0;
    let mut all = Vec::new();
    let mut text = String::new();
    // A file that is not text, or breaks while it is read, is told on stderr; the stats of
    // the others (and of what was read before the break) are still printed.
    let mut unread: Vec<CommandFailure> = Vec::new();
    for path in &args.files {
        for whole in read_whole(&Input::Path(path.clone())) {
            let whole = match whole {
                Ok(whole) => whole,
                Err(err) if err.is_not_text() => {
                    unread.push(CommandFailure::invalid(format!("book stats: {err}")));
                    continue;
                }
                Err(err) => {
                    return Err(CommandFailure::new(
                        exit_code::USAGE,
                        book_read_error("stats", path, &err),
                    ));
                }
            };
            let name = whole.name;
            let (stats, diagnostics) = stats::book_stats(&name, &whole.bytes);
            report_invalid(Path::new(&name), &diagnostics);
            invalid += diagnostics.len();
            if let Some(err) = whole.broken {
                let read = stats.total + diagnostics.len() as u64;
                unread.push(CommandFailure::new(
                    exit_code::USAGE,
                    format!(
                        "book stats: {name}: cannot read: {err} ({} record{} read before it)",
                        read,
                        if read == 1 { "" } else { "s" }
                    ),
                ));
            }
            if args.json {
                all.push((name, stats));
            } else {
                text.push_str(&stats::render_text(&name, &stats));
            }
        }
    }
    let mut out = io::stdout().lock();
    if args.json {
        // To a string first: a closed stdout (`| head`) is then an io::Error of its own kind.
        let json = serde_json::to_string_pretty(&stats::ByName(&all)).map_err(io::Error::other)?;
        writeln!(out, "{json}")?;
    } else {
        out.write_all(text.as_bytes())?;
    }
    out.flush()?;
    if let Some(code) = unread.iter().map(|failure| failure.code).max() {
        for message in unread.iter().filter_map(|failure| failure.message.as_ref()) {
            eprintln!("sp960: {message}");
        }
        return Err(CommandFailure::quiet(code));
    }
    if invalid > 0 {
        return Err(CommandFailure::invalid(format!(
            "book stats: {invalid} invalid record{} (not counted)",
            if invalid == 1 { "" } else { "s" }
        )));
    }
    Ok(())
}

/// `sp960 book package`: the three files into --output, the metadata on stdout, what to do
/// with them on stderr.
fn book_package(args: BookPackageArgs) -> Result<(), CommandFailure> {
    // Read as `book stats` reads it: compressed, or the one entry of a zip archive. The
    // package holds the text; its name comes from the text's own name (`book.epd` for
    // `book.epd.gz` and for `books.zip!book.epd`).
    let whole = read_one(&Input::Path(args.file.clone())).map_err(|err| {
        let code = if err.is_not_text() {
            exit_code::INVALID_DATA
        } else {
            exit_code::USAGE
        };
        CommandFailure::new(code, book_read_error("package", &args.file, &err))
    })?;
    let file_name = text_file_name(&whole.name, whole.stored);
    let bytes = whole.bytes;
    let (_, diagnostics) = stats::book_stats(&file_name, &bytes);
    if !diagnostics.is_empty() {
        report_invalid(Path::new(&whole.name), &diagnostics);
        return Err(CommandFailure::invalid(format!(
            "book package: {} has {} invalid record{}; nothing written",
            args.file.display(),
            diagnostics.len(),
            if diagnostics.len() == 1 { "" } else { "s" }
        )));
    }
    let pgn = Syntax::detect(&file_name, &bytes) == Syntax::Pgn;
    let text = package::client_text(&bytes).map_err(|err| {
        CommandFailure::invalid(format!("book package: {}: {err}", args.file.display()))
    })?;
    let text = if pgn {
        text
    } else {
        package::records_only(&text)
    };
    let name = args
        .name
        .clone()
        .unwrap_or_else(|| package::package_name(&file_name, pgn));
    let source = if args.source.ends_with('/') {
        format!("{}{name}.zip", args.source)
    } else {
        args.source.clone()
    };
    let built = package::package(text, &name, args.target, &source)
        .map_err(|err| CommandFailure::invalid(format!("book package: {err}")))?;
    std::fs::create_dir_all(&args.output).map_err(|err| {
        CommandFailure::new(
            exit_code::USAGE,
            format!(
                "book package: cannot create {}: {err}",
                args.output.display()
            ),
        )
    })?;
    for (file, bytes) in &built.files {
        let path = args.output.join(file);
        std::fs::write(&path, bytes).map_err(|err| {
            CommandFailure::new(
                exit_code::USAGE,
                format!("book package: cannot write {}: {err}", path.display()),
            )
        })?;
        eprintln!("sp960: book package: wrote {}", path.display());
    }
    let mut out = io::stdout().lock();
    out.write_all(built.metadata())?;
    out.flush()?;
    for note in &built.notes {
        eprintln!("sp960: book package: {note}");
    }
    Ok(())
}
