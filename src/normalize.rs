//! `sp960 normalize`: records rewritten in canonical form (fields separated by one space,
//! Shredder or X-FEN castling, move counters as numbers), everything else kept byte for
//! byte: EPD operations, comments, blank lines, line ends, a byte-order mark. An invalid
//! record is copied unchanged and reported; `--in-place` then leaves the file untouched.

use std::fs::{self, File};
use std::io::{self, BufWriter, Read, Write};
use std::path::Path;

use shakmaty::{EnPassantMode, Position};

use crate::exit_code;
use crate::inputs::Input;
use crate::notation::{CastlingNotation, epd_fields, fen};
use crate::record::{CheckOptions, Line, Problem, RecordKind, Syntax, ValidRecord, check_line};
use crate::records::{BOM, Block, LineBlocks, MAX_LINE_BYTES, lines, strip_bom};

/// Everything `sp960 normalize` is told.
#[derive(Debug, Clone, Copy)]
pub struct NormalizeOptions {
    /// How records are checked (a record must be valid to be rewritten).
    pub check: CheckOptions,
    /// The castling notation written.
    pub castling: CastlingNotation,
    /// Rewrite each file (through a temporary file and a rename) instead of printing.
    pub in_place: bool,
}

/// The canonical text of a valid record.
pub fn canonical(record: &ValidRecord<'_>, castling: CastlingNotation) -> String {
    let setup = record.position.to_setup(EnPassantMode::Always);
    match record.kind {
        RecordKind::Fen => fen(&setup, castling),
        RecordKind::Epd if record.operations.is_empty() => epd_fields(&setup, castling),
        RecordKind::Epd => format!("{} {}", epd_fields(&setup, castling), record.operations),
    }
}

