//! `sp960 results` (which starts favour White, from any Chess960 games) and the
//! `--from-results` filter of `sp960 book`: their arguments and help text, and the I/O
//! around [`crate::results`]: inputs streamed through the one PGN game checker, skipped
//! games told on stderr, the report to stdout, the picture to files.

use std::convert::Infallible;
use std::io::{self, Write};
use std::path::PathBuf;

use super::CommandFailure;
use crate::exit_code;
use crate::records::check::{CheckOptions, OperationChecks, Rules};
use crate::records::game_stream::{GameStreamError, stream_games};
use crate::records::inputs::{Input, expand};
use crate::records::open::{each_text, read_one};
use crate::results::book_filter::{ScoreWindow, starts_in_window};
use crate::results::by_engine::{self, engine_rows};
use crate::results::filter::{By, GameFilter, Speed};
use crate::results::picture;
use crate::results::report::{self, Report, ReportOptions, SortBy};
use crate::results::tally::{EXAMPLES_KEPT, Skipped, StartTally};
use crate::starts::start::Spec;

/// Which starts favour White: results per start from Chess960 games.
///
/// Reads PGN games (sp960 match, cutechess-cli, fastchess, TCEC, lichess, chess.com, ...),
/// replays each, groups the finished ones by start (SP n, or a double-FRC pair W:B) and
/// prints the overall score, a test of whether the starts differ beyond noise (Pearson's
/// chi-square on W/D/L by start, and the starts whose Bonferroni-corrected 95% interval
/// excludes the overall score), a one-line conclusion, then a row per start: games,
/// W/D/L from White's side, White's score with its 95% Wilson interval, draw rate, Elo
/// (`*`: differs beyond noise). Games that are not Chess960, not from a start, unfinished
/// or do not replay are counted apart and named on stderr (FILE:LINE: why), as are games
/// left out by --min-elo, --time-control and --rated (read from the tags lichess writes:
/// WhiteElo, BlackElo, TimeControl, Event). --by white-start or black-start groups the
/// games per one side's arrangement, for double-FRC games.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sp960 results games.pgn\n  sp960 results --min-games 4 --sort start tcec/\n  sp960 results --by-engine --csv games.pgn > by-engine.csv\n  sp960 results --json games.pgn > results.json && sp960 book --from-results results.json --score-window 0.45,0.55 -o balanced-FRC.epd\n  sp960 results --html starts.html --svg starts.svg games.pgn\n  sp960 results --min-elo 2000 --time-control blitz,rapid --rated lichess_db_chess960_rated_2024-01.pgn.zst\n  sp960 results --by white-start dfrc.pgn"
)]
pub struct ResultsArgs {
    /// PGN files, directories (searched for *.pgn), or `-` for stdin (the default).
    #[arg(value_name = "PATH")]
    pub paths: Vec<Input>,
    /// Leave out starts with fewer games (from the rows and the tests).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_games: u64,
    /// Row order.
    #[arg(long, value_enum, default_value_t)]
    pub sort: SortBy,
    /// Each engine's score from each start, as White and as Black (by the White/Black tags).
    #[arg(long)]
    pub by_engine: bool,
    /// Group the games per start (a double-FRC pair W:B apart), or per White's or Black's
    /// arrangement (the SP of that side's back rank) whatever the other side's.
    #[arg(long, value_enum, value_name = "GROUP", default_value_t)]
    pub by: By,
    /// Count only games whose WhiteElo and BlackElo are both at least N (a missing or `?`
    /// Elo is skipped).
    #[arg(long, value_name = "N")]
    pub min_elo: Option<u32>,
    /// Count only games of these time-control classes (repeatable, or comma-separated),
    /// by lichess's estimate from TimeControl `BASE+INC`: BASE + 40 x INC seconds under 30
    /// ultrabullet, under 180 bullet, under 480 blitz, under 1500 rapid, else classical;
    /// `-` correspondence.
    #[arg(long, value_enum, value_name = "CLASS", value_delimiter = ',')]
    pub time_control: Vec<Speed>,
    /// Count only rated games: an Event tag that starts with Rated ("Rated Chess960 game").
    #[arg(long)]
    pub rated: bool,
    /// The report as one JSON object.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// The rows as CSV.
    #[arg(long)]
    pub csv: bool,
    /// Write the picture of the 960 (SVG) to FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Write an HTML page with the summary, the picture and the table to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Name every skipped game on stderr (default: the first 5 of each reason).
    #[arg(long)]
    pub list_skipped: bool,
    /// File-name patterns searched for in directories (repeatable).
    #[arg(long = "glob", value_name = "PATTERN", default_value = "*.pgn")]
    pub globs: Vec<String>,
}

