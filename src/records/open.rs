//! The one place an input is opened for its records: a file, or stdin, read as users
//! download them. What a file is comes from its first bytes, never its name: gzip (every
//! member), zstd (every frame, windows up to 2 GiB as `zstd --long=31` writes), bzip2 and
//! xz streams are decompressed; a zip archive is each of its entries in turn, named
//! `ARCHIVE!ENTRY` (an entry's name is only a name: nothing is ever written). What is not
//! text after that (a 7z archive, an image, binary data) is refused as a whole with one
//! [`OpenError::NotText`], before any line is read. The formats themselves (their first
//! bytes, decoders and names) are [`compression`](super::compression)'s.
//!
//! A stream that breaks while it is read (a truncated download) fails with an
//! [`io::Error`] naming the format and about where in the compressed bytes it broke; what
//! was read before it has been handed out as usual.

use std::convert::Infallible;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read, Seek};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::compression::{Compression, Stored};
use super::inputs::Input;

/// How many bytes of a stream are looked at to tell what it is.
const SNIFF_LEN: usize = 8 * 1024;

/// Why an input (or one entry of an archive) gives no text.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// It could not be opened or its first bytes read (or an archive's directory).
    #[error("{name}: cannot read: {source}")]
    Io {
        /// The input as diagnostics name it.
        name: String,
        /// What went wrong.
        source: io::Error,
    },
    /// A zip archive where one file is read: it holds `count` text entries, not one.
    #[error("{name}: a zip archive of {count} text entries; one file is read here: unpack it")]
    NotOneEntry {
        /// The archive as diagnostics name it.
        name: String,
        /// Its text entries.
        count: usize,
    },
    /// It is not text: `what` says what it looks like and what to do.
    #[error("{name}: not text: {what}")]
    NotText {
        /// The input as diagnostics name it.
        name: String,
        /// What it looks like (`a 7z archive; unpack it first`).
        what: String,
    },
}

impl OpenError {
    /// What went wrong, without the name (for messages that name the input themselves).
    pub fn reason(&self) -> String {
        match self {
            OpenError::Io { source, .. } => format!("cannot read: {source}"),
            OpenError::NotOneEntry { count, .. } => {
                format!("a zip archive of {count} text entries; one file is read here: unpack it")
            }
            OpenError::NotText { what, .. } => format!("not text: {what}"),
        }
    }

    /// Whether the input is readable but not text (the caller's exit code for invalid
    /// data), rather than unreadable.
    pub fn is_not_text(&self) -> bool {
        matches!(self, OpenError::NotText { .. })
    }
}

/// One text stream of an input: its name for diagnostics (`FILE`, or `ARCHIVE!ENTRY` for
/// an entry of a zip archive) and its decompressed bytes.
pub struct Text<'a> {
    /// How diagnostics name it.
    pub name: String,
    /// The text, decompressed.
    pub reader: &'a mut (dyn BufRead + Send),
    /// How it was stored, or `None` for plain text.
    pub stored: Option<Stored>,
}

/// What [`each_text`] calls with each text stream of an input, or the error in its place.
pub type EachText<'f, E> = dyn FnMut(Result<Text<'_>, OpenError>) -> Result<(), E> + 'f;

