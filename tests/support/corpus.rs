//! Deterministic corpora of Chess960 positions from random play-outs, shared by the
//! python-chess agreement test and the throughput benchmark (`#[path]`-included).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Position};
use sp960::notation::{CastlingNotation, position_fen};
use sp960::start::RandomStarts;

/// `count` FENs (Shredder castling, en passant only when legal) of the positions met in
/// random games from random starts (one in four double-FRC), every ply of every game, at
/// most `max_plies` plies a game. The same seed gives the same list everywhere.
pub fn playout_fens(seed: u64, count: usize, max_plies: usize) -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut classic = RandomStarts::new(seed, false);
    let mut dfrc = RandomStarts::new(seed ^ 0x5eed, true);
    let mut fens = Vec::with_capacity(count);
    while fens.len() < count {
        let start = if rng.random_range(0..4) == 0 {
            dfrc.next()
        } else {
            classic.next()
        };
        let mut position: Chess = start.expect("endless").position().expect("a start");
        for _ in 0..max_plies {
            if fens.len() == count {
                break;
            }
            fens.push(position_fen(&position, CastlingNotation::Shredder));
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let chosen = moves[rng.random_range(0..moves.len())];
            position.play_unchecked(chosen);
        }
    }
    fens
}
