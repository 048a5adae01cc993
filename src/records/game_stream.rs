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

fn batch_len() -> usize {
    rayon::current_num_threads().max(1) * 2
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
pub fn stream_blocks<R: Read + Send>(
    mut blocks: LineBlocks<R>,
    first_batch: Vec<Block>,
    options: CheckOptions,
    mut sink: impl FnMut(&GamesPiece) -> io::Result<()>,
) -> Result<(), GameStreamError> {
    let threads = rayon::current_num_threads().max(1);
    let mut batch = first_batch;
    // Lines read from the stream, and the text of a game not yet complete.
    let mut first_line: u64 = 0;
    let mut pending: Vec<u8> = Vec::new();
    loop {
        let at_end = batch.is_empty();
        // Texts of whole games: one ended by a line too long to keep (rare), then the
        // batch's complete games; the last game, perhaps incomplete, waits for the next.
        let mut interrupted: Vec<(Vec<u8>, u64)> = Vec::new();
        for block in batch.drain(..) {
            match block {
                Block::Lines(data) => pending.extend_from_slice(&data),
                Block::Overlong(length) => {
                    interrupted.push((std::mem::take(&mut pending), length));
                }
            }
        }
        // Where the games begin, found once: the cut for the next batch, and the cuts
        // between pieces for the cores (borrowed slices, not copies).
        let starts: Vec<usize> = game_starts(&pending).collect();
        let complete = complete_games(&pending, &starts, at_end, MAX_GAME_BYTES);
        let rest = pending[complete..].to_vec();
        pending.truncate(complete);
        let text = std::mem::replace(&mut pending, rest);
        let mut pieces: Vec<(&[u8], Option<u64>)> = interrupted
            .iter()
            .map(|(text, length)| (&text[..], Some(*length)))
            .collect();
        let target = text.len() / threads + 1;
        let mut from = 0;
        for &cut in starts.iter().filter(|&&cut| cut < complete) {
            if cut - from >= target {
                pieces.push((&text[from..cut], None));
                from = cut;
            }
        }
        if from < text.len() {
            pieces.push((&text[from..], None));
        }
        // Each piece's lines and first line in the file, known before they are checked.
        let mut lines_before = Vec::with_capacity(pieces.len());
        for (piece, overlong) in &pieces {
            let lines = memchr::memchr_iter(b'\n', piece).count() as u64;
            lines_before.push((first_line, lines));
            first_line += lines + u64::from(overlong.is_some());
        }
        let (next, reports) = rayon::join(
            || {
                if at_end {
                    Ok(Vec::new())
                } else {
                    read_batch(&mut blocks, threads * 2)
                }
            },
            || {
                pieces
                    .par_iter()
                    .zip(&lines_before)
                    .map(|(&(text, overlong), &(before, lines))| {
                        check_piece(text, overlong, before, lines, options)
                    })
                    .collect::<Vec<_>>()
            },
        );
        for report in &reports {
            sink(report).map_err(GameStreamError::Sink)?;
        }
        if at_end {
            return Ok(());
        }
        batch = next.map_err(GameStreamError::Read)?;
        if batch.is_empty() && pending.is_empty() {
            return Ok(());
        }
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
