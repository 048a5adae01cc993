//! The floor for any line proxy, for the benchmark: starts `PROGRAM ARGS...` and copies
//! bytes both ways with no parsing at all (one thread per direction, raw reads and
//! writes). Whatever `sp960 proxy` costs beyond this is its own doing; this much is the
//! price of a second process in the pipe.
//!
//! Usage: `null_relay PROGRAM [ARGS...]`

use std::io::{Read, Write};
use std::process::{Command, Stdio};

fn copy(mut from: impl Read, mut to: impl Write) {
    let mut buffer = vec![0u8; 64 * 1024];
    while let Ok(n) = from.read(&mut buffer) {
        if n == 0
            || to
                .write_all(&buffer[..n])
                .and_then(|()| to.flush())
                .is_err()
        {
            break;
        }
    }
}

fn main() {
    let mut args = std::env::args_os().skip(1);
    let program = args.next().expect("usage: null_relay PROGRAM [ARGS...]");
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    let engine_in = child.stdin.take().unwrap();
    let engine_out = child.stdout.take().unwrap();
    std::thread::spawn(move || copy(std::io::stdin().lock(), engine_in));
    // Raw stdout (std's is line-buffered).
    let stdout = std::fs::File::from(
        std::os::fd::AsFd::as_fd(&std::io::stdout())
            .try_clone_to_owned()
            .unwrap(),
    );
    copy(engine_out, stdout);
    let status = child.wait().expect("wait");
    std::process::exit(status.code().unwrap_or(1));
}