/// `sp960 book --from-results`: the starts of a results JSON inside a score window.
#[derive(clap::Args)]
#[command(next_help_heading = "Starts chosen by their results (docs/results.md)")]
pub struct FromResultsArgs {
    /// The starts of FILE (`sp960 results --json`) whose White score is inside
    /// --score-window with at least --min-games games, instead of SPECs.
    #[arg(long, value_name = "FILE")]
    pub from_results: Option<PathBuf>,
    /// White's score window kept, inclusive.
    #[arg(
        long,
        value_name = "LO,HI",
        default_value = "0.4,0.6",
        requires = "from_results"
    )]
    pub score_window: ScoreWindow,
    /// The fewest games a start kept has.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "from_results")]
    pub min_games: u64,
}

impl FromResultsArgs {
    /// The SPECs of the book: `specs` as given, or the starts of --from-results.
    pub fn specs(&self, specs: Vec<Spec>) -> Result<Vec<Spec>, CommandFailure> {
        let Some(path) = &self.from_results else {
            return Ok(specs);
        };
        if !specs.is_empty() {
            return Err(CommandFailure::new(
                exit_code::USAGE,
                "book: give SPECs or --from-results, not both",
            ));
        }
        // Read as `results` reads its inputs: compressed, or the one entry of a zip archive.
        let whole = read_one(&Input::Path(path.clone())).map_err(|err| {
            CommandFailure::new(
                exit_code::USAGE,
                format!("book: --from-results {}: {}", path.display(), err.reason()),
            )
        })?;
        let text = String::from_utf8(whole.bytes).map_err(|err| {
            CommandFailure::new(
                exit_code::USAGE,
                format!(
                    "book: --from-results {}: stream did not contain valid UTF-8: {err}",
                    path.display()
                ),
            )
        })?;
        starts_in_window(&text, self.score_window, self.min_games).map_err(|err| {
            CommandFailure::invalid(format!("book: --from-results {}: {err}", path.display()))
        })
    }
}

/// The options games are checked with: Chess960 castling, starts recognized.
fn check_options() -> CheckOptions {
    CheckOptions {
        mode: shakmaty::CastlingMode::Chess960,
        rules: Rules::PythonChess,
        start_positions: true,
        operations: OperationChecks::Syntax,
    }
}

/// Every input's games into one tally; skipped games told as they come with
/// `--list-skipped`. Returns the tally and the inputs that gave no games.
fn read_games(args: &ResultsArgs) -> (StartTally, Unread) {
    let (inputs, missing) = expand(&args.paths, &args.globs);
    let mut unreadable = missing.len() as u64;
    for input in &missing {
        eprintln!("sp960: results: {}: {}", input.path.display(), input.error);
    }
    let mut not_text = 0u64;
    let mut tally = StartTally {
        filter: GameFilter {
            min_elo: args.min_elo,
            speeds: args.time_control.clone(),
            rated: args.rated,
        },
        by: args.by,
        ..StartTally::default()
    };
    let options = check_options();
    for input in &inputs {
        let _ = each_text::<Infallible>(input, &mut |text| {
            let text = match text {
                Ok(text) => text,
                Err(err) => {
                    if err.is_not_text() {
                        not_text += 1;
                    } else {
                        unreadable += 1;
                    }
                    eprintln!("sp960: results: {err}");
                    return Ok(());
                }
            };
            let name = text.name;
            let mut games = 0u64;
            let mut sink = |piece: &crate::records::game_stream::GamesPiece| {
                games += piece.games.len() as u64;
                for game in &piece.games {
                    if let Some(skipped) = tally.add(&name, game)
                        && args.list_skipped
                    {
                        tell(&skipped);
                    }
                }
                Ok(())
            };
            let result = stream_games(text.reader, options, &mut sink);
            if let Err(GameStreamError::Read(err) | GameStreamError::Sink(err)) = result {
                unreadable += 1;
                eprintln!(
                    "sp960: results: {name}: cannot read: {err} ({games} game{} read before it)",
                    if games == 1 { "" } else { "s" }
                );
            }
            Ok(())
        });
    }
    (
        tally,
        Unread {
            unreadable,
            not_text,
        },
    )
}

