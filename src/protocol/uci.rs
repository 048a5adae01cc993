//! UCI's vocabulary: the lines the proxy, the match runner and the built-in engine read
//! and write, each in one place.
//!
//! | line | read by | written by |
//! |---|---|---|
//! | `go ...` ([`Go`]) | engine; proxy (`searchmoves` spans) | runner |
//! | `option name ... type ...` ([`OptionDecl`]) | runner; proxy | engine; proxy |
//! | `setoption name ... value ...` ([`SetOption`]) | engine; proxy | runner; proxy |
//! | `bestmove X [ponder Y]` ([`BestMove`]) | runner; proxy | engine; proxy |
//! | `info ... pv ...` ([`info_move_lists`], [`Info`]) | proxy | engine |
//! | `position ...` ([`PositionCommand`]) | engine; proxy | runner; proxy |
//!
//! Readers borrow from the line (`&[u8]` tokens and byte spans): the proxy rewrites only
//! the bytes it must.

use shakmaty::{ByColor, Color};
use std::fmt;
use std::ops::Range;

use super::{token_spans, tokens};

/// Keywords of `go` (those that end a `searchmoves` list).
pub const GO_KEYWORDS: [&[u8]; 12] = [
    b"searchmoves",
    b"ponder",
    b"wtime",
    b"btime",
    b"winc",
    b"binc",
    b"movestogo",
    b"depth",
    b"nodes",
    b"mate",
    b"movetime",
    b"infinite",
];

/// Keywords of `info` (those that end a move list).
pub const INFO_KEYWORDS: [&[u8]; 22] = [
    b"depth",
    b"seldepth",
    b"time",
    b"nodes",
    b"pv",
    b"multipv",
    b"score",
    b"cp",
    b"mate",
    b"lowerbound",
    b"upperbound",
    b"currmove",
    b"currmovenumber",
    b"hashfull",
    b"nps",
    b"tbhits",
    b"sbhits",
    b"cpuload",
    b"string",
    b"refutation",
    b"currline",
    b"wdl",
];

/// A `go` command: the limits as numbers (milliseconds for times), as written; what they
/// mean for a search is the reader's business.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Go {
    /// `wtime`, `btime`.
    pub time: ByColor<Option<i64>>,
    /// `winc`, `binc`.
    pub increment: ByColor<Option<i64>>,
    /// `movestogo`.
    pub moves_to_go: Option<i64>,
    /// `depth`.
    pub depth: Option<i64>,
    /// `nodes`.
    pub nodes: Option<i64>,
    /// `mate` (moves).
    pub mate: Option<i64>,
    /// `movetime`.
    pub movetime: Option<i64>,
    /// `infinite`.
    pub infinite: bool,
    /// `ponder`.
    pub ponder: bool,
    /// The byte spans of the `searchmoves` moves in the line read.
    pub searchmoves: Vec<Range<usize>>,
}

/// Why a `go` line was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GoError {
    /// A known parameter whose number is missing or not a number: malformed.
    Number(String),
    /// A parameter UCI does not define (an engine's extension, such as Stockfish's
    /// `perft`, or a typo).
    Unknown(String),
}

impl fmt::Display for GoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoError::Number(message) | GoError::Unknown(message) => f.write_str(message),
        }
    }
}

