//! Streaming a fixture file as blocks of whole lines, so that memory stays bounded whatever
//! the file size: about [`BLOCK_BYTES`] per block, a line at most [`MAX_LINE_BYTES`] long
//! (a longer one is reported and streamed past, never held in memory). [`strip_bom`] takes
//! a UTF-8 byte-order mark off the start of a stream.

use std::io::{self, ErrorKind, Read, Write};

/// The size a block of lines is cut at (the next line end after it).
pub const BLOCK_BYTES: usize = 256 * 1024;

/// The longest line kept in memory; a record is a few dozen bytes.
pub const MAX_LINE_BYTES: usize = 1 << 20;

const READ_BYTES: usize = 64 * 1024;
/// The UTF-8 byte-order mark.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// What the reader hands out next.
#[derive(Debug, PartialEq, Eq)]
pub enum Block {
    /// Whole lines, each ending in `\n` except perhaps the last line of the file.
    Lines(Vec<u8>),
    /// One line longer than [`MAX_LINE_BYTES`]: its length without the line end. Its bytes
    /// went to the sink given to [`LineBlocks::next_block`], if any.
    Overlong(u64),
}

/// Cuts a byte stream into [`Block`]s.
pub struct LineBlocks<R> {
    reader: R,
    buffer: Vec<u8>,
    /// How much of `buffer` is known to hold no `\n`.
    scanned: usize,
    eof: bool,
}

impl<R: Read> LineBlocks<R> {
    /// Reads from `reader`.
    pub fn new(reader: R) -> LineBlocks<R> {
        LineBlocks {
            reader,
            buffer: Vec::with_capacity(BLOCK_BYTES + READ_BYTES),
            scanned: 0,
            eof: false,
        }
    }

    /// The next block, or `None` at the end. An overlong line's bytes, line end included,
    /// are copied to `overlong_sink` as they stream past.
    pub fn next_block(
        &mut self,
        mut overlong_sink: Option<&mut dyn Write>,
    ) -> io::Result<Option<Block>> {
        while self.buffer.len() < BLOCK_BYTES && !self.eof {
            self.fill()?;
        }
        loop {
            if let Some(last) = memchr::memrchr(b'\n', &self.buffer[self.scanned..]) {
                let end = self.scanned + last + 1;
                let rest = self.buffer[end..].to_vec();
                let mut lines = std::mem::replace(&mut self.buffer, rest);
                lines.truncate(end);
                self.buffer.reserve(BLOCK_BYTES + READ_BYTES);
                self.scanned = 0;
                return Ok(Some(Block::Lines(lines)));
            }
            self.scanned = self.buffer.len();
            if self.eof {
                if self.buffer.is_empty() {
                    return Ok(None);
                }
                self.scanned = 0;
                return Ok(Some(Block::Lines(std::mem::take(&mut self.buffer))));
            }
            if self.buffer.len() > MAX_LINE_BYTES {
                return self
                    .skip_overlong(overlong_sink.take())
                    .map(|length| Some(Block::Overlong(length)));
            }
            self.fill()?;
        }
    }

    /// Streams the rest of a line that has no `\n` in the buffer, returning its length.
    fn skip_overlong(&mut self, mut sink: Option<&mut dyn Write>) -> io::Result<u64> {
        let mut length = 0u64;
        loop {
            if let Some(end) = memchr::memchr(b'\n', &self.buffer) {
                if let Some(sink) = sink.as_mut() {
                    sink.write_all(&self.buffer[..=end])?;
                }
                let content = if end > 0 && self.buffer[end - 1] == b'\r' {
                    end - 1
                } else {
                    end
                };
                length += content as u64;
                self.buffer.drain(..=end);
                self.scanned = 0;
                return Ok(length);
            }
            if let Some(sink) = sink.as_mut() {
                sink.write_all(&self.buffer)?;
            }
            length += self.buffer.len() as u64;
            self.buffer.clear();
            self.scanned = 0;
            if self.eof {
                return Ok(length);
            }
            self.fill()?;
        }
    }

    /// One read into the spare capacity of the buffer.
    fn fill(&mut self) -> io::Result<()> {
        let len = self.buffer.len();
        self.buffer.resize(len + READ_BYTES, 0);
        loop {
            match self.reader.read(&mut self.buffer[len..]) {
                Ok(read) => {
                    self.buffer.truncate(len + read);
                    self.eof = read == 0;
                    return Ok(());
                }
                Err(err) if err.kind() == ErrorKind::Interrupted => continue,
                Err(err) => {
                    self.buffer.truncate(len);
                    return Err(err);
                }
            }
        }
    }
}

/// A stream after [`strip_bom`]: the bytes read ahead that were no mark, then the rest.
pub type WithoutBom<R> = io::Chain<io::Cursor<Vec<u8>>, R>;

