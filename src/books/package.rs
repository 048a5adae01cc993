//! `sp960 book package --for openbench|fishtest`: what an instance owner adds to serve a
//! Chess960 book: the book under a name the system plays as Chess960, the zip its workers
//! download (that one file, under the same name), and the metadata entry with the hash the
//! worker checks, computed over the bytes the worker hashes.
//!
//! What the clients do, read in their sources:
//! - OpenBench `Client/utils.py` `download_opening_book`: unzips, renames the sole file to the
//!   book's name, then `open(book_path).read().encode('utf-8')` and `hashlib.sha256` — a text
//!   read, so `\r\n` and `\r` become `\n` — compared, hex, to `Books/NAME.json`'s `sha`.
//!   `Client/worker.py` plays Chess960 when the upper-cased name holds `FRC`, `960` or
//!   `FISCHER`; the server keeps the name in a `CharField(max_length=32)`.
//! - fishtest `worker/games.py` `text_hash`: `base64(sha384(file.read_text().encode("utf8")))`,
//!   compared to `books.json`'s `sri`; the worker downloads `NAME.zip` and extracts it, and
//!   plays Chess960 when the upper-cased name holds `FRC` or `960`. The books repository's
//!   `update_json.py` computes `total`, `white`, `black`, `min_depth`, `max_depth` (the ply
//!   from a sixth field of digits, the FEN fullmove number) and `sri`.
//!
//! Pure: a book's bytes and a name in, the files' bytes out.

use std::fmt::Write as _;
use std::io::Write as _;

use base64::Engine as _;
use sha2::{Digest, Sha256, Sha384};
use thiserror::Error;

/// The systems a book is packaged for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// An OpenBench instance: `Books/NAME.json` (`sha`, `source`) and a name in `config.json`.
    Openbench,
    /// fishtest: an entry of the books repository's `books.json` (`total` ... `sri`).
    Fishtest,
}

/// OpenBench's longest book name (`Test.book_name = CharField(max_length=32)`).
pub const OPENBENCH_NAME_LIMIT: usize = 32;

/// The two hashes, over the text as the clients read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientHashes {
    /// fishtest: base64 of the SHA-384.
    pub sri: String,
    /// OpenBench: the SHA-256, lower-case hex.
    pub sha256: String,
}

/// The text is not UTF-8: Python's text read raises, neither client can use the book.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("byte {offset} is not UTF-8: OpenBench and fishtest read books as UTF-8 text")]
pub struct NotUtf8 {
    /// 0-based offset of the first bad byte.
    pub offset: usize,
}

impl ClientHashes {
    /// The hashes of `bytes` read as both clients read a book.
    pub fn of(bytes: &[u8]) -> Result<ClientHashes, NotUtf8> {
        let text = client_text(bytes)?;
        Ok(ClientHashes {
            sri: base64::engine::general_purpose::STANDARD.encode(Sha384::digest(&text)),
            sha256: Sha256::digest(&text).iter().fold(
                String::with_capacity(64),
                |mut hex, byte| {
                    let _ = write!(hex, "{byte:02x}");
                    hex
                },
            ),
        })
    }
}

/// The bytes a Python text read gives back encoded: UTF-8 checked, `\r\n` and a lone `\r`
/// turned into `\n` (universal newlines).
pub fn client_text(bytes: &[u8]) -> Result<Vec<u8>, NotUtf8> {
    std::str::from_utf8(bytes).map_err(|err| NotUtf8 {
        offset: err.valid_up_to(),
    })?;
    let mut text = Vec::with_capacity(bytes.len());
    let mut rest = bytes;
    while let Some(at) = memchr::memchr(b'\r', rest) {
        text.extend_from_slice(&rest[..at]);
        text.push(b'\n');
        rest = &rest[at + 1..];
        if rest.first() == Some(&b'\n') {
            rest = &rest[1..];
        }
    }
    text.extend_from_slice(rest);
    Ok(text)
}

