//! `sp960 proxy` against the engine alone, side by side in one run:
//! 1. median round trip, direct, through a null relay (the floor any pipe-in-the-middle
//!    pays) and through the proxy, alternating one by one so load hits all alike:
//!    UCI `isready` -> `readyok` to Stockfish, and XBoard `ping N` -> `pong N` to Sjaak II;
//! 2. a 1,000,000-line `info` flood (examples/fake_uci_engine.rs), direct and through the
//!    proxy: line-flushed (one write per line, as engines do) and block-buffered.
//!
//! Run: `cargo bench --bench proxy` (ROUNDS=N round trips per protocol, default 5000;
//! RUNS=N floods each, default 5, 0 skips them; GAP_US=N, a pause before each round
//! trip, default 0 (more than the proxy's spin window, 200 us: the GUI's request finds
//! the proxy asleep, as after a GUI's think); SP960=path, another sp960 build to
//! compare; STOCKFISH=path, default
//! /usr/games/stockfish; SJAAK=path, default /usr/games/sjaakii).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The protocol an engine is spoken to in.
#[derive(Debug, Clone, Copy)]
enum Protocol {
    Uci,
    Xboard,
}

struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    line: String,
    protocol: Protocol,
}

impl Engine {
    /// Starts `program` and completes the handshake (`uciok`, or XBoard's `feature ...
    /// done=1`) and one round trip.
    fn start(protocol: Protocol, program: &str, args: &[&str]) -> Engine {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|err| panic!("{program}: {err}"));
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut engine = Engine {
            child,
            stdin,
            stdout,
            line: String::new(),
            protocol,
        };
        match protocol {
            Protocol::Uci => {
                engine.send("uci");
                engine.read_until(|line| line == "uciok");
            }
            Protocol::Xboard => {
                engine.send("xboard");
                engine.send("protover 2");
                engine.read_until(|line| line.starts_with("feature") && line.contains("done=1"));
            }
        }
        engine.round_trip(0);
        engine
    }

    fn send(&mut self, command: &str) {
        writeln!(self.stdin, "{command}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn read_until(&mut self, done: impl Fn(&str) -> bool) {
        loop {
            self.line.clear();
            assert!(
                self.stdout.read_line(&mut self.line).unwrap() > 0,
                "engine gone"
            );
            if done(self.line.trim_end()) {
                return;
            }
        }
    }

    /// `isready` -> `readyok` (UCI) or `ping n` -> `pong n` (XBoard); the time taken.
    fn round_trip(&mut self, n: usize) -> Duration {
        let begin = Instant::now();
        match self.protocol {
            Protocol::Uci => {
                self.send("isready");
                self.read_until(|line| line == "readyok");
            }
            Protocol::Xboard => {
                let pong = format!("pong {n}");
                self.send(&format!("ping {n}"));
                self.read_until(|line| line == pong);
            }
        }
        begin.elapsed()
    }

    fn quit(mut self) {
        let _ = writeln!(self.stdin, "quit");
        drop(self.stdin);
        let _ = self.child.wait();
    }
}

fn median(samples: &mut [Duration]) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn percentile(samples: &[Duration], p: f64) -> Duration {
    samples[((samples.len() - 1) as f64 * p) as usize]
}

/// Round trips to `engine` direct, through `null_relay` and through the proxy,
/// interleaved; prints medians, p90 and ratios under `title`.
fn round_trips(
    title: &str,
    protocol: Protocol,
    engine: &str,
    null_relay: &str,
    sp960: &str,
    rounds: usize,
    gap: Duration,
) {
    let mut engines = [
        Engine::start(protocol, engine, &[]),
        Engine::start(protocol, null_relay, &[engine]),
        Engine::start(protocol, sp960, &["proxy", "--", engine]),
    ];
    let mut samples = [Vec::new(), Vec::new(), Vec::new()];
    for round in 1..=rounds + 200 {
        for (engine, samples) in engines.iter_mut().zip(&mut samples) {
            if !gap.is_zero() {
                std::thread::sleep(gap);
            }
            let took = engine.round_trip(round);
            if round > 200 {
                samples.push(took);
            }
        }
    }
    for engine in engines {
        engine.quit();
    }
    println!(
        "{title}, {rounds} round trips each, interleaved, {} us apart:",
        gap.as_micros()
    );
    let direct_median = median(&mut samples[0]);
    for (name, samples) in ["direct", "null relay (floor)", "through sp960 proxy"]
        .iter()
        .zip(&mut samples)
    {
        let m = median(samples);
        println!(
            "  {name:<20} median {:7.1} us  p90 {:7.1} us  {:.2}x direct",
            m.as_secs_f64() * 1e6,
            percentile(samples, 0.9).as_secs_f64() * 1e6,
            m.as_secs_f64() / direct_median.as_secs_f64(),
        );
    }
    println!("  (goal for the proxy: <= 1.10x direct)");
}

