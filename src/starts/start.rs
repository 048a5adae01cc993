//! A Chess960 start: one SP for both sides, or a double-FRC pair `W:B`; the SPEC lists
//! users type (`860`, `0-9`, `all`, `0:959`, `1,2,5-7`) and seeded random choices.

use std::fmt;
use std::str::FromStr;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::{
    Bitboard, Board, ByColor, CastlingMode, Chess, Color, File, FromSetup, Piece, Rank, Role,
    Setup, Square,
};
use thiserror::Error;

use crate::starts::numbering::{BackRank, COUNT, OutOfRange, StartPosition};

/// A start: white's back rank from one SP, black's from another (the same one in classic
/// Chess960, a different one in double Fischer Random).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Start {
    /// The SP that gives white's back rank.
    pub white: StartPosition,
    /// The SP that gives black's back rank (mirrored onto rank 8).
    pub black: StartPosition,
}

impl Start {
    /// The classic Chess960 start: both sides from `sp`.
    pub fn symmetric(sp: StartPosition) -> Start {
        Start {
            white: sp,
            black: sp,
        }
    }

    /// True when both sides have the same arrangement.
    pub fn is_symmetric(self) -> bool {
        self.white == self.black
    }

    /// How books and EPD records name the start: `SP 860`, or `DFRC 0:959`.
    pub fn label(self) -> String {
        format!("{} {self}", self.kind_name())
    }

    /// How EPD ids name it: `SP` (`id "SP 860"`) or, for a double-FRC pair, `DFRC`.
    pub fn kind_name(self) -> &'static str {
        if self.is_symmetric() { "SP" } else { "DFRC" }
    }

    /// The back rank of `color`.
    pub fn back_rank(self, color: Color) -> BackRank {
        color.fold_wb(self.white, self.black).back_rank()
    }

    /// The full start position as a shakmaty [`Setup`]: back ranks, pawns, white to move,
    /// all four castling rights, no en-passant square, counters 0 and 1.
    pub fn setup(self) -> Setup {
        let mut board = Board::empty();
        let mut castling_rights = Bitboard::EMPTY;
        for color in Color::ALL {
            let back_rank = self.back_rank(color);
            let (home, pawn_rank) =
                color.fold_wb((Rank::First, Rank::Second), (Rank::Eighth, Rank::Seventh));
            for (file, role) in File::ALL.into_iter().zip(back_rank.roles()) {
                board.set_piece_at(Square::from_coords(file, home), Piece { color, role });
                board.set_piece_at(
                    Square::from_coords(file, pawn_rank),
                    Piece {
                        color,
                        role: Role::Pawn,
                    },
                );
            }
            let (queen_side, king_side) = back_rank.rook_files();
            for file in [queen_side, king_side] {
                castling_rights.add(Square::from_coords(File::new(file as u32), home));
            }
        }
        let mut setup = Setup::empty();
        setup.board = board;
        setup.castling_rights = castling_rights;
        setup
    }

    /// The start position, checked by shakmaty in Chess960 castling mode. An error here
    /// would be a bug in sp960 or shakmaty, reported rather than panicking.
    pub fn position(self) -> Result<Chess, InvalidStart> {
        Chess::from_setup(self.setup(), CastlingMode::Chess960).map_err(|err| InvalidStart {
            start: self,
            reason: err.to_string(),
        })
    }

    /// Which side's rank differs, for messages: both back ranks as letters.
    pub fn arrangements(self) -> ByColor<BackRank> {
        ByColor {
            white: self.back_rank(Color::White),
            black: self.back_rank(Color::Black),
        }
    }
}

impl From<StartPosition> for Start {
    fn from(sp: StartPosition) -> Start {
        Start::symmetric(sp)
    }
}

impl fmt::Display for Start {
    /// `860` for a classic start, `0:959` for a double-FRC pair.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_symmetric() {
            write!(f, "{}", self.white)
        } else {
            write!(f, "{}:{}", self.white, self.black)
        }
    }
}

/// A start that shakmaty rejected: always a bug, never the user's fault.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "internal error: start {start} failed shakmaty's Chess960 checks ({reason}); please report this"
)]
pub struct InvalidStart {
    /// The start that failed.
    pub start: Start,
    /// shakmaty's reason.
    pub reason: String,
}

