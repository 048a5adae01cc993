//! The positions the perft group counts from: the built-in castling cases, the 960
//! starts, double-FRC pairs and positions reached by seeded random play from random
//! starts (castling rights partly kept, rooks moved inward, kings and rooks side by side).
//! The same seed gives the same positions on every platform (ChaCha8).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Position};

use crate::check::cases::{CASES, Mode};
use crate::check::descent::chess960;
use crate::check::{default_counts, start_counts};
use crate::starts::numbering::StartPosition;
use crate::starts::start::{RandomStarts, Start};

/// One position to count from.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    /// What it is: `case king-stays`, `SP 518`, `DFRC 0:959`, `random 12`.
    pub label: String,
    /// The position.
    pub position: Chess,
    /// The depth to count to.
    pub depth: u32,
    /// The mode the engine counts in.
    pub mode: Mode,
    /// shakmaty's count at `depth`, when it is kept and need not be counted again (the
    /// starts' in [`start_counts`], the default run's other positions' in
    /// [`default_counts`]).
    pub kept: Option<u64>,
}

/// How many positions of each kind, and how deep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// Depth for the starts, pairs and random positions.
    pub depth: u32,
    /// Depth for the built-in cases (small positions: deeper).
    pub case_depth: u32,
    /// Whether all 960 starts are counted.
    pub starts: bool,
    /// How many double-FRC pairs.
    pub pairs: usize,
    /// How many positions from random play.
    pub random: usize,
    /// The seed of the pairs and the random play.
    pub seed: u64,
}

impl Plan {
    /// The default run (`sp960 check ENGINE` with no other flag): depth 4 (the cases 5),
    /// every start, 100 pairs and 200 random positions of seed 1. shakmaty's counts of all
    /// its positions are kept, so only the engine counts.
    pub const DEFAULT: Plan = Plan {
        depth: 4,
        case_depth: 5,
        starts: true,
        pairs: 100,
        random: 200,
        seed: 1,
    };
}

/// Every position of `plan`, cases first.
pub fn probes(plan: &Plan) -> Vec<Probe> {
    let mut probes: Vec<Probe> = CASES
        .iter()
        .map(|case| {
            let position = chess960(case.fen);
            Probe {
                label: format!("case {}", case.name),
                kept: default_counts::kept_perft(&position, plan.case_depth),
                position,
                depth: plan.case_depth,
                mode: case.mode,
            }
        })
        .collect();
    let start = |start: Start, depth| {
        let position = start.position().expect("every start is a legal position");
        Probe {
            label: start.label(),
            kept: if start.is_symmetric() {
                start_counts::start_perft(start.white, depth)
            } else {
                default_counts::kept_perft(&position, depth)
            },
            position,
            depth,
            mode: Mode::Chess960,
        }
    };
    if plan.starts {
        probes.extend(StartPosition::all().map(|sp| start(Start::symmetric(sp), plan.depth)));
    }
    probes.extend(
        RandomStarts::new(plan.seed, true)
            .filter(|s| !s.is_symmetric())
            .take(plan.pairs)
            .map(|s| start(s, plan.depth)),
    );
    probes.extend(
        random_play(plan.seed, plan.random)
            .into_iter()
            .enumerate()
            .map(|(n, position)| Probe {
                label: format!("random {} (seed {})", n + 1, plan.seed),
                kept: default_counts::kept_perft(&position, plan.depth),
                position,
                depth: plan.depth,
                mode: Mode::Chess960,
            }),
    );
    probes
}

/// `count` positions from seeded random play: from a random start (double-FRC), 6 to 40
/// random legal plies, kept when a castling right is left and not all four are (so
/// rooks and kings have moved), and the game is not over.
pub fn random_play(seed: u64, count: usize) -> Vec<Chess> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5EED_C4EC);
    let mut starts = RandomStarts::new(seed, true);
    let mut found = Vec::with_capacity(count);
    while found.len() < count {
        let start = starts.next().expect("an endless stream");
        let mut position = start.position().expect("every start is a legal position");
        let plies = rng.random_range(6..=40);
        for _ in 0..plies {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            position.play_unchecked(m);
        }
        let rights = position.castles().castling_rights().count();
        if (1..4).contains(&rights) && !position.legal_moves().is_empty() {
            found.push(position);
        }
    }
    found
}

/// Whether both kings still stand on their back rank (for the tests' statistics).
#[cfg(test)]
fn kings_home(position: &Chess) -> bool {
    shakmaty::Color::ALL.into_iter().all(|color| {
        position
            .board()
            .king_of(color)
            .is_some_and(|k| k.rank() == color.backrank())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_plan_has_every_kind() {
        let plan = Plan {
            depth: 3,
            case_depth: 4,
            starts: true,
            pairs: 20,
            random: 50,
            seed: 7,
        };
        let probes = probes(&plan);
        assert_eq!(probes.len(), CASES.len() + 960 + 20 + 50);
        assert_eq!(probes[CASES.len()].label, "SP 0");
        assert!(probes[CASES.len() + 960].label.starts_with("DFRC "));
        // The same seed, the same positions.
        assert_eq!(probes, super::probes(&plan));
    }

    #[test]
    fn random_play_keeps_some_castling_rights_and_varies() {
        let positions = random_play(11, 200);
        assert_eq!(positions.len(), 200);
        for position in &positions {
            let rights = position.castles().castling_rights().count();
            assert!((1..4).contains(&rights));
        }
        let kings_home = positions.iter().filter(|p| kings_home(p)).count();
        assert!(kings_home > 50, "{kings_home}");
        // Castling is legal somewhere in the set.
        let castling = positions
            .iter()
            .filter(|p| p.legal_moves().iter().any(|m| m.is_castle()))
            .count();
        assert!(castling > 10, "{castling}");
        assert_ne!(random_play(12, 5), random_play(11, 5));
    }
}
