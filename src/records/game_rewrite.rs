//! PGN games rewritten for the tool that will read them (`sp960 normalize` on PGN), byte for
//! byte elsewhere: in a Chess960 game the `Variant` tag in one spelling (added where
//! missing), `SetUp "1"` beside the `FEN` tag, one `FEN` tag kept, its FEN canonical (in the
//! castling notation asked), and castling written `0-0` as `O-O`. A game that does not
//! replay ([`super::game`]) is copied unchanged and its errors handed back. Sans-IO: text in,
//! text and findings out.

use std::ops::ControlFlow;
use std::str::FromStr;

use shakmaty::san::{San, SanPlus};

use super::check::CheckOptions;
use super::game::{Finding, Severity, check_games};
use super::pgn::{At, Reader, Visitor, game_starts};
use super::pgn_tag::pgn_tag;
use super::record::{Line, check_line};
use crate::starts::notation::CastlingNotation;

/// The `Variant` tag's value written in Chess960 games: a spelling the reading tool
/// accepts. Presets by the tool's name; any other value must be a Chess960 spelling sp960
/// reads ([`crate::starts::variant::CHESS960_VARIANTS`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantSpelling(pub String);

impl Default for VariantSpelling {
    fn default() -> VariantSpelling {
        VariantSpelling("Chess960".to_owned())
    }
}

/// The presets: the tool, and the spelling it reads.
pub const VARIANT_PRESETS: &[(&str, &str)] = &[
    // cutechess-cli 1.5.1 looks the lowercased tag up among its variants' names.
    ("cutechess", "fischerandom"),
    // python-chess 1.11.2: chess960, chess 960, fischerandom, fischerrandom, fischer random.
    ("python-chess", "Chess960"),
    // pgn-extract 19.04 recognises only this one.
    ("pgn-extract", "chess 960"),
    // lichess writes and imports Chess960.
    ("lichess", "Chess960"),
];

/// A `--variant-tag` value that is neither a preset nor a Chess960 spelling.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{0}' is no Chess960 spelling sp960 reads (presets: cutechess, python-chess, pgn-extract, \
     lichess; or a spelling such as Chess960, fischerandom, chess 960)"
)]
pub struct UnknownSpelling(String);

impl FromStr for VariantSpelling {
    type Err = UnknownSpelling;

    fn from_str(text: &str) -> Result<VariantSpelling, UnknownSpelling> {
        if let Some((_, spelling)) = VARIANT_PRESETS.iter().find(|(tool, _)| *tool == text) {
            return Ok(VariantSpelling((*spelling).to_owned()));
        }
        if super::game::is_chess960_variant(text) && !text.contains('"') {
            Ok(VariantSpelling(text.to_owned()))
        } else {
            Err(UnknownSpelling(text.to_owned()))
        }
    }
}

/// How games are rewritten.
#[derive(Debug, Clone)]
pub struct RewriteOptions {
    /// How starts are checked.
    pub check: CheckOptions,
    /// The FEN's castling notation.
    pub castling: CastlingNotation,
    /// The `Variant` tag's value in Chess960 games.
    pub variant: VariantSpelling,
}

/// A piece of whole games, rewritten.
#[derive(Debug, Default)]
pub struct Rewritten {
    /// The text to write.
    pub text: Vec<u8>,
    /// Errors of the games copied unchanged.
    pub errors: Vec<Finding>,
}

/// Rewrites `text`, whole games that begin `lines_before` lines into their file.
pub fn rewrite_games(text: &[u8], lines_before: usize, options: &RewriteOptions) -> Rewritten {
    let mut rewritten = Rewritten::default();
    let mut from = 0;
    let mut line = lines_before;
    let starts: Vec<usize> = game_starts(text).chain([text.len()]).collect();
    for end in starts {
        let game = &text[from..end];
        rewrite_game(game, line, options, &mut rewritten);
        line += memchr::memchr_iter(b'\n', game).count();
        from = end;
    }
    rewritten
}

fn rewrite_game(game: &[u8], lines_before: usize, options: &RewriteOptions, out: &mut Rewritten) {
    let verdicts = check_games(game, options.check, lines_before);
    let errors: Vec<Finding> = verdicts
        .iter()
        .flat_map(|v| v.findings.iter())
        .filter(|f| f.severity == Severity::Error)
        .cloned()
        .collect();
    if !errors.is_empty() {
        out.text.extend_from_slice(game);
        out.errors.extend(errors);
        return;
    }
    let chess960 = verdicts.first().is_some_and(|v| v.chess960);
    // Castling written with zeros, where it is a move: `0-0` becomes `O-O`, same length.
    let mut text = game.to_vec();
    let mut zeros = ZeroCastles::default();
    let mut reader = Reader::new(game);
    while reader.read_game(&mut zeros).is_some() {}
    for offset in zeros.offsets {
        for byte in &mut text[offset..] {
            match *byte {
                b'0' => *byte = b'O',
                b'-' => {}
                _ => break,
            }
        }
    }
    rewrite_tags(&text, chess960, options, &mut out.text);
}

