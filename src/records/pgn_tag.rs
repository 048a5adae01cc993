//! The one reader of a PGN tag pair, `[Name "value"]`, alone on its line: used by
//! `validate`/`normalize` (the `FEN` tags of PGN files, [`crate::records::record`]) and
//! the PGN reader ([`crate::records::pgn`]: books, `--resume`, the games a real runner's
//! PGN holds).
//!
//! One rule for every reader, PGN's own tokens with blanks between them: blanks (spaces
//! and tabs) may stand before `[`, after `]` and between the tokens (`[`, the name, the
//! value, `]`), and a `\r` may end the line. The name is a PGN symbol (a letter or digit,
//! then letters, digits and `_+#=:-`); the value runs from the first `"` after the name
//! to the last `"` before `]`, with `\"` and `\\` as escapes ([`unescape`]).
//! [`pgn_tag`] works on bytes without allocating (`validate` reads every tag line of a
//! large file).

use std::borrow::Cow;
use std::ops::Range;

/// Space or tab.
fn is_blank(byte: u8) -> bool {
    byte == b' ' || byte == b'\t'
}

/// A byte of a PGN symbol after its first (letters, digits, `_+#=:-`).
fn is_symbol(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'+' | b'#' | b'=' | b':' | b'-')
}

/// A tag pair alone on `line`: where its name and its value (inside the quotes, still
/// escaped) are; `None` when the line is not one.
pub fn pgn_tag(line: &[u8]) -> Option<(Range<usize>, Range<usize>)> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let open = line.iter().position(|&byte| !is_blank(byte))?;
    let close = line.iter().rposition(|&byte| !is_blank(byte))?;
    if line[open] != b'[' || line[close] != b']' || close == open {
        return None;
    }
    let name_start = open + 1 + line[open + 1..close].iter().position(|&b| !is_blank(b))?;
    if !line[name_start].is_ascii_alphanumeric() {
        return None;
    }
    let name_end = name_start
        + line[name_start..close]
            .iter()
            .position(|&byte| !is_symbol(byte))?;
    let quote = name_end + line[name_end..close].iter().position(|&b| !is_blank(b))?;
    let end_quote = line[..close].iter().rposition(|&byte| !is_blank(byte))?;
    if line[quote] != b'"' || line[end_quote] != b'"' || end_quote == quote {
        return None;
    }
    Some((name_start..name_end, quote + 1..end_quote))
}

/// A tag value with PGN's escapes, `\"` and `\\`, read.
pub fn unescape(value: &str) -> Cow<'_, str> {
    if !value.contains('\\') {
        return Cow::Borrowed(value);
    }
    let mut text = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match (c, chars.clone().next()) {
            ('\\', Some(next @ ('"' | '\\'))) => {
                text.push(next);
                chars.next();
            }
            _ => text.push(c),
        }
    }
    Cow::Owned(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(line: &str) -> Option<(String, String)> {
        let (name, value) = pgn_tag(line.as_bytes())?;
        Some((line[name].to_owned(), unescape(&line[value]).into_owned()))
    }

    fn some(name: &str, value: &str) -> Option<(String, String)> {
        Some((name.to_owned(), value.to_owned()))
    }

    #[test]
    fn tag_pairs_with_blanks_between_the_tokens_and_a_cr() {
        assert_eq!(pair("[Event \"x\"]"), some("Event", "x"));
        assert_eq!(
            pair("  [ FEN\t \"8/8 w - -\" ] \r"),
            some("FEN", "8/8 w - -")
        );
        assert_eq!(pair("[FEN\"x\"]"), some("FEN", "x"));
        assert_eq!(pair("[White \"\"]"), some("White", ""));
        assert_eq!(pair("[Black_Elo+ \"a\"b\"]"), some("Black_Elo+", "a\"b"));
        assert_eq!(
            pgn_tag(b" [FEN \"abc\"]"),
            Some((2..5, 7..10)),
            "ranges into the line"
        );
    }

    #[test]
    fn escapes_are_read_once() {
        assert_eq!(pair(r#"[White "A \"x\""]"#), some("White", "A \"x\""));
        assert_eq!(pair(r#"[Site "C:\\dir\\"]"#), some("Site", r"C:\dir\"));
        assert_eq!(unescape(r#"\\\"n\t"#), "\\\"n\\t");
        assert!(matches!(unescape("plain"), Cow::Borrowed("plain")));
    }

    #[test]
    fn what_is_not_a_tag_pair() {
        for line in [
            "",
            "[",
            "[]",
            "[Event \"x\"",
            "Event \"x\"]",
            "[Event x]",
            "[Event \"]",
            "[\"x\"]",
            "[_Event \"x\"]",
            "[Ev.ent \"x\"]",
            "[Event \"x\"] 1. e4",
        ] {
            assert_eq!(pair(line), None, "{line:?}");
        }
    }
}
