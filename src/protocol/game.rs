//! A game position as a GUI sends it (a root position and the moves played from it),
//! checked with shakmaty in Chess960 mode, and rendered back for an engine in the
//! notation that engine takes. Protocol-neutral: UCI `position`, XBoard `setboard`/moves
//! and the match runner share it.

use shakmaty::fen::Fen;
use shakmaty::{
    Bitboard, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, FromSetup, Move, Position,
    Rank, Square,
};
use thiserror::Error;

use crate::starts::castling::{
    CastlingDialect, MoveError, is_standard_castling, parse_move, write_move,
};
use crate::starts::notation::{CastlingNotation, position_fen};

/// A root position and the legal moves played from it.
#[derive(Debug, Clone)]
pub struct GameLine {
    /// Where the game (or the GUI's record of it) starts.
    pub root: Chess,
    /// The moves from `root`, each legal where it is played.
    pub moves: Vec<Move>,
    /// The position after all `moves`.
    pub current: Chess,
}

/// Why a GUI's position was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    /// The FEN does not parse or is not a legal chess position.
    #[error("bad FEN '{fen}': {reason}")]
    Fen {
        /// The FEN text as given.
        fen: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Move number `index` (from 1) of the list is not legal where it is played.
    #[error("move {index} of the list: {error}")]
    Move {
        /// 1-based position in the move list.
        index: usize,
        /// The problem with that move.
        error: MoveError,
    },
}

/// Reads a FEN (Shredder, X-FEN or plain `KQkq`; 4 to 6 fields) as a legal position in
/// Chess960 mode. Castling rights without a matching king and rook, and an en-passant
/// square no pawn could have made, are dropped rather than refused (GUIs send stale ones);
/// each dropped part is described in the returned notes. Everything else that shakmaty
/// finds wrong (missing or extra kings, pawns on the back rank, the side not to move in
/// check, ...) is an error: those are the positions that crash engines.
pub fn parse_fen(fen: &str) -> Result<(Chess, Vec<String>), PositionError> {
    let error = |reason: String| PositionError::Fen {
        fen: fen.to_owned(),
        reason,
    };
    let parsed: Fen = fen.trim().parse().map_err(|err| error(format!("{err}")))?;
    let mut notes = Vec::new();
    let position = match Chess::from_setup(parsed.into_setup(), CastlingMode::Chess960) {
        Ok(position) => position,
        Err(err) => {
            let kinds = err.kinds();
            let repaired = match err.ignore_invalid_castling_rights() {
                Ok(position) => position,
                Err(err) => err
                    .ignore_invalid_ep_square()
                    .map_err(|err| error(err.to_string()))?,
            };
            use shakmaty::PositionErrorKinds as Kinds;
            if kinds.contains(Kinds::INVALID_CASTLING_RIGHTS) {
                notes.push("invalid castling rights dropped".to_owned());
            }
            if kinds.contains(Kinds::INVALID_EP_SQUARE) {
                notes.push("invalid en-passant square dropped".to_owned());
            }
            repaired
        }
    };
    Ok((position, notes))
}

impl GameLine {
    /// A line with no moves yet.
    pub fn new(root: Chess) -> GameLine {
        GameLine {
            current: root.clone(),
            root,
            moves: Vec::new(),
        }
    }

    /// Reads and plays `text` in the current position (either castling dialect).
    pub fn push_text(&mut self, text: &[u8]) -> Result<&Move, PositionError> {
        let m = parse_move(&self.current, text).map_err(|error| PositionError::Move {
            index: self.moves.len() + 1,
            error,
        })?;
        self.push(m);
        Ok(self.moves.last().expect("just pushed"))
    }

    /// Plays a move known to be legal.
    pub fn push(&mut self, m: Move) {
        self.current.play_unchecked(m);
        self.moves.push(m);
    }

    /// Takes back the last `plies` moves; false (and the line unchanged) when it has fewer.
    pub fn take_back(&mut self, plies: usize) -> bool {
        let Some(keep) = self.moves.len().checked_sub(plies) else {
            return false;
        };
        self.moves.truncate(keep);
        self.current = self.root.clone();
        for m in &self.moves {
            self.current.play_unchecked(*m);
        }
        true
    }