impl Go {
    /// Reads a `go` line; an unknown parameter or a missing or non-numeric value is an
    /// error naming it.
    pub fn parse(line: &[u8]) -> Result<Go, GoError> {
        let mut go = Go::default();
        let mut words = token_spans(line).skip(1).peekable();
        while let Some((_, word)) = words.next() {
            let mut number = || -> Result<Option<i64>, GoError> {
                let name = String::from_utf8_lossy(word);
                let (_, value) = words
                    .next()
                    .ok_or_else(|| GoError::Number(format!("go: '{name}' needs a number")))?;
                std::str::from_utf8(value)
                    .ok()
                    .and_then(|v| v.parse::<i64>().ok())
                    .map(Some)
                    .ok_or_else(|| {
                        GoError::Number(format!(
                            "go: '{name}' needs a number, not '{}'",
                            String::from_utf8_lossy(value)
                        ))
                    })
            };
            match word {
                b"wtime" => go.time.white = number()?,
                b"btime" => go.time.black = number()?,
                b"winc" => go.increment.white = number()?,
                b"binc" => go.increment.black = number()?,
                b"movestogo" => go.moves_to_go = number()?,
                b"depth" => go.depth = number()?,
                b"nodes" => go.nodes = number()?,
                b"mate" => go.mate = number()?,
                b"movetime" => go.movetime = number()?,
                b"infinite" => go.infinite = true,
                b"ponder" => go.ponder = true,
                b"searchmoves" => {
                    while let Some((start, m)) = words.next_if(|(_, w)| !GO_KEYWORDS.contains(w)) {
                        go.searchmoves.push(start..start + m.len());
                    }
                    if go.searchmoves.is_empty() {
                        return Err(GoError::Number("go: 'searchmoves' needs moves".into()));
                    }
                }
                other => {
                    return Err(GoError::Unknown(format!(
                        "go: unknown parameter '{}'",
                        String::from_utf8_lossy(other)
                    )));
                }
            }
        }
        Ok(go)
    }
}

impl Go {
    /// A limit no search can meet, by name: a depth, node count, move time, mate distance
    /// or moves-to-go below 1, or a clock or increment below 0 (`go depth 0`, `go nodes -1`,
    /// `go movetime 0`: Stockfish 15.1 searches forever on each, docs/engine-quirks.md).
    pub fn impossible_limit(&self) -> Option<String> {
        let at_least_one = [
            ("depth", self.depth),
            ("nodes", self.nodes),
            ("movetime", self.movetime),
            ("mate", self.mate),
            ("movestogo", self.moves_to_go),
        ];
        for (name, value) in at_least_one {
            if let Some(value) = value.filter(|v| *v < 1) {
                return Some(format!("go: '{name} {value}' asks for no search at all"));
            }
        }
        let clocks = [
            ("wtime", self.time.white),
            ("btime", self.time.black),
            ("winc", self.increment.white),
            ("binc", self.increment.black),
        ];
        for (name, value) in clocks {
            if let Some(value) = value.filter(|v| *v < 0) {
                return Some(format!("go: '{name} {value}' is a negative time"));
            }
        }
        None
    }
}

/// The largest number a `go` limit may have: engines keep depths, node counts and
/// milliseconds in 32-bit integers (Stockfish 15.1 reads `depth 4294967296` as no depth).
pub const MAX_GO_VALUE: i64 = i32::MAX as i64;