/// Why a SPEC could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SpecError {
    /// Nothing where a number was expected.
    #[error("empty start-position spec")]
    Empty,
    /// Not a number, range, pair or `all`.
    #[error(
        "'{0}' is not a start-position spec (expected N, A-B, all, W:B or a comma-separated list)"
    )]
    Malformed(String),
    /// A number above 959.
    #[error(transparent)]
    OutOfRange(#[from] OutOfRange),
    /// Not one start where exactly one is wanted (`sp960 proxy --sp`).
    #[error("'{0}' is not one start (expected N from 0 to 959, a double-FRC pair W:B, or random)")]
    NotOneStart(String),
    /// A number too long even to read (more digits than any machine integer holds).
    #[error("start position {0} is out of range (Chess960 numbers are 0 to 959)")]
    Huge(String),
    /// `A-B` with A greater than B.
    #[error("range {0}-{1} runs backwards")]
    Backwards(u16, u16),
}

impl FromStr for Start {
    type Err = SpecError;

    /// Parses `N` or `W:B`.
    fn from_str(s: &str) -> Result<Start, SpecError> {
        match s.split_once(':') {
            Some((white, black)) => Ok(Start {
                white: parse_number(white, s)?,
                black: parse_number(black, s)?,
            }),
            None => Ok(Start::symmetric(parse_number(s, s)?)),
        }
    }
}

fn parse_number(text: &str, whole: &str) -> Result<StartPosition, SpecError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(if whole.trim().is_empty() {
            SpecError::Empty
        } else {
            SpecError::Malformed(whole.to_owned())
        });
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(SpecError::Malformed(whole.to_owned()));
    }
    let n: u64 = text.parse().map_err(|_| SpecError::Huge(text.to_owned()))?;
    Ok(StartPosition::new(n)?)
}

/// One item of a SPEC, read once: what the user's words mean before any start is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecItem {
    /// `N`: one classic start.
    Number(StartPosition),
    /// `A-B`: the classic starts from A to B, A not above B.
    Range(StartPosition, StartPosition),
    /// `W:B`: a double-FRC pair.
    Pair(Start),
    /// `all`: the 960 classic starts.
    All,
    /// `random`, a whole SPEC: starts drawn from a seed, where a command takes them.
    Random,
}

impl SpecItem {
    /// Reads one item of a list (`random` is no item: it is a whole SPEC, [`spec_items`]).
    fn parse(item: &str) -> Result<SpecItem, SpecError> {
        let item = item.trim();
        if item.eq_ignore_ascii_case("all") {
            return Ok(SpecItem::All);
        }
        if let Some((from, to)) = item.split_once('-') {
            let (from, to) = (parse_number(from, item)?, parse_number(to, item)?);
            if from > to {
                return Err(SpecError::Backwards(from.number(), to.number()));
            }
            return Ok(SpecItem::Range(from, to));
        }
        let start: Start = item.parse()?;
        Ok(if item.contains(':') {
            SpecItem::Pair(start)
        } else {
            SpecItem::Number(start.white)
        })
    }

    /// Appends the starts the item stands for, in order (none for `random`, whose starts
    /// are drawn by the command).
    pub fn extend(self, starts: &mut Vec<Start>) {
        match self {
            SpecItem::Number(sp) => starts.push(Start::symmetric(sp)),
            SpecItem::Range(from, to) => starts.extend((from.number()..=to.number()).map(|n| {
                Start::symmetric(StartPosition::new(n.into()).expect("within a valid range"))
            })),
            SpecItem::Pair(start) => starts.push(start),
            SpecItem::All => starts.extend(StartPosition::all().map(Start::symmetric)),
            SpecItem::Random => {}
        }
    }
}

/// Reads one SPEC into its items, in the order written: `N`, `A-B`, `all`, `W:B`, a
/// comma-separated list of those, or the word `random` alone (any case, blanks around).
pub fn spec_items(spec: &str) -> Result<Vec<SpecItem>, SpecError> {
    if spec.trim().eq_ignore_ascii_case("random") {
        return Ok(vec![SpecItem::Random]);
    }
    spec.split(',').map(SpecItem::parse).collect()
}

/// Expands one SPEC into starts, in the order written: `N`, `A-B`, `all`, `W:B`, or a
/// comma-separated list of those (`random` is not one here).
pub fn parse_spec(spec: &str) -> Result<Vec<Start>, SpecError> {
    Ok(Spec::listed(spec)?.starts())
}

/// One SPEC as the user typed it and as read, once, into its items: what commands take
/// from their command line (clap reads it with [`FromStr`], or [`Spec::listed`] where
/// `random` is not one). The text is kept for messages and for `sp960 match --resume`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    text: String,
    items: Vec<SpecItem>,
}

impl FromStr for Spec {
    type Err = SpecError;

