//! `--openings file=F [format=epd|pgn] [order=sequential|random] [plies=N] [start=N]
//! [count=N]`: opening positions from a file, in the spirit of cutechess-cli's and
//! fastchess's `-openings`. An EPD line is a position (FEN fields, then operations; `hmvc`
//! and `fmvn` give the counters); a PGN game is a root (`[FEN]`, or the standard start) and
//! moves in SAN (Chess960 castling `O-O`/`O-O-O` included), played before the engines take
//! over. Every opening is read and checked before the match starts; a bad one is reported
//! as `FILE:LINE: reason`. PGN is read by the one reader, [`crate::records::pgn`]. Pure:
//! text in, openings out (the file is read by [`load`]).

use std::ops::ControlFlow;
use std::path::PathBuf;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position};

use crate::launch::key_value::{self, KeyValueError, one_of};
use crate::protocol::game::{PositionError, parse_fen};
use crate::records::game_start::{UnknownVariant, tag_start};
use crate::records::inputs::Input;
use crate::records::open::read_one;
use crate::records::pgn::{self, At, TagPairs, TagValue};
use crate::records::record::epd_operand;

/// One opening: the position the game's PGN starts from and the moves played for the
/// engines before they take over.
#[derive(Debug, Clone, PartialEq)]
pub struct Opening {
    /// How the summary names it: the SP (`860`) or `FILE:LINE`.
    pub label: String,
    /// The game's root position (the PGN's `FEN` tag).
    pub root: Chess,
    /// The opening's moves from `root`.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The position the engines start thinking in.
    pub fn position(&self) -> Chess {
        played(&self.root, &self.moves)
    }
}

/// The position after `moves` (legal ones) from `root`.
fn played(root: &Chess, moves: &[Move]) -> Chess {
    let mut position = root.clone();
    for m in moves {
        position.play_unchecked(*m);
    }
    position
}

/// The file's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpeningFormat {
    /// One position per line.
    Epd,
    /// Games: tags and moves.
    Pgn,
}

/// The order openings are played in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpeningOrder {
    /// As in the file.
    Sequential,
    /// Shuffled with `--seed`.
    Random,
}

/// `--openings` as given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpeningsSpec {
    /// `file=`.
    pub file: PathBuf,
    /// `format=` (default: from the file's extension).
    pub format: OpeningFormat,
    /// `order=` (default sequential).
    pub order: OpeningOrder,
    /// `plies=`: at most this many of a PGN opening's moves.
    pub plies: Option<usize>,
    /// `start=`: the first opening used, 1-based (before any shuffle).
    pub start: usize,
    /// `count=`: how many openings are used (default: all from `start`).
    pub count: Option<usize>,
}

/// Why `--openings` cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpeningsSpecError {
    /// A word without `=`.
    #[error("--openings: '{0}': expected KEY=VALUE")]
    NotKeyValue(String),
    /// A key `--openings` does not have.
    #[error("--openings: unknown key '{0}' (file, format, order, plies, start, count)")]
    UnknownKey(String),
    /// A key given twice.
    #[error("--openings: {0}= given twice (one book per match)")]
    Duplicate(&'static str),
    /// A value the key does not take.
    #[error("--openings {key}={value}: expected {expected}")]
    Expected {
        /// The key.
        key: &'static str,
        /// The value as given.
        value: String,
        /// What the key takes.
        expected: &'static str,
    },
    /// `start=0`.
    #[error("--openings start=0: openings are counted from 1")]
    StartZero,
    /// No `file=`.
    #[error("--openings: file=FILE is missing")]
    NoFile,
    /// No `format=`, and the file's extension does not say.
    #[error("--openings file={0}: say format=epd or format=pgn")]
    NoFormat(String),
}

