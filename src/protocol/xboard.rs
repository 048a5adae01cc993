//! XBoard's (CECP's) vocabulary, read and written in one place for the proxy, the match
//! runner and the built-in engine:
//!
//! | line | read by | written by |
//! |---|---|---|
//! | `feature KEY=VALUE ...` ([`feature_pairs`]) | runner; proxy | engine |
//! | `level MPS BASE INC` ([`Level`]), `st S`, `time`/`otim CS` | engine | runner |
//! | `Error (...): CMD`, `Illegal move...: CMD` ([`rejected_command`]) | runner; proxy | engine; proxy |
//! | moves | all three | all three |
//!
//! Moves as XBoard peers write them: coordinate notation (castling as king takes rook or
//! king to its destination, read by [`crate::starts::castling::parse_move`]), SAN castling
//! `O-O`/`O-O-O` (also `0-0`, with `+`/`#` suffixes), and full SAN for `san=1` engines.
//! And the castling forms engines take, for writing.

use std::time::Duration;

use shakmaty::san::San;
use shakmaty::{CastlingSide, Chess, Move};

use crate::starts::castling::{CastlingDialect, MoveError, parse_move, write_move};

/// How a peer writes (or takes) a castling move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CastlingForm {
    /// `O-O` / `O-O-O` (SAN): what xboard sends, what Sjaak II writes.
    OO,
    /// Coordinate notation in a [`CastlingDialect`]: king takes rook (`e1h1`, what
    /// Fairy-Stockfish and cutechess write) or king to its destination (`e1g1`).
    Coordinate(CastlingDialect),
}

