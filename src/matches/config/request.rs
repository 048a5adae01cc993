//! The match as the user asks for it ([`MatchRequest`]: `--engine` texts, SPECs, limits)
//! and as it is played ([`MatchConfig`]: engines, starts, limits, concurrency).

use std::path::{Path, PathBuf};
use std::thread;
use std::time::Duration;

use crate::launch::command::EngineCommand;
use crate::launch::spec::{EngineLimits, EngineSpec, Restart};
use crate::matches::MatchError;
use crate::matches::config::openings::{Opening, OpeningOrder, OpeningsSpec};
use crate::matches::engines::client::Limits;
use crate::matches::game::referee::{DrawRule, ResignRule};
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
        if self.engines.len() > MAX_ENGINES {
            return Err(MatchError::Usage(format!(
                "{} engines given: at most {MAX_ENGINES}",
                self.engines.len()
            )));
        }
        if self.gauntlet && self.engines.len() < 3 {
            return Err(MatchError::Usage(
                "--gauntlet needs three engines or more (the first against each of the others)"
                    .to_owned(),
            ));
        }
        if !self.sprt.is_empty() && self.engines.len() > 2 {
            return Err(MatchError::Usage(
                "--sprt needs exactly two engines (it tests one against the other)".to_owned(),
            ));
        }
        let mut engines = Vec::new();
        for (index, text) in self.engines.iter().enumerate() {
            engines.push(MatchEngine::parse(index + 1, text)?);
        }
        while engines.len() < 2 {
            engines.push(MatchEngine::builtin(self.builtin.clone()));
        }
        // Checked before the starts are drawn: `random` allocates `--count` of them.
        let random_specs = self
            .starts
            .specs
            .iter()
            .filter(|spec| spec.trim().eq_ignore_ascii_case("random"))
            .count() as u64;
        if random_specs.saturating_mul(self.starts.count) > MAX_GAMES / 2 {
            return Err(MatchError::Usage(format!(
                "--count {}: too many games (at most {MAX_GAMES} games, {} random starts)",
                self.starts.count,
                MAX_GAMES / 2
            )));
        }
        let book = if self.openings.is_empty() {
            None
        } else {
            Some(OpeningsSpec::parse(&self.openings).map_err(MatchError::Usage)?)
        };
        if self.starts.specs.is_empty() && book.is_none() {
            return Err(MatchError::Usage(
                "no starts: give --sp SPEC, --openings file=FILE, or both".to_owned(),
            ));
        }
        let random_book = book
            .as_ref()
            .is_some_and(|book| book.order == OpeningOrder::Random);
        if self.resume && self.seed.is_none() {
            // The seed the interrupted match drew.
            self.seed = crate::matches::config::resume::load_state(
                &crate::matches::config::resume::state_path(&self.pgn),
            )?
            .map(|state| state.seed);
        }
        let identity = self.identity();
        self.starts.seed = match self.seed {
            Some(seed) => seed,
            None if self.starts.is_random() || random_book => {
                let seed = crate::starts::start::RandomStarts::fresh_seed();
                eprintln!("sp960: match: random seed {seed} (repeat with --seed {seed})");
                seed
            }
            None => 0,
        };
        let mut starts = Vec::new();
        if !self.starts.specs.is_empty() {
            for start in self.starts.starts()? {
                starts.push(Opening {
                    label: start.to_string(),
                    root: start.position()?,
                    moves: Vec::new(),
                });
            }
        }
        if let Some(book) = &book {
            starts.extend(crate::matches::config::openings::load(
                book,
                self.starts.seed,
            )?);
        }
        let rounds = self.rounds.max(1);
        let matchups: Vec<(usize, usize)> = if self.gauntlet {
            (1..engines.len()).map(|other| (0, other)).collect()
        } else {
            (0..engines.len())
                .flat_map(|a| (a + 1..engines.len()).map(move |b| (a, b)))
                .collect()
        };
        let games = (starts.len() as u64)
            .saturating_mul(2)
            .saturating_mul(u64::from(rounds))
            .saturating_mul(matchups.len() as u64);
        if games > MAX_GAMES {
            let pairings = if matchups.len() == 1 {
                String::new()
            } else {
                format!(" × {} pairings", matchups.len())
            };
            return Err(MatchError::Usage(format!(
                "{} starts × 2 colours × {rounds} rounds{pairings} = {games} games: too many (at most {MAX_GAMES})",
                starts.len()
            )));
        }
        if let Some(ms) = self.movetime
            && ms / 1000 >= MAX_TIMEOUT_SECONDS
        {
            return Err(MatchError::Usage(format!(
                "--movetime {ms}: too long (below {} ms, one year)",
                MAX_TIMEOUT_SECONDS * 1000
            )));
        }
        let clock = match &self.tc {
            Some(text) => Some(text.parse::<crate::launch::time_control::TimeControl>()?),
            None => None,
        };
        let limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime.map(Duration::from_millis),
            clock,
        };
        let engine_limits = engines
            .iter()
            .map(|engine| {
                let own = &engine.limits;
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
            })
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
        let sprt = if self.sprt.is_empty() {
            None
        } else {
            Some(parse_sprt(&self.sprt)?)
        };
        let resign = if self.resign.is_empty() {
            None
        } else {
            Some(ResignRule::parse(&self.resign).map_err(MatchError::Usage)?)
        };
        let draw = if self.draw.is_empty() {
            None
        } else {
            Some(DrawRule::parse(&self.draw).map_err(MatchError::Usage)?)
        };
        Ok(MatchConfig {
            engines,
            matchups,
            openings: starts,
            rounds,
            limits,
            engine_limits,
            concurrency: self.concurrency.unwrap_or_else(|| {
                thread::available_parallelism().map_or(1, std::num::NonZero::get)
            }),
            max_plies: self.max_plies,
            pgn: self.pgn,
            move_timeout,
            event: self.event.unwrap_or_else(|| "sp960 match".to_owned()),
            site: self.site.unwrap_or_else(|| "?".to_owned()),
            resume: self.resume,
            identity,
            seed: self.starts.seed,
            quiet: self.json,
            sprt,
            resign,
            draw,
            log_dir: self.log,
        })
    }
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
mod tests {
    use super::*;

