//! Opening books of numbered starts, as match runners read them: EPD lines with
//! `id "SP n";`, PGN games with `[Variant "Chess960"]`, `[SetUp "1"]`, `[FEN ...]` and no
//! moves, or bare FEN lines (xboard's position files). The same request always gives the
//! same bytes.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::Path;

use thiserror::Error;

use crate::starts::notation::{CastlingNotation, start_epd, start_fen};
use crate::starts::start::{InvalidStart, Start};

/// The file format of a book.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum BookFormat {
    /// One EPD record per line: four fields and `id "SP n";` (`format=epd` in cutechess-cli
    /// and fastchess).
    #[default]
    Epd,
    /// One moveless PGN game per start, with Variant, SetUp and FEN tags (`format=pgn`).
    Pgn,
    /// One six-field FEN per line (an xboard `-loadPositionFile`).
    Fen,
}

impl BookFormat {
    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            BookFormat::Epd => "epd",
            BookFormat::Pgn => "pgn",
            BookFormat::Fen => "fen",
        }
    }
}

pub use crate::starts::request::{BookError, BookRequest};

/// One moveless PGN game that starts from `start`.
pub fn pgn_entry(start: Start, castling: CastlingNotation) -> Result<String, InvalidStart> {
    let fen = start_fen(start, castling)?;
    let mut text = pgn_tags(&start.label(), "Chess960", &fen);
    text.push_str("\n*\n");
    Ok(text)
}

/// The tag section of a book game that starts from FEN text `fen`: the seven roster tags
/// with `event` (the start's label, escaped for PGN) as Event, then Variant, SetUp and FEN.
pub(crate) fn pgn_tags(event: &str, variant: &str, fen: &str) -> String {
    let mut text = String::new();
    let tags = [
        ("Event", event),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", "-"),
        ("White", "?"),
        ("Black", "?"),
        ("Result", "*"),
        ("Variant", variant),
        ("SetUp", "1"),
        ("FEN", fen),
    ];
    for (name, value) in tags {
        let _ = writeln!(text, "[{name} \"{value}\"]");
    }
    text
}

/// The whole book text for `starts`.
pub fn render(
    starts: &[Start],
    format: BookFormat,
    castling: CastlingNotation,
) -> Result<String, InvalidStart> {
    let mut text = String::with_capacity(starts.len() * 80);
    for (index, &start) in starts.iter().enumerate() {
        match format {
            BookFormat::Epd => {
                text.push_str(&start_epd(start, castling)?);
                text.push('\n');
            }
            BookFormat::Fen => {
                text.push_str(&start_fen(start, castling)?);
                text.push('\n');
            }
            BookFormat::Pgn => {
                if index > 0 {
                    text.push('\n');
                }
                text.push_str(&pgn_entry(start, castling)?);
            }
        }
    }
    Ok(text)
}

/// A warning when fishtest or OpenBench would take a book at `path` for standard chess:
/// they switch to Chess960 only when the file name contains `FRC` or `960`.
pub fn file_name_warning(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_string_lossy();
    if name.contains("FRC") || name.contains("960") {
        return None;
    }
    Some(format!(
        "warning: '{}' has neither FRC nor 960 in its file name: fishtest and OpenBench would \
         play it as standard chess (name it e.g. {})",
        path.display(),
        suggested_name(&name)
    ))
}

fn suggested_name(name: &str) -> String {
    match name.rsplit_once('.') {
        Some((stem, extension)) if !stem.is_empty() => format!("{stem}-FRC.{extension}"),
        _ => format!("{name}-FRC"),
    }
}

/// Writes the book to `path` (or to `out` when there is none) and returns the warnings
/// to show. Nothing is written when any part of the request is invalid.
pub fn write_book(
    request: &BookRequest,
    format: BookFormat,
    castling: CastlingNotation,
    path: Option<&Path>,
    out: &mut impl Write,
) -> Result<Vec<String>, WriteBookError> {
    let starts = request.starts()?;
    let text = render(&starts, format, castling).map_err(BookError::from)?;
    match path {
        Some(path) => {
            std::fs::write(path, text.as_bytes()).map_err(|source| WriteBookError::Io {
                path: path.display().to_string(),
                source,
            })?;
            Ok(file_name_warning(path).into_iter().collect())
        }
        None => {
            out.write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|source| WriteBookError::Io {
                    path: "<stdout>".to_owned(),
                    source,
                })?;
            Ok(Vec::new())
        }
    }
}

