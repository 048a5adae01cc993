//! The PGN file and the state file beside it (`PgnWriter`: one write per finished game,
//! flushed, then the state replaced atomically), and `--resume`'s starting point
//! (`resume_point`: the state checked against the options, the PGN read back, an
//! unfinished game cut off).

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::SystemTime;

use crate::launch::log::utc_timestamp;
use crate::launch::time_control::TimeControl;
use crate::matches::config;
use crate::matches::config::request::MatchConfig;
use crate::matches::config::resume::MatchState;
use crate::matches::error::MatchError;
use crate::matches::game;
use crate::matches::game::player::{Finished, Scheduled};
use crate::matches::tally;
use crate::matches::workers::schedule;

/// The PGN file and the match's state file beside it: each finished game is appended to
/// the PGN with one write and flushed, then the state is replaced.
pub(crate) struct PgnWriter {
    pub(crate) file: File,
    pub(crate) path: PathBuf,
    pub(crate) state_path: PathBuf,
    pub(crate) state: MatchState,
    /// The PGN `Date` of every game (the day the match began) and `TimeControl`.
    pub(crate) date: String,
    pub(crate) time_control: String,
    /// The test hook's game to crash in ([`crash_hook`]), and the games written.
    pub(crate) crash_in_write: Option<usize>,
    pub(crate) written: usize,
}

impl PgnWriter {
    /// Opens the PGN for appending (creating it); the match's games begin at its end, or
    /// where `resumed` says.
    pub(crate) fn open(
        config: &MatchConfig,
        resumed: Option<&Resumed>,
    ) -> Result<PgnWriter, MatchError> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&config.pgn)
            .map_err(|source| MatchError::Pgn {
                path: config.pgn.display().to_string(),
                source,
            })?;
        let mut writer = PgnWriter {
            file,
            path: config.pgn.clone(),
            state_path: config::resume::state_path(&config.pgn),
            state: MatchState {
                format: config::resume::STATE_FORMAT.to_owned(),
                arguments: config.identity.iter().cloned().collect(),
                seed: config.seed,
                pgn_start: 0,
                games: 0,
                pgn_end: 0,
            },
            date: utc_timestamp(SystemTime::now())[..10].replace('-', "."),
            time_control: config
                .limits
                .clock
                .as_ref()
                .map_or_else(|| "-".to_owned(), TimeControl::pgn_tag),
            crash_in_write: crash_hook(),
            written: 0,
        };
        writer.state.pgn_start = match resumed {
            Some(resumed) => resumed.pgn_start,
            None => writer.length()?,
        };
        Ok(writer)
    }

    pub(crate) fn pgn_error(&self, source: io::Error) -> MatchError {
        MatchError::Pgn {
            path: self.path.display().to_string(),
            source,
        }
    }

    /// The PGN file's length.
    pub(crate) fn length(&self) -> Result<u64, MatchError> {
        let length = self.file.metadata().map(|m| m.len());
        length.map_err(|source| self.pgn_error(source))
    }

    /// Replaces the state file: `games` finished, the PGN ending where it ends now.
    pub(crate) fn save_state(&mut self, games: usize) -> Result<(), MatchError> {
        self.state.games = games;
        self.state.pgn_end = self.length()?;
        config::resume::save_state(&self.state_path, &self.state).map_err(|source| {
            MatchError::Pgn {
                path: self.state_path.display().to_string(),
                source,
            }
        })
    }

    /// The PGN entry of a finished game.
    pub(crate) fn entry(&self, config: &MatchConfig, done: &Finished, names: &[String]) -> String {
        game::pgn::pgn_entry(&game::pgn::GameRecord {
            event: &config.event,
            site: &config.site,
            date: &self.date,
            round: done.game.number.to_string(),
            white: &names[done.game.white],
            black: &names[done.game.black],
            time_control: &self.time_control,
            root: &done.root,
            moves: &done.moves,
            move_comments: &done.move_comments,
            result: done.ending.result(done.turn),
            termination: done.ending.termination(),
            comment: &done.ending.comment(done.turn),
        })
    }

    /// Counts a game to write; the test hook may abort halfway through writing it.
    pub(crate) fn crash_hook(&mut self, entry: &str) {
        self.written += 1;
        if self.crash_in_write == Some(self.written) {
            crash_while_writing(&mut self.file, entry);
        }
    }

    /// Appends `entry` with one write and flushes; then the state says `games` finished.
    pub(crate) fn append(&mut self, entry: &str, games: usize) -> Result<(), MatchError> {
        let written = self
            .file
            .write_all(entry.as_bytes())
            .and_then(|()| self.file.flush());
        written.map_err(|source| self.pgn_error(source))?;
        self.save_state(games)
    }
}

/// A match to continue: where its games begin in the PGN, and those finished there.
pub(crate) struct Resumed {
    pub(crate) pgn_start: u64,
    pub(crate) games: Vec<tally::summary::GameSummary>,
}

