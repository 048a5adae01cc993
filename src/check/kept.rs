//! shakmaty's perft counts kept as data, so that in the default run only the engine counts
//! (counting them took as much CPU as Stockfish's own perft of them: docs/benchmarks.md,
//! "sp960 check"). Two EPD perft suites (`FIELDS ;id "LABEL" ;D1 C1 ... ;DN CN`), read
//! once:
//!
//! - `counts.epd`: the 960 starts and the default run's double-FRC pairs and positions
//!   from random play (seed 1), depths 1 to 4. Written, never edited, by
//!   `cargo test --release --lib write_kept_counts -- --ignored` (after a change to the
//!   default plan or to the random play);
//! - `cases.epd`: the castling cases ([`cases`](super::cases)), each with its own counts
//!   to depth 5: a new case is one line there.
//!
//! The tests recount every entry with shakmaty (in CI), and find every position of the
//! default run here. Another seed or depth is counted when asked.

use std::collections::HashMap;
use std::sync::LazyLock;

use shakmaty::{Chess, EnPassantMode, Position};

use crate::records::record::epd_operand;
use crate::starts::notation::{CastlingNotation, epd_fields};

/// The starts', pairs' and random positions' counts.
const COUNTS: &str = include_str!("counts.epd");

/// The deepest `;D` read from a kept line.
const DEEPEST: u32 = 8;

/// One kept line: its position as written (a FEN, or the four EPD fields), those four
/// fields (the key), its operations and its counts, depth 1 first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptLine {
    /// The position as written, before the first ` ;`.
    pub position: &'static str,
    /// Its four EPD fields (Shredder castling).
    pub fields: &'static str,
    /// The operations after it, as written.
    pub operations: &'static str,
    /// perft(1), perft(2), ... as long as the line gives them in order.
    pub counts: Vec<u64>,
}

/// Reads the lines of a kept suite (blank lines and `#` comments skipped). The files are
/// this program's own and held by tests: a line that does not read is a build defect.
pub fn read_kept(text: &'static str) -> Vec<KeptLine> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (position, operations) = line.split_once(" ;").unwrap_or((line, ""));
            let fields = position
                .match_indices(' ')
                .nth(3)
                .map_or(position, |(at, _)| &position[..at]);
            let counts = (1..=DEEPEST)
                .map_while(|depth| epd_operand(operations, &format!("D{depth}")))
                .map(|count| count.parse().expect("a kept count is a number"))
                .collect();
            KeptLine {
                position,
                fields,
                operations,
                counts,
            }
        })
        .collect()
}

static KEPT: LazyLock<HashMap<&'static str, Vec<u64>>> = LazyLock::new(|| {
    read_kept(COUNTS)
        .into_iter()
        .chain(read_kept(super::cases::CASES_EPD))
        .map(|line| (line.fields, line.counts))
        .collect()
});

/// The key of `position` in the kept suites: its four EPD fields, Shredder castling.
pub fn key_of(position: &Chess) -> String {
    epd_fields(
        &position.to_setup(EnPassantMode::Legal),
        CastlingNotation::Shredder,
    )
}

/// shakmaty's perft of `position` at `depth`, when it is kept.
pub fn kept_perft(position: &Chess, depth: u32) -> Option<u64> {
    let counts = KEPT.get(key_of(position).as_str())?;
    counts
        .get(usize::try_from(depth).ok()?.checked_sub(1)?)
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::positions::{PerftPlan, probes};
    use crate::records::check::{CheckOptions, OperationChecks};
    use crate::records::record::{Line, check_line};

    /// Every kept line is a valid EPD record whose counts are shakmaty's (the validator
    /// counts them), in `part` of `parts` (run side by side).
    fn recount(part: usize, parts: usize) {
        let options = CheckOptions {
            operations: OperationChecks::Position { perft_depth: 5 },
            ..CheckOptions::default()
        };
        let text = [COUNTS, crate::check::cases::CASES_EPD].concat();
        for line in text.lines().skip(part).step_by(parts) {
            match check_line(line.as_bytes(), &options) {
                Line::Record(Ok(_)) | Line::Blank | Line::Comment => {}
                Line::Record(Err(problem)) => panic!("{line}: {problem:?}"),
            }
        }
    }

    #[test]
    fn every_kept_count_is_shakmatys_1() {
        recount(0, 3);
    }

    #[test]
    fn every_kept_count_is_shakmatys_2() {
        recount(1, 3);
    }

    #[test]
    fn every_kept_count_is_shakmatys_3() {
        recount(2, 3);
    }

    #[test]
    fn every_default_position_is_kept_at_its_depth() {
        let probes = probes(&PerftPlan::DEFAULT, &[]);
        for probe in &probes {
            assert!(
                probe.kept.is_some(),
                "{} at depth {} is not kept",
                key_of(&probe.position),
                probe.depth
            );
        }
        // One line each, nothing else, each with its label and counts to depth 4.
        let lines = read_kept(COUNTS);
        let cases = crate::check::cases::cases().len();
        assert_eq!(lines.len() + cases, probes.len());
        assert!(lines.iter().all(|line| line.counts.len() == 4));
        // Another depth is not.
        assert_eq!(kept_perft(&probes[cases].position, 5), None);
        assert_eq!(kept_perft(&probes[cases].position, 0), None);
    }

    #[test]
    #[ignore = "writes src/check/counts.epd: cargo test --release --lib write_kept_counts -- --ignored"]
    fn write_kept_counts() {
        let plan = PerftPlan::DEFAULT;
        let mut text = String::from(
            "# shakmaty's perft of sp960 check's default positions (src/check/kept.rs).\n\
             # Written by: cargo test --release --lib write_kept_counts -- --ignored\n",
        );
        for probe in probes(&plan, &[]).iter().filter(|p| p.case.is_none()) {
            let counts: Vec<String> = (1..=plan.depth)
                .map(|depth| {
                    let count = crate::records::epd_ops::perft_count(&probe.position, depth);
                    format!(";D{depth} {count}")
                })
                .collect();
            text.push_str(&format!(
                "{} ;id \"{}\" {}\n",
                key_of(&probe.position),
                probe.label,
                counts.join(" ")
            ));
        }
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/check/counts.epd");
        std::fs::write(path, text).unwrap();
    }
}
