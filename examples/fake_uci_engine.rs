//! A scripted UCI engine for the proxy's fault-injection tests and benchmark: it does
//! what real engines cannot be made to do on cue.
//!
//! Usage: `fake_uci_engine MODE [N]`
//! - `flood N`: on `go`, writes N `info` lines (one `write` per line, as engines flush),
//!   then `bestmove e2e4`;
//! - `flood-buffered N`: the same, block-buffered (64 KiB writes);
//! - `crash-on-go`: on `go`, one `info` line, then abort (SIGABRT) mid-search;
//! - `fault-on-go`: on `go`, one `info` line, then a write through a null pointer (SIGSEGV
//!   on Unix, an access violation on Windows);
//! - `hang-on-quit`: ignores `quit`, the end of its input and SIGTERM, and sleeps;
//! - `deaf`: ignores `quit` and the end of its input, and sleeps (signals end it);
//! - `args WORD...`: prints each WORD on a line of its own and exits (what a shell gave it);
//! - `die-once-on-go FILE`: on `go`, if FILE does not exist, creates it, writes one `info`
//!   line and aborts (SIGABRT); otherwise (the restarted engine) answers `bestmove e2e4`.
//!   Every line it reads goes to stderr as `fake read: LINE`;
//! - `no-bestmove`: on `go`, one `info ... pv e2e4` line and no `bestmove`, ever (a search
//!   that ignores `stop` and its clock);
//! - `relay-crash-once MARKER N PROGRAM...` / `relay-hang-once MARKER N PROGRAM...`: relays
//!   every line between its input and a real engine (PROGRAM, with its arguments) both
//!   ways; at the N-th `go` (1-based), when the file MARKER does not exist yet, creates it
//!   and then aborts (crash) or stops answering and sleeps (hang) — so the engine fails
//!   once, and its restart (MARKER now there) relays as the real engine does.
//!
//! On `uci` it prints `info string pid <pid>` first, so tests can check it was reaped.

use std::io::{self, BufRead, Write};

/// Line `i` of a flood: varied like real engine output, with the odd irregular line
/// (tabs, trailing spaces, CR, a non-UTF-8 byte) that a proxy must pass unchanged.
pub fn flood_line(i: u64, out: &mut Vec<u8>) {
    let depth = 1 + i % 40;
    let _ = write!(
        out,
        "info depth {depth} seldepth {} multipv 1 score cp {} nodes {} nps 1234567 hashfull {} tbhits 0 time {} pv e2e4 e7e5 g1f3 b8c6 f1b5",
        depth + 3,
        (i % 200) as i64 - 100,
        i * 1013,
        i % 1000,
        i / 1000
    );
    match i % 97 {
        0 => out.extend_from_slice(b" \t "),
        1 => out.extend_from_slice(b"\r"),
        2 => out.extend_from_slice(b" string caf\xe9 \xff"),
        _ => {}
    }
    out.push(b'\n');
}

/// `count` flood lines to stdout: one write per line (`per_line`) or per 64 KiB.
fn flood(count: u64, per_line: bool) {
    let mut raw = io::stdout().lock();
    let mut line = Vec::with_capacity(256);
    let mut block = Vec::with_capacity(64 * 1024);
    for i in 0..count {
        line.clear();
        flood_line(i, &mut line);
        if per_line {
            raw.write_all(&line).expect("write");
            raw.flush().expect("flush");
        } else {
            block.extend_from_slice(&line);
            if block.len() >= 60 * 1024 {
                raw.write_all(&block).expect("write");
                block.clear();
            }
        }
    }
    raw.write_all(&block).expect("write");
    raw.flush().expect("flush");
}