/// Normalizes one stream into `out`, reporting invalid records on `err` as
/// `name:line:col: error: reason`. Returns the number of invalid records; read errors come
/// back as `Err(Ok(error))`, write errors as `Err(Err(error))`.
fn normalize_stream(
    reader: impl Read,
    name: &str,
    options: &NormalizeOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<u64, StreamError> {
    let (had_bom, reader) = strip_bom(reader).map_err(StreamError::Read)?;
    if had_bom {
        out.write_all(BOM).map_err(StreamError::Write)?;
    }
    let mut blocks = LineBlocks::new(reader);
    let mut line_number = 0u64;
    let mut invalid = 0u64;
    let mut syntax = None;
    let mut report = |line: u64, problem: &Problem, err: &mut dyn Write| {
        invalid += 1;
        writeln!(
            err,
            "{name}:{line}:{}: error: {}",
            problem.column, problem.message
        )
        .map_err(StreamError::Write)
    };
    loop {
        let block = match blocks.next_block(Some(&mut *out)) {
            Ok(Some(block)) => block,
            Ok(None) => break,
            // A failed read and a failed write of an overlong line look alike here; both
            // stop this input with its name.
            Err(error) => return Err(StreamError::Read(error)),
        };
        match block {
            Block::Overlong(length) => {
                line_number += 1;
                report(
                    line_number,
                    &Problem::line_too_long(length, MAX_LINE_BYTES),
                    err,
                )?;
            }
            Block::Lines(data) => {
                let syntax = *syntax.get_or_insert_with(|| Syntax::detect(name, &data));
                for line in lines(&data) {
                    line_number += 1;
                    // A PGN `[FEN "…"]` tag is rewritten inside the tag; other lines that
                    // hold no record are copied.
                    let span = syntax.record_span(line.text).unwrap_or(0..0);
                    let (before, record, after) = (
                        &line.text[..span.start],
                        &line.text[span.clone()],
                        &line.text[span.end..],
                    );
                    out.write_all(before).map_err(StreamError::Write)?;
                    match check_line(record, &options.check) {
                        Line::Record(Ok(valid)) => {
                            out.write_all(canonical(&valid, options.castling).as_bytes())
                                .map_err(StreamError::Write)?;
                        }
                        Line::Record(Err(mut problem)) => {
                            problem.column += span.start;
                            report(line_number, &problem, err)?;
                            out.write_all(record).map_err(StreamError::Write)?;
                        }
                        Line::Blank | Line::Comment => {
                            out.write_all(record).map_err(StreamError::Write)?;
                        }
                    }
                    out.write_all(after).map_err(StreamError::Write)?;
                    out.write_all(line.end).map_err(StreamError::Write)?;
                }
            }
        }
    }
    Ok(invalid)
}

/// A failure while normalizing one input: reading it, or writing the output.
enum StreamError {
    Read(io::Error),
    Write(io::Error),
}

/// Runs `sp960 normalize`: to `out`, or with `in_place` into each file. Invalid records
/// and I/O problems are reported on `err`. Returns the exit code: 0, 1 when a record is
/// invalid (and, in place, that file is left as it was), 2 when an input cannot be read
/// or written.
pub fn run(
    paths: &[String],
    options: &NormalizeOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<u8> {
    let inputs: Vec<Input> = if paths.is_empty() {
        vec![Input::Stdin]
    } else {
        paths
            .iter()
            .map(|path| match path.as_str() {
                "-" => Input::Stdin,
                path => Input::Path(path.into()),
            })
            .collect()
    };
    let mut code = exit_code::SUCCESS;
    let mut worst = |new: u8| {
        if new == exit_code::USAGE || code == exit_code::SUCCESS {
            code = new;
        }
    };
    for input in &inputs {
        let name = input.name();
        let result = match (input, options.in_place) {
            (Input::Stdin, true) => {
                writeln!(
                    err,
                    "sp960: normalize: --in-place needs files, not standard input"
                )?;
                worst(exit_code::USAGE);
                continue;
            }
            (Input::Stdin, false) => {
                normalize_stream(io::stdin().lock(), &name, options, &mut *out, &mut *err)
                    .map(|invalid| (invalid, false))
            }
            (Input::Path(path), in_place) => {
                if path.is_dir() {
                    writeln!(
                        err,
                        "sp960: normalize: {name}: is a directory (normalize takes files)"
                    )?;
                    worst(exit_code::USAGE);
                    continue;
                }
                match File::open(path) {
                    Err(error) => Err(StreamError::Read(error)),
                    Ok(file) if in_place => normalize_in_place(file, path, &name, options, err),
                    Ok(file) => normalize_stream(file, &name, options, &mut *out, &mut *err)
                        .map(|invalid| (invalid, false)),
                }
            }
        };
        match result {
            Ok((0, _)) => {}
            Ok((invalid, in_place)) => {
                if in_place {
                    writeln!(
                        err,
                        "sp960: normalize: {name}: left unchanged: {invalid} invalid record{}",
                        if invalid == 1 { "" } else { "s" }
                    )?;
                }
                worst(exit_code::INVALID_DATA);
            }
            Err(StreamError::Read(error)) => {
                writeln!(err, "sp960: normalize: {name}: {error}")?;
                worst(exit_code::USAGE);
            }
            Err(StreamError::Write(error)) if !options.in_place => return Err(error),
            Err(StreamError::Write(error)) => {
                writeln!(err, "sp960: normalize: {name}: cannot rewrite: {error}")?;
                worst(exit_code::USAGE);
            }
        }
    }
    out.flush()?;
    Ok(code)
}

/// Normalizes `file` into a temporary file beside it, then renames that over `path`; with
/// an invalid record the temporary file is dropped and `path` is not touched. A symbolic
/// link is followed: the file it leads to is rewritten and the link stays a link.
fn normalize_in_place(
    file: File,
    path: &Path,
    name: &str,
    options: &NormalizeOptions,
    err: &mut dyn Write,
) -> Result<(u64, bool), StreamError> {
    let target = fs::canonicalize(path).map_err(StreamError::Read)?;
    let path = target.as_path();
    let dir = path
        .parent()
        .filter(|dir| !dir.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let temporary = tempfile::Builder::new()
        .prefix(".sp960-normalize-")
        .tempfile_in(dir)
        .map_err(StreamError::Write)?;
    let mut writer = BufWriter::new(temporary);
    let invalid = normalize_stream(file, name, options, &mut writer, err)?;
    if invalid > 0 {
        return Ok((invalid, true));
    }
    let temporary = writer
        .into_inner()
        .map_err(|error| StreamError::Write(error.into_error()))?;
    let permissions = fs::metadata(path).map_err(StreamError::Read)?.permissions();
    temporary
        .as_file()
        .set_permissions(permissions)
        .map_err(StreamError::Write)?;
    temporary.as_file().sync_all().map_err(StreamError::Write)?;
    temporary
        .persist(path)
        .map_err(|error| StreamError::Write(error.error))?;
    Ok((0, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn normalize_text(text: &[u8], castling: CastlingNotation) -> (Vec<u8>, String, u64) {
        let options = NormalizeOptions {
            check: CheckOptions::default(),
            castling,
            in_place: false,
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let invalid = match normalize_stream(text, "in", &options, &mut out, &mut err) {
            Ok(invalid) => invalid,
            Err(_) => panic!("I/O error"),
        };
        (out, String::from_utf8(err).unwrap(), invalid)
    }

    #[test]
    fn records_become_canonical_and_the_rest_is_kept() {
        let input = b"\xEF\xBB\xBF# SP 860\r\n\
            rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ  w\tKQkq - 0 01\r\n\
            \n\
            \trbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w KQkq -   id \"SP 860\"; c0 \"x  y\";  \n\
            rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w KQkq - 0 nope\n\
            r3k2r/8/8/8/8/8/8/R3K2R w KQkq -";
        let (out, err, invalid) = normalize_text(input, CastlingNotation::Shredder);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\u{feff}# SP 860\r\n\
             rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\r\n\
             \n\
             rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - id \"SP 860\"; c0 \"x  y\";\n\
             rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w KQkq - 0 nope\n\
             r3k2r/8/8/8/8/8/8/R3K2R w HAha -"
        );
        assert_eq!(invalid, 1);
        assert!(err.starts_with("in:5:56: error: fullmove number"), "{err}");
        let (out, _, _) = normalize_text(
            b"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\n",
            CastlingNotation::Xfen,
        );
        assert_eq!(
            out,
            b"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w KQkq - 0 1\n"
        );
    }

    #[test]
    fn in_place_through_a_symlink_rewrites_the_target_and_keeps_the_link() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.fen");
        let link = dir.path().join("link.fen");
        fs::write(
            &target,
            "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w KQkq - 0 1\n",
        )
        .unwrap();
        std::os::unix::fs::symlink("target.fen", &link).unwrap();
        let options = NormalizeOptions {
            check: CheckOptions::default(),
            castling: CastlingNotation::Shredder,
            in_place: true,
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run(&[link.display().to_string()], &options, &mut out, &mut err).unwrap();
        assert_eq!(
            code,
            exit_code::SUCCESS,
            "{}",
            String::from_utf8_lossy(&err)
        );
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_link(&link).unwrap(), Path::new("target.fen"));
        assert_eq!(
            fs::read_to_string(&target).unwrap(),
            "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\n"
        );
        let leftovers = fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(leftovers, 2, "no temporary file is left behind");
    }

    #[test]
    fn pgn_fen_tags_are_rewritten_in_place_and_the_rest_is_kept() {
        let input = b"[Event \"SP 860\"]\r\n[FEN \"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ  w KQkq - 0 1\"]\r\n\r\n1. e4 *\r\n";
        let options = NormalizeOptions {
            check: CheckOptions::default(),
            castling: CastlingNotation::Shredder,
            in_place: false,
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let invalid = match normalize_stream(&input[..], "b.pgn", &options, &mut out, &mut err) {
            Ok(invalid) => invalid,
            Err(_) => panic!("I/O error"),
        };
        assert_eq!(invalid, 0, "{}", String::from_utf8_lossy(&err));
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "[Event \"SP 860\"]\r\n[FEN \"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\"]\r\n\r\n1. e4 *\r\n"
        );
    }

    #[test]
    fn normalizing_twice_changes_nothing() {
        let input =
            b"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2\n1r2k1r1/8/8/8/8/8/8/1R2K1R1 b GBgb - 5 9\n";
        let (once, _, _) = normalize_text(input, CastlingNotation::Shredder);
        assert_eq!(once, input);
        let (xfen, _, _) = normalize_text(input, CastlingNotation::Xfen);
        assert_eq!(
            String::from_utf8(xfen.clone()).unwrap(),
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2\n1r2k1r1/8/8/8/8/8/8/1R2K1R1 b KQkq - 5 9\n"
        );
        let (back, _, _) = normalize_text(&xfen, CastlingNotation::Shredder);
        assert_eq!(back, input);
    }
}
