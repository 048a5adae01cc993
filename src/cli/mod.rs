//! The `sp960` command line: the [`Cli`] clap parses, with the top-level help and its
//! exit-code table; [`run`], which hands each [`Command`] to its group; and [`CommandFailure`],
//! the exit code and `sp960: ...` message a command ends with. `main.rs` only parses,
//! runs and reports.
//!
//! One file per command group holds its clap arguments (their doc comments are the
//! help text; `sp960 match`'s are the match room's `MatchRequest`, flattened) and the
//! small functions that turn them into library calls: [`starts`]
//! (fen, identify, random, explain, roll), [`records`] (validate, normalize), [`results`]
//! (results, and `book --from-results`),
//! [`proxy`](mod@proxy), [`matches`](mod@matches) (engine, match), [`check`] (check, perft)
//! [`books`] (book, its stats and package) and [`tournaments`] (tournament). Their values are read into the crate's types as clap parses them
//! (`values.rs`: a refused one keeps its command's words and exit code). `launcher` is the
//! start of every run: a launcher (a copy of sp960
//! with a settings file beside it) runs the proxy command of its settings file.

use std::io;

use clap::{Parser, Subcommand};

use crate::exit_code;

pub mod books;
pub mod check;
mod launcher;
pub mod matches;
pub mod proxy;
pub mod records;
pub mod results;
pub mod starts;
pub mod tournaments;
mod values;

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
  sp960 results games.pgn            which starts favour White: score per start, signal or noise
  sp960 proxy --sp 860 -- stockfish  a UCI engine that plays every game from SP 860
  sp960 check stockfish              is this engine ready for Chess960? (perft, castling, play)
  sp960 perft 860 --depth 4 --divide shakmaty's perft, each move's count as Stockfish prints it

Exit codes (every subcommand):
  0         success (check: the engine is ready, directly or through sp960 proxy)
  1         invalid chess data: a bad SP or SPEC, arrangement, FEN or record; results: no games
  2         usage error (a bad option, --engine key, time control or limit) or I/O error
  3         an engine that cannot do what was asked (proxy --require-chess960; match: fails
            its handshake; tournament: the tool cannot drive it; check: not ready)
  4         proxy: the engine exited with status 0 unasked (other exits: its own status)
  126, 127  the engine program cannot be executed, or is not found (proxy, match, check)
  130       match: interrupted by Ctrl-C; the finished games are saved and reported";

/// Chess960 start positions for GUIs and engines: numbers to FENs and back.
#[derive(Parser)]
#[command(name = "sp960", version, about, after_help = EXAMPLES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

// The subcommands in `sp960 --help` order. Each one's help text is the doc comment and
// `#[command]` attributes of its arguments struct (a doc comment here would replace it).
#[derive(Subcommand)]
pub enum Command {
    Fen(starts::FenArgs),
    Identify(starts::IdentifyArgs),
    Random(starts::RandomArgs),
    Explain(starts::ExplainArgs),
    Roll(starts::RollArgs),
    // Boxed: with the generator's engine spec its arguments are the largest by far.
    Book(Box<books::BookArgs>),
    Tournament(tournaments::TournamentArgs),
    Engine(matches::EngineArgs),
    #[command(name = "match")]
    Match(matches::MatchArgs),
    Validate(records::ValidateArgs),
    Normalize(records::NormalizeArgs),
    Results(results::ResultsArgs),
    Proxy(proxy::ProxyArgs),
    Check(check::CheckArgs),
    Perft(check::PerftArgs),
}

/// Runs the command: `Ok` is exit 0, anything else a [`CommandFailure`].
pub fn run(cli: Cli) -> Result<(), CommandFailure> {
    match cli.command {
        Command::Fen(args) => starts::fen(args),
        Command::Identify(args) => starts::identify(args),
        Command::Random(args) => starts::random(args),
        Command::Explain(args) => starts::explain(args),
        Command::Roll(args) => starts::roll(args),
        Command::Book(args) => books::book(*args),
        Command::Tournament(args) => tournaments::tournament(args),
        Command::Engine(args) => matches::engine(args),
        Command::Match(args) => matches::play_match(args),
        Command::Validate(args) => records::validate(args),
        Command::Normalize(args) => records::normalize(args),
        Command::Results(args) => results::results(args),
        Command::Proxy(args) => proxy::proxy(args),
        Command::Check(args) => check::check_engine(args),
        Command::Perft(args) => check::perft(args),
    }
}

/// A failure that ends the command: its exit code ([`exit_code`], or an engine's own
/// status), and the message `main` prints as `sp960: {message}` on stderr, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandFailure {
    /// The process exit code.
    pub code: u8,
    /// What went wrong, without the `sp960: ` prefix; `None` when already reported.
    pub message: Option<String>,
}

impl CommandFailure {
    /// A failure with a message.
    pub fn new(code: u8, message: impl Into<String>) -> CommandFailure {
        CommandFailure {
            code,
            message: Some(message.into()),
        }
    }

    /// Invalid chess data (exit 1).
    pub fn invalid(message: impl Into<String>) -> CommandFailure {
        CommandFailure::new(exit_code::INVALID_DATA, message)
    }

    /// An exit code without a message: the command has said what there was to say.
    pub fn quiet(code: u8) -> CommandFailure {
        CommandFailure {
            code,
            message: None,
        }
    }
}

impl From<io::Error> for CommandFailure {
    fn from(err: io::Error) -> CommandFailure {
        if err.kind() == io::ErrorKind::BrokenPipe {
            // The reader went away (`| head`): not an error of ours.
            CommandFailure::quiet(exit_code::SUCCESS)
        } else {
            CommandFailure::new(exit_code::USAGE, format!("I/O error: {err}"))
        }
    }
}

/// An I/O error of a command that checks its inputs (identify, validate, normalize): a
/// closed stdout (`| head`) is exit 1 with a note, not the quiet success it is for
/// commands that only print.
fn output_cut_short(err: io::Error) -> CommandFailure {
    if err.kind() == io::ErrorKind::BrokenPipe {
        CommandFailure::invalid("output closed before every input was checked and reported")
    } else {
        CommandFailure::from(err)
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// clap's own consistency checks of the definitions (names, conflicts, requirements).
    #[test]
    fn definitions_are_consistent() {
        super::Cli::command().debug_assert();
    }
}
