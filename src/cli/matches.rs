//! `sp960 engine` and `match`: their arguments and help text, and the calls into
//! [`crate::engine`] (the built-in engine on stdin/stdout) and [`crate::matches`] (the
//! match runner, whose errors carry their own exit codes).

use std::io;
use std::path::PathBuf;

use super::Failure;
use crate::matches::{MatchRequest, match_command};
use crate::starts::request::BookRequest;
use crate::tournaments::handoff::{Runner, handoff_command};

/// Run the built-in reference engine on stdin/stdout, speaking UCI or XBoard.
///
/// The first command chooses the protocol: `uci` or `xboard`. Chess960 castling in
/// both (UCI_Chess960; XBoard `variant fischerandom`).
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  printf 'uci\\nposition startpos\\ngo depth 5\\n' | sp960 engine\n  xboard -fcp 'sp960 engine' -fd . -variant fischerandom\n  python: chess.engine.SimpleEngine.popen_uci(['sp960', 'engine'])"
)]
pub struct EngineArgs {}

/// Play a match between engines from numbered starts or an opening book, both colours, saved as PGN.
///
/// Each start is played twice per round, colours swapped; with more than two engines,
/// by every two of them (or, with --gauntlet, by the first against each other one). With one --engine or none,
/// the built-in engine (`sp960 engine`) plays the missing side. Finished games are
/// appended to the PGN file one by one; a live progress line goes to stderr and the
/// final table (or --json) to stdout.
#[derive(clap::Args)]
#[command(
    after_help = "--engine takes one argument, split as a shell would: the command (or cmd=) and its\narguments (or arg=), and cutechess-cli's keys dir= name= proto=uci|xboard (default: detected)\noption.NAME=VALUE initstr= restart=on and the engine's own st= depth= nodes=. An unknown key\nis an error, never an engine argument.\n\nExamples:\n  sp960 match --sp 860\n  sp960 match --engine /usr/games/stockfish --engine /usr/games/ethereal-chess --sp 0,959 --sp 0:959 --nodes 20000 --pgn games.pgn\n  sp960 match --engine 'proto=xboard name=\"Sjaak II\" /usr/games/sjaakii' --sp random --count 10 --seed 7 --tc 40/60+0.6\n  sp960 match --engine stockfish --engine ethereal-chess --engine 'sp960 engine' --gauntlet --openings file=book.pgn plies=8 order=random --seed 1 --log logs"
)]
pub struct MatchArgs {
    /// One engine: its command line, with proto=, name=, option.NAME=VALUE (once per engine; more than two play a round-robin).
    #[arg(long, value_name = "'CMD ...'")]
    pub engine: Vec<String>,
    /// With three engines or more: the first engine plays each of the others (instead of everyone playing everyone).
    #[arg(long)]
    pub gauntlet: bool,
    /// Starts: SPECs as in `sp960 fen` (N, A-B, all, W:B, lists), or `random` (see --count).
    #[arg(long = "sp", required_unless_present = "openings", value_name = "SPEC")]
    pub specs: Vec<String>,
    /// Openings from a file, as the runners' -openings: file=F [format=epd|pgn] [order=sequential|random] [plies=N] [start=N] [count=N] (with or instead of --sp).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub openings: Vec<String>,
    /// How many random starts each `random` SPEC stands for.
    #[arg(long, default_value_t = 1)]
    pub count: u64,
    /// Seed for `random` SPECs (otherwise one is drawn and told on stderr).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Search depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Nodes per move (UCI engines).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Milliseconds per move [default when no limit is given: 100].
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Clock per side, cutechess syntax: [MOVES/]SECONDS|M:SS[+INCREMENT]; a flag fall loses.
    #[arg(long, value_name = "TC")]
    pub tc: Option<String>,
    /// Games at once [default: one per core].
    #[arg(long, value_name = "K")]
    pub concurrency: Option<usize>,
    /// How many times to play the whole schedule.
    #[arg(long, default_value_t = 1)]
    pub rounds: u32,
    /// Adjudicate a draw after this many plies.
    #[arg(long, value_name = "N")]
    pub max_plies: Option<u32>,
    /// The PGN file finished games are appended to.
    #[arg(long, value_name = "FILE", default_value = "sp960-match.pgn")]
    pub pgn: PathBuf,
    /// Without --tc: seconds a move may take (beyond --movetime) before the engine loses by time-out.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    pub timeout: f64,
    /// Print the summary as JSON instead of the table (and no progress line).
    #[arg(long)]
    pub json: bool,
    /// SPRT after each game pair, as fastchess's -sprt: elo0=A elo1=B alpha=X beta=Y [model=normalized|logistic]; the match stops when a bound is crossed.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Vec<String>,
    /// Resign adjudication, as cutechess-cli's -resign: movecount=N score=CP [twosided=true] (from the engines' UCI info score).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub resign: Vec<String>,
    /// Draw adjudication, as cutechess-cli's -draw: movenumber=N movecount=N score=CP (from the engines' UCI info score).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub draw: Vec<String>,
    /// Hand the match to a real runner on PATH (the book and engine wrapping of `sp960 tournament`); its PGN is read back into the table [default: the built-in runner].
    #[arg(long, value_enum)]
    pub runner: Option<Runner>,
    /// Write a file per game into DIR (game-00001.log, ...): every line to (>) and from (<) each engine and its stderr (!), timestamped.
    #[arg(long, value_name = "DIR")]
    pub log: Option<PathBuf>,
    /// The PGN `Event` tag, as cutechess-cli's -event [default: sp960 match].
    #[arg(long, value_name = "NAME")]
    pub event: Option<String>,
    /// The PGN `Site` tag, as cutechess-cli's -site [default: ?].
    #[arg(long, value_name = "NAME")]
    pub site: Option<String>,
    /// Continue the match interrupted (Ctrl-C, kill, crash) with the same options: its state is in PGN.state, its finished games in the PGN; the games not finished are played.
    #[arg(long)]
    pub resume: bool,
}

/// `sp960 engine`: UCI or XBoard on stdin/stdout until `quit` or the end of input.
pub(super) fn engine(_: EngineArgs) -> Result<(), Failure> {
    crate::engine::run(io::BufReader::new(io::stdin()), io::stdout().lock())?;
    Ok(())
}

/// `sp960 match`: the summary to stdout; a missing engine side is played by this very
/// program's `sp960 engine`.
pub(super) fn play_match(args: MatchArgs) -> Result<(), Failure> {
    let request = MatchRequest {
        engines: args.engine,
        gauntlet: args.gauntlet,
        builtin: std::env::current_exe().unwrap_or_else(|_| "sp960".into()),
        starts: BookRequest {
            specs: args.specs,
            count: args.count,
            dfrc_sample: 0,
            seed: 0,
        },
        seed: args.seed,
        openings: args.openings,
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime,
        tc: args.tc,
        concurrency: args.concurrency,
        rounds: args.rounds,
        max_plies: args.max_plies,
        pgn: args.pgn,
        move_timeout: args.timeout,
        json: args.json,
        sprt: args.sprt,
        resign: args.resign,
        draw: args.draw,
        log: args.log,
        event: args.event,
        site: args.site,
        resume: args.resume,
    };
    match args.runner {
        Some(runner) => handoff_command(request, runner, &mut io::stdout().lock())
            .map_err(|err| Failure::new(err.exit_code(), format!("match: {err}")))?,
        None => match_command(request, &mut io::stdout().lock())
            .map_err(|err| Failure::new(err.exit_code(), format!("match: {err}")))?,
    };
    Ok(())
}
