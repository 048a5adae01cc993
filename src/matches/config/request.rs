//! The match as the user asks for it ([`MatchRequest`]: `--engine` texts, SPECs, limits)
//! and as it is played ([`MatchConfig`]: engines, starts, limits, concurrency).

use std::path::{Path, PathBuf};
use std::thread;
use std::time::Duration;

use crate::books::openings::{Opening, OpeningOrder, OpeningsSpec, load};
use crate::clients::talk::Limits;
use crate::exit_code::Refused;
use crate::launch::command::EngineCommand;
use crate::launch::engine_start::EngineStart;
use crate::launch::spec::SpecKey;
use crate::launch::spec::{EngineLimits, EngineSpec, Restart};
use crate::launch::time_control::TimeControl;
use crate::matches::config::adjudication::{DrawRule, ResignRule};
use crate::matches::config::affinity::{CpuList, pinned_cpus};
use crate::matches::config::resume::{load_state, state_path};
use crate::matches::config::words::Words;
use crate::matches::error::MatchError;
use crate::matches::tally::sprt::SprtConfig;
use crate::protocol::Protocol;
use crate::starts::request::{BookError, BookRequest};
use crate::starts::start::Spec;

/// One engine of the match.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchEngine {
    /// The program, its arguments and working directory (`dir=`), `proto=` (default:
    /// detected), `option.NAME=VALUE` and `initstr=`.
    pub start: EngineStart,
    /// `name=`: the name in the PGN (default: what the engine calls itself).
    pub name: Option<String>,
    /// `restart=on`: a fresh process for every game (otherwise only after a failure).
    pub restart_every_game: bool,
    /// `st=`, `depth=`, `nodes=`: the engine's own limits.
    pub limits: EngineLimits,
}

/// The `--engine` keys `sp960 match` does not take, and why.
const UNSUPPORTED_KEYS: [(SpecKey, &str); 4] = [
    (
        SpecKey::Tc,
        "by sp960 match (one clock for both engines: use --tc; st=, depth= and nodes= may differ)",
    ),
    (
        SpecKey::Castling,
        "by sp960 match (it writes each engine's castling itself; castling= is for sp960 tournament)",
    ),
    (
        SpecKey::Chess960,
        "by sp960 match (it reads UCI_Chess960 from the engine; chess960= is for sp960 tournament)",
    ),
    (
        SpecKey::Proxy,
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
            start: EngineStart::of(&spec),
            name: spec.name,
            restart_every_game: spec.restart == Some(Restart::On),
            limits: spec.limits,
        })
    }

    /// The built-in engine: `program engine` (`program` is normally this executable).
    pub fn builtin(program: PathBuf) -> MatchEngine {
        MatchEngine {
            start: EngineStart {
                protocol: Some(Protocol::Uci),
                ..EngineStart::command(EngineCommand {
                    program: program.into(),
                    args: vec!["engine".into()],
                    dir: None,
                })
            },
            name: None,
            restart_every_game: false,
            limits: EngineLimits::default(),
        }
    }

    /// The program's file name (the name of last resort).
    pub(crate) fn program_name(&self) -> String {
        Path::new(&self.start.command.program)
            .file_name()
            .unwrap_or(self.start.command.program.as_os_str())
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
    /// `--affinity`: the CPUs the workers are pinned to, the first worker's first, each
    /// with its engines; `None`: not pinned.
    pub affinity: Option<Vec<usize>>,
}

