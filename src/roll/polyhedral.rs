//! The Platonic dice in one throw (`polyhedral`), no re-roll: the d8 puts a bishop on any
//! square a1–h1, the d4 the other bishop on the 1st–4th square of the opposite colour, the
//! d6 the queen on the 1st–6th empty square, and the d20 both knights in five groups of
//! four (1–4: the first knight on the 1st of the five empty squares and the second on the
//! 1st–4th of the four left; 5–8: the first on the 2nd; ... 17–20: on the 5th).
//!
//! With a d12 too (the text's "Or alternatively"), the d20 places the first knight by
//! counting the five empty squares round (1, 6, 11, 16 the 1st; 2, 7, 12, 17 the 2nd ...)
//! and the d12 the second by counting the four left round (1, 5, 9 the 1st ...). Twenty is
//! four fives and twelve three fours, so every start comes in 2 × 4 × 3 × 2 = 48 ways: the
//! text's "every position is represented in 48 different ways", fair.

use shakmaty::Role;

use super::board::{DARK_FILES, LIGHT_FILES, PartialRank, ordinal, square, squares};
use super::registry::{MethodInfo, Values};
use super::{Ask, Device, Done, Effect, Procedure, RollStep, Stepper};

/// `polyhedral`: its fairness is proved without and with the d12.
pub const INFO: MethodInfo = MethodInfo {
    name: "polyhedral",
    help: "polyhedral d8=A d4=B d6=C d20=D [d12=E]",
    unit: ("die", "dice"),
    values: Values::Named {
        dice: Polyhedral::dice,
        expected: "d8=, d4=, d6= and d20=, and d12= with a d12",
    },
    counts_coins: false,
    proofs: &[
        ("polyhedral d8 d4 d6 d20", false),
        ("polyhedral d8 d4 d6 d20 d12", true),
    ],
    procedure: |d12| Stepper::Polyhedral(Polyhedral::new(d12)),
};

/// The dice of the one throw, in the order they are read.
const WITHOUT_D12: [&str; 4] = ["d8", "d4", "d6", "d20"];
const WITH_D12: [&str; 5] = ["d8", "d4", "d6", "d20", "d12"];

/// The polyhedral procedure between dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Polyhedral {
    d12: bool,
    rank: PartialRank,
    /// Dice read so far.
    read: u8,
    /// The file of the d8's bishop.
    first_bishop: usize,
}

impl Polyhedral {
    /// Ready for the d8; `d12` when a d12 is thrown too.
    pub fn new(d12: bool) -> Polyhedral {
        Polyhedral {
            d12,
            rank: PartialRank::default(),
            read: 0,
            first_bishop: 0,
        }
    }

    /// The names of the dice, in the order they are read.
    pub fn dice(d12: bool) -> &'static [&'static str] {
        if d12 { &WITH_D12 } else { &WITHOUT_D12 }
    }

    fn next_die(&self) -> Option<&'static str> {
        Polyhedral::dice(self.d12)
            .get(usize::from(self.read))
            .copied()
    }

    /// The files of the squares of the other colour than the d8's bishop.
    fn other_colour(&self) -> (&'static str, [usize; 4]) {
        if self.first_bishop.is_multiple_of(2) {
            ("light", LIGHT_FILES)
        } else {
            ("dark", DARK_FILES)
        }
    }
}

