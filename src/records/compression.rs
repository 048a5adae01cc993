//! How a text was stored, the one table of it: the compressed stream formats an input can
//! come in (gzip, zstd, bzip2, xz), each told by its first bytes, decoded every member or
//! frame or stream, and encoded again for `normalize --in-place`; and an entry of a zip
//! archive. Their names in messages and the suffixes their files carry are written here
//! only. All pure Rust (no C to cross-compile for mingw, macOS and aarch64-musl with zig).
//!
//! Reads and writes nothing of its own: [`open`](super::open) hands it the bytes.

use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};

/// The largest zstd window read: `zstd --long=31`'s 2 GiB.
const ZSTD_MAX_WINDOW: u64 = 1 << 31;

/// How much text goes into one zstd frame when one is written: the frames are compressed
/// in memory (ruzstd's encoder writes into a `Vec`, never failing half-way), so memory
/// stays flat however long the text.
const ZSTD_FRAME_TEXT: usize = 4 << 20;

/// A compressed stream format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// gzip (`.gz`), every member, through flate2's miniz_oxide backend.
    Gzip,
    /// zstd (`.zst`), every frame, windows up to 2 GiB, through ruzstd.
    Zstd,
    /// bzip2 (`.bz2`), every stream, through libbz2-rs-sys.
    Bzip2,
    /// xz (`.xz`), every stream, through lzma-rust2.
    Xz,
}

/// How a text was stored, when it was not a plain file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    /// A compressed stream.
    Compressed(Compression),
    /// An entry of a zip archive, by its place in the archive's directory.
    ZipEntry {
        /// The entry's index (`ZipArchive::by_index`).
        index: usize,
    },
}

impl Compression {
    /// Every format.
    #[cfg(test)]
    pub(crate) const ALL: [Compression; 4] = [
        Compression::Gzip,
        Compression::Zstd,
        Compression::Bzip2,
        Compression::Xz,
    ];

    /// Its name, as messages write it (`gzip`).
    pub fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
            Compression::Bzip2 => "bzip2",
            Compression::Xz => "xz",
        }
    }

    /// The suffix its files carry (`.gz`).
    pub fn suffix(self) -> &'static str {
        match self {
            Compression::Gzip => ".gz",
            Compression::Zstd => ".zst",
            Compression::Bzip2 => ".bz2",
            Compression::Xz => ".xz",
        }
    }

    /// "a gzip stream", "an xz stream".
    pub fn a_stream(self) -> String {
        match self {
            Compression::Xz => "an xz stream".to_owned(),
            other => format!("a {other} stream"),
        }
    }

    /// The format `head` (a stream's first bytes) starts as, if any.
    pub(crate) fn of(head: &[u8]) -> Option<Compression> {
        if head.starts_with(&[0x1f, 0x8b]) {
            Some(Compression::Gzip)
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) || is_zstd_skippable(head) {
            Some(Compression::Zstd)
        } else if head.len() >= 10
            && head.starts_with(b"BZh")
            && (b'1'..=b'9').contains(&head[3])
            && (head[4..10] == [0x31, 0x41, 0x59, 0x26, 0x53, 0x59]
                || head[4..10] == [0x17, 0x72, 0x45, 0x38, 0x50, 0x90])
        {
            Some(Compression::Bzip2)
        } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0x00]) {
            Some(Compression::Xz)
        } else {
            None
        }
    }

    /// The decompressed bytes of a stream of this format: every member, frame or stream
    /// of it, one after the other, as `zcat`, `zstd -dc`, `bzcat` and `xzcat` give them.
    pub fn decoder(self, raw: Box<dyn Read + Send>) -> Box<dyn Read + Send> {
        let raw = BufReader::with_capacity(1 << 16, raw);
        match self {
            Compression::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(raw)),
            Compression::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(raw)),
            Compression::Xz => Box::new(lzma_rust2::XzReader::new(raw, true)),
            Compression::Zstd => {
                let mut decoder = ruzstd::decoding::FrameDecoder::new();
                decoder.set_max_window_size(ZSTD_MAX_WINDOW);
                Box::new(ZstdFrames {
                    source: raw,
                    decoder,
                    in_frame: false,
                })
            }
        }
    }

    /// A writer that compresses what is written into `out` in this format, at the level
    /// its command-line tool uses by default (gzip 6, bzip2 9, xz 6; zstd ruzstd's fastest,
    /// about `zstd -1`); [`Encoder::finish`] ends the stream.
    pub fn encoder<W: Write>(self, out: W) -> io::Result<Encoder<W>> {
        Ok(Encoder(match self {
            Compression::Gzip => EncoderKind::Gzip(flate2::write::GzEncoder::new(
                out,
                flate2::Compression::default(),
            )),
            Compression::Bzip2 => EncoderKind::Bzip2(bzip2::write::BzEncoder::new(
                out,
                bzip2::Compression::best(),
            )),
            Compression::Xz => EncoderKind::Xz(lzma_rust2::XzWriter::new(
                out,
                lzma_rust2::XzOptions::with_preset(6),
            )?),
            Compression::Zstd => EncoderKind::Zstd(ZstdWriter {
                out,
                text: Vec::with_capacity(ZSTD_FRAME_TEXT),
            }),
        }))
    }
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Stored {
    /// What the file that held the text is (`a gzip stream`, `a zip archive`).
    pub fn a_file(self) -> String {
        match self {
            Stored::Compressed(compression) => compression.a_stream(),
            Stored::ZipEntry { .. } => "a zip archive".to_owned(),
        }
    }

    /// The name the text itself has, from the name diagnostics give it: the entry of
    /// `books.zip!book.epd`, `book.epd` for `book.epd.gz` (the name, when it carries no
    /// suffix of its format).
    pub fn text_name(self, name: &str) -> &str {
        match self {
            Stored::ZipEntry { .. } => name.rsplit_once('!').map_or(name, |(_, entry)| entry),
            Stored::Compressed(compression) => {
                name.strip_suffix(compression.suffix()).unwrap_or(name)
            }
        }
    }
}

