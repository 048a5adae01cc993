//! The command line's values read into the crate's types as clap parses them, before any
//! work starts (as ripgrep parses its flags): clap value parsers over the rooms' own readers
//! (`--tc` a [`TimeControl`], `--engine` an [`EngineSpec`], `--window` a [`Window`], a
//! SPEC a [`Spec`]).
//!
//! A value one of these readers refuses keeps the words and the exit code the command
//! always gave it: the parser's error is a [`Refused`] (the command, the exit code, the
//! reader's typed error; in [`exit_code`], where `sp960 match`'s own arguments use it too),
//! which [`Refused::of`] finds in clap's error, and `main` prints as
//! `sp960: COMMAND: reason`, not as clap's `error: invalid value ...`: exit 2 for a usage
//! error, 1 for a SPEC (invalid chess data), as before. Any other clap error is clap's, as
//! it was.

use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use clap::builder::TypedValueParser;

use super::CommandFailure;
use crate::books::generate::{Window, parse_engine, parse_window};
use crate::exit_code::{self, Refused};
use crate::launch::spec::EngineSpec;
use crate::launch::time_control::TimeControl;
use crate::starts::explain::{ExplainError, ExplainInput};
use crate::starts::request::BookError;
use crate::starts::start::Spec;

/// The failure `main` reports for a refused value: `sp960: COMMAND: reason`, the
/// command's exit code.
pub fn refused_failure(refused: &Refused) -> CommandFailure {
    CommandFailure::new(refused.code(), refused.to_string())
}

/// `sp960 fen SPEC...`: the word `random` is no SPEC there.
pub fn fen_spec(text: &str) -> Result<Spec, Refused> {
    Spec::listed(text).map_err(Refused::invalid("fen"))
}

/// `sp960 explain SPEC|ARRANGEMENT|FEN...`: its errors name the command themselves.
pub fn explain_input(text: &str) -> Result<ExplainInput, Refused> {
    text.parse()
        .map_err(|err: ExplainError| Refused::in_own_words(exit_code::INVALID_DATA, err))
}

/// `sp960 book SPEC...`.
pub fn book_spec(text: &str) -> Result<Spec, Refused> {
    BookError::spec(text).map_err(Refused::invalid("book"))
}

/// `sp960 tournament --sp SPEC`.
pub fn tournament_spec(text: &str) -> Result<Spec, Refused> {
    BookError::spec(text).map_err(Refused::invalid("tournament"))
}

/// A path that is also a word of a command line sp960 writes (`sp960 tournament --book`,
/// `--pgnout`): read as text, so a path that is not UTF-8 is clap's usage error, as it was.
pub fn text_path(text: &str) -> Result<PathBuf, Infallible> {
    Ok(PathBuf::from(text))
}

/// `sp960 tournament --tc`.
pub fn tournament_time_control(text: &str) -> Result<TimeControl, Refused> {
    text.parse().map_err(Refused::usage("tournament"))
}

/// `sp960 tournament --engine`: each engine read into its [`EngineSpec`], numbered in the
/// order given (`engine 2: ...`). clap calls a value parser once per value, in command-line
/// order, on the command it built for this parse, so the count of values seen is the
/// engine's number (a fresh parser, at 0, for every parse).
#[derive(Debug, Clone, Default)]
pub struct TournamentEngines {
    seen: Arc<AtomicUsize>,
}

impl TypedValueParser for TournamentEngines {
    type Value = EngineSpec;

