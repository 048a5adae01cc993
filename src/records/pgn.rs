//! The one PGN reader: games streamed to a [`Visitor`], as the `pgn-reader` crate (by
//! shakmaty's author) streams them, with where each thing is ([`At`]: line, column, byte
//! offset) and what cannot be read handed to the visitor instead of skipped. Read by the
//! match runner's `--openings` (and `sp960 book stats`), `--resume`'s read-back of the match
//! PGN, `sp960 book --resume`'s read-back of a generated book, and `sp960 match --runner`'s
//! read-back of the PGN cutechess-cli or fastchess wrote (`tournaments::handoff`).
//!
//! Why not pgn-reader itself (0.29.0; `tests/pgn_reader.rs` runs it): its visitor is told
//! no position (its reader has a byte offset only between games), and it skips a token that
//! is not SAN and a tag line it cannot read without a word, so `book.pgn:1: 'xyz' is not a
//! SAN move` cannot be said from it. Speed: `cargo bench --bench pgn_read`
//! (docs/benchmarks.md).
//!
//! The grammar, one rule for every reader:
//! - A tag pair is a line of its own whose first non-blank byte is `[` ([`pgn_tag`]'s one
//!   rule); such a line that is no tag pair goes to [`Visitor::malformed_tag`]. Tag lines
//!   follow each other (blank lines between them allowed) until the movetext begins.
//! - A line whose first non-blank byte is `%` is skipped, as is a `;` comment to the end of
//!   its line. `{...}` comments may span lines.
//! - Movetext tokens are split at whitespace and at `{`, `(`, `)`, `;`. A token is a result
//!   (`1-0`, `0-1`, `1/2-1/2`, `*`), a NAG (`$N`), or a move: a move number (`12.`,
//!   `12...`, alone or glued to the move) and annotation glyphs (`!`, `?`, ...) are taken
//!   off, `0-0` is castling, and what remains is SAN ([`Visitor::san`]) or is not
//!   ([`Visitor::not_san`]).
//! - A game ends with its result outside variations (results inside them are skipped), at a
//!   tag line outside variations (a game without a result), or at the end of the text.
//! - A game begins at its first tag, or without tags at its first token; a comment that no
//!   game holds yet (after a result, or before a game's first token when it has no tags)
//!   belongs to no game and is dropped.
//! - A stream is cut into whole games by the same tag line rule, read line by line
//!   ([`game_starts`]): a game begins at a tag line after movetext, outside `{...}`
//!   comments; each piece is then read by the [`Reader`].
//!
//! Sans-IO: the text is in memory (every reader here reads the whole file); a leading
//! byte-order mark is skipped.

use std::borrow::Cow;
use std::ops::ControlFlow;

use memchr::memchr;
use shakmaty::Outcome;
use shakmaty::san::SanPlus;

use super::pgn_tag::{pgn_tag, unescape};

/// Where something is in the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct At {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in bytes.
    pub column: usize,
    /// Byte offset from the start of the text.
    pub offset: usize,
}

/// A tag's value as written, with PGN's escapes (`\"`, `\\`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TagValue<'a>(pub &'a [u8]);

impl<'a> TagValue<'a> {
    /// The value, escapes read, invalid UTF-8 replaced.
    pub fn text(&self) -> Cow<'a, str> {
        match String::from_utf8_lossy(self.0) {
            Cow::Borrowed(text) => unescape(text),
            Cow::Owned(text) => Cow::Owned(unescape(&text).into_owned()),
        }
    }
}

/// A game's tags as a visitor collects them: the line of its first tag (or of its first
/// token when it has none) and the pairs, escapes read, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TagPairs {
    /// The game's first line.
    pub line: usize,
    /// Name and value of each tag.
    pub pairs: Vec<(String, String)>,
}

impl TagPairs {
    /// No tags yet, for a game that starts `at` ([`Visitor::begin_tags`]).
    pub fn starting(at: At) -> TagPairs {
        TagPairs {
            line: at.line,
            pairs: Vec::new(),
        }
    }

