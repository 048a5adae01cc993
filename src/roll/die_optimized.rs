//! The single die's "Optimization" in the literature (`die-optimized`, in
//! `002_1e5e9696fc39c650.txt` after "Single die method").
//!
//! A bishop: 1–4 is its square (a1/c1/e1/g1, then b1/d1/f1/h1). On a 5 or 6 the die is
//! rolled once more: 1–4 is the square again, and two of 5 and 6 make the text's "5
//! followed by 5 subtract 41, 5 followed by 6 subtract 42, 6 followed by 5 subtract 23, 6
//! followed by 6 subtract 24", read as the second roll less 4 (after a 5) or less 2 (after
//! a 6), giving the 1st, 2nd, 3rd or 4th square. The queen: 1–6. The first knight: 1–5, a
//! 6 rolled again. The second knight: 1–4 on the four empty squares; a 5 is the next of the
//! five squares the knights share after the first knight, a 6 the one after, counted
//! round ("the five empty squares are considered in circle"). Rook, king, rook fill the
//! last three squares.
//!
//! Every start is equally likely, and the expected number of rolls is 88/15 (4/3 for each
//! bishop, 1 for the queen, 6/5 and 1 for the knights), fewer than the text's 6.2, which
//! is the plain die method with only the second knight's rule: 3/2 + 3/2 + 1 + 6/5 + 1.

use shakmaty::Role;

use super::board::{DARK_FILES, LIGHT_FILES, PartialRank, ordinal, square, squares};
use super::registry::{MethodInfo, Values};
use super::{Ask, Device, Done, Effect, Procedure, RollStep, Stepper};

/// `die-optimized`.
pub const INFO: MethodInfo = MethodInfo {
    name: "die-optimized",
    help: "die-optimized (the literature's optimization: one more roll on a bishop's 5 or 6, 5 and 6 for the second knight)",
    unit: ("roll", "rolls"),
    values: Values::OnePerArgument,
    counts_coins: false,
    proofs: &[],
    procedure: |_| Stepper::DieOptimized(DieOptimized::default()),
};

/// The optimized single-die procedure between rolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DieOptimized {
    rank: PartialRank,
    /// Pieces placed so far (0 to 5): dark bishop, light bishop, queen, two knights.
    placed: u8,
    /// A bishop's first roll, 5 or 6, waiting for the one more roll.
    pending: Option<u8>,
    /// The file of the first knight.
    first_knight: Option<usize>,
}

/// What the second roll of a bishop's 5 or 6 subtracts: 4 after a 5, 2 after a 6.
fn less(first: u8) -> usize {
    if first == 5 { 4 } else { 2 }
}

impl DieOptimized {
    /// The bishop to place, the files of its colour and the colour's name.
    fn bishop(&self) -> Option<([usize; 4], &'static str)> {
        match self.placed {
            0 => Some((DARK_FILES, "dark")),
            1 => Some((LIGHT_FILES, "light")),
            _ => None,
        }
    }

    /// The five squares the knights share, from the left, and the first knight's place
    /// among them.
    fn knights_five(&self) -> Option<(Vec<usize>, usize)> {
        let first = self.first_knight?;
        let mut five = self.rank.empty_files();
        five.push(first);
        five.sort_unstable();
        let at = five.iter().position(|&f| f == first)?;
        Some((five, at))
    }

    /// The file a 5 (`step` 1) or a 6 (`step` 2) puts the second knight on.
    fn after_first(&self, step: usize) -> Option<usize> {
        let (five, at) = self.knights_five()?;
        five.get((at + step) % five.len()).copied()
    }

    fn place(&mut self, step: &mut RollStep, file: usize, role: Role) {
        self.rank.put(file, role);
        self.placed += 1;
        step.effect = Effect::Placed;
        step.placed.push((role, file));
    }
}

