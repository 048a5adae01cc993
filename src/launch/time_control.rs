//! Time controls in cutechess-cli's syntax, `[MOVES/]TIME[+INCREMENT]` (TIME in seconds
//! or `M:SS`), shared by `sp960 match` (the clocks it keeps), `sp960 tournament` (the
//! lines it writes) and the `tc=` key of an engine spec.

use std::fmt;
use std::time::Duration;

use thiserror::Error;

/// Why a time control was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TimeControlError {
    /// Not in the syntax.
    #[error(
        "time control '{0}': expected [MOVES/]SECONDS[+INCREMENT] or [MOVES/]M:SS[+INCREMENT], e.g. 10+0.1 or 40/1:00+0.6"
    )]
    Syntax(String),
    /// A time (base or increment) too long to keep a clock with.
    #[error(
        "time control '{text}': {value} seconds is out of range (at most {max} seconds, one year)",
        max = MAX_TIME_CONTROL_SECONDS
    )]
    Range {
        /// The time control as written.
        text: String,
        /// The time as written.
        value: String,
    },
}

/// The longest time a time control may give, base or increment, in seconds: one year.
/// Longer values are refused when parsed (they overflow clocks and `Duration`).
pub const MAX_TIME_CONTROL_SECONDS: u64 = 365 * 24 * 60 * 60;

/// A time control in cutechess syntax: `[MOVES/]TIME[+INCREMENT]`, TIME in seconds or
/// `M:SS`.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeControl {
    text: String,
    moves: Option<u32>,
    seconds: f64,
    base: Duration,
    increment_text: Option<String>,
    increment: Duration,
}

/// `value` seconds (written `written` in `text`) as a `Duration`: a range error above
/// [`MAX_TIME_CONTROL_SECONDS`], never a panic.
fn time_control_seconds(
    text: &str,
    written: &str,
    value: f64,
) -> Result<Duration, TimeControlError> {
    let too_long = || TimeControlError::Range {
        text: text.to_owned(),
        value: written.to_owned(),
    };
    if value > MAX_TIME_CONTROL_SECONDS as f64 {
        return Err(too_long());
    }
    Duration::try_from_secs_f64(value).map_err(|_| too_long())
}

impl std::str::FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let fail = || TimeControlError::Syntax(text.to_owned());
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => (Some(moves.parse::<u32>().map_err(|_| fail())?), rest),
            None => (None, text),
        };
        let number = |s: &str| s.parse::<f64>().ok().filter(|n| *n >= 0.0 && n.is_finite());
        let (time, increment_text, increment) = match rest.split_once('+') {
            Some((time, increment)) => {
                let seconds = number(increment).ok_or_else(fail)?;
                let duration = time_control_seconds(text, increment, seconds)?;
                (time, Some(increment.to_owned()), duration)
            }
            None => (rest, None, Duration::ZERO),
        };
        let seconds = match time.split_once(':') {
            Some((minutes, seconds)) => {
                let minutes = minutes.parse::<u32>().map_err(|_| fail())?;
                f64::from(minutes) * 60.0 + number(seconds).ok_or_else(fail)?
            }
            None => number(time).ok_or_else(fail)?,
        };
        if seconds <= 0.0 {
            return Err(fail());
        }
        let base = time_control_seconds(text, time, seconds)?;
        Ok(TimeControl {
            text: text.to_owned(),
            moves,
            seconds,
            base,
            increment_text,
            increment,
        })
    }
}

impl TimeControl {
    /// The base time in seconds, as a number (`60` for `1:00`).
    pub fn seconds(&self) -> f64 {
        self.seconds
    }

    /// The increment as the user wrote it, when one was given.
    pub fn increment_text(&self) -> Option<&str> {
        self.increment_text.as_deref()
    }
    /// Moves per period (`40` in `40/60+0.6`); `None`: the whole game.
    pub fn moves(&self) -> Option<u32> {
        self.moves
    }

    /// The time of a period.
    pub fn base(&self) -> Duration {
        self.base
    }

    /// The increment per move (zero when none was given).
    pub fn increment(&self) -> Duration {
        self.increment
    }

    /// The PGN `TimeControl` tag value: seconds, as the PGN standard writes them
    /// (`1:30+1` is `90+1`, `40/1:00+0.6` is `40/60+0.6`). A fractional base, which the
    /// standard cannot express, is written as a decimal (`0.5+0.1`), as cutechess does.
    pub fn pgn_tag(&self) -> String {
        let mut tag = String::new();
        if let Some(moves) = self.moves.filter(|m| *m > 0) {
            tag.push_str(&format!("{moves}/"));
        }
        tag.push_str(&format!("{}", self.seconds));
        if self.increment_text.is_some() {
            tag.push_str(&format!("+{}", self.increment.as_secs_f64()));
        }
        tag
    }
}

impl fmt::Display for TimeControl {
    /// The text as the user wrote it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        let tc: TimeControl = "40/1:00+0.6".parse().unwrap();
        assert_eq!((tc.moves, tc.seconds), (Some(40), 60.0));
        for bad in ["", "x", "10+", "10+-1", "0", "/10", "1:xx"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn time_controls_too_long_for_a_clock_are_refused_naming_the_value() {
        for (text, value) in [
            ("1e308", "1e308"),
            ("1e300", "1e300"),
            ("99999999999999999999", "99999999999999999999"),
            ("10+1e20", "1e20"),
            ("1:99999999999999999999", "1:99999999999999999999"),
            ("4294967295:00", "4294967295:00"),
            ("31536000.5", "31536000.5"),
        ] {
            let err = text.parse::<TimeControl>().unwrap_err();
            assert_eq!(
                err,
                TimeControlError::Range {
                    text: text.to_owned(),
                    value: value.to_owned()
                }
            );
            assert!(
                err.to_string()
                    .contains(&format!("'{text}': {value} seconds is out of range")),
                "{err}"
            );
        }
        // The longest base and increment are accepted, and their Durations exact.
        let tc: TimeControl = "31536000+31536000".parse().unwrap();
        assert_eq!(tc.base(), Duration::from_secs(MAX_TIME_CONTROL_SECONDS));
        assert_eq!(
            tc.increment(),
            Duration::from_secs(MAX_TIME_CONTROL_SECONDS)
        );
    }

    #[test]
    fn pgn_tag_writes_seconds() {
        for (text, tag) in [
            ("1:30+1", "90+1"),
            ("40/1:00+0.6", "40/60+0.6"),
            ("40/60+0.6", "40/60+0.6"),
            ("10", "10"),
            ("0:45", "45"),
            ("2.0+1e-1", "2+0.1"),
            ("0.5+0", "0.5+0"),
            ("0/10", "10"),
        ] {
            let tc: TimeControl = text.parse().unwrap();
            assert_eq!(tc.pgn_tag(), tag, "{text}");
            // The text as written stays what Display shows (cutechess's tc=).
            assert_eq!(tc.to_string(), text);
        }
    }
}
