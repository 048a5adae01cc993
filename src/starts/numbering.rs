//! Scharnagl's numbering of the 960 Chess960 start arrangements, both ways, computed.
//!
//! SP `n` (0..=959) decodes as: the light-square bishop on b/d/f/h by `n % 4`, the
//! dark-square bishop on a/c/e/g by `(n / 4) % 4`, the queen on the `(n / 16) % 6`-th free
//! square, the two knights by the remaining digit 0..=9 over the five free squares, and
//! rook, king, rook on the last three. [`BackRank::number`] is the exact inverse.

use std::fmt;
use std::str::FromStr;

use shakmaty::Role;
use thiserror::Error;

/// How many Chess960 start arrangements there are.
pub const COUNT: u16 = 960;

/// The standard chess arrangement, SP 518 (`RNBQKBNR`).
pub const STANDARD: StartPosition = StartPosition(518);

/// A Scharnagl start-position number, 0..=959.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StartPosition(u16);

/// An SP number outside 0..=959.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("start position {0} is out of range (Chess960 numbers are 0 to 959)")]
pub struct OutOfRange(pub u64);

impl StartPosition {
    /// The start position numbered `n`, if `n` is in 0..=959.
    pub fn new(n: u64) -> Result<StartPosition, OutOfRange> {
        if n < u64::from(COUNT) {
            Ok(StartPosition(n as u16))
        } else {
            Err(OutOfRange(n))
        }
    }

    /// Its Scharnagl number.
    pub fn number(self) -> u16 {
        self.0
    }

    /// All 960 start positions in numeric order.
    pub fn all() -> impl DoubleEndedIterator<Item = StartPosition> + ExactSizeIterator {
        (0..COUNT).map(StartPosition)
    }

    /// The back-rank arrangement this number stands for, files a to h.
    pub fn back_rank(self) -> BackRank {
        let n = usize::from(self.0);
        let mut rank: [Option<Role>; 8] = [None; 8];
        rank[2 * (n % 4) + 1] = Some(Role::Bishop);
        rank[2 * ((n / 4) % 4)] = Some(Role::Bishop);
        place_on_free_square(&mut rank, (n / 16) % 6, Role::Queen);
        let (first, second) = knight_pair(n / 96);
        // The second knight's index counts the five free squares before the first is placed.
        place_on_free_square(&mut rank, second, Role::Knight);
        place_on_free_square(&mut rank, first, Role::Knight);
        for role in [Role::Rook, Role::King, Role::Rook] {
            place_on_free_square(&mut rank, 0, role);
        }
        BackRank(rank.map(|role| role.expect("every file is filled")))
    }
}

/// Puts `role` on the `index`-th (0-based) still empty file of `rank`.
fn place_on_free_square(rank: &mut [Option<Role>; 8], index: usize, role: Role) {
    let file = (0..8)
        .filter(|&file| rank[file].is_none())
        .nth(index)
        .expect("a free square for every piece");
    rank[file] = Some(role);
}

impl fmt::Display for StartPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The `digit`-th (0..=9) way to place two knights on five free squares, in Scharnagl's
/// order NN---, N-N--, N--N-, N---N, -NN--, -N-N-, -N--N, --NN-, --N-N, ---NN.
fn knight_pair(digit: usize) -> (usize, usize) {
    (0..5)
        .flat_map(|first| (first + 1..5).map(move |second| (first, second)))
        .nth(digit)
        .expect("the knight digit is 0..=9")
}

/// Inverse of [`knight_pair`].
fn knight_digit(first: usize, second: usize) -> usize {
    // Pairs starting before `first` come first: 4 + 3 + ... for each earlier start.
    (0..first).map(|earlier| 4 - earlier).sum::<usize>() + (second - first - 1)
}

/// One side's eight back-rank pieces, files a to h.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BackRank([Role; 8]);

/// Why eight letters are not a Chess960 start arrangement.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ArrangementError {
    /// Not exactly eight letters.
    #[error("an arrangement has 8 letters, this one has {0}")]
    WrongLength(usize),
    /// A character that is not one of K, Q, R, B, N.
    #[error("'{letter}' at position {position} is not a piece letter (K, Q, R, B or N)")]
    BadLetter {
        /// The offending character.
        letter: char,
        /// 1-based position in the arrangement.
        position: usize,
    },
    /// Not one king, one queen, two rooks, two bishops and two knights.
    #[error("wrong piece count: {found} {piece}, a start has {expected}")]
    WrongCount {
        /// The piece name, plural.
        piece: &'static str,
        /// How many a start has.
        expected: usize,
        /// How many the arrangement has.
        found: usize,
    },
    /// Both bishops stand on squares of the same colour.
    #[error(
        "both bishops are on {0} squares (one must be on a light square, one on a dark square)"
    )]
    BishopsSameColour(&'static str),
    /// The king is not between the two rooks.
    #[error("the king is not between the rooks")]
    KingNotBetweenRooks,
}

