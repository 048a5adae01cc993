//! The match as the user asks for it ([`MatchRequest`]: `--engine` texts, SPECs, limits)
//! and as it is played ([`MatchConfig`]: engines, starts, limits, concurrency).

use std::path::{Path, PathBuf};
use std::thread;
use std::time::Duration;

use crate::clients::talk::Limits;
use crate::launch::command::EngineCommand;
use crate::launch::spec::{EngineLimits, EngineSpec, Restart};
use crate::launch::time_control::TimeControl;
use crate::matches::config::adjudication::{DrawRule, ResignRule};
use crate::matches::config::openings::{Opening, OpeningOrder, OpeningsSpec, load};
use crate::matches::config::resume::{load_state, state_path};
use crate::matches::error::MatchError;
use crate::matches::tally::sprt::{SprtConfig, parse_sprt};
use crate::protocol::Protocol;

/// One engine of the match.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchEngine {
    /// The program, its arguments and working directory (`dir=`).
    pub command: EngineCommand,
    /// `name=`: the name in the PGN (default: what the engine calls itself).
    pub name: Option<String>,
    /// `proto=`: the protocol (default: detected).
    pub protocol: Option<Protocol>,
    /// `option.NAME=VALUE`, in order.
    pub options: Vec<(String, String)>,
    /// `initstr=`: lines sent when the engine starts, before the protocol.
    pub init_strings: Vec<String>,
    /// `restart=on`: a fresh process for every game (otherwise only after a failure).
    pub restart_every_game: bool,
    /// `st=`, `depth=`, `nodes=`: the engine's own limits.
    pub limits: EngineLimits,
}

/// The `--engine` keys `sp960 match` does not take, and why.
const UNSUPPORTED_KEYS: [(&str, &str); 4] = [
    (
        "tc",
        "by sp960 match (one clock for both engines: use --tc; st=, depth= and nodes= may differ)",
    ),
    (
        "castling",
        "by sp960 match (it writes each engine's castling itself; castling= is for sp960 tournament)",
    ),
    (
        "chess960",
        "by sp960 match (it reads UCI_Chess960 from the engine; chess960= is for sp960 tournament)",
    ),
    (
        "proxy",
        "by sp960 match (it needs no proxy; proxy= is for sp960 tournament)",
    ),
];

impl MatchEngine {
    /// Reads one `--engine` (`index` 1-based, for messages) with the crate's one
    /// engine-spec reader ([`EngineSpec`]): a bare command or `cmd=`, and cutechess-cli's
    /// keys.
    pub fn parse(index: usize, text: &str) -> Result<MatchEngine, MatchError> {
        let spec = EngineSpec::parse(index, text)?;
        spec.refuse(&UNSUPPORTED_KEYS)?;
        Ok(MatchEngine {
            command: EngineCommand {
                program: spec.cmd.into(),
                args: spec.args.into_iter().map(Into::into).collect(),
                dir: spec.dir.map(Into::into),
            },
            name: spec.name,
            protocol: spec.protocol,
            options: spec.options,
            init_strings: spec.init_strings,
            restart_every_game: spec.restart == Some(Restart::On),
            limits: spec.limits,
        })
    }

    /// The built-in engine: `program engine` (`program` is normally this executable).
    pub fn builtin(program: PathBuf) -> MatchEngine {
        MatchEngine {
            command: EngineCommand {
                program: program.into(),
                args: vec!["engine".into()],
                dir: None,
            },
            name: None,
            protocol: Some(Protocol::Uci),
            options: Vec::new(),
            init_strings: Vec::new(),
            restart_every_game: false,
            limits: EngineLimits::default(),
        }
    }

    /// The program's file name (the name of last resort).
    pub(crate) fn program_name(&self) -> String {
        Path::new(&self.command.program)
            .file_name()
            .unwrap_or(self.command.program.as_os_str())
            .to_string_lossy()
            .into_owned()
    }
}

