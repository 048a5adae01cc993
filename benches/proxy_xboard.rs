//! `sp960 proxy` for an XBoard engine against the engine alone, side by side in one run:
//! median `ping N` -> `pong N` round trip to Sjaak II, direct, through a null relay (the
//! floor any pipe-in-the-middle pays) and through the proxy, alternating one by one so
//! load hits all alike.
//!
//! A separate bench target from `benches/proxy.rs` (the UCI figures) only because that
//! file was being edited in parallel; they can be merged.
//!
//! Run: `cargo bench --bench proxy_xboard` (ROUNDS=N round trips, default 5000;
//! SJAAK=path, default /usr/games/sjaakii).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    line: String,
}

impl Engine {
    /// Starts `program` and completes the XBoard handshake (up to `feature ... done=1`).
    fn start(program: &str, args: &[&str]) -> Engine {
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
        };
        engine.send("xboard");
        engine.send("protover 2");
        engine.read_until(|line| line.starts_with("feature") && line.contains("done=1"));
        engine.ping(0);
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

    /// `ping n` -> `pong n`; returns the time taken.
    fn ping(&mut self, n: usize) -> Duration {
        let pong = format!("pong {n}");
        let begin = Instant::now();
        self.send(&format!("ping {n}"));
        self.read_until(|line| line == pong);
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

fn main() {
    let sp960 = env!("CARGO_BIN_EXE_sp960");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let built = Command::new(cargo)
        .args(["build", "--release", "--quiet", "--example", "null_relay"])
        .status()
        .unwrap();
    assert!(built.success());
    let null_relay: PathBuf = PathBuf::from(sp960)
        .parent()
        .unwrap()
        .join("examples")
        .join("null_relay");
    let null_relay = null_relay.to_str().unwrap();
    let sjaak = std::env::var("SJAAK").unwrap_or_else(|_| "/usr/games/sjaakii".into());
    let rounds = std::env::var("ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5000);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("load average before: {}", load.trim());

    let mut engines = [
        Engine::start(&sjaak, &[]),
        Engine::start(null_relay, &[&sjaak]),
        Engine::start(sp960, &["proxy", "--", &sjaak]),
    ];
    let mut samples = [Vec::new(), Vec::new(), Vec::new()];
    for round in 1..=rounds + 200 {
        for (engine, samples) in engines.iter_mut().zip(&mut samples) {
            let took = engine.ping(round);
            if round > 200 {
                samples.push(took);
            }
        }
    }
    for engine in engines {
        engine.quit();
    }
    println!("ping N -> pong N, Sjaak II (XBoard), {rounds} round trips each, interleaved:");
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
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("load average after: {}", load.trim());
}
