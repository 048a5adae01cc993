//! `sp960 fen`, `identify`, `random`, `explain` and `roll`: their arguments and help text,
//! and the calls into [`crate::starts`] with the outcome mapped to a [`CommandFailure`].

use std::io::{self, IsTerminal};

use super::values::{explain_input, fen_spec};
use super::{CommandFailure, output_cut_short};
use crate::exit_code;
use crate::records::inputs::Input;
use crate::records::open::each_text;
use crate::roll::Method;
use crate::roll::command::{RollCommandError, RollRequest};
use crate::roll::registry::listing;
use crate::roll::simulate::print_random_rolls;
use crate::starts::commands::{CommandError, identify_inputs, print_random, print_starts};
use crate::starts::explain::{ExplainError, ExplainInput, print_explanations};
use crate::starts::notation::{CastlingNotation, RecordFormat};
use crate::starts::start::{RandomStarts, Spec};

/// Print the start FEN of each SPEC, one per line.
///
/// SPEC is a number 0-959 (Scharnagl), a range A-B, `all`, a double-FRC pair W:B
/// (white's rank from SP W, black's from SP B), or a comma-separated list of these.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sp960 fen 860\n  sp960 fen 0-3,959 0:959 --castling xfen\n  sp960 fen all --format epd"
)]
pub struct FenArgs {
    /// Start positions: N, A-B, all, W:B, or lists like 0,5-7.
    #[arg(required = true, value_name = "SPEC", value_parser = fen_spec)]
    pub specs: Vec<Spec>,
    /// Castling field: Shredder file letters (HAha) or X-FEN (KQkq).
    #[arg(long, value_enum, default_value_t)]
    pub castling: CastlingNotation,
    /// Six-field FEN, or four-field EPD with `id "SP n";`.
    #[arg(long, value_enum, default_value_t)]
    pub format: RecordFormat,
}

/// Print the SP number (or W:B pair) of each FEN, EPD or 8-letter arrangement.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sp960 identify RBKNRNBQ\n  sp960 identify 'rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1'\n  sp960 fen all | sp960 identify -"
)]
pub struct IdentifyArgs {
    /// FENs, EPDs or arrangements; `-` reads one per line from stdin.
    #[arg(required = true, value_name = "FEN|ARRANGEMENT|-")]
    pub inputs: Vec<String>,
}

/// Print uniformly random starts: the number and the FEN, one per line.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  sp960 random\n  sp960 random --count 10 --seed 2024 --dfrc")]
pub struct RandomArgs {
    /// How many starts.
    #[arg(long, default_value_t = 1)]
    pub count: u64,
    /// Seed for a reproducible sequence (otherwise one is drawn and told on stderr).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Double Fischer Random: independent arrangements for white and black.
    #[arg(long)]
    pub dfrc: bool,
    /// Castling field notation.
    #[arg(long, value_enum, default_value_t)]
    pub castling: CastlingNotation,
    // Help: "Draw with a physical procedure's seeded die or coin ...", the methods from the
    // table in `roll/mod.rs`.
    #[arg(long, value_name = "METHOD", help = random_method_help())]
    pub method: Option<Method>,
}

/// Explain a start's number: Scharnagl's tables, the direct derivation, the K-R-N method.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sp960 explain 518\n  sp960 explain RBKNRNBQ --json\n  sp960 explain 0:959"
)]
pub struct ExplainArgs {
    /// Starts: SPECs as in `sp960 fen`, 8-letter arrangements or FENs.
    #[arg(required = true, value_name = "SPEC|ARRANGEMENT|FEN", value_parser = explain_input)]
    pub inputs: Vec<ExplainInput>,
    /// One JSON object per start.
    #[arg(long)]
    pub json: bool,
}