impl Go {
    /// The numeric parameters by name, in the order a `go` line writes them.
    fn numbers(&self) -> [(&'static str, Option<i64>); 9] {
        [
            ("wtime", self.time.white),
            ("btime", self.time.black),
            ("winc", self.increment.white),
            ("binc", self.increment.black),
            ("movestogo", self.moves_to_go),
            ("depth", self.depth),
            ("nodes", self.nodes),
            ("mate", self.mate),
            ("movetime", self.movetime),
        ]
    }

    /// A `go` the engines here may never answer, by name: no limit at all (`go` alone),
    /// `mate` with no other limit, clocks without the time of the side to move (`turn`
    /// says which), or a value beyond [`MAX_GO_VALUE`]. `infinite` and `ponder` end with
    /// the GUI's `stop` and are not limits the engine must meet.
    pub fn never_ending(&self, turn: Color) -> Option<String> {
        for (name, value) in self.numbers() {
            if let Some(value) = value.filter(|v| *v > MAX_GO_VALUE) {
                return Some(format!("go: '{name} {value}' is beyond {MAX_GO_VALUE}"));
            }
        }
        if self.infinite {
            return None;
        }
        // A `go ponder` becomes a search with its clocks at `ponderhit`, so they are checked
        // as any `go`'s (Stockfish 15.1 searched without end after `go wtime 0 binc 0
        // ponder` and `ponderhit`: docs/hostile-gui.md); without a limit at all it is
        // allowed, as `go infinite` is.
        let clocks = self
            .time
            .iter()
            .chain(self.increment.iter())
            .any(Option::is_some)
            || self.moves_to_go.is_some();
        let own = *self.time.get(turn);
        if clocks && own.is_none() {
            let side = turn.fold_wb("wtime", "btime");
            return Some(format!(
                "go: a clock without '{side}', the time of the side to move"
            ));
        }
        let other_limit = self.depth.is_some() || self.nodes.is_some() || self.movetime.is_some();
        if own == Some(0) && !other_limit {
            let side = turn.fold_wb("wtime", "btime");
            return Some(format!(
                "go: '{side} 0' leaves no time to search (Stockfish 15.1 answered no bestmove)"
            ));
        }
        if !other_limit && own.is_none() && !self.ponder {
            return Some(if self.mate.is_some() {
                "go: 'mate' alone may never end; add depth, nodes, movetime or a clock".into()
            } else {
                "go: no limit (depth, nodes, movetime, a clock, infinite or ponder)".into()
            });
        }
        None
    }
}

impl fmt::Display for Go {
    /// The `go` line (without `searchmoves`, whose spans belong to a line read).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if self.ponder {
            f.write_str(" ponder")?;
        }
        for (name, value) in self.numbers() {
            if let Some(value) = value {
                write!(f, " {name} {value}")?;
            }
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        Ok(())
    }
}

/// The words of `name` in `option name <words> type ...` or `setoption name <words> value
/// ...`, joined by single spaces (`until` is the keyword that ends the name).
fn name_until(words: &[&[u8]], until: &[u8]) -> Vec<u8> {
    let Some(start) = words.iter().position(|w| *w == b"name") else {
        return Vec::new();
    };
    let end = words[start..]
        .iter()
        .position(|w| *w == until)
        .map_or(words.len(), |i| start + i);
    words[start + 1..end].join(&b' ')
}

/// An engine's `option name NAME type TYPE [default D] [min A] [max B] [var V]...`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionDecl {
    /// The name (words joined by single spaces).
    pub name: Vec<u8>,
    /// `check`, `spin`, `combo`, `button` or `string`.
    pub kind: Vec<u8>,
    /// The default value, when given.
    pub default: Option<Vec<u8>>,
    /// The `var` choices of a combo.
    pub vars: Vec<Vec<u8>>,
    /// A spin's `min` and `max`, when given as numbers.
    pub range: (Option<i64>, Option<i64>),
}

impl OptionDecl {
    /// Reads an `option` line.
    pub fn parse(line: &[u8]) -> OptionDecl {
        let words: Vec<&[u8]> = tokens(line).collect();
        let after = |key: &[u8]| words.iter().position(|w| *w == key).map(|i| i + 1);
        let value_at = |start: usize| {
            let end = words[start..]
                .iter()
                .position(|w| matches!(*w, b"min" | b"max" | b"var" | b"default" | b"type"))
                .map_or(words.len(), |i| start + i);
            words[start..end].join(&b' ')
        };
        let mut vars = Vec::new();
        for (index, word) in words.iter().enumerate() {
            if *word == b"var" {
                vars.push(value_at(index + 1));
            }
        }
        let number = |key: &[u8]| {
            after(key)
                .and_then(|i| words.get(i))
                .and_then(|w| std::str::from_utf8(w).ok()?.parse().ok())
        };
        OptionDecl {
            range: (number(b"min"), number(b"max")),
            name: name_until(&words, b"type"),
            kind: after(b"type")
                .and_then(|i| words.get(i))
                .map(|w| w.to_vec())
                .unwrap_or_default(),
            default: after(b"default").map(value_at),
            vars,
        }
    }

