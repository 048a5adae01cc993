//! Two d4, a d6 and a d10 (`d10`): the four digits of Scharnagl's number, so that
//! SP = (light − 1) + 4 (dark − 1) + 16 (queen − 1) + 96 (knights − 1), one way per start.
//! The light die puts the light-square bishop on b1/d1/f1/h1, the dark die the other on
//! a1/c1/e1/g1, the d6 the queen on the n-th empty square and the d10 the knights by
//! Scharnagl's ten patterns; the squares come from [`crate::starts::numbering`].

use shakmaty::Role;

use super::board::{DARK_FILES, LIGHT_FILES, ordinal, square, squares};
use super::registry::{MethodInfo, Values};
use super::{Ask, Device, Done, Effect, Procedure, RollStep, Stepper};
use crate::starts::numbering::{BackRank, StartPosition};

/// The dice, in the order they are read, with their faces and what a face is worth.
const DICE: [(&str, u8, u16); 4] = [
    ("light", 4, 1),
    ("dark", 4, 4),
    ("queen", 6, 16),
    ("knights", 10, 96),
];

/// The names of [`DICE`], in the order they are read.
const NAMES: [&str; 4] = {
    let mut names = [""; 4];
    let mut index = 0;
    while index < DICE.len() {
        names[index] = DICE[index].0;
        index += 1;
    }
    names
};

/// `d10`.
pub const INFO: MethodInfo = MethodInfo {
    name: "d10",
    help: "d10 light=A dark=B queen=C knights=D",
    unit: ("die", "dice"),
    values: Values::Named {
        dice: |_| &NAMES,
        expected: "light=, dark=, queen= and knights=",
    },
    counts_coins: false,
    proofs: &[],
    procedure: |_| Stepper::D10(D10::default()),
};

/// Scharnagl's knight patterns on the five squares the bishops and queen leave.
const KNIGHT_PATTERNS: [&str; 10] = [
    "NN---", "N-N--", "N--N-", "N---N", "-NN--", "-N-N-", "-N--N", "--NN-", "--N-N", "---NN",
];

/// The d10 procedure between dice: how many are read and the sum so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct D10 {
    read: u8,
    sum: u16,
    /// The four values, for the closing sum.
    values: [u8; 4],
}

impl D10 {
    /// The arrangement of the digits so far (later digits 0): its bishops and queen are
    /// already the final ones.
    fn rank_so_far(&self) -> BackRank {
        StartPosition::new(u64::from(self.sum))
            .unwrap_or(crate::starts::numbering::STANDARD)
            .back_rank()
    }
}

fn files_of(rank: &BackRank, role: Role) -> Vec<usize> {
    (0..8).filter(|&file| rank.roles()[file] == role).collect()
}

impl Procedure for D10 {
    fn ask(&self) -> Option<Ask> {
        let &(name, faces, _) = DICE.get(usize::from(self.read))?;
        let rank = self.rank_so_far();
        let decides = match name {
            "light" => format!(
                "the light-square bishop: 1 to 4 = {} (SP + 0, 1, 2, 3)",
                squares(&LIGHT_FILES)
            ),
            "dark" => format!(
                "the dark-square bishop: 1 to 4 = {} (SP + 0, 4, 8, 12)",
                squares(&DARK_FILES)
            ),
            "queen" => {
                let free: Vec<usize> = (0..8)
                    .filter(|&file| rank.roles()[file] != Role::Bishop)
                    .collect();
                format!(
                    "the queen: 1 to 6 = {} (SP + 0, 16, 32, 48, 64, 80)",
                    squares(&free)
                )
            }
            _ => {
                let patterns: Vec<String> = KNIGHT_PATTERNS
                    .iter()
                    .enumerate()
                    .map(|(index, pattern)| format!("{} {pattern}", index + 1))
                    .collect();
                let free: Vec<usize> = (0..8)
                    .filter(|&file| !matches!(rank.roles()[file], Role::Bishop | Role::Queen))
                    .collect();
                format!(
                    "the knights on {}: {} (SP + 96 × (value − 1))",
                    squares(&free),
                    patterns.join(", ")
                )
            }
        };
        Some(Ask {
            label: name,
            device: Device::Die(faces),
            decides,
        })
    }

    fn take(&mut self, face: u32) -> RollStep {
        let index = usize::from(self.read);
        let Some(&(name, faces, worth)) = DICE.get(index) else {
            return RollStep::not_needed("die", (u64::from(face) + 1).to_string());
        };
        let digit = (face as u16).min(u16::from(faces) - 1);
        self.sum += digit * worth;
        self.values[index] = digit as u8 + 1;
        self.read += 1;
        let rank = self.rank_so_far();
        let bishops = files_of(&rank, Role::Bishop);
        let (placed, what) = match name {
            "light" => {
                let file = bishops.iter().copied().find(|f| f % 2 == 1).unwrap_or(1);
                (
                    vec![(Role::Bishop, file)],
                    format!(
                        "light-square bishop on {}, the {} light square",
                        square(file, '1'),
                        ordinal(usize::from(digit) + 1)
                    ),
                )
            }
            "dark" => {
                let file = bishops.iter().copied().find(|f| f % 2 == 0).unwrap_or(0);
                (
                    vec![(Role::Bishop, file)],
                    format!(
                        "dark-square bishop on {}, the {} dark square",
                        square(file, '1'),
                        ordinal(usize::from(digit) + 1)
                    ),
                )
            }
            "queen" => {
                let file = files_of(&rank, Role::Queen)[0];
                (
                    vec![(Role::Queen, file)],
                    format!(
                        "queen on {}, the {} square the bishops leave",
                        square(file, '1'),
                        ordinal(usize::from(digit) + 1)
                    ),
                )
            }
            _ => {
                let knights = files_of(&rank, Role::Knight);
                (
                    knights.iter().map(|&file| (Role::Knight, file)).collect(),
                    format!(
                        "knights {} on {} and {}",
                        KNIGHT_PATTERNS[usize::from(digit)],
                        square(knights[0], '1'),
                        square(knights[1], '1')
                    ),
                )
            }
        };
        RollStep {
            label: name,
            value: (u64::from(face) + 1).to_string(),
            reading: None,
            effect: Effect::Placed,
            placed,
            text: format!("{what} (+ {})", digit * worth),
        }
    }

