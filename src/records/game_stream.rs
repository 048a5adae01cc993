//! A PGN stream checked game by game with bounded memory: whole games are cut from blocks
//! of lines ([`game_starts`]), a batch of them checked on all cores (rayon) while the next
//! batch is read, and each piece's verdicts handed to a sink in input order. Memory holds
//! a batch of blocks and one game's tail. `validate` prints what the sink is given;
//! `sp960 results` tallies it.

use std::io::{self, Read};

use rayon::prelude::*;

use crate::records::check::CheckOptions;
use crate::records::game::{Finding, FindingKind, GameVerdict, Severity, check_games};
use crate::records::line_blocks::{Block, LineBlocks, MAX_LINE_BYTES, strip_bom};
use crate::records::pgn::{MAX_GAME_BYTES, complete_games, game_starts};
use crate::records::record::Problem;

/// What checking one piece of a PGN input found: its games, and its bytes.
#[derive(Debug, Default)]
pub struct GamesPiece {
    /// Bytes of the input the piece covers (for a progress bar).
    pub bytes: u64,
    /// Its games, in input order.
    pub games: Vec<GameVerdict>,
    /// A line too long to keep, after the games (its line in the file).
    pub overlong: Option<(u64, Problem)>,
}

/// Why a stream of games stopped: reading it, or the sink.
#[derive(Debug)]
pub enum GameStreamError {
    /// The input could not be read.
    Read(io::Error),
    /// The sink failed (writing a report).
    Sink(io::Error),
}

/// Checks every game of `reader` (a UTF-8 byte-order mark skipped) and hands the pieces to
/// `sink` in input order.
pub fn stream_games<R: Read + Send>(
    reader: R,
    options: CheckOptions,
    sink: impl FnMut(&GamesPiece) -> io::Result<()>,
) -> Result<(), GameStreamError> {
    let (_, reader) = strip_bom(reader).map_err(GameStreamError::Read)?;
    let mut blocks = LineBlocks::new(reader);
    let first = read_batch(&mut blocks, batch_len()).map_err(GameStreamError::Read)?;
    stream_blocks(blocks, first, options, sink)
}

/// Blocks read into a batch for each thread.
const BLOCKS_PER_THREAD: usize = 4;

fn batch_len() -> usize {
    rayon::current_num_threads().max(1) * BLOCKS_PER_THREAD
}

fn read_batch<R: Read>(blocks: &mut LineBlocks<R>, len: usize) -> io::Result<Vec<Block>> {
    let mut batch = Vec::with_capacity(len);
    while batch.len() < len {
        match blocks.next_block(None)? {
            Some(block) => batch.push(block),
            None => break,
        }
    }
    Ok(batch)
}

/// [`stream_games`] from a stream whose first blocks are already read (`first_batch`).
///
/// Two stages overlap: while the cores check one batch's games, the next batch is read (and
/// decompressed, where the input is compressed) and cut into whole games on the side. A
/// batch's cut is the part that is serial (finding where games begin, counting lines), so
/// checking no longer waits for it.
pub fn stream_blocks<R: Read + Send>(
    mut blocks: LineBlocks<R>,
    first_batch: Vec<Block>,
    options: CheckOptions,
    mut sink: impl FnMut(&GamesPiece) -> io::Result<()>,
) -> Result<(), GameStreamError> {
    let threads = rayon::current_num_threads().max(1);
    let mut cutter = Cutter::new(threads);
    let mut cut = cutter.cut(first_batch);
    loop {
        let at_end = cut.at_end;
        let (next, reports) = rayon::join(
            || {
                if at_end {
                    return Ok(None);
                }
                let batch = read_batch(&mut blocks, batch_len())?;
                Ok(Some(cutter.cut(batch)))
            },
            || cut.check(options),
        );
        for report in &reports {
            sink(report).map_err(GameStreamError::Sink)?;
        }
        match next.map_err(GameStreamError::Read)? {
            Some(next) if !next.is_empty() || !next.at_end => cut = next,
            _ => return Ok(()),
        }
    }
}

/// Pieces a batch is cut into for each thread: more than one, so that the thread that read
/// and cut the next batch takes its share of this one's checking when it is done (measured
/// on 2 cores, docs/benchmarks.md: one piece a thread and two blocks, 1.23x one thread; four
/// pieces and four blocks, 1.89x).
const PIECES_PER_THREAD: usize = 4;

/// Cuts batches of blocks into whole games, keeping the tail of a game not yet complete for
/// the next batch.
struct Cutter {
    threads: usize,
    /// Lines before the next batch's first byte.
    first_line: u64,
    /// The text of a game not yet complete.
    pending: Vec<u8>,
}