    /// True when the option is named `name` (ASCII case-insensitive, as UCI names are).
    pub fn is(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name.as_bytes())
    }

    /// Whether `value` fits the declaration: a spin takes a whole number within its range,
    /// a check `true` or `false`, a combo one of its `var`s; a string or button anything.
    /// (Stockfish 15.1 aborts on `setoption name Hash value abc`.)
    pub fn check_value(&self, value: &[u8]) -> Result<(), OptionValueError> {
        let name = String::from_utf8_lossy(&self.name).into_owned();
        let shown = String::from_utf8_lossy(value).into_owned();
        match self.kind.as_slice() {
            b"spin" => {
                let Ok(number) = shown.parse::<i64>() else {
                    return Err(OptionValueError::NotANumber { name, value: shown });
                };
                let (min, max) = self.range;
                if min.is_some_and(|min| number < min) || max.is_some_and(|max| number > max) {
                    let bound = |b: Option<i64>| b.map_or("any".into(), |m| m.to_string());
                    return Err(OptionValueError::OutOfRange {
                        name,
                        min: bound(min),
                        max: bound(max),
                        number,
                    });
                }
                Ok(())
            }
            b"check"
                if !value.eq_ignore_ascii_case(b"true")
                    && !value.eq_ignore_ascii_case(b"false") =>
            {
                Err(OptionValueError::NotABoolean { name, value: shown })
            }
            b"combo" if !self.vars.iter().any(|v| v.eq_ignore_ascii_case(value)) => {
                Err(OptionValueError::NotAVar {
                    name,
                    vars: self
                        .vars
                        .iter()
                        .map(|v| String::from_utf8_lossy(v).into_owned())
                        .collect::<Vec<_>>()
                        .join(", "),
                    value: shown,
                })
            }
            _ => Ok(()),
        }
    }
}

/// Why a value does not fit an engine's `option` declaration ([`OptionDecl::check_value`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionValueError {
    /// A spin given something other than a whole number.
    #[error("{name} takes a whole number, not '{value}'")]
    NotANumber {
        /// The option's name.
        name: String,
        /// The value given.
        value: String,
    },
    /// A spin given a number outside its range.
    #[error("{name} takes {min} to {max}, not {number}")]
    OutOfRange {
        /// The option's name.
        name: String,
        /// The lowest value (`any` when undeclared).
        min: String,
        /// The highest value (`any` when undeclared).
        max: String,
        /// The number given.
        number: i64,
    },
    /// A check given something other than `true` or `false`.
    #[error("{name} takes true or false, not '{value}'")]
    NotABoolean {
        /// The option's name.
        name: String,
        /// The value given.
        value: String,
    },
    /// A combo given a value that is none of its `var`s.
    #[error("{name} takes one of {vars}, not '{value}'")]
    NotAVar {
        /// The option's name.
        name: String,
        /// Its `var`s, joined by `, `.
        vars: String,
        /// The value given.
        value: String,
    },
}

/// `option name NAME type check default DEFAULT`.
pub fn check_option_line(name: &str, default: bool) -> String {
    format!("option name {name} type check default {default}")
}

/// `option name NAME type spin default D min A max B`.
pub fn spin_option_line(name: &str, default: i64, min: i64, max: i64) -> String {
    format!("option name {name} type spin default {default} min {min} max {max}")
}

/// A GUI's `setoption name NAME [value VALUE]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetOption {
    /// The name (words joined by single spaces).
    pub name: Vec<u8>,
    /// The value (words joined by single spaces), when given.
    pub value: Option<Vec<u8>>,
}

impl SetOption {
    /// Reads a `setoption` line; `None` without `name`.
    pub fn parse(line: &[u8]) -> Option<SetOption> {
        let words: Vec<&[u8]> = tokens(line).collect();
        if !words.contains(&&b"name"[..]) {
            return None;
        }
        let value = words
            .iter()
            .position(|w| *w == b"value")
            .map(|index| words[index + 1..].join(&b' '));
        Some(SetOption {
            name: name_until(&words, b"value"),
            value,
        })
    }

    /// True when the option is named `name` (ASCII case-insensitive).
    pub fn is(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name.as_bytes())
    }

    /// The value, or empty.
    pub fn value(&self) -> &[u8] {
        self.value.as_deref().unwrap_or_default()
    }
}