    /// The same game with a shorter move list: the root moved up to the position after
    /// the last irreversible move (a capture, a pawn move or a change of castling rights,
    /// after which no earlier position can repeat), or to `keep` plies before the end if
    /// that is later. The current position is the same, the FEN's halfmove clock keeps
    /// the 50-move count, and every position a repetition can still reach within the last
    /// `keep` plies is in the list.
    pub fn rebased(&self, keep: usize) -> GameLine {
        let mut position = self.root.clone();
        let mut from = 0;
        for (index, m) in self.moves.iter().enumerate() {
            let rights = position.castles().castling_rights();
            position.play_unchecked(*m);
            if position.halfmoves() == 0 || position.castles().castling_rights() != rights {
                from = index + 1;
            }
        }
        let from = from.max(self.moves.len().saturating_sub(keep));
        let mut root = self.root.clone();
        for m in &self.moves[..from] {
            root.play_unchecked(*m);
        }
        let mut line = GameLine::new(root);
        for m in &self.moves[from..] {
            line.push(*m);
        }
        line
    }

    /// Appends ` moves m1 m2 ...` (nothing when there are no moves) in `dialect`.
    pub fn write_moves(moves: &[Move], dialect: CastlingDialect, out: &mut Vec<u8>) {
        if moves.is_empty() {
            return;
        }
        out.extend_from_slice(b" moves");
        for m in moves {
            out.push(b' ');
            write_move(m, dialect, out);
        }
    }

    /// The line as a standard-chess engine (no Chess960 support) can take it: castling
    /// rights it cannot express (king not on e1/e8, or rook not on the a/h-file) removed,
    /// and, if the GUI's moves contain such a castling move, the root moved up to the
    /// position after the last one (the engine then lacks the earlier history, nothing
    /// else). The engine's moves stay legal in the real game: it just never castles where
    /// standard chess would not.
    pub fn for_standard_engine(&self) -> GameLine {
        let last_foreign = self
            .moves
            .iter()
            .rposition(|m| m.is_castle() && !is_standard_castling(m));
        let (mut root, rest) = match last_foreign {
            Some(index) => {
                let mut root = self.root.clone();
                for m in &self.moves[..=index] {
                    root.play_unchecked(*m);
                }
                (root, &self.moves[index + 1..])
            }
            None => (self.root.clone(), &self.moves[..]),
        };
        root = standard_rights_only(&root);
        let mut line = GameLine::new(root);
        for m in rest {
            line.push(*m);
        }
        line
    }

    /// The line as an engine that keeps one king file and one rook file per wing for both
    /// colours (Glaurung 2.2; see [`shared_castling_files`]) can take it. A root whose
    /// rights fit is kept. Otherwise the root moves up to the first position of the line
    /// whose rights fit (a castling right was lost there, so no earlier position can
    /// repeat); when none does, it moves up to the position after the last castling move
    /// and keeps there the rights of the side to move at the end of the line, and those of
    /// the other side that fit them. The engine's moves stay legal in the real game: it
    /// only misses castling rights (the opponent's, in the last case) it cannot hold.
    pub fn for_shared_castling_files(&self) -> GameLine {
        let mut position = self.root.clone();
        let mut from = None;
        for (index, m) in self.moves.iter().enumerate() {
            if shared_castling_files(&position) {
                from = Some(index);
                break;
            }
            position.play_unchecked(*m);
        }
        let (from, strip) = match from {
            Some(index) => (index, false),
            None if shared_castling_files(&self.current) => (self.moves.len(), false),
            None => (
                self.moves
                    .iter()
                    .rposition(|m| m.is_castle())
                    .map_or(0, |index| index + 1),
                true,
            ),
        };
        let mut root = self.root.clone();
        for m in &self.moves[..from] {
            root.play_unchecked(*m);
        }
        if strip {
            root = shared_files_rights_only(&root, self.current.turn());
        }
        let mut line = GameLine::new(root);
        for m in &self.moves[from..] {
            line.push(*m);
        }
        line
    }
}

