//! `sp960 engine` and `match`: their arguments and help text, and the calls into
//! [`crate::engine`] (the built-in engine on stdin/stdout) and [`crate::matches`] (the
//! match runner, whose errors carry their own exit codes). `match`'s options are the
//! match room's [`MatchRequest`], typed by clap and handed over as they are; only
//! `--runner` (the tournaments room's) is added here.

use std::io;

use super::CommandFailure;
use crate::matches::{MatchRequest, match_command};
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
    /// The match: every option but --runner (their help text is there); boxed, as it is
    /// the largest of the commands' arguments by far.
    #[command(flatten)]
    pub request: Box<MatchRequest>,
    /// Hand the match to a real runner on PATH (the book and engine wrapping of `sp960 tournament`); its PGN is read back into the table [default: the built-in runner].
    // Shown after --draw, where it stood before the options moved into `MatchRequest`: help
    // lists options by display order, then name ("draw" < "runner" < "log").
    #[arg(long, value_enum, display_order = 18)]
    pub runner: Option<Runner>,
}

/// `sp960 engine`: UCI or XBoard on stdin/stdout until `quit` or the end of input.
pub(super) fn engine(_: EngineArgs) -> Result<(), CommandFailure> {
    crate::engine::run(io::BufReader::new(io::stdin()), io::stdout().lock())?;
    Ok(())
}

/// `sp960 match`: the summary to stdout; a missing engine side is played by this very
/// program's `sp960 engine`.
pub(super) fn play_match(args: MatchArgs) -> Result<(), CommandFailure> {
    let request = *args.request;
    match args.runner {
        Some(runner) => handoff_command(request, runner, &mut io::stdout().lock())
            .map_err(|err| CommandFailure::new(err.exit_code(), format!("match: {err}")))?,
        None => match_command(request, &mut io::stdout().lock())
            .map_err(|err| CommandFailure::new(err.exit_code(), format!("match: {err}")))?,
    };
    Ok(())
}
