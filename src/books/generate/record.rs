//! A generated opening as a book record, and records read back (`--resume`).
//!
//! EPD, one line per opening (see docs/book.md):
//!
//! ```text
//! FIELDS hmvc H; fmvn F; ce CP; acd D; acn N; id "SP 860"; c0 "SP 860: e2e4 e7e5";
//! ```
//!
//! the four FEN fields (Shredder castling by default), the move counters, the final
//! search's score in centipawns from the side to move (EPD's `ce`), its depth and nodes
//! when the engine said them, the start's label, and the start and the moves from it in
//! UCI (king takes rook for castling). PGN: one game per opening, the start in its `FEN`
//! tag and the moves in SAN.

use std::fmt::Write as _;
use std::ops::ControlFlow;

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Outcome, Position};

use super::walk::{BookOpening, position_key};
use crate::books::book::{BookFormat, pgn_tags};
use crate::records::game_start::tag_start;
use crate::records::pgn::{self, At, TagValue};
use crate::starts::castling::{CastlingDialect, move_text};
use crate::starts::notation::{CastlingNotation, epd_fields, position_fen, start_fen};
use crate::starts::start::InvalidStart;

/// The EPD line of an opening (without the line ending).
pub fn epd_record(opening: &BookOpening, castling: CastlingNotation) -> String {
    let setup = opening.position.to_setup(EnPassantMode::Legal);
    let label = opening.start.label();
    let mut text = epd_fields(&setup, castling);
    let _ = write!(
        text,
        " hmvc {}; fmvn {}; ce {};",
        setup.halfmoves, setup.fullmoves, opening.score
    );
    if let Some(depth) = opening.depth {
        let _ = write!(text, " acd {depth};");
    }
    if let Some(nodes) = opening.nodes {
        let _ = write!(text, " acn {nodes};");
    }
    let _ = write!(text, " id \"{label}\"; c0 \"{label}:");
    for m in &opening.moves {
        text.push(' ');
        text.push_str(&move_text(m, CastlingDialect::Chess960));
    }
    text.push_str("\";");
    text
}

/// The PGN game of an opening: the seven tag roster, `[Variant "fischerandom"]`, SetUp and
/// the start's FEN, then the moves in SAN and `*`. The variant is cutechess-cli's word:
/// cutechess-cli 1.5.1 plays none of the moves of a game tagged `Chess960` (its games
/// start at the start position), while fastchess, python-chess and sp960 read both words.
pub fn pgn_record(
    opening: &BookOpening,
    castling: CastlingNotation,
) -> Result<String, InvalidStart> {
    let fen = start_fen(opening.start, castling)?;
    let mut text = pgn_tags(&opening.start.label(), "fischerandom", &fen);
    text.push('\n');
    let mut position = opening.start.position()?;
    let mut movetext = String::new();
    for (ply, m) in opening.moves.iter().enumerate() {
        if ply % 2 == 0 {
            let _ = write!(movetext, "{}. ", ply / 2 + 1);
        }
        let san = SanPlus::from_move_and_play_unchecked(&mut position, *m);
        let _ = write!(movetext, "{san} ");
    }
    movetext.push('*');
    text.push_str(&movetext);
    text.push('\n');
    Ok(text)
}

/// The text of a start's openings in `format` (PGN games separated by blank lines;
/// `first` says whether anything precedes them in the file).
pub fn render(
    openings: &[BookOpening],
    format: BookFormat,
    castling: CastlingNotation,
    first: bool,
) -> Result<String, InvalidStart> {
    let mut text = String::new();
    for (index, opening) in openings.iter().enumerate() {
        match format {
            BookFormat::Pgn => {
                if !(first && index == 0) {
                    text.push('\n');
                }
                text.push_str(&pgn_record(opening, castling)?);
            }
            BookFormat::Epd => {
                text.push_str(&epd_record(opening, castling));
                text.push('\n');
            }
            BookFormat::Fen => {
                text.push_str(&position_fen(&opening.position, castling));
                text.push('\n');
            }
        }
    }
    Ok(text)
}

/// A record read back from a book: its start's label and its position's key
/// ([`position_key`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadBackRecord {
    /// The `id` (EPD) or `Event` (PGN): `SP 860`, `DFRC 0:959`.
    pub label: String,
    /// The final position's key.
    pub key: String,
}

/// Why a book could not be read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct ReadBackError {
    /// The line (1-based).
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// Reads the records of a generated book (EPD lines, or PGN games) back.
pub fn read_back(text: &str, format: BookFormat) -> Result<Vec<ReadBackRecord>, ReadBackError> {
    match format {
        BookFormat::Pgn => read_pgn(text),
        BookFormat::Epd | BookFormat::Fen => read_epd(text),
    }
}