/// The castling rights of `position` by colour: (king, king-side rook, queen-side rook).
fn castling_squares(
    position: &Chess,
    color: Color,
) -> Option<(Square, Option<Square>, Option<Square>)> {
    let castles = position.castles();
    let king = position.board().king_of(color)?;
    let short = castles.rook(color, CastlingSide::KingSide);
    let long = castles.rook(color, CastlingSide::QueenSide);
    (short.is_some() || long.is_some()).then_some((king, short, long))
}

/// True when every castling right of `position` fits one king file, one king-side rook
/// file and one queen-side rook file for both colours. Glaurung 2.2 keeps only those three
/// files: given `HDfa` (white king g1, black king d8) it castles black's king from d8 with
/// a "rook" on f8 that is white's file and corrupts its board (docs/hostile-gui.md).
pub fn shared_castling_files(position: &Chess) -> bool {
    let (Some(white), Some(black)) = (
        castling_squares(position, Color::White),
        castling_squares(position, Color::Black),
    ) else {
        return true;
    };
    let same = |a: Option<Square>, b: Option<Square>| match (a, b) {
        (Some(a), Some(b)) => a.file() == b.file(),
        _ => true,
    };
    white.0.file() == black.0.file() && same(white.1, black.1) && same(white.2, black.2)
}

/// `position` with the castling rights of `keep` and only those of the other colour that
/// share its files ([`shared_castling_files`]).
pub fn shared_files_rights_only(position: &Chess, keep: Color) -> Chess {
    if shared_castling_files(position) {
        return position.clone();
    }
    let (Some(kept), Some(other)) = (
        castling_squares(position, keep),
        castling_squares(position, !keep),
    ) else {
        return position.clone();
    };
    let fits = |a: Option<Square>, b: Option<Square>| {
        kept.0.file() == other.0.file() && a.is_some_and(|a| b.is_none_or(|b| a.file() == b.file()))
    };
    let mut rights = position.castles().castling_rights();
    for (rook, mine) in [(other.1, kept.1), (other.2, kept.2)] {
        if let Some(rook) = rook
            && !fits(Some(rook), mine)
        {
            rights.discard(rook);
        }
    }
    with_castling_rights(position, rights)
}

/// `position` with only the castling rights of standard chess kept (king on e1/e8, rook
/// on the a/h-file).
pub fn standard_rights_only(position: &Chess) -> Chess {
    let mut kept = Bitboard::EMPTY;
    for rook in position.castles().castling_rights() {
        let color = Color::from_white(rook.rank() == Rank::First);
        if let Some(king) = position.board().king_of(color)
            && is_standard_castling(&Move::Castle { king, rook })
        {
            kept.add(rook);
        }
    }
    with_castling_rights(position, kept)
}

/// `position` with only the castling rights `kept`, a subset of its own (the same position
/// when that is all of them).
fn with_castling_rights(position: &Chess, kept: Bitboard) -> Chess {
    if kept == position.castles().castling_rights() {
        return position.clone();
    }
    let mut setup = position.to_setup(EnPassantMode::Legal);
    setup.castling_rights = kept;
    match Chess::from_setup(setup, CastlingMode::Chess960) {
        Ok(stripped) => stripped,
        // Fewer rights than a legal position had cannot make it illegal; stay safe anyway.
        Err(_) => position.clone(),
    }
}

/// True when `position` has a castling right only Chess960 can express (king not on
/// e1/e8, or rook not on the a/h-file).
pub fn has_chess960_castling(position: &Chess) -> bool {
    standard_rights_only(position).castles().castling_rights()
        != position.castles().castling_rights()
}

/// How an engine takes FENs and castling moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineChess {
    /// Chess960 mode on: king-takes-rook castling, FEN castling field in this notation.
    Chess960(CastlingNotation),
    /// Standard chess only: king-destination castling, `KQkq` FENs, no other castling.
    Standard,
}

impl EngineChess {
    /// The dialect the engine writes and reads castling moves in.
    pub fn dialect(self) -> CastlingDialect {
        match self {
            EngineChess::Chess960(_) => CastlingDialect::Chess960,
            EngineChess::Standard => CastlingDialect::Standard,
        }
    }