/// Time from `go` to the `bestmove` after the flood (after `prelude` and `isready`).
fn flood_time(program: &str, args: &[&str], prelude: &str) -> Duration {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut buffer = vec![0u8; 256 * 1024];
    let mut tail = Vec::new();
    let mut lines = 0usize;
    stdin
        .write_all(format!("{prelude}isready\n").as_bytes())
        .unwrap();
    stdin.flush().unwrap();
    while !tail.ends_with(b"readyok\n") {
        let n = stdout.read(&mut buffer).unwrap();
        assert!(n > 0, "no readyok");
        tail.extend_from_slice(&buffer[..n]);
    }
    tail.clear();
    let begin = Instant::now();
    stdin.write_all(b"go infinite\n").unwrap();
    stdin.flush().unwrap();
    loop {
        let n = stdout.read(&mut buffer).unwrap();
        assert!(n > 0, "flood ended early");
        lines += buffer[..n].iter().filter(|&&b| b == b'\n').count();
        tail.extend_from_slice(&buffer[..n]);
        if tail.len() > 64 {
            tail.drain(..tail.len() - 64);
        }
        if tail.ends_with(b"bestmove e2e4\n") {
            break;
        }
    }
    let elapsed = begin.elapsed();
    assert_eq!(lines, 1_000_001);
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    child.wait().unwrap();
    elapsed
}

fn main() {
    let sp960 = std::env::var("SP960").unwrap_or_else(|_| env!("CARGO_BIN_EXE_sp960").to_owned());
    let sp960 = sp960.as_str();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let built = Command::new(cargo)
        .args([
            "build",
            "--release",
            "--quiet",
            "--example",
            "fake_uci_engine",
            "--example",
            "null_relay",
        ])
        .status()
        .unwrap();
    assert!(built.success());
    let fake: PathBuf = PathBuf::from(env!("CARGO_BIN_EXE_sp960"))
        .parent()
        .unwrap()
        .join("examples")
        .join("fake_uci_engine");
    let fake = fake.to_str().unwrap();
    let null_relay = fake.replace("fake_uci_engine", "null_relay");
    let stockfish = std::env::var("STOCKFISH").unwrap_or_else(|_| "/usr/games/stockfish".into());
    let sjaak = std::env::var("SJAAK").unwrap_or_else(|_| "/usr/games/sjaakii".into());
    let rounds = env_number("ROUNDS", 5000);
    let runs = env_number("RUNS", 5);
    let gap = Duration::from_micros(env_number("GAP_US", 0) as u64);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("load average before: {}", load.trim());

    round_trips(
        "UCI isready -> readyok, Stockfish",
        Protocol::Uci,
        &stockfish,
        &null_relay,
        sp960,
        rounds,
        gap,
    );
    round_trips(
        "XBoard ping N -> pong N, Sjaak II",
        Protocol::Xboard,
        &sjaak,
        &null_relay,
        sp960,
        rounds,
        gap,
    );

    let castling_on = [
        "proxy",
        "--sp",
        "518",
        "--gui-castling",
        "standard",
        "--quit-timeout",
        "60000",
        "--",
    ];
    for mode in ["flood", "flood-buffered"].into_iter().filter(|_| runs > 0) {
        let mut samples = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
        let count = "1000000";
        let plain = ["proxy", "--quit-timeout", "60000", "--", fake, mode, count];
        // A search root with castling rights and dialects that differ: every info line
        // is searched for the root's castling texts.
        let translating = [&castling_on[..], &[fake, mode, count]].concat();
        let variants: [(&str, Vec<&str>, &str); 4] = [
            (fake, vec![mode, count], ""),
            (&null_relay, vec![fake, mode, count], ""),
            (sp960, plain.to_vec(), ""),
            (sp960, translating, "uci\nposition startpos\n"),
        ];
        for run in 0..runs {
            // Rotated order each run, so no variant always runs first or last.
            for k in 0..variants.len() {
                let index = (run + k) % variants.len();
                let (program, args, prelude) = &variants[index];
                samples[index].push(flood_time(program, args, prelude));
            }
        }
        println!("1,000,000-line info flood ({mode}), {runs} runs each, interleaved:");
        let direct_median = median(&mut samples[0]);
        for (name, samples) in [
            "direct",
            "null relay (floor)",
            "through sp960 proxy",
            "proxy, translating",
        ]
        .iter()
        .zip(&mut samples)
        {
            let m = median(samples);
            println!(
                "  {name:<20} median {:6.3} s  {:5.2} M lines/s  throughput {:.2}x direct",
                m.as_secs_f64(),
                1.0 / m.as_secs_f64(),
                direct_median.as_secs_f64() / m.as_secs_f64(),
            );
        }
        println!("  (goal for the proxy: >= 0.9x direct)");
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("load average after: {}", load.trim());
}