/// One batch cut into pieces for the cores: the texts that a line too long to keep ended
/// (rare), then the batch's complete games in spans of about equal size, each piece with its
/// first line in the file and its lines, known before it is checked.
struct Cut {
    interrupted: Vec<(Vec<u8>, u64)>,
    text: Vec<u8>,
    spans: Vec<std::ops::Range<usize>>,
    lines: Vec<(u64, u64)>,
    /// The input ended: the last game, complete or not, is in `text`.
    at_end: bool,
}

impl Cut {
    /// Nothing to check.
    fn is_empty(&self) -> bool {
        self.interrupted.is_empty() && self.text.is_empty()
    }

    /// The pieces in input order: the interrupted texts, each with the length of the line
    /// that ended it, then the spans of `text`.
    fn pieces(&self) -> impl Iterator<Item = (&[u8], Option<u64>)> {
        (self.interrupted.iter())
            .map(|(text, length)| (&text[..], Some(*length)))
            .chain(
                self.spans
                    .iter()
                    .map(|span| (&self.text[span.clone()], None)),
            )
    }

    /// Checks every piece on the cores, in input order.
    fn check(&self, options: CheckOptions) -> Vec<GamesPiece> {
        let pieces: Vec<_> = self.pieces().collect();
        pieces
            .par_iter()
            .zip(&self.lines)
            .map(|(&(text, overlong), &(before, lines))| {
                check_piece(text, overlong, before, lines, options)
            })
            .collect()
    }
}

impl Cutter {
    fn new(threads: usize) -> Self {
        Cutter {
            threads,
            first_line: 0,
            pending: Vec::new(),
        }
    }

    /// Cuts `batch`; an empty batch means the input ended.
    fn cut(&mut self, batch: Vec<Block>) -> Cut {
        let at_end = batch.is_empty();
        let mut interrupted: Vec<(Vec<u8>, u64)> = Vec::new();
        for block in batch {
            match block {
                Block::Lines(data) => self.pending.extend_from_slice(&data),
                Block::Overlong(length) => {
                    interrupted.push((std::mem::take(&mut self.pending), length));
                }
            }
        }
        // Where the games begin, found once: the cut for the next batch, and the cuts
        // between pieces for the cores.
        let starts: Vec<usize> = game_starts(&self.pending).collect();
        let complete = complete_games(&self.pending, &starts, at_end, MAX_GAME_BYTES);
        let rest = self.pending[complete..].to_vec();
        self.pending.truncate(complete);
        let text = std::mem::replace(&mut self.pending, rest);
        let target = text.len() / (self.threads * PIECES_PER_THREAD) + 1;
        let mut spans = Vec::new();
        let mut from = 0;
        for &cut in starts.iter().filter(|&&cut| cut < complete) {
            if cut - from >= target {
                spans.push(from..cut);
                from = cut;
            }
        }
        if from < text.len() {
            spans.push(from..text.len());
        }
        let mut cut = Cut {
            interrupted,
            text,
            spans,
            lines: Vec::new(),
            at_end,
        };
        // Each piece's first line and lines; the line too long to keep that ended an
        // interrupted text is a line of the file too.
        let mut lines = Vec::new();
        for (piece, overlong) in cut.pieces() {
            let count = memchr::memchr_iter(b'\n', piece).count() as u64;
            lines.push((self.first_line, count));
            self.first_line += count + u64::from(overlong.is_some());
        }
        cut.lines = lines;
        cut
    }
}

/// The games of one piece of text, `before` lines into the file; `overlong`: the length of
/// the too-long line that ended it.
fn check_piece(
    text: &[u8],
    overlong: Option<u64>,
    before: u64,
    lines: u64,
    options: CheckOptions,
) -> GamesPiece {
    let mut games = check_games(text, options, before as usize);
    let bytes = text.len() as u64 + overlong.unwrap_or(0);
    let mut overlong = overlong.map(|length| {
        (
            before + lines + 1,
            Problem::line_too_long(length, MAX_LINE_BYTES),
        )
    });
    // A line too long to keep belongs to the game it interrupts: that game is invalid,
    // with the line as its error.
    if let (Some((line, problem)), Some(game)) = (&overlong, games.last_mut()) {
        game.findings.push(Finding {
            line: *line as usize,
            column: problem.column,
            severity: Severity::Error,
            kind: FindingKind::LineTooLong,
            message: format!("game at line {}: {}", game.line, problem.message),
        });
        overlong = None;
    }
    GamesPiece {
        bytes,
        games,
        overlong,
    }
}

#[cfg(test)]
#[path = "game_stream_tests.rs"]
mod tests;