impl Procedure for DieOptimized {
    fn ask(&self) -> Option<Ask> {
        let empty = self.rank.empty_files();
        let decides = match (self.placed, self.bishop(), self.pending) {
            (_, Some((files, colour)), None) => format!(
                "the {colour}-square bishop: 1 to 4 = {}, roll once more on 5 or 6",
                squares(&files)
            ),
            (_, Some((files, colour)), Some(first)) => {
                let minus = less(first);
                format!(
                    "the {colour}-square bishop after a {first}: 1 to 4 = {}, 5 = {} (5 − {minus}), 6 = {} (6 − {minus})",
                    squares(&files),
                    square(files[5 - minus - 1], '1'),
                    square(files[6 - minus - 1], '1')
                )
            }
            (2, ..) => format!("the queen: 1 to 6 = {}", squares(&empty)),
            (3, ..) => format!(
                "the first knight: 1 to 5 = {}, roll again on 6",
                squares(&empty)
            ),
            (4, ..) => {
                let (next, after) = (self.after_first(1)?, self.after_first(2)?);
                format!(
                    "the second knight: 1 to 4 = {}, 5 = {} and 6 = {} (the next and the one after \
                     the first knight, the five squares counted round)",
                    squares(&empty),
                    square(next, '1'),
                    square(after, '1')
                )
            }
            _ => return None,
        };
        Some(Ask {
            label: "roll",
            device: Device::Die(6),
            decides,
        })
    }

    fn take(&mut self, face: u32) -> RollStep {
        let value = face.min(5) as usize + 1;
        let mut step = RollStep {
            label: "roll",
            value: value.to_string(),
            reading: None,
            effect: Effect::Rerolled,
            placed: Vec::new(),
            text: String::new(),
        };
        if self.placed >= 5 {
            return RollStep::not_needed("roll", step.value);
        }
        let empty = self.rank.empty_files();
        step.text = match (self.placed, self.bishop(), self.pending) {
            (_, Some((files, colour)), pending) => {
                let index = match (pending, value) {
                    (None, 5 | 6) => None,
                    (Some(first), 5 | 6) => Some(value - less(first)),
                    (_, index) => Some(index),
                };
                match index {
                    None => {
                        self.pending = Some(value as u8);
                        step.effect = Effect::Kept;
                        let minus = less(value as u8);
                        format!(
                            "roll once more: 1 to 4 is the square, a 5 or 6 less {minus} the {} or {}",
                            ordinal(5 - minus),
                            ordinal(6 - minus)
                        )
                    }
                    Some(index) => {
                        let file = files[index - 1];
                        self.place(&mut step, file, Role::Bishop);
                        let how = match self.pending.take() {
                            Some(first) if value >= 5 => format!(
                                ": {first} then {value}, {value} − {} = {index},",
                                less(first)
                            ),
                            _ => ",".to_owned(),
                        };
                        format!(
                            "{colour}-square bishop on {}{how} the {} {colour} square",
                            square(file, '1'),
                            ordinal(index)
                        )
                    }
                }
            }
            (2, ..) => {
                let file = empty[(value - 1).min(empty.len() - 1)];
                self.place(&mut step, file, Role::Queen);
                format!(
                    "queen on {}, the {} empty square",
                    square(file, '1'),
                    ordinal(value)
                )
            }
            (3, ..) => match empty.get(value - 1) {
                Some(&file) if value <= 5 => {
                    self.first_knight = Some(file);
                    self.place(&mut step, file, Role::Knight);
                    format!(
                        "knight on {}, the {} empty square",
                        square(file, '1'),
                        ordinal(value)
                    )
                }
                _ => format!("roll again: there is no {} empty square", ordinal(value)),
            },
            _ => {
                let target = match value {
                    5 | 6 => self
                        .after_first(value - 4)
                        .zip(self.knights_five())
                        .map(|(file, (_, at))| (file, at + value - 4 >= 5)),
                    _ => empty.get(value - 1).map(|&file| (file, false)),
                };
                match target {
                    Some((file, round)) => {
                        let first = self.first_knight.map_or(String::new(), |f| square(f, '1'));
                        let text = match value {
                            5 => format!("the next square after the knight on {first}"),
                            6 => format!("the second square after the knight on {first}"),
                            _ => format!("the {} empty square", ordinal(value)),
                        };
                        self.place(&mut step, file, Role::Knight);
                        format!(
                            "knight on {}, {text}{}",
                            square(file, '1'),
                            if round { ", counting round" } else { "" }
                        )
                    }
                    None => "roll again: the first knight is missing".to_owned(),
                }
            }
        };
        step
    }