    /// Reads a SPEC or the word `random` ([`spec_items`]).
    fn from_str(text: &str) -> Result<Spec, SpecError> {
        Ok(Spec {
            text: text.to_owned(),
            items: spec_items(text)?,
        })
    }
}

impl From<Start> for Spec {
    /// The SPEC of one start (`860`, `0:959`).
    fn from(start: Start) -> Spec {
        Spec {
            text: start.to_string(),
            items: vec![if start.is_symmetric() {
                SpecItem::Number(start.white)
            } else {
                SpecItem::Pair(start)
            }],
        }
    }
}

impl Spec {
    /// Reads a SPEC that lists its starts: the word `random` is refused.
    pub fn listed(text: &str) -> Result<Spec, SpecError> {
        let spec: Spec = text.parse()?;
        if spec.is_random() {
            return Err(SpecError::Malformed(text.trim().to_owned()));
        }
        Ok(spec)
    }

    /// The SPEC as typed.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Its items, in the order written.
    pub fn items(&self) -> &[SpecItem] {
        &self.items
    }

    /// Whether it is the word `random`.
    pub fn is_random(&self) -> bool {
        self.items == [SpecItem::Random]
    }

    /// The starts it lists, in order (none for `random`, drawn by the command).
    pub fn starts(&self) -> Vec<Start> {
        let mut starts = Vec::new();
        for item in &self.items {
            item.extend(&mut starts);
        }
        starts
    }
}

impl fmt::Display for Spec {
    /// The SPEC as typed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A seeded source of uniformly random starts; the same seed gives the same sequence on
/// every platform (ChaCha8).
pub struct RandomStarts {
    rng: ChaCha8Rng,
    dfrc: bool,
}

impl RandomStarts {
    /// Random classic starts (`dfrc == false`) or random double-FRC pairs from `seed`.
    pub fn new(seed: u64, dfrc: bool) -> RandomStarts {
        RandomStarts {
            rng: ChaCha8Rng::seed_from_u64(seed),
            dfrc,
        }
    }

    /// A seed from the operating system, for runs that need not be repeated.
    pub fn fresh_seed() -> u64 {
        use rand::TryRngCore;
        rand::rngs::OsRng.try_next_u64().unwrap_or_else(|_| {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |elapsed| elapsed.as_nanos() as u64);
            nanos ^ u64::from(std::process::id())
        })
    }
}

impl Iterator for RandomStarts {
    type Item = Start;

    fn next(&mut self) -> Option<Start> {
        let mut draw = || {
            StartPosition::new(self.rng.random_range(0..u64::from(COUNT))).expect("drawn in range")
        };
        let white = draw();
        Some(if self.dfrc {
            Start {
                white,
                black: draw(),
            }
        } else {
            Start::symmetric(white)
        })
    }
}

/// `sp960 proxy --sp` as read: one start (`N`, `W:B`) or `random`, with the words as given
/// (a launcher's settings keep them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartArg {
    text: String,
    /// The start; `None` for `random`.
    start: Option<Start>,
}

impl FromStr for StartArg {
    type Err = SpecError;

    /// Reads `N`, `W:B` or `random`; a list, a range or `all` is no single start, and the
    /// message says what one is.
    fn from_str(text: &str) -> Result<StartArg, SpecError> {
        let start = match spec_items(text).as_deref() {
            Ok([SpecItem::Random]) => None,
            Ok([SpecItem::Number(sp)]) => Some(Start::symmetric(*sp)),
            Ok([SpecItem::Pair(start)]) => Some(*start),
            // A list, a range, `all` or no SPEC: the one-start reader says why.
            _ => Some(one_start(text)?),
        };
        Ok(StartArg {
            text: text.to_owned(),
            start,
        })
    }
}

impl StartArg {
    /// The words as given.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The start; `None` for `random`.
    pub fn start(&self) -> Option<Start> {
        self.start
    }
}