/// A whole match.
#[derive(Debug, Clone)]
pub struct MatchConfig {
    /// The engines (two or more); the summary's score is the first one's.
    pub engines: Vec<MatchEngine>,
    /// Which engines meet: every two (round-robin), or the first against each other one
    /// (`--gauntlet`); lower index first.
    pub matchups: Vec<(usize, usize)>,
    /// The openings (`--sp` starts, then `--openings`); each is played twice per round and
    /// matchup, colours swapped.
    pub openings: Vec<Opening>,
    /// How many times the schedule is played.
    pub rounds: u32,
    /// The search limits given for the match (`--depth`, `--nodes`, `--movetime`, `--tc`).
    pub limits: Limits,
    /// Each engine's limits: its own (`st=`, `depth=`, `nodes=`) over the match's, and
    /// `--movetime 100` where neither gives any.
    pub engine_limits: Vec<Limits>,
    /// Games at once.
    pub concurrency: usize,
    /// Draw after this many plies.
    pub max_plies: Option<u32>,
    /// The PGN file games are appended to.
    pub pgn: PathBuf,
    /// Without a clock: how long past `--movetime` (if any) an engine may take for a
    /// move before it loses by time-out.
    pub move_timeout: Duration,
    /// The PGN `Event` (`--event`, default `sp960 match`).
    pub event: String,
    /// The PGN `Site` (`--site`, default `?`).
    pub site: String,
    /// `--resume`: continue the match `PGN.state` describes ([`crate::matches::config::resume`]).
    pub resume: bool,
    /// The options that decide the games ([`MatchRequest::identity`]), kept in the state.
    pub identity: Vec<(String, String)>,
    /// The seed of `random` starts and random opening order (drawn, `--seed`, or resumed).
    pub seed: u64,
    /// `--json`: no progress line (the summary is for a script), and every game listed in
    /// the summary (otherwise only counted, so a long match keeps no memory per game).
    pub quiet: bool,
    /// `--sprt`: the test run after each game pair; the match stops when it decides.
    pub sprt: Option<SprtConfig>,
    /// `--resign`: cutechess-cli's resign adjudication.
    pub resign: Option<ResignRule>,
    /// `--draw`: cutechess-cli's draw adjudication.
    pub draw: Option<DrawRule>,
    /// `--log DIR`: a file per game with every line to and from the engines.
    pub log_dir: Option<PathBuf>,
}

/// `sp960 match` as typed: the arguments before they are checked.
#[derive(Debug, Clone)]
pub struct MatchRequest {
    /// `--engine` texts (with fewer than two, the built-in engine fills in).
    pub engines: Vec<String>,
    /// `--gauntlet`: the first engine against each of the others (otherwise round-robin).
    pub gauntlet: bool,
    /// The built-in engine's program (normally this executable).
    pub builtin: PathBuf,
    /// `--sp` SPECs, and `random` (see `count`, `seed`).
    pub starts: crate::starts::request::BookRequest,
    /// `--seed`: `None` draws one (and tells stderr) when a SPEC is `random` or the
    /// openings' order is.
    pub seed: Option<u64>,
    /// `--openings` words (`file=F [format=epd|pgn] [order=...] [plies=N] [start=N]
    /// [count=N]`); empty for none.
    pub openings: Vec<String>,
    /// `--depth`.
    pub depth: Option<u32>,
    /// `--nodes`.
    pub nodes: Option<u64>,
    /// `--movetime` in milliseconds.
    pub movetime: Option<u64>,
    /// `--tc`.
    pub tc: Option<String>,
    /// `--concurrency` (default: one game per core).
    pub concurrency: Option<usize>,
    /// `--rounds`.
    pub rounds: u32,
    /// `--max-plies`.
    pub max_plies: Option<u32>,
    /// `--pgn`.
    pub pgn: PathBuf,
    /// `--timeout`: seconds a move may take without a clock (beyond `--movetime`).
    pub move_timeout: f64,
    /// `--json`.
    pub json: bool,
    /// `--sprt` words (`elo0=A elo1=B alpha=X beta=Y [model=...]`); empty for none.
    pub sprt: Vec<String>,
    /// `--resign` words (`movecount=N score=CP [twosided=true]`); empty for none.
    pub resign: Vec<String>,
    /// `--draw` words (`movenumber=N movecount=N score=CP`); empty for none.
    pub draw: Vec<String>,
    /// `--log DIR`.
    pub log: Option<PathBuf>,
    /// `--event`: the PGN `Event` (default `sp960 match`).
    pub event: Option<String>,
    /// `--site`: the PGN `Site` (default `?`).
    pub site: Option<String>,
    /// `--resume`: continue the match in `PGN.state` (a new one when there is none).
    pub resume: bool,
}