/// `setoption name NAME value VALUE`.
pub fn setoption_line(name: &str, value: impl fmt::Display) -> String {
    format!("setoption name {name} value {value}")
}

/// A GUI's `position startpos|fen FEN [moves ...]`, borrowing from the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionCommand<'a> {
    /// `None` for `startpos`, else the FEN's fields joined by single spaces.
    pub fen: Option<String>,
    /// The moves, as written.
    pub moves: Vec<&'a [u8]>,
}

/// A `position` line that is neither `startpos` nor `fen FEN`: what came instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected 'startpos' or 'fen <FEN>', got '{0}'")]
pub struct PositionSyntaxError(pub String);

impl<'a> PositionCommand<'a> {
    /// Reads a `position` line; the error says what is missing.
    pub fn parse(line: &'a [u8]) -> Result<PositionCommand<'a>, PositionSyntaxError> {
        let words: Vec<&[u8]> = tokens(line).skip(1).collect();
        let moves_at = words
            .iter()
            .position(|w| *w == b"moves")
            .unwrap_or(words.len());
        let moves = words.get(moves_at + 1..).unwrap_or_default().to_vec();
        let fen = match &words[..moves_at] {
            [b"startpos"] => None,
            [b"fen", fen @ ..] if !fen.is_empty() => {
                Some(String::from_utf8_lossy(&fen.join(&b' ')).into_owned())
            }
            setup => {
                return Err(PositionSyntaxError(
                    String::from_utf8_lossy(&setup.join(&b' ')).into_owned(),
                ));
            }
        };
        Ok(PositionCommand { fen, moves })
    }
}

/// An engine's `bestmove MOVE [ponder MOVE]`, borrowing from the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BestMove<'a> {
    /// The move as written (empty when missing).
    pub best: &'a [u8],
    /// The ponder move, when given.
    pub ponder: Option<&'a [u8]>,
}

impl<'a> BestMove<'a> {
    /// Reads a `bestmove` line.
    pub fn parse(line: &'a [u8]) -> BestMove<'a> {
        let mut words = tokens(line).skip(1);
        let best = words.next().unwrap_or_default();
        let mut ponder = None;
        while let Some(word) = words.next() {
            if word == b"ponder" {
                ponder = words.next();
            }
        }
        BestMove { best, ponder }
    }

    /// True when the engine names no move: `(none)` (Stockfish), `0000` (the UCI null
    /// move), `a1a1` and `NULL` (older engines), or nothing.
    pub fn is_null(&self) -> bool {
        matches!(self.best, b"" | b"(none)" | b"0000" | b"a1a1" | b"NULL")
    }
}

/// `bestmove BEST [ponder PONDER]`.
pub fn bestmove_line(best: &str, ponder: Option<&str>) -> String {
    match ponder {
        Some(ponder) => format!("bestmove {best} ponder {ponder}"),
        None => format!("bestmove {best}"),
    }
}

/// One move list of an `info` line: the keyword (`pv`, `currmove`, `refutation`,
/// `currline`) and the byte spans of its moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveList {
    /// The keyword.
    pub field: &'static str,
    /// The moves' byte spans in the line.
    pub moves: Vec<Range<usize>>,
}

/// The move lists of an `info` line (`pv`, `currmove`, `refutation`, `currline`), in
/// order; nothing is read after `string`, whose text is free.
pub fn info_move_lists(line: &[u8]) -> Vec<MoveList> {
    let mut lists = Vec::new();
    let mut words = token_spans(line).peekable();
    while let Some((_, word)) = words.next() {
        let field = match word {
            b"string" => break,
            b"pv" => "pv",
            b"currmove" => "currmove",
            b"refutation" => "refutation",
            b"currline" => "currline",
            _ => continue,
        };
        if field == "currline"
            && words
                .peek()
                .is_some_and(|(_, cpu)| cpu.iter().all(u8::is_ascii_digit))
        {
            words.next();
        }
        let mut moves = Vec::new();
        while let Some((start, next)) = words.peek().copied() {
            if INFO_KEYWORDS.contains(&next) || (field == "currmove" && !moves.is_empty()) {
                break;
            }
            moves.push(start..start + next.len());
            words.next();
        }
        lists.push(MoveList { field, moves });
    }
    lists
}

