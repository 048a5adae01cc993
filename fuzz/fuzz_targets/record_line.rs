//! The FEN/EPD record parser on arbitrary bytes, EPD operations checked against the
//! position as `sp960 validate` checks them (perft counts to depth 2): every line gets a
//! verdict, never a panic, and the cheap verdict agrees with the full check.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sp960::{CheckOptions, OperationChecks};
use sp960::{Line, Verdict, check_line, validate_line};

fuzz_target!(|data: &[u8]| {
    let options = CheckOptions {
        operations: OperationChecks::Position { perft_depth: 2 },
        ..CheckOptions::default()
    };
    for line in data.split(|b| *b == b'\n') {
        let full = check_line(line, &options);
        let cheap = validate_line(line, &options);
        match (full, cheap) {
            (Line::Blank | Line::Comment, Verdict::Skipped)
            | (Line::Record(Ok(_)), Verdict::Valid(_))
            | (Line::Record(Err(_)), Verdict::Invalid(_)) => {}
            (full, cheap) => panic!("check_line and validate_line disagree: {full:?} / {cheap:?}"),
        }
    }
});