impl From<KeyValueError> for OpeningsSpecError {
    fn from(err: KeyValueError) -> OpeningsSpecError {
        match err {
            KeyValueError::NotKeyValue { word, .. } => OpeningsSpecError::NotKeyValue(word),
            KeyValueError::UnknownKey { key, .. } => OpeningsSpecError::UnknownKey(key),
            KeyValueError::Duplicate { key, .. } => OpeningsSpecError::Duplicate(key),
        }
    }
}

impl OpeningsSpec {
    /// Reads `key=value` words (several per argument allowed).
    pub fn parse(words: &[String]) -> Result<OpeningsSpec, OpeningsSpecError> {
        const KEYS: &[&str] = &["file", "format", "order", "plies", "start", "count"];
        let mut spec = OpeningsSpec {
            file: PathBuf::new(),
            format: OpeningFormat::Epd,
            order: OpeningOrder::Sequential,
            plies: None,
            start: 1,
            count: None,
        };
        let (mut file, mut format) = (None, None);
        for (key, value) in key_value::read("--openings", KEYS, words)? {
            let expected = |expected| OpeningsSpecError::Expected {
                key,
                value: value.to_owned(),
                expected,
            };
            let number = || {
                value
                    .parse::<usize>()
                    .map_err(|_| expected("a whole number"))
            };
            match key {
                "file" => file = Some(PathBuf::from(value)),
                "format" => {
                    let formats = [("epd", OpeningFormat::Epd), ("pgn", OpeningFormat::Pgn)];
                    format = Some(one_of(value, &formats).ok_or(expected("epd or pgn"))?);
                }
                "order" => {
                    let orders = [
                        ("sequential", OpeningOrder::Sequential),
                        ("random", OpeningOrder::Random),
                    ];
                    spec.order = one_of(value, &orders).ok_or(expected("sequential or random"))?;
                }
                "plies" => spec.plies = Some(number()?),
                "start" if number()? == 0 => return Err(OpeningsSpecError::StartZero),
                "start" => spec.start = number()?,
                "count" => spec.count = Some(number()?),
                _ => unreachable!("key_value::read keeps to KEYS"),
            }
        }
        spec.file = file.ok_or(OpeningsSpecError::NoFile)?;
        spec.format = match format {
            Some(format) => format,
            // `book.pgn.gz` is a PGN book: what a file is stored as is read from its bytes
            // (records::open), what it holds from the name before a compression suffix.
            None => match book_extension(&spec.file) {
                Some(ext) if ext.eq_ignore_ascii_case("epd") => OpeningFormat::Epd,
                Some(ext) if ext.eq_ignore_ascii_case("pgn") => OpeningFormat::Pgn,
                _ => {
                    return Err(OpeningsSpecError::NoFormat(spec.file.display().to_string()));
                }
            },
        };
        Ok(spec)
    }
}

/// The extension that says what a book holds: `pgn` for `book.pgn`, and for `book.pgn.gz`
/// (or `.zst`, `.bz2`, `.xz`, `.zip`).
fn book_extension(path: &std::path::Path) -> Option<&str> {
    let extension = path.extension().and_then(|e| e.to_str())?;
    let stored = ["gz", "zst", "bz2", "xz", "zip"];
    if stored.iter().any(|s| extension.eq_ignore_ascii_case(s)) {
        return std::path::Path::new(path.file_stem()?)
            .extension()
            .and_then(|e| e.to_str());
    }
    Some(extension)
}

