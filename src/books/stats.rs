//! `sp960 book stats`: what a book holds, as fishtest's books README tabulates it (positions,
//! white and black to move, the fewest and most plies from the start) and more: the starts
//! covered and the positions per start, positions written twice, the distribution of the
//! EPD `ce` evaluations, and the hashes fishtest and OpenBench check the book against.
//!
//! Pure: a book's bytes in, a [`BookStats`] and the invalid records (found by the validate
//! room's record parser, [`crate::records::record`]) out. A PGN book is read game by game
//! as `sp960 match --openings` reads it ([`crate::books::openings`]): the position after
//! the moves from the `[FEN]` tag, plies the FEN's plus the moves; its first bad game is
//! reported.
//!
//! Plies from the start, per record, in this order: the moves of an EPD `c0` operand (each
//! token that is a UCI move), else the fullmove number and side to move (`(fullmove - 1) * 2`,
//! plus one with black to move; the FEN counter, or the EPD `fmvn` operand), else 0 when the
//! position is an untouched start, else unknown (not counted in the minimum and maximum).

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use shakmaty::{Color, EnPassantMode, Position, Setup};

use crate::books::openings::{Opening, OpeningFormat, read_openings};
use crate::books::package::ClientHashes;
use crate::records::record::{
    CheckOptions, Field, Line, Problem, ProblemKind, RecordKind, Syntax, ValidRecord, check_line,
    epd_operand,
};
use crate::starts::identify::identify_setup;
use crate::starts::notation::{CastlingNotation, epd_fields};
use crate::starts::start::{Start, parse_spec};

/// At most this many duplicated positions are listed by line (all are counted).
pub const DUPLICATES_LISTED: usize = 10;

/// What one book holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BookStats {
    /// Valid records (fishtest's `total`).
    pub total: u64,
    /// Records with white to move.
    pub white: u64,
    /// Records with black to move.
    pub black: u64,
    /// The fewest plies from the start (`null` when no record says).
    pub min_depth: Option<u64>,
    /// The most plies from the start.
    pub max_depth: Option<u64>,
    /// fishtest's integrity hash of the text: base64 of its SHA-384 (`null` when the text is
    /// not UTF-8: the clients cannot read it).
    pub sri: Option<String>,
    /// OpenBench's hash of the text: SHA-256, hex.
    pub sha256: Option<String>,
    /// Records whose plies from the start are unknown.
    pub unknown_depth: u64,
    /// Distinct starts the records come from.
    pub starts: u64,
    /// Records whose start is unknown (no `c0` or `id` naming it, not a start itself).
    pub unknown_start: u64,
    /// Positions per start: fewest, median, most (`null` when no start is known).
    pub per_start: Option<Spread>,
    /// Records whose position (board, side to move, castling, en passant) an earlier
    /// record already has.
    pub duplicates: u64,
    /// Up to [`DUPLICATES_LISTED`] of them: `[line, line of the first]`.
    pub duplicate_lines: Vec<[u64; 2]>,
    /// The `ce` operands, when any record has one: as written, from the side to move's
    /// view (EPD's definition).
    pub eval: Option<EvalStats>,
    /// The same from White's view (negated with black to move): what `--window` bounds.
    pub eval_white: Option<EvalStats>,
    /// Invalid records (reported separately; not counted above).
    pub invalid: u64,
    /// Records per start, in start order (not in the JSON: `starts` and `per_start` are).
    #[serde(skip)]
    pub per_start_counts: BTreeMap<Start, u64>,
}

/// Fewest, median and most of a count.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spread {
    /// The fewest.
    pub min: u64,
    /// The median (the lower middle of an even number).
    pub median: u64,
    /// The most.
    pub max: u64,
}

/// The distribution of the `ce` operands, in centipawns as written (EPD's `ce` is from the
/// side to move's point of view).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalStats {
    /// Records with a `ce`.
    pub count: u64,
    /// The lowest.
    pub min: i64,
    /// First quartile (nearest rank).
    pub q1: i64,
    /// Median (nearest rank).
    pub median: i64,
    /// Third quartile (nearest rank).
    pub q3: i64,
    /// The highest.
    pub max: i64,
    /// The mean, rounded to a tenth.
    pub mean: f64,
    /// Equal-width buckets from `min` to `max`: `[from, to)`, the last one closed.
    pub histogram: Vec<Bucket>,
    /// Records whose `ce` is not an integer.
    pub unreadable: u64,
}

