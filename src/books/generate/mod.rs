//! `sp960 book SPEC... --plies N --engine ...`: opening books generated with a real UCI
//! engine, N plies deep from each start, kept when the engine's evaluation lies in a
//! window (see docs/book.md for the record format and the options).
//!
//! Owns: the choosing, window and dedup logic as a sans-IO state machine per start
//! ([`walk`]: fed search results, answering with the next search), the records and their
//! reading back for `--resume` ([`record`]), the engine shell ([`engine`], built on
//! the shared engine driver of `clients`) and the worker
//! pool with its ordered commits, progress, Ctrl-C and restarts ([`run`]). Option checking lives here too
//! ([`GenerateOptions::check`]), so the CLI only maps flags.
//!
//! Must not import `cli`, `proxy` or `engine`; uses `launch` (engine specs, command),
//! `clients` (the engine driver and its search limits), `protocol`, `starts` and `os`.

pub mod engine;
pub mod record;
pub mod run;
pub mod walk;

use std::time::Duration;

use crate::clients::talk::Limits;
use crate::launch::engine_start::EngineStart;
use crate::launch::spec::EngineSpec;
use crate::launch::spec::SpecKey;
use crate::protocol::Protocol;
pub use engine::BookEngineSetup;
pub use run::{GenerateError, GenerateRequest, generate};
pub use walk::{WalkSettings, Window};

/// The MultiPV lines asked for at each ply unless `--multipv` says otherwise.
pub const DEFAULT_MULTIPV: u32 = 5;
/// The margin (centipawns below the best line) unless `--margin` says otherwise.
pub const DEFAULT_MARGIN: i32 = 50;
/// Nodes per search when none of `--nodes`, `--depth`, `--movetime` is given.
pub const DEFAULT_NODES: u64 = 100_000;
/// Walks per wanted position (`--tries` = this × `--per-start` by default).
pub const TRIES_PER_POSITION: u32 = 50;
/// The most plies `--plies` takes.
pub const MAX_PLIES: u32 = 200;

/// The generation options as the user gave them, before checking; the engine and the
/// window already read ([`parse_engine`], [`parse_window`], clap's value parsers).
#[derive(Debug, Clone, Default)]
pub struct GenerateOptions {
    /// `--plies`.
    pub plies: u32,
    /// `--engine`.
    pub engine: Option<EngineSpec>,
    /// `--nodes`.
    pub nodes: Option<u64>,
    /// `--depth`.
    pub depth: Option<u32>,
    /// `--movetime` in milliseconds.
    pub movetime: Option<u64>,
    /// `--window LO,HI`.
    pub window: Option<Window>,
    /// `--per-start`.
    pub per_start: u32,
    /// `--margin`.
    pub margin: i32,
    /// `--multipv`.
    pub multipv: u32,
    /// `--tries` (default: [`TRIES_PER_POSITION`] × `per_start`).
    pub tries: Option<u32>,
    /// `--seed`.
    pub seed: u64,
    /// `--concurrency`.
    pub concurrency: usize,
    /// `--engine-timeout` in seconds.
    pub engine_timeout: f64,
}

/// `--window LO,HI` read: both ends in centipawns, LO ≤ HI.
pub fn parse_window(text: &str) -> Result<Window, GenerateError> {
    let usage = |reason: &str| GenerateError::Usage(format!("--window {text}: {reason}"));
    let (low, high) = text
        .split_once(',')
        .ok_or_else(|| usage("expected LO,HI in centipawns from White's side, e.g. -35,35"))?;
    let number = |s: &str| {
        s.trim().parse::<i32>().map_err(|_| {
            usage(&format!(
                "'{}' is not a whole number of centipawns",
                s.trim()
            ))
        })
    };
    let (low, high) = (number(low)?, number(high)?);
    if low > high {
        return Err(usage("the window is empty (LO is above HI)"));
    }
    Ok(Window { low, high })
}