    fn parse_ref(
        &self,
        command: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<EngineSpec, clap::Error> {
        let index = self.seen.fetch_add(1, Ordering::Relaxed) + 1;
        let read =
            move |text: &str| EngineSpec::parse(index, text).map_err(Refused::usage("tournament"));
        read.parse_ref(command, arg, value)
    }
}

/// `sp960 book --engine` (one UCI engine, the keys the generator takes).
pub fn book_engine(text: &str) -> Result<EngineSpec, Refused> {
    parse_engine(text).map_err(Refused::usage("book"))
}

/// `sp960 book --window LO,HI`.
pub fn book_window(text: &str) -> Result<Window, Refused> {
    parse_window(text).map_err(Refused::usage("book"))
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::{Cli, Command};

    /// The refusal of `args` (after `sp960`), as `main` reports it.
    fn refusal(args: &[&str]) -> (u8, String) {
        let err = Cli::try_parse_from(std::iter::once("sp960").chain(args.iter().copied()))
            .err()
            .expect("refused");
        let failure = refused_failure(Refused::of(&err).expect("a refusal"));
        (failure.code, failure.message.unwrap())
    }

    #[test]
    fn tournament_engines_are_numbered_in_the_order_given() {
        let args = ["tournament", "--emit", "cutechess", "--sp", "0"];
        let given = [
            "--engine",
            "a option.Hash=1",
            "--engine",
            "b",
            "--tc",
            "40/60+0.6",
        ];
        let cli = Cli::try_parse_from(["sp960"].iter().chain(&args).chain(&given)).unwrap();
        let Command::Tournament(parsed) = cli.command else {
            panic!("not a tournament")
        };
        let engines = &parsed.engine;
        assert_eq!(
            engines
                .iter()
                .map(|e| (e.index, e.cmd.as_str()))
                .collect::<Vec<_>>(),
            [(1, "a"), (2, "b")]
        );
        assert_eq!(parsed.tc.moves(), Some(40));
        let mut bad = args.to_vec();
        bad.extend(["--engine", "a", "--engine", "b foo=1"]);
        let (code, message) = refusal(&bad);
        assert_eq!(code, exit_code::USAGE);
        assert!(
            message.starts_with("tournament: engine 2: unknown key 'foo'"),
            "{message}"
        );
        // A second parse numbers from 1 again.
        let mut bad = args.to_vec();
        bad.extend(["--engine", "a foo=1"]);
        assert!(refusal(&bad).1.starts_with("tournament: engine 1: "));
    }

    #[test]
    fn refused_values_keep_their_commands_words() {
        let tournament = [
            "tournament",
            "--emit",
            "cutechess",
            "--engine",
            "a",
            "--sp",
            "0",
        ];
        let mut bad = tournament.to_vec();
        bad.extend(["--tc", "fast"]);
        assert_eq!(
            refusal(&bad),
            (
                exit_code::USAGE,
                "tournament: time control 'fast': expected [MOVES/]SECONDS[+INCREMENT] or \
                 [MOVES/]M:SS[+INCREMENT], e.g. 10+0.1 or 40/1:00+0.6"
                    .to_owned()
            )
        );
        assert_eq!(
            refusal(&["book", "0", "--window", "5,1"]),
            (
                exit_code::USAGE,
                "book: --window 5,1: the window is empty (LO is above HI)".to_owned()
            )
        );
        assert_eq!(
            refusal(&["book", "0", "--engine", "sf proto=xboard"]).1,
            "book: --engine: proto=xboard: book generation needs a UCI engine (MultiPV scores)"
        );
        assert_eq!(
            refusal(&["explain", "518", "RNBQKBNX"]),
            (
                exit_code::INVALID_DATA,
                "explain: 'RNBQKBNX': not a Chess960 arrangement: 'X' at position 8 is not a \
                 piece letter (K, Q, R, B or N)"
                    .to_owned()
            )
        );
        assert_eq!(
            refusal(&["fen", "0", "random"]),
            (
                exit_code::INVALID_DATA,
                "fen: 'random' is not a start-position spec (expected N, A-B, all, W:B or a \
                 comma-separated list)"
                    .to_owned()
            )
        );
        // clap's own errors stay clap's.
        let err = Cli::try_parse_from(["sp960", "book", "--bogus"])
            .err()
            .unwrap();
        assert!(Refused::of(&err).is_none());
    }
}