/// Without any limit: 100 ms a move.
pub const DEFAULT_MOVETIME_MS: u64 = 100;

/// The longest `--timeout` and `--movetime`, in seconds (as for `--tc`: one year).
pub const MAX_TIMEOUT_SECONDS: u64 = crate::launch::time_control::MAX_TIME_CONTROL_SECONDS;

/// The most games a match may schedule (starts × 2 × rounds): the schedule is made
/// up front, so a mistyped `--count` or `--rounds` is refused rather than exhausting
/// memory.
pub const MAX_GAMES: u64 = 1_000_000;

/// The most engines a match takes.
pub const MAX_ENGINES: usize = 64;

impl MatchRequest {
    /// Checks the arguments and builds the match.
    pub fn resolve(mut self) -> Result<MatchConfig, MatchError> {
        self.check_engine_count()?;
        let engines = self
            .engines
            .iter()
            .enumerate()
            .map(|(index, text)| MatchEngine::parse(index + 1, text))
            .chain(std::iter::repeat_with(|| {
                Ok(MatchEngine::builtin(self.builtin.clone()))
            }))
            .take(self.engines.len().max(2))
            .collect::<Result<Vec<_>, _>>()?;
        let book = self.book()?;
        let identity = self.identity();
        self.draw_seed(book.as_ref())?;
        let openings = self.openings(book.as_ref())?;
        let rounds = self.rounds.max(1);
        let matchups = matchups(self.gauntlet, engines.len());
        check_games(openings.len(), rounds, matchups.len())?;
        let limits = self.limits()?;
        let engine_limits = engines
            .iter()
            .map(|engine| engine_limits(&engine.limits, &limits))
            .collect();
        let move_timeout = Duration::try_from_secs_f64(self.move_timeout)
            .ok()
            .filter(|t| !t.is_zero() && t.as_secs() < MAX_TIMEOUT_SECONDS)
            .ok_or_else(|| {
                MatchError::Usage(format!(
                    "--timeout {:?}: expected a positive number of seconds, below {MAX_TIMEOUT_SECONDS}",
                    self.move_timeout
                ))
            })?;
        Ok(MatchConfig {
            engines,
            matchups,
            openings,
            rounds,
            limits,
            engine_limits,
            concurrency: self.concurrency.unwrap_or_else(|| {
                thread::available_parallelism().map_or(1, std::num::NonZero::get)
            }),
            max_plies: self.max_plies,
            move_timeout,
            event: self.event.unwrap_or_else(|| "sp960 match".to_owned()),
            site: self.site.unwrap_or_else(|| "?".to_owned()),
            resume: self.resume,
            identity,
            seed: self.starts.seed,
            quiet: self.json,
            sprt: words(&self.sprt, |words| parse_sprt(words))?,
            resign: words(&self.resign, ResignRule::parse)?,
            draw: words(&self.draw, DrawRule::parse)?,
            pgn: self.pgn,
            log_dir: self.log,
        })
    }

    /// How many engines, for a gauntlet and for `--sprt`.
    fn check_engine_count(&self) -> Result<(), MatchError> {
        let count = self.engines.len();
        let refused = if count > MAX_ENGINES {
            format!("{count} engines given: at most {MAX_ENGINES}")
        } else if self.gauntlet && count < 3 {
            "--gauntlet needs three engines or more (the first against each of the others)"
                .to_owned()
        } else if !self.sprt.is_empty() && count > 2 {
            "--sprt needs exactly two engines (it tests one against the other)".to_owned()
        } else {
            return Ok(());
        };
        Err(MatchError::Usage(refused))
    }

