//! The `sp960` binary as the integration tests run it (included with `#[path]` by the
//! suites that use it; each uses what it needs).

use assert_cmd::Command;

/// `sp960`, as cargo built it for the tests.
#[allow(dead_code, reason = "each suite uses what it needs")]
pub fn sp960() -> Command {
    Command::cargo_bin("sp960").expect("binary built")
}

/// What `sp960 ARGS` writes to stdout; the command must succeed.
#[allow(dead_code, reason = "each suite uses what it needs")]
pub fn stdout_of(args: &[&str]) -> Vec<u8> {
    let output = sp960().args(args).output().unwrap();
    assert!(output.status.success(), "sp960 {args:?}: {output:?}");
    output.stdout
}

/// How many castling cases `sp960 check` has: one line each in `src/check/cases.epd`
/// (comments aside).
#[allow(dead_code, reason = "each suite uses what it needs")]
pub fn check_case_count() -> usize {
    include_str!("../../src/check/cases.epd")
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .count()
}
