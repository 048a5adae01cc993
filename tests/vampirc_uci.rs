//! Why `protocol/` reads UCI itself instead of with vampirc-uci (the parser the design
//! card names): vampirc-uci 0.11 rejects lines that every role here must read. Each
//! assertion is the evidence quoted in `src/protocol/mod.rs`; if a vampirc-uci release
//! starts reading them, this test fails and the decision can be revisited.

use vampirc_uci::{UciMessage, parse_strict, parse_with_unknown};

/// True when vampirc-uci reads `line` as a proper message (not an error, not `Unknown`).
fn reads(line: &str) -> bool {
    let strict = parse_strict(&format!("{line}\n"));
    let lenient = parse_with_unknown(&format!("{line}\n"));
    strict.is_ok() && !matches!(lenient.first(), Some(UciMessage::Unknown(..)) | None)
}

#[test]
fn vampirc_uci_rejects_shredder_fens_and_null_bestmoves() {
    // What every Chess960 GUI sends: Shredder castling rights.
    assert!(!reads(
        "position fen rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1"
    ));
    // What engines answer in a position without moves, and what the proxy's shield sends.
    assert!(!reads("bestmove 0000"));
    assert!(!reads("bestmove (none)"));
    // It does read the ordinary lines: the comparison is fair.
    assert!(reads("position startpos moves e2e4 e7e5"));
    assert!(reads("bestmove e2e4 ponder e7e5"));
    assert!(reads("go wtime 1000 btime 1000 winc 10 binc 10"));
}
