//! `sp960 check`: its arguments and help text, and the call into [`crate::check`]: the
//! engine spec read as `sp960 match --engine` reads it, the report printed as a table or
//! JSON, the verdict's exit status. And `sp960 perft`: shakmaty's own counts from a
//! position ([`crate::check::perft`]), the reference `check` holds engines against.

use std::io::{self, Write};
use std::time::Duration;

use super::CommandFailure;
use crate::check::engine::EngineSetup;
use crate::check::perft::{
    PerftError, SUITE_DEPTH, SuiteError, checked_depth, divide, play, position_of, total,
    write_divide, write_suite,
};
use crate::check::positions::{OwnPosition, PerftPlan, read_positions};
use crate::check::report::CheckReport;
use crate::check::run::{CheckRequest, PerftChoice, check};
use crate::check::script::{ScriptRequest, check_script};
use crate::exit_code;
use crate::launch::command::EngineCommand;
use crate::launch::engine_start::EngineStart;
use crate::launch::spec::EngineSpec;
use crate::launch::spec::SpecKey;
use crate::protocol::perft::PerftDialect;
use crate::records::inputs::Input;
use crate::records::open::read_one;
use crate::starts::castling::CastlingDialect;

const CHECK_HELP: &str =
    "ENGINE-SPEC is one argument, as sp960 match --engine takes it: the command (or cmd=)
and its arguments (or arg=), dir=, proto=uci|xboard (default: detected), option.NAME=VALUE,
initstr=.

Three groups of checks, each case a row: protocol (UCI_Chess960 declared as a check with
default false; XBoard setboard and fischerandom; castling written and accepted; Shredder-FEN
and X-FEN read alike), movegen (the engine's perft against shakmaty's over the castling
cases, the 960 starts, double-FRC pairs and positions from seeded random play; on a
difference, down to one position and one move), and play (each castling made, then a
search whose reply must be legal; the castling offered alone with searchmoves; five
positions where a castling would mate, four of them illegal). An engine whose name is not
known is probed for a perft command (go perft 2, perft 2), read by the reply's shape.

--positions FILE adds your own positions to the movegen group, a row each (FILE:LINE and its
EPD id): one FEN or EPD a line, its ;D1 N ;D2 N counts up to --depth checked against shakmaty
before any engine starts (a wrong one is exit 1, with its line and column).

--perft-script CMD checks a move generator without an engine, as perftree runs it: CMD DEPTH
FEN prints MOVE COUNT lines, a blank line and the total; the movegen group and the descent
only (verdict movegen-correct, exit 0).

Exit status: 0 ready for Chess960 (directly, through sp960 proxy: the translations are
named, or in play only when the engine has no perft command: said so), 3 not ready (the
first defect is named), 126/127 the engine cannot be started.

Examples:
  sp960 check /usr/games/stockfish
  sp960 check 'proto=xboard /usr/games/sjaakii' --json
  sp960 check 'sp960 engine' --perft go-perft --depth 4
  sp960 check --perft-script 'python3 perftree_python_chess.py' --depth 3";

/// Check that an engine plays Chess960 correctly: perft against shakmaty, castling cases, a verdict.
#[derive(clap::Args)]
#[command(after_help = CHECK_HELP)]
pub struct CheckArgs {
    /// The engine, as `sp960 match --engine` takes it.
    #[arg(
        value_name = "ENGINE-SPEC",
        value_parser = |text: &str| EngineSpec::parse(1, text).map(Box::new),
        required_unless_present = "perft_script"
    )]
    pub engine: Option<Box<EngineSpec>>,
    /// Instead of an engine, a move generator run as perftree runs it: `CMD DEPTH FEN`
    /// prints `MOVE COUNT` lines, a blank line and the total (CMD: program and fixed
    /// arguments, split as ENGINE-SPEC; cmd=, arg=, dir=). Only the movegen group runs.
    #[arg(
        long,
        value_name = "CMD",
        value_parser = |text: &str| EngineSpec::parse(1, text).map(Box::new),
        conflicts_with_all = ["engine", "perft", "play_depth"]
    )]
    pub perft_script: Option<Box<EngineSpec>>,
    /// The engine's perft command (default: the one its name is known to have, else the
    /// one a probe finds; none: move generation checked through play only).
    #[arg(long, value_name = "go-perft|divide|total|depths|none", value_parser = perft_choice)]
    pub perft: Option<PerftChoice>,
    /// Perft depth for the starts, pairs and random positions (the castling cases: one more).
    #[arg(long, default_value_t = PerftPlan::DEFAULT.depth, value_parser = clap::value_parser!(u32).range(1..=6))]
    pub depth: u32,
    /// Double-FRC pairs counted.
    #[arg(long, default_value_t = PerftPlan::DEFAULT.pairs)]
    pub pairs: usize,
    /// Positions from seeded random play counted.
    #[arg(long, default_value_t = PerftPlan::DEFAULT.random)]
    pub random: usize,
    /// Skip the 960 starts.
    #[arg(long)]
    pub no_starts: bool,
    /// Your own positions, counted after the others: one FEN or EPD a line (`#` comments),
    /// its `;D1 20 ;D2 400` counts up to --depth held against shakmaty's first.
    #[arg(long, value_name = "FILE")]
    pub positions: Vec<std::path::PathBuf>,
    /// Seed of the pairs and the random play.
    #[arg(long, default_value_t = PerftPlan::DEFAULT.seed)]
    pub seed: u64,
    /// Depth of the play group's searches.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub play_depth: u32,
    /// Seconds any one answer may take before the case is reported as hung.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub timeout: u64,
    /// One JSON object on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// Keys of an engine spec the check has no use for.
