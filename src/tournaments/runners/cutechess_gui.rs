//! Cute Chess GUI's dialect: cutechess-cli's words but for the engines' names and keys, and
//! no line to run (the GUI reads files; [`crate::tournaments::cutechess_gui_files`] writes them).

use std::path::Path;

use super::cutechess::Cutechess;
use super::cutechess_like;
use super::{Dialect, PgnVariantRefusal, Rendered, RunnerCommand};
use crate::books::book::BookFormat;
use crate::launch::spec::{KeyRefusals, SpecKey};
use crate::tournaments::error::TournamentError;

/// The variant the entries are listed under (Cute Chess's name for Chess960).
pub(crate) const VARIANT: &str = "fischerandom";

/// Cute Chess GUI: it plays as cutechess-cli does (one library), so the cutechess-cli line
/// is planned, and its engines, book and notes are what the GUI's files are made from.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CutechessGui;

/// The GUI's files have no place for these: they are set in its dialogs.
const TIME_IN_DIALOG: &str =
    "by Cute Chess GUI's engines.json (set the time control in Tournament > New: use --tc)";

impl Dialect for CutechessGui {
    fn name(&self) -> &'static str {
        "Cute Chess"
    }

    fn program(&self) -> &'static str {
        Cutechess.program()
    }

    fn unsupported_keys(&self) -> &'static KeyRefusals {
        &[
            (SpecKey::Tc, TIME_IN_DIALOG),
            (SpecKey::St, TIME_IN_DIALOG),
            (
                SpecKey::Depth,
                "by Cute Chess GUI's engines.json (set Plies in the tournament's time control)",
            ),
            (
                SpecKey::Nodes,
                "by Cute Chess GUI's engines.json (set Nodes in the tournament's time control)",
            ),
        ]
    }

    /// The program's stem and `-960` (`stockfish-960`), so that an entry of the user's own
    /// for the engine is not replaced.
    fn default_name(&self, program: &str) -> String {
        let stem = Path::new(program)
            .file_stem()
            .and_then(|stem| stem.to_str())
            .unwrap_or(program);
        format!("{stem}-960")
    }

    fn sends_uci_variant(&self) -> bool {
        Cutechess.sends_uci_variant()
    }

    fn book_format(&self, asked: BookFormat) -> BookFormat {
        cutechess_like::book_format(asked)
    }

    fn refuses_pgn_book(&self, text: &str) -> Option<PgnVariantRefusal> {
        Cutechess.refuses_pgn_book(text)
    }

    fn render(&self, command: &RunnerCommand) -> Result<Rendered, TournamentError> {
        Cutechess.render(command)
    }

    fn writes_files(&self) -> bool {
        true
    }
}