/// `text` as exactly one start, or why not.
fn one_start(text: &str) -> Result<Start, SpecError> {
    text.parse::<Start>().map_err(|err| match err {
        SpecError::Malformed(text) => SpecError::NotOneStart(text),
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Position;

    fn sp(n: u64) -> StartPosition {
        StartPosition::new(n).unwrap()
    }

    #[test]
    fn a_spec_keeps_its_text_and_reads_random_only_where_it_is_one() {
        let spec: Spec = " 1-2,0:959".parse().unwrap();
        assert_eq!(spec.text(), " 1-2,0:959");
        assert!(!spec.is_random());
        assert_eq!(
            spec.starts()
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>(),
            ["1", "2", "0:959"]
        );
        let random: Spec = " Random".parse().unwrap();
        assert!(random.is_random() && random.starts().is_empty());
        assert_eq!(
            Spec::listed(" Random"),
            Err(SpecError::Malformed("Random".into()))
        );
        assert_eq!(
            "960".parse::<Spec>(),
            Err(SpecError::OutOfRange(OutOfRange(960)))
        );
        let pair = Start {
            white: sp(0),
            black: sp(959),
        };
        assert_eq!(Spec::from(pair), "0:959".parse().unwrap());
        assert_eq!(
            Spec::from(Start::symmetric(sp(518))),
            "518".parse().unwrap()
        );
    }

    #[test]
    fn specs_expand_in_order() {
        let numbers = |spec: &str| -> Vec<String> {
            parse_spec(spec)
                .unwrap()
                .iter()
                .map(|s| s.to_string())
                .collect()
        };
        assert_eq!(numbers("860"), ["860"]);
        assert_eq!(numbers("3-6"), ["3", "4", "5", "6"]);
        assert_eq!(numbers("0:959"), ["0:959"]);
        assert_eq!(numbers("7:7"), ["7"]);
        assert_eq!(numbers("959,0, 1-2,5:6"), ["959", "0", "1", "2", "5:6"]);
        assert_eq!(parse_spec("all").unwrap().len(), 960);
        assert_eq!(parse_spec("ALL").unwrap()[959], Start::symmetric(sp(959)));
    }

    #[test]
    fn spec_errors() {
        assert_eq!(
            parse_spec("960"),
            Err(SpecError::OutOfRange(OutOfRange(960)))
        );
        assert_eq!(
            parse_spec("0:960"),
            Err(SpecError::OutOfRange(OutOfRange(960)))
        );
        assert_eq!(parse_spec("9-3"), Err(SpecError::Backwards(9, 3)));
        assert_eq!(parse_spec(""), Err(SpecError::Empty));
        assert_eq!(parse_spec("x"), Err(SpecError::Malformed("x".into())));
        assert_eq!(parse_spec("-5"), Err(SpecError::Malformed("-5".into())));
        assert_eq!(
            parse_spec("1:2:3"),
            Err(SpecError::Malformed("1:2:3".into()))
        );
        assert_eq!(parse_spec("+5"), Err(SpecError::Malformed("+5".into())));
        let huge = parse_spec("99999999999999999999999").unwrap_err();
        assert_eq!(huge, SpecError::Huge("99999999999999999999999".into()));
        assert!(
            huge.to_string()
                .contains("99999999999999999999999 is out of range")
        );
        // Every error has a message that names the problem.
        assert!(SpecError::Backwards(9, 3).to_string().contains("9-3"));
    }

    #[test]
    fn setup_is_a_legal_start_with_four_castling_rights() {
        for start in [sp(0), sp(518), sp(860), sp(959)].map(Start::symmetric) {
            let pos = start.position().unwrap();
            assert_eq!(start.setup().castling_rights.count(), 4);
            assert_eq!(
                shakmaty::Position::castles(&pos).castling_rights().count(),
                4
            );
            assert_eq!(shakmaty::Position::board(&pos).occupied().count(), 32);
        }
        let dfrc: Start = "0:959".parse().unwrap();
        assert_eq!(dfrc.arrangements().white.to_string(), "BBQNNRKR");
        assert_eq!(dfrc.arrangements().black.to_string(), "RKRNNQBB");
        assert_eq!(
            dfrc.position()
                .unwrap()
                .board()
                .piece_at(Square::B8)
                .map(|p| p.char()),
            Some('k')
        );
    }

    #[test]
    fn random_is_reproducible_and_covers_the_range() {
        let a: Vec<Start> = RandomStarts::new(42, false).take(5000).collect();
        let b: Vec<Start> = RandomStarts::new(42, false).take(5000).collect();
        assert_eq!(a, b);
        assert!(a.iter().all(|s| s.is_symmetric()));
        let distinct: std::collections::HashSet<_> = a.iter().collect();
        assert!(
            distinct.len() > 900,
            "5000 draws hit {} of 960",
            distinct.len()
        );
        let c: Vec<Start> = RandomStarts::new(43, false).take(5).collect();
        assert_ne!(a[..5], c[..]);
        let pairs: Vec<Start> = RandomStarts::new(1, true).take(100).collect();
        assert!(pairs.iter().any(|s| !s.is_symmetric()));
    }
}
