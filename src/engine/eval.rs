//! Static evaluation: material plus piece-square tables (Tomasz Michniewski's "simplified
//! evaluation function"), the king's table blended from middlegame to endgame by the
//! material left on the board, and a small bishop-pair bonus.

use shakmaty::{Board, Color, Position, Role, Square};

/// Centipawn value of each role, indexed by `Role as usize - 1` (pawn first).
pub const PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// The value of a role in centipawns (the king counts 0).
pub fn piece_value(role: Role) -> i32 {
    PIECE_VALUES[role as usize - 1]
}

const BISHOP_PAIR: i32 = 30;

// Tables from White's point of view, rank 8 first (as printed), a-file left.
#[rustfmt::skip]
const PAWN: [i32; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
    50, 50, 50, 50, 50, 50, 50, 50,
    10, 10, 20, 30, 30, 20, 10, 10,
     5,  5, 10, 25, 25, 10,  5,  5,
     0,  0,  0, 20, 20,  0,  0,  0,
     5, -5,-10,  0,  0,-10, -5,  5,
     5, 10, 10,-20,-20, 10, 10,  5,
     0,  0,  0,  0,  0,  0,  0,  0,
];
#[rustfmt::skip]
const KNIGHT: [i32; 64] = [
    -50,-40,-30,-30,-30,-30,-40,-50,
    -40,-20,  0,  0,  0,  0,-20,-40,
    -30,  0, 10, 15, 15, 10,  0,-30,
    -30,  5, 15, 20, 20, 15,  5,-30,
    -30,  0, 15, 20, 20, 15,  0,-30,
    -30,  5, 10, 15, 15, 10,  5,-30,
    -40,-20,  0,  5,  5,  0,-20,-40,
    -50,-40,-30,-30,-30,-30,-40,-50,
];
#[rustfmt::skip]
const BISHOP: [i32; 64] = [
    -20,-10,-10,-10,-10,-10,-10,-20,
    -10,  0,  0,  0,  0,  0,  0,-10,
    -10,  0,  5, 10, 10,  5,  0,-10,
    -10,  5,  5, 10, 10,  5,  5,-10,
    -10,  0, 10, 10, 10, 10,  0,-10,
    -10, 10, 10, 10, 10, 10, 10,-10,
    -10,  5,  0,  0,  0,  0,  5,-10,
    -20,-10,-10,-10,-10,-10,-10,-20,
];
#[rustfmt::skip]
const ROOK: [i32; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
     5, 10, 10, 10, 10, 10, 10,  5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
     0,  0,  0,  5,  5,  0,  0,  0,
];
#[rustfmt::skip]
const QUEEN: [i32; 64] = [
    -20,-10,-10, -5, -5,-10,-10,-20,
    -10,  0,  0,  0,  0,  0,  0,-10,
    -10,  0,  5,  5,  5,  5,  0,-10,
     -5,  0,  5,  5,  5,  5,  0, -5,
      0,  0,  5,  5,  5,  5,  0, -5,
    -10,  5,  5,  5,  5,  5,  0,-10,
    -10,  0,  5,  0,  0,  0,  0,-10,
    -20,-10,-10, -5, -5,-10,-10,-20,
];
#[rustfmt::skip]
const KING_MIDDLEGAME: [i32; 64] = [
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -20,-30,-30,-40,-40,-30,-30,-20,
    -10,-20,-20,-20,-20,-20,-20,-10,
     20, 20,  0,  0,  0,  0, 20, 20,
     20, 30, 10,  0,  0, 10, 30, 20,
];
#[rustfmt::skip]
const KING_ENDGAME: [i32; 64] = [
    -50,-40,-30,-20,-20,-30,-40,-50,
    -30,-20,-10,  0,  0,-10,-20,-30,
    -30,-10, 20, 30, 30, 20,-10,-30,
    -30,-10, 30, 40, 40, 30,-10,-30,
    -30,-10, 30, 40, 40, 30,-10,-30,
    -30,-10, 20, 30, 30, 20,-10,-30,
    -30,-30,  0,  0,  0,  0,-30,-30,
    -50,-30,-30,-30,-30,-30,-30,-50,
];

