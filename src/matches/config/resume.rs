//! `sp960 match --resume`: the state file beside the PGN, and the PGN read back.
//!
//! Every match writes `PGN.state` (JSON, replaced atomically by
//! [`crate::os::fs::write_atomic`]) when it starts and after each finished game: the
//! arguments that decide which games are played and how (`MatchRequest::identity`), the
//! seed, and
//! where in the PGN this match's games begin (`pgn_start`; a PGN may hold earlier matches).
//!
//! The PGN itself is the record of the finished games: on resume, the complete entries
//! after `pgn_start` are read back ([`read_games`]) and counted as played (their `Round`
//! is their schedule number), a partial entry at the end (a kill while it was written) is
//! cut off, and the schedule's other games are played. So a kill at any point loses at
//! most the games being played, and no game is in the PGN twice.
//!
//! The file I/O is [`load_state`] and [`save_state`]; the rest is pure.

use std::collections::HashMap;
use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};
use shakmaty::san::SanPlus;
use thiserror::Error;

use crate::matches::tally::counts::Outcome;
use crate::matches::tally::summary::GameSummary;
use crate::records::pgn::{self, At, TagValue};

/// The `format` of a state file this version writes and reads.
pub const STATE_FORMAT: &str = "sp960 match state 1";

/// The state file of a PGN: `PGN.state`.
pub fn state_path(pgn: &std::path::Path) -> std::path::PathBuf {
    beside_pgn(pgn, ".state")
}

/// A file of the match beside its PGN: the PGN's path with `suffix` (`games.pgn.state`,
/// `games.pgn.lock`).
pub(crate) fn beside_pgn(pgn: &std::path::Path, suffix: &str) -> std::path::PathBuf {
    let mut path = pgn.as_os_str().to_owned();
    path.push(suffix);
    path.into()
}

/// What `PGN.state` holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchState {
    /// [`STATE_FORMAT`].
    pub format: String,
    /// The options that make the match (`MatchRequest::identity`), each with its value as
    /// given (`""` when not given).
    pub arguments: std::collections::BTreeMap<String, String>,
    /// The seed the match was played with (drawn or `--seed`).
    pub seed: u64,
    /// The PGN's length when the match began: its games follow.
    pub pgn_start: u64,
    /// Games finished when the state was written.
    pub games: usize,
    /// The PGN's length after them.
    pub pgn_end: u64,
}

/// The state in `path`, or `None` when there is no such file.
pub fn load_state(path: &std::path::Path) -> Result<Option<MatchState>, ResumeError> {
    let error = |reason: String| ResumeError::State {
        path: path.display().to_string(),
        reason,
    };
    let text = match std::fs::read(path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(ResumeError::StateUnreadable {
                path: path.display().to_string(),
                source,
            });
        }
    };
    let state: MatchState =
        serde_json::from_slice(&text).map_err(|source| ResumeError::NotState {
            path: path.display().to_string(),
            source,
        })?;
    if state.format != STATE_FORMAT {
        return Err(error(format!(
            "format '{}', expected '{STATE_FORMAT}'",
            state.format
        )));
    }
    Ok(Some(state))
}

/// Writes `state` to `path` atomically: the file holds the old state or the new.
pub fn save_state(path: &std::path::Path, state: &MatchState) -> std::io::Result<()> {
    let mut text = serde_json::to_vec_pretty(state).expect("plain data");
    text.push(b'\n');
    crate::os::fs::write_atomic(path, &text)
}

/// Why a match cannot be resumed.
#[derive(Debug, Error)]
pub enum ResumeError {
    /// The state file cannot be read.
    #[error("--resume: state file '{path}': {source}")]
    StateUnreadable {
        /// The file.
        path: String,
        /// Why it cannot be read.
        source: std::io::Error,
    },
    /// The state file is no JSON state.
    #[error("--resume: state file '{path}': not a state file sp960 match wrote ({source})")]
    NotState {
        /// The file.
        path: String,
        /// Why it is no state.
        source: serde_json::Error,
    },
    /// The state file is a state of another format.
    #[error("--resume: state file '{path}': {reason}")]
    State {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// The state file is from a match with other arguments.
    #[error(
        "--resume: '{path}' is the state of a different match: {}; rerun with the same options, or without --resume to start a new match",
        .differences.join("; ")
    )]
    Different {
        /// The file.
        path: String,
        /// `--depth was 4, now 5`, one per option.
        differences: Vec<String>,
    },
    /// The PGN file cannot be read.
    #[error("--resume: PGN file '{path}': {source}")]
    PgnUnreadable {
        /// The file.
        path: String,
        /// Why it cannot be read.
        source: std::io::Error,
    },
    /// The PGN file is damaged after the match's start.
    #[error("--resume: PGN file '{path}': {source}")]
    PgnDamaged {
        /// The file.
        path: String,
        /// Where.
        source: DamagedPgn,
    },
    /// The PGN does not hold what the state says.
    #[error("--resume: PGN file '{path}': {reason}")]
    Pgn {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
}