// `sp960 roll`: its help lists the methods from the table in `roll/mod.rs` (`roll_help`).
#[derive(clap::Args)]
#[command(
    about = ROLL_ABOUT,
    long_about = roll_help(),
    after_help = "Examples:\n  sp960 roll die 3 5 1 4 6 2 1\n  sp960 roll die-optimized 5 5 6 6 4 6 3 6\n  sp960 roll polyhedral d8=3 d4=3 d6=3 d20=7\n  sp960 roll coin THTTHHHHTT --json\n  sp960 roll fast --fairness"
)]
pub struct RollArgs {
    // Help: every method's name, from the table.
    #[arg(help = Method::listing("or"))]
    pub method: Method,
    // Help: the units of the methods typed one by one, and the named ones.
    #[arg(value_name = "VALUE", conflicts_with = "fairness", help = roll_values_help())]
    pub values: Vec<String>,
    /// Prove the method fair by exhaustive enumeration, in exact fractions.
    #[arg(long)]
    pub fairness: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Castling field notation.
    #[arg(long, value_enum, default_value_t)]
    pub castling: CastlingNotation,
}

/// The first line of `sp960 roll`'s help.
const ROLL_ABOUT: &str =
    "Turn dice rolls or coin tosses into a start, showing what each value decided";

/// `sp960 roll --help`: every method's help line from the table.
fn roll_help() -> String {
    let methods: Vec<&str> = Method::ALL
        .iter()
        .map(|method| method.info().help)
        .collect();
    format!(
        "{ROLL_ABOUT}.\n\nMethods: {}. Without values and with a terminal on stdin, each value is asked for.",
        methods.join(", ")
    )
}

/// The help of `sp960 roll`'s values: `The rolls, throws or tosses, in order (NAME=VALUE
/// for polyhedral and d10)`.
fn roll_values_help() -> String {
    let mut units: Vec<&str> = Vec::new();
    let mut named: Vec<&str> = Vec::new();
    for method in Method::ALL {
        if method.is_named() {
            named.push(method.name());
        } else if !units.contains(&method.unit().1) {
            units.push(method.unit().1);
        }
    }
    format!(
        "The {}, in order (NAME=VALUE for {})",
        listing(units, "or"),
        listing(named, "and")
    )
}

/// `sp960 random --method`'s help, naming every method.
fn random_method_help() -> String {
    format!(
        "Draw with a physical procedure's seeded die or coin (see `sp960 roll`), printing its values after the FEN: {}",
        Method::listing("or")
    )
}

/// `sp960 fen`.
pub(super) fn fen(args: FenArgs) -> Result<(), CommandFailure> {
    command_result(
        "fen",
        print_starts(
            &args.specs,
            args.castling,
            args.format,
            &mut io::BufWriter::new(io::stdout().lock()),
        ),
    )
}

/// `sp960 identify`.
pub(super) fn identify(args: IdentifyArgs) -> Result<(), CommandFailure> {
    let run = |stdin: &mut dyn io::BufRead| {
        command_result(
            "identify",
            identify_inputs(
                &args.inputs,
                stdin,
                &mut io::BufWriter::new(io::stdout().lock()),
                &mut io::stderr().lock(),
            ),
        )
    };
    // Stdin is opened (and its first bytes looked at) only when an input is `-`: a
    // terminal is never waited on for nothing.
    if !args.inputs.iter().any(|input| input == "-") {
        return run(&mut io::empty());
    }
    // `-` is read as `validate` reads stdin: compressed, or a zip archive's one entry.
    let mut result = None;
    each_text(&Input::Stdin, &mut |text| {
        let failure = match text {
            Err(err) => Err(CommandFailure::new(
                if err.is_not_text() {
                    exit_code::INVALID_DATA
                } else {
                    exit_code::USAGE
                },
                format!("identify: {err}"),
            )),
            Ok(_) if result.is_some() => Err(CommandFailure::new(
                exit_code::USAGE,
                "identify: stdin is a zip archive of several entries; give it one",
            )),
            Ok(text) => run(text.reader),
        };
        if result.as_ref().is_none_or(Result::is_ok) {
            result = Some(failure);
        }
        Ok::<(), std::convert::Infallible>(())
    })
    .unwrap_or_else(|never| match never {});
    result.unwrap_or(Ok(()))
}

