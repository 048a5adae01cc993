use super::*;
use crate::records::check::{CheckOptions, OperationChecks};
use crate::records::record::{Line, check_line};

/// The first position of Ethereal's `fischer.epd`, with its counts to depth 6.
const FISCHER_0: &str = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ;D1 21 ;D2 528 ;D3 12189 ;D4 326672 ;D5 8146062 ;D6 227689589";

/// SP 860, the start of a game whose `Qxh7` is illegal (the queen's file is blocked).
const SP_860: &str = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea -";

/// A Chess960 position where white may castle both ways: king c1, rooks a1 and e1
/// (O-O: king to g1, rook to f1; O-O-O: the king stays on c1, the rook goes to d1).
const BOTH_WAYS: &str = "r1k1r2q/pppppppp/8/8/8/8/PPPPPPPP/R1K1R2Q w EAea -";

fn checking(perft_depth: u32) -> CheckOptions {
    CheckOptions {
        operations: OperationChecks::Position { perft_depth },
        ..CheckOptions::default()
    }
}

fn verdict(line: &str, perft_depth: u32) -> Result<(), Problem> {
    match check_line(line.as_bytes(), &checking(perft_depth)) {
        Line::Record(result) => result.map(|_| ()),
        other => panic!("{line}: not a record: {other:?}"),
    }
}

fn problem(line: &str, perft_depth: u32) -> Problem {
    verdict(line, perft_depth).expect_err(line)
}

/// The 1-based column of the `nth` (from 1) occurrence of `needle` in `line`.
fn column(line: &str, needle: &str, nth: usize) -> usize {
    line.match_indices(needle).nth(nth - 1).expect(needle).0 + 1
}

#[test]
fn right_perft_counts_pass() {
    verdict(FISCHER_0, 4).unwrap();
    // The four-field form of the standard suites.
    verdict(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20 ;D2 400 ;D3 8902",
        3,
    )
    .unwrap();
    // A repeated depth is checked each time (and counted once).
    verdict(&format!("{SP_860} ;D2 400 ;D1 20 ;D2 400"), 2).unwrap();
}

#[test]
fn a_wrong_count_is_reported_at_its_operand_with_the_right_one() {
    let line = FISCHER_0.replace("D3 12189", "D3 12190");
    let p = problem(&line, 4);
    assert_eq!(
        (p.column, p.field, p.kind.name()),
        (
            column(&line, "12190", 1),
            Field::Operations,
            "WrongPerftCount"
        )
    );
    assert_eq!(
        p.message,
        "EPD operation D3 is 12190 here, the right count is 12189"
    );
    let line = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20 ;D2 401";
    let p = problem(line, 4);
    assert_eq!(p.column, column(line, "401", 1));
    assert_eq!(
        p.message,
        "EPD operation D2 is 401 here, the right count is 400"
    );
}

#[test]
fn counts_deeper_than_the_perft_depth_are_not_counted() {
    let wrong_at_3 = FISCHER_0.replace("D3 12189", "D3 12190");
    verdict(&wrong_at_3, 2).unwrap();
    problem(&wrong_at_3, 3);
    // Depth 0: nothing counted; moves still checked.
    let wrong_at_1 = FISCHER_0.replace("D1 21", "D1 22");
    verdict(&wrong_at_1, 0).unwrap();
    let p = problem(&format!("{SP_860} ;D1 99 ;bm Qxh7"), 0);
    assert_eq!(p.kind, ProblemKind::IllegalOperationMove);
    // A depth above the deepest --perft-depth is never counted, whatever is asked.
    verdict(&format!("{SP_860} ;D{} 1", MAX_PERFT_DEPTH + 1), u32::MAX).unwrap();
}

#[test]
fn operations_are_only_read_when_asked() {
    // What normalize, the book statistics and the openings readers ask: syntax only.
    let line = format!("{SP_860} bm Qxh7; ;D1 99");
    match check_line(line.as_bytes(), &CheckOptions::default()) {
        Line::Record(Ok(_)) => {}
        other => panic!("{other:?}"),
    }
    // Other operations say nothing about the position.
    verdict(
        &format!("{SP_860} id \"SP 860\"; c0 \"bm Qxh7\"; acd 3; D 5; Dx 1;"),
        4,
    )
    .unwrap();
}

