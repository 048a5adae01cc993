//! Which start a proxied game begins from: the command line's `--sp` (a fixed start, or a
//! seeded random one per game), overridden by the GUI's start options. Protocol-neutral:
//! the UCI and XBoard proxy sessions share it.
//!
//! The two options every proxy offers its GUI (as UCI `option name ... type spin` or
//! XBoard `feature option="... -spin ..."`):
//!
//! | option | values | default |
//! |---|---|---|
//! | [`START_OPTION`] `SP960_Start` | -2 random per game, -1 off, 0..959 that SP | the command line's `--sp` (-1 without) |
//! | [`BLACK_START_OPTION`] `SP960_BlackStart` | -1 the same as white's, 0..959 black's SP (double FRC) | black's SP of a `--sp W:B` pair, else -1 |
//!
//! A session hands the GUI's value text to [`StartSelector::set_option`], asks
//! [`StartSelector::current`] for the start when a game is set up, and calls
//! [`StartSelector::new_game`] at the protocol's new-game command.

use thiserror::Error;

use crate::starts::numbering::StartPosition;

use crate::starts::start::{RandomStarts, Start, StartArg};

/// Name of the option for the start position (white's, and black's too unless
/// [`BLACK_START_OPTION`] is set): -2 = random, -1 = off, 0..=959 = that SP; its default is
/// the command line's `--sp`.
pub const START_OPTION: &str = "SP960_Start";
/// Name of the option for double Fischer Random: black's SP, -1 = the same as white's.
pub const BLACK_START_OPTION: &str = "SP960_BlackStart";

/// One of the two start options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StartOption {
    /// [`START_OPTION`]: white's start (both sides' in classic Chess960).
    White,
    /// [`BLACK_START_OPTION`]: black's start in double FRC.
    Black,
}

impl StartOption {
    /// The option an option name means (ASCII case-insensitive), if it is one of ours.
    pub fn from_name(name: &[u8]) -> Option<StartOption> {
        if name.eq_ignore_ascii_case(START_OPTION.as_bytes()) {
            Some(StartOption::White)
        } else if name.eq_ignore_ascii_case(BLACK_START_OPTION.as_bytes()) {
            Some(StartOption::Black)
        } else {
            None
        }
    }

    /// The option's name.
    pub fn name(self) -> &'static str {
        match self {
            StartOption::White => START_OPTION,
            StartOption::Black => BLACK_START_OPTION,
        }
    }

    /// The smallest value the option takes (-2 random for white's, -1 for black's).
    pub fn min(self) -> i32 {
        match self {
            StartOption::White => -2,
            StartOption::Black => -1,
        }
    }
}

/// A GUI's value for a start option that the option does not take; the selector is left
/// unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{} must be {} or 0..959, not '{value}'", option.name(), match option {
    StartOption::White => "-2 (random), -1 (off)",
    StartOption::Black => "-1 (as white)",
})]
pub struct BadStartOption {
    /// Which option.
    pub option: StartOption,
    /// The value as the GUI wrote it (trimmed).
    pub value: String,
}

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
    /// The choice `--sp` makes: its start, or `random` (a sequence from `seed`, double-FRC
    /// pairs with `dfrc`). `None` gives [`StartChoice::Off`].
    pub fn from_arguments(spec: Option<&StartArg>, seed: u64, dfrc: bool) -> StartChoice {
        match spec.map(StartArg::start) {
            None => StartChoice::Off,
            Some(None) => StartChoice::Random { seed, dfrc },
            Some(Some(start)) => StartChoice::Fixed(start),
        }
    }
}

/// A GUI's value for the start option: -2 random, -1 off, 0..=959 that SP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartSetting {
    /// -1: no start of ours.
    Off,
    /// -2: a random start per game.
    Random,
    /// That SP (both sides, unless black's option says otherwise).
    Fixed(StartPosition),
}

impl StartSetting {
    /// Reads an option value: `-2`, `-1` or `0`..`959`.
    pub fn parse(value: &[u8]) -> Option<StartSetting> {
        let text = std::str::from_utf8(value).ok()?;
        match text.trim().parse::<i64>().ok()? {
            -2 => Some(StartSetting::Random),
            -1 => Some(StartSetting::Off),
            n if n >= 0 => StartPosition::new(n as u64).ok().map(StartSetting::Fixed),
            _ => None,
        }
    }

