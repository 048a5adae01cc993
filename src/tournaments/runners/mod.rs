//! The match runners sp960 writes for, one file each: [`cutechess`] (cutechess-cli),
//! [`fastchess`], [`xboard`] and [`cutechess_gui`] (Cute Chess GUI's; `tournaments::cutechess_gui_files`
//! writes its files). Each is a
//! [`Dialect`]: what the runner can drive and how it is told, and how it renders the one
//! runner-neutral [`RunnerCommand`] (`command.rs`) that `tournament.rs` builds once, as a
//! command line ([`CommandLine`]) and the book it reads. cutechess-cli and fastchess share most of
//! their syntax (`cutechess_like.rs`: each gives its words for what differs). The runners a
//! match can be handed to (`sp960 match --runner`) also have a [`HandoffDialect`]: the
//! order in which they take a book's openings and how they number the games in their PGN.
//!
//! A new runner is a new file here with its `Dialect`, and a [`Tool`] variant (and, to
//! take a handed-off match, its `HandoffDialect` and a `handoff::Runner` variant).

pub(crate) mod command;
pub(crate) mod cutechess;
pub(crate) mod cutechess_gui;
mod cutechess_like;
pub(crate) mod fastchess;
pub(crate) mod xboard;

use std::ops::ControlFlow;

use thiserror::Error;

pub(crate) use command::{
    Adjudication, CommandLine, Entrant, Openings, Run, RunnerCommand, RunnerLaunch, Schedule,
    TournamentKind,
};

use super::error::TournamentError;
use crate::books::book::BookFormat;
use crate::launch::spec::KeyRefusals;
use crate::starts::notation::CastlingNotation;

/// The match runner to write a command line for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Tool {
    /// cutechess-cli (UCI and XBoard engines, any number).
    Cutechess,
    /// fastchess (UCI engines only).
    Fastchess,
    /// xboard 4.9 in match mode (two engines; UCI ones through polyglot).
    Xboard,
    /// Cute Chess GUI: entries in its engines.json, one launcher per engine, and the
    /// steps of its Tournament > New dialog.
    CutechessGui,
}

impl Tool {
    /// What sp960 knows about the runner, and how it writes for it.
    pub(crate) fn dialect(self) -> &'static dyn Dialect {
        match self {
            Tool::Cutechess => &cutechess::Cutechess,
            Tool::Fastchess => &fastchess::Fastchess,
            Tool::Xboard => &xboard::Xboard,
            Tool::CutechessGui => &cutechess_gui::CutechessGui,
        }
    }
}

/// One match runner: what it can drive, how its engines must be given to it, and its
/// rendering of a [`RunnerCommand`]. The defaults are what most runners do.
pub(crate) trait Dialect: Sync {
    /// The runner's name in notes and errors.
    fn name(&self) -> &'static str;

    /// The program its command line starts (looked up on PATH when sp960 runs it).
    fn program(&self) -> &'static str;

    /// The engine keys it cannot be given, with the reason.
    fn unsupported_keys(&self) -> &'static KeyRefusals {
        &[]
    }

    /// Refuses a number of engines it cannot play.
    fn check_engine_count(&self, count: usize) -> Result<(), TournamentError> {
        if count < 2 {
            return Err(TournamentError::EngineCount(format!(
                "a tournament needs at least 2 engines; {count} given"
            )));
        }
        Ok(())
    }

    /// An engine's name when `name=` gives none (made unique afterwards).
    fn default_name(&self, program: &str) -> String {
        program.to_owned()
    }

    /// Whether it drives XBoard engines (sp960 proxy does not translate between protocols).
    fn drives_xboard(&self) -> bool {
        true
    }

    /// Whether it sends a UCI engine `UCI_Variant chess960` instead of `UCI_Chess960`, so
    /// that engines with a `UCI_Variant` option stay in standard chess.
    fn sends_uci_variant(&self) -> bool {
        false
    }

    /// Whether an engine's `Threads` go as the runner's cores (xboard's `-smpCores`, which
    /// polyglot passes on) instead of an `option.Threads=N`.
    fn threads_as_cores(&self) -> bool {
        false
    }

    /// The format of the book it reads when `asked` is asked for.
    fn book_format(&self, asked: BookFormat) -> BookFormat;

    /// Why it cannot play a book given as it is (`--openings`), if it cannot.
    fn refuses_given_book(&self) -> Option<&'static str> {
        None
    }

    /// Why it would not play the moves of this PGN book (`--openings`, its text) in
    /// Chess960, if it would not: cutechess-cli 1.5.1 plays a PGN book game's moves in
    /// Chess960 only under `[Variant "fischerandom"]`.
    fn refuses_pgn_book(&self, _text: &str) -> Option<PgnVariantRefusal> {
        None
    }

    /// The command line that plays `command`, the book it reads when sp960 writes one, and
    /// notes on what was changed to suit the runner.
    fn render(&self, command: &RunnerCommand) -> Result<Rendered, TournamentError>;

    /// Whether it is given files instead of a command line (`--emit cutechess-gui`).
    fn writes_files(&self) -> bool {
        false
    }
}

/// A [`RunnerCommand`] in a runner's words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Rendered {
    /// The command line.
    pub(crate) line: CommandLine,
    /// The book to write at the path the command names, if the command reads one.
    pub(crate) book: Option<String>,
    /// What was changed to suit the runner, for stderr.
    pub(crate) notes: Vec<String>,
}

