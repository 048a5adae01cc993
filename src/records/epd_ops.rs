//! EPD operations checked against the record's position, as `sp960 validate` checks them:
//! the moves of `bm`, `am` and `sm` must be legal there, `pv` must be a legal line from
//! there, and a perft suite's counts (`D<depth> <count>`, as in `;D1 20 ;D2 400`) must be
//! right, counted with shakmaty up to a depth. Other operations (`id`, `c0`, `acd`, …)
//! say nothing this module checks. Their syntax is [`super::record`]'s, checked before.
//!
//! Moves are read in SAN (`Nf3`, `O-O`, `0-0`, `exd6`, `e8=Q+`) or UCI in either castling
//! notation (`g1f3`; king takes rook, `e1h1`, or king to its square, `e1g1`), through
//! [`crate::starts::castling::parse_move`]. Counting is the expensive part: it runs last,
//! only for the counts before the first other problem of the record, and a count of depth
//! 3 or more splits the root moves among rayon's threads, so that one record of a suite
//! keeps every core busy even when a whole file is one block of lines.

use rayon::prelude::*;
use shakmaty::san::{San, SanError, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position, Role, Square, perft};

use super::check::Field;
use super::illegal_move::{role_name, san_why, uci_why};
use super::record::{Problem, ProblemKind};
use crate::starts::castling::parse_move;
use crate::starts::notation::{CastlingNotation, position_fen};

/// `--perft-depth` when none is given: a 960-position Chess960 suite (Ethereal's
/// `fischer.epd`) is counted to depth 4 in 2 s of CPU time; depth 5 takes 60 s.
pub const DEFAULT_PERFT_DEPTH: u32 = 4;

/// The deepest `--perft-depth`. Counts grow about 30-fold a ply: from 63 ms a position at
/// depth 5 (the same suite), depth 8 is about half an hour for each one.
pub const MAX_PERFT_DEPTH: u32 = 8;

/// The deepest perft operation read (`D15`); a deeper one is an error, never counted.
/// From the start position, the counts of depth 14 and more no longer fit in 64 bits.
pub const MAX_SUITE_DEPTH: u32 = 15;

/// The depth from which a count is shared among threads: below it a count is too small to
/// be worth the split.
const PARALLEL_DEPTH: u32 = 3;

/// Checks what `operations` (the record's operations, starting at byte `offset` of its
/// line) say about `position`: moves legal, perft counts up to `perft_depth` (at most
/// [`MAX_PERFT_DEPTH`]) right. The first problem in the line is returned.
pub fn check(
    position: &Chess,
    operations: &str,
    offset: usize,
    perft_depth: u32,
) -> Result<(), Problem> {
    let perft_depth = perft_depth.min(MAX_PERFT_DEPTH);
    let mut claims = Vec::new();
    let mut problem = None;
    for operation in Operations::new(operations) {
        let checked = match operation.opcode {
            "bm" | "am" | "sm" => check_moves(position, &operation, offset),
            "pv" => check_pv(position, &operation, offset),
            opcode => match perft_depth_of(opcode) {
                Some(depth) => read_claim(depth, &operation, offset).map(|claim| {
                    if claim.depth <= perft_depth {
                        claims.push(claim);
                    }
                }),
                None => Ok(()),
            },
        };
        if let Err(found) = checked {
            problem = Some(found);
            break;
        }
    }
    // The claims all come before `problem` in the line.
    let mut counted = [None; MAX_PERFT_DEPTH as usize + 1];
    for claim in claims {
        let right = *counted[claim.depth as usize]
            .get_or_insert_with(|| perft_count(position, claim.depth));
        if right != claim.count {
            return Err(Problem::new(
                claim.column,
                Field::Operations,
                ProblemKind::WrongPerftCount,
                format!(
                    "EPD operation D{} is {} here, the right count is {right}",
                    claim.depth, claim.count
                ),
            ));
        }
    }
    problem.map_or(Ok(()), Err)
}

/// The number of leaf nodes `depth` plies from `position` (shakmaty's [`perft`]), the root
/// moves shared among rayon's threads from [`PARALLEL_DEPTH`] on.
pub fn perft_count(position: &Chess, depth: u32) -> u64 {
    if depth < PARALLEL_DEPTH {
        return perft(position, depth);
    }
    position
        .legal_moves()
        .as_slice()
        .par_iter()
        .map(|&m| {
            let mut child = position.clone();
            child.play_unchecked(m);
            perft(&child, depth - 1)
        })
        .sum()
}

/// One operation: its opcode and its operands, with byte offsets in the operations.
struct Operation<'a> {
    opcode: &'a str,
    /// Offset of the opcode.
    at: usize,
    /// The operands' text, up to the `;` or the end.
    operands: Operands<'a>,
}

/// The operations of a record, one at a time (their syntax already checked).
struct Operations<'a> {
    text: &'a str,
    next: usize,
}