/// Why `write_book` failed: bad request, or the file could not be written.
#[derive(Debug, Error)]
pub enum WriteBookError {
    /// The request was invalid.
    #[error(transparent)]
    Book(#[from] BookError),
    /// Writing failed.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file (or `<stdout>`).
        path: String,
        /// The OS error.
        source: io::Error,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::starts::request::MAX_RANDOM_STARTS;
    use crate::starts::start::RandomStarts;

    fn request(specs: &[&str]) -> BookRequest {
        BookRequest {
            specs: specs.iter().map(|s| s.parse().unwrap()).collect(),
            ..BookRequest::default()
        }
    }

    #[test]
    fn epd_book_names_each_start() {
        let starts = request(&["860", "0:959"]).starts().unwrap();
        let text = render(&starts, BookFormat::Epd, CastlingNotation::Shredder).unwrap();
        assert_eq!(
            text,
            "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - id \"SP 860\";\n\
             rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - id \"DFRC 0:959\";\n"
        );
    }

    #[test]
    fn pgn_book_has_tags_and_no_moves() {
        let starts = request(&["518,959"]).starts().unwrap();
        let text = render(&starts, BookFormat::Pgn, CastlingNotation::Xfen).unwrap();
        let games: Vec<&str> = text.split("\n\n[").collect();
        assert_eq!(games.len(), 2);
        assert!(text.starts_with("[Event \"SP 518\"]\n"));
        assert!(text.contains(
            "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n*\n"
        ));
        assert!(text.ends_with(
            "[FEN \"rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1\"]\n\n*\n"
        ));
        assert_eq!(text.matches("[Result \"*\"]").count(), 2);
    }

    #[test]
    fn random_parts_are_reproducible_and_independent() {
        let both = BookRequest {
            specs: ["7", "random", "9"].map(|s| s.parse().unwrap()).to_vec(),
            count: 3,
            dfrc_sample: 4,
            seed: 99,
        };
        let starts = both.starts().unwrap();
        assert!(both.is_random());
        assert_eq!(starts, both.starts().unwrap());
        assert_eq!(starts.len(), 9);
        assert_eq!(starts[0].to_string(), "7");
        assert_eq!(starts[4].to_string(), "9");
        assert!(starts[1..4].iter().all(|s| s.is_symmetric()));
        assert_eq!(
            starts[1..4],
            RandomStarts::new(99, false).take(3).collect::<Vec<_>>()[..]
        );
        assert!(starts[5..].iter().any(|s| !s.is_symmetric()));
        // The DFRC sample does not depend on the random count.
        let sample_only = BookRequest {
            specs: vec![],
            ..both.clone()
        };
        assert_eq!(sample_only.starts().unwrap()[..], starts[5..]);
        let other_seed = BookRequest { seed: 100, ..both };
        assert_ne!(other_seed.starts().unwrap(), starts);
        assert!(!request(&["all"]).is_random());
    }

    #[test]
    fn bad_or_empty_requests_are_refused() {
        let err = BookError::spec("960").unwrap_err();
        assert_eq!(
            err.to_string(),
            "SPEC '960': start position 960 is out of range (Chess960 numbers are 0 to 959)"
        );
        assert!(matches!(request(&[]).starts(), Err(BookError::Empty)));
        // A huge count is refused before anything is allocated (it used to abort).
        let huge = BookRequest {
            count: 99_999_999_999_999_999,
            seed: 1,
            ..request(&["random"])
        };
        let err = huge.starts().unwrap_err();
        assert_eq!(
            err,
            BookError::TooManyRandom {
                requested: 99_999_999_999_999_999
            }
        );
        assert!(err.to_string().contains("at most 1000000"), "{err}");
        let sample = BookRequest {
            dfrc_sample: u64::MAX,
            ..request(&[])
        };
        assert!(matches!(
            sample.starts(),
            Err(BookError::TooManyRandom { .. })
        ));
        let twice = BookRequest {
            count: MAX_RANDOM_STARTS,
            ..request(&["random", "random"])
        };
        assert!(matches!(
            twice.starts(),
            Err(BookError::TooManyRandom { .. })
        ));
        let at_limit = BookRequest {
            count: MAX_RANDOM_STARTS - 1,
            dfrc_sample: 1,
            ..request(&["random"])
        };
        assert_eq!(at_limit.starts().unwrap().len(), 1_000_000);
    }

    #[test]
    fn file_names_without_frc_or_960_are_warned_about() {
        assert_eq!(file_name_warning(Path::new("books/my-FRC.epd")), None);
        assert_eq!(file_name_warning(Path::new("chess960.pgn")), None);
        let warning = file_name_warning(Path::new("dir960/openings.epd")).unwrap();
        assert!(warning.contains("openings-FRC.epd"), "{warning}");
        assert!(file_name_warning(Path::new("frc.epd")).is_some());
    }
}