#[test]
fn bad_perft_operations_are_errors() {
    let cases: [(&str, &str, &str); 8] = [
        (
            ";D3 abc",
            "abc",
            "EPD operation D3: expected a count (digits 0-9), found `abc`",
        ),
        (
            ";D0 1",
            "D0",
            "EPD operation D0: a perft depth is 1 or more",
        ),
        (
            ";D99 1",
            "D99",
            "EPD operation D99: depth 99 is out of range: perft counts are read for depths 1 to 15",
        ),
        (
            ";D99999999999 1",
            "D99999999999",
            "EPD operation D99999999999: depth 99999999999 is out of range: perft counts are read for depths 1 to 15",
        ),
        (
            ";D2",
            "D2",
            "EPD operation D2: no count (write the number of leaf nodes at depth 2: `D2 N`)",
        ),
        (
            ";D1 20 21",
            "21",
            "EPD operation D1: one count expected, found more: `21`",
        ),
        (
            ";D1 99999999999999999999",
            "99999999999999999999",
            "EPD operation D1: count 99999999999999999999 is too large (at most 18446744073709551615)",
        ),
        (
            ";D1 \"20\"",
            "\"20\"",
            "EPD operation D1: expected a count (digits 0-9), found `\"20\"`",
        ),
    ];
    for (operations, at, message) in cases {
        let line = format!("{SP_860} {operations}");
        let p = problem(&line, 4);
        assert_eq!(
            (p.column, p.kind.name(), p.message.as_str()),
            (column(&line, at, 1), "InvalidOperation", message),
            "{line}"
        );
    }
}

#[test]
fn an_illegal_bm_in_san_and_in_uci() {
    let line = format!("{SP_860} bm Qxh7; id \"SP 860\";");
    let p = problem(&line, 4);
    assert_eq!(
        (p.column, p.field, p.kind.name()),
        (
            column(&line, "Qxh7", 1),
            Field::Operations,
            "IllegalOperationMove"
        )
    );
    assert_eq!(
        p.message,
        "EPD operation bm: Qxh7 is not a legal move here (no queen can go to h7)"
    );
    let line = format!("{SP_860} bm e4 h1h7;");
    let p = problem(&line, 4);
    assert_eq!(p.column, column(&line, "h1h7", 1));
    assert_eq!(
        p.message,
        "EPD operation bm: h1h7 is not a legal move here (the queen on h1 cannot go to h7)"
    );
    // am and sm name legal moves too; each move of several is checked.
    let line = format!("{SP_860} am f2f4 Nd3;");
    let p = problem(&line, 4);
    assert_eq!(
        (p.column, p.message.as_str()),
        (
            column(&line, "Nd3", 1),
            "EPD operation am: Nd3 is not a legal move here (no knight can go to d3)"
        )
    );
    let p = problem(&format!("{SP_860} sm e2e5;"), 4);
    assert!(
        p.message.contains("the pawn on e2 cannot go to e5"),
        "{p:?}"
    );
    let p = problem(&format!("{SP_860} bm e7e5;"), 4);
    assert!(
        p.message
            .contains("the pawn on e7 is black's, and white is to move"),
        "{p:?}"
    );
    let p = problem(&format!("{SP_860} bm e3e4;"), 4);
    assert!(p.message.contains("no piece on e3"), "{p:?}");
    let p = problem("4k3/8/8/8/8/8/8/1N2KN2 w - - bm Nd2;", 4);
    assert_eq!(
        p.message,
        "EPD operation bm: Nd2 is ambiguous here (more than one knight can go to d2)"
    );
    let p = problem(&format!("{SP_860} bm Ke2;"), 4);
    assert_eq!(
        p.message,
        "EPD operation bm: Ke2 is not a legal move here (no king can go to e2)"
    );
}

