//! fastchess: UCI engines only (sp960 proxy does not translate between protocols). It sets
//! `UCI_Chess960` itself, takes an engine's arguments as one `args=` it splits at spaces,
//! reads an EPD or PGN book and writes Shredder-FEN castling (`HAha`) into its PGN.
//!
//! Handed a match, it cuts the book to `-rounds` entries and gives encounter `k` (its
//! `Round` tag less one, matchups in the built-in runner's order) entry `k` modulo the book,
//! so entry `i` is opening `(i / g) % openings`, `g` the greatest common divisor of the
//! matchups and the cycles; that reaches every matchup with every opening only when `g`
//! divides `--rounds` (refused otherwise).

use crate::books::book::BookFormat;
use crate::launch::spec::{KeyRefusals, SpecKey};
use crate::tournaments::error::TournamentError;

use super::cutechess_like::{self, Args, Words};
use super::{
    Dialect, Encounters, HandoffDialect, OtherMatchup, Rendered, RunnerCommand, ScheduleRefused,
};

/// fastchess.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fastchess;

const WORDS: Words = Words {
    name: "fastchess",
    args: Args::SplitAtSpaces,
    pgn_out_key: true,
    round_robin: "roundrobin",
};

impl Dialect for Fastchess {
    fn name(&self) -> &'static str {
        "fastchess"
    }

    fn program(&self) -> &'static str {
        "fastchess"
    }

    fn unsupported_keys(&self) -> &'static KeyRefusals {
        &[(
            SpecKey::Initstr,
            "by fastchess (it has no initstr; send options with option.NAME=VALUE)",
        )]
    }

    fn drives_xboard(&self) -> bool {
        false
    }

    fn book_format(&self, asked: BookFormat) -> BookFormat {
        cutechess_like::book_format(asked)
    }

    fn render(&self, command: &RunnerCommand) -> Result<Rendered, TournamentError> {
        cutechess_like::render(&WORDS, command)
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

impl HandoffDialect for Fastchess {
    fn book_order(&self, encounters: &Encounters) -> Result<Vec<usize>, ScheduleRefused> {
        let Encounters {
            matchups: count,
            openings,
            rounds,
            ..
        } = *encounters;
        let cycles = encounters.cycles();
        let g = gcd(count, cycles);
        if !rounds.is_multiple_of(g) {
            return Err(ScheduleRefused(format!(
                "fastchess gives each of the {count} pairings in turn the next \
                 opening of a book it cuts to -rounds ({cycles}) openings, so \
                 {openings} openings × {rounds} rounds would not reach every \
                 pairing with every opening; give --rounds a multiple of {count}, \
                 or use --runner cutechess"
            )));
        }
        Ok((0..cycles).map(|i| (i / g) % openings).collect())
    }

    fn cycle(
        &self,
        encounters: &Encounters,
        round_index: usize,
        matchup: usize,
    ) -> Result<usize, OtherMatchup> {
        let count = encounters.matchups;
        if round_index % count != matchup {
            return Err(OtherMatchup);
        }
        Ok(round_index / count)
    }
}
