//! The protocols' vocabulary, shared by the three roles that speak them: the proxy (a
//! relay between a GUI and an engine, `sp960 proxy`), the match runner (a GUI, `sp960
//! match`) and the built-in engine (`sp960 engine`). No role tokenizes a
//! protocol line itself: it asks this room.
//!
//! - here: tokens with their byte spans (zero-copy, as the proxy's relay needs: a line is
//!   looked at by its first token, and rewritten lines keep every byte they do not
//!   change), and Chess960's variant names;
//! - [`uci`]: `go` limits, `option` declarations, `setoption`, `bestmove`, the move
//!   fields of `info`;
//! - [`xboard`]: `feature` declarations, `level`/`st`/`sd`/`time`, `move`, refusals, and
//!   moves in XBoard's notations;
//! - [`game`]: a GUI's position and moves, checked, and the position as an engine in
//!   standard or Chess960 mode takes it;
//! - [`quirks`]: what sp960 knows about particular engines (Glaurung, Toga II,
//!   Fairy-Stockfish), one table the three roles and `sp960 tournament` look up, and the
//!   place a new quirk goes (a row, and a test);
//! - [`perft`]: engines' perft commands and replies (Stockfish's divide, Ethereal's
//!   total, Sjaak II's table per depth), for `sp960 check`;
//! - [`session`]: the one sans-IO shape of the three roles' conversations (a line in,
//!   lines and events out).
//!
//! vampirc-uci (the UCI parser the design card names) is not used: its grammar rejects
//! lines every role here must read. Measured with vampirc-uci 0.11: `position fen
//! rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1` (Shredder castling, what every
//! Chess960 GUI sends) fails to parse, and so do `bestmove 0000` and `bestmove (none)` (the
//! null moves engines and the proxy's shield answer with). A parser that drops those
//! lines cannot be a relay, a referee or an engine front-end here, and what it would
//! still parse (`go`, `option`) is a few lines of this module.
//!
//! Must not import any room but `starts`: the roles above use this one.

use std::fmt;

pub mod game;
pub mod perft;
pub mod quirks;
pub mod session;
pub mod uci;
pub mod xboard;

/// The protocol an engine speaks, or a GUI (`sp960 proxy --protocol`, `proto=` of an engine
/// spec).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Protocol {
    /// UCI: `uci`, `position`, `go`, `bestmove`.
    Uci,
    /// XBoard / CECP (Chess Engine Communication Protocol): `xboard`, `protover 2`, `usermove`, `move`.
    Xboard,
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Uci => "uci",
            Protocol::Xboard => "xboard",
        })
    }
}

/// Splits `line` into whitespace-separated tokens (ASCII whitespace, as UCI and XBoard
/// define it).
pub fn tokens(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(|b| b.is_ascii_whitespace())
        .filter(|token| !token.is_empty())
}

/// The first token of `line`, or an empty slice; the only thing looked at before deciding
/// whether a line needs any work.
pub fn first_token(line: &[u8]) -> &[u8] {
    let start = line
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(line.len());
    let rest = &line[start..];
    let end = rest
        .iter()
        .position(|b| b.is_ascii_whitespace())
        .unwrap_or(rest.len());
    &rest[..end]
}

/// True for the names GUIs and engines give Chess960 as a variant (UCI `UCI_Variant`,
/// XBoard `variant` and `feature variants`), ASCII case-insensitive: the one table of
/// [`crate::starts::variant`], which the PGN `Variant` tag is read with too.
pub fn is_chess960_variant(name: &[u8]) -> bool {
    crate::starts::variant::is_chess960_protocol_name(name)
}

/// A command line split into its first token and the rest, both trimmed (`level 40 5 0`
/// gives `level` and `40 5 0`).
pub fn split_command(line: &str) -> (&str, &str) {
    let trimmed = line.trim();
    let (command, rest) = trimmed
        .split_once(|c: char| c.is_ascii_whitespace())
        .unwrap_or((trimmed, ""));
    (command, rest.trim())
}

/// The token after the first (`pong 7` gives `7`, `move e2e4` gives `e2e4`), or empty.
pub fn argument(line: &[u8]) -> &[u8] {
    tokens(line).nth(1).unwrap_or_default()
}

/// `line`'s tokens with the byte offset each starts at, for rewriting a line in place.
pub fn token_spans(line: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < line.len() && line[at].is_ascii_whitespace() {
            at += 1;
        }
        if at == line.len() {
            return None;
        }
        let start = at;
        while at < line.len() && !line[at].is_ascii_whitespace() {
            at += 1;
        }
        Some((start, &line[start..at]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_split_on_any_ascii_whitespace() {
        let line = b"  info\tdepth 3  pv e2e4\r";
        assert_eq!(first_token(line), b"info");
        let all: Vec<&[u8]> = tokens(line).collect();
        assert_eq!(all, [&b"info"[..], b"depth", b"3", b"pv", b"e2e4"]);
        assert_eq!(first_token(b""), b"");
        assert_eq!(first_token(b"   "), b"");
    }

    #[test]
    fn commands_split_from_their_arguments() {
        assert_eq!(split_command("  level 40 5 0\r"), ("level", "40 5 0"));
        assert_eq!(split_command("new"), ("new", ""));
        assert_eq!(argument(b"pong 7"), b"7");
        assert_eq!(argument(b"move"), b"");
    }

    #[test]
    fn spans_point_into_the_line() {
        let line = b" go  searchmoves e1h1\r";
        let spans: Vec<(usize, &[u8])> = token_spans(line).collect();
        assert_eq!(spans, [(1, &b"go"[..]), (5, b"searchmoves"), (17, b"e1h1")]);
        assert!(is_chess960_variant(b"FischeRandom") && !is_chess960_variant(b"normal"));
    }
}