/// A bad opening, or a file that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {reason}")]
pub struct OpeningError {
    /// The file as given.
    pub file: String,
    /// 1-based line (0 when the file cannot be read at all).
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// Reads and checks the file, then applies `start`, `count` and `order` (shuffled with
/// `seed`).
pub fn load(spec: &OpeningsSpec, seed: u64) -> Result<Vec<Opening>, OpeningError> {
    // Read as `validate` reads it: compressed, or the one entry of a zip archive.
    let text = read_one(&Input::Path(spec.file.clone())).map_err(|err| OpeningError {
        file: spec.file.display().to_string(),
        line: 0,
        reason: err.reason(),
    })?;
    let name = text.name;
    let text = String::from_utf8_lossy(&text.bytes);
    match spec.format {
        OpeningFormat::Epd => {
            // Every line is checked, but only the openings used are kept.
            let lines = epd_lines(&text);
            check_epd(&name, &lines)?;
            let chosen = choose(&name, lines.len(), spec, seed)?;
            chosen
                .into_iter()
                .map(|index| epd_opening(&name, lines[index].0, lines[index].1))
                .collect()
        }
        OpeningFormat::Pgn => {
            let mut all: Vec<Option<Opening>> =
                read_openings(&text, &name, spec.format, spec.plies)?
                    .into_iter()
                    .map(Some)
                    .collect();
            let chosen = choose(&name, all.len(), spec, seed)?;
            Ok(chosen
                .into_iter()
                .filter_map(|index| all[index].take())
                .collect())
        }
    }
}

/// Which of `available` openings are played, in order: from `start`; shuffled with `seed`
/// for `order=random`; then the first `count`.
fn choose(
    file: &str,
    available: usize,
    spec: &OpeningsSpec,
    seed: u64,
) -> Result<Vec<usize>, OpeningError> {
    if available == 0 {
        return Err(error(file, 0, "no openings in the file"));
    }
    let skip = spec.start - 1;
    if skip >= available {
        return Err(error(
            file,
            0,
            format!("start={}: the file has {available} openings", spec.start),
        ));
    }
    let mut chosen: Vec<usize> = (skip..available).collect();
    if spec.order == OpeningOrder::Random {
        chosen.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
    }
    if let Some(count) = spec.count {
        chosen.truncate(count);
    }
    Ok(chosen)
}

/// Every opening of `text` (named `file` in messages), checked: legal positions, legal
/// moves, and a game not already over.
pub fn read_openings(
    text: &str,
    file: &str,
    format: OpeningFormat,
    plies: Option<usize>,
) -> Result<Vec<Opening>, OpeningError> {
    let openings = match format {
        OpeningFormat::Epd => read_epd(text, file)?,
        OpeningFormat::Pgn => read_pgn(text, file, plies)?,
    };
    if openings.is_empty() {
        return Err(error(file, 0, "no openings in the file"));
    }
    Ok(openings)
}

fn error(file: &str, line: usize, reason: impl std::fmt::Display) -> OpeningError {
    OpeningError {
        file: file.to_owned(),
        line,
        reason: reason.to_string(),
    }
}

/// Why a position cannot be an opening's root.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum RootError {
    /// A FEN that does not parse or is not a legal position.
    #[error(transparent)]
    Fen(#[from] PositionError),
    /// A FEN with castling rights or an en-passant square the position cannot have.
    #[error("FEN '{fen}': {note}")]
    Dropped {
        /// The FEN.
        fen: String,
        /// What would be dropped.
        note: String,
    },
    /// A `Variant` other than chess or Chess960.
    #[error("[Variant \"{0}\"]: not chess or Chess960")]
    Variant(String),
    /// A root where the game is already over.
    #[error("the root position: {0}")]
    GameOver(&'static str),
}

/// A position from a FEN, strictly: castling rights or en-passant squares the position
/// cannot have are errors here (a book must say what it means).
fn strict_position(fen: &str) -> Result<Chess, RootError> {
    let (position, notes) = parse_fen(fen)?;
    if let Some(note) = notes.first() {
        return Err(RootError::Dropped {
            fen: fen.to_owned(),
            note: note.clone(),
        });
    }
    Ok(position)
}

fn game_over_reason(position: &Chess) -> Option<&'static str> {
    if position.legal_moves().is_empty() {
        Some(if position.is_check() {
            "the position is checkmate"
        } else {
            "the position is stalemate"
        })
    } else if position.is_insufficient_material() {
        Some("neither side can mate (insufficient material)")
    } else {
        None
    }
}

/// The EPD lines that hold a position: (1-based line number, text).
fn epd_lines(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .collect()
}

/// One EPD line as an opening.
fn epd_opening(file: &str, number: usize, line: &str) -> Result<Opening, OpeningError> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(error(
            file,
            number,
            format!("'{line}': an EPD line needs 4 FEN fields (board, side, castling, en passant)"),
        ));
    }
    let counters_given =
        fields.len() >= 6 && fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok();
    let fen = if counters_given {
        fields[..6].join(" ")
    } else {
        let operations = line
            .splitn(5, char::is_whitespace)
            .nth(4)
            .unwrap_or_default();
        let halfmoves = epd_operand(operations, "hmvc").unwrap_or("0");
        let fullmoves = epd_operand(operations, "fmvn").unwrap_or("1");
        format!("{} {halfmoves} {fullmoves}", fields[..4].join(" "))
    };
    let root = strict_position(&fen).map_err(|reason| error(file, number, reason))?;
    if let Some(reason) = game_over_reason(&root) {
        return Err(error(file, number, format!("'{fen}': {reason}")));
    }
    Ok(Opening {
        label: format!("{file}:{number}"),
        root,
        moves: Vec::new(),
    })
}