/// Why a book cannot be packaged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PackageError {
    /// Not UTF-8.
    #[error(transparent)]
    NotUtf8(#[from] NotUtf8),
    /// The name is too long for OpenBench.
    #[error(
        "--name '{name}' is {length} characters; OpenBench keeps at most {OPENBENCH_NAME_LIMIT} (choose a shorter one with --name)"
    )]
    NameTooLong {
        /// The name.
        name: String,
        /// Its length in characters.
        length: usize,
    },
    /// A name the package cannot use.
    #[error("--name '{name}': {reason}")]
    BadName {
        /// The name.
        name: String,
        /// Why.
        reason: &'static str,
    },
    /// Nothing to package.
    #[error("the book has no records")]
    Empty,
    /// Too big for a zip without ZIP64.
    #[error("the book is {0} bytes; the zip written here holds at most 4 GiB")]
    TooBig(usize),
}

/// The book's name in the package: the given name, or the file's, with `FRC` added when it
/// has neither `FRC` nor `960` and the extension made `.epd` (`.pgn` kept for a PGN book).
pub fn package_name(file_name: &str, pgn: bool) -> String {
    let (stem, _) = file_name
        .rsplit_once('.')
        .filter(|(stem, _)| !stem.is_empty())
        .unwrap_or((file_name, ""));
    let stem: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "+-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let upper = stem.to_ascii_uppercase();
    let stem = if upper.contains("FRC") || upper.contains("960") {
        stem
    } else {
        format!("{stem}_FRC")
    };
    format!("{stem}.{}", if pgn { "pgn" } else { "epd" })
}

/// Checks a name given with `--name` (or derived) for `target`.
pub fn check_name(name: &str, target: Target) -> Result<(), PackageError> {
    let bad = |reason| PackageError::BadName {
        name: name.to_owned(),
        reason,
    };
    if name.is_empty()
        || name.contains(['/', '\\'])
        || name.starts_with('.')
        || !name.chars().all(|c| c.is_ascii_graphic())
    {
        return Err(bad(
            "a book name is one file name of printable ASCII, without / or \\",
        ));
    }
    if !(name.ends_with(".epd") || name.ends_with(".pgn")) {
        return Err(bad(
            "must end in .epd or .pgn (the workers pass the extension as the book format)",
        ));
    }
    let upper = name.to_ascii_uppercase();
    if !(upper.contains("FRC") || upper.contains("960")) {
        return Err(bad(
            "must contain FRC or 960, or fishtest and OpenBench play it as standard chess",
        ));
    }
    if target == Target::Openbench && name.chars().count() > OPENBENCH_NAME_LIMIT {
        return Err(PackageError::NameTooLong {
            name: name.to_owned(),
            length: name.chars().count(),
        });
    }
    Ok(())
}

/// fishtest's `books.json` fields for a book, as the books repository's `update_json.py`
/// computes them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FishtestEntry {
    /// `white + black`.
    pub total: u64,
    /// Lines whose second field is `w`.
    pub white: u64,
    /// Lines whose second field is `b`.
    pub black: u64,
    /// The fewest plies by the sixth field (`null` when no line has one).
    pub min_depth: Option<u64>,
    /// The most.
    pub max_depth: Option<u64>,
    /// base64 of the SHA-384 of the text.
    pub sri: String,
}

/// `update_json.py`'s `get_stats_and_sri` for an EPD book (one record a line), on the text a
/// client reads (`text` from [`client_text`]): for each line, `fields = line.split()`;
/// `fields[1]` counts white or black; `fields[5]`, when it is digits, is the fullmove number:
/// ply `(move - 1) * 2`, plus one with black to move.
pub fn fishtest_epd_entry(text: &[u8], sri: String) -> FishtestEntry {
    let (mut white, mut black, mut depths) = (0, 0, None::<(u64, u64)>);
    for line in text.split(|&byte| byte == b'\n') {
        let fields: Vec<&[u8]> = line
            .split(|byte| byte.is_ascii_whitespace())
            .filter(|field| !field.is_empty())
            .collect();
        if fields.len() > 1 {
            match fields[1] {
                b"w" => white += 1,
                b"b" => black += 1,
                _ => {}
            }
        }
        if fields.len() > 5 && fields[5].iter().all(u8::is_ascii_digit) {
            let Some(ply) = std::str::from_utf8(fields[5])
                .ok()
                .and_then(|n| n.parse::<u64>().ok())
                .map(|n| n.saturating_sub(1) * 2 + u64::from(fields[1] != b"w"))
            else {
                continue;
            };
            let (low, high) = depths.get_or_insert((ply, ply));
            *low = (*low).min(ply);
            *high = (*high).max(ply);
        }
    }
    FishtestEntry {
        total: white + black,
        white,
        black,
        min_depth: depths.map(|(low, _)| low),
        max_depth: depths.map(|(_, high)| high),
        sri,
    }
}