fn is_zstd_skippable(head: &[u8]) -> bool {
    head.len() >= 4 && head[0] & 0xf0 == 0x50 && head[1..4] == [0x2a, 0x4d, 0x18]
}

/// A compressed stream being written ([`Compression::encoder`]).
pub struct Encoder<W: Write>(EncoderKind<W>);

enum EncoderKind<W: Write> {
    Gzip(flate2::write::GzEncoder<W>),
    Bzip2(bzip2::write::BzEncoder<W>),
    Xz(lzma_rust2::XzWriter<W>),
    Zstd(ZstdWriter<W>),
}

impl<W: Write> Encoder<W> {
    /// Ends the stream (its trailer written) and gives back the writer it went to.
    pub fn finish(self) -> io::Result<W> {
        match self.0 {
            EncoderKind::Gzip(encoder) => encoder.finish(),
            EncoderKind::Bzip2(encoder) => encoder.finish(),
            EncoderKind::Xz(encoder) => encoder.finish(),
            EncoderKind::Zstd(mut encoder) => {
                encoder.frame()?;
                Ok(encoder.out)
            }
        }
    }
}

impl<W: Write> Write for Encoder<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.0 {
            EncoderKind::Gzip(encoder) => encoder.write(buf),
            EncoderKind::Bzip2(encoder) => encoder.write(buf),
            EncoderKind::Xz(encoder) => encoder.write(buf),
            EncoderKind::Zstd(encoder) => encoder.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.0 {
            EncoderKind::Gzip(encoder) => encoder.flush(),
            EncoderKind::Bzip2(encoder) => encoder.flush(),
            EncoderKind::Xz(encoder) => encoder.flush(),
            // A frame ends only when it is full or the stream ends.
            EncoderKind::Zstd(encoder) => encoder.out.flush(),
        }
    }
}

/// zstd written as frames of [`ZSTD_FRAME_TEXT`] bytes of text each, compressed in memory.
struct ZstdWriter<W> {
    out: W,
    text: Vec<u8>,
}

impl<W: Write> ZstdWriter<W> {
    /// The text gathered so far, compressed as one frame into `out`.
    fn frame(&mut self) -> io::Result<()> {
        if self.text.is_empty() {
            return Ok(());
        }
        let frame = ruzstd::encoding::compress_to_vec(
            self.text.as_slice(),
            ruzstd::encoding::CompressionLevel::Fastest,
        );
        self.text.clear();
        self.out.write_all(&frame)
    }
}

impl<W: Write> Write for ZstdWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let room = ZSTD_FRAME_TEXT - self.text.len();
        let taken = buf.len().min(room);
        self.text.extend_from_slice(&buf[..taken]);
        if self.text.len() == ZSTD_FRAME_TEXT {
            self.frame()?;
        }
        Ok(taken)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Every frame of a zstd stream (skippable frames skipped), with ruzstd.
struct ZstdFrames<R: BufRead> {
    source: R,
    decoder: ruzstd::decoding::FrameDecoder,
    in_frame: bool,
}