impl BackRank {
    /// Checks that `roles` (files a to h) is one of the 960 start arrangements.
    pub fn new(roles: [Role; 8]) -> Result<BackRank, ArrangementError> {
        let files_of =
            |wanted: Role| -> Vec<usize> { (0..8).filter(|&file| roles[file] == wanted).collect() };
        for (role, piece, expected) in [
            (Role::King, "kings", 1),
            (Role::Queen, "queens", 1),
            (Role::Rook, "rooks", 2),
            (Role::Bishop, "bishops", 2),
            (Role::Knight, "knights", 2),
        ] {
            let found = files_of(role).len();
            if found != expected {
                return Err(ArrangementError::WrongCount {
                    piece,
                    expected,
                    found,
                });
            }
        }
        let bishops = files_of(Role::Bishop);
        if bishops[0] % 2 == bishops[1] % 2 {
            // File a (index 0) of the first rank is a dark square.
            let colour = if bishops[0] % 2 == 0 { "dark" } else { "light" };
            return Err(ArrangementError::BishopsSameColour(colour));
        }
        let rooks = files_of(Role::Rook);
        let king = files_of(Role::King)[0];
        if !(rooks[0] < king && king < rooks[1]) {
            return Err(ArrangementError::KingNotBetweenRooks);
        }
        Ok(BackRank(roles))
    }

    /// The pieces, files a to h.
    pub fn roles(&self) -> [Role; 8] {
        self.0
    }

    /// The file index (0 = a) of the king.
    pub fn king_file(&self) -> usize {
        self.file_of(Role::King)
    }

    /// The file indices (0 = a) of the queen-side and the king-side rook.
    pub fn rook_files(&self) -> (usize, usize) {
        let mut rooks = (0..8).filter(|&file| self.0[file] == Role::Rook);
        let queen_side = rooks.next().expect("two rooks");
        let king_side = rooks.next().expect("two rooks");
        (queen_side, king_side)
    }

    fn file_of(&self, wanted: Role) -> usize {
        (0..8)
            .find(|&file| self.0[file] == wanted)
            .expect("piece present")
    }

    /// The Scharnagl number of this arrangement, computed arithmetically.
    pub fn number(&self) -> StartPosition {
        let mut files: Vec<usize> = (0..8).collect();
        let mut bishops = files.iter().copied().filter(|&f| self.0[f] == Role::Bishop);
        let (b1, b2) = (
            bishops.next().expect("bishop"),
            bishops.next().expect("bishop"),
        );
        let (light, dark) = if b1 % 2 == 1 { (b1, b2) } else { (b2, b1) };
        files.retain(|&f| self.0[f] != Role::Bishop);
        let queen = files
            .iter()
            .position(|&f| self.0[f] == Role::Queen)
            .expect("queen");
        files.retain(|&f| self.0[f] != Role::Queen);
        let mut knights = (0..files.len()).filter(|&i| self.0[files[i]] == Role::Knight);
        let (k1, k2) = (
            knights.next().expect("knight"),
            knights.next().expect("knight"),
        );
        let n = ((knight_digit(k1, k2) * 6 + queen) * 4 + dark / 2) * 4 + (light - 1) / 2;
        StartPosition(n as u16)
    }
}

impl FromStr for BackRank {
    type Err = ArrangementError;

    /// Parses eight piece letters (`RBKNRNBQ`, either case).
    fn from_str(s: &str) -> Result<BackRank, ArrangementError> {
        let letters: Vec<char> = s.chars().collect();
        if letters.len() != 8 {
            return Err(ArrangementError::WrongLength(letters.len()));
        }
        let mut roles = [Role::King; 8];
        for (index, &letter) in letters.iter().enumerate() {
            roles[index] = letter
                .is_ascii()
                .then(|| Role::from_char(letter.to_ascii_lowercase()))
                .flatten()
                .filter(|&role| role != Role::Pawn)
                .ok_or(ArrangementError::BadLetter {
                    letter,
                    position: index + 1,
                })?;
        }
        BackRank::new(roles)
    }
}

impl fmt::Display for BackRank {
    /// Upper-case letters, files a to h.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for role in self.0 {
            write!(f, "{}", role.upper_char())?;
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "numbering_tests.rs"]
mod tests;
