//! sp960's own single-die method (`fast`): the rolls are the base-6 digits (roll − 1) of a
//! number, and no roll is wasted.
//!
//! Keep a number N and how many values it can take, S (start: N = 0, S = 1). Each roll:
//! N = 6 N + roll − 1 and S = 6 S. Once S ≥ 960, let M = 960 × ⌊S / 960⌋: if N < M, the SP
//! is N mod 960; if not, N − M is still uniform below S − M, so keep N = N − M and
//! S = S − M and roll on. After four rolls S = 1296: below 960 N is the SP, else 336
//! values are left; the fifth roll makes 2016 (two full 960s, 96 left), the sixth 576,
//! the seventh 3456 (three, 576 left), and so on.
//!
//! This is Knuth and Yao's optimal generator for a uniform choice: on average 1736/405 ≈
//! 4.286 rolls, the fewest any procedure with one fair die can reach for a single start
//! (the 4.33 of a rejection scheme without the leftovers; log₆ 960 ≈ 3.83 only on average
//! over many starts drawn together).

use super::registry::{MethodInfo, Values};
use super::{Ask, Device, Done, Effect, Procedure, RollStep, Stepper};
use crate::starts::numbering::{COUNT, StartPosition};

/// `fast`.
pub const INFO: MethodInfo = MethodInfo {
    name: "fast",
    help: "fast (one d6, fewest rolls)",
    unit: ("roll", "rolls"),
    values: Values::OnePerArgument,
    counts_coins: false,
    proofs: &[],
    procedure: |_| Stepper::Fast(Fast::default()),
};

/// The fast procedure between rolls: N below S, or the SP once decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fast {
    number: u16,
    size: u16,
    sp: Option<u16>,
}

impl Default for Fast {
    fn default() -> Fast {
        Fast {
            number: 0,
            size: 1,
            sp: None,
        }
    }
}

impl Procedure for Fast {
    fn ask(&self) -> Option<Ask> {
        self.sp.is_none().then(|| Ask {
            label: "roll",
            device: Device::Die(6),
            decides: format!(
                "the next base-6 digit (roll − 1) of a number below {}",
                6 * u32::from(self.size)
            ),
        })
    }

    fn take(&mut self, face: u32) -> RollStep {
        if self.sp.is_some() {
            return RollStep::not_needed("roll", (face.min(5) + 1).to_string());
        }
        let digit = (face as u16).min(5);
        let before = self.number;
        self.number = 6 * self.number + digit;
        self.size *= 6;
        let formed = if self.size == 6 {
            format!("{} of 0 to 5", self.number)
        } else {
            format!(
                "6 × {before} + {digit} = {} of 0 to {}",
                self.number,
                self.size - 1
            )
        };
        let mut step = RollStep {
            label: "roll",
            value: (digit + 1).to_string(),
            reading: None,
            effect: Effect::Kept,
            placed: Vec::new(),
            text: formed.clone(),
        };
        if self.size >= COUNT {
            let whole = COUNT * (self.size / COUNT);
            if self.number < whole {
                let sp = self.number % COUNT;
                self.sp = Some(sp);
                step.effect = Effect::Decided;
                step.text = if whole == COUNT {
                    format!("{formed}: below 960, so SP {sp}")
                } else {
                    format!(
                        "{formed}: below {whole}, so SP = {} mod 960 = {sp}",
                        self.number
                    )
                };
            } else {
                let kept = self.number - whole;
                step.text = format!(
                    "{formed}: {whole} or more, keep {} − {whole} = {kept} of 0 to {}",
                    self.number,
                    self.size - whole - 1
                );
                self.number = kept;
                self.size -= whole;
            }
        }
        step
    }

    fn done(&self) -> Option<Done> {
        let sp = StartPosition::new(u64::from(self.sp?)).ok()?;
        Some(Done {
            rank: sp.back_rank(),
            closing: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roll::feed_shown;

    fn roll(values: &[u32]) -> (Vec<RollStep>, Option<Done>) {
        feed_shown(Fast::default(), values)
    }

    #[test]
    fn four_rolls_below_960_are_the_sp() {
        // 3 3 2 5 -> digits 2 2 1 4 -> 2·216 + 2·36 + 1·6 + 4 = 514.
        let (steps, done) = roll(&[3, 3, 2, 5]);
        assert_eq!(done.unwrap().rank.number().number(), 514);
        assert_eq!(steps[0].text, "2 of 0 to 5");
        assert_eq!(
            steps[3].text,
            "6 × 85 + 4 = 514 of 0 to 1295: below 960, so SP 514"
        );
    }

    #[test]
    fn leftovers_are_kept() {
        // 6 6 6 6 -> 1295: keep 335 of 0 to 335; then 6 -> 2015: keep 95 of 0 to 95;
        // 1 -> 570 of 0 to 575; 1 -> 3420: 2880 or more, keep 540; 1 -> 3240 - 2880 = 360.
        let (steps, done) = roll(&[6, 6, 6, 6, 6, 1, 1, 1]);
        assert_eq!(
            steps[3].text,
            "6 × 215 + 5 = 1295 of 0 to 1295: 960 or more, keep 1295 − 960 = 335 of 0 to 335"
        );
        assert_eq!(
            steps[4].text,
            "6 × 335 + 5 = 2015 of 0 to 2015: 1920 or more, keep 2015 − 1920 = 95 of 0 to 95"
        );
        assert_eq!(steps[5].text, "6 × 95 + 0 = 570 of 0 to 575");
        assert_eq!(
            steps[6].text,
            "6 × 570 + 0 = 3420 of 0 to 3455: 2880 or more, keep 3420 − 2880 = 540 of 0 to 575"
        );
        assert_eq!(
            steps[7].text,
            "6 × 540 + 0 = 3240 of 0 to 3455: 2880 or more, keep 3240 − 2880 = 360 of 0 to 575"
        );
        assert!(done.is_none());
        let (steps, done) = roll(&[6, 3, 2, 3, 4]);
        assert_eq!(
            steps[3].text,
            "6 × 193 + 2 = 1160 of 0 to 1295: 960 or more, keep 1160 − 960 = 200 of 0 to 335"
        );
        assert_eq!(
            steps[4].text,
            "6 × 200 + 3 = 1203 of 0 to 2015: below 1920, so SP = 1203 mod 960 = 243"
        );
        assert_eq!(done.unwrap().rank.number().number(), 243);
    }
}