/// Checks every line (on every core: a book may have millions) and keeps none; the first
/// bad line in file order is the error.
fn check_epd(file: &str, lines: &[(usize, &str)]) -> Result<(), OpeningError> {
    use rayon::prelude::*;
    match lines
        .par_iter()
        .map(|(number, line)| epd_opening(file, *number, line).err())
        .find_first(Option::is_some)
    {
        Some(Some(err)) => Err(err),
        _ => Ok(()),
    }
}

fn read_epd(text: &str, file: &str) -> Result<Vec<Opening>, OpeningError> {
    epd_lines(text)
        .into_iter()
        .map(|(number, line)| epd_opening(file, number, line))
        .collect()
}

/// A PGN opening being read: its root, the position after its moves so far, and its moves.
struct BookGame {
    line: usize,
    root: Chess,
    position: Chess,
    moves: Vec<Move>,
}

/// Reads a PGN book's games ([`crate::records::pgn`]) as openings: the first problem, in
/// file order, is the error.
struct PgnBook<'a> {
    file: &'a str,
    /// `plies=`: moves past it are neither played nor checked.
    plies: Option<usize>,
}

impl PgnBook<'_> {
    fn full(&self, game: &BookGame) -> bool {
        self.plies.is_some_and(|limit| game.moves.len() >= limit)
    }
}

