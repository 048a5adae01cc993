//! Which start a proxied game begins from: the command line's `--sp` (a fixed start, or a
//! seeded random one per game), overridden by the GUI's start options. Protocol-neutral:
//! the UCI and XBoard proxies and the match runner share it.

use crate::numbering::StartPosition;
use crate::start::{RandomStarts, SpecError, Start};

/// Where the games' start comes from, as given on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StartChoice {
    /// No start: the proxy validates, translates and shields, the GUI sets positions up.
    #[default]
    Off,
    /// Every game from this start.
    Fixed(Start),
    /// A new random start for every game, reproducible from `seed`.
    Random {
        /// Seed of the sequence of starts.
        seed: u64,
        /// Double Fischer Random pairs instead of classic starts.
        dfrc: bool,
    },
}

impl StartChoice {
    /// Reads `--sp`: `N`, `W:B`, or `random` (with `seed`, or a fresh one, which is
    /// returned so it can be told; `dfrc` for random double-FRC pairs). `None` gives
    /// [`StartChoice::Off`].
    pub fn from_arguments(
        spec: Option<&str>,
        seed: Option<u64>,
        dfrc: bool,
    ) -> Result<(StartChoice, Option<u64>), SpecError> {
        match spec {
            None => Ok((StartChoice::Off, None)),
            Some(text) if text.trim().eq_ignore_ascii_case("random") => {
                let seed = seed.unwrap_or_else(RandomStarts::fresh_seed);
                Ok((StartChoice::Random { seed, dfrc }, Some(seed)))
            }
            Some(text) => Ok((StartChoice::Fixed(text.parse::<Start>()?), None)),
        }
    }
}

/// The start of the current game: the command line's choice, the GUI's overrides (white's
/// SP, and black's for double FRC), and the random draw of the current game.
pub struct StartSelector {
    choice: StartChoice,
    random: Option<RandomStarts>,
    white: Option<StartPosition>,
    black: Option<StartPosition>,
    current: Option<Start>,
}

impl StartSelector {
    /// A selector for `choice` with no GUI overrides.
    pub fn new(choice: StartChoice) -> StartSelector {
        let random = match choice {
            StartChoice::Random { seed, dfrc } => Some(RandomStarts::new(seed, dfrc)),
            _ => None,
        };
        StartSelector {
            choice,
            random,
            white: None,
            black: None,
            current: None,
        }
    }

    /// True when games start from a start of ours (command line or GUI).
    pub fn active(&self) -> bool {
        self.white.is_some() || self.choice != StartChoice::Off
    }

    /// The GUI's white (and classic) SP; `None` restores the command line's.
    pub fn set_white(&mut self, sp: Option<StartPosition>) {
        self.white = sp;
        self.current = None;
    }

    /// The GUI's black SP for double FRC; `None`: the same as white's.
    pub fn set_black(&mut self, sp: Option<StartPosition>) {
        self.black = sp;
        self.current = None;
    }

    /// A new game begins: a random choice draws again when next asked.
    pub fn new_game(&mut self) {
        self.current = None;
    }

    /// The start of the current game (drawing it if random and not drawn yet).
    pub fn current(&mut self) -> Option<Start> {
        let with_black = |white: StartPosition, black: StartPosition| Start {
            white,
            black: self.black.unwrap_or(black),
        };
        let start = match (self.white, self.choice) {
            (Some(white), _) => with_black(white, white),
            (None, StartChoice::Fixed(start)) => with_black(start.white, start.black),
            (None, StartChoice::Random { .. }) => match self.current {
                Some(start) => start,
                None => self.random.as_mut()?.next()?,
            },
            (None, StartChoice::Off) => return None,
        };
        self.current = Some(start);
        Some(start)
    }

    /// The defaults to advertise for the white and black start options: the command
    /// line's fixed SPs, -1 otherwise (and -1 for black in a classic start).
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

/// Reads a start option's value: -1 (none) or an SP 0..=959.
pub fn parse_sp_option(value: &[u8]) -> Option<Option<StartPosition>> {
    let text = std::str::from_utf8(value).ok()?;
    match text.trim().parse::<i64>().ok()? {
        -1 => Some(None),
        n if n >= 0 => StartPosition::new(n as u64).ok().map(Some),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sp(n: u64) -> StartPosition {
        StartPosition::new(n).unwrap()
    }

    #[test]
    fn gui_overrides_beat_the_command_line() {
        let mut starts = StartSelector::new(StartChoice::Fixed("860".parse().unwrap()));
        assert_eq!(starts.current().unwrap().to_string(), "860");
        starts.set_black(Some(sp(0)));
        assert_eq!(starts.current().unwrap().to_string(), "860:0");
        starts.set_white(Some(sp(5)));
        assert_eq!(starts.current().unwrap().to_string(), "5:0");
        starts.set_black(None);
        assert_eq!(starts.current().unwrap().to_string(), "5");
        starts.set_white(None);
        assert_eq!(starts.current().unwrap().to_string(), "860");
        assert_eq!(starts.option_defaults(), (860, -1));
        let mut off = StartSelector::new(StartChoice::Off);
        assert!(!off.active() && off.current().is_none());
        off.set_white(Some(sp(1)));
        assert!(off.active());
    }

    #[test]
    fn random_draws_once_per_game() {
        let mut starts = StartSelector::new(StartChoice::Random {
            seed: 3,
            dfrc: true,
        });
        let first = starts.current();
        assert_eq!(starts.current(), first);
        starts.new_game();
        assert_ne!(starts.current(), first);
        assert_eq!(starts.option_defaults(), (-1, -1));
    }

    #[test]
    fn option_values() {
        assert_eq!(parse_sp_option(b"-1"), Some(None));
        assert_eq!(parse_sp_option(b" 959 "), Some(Some(sp(959))));
        assert_eq!(parse_sp_option(b"960"), None);
        assert_eq!(parse_sp_option(b"-2"), None);
        assert_eq!(parse_sp_option(b"x"), None);
    }

    #[test]
    fn arguments() {
        assert_eq!(
            StartChoice::from_arguments(None, None, false).unwrap().0,
            StartChoice::Off
        );
        assert_eq!(
            StartChoice::from_arguments(Some("random"), Some(9), true).unwrap(),
            (
                StartChoice::Random {
                    seed: 9,
                    dfrc: true
                },
                Some(9)
            )
        );
        assert!(StartChoice::from_arguments(Some("961"), None, false).is_err());
    }
}
