//! A zip archive written again with some of its entries replaced (`normalize --in-place` on
//! a `.zip`): every other entry copied as it is stored (its compressed bytes, not
//! recompressed), each replaced one written with the original's name, compression method,
//! time stamp and Unix mode, in the archive's order. The archive is read and written
//! through the `zip` crate, the one `records::open` reads archives with. Touches only the
//! two files it is handed.

use std::fs::File;
use std::io::{self, BufReader, Seek, Write};

use zip::write::{SimpleFileOptions, ZipWriter};

/// An entry's new text, by its index in the archive (`Stored::ZipEntry`).
pub(crate) struct Replacement {
    /// The entry's index in the original archive.
    pub index: usize,
    /// Its new text, from the start.
    pub text: File,
}

/// Writes `original` to `out` with each entry of `replacements` replaced by its text.
/// Returns `out` positioned after the archive.
pub(crate) fn rewrite_zip<W: Write + Seek>(
    original: File,
    mut replacements: Vec<Replacement>,
    out: W,
) -> io::Result<W> {
    let zip_error = |error: zip::result::ZipError| match error {
        zip::result::ZipError::Io(error) => error,
        other => io::Error::new(io::ErrorKind::InvalidData, other.to_string()),
    };
    let mut archive = zip::ZipArchive::new(BufReader::new(original)).map_err(zip_error)?;
    let mut writer = ZipWriter::new(out);
    replacements.sort_by_key(|replacement| replacement.index);
    let mut replacements = replacements.into_iter().peekable();
    for index in 0..archive.len() {
        match replacements.next_if(|replacement| replacement.index == index) {
            None => {
                let entry = archive.by_index_raw(index).map_err(zip_error)?;
                writer.raw_copy_file(entry).map_err(zip_error)?;
            }
            Some(mut replacement) => {
                let entry = archive.by_index_raw(index).map_err(zip_error)?;
                let name = entry.name_raw().to_vec();
                let name = String::from_utf8(name).map_err(|_| {
                    io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("entry #{index}: its name is not UTF-8"),
                    )
                })?;
                let mut options = SimpleFileOptions::default()
                    .compression_method(entry.compression())
                    .large_file(entry.size() >= u64::from(u32::MAX) / 2);
                if let Some(time) = entry.last_modified() {
                    options = options.last_modified_time(time);
                }
                if let Some(mode) = entry.unix_mode() {
                    options = options.unix_permissions(mode);
                }
                drop(entry);
                writer.start_file(name, options).map_err(zip_error)?;
                replacement.text.rewind()?;
                io::copy(&mut replacement.text, &mut writer)?;
            }
        }
    }
    writer.finish().map_err(zip_error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Cursor, Read};

    fn archive(entries: &[(&str, &[u8], zip::CompressionMethod)]) -> File {
        let mut writer = ZipWriter::new(tempfile::tempfile().unwrap());
        for (name, data, method) in entries {
            let options = SimpleFileOptions::default()
                .compression_method(*method)
                .last_modified_time(
                    zip::DateTime::from_date_and_time(2024, 5, 6, 7, 8, 10).unwrap(),
                )
                .unix_permissions(0o640);
            writer.start_file(*name, options).unwrap();
            writer.write_all(data).unwrap();
        }
        let mut file = writer.finish().unwrap();
        file.rewind().unwrap();
        file
    }

    fn text(data: &[u8]) -> File {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(data).unwrap();
        file
    }

    #[test]
    fn replaced_entries_keep_their_place_name_method_time_and_mode() {
        let stored = zip::CompressionMethod::Stored;
        let deflated = zip::CompressionMethod::Deflated;
        let original = archive(&[
            ("a.epd", b"old a\n", deflated),
            ("dir/b.bin", b"\x00\x01binary", stored),
            ("c.epd", b"old c\n", stored),
        ]);
        // The modes and times as this platform's zip writer stored them (a Unix mode, or
        // on Windows what the DOS attributes say).
        let kept: Vec<_> = {
            let mut read = zip::ZipArchive::new(original.try_clone().unwrap()).unwrap();
            (0..3)
                .map(|index| {
                    let entry = read.by_index(index).unwrap();
                    (entry.unix_mode(), entry.last_modified())
                })
                .collect()
        };
        let replacements = vec![
            Replacement {
                index: 2,
                text: text(b"new c\n"),
            },
            Replacement {
                index: 0,
                text: text(b"new a, longer\n"),
            },
        ];
        let out = rewrite_zip(original, replacements, Cursor::new(Vec::new())).unwrap();
        let mut read = zip::ZipArchive::new(Cursor::new(out.into_inner())).unwrap();
        let want: [(&str, &[u8], zip::CompressionMethod); 3] = [
            ("a.epd", b"new a, longer\n", deflated),
            ("dir/b.bin", b"\x00\x01binary", stored),
            ("c.epd", b"new c\n", stored),
        ];
        for (index, (name, data, method)) in want.into_iter().enumerate() {
            let mut entry = read.by_index(index).unwrap();
            assert_eq!(entry.name().unwrap(), name);
            assert_eq!(entry.compression(), method, "{name}");
            assert_eq!(
                (entry.unix_mode(), entry.last_modified()),
                kept[index],
                "{name}"
            );
            if cfg!(unix) {
                assert_eq!(entry.unix_mode().map(|mode| mode & 0o777), Some(0o640));
            }
            let time = entry.last_modified().unwrap();
            assert_eq!((time.year(), time.month(), time.second()), (2024, 5, 10));
            let mut got = Vec::new();
            entry.read_to_end(&mut got).unwrap();
            assert_eq!(got, data, "{name}");
        }
    }

    #[test]
    fn a_file_that_is_not_a_zip_is_an_error() {
        let error = rewrite_zip(text(b"not a zip"), Vec::new(), Cursor::new(Vec::new()))
            .err()
            .unwrap();
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
    }
}
