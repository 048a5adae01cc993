//! Engines' perft commands and their replies, read once for every role that asks an
//! engine to count moves (`sp960 check`). Perft is no part of UCI or XBoard: each engine
//! family has its own command and reply, found by running them.
//!
//! | dialect | engines (as run) | command | reply |
//! |---|---|---|---|
//! | [`PerftDialect::GoPerft`] | Stockfish 15.1, Fairy-Stockfish 11.1 (UCI) | `go perft N` | a divide, `MOVE: COUNT` per legal move, an empty line, `Nodes searched: TOTAL` |
//! | [`PerftDialect::Divide`] | Fairy-Stockfish 11.1 (XBoard) | `perft N` | the same divide as `go perft N` |
//! | [`PerftDialect::Total`] | Ethereal 12.00 (UCI) | `perft N` | `TOTAL` alone on a line |
//! | [`PerftDialect::Depths`] | Sjaak II 1.4.1 (XBoard) | `perft N` | one line per depth `D NODES TIME NPS`, from 1 to N |
//!
//! Glaurung 2.2 and Toga II 3.0 have no perft command (Glaurung answers `Unknown
//! command: perft 2`, and `go perft 2` is a search); Fairy-Max has none either.
//! Fairy-Stockfish runs `go perft` on its search thread: an `isready` sent after it is
//! answered before the count, so a reply ends with its total line, never a `readyok`.

use std::fmt;

use thiserror::Error;

use crate::protocol::Protocol;

/// How an engine is asked to count moves, and how it answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum PerftDialect {
    /// `go perft N`, answered by a divide and `Nodes searched: N` (Stockfish).
    #[value(name = "go-perft")]
    GoPerft,
    /// `perft N`, answered by a divide and `Nodes searched: N` (Fairy-Stockfish in
    /// XBoard mode).
    Divide,
    /// `perft N`, answered by the total alone on a line (Ethereal).
    Total,
    /// `perft N`, answered by one line per depth: depth, nodes, time, speed (Sjaak II).
    Depths,
}

impl fmt::Display for PerftDialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PerftDialect::GoPerft => "go-perft",
            PerftDialect::Divide => "divide",
            PerftDialect::Total => "total",
            PerftDialect::Depths => "depths",
        })
    }
}

impl PerftDialect {
    /// The dialect of an engine known by its `id name` or `myname` speaking `protocol`
    /// (the engines on which each was seen; see the module table), if any.
    pub fn of_engine(name: &str, protocol: Protocol) -> Option<PerftDialect> {
        let name = name.trim();
        let fairy = name.starts_with("Fairy-Stockfish");
        match protocol {
            Protocol::Uci if fairy || name.starts_with("Stockfish") => Some(PerftDialect::GoPerft),
            Protocol::Uci if name.starts_with("Ethereal") => Some(PerftDialect::Total),
            Protocol::Xboard if fairy => Some(PerftDialect::Divide),
            Protocol::Xboard if name.starts_with("Sjaak II") => Some(PerftDialect::Depths),
            _ => None,
        }
    }

    /// Whether the reply names each move with its count.
    pub fn divides(self) -> bool {
        matches!(self, PerftDialect::GoPerft | PerftDialect::Divide)
    }

    /// The command that counts to `depth` (at least 1).
    pub fn command(self, depth: u32) -> String {
        match self {
            PerftDialect::GoPerft => format!("go perft {depth}"),
            PerftDialect::Divide | PerftDialect::Total | PerftDialect::Depths => {
                format!("perft {depth}")
            }
        }
    }
}

/// An engine's count of the positions `depth` plies ahead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerftReply {
    /// The total.
    pub total: u64,
    /// Each move as the engine wrote it, with its count (dialects that divide).
    pub divide: Option<Vec<(String, u64)>>,
}

/// A line that is no part of a perft reply the dialect expects.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unreadable perft reply line '{line}': {reason}")]
pub struct PerftReplyError {
    /// The line, lossily decoded.
    pub line: String,
    /// What was expected.
    pub reason: &'static str,
}

/// Reads one perft reply, a line at a time.
#[derive(Debug, Clone)]
pub struct PerftReader {
    dialect: PerftDialect,
    depth: u32,
    divide: Vec<(String, u64)>,
}

impl PerftReader {
    /// A reader for the reply to `dialect.command(depth)`.
    pub fn new(dialect: PerftDialect, depth: u32) -> PerftReader {
        PerftReader {
            dialect,
            depth,
            divide: Vec::new(),
        }
    }

