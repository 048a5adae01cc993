//! Files as users download them: `validate`, `results`, `book stats` and `normalize` read
//! gzip, zstd, bzip2 and xz files and zip archives, told apart by their first bytes, with
//! the same verdicts as on the plain file; a zip entry is named `ARCHIVE!ENTRY`; a
//! truncated download is one error after the findings before it; a file that is not text
//! is one `not text` error. The compressed files are made with the crates' own encoders.

use std::fs;
use std::io::{Cursor, Write};
use std::path::{Path, PathBuf};

use assert_cmd::Command;

#[path = "support/peers.rs"]
mod peers;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures");

fn sp960() -> Command {
    Command::cargo_bin("sp960").expect("binary built")
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

fn zstd(bytes: &[u8]) -> Vec<u8> {
    ruzstd::encoding::compress_to_vec(bytes, ruzstd::encoding::CompressionLevel::Fastest)
}

fn bzip2(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut encoder =
        lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(6)).unwrap();
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// A zip archive of `entries` (name, bytes), deflated.
fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        writer.start_file(*name, options).unwrap();
        writer.write_all(bytes).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// `name` in `dir` with every compressed form of `bytes` beside it (a zip holding it as
/// `name`, and gzip, zstd, bzip2 and xz files of two members): the plain path first.
fn every_form(dir: &Path, name: &str, bytes: &[u8]) -> Vec<PathBuf> {
    let half = bytes.len() / 2;
    let cut = half + bytes[half..].iter().position(|&b| b == b'\n').unwrap() + 1;
    let (first, second) = bytes.split_at(cut);
    let two = |compress: fn(&[u8]) -> Vec<u8>| [compress(first), compress(second)].concat();
    let forms: Vec<(String, Vec<u8>)> = vec![
        (name.to_owned(), bytes.to_vec()),
        (format!("{name}.gz"), gzip(bytes)),
        // Several members, frames, streams: as pigz, zstd -T, pbzip2 and `cat` write them.
        (format!("{name}.2.gz"), two(gzip)),
        (format!("{name}.2.zst"), two(zstd)),
        (format!("{name}.2.bz2"), two(bzip2)),
        (format!("{name}.2.xz"), two(xz)),
        (format!("{name}.zst"), zstd(bytes)),
        (format!("{name}.bz2"), bzip2(bytes)),
        (format!("{name}.xz"), xz(bytes)),
        (format!("{name}.zip"), zip(&[(name, bytes)])),
        // Content, not the name, says what a file is.
        (format!("{name}.download"), gzip(bytes)),
    ];
    forms
        .into_iter()
        .map(|(file, bytes)| {
            let path = dir.join(file);
            fs::write(&path, bytes).unwrap();
            path
        })
        .collect()
}

/// Runs `sp960 ARGS PATH`: exit code, stdout and stderr with `PATH`'s name (and a zip's
/// `!ENTRY`) written as `FILE`.
fn run(args: &[&str], path: &Path, entry: &str) -> (Option<i32>, String, String) {
    let output = sp960().args(args).arg(path).output().unwrap();
    let shown = path.display().to_string();
    let unname = |text: &[u8]| {
        String::from_utf8_lossy(text)
            .replace(&format!("{shown}!{entry}"), "FILE")
            .replace(&shown, "FILE")
    };
    (
        output.status.code(),
        unname(&output.stdout),
        unname(&output.stderr),
    )
}

/// Lines of `text` without the summary's timing.
fn untimed(text: &str) -> String {
    text.lines()
        .map(|line| match line.rfind("; ") {
            Some(at) if line.ends_with(" s") => &line[..at],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn validate_gives_the_same_verdicts_compressed() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = fs::read(Path::new(FIXTURES).join("validate/invalid.fen")).unwrap();
    let forms = every_form(dir.path(), "invalid.fen", &bytes);
    let (code, out, err) = run(&["validate"], &forms[0], "invalid.fen");
    assert_eq!(code, Some(1));
    assert!(out.lines().count() > 20, "{out}");
    for form in &forms[1..] {
        let (form_code, form_out, form_err) = run(&["validate"], form, "invalid.fen");
        assert_eq!(form_code, code, "{}", form.display());
        assert_eq!(form_out, out, "{}", form.display());
        assert_eq!(untimed(&form_err), untimed(&err), "{}", form.display());
    }
}

#[test]
fn zip_diagnostics_name_the_entry() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = fs::read(Path::new(FIXTURES).join("validate/invalid.fen")).unwrap();
    let valid = fs::read(Path::new(FIXTURES).join("validate/valid.epd")).unwrap();
    let archive = dir.path().join("FRC_openings.epd.zip");
    fs::write(
        &archive,
        zip(&[
            ("valid.epd", &valid),
            ("sub/../invalid.fen", &bytes),
            ("dir/", b""),
        ]),
    )
    .unwrap();
    let output = sp960().arg("validate").arg(&archive).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let prefix = format!("{}!sub/../invalid.fen:3:43: error:", archive.display());
    assert!(stdout.starts_with(&prefix), "{stdout}");
    assert!(
        stdout
            .lines()
            .all(|line| line.contains("!sub/../invalid.fen:"))
    );
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("; 2 files;"), "{stderr}");
    // An entry's name is only a name: nothing is written beside the archive.
    assert!(!dir.path().join("invalid.fen").exists());
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn a_zip_inside_a_zip_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let valid = fs::read(Path::new(FIXTURES).join("validate/valid.epd")).unwrap();
    let inner = zip(&[("valid.epd", &valid)]);
    let archive = dir.path().join("outer.zip");
    fs::write(
        &archive,
        zip(&[("inner.zip", &inner), ("valid.epd", &valid)]),
    )
    .unwrap();
    let output = sp960().arg("validate").arg(&archive).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    let refusal = format!(
        "sp960: validate: {}!inner.zip: not text: a zip inside a zip; unpack it first\n",
        archive.display()
    );
    assert!(stderr.starts_with(&refusal), "{stderr}");
    assert!(stderr.contains("1 file, 1 not text"), "{stderr}");
}

#[test]
fn a_truncated_download_is_one_error_after_the_findings_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let one = fs::read(Path::new(FIXTURES).join("validate/invalid.fen")).unwrap();
    // Several blocks of lines, so that some are whole before the cut.
    let mut text = Vec::new();
    for copy in 0..3000 {
        text.extend_from_slice(format!("# copy {copy}\n").as_bytes());
        text.extend_from_slice(&one);
    }
    let whole = gzip(&text);
    let path = dir.path().join("big.fen.gz");
    fs::write(&path, &whole[..whole.len() / 2]).unwrap();
    let output = sp960().arg("validate").arg(&path).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.lines().count() > 1000, "{}", stdout.lines().count());
    assert!(stdout.lines().all(|line| line.contains(": error: ")));
    let stderr = String::from_utf8(output.stderr).unwrap();
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("cannot read"))
        .collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(
        errors[0].contains("truncated or corrupt gzip stream (compressed bytes read: "),
        "{stderr}"
    );
    let read = stdout.lines().count();
    assert!(
        errors[0].ends_with(&format!("({read} records read before it)")),
        "{stderr}"
    );
}

