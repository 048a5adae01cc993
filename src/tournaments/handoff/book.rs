//! The book the runner plays and the tournament sp960 plans for it.

use std::path::{Path, PathBuf};

use crate::books::book::{BookFormat, pgn_tags};
use crate::books::openings::Opening;
use crate::launch::spec::EngineSpec;
use crate::matches::config::request::MatchConfig;
use crate::starts::notation::{CastlingNotation, position_fen};
use crate::starts::start::Start;
use crate::tournaments::tournament::{MatchOptions, Tournament, TournamentPlan};

use super::Runner;
use super::schedule::Layout;

/// The book the runner plays, next to the PGN file: `sp960 tournament`'s EPD of numbered
/// starts or, with `--openings`, the openings sp960 chose (checked, cut to plies=, from
/// start=, count=, order=) as a PGN book the runner plays in order.
pub(super) struct Book {
    /// The starts, when every opening is a numbered start without moves.
    numbered: Option<Vec<Start>>,
    format: BookFormat,
    /// Where it is written.
    pub(super) path: PathBuf,
}

impl Book {
    pub(super) fn new(config: &MatchConfig) -> Book {
        let numbered: Option<Vec<Start>> = config
            .openings
            .iter()
            .map(|opening| {
                opening
                    .moves
                    .is_empty()
                    .then(|| opening.label.parse().ok())
                    .flatten()
            })
            .collect();
        let format = if numbered.is_some() {
            BookFormat::Epd
        } else {
            BookFormat::Pgn
        };
        Book {
            numbered,
            format,
            path: book_path(&config.pgn, format),
        }
    }

    /// The tournament `sp960 tournament` would plan for the match: its engines, this book
    /// in the layout's order, the clock, the PGN file and the concurrency, with what the
    /// match adds (`options`).
    pub(super) fn tournament(
        &self,
        config: &MatchConfig,
        runner: Runner,
        layout: &Layout,
        engines: Vec<EngineSpec>,
        sp960: &Path,
        options: MatchOptions,
    ) -> Tournament {
        let placeholder: Start = "518".parse().expect("a valid start");
        let starts = layout
            .book
            .iter()
            .map(|&index| {
                self.numbered
                    .as_ref()
                    .map_or(placeholder, |starts| starts[index])
            })
            .collect();
        Tournament {
            tool: runner.tool(),
            engines,
            starts,
            time_control: config.limits.clock.clone(),
            book: self.path.display().to_string(),
            book_format: self.format,
            castling: runner.schedule().book_castling(),
            pgn_out: config.pgn.display().to_string(),
            concurrency: Some(u32::try_from(config.concurrency).unwrap_or(u32::MAX)),
            sp960: sp960.display().to_string(),
            other_roots: match self.numbered {
                Some(_) => Vec::new(),
                None => config
                    .openings
                    .iter()
                    .map(|opening| (opening.label.clone(), opening.root.clone()))
                    .collect(),
            },
            match_options: options,
        }
    }

    /// The book's text: the plan's EPD, or the PGN book of the openings.
    pub(super) fn text(
        &self,
        plan: &TournamentPlan,
        config: &MatchConfig,
        runner: Runner,
        layout: &Layout,
    ) -> String {
        match self.numbered {
            Some(_) => plan
                .book
                .clone()
                .expect("cutechess-cli and fastchess read a book"),
            None => pgn_book(
                &config.openings,
                &layout.book,
                runner.schedule().book_castling(),
            ),
        }
    }
}

/// The book next to the PGN file, named for this process (`games.pgn.12345-FRC.epd`).
pub(super) fn book_path(pgn: &Path, format: BookFormat) -> PathBuf {
    let mut name = pgn.file_name().unwrap_or_default().to_os_string();
    name.push(format!(
        ".{}-FRC.{}",
        std::process::id(),
        format.extension()
    ));
    pgn.with_file_name(name)
}

/// The PGN book of `order` (indices into `openings`): each opening's root as `FEN` and its
/// moves in SAN. cutechess-cli 1.5.1 plays a book game's moves in Chess960 only under
/// `[Variant "fischerandom"]` (not `Chess960`); fastchess reads the `FEN` and the moves.
pub(super) fn pgn_book(
    openings: &[Opening],
    order: &[usize],
    castling: CastlingNotation,
) -> String {
    use shakmaty::Position as _;
    use std::fmt::Write as _;
    let mut text = String::new();
    for &index in order {
        let opening = &openings[index];
        let label = opening.label.replace('\\', "\\\\").replace('"', "\\\"");
        let fen = position_fen(&opening.root, castling);
        text.push_str(&pgn_tags(&label, "fischerandom", &fen));
        text.push('\n');
        let mut position = opening.root.clone();
        for (ply, m) in opening.moves.iter().enumerate() {
            let number = position.fullmoves().get();
            if position.turn().is_white() {
                let _ = write!(text, "{number}. ");
            } else if ply == 0 {
                let _ = write!(text, "{number}... ");
            }
            let san = shakmaty::san::SanPlus::from_move_and_play_unchecked(&mut position, *m);
            let _ = write!(text, "{san} ");
        }
        text.push_str("*\n\n");
    }
    text
}