impl<'a> Operations<'a> {
    fn new(text: &'a str) -> Operations<'a> {
        Operations { text, next: 0 }
    }
}

impl<'a> Iterator for Operations<'a> {
    type Item = Operation<'a>;

    fn next(&mut self) -> Option<Operation<'a>> {
        let bytes = self.text.as_bytes();
        let mut i = self.next;
        while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b';') {
            i += 1;
        }
        if i == bytes.len() {
            self.next = i;
            return None;
        }
        let at = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
            i += 1;
        }
        let opcode = &self.text[at..i];
        let operands_at = i;
        let mut tokens = Operands {
            text: self.text,
            next: i,
        };
        while tokens.next().is_some() {}
        self.next = tokens.next;
        Some(Operation {
            opcode,
            at,
            operands: Operands {
                text: &self.text[..tokens.next],
                next: operands_at,
            },
        })
    }
}

/// The operands of one operation: plain tokens, or the inside of `"strings"`.
#[derive(Clone)]
struct Operands<'a> {
    /// The operations up to the end of this one (all of them while that end is sought).
    text: &'a str,
    next: usize,
}

/// One operand, with the offset of its text in the operations.
struct Operand<'a> {
    text: &'a str,
    at: usize,
    quoted: bool,
}

impl<'a> Iterator for Operands<'a> {
    type Item = Operand<'a>;

    fn next(&mut self) -> Option<Operand<'a>> {
        let bytes = self.text.as_bytes();
        let mut i = self.next;
        while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
            i += 1;
        }
        self.next = i;
        if i == bytes.len() || bytes[i] == b';' {
            return None;
        }
        if bytes[i] == b'"' {
            let at = i + 1;
            let end = memchr::memchr(b'"', &bytes[at..]).map_or(bytes.len(), |len| at + len);
            self.next = (end + 1).min(bytes.len());
            return Some(Operand {
                text: &self.text[at..end],
                at,
                quoted: true,
            });
        }
        let at = i;
        while i < bytes.len() && !matches!(bytes[i], b' ' | b'\t' | b';') {
            i += 1;
        }
        self.next = i;
        Some(Operand {
            text: &self.text[at..i],
            at,
            quoted: false,
        })
    }
}

/// A problem in the operations at `at` (an offset in them; `offset` is theirs in the line).
fn problem_at(offset: usize, at: usize, kind: ProblemKind, message: String) -> Problem {
    Problem::new(offset + at + 1, Field::Operations, kind, message)
}

/// `bm`, `am`, `sm`: one or more moves, each legal in `position`.
fn check_moves(position: &Chess, operation: &Operation<'_>, offset: usize) -> Result<(), Problem> {
    let mut any = false;
    for operand in operation.operands.clone() {
        any = true;
        read_move(position, operand.text).map_err(|unplayable| {
            let message = format!(
                "EPD operation {}: {}",
                operation.opcode,
                unplayable.describe(operand.text, "", "here")
            );
            problem_at(
                offset,
                operand.at,
                ProblemKind::IllegalOperationMove,
                message,
            )
        })?;
    }
    if any {
        return Ok(());
    }
    Err(problem_at(
        offset,
        operation.at,
        ProblemKind::InvalidOperation,
        format!(
            "EPD operation {}: no move (it names one or more moves, in SAN or UCI)",
            operation.opcode
        ),
    ))
}

/// `pv`: moves played one after the other from `position`.
fn check_pv(position: &Chess, operation: &Operation<'_>, offset: usize) -> Result<(), Problem> {
    let mut current = position.clone();
    let mut played: Vec<&str> = Vec::new();
    for operand in operation.operands.clone() {
        match read_move(&current, operand.text) {
            Ok(m) => {
                current.play_unchecked(m);
                played.push(operand.text);
            }
            Err(unplayable) => {
                let message = if played.is_empty() {
                    unplayable.describe(operand.text, "", "here")
                } else {
                    let label = format!(" (move {})", played.len() + 1);
                    let after = format!("after {}", played.join(" "));
                    let fen = position_fen(&current, CastlingNotation::Shredder);
                    let why = unplayable.describe(operand.text, &label, &after);
                    format!("{why}, in {fen}")
                };
                return Err(problem_at(
                    offset,
                    operand.at,
                    ProblemKind::IllegalOperationMove,
                    format!("EPD operation pv: {message}"),
                ));
            }
        }
    }
    if played.is_empty() {
        return Err(problem_at(
            offset,
            operation.at,
            ProblemKind::InvalidOperation,
            "EPD operation pv: no move (it names a line of moves, in SAN or UCI)".to_owned(),
        ));
    }
    Ok(())
}

/// Why a move operand cannot be played.
enum Unplayable {
    /// Neither SAN nor UCI.
    Unreadable,
    /// `--` or `0000`.
    Null,
    /// More than one piece of this kind can go to this square.
    Ambiguous(Role, Square),
    /// Readable, and no legal move here; why, for people.
    Illegal(String),
}