/// A search report as the built-in engine writes it: `info depth .. seldepth .. score
/// cp|mate .. nodes .. nps .. time .. [pv ...]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    /// Depth in plies.
    pub depth: u32,
    /// Selective depth.
    pub seldepth: u32,
    /// `cp N` or `mate N`, written as given.
    pub score: String,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds.
    pub time: u128,
    /// The principal variation, moves as the engine writes them.
    pub pv: Vec<String>,
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "info depth {} seldepth {} score {} nodes {} nps {} time {}",
            self.depth, self.seldepth, self.score, self.nodes, self.nps, self.time
        )?;
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        Ok(())
    }
}

/// An engine's evaluation in an `info` line: centipawns or moves to mate, from the side
/// to move's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineScore {
    /// `score cp N`.
    Centipawns(i32),
    /// `score mate N` (negative: the engine is mated).
    Mate(i32),
}

impl EngineScore {
    /// cutechess-cli's number for it (`MoveEvaluation`): centipawns, or a mate in N moves
    /// as `1000000 + 1 - 2N` (mated: `-1000000 - 2N`).
    pub fn cutechess_value(self) -> i64 {
        const MATE_SCORE: i64 = 1_000_000;
        match self {
            EngineScore::Centipawns(cp) => i64::from(cp),
            EngineScore::Mate(n) if n > 0 => MATE_SCORE + 1 - 2 * i64::from(n),
            EngineScore::Mate(n) if n < 0 => -MATE_SCORE - 2 * i64::from(n),
            EngineScore::Mate(_) => 0,
        }
    }
}

/// What an `info` line says about the search: its depth, score (`bound` when it is a
/// `lowerbound` or `upperbound`) and time in milliseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// `depth N`.
    pub depth: Option<u32>,
    /// `score cp N` or `score mate N`.
    pub score: Option<EngineScore>,
    /// The score is a `lowerbound` or `upperbound`, not exact.
    pub bound: bool,
    /// `time MS`.
    pub time_ms: Option<u64>,
}

impl SearchInfo {
    /// Reads an `info` line (`None` for any other line); words after `string` are text.
    pub fn parse(line: &[u8]) -> Option<SearchInfo> {
        let mut words = tokens(line);
        if words.next()? != b"info" {
            return None;
        }
        let number = |word: Option<&[u8]>| {
            word.and_then(|w| std::str::from_utf8(w).ok())
                .and_then(|w| w.parse::<i64>().ok())
        };
        let mut info = SearchInfo::default();
        // Read word by word, nothing collected: the match runner reads every `info` line of
        // every search, and collecting each line's words (the whole PV) into a vector was
        // a third of its own instructions per move.
        let mut words = words.peekable();
        while let Some(word) = words.next() {
            match word {
                b"string" => break,
                b"depth" => {
                    info.depth = number(words.next()).and_then(|n| u32::try_from(n).ok());
                }
                b"time" => {
                    info.time_ms = number(words.next()).and_then(|n| u64::try_from(n).ok());
                }
                b"score" => {
                    let kind = words.next();
                    let value = number(words.next()).and_then(|n| i32::try_from(n).ok());
                    let bound =
                        matches!(words.peek().copied(), Some(b"lowerbound" | b"upperbound"));
                    if bound {
                        words.next();
                    }
                    let score = match (kind, value) {
                        (Some(b"cp"), Some(v)) => Some(EngineScore::Centipawns(v)),
                        (Some(b"mate"), Some(v)) => Some(EngineScore::Mate(v)),
                        _ => None,
                    };
                    if score.is_some() {
                        info.score = score;
                        info.bound = bound;
                    }
                }
                _ => {}
            }
        }
        Some(info)
    }
}

#[cfg(test)]
#[path = "uci_tests.rs"]
mod tests;