impl<R: BufRead> Read for ZstdFrames<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use ruzstd::decoding::BlockDecodingStrategy;
        use ruzstd::decoding::errors::{FrameDecoderError, ReadFrameHeaderError};
        let invalid = |error: FrameDecoderError| io::Error::new(io::ErrorKind::InvalidData, error);
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if self.in_frame {
                let decoder = &mut self.decoder;
                while decoder.can_collect() == 0 && !decoder.is_finished() {
                    decoder
                        .decode_blocks(&mut self.source, BlockDecodingStrategy::UptoBlocks(1))
                        .map_err(invalid)?;
                }
                let read = decoder.read(buf)?;
                if read > 0 {
                    return Ok(read);
                }
                self.in_frame = false;
            }
            // The next frame, if any bytes are left.
            if self.source.fill_buf()?.is_empty() {
                return Ok(0);
            }
            match self.decoder.init(&mut self.source) {
                Ok(()) => self.in_frame = true,
                Err(FrameDecoderError::ReadFrameHeaderError(ReadFrameHeaderError::SkipFrame {
                    length,
                    ..
                })) => {
                    let skipped = io::copy(
                        &mut (&mut self.source).take(u64::from(length)),
                        &mut io::sink(),
                    )?;
                    if skipped < u64::from(length) {
                        return Err(io::Error::new(
                            io::ErrorKind::UnexpectedEof,
                            "a skippable frame is cut short",
                        ));
                    }
                }
                Err(error) => return Err(invalid(error)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &[u8] = b"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\n";

    fn compressed(compression: Compression, text: &[u8]) -> Vec<u8> {
        let mut encoder = compression.encoder(Vec::new()).unwrap();
        encoder.write_all(text).unwrap();
        encoder.finish().unwrap()
    }

    fn decompressed(compression: Compression, bytes: Vec<u8>) -> io::Result<Vec<u8>> {
        let mut text = Vec::new();
        compression
            .decoder(Box::new(io::Cursor::new(bytes)))
            .read_to_end(&mut text)?;
        Ok(text)
    }

    #[test]
    fn first_bytes_say_what_a_stream_is() {
        assert_eq!(Compression::of(b"\x1f\x8b\x08\0"), Some(Compression::Gzip));
        assert_eq!(
            Compression::of(b"\x28\xb5\x2f\xfd\x04"),
            Some(Compression::Zstd)
        );
        assert_eq!(
            Compression::of(b"\x50\x2a\x4d\x18\0"),
            Some(Compression::Zstd)
        );
        assert_eq!(Compression::of(b"BZh91AY&SY\0\0"), Some(Compression::Bzip2));
        assert_eq!(Compression::of(b"\xfd7zXZ\0\0"), Some(Compression::Xz));
        // Text that happens to start like a magic number is text.
        assert_eq!(Compression::of(b"BZh9 is no bzip2 header\n"), None);
    }

    /// What each encoder writes, its decoder reads back; and what it writes is that
    /// format by its first bytes.
    #[test]
    fn each_format_reads_what_it_writes() {
        let text = TEXT.repeat(1000);
        for compression in Compression::ALL {
            let bytes = compressed(compression, &text);
            assert!(
                bytes.len() < text.len() / 4,
                "{compression}: {}",
                bytes.len()
            );
            assert_eq!(Compression::of(&bytes), Some(compression));
            assert_eq!(
                decompressed(compression, bytes).unwrap(),
                text,
                "{compression}"
            );
        }
    }

    /// Two streams of a format one after the other (`cat a.xz b.xz`, pigz, `zstd -T`,
    /// pbzip2) are one text; a zstd text longer than a frame is written as several.
    #[test]
    fn concatenated_streams_are_one_text() {
        for compression in Compression::ALL {
            let two = [
                compressed(compression, b"one\n"),
                compressed(compression, b"two\n"),
            ]
            .concat();
            assert_eq!(
                decompressed(compression, two).unwrap(),
                b"one\ntwo\n",
                "{compression}"
            );
        }
        let long: Vec<u8> = TEXT
            .iter()
            .copied()
            .cycle()
            .take(ZSTD_FRAME_TEXT + 100)
            .collect();
        let bytes = compressed(Compression::Zstd, &long);
        assert_eq!(decompressed(Compression::Zstd, bytes).unwrap(), long);
    }

    /// A stream cut short is an error, never a shorter text.
    #[test]
    fn a_truncated_stream_is_an_error() {
        let text = TEXT.repeat(1000);
        for compression in Compression::ALL {
            let mut bytes = compressed(compression, &text);
            bytes.truncate(bytes.len() - 8);
            assert!(decompressed(compression, bytes).is_err(), "{compression}");
        }
    }

    #[test]
    fn a_text_is_named_without_its_store() {
        assert_eq!(
            Stored::ZipEntry { index: 0 }.text_name("books.zip!FRC.epd"),
            "FRC.epd"
        );
        assert_eq!(
            Stored::Compressed(Compression::Zstd).text_name("a.pgn.zst"),
            "a.pgn"
        );
        assert_eq!(
            Stored::Compressed(Compression::Gzip).text_name("a.download"),
            "a.download"
        );
        assert_eq!(Stored::Compressed(Compression::Xz).a_file(), "an xz stream");
        assert_eq!(Stored::ZipEntry { index: 0 }.a_file(), "a zip archive");
    }
}
