//! The positions the perft group counts from: the castling cases, the 960 starts,
//! double-FRC pairs, positions reached by seeded random play from random starts (castling
//! rights partly kept, rooks moved inward, kings and rooks side by side), and the
//! author's own (`--positions FILE`: FEN or EPD lines, read and their `D<n>` counts held
//! against shakmaty's before the engine is asked). The same seed gives the same positions
//! on every platform (ChaCha8).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Position};

use crate::check::cases::{Case, EngineMode, cases};
use crate::check::descent::chess960;
use crate::check::kept::kept_perft;
use crate::records::check::{CheckOptions, OperationChecks};
use crate::records::record::{Line, Problem, check_line, epd_operand};
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
    pub mode: EngineMode,
    /// shakmaty's count at `depth`, when it is kept and need not be counted again (the
    /// default run's, in [`kept`](super::kept); an own position's, as its file gives it
    /// and shakmaty agrees).
    pub kept: Option<u64>,
    /// The castling case it is, if one.
    pub case: Option<&'static Case>,
    /// Whether it is one of the author's own (`--positions`).
    pub own: bool,
}

/// A position of the author's own (`--positions FILE`).
#[derive(Debug, Clone, PartialEq)]
pub struct OwnPosition {
    /// `FILE:LINE`, and the EPD `id` when it has one.
    pub label: String,
    /// The position.
    pub position: Chess,
    /// The count its line gives at the run's depth (already held against shakmaty's).
    pub count: Option<u64>,
}

/// Why a line of `--positions FILE` was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct OwnPositionError {
    /// The file, as named.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based byte column.
    pub column: usize,
    /// What is wrong (a count: the right one).
    pub message: String,
}

/// Reads `text` (the file `file`): one FEN or EPD a line (blank lines and `#` comments
/// skipped), read as `sp960 validate` reads it, its `D<n>` counts up to `depth` counted
/// by shakmaty first. Every bad line is returned, each with its place and reason.
pub fn read_positions(
    file: &str,
    text: &str,
    depth: u32,
) -> Result<Vec<OwnPosition>, Vec<OwnPositionError>> {
    let options = CheckOptions {
        operations: OperationChecks::Position { perft_depth: depth },
        ..CheckOptions::default()
    };
    let mut positions = Vec::new();
    let mut errors = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let record = match check_line(line.as_bytes(), &options) {
            Line::Blank | Line::Comment => continue,
            Line::Record(record) => record,
        };
        match record {
            Ok(record) => {
                let id = epd_operand(record.operations, "id");
                positions.push(OwnPosition {
                    label: match id {
                        Some(id) => format!("{file}:{} {id}", index + 1),
                        None => format!("{file}:{}", index + 1),
                    },
                    count: epd_operand(record.operations, &format!("D{depth}"))
                        .and_then(|count| count.parse().ok()),
                    position: record.position,
                });
            }
            Err(Problem {
                column, message, ..
            }) => errors.push(OwnPositionError {
                file: file.to_owned(),
                line: index + 1,
                column,
                message,
            }),
        }
    }
    if errors.is_empty() {
        Ok(positions)
    } else {
        Err(errors)
    }
}

/// How many positions of each kind, and how deep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PerftPlan {
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

impl PerftPlan {
    /// The default run (`sp960 check ENGINE` with no other flag): depth 4 (the cases 5),
    /// every start, 100 pairs and 200 random positions of seed 1. shakmaty's counts of all
    /// its positions are kept, so only the engine counts.
    pub const DEFAULT: PerftPlan = PerftPlan {
        depth: 4,
        case_depth: 5,
        starts: true,
        pairs: 100,
        random: 200,
        seed: 1,
    };
}

/// Every position of `plan`, cases first, the author's `own` last.
pub fn probes(plan: &PerftPlan, own: &[OwnPosition]) -> Vec<Probe> {
    let mut probes: Vec<Probe> = cases()
        .iter()
        .map(|case| {
            let position = chess960(case.fen);
            let depth = plan.case_depth.min(case.depth);
            Probe {
                label: format!("case {}", case.name),
                kept: kept_perft(&position, depth),
                position,
                depth,
                mode: case.mode,
                case: Some(case),
                own: false,
            }
        })
        .collect();
    let counted = |label: String, position: Chess, kept: Option<u64>| Probe {
        label,
        kept: kept.or_else(|| kept_perft(&position, plan.depth)),
        position,
        depth: plan.depth,
        mode: EngineMode::Chess960,
        case: None,
        own: false,
    };
    let start = |start: Start| {
        let position = start.position().expect("every start is a legal position");
        counted(start.label(), position, None)
    };
    if plan.starts {
        probes.extend(StartPosition::all().map(|sp| start(Start::symmetric(sp))));
    }
    probes.extend(
        RandomStarts::new(plan.seed, true)
            .filter(|s| !s.is_symmetric())
            .take(plan.pairs)
            .map(start),
    );
    probes.extend(
        random_play(plan.seed, plan.random)
            .into_iter()
            .enumerate()
            .map(|(n, position)| {
                counted(
                    format!("random {} (seed {})", n + 1, plan.seed),
                    position,
                    None,
                )
            }),
    );
    probes.extend(own.iter().map(|own| Probe {
        own: true,
        ..counted(own.label.clone(), own.position.clone(), own.count)
    }));
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
    fn own_positions_are_read_and_their_counts_held_against_shakmaty() {
        let text = "# mine\n\
                    4k3/8/8/8/8/8/8/R3K2R w HA - ;id \"two rooks\" ;D1 26 ;D2 112\n\
                    \n\
                    4k3/8/8/8/8/8/8/4K2R w H - 0 1\n";
        let own = read_positions("mine.epd", text, 2).unwrap();
        assert_eq!(own.len(), 2);
        assert_eq!(own[0].label, "mine.epd:2 two rooks");
        assert_eq!(own[0].count, Some(112));
        assert_eq!(own[1].label, "mine.epd:4");
        assert_eq!(own[1].count, None);
        // They are counted last, at the run's depth, the given count kept.
        let plan = PerftPlan {
            starts: false,
            pairs: 0,
            random: 0,
            depth: 2,
            ..PerftPlan::DEFAULT
        };
        let probes = probes(&plan, &own);
        assert_eq!(probes.last().unwrap().label, "mine.epd:4");
        assert_eq!(probes[probes.len() - 2].kept, Some(112));

        // A wrong count, a bad FEN: each named with its place and reason.
        let bad = "4k3/8/8/8/8/8/8/R3K2R w HA - ;D1 25\nnot a fen\n";
        let errors = read_positions("bad.epd", bad, 2).unwrap_err();
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[0].line, 1);
        assert!(
            errors[0].to_string().starts_with("bad.epd:1:"),
            "{}",
            errors[0]
        );
        assert!(
            errors[0].message.contains("the right count is 26"),
            "{}",
            errors[0]
        );
        assert_eq!(errors[1].line, 2);
    }

    #[test]
    fn the_default_plan_has_every_kind() {
        let plan = PerftPlan {
            depth: 3,
            case_depth: 4,
            starts: true,
            pairs: 20,
            random: 50,
            seed: 7,
        };
        let probes = probes(&plan, &[]);
        let cases = cases().len();
        assert_eq!(probes.len(), cases + 960 + 20 + 50);
        assert_eq!(probes[cases].label, "SP 0");
        assert!(probes[cases + 960].label.starts_with("DFRC "));
        // The same seed, the same positions.
        assert_eq!(probes, super::probes(&plan, &[]));
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