    /// The FEN of `position` for this engine.
    pub fn fen(self, position: &Chess) -> String {
        match self {
            EngineChess::Chess960(notation) => position_fen(position, notation),
            EngineChess::Standard => position_fen(position, CastlingNotation::Xfen),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn take_back_replays_from_the_root() {
        let mut line = GameLine::new(Chess::default());
        for text in ["e2e4", "e7e5", "g1f3"] {
            line.push_text(text.as_bytes()).unwrap();
        }
        assert!(line.take_back(2));
        assert_eq!(line.moves.len(), 1);
        let mut expected = GameLine::new(Chess::default());
        expected.push_text(b"e2e4").unwrap();
        assert_eq!(line.current, expected.current);
        assert!(!line.take_back(2), "only one move left");
        assert_eq!(line.moves.len(), 1, "unchanged");
    }

    #[test]
    fn rebased_keeps_the_position_and_the_reversible_tail() {
        let mut line = GameLine::new(Chess::default());
        for text in ["e2e4", "e7e5", "g1f3", "b8c6", "f3g1", "c6b8", "g1f3"] {
            line.push_text(text.as_bytes()).unwrap();
        }
        // After e7e5 (the last pawn move) five reversible moves follow.
        let rebased = line.rebased(100);
        assert_eq!(rebased.moves.len(), 5);
        assert_eq!(rebased.current, line.current);
        assert_eq!(
            EngineChess::Standard.fen(&rebased.root),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        // At most `keep` plies stay; the halfmove clock carries the rest.
        let short = line.rebased(2);
        assert_eq!(short.moves.len(), 2);
        assert_eq!(short.current, line.current);
        assert_eq!(short.root.halfmoves(), 3);
        // A castling move is irreversible too (the rights change).
        let (root, _) = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 20").unwrap();
        let mut line = GameLine::new(root);
        for text in ["e1h1", "e8d8", "f1e1"] {
            line.push_text(text.as_bytes()).unwrap();
        }
        assert_eq!(line.rebased(100).moves.len(), 1);
    }

    #[test]
    fn broken_fens_are_refused_with_the_reason() {
        for (fen, reason) in [
            ("8/8/8/8/8/8/8/8 w - - 0 1", "empty board"),
            ("4k3/8/8/8/8/8/8/8 w - - 0 1", "missing king"),
            ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "too many kings"),
            ("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "opposite check"),
            ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "pawns on backrank"),
            ("garbage", "FEN"),
            ("", "FEN"),
            ("8/8/8/8/8/8/8/8/8 w - - 0 1", "FEN"),
        ] {
            let err = parse_fen(fen).unwrap_err();
            assert!(err.to_string().contains(reason), "{fen}: {err}");
            assert!(err.to_string().contains(fen), "{fen}: {err}");
        }
    }

    #[test]
    fn stale_castling_rights_are_dropped_with_a_note() {
        let (pos, notes) = parse_fen("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1").unwrap();
        assert!(pos.castles().is_empty());
        assert_eq!(notes, ["invalid castling rights dropped"]);
        let (_, notes) =
            parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert!(notes.is_empty());
    }

    #[test]
    fn moves_are_checked_one_by_one() {
        let mut line = GameLine::new(Chess::default());
        line.push_text(b"e2e4").unwrap();
        let err = line.push_text(b"e2e4").unwrap_err();
        assert_eq!(
            err.to_string(),
            "move 2 of the list: 'e2e4' is not a legal move here"
        );
    }

    #[test]
    fn standard_engines_get_a_line_without_chess960_castling() {
        // SP 860 (RBKNRNBQ): no castling right a standard engine can express.
        let (root, _) =
            parse_fen("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1").unwrap();
        let mut line = GameLine::new(root);
        for m in "d1e3 d8e6 f1g3 f8g6 f2f4 f7f5 g1f2 g8f7 c2c3 c7c6 b1d3 b8d6 c1e1 a7a6".split(' ')
        {
            line.push_text(m.as_bytes()).unwrap();
        }
        let standard = line.for_standard_engine();
        assert_eq!(standard.moves.len(), 1, "rebased after the castling move");
        assert_eq!(
            EngineChess::Standard.fen(&standard.root),
            "r1k1r2q/pp1ppbpp/2pbn1n1/5p2/5P2/2PBN1N1/PP1PPBPP/R4RKQ b - - 3 7"
        );
        assert_eq!(standard.current.board(), line.current.board());
        // The standard array keeps its rights and its history.
        let mut line = GameLine::new(Chess::default());
        line.push_text(b"g1f3").unwrap();
        let standard = line.for_standard_engine();
        assert_eq!(standard.moves.len(), 1);
        assert_eq!(
            EngineChess::Standard.fen(&standard.root),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
    }
    #[test]
    fn shared_castling_files_need_one_king_file_and_one_rook_file_per_wing() {
        let fits = |fen: &str| shared_castling_files(&parse_fen(fen).unwrap().0);
        // A Chess960 start (both colours alike) and the standard array fit.
        assert!(fits(
            "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1"
        ));
        assert!(fits(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        ));
        // Different starts: the king files differ (g1, d8).
        assert!(!fits(
            "rnqknrbb/pppppppp/8/8/8/8/PPPPPPPP/BNQRNBKR w HDfa - 0 1"
        ));
        // Same king file, other king-side rook files (h1, g8).
        assert!(!fits(
            "rnbqkbr1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAga - 0 1"
        ));
        // One colour without rights, or rights on different wings only: nothing to share.
        assert!(fits(
            "rnqknrbb/pppppppp/8/8/8/8/PPPPPPPP/BNQRNBKR w HD - 0 1"
        ));
        assert!(fits(
            "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Ah - 0 1"
        ));
    }

    #[test]
    fn engines_with_shared_castling_files_get_rights_they_can_hold() {
        let line_from = |fen: &str, moves: &str| {
            let mut line = GameLine::new(parse_fen(fen).unwrap().0);
            for m in moves.split_whitespace() {
                line.push_text(m.as_bytes()).unwrap();
            }
            line
        };
        let fen = |line: &GameLine| position_fen(&line.root, CastlingNotation::Shredder);
        // Rights that fit: the line as it is.
        let line = line_from(
            "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1",
            "d1e3 d8e6",
        );
        let shared = line.for_shared_castling_files();
        assert_eq!(fen(&shared), fen(&line));
        assert_eq!(shared.moves, line.moves);
        // They fit once a king has moved: the line starts there and keeps every right
        // (no earlier position can repeat after the rights changed).
        let start = "rnqknrbb/pppppppp/8/8/8/8/PPPPPPPP/BNQRNBKR w HDfa - 0 1";
        let line = line_from(start, "e2e4 e7e5 f1e2 d8e7 e2d3");
        let shared = line.for_shared_castling_files();
        assert_eq!(
            fen(&shared),
            "rnq1nrbb/ppppkppp/8/4p3/4P3/8/PPPPBPPP/BNQRN1KR w HD - 2 3"
        );
        assert_eq!(shared.moves.len(), 1);
        assert_eq!(shared.current, line.current);
        // They never fit: the side to move at the end keeps its rights, the other colour
        // loses those that do not share its files; the moves stay.
        let line = line_from(start, "b2b4 e7e6 b4b5 f7f6 e1f3 c7c5");
        let shared = line.for_shared_castling_files();
        assert_eq!(
            fen(&shared),
            "rnqknrbb/pppppppp/8/8/8/8/PPPPPPPP/BNQRNBKR w HD - 0 1"
        );
        assert_eq!(shared.moves, line.moves);
        assert_eq!(shared.current.board(), line.current.board());
        assert_eq!(shared.current.turn(), line.current.turn());
        let line = line_from(start, "b2b4 e7e6 b4b5 f7f6 e1f3");
        assert_eq!(
            fen(&line.for_shared_castling_files()),
            "rnqknrbb/pppppppp/8/8/8/8/PPPPPPPP/BNQRNBKR w fa - 0 1"
        );
        // A castling move in the list: the line starts after it, where only black has
        // rights left.
        let line = line_from(
            "rnqknrbb/pppppppp/8/8/8/8/PPPPPPPP/BNQR2KR w HDfa - 0 1",
            "g1h1 e7e6",
        );
        let shared = line.for_shared_castling_files();
        assert_eq!(
            fen(&shared),
            "rnqknrbb/pppppppp/8/8/8/8/PPPPPPPP/BNQR1RK1 b fa - 1 1"
        );
        assert_eq!(shared.moves.len(), 1);
        assert_eq!(shared.current, line.current);
    }
}