    /// The option value that means this setting.
    pub fn value(self) -> i32 {
        match self {
            StartSetting::Off => -1,
            StartSetting::Random => -2,
            StartSetting::Fixed(sp) => i32::from(sp.number()),
        }
    }
}

/// Reads black's option value: `-1` (the same as white's) or `0`..`959`.
pub fn parse_black_setting(value: &[u8]) -> Option<Option<StartPosition>> {
    match StartSetting::parse(value)? {
        StartSetting::Off => Some(None),
        StartSetting::Fixed(sp) => Some(Some(sp)),
        StartSetting::Random => None,
    }
}

/// The start of the current game: the command line's choice, the GUI's settings (white's
/// start, and black's for double FRC), and the random draw of the current game.
pub struct StartSelector {
    choice: StartChoice,
    random: RandomStarts,
    fallback_seed: u64,
    white: Option<StartSetting>,
    black: Option<StartPosition>,
    current: Option<Start>,
}

impl StartSelector {
    /// A selector for `choice`; `fallback_seed` seeds random starts the GUI asks for when
    /// the command line's choice is not random.
    pub fn new(choice: StartChoice, fallback_seed: u64) -> StartSelector {
        let random = match choice {
            StartChoice::Random { seed, dfrc } => RandomStarts::new(seed, dfrc),
            _ => RandomStarts::new(fallback_seed, false),
        };
        StartSelector {
            choice,
            random,
            fallback_seed,
            white: None,
            black: None,
            current: None,
        }
    }

    /// The setting in force: the GUI's, else the command line's.
    pub fn setting(&self) -> StartSetting {
        self.white.unwrap_or(match self.choice {
            StartChoice::Off => StartSetting::Off,
            StartChoice::Random { .. } => StartSetting::Random,
            StartChoice::Fixed(start) => StartSetting::Fixed(start.white),
        })
    }

    /// True when games start from a start of ours.
    pub fn active(&self) -> bool {
        self.setting() != StartSetting::Off
    }

    /// The GUI's setting for white's (and the classic) start.
    pub fn set_white(&mut self, setting: StartSetting) {
        self.white = Some(setting);
        self.current = None;
    }

    /// The GUI's black SP for double FRC; `None`: the same as white's.
    pub fn set_black(&mut self, sp: Option<StartPosition>) {
        self.black = sp;
        self.current = None;
    }

    /// Sets `option` from the GUI's value text (see [`StartSetting::parse`] and
    /// [`parse_black_setting`]); an error leaves the selector unchanged. `Ok(Some(note))`:
    /// the GUI chose random starts the command line did not, and `note` says which seed
    /// repeats them (for stderr).
    pub fn set_option(
        &mut self,
        option: StartOption,
        value: &[u8],
    ) -> Result<Option<String>, BadStartOption> {
        let bad = || BadStartOption {
            option,
            value: String::from_utf8_lossy(value).trim().to_owned(),
        };
        match option {
            StartOption::White => {
                let setting = StartSetting::parse(value).ok_or_else(bad)?;
                self.set_white(setting);
                let seed = self.fallback_seed;
                Ok((setting == StartSetting::Random
                    && !matches!(self.choice, StartChoice::Random { .. }))
                .then(|| {
                    format!(
                        "random starts chosen by the GUI, seed {seed} (repeat with --seed {seed})"
                    )
                }))
            }
            StartOption::Black => {
                self.set_black(parse_black_setting(value).ok_or_else(bad)?);
                Ok(None)
            }
        }
    }

    /// A new game begins: a random setting draws again when next asked.
    pub fn new_game(&mut self) {
        self.current = None;
    }

    /// The start of the current game (drawing it if random and not drawn yet).
    pub fn current(&mut self) -> Option<Start> {
        let start = match (self.setting(), self.current) {
            (StartSetting::Off, _) => return None,
            (StartSetting::Random, Some(start)) => start,
            (StartSetting::Random, None) => self.random.next()?,
            (StartSetting::Fixed(white), _) => {
                let command_line_black = match self.choice {
                    StartChoice::Fixed(start) if self.white.is_none() => start.black,
                    _ => white,
                };
                Start {
                    white,
                    black: self.black.unwrap_or(command_line_black),
                }
            }
        };
        self.current = Some(start);
        Some(start)
    }