    /// One tag ([`Visitor::tag`]).
    pub fn push(&mut self, name: &[u8], value: TagValue<'_>) {
        let name = String::from_utf8_lossy(name).into_owned();
        self.pairs.push((name, value.text().into_owned()));
    }
}

/// What [`Visitor::begin_variation`] answers: skip the variation (to its `)`, which is
/// still told to [`Visitor::end_variation`]) or read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Skip(pub bool);

/// Told each game of a [`Reader`], in this order: [`Visitor::begin_tags`], its tags, then
/// [`Visitor::begin_movetext`], the movetext, and [`Visitor::end_game`]. Every method but
/// `end_game` may stop the game with `ControlFlow::Break(output)`: the reader then skips
/// the rest of it. What the defaults do is what pgn-reader does: skip.
pub trait Visitor {
    /// Made by [`Visitor::begin_tags`].
    type Tags;
    /// Made by [`Visitor::begin_movetext`].
    type Movetext;
    /// What a game gives.
    type Output;

    /// A game begins `at` its first tag, or without tags its first token.
    fn begin_tags(&mut self, at: At) -> ControlFlow<Self::Output, Self::Tags>;

    /// A tag pair, its name and value as written.
    fn tag(
        &mut self,
        _tags: &mut Self::Tags,
        _name: &[u8],
        _value: TagValue<'_>,
        _at: At,
    ) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    /// A line that begins with `[` but is no tag pair (`line` from the `[`, without its line
    /// end).
    fn malformed_tag(
        &mut self,
        _tags: &mut Self::Tags,
        _line: &[u8],
        _at: At,
    ) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    /// The tags are read: the movetext begins `at` its first token or comment (the end of
    /// the game when it has none).
    fn begin_movetext(
        &mut self,
        tags: Self::Tags,
        at: At,
    ) -> ControlFlow<Self::Output, Self::Movetext>;

    /// A move in SAN; `token` is the token as written (`12.Nf3!`).
    fn san(
        &mut self,
        _movetext: &mut Self::Movetext,
        _san: SanPlus,
        _token: &[u8],
        _at: At,
    ) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    /// A token that is no move, result or NAG.
    fn not_san(
        &mut self,
        _movetext: &mut Self::Movetext,
        _token: &[u8],
        _at: At,
    ) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    /// A NAG: `$N`, or a glyph after a move (`!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6).
    fn nag(
        &mut self,
        _movetext: &mut Self::Movetext,
        _nag: u8,
        _at: At,
    ) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    /// A `{...}` comment's text (to the end of the text when it is not closed).
    fn comment(
        &mut self,
        _movetext: &mut Self::Movetext,
        _comment: &[u8],
        _at: At,
    ) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    /// A `(`: by default the variation is skipped.
    fn begin_variation(
        &mut self,
        _movetext: &mut Self::Movetext,
        _at: At,
    ) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    /// A `)` (not necessarily after a `(`).
    fn end_variation(
        &mut self,
        _movetext: &mut Self::Movetext,
        _at: At,
    ) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    /// The game's result; [`Visitor::end_game`] follows.
    fn outcome(
        &mut self,
        _movetext: &mut Self::Movetext,
        _outcome: Outcome,
        _at: At,
    ) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    /// The game is read.
    fn end_game(&mut self, movetext: Self::Movetext) -> Self::Output;
}

/// What the scanner finds: the things a visitor is told, and where a game ends.
#[derive(Debug, Clone, Copy)]
enum Event<'a> {
    Tag {
        name: &'a [u8],
        value: &'a [u8],
        at: At,
    },
    MalformedTag {
        line: &'a [u8],
        at: At,
    },
    Comment {
        text: &'a [u8],
        at: At,
    },
    Open(At),
    Close(At),
    Word {
        token: &'a [u8],
        at: At,
    },
    /// A result outside variations: the game's end.
    Outcome(Outcome, At),
    /// The game ends without a result (a tag line, or the end of the text).
    End(At),
}