    #[test]
    fn engine_words_and_settings() {
        let engine = MatchEngine::parse(
            1,
            "proto=xboard '/usr/games/sjaakii' -x 'name=Sjaak II' option.Hash=16",
        )
        .unwrap();
        assert_eq!(engine.command.program, "/usr/games/sjaakii");
        assert_eq!(engine.command.args, ["-x"]);
        assert_eq!(engine.name.as_deref(), Some("Sjaak II"));
        assert_eq!(engine.protocol, Some(Protocol::Xboard));
        assert_eq!(engine.options, [("Hash".to_owned(), "16".to_owned())]);
        // Without proto= the protocol is detected; an argument with '=' is an argument.
        let engine = MatchEngine::parse(2, "stockfish --threads=2").unwrap();
        assert_eq!(engine.protocol, None);
        assert_eq!(engine.command.args, ["--threads=2"]);
        let err = MatchEngine::parse(2, "proto=cecp stockfish").unwrap_err();
        assert_eq!(
            err.to_string(),
            "engine 2: proto=cecp: expected uci or xboard"
        );
        let err = MatchEngine::parse(1, "name=x").unwrap_err();
        assert_eq!(err.to_string(), "engine 1: cmd=PROGRAM is missing");
        assert!(MatchEngine::parse(1, "'unbalanced").is_err());
    }