/// Calls `each` with every text stream of `input`, in order (one for a file or stdin, one
/// per entry of a zip archive), or with the [`OpenError`] that stands for a stream; stops
/// at the first error `each` returns.
pub fn each_text<E>(input: &Input, each: &mut EachText<'_, E>) -> Result<(), E> {
    let name = input.name();
    let io_error = |source| OpenError::Io {
        name: name.clone(),
        source,
    };
    let raw: Box<dyn Read + Send> = match input {
        Input::Stdin => Box::new(io::stdin()),
        Input::Path(path) => match File::open(path) {
            Ok(file) => {
                // A zip archive is read through its central directory, at its end: a file
                // is seeked, not copied.
                let mut file = file;
                let regular = file.metadata().is_ok_and(|metadata| metadata.is_file());
                match if regular {
                    sniff_zip(&mut file)
                } else {
                    Ok(false)
                } {
                    Ok(true) => return each_zip_entry(&name, file, each),
                    Ok(false) => Box::new(file),
                    Err(error) => return each(Err(io_error(error))),
                }
            }
            Err(error) => return each(Err(io_error(error))),
        },
    };
    let counted = Arc::new(AtomicU64::new(0));
    let raw = Counted {
        inner: raw,
        count: Arc::clone(&counted),
    };
    let (head, raw) = match peek(raw) {
        Ok(peeked) => peeked,
        Err(error) => return each(Err(io_error(error))),
    };
    match Kind::of(&head) {
        Kind::Zip => {
            // Stdin cannot be seeked: the archive is read into memory.
            let mut bytes = Vec::new();
            let mut raw = raw;
            if let Err(error) = raw.read_to_end(&mut bytes) {
                return each(Err(io_error(error)));
            }
            each_zip_entry(&name, Cursor::new(bytes), each)
        }
        Kind::Compressed(format) => {
            let decoded = Broken {
                inner: format.decoder(Box::new(raw)),
                format,
                count: counted,
            };
            let (head, decoded) = match peek(decoded) {
                Ok(peeked) => peeked,
                Err(error) => return each(Err(io_error(error))),
            };
            if let Some(what) = not_text(&head, Some(format)) {
                return each(Err(OpenError::NotText { name, what }));
            }
            let mut reader = BufReader::with_capacity(1 << 16, decoded);
            each(Ok(Text {
                name: name.clone(),
                reader: &mut reader,
                stored: Some(Stored::Compressed(format)),
            }))
        }
        Kind::Other => {
            if let Some(what) = not_text(&head, None) {
                return each(Err(OpenError::NotText { name, what }));
            }
            let mut reader = BufReader::with_capacity(1 << 16, raw);
            each(Ok(Text {
                name: name.clone(),
                reader: &mut reader,
                stored: None,
            }))
        }
    }
}

/// One text stream of an input read whole, for the commands that read a file at once
/// (`book stats`): its name, its bytes, and the read error that cut it short, if one did
/// (`bytes` then holds what was read before it).
#[derive(Debug)]
pub struct WholeText {
    /// How diagnostics name it.
    pub name: String,
    /// The text, decompressed.
    pub bytes: Vec<u8>,
    /// Why it ends before its end (a truncated download).
    pub broken: Option<io::Error>,
    /// How it was stored, or `None` for plain text.
    pub stored: Option<Stored>,
}

/// The one text of `input`, read whole, for the commands that read one file (`match
/// --openings`, `check --positions`): a zip archive must hold exactly one text entry, and a
/// stream that breaks is an error ([`OpenError::Io`]), not a shorter text.
pub fn read_one(input: &Input) -> Result<WholeText, OpenError> {
    let mut texts = read_whole(input);
    if texts.len() != 1 {
        return Err(OpenError::NotOneEntry {
            name: input.name(),
            count: texts.len(),
        });
    }
    let text = texts.pop().expect("one")?;
    match text.broken {
        Some(source) => Err(OpenError::Io {
            name: text.name,
            source,
        }),
        None => Ok(text),
    }
}

/// Every text stream of `input` ([`each_text`]) read whole, in order.
pub fn read_whole(input: &Input) -> Vec<Result<WholeText, OpenError>> {
    let mut texts = Vec::new();
    let _ = each_text::<Infallible>(input, &mut |text| {
        texts.push(text.map(|text| {
            let mut bytes = Vec::new();
            let broken = text.reader.read_to_end(&mut bytes).err();
            WholeText {
                name: text.name,
                bytes,
                broken,
                stored: text.stored,
            }
        }));
        Ok(())
    });
    texts
}

/// Whether the file at `path` is compressed or an archive, by its first bytes (`false`
/// when it cannot be read): its size then says nothing of the text's (a progress bar).
pub fn is_stored(path: &std::path::Path) -> bool {
    let mut head = Vec::with_capacity(16);
    File::open(path)
        .and_then(|file| file.take(16).read_to_end(&mut head))
        .is_ok_and(|_| Kind::of(&head) != Kind::Other)
}

/// Whether `file` starts as a zip archive does; the file is back at its start after.
fn sniff_zip(file: &mut File) -> io::Result<bool> {
    let mut magic = [0u8; 4];
    let mut len = 0;
    while len < magic.len() {
        match file.read(&mut magic[len..])? {
            0 => break,
            n => len += n,
        }
    }
    file.rewind()?;
    Ok(is_zip(&magic[..len]))
}

fn is_zip(head: &[u8]) -> bool {
    head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06")
}