    fn done(&self) -> Option<Done> {
        (usize::from(self.read) == DICE.len()).then_some(())?;
        let rank = self.rank_so_far();
        let [a, b, c, d] = self.values.map(u16::from);
        let rooks = files_of(&rank, Role::Rook);
        let king = files_of(&rank, Role::King)[0];
        Some(Done {
            rank,
            closing: Some(format!(
                "rooks on {} and {}, king on {} between them; SP = ({a} − 1) + 4 × ({b} − 1) + 16 × ({c} − 1) + 96 × ({d} − 1) = {}",
                square(rooks[0], '1'),
                square(rooks[1], '1'),
                square(king, '1'),
                self.sum
            )),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roll::feed;

    #[test]
    fn the_formula_for_every_value() {
        for a in 1..=4u32 {
            for b in 1..=4 {
                for c in 1..=6 {
                    for d in 1..=10 {
                        let (_, done) = feed(&mut D10::default(), &[a - 1, b - 1, c - 1, d - 1]);
                        let sp = (a - 1) + 4 * (b - 1) + 16 * (c - 1) + 96 * (d - 1);
                        assert_eq!(
                            u32::from(done.unwrap().rank.number().number()),
                            sp,
                            "{a} {b} {c} {d}"
                        );
                    }
                }
            }
        }
    }

    // 002_1e5e9696fc39c650.txt, the d10 variant: "Hold one knight on the leftmost square and
    // count one, two, three, four with the other knight on the empty square, then when it
    // loops, move the leftmost knight one square to the right, five, six, seven, then it loops
    // again, eight, nine, and finally with ten both knights are as far right as they go."
    #[test]
    fn the_texts_d10_count_is_scharnagls_order() {
        let mut counted = Vec::new();
        for first in 0..4 {
            for second in first + 1..5 {
                let pattern: String = (0..5)
                    .map(|i| if i == first || i == second { 'N' } else { '-' })
                    .collect();
                counted.push(pattern);
            }
        }
        assert_eq!(counted, KNIGHT_PATTERNS);
    }

    // 002_1e5e9696fc39c650.txt: "with a six the knight would be placed on the second of the
    // five empty squares, then the second knight would be place on the second of the three
    // squares that are empty to the right of the knight."
    #[test]
    fn the_texts_d10_six() {
        // light 1 (b1), dark 1 (a1), queen 1 (c1): the five empty squares are d1 to h1.
        let (steps, done) = feed(&mut D10::default(), &[0, 0, 0, 5]);
        assert_eq!(steps[3].text, "knights -N-N- on e1 and g1 (+ 480)");
        assert_eq!(
            steps[3].placed,
            [(Role::Knight, 4), (Role::Knight, 6)],
            "e1 the 2nd of d1-h1; g1 the 2nd of f1 g1 h1, right of it"
        );
        assert_eq!(done.unwrap().rank.number().number(), 480);
    }

    // 002_1e5e9696fc39c650.txt: "by subtracting one from each die and multiplying with 1, 4,
    // 16 and 96 respectively, then adding those numbers together, you find the number in the
    // Chess960 numbering scheme", and "4×4×6×10 is exactly 960".
    #[test]
    fn the_texts_d10_number() {
        assert_eq!(4 * 4 * 6 * 10, 960);
        let (_, done) = feed(&mut D10::default(), &[3, 2, 5, 9]);
        assert_eq!(
            done.unwrap().rank.number().number(),
            3 + 4 * 2 + 16 * 5 + 96 * 9
        );
    }

    #[test]
    fn the_standard_start() {
        // 518 = 2 + 4 × 1 + 16 × 2 + 96 × 5: light 3, dark 2, queen 3, knights 6.
        let (steps, done) = feed(&mut D10::default(), &[2, 1, 2, 5]);
        let done = done.unwrap();
        assert_eq!(done.rank.to_string(), "RNBQKBNR");
        assert_eq!(
            done.closing.unwrap(),
            "rooks on a1 and h1, king on e1 between them; SP = (3 − 1) + 4 × (2 − 1) + 16 × (3 − 1) + 96 × (6 − 1) = 518"
        );
        assert_eq!(
            steps[0].text,
            "light-square bishop on f1, the 3rd light square (+ 2)"
        );
        assert_eq!(steps[3].text, "knights -N-N- on b1 and g1 (+ 480)");
    }
}