/// Non-pawn material (both sides) at which the king counts as fully in the middlegame.
const FULL_PHASE: i32 = 2 * (2 * 320 + 2 * 330 + 2 * 500 + 900);

/// Index into the tables above for a piece of `color` on `square`.
fn table_index(color: Color, square: Square) -> usize {
    let rank = square.rank() as usize;
    let file = square.file() as usize;
    match color {
        Color::White => (7 - rank) * 8 + file,
        Color::Black => rank * 8 + file,
    }
}

fn table(role: Role) -> &'static [i32; 64] {
    match role {
        Role::Pawn => &PAWN,
        Role::Knight => &KNIGHT,
        Role::Bishop => &BISHOP,
        Role::Rook => &ROOK,
        Role::Queen => &QUEEN,
        Role::King => &KING_MIDDLEGAME,
    }
}

/// White's advantage in centipawns on `board`.
pub fn evaluate_board(board: &Board) -> i32 {
    let mut score = 0;
    let mut phase_material = 0;
    let mut king_middlegame = 0;
    let mut king_endgame = 0;
    for (square, piece) in board {
        let sign = piece.color.fold_wb(1, -1);
        let index = table_index(piece.color, square);
        match piece.role {
            Role::King => {
                king_middlegame += sign * KING_MIDDLEGAME[index];
                king_endgame += sign * KING_ENDGAME[index];
            }
            role => {
                score += sign * (piece_value(role) + table(role)[index]);
                if role != Role::Pawn {
                    phase_material += piece_value(role);
                }
            }
        }
    }
    for color in Color::ALL {
        if (board.bishops() & board.by_color(color)).count() >= 2 {
            score += color.fold_wb(BISHOP_PAIR, -BISHOP_PAIR);
        }
    }
    let phase = phase_material.min(FULL_PHASE);
    score + (king_middlegame * phase + king_endgame * (FULL_PHASE - phase)) / FULL_PHASE
}

/// The evaluation from the point of view of the side to move (negamax convention).
pub fn evaluate<P: Position>(position: &P) -> i32 {
    let white = evaluate_board(position.board());
    position.turn().fold_wb(white, -white)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Chess;

    fn position(fen: &str) -> Chess {
        crate::starts::notation::chess960_position(fen)
    }

    #[test]
    fn symmetric_starts_evaluate_to_zero() {
        for number in [0, 518, 860, 959] {
            let start = crate::starts::start::Start::symmetric(
                crate::starts::numbering::StartPosition::new(number).unwrap(),
            );
            assert_eq!(evaluate(&start.position().unwrap()), 0, "SP {number}");
        }
    }

    #[test]
    fn mirrored_positions_have_opposite_scores() {
        let white = position("4k3/8/8/8/8/2N5/PP6/4K2R w K - 0 1");
        let black = position("4k2r/pp6/2n5/8/8/8/8/4K3 b k - 0 1");
        assert_eq!(
            evaluate_board(white.board()),
            -evaluate_board(black.board())
        );
        assert_eq!(evaluate(&white), evaluate(&black));
    }

    #[test]
    fn extra_queen_is_worth_about_a_queen() {
        let score = evaluate(&position("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"));
        assert!((800..1000).contains(&score), "{score}");
        let score = evaluate(&position("4k3/8/8/8/8/8/8/3QK3 b - - 0 1"));
        assert!((-1000..-800).contains(&score), "{score}");
    }

    #[test]
    fn endgame_king_prefers_the_centre() {
        let centre = evaluate(&position("7k/8/8/8/3K4/8/8/8 w - - 0 1"));
        let corner = evaluate(&position("7k/8/8/8/8/8/8/K7 w - - 0 1"));
        assert!(centre > corner, "{centre} <= {corner}");
    }
}
