//! Which games `sp960 results` counts, read from the tags lichess writes: both players'
//! Elo at least `--min-elo` (`WhiteElo`, `BlackElo`), the time control's class
//! (`TimeControl` `180+2`, classed as lichess classes it), rated games only (`Event`
//! `Rated Chess960 game`); and how the counted games are grouped: per start (a double-FRC
//! pair apart), or per White's or per Black's arrangement whatever the other side's.

use serde::Serialize;

use crate::records::game::Players;
use crate::results::tally::SkipReason;
use crate::starts::start::Start;

/// A time control's class, as lichess names it by the estimated duration of a game:
/// base seconds + 40 × increment seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Speed {
    /// Under 30 s.
    #[value(name = "ultrabullet")]
    UltraBullet,
    /// 30 s to under 3 minutes.
    Bullet,
    /// 3 to under 8 minutes.
    Blitz,
    /// 8 to under 25 minutes.
    Rapid,
    /// 25 minutes and more.
    Classical,
    /// No clock: `TimeControl "-"`.
    Correspondence,
}

impl Speed {
    /// The class of a `TimeControl` tag: `180+2` (seconds, increment seconds), `300`, `-`;
    /// `None` for anything else (`?`, `40/7200:3600`).
    pub fn of(time_control: &str) -> Option<Speed> {
        let time_control = time_control.trim();
        if time_control == "-" {
            return Some(Speed::Correspondence);
        }
        let (base, increment) = time_control.split_once('+').unwrap_or((time_control, "0"));
        let base: u64 = base.parse().ok()?;
        let increment: u64 = increment.parse().ok()?;
        let estimate = base + 40 * increment;
        Some(match estimate {
            0..30 => Speed::UltraBullet,
            30..180 => Speed::Bullet,
            180..480 => Speed::Blitz,
            480..1500 => Speed::Rapid,
            _ => Speed::Classical,
        })
    }

    /// Its name: `blitz`.
    pub fn name(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultrabullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }
}

/// How counted games are grouped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum By {
    /// Per start: `SP n`, a double-FRC pair `W:B` apart.
    #[default]
    Start,
    /// Per White's arrangement (the SP of White's back rank), whatever Black's.
    WhiteStart,
    /// Per Black's arrangement (the SP of Black's back rank), whatever White's.
    BlackStart,
}

impl By {
    /// The group a game from `start` is counted in.
    pub fn group(self, start: Start) -> Start {
        match self {
            By::Start => start,
            By::WhiteStart => Start::symmetric(start.white),
            By::BlackStart => Start::symmetric(start.black),
        }
    }

    /// What a group is, for the table's head: `Start`, `White start`.
    pub fn heading(self) -> &'static str {
        match self {
            By::Start => "Start",
            By::WhiteStart => "White start",
            By::BlackStart => "Black start",
        }
    }
}

/// The games counted: all, or those passing every filter given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// Both players' Elo at least this; a missing or `?` Elo does not pass.
    pub min_elo: Option<u32>,
    /// The time-control classes kept; empty: all.
    pub speeds: Vec<Speed>,
    /// Only games whose `Event` says Rated.
    pub rated: bool,
}