#[test]
fn unreadable_null_and_missing_moves() {
    let line = format!("{SP_860} bm e4 xyz;");
    let p = problem(&line, 4);
    assert_eq!(
        (p.column, p.kind.name(), p.message.as_str()),
        (
            column(&line, "xyz", 1),
            "IllegalOperationMove",
            "EPD operation bm: `xyz` is not a move (neither SAN, such as Nf3, nor UCI, such as g1f3)"
        )
    );
    for null in ["0000", "--"] {
        let p = problem(&format!("{SP_860} bm {null};"), 4);
        assert_eq!(
            p.message,
            format!("EPD operation bm: {null} is a null move, not a move that can be played")
        );
    }
    for opcode in ["bm", "am", "sm", "pv"] {
        let line = format!("{SP_860} id \"x\"; {opcode};");
        let p = problem(&line, 4);
        assert_eq!(
            (p.column, p.kind.name()),
            (column(&line, opcode, 1), "InvalidOperation"),
            "{line}"
        );
        assert!(p.message.contains("no move"), "{p:?}");
    }
}

#[test]
fn a_legal_castling_bm_in_both_notations_on_a_chess960_position() {
    // SAN (O-O and 0-0), king takes rook (c1e1, what python-chess writes), king to its
    // square (c1g1; c1c1 for O-O-O, where the king stays).
    for moves in [
        "O-O", "0-0", "c1e1", "c1g1", "O-O-O", "0-0-0+", "c1a1", "c1c1",
    ] {
        verdict(&format!("{BOTH_WAYS} bm {moves};"), 4).unwrap();
    }
    verdict(&format!("{BOTH_WAYS} pv O-O O-O c1e1;"), 4).unwrap_err();
    verdict(&format!("{BOTH_WAYS} pv O-O O-O-O Rfe1;"), 4).unwrap();
    // The same moves in SP 860 are blocked by the pieces between.
    let p = problem(&format!("{SP_860} bm O-O;"), 4);
    assert_eq!(
        p.message,
        "EPD operation bm: O-O is not a legal move here (king-side (O-O) castling with the rook on e1: a piece stands between)"
    );
    let p = problem(&format!("{SP_860} bm c1e1;"), 4);
    assert!(
        p.message.contains("the king on c1 cannot go to e1"),
        "{p:?}"
    );
    let p = problem("4k3/8/8/8/8/8/8/R3K3 w A - bm O-O;", 4);
    assert!(
        p.message
            .contains("white has no king-side (O-O) castling right"),
        "{p:?}"
    );
    // Through an attacked square: the rook on f8 covers f1.
    let p = problem("5rk1/8/8/8/8/8/8/4K2R w H - bm O-O;", 4);
    assert!(
        p.message
            .contains("pass through or land on an attacked square"),
        "{p:?}"
    );
}

#[test]
fn a_pv_that_goes_illegal_at_its_third_move() {
    let line = format!("{SP_860} pv e2e4 e5 Qxh7 Qxh2;");
    let p = problem(&line, 4);
    assert_eq!(
        (p.column, p.kind.name()),
        (column(&line, "Qxh7", 1), "IllegalOperationMove")
    );
    assert_eq!(
        p.message,
        "EPD operation pv: Qxh7 (move 3) is not a legal move after e2e4 e5 (no queen can go to h7), in rbknrnbq/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RBKNRNBQ w EAea - 0 2"
    );
    // The same line with a playable third move passes.
    verdict(&format!("{SP_860} pv e2e4 e5 Nc3 Nc6;"), 4).unwrap();
}

#[test]
fn the_first_problem_in_the_line_is_reported() {
    let line = format!("{SP_860} bm Qxh7 ;D1 21");
    assert_eq!(problem(&line, 4).kind, ProblemKind::IllegalOperationMove);
    let line = format!("{SP_860} ;D1 21; bm Qxh7");
    assert_eq!(problem(&line, 4).kind, ProblemKind::WrongPerftCount);
    let line = format!("{SP_860} ;D1 21 ;D0 1");
    assert_eq!(problem(&line, 4).kind, ProblemKind::WrongPerftCount);
    let line = format!("{SP_860} ;D0 1 ;D1 21");
    assert_eq!(problem(&line, 4).kind, ProblemKind::InvalidOperation);
}

#[test]
fn shared_counts_equal_shakmaty_s() {
    let position = match check_line(FISCHER_0.as_bytes(), &CheckOptions::default()) {
        Line::Record(Ok(record)) => record.position,
        other => panic!("{other:?}"),
    };
    for depth in 0..=4 {
        assert_eq!(
            perft_count(&position, depth),
            perft(&position, depth),
            "{depth}"
        );
    }
}
