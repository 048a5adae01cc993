//! Options of `KEY=VALUE` words read into their types while clap parses the command line
//! (`--openings`, `--sprt`, `--resign`, `--draw`): [`Words<T>`] is the option's clap argument (one or more
//! values, each holding one or more words), read with `T`'s reader ([`WordsOption`]) the
//! moment clap has collected them, so a bad word is clap's usage error (exit 2) before any
//! work starts. A clap value parser sees one value at a time; these rules need all their
//! words at once, hence an `Args` of their own rather than a value parser. They are
//! `sp960 match`'s options: a bad one is reported with its usage.
//!
//! The words are kept as given: `--resume` compares them with the interrupted match's.

use std::fmt::Display;

use clap::error::ErrorKind;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

use crate::books::openings::{OpeningsSpec, OpeningsSpecError};
use crate::matches::config::adjudication::{AdjudicationError, DrawRule, ResignRule};
use crate::matches::tally::sprt::{SprtConfig, SprtError, parse_sprt};

/// A rule written as `KEY=VALUE` words.
pub trait WordsOption: Sized {
    /// The option's long name, without `--` (also its clap id).
    const LONG: &'static str;
    /// Its help text.
    const HELP: &'static str;
    /// Why its words cannot be read (the message names the option).
    type Error: Display;
    /// Reads the rule from its words (an argument may hold several, separated by spaces).
    fn read(words: &[String]) -> Result<Self, Self::Error>;
}

/// One `KEY=VALUE` option as given and as read: `None` when it was not given.
#[derive(Debug, Clone, PartialEq)]
pub struct Words<T> {
    words: Vec<String>,
    value: Option<T>,
}

impl<T> Default for Words<T> {
    fn default() -> Self {
        Words {
            words: Vec::new(),
            value: None,
        }
    }
}

impl<T: WordsOption> Words<T> {
    /// Reads `words`; none is the option not given.
    pub fn parse(words: Vec<String>) -> Result<Words<T>, T::Error> {
        let value = if words.is_empty() {
            None
        } else {
            Some(T::read(&words)?)
        };
        Ok(Words { words, value })
    }
}

impl<T> Words<T> {
    /// The rule, when the option was given.
    pub fn value(&self) -> Option<&T> {
        self.value.as_ref()
    }

    /// The words as given, joined by spaces (empty when not given).
    pub fn text(&self) -> String {
        self.words.join(" ")
    }

    /// Whether the option was given.
    pub fn is_given(&self) -> bool {
        self.value.is_some()
    }
}

impl<T: WordsOption> FromArgMatches for Words<T> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        Self::from_arg_matches_mut(&mut matches.clone())
    }

    fn from_arg_matches_mut(matches: &mut ArgMatches) -> Result<Self, clap::Error> {
        let words = matches
            .remove_many::<String>(T::LONG)
            .map(Iterator::collect)
            .unwrap_or_default();
        Words::parse(words).map_err(|err| {
            // Formatted here, with `sp960 match`'s usage: clap would give the top level's.
            let mut command = Command::new("match")
                .bin_name("sp960 match")
                .override_usage("sp960 match [OPTIONS]");
            clap::Error::raw(ErrorKind::ValueValidation, err).format(&mut command)
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        self.update_from_arg_matches_mut(&mut matches.clone())
    }

    fn update_from_arg_matches_mut(&mut self, matches: &mut ArgMatches) -> Result<(), clap::Error> {
        if matches.contains_id(T::LONG) {
            *self = Self::from_arg_matches_mut(matches)?;
        }
        Ok(())
    }
}

impl<T: WordsOption> Args for Words<T> {
    fn augment_args(command: Command) -> Command {
        command.arg(
            Arg::new(T::LONG)
                .long(T::LONG)
                .num_args(1..)
                .action(ArgAction::Append)
                .value_name("KEY=VALUE")
                .help(T::HELP),
        )
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

impl WordsOption for OpeningsSpec {
    const LONG: &'static str = "openings";
    const HELP: &'static str = "Openings from a file, as the runners' -openings: file=F [format=epd|pgn] [order=sequential|random] [plies=N] [start=N] [count=N] (with or instead of --sp)";
    type Error = OpeningsSpecError;

    fn read(words: &[String]) -> Result<OpeningsSpec, OpeningsSpecError> {
        OpeningsSpec::parse(words)
    }
}

impl WordsOption for SprtConfig {
    const LONG: &'static str = "sprt";
    const HELP: &'static str = "SPRT after each game pair, as fastchess's -sprt: elo0=A elo1=B alpha=X beta=Y [model=normalized|logistic]; the match stops when a bound is crossed";
    type Error = SprtError;

    fn read(words: &[String]) -> Result<SprtConfig, SprtError> {
        parse_sprt(words)
    }
}

impl WordsOption for ResignRule {
    const LONG: &'static str = "resign";
    const HELP: &'static str = "Resign adjudication, as cutechess-cli's -resign: movecount=N score=CP [twosided=true] (from the engines' UCI info score)";
    type Error = AdjudicationError;

    fn read(words: &[String]) -> Result<ResignRule, AdjudicationError> {
        ResignRule::parse(words)
    }
}

impl WordsOption for DrawRule {
    const LONG: &'static str = "draw";
    const HELP: &'static str = "Draw adjudication, as cutechess-cli's -draw: movenumber=N movecount=N score=CP (from the engines' UCI info score)";
    type Error = AdjudicationError;

    fn read(words: &[String]) -> Result<DrawRule, AdjudicationError> {
        DrawRule::parse(words)
    }
}