impl Unplayable {
    /// `Qxh7 is not a legal move here (no queen can go to h7)`: `text` is the move as
    /// written, `label` follows it (` (move 3)` in a line), `place` is where it was to be
    /// played (`here`, `after e4 e5`).
    fn describe(&self, text: &str, label: &str, place: &str) -> String {
        match self {
            Unplayable::Unreadable => format!(
                "`{text}`{label} is not a move (neither SAN, such as Nf3, nor UCI, such as g1f3)"
            ),
            Unplayable::Null => {
                format!("{text}{label} is a null move, not a move that can be played")
            }
            Unplayable::Ambiguous(role, to) => format!(
                "{text}{label} is ambiguous {place} (more than one {} can go to {to})",
                role_name(*role)
            ),
            Unplayable::Illegal(why) => {
                format!("{text}{label} is not a legal move {place} ({why})")
            }
        }
    }
}

/// `text` as a legal move in `position`: UCI (either castling notation) when it reads as
/// UCI, SAN otherwise (`0-0` read as `O-O`).
fn read_move(position: &Chess, text: &str) -> Result<Move, Unplayable> {
    let bytes = text.as_bytes();
    if let Ok(uci) = UciMove::from_ascii(bytes) {
        if uci == UciMove::Null {
            return Err(Unplayable::Null);
        }
        return parse_move(position, bytes)
            .map_err(|_| Unplayable::Illegal(uci_why(position, &uci)));
    }
    let mut castling = [0u8; 16];
    let bytes = match bytes {
        [b'0', b'-', b'0', ..] if bytes.len() <= castling.len() => {
            let castling = &mut castling[..bytes.len()];
            for (out, &byte) in castling.iter_mut().zip(bytes) {
                *out = if byte == b'0' { b'O' } else { byte };
            }
            &*castling
        }
        _ => bytes,
    };
    let san = SanPlus::from_ascii(bytes)
        .map_err(|_| Unplayable::Unreadable)?
        .san;
    san.to_move(position).map_err(|error| match (san, error) {
        (San::Null, _) => Unplayable::Null,
        (San::Normal { role, to, .. }, SanError::AmbiguousSan) => Unplayable::Ambiguous(role, to),
        (san, _) => Unplayable::Illegal(san_why(position, &san)),
    })
}

/// The depth of a perft operation's opcode (`D3`: 3, saturating), or `None` for any other
/// opcode.
fn perft_depth_of(opcode: &str) -> Option<u32> {
    let digits = opcode.strip_prefix('D')?;
    if digits.is_empty() || !digits.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    Some(digits.bytes().fold(0u32, |depth, digit| {
        depth
            .saturating_mul(10)
            .saturating_add(u32::from(digit - b'0'))
    }))
}

/// What a perft operation says: at `depth`, `count` leaf nodes; the count at `column`.
struct Claim {
    depth: u32,
    count: u64,
    column: usize,
}

/// A perft operation's depth and its one operand, a count.
fn read_claim(depth: u32, operation: &Operation<'_>, offset: usize) -> Result<Claim, Problem> {
    let opcode = operation.opcode;
    let invalid = |at: usize, message: String| {
        problem_at(
            offset,
            at,
            ProblemKind::InvalidOperation,
            format!("EPD operation {opcode}: {message}"),
        )
    };
    if depth == 0 {
        return Err(invalid(
            operation.at,
            "a perft depth is 1 or more".to_owned(),
        ));
    }
    if depth > MAX_SUITE_DEPTH {
        return Err(invalid(
            operation.at,
            format!(
                "depth {} is out of range: perft counts are read for depths 1 to {MAX_SUITE_DEPTH}",
                &opcode[1..]
            ),
        ));
    }
    let mut operands = operation.operands.clone();
    let Some(count) = operands.next() else {
        return Err(invalid(
            operation.at,
            format!("no count (write the number of leaf nodes at depth {depth}: `D{depth} N`)"),
        ));
    };
    if count.quoted || count.text.is_empty() || !count.text.bytes().all(|b| b.is_ascii_digit()) {
        let shown = if count.quoted {
            format!("\"{}\"", count.text)
        } else {
            count.text.to_owned()
        };
        let at = count.at - usize::from(count.quoted);
        return Err(invalid(
            at,
            format!("expected a count (digits 0-9), found `{shown}`"),
        ));
    }
    let Ok(number) = count.text.parse::<u64>() else {
        return Err(invalid(
            count.at,
            format!("count {} is too large (at most {})", count.text, u64::MAX),
        ));
    };
    if let Some(extra) = operands.next() {
        let at = extra.at - usize::from(extra.quoted);
        return Err(invalid(
            at,
            format!("one count expected, found more: `{}`", extra.text),
        ));
    }
    Ok(Claim {
        depth,
        count: number,
        column: offset + count.at + 1,
    })
}

#[cfg(test)]
#[path = "epd_ops_tests.rs"]
mod tests;