/// Every entry of the zip archive `archive`, in the archive's order, named `NAME!ENTRY`;
/// directories are skipped, a compressed or archived entry is refused (unpack it first).
fn each_zip_entry<R: Read + Seek + Send, E>(
    name: &str,
    archive: R,
    each: &mut EachText<'_, E>,
) -> Result<(), E> {
    let mut archive = match zip::ZipArchive::new(archive) {
        Ok(archive) => archive,
        Err(error) => {
            return each(Err(OpenError::Io {
                name: name.to_owned(),
                source: io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("not a readable zip archive: {error}"),
                ),
            }));
        }
    };
    for index in 0..archive.len() {
        let entry = match archive.by_index(index) {
            Ok(entry) => entry,
            Err(error) => {
                each(Err(OpenError::Io {
                    name: format!("{name}!#{index}"),
                    source: io::Error::new(io::ErrorKind::InvalidData, error.to_string()),
                }))?;
                continue;
            }
        };
        if entry.is_dir() {
            continue;
        }
        // The name as stored (`../x.epd` too): it names the entry, nothing more.
        let entry_name = match entry.name() {
            Ok(entry) => format!("{name}!{entry}"),
            Err(_) => format!("{name}!#{index}"),
        };
        let (head, entry) = match peek(entry) {
            Ok(peeked) => peeked,
            Err(error) => {
                each(Err(OpenError::Io {
                    name: entry_name,
                    source: error,
                }))?;
                continue;
            }
        };
        let refused = match Kind::of(&head) {
            Kind::Zip => Some("a zip inside a zip; unpack it first".to_owned()),
            Kind::Compressed(format) => Some(format!(
                "{} inside a zip; unpack it first",
                format.a_stream()
            )),
            Kind::Other => not_text(&head, None),
        };
        if let Some(what) = refused {
            each(Err(OpenError::NotText {
                name: entry_name,
                what,
            }))?;
            continue;
        }
        let mut reader = BufReader::with_capacity(1 << 16, entry);
        each(Ok(Text {
            name: entry_name,
            reader: &mut reader,
            stored: Some(Stored::ZipEntry { index }),
        }))?;
    }
    Ok(())
}

/// What the first bytes of a stream say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Zip,
    Compressed(Compression),
    /// Perhaps text.
    Other,
}

impl Kind {
    fn of(head: &[u8]) -> Kind {
        if is_zip(head) {
            Kind::Zip
        } else {
            Compression::of(head).map_or(Kind::Other, Kind::Compressed)
        }
    }
}

/// What `head` (a stream's first bytes) looks like when it is not text; `None` for text.
/// `inside` is the compression it came out of.
fn not_text(head: &[u8], inside: Option<Compression>) -> Option<String> {
    let known: &[(&[u8], usize, &str)] = &[
        (b"7z\xbc\xaf\x27\x1c", 0, "a 7z archive; unpack it first"),
        (b"Rar!\x1a\x07", 0, "a RAR archive; unpack it first"),
        (b"ustar", 257, "a tar archive; unpack it first"),
        (b"PK\x03\x04", 0, "a zip archive; unpack it first"),
        (b"%PDF-", 0, "a PDF document"),
        (b"\x89PNG\r\n\x1a\n", 0, "a PNG image"),
        (b"\xff\xd8\xff", 0, "a JPEG image"),
        (b"GIF8", 0, "a GIF image"),
        (b"\x7fELF", 0, "an executable (ELF)"),
        (b"SQLite format 3\0", 0, "an SQLite database"),
        (b"\x04\x22\x4d\x18", 0, "an lz4 stream; decompress it first"),
        (b"\x1f\x8b", 0, "a gzip stream; decompress it first"),
        (b"\x28\xb5\x2f\xfd", 0, "a zstd stream; decompress it first"),
        (b"\xfd7zXZ\x00", 0, "an xz stream; decompress it first"),
    ];
    let what = known.iter().find_map(|(magic, at, what)| {
        head.get(*at..)
            .is_some_and(|rest| rest.starts_with(magic))
            .then_some(*what)
    });
    let what = what
        .map(str::to_owned)
        .or_else(|| binary_at(head).map(|at| format!("binary data at byte {at}")));
    match (what, inside) {
        (Some(what), Some(format)) => Some(format!("{what} (inside the {format} stream)")),
        (what, _) => what,
    }
}