    /// One line from the engine: `None` while the reply goes on (other lines, such as
    /// `info string` or a `readyok`, are passed over), the reply at its last line.
    pub fn on_line(&mut self, line: &[u8]) -> Option<Result<PerftReply, PerftReplyError>> {
        let text = line.trim_ascii();
        let error = |reason: &'static str| {
            Some(Err(PerftReplyError {
                line: String::from_utf8_lossy(text).into_owned(),
                reason,
            }))
        };
        match self.dialect {
            PerftDialect::GoPerft | PerftDialect::Divide => {
                if let Some(total) = text.strip_prefix(b"Nodes searched:") {
                    return match number(total.trim_ascii()) {
                        Some(total) => Some(Ok(PerftReply {
                            total,
                            divide: Some(std::mem::take(&mut self.divide)),
                        })),
                        None => error("a count after 'Nodes searched:'"),
                    };
                }
                let colon = memchr::memchr(b':', text)?;
                let (name, count) = (&text[..colon], text[colon + 1..].trim_ascii());
                if is_move_text(name) {
                    match number(count) {
                        Some(count) => self
                            .divide
                            .push((String::from_utf8_lossy(name).into_owned(), count)),
                        None => return error("a count after the move"),
                    }
                }
                None
            }
            PerftDialect::Total => number(text).map(|total| {
                Ok(PerftReply {
                    total,
                    divide: None,
                })
            }),
            PerftDialect::Depths => {
                let mut words = text
                    .split(|b| b.is_ascii_whitespace())
                    .filter(|w| !w.is_empty());
                let (Some(depth), Some(nodes)) = (words.next(), words.next()) else {
                    return None;
                };
                if number(depth) != Some(u64::from(self.depth)) {
                    return None;
                }
                match number(nodes) {
                    Some(total) => Some(Ok(PerftReply {
                        total,
                        divide: None,
                    })),
                    None => error("a node count after the depth"),
                }
            }
        }
    }
}

/// The commands a probe tries, in order, on an engine whose perft is not known by its name:
/// UCI `go perft N` (Stockfish's form) then `perft N`; XBoard `perft N` only (`go` is a
/// search there).
pub fn probe_commands(protocol: Protocol) -> &'static [ProbeCommand] {
    match protocol {
        Protocol::Uci => &[ProbeCommand::GoPerft, ProbeCommand::Perft],
        Protocol::Xboard => &[ProbeCommand::Perft],
    }
}

/// A command a probe sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbeCommand {
    /// `go perft N`.
    GoPerft,
    /// `perft N`.
    Perft,
}

impl ProbeCommand {
    /// The line, at [`PerftProbe::DEPTH`].
    pub fn line(self) -> String {
        match self {
            ProbeCommand::GoPerft => format!("go perft {}", PerftProbe::DEPTH),
            ProbeCommand::Perft => format!("perft {}", PerftProbe::DEPTH),
        }
    }
}

/// What a probe's answer showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbeOutcome {
    /// A perft reply of this dialect's shape.
    Found(PerftDialect),
    /// An answer that is no perft: a search's `bestmove` or `move`, or the engine's own
    /// word that it does not know the command (`Unknown command`, `Error`).
    Refused,
}

/// Recognises the answer to a probe command by its shape, never by the engine's name:
/// a divide (`MOVE: COUNT` lines, then `Nodes searched: N`), a total alone on a line, or
/// one line per depth (`1 NODES ...`, `2 NODES ...`). Counts are not judged here: a wrong
/// count is the perft group's finding.
#[derive(Debug, Clone)]
pub struct PerftProbe {
    command: ProbeCommand,
    divide_lines: usize,
    depth_one: bool,
}

impl PerftProbe {
    /// The depth a probe asks for: 2, so that a table of depths shows two lines.
    pub const DEPTH: u32 = 2;

    /// A probe of `command`.
    pub fn new(command: ProbeCommand) -> PerftProbe {
        PerftProbe {
            command,
            divide_lines: 0,
            depth_one: false,
        }
    }