    /// `--openings` read (not the file yet), after the starts are checked for size: some
    /// starts there must be.
    fn book(&self) -> Result<Option<OpeningsSpec>, MatchError> {
        // Checked before the starts are drawn: `random` allocates `--count` of them.
        if self.starts.random_specs().saturating_mul(self.starts.count) > MAX_GAMES / 2 {
            return Err(MatchError::Usage(format!(
                "--count {}: too many games (at most {MAX_GAMES} games, {} random starts)",
                self.starts.count,
                MAX_GAMES / 2
            )));
        }
        let book = words(&self.openings, OpeningsSpec::parse)?;
        if self.starts.specs.is_empty() && book.is_none() {
            return Err(MatchError::Usage(
                "no starts: give --sp SPEC, --openings file=FILE, or both".to_owned(),
            ));
        }
        Ok(book)
    }

    /// The seed of random starts and a random opening order: `--seed`, the interrupted
    /// match's with `--resume`, or drawn (and told) when something is random.
    fn draw_seed(&mut self, book: Option<&OpeningsSpec>) -> Result<(), MatchError> {
        if self.resume && self.seed.is_none() {
            self.seed = load_state(&state_path(&self.pgn))?.map(|state| state.seed);
        }
        let random_book = book.is_some_and(|book| book.order == OpeningOrder::Random);
        self.starts.seed = match self.seed {
            Some(seed) => seed,
            None if self.starts.is_random() || random_book => {
                let seed = crate::starts::start::RandomStarts::fresh_seed();
                eprintln!("sp960: match: random seed {seed} (repeat with --seed {seed})");
                seed
            }
            None => 0,
        };
        Ok(())
    }

    /// The openings: the `--sp` starts, then the book's.
    fn openings(&self, book: Option<&OpeningsSpec>) -> Result<Vec<Opening>, MatchError> {
        let mut openings = Vec::new();
        if !self.starts.specs.is_empty() {
            for start in self.starts.starts()? {
                openings.push(Opening {
                    label: start.to_string(),
                    root: start.position()?,
                    moves: Vec::new(),
                });
            }
        }
        if let Some(book) = book {
            openings.extend(load(book, self.starts.seed)?);
        }
        Ok(openings)
    }

    /// The match's limits: `--depth`, `--nodes`, `--movetime`, `--tc`.
    fn limits(&self) -> Result<Limits, MatchError> {
        if let Some(ms) = self.movetime
            && ms / 1000 >= MAX_TIMEOUT_SECONDS
        {
            return Err(MatchError::Usage(format!(
                "--movetime {ms}: too long (below {} ms, one year)",
                MAX_TIMEOUT_SECONDS * 1000
            )));
        }
        let clock = match &self.tc {
            Some(text) => Some(text.parse::<TimeControl>()?),
            None => None,
        };
        Ok(Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime.map(Duration::from_millis),
            clock,
        })
    }

    /// The options that decide the games (who plays whom, from where, how long, how they
    /// are adjudicated, the PGN tags), as `(option, value as given)`: what `--resume`
    /// compares. `--concurrency`, `--json`, `--log` and `--pgn` are not in it: a match may be
    /// resumed with others.
    pub fn identity(&self) -> Vec<(String, String)> {
        let opt = |value: Option<String>| value.unwrap_or_default();
        let mut arguments = Vec::new();
        for (index, engine) in self.engines.iter().enumerate() {
            arguments.push((format!("--engine #{}", index + 1), engine.clone()));
        }
        arguments.extend([
            ("--engines".to_owned(), self.engines.len().to_string()),
            ("--gauntlet".to_owned(), self.gauntlet.to_string()),
            ("--sp".to_owned(), self.starts.specs.join(" ")),
            ("--count".to_owned(), self.starts.count.to_string()),
            ("--openings".to_owned(), self.openings.join(" ")),
            ("--depth".to_owned(), opt(self.depth.map(|d| d.to_string()))),
            ("--nodes".to_owned(), opt(self.nodes.map(|n| n.to_string()))),
            (
                "--movetime".to_owned(),
                opt(self.movetime.map(|m| m.to_string())),
            ),
            ("--tc".to_owned(), opt(self.tc.clone())),
            ("--rounds".to_owned(), self.rounds.to_string()),
            (
                "--max-plies".to_owned(),
                opt(self.max_plies.map(|m| m.to_string())),
            ),
            ("--timeout".to_owned(), self.move_timeout.to_string()),
            ("--sprt".to_owned(), self.sprt.join(" ")),
            ("--resign".to_owned(), self.resign.join(" ")),
            ("--draw".to_owned(), self.draw.join(" ")),
            ("--event".to_owned(), opt(self.event.clone())),
            ("--site".to_owned(), opt(self.site.clone())),
        ]);
        arguments
    }
}