    fn done(&self) -> Option<Done> {
        self.rank.finish_after(self.placed).map(Done::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roll::{feed, feed_shown};

    fn roll(values: &[u32]) -> (Vec<RollStep>, Option<Done>) {
        feed_shown(DieOptimized::default(), values)
    }

    fn texts(steps: &[RollStep]) -> Vec<&str> {
        steps.iter().map(|s| s.text.as_str()).collect()
    }

    #[test]
    fn the_standard_start_in_five_rolls() {
        // As with the plain die (the text's "23323 or 23342"), and with the 6 for the second
        // knight: the second of a1 b1 e1 g1 h1 after the knight on b1 is g1.
        for values in [[2, 3, 3, 2, 3], [2, 3, 3, 4, 2], [2, 3, 3, 2, 6]] {
            let (steps, done) = roll(&values);
            assert_eq!(done.unwrap().rank.to_string(), "RNBQKBNR", "{values:?}");
            assert!(steps.iter().all(|s| s.effect == Effect::Placed));
        }
        let (steps, _) = roll(&[2, 3, 3, 2, 6]);
        assert_eq!(
            steps[4].text,
            "knight on g1, the second square after the knight on b1"
        );
    }

    // 002_1e5e9696fc39c650.txt, "Optimization": "reroll once and (4/36) for each bishop use
    // the following scheme: 5 followed by 5 subtract 41, 5 followed by 6 subtract 42, 6
    // followed by 5 subtract 23, 6 followed by 6 subtract 24".
    #[test]
    fn a_bishops_5_or_6_and_one_more_roll() {
        for (first, second, file) in [(5, 5, 0), (5, 6, 2), (6, 5, 4), (6, 6, 6), (5, 3, 4)] {
            let (steps, _) = roll(&[first, second]);
            assert_eq!(steps[0].effect, Effect::Kept);
            assert_eq!(steps[1].placed, [(Role::Bishop, file)], "{first} {second}");
        }
        let (steps, _) = roll(&[6, 5, 5, 6]);
        assert_eq!(
            texts(&steps),
            [
                "roll once more: 1 to 4 is the square, a 5 or 6 less 2 the 3rd or 4th",
                "dark-square bishop on e1: 6 then 5, 5 − 2 = 3, the 3rd dark square",
                "roll once more: 1 to 4 is the square, a 5 or 6 less 4 the 1st or 2nd",
                "light-square bishop on d1: 5 then 6, 6 − 4 = 2, the 2nd light square",
            ]
        );
        let mut die = DieOptimized::default();
        feed(&mut die, &[4]);
        assert_eq!(
            die.ask().unwrap().decides,
            "the dark-square bishop after a 5: 1 to 4 = a1 c1 e1 g1, 5 = a1 (5 − 4), 6 = c1 (6 − 4)"
        );
    }

    // "For the first knight one indication (1-5) is required. If it is 6, then the roll is
    // repeated. For the second knight one indication (1-4) is required. If it is 5, then the
    // relative position from the first knight is the next empty square, else if it is 6 then
    // the next after. If the empty square does not exist, then the five empty squares are
    // considered in circle."
    #[test]
    fn the_knights() {
        // Bishops a1 b1, queen c1: the five squares are d1 e1 f1 g1 h1.
        let (steps, done) = roll(&[1, 1, 1, 6, 3, 5]);
        assert_eq!(
            texts(&steps[3..]),
            [
                "roll again: there is no 6th empty square",
                "knight on f1, the 3rd empty square",
                "knight on g1, the next square after the knight on f1",
            ]
        );
        assert_eq!(done.unwrap().rank.to_string(), "BBQRKNNR");
        let (steps, _) = roll(&[1, 1, 1, 4, 6]);
        assert_eq!(
            steps[4].text,
            "knight on d1, the second square after the knight on g1, counting round"
        );
        let (steps, _) = roll(&[1, 1, 1, 5, 5]);
        assert_eq!(
            steps[4].text,
            "knight on d1, the next square after the knight on h1, counting round"
        );
        let mut die = DieOptimized::default();
        feed(&mut die, &[0, 0, 0, 4]);
        assert_eq!(
            die.ask().unwrap().decides,
            "the second knight: 1 to 4 = d1 e1 f1 g1, 5 = d1 and 6 = e1 (the next and the one \
             after the first knight, the five squares counted round)"
        );
    }
}