    #[test]
    fn cutechess_keys_are_settings_not_arguments() {
        let engine = MatchEngine::parse(
            1,
            "cmd=/usr/games/stockfish dir=/tmp st=0.25 depth=3 nodes=500 restart=on \
             initstr=debug",
        )
        .unwrap();
        assert_eq!(engine.command.program, "/usr/games/stockfish");
        assert_eq!(engine.command.args, Vec::<std::ffi::OsString>::new());
        assert_eq!(engine.command.dir, Some(PathBuf::from("/tmp")));
        assert_eq!(engine.limits.depth, Some(3));
        assert_eq!(engine.limits.nodes, Some(500));
        assert!(engine.restart_every_game);
        assert_eq!(engine.init_strings, ["debug"]);
        for (text, message) in [
            ("stockfish tc=1+0.1", "tc= is not supported by sp960 match"),
            ("stockfish ponder", "'ponder' is cutechess-cli's switch"),
            (
                "stockfish castling=xfen",
                "castling= is not supported by sp960 match",
            ),
            ("stockfish hash=1", "unknown key 'hash'"),
        ] {
            let err = MatchEngine::parse(1, text).unwrap_err().to_string();
            assert!(err.contains(message), "{text}: {err}");
        }
    }

    #[test]
    fn sprt_words_are_read_and_a_bad_one_is_a_usage_error() {
        let mut good = MatchRequest::for_tests(&["a", "b"]);
        good.sprt = vec![
            "elo0=0".into(),
            "elo1=10 alpha=0.05".into(),
            "beta=0.1".into(),
        ];
        let sprt = good.resolve().unwrap().sprt.unwrap();
        assert_eq!((sprt.elo1(), sprt.beta()), (10.0, 0.1));
        assert!(
            MatchRequest::for_tests(&["a", "b"])
                .resolve()
                .unwrap()
                .sprt
                .is_none()
        );
        let mut bad = MatchRequest::for_tests(&["a", "b"]);
        bad.sprt = vec!["elo0=0 elo1=x alpha=0.05 beta=0.05".into()];
        let err = bad.resolve().unwrap_err();
        assert_eq!(err.exit_code(), crate::exit_code::USAGE);
        assert!(err.to_string().contains("elo1=x"), "{err}");
    }

    #[test]
    fn more_engines_meet_round_robin_or_in_a_gauntlet() {
        let config = MatchRequest::for_tests(&["a", "b", "c", "d"])
            .resolve()
            .unwrap();
        assert_eq!(
            config.matchups,
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        assert_eq!(config.engine_limits.len(), 4);
        let schedule = crate::matches::schedule(&config);
        assert_eq!(schedule.len(), 12);
        for (index, game) in schedule.iter().enumerate() {
            assert_eq!(game.number, index + 1);
            assert_eq!(game.pair, index / 2);
        }
        // A pair is one matchup with colours swapped.
        assert_eq!((schedule[2].white, schedule[2].black), (0, 2));
        assert_eq!((schedule[3].white, schedule[3].black), (2, 0));
        let mut gauntlet = MatchRequest::for_tests(&["a", "b", "c", "d"]);
        gauntlet.gauntlet = true;
        let config = gauntlet.resolve().unwrap();
        assert_eq!(config.matchups, [(0, 1), (0, 2), (0, 3)]);
        let two = MatchRequest::for_tests(&["a"]).resolve().unwrap();
        assert_eq!(two.matchups, [(0, 1)]);
        let many: Vec<String> = (0..65).map(|i| format!("e{i}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let err = MatchRequest::for_tests(&many).resolve().unwrap_err();
        assert_eq!(err.to_string(), "65 engines given: at most 64");
    }

    #[test]
    fn an_engines_own_limits_replace_the_matchs() {
        let config = MatchRequest::for_tests(&["a depth=4 st=0.5", "b"])
            .resolve()
            .unwrap();
        assert_eq!(config.engine_limits[0].depth, Some(4));
        assert_eq!(config.engine_limits[0].nodes, Some(100));
        assert_eq!(
            config.engine_limits[0].movetime,
            Some(Duration::from_millis(500))
        );
        assert_eq!(config.engine_limits[1], config.limits);
        let mut bare = MatchRequest::for_tests(&["a nodes=7", "b"]);
        bare.nodes = None;
        let config = bare.resolve().unwrap();
        assert_eq!(config.engine_limits[0].nodes, Some(7));
        assert_eq!(config.engine_limits[0].movetime, None);
        assert_eq!(
            config.engine_limits[1].movetime,
            Some(Duration::from_millis(DEFAULT_MOVETIME_MS))
        );
    }
}