const UNSUPPORTED_KEYS: [(SpecKey, &str); 9] = [
    (
        SpecKey::Name,
        "by check (the engine's own name is reported)",
    ),
    (
        SpecKey::Restart,
        "by check (a crashed engine is always restarted)",
    ),
    (SpecKey::Tc, "by check (perft and fixed-depth searches)"),
    (SpecKey::St, "by check (perft and fixed-depth searches)"),
    (SpecKey::Depth, "by check (see --depth and --play-depth)"),
    (SpecKey::Nodes, "by check (perft and fixed-depth searches)"),
    (
        SpecKey::Castling,
        "by check (it finds out what the engine takes)",
    ),
    (
        SpecKey::Chess960,
        "by check (it finds out what the engine declares)",
    ),
    (
        SpecKey::Proxy,
        "by check (it tries sp960 proxy when the engine needs it)",
    ),
];

/// Keys of `--perft-script` other than the command, its arguments and its directory.
const SCRIPT_UNSUPPORTED_KEYS: [(SpecKey, &str); 12] = [
    (SpecKey::Name, "by a perft script"),
    (
        SpecKey::Proto,
        "by a perft script (it is run as perftree runs it)",
    ),
    (SpecKey::Option, "by a perft script"),
    (SpecKey::Initstr, "by a perft script"),
    (
        SpecKey::Restart,
        "by a perft script (it is run once per count)",
    ),
    (SpecKey::Tc, "by a perft script"),
    (SpecKey::St, "by a perft script"),
    (SpecKey::Depth, "by a perft script (see --depth)"),
    (SpecKey::Nodes, "by a perft script"),
    (
        SpecKey::Castling,
        "by a perft script (either castling notation is read)",
    ),
    (SpecKey::Chess960, "by a perft script"),
    (SpecKey::Proxy, "by a perft script"),
];

/// A `--perft` that names no perft command.
#[derive(Debug, thiserror::Error)]
#[error("expected go-perft, divide, total, depths or none")]
pub struct UnknownPerft;

/// `--perft`: a perft command's dialect, or `none` (move generation through play only).
fn perft_choice(text: &str) -> Result<PerftChoice, UnknownPerft> {
    match text {
        "none" => Ok(PerftChoice::Off),
        _ => <PerftDialect as clap::ValueEnum>::from_str(text, false)
            .map(PerftChoice::Dialect)
            .map_err(|_| UnknownPerft),
    }
}

/// `sp960 check`: the table (or JSON) to stdout; exit 0 ready, 3 not ready.
pub(super) fn check_engine(args: CheckArgs) -> Result<(), CommandFailure> {
    let usage =
        |message: String| CommandFailure::new(exit_code::USAGE, format!("check: {message}"));
    let own = own_positions(&args.positions, args.depth)?;
    let plan = PerftPlan {
        depth: args.depth,
        case_depth: args.depth + 1,
        starts: !args.no_starts,
        pairs: args.pairs,
        random: args.random,
        seed: args.seed,
    };
    if let Some(script) = args.perft_script {
        script
            .refuse(&SCRIPT_UNSUPPORTED_KEYS)
            .map_err(|err| usage(format!("--perft-script: {err}")))?;
        let request = ScriptRequest {
            command: EngineCommand {
                program: script.cmd.into(),
                args: script.args.into_iter().map(Into::into).collect(),
                dir: script.dir.map(Into::into),
            },
            timeout: Duration::from_secs(args.timeout),
            plan,
            own,
            progress: !args.json,
        };
        let report = check_script(&request)
            .map_err(|err| CommandFailure::new(err.exit_code(), format!("check: {err}")))?;
        return print_report(&report, args.json);
    }
    let spec = args
        .engine
        .expect("clap requires an engine without --perft-script");
    spec.refuse(&UNSUPPORTED_KEYS)
        .map_err(|err| usage(err.to_string()))?;
    let request = CheckRequest {
        engine: EngineSetup {
            start: EngineStart::of(&spec),
            timeout: Duration::from_secs(args.timeout),
        },
        perft: args.perft.unwrap_or(PerftChoice::Auto),
        plan,
        own,
        play_depth: args.play_depth,
        proxy_program: std::env::current_exe().ok(),
        progress: !args.json,
    };
    let report = check(&request)
        .map_err(|err| CommandFailure::new(err.exit_code(), format!("check: {err}")))?;
    print_report(&report, args.json)
}