/// Takes a UTF-8 byte-order mark off the start of `reader`: whether there was one, and the
/// rest of the stream.
pub fn strip_bom<R: Read>(mut reader: R) -> io::Result<(bool, WithoutBom<R>)> {
    let mut head = Vec::with_capacity(BOM.len());
    while head.len() < BOM.len() {
        let mut byte = [0u8; 3];
        let want = BOM.len() - head.len();
        match reader.read(&mut byte[..want]) {
            Ok(0) => break,
            Ok(read) => head.extend_from_slice(&byte[..read]),
            Err(err) if err.kind() == ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    let had_bom = head == BOM;
    if had_bom {
        head.clear();
    }
    Ok((had_bom, io::Cursor::new(head).chain(reader)))
}

/// A line of a block: its text without the line end, and the line end (`\n`, `\r\n` or
/// nothing at the end of a file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineText<'a> {
    /// The line without `\r\n` or `\n`.
    pub text: &'a [u8],
    /// The line end as written.
    pub end: &'a [u8],
}

/// The lines of a block, in order.
pub fn lines(block: &[u8]) -> impl Iterator<Item = LineText<'_>> {
    let mut start = 0;
    let mut ends = memchr::memchr_iter(b'\n', block);
    std::iter::from_fn(move || {
        let (line, end) = match ends.next() {
            Some(newline) => {
                let line = &block[start..=newline];
                start = newline + 1;
                let cr = line.len() >= 2 && line[line.len() - 2] == b'\r';
                line.split_at(line.len() - 1 - usize::from(cr))
            }
            None if start < block.len() => {
                let line = &block[start..];
                start = block.len();
                (line, &line[line.len()..])
            }
            None => return None,
        };
        Some(LineText { text: line, end })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out at most `step` bytes per read, as pipes do.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    fn all_blocks(data: &[u8], step: usize) -> (Vec<Block>, bool, Vec<u8>) {
        let (bom, reader) = strip_bom(Trickle { data, step }).unwrap();
        let mut blocks = LineBlocks::new(reader);
        let mut sink = Vec::new();
        let mut out = Vec::new();
        while let Some(block) = blocks.next_block(Some(&mut sink)).unwrap() {
            out.push(block);
        }
        (out, bom, sink)
    }

    fn joined(blocks: &[Block]) -> Vec<u8> {
        blocks
            .iter()
            .flat_map(|block| match block {
                Block::Lines(lines) => lines.clone(),
                Block::Overlong(_) => Vec::new(),
            })
            .collect()
    }

    #[test]
    fn blocks_are_whole_lines_and_lose_nothing() {
        let mut data = Vec::new();
        for n in 0..100_000 {
            data.extend_from_slice(format!("line {n}\n").as_bytes());
        }
        data.extend_from_slice(b"last line without end");
        for step in [1 << 20, 4096, 1000] {
            let (blocks, bom, _) = all_blocks(&data, step);
            assert!(!bom);
            assert!(blocks.len() > 3, "{}", blocks.len());
            for block in &blocks[..blocks.len() - 1] {
                let Block::Lines(lines) = block else { panic!() };
                assert_eq!(lines.last(), Some(&b'\n'));
            }
            assert_eq!(joined(&blocks), data);
        }
    }

    #[test]
    fn bom_is_taken_off_and_remembered() {
        let (blocks, bom, _) = all_blocks(b"\xEF\xBB\xBFa\nb", 1);
        assert!(bom);
        assert_eq!(joined(&blocks), b"a\nb");
        let (blocks, bom, _) = all_blocks(b"", 1);
        assert!(!bom && blocks.is_empty());
        let (blocks, bom, _) = all_blocks(b"\xEF\xBB", 1);
        assert!(!bom);
        assert_eq!(joined(&blocks), b"\xEF\xBB");
    }

    #[test]
    fn overlong_line_streams_past_in_bounded_memory() {
        let mut data = b"short\n".to_vec();
        data.extend(std::iter::repeat_n(b'x', 3 * MAX_LINE_BYTES));
        data.extend_from_slice(b"\r\nafter\n");
        let (blocks, _, sink) = all_blocks(&data, 1 << 16);
        assert_eq!(blocks[0], Block::Lines(b"short\n".to_vec()));
        assert_eq!(blocks[1], Block::Overlong(3 * MAX_LINE_BYTES as u64));
        assert_eq!(blocks[2], Block::Lines(b"after\n".to_vec()));
        assert_eq!(sink.len(), 3 * MAX_LINE_BYTES + 2);
    }

    #[test]
    fn lines_split_line_ends() {
        let got: Vec<_> = lines(b"a\r\n\nb\nc").collect();
        let texts: Vec<&[u8]> = got.iter().map(|l| l.text).collect();
        let ends: Vec<&[u8]> = got.iter().map(|l| l.end).collect();
        assert_eq!(texts, [&b"a"[..], b"", b"b", b"c"]);
        assert_eq!(ends, [&b"\r\n"[..], b"\n", b"\n", b""]);
    }
}