/// The castling side of `text` if it is SAN castling (`O-O`, `0-0-0`, `O-O#`, ...).
pub fn san_castling_side(text: &[u8]) -> Option<CastlingSide> {
    let end = text
        .iter()
        .rposition(|b| !matches!(b, b'+' | b'#' | b'!' | b'?'))
        .map_or(0, |i| i + 1);
    match &text[..end] {
        b"O-O" | b"0-0" => Some(CastlingSide::KingSide),
        b"O-O-O" | b"0-0-0" => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// True when `text` has the shape of a chess move in any notation XBoard peers use
/// (coordinate, SAN, SAN castling), legal or not: how a bare GUI line is told apart from
/// a command the proxy does not know.
pub fn looks_like_move(text: &[u8]) -> bool {
    if san_castling_side(text).is_some() {
        return true;
    }
    let coordinate = text.len() >= 4
        && text.len() <= 5
        && matches!(text[0], b'a'..=b'h')
        && matches!(text[1], b'1'..=b'8')
        && matches!(text[2], b'a'..=b'h')
        && matches!(text[3], b'1'..=b'8')
        && text.get(4).is_none_or(|p| b"qrbnk".contains(p));
    coordinate || matches!(San::from_ascii(text), Ok(San::Normal { .. }))
}

/// Why `text`, no move in any notation, is one that an engine reads as a move all the same,
/// when it is: Sjaak II 1.4.1 plays on after either (a move out of turn; the hostile-GUI
/// runs that found them are in docs/hostile-gui.md):
/// - a move up to a `#` with more after it (`b5#N7K-7` reads as `b5#`);
/// - a move wrapped in `=` signs (`=f5`, `f5=`, `=f7f5` read as `f5`).
pub fn disguised_move(text: &[u8]) -> Option<&'static str> {
    if let Some(hash) = text.iter().position(|b| *b == b'#')
        && hash + 1 < text.len()
        && looks_like_move(&text[..=hash])
    {
        return Some("text after '#'");
    }
    let inner = text.strip_prefix(b"=").unwrap_or(text);
    let inner = inner.strip_suffix(b"=").unwrap_or(inner);
    (inner.len() < text.len() && !inner.is_empty() && looks_like_move(inner))
        .then_some("'=' around it")
}

/// Reads `text` as a legal move in `position`: SAN castling (for the side to move),
/// coordinate notation (either castling dialect), or SAN.
pub fn parse_xboard_move(position: &Chess, text: &[u8]) -> Result<Move, MoveError> {
    let shown = || String::from_utf8_lossy(text).into_owned();
    if let Some(side) = san_castling_side(text) {
        return San::Castle(side)
            .to_move(position)
            .map_err(|_| MoveError::Illegal(shown()));
    }
    match parse_move(position, text) {
        Err(MoveError::Syntax(_)) => match San::from_ascii(text) {
            Ok(san @ San::Normal { .. }) => san
                .to_move(position)
                .map_err(|_| MoveError::Illegal(shown())),
            _ => Err(MoveError::Syntax(shown())),
        },
        other => other,
    }
}

/// The form `text` writes castling in, if it is a castling move's text: SAN castling, king
/// takes rook, or king to its destination.
pub fn castling_form_of(m: &Move, text: &[u8]) -> Option<CastlingForm> {
    let Move::Castle { king, rook } = *m else {
        return None;
    };
    if san_castling_side(text).is_some() {
        return Some(CastlingForm::OO);
    }
    let to = text.get(2..4)?;
    let rook_text = [rook.file().char() as u8, rook.rank().char() as u8];
    let dialect = if to == rook_text && king != rook {
        CastlingDialect::Chess960
    } else {
        CastlingDialect::Standard
    };
    Some(CastlingForm::Coordinate(dialect))
}

/// Appends `m` written for a peer that takes castling in `form`; other moves in coordinate
/// notation.
pub fn write_xboard_move(m: &Move, form: CastlingForm, out: &mut Vec<u8>) {
    match (*m, form) {
        (Move::Castle { king, rook }, CastlingForm::OO) => {
            out.extend_from_slice(if king < rook { b"O-O" } else { b"O-O-O" });
        }
        (_, CastlingForm::Coordinate(dialect)) => write_move(m, dialect, out),
        (_, CastlingForm::OO) => write_move(m, CastlingDialect::Chess960, out),
    }
}

/// The text of `m` for a peer that takes castling in `form`.
pub fn xboard_move_text(m: &Move, form: CastlingForm) -> String {
    let mut out = Vec::with_capacity(5);
    write_xboard_move(m, form, &mut out);
    String::from_utf8(out).expect("move text is ASCII")
}

/// The KEY=VALUE pairs of a `feature` line; a value may be quoted (`myname="Sjaak II"`).
pub fn feature_pairs(line: &[u8]) -> Vec<(&[u8], &[u8])> {
    let mut pairs = Vec::new();
    let mut rest = line.trim_ascii();
    rest = rest.strip_prefix(b"feature").unwrap_or(rest);
    loop {
        rest = rest.trim_ascii_start();
        let Some(eq) = rest.iter().position(|b| *b == b'=') else {
            break;
        };
        let key = rest[..eq].trim_ascii();
        let after = &rest[eq + 1..];
        let (value, next) = if let Some(quoted) = after.strip_prefix(b"\"") {
            let end = quoted
                .iter()
                .position(|b| *b == b'"')
                .unwrap_or(quoted.len());
            (&quoted[..end], quoted.get(end + 1..).unwrap_or_default())
        } else {
            let end = after
                .iter()
                .position(u8::is_ascii_whitespace)
                .unwrap_or(after.len());
            (&after[..end], &after[end..])
        };
        pairs.push((key, value));
        rest = next;
    }
    pairs
}

/// The command an `Error (...): COMMAND` or `Illegal move (...): COMMAND` line refuses.
pub fn rejected_command(line: &[u8]) -> Option<&[u8]> {
    let line = line.trim_ascii();
    let rest = line
        .strip_prefix(b"Error")
        .or_else(|| line.strip_prefix(b"Illegal move"))?
        .trim_ascii_start();
    let rest = match rest.strip_prefix(b"(") {
        Some(inside) => &inside[inside.iter().position(|b| *b == b')')? + 1..],
        None => rest,
    };
    Some(rest.trim_ascii_start().strip_prefix(b":")?.trim_ascii())
}

/// `level MPS BASE INC`: moves per session (0: the whole game), the base time, the
/// increment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    /// Moves per session; 0 for the whole game.
    pub moves_per_session: u32,
    /// Base time of a session.
    pub base: Duration,
    /// Increment per move.
    pub increment: Duration,
}

impl Level {
    /// Reads the arguments of `level` (`40 5 0`, `0 2:30 1.5`).
    pub fn parse(args: &str) -> Option<Level> {
        let fields: Vec<&str> = args.split_whitespace().collect();
        let [moves, base, increment] = fields[..] else {
            return None;
        };
        Some(Level {
            moves_per_session: moves.parse().ok()?,
            base: parse_minutes(base)?,
            increment: parse_seconds(increment)?,
        })
    }
}

impl std::fmt::Display for Level {
    /// `level MPS BASE INC`, the base in minutes or `M:SS` (whole seconds, rounded up:
    /// `time` tells the engine its exact clock before every move).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secs = self.base.as_millis().div_ceil(1000) as u64;
        let base = if secs.is_multiple_of(60) {
            format!("{}", secs / 60)
        } else {
            format!("{}:{:02}", secs / 60, secs % 60)
        };
        write!(
            f,
            "level {} {base} {}",
            self.moves_per_session,
            seconds_text(self.increment)
        )
    }
}

/// `5`, `5:30` (minutes:seconds) or a decimal number of minutes.
pub fn parse_minutes(text: &str) -> Option<Duration> {
    match text.split_once(':') {
        Some((minutes, seconds)) => {
            let minutes: u64 = minutes.parse().ok()?;
            let seconds: u64 = seconds.parse().ok()?;
            Some(Duration::from_secs(
                minutes.checked_mul(60)?.checked_add(seconds)?,
            ))
        }
        None => parse_seconds(text).map(|minutes| minutes * 60),
    }
}