#[test]
fn a_file_that_is_not_text_is_one_error() {
    let dir = tempfile::tempdir().unwrap();
    // Bytes from a small linear congruential generator: random enough, the same each run.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let random: Vec<u8> = (0..4096)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (state >> 33) as u8
        })
        .collect();
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.extend_from_slice(&random[..64]);
    let cases: [(&str, Vec<u8>, &str); 4] = [
        (
            "random.epd",
            random.clone(),
            "not text: binary data at byte ",
        ),
        ("picture.epd", png, "not text: a PNG image"),
        (
            "openings.7z",
            b"7z\xbc\xaf\x27\x1c\0\x04".to_vec(),
            "not text: a 7z archive; unpack it first",
        ),
        ("random.gz", gzip(&random), "not text: binary data at byte "),
    ];
    for (name, bytes, what) in cases {
        let path = dir.path().join(name);
        fs::write(&path, bytes).unwrap();
        for args in [&["validate"][..], &["results"], &["book", "stats"]] {
            let output = sp960().args(args).arg(&path).output().unwrap();
            assert_eq!(output.status.code(), Some(1), "{args:?} {name}: {output:?}");
            let stderr = String::from_utf8(output.stderr).unwrap();
            let told: Vec<&str> = stderr
                .lines()
                .filter(|l| l.contains(": not text: "))
                .collect();
            assert_eq!(told.len(), 1, "{args:?} {name}: {stderr}");
            assert!(
                told[0].contains(&format!("{}: {what}", path.display())),
                "{args:?} {name}: {stderr}"
            );
            if args == ["validate"] {
                assert!(output.stdout.is_empty(), "{name}");
                assert_eq!(stderr.lines().count(), 2, "{stderr}");
            }
        }
    }
}

#[test]
fn results_are_the_same_compressed() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = fs::read(Path::new(FIXTURES).join("results/even.pgn")).unwrap();
    let forms = every_form(dir.path(), "even.pgn", &bytes);
    let (code, out, err) = run(&["results"], &forms[0], "even.pgn");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("games from"), "{out}");
    for form in &forms[1..] {
        assert_eq!(
            run(&["results"], form, "even.pgn"),
            (code, out.clone(), err.clone()),
            "{}",
            form.display()
        );
    }
}