/// The options whose values differ, in words: `--depth was 4, now 5`.
pub fn differences(
    old: &std::collections::BTreeMap<String, String>,
    old_seed: u64,
    new: &[(String, String)],
    new_seed: u64,
) -> Vec<String> {
    let shown = |value: Option<&String>| match value {
        None => "not given".to_owned(),
        Some(value) if value.is_empty() => "not given".to_owned(),
        Some(value) => format!("'{value}'"),
    };
    let find = |list: &[(String, String)], name: &str| {
        list.iter()
            .find(|(option, _)| option == name)
            .map(|(_, value)| value.clone())
    };
    let mut names: Vec<&String> = new.iter().map(|(name, _)| name).collect();
    for name in old.keys() {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let mut differences = Vec::new();
    for name in names {
        let (was, now) = (old.get(name).cloned(), find(new, name));
        if was.as_deref().unwrap_or("") != now.as_deref().unwrap_or("") {
            differences.push(format!(
                "{name} was {}, now {}",
                shown(was.as_ref()),
                shown(now.as_ref())
            ));
        }
    }
    if old_seed != new_seed {
        differences.push(format!("--seed was {old_seed}, now {new_seed}"));
    }
    differences
}

/// The result of a game read back, from white's view.
pub fn white_outcome(game: &GameSummary) -> Outcome {
    match game.result.as_str() {
        "1-0" => Outcome::Win,
        "0-1" => Outcome::Loss,
        _ => Outcome::Draw,
    }
}

/// The PGN after the match's start holds a damaged game with others after it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "the game at byte {at} after the match's start is not one sp960 match wrote, and games follow it"
)]
pub struct DamagedPgn {
    /// Where the damaged game begins, from the match's start.
    pub at: usize,
}

/// The games read back from the text after `pgn_start`.
#[derive(Debug, Clone)]
pub struct ReadBack {
    /// The complete entries, in file order: each the summary's row of a game, with `start`
    /// left empty (the PGN's `FEN` does not name the start: the schedule does, by `round`).
    pub games: Vec<GameSummary>,
    /// The bytes they take: anything after is an entry cut short.
    pub complete: usize,
}