/// A non-negative decimal number of seconds (`st`, `level`'s increment), at most 10^9.
pub fn parse_seconds(text: &str) -> Option<Duration> {
    let value: f64 = text.parse().ok()?;
    (value.is_finite() && value >= 0.0).then(|| Duration::from_secs_f64(value.min(1e9)))
}

/// A duration in seconds as short as it can be written (`1`, `0.6`): `st`, increments.
pub fn seconds_text(time: Duration) -> String {
    let millis = time.as_millis();
    if millis.is_multiple_of(1000) {
        format!("{}", millis / 1000)
    } else {
        format!("{}", time.as_secs_f64())
    }
}

/// `time`/`otim`'s centiseconds (negative values read as zero).
pub fn parse_centiseconds(text: &str) -> Option<Duration> {
    let value: i64 = text.parse().ok()?;
    Some(Duration::from_millis(
        (value.max(0) as u64).saturating_mul(10),
    ))
}

/// `time CS` or `otim CS` (`command`) for a clock.
pub fn clock_line(command: &str, time: Duration) -> String {
    format!("{command} {}", time.as_millis() / 10)
}

#[cfg(test)]
#[path = "xboard_tests.rs"]
mod tests;

/// The engine's thinking output with `post`: `ply score time nodes [...] pv`, the score in
/// centipawns from the engine's view and the time in centiseconds.
pub mod thinking {
    use crate::protocol::uci::{EngineScore, SearchInfo};

    /// The protocol's mate scores: `100000 + N` mates in N moves, `-100000 - N` is mated.
    const MATE: i64 = 100_000;

    /// Reads a thinking line (`None` for any other line): depth, score (mate scores as
    /// [`EngineScore::Mate`]) and time. The ply may carry a marker (`10.`, `10&`), as some
    /// engines write it.
    pub fn parse_thinking(line: &[u8]) -> Option<SearchInfo> {
        let mut words = line
            .split(|b| b.is_ascii_whitespace())
            .filter(|w| !w.is_empty());
        let ply = words.next()?;
        let digits = ply.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || ply[digits..].iter().any(u8::is_ascii_digit) {
            return None;
        }
        let number = |word: &[u8]| std::str::from_utf8(word).ok()?.parse::<i64>().ok();
        let depth = u32::try_from(number(&ply[..digits])?).ok()?;
        let score = number(words.next()?)?;
        let time = number(words.next()?)?;
        number(words.next()?)?; // nodes
        let score = if score >= MATE {
            EngineScore::Mate(i32::try_from(score - MATE).ok()?)
        } else if score <= -MATE {
            EngineScore::Mate(-i32::try_from(-score - MATE).ok()?)
        } else {
            EngineScore::Centipawns(i32::try_from(score).ok()?)
        };
        Some(SearchInfo {
            depth: Some(depth),
            score: Some(score),
            bound: false,
            time_ms: u64::try_from(time).ok().map(|cs| cs.saturating_mul(10)),
        })
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn thinking_lines_of_sjaak_fairy_stockfish_and_others() {
            // Sjaak II 1.4.1 (its own mate scale: 16000 - plies, read as centipawns).
            let sjaak = parse_thinking(b"  2  15999      0        26  1. Qh2").unwrap();
            assert_eq!(sjaak.depth, Some(2));
            assert_eq!(sjaak.score, Some(EngineScore::Centipawns(15999)));
            assert_eq!(sjaak.time_ms, Some(0));
            // Fairy-Stockfish: mate in 1 move; extra fields before the tab and the pv.
            let fairy = parse_thinking(b"6 100001 12 267 2 133500 0\t f2h2").unwrap();
            assert_eq!(fairy.score, Some(EngineScore::Mate(1)));
            assert_eq!(fairy.time_ms, Some(120));
            let mated = parse_thinking(b"9& -100003 5 1000 e2e4").unwrap();
            assert_eq!(
                (mated.depth, mated.score),
                (Some(9), Some(EngineScore::Mate(-3)))
            );
            assert_eq!(
                parse_thinking(b"12. -35 104 48211 Nf3 Nc6").unwrap().score,
                Some(EngineScore::Centipawns(-35))
            );
            for other in [
                &b"move e2e4"[..],
                b"",
                b"# 3 20 1 5",
                b"1-0 {White mates}",
                b"4 20 1",
                b"4 x 1 5",
                b"4 99999999999 1 5",
                b"0-1",
            ] {
                assert_eq!(
                    parse_thinking(other),
                    None,
                    "{:?}",
                    String::from_utf8_lossy(other)
                );
            }
        }
    }
}