impl Event<'_> {
    fn at(&self) -> At {
        match *self {
            Event::Tag { at, .. }
            | Event::MalformedTag { at, .. }
            | Event::Comment { at, .. }
            | Event::Open(at)
            | Event::Close(at)
            | Event::Word { at, .. }
            | Event::Outcome(_, at)
            | Event::End(at) => at,
        }
    }

    /// Whether the game ends with this event.
    fn ends_game(&self) -> bool {
        matches!(self, Event::Outcome(..) | Event::End(_))
    }
}

/// Where the scanner is in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Between games.
    Idle,
    /// Reading a game's tags.
    Tags,
    /// Reading a game's movetext.
    Movetext,
}

/// Reads the games of a PGN text one by one ([`Reader::read_game`]).
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    text: &'a [u8],
    /// The next byte to read.
    pos: usize,
    /// The line of `pos`, 1-based, and where that line begins.
    line: usize,
    line_start: usize,
    /// `pos` is where a line's content begins: tag and `%` lines are recognized there.
    at_line_start: bool,
    phase: Phase,
    /// `(` nesting in the movetext.
    depth: usize,
}

/// Space or tab: what may stand before a tag line's `[`.
fn is_blank(byte: u8) -> bool {
    byte == b' ' || byte == b'\t'
}

/// The bytes a movetext token ends at: whitespace, `{`, `(`, `)`, `;`.
const ENDS_TOKEN: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        table[byte] = b.is_ascii_whitespace() || matches!(b, b'{' | b'(' | b')' | b';' | b'\x0b');
        byte += 1;
    }
    table
};

/// Where a movetext token ends.
fn ends_token(byte: u8) -> bool {
    ENDS_TOKEN[usize::from(byte)]
}