impl GameFilter {
    /// Whether the game at `line` with these tags passes, or the reason it does not and why.
    pub fn check(&self, players: &Players, line: usize) -> Result<(), (SkipReason, String)> {
        if let Some(min) = self.min_elo {
            for (tag, value) in [
                ("WhiteElo", &players.white_elo),
                ("BlackElo", &players.black_elo),
            ] {
                let value = value.as_deref().map(str::trim);
                match value.map(str::parse::<u32>) {
                    Some(Ok(elo)) if elo >= min => {}
                    Some(Ok(elo)) => {
                        return Err((
                            SkipReason::BelowMinElo,
                            format!("game at line {line}: {tag} {elo}, below --min-elo {min}"),
                        ));
                    }
                    _ => {
                        let written = value.map_or("missing".to_owned(), |v| format!("`{v}`"));
                        return Err((
                            SkipReason::NoElo,
                            format!(
                                "game at line {line}: {tag} {written}: no Elo to hold against \
                                 --min-elo {min}"
                            ),
                        ));
                    }
                }
            }
        }
        if !self.speeds.is_empty() {
            let asked: Vec<&str> = self.speeds.iter().map(|s| s.name()).collect();
            let asked = asked.join(", ");
            let written = players.time_control.as_deref().map(str::trim);
            match written.map(Speed::of) {
                Some(Some(speed)) if self.speeds.contains(&speed) => {}
                Some(Some(speed)) => {
                    return Err((
                        SkipReason::OtherTimeControl,
                        format!(
                            "game at line {line}: TimeControl `{}` is {}, not {asked}",
                            written.unwrap_or_default(),
                            speed.name()
                        ),
                    ));
                }
                Some(None) => {
                    return Err((
                        SkipReason::OtherTimeControl,
                        format!(
                            "game at line {line}: TimeControl `{}` has no class (not \
                             SECONDS+INCREMENT or `-`), not {asked}",
                            written.unwrap_or_default()
                        ),
                    ));
                }
                None => {
                    return Err((
                        SkipReason::OtherTimeControl,
                        format!("game at line {line}: no TimeControl tag, not {asked}"),
                    ));
                }
            }
        }
        if self.rated {
            let event = players.event.as_deref().map(str::trim);
            let rated = event
                .and_then(|e| e.split_whitespace().next())
                .is_some_and(|word| word.eq_ignore_ascii_case("rated"));
            if !rated {
                let written = event.map_or("missing".to_owned(), |e| format!("`{e}`"));
                return Err((
                    SkipReason::NotRated,
                    format!("game at line {line}: Event {written} does not say Rated"),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_are_classed_as_lichess_classes_them() {
        let cases = [
            ("15+0", Some(Speed::UltraBullet)),
            ("29+0", Some(Speed::UltraBullet)),
            ("30+0", Some(Speed::Bullet)),
            ("60+0", Some(Speed::Bullet)),
            ("120+1", Some(Speed::Bullet)),
            ("179+0", Some(Speed::Bullet)),
            ("180+0", Some(Speed::Blitz)),
            ("180+2", Some(Speed::Blitz)),
            ("300+3", Some(Speed::Blitz)),
            ("479+0", Some(Speed::Blitz)),
            ("600+0", Some(Speed::Rapid)),
            ("900+10", Some(Speed::Rapid)),
            ("900+15", Some(Speed::Classical)),
            ("1500+0", Some(Speed::Classical)),
            ("300", Some(Speed::Blitz)),
            ("-", Some(Speed::Correspondence)),
            ("?", None),
            ("40/7200:3600", None),
        ];
        for (tag, speed) in cases {
            assert_eq!(Speed::of(tag), speed, "{tag}");
        }
    }

    fn players(white_elo: &str, black_elo: &str, tc: &str, event: &str) -> Players {
        let tag = |v: &str| (!v.is_empty()).then(|| v.to_owned());
        Players {
            white_elo: tag(white_elo),
            black_elo: tag(black_elo),
            time_control: tag(tc),
            event: tag(event),
            ..Players::default()
        }
    }

    #[test]
    fn each_filter_names_its_reason() {
        let game = players("2100", "1900", "180+2", "Casual Chess960 game");
        assert_eq!(GameFilter::default().check(&game, 1), Ok(()));
        let elo = GameFilter {
            min_elo: Some(2000),
            ..GameFilter::default()
        };
        assert_eq!(
            elo.check(&game, 7).unwrap_err(),
            (
                SkipReason::BelowMinElo,
                "game at line 7: BlackElo 1900, below --min-elo 2000".to_owned()
            )
        );
        let unknown = players("2100", "?", "180+2", "");
        assert_eq!(elo.check(&unknown, 1).unwrap_err().0, SkipReason::NoElo);
        let blitz = GameFilter {
            speeds: vec![Speed::Blitz],
            ..GameFilter::default()
        };
        assert_eq!(blitz.check(&game, 1), Ok(()));
        let bullet = GameFilter {
            speeds: vec![Speed::Bullet, Speed::UltraBullet],
            ..GameFilter::default()
        };
        assert_eq!(
            bullet.check(&game, 3).unwrap_err().1,
            "game at line 3: TimeControl `180+2` is blitz, not bullet, ultrabullet"
        );
        let rated = GameFilter {
            rated: true,
            ..GameFilter::default()
        };
        assert_eq!(rated.check(&game, 1).unwrap_err().0, SkipReason::NotRated);
        let tournament = players(
            "",
            "",
            "",
            "Rated Chess960 tournament https://lichess.org/tournament/x",
        );
        assert_eq!(rated.check(&tournament, 1), Ok(()));
    }
}