/// Inputs that gave no games: unreadable ones (exit 2), and ones that are not text (exit 1).
struct Unread {
    unreadable: u64,
    not_text: u64,
}

fn tell(skipped: &Skipped) {
    eprintln!(
        "sp960: results: {}:{}: skipped ({}): {}",
        skipped.path,
        skipped.line,
        skipped.reason.words(),
        skipped.message
    );
}

/// `sp960 results`.
pub(super) fn results(args: ResultsArgs) -> Result<(), CommandFailure> {
    let (tally, unread) = read_games(&args);
    if !args.list_skipped {
        for skipped in &tally.examples {
            tell(skipped);
        }
        for (reason, &count) in &tally.skipped {
            if count > EXAMPLES_KEPT as u64 {
                eprintln!(
                    "sp960: results: ... and {} more skipped ({}): --list-skipped names them all",
                    count - EXAMPLES_KEPT as u64,
                    reason.words()
                );
            }
        }
    }
    let options = ReportOptions {
        min_games: args.min_games,
        sort: args.sort,
    };
    let report = Report::new(&tally, options);
    let engines = args.by_engine.then(|| engine_rows(&tally, args.min_games));
    let text = if args.json {
        let mut value = serde_json::to_value(&report).map_err(io::Error::other)?;
        if let Some(engines) = &engines {
            value["engines"] = serde_json::to_value(engines).map_err(io::Error::other)?;
            value["pairings"] = serde_json::to_value(&tally.pairs).map_err(io::Error::other)?;
        }
        format!("{value}\n")
    } else if args.csv {
        match &engines {
            Some(engines) => by_engine::csv(engines),
            None => report::csv(&report),
        }
    } else {
        match &engines {
            Some(engines) => {
                let mut text = report::summary_lines(&report).join("\n");
                let names: std::collections::BTreeSet<&String> =
                    tally.pairs.iter().flat_map(|(w, b)| [w, b]).collect();
                text.push_str(&format!(
                    "\n{} engines, {} pairings (White - Black)\n\n",
                    names.len(),
                    tally.pairs.len()
                ));
                text.push_str(&by_engine::text(engines));
                text
            }
            None => report::text(&report),
        }
    };
    io::stdout().lock().write_all(text.as_bytes())?;
    write_file(args.svg.as_ref(), || picture::svg(&report))?;
    let per = match args.by {
        By::Start => "start",
        By::WhiteStart => "White start",
        By::BlackStart => "Black start",
    };
    let title = match &args.paths[..] {
        [Input::Path(path)] => format!("Results per {per}: {}", path.display()),
        _ => format!("Results per {per}"),
    };
    write_file(args.html.as_ref(), || picture::html(&report, &title))?;
    if unread.unreadable > 0 {
        return Err(CommandFailure::quiet(exit_code::USAGE));
    }
    if unread.not_text > 0 {
        return Err(CommandFailure::quiet(exit_code::INVALID_DATA));
    }
    if tally.games() == 0 {
        return Err(CommandFailure::invalid(
            "results: no finished Chess960 game in the input",
        ));
    }
    Ok(())
}

fn write_file(
    path: Option<&PathBuf>,
    content: impl FnOnce() -> String,
) -> Result<(), CommandFailure> {
    if let Some(path) = path {
        std::fs::write(path, content()).map_err(|err| {
            CommandFailure::new(
                exit_code::USAGE,
                format!("results: cannot write {}: {err}", path.display()),
            )
        })?;
    }
    Ok(())
}