impl<'a> Reader<'a> {
    /// A reader of `text` (a leading byte-order mark is skipped).
    pub fn new(text: &'a [u8]) -> Reader<'a> {
        let start = if text.starts_with(crate::starts::notation::BOM) {
            crate::starts::notation::BOM.len()
        } else {
            0
        };
        Reader {
            text,
            pos: start,
            line: 1,
            line_start: start,
            at_line_start: true,
            phase: Phase::Idle,
            depth: 0,
        }
    }

    /// The bytes read so far: between games, where the next one may begin.
    pub fn offset(&self) -> usize {
        self.pos
    }

    fn at(&self, offset: usize) -> At {
        At {
            line: self.line,
            column: offset - self.line_start + 1,
            offset,
        }
    }

    /// Moves past the line end at `newline` (or to the end of the text).
    fn next_line(&mut self, newline: usize) {
        self.pos = (newline + 1).min(self.text.len());
        if newline < self.text.len() {
            self.line += 1;
            self.line_start = self.pos;
        }
        self.at_line_start = true;
    }

    /// The end of the line `pos` is on: its `\n`, or the end of the text.
    fn line_end(&self) -> usize {
        memchr(b'\n', &self.text[self.pos..]).map_or(self.text.len(), |end| self.pos + end)
    }

    /// The next event, or `None` at the end of the text between games.
    fn next_event(&mut self) -> Option<Event<'a>> {
        let text = self.text;
        loop {
            if self.pos >= text.len() {
                return match self.phase {
                    Phase::Idle => None,
                    Phase::Tags | Phase::Movetext => {
                        self.phase = Phase::Idle;
                        self.depth = 0;
                        Some(Event::End(self.at(text.len())))
                    }
                };
            }
            if self.at_line_start {
                let end = self.line_end();
                let first = text[self.pos..end]
                    .iter()
                    .position(|&byte| !is_blank(byte))
                    .map_or(end, |blanks| self.pos + blanks);
                match text.get(first) {
                    Some(b'%') => {
                        self.next_line(end);
                        continue;
                    }
                    Some(b'[') if self.phase != Phase::Movetext || self.depth == 0 => {
                        if self.phase == Phase::Movetext {
                            // A game without a result: this tag line begins the next one.
                            self.phase = Phase::Idle;
                            return Some(Event::End(self.at(self.pos)));
                        }
                        self.phase = Phase::Tags;
                        let line = &text[first..end];
                        let line = line.strip_suffix(b"\r").unwrap_or(line);
                        let at = self.at(first);
                        let event = match pgn_tag(line) {
                            Some((name, value)) => Event::Tag {
                                name: &line[name],
                                value: &line[value],
                                at,
                            },
                            None => Event::MalformedTag { line, at },
                        };
                        self.next_line(end);
                        return Some(event);
                    }
                    _ => self.at_line_start = false,
                }
            }
            let byte = text[self.pos];
            if byte != b'\n' && ends_token(byte) && !matches!(byte, b'{' | b'(' | b')' | b';') {
                // Blanks within the line, in one go.
                self.pos += 1;
                while self.pos < text.len()
                    && matches!(text[self.pos], b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c')
                {
                    self.pos += 1;
                }
                continue;
            }
            let at = self.at(self.pos);
            match byte {
                b'\n' => self.next_line(self.pos),
                b';' => self.pos = self.line_end(),
                b'{' => {
                    if let Some(event) = self.comment(at) {
                        return Some(event);
                    }
                }
                b'(' => {
                    self.pos += 1;
                    self.phase = Phase::Movetext;
                    self.depth += 1;
                    return Some(Event::Open(at));
                }
                b')' => {
                    self.pos += 1;
                    self.phase = Phase::Movetext;
                    self.depth = self.depth.saturating_sub(1);
                    return Some(Event::Close(at));
                }
                _ => {
                    if let Some(event) = self.word(at) {
                        return Some(event);
                    }
                }
            }
        }
    }

    /// The `{...}` comment at `pos` (`at`), read past its lines; `None` for one no game
    /// holds.
    fn comment(&mut self, at: At) -> Option<Event<'a>> {
        let text = self.text;
        let start = self.pos + 1;
        let close = memchr(b'}', &text[start..]).map_or(text.len(), |close| start + close);
        for newline in memchr::memchr_iter(b'\n', &text[start..close]) {
            self.line += 1;
            self.line_start = start + newline + 1;
        }
        self.pos = (close + 1).min(text.len());
        match self.phase {
            // A comment no game holds.
            Phase::Idle => None,
            Phase::Tags | Phase::Movetext => {
                self.phase = Phase::Movetext;
                Some(Event::Comment {
                    text: &text[start..close],
                    at,
                })
            }
        }
    }

