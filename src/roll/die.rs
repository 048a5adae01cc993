//! Althöfer's single-die method (`die`) and the same placements with coins (`coins`).
//!
//! One value per piece: the dark-square bishop on a1/c1/e1/g1 (1–4), the light-square
//! bishop on b1/d1/f1/h1 (1–4), the queen on the n-th of the six empty squares (1–6), a
//! knight on the n-th of five (1–5), the other on the n-th of four (1–4); a value with no
//! square is thrown again. Rook, king, rook fill the last three squares. With coins, a
//! throw of two coins counts 1–4 (small coin tails 0, heads 2; large tails 1, heads 2),
//! of three coins 1–8 (a third coin adds 0 or 4): two coins where four squares are open,
//! three for the queen and the first knight.

use shakmaty::Role;

use super::board::{DARK_FILES, LIGHT_FILES, PartialRank, ordinal, piece_name, square, squares};
use super::registry::{MethodInfo, Values};
use super::{Ask, Device, Done, Effect, Procedure, RollStep, Stepper};

/// `die`: one d6 per piece, re-rolling a value with no square.
pub const DIE: MethodInfo = MethodInfo {
    name: "die",
    help: "die (Althöfer: one d6, re-rolls)",
    unit: ("roll", "rolls"),
    values: Values::OnePerArgument,
    counts_coins: false,
    proofs: &[],
    procedure: |_| Stepper::Die(PieceByPiece::new(Thrower::Die)),
};

/// `coins`: the same placements with throws of two or three coins.
pub const COINS: MethodInfo = MethodInfo {
    name: "coins",
    help: "coins (throws of 2 or 3 coins, TH ...)",
    unit: ("throw", "throws"),
    values: Values::OnePerArgument,
    counts_coins: true,
    proofs: &[],
    procedure: |_| Stepper::Coins(PieceByPiece::new(Thrower::Coins)),
};

/// What the values are thrown with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Thrower {
    /// One six-sided die.
    Die,
    /// Two or three coins at a time.
    Coins,
}

/// The die or coins procedure between values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PieceByPiece {
    thrower: Thrower,
    rank: PartialRank,
    /// Pieces placed so far (0 to 5).
    placed: u8,
}

/// The piece the next value places, the squares it may go to, and how they are named.
struct Choice {
    role: Role,
    what: &'static str,
    files: Vec<usize>,
    /// `dark`, `light` or `empty`: the squares counted.
    kind: &'static str,
}

impl PieceByPiece {
    /// Ready for the first value.
    pub fn new(thrower: Thrower) -> PieceByPiece {
        PieceByPiece {
            thrower,
            rank: PartialRank::default(),
            placed: 0,
        }
    }

    fn choice(&self) -> Option<Choice> {
        let (role, what, files, kind) = match self.placed {
            0 => (
                Role::Bishop,
                "the dark-square bishop",
                DARK_FILES.to_vec(),
                "dark",
            ),
            1 => (
                Role::Bishop,
                "the light-square bishop",
                LIGHT_FILES.to_vec(),
                "light",
            ),
            2 => (Role::Queen, "the queen", self.rank.empty_files(), "empty"),
            3 => (
                Role::Knight,
                "the first knight",
                self.rank.empty_files(),
                "empty",
            ),
            4 => (
                Role::Knight,
                "the second knight",
                self.rank.empty_files(),
                "empty",
            ),
            _ => return None,
        };
        Some(Choice {
            role,
            what,
            files,
            kind,
        })
    }

    fn device(&self, squares: usize) -> Device {
        match self.thrower {
            Thrower::Die => Device::Die(6),
            Thrower::Coins if squares <= 4 => Device::Coins(2),
            Thrower::Coins => Device::Coins(3),
        }
    }

    fn again(&self) -> &'static str {
        match self.thrower {
            Thrower::Die => "roll again",
            Thrower::Coins => "toss again",
        }
    }
}

impl Procedure for PieceByPiece {
    fn ask(&self) -> Option<Ask> {
        let choice = self.choice()?;
        let device = self.device(choice.files.len());
        let count = choice.files.len();
        let mut decides = format!("{}: 1 to {count} = {}", choice.what, squares(&choice.files));
        let top = device.outcomes() as usize;
        if top > count {
            let unused = match top - count {
                1 => format!("{top}"),
                2 => format!("{} and {top}", count + 1),
                _ => format!("{} to {top}", count + 1),
            };
            decides.push_str(&format!(", {} on {unused}", self.again()));
        }
        Some(Ask {
            label: match self.thrower {
                Thrower::Die => "roll",
                Thrower::Coins => "throw",
            },
            device,
            decides,
        })
    }

    fn take(&mut self, face: u32) -> RollStep {
        let Some(choice) = self.choice() else {
            return RollStep::not_needed("roll", (u64::from(face) + 1).to_string());
        };
        let device = self.device(choice.files.len());
        let value = face as usize + 1;
        let mut step = RollStep {
            label: match self.thrower {
                Thrower::Die => "roll",
                Thrower::Coins => "throw",
            },
            value: device.show(face),
            reading: (self.thrower == Thrower::Coins).then(|| value.to_string()),
            effect: Effect::Rerolled,
            placed: Vec::new(),
            text: String::new(),
        };
        match choice.files.get(value - 1) {
            Some(&file) => {
                self.rank.put(file, choice.role);
                self.placed += 1;
                step.effect = Effect::Placed;
                step.placed.push((choice.role, file));
                let piece = match (choice.role, choice.kind) {
                    (Role::Bishop, kind) => format!("{kind}-square bishop"),
                    (role, _) => piece_name(role).to_owned(),
                };
                step.text = format!(
                    "{piece} on {}, the {} {} square",
                    square(file, '1'),
                    ordinal(value),
                    choice.kind
                );
            }
            None => {
                step.text = format!(
                    "{}: there is no {} {} square",
                    self.again(),
                    ordinal(value),
                    choice.kind
                );
            }
        }
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
        feed_shown(PieceByPiece::new(Thrower::Die), values)
    }