fn read_epd(text: &str) -> Result<Vec<ReadBackRecord>, ReadBackError> {
    let mut records = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let fail = |reason: String| ReadBackError {
            line: index + 1,
            reason,
        };
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_ascii_whitespace().take(4).collect();
        if fields.len() < 4 {
            return Err(fail("fewer than four EPD fields".into()));
        }
        let key = key_of(&fields.join(" "), index + 1)?;
        let label = quoted_after(line, "id \"").ok_or_else(|| fail("no id \"...\"".into()))?;
        records.push(ReadBackRecord { label, key });
    }
    Ok(records)
}

fn read_pgn(text: &str) -> Result<Vec<ReadBackRecord>, ReadBackError> {
    let mut reader = pgn::Reader::new(text.as_bytes());
    std::iter::from_fn(|| reader.read_game(&mut BookGames))
        .filter_map(Result::transpose)
        .collect()
}

/// A generated book's game being read back: the line of its first tag, its `Event` (the
/// start's label), the position (from its `FEN` tag, then after its moves), and whether it
/// has movetext (a game of tags alone is no record).
struct BookGame {
    line: usize,
    label: Option<String>,
    /// The tags that say the start, `(name, value, line)`, until the movetext.
    start_tags: Vec<(String, String, usize)>,
    position: Option<Chess>,
    movetext: bool,
}

/// Reads the PGN games `pgn_record` writes ([`crate::records::pgn`]).
struct BookGames;

fn fail(at: At, reason: String) -> ReadBackError {
    ReadBackError {
        line: at.line,
        reason,
    }
}

impl pgn::Visitor for BookGames {
    type Tags = BookGame;
    type Movetext = BookGame;
    type Output = Result<Option<ReadBackRecord>, ReadBackError>;

    fn begin_tags(&mut self, at: At) -> ControlFlow<Self::Output, BookGame> {
        ControlFlow::Continue(BookGame {
            line: at.line,
            label: None,
            start_tags: Vec::new(),
            position: None,
            movetext: false,
        })
    }