/// A match handed to a runner, as its schedule sees it: each matchup (a pair of engines)
/// meets each opening `rounds` times, a game pair (`-games 2 -repeat`) an encounter; one
/// cycle (`-rounds 1`) holds one encounter per matchup, and the match takes
/// `openings × rounds` cycles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Encounters {
    /// The engines.
    pub(crate) engines: usize,
    /// The matchups (encounters per cycle).
    pub(crate) matchups: usize,
    /// Whether the first engine meets each other one only (`--gauntlet`).
    pub(crate) gauntlet: bool,
    /// The openings given.
    pub(crate) openings: usize,
    /// `--rounds`.
    pub(crate) rounds: usize,
}

impl Encounters {
    /// The runner's `-rounds`: `openings × rounds`.
    pub(crate) fn cycles(&self) -> usize {
        self.openings * self.rounds
    }
}

/// Why a runner's schedule cannot play the match as the built-in runner would.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub(crate) struct ScheduleRefused(pub(crate) String);

/// A game's `Round` tag names another matchup's encounter (fastchess numbers its games
/// matchup by matchup).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OtherMatchup;

/// How a runner plays a handed-off match: the order it takes a book's openings in, how it
/// numbers the games it writes, and what it writes into its PGN.
pub(crate) trait HandoffDialect: Sync + std::fmt::Debug {
    /// The opening of each book entry, in the order the runner takes them, so that every
    /// matchup meets every opening `rounds` times; refused when it cannot.
    fn book_order(&self, encounters: &Encounters) -> Result<Vec<usize>, ScheduleRefused>;

    /// The cycle (0-based) of a game of matchup `matchup` from its `Round` tag less one.
    fn cycle(
        &self,
        encounters: &Encounters,
        round_index: usize,
        matchup: usize,
    ) -> Result<usize, OtherMatchup>;

    /// Why it cannot run `--sprt` as sp960 means it, if it cannot.
    fn refuses_sprt(&self) -> Option<&'static str> {
        None
    }

    /// The castling notation of the FENs in the book sp960 writes for it (it reads
    /// Shredder-FEN `HAha`; what it writes back into its PGN is read in either notation).
    fn book_castling(&self) -> CastlingNotation {
        CastlingNotation::Shredder
    }
}

/// A PGN book whose `[Variant ...]` is not `fischerandom`, for cutechess-cli, which plays
/// a book game's moves in Chess960 only under that name: under any other its games start
/// at the root.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "cutechess-cli plays the moves of a PGN book in Chess960 only under [Variant \"fischerandom\"]; \
     with {tag} it would start every game at the root, without the opening's moves (use \
     --emit fastchess, or an EPD book)"
)]
pub(crate) struct PgnVariantRefusal {
    /// The line of the tag (1-based).
    pub(crate) line: usize,
    /// The tag as written (trimmed).
    pub(crate) tag: String,
}

impl PgnVariantRefusal {
    /// The first `Variant` tag of `text`'s games, read by the one PGN reader
    /// ([`crate::records::pgn`]), that does not name `fischerandom`.
    pub(crate) fn first_in(text: &str) -> Option<PgnVariantRefusal> {
        let mut reader = crate::records::pgn::Reader::new(text.as_bytes());
        let mut variants = VariantTags { text };
        std::iter::from_fn(|| reader.read_game(&mut variants)).find_map(|refusal| refusal)
    }
}

/// Reads each game's `Variant` tags for [`PgnVariantRefusal::first_in`]: a game answers
/// the first that is not `fischerandom`.
struct VariantTags<'t> {
    text: &'t str,
}

impl crate::records::pgn::Visitor for VariantTags<'_> {
    type Tags = ();
    type Movetext = ();
    type Output = Option<PgnVariantRefusal>;

    fn begin_tags(&mut self, _at: crate::records::pgn::At) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    fn tag(
        &mut self,
        _tags: &mut (),
        name: &[u8],
        value: crate::records::pgn::TagValue<'_>,
        at: crate::records::pgn::At,
    ) -> ControlFlow<Self::Output> {
        if name != b"Variant" || value.0 == b"fischerandom" {
            return ControlFlow::Continue(());
        }
        // The tag line as written: from the tag's `[` to the end of its line.
        let rest = self.text.get(at.offset..).unwrap_or_default();
        let line = rest.lines().next().unwrap_or_default().trim();
        ControlFlow::Break(Some(PgnVariantRefusal {
            line: at.line,
            tag: line.to_owned(),
        }))
    }

    fn begin_movetext(
        &mut self,
        _tags: (),
        _at: crate::records::pgn::At,
    ) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _movetext: ()) -> Self::Output {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// cutechess-cli (and the GUI, its dialect) refuses a PGN book under another Variant
    /// name, naming the line; fastchess and xboard take it.
    #[test]
    fn only_cutechess_refuses_a_pgn_book_under_another_variant() {
        let text = "[Event \"?\"]\n[Variant \"Chess960\"]\n[FEN \"x\"]\n\n1. e4 *\n";
        let refusal = cutechess::Cutechess.refuses_pgn_book(text).unwrap();
        assert_eq!(refusal.line, 2);
        assert_eq!(refusal.tag, "[Variant \"Chess960\"]");
        assert!(
            refusal
                .to_string()
                .contains("with [Variant \"Chess960\"] it would start")
        );
        assert!(cutechess_gui::CutechessGui.refuses_pgn_book(text).is_some());
        assert!(fastchess::Fastchess.refuses_pgn_book(text).is_none());
        let fischerandom = text.replace("Chess960", "fischerandom");
        assert!(
            cutechess::Cutechess
                .refuses_pgn_book(&fischerandom)
                .is_none()
        );
    }
}
