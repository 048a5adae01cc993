//! Throughput of `sp960 validate` side by side, in one run, with its two anchors:
//! - a bare single-threaded loop of shakmaty's `Fen::from_ascii` + `into_position` over
//!   the same records in memory (the limit of one core);
//! - python-chess, `chess.Board(fen, chess960=True).is_valid()` per line (on a sample).
//!
//! The corpus: 1,000,000 valid Chess960 positions (every ply of seeded random games from
//! random starts, a quarter double-FRC), the same on every machine.
//!
//! Run: `cargo bench --bench validate_throughput`. Environment: RECORDS (default 1000000),
//! RUNS (timed runs of the Rust contenders, default 5; medians are reported), PY_RECORDS
//! (python-chess sample size, default 100000), KEEP_CORPUS (a path to keep the corpus at).

#[path = "../tests/support/corpus.rs"]
#[allow(dead_code)] // the mutations serve the python-chess agreement test
mod corpus;

use std::hint::black_box;
use std::io::Write;
use std::process::Command;
use std::time::Instant;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

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

/// CPU time (user + system) of the waited-for child processes so far, from /proc (0 where
/// there is no /proc).
fn children_cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name in parentheses; cutime and cstime are fields 16 and 17.
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = |index: usize| -> f64 {
        fields
            .get(index)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // Field n (1-based, counting pid and name) is at index n - 3 here; USER_HZ is 100.
    (ticks(16 - 3) + ticks(17 - 3)) / 100.0
}

fn main() {
    let records = env_number("RECORDS", 1_000_000);
    let runs = env_number("RUNS", 5).max(1);
    let python_records = env_number("PY_RECORDS", 100_000).min(records);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "corpus: {records} play-out positions; {} cores; load average {}",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );

    let generated = Instant::now();
    let fens = corpus::playout_fens(2024, records, 160);
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("corpus.fen");
    let mut text = fens.join("\n");
    text.push('\n');
    std::fs::write(&path, &text).expect("corpus written");
    let python_path = dir.path().join("sample.fen");
    let mut sample = fens[..python_records].join("\n");
    sample.push('\n');
    std::fs::write(&python_path, &sample).expect("sample written");
    if let Ok(keep) = std::env::var("KEEP_CORPUS") {
        std::fs::copy(&path, keep).expect("corpus copied to KEEP_CORPUS");
    }
    println!(
        "generated in {:.1} s ({} MB)",
        generated.elapsed().as_secs_f64(),
        text.len() / 1_000_000
    );

    // 1. The bare loop, in memory, one thread; 2. the sp960 binary as a user runs it (the
    // file from disk, in the page cache; all cores). Rounds alternate the two so that the
    // load of a shared machine weighs on both alike.
    let lines: Vec<&[u8]> = text
        .as_bytes()
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    let bare_loop = || {
        let started = Instant::now();
        let mut valid = 0usize;
        for line in &lines {
            let fen = Fen::from_ascii(line).expect("corpus FEN");
            if black_box(fen.into_position::<Chess>(CastlingMode::Chess960)).is_ok() {
                valid += 1;
            }
        }
        assert_eq!(valid, records);
        started.elapsed().as_secs_f64()
    };
    let sp960_process = || {
        let cpu_before = children_cpu_seconds();
        let started = Instant::now();
        let output = Command::new(env!("CARGO_BIN_EXE_sp960"))
            .args(["validate", "--quiet"])
            .arg(&path)
            .output()
            .expect("sp960 runs");
        let seconds = started.elapsed().as_secs_f64();
        let summary = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{summary}");
        assert!(summary.contains(&format!("{records} valid")), "{summary}");
        (seconds, children_cpu_seconds() - cpu_before)
    };
    let (mut bare_runs, mut sp960_runs, mut sp960_cpu) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        bare_runs.push(bare_loop());
        let (seconds, cpu) = sp960_process();
        sp960_runs.push(seconds);
        sp960_cpu.push(cpu);
    }
    let (bare, sp960, sp960_cpu) = (median(bare_runs), median(sp960_runs), median(sp960_cpu));

    // 3. python-chess on a sample, one run (it is the slow one).
    let script = "import sys, time, chess\n\
        lines = open(sys.argv[1]).read().splitlines()\n\
        start = time.perf_counter()\n\
        valid = sum(chess.Board(line, chess960=True).is_valid() for line in lines)\n\
        print(time.perf_counter() - start, valid)\n";
    let python = Command::new("python3")
        .args(["-c", script])
        .arg(&python_path)
        .output()
        .ok()
        .filter(|output| output.status.success())
        .and_then(|output| {
            let stdout = String::from_utf8_lossy(&output.stdout).to_string();
            let mut parts = stdout.split_whitespace();
            let seconds: f64 = parts.next()?.parse().ok()?;
            let valid: usize = parts.next()?.parse().ok()?;
            assert_eq!(
                valid, python_records,
                "python-chess disagrees on the corpus"
            );
            Some(seconds)
        });

    let rate = |count: usize, seconds: f64| count as f64 / seconds;
    let bare_rate = rate(records, bare);
    let sp960_rate = rate(records, sp960);
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "{:<44} {:>12} {:>14}",
        "contender", "median s", "records/s"
    );
    let _ = writeln!(
        out,
        "{:<44} {:>12.3} {:>14.0}",
        "bare Fen::from_ascii + into_position (1 core)", bare, bare_rate
    );
    let _ = writeln!(
        out,
        "{:<44} {:>12.3} {:>14.0}",
        "sp960 validate --quiet (process, all cores)", sp960, sp960_rate
    );
    let _ = writeln!(
        out,
        "{:<44} {:>12.3}   (CPU time of all its threads: {:.2}x the bare loop's time)",
        "sp960 validate CPU time (user + sys)",
        sp960_cpu,
        sp960_cpu / bare
    );
    match python {
        Some(seconds) => {
            let python_rate = rate(python_records, seconds);
            let _ = writeln!(
                out,
                "{:<44} {:>12.3} {:>14.0}   ({python_records} records)",
                "python-chess Board(..).is_valid()", seconds, python_rate
            );
            let _ = writeln!(
                out,
                "ratios: sp960/bare {:.2}x (goal >= 1.7x), sp960/python-chess {:.0}x (goal >= 100x)",
                sp960_rate / bare_rate,
                sp960_rate / python_rate
            );
        }
        None => {
            let _ = writeln!(
                out,
                "python-chess: not available (pip install chess==1.11.2)"
            );
            let _ = writeln!(
                out,
                "ratio: sp960/bare {:.2}x (goal >= 1.7x)",
                sp960_rate / bare_rate
            );
        }
    }
}
