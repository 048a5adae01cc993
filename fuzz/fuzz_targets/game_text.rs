//! PGN games checked as games on arbitrary bytes: every game gets a verdict, never a panic,
//! a hang or a stack overflow, and every finding points into the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sp960::{CheckOptions, check_games};

fuzz_target!(|data: &[u8]| {
    let lines = data.split(|b| *b == b'\n').count();
    for game in check_games(data, CheckOptions::default(), 0) {
        assert!(game.line >= 1 && game.line <= lines);
        for finding in &game.findings {
            assert!(finding.line >= 1 && finding.line <= lines, "{finding:?}");
            assert!(finding.column >= 1);
        }
    }
});