/// The files of a package: `(file name, bytes)`, the book first, then its zip, then the
/// metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    /// The book's name.
    pub name: String,
    /// The files to write.
    pub files: Vec<(String, Vec<u8>)>,
    /// What the owner does with them, for people.
    pub notes: Vec<String>,
}

impl Package {
    /// The metadata entry (`NAME.json`), also printed on stdout: the last of the files.
    pub fn metadata(&self) -> &[u8] {
        let (_, metadata) = self.files.last().expect("a package is three files");
        metadata
    }
}

/// The record lines of an EPD/FEN book, each ended by `\n`: blank lines and `#` comments
/// dropped (fishtest's books.json script counts every line as a record).
pub fn records_only(text: &[u8]) -> Vec<u8> {
    let mut records = Vec::with_capacity(text.len());
    let text = text
        .strip_prefix(crate::starts::notation::BOM)
        .unwrap_or(text);
    for line in text.split(|&byte| byte == b'\n') {
        let first = line.iter().find(|byte| !byte.is_ascii_whitespace());
        if first.is_none_or(|&byte| byte == b'#') {
            continue;
        }
        records.extend_from_slice(line);
        records.push(b'\n');
    }
    records
}

/// Packages `text` (the book as the clients will read it: [`client_text`], comments and
/// blank lines already dropped) under `name` for `target`; `source` is where OpenBench's
/// workers will download the zip from.
pub fn package(
    text: Vec<u8>,
    name: &str,
    target: Target,
    source: &str,
) -> Result<Package, PackageError> {
    check_name(name, target)?;
    if text.is_empty() {
        return Err(PackageError::Empty);
    }
    let hashes = ClientHashes::of(&text)?;
    let zip = zip_one(name, &text)?;
    let zip_name = format!("{name}.zip");
    let (metadata, notes) = match target {
        Target::Openbench => {
            let metadata = format!(
                "{{\n    \"sha\"     : \"{}\",\n    \"source\"  : {}\n}}\n",
                hashes.sha256,
                serde_json::to_string(source).expect("a string")
            );
            let notes = vec![
                format!("OpenBench: host {zip_name} at {source}"),
                format!("OpenBench: copy {name}.json to the server's Books/{name}.json"),
                format!("OpenBench: add \"{name}\" to the \"books\" list of Config/config.json"),
            ];
            (metadata, notes)
        }
        Target::Fishtest => {
            let entry = if name.ends_with(".epd") {
                fishtest_epd_entry(&text, hashes.sri.clone())
            } else {
                return Err(PackageError::BadName {
                    name: name.to_owned(),
                    reason: "fishtest packages are made of EPD books here (name it .epd)",
                });
            };
            // books.json's shape: `{"NAME": {"total": ..., ...}}`.
            let metadata = json_indent4(&std::collections::BTreeMap::from([(name, entry)]));
            let notes = vec![
                format!("fishtest: add {zip_name} to the books repository"),
                format!("fishtest: merge {name}.json into its books.json"),
            ];
            (metadata, notes)
        }
    };
    Ok(Package {
        name: name.to_owned(),
        files: vec![
            (name.to_owned(), text),
            (zip_name, zip),
            (format!("{name}.json"), metadata.into_bytes()),
        ],
        notes,
    })
}

/// JSON as Python's `json.dump(..., indent=4)` writes it, with the final newline the books
/// repository adds.
fn json_indent4(value: &impl serde::Serialize) -> String {
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
    value.serialize(&mut serializer).expect("JSON to memory");
    let mut text = String::from_utf8(out).expect("JSON is UTF-8");
    text.push('\n');
    text
}