#[test]
fn book_stats_are_the_same_compressed() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = fs::read(Path::new(FIXTURES).join("validate/starts.epd")).unwrap();
    let forms = every_form(dir.path(), "starts.epd", &bytes);
    for args in [&["book", "stats"][..], &["book", "stats", "--json"]] {
        let (code, out, err) = run(args, &forms[0], "starts.epd");
        assert_eq!(code, Some(0), "{err}");
        for form in &forms[1..] {
            assert_eq!(
                run(args, form, "starts.epd"),
                (code, out.clone(), err.clone()),
                "{args:?} {}",
                form.display()
            );
        }
    }
}

#[test]
fn normalize_reads_compressed_input() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = fs::read(Path::new(FIXTURES).join("normalize/input.epd")).unwrap();
    let forms = every_form(dir.path(), "input.epd", &bytes);
    let plain = sp960().arg("normalize").arg(&forms[0]).output().unwrap();
    for form in &forms[1..] {
        let output = sp960().arg("normalize").arg(form).output().unwrap();
        assert_eq!(
            output.status.code(),
            plain.status.code(),
            "{}",
            form.display()
        );
        assert_eq!(output.stdout, plain.stdout, "{}", form.display());
    }
}

/// `normalize --in-place` on a compressed file writes it back in the same compression:
/// the format's own tool (`gzip`, `zstd`, `bzip2`, `xz`) tests it and unpacks it into what
/// `normalize` prints for the plain file. An entry of a zip archive is refused, untouched.
#[test]
fn normalize_in_place_keeps_the_compression() {
    let dir = tempfile::tempdir().unwrap();
    // Valid records, written otherwise than normalize writes them.
    let text = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ  w  KQkq - 0 1\n\
                rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca -\n";
    let plain = dir.path().join("book.epd");
    fs::write(&plain, text).unwrap();
    let expected = sp960().arg("normalize").arg(&plain).output().unwrap();
    assert!(expected.status.success(), "{expected:?}");
    assert_ne!(expected.stdout, text.as_bytes());
    type Compress = fn(&[u8]) -> Vec<u8>;
    let forms: [(&str, Compress, &str); 5] = [
        ("gz", gzip, "gzip"),
        ("zst", zstd, "zstd"),
        ("bz2", bzip2, "bzip2"),
        ("xz", xz, "xz"),
        (
            "2.xz",
            |bytes| [xz(&bytes[..10]), xz(&bytes[10..])].concat(),
            "xz",
        ),
    ];
    for (suffix, compress, tool) in forms {
        if !peers::have(tool) {
            continue;
        }
        let path = dir.path().join(format!("book.epd.{suffix}"));
        fs::write(&path, compress(text.as_bytes())).unwrap();
        let output = sp960()
            .args(["normalize", "--in-place"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(output.status.success(), "{suffix}: {output:?}");
        let unpacked = std::process::Command::new(tool)
            .args(["-d", "-c"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(unpacked.status.success(), "{tool} -dc: {unpacked:?}");
        assert_eq!(
            String::from_utf8_lossy(&unpacked.stdout),
            String::from_utf8_lossy(&expected.stdout),
            "{suffix}"
        );
    }
    // A zip archive: each text entry normalized in its place, under its name and method;
    // read back by Python's zipfile (an independent reader).
    let archive = dir.path().join("books.zip");
    fs::write(
        &archive,
        zip(&[
            ("book.epd", text.as_bytes()),
            ("more/two.epd", text.as_bytes()),
        ]),
    )
    .unwrap();
    let output = sp960()
        .args(["normalize", "--in-place"])
        .arg(&archive)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let listed = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, zipfile\n\
             archive = zipfile.ZipFile(sys.argv[1])\n\
             for info in archive.infolist():\n\
             \x20   print(info.filename, info.compress_type)\n\
             \x20   sys.stdout.write(archive.read(info).decode())",
        ])
        .arg(&archive)
        .output()
        .unwrap();
    assert!(listed.status.success(), "{listed:?}");
    let normalized = String::from_utf8(expected.stdout.clone()).unwrap();
    assert_eq!(
        String::from_utf8(listed.stdout).unwrap(),
        format!("book.epd 8\n{normalized}more/two.epd 8\n{normalized}"),
    );
    // An invalid entry leaves the whole archive as it was (exit 1), and so does an entry
    // that is not text.
    let not_text = b"\x00\x01 binary data".as_slice();
    for entries in [
        [
            ("book.epd", text.as_bytes()),
            ("bad.epd", b"not a record\n".as_slice()),
        ],
        [("book.epd", text.as_bytes()), ("notes.bin", not_text)],
    ] {
        fs::write(&archive, zip(&entries)).unwrap();
        let before = fs::read(&archive).unwrap();
        let output = sp960()
            .args(["normalize", "--in-place"])
            .arg(&archive)
            .output()
            .unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains("books.zip: the archive is left unchanged"),
            "{stderr}"
        );
        assert_eq!(fs::read(&archive).unwrap(), before);
    }
}

/// `zstd --long=31` from a pipe declares a 2 GiB window; read from stdin too. Skipped
/// where the `zstd` tool is not installed.
#[test]
fn zstd_long_windows_from_stdin() {
    let bytes = fs::read(Path::new(FIXTURES).join("validate/invalid.fen")).unwrap();
    let Ok(mut child) = std::process::Command::new("zstd")
        .args(["-q", "--long=31", "-c", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
    else {
        eprintln!("zstd not installed: skipped");
        return;
    };
    child.stdin.take().unwrap().write_all(&bytes).unwrap();
    let compressed = child.wait_with_output().unwrap().stdout;
    let plain = sp960()
        .args(["validate", "-"])
        .write_stdin(bytes)
        .output()
        .unwrap();
    let output = sp960()
        .args(["validate", "-"])
        .write_stdin(compressed)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert_eq!(output.stdout, plain.stdout);
}

#[test]
fn identify_reads_a_compressed_stdin() {
    let fens = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\n\
                bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\n";
    for compressed in [gzip(fens.as_bytes()), xz(fens.as_bytes())] {
        let output = sp960()
            .args(["identify", "-"])
            .write_stdin(compressed)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        assert_eq!(String::from_utf8(output.stdout).unwrap(), "860\n0\n");
    }
    let output = sp960()
        .args(["identify", "-"])
        .write_stdin(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "sp960: identify: <stdin>: not text: a PNG image\n"
    );
}

/// `book package` packages a compressed book's text, named as the text is: the same
/// files and metadata as from the plain book.
#[test]
fn book_package_of_a_compressed_book_is_the_plain_books_package() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = fs::read(Path::new(FIXTURES).join("validate/starts.epd")).unwrap();
    let package = |book: &Path, out: &str| {
        let out = dir.path().join(out);
        let output = sp960()
            .args(["book", "package", "--for", "fishtest"])
            .arg(book)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert!(output.status.success(), "{}: {output:?}", book.display());
        let mut files: Vec<(String, Vec<u8>)> = fs::read_dir(&out)
            .unwrap()
            .map(|entry| {
                let entry = entry.unwrap();
                (
                    entry.file_name().to_string_lossy().into_owned(),
                    fs::read(entry.path()).unwrap(),
                )
            })
            .collect();
        files.sort();
        (output.stdout, files)
    };
    let books = dir.path().join("books");
    fs::create_dir(&books).unwrap();
    let forms = every_form(&books, "starts.epd", &bytes);
    let plain = package(&forms[0], "plain");
    for (at, form) in forms.iter().enumerate().skip(1) {
        let name = form.file_name().unwrap().to_string_lossy();
        if name.ends_with(".download") || name.contains(".2.") {
            continue; // its name, without the suffix, is not the book's
        }
        assert_eq!(
            package(form, &format!("out{at}")),
            plain,
            "{}",
            form.display()
        );
    }
}

/// `check --positions` reads a compressed file and places its errors in the text.
#[test]
fn check_positions_reads_a_compressed_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.epd.gz");
    fs::write(
        &file,
        gzip(b"4k3/8/8/8/8/8/8/R3K2R w HA - ;D1 26 ;D2 500\n"),
    )
    .unwrap();
    let output = sp960()
        .args(["check", "no-such-engine", "--depth", "2", "--positions"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr).trim_end(),
        format!(
            "sp960: check: --positions {}:1:41: EPD operation D2 is 500 here, the right count is 112",
            file.display()
        )
    );
}

/// `tournament --openings` checks a book as `validate` reads it, but the runner opens the
/// file itself: a compressed book is refused, naming the runner.
#[test]
fn tournament_refuses_a_compressed_book_the_runner_cannot_read() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = fs::read(Path::new(FIXTURES).join("validate/starts.epd")).unwrap();
    let forms = every_form(dir.path(), "starts.epd", &bytes);
    let tournament = |book: &Path| {
        sp960()
            .args(["tournament", "--emit", "cutechess"])
            .args([
                "--engine",
                "/bin/true",
                "--engine",
                "/bin/false",
                "--openings",
            ])
            .arg(book)
            .output()
            .unwrap()
    };
    assert!(tournament(&forms[0]).status.success());
    for form in &forms[1..] {
        let output = tournament(form);
        assert_eq!(output.status.code(), Some(2), "{}", form.display());
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(
            stderr.contains("cutechess-cli reads the book file itself, and this is a"),
            "{stderr}"
        );
        assert!(stderr.contains("decompress it first"), "{stderr}");
    }
}