/// The `relay-*-once` modes: a real engine behind us, failing once on cue.
fn relay_failing_once(hang: bool, args: &[String]) {
    let [marker, n, program, engine_args @ ..] = args else {
        eprintln!(
            "usage: fake_uci_engine relay-crash-once|relay-hang-once MARKER N PROGRAM [ARG...]"
        );
        std::process::exit(2);
    };
    let fail_at: u64 = n.parse().expect("N: a number");
    let mut child = std::process::Command::new(program)
        .args(engine_args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the relayed engine starts");
    let mut to_engine = child.stdin.take().expect("piped");
    let mut from_engine = child.stdout.take().expect("piped");
    std::thread::spawn(move || {
        let _ = io::copy(&mut from_engine, &mut io::stdout().lock());
    });
    let mut goes = 0;
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if line.split_whitespace().next() == Some("go") {
            goes += 1;
            if goes == fail_at && !std::path::Path::new(marker).exists() {
                std::fs::write(marker, b"failed once\n").expect("marker written");
                let _ = child.kill();
                if hang {
                    loop {
                        std::thread::sleep(std::time::Duration::from_secs(60));
                    }
                }
                std::process::abort();
            }
        }
        if writeln!(to_engine, "{line}")
            .and_then(|()| to_engine.flush())
            .is_err()
        {
            break;
        }
    }
    drop(to_engine);
    let _ = child.wait();
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().map(String::as_str).unwrap_or("");
    let count: u64 = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(0);
    if mode == "args" {
        for word in &args[1..] {
            println!("{word}");
        }
        return;
    }
    if mode == "die-once-on-go" || mode == "no-bestmove" {
        return recovery_modes(mode, args.get(1).map(String::as_str));
    }
    if mode == "relay-crash-once" || mode == "relay-hang-once" {
        relay_failing_once(mode == "relay-hang-once", &args[1..]);
        return;
    }
    match mode {
        "flood" | "flood-buffered" | "crash-on-go" | "fault-on-go" | "hang-on-quit" | "deaf" => {}
        _ => {
            eprintln!(
                "usage: fake_uci_engine flood N | flood-buffered N | crash-on-go | fault-on-go | hang-on-quit | deaf | args WORD... | die-once-on-go FILE | no-bestmove | relay-crash-once MARKER N PROGRAM... | relay-hang-once MARKER N PROGRAM..."
            );
            std::process::exit(2);
        }
    }
    #[cfg(unix)]
    if mode == "hang-on-quit" {
        // SAFETY: setting a signal disposition to SIG_IGN.
        unsafe {
            libc::signal(libc::SIGTERM, libc::SIG_IGN);
        }
    }
    let say = |text: &str| {
        let mut out = io::stdout().lock();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    };
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        match line.split_whitespace().next().unwrap_or("") {
            "uci" => {
                say(&format!("info string pid {}", std::process::id()));
                say("id name Fake Engine");
                say("option name UCI_Chess960 type check default false");
                say("uciok");
            }
            "isready" => say("readyok"),
            "go" if mode == "fault-on-go" => {
                say("info depth 1 score cp 10 nodes 20 pv e2e4");
                // SAFETY: none: the point is the fault, as a buggy engine's.
                unsafe {
                    std::ptr::null_mut::<u8>().write_volatile(1);
                }
            }
            "go" if mode == "crash-on-go" => {
                say("info depth 1 score cp 10 nodes 20 pv e2e4");
                std::process::abort();
            }
            "go" if mode.starts_with("flood") => {
                flood(count, mode == "flood");
                say("bestmove e2e4");
            }
            "go" => say("bestmove e2e4"),
            "quit" if mode == "hang-on-quit" || mode == "deaf" => {}
            "quit" => return,
            _ => {}
        }
    }
    if mode == "hang-on-quit" || mode == "deaf" {
        loop {
            std::thread::sleep(std::time::Duration::from_secs(60));
        }
    }
}

/// The modes for the proxy's engine restart and clock guard (`die-once-on-go`,
/// `no-bestmove`).
fn recovery_modes(mode: &str, file: Option<&str>) {
    let say = |text: &str| {
        let mut out = io::stdout().lock();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    };
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        eprintln!("fake read: {line}");
        match line.split_whitespace().next().unwrap_or("") {
            "uci" => {
                say(&format!("info string pid {}", std::process::id()));
                say("id name Fake Engine");
                say("option name UCI_Chess960 type check default false");
                say("option name Hash type spin default 16 min 1 max 1024");
                say("uciok");
            }
            "isready" => say("readyok"),
            "go" if mode == "no-bestmove" => say("info depth 1 score cp 10 nodes 20 pv e2e4"),
            "go" => match file {
                Some(file) if !std::path::Path::new(file).exists() => {
                    std::fs::write(file, b"died\n").expect("write the marker file");
                    say("info depth 1 score cp 10 nodes 20 pv e2e4");
                    std::process::abort();
                }
                _ => say("bestmove e2e4"),
            },
            "quit" => return,
            _ => {}
        }
    }
}
