//! Ten tosses of one coin (`coin`) read as a 10-bit number, first toss first, heads 0 and
//! tails 1: the number is the SP. 960 is `1111000000` in binary, so the number is 960 or
//! more exactly when the first four tosses are all tails; then the draw starts again at
//! once, without the other six tosses.

use super::registry::{MethodInfo, Values};
use super::{Ask, Device, Done, Effect, Procedure, RollStep, Stepper};
use crate::starts::numbering::StartPosition;

/// How many tosses make a number.
const TOSSES: u8 = 10;

/// `coin`: the tosses typed as letters, in one argument or several.
pub const INFO: MethodInfo = MethodInfo {
    name: "coin",
    help: "coin (ten tosses, THTTHHHHTT)",
    unit: ("toss", "tosses"),
    values: Values::Letters,
    counts_coins: false,
    proofs: &[],
    procedure: |_| Stepper::Coin(CoinTosses::default()),
};

/// The coin procedure between tosses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CoinTosses {
    tossed: u8,
    number: u16,
}

impl CoinTosses {
    fn binary(&self) -> String {
        format!("{:0width$b}", self.number, width = usize::from(self.tossed))
    }
}

impl Procedure for CoinTosses {
    fn ask(&self) -> Option<Ask> {
        (self.tossed < TOSSES).then(|| {
            let worth = 1u16 << (TOSSES - 1 - self.tossed);
            Ask {
                label: "toss",
                device: Device::Coin,
                decides: format!("bit {} of 10 (heads 0, tails {worth})", self.tossed + 1),
            }
        })
    }

    fn take(&mut self, face: u32) -> RollStep {
        if self.tossed >= TOSSES {
            return RollStep::not_needed("toss", Device::Coin.show(face.min(1)));
        }
        let bit = u16::from(face != 0);
        self.number = 2 * self.number + bit;
        self.tossed += 1;
        let mut step = RollStep {
            label: "toss",
            value: Device::Coin.show(face),
            reading: Some(bit.to_string()),
            effect: Effect::Kept,
            placed: Vec::new(),
            text: format!("{} so far", self.binary()),
        };
        if self.tossed == 4 && self.number == 0b1111 {
            *self = CoinTosses::default();
            step.effect = Effect::Restarted;
            step.text =
                "the first four are tails: 1111 makes 960 or more, so start again".to_owned();
        } else if self.tossed == TOSSES {
            step.effect = Effect::Decided;
            step.text = format!("{} = {}", self.binary(), self.number);
        }
        step
    }

    fn done(&self) -> Option<Done> {
        (self.tossed == TOSSES).then_some(())?;
        let sp = StartPosition::new(u64::from(self.number)).ok()?;
        Some(Done {
            rank: sp.back_rank(),
            closing: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roll::feed;

    fn tosses(text: &str) -> Vec<u32> {
        text.chars().map(|c| u32::from(c == 'T')).collect()
    }

    #[test]
    fn the_literature_example_is_707() {
        let (steps, done) = feed(&mut CoinTosses::default(), &tosses("THTTHHHHTT"));
        assert_eq!(done.unwrap().rank.number().number(), 707);
        assert_eq!(steps[3].text, "1011 so far");
        assert_eq!(steps[9].text, "1011000011 = 707");
        assert_eq!(steps[9].effect, Effect::Decided);
    }

    #[test]
    fn four_tails_start_again_at_once() {
        let (steps, done) = feed(&mut CoinTosses::default(), &tosses("TTTTTHTTHHHHTT"));
        assert_eq!(steps[3].effect, Effect::Restarted);
        assert_eq!(done.unwrap().rank.number().number(), 707);
        let (_, done) = feed(&mut CoinTosses::default(), &tosses("TTTHTTTTTT"));
        assert_eq!(done.unwrap().rank.number().number(), 959);
        let (_, done) = feed(&mut CoinTosses::default(), &tosses("HHHHHHHHHH"));
        assert_eq!(done.unwrap().rank.number().number(), 0);
    }
}