    /// One line of the answer: `None` while it tells nothing yet.
    pub fn on_line(&mut self, line: &[u8]) -> Option<ProbeOutcome> {
        let text = line.trim_ascii();
        let first = text
            .split(|b| b.is_ascii_whitespace())
            .next()
            .unwrap_or_default();
        let lower = text.to_ascii_lowercase();
        if matches!(first, b"bestmove" | b"move")
            || first.starts_with(b"Error")
            || memchr::memmem::find(&lower, b"unknown command").is_some()
        {
            return Some(ProbeOutcome::Refused);
        }
        if let Some(total) = text.strip_prefix(b"Nodes searched:") {
            if number(total.trim_ascii()).is_some() && self.divide_lines > 0 {
                return Some(ProbeOutcome::Found(match self.command {
                    ProbeCommand::GoPerft => PerftDialect::GoPerft,
                    ProbeCommand::Perft => PerftDialect::Divide,
                }));
            }
            return None;
        }
        if let Some(colon) = memchr::memchr(b':', text)
            && is_move_text(&text[..colon])
            && number(text[colon + 1..].trim_ascii()).is_some()
        {
            self.divide_lines += 1;
            return None;
        }
        if self.command == ProbeCommand::Perft {
            // A total, but not the depth echoed (Glaurung 2.2 answers `perft 2` with
            // `Unknown command: perft 2`, then `2`).
            if number(text).is_some_and(|total| total > u64::from(Self::DEPTH)) {
                return Some(ProbeOutcome::Found(PerftDialect::Total));
            }
            let mut words = text
                .split(|b| b.is_ascii_whitespace())
                .filter(|w| !w.is_empty());
            if let (Some(depth), Some(nodes)) = (words.next(), words.next())
                && number(nodes).is_some()
            {
                match number(depth) {
                    Some(1) => self.depth_one = true,
                    Some(2) if self.depth_one => {
                        return Some(ProbeOutcome::Found(PerftDialect::Depths));
                    }
                    _ => {}
                }
            }
        }
        None
    }
}

fn number(text: &[u8]) -> Option<u64> {
    if text.is_empty() || !text.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(text).ok()?.parse().ok()
}