/// Where `head` stops looking like text: its first stray byte when more than one in ten
/// are control bytes (NUL too) or not UTF-8. A text file with a few such bytes (a NUL in a
/// line, a Latin-1 name) stays text: its records are reported one by one.
fn binary_at(head: &[u8]) -> Option<usize> {
    // A NUL byte counts as any control byte: one in a line of text is that line's error.
    let is_control = |byte: &u8| *byte < 0x20 && !b"\t\n\r\x0c\x1a\x1b".contains(byte);
    let mut strange = head.iter().filter(|byte| is_control(byte)).count();
    let mut first = head.iter().position(is_control);
    let mut rest = head;
    let mut offset = 0;
    while let Err(error) = std::str::from_utf8(rest) {
        // A character cut by the end of the sniffed bytes is not a stray byte.
        let Some(len) = error.error_len() else { break };
        let at = offset + error.valid_up_to();
        strange += 1;
        first = Some(first.map_or(at, |first| first.min(at)));
        offset = at + len;
        rest = &head[offset..];
    }
    (strange * 10 > head.len()).then(|| first.unwrap_or(0))
}

/// A stream whose first bytes were looked at: those bytes again, then the rest.
type Peeked<R> = io::Chain<Cursor<Vec<u8>>, R>;

/// The first [`SNIFF_LEN`] bytes of `reader`, and a reader that still gives all of them.
fn peek<R: Read>(mut reader: R) -> io::Result<(Vec<u8>, Peeked<R>)> {
    let mut head = Vec::with_capacity(SNIFF_LEN);
    (&mut reader)
        .take(SNIFF_LEN as u64)
        .read_to_end(&mut head)?;
    Ok((head.clone(), Cursor::new(head).chain(reader)))
}

/// A reader that counts the bytes read through it.
struct Counted<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buf)?;
        self.count.fetch_add(read as u64, Ordering::Relaxed);
        Ok(read)
    }
}

/// A decoder whose errors say the format and about where the compressed bytes broke.
struct Broken<R> {
    inner: R,
    format: Compression,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Broken<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner
            .read(buf)
            .map_err(|error| broken(self.format, &self.count, error))
    }
}

fn broken(format: Compression, count: &AtomicU64, error: io::Error) -> io::Error {
    let kind = match error.kind() {
        io::ErrorKind::UnexpectedEof => io::ErrorKind::UnexpectedEof,
        _ => io::ErrorKind::InvalidData,
    };
    io::Error::new(
        kind,
        format!(
            "truncated or corrupt {format} stream (compressed bytes read: {}): {error}",
            count.load(Ordering::Relaxed)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_bytes_say_what_a_stream_is() {
        assert_eq!(
            Kind::of(b"\x1f\x8b\x08\0"),
            Kind::Compressed(Compression::Gzip)
        );
        assert_eq!(Kind::of(b"PK\x03\x04"), Kind::Zip);
        // Text that happens to start like a magic number is text.
        assert_eq!(Kind::of(b"BZh9 is no bzip2 header\n"), Kind::Other);
        assert_eq!(Kind::of(b"PK is a name\n"), Kind::Other);
    }

    #[test]
    fn text_is_told_from_what_is_not() {
        let fen = b"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\r\n";
        assert_eq!(not_text(fen, None), None);
        assert_eq!(not_text(b"", None), None);
        // A NUL or a Latin-1 byte in a line is that line's error, not a binary file.
        let mut one_nul = fen.repeat(3);
        one_nul[10] = 0;
        one_nul[70] = 0xe9;
        assert_eq!(not_text(&one_nul, None), None);
        // A character cut by the end of the sniffed bytes is no stray byte.
        assert_eq!(not_text("caf\u{e9}".as_bytes()[..4].as_ref(), None), None);
        assert_eq!(
            not_text(b"\0\0\0\x01binary", None).as_deref(),
            Some("binary data at byte 0")
        );
        let mut tar = vec![b'a'; 512];
        tar[257..262].copy_from_slice(b"ustar");
        assert_eq!(
            not_text(&tar, None).as_deref(),
            Some("a tar archive; unpack it first")
        );
        assert_eq!(
            not_text(b"%PDF-1.7\n", Some(Compression::Gzip)).as_deref(),
            Some("a PDF document (inside the gzip stream)")
        );
    }
}
