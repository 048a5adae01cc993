//! A back rank filled piece by piece, as at the board: the empty squares counted from the
//! left, a piece put on the n-th of them, and rook, king, rook on the last three. Also the
//! square names and ordinals the traces print.

use shakmaty::Role;

use crate::starts::numbering::BackRank;

/// The files (0 = a) of the dark squares of the first rank: a1, c1, e1, g1.
pub const DARK_FILES: [usize; 4] = [0, 2, 4, 6];
/// The files (0 = a) of the light squares of the first rank: b1, d1, f1, h1.
pub const LIGHT_FILES: [usize; 4] = [1, 3, 5, 7];

/// White's back rank while it is being filled, files a to h.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PartialRank([Option<Role>; 8]);

impl PartialRank {
    /// The files (0 = a) still empty, from the left.
    pub fn empty_files(&self) -> Vec<usize> {
        (0..8).filter(|&file| self.0[file].is_none()).collect()
    }

    /// Puts `role` on `file`.
    pub fn put(&mut self, file: usize, role: Role) {
        self.0[file] = Some(role);
    }

    /// Puts `role` on the `index`-th (0-based) empty square and returns its file, or
    /// `None` (and changes nothing) when there are not that many empty squares.
    #[cfg(test)]
    pub fn put_on_empty(&mut self, index: usize, role: Role) -> Option<usize> {
        let file = *self.empty_files().get(index)?;
        self.put(file, role);
        Some(file)
    }

    /// [`PartialRank::finish`], once the five pieces the dice place (`placed`) are on the
    /// rank.
    pub fn finish_after(self, placed: u8) -> Option<FinishedRank> {
        if placed < 5 {
            return None;
        }
        self.finish()
    }

    /// Rook, king, rook on the three squares left: the finished arrangement and the files
    /// of the rooks and the king, or `None` unless exactly three squares are empty and the
    /// result is a Chess960 start.
    pub fn finish(mut self) -> Option<FinishedRank> {
        let empty = self.empty_files();
        let [rook, king, other_rook] = empty[..] else {
            return None;
        };
        self.put(rook, Role::Rook);
        self.put(king, Role::King);
        self.put(other_rook, Role::Rook);
        let roles = self.0.map(|role| role.unwrap_or(Role::Pawn));
        let rank = BackRank::new(roles).ok()?;
        Some(FinishedRank {
            rank,
            rooks: (rook, other_rook),
            king,
        })
    }
}

/// A rank completed by [`PartialRank::finish`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FinishedRank {
    /// The arrangement.
    pub rank: BackRank,
    /// The files of the two rooks.
    pub rooks: (usize, usize),
    /// The file of the king.
    pub king: usize,
}

impl FinishedRank {
    /// `rooks on a1 and h1, king on e1 between them`.
    pub fn sentence(&self) -> String {
        format!(
            "rooks on {} and {}, king on {} between them",
            square(self.rooks.0, '1'),
            square(self.rooks.1, '1'),
            square(self.king, '1')
        )
    }
}

/// The name of the square on `file` (0 = a) of `rank` (`'1'` or `'8'`): `e1`.
pub fn square(file: usize, rank: char) -> String {
    format!("{}{rank}", char::from(b'a' + file as u8))
}

/// The squares on `files` of the first rank, separated by spaces: `a1 c1 e1 g1`.
pub fn squares(files: &[usize]) -> String {
    files
        .iter()
        .map(|&file| square(file, '1'))
        .collect::<Vec<_>>()
        .join(" ")
}

pub use crate::starts::explain::ordinal;

/// The English name of a piece, as the traces print it.
pub fn piece_name(role: Role) -> &'static str {
    match role {
        Role::King => "king",
        Role::Queen => "queen",
        Role::Rook => "rook",
        Role::Bishop => "bishop",
        Role::Knight => "knight",
        Role::Pawn => "pawn",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filling_the_standard_start() {
        let mut rank = PartialRank::default();
        rank.put(2, Role::Bishop);
        rank.put(5, Role::Bishop);
        assert_eq!(rank.put_on_empty(2, Role::Queen), Some(3));
        assert_eq!(rank.put_on_empty(1, Role::Knight), Some(1));
        assert_eq!(rank.put_on_empty(2, Role::Knight), Some(6));
        assert_eq!(rank.put_on_empty(3, Role::Knight), None, "only three left");
        assert_eq!(rank.empty_files(), [0, 4, 7]);
        let finished = rank.finish().unwrap();
        assert_eq!(finished.rank.to_string(), "RNBQKBNR");
        assert_eq!(
            finished.sentence(),
            "rooks on a1 and h1, king on e1 between them"
        );
        assert_eq!(PartialRank::default().finish(), None);
    }

    #[test]
    fn names() {
        assert_eq!(squares(&DARK_FILES), "a1 c1 e1 g1");
        assert_eq!(square(7, '8'), "h8");
        let ordinals: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22].map(ordinal).into();
        assert_eq!(
            ordinals,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"
            ]
        );
    }
}