/// A coordinate move as engines write it (`e2e4`, `e7e8q`), possibly a drop or
/// piece-letter notation of a variant engine: letters and digits, 4 or 5 long.
fn is_move_text(text: &[u8]) -> bool {
    (4..=5).contains(&text.len())
        && text[0].is_ascii_lowercase()
        && text[1].is_ascii_digit()
        && text.iter().all(u8::is_ascii_alphanumeric)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(
        dialect: PerftDialect,
        depth: u32,
        lines: &[&str],
    ) -> Vec<Result<PerftReply, PerftReplyError>> {
        let mut reader = PerftReader::new(dialect, depth);
        lines
            .iter()
            .filter_map(|line| reader.on_line(line.as_bytes()))
            .collect()
    }

    #[test]
    fn stockfish_divide_as_stockfish_15_1_wrote_it() {
        // `go perft 2` in bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9
        // (trimmed to three moves).
        let replies = read(
            PerftDialect::GoPerft,
            2,
            &[
                "info string NNUE evaluation using nn-ad9b42354671.nnue enabled",
                "b2b3: 25",
                "c2c3: 25",
                "g1f2: 25",
                "",
                "Nodes searched: 75",
            ],
        );
        assert_eq!(
            replies,
            [Ok(PerftReply {
                total: 75,
                divide: Some(vec![
                    ("b2b3".into(), 25),
                    ("c2c3".into(), 25),
                    ("g1f2".into(), 25)
                ]),
            })]
        );
        // A `readyok` (Fairy-Stockfish answers `isready` before its count) is passed over.
        let replies = read(
            PerftDialect::GoPerft,
            1,
            &["readyok", "e1h1: 1", "", "Nodes searched: 1"],
        );
        assert_eq!(
            replies[0].as_ref().unwrap().divide.as_ref().unwrap().len(),
            1
        );
    }

    #[test]
    fn totals_and_depth_tables() {
        let replies = read(
            PerftDialect::Total,
            2,
            &["info string set UCI_Chess960 to true", "528"],
        );
        assert_eq!(
            replies,
            [Ok(PerftReply {
                total: 528,
                divide: None
            })]
        );
        // Sjaak II's table: the line of the depth asked.
        let replies = read(
            PerftDialect::Depths,
            2,
            &[
                "# New game 'Chess'",
                " 1         20  0.00    487804.88nps",
                " 2        400  0.00   2325581.40nps",
            ],
        );
        assert_eq!(
            replies,
            [Ok(PerftReply {
                total: 400,
                divide: None
            })]
        );
    }

    #[test]
    fn a_count_that_is_no_number_is_an_error_naming_the_line() {
        let replies = read(PerftDialect::GoPerft, 1, &["e2e4: many"]);
        assert_eq!(
            replies[0].as_ref().unwrap_err().to_string(),
            "unreadable perft reply line 'e2e4: many': a count after the move"
        );
        let replies = read(PerftDialect::GoPerft, 1, &["Nodes searched: ?"]);
        assert!(replies[0].is_err());
    }

    fn probe(command: ProbeCommand, lines: &[&str]) -> Option<ProbeOutcome> {
        let mut probe = PerftProbe::new(command);
        lines.iter().find_map(|line| probe.on_line(line.as_bytes()))
    }

    #[test]
    fn a_probe_knows_each_reply_by_its_shape_not_its_name() {
        use ProbeCommand::{GoPerft, Perft};
        let found = |dialect| Some(ProbeOutcome::Found(dialect));
        // Stockfish 15.1's `go perft 2` (trimmed), then the same divide after `perft 2`.
        let divide = [
            "info string NNUE enabled",
            "a2a3: 20",
            "b2b3: 20",
            "",
            "Nodes searched: 40",
        ];
        assert_eq!(probe(GoPerft, &divide), found(PerftDialect::GoPerft));
        assert_eq!(probe(Perft, &divide), found(PerftDialect::Divide));
        // Ethereal 12.00: the total alone.
        assert_eq!(probe(Perft, &["400"]), found(PerftDialect::Total));
        // Sjaak II 1.4.1: a line per depth.
        let depths = [
            " 1         20  0.00    487804.88nps",
            " 2        400  0.00   2325581.40nps",
        ];
        assert_eq!(probe(Perft, &depths), found(PerftDialect::Depths));
        // A total with no divide before it is no divide; a table's second line alone is
        // no table.
        assert_eq!(probe(GoPerft, &["Nodes searched: 400"]), None);
        assert_eq!(probe(Perft, &[" 2        400  0.00 1.0nps"]), None);
        // A search's lines are none of them, and its bestmove ends the probe.
        let search = [
            "info depth 1 seldepth 1 score cp 20 nodes 20 pv e2e4",
            "bestmove e2e4",
        ];
        assert_eq!(probe(GoPerft, &search), Some(ProbeOutcome::Refused));
        // Glaurung 2.2, and XBoard engines, say they do not know it.
        assert_eq!(
            probe(Perft, &["Unknown command: perft 2"]),
            Some(ProbeOutcome::Refused)
        );
        assert_eq!(
            probe(Perft, &["Error (unknown command): perft"]),
            Some(ProbeOutcome::Refused)
        );
        assert_eq!(probe(GoPerft, &["readyok"]), None);
        // Glaurung 2.2, as it answers: the depth it echoes is no total.
        let glaurung = ["Unknown command: perft 2", "2"];
        assert_eq!(probe(Perft, &glaurung), Some(ProbeOutcome::Refused));
        assert_eq!(probe(Perft, &["2"]), None);
        assert_eq!(ProbeCommand::GoPerft.line(), "go perft 2");
        assert_eq!(probe_commands(Protocol::Xboard), [ProbeCommand::Perft]);
    }

    #[test]
    fn commands_and_known_engines() {
        assert_eq!(PerftDialect::GoPerft.command(3), "go perft 3");
        assert_eq!(PerftDialect::Total.command(3), "perft 3");
        assert_eq!(PerftDialect::Divide.command(3), "perft 3");
        let known = |name, protocol| PerftDialect::of_engine(name, protocol);
        let (uci, xboard) = (Protocol::Uci, Protocol::Xboard);
        assert_eq!(known("Stockfish 15.1", uci), Some(PerftDialect::GoPerft));
        let fairy = "Fairy-Stockfish 11.1 LB 64";
        assert_eq!(known(fairy, uci), Some(PerftDialect::GoPerft));
        // In XBoard mode `go` is a search: its perft is `perft N`, with the same divide.
        assert_eq!(known(fairy, xboard), Some(PerftDialect::Divide));
        assert_eq!(known("Ethereal 12.00", uci), Some(PerftDialect::Total));
        assert_eq!(known("Sjaak II 1.4.1", xboard), Some(PerftDialect::Depths));
        assert_eq!(known("Glaurung 2.2", uci), None);
        assert_eq!(known("Stockfish 15.1", xboard), None);
    }
}