/// One histogram bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Bucket {
    /// Lowest value in the bucket.
    pub from: i64,
    /// One past the highest (the last bucket holds `to` too).
    pub to: i64,
    /// Values in it.
    pub count: u64,
}

/// An invalid record: its line and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// 1-based line.
    pub line: u64,
    /// Column and reason.
    pub problem: Problem,
}

/// The statistics of a book whose file is named `name` (the name chooses PGN or one record
/// a line, as in `sp960 validate`), and its invalid records.
pub fn book_stats(name: &str, bytes: &[u8]) -> (BookStats, Vec<Diagnostic>) {
    let text = bytes
        .strip_prefix(crate::starts::notation::BOM)
        .unwrap_or(bytes);
    let mut builder = Builder::default();
    let mut diagnostics = Vec::new();
    if Syntax::detect(name, text) == Syntax::Pgn {
        // Games: the FEN tag and the moves from it, read as `sp960 match --openings` reads
        // them; the first bad game is reported.
        match read_openings(
            &String::from_utf8_lossy(text),
            name,
            OpeningFormat::Pgn,
            None,
        ) {
            Ok(openings) => {
                for opening in &openings {
                    let line = opening
                        .label
                        .rsplit_once(':')
                        .and_then(|(_, line)| line.parse().ok())
                        .unwrap_or(0);
                    builder.add_game(line, opening);
                }
            }
            Err(err) => diagnostics.push(Diagnostic {
                line: err.line as u64,
                problem: Problem {
                    column: 1,
                    field: Field::Line,
                    kind: ProblemKind::Pgn,
                    message: err.reason,
                },
            }),
        }
    } else {
        records(text, &mut builder, &mut diagnostics);
    }
    let hashes = ClientHashes::of(bytes).ok();
    let mut stats = builder.finish(hashes);
    stats.invalid = diagnostics.len() as u64;
    (stats, diagnostics)
}

/// One record a line.
fn records(text: &[u8], builder: &mut Builder, diagnostics: &mut Vec<Diagnostic>) {
    let options = CheckOptions::default();
    for (index, line) in text.split(|&byte| byte == b'\n').enumerate() {
        let number = index as u64 + 1;
        let Some(span) = Syntax::Records.record_span(line) else {
            continue;
        };
        let offset = span.start;
        match check_line(&line[span], &options) {
            Line::Blank | Line::Comment => {}
            Line::Record(Ok(record)) => builder.add(number, &record),
            Line::Record(Err(mut problem)) => {
                problem.column += offset;
                diagnostics.push(Diagnostic {
                    line: number,
                    problem,
                });
            }
        }
    }
}

#[derive(Default)]
struct Builder {
    total: u64,
    white: u64,
    black: u64,
    depths: Option<(u64, u64)>,
    unknown_depth: u64,
    per_start: BTreeMap<Start, u64>,
    unknown_start: u64,
    seen: HashMap<String, u64>,
    duplicates: u64,
    duplicate_lines: Vec<[u64; 2]>,
    evals: Vec<i64>,
    evals_white: Vec<i64>,
    unreadable_evals: u64,
}

impl Builder {
    fn add(&mut self, line: u64, record: &ValidRecord<'_>) {
        let setup = record.position.to_setup(EnPassantMode::Legal);
        let is_start = identify_setup(&setup, false).ok();
        let c0 = epd_operand(record.operations, "c0").map(read_c0);
        let start = is_start
            .or_else(|| c0.as_ref().and_then(|c0| c0.start))
            .or_else(|| epd_operand(record.operations, "id").and_then(labelled_start));
        let plies = plies(record, c0.as_ref(), is_start.is_some());
        let ce = epd_operand(record.operations, "ce");
        self.add_position(line, &setup, start, plies, ce);
    }

    /// A PGN game: its root (the FEN tag) and moves.
    fn add_game(&mut self, line: u64, opening: &Opening) {
        let root = opening.root.to_setup(EnPassantMode::Legal);
        let start = identify_setup(&root, false).ok();
        let root_plies =
            (u64::from(root.fullmoves.get()) - 1) * 2 + u64::from(root.turn == Color::Black);
        let setup = opening.position().to_setup(EnPassantMode::Legal);
        let plies = root_plies + opening.moves.len() as u64;
        self.add_position(line, &setup, start, Some(plies), None);
    }

