//! Opening books of numbered starts, as match runners read them: EPD lines with
//! `id "SP n";`, PGN games with `[Variant "Chess960"]`, `[SetUp "1"]`, `[FEN ...]` and no
//! moves, or bare FEN lines (xboard's position files). The same request always gives the
//! same bytes.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::Path;

use thiserror::Error;

use crate::starts::notation::{CastlingNotation, start_epd, start_fen};
use crate::starts::start::{InvalidStart, RandomStarts, SpecError, Start, parse_spec};

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

/// Which starts go into a book, in the order written: each SPEC as `sp960 fen` takes it,
/// the word `random` standing for `count` uniformly random classic starts; then a sample
/// of `dfrc_sample` random double-FRC pairs. Random draws come from `seed` (ChaCha8: the
/// same on every machine).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BookRequest {
    /// SPECs (`860`, `0-9`, `all`, `0:959`, lists) and the word `random`.
    pub specs: Vec<String>,
    /// How many random classic starts each `random` stands for.
    pub count: u64,
    /// How many random double-FRC pairs to add at the end.
    pub dfrc_sample: u64,
    /// Seed for the random draws.
    pub seed: u64,
}

/// Why a book could not be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BookError {
    /// A SPEC that does not parse.
    #[error("SPEC '{spec}': {source}")]
    Spec {
        /// The SPEC as the user wrote it.
        spec: String,
        /// Why it is wrong.
        source: SpecError,
    },
    /// Nothing asked for.
    #[error("no starts: give a SPEC, `random --count K` or --dfrc-sample K")]
    Empty,
    /// More random starts than a book may hold.
    #[error(
        "{requested} random starts asked for (--count times each `random`, plus --dfrc-sample); \
         a book holds at most {MAX_RANDOM_STARTS}"
    )]
    TooManyRandom {
        /// The random starts asked for (saturating).
        requested: u64,
    },
    /// A start shakmaty refused (a bug).
    #[error(transparent)]
    Invalid(#[from] InvalidStart),
}

impl BookRequest {
    /// Expands the request into starts, every SPEC checked before anything is produced.
    pub fn starts(&self) -> Result<Vec<Start>, BookError> {
        let randoms = self
            .specs
            .iter()
            .filter(|spec| spec.trim().eq_ignore_ascii_case("random"))
            .count() as u64;
        let requested = self
            .count
            .saturating_mul(randoms)
            .saturating_add(self.dfrc_sample);
        if requested > MAX_RANDOM_STARTS {
            return Err(BookError::TooManyRandom { requested });
        }
        let mut starts = Vec::new();
        let mut random = RandomStarts::new(self.seed, false);
        for spec in &self.specs {
            if spec.trim().eq_ignore_ascii_case("random") {
                starts.extend(random.by_ref().take(self.count as usize));
                continue;
            }
            starts.extend(parse_spec(spec).map_err(|source| BookError::Spec {
                spec: spec.clone(),
                source,
            })?);
        }
        // A stream of its own, so the sample does not change with the `random` count.
        starts.extend(
            RandomStarts::new(self.seed ^ DFRC_STREAM, true).take(self.dfrc_sample as usize),
        );
        if starts.is_empty() {
            return Err(BookError::Empty);
        }
        Ok(starts)
    }

    /// True when the request draws random starts (and so depends on the seed).
    pub fn is_random(&self) -> bool {
        self.dfrc_sample > 0
            || self
                .specs
                .iter()
                .any(|spec| spec.trim().eq_ignore_ascii_case("random"))
    }
}

/// The most random starts a book is made of: far more than any match plays (there are
/// 921,600 DFRC pairs), and the book is built in memory.
pub const MAX_RANDOM_STARTS: u64 = 1_000_000;

/// Distinguishes the DFRC sample's random stream from the classic one for the same seed.
const DFRC_STREAM: u64 = 0x0dfc_0dfc_0dfc_0dfc;

/// One moveless PGN game that starts from `start`.
pub fn pgn_entry(start: Start, castling: CastlingNotation) -> Result<String, InvalidStart> {
    let fen = start_fen(start, castling)?;
    let mut text = String::new();
    let tags = [
        ("Event", start.label()),
        ("Site", "?".to_owned()),
        ("Date", "????.??.??".to_owned()),
        ("Round", "-".to_owned()),
        ("White", "?".to_owned()),
        ("Black", "?".to_owned()),
        ("Result", "*".to_owned()),
        ("Variant", "Chess960".to_owned()),
        ("SetUp", "1".to_owned()),
        ("FEN", fen),
    ];
    for (name, value) in tags {
        let _ = writeln!(text, "[{name} \"{value}\"]");
    }
    text.push_str("\n*\n");
    Ok(text)
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

    fn request(specs: &[&str]) -> BookRequest {
        BookRequest {
            specs: specs.iter().map(|s| s.to_string()).collect(),
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
            specs: vec!["7".into(), "random".into(), "9".into()],
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
        let err = request(&["1", "960"]).starts().unwrap_err();
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