/// An option of `KEY=VALUE` words read by `parse`: `None` when not given, a usage error
/// when bad.
fn words<T, E: Into<MatchError>>(
    words: &[String],
    parse: impl FnOnce(&[String]) -> Result<T, E>,
) -> Result<Option<T>, MatchError> {
    if words.is_empty() {
        return Ok(None);
    }
    parse(words).map(Some).map_err(Into::into)
}

/// Which engines meet: every two (round-robin), or the first against each other one.
fn matchups(gauntlet: bool, engines: usize) -> Vec<(usize, usize)> {
    if gauntlet {
        (1..engines).map(|other| (0, other)).collect()
    } else {
        (0..engines)
            .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
            .collect()
    }
}

/// The schedule's size, refused above [`MAX_GAMES`].
fn check_games(openings: usize, rounds: u32, matchups: usize) -> Result<(), MatchError> {
    let games = (openings as u64)
        .saturating_mul(2)
        .saturating_mul(u64::from(rounds))
        .saturating_mul(matchups as u64);
    if games <= MAX_GAMES {
        return Ok(());
    }
    let pairings = if matchups == 1 {
        String::new()
    } else {
        format!(" × {matchups} pairings")
    };
    Err(MatchError::Usage(format!(
        "{openings} starts × 2 colours × {rounds} rounds{pairings} = {games} games: too many (at most {MAX_GAMES})"
    )))
}

/// One engine's limits: its own (`st=`, `depth=`, `nodes=`) over the match's, and
/// `--movetime 100` where neither gives any.
fn engine_limits(own: &EngineLimits, limits: &Limits) -> Limits {
    let mut merged = Limits {
        depth: own.depth.or(limits.depth),
        nodes: own.nodes.or(limits.nodes),
        movetime: own.st.as_ref().map(|(_, time)| *time).or(limits.movetime),
        clock: limits.clock.clone(),
    };
    if merged == Limits::default() {
        merged.movetime = Some(Duration::from_millis(DEFAULT_MOVETIME_MS));
    }
    merged
}

#[cfg(test)]
impl MatchRequest {
    /// A request for unit tests: `engines`, SP 860, 100 nodes a move, one round, one game at
    /// a time; tests change the fields they are about.
    pub(crate) fn for_tests(engines: &[&str]) -> MatchRequest {
        MatchRequest {
            engines: engines.iter().map(|e| e.to_string()).collect(),
            gauntlet: false,
            builtin: PathBuf::from("sp960"),
            starts: crate::starts::request::BookRequest {
                specs: vec!["860".into()],
                count: 1,
                dfrc_sample: 0,
                seed: 0,
            },
            seed: None,
            openings: Vec::new(),
            depth: None,
            nodes: Some(100),
            movetime: None,
            tc: None,
            concurrency: Some(1),
            rounds: 1,
            max_plies: None,
            pgn: PathBuf::from("x.pgn"),
            move_timeout: 30.0,
            json: false,
            sprt: Vec::new(),
            resign: Vec::new(),
            draw: Vec::new(),
            log: None,
            event: None,
            site: None,
            resume: false,
        }
    }
}

#[cfg(test)]
#[path = "request_tests.rs"]
mod tests;