    fn add_position(
        &mut self,
        line: u64,
        setup: &Setup,
        start: Option<Start>,
        plies: Option<u64>,
        ce: Option<&str>,
    ) {
        self.total += 1;
        match setup.turn {
            Color::White => self.white += 1,
            Color::Black => self.black += 1,
        }
        match start {
            Some(start) => *self.per_start.entry(start).or_default() += 1,
            None => self.unknown_start += 1,
        }
        match plies {
            Some(plies) => {
                let (low, high) = self.depths.get_or_insert((plies, plies));
                *low = (*low).min(plies);
                *high = (*high).max(plies);
            }
            None => self.unknown_depth += 1,
        }
        let key = epd_fields(setup, CastlingNotation::Shredder);
        match self.seen.get(&key) {
            Some(&first) => {
                self.duplicates += 1;
                if self.duplicate_lines.len() < DUPLICATES_LISTED {
                    self.duplicate_lines.push([line, first]);
                }
            }
            None => {
                self.seen.insert(key, line);
            }
        }
        if let Some(ce) = ce {
            match ce.parse::<i64>() {
                Ok(value) => {
                    self.evals.push(value);
                    self.evals_white.push(match setup.turn {
                        Color::White => value,
                        Color::Black => value.saturating_neg(),
                    });
                }
                Err(_) => self.unreadable_evals += 1,
            }
        }
    }

    fn finish(self, hashes: Option<ClientHashes>) -> BookStats {
        let mut counts: Vec<u64> = self.per_start.values().copied().collect();
        counts.sort_unstable();
        let per_start = (!counts.is_empty()).then(|| Spread {
            min: counts[0],
            median: counts[(counts.len() - 1) / 2],
            max: counts[counts.len() - 1],
        });
        let eval = eval_stats(self.evals, self.unreadable_evals);
        let eval_white = eval_stats(self.evals_white, self.unreadable_evals);
        BookStats {
            total: self.total,
            white: self.white,
            black: self.black,
            min_depth: self.depths.map(|(low, _)| low),
            max_depth: self.depths.map(|(_, high)| high),
            sri: hashes.as_ref().map(|h| h.sri.clone()),
            sha256: hashes.map(|h| h.sha256),
            unknown_depth: self.unknown_depth,
            starts: self.per_start.len() as u64,
            unknown_start: self.unknown_start,
            per_start,
            duplicates: self.duplicates,
            duplicate_lines: self.duplicate_lines,
            eval,
            eval_white,
            invalid: 0,
            per_start_counts: self.per_start,
        }
    }
}

/// What a `c0` operand says: the start it names (`SP 860`, `DFRC 0:959`) and its UCI moves.
#[derive(Debug, Clone, PartialEq, Eq)]
struct C0 {
    start: Option<Start>,
    moves: u64,
}

fn read_c0(text: &str) -> C0 {
    let tokens: Vec<&str> = text
        .split(|c: char| c.is_ascii_whitespace() || c == ',' || c == ';')
        .filter(|token| !token.is_empty())
        .collect();
    let mut start = None;
    for pair in tokens.windows(2) {
        if start.is_none() {
            start = labelled_start(&format!("{} {}", pair[0], pair[1]));
        }
    }
    let moves = tokens.iter().filter(|token| is_uci_move(token)).count() as u64;
    C0 { start, moves }
}

/// `e2e4`, `e7e8q`, `e1h1` (Chess960 castling, king takes rook).
fn is_uci_move(token: &str) -> bool {
    let bytes = token.as_bytes();
    let square =
        |at: usize| (b'a'..=b'h').contains(&bytes[at]) && (b'1'..=b'8').contains(&bytes[at + 1]);
    match bytes.len() {
        4 => square(0) && square(2),
        5 => square(0) && square(2) && b"qrbn".contains(&bytes[4]),
        _ => false,
    }
}

/// The start an `id`/`c0` label names: `SP 860` or `DFRC 0:959` (any case, the trailing
/// `:` of `SP 860:` ignored).
fn labelled_start(label: &str) -> Option<Start> {
    let (kind, number) = label.trim().split_once(' ')?;
    if !kind.eq_ignore_ascii_case("SP") && !kind.eq_ignore_ascii_case("DFRC") {
        return None;
    }
    let number = number.trim().trim_end_matches(':');
    match parse_spec(number).ok()?.as_slice() {
        [start] => Some(*start),
        _ => None,
    }
}

fn plies(record: &ValidRecord<'_>, c0: Option<&C0>, is_start: bool) -> Option<u64> {
    if let Some(c0) = c0.filter(|c0| c0.moves > 0 || c0.start.is_some()) {
        return Some(c0.moves);
    }
    let fullmoves = match record.kind {
        RecordKind::Fen => Some(u64::from(record.position.fullmoves().get())),
        RecordKind::Epd => epd_operand(record.operations, "fmvn")
            .and_then(|n| n.parse::<u64>().ok())
            .filter(|&n| n >= 1),
    };
    match fullmoves {
        Some(n) => Some((n - 1) * 2 + u64::from(record.position.turn() == Color::Black)),
        None if is_start => Some(0),
        None => None,
    }
}