    /// The word at `pos` (`at`): a move, number or NAG, or a result; `None` for a result
    /// inside a variation.
    fn word(&mut self, at: At) -> Option<Event<'a>> {
        let text = self.text;
        let end = text[self.pos..]
            .iter()
            .position(|&byte| ends_token(byte))
            .map_or(text.len(), |end| self.pos + end);
        let token = &text[self.pos..end];
        self.pos = end;
        match Outcome::from_ascii(token) {
            Ok(outcome) if self.depth == 0 => {
                self.phase = Phase::Idle;
                Some(Event::Outcome(outcome, at))
            }
            // A result inside a variation.
            Ok(_) => None,
            Err(_) => {
                self.phase = Phase::Movetext;
                Some(Event::Word { token, at })
            }
        }
    }

    /// Skips the events of a game up to its end, `last` the last event read.
    fn skip_rest(&mut self, last: &Event<'_>) {
        if last.ends_game() {
            return;
        }
        while let Some(event) = self.next_event() {
            if event.ends_game() {
                return;
            }
        }
    }

    /// Skips the next game; whether there was one.
    pub fn skip_game(&mut self) -> bool {
        match self.next_event() {
            Some(event) => {
                self.skip_rest(&event);
                true
            }
            None => false,
        }
    }

    /// Reads the next game into `visitor`: what it gives, or `None` when no game is left.
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> Option<V::Output> {
        let mut event = self.next_event()?;
        let mut tags = match visitor.begin_tags(event.at()) {
            ControlFlow::Continue(tags) => tags,
            ControlFlow::Break(output) => {
                self.skip_rest(&event);
                return Some(output);
            }
        };
        loop {
            let flow = match event {
                Event::Tag { name, value, at } => visitor.tag(&mut tags, name, TagValue(value), at),
                Event::MalformedTag { line, at } => visitor.malformed_tag(&mut tags, line, at),
                _ => break,
            };
            if let ControlFlow::Break(output) = flow {
                self.skip_rest(&event);
                return Some(output);
            }
            event = self.next_event().expect("a game's tags end with an event");
        }
        let mut movetext = match visitor.begin_movetext(tags, event.at()) {
            ControlFlow::Continue(movetext) => movetext,
            ControlFlow::Break(output) => {
                self.skip_rest(&event);
                return Some(output);
            }
        };
        // The depth of the variation being skipped (0: none).
        let mut skipping = 0usize;
        loop {
            let flow = match event {
                Event::End(_) => return Some(visitor.end_game(movetext)),
                Event::Outcome(outcome, at) => match visitor.outcome(&mut movetext, outcome, at) {
                    ControlFlow::Continue(()) => return Some(visitor.end_game(movetext)),
                    ControlFlow::Break(output) => return Some(output),
                },
                Event::Open(_) if skipping > 0 => {
                    skipping += 1;
                    ControlFlow::Continue(())
                }
                Event::Close(at) if skipping > 0 => {
                    skipping -= 1;
                    if skipping == 0 {
                        visitor.end_variation(&mut movetext, at)
                    } else {
                        ControlFlow::Continue(())
                    }
                }
                _ if skipping > 0 => ControlFlow::Continue(()),
                Event::Open(at) => match visitor.begin_variation(&mut movetext, at) {
                    ControlFlow::Continue(Skip(skip)) => {
                        skipping = usize::from(skip);
                        ControlFlow::Continue(())
                    }
                    ControlFlow::Break(output) => ControlFlow::Break(output),
                },
                Event::Close(at) => visitor.end_variation(&mut movetext, at),
                Event::Comment { text, at } => visitor.comment(&mut movetext, text, at),
                Event::Word { token, at } => word(visitor, &mut movetext, token, at),
                Event::Tag { .. } | Event::MalformedTag { .. } => {
                    unreachable!("tag lines in the movetext end the game first")
                }
            };
            if let ControlFlow::Break(output) = flow {
                self.skip_rest(&event);
                return Some(output);
            }
            event = self.next_event().expect("a game ends with an event");
        }
    }
}

/// The NAG of annotation glyphs after a move, if they are one.
fn glyph_nag(glyphs: &[u8]) -> Option<u8> {
    Some(match glyphs {
        b"!" => 1,
        b"?" => 2,
        b"!!" => 3,
        b"??" => 4,
        b"!?" => 5,
        b"?!" => 6,
        _ => return None,
    })
}