/// `sp960 random`: plain draws, or a physical method's simulated values (`--method`).
pub(super) fn random(args: RandomArgs) -> Result<(), CommandFailure> {
    let RandomArgs {
        count,
        seed,
        dfrc,
        castling,
        method,
    } = args;
    let (seed, out) = (
        seed_or_fresh(seed),
        &mut io::BufWriter::new(io::stdout().lock()),
    );
    command_result(
        "random",
        match method {
            Some(method) => print_random_rolls(count, seed, dfrc, method, castling, out),
            None => print_random(count, seed, dfrc, castling, out),
        },
    )
}

/// `sp960 explain`: a start that cannot be read exits 1.
pub(super) fn explain(args: ExplainArgs) -> Result<(), CommandFailure> {
    print_explanations(
        &args.inputs,
        args.json,
        &mut io::BufWriter::new(io::stdout().lock()),
    )
    .map_err(|err| match err {
        ExplainError::Io(err) => CommandFailure::from(err),
        err => CommandFailure::invalid(err.to_string()),
    })
}

/// `sp960 roll`: bad values are usage errors (exit 2); without values stdin is asked when
/// it is a terminal.
pub(super) fn roll(args: RollArgs) -> Result<(), CommandFailure> {
    let request = RollRequest {
        method: args.method,
        values: args.values,
        json: args.json,
        fairness: args.fairness,
        castling: args.castling,
    };
    let stdin = io::stdin();
    crate::roll::command::roll(
        &request,
        stdin.is_terminal(),
        &mut stdin.lock(),
        &mut io::BufWriter::new(io::stdout().lock()),
        &mut io::stderr().lock(),
    )
    .map_err(|err| match err {
        RollCommandError::Io(err) => CommandFailure::from(err),
        err => CommandFailure::new(err.exit_code(), err.to_string()),
    })
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
fn command_result(command: &str, result: Result<(), CommandError>) -> Result<(), CommandFailure> {
    match result {
        Ok(()) => Ok(()),
        Err(CommandError::Io(err)) if command == "identify" => Err(output_cut_short(err)),
        Err(CommandError::Io(err)) => Err(CommandFailure::from(err)),
        Err(CommandError::Unidentified(_)) => Err(CommandFailure::quiet(exit_code::INVALID_DATA)),
        Err(err) => Err(CommandFailure::invalid(format!("{command}: {err}"))),
    }
}

#[cfg(test)]
mod tests {
    use clap::{Args, Command, FromArgMatches};

    use super::*;

    fn roll_command() -> Command {
        RollArgs::augment_args(Command::new("roll"))
    }

    #[test]
    fn roll_and_random_take_exactly_the_tables_methods() {
        for method in Method::ALL {
            let matches = roll_command()
                .try_get_matches_from(["roll", method.name(), "--fairness"])
                .unwrap();
            assert_eq!(RollArgs::from_arg_matches(&matches).unwrap().method, method);
            let matches = RandomArgs::augment_args(Command::new("random"))
                .try_get_matches_from(["random", "--method", method.name()])
                .unwrap();
            let args = RandomArgs::from_arg_matches(&matches).unwrap();
            assert_eq!(args.method, Some(method));
        }
        let err = roll_command()
            .try_get_matches_from(["roll", "dice"])
            .unwrap_err()
            .to_string();
        assert!(err.contains(&Method::listing("and")), "{err}");
    }

    #[test]
    fn roll_help_lists_every_method_from_the_table() {
        let mut command = roll_command();
        let method_help = command
            .get_arguments()
            .find(|arg| arg.get_id() == "method")
            .and_then(|arg| arg.get_help())
            .map(ToString::to_string);
        assert_eq!(method_help, Some(Method::listing("or")));
        let help = command.render_long_help().to_string();
        for method in Method::ALL {
            assert!(help.contains(method.info().help), "{method}: {help}");
        }
        assert_eq!(
            roll_values_help(),
            "The rolls, throws or tosses, in order (NAME=VALUE for polyhedral and d10)"
        );
    }
}