/// The tag lines at the start of `game` rewritten, the rest copied.
fn rewrite_tags(game: &[u8], chess960: bool, options: &RewriteOptions, out: &mut Vec<u8>) {
    // The tag lines: from the start, tags and blank lines, up to the first other line.
    let mut tags = Vec::new();
    let mut at = 0;
    while at < game.len() {
        let end = memchr::memchr(b'\n', &game[at..]).map_or(game.len(), |n| at + n + 1);
        let line = &game[at..end];
        let body = line.strip_suffix(b"\n").unwrap_or(line);
        let body = body.strip_suffix(b"\r").unwrap_or(body);
        let blank = body.iter().all(u8::is_ascii_whitespace);
        match pgn_tag(body) {
            Some((name, value)) => tags.push((
                at..end,
                body[name].to_vec(),
                body[value].to_vec(),
                &line[body.len()..],
            )),
            None if blank => tags.push((at..end, Vec::new(), Vec::new(), &line[body.len()..])),
            None => break,
        }
        at = end;
    }
    let has = |tag: &[u8]| tags.iter().any(|(_, name, _, _)| name == tag);
    let (has_variant, has_setup) = (has(b"Variant"), has(b"SetUp"));
    let mut fen_written = false;
    let variant_line = |end: &[u8]| {
        let mut line = format!("[Variant \"{}\"]", options.variant.0).into_bytes();
        line.extend_from_slice(end);
        line
    };
    for (range, name, value, end) in &tags {
        let end = if end.is_empty() { &b"\n"[..] } else { end };
        match name.as_slice() {
            b"Variant" if chess960 => out.extend(variant_line(end)),
            b"SetUp" if has(b"FEN") => out.extend_from_slice(&[b"[SetUp \"1\"]", end].concat()),
            b"FEN" if fen_written => {}
            b"FEN" => {
                fen_written = true;
                if chess960 && !has_variant {
                    out.extend(variant_line(end));
                }
                if !has_setup {
                    out.extend_from_slice(&[b"[SetUp \"1\"]", end].concat());
                }
                let fen = match check_line(value, &options.check) {
                    Line::Record(Ok(record)) => record.canonical(options.castling).into_bytes(),
                    _ => value.clone(),
                };
                out.extend_from_slice(b"[FEN \"");
                out.extend_from_slice(&fen);
                out.extend_from_slice(b"\"]");
                out.extend_from_slice(end);
            }
            _ => out.extend_from_slice(&game[range.clone()]),
        }
    }
    out.extend_from_slice(&game[at..]);
}

/// Where castling is written with zeros (`0-0`, `0-0-0`) in the moves of a text.
#[derive(Default)]
struct ZeroCastles {
    offsets: Vec<usize>,
}

impl Visitor for ZeroCastles {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self, _at: At) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: (), _at: At) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }

    fn san(&mut self, _: &mut (), san: SanPlus, token: &[u8], at: At) -> ControlFlow<()> {
        if matches!(san.san, San::Castle(_))
            && let Some(index) = memchr::memmem::find(token, b"0-0")
        {
            self.offsets.push(at.offset + index);
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut (), _at: At) -> ControlFlow<(), super::pgn::Skip> {
        ControlFlow::Continue(super::pgn::Skip(false))
    }

    fn end_game(&mut self, _movetext: ()) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewrite(text: &str, variant: &str) -> (String, usize) {
        let options = RewriteOptions {
            check: CheckOptions::default(),
            castling: CastlingNotation::Shredder,
            variant: variant.parse().unwrap(),
        };
        let rewritten = rewrite_games(text.as_bytes(), 0, &options);
        (
            String::from_utf8(rewritten.text).unwrap(),
            rewritten.errors.len(),
        )
    }

    const SP860_XFEN: &str = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w KQkq - 0 1";
    const SP860: &str = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1";

    #[test]
    fn a_chess_com_game_gets_variant_and_setup_and_o_o() {
        // chess.com: FEN without SetUp, `chess 960`-less; lichess broadcasts: two FENs.
        let text = format!(
            "[Event \"x\"]\r\n[FEN \"{SP860_XFEN}\"]\r\n[FEN \"{SP860}\"]\r\n\r\n1. Nc3 Nc6 2. Ne3 Ne6 3. f4 f5 4. Bf2 Bf7 5.0-0 {{0-0 in a comment}} 0-0 *\r\n\r\n"
        );
        let (out, errors) = rewrite(&text, "pgn-extract");
        assert_eq!(errors, 0);
        assert_eq!(
            out,
            format!(
                "[Event \"x\"]\r\n[Variant \"chess 960\"]\r\n[SetUp \"1\"]\r\n[FEN \"{SP860}\"]\r\n\r\n1. Nc3 Nc6 2. Ne3 Ne6 3. f4 f5 4. Bf2 Bf7 5.O-O {{0-0 in a comment}} O-O *\r\n\r\n"
            )
        );
    }

    #[test]
    fn spellings_are_replaced_and_bad_games_copied() {
        let text =
            format!("[Variant \"fischerandom\"]\n[SetUp \"1\"]\n[FEN \"{SP860}\"]\n\n1. e4 *\n");
        let (out, _) = rewrite(&text, "Chess960");
        assert!(
            out.starts_with("[Variant \"Chess960\"]\n[SetUp \"1\"]\n"),
            "{out}"
        );
        // A standard game keeps its tags.
        let (out, _) = rewrite("[Event \"s\"]\n\n1. e4 e5 *\n", "cutechess");
        assert_eq!(out, "[Event \"s\"]\n\n1. e4 e5 *\n");
        // A game that does not replay is copied as it is, and its error handed back.
        let bad = format!("[FEN \"{SP860}\"]\n\n1. e4 e5 2. Qxh7 0-0 *\n");
        assert_eq!(rewrite(&bad, "Chess960"), (bad.clone(), 1));
        assert!("Atomic".parse::<VariantSpelling>().is_err());
        assert_eq!(
            "cutechess".parse::<VariantSpelling>().unwrap().0,
            "fischerandom"
        );
    }
}