    /// The defaults to advertise for the white and black start options: the command
    /// line's choice (-2 random, -1 none, N), and black's SP of a DFRC pair (else -1).
    pub fn option_defaults(&self) -> (i32, i32) {
        let black = match self.choice {
            StartChoice::Fixed(start) if !start.is_symmetric() => i32::from(start.black.number()),
            _ => -1,
        };
        let white = match self.choice {
            StartChoice::Off => StartSetting::Off,
            StartChoice::Random { .. } => StartSetting::Random,
            StartChoice::Fixed(start) => StartSetting::Fixed(start.white),
        };
        (white.value(), black)
    }
}

/// What a session does when a start of ours is active and the engine has no Chess960
/// mode: fail (`--require-chess960`), or warn once a session.
#[derive(Debug, Default)]
pub(crate) struct NoChess960 {
    /// `--require-chess960`.
    require: bool,
    /// The warning was given.
    warned: bool,
}

/// [`NoChess960::verdict`]: what to say now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NoChess960Verdict {
    /// Stop the proxy ([`exit_code::ENGINE_UNSUITABLE`](crate::exit_code::ENGINE_UNSUITABLE)).
    Fail,
    /// Warn the GUI and stderr (the first time).
    Warn,
    /// Said already.
    Quiet,
}

impl NoChess960 {
    /// Fails when `require` (`--require-chess960`), else warns once.
    pub(crate) fn new(require: bool) -> NoChess960 {
        NoChess960 {
            require,
            warned: false,
        }
    }

    /// The engine cannot play the start as Chess960: what to do.
    pub(crate) fn verdict(&mut self) -> NoChess960Verdict {
        if self.require {
            NoChess960Verdict::Fail
        } else if std::mem::replace(&mut self.warned, true) {
            NoChess960Verdict::Quiet
        } else {
            NoChess960Verdict::Warn
        }
    }
}

/// The notices about the proxy's start that go to the GUI and stderr once per game: when
/// the GUI's own position replaces the start, and when the start is played for a GUI that
/// has not enabled Chess960 (one that keeps its own board will reject the engine's moves).
/// Both protocols' sessions keep one and reset it at each new game.
#[derive(Debug, Default)]
pub struct StartNotices {
    replaced: bool,
    standard_gui: bool,
}

impl StartNotices {
    /// Forgets what was said: a new game.
    pub fn new_game(&mut self) {
        *self = StartNotices::default();
    }

    /// The first time in a game: the GUI's `command` (`position fen`, `setboard`)
    /// replaces `start`.
    pub fn replaced(&mut self, start: Start, command: &str) -> Option<String> {
        if std::mem::replace(&mut self.replaced, true) {
            return None;
        }
        Some(format!(
            "the GUI's {command} replaces the start {} in this game: --sp and SP960_Start \
             choose the start of `position startpos` and `new` only (a GUI or runner that \
             keeps its own board needs a book of starts: sp960 book)",
            start.label()
        ))
    }

