//! Which start a proxy's games begin from: the command line's choice (`--sp N`, `W:B`,
//! `random`) and the two options the proxy offers the GUI (`SP960_Start`,
//! `SP960_BlackStart`; -1 = as on the command line). Protocol-neutral: the XBoard session
//! uses it, and the UCI session's equivalent code can move here.

use thiserror::Error;

use crate::numbering::StartPosition;
use crate::start::{RandomStarts, Start};
use crate::uci::StartChoice;

/// The start of the current game, chosen from the command line and the GUI's options.
pub struct StartSelector {
    choice: StartChoice,
    random: Option<RandomStarts>,
    option_white: Option<StartPosition>,
    option_black: Option<StartPosition>,
    game_start: Option<Start>,
}

impl StartSelector {
    /// From the command line's choice; no option set yet.
    pub fn new(choice: StartChoice) -> StartSelector {
        let random = match choice {
            StartChoice::Random { seed, dfrc } => Some(RandomStarts::new(seed, dfrc)),
            _ => None,
        };
        StartSelector {
            choice,
            random,
            option_white: None,
            option_black: None,
            game_start: None,
        }
    }

    /// True when games start from a start of ours (command line or GUI option).
    pub fn active(&self) -> bool {
        self.option_white.is_some() || self.choice != StartChoice::Off
    }

    /// A new game begins: a random start is drawn again at the next [`Self::current`].
    pub fn new_game(&mut self) {
        self.game_start = None;
    }

    /// The start of the current game (drawing the next random one if none is chosen yet).
    pub fn current(&mut self) -> Option<Start> {
        let black_option = self.option_black;
        let with_black = |white: StartPosition, black: StartPosition| Start {
            white,
            black: black_option.unwrap_or(black),
        };
        let start = match (self.option_white, self.choice) {
            (Some(white), _) => with_black(white, white),
            (None, StartChoice::Fixed(start)) => with_black(start.white, start.black),
            (None, StartChoice::Random { .. }) => match self.game_start {
                Some(start) => start,
                None => self.random.as_mut()?.next()?,
            },
            (None, StartChoice::Off) => return None,
        };
        self.game_start = Some(start);
        Some(start)
    }

    /// Sets white's (`SP960_Start`) or black's (`SP960_BlackStart`) option from the GUI's
    /// value text; an error leaves it unchanged.
    pub fn set_option(&mut self, white: bool, value: &[u8]) -> Result<(), BadStartOption> {
        let sp = parse_sp_option(value)?;
        if white {
            self.option_white = sp;
        } else {
            self.option_black = sp;
        }
        self.game_start = None;
        Ok(())
    }

    /// The options' defaults to announce: white's SP and black's (-1: off, or the same as
    /// white's).
    pub fn option_defaults(&self) -> (i32, i32) {
        match self.choice {
            StartChoice::Fixed(start) => (
                i32::from(start.white.number()),
                if start.is_symmetric() {
                    -1
                } else {
                    i32::from(start.black.number())
                },
            ),
            _ => (-1, -1),
        }
    }
}

/// A start option value that is neither -1 nor an SP number.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("must be -1 'off' or 0..959, not '{0}'")]
pub struct BadStartOption(pub String);

/// An option value: `-1` (off) or an SP number 0..=959.
pub fn parse_sp_option(value: &[u8]) -> Result<Option<StartPosition>, BadStartOption> {
    let bad = || BadStartOption(String::from_utf8_lossy(value).trim().to_owned());
    let text = std::str::from_utf8(value).map_err(|_| bad())?;
    match text.trim().parse::<i64>().map_err(|_| bad())? {
        -1 => Ok(None),
        n if n >= 0 => StartPosition::new(n as u64).map(Some).map_err(|_| bad()),
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_override_the_command_line_and_random_starts_repeat() {
        let mut fixed = StartSelector::new(StartChoice::Fixed("0:959".parse().unwrap()));
        assert!(fixed.active());
        assert_eq!(fixed.option_defaults(), (0, 959));
        assert_eq!(fixed.current().unwrap().to_string(), "0:959");
        // White's option set: black follows it unless black's option is set too.
        fixed.set_option(true, b" 860 ").unwrap();
        assert_eq!(fixed.current().unwrap().to_string(), "860");
        fixed.set_option(false, b"959").unwrap();
        assert_eq!(fixed.current().unwrap().to_string(), "860:959");
        assert!(fixed.set_option(false, b"960").is_err());
        assert!(fixed.set_option(false, b"x").is_err());
        fixed.set_option(false, b"-1").unwrap();
        assert_eq!(fixed.current().unwrap().to_string(), "860");

        let mut off = StartSelector::new(StartChoice::Off);
        assert!(!off.active());
        assert_eq!(off.current(), None);

        let random = StartChoice::Random {
            seed: 7,
            dfrc: false,
        };
        let (mut a, mut b) = (StartSelector::new(random), StartSelector::new(random));
        let first = a.current();
        assert_eq!(a.current(), first, "the same until the next game");
        a.new_game();
        let second = a.current();
        assert_eq!(
            [b.current(), {
                b.new_game();
                b.current()
            }],
            [first, second]
        );
    }
}