/// Reads the entries `sp960 match` wrote (tags, a blank line, the moves ending with the
/// result and a blank line) from `text`, up to the first that is not complete. Bytes after
/// it are a partial entry (a kill while it was written), or an error when another entry
/// follows them (the file was damaged in the middle: nothing is cut).
pub fn read_games(text: &[u8]) -> Result<ReadBack, DamagedPgn> {
    let mut games = Vec::new();
    let mut at = 0;
    while at < text.len() {
        match read_entry(&text[at..]) {
            Some((game, length)) => {
                games.push(game);
                at += length;
            }
            None => {
                let rest = &text[at..];
                if rest.len() > 1 && find(&rest[1..], b"\n[Event ").is_some() {
                    return Err(DamagedPgn { at });
                }
                break;
            }
        }
    }
    Ok(ReadBack {
        games,
        complete: at,
    })
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// One complete entry at the start of `text`, and its length. Where an entry ends is how
/// `sp960 match` writes it (its tags from `[Event `, a blank line, the moves, a blank
/// line); what it holds is read by the one PGN reader ([`crate::records::pgn`]).
fn read_entry(text: &[u8]) -> Option<(GameSummary, usize)> {
    if !text.starts_with(b"[Event ") {
        return None;
    }
    let header_end = find(text, b"\n\n")? + 2;
    let moves_end = header_end + find(&text[header_end..], b"\n\n")? + 2;
    let entry = std::str::from_utf8(&text[..moves_end]).ok()?;
    let mut reader = pgn::Reader::new(entry.as_bytes());
    let game = reader.read_game(&mut Entry)??;
    if reader.skip_game() {
        return None;
    }
    Some((game, moves_end))
}

/// The tags of an entry, and after them the comment read last and whether it is the last
/// thing before the result.
#[derive(Default)]
struct EntryRead {
    tags: HashMap<String, String>,
    last_comment: Option<String>,
    outcome: Option<shakmaty::Outcome>,
}

/// Reads one entry: every line of its header a tag pair, the moves ending with the
/// `Result` tag's result right after a comment, the end of the game in words.
struct Entry;

impl pgn::Visitor for Entry {
    type Tags = EntryRead;
    type Movetext = EntryRead;
    type Output = Option<GameSummary>;

    fn begin_tags(&mut self, _at: At) -> ControlFlow<Self::Output, EntryRead> {
        ControlFlow::Continue(EntryRead::default())
    }

    fn tag(
        &mut self,
        read: &mut EntryRead,
        name: &[u8],
        value: TagValue<'_>,
        _at: At,
    ) -> ControlFlow<Self::Output> {
        let name = String::from_utf8_lossy(name).into_owned();
        read.tags.insert(name, value.text().into_owned());
        ControlFlow::Continue(())
    }

    fn malformed_tag(&mut self, _: &mut EntryRead, _: &[u8], _: At) -> ControlFlow<Self::Output> {
        ControlFlow::Break(None)
    }

    fn begin_movetext(&mut self, read: EntryRead, _at: At) -> ControlFlow<Self::Output, EntryRead> {
        ControlFlow::Continue(read)
    }

    fn san(
        &mut self,
        read: &mut EntryRead,
        _: SanPlus,
        _: &[u8],
        _: At,
    ) -> ControlFlow<Self::Output> {
        read.last_comment = None;
        ControlFlow::Continue(())
    }

    fn not_san(&mut self, read: &mut EntryRead, _: &[u8], _: At) -> ControlFlow<Self::Output> {
        read.last_comment = None;
        ControlFlow::Continue(())
    }

    fn nag(&mut self, read: &mut EntryRead, _: u8, _: At) -> ControlFlow<Self::Output> {
        read.last_comment = None;
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        read: &mut EntryRead,
        comment: &[u8],
        _: At,
    ) -> ControlFlow<Self::Output> {
        read.last_comment = Some(String::from_utf8_lossy(comment).replace('\n', " "));
        ControlFlow::Continue(())
    }

    fn end_variation(&mut self, read: &mut EntryRead, _: At) -> ControlFlow<Self::Output> {
        read.last_comment = None;
        ControlFlow::Continue(())
    }

    fn outcome(
        &mut self,
        read: &mut EntryRead,
        outcome: shakmaty::Outcome,
        _: At,
    ) -> ControlFlow<Self::Output> {
        read.outcome = Some(outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, read: EntryRead) -> Self::Output {
        let tag = |name: &str| read.tags.get(name).cloned();
        let result = tag("Result")?;
        if read.outcome?.as_str() != result {
            return None;
        }
        Some(GameSummary {
            round: tag("Round")?.parse().ok()?,
            start: String::new(),
            white: tag("White")?,
            black: tag("Black")?,
            result,
            termination: tag("Termination")?,
            reason: read.last_comment?,
            plies: tag("PlyCount")?.parse().ok()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "[Event \"e\"]\n[Site \"?\"]\n[Round \"2\"]\n[White \"A \\\"x\\\"\"]\n[Black \"B\"]\n[Result \"0-1\"]\n[PlyCount \"2\"]\n[Termination \"normal\"]\n\n1. e4 {+0.10/1 0.001s} e5 {Black mates} 0-1\n\n\
[Event \"e\"]\n[Round \"1\"]\n[White \"B\"]\n[Black \"A\"]\n[Result \"1/2-1/2\"]\n[PlyCount \"0\"]\n[Termination \"adjudication\"]\n\n{Draw by\nadjudication: --max-plies reached} 1/2-1/2\n\n";

    #[test]
    fn complete_entries_are_read_and_a_cut_one_is_left_out() {
        let read = read_games(TWO.as_bytes()).unwrap();
        assert_eq!(read.complete, TWO.len());
        assert_eq!(read.games.len(), 2);
        assert_eq!(read.games[0].round, 2);
        assert_eq!(read.games[0].white, "A \"x\"");
        assert_eq!(read.games[0].reason, "Black mates");
        assert_eq!(white_outcome(&read.games[0]), Outcome::Loss);
        assert_eq!(read.games[1].plies, 0);
        assert_eq!(
            read.games[1].reason,
            "Draw by adjudication: --max-plies reached"
        );
        // Cut anywhere inside the second entry: only the first is complete.
        let first = TWO.find("\n\n[Event").unwrap() + 2;
        for cut in first..TWO.len() {
            let read = read_games(&TWO.as_bytes()[..cut]).unwrap();
            assert_eq!(
                (read.games.len(), read.complete),
                (1, first),
                "cut at {cut}"
            );
        }
        assert_eq!(read_games(b"").unwrap().games.len(), 0);
    }

    #[test]
    fn damage_before_another_game_is_an_error_not_a_cut() {
        let damaged = TWO.replacen("[Result \"0-1\"]", "[Result \"0-1\"", 1);
        let err = read_games(damaged.as_bytes()).unwrap_err().to_string();
        assert!(err.contains("byte 0"), "{err}");
        let zeros = [TWO.as_bytes(), &[0; 100]].concat();
        assert_eq!(read_games(&zeros).unwrap().complete, TWO.len());
    }
}
