//! The real peers the tests run (`#[path]`-included by tests/runners.rs and
//! tests/match_stats.rs): the PATH they are found on, and whether one is there.
#![allow(dead_code)] // each test crate uses its part

use std::path::Path;

/// PATH for the peers: sp960 itself (wrapped engines call `sp960 proxy`), Debian's engines
/// in /usr/games, and the match runners where `.ci/run` builds them.
pub fn search_path() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_sp960"))
        .parent()
        .unwrap()
        .display()
        .to_string();
    let peers = std::env::var("HOME").map_or_else(
        |_| String::new(),
        |home| format!("{home}/.cache/sp960-peers/bin"),
    );
    format!(
        "{bin}:/usr/games:{peers}:{}",
        std::env::var("PATH").unwrap_or_default()
    )
}

/// True when `tool` is on the search path; false (a skip, told on stderr) when it is
/// not, unless `CI` is set, where its absence fails the test.
pub fn have(tool: &str) -> bool {
    let found = search_path()
        .split(':')
        .any(|dir| !dir.is_empty() && Path::new(dir).join(tool).is_file());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "{tool} is not installed: .ci/run builds it with ../shared/peers/build.sh"
        );
        eprintln!("SKIPPED: {tool} is not installed (../shared/peers/build.sh DIR builds it)");
    }
    found
}