/// `--engine` read: one UCI engine (`sp960 match`'s keys but those the generator does not
/// take), its errors named `--engine: ...`.
pub fn parse_engine(text: &str) -> Result<EngineSpec, GenerateError> {
    let usage = |reason: String| GenerateError::Usage(format!("--engine: {reason}"));
    let spec = EngineSpec::parse(1, text).map_err(|err| usage(err.reason))?;
    spec.refuse(&UNSUPPORTED_KEYS)
        .map_err(|err| usage(err.reason))?;
    if spec.protocol == Some(Protocol::Xboard) {
        return Err(usage(
            "proto=xboard: book generation needs a UCI engine (MultiPV scores)".into(),
        ));
    }
    Ok(spec)
}

impl GenerateOptions {
    /// Checks every option and gives the walk settings and the engine setup; each error
    /// names its option.
    pub fn check(&self) -> Result<(WalkSettings, BookEngineSetup), GenerateError> {
        let usage = |text: String| Err(GenerateError::Usage(text));
        if self.plies == 0 || self.plies > MAX_PLIES {
            return usage(format!(
                "--plies {}: give 1 to {MAX_PLIES} plies (moves of either side) from each start",
                self.plies
            ));
        }
        if self.per_start == 0 {
            return usage("--per-start 0: give at least 1 position per start".into());
        }
        if self.multipv == 0 || self.multipv > 500 {
            return usage(format!("--multipv {}: give 1 to 500 lines", self.multipv));
        }
        if self.margin < 0 {
            return usage(format!(
                "--margin {}: give 0 or more centipawns",
                self.margin
            ));
        }
        if self.concurrency == 0 {
            return usage("--concurrency 0: give at least 1 worker".into());
        }
        if !(self.engine_timeout > 0.0 && self.engine_timeout.is_finite()) {
            return usage(format!(
                "--engine-timeout {}: give a positive number of seconds",
                self.engine_timeout
            ));
        }
        let tries = self
            .tries
            .unwrap_or(TRIES_PER_POSITION.saturating_mul(self.per_start));
        if tries < self.per_start {
            return usage(format!(
                "--tries {tries}: fewer tries than --per-start {} positions",
                self.per_start
            ));
        }
        let Some(spec) = self.engine.clone() else {
            return usage("--plies needs --engine: the UCI engine that scores the moves".into());
        };
        let mut limits = Limits {
            depth: spec.limits.depth.or(self.depth),
            nodes: spec.limits.nodes.or(self.nodes),
            movetime: self.movetime.map(Duration::from_millis),
            clock: None,
        };
        if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
            limits.nodes = Some(DEFAULT_NODES);
        }
        let settings = WalkSettings {
            plies: self.plies,
            per_start: self.per_start,
            window: self.window,
            margin: self.margin,
            multipv: self.multipv,
            tries,
            seed: self.seed,
        };
        let setup = BookEngineSetup {
            start: EngineStart::of(&spec),
            limits,
            timeout: Duration::from_secs_f64(self.engine_timeout),
        };
        Ok((settings, setup))
    }
}