fn eval_stats(mut values: Vec<i64>, unreadable: u64) -> Option<EvalStats> {
    if values.is_empty() {
        return (unreadable > 0).then(|| EvalStats {
            count: 0,
            min: 0,
            q1: 0,
            median: 0,
            q3: 0,
            max: 0,
            mean: 0.0,
            histogram: Vec::new(),
            unreadable,
        });
    }
    values.sort_unstable();
    let n = values.len();
    // Nearest rank: the smallest value with at least p of the values at or below it.
    let rank = |p: usize| values[(n * p).div_ceil(100).max(1) - 1];
    let sum: i128 = values.iter().map(|&v| i128::from(v)).sum();
    let mean = (sum as f64 / n as f64 * 10.0).round() / 10.0;
    let (min, max) = (values[0], values[n - 1]);
    Some(EvalStats {
        count: n as u64,
        min,
        q1: rank(25),
        median: rank(50),
        q3: rank(75),
        max,
        mean,
        histogram: histogram(&values, min, max),
        unreadable,
    })
}

/// Up to ten buckets of a round width (1, 2, 5, 10, 20, 50, ... centipawns) from a multiple
/// of the width at or below `min`.
fn histogram(sorted: &[i64], min: i64, max: i64) -> Vec<Bucket> {
    let span = max.saturating_sub(min).max(1);
    let mut width: i64 = 1;
    'widths: for scale in [1i64, 10, 100, 1_000, 10_000, 100_000, 1_000_000] {
        for step in [1, 2, 5] {
            width = step * scale;
            if span / width < 10 {
                break 'widths;
            }
        }
    }
    let first = min.div_euclid(width) * width;
    let mut buckets = Vec::new();
    let mut from = first;
    while from <= max {
        buckets.push(Bucket {
            from,
            to: from + width,
            count: 0,
        });
        from += width;
    }
    let last = buckets.len() - 1;
    for &value in sorted {
        let index = ((value - first) / width) as usize;
        buckets[index.min(last)].count += 1;
    }
    buckets
}

/// Books' statistics keyed by name, in the order given, as one JSON object (books.json's
/// shape: `{"NAME": {"total": ..., ...}}`).
pub struct ByName<'a, T>(pub &'a [(String, T)]);

impl<T: Serialize> Serialize for ByName<'_, T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(name, value)| (name, value)))
    }
}

/// The statistics as text, one `name: value` line each.
pub fn render_text(name: &str, stats: &BookStats) -> String {
    use std::fmt::Write as _;
    let mut text = String::new();
    let depth = |d: Option<u64>| d.map_or("unknown".to_owned(), |d| d.to_string());
    let _ = writeln!(text, "{name}:");
    let _ = writeln!(
        text,
        "  positions      {} ({} white to move, {} black to move)",
        stats.total, stats.white, stats.black
    );
    let _ = write!(
        text,
        "  plies          {} to {} from the start",
        depth(stats.min_depth),
        depth(stats.max_depth)
    );
    if stats.unknown_depth > 0 {
        let _ = write!(text, " ({} records unknown)", stats.unknown_depth);
    }
    text.push('\n');
    let _ = write!(text, "  starts         {}", stats.starts);
    if let Some(spread) = stats.per_start {
        let _ = write!(
            text,
            ", positions per start {} / {} / {} (min / median / max)",
            spread.min, spread.median, spread.max
        );
    }
    if stats.unknown_start > 0 {
        let _ = write!(
            text,
            "; {} records of an unknown start",
            stats.unknown_start
        );
    }
    text.push('\n');
    let _ = write!(text, "  duplicates     {}", stats.duplicates);
    for [line, first] in &stats.duplicate_lines {
        let _ = write!(text, "\n    line {line} repeats line {first}");
    }
    if stats.duplicates > stats.duplicate_lines.len() as u64 {
        let _ = write!(
            text,
            "\n    ... and {} more",
            stats.duplicates - stats.duplicate_lines.len() as u64
        );
    }
    text.push('\n');
    match (&stats.eval, &stats.eval_white) {
        (Some(eval), Some(white)) => {
            write_eval(&mut text, "ce (side to move)", eval);
            write_eval(&mut text, "ce (White's view)", white);
        }
        _ => text.push_str("  evaluation     none (no ce operands)\n"),
    }
    let _ = writeln!(
        text,
        "  sri            {}",
        stats.sri.as_deref().unwrap_or("none (not UTF-8)")
    );
    let _ = writeln!(
        text,
        "  sha256         {}",
        stats.sha256.as_deref().unwrap_or("none (not UTF-8)")
    );
    if stats.invalid > 0 {
        let _ = writeln!(
            text,
            "  invalid        {} records (not counted)",
            stats.invalid
        );
    }
    text
}