/// `sp960 match` as typed: its clap arguments (the doc comments are the help text), each
/// read into its type by clap where one value makes one setting (`--tc`, the numbers) or
/// where the words make one rule (`--openings`, `--sprt`, `--resign`, `--draw`: [`Words`]).
/// What needs more than one argument or a file is read by [`MatchRequest::resolve`], right
/// after clap: the `--engine`s (their messages number them), the starts and the openings
/// file.
#[derive(Debug, Clone, clap::Args)]
pub struct MatchRequest {
    /// One engine: its command line, with proto=, name=, option.NAME=VALUE (once per engine; more than two play a round-robin).
    #[arg(long = "engine", value_name = "'CMD ...'")]
    pub engines: Vec<String>,
    /// With three engines or more: the first engine plays each of the others (instead of everyone playing everyone).
    #[arg(long)]
    pub gauntlet: bool,
    /// The built-in engine's program (normally this executable).
    #[arg(skip = this_program())]
    pub builtin: PathBuf,
    /// Starts: SPECs as in `sp960 fen` (N, A-B, all, W:B, lists), or `random` (see --count).
    #[arg(long = "sp", required_unless_present = "openings", value_name = "SPEC", value_parser = match_spec)]
    pub specs: Vec<Spec>,
    /// `--openings`.
    #[command(flatten)]
    pub openings: Words<OpeningsSpec>,
    /// How many random starts each `random` SPEC stands for.
    #[arg(long, default_value_t = 1)]
    pub count: u64,
    /// Seed for `random` SPECs (otherwise one is drawn and told on stderr).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Search depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Nodes per move (UCI engines).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Milliseconds per move [default when no limit is given: 100].
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Clock per side, cutechess syntax: [MOVES/]SECONDS|M:SS[+INCREMENT]; a flag fall loses.
    #[arg(long, value_name = "TC")]
    pub tc: Option<TimeControl>,
    /// Games at once [default: one per core; with --affinity, one per CPU it pins to].
    #[arg(long, value_name = "K")]
    pub concurrency: Option<usize>,
    /// Pin each game's worker and its two engines to a CPU of their own, as fastchess's -use-affinity: the CPUS given (0,2,4-7) or every one this process may use, one per physical core first. For single-threaded engines; not on macOS.
    #[arg(long, value_name = "CPUS", num_args = 0..=1)]
    pub affinity: Option<Option<CpuList>>,
    /// How many times to play the whole schedule.
    #[arg(long, default_value_t = 1)]
    pub rounds: u32,
    /// Adjudicate a draw after this many plies.
    #[arg(long, value_name = "N")]
    pub max_plies: Option<u32>,
    /// The PGN file finished games are appended to.
    #[arg(long, value_name = "FILE", default_value = "sp960-match.pgn")]
    pub pgn: PathBuf,
    /// Without --tc: seconds a move may take (beyond --movetime) before the engine loses by time-out.
    #[arg(long = "timeout", value_name = "SECONDS", default_value_t = 30.0)]
    pub move_timeout: f64,
    /// Print the summary as JSON instead of the table (and no progress line).
    #[arg(long)]
    pub json: bool,
    /// `--sprt`.
    #[command(flatten)]
    pub sprt: Words<SprtConfig>,
    /// `--resign`.
    #[command(flatten)]
    pub resign: Words<ResignRule>,
    /// `--draw`.
    #[command(flatten)]
    pub draw: Words<DrawRule>,
    /// Write a file per game into DIR (game-00001.log, ...): every line to (>) and from (<) each engine and its stderr (!), timestamped.
    #[arg(long, value_name = "DIR")]
    pub log: Option<PathBuf>,
    /// The PGN `Event` tag, as cutechess-cli's -event [default: sp960 match].
    #[arg(long, value_name = "NAME")]
    pub event: Option<String>,
    /// The PGN `Site` tag, as cutechess-cli's -site [default: ?].
    #[arg(long, value_name = "NAME")]
    pub site: Option<String>,
    /// Continue the match interrupted (Ctrl-C, kill, crash) with the same options: its state is in PGN.state, its finished games in the PGN; the games not finished are played.
    #[arg(long)]
    pub resume: bool,
}

/// `--sp SPEC`, read as clap reads it; a bad one is invalid chess data (exit 1), `match: ...`.
fn match_spec(text: &str) -> Result<Spec, Refused> {
    BookError::spec(text).map_err(Refused::invalid("match"))
}