impl Resumed {
    /// Each game read back was played by the engines the schedule puts there.
    pub(crate) fn check_names(
        &self,
        schedule: &[Scheduled],
        names: &[String],
        pgn: &std::path::Path,
    ) -> Result<(), MatchError> {
        for game in &self.games {
            let scheduled = schedule[game.round - 1];
            for (colour, found, engine) in [
                ("White", &game.white, scheduled.white),
                ("Black", &game.black, scheduled.black),
            ] {
                if *found != names[engine] {
                    return Err(config::resume::ResumeError::Pgn {
                        path: pgn.display().to_string(),
                        reason: format!(
                            "game {} has {colour} '{found}', but engine {} now calls itself '{}': not the same engines",
                            game.round,
                            engine + 1,
                            names[engine]
                        ),
                    }
                    .into());
                }
            }
        }
        Ok(())
    }
}

/// `--resume`: the state beside the PGN checked against this match's options, and the
/// PGN read back from the match's start; a partial game at its end (a kill while it was
/// written) is cut off. `None` without a state file: a new match.
pub(crate) fn resume_point(config: &MatchConfig) -> Result<Option<Resumed>, MatchError> {
    let state_path = config::resume::state_path(&config.pgn);
    let Some(state) = config::resume::load_state(&state_path)? else {
        if !config.quiet {
            eprintln!(
                "sp960: match: --resume: no state file '{}': a new match",
                state_path.display()
            );
        }
        return Ok(None);
    };
    let differences =
        config::resume::differences(&state.arguments, state.seed, &config.identity, config.seed);
    if !differences.is_empty() {
        return Err(config::resume::ResumeError::Different {
            path: state_path.display().to_string(),
            differences,
        }
        .into());
    }
    let pgn_error = |reason: String| -> MatchError {
        config::resume::ResumeError::Pgn {
            path: config.pgn.display().to_string(),
            reason,
        }
        .into()
    };
    let text = match std::fs::read(&config.pgn) {
        Ok(text) => text,
        Err(err) if err.kind() == io::ErrorKind::NotFound && state.pgn_start == 0 => Vec::new(),
        Err(source) => {
            return Err(config::resume::ResumeError::PgnUnreadable {
                path: config.pgn.display().to_string(),
                source,
            }
            .into());
        }
    };
    let start = usize::try_from(state.pgn_start).unwrap_or(usize::MAX);
    if text.len() < start {
        return Err(pgn_error(format!(
            "{} bytes, but the match began at byte {start}: not the file the match was writing",
            text.len()
        )));
    }
    let read = config::resume::read_games(&text[start..]).map_err(|source| {
        config::resume::ResumeError::PgnDamaged {
            path: config.pgn.display().to_string(),
            source,
        }
    })?;
    let total = schedule(config).len();
    let mut seen = HashSet::new();
    for game in &read.games {
        if game.round == 0 || game.round > total {
            return Err(pgn_error(format!(
                "game with Round {}: the match has games 1 to {total}",
                game.round
            )));
        }
        if !seen.insert(game.round) {
            return Err(pgn_error(format!("game {} is there twice", game.round)));
        }
    }
    let end = start + read.complete;
    if end < text.len() {
        // A game cut short: played again.
        OpenOptions::new()
            .write(true)
            .open(&config.pgn)
            .and_then(|file| file.set_len(end as u64).and_then(|()| file.sync_all()))
            .map_err(|err| pgn_error(format!("cannot cut the unfinished game off: {err}")))?;
        eprintln!(
            "sp960: match: --resume: cut {} bytes of an unfinished game off the end of {}",
            text.len() - end,
            config.pgn.display()
        );
    }
    if read.games.len() < state.games {
        eprintln!(
            "sp960: match: --resume: the state counted {} finished games, {} holds {}: the others are played again",
            state.games,
            config.pgn.display(),
            read.games.len()
        );
    }
    Ok(Some(Resumed {
        pgn_start: state.pgn_start,
        games: read.games,
    }))
}

/// Test hook: `SP960_TEST_CRASH_IN_PGN_WRITE=N` makes the runner abort halfway through
/// writing the Nth game it saves (so tests can check `--resume` after a crash mid-write).
pub(crate) fn crash_hook() -> Option<usize> {
    std::env::var("SP960_TEST_CRASH_IN_PGN_WRITE")
        .ok()?
        .parse()
        .ok()
}

/// Writes half of `entry` and aborts (the test hook's crash).
pub(crate) fn crash_while_writing(file: &mut std::fs::File, entry: &str) -> ! {
    let _ = file.write_all(&entry.as_bytes()[..entry.len() / 2]);
    let _ = file.flush();
    eprintln!("sp960: match: SP960_TEST_CRASH_IN_PGN_WRITE: aborting mid-write");
    std::process::abort()
}