/// `1, 6, 11 = a1; 2, 7, 12 = b1; ...`: which values land on which square when `faces`
/// values are counted round `files`.
fn counted_round(faces: usize, files: &[usize]) -> String {
    files
        .iter()
        .enumerate()
        .map(|(index, &file)| {
            let values: Vec<String> = (index + 1..=faces)
                .step_by(files.len())
                .map(|v| v.to_string())
                .collect();
            format!("{} = {}", values.join(", "), square(file, '1'))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

impl Procedure for Polyhedral {
    fn ask(&self) -> Option<Ask> {
        let die = self.next_die()?;
        let empty = self.rank.empty_files();
        let (device, decides) = match die {
            "d8" => (
                Device::Die(8),
                "a bishop on any square: 1 to 8 = a1 to h1".to_owned(),
            ),
            "d4" => {
                let (colour, files) = self.other_colour();
                (
                    Device::Die(4),
                    format!(
                        "the other bishop on a {colour} square: 1 to 4 = {}",
                        squares(&files)
                    ),
                )
            }
            "d6" => (
                Device::Die(6),
                format!("the queen: 1 to 6 = {}", squares(&empty)),
            ),
            "d12" => (
                Device::Die(12),
                format!(
                    "the second knight, counting round the four empty squares: {}",
                    counted_round(12, &empty)
                ),
            ),
            _ if self.d12 => (
                Device::Die(20),
                format!(
                    "the first knight, counting round the five empty squares: {}",
                    counted_round(20, &empty)
                ),
            ),
            _ => {
                let groups: Vec<String> = empty
                    .iter()
                    .enumerate()
                    .map(|(group, &file)| {
                        format!(
                            "{}-{} = {}",
                            4 * group + 1,
                            4 * group + 4,
                            square(file, '1')
                        )
                    })
                    .collect();
                (
                    Device::Die(20),
                    format!(
                        "both knights in five groups of four, the group placing the first ({}), \
                         1 to 4 within it the second on the four squares left",
                        groups.join(", ")
                    ),
                )
            }
        };
        Some(Ask {
            label: die,
            device,
            decides,
        })
    }

    fn take(&mut self, face: u32) -> RollStep {
        let Some(die) = self.next_die() else {
            return RollStep::not_needed("die", (u64::from(face) + 1).to_string());
        };
        let value = face as usize + 1;
        let mut step = RollStep {
            label: die,
            value: value.to_string(),
            reading: None,
            effect: Effect::Placed,
            placed: Vec::new(),
            text: String::new(),
        };
        let empty = self.rank.empty_files();
        let mut place = |rank: &mut PartialRank, file: usize, role: Role| {
            rank.put(file, role);
            step.placed.push((role, file));
        };
        let text = match die {
            "d8" => {
                let file = (value - 1).min(7);
                self.first_bishop = file;
                place(&mut self.rank, file, Role::Bishop);
                let colour = if file.is_multiple_of(2) {
                    "dark"
                } else {
                    "light"
                };
                format!("bishop on {} (a {colour} square)", square(file, '1'))
            }
            "d4" => {
                let (colour, files) = self.other_colour();
                let file = files[(value - 1).min(3)];
                place(&mut self.rank, file, Role::Bishop);
                format!(
                    "bishop on {}, the {} {colour} square",
                    square(file, '1'),
                    ordinal(value)
                )
            }
            "d6" => {
                let file = empty[(value - 1) % empty.len()];
                place(&mut self.rank, file, Role::Queen);
                format!(
                    "queen on {}, the {} empty square",
                    square(file, '1'),
                    ordinal(value)
                )
            }
            // The d20 (first knight) with a d12, or the d12 (second knight): counted round.
            "d12" | "d20" if self.d12 => {
                let index = (value - 1) % empty.len();
                let file = empty[index];
                place(&mut self.rank, file, Role::Knight);
                format!(
                    "knight on {}: counting {value} round the {} empty squares ends on the {}",
                    square(file, '1'),
                    if die == "d12" { "four" } else { "five" },
                    ordinal(index + 1)
                )
            }
            _ => {
                let group = ((value - 1) / 4).min(4);
                let within = (value - 1) % 4;
                let first = empty[group];
                let left: Vec<usize> = empty.iter().copied().filter(|&f| f != first).collect();
                let second = left[within];
                place(&mut self.rank, first, Role::Knight);
                place(&mut self.rank, second, Role::Knight);
                format!(
                    "knights on {} (group {}: the {} of the five empty squares) and {} (the {} of the four left)",
                    square(first, '1'),
                    group + 1,
                    ordinal(group + 1),
                    square(second, '1'),
                    ordinal(within + 1)
                )
            }
        };
        self.read += 1;
        step.text = text;
        step
    }

    fn done(&self) -> Option<Done> {
        self.next_die().is_none().then_some(())?;
        self.rank.finish().map(Done::from)
    }
}

#[cfg(test)]
#[path = "polyhedral_tests.rs"]
mod tests;