    // 002_1e5e9696fc39c650.txt: "one of the random positions (rolled by 23323 or 23342) is
    // the standard chess starting position".
    #[test]
    fn the_standard_start_two_ways() {
        for values in [[2, 3, 3, 2, 3], [2, 3, 3, 4, 2]] {
            let (steps, done) = roll(&values);
            let done = done.unwrap();
            assert_eq!(done.rank.to_string(), "RNBQKBNR");
            assert_eq!(done.rank.number().number(), 518);
            assert!(steps.iter().all(|s| s.effect == Effect::Placed));
        }
    }

    // 002_1e5e9696fc39c650.txt, the single-die diagram: "3 (bishop on e1)", "5 (skip and
    // reroll)", "1 (bishop on b1)", "4 (queen on f1)", "6 (skip and reroll)", "2 (knight on
    // c1)", "1 (knight on a1)", "king on g1; rooks on d1 and h1".
    #[test]
    fn the_literature_example_rerolls_the_5_and_the_6() {
        let (steps, done) = roll(&[3, 5, 1, 4, 6, 2, 1]);
        let texts: Vec<&str> = steps.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "dark-square bishop on e1, the 3rd dark square",
                "roll again: there is no 5th light square",
                "light-square bishop on b1, the 1st light square",
                "queen on f1, the 4th empty square",
                "roll again: there is no 6th empty square",
                "knight on c1, the 2nd empty square",
                "knight on a1, the 1st empty square",
            ]
        );
        let effects: Vec<Effect> = steps.iter().map(|s| s.effect).collect();
        assert_eq!(effects[1], Effect::Rerolled);
        assert_eq!(effects[4], Effect::Rerolled);
        let done = done.unwrap();
        assert_eq!(done.rank.to_string(), "NBNRBQKR");
        assert_eq!(
            done.closing.as_deref(),
            Some("rooks on d1 and h1, king on g1 between them")
        );
    }

    // 003_d2eec170c7ca377a.txt: "The dice said '4' and so we put the bishop into the 4th dark
    // square", "'1' ... the 1st light square", "'6' ... the queen in the 6th available
    // square", "'3' ... a knight in the 3rd available square", "The dice said '5' but there
    // are only four available squares. So we reject and roll again. This time the dice said
    // '4'", "RBKNRNBQ ... Google says it is SP860".
    #[test]
    fn the_blogs_walk_through_to_sp_860() {
        let (steps, done) = roll(&[4, 1, 6, 3, 5, 4]);
        let texts: Vec<&str> = steps.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "dark-square bishop on g1, the 4th dark square",
                "light-square bishop on b1, the 1st light square",
                "queen on h1, the 6th empty square",
                "knight on d1, the 3rd empty square",
                "roll again: there is no 5th empty square",
                "knight on f1, the 4th empty square",
            ]
        );
        let done = done.unwrap();
        assert_eq!(done.rank.to_string(), "RBKNRNBQ");
        assert_eq!(done.rank.number().number(), 860);
    }

    #[test]
    fn asks_name_the_squares() {
        let mut die = PieceByPiece::new(Thrower::Die);
        assert_eq!(
            die.ask().unwrap().decides,
            "the dark-square bishop: 1 to 4 = a1 c1 e1 g1, roll again on 5 and 6"
        );
        feed(&mut die, &[2, 0]);
        assert_eq!(
            die.ask().unwrap().decides,
            "the queen: 1 to 6 = a1 c1 d1 f1 g1 h1"
        );
        feed(&mut die, &[3]);
        assert_eq!(
            die.ask().unwrap().decides,
            "the first knight: 1 to 5 = a1 c1 d1 g1 h1, roll again on 6"
        );
        let coins = PieceByPiece::new(Thrower::Coins);
        assert_eq!(coins.ask().unwrap().device, Device::Coins(2));
    }

    // 002_1e5e9696fc39c650.txt, coins: "Two coins are used for the bishops as before. Then
    // six squares are available for the queen. All three coins are tossed and retossed until
    // a number in the range 16 [1-6] comes up. Then five squares are available for the first
    // knight ... For the other knight, only a four-way choice is needed, so a single toss of
    // two coins suffices."
    #[test]
    fn coins_use_two_or_three_coins() {
        let mut coins = PieceByPiece::new(Thrower::Coins);
        let mut devices = Vec::new();
        // Faces are values - 1: 3 (e1), 1 (b1), 8 (toss again), 4 (f1), 6 (toss again), 2, 1.
        for face in [2, 0, 7, 3, 5, 1, 0] {
            devices.push(coins.ask().unwrap().device);
            coins.take(face);
        }
        assert_eq!(
            devices,
            [2, 2, 3, 3, 3, 3, 2].map(Device::Coins),
            "queen and first knight need three coins"
        );
        assert!(coins.done().is_some());
    }
}