/// `--positions FILE...`, each read whole and held against shakmaty before any engine
/// starts: every bad line is printed (`FILE:LINE:COLUMN: why`), then exit 1.
fn own_positions(
    files: &[std::path::PathBuf],
    depth: u32,
) -> Result<Vec<OwnPosition>, CommandFailure> {
    let mut own = Vec::new();
    for file in files {
        // Read as `validate` reads it: compressed, or the one entry of a zip archive.
        let whole = read_one(&Input::Path(file.clone())).map_err(|err| {
            CommandFailure::new(
                exit_code::INVALID_DATA,
                format!("check: --positions {}: {}", file.display(), err.reason()),
            )
        })?;
        let name = whole.name;
        let text = String::from_utf8(whole.bytes).map_err(|err| {
            CommandFailure::new(
                exit_code::INVALID_DATA,
                format!("check: --positions {name}: stream did not contain valid UTF-8: {err}"),
            )
        })?;
        match read_positions(&name, &text, depth) {
            Ok(positions) => own.extend(positions),
            Err(errors) => {
                for error in &errors {
                    eprintln!("sp960: check: --positions {error}");
                }
                return Err(CommandFailure::quiet(exit_code::INVALID_DATA));
            }
        }
    }
    Ok(own)
}

/// The report as a table (or JSON) on stdout; the verdict's exit status.
fn print_report(report: &CheckReport, json: bool) -> Result<(), CommandFailure> {
    if json {
        println!("{}", report.json());
    } else {
        print!("{}", report.table());
    }
    match report.verdict.exit_code() {
        exit_code::SUCCESS => Ok(()),
        code => Err(CommandFailure::quiet(code)),
    }
}

const PERFT_HELP: &str =
    "Counts are shakmaty's, with Chess960 castling: the FEN is read in Chess960 mode
(Shredder-FEN HAha or X-FEN KQkq castling, four fields are enough), or a start stands for it
(860, 0:959). --moves are played first, castling as king takes rook (e1h1) or king to its
destination (e1g1). The root moves are counted on every core (RAYON_NUM_THREADS=N: N
threads), the last ply in bulk.

Output: the total alone; with --divide, as Stockfish's go perft: each legal move and its
count (MOVE: COUNT), an empty line, Nodes searched: N. --suite writes an EPD perft suite of
the 960 starts and sp960 check's castling cases, FIELDS ;D1 C1 ;D2 C2 ... (sp960 validate
--perft-depth N checks it).

Exit status: 0 counted, 1 a bad FEN, start or move, 2 a bad option (a depth outside 1-8).

Examples:
  sp960 perft 518 --depth 4
  sp960 perft 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9' --depth 2 --divide
  sp960 perft 518 --moves e2e4 e7e5 --depth 3
  sp960 perft 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1' --depth 2 --divide --castling standard
  sp960 perft --suite --depth 5 > sp960-perft.epd";

/// Count move paths from a position (perft, Chess960 rules): the total, or each move's count.
#[derive(clap::Args)]
#[command(after_help = PERFT_HELP)]
pub struct PerftArgs {
    /// The position: a FEN (Shredder-FEN or X-FEN castling), or a start (N or W:B).
    #[arg(
        value_name = "FEN|SP",
        required_unless_present = "suite",
        conflicts_with = "suite"
    )]
    pub position: Option<String>,
    /// Moves played first, in coordinate notation (castling in either notation).
    #[arg(long, num_args = 1.., value_name = "MOVE", conflicts_with = "suite")]
    pub moves: Vec<String>,
    /// Plies counted, 1 to 8 (--suite: the deepest `;D` written, default 4).
    #[arg(long, required_unless_present = "suite")]
    pub depth: Option<u32>,
    /// Each legal move with its count, as Stockfish's go perft prints them.
    #[arg(long, conflicts_with = "suite")]
    pub divide: bool,
    /// How --divide writes castling: king takes rook (e1h1), or the king's destination
    /// (e1g1) where that is a castling move.
    #[arg(long, value_enum, default_value_t = CastlingDialect::Chess960)]
    pub castling: CastlingDialect,
    /// Write an EPD perft suite of the 960 starts and the castling cases instead.
    #[arg(long)]
    pub suite: bool,
}

/// `sp960 perft`: the total, the divide or the suite to stdout.
pub(super) fn perft(args: PerftArgs) -> Result<(), CommandFailure> {
    let depth = checked_depth(args.depth.unwrap_or(SUITE_DEPTH))
        .map_err(|err| CommandFailure::new(exit_code::USAGE, format!("perft: {err}")))?;
    let invalid = |err: PerftError| CommandFailure::invalid(format!("perft: {err}"));
    let mut out = io::BufWriter::new(io::stdout().lock());
    if args.suite {
        return write_suite(depth, &mut out).map_err(|err| match err {
            SuiteError::Io(err) => CommandFailure::from(err),
            SuiteError::Perft(err) => invalid(err),
        });
    }
    let text = args.position.unwrap_or_default();
    let position = play(position_of(&text).map_err(invalid)?, &args.moves).map_err(invalid)?;
    if args.divide {
        write_divide(&divide(&position, depth, args.castling), &mut out)?;
    } else {
        writeln!(out, "{}", total(&position, depth))?;
    }
    out.flush()?;
    Ok(())
}