/// `--engine` keys the generator does not take, and why.
const UNSUPPORTED_KEYS: [(SpecKey, &str); 7] = [
    (SpecKey::Name, "by sp960 book (the book names no engine)"),
    (
        SpecKey::Restart,
        "by sp960 book (a worker's engine is restarted only after a failure)",
    ),
    (
        SpecKey::Tc,
        "by sp960 book (searches are limited by --nodes, --depth or --movetime)",
    ),
    (SpecKey::St, "by sp960 book (use --movetime)"),
    (
        SpecKey::Castling,
        "by sp960 book (it reads UCI_Chess960 from the engine)",
    ),
    (
        SpecKey::Chess960,
        "by sp960 book (it reads UCI_Chess960 from the engine)",
    ),
    (SpecKey::Proxy, "by sp960 book (it needs no proxy)"),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> GenerateOptions {
        GenerateOptions {
            plies: 4,
            engine: Some(parse_engine("/usr/games/stockfish option.Hash=16").unwrap()),
            per_start: 1,
            margin: DEFAULT_MARGIN,
            multipv: DEFAULT_MULTIPV,
            seed: 1,
            concurrency: 1,
            engine_timeout: 60.0,
            ..GenerateOptions::default()
        }
    }

    fn error(options: GenerateOptions) -> String {
        options.check().unwrap_err().to_string()
    }

    #[test]
    fn windows_are_read_and_empty_ones_refused() {
        assert_eq!(
            parse_window("-35,35").unwrap(),
            Window { low: -35, high: 35 }
        );
        assert_eq!(
            parse_window("90, 119").unwrap(),
            Window { low: 90, high: 119 }
        );
        assert_eq!(parse_window("5,5").unwrap(), Window { low: 5, high: 5 });
        let err = parse_window("35,-35").unwrap_err().to_string();
        assert!(
            err.starts_with("--window 35,-35: the window is empty"),
            "{err}"
        );
        assert!(
            parse_window("35")
                .unwrap_err()
                .to_string()
                .contains("LO,HI")
        );
        assert!(
            parse_window("a,3")
                .unwrap_err()
                .to_string()
                .contains("'a' is not a whole number")
        );
    }

    #[test]
    fn engines_are_read_and_keys_the_generator_does_not_take_refused() {
        let spec = parse_engine("sf option.Hash=16 depth=7").unwrap();
        assert_eq!((spec.cmd.as_str(), spec.limits.depth), ("sf", Some(7)));
        for (text, expected) in [
            ("sf tc=10+0.1", "--engine: tc="),
            (
                "sf proto=xboard",
                "--engine: proto=xboard: book generation needs a UCI",
            ),
            ("sf foo=1", "--engine: unknown key 'foo'"),
            // A double quote: unbalanced in both splittings (a single quote is a plain
            // character on Windows).
            ("\"sf", "--engine: unbalanced quotes"),
        ] {
            let err = parse_engine(text).unwrap_err().to_string();
            assert!(err.starts_with(expected), "{err} (expected {expected})");
        }
    }

    #[test]
    fn every_bad_option_is_named() {
        let (settings, setup) = options().check().unwrap();
        assert_eq!(settings.tries, TRIES_PER_POSITION);
        assert_eq!(setup.limits.nodes, Some(DEFAULT_NODES));
        assert_eq!(setup.start.options, [("Hash".to_owned(), "16".to_owned())]);
        let cases: [(GenerateOptions, &str); 8] = [
            (
                GenerateOptions {
                    plies: 0,
                    ..options()
                },
                "--plies 0:",
            ),
            (
                GenerateOptions {
                    plies: 201,
                    ..options()
                },
                "--plies 201:",
            ),
            (
                GenerateOptions {
                    per_start: 0,
                    ..options()
                },
                "--per-start 0:",
            ),
            (
                GenerateOptions {
                    multipv: 0,
                    ..options()
                },
                "--multipv 0:",
            ),
            (
                GenerateOptions {
                    margin: -1,
                    ..options()
                },
                "--margin -1:",
            ),
            (
                GenerateOptions {
                    concurrency: 0,
                    ..options()
                },
                "--concurrency 0:",
            ),
            (
                GenerateOptions {
                    tries: Some(0),
                    ..options()
                },
                "--tries 0:",
            ),
            (
                GenerateOptions {
                    engine: None,
                    ..options()
                },
                "--plies needs --engine",
            ),
        ];
        for (options, expected) in cases {
            let err = error(options);
            assert!(err.starts_with(expected), "{err} (expected {expected})");
        }
        let limited = GenerateOptions {
            engine: Some(parse_engine("sf depth=7").unwrap()),
            nodes: Some(5),
            ..options()
        };
        let (_, setup) = limited.check().unwrap();
        assert_eq!((setup.limits.depth, setup.limits.nodes), (Some(7), Some(5)));
    }
}