    /// The first time in a game: `played` (`position startpos`, `new`) is played from
    /// `start` though the GUI did not `enable` Chess960.
    pub fn standard_gui(&mut self, start: Start, played: &str, enable: &str) -> Option<String> {
        if std::mem::replace(&mut self.standard_gui, true) {
            return None;
        }
        Some(format!(
            "{played} is played from {} but the GUI has not enabled {enable}: a GUI that \
             keeps its own board will reject the engine's moves (give such a GUI a book of \
             starts: sp960 book)",
            start.label()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::starts::start::SpecError;

    fn sp(n: u64) -> StartPosition {
        StartPosition::new(n).unwrap()
    }

    #[test]
    fn gui_settings_beat_the_command_line() {
        let mut starts = StartSelector::new(StartChoice::Fixed("860:0".parse().unwrap()), 1);
        assert_eq!(starts.option_defaults(), (860, 0));
        assert_eq!(starts.current().unwrap().to_string(), "860:0");
        starts.set_white(StartSetting::Fixed(sp(5)));
        assert_eq!(starts.current().unwrap().to_string(), "5");
        starts.set_black(Some(sp(7)));
        assert_eq!(starts.current().unwrap().to_string(), "5:7");
        starts.set_white(StartSetting::Off);
        assert!(!starts.active() && starts.current().is_none());
        starts.set_white(StartSetting::Random);
        assert!(
            starts.current().unwrap().is_symmetric(),
            "fallback: classic random"
        );
        let mut off = StartSelector::new(StartChoice::Off, 1);
        assert!(!off.active() && off.current().is_none());
        assert_eq!(off.option_defaults(), (-1, -1));
        off.set_white(StartSetting::Fixed(sp(1)));
        assert!(off.active());
    }

    #[test]
    fn random_draws_once_per_game_and_repeats_with_the_seed() {
        let choice = StartChoice::Random {
            seed: 3,
            dfrc: true,
        };
        let mut starts = StartSelector::new(choice, 0);
        assert_eq!(starts.option_defaults(), (-2, -1));
        let first = starts.current();
        assert_eq!(starts.current(), first);
        starts.new_game();
        let second = starts.current();
        assert_ne!(second, first);
        let mut again = StartSelector::new(choice, 99);
        assert_eq!(again.current(), first);
        again.new_game();
        assert_eq!(again.current(), second);
    }

    #[test]
    fn option_values() {
        assert_eq!(StartSetting::parse(b"-2"), Some(StartSetting::Random));
        assert_eq!(StartSetting::parse(b"-1"), Some(StartSetting::Off));
        assert_eq!(
            StartSetting::parse(b" 959 "),
            Some(StartSetting::Fixed(sp(959)))
        );
        assert_eq!(StartSetting::parse(b"960"), None);
        assert_eq!(StartSetting::parse(b"-3"), None);
        assert_eq!(StartSetting::parse(b"x"), None);
        assert_eq!(parse_black_setting(b"-1"), Some(None));
        assert_eq!(parse_black_setting(b"-2"), None);
        assert_eq!(StartSetting::Fixed(sp(860)).value(), 860);
    }

    #[test]
    fn options_by_name_with_their_errors() {
        let mut starts = StartSelector::new(StartChoice::Fixed("0:959".parse().unwrap()), 4);
        assert_eq!(
            StartOption::from_name(b"sp960_start"),
            Some(StartOption::White)
        );
        assert_eq!(
            StartOption::from_name(b"SP960_BlackStart"),
            Some(StartOption::Black)
        );
        assert_eq!(StartOption::from_name(b"Hash"), None);
        assert_eq!(starts.set_option(StartOption::White, b" 860 "), Ok(None));
        assert_eq!(starts.set_option(StartOption::Black, b"959"), Ok(None));
        assert_eq!(starts.current().unwrap().to_string(), "860:959");
        let err = starts.set_option(StartOption::Black, b"-2").unwrap_err();
        assert_eq!(
            err.to_string(),
            "SP960_BlackStart must be -1 (as white) or 0..959, not '-2'"
        );
        let err = starts.set_option(StartOption::White, b"960 ").unwrap_err();
        assert_eq!(
            err.to_string(),
            "SP960_Start must be -2 (random), -1 (off) or 0..959, not '960'"
        );
        assert_eq!(
            starts.current().unwrap().to_string(),
            "860:959",
            "unchanged"
        );
        assert_eq!(
            starts.set_option(StartOption::White, b"-2"),
            Ok(Some(
                "random starts chosen by the GUI, seed 4 (repeat with --seed 4)".to_owned()
            ))
        );
        let mut random = StartSelector::new(
            StartChoice::Random {
                seed: 1,
                dfrc: false,
            },
            4,
        );
        assert_eq!(random.set_option(StartOption::White, b"-2"), Ok(None));
    }

    #[test]
    fn arguments() {
        assert_eq!(
            StartChoice::from_arguments(None, 0, false),
            StartChoice::Off
        );
        let random: StartArg = " Random".parse().unwrap();
        assert_eq!(random.text(), " Random");
        assert_eq!(
            StartChoice::from_arguments(Some(&random), 9, true),
            StartChoice::Random {
                seed: 9,
                dfrc: true
            }
        );
        assert_eq!(
            StartChoice::from_arguments(Some(&"0:959".parse().unwrap()), 9, true),
            StartChoice::Fixed("0:959".parse().unwrap())
        );
        assert!("961".parse::<StartArg>().is_err());
        // A list or `all` is no single start, and the message says what one is.
        for text in ["all", "1,2", "0-9"] {
            let err = text.parse::<StartArg>().unwrap_err();
            assert_eq!(err, SpecError::NotOneStart(text.into()));
            assert!(
                err.to_string().contains("expected N from 0 to 959"),
                "{err}"
            );
        }
    }
}