/// A movetext word: a NAG, or a move with its number and glyphs taken off.
fn word<V: Visitor>(
    visitor: &mut V,
    movetext: &mut V::Movetext,
    token: &[u8],
    at: At,
) -> ControlFlow<V::Output> {
    if let Some(number) = token.strip_prefix(b"$") {
        return match std::str::from_utf8(number)
            .ok()
            .and_then(|n| n.parse().ok())
        {
            Some(nag) => visitor.nag(movetext, nag, at),
            None => ControlFlow::Continue(()),
        };
    }
    let castling_with_zeros;
    let mut word = token;
    // `12.`, `12...`, alone or glued to the move (`5.0-0` too); digits alone are a number.
    let digits = word.iter().take_while(|byte| byte.is_ascii_digit()).count();
    let dots = word[digits..]
        .iter()
        .take_while(|&&byte| byte == b'.')
        .count();
    if dots > 0 || digits == word.len() {
        word = &word[digits + dots..];
    }
    // Castling with zeros, all of it (`0-0-O` is no castling, as python-chess reads it too).
    if word.starts_with(b"0-0") && !word.contains(&b'O') {
        castling_with_zeros = word
            .iter()
            .map(|&byte| if byte == b'0' { b'O' } else { byte })
            .collect::<Vec<u8>>();
        word = &castling_with_zeros;
    }
    let glyphs = word
        .iter()
        .rev()
        .position(|&byte| byte != b'!' && byte != b'?')
        .unwrap_or(word.len());
    let (san, glyphs) = word.split_at(word.len() - glyphs);
    if !san.is_empty() {
        match SanPlus::from_ascii(san) {
            Ok(san) => visitor.san(movetext, san, token, at)?,
            Err(_) => visitor.not_san(movetext, token, at)?,
        }
    }
    match glyph_nag(glyphs) {
        Some(nag) => visitor.nag(movetext, nag, at),
        None => ControlFlow::Continue(()),
    }
}

/// Where the games of `text` begin, as a stream of it is cut into whole games before
/// [`Reader`] reads them (`validate`, `normalize`, `sp960 results`): this grammar's tag
/// line rule, read line by line: each line whose first non-blank byte is `[` after a line
/// that is neither blank nor a tag (the first tag of a game that follows movetext),
/// outside any `{...}` comment (a comment may span lines, and a line of it may begin with
/// `[`, as `[%clk 0:02:50]` does).
pub fn game_starts(text: &[u8]) -> impl Iterator<Item = usize> + '_ {
    let mut start = 0;
    let mut after_movetext = false;
    let mut in_comment = false;
    std::iter::from_fn(move || {
        while start < text.len() {
            let end = memchr::memchr(b'\n', &text[start..]).map_or(text.len(), |n| start + n + 1);
            let line = &text[start..end];
            let here = start;
            start = end;
            if in_comment {
                in_comment = comment_open_after(line, true);
                continue;
            }
            match line.iter().find(|b| !b.is_ascii_whitespace()) {
                None | Some(b'%') => {}
                Some(b'[') if after_movetext => {
                    after_movetext = false;
                    return Some(here);
                }
                Some(b'[') => {}
                Some(_) => {
                    after_movetext = true;
                    in_comment = comment_open_after(line, false);
                }
            }
        }
        None
    })
}

/// The longest text held back waiting for its game to end (16 MiB): no real game comes
/// near it; an unclosed `{` or a file with no game breaks would otherwise hold the whole
/// rest of the file in memory.
pub const MAX_GAME_BYTES: usize = 16 << 20;

/// Where a stream's `pending` text is cut: the games before the cut are complete, the text
/// after it waits for more. At the end everything is complete; a tail longer than
/// `max_game` is checked as it stands (its game then ends where the text does).
pub fn complete_games(pending: &[u8], starts: &[usize], at_end: bool, max_game: usize) -> usize {
    let cut = match (at_end, starts.last()) {
        (true, _) => pending.len(),
        (false, Some(&start)) => start,
        (false, None) => 0,
    };
    if pending.len() - cut > max_game {
        pending.len()
    } else {
        cut
    }
}

/// Whether a `{` comment is open at the end of a movetext `line` (`open`: it is at its
/// start). A `;` comment outside braces runs to the line's end, braces and all.
pub(super) fn comment_open_after(line: &[u8], mut open: bool) -> bool {
    let mut at = 0;
    loop {
        if open {
            match memchr::memchr(b'}', &line[at..]) {
                Some(n) => {
                    at += n + 1;
                    open = false;
                }
                None => return true,
            }
        } else {
            match memchr::memchr2(b'{', b';', &line[at..]) {
                Some(n) if line[at + n] == b'{' => {
                    at += n + 1;
                    open = true;
                }
                _ => return false,
            }
        }
    }
}

#[cfg(test)]
#[path = "pgn_tests.rs"]
mod tests;