    fn tag(
        &mut self,
        game: &mut BookGame,
        name: &[u8],
        value: TagValue<'_>,
        at: At,
    ) -> ControlFlow<Self::Output> {
        match name {
            b"Event" => game.label = Some(value.text().into_owned()),
            b"FEN" | b"Variant" => game.start_tags.push((
                String::from_utf8_lossy(name).into_owned(),
                value.text().into_owned(),
                at.line,
            )),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    /// The start, read by the one rule of [`crate::records::game_start`].
    fn begin_movetext(
        &mut self,
        mut game: BookGame,
        _at: At,
    ) -> ControlFlow<Self::Output, BookGame> {
        let tags = game
            .start_tags
            .iter()
            .map(|(name, value, _)| (name.as_str(), value.as_str()));
        let fen = match tag_start(tags) {
            Ok(start) => start.fen,
            Err(unknown) => {
                return ControlFlow::Break(Err(ReadBackError {
                    line: game.line,
                    reason: unknown.to_string(),
                }));
            }
        };
        if let Some(fen) = fen {
            let line = game
                .start_tags
                .iter()
                .find(|(name, value, _)| name == "FEN" && value == fen)
                .map_or(game.line, |(_, _, line)| *line);
            let position = Fen::from_ascii(fen.as_bytes())
                .map_err(|err| err.to_string())
                .and_then(|fen| {
                    fen.into_position(CastlingMode::Chess960)
                        .map_err(|err| err.to_string())
                });
            match position {
                Ok(position) => game.position = Some(position),
                Err(reason) => return ControlFlow::Break(Err(ReadBackError { line, reason })),
            }
        }
        ControlFlow::Continue(game)
    }

    fn san(
        &mut self,
        game: &mut BookGame,
        san: SanPlus,
        token: &[u8],
        at: At,
    ) -> ControlFlow<Self::Output> {
        game.movetext = true;
        let word = String::from_utf8_lossy(token);
        let Some(position) = game.position.as_mut() else {
            let reason = "a game without a FEN tag".to_owned();
            return ControlFlow::Break(Err(ReadBackError {
                line: game.line,
                reason,
            }));
        };
        match san.san.to_move(position) {
            Ok(m) => {
                position.play_unchecked(m);
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(Err(fail(at, format!("illegal move '{word}'")))),
        }
    }

    fn not_san(&mut self, _game: &mut BookGame, token: &[u8], at: At) -> ControlFlow<Self::Output> {
        let word = String::from_utf8_lossy(token);
        ControlFlow::Break(Err(fail(at, format!("'{word}' is not a SAN move"))))
    }

    fn comment(&mut self, game: &mut BookGame, _: &[u8], _: At) -> ControlFlow<Self::Output> {
        game.movetext = true;
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, game: &mut BookGame, _: Outcome, _: At) -> ControlFlow<Self::Output> {
        game.movetext = true;
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: BookGame) -> Self::Output {
        if !game.movetext {
            return Ok(None);
        }
        let fail_game = |reason: &str| ReadBackError {
            line: game.line,
            reason: reason.to_owned(),
        };
        let position = game
            .position
            .ok_or_else(|| fail_game("a game without a FEN tag"))?;
        let label = game
            .label
            .ok_or_else(|| fail_game("a game without an Event tag"))?;
        Ok(Some(ReadBackRecord {
            label,
            key: position_key(&position),
        }))
    }
}

/// The key of four EPD fields (either castling notation), read on `line`.
fn key_of(fields: &str, line: usize) -> Result<String, ReadBackError> {
    let fail = |err: &dyn std::fmt::Display| ReadBackError {
        line,
        reason: format!("{fields}: {err}"),
    };
    let position: Chess = Fen::from_ascii(fields.as_bytes())
        .map_err(|err| fail(&err))?
        .into_position(CastlingMode::Chess960)
        .map_err(|err| fail(&err))?;
    Ok(position_key(&position))
}

fn quoted_after(line: &str, opener: &str) -> Option<String> {
    let rest = &line[line.find(opener)? + opener.len()..];
    Some(rest[..rest.find('"')?].to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opening(spec: &str, moves: &str, score: i32) -> BookOpening {
        BookOpening::played(spec, moves, score)
    }

    #[test]
    fn epd_record_has_counters_score_effort_id_and_moves() {
        let o = opening("860", "e2e4 e7e5", 23);
        assert_eq!(
            epd_record(&o, CastlingNotation::Shredder),
            "rbknrnbq/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RBKNRNBQ w EAea - hmvc 0; fmvn 2; ce 23; acd 9; acn 10000; id \"SP 860\"; c0 \"SP 860: e2e4 e7e5\";"
        );
        // En passant only when a capture is legal; castling king takes rook in c0.
        let o = opening("518", "e2e4 g8f6 e4e5 d7d5", -5);
        assert!(epd_record(&o, CastlingNotation::Xfen).starts_with(
            "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 hmvc 0; fmvn 3; ce -5;"
        ));
        let o = opening("0:959", "g2g3 b7b6", 0);
        assert!(epd_record(&o, CastlingNotation::Shredder).ends_with(
            "w HFca - hmvc 0; fmvn 2; ce 0; acd 9; acn 10000; id \"DFRC 0:959\"; c0 \"DFRC 0:959: g2g3 b7b6\";"
        ));
    }

    #[test]
    fn pgn_record_holds_the_start_and_san_moves() {
        let o = opening("860", "e2e4 e7e5 f1g3", 0);
        let text = pgn_record(&o, CastlingNotation::Shredder).unwrap();
        assert!(text.starts_with("[Event \"SP 860\"]\n"), "{text}");
        assert!(text.ends_with(
            "[Variant \"fischerandom\"]\n[SetUp \"1\"]\n[FEN \"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\"]\n\n1. e4 e5 2. Ng3 *\n"
        ), "{text}");
    }

    #[test]
    fn records_read_back_to_their_labels_and_positions() {
        let openings = [
            opening("860", "e2e4 e7e5", 1),
            opening("0:959", "g2g3 b7b6 e1d3", 2),
        ];
        for format in [BookFormat::Epd, BookFormat::Pgn] {
            for castling in [CastlingNotation::Shredder, CastlingNotation::Xfen] {
                let text = render(&openings[..1], format, castling, true).unwrap()
                    + &render(&openings[1..], format, castling, false).unwrap();
                let back = read_back(&text, format).unwrap();
                assert_eq!(back.len(), 2, "{text}");
                for (record, opening) in back.iter().zip(&openings) {
                    assert_eq!(record.label, opening.start.label());
                    assert_eq!(record.key, position_key(&opening.position));
                }
            }
        }
        let err = read_back("8/8 w - -\n", BookFormat::Epd).unwrap_err();
        assert_eq!(err.line, 1);
        let err = read_back(
            "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - ce 1;\n",
            BookFormat::Epd,
        )
        .unwrap_err();
        assert!(err.reason.contains("no id"), "{err}");
    }

    #[test]
    fn a_pgn_book_that_cannot_be_read_back_names_the_line() {
        let head = "[Event \"SP 860\"]\n[FEN \"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\"]\n\n";
        for (text, message) in [
            (format!("{head}1. e4 Ke3 *\n"), "line 4: illegal move 'Ke3'"),
            (format!("{head}1. e4 e5x *\n"), "line 4: 'e5x' is not a SAN move"),
            (
                "\n[Event \"SP 0\"]\n\n1. e4 *\n".to_owned(),
                "line 2: a game without a FEN tag",
            ),
            (
                "[Site \"?\"]\n[FEN \"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\"]\n\n*\n"
                    .to_owned(),
                "line 1: a game without an Event tag",
            ),
            (
                "[Event \"x\"]\n[FEN \"8/8 w - - 0 1\"]\n\n*\n".to_owned(),
                "line 2: ",
            ),
        ] {
            let err = read_back(&text, BookFormat::Pgn).unwrap_err().to_string();
            assert!(err.starts_with(message), "{text:?}: {err}");
        }
        // Tags alone (a record cut before its moves) are no record.
        assert_eq!(read_back(head, BookFormat::Pgn).unwrap(), []);
    }
}