/// This executable (the built-in engine's program), or `sp960` on the `PATH` when the
/// platform cannot say.
fn this_program() -> PathBuf {
    std::env::current_exe().unwrap_or_else(|_| "sp960".into())
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
    pub fn resolve(self) -> Result<MatchConfig, MatchError> {
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
        let starts = self.starts();
        let book = self.book(&starts)?;
        let identity = self.identity();
        let seed = self.draw_seed(&starts, book.as_ref())?;
        let starts = BookRequest { seed, ..starts };
        let openings = self.openings(&starts, book.as_ref())?;
        let rounds = self.rounds.max(1);
        let matchups = matchups(self.gauntlet, engines.len());
        check_games(openings.len(), rounds, matchups.len())?;
        let limits = self.limits()?;
        let affinity = self
            .affinity
            .as_ref()
            .map(|given| {
                let options: Vec<&[(String, String)]> = engines
                    .iter()
                    .map(|engine| engine.start.options.as_slice())
                    .collect();
                let available = crate::os::affinity::available_cpus();
                pinned_cpus(given.as_ref(), available, self.concurrency, &options)
            })
            .transpose()?;
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
            concurrency: self
                .concurrency
                .or(affinity.as_ref().map(Vec::len))
                .unwrap_or_else(|| {
                    thread::available_parallelism().map_or(1, std::num::NonZero::get)
                }),
            max_plies: self.max_plies,
            move_timeout,
            event: self.event.unwrap_or_else(|| "sp960 match".to_owned()),
            site: self.site.unwrap_or_else(|| "?".to_owned()),
            resume: self.resume,
            identity,
            seed,
            quiet: self.json,
            sprt: self.sprt.value().copied(),
            resign: self.resign.value().copied(),
            draw: self.draw.value().copied(),
            pgn: self.pgn,
            log_dir: self.log,
            affinity,
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
        } else if self.sprt.is_given() && count > 2 {
            "--sprt needs exactly two engines (it tests one against the other)".to_owned()
        } else {
            return Ok(());
        };
        Err(MatchError::Usage(refused))
    }

    /// The `--sp` starts and `--count` (the seed is drawn later).
    fn starts(&self) -> BookRequest {
        BookRequest {
            specs: self.specs.clone(),
            count: self.count,
            dfrc_sample: 0,
            seed: 0,
        }
    }

    /// `--openings` read (not the file yet), after the starts are checked for size: some
    /// starts there must be.
    fn book(&self, starts: &BookRequest) -> Result<Option<OpeningsSpec>, MatchError> {
        // Checked before the starts are drawn: `random` allocates `--count` of them.
        if starts.random_specs().saturating_mul(starts.count) > MAX_GAMES / 2 {
            return Err(MatchError::Usage(format!(
                "--count {}: too many games (at most {MAX_GAMES} games, {} random starts)",
                starts.count,
                MAX_GAMES / 2
            )));
        }
        let book = self.openings.value().cloned();
        if starts.specs.is_empty() && book.is_none() {
            return Err(MatchError::Usage(
                "no starts: give --sp SPEC, --openings file=FILE, or both".to_owned(),
            ));
        }
        Ok(book)
    }

    /// The seed of random starts and a random opening order: `--seed`, the interrupted
    /// match's with `--resume`, or drawn (and told) when something is random.
    fn draw_seed(
        &self,
        starts: &BookRequest,
        book: Option<&OpeningsSpec>,
    ) -> Result<u64, MatchError> {
        let mut given = self.seed;
        if self.resume && given.is_none() {
            given = load_state(&state_path(&self.pgn))?.map(|state| state.seed);
        }
        let random_book = book.is_some_and(|book| book.order == OpeningOrder::Random);
        Ok(match given {
            Some(seed) => seed,
            None if starts.is_random() || random_book => {
                let seed = crate::starts::start::RandomStarts::fresh_seed();
                eprintln!("sp960: match: random seed {seed} (repeat with --seed {seed})");
                seed
            }
            None => 0,
        })
    }

    /// The openings: the `--sp` starts, then the book's.
    fn openings(
        &self,
        starts: &BookRequest,
        book: Option<&OpeningsSpec>,
    ) -> Result<Vec<Opening>, MatchError> {
        let mut openings = Vec::new();
        if !starts.specs.is_empty() {
            for start in starts.starts()? {
                openings.push(Opening {
                    label: start.to_string(),
                    root: start.position()?,
                    moves: Vec::new(),
                });
            }
        }
        if let Some(book) = book {
            openings.extend(load(book, starts.seed)?);
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
        Ok(Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime.map(Duration::from_millis),
            clock: self.tc.clone(),
        })
    }

    /// The options that decide the games (who plays whom, from where, how long, how they
    /// are adjudicated, the PGN tags), as `(option, value as given)`: what `--resume`
    /// compares. `--concurrency`, `--affinity`, `--json`, `--log` and `--pgn` are not in it:
    /// a match may be resumed with others.
    pub fn identity(&self) -> Vec<(String, String)> {
        let opt = |value: Option<String>| value.unwrap_or_default();
        let mut arguments = Vec::new();
        for (index, engine) in self.engines.iter().enumerate() {
            arguments.push((format!("--engine #{}", index + 1), engine.clone()));
        }
        arguments.extend([
            ("--engines".to_owned(), self.engines.len().to_string()),
            ("--gauntlet".to_owned(), self.gauntlet.to_string()),
            (
                "--sp".to_owned(),
                self.specs
                    .iter()
                    .map(Spec::text)
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            ("--count".to_owned(), self.count.to_string()),
            ("--openings".to_owned(), self.openings.text()),
            ("--depth".to_owned(), opt(self.depth.map(|d| d.to_string()))),
            ("--nodes".to_owned(), opt(self.nodes.map(|n| n.to_string()))),
            (
                "--movetime".to_owned(),
                opt(self.movetime.map(|m| m.to_string())),
            ),
            (
                "--tc".to_owned(),
                opt(self.tc.as_ref().map(|tc| tc.to_string())),
            ),
            ("--rounds".to_owned(), self.rounds.to_string()),
            (
                "--max-plies".to_owned(),
                opt(self.max_plies.map(|m| m.to_string())),
            ),
            ("--timeout".to_owned(), self.move_timeout.to_string()),
            ("--sprt".to_owned(), self.sprt.text()),
            ("--resign".to_owned(), self.resign.text()),
            ("--draw".to_owned(), self.draw.text()),
            ("--event".to_owned(), opt(self.event.clone())),
            ("--site".to_owned(), opt(self.site.clone())),
        ]);
        arguments
    }
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
    /// A request for unit tests: `engines`, SP 860, 100 nodes a move, one game at a time,
    /// `x.pgn`, the built-in engine `sp960`; tests change the fields they are about.
    pub(crate) fn for_tests(engines: &[&str]) -> MatchRequest {
        MatchRequest::for_tests_with(engines, &[]).expect("valid arguments")
    }

    /// As [`MatchRequest::for_tests`], with more arguments, read by clap as `sp960 match`
    /// reads them.
    pub(crate) fn for_tests_with(
        engines: &[&str],
        more: &[&str],
    ) -> Result<MatchRequest, clap::Error> {
        #[derive(clap::Parser)]
        struct Match {
            #[command(flatten)]
            request: MatchRequest,
        }
        let mut args = vec!["match"];
        for engine in engines {
            args.extend(["--engine", engine]);
        }
        args.extend([
            "--sp",
            "860",
            "--nodes",
            "100",
            "--concurrency",
            "1",
            "--pgn",
            "x.pgn",
        ]);
        args.extend(more);
        let mut request = <Match as clap::Parser>::try_parse_from(args)?.request;
        request.builtin = PathBuf::from("sp960");
        Ok(request)
    }
}

#[cfg(test)]
#[path = "request_tests.rs"]
mod tests;
