//! The decoders sp960 reads compressed inputs with, side by side in one run with the C
//! libraries' own command-line tools on the same files: gzip through flate2's miniz_oxide
//! backend against `gzip -dc` (GNU gzip's C inflate); zstd through ruzstd against `zstd -dc`
//! (libzstd); bzip2 through libbz2-rs-sys (bzip2 crate) against `bzip2 -dc` (libbz2); xz
//! through lzma-rust2 against `xz -dc` (liblzma). Each decodes the whole file to nothing:
//! the crate in this process (through `Compression::decoder`, what every command reads
//! through, from the file's bytes in memory), the tool as a
//! process writing to /dev/null, so the tool's figure includes its start (about a
//! millisecond) and nothing else.
//!
//! The text: fixtures/games/corpus/'s samples concatenated COPIES times (default 20: about
//! 34 MB of PGN), compressed by each tool at its default level (`zstd -3`, `gzip -6`,
//! `bzip2 -9`, `xz -6`). Rounds alternate the contenders (RUNS, default 5); medians of wall
//! time, MB/s of text, and the crate's time over the tool's.
//!
//! Run: `cargo bench --bench decoders` (needs gzip, zstd, bzip2 and xz on PATH).

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use sp960::Compression;

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

fn median(mut seconds: Vec<f64>) -> f64 {
    seconds.sort_by(f64::total_cmp);
    seconds[seconds.len() / 2]
}

/// The corpus samples, in name order, concatenated `copies` times.
fn corpus_text(copies: usize) -> Vec<u8> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/games/corpus");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("fixtures/games/corpus")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "pgn"))
        .collect();
    files.sort();
    let one: Vec<u8> = files
        .iter()
        .flat_map(|path| fs::read(path).expect("read sample"))
        .collect();
    one.repeat(copies)
}

/// `tool ARGS` with `input` on stdin, its stdout.
fn tool_output(tool: &str, args: &[&str], input: &[u8]) -> Vec<u8> {
    let mut child = Command::new(tool)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| panic!("{tool}: {error} (install it)"));
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let mut out = Vec::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_end(&mut out)
        .expect("read");
    writer.join().expect("writer").expect("write");
    assert!(child.wait().expect("wait").success(), "{tool} failed");
    out
}

/// sp960's decoder (`Compression::decoder`, what every command reads through) over
/// `compressed`; the bytes of text.
fn crate_decode(format: Compression, compressed: Vec<u8>) -> io::Result<u64> {
    let mut reader = format.decoder(Box::new(io::Cursor::new(compressed)));
    io::copy(&mut reader, &mut io::sink())
}

fn main() {
    let copies = env_number("COPIES", 20);
    let runs = env_number("RUNS", 5).max(1);
    let text = corpus_text(copies);
    let dir = tempfile::tempdir().expect("temporary directory");
    let mb = text.len() as f64 / 1e6;
    let load = fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "text: {mb:.1} MB of PGN ({copies} copies of the corpus samples); {} cores; load average {}",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!(
        "{:<6} {:>9} {:>12} {:>12} {:>10} {:>10} {:>7}",
        "format", "packed MB", "crate s", "tool s", "crate MB/s", "tool MB/s", "ratio"
    );
    let formats = [
        (Compression::Gzip, "gzip", "-6"),
        (Compression::Zstd, "zstd", "-3"),
        (Compression::Bzip2, "bzip2", "-9"),
        (Compression::Xz, "xz", "-6"),
    ];
    for (format, tool, level) in formats {
        let compressed = tool_output(tool, &["-c", level], &text);
        let path = dir.path().join(format!("text{}", format.suffix()));
        fs::write(&path, &compressed).expect("write");
        assert_eq!(
            crate_decode(format, compressed.clone()).expect("the crate decodes the tool's file"),
            text.len() as u64,
            "{format}: the crate's text is the text"
        );
        let (mut crate_times, mut tool_times) = (Vec::new(), Vec::new());
        for _ in 0..runs {
            let input = compressed.clone();
            let start = Instant::now();
            let bytes = crate_decode(format, std::hint::black_box(input)).expect("decode");
            crate_times.push(start.elapsed().as_secs_f64());
            assert_eq!(bytes, text.len() as u64);
            let start = Instant::now();
            let status = Command::new(tool)
                .args(["-d", "-c"])
                .arg(&path)
                .stdout(Stdio::null())
                .status()
                .expect("tool");
            tool_times.push(start.elapsed().as_secs_f64());
            assert!(status.success());
        }
        let (crate_s, tool_s) = (median(crate_times), median(tool_times));
        println!(
            "{:<6} {:>9.1} {:>12.3} {:>12.3} {:>10.0} {:>10.0} {:>6.2}x",
            format.name(),
            compressed.len() as f64 / 1e6,
            crate_s,
            tool_s,
            mb / crate_s,
            mb / tool_s,
            crate_s / tool_s
        );
    }
}