fn write_eval(text: &mut String, title: &str, eval: &EvalStats) {
    use std::fmt::Write as _;
    let _ = writeln!(
        text,
        "  {title} of {} records: min {}, q1 {}, median {}, q3 {}, max {}, mean {}",
        eval.count, eval.min, eval.q1, eval.median, eval.q3, eval.max, eval.mean
    );
    if eval.unreadable > 0 {
        let _ = writeln!(text, "    {} ce operands are not integers", eval.unreadable);
    }
    let most = eval
        .histogram
        .iter()
        .map(|b| b.count)
        .max()
        .unwrap_or(1)
        .max(1);
    for bucket in &eval.histogram {
        let bar = "#".repeat(((bucket.count * 40).div_ceil(most)) as usize);
        let _ = writeln!(
            text,
            "    [{:>6}, {:>6})  {:>8}  {bar}",
            bucket.from, bucket.to, bucket.count
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(name: &str, text: &str) -> BookStats {
        let (stats, diagnostics) = book_stats(name, text.as_bytes());
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        stats
    }

    #[test]
    fn starts_plies_duplicates_and_sides() {
        let book = "\
# a comment
rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - id \"SP 860\";
rbknrnbq/pppppppp/8/8/4P3/8/PPPP1PPP/RBKNRNBQ b EAea - c0 \"SP 860: e2e4\"; ce 20;
rbknrnbq/pppppppp/8/8/4P3/8/PPPP1PPP/RBKNRNBQ b EAea - id \"SP 860\"; ce -10;
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1

rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
";
        let s = stats("b.epd", book);
        assert_eq!((s.total, s.white, s.black), (5, 3, 2));
        assert_eq!(
            (s.min_depth, s.max_depth, s.unknown_depth),
            (Some(0), Some(2), 1)
        );
        assert_eq!(s.starts, 2);
        assert_eq!(s.per_start_counts.len(), 2);
        assert_eq!(s.unknown_start, 1, "the 1.e4 e5 FEN names no start");
        assert_eq!(
            s.per_start,
            Some(Spread {
                min: 1,
                median: 1,
                max: 3
            })
        );
        assert_eq!((s.duplicates, s.duplicate_lines.clone()), (1, vec![[4, 3]]));
        let eval = s.eval.unwrap();
        assert_eq!(
            (eval.count, eval.min, eval.max, eval.median),
            (2, -10, 20, -10)
        );
    }

    #[test]
    fn invalid_records_are_reported_with_line_and_column() {
        let (s, diagnostics) = book_stats(
            "b.epd",
            b"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea -\nrbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ x EAea -\n",
        );
        assert_eq!((s.total, s.invalid), (1, 1));
        assert_eq!(diagnostics[0].line, 2);
        assert_eq!(diagnostics[0].problem.column, 45);
    }

    #[test]
    fn quartiles_and_histogram() {
        let values: Vec<i64> = (1..=100).collect();
        let eval = eval_stats(values, 0).unwrap();
        assert_eq!((eval.q1, eval.median, eval.q3), (25, 50, 75));
        assert_eq!(eval.mean, 50.5);
        assert_eq!(eval.histogram.iter().map(|b| b.count).sum::<u64>(), 100);
        assert_eq!(eval.histogram[0].from, 0);
        assert_eq!(eval.histogram[0].to - eval.histogram[0].from, 10);
        let one = eval_stats(vec![-35], 0).unwrap();
        assert_eq!(
            one.histogram,
            vec![Bucket {
                from: -35,
                to: -34,
                count: 1
            }]
        );
    }

    #[test]
    fn c0_labels_and_moves() {
        let c0 = read_c0("SP 860: e2e4 e7e5 g1f3");
        assert_eq!(c0.moves, 3);
        assert_eq!(c0.start.unwrap().to_string(), "860");
        assert_eq!(
            read_c0("DFRC 0:959 b1c3").start.unwrap().to_string(),
            "0:959"
        );
        assert!(!is_uci_move("e2e9") && is_uci_move("e7e8q") && !is_uci_move("SP"));
    }
}
