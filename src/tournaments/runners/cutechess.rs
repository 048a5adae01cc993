//! cutechess-cli 1.5.1: UCI and XBoard engines, any number. It sends an XBoard engine
//! castling as `O-O`/`O-O-O` in `fischerandom`, and a UCI engine that declares
//! `UCI_Variant` the variant `chess960` instead of `UCI_Chess960`; it reads an EPD or PGN
//! book (a PGN book game's moves in Chess960 only under `[Variant "fischerandom"]`) and
//! writes X-FEN castling (`KQkq`) into its PGN.
//!
//! Handed a match, it takes the next book entry for each encounter, so a cycle's entries
//! are its opening, once per matchup; its `Round` tag counts Berger rounds (round-robin:
//! the engines rounded up to even, less one, per cycle) or cycles (gauntlet).

use crate::books::book::BookFormat;
use crate::tournaments::error::TournamentError;

use super::ScheduleRefused;
use super::cutechess_like::{self, Args, Words};
use super::{
    Dialect, Encounters, HandoffDialect, OtherMatchup, PgnVariantRefusal, Rendered, RunnerCommand,
};

/// cutechess-cli.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cutechess;

const WORDS: Words = Words {
    name: "cutechess-cli",
    args: Args::EachArg,
    pgn_out_key: false,
    round_robin: "round-robin",
};

impl Dialect for Cutechess {
    fn name(&self) -> &'static str {
        "cutechess-cli"
    }

    fn program(&self) -> &'static str {
        "cutechess-cli"
    }

    fn sends_uci_variant(&self) -> bool {
        true
    }

    fn book_format(&self, asked: BookFormat) -> BookFormat {
        cutechess_like::book_format(asked)
    }

    fn refuses_pgn_book(&self, text: &str) -> Option<PgnVariantRefusal> {
        PgnVariantRefusal::first_in(text)
    }

    fn render(&self, command: &RunnerCommand) -> Result<Rendered, TournamentError> {
        cutechess_like::render(&WORDS, command)
    }
}

impl HandoffDialect for Cutechess {
    fn book_order(&self, encounters: &Encounters) -> Result<Vec<usize>, ScheduleRefused> {
        let count = encounters.matchups;
        Ok((0..encounters.cycles() * count)
            .map(|k| (k / count) % encounters.openings)
            .collect())
    }

    fn cycle(
        &self,
        encounters: &Encounters,
        round_index: usize,
        _matchup: usize,
    ) -> Result<usize, OtherMatchup> {
        Ok(round_index / rounds_per_cycle(encounters))
    }

    fn refuses_sprt(&self) -> Option<&'static str> {
        Some(
            "--sprt is fastchess's SPRT (pentanomial, over game pairs); cutechess-cli's -sprt \
             uses another model, game by game: use --runner fastchess",
        )
    }
}

/// cutechess-cli's `Round` tags per cycle: Berger rounds in a round-robin (the engines
/// rounded up to even, less one), one in a gauntlet.
pub(crate) fn rounds_per_cycle(encounters: &Encounters) -> usize {
    let engines = encounters.engines;
    if encounters.gauntlet {
        1
    } else {
        engines + engines % 2 - 1
    }
}
