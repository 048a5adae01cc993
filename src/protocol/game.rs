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
#[path = "game_tests.rs"]
mod tests;