/// A zip archive holding one file, `name`, deflated at level 9, as fishtest's books are
/// packed: written by the `zip` crate, the one that reads archives (`records::open`). The
/// time stamp is fixed (1980-01-01 00:00) and the mode is a regular file's `rw-r--r--`, so
/// the same book gives the same bytes.
pub fn zip_one(name: &str, data: &[u8]) -> Result<Vec<u8>, PackageError> {
    use zip::write::{SimpleFileOptions, ZipWriter};
    let too_big = || PackageError::TooBig(data.len());
    if u32::try_from(data.len()).map_or(true, |size| size == u32::MAX) {
        return Err(too_big());
    }
    let options = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(9))
        .last_modified_time(zip::DateTime::default())
        .unix_permissions(0o644)
        .large_file(false);
    let mut writer = ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let written = writer
        .start_file(name, options)
        .and_then(|()| writer.write_all(data).map_err(zip::result::ZipError::Io))
        .and_then(|()| writer.finish());
    match written {
        Ok(cursor) => Ok(cursor.into_inner()),
        Err(_) => Err(too_big()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_read_as_python_reads_it() {
        assert_eq!(client_text(b"a\r\nb\rc\n").unwrap(), b"a\nb\nc\n");
        assert_eq!(client_text(b"ab\xffc").unwrap_err(), NotUtf8 { offset: 2 });
        // Known digests: SHA-256 and SHA-384 of "abc".
        let hashes = ClientHashes::of(b"abc").unwrap();
        assert_eq!(
            hashes.sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            hashes.sri,
            "ywB1P0WjXou1oD1pmsZQBycsMqsO3tFjGotgWkP/W+2AhgcroefMI1i67KE0yCWn"
        );
        assert_eq!(
            ClientHashes::of(b"a\r\n").unwrap(),
            ClientHashes::of(b"a\n").unwrap()
        );
    }

    #[test]
    fn names_get_frc_and_epd() {
        assert_eq!(package_name("balanced.epd", false), "balanced_FRC.epd");
        assert_eq!(package_name("my 960 book.txt", false), "my_960_book.epd");
        assert_eq!(package_name("dfrc.pgn", true), "dfrc.pgn", "DFRC holds FRC");
        assert_eq!(package_name("uho.pgn", true), "uho_FRC.pgn");
        assert!(check_name("x960.epd", Target::Openbench).is_ok());
        assert!(check_name("book.epd", Target::Fishtest).is_err());
        assert!(check_name("a/FRC.epd", Target::Fishtest).is_err());
        assert!(check_name("FRC.txt", Target::Fishtest).is_err());
        let long = format!("{}_FRC.epd", "x".repeat(24));
        assert_eq!(long.len(), 32);
        assert!(check_name(&long, Target::Openbench).is_ok());
        let longer = format!("x{long}");
        assert!(matches!(
            check_name(&longer, Target::Openbench),
            Err(PackageError::NameTooLong { length: 33, .. })
        ));
        assert!(check_name(&longer, Target::Fishtest).is_ok());
    }

    #[test]
    fn fishtest_depths_come_from_a_sixth_digit_field() {
        let text = b"8/8/8/8/8/8/8/K1k5 w - - 0 1\n8/8/8/8/8/8/8/K1k5 b - - 0 3\n8/8/8/8/8/8/8/K1k5 w - - id \"x\";\n";
        let entry = fishtest_epd_entry(text, String::new());
        assert_eq!((entry.total, entry.white, entry.black), (3, 2, 1));
        assert_eq!((entry.min_depth, entry.max_depth), (Some(0), Some(5)));
        let none = fishtest_epd_entry(b"8/8/8/8/8/8/8/K1k5 w - - hmvc 0; fmvn 1;\n", String::new());
        assert_eq!((none.min_depth, none.max_depth), (None, None));
    }

    #[test]
    fn the_zip_holds_one_deflated_file_with_its_crc() {
        let zip = zip_one("x_FRC.epd", b"hello\n").unwrap();
        assert_eq!(&zip[..4], b"PK\x03\x04");
        // CRC-32 of "hello\n", as zlib computes it.
        assert_eq!(&zip[14..18], &0x363a_3020u32.to_le_bytes());
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(&zip)).unwrap();
        let mut entry = archive.by_index(0).unwrap();
        assert_eq!(entry.name().unwrap(), "x_FRC.epd");
        assert_eq!(entry.compression(), zip::CompressionMethod::Deflated);
        let mut text = String::new();
        std::io::Read::read_to_string(&mut entry, &mut text).unwrap();
        assert_eq!(text, "hello\n");
        drop(entry);
        assert_eq!(&zip[zip.len() - 22..zip.len() - 18], b"PK\x05\x06");
        assert_eq!(zip, zip_one("x_FRC.epd", b"hello\n").unwrap());
    }
}