impl pgn::Visitor for PgnBook<'_> {
    type Tags = TagPairs;
    type Movetext = BookGame;
    type Output = Result<Opening, OpeningError>;

    fn begin_tags(&mut self, at: At) -> ControlFlow<Self::Output, TagPairs> {
        ControlFlow::Continue(TagPairs::starting(at))
    }

    fn tag(
        &mut self,
        tags: &mut TagPairs,
        name: &[u8],
        value: TagValue<'_>,
        _at: At,
    ) -> ControlFlow<Self::Output> {
        tags.push(name, value);
        ControlFlow::Continue(())
    }

    fn malformed_tag(
        &mut self,
        _tags: &mut TagPairs,
        line: &[u8],
        at: At,
    ) -> ControlFlow<Self::Output> {
        let line = String::from_utf8_lossy(line);
        let reason = format!("'{}': not a tag pair [Name \"value\"]", line.trim());
        ControlFlow::Break(Err(error(self.file, at.line, reason)))
    }

    fn begin_movetext(&mut self, tags: TagPairs, _at: At) -> ControlFlow<Self::Output, BookGame> {
        match root_from_tags(&tags.pairs) {
            Ok(root) => ControlFlow::Continue(BookGame {
                line: tags.line,
                position: root.clone(),
                root,
                moves: Vec::new(),
            }),
            Err(reason) => ControlFlow::Break(Err(error(self.file, tags.line, reason))),
        }
    }

    fn san(
        &mut self,
        game: &mut BookGame,
        san: SanPlus,
        token: &[u8],
        at: At,
    ) -> ControlFlow<Self::Output> {
        if self.full(game) {
            return ControlFlow::Continue(());
        }
        match san_move(&game.position, &san, token, game.moves.len()) {
            Ok(m) => {
                game.position.play_unchecked(m);
                game.moves.push(m);
                ControlFlow::Continue(())
            }
            Err(reason) => ControlFlow::Break(Err(error(self.file, at.line, reason))),
        }
    }

    fn not_san(&mut self, game: &mut BookGame, token: &[u8], at: At) -> ControlFlow<Self::Output> {
        if self.full(game) {
            return ControlFlow::Continue(());
        }
        let reason = if token.starts_with(b"[") {
            MoveProblem::TagInMoves
        } else {
            MoveProblem::NotSan(String::from_utf8_lossy(token).into_owned())
        };
        ControlFlow::Break(Err(error(self.file, at.line, reason)))
    }

    /// A game read to its end: an opening, unless the game is over after its moves.
    fn end_game(&mut self, game: BookGame) -> Self::Output {
        if let Some(reason) = game_over_reason(&game.position) {
            return Err(error(
                self.file,
                game.line,
                format!("after the opening's moves {reason}"),
            ));
        }
        Ok(Opening {
            label: format!("{}:{}", self.file, game.line),
            root: game.root,
            moves: game.moves,
        })
    }
}

fn read_pgn(text: &str, file: &str, plies: Option<usize>) -> Result<Vec<Opening>, OpeningError> {
    let mut reader = pgn::Reader::new(text.as_bytes());
    let mut book = PgnBook { file, plies };
    std::iter::from_fn(|| reader.read_game(&mut book)).collect()
}

/// Why a move of a PGN opening is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum MoveProblem {
    /// Not SAN at all.
    #[error("'{0}' is not a SAN move")]
    NotSan(String),
    /// A `[` in the movetext, not at the start of a line.
    #[error("a tag pair inside the moves")]
    TagInMoves,
    /// SAN that is ambiguous or illegal where it is played.
    #[error("'{token}' {what} after {played} moves of the opening")]
    Refused {
        /// The move as written.
        token: String,
        /// `is ambiguous` or `is not legal`.
        what: &'static str,
        /// The opening's moves before it.
        played: usize,
    },
}

/// `san` (the move of `token`) as a move in `position`, after `played` moves of the
/// opening.
fn san_move(
    position: &Chess,
    san: &SanPlus,
    token: &[u8],
    played: usize,
) -> Result<Move, MoveProblem> {
    san.san
        .to_move(position)
        .map_err(|err| MoveProblem::Refused {
            token: String::from_utf8_lossy(token).into_owned(),
            what: match err {
                shakmaty::san::SanError::AmbiguousSan => "is ambiguous",
                shakmaty::san::SanError::IllegalSan => "is not legal",
            },
            played,
        })
}

/// The game's root: its `FEN` tag, or the standard start, read by the one rule of
/// [`crate::records::game_start`]; a `Variant` other than chess or Chess960 is refused.
fn root_from_tags(tags: &[(String, String)]) -> Result<Chess, RootError> {
    let start = tag_start(
        tags.iter()
            .map(|(name, value)| (name.as_str(), value.as_str())),
    )
    .map_err(|UnknownVariant(variant)| RootError::Variant(variant))?;
    let root = match start.fen {
        Some(fen) => strict_position(fen)?,
        None => Chess::default(),
    };
    if let Some(reason) = game_over_reason(&root) {
        return Err(RootError::GameOver(reason));
    }
    Ok(root)
}

#[cfg(test)]
#[path = "openings_tests.rs"]
mod tests;
